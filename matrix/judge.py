"""How a cell is judged: the final return bands of both stacks (see ``matrix.cells``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from matrix.cells import Cell


@dataclass
class Band:
    """Mean and standard error of the pooled last episodes of every seed."""

    mean: float
    sem: float
    episodes: int


def judge(cell: Cell, ref: Band, ours: Band) -> tuple[bool, str]:
    """The cell's verdict and, when it fails, why (see ``matrix.cells``)."""
    if ref.episodes == 0 or ours.episodes == 0:
        return False, "a stack finished no episode"
    allowed = 4 * math.hypot(ref.sem, ours.sem) + cell.slack
    gap = ours.mean - ref.mean
    if abs(gap) > allowed:
        return False, f"bands apart: ours - reference = {gap:+.1f}, allowed +-{allowed:.1f}"
    if cell.learns_above is not None:
        for name, band in (("reference", ref), ("envpool", ours)):
            if band.mean <= cell.learns_above:
                return False, (f"{name} did not learn at this budget: {band.mean:.1f} <= "
                               f"{cell.learns_above:g}")
    return True, f"gap {gap:+.1f} within +-{allowed:.1f}"
