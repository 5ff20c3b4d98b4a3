"""Steps per second of a classic-control task: envpool against gymnasium.

Methods, for each ``num_envs`` in ``--num-envs`` (default 1, 8, 128):

* ``envpool sync``: ``envpool.make_gymnasium(task, num_envs=n)`` stepped with
  ``env.step(actions)`` (``batch_size == num_envs``).
* ``envpool async``: ``batch_size = num_envs // 2``; ``async_reset()`` then a
  ``recv()`` / ``send(actions, info["env_id"])`` loop. n/a at ``num_envs == 1``.
* ``gymnasium single env``: one ``gymnasium.make(task)`` env stepped in a plain
  Python loop, ``reset()`` when an episode ends. It does not depend on
  ``num_envs``: it is measured once and repeated in every group.
* ``envpool single env``: the same loop over ``gymnasium.make("envpool/" + task)``
  (one native env as a plain ``gymnasium.Env``, with the same gymnasium wrappers
  that ``gymnasium.make`` adds to any registered env). Measured once, too.
* ``gymnasium SyncVectorEnv`` and ``gymnasium AsyncVectorEnv`` of ``n``
  ``gymnasium.make(task)`` envs. AsyncVectorEnv starts one process per env, so
  it is skipped when ``n > max(8, 4 * os.cpu_count())`` unless ``--full``.

What is timed: env-steps per second, i.e. (envs stepped per call) x (calls) /
(wall seconds), over a fixed wall budget (``--seconds``, optionally capped by
``--steps`` env-steps) after a warm-up (``--warmup`` seconds). Actions are
sampled before timing and cycled through; env construction, thread and process
start-up and the first reset are not timed. Done envs restart through each
library's own autoreset (next-step mode for both envpool and gymnasium vector
envs), or through ``reset()`` for the single env.

Run: ``python benchmarks/bench_classic.py [--num-envs 1 8 128] [--seconds 1]
[--task CartPole-v1] [--full] [--json results.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402  (timing and runners, shared with bench.py)

METHODS: tuple[str, ...] = (
    "envpool-sync",
    "envpool-async",
    "envpool-single",
    "gym-single",
    "gym-sync-vector",
    "gym-async-vector",
)
BASELINE = "gym-sync-vector"
SINGLE_METHODS = frozenset({"envpool-single", "gym-single"})  # one env, whatever num_envs
LABELS: dict[str, str] = {
    "envpool-sync": "envpool sync",
    "envpool-async": "envpool async",
    "envpool-single": "envpool single env (gymnasium.make, plain loop)",
    "gym-single": "gymnasium single env (plain loop)",
    "gym-sync-vector": "gymnasium SyncVectorEnv",
    "gym-async-vector": "gymnasium AsyncVectorEnv",
}


@dataclass
class Result:
    """One row of the table."""

    num_envs: int
    method: str
    label: str
    status: str  # "ok", "n/a", "skipped" or "error"
    steps_per_s: float | None = None
    env_steps: int = 0
    calls: int = 0
    seconds: float = 0.0
    batch_size: int | None = None
    note: str = ""
    ratio_vs_sync_vector: float | None = field(default=None)


# -- the benchmark -----------------------------------------------------------
def async_vector_limit(cpus: int | None) -> int:
    """The most envs AsyncVectorEnv (one process each) is run with without --full."""
    return max(8, 4 * (cpus or 1))


def bench_one(method: str, n: int, args: argparse.Namespace) -> Result:
    """Builds, warms up and times one method at ``n`` envs (or says why not)."""
    res = Result(num_envs=n, method=method, label=LABELS[method], status="ok")
    if method == "envpool-async":
        if n < 2:
            res.status, res.note = "n/a", "needs num_envs >= 2"
            return res
        res.batch_size = n // 2
        res.label = f"envpool async (batch {n // 2})"
    if method == "envpool-sync":
        res.batch_size = n
    if method == "gym-async-vector" and not args.full and n > async_vector_limit(os.cpu_count()):
        res.status = "skipped"
        res.note = f"{n} processes on {os.cpu_count()} cores; run with --full to include"
        return res
    try:
        actor = R.random_actor(args.seed)
        if method in ("envpool-sync", "envpool-async"):
            batch = n if method == "envpool-sync" else n // 2
            run, close = R.envpool_runner(args.task, n, batch, args.seed, actor,
                                          args.num_threads)
        elif method == "gym-single":
            run, close = R.single_env_runner(gymnasium.make(args.task), args.seed)
        elif method == "envpool-single":
            run, close = R.single_env_runner(gymnasium.make(f"envpool/{args.task}"), args.seed)
        else:
            task = args.task
            run, close = R.gym_vector_runner(lambda: gymnasium.make(task), n, args.seed,
                                             method == "gym-async-vector", actor)
    except Exception as exc:  # an id one library lacks: report it, go on
        res.status, res.note = "error", f"{type(exc).__name__}: {exc}"
        return res
    try:
        res.env_steps, res.calls, res.seconds = R.measure(run, args.seconds, args.warmup,
                                                          args.steps)
    finally:
        close()
    res.steps_per_s = res.env_steps / res.seconds
    return res


def run_all(args: argparse.Namespace, log: Callable[[str], None]) -> list[Result]:
    """Every requested method at every requested num_envs, in table order."""
    results: list[Result] = []
    single: dict[str, Result] = {}  # the one measurement of each single-env method
    for n in args.num_envs:
        group: list[Result] = []
        for method in args.methods:
            if method in single:
                res = Result(**{**asdict(single[method]), "num_envs": n})
                res.note = f"same measurement as num_envs={single[method].num_envs}"
            else:
                log(f"  measuring {LABELS[method]} at num_envs={n} ...")
                res = bench_one(method, n, args)
                if method in SINGLE_METHODS:
                    res.note = "1 env, independent of num_envs"
                    single[method] = res
            group.append(res)
        base = next((r for r in group if r.method == BASELINE and r.status == "ok"), None)
        for r in group:
            if base is not None and r.steps_per_s is not None and base.steps_per_s:
                r.ratio_vs_sync_vector = r.steps_per_s / base.steps_per_s
        results.extend(group)
    return results


def format_header(info: dict[str, Any], args: argparse.Namespace) -> str:
    """The lines printed above the table."""
    lines = [
        f"# envpool vs gymnasium: {args.task}",
        "",
        f"- envpool {info['envpool']}, gymnasium {info['gymnasium']}, "
        f"numpy {info['numpy']}, python {info['python']} (checkout {info['git']})",
        f"- platform: {info['platform']}",
        f"- os.cpu_count(): {info['cpu_count']}; CPU: {info['cpu_model'] or 'unknown'}",
        f"- load average at start (1/5/15 min): {info['loadavg_start']}",
        f"- budget per measurement: {args.seconds} s after {args.warmup} s warm-up"
        + (f", at most {args.steps} env-steps" if args.steps else "")
        + f"; envpool num_threads={args.num_threads or 'the default (docs/api.md)'}",
    ]
    return "\n".join(lines)


def format_table(results: Sequence[Result], limit: float | None = None,
                 footnote: str | None = None) -> str:
    """The markdown table of a benchmark (this one's, bench_mujoco's, bench_dm_control's and
    bench_vizdoom's): num_envs, method, steps/s, and the ratio vs gymnasium's SyncVectorEnv,
    or with ``limit`` (the raw loop's steps/s on every core) the share of that limit.
    ``footnote`` ends the table; by default a row of SINGLE_METHODS (starred) explains the
    star."""
    last = "vs gymnasium SyncVectorEnv" if limit is None else "share of the limit"
    rows = [f"| num_envs | method | steps/s | {last} |", "|---:|---|---:|---:|"]
    for r in results:
        ok = r.status == "ok" and r.steps_per_s is not None
        if ok:
            sps = f"{r.steps_per_s:,.0f}"
        elif r.status == "error":
            sps = f"error ({r.note})"
        else:
            sps = f"{r.status} ({r.note})" if r.note else r.status
        if limit is not None:
            tail = f"{r.steps_per_s / limit:.0%}" if ok else "-"
        else:
            tail = f"{r.ratio_vs_sync_vector:.2f}x" if r.ratio_vs_sync_vector is not None else "-"
        label = r.label + (" *" if r.method in SINGLE_METHODS else "")
        rows.append(f"| {r.num_envs} | {label} | {sps} | {tail} |")
    if footnote is None and any(r.method in SINGLE_METHODS for r in results):
        footnote = "\\* one env in a plain loop, measured once and repeated in each group."
    if footnote:
        rows += ["", footnote]
    return "\n".join(rows)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--task",
        default="CartPole-v1",
        help="a classic-control id known to both envpool and gymnasium",
    )
    p.add_argument("--num-envs", type=int, nargs="+", default=[1, 8, 128], metavar="N")
    p.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        help="wall budget of each timed measurement (default 1: a table in about 15 s on 2 "
        "cores; the rates move by a few percent with longer budgets)",
    )
    p.add_argument(
        "--steps",
        type=int,
        default=0,
        help="also stop a measurement after this many env-steps (0: no cap)",
    )
    p.add_argument(
        "--warmup",
        type=float,
        default=0.3,
        help="untimed warm-up before each measurement, seconds (default 0.3)",
    )
    p.add_argument(
        "--num-threads", type=int, default=0, help="envpool worker threads (0: envpool's default)"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS))
    p.add_argument(
        "--full",
        action="store_true",
        help="also run AsyncVectorEnv at large num_envs (one process per env)",
    )
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = p.parse_args(argv)
    if any(n < 1 for n in args.num_envs):
        p.error("--num-envs must be >= 1")
    if args.seconds <= 0 or args.warmup < 0 or args.steps < 0:
        p.error("--seconds must be > 0, --warmup and --steps >= 0")
    args.methods = [m for m in METHODS if m in args.methods]  # table order
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the benchmark, prints the header and table, optionally writes JSON."""
    args = parse_args(argv)
    info = R.machine_info()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    results = run_all(args, log)
    total = time.perf_counter() - t0
    try:
        info["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        info["loadavg_end"] = None
    print(format_header(info, args))
    print(f"- load average at end: {info['loadavg_end']}; whole run {total:.1f} s")
    print()
    print(format_table(results))
    if args.json:
        payload = {
            "machine": info,
            "settings": {k: v for k, v in vars(args).items() if k != "json"},
            "total_seconds": total,
            "results": [asdict(r) for r in results],
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(payload, f, indent=2)
            f.write("\n")
        log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
