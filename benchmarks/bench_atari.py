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
import itertools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import ale_py
import gymnasium
import numpy as np
from gymnasium.vector.utils import batch_space

import envpool
from envpool.tasks.atari import GAMES, rom_path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_classic  # noqa: E402

Runner = Callable[[int], int]


def raw_runner(game: str, grabs: bool) -> tuple[Runner, Any]:
    """One ``ale_py.ALEInterface`` in a Python loop: 4 ``act`` calls per env step and,
    with ``grabs``, the grayscale screens of the last two frames (the least work the
    max-pool preprocessing needs). Python's share is negligible next to 4 frames."""
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(rom_path(GAMES[game]))
    actions = ale.getMinimalActionSet()
    seq = [actions[i] for i in np.random.default_rng(0).integers(len(actions), size=4096)]
    bufs = [np.empty((210, 160), np.uint8), np.empty((210, 160), np.uint8)]
    act, grab, game_over, reset = ale.act, ale.getScreenGrayscale, ale.game_over, ale.reset_game
    state = {"i": 0}

    def run(k: int) -> int:
        i = state["i"]
        for _ in range(k):
            a = seq[i % len(seq)]
            i += 1
            act(a)
            act(a)
            act(a)
            if grabs:
                grab(bufs[1])
            act(a)
            if grabs:
                grab(bufs[0])
            if game_over():
                reset()
        state["i"] = i
        return k

    return run, lambda: None


def raw_rate(game: str, seconds: float) -> float:
    run, _ = raw_runner(game, grabs=False)
    steps, _, elapsed = bench_classic.measure(run, seconds, 0.2, 0)
    return steps / elapsed


def envpool_runner(task: str, n: int, asynchronous: bool, seed: int) -> tuple[Runner, Any]:
    batch = max(1, n // 2) if asynchronous else n
    env = envpool.make_gymnasium(task, num_envs=n, batch_size=batch, seed=seed)
    acts = itertools.cycle(bench_classic.presample(batch_space(env.single_action_space, n), 256,
                                                   seed))
    if not asynchronous:
        env.reset()

        def run(k: int) -> int:
            for _ in range(k):
                env.step(next(acts))
            return k * n

        return run, env.close
    env.async_reset()

    def run_async(k: int) -> int:
        steps = 0
        for _ in range(k):
            env_id = env.recv()[4]["env_id"]
            env.send(next(acts)[: len(env_id)], env_id)
            steps += len(env_id)
        return steps

    return run_async, env.close


def ale_vector_runner(game: str, n: int, seed: int) -> tuple[Runner, Any]:
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(GAMES[game], num_envs=n, reward_clipping=False)
    env.reset(seed=seed)
    acts = itertools.cycle(bench_classic.presample(env.action_space, 256, seed))

    def run(k: int) -> int:
        for _ in range(k):
            env.step(next(acts))
        return k * n

    return run, env.close


def preprocessed_ale_env(game: str) -> gymnasium.Env:
    """ale-py's env with gymnasium's Atari preprocessing: the same output as ours."""
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    gymnasium.register_envs(ale_py)
    env = gymnasium.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=0.0)
    return FrameStackObservation(AtariPreprocessing(env, noop_max=30, frame_skip=4), 4)


SINGLE_ENVS: dict[str, Callable[[str], gymnasium.Env]] = {
    "envpool single env (gymnasium.make)": lambda game: gymnasium.make(f"envpool/{game}-v5"),
    "ale-py single env (gymnasium.make, no preprocessing)": lambda game: gymnasium.make(
        f"ALE/{game}-v5", repeat_action_probability=0.0),
    "ale-py single env + AtariPreprocessing + FrameStack": preprocessed_ale_env,
}


def gym_async_runner(game: str, n: int, seed: int) -> tuple[Runner, Any]:
    env = gymnasium.vector.AsyncVectorEnv([lambda: preprocessed_ale_env(game) for _ in range(n)])
    env.reset(seed=seed)
    acts = itertools.cycle(bench_classic.presample(env.action_space, 256, seed))

    def run(k: int) -> int:
        for _ in range(k):
            env.step(next(acts))
        return k * n

    return run, env.close


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
    info = bench_classic.machine_info()
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
            run, close = bench_classic.single_env_runner(make_single(game), args.seed)
            try:
                steps, _, secs = bench_classic.measure(run, args.seconds, args.warmup, 0)
            finally:
                close()
            print(f"| 1 | {label} | {steps / secs:,.0f} | {steps / secs / raw:.2f}x |",
                  flush=True)
        for n in args.num_envs:
            for m in args.methods:
                print(f"  {task} {m} n={n} ...", file=sys.stderr, flush=True)
                if m == "envpool-async" and n < 2:
                    continue
                if m.startswith("envpool"):
                    run, close = envpool_runner(task, n, m == "envpool-async", args.seed)
                elif m == "ale-vector":
                    run, close = ale_vector_runner(game, n, args.seed)
                else:
                    run, close = gym_async_runner(game, n, args.seed)
                try:
                    steps, _, secs = bench_classic.measure(run, args.seconds, args.warmup, 0)
                finally:
                    close()
                sps = steps / secs
                print(f"| {n} | {METHODS[m]} | {sps:,.0f} | {sps / raw:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
