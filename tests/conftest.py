"""Shared fixtures: the `Faulty-v0` test task (a native env that can be slow or fail), and
`load_example`, which imports a script under examples/ as a module; and the sampling of the
per-id sweeps.

Per-id sweeps. A test marked ``@pytest.mark.sweep`` is parametrized over many task ids that
run the same native code. The nightly workflow runs each of them for every id
(``ENVPOOL_SWEEP=all``); the default suite keeps, of each such test, one id of every group
of ids that run the same code (the native env, with the keywords that choose between its code
paths: those with two to four values among its ids, such as MyoSuite's ``muscle_condition``
or a goal env's ``reward_type``) and ``sweep(extra=N)`` more (default 1), each drawn from
the date, so that the sample changes daily and is the same all day. A test of code in which
the keywords choose nothing (the registry's plumbing) says ``sweep(by="native")``: one id per
native env; a test of code that all its ids share (a renderer) ``sweep(by="none")``: one id,
and the extra ones. The header names the seed; ``ENVPOOL_SWEEP=<seed>`` reruns a day's
sample."""

from __future__ import annotations

import collections
import datetime
import functools
import importlib.util
import os
import pathlib
import random
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

# Headless OpenGL for the references' renderers (gymnasium's MujocoRenderer, dm_control's
# physics.render; dm_control picks its backend when first imported): EGL, as envpool's default.
os.environ.setdefault("MUJOCO_GL", "egl")

import envpool  # noqa: E402

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"

if "Faulty-v0" not in envpool.list_all_envs():
    envpool.register("Faulty-v0", "_Faulty", max_episode_steps=0)


@pytest.fixture
def load_example() -> Callable[[str], ModuleType]:
    """Imports ``examples/<relpath>`` as a module (the scripts are not a package)."""

    def load(relpath: str) -> ModuleType:
        path = EXAMPLES / relpath
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        # As `import` does: in sys.modules while it runs (dataclasses, flax's modules among
        # them, look a class's string annotations up there), and out again afterwards.
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
        finally:
            del sys.modules[spec.name]
        return module

    return load


def _sweep_seed() -> int | None:
    """None: every id (ENVPOOL_SWEEP=all); else the day's seed, or ENVPOOL_SWEEP's."""
    value = os.environ.get("ENVPOOL_SWEEP", "")
    if value == "all":
        return None
    return int(value) if value else int(datetime.date.today().strftime("%Y%m%d"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sweep(extra=1, by='code'): a per-id sweep, sampled in the default suite "
        "(tests/conftest.py)")
    config.addinivalue_line(
        "markers", "sweep_only(reason): runs only where every id runs (ENVPOOL_SWEEP=all, the "
        "nightly's sweep job); deselected from the default suite, which covers the same code "
        "more cheaply (reason says how)")


def pytest_report_header(config: pytest.Config) -> str:
    seed = _sweep_seed()
    if seed is None:
        return "per-id sweeps: every id (ENVPOOL_SWEEP=all)"
    return (f"per-id sweeps: sampled with seed {seed} (ENVPOOL_SWEEP={seed} repeats this sample, "
            "ENVPOOL_SWEEP=all runs every id)")


@functools.cache
def _code_keywords() -> dict[str, frozenset[str]]:
    """For each native env, the keywords that choose between its code paths: those whose
    values (strings, booleans, small integers) take two to four values among its ids."""
    from envpool.core.registry import all_tasks

    values: dict[str, dict[str, set[str]]] = collections.defaultdict(
        lambda: collections.defaultdict(set))
    for task in all_tasks().values():
        for key, value in task.env_kwargs.items():
            if isinstance(value, (str, bool, int)):
                values[task.native_env][key].add(repr(value))
    return {env: frozenset(k for k, v in keys.items() if 2 <= len(v) <= 4)
            for env, keys in values.items()}


def _code_group(item: pytest.Item) -> tuple[Any, ...]:
    """The ids of a sweep that run the same code share a group (see the module's docstring);
    a parametrization without a registered id is a group of its own."""
    from envpool.core.registry import all_tasks

    tasks = all_tasks()
    params = getattr(item, "callspec", None)
    for value in (params.params.values() if params else ()):
        if isinstance(value, str) and value in tasks:
            task = tasks[value]
            chosen = _code_keywords().get(task.native_env, frozenset())
            return (task.native_module.__name__, task.native_env,
                    tuple(sorted((k, repr(v)) for k, v in task.env_kwargs.items()
                                 if k in chosen)))
    return (item.nodeid,)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seed = _sweep_seed()
    if seed is None:
        return
    kept: list[pytest.Item] = []
    only: list[pytest.Item] = []
    for item in items:
        mark = item.get_closest_marker("sweep_only")
        if mark is None:
            kept.append(item)
        elif mark.args or mark.kwargs.get("reason"):
            only.append(item)
        else:
            raise ValueError(f"{item.nodeid}: sweep_only needs a reason")
    if only:
        config.hook.pytest_deselected(items=only)
        items[:] = kept
    sweeps: dict[str, list[pytest.Item]] = collections.defaultdict(list)
    for item in items:
        if item.get_closest_marker("sweep") is not None:
            sweeps[item.nodeid.split("[")[0]].append(item)
    dropped: set[str] = set()
    for function, members in sweeps.items():
        mark = members[0].get_closest_marker("sweep")
        extra = int(mark.kwargs.get("extra", 1)) if mark else 1
        by = str(mark.kwargs.get("by", "code")) if mark else "code"
        if by not in ("code", "native", "none"):
            raise ValueError(f"{function}: sweep(by={by!r}): 'code', 'native' or 'none'")
        rng = random.Random(f"{seed}:{function}")
        groups: dict[tuple[Any, ...], list[pytest.Item]] = collections.defaultdict(list)
        for item in members:
            group = _code_group(item) if by != "none" else ()
            groups[group[:2] if by == "native" else group].append(item)
        kept = {rng.choice(group).nodeid for group in groups.values()}
        rest = [i.nodeid for i in members if i.nodeid not in kept]
        kept |= set(rng.sample(rest, min(extra, len(rest))))
        dropped |= {i.nodeid for i in members if i.nodeid not in kept}
    if dropped:
        config.hook.pytest_deselected(items=[i for i in items if i.nodeid in dropped])
        items[:] = [i for i in items if i.nodeid not in dropped]


# Packages that the test extra does not install: the references metaworld and myosuite pin an
# older mujoco (they go in with --no-deps) and gfootball is built from source; the frameworks
# come with their own extras (all of them: pip install -e ".[all]"). Where one is missing, a
# test file that imports it at its top is skipped, and so is a test that fails because of it
# (a ModuleNotFoundError naming it, or an error that gives its install line), each with the
# install line as the reason. .ci/run installs them all and sets ENVPOOL_REQUIRE_REFERENCES=1,
# under which nothing is skipped this way: such a test fails.
_REFERENCES = {
    "metaworld": "pip install --no-deps metaworld==3.1.1",
    "myosuite": "pip install --no-deps myosuite==2.12.2",
    "gfootball": "python scripts/build_gfootball_reference.py",
    # procgen's images (and the oracle's game library): its wheel, unpacked into the cache
    "procgen": "python -m envpool --procgen-assets",
    "torch": "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu",
    "stable_baselines3": "pip install -e '.[sb3]'",
    "tianshou": "pip install -e '.[tianshou]'",
    "rl_games": "pip install -e '.[rl-games]'",
    "acme": "pip install -e '.[acme]'",
    "ray": "pip install ray[rllib]==2.60.0 (in a venv of its own: docs/rllib.md)",
    "shimmy": "pip install -e '.[bench]'",
}


def _with_install_line(message: str) -> str:
    """pytest.importorskip's "could not import 'X'" with X's install line, where known."""
    found = re.search(r"could not import '([^']+)'", message)
    top = found.group(1).split(".")[0] if found else ""
    return f"{message}: {_REFERENCES[top]}" if top in _REFERENCES else message


def _requiring() -> bool:
    return os.environ.get("ENVPOOL_REQUIRE_REFERENCES") == "1"


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ValueError:  # sys.modules[name] is None: an import of it was blocked
        return False


class _OptionalImportsModule(pytest.Module):
    """A test module whose import failing for a missing package of ``_REFERENCES`` (directly
    or through the project's own modules) is skipped with the install line."""

    def collect(self) -> Any:
        try:
            return super().collect()
        except pytest.skip.Exception as skip:  # a module-level importorskip
            raise pytest.skip.Exception(_with_install_line(skip.msg),
                                        allow_module_level=True) from None
        except self.CollectError as error:
            found = re.search(r"No module named '([^']+)'", str(error))
            top = found.group(1).split(".")[0] if found else ""
            if top in _REFERENCES and not _installed(top) and not _requiring():
                raise pytest.skip.Exception(
                    f"{top} is not installed: {_REFERENCES[top]} (docs/testing.md)",
                    allow_module_level=True) from None
            raise


def pytest_pycollect_makemodule(module_path: pathlib.Path, parent: Any) -> pytest.Module:
    return _OptionalImportsModule.from_parent(parent, path=module_path)


def _missing_package(error: BaseException) -> str | None:
    """Why ``error`` comes from a package of ``_REFERENCES`` that is not installed, or None."""
    if isinstance(error, ModuleNotFoundError) and error.name:
        top = error.name.split(".")[0]
        if top in _REFERENCES and not _installed(top):
            return f"{top} is not installed: {_REFERENCES[top]} (docs/testing.md)"
    text = str(error)
    for top, line in _REFERENCES.items():
        if line in text and not _installed(top):
            return f"{top} is not installed: {line} (docs/testing.md)"
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.skipped and isinstance(report.longrepr, tuple):
        path, line, message = report.longrepr
        report.longrepr = (path, line, _with_install_line(message))
    if report.failed and call.excinfo is not None and not _requiring():
        reason = _missing_package(call.excinfo.value)
        if reason is not None:
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {reason}")
    return report
