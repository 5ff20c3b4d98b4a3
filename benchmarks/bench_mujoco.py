"""Steps per second of MuJoCo tasks (Ant-v5, HalfCheetah-v5): envpool against gymnasium.

For each task and each ``num_envs`` in ``--num-envs`` (default 2, 8, 32), the
methods of ``bench_classic.py`` (envpool sync, envpool async with
``batch_size = num_envs // 2``, gymnasium single env, ``SyncVectorEnv``,
``AsyncVectorEnv``), timed the same way (see its docstring), plus the limit:

* ``raw mj_step``: one env's physics alone on one thread: ``mujoco.mj_step``
  with ``nstep = frame_skip * K`` in one call (no Python per step, no
  observation, no reward), reported as env-steps (``frame_skip`` mj_steps) per
  second.

Run: ``python benchmarks/bench_mujoco.py [--tasks Ant-v5 HalfCheetah-v5]
[--num-envs 2 8 32] [--seconds 2]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

import gymnasium
import mujoco

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners  # noqa: E402
import bench_classic  # noqa: E402


def raw_step_rate(task: str, seconds: float) -> float:
    """Env-steps per second of one env's bare mj_step loop (the single-thread limit)."""
    env = gymnasium.make(task).unwrapped
    env.reset(seed=0)
    model, data, frame_skip = env.model, env.data, env.frame_skip
    chunk = 200
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        mujoco.mj_resetData(model, data)  # keep the state sane over long runs
        mujoco.mj_step(model, data, nstep=frame_skip * chunk)
        steps += chunk
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", nargs="+", default=["Ant-v5", "HalfCheetah-v5"])
    args, rest = p.parse_known_args(argv)
    if not any(a.startswith("--num-envs") for a in rest):
        rest = ["--num-envs", "2", "8", "32", *rest]
    info = _runners.machine_info()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    for task in args.tasks:
        bargs = bench_classic.parse_args(["--task", task, *rest])
        log(f"{task}: raw mj_step ...")
        raw = raw_step_rate(task, bargs.seconds)
        results = bench_classic.run_all(bargs, log)
        print(bench_classic.format_header(info, bargs))
        print(f"- raw mj_step limit (one env, one thread, no Python per step): {raw:,.0f} "
              "env-steps/s")
        print()
        print(bench_classic.format_table(results))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
