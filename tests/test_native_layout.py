"""The layout of the native code: shared code in native/envs/common/, small core files.

* A family's folder (native/envs/<family>/) includes headers of its own folder and of
  native/envs/common/ only: code that two families use lives in common/, never in one of
  them. The one exception is a task that extends another family's task, listed in
  ``EXTENDS`` with the reason.
* native/envs/common/ includes no family's folder.
* No file of the pool core (native/core/) is longer than ``CORE_MAX_LINES``: the core is
  split into its stages, one file each (native/core/pool.h lists them).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENVS = ROOT / "native" / "envs"
CORE = ROOT / "native" / "core"

CORE_MAX_LINES = 400

# (including file, included file), both relative to native/envs/: includes across families
# that are a task built on another family's task.
EXTENDS: dict[tuple[str, str], str] = {
    # Gymnasium-Robotics' AntMaze runs gymnasium's Ant (its body, actuators and
    # observation) inside a maze: the Ant task extended, not code shared by two families.
    ("robotics/ant_maze.h", "mujoco/ant.h"): "Ant Maze extends gymnasium's Ant",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"envs/([^"]+)"', re.MULTILINE)


def native_sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in (".h", ".cc"))


def cross_family_includes(envs: Path) -> list[str]:
    """``file: #include "envs/..."`` for every include of another family's folder (or, from
    common/, of any family's) that ``EXTENDS`` does not list."""
    found = []
    for path in native_sources(envs):
        rel = path.relative_to(envs).as_posix()
        family = rel.split("/", 1)[0]
        for included in INCLUDE.findall(path.read_text(encoding="utf-8")):
            target = included.split("/", 1)[0]
            if target in (family, "common") or (rel, included) in EXTENDS:
                continue
            found.append(f'{rel}: #include "envs/{included}"')
    return found


def long_core_files(core: Path, limit: int = CORE_MAX_LINES) -> list[str]:
    """``file: N lines`` for every file of the core longer than ``limit`` lines."""
    found = []
    for path in native_sources(core):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.name}: {lines} lines")
    return found


def test_no_family_includes_another_familys_folder() -> None:
    found = cross_family_includes(ENVS)
    assert not found, ("code shared by families goes in native/envs/common/ (or, for a task "
                       "that extends another family's, in EXTENDS with the reason):\n"
                       + "\n".join(found))


def test_the_allowed_extensions_are_still_there() -> None:
    for including, included in EXTENDS:
        text = (ENVS / including).read_text(encoding="utf-8")
        assert f'#include "envs/{included}"' in text, (
            f"{including} no longer includes {included}: drop it from EXTENDS")


def test_core_files_are_small() -> None:
    found = long_core_files(CORE)
    assert not found, (f"native/core files over {CORE_MAX_LINES} lines (split them along the "
                       "pool's stages, native/core/pool.h):\n" + "\n".join(found))


@pytest.mark.parametrize(("family", "text", "caught"), [
    ("box2d", '#include "envs/classic_control/cartpole.h"\n', True),
    ("common", '#include "envs/mujoco/ant.h"\n', True),
    ("box2d", '#include "envs/common/draw/raster.h"\n#include "envs/box2d/pybox2d.h"\n', False),
    ("robotics", '#include "envs/mujoco/ant.h"\n', True),  # only ant_maze.h may
])
def test_the_scan_catches_a_cross_family_include(tmp_path: Path, family: str, text: str,
                                                 caught: bool) -> None:
    (tmp_path / family).mkdir()
    (tmp_path / family / "env.h").write_text(text)
    assert bool(cross_family_includes(tmp_path)) == caught


def test_the_scan_catches_a_long_core_file(tmp_path: Path) -> None:
    (tmp_path / "small.cc").write_text("x\n" * CORE_MAX_LINES)
    assert long_core_files(tmp_path) == []
    (tmp_path / "stage.h").write_text("x\n" * (CORE_MAX_LINES + 1))
    assert long_core_files(tmp_path) == [f"stage.h: {CORE_MAX_LINES + 1} lines"]
