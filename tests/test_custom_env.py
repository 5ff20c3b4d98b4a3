"""envpool's env SDK: the template in examples/custom_env/ built against this envpool in a
fresh venv, then its env used through every path of envpool; and the refusal of a native
module built against another envpool.

The venv sees this interpreter's packages (and the checkout, for in-place builds) through a
``.pth`` file; the template is built with ``pip install --no-build-isolation`` (it compiles
the env and envpool's pool core: about a minute)."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
import textwrap
import types
import venv
from pathlib import Path

import gymnasium
import pytest

import envpool
from envpool import _native
from envpool.core import registry, sdk

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "examples" / "custom_env"

# Run in the venv: the template's module is the venv's own build (its tests, run next, use it
# through every path of envpool: examples/custom_env/tests/test_every_path.py).
_USE_SCRIPT = textwrap.dedent("""
    import envpool
    import envpool_thermostat._native as native
    assert native.__file__.startswith(sys_prefix), native.__file__
    print("custom env OK")
""")


def _make_venv(path: Path) -> Path:
    """A venv whose interpreter also sees this interpreter's packages, through a .pth file:
    this interpreter's site dirs as site dirs (so that their own .pth files, an editable
    install's import hook among them, work there too), its other sys.path entries
    (PYTHONPATH: a checkout with an in-place build) as plain paths."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(path)
    python = path / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip()
    stdlib = {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")}
    site_dirs = [d for d in site.getsitepackages() if Path(d).is_dir()]
    paths = [p for p in sys.path if p and Path(p).is_dir() and p not in stdlib
             and p not in site_dirs]
    lines = [f"import site; site.addsitedir({d!r})" for d in site_dirs]
    lines += list(dict.fromkeys(paths))
    (Path(purelib) / "_outer_env.pth").write_text("\n".join(lines) + "\n")
    return python


@pytest.mark.timeout(900)
def test_template_builds_and_runs_everywhere(tmp_path: Path) -> None:
    python = _make_venv(tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["CMAKE_BUILD_PARALLEL_LEVEL"] = env.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # cmake, ninja
    build = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
         "--disable-pip-version-check", "-q", str(TEMPLATE)],
        env=env, capture_output=True, text=True, timeout=840)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-6000:]

    prefix = str((tmp_path / "venv").resolve())
    use = subprocess.run([str(python), "-c", f"sys_prefix = {prefix!r}\n" + _USE_SCRIPT],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert use.returncode == 0 and "custom env OK" in use.stdout, use.stdout + use.stderr[-6000:]

    align = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            str(TEMPLATE / "tests")],
                           # not from the template's folder: its package there has no module
                           env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert align.returncode == 0, align.stdout[-6000:] + align.stderr[-3000:]
    assert "7 passed" in align.stdout, align.stdout[-3000:]


def _fake_module(**overrides: object) -> types.ModuleType:
    """A stand-in for a native module: envpool._native's surface with some attributes changed."""
    module = types.ModuleType("fake_env_module")
    for name in ("Pool", "ResetNeeded", "env_names", "default_config", "factory", "spec",
                 "render_size",
                 "__envpool_version__", "__envpool_sdk_abi__", "__envpool_compiler_abi__"):
        setattr(module, name, getattr(_native, name))
    for name, value in overrides.items():
        setattr(module, name, value)
    return module


def test_native_module_version_is_checked() -> None:
    # The same module surface is accepted ...
    assert sdk.check_native_module(_fake_module()) is not None
    # ... one built against another envpool version or SDK interface is refused, clearly.
    old_version = _fake_module(__envpool_version__="9.9.9")
    with pytest.raises(ImportError, match=r"built against envpool 9\.9\.9 .*installed envpool "
                                          r"is 0\.1\.0.*rebuild it"):
        envpool.register("Mismatch-v0", "CartPole", module=old_version)
    with pytest.raises(ImportError, match=r"SDK interface 999, .*installed envpool is 0\.1\.0 "
                                          rf"\(SDK interface {sdk.SDK_ABI}\)"):
        envpool.register("Mismatch-v0", "CartPole", module=_fake_module(__envpool_sdk_abi__=999))
    # ... and a module that is no envpool module at all.
    with pytest.raises(TypeError, match="not an envpool native module.*__envpool_sdk_abi__"):
        envpool.register("Mismatch-v0", "CartPole", module=types.ModuleType("numpyish"))
    assert "Mismatch-v0" not in envpool.list_all_envs()


def test_register_with_a_module_uses_its_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    # The id is registered for this test only (envpool's and gymnasium's registries).
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))
    monkeypatch.setattr(gymnasium.envs.registration, "registry",
                        dict(gymnasium.envs.registration.registry))
    module = _fake_module()
    made = []

    def pool(*args: object, **kwargs: object) -> object:
        made.append(args[0])
        return _native.Pool(*args, **kwargs)

    module.Pool = pool
    envpool.register("SdkCartPole-v0", "CartPole", module=module, max_episode_steps=7)
    env = envpool.make("SdkCartPole-v0", num_envs=2)
    env.reset()
    assert made == ["CartPole"]
    assert env.spec.task.native_module is module


def test_versions_agree() -> None:
    """One version: native/core/version.h's, which the build gives the distribution
    (pyproject.toml reads it) and every native module; Python states it once more."""
    import importlib.metadata

    from envpool import _atari, _gfootball

    header = (ROOT / "native" / "core" / "version.h").read_text()
    assert f'#define ENVPOOL_VERSION "{sdk.VERSION}"' in header
    assert f"#define ENVPOOL_SDK_ABI {sdk.SDK_ABI}" in header
    assert envpool.__version__ == sdk.VERSION == importlib.metadata.version("envpool-ng")
    for module in (_native, _atari, _gfootball):
        assert module.__envpool_version__ == sdk.VERSION, module
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'metadata.version.input = "native/core/version.h"' in pyproject
    # the release notes name it
    assert f"## {sdk.VERSION}" in (ROOT / "CHANGELOG.md").read_text()


def test_plugin_failure_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    class BrokenEntryPoint:
        name, value = "broken", "broken_envs"

        def load(self) -> object:
            raise ImportError("broken_envs was built against envpool 0.0.0")

    def entry_points(group: str) -> list[BrokenEntryPoint]:
        return [BrokenEntryPoint()] if group == sdk.ENTRY_POINT_GROUP else []

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    monkeypatch.setattr(sdk, "_PLUGIN_FAILURES", [])
    with pytest.warns(RuntimeWarning, match="env plugin broken .*built against envpool 0.0.0"):
        sdk.load_env_plugins()
    with pytest.raises(ValueError, match="failed to load: broken .*0.0.0"):
        envpool.make("Broken-v0")


def test_sdk_locations() -> None:
    include = Path(envpool.get_include())
    for header in ("core/env.h", "core/registry.h", "core/version.h", "core/pool.cc",
                   "bindings/pool_module.h"):
        assert (include / header).is_file(), header
    # The pool core's sources, the pool and its stages, all of which every SDK module
    # compiles in (envpoolConfig.cmake).
    core = sorted(p.name for p in (ROOT / "native" / "core").iterdir())
    assert sorted(p.name for p in (include / "core").iterdir()) == core
    cmake_dir = Path(envpool.get_cmake_dir())
    assert (cmake_dir / "envpoolConfig.cmake").is_file()
    out = subprocess.run([sys.executable, "-m", "envpool", "--cmake-dir", "--include"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(cmake_dir), str(include)]
