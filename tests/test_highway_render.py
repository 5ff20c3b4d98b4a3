"""highway-env's picture and GrayscaleObservation, against the ``highway-env`` package
(1.12.1, drawn with pygame-ce), its own envs run in the same test.

Ours draws in C++ (native/envs/highway/graphics.h) what the package's ``EnvViewer`` draws
with pygame: the lanes' lines, the road objects and the vehicles, each a rectangle on a
transparent surface turned by ``pygame.transform.rotate`` and blitted. Env 0 of a pool made
with seed s and the package's env reset with seed s run the same scenes (the alignment tests
check that), so under the same actions every frame of ``render()`` must equal the package's
``env.render()`` bit for bit, and the GrayscaleObservation every observation; tolerance none.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import highway_env  # noqa: F401  (registers the package's ids)
import numpy as np
import pytest

# (the intersection's scenes set IDMVehicle's class attributes for the whole process: this
# autouse fixture puts them back after each test)
from test_align_highway_intersection import _restore_idm_class_attributes  # noqa: F401

import envpool

# The package's ids (ours are spelled the same), the ids drawn the same way.
PACKAGE_IDS = ["highway-v0", "highway-fast-v0", "merge-v0", "merge-v1", "roundabout-v0",
               "roundabout-v1", "two-way-v0", "exit-v0", "exit-v1", "u-turn-v0", "u-turn-v1",
               "intersection-v0", "intersection-v1", "intersection-v2",
               "intersection-multi-agent-v0", "intersection-multi-agent-v1",
               "intersection-multi-agent-v2", "parking-v0", "parking-ActionRepeat-v0",
               "parking-parked-v0", "racetrack-v0", "racetrack-large-v0", "racetrack-oval-v0",
               "racetrack-v1", "racetrack-large-v1", "racetrack-oval-v1", "lane-keeping-v0"]

# Our GrayscaleObservation keywords -> the package's config["observation"] keys.
_GRAY_KEYS = {"observation_shape": "observation_shape", "observation_stack_size": "stack_size",
              "observation_weights": "weights", "observation_scaling": "scaling",
              "observation_centering_position": "centering_position"}
# Our LidarObservation keywords -> the package's config["observation"] keys.
LIDAR_KEYS = {"observation_cells": "cells", "observation_maximum_range": "maximum_range",
              "observation_normalize": "normalize"}
_VIEWER_KEYS = ("screen_width", "screen_height", "scaling", "centering_position", "duration")


def _package_config(kw: dict[str, Any], multi_agent: bool = False) -> dict[str, Any]:
    """The package's config for our viewer, duration, GrayscaleObservation and
    LidarObservation keywords (a multi-agent env's observation_config, each agent's)."""
    config: dict[str, Any] = {k: v for k, v in kw.items() if k in _VIEWER_KEYS}
    obs: dict[str, Any] = {}
    if kw.get("observation_type") == "GrayscaleObservation":
        obs = {"type": "GrayscaleObservation", "observation_shape": (128, 64),
               "stack_size": 4, "weights": [0.2989, 0.5870, 0.1140]}
        for key, name in _GRAY_KEYS.items():
            if key in kw:
                obs[name] = tuple(kw[key]) if key == "observation_shape" else kw[key]
    elif kw.get("observation_type") == "LidarObservation":  # the package draws its outline
        obs = {"type": "LidarObservation",
               **{name: kw[key] for key, name in LIDAR_KEYS.items() if key in kw}}
    if obs:
        config["observation"] = obs if not multi_agent else {
            "type": "MultiAgentObservation", "observation_config": obs}
    return config


def _action(space: gymnasium.Space, rng: np.random.Generator) -> Any:
    """A random action of one env's space, as the pool and the package take it."""
    if isinstance(space, gymnasium.spaces.Discrete):
        return int(rng.integers(space.n))
    return rng.uniform(-1, 1, size=space.shape).astype(np.float32)


def run_pictures(task_id: str, seed: int, steps: int, frames: bool = True,
                 **kw: Any) -> int:
    """Steps ours and the package's env side by side (random actions; episodes restart on
    both sides), comparing every frame (``frames``) and, with a GrayscaleObservation, every
    observation; returns the frames compared."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed,
                                  render_mode="rgb_array" if frames else None, **kw)
    # (parking's variants and lane keeping take neither render_mode nor config: both are
    # set on the made env, which reads them at its next reset and first picture)
    ref = gymnasium.make(task_id).unwrapped
    ref.render_mode = "rgb_array"
    ref.configure(_package_config(kw, "multi-agent" in task_id))
    # (after its first picture the package also draws every simulation frame of a step,
    # _automatic_rendering, for a video: pictures nobody reads here, left out)
    ref._automatic_rendering = lambda: None
    gray = kw.get("observation_type") == "GrayscaleObservation"
    rng = np.random.default_rng(seed)
    space = ours.single_action_space if hasattr(ours, "single_action_space") else None
    space = space or ours.action_space
    # a multi-agent pool: one row per agent (observations, players.action)
    agents = ref.config["controlled_vehicles"] if "multi-agent" in task_id else 0
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=seed)
    compared = 0

    def compare(where: Any) -> None:
        nonlocal compared
        if gray and agents:  # a row per agent
            assert all(np.array_equal(o, r) for o, r in zip(obs, r_obs, strict=True)), where
        elif gray:
            assert obs.dtype == np.uint8 and np.array_equal(obs[0], r_obs), where
        if frames:
            frame = ours.render()[0]
            r_frame = ref.render()
            assert frame.shape == r_frame.shape, where
            diff = np.argwhere(np.any(frame != r_frame, axis=-1))
            assert diff.size == 0, (where, len(diff), diff[:5].tolist())
            compared += 1

    compare((task_id, seed, "reset"))
    done = False
    for t in range(steps):
        action = (tuple(_action(space, rng) for _ in range(agents)) if agents
                  else _action(space, rng))
        batch = np.array(action if agents else [action])
        obs, _, term, trunc, _ = ours.step(batch)
        if done:  # our autoreset step: the package's reset() without a seed
            r_obs, _ = ref.reset()
            done = False
        else:
            r_obs, _, r_term, r_trunc, r_info = ref.step(action)
            if agents and not task_id.endswith("-v0"):  # the package's MultiAgentWrapper
                r_term = all(r_info["agents_terminated"])  # (ids): ends once every agent is
            assert (bool(term[0]), bool(trunc[0])) == (r_term, r_trunc), (task_id, t)
            done = r_term or r_trunc
        compare((task_id, seed, t))
    ours.close()
    ref.close()
    return compared


# Straight lanes with IDM and MDP vehicles, a crash (red); parking's landmark, walls turned a
# quarter, tires and the green ego; the oval's circular lanes, its obstacles and turned
# vehicles.
@pytest.mark.parametrize("task_id, seed, steps", [
    ("highway-fast-v0", 11, 8), ("parking-parked-v0", 2, 4), ("racetrack-oval-v0", 3, 4)])
def test_highway_frames_equal_package(task_id: str, seed: int, steps: int) -> None:
    """render() equals the package's env.render() bit for bit, at reset and every step."""
    assert run_pictures(task_id, seed, steps) == steps + 1


# Every id (the nightly; the default suite one drawn a day).
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", PACKAGE_IDS)
def test_highway_frames_every_id(task_id: str) -> None:
    """render() equals the package's over random episodes of every id."""
    run_pictures(task_id, 5, 3 if task_id == "highway-v0" else 8)


def test_highway_viewer_keywords() -> None:
    """screen_width, screen_height, scaling and centering_position as the package's config:
    a larger picture at another zoom (stripes two pixels wide, a wide line), off centre."""
    run_pictures("highway-fast-v0", 4, 4, screen_width=320, screen_height=200, scaling=7.5,
                 centering_position=[0.6, 0.3])
    run_pictures("lane-keeping-v0", 4, 4, scaling=3.3)


def test_highway_render_size() -> None:
    """render_width and render_height, where given, are the viewer's size (as sail-sg
    EnvPool draws them): the package's picture with that screen_width and screen_height."""
    ours = envpool.make_gymnasium("highway-fast-v0", num_envs=2, seed=3, render_mode="rgb_array",
                                  render_width=120, render_height=64)
    ref = gymnasium.make("highway-fast-v0").unwrapped
    ref.render_mode = "rgb_array"
    ref.configure({"screen_width": 120, "screen_height": 64})
    ours.reset()
    ref.reset(seed=3)
    frame = ours.render()
    assert frame.shape == (1, 64, 120, 3) and np.array_equal(frame[0], ref.render())
    ours.close()
    ref.close()


def test_highway_grayscale_observation() -> None:
    """GrayscaleObservation: the stacked grey frames equal the package's observation bit for
    bit (its own viewer's size, scaling and centering; the weights summed as numpy's np.dot
    sums them: with the weights 0.01, 0.57, 0.42 the grey road, the white lines and the black
    outlines come out one level apart when the three products are summed in another order),
    over steps and past a reset."""
    run_pictures("highway-fast-v0", 7, 6, frames=False, observation_type="GrayscaleObservation",
                 observation_shape=[128, 64], observation_stack_size=4,
                 observation_scaling=1.75, duration=3.0)
    run_pictures("roundabout-v0", 8, 3, frames=False, observation_type="GrayscaleObservation",
                 observation_shape=[60, 90], observation_stack_size=2,
                 observation_weights=[0.01, 0.57, 0.42], observation_centering_position=[0.5, 0.5])
    # MultiAgentObservation of GrayscaleObservations: each agent's viewer on its own vehicle
    run_pictures("intersection-multi-agent-v0", 3, 3, frames=False,
                 observation_type="GrayscaleObservation", observation_shape=[64, 48],
                 observation_stack_size=2)


def test_highway_grayscale_space() -> None:
    """The observation space is the package's: uint8 stack x W x H."""
    env = envpool.make_gymnasium("highway-fast-v0", num_envs=2,
                                 observation_type="GrayscaleObservation",
                                 observation_shape=[40, 30], observation_stack_size=3)
    space = env.single_observation_space
    assert space.shape == (3, 40, 30) and space.dtype == np.uint8
    obs, _ = env.reset()
    assert obs.shape == (2, 3, 40, 30) and not obs[:, :2].any() and obs[:, 2].any()
    env.close()


@pytest.mark.parametrize("kw, message", [
    ({"scaling": 0.0}, "scaling"),
    ({"scaling": -5.5}, "scaling"),
    ({"scaling": float("nan")}, "scaling"),
    ({"scaling": float("inf")}, "scaling"),
    ({"screen_width": 0}, "screen_width"),
    ({"screen_height": -1}, "screen_height"),
    ({"centering_position": [0.5]}, "centering_position"),
    ({"centering_position": [0.5, float("nan")]}, "centering_position"),
    ({"observation_type": "GrayscaleObservation", "observation_shape": [0, 64]},
     "observation_shape"),
    ({"observation_type": "GrayscaleObservation", "observation_shape": [12.5, 64]},
     "observation_shape"),
    ({"observation_type": "GrayscaleObservation", "observation_stack_size": 0},
     "observation_stack_size"),
    ({"observation_type": "GrayscaleObservation", "observation_weights": [1.0, 2.0]},
     "observation_weights"),
    ({"observation_type": "GrayscaleObservation", "observation_scaling": -1.0},
     "observation_scaling"),
    ({"render_mode": "rgb_array", "render_width": 5000}, "render_width"),
    ({"render_mode": "rgb_array", "render_height": -1}, "render_height"),
])
def test_highway_render_bad_keywords(kw: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        envpool.make_gymnasium("highway-v0", num_envs=1, **kw)
