"""One native env as a plain ``gymnasium.Env`` (``gymnasium.make("envpool/<id>")``).

A pool of one env with autoreset disabled: ``reset`` / ``step`` return unbatched
observations, a float reward and bool flags, as any gymnasium env does, so
gymnasium's wrappers, ``check_env`` and single-env training loops work unchanged
at the native env's speed.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from envpool.core import tree
from envpool.core.keywords import render_refusal
from envpool.core.pool import EnvPoolBase
from envpool.core.spec import EnvSpec
from envpool.flavours.gymnasium_env import render_metadata


class GymnasiumEnv(gymnasium.Env):
    """One env of ``task_id`` stepped by the native core.

    ``reset(seed=s)`` reseeds it (the same env as ``envpool.make(task_id, seed=s)``'s
    env 0); ``info`` holds ``elapsed_step`` and the env's own info keys.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.num_envs != 1:
            raise ValueError(f"a single env has num_envs=1, got {spec.config.num_envs}")
        if spec.config.render_mode in ("rgb_array", "human") and spec.render_frame is None:
            # gymnasium's envs list the modes they draw, and gymnasium.make refuses others
            raise render_refusal(spec.id, spec.task)
        self.pool = EnvPoolBase(spec, first_step_resets=False)  # step before reset: ResetNeeded
        self.observation_space = self.pool.single_observation_space
        self.action_space = self.pool.single_action_space
        self.render_mode: str | None = spec.config.render_mode
        self.metadata = render_metadata(spec)
        self._discrete_obs = isinstance(self.observation_space, gymnasium.spaces.Discrete)
        # The task's own methods (a goal env's compute_reward), as the reference env has them.
        for name in spec.task.pool_methods:
            setattr(self, name, getattr(self.pool, name))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Starts a new episode and returns its first observation.

        The ``reset`` of ``gymnasium.make("envpool/<id>")``: one env, unbatched.

        Args:
            seed: Reseeds the env first: the same env as env 0 of
                ``envpool.make(task_id, seed=seed)``. None keeps its random generator
                going.
            options: Not taken: set keywords when making the env.

        Returns:
            The tuple ``(obs, info)``: the observation (an array, an int for a discrete
            observation space, or a dict or tuple of arrays) and a dict with
            ``elapsed_step`` (0) and the env's own info values.

        Raises:
            ValueError: ``options`` were given.
            RuntimeError: the env is closed.

        Examples:
            >>> import gymnasium
            >>> import envpool
            >>> env = gymnasium.make("envpool/CartPole-v1")
            >>> obs, info = env.reset(seed=0)
            >>> obs.shape, info
            ((4,), {'elapsed_step': 0})
            >>> env.close()
        """
        super().reset(seed=seed)  # gymnasium's own np_random, as check_env expects
        if options:
            raise ValueError("envpool envs take no reset options; set keywords at make time")
        obs, _, _, _, info = self._unbatch(self.pool.reset_raw(None, seed))
        if self.render_mode == "human":  # gymnasium's envs show each reset and step
            self.render()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Steps the env with ``action`` and returns the result, unbatched.

        The ``step`` of ``gymnasium.make("envpool/<id>")``. There is no autoreset: after
        the end of an episode, call ``reset``.

        Args:
            action: One action of the env's ``action_space``.

        Returns:
            The tuple ``(obs, reward, terminated, truncated, info)``: the observation, a
            float reward, bool flags and a dict with ``elapsed_step`` and the env's own
            info values.

        Raises:
            gymnasium.error.ResetNeeded: the env was never reset.
            ValueError: the action is outside the action space, or the episode ended
                and the env was not reset.
            TypeError: a discrete action that is not a whole number.
            RuntimeError: the env is closed.

        Examples:
            >>> import gymnasium
            >>> import envpool
            >>> env = gymnasium.make("envpool/CartPole-v1")
            >>> _ = env.reset(seed=0)
            >>> obs, reward, terminated, truncated, info = env.step(1)
            >>> reward, terminated, truncated, info
            (1.0, False, False, {'elapsed_step': 1})
            >>> env.close()
        """
        self.pool.send(np.asarray(action)[None])
        out = self._unbatch(self.pool.recv_raw())
        if self.render_mode == "human":
            self.render()
        return out

    def render(self) -> np.ndarray | str | None:
        """Draws the env's current frame, as gymnasium's envs do.

        The ``render`` of ``gymnasium.make("envpool/<id>", render_mode=...)``.

        Returns:
            An ``(H, W, 3)`` uint8 frame with ``render_mode="rgb_array"``, the env's text
            with ``"ansi"`` (toy-text grids), and None without a render mode or with
            ``"human"`` (the frame goes to a window, after every reset and step too).

        Raises:
            RuntimeError: the env is closed.

        Examples:
            >>> import gymnasium
            >>> import envpool
            >>> env = gymnasium.make("envpool/CartPole-v1", render_mode="rgb_array")
            >>> _ = env.reset(seed=0)
            >>> env.render().shape
            (400, 600, 3)
            >>> env.close()
        """
        if self.render_mode is None:
            return None
        frames = self.pool.render()
        return None if frames is None else frames[0]  # (human: shown in a window)

    def close(self) -> None:
        """Stops the env's native pool; closing twice does nothing.

        Examples:
            >>> import gymnasium
            >>> import envpool
            >>> env = gymnasium.make("envpool/CartPole-v1")
            >>> env.close()
        """
        self.pool.close()

    def _unbatch(self, raw: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs = raw.obs
        if isinstance(obs, (dict, tuple)):
            obs = tree.map_leaves(lambda v: v[0], obs)  # (views)
        else:
            obs = int(obs[0]) if self._discrete_obs else obs[0]
        info = {"elapsed_step": int(raw.elapsed_step[0])}
        info.update({k: v[0] for k, v in raw.info.items()})
        return (obs, float(raw.reward[0]), bool(raw.terminated[0]), bool(raw.truncated[0]),
                info)
