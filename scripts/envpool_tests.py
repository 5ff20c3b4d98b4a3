#!/usr/bin/env python3
"""Run sail-sg EnvPool's own test files, as written, against the installed envpool.

    python scripts/envpool_tests.py --tests DIR [--only REGEX] [--timeout S] [--check]

``DIR`` holds EnvPool's tests in its repository's layout (``envpool/<family>/*_test.py``): a
checkout of sail-sg/envpool (the nightly workflow checks out the commit docs/compatibility.md
names) or a copy of its test files. The files are the in-scope ones of docs/compatibility.md's
table. Each runs as ``python FILE`` would (its own ``absltest.main()``), in a fresh working
folder, with absltest's JUnit XML report; three test-support modules that EnvPool's Bazel
targets depend on but its wheel does not ship (``envpool.mujoco.pixel_observation_test_utils``,
``envpool.atari.atari_network``, ``envpool.minigrid.babyai_test_utils``) are loaded from
``DIR`` when a test imports them. Nothing in a test is changed.

Prints, per file, the tests run, passed and failed, and the count the table documents;
``--check`` exits non-zero when a file passes fewer tests than documented (a regression).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "compatibility.md"

# Runs one test file as `python FILE` does, with the support modules found in the tests' tree.
_BOOT = r"""
import importlib.abc, importlib.util, os, runpy, sys
file, xml, tree = sys.argv[1:4]
SUPPORT = ("envpool.mujoco.pixel_observation_test_utils", "envpool.atari.atari_network",
           "envpool.minigrid.babyai_test_utils")

class Support(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name not in SUPPORT:
            return None
        where = os.path.join(tree, *name.split(".")) + ".py"
        return importlib.util.spec_from_file_location(name, where)

sys.meta_path.insert(0, Support())
sys.argv = [file, "--xml_output_file=" + xml]
sys.path[0] = os.path.dirname(file)
runpy.run_path(file, run_name="__main__")
"""


def documented() -> dict[str, int]:
    """docs/compatibility.md's table: test file (under envpool/) -> tests passing here."""
    rows = {}
    for line in TABLE.read_text().splitlines():
        m = re.match(r"\| ([\w/]+_test\.py) \| (\d+) \| (\d+) \| (\d+) \|", line)
        if m:
            rows[m.group(1)] = int(m.group(4))
    return rows


def run_file(tree: Path, rel: str, timeout: float) -> tuple[int, int, str]:
    """(tests run, tests passed, a note) of one file."""
    with tempfile.TemporaryDirectory(prefix="envpool-tests-") as work:
        xml = os.path.join(work, "report.xml")
        try:
            proc = subprocess.run(
                [sys.executable, "-c", _BOOT, str(tree / "envpool" / rel), xml, str(tree)],
                cwd=work, capture_output=True, text=True, timeout=timeout,
                env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        except subprocess.TimeoutExpired:
            return 0, 0, f"timed out after {timeout:.0f} s"
        if not os.path.exists(xml):
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            return 0, 0, f"no report (exit {proc.returncode}): {last[:200]}"
        # One entry per test method and one more per subTest ("name (task_id=...)"): a
        # method passes when it and all its subtests do.
        ok: dict[tuple[str, str], bool] = {}
        for case in ET.parse(xml).getroot().iter("testcase"):
            method = (case.get("classname", ""), case.get("name", "").split(" ")[0])
            bad = (case.find("failure") is not None or case.find("error") is not None
                   or case.get("result", "completed") != "completed")
            ok[method] = ok.get(method, True) and not bad
        return len(ok), sum(ok.values()), ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests", required=True, type=Path, help="EnvPool's tests (repo layout)")
    ap.add_argument("--only", default="", help="only the files matching this regex")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per file")
    ap.add_argument("--check", action="store_true",
                    help="fail when a file passes fewer tests than documented")
    ap.add_argument("--jobs", type=int, default=1, help="files run side by side")
    a = ap.parse_args()
    a.tests = a.tests.resolve()  # (each file runs in a working folder of its own)
    table = documented()
    files = [f for f in table if re.search(a.only, f)]
    if not files:
        ap.error("no test file selected")
    print(f"{'file (under envpool/)':<56} {'run':>4} {'pass':>5} {'doc':>4}  secs")
    worse = []
    total_pass = 0
    def one(rel: str) -> tuple[int, int, str, float]:
        start = time.monotonic()
        if not (a.tests / "envpool" / rel).exists():
            return 0, 0, "not in the tests' tree", 0.0
        return (*run_file(a.tests, rel, a.timeout), time.monotonic() - start)

    # Each file runs in a process of its own; the table keeps the files' order.
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        results = list(pool.map(one, files))
    for rel, (run, passed, note, seconds) in zip(files, results, strict=True):
        total_pass += passed
        flag = "  FEWER THAN DOCUMENTED" if passed < table[rel] else ""
        if flag:
            worse.append(rel)
        print(f"{rel:<56} {run:>4} {passed:>5} {table[rel]:>4}  {seconds:4.0f}"
              f"{flag}{'  (' + note + ')' if note else ''}", flush=True)
    print(f"{'total':<56} {'':>4} {total_pass:>5} {sum(table[f] for f in files):>4}")
    if a.check and worse:
        print(f"fewer tests pass than docs/compatibility.md says in: {', '.join(worse)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
