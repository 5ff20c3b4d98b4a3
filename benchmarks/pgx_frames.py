"""Seconds per frame of the PGX ids' ``render()``: pgx's own SVG of the State rebuilt from
the native env, rasterised by resvg (envpool/tasks/pgx_frames.py).

For each id: a pool of one env with ``render_mode="rgb_array"`` at
the id's default frame size, a first frame (pgx's State layout is made then; not timed), then
``--frames`` frames, each after a random legal step, timed around ``render()``; of that, the
time pgx takes to write the SVG (``to_svg`` of the same State) and resvg to rasterise it.
Prints a Markdown table with the versions and the machine; ``--out`` also writes it.

    python benchmarks/pgx_frames.py --out benchmarks/results/pgx/frame_times.md
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from importlib.metadata import version

import numpy as np

import envpool
from envpool.tasks import pgx as pgx_tasks
from envpool.tasks.pgx_frames import pgx_svg, rasterise


def _timed(fn: object, *args: object) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn(*args)  # type: ignore[operator]
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=5)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    import jax

    rng = np.random.default_rng(0)
    rows = []
    for task_id in pgx_tasks.ids():
        env = envpool.make_gymnasium(task_id, num_envs=1, seed=0, render_mode="rgb_array")
        _, info = env.reset()
        env.render()
        height, width = env.spec.render_frame[:2]
        frames, svgs, rasters = [], [], []
        for _ in range(args.frames):
            action = rng.choice(np.flatnonzero(info["legal_action_mask"][0]))
            _, _, _, _, info = env.step(np.asarray([action], np.int32))
            frames.append(_timed(env.render)[0])
            state = jax.tree_util.tree_map(jax.numpy.asarray,
                                           env._frames.state(env.get_state(0)))
            seconds, svg = _timed(pgx_svg, state)
            svgs.append(seconds)
            rasters.append(_timed(rasterise, svg, height, width)[0])
        env.close()
        rows.append(f"| {task_id} | {width} x {height} | {np.median(frames):.3f} | "
                    f"{np.median(svgs):.3f} | {np.median(rasters):.3f} |")
    text = "\n".join([
        f"# PGX frames: seconds per render() (median of {args.frames}, the default frame size, "
        "one env)",
        "",
        f"- envpool {envpool.__version__}, pgx {version('pgx')}, resvg-py {version('resvg-py')}, "
        f"jax {version('jax')}, numpy {np.__version__}, python {platform.python_version()}",
        f"- os.cpu_count(): {os.cpu_count()}; CPU: {platform.processor() or platform.machine()}; "
        f"load average at end {[round(x, 2) for x in os.getloadavg()]}", "",
        "| id | frame (w x h) | seconds per frame | of which pgx's SVG | resvg |",
        "|---|---|---:|---:|---:|", *rows, ""])
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
