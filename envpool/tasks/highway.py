"""highway-env task ids: the ``highway-env`` package's (1.12.1) ids and sail-sg EnvPool's
spellings of them.

The native envs (native/envs/highway/): ``Highway`` (highway.h) for ``highway-v0``
(``HighwayEnv``) and ``highway-fast-v0`` (``HighwayEnvFast``: 5 Hz simulation, 3 lanes,
20 vehicles, 30 s, the other vehicles not checking their collisions); ``Merge`` (merge.h,
``merge-v0``), ``Roundabout`` (roundabout.h, ``roundabout-v0``), ``TwoWay`` (two_way.h,
``two-way-v0``), ``Exit`` (exit.h, ``exit-v0``) and ``UTurn`` (u_turn.h, ``u-turn-v0``),
each with its task's defaults (``merge-v1``, ``roundabout-v1``, ``exit-v1``, ``u-turn-v1``:
the package's ``ConnectedLane*Env``, with ``neighbour_vehicles_connected_lanes``);
``MergeGeneric`` (merge_generic.h, ``merge-generic-v0`` and ``-v1``: ``MergeGenericEnv``);
``Intersection`` (intersection.h), for ``intersection-v0``
(``IntersectionEnv``), ``intersection-v1`` (``ContinuousIntersectionEnv``: steering and
acceleration of a dynamical bicycle model, ``action_dynamical``; Kinematics with the lane
offsets), ``intersection-v2`` (its ``ConnectedLane`` variant) and the
multi-agent ids (``IntersectionMultiAgent``, the package's ``MultiAgentIntersectionEnv``:
``multi_agent=True``, two controlled vehicles), multi-player pools in sail-sg EnvPool's
layout (``max_num_players=2``): one row per agent of the observation (its Kinematics
array, the package's Tuple element), of the action (``players.action``, one label) and of
the reward (``-v0``: the package's reward, the agents' mean; ``-v1`` and ``-v2``, which
the package wraps in its ``MultiAgentWrapper``: each agent's own, and terminated once
every agent is), ``info["players"]``'s ``speed`` and ``crashed``; per env the flags and
``info["agents_rewards"]`` and ``info["agents_terminated"]``;
``Parking`` (parking.h), for ``parking-v0``
(``ParkingEnv``), ``parking-ActionRepeat-v0`` (one decision a second, 20 s) and
``parking-parked-v0`` (10 parked vehicles), a goal env: its Dict observation
(``achieved_goal``, ``desired_goal``, ``observation``) and the pool method
``compute_reward(achieved_goal, desired_goal, info)`` (for hindsight experience replay);
``Racetrack`` (racetrack.h), for ``racetrack-v0`` (``RacetrackEnv``), ``racetrack-large-v0``
and ``racetrack-oval-v0`` (keyword ``track`` 0, 1, 2; their ``-v1``, the package's
``ConnectedLaneRacetrackEnv*``, with ``neighbour_vehicles_connected_lanes``): steering only,
an OccupancyGrid observation; ``LaneKeeping`` (lane_keeping.h), for ``lane-keeping-v0``
(``LaneKeepingEnv``): a dynamical bicycle model, a Dict observation (``derivative``,
``reference_state``, ``state``), 200 steps (the package's ``max_episode_steps``).
The package's ``config`` keys are keywords of the pool (``lanes_count``, ``vehicles_count``,
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

import math
import types
from typing import Any

import numpy as np

from envpool.core.registry import register
from envpool.tasks._numpy_blas import matvec2_order, native_keywords
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
    collision test, the observation's distances) as the running numpy's BLAS does, and
    rounds a 2 x 2 rotation (the racetracks' grid, the bicycle model's velocity) as it
    does."""
    del config
    return {**native_keywords(), "_numpy_matvec2": matvec2_order()}


def _prepare_normal(config: dict[str, Any]) -> dict[str, Any]:
    """As ``_prepare``, with numpy's ziggurat tables for the scenes that draw
    ``np_random.normal()`` (roundabout, two-way, u-turn, intersection)."""
    return {**_prepare(config), **ziggurat_tables()}


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
    # ContinuousIntersectionEnv: steering and acceleration on a dynamical bicycle model,
    # Kinematics with the lane offsets
    ("intersection-v1", "Intersection-v1"):
        {"action_type": "ContinuousAction", "action_dynamical": True,
         "action_lateral": True, "steering_range": (-math.pi / 3, math.pi / 3),
         "observation_features": ["presence", "x", "y", "vx", "vy", "long_off", "lat_off",
                                  "ang_off"],
         "observation_vehicles_count": 5},
    ("intersection-v2",): {"neighbour_vehicles_connected_lanes": True},
}

# The multi-agent ids (the native IntersectionMultiAgent: a multi-player env, two players)
# -> their keywords (-v1 and -v2: the package's MultiAgentWrapper).
_INTERSECTION_MULTI_AGENT = {
    ("intersection-multi-agent-v0", "IntersectionMultiAgent-v0"): {},
    ("intersection-multi-agent-v1", "IntersectionMultiAgent-v1"): {"multi_agent_wrapper": True},
    ("intersection-multi-agent-v2",):
        {"multi_agent_wrapper": True, "neighbour_vehicles_connected_lanes": True},
}


def compute_reward(pool: Any, achieved_goal: Any, desired_goal: Any, info: Any = None,
                   p: float = 0.5) -> Any:
    """``ParkingEnv.compute_reward``: ``-np.power(np.dot(np.abs(achieved_goal -
    desired_goal), reward_weights), p)``, batched over leading axes (goals of shape
    ``(..., 6)``). Equal bit for bit to the package's for each goal pair (so to the pool's
    reward less its collision term, before the float32 rounding): the weighted sum is
    ``np.dot``'s, the 6 products summed in order as the running numpy's ddot sums them (in
    one batched pass where it sums them unfused, row by row where it fuses them)."""
    del info
    achieved_goal, desired_goal = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved_goal.shape != desired_goal.shape or achieved_goal.shape[-1:] != (6,):
        raise ValueError("the goals must have one shape (..., 6), got "
                         f"{achieved_goal.shape} and {desired_goal.shape}")
    weights = np.array(pool.spec.env_config["reward_weights"], dtype=np.float64)
    diff = np.abs(achieved_goal - desired_goal)
    if diff.ndim == 1:
        return -np.power(np.dot(diff, weights), p)
    if native_keywords()["_numpy_dot_fma"]:
        flat = diff.reshape(-1, 6)
        dot = np.array([np.dot(row, weights) for row in flat]).reshape(diff.shape[:-1])
    else:
        dot = np.zeros(diff.shape[:-1])
        for i in range(6):
            dot = dot + diff[..., i] * weights[i]
    return -np.power(dot, p)


class _Reader:
    """Reads the numbers of a highway env's ``get_state`` in order
    (native/envs/highway/debug_state.h)."""

    def __init__(self, numbers: list[float]) -> None:
        self._numbers = numbers
        self._at = 0

    def number(self) -> float:
        value = float(self._numbers[self._at])
        self._at += 1
        return value

    def integer(self) -> int:
        return int(self.number())

    def flag(self) -> bool:
        return self.number() != 0.0

    def text(self) -> str:
        size = self.integer()
        chars = self._numbers[self._at:self._at + size]
        self._at += size
        return bytes(int(c) for c in chars).decode("utf-8")

    def done(self) -> bool:
        return self._at == len(self._numbers)


def _decode_scene(numbers: list[float]) -> types.SimpleNamespace:
    """One env's scene from its ``get_state`` numbers (debug_state.h's order)."""
    r = _Reader(numbers)
    scene = types.SimpleNamespace(
        time=r.number(), elapsed_step=r.integer(), simulation_frequency=r.integer(),
        policy_frequency=r.integer(), lanes_count=r.integer(), scenario=r.text())
    nodes = [r.text() for _ in range(r.integer())]

    def node() -> str:
        n = r.integer()
        return nodes[n] if n >= 0 else ""

    lanes = []
    for _ in range(r.integer()):
        lane = {"from": node(), "to": node()}
        for name in ("index", "kind", "line_type0", "line_type1"):
            lane[name] = r.integer()
        lane["width"] = r.number()
        lane["forbidden"] = r.flag()
        lane["speed_limit"] = r.number()
        lane["priority"] = r.integer()
        for name in ("start_x", "start_y", "end_x", "end_y", "amplitude", "pulsation", "phase",
                     "center_x", "center_y", "radius", "start_phase", "end_phase"):
            lane[name] = r.number()
        lane["clockwise"] = r.flag()
        lanes.append(types.SimpleNamespace(**lane))
    vehicles = []
    for _ in range(r.integer()):
        v = types.SimpleNamespace(kind=r.integer(), x=r.number(), y=r.number(),
                                  heading=r.number(), speed=r.number(),
                                  lane_from=node(), lane_to=node(), lane_index=r.integer(),
                                  target_lane_from=node(), target_lane_to=node(),
                                  target_lane_index=r.integer(), target_speed=r.number(),
                                  speed_index=r.integer(), target_speed0=r.number(),
                                  target_speed1=r.number(), target_speed2=r.number(),
                                  timer=r.number(), idm_delta=r.number(),
                                  enable_lane_change=r.flag(), crashed=r.flag(),
                                  check_collisions=r.flag(), on_road=r.flag(),
                                  has_goal=r.flag(), goal_x=r.number(), goal_y=r.number(),
                                  goal_heading=r.number(), goal_speed=r.number())
        v.route_from, v.route_to, v.route_id = [], [], []
        for _ in range(r.integer()):
            v.route_from.append(node())
            v.route_to.append(node())
            v.route_id.append(r.integer())
        vehicles.append(v)
    objects = [types.SimpleNamespace(
        kind=r.integer(), x=r.number(), y=r.number(), heading=r.number(), speed=r.number(),
        length=r.number(), width=r.number(), collidable=r.flag(), solid=r.flag(),
        check_collisions=r.flag(), crashed=r.flag(), hit=r.flag())
        for _ in range(r.integer())]
    if not r.done():
        raise RuntimeError("highway: the env's state has numbers past its scene")
    scene.road_lanes, scene.vehicles, scene.road_objects = lanes, vehicles, objects
    return scene


def debug_states(pool: Any, env_ids: Any) -> list[types.SimpleNamespace]:
    """The scenes of the envs ``env_ids`` (none in flight), read from the native envs without
    changing them: sail-sg EnvPool's debug hook ``debug_states`` of its highway pools, which
    its tests use to put the highway-env package's env in the pool's scene. One namespace per
    env, with EnvPool's fields:

    * ``scenario`` (``"highway"``, ``"merge"``, ``"merge_generic"``, ``"roundabout"``,
      ``"two_way"``, ``"u_turn"``, ``"exit"``, ``"intersection"``, ``"intersection_continuous"``,
      ``"intersection_multi"``, ``"parking"``, ``"parking_action_repeat"``,
      ``"parking_parked"``, ``"racetrack"``, ``"racetrack_large"``, ``"racetrack_oval"``,
      ``"lane_keeping"``), ``time``, ``elapsed_step`` (the package's ``steps`` over
      ``simulation_frequency // policy_frequency``), ``simulation_frequency``,
      ``policy_frequency``, ``lanes_count`` (the keyword, 0 for a task without it);
    * ``road_lanes``: every lane of the road network in its order: ``from``, ``to``,
      ``index``, ``kind`` (0 StraightLane, 1 SineLane, 2 CircularLane), ``line_type0`` /
      ``line_type1`` (``LineType`` 0 NONE, 1 STRIPED, 2 CONTINUOUS, 3 CONTINUOUS_LINE),
      ``width``, ``forbidden``, ``speed_limit``, ``priority``, ``start_x`` / ``_y``,
      ``end_x`` / ``_y``, ``amplitude``, ``pulsation``, ``phase``, ``center_x`` / ``_y``,
      ``radius``, ``start_phase``, ``end_phase``, ``clockwise`` (a kind's others 0, and
      ``clockwise`` True);
    * ``vehicles``: in the road's order (the package's ``road.vehicles``, which its right of
      way at the intersection depends on: there the controlled vehicles come after the
      others): ``kind`` (0 or 2 a vehicle the agent drives or a plain ``Vehicle``, 1 or 3 an
      ``IDMVehicle``: 0 and 1 on the highway and in parking, racetrack and lane keeping,
      2 and 3 elsewhere), ``x``, ``y``, ``heading``, ``speed``, the lane
      (``lane_from``, ``lane_to``, ``lane_index``) and target lane
      (``target_lane_*``), ``target_speed``, ``speed_index``, ``target_speed0`` to
      ``target_speed2`` (an ``MDPVehicle``'s first three target speeds), ``timer``,
      ``idm_delta`` (``DELTA``) and ``enable_lane_change`` (an ``IDMVehicle``'s),
      ``crashed``, ``check_collisions``, ``on_road``, the goal (``has_goal``, ``goal_x``,
      ``goal_y``, ``goal_heading``, ``goal_speed``) and the route (``route_from``,
      ``route_to``, ``route_id``; id -1 is None);
    * ``road_objects``: ``kind`` (0 Obstacle, 1 Landmark), ``x``, ``y``, ``heading``,
      ``speed``, ``length``, ``width``, ``collidable``, ``solid``, ``check_collisions``,
      ``crashed``, ``hit``.

    Numbers are the env's float64 values. ``env_ids``: integers (a sequence, an array or
    one id) below ``num_envs``.

    Raises:
        TypeError: ``env_ids`` are not integers.
        ValueError: an id is out of range, or its env is in flight (async mode).
    """
    ids = np.asarray(env_ids)
    if ids.size == 0:
        return []
    if ids.dtype.kind not in "iu":
        raise TypeError(f"debug_states: env_ids must be integers, got {ids.dtype}")
    num_envs = len(pool.all_env_ids)
    states = []
    for env_id in ids.reshape(-1).tolist():
        if not 0 <= env_id < num_envs:
            raise ValueError(f"debug_states: env_id {env_id} is out of range [0, {num_envs})")
        states.append(_decode_scene(pool.get_state(env_id)))
    return states


_POOL_METHODS = {"debug_states": debug_states}

# Keywords of Parking that change no space (reward_weights is compute_reward's: one a pool).
_PARKING_PER_ENV = ("simulation_frequency", "policy_frequency", "acceleration_range",
                    "steering_range", "action_clip", "vehicles_count", "controlled_vehicles",
                    "duration", "collision_reward", "success_goal_reward", "add_walls",
                    "neighbour_vehicles_connected_lanes")

# The package's parking ids -> sail-sg EnvPool's spelling and the variant's defaults.
_PARKING = {"parking-v0": ("Parking-v0", {}),
            "parking-ActionRepeat-v0": ("ParkingActionRepeat-v0",
                                        {"policy_frequency": 1, "duration": 20.0}),
            "parking-parked-v0": ("ParkingParked-v0", {"vehicles_count": 10})}


# Keywords of Racetrack that change no space.
_RACETRACK_PER_ENV = ("simulation_frequency", "policy_frequency", "acceleration_range",
                      "steering_range", "action_clip", "observation_align_to_vehicle_axes",
                      "duration", "collision_reward", "lane_centering_cost",
                      "lane_centering_reward", "action_reward", "controlled_vehicles",
                      "other_vehicles", "speed_limit", "terminate_off_road",
                      "neighbour_vehicles_connected_lanes", "track", "length", "no_lanes")

# The package's racetrack ids -> sail-sg EnvPool's spelling and the track.
_RACETRACK = {"racetrack-v0": ("Racetrack-v0", 0),
              "racetrack-large-v0": ("RacetrackLarge-v0", 1),
              "racetrack-oval-v0": ("RacetrackOval-v0", 2)}


# The package's ConnectedLane*Env road ids: the task with neighbour_vehicles_connected_lanes.
_CONNECTED_ROAD = ("merge-v1", "roundabout-v1", "exit-v1", "u-turn-v1")

# The package's MergeGenericEnv (merge-generic-v0; -v1 its ConnectedLane variant): merge-v0's
# task on a road of lanes_count lanes and sections of chosen lengths (sail-sg EnvPool has
# none); its keywords change no space.
_MERGE_GENERIC_PER_ENV = _ROAD_TASKS[0][4] + (
    "lanes_count", "vehicles_count", "before_merge_length", "converge_merge_length",
    "parallel_merge_length", "after_merge_length")


def ids() -> list[str]:
    """Every highway id: the package's and sail-sg EnvPool's spellings."""
    road = [task_id for task in _ROAD_TASKS for task_id in task[:2]] + list(_CONNECTED_ROAD)
    intersection = [task_id for names in (*_INTERSECTION, *_INTERSECTION_MULTI_AGENT)
                    for task_id in names]
    out = ["highway-v0", "Highway-v0", "highway-fast-v0", "HighwayFast-v0", *road,
           *intersection]
    for task_id, (spelling, _) in _PARKING.items():
        out += [task_id, spelling]
    for task_id, (spelling, _) in _RACETRACK.items():
        out += [task_id, spelling, task_id.replace("-v0", "-v1")]
    return out + ["lane-keeping-v0", "LaneKeeping-v0", "merge-generic-v0", "merge-generic-v1"]


for _task_id in ("highway-v0", "Highway-v0"):
    register(_task_id, "Highway", prepare=_prepare, per_env_kwargs=_PER_ENV,
             pool_methods=_POOL_METHODS)
for _task_id in ("highway-fast-v0", "HighwayFast-v0"):
    register(_task_id, "Highway", prepare=_prepare, per_env_kwargs=_PER_ENV,
             pool_methods=_POOL_METHODS, **_FAST)
for _package_id, _envpool_id, _native, _prep, _own in _ROAD_TASKS:
    for _task_id in (_package_id, _envpool_id):
        register(_task_id, _native, prepare=_prep, per_env_kwargs=_COMMON_PER_ENV + _own,
                 pool_methods=_POOL_METHODS)
    if _package_id.replace("-v0", "-v1") in _CONNECTED_ROAD:
        register(_package_id.replace("-v0", "-v1"), _native, prepare=_prep,
                 per_env_kwargs=_COMMON_PER_ENV + _own, pool_methods=_POOL_METHODS,
                 neighbour_vehicles_connected_lanes=True)
for _native, _table in (("Intersection", _INTERSECTION),
                        ("IntersectionMultiAgent", _INTERSECTION_MULTI_AGENT)):
    for _names, _kw in _table.items():
        for _task_id in _names:
            register(_task_id, _native, prepare=_prepare_normal,
                     per_env_kwargs=_PER_ENV_INTERSECTION, pool_methods=_POOL_METHODS, **_kw)
for _task_id, (_spelling, _kwargs) in _PARKING.items():
    for _name in (_task_id, _spelling):
        register(_name, "Parking", prepare=_prepare, per_env_kwargs=_PARKING_PER_ENV,
                 pool_methods={**_POOL_METHODS, "compute_reward": compute_reward}, **_kwargs)
for _task_id, (_spelling, _track) in _RACETRACK.items():
    for _name in (_task_id, _spelling):
        register(_name, "Racetrack", prepare=_prepare,
                 per_env_kwargs=_RACETRACK_PER_ENV, pool_methods=_POOL_METHODS, track=_track)
    # ConnectedLaneRacetrackEnv*: neighbour vehicles searched on the connected lanes too
    register(_task_id.replace("-v0", "-v1"), "Racetrack", prepare=_prepare,
             per_env_kwargs=_RACETRACK_PER_ENV, pool_methods=_POOL_METHODS, track=_track,
             neighbour_vehicles_connected_lanes=True)
for _name in ("lane-keeping-v0", "LaneKeeping-v0"):
    register(_name, "LaneKeeping", max_episode_steps=200, prepare=_prepare,
             per_env_kwargs=("steering_range", "action_clip", "state_noise",
                             "derivative_noise"),
             pool_methods=_POOL_METHODS)
register("merge-generic-v0", "MergeGeneric", prepare=_prepare,
         per_env_kwargs=_COMMON_PER_ENV + _MERGE_GENERIC_PER_ENV, pool_methods=_POOL_METHODS)
register("merge-generic-v1", "MergeGeneric", prepare=_prepare,
         per_env_kwargs=_COMMON_PER_ENV + _MERGE_GENERIC_PER_ENV, pool_methods=_POOL_METHODS,
         neighbour_vehicles_connected_lanes=True)
