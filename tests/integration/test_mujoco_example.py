"""Smoke test of examples/mujoco/sb3_train.py: a tiny budget writes a finite curve (CSV + PNG)."""

from __future__ import annotations

import csv
import math
import pathlib
from typing import Any

import pytest


@pytest.mark.parametrize("algo", ["sac", "ppo"])
def test_mujoco_example_writes_a_finite_curve(algo: str, tmp_path: pathlib.Path,
                                               capsys: pytest.CaptureFixture[str],
                                               load_example: Any) -> None:
    example = load_example("mujoco/sb3_train.py")
    out = tmp_path / "curves" / algo
    # PPO collects one whole rollout (2048 steps with its defaults) whatever the budget.
    total = 200 if algo == "sac" else 2048
    example.main(["--algo", algo, "--task", "InvertedPendulum-v5", "--total-timesteps",
                  str(total), "--eval-freq", "100" if algo == "sac" else "1000",
                  "--eval-episodes", "2", "--seed", "3", "--out", str(out), "--no-progress"])
    assert "wrote" in capsys.readouterr().out

    with (tmp_path / "curves" / f"{algo}.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == example.CSV_FIELDS
    steps = [int(r["env_steps"]) for r in rows]
    assert steps[0] == 0 and steps[-1] == total and steps == sorted(steps) and len(steps) >= 3
    for r in rows:
        for key in ("eval_mean", "eval_std", "eval_min", "eval_max"):
            assert math.isfinite(float(r[key]))
        assert float(r["eval_min"]) <= float(r["eval_mean"]) <= float(r["eval_max"])
        assert float(r["eval_min"]) >= 1.0  # InvertedPendulum pays 1 per step alive
        if int(r["train_episodes"]) > 0:
            assert math.isfinite(float(r["train_mean"])) and float(r["train_mean"]) >= 1.0
    assert sum(int(r["train_episodes"]) for r in rows) > 0

    png = (tmp_path / "curves" / f"{algo}.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
