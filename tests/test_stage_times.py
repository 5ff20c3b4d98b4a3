"""Stage timing (ENVPOOL_STAGE_TIMES=1): what the pool books, and its report."""

from __future__ import annotations

import numpy as np
import pytest

import envpool
from envpool.core.stage_times import STAGES, StageTimes


def test_off_by_default_and_says_how_to_turn_it_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENVPOOL_STAGE_TIMES", raising=False)
    env = envpool.make_gymnasium("CartPole-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="ENVPOOL_STAGE_TIMES=1"):
        env.stage_times()
    env.close()


def test_a_bad_value_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVPOOL_STAGE_TIMES", "yes")
    with pytest.raises(ValueError, match="must be 0 or 1"):
        envpool.make_gymnasium("CartPole-v1", num_envs=2)


def test_every_step_and_reset_is_booked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVPOOL_STAGE_TIMES", "1")
    env = envpool.make_gymnasium("CartPole-v1", num_envs=4, num_threads=2, seed=0,
                                 max_episode_steps=1000)
    env.reset()
    before = env.stage_times()
    done = 0
    for k in range(30):
        _, _, term, trunc, _ = env.step(np.zeros(4, np.int32))
        done += int((term | trunc).sum()) if k < 29 else 0
    report = env.stage_times() - before
    assert len(report.threads) == 3  # the caller and two workers
    assert set(report.threads[0]) == set(STAGES)
    # next-step autoreset: the step after an episode's end is a reset
    resets = sum(t["reset"][1] for t in report.threads)
    assert done > 0 and resets == done
    assert report.env_steps == 120 - done
    assert report.threads[0]["admission"][1] == 30  # one per send, on the caller only
    assert all(t["admission"][1] == 0 for t in report.threads[1:])
    per = report.per_step()
    assert per["caller"]["caller"] > 0  # Python's time between the calls
    table = report.table()
    assert "| step |" in table and f"{120 - done} env steps" in table
    env.close()


def test_atari_marks_its_preprocessing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVPOOL_STAGE_TIMES", "1")
    env = envpool.make_gymnasium("Pong-v5", num_envs=2, seed=0)
    env.reset()
    for _ in range(20):
        env.step(np.zeros(2, np.int32))
    report = env.stage_times()
    assert report.seconds("preprocess") > 0
    assert report.seconds("step") > report.seconds("preprocess")  # 4 emulated frames
    assert sum(t["preprocess"][1] for t in report.threads) >= 40 * 3  # 3 marks per step
    env.close()


def test_reports_of_other_pools_do_not_subtract() -> None:
    a = StageTimes(({s: (1.0, 1) for s in STAGES},))
    b = StageTimes(({s: (1.0, 1) for s in STAGES},) * 2)
    with pytest.raises(ValueError):
        _ = a - b
    with pytest.raises(ValueError, match="no env step"):
        (a - a).per_step()
