#!/usr/bin/env python3
"""The curve of a CleanRL PPO JAX run from its output, each line stamped with the epoch
seconds it was printed at (``$EPOCHREALTIME line``, as scripts/gpu_pong_xla.sh writes it):
one CSV row per iteration (wall seconds since launch, env steps, the average return of each
env's last game, the script's SPS) and a summary line (steps/s, best and last return).

The output, not the tensorboard events: a run stopped at its time budget has printed every
iteration, while its SummaryWriter may not have flushed the last two minutes.

Usage: cleanrl_curve.py RUN_LOG OUT_CSV [--start EPOCH_SECONDS]
(``--start``: when the script was launched; by default the log's first line.)
"""

from __future__ import annotations

import argparse
import csv
import pathlib
import re

_STEP = re.compile(r"^(\d+(?:\.\d+)?) global_step=(\d+), avg_episodic_return=(\S+)$")
_SPS = re.compile(r"^(\d+(?:\.\d+)?) SPS: (\d+)$")


def read_curve(log: str, start: float | None = None) -> list[dict[str, float]]:
    """The iterations of a stamped run log.

    Args:
        log: The log's text: lines ``EPOCH_SECONDS TEXT``; the iterations' lines are
            ``global_step=N, avg_episodic_return=R`` then ``SPS: S``.
        start: The epoch seconds that ``wall_s`` counts from; None: the first line's.

    Returns:
        One dict per iteration: ``wall_s``, ``step``, ``avg_episodic_return`` and, where
        printed, ``sps``.
    """
    rows: list[dict[str, float]] = []
    lines = log.splitlines()
    if start is None and lines:
        start = float(lines[0].split(" ", 1)[0])
    for line in lines:
        if m := _STEP.match(line):
            rows.append({"wall_s": float(m[1]) - (start or 0.0), "step": int(m[2]),
                         "avg_episodic_return": float(m[3])})
        elif (m := _SPS.match(line)) and rows:
            rows[-1]["sps"] = int(m[2])
    return rows


def summary(rows: list[dict[str, float]]) -> str:
    """One line: env steps, wall seconds, steps/s, best and last average return."""
    if not rows:
        return "no iterations logged"
    last = rows[-1]
    rate = last["step"] / last["wall_s"] if last["wall_s"] > 0 else float("nan")
    returns = [r["avg_episodic_return"] for r in rows]
    return (f"{int(last['step'])} env steps in {last['wall_s']:.0f} s since launch "
            f"({rate:.0f} steps/s; the script's last SPS {last.get('sps', float('nan')):.0f}); "
            f"average return last {returns[-1]:.2f}, best {max(returns):.2f}")


def main(argv: list[str] | None = None) -> None:
    """Writes the curve of RUN_LOG to OUT_CSV and prints its summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_log", type=pathlib.Path)
    parser.add_argument("out_csv", type=pathlib.Path)
    parser.add_argument("--start", type=float, default=None)
    ns = parser.parse_args(argv)
    rows = read_curve(ns.run_log.read_text(errors="replace"), ns.start)
    with ns.out_csv.open("w", newline="") as f:
        writer = csv.DictWriter(f, ["wall_s", "step", "avg_episodic_return", "sps"])
        writer.writeheader()
        writer.writerows(rows)
    print(summary(rows))


if __name__ == "__main__":
    main()
