"""The gym flavour: sail-sg EnvPool's ``env_type="gym"``, in the API of the gym installed.

With gym 0.26 or newer installed, or none (:class:`GymEnvPool`): ``reset()`` returns
``(obs, info)`` (only ``obs`` with ``gym_reset_return_info=False``), ``step()`` returns
``(obs, reward, terminated, truncated, info)``, as in sail-sg EnvPool 1.2.5. With a gym
older than 0.26 installed (CleanRL's gym 0.23.1; :class:`LegacyGymEnvPool`, which
``GymEnvPool(spec)`` makes then): EnvPool 0.6-0.8's gym API, ``reset()`` returns ``obs``,
``step()`` and ``recv()`` ``(obs, reward, done, info)`` with ``done = terminated |
truncated`` and ``info["TimeLimit.truncated"]``. The gym is looked for once, when the first
gym pool is made (:mod:`~envpool.flavours.gym_spaces`). Either way the spaces are gymnasium's
and, where gym is installed, also the installed gym's. Autoreset is next-step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool.core.batch import RawBatch
from envpool.core.spec import EnvSpec
from envpool.flavours import gym_spaces
from envpool.flavours.gymnasium_env import GymnasiumEnvPool


class GymEnvPool(GymnasiumEnvPool):
    """A pool of native envs with sail-sg EnvPool's gym interface: its gymnasium pool
    (a ``gymnasium.vector.VectorEnv`` and ``gymnasium.Env``, as EnvPool's gym pools are
    since gym became gymnasium), with next-step autoreset, ``reset`` returning only the
    observations when made with ``gym_reset_return_info=False``. Its spaces are gymnasium's,
    as EnvPool 1.2.5's gym pools' are, and where the old gym package is installed also
    that gym's (:func:`~envpool.flavours.gym_spaces.gym_space`); ``observation_space`` /
    ``action_space`` (and ``single_*``) describe one env. With a gym older than 0.26
    installed, ``GymEnvPool(spec)`` makes a :class:`LegacyGymEnvPool` (that gym's API)."""

    def __new__(cls, spec: EnvSpec) -> GymEnvPool:  # noqa: ARG004 (the __init__'s argument)
        """A GymEnvPool, or a LegacyGymEnvPool where the installed gym is older than 0.26."""
        if cls is GymEnvPool and gym_spaces.legacy_gym():
            cls = LegacyGymEnvPool
        return super().__new__(cls)

    def __init__(self, spec: EnvSpec) -> None:
        GymnasiumEnvPool.__init__(self, spec)
        self._return_info = bool(spec.config.gym_reset_return_info)
        self.single_observation_space = gym_spaces.gym_space(self.single_observation_space)
        self.single_action_space = gym_spaces.gym_space(self.single_action_space)
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space

    def reset(self, env_id: Any = None, seed: Any = None,  # type: ignore[override]
              options: dict[str, Any] | None = None) -> Any:
        """Resets every env (or some) and returns their first observations.

        The gym flavour's ``reset`` (``make(..., env_type="gym")``, ``make_gym``); its
        ``step``, ``recv``, ``send`` and ``render`` are the gymnasium flavour's (under a
        gym older than 0.26, :class:`LegacyGymEnvPool`'s ``step`` and ``recv``).

        Args:
            env_id: The ids of the envs to reset; None: every env.
            seed: Reseeds the envs first: an int gives env i the seed ``seed + i``, a
                list one seed per env reset; None keeps each env's random generator
                going.
            options: As for the gymnasium flavour (``{"reset_mask": mask}`` only).

        Returns:
            The tuple ``(obs, info)`` (as the gymnasium flavour's ``reset``), or ``obs``
            alone when the pool was made with ``gym_reset_return_info=False``. ``obs``
            has one row per env reset: all of them in sync mode, the first
            ``batch_size`` to finish in async mode.

        Raises:
            ValueError: an unknown option, an env in flight, or a list of seeds of the
                wrong length.
            TypeError: ``seed`` is not an int, a list of ints or None.
            RuntimeError: the pool is closed.

        Examples:
            >>> import envpool
            >>> env = envpool.make_gym("CartPole-v1", num_envs=2, seed=0)
            >>> obs, info = env.reset()
            >>> obs.shape, info["env_id"]
            ((2, 4), array([0, 1], dtype=int32))
            >>> env.close()
        """
        obs, info = GymnasiumEnvPool.reset(self, env_id, seed=seed, options=options)
        return (obs, info) if self._return_info else obs


class LegacyGymEnvPool(GymEnvPool):
    """The gym flavour under a gym older than 0.26 (CleanRL's gym 0.23.1): sail-sg EnvPool
    0.6-0.8's gym API. ``reset()`` returns the observations alone (EnvPool's default then;
    ``(obs, info)`` where made with an explicit ``gym_reset_return_info=True``, as EnvPool
    0.6-0.8 did), ``step()`` and ``recv()`` (also after
    ``async_reset()``) return ``(obs, reward, done, info)`` with ``done = terminated |
    truncated`` and ``info["TimeLimit.truncated"]`` (``truncated``: the time limit);
    ``xla()``'s ``recv`` / ``step`` return the same 4-tuple. Made by ``GymEnvPool(spec)``
    (``make(..., env_type="gym")``, ``make_gym``) where such a gym is installed."""

    def __init__(self, spec: EnvSpec) -> None:
        GymEnvPool.__init__(self, spec)
        # reset() returns obs alone, EnvPool 0.6-0.8's default, unless asked for the info
        self._return_info = ("gym_reset_return_info" in spec.given_keywords
                             and bool(spec.config.gym_reset_return_info))

    def step(self, actions: Any, env_id: Any = None  # type: ignore[override]
             ) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        """Steps the envs with ``actions`` and waits for the results (gym < 0.26).

        Args:
            actions: One action per env of ``env_id`` (one row per env).
            env_id: The ids of the envs to step: by default every env in sync mode, and
                in async mode the envs that the last ``recv`` returned.

        Returns:
            ``(obs, reward, done, info)``, as :meth:`recv` returns it.

        Raises:
            ValueError: an action outside the action space or of the wrong shape, or an
                env id out of range or in flight.
            TypeError: env ids that are not integers, or discrete actions that are not
                whole numbers.
            RuntimeError: the pool is closed, or an env failed while stepping.

        Examples:
            >>> import envpool
            >>> import numpy as np
            >>> from envpool.flavours.gym_env import LegacyGymEnvPool
            >>> env = LegacyGymEnvPool(envpool.make_spec("CartPole-v1", num_envs=2,
            ...                                          max_episode_steps=1))
            >>> env.reset().shape
            (2, 4)
            >>> obs, reward, done, info = env.step(np.zeros(2, dtype=np.int64))
            >>> done, info["TimeLimit.truncated"]
            (array([ True,  True]), array([ True,  True]))
            >>> env.close()
        """
        self.send(actions, env_id)
        return self.recv()

    def recv(self, reset: bool = False, return_info: bool = True, *,  # type: ignore[override]
             timeout: float | None = None) -> Any:
        """Waits for the next batch of results of ``send`` or ``async_reset`` (gym < 0.26).

        Args:
            reset: sail-sg EnvPool's flag: True returns the batch as a reset does,
                ``(obs, info)``.
            return_info: With ``reset``: False returns ``obs`` alone.
            timeout: The most seconds to wait; None waits as long as it takes.

        Returns:
            ``(obs, reward, done, info)``: one row per env of the batch, float32
            rewards, ``done`` (bool) ``terminated | truncated``, and ``info`` with
            ``TimeLimit.truncated`` (bool: the episode hit its time limit), ``env_id``,
            ``elapsed_step``, ``players`` and the env's own info keys. With
            ``reset``: ``(obs, info)``, or ``obs`` without ``return_info``.

        Raises:
            RuntimeError: nothing (or too little) is in flight, the pool is closed, or
                an env failed.
            TimeoutError: no batch was ready within ``timeout`` seconds.
            TypeError: ``reset`` or ``return_info`` is not a bool.

        Examples:
            >>> import envpool
            >>> from envpool.flavours.gym_env import LegacyGymEnvPool
            >>> env = LegacyGymEnvPool(envpool.make_spec("CartPole-v1", num_envs=4,
            ...                                          batch_size=2))
            >>> env.async_reset()
            >>> obs, reward, done, info = env.recv(timeout=10)
            >>> obs.shape, done.shape, info["TimeLimit.truncated"].shape
            ((2, 4), (2,), (2,))
            >>> env.close()
        """
        if self._recv_flags(reset, return_info)[0]:
            return GymnasiumEnvPool.recv(self, True, return_info, timeout=timeout)
        obs, reward, terminated, truncated, info = GymnasiumEnvPool.recv(
            self, timeout=timeout)
        info["TimeLimit.truncated"] = truncated
        return obs, reward, terminated | truncated, info

    def _result(self, raw: RawBatch, xp: Any = np) -> tuple[Any, Any, Any, dict[str, Any]]:
        """``xla()``'s result of a batch: ``(obs, reward, done, info)``."""
        obs, reward, terminated, truncated, info = GymnasiumEnvPool._result(self, raw, xp)
        info["TimeLimit.truncated"] = truncated
        return obs, reward, terminated | truncated, info
