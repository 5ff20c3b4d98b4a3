"""The public API's docstrings: a summary line, ``Args:``, ``Returns:``, ``Raises:`` and
``Examples:`` sections (Google style, as gymnasium's), and examples that run.

Each function or class users call is listed below with where it is defined. Its docstring
must have a one-line summary ending in a period; ``Args:`` naming exactly its parameters
(a class: its constructor's); ``Returns:`` when it returns something; ``Raises:`` naming
every exception it raises itself plus those listed here (which it raises through the
functions it calls); and ``Examples:`` with ``>>>`` lines. The docs site renders these
sections (docs/reference.md, mkdocstrings); ``help()`` shows them as written.

An adapter module imports its framework: its docstrings are read from the source, and
its examples run where the framework is installed.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import json
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

_MAKE = ("ValueError", "TypeError")
_STEP = ("ValueError", "TypeError", "RuntimeError")
_RECV = ("RuntimeError", "TimeoutError")
_RESET = ("ValueError", "TypeError", "RuntimeError")
_RENDER = ("RuntimeError", "ValueError", "TypeError")
_ADAPTER = ("TypeError", "ValueError")

# "module:qualname" -> what it raises beyond its own raise statements (through the
# functions it calls: the native pool, EnvSpec, ...).
CORE = {
    "envpool.flavours.make:make": _MAKE,
    "envpool.flavours.make:make_gymnasium": _MAKE,
    "envpool.flavours.make:make_gym": _MAKE,
    "envpool.flavours.make:make_dm": _MAKE,
    "envpool.flavours.make:make_spec": _MAKE,
    "envpool.core.registry:register": ("ValueError", "TypeError", "ImportError"),
    "envpool.core.registry:list_all_envs": (),
    "envpool.core.per_env:Uniform": ("TypeError", "ValueError"),
    # every flavour
    "envpool.core.actions:PoolActions.send": (*_STEP, "ResetNeeded"),
    "envpool.core.pool:EnvPoolBase.async_reset": _RESET,
    "envpool.core.render:PoolRendering.render": _RENDER,
    "envpool.core.pool:EnvPoolBase.close": (),
    "envpool.core.xla:PoolXla.xla": ("ImportError", "RuntimeError", "ValueError",
                                     "TypeError"),
    # gymnasium flavour (make, make_gymnasium), and gymnasium.make_vec's
    "envpool.flavours.gymnasium_env:GymnasiumEnvPool.reset": _RESET,
    "envpool.flavours.gymnasium_env:GymnasiumEnvPool.step": _STEP,
    "envpool.flavours.gymnasium_env:GymnasiumEnvPool.recv": _RECV,
    "envpool.flavours.vector_env:GymnasiumVectorEnv.render": _RENDER,
    "envpool.flavours.vector_env:GymnasiumVectorEnv.recv": _RECV,
    # gym flavour
    "envpool.flavours.gym_env:GymEnvPool.reset": _RESET,
    "envpool.flavours.gym_env:LegacyGymEnvPool.step": _STEP,
    "envpool.flavours.gym_env:LegacyGymEnvPool.recv": _RECV,
    # dm flavour
    "envpool.flavours.dm_env:DmEnvPool.reset": _RESET,
    "envpool.flavours.dm_env:DmEnvPool.step": _STEP,
    "envpool.flavours.dm_env:DmEnvPool.recv": _RECV,
    # gymnasium.make's single env
    "envpool.flavours.single_env:GymnasiumEnv.reset": ("ValueError", "RuntimeError"),
    "envpool.flavours.single_env:GymnasiumEnv.step": (*_STEP, "ResetNeeded"),
    "envpool.flavours.single_env:GymnasiumEnv.render": ("RuntimeError",),
    "envpool.flavours.single_env:GymnasiumEnv.close": (),
}

# The adapters' entry points, and the package each one's module (or examples) needs.
ADAPTERS = {
    "envpool.integrations.sb3:make_vec_env": _ADAPTER,
    "envpool.integrations.sb3:EnvPoolVecEnv": ("ValueError",),
    "envpool.integrations.tianshou:make_tianshou_env": _ADAPTER,
    "envpool.integrations.tianshou:TianshouVectorEnv": ("ValueError",),
    "envpool.integrations.tianshou:EnvPoolAdapterFactory": (),
    "envpool.integrations.acme:make_dm_env": _ADAPTER,
    "envpool.integrations.acme:make_batched_dm_env": _ADAPTER,
    "envpool.integrations.acme:DmEnv": ("TypeError", "ValueError"),
    "envpool.integrations.acme:BatchedDmEnv": ("ValueError",),
    "envpool.integrations.cleanrl:RecordEpisodeStatistics": (),
    "envpool.integrations.rl_games:register_rl_games": (),
    "envpool.integrations.rl_games:RlGamesVecEnv": ("KeyError", *_ADAPTER),
    "envpool.integrations.rllib:EnvpoolCallback": (),
    "envpool.integrations.rllib:ChannelsLast": ("ValueError",),
    "envpool.integrations.rllib:channels_last_connector": (),
    "envpool.integrations.curves:compare_curves": ("ValueError",),
    "envpool.integrations.curves:sb3_trainer": (),
    "envpool.integrations.curves:random_trainer": (),
    "envpool.integrations.curves:CompareResult.final_band": ("KeyError",),
}
NEEDS = {"sb3": "stable_baselines3", "tianshou": "tianshou", "acme": "dm_env",
         "cleanrl": "gymnasium", "rl_games": "rl_games", "rllib": "ray",
         "curves": "stable_baselines3"}

_SECTION = re.compile(r"^(\w[\w ]*):\s*$")
_ITEM = re.compile(r"^    (\*{0,2}[\w.]+)\s*(?:\([^)]*\))?:")


def _needs(target: str) -> str | None:
    module = target.split(":")[0]
    return NEEDS.get(module.rsplit(".", 1)[1]) if ".integrations." in module else None


def _installed(package: str | None) -> bool:
    return package is None or importlib.util.find_spec(package) is not None


def _node(target: str) -> ast.AST:
    """The def or class of ``target`` in its module's source (read, not imported)."""
    module, qualname = target.split(":")
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, module
    node: ast.AST = ast.parse(pathlib.Path(spec.origin).read_text())
    for name in qualname.split("."):
        node = next(n for n in ast.iter_child_nodes(node)
                    if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == name)
    return node


def _docstring(target: str, node: ast.AST) -> str:
    """The docstring as ``help()`` shows it: of the imported object for the core, from the
    source for the adapters (whose frameworks are slow to import, or not installed; their
    examples import them)."""
    if _needs(target) is None:
        module, qualname = target.split(":")
        obj = importlib.import_module(module)
        for name in qualname.split("."):
            obj = getattr(obj, name)
        return inspect.getdoc(obj) or ""
    return ast.get_docstring(node) or ""


def sections(doc: str) -> dict[str, list[str]]:
    """Google-style sections: title -> the section's lines (dedented by nothing)."""
    out: dict[str, list[str]] = {}
    current = None
    for line in doc.splitlines():
        match = _SECTION.match(line)
        if match:
            current = match.group(1)
            out[current] = []
        elif current is not None:
            if line and not line.startswith(" "):
                current = None  # back to the description
            else:
                out[current].append(line)
    return out


def _items(lines: list[str]) -> list[str]:
    """The names an Args or Raises section lists (``name:`` at its first indentation)."""
    return [m.group(1) for m in map(_ITEM.match, lines) if m]


def _parameters(node: ast.AST) -> list[str]:
    """The documented parameters: a function's, or a class's constructor's (a dataclass:
    its fields), without self."""
    if isinstance(node, ast.ClassDef):
        init = next((n for n in node.body if isinstance(n, ast.FunctionDef)
                     and n.name == "__init__"), None)
        if init is None:
            return [n.target.id for n in node.body
                    if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
        node = init
    assert isinstance(node, ast.FunctionDef)
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [f"*{args.vararg.arg}"] if args.vararg else []
    names += [f"**{args.kwarg.arg}"] if args.kwarg else []
    return [n for n in names if n not in ("self", "cls")]


def _returns_value(node: ast.AST) -> bool:
    if not isinstance(node, ast.FunctionDef):
        return False
    returns = node.returns
    return returns is not None and not (isinstance(returns, ast.Constant)
                                        and returns.value is None)


def _raised(node: ast.AST) -> set[str]:
    """The exceptions ``raise`` statements name in the function's own body (a class: its
    constructor's), not in nested functions."""
    bodies = [node]
    if isinstance(node, ast.ClassDef):
        bodies = [n for n in node.body if isinstance(n, ast.FunctionDef)
                  and n.name in ("__init__", "__post_init__")]
    names: set[str] = set()
    stack = [child for body in bodies for child in ast.iter_child_nodes(body)]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Raise) and n.exc is not None:
            exc = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
            if isinstance(exc, ast.Attribute):
                names.add(exc.attr)
            elif isinstance(exc, ast.Name):
                names.add(exc.id)
        stack.extend(ast.iter_child_nodes(n))
    return names


def problems(doc: str, node: ast.AST, also_raises: tuple[str, ...] = ()) -> list[str]:
    """What the docstring lacks, against its def or class."""
    found: list[str] = []
    lines = doc.splitlines()
    if not lines or not lines[0].strip().endswith("."):
        found.append("no one-line summary ending in a period")
    elif len(lines) > 1 and lines[1].strip():
        found.append("the summary is more than one line")
    parts = sections(doc)
    parameters = _parameters(node)
    if parameters:
        if "Args" not in parts:
            found.append(f"no Args section (parameters {parameters})")
        elif sorted(_items(parts["Args"])) != sorted(parameters):
            found.append(f"Args lists {_items(parts['Args'])}, the parameters are {parameters}")
    if _returns_value(node) and not "".join(parts.get("Returns", [])).strip():
        found.append("no Returns section")
    raised = _raised(node) | set(also_raises)
    if raised:
        listed = {name.rsplit(".", 1)[-1] for name in _items(parts.get("Raises", []))}
        if "Raises" not in parts:
            found.append(f"no Raises section (raises {sorted(raised)})")
        elif raised - listed:
            found.append(f"Raises does not name {sorted(raised - listed)}")
    if not any(line.lstrip().startswith(">>> ") for line in parts.get("Examples", [])):
        found.append("no Examples section with >>> lines")
    return found


@pytest.mark.parametrize("target", [*CORE, *ADAPTERS])
def test_docstring_has_the_sections(target: str) -> None:
    node = _node(target)
    doc = _docstring(target, node)
    also = CORE.get(target, ADAPTERS.get(target, ()))
    assert not problems(doc, node, also), (target, problems(doc, node, also))


def test_the_public_names_are_the_documented_objects() -> None:
    import envpool

    for name in ("make", "make_gymnasium", "make_gym", "make_dm", "make_spec"):
        assert getattr(envpool, name) is importlib.import_module("envpool.flavours.make").__dict__[
            name]
    assert envpool.register.__module__ == "envpool.core.registry"
    assert envpool.list_all_envs.__module__ == "envpool.core.registry"
    assert envpool.Uniform.__module__ == "envpool.core.per_env"
    flavours = {"gymnasium": "GymnasiumEnvPool", "gym": "GymEnvPool", "dm": "DmEnvPool"}
    for env_type, cls in flavours.items():  # the classes whose methods are listed above
        with envpool.make("CartPole-v1", env_type=env_type) as env:
            assert type(env).__name__ == cls


def test_the_checker_finds_a_missing_section() -> None:
    """problems() is not vacuous: each section taken out of a good docstring is reported."""
    node = _node("envpool.flavours.make:make")
    doc = ast.get_docstring(node) or ""
    assert problems(doc, node, CORE["envpool.flavours.make:make"]) == []
    for title in ("Args", "Returns", "Raises", "Examples"):
        parts = re.split(rf"(?m)^{title}:\n(?:(?: .*)?\n)*", doc + "\n")
        assert len(parts) == 2, title
        assert problems("".join(parts), node, CORE["envpool.flavours.make:make"]), title
    bad_args = doc.replace("    env_type: ", "    flavour: ")
    assert any("Args lists" in p for p in problems(bad_args, node))
    assert any("not name ['TypeError']" in p for p in problems(
        doc.replace("    TypeError: ", "    KeyError: "), node, ("TypeError",)))


_RUN_EXAMPLES = textwrap.dedent("""
    import doctest, importlib, json, sys
    failed = []
    for target in json.loads(sys.argv[1]):
        module, qualname = target.split(":")
        obj = importlib.import_module(module)
        for name in qualname.split("."):
            obj = getattr(obj, name)
        runner = doctest.DocTestRunner(
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        for test in doctest.DocTestFinder(recurse=False).find(obj, target, globs={}):
            if runner.run(test, out=sys.stdout.write).failed:
                failed.append(target)
    print("FAILED", failed)
    sys.exit(1 if failed else 0)
""")


def _run_examples(targets: list[str]) -> None:
    """Runs the examples in a fresh process (register's adds an id)."""
    result = subprocess.run([sys.executable, "-c", _RUN_EXAMPLES, json.dumps(targets)],
                            capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]


def test_core_examples_run() -> None:
    skip = set() if _installed("jax") else {"envpool.core.xla:PoolXla.xla"}
    _run_examples([t for t in CORE if t not in skip])


def test_adapter_examples_run() -> None:
    targets = [t for t in ADAPTERS if _installed(_needs(t))]
    if not targets:
        pytest.skip("no framework of the adapters is installed")
    _run_examples(targets)
