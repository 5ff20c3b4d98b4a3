#!/usr/bin/env python3
"""Prints the requirements of envpool-ng's ``[project]`` dependencies and of the extras named on
the command line (``envpool-ng[...]`` references resolved), one per line, for ``pip install -r``:
.ci/run installs them while the wheel builds, then the wheel itself with ``--no-deps``."""

from __future__ import annotations

import pathlib
import re
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pip's own copy of tomli
    from pip._vendor import tomli as tomllib


def requirements(extras: list[str]) -> list[str]:
    project = tomllib.loads((pathlib.Path(__file__).parents[1] / "pyproject.toml").read_text())
    project = project["project"]
    optional = project.get("optional-dependencies", {})
    out: list[str] = list(project["dependencies"])
    seen: set[str] = set()
    todo = list(extras)
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for req in optional[extra]:
            own = re.fullmatch(r"envpool-ng\[([^\]]+)\]", req.replace(" ", ""))
            if own:
                todo += own.group(1).split(",")
            else:
                out.append(req)
    return list(dict.fromkeys(out))


if __name__ == "__main__":
    print("\n".join(requirements(sys.argv[1:])))
