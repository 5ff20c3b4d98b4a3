"""``python -m matrix {run,report,list}``: see ``matrix/__init__.py``."""

from __future__ import annotations

import argparse
import pathlib
import sys
from collections.abc import Sequence

from matrix import report
from matrix.cells import ABSENT, BY_NAME, CELLS
from matrix.common import ROOT
from matrix.run import SMOKE_STEPS, run_cell, save


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m matrix", description=__doc__)
    p.add_argument("command", choices=["run", "report", "list"])
    p.add_argument("--cells", nargs="+", default=[c.name for c in CELLS],
                   help="framework/family names (default: every cell)")
    p.add_argument("--budget", choices=["matrix", "smoke"], default="matrix",
                   help=f"smoke: {SMOKE_STEPS} steps and one seed per cell (checks the "
                        "machinery, judges nothing meaningful)")
    p.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "matrix",
                   help="where the cells' JSON and PNG go")
    p.add_argument("--md", type=pathlib.Path, default=ROOT / "docs" / "matrix.md")
    args = p.parse_args(argv)
    unknown = [c for c in args.cells if c not in BY_NAME]
    if unknown:
        p.error(f"unknown cells {unknown}; cells: {sorted(BY_NAME)}")
    if args.command == "list":
        for c in CELLS:
            print(f"{c.name:20s} {c.task:22s} {c.steps:>8,} steps x {len(c.seeds)} seeds  "
                  f"{c.algo}")
        for a in ABSENT:
            print(f"{a.name:20s} ({a.kind}) {a.reason}")
        return 0
    if args.command == "run":
        failed = []
        for name in args.cells:
            cell = BY_NAME[name]
            print(f"{name}: {cell.algo} on {cell.task}", flush=True)
            result = run_cell(cell, smoke=args.budget == "smoke",
                              log=lambda s: print(s, flush=True))
            save(result, args.out)
            verdict = "pass" if result["passed"] else "FAIL"
            print(f"{name}: {verdict} ({result['why']})", flush=True)
            if not result["passed"] and args.budget == "matrix":
                failed.append(name)
        report.write(args.out, args.md)
        return 1 if failed else 0
    report.write(args.out, args.md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
