"""CarRacing's track, car, rewards and pictures against gymnasium 1.4's CarRacing, bit for bit.

The tests make the native pool directly (the ids' pools are the same env: see the last
test) to compare what its ``get_state`` exposes, in float64, with the same numbers read from
gymnasium's env: the track (alpha, beta, x, y of every point), the road polygons with their
colours (which a wheel's contact turns to the road colour), the domain-randomised colours,
the hull and the wheels (Box2D's float32 state, and car_dynamics' float64 omega, phase, gas,
brake, steer), the reward bookkeeping and the clock; and the 96 x 96 pictures, reward text
included. No tolerance: both sides run Box2D 2.3's C++ engine and draw from numpy's
default_rng(seed), which the env reproduces in C++; the picture is pygame-ce's (SSE2
smoothscale, FreeType's glyphs of pygame's own font).

Seeds 36 and 100 are ones whose first track fails (gymnasium's "retry to generate track"):
the second try continues the same generator. The actions are random (continuous and
discrete) or a small pilot that reads gymnasium's car and track: away from the origin (the
car leaves the playfield: -100 and terminated) or along the track (the lap is completed:
terminated; nightly, as gymnasium takes about 17 s for that lap).
"""

from __future__ import annotations

import math
import os
from typing import Any

import gymnasium
import numpy as np
import pygame
import pytest

import envpool
from envpool import _native

RETRY_SEEDS = [36, 100]  # their first track fails in gymnasium (found by counting tries)


def _reference_state(ref: gymnasium.Env) -> np.ndarray:
    """gymnasium's env as the native env's get_state() lists it (car_racing.h)."""
    env: Any = ref.unwrapped
    s: list[float] = [len(env.track)]
    for point in env.track:
        s += list(point)
    s.append(len(env.road_poly))
    for poly, color in env.road_poly:
        for v in poly:
            s += [v[0], v[1]]
        s += [float(c) for c in color]
    for colors in (env.road_color, env.bg_color, env.grass_color):
        s += [float(c) for c in colors]

    def body(b: Any) -> list[float]:
        return [
            b.position[0],
            b.position[1],
            b.angle,
            b.linearVelocity[0],
            b.linearVelocity[1],
            b.angularVelocity,
        ]

    s += body(env.car.hull)
    for w in env.car.wheels:
        s += body(w) + [w.omega, w.phase, w.gas, w.brake, w.steer, w.joint.angle, len(w.tiles)]
    s += [
        env.reward,
        env.prev_reward,
        env.tile_visited_count,
        env.t,
        env.car.fuel_spent,
        float(env.new_lap),
    ]
    return np.asarray(s, dtype=np.float64)


def _ours(seed: int, **kwargs: Any) -> tuple[Any, np.ndarray]:
    """The native env reset with ``seed``, and its first observation."""
    config = _native.default_config("CarRacing")
    config.update(kwargs, _font=_font())
    pool = _native.Pool("CarRacing", config, num_envs=1, seeds=[seed])
    pool.send_reset(np.array([0], dtype=np.int32))
    return pool, pool.recv()[0][0][0]


def _font() -> str:
    """pygame's default font, from the installed pygame (the env's hidden keyword _font)."""
    return os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())


def _assert_same(pool: Any, ref: gymnasium.Env, where: str) -> None:
    ours = np.asarray(pool.get_state(0))
    theirs = _reference_state(ref)
    assert ours.shape == theirs.shape, f"{where}: {ours.shape} values, gymnasium {theirs.shape}"
    differ = np.flatnonzero(ours != theirs)
    assert differ.size == 0, (
        f"{where}: values {differ[:8]} differ: {ours[differ[:4]]} (gymnasium {theirs[differ[:4]]})"
    )


def _assert_same_picture(obs: np.ndarray, r_obs: np.ndarray, where: str) -> None:
    assert obs.shape == r_obs.shape == (96, 96, 3) and obs.dtype == r_obs.dtype == np.uint8
    differ = np.argwhere(np.any(obs != r_obs, axis=2))
    assert differ.size == 0, f"{where}: pixels {differ[:6].tolist()} differ"


def _check_tracks(seeds: list[int]) -> None:
    for domain_randomize in (False, True):
        ref = gymnasium.make("CarRacing-v3", domain_randomize=domain_randomize)
        for seed in seeds:
            pool, obs = _ours(seed, domain_randomize=domain_randomize)
            r_obs, _ = ref.reset(seed=seed)
            where = f"seed {seed}, domain_randomize={domain_randomize}"
            _assert_same(pool, ref, where)
            _assert_same_picture(obs, r_obs, where)


def test_car_racing_tracks_match_gymnasium() -> None:
    """The track, road polygons, colours and the car after reset, for seeds with and
    without a retried track, with and without domain_randomize."""
    _check_tracks(list(range(10)) + RETRY_SEEDS)


@pytest.mark.nightly
@pytest.mark.timeout(1800)  # the three nightly tests took 730 s together
def test_car_racing_many_tracks_match_gymnasium() -> None:
    _check_tracks(list(range(10, 400)))


def _pilot(ref: gymnasium.Env, away: bool, cruise: float = 40.0) -> np.ndarray:
    """A continuous action that steers the car away from the origin (``away``) or to the
    track point six ahead of the nearest, at about ``cruise``."""
    env: Any = ref.unwrapped
    hull = env.car.hull
    x, y = hull.position
    forward = (-math.sin(hull.angle), math.cos(hull.angle))
    if away:
        d = (x, y)
    else:
        points = np.array([[p[2], p[3]] for p in env.track])
        i = int(np.argmin((points[:, 0] - x) ** 2 + (points[:, 1] - y) ** 2))
        tx, ty = points[(i + 6) % len(points)]
        d = (tx - x, ty - y)
    err = math.atan2(forward[0] * d[1] - forward[1] * d[0], forward[0] * d[0] + forward[1] * d[1])
    speed = math.hypot(*hull.linearVelocity)
    return np.array(
        [
            max(-1.0, min(1.0, -2.0 * err)),
            0.5 if speed < cruise else 0.0,
            0.0 if speed < cruise + 15 else 0.5,
        ],
        dtype=np.float32,
    )


def _lockstep(
    seed: int, steps: int, continuous: bool, pilot: str | None = None, **kwargs: Any
) -> tuple[int, float, dict[str, Any]]:
    """Steps both envs with the same actions until gymnasium's episode ends or ``steps``
    pass, comparing the whole state, the reward (the pool's float32) and the flags after
    every step. Returns the steps taken, the last reward and gymnasium's last info."""
    pool, obs = _ours(seed, continuous=continuous, **kwargs)
    ref = gymnasium.make(
        "CarRacing-v3", continuous=continuous, max_episode_steps=steps + 1, **kwargs
    )
    r_obs, _ = ref.reset(seed=seed)
    _assert_same_picture(obs, r_obs, f"seed {seed}, reset")
    rng = np.random.default_rng(seed)
    ids = np.array([0], dtype=np.int32)
    for t in range(steps):
        if pilot is not None:
            action: Any = _pilot(ref, away=pilot == "away")
        elif continuous:
            action = rng.uniform([-1.0, 0.0, 0.0], [1.0, 1.0, 1.0]).astype(np.float32)
            if rng.random() < 0.5:  # full gas often enough for the car to move far
                action[1:] = (1.0, 0.0)
        else:
            action = int(rng.choice([0, 1, 2, 3, 3, 3, 4]))
        pool.send(np.asarray(action)[None] if continuous else np.array([action], np.int32), ids)
        out = pool.recv()
        obs, reward, terminated = out[0][0][0], out[3][0], out[4][0]
        r_obs, r_reward, r_terminated, r_truncated, info = ref.step(action)
        _assert_same(pool, ref, f"seed {seed}, step {t}")
        _assert_same_picture(obs, r_obs, f"seed {seed}, step {t}")
        assert reward == np.float32(r_reward), (t, reward, r_reward)
        assert bool(terminated) == r_terminated and not r_truncated, t
        if r_terminated:
            return t + 1, float(r_reward), info
    return steps, float(r_reward), {}


@pytest.mark.parametrize("continuous", [True, False])
def test_car_racing_random_actions_match_gymnasium(continuous: bool) -> None:
    steps, _, _ = _lockstep(seed=3, steps=100, continuous=continuous)
    assert steps == 100


def test_car_racing_leaving_the_playfield_matches_gymnasium() -> None:
    steps, reward, info = _lockstep(seed=0, steps=400, continuous=True, pilot="away")
    assert reward == -100 and info == {"lap_finished": False} and steps < 400


@pytest.mark.nightly
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("lap_complete_percent", [0.95, 0.5])
def test_car_racing_lap_matches_gymnasium(lap_complete_percent: float) -> None:
    steps, _, info = _lockstep(
        seed=0, steps=2000, continuous=True, pilot="lap", lap_complete_percent=lap_complete_percent
    )
    assert info == {"lap_finished": True} and steps < 2000


@pytest.mark.nightly
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("continuous", [True, False])
def test_car_racing_long_random_runs_match_gymnasium(continuous: bool) -> None:
    for seed in (1, 2):
        _lockstep(seed=seed, steps=1000, continuous=continuous, domain_randomize=True)


@pytest.mark.parametrize(
    ("task_id", "continuous"), [("CarRacing-v3", True), ("CarRacing-v2", False)]
)
def test_car_racing_ids_match_gymnasium(task_id: str, continuous: bool) -> None:
    """The public ids: gymnasium's spaces and limits, and 30 steps of pictures, rewards and
    flags from envpool.make_gymnasium equal to gymnasium's CarRacing-v3 (sail-sg EnvPool
    registers v2 as the same env)."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=5, continuous=continuous)
    ref = gymnasium.make("CarRacing-v3", continuous=continuous)
    assert ours.single_observation_space == ref.observation_space
    assert ours.single_action_space == ref.action_space
    assert ours.spec.config.max_episode_steps == ref.spec.max_episode_steps == 1000
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=5)
    _assert_same_picture(obs[0], r_obs, f"{task_id} reset")
    rng = np.random.default_rng(0)
    for t in range(30):
        if continuous:
            action = rng.uniform([-1.0, 0.0, 0.0], [1.0, 1.0, 1.0]).astype(np.float32)
        else:
            action = int(rng.integers(0, 5))
        obs, reward, terminated, truncated, _ = ours.step(np.asarray([action]))
        r_obs, r_reward, r_terminated, r_truncated, _ = ref.step(action)
        _assert_same_picture(obs[0], r_obs, f"{task_id} step {t}")
        assert reward[0] == np.float32(r_reward)
        assert (terminated[0], truncated[0]) == (r_terminated, r_truncated)


def test_car_racing_frames_equal_gymnasium() -> None:
    """``render_mode="rgb_array"``: gymnasium's render(), the 1000 x 800 surface with the
    car's skid marks (car_dynamics' particles: pygame.draw.lines of width 2) smoothscaled to
    600 x 400, bit for bit at the reset and every sixth step of a run that drives off the
    road, then brakes hard while steering at random, so that the wheels skid. Checked on
    gymnasium's car: skid marks on the road (black) and on the grass (mud), a trace that
    reaches its 30 points, and the cap of 30 particles. The observations stay equal (no
    skid marks in them)."""
    ours = envpool.make_gymnasium("CarRacing-v3", num_envs=1, seed=7, render_mode="rgb_array")
    ref = gymnasium.make("CarRacing-v3", render_mode="rgb_array")
    ours.reset()
    ref.reset(seed=7)
    frame = ours.render()[0]
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    np.testing.assert_array_equal(frame, ref.render(), err_msg="reset")
    rng = np.random.default_rng(7)
    colors: set[tuple[int, ...]] = set()
    most = longest = 0
    for t in range(180):
        steer = 0.3 if t < 50 else float(rng.uniform(-1.0, 1.0))
        brake = t >= 50 and t % 10 >= 6
        action = np.array([steer, 0.0, 1.0] if brake else [steer, 1.0, 0.0], np.float32)
        obs, *_ = ours.step(action[None])
        r_obs, _, r_term, r_trunc, _ = ref.step(action)
        _assert_same_picture(obs[0], r_obs, f"step {t}")
        assert not (r_term or r_trunc), t
        particles = ref.unwrapped.car.particles
        colors.update(tuple(p.color) for p in particles)
        most = max(most, len(particles))
        longest = max([longest] + [len(p.poly) for p in particles])
        if t % 6 == 5:
            np.testing.assert_array_equal(ours.render()[0], ref.render(), err_msg=f"step {t}")
    assert colors == {(0, 0, 0), (102, 102, 0)} and most == longest == 30, (colors, most, longest)
