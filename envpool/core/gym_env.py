"""The gym flavour: sail-sg EnvPool's ``env_type="gym"`` (gym 0.26 API).

``reset()`` returns ``(obs, info)`` (only ``obs`` with
``gym_reset_return_info=False``), ``step()`` returns ``(obs, reward,
terminated, truncated, info)``. Spaces are ``gym`` spaces when gym is
installed, gymnasium spaces otherwise. Autoreset is next-step.
"""

from __future__ import annotations

from typing import Any

from envpool.core.gymnasium_env import GymnasiumEnvPool
from envpool.core.spec import EnvSpec


def _to_gym_space(space: Any) -> Any:
    try:
        import gym.spaces as gym_spaces
    except Exception:  # gym is optional (and broken on numpy 2): keep gymnasium's
        return space
    from gymnasium import spaces

    if isinstance(space, spaces.Discrete):
        return gym_spaces.Discrete(int(space.n), start=int(space.start))
    if isinstance(space, spaces.Box):
        return gym_spaces.Box(space.low, space.high, space.shape, space.dtype)
    if isinstance(space, spaces.Tuple):
        return gym_spaces.Tuple([_to_gym_space(s) for s in space.spaces])
    if isinstance(space, spaces.Dict):
        return gym_spaces.Dict({k: _to_gym_space(s) for k, s in space.spaces.items()})
    return space


class GymEnvPool(GymnasiumEnvPool):
    """A pool of native envs with sail-sg EnvPool's gym interface: its gymnasium pool
    (a ``gymnasium.vector.VectorEnv`` and ``gymnasium.Env``, as EnvPool's gym pools are
    since gym became gymnasium), with next-step autoreset, ``reset`` returning only the
    observations when made with ``gym_reset_return_info=False``, and gym spaces when gym
    is installed. ``observation_space`` / ``action_space`` (and ``single_*``) describe
    one env."""

    def __init__(self, spec: EnvSpec) -> None:
        GymnasiumEnvPool.__init__(self, spec)
        self.single_observation_space = _to_gym_space(self.single_observation_space)
        self.single_action_space = _to_gym_space(self.single_action_space)
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space
        self._return_info = bool(spec.config.gym_reset_return_info)

    def reset(self, env_id: Any = None, seed: Any = None,  # type: ignore[override]
              options: dict[str, Any] | None = None) -> Any:
        """Resets all envs (or ``env_id``); ``seed`` reseeds them first (int: env i gets
        ``seed + i``). In async mode, returns the first batch to finish."""
        obs, info = GymnasiumEnvPool.reset(self, env_id, seed=seed, options=options)
        return (obs, info) if self._return_info else obs
