"""The env list of the docs site (docs/envs.md), generated from the registry and the align tests.

    python scripts/env_table.py           # rewrite docs/envs.md
    python scripts/env_table.py --check   # exit 1 if the committed page is stale

One row per id of ``envpool.list_all_envs()``, grouped by family (the ``envpool.tasks`` module
that registers it): the native env, the spaces of one env, the time limit, and the alignment
tests that cover the id. Coverage is read from the tests themselves by collecting
tests/test_align_*.py with pytest: a test covers an id when one of its parameters is the id
(or its name without the version, such as an Atari game, when only one id has that name), or,
for a test without such a parameter, when its function name spells that name
(``test_taxi_...`` covers Taxi-v3 when Taxi-v3 is the only Taxi id).

The spaces come from ``envpool.make_spec``, which builds one env of each id (MuJoCo models
load: some 800 of them). ``--check`` takes the spaces of the ids the committed page lists from
it and builds only new ids', checking the ids, families, time limits and the align tests'
coverage (the default suite; the spaces themselves are the alignment tests' to check); with
``ENVPOOL_SWEEP=all`` (the nightly) it builds every id, as the rewrite does.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import io
import os
import pathlib
import pkgutil
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import gymnasium
import pytest

import envpool
import envpool.tasks
from envpool.core import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "envs.md"
ALIGN_TESTS = sorted((ROOT / "tests").glob("test_align_*.py"))
FAMILY_TITLES = {"atari": "Atari", "box2d": "Box2D", "classic_control": "Classic control",
                 "dm_control": "DeepMind Control Suite", "metaworld": "Meta-World",
                 "minigrid": "MiniGrid", "mujoco": "MuJoCo", "myosuite": "MyoSuite",
                 "robotics": "Gymnasium-Robotics: Fetch",
                 "robotics_adroit": "Gymnasium-Robotics: Adroit",
                 "robotics_hand": "Gymnasium-Robotics: Shadow Hand",
                 "robotics_kitchen": "Gymnasium-Robotics: Franka Kitchen",
                 "robotics_maze": "Gymnasium-Robotics: mazes",
                 "toy_text": "Toy text", "vizdoom": "ViZDoom"}
_VERSION = re.compile(r"-v\d+$")


def families() -> dict[str, str]:
    """task id -> the ``envpool.tasks`` module that registers it.

    Each module is executed once more into a fresh namespace with ``register`` recording the
    ids it is called with, so the real registry is not touched."""
    found: dict[str, str] = {}
    for info in pkgutil.iter_modules(envpool.tasks.__path__):
        spec = importlib.util.find_spec(f"envpool.tasks.{info.name}")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)

        def record(task_id: str, *args: Any, _family: str = info.name, **kwargs: Any) -> None:
            found.setdefault(task_id, _family)

        with mock.patch.object(registry, "register", record):
            spec.loader.exec_module(module)
    return found


@dataclass
class AlignTest:
    """One test function of a tests/test_align_*.py file and the ids its items cover."""

    file: str
    name: str
    ids: set[str] = field(default_factory=set)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _names(ids: list[str]) -> dict[str, str]:
    """An id's name without its version -> the id, for the names only one id has."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for task_id in ids:
        by_name[_VERSION.sub("", task_id)].append(task_id)
    return {name: group[0] for name, group in by_name.items() if len(group) == 1}


def _named_in(function: str, names: dict[str, str]) -> set[str]:
    """Ids whose name is spelled by consecutive words of a test function's name."""
    words = function.split("_")[1:]
    lowered = {name.lower(): task_id for name, task_id in names.items()}
    return {lowered[joined] for i in range(len(words)) for j in range(i + 1, len(words) + 1)
            if (joined := "".join(words[i:j])) in lowered}


class _Collector:
    """A pytest plugin that keeps the collected items."""

    def __init__(self) -> None:
        self.items: list[pytest.Item] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.items = list(session.items)


def align_coverage(ids: list[str], family: dict[str, str]) -> list[AlignTest]:
    """Every align test function, with the ids its parametrization (or name) covers.

    Names without versions are looked up among the ids of the test file's family
    (tests/test_align_<family>.py; all ids for other files): Blackjack is a toy-text env and
    an Atari game."""
    collector = _Collector()
    args = ["--collect-only", "-q", "-p", "no:cacheprovider", f"--rootdir={ROOT}",
            *map(str, ALIGN_TESTS)]
    # every id of the per-id sweeps (the default suite samples them by date: tests/conftest.py)
    with contextlib.redirect_stdout(io.StringIO()) as out, \
            mock.patch.dict(os.environ, {"ENVPOOL_SWEEP": "all"}):
        code = pytest.main(args, plugins=[collector])
    if code != 0:
        raise RuntimeError(f"collecting the align tests failed ({code}):\n{out.getvalue()}")
    known = set(ids)
    tests: dict[tuple[str, str], AlignTest] = {}
    for item in collector.items:
        scope = item.path.stem.removeprefix("test_align_")
        names = _names([t for t in ids if family.get(t) == scope] or ids)
        function = getattr(item, "originalname", item.name)
        test = tests.setdefault((item.path.name, function), AlignTest(item.path.name, function))
        callspec = getattr(item, "callspec", None)
        params = [s for v in (callspec.params.values() if callspec else ()) for s in _strings(v)]
        covered = {p if p in known else names[p] for p in params if p in known or p in names}
        test.ids |= covered or _named_in(function, names)
    return list(tests.values())


def _space(space: gymnasium.Space) -> str:
    if isinstance(space, gymnasium.spaces.Discrete):
        return f"Discrete({space.n})"
    if isinstance(space, gymnasium.spaces.Box):
        return f"Box{tuple(space.shape)} {space.dtype}"
    if isinstance(space, gymnasium.spaces.Dict):
        return "Dict(" + ", ".join(
            f"{k} {_space(s) if isinstance(s, gymnasium.spaces.Dict) else tuple(s.shape)}"
            for k, s in space.items()) + ")"
    return str(space)


def _docstring_summary(path: pathlib.Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    return " ".join(doc.split("\n\n")[0].split())


def committed_spaces() -> dict[str, tuple[str, str]]:
    """Each id's observation and action columns as the committed docs/envs.md has them."""
    spaces: dict[str, tuple[str, str]] = {}
    for line in DOC.read_text().splitlines() if DOC.is_file() else ():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6:
            spaces[cells[0]] = (cells[2], cells[3])
    return spaces


def page(known: dict[str, tuple[str, str]] | None = None) -> str:
    """The text of docs/envs.md.

    ``known``: spaces to take as they are for the ids it has (None: every id's are built;
    ids not in it are built either way)."""
    ids = envpool.list_all_envs()  # before collecting: the tests' conftest registers a test id
    family = families()
    tests = align_coverage(ids, family)
    covering: dict[str, list[AlignTest]] = defaultdict(list)
    for test in tests:
        for task_id in test.ids:
            covering[task_id].append(test)
    by_family: dict[str, list[str]] = defaultdict(list)
    for task_id in ids:
        by_family[family.get(task_id, "other")].append(task_id)

    out = [
        "# All environments",
        "",
        "<!-- Generated by scripts/env_table.py from envpool.list_all_envs() and the align tests;"
        " do not edit: run python scripts/env_table.py -->",
        "",
        f"{len(ids)} task ids in {len(by_family)} families, as `envpool.list_all_envs()` lists "
        "them. The spaces are one env's (EnvPool's contract; `gymnasium.make_vec` batches "
        "them). *Aligned by* names the alignment tests (`tests/test_align_*.py`, default "
        "suite) that run this id against its reference; the tests are described at the end. "
        "An id with no such test shares its native env with ids that have one (an Atari game "
        "runs the same emulator and preprocessing as the games under test) or is checked by "
        "a test that covers a whole family (registration, keywords, defaults). Regenerate with "
        "`python scripts/env_table.py`; `tests/test_env_table.py` checks the page is current.",
        "",
        "| family | ids | ids with an align test |",
        "|---|---:|---:|",
    ]
    for name, members in by_family.items():
        title = FAMILY_TITLES.get(name, name)
        n_covered = sum(1 for t in members if covering[t])
        out.append(f"| [{title}](#{name.replace('_', '-')}) | {len(members)} | {n_covered} |")
    spaces: dict[tuple[str, str, str], tuple[str, str]] = {}
    built_native: set[str] = set()
    for name, members in by_family.items():
        title = FAMILY_TITLES.get(name, name)
        out += ["", f"## {title} {{#{name.replace('_', '-')}}}", ""]
        if (ROOT / "docs" / f"{name}.md").is_file():
            out += [f"Keywords, defaults and details: [{title}]({name}.md).", ""]
        out += ["| id | native env | observation | action | max steps | aligned by |",
                "|---|---|---|---|---:|---|"]
        for task_id in members:
            task = registry.get_task(task_id)
            # Ids registered with the same native env and keywords (sail-sg EnvPool's
            # spellings of an id: MyoSuite/<id>) have the same spaces: made once.
            key = (task.native_env, repr(sorted(task.env_kwargs.items())),
                   task.prepare.__qualname__ if task.prepare else "")
            if key not in spaces and known is not None and task_id in known:
                spaces[key] = known[task_id]
            if key not in spaces:
                built_native.add(task.native_env)
                try:
                    spec = envpool.make_spec(task_id)
                    spaces[key] = (_space(spec.observation_space), _space(spec.action_space))
                except ValueError as e:  # ids that need a keyword (a scenario file) to exist
                    spaces[key] = (f"set by the keywords ({str(e).split(':')[0]})",) * 2
            obs, act = spaces[key]
            aligned = ", ".join(f"`{n}`" for n in sorted(t.name for t in covering[task_id]))
            steps = task.max_episode_steps or "-"
            out.append(f"| {task_id} | {task.native_env} | {obs} | {act} | {steps} "
                       f"| {aligned or '-'} |")
    out += ["", "## The alignment tests", "",
            "| file | what it checks | tests naming ids |", "|---|---|---|"]
    for path in ALIGN_TESTS:
        named = [f"`{n}`" for n in sorted(t.name for t in tests if t.file == path.name and t.ids)]
        out.append(f"| `tests/{path.name}` | {_docstring_summary(path)} | "
                   f"{', '.join(named) or '-'} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if docs/envs.md is stale")
    args = p.parse_args(argv)
    every = not args.check or os.environ.get("ENVPOOL_SWEEP") == "all"
    new = page(None if every else committed_spaces())
    if args.check:
        if not DOC.is_file() or DOC.read_text() != new:
            print(f"{DOC} is stale: run python scripts/env_table.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
