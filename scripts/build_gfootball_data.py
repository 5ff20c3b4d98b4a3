#!/usr/bin/env python3
"""Build the ``envpool-ng-gfootball-data`` wheel: the data of Google Research Football's engine.

envpool-ng's gfootball envs need the engine's data (``data/``: animations, the player database,
about 88 MB unpacked), its font and the scenarios recorded from the package's scenario files
(``scenarios.json``). They come from the gfootball 2.10.2 sdist and are the same on every
platform and Python, so they ship once, as a pure wheel of their own, instead of in every
binary wheel of envpool-ng (the ``gfootball`` extra installs it). Its import package is
``envpool_gfootball_data`` (the folder holding ``data/``, ``fonts/``, ``scenarios.json``).

The files come from an engine build's cache (``--engine-prefix``: the folder
native/third_party/build_gfootball.py printed, which holds them already), else from the sdist,
fetched through pip and staged as that script stages them (no compiler needed).

Usage: build_gfootball_data.py --out DIR [--engine-prefix DIR] [--version 2.10.2]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import shutil
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "native", "third_party"))

import build_gfootball  # noqa: E402  (native/third_party/build_gfootball.py)
import pip_fetch  # noqa: E402

DIST = "envpool-ng-gfootball-data"
PACKAGE = "envpool_gfootball_data"
# The wheel's licence files, from licenses/ (the engine's, the package's, the font's).
LICENSES = ("GameplayFootball-Unlicense.txt", "gfootball-Apache-2.0.txt", "Alegreya-OFL-1.1.txt")

INIT = '''"""The data of Google Research Football's engine for envpool-ng's gfootball envs.

``DATA_DIR`` holds ``data/`` (the engine's animations, player database, ...), ``fonts/`` and
``scenarios.json`` (each scenario of gfootball {version} as its scenario file builds it), all
from the gfootball {version} sdist. envpool-ng finds this package by itself.
"""

from pathlib import Path

GFOOTBALL_VERSION = "{version}"
DATA_DIR = Path(__file__).resolve().parent
'''


def metadata(version: str) -> str:
    lines = [
        "Metadata-Version: 2.4",
        f"Name: {DIST}",
        f"Version: {version}",
        "Summary: The data of Google Research Football's engine (gfootball "
        f"{version}) for envpool-ng",
        "License-Expression: Unlicense AND Apache-2.0 AND OFL-1.1",
        *(f"License-File: {name}" for name in LICENSES),
        "Requires-Python: >=3.10",
        "",
        "The engine data, font and scenarios of Google Research Football (the gfootball "
        f"{version} sdist), for the gfootball envs of envpool-ng (`pip install "
        "\"envpool-ng[gfootball]\"`).",
    ]
    return "\n".join(lines) + "\n"


def record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def write_wheel(staged: str, out: str, version: str) -> str:
    dist_info = f"{DIST.replace('-', '_')}-{version}.dist-info"
    path = os.path.join(out, f"{DIST.replace('-', '_')}-{version}-py3-none-any.whl")
    records: list[str] = []
    # Fixed timestamps and order: the same sdist gives the same wheel.
    with zipfile.ZipFile(path + ".partial", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:

        def add(arcname: str, data: bytes) -> None:
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            records.append(record_line(arcname, data))

        add(f"{PACKAGE}/__init__.py", INIT.format(version=version).encode())
        for folder, dirs, files in os.walk(staged):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, staged).replace(os.sep, "/")
                with open(full, "rb") as f:
                    add(f"{PACKAGE}/{rel}", f.read())
        for text in LICENSES:
            with open(os.path.join(ROOT, "licenses", text), "rb") as f:
                add(f"{dist_info}/licenses/{text}", f.read())
        add(f"{dist_info}/METADATA", metadata(version).encode())
        add(f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: envpool-ng "
            b"scripts/build_gfootball_data.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        add(f"{dist_info}/top_level.txt", f"{PACKAGE}\n".encode())
        record = "\n".join([*records, f"{dist_info}/RECORD,,"]) + "\n"
        info = zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        z.writestr(info, record, compress_type=zipfile.ZIP_DEFLATED)
    os.replace(path + ".partial", path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--engine-prefix", help="an engine build's folder (build_gfootball.py)")
    ap.add_argument("--version", default="2.10.2")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="envpool-gfootball-data-") as tmp:
        staged = os.path.join(tmp, "staged")
        if a.engine_prefix:
            os.makedirs(staged)
            for name in ("data", "fonts"):
                shutil.copytree(os.path.join(a.engine_prefix, name), os.path.join(staged, name))
            shutil.copy2(os.path.join(a.engine_prefix, "scenarios.json"), staged)
        else:  # (stage_data's LICENSE.engine and LICENSE.package go in the dist-info instead)
            sdist = pip_fetch.download(["--no-binary=gfootball", f"gfootball=={a.version}"],
                                       tmp, f"gfootball-{a.version}.tar.gz")
            pip_fetch.unpack(sdist, tmp, build_gfootball.is_data_member)
            roots = [os.path.join(tmp, d) for d in os.listdir(tmp)
                     if d.startswith("gfootball-") and os.path.isdir(os.path.join(tmp, d))]
            if len(roots) != 1:
                raise SystemExit(f"{sdist}: not one gfootball-* folder")
            os.makedirs(staged)
            build_gfootball.stage_data(roots[0], staged)
            for name in ("LICENSE.engine", "LICENSE.package"):
                os.remove(os.path.join(staged, name))
        print(write_wheel(staged, a.out, a.version))


if __name__ == "__main__":
    main()
