"""native/third_party/find_mujoco.py: which MuJoCo the extension is built against."""

from __future__ import annotations

import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "native", "third_party"))
import find_mujoco  # noqa: E402


def make_mujoco(folder: str, version: str) -> str:
    """A folder laid out as the mujoco wheel's package: headers and the library."""
    os.makedirs(os.path.join(folder, "include", "mujoco"))
    open(os.path.join(folder, "include", "mujoco", "mujoco.h"), "w").close()
    open(os.path.join(folder, f"libmujoco.so.{version}"), "w").close()
    return folder


def test_the_requirement_is_the_packages_dependency() -> None:
    """CMake's requirement for the build is pyproject's runtime dependency: the extension
    must link against the library pip installs beside it."""
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        deps = re.search(r"^dependencies = \[(.*?)^\]", f.read(), re.S | re.M).group(1)
    runtime = re.search(r'"(mujoco[^"]*)"', deps).group(1)
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        build = re.search(r'set\(ENVPOOL_MUJOCO_REQUIREMENT "([^"]*)"', f.read()).group(1)
    assert build == runtime


def test_a_folder_counts_with_headers_and_library(tmp_path) -> None:
    assert find_mujoco.complete(str(tmp_path)) is None
    folder = make_mujoco(str(tmp_path / "mujoco"), "3.17.0")
    assert find_mujoco.complete(folder) == "libmujoco.so.3.17.0"
    os.remove(os.path.join(folder, "include", "mujoco", "mujoco.h"))
    assert find_mujoco.complete(folder) is None


@pytest.mark.parametrize(("version", "ok"), [("3.16.0", False), ("3.17.0", True),
                                             ("3.99.1", True), ("4.0.0", False)])
def test_an_installed_mujoco_pip_would_replace_is_passed_over(version: str, ok: bool) -> None:
    assert find_mujoco.satisfies(f"libmujoco.so.{version}", "mujoco>=3.17,<4") is ok
