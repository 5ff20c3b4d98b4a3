"""The checkout is ruff clean (pyproject.toml's [tool.ruff]: the package, its tests, scripts,
benchmarks, examples and packaging), with the ruff the test extra pins."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (result.stdout[-3000:] + result.stderr[-1000:]
                                    + "\n(the test extra installs ruff)")
