"""How close envpool runs to the machine's limit: the ratios of issue 12, in one run.

Each line is a ratio of two rates measured in this run, interleaved: ``--reps``
rounds, every measurement once per round in a rotating order, and the median over
the rounds of each round's own ratio, so that the machine's drift (other tenants
of a virtual machine move its speed by tens of percent from minute to minute)
moves both sides of a ratio alike:

* Pong-v5, sync ``N`` = 1, 8, 16 and async 8/4, 16/8, against the limit
  ``min(N, cores) x`` the raw single-thread emulator rate: one ``ale_py.
  ALEInterface`` (the ale-py wheel's build) stepping 4 frames per env step and
  grabbing the grayscale screen of the last two, the least work our
  preprocessing needs, in a Python loop whose overhead is negligible next to
  four frames of emulation;
* Pong-v5 ``N`` = 1 against ale-py's own single env in a plain loop: its
  ``AtariEnv`` with gymnasium's ``AtariPreprocessing`` (frame skip 4, max-pool,
  84x84 grayscale, no-ops) and ``FrameStackObservation(4)``, the same output as
  ours; and, for reference, its bare ``AtariEnv`` with frame skip 4 (RGB frames,
  no preprocessing: less work than ours);
* CartPole-v1 async 8 envs in batches of 4 against sync 8 envs;
* Ant-v5 sync 32 envs against ``min(32, cores) x`` the raw ``mujoco.mj_step``
  rate (5 substeps per env step, the same mujoco);
* an idle pool: the CPU time the process uses while a pool that has just been
  stepped is left alone for a second (``--idle-seconds``), as a share of one core.

A last column divides steps per CPU second the same way: the work an env step
costs us against the reference's, which the machine's drift and idle threads do not
move (for the pools it counts every thread's CPU time).

Run: ``python benchmarks/bench_limits.py [--reps 5] [--seconds 2]``; it prints a
table (rate, reference rate, ratio, target) with the versions and core count.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version

import ale_py
import gymnasium
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402  (timing and runners, shared with bench.py)

import envpool  # noqa: E402

Runner = R.Runner


def idle_cpu_share(seconds: float) -> float:
    """CPU seconds per wall second of this process while a just-stepped pool waits."""
    env = envpool.make_gymnasium("CartPole-v1", num_envs=8, batch_size=4, seed=0)
    env.async_reset()
    for _ in range(1000):
        env.send(np.zeros(4, np.int32), env.recv()[4]["env_id"])
    env.recv()  # the other half stays in flight, finishes, and waits in the pool
    time.sleep(0.05)
    c0, t0 = time.process_time(), time.perf_counter()
    time.sleep(seconds)
    share = (time.process_time() - c0) / (time.perf_counter() - t0)
    env.close()
    return share


# name -> (factory of (runner, close)); measured in every round
def measurements() -> dict[str, Callable[[], tuple[Runner, Callable[[], None]]]]:
    def pool(task: str, n: int, batch: int) -> tuple[Runner, Callable[[], None]]:
        return R.envpool_runner(task, n, batch, 0, R.random_actor(0))

    return {
        "raw emulator": lambda: R.ale_raw_runner("Pong", grabs=True),
        "Pong sync 1": lambda: pool("Pong-v5", 1, 1),
        "Pong sync 8": lambda: pool("Pong-v5", 8, 8),
        "Pong sync 16": lambda: pool("Pong-v5", 16, 16),
        "Pong async 8/4": lambda: pool("Pong-v5", 8, 4),
        "Pong async 16/8": lambda: pool("Pong-v5", 16, 8),
        "ale-py AtariEnv + preprocessing": lambda: R.single_env_runner(
            R.preprocessed_ale_env("Pong"), 0),
        "ale-py AtariEnv bare": lambda: R.single_env_runner(
            gymnasium.make("ALE/Pong-v5", repeat_action_probability=0.0), 0),
        "CartPole sync 8": lambda: pool("CartPole-v1", 8, 8),
        "CartPole async 8/4": lambda: pool("CartPole-v1", 8, 4),
        "raw mj_step (Ant)": lambda: R.raw_mujoco_runner("Ant-v5"),
        "Ant sync 32": lambda: pool("Ant-v5", 32, 32),
    }


def ratios(cores: int) -> list[tuple[str, str, float, float]]:
    """(what, reference, reference multiplier, target) per line of the table."""
    lim = float(cores)
    return [
        ("Pong sync 1", "raw emulator", 1.0, 0.0),
        ("Pong sync 8", "raw emulator", min(8, lim), 0.0),
        ("Pong sync 16", "raw emulator", min(16, lim), 0.95),
        ("Pong async 8/4", "raw emulator", min(8, lim), 0.0),
        ("Pong async 16/8", "raw emulator", min(16, lim), 0.95),
        ("Pong sync 1", "ale-py AtariEnv + preprocessing", 1.0, 0.90),
        ("Pong sync 1", "ale-py AtariEnv bare", 1.0, 0.0),
        ("CartPole async 8/4", "CartPole sync 8", 1.0, 0.90),
        ("Ant sync 32", "raw mj_step (Ant)", min(32, lim), 0.95),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=3, help="interleaved rounds (median taken)")
    p.add_argument("--seconds", type=float, default=2.0, help="timed seconds per measurement")
    p.add_argument("--warmup", type=float, default=0.5)
    p.add_argument("--idle-seconds", type=float, default=1.0)
    args = p.parse_args(argv)
    cores = os.cpu_count() or 1
    gymnasium.register_envs(ale_py)
    todo = measurements()
    rates: dict[str, list[float]] = {k: [] for k in todo}
    cpu_rates: dict[str, list[float]] = {k: [] for k in todo}
    idle: list[float] = []
    for rep in range(args.reps):
        names = list(todo)
        names = names[rep % len(names):] + names[: rep % len(names)]  # rotate the order
        for name in names:
            run, close = todo[name]()
            try:
                R.measure(run, args.warmup, 0.05, 0)  # warm-up
                c0 = time.process_time()
                steps, _, elapsed = R.measure(run, args.seconds, 0.0, 0)
                cpu = time.process_time() - c0
            finally:
                close()
            rates[name].append(steps / elapsed)
            cpu_rates[name].append(steps / cpu)
            print(f"  round {rep + 1}: {name}: {steps / elapsed:,.0f} steps/s, "
                  f"{steps / cpu:,.0f} per CPU second", file=sys.stderr)
        idle.append(idle_cpu_share(args.idle_seconds))
    med = {k: statistics.median(v) for k, v in rates.items()}

    print(f"# envpool {envpool.__version__}, ale-py {version('ale-py')}, mujoco "
          f"{version('mujoco')}, gymnasium {gymnasium.__version__}, numpy {np.__version__}, "
          f"Python {platform.python_version()}")
    print(f"# {R.cpu_model() or platform.processor()}, {cores} cores; medians of "
          f"{args.reps} interleaved rounds of {args.seconds:g} s; raw rates are single-thread, "
          f"the limit is min(N, {cores}) x raw")
    print()
    print("| measured | steps/s (median) | against | its steps/s (median) | x | "
          "ratio (median of the rounds') | target | steps per CPU second, ratio |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")

    def round_ratio(table: dict[str, list[float]], what: str, ref: str, mult: float) -> float:
        # The median of the rounds' own ratios: the machine's speed drifts between
        # rounds (other tenants), and both sides of a round's ratio share its drift.
        return statistics.median(a / (b * mult) for a, b in zip(table[what], table[ref],
                                                                strict=True))

    for what, ref, mult, target in ratios(cores):
        ratio = round_ratio(rates, what, ref, mult)
        # Work per step, whatever the wall clock: our CPU time per env step against
        # the reference's (1 means no CPU spent beyond what the reference spends).
        cpu_ratio = round_ratio(cpu_rates, what, ref, 1.0)
        tgt = f">= {target:.2f} {'ok' if ratio >= target else 'MISSED'}" if target else ""
        print(f"| {what} | {med[what]:,.0f} | {ref} | {med[ref]:,.0f} | {mult:g} | "
              f"{ratio:.2f} | {tgt} | {cpu_ratio:.2f} |")
    share = statistics.median(idle)
    print(f"| idle pool, CPU share of one core over {args.idle_seconds:g} s | {share:.4f} | | | | "
          f"| < 0.01 {'ok' if share < 0.01 else 'MISSED'} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
