"""The highway pools' ``debug_states(env_ids)``, sail-sg EnvPool's debug hook: each env's
scene (scenario, clock, road network, vehicles, road objects) read from the native env.

What EnvPool's own highway tests do with it, done here by a function of this file: the
``highway-env`` package's (1.12.1) env is rebuilt from a pool's scene (its lanes, vehicles of
the classes the codes name, objects, goals, clock), then both take the same actions and every
observation must be equal (``assert_aligned``: bit for bit where numpy's angles are the C
library's), the reward equal to the package's rounded to float32, the flags and the info's
``speed`` and ``crashed`` equal. Each id is rebuilt after two steps, but for those whose state
has more than EnvPool's fields carry, rebuilt at reset: the intersection (its regulated
road's step counter, which sets when the right of way is enforced) and the bicycle model
(``intersection-v1``, ``lane-keeping-v0``: its lateral speed and yaw rate, 0 at reset).

Also: the fields are EnvPool 1.2.5's (their names, read from its objects), reading changes
nothing of the episodes, and bad ``env_ids`` raise. The multi-agent ids are left out of the
rebuild (their scenes are read the same way; their action and observation layout is not this
file's subject).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import highway_env  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from highway_env.road.lane import CircularLane, LineType, SineLane, StraightLane
from highway_env.road.road import RoadNetwork
from highway_env.vehicle.behavior import IDMVehicle
from highway_env.vehicle.kinematics import Vehicle
from highway_env.vehicle.objects import Landmark, Obstacle
from test_align_highway import assert_aligned

# (the package's intersection sets IDMVehicle's class attributes for the process: the
# fixture puts them back after each test)
from test_align_highway_intersection import _restore_idm_class_attributes  # noqa: F401

import envpool

# The names of the fields of EnvPool 1.2.5's debug states (its _HighwayDebugState and the
# vehicle, lane and object states in it), as its objects list them.
SCENE_FIELDS = {"scenario", "time", "elapsed_step", "simulation_frequency", "policy_frequency",
                "lanes_count", "vehicles", "road_lanes", "road_objects"}
VEHICLE_FIELDS = {
    "kind", "x", "y", "heading", "speed", "lane_from", "lane_to", "lane_index",
    "target_lane_from", "target_lane_to", "target_lane_index", "target_speed", "speed_index",
    "target_speed0", "target_speed1", "target_speed2", "timer", "idm_delta",
    "enable_lane_change", "crashed", "check_collisions", "on_road", "has_goal", "goal_x",
    "goal_y", "goal_heading", "goal_speed", "route_from", "route_to", "route_id"}
LANE_FIELDS = {
    "from", "to", "index", "kind", "line_type0", "line_type1", "width", "forbidden",
    "speed_limit", "priority", "start_x", "start_y", "end_x", "end_y", "amplitude",
    "pulsation", "phase", "center_x", "center_y", "radius", "start_phase", "end_phase",
    "clockwise"}
OBJECT_FIELDS = {"kind", "x", "y", "heading", "speed", "length", "width", "collidable", "solid",
                 "check_collisions", "crashed", "hit"}

# The package's single-agent ids (ours too) -> keywords given to both sides: the intersection
# spawns no vehicle during the episode (its spawns draw from each side's own generator after
# the rebuild), lane keeping observes without noise (drawn likewise).
REBUILT = {
    "highway-v0": {}, "highway-fast-v0": {}, "merge-v0": {}, "merge-v1": {},
    "roundabout-v0": {}, "roundabout-v1": {}, "two-way-v0": {}, "exit-v0": {}, "exit-v1": {},
    "u-turn-v0": {}, "u-turn-v1": {},
    "intersection-v0": {"spawn_probability": 0.0}, "intersection-v1": {"spawn_probability": 0.0},
    "intersection-v2": {"spawn_probability": 0.0},
    "parking-v0": {}, "parking-ActionRepeat-v0": {}, "parking-parked-v0": {},
    "racetrack-v0": {}, "racetrack-large-v0": {}, "racetrack-oval-v0": {},
    "racetrack-v1": {}, "racetrack-large-v1": {}, "racetrack-oval-v1": {},
    "lane-keeping-v0": {"state_noise": 0.0, "derivative_noise": 0.0},
}
# Rebuilt at reset (the module's docstring says why), the others after PRE_STEPS steps.
AT_RESET = ("intersection", "lane-keeping")
PRE_STEPS = 2
STEPS = 4
_LINE_TYPES = (LineType.NONE, LineType.STRIPED, LineType.CONTINUOUS, LineType.CONTINUOUS_LINE)


def _network(state: Any) -> RoadNetwork:
    """The package's road network of the scene's lanes, in their order."""
    net = RoadNetwork()
    for lane in state.road_lanes:
        common = {"width": lane.width, "forbidden": lane.forbidden,
                  "speed_limit": lane.speed_limit, "priority": lane.priority,
                  "line_types": (_LINE_TYPES[lane.line_type0], _LINE_TYPES[lane.line_type1])}
        start, end = np.array([lane.start_x, lane.start_y]), np.array([lane.end_x, lane.end_y])
        if lane.kind == 2:
            made: Any = CircularLane(np.array([lane.center_x, lane.center_y]), lane.radius,
                                     lane.start_phase, lane.end_phase, lane.clockwise, **common)
        elif lane.kind == 1:
            made = SineLane(start, end, lane.amplitude, lane.pulsation, lane.phase, **common)
        else:
            made = StraightLane(start, end, **common)
        net.add_lane(getattr(lane, "from"), lane.to, made)
    return net


def rebuild(package_env: gymnasium.Env, state: Any) -> None:
    """Puts the package's env (made and reset for the same task) in the pool's scene."""
    env = package_env.unwrapped
    road = env.road
    road.network = _network(state)
    objects = []
    for o in state.road_objects:
        made = (Landmark if o.kind == 1 else Obstacle)(road, np.array([o.x, o.y]), o.heading,
                                                        o.speed)
        made.LENGTH, made.WIDTH = o.length, o.width
        made.diagonal = np.sqrt(o.length**2 + o.width**2)
        made.collidable, made.solid, made.check_collisions = o.collidable, o.solid, \
            o.check_collisions
        made.crashed, made.hit = o.crashed, o.hit
        objects.append(made)
    vehicles, controlled = [], []
    for v in state.vehicles:
        position = np.array([v.x, v.y])
        target = (v.target_lane_from, v.target_lane_to, v.target_lane_index)
        route = [(f, t, None if i < 0 else i)
                 for f, t, i in zip(v.route_from, v.route_to, v.route_id, strict=True)] or None
        if v.kind in (1, 3):
            made = IDMVehicle(road, position, v.heading, v.speed, target_lane_index=target,
                              target_speed=v.target_speed, route=route,
                              enable_lane_change=v.enable_lane_change, timer=v.timer)
            made.DELTA = v.idm_delta
        elif state.scenario.startswith("parking") and not v.has_goal:  # a parked vehicle
            made = Vehicle(road, position, v.heading, v.speed)
        else:  # a controlled vehicle: the action type's class
            agent = len(controlled)
            action_type = env.action_type
            if hasattr(action_type, "agents_action_types"):
                action_type = action_type.agents_action_types[agent]
            made = action_type.vehicle_class(road, position, v.heading, v.speed)
            if hasattr(made, "speed_index"):
                made.target_lane_index, made.target_speed = target, v.target_speed
                made.speed_index, made.route = v.speed_index, route
            controlled.append(made)
        made.lane_index = (v.lane_from, v.lane_to, v.lane_index)
        made.lane = road.network.get_lane(made.lane_index)
        made.crashed, made.check_collisions = v.crashed, v.check_collisions
        if v.has_goal:  # the road's landmark at the goal
            made.goal = next(o for o in objects if isinstance(o, Landmark)
                             and (o.position[0], o.position[1], o.heading)
                             == (v.goal_x, v.goal_y, v.goal_heading))
        vehicles.append(made)
    road.vehicles, road.objects = vehicles, objects
    env.controlled_vehicles = controlled
    for i, vehicle in enumerate(controlled):
        for types in (env.action_type, env.observation_type):
            agents = getattr(types, "agents_action_types", None) or getattr(
                types, "agents_observation_types", None)
            if agents:
                if hasattr(agents[i], "controlled_vehicle"):
                    agents[i].controlled_vehicle = vehicle
                else:
                    agents[i].observer_vehicle = vehicle
    env.time = state.time
    env.steps = state.elapsed_step * (state.simulation_frequency // state.policy_frequency)
    env.done = False


def _action(space: gymnasium.Space, t: int) -> Any:
    """A scripted action of the package's space: labels 1, 3, 4, 0 cycled where they exist,
    small steering and acceleration."""
    if isinstance(space, gymnasium.spaces.Discrete):
        return [1, 3, 4, 0][t % 4] % int(space.n)
    return np.resize(np.array([0.3, -0.2, 0.1, -0.4], dtype=np.float32)[t % 4:],
                     space.shape).astype(np.float32)


def run_rebuilt(task_id: str, seed: int = 5, steps: int = STEPS,
                action: Any = None) -> int:
    """Steps a pool of two envs (seed ``seed``), rebuilds the package's env from env 1's
    scene, then steps both ``steps`` times (``action``, or the scripted ones), comparing;
    returns how many steps were compared."""
    kw = REBUILT[task_id]
    pool = envpool.make_gymnasium(task_id, num_envs=2, seed=seed, **kw)
    package = gymnasium.make(task_id)
    package.unwrapped.configure(kw)
    try:
        pool.reset()
        package.reset(seed=100)  # another scene: the rebuild replaces it
        space = package.action_space
        pre = 0 if task_id.startswith(AT_RESET) else PRE_STEPS
        for t in range(pre):
            ended = pool.step(np.stack([_action(space, t)] * 2))[2:4]
            assert not np.any(ended), "the episode must go on past the steps before the rebuild"
        state = pool.debug_states([1])[0]
        assert state.elapsed_step == pre
        rebuild(package, state)
        compared = 0
        for t in range(pre, pre + steps):
            act = _action(space, t) if action is None else action
            obs, reward, terminated, truncated, info = pool.step(np.stack([act] * 2))
            r_obs, r_reward, r_terminated, r_truncated, r_info = package.step(act)
            compared += 1
            where = (task_id, t)
            if isinstance(r_obs, dict):
                for key in r_obs:
                    assert_aligned(obs[key][1], r_obs[key], (where, key))
            else:
                assert_aligned(obs[1], r_obs, where)
            assert_aligned(reward[1], np.float32(r_reward), where)
            assert (terminated[1], truncated[1]) == (r_terminated, r_truncated), where
            if "speed" in r_info:  # (lane keeping's step info has neither key)
                assert_aligned(info["speed"][1], np.float32(r_info["speed"]), where)
                assert info["crashed"][1] == r_info["crashed"], where
            if r_terminated or r_truncated:
                break
    finally:
        pool.close()
        package.close()
    return compared


@pytest.mark.sweep(by="native")
@pytest.mark.parametrize("task_id", list(REBUILT))
def test_package_rebuilt_from_debug_states_steps_as_the_pool(task_id: str) -> None:
    """The package's env rebuilt from ``debug_states`` takes the pool's next steps."""
    assert run_rebuilt(task_id) >= 1


def test_intersection_vehicles_in_the_roads_order() -> None:
    """The intersection's right of way (RegulatedRoad.enforce_road_rules, over the pairs of
    vehicles in the road's order) depends on the vehicles' order: the states list them in
    the road's, the controlled vehicle after the others. (Listed first, this scene, idle
    until the crash at the fifth step, diverged at the fourth.)"""
    assert run_rebuilt("intersection-v0", seed=16, steps=16, action=1) == 5


def _fields(obj: Any) -> set[str]:
    return set(vars(obj))


@pytest.mark.parametrize("task_id", ["Roundabout-v0", "parking-v0"])
def test_fields_are_envpools(task_id: str) -> None:
    """Each state has EnvPool 1.2.5's fields, of its types; numbers are the env's float64."""
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=0)
    env.reset()
    state = env.debug_states([0])[0]
    assert _fields(state) == SCENE_FIELDS
    assert state.vehicles and state.road_lanes
    assert all(_fields(v) == VEHICLE_FIELDS for v in state.vehicles)
    assert all(_fields(lane) == LANE_FIELDS for lane in state.road_lanes)
    assert all(_fields(o) == OBJECT_FIELDS for o in state.road_objects)
    v = state.vehicles[0]
    assert type(v.x) is float and type(v.kind) is int and type(v.crashed) is bool
    assert type(v.lane_from) is str and type(state.time) is float
    if task_id == "parking-v0":
        assert v.has_goal and state.road_objects
        assert (state.scenario, v.kind, state.road_objects[0].kind) == ("parking", 0, 1)
    else:
        assert state.scenario == "roundabout" and v.kind == 2 and v.route_from
        assert {lane.kind for lane in state.road_lanes} == {0, 1, 2}
        assert {v.kind for v in state.vehicles[1:]} == {3}


def test_reading_changes_nothing() -> None:
    """Two pools of one seed, one read at every step (twice, equal), step alike."""
    kw = {"num_envs": 2, "seed": 5, "vehicles_count": 10}
    read, unread = envpool.make_gymnasium("highway-v0", **kw), envpool.make_gymnasium(
        "highway-v0", **kw)
    try:
        read.reset()
        unread.reset()
        for t in range(6):
            first = read.debug_states(np.array([1, 0]))
            assert repr(first) == repr(read.debug_states([1, 0]))
            assert first[0].elapsed_step == t
            action = np.array([t % 5, (t + 2) % 5])
            ours, theirs = read.step(action), unread.step(action)
            for a, b in zip(ours[:4], theirs[:4], strict=True):
                np.testing.assert_array_equal(a, b)
    finally:
        read.close()
        unread.close()


def test_bad_env_ids() -> None:
    """Ids out of range or not integers raise; no ids give no states."""
    env = envpool.make_gymnasium("highway-fast-v0", num_envs=2, seed=0)
    env.reset()
    assert env.debug_states([]) == []
    assert [s.scenario for s in env.debug_states(1)] == ["highway"]
    with pytest.raises(ValueError, match="env_id 2 is out of range"):
        env.debug_states([0, 2])
    with pytest.raises(ValueError, match="env_id -1 is out of range"):
        env.debug_states([-1])
    with pytest.raises(TypeError, match="env_ids must be integers"):
        env.debug_states(np.array([0.0]))
    with pytest.raises(TypeError, match="env_ids must be integers"):
        env.debug_states(["0"])
    env.close()


def test_only_on_highway_pools() -> None:
    """The hook is the highway pools' (and the one-env flavour's), no other family's."""
    env = envpool.make_gymnasium("CartPole-v1", num_envs=1)
    assert not hasattr(env, "debug_states")
    env.close()
    one = gymnasium.make("envpool/u-turn-v0")
    one.reset(seed=0)
    assert one.unwrapped.debug_states([0])[0].scenario == "u_turn"
    one.close()
