"""Alignment of highway-env's road tasks (merge, roundabout, two-way, exit, u-turn) with the
``highway-env`` package (1.12.1), its own envs run in the same test.

As in test_align_highway.py: env i of a pool made with seed s and ``gymnasium.make(id)``
reset with seed s + i build the same scene from numpy's default_rng (integers, uniform,
normal through numpy's ziggurat tables, choice with p), and under the same actions every
observation (Kinematics, TimeToCollision, ExitObservation) must be equal bit for bit, every
reward equal to the package's rounded to float32, terminated and truncated equal, and the
info's ``speed``, ``crashed``, ``action``, ``rewards_<name>`` (and exit's ``is_success``)
equal, over episodes past several resets (our autoreset, the package's reset() without a
seed).

Not compared at reset: the info's ``action`` and the ``lane_change_reward`` term, which the
package computes from ``action_space.sample()`` (the space's own unseeded generator).
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
import highway_env  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from gymnasium.envs.registration import load_env_creator
from test_align_highway import _ACTION_KEYS, _OBS_KEYS, _policy, assert_aligned

import envpool

# Our id -> the package's id.
PACKAGE_ID = {"merge-v0": "merge-v0", "Merge-v0": "merge-v0",
              "roundabout-v0": "roundabout-v0", "Roundabout-v0": "roundabout-v0",
              "two-way-v0": "two-way-v0", "TwoWay-v0": "two-way-v0",
              "exit-v0": "exit-v0", "Exit-v0": "exit-v0",
              "u-turn-v0": "u-turn-v0", "UTurn-v0": "u-turn-v0",
              # the package's ConnectedLane*Env (neighbour_vehicles_connected_lanes=True)
              "merge-v1": "merge-v1", "roundabout-v1": "roundabout-v1",
              "exit-v1": "exit-v1", "u-turn-v1": "u-turn-v1",
              # the package's MergeGenericEnv (and its ConnectedLane variant)
              "merge-generic-v0": "merge-generic-v0", "merge-generic-v1": "merge-generic-v1"}
IDS = list(PACKAGE_ID)

_MORE_OBS_KEYS = {"observation_type": "type", "observation_horizon": "horizon",
                  "observation_include_obstacles": "include_obstacles"}


def _package_config(package_id: str, kw: dict[str, Any]) -> dict[str, Any]:
    """The package's config for our keywords: its task's observation and action dicts
    updated (the package's configure replaces a whole dict it is given)."""
    defaults = load_env_creator(gymnasium.spec(package_id).entry_point).default_config()
    config: dict[str, Any] = {}
    obs = copy.deepcopy(defaults["observation"])
    action = copy.deepcopy(defaults["action"])
    for key, value in kw.items():
        if key in _OBS_KEYS:
            obs[_OBS_KEYS[key]] = value
        elif key in _MORE_OBS_KEYS:
            obs[_MORE_OBS_KEYS[key]] = value
        elif key == "observation_features_range":
            obs["features_range"] = (dict(zip(("x", "y", "vx", "vy"),
                                              np.reshape(value, (4, 2)).tolist(), strict=True))
                                     if value else None)
        elif key in _ACTION_KEYS:
            action[_ACTION_KEYS[key]] = value
        elif key == "incoming_vehicle_destination":
            config[key] = None if value == -1 else value
        else:
            config[key] = value
    config["observation"] = obs
    config["action"] = action
    return config


def _check_info(info: dict[str, Any], r_info: dict[str, Any], where: Any,
                reset: bool = False) -> None:
    assert_aligned(info["speed"][0], np.float32(r_info["speed"]), where)
    assert bool(info["crashed"][0]) == r_info["crashed"], where
    if not reset:
        assert np.array_equal(info["action"][0], r_info["action"]), where
    for name, value in r_info["rewards"].items():
        if reset and name == "lane_change_reward":
            continue
        assert_aligned(info[f"rewards_{name}"][0], value, (where, name))
    if "is_success" in r_info:
        assert bool(info["is_success"][0]) == r_info["is_success"], where


def _scripted(kind: str, t: int) -> int | None:
    if kind == "right":  # LANE_RIGHT and SLOWER: exit's exit lane
        return (2, 4)[t % 2]
    if kind == "left":  # LANE_LEFT and FASTER: two-way's oncoming lane, u-turn's left lane
        return (0, 3, 0, 1)[t % 4]
    if kind == "slow":
        return 4
    return None


def run_aligned(task_id: str, seed: int, policy: str, steps: int, **kw: Any) -> dict[str, int]:
    """Steps ours and the package's env side by side for ``steps`` steps (episodes restart
    on both sides when one ends), checking every output; returns what happened."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kw)
    package_id = PACKAGE_ID[task_id]
    ref = gymnasium.make(package_id, config=_package_config(package_id, kw)).unwrapped
    rng = np.random.default_rng(seed)
    space = ours.action_space
    n = space.shape[-1] if policy == "continuous" else int(space.n)
    obs, info = ours.reset()
    r_obs, r_info = ref.reset(seed=seed)
    assert_aligned(obs[0], r_obs, (task_id, seed, "reset"))
    _check_info(info, r_info, (task_id, seed, "reset"), reset=True)
    seen = {"episodes": 1, "terminated": 0, "truncated": 0, "success": 0}
    done = False
    for t in range(steps):
        scripted = _scripted(policy, t)
        action = scripted if scripted is not None else _policy(policy, rng, n, t)
        batch = np.array([action]) if policy != "continuous" else action[None]
        obs, rew, term, trunc, info = ours.step(batch)
        where = (task_id, seed, policy, t)
        if done:  # our autoreset step: the package's reset() without a seed
            r_obs, r_info = ref.reset()
            assert_aligned(obs[0], r_obs, where)
            _check_info(info, r_info, where, reset=True)
            seen["episodes"] += 1
            done = False
            continue
        r_obs, r_rew, r_term, r_trunc, r_info = ref.step(action)
        assert_aligned(obs[0], r_obs, where)
        assert_aligned(rew[0], np.float32(r_rew), where)
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        _check_info(info, r_info, where)
        seen["terminated"] += int(r_term)
        seen["truncated"] += int(r_trunc)
        seen["success"] += int(bool(r_info.get("is_success", False)))
        done = r_term or r_trunc
    ours.close()
    ref.close()
    return seen


@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_road_random_episodes(task_id: str) -> None:
    """Random actions over several episodes: every observation, reward, flag and info
    bitwise."""
    seen = run_aligned(task_id, 3, "random", 24)
    assert seen["episodes"] >= 2, seen


def test_merge_episodes() -> None:
    """merge-v0: episodes that end past the ramp (x > 370) and that crash (the pilot speeds
    and changes lanes), the ramp's obstacle in the observation and the neighbour search."""
    seen = run_aligned("merge-v0", 0, "idle", 32)
    assert seen["terminated"] >= 2, seen
    seen = run_aligned("merge-v0", 11, "faster", 20)
    assert seen["terminated"] >= 2, seen


def test_merge_generic_episodes() -> None:
    """merge-generic-v0 on its defaults (2 lanes, 3 vehicles) and on another road (3 lanes,
    shorter sections, more vehicles placed by the package's tries at a safe distance):
    episodes that end past the road's end and that crash."""
    seen = run_aligned("merge-generic-v0", 4, "idle", 40)
    assert seen["terminated"] >= 2, seen
    seen = run_aligned("merge-generic-v0", 21, "faster", 24, lanes_count=3, vehicles_count=12,
                       before_merge_length=90, converge_merge_length=50,
                       parallel_merge_length=60, after_merge_length=120)
    assert seen["terminated"] >= 2, seen


def test_merge_generic_placements() -> None:
    """Dense traffic on a short merge-generic road (the package's ten tries per vehicle, kept
    more than 15 m from each vehicle of its lane): 40 resets, every vehicle seen (absolute
    positions), equal to the package's reset with the same seed."""
    kw = dict(lanes_count=2, vehicles_count=25, before_merge_length=60.0,
              converge_merge_length=30.0, parallel_merge_length=30.0,
              observation_vehicles_count=30, observation_absolute=True,
              observation_normalize=False)
    ours = envpool.make_gymnasium("merge-generic-v0", num_envs=40, seed=100, **kw)
    obs, _ = ours.reset()
    config = _package_config("merge-generic-v0", kw)
    placed = 0
    for i in range(40):
        ref = gymnasium.make("merge-generic-v0", config=config).unwrapped
        r_obs, _ = ref.reset(seed=100 + i)
        assert_aligned(obs[i], r_obs, ("reset", 100 + i))
        placed += int(r_obs[:, 0].sum())
        ref.close()
    assert 40 * 3 < placed < 40 * 27, placed  # some tries fail, many succeed
    ours.close()


@pytest.mark.sweep_only("16 short episodes, each with its road's length")
@pytest.mark.parametrize("after", [90.0 + k for k in range(0, 32, 2)])
def test_merge_generic_road_end(after: float) -> None:
    """The episode ends past before + converge + parallel + after - 90 m: roads whose end
    falls on every 2 m of the ego's ~30 m steps."""
    seen = run_aligned("merge-generic-v0", 30, "idle", 14, after_merge_length=after,
                       vehicles_count=0)
    assert seen["terminated"] >= 1, seen


def test_merge_generic_refuses_what_the_package_asserts() -> None:
    """The package asserts positive sections and an after section of at least 90 m."""
    with pytest.raises(ValueError, match="after_merge_length"):
        envpool.make_gymnasium("merge-generic-v0", after_merge_length=89.0)
    with pytest.raises(ValueError, match="before_merge_length"):
        envpool.make_gymnasium("merge-generic-v0", converge_merge_length=0.0)
    with pytest.raises(ValueError, match="lanes_count"):
        envpool.make_gymnasium("merge-generic-v0", lanes_count=0)


def test_roundabout_episodes() -> None:
    """roundabout-v0: routes through the ring (the IDM vehicles' exits, the ego's route to
    the north exit), episodes that run to their duration and that crash."""
    totals = {"terminated": 0, "truncated": 0}
    for seed, policy, steps in ((1, "faster", 25), (2, "idle", 14)):
        seen = run_aligned("roundabout-v0", seed, policy, steps)
        for k in totals:
            totals[k] += seen[k]
    assert totals["terminated"] >= 1 and totals["truncated"] >= 1, totals


def test_two_way_episodes() -> None:
    """two-way-v0: the TimeToCollision grid, a pilot that drives onto the oncoming lane and
    crashes, over several episodes."""
    seen = run_aligned("two-way-v0", 5, "left", 30)
    assert seen["terminated"] >= 2, seen


def test_exit_episodes() -> None:
    """exit-v0 in lighter traffic (4 vehicles routed to the road's end, 3 lanes): a pilot
    that moves right to the exit lane (is_success, goal_reward), episodes that run to their
    duration and that crash."""
    seen = run_aligned("exit-v0", 1, "right", 40, vehicles_count=4, lanes_count=3)
    assert seen["success"] >= 1 and seen["truncated"] >= 1 and seen["terminated"] >= 1, seen


def test_u_turn_episodes() -> None:
    """u-turn-v0: the route through the turn, the TimeToCollision grid, crashes and
    episodes that run to their duration."""
    totals = {"terminated": 0, "truncated": 0}
    for seed, policy in ((7, "left"), (8, "slow")):
        seen = run_aligned("u-turn-v0", seed, policy, 14)
        for k in totals:
            totals[k] += seen[k]
    assert totals["terminated"] >= 1 and totals["truncated"] >= 1, totals


def test_road_keywords() -> None:
    """Non-default keywords: the Kinematics observation on the TimeToCollision tasks (with
    intentions: the routes' destinations), another horizon and decision frequency, the
    incoming vehicle's destination, the exit's lanes and traffic, reward weights,
    ContinuousAction, connected-lane neighbours."""
    run_aligned("two-way-v0", 12, "random", 6, observation_type="Kinematics",
                observation_features=["presence", "x", "y", "vx", "vy", "heading", "cos_d",
                                      "sin_d", "long_off", "lat_off", "ang_off"],
                observation_observe_intentions=True)
    run_aligned("u-turn-v0", 13, "random", 6, observation_type="Kinematics",
                observation_features=["presence", "x", "y", "cos_h", "sin_h", "cos_d",
                                      "sin_d"],
                observation_observe_intentions=True, observation_absolute=True)
    run_aligned("u-turn-v0", 14, "random", 6, observation_horizon=7, policy_frequency=3,
                simulation_frequency=9, collision_reward=-2.0, normalize_reward=False)
    run_aligned("roundabout-v0", 15, "random", 6, incoming_vehicle_destination=2,
                observation_features_range=[], observation_vehicles_count=8,
                neighbour_vehicles_connected_lanes=True)
    # (one number: the package's `action in [0, 2]` cannot compare a two-number action)
    run_aligned("roundabout-v0", 16, "continuous", 6, action_type="ContinuousAction",
                action_lateral=False)
    run_aligned("merge-v0", 17, "random", 6,
                observation_features=["presence", "x", "y", "vx", "vy", "heading",
                                      "long_off"],
                merging_speed_reward=-1.0, lane_change_reward=-0.2)
    run_aligned("merge-v0", 18, "random", 6, observation_include_obstacles=False,
                observation_order="shuffled", neighbour_vehicles_connected_lanes=True)
    run_aligned("exit-v0", 19, "random", 6, lanes_count=4, vehicles_count=12,
                controlled_vehicles=2, observation_type="Kinematics",
                observation_normalize=False, goal_reward=2.0, right_lane_reward=0.1)


def test_road_pool_seeds() -> None:
    """Env i of a pool with seed s is the package's env reset with seed s + i."""
    ours = envpool.make_gymnasium("roundabout-v0", num_envs=3, seed=20)
    obs, _ = ours.reset()
    for i in range(3):
        ref = gymnasium.make("roundabout-v0").unwrapped
        assert np.array_equal(obs[i], ref.reset(seed=20 + i)[0]), i
    ours.close()


def test_road_spaces() -> None:
    """The task's observation spaces: TimeToCollision 3 x 3 x horizon in [0, 1], exit's
    15 x 7, roundabout's and merge's 5 x 5."""
    shapes = {"merge-v0": (5, 5), "roundabout-v0": (5, 5), "two-way-v0": (3, 3, 5),
              "exit-v0": (15, 7), "u-turn-v0": (3, 3, 16)}
    for task_id, shape in shapes.items():
        env = envpool.make_gymnasium(task_id, num_envs=1)
        ref = gymnasium.make(task_id)
        assert env.observation_space.shape == shape == ref.observation_space.shape, task_id
        assert env.action_space.n == ref.action_space.n, task_id
        env.close()


@pytest.mark.parametrize("task_id, kw, message", [
    ("two-way-v0", {"action_type": "ContinuousAction"}, "DiscreteMetaAction"),
    ("u-turn-v0", {"target_speeds": [10.0]}, "target_speeds"),
    ("merge-v0", {"observation_type": "ExitObservation"}, "observation_type"),
    ("roundabout-v0", {"observation_features_range": [1.0, 2.0]},
     "observation_features_range"),
    ("roundabout-v0", {"incoming_vehicle_destination": 3}, "incoming_vehicle_destination"),
    ("exit-v0", {"lanes_count": 1}, "lanes_count"),
    # empty lmap ranges, where the package raises ZeroDivisionError
    ("merge-v0", {"reward_speed_range": [25.0, 25.0]}, "reward_speed_range"),
    ("roundabout-v0", {"high_speed_reward": -1.0}, "high_speed_reward"),
    ("exit-v0", {"goal_reward": 0.0}, "goal_reward"),
    ("u-turn-v0", {"collision_reward": 0.5}, "collision_reward"),
])
def test_road_bad_keywords(task_id: str, kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium(task_id, num_envs=1, **kw)
