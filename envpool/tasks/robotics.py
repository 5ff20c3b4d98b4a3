"""Gymnasium-Robotics task ids: the Fetch tasks (``FetchReach``, ``FetchPush``,
``FetchSlide``, ``FetchPickAndPlace``, sparse and ``Dense`` reward), as gymnasium_robotics
1.4.2 registers them for the mujoco bindings (``-v4``), and sail-sg EnvPool's ``-v1`` ids.

One native env (``Fetch``, native/envs/mujoco/fetch.h) runs the four tasks; each id sets the
keywords its task's ``__init__`` fixes (``has_object``, ``block_gripper``, ``target_offset``,
...), as gymnasium_robotics/envs/fetch/*.py do. The model XMLs and meshes are the installed
gymnasium_robotics' own (``envs/assets/fetch/``), read when a pool is made.

The ``-v1`` ids are gymnasium_robotics' mujoco-py envs; like sail-sg EnvPool, this package
runs them as the ``-v4`` env (the mujoco bindings' reset: ``mj_resetData`` and the setup's
state; mujoco-py's ``set_state`` kept the solver's warm start from the previous episode).

Every pool of these tasks has the goal-env method ``compute_reward(achieved_goal,
desired_goal, info)`` of ``env.unwrapped.compute_reward``, batched over leading axes (what
SB3's ``HerReplayBuffer`` calls through ``env_method``).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords

INSTALL_HINT = "pip install 'gymnasium-robotics==1.4.2'"

ASSETS_DIR = package_path("gymnasium_robotics", "envs", "assets")

# Each task's fixed arguments (gymnasium_robotics/envs/fetch/<task>.py, MujocoFetch*Env):
# what most share, then each task's own.
_SHARED = {
    "target_offset": [0.0, 0.0, 0.0],
    "obj_range": 0.15,
    "target_range": 0.15,
    "distance_threshold": 0.05,
    "initial_slide": [0.405, 0.48, 0.0],
    "initial_object_qpos": [1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0],
}
TASKS: dict[str, dict[str, Any]] = {
    "FetchReach": {
        **_SHARED,
        "xml_file": "fetch/reach.xml",
        "has_object": False,
        "block_gripper": True,
        "gripper_extra_height": 0.2,
        "target_in_the_air": True,
        "initial_slide": [0.4049, 0.48, 0.0],
    },
    "FetchPush": {
        **_SHARED,
        "xml_file": "fetch/push.xml",
        "has_object": True,
        "block_gripper": True,
        "gripper_extra_height": 0.0,
        "target_in_the_air": False,
    },
    "FetchSlide": {
        **_SHARED,
        "xml_file": "fetch/slide.xml",
        "has_object": True,
        "block_gripper": True,
        "gripper_extra_height": -0.02,
        "target_in_the_air": False,
        "target_offset": [0.4, 0.0, 0.0],
        "obj_range": 0.1,
        "target_range": 0.3,
        "initial_slide": [0.05, 0.48, 0.0],
        "initial_object_qpos": [1.7, 1.1, 0.41, 1.0, 0.0, 0.0, 0.0],
    },
    "FetchPickAndPlace": {
        **_SHARED,
        "xml_file": "fetch/pick_and_place.xml",
        "has_object": True,
        "block_gripper": False,
        "gripper_extra_height": 0.2,
        "target_in_the_air": True,
    },
}
MAX_EPISODE_STEPS = 50


def ids() -> list[str]:
    """Every Fetch id: task, reward suffix, version."""
    return [
        f"{task}{suffix}-{version}"
        for task in TASKS
        for suffix in ("", "Dense")
        for version in ("v4", "v1")
    ]


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    if not config["assets_dir"] or not os.path.isdir(config["assets_dir"]):
        raise ImportError(
            "the Fetch tasks read their models from the gymnasium-robotics "
            f"package, which is not installed: {INSTALL_HINT}"
        )
    return {"_numpy_dot_fma": native_keywords()["_numpy_dot_fma"]}


def compute_reward(pool: Any, achieved_goal: Any, desired_goal: Any, info: Any) -> np.ndarray:
    """The goal env's reward of achieved and desired goals (shape ``(..., 3)``), as
    ``BaseFetchEnv.compute_reward``: ``-(d > distance_threshold)`` as float32 (sparse) or
    ``-d`` (dense), ``d`` the goals' Euclidean distance along the last axis."""
    achieved_goal, desired_goal = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved_goal.shape != desired_goal.shape:
        raise ValueError(
            f"the goals' shapes differ: {achieved_goal.shape} and {desired_goal.shape}"
        )
    d = np.linalg.norm(achieved_goal - desired_goal, axis=-1)
    config = pool.spec.env_config
    if config["reward_type"] == "sparse":
        return -(d > config["distance_threshold"]).astype(np.float32)
    return -d


for _task, _kwargs in TASKS.items():
    for _suffix, _reward_type in (("", "sparse"), ("Dense", "dense")):
        for _version in ("v4", "v1"):
            register(
                f"{_task}{_suffix}-{_version}",
                "Fetch",
                max_episode_steps=MAX_EPISODE_STEPS,
                prepare=_prepare,
                pool_methods={"compute_reward": compute_reward},
                assets_dir=ASSETS_DIR,
                reward_type=_reward_type,
                **_kwargs,
            )
