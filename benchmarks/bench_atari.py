"""Steps per second of Atari tasks (Pong-v5, Breakout-v5): envpool against gymnasium and ale-py.

For each task and each ``num_envs`` in ``--num-envs`` (default 2, 8, 16), with
the same preprocessing everywhere (frame skip 4 with a max-pool of the last two
frames, 84x84 grayscale, a stack of 4, up to 30 no-ops at reset, sticky actions
off), timed as ``bench_classic.py`` times (see its docstring):

* ``envpool sync``: ``envpool.make_gymnasium(task, num_envs=n)``;
* ``envpool async``: ``batch_size = n // 2`` with ``send``/``recv``;
* ``ale-py AtariVectorEnv``: ``ale_py.vector_env.AtariVectorEnv(game, n)``,
  ale-py's own C++ thread pool (sync, batch = n);
* ``gymnasium AsyncVectorEnv``: ``n`` processes of
  ``AtariPreprocessing(gymnasium.make("ALE/<Game>-v5", frameskip=1)) +
  FrameStackObservation(4)``;

and one env in a plain single-env loop (``reset()`` when an episode ends):
``gymnasium.make("envpool/<Game>-v5")`` against ale-py's ``gymnasium.make(
"ALE/<Game>-v5")`` (frame skip 4, RGB frames, no preprocessing: less work than
ours) and that env + ``AtariPreprocessing`` + ``FrameStackObservation(4)`` (the
same output as ours); plus the limit: ``raw emulator``: one ``ale_py.ALEInterface`` in a Python
loop of ``act`` calls, reported as env-steps (4 frames) per second, on one
thread with no preprocessing.

Run: ``python benchmarks/bench_atari.py [--tasks Pong-v5 Breakout-v5]
[--num-envs 2 8 16] [--seconds 2]``.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable, Sequence

import ale_py
import gymnasium

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _runners as R  # noqa: E402  (timing and runners, shared with bench.py)
from _runners import preprocessed_ale_env  # noqa: E402


def raw_rate(game: str, seconds: float) -> float:
    return R.rate(R.ale_raw_runner(game, grabs=False), seconds, 0.2)


SINGLE_ENVS: dict[str, Callable[[str], gymnasium.Env]] = {
    "envpool single env (gymnasium.make)": lambda game: gymnasium.make(f"envpool/{game}-v5"),
    "ale-py single env (gymnasium.make, no preprocessing)": lambda game: gymnasium.make(
        f"ALE/{game}-v5", repeat_action_probability=0.0),
    "ale-py single env + AtariPreprocessing + FrameStack": preprocessed_ale_env,
}


METHODS = {
    "envpool-sync": "envpool sync",
    "envpool-async": "envpool async (batch n/2)",
    "ale-vector": "ale-py AtariVectorEnv",
    "gym-async-vector": "gymnasium AsyncVectorEnv + AtariPreprocessing",
}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", nargs="+", default=["Pong-v5", "Breakout-v5"])
    p.add_argument("--num-envs", type=int, nargs="+", default=[2, 8, 16])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--warmup", type=float, default=0.5)
    p.add_argument("--methods", nargs="+", choices=list(METHODS), default=list(METHODS))
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    info = R.machine_info()
    print(f"# envpool Atari benchmark\n\n- envpool {info['envpool']}, ale-py {ale_py.__version__}, "
          f"gymnasium {info['gymnasium']}, python {info['python']} (checkout {info['git']})")
    print(f"- os.cpu_count(): {info['cpu_count']}; CPU: {info['cpu_model'] or 'unknown'}")
    print(f"- load average at start: {info['loadavg_start']}; {args.seconds} s per measurement")
    for task in args.tasks:
        game = task.split("-")[0]
        print(f"\n## {task}\n")
        raw = raw_rate(game, args.seconds)
        print(f"- raw emulator (one ALEInterface, Python loop of act, 4 frames per env-step): "
              f"{raw:,.0f} env-steps/s\n")
        print("| num_envs | method | steps/s | vs raw emulator |")
        print("|---:|---|---:|---:|")
        gymnasium.register_envs(ale_py)
        for label, make_single in SINGLE_ENVS.items():
            print(f"  {task} {label} ...", file=sys.stderr, flush=True)
            run, close = R.single_env_runner(make_single(game), args.seed)
            try:
                steps, _, secs = R.measure(run, args.seconds, args.warmup, 0)
            finally:
                close()
            print(f"| 1 | {label} | {steps / secs:,.0f} | {steps / secs / raw:.2f}x |",
                  flush=True)
        for n in args.num_envs:
            for m in args.methods:
                print(f"  {task} {m} n={n} ...", file=sys.stderr, flush=True)
                if m == "envpool-async" and n < 2:
                    continue
                actor = R.random_actor(args.seed)
                if m.startswith("envpool"):
                    batch = n // 2 if m == "envpool-async" else n
                    run, close = R.envpool_runner(task, n, batch, args.seed, actor)
                elif m == "ale-vector":
                    run, close = R.ale_vector_runner(game, n, args.seed, actor)
                else:
                    run, close = R.gym_vector_runner(
                        functools.partial(preprocessed_ale_env, game), n, args.seed, True, actor)
                try:
                    steps, _, secs = R.measure(run, args.seconds, args.warmup, 0)
                finally:
                    close()
                sps = steps / secs
                print(f"| {n} | {METHODS[m]} | {sps:,.0f} | {sps / raw:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
