"""examples/xla/ppo_atari_xla_scan.py: the JAX PPO whose rollouts are one jitted lax.scan
over env.xla() (docs/xla.md). Nightly: its jit compile alone takes a minute or two on 2
cores."""

from __future__ import annotations

import csv
import pathlib
from typing import Any

import numpy as np
import pytest

pytest.importorskip("flax", reason="the example's network (test extra)")
pytest.importorskip("optax", reason="the example's optimizer (test extra)")


@pytest.mark.nightly
@pytest.mark.timeout(900)  # the jit compile: 1 to 3 min on 2 cores, then 2048 steps
def test_xla_ppo_example_runs_and_logs_whole_games(tmp_path: pathlib.Path,
                                                   load_example: Any) -> None:
    example = load_example("xla/ppo_atari_xla_scan.py")
    csv_path, png = tmp_path / "b.csv", tmp_path / "b.png"
    args = example.parse_args(["--env-id", "Breakout-v5", "--num-envs", "4", "--num-steps", "128",
                               "--total-timesteps", "2048", "--csv", str(csv_path),
                               "--plot", str(png)])
    result = example.train(args)
    returns = np.array(result["returns"])
    # random-ish Breakout games (5 lives each) end several times in 2048 agent steps
    assert len(returns) >= 3
    # unclipped game scores: bricks are worth 1, 4 or 7 points, never negative
    assert np.all(returns >= 0) and np.all(returns == np.round(returns))
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    assert [float(r["return"]) for r in rows] == list(returns)
    assert [int(r["env_step"]) for r in rows] == result["steps"]
    assert result["steps"] == sorted(result["steps"]) and result["steps"][-1] <= 2048
    assert png.stat().st_size > 1000
