"""rl_games cells: rl_games' ``Runner`` on ``examples/rl_games/ppo_cartpole.yaml``, with
``env_name`` this package's ``envpool_gymnasium`` vecenv, or the reference below.

rl_games has no in-process vector env of its own: its ``RAY`` type needs Ray and the old
gym four-tuple step API. The reference is therefore gymnasium's ``SyncVectorEnv`` of
gymnasium envs (same-step autoreset, as rl_games' vecenvs behave) behind rl_games' own
``IVecEnv`` interface, with ``time_outs`` and ``scores`` as rl_games reads them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from matrix.common import ROOT, Run

Trainer = Callable[[str, int, int], Run]
REFERENCE_ENV_NAME = "matrix_gymnasium_sync"


def _register_reference() -> None:
    import gymnasium
    from rl_games.common import env_configurations, vecenv
    from rl_games.common.ivecenv import IVecEnv

    class GymnasiumSyncVecEnv(IVecEnv):
        """gymnasium's SyncVectorEnv (same-step autoreset) as an rl_games vecenv."""

        def __init__(self, config_name: str, num_actors: int, **kwargs: Any) -> None:
            self.env = gymnasium.wrappers.vector.RecordEpisodeStatistics(gymnasium.make_vec(
                kwargs["env_name"], num_envs=num_actors, vectorization_mode="sync",
                vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}))
            self.seed_value = kwargs.get("seed")
            self.scores = np.zeros(num_actors, np.float32)

        def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
            actions = actions.cpu().numpy() if hasattr(actions, "cpu") else np.asarray(actions)
            obs, reward, terminated, truncated, info = self.env.step(actions)
            if "_episode" in info:
                self.scores[info["_episode"]] = info["episode"]["r"][info["_episode"]]
            return obs, reward, terminated | truncated, {
                "time_outs": truncated & ~terminated, "scores": self.scores}

        def reset(self) -> Any:
            obs, _ = self.env.reset(seed=self.seed_value)
            self.seed_value = None
            return obs

        def get_number_of_agents(self) -> int:
            return 1

        def get_env_info(self) -> dict[str, Any]:
            return {"action_space": self.env.single_action_space,
                    "observation_space": self.env.single_observation_space,
                    "agents": 1, "value_size": 1}

        def has_action_masks(self) -> bool:
            return False

        def close(self) -> None:
            self.env.close()

    vecenv.register("MATRIX_GYMNASIUM_SYNC", lambda config_name, num_actors, **kwargs:
                    GymnasiumSyncVecEnv(config_name, num_actors, **kwargs))
    env_configurations.register(REFERENCE_ENV_NAME, {"vecenv_type": "MATRIX_GYMNASIUM_SYNC",
                                                     "env_creator": lambda **kw: None})


def ppo_yaml_trainer(task_id: str, yaml_name: str = "ppo_cartpole.yaml") -> Trainer:
    """rl_games' PPO from the example YAML; ``max_epochs`` = steps / (actors x horizon)."""

    def train(stack: str, seed: int, steps: int) -> Run:
        import yaml
        from rl_games.common.algo_observer import DefaultAlgoObserver
        from rl_games.torch_runner import Runner

        from envpool.integrations.rl_games import ENV_NAME, register_rl_games

        register_rl_games()
        _register_reference()
        with open(ROOT / "examples" / "rl_games" / yaml_name) as f:
            config = yaml.safe_load(f)
        params = config["params"]
        params["seed"] = seed
        cfg = params["config"]
        cfg["env_name"] = ENV_NAME if stack == "envpool" else REFERENCE_ENV_NAME
        cfg["env_config"] = {"env_name": task_id, "seed": seed}
        cfg["max_epochs"] = max(1, steps // (cfg["num_actors"] * cfg["horizon_length"]))
        cfg["score_to_win"] = float("inf")  # train the whole budget on both stacks
        import tempfile

        ends: list[int] = []
        returns: list[float] = []

        class Episodes(DefaultAlgoObserver):
            def process_infos(self, infos: Any, done_indices: Any) -> None:
                super().process_infos(infos, done_indices)
                done = np.asarray(done_indices.cpu()).reshape(-1)
                scores = np.asarray(infos["scores"])[done]
                ends.extend([int(self.algo.frame)] * len(scores))
                returns.extend(float(s) for s in scores)

        with tempfile.TemporaryDirectory() as train_dir:
            cfg["train_dir"] = train_dir
            runner = Runner(algo_observer=Episodes())
            runner.load(config)
            start = time.perf_counter()
            runner.run({"train": True, "play": False})
            seconds = time.perf_counter() - start
        return Run(stack, seed, np.asarray(ends), np.asarray(returns),
                   cfg["max_epochs"] * cfg["num_actors"] * cfg["horizon_length"], seconds)

    return train
