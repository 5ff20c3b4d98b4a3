"""``envpool.make`` and friends (sail-sg EnvPool's names and keywords)."""

from __future__ import annotations

from typing import Any

from envpool.core.dm_env import DmEnvPool
from envpool.core.gym_env import GymEnvPool
from envpool.core.gymnasium_env import GymnasiumEnvPool
from envpool.core.spec import EnvSpec

_FLAVOURS = {"gymnasium": GymnasiumEnvPool, "gym": GymEnvPool, "dm": DmEnvPool}


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """The resolved spec (config, spaces, limits) of ``task_id`` with ``kwargs``."""
    return EnvSpec(task_id, **kwargs)


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any) -> Any:
    """Makes a pool of ``task_id`` envs.

    ``env_type`` is ``"gymnasium"`` (a gymnasium.vector.VectorEnv), ``"gym"``
    (gym 0.26-style tuples) or ``"dm"`` (batched dm_env TimeSteps). Keywords:
    ``num_envs``, ``batch_size`` (< num_envs: async mode), ``num_threads``,
    ``seed`` (int: env i gets seed + i; or one per env), ``max_episode_steps``,
    ``thread_affinity_offset``, ``autoreset_mode`` (gymnasium flavour), and the
    env's own keywords (``make_spec(task_id).config`` lists them all).
    """
    if env_type not in _FLAVOURS:
        raise ValueError(f"env_type must be one of {', '.join(_FLAVOURS)}, got {env_type!r}")
    if env_type != "gymnasium" and "autoreset_mode" in kwargs:
        raise TypeError(f"autoreset_mode is a keyword of the gymnasium flavour, not {env_type!r}")
    return _FLAVOURS[env_type](make_spec(task_id, **kwargs))


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """``make(task_id, env_type="gymnasium", **kwargs)``."""
    return make(task_id, "gymnasium", **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> GymEnvPool:
    """``make(task_id, env_type="gym", **kwargs)``."""
    return make(task_id, "gym", **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> DmEnvPool:
    """``make(task_id, env_type="dm", **kwargs)``."""
    return make(task_id, "dm", **kwargs)
