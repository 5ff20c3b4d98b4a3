"""Shared fixtures: the `Faulty-v0` test task (a native env that can be slow or fail), and
`load_example`, which imports a script under examples/ as a module."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import sys
from collections.abc import Callable
from types import ModuleType

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
