"""rl_games: an envpool pool as a registered rl_games vecenv.

    from envpool.integrations.rl_games import register_rl_games
    register_rl_games()          # once, before rl_games' Runner loads the YAML

then in the YAML::

    config:
      env_name: envpool_gymnasium        # selects this package's vecenv
      env_config:                        # passed to envpool.make_gymnasium
        env_name: CartPole-v1            # the task id (rl_games' envpool key)
        seed: 0
        has_lives: False                 # Atari: count scores over all lives

The pool runs with same-step autoreset, as rl_games' own vector envs do (the
step that ends an episode returns the next episode's first observation), so no
transition is spent on a reset. ``infos["time_outs"]`` marks truncation (not
termination) for ``value_bootstrap``; ``infos["scores"]`` holds each finished
episode's unclipped return (``info["reward"]`` summed over all lives when
``has_lives``) for rl_games' score tracking.

rl_games' own ``env_name: envpool`` type (``rl_games/envs/envpool.py``, which
calls ``envpool.make(name, env_type="gym", num_envs=, batch_size=, ...)``) also
works with this package unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rl_games.common import env_configurations, vecenv
from rl_games.common.ivecenv import IVecEnv

from envpool.integrations._pool import make_adapter_pool
from envpool.integrations.cleanrl import RecordEpisodeStatistics

__all__ = ["ENV_NAME", "VECENV_TYPE", "RlGamesVecEnv", "register_rl_games"]

ENV_NAME = "envpool_gymnasium"
VECENV_TYPE = "ENVPOOL_GYMNASIUM"


class RlGamesVecEnv(IVecEnv):
    """rl_games' ``IVecEnv`` over a same-step-autoreset gymnasium pool.

    rl_games makes it from a YAML config once ``register_rl_games()`` has run. The step
    that ends an episode returns the next episode's first observation;
    ``step`` returns ``(obs, reward, dones, infos)`` with ``infos["time_outs"]``
    (truncation, for ``value_bootstrap``) and ``infos["scores"]`` (each env's last
    finished episode's unclipped return).

    Args:
        config_name: rl_games' config name (not used).
        num_actors: The number of envs.
        **kwargs: ``env_name`` (the task id), ``has_lives`` (True for Atari: scores
            add up over all lives) and any ``envpool.make`` keyword (``seed``,
            ``num_threads``, the env's own keywords) but ``num_envs``, ``batch_size``
            and ``autoreset_mode``.

    Raises:
        KeyError: ``env_name`` is missing.
        TypeError: a keyword the adapter sets, or one the task does not take.
        ValueError: ``env_name`` is not a registered task id.

    Examples:
        >>> import numpy as np
        >>> from envpool.integrations.rl_games import RlGamesVecEnv
        >>> env = RlGamesVecEnv("", 4, env_name="CartPole-v1", seed=0)
        >>> env.reset().shape
        (4, 4)
        >>> obs, reward, dones, infos = env.step(np.zeros(4, dtype=int))
        >>> sorted(infos)
        ['scores', 'time_outs']
        >>> env.close()
    """

    def __init__(self, config_name: str, num_actors: int, **kwargs: Any) -> None:
        kwargs = dict(kwargs)
        task_id = kwargs.pop("env_name")
        self.has_lives = bool(kwargs.pop("has_lives", False))
        self.pool = make_adapter_pool("the rl_games vecenv", task_id, num_actors,
                                      kwargs.pop("seed", None), "same_step", **kwargs)
        self.env = RecordEpisodeStatistics(self.pool)
        self.num_actors = num_actors
        self.observation_space = self.pool.single_observation_space
        self.action_space = self.pool.single_action_space
        self._scores = np.zeros(num_actors, np.float32)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        """One step of every env: (obs, reward, dones, infos) with ``time_outs`` and ``scores``."""
        actions = actions.cpu().numpy() if hasattr(actions, "cpu") else np.asarray(actions)
        obs, reward, terminated, truncated, info = self.env.step(actions)
        dones = terminated | truncated
        infos = {k: info[k] for k in self.pool.info_keys}
        infos["time_outs"] = truncated & ~terminated
        if "_episode" in info:
            ended = info["_episode"]
            self._scores[ended] = info["episode"]["r"][ended]
        infos["scores"] = self._scores
        if self.has_lives:
            # rl_games' observer counts a score on rows where "lives" == 0: the game ends
            lives = np.ones(self.num_actors, np.int32)
            if "_episode" in info:
                lives[info["_episode"]] = 0
            infos["lives"] = lives
        else:
            infos.pop("lives", None)  # else rl_games' observer reads scores by lives
        return obs, reward, dones, infos

    def reset(self) -> Any:
        """Resets every env; returns the observations."""
        obs, _ = self.env.reset()
        return obs

    def get_number_of_agents(self) -> int:
        """One agent per env."""
        return 1

    def get_env_info(self) -> dict[str, Any]:
        """The single-env spaces, as rl_games' ``get_env_info`` reports them."""
        return {"action_space": self.action_space, "observation_space": self.observation_space,
                "agents": 1, "value_size": 1}

    def has_action_masks(self) -> bool:
        """No action masks."""
        return False

    def seed(self, seed: int) -> None:
        """Reseeds every env (env i gets seed + i) and resets them."""
        self.env.reset(seed=int(seed))

    def close(self) -> None:
        """Stops the native pool."""
        self.pool.close()


def _creator(**kwargs: Any) -> RlGamesVecEnv:
    return RlGamesVecEnv("", kwargs.pop("num_actors", 1), **kwargs)


def register_rl_games() -> None:
    """Registers envpool with rl_games as ``env_name: envpool_gymnasium``.

    Registers the vecenv type ``ENVPOOL_GYMNASIUM`` and the env configuration
    ``envpool_gymnasium``, so that an rl_games YAML config selects ``RlGamesVecEnv`` by
    ``env_name`` and passes ``env_config`` (``env_name`` is the task id) to it. Call it
    once before rl_games' ``Runner`` loads the config; calling it again does no harm.

    Examples:
        >>> from rl_games.common import env_configurations
        >>> from envpool.integrations.rl_games import register_rl_games
        >>> register_rl_games()
        >>> "envpool_gymnasium" in env_configurations.configurations
        True
    """
    vecenv.register(VECENV_TYPE, lambda config_name, num_actors, **kwargs:
                    RlGamesVecEnv(config_name, num_actors, **kwargs))
    env_configurations.register(ENV_NAME, {"vecenv_type": VECENV_TYPE,
                                           "env_creator": _creator})
