"""The dm flavour: batched ``dm_env.TimeStep``s, as sail-sg EnvPool's
``env_type="dm"``.

Each field of the TimeStep is an array over the batch. ``step_type`` is FIRST
after a reset, LAST when the episode ended, MID otherwise; ``discount`` is 0
on termination and 1 otherwise (truncation keeps 1, so value bootstrapping is
right), or the env's own where it has one (Atari's ``zero_discount_on_life_loss``:
0 on a life loss too). ``observation`` is a namedtuple ``State`` of the observation
arrays plus ``env_id``, ``players`` (``players.env_id``, as EnvPool's),
``elapsed_step`` and the env's info arrays. Autoreset is next-step: the step after a
LAST one returns a FIRST one.
"""

from __future__ import annotations

import collections
from typing import Any

import dm_env
import numpy as np

from envpool.core import spaces as envpool_spaces
from envpool.core.pool import DISCOUNT, EnvPoolBase, RawBatch
from envpool.core.spec import EnvSpec

_FIRST, _MID, _LAST = (int(dm_env.StepType.FIRST), int(dm_env.StepType.MID),
                       int(dm_env.StepType.LAST))


def batched_timestep(raw: RawBatch, observation: Any) -> dm_env.TimeStep:
    """A batched ``dm_env.TimeStep`` of one pool batch (the dm flavour's and Acme's).

    A multi-player env's reward and discount have one value per player (the batch's
    players one after the other), as EnvPool's.
    ``step_type`` (int32, as EnvPool's) is FIRST on a reset row (``elapsed_step`` 0),
    LAST when the episode ended, MID otherwise; ``discount`` is 0 on termination and 1
    otherwise (truncation keeps 1, so value bootstrapping is right), or the env's own
    (``raw.discount``: Atari's ``zero_discount_on_life_loss``), still 0 on termination;
    FIRST rows carry reward 0.
    """
    step_type = np.where(raw.elapsed_step == 0, _FIRST, _MID).astype(np.int32)
    step_type[raw.terminated | raw.truncated] = _LAST
    reward = raw.reward
    first = step_type == _FIRST
    discount = np.where(raw.terminated, np.float32(0), np.float32(1) if raw.discount is None
                        else raw.discount).astype(np.float32)
    if raw.num_players is not None:  # a multi-player env: reward and discount per player
        first = np.repeat(first, raw.num_players)
        discount = np.repeat(discount, raw.num_players)
    if first.any():
        reward = np.where(first, reward.dtype.type(0), reward)
    return dm_env.TimeStep(step_type, reward, discount, observation)


#: ``State.players``: the player fields of EnvPool's State (one player per env here; a
#: multi-player env's has its ``players.<key>`` info arrays too).
Players = collections.namedtuple("Players", ["env_id"])


def dm_specs(spec: EnvSpec) -> tuple[type, Any, Any]:
    """The dm flavour's ``State`` namedtuple class, its per-env observation spec (a
    ``State`` of ``dm_env.specs``) and the per-env action spec, for pools of ``spec``
    (also ``spec.observation_spec()`` / ``spec.action_spec()``, as in EnvPool)."""
    native = spec.native_spec
    # One array is "obs" (sail-sg EnvPool's name), or "pixels" (from_pixels=True, as
    # dm_control's pixels wrapper and EnvPool name it).
    obs_names = [o["name"] for o in native["obs"]]
    if native["obs_layout"] == "array":
        obs_names = ["pixels" if native["obs"][0]["name"] == "pixels" else "obs"]
    # (the TimeStep's discount, and a multi-player env's per-player rewards)
    infos = [i for i in native["info"] if i["name"] != DISCOUNT
             and not (i["name"] == "reward" and i.get("per_player"))]
    # A multi-player env's "players.<key>" info arrays are fields of State.players.
    player_infos = [i for i in infos if i["name"].startswith("players.")]
    infos = [i for i in infos if not i["name"].startswith("players.")]
    obs_specs = [_dm_spec(o, name) for o, name in zip(native["obs"], obs_names, strict=True)]
    if native["obs_layout"] == "dict":  # a nested dict's arrays: one field of dicts
        tree = envpool_spaces.nest(obs_names, obs_specs)
        obs_names, obs_specs = list(tree), list(tree.values())
    state = collections.namedtuple(
        "State", [*obs_names, "env_id", "players", "elapsed_step", *[i["name"] for i in infos]])
    players = _players_class(spec)
    int32 = {"dtype": "int32", "shape": (), "low": [], "high": [], "n": 0, "start": 0}
    env_id = envpool_spaces.dm_spec({**int32, "name": "env_id"})
    observation_spec = state(
        *obs_specs,
        env_id,
        players(env_id, *[_dm_spec(i, i["name"]) for i in player_infos]),
        envpool_spaces.dm_spec({**int32, "name": "elapsed_step"}),
        *[envpool_spaces.dm_spec(i, scalar_bounds=True) for i in infos],
    )
    return state, observation_spec, envpool_spaces.dm_spec(native["action"])


def _dm_spec(array: dict[str, Any], name: str) -> Any:
    """The dm spec of one native array (a container array: an object array's)."""
    if array.get("container"):
        return dm_env.specs.Array((), np.dtype(object), name=name)
    return envpool_spaces.dm_spec(array, name, scalar_bounds=True)


def _players_class(spec: EnvSpec) -> type:
    """``State.players``' class: :data:`Players`, with the fields of a multi-player env's
    ``players.<key>`` info arrays after ``env_id``."""
    keys = [i["name"][len("players."):] for i in spec.native_spec["info"]
            if i["name"].startswith("players.")]
    return collections.namedtuple("Players", ["env_id", *keys]) if keys else Players


class DmEnvPool(EnvPoolBase, dm_env.Environment):
    """A pool of native envs as a batched dm_env.Environment."""

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.info_env_kwargs:
            raise TypeError("info_env_kwargs is not available in the dm flavour (its State has "
                            "fixed fields); spec.env_configs lists each env's settings")
        if spec.native_autoreset() != "next_step":
            raise ValueError("the dm flavour autoresets on the next step (a LAST TimeStep, then "
                             f"a FIRST one): autoreset_mode={spec.native_autoreset()!r} is for "
                             "the gymnasium flavour")
        EnvPoolBase.__init__(self, spec)
        self.State, self._observation_spec, self._action_spec = dm_specs(spec)
        self._players = _players_class(spec)

    def observation_spec(self) -> Any:
        """Per-env specs of the State fields."""
        return self._observation_spec

    def action_spec(self) -> Any:
        """Per-env spec of the action."""
        return self._action_spec

    def reward_spec(self) -> Any:
        return dm_env.specs.Array((), np.float32, name="reward")

    def discount_spec(self) -> Any:
        return dm_env.specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    def reset(self, env_id: Any = None, seed: Any = None) -> dm_env.TimeStep:
        """Resets all envs (or ``env_id``); ``seed`` reseeds them first (int: env i gets
        ``seed + i``). In async mode, returns the first batch to finish."""
        return self._timestep(self.reset_raw(env_id, seed))

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        """send + recv."""
        self.send(action, env_id)
        return self.recv()

    def recv(self, timeout: float | None = None) -> dm_env.TimeStep:
        """The next batch as a TimeStep of arrays."""
        return self._timestep(self.recv_raw(timeout))

    def _timestep(self, raw: RawBatch) -> dm_env.TimeStep:
        obs = [raw.obs] if self._obs_layout == "array" else list(
            raw.obs.values() if isinstance(raw.obs, dict) else raw.obs)
        if raw.players_env_id is None:
            return batched_timestep(raw, self.State(*obs, raw.env_id, Players(raw.env_id),
                                                    raw.elapsed_step, *raw.info.values()))
        info = {k: v for k, v in raw.info.items() if not k.startswith("players.")}
        players = self._players(raw.players_env_id, *[v for k, v in raw.info.items()
                                                      if k.startswith("players.")])
        return batched_timestep(raw, self.State(*obs, raw.env_id, players, raw.elapsed_step,
                                                *info.values()))
