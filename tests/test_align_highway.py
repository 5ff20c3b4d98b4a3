"""Alignment of the highway-env envs with the ``highway-env`` package (1.12.1), its own envs
run in the same test.

Ours builds every scene from numpy's default_rng reproduced in C++ (Generator.integers for
the lane choices, uniform for the speeds, the spacing and each IDM vehicle's DELTA, shuffle
for a shuffled Kinematics observation), seeded with the env's seed, so nothing is copied
between the two: env i of a pool made with seed s and ``gymnasium.make(task_id)`` reset with
seed s + i start in the same scene. Under the same actions, every observation must be
equal bit for bit, every reward equal to the package's rounded to float32 (the pool's reward
dtype), terminated and truncated equal, and the info's ``speed`` (float64), ``crashed``,
``action`` and ``rewards`` (``rewards_<name>``, float64) equal. Later episodes continue the
seeded generator on both sides (our autoreset, the package's reset() without a seed).

Not compared: the reset info's ``action``, which the package draws with
``action_space.sample()`` from the space's own unseeded generator (ours is 0).

The package computes its angles with numpy's float64 ``arctan2`` (a point's angle on a
circular lane, the bicycle model's slip angles), ``arctan``, ``arcsin`` and ``tan`` (the
steering controller, the kinematic model's slip angle, a sine lane's heading); our C++ calls
the C library's, as numpy does on CPUs without AVX-512. On AVX-512 CPUs numpy computes these
four with Intel's SVML kernels, which differ from glibc's by 1 ulp on a few percent of
inputs (seen on an AMD EPYC Zen 4: 1 in 16 of the roundabout's arctan2 calls), and the
difference feeds back into the vehicles' state. ``LIBM_ANGLES`` asks the running numpy
(tests/numerics.py): where it is the C library, every check here is bitwise; where it is
not, ``assert_aligned`` holds the numbers within ``SVML_RTOL`` (relative) and ``SVML_ATOL``
(absolute, for numbers that are 0 on one side) and the flags, the discrete info and the
actions stay exact.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import highway_env  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from numerics import arctan2_matches_libm, ufunc_matches_libm  # tests/numerics.py

import envpool

# Whether numpy's float64 arctan2, arctan, arcsin and tan are the C library's, which our C++
# calls (ranges: the steering controller's and the lanes' arguments).
LIBM_ANGLES = (arctan2_matches_libm()
               and ufunc_matches_libm("arctan", 1e-6, 100.0, signed=True)
               and ufunc_matches_libm("arcsin", 1e-6, 1.0, signed=True)
               and ufunc_matches_libm("tan", 1e-6, 1.5, signed=True))
# Where they are not (AVX-512: SVML), a 1-ulp difference in an angle grows through the
# vehicles' positions, headings and speeds over the steps. Over every test here on an AMD EPYC
# Zen 4 the float64 numbers (lane keeping's state, the speeds, the reward terms) stayed within
# 1.9e-14 (relative) or 1.5e-14 (absolute) of the package's, and the float32 ones (the
# observations, the reward) within one float32 ulp, or 4.2e-12 (absolute: a normalized vx near
# 0 on the roundabout's ring). The bounds leave a margin of 50 and 25.
SVML_RTOL = 1e-12
SVML_ATOL = 1e-10


def assert_aligned(ours: Any, theirs: Any, where: Any, rtol: float = SVML_RTOL,
                   atol: float = SVML_ATOL) -> None:
    """Ours equals the package's bit for bit where numpy's angles are the C library's
    (``LIBM_ANGLES``); where they are SVML's, within ``rtol`` (relative; for float32
    numbers at least one float32 ulp, as float64 numbers that close round to the same or
    neighbouring float32 numbers) or ``atol`` (absolute: numbers near 0)."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    if LIBM_ANGLES:
        assert np.array_equal(ours, theirs, equal_nan=True), (where, ours, theirs)
        return
    if ours.dtype == np.float32:
        rtol = max(rtol, float(np.finfo(np.float32).eps))
    np.testing.assert_allclose(ours.astype(np.float64), theirs.astype(np.float64), rtol=rtol,
                               atol=atol, equal_nan=True, err_msg=str(where))


# Our id -> the package's id.
PACKAGE_ID = {"highway-v0": "highway-v0", "Highway-v0": "highway-v0",
              "highway-fast-v0": "highway-fast-v0", "HighwayFast-v0": "highway-fast-v0"}
IDS = list(PACKAGE_ID)

# Our keywords that are the package's config["observation"] / config["action"] keys.
_OBS_KEYS = {"observation_features": "features", "observation_vehicles_count": "vehicles_count",
             "observation_absolute": "absolute", "observation_order": "order",
             "observation_normalize": "normalize", "observation_clip": "clip",
             "observation_see_behind": "see_behind",
             "observation_observe_intentions": "observe_intentions"}
_ACTION_KEYS = {"action_type": "type", "action_longitudinal": "longitudinal",
                "action_lateral": "lateral", "target_speeds": "target_speeds",
                "acceleration_range": "acceleration_range", "steering_range": "steering_range",
                "action_clip": "clip", "action_dynamical": "dynamical"}
_RENAMED = {"other_vehicles_check_collisions"}  # no package key: the task decides


def _package_config(kw: dict[str, Any]) -> dict[str, Any]:
    """The package's config for our keywords."""
    config: dict[str, Any] = {}
    obs: dict[str, Any] = {"type": "Kinematics"}
    action: dict[str, Any] = {"type": "DiscreteMetaAction"}
    for key, value in kw.items():
        if key in _OBS_KEYS:
            obs[_OBS_KEYS[key]] = value
        elif key in _ACTION_KEYS:
            action[_ACTION_KEYS[key]] = value
        elif key == "initial_lane_id":
            config[key] = None if value == -1 else value
        elif key not in _RENAMED:
            config[key] = value
    config["observation"] = obs
    config["action"] = action
    return config


def _make(task_id: str, seed: int, **kw: Any) -> tuple[Any, Any]:
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kw)
    ref = gymnasium.make(PACKAGE_ID[task_id], config=_package_config(kw)).unwrapped
    return ours, ref


def _check_info(info: dict[str, Any], r_info: dict[str, Any], where: Any,
                action: bool = True) -> None:
    assert_aligned(info["speed"][0], np.float32(r_info["speed"]), where)
    assert bool(info["crashed"][0]) == r_info["crashed"], where
    if action:
        assert np.array_equal(info["action"][0], r_info["action"]), where
    for name, value in r_info["rewards"].items():
        assert_aligned(info[f"rewards_{name}"][0], value, (where, name))


def _policy(kind: str, rng: np.random.Generator, n: int, t: int) -> Any:
    if kind == "random":
        return int(rng.integers(n))
    if kind == "faster":  # FASTER, with lane changes now and then: crashes
        return (3, 3, 2, 3, 0)[t % 5]
    if kind == "continuous":
        return rng.uniform(-1, 1, size=n).astype(np.float32)
    return 1  # IDLE


def run_aligned(task_id: str, seed: int, policy: str, steps: int, **kw: Any) -> dict[str, int]:
    """Steps ours and the package's env side by side for ``steps`` steps (episodes restart
    on both sides when one ends), checking every output; returns what happened."""
    ours, ref = _make(task_id, seed, **kw)
    rng = np.random.default_rng(seed)
    space = ours.action_space
    n = space.shape[-1] if policy == "continuous" else int(space.n)
    obs, info = ours.reset()
    r_obs, r_info = ref.reset(seed=seed)
    assert_aligned(obs[0], r_obs, (task_id, seed, "reset"))
    _check_info(info, r_info, (task_id, seed, "reset"), action=False)
    seen = {"episodes": 1, "terminated": 0, "truncated": 0, "crashed_others": 0}
    done = False
    for t in range(steps):
        action = _policy(policy, rng, n, t)
        batch = np.array([action]) if policy != "continuous" else action[None]
        obs, rew, term, trunc, info = ours.step(batch)
        where = (task_id, seed, policy, t)
        if done:  # our autoreset step: the package's reset() without a seed
            r_obs, r_info = ref.reset()
            assert_aligned(obs[0], r_obs, where)
            _check_info(info, r_info, where, action=False)
            seen["episodes"] += 1
            done = False
            continue
        r_obs, r_rew, r_term, r_trunc, r_info = ref.step(action)
        assert_aligned(obs[0], r_obs, where)
        assert_aligned(rew[0], np.float32(r_rew), where)
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        _check_info(info, r_info, where)
        seen["crashed_others"] += sum(v.crashed for v in ref.road.vehicles[1:])
        seen["terminated"] += int(r_term)
        seen["truncated"] += int(r_trunc)
        done = r_term or r_trunc
    ours.close()
    ref.close()
    return seen


# The package steps highway-v0 (50 vehicles at 15 Hz) at about 1 s a step on 2 cores: its
# episodes here are short (the pilot of seed 11 crashes at its third step, then drives on in
# a new episode); highway-fast-v0's run past several resets. The default suite runs one id of
# each (extra=0), the nightly all four.
@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_highway_random_and_scripted_episodes(task_id: str) -> None:
    """Random actions, then a pilot that speeds and changes lanes into traffic, over several
    episodes: every observation, reward, flag and info bitwise."""
    fast = "fast" in task_id.lower()
    seen = run_aligned(task_id, 3, "random", 70 if fast else 10)
    assert seen["episodes"] >= 2 or not fast, seen
    seen = run_aligned(task_id, 11, "faster", 70 if fast else 12)
    assert seen["terminated"] >= 1 and seen["episodes"] >= 2, seen  # crashes: collisions aligned


def test_highway_v0_default_traffic() -> None:
    """highway-v0 as the package makes it (50 IDM vehicles, 15 Hz): the pilot crashes at
    its third step (impacts, crashed vehicles braking), then a new episode."""
    seen = run_aligned("highway-v0", 11, "faster", 8)
    assert seen["terminated"] == 1 and seen["episodes"] == 2, seen


def test_highway_fast_episodes_end_both_ways() -> None:
    """highway-fast-v0 over several seeds: episodes that crash (terminated) and that run to
    the duration (truncated), with a shorter duration."""
    totals = {"terminated": 0, "truncated": 0, "episodes": 0}
    for seed in (0, 3):
        seen = run_aligned("highway-fast-v0", seed, "random", 30, duration=8.0)
        for k in totals:
            totals[k] += seen[k]
    assert totals["terminated"] >= 1 and totals["truncated"] >= 1, totals


def test_highway_keywords() -> None:
    """Non-default config keys: lanes, traffic, a fixed lane, the frequencies, the reward
    weights, the observation's options (absolute, unnormalised, more features, shuffled rows
    drawn from np_random), the discrete action's lateral-only labels and other target
    speeds, two controlled vehicles, offroad_terminal."""
    run_aligned("highway-fast-v0", 5, "random", 25, lanes_count=2, vehicles_count=12,
                initial_lane_id=0, policy_frequency=2, collision_reward=-2.0,
                right_lane_reward=0.3, high_speed_reward=0.5, reward_speed_range=[22.0, 28.0],
                vehicles_density=1.5)
    run_aligned("highway-fast-v0", 6, "random", 25,
                observation_features=["presence", "x", "y", "vx", "vy", "heading", "cos_h",
                                      "sin_h", "cos_d", "sin_d", "long_off", "lat_off",
                                      "ang_off"],
                observation_vehicles_count=7, observation_absolute=True,
                observation_order="shuffled", observation_see_behind=True)
    run_aligned("highway-fast-v0", 7, "random", 25, observation_normalize=False,
                normalize_reward=False, action_longitudinal=False)
    run_aligned("highway-fast-v0", 8, "random", 25, observation_clip=False,
                target_speeds=[15.0, 20.0, 25.0, 30.0, 35.0])
    # two controlled vehicles (the second an MDPVehicle driving on its own), off-road ends
    run_aligned("highway-fast-v0", 12, "random", 25, controlled_vehicles=2, vehicles_count=15,
                ego_spacing=1.0, offroad_terminal=True)
    # two decisions a second, 5 frames each, on 5 lanes
    run_aligned("highway-v0", 13, "faster", 6, simulation_frequency=10, policy_frequency=2,
                lanes_count=5, vehicles_count=30)


def test_highway_continuous_action() -> None:
    """ContinuousAction: the float32 action mapped onto the ranges in float32, as numpy
    computes it on the float32 array, then the plain bicycle model."""
    run_aligned("highway-fast-v0", 9, "continuous", 30, action_type="ContinuousAction")
    run_aligned("highway-fast-v0", 10, "continuous", 20, action_type="ContinuousAction",
                action_lateral=False, acceleration_range=[-3.0, 4.0])


def test_highway_pool_seeds_and_reseed() -> None:
    """Env i of a pool with seed s is the package's env reset with seed s + i, and
    reset(seed=...) reseeds the same way."""
    ours = envpool.make_gymnasium("highway-fast-v0", num_envs=3, seed=20)
    obs, _ = ours.reset()
    for i in range(3):
        ref = gymnasium.make("highway-fast-v0").unwrapped
        assert np.array_equal(obs[i], ref.reset(seed=20 + i)[0]), i
    obs, _ = ours.reset(seed=[40, 41, 42])
    ref = gymnasium.make("highway-fast-v0").unwrapped
    assert np.array_equal(obs[1], ref.reset(seed=41)[0])
    ours.close()


@pytest.mark.parametrize("kw, message", [
    ({"action_type": "Steering"}, "action_type"),
    ({"observation_order": "random"}, "observation_order"),
    ({"observation_features": ["presence", "speed"]}, "speed"),
    ({"lanes_count": 0}, "lanes_count"),
    ({"initial_lane_id": 4}, "initial_lane_id"),
    ({"vehicles_density": 0.0}, "vehicles_density"),
    ({"observation_vehicles_count": 1}, "observation_vehicles_count"),
    ({"action_longitudinal": False, "action_lateral": False}, "action_longitudinal"),
])
def test_highway_bad_keywords(kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium("highway-v0", num_envs=1, **kw)
