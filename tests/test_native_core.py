"""The C++ tests of the native core (native/tests, ctest), built and run from pytest.

The plain optimised build, the AddressSanitizer and the ThreadSanitizer builds run in the
nightly matrix, one job each (a build takes about a minute of two cores: the default suite
leaves it there, and tests the core through the Python pools)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _check_native(variant: str) -> None:
    if shutil.which("cmake") is None:
        pytest.fail("cmake is needed to build the C++ tests (pip install cmake)")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "check_native.sh"), variant], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert f"=== {variant}: passed" in proc.stdout


@pytest.mark.nightly
@pytest.mark.timeout(1200)  # above the build-and-ctest subprocess's own 900 s
@pytest.mark.parametrize("variant", ["plain", "address", "thread"])
def test_native_core_sanitizers(variant: str) -> None:
    _check_native(variant)
