"""SAC (Stable-Baselines3) on Pendulum-v1 with envpool, observations normalized.

    python examples/sb3/sac_pendulum.py --timesteps 20000
"""

from __future__ import annotations

import argparse

from stable_baselines3 import SAC
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

from envpool.integrations.sb3 import make_vec_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--timesteps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="vecnormalize.pkl")
    args = parser.parse_args()

    venv = VecNormalize(VecMonitor(make_vec_env("Pendulum-v1", n_envs=1, seed=args.seed)),
                        norm_reward=False)
    model = SAC("MlpPolicy", venv, learning_rate=1e-3, learning_starts=500, seed=args.seed,
                device="cpu", verbose=1)
    model.learn(args.timesteps)
    venv.save(args.save)  # the normalization statistics go with the model

    eval_env = VecNormalize.load(args.save, VecMonitor(make_vec_env("Pendulum-v1", n_envs=4,
                                                                    seed=args.seed + 1000)))
    eval_env.training = False
    mean, std = evaluate_policy(model, eval_env, n_eval_episodes=8, deterministic=True)
    print(f"Pendulum-v1: mean return {mean:.1f} +/- {std:.1f}")


if __name__ == "__main__":
    main()
