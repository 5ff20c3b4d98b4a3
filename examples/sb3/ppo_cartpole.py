"""PPO (Stable-Baselines3) on CartPole-v1 with envpool as the vector env.

    python examples/sb3/ppo_cartpole.py --timesteps 100000
"""

from __future__ import annotations

import argparse

from stable_baselines3 import PPO
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.vec_env import VecMonitor

from envpool.integrations.sb3 import make_vec_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default="CartPole-v1")
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    venv = VecMonitor(make_vec_env(args.task, n_envs=args.num_envs, seed=args.seed))
    model = PPO("MlpPolicy", venv, n_steps=32, batch_size=256, gae_lambda=0.8, gamma=0.98,
                n_epochs=20, ent_coef=0.0, learning_rate=lambda f: 1e-3 * f,
                clip_range=lambda f: 0.2 * f, seed=args.seed, device="cpu", verbose=1)
    model.learn(args.timesteps)
    eval_env = VecMonitor(make_vec_env(args.task, n_envs=4, seed=args.seed + 1000))
    mean, std = evaluate_policy(model, eval_env, n_eval_episodes=10, deterministic=True)
    print(f"{args.task}: mean return {mean:.1f} +/- {std:.1f}")


if __name__ == "__main__":
    main()
