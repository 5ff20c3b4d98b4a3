"""Steps per second of DeepMind Control Suite tasks: envpool against dm_control.

For each task (default CheetahRun-v1, WalkerWalk-v1, HumanoidRun-v1) and each ``num_envs``
in ``--num-envs`` (default 1, 8, 32):

* ``envpool sync`` / ``envpool async`` (batch ``num_envs // 2``): as in ``bench_classic.py``.
* ``dm_control plain loop``: one ``dm_control.suite.load(domain, task)`` env, ``step`` with
  pre-sampled actions, ``reset()`` after a LAST step. One env: measured once per task.
* ``gymnasium SyncVectorEnv`` / ``AsyncVectorEnv`` of ``n`` dm_control envs wrapped for
  gymnasium by Shimmy's ``DmControlCompatibilityV0`` (``gymnasium.make("dm_control/
  <domain>-<task>-v0")``), the usual way to vectorize dm_control. AsyncVectorEnv (one
  process per env) is skipped above ``max(8, 4 * cores)`` envs unless ``--full``.
* The limit: ``raw mj_step``, one env's physics alone on one thread (random controls and
  ``mujoco.mj_step(nstep=n_sub_steps)`` on dm_control's compiled model, no observation or
  reward; see ``raw_step_rate``), as control steps per second; times the core count it is
  what the machine can do at most. The table gives each method's share of that limit.

Timing as in ``bench_classic.py``: a wall budget (``--seconds``) after a warm-up, actions
pre-sampled, construction and the first reset not timed.

Run: ``python benchmarks/bench_dm_control.py [--tasks CheetahRun-v1 ...] [--num-envs 1 8 32]
[--seconds 2] [--full]``. Needs ``dm-control`` and ``shimmy[dm-control]``.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import sys
from collections.abc import Callable, Sequence

import gymnasium
import mujoco
import numpy as np
import shimmy
from dm_control import suite

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402  (timing and runners, shared with bench.py)
import bench_classic  # noqa: E402
from _runners import Runner, measure  # noqa: E402
from bench_classic import Result  # noqa: E402

from envpool.tasks.dm_control import TASKS  # noqa: E402

gymnasium.register_envs(shimmy)

METHODS = ("envpool-sync", "envpool-async", "dm-single", "gym-sync-vector", "gym-async-vector")
LABELS = {
    "envpool-sync": "envpool sync",
    "envpool-async": "envpool async",
    "dm-single": "dm_control plain loop (1 env) *",
    "gym-sync-vector": "gymnasium SyncVectorEnv (Shimmy)",
    "gym-async-vector": "gymnasium AsyncVectorEnv (Shimmy)",
}


def raw_step_rate(task_id: str, seconds: float) -> float:
    """Control steps per second of one env's bare physics on one thread
    (``_runners.raw_dm_control_runner``; the same definition as the steering side's
    ``raw_mujoco`` in shared/anchor-bench)."""
    return R.rate(R.raw_dm_control_runner(task_id), seconds, 0.2)


def _presample(low: np.ndarray, high: np.ndarray, shape: tuple[int, ...],
               seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(low, high, shape) for _ in range(R.NUM_ACTION_BATCHES)]


def dm_single_runner(task_id: str, seed: int) -> tuple[Runner, Callable]:
    domain, task_name = TASKS[task_id]
    env = suite.load(domain, task_name, task_kwargs={"random": seed})
    spec = env.action_spec()
    actions = itertools.cycle(_presample(spec.minimum, spec.maximum, spec.shape, seed))
    env.reset()

    def run(k: int) -> int:
        for _ in range(k):
            if env.step(next(actions)).last():
                env.reset()
        return k

    return run, env.close


def bench_one(task_id: str, method: str, n: int, args: argparse.Namespace) -> Result:
    res = Result(num_envs=n, method=method, label=LABELS[method], status="ok")
    if method == "envpool-async":
        if n < 2:
            res.status, res.note = "n/a", "needs num_envs >= 2"
            return res
        res.label = f"envpool async (batch {n // 2})"
    limit = bench_classic.async_vector_limit(os.cpu_count())
    if method == "gym-async-vector" and not args.full and n > limit:
        res.status = "skipped"
        res.note = f"{n} processes on {os.cpu_count()} cores; --full includes it"
        return res
    actor = R.random_actor(args.seed)
    if method in ("envpool-sync", "envpool-async"):
        run, close = R.envpool_runner(task_id, n, n if method == "envpool-sync" else n // 2,
                                      args.seed, actor)
    elif method == "dm-single":
        run, close = dm_single_runner(task_id, args.seed)
    else:
        gym_id = R.shimmy_env_id(task_id)
        run, close = R.gym_vector_runner(functools.partial(R.shimmy_env, gym_id), n,
                                         args.seed, method == "gym-async-vector", actor)
    try:
        res.env_steps, res.calls, res.seconds = measure(run, args.seconds, args.warmup, 0)
    finally:
        close()
    res.steps_per_s = res.env_steps / res.seconds
    return res


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", nargs="+", default=["CheetahRun-v1", "WalkerWalk-v1",
                                                  "HumanoidRun-v1"])
    p.add_argument("--num-envs", type=int, nargs="+", default=[1, 8, 32])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--warmup", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS))
    p.add_argument("--full", action="store_true")
    args = p.parse_args(argv)
    info = R.machine_info()
    cores = os.cpu_count() or 1

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    print(f"# envpool vs dm_control: {', '.join(args.tasks)}\n")
    print(f"- envpool {info['envpool']}, dm_control {_version('dm-control')}, mujoco "
          f"{mujoco.__version__}, gymnasium {info['gymnasium']}, shimmy {_version('shimmy')}, "
          f"python {info['python']} (checkout {info['git']})")
    print(f"- os.cpu_count(): {cores}; CPU: {info['cpu_model'] or 'unknown'}; load average "
          f"at start: {info['loadavg_start']}")
    print(f"- budget per measurement: {args.seconds} s after {args.warmup} s warm-up; "
          f"envpool num_threads: the default\n")
    for task_id in args.tasks:
        log(f"{task_id}: raw mj_step ...")
        raw = raw_step_rate(task_id, args.seconds)
        limit = raw * cores
        results: list[Result] = []
        single: Result | None = None
        for n in args.num_envs:
            for method in args.methods:
                if method == "dm-single" and single is not None:
                    results.append(Result(**{**single.__dict__, "num_envs": n}))
                    continue
                log(f"  {LABELS[method]} at num_envs={n} ...")
                res = bench_one(task_id, method, n, args)
                if method == "dm-single":
                    single = res
                results.append(res)
        print(f"## {task_id}\n")
        print(f"- raw mj_step (one env, one thread): {raw:,.0f} steps/s; the limit on "
              f"{cores} cores: {limit:,.0f} steps/s\n")
        print(bench_classic.format_table(
            results, limit, "\\* one env, measured once per task and repeated in each group."))
        print()
    return 0


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


if __name__ == "__main__":
    raise SystemExit(main())
