"""sail-sg EnvPool 1.2.5's MuJoCo Playground keywords that the package's tasks have no config
field for, against ``playground`` 0.2.0 run in the same test (docs/playground.md, Keywords):

* ``noise_level`` on ``SpotFlatTerrainJoystick-v1`` and ``SpotJoystickGaitTracking-v1``:
  every observation noise times the level (the package's Spot joysticks have no level, so
  level ``c`` is the package with each ``obs_noise.scales`` entry times ``c``; with a power
  of two the two products round alike, so the observations stay equal bit for bit);
* ``guide_sample_prob`` on ``PandaPickCubeCartesian-v1``: the chance of an episode's first
  step starting from the ``picked`` keyframe (the package's ``bernoulli(key_swap, 0.05)``;
  its oracle takes the keyword's chance there);
* ``pert_enable`` on ``LeapCubeRotateZAxis-v1`` and ``AeroCubeRotateZAxis-v1`` and the
  command ranges ``lin_vel_x_min`` ... ``ang_vel_yaw_max`` on ``H1InplaceGaitTracking-v1``:
  taken and unused, as sail-sg EnvPool takes them (these tasks have no perturbation, no
  command), so the pool with them replays the package's default env.

The oracles and their tolerances are the family's alignment tests'
(tests/test_align_playground_quad.py, ``_hands``, ``_hum2``, ``_panda``). The default suite
takes one case a day (a short run) and the Panda's bernoulli draw against jax's; the nightly
(ENVPOOL_SWEEP=all) every case, longer, and the Panda's replay (its inverse kinematics run op
by op: seconds of compiling).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.tasks.playground import resolve_dirs

sys.path.insert(0, os.path.dirname(__file__))

jax = pytest.importorskip("jax")
pytest.importorskip("mujoco_playground")

import test_align_playground_hands as hands  # noqa: E402  (after the reference's importorskip)
import test_align_playground_hum2 as hum2  # noqa: E402
import test_align_playground_panda as panda  # noqa: E402
import test_align_playground_quad as quad  # noqa: E402

FULL = os.environ.get("ENVPOOL_SWEEP", "") == "all"

#: The Spot joysticks' obs_noise.scales (the package's default_config()).
_SPOT_NOISE = {
    "SpotFlatTerrainJoystick-v1": {"joint_pos": 0.05, "gyro": 0.1, "gravity": 0.03,
                                   "feet_pos": [0.01, 0.005, 0.02]},
    "SpotJoystickGaitTracking-v1": {"joint_pos": 0.05, "gyro": 0.1, "gravity": 0.03},
}


def _spot_noise(task_id: str, level: float) -> Callable[[bool], None]:
    """``noise_level=level`` against the package with its noise scales times ``level``."""

    def run(full: bool) -> None:
        overrides = {f"obs_noise.scales.{k}": ([level * x for x in v] if isinstance(v, list)
                                               else level * v)
                     for k, v in _SPOT_NOISE[task_id].items()}
        oracle = quad._Oracle(task_id, resolve_dirs(robot="spot")[1], overrides)
        steps, max_steps = (40, 15) if full else (6, 3)
        ends = quad._run(task_id, oracle, seed=4, steps=steps, max_steps=max_steps, reseed=9,
                         scale=1.0, noise_level=level)
        assert ends["truncated"] > 0, ends

    return run


def _hand_unused(task_id: str) -> Callable[[bool], None]:
    """``pert_enable`` on a cube rotation: the package's default env (it has no pert_config)."""

    def run(full: bool) -> None:
        nu = envpool.make_spec(task_id).action_space.shape[0]
        steps, max_steps = (40, 15) if full else (6, 3)
        ends, stats = hands._run(task_id, seed=4, steps=steps, max_steps=max_steps, reseed=9,
                                 scripted=hands._scripted(task_id, nu), pert_enable=1.0)
        assert ends["truncated"] > 0, ends
        assert stats.exact == stats.compared, (stats.exact, stats.compared)

    return run


#: Command ranges H1 in place takes and does not use (extreme, so that a use would show).
_H1_RANGES = {"lin_vel_x_min": 0.5, "lin_vel_x_max": 3.0, "lin_vel_y_min": -2.0,
              "lin_vel_y_max": -1.0, "ang_vel_yaw_min": 0.0, "ang_vel_yaw_max": 0.0}


def _h1_unused(full: bool) -> None:
    """The command ranges on H1 in place: the package's default env (it has no command)."""
    task_id = "H1InplaceGaitTracking-v1"
    if full:
        ends = hum2._run(task_id, seed=6, steps=40, max_steps=15, reseed=9, **_H1_RANGES)
        assert ends["terminated"] > 0, ends
    else:
        ends = hum2._run(task_id, seed=6, steps=6, max_steps=2, reseed=9, n=1, **_H1_RANGES)
    assert ends["truncated"] > 0, ends


CASES: dict[str, Callable[[bool], None]] = {
    "SpotFlatTerrainJoystick-noise_level": _spot_noise("SpotFlatTerrainJoystick-v1", 0.5),
    "SpotJoystickGaitTracking-noise_level": _spot_noise("SpotJoystickGaitTracking-v1", 2.0),
    "LeapCubeRotateZAxis-pert_enable": _hand_unused("LeapCubeRotateZAxis-v1"),
    "AeroCubeRotateZAxis-pert_enable": _hand_unused("AeroCubeRotateZAxis-v1"),
    "H1InplaceGaitTracking-command_ranges": _h1_unused,
}


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("case", list(CASES))
def test_keyword_matches_playground(case: str) -> None:
    CASES[case](FULL)


def test_spot_noise_level_zero_is_noiseless() -> None:
    """``noise_level=0``: the noisy readings are the noiseless ones (the privileged state's
    copies), as sail-sg EnvPool's oracle test runs these tasks."""
    env = envpool.make_gymnasium("SpotFlatTerrainJoystick-v1", num_envs=2, seed=1,
                                 noise_level=0.0)
    obs, _ = env.reset()
    for _ in range(2):
        obs, *_ = env.step(np.zeros((2, 12)))
    state, privileged = obs["state"], obs["privileged_state"]
    # state: the noisy gyro (3), gravity (3), joint angles - home (12), 3 error frames (36),
    # feet (12), ...; privileged: state, then the noiseless gyro, accelerometer, gravity,
    # local linvel, global angvel, joint angles - home, feet, ...
    n = state.shape[1]
    for ours, noiseless in (((0, 3), (0, 3)), ((3, 6), (6, 9)), ((6, 18), (15, 27)),
                            ((54, 66), (27, 39))):
        np.testing.assert_array_equal(state[:, ours[0]:ours[1]],
                                      privileged[:, n + noiseless[0]:n + noiseless[1]])
    env.close()


# --- the Panda's guide_sample_prob ---------------------------------------------------------

_CARTESIAN = "PandaPickCubeCartesian-v1"


def _first_step_obs(prob: float, seed: int, n: int, episodes: int) -> np.ndarray:
    """The observations after each episode's only step (max_episode_steps 1: each step after
    a truncation is the automatic reset), (episodes, n, obs)."""
    env = envpool.make_gymnasium(_CARTESIAN, num_envs=n, seed=seed, max_episode_steps=1,
                                 guide_sample_prob=prob)
    env.reset()
    rows = []
    actions = np.random.default_rng(seed).uniform(-1.0, 1.0, (episodes, n, 3))
    for e in range(episodes):
        obs, _, _, trunc, _ = env.step(actions[e])
        assert trunc.all()
        rows.append(obs)
        env.step(actions[e])  # the automatic reset
    env.close()
    return np.stack(rows)


def test_guide_sample_prob_draws_as_the_package() -> None:
    """Each episode's first step starts from the ``picked`` keyframe exactly where the
    package's ``jax.random.bernoulli(key_swap, p)`` says so, for the pool's key chain
    (``PRNGKey(seed + i)``, each reset ``use, key = split(key)``; the reset's ``rng, _ =
    split(use)``; the step's ``rng, _ = split(rng)`` (the action delay) and ``rng, key_swap =
    split(rng)``): the run with p = 0.5 is, episode by episode, the run with p = 1 where the
    draw swaps and the run with p = 0 where it does not."""
    seed, n, episodes, prob = 2, 4, 3, 0.5
    half, never, always = (_first_step_obs(p, seed, n, episodes) for p in (prob, 0.0, 1.0))
    swaps = np.zeros((episodes, n), bool)
    for i in range(n):
        key = jax.random.PRNGKey(seed + i)
        for e in range(episodes):
            use, key = jax.random.split(key)
            rng, _ = jax.random.split(use)
            rng, _ = jax.random.split(rng)
            _, key_swap = jax.random.split(rng)
            swaps[e, i] = bool(jax.random.bernoulli(key_swap, prob))
    assert swaps.any() and not swaps.all(), swaps
    for e in range(episodes):
        for i in range(n):
            assert not np.array_equal(never[e, i], always[e, i]), (e, i)
            expected = always[e, i] if swaps[e, i] else never[e, i]
            np.testing.assert_array_equal(half[e, i], expected, err_msg=f"episode {e} env {i}")


IK_ATOL_PICKED = 5e-5


class _GuideOracle(panda._Oracle):
    """The Cartesian pick's package env whose ``bernoulli(key_swap, 0.05)`` (its only
    bernoulli draw) takes the chance ``prob`` instead."""

    def __init__(self, prob: float) -> None:
        super().__init__(_CARTESIAN, resolve_dirs(robot="panda")[1])
        self.prob = prob

    def _patched(self, fn: Any, *args: Any) -> Any:
        bernoulli = jax.random.bernoulli

        def guide(key: Any, p: Any = 0.5, shape: Any = None, **kw: Any) -> Any:
            assert p == 0.05, p  # the package's constant: the guide start's draw
            return bernoulli(key, self.prob, shape, **kw)

        jax.random.bernoulli = guide
        try:
            return super()._patched(fn, *args)
        finally:
            jax.random.bernoulli = bernoulli


@pytest.mark.sweep_only("about 11 s of CPU (the inverse kinematics op by op); "
                        "test_guide_sample_prob_draws_as_the_package checks the draw")
def test_guide_sample_prob_matches_playground(monkeypatch: pytest.MonkeyPatch) -> None:
    """``guide_sample_prob=1``: every episode starts from the ``picked`` keyframe, in both."""
    # The inverse kinematics' joint targets differ by ulps (IK_ATOL's reason: about 1e-7, as
    # from the home pose); with the cube held in the gripper the contacts turn them into
    # velocities up to 2.5e-5 apart (2.1e-5 after the first step: the cube's angular velocity),
    # where the home pose's differ by 1.6e-6.
    monkeypatch.setattr(panda, "IK_ATOL", IK_ATOL_PICKED)
    ends = panda._run(_CARTESIAN, _GuideOracle(1.0), seed=3, steps=8, max_steps=3, reseed=11,
                      guide_sample_prob=1.0)
    assert ends["truncated"] > 0, ends


# --- refusals ------------------------------------------------------------------------------

BAD = [
    ("SpotFlatTerrainJoystick-v1", "noise_level", float("nan")),
    ("SpotJoystickGaitTracking-v1", "noise_level", float("inf")),
    ("PandaPickCubeCartesian-v1", "guide_sample_prob", -0.1),
    ("PandaPickCubeCartesian-v1", "guide_sample_prob", 1.5),
    ("PandaPickCubeCartesian-v1", "guide_sample_prob", float("nan")),
    ("H1InplaceGaitTracking-v1", "lin_vel_x_min", float("nan")),
    ("H1InplaceGaitTracking-v1", "ang_vel_yaw_max", float("inf")),
]


@pytest.mark.parametrize(("task_id", "key", "value"), BAD)
def test_bad_values(task_id: str, key: str, value: float) -> None:
    with pytest.raises(ValueError, match=key):
        envpool.make_gymnasium(task_id, num_envs=1, **{key: value})


PERT_FLAG_IDS = ["LeapCubeReorient-v1", "LeapCubeRotateZAxis-v1", "AeroCubeRotateZAxis-v1",
                 "Go1JoystickFlatTerrain-v1", "SpotFlatTerrainJoystick-v1"]


@pytest.mark.parametrize("task_id", PERT_FLAG_IDS)
def test_pert_enable_is_a_flag(task_id: str) -> None:
    """``pert_enable`` is a flag on every task that takes it: True and False, and sail-sg
    EnvPool's 0.0 and 1.0 (its configs carry it as a number); any other value is refused."""
    for value, expected in ((True, True), (False, False), (1.0, True), (0.0, False),
                            (np.float32(1.0), True)):
        assert envpool.make_spec(task_id, pert_enable=value).config.pert_enable is expected
    for bad in (0.5, float("nan"), float("-inf"), 1, "yes"):
        with pytest.raises(TypeError, match="'pert_enable' must be a bool"):
            envpool.make_spec(task_id, pert_enable=bad)
