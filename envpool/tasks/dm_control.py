"""DeepMind Control Suite task ids: ``<Domain><Task>-v1``, sail-sg EnvPool's names.

One native env per domain (``DmcCartpole``, ...); the task is the ``task_name``
keyword. ``frame_skip`` is dm_control's ``n_sub_steps`` (physics steps per
control step) and ``max_episode_steps`` its step limit (``time_limit`` /
control timestep: 1000 for every task), as in EnvPool.

The models are dm_control's own: each pool reads the domain's XML from the
installed ``dm_control`` package (found without importing it) and, for the
domains dm_control generates (cartpole's extra poles, ...), applies the same
edits dm_control's loaders apply (:mod:`envpool.tasks.dm_control_models`). The
result goes to the native env as the hidden keyword ``_model_xml``. Without
dm_control installed the ids still exist; making one says what to install.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from envpool import _native
from envpool.core.registry import register
from envpool.tasks import dm_control_models
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords

INSTALL_HINT = "pip install 'dm-control==1.0.50'"


SUITE_DIR = package_path("dm_control", "suite")

# (id prefix, dm_control domain, native env, default frame_skip, tasks as (id suffix,
# task_name)). frame_skip is dm_control's n_sub_steps: control timestep / physics
# timestep (checked against dm_control by tests/test_align_dm_control.py).
_DOMAINS: list[tuple[str, str, str, int, list[tuple[str, str]]]] = [
    ("Acrobot", "acrobot", "DmcAcrobot", 1,
     [("Swingup", "swingup"), ("SwingupSparse", "swingup_sparse")]),
    ("BallInCup", "ball_in_cup", "DmcBallInCup", 10, [("Catch", "catch")]),
    ("Cartpole", "cartpole", "DmcCartpole", 1,
     [("Balance", "balance"), ("BalanceSparse", "balance_sparse"), ("Swingup", "swingup"),
      ("SwingupSparse", "swingup_sparse"), ("TwoPoles", "two_poles"),
      ("ThreePoles", "three_poles")]),
    ("Cheetah", "cheetah", "DmcCheetah", 1, [("Run", "run")]),
    ("Dog", "dog", "DmcDog", 3,
     [("Fetch", "fetch"), ("Run", "run"), ("Stand", "stand"), ("Trot", "trot"),
      ("Walk", "walk")]),
    ("Finger", "finger", "DmcFinger", 2,
     [("Spin", "spin"), ("TurnEasy", "turn_easy"), ("TurnHard", "turn_hard")]),
    ("Fish", "fish", "DmcFish", 10, [("Swim", "swim"), ("Upright", "upright")]),
    ("Hopper", "hopper", "DmcHopper", 4, [("Hop", "hop"), ("Stand", "stand")]),
    ("Humanoid", "humanoid", "DmcHumanoid", 5,
     [("Run", "run"), ("RunPureState", "run_pure_state"), ("Stand", "stand"),
      ("Walk", "walk")]),
    ("HumanoidCMU", "humanoid_CMU", "DmcHumanoidCMU", 10,
     [("Run", "run"), ("Stand", "stand"), ("Walk", "walk")]),
    ("Lqr", "lqr", "DmcLqr", 1, [("Lqr21", "lqr_2_1"), ("Lqr62", "lqr_6_2")]),
    ("Manipulator", "manipulator", "DmcManipulator", 10,
     [("BringBall", "bring_ball"), ("BringPeg", "bring_peg"), ("InsertBall", "insert_ball"),
      ("InsertPeg", "insert_peg")]),
    ("Pendulum", "pendulum", "DmcPendulum", 1, [("Swingup", "swingup")]),
    ("PointMass", "point_mass", "DmcPointMass", 1, [("Easy", "easy"), ("Hard", "hard")]),
    ("Quadruped", "quadruped", "DmcQuadruped", 4,
     [("Escape", "escape"), ("Fetch", "fetch"), ("Run", "run"), ("Walk", "walk")]),
    ("Reacher", "reacher", "DmcReacher", 1, [("Easy", "easy"), ("Hard", "hard")]),
    ("Stacker", "stacker", "DmcStacker", 10, [("Stack2", "stack_2"), ("Stack4", "stack_4")]),
    ("Swimmer", "swimmer", "DmcSwimmer", 15,
     [("Swimmer6", "swimmer6"), ("Swimmer15", "swimmer15")]),
    ("Walker", "walker", "DmcWalker", 10, [("Run", "run"), ("Stand", "stand"), ("Walk", "walk")]),
]

MAX_EPISODE_STEPS = 1000

# task id -> (dm_control domain, task_name), for the registered ids.
TASKS: dict[str, tuple[str, str]] = {}


def _prepare(domain: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def prepare(config: dict[str, Any]) -> dict[str, Any]:
        if not SUITE_DIR or not os.path.isdir(SUITE_DIR):
            raise ImportError(
                f"the {domain} tasks read their models from the dm-control package, which is "
                f"not installed: {INSTALL_HINT}"
            )
        xml, assets = dm_control_models.build(SUITE_DIR, domain, config["task_name"])
        # np.dot / np.linalg.norm of the observations and rewards in the running numpy's order
        return {"_model_xml": xml, "_suite_dir": SUITE_DIR, "_asset_files": assets,
                **native_keywords()}

    return prepare


_NATIVE = set(_native.env_names())
for _prefix, _domain, _native_env, _frame_skip, _tasks in _DOMAINS:
    if _native_env not in _NATIVE:
        continue
    for _suffix, _task_name in _tasks:
        _task_id = f"{_prefix}{_suffix}-v1"
        TASKS[_task_id] = (_domain, _task_name)
        register(_task_id, _native_env, max_episode_steps=MAX_EPISODE_STEPS,
                 prepare=_prepare(_domain), task_name=_task_name, frame_skip=_frame_skip)
