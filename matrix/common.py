"""What every cell's trainer returns, and the loading of example scripts that trainers reuse."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from dataclasses import dataclass
from types import ModuleType

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
STACKS = ("reference", "envpool")


@dataclass
class Run:
    """One training run: each finished episode's return and the env step it ended at, and
    the run's env steps and wall seconds (the whole training loop: env, learner, framework)."""

    stack: str
    seed: int
    steps: np.ndarray
    returns: np.ndarray
    env_steps: int
    seconds: float


def load_example(relative: str) -> ModuleType:
    """Imports ``examples/<relative>`` (the repo's example scripts are not a package)."""
    path = ROOT / "examples" / relative
    name = "matrix_example_" + path.stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
