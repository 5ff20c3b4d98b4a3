"""CleanRL's episode statistics on Atari with episodic_life: a lost life ends the
pool's episode (terminated) but not the game, so returns must span all lives."""

from __future__ import annotations

import csv
import pathlib
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.integrations.cleanrl import RecordEpisodeStatistics


def test_returns_span_lives_with_episodic_life() -> None:
    env = RecordEpisodeStatistics(envpool.make_gymnasium(
        "Breakout-v5", num_envs=2, seed=1, episodic_life=True, reward_clip=True))
    env.reset()
    rng = np.random.default_rng(0)
    game_return = np.zeros(2)  # unclipped rewards summed by hand until the real game over
    game_over_pending = np.zeros(2, bool)
    expected, reported, life_losses = [], [], 0
    for _ in range(30000):
        obs, rew, term, trunc, info = env.step(rng.integers(0, 4, 2))
        fresh = (info["elapsed_step"] == 0) & ~(term | trunc)
        # next-step autoreset: the row after a real game over starts the next game
        game_return[fresh & game_over_pending] = 0.0
        game_over_pending &= ~fresh
        game_return += np.where(fresh, 0.0, info["reward"])
        life_losses += int((term & ~info["terminated"]).sum())
        done = (term & info["terminated"]) | trunc
        for i in np.flatnonzero(done):
            expected.append(game_return[i])
            game_over_pending[i] = True
        if "_episode" in info:
            reported += list(info["episode"]["r"][info["_episode"]])
        if len(expected) >= 3 and max(expected) > 0:
            break
    assert life_losses >= 4 * len(expected)  # several lives per game
    assert len(reported) == len(expected) >= 3
    np.testing.assert_allclose(reported, expected)
    assert max(expected) > 0  # a random Breakout policy scores a few points per game


def test_returns_span_lives_with_episodic_life_same_step() -> None:
    """Same-step autoreset: a done row's info is its reset's, its step's is in
    ``final_info``; ordinary rows' rewards are in ``info`` (``final_info`` is zero there),
    so the wrapper must take each row's reward from the right one."""
    env = RecordEpisodeStatistics(envpool.make_gymnasium(
        "Breakout-v5", num_envs=2, seed=1, episodic_life=True, reward_clip=True,
        autoreset_mode="same_step"))
    env.reset()
    rng = np.random.default_rng(0)
    game_return = np.zeros(2)  # unclipped rewards summed by hand until the real game over
    expected, reported, life_losses = [], [], 0
    for _ in range(30000):
        obs, rew, term, trunc, info = env.step(rng.integers(0, 4, 2))
        done = term | trunc
        step = {k: np.where(done, info["final_info"][k], info[k])
                for k in ("reward", "terminated")}
        game_return += step["reward"]
        life_losses += int((term & ~step["terminated"]).sum())
        for i in np.flatnonzero((term & step["terminated"]) | trunc):
            expected.append(game_return[i])
            game_return[i] = 0.0
        if "_episode" in info:
            reported += list(info["episode"]["r"][info["_episode"]])
        if len(expected) >= 3 and max(expected) > 0:
            break
    assert life_losses >= 4 * len(expected)
    assert len(reported) == len(expected) >= 3
    np.testing.assert_allclose(reported, expected)
    assert max(expected) > 0

def _assert_logs_whole_games(example: Any, extra: list[str], tmp_path: pathlib.Path) -> None:
    """A Breakout PPO example's train() for 2048 steps: its whole games, CSV and PNG."""
    csv_path, png = tmp_path / "b.csv", tmp_path / "b.png"
    args = example.parse_args(["--env-id", "Breakout-v5", "--num-envs", "4", "--num-steps", "128",
                               "--total-timesteps", "2048", *extra,
                               "--csv", str(csv_path), "--plot", str(png)])
    result = example.train(args)
    returns = np.array(result["returns"])
    # random Breakout games (5 lives each, ~200 agent steps) end several times in 2048 steps
    assert len(returns) >= 3
    # unclipped game scores: bricks are worth 1, 4 or 7 points, never negative
    assert np.all(returns >= 0) and np.all(returns == np.round(returns))
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    assert [float(r["return"]) for r in rows] == list(returns)
    assert [int(r["env_step"]) for r in rows] == result["steps"]
    assert result["steps"] == sorted(result["steps"]) and result["steps"][-1] <= 2048
    assert png.stat().st_size > 1000


def test_ppo_atari_script_runs_and_logs_whole_games(tmp_path: pathlib.Path,
                                                    load_example: Any) -> None:
    _assert_logs_whole_games(load_example("cleanrl/ppo_atari.py"),
                             ["--threads", "1", "--no-progress"], tmp_path)


@pytest.mark.nightly
@pytest.mark.timeout(900)  # the jit compile: 1 to 3 min on 2 cores, then 2048 steps
def test_xla_ppo_example_runs_and_logs_whole_games(tmp_path: pathlib.Path,
                                                   load_example: Any) -> None:
    """examples/xla/ppo_atari_xla_scan.py: the JAX PPO whose rollouts are one jitted
    lax.scan over env.xla() (docs/xla.md). Nightly: its jit compile alone takes minutes."""
    pytest.importorskip("flax", reason="the example's network (test extra)")
    pytest.importorskip("optax", reason="the example's optimizer (test extra)")
    _assert_logs_whole_games(load_example("xla/ppo_atari_xla_scan.py"), [], tmp_path)
