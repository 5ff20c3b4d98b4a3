"""Alignment of the intersection envs with the ``highway-env`` package (1.12.1), its own envs
run in the same test (the pattern of tests/test_align_highway.py).

Ours builds the scene and every later spawn from numpy's default_rng reproduced in C++
(uniform for the spawn chances and DELTA, choice(4, 2, replace=False) for the routes,
normal for the spawn positions and speeds, integers for a random destination), seeded with
the env's seed: env i of a pool made with seed s and ``gymnasium.make(package_id)`` reset with
seed s + i start in the same scene. Under the same actions, every observation is equal bit
for bit, every reward equal to the package's rounded to float32, terminated and truncated
equal, and the info's ``speed``, ``crashed``, ``action``, ``rewards_<name>``,
``agents_rewards`` and ``agents_terminated`` equal. Later episodes continue the generator on
both sides (our autoreset, the package's reset() without a seed).

The multi-agent ids are multi-player pools in sail-sg EnvPool's layout: one row per agent of
the observation (the package's Tuple element), the action (``players.action``), the reward
(``-v0``: the package's reward, the agents' mean; ``-v1``, ``-v2``, the package's
``MultiAgentWrapper``: its tuple of the agents' rewards) and ``info["players"]``'s ``speed``
and ``crashed`` (each agent's vehicle's); terminated per env (``-v1``, ``-v2``: every entry of
the wrapper's tuple).

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
    if isinstance(r_obs, tuple):  # MultiAgentObservation: each agent's array, a row each
        assert obs.shape == (len(r_obs), *r_obs[0].shape), where
        for o, r in zip(obs, r_obs, strict=True):
            assert_aligned(o, r, where, RTOL, ATOL)
    else:
        assert_aligned(obs[0], r_obs, where, RTOL, ATOL)


def _check_players(info: dict[str, Any], ref: Any, where: Any) -> None:
    """A multi-agent pool's ``info["players"]``: each agent's row (env 0), its vehicle's
    speed and crashed."""
    agents = ref.controlled_vehicles
    players = info["players"]
    assert np.array_equal(players["env_id"], np.zeros(len(agents))), where
    assert_aligned(players["speed"], np.array([v.speed for v in agents], np.float32), where, RTOL,
                   ATOL)
    assert np.array_equal(players["crashed"], [v.crashed for v in agents]), where


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
    if multi:
        _check_players(info, ref, (task_id, seed, "reset"))
    seen = {"episodes": 1, "terminated": 0, "truncated": 0, "crashed": 0, "arrived": 0,
            "spawned": 0, "one_crashed": 0}
    done = False
    for t in range(steps):
        actions = [_policy(policy, rng, n, t) for _ in range(agents)]
        # (a multi-agent pool's action: one row per agent, players.action)
        batch = np.array(actions,
                         dtype=np.float32 if policy in ("continuous", "throttle") else np.int32)
        obs, rew, term, trunc, info = ours.step(batch)
        where = (task_id, seed, policy, t)
        if done:  # our autoreset step: the package's reset() without a seed
            r_obs, r_info = ref_wrapped.reset()
            _check_obs(obs, r_obs, where)
            _check_info(info, r_info, where, action=False)
            if multi:
                _check_players(info, ref, where)
            seen["episodes"] += 1
            done = False
            continue
        before = len(ref.road.vehicles)
        r_obs, r_rew, r_term, r_trunc, r_info = ref_wrapped.step(
            tuple(actions) if multi else actions[0])
        if wrapper:  # MultiAgentWrapper: the agents' rewards and terminations
            assert r_rew == r_info["agents_rewards"] and r_term == r_info["agents_terminated"]
            r_term = all(r_term)
        _check_obs(obs, r_obs, where)
        # one reward per agent: the wrapper's tuple, else the package's reward (the mean)
        r_rews = np.asarray(r_rew if wrapper else [r_rew] * agents, dtype=np.float32)
        assert rew.dtype == np.float32 and rew.shape == (agents,), where
        assert_aligned(rew, r_rews, where, RTOL, ATOL)
        assert (term.shape, trunc.shape) == ((1,), (1,)), where
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        _check_info(info, r_info, where)
        if multi:
            _check_players(info, ref, where)
            seen["one_crashed"] += int(any(v.crashed for v in ref.controlled_vehicles)
                                       and not r_term)
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
                max_num_players=3, duration=8.0, initial_vehicle_count=4, offroad_terminal=True)


def test_intersection_continuous_action() -> None:
    """ContinuousAction on the intersection: the controlled vehicle a plain Vehicle (no
    route), its trajectory predicted by stepping a copy for the right of way; throttle only
    (the id's action keys), then throttle and steering, two agents."""
    run_aligned("intersection-v0", 9, "continuous", 12, action_type="ContinuousAction")
    run_aligned("intersection-multi-agent-v0", 10, "continuous", 8,
                action_type="ContinuousAction", action_lateral=True)


def test_intersection_pool_seeds_and_spaces() -> None:
    """Env i of a pool with seed s is the package's env reset with seed s + i."""
    ours = envpool.make_gymnasium("intersection-v0", num_envs=3, seed=20)
    obs, _ = ours.reset()
    for i in range(3):
        ref = gymnasium.make("intersection-v0").unwrapped
        assert np.array_equal(obs[i], ref.reset(seed=20 + i)[0]), i
    ours.close()


MULTI_AGENT_IDS = [i for i in PACKAGE_ID if "ulti" in i]


def test_multi_agent_layout() -> None:
    """A multi-agent pool in sail-sg EnvPool's layout: the spaces are one agent's (the
    package's Tuple elements), the rows of two envs' players follow players.env_id, and
    the players' actions sent in any order reach their envs in the order sent: each env
    steps as the package's env reset with seed s + i under its agents' actions."""
    multi = envpool.make_gymnasium("IntersectionMultiAgent-v1", num_envs=2, seed=30)
    ref_spaces = gymnasium.make("intersection-multi-agent-v1")
    assert multi.spec.max_num_players == 2 and multi.spec.config.max_num_players == 2
    assert multi.single_observation_space == ref_spaces.observation_space[0]
    assert multi.single_action_space == gymnasium.spaces.Discrete(3)
    assert list(multi.spec.action_array_spec) == ["env_id", "players.env_id", "players.action"]
    ref_spaces.close()
    refs = [gymnasium.make("intersection-multi-agent-v1") for _ in range(2)]
    obs, info = multi.reset()
    r_obs = [r.reset(seed=30 + i)[0] for i, r in enumerate(refs)]
    assert np.array_equal(info["players"]["env_id"], [0, 0, 1, 1])
    assert np.array_equal(obs, np.stack([o for pair in r_obs for o in pair]))
    actions = [(2, 0), (1, 2)]  # env 0's agents, env 1's
    # sent in the order env 1's first agent, env 0's first, env 0's second, env 1's second
    obs, rew, term, trunc, info = multi.step({
        "env_id": np.array([0, 1], np.int32), "players.env_id": np.array([1, 0, 0, 1], np.int32),
        "players.action": np.array([1, 2, 0, 2], np.int32)})
    steps = [r.step(a) for r, a in zip(refs, actions, strict=True)]
    assert np.array_equal(obs, np.stack([o for step in steps for o in step[0]]))
    assert np.array_equal(rew, np.array([x for step in steps for x in step[1]], np.float32))
    assert np.array_equal(term, [all(step[2]) for step in steps])
    assert np.array_equal(trunc, [step[3] for step in steps])
    assert np.array_equal(info["action"], actions)
    multi.close()
    for r in refs:
        r.close()


@pytest.mark.parametrize("task_id", MULTI_AGENT_IDS)
def test_multi_agent_ids_not_in_gymnasiums_registry(task_id: str) -> None:
    """Multi-player pools (a row per player) are not gymnasium envs: the strict path does not
    list them, and says which id it lacks; envpool.make_gymnasium makes them."""
    assert f"envpool/{task_id}" not in gymnasium.registry
    with pytest.raises(gymnasium.error.NameNotFound, match="doesn't exist"):
        gymnasium.make(f"envpool/{task_id}")
    with pytest.raises(gymnasium.error.NameNotFound, match="doesn't exist"):
        gymnasium.make_vec(f"envpool/{task_id}", num_envs=2)


def test_multi_agent_bad_actions() -> None:
    """Too few players' actions for an env, or one out of range: a ValueError at send, and
    the pool steps on."""
    multi = envpool.make_gymnasium("intersection-multi-agent-v0", num_envs=2, seed=0)
    multi.reset()
    with pytest.raises(ValueError, match="takes 2"):
        multi.step(np.ones(2, np.int32))
    with pytest.raises(ValueError, match="out of range"):
        multi.step(np.array([1, 1, 1, 3], np.int32))
    with pytest.raises(ValueError, match="takes 2"):
        multi.step({"env_id": np.array([0, 1], np.int32),
                    "players.env_id": np.array([0, 1, 1], np.int32),
                    "players.action": np.ones(3, np.int32)})
    with pytest.raises(ValueError, match="more than max_num_players"):
        multi.step({"env_id": np.array([0, 1], np.int32),
                    "players.env_id": np.array([0, 0, 0, 1], np.int32),
                    "players.action": np.ones(4, np.int32)})
    assert multi.step(np.ones(4, np.int32))[0].shape == (4, 15, 7)
    multi.close()


@pytest.mark.parametrize("kw, message", [
    ({"action_type": "Steering"}, "action_type"),
    ({"simulation_frequency": 1}, "simulation_frequency"),
    ({"observation_features_range": [1.0, 2.0]}, "observation_features_range"),
    ({"controlled_vehicles": 0}, "controlled_vehicles"),
    ({"multi_agent_wrapper": True}, "multi_agent_wrapper needs multi_agent"),
])
def test_intersection_bad_keywords(kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium("intersection-v0", num_envs=1, **kw)


@pytest.mark.parametrize("kw, message", [
    ({"controlled_vehicles": 3}, "pass max_num_players=3"),
    ({"max_num_players": 0}, "max_num_players"),
    ({"max_num_players": 101, "controlled_vehicles": 3}, "max_num_players"),
])
def test_multi_agent_bad_keywords(kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium("intersection-multi-agent-v0", num_envs=1, **kw)


def test_multi_agent_wrapper_goes_on_after_one_crash() -> None:
    """intersection-multi-agent-v1 (the package's MultiAgentWrapper): one agent crashes, the
    other drives on (the episode ends once every agent is terminated), each agent's own
    reward in its row; then the next episode."""
    seen = run_aligned("intersection-multi-agent-v1", 4, "faster", 12)
    assert seen["one_crashed"] >= 1 and seen["terminated"] >= 1, seen
    assert seen["episodes"] >= 2, seen
