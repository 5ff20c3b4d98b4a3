"""Every task id in gymnasium's own registry, under the ``envpool/`` namespace.

    import envpool, gymnasium
    envs = gymnasium.make_vec("envpool/Pong-v5", num_envs=16)   # a strict VectorEnv
    env = gymnasium.make("envpool/CartPole-v1")                 # one fast gymnasium.Env

``make_vec`` uses the id's ``vector_entry_point`` (:func:`make_vector_env`): a
:class:`~envpool.flavours.vector_env.GymnasiumVectorEnv` with batched spaces;
``vector_kwargs`` are not used, envpool keywords (``autoreset_mode``, ``seed``,
``num_threads``, the env's own) go straight to ``make_vec``. ``make`` uses the
``entry_point`` (:func:`make_single_env`): a
:class:`~envpool.flavours.single_env.GymnasiumEnv`. Both take gymnasium's time limit
from the registration (the task's ``max_episode_steps``). The module registers every
listed id, now and as more are registered (:func:`envpool.core.registry.subscribe`).
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium

from envpool.core import registry
from envpool.core.spec import EnvSpec
from envpool.flavours.single_env import GymnasiumEnv
from envpool.flavours.vector_env import GymnasiumVectorEnv

NAMESPACE = "envpool"
# Keywords of a single env that make no sense for it: it is one env, and it does not
# restart itself (gymnasium's contract; wrap it in a vector env for autoreset).
_SINGLE_ENV_FIXED = ("num_envs", "batch_size", "autoreset_mode")


def make_vector_env(task_id: str, num_envs: int = 1, **kwargs: Any) -> GymnasiumVectorEnv:
    """``gymnasium.make_vec("envpool/<task_id>", num_envs, **kwargs)``'s creator."""
    return GymnasiumVectorEnv(EnvSpec(task_id, num_envs=num_envs, **kwargs))


def make_single_env(task_id: str, **kwargs: Any) -> GymnasiumEnv:
    """``gymnasium.make("envpool/<task_id>", **kwargs)``'s creator."""
    fixed = sorted(set(kwargs) & set(_SINGLE_ENV_FIXED))
    if fixed:
        raise TypeError(f"gymnasium.make makes one env without autoreset: {', '.join(fixed)} "
                        "cannot be set (use gymnasium.make_vec or envpool.make)")
    return GymnasiumEnv(EnvSpec(task_id, num_envs=1, autoreset_mode="disabled", **kwargs))


def has_gymnasium_id(task: registry.TaskSpec) -> bool:
    """Whether ``envpool/<task_id>`` is in gymnasium's registry: not for an id with a
    namespace of its own (``phys2d/CartPole-v0``: gymnasium's ids have one namespace at
    most), nor for a multi-player env (the PGX games: its batches have a row per player,
    which gymnasium's vector and single envs cannot hold); ``envpool.make_gymnasium``
    makes both."""
    if "/" in task.task_id:
        return False
    return "max_num_players" not in task.native_module.default_config(task.native_env)


def register_gymnasium_id(task: registry.TaskSpec) -> None:
    """Registers ``envpool/<task_id>`` with gymnasium (both entry points), where
    :func:`has_gymnasium_id`."""
    if not has_gymnasium_id(task):
        return
    gymnasium.register(
        id=f"{NAMESPACE}/{task.task_id}",
        entry_point=functools.partial(make_single_env, task.task_id),
        vector_entry_point=functools.partial(make_vector_env, task.task_id),
        max_episode_steps=task.max_episode_steps or None,
        reward_threshold=task.reward_threshold,
    )


registry.subscribe(register_gymnasium_id)
