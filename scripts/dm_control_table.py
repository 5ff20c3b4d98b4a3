"""The task table of docs/dm_control.md, generated from the registry.

    python scripts/dm_control_table.py           # rewrite the table in docs/dm_control.md
    python scripts/dm_control_table.py --check   # exit 1 if the committed table is stale

One row per registered Control Suite id: dm_control's domain and task, ``frame_skip``
(dm_control's ``n_sub_steps``), the observation keys with their shapes, the action size,
and the alignment tests that cover it (all in tests/test_align_dm_control.py, default suite).
Tolerances, where a key is not compared bitwise, are listed under the table by hand.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import envpool
from envpool.tasks.dm_control import TASKS

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "dm_control.md"
BEGIN = "<!-- BEGIN TASK TABLE (scripts/dm_control_table.py) -->"
END = "<!-- END TASK TABLE -->"


def table() -> str:
    rows = [
        "| id | dm_control | frame_skip | observation keys (shape) | action | aligned |",
        "|---|---|---:|---|---:|---|",
    ]
    for task_id in sorted(TASKS):
        domain, task_name = TASKS[task_id]
        spec = envpool.make_spec(task_id)
        keys = ", ".join(f"`{k}` {tuple(s.shape)}" for k, s in spec.observation_space.items())
        rows.append(f"| {task_id} | {domain} / {task_name} | {spec.config.frame_skip} | {keys} "
                    f"| {spec.action_space.shape[0]} | lockstep, reset distribution |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    text = DOC.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    new = text[:start] + "\n" + table() + "\n" + text[end:]
    if args.check:
        if new != text:
            print(f"{DOC} is stale: run python scripts/dm_control_table.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
