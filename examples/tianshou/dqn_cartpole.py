"""DQN (Tianshou 2.x) on CartPole-v1 with envpool vector envs.

    python examples/tianshou/dqn_cartpole.py --epochs 10
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from envpool.integrations.tianshou import make_tianshou_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epoch-steps", type=int, default=5_000, help="env steps per epoch")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    train_envs = make_tianshou_env("CartPole-v1", num_envs=args.num_envs, seed=args.seed)
    test_envs = make_tianshou_env("CartPole-v1", num_envs=4, seed=args.seed + 1000)
    space = train_envs.action_space[0]
    assert isinstance(space, gymnasium.spaces.Discrete)
    net = Net(state_shape=train_envs.observation_space[0].shape, action_shape=int(space.n),
              hidden_sizes=[64, 64])
    policy = DiscreteQLearningPolicy(model=net, action_space=space, eps_training=0.1)
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.9,
                    n_step_return_horizon=3, target_update_freq=320)
    train_collector = Collector[CollectStats](
        algorithm, train_envs, VectorReplayBuffer(20_000, len(train_envs)), exploration_noise=True
    )
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=64 * len(train_envs))
    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, test_collector=test_collector,
        max_epochs=args.epochs, epoch_num_steps=args.epoch_steps, collection_step_num_env_steps=16,
        test_step_num_episodes=10, batch_size=64, update_step_num_gradient_steps_per_sample=0.1,
        stop_fn=lambda mean: mean >= 475))
    test_collector.reset()
    stats = test_collector.collect(n_episode=10)
    print(result)
    print(f"CartPole-v1: mean test return {np.mean(stats.returns):.1f}")


if __name__ == "__main__":
    main()
