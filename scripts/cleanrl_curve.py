#!/usr/bin/env python3
"""The curve of a CleanRL Atari run from its output, each line stamped with the epoch
seconds it was printed at (``$EPOCHREALTIME line``, as scripts/gpu_pong_xla.sh and
scripts/cpu_pong_ppo.sh write it), and a summary line (steps/s, best and last return).

* The JAX scripts print one line per iteration, ``global_step=N, avg_episodic_return=R``
  (the average of each env's last game): one CSV row per iteration.
* The torch scripts (``ppo_atari_envpool.py``) print one line per finished game,
  ``global_step=N, episodic_return=R``: one CSV row per game, with the average of the last
  20 games (what the script itself logs as ``charts/avg_episodic_return``).

Either way a row has the wall seconds since launch, the env steps, the average return and the
script's last ``SPS:`` before it. The output, not the tensorboard events: a run stopped at its
time budget has printed every line, while its SummaryWriter may not have flushed the last two
minutes.

Usage: cleanrl_curve.py RUN_LOG OUT_CSV [--start EPOCH_SECONDS] [--plot PNG] [--title T]
(``--start``: when the script was launched; by default the log's first line.)
"""

from __future__ import annotations

import argparse
import collections
import csv
import pathlib
import re

_STEP = re.compile(r"^(\d+(?:\.\d+)?) global_step=(\d+), avg_episodic_return=(\S+)$")
_GAME = re.compile(r"^(\d+(?:\.\d+)?) global_step=(\d+), episodic_return=\[?([-+\d.eE]+)\]?$")
_SPS = re.compile(r"^(\d+(?:\.\d+)?) SPS: (\d+)$")
#: The games the torch scripts average over (their ``deque(maxlen=20)``).
GAMES_AVERAGED = 20
FIELDS = ["wall_s", "step", "avg_episodic_return", "sps", "episodic_return"]


def read_curve(log: str, start: float | None = None) -> list[dict[str, float]]:
    """The iterations of a stamped run log.

    Args:
        log: The log's text: lines ``EPOCH_SECONDS TEXT``; the iterations' lines are
            ``global_step=N, avg_episodic_return=R`` then ``SPS: S`` (JAX scripts), the
            games' ``global_step=N, episodic_return=R`` with ``SPS: S`` once an iteration
            (torch scripts).
        start: The epoch seconds that ``wall_s`` counts from; None: the first line's.

    Returns:
        One dict per iteration (JAX) or per game (torch): ``wall_s``, ``step``,
        ``avg_episodic_return`` and, where known, ``sps`` (an iteration's own; a game's
        the last one printed before it) and ``episodic_return`` (a game's own).
    """
    rows: list[dict[str, float]] = []
    games: collections.deque[float] = collections.deque(maxlen=GAMES_AVERAGED)
    sps: int | None = None
    lines = log.splitlines()
    if start is None and lines:
        start = float(lines[0].split(" ", 1)[0])
    for line in lines:
        if m := _STEP.match(line):
            rows.append({"wall_s": float(m[1]) - (start or 0.0), "step": int(m[2]),
                         "avg_episodic_return": float(m[3])})
        elif m := _GAME.match(line):
            games.append(float(m[3]))
            row = {"wall_s": float(m[1]) - (start or 0.0), "step": int(m[2]),
                   "avg_episodic_return": sum(games) / len(games),
                   "episodic_return": float(m[3])}
            if sps is not None:
                row["sps"] = sps
            rows.append(row)
        elif m := _SPS.match(line):
            sps = int(m[2])
            if rows and "episodic_return" not in rows[-1]:
                rows[-1]["sps"] = sps
    return rows


def sps_lines(log: str) -> list[int]:
    """Every ``SPS: S`` a stamped log printed (one per iteration), in order."""
    return [int(m[2]) for line in log.splitlines() if (m := _SPS.match(line))]


def plot(rows: list[dict[str, float]], png: pathlib.Path, title: str) -> None:
    """The average return against env steps and against wall minutes, side by side."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    steps = [r["step"] / 1e6 for r in rows]
    minutes = [r["wall_s"] / 60 for r in rows]
    for ax, xs, label in ((axes[0], steps, "env steps (millions)"),
                          (axes[1], minutes, "wall clock since launch (minutes)")):
        if "episodic_return" in (rows[0] if rows else {}):
            ax.plot(xs, [r["episodic_return"] for r in rows], ".", ms=2, alpha=0.3,
                    label="each game")
        ax.plot(xs, [r["avg_episodic_return"] for r in rows], "-",
                label=f"average of the last {GAMES_AVERAGED} games")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("episodic return")
    axes[0].legend(loc="upper left", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def summary(rows: list[dict[str, float]]) -> str:
    """One line: env steps, wall seconds, steps/s, best and last average return."""
    if not rows:
        return "no iterations or games logged"
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
    parser.add_argument("--plot", type=pathlib.Path, default=None, help="also draw the curve")
    parser.add_argument("--title", default="")
    ns = parser.parse_args(argv)
    rows = read_curve(ns.run_log.read_text(errors="replace"), ns.start)
    per_game = any("episodic_return" in r for r in rows)
    with ns.out_csv.open("w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS if per_game else FIELDS[:-1])
        writer.writeheader()
        writer.writerows(rows)
    if ns.plot is not None and rows:
        plot(rows, ns.plot, ns.title or ns.run_log.parent.name)
    print(summary(rows))


if __name__ == "__main__":
    main()
