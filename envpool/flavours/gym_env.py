"""The gym flavour: sail-sg EnvPool's ``env_type="gym"`` (gym 0.26 API).

``reset()`` returns ``(obs, info)`` (only ``obs`` with
``gym_reset_return_info=False``), ``step()`` returns ``(obs, reward,
terminated, truncated, info)``. Spaces are gymnasium's, as in sail-sg EnvPool
1.2.5. Autoreset is next-step.
"""

from __future__ import annotations

from typing import Any

from envpool.core.spec import EnvSpec
from envpool.flavours.gymnasium_env import GymnasiumEnvPool


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
        """Resets every env (or some) and returns their first observations.

        The gym flavour's ``reset`` (``make(..., env_type="gym")``, ``make_gym``); its
        ``step``, ``recv``, ``send`` and ``render`` are the gymnasium flavour's.

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
