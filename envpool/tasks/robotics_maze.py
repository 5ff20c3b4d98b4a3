"""Gymnasium-Robotics' Point Maze and Ant Maze task ids, as gymnasium_robotics 1.4.2
registers them: ``PointMaze_{Open,UMaze,Medium,Large}{,Dense}-v3`` and
``PointMaze_{Open,Medium,Large}_Diverse_{G,GR}{,Dense}-v3`` (sail-sg EnvPool's 20), and the
same 20 maps and rewards as ``AntMaze_*-v3``, ``-v4`` and ``-v5`` (60; sail-sg EnvPool has
none).

One native env (``PointMaze``, native/envs/robotics/point_maze.h) runs every map; an id
sets its map (``maze_map``, gymnasium_robotics/envs/maze/maps.py) and its ``reward_type``.
Keywords, as ``PointMazeEnv`` takes them: ``maze_map`` (a list of rows of ``0``, ``1``,
``"g"``, ``"r"``, ``"c"``), ``reward_type`` (``"sparse"`` or ``"dense"``),
``continuing_task`` (default True), ``reset_target`` (default False). The model is the
installed package's ``envs/assets/point/point.xml`` with the maze's walls and target site,
built when a pool is made, as ``Maze.make_maze`` builds it.

The Ant Maze ids run gymnasium's Ant (v4 for v3 and v4, v5 for v5; ``AntMazeV3``, ...,
native/envs/robotics/ant_maze.h) on gymnasium's ``ant.xml`` with the maze (scaled 4), as
``AntMazeEnv`` does (``exclude_current_positions_from_observation=False``,
``reset_noise_scale=0``); they take the same keywords and render as the package does.

Every pool of these tasks has the goal-env methods of ``env.unwrapped``:
``compute_reward``, ``compute_terminated`` and ``compute_truncated`` (batched over leading
axes where the package's take one pair of goals).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords

INSTALL_HINT = "pip install 'gymnasium-robotics==1.4.2'"

ASSETS_DIR = package_path("gymnasium_robotics", "envs", "assets")

MazeMap = list[list[int | str]]


def _rows(*rows: str) -> MazeMap:
    """A map from rows of characters ("1", "0", "g", "r", "c"), as maps.py writes it."""
    return [[int(c) if c in "01" else c for c in row] for row in rows]


# gymnasium_robotics/envs/maze/maps.py, by the ids' names.
MAPS: dict[str, MazeMap] = {
    "Open": _rows("1111111", "1000001", "1000001", "1000001", "1111111"),
    "Open_Diverse_G": _rows("1111111", "1rgggg1", "1ggggg1", "1ggggg1", "1111111"),
    "Open_Diverse_GR": _rows("1111111", "1ccccc1", "1ccccc1", "1ccccc1", "1111111"),
    "UMaze": _rows("11111", "10001", "11101", "10001", "11111"),
    "Medium": _rows("11111111", "10011001", "10010001", "11000111", "10010001", "10100101",
                    "10001001", "11111111"),
    "Medium_Diverse_G": _rows("11111111", "1r011001", "100100g1", "11000111", "10010001",
                              "1g100101", "10001g01", "11111111"),
    "Medium_Diverse_GR": _rows("11111111", "1c011001", "100100c1", "11000111", "10010001",
                               "1c100101", "10001c01", "11111111"),
    "Large": _rows("111111111111", "100001000001", "101101010101", "100000010001",
                   "101111011101", "100101000001", "110101010111", "100100010001",
                   "111111111111"),
    "Large_Diverse_G": _rows("111111111111", "1r0001g00001", "101101010101", "10000g0100g1",
                             "101111011101", "10g101000001", "110101010111", "1001g0g10g01",
                             "111111111111"),
    "Large_Diverse_GR": _rows("111111111111", "1c0001c00001", "101101010101", "10000c0100c1",
                              "101111011101", "10c101000001", "110101010111", "1001c0c10c01",
                              "111111111111"),
}
# gymnasium_robotics' max_episode_steps, by map size.
MAX_EPISODE_STEPS = {"Open": 300, "UMaze": 300, "Medium": 600, "Large": 800}
DISTANCE_THRESHOLD = 0.45


# The Ant Maze ids' time limits (gymnasium_robotics registers 700 and 1000).
ANT_MAX_EPISODE_STEPS = {"Open": 700, "UMaze": 700, "Medium": 1000, "Large": 1000}
ANT_VERSIONS = ("v3", "v4", "v5")
ANT_ASSETS_DIR = package_path("gymnasium", "envs", "mujoco", "assets")


def ids() -> list[str]:
    """Every Point Maze id: map, reward suffix, version."""
    return [f"PointMaze_{name}{suffix}-v3" for name in MAPS for suffix in ("", "Dense")]


def ant_ids() -> list[str]:
    """Every Ant Maze id (v3, v4 and v5): map, reward suffix, version."""
    return [f"AntMaze_{name}{suffix}-{version}" for version in ANT_VERSIONS for name in MAPS
            for suffix in ("", "Dense")]


def maze_rows(maze_map: Any) -> list[str]:
    """``maze_map`` (rows of 0, 1, "g", "r", "c", as ``PointMazeEnv`` takes it) as the native
    env's rows of characters; a ValueError for anything else."""
    try:
        rows = [list(row) for row in maze_map]
    except TypeError:
        rows = []
    if not rows or any(len(row) != len(rows[0]) or not row for row in rows):
        raise ValueError("maze_map must be a non-empty list of rows of the same length")
    out = []
    for row in rows:
        chars = []
        for cell in row:
            if isinstance(cell, str) and cell in ("g", "r", "c"):
                chars.append(cell)
            elif not isinstance(cell, (str, bool)) and cell in (0, 1):
                chars.append(str(int(cell)))
            else:
                raise ValueError(f"maze_map's cells are 0, 1, 'g', 'r' or 'c', not {cell!r}")
        out.append("".join(chars))
    return out


def _prepare_with(hint: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The hidden keywords (the running numpy's order of ``x.dot(y)``, the map's rows); an
    ImportError saying ``hint`` where the model's folder is missing."""
    def prepare(config: dict[str, Any]) -> dict[str, Any]:
        if not config["assets_dir"] or not os.path.isdir(config["assets_dir"]):
            raise ImportError(hint)
        return {"_numpy_dot_fma": native_keywords()["_numpy_dot_fma"],
                "_maze_rows": maze_rows(config["maze_map"])}
    return prepare


_prepare = _prepare_with("the Point Maze tasks read their model from the gymnasium-robotics "
                         f"package, which is not installed: {INSTALL_HINT}")
_prepare_ant = _prepare_with("the Ant Maze tasks read gymnasium's ant.xml, and gymnasium's "
                             "MuJoCo envs are not installed: pip install 'gymnasium[mujoco]'")


def _distance(achieved_goal: Any, desired_goal: Any, one_by_one: bool = False) -> np.ndarray:
    """The goals' Euclidean distance along the last axis: ``np.linalg.norm(..., axis=-1)``,
    or with ``one_by_one`` ``np.linalg.norm`` of each pair (``sqrt(x.dot(x))``, the order of
    the package's compute_terminated)."""
    achieved_goal, desired_goal = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved_goal.shape != desired_goal.shape:
        raise ValueError(
            f"the goals' shapes differ: {achieved_goal.shape} and {desired_goal.shape}"
        )
    diff = achieved_goal - desired_goal
    if not one_by_one:
        return np.asarray(np.linalg.norm(diff, axis=-1))
    flat = diff.reshape(-1, diff.shape[-1])
    return np.array([np.linalg.norm(x) for x in flat]).reshape(diff.shape[:-1])


def compute_reward(pool: Any, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
    """The goal env's reward of achieved and desired goals (shape ``(..., 2)``), as
    ``MazeEnv.compute_reward``: ``exp(-d)`` (dense) or ``d <= 0.45`` as float64 (sparse),
    ``d`` the goals' Euclidean distance along the last axis."""
    d = _distance(achieved_goal, desired_goal)
    if pool.spec.env_config["reward_type"] == "dense":
        return np.exp(-d)
    return (d <= DISTANCE_THRESHOLD).astype(np.float64)


def compute_terminated(pool: Any, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
    """``MazeEnv.compute_terminated``, batched: the goal reached (``d <= 0.45``) where the
    task is not continuing (``continuing_task=False``), else False."""
    d = _distance(achieved_goal, desired_goal, one_by_one=True)
    if pool.spec.env_config["continuing_task"]:
        return np.zeros(d.shape, dtype=bool)
    return d <= DISTANCE_THRESHOLD


def compute_truncated(pool: Any, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
    """``MazeEnv.compute_truncated``, batched: always False (the time limit truncates)."""
    return np.zeros(_distance(achieved_goal, desired_goal).shape, dtype=bool)


_METHODS = {"compute_reward": compute_reward, "compute_terminated": compute_terminated,
            "compute_truncated": compute_truncated}

def _registrations() -> list[tuple[str, str, int, Callable[..., Any], str, MazeMap, str]]:
    """(id, native env, time limit, prepare, assets_dir, map, reward_type) of every id."""
    out = []
    for name, maze_map in MAPS.items():
        size = name.split("_")[0]
        for suffix, reward_type in (("", "sparse"), ("Dense", "dense")):
            out.append((f"PointMaze_{name}{suffix}-v3", "PointMaze", MAX_EPISODE_STEPS[size],
                        _prepare, ASSETS_DIR, maze_map, reward_type))
            out += [(f"AntMaze_{name}{suffix}-{version}", f"AntMaze{version.upper()}",
                     ANT_MAX_EPISODE_STEPS[size], _prepare_ant, ANT_ASSETS_DIR, maze_map,
                     reward_type) for version in ANT_VERSIONS]
    return out


for _id, _native, _steps, _prep, _assets, _map, _reward_type in _registrations():
    register(_id, _native, max_episode_steps=_steps, prepare=_prep,
             python_kwargs={"maze_map": _map}, pool_methods=_METHODS, assets_dir=_assets,
             reward_type=_reward_type)
