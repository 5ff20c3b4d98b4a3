"""gymnasium spaces and dm_env specs built from the native env's array specs."""

from __future__ import annotations

from typing import Any

import dm_env.specs
import numpy as np
from gymnasium import spaces

NativeArray = dict[str, Any]  # {"name", "dtype", "shape", "low", "high", "n", "start"}

#: The separator of a nested observation's names in a dict layout: the array
#: "achieved_goal:kettle" is ``obs["achieved_goal"]["kettle"]`` (a Dict in a Dict, as
#: FrankaKitchen's goals; sail-sg EnvPool's key "obs:achieved_goal:kettle").
NEST = ":"


def nest(names: list[str], values: list[Any]) -> dict[str, Any]:
    """The dict of ``values`` by ``names``, nested at each :data:`NEST` of a name, in order."""
    out: dict[str, Any] = {}
    for name, value in zip(names, values, strict=True):
        *path, leaf = name.split(NEST)
        node = out
        for key in path:
            node = node.setdefault(key, {})
        node[leaf] = value
    return out


def leaves(tree: Any) -> list[Any]:
    """The arrays of a (nested) dict or tuple of them, in order (:func:`nest`'s inverse)."""
    if isinstance(tree, dict):
        return [x for v in tree.values() for x in leaves(v)]
    if isinstance(tree, tuple):
        return [x for v in tree for x in leaves(v)]
    return [tree]


def _dict_space(tree: dict[str, Any]) -> spaces.Dict:
    return spaces.Dict({k: _dict_space(v) if isinstance(v, dict) else v for k, v in tree.items()})


def _bounds(spec: NativeArray) -> tuple[np.ndarray, np.ndarray]:
    dtype = np.dtype(spec["dtype"])
    shape = tuple(spec["shape"])
    if spec["low"]:
        low, high = np.asarray(spec["low"], np.float64), np.asarray(spec["high"], np.float64)
    elif dtype.kind == "f":
        low, high = np.array(-np.inf), np.array(np.inf)
    elif dtype == np.bool_:
        low, high = np.array(0.0), np.array(1.0)
    else:
        info = np.iinfo(dtype)
        low, high = np.array(info.min, np.float64), np.array(info.max, np.float64)
    low = np.broadcast_to(low.reshape(shape) if low.size > 1 else low.reshape(()),
                          shape).astype(dtype)
    high = np.broadcast_to(high.reshape(shape) if high.size > 1 else high.reshape(()),
                           shape).astype(dtype)
    return low, high


def bounds(spec: NativeArray, scalar: bool = False) -> tuple[Any, Any]:
    """The low and high bounds of one native array, in its shape and dtype; ``scalar``:
    as two scalars where every element has the same ones (sail-sg EnvPool's dm State specs
    and ``ArraySpec`` give them so: ``spec.maximum == 255`` then reads as one bool)."""
    low, high = _bounds(spec)
    if scalar and low.size and (low == low.flat[0]).all() and (high == high.flat[0]).all():
        return low.flat[0], high.flat[0]
    return low, high


def gymnasium_space(spec: NativeArray) -> spaces.Space:
    """The gymnasium space of one native array (per env, no batch dimension; one
    player's value of a multi-player env's per-player array). A container array whose
    values are arrays of a free number of rows of a fixed shape is gymnasium's
    ``Sequence`` of those rows."""
    dtype = np.dtype(spec["dtype"])
    if spec.get("container"):
        rows = list(spec["shape"])
        if rows[:1] != [-1] or -1 in rows[1:]:
            raise ValueError(f"container array {spec['name']!r} of shape {rows}: only a free "
                             "number of rows (-1 first) has a gymnasium space")
        return spaces.Sequence(gymnasium_space({**spec, "container": False,
                                                "shape": rows[1:]}), stack=True)
    if spec["n"] > 0 and not spec["shape"]:
        return spaces.Discrete(spec["n"], start=spec["start"], dtype=dtype)
    if spec["n"] > 0:
        nvec = np.full(tuple(spec["shape"]), spec["n"], dtype=dtype)
        return spaces.MultiDiscrete(nvec, dtype=dtype, start=np.full_like(nvec, spec["start"]))
    low, high = _bounds(spec)
    return spaces.Box(low=low, high=high, shape=tuple(spec["shape"]), dtype=dtype)


def observation_space(native_spec: dict[str, Any]) -> spaces.Space:
    """The single-env observation space: one array, a Tuple or a Dict."""
    obs = native_spec["obs"]
    layout = native_spec["obs_layout"]
    if layout == "array":
        return gymnasium_space(obs[0])
    if layout == "tuple":
        return spaces.Tuple([gymnasium_space(o) for o in obs])
    return _dict_space(nest([o["name"] for o in obs], [gymnasium_space(o) for o in obs]))


def action_space(native_spec: dict[str, Any]) -> spaces.Space:
    """The single-env action space. Discrete actions are int64 here, gymnasium's (and
    sail-sg EnvPool's) default, so that ``contains`` accepts what policies produce; the
    pool takes any integer dtype and checks the range itself."""
    action = native_spec["action"]
    if action["n"] > 0:
        action = {**action, "dtype": "int64"}
    return gymnasium_space(action)


def dm_spec(spec: NativeArray, name: str | None = None,
            scalar_bounds: bool = False) -> dm_env.specs.Array:
    """The dm_env spec of one native array (per env). ``scalar_bounds``: see
    :func:`bounds` (dm_env broadcasts scalar bounds)."""
    name = name or spec["name"]
    dtype = np.dtype(spec["dtype"])
    shape = tuple(spec["shape"])
    if spec["n"] > 0 and not shape and spec["start"] == 0:
        return dm_env.specs.DiscreteArray(spec["n"], dtype=dtype, name=name)
    if spec["low"]:
        low, high = bounds(spec, scalar_bounds)
        return dm_env.specs.BoundedArray(shape, dtype, low, high, name=name)
    return dm_env.specs.Array(shape, dtype, name=name)
