"""Gymnasium-Robotics' Shadow Dexterous Hand task ids: ``HandReach`` and the
``HandManipulate{Block,Egg,Pen}*`` tasks (with and without touch sensors), sparse and
``Dense`` reward, as gymnasium_robotics 1.4.2 registers them for the mujoco bindings
(``HandReach-v3``, ``HandManipulate*-v1``), and sail-sg EnvPool's ``-v0`` ids.

Two native envs run them (native/envs/robotics/): ``HandReach`` (hand_reach.h) and
``HandManipulate`` (hand_manipulate.h), whose keywords are the task classes' arguments
(``target_position``, ``target_rotation``, ``randomize_initial_position``,
``randomize_initial_rotation``, ``ignore_z_target_rotation``, ``distance_threshold``,
``rotation_threshold``, ``touch_get_obs``, ``reward_type``, ...). Each id sets the values its
class and registration fix. The models are the installed gymnasium_robotics' own
(``envs/assets/hand/``), read when a pool is made.

The ``-v0`` ids are gymnasium_robotics' mujoco-py envs; like sail-sg EnvPool, this package
runs them as the mujoco-bindings env (``-v3`` for reach, ``-v1`` for manipulate).

Every pool of these tasks has the goal-env method ``compute_reward(achieved_goal,
desired_goal, info)`` of ``env.unwrapped.compute_reward``, batched over leading axes.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords
from envpool.tasks._numpy_ziggurat import ziggurat_tables

INSTALL_HINT = "pip install 'gymnasium-robotics==1.4.2'"

ASSETS_DIR = package_path("gymnasium_robotics", "envs", "assets")

REACH_STEPS = 50
MANIPULATE_STEPS = 100

# The manipulation tasks: the object's class arguments (manipulate_<object>.py), then each
# task's target modes (gymnasium_robotics/__init__.py's registrations).
_OBJECTS: dict[str, dict[str, Any]] = {
    "Block": {},
    "Egg": {},
    "Pen": {
        "randomize_initial_rotation": False,
        "ignore_z_target_rotation": True,
        "distance_threshold": 0.05,
    },
}
_TARGETS: dict[str, dict[str, dict[str, str]]] = {
    "Block": {
        "": {"target_position": "random", "target_rotation": "xyz"},
        "Full": {"target_position": "random", "target_rotation": "xyz"},
        "RotateZ": {"target_position": "ignore", "target_rotation": "z"},
        "RotateParallel": {"target_position": "ignore", "target_rotation": "parallel"},
        "RotateXYZ": {"target_position": "ignore", "target_rotation": "xyz"},
    },
    "Egg": {
        "": {"target_position": "random", "target_rotation": "xyz"},
        "Full": {"target_position": "random", "target_rotation": "xyz"},
        "Rotate": {"target_position": "ignore", "target_rotation": "xyz"},
    },
    "Pen": {
        "": {"target_position": "random", "target_rotation": "xyz"},
        "Full": {"target_position": "random", "target_rotation": "xyz"},
        "Rotate": {"target_position": "ignore", "target_rotation": "xyz"},
    },
}
# The touch-sensor variants: every target mode but Full.
_TOUCH = {"BooleanTouchSensors": "boolean", "ContinuousTouchSensors": "sensordata"}


def _manipulate_tasks() -> dict[str, dict[str, Any]]:
    """Each manipulation task (id without reward suffix and version) and its keywords."""
    tasks: dict[str, dict[str, Any]] = {}
    for obj, targets in _TARGETS.items():
        for mode, target in targets.items():
            name = f"HandManipulate{obj}{mode}"
            tasks[name] = {
                "xml_file": f"hand/manipulate_{obj.lower()}.xml",
                **_OBJECTS[obj],
                **target,
            }
            if mode == "Full":
                continue
            for touch, touch_get_obs in _TOUCH.items():
                tasks[f"{name}_{touch}"] = {
                    **tasks[name],
                    "xml_file": f"hand/manipulate_{obj.lower()}_touch_sensors.xml",
                    "touch_get_obs": touch_get_obs,
                }
    return tasks


MANIPULATE_TASKS = _manipulate_tasks()


def ids() -> list[str]:
    """Every Shadow Hand id: task, reward suffix, version."""
    reach = [f"HandReach{s}-{v}" for s in ("", "Dense") for v in ("v3", "v0")]
    manipulate = [
        f"{task}{s}-{v}" for task in MANIPULATE_TASKS for s in ("", "Dense") for v in ("v1", "v0")
    ]
    return reach + manipulate


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    if not config["assets_dir"] or not os.path.isdir(config["assets_dir"]):
        raise ImportError(
            "the Shadow Hand tasks read their models from the gymnasium-robotics "
            f"package, which is not installed: {INSTALL_HINT}"
        )
    return {"_numpy_dot_fma": native_keywords()["_numpy_dot_fma"], **ziggurat_tables()}


def _check_goals(achieved_goal: Any, desired_goal: Any, size: int) -> tuple[np.ndarray, np.ndarray]:
    achieved_goal, desired_goal = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved_goal.shape != desired_goal.shape:
        raise ValueError(
            f"the goals' shapes differ: {achieved_goal.shape} and {desired_goal.shape}"
        )
    if achieved_goal.shape[-1:] != (size,):
        raise ValueError(f"a goal has {size} numbers, got shape {achieved_goal.shape}")
    return achieved_goal, desired_goal


def reach_compute_reward(pool: Any, achieved_goal: Any, desired_goal: Any, info: Any) -> np.ndarray:
    """HandReach's reward of achieved and desired goals (shape ``(..., 15)``), as
    ``MujocoHandReachEnv.compute_reward``: ``-(d > distance_threshold)`` as float32 (sparse)
    or ``-d`` (dense), ``d`` the goals' Euclidean distance along the last axis."""
    achieved_goal, desired_goal = _check_goals(achieved_goal, desired_goal, 15)
    d = np.linalg.norm(achieved_goal - desired_goal, axis=-1)
    config = pool.spec.env_config
    if config["reward_type"] == "sparse":
        return -(d > config["distance_threshold"]).astype(np.float32)
    return -d


# rotations.py's quaternion and Euler functions over leading axes (the reward's arithmetic).
def _quat_mul(q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    w0, x0, y0, z0 = q0[..., 0], q0[..., 1], q0[..., 2], q0[..., 3]
    w1, x1, y1, z1 = q1[..., 0], q1[..., 1], q1[..., 2], q1[..., 3]
    w = w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1
    x = w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1
    y = w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1
    z = w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1
    return np.stack([w, x, y, z], axis=-1)


def _quat_conjugate(q: np.ndarray) -> np.ndarray:
    inv_q = -q
    inv_q[..., 0] *= -1
    return inv_q


def _quat2euler(quat: np.ndarray) -> np.ndarray:
    w, x, y, z = quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]
    nq = np.sum(quat * quat, axis=-1)
    s = 2.0 / nq
    X, Y, Z = x * s, y * s, z * s  # noqa: N806
    wX, wY, wZ = w * X, w * Y, w * Z  # noqa: N806
    xX, xY, xZ = x * X, x * Y, x * Z  # noqa: N806
    yY, yZ, zZ = y * Y, y * Z, z * Z  # noqa: N806
    mat = np.empty(quat.shape[:-1] + (3, 3), dtype=np.float64)
    mat[..., 0, 0] = 1.0 - (yY + zZ)
    mat[..., 0, 1] = xY - wZ
    mat[..., 0, 2] = xZ + wY
    mat[..., 1, 0] = xY + wZ
    mat[..., 1, 1] = 1.0 - (xX + zZ)
    mat[..., 1, 2] = yZ - wX
    mat[..., 2, 0] = xZ - wY
    mat[..., 2, 1] = yZ + wX
    mat[..., 2, 2] = 1.0 - (xX + yY)
    mat = np.where((nq > np.finfo(np.float64).eps)[..., np.newaxis, np.newaxis], mat, np.eye(3))
    cy = np.sqrt(mat[..., 2, 2] * mat[..., 2, 2] + mat[..., 1, 2] * mat[..., 1, 2])
    condition = cy > np.finfo(np.float64).eps * 4.0
    euler = np.empty(mat.shape[:-1], dtype=np.float64)
    euler[..., 2] = np.where(
        condition,
        -np.arctan2(mat[..., 0, 1], mat[..., 0, 0]),
        -np.arctan2(-mat[..., 1, 0], mat[..., 1, 1]),
    )
    euler[..., 1] = -np.arctan2(-mat[..., 0, 2], cy)
    euler[..., 0] = np.where(condition, -np.arctan2(mat[..., 1, 2], mat[..., 2, 2]), 0.0)
    return euler


def _euler2quat(euler: np.ndarray) -> np.ndarray:
    ai, aj, ak = euler[..., 2] / 2, -euler[..., 1] / 2, euler[..., 0] / 2
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs = ci * ck, ci * sk
    sc, ss = si * ck, si * sk
    quat = np.empty(euler.shape[:-1] + (4,), dtype=np.float64)
    quat[..., 0] = cj * cc + sj * ss
    quat[..., 3] = cj * sc - sj * cs
    quat[..., 2] = -(cj * ss + sj * cc)
    quat[..., 1] = cj * cs - sj * sc
    return quat


def manipulate_compute_reward(
    pool: Any, achieved_goal: Any, desired_goal: Any, info: Any
) -> np.ndarray:
    """A manipulation task's reward of achieved and desired goals (shape ``(..., 7)``:
    position and quaternion), as ``MujocoManipulateEnv.compute_reward``: ``success - 1``
    as float32 (sparse: the position within ``distance_threshold`` and the angle within
    ``rotation_threshold``) or ``-(10 d_pos + d_rot)`` (dense). With
    ``ignore_z_target_rotation`` (the pen) on a batch of goals it reproduces the reference's
    indexing, which replaces the third goal's Euler angles rather than each goal's z angle
    (on one pair of goals, as each step computes it, the z angle)."""
    goal_a, goal_b = _check_goals(achieved_goal, desired_goal, 7)
    config = pool.spec.env_config
    d_pos = np.zeros_like(goal_a[..., 0])
    d_rot = np.zeros_like(goal_b[..., 0])
    if config["target_position"] != "ignore":
        d_pos = np.linalg.norm(goal_a[..., :3] - goal_b[..., :3], axis=-1)
    if config["target_rotation"] != "ignore":
        quat_a, quat_b = goal_a[..., 3:], goal_b[..., 3:]
        if config["ignore_z_target_rotation"]:
            # As the reference: euler_a[2] = euler_b[2], the z angle of one pair of goals,
            # but the third row of a batch of them (what env.unwrapped.compute_reward gives).
            euler_a, euler_b = _quat2euler(quat_a), _quat2euler(quat_b)
            euler_a[2] = euler_b[2]
            quat_a = _euler2quat(euler_a)
        quat_diff = _quat_mul(quat_a, _quat_conjugate(quat_b))
        d_rot = 2 * np.arccos(np.clip(quat_diff[..., 0], -1.0, 1.0))
    if config["reward_type"] == "sparse":
        achieved_pos = (d_pos < config["distance_threshold"]).astype(np.float32)
        achieved_rot = (d_rot < config["rotation_threshold"]).astype(np.float32)
        return (achieved_pos * achieved_rot).astype(np.float32) - 1.0
    return -(10.0 * d_pos + d_rot)


def _register(task: str, native_env: str, versions: tuple[str, str], max_episode_steps: int,
              compute_reward: Any, kwargs: dict[str, Any]) -> None:
    for suffix, reward_type in (("", "sparse"), ("Dense", "dense")):
        for version in versions:
            register(
                f"{task}{suffix}-{version}",
                native_env,
                max_episode_steps=max_episode_steps,
                prepare=_prepare,
                pool_methods={"compute_reward": compute_reward},
                assets_dir=ASSETS_DIR,
                reward_type=reward_type,
                **kwargs,
            )


_register("HandReach", "HandReach", ("v3", "v0"), REACH_STEPS, reach_compute_reward, {})
for _task, _kwargs in MANIPULATE_TASKS.items():
    _register(
        _task, "HandManipulate", ("v1", "v0"), MANIPULATE_STEPS, manipulate_compute_reward, _kwargs
    )
