"""highway-env task ids: the ``highway-env`` package's (1.12.1) ids and sail-sg EnvPool's
spellings of them.

The native envs (native/envs/highway/): ``Highway`` (highway.h) for ``highway-v0``
(``HighwayEnv``) and ``highway-fast-v0`` (``HighwayEnvFast``: 5 Hz simulation, 3 lanes,
20 vehicles, 30 s, the other vehicles not checking their collisions); ``Merge`` (merge.h,
``merge-v0``), ``Roundabout`` (roundabout.h, ``roundabout-v0``), ``TwoWay`` (two_way.h,
``two-way-v0``), ``Exit`` (exit.h, ``exit-v0``) and ``UTurn`` (u_turn.h, ``u-turn-v0``),
each with its task's defaults; ``Intersection`` (intersection.h), for ``intersection-v0``
(``IntersectionEnv``), ``intersection-v2`` (its ``ConnectedLane`` variant) and the
multi-agent ids (``MultiAgentIntersectionEnv``: ``multi_agent=True``, two controlled
vehicles; the observation a Tuple of one Kinematics array per agent, the action one label
per agent; ``-v1`` and ``-v2``, which the package wraps in its ``MultiAgentWrapper``, give
the agents' mean reward and the episode's end as ``-v0`` does: their per-agent rewards and
terminations are ``info["agents_rewards"]`` and ``info["agents_terminated"]``). The package's
``config`` keys are keywords of the pool (``lanes_count``, ``vehicles_count``,
``duration``, the reward weights, ...); its ``config["observation"]`` (Kinematics) and
``config["action"]`` dicts are flattened as ``observation_*`` and ``action_type`` /
``action_*`` / ``target_speeds`` / ``acceleration_range`` / ``steering_range``. As in the
package, the env ends its episodes itself (``time >= duration``, truncated), so the ids set
no ``max_episode_steps``. ``initial_lane_id=-1`` is the package's ``None`` (a random lane).

The info holds the package's ``speed``, ``crashed`` and ``action``, and its
``info["rewards"]`` flattened as ``rewards_<name>`` (the intersection's also
``agents_rewards`` and ``agents_terminated``).
"""

from __future__ import annotations

from typing import Any

from envpool.core.registry import register
from envpool.tasks._numpy_blas import native_keywords
from envpool.tasks._numpy_ziggurat import ziggurat_tables

# Keywords that change no space may differ between the envs of one pool.
_PER_ENV = ("simulation_frequency", "policy_frequency", "target_speeds", "acceleration_range",
            "steering_range", "action_clip", "observation_absolute", "observation_order",
            "observation_normalize", "observation_clip", "observation_see_behind",
            "observation_observe_intentions", "observation_features_range",
            "observation_include_obstacles", "offroad_terminal", "lanes_count",
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


def _prepare_normal(config: dict[str, Any]) -> dict[str, Any]:
    """As ``_prepare``, with numpy's ziggurat tables for the scenes that draw
    ``np_random.normal()`` (roundabout, two-way, u-turn, intersection)."""
    del config
    return {**native_keywords(), **ziggurat_tables()}


# The observation and action keywords every task takes (per env: they change no space;
# policy_frequency sizes the TimeToCollision grid, per env only where Kinematics is the
# task's observation).
_COMMON_PER_ENV = ("simulation_frequency", "target_speeds",
                   "acceleration_range", "steering_range", "action_clip",
                   "observation_absolute", "observation_order", "observation_normalize",
                   "observation_clip", "observation_see_behind",
                   "observation_observe_intentions", "observation_features_range",
                   "observation_include_obstacles", "offroad_terminal",
                   "neighbour_vehicles_connected_lanes")

# The road tasks: (the package's id, sail-sg EnvPool's, the native env, prepare, the task's
# own per-env keywords).
_ROAD_TASKS = (
    ("merge-v0", "Merge-v0", "Merge", _prepare,
     ("policy_frequency", "collision_reward", "right_lane_reward", "high_speed_reward",
      "reward_speed_range", "merging_speed_reward", "lane_change_reward")),
    ("roundabout-v0", "Roundabout-v0", "Roundabout", _prepare_normal,
     ("policy_frequency", "incoming_vehicle_destination", "collision_reward", "high_speed_reward",
      "right_lane_reward", "lane_change_reward", "duration", "normalize_reward")),
    ("two-way-v0", "TwoWay-v0", "TwoWay", _prepare_normal,
     ("collision_reward", "left_lane_constraint", "left_lane_reward", "high_speed_reward")),
    ("exit-v0", "Exit-v0", "Exit", _prepare,
     ("policy_frequency", "lanes_count", "vehicles_count", "controlled_vehicles",
      "duration", "ego_spacing",
      "vehicles_density", "collision_reward", "goal_reward", "high_speed_reward",
      "right_lane_reward", "lane_change_reward", "reward_speed_range", "normalize_reward")),
    ("u-turn-v0", "UTurn-v0", "UTurn", _prepare_normal,
     ("duration", "collision_reward", "left_lane_reward", "high_speed_reward",
      "reward_speed_range", "normalize_reward")),
)

# The intersection's keywords that change no space.
_PER_ENV_INTERSECTION = (
    "simulation_frequency", "policy_frequency", "target_speeds", "action_clip",
    "observation_absolute", "observation_order", "observation_normalize", "observation_clip",
    "observation_see_behind", "observation_observe_intentions", "observation_features_range",
    "offroad_terminal", "duration", "destination", "initial_vehicle_count",
    "spawn_probability", "collision_reward", "high_speed_reward", "arrived_reward",
    "reward_speed_range", "normalize_reward", "neighbour_vehicles_connected_lanes")

# The package's intersection ids (and sail-sg EnvPool's spellings) -> their keywords.
_INTERSECTION = {
    ("intersection-v0", "Intersection-v0"): {},
    ("intersection-v2",): {"neighbour_vehicles_connected_lanes": True},
    ("intersection-multi-agent-v0", "IntersectionMultiAgent-v0"):
        {"multi_agent": True, "controlled_vehicles": 2},
    ("intersection-multi-agent-v1", "IntersectionMultiAgent-v1"):
        {"multi_agent": True, "controlled_vehicles": 2},
    ("intersection-multi-agent-v2",):
        {"multi_agent": True, "controlled_vehicles": 2,
         "neighbour_vehicles_connected_lanes": True},
}


def ids() -> list[str]:
    """Every highway id: the package's and sail-sg EnvPool's spellings."""
    road = [task_id for task in _ROAD_TASKS for task_id in task[:2]]
    intersection = [task_id for names in _INTERSECTION for task_id in names]
    return ["highway-v0", "Highway-v0", "highway-fast-v0", "HighwayFast-v0", *road,
            *intersection]


for _task_id in ("highway-v0", "Highway-v0"):
    register(_task_id, "Highway", prepare=_prepare, per_env_kwargs=_PER_ENV)
for _task_id in ("highway-fast-v0", "HighwayFast-v0"):
    register(_task_id, "Highway", prepare=_prepare, per_env_kwargs=_PER_ENV, **_FAST)
for _package_id, _envpool_id, _native, _prep, _own in _ROAD_TASKS:
    for _task_id in (_package_id, _envpool_id):
        register(_task_id, _native, prepare=_prep, per_env_kwargs=_COMMON_PER_ENV + _own)
for _names, _kw in _INTERSECTION.items():
    for _task_id in _names:
        register(_task_id, "Intersection", prepare=_prepare_normal,
                 per_env_kwargs=_PER_ENV_INTERSECTION, **_kw)
