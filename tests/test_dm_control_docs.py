"""docs/dm_control.md's task table is the registry's (scripts/dm_control_table.py)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("dm_control", reason="the table is built from the dm_control models")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_task_table_is_current() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "dm_control_table.py"),
                             "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + "\n(run python scripts/dm_control_table.py)"
