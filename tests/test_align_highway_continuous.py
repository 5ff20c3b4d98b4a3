"""Alignment of highway-env's continuous-control tasks with the ``highway-env`` package
(1.12.1), its own envs run in the same test: ``parking-v0`` and its variants, and
``racetrack-v0`` with its large and oval tracks.

As in tests/test_align_highway.py, ours builds every scene from numpy's default_rng
reproduced in C++ (the ego's heading by uniform(), the goal's and the parked vehicles' spots
by choice), seeded with the env's seed, so env i of a pool made with seed s and the package's
env reset with seed s + i start in the same scene. Under the same float32 actions (as the
package receives them from a float32 Box), every observation array must be equal bit for
bit, every reward equal to the package's rounded to float32 (the pool's reward dtype),
terminated and truncated equal, and the info's ``speed`` (float64), ``crashed``, ``action``
and ``is_success`` equal. Later episodes continue the seeded generator on both sides (our
autoreset, the package's reset() without a seed).

Not compared: the reset info's ``action`` (the package's None for parking, a sample of its
action space from the space's own unseeded generator for the racetracks; ours 0), and so
the racetracks' reset ``rewards_action_reward`` (the norm of that sample).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import highway_env  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from highway_env.envs.parking_env import ParkingEnv
from highway_env.envs.racetrack_env import (
    ConnectedLaneRacetrackEnv,
    ConnectedLaneRacetrackEnvLarge,
    ConnectedLaneRacetrackEnvOval,
    RacetrackEnv,
    RacetrackEnvLarge,
    RacetrackEnvOval,
)
from test_align_highway import assert_aligned

import envpool

# Our id -> the package's id and the variant's config.
PARKING = {"parking-v0": {}, "Parking-v0": {},
           "parking-ActionRepeat-v0": {"policy_frequency": 1, "duration": 20},
           "ParkingActionRepeat-v0": {"policy_frequency": 1, "duration": 20},
           "parking-parked-v0": {"vehicles_count": 10},
           "ParkingParked-v0": {"vehicles_count": 10}}
_ACTION_KEYS = {"acceleration_range": "acceleration_range", "steering_range": "steering_range",
                "action_clip": "clip"}


def _package_parking(task_id: str, kw: dict[str, Any]) -> Any:
    """The package's parking env for our id and keywords (the variants' classes take no
    config, so a ParkingEnv with the variant's config and ours)."""
    config: dict[str, Any] = dict(PARKING[task_id])
    action: dict[str, Any] = {"type": "ContinuousAction"}
    for key, value in kw.items():
        if key in _ACTION_KEYS:
            action[_ACTION_KEYS[key]] = value
        else:
            config[key] = value
    config["action"] = action
    return ParkingEnv(config=config)


def _check_obs(obs: dict[str, np.ndarray], r_obs: dict[str, np.ndarray], where: Any) -> None:
    assert set(obs) == set(r_obs), where
    for key, value in r_obs.items():
        assert obs[key].dtype == np.float64, (where, key)
        assert_aligned(obs[key][0], value, (where, key))


def _check_info(info: dict[str, Any], r_info: dict[str, Any], where: Any,
                action: bool = True) -> None:
    assert_aligned(info["speed"][0], np.float32(r_info["speed"]), where)
    assert bool(info["crashed"][0]) == r_info["crashed"], where
    assert bool(info["is_success"][0]) == bool(r_info["is_success"]), where
    if action:
        assert np.array_equal(info["action"][0], r_info["action"]), where


def _parking_action(kind: str, rng: np.random.Generator, obs: dict[str, np.ndarray],
                    t: int) -> np.ndarray:
    """random: uniform in [-1.2, 1.2] (clipped by the env); reach: a proportional pilot
    towards the goal (reaches it: success); crash: full throttle, fixed steering (hits a wall
    or a parked vehicle)."""
    if kind == "random":
        return rng.uniform(-1.2, 1.2, size=2).astype(np.float32)
    if kind == "crash":
        return np.array([1.0, 0.3 if t % 20 < 10 else -0.2], dtype=np.float32)
    # reach: pure pursuit of a point 4 m ahead on the spot's axis, slowing near the goal
    o, g = obs["observation"][0], obs["desired_goal"][0]
    pos, goal, axis = o[:2] * 100, g[:2] * 100, g[4:6]
    heading = np.arctan2(o[5], o[4])
    speed = (o[2] * o[4] + o[3] * o[5]) * 5
    aim = goal + axis * min((pos - goal) @ axis + 4.0, 0.0)
    alpha = (np.arctan2(aim[1] - pos[1], aim[0] - pos[0]) - heading + np.pi) % (2 * np.pi) - np.pi
    target = np.clip(np.hypot(*(goal - pos)) * 0.8, 0.0, 4.0)
    if abs(alpha) > 1.2:
        target = min(target, 2.0)
    return np.array([np.clip((target - speed) * 0.4, -1, 1),
                     np.clip(alpha / (np.pi / 4), -1, 1)], dtype=np.float32)


def run_parking(task_id: str, seed: int, policy: str, steps: int,
                **kw: Any) -> dict[str, int]:
    """Steps ours and the package's parking env side by side (episodes restart on both
    sides when one ends), checking every output and compute_reward; returns what
    happened."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kw)
    ref = _package_parking(task_id, kw)
    rng = np.random.default_rng(seed)
    obs, info = ours.reset()
    r_obs, r_info = ref.reset(seed=seed)
    _check_obs(obs, r_obs, (task_id, seed, "reset"))
    _check_info(info, r_info, (task_id, seed, "reset"), action=False)
    seen = {"episodes": 1, "terminated": 0, "truncated": 0, "success": 0, "crashed": 0}
    done = False
    for t in range(steps):
        action = _parking_action(policy, rng, obs, t)
        obs, rew, term, trunc, info = ours.step(action[None])
        where = (task_id, seed, policy, t)
        if done:  # our autoreset step: the package's reset() without a seed
            r_obs, r_info = ref.reset()
            _check_obs(obs, r_obs, where)
            _check_info(info, r_info, where, action=False)
            seen["episodes"] += 1
            done = False
            continue
        r_obs, r_rew, r_term, r_trunc, r_info = ref.step(action)
        _check_obs(obs, r_obs, where)
        assert_aligned(rew[0], np.float32(r_rew), where)
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        _check_info(info, r_info, where)
        # the pool method: the package's compute_reward bit for bit
        goal = ours.compute_reward(obs["achieved_goal"][0], obs["desired_goal"][0], {})
        r_goal = ref.compute_reward(r_obs["achieved_goal"], r_obs["desired_goal"], {})
        assert goal == r_goal, where
        seen["success"] += int(r_info["is_success"])
        seen["crashed"] += int(r_info["crashed"])
        seen["terminated"] += int(r_term)
        seen["truncated"] += int(r_trunc)
        done = r_term or r_trunc
    ours.close()
    ref.close()
    return seen


@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", list(PARKING))
def test_parking_random_episodes(task_id: str) -> None:
    """Random float32 actions (some past [-1, 1]), past several resets."""
    seen = run_parking(task_id, 3, "random", 40, duration=3.0)
    assert seen["episodes"] >= 2, seen


def test_parking_reaches_the_goal() -> None:
    """A pilot that drives to the goal spot: success ends the episode (terminated,
    is_success), then new episodes with new goals."""
    totals = {"success": 0, "episodes": 0}
    for seed in (2, 4):
        seen = run_parking("parking-v0", seed, "reach", 45, duration=12.0)
        for k in totals:
            totals[k] += seen[k]
    assert totals["success"] >= 2 and totals["episodes"] >= 4, totals


def test_parking_crashes() -> None:
    """Full throttle into the walls (Obstacles: the whole impact on the vehicle) and into
    parked vehicles (impacts split between two vehicles): crashes end the episodes."""
    seen = run_parking("parking-v0", 4, "crash", 40, duration=20.0)
    assert seen["crashed"] >= 1 and seen["episodes"] >= 2, seen
    seen = run_parking("parking-parked-v0", 5, "crash", 30, vehicles_count=24)
    assert seen["crashed"] >= 1 and seen["episodes"] >= 2, seen


def test_parking_keywords() -> None:
    """Non-default config keys: no walls (the vehicle leaves the parking lot), two
    controlled vehicles, other reward weights and success threshold, the frequencies, the
    action's ranges and no clipping."""
    run_parking("parking-v0", 6, "crash", 30, add_walls=False, duration=6.0)
    run_parking("parking-v0", 7, "random", 30, controlled_vehicles=2, vehicles_count=5,
                reward_weights=[1.0, 0.5, 0.1, 0.1, 0.05, 0.05], success_goal_reward=0.2,
                collision_reward=-2.5, duration=4.0)
    run_parking("parking-v0", 8, "random", 20, simulation_frequency=10, policy_frequency=2,
                acceleration_range=[-3.0, 4.0], steering_range=[-0.5, 0.6], action_clip=False)


def test_parking_compute_reward_batched() -> None:
    """compute_reward over a batch (HER relabelling): each row the package's."""
    ref = ParkingEnv()
    rng = np.random.default_rng(0)
    achieved, desired = rng.normal(size=(2, 64, 6))
    pool = envpool.make_gymnasium("parking-v0", num_envs=1)
    ours = pool.compute_reward(achieved, desired, {})
    expected = np.array([ref.compute_reward(a, d, {})
                         for a, d in zip(achieved, desired, strict=True)])
    assert ours.shape == (64,) and np.array_equal(ours, expected)
    three = pool.compute_reward(achieved.reshape(8, 8, 6), desired.reshape(8, 8, 6), {})
    assert np.array_equal(three, expected.reshape(8, 8))
    with pytest.raises(ValueError, match="shape"):
        pool.compute_reward(achieved[:, :4], desired[:, :4], {})
    pool.close()


def test_parking_pool_seeds_and_spaces() -> None:
    """Env i of a pool with seed s is the package's env reset with seed s + i; the Dict
    space is the package's."""
    ours = envpool.make_gymnasium("parking-parked-v0", num_envs=3, seed=20)
    obs, _ = ours.reset()
    for i in range(3):
        ref = gymnasium.make("parking-parked-v0").unwrapped
        r_obs, _ = ref.reset(seed=20 + i)
        for key in r_obs:
            assert np.array_equal(obs[key][i], r_obs[key]), (i, key)
    ref_space = gymnasium.make("parking-v0").unwrapped.observation_space
    assert list(ours.single_observation_space.spaces) == list(ref_space.spaces)
    for key, space in ref_space.spaces.items():
        assert ours.single_observation_space[key].shape == space.shape
        assert ours.single_observation_space[key].dtype == space.dtype
    ours.close()


@pytest.mark.parametrize("kw, message", [
    ({"reward_weights": [1.0, 0.3]}, "reward_weights"),
    ({"controlled_vehicles": 0}, "controlled_vehicles"),
    ({"vehicles_count": -1}, "vehicles_count"),
    ({"policy_frequency": 0}, "policy_frequency"),
])
def test_parking_bad_keywords(kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium("parking-v0", num_envs=1, **kw)


# ---- racetrack ----

RACETRACK = {"racetrack-v0": RacetrackEnv, "Racetrack-v0": RacetrackEnv,
             "racetrack-large-v0": RacetrackEnvLarge, "RacetrackLarge-v0": RacetrackEnvLarge,
             "racetrack-oval-v0": RacetrackEnvOval, "RacetrackOval-v0": RacetrackEnvOval}
CONNECTED = {"racetrack-v1": ConnectedLaneRacetrackEnv,
             "racetrack-large-v1": ConnectedLaneRacetrackEnvLarge,
             "racetrack-oval-v1": ConnectedLaneRacetrackEnvOval}
_GRID_KEYS = {"observation_features": "features",
              "observation_align_to_vehicle_axes": "align_to_vehicle_axes"}
_RACE_ACTION_KEYS = {"action_longitudinal": "longitudinal", "action_lateral": "lateral",
                     "acceleration_range": "acceleration_range",
                     "steering_range": "steering_range", "action_clip": "clip"}


def _package_racetrack(task_id: str, kw: dict[str, Any]) -> Any:
    """The package's racetrack env for our id and keywords."""
    env_class = {**RACETRACK, **CONNECTED}[task_id]
    default = env_class.default_config()
    obs = dict(default["observation"])
    action = dict(default["action"])
    config: dict[str, Any] = {}
    for key, value in kw.items():
        if key in _GRID_KEYS:
            obs[_GRID_KEYS[key]] = value
        elif key == "observation_grid_size":
            obs["grid_size"] = [value[:2], value[2:]]
        elif key == "observation_grid_step":
            obs["grid_step"] = value
        elif key in _RACE_ACTION_KEYS:
            action[_RACE_ACTION_KEYS[key]] = value
        else:
            config[key] = value
    config["observation"] = obs
    config["action"] = action
    return env_class(config=config)


def _race_info(info: dict[str, Any], r_info: dict[str, Any], where: Any,
               reset: bool = False) -> None:
    assert_aligned(info["speed"][0], np.float32(r_info["speed"]), where)
    assert bool(info["crashed"][0]) == r_info["crashed"], where
    if not reset:
        assert np.array_equal(info["action"][0], r_info["action"]), where
    for name, value in r_info["rewards"].items():
        if reset and name == "action_reward":
            continue
        assert info[f"rewards_{name}"][0] == value, (where, name, info[f"rewards_{name}"][0],
                                                     value)


def _race_action(kind: str, rng: np.random.Generator, ref: Any, n: int) -> np.ndarray:
    """random: uniform in [-1.2, 1.2] (leaves the road); follow: a lane-keeping pilot on
    the package's state (drives laps, catches up with the slower IDM vehicles: crashes)."""
    if kind == "random":
        return rng.uniform(-1.2, 1.2, size=n).astype(np.float32)
    v = ref.vehicle
    s, lateral = v.lane.local_coordinates(v.position)
    angle = v.lane.local_angle(v.heading, s)
    steer = np.clip(-(0.3 * lateral + 1.2 * angle) / (np.pi / 4), -1, 1)
    return np.full(n, steer, dtype=np.float32)


def run_racetrack(task_id: str, seed: int, policy: str, steps: int,
                  **kw: Any) -> dict[str, int]:
    """Steps ours and the package's racetrack side by side (episodes restart on both sides
    when one ends), checking every output; returns what happened."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kw)
    ref = _package_racetrack(task_id, kw)
    rng = np.random.default_rng(seed)
    n = ours.action_space.shape[-1]
    obs, info = ours.reset()
    r_obs, r_info = ref.reset(seed=seed)
    assert_aligned(obs[0], r_obs, (task_id, seed, "reset"))
    _race_info(info, r_info, (task_id, seed, "reset"), reset=True)
    seen = {"episodes": 1, "terminated": 0, "truncated": 0, "crashed": 0, "offroad": 0}
    done = False
    for t in range(steps):
        action = _race_action(policy, rng, ref, n)
        obs, rew, term, trunc, info = ours.step(action[None])
        where = (task_id, seed, policy, t)
        if done:
            r_obs, r_info = ref.reset()
            assert_aligned(obs[0], r_obs, where)
            _race_info(info, r_info, where, reset=True)
            seen["episodes"] += 1
            done = False
            continue
        r_obs, r_rew, r_term, r_trunc, r_info = ref.step(action)
        assert_aligned(obs[0], r_obs, where)
        assert_aligned(rew[0], np.float32(r_rew), where)
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        _race_info(info, r_info, where)
        seen["crashed"] += int(r_info["crashed"])
        seen["offroad"] += int(not ref.vehicle.on_road)
        seen["terminated"] += int(r_term)
        seen["truncated"] += int(r_trunc)
        done = r_term or r_trunc
    ours.close()
    ref.close()
    return seen


@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", list(RACETRACK))
def test_racetrack_random_episodes(task_id: str) -> None:
    """Random float32 steering (some past [-1, 1]): off the road, past several resets."""
    seen = run_racetrack(task_id, 3, "random", 30, other_vehicles=4)
    assert seen["episodes"] >= 2 and seen["offroad"] >= 1, seen


@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", ["racetrack-v0", "racetrack-large-v0", "racetrack-oval-v0"])
def test_racetrack_follow_the_lane(task_id: str) -> None:
    """A lane-keeping pilot drives along the circular and straight lanes behind IDM
    vehicles: long episodes that end by the duration (truncated) or a crash."""
    seen = run_racetrack(task_id, 5, "follow", 44, duration=8.0, other_vehicles=6)
    assert seen["terminated"] + seen["truncated"] >= 1, seen


# ---- lane keeping ----

def run_lane_keeping(seed: int, policy: str, steps: int, max_episode_steps: int = 200,
                     task_id: str = "lane-keeping-v0", **kw: Any) -> dict[str, int]:
    """Steps ours and the package's lane-keeping-v0 (with gymnasium's TimeLimit, which ends
    its episodes) side by side, checking every output; returns what happened."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed,
                                  max_episode_steps=max_episode_steps, **kw)
    config: dict[str, Any] = {}
    action = dict(highway_env.envs.LaneKeepingEnv.default_config()["action"])
    for key, value in kw.items():
        if key in _RACE_ACTION_KEYS:
            action[_RACE_ACTION_KEYS[key]] = value
        else:
            config[key] = value
    config["action"] = action
    ref = gymnasium.make("lane-keeping-v0", config=config,
                         max_episode_steps=max_episode_steps, disable_env_checker=True)
    rng = np.random.default_rng(seed)
    obs, info = ours.reset()
    r_obs, r_info = ref.reset(seed=seed)
    _check_obs(obs, r_obs, (seed, "reset"))
    assert info["speed"][0] == np.float32(r_info["speed"]) and not info["crashed"][0]
    seen = {"episodes": 1, "truncated": 0, "switched": 0}
    done = False
    for t in range(steps):
        if policy == "random":
            a = rng.uniform(-1.2, 1.2, size=1).astype(np.float32)
        else:  # follow: steer back to the reference (a noisy observation's proportional law)
            state, reference = obs["state"][0][:, 0], obs["reference_state"][0][:, 0]
            a = np.array([np.clip(-0.3 * (state[0] - reference[0])
                                  - 1.5 * (state[1] - reference[1]), -1, 1)],
                         dtype=np.float32)
        obs, rew, term, trunc, info = ours.step(a[None])
        where = (seed, policy, t)
        if done:
            r_obs, r_info = ref.reset()
            _check_obs(obs, r_obs, where)
            seen["episodes"] += 1
            done = False
            continue
        r_obs, r_rew, r_term, r_trunc, r_info = ref.step(a)
        _check_obs(obs, r_obs, where)
        assert_aligned(rew[0], np.float32(r_rew), where)
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        assert_aligned(info["speed"][0], np.float32(ref.unwrapped.vehicle.speed), where)
        seen["switched"] += int(not ref.unwrapped.lanes)
        seen["truncated"] += int(r_trunc)
        done = r_term or r_trunc
    ours.close()
    ref.close()
    return seen


@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", ["lane-keeping-v0", "LaneKeeping-v0"])
def test_lane_keeping_random_episodes(task_id: str) -> None:
    """Random float32 steering over episodes of 40 steps (the time limit), the noise of
    three observations a reset and one a step drawn in order; the env's lane switches from
    the straight lane to the sine lane."""
    seen = run_lane_keeping(7, "random", 130, max_episode_steps=40, task_id=task_id)
    assert seen["episodes"] >= 3 and seen["truncated"] >= 2 and seen["switched"] >= 1, seen


def test_lane_keeping_follows_the_sine_lane() -> None:
    """A pilot on the noisy observation keeps the vehicle near its lane for the whole
    200-step episode (the id's time limit), then a new episode; other noise levels and
    steering range."""
    seen = run_lane_keeping(8, "follow", 205)
    assert seen["truncated"] == 1 and seen["episodes"] == 2, seen
    run_lane_keeping(9, "random", 30, state_noise=0.2, derivative_noise=0.0,
                     steering_range=[-0.5, 0.5])


@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", list(CONNECTED))
def test_racetrack_connected_lanes(task_id: str) -> None:
    """The -v1 tracks (ConnectedLaneRacetrackEnv*): the IDM vehicles also see the vehicles
    on the lanes before and after theirs; dense traffic behind the lane-keeping pilot."""
    # (seed 0: the connected-lane search changes the IDM vehicles' leaders at the first step)
    seen = run_racetrack(task_id, 0, "follow", 25, other_vehicles=12)
    assert seen["episodes"] >= 1, seen


def test_racetrack_crashes_and_keywords() -> None:
    """The lane-keeping pilot catches up with slower IDM vehicles on a track without
    off-road ends (collisions: terminated); non-default grid (other size and step, world
    axes, the vx and vy layers), both action axes (acceleration and steering: the
    two-element float32 norm), reward weights, the large track's speed limit, the oval's
    length and lanes, two controlled vehicles."""
    # (seed 1: the pilot runs into an IDM vehicle at its 27th step)
    seen = run_racetrack("racetrack-v0", 1, "follow", 32, other_vehicles=10,
                         terminate_off_road=False)
    assert seen["crashed"] >= 1 and seen["terminated"] >= 1, seen
    run_racetrack("racetrack-v0", 6, "random", 20, other_vehicles=5,
                  observation_features=["presence", "vx", "vy", "on_road", "cos_h"],
                  observation_grid_size=[-20.0, 25.0, -15.0, 15.0],
                  observation_grid_step=[2.5, 4.0], observation_align_to_vehicle_axes=False,
                  action_longitudinal=True, collision_reward=-2.0, lane_centering_cost=2.0,
                  action_reward=-0.5, duration=3.0)
    run_racetrack("racetrack-large-v0", 7, "follow", 20, speed_limit=14.0, other_vehicles=8,
                  controlled_vehicles=2)
    run_racetrack("racetrack-oval-v0", 8, "follow", 20, length=60, no_lanes=4,
                  other_vehicles=6, simulation_frequency=10, policy_frequency=2)


@pytest.mark.parametrize("task_id, kw, message", [
    ("racetrack-v0", {"observation_grid_step": [0.0, 3.0]}, "observation_grid_step"),
    ("racetrack-v0", {"observation_grid_size": [-18.0, 18.0]}, "observation_grid_size"),
    ("racetrack-v0", {"observation_features": ["presence", "speed"]}, "speed"),
    ("racetrack-oval-v0", {"no_lanes": 0}, "no_lanes"),
    ("racetrack-oval-v0", {"length": 0}, "length"),
    ("lane-keeping-v0", {"state_noise": -0.1}, "state_noise"),
])
def test_continuous_bad_keywords(task_id: str, kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium(task_id, num_envs=1, **kw)
