#!/usr/bin/env python3
"""Find MuJoCo's C headers and shared library for CMake's configure step.

The extension links against the ``libmujoco.so.<version>`` of the ``mujoco`` wheel, the
library that the installed ``mujoco`` package loads at run time (the extension finds it
through ``$ORIGIN/../mujoco``). Where the headers and the library come from, first found:

1. the ``mujoco`` package this interpreter imports (a dev build, ``--no-build-isolation``);
2. a ``mujoco`` package in one of the ``--search`` folders (CMake passes the target
   environment's site-packages: a reinstall links against the mujoco already there, the
   one that stays installed);
3. the wheel that pip would install for ``--requirement``, fetched without its
   dependencies and unpacked (headers and library only) once into
   ``$ENVPOOL_CACHE_DIR or ~/.cache/envpool / mujoco-<version>-<tag>``. A fresh
   ``pip install .`` gets here: the isolated build environment does not install mujoco
   (with numpy and its other dependencies that took about 9 s of a fresh install on 2
   cores), and pip installs the same wheel into the target environment afterwards.

Prints the folder (holding ``include/mujoco`` and ``libmujoco.so.*``) on its last line.
Exits non-zero with the reason when none is found.

Usage: find_mujoco.py --requirement 'mujoco>=3.17,<4' [--search DIR ...]
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import sys
import tempfile
import zipfile

import pip_fetch  # native/third_party/pip_fetch.py


def complete(folder: str) -> str | None:
    """The library's file name when ``folder`` holds MuJoCo's headers and library."""
    libs = sorted(glob.glob(os.path.join(folder, "libmujoco.so.*")))
    if libs and os.path.isfile(os.path.join(folder, "include", "mujoco", "mujoco.h")):
        return os.path.basename(libs[-1])
    return None


def satisfies(lib: str, requirement: str) -> bool:
    """Whether the library's version (``libmujoco.so.3.17.0``) meets the requirement: an
    installed mujoco that pip is about to replace is not the one to link against."""
    try:
        from packaging.requirements import Requirement  # noqa: PLC0415
    except ImportError:  # scikit-build-core brings packaging; without it, trust the folder
        return True
    return Requirement(requirement).specifier.contains(lib[len("libmujoco.so."):],
                                                      prereleases=True)


def from_wheel(requirement: str, cache_dir: str) -> str:
    """Fetch the wheel, unpack its headers and library into the cache; the folder."""
    os.makedirs(cache_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="envpool-mujoco-") as tmp:
        wheel = pip_fetch.download(["--only-binary", ":all:", requirement], tmp, "mujoco-*.whl")
        # mujoco-3.17.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
        parts = os.path.basename(wheel)[: -len(".whl")].split("-")
        prefix = os.path.join(cache_dir, f"mujoco-{parts[1]}-{parts[-1].split('.')[0]}")
        if complete(prefix):
            return prefix
        staging = tempfile.mkdtemp(prefix=os.path.basename(prefix) + ".", dir=cache_dir)
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                if name.startswith("mujoco/include/") or (
                        name.startswith("mujoco/libmujoco.so.") and name.count("/") == 1):
                    z.extract(name, staging)
        os.chmod(staging, 0o755)
        try:
            os.replace(os.path.join(staging, "mujoco"), prefix)
        except OSError:  # another build put it there first
            if not complete(prefix):
                raise
        shutil.rmtree(staging, ignore_errors=True)
        return prefix


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requirement", required=True)
    ap.add_argument("--search", nargs="*", default=[])
    ap.add_argument("--cache-dir", default=os.environ.get(
        "ENVPOOL_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "envpool")))
    a = ap.parse_args()
    candidates = []
    try:
        import mujoco  # noqa: PLC0415

        candidates.append(os.path.dirname(mujoco.__file__))
    except ImportError:
        pass
    candidates += [os.path.join(d, "mujoco") for d in a.search if d]
    for folder in candidates:
        lib = complete(folder)
        if lib and satisfies(lib, a.requirement):
            print(folder)
            return
    folder = from_wheel(a.requirement, a.cache_dir)
    if complete(folder) is None:
        raise SystemExit(f"the mujoco wheel unpacked into {folder} has no headers or library")
    print(folder)


if __name__ == "__main__":
    sys.exit(main())
