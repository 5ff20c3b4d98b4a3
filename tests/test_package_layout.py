"""The package's layout (docs/architecture.md), read from the source without importing it.

* No import circle in envpool/: every ``import`` and ``from ... import`` of an envpool
  module, at the top of a file or inside a function, is an edge, and the graph of
  them has no cycle.
* The core (envpool/core/) imports no flavour (envpool/flavours/), no adapter
  (envpool/integrations/), nothing of the compatibility wing (envpool/compat/) and not
  the package's ``__init__`` (which imports all of them); the flavours import no adapter;
  only the package's ``__init__`` imports the compatibility wing.
* No Python file in envpool/ is longer than :data:`MAX_LINES` lines (docstrings count), but
  the task tables (envpool/tasks/).
"""

from __future__ import annotations

import ast
import pathlib
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "envpool"
MAX_LINES = 350
# Which layers a module may not import: (importer's prefix, forbidden prefixes).
FORBIDDEN = [
    ("envpool.core", ("envpool.flavours", "envpool.integrations", "envpool.compat")),
    ("envpool.flavours", ("envpool.integrations", "envpool.compat")),
    ("envpool.tasks", ("envpool.flavours", "envpool.integrations", "envpool.compat")),
    ("envpool.integrations", ("envpool.compat",)),
]


def _module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """Every Python module of the package at ``root``, by its dotted name."""
    return {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def imports(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in its source: for
    ``from a.b import c`` the module ``a.b.c`` where there is one, else ``a.b`` (but for
    the package's compiled modules, ``from envpool import _native``: no Python file)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                module = f"{base}.{alias.name}"
                if module in known:
                    found.add(module)
                elif not (base == "envpool" and alias.name.startswith("_")):
                    found.add(base)
    return {m for m in found if m in known and m != name}


def import_graph(root: pathlib.Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    found = modules(root)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each strongly connected component of more than one
    module (or a module that imports itself), sorted (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def forbidden_imports(graph: dict[str, set[str]],
                      rules: list[tuple[str, tuple[str, ...]]] = FORBIDDEN) -> list[str]:
    """``importer -> imported`` for each import that crosses a layer the wrong way: one
    of ``rules``, or of the package's ``__init__`` (which imports every layer) from the core
    or the flavours."""
    bad = []
    for importer, imported in sorted((a, b) for a, bs in graph.items() for b in bs):
        for prefix, banned in rules:
            if importer == prefix or importer.startswith(prefix + "."):
                if any(imported == b or imported.startswith(b + ".") for b in banned) or (
                        imported == "envpool" and prefix != "envpool.integrations"):
                    bad.append(f"{importer} -> {imported}")
    return bad


def long_files(root: pathlib.Path, limit: int = MAX_LINES) -> list[str]:
    """The package's Python files of more than ``limit`` lines, the task tables (a
    package's ``tasks`` folder) aside."""
    return [f"{p.relative_to(root.parent)}: {n} lines" for p in sorted(root.rglob("*.py"))
            if "tasks" not in p.relative_to(root).parts[:-1]
            and (n := len(p.read_text().splitlines())) > limit]


def test_no_import_circle_in_the_package() -> None:
    assert cycles(import_graph(PACKAGE)) == []


def test_the_core_imports_no_flavour_and_compat_stays_in_its_wing() -> None:
    graph = import_graph(PACKAGE)
    assert {"envpool.core.pool", "envpool.flavours.make", "envpool.compat.paths"} <= set(graph)
    assert "envpool.core.pool" in graph["envpool.flavours.gymnasium_env"]  # (edges are read)
    assert forbidden_imports(graph) == []
    wing = {m for m, imported in graph.items() for i in imported
            if i.startswith("envpool.compat") and not m.startswith("envpool.compat")}
    assert wing == {"envpool"}  # only `import envpool` installs sail-sg's module paths


def test_no_file_over_the_line_limit() -> None:
    assert long_files(PACKAGE) == []


def _package(tmp_path: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    root = tmp_path / "envpool"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def test_the_checks_find_a_circle_a_wrong_import_and_a_long_file(
        tmp_path: pathlib.Path) -> None:
    """The checks are not vacuous: on a small package with a circle closed by an import
    inside a function, a core module importing a flavour and one importing the compat
    wing, and a long file (a long task table is fine), each is reported."""
    root = _package(tmp_path, {
        "__init__.py": "from envpool.flavours import make\n",
        "core/__init__.py": "",
        "core/registry.py": "def register():\n    from envpool.flavours.ids import add\n",
        "core/spec.py": "from envpool.compat import names\n" + "x = 1\n" * 400,
        "flavours/__init__.py": "",
        "flavours/ids.py": "from envpool.core import registry\n",
        "flavours/make.py": "from . import ids\nfrom ..core.spec import x\n",
        "compat/__init__.py": "",
        "compat/names.py": "import envpool.core.spec\n",
        "tasks/__init__.py": "",
        "tasks/table.py": "x = 1\n" * 400,
    })
    graph = import_graph(root)
    assert graph["envpool.flavours.make"] == {"envpool.flavours.ids", "envpool.core.spec"}
    assert cycles(graph) == [["envpool.compat.names", "envpool.core.spec"],
                             ["envpool.core.registry", "envpool.flavours.ids"]]
    assert forbidden_imports(graph) == ["envpool.core.registry -> envpool.flavours.ids",
                                        "envpool.core.spec -> envpool.compat.names"]
    assert long_files(root) == ["envpool/core/spec.py: 401 lines"]


def test_the_limit_is_the_documented_one() -> None:
    """docs/architecture.md states the limit this test applies."""
    assert f"{MAX_LINES} lines" in (ROOT / "docs" / "architecture.md").read_text()
