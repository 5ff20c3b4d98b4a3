#!/usr/bin/env python3
"""Every registered id, with the keywords that change its buffers, in a child process each.

For each id: the keyword sets of ``keyword_sets`` (the defaults; frames with
``render_mode="rgb_array"`` at the env's own size and smaller; Atari's ``img_height`` /
``img_width`` / ``gray_scale`` / ``stack_num``; ``from_pixels`` / ``frame_stack`` for the
MuJoCo and Control Suite tasks; ViZDoom's frame sizes; the toy-text ``ansi`` text), each in
a sync pool (2 envs) and an async one (3 envs, batches of 2): make, reset, steps with random
actions and with the extreme valid ones (each bound of a box, the first and last discrete
action), frames drawn where the pool renders, a reset with a seed, close.

Run it on an extension built with AddressSanitizer and UndefinedBehaviorSanitizer
(``scripts/sanitized_extension.sh`` builds one and prints how to run this script on it); on
the plain build it still catches crashes, aborts (glibc's heap checks, ``MALLOC_CHECK_=3``)
and exceptions. A child that exits non-zero, or writes a sanitizer report, fails the sweep.

    python scripts/sanitize_sweep.py                       # every id
    python scripts/sanitize_sweep.py --sample 12 --seed 20261125   # 12 ids, drawn by the seed
    python scripts/sanitize_sweep.py --ids Pong-v5 Adventure-v5
    python scripts/sanitize_sweep.py --per-class 1 --seed 20261129   # one id of each native env

Prints one line per id and the counts; exits 1 if any child failed.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

# Sanitizer reports and what glibc prints when it finds its heap corrupted.
REPORT_MARKERS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer",
                  "free(): ", "malloc(): ", "double free or corruption", "corrupted size",
                  "munmap_chunk(): ")


def keyword_sets(task_id: str) -> list[dict[str, Any]]:
    """The keyword sets of ``task_id`` that change the shape of a buffer (those the task
    accepts: a size it cannot draw is refused at make, which is no finding)."""
    import envpool

    spec = envpool.make_spec(task_id)
    config = spec.config._asdict()
    candidates: list[dict[str, Any]] = [{}]
    if spec.native_spec.get("render") is not None:
        candidates += [{"render_mode": "rgb_array"},
                       {"render_mode": "rgb_array", "render_width": 37, "render_height": 29}]
    if "ansi" in _render_modes(spec):
        candidates.append({"render_mode": "ansi"})
    if "game" in config and "rom_path" in config:  # Atari
        candidates += [{"img_height": 210, "img_width": 160, "gray_scale": False, "stack_num": 1},
                       {"img_height": 250, "img_width": 103, "stack_num": 8, "frame_skip": 1,
                        "use_inter_area_resize": False}]
    if "from_pixels" in config:  # MuJoCo and the Control Suite
        pixels = {"from_pixels": True, "render_width": 48, "render_height": 40}
        candidates.append({**pixels, "frame_stack": 3} if "frame_stack" in config else pixels)
    if "cfg_path" in config and "img_height" in config:  # ViZDoom
        candidates += [{"img_height": 120, "img_width": 160, "stack_num": 1},
                       {"img_height": 17, "img_width": 211, "stack_num": 2}]
    accepted = []
    for keywords in candidates:
        try:
            envpool.make_spec(task_id, **keywords)
        except ValueError:
            continue
        accepted.append(keywords)
    return accepted


def _render_modes(spec: Any) -> list[str]:
    from envpool.flavours.gymnasium_env import render_metadata

    return list(render_metadata(spec)["render_modes"])


def _actions(space: Any, n: int, rng: Any) -> list[Any]:
    """Random actions, then the extreme valid ones, each for ``n`` envs."""
    import numpy as np
    from gymnasium import spaces

    if isinstance(space, spaces.Discrete):
        first, last = int(space.start), int(space.start + space.n - 1)
        return [rng.integers(first, last + 1, size=n), np.full(n, first), np.full(n, last)]
    low = np.broadcast_to(space.low, space.shape)
    high = np.broadcast_to(space.high, space.shape)
    finite_low = np.where(np.isfinite(low), low, -1e3)
    finite_high = np.where(np.isfinite(high), high, 1e3)
    random_rows = rng.uniform(finite_low, finite_high, size=(n, *space.shape))
    return [random_rows.astype(space.dtype), np.broadcast_to(finite_low, (n, *space.shape))
            .astype(space.dtype), np.broadcast_to(finite_high, (n, *space.shape))
            .astype(space.dtype)]


def _engine_without_preload(engine: str) -> str:
    """A script that runs ViZDoom's engine without LD_PRELOAD. Under the sanitizers the
    sweep preloads ASan into Python, and each ViZDoom env starts an engine process, which
    inherits the environment: ASan would then check the engine, an uninstrumented program
    of vizdoom's (its strdup'd strings freed with delete[] are its own affair, not envpool's).
    """
    import tempfile

    path = os.path.join(tempfile.mkdtemp(prefix="envpool-sweep-"), "vizdoom")
    with open(path, "w") as f:
        f.write(f'#!/bin/sh\nunset LD_PRELOAD\nexec "{engine}" "$@"\n')
    os.chmod(path, 0o755)
    return path


def exercise(task_id: str, keywords: dict[str, Any], asynchronous: bool, steps: int) -> None:
    """One pool of ``task_id`` with ``keywords`` through its whole life (see the module)."""
    import numpy as np

    import envpool
    from envpool.core.tree import row as obs_row
    from envpool.tasks.myosuite import OBS_BEYOND_SPACE

    config = envpool.make_spec(task_id).config._asdict()
    if os.environ.get("LD_PRELOAD") and config.get("vzd_path"):
        keywords = {**keywords, "vzd_path": _engine_without_preload(config["vzd_path"])}
    num_envs, batch = (3, 2) if asynchronous else (2, 2)
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, batch_size=batch,
                       seed=1, **keywords)
    rng = np.random.default_rng(0)
    space = env.single_action_space
    drawn = keywords.get("render_mode") is not None
    # (a multi-player pool whose players act, without an action of its own, takes a row per
    # player of the batch: the highway multi-agent intersection)
    players_act = "action" not in env.spec.action_array_spec

    def rows(info: dict[str, Any]) -> int:
        return len(info["players"]["env_id"] if players_act else info["env_id"])

    if asynchronous:
        env.async_reset()
        for t in range(steps):
            obs, _, _, _, info = env.recv()
            row = obs_row(obs, 0)
            if task_id in OBS_BEYOND_SPACE:  # the reference's space, which they leave
                assert row.shape == env.single_observation_space.shape
            else:
                assert env.single_observation_space.contains(row)
            actions = _actions(space, rows(info), rng)[t % 3]
            env.send(actions, info["env_id"])
        obs, _, _, _, info = env.recv()  # the last batch; the other env stays in flight
        if drawn:
            idle = info["env_id"]
            frames = env.render(idle)
            assert len(frames) == len(idle)
    else:
        _, info = env.reset()
        for t in range(steps):
            *_, info = env.step(_actions(space, rows(info), rng)[t % 3])
            if drawn and t in (0, steps - 1):
                env.render(env_ids=np.arange(num_envs))
        _, info = env.reset(seed=7)
        env.step(_actions(space, rows(info), rng)[2])
        if drawn:
            env.render()
    env.close()


def _use_package(path: str) -> None:
    """Imports envpool from ``path`` (the sanitized copy): first on sys.path, and without
    the finder of an editable install, which would take precedence over sys.path."""
    sys.meta_path[:] = [f for f in sys.meta_path
                        if not type(f).__module__.startswith("_editable_skbc_envpool")]
    sys.path.insert(0, os.path.abspath(path))
    import envpool

    if not envpool.__file__.startswith(os.path.abspath(path)):
        raise SystemExit(f"envpool came from {envpool.__file__}, not from {path}")


def _child(task_id: str, steps: int) -> None:
    """Runs every keyword set of ``task_id``, sync and async, printing each as it starts."""
    if os.environ.get("ENVPOOL_SWEEP_PACKAGE"):
        _use_package(os.environ["ENVPOOL_SWEEP_PACKAGE"])
    for keywords in keyword_sets(task_id):
        for asynchronous in (False, True):
            print(json.dumps({"keywords": keywords, "async": asynchronous}), flush=True)
            exercise(task_id, keywords, asynchronous, steps)
    print("done", flush=True)


def verdict(code: int, out: str, err: str) -> tuple[bool, list[str]]:
    """Whether a child passed (exit code 0, its last line "done", no report on stderr), and
    the reports it wrote."""
    reported = [m for m in REPORT_MARKERS if m in err]
    return code == 0 and not reported and out.splitlines()[-1:] == ["done"], reported


def run_one(task_id: str, steps: int, timeout: float) -> dict[str, Any]:
    """``task_id``'s sweep in a child process: its outcome and the last keyword set started."""
    env = dict(os.environ)
    env.setdefault("MALLOC_CHECK_", "3")  # glibc's heap checks on the plain build
    env.setdefault("MUJOCO_GL", "egl")
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, __file__, "--child", task_id, "--steps", str(steps)],
                              capture_output=True, text=True, timeout=timeout, env=env)
        out, err, code = proc.stdout, proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err, code = f"timed out after {timeout} s", -1
    started = [line for line in out.splitlines() if line.startswith("{")]
    ok, reported = verdict(code, out, err)
    return {"id": task_id, "ok": ok, "code": code, "runs": len(started),
            "last": started[-1] if started else "", "reports": reported,
            "seconds": round(time.perf_counter() - start, 1),
            "stderr": "" if ok else err[-4000:]}


def per_class(ids: list[str], count: int, seed: int) -> list[str]:
    """``count`` ids of each native env class (its module and C++ env: Atari's games are one
    class, MiniGrid's envs several), drawn by ``seed``: each class's code runs, whichever
    family holds most ids."""
    from envpool.core.registry import get_task

    classes: dict[tuple[str, str], list[str]] = {}
    for task_id in ids:
        task = get_task(task_id)
        classes.setdefault((task.native_module.__name__, task.native_env), []).append(task_id)
    rng = random.Random(seed)
    return sorted(i for members in classes.values()
                  for i in rng.sample(members, min(count, len(members))))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ids", nargs="*", help="these ids (default: every registered id)")
    ap.add_argument("--sample", type=int, default=0, help="a random sample of this many ids")
    ap.add_argument("--per-class", type=int, default=0,
                    help="this many ids of each native env class (drawn by --seed)")
    ap.add_argument("--seed", type=int, default=0, help="the sample's seed")
    ap.add_argument("--steps", type=int, default=6, help="steps per pool")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per id")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child, args.steps)
        return 0

    if os.environ.get("ENVPOOL_SWEEP_PACKAGE"):
        _use_package(os.environ["ENVPOOL_SWEEP_PACKAGE"])
    import envpool
    from envpool.tasks import jumanji as jumanji_tasks
    from envpool.tasks import minigrid as minigrid_tasks
    from envpool.tasks import vizdoom as vizdoom_tasks

    print(f"envpool from {os.path.dirname(envpool.__file__)}", flush=True)
    ids = args.ids or [i for i in envpool.list_all_envs()
                       if i not in vizdoom_tasks.NEEDS_USER_FILES | minigrid_tasks.NEEDS_USER_FILES
                       | jumanji_tasks.NEEDS_USER_FILES
                       and not i.startswith("_")]
    if args.per_class:
        ids = per_class(ids, args.per_class, args.seed)
        print(f"{len(ids)} ids, {args.per_class} of each native env class, seed {args.seed}: "
              f"{' '.join(ids)}", flush=True)
    if args.sample:
        ids = sorted(random.Random(args.seed).sample(ids, min(args.sample, len(ids))))
        print(f"sample of {len(ids)} ids, seed {args.seed}: {' '.join(ids)}", flush=True)
    failed = 0
    runs = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for result in pool.map(lambda i: run_one(i, args.steps, args.timeout), ids):
            runs += result["runs"]
            status = "ok" if result["ok"] else "FAILED"
            print(f"{status:6} {result['id']:32} {result['runs']:3} pools "
                  f"{result['seconds']:6.1f} s", flush=True)
            if not result["ok"]:
                failed += 1
                print(f"  exit code {result['code']}, reports {result['reports']}, last "
                      f"started: {result['last']}\n{result['stderr']}", flush=True)
    print(f"{len(ids) - failed} ids passed, {failed} failed ({runs} pools)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
