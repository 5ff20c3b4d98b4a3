"""Different settings per env in one pool: ``make(task, num_envs=n, env_kwargs=...)``.

``env_kwargs`` is one dict per env, or a dict of length-``num_envs`` sequences; each
env's keywords override the global ones. Only the keywords a task lists as varying
per env (``TaskSpec.per_env_kwargs``: those that change neither a space nor what the
envs share) are accepted; a value may be :class:`Uniform` for the keywords the task
can draw anew at each reset (``TaskSpec.random_kwargs``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Uniform:
    """A keyword value drawn anew at each reset: uniformly from ``[low, high)``.

    Given as an env's value in ``make(..., env_kwargs=...)`` (domain randomisation),
    for the keywords a task can draw at reset. Each env draws from its own random
    generator before each of its resets, so the same seeds give the same draws,
    whatever ``num_threads``; ``info_env_kwargs=True`` reports the values drawn.

    Args:
        low: The smallest value (a finite number).
        high: The bound of the values, ``>= low``.

    Raises:
        TypeError: ``low`` or ``high`` is not a finite number.
        ValueError: ``low > high``.

    Examples:
        >>> import envpool
        >>> env = envpool.make("Pendulum-v1", num_envs=2, seed=0, info_env_kwargs=True,
        ...                    env_kwargs={"g": [envpool.Uniform(8, 12)] * 2})
        >>> obs, info = env.reset()
        >>> g = info["env_kwargs"]["g"]
        >>> g.shape, bool(((8 <= g) & (g < 12)).all())
        ((2,), True)
        >>> env.close()
    """

    low: float
    high: float

    def __post_init__(self) -> None:
        for name in ("low", "high"):
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                    value, (int, float, np.integer, np.floating)) or not math.isfinite(value):
                raise TypeError(f"Uniform's {name} must be a finite number, got {value!r}")
            object.__setattr__(self, name, float(value))
        if self.low > self.high:
            raise ValueError(f"Uniform needs low <= high, got ({self.low}, {self.high})")


def per_env_dicts(env_kwargs: Any, num_envs: int) -> list[dict[str, Any]]:
    """``env_kwargs`` as one dict per env: a sequence of ``num_envs`` dicts, or a dict
    whose values are sequences of ``num_envs`` values (one per env)."""
    if isinstance(env_kwargs, Mapping):
        per_env: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        for key, values in env_kwargs.items():
            if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
                raise TypeError(f"env_kwargs[{key!r}] must be a sequence of {num_envs} values "
                                f"(one per env), got {values!r}; a value for every env is a "
                                f"plain keyword ({key}=...)")
            if len(values) != num_envs:
                raise ValueError(f"env_kwargs[{key!r}] needs {num_envs} values (one per env, "
                                 f"num_envs={num_envs}), got {len(values)}")
            for env, value in zip(per_env, values, strict=True):
                env[key] = value
        return per_env
    if isinstance(env_kwargs, (Sequence, np.ndarray)) and not isinstance(env_kwargs, (str, bytes)):
        if len(env_kwargs) != num_envs:
            raise ValueError(f"env_kwargs needs {num_envs} dicts (one per env, num_envs="
                             f"{num_envs}), got {len(env_kwargs)}")
        bad = [i for i, d in enumerate(env_kwargs) if not isinstance(d, Mapping)]
        if bad:
            raise TypeError(f"env_kwargs[{bad[0]}] must be a dict, got {env_kwargs[bad[0]]!r}")
        return [dict(d) for d in env_kwargs]
    raise TypeError("env_kwargs must be a list of dicts (one per env) or a dict of "
                    f"sequences (one value per env), got {env_kwargs!r}")


def check_keys(task_id: str, per_env: list[dict[str, Any]], valid: set[str], pool_keys: set[str],
               allowed: frozenset[str], random: frozenset[str]) -> None:
    """Refuses pool keywords, unknown keywords, keywords that cannot vary per env, and
    ranges where the task cannot draw at reset, naming them."""
    keys = set().union(*per_env)
    pool = sorted(keys & pool_keys)
    if pool:
        raise TypeError(f"env_kwargs cannot hold {', '.join(pool)}: they are keywords of the "
                        "whole pool (pass them to make)")
    unknown = sorted(keys - valid)
    if unknown:
        raise TypeError(f"{task_id} got unknown keyword(s) {', '.join(unknown)} in env_kwargs; "
                        f"valid keywords: {', '.join(sorted(valid))}")
    fixed = sorted(keys - allowed)
    if fixed:
        can = ", ".join(sorted(allowed)) or "none"
        raise ValueError(f"{task_id} cannot vary {', '.join(fixed)} per env (they change a space "
                         f"or what the envs share); keywords that can vary: {can}")
    ranged = sorted({k for d in per_env for k, v in d.items() if isinstance(v, Uniform)} - random)
    if ranged:
        can = ", ".join(sorted(random)) or "none"
        raise ValueError(f"{task_id} cannot draw {', '.join(ranged)} at reset (envpool.Uniform); "
                         f"keywords that can: {can}")


def info_column(values: list[Any]) -> np.ndarray:
    """One env setting for every env as an array (a row per env); lists of different
    lengths (Meta-World's rand_vecs) as an object array of lists."""
    column = [v.low if isinstance(v, Uniform) else v for v in values]
    try:
        return np.asarray(column)
    except ValueError:
        ragged = np.empty(len(column), dtype=object)
        ragged[:] = column
        return ragged


class EnvKwargsInfo:
    """``info["env_kwargs"]`` (``info_env_kwargs=True``): each env's value of every keyword
    that varies, a row per env of the batch; the values drawn at reset (:class:`Uniform`)
    are read from the native pool at each batch."""

    def __init__(self, env_configs: list[dict[str, Any]], keys: tuple[str, ...],
                 native_ranges: list[list[tuple[str, float, float]]]) -> None:
        self._columns = {k: info_column([c[k] for c in env_configs]) for k in keys}
        # env id -> the keywords it draws, in the native pool's order
        self._drawn = {i: [r[0] for r in ranges] for i, ranges in enumerate(native_ranges)
                       if ranges}

    def rows(self, env_id: np.ndarray,
             drawn: Callable[[int], list[float]]) -> dict[str, np.ndarray]:
        """The values of the envs ``env_id``; ``drawn(env)`` gives an env's drawn values."""
        values = {k: v[env_id] for k, v in self._columns.items()}
        if self._drawn:
            for row, env in enumerate(env_id.tolist()):
                keys = self._drawn.get(env)
                if keys:
                    for key, value in zip(keys, drawn(env), strict=True):
                        values[key][row] = value
        return values
