"""gymnasium spaces and dm_env specs built from the native env's array specs.

A native spec (``factory.spec()``) lists the env's arrays: ``obs`` (laid out as one
array, a tuple or a dict: ``obs_layout``), ``info`` and ``action``, each a
:data:`NativeArray`. This module reads them into gymnasium spaces (the gymnasium and gym
flavours') and ``dm_env.specs`` (the dm flavour's ``State`` and ``EnvSpec.observation_spec``).
"""

from __future__ import annotations

import collections
from typing import Any

import dm_env.specs
import numpy as np
from gymnasium import spaces

from envpool.core.tree import nest

NativeArray = dict[str, Any]  # {"name", "dtype", "shape", "low", "high", "n", "start"}

#: The native info array in which an env reports its own discount (the Atari envs'
#: ``zero_discount_on_life_loss``): a field of each step, as the reward is, not an info
#: key. The pool hands it on as ``RawBatch.discount``; the dm flavour's TimeStep uses it.
DISCOUNT = "discount"


def info_arrays(native_spec: dict[str, Any]) -> list[NativeArray]:
    """The env's own info arrays: the native ones but :data:`DISCOUNT` and a multi-player
    env's per-player ``reward`` (a field of each step, not an info key)."""
    return [i for i in native_spec["info"] if i["name"] != DISCOUNT
            and not (i["name"] == "reward" and i.get("per_player"))]


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


def observation_space(native_spec: dict[str, Any],
                      space_dtypes: dict[str, str] | None = None) -> spaces.Space:
    """The single-env observation space: one array, a Tuple or a Dict. ``space_dtypes``
    gives some arrays' spaces another dtype than the arrays' (TaskSpec.space_dtypes)."""
    obs = [{**o, "dtype": space_dtypes[o["name"]]} if o["name"] in (space_dtypes or {}) else o
           for o in native_spec["obs"]]
    layout = native_spec["obs_layout"]
    if layout == "array":
        return _obs_space(obs[0])
    if layout == "tuple":
        return spaces.Tuple([_obs_space(o) for o in obs])
    return _dict_space(nest([o["name"] for o in obs], [_obs_space(o) for o in obs]))


def _obs_space(spec: NativeArray) -> spaces.Space:
    """An observation array's space: a bool array (the PGX games' planes) is gymnasium's
    ``MultiBinary`` of its shape, as sail-sg EnvPool gives it; others ``gymnasium_space``."""
    if np.dtype(spec["dtype"]) == np.bool_ and not spec.get("container") and not spec["n"]:
        return spaces.MultiBinary(list(spec["shape"]))
    return gymnasium_space(spec)


def players_act(native_spec: dict[str, Any]) -> bool:
    """Whether a multi-player env's actions are all its players': its own ``action`` has no
    elements and one ``player_actions`` array holds each player's (sail-sg EnvPool's
    multi-agent highway intersection: ``players.action``)."""
    return (bool(native_spec.get("max_num_players")) and 0 in native_spec["action"]["shape"]
            and len(native_spec["player_actions"]) == 1)


def env_action(native_spec: dict[str, Any]) -> NativeArray:
    """The native array of the action space: the env's ``action``, or one player's action
    where the players act (:func:`players_act`)."""
    if players_act(native_spec):
        return {**native_spec["player_actions"][0], "per_player": False}
    return native_spec["action"]


def action_space(native_spec: dict[str, Any]) -> spaces.Space:
    """The single-env action space (one player's where the players act:
    :func:`env_action`). Discrete actions are int64 here, gymnasium's (and sail-sg
    EnvPool's) default, so that ``contains`` accepts what policies produce; the pool takes
    any integer dtype and checks the range itself."""
    action = env_action(native_spec)
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


#: ``State.players``: the player fields of the dm flavour's State (one player per env; a
#: multi-player env's class has its ``players.<key>`` info arrays too: :func:`players_class`).
Players = collections.namedtuple("Players", ["env_id"])


def players_class(native_spec: dict[str, Any]) -> type:
    """``State.players``' class: :data:`Players`, with the fields of a multi-player env's
    ``players.<key>`` info arrays after ``env_id``."""
    keys = [i["name"][len("players."):] for i in native_spec["info"]
            if i["name"].startswith("players.")]
    return collections.namedtuple("Players", ["env_id", *keys]) if keys else Players


def dm_specs(native_spec: dict[str, Any]) -> tuple[type, Any, Any]:
    """The dm flavour's ``State`` namedtuple class, its per-env observation spec (a
    ``State`` of ``dm_env.specs``) and the per-env action spec of an env.

    ``State`` holds the observation arrays (one array is ``obs``, or ``pixels`` for
    ``from_pixels=True``, as dm_control's pixels wrapper names it; a dict's top-level
    keys), then ``env_id``, ``players``, ``elapsed_step`` and the env's info arrays
    (:func:`info_arrays`; a multi-player env's ``players.<key>`` ones are fields of
    ``players``)."""
    native = native_spec
    obs_names = [o["name"] for o in native["obs"]]
    if native["obs_layout"] == "array":
        obs_names = ["pixels" if native["obs"][0]["name"] == "pixels" else "obs"]
    infos = info_arrays(native)
    player_infos = [i for i in infos if i["name"].startswith("players.")]
    infos = [i for i in infos if not i["name"].startswith("players.")]
    obs_specs = [_state_spec(o, name) for o, name in zip(native["obs"], obs_names, strict=True)]
    if native["obs_layout"] == "dict":  # a nested dict's arrays: one field of dicts
        tree = nest(obs_names, obs_specs)
        obs_names, obs_specs = list(tree), list(tree.values())
    state = collections.namedtuple(
        "State", [*obs_names, "env_id", "players", "elapsed_step", *[i["name"] for i in infos]])
    int32 = {"dtype": "int32", "shape": (), "low": [], "high": [], "n": 0, "start": 0}
    env_id = dm_spec({**int32, "name": "env_id"})
    observation_spec = state(
        *obs_specs,
        env_id,
        players_class(native)(env_id, *[_state_spec(i, i["name"]) for i in player_infos]),
        dm_spec({**int32, "name": "elapsed_step"}),
        *[dm_spec(i, scalar_bounds=True) for i in infos],
    )
    return state, observation_spec, dm_spec(env_action(native))


def _state_spec(array: NativeArray, name: str) -> Any:
    """The dm spec of one native array in ``State`` (a container array: an object array's)."""
    if array.get("container"):
        return dm_env.specs.Array((), np.dtype(object), name=name)
    return dm_spec(array, name, scalar_bounds=True)
