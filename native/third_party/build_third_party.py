#!/usr/bin/env python3
"""Run build_ale.py, build_vizdoom.py, build_box2d.py, build_gfootball.py and find_mujoco.py
side by side, for
CMake's configure step.

The builds are independent, and none keeps both cores busy all the time: the controller
compiles as one unit on one core, and each first fetches and unpacks its sources. Side by
side they take about the CPU time of all spread over the cores, instead of the sum of
their wall times. Each builder keeps its own cache and lock (a cached one
returns at once). find_mujoco.py, which may wait on pip for the mujoco wheel, runs beside
them too.

Writes a CMake script (``--cmake-out``) that sets, for each part asked for,
``<NAME>_RESULT`` (the builder's exit status), ``<NAME>_PREFIX`` (the prefix it printed on
its last line) and ``<NAME>_ERROR`` (the end of its stderr), NAME being ALE, VIZDOOM, BOX2D,
GFOOTBALL or MUJOCO;
the builders' stderr is also passed through as it comes, so ``pip install -v`` shows their
progress.

Usage: build_third_party.py --cxx /usr/bin/c++ --cmake-out FILE
       [--ale VERSION] [--vizdoom VERSION] [--box2d VERSION] [--gfootball VERSION]
       [--mujoco REQUIREMENT [--mujoco-search DIR ...]]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))


def cmake_quote(text: str) -> str:
    """A CMake bracket argument holding ``text`` verbatim."""
    level = "="
    while f"]{level}]" in text:
        level += "="
    return f"[{level}[{text}]{level}]"


def run(script: str, args: list[str], results: dict[str, tuple[int, str, str]],
        name: str) -> None:
    try:
        proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, script), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        results[name] = (1, "", f"could not start {script}: {e}")
        return
    err: list[str] = []
    assert proc.stderr is not None and proc.stdout is not None
    for line in proc.stderr:
        err.append(line)
        sys.stderr.write(line)
        sys.stderr.flush()
    out = proc.stdout.read()
    code = proc.wait()
    lines = out.strip().splitlines()
    results[name] = (code, lines[-1] if lines else "", "".join(err))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--cmake-out", required=True)
    ap.add_argument("--ale", metavar="VERSION")
    ap.add_argument("--vizdoom", metavar="VERSION")
    ap.add_argument("--box2d", metavar="VERSION")
    ap.add_argument("--gfootball", metavar="VERSION")
    ap.add_argument("--mujoco", metavar="REQUIREMENT")
    ap.add_argument("--mujoco-search", nargs="*", default=[], metavar="DIR")
    a = ap.parse_args()
    parts = [(name, script, args) for name, script, args in (
        ("ALE", "build_ale.py", a.ale and ["--version", a.ale, "--cxx", a.cxx]),
        ("VIZDOOM", "build_vizdoom.py", a.vizdoom and ["--version", a.vizdoom, "--cxx", a.cxx]),
        ("BOX2D", "build_box2d.py", a.box2d and ["--version", a.box2d, "--cxx", a.cxx]),
        ("GFOOTBALL", "build_gfootball.py",
         a.gfootball and ["--version", a.gfootball, "--cxx", a.cxx]),
        ("MUJOCO", "find_mujoco.py",
         a.mujoco and ["--requirement", a.mujoco, "--search", *a.mujoco_search])) if args]
    results: dict[str, tuple[int, str, str]] = {}
    threads = [threading.Thread(target=run, args=(script, args, results, name))
               for name, script, args in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(a.cmake_out, "w") as f:
        for name, (code, prefix, err) in results.items():
            f.write(f"set({name}_RESULT {code})\n")
            f.write(f"set({name}_PREFIX {cmake_quote(prefix)})\n")
            f.write(f"set({name}_ERROR {cmake_quote(err[-3000:])})\n")


if __name__ == "__main__":
    main()
