"""Issue 17, item 1: our reset distributions against gymnasium's own resets.

The lockstep alignment tests copy our reset state into the reference, so they never see
gymnasium's reset draw. Here each task id is reset N times on each side (ours: a pool of N
envs with seeds 0..N-1; gymnasium: one env reset with seeds 10_000..10_000+N-1, its own
generator), and every coordinate of the first observation is compared with a two-sample
Kolmogorov-Smirnov test. Reacher's rejection-sampled goal and Pusher's cylinder position
are coordinates of their observations, and so is the reset noise of every MuJoCo task.

Threshold: the per-case family-wise level ALPHA = 1e-3 is split over the coordinates
(Bonferroni); the seeds are fixed, so the outcome is deterministic. Negative controls
(``test_detects_an_ignored_reset_noise_scale``) show that the same test rejects ours drawn
without a requested ``reset_noise_scale`` against gymnasium drawn with it, so a keyword that
were ignored would be caught.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from stats import ks_2samp  # tests/stats.py

import envpool

N = 400
ALPHA = 1e-3

CLASSIC = ["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1",
           "Acrobot-v1"]
MUJOCO = [f"{name}-{v}" for name in ("Ant", "HalfCheetah", "Hopper", "Humanoid",
                                     "HumanoidStandup", "InvertedPendulum",
                                     "InvertedDoublePendulum", "Reacher", "Swimmer",
                                     "Walker2d") for v in ("v4", "v5")] + ["Pusher-v5"]
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("Hopper-v5", {"reset_noise_scale": 0.1}),
    ("Ant-v5", {"reset_noise_scale": 0.3}),
    ("Humanoid-v5", {"reset_noise_scale": 0.05}),
    ("Walker2d-v5", {"reset_noise_scale": 0.02}),
    ("HalfCheetah-v5", {"reset_noise_scale": 0.5,
                        "exclude_current_positions_from_observation": False}),
    ("Swimmer-v5", {"exclude_current_positions_from_observation": False}),
]
CASES = [(t, {}) for t in CLASSIC + MUJOCO] + VARIANTS


def _first_obs(task_id: str, ours_kw: dict[str, Any],
               ref_kw: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    ours = envpool.make_gymnasium(task_id, num_envs=N, seed=0, **ours_kw).reset()[0]
    ref_env = gymnasium.make(task_id, **ref_kw)
    ref = np.stack([ref_env.reset(seed=10_000 + i)[0] for i in range(N)])
    ref_env.close()
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    return ours.reshape(N, -1).astype(np.float64), ref.reshape(N, -1).astype(np.float64)


def _min_p(ours: np.ndarray, ref: np.ndarray) -> tuple[float, int]:
    """The smallest KS p-value over the coordinates, and its coordinate."""
    ps = [ks_2samp(ours[:, j], ref[:, j])[1] for j in range(ours.shape[1])]
    j = int(np.argmin(ps))
    return ps[j], j


@pytest.mark.parametrize(("task_id", "kwargs"), CASES,
                         ids=[f"{t}-{k}" if k else t for t, k in CASES])
def test_reset_distribution_matches_gymnasium(task_id: str, kwargs: dict[str, Any]) -> None:
    ours, ref = _first_obs(task_id, kwargs, kwargs)
    p, j = _min_p(ours, ref)
    assert p > ALPHA / ours.shape[1], (task_id, kwargs, "coordinate", j, "p", p)
    # the draw is random on both sides (not a fixed start that would trivially match)
    assert ours.std(axis=0).max() > 0 and ref.std(axis=0).max() > 0


NOISE_VARIANTS = [(t, k) for t, k in VARIANTS if "reset_noise_scale" in k]


@pytest.mark.parametrize(("task_id", "kwargs"), NOISE_VARIANTS,
                         ids=[f"{t}-{k}" for t, k in NOISE_VARIANTS])
def test_detects_an_ignored_reset_noise_scale(task_id: str, kwargs: dict[str, Any]) -> None:
    """The negative control: were ``reset_noise_scale`` ignored, ours would draw with the
    default scale while gymnasium draws with the requested one; the test must reject that."""
    ignored = {k: v for k, v in kwargs.items() if k != "reset_noise_scale"}
    ours, ref = _first_obs(task_id, ignored, kwargs)
    p, _ = _min_p(ours, ref)
    assert p < ALPHA / ours.shape[1]


def test_atari_noop_starts_match_atari_preprocessing() -> None:
    """Issue 17, item 2: the default reset (noop_max=30, FIRE) against gymnasium's
    ``AtariPreprocessing(noop_max=30)`` on ale-py's Pong, measured from the emulator: the
    ALE's episode frame number after the reset. Ours draws 1..30 no-ops with the FIRE press
    counting as one of them (EnvPool's rule); gymnasium draws 1..30 no-ops from its own
    generator. Both counts must follow one distribution (chi-square homogeneity)."""
    ale_py = pytest.importorskip("ale_py")
    from gymnasium.wrappers import AtariPreprocessing
    from stats import homogeneity

    envs, rounds = 20, 30  # 600 resets; a reset after the first reloads no ROM
    pool = envpool.make_gymnasium("Pong-v5", num_envs=envs, seed=0)
    ours = []
    for _ in range(rounds):
        pool.reset()
        ours += [int(pool.get_state(i)[5]) for i in range(envs)]  # episode frame number
    gymnasium.register_envs(ale_py)
    ref_env = AtariPreprocessing(gymnasium.make("ALE/Pong-v5", frameskip=1,
                                                repeat_action_probability=0.0), noop_max=30)
    ref_env.reset(seed=0)
    ref = []
    for _ in range(envs * rounds):
        ref_env.reset()
        ref.append(int(ref_env.unwrapped.ale.getEpisodeFrameNumber()))
    values = sorted(set(ours) | set(ref))
    assert len(values) == 30 and set(ours) == set(ref)  # the same 30 possible counts
    table = np.array([[ours.count(v) for v in values], [ref.count(v) for v in values]])
    assert homogeneity(table) > ALPHA, table
