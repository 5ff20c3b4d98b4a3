"""envpool's env SDK, the Python half: where the headers and the CMake package config are,
and the version check of a native module before its envs are registered.

A native module (``envpool._native``, or a module built against envpool with the SDK, see
docs/custom_env.md) carries the envpool version and the SDK interface number it was compiled
against (``__envpool_version__``, ``__envpool_sdk_abi__``, from ``core/version.h``).
:func:`check_native_module` refuses any other version with a message that says how to rebuild,
so a stale module never reaches the pool.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

# Must match native/core/version.h, pyproject.toml and envpool.__version__ (tests check it).
VERSION = "0.1.0"
SDK_ABI = 5

# envpool's own native modules (the rest are env plugins built with the SDK): every family but
# two in _native, the Atari envs in _atari (the ALE, GPL-2.0-only), gfootball in _gfootball.
OWN_MODULES = ("envpool._native", "envpool._atari", "envpool._gfootball")

# What a native module must define (bindings/pool_module.h's DefinePoolModule).
_MODULE_SURFACE = ("Pool", "ResetNeeded", "env_names", "default_config", "factory", "spec",
                   "render_size")

_PACKAGE_DIR = Path(__file__).resolve().parents[1]


def get_include() -> str:
    """The include directory of the env SDK (``core/env.h``, ``core/registry.h``,
    ``bindings/pool_module.h``, ...): ``envpool/include`` in an installed envpool, the
    checkout's ``native/`` in a source checkout or an editable install."""
    for candidate in (_PACKAGE_DIR / "include", _PACKAGE_DIR.parent / "native"):
        if (candidate / "core" / "pool.h").is_file():
            return str(candidate)
    raise FileNotFoundError(
        f"envpool's SDK headers are missing (looked in {_PACKAGE_DIR / 'include'} and "
        f"{_PACKAGE_DIR.parent / 'native'}); reinstall envpool-ng"
    )


def get_cmake_dir() -> str:
    """The folder of envpool's CMake package config (``envpoolConfig.cmake``): pass it as
    ``-Denvpool_DIR=...`` (``python -m envpool --cmake-dir`` prints it)."""
    return str(_PACKAGE_DIR / "share" / "cmake" / "envpool")


def check_native_module(module: ModuleType) -> ModuleType:
    """Returns ``module`` if it is a native env module built against this envpool;
    raises TypeError for an object that is no such module and ImportError for a module
    built against another envpool version or SDK interface."""
    name = getattr(module, "__name__", repr(module))
    missing = [a for a in (*_MODULE_SURFACE, "__envpool_version__", "__envpool_sdk_abi__")
               if not hasattr(module, a)]
    if missing:
        raise TypeError(
            f"{name} is not an envpool native module (it lacks {', '.join(missing)}); build it "
            "with envpool's SDK: call envpool::bindings::DefinePoolModule in its "
            "PYBIND11_MODULE (docs/custom_env.md)"
        )
    version, abi = module.__envpool_version__, module.__envpool_sdk_abi__
    if version != VERSION or abi != SDK_ABI:
        compiler = getattr(module, "__envpool_compiler_abi__", "unknown")
        raise ImportError(
            f"{name} was built against envpool {version} (SDK interface {abi}, compiler "
            f"{compiler}), but the installed envpool is {VERSION} (SDK interface {SDK_ABI}): "
            "rebuild it against the installed envpool, e.g. pip install --no-build-isolation "
            "--force-reinstall <its package or folder>"
        )
    return module


ENTRY_POINT_GROUP = "envpool.envs"
# "name (value): error" of each plugin of ENTRY_POINT_GROUP that failed to load.
_PLUGIN_FAILURES: list[str] = []


def load_env_plugins() -> None:
    """Loads the installed env packages of the ``envpool.envs`` entry point group (called once
    by ``import envpool``). An entry point names a module that registers its task ids on
    import (or a function that does, called without arguments). A plugin that fails to load
    (one built against another envpool, ...) does not break ``import envpool``: it is reported
    in a RuntimeWarning, and again by the error for one of its unknown task ids."""
    import warnings
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = ep.load()
            if callable(loaded):
                loaded()
        except Exception as e:  # noqa: BLE001 (any failure of a third-party plugin)
            failure = f"{ep.name} ({ep.value}): {type(e).__name__}: {e}"
            _PLUGIN_FAILURES.append(failure)
            warnings.warn(f"envpool: the env plugin {failure}", RuntimeWarning, stacklevel=2)


def report_module_failure(what: str, error: Exception) -> None:
    """Records that one of envpool's own native modules (``envpool._atari``, ...) could not be
    imported, so that the error for one of its task ids says why. A module left out of the
    build (ModuleNotFoundError) is recorded silently; one that exists but does not load
    also warns."""
    import warnings

    _PLUGIN_FAILURES.append(f"{what}: {type(error).__name__}: {error}")
    if not isinstance(error, ModuleNotFoundError):
        warnings.warn(f"envpool: {what} could not be loaded: {error}", RuntimeWarning,
                      stacklevel=3)


def plugin_failures() -> list[str]:
    """The env plugins (and envpool's own native modules) that failed to load, as
    ``name (value): error``."""
    return list(_PLUGIN_FAILURES)
