"""Every example script runs as a user runs it (a fresh interpreter, its command line) with a
tiny budget. The CleanRL and MuJoCo scripts have their own tests (test_cleanrl*.py,
test_mujoco_example.py); their long budgets, and these scripts' long ones, stay nightly."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *args: str, cwd: pathlib.Path) -> str:
    proc = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _mean_return(out: str, label: str) -> float:
    match = re.search(rf"{label}.*mean (?:test )?return (-?[0-9.]+)", out)
    assert match, out[-2000:]
    return float(match.group(1))


def test_sb3_ppo_cartpole(tmp_path: pathlib.Path) -> None:
    out = _run("sb3/ppo_cartpole.py", "--timesteps", "2048", "--num-envs", "4", cwd=tmp_path)
    assert 8 <= _mean_return(out, "CartPole-v1") <= 500


def test_sb3_sac_pendulum(tmp_path: pathlib.Path) -> None:
    out = _run("sb3/sac_pendulum.py", "--timesteps", "300", "--save",
               str(tmp_path / "vecnormalize.pkl"), cwd=tmp_path)
    assert -2000 <= _mean_return(out, "Pendulum-v1") <= 0
    assert (tmp_path / "vecnormalize.pkl").stat().st_size > 0


def test_sac_cheetah_run_against_dm_control(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("shimmy")
    out = _run("dm_control/sac_cheetah_run.py", "--steps", "1000", "--seeds", "0", "--last", "1",
               "--out", str(tmp_path / "curve"), cwd=tmp_path)
    for stack in ("reference", "envpool"):
        match = re.search(rf"{stack}: mean return of the last 1 episodes per seed: ([0-9.]+)",
                          out)
        assert match, out
        assert 0 <= float(match.group(1)) <= 1000  # CheetahRun: reward in [0, 1] per step
    assert (tmp_path / "curve.png").stat().st_size > 5_000
    assert (tmp_path / "curve.csv").read_text().count("\n") == 1 + 2 * 1  # header + 1 per stack


def test_acme_random_actor_loop(tmp_path: pathlib.Path) -> None:
    out = _run("acme/random_actor_loop.py", "--episodes", "3", cwd=tmp_path)
    assert 8 <= _mean_return(out, "CartPole-v1: 3 episodes") <= 100  # random play: ~22
    assert re.search(r"batched: [3-9] episodes finished", out), out


def test_tianshou_dqn_cartpole(tmp_path: pathlib.Path) -> None:
    out = _run("tianshou/dqn_cartpole.py", "--epochs", "1", "--epoch-steps", "500",
               "--num-envs", "4", cwd=tmp_path)
    assert _mean_return(out, "CartPole-v1") >= 8


# The two CartPole configs run through the same Runner in tests/integration/test_rl_games.py
# (to a learning threshold); train.py itself is the same for every config.
@pytest.mark.parametrize("config", ["ppo_inverted_pendulum.yaml"])
def test_rl_games_train(tmp_path: pathlib.Path, config: str) -> None:
    _run("rl_games/train.py", "--file", str(EXAMPLES / "rl_games" / config), "--train-dir",
         str(tmp_path / "runs"), "--max-epochs", "3", cwd=tmp_path)
    # rl_games writes the run's tensorboard summaries under <train_dir>/<name>*/summaries
    summaries = list((tmp_path / "runs").glob("*/summaries/events.out.tfevents.*"))
    assert summaries and summaries[0].stat().st_size > 0
