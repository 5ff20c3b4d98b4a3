"""Runs a cell on both stacks and judges it; stores the result as JSON beside its plot."""

from __future__ import annotations

import json
import math
import pathlib
import time
from dataclasses import asdict
from typing import Any

import numpy as np

from matrix.cells import Cell
from matrix.common import STACKS, Run
from matrix.judge import Band, judge
from matrix.report import environment

SMOKE_STEPS = 2_000


def final_band(runs: list[Run], last: int) -> Band:
    """The reward-curve helper's ``final_band`` over the runs, with the episode count; no
    episode at all gives a NaN band (judged as a failure, not raised)."""
    from envpool.integrations.curves import CompareResult  # not at import: `report` needs none

    try:
        mean, sem = CompareResult({"runs": list(runs)}).final_band("runs", last)
    except ValueError:
        return Band(math.nan, math.nan, 0)
    return Band(mean, sem, sum(min(last, r.returns.size) for r in runs))


def run_cell(cell: Cell, smoke: bool = False, log: Any = print) -> dict[str, Any]:
    """Trains the cell's algorithm on both stacks for every seed (alternating stacks, so
    that a drift of the machine's speed touches both alike) and returns the result. A smoke
    run (``SMOKE_STEPS`` steps, the first seed) checks the machinery and is not judged."""
    steps = SMOKE_STEPS if smoke else cell.steps
    seeds = cell.seeds[:1] if smoke else cell.seeds
    runs: dict[str, list[Run]] = {s: [] for s in STACKS}
    started = time.time()
    for seed in seeds:
        for stack in STACKS:
            run = cell.train(stack, seed, steps)
            tail = run.returns[-cell.last:]
            log(f"  {cell.name} {stack:9s} seed {seed}: {len(run.returns)} episodes, last "
                f"{len(tail)} mean {tail.mean() if tail.size else math.nan:.1f}, "
                f"{run.env_steps / run.seconds:,.0f} steps/s ({run.seconds:.0f} s)")
            runs[stack].append(run)
    ref, ours = (final_band(runs[s], cell.last) for s in STACKS)
    passed, why = (False, "smoke run: not judged") if smoke else judge(cell, ref, ours)
    speed = {s: sum(r.env_steps for r in runs[s]) / sum(r.seconds for r in runs[s])
             for s in STACKS}
    return {
        "cell": cell.name, "task": cell.task, "algo": cell.algo, "reference": cell.reference,
        "steps": steps, "seeds": list(seeds), "last": cell.last, "slack": cell.slack,
        "learns_above": cell.learns_above, "budget": "smoke" if smoke else "matrix",
        "bands": {"reference": asdict(ref), "envpool": asdict(ours)},
        "passed": passed, "why": why, "steps_per_second": speed,
        "wall_seconds": time.time() - started, "environment": environment(),
        "runs": [{"stack": r.stack, "seed": r.seed, "env_steps": r.env_steps,
                  "seconds": r.seconds, "steps": r.steps.tolist(), "returns": r.returns.tolist()}
                 for s in STACKS for r in runs[s]],
    }


def save(result: dict[str, Any], out: pathlib.Path) -> pathlib.Path:
    """Writes ``<out>/<framework>_<family>.json`` and the PNG of both stacks' curves."""
    from envpool.integrations.curves import CompareResult, Curve, plot_curves

    out.mkdir(parents=True, exist_ok=True)
    stem = result["cell"].replace("/", "_")
    path = out / f"{stem}.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    curves = CompareResult({s: [Curve(s, r["seed"], np.asarray(r["steps"]),
                                      np.asarray(r["returns"]))
                                for r in result["runs"] if r["stack"] == s] for s in STACKS})
    if not any(r["returns"] for r in result["runs"]):
        return path
    plot_curves(curves, str(out / f"{stem}.png"), window=max(1, min(20, result["last"])),
                title=f"{result['cell']}: {result['algo']} on {result['task']}")
    return path
