"""Tianshou cells: Tianshou 2's DQN with its ``Collector`` on Tianshou's own
``DummyVectorEnv`` of gymnasium envs, or on envpool's ``make_tianshou_env``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from matrix.common import Run

Trainer = Callable[[str, int, int], Run]

EPOCH_STEPS = 5_000
TRAIN_ENVS, TEST_ENVS = 8, 4


def _venv(stack: str, task_id: str, n: int, seed: int) -> Any:
    if stack == "envpool":
        from envpool.integrations.tianshou import make_tianshou_env

        return make_tianshou_env(task_id, num_envs=n, seed=seed)
    import gymnasium
    from tianshou.env import DummyVectorEnv

    venv = DummyVectorEnv([lambda: gymnasium.make(task_id) for _ in range(n)])
    venv.seed(seed)
    return venv


def dqn_trainer(task_id: str) -> Trainer:
    """DQN as ``examples/tianshou/dqn_cartpole.py`` and the default suite's DQN test set it
    up (a 64x64 Q-net, n-step 3, epsilon 0.1 down to 0.01 over 10k steps), ``steps // 5000``
    epochs, no early stop; the curve is every training episode the collector finishes."""

    def train(stack: str, seed: int, steps: int) -> Run:
        import gymnasium
        import torch
        from tianshou.algorithm import DQN
        from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
        from tianshou.algorithm.optim import AdamOptimizerFactory
        from tianshou.data import Collector, CollectStats, VectorReplayBuffer
        from tianshou.trainer import OffPolicyTrainerParams
        from tianshou.utils.net.common import Net

        torch.manual_seed(seed)
        np.random.seed(seed)  # noqa: NPY002  (Tianshou's exploration and buffer sampling use it)
        torch.set_num_threads(1)
        train_envs = _venv(stack, task_id, TRAIN_ENVS, seed)
        test_envs = _venv(stack, task_id, TEST_ENVS, seed + 1000)
        space = train_envs.action_space[0]
        assert isinstance(space, gymnasium.spaces.Discrete)
        net = Net(state_shape=train_envs.observation_space[0].shape,
                  action_shape=int(space.n), hidden_sizes=[64, 64])
        policy = DiscreteQLearningPolicy(model=net, action_space=space, eps_training=0.1,
                                         eps_inference=0.0)
        algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.9,
                        n_step_return_horizon=3, target_update_freq=320)
        collector = Collector[CollectStats](
            algorithm, train_envs, VectorReplayBuffer(20_000, TRAIN_ENVS), exploration_noise=True)
        test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
        ends: list[int] = []
        returns: list[float] = []
        collected = 0
        collect = collector.collect

        def recording_collect(*args: Any, **kwargs: Any) -> CollectStats:
            nonlocal collected
            stats = collect(*args, **kwargs)
            collected += stats.n_collected_steps
            ends.extend([collected] * len(stats.returns))
            returns.extend(float(r) for r in stats.returns)
            return stats

        collector.collect = recording_collect  # type: ignore[method-assign]
        start = time.perf_counter()
        collector.reset()
        collector.collect(n_step=64 * TRAIN_ENVS)

        def training_fn(epoch: int, env_step: int) -> None:
            policy.set_eps_training(max(0.1 - 0.09 * env_step / 10_000, 0.01))

        algorithm.run_training(OffPolicyTrainerParams(
            training_collector=collector, test_collector=test_collector,
            max_epochs=max(1, steps // EPOCH_STEPS), epoch_num_steps=EPOCH_STEPS,
            collection_step_num_env_steps=16, test_step_num_episodes=10, batch_size=64,
            update_step_num_gradient_steps_per_sample=0.1, training_fn=training_fn,
            test_in_training=False, verbose=False, show_progress=False))
        seconds = time.perf_counter() - start
        train_envs.close()
        test_envs.close()
        return Run(stack, seed, np.asarray(ends), np.asarray(returns), collected, seconds)

    return train
