"""Every family against the machine's limit, and where each one's time goes.

For each row (a family's task, ``num_envs`` n, async batch n // 2):

* **the limit**: the raw reference work of one env step run in as many processes as the
  machine has cores, all at once, their rates summed (not one process times the cores:
  two copies on two cores share caches and the memory bus). The raw work is the engine
  alone plus the least observation work the env's output needs: the ALE's 4 frames and two
  grayscale grabs (Atari); ``mj_step`` with the env's substeps and random controls (MuJoCo,
  Gymnasium-Robotics); one dm_control physics; one vizdoom ``DoomGame`` (ViZDoom). For the
  families whose engine is this package's own C++ (classic control, Box2D, MiniGrid,
  Meta-World, MyoSuite, gfootball: its engine is compiled in) the raw work is the env's own
  work, read from the pool's stage clock: the seconds its threads spent in ``step``,
  ``reset``, ``preprocess``, ``draw``, ``write`` and ``hand_off`` per env step (CPU time on
  an idle machine, as these envs compute rather than wait), and the limit is the cores
  divided by it;
* **envpool sync and async**: the pool's rate (stage timing off) as a share of the limit,
  and its steps per CPU second against the raw work's (the share that the VM's drift does
  not move: the pool counts every thread's CPU time, the limit every process's);
* **where the time goes**: one more run of each pool with ``ENVPOOL_STAGE_TIMES=1``, its
  microseconds per env step in each stage, for the calling thread and the workers.

``--reps`` rounds interleave every measurement (the order rotates); rates are medians over
the rounds, shares the medians of each round's own share.

Run: ``python benchmarks/bench_family_limits.py [--family atari mujoco ...] [--reps 3]
[--seconds 2] [--md out.md]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402

import envpool  # noqa: E402
from envpool.core import stage_times  # noqa: E402


def _robotics_raw(task: str) -> R.Made:
    """gymnasium_robotics' model alone: ``mj_step`` with its ``n_substeps``, random controls,
    the reset state restored at the env's time limit."""
    import gymnasium
    import gymnasium_robotics

    from envpool.integrations._reference_envs import gymnasium_robotics_on_mujoco3

    gymnasium_robotics_on_mujoco3()
    gymnasium.register_envs(gymnasium_robotics)
    made = gymnasium.make(task)
    env = made.unwrapped
    env.reset(seed=0)
    # back to the reset state at the env's time limit, as its episodes are (a Hand's block
    # left to fall off the palm for 256 steps costs fewer contacts than the env's episodes)
    return R.mj_step_loop(env.model, env.data, env.n_substeps,
                          made.spec.max_episode_steps or 256), env.close


@dataclass(frozen=True)
class Row:
    family: str
    task: str
    n: int
    raw: Callable[[], R.Made] | None  # None: the env's own work (stage clock)
    raw_label: str
    kwargs: tuple[tuple[str, Any], ...] = ()


OWN = "the env's own work per step (stage clock), the cores divided by it"
ROWS: dict[str, list[Row]] = {
    "classic": [Row("classic", "CartPole-v1", 8, None, OWN)],
    "atari": [Row("atari", "Pong-v5", 16, lambda: R.ale_raw_runner("Pong"),
                  "ale_py.ALEInterface: 4 frames, 2 grayscale grabs"),
              Row("atari", "Breakout-v5", 16, lambda: R.ale_raw_runner("Breakout"),
                  "ale_py.ALEInterface: 4 frames, 2 grayscale grabs")],
    "mujoco": [Row("mujoco", "Ant-v5", 32, lambda: R.raw_mujoco_runner("Ant-v5"),
                   "mujoco.mj_step(nstep=frame_skip)")],
    "dm_control": [Row("dm_control", "HumanoidWalk-v1", 16,
                       lambda: R.raw_dm_control_runner("HumanoidWalk-v1"),
                       "one dm_control physics: mj_step(nstep=n_sub_steps)")],
    "robotics": [Row("robotics", "FetchPush-v4", 16, lambda: _robotics_raw("FetchPush-v4"),
                     "mujoco.mj_step(nstep=n_substeps)"),
                 Row("robotics", "HandManipulateBlock-v1", 16,
                     lambda: _robotics_raw("HandManipulateBlock-v1"),
                     "mujoco.mj_step(nstep=n_substeps)")],
    "vizdoom": [Row("vizdoom", "Basic-v1", 8, lambda: R.raw_vizdoom_runner("Basic-v1"),
                    f"vizdoom DoomGame.make_action(a, {R.VIZDOOM_FRAME_SKIP})",
                    (("frame_skip", R.VIZDOOM_FRAME_SKIP),))],
    "box2d": [Row("box2d", "LunarLander-v3", 8, None, OWN),
              Row("box2d", "CarRacing-v3", 8, None, OWN)],
    "minigrid": [Row("minigrid", "MiniGrid-DoorKey-8x8-v0", 8, None, OWN)],
    "metaworld": [Row("metaworld", "MetaWorld/Reach-v3", 8, None, OWN)],
    "myosuite": [Row("myosuite", "myoHandPoseRandom-v0", 8, None, OWN)],
    "gfootball": [Row("gfootball", "gfootball/academy_empty_goal_close-v1", 8, None, OWN)],
}


# -- the limit: the raw work in one process per core, at once ------------------
def _raw_child(row: Row, seconds: float, barrier: Any, out: Any) -> None:
    assert row.raw is not None
    run, close = row.raw()
    R.measure(run, 0.5, 0.05, 0)
    barrier.wait()
    c0 = time.process_time()
    steps, _, elapsed = R.measure(run, seconds, 0.0, 0)
    out.put((steps, elapsed, time.process_time() - c0))
    close()


def raw_limit(row: Row, cores: int, seconds: float) -> tuple[float, float]:
    """(summed steps/s of `cores` processes at once, their steps per CPU second)."""
    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(cores), ctx.Queue()
    procs = [ctx.Process(target=_raw_child, args=(row, seconds, barrier, out))
             for _ in range(cores)]
    for p in procs:
        p.start()
    results = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    rate = sum(s / e for s, e, _ in results)
    cpu = sum(s for s, _, _ in results) / sum(c for _, _, c in results)
    return rate, cpu


# -- the pools ----------------------------------------------------------------------
def pool_rate(row: Row, batch: int, seconds: float, timed: bool
              ) -> tuple[float, float, stage_times.StageTimes | None]:
    """(steps/s, steps per CPU second, the stage report when `timed`)."""
    old = os.environ.get(stage_times.ENV_VAR)
    os.environ[stage_times.ENV_VAR] = "1" if timed else "0"
    try:
        run, close = R.envpool_runner(row.task, row.n, batch, 0, R.random_actor(0),
                                      **dict(row.kwargs))
    finally:
        if old is None:
            del os.environ[stage_times.ENV_VAR]
        else:
            os.environ[stage_times.ENV_VAR] = old
    env = close.__self__  # type: ignore[attr-defined]  (envpool_runner returns env.close)
    try:
        R.measure(run, 0.5, 0.05, 0)
        before = env.stage_times() if timed else None
        c0 = time.process_time()
        steps, _, elapsed = R.measure(run, seconds, 0.0, 0)
        cpu = time.process_time() - c0
        report = env.stage_times() - before if before is not None else None
    finally:
        close()
    return steps / elapsed, steps / cpu, report


def own_work_per_step(report: stage_times.StageTimes) -> float:
    """CPU seconds of env work per env step (every thread's)."""
    return stage_times.env_work_per_step(report) * 1e-6


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--family", nargs="+", default=list(ROWS), choices=list(ROWS))
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--md", help="also write the tables to this file")
    args = p.parse_args(argv)
    cores = os.cpu_count() or 1
    rows = [r for f in args.family for r in ROWS[f]]
    modes = ("sync", "async")
    rates: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    reports: dict[tuple[str, str], stage_times.StageTimes] = {}
    for rep in range(args.reps):
        order = rows[rep % len(rows):] + rows[: rep % len(rows)]
        for row in order:
            if row.raw is not None:
                r, c = raw_limit(row, cores, args.seconds)
                rates.setdefault((row.task, "limit"), []).append(r)
                cpus.setdefault((row.task, "limit"), []).append(c)
            for mode in modes:
                batch = row.n if mode == "sync" else row.n // 2
                r, c, _ = pool_rate(row, batch, args.seconds, timed=False)
                rates.setdefault((row.task, mode), []).append(r)
                cpus.setdefault((row.task, mode), []).append(c)
                print(f"  round {rep + 1}: {row.task} {mode}: {r:,.0f} steps/s",
                      file=sys.stderr)
    for row in rows:  # the stage reports, timing on, once per pool
        for mode in modes:
            batch = row.n if mode == "sync" else row.n // 2
            _, _, reports[(row.task, mode)] = pool_rate(row, batch, args.seconds, timed=True)

    lines = [f"# envpool {envpool.__version__}, numpy {np.__version__}, Python "
             f"{platform.python_version()}; ale-py {version('ale-py')}, mujoco "
             f"{version('mujoco')}",
             f"# {R.cpu_model() or platform.processor()}, {cores} cores; medians of "
             f"{args.reps} interleaved rounds of {args.seconds:g} s; async batch n // 2", "",
             "| family | task | n | limit: raw work | limit steps/s | sync steps/s | sync share "
             "| async steps/s | async share | steps per CPU s, sync / async vs raw "
             "| share of the env's own work, sync / async |",
             "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        t = row.task
        med = {m: statistics.median(rates[(t, m)]) for m in modes}
        cmed = {m: statistics.median(cpus[(t, m)]) for m in modes}
        if row.raw is not None:
            limit = statistics.median(rates[(t, "limit")])
            share = {m: statistics.median(a / b for a, b in zip(rates[(t, m)],
                                                                  rates[(t, "limit")],
                                                                  strict=True)) for m in modes}
            raw_cpu = statistics.median(cpus[(t, "limit")])
        else:
            # the own work per step from the timed sync run; the limit is cores / it
            work = own_work_per_step(reports[(t, "sync")])
            limit = cores / work
            share = {m: med[m] / limit for m in modes}
            raw_cpu = 1 / work
        cpu_ratio = " / ".join(f"{cmed[m] / raw_cpu:.2f}" for m in modes)
        # every row: the pool's rate against the cores divided by its envs' own work per
        # step (each mode's own timed run): what is left is the pool's overhead and idle time
        own = " / ".join(f"{med[m] * own_work_per_step(reports[(t, m)]) / cores:.2f}"
                         for m in modes)
        lines.append(f"| {row.family} | {t} | {row.n} | {row.raw_label} | {limit:,.0f} | "
                     f"{med['sync']:,.0f} | {share['sync']:.2f} | {med['async']:,.0f} | "
                     f"{share['async']:.2f} | {cpu_ratio} | {own} |")
    lines += ["", "## Where the time goes (ENVPOOL_STAGE_TIMES=1, microseconds per env step; "
              "caller: the Python thread, workers: the pool's threads together)", ""]
    for row in rows:
        for mode in modes:
            rep_ = reports[(row.task, mode)]
            batch = row.n if mode == "sync" else row.n // 2
            lines += [f"### {row.task}, {mode} (n={row.n}, batch {batch})", "",
                      rep_.table(), ""]
    text = "\n".join(lines)
    print(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
