"""The pool-aware RecordEpisodeStatistics and the CleanRL PPO example."""

from __future__ import annotations

import pathlib
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envpool
from envpool.integrations.cleanrl import RecordEpisodeStatistics


def _episodes(mode: str, steps: int, **kw: Any) -> dict[int, list[tuple[float, int]]]:
    """(return, length) per env, with a policy that is a function of the obs."""
    env = RecordEpisodeStatistics(envpool.make_gymnasium("CartPole-v1", num_envs=3, seed=0,
                                                         autoreset_mode=mode, **kw))
    obs, _ = env.reset()
    out: dict[int, list[tuple[float, int]]] = {0: [], 1: [], 2: []}
    for _ in range(steps):
        obs, _, term, trunc, info = env.step((obs[:, 2] > 0).astype(np.int32))
        if "_episode" in info:
            assert np.array_equal(info["_episode"], term | trunc)
            for i in np.flatnonzero(info["_episode"]):
                out[int(info["env_id"][i])].append(
                    (float(info["episode"]["r"][i]), int(info["episode"]["l"][i])))
        if mode == "disabled" and (term | trunc).any():
            obs, _ = env.reset(options={"reset_mask": term | trunc})
    assert len(env.return_queue) == sum(len(v) for v in out.values())
    return out


def test_returns_and_lengths_agree_across_autoreset_modes() -> None:
    same = _episodes("same_step", 400, max_episode_steps=40)
    nxt = _episodes("next_step", 420, max_episode_steps=40)
    disabled = _episodes("disabled", 400, max_episode_steps=40)
    for i in range(3):
        n = min(len(same[i]), len(nxt[i]), len(disabled[i]))
        assert n >= 4
        assert same[i][:n] == nxt[i][:n] == disabled[i][:n]
        for r, length in same[i]:
            assert r == length and 1 <= length <= 40  # CartPole pays 1 per step
    lengths = [length for v in same.values() for _, length in v]
    assert 40 in lengths and min(lengths) < 40  # truncated and terminated episodes


def test_async_pool_matches_envs_by_id() -> None:
    env = RecordEpisodeStatistics(envpool.make_gymnasium(
        "CartPole-v1", num_envs=6, batch_size=3, seed=0, max_episode_steps=25))
    _, info = env.reset()
    lengths = []
    for _ in range(300):
        ids = info["env_id"]
        _, _, term, trunc, info = env.step(np.ones(len(ids), np.int32), env_id=ids)
        if "_episode" in info:
            lengths += info["episode"]["l"][info["_episode"]].tolist()
            assert np.all(info["episode"]["r"][info["_episode"]] ==
                          info["episode"]["l"][info["_episode"]])
    assert len(lengths) > 20 and max(lengths) <= 25 and min(lengths) >= 8


class _LivesEnv(gymnasium.vector.VectorEnv):
    """A fake Atari-like pool: 2 lives per game, clipped step reward, unclipped info["reward"].

    ``terminated`` marks a lost life (episodic_life); ``info["terminated"]`` the game over.
    Each life lasts 3 steps paying 5 (clipped to 1); next-step autoreset only after game over.
    """

    def __init__(self) -> None:
        self.num_envs = 1
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}
        self.single_observation_space = gymnasium.spaces.Box(0, 1, (1,))
        self.single_action_space = gymnasium.spaces.Discrete(2)
        self.t = 0

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict]:
        self.t = 0
        return np.zeros((1, 1)), {"env_id": np.array([0])}

    def step(self, actions: Any) -> tuple:
        if self.t == 6:  # the reset step after game over
            self.t = 0
            return (np.zeros((1, 1)), np.zeros(1, np.float32), np.array([False]),
                    np.array([False]), {"env_id": np.array([0]), "reward": np.zeros(1),
                                        "terminated": np.array([False])})
        self.t += 1
        life_lost = self.t % 3 == 0
        info = {"env_id": np.array([0]), "reward": np.array([5.0]),
                "terminated": np.array([self.t == 6])}
        return (np.zeros((1, 1)), np.ones(1, np.float32), np.array([life_lost]),
                np.array([False]), info)


def test_episodic_life_sums_unclipped_reward_across_lives() -> None:
    env = RecordEpisodeStatistics(_LivesEnv())
    env.reset()
    episodes = []
    for _ in range(21):
        *_, info = env.step(np.zeros(1, np.int64))
        if "_episode" in info:
            episodes.append((float(info["episode"]["r"][0]), int(info["episode"]["l"][0])))
    assert episodes == [(30.0, 6)] * 3


@pytest.mark.nightly
@pytest.mark.timeout(900)  # 60k steps of PPO, about 13 s of one core
def test_cleanrl_ppo_example_learns_cartpole(tmp_path: pathlib.Path, load_example: Any) -> None:
    pytest.importorskip("torch")
    example = load_example("cleanrl/ppo_cartpole.py")
    args = example.parse_args(["--total-timesteps", "60000", "--seed", "1",
                               "--plot", str(tmp_path / "curve.png"), "--no-progress"])
    result = example.train(args)
    assert result["returns"], "no episode finished"
    # the mean of the last 20 episodes, from a random start of about 22
    assert np.mean(result["returns"][-20:]) >= 150
    assert (tmp_path / "curve.png").stat().st_size > 1000
