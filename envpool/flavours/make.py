"""``envpool.make`` and friends (sail-sg EnvPool's names and keywords)."""

from __future__ import annotations

from typing import Any

from envpool.core.spec import EnvSpec
from envpool.flavours.dm_env import DmEnvPool
from envpool.flavours.gym_env import GymEnvPool
from envpool.flavours.gymnasium_env import GymnasiumEnvPool

_FLAVOURS = {"gymnasium": GymnasiumEnvPool, "gym": GymEnvPool, "dm": DmEnvPool}


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """Resolves what a pool of ``task_id`` with ``kwargs`` would be, without making it.

    Args:
        task_id: A registered task id (``envpool.list_all_envs()`` lists them).
        **kwargs: Any keyword of ``envpool.make`` but ``env_type``: pool keywords
            (``num_envs``, ``seed``, ...) and the env's own.

    Returns:
        The ``EnvSpec``: ``config`` (a namedtuple of every keyword, defaults filled in),
        ``observation_space`` / ``action_space`` (one env's gymnasium spaces),
        ``observation_spec()`` / ``action_spec()`` (dm_env specs), ``max_episode_steps``
        and ``reward_threshold``.

    Raises:
        ValueError: ``task_id`` is not registered (the message names close matches), or
            a keyword's value is out of range (``num_envs < 1``, ``batch_size`` outside
            ``1 .. num_envs``, an unknown ``render_mode``, ...).
        TypeError: a keyword the task does not take, or a value of the wrong type.

    Examples:
        >>> import envpool
        >>> spec = envpool.make_spec("CartPole-v1", num_envs=4)
        >>> spec.config.num_envs, spec.config.max_episode_steps
        (4, 500)
        >>> spec.action_space
        Discrete(2)
    """
    return EnvSpec(task_id, **kwargs)


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any) -> Any:
    """Makes a pool of envs of ``task_id``, stepped in parallel by C++ worker threads.

    Args:
        task_id: A registered task id (``envpool.list_all_envs()`` lists them), such
            as ``"CartPole-v1"`` or ``"Pong-v5"``.
        env_type: The pool's flavour: ``"gymnasium"`` (a ``GymnasiumEnvPool``, which is
            a ``gymnasium.vector.VectorEnv``), ``"gym"`` (a ``GymEnvPool``: the same with
            sail-sg EnvPool's gym options) or ``"dm"`` (a ``DmEnvPool`` of batched
            ``dm_env.TimeStep`` values).
        **kwargs: Pool keywords: ``num_envs`` (default 1); ``batch_size`` (default
            ``num_envs``; fewer is async mode, where each ``recv`` returns the first
            ``batch_size`` envs to finish); ``num_threads`` (0, the default, picks it
            from ``batch_size`` and the cores); ``seed`` (an int gives env i the seed
            ``seed + i``, default 42; a list gives one per env; None draws one at
            random); ``max_episode_steps`` (default: the task's limit);
            ``thread_affinity_offset``; ``autoreset_mode`` (gymnasium flavour only:
            ``"next_step"``, the default, ``"same_step"`` or ``"disabled"``);
            ``render_mode`` (``"rgb_array"``, ``"human"`` or ``"ansi"``) with
            ``render_env_id``, ``render_width``, ``render_height`` and
            ``render_camera_id``; ``gym_reset_return_info`` (gym flavour);
            ``env_kwargs`` (different settings per env: one dict per env, or a dict of
            sequences with one value per env, where ``envpool.Uniform`` draws a value
            at each reset for the keywords a task can draw) and ``info_env_kwargs``
            (True: ``info["env_kwargs"]`` reports them). Then the env's own keywords:
            ``make_spec(task_id).config`` lists every keyword with its default.

    Returns:
        The pool. In the gymnasium and gym flavours ``reset()`` returns ``(obs, info)``
        and ``step(actions)`` returns ``(obs, reward, terminated, truncated, info)``,
        each with one row per env; in the dm flavour both return a ``dm_env.TimeStep``
        whose fields are arrays with one row per env. As in sail-sg EnvPool, the
        pool's ``observation_space`` / ``action_space`` describe ONE env (beside
        ``single_observation_space`` / ``single_action_space``, ``num_envs`` and
        ``is_vector_env``); ``gymnasium.make_vec("envpool/<id>")`` gives gymnasium's
        batched spaces instead.

    Raises:
        ValueError: ``task_id`` is not registered (the message names close matches),
            ``env_type`` is none of the three, a keyword's value is out of range, or a
            multi-player env is asked for in the gymnasium or gym flavour.
        TypeError: a keyword the task does not take, a value of the wrong type, or
            ``autoreset_mode`` (or ``info_env_kwargs=True``) outside the flavours that
            take it.

    Examples:
        >>> import envpool
        >>> import numpy as np
        >>> env = envpool.make("CartPole-v1", num_envs=4, seed=0)
        >>> env.action_space, env.num_envs
        (Discrete(2), 4)
        >>> obs, info = env.reset()
        >>> obs.shape, obs.dtype
        ((4, 4), dtype('float32'))
        >>> obs, reward, terminated, truncated, info = env.step(np.zeros(4, dtype=np.int64))
        >>> reward
        array([1., 1., 1., 1.], dtype=float32)
        >>> env.close()
    """
    if env_type not in _FLAVOURS:
        raise ValueError(f"env_type must be one of {', '.join(_FLAVOURS)}, got {env_type!r}")
    if env_type != "gymnasium" and "autoreset_mode" in kwargs:
        raise TypeError(f"autoreset_mode is a keyword of the gymnasium flavour, not {env_type!r}")
    return _FLAVOURS[env_type](make_spec(task_id, **kwargs))


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """Makes a gymnasium-flavour pool: ``make(task_id, env_type="gymnasium", **kwargs)``.

    The pool is a ``gymnasium.vector.VectorEnv`` (and a ``gymnasium.Env``) whose
    ``observation_space`` / ``action_space`` describe one env, as sail-sg EnvPool's.

    Args:
        task_id: A registered task id (``envpool.list_all_envs()`` lists them).
        **kwargs: The keywords of ``envpool.make`` (``num_envs``, ``batch_size``, ``seed``,
            ``autoreset_mode``, the env's own, ...).

    Returns:
        A ``GymnasiumEnvPool``: ``reset()`` returns ``(obs, info)``, ``step(actions)``
        returns ``(obs, reward, terminated, truncated, info)``; ``reward`` is float32,
        ``terminated`` and ``truncated`` are bool, one row per env, and ``info`` holds
        ``env_id``, ``elapsed_step`` and the env's own info arrays.

    Raises:
        ValueError: ``task_id`` is not registered, a keyword's value is out of range,
            or the env is multi-player.
        TypeError: a keyword the task does not take, or a value of the wrong type.

    Examples:
        >>> import envpool
        >>> env = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=0)
        >>> obs, info = env.reset()
        >>> obs.shape, info["env_id"]
        ((2, 4), array([0, 1], dtype=int32))
        >>> env.close()
    """
    return make(task_id, "gymnasium", **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """Makes a gym-flavour pool: ``make(task_id, env_type="gym", **kwargs)``.

    The gymnasium pool with sail-sg EnvPool's gym options (next-step autoreset;
    ``gym_reset_return_info=False`` makes ``reset`` return the observations alone).
    Its spaces are gymnasium's and describe one env.

    Args:
        task_id: A registered task id (``envpool.list_all_envs()`` lists them).
        **kwargs: The keywords of ``envpool.make`` but ``autoreset_mode``, plus
            ``gym_reset_return_info`` (default True).

    Returns:
        A ``GymEnvPool`` (typed as its base class, ``GymnasiumEnvPool``, as sail-sg
        EnvPool types it): ``reset()`` returns ``(obs, info)`` (or ``obs``),
        ``step(actions)`` returns ``(obs, reward, terminated, truncated, info)``.

    Raises:
        ValueError: ``task_id`` is not registered, a keyword's value is out of range,
            or the env is multi-player.
        TypeError: a keyword the task does not take, a value of the wrong type, or
            ``autoreset_mode``.

    Examples:
        >>> import envpool
        >>> env = envpool.make_gym("CartPole-v1", num_envs=2, gym_reset_return_info=False)
        >>> obs = env.reset()
        >>> obs.shape
        (2, 4)
        >>> env.close()
    """
    return make(task_id, "gym", **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> DmEnvPool:
    """Makes a dm-flavour pool: ``make(task_id, env_type="dm", **kwargs)``.

    A batched ``dm_env.Environment`` with next-step autoreset (the step after a LAST
    TimeStep returns a FIRST one).

    Args:
        task_id: A registered task id (``envpool.list_all_envs()`` lists them).
        **kwargs: The keywords of ``envpool.make`` but ``autoreset_mode`` and
            ``info_env_kwargs``.

    Returns:
        A ``DmEnvPool``: ``reset()`` and ``step(actions)`` return a ``dm_env.TimeStep``
        whose fields are arrays with one row per env: ``step_type`` (int32
        ``StepType`` values), ``reward`` and ``discount`` (float32) and
        ``observation``, a ``State`` namedtuple of the observation arrays, ``env_id``,
        ``players``, ``elapsed_step`` and the env's info arrays.

    Raises:
        ValueError: ``task_id`` is not registered, or a keyword's value is out of range.
        TypeError: a keyword the task does not take, a value of the wrong type,
            ``autoreset_mode`` or ``info_env_kwargs=True``.

    Examples:
        >>> import envpool
        >>> env = envpool.make_dm("CartPole-v1", num_envs=2, seed=0)
        >>> ts = env.reset()
        >>> ts.step_type, ts.observation.obs.shape
        (array([0, 0], dtype=int32), (2, 4))
        >>> env.close()
    """
    return make(task_id, "dm", **kwargs)
