"""The reward-curve helper: reference stack vs envpool stack, same seeds."""

from __future__ import annotations

import csv
import pathlib

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("matplotlib")

from envpool.integrations.curves import (  # noqa: E402
    compare_curves,
    random_trainer,
    sb3_trainer,
)


def test_random_policy_curves_agree_and_are_written(tmp_path: pathlib.Path) -> None:
    png, out_csv = tmp_path / "random.png", tmp_path / "random.csv"
    result = compare_curves(random_trainer("CartPole-v1", 8_000), seeds=[0, 1], png=str(png),
                            csv=str(out_csv), title="random CartPole-v1")
    ref_mean, ref_sem = result.final_band("reference", last=200)
    ours_mean, ours_sem = result.final_band("envpool", last=200)
    # random CartPole episodes last ~22 steps on both stacks
    assert 15 < ref_mean < 30 and 15 < ours_mean < 30
    assert abs(ours_mean - ref_mean) < 4 * np.hypot(ref_sem, ours_sem) + 1.0
    with open(out_csv) as f:
        rows = list(csv.DictReader(f))
    assert {r["stack"] for r in rows} == {"reference", "envpool"}
    assert {r["seed"] for r in rows} == {"0", "1"}
    assert len(rows) == sum(len(c.returns) for cs in result.curves.values() for c in cs)
    assert all(float(r["episode_return"]) >= 1 for r in rows)
    assert png.stat().st_size > 5_000


@pytest.mark.nightly
@pytest.mark.timeout(2400)  # 6 PPO runs of 100k steps (~85 s each alone on 2 cores)
def test_ppo_cartpole_curve_matches_reference(tmp_path: pathlib.Path) -> None:
    trainer = sb3_trainer("PPO", "CartPole-v1", 100_000, n_envs=8, n_steps=32, batch_size=256,
                          gae_lambda=0.8, gamma=0.98, n_epochs=20, ent_coef=0.0,
                          learning_rate=lambda f: 1e-3 * f, clip_range=lambda f: 0.2 * f)
    result = compare_curves(trainer, seeds=[0, 1, 2], png=str(tmp_path / "ppo_cartpole.png"),
                            csv=str(tmp_path / "ppo_cartpole.csv"), title="PPO CartPole-v1")
    ref_mean, _ = result.final_band("reference")
    ours_mean, _ = result.final_band("envpool")
    assert ref_mean >= 400 and ours_mean >= ref_mean - 60


@pytest.mark.nightly
@pytest.mark.timeout(3600)  # 4 SAC runs of 15k steps, one torch thread: over the 600 s default
def test_sac_pendulum_curve_matches_reference(tmp_path: pathlib.Path) -> None:
    trainer = sb3_trainer("SAC", "Pendulum-v1", 15_000, n_envs=1, learning_rate=1e-3,
                          learning_starts=500)
    result = compare_curves(trainer, seeds=[0, 1], png=str(tmp_path / "sac_pendulum.png"),
                            csv=str(tmp_path / "sac_pendulum.csv"), title="SAC Pendulum-v1")
    ref_mean, _ = result.final_band("reference", last=10)
    ours_mean, _ = result.final_band("envpool", last=10)
    assert ref_mean >= -300 and ours_mean >= ref_mean - 100


@pytest.mark.nightly
@pytest.mark.timeout(5400)  # 4 SAC runs of 30k steps, one torch thread: ~30 min on 2 cores
def test_sac_cheetah_run_curve_matches_dm_control(tmp_path: pathlib.Path) -> None:
    """examples/dm_control/sac_cheetah_run.py's budget: SAC on CheetahRun-v1, envpool against
    dm_control's own env (through Shimmy), seeds 0 and 1, 30k steps each."""
    pytest.importorskip("shimmy")
    first_to_last_gain = 3.0  # the last episodes' mean return vs the first two's
    band_slack = 60.0  # returns in [0, 1000]; two seeds give a wide band
    trainer = sb3_trainer("SAC", "CheetahRun-v1", 30_000, n_envs=1, learning_starts=1000)
    result = compare_curves(trainer, seeds=[0, 1], png=str(tmp_path / "sac_cheetah_run.png"),
                            csv=str(tmp_path / "sac_cheetah_run.csv"), window=3,
                            title="SAC CheetahRun-v1")
    ref_mean, ref_sem = result.final_band("reference", last=5)
    ours_mean, ours_sem = result.final_band("envpool", last=5)
    first = np.concatenate([c.returns[:2] for c in result.curves["envpool"]])
    assert ours_mean >= first_to_last_gain * max(first.mean(), 1.0)  # it learns
    assert abs(ours_mean - ref_mean) <= 4 * np.hypot(ref_sem, ours_sem) + band_slack
