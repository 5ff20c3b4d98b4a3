"""docs/envs.md is the registry's env list with the align tests' coverage (scripts/env_table.py)."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys
from types import ModuleType

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("env_table", ROOT / "scripts" / "env_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_env_page_is_current() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "env_table.py"), "--check"],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:] + "\n(run python scripts/env_table.py)"


def test_names_and_test_function_names_map_to_ids() -> None:
    env_table = _script()
    ids = ["CartPole-v0", "CartPole-v1", "Taxi-v3", "FrozenLake-v1", "FrozenLake8x8-v1"]
    names = env_table._names(ids)
    assert names == {"Taxi": "Taxi-v3", "FrozenLake": "FrozenLake-v1",
                     "FrozenLake8x8": "FrozenLake8x8-v1"}  # CartPole is two ids: no name
    assert env_table._named_in("test_frozen_lake_start_is_uniform", names) == {"FrozenLake-v1"}
    assert env_table._named_in("test_taxi_fickle_draw", names) == {"Taxi-v3"}
    assert env_table._named_in("test_cartpole_matches", names) == set()
    assert env_table._named_in("test_align", names) == set()


def test_families_are_the_registering_modules() -> None:
    family = _script().families()
    assert family["CartPole-v1"] == "classic_control" and family["Pong-v5"] == "atari"
    assert family["Blackjack-v1"] == "toy_text" and family["Blackjack-v5"] == "atari"
