"""``envpool.make`` and friends (sail-sg EnvPool's names and keywords)."""

from __future__ import annotations

from typing import Any

from envpool.core.dm_env import DmEnvPool
from envpool.core.gym_env import GymEnvPool
from envpool.core.gymnasium_env import GymnasiumEnvPool
from envpool.core.spec import EnvSpec, parse_autoreset_mode

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
    ``env_kwargs`` gives envs different settings (one dict per env, or a dict of
    sequences with one value per env; ``envpool.Uniform`` draws a value at each
    reset where the task allows it) and ``info_env_kwargs=True`` reports them in
    ``info["env_kwargs"]``: see docs/api.md, "Different settings per env".

    As in sail-sg EnvPool, ``observation_space`` / ``action_space`` of the result
    describe ONE env (``single_observation_space`` / ``single_action_space``,
    ``num_envs`` and ``is_vector_env`` stand beside them); ``gymnasium.make_vec(
    "envpool/<id>")`` gives gymnasium's batched spaces instead.
    """
    if env_type not in _FLAVOURS:
        raise ValueError(f"env_type must be one of {', '.join(_FLAVOURS)}, got {env_type!r}")
    if env_type != "gymnasium" and "autoreset_mode" in kwargs:
        raise TypeError(f"autoreset_mode is a keyword of the gymnasium flavour, not {env_type!r}")
    return _FLAVOURS[env_type](make_spec(task_id, **kwargs))


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """``make(task_id, env_type="gymnasium", **kwargs)``."""
    return make(task_id, "gymnasium", **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """``make(task_id, env_type="gym", **kwargs)``: a :class:`GymEnvPool`, the gymnasium
    pool with EnvPool's gym options (typed as its base class, as sail-sg EnvPool types
    it)."""
    return make(task_id, "gym", **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> DmEnvPool:
    """``make(task_id, env_type="dm", **kwargs)``."""
    return make(task_id, "dm", **kwargs)


def make_adapter_pool(adapter: str, task_id: str, num_envs: int, seed: Any,
                      autoreset_mode: str, **kwargs: Any) -> GymnasiumEnvPool:
    """The sync gymnasium pool that a framework adapter wraps: ``num_envs`` envs of
    ``task_id``, env i seeded ``seed + i``, with the autoreset mode the framework's
    contract needs. The adapter sets the pool's shape itself, so ``kwargs`` (any other
    ``make`` keyword) must not name it."""
    fixed = sorted(set(kwargs) & {"num_envs", "batch_size", "autoreset_mode", "env_type"})
    if fixed:
        raise TypeError(f"{adapter} sets {', '.join(fixed)} itself ({num_envs} envs, sync, "
                        f"{autoreset_mode} autoreset)")
    return make_gymnasium(task_id, num_envs=num_envs, seed=seed, autoreset_mode=autoreset_mode,
                          **kwargs)


def require_pool(adapter: str, pool: GymnasiumEnvPool, autoreset_mode: str) -> None:
    """Checks that ``pool`` is the kind ``adapter`` wraps: sync, with ``autoreset_mode``."""
    if pool.is_async:
        raise ValueError(f"{adapter} needs a sync pool (batch_size == num_envs)")
    if pool.autoreset_mode != parse_autoreset_mode(autoreset_mode):
        raise ValueError(f"{adapter} needs a pool made with autoreset_mode={autoreset_mode!r}")
