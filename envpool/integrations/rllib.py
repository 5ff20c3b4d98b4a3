"""envpool pools as the vector envs of Ray RLlib's env runners (new API stack).

RLlib's ``SingleAgentEnvRunner`` makes its env with ``gymnasium.make_vec(config.env,
num_envs=num_envs_per_env_runner, vectorization_mode=config.gym_env_vectorize_mode,
**config.env_config)``; with ``gym_env_vectorize_mode="vector_entry_point"`` and an
``envpool/<id>`` task id, that is one native pool per env runner::

    from ray.rllib.algorithms.ppo import PPOConfig
    from envpool.integrations.rllib import EnvpoolCallback

    config = (
        PPOConfig()
        .environment("envpool/CartPole-v1", env_config={"num_threads": 2})
        .env_runners(num_env_runners=4, num_envs_per_env_runner=8,
                     gym_env_vectorize_mode="vector_entry_point")
        .callbacks(EnvpoolCallback)
    )

What :class:`EnvpoolCallback` adds, on each env runner:

* it imports envpool there (unpickling the callback class does), which registers the
  ``envpool/`` ids with gymnasium in the runner's process: without it a remote runner
  does not know them;
* per-runner seeds: runner ``w`` (``worker_index``; evaluation runners ``w + 10**6``,
  as RLlib offsets them) seeds env ``i`` with ``(base + w) * num_envs + i``, where
  ``base`` is ``config.debugging(seed=...)`` when set (RLlib then resets runner ``w``
  with ``seed + w``, which the pool spreads into its own block), else the pool's
  ``seed`` (``env_config["seed"]``, 42 by default). So runners never share a seed and
  a run is reproducible. With ``env_config={"seed": None}`` and no RLlib seed each
  pool draws a random seed;
* a check of the autoreset contract: RLlib's runners expect gymnasium's NEXT_STEP
  autoreset (the step after a done returns the reset obs), envpool's default; a pool
  made with another ``autoreset_mode`` is refused with a ValueError.

RLlib numbers episodes itself (one ``SingleAgentEpisode`` per env index, a new id at
each reset), so the pool's ``env_id`` / ``elapsed_step`` infos pass through as data.

Image tasks (Atari, ViZDoom) are channel-first (``(4, 84, 84)`` for Pong-v5), RLlib's
default CNN encoder reads channel-last: add :class:`ChannelsLast` as an env-to-module
connector (``.env_runners(env_to_module_connector=channels_last_connector)``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.connectors.env_to_module.observation_preprocessor import (
    SingleAgentObservationPreprocessor,
)

import envpool  # noqa: F401  (registers the envpool/ ids with gymnasium on each runner)
from envpool.flavours.gymnasium_env import GymnasiumEnvPool

#: RLlib adds this to an evaluation runner's seed; so do the per-runner seed blocks.
EVALUATION_SEED_OFFSET = 1_000_000

__all__ = [
    "ChannelsLast",
    "EnvpoolCallback",
    "channels_last_connector",
    "runner_seed_base",
    "seed_runner_pool",
]


def runner_seed_base(worker_index: int | None, in_evaluation: bool = False) -> int:
    """The offset that runner ``worker_index`` adds to the base seed (RLlib's own
    per-runner offset: the index, plus 10**6 on evaluation runners)."""
    return int(worker_index or 0) + (EVALUATION_SEED_OFFSET if in_evaluation else 0)


def seed_runner_pool(pool: GymnasiumEnvPool, worker_index: int | None,
                     rllib_seed: int | None, in_evaluation: bool = False) -> None:
    """Gives ``pool`` (an env runner's envpool vector env) its own block of seeds.

    ``rllib_seed`` is the algorithm's ``config.seed``: when set, RLlib itself resets the
    runner with ``rllib_seed + worker_index`` (+10**6 for evaluation) before sampling,
    and the pool maps that seed ``s`` to ``s * num_envs + i`` for env ``i``. When it is
    None, the pool is reseeded here the same way from its own make-time seed.
    Raises ValueError for a pool that RLlib's runner cannot drive (async, or an
    autoreset mode other than NEXT_STEP) or whose make-time seed is a list.
    """
    if not isinstance(pool, GymnasiumEnvPool):
        raise TypeError(f"expected an envpool gymnasium pool, got {type(pool).__name__}")
    if pool.is_async:
        raise ValueError("RLlib's env runner steps every env: the pool must be sync "
                         "(batch_size == num_envs)")
    if pool.autoreset_mode != AutoresetMode.NEXT_STEP:
        raise ValueError(
            f"RLlib's env runner expects NEXT_STEP autoreset (the step after a done "
            f"returns the reset observation); this pool was made with "
            f"autoreset_mode={pool.autoreset_mode.value!r}: drop autoreset_mode from "
            f"env_config")
    pool.seed_stride = pool.num_envs
    if rllib_seed is not None:
        return  # RLlib's first reset passes rllib_seed + worker offset: a block of its own.
    base = pool.config["seed"]
    if base is None:
        return  # a random seed per pool, drawn at make time: distinct, not reproducible.
    if not isinstance(base, (int, np.integer)):
        raise ValueError("per-runner seeds need an int env_config['seed'] (or None), "
                         f"not {base!r}: every runner would repeat the same list")
    pool.reset(seed=int(base) + runner_seed_base(worker_index, in_evaluation))


class EnvpoolCallback(RLlibCallback):
    """RLlib callback for env runners whose env is an envpool pool.

    Pass the class to ``.callbacks(...)``. On each env runner it imports envpool
    (which registers the ``envpool/`` ids with gymnasium in the runner's process) and
    gives the runner's pool its own block of seeds: runner ``w`` seeds env ``i`` with
    ``(base + w) * num_envs + i`` (evaluation runners ``w + 10**6``), ``base`` being
    RLlib's ``config.debugging(seed=...)`` when set, else the pool's ``seed``. It also
    checks that the pool is sync with next-step autoreset, as RLlib's runners expect.
    Envs that are not envpool pools are left alone.

    Examples:
        >>> from ray.rllib.algorithms.ppo import PPOConfig
        >>> from envpool.integrations.rllib import EnvpoolCallback
        >>> config = (
        ...     PPOConfig()
        ...     .environment("envpool/CartPole-v1", env_config={"num_threads": 2})
        ...     .env_runners(num_env_runners=4, num_envs_per_env_runner=8,
        ...                  gym_env_vectorize_mode="vector_entry_point")
        ...     .callbacks(EnvpoolCallback)
        ... )
    """

    def on_environment_created(self, *, env_runner: Any, metrics_logger: Any = None,
                               env: gymnasium.Env, env_context: Any, **kwargs: Any) -> None:
        """Seeds the runner's pool (RLlib calls this after each ``make_env``).

        Args:
            env_runner: The env runner (its ``worker_index`` and ``config`` are read).
            metrics_logger: Not used.
            env: The runner's env: an envpool pool is seeded, any other env is left
                alone.
            env_context: Not used.
            **kwargs: Not used.

        Raises:
            ValueError: the pool is async, has an autoreset mode other than next-step,
                or was made with a list of seeds.
        """
        if isinstance(env, GymnasiumEnvPool):
            seed_runner_pool(env, env_runner.worker_index, env_runner.config.seed,
                             bool(env_runner.config.in_evaluation))


class ChannelsLast(SingleAgentObservationPreprocessor):
    """Env-to-module connector from channel-first to channel-last image observations.

    Turns ``(C, H, W)`` observations (envpool's Atari and ViZDoom layout) into the
    ``(H, W, C)`` that RLlib's default CNN encoder reads; with ``scale`` (the default)
    uint8 pixels become float32 in [0, 1] (the encoder's convolutions take floats).
    ``channels_last_connector`` makes one for ``.env_runners(...)``.

    Args:
        input_observation_space: The observation space it reads (RLlib passes it).
        input_action_space: The action space (RLlib passes it).
        scale: Scale uint8 pixels to float32 in [0, 1].
        **kwargs: Passed on to RLlib's ``SingleAgentObservationPreprocessor``.

    Raises:
        ValueError: the observation space is not a ``(C, H, W)`` Box.

    Examples:
        >>> import gymnasium
        >>> import numpy as np
        >>> from envpool.integrations.rllib import ChannelsLast
        >>> space = gymnasium.spaces.Box(0, 255, (4, 84, 84), np.uint8)
        >>> ChannelsLast(space, gymnasium.spaces.Discrete(6)).observation_space.shape
        (84, 84, 4)
    """

    def __init__(self, input_observation_space: gymnasium.Space | None = None,
                 input_action_space: gymnasium.Space | None = None, *,
                 scale: bool = True, **kwargs: Any) -> None:
        self.scale = scale
        super().__init__(input_observation_space, input_action_space, **kwargs)

    def recompute_output_observation_space(
        self, input_observation_space: gymnasium.Space, input_action_space: gymnasium.Space
    ) -> gymnasium.Space:
        """The input Box with its first axis moved last (and scaled to [0, 1])."""
        space = input_observation_space
        if not isinstance(space, gymnasium.spaces.Box) or len(space.shape) != 3:
            raise ValueError(f"ChannelsLast needs a (C, H, W) Box observation space, got {space}")
        low, high = np.moveaxis(space.low, 0, -1), np.moveaxis(space.high, 0, -1)
        if self._scales(space):
            return gymnasium.spaces.Box(0.0, 1.0, low.shape, dtype=np.float32)
        return gymnasium.spaces.Box(low, high, dtype=space.dtype)

    def _scales(self, space: gymnasium.spaces.Box) -> bool:
        return self.scale and space.dtype == np.uint8

    def preprocess(self, observation: np.ndarray, episode: Any) -> np.ndarray:
        """One observation, ``(C, H, W)`` to ``(H, W, C)``."""
        out = np.moveaxis(observation, 0, -1)
        if self.scale and out.dtype == np.uint8:
            scaled = np.ascontiguousarray(out, dtype=np.float32)
            scaled /= np.float32(255.0)
            return scaled
        return np.ascontiguousarray(out)


def channels_last_connector(env: Any = None, spaces: Any = None,
                            device: Any = None) -> ChannelsLast:
    """Makes the ``env_to_module_connector`` that feeds image envs to RLlib's CNN.

    Args:
        env: The env (RLlib passes it; not used).
        spaces: The spaces (RLlib passes them; not used).
        device: The device (RLlib passes it; not used).

    Returns:
        A ``ChannelsLast`` connector (channel-last, float32 in [0, 1]).

    Examples:
        >>> from ray.rllib.algorithms.ppo import PPOConfig
        >>> from envpool.integrations.rllib import EnvpoolCallback, channels_last_connector
        >>> config = (
        ...     PPOConfig()
        ...     .environment("envpool/Pong-v5")
        ...     .env_runners(gym_env_vectorize_mode="vector_entry_point",
        ...                  env_to_module_connector=channels_last_connector)
        ...     .callbacks(EnvpoolCallback)
        ... )
    """
    return ChannelsLast()
