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

from envpool.core.gymnasium_env import render_metadata
from envpool.core.pool import EnvPoolBase
from envpool.core.spec import EnvSpec


def _first(obs: dict[str, Any]) -> dict[str, Any]:
    """Row 0 of each array of a (nested) dict observation, as views."""
    return {k: _first(v) if isinstance(v, dict) else v[0] for k, v in obs.items()}


class GymnasiumEnv(gymnasium.Env):
    """One env of ``task_id`` stepped by the native core.

    ``reset(seed=s)`` reseeds it (the same env as ``envpool.make(task_id, seed=s)``'s
    env 0); ``info`` holds ``elapsed_step`` and the env's own info keys.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.num_envs != 1:
            raise ValueError(f"a single env has num_envs=1, got {spec.config.num_envs}")
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
        """Starts a new episode (reseeded when ``seed`` is given)."""
        super().reset(seed=seed)  # gymnasium's own np_random, as check_env expects
        if options:
            raise ValueError("envpool envs take no reset options; set keywords at make time")
        obs, _, _, _, info = self._unbatch(self.pool.reset_raw(None, seed))
        if self.render_mode == "human":  # gymnasium's envs show each reset and step
            self.render()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One step: (obs, reward, terminated, truncated, info)."""
        self.pool.send(np.asarray(action)[None])
        out = self._unbatch(self.pool.recv_raw())
        if self.render_mode == "human":
            self.render()
        return out

    def render(self) -> np.ndarray | str | None:
        """The env's current frame, ``(H, W, 3)`` uint8 (``render_mode="rgb_array"``), or its
        text (``"ansi"``, toy-text grids); None without a render mode or with "human" (the
        frame goes to a window, after every reset and step too), as gymnasium's envs
        return."""
        if self.render_mode is None:
            return None
        frames = self.pool.render()
        return None if frames is None else frames[0]  # (human: shown in a window)

    def close(self) -> None:
        """Stops the native pool; idempotent."""
        self.pool.close()

    def _unbatch(self, raw: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs = raw.obs
        if isinstance(obs, dict):
            obs = _first(obs)
        elif isinstance(obs, tuple):
            obs = tuple(v[0] for v in obs)
        else:
            obs = int(obs[0]) if self._discrete_obs else obs[0]
        info = {"elapsed_step": int(raw.elapsed_step[0])}
        info.update({k: v[0] for k, v in raw.info.items()})
        return (obs, float(raw.reward[0]), bool(raw.terminated[0]), bool(raw.truncated[0]),
                info)
