"""Sampled env steps per second of RLlib PPO env runners on Pong-v5: envpool pools against
RLlib's own gymnasium vectorization (SYNC and ASYNC) of ale-py's envs.

Every method builds the same PPO algorithm (new API stack, RLlib's default CNN encoder,
``envpool.integrations.rllib.ChannelsLast`` as env-to-module connector) with the same
``--runners`` env runners of ``--num-envs`` envs each, on a local Ray instance:

* ``envpool``: ``.environment("envpool/Pong-v5", env_config={"num_threads": t})`` with
  ``gym_env_vectorize_mode="vector_entry_point"`` (one native pool per runner, ``t`` =
  ``--num-threads``, default cores // runners);
* ``rllib SYNC`` / ``rllib ASYNC``: ``gym_env_vectorize_mode="SYNC"`` / ``"ASYNC"`` over
  ``AtariPreprocessing(gymnasium.make("ALE/Pong-v5", frameskip=1,
  repeat_action_probability=0), noop_max=30, frame_skip=4) + FrameStackObservation(4)``:
  the same (4, 84, 84) uint8 observations as envpool's Pong-v5.

The three algorithms are built once and measured in turn, ``--repeats`` times
(interleaved, so a busy machine hurts each alike). One measurement: every remote runner
runs ``EnvRunner.sample(num_timesteps=--steps)`` at once (RLlib's own sampling loop:
env steps, the connectors and the module's forward pass for the actions), and the env
steps in the returned episodes are divided by the wall time. Each measurement starts
with a reset of every env (``force_reset``: episodes of policy and random actions do not
mix), the same for every method. ``--random-actions`` also
measures with random actions (no forward pass: the env side alone). The PPO update is not
timed. Reported: the median over repeats.

Run: ``python benchmarks/bench_rllib.py [--runners 2] [--num-envs 8] [--steps 1024]
[--repeats 3] [--random-actions]`` in a venv with the ``rllib`` extra.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

import ale_py
import gymnasium
import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.tune.registry import register_env

from envpool.integrations.rllib import EnvpoolCallback, channels_last_connector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners  # noqa: E402  (the machine header, shared with bench.py)

ALE_ID = "bench-ale-pong-preprocessed"


def make_ale_pong(env_context: Any = None) -> gymnasium.Env:
    """ale-py's Pong with gymnasium's Atari preprocessing: envpool Pong-v5's output."""
    import ale_py as ale  # imported on the env runner
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    gymnasium.register_envs(ale)
    env = gymnasium.make("ALE/Pong-v5", frameskip=1, repeat_action_probability=0.0)
    return FrameStackObservation(AtariPreprocessing(env, noop_max=30, frame_skip=4), 4)


def build(method: str, runners: int, num_envs: int, num_threads: int) -> Any:
    if method == "envpool":
        config = (PPOConfig()
                  .environment("envpool/Pong-v5", env_config={"num_threads": num_threads})
                  .env_runners(gym_env_vectorize_mode="vector_entry_point")
                  .callbacks(EnvpoolCallback))
    else:
        config = (PPOConfig().environment(ALE_ID)
                  .env_runners(gym_env_vectorize_mode=method.split()[-1].lower()))
    config = (config
              .env_runners(num_env_runners=runners, num_envs_per_env_runner=num_envs,
                           env_to_module_connector=channels_last_connector)
              .training(train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1))
    return config.build_algo()


def sampled_rate(algo: Any, steps: int, random_actions: bool) -> float:
    def sample(runner: Any) -> int:
        episodes = runner.sample(num_timesteps=steps, random_actions=random_actions,
                                 force_reset=True)
        return sum(len(e) for e in episodes)

    start = time.perf_counter()
    counts = algo.env_runner_group.foreach_env_runner(sample, local_env_runner=False)
    elapsed = time.perf_counter() - start
    return sum(counts) / elapsed


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runners", type=int, default=2)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-threads", type=int, default=0,
                   help="envpool threads per pool (0: max(1, cores // runners))")
    p.add_argument("--steps", type=int, default=1024, help="env steps per runner per sample")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--random-actions", action="store_true")
    p.add_argument("--methods", nargs="+", default=["envpool", "rllib SYNC", "rllib ASYNC"],
                   choices=["envpool", "rllib SYNC", "rllib ASYNC"])
    args = p.parse_args(argv)
    cores = os.cpu_count() or 1
    threads = args.num_threads or max(1, cores // args.runners)
    info = _runners.machine_info()
    register_env(ALE_ID, make_ale_pong)
    ray.init(num_cpus=args.runners * len(args.methods), include_dashboard=False,
             object_store_memory=200 * 2**20, log_to_driver=False)
    modes = [False, True] if args.random_actions else [False]
    rates: dict[tuple[str, bool], list[float]] = {}
    try:
        algos = {m: build(m, args.runners, args.num_envs, threads) for m in args.methods}
        for algo in algos.values():  # warm-up: the first reset, the first forward passes
            sampled_rate(algo, args.steps // 4, False)
        for _ in range(args.repeats):
            for random_actions in modes:
                for method, algo in algos.items():
                    rate = sampled_rate(algo, args.steps, random_actions)
                    rates.setdefault((method, random_actions), []).append(rate)
                    print(f"  {method} random_actions={random_actions}: {rate:,.0f} steps/s",
                          file=sys.stderr, flush=True)
        for algo in algos.values():
            algo.stop()
    finally:
        ray.shutdown()
    print("# RLlib PPO env runners on Pong-v5: sampled env steps/s\n")
    print(f"- envpool {info['envpool']}, ray {ray.__version__}, gymnasium {info['gymnasium']}, "
          f"ale-py {ale_py.__version__}, torch {torch.__version__}, python {info['python']} "
          f"(checkout {info['git']})")
    print(f"- os.cpu_count(): {cores}; CPU: {info['cpu_model'] or 'unknown'}; load average at "
          f"start: {info['loadavg_start']}")
    print(f"- {args.runners} env runners x {args.num_envs} envs, envpool num_threads={threads} "
          f"per pool; {args.steps} env steps per runner per measurement, median of "
          f"{args.repeats} interleaved repeats\n")
    print("| method | actions | env steps/s (median) | all repeats | vs envpool |")
    print("|---|---|---:|---|---:|")
    for random_actions in modes:
        base = float(np.median(rates.get(("envpool", random_actions), [np.nan]))) or np.nan
        for method in args.methods:
            r = rates[(method, random_actions)]
            med = float(np.median(r))
            print(f"| {method} | {'random' if random_actions else 'policy'} | {med:,.0f} | "
                  f"{', '.join(f'{x:,.0f}' for x in r)} | {med / base:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
