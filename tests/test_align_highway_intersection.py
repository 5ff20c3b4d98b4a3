"""Alignment of the intersection envs with the ``highway-env`` package (1.12.1), its own envs
run in the same test (the pattern of tests/test_align_highway.py).

Ours builds the scene and every later spawn from numpy's default_rng reproduced in C++
(uniform for the spawn chances and DELTA, choice(4, 2, replace=False) for the routes,
normal for the spawn positions and speeds, integers for a random destination), seeded with
the env's seed: env i of a pool made with seed s and ``gymnasium.make(package_id)`` reset with
seed s + i start in the same scene. Under the same actions, every observation is equal bit
for bit (the multi-agent ids: each agent's), every reward equal to the package's rounded to
float32, terminated and truncated equal, and the info's ``speed``, ``crashed``, ``action``,
``rewards_<name>``, ``agents_rewards`` and ``agents_terminated`` equal. Later episodes
continue the generator on both sides (our autoreset, the package's reset() without a seed).

The package's _make_vehicles sets IDMVehicle's class attributes DISTANCE_WANTED,
COMFORT_ACC_MAX and COMFORT_ACC_MIN for the whole process: a fixture puts them back after
each test, so that the highway tests run after these see the package's own values.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import gymnasium
import highway_env  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from highway_env.vehicle.behavior import IDMVehicle
from test_align_highway import _ACTION_KEYS, _OBS_KEYS, assert_aligned

import envpool

# Our id -> the package's id.
PACKAGE_ID = {
    "intersection-v0": "intersection-v0", "Intersection-v0": "intersection-v0",
    "intersection-v1": "intersection-v1", "Intersection-v1": "intersection-v1",
    "intersection-v2": "intersection-v2",
    "intersection-multi-agent-v0": "intersection-multi-agent-v0",
    "IntersectionMultiAgent-v0": "intersection-multi-agent-v0",
    "intersection-multi-agent-v1": "intersection-multi-agent-v1",
    "IntersectionMultiAgent-v1": "intersection-multi-agent-v1",
    "intersection-multi-agent-v2": "intersection-multi-agent-v2",
}
# the ids of the discrete actions (intersection-v1's are continuous: CONTINUOUS_IDS)
IDS = [task_id for task_id, package in PACKAGE_ID.items() if package != "intersection-v1"]
CONTINUOUS_IDS = ["intersection-v1", "Intersection-v1"]
_RANGE_NAMES = ("x", "y", "vx", "vy")


@pytest.fixture(autouse=True)
def _restore_idm_class_attributes() -> Iterator[None]:
    saved = {k: getattr(IDMVehicle, k)
             for k in ("DISTANCE_WANTED", "COMFORT_ACC_MAX", "COMFORT_ACC_MIN")}
    yield
    for k, v in saved.items():
        setattr(IDMVehicle, k, v)


def _package_config(package_id: str, kw: dict[str, Any]) -> dict[str, Any]:
    """The package's config for our keywords (its observation and action dicts replace the
    defaults whole, so they start from its defaults)."""
    env = gymnasium.make(package_id).unwrapped
    default = env.default_config()
    env.close()
    multi = default["action"]["type"] == "MultiAgentAction"
    obs = copy.deepcopy(default["observation"])
    action = copy.deepcopy(default["action"])
    obs_inner = obs["observation_config"] if multi else obs
    action_inner = action["action_config"] if multi else action
    config: dict[str, Any] = {"observation": obs, "action": action}
    for key, value in kw.items():
        if key in _OBS_KEYS:
            obs_inner[_OBS_KEYS[key]] = value
        elif key in _ACTION_KEYS:
            action_inner[_ACTION_KEYS[key]] = value
        elif key == "observation_features_range":
            obs_inner["features_range"] = (
                {n: value[2 * i:2 * i + 2] for i, n in enumerate(_RANGE_NAMES)} if value else None)
        elif key == "destination":
            config[key] = value or None
        else:
            config[key] = value
    return config


def _make(task_id: str, seed: int, **kw: Any) -> tuple[Any, Any]:
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kw)
    ref = gymnasium.make(PACKAGE_ID[task_id], config=_package_config(PACKAGE_ID[task_id], kw))
    return ours, ref


# Where numpy's angles are SVML's (test_align_highway.LIBM_ANGLES), the intersection's
# 1-ulp differences grow faster than on the roads (the ego turns across the crossing under
# the steering controller): seen on an AMD EPYC Zen 4, intersection-v2 seed 3, up to 4.5e-7
# (relative; 2 float32 ulps of the observation's cos_h) by its 12th step.
RTOL = 2e-6
ATOL = 1e-8


def _check_obs(obs: Any, r_obs: Any, where: Any) -> None:
    if isinstance(r_obs, tuple):  # MultiAgentObservation: each agent's array
        assert len(obs) == len(r_obs), where
        for o, r in zip(obs, r_obs, strict=True):
            assert_aligned(o[0], r, where, RTOL, ATOL)
    else:
        assert_aligned(obs[0], r_obs, where, RTOL, ATOL)


def _check_info(info: dict[str, Any], r_info: dict[str, Any], where: Any,
                action: bool = True) -> None:
    assert_aligned(info["speed"][0], np.float32(r_info["speed"]), where, RTOL, ATOL)
    assert bool(info["crashed"][0]) == r_info["crashed"], where
    if action:
        assert np.array_equal(info["action"][0], np.asarray(r_info["action"])), where
    for name, value in r_info["rewards"].items():
        assert_aligned(info[f"rewards_{name}"][0], value, (where, name), RTOL, ATOL)
    assert_aligned(info["agents_rewards"][0], np.asarray(r_info["agents_rewards"]), where,
                   RTOL, ATOL)
    assert np.array_equal(info["agents_terminated"][0],
                          np.asarray(r_info["agents_terminated"])), where


def _policy(kind: str, rng: np.random.Generator, n: int, t: int) -> Any:
    if kind == "continuous":
        return rng.uniform(-1, 1, size=n).astype(np.float32)
    if kind == "throttle":  # full acceleration, straight on: into the crossing traffic
        return np.array([1.0, 0.0], dtype=np.float32)
    if kind == "random":
        return int(rng.integers(n))
    if kind == "faster":  # FASTER: into the crossing traffic, or out of the exit
        return 2
    if kind == "stop":  # SLOWER: waits at the stop line until the time runs out
        return 0
    return 1  # IDLE


def run_aligned(task_id: str, seed: int, policy: str, steps: int,
                **kw: Any) -> dict[str, int]:
    """Steps ours and the package's env side by side for ``steps`` steps (episodes restart
    on both sides when one ends), checking every output; returns what happened."""
    ours, ref_wrapped = _make(task_id, seed, **kw)
    ref = ref_wrapped.unwrapped
    multi = PACKAGE_ID[task_id].startswith("intersection-multi-agent")
    wrapper = multi and not PACKAGE_ID[task_id].endswith("-v0")  # MultiAgentWrapper
    agents = ref.config["controlled_vehicles"] if multi else 1
    n = ours.single_action_space.shape[-1] if policy in ("continuous", "throttle") else 3
    rng = np.random.default_rng(seed)
    obs, info = ours.reset()
    r_obs, r_info = ref_wrapped.reset(seed=seed)
    _check_obs(obs, r_obs, (task_id, seed, "reset"))
    _check_info(info, r_info, (task_id, seed, "reset"), action=False)
    seen = {"episodes": 1, "terminated": 0, "truncated": 0, "crashed": 0, "arrived": 0,
            "spawned": 0}
    done = False
    for t in range(steps):
        actions = [_policy(policy, rng, n, t) for _ in range(agents)]
        batch = np.array([actions] if multi else actions,
                         dtype=np.float32 if policy in ("continuous", "throttle") else np.int32)
        obs, rew, term, trunc, info = ours.step(batch)
        where = (task_id, seed, policy, t)
        if done:  # our autoreset step: the package's reset() without a seed
            r_obs, r_info = ref_wrapped.reset()
            _check_obs(obs, r_obs, where)
            _check_info(info, r_info, where, action=False)
            seen["episodes"] += 1
            done = False
            continue
        before = len(ref.road.vehicles)
        r_obs, r_rew, r_term, r_trunc, r_info = ref_wrapped.step(
            tuple(actions) if multi else actions[0])
        if wrapper:  # MultiAgentWrapper: the agents' rewards and terminations
            assert r_rew == r_info["agents_rewards"] and r_term == r_info["agents_terminated"]
            r_rew = ref._reward(tuple(actions))
            r_term = ref._is_terminated()
        _check_obs(obs, r_obs, where)
        assert_aligned(rew[0], np.float32(r_rew), where, RTOL, ATOL)
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        _check_info(info, r_info, where)
        seen["crashed"] += int(any(v.crashed for v in ref.controlled_vehicles))
        seen["arrived"] += int(any(r_info["rewards"]["arrived_reward"] > 0 for _ in [0]))
        seen["spawned"] += int(len(ref.road.vehicles) > before)
        seen["terminated"] += int(r_term)
        seen["truncated"] += int(r_trunc)
        done = r_term or r_trunc
    ours.close()
    ref_wrapped.close()
    return seen


# The package steps the intersection (about 10 vehicles at 15 Hz, regulated every 7 frames)
# at about 0.1 s a step here, its reset (3 s of simulation) at about 0.5 s. The default suite
# runs one of these ids (test_intersection_keywords runs the multi-agent code too), the
# nightly all eight.
@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_intersection_random_and_scripted_episodes(task_id: str) -> None:
    """Random actions, then a pilot at full speed into the crossing traffic, over several
    episodes: every observation, reward, flag and info bitwise."""
    seen = run_aligned(task_id, 3, "random", 20)
    assert seen["episodes"] >= 2, seen
    seen = run_aligned(task_id, 5, "faster", 20)
    assert seen["terminated"] >= 1 and seen["episodes"] >= 2, seen


# intersection-v1 (ContinuousIntersectionEnv): the controlled vehicle a BicycleVehicle
# (ContinuousAction, dynamical), whose constant-steering trajectory (a copy stepped by the
# bicycle model's rk4) the regulated road predicts for the right of way.
@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", CONTINUOUS_IDS)
def test_continuous_intersection_episodes(task_id: str) -> None:
    """Random steering and acceleration, then full throttle straight into the crossing
    traffic, over several episodes: every observation (with the lane offsets), reward,
    flag and info bitwise."""
    # seed 5: at step 11 the right of way differs where the controlled vehicle's path is
    # predicted kinematically instead of by the bicycle model (shown red that way)
    seen = run_aligned(task_id, 5, "continuous", 20)
    assert seen["episodes"] >= 2, seen
    seen = run_aligned(task_id, 4, "throttle", 20)
    assert seen["terminated"] >= 1 and seen["crashed"] >= 1, seen


def test_intersection_outcomes() -> None:
    """intersection-v0 over several seeds: episodes that crash, that arrive (terminated
    either way) and that run to the duration (truncated); vehicles spawned during them."""
    totals = {"terminated": 0, "truncated": 0, "crashed": 0, "arrived": 0, "spawned": 0}
    for policy in ("stop", "idle"):  # seed 2: waits out the time; crashes, then arrives
        seen = run_aligned("intersection-v0", 2, policy, 16)
        for k in totals:
            totals[k] += seen[k]
    assert all(totals[k] >= 1 for k in totals), totals


def test_intersection_keywords() -> None:
    """Non-default keys: a random destination, more and fewer vehicles, spawns always, the
    reward weights and normalisation, other frequencies, the observation's options (relative,
    default ranges, intentions, shuffled), three agents (the third from the south again)."""
    run_aligned("intersection-v0", 6, "random", 20, destination="", initial_vehicle_count=14,
                spawn_probability=1.0, collision_reward=-2.0, high_speed_reward=0.5,
                arrived_reward=2.0, reward_speed_range=[4.0, 8.0], normalize_reward=True)
    run_aligned("intersection-v0", 7, "random", 20, simulation_frequency=10,
                policy_frequency=2, observation_absolute=False, observation_features_range=[],
                observation_features=["presence", "x", "y", "vx", "vy", "heading", "cos_d",
                                      "sin_d", "long_off", "lat_off", "ang_off"],
                observation_observe_intentions=True, observation_order="shuffled",
                observation_vehicles_count=8, target_speeds=[0.0, 3.0, 6.0, 9.0])
    run_aligned("intersection-multi-agent-v0", 8, "random", 20, controlled_vehicles=3,
                duration=8.0, initial_vehicle_count=4, offroad_terminal=True)


def test_intersection_continuous_action() -> None:
    """ContinuousAction on the intersection: the controlled vehicle a plain Vehicle (no
    route), its trajectory predicted by stepping a copy for the right of way; throttle only
    (the id's action keys), then throttle and steering, two agents."""
    run_aligned("intersection-v0", 9, "continuous", 12, action_type="ContinuousAction")
    run_aligned("intersection-multi-agent-v0", 10, "continuous", 8,
                action_type="ContinuousAction", action_lateral=True)


def test_intersection_pool_seeds_and_spaces() -> None:
    """Env i of a pool with seed s is the package's env reset with seed s + i; the
    multi-agent spaces are the package's Tuple observation and one label per agent."""
    ours = envpool.make_gymnasium("intersection-v0", num_envs=3, seed=20)
    obs, _ = ours.reset()
    for i in range(3):
        ref = gymnasium.make("intersection-v0").unwrapped
        assert np.array_equal(obs[i], ref.reset(seed=20 + i)[0]), i
    ours.close()
    multi = envpool.make_gymnasium("intersection-multi-agent-v1", num_envs=2, seed=0)
    ref = gymnasium.make("intersection-multi-agent-v1")
    assert isinstance(multi.single_observation_space, gymnasium.spaces.Tuple)
    assert len(multi.single_observation_space) == 2
    for ours_space, ref_space in zip(multi.single_observation_space, ref.observation_space,
                                     strict=True):
        assert ours_space.shape == ref_space.shape and ours_space.dtype == ref_space.dtype
    assert multi.single_action_space == gymnasium.spaces.MultiDiscrete([3, 3])
    multi.close()


@pytest.mark.parametrize("kw, message", [
    ({"action_type": "Steering"}, "action_type"),
    ({"simulation_frequency": 1}, "simulation_frequency"),
    ({"observation_features_range": [1.0, 2.0]}, "observation_features_range"),
    ({"controlled_vehicles": 0}, "controlled_vehicles"),
])
def test_intersection_bad_keywords(kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium("intersection-v0", num_envs=1, **kw)
