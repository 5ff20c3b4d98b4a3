"""highway-env task ids: the ``highway-env`` package's (1.12.1) ids and sail-sg EnvPool's
spellings of them.

One native env so far, ``Highway`` (native/envs/highway/highway.h), for ``highway-v0``
(``HighwayEnv``) and ``highway-fast-v0`` (``HighwayEnvFast``: 5 Hz simulation, 3 lanes,
20 vehicles, 30 s, the other vehicles not checking their collisions). The package's
``config`` keys are keywords of the pool (``lanes_count``, ``vehicles_count``,
``duration``, the reward weights, ...); its ``config["observation"]`` (Kinematics) and
``config["action"]`` dicts are flattened as ``observation_*`` and ``action_type`` /
``action_*`` / ``target_speeds`` / ``acceleration_range`` / ``steering_range``. As in the
package, the env ends its episodes itself (``time >= duration``, truncated), so the ids set
no ``max_episode_steps``. ``initial_lane_id=-1`` is the package's ``None`` (a random lane).

The info holds the package's ``speed``, ``crashed`` and ``action``, and its
``info["rewards"]`` flattened as ``rewards_<name>``.
"""

from __future__ import annotations

from typing import Any

from envpool.core.registry import register
from envpool.tasks._numpy_blas import native_keywords

# Keywords that change no space may differ between the envs of one pool.
_PER_ENV = ("simulation_frequency", "policy_frequency", "target_speeds", "acceleration_range",
            "steering_range", "action_clip", "observation_absolute", "observation_order",
            "observation_normalize", "observation_clip", "observation_see_behind",
            "observation_observe_intentions", "offroad_terminal", "lanes_count",
            "vehicles_count", "controlled_vehicles", "initial_lane_id", "duration",
            "ego_spacing", "vehicles_density", "collision_reward", "right_lane_reward",
            "high_speed_reward", "lane_change_reward", "reward_speed_range",
            "other_vehicles_check_collisions")

# HighwayEnvFast.default_config's changes to HighwayEnv's, and its _create_vehicles.
_FAST = {"simulation_frequency": 5, "lanes_count": 3, "vehicles_count": 20, "duration": 30.0,
         "ego_spacing": 1.5, "other_vehicles_check_collisions": False}


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The package sums np.dot and np.linalg.norm of two numbers (lane coordinates, the
    collision test, the observation's distances) as the running numpy's BLAS does."""
    del config
    return native_keywords()


def ids() -> list[str]:
    """Every highway id: the package's and sail-sg EnvPool's spellings."""
    return ["highway-v0", "Highway-v0", "highway-fast-v0", "HighwayFast-v0"]


for _task_id in ("highway-v0", "Highway-v0"):
    register(_task_id, "Highway", prepare=_prepare, per_env_kwargs=_PER_ENV)
for _task_id in ("highway-fast-v0", "HighwayFast-v0"):
    register(_task_id, "Highway", prepare=_prepare, per_env_kwargs=_PER_ENV, **_FAST)
