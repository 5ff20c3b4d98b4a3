"""What one send/recv round costs, layer by layer, and what it leaves async mode.

For an env whose step is tiny (CartPole's is about 0.2 us), a pool's rate is set
by the cost of each call, not by the env: sync mode pays one round (send, then
recv) per ``n`` env steps, async mode with batches of ``b`` one round per ``b``.
This measures that round at two layers, sync ``n`` and async ``n/b`` side by side,
interleaved, medians of ``--reps`` rounds:

* ``binding``: the native pool's own ``send`` and ``recv`` called from Python
  (``env._pool``): action and id checks, queueing, the wait, the batch's numpy
  views; no flavour;
* ``gymnasium``: the gymnasium flavour's ``step`` (sync) and ``recv`` + ``send``
  (async), what a user calls.

Per layer it prints the microseconds per round, the steps per second and the
async/sync ratio of steps per second. The binding's ratio bounds the flavour's:
the flavour adds the same Python per round in both modes, so it can only move
the ratio towards one round per ``b`` steps against one per ``n``.

Run: ``python benchmarks/bench_call_cost.py [--task CartPole-v1] [--num-envs 8]
[--batch-size 4] [--reps 5] [--seconds 1] [--md FILE]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402  (cpu model, git revision)

import envpool  # noqa: E402

Round = Callable[[], None]


def _rounds(task: str, n: int, batch: int, layer: str) -> tuple[Round, Callable[[], None]]:
    """One round of the given layer, and the pool's close."""
    env = envpool.make_gymnasium(task, num_envs=n, batch_size=batch, seed=0)
    actions = np.zeros((batch, *env.single_action_space.shape),
                       dtype=env.single_action_space.dtype)
    if batch == n:
        if layer == "gymnasium":
            env.reset()
            return (lambda: env.step(actions)), env.close
        native = env._pool  # noqa: SLF001  (the binding is what is measured)
        ids = np.arange(n, dtype=np.int64)
        env.async_reset()

        def sync_round() -> None:
            native.recv(-1.0)
            native.send(actions, ids)
        return sync_round, env.close
    env.async_reset()
    if layer == "gymnasium":
        def async_round() -> None:
            info = env.recv()[4]
            env.send(actions, info["env_id"])
        return async_round, env.close
    native = env._pool  # noqa: SLF001

    def native_async_round() -> None:
        env_id = native.recv(-1.0)[2]
        native.send(actions, env_id)
    return native_async_round, env.close


def _time(run: Round, seconds: float) -> float:
    """Seconds per round, over about ``seconds``."""
    for _ in range(1000):  # warm-up
        run()
    count, start = 0, time.perf_counter()
    while True:
        for _ in range(1000):
            run()
        count += 1000
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / count


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--task", default="CartPole-v1")
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--md", default="", help="also write the table to this file")
    args = p.parse_args(argv)
    n, b = args.num_envs, args.batch_size
    if not 0 < b < n:
        p.error("need 0 < --batch-size < --num-envs")
    cases = [(layer, size) for layer in ("binding", "gymnasium") for size in (n, b)]
    per_round: dict[tuple[str, int], list[float]] = {c: [] for c in cases}
    for rep in range(args.reps):
        order = cases[rep % len(cases):] + cases[: rep % len(cases)]
        for layer, size in order:
            run, close = _rounds(args.task, n, size, layer)
            try:
                per_round[(layer, size)].append(_time(run, args.seconds))
            finally:
                close()
    lines = [
        f"# envpool {envpool.__version__} ({R.git_revision() or 'no git'}), numpy "
        f"{np.__version__}, Python {platform.python_version()}",
        f"# {R.cpu_model() or platform.processor()}, {os.cpu_count()} cores; {args.task}, "
        f"sync {n} envs against async {n} envs in batches of {b}; medians of {args.reps} "
        f"interleaved rounds of {args.seconds:g} s; load average before: "
        f"{R.load_average()}",
        "",
        f"| layer | sync {n}: us per round | steps/s | async {n}/{b}: us per round | steps/s "
        "| async / sync |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for layer in ("binding", "gymnasium"):
        sync_s = statistics.median(per_round[(layer, n)])
        async_s = statistics.median(per_round[(layer, b)])
        # the median of the rounds' own ratios: both sides of a round share its drift
        ratio = statistics.median((b / a) / (n / s) for s, a in
                                  zip(per_round[(layer, n)], per_round[(layer, b)], strict=True))
        lines.append(f"| {layer} | {sync_s * 1e6:.2f} | {n / sync_s:,.0f} | "
                     f"{async_s * 1e6:.2f} | {b / async_s:,.0f} | {ratio:.2f} |")
    text = "\n".join(lines)
    print(text)
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
