"""The arrays of one env's output and of its action dict, by name: ``EnvSpec``'s
``state_array_spec`` and ``action_array_spec`` (the layout of sail-sg EnvPool's specs,
which its scripts read, and the action dict that ``send`` takes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envpool.core import spaces as envpool_spaces


class ArraySpec:
    """The dtype, shape and bounds of one array of the action dict
    (``EnvSpec.action_array_spec``) or of one env's output (``state_array_spec``), as
    sail-sg EnvPool's ``ArraySpec``. ``-1`` in ``shape`` is the players dimension."""

    def __init__(self, dtype: Any, shape: Sequence[int], minimum: Any, maximum: Any,
                 inner_shape: Sequence[int] | None = None) -> None:
        self.dtype = np.dtype(dtype)
        self.shape = list(shape)
        self.minimum = minimum
        self.maximum = maximum
        #: A container array (each value is an array of ``dtype``): the shape of its
        #: values, ``-1`` where each value has its own size; else None.
        self.inner_shape = None if inner_shape is None else list(inner_shape)

    def __repr__(self) -> str:
        return (f"ArraySpec(shape={self.shape}, dtype={self.dtype}, minimum={self.minimum}, "
                f"maximum={self.maximum})")


def _array(array: dict[str, Any]) -> ArraySpec:
    """The :class:`ArraySpec` of a native array: ``-1`` leads the shape of a per-player
    one (the players dimension); a container array is an object array of arrays."""
    players = [-1] if array.get("per_player") else []
    if array.get("container"):  # (bounds of its elements)
        low, high = envpool_spaces.bounds({**array, "shape": []}, scalar=True)
        return ArraySpec(object, players, low, high, inner_shape=array["shape"])
    low, high = envpool_spaces.bounds(array, scalar=True)
    return ArraySpec(array["dtype"], [*players, *array["shape"]], low, high)


def state_array_spec(native_spec: dict[str, Any], num_envs: int) -> dict[str, ArraySpec]:
    """The arrays of one env's output, in sail-sg EnvPool's order and by its names:
    ``info:env_id``, ``info:players.env_id``, ``elapsed_step``, ``done`` (terminated or
    truncated), ``reward``, ``discount``, ``step_type`` (dm_env's), ``trunc``
    (truncated), then ``obs`` (or ``obs:<name>`` for each array of a dict observation)
    and ``info:<key>`` for each of the env's info keys."""
    last_env = num_envs - 1
    out: dict[str, ArraySpec] = {
        "info:env_id": ArraySpec(np.int32, [], 0, last_env),
        "info:players.env_id": ArraySpec(np.int32, [-1], 0, last_env),
        "elapsed_step": ArraySpec(np.int32, [], 0, np.iinfo(np.int32).max),
        "done": ArraySpec(np.bool_, [], False, True),
        "reward": ArraySpec(np.float32, [-1], -np.inf, np.inf),
        "discount": ArraySpec(np.float32, [-1], 0.0, 1.0),
        "step_type": ArraySpec(np.int32, [], 0, 2),
        "trunc": ArraySpec(np.bool_, [], False, True),
    }
    single = native_spec["obs_layout"] != "dict" and len(native_spec["obs"]) == 1
    for o in native_spec["obs"]:
        out["obs" if single else f"obs:{o['name']}"] = _array(o)
    for i in envpool_spaces.info_arrays(native_spec):
        out[f"info:{i['name']}"] = _array(i)
    return out


def action_array_spec(native_spec: dict[str, Any], num_envs: int,
                      max_num_players: int) -> dict[str, ArraySpec]:
    """The arrays of the action dict that ``send`` / ``step`` take: ``env_id``,
    ``players.env_id`` and ``action``; a multi-player env's own action (one per env;
    none where it has no elements: the players act), then one value per player of each
    player action array."""
    action = native_spec["action"]
    if action["n"] > 0:
        low: Any = action["start"]
        high: Any = action["start"] + action["n"] - 1
    else:
        low, high = envpool_spaces.bounds(action, scalar=True)
    last_env = num_envs - 1
    arrays = {"env_id": ArraySpec(np.int32, [], 0, last_env),
              "players.env_id": ArraySpec(np.int32, [-1], 0, last_env)}
    if not max_num_players:
        arrays["action"] = ArraySpec(action["dtype"], [-1, *action["shape"]], low, high)
        return arrays
    if not envpool_spaces.players_act(native_spec):
        arrays[action["name"]] = ArraySpec(action["dtype"], list(action["shape"]), low, high)
    for a in native_spec["player_actions"]:
        arrays[a["name"]] = _array({**a, "per_player": True})
    return arrays
