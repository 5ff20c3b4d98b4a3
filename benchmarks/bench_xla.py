"""Steps per second of pool.xla() in a jitted lax.scan against the same pool's Python loop.

For each task of ``--tasks`` (default CartPole-v1, Pong-v5) and each ``num_envs`` of
``--num-envs`` (default 8, 32), one sync pool (``batch_size == num_envs``) per method:

* ``python loop``: ``env.step(actions)`` in a Python loop, actions pre-sampled in numpy;
* ``jitted scan``: ``jax.jit`` of a ``lax.scan`` of ``--scan`` steps (default 64) of ``step(handle,
  action)`` (docs/xla.md) over pre-sampled actions, called again and again.

Timed: env-steps per second, (num_envs) x (steps) / (wall seconds), over ``--seconds``
after ``--warmup`` seconds, and at least three jitted calls (the jit compile and the first
reset are not timed). The table
gives both rates and their ratio, with the versions and the machine's core count.

Run: ``python benchmarks/bench_xla.py [--tasks CartPole-v1 Pong-v5] [--num-envs 8 32]
[--seconds 3] [--json results.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402  (machine and version info, shared with bench.py)

import envpool  # noqa: E402


def _actions(env: Any, count: int, seed: int) -> np.ndarray:
    space, n = env.spec.action_space, env.num_envs
    rng = np.random.default_rng(seed)
    if hasattr(space, "n"):
        return rng.integers(0, space.n, (count, n)).astype(np.int32)
    return rng.uniform(space.low, space.high, (count, n, *space.shape)).astype(space.dtype)


def _timed(call: Any, steps_per_call: int, seconds: float, warmup: float) -> float:
    end = time.perf_counter() + warmup
    while time.perf_counter() < end:
        call()
    calls, start = 0, time.perf_counter()
    while True:
        call()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and calls >= 3:  # (at least three calls of a slow scan)
            return calls * steps_per_call / elapsed


def python_loop(task: str, n: int, seconds: float, warmup: float) -> float:
    env = envpool.make_gymnasium(task, num_envs=n, seed=0)
    env.reset()
    actions = _actions(env, 1024, 0)
    state = {"k": 0}

    def call() -> None:
        env.step(actions[state["k"] % len(actions)])
        state["k"] += 1

    try:
        return _timed(call, n, seconds, warmup)
    finally:
        env.close()


def jitted_scan(task: str, n: int, scan: int, seconds: float, warmup: float) -> float:
    import jax

    env = envpool.make_gymnasium(task, num_envs=n, seed=0)
    handle, recv, _, step = env.xla()
    env.async_reset()
    handle, _ = recv(handle)
    actions = jax.numpy.asarray(_actions(env, scan, 0))

    @jax.jit
    def rollout(handle: Any, actions: Any) -> Any:
        def body(h: Any, a: Any) -> tuple[Any, Any]:
            h, (_, reward, *_) = step(h, a)
            return h, reward

        return jax.lax.scan(body, handle, actions)

    state = {"handle": handle}

    def call() -> None:
        state["handle"], rewards = rollout(state["handle"], actions)
        rewards.block_until_ready()

    try:
        return _timed(call, n * scan, seconds, warmup)
    finally:
        env.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=["CartPole-v1", "Pong-v5"])
    parser.add_argument("--num-envs", nargs="+", type=int, default=[8, 32])
    parser.add_argument("--scan", type=int, default=64, help="steps per jitted call")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--json", help="write the results here too")
    args = parser.parse_args(argv)
    if min(args.num_envs) < 1 or args.scan < 1 or args.seconds <= 0:
        parser.error("--num-envs and --scan must be >= 1, --seconds > 0")
    rows = []
    for task in args.tasks:
        for n in args.num_envs:
            py = python_loop(task, n, args.seconds, args.warmup)
            xla = jitted_scan(task, n, args.scan, args.seconds, args.warmup)
            rows.append({"task": task, "num_envs": n, "python_loop": py, "jitted_scan": xla,
                         "ratio": xla / py})
    info = R.machine_info()
    versions = {d: R.dist_version(d) for d in ("envpool", "jax", "jaxlib", "numpy")}
    print(f"machine: {info.get('cpu_model')}, {os.cpu_count()} cores; "
          + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"| task | num_envs | python loop (steps/s) | jitted scan of {args.scan} "
          "(steps/s) | scan / loop |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['task']} | {r['num_envs']} | {r['python_loop']:,.0f} | "
              f"{r['jitted_scan']:,.0f} | {r['ratio']:.2f} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"machine": info, "versions": versions, "args": vars(args), "rows": rows},
                      f, indent=2)


if __name__ == "__main__":
    main()
