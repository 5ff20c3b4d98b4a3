"""Procgen task ids: openai procgen 0.10.7's games, restated in C++ (native/envs/procgen/).

Ids are sail-sg EnvPool's: ``<Game><Mode>-v0`` (``BigfishEasy-v0``, ``BigfishHard-v0``),
the mode being procgen's ``distribution_mode``; ``<Game>Exploration-v0`` is procgen's
"exploration" mode: hard mode on one fixed level (``num_levels=1``, ``start_level`` its
EXPLORATION_LEVEL_SEEDS entry). Only the games listed in ``GAMES`` exist so
far. Observations are procgen's 64 x 64 RGB frames, actions its ``Discrete(15)``, and the
info holds ``level_seed``, ``prev_level_seed`` and ``prev_level_complete``.

The games draw procgen's own images (about 1,300 PNG files, 28 MB, under several
licences: procgen's ASSET_LICENSES.md). They are read at run time from the first of:

1. the ``resource_root`` keyword (a folder laid out as procgen's ``data/assets``);
2. the ``ENVPOOL_PROCGEN_ASSETS`` environment variable (the same);
3. an installed ``procgen`` package (its ``data/assets``: procgen installs on Python 3.10
   and below only);
4. ``$ENVPOOL_CACHE_DIR/procgen-0.10.7/procgen/data/assets`` (``~/.cache/envpool`` when
   ``ENVPOOL_CACHE_DIR`` is unset), which ``python -m envpool --procgen-assets`` fills: it
   downloads procgen 0.10.7's CPython 3.10 wheel with pip and unpacks its ``data`` folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile
from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path

PROCGEN_VERSION = "0.10.7"

# procgen's env name -> (EnvPool's id prefix, its distribution modes)
GAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "bigfish": ("Bigfish", ("easy", "hard")),
    "starpilot": ("Starpilot", ("easy", "hard", "extreme")),
    "coinrun": ("Coinrun", ("easy", "hard", "exploration")),
    "maze": ("Maze", ("easy", "hard", "memory", "exploration")),
    "heist": ("Heist", ("easy", "hard", "memory", "exploration")),
    "miner": ("Miner", ("easy", "hard", "memory")),
    "fruitbot": ("Fruitbot", ("easy", "hard")),
    "leaper": ("Leaper", ("easy", "hard", "extreme", "exploration")),
    "plunder": ("Plunder", ("easy", "hard")),
    "climber": ("Climber", ("easy", "hard", "exploration")),
    "ninja": ("Ninja", ("easy", "hard", "exploration")),
    "bossfight": ("Bossfight", ("easy", "hard")),
    "caveflyer": ("Caveflyer", ("easy", "hard", "memory", "exploration")),
    "jumper": ("Jumper", ("easy", "hard", "memory", "exploration")),
    "chaser": ("Chaser", ("easy", "hard", "extreme")),
    "dodgeball": ("Dodgeball", ("easy", "hard", "extreme", "memory")),
}

# procgen/env.py's EXPLORATION_LEVEL_SEEDS: "exploration" is hard mode on this one level
EXPLORATION_LEVEL_SEEDS = {"coinrun": 1949448038, "maze": 158988835, "heist": 876640971,
                           "leaper": 1318677581, "climber": 1561126160, "ninja": 1123500215,
                           "caveflyer": 1259048185, "jumper": 1434825276}

# each game's episode length in steps (its timeout in procgen's source; jumper's memory mode
# doubles it to 2000 within the game)
TIMEOUTS = {"bigfish": 6000, "bossfight": 4000, "plunder": 4000, "leaper": 500, "maze": 500}
DEFAULT_TIMEOUT = 1000

# procgen/env.py's DISTRIBUTION_MODE_DICT: the modes' numbers
DISTRIBUTION_MODE_NUMBERS = {"easy": 0, "hard": 1, "extreme": 2, "memory": 10, "exploration": 20}

_MODE_NAMES = {"easy": "Easy", "hard": "Hard", "extreme": "Extreme", "memory": "Memory",
               "exploration": "Exploration"}


def cache_dir() -> str:
    """``$ENVPOOL_CACHE_DIR/procgen-0.10.7`` (``~/.cache/envpool/procgen-0.10.7``): where
    ``download_wheel`` unpacks procgen's wheel."""
    root = os.environ.get("ENVPOOL_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "envpool")
    return os.path.join(root, f"procgen-{PROCGEN_VERSION}")


def download_wheel() -> str:
    """Downloads procgen 0.10.7's CPython 3.10 manylinux wheel with pip (once) and unpacks
    its ``procgen/data`` folder (the assets and the prebuilt game library) into
    ``cache_dir()``; returns that folder. Raises ``RuntimeError`` when pip cannot get it."""
    target = cache_dir()
    marker = os.path.join(target, "procgen", "data", ".complete")
    if os.path.exists(marker):
        return target
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", f"procgen=={PROCGEN_VERSION}",
             "--no-deps", "--python-version", "3.10", "--only-binary=:all:",
             "--platform", "manylinux2014_x86_64", "-d", tmp],
            capture_output=True, text=True, check=False)
        wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")]
        if result.returncode != 0 or not wheels:
            raise RuntimeError(f"pip could not download procgen=={PROCGEN_VERSION}: "
                               f"{result.stderr.strip()[-500:]}")
        with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as wheel:
            members = [m for m in wheel.namelist() if m.startswith("procgen/data/")]
            wheel.extractall(target, members)
    with open(marker, "w", encoding="utf-8") as f:
        f.write(PROCGEN_VERSION + "\n")
    return target


def find_assets(resource_root: str | None = None) -> str:
    """The folder of procgen's images (module docstring: the order searched), or "" when
    there is none."""
    candidates = [resource_root or "", os.environ.get("ENVPOOL_PROCGEN_ASSETS", ""),
                  package_path("procgen", "data", "assets"),
                  os.path.join(cache_dir(), "procgen", "data", "assets")]
    for folder in candidates:
        if folder and os.path.isdir(folder):
            return folder
    return ""


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    """Finds the asset folder for the native keyword ``_resource_root`` ("" when there is
    none: the spec is still made, and making the envs says what to do)."""
    given = config.get("resource_root")
    if given is not None and not os.path.isdir(given):
        raise ValueError(f"procgen: resource_root {given!r} is not a folder")
    return {"_resource_root": find_assets(given)}


def game_config() -> list[tuple[str, int, list[int]]]:
    """sail-sg EnvPool's ``procgen_game_config`` of the games here: ``(game, timeout, [the
    numbers of its modes])``, sorted by game; a game's ids are
    ``f"{game.capitalize()}{distribution[number]}-v0"``."""
    return [(game, TIMEOUTS.get(game, DEFAULT_TIMEOUT),
             sorted(DISTRIBUTION_MODE_NUMBERS[m] for m in modes))
            for game, (_, modes) in sorted(GAMES.items())]


def distribution() -> dict[int, str]:
    """sail-sg EnvPool's ``distribution``: a mode's number -> its name in the ids."""
    return {number: _MODE_NAMES[mode] for mode, number in DISTRIBUTION_MODE_NUMBERS.items()}


def ids() -> list[str]:
    """Every procgen id."""
    return [f"{prefix}{_MODE_NAMES[mode]}-v0" for prefix, modes in GAMES.values()
            for mode in modes]


def _register() -> None:
    for game, (prefix, modes) in GAMES.items():
        for mode in modes:
            levels: dict[str, Any] = {"distribution_mode": mode}
            if mode == "exploration":
                levels = {"distribution_mode": "hard", "num_levels": 1,
                          "start_level": EXPLORATION_LEVEL_SEEDS[game]}
            register(f"{prefix}{_MODE_NAMES[mode]}-v0", f"Procgen{prefix}", prepare=_prepare,
                     python_kwargs={"resource_root": None}, **levels)


_register()
