"""Alignment of the classic-control envs with gymnasium's, step by step.

Our env and ``gymnasium.make(task_id).unwrapped`` run side by side: after each
of our resets our state is copied into the reference (the two RNG streams
differ), then both take the same actions. Rewards, terminated and truncated
must match exactly and observations and states bitwise. The truncation at
``max_episode_steps`` is done by our pool; the reference's steps are counted
here. No tolerance is needed where NumPy's float64 sin / cos are libm's
(checked at import, see EXACT); elsewhere Pendulum and Acrobot are compared
one step at a time with tolerances.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import sys
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

NUM_ENVS = 2  # env 0 pumps energy, env 1 damps it (see PUMP_PROB)


def _numpy_matches_libm() -> bool:
    """Whether NumPy's float64 sin / cos and scalar ``x ** 2`` are libm's here.

    Our envs call libm (sin, cos, pow, powf), as gymnasium does through
    ``math``; Pendulum and Acrobot also call ``np.sin`` / ``np.cos``, which
    NumPy may run with its own SIMD code (SVML on AVX-512 CPUs) that can
    differ from libm in the last bit.
    """
    xs = np.random.default_rng(0).uniform(-40.0, 40.0, 2000)
    for x in xs.tolist():
        x64 = np.float64(x)
        if np.sin(x64) != math.sin(x) or np.cos(x64) != math.cos(x):
            return False
        if x64**2 != math.pow(x, 2):
            return False
    name = ctypes.util.find_library("m")
    if name is None:
        return False
    powf = ctypes.CDLL(name).powf
    powf.restype = ctypes.c_float
    powf.argtypes = [ctypes.c_float, ctypes.c_float]
    return all(np.float32(x) ** 2 == np.float32(powf(x, 2.0)) for x in xs[:500].tolist())


# Tasks whose reference uses NumPy transcendental functions. Where these are
# not libm's (see above), the reference is put back into our state before
# every step and one step is compared with tolerances instead of bitwise.
NUMPY_MATH_TASKS = ("Pendulum", "Acrobot")
EXACT = _numpy_matches_libm()
# One-step tolerances used only then. A last-bit difference of sin / cos in
# float64 moves a float32 observation by at most 1 float32 ulp (2**-23
# relative, ~1.2e-7). The float64 state moves by a few float64 ulps that one
# step of the dynamics (RK4 for Acrobot) amplifies: with sin / cos jittered
# by +-1 ulp at random, 2500 steps of each task stayed under 8.7e-14 relative
# (1.2e-16 absolute near 0), so these leave a 10x margin.
OBS_RTOL = 2.5e-7
STATE_RTOL, STATE_ATOL = 1e-12, 1e-14


def _exact(task_id: str) -> bool:
    return EXACT or not task_id.startswith(NUMPY_MATH_TASKS)


def _check_step(
    task_id: str,
    obs: np.ndarray,
    ref_obs: np.ndarray,
    reward: np.float32,
    ref_reward: float,
    state: list[float],
    ref_state: Any,
) -> None:
    """Our step against the reference's: bitwise, or (see EXACT) nearly."""
    ref_state = np.asarray(ref_state, dtype=np.float64)
    if _exact(task_id):
        assert np.array_equal(obs, ref_obs), (obs, ref_obs)
        assert reward == np.float32(ref_reward), (reward, ref_reward)
        # Our state must have followed the reference's exactly.
        np.testing.assert_array_equal(np.array(state), ref_state)
    else:
        np.testing.assert_allclose(obs, ref_obs, rtol=OBS_RTOL, atol=0)
        np.testing.assert_allclose(reward, np.float32(ref_reward), rtol=OBS_RTOL, atol=0)
        np.testing.assert_allclose(state, ref_state, rtol=STATE_RTOL, atol=STATE_ATOL)


def _ref_obs(task_id: str, ref: Any) -> np.ndarray:
    """The reference's observation of its current state."""
    if task_id.startswith("MountainCar"):
        return np.array(ref.state, dtype=np.float32)
    if task_id.startswith("Pendulum"):
        return ref._get_obs()
    if task_id.startswith("Acrobot"):
        return ref._get_ob()
    raise AssertionError(task_id)


# Policies: env 0 mostly pumps energy (so the goal is reached and episodes
# terminate), env 1 often damps it (so episodes run into the time limit);
# both take random actions in between. Continuous actions beyond the bounds
# test the clipping.
PUMP_PROB = np.array([0.8, -0.5])  # > 0: pump with that probability, < 0: damp


def _pumping(
    pump: np.ndarray, damp: np.ndarray, random: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    steer = np.where(PUMP_PROB > 0, pump, damp)
    return np.where(rng.random(len(pump)) < np.abs(PUMP_PROB), steer, random)


def _mountain_car(obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    pump = np.where(obs[:, 1] >= 0, 2, 0)
    random = rng.integers(0, 3, size=len(obs))
    return _pumping(pump, 2 - pump, random, rng).astype(np.int32)


def _mountain_car_continuous(obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    pump = np.sign(obs[:, 1]) * 1.2
    random = rng.uniform(-1.5, 1.5, size=len(obs))
    return _pumping(pump, -pump, random, rng).astype(np.float32).reshape(-1, 1)


def _pendulum(obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-2.5, 2.5, size=(len(obs), 1)).astype(np.float32)


def _acrobot(obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    pump = np.where(obs[:, 5] >= 0, 2, 0)  # torque along d(theta2)/dt
    random = rng.integers(0, 3, size=len(obs))
    return _pumping(pump, 2 - pump, random, rng).astype(np.int32)


Policy = Callable[[np.ndarray, np.random.Generator], np.ndarray]

# task id, keywords, policy, number of steps of our pool (per env).
CASES: list[tuple[str, dict[str, Any], Policy, int]] = [
    ("MountainCar-v0", {}, _mountain_car, 1200),
    ("MountainCar-v0", {"goal_velocity": 0.02}, _mountain_car, 1200),
    ("MountainCarContinuous-v0", {}, _mountain_car_continuous, 2500),
    ("MountainCarContinuous-v0", {"goal_velocity": 0.02}, _mountain_car_continuous, 2500),
    ("Pendulum-v1", {}, _pendulum, 1000),
    ("Pendulum-v1", {"g": 9.81}, _pendulum, 1000),
    ("Pendulum-v0", {}, _pendulum, 600),
    ("Acrobot-v1", {}, _acrobot, 2500),
]
# sail-sg EnvPool's legacy id and the gymnasium id whose env it is (gymnasium 1.4 no longer
# registers it: its v1 "simplified the math equations, no difference in behavior").
REFERENCE_ID = {"Pendulum-v0": "Pendulum-v1"}


def _sync(env: Any, ref: Any, env_id: int) -> None:
    """Copies our state into the reference, as a float64 array."""
    ref.state = np.array(env.get_state(env_id))


@pytest.mark.parametrize(
    ("task_id", "kwargs", "policy", "num_steps"),
    CASES,
    ids=[f"{c[0]}-{c[1]}" for c in CASES],
)
def test_align(task_id: str, kwargs: dict[str, Any], policy: Policy, num_steps: int) -> None:
    ref_id = REFERENCE_ID.get(task_id, task_id)
    max_steps = gymnasium.spec(ref_id).max_episode_steps
    env = envpool.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=3, **kwargs)
    assert envpool.make_spec(task_id).max_episode_steps == max_steps
    refs = [gymnasium.make(ref_id, **kwargs).unwrapped for _ in range(NUM_ENVS)]
    for ref in refs:
        ref.reset(seed=0)
    rng = np.random.default_rng(7)

    obs, info = env.reset()
    ref_steps = [0] * NUM_ENVS
    for i in range(NUM_ENVS):
        _sync(env, refs[i], i)
        np.testing.assert_array_equal(obs[i], _ref_obs(task_id, refs[i]), strict=True)

    needs_reset = [False] * NUM_ENVS
    terminations = truncations = 0
    for _ in range(num_steps):
        if not _exact(task_id):
            for i in range(NUM_ENVS):
                _sync(env, refs[i], i)
        action = policy(obs, rng)
        obs, reward, terminated, truncated, info = env.step(action)
        assert reward.dtype == np.float32
        for i in range(NUM_ENVS):
            ref = refs[i]
            if needs_reset[i]:
                # Next-step autoreset: this step reset env i.
                assert info["elapsed_step"][i] == 0
                assert reward[i] == 0 and not terminated[i] and not truncated[i]
                _sync(env, ref, i)
                ref_steps[i] = 0
                needs_reset[i] = False
                assert np.array_equal(obs[i], _ref_obs(task_id, ref))
                continue
            ref_obs, ref_reward, ref_term, _, _ = ref.step(
                action[i] if action.ndim > 1 else int(action[i])
            )
            ref_steps[i] += 1
            ref_trunc = ref_steps[i] >= max_steps
            assert info["elapsed_step"][i] == ref_steps[i]
            _check_step(
                task_id, obs[i], ref_obs, reward[i], ref_reward, env.get_state(i), ref.state
            )
            if task_id.startswith("Acrobot"):
                # EnvPool's info["state"]: the reference's two joint angles, as float32.
                assert info["state"].dtype == np.float32
                np.testing.assert_array_equal(info["state"][i],
                                              np.float32(ref.state[:2]), strict=True)
            assert bool(terminated[i]) == ref_term
            assert bool(truncated[i]) == ref_trunc
            terminations += bool(ref_term)
            truncations += bool(ref_trunc)
            needs_reset[i] = bool(ref_term or ref_trunc)
    # The run must cover both ends of an episode (Pendulum never terminates).
    if not task_id.startswith("Pendulum"):
        assert terminations >= 2, terminations
    assert truncations >= 1, truncations
    env.close()


@pytest.mark.parametrize(
    ("task_id", "policy"), [("Pendulum-v1", _pendulum), ("Acrobot-v1", _acrobot)]
)
def test_align_one_step_mode(task_id: str, policy: Policy, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback used where NumPy's sin / cos are not libm's still runs."""
    monkeypatch.setattr(sys.modules[__name__], "EXACT", False)
    test_align(task_id, {}, policy, 600)


@pytest.mark.parametrize(
    "task_id", ["MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1"]
)
def test_spaces_match_gymnasium(task_id: str) -> None:
    env = envpool.make_gymnasium(task_id, num_envs=1)
    ref = gymnasium.make(task_id).unwrapped
    assert env.single_observation_space == ref.observation_space
    if isinstance(ref.action_space, gymnasium.spaces.Discrete):
        assert env.single_action_space.n == ref.action_space.n
    else:
        assert env.single_action_space == ref.action_space
    env.close()


def _one_step(task_id: str, state: list[float], action: Any, **kwargs: Any) -> tuple:
    env = envpool.make_gymnasium(task_id, num_envs=1, **kwargs)
    env.reset()
    env.set_state(0, state)
    obs, reward, terminated, truncated, _ = env.step(np.array([action]))
    env.close()
    return obs[0], reward[0], terminated[0]


def test_goal_velocity_changes_termination() -> None:
    # Reaching the goal slowly terminates only with a low enough goal_velocity.
    _, reward, terminated = _one_step("MountainCar-v0", [0.49, 0.03], 2)
    assert terminated and reward == -1.0
    _, _, terminated = _one_step("MountainCar-v0", [0.49, 0.03], 2, goal_velocity=0.05)
    assert not terminated
    _, reward, terminated = _one_step(
        "MountainCarContinuous-v0", [0.44, 0.03], np.array([1.0], np.float32)
    )
    assert terminated and reward > 99
    _, reward, terminated = _one_step(
        "MountainCarContinuous-v0", [0.44, 0.03], np.array([1.0], np.float32), goal_velocity=0.05
    )
    assert not terminated and reward < 0


def test_g_changes_dynamics() -> None:
    action = np.array([0.0], np.float32)
    obs_default, _, _ = _one_step("Pendulum-v1", [1.0, 0.0], action)
    obs_moon, _, _ = _one_step("Pendulum-v1", [1.0, 0.0], action, g=1.62)
    # Angular velocity after one step: 3 g / 2 * sin(1) * dt.
    np.testing.assert_allclose(obs_default[2], 15 * np.sin(1.0) * 0.05, rtol=1e-6)
    np.testing.assert_allclose(obs_moon[2], 1.5 * 1.62 * np.sin(1.0) * 0.05, rtol=1e-6)


@pytest.mark.parametrize(
    ("task_id", "action"),
    [
        ("MountainCar-v0", 2),
        ("MountainCarContinuous-v0", np.array([0.3], np.float32)),
        ("Pendulum-v1", np.array([0.3], np.float32)),
        ("Acrobot-v1", 2),
    ],
)
def test_state_round_trip(task_id: str, action: Any) -> None:
    """set_state(get_state()) mid-episode reproduces the next step."""
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=5)
    env.reset()
    for _ in range(3):
        env.step(np.array([action]))
    state = env.get_state(0)
    first = env.step(np.array([action]))
    env.set_state(0, state)
    second = env.step(np.array([action]))
    assert np.array_equal(first[0], second[0])
    assert first[1][0] == second[1][0]
    env.close()


def test_reset_distributions() -> None:
    """Reset states lie where gymnasium draws them (Acrobot's are float32)."""
    env = envpool.make_gymnasium("Acrobot-v1", num_envs=8, seed=1)
    env.reset()
    for i in range(8):
        state = np.array(env.get_state(i))
        assert np.all(np.abs(state) <= 0.1)
        assert np.array_equal(state.astype(np.float32).astype(np.float64), state)
    env.close()
    for task_id, high in [
        ("MountainCar-v0", None),
        ("MountainCarContinuous-v0", None),
        ("Pendulum-v1", [np.pi, 1.0]),
    ]:
        env = envpool.make_gymnasium(task_id, num_envs=8, seed=1)
        env.reset()
        states = np.array([env.get_state(i) for i in range(8)])
        if high is None:  # position in [-0.6, -0.4), velocity 0
            assert np.all((states[:, 0] >= -0.6) & (states[:, 0] < -0.4))
            assert np.all(states[:, 1] == 0)
        else:
            assert np.all(np.abs(states) <= high)
        assert len(np.unique(states[:, 0])) == 8
        env.close()


F1 = np.array([1.0], np.float32)

# Start states that reach the clipping, wrapping and goal branches random
# trajectories seldom reach; each is stepped a few times with one action.
EDGE_CASES = [
    ("MountainCar-v0", [0.0, 0.0699], 2),  # velocity clipped at max_speed
    ("MountainCar-v0", [0.1, -0.0699], 0),
    ("MountainCar-v0", [-1.19, -0.02], 0),  # position clipped, velocity zeroed
    ("MountainCar-v0", [0.49, 0.03], 2),  # goal
    ("MountainCarContinuous-v0", [0.0, 0.0699], F1),
    ("MountainCarContinuous-v0", [0.1, -0.0699], -F1),
    ("MountainCarContinuous-v0", [-1.19, -0.02], -F1 * 3),
    ("MountainCarContinuous-v0", [0.44, 0.01], F1 * 0.5),
    ("Pendulum-v1", [np.pi, 7.99], F1 * 2),  # speed clipped at max_speed
    ("Pendulum-v1", [-np.pi, -7.99], -F1 * 5),
    ("Pendulum-v1", [123.4, 0.5], F1 * 0.1),  # angle far outside [-pi, pi)
    ("Acrobot-v1", [0.1, -0.2, 12.56, 28.2], 2),  # velocities bounded
    ("Acrobot-v1", [-0.1, 0.2, -12.56, -28.2], 0),
    ("Acrobot-v1", [3.1, -3.1, 3.0, -3.0], 1),  # angles wrapped
    ("Acrobot-v1", [3.0, 0.1, 0.5, 0.5], 1),  # near the goal
]


@pytest.mark.parametrize(("task_id", "state", "action"), EDGE_CASES)
def test_align_edge_states(task_id: str, state: list[float], action: Any) -> None:
    env = envpool.make_gymnasium(task_id, num_envs=1, max_episode_steps=1000)
    ref = gymnasium.make(task_id).unwrapped
    ref.reset(seed=0)
    env.reset()
    env.set_state(0, state)
    ref.state = np.array(state)
    for _ in range(8):
        if not _exact(task_id):
            _sync(env, ref, 0)
        obs, reward, terminated, _, _ = env.step(np.array([action]))
        ref_obs, ref_reward, ref_term, _, _ = ref.step(action)
        _check_step(task_id, obs[0], ref_obs, reward[0], ref_reward, env.get_state(0), ref.state)
        assert bool(terminated[0]) == ref_term
        if ref_term:
            break
    env.close()
