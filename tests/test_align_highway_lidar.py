"""Alignment of highway-env's LidarObservation (``observation_type="LidarObservation"``) with
the ``highway-env`` package (1.12.1), its own envs run in the same test (the pattern of
tests/test_align_highway.py).

Env 0 of a pool made with seed s and the package's env reset with seed s run the same scenes
(the other highway tests check that), so under the same actions every Lidar observation
(cells x (distance, relative speed along the sector), float32, normalised or not), every
reward rounded to float32, terminated and truncated must equal the package's, past several
resets. Where numpy's angles are the C library's (``test_align_highway.LIBM_ANGLES``) every
check is bitwise; on CPUs with AVX-512, where they are SVML's, ``assert_aligned`` holds the
numbers within the highway tests' bounds (the intersection's own, wider ones there), with
the flags exact. The picture of an env observing through a LidarObservation adds the
package's outline of the trace (tests/test_highway_render.py's ``run_pictures``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import highway_env  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest
from test_align_highway import PACKAGE_ID as HIGHWAY_IDS
from test_align_highway import assert_aligned
from test_align_highway_intersection import PACKAGE_ID as INTERSECTION_IDS

# (the intersection's scenes set IDMVehicle's class attributes for the whole process: this
# autouse fixture puts them back after each test)
from test_align_highway_intersection import _restore_idm_class_attributes  # noqa: F401
from test_align_highway_roads import PACKAGE_ID as ROAD_IDS
from test_highway_render import LIDAR_KEYS, run_pictures

import envpool

# Our id -> the package's id: every id whose task takes a config observation type.
PACKAGE_ID = {**HIGHWAY_IDS, **ROAD_IDS, **INTERSECTION_IDS}
IDS = list(PACKAGE_ID)
# Where numpy's angles are SVML's (AVX-512), the intersection's 1-ulp differences grow
# through the vehicles' headings and positions (test_align_highway_intersection's RTOL), and a
# sector's ray meeting a turned rectangle at a grazing angle enlarges them: seen on an AMD
# EPYC Zen 4, over every intersection id here, up to 9.5e-6 (relative, of a distance) and
# 6.9e-7 (absolute) by the 8th step of intersection-multi-agent-v0 seed 5. The bounds leave a
# margin of 10. (Everywhere else, and wherever numpy's angles are the C library's, the
# checks are those of test_align_highway.assert_aligned, bitwise in the latter case.)
INTERSECTION_RTOL = 1e-4
INTERSECTION_ATOL = 1e-5


def _package_config(package_id: str, kw: dict[str, Any]) -> dict[str, Any]:
    """The package's config for our keywords: a LidarObservation (each agent's, for a
    multi-agent id), and the other keywords as config keys."""
    obs: dict[str, Any] = {"type": "LidarObservation"}
    config: dict[str, Any] = {}
    for key, value in kw.items():
        if key in LIDAR_KEYS:
            obs[LIDAR_KEYS[key]] = value
        else:
            config[key] = value
    if "multi-agent" in package_id:
        obs = {"type": "MultiAgentObservation", "observation_config": obs}
    config["observation"] = obs
    return config


def _action(space: gymnasium.Space, policy: str, rng: np.random.Generator, t: int) -> Any:
    """One env's action: random, or ``faster`` (FASTER, with a lane change now and then on
    the roads: crashes)."""
    if isinstance(space, gymnasium.spaces.Box):
        return rng.uniform(-1, 1, size=space.shape).astype(np.float32)
    if policy == "faster":
        return (3, 3, 2, 3, 0)[t % 5] if space.n == 5 else int(space.n) - 1
    return int(rng.integers(space.n))


def run_lidar(task_id: str, seed: int, policy: str, steps: int,
              **kw: Any) -> dict[str, int]:
    """Steps ours and the package's env side by side for ``steps`` steps (episodes restart
    on both sides when one ends), checking the observation, reward and flags; returns what
    happened (``objects_seen``: steps with a road object within the range; ``hits``: steps
    whose package observation has a sector nearer than the range)."""
    package_id = PACKAGE_ID[task_id]
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed,
                                  observation_type="LidarObservation", **kw)
    ref_wrapped = gymnasium.make(package_id, config=_package_config(package_id, kw))
    ref = ref_wrapped.unwrapped
    multi = "multi-agent" in package_id
    wrapper = multi and not package_id.endswith("-v0")  # MultiAgentWrapper
    rtol, atol = ((INTERSECTION_RTOL, INTERSECTION_ATOL) if package_id.startswith("intersection")
                  else (1e-12, 1e-10))
    space = ours.single_action_space
    rng = np.random.default_rng(seed)

    def check_obs(obs: Any, r_obs: Any, where: Any) -> None:
        if multi:  # MultiAgentObservation: each agent's trace, a row each (players)
            assert len(obs) == len(r_obs), where
            for o, r in zip(obs, r_obs, strict=True):
                assert o.dtype == r.dtype == np.float32, where
                assert_aligned(o, r, where, rtol, atol)
        else:
            assert obs.dtype == r_obs.dtype == np.float32, where
            assert_aligned(obs[0], r_obs, where, rtol, atol)

    obs, _ = ours.reset()
    r_obs, _ = ref_wrapped.reset(seed=seed)
    check_obs(obs, r_obs, (task_id, seed, "reset"))
    seen = {"episodes": 1, "terminated": 0, "truncated": 0, "objects_seen": 0, "hits": 0}
    done = False
    agents = ref.config["controlled_vehicles"] if multi else 1
    for t in range(steps):
        # (a multi-agent pool's action: one row per agent, players.action)
        actions = [_action(space, policy, rng, t) for _ in range(agents)]
        action = tuple(actions) if multi else actions[0]
        obs, rew, term, trunc, _ = ours.step(np.array(actions))
        where = (task_id, seed, policy, t)
        if done:  # our autoreset step: the package's reset() without a seed
            r_obs, _ = ref_wrapped.reset()
            check_obs(obs, r_obs, where)
            seen["episodes"] += 1
            done = False
            continue
        r_obs, r_rew, r_term, r_trunc, _ = ref_wrapped.step(action)
        if wrapper:  # MultiAgentWrapper: the agents' terminations, every one for the env's
            r_term = all(r_term)
        check_obs(obs, r_obs, where)
        seen["hits"] += int(any((r[:, 0] < r[:, 0].max()).any() for r in
                                (r_obs if multi else (r_obs,))))
        # one reward per agent: the wrapper's tuple, else the package's (the mean) each
        r_rews = r_rew if wrapper else [r_rew] * agents
        assert_aligned(rew, np.asarray(r_rews, dtype=np.float32), where, rtol, atol)
        assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), where
        observer = ref.observation_type
        observer = observer.agents_observation_types[0] if multi else observer
        seen["objects_seen"] += int(any(
            np.linalg.norm(o.position - ref.vehicle.position) <= observer.maximum_range
            for o in ref.road.objects if o.solid))
        seen["terminated"] += int(r_term)
        seen["truncated"] += int(r_trunc)
        done = r_term or r_trunc
    ours.close()
    ref_wrapped.close()
    return seen


def test_lidar_highway_fast_episodes() -> None:
    """highway-fast-v0: random actions over short episodes (vehicles on every side, the
    sectors behind wrapping around +pi), then a pilot into traffic that crashes; then other
    cells, range and unnormalised distances and speeds."""
    seen = run_lidar("highway-fast-v0", 3, "random", 16, duration=5.0)
    assert seen["episodes"] >= 3, seen
    seen = run_lidar("highway-fast-v0", 11, "faster", 12)
    assert seen["terminated"] >= 1 and seen["episodes"] >= 2, seen
    seen = run_lidar("highway-fast-v0", 4, "random", 12, duration=4.0, observation_cells=7,
                     observation_maximum_range=35.5, observation_normalize=False)
    assert seen["episodes"] >= 2, seen


def test_lidar_obstacle_and_agents() -> None:
    """merge-v0's obstacle at the end of the ramp (road.objects, traced after the vehicles)
    in range, and a multi-agent intersection: each agent's trace from its own vehicle."""
    seen = run_lidar("merge-v0", 3, "random", 14, observation_cells=32)
    assert seen["objects_seen"] >= 1, seen
    run_lidar("intersection-multi-agent-v1", 4, "random", 6, duration=4.0)


# Every id (the nightly; the default suite one drawn a day: the trace is one code for all).
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_lidar_every_id(task_id: str) -> None:
    """Random actions and a pilot into traffic on every id (highway-v0, whose 50 vehicles at
    15 Hz the package steps at about 1 s a step here, for 2 steps of each)."""
    steps = 2 if PACKAGE_ID[task_id] == "highway-v0" else 10
    seen = run_lidar(task_id, 5, "random", steps)
    seen_faster = run_lidar(task_id, 6, "faster", steps)
    assert seen["hits"] >= 1 and seen_faster["hits"] >= 1, (seen, seen_faster)


def test_lidar_frames() -> None:
    """The picture of an env observing through a LidarObservation: the package's outline of
    the last trace (ObservationGraphics), bit for bit, at reset and every step."""
    assert run_pictures("highway-fast-v0", 11, 5, observation_type="LidarObservation") == 6
    assert run_pictures("roundabout-v0", 3, 3, observation_type="LidarObservation",
                        observation_cells=9, observation_maximum_range=25.0) == 4


def test_lidar_spaces() -> None:
    """The observation space is the package's: float32 (cells, 2) in [-1, 1], or within the
    range unnormalised; one agent's for a multi-agent id (a row per agent); normalised in
    some envs of a pool and not in others is refused (the bounds differ)."""
    for kw in ({}, {"observation_cells": 5, "observation_maximum_range": 42.5,
                    "observation_normalize": False}):
        env = envpool.make_gymnasium("exit-v0", num_envs=1, observation_type="LidarObservation",
                                     **kw)
        ref = gymnasium.make("exit-v0", config=_package_config("exit-v0", kw))
        assert env.single_observation_space == ref.observation_space, kw
        env.close()
    env = envpool.make_gymnasium("intersection-multi-agent-v0", num_envs=1,
                                 observation_type="LidarObservation")
    ref = gymnasium.make("intersection-multi-agent-v0",
                         config=_package_config("intersection-multi-agent-v0", {}))
    assert env.single_observation_space == ref.observation_space[0]  # one agent's
    env.close()
    with pytest.raises(ValueError, match="observation_normalize would change the spaces"):
        envpool.make_gymnasium("highway-fast-v0", num_envs=2, observation_type="LidarObservation",
                               env_kwargs={"observation_normalize": [True, False]})


@pytest.mark.parametrize("kw, message", [
    ({"observation_cells": 0}, "observation_cells"),
    ({"observation_cells": -16}, "observation_cells"),
    ({"observation_maximum_range": 0.0}, "observation_maximum_range"),
    ({"observation_maximum_range": -60.0}, "observation_maximum_range"),
    ({"observation_maximum_range": float("nan")}, "observation_maximum_range"),
    ({"observation_maximum_range": float("inf")}, "observation_maximum_range"),
    ({"observation_type": "Lidar"}, "LidarObservation"),
])
def test_lidar_bad_keywords(kw: dict[str, Any], message: str) -> None:
    kw = {"observation_type": "LidarObservation", **kw}
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium("highway-fast-v0", num_envs=1, **kw)


def test_lidar_not_on_fixed_observations() -> None:
    """The tasks with their own observation type (parking, racetrack, lane keeping) take no
    observation_type, as before."""
    for task_id in ("parking-v0", "racetrack-v0", "lane-keeping-v0"):
        with pytest.raises(TypeError, match="observation_type"):
            envpool.make_gymnasium(task_id, num_envs=1, observation_type="LidarObservation")
