#!/usr/bin/env python3
"""Check a repaired envpool-ng wheel before it is installed or published.

``auditwheel repair`` vendors into ``envpool_ng.libs/`` every shared library the extension
modules link that the manylinux policy does not allow. This script checks that the wheel

* holds the three extension modules (``envpool/_native``, ``_atari``, ``_gfootball``) and the
  env SDK's headers and CMake config;
* vendors only libraries of THIRD_PARTY_NOTICES.md (``VENDORED`` below): a new one, which a
  change of the build or of the build machine's packages can bring, fails here until its
  licence is added;
* carries every licence text of ``licenses/`` (and LICENSE, NOTICE, THIRD_PARTY_NOTICES.md) in
  its ``.dist-info/licenses/``, and a ``License-Expression`` naming the licence of every
  component it holds;
* holds no data of the gfootball engine (that is the envpool-ng-gfootball-data package), no
  GL or SDL library (loaded at run time) and nothing of the checkout's tests;
* is under the registry's 100 MB file limit.

Usage: check_wheel.py WHEEL [--max-mb 100]
"""

from __future__ import annotations

import argparse
import email.parser
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The libraries auditwheel may vendor (by the name before auditwheel's hash), with the SPDX id
# of each and its text in licenses/.
VENDORED: dict[str, tuple[str, str]] = {
    "libz": ("Zlib", "zlib-Zlib.txt"),
    "libfreetype": ("FTL", "FreeType-FTL.txt"),
    "libpng16": ("libpng-2.0", "libpng-2.0.txt"),
    "libbrotlidec": ("MIT", "brotli-MIT.txt"),
    "libbrotlicommon": ("MIT", "brotli-MIT.txt"),
    "libbz2": ("bzip2-1.0.6", "bzip2-1.0.6.txt"),
    "libboost_filesystem": ("BSL-1.0", "Boost-BSL-1.0.txt"),
    "libboost_atomic": ("BSL-1.0", "Boost-BSL-1.0.txt"),
    "libboost_system": ("BSL-1.0", "Boost-BSL-1.0.txt"),
}
# Components compiled into the modules, always present.
COMPILED_IN = {"Apache-2.0", "GPL-2.0-only", "Zlib", "MIT", "BSD-3-Clause", "BSL-1.0",
               "Unlicense"}
MODULES = ("envpool/_native.", "envpool/_atari.", "envpool/_gfootball.")
# Never in the wheel: libraries loaded at run time from the system or another wheel.
FORBIDDEN_LIBS = re.compile(r"lib(EGL|GL|OpenGL|GLX|OSMesa|SDL2|mujoco)[-_.]")


def vendored_base(name: str) -> str:
    """``libfreetype-1a2b3c4d.so.6.18.3`` -> ``libfreetype``."""
    base = os.path.basename(name)
    m = re.match(r"^(.+?)-[0-9a-f]{8}\.", base)
    return m.group(1) if m else base.split(".so")[0]


def check(path: str, max_mb: float) -> list[str]:
    problems: list[str] = []
    size_mb = os.path.getsize(path) / 1e6
    if size_mb > max_mb:
        problems.append(f"the wheel is {size_mb:.1f} MB, over {max_mb} MB")
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        dist_info = sorted({n.split("/")[0] for n in names
                            if n.split("/")[0].endswith(".dist-info")})
        if len(dist_info) != 1:
            return problems + [f"expected one .dist-info folder, found {dist_info}"]
        meta = email.parser.Parser().parsestr(z.read(f"{dist_info[0]}/METADATA").decode())
        licenses_dir = f"{dist_info[0]}/licenses/"
        shipped = {n[len(licenses_dir):] for n in names if n.startswith(licenses_dir)}
    for module in MODULES:
        if not any(n.startswith(module) and n.endswith(".so") for n in names):
            problems.append(f"no extension module {module}*.so")
    for needed in ("envpool/include/core/pool.h", "envpool/include/bindings/pool_module.h",
                   "envpool/share/cmake/envpool/envpoolConfig.cmake", "envpool/py.typed"):
        if needed not in names:
            problems.append(f"{needed} is missing")
    if meta.get("Name") != "envpool-ng":
        problems.append(f"the distribution is named {meta.get('Name')!r}, not envpool-ng")
    expression = meta.get("License-Expression") or ""
    spdx = set(re.findall(r"[A-Za-z0-9.+-]+", expression)) - {"AND", "OR", "WITH"}
    needed_spdx = set(COMPILED_IN)
    vendored = [n for n in names if n.startswith("envpool_ng.libs/") and not n.endswith("/")]
    for lib in vendored:
        base = vendored_base(lib)
        if base not in VENDORED:
            problems.append(f"{lib}: a vendored library with no licence in THIRD_PARTY_NOTICES.md "
                            f"(add it to scripts/check_wheel.py's VENDORED and licenses/)")
            continue
        needed_spdx.add(VENDORED[base][0])
        if VENDORED[base][1] not in {os.path.basename(s) for s in shipped}:
            problems.append(f"{lib}: its licence text {VENDORED[base][1]} is not in {licenses_dir}")
    if not needed_spdx <= spdx:
        problems.append(f"License-Expression {expression!r} lacks {sorted(needed_spdx - spdx)}")
    repo_texts = {"LICENSE", "NOTICE", "THIRD_PARTY_NOTICES.md"} | {
        f"licenses/{f}" for f in os.listdir(os.path.join(ROOT, "licenses"))}
    missing = sorted(t for t in repo_texts if t not in shipped)
    if missing:
        problems.append(f"licence files missing from {licenses_dir}: {', '.join(missing)}")
    for n in names:
        if FORBIDDEN_LIBS.search(os.path.basename(n)):
            problems.append(f"{n}: loaded at run time, must not be in the wheel")
        if n.startswith("envpool/gfootball_data/"):
            problems.append(f"{n}: gfootball's data belongs to envpool-ng-gfootball-data")
            break
        if n.startswith(("tests/", "envpool/tests/")):
            problems.append(f"{n}: a test file in the wheel")
    return problems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheel")
    ap.add_argument("--max-mb", type=float, default=100.0)
    a = ap.parse_args()
    problems = check(a.wheel, a.max_mb)
    with zipfile.ZipFile(a.wheel) as z:
        libs = sorted(os.path.basename(n) for n in z.namelist()
                      if n.startswith("envpool_ng.libs/") and not n.endswith("/"))
    print(f"{os.path.basename(a.wheel)}: {os.path.getsize(a.wheel) / 1e6:.1f} MB; vendored: "
          f"{', '.join(libs) or 'none'}")
    if problems:
        print("\n".join(f"  problem: {p}" for p in problems), file=sys.stderr)
        sys.exit(1)
    print("  licences, modules and contents: ok")


if __name__ == "__main__":
    main()
