"""Train a MuJoCo task (SAC or PPO, Stable-Baselines3) on envpool and plot its reward curve.

The training envs and the evaluation envs are envpool pools wrapped as SB3
``VecEnv``s (``envpool.integrations.sb3.make_vec_env``). Every ``--eval-freq``
env steps (and once before training) the deterministic policy is run for
``--eval-episodes`` episodes on a separate pool; the returns of those
evaluations, together with the mean return of the training episodes finished
since the previous one, are written to a CSV and plotted to a PNG at the end.

    python examples/mujoco/sb3_train.py                      # SAC, InvertedPendulum-v5, 20k steps
    python examples/mujoco/sb3_train.py --algo ppo --total-timesteps 200000
    python examples/mujoco/sb3_train.py --task Hopper-v5 --total-timesteps 300000
"""

from __future__ import annotations

import argparse
import csv
import math
import pathlib
import sys
import time
from typing import Any

import numpy as np
import torch
from stable_baselines3 import PPO, SAC
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from envpool.integrations.sb3 import make_vec_env

CSV_FIELDS = ("env_steps", "eval_mean", "eval_std", "eval_min", "eval_max",
              "train_mean", "train_episodes", "seconds")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", default="InvertedPendulum-v5", help="a gymnasium MuJoCo task id")
    p.add_argument("--algo", choices=("sac", "ppo"), default="sac")
    p.add_argument("--total-timesteps", type=int, default=20_000)
    p.add_argument("--num-envs", type=int, default=0,
                   help="training envs (0: 1 for SAC, 8 for PPO)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-freq", type=int, default=2_000, help="env steps between evaluations")
    p.add_argument("--eval-episodes", type=int, default=5)
    p.add_argument("--out", default="mujoco_curve",
                   help="output prefix: writes OUT.csv and OUT.png")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch CPU threads (1 is fastest for these small networks)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p.parse_args(argv)


def make_model(args: argparse.Namespace, venv: VecEnv) -> BaseAlgorithm:
    """SB3's defaults, with PPO's rollout sized to the number of envs."""
    if args.algo == "sac":
        return SAC("MlpPolicy", venv, learning_starts=1_000 if args.total_timesteps > 5_000
                   else 100, seed=args.seed, device="cpu", verbose=0)
    n_steps = max(16, 2048 // venv.num_envs)
    return PPO("MlpPolicy", venv, n_steps=n_steps, batch_size=64, seed=args.seed,
               device="cpu", verbose=0)


class _Progress:
    """A tqdm bar, or a line every 10% where tqdm is not installed."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.n, self.bar, self.enabled = total, 0, None, enabled
        self._next_line = 0.0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self.bar = tqdm(total=total, unit="step", dynamic_ncols=True)

    def update(self, n: int, **postfix: str) -> None:
        self.n += n
        if self.bar is not None:
            self.bar.update(n)
            if postfix:
                self.bar.set_postfix(postfix, refresh=False)
        elif self.enabled and self.n >= self._next_line * self.total:
            print(f"{self.n}/{self.total} steps {postfix}", file=sys.stderr, flush=True)
            self._next_line += 0.1

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class CurveCallback(BaseCallback):
    """Evaluates every ``eval_freq`` env steps and keeps the rows of the reward curve."""

    def __init__(self, eval_env: VecEnv, eval_freq: int, eval_episodes: int,
                 progress: _Progress) -> None:
        super().__init__()
        self.eval_env, self.eval_freq, self.eval_episodes = eval_env, eval_freq, eval_episodes
        self.progress = progress
        self.rows: list[dict[str, Any]] = []
        self.train_returns: list[float] = []  # (all training episodes, in order)
        self.train_steps: list[int] = []
        self._since_eval: list[float] = []
        self._next_eval = 0
        self._start = time.time()

    def evaluate(self) -> None:
        returns, _ = evaluate_policy(self.model, self.eval_env, self.eval_episodes,
                                     deterministic=True, return_episode_rewards=True)
        r = np.asarray(returns, dtype=np.float64)
        self.rows.append({
            "env_steps": self.num_timesteps,
            "eval_mean": float(r.mean()), "eval_std": float(r.std()),
            "eval_min": float(r.min()), "eval_max": float(r.max()),
            "train_mean": float(np.mean(self._since_eval)) if self._since_eval else math.nan,
            "train_episodes": len(self._since_eval),
            "seconds": round(time.time() - self._start, 2),
        })
        self._since_eval = []
        self._next_eval = self.num_timesteps + self.eval_freq

    def _on_training_start(self) -> None:
        self._start = time.time()
        self.evaluate()  # the untrained policy

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:  # from VecMonitor
                self._since_eval.append(float(info["episode"]["r"]))
                self.train_returns.append(float(info["episode"]["r"]))
                self.train_steps.append(self.num_timesteps)
        if self.num_timesteps >= self._next_eval:
            self.evaluate()
        postfix = {"eval": f"{self.rows[-1]['eval_mean']:.1f}"}
        if self.train_returns:
            postfix["train"] = f"{np.mean(self.train_returns[-10:]):.1f}"
        self.progress.update(self.training_env.num_envs, **postfix)
        return True

    def _on_training_end(self) -> None:
        if self.rows[-1]["env_steps"] != self.num_timesteps:
            self.evaluate()  # the final policy


def write_csv(rows: list[dict[str, Any]], path: pathlib.Path) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def plot_curve(cb: CurveCallback, path: pathlib.Path, title: str) -> None:
    """Evaluation mean (band: min..max) and training episode returns against env steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([row["env_steps"] for row in cb.rows])
    mean = np.array([row["eval_mean"] for row in cb.rows])
    lo = np.array([row["eval_min"] for row in cb.rows])
    hi = np.array([row["eval_max"] for row in cb.rows])
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=80)
    if cb.train_returns:
        ax.plot(cb.train_steps, cb.train_returns, ".", ms=3, alpha=0.3, color="tab:gray",
                label="training episode")
    ax.fill_between(steps, lo, hi, alpha=0.25, color="tab:blue")
    ax.plot(steps, mean, "o-", ms=3, color="tab:blue",
            label=f"evaluation ({cb.eval_episodes} episodes; band: min-max)")
    ax.set_xlabel("env steps")
    ax.set_ylabel("episode return")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Trains, then writes ``OUT.csv`` and ``OUT.png``; returns the curve and the paths."""
    if args.num_envs <= 0:
        args.num_envs = 1 if args.algo == "sac" else 8
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)
    venv = VecMonitor(make_vec_env(args.task, n_envs=args.num_envs, seed=args.seed))
    eval_env = VecMonitor(make_vec_env(args.task, n_envs=args.eval_episodes,
                                       seed=args.seed + 10_000))
    model = make_model(args, venv)
    progress = _Progress(args.total_timesteps, not args.no_progress)
    cb = CurveCallback(eval_env, args.eval_freq, args.eval_episodes, progress)
    start = time.time()
    try:
        model.learn(args.total_timesteps, callback=cb)
    finally:
        progress.close()
        venv.close()
        eval_env.close()
    seconds = time.time() - start

    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    csv_path, png_path = out.with_name(out.name + ".csv"), out.with_name(out.name + ".png")
    write_csv(cb.rows, csv_path)
    plot_curve(cb, png_path, f"{args.algo.upper()} on {args.task} (envpool, "
                             f"{args.num_envs} env{'s' if args.num_envs > 1 else ''}, "
                             f"seed {args.seed})")
    return {"rows": cb.rows, "train_returns": cb.train_returns, "seconds": seconds,
            "csv": csv_path, "png": png_path}


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = train(args)
    print(f"{'env_steps':>9} {'eval mean':>10} {'eval std':>9} {'train mean':>10}")
    for row in result["rows"]:
        print(f"{row['env_steps']:>9} {row['eval_mean']:>10.1f} {row['eval_std']:>9.1f} "
              f"{row['train_mean']:>10.1f}")
    print(f"{args.total_timesteps} steps in {result['seconds']:.0f} s; "
          f"wrote {result['csv']} and {result['png']}")


if __name__ == "__main__":
    main()
