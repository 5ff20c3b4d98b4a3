"""The GitHub workflows (.github/workflows/) are valid and run what the project has.

* Both files validate against GitHub's workflow schema, and the composite action they share
  (.github/actions/native-cache, the ~/.cache/envpool cache) against the action schema
  (check-jsonschema's vendored copies, so offline); every job has a runner, and every
  ``${{ matrix.<key> }}`` and ``${{ steps.<id>.* }}`` a job (or the action) uses exists there.
  (actionlint would check more, but its PyPI wrapper downloads the binary from GitHub at
  install time, which a registry-only install cannot do.)
* ci.yml runs the README's test command, ``bash .ci/run``.
* nightly.yml runs every test function marked ``nightly`` (found in the test sources): the
  learning ones one job each, the sanitizer ones through scripts/check_native.sh, one job per
  variant; and every nightly test carries its own ``@pytest.mark.timeout`` (the 600 s default
  fits none of them).
"""

from __future__ import annotations

import ast
import pathlib
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
CI, NIGHTLY = WORKFLOWS / "ci.yml", WORKFLOWS / "nightly.yml"
WHEELS = WORKFLOWS / "wheels.yml"
ACTION = ROOT / ".github" / "actions" / "native-cache" / "action.yml"
SANITIZER_TEST = "tests/test_native_core.py::test_native_core_sanitizers"
MATRIX_TEST = "tests/integration/test_matrix.py::test_cell"

_MATRIX_REF = re.compile(r"\$\{\{[^}]*?\bmatrix\.([A-Za-z_][\w-]*)")
_STEPS_REF = re.compile(r"\$\{\{[^}]*?\bsteps\.([A-Za-z_][\w-]*)\.")


def _schema_problems(path: pathlib.Path, schema: str) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", f"vendor.{schema}",
         str(path)], capture_output=True, text=True, timeout=120)
    return [] if proc.returncode == 0 else [f"{path.name}: schema: {proc.stdout}{proc.stderr}"]


def _strings(node: Any) -> list[str]:
    """Every string value (and key) inside a parsed YAML node."""
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return [node] if isinstance(node, str) else []


def _matrix_keys(job: dict[str, Any]) -> set[str]:
    matrix = (job.get("strategy") or {}).get("matrix") or {}
    if not isinstance(matrix, dict):  # an expression: keys unknown
        return set()
    keys = {k for k in matrix if k not in ("include", "exclude")}
    for entry in matrix.get("include") or []:
        keys |= set(entry)
    return keys


def _reference_problems(path: pathlib.Path, workflow: dict[str, Any]) -> list[str]:
    out = []
    jobs = workflow.get("jobs") or {}
    if "runs" in workflow:  # a composite action: its steps are one job without a matrix
        jobs = {"(action)": {"runs-on": "-", "steps": workflow["runs"].get("steps"),
                             "with": workflow["runs"]}}
    for name, job in jobs.items():
        if "runs-on" not in job and "uses" not in job:
            out.append(f"{path.name}: job {name} has no runs-on (nor uses)")
        text = _strings(job)
        has_matrix = isinstance(((job.get("strategy") or {}).get("matrix")), dict)
        keys = _matrix_keys(job)
        for ref in sorted({m for s in text for m in _MATRIX_REF.findall(s)}):
            if not has_matrix or ref not in keys:
                out.append(f"{path.name}: job {name} uses matrix.{ref}, not in its matrix")
        ids = {step.get("id") for step in job.get("steps") or []}
        for ref in sorted({m for s in text for m in _STEPS_REF.findall(s)}):
            if ref not in ids:
                out.append(f"{path.name}: job {name} uses steps.{ref}, no step has that id")
    return out


def workflow_problems(path: pathlib.Path, schema: str = "github-workflows") -> list[str]:
    """Why the workflow (or, with ``schema="github-actions"``, action) file at ``path`` is not
    valid (empty: it is)."""
    try:
        workflow = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        return [f"{path.name}: not YAML: {e}"]
    if not isinstance(workflow, dict):
        return [f"{path.name}: not a mapping"]
    return _schema_problems(path, schema) + _reference_problems(path, workflow)


@dataclass
class NightlyTest:
    """A test function marked nightly, as its source declares it."""

    node: str                 # "tests/...py::test_name"
    timeout: int | None       # its @pytest.mark.timeout, if any
    params: list[Any] = field(default_factory=list)  # a single-argument parametrize's values


def _mark(decorator: ast.expr) -> tuple[str, ast.Call | None] | None:
    """``pytest.mark.<name>`` or ``pytest.mark.<name>(...)`` -> (name, call)."""
    call = decorator if isinstance(decorator, ast.Call) else None
    target = call.func if call else decorator
    if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Attribute)
            and target.value.attr == "mark"):
        return target.attr, call
    return None


def nightly_tests(root: pathlib.Path = ROOT) -> list[NightlyTest]:
    """Every test function under ``root/tests`` marked nightly (by decorator or pytestmark)."""
    found = []
    for path in sorted((root / "tests").rglob("test_*.py")):
        tree = ast.parse(path.read_text())
        module_marks: list[ast.expr] = []
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
                value = stmt.value
                module_marks += value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
        for fn in tree.body:
            if not (isinstance(fn, ast.FunctionDef) and fn.name.startswith("test")):
                continue
            marks = [m for m in map(_mark, [*module_marks, *fn.decorator_list]) if m]
            if "nightly" not in {name for name, _ in marks}:
                continue
            test = NightlyTest(f"{path.relative_to(root)}::{fn.name}", None)
            for name, call in marks:
                if name == "timeout" and call is not None:
                    test.timeout = ast.literal_eval(call.args[0])
                if name == "parametrize" and call is not None and len(call.args) == 2:
                    try:
                        test.params = list(ast.literal_eval(call.args[1]))
                    except ValueError:  # computed values (the matrix's cells)
                        test.params = []
            found.append(test)
    return found


def _load(path: pathlib.Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text())


@pytest.mark.parametrize(("path", "schema"), [(CI, "github-workflows"),
                                              (NIGHTLY, "github-workflows"),
                                              (WHEELS, "github-workflows"),
                                              (ACTION, "github-actions")],
                         ids=["ci", "nightly", "wheels", "native-cache"])
def test_workflow_is_valid(path: pathlib.Path, schema: str) -> None:
    assert workflow_problems(path, schema) == []


def test_a_broken_action_is_rejected(tmp_path: pathlib.Path) -> None:
    text = ACTION.read_text()
    for old, new, expected in [("using: composite", "using: compost", "schema"),
                               ("${{ steps.key.outputs", "${{ steps.kye.outputs", "steps.kye")]:
        assert old in text
        (tmp_path / "action.yml").write_text(text.replace(old, new, 1))
        problems = workflow_problems(tmp_path / "action.yml", "github-actions")
        assert problems and expected in "\n".join(problems), problems


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("    runs-on: ubuntu-latest\n", "", "no runs-on"),
    ("runs-on: ubuntu-latest", "runs-onn: ubuntu-latest", "schema"),
    ("timeout-minutes: 120", "timeout-minutes: soon", "schema"),
    ("uses: actions/checkout@v4", "uses: [actions/checkout@v4]", "schema"),
    ("${{ matrix.python }}", "${{ matrix.pyhton }}", "matrix.pyhton"),
    ("    runs-on:", "   runs-on:", "not YAML"),
])
def test_a_broken_workflow_is_rejected(tmp_path: pathlib.Path, old: str, new: str,
                                       expected: str) -> None:
    text = CI.read_text()
    assert old in text
    broken = tmp_path / "ci.yml"
    broken.write_text(text.replace(old, new, 1))
    problems = workflow_problems(broken)
    assert problems and expected in "\n".join(problems), problems


def test_ci_runs_the_readme_test_command() -> None:
    assert "bash .ci/run" in (ROOT / "README.md").read_text()
    (job,) = _load(CI)["jobs"].values()
    runs = [step.get("run", "") for step in job["steps"]]
    assert any(r.strip() == "bash .ci/run" for r in runs)
    versions = {entry["python"] for entry in job["strategy"]["matrix"]["include"]}
    assert versions == {"3.10", "3.11", "3.12", "3.13"}


def test_nightly_runs_every_nightly_test() -> None:
    tests = nightly_tests()
    assert SANITIZER_TEST in {t.node for t in tests}
    assert MATRIX_TEST in {t.node for t in tests}
    jobs = _load(NIGHTLY)["jobs"]
    learning = {e["test"] for e in jobs["learning"]["strategy"]["matrix"]["include"]}
    assert learning == {t.node for t in tests if t.node not in (SANITIZER_TEST, MATRIX_TEST)}
    (sanitizer,) = [t for t in tests if t.node == SANITIZER_TEST]
    assert jobs["sanitizers"]["strategy"]["matrix"]["variant"] == sanitizer.params
    names = [e["name"] for e in jobs["learning"]["strategy"]["matrix"]["include"]]
    assert len(set(names)) == len(names)  # artifact names must differ


def test_nightly_runs_every_matrix_cell_as_a_job() -> None:
    """One job per cell of ``matrix.cells`` (by the test's parametrize id), then the report."""
    import sys

    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))
    from matrix.cells import CELLS

    jobs = _load(NIGHTLY)["jobs"]
    cells = [e["cell"] for e in jobs["matrix"]["strategy"]["matrix"]["include"]]
    assert sorted(cells) == sorted(c.name.replace("/", "-") for c in CELLS)
    runs = "\n".join(step.get("run", "") for step in jobs["matrix"]["steps"])
    assert f"{MATRIX_TEST}[${{{{ matrix.cell }}}}]" in runs
    assert jobs["matrix-report"]["needs"] == "matrix"
    assert "python -m matrix report" in "\n".join(
        step.get("run", "") for step in jobs["matrix-report"]["steps"])


def test_every_nightly_test_has_its_own_timeout() -> None:
    missing = [t.node for t in nightly_tests() if t.timeout is None]
    assert missing == [], "add @pytest.mark.timeout(seconds) that fits the run"


def test_nightly_tests_are_found_in_synthetic_sources(tmp_path: pathlib.Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.nightly\n@pytest.mark.timeout(60)\n"
        "@pytest.mark.parametrize('v', ['x', 'y'])\ndef test_long(v): pass\n\n"
        "@pytest.mark.nightly\ndef test_no_timeout(): pass\n\n"
        "def test_short(): pass\n")
    (tmp_path / "tests" / "test_b.py").write_text(
        "import pytest\npytestmark = [pytest.mark.nightly]\n\ndef test_marked_module(): pass\n")
    found = {t.node: (t.timeout, t.params) for t in nightly_tests(tmp_path)}
    assert found == {"tests/test_a.py::test_long": (60, ["x", "y"]),
                     "tests/test_a.py::test_no_timeout": (None, []),
                     "tests/test_b.py::test_marked_module": (None, [])}


def test_nightly_runs_every_sweep_in_full() -> None:
    """The sweeps job runs every id of the sweeps and the tests that run only there."""
    runs = [step.get("run", "") for step in _load(NIGHTLY)["jobs"]["sweeps"]["steps"]]
    assert any("ENVPOOL_SWEEP=all" in r and "-m \"(sweep or sweep_only) and not nightly\"" in r
               for r in runs)


def test_the_release_builds_every_python_the_package_supports() -> None:
    """The wheels workflow builds (and smoke-tests) a wheel for every CPython that
    requires-python admits and the classifiers name, 3.10 to 3.14."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["requires-python"] == ">=3.10"
    classified = {c.rsplit(" ", 1)[-1] for c in project["project"]["classifiers"]
                  if c.startswith("Programming Language :: Python :: 3.")}
    jobs = _load(WHEELS)["jobs"]
    built = {f"3.{p[3:]}" for p in jobs["wheels"]["strategy"]["matrix"]["python"]}
    assert built == {"3.10", "3.11", "3.12", "3.13", "3.14"}
    assert classified <= built
    cibw = project["tool"]["cibuildwheel"]
    assert cibw["manylinux-x86_64-image"] == "manylinux_2_28"
    assert "packaging/smoke_test.py" in cibw["test-command"]
    assert "check_wheel.py" in cibw["repair-wheel-command"]
