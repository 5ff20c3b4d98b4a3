"""Seconds per frame of the Jumanji ids' ``render()`` (jumanji's own matplotlib viewer
drawing the State rebuilt from the native env; envpool/tasks/jumanji_frames.py).

For each id: a pool of one env with ``render_mode="rgb_array"`` at the default 256 x 256,
a first frame (the viewer's figure is made then; not timed), then ``--frames`` frames, each
after a random valid step, timed around ``render()`` alone. Prints a Markdown table with the
versions and the machine; ``--out`` also writes it to a file.

    python benchmarks/jumanji_frames.py --out benchmarks/results/jumanji/frame_times.md
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from importlib.metadata import version

import numpy as np

import envpool
from envpool.tasks.jumanji import JUMANJI_ENV_IDS, NEEDS_USER_FILES


def _action(env: object, obs: dict, rng: np.random.Generator) -> np.ndarray:
    space = env.single_action_space  # type: ignore[attr-defined]
    mask = obs.get("action_mask")
    if mask is None or not hasattr(space, "n"):
        return np.asarray(space.sample())[None]
    valid = np.flatnonzero(np.asarray(mask[0]).reshape(-1))
    return np.asarray([rng.choice(valid) if len(valid) else 0], dtype=space.dtype)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=5)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for task_id in JUMANJI_ENV_IDS:
        if task_id in NEEDS_USER_FILES:
            rows.append(f"| {task_id} | (its levels are not in the Hugging Face cache) |")
            continue
        env = envpool.make_gymnasium(task_id, num_envs=1, seed=0, render_mode="rgb_array")
        obs, _ = env.reset()
        env.render()
        times = []
        for _ in range(args.frames):
            obs, _, term, trunc, _ = env.step(_action(env, obs, rng))
            start = time.perf_counter()
            env.render()
            times.append(time.perf_counter() - start)
        env.close()
        rows.append(f"| {task_id} | {np.median(times):.3f} |")
    text = "\n".join([
        "# Jumanji frames: seconds per render() (median of "
        f"{args.frames}, 256 x 256, one env)", "",
        f"- envpool {envpool.__version__}, jumanji {version('jumanji')}, "
        f"matplotlib {version('matplotlib')}, jax {version('jax')}, numpy {np.__version__}, "
        f"python {platform.python_version()}",
        f"- os.cpu_count(): {os.cpu_count()}; CPU: {platform.processor() or platform.machine()}; "
        f"load average at end {[round(x, 2) for x in os.getloadavg()]}", "",
        "| id | seconds per frame |", "|---|---:|", *rows, ""])
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
