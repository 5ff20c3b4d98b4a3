"""Gymnasium-Robotics' Franka Kitchen: ``FrankaKitchen-v1``, as gymnasium_robotics 1.4.2
registers it (``envs/franka_kitchen/kitchen_env.py``, 280 steps).

The native env ``Kitchen`` (native/envs/robotics/kitchen.h) takes the package's keywords:
``tasks_to_complete`` (a list of the task names ``"bottom burner"``, ``"top burner"``,
``"light switch"``, ``"slide cabinet"``, ``"hinge cabinet"``, ``"microwave"``,
``"kettle"``; default all seven), ``terminate_on_tasks_completed``,
``remove_task_when_completed``, ``object_noise_ratio``, ``robot_noise_ratio`` and the robot
env's ``frame_skip``. The model and the robot's joint limits and noise amplitudes
(``franka_config.xml``) are the installed package's own (``envs/assets/kitchen_franka/``),
read when a pool is made.

The observation is the package's goal-env Dict: ``achieved_goal`` and ``desired_goal`` are
Dicts of the chosen tasks' joint values and goals, ``observation`` the 59 noisy joint
values. The info has sail-sg EnvPool's keys: ``tasks_to_complete``,
``step_task_completions`` and ``episode_task_completions`` as int32 masks of 7 in the order
of :data:`TASKS` (the package's lists of names), and ``qpos0``, ``qvel0``, ``qacc0``,
``qacc_warmstart0``: the simulation's state right after the reset.
"""

from __future__ import annotations

import functools
import os
import xml.etree.ElementTree as ET
from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords

INSTALL_HINT = "pip install 'gymnasium-robotics==1.4.2'"

ASSETS_DIR = package_path("gymnasium_robotics", "envs", "assets")

#: The task names, in the order of the info masks (sail-sg EnvPool's).
TASKS = ("bottom burner", "top burner", "light switch", "slide cabinet", "hinge cabinet",
         "microwave", "kettle")
MAX_EPISODE_STEPS = 280


def ids() -> list[str]:
    """The Franka Kitchen ids."""
    return ["FrankaKitchen-v1"]


@functools.cache
def _robot_config(path: str) -> dict[str, list[float]]:
    """``FrankaRobot._read_specs_from_config``: each dof's ``pos_bound`` and ``vel_bound``
    (low, high) and noise amplitudes, from ``franka_config.xml``, flattened."""
    root = ET.parse(path).getroot()
    out: dict[str, list[float]] = {
        "_pos_bound": [], "_vel_bound": [], "_pos_noise_amp": [], "_vel_noise_amp": []}
    i = 0
    while (node := root.find(f"qpos{i}")) is not None:
        for key in ("pos_bound", "vel_bound"):
            out[f"_{key}"].extend(float(v) for v in node.get(key, "").split())
        for key in ("pos_noise_amp", "vel_noise_amp"):
            out[f"_{key}"].append(float(node.get(key, "").split()[0]))
        i += 1
    return out


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    if not config["assets_dir"] or not os.path.isdir(config["assets_dir"]):
        raise ImportError(
            "FrankaKitchen reads its model from the gymnasium-robotics package, which is "
            f"not installed: {INSTALL_HINT}"
        )
    tasks = config["tasks_to_complete"]
    if isinstance(tasks, str) or not all(isinstance(t, str) for t in tasks):
        raise TypeError(f"tasks_to_complete must be a list of task names, got {tasks!r}")
    path = os.path.join(config["assets_dir"], "kitchen_franka", "franka_assets",
                        "franka_config.xml")
    # The model has 29 dofs: FrankaRobot reads the first nv entries.
    robot = {k: v[: 58 if k.endswith("bound") else 29] for k, v in _robot_config(path).items()}
    return {"_numpy_dot_fma": native_keywords()["_numpy_dot_fma"], **robot}


register(
    "FrankaKitchen-v1",
    "Kitchen",
    max_episode_steps=MAX_EPISODE_STEPS,
    prepare=_prepare,
    assets_dir=ASSETS_DIR,
)
