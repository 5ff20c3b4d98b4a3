"""Steps per second of ViZDoom scenarios: envpool against vizdoom's own gymnasium envs.

For each task (default Basic-v1 and DefendTheCenter-v1) and each ``num_envs`` in
``--num-envs`` (default 1, 4, 8), all at frame_skip 4:

* ``envpool sync`` / ``envpool async`` (batch ``num_envs // 2``): EnvPool's defaults
  (84x84 INTER_AREA resize of the 320x240 screen, 4 frames stacked), random button
  vectors.
* ``gymnasium SyncVectorEnv`` / ``AsyncVectorEnv`` of ``n`` of vizdoom's own gymnasium
  envs (``Vizdoom<Scenario>-MultiBinary-v1``, ``frame_skip=4``; raw 320x240 RGB screens,
  no resize), the usual way to vectorize ViZDoom.
* The limit: ``raw DoomGame``, one engine driven by vizdoom's Python ``DoomGame`` with
  ``make_action(action, 4)`` and nothing else (no resize, no stack), as steps per second;
  times the core count it is what the machine can do at most. Each engine is a process of
  its own, so this limit holds for every method; the table gives each one's share.

Timing as in ``bench_classic.py``: a wall budget (``--seconds``) after a warm-up,
actions pre-sampled, construction and the first reset not timed.

Run: ``python benchmarks/bench_vizdoom.py [--tasks Basic-v1 ...] [--num-envs 1 4 8]
[--seconds 3]``. Needs ``vizdoom==1.3.2`` (the ``vizdoom`` extra).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence
from importlib.metadata import version

from vizdoom import gymnasium_wrapper  # noqa: F401  (registers the Vizdoom* ids)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402  (timing and runners, shared with bench.py)
from _runners import measure  # noqa: E402
from bench_classic import Result, format_table  # noqa: E402

FRAME_SKIP = R.VIZDOOM_FRAME_SKIP
GYM_IDS = R.VIZDOOM_GYM_IDS
METHODS = ("envpool-sync", "envpool-async", "gym-sync-vector", "gym-async-vector")
LABELS = {
    "envpool-sync": "envpool sync",
    "envpool-async": "envpool async",
    "gym-sync-vector": "gymnasium SyncVectorEnv (vizdoom's envs)",
    "gym-async-vector": "gymnasium AsyncVectorEnv (vizdoom's envs)",
}


def raw_step_rate(task_id: str, seconds: float) -> float:
    """Steps per second of one engine through vizdoom's DoomGame
    (``_runners.raw_vizdoom_runner``: make_action(a, 4), new_episode() when one ends)."""
    return R.rate(R.raw_vizdoom_runner(task_id), seconds, 0.0)


def bench_one(task_id: str, method: str, n: int, args: argparse.Namespace) -> Result:
    res = Result(num_envs=n, method=method, label=LABELS[method], status="ok")
    if method == "envpool-async":
        if n < 2:
            res.status, res.note = "n/a", "needs num_envs >= 2"
            return res
        res.label = f"envpool async (batch {n // 2})"
    actor = R.random_actor(args.seed, binary=True)
    if method.startswith("envpool"):
        run, close = R.envpool_runner(task_id, n, n if method == "envpool-sync" else n // 2,
                                      args.seed, actor, frame_skip=FRAME_SKIP)
    else:
        make_env = functools.partial(R.vizdoom_gym_env, GYM_IDS[task_id])
        run, close = R.gym_vector_runner(make_env, n, args.seed, method == "gym-async-vector",
                                         actor)
    try:
        res.env_steps, res.calls, res.seconds = measure(run, args.seconds, args.warmup, 0)
    finally:
        close()
    res.steps_per_s = res.env_steps / res.seconds
    return res


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", nargs="+", default=["Basic-v1", "DefendTheCenter-v1"],
                   choices=sorted(GYM_IDS))
    p.add_argument("--num-envs", type=int, nargs="+", default=[1, 4, 8])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--warmup", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS))
    args = p.parse_args(argv)
    info = R.machine_info()
    cores = os.cpu_count() or 1

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    print(f"# envpool vs vizdoom: {', '.join(args.tasks)} (frame_skip {FRAME_SKIP})\n")
    print(f"- envpool {info['envpool']}, vizdoom {version('vizdoom')}, gymnasium "
          f"{info['gymnasium']}, python {info['python']} (checkout {info['git']})")
    print(f"- os.cpu_count(): {cores}; CPU: {info['cpu_model'] or 'unknown'}; load average "
          f"at start: {info['loadavg_start']}")
    print(f"- budget per measurement: {args.seconds} s after {args.warmup} s warm-up; "
          f"envpool num_threads: the default\n")
    for task_id in args.tasks:
        log(f"{task_id}: raw DoomGame ...")
        raw = raw_step_rate(task_id, args.seconds)
        limit = raw * cores
        results = []
        for n in args.num_envs:
            for method in args.methods:
                log(f"  {LABELS[method]} at num_envs={n} ...")
                results.append(bench_one(task_id, method, n, args))
        print(f"## {task_id}\n")
        print(f"- raw DoomGame (one engine, make_action with frame_skip {FRAME_SKIP}): "
              f"{raw:,.0f} steps/s; the limit on {cores} cores: {limit:,.0f} steps/s\n")
        print(format_table(results, limit))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
