"""The gym flavour: sail-sg EnvPool's ``env_type="gym"`` (gym 0.26 API).

``reset()`` returns ``(obs, info)`` (only ``obs`` with
``gym_reset_return_info=False``), ``step()`` returns ``(obs, reward,
terminated, truncated, info)``. Spaces are gymnasium's, as in sail-sg EnvPool
1.2.5. Autoreset is next-step.
"""

from __future__ import annotations

from typing import Any

from envpool.core.gymnasium_env import GymnasiumEnvPool
from envpool.core.spec import EnvSpec


class GymEnvPool(GymnasiumEnvPool):
    """A pool of native envs with sail-sg EnvPool's gym interface: its gymnasium pool
    (a ``gymnasium.vector.VectorEnv`` and ``gymnasium.Env``, as EnvPool's gym pools are
    since gym became gymnasium), with next-step autoreset, ``reset`` returning only the
    observations when made with ``gym_reset_return_info=False``. Its spaces are gymnasium's,
    as EnvPool 1.2.5's gym pools' are (whether or not the old gym package is installed);
    ``observation_space`` / ``action_space`` (and ``single_*``) describe one env."""

    def __init__(self, spec: EnvSpec) -> None:
        GymnasiumEnvPool.__init__(self, spec)
        self._return_info = bool(spec.config.gym_reset_return_info)

    def reset(self, env_id: Any = None, seed: Any = None,  # type: ignore[override]
              options: dict[str, Any] | None = None) -> Any:
        """Resets all envs (or ``env_id``); ``seed`` reseeds them first (int: env i gets
        ``seed + i``). In async mode, returns the first batch to finish."""
        obs, info = GymnasiumEnvPool.reset(self, env_id, seed=seed, options=options)
        return (obs, info) if self._return_info else obs
