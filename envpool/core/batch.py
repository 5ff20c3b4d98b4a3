"""One batch of results, as the pool reads it from the native pool: :class:`RawBatch`.

The native pool returns flat lists of arrays (the observation's, the info's); the
functions here lay them out once, for numpy arrays (``recv``) and jax arrays (``xla``)
alike: the observation as the env's layout (one array, a tuple or a nested dict), the
info arrays by name, the env's own discount (:data:`~envpool.core.spaces.DISCOUNT`) apart.
A flavour turns a RawBatch into its own return values.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from envpool.core.spaces import DISCOUNT
from envpool.core.tree import nest


class RawBatch(NamedTuple):
    """One native batch, as numpy views (or jax arrays, in ``xla()``)."""

    obs: Any  # an array, a tuple of arrays or a dict of arrays (the obs layout)
    info: dict[str, np.ndarray]  # the env's own info arrays (spaces.info_arrays)
    env_id: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    elapsed_step: np.ndarray
    final_obs: Any  # same-step autoreset only, else None
    final_info: dict[str, np.ndarray] | None  # the env's info arrays of final_obs's step
    discount: np.ndarray | None = None  # the env's own discount (DISCOUNT), if it has one
    # Multi-player envs (spec.max_num_players > 0): the players of each row, and the env
    # of each player. Per-player arrays (observations, info keys, reward) then hold the
    # rows' players one after the other, not one row per env.
    num_players: np.ndarray | None = None
    players_env_id: np.ndarray | None = None


def layout_obs(layout: str, names: list[str], arrays: list[Any]) -> Any:
    """The observation arrays in the env's layout: ``"array"`` (the one array),
    ``"tuple"`` or ``"dict"`` (nested at the names' separators)."""
    if layout == "array":
        return arrays[0]
    if layout == "tuple":
        return tuple(arrays)
    return nest(names, arrays)


def split_info(names: list[str], arrays: list[Any]) -> tuple[dict[str, Any], Any]:
    """The info arrays by name, and the env's own discount apart (None without one)."""
    if not arrays:
        return {}, None
    infos = dict(zip(names, arrays, strict=True))
    return infos, infos.pop(DISCOUNT, None)
