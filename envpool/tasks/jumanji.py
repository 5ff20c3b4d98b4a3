"""Jumanji task ids: jumanji's (1.1.2) ids with their default generators and rewards,
each also as sail-sg EnvPool's ``Jumanji/<id>``.

Each id is one native env (native/envs/jumanji/<env>.h). The observation is a Dict of
the fields of jumanji's ``Observation``; the info holds the ``extras`` of its TimeStep.
The k-th episode of the env seeded with ``s`` is jumanji's ``env.reset(split(key_k)[0])``
with ``key_0 = PRNGKey(s)`` and ``key_{k+1} = split(key_k)[1]`` (docs/jumanji.md); a step
ends as jumanji's TimeStep says (terminated: LAST with discount 0, truncated: discount
1), and the pool adds EnvPool's ``max_episode_steps`` (truncated).
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks.classic_control import xla_uses_fma
from envpool.tasks.jumanji_frames import JumanjiFrames

#: (task id, native env, max_episode_steps): sail-sg EnvPool's limits.
TASKS: list[tuple[str, str, int]] = [
    ("Game2048-v1", "JumanjiGame2048", 1000),
    ("SlidingTilePuzzle-v0", "JumanjiSlidingTilePuzzle", 500),
    ("Snake-v1", "JumanjiSnake", 4000),
    ("Minesweeper-v0", "JumanjiMinesweeper", 90),
    ("Knapsack-v1", "JumanjiKnapsack", 50),
    ("TSP-v1", "JumanjiTSP", 20),
    ("Sudoku-v0", "JumanjiSudoku", 81),
    ("Sudoku-very-easy-v0", "JumanjiSudoku", 81),
    ("RubiksCube-v0", "JumanjiRubiksCube", 200),
    ("RubiksCube-partly-scrambled-v0", "JumanjiRubiksCube", 20),
    ("Maze-v0", "JumanjiMaze", 100),
    ("Cleaner-v0", "JumanjiCleaner", 100),
    ("GraphColoring-v1", "JumanjiGraphColoring", 20),
    ("CVRP-v1", "JumanjiCVRP", 40),
    ("Tetris-v0", "JumanjiTetris", 400),
    ("Connector-v3", "JumanjiConnector", 50),
    ("Connector-v2", "JumanjiConnectorV2", 50),
    ("FlatPack-v0", "JumanjiFlatPack", 25),
    ("JobShop-v0", "JumanjiJobShop", 1000),
    ("MMST-v0", "JumanjiMMST", 70),
    ("MultiCVRP-v0", "JumanjiMultiCVRP", 40),
    ("LevelBasedForaging-v0", "JumanjiLevelBasedForaging", 100),
    ("RobotWarehouse-v0", "JumanjiRobotWarehouse", 500),
    ("PacMan-v1", "JumanjiPacMan", 1000),
    ("BinPack-v2", "JumanjiBinPack", 20),
    ("SearchAndRescue-v0", "JumanjiSearchAndRescue", 400),
    ("Sokoban-v0", "JumanjiSokoban", 120),
]

#: Each id's keywords: jumanji's registration's generator and time limit.
_KWARGS: dict[str, dict[str, Any]] = {
    "Sudoku-very-easy-v0": {"sudoku_database": "very-easy"},
    "RubiksCube-partly-scrambled-v0": {"rubiks_cube_num_scrambles": 7,
                                       "rubiks_cube_time_limit": 20},
}

# jumanji's sudoku databases (environments/logic/sudoku/data), read by the env at run time.
_SUDOKU_DATABASES = {"mixed": "10000_mixed_puzzles.npy",
                     "very-easy": "1000_very_easy_puzzles.npy"}

#: The jumanji ids this package has (each also as ``Jumanji/<id>``).
JUMANJI_ENV_IDS: tuple[str, ...] = tuple(task_id for task_id, _, _ in TASKS)

#: sail-sg EnvPool's ``envpool.jumanji.registration.jumanji_env_ids``: its ids (jumanji
#: 1.1.1's), sorted, as far as this package has them; jumanji 1.1.2's ``Connector-v3`` is
#: not one of them.
ENVPOOL_JUMANJI_ENV_IDS: tuple[str, ...] = tuple(
    sorted(task_id for task_id in JUMANJI_ENV_IDS if task_id != "Connector-v3"))


def ids() -> list[str]:
    """Every jumanji id: jumanji's spelling and ``Jumanji/<id>``."""
    return [i for task_id, _, _ in TASKS for i in (task_id, f"Jumanji/{task_id}")]


def _xla_arithmetic(config: dict[str, Any]) -> dict[str, Any]:
    """Whether XLA's CPU backend fuses a product feeding a sum here (as for the phys2d envs:
    envpool.tasks.classic_control.xla_uses_fma)."""
    del config
    return {"_xla_fma": xla_uses_fma()}


def _sudoku_database(config: dict[str, Any]) -> dict[str, Any]:
    """The installed jumanji's puzzle file named by ``sudoku_database`` (an unknown name is
    refused by the env)."""
    name = _SUDOKU_DATABASES.get(config["sudoku_database"], "")
    path = package_path("jumanji", "environments", "logic", "sudoku", "data", name)
    if name and not os.path.isfile(path):
        raise FileNotFoundError(f"Sudoku reads jumanji's puzzles ({path}): pip install "
                                "jumanji==1.1.2")
    return {"_sudoku_database": path if name else ""}


def _pacman_maze(config: dict[str, Any]) -> dict[str, Any]:
    """PacMan's maze: DEFAULT_MAZE of the installed jumanji's pac_man/constants.py (read as
    text, without importing jax), its rows joined by ``/``."""
    del config
    path = package_path("jumanji", "environments", "routing", "pac_man", "constants.py")
    if not path or not os.path.isfile(path):
        raise FileNotFoundError("PacMan reads jumanji's maze: pip install jumanji==1.1.2")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "DEFAULT_MAZE"):
            return {"_pacman_maze": "/".join(ast.literal_eval(node.value))}
    raise ValueError(f"no DEFAULT_MAZE in {path}")


# jumanji's Sokoban levels: HuggingFaceDeepMindGenerator's hf_hub_download of
# "<dataset>.npy" from this repository, found in the Hugging Face cache where it leaves it.
BOXOBAN_REPO = "InstaDeepAI/boxoban-levels"
_BOXOBAN_HINT = ("download it once as jumanji does (python -c \"from huggingface_hub import "
                 "hf_hub_download; hf_hub_download('InstaDeepAI/boxoban-levels', "
                 "'{dataset}.npy')\") or pass sokoban_levels_file=<a .npy of uint8 "
                 "(n, 10, 10, 2) levels>")


def hub_cache() -> str:
    """The Hugging Face hub cache folder: HF_HUB_CACHE (or HUGGINGFACE_HUB_CACHE), else
    ``$HF_HOME/hub``, HF_HOME defaulting to ``$XDG_CACHE_HOME/huggingface`` (XDG_CACHE_HOME
    to ``~/.cache``), as huggingface_hub resolves it."""
    cache = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    if cache:
        return os.path.expanduser(cache)
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "huggingface")
    return os.path.join(os.path.expanduser(home), "hub")


def boxoban_file(dataset: str) -> str:
    """The cached ``<dataset>.npy`` of InstaDeepAI/boxoban-levels (the snapshot its
    ``refs/main`` names), or "" when it is not in the cache."""
    repo = os.path.join(hub_cache(), "models--" + BOXOBAN_REPO.replace("/", "--"))
    try:
        with open(os.path.join(repo, "refs", "main"), encoding="utf-8") as f:
            revision = f.read().strip()
    except OSError:
        return ""
    path = os.path.join(repo, "snapshots", revision, f"{dataset}.npy")
    return path if revision and os.path.isfile(path) else ""


def _sokoban_levels(config: dict[str, Any]) -> dict[str, Any]:
    """Sokoban's level file: ``sokoban_levels_file`` when given, else ``sokoban_dataset``'s
    file in the Hugging Face cache (jumanji's download). When the cache does not hold it the
    spec is still made (its spaces do not depend on the levels), and making an env raises
    the ValueError ``_sokoban_missing`` says."""
    path = str(config["sokoban_levels_file"])
    if path:
        path = os.path.expanduser(path)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"sokoban_levels_file: no such file: {path!r}")
        return {"_sokoban_levels": path, "_sokoban_missing": ""}
    dataset = str(config["sokoban_dataset"])
    if not re.fullmatch(r"[A-Za-z0-9_-]+", dataset):
        raise ValueError(f"sokoban_dataset: a file name of {BOXOBAN_REPO} without .npy, such "
                         f"as 'unfiltered-train', got {dataset!r}")
    found = boxoban_file(dataset)
    missing = "" if found else (
        f"Sokoban reads its levels from {dataset}.npy of {BOXOBAN_REPO} in the Hugging Face "
        f"cache ({hub_cache()}), which does not hold it: "
        + _BOXOBAN_HINT.format(dataset=dataset))
    return {"_sokoban_levels": found, "_sokoban_missing": missing}


# The native envs that need hidden keywords when a pool is made.
_PREPARE = {"JumanjiTSP": _xla_arithmetic, "JumanjiCVRP": _xla_arithmetic,
            "JumanjiSudoku": _sudoku_database}
_PREPARE["JumanjiMultiCVRP"] = _xla_arithmetic
_PREPARE["JumanjiPacMan"] = _pacman_maze
_PREPARE["JumanjiSearchAndRescue"] = _xla_arithmetic
_PREPARE["JumanjiSokoban"] = _sokoban_levels

# The ids whose envs refuse to start here until the user supplies their files (as vizdoom's
# NEEDS_USER_FILES): Sokoban without jumanji's default levels in the Hugging Face cache.
NEEDS_USER_FILES = (set() if boxoban_file("unfiltered-train")
                    else {"Sokoban-v0", "Jumanji/Sokoban-v0"})

for _task_id, _native, _steps in TASKS:
    for _id in (_task_id, f"Jumanji/{_task_id}"):
        register(_id, _native, max_episode_steps=_steps, prepare=_PREPARE.get(_native),
                 frames=JumanjiFrames, **_KWARGS.get(_task_id, {}))
