"""Gymnasium-Robotics task ids: the Adroit hand tasks (``AdroitHandDoor``,
``AdroitHandHammer``, ``AdroitHandPen``, ``AdroitHandRelocate``, dense and ``Sparse`` reward,
``-v1``), as gymnasium_robotics 1.4.2 registers them (and sail-sg EnvPool 1.2.5 has them).

Each task is one native env (``AdroitDoor``, ... in native/envs/robotics/adroit_*.h) whose
keyword ``reward_type`` (``"dense"`` or ``"sparse"``) is the id's. The model XMLs and meshes
are the installed gymnasium_robotics' own (``envs/assets/adroit_hand/``), read when a pool is
made. A pool's info has ``success`` (bool) and sail-sg EnvPool's reset state: ``qpos0``,
``qvel0``, ``qacc0``, ``qacc_warmstart0`` and ``extra0`` (what the reset drew: the door frame's
position (3), the nail board's position (3), the pen target's quaternion (4), or the ball's
position and the target site's (6)).

gymnasium_robotics 1.4.2 warns that the dense rewards of Door, Hammer and Relocate changed in
its 1.2.1 without a new version; these ids have 1.4.2's rewards.
"""

from __future__ import annotations

import os
from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords

INSTALL_HINT = "pip install 'gymnasium-robotics==1.4.2'"

ASSETS_DIR = package_path("gymnasium_robotics", "envs", "assets")

# task name -> native env
TASKS = {
    "AdroitHandDoor": "AdroitDoor",
    "AdroitHandHammer": "AdroitHammer",
    "AdroitHandPen": "AdroitPen",
    "AdroitHandRelocate": "AdroitRelocate",
}
MAX_EPISODE_STEPS = 200


def ids() -> list[str]:
    """Every Adroit id: task, reward suffix (dense first, as gymnasium_robotics names them
    without a suffix), ``-v1``."""
    return [f"{task}{suffix}-v1" for task in TASKS for suffix in ("", "Sparse")]


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    if not config["assets_dir"] or not os.path.isdir(
        os.path.join(config["assets_dir"], "adroit_hand")
    ):
        raise ImportError(
            "the Adroit tasks read their models from the gymnasium-robotics "
            f"package, which is not installed: {INSTALL_HINT}"
        )
    return {"_numpy_dot_fma": native_keywords()["_numpy_dot_fma"]}


for _task, _native in TASKS.items():
    for _suffix, _reward_type in (("", "dense"), ("Sparse", "sparse")):
        register(
            f"{_task}{_suffix}-v1",
            _native,
            max_episode_steps=MAX_EPISODE_STEPS,
            prepare=_prepare,
            assets_dir=ASSETS_DIR,
            reward_type=_reward_type,
        )
