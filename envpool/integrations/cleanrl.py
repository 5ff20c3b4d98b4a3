"""CleanRL-style helpers for envpool pools.

``RecordEpisodeStatistics`` is a pool-aware episode counter for the
gymnasium flavour (``envpool.make_gymnasium``), usable in CleanRL's
single-file scripts (``examples/cleanrl/``):

    envs = RecordEpisodeStatistics(envpool.make_gymnasium("CartPole-v1", num_envs=8))
    obs, info = envs.reset(seed=0)
    obs, reward, terminated, truncated, info = envs.step(action)
    for i in np.flatnonzero(info.get("_episode", [])):
        print(info["episode"]["r"][i], info["episode"]["l"][i])

It works in every autoreset mode (the reset step of next-step autoreset is not
counted) and in async mode (rows are matched to envs by ``info["env_id"]``).
Returns sum the env's unclipped ``info["reward"]`` when the env reports one
(Atari with reward clipping), else the step reward; with ``episodic_life`` on,
where ``terminated`` marks a lost life, an episode ends only at the real end
(``info["terminated"]``) or on truncation, so returns and lengths span lives.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorWrapper

__all__ = ["RecordEpisodeStatistics", "plot_episode_returns"]


class RecordEpisodeStatistics(VectorWrapper):
    """Records each env's episode returns and lengths, in gymnasium's vector format.

    A vector wrapper for gymnasium-flavour pools (``envpool.make_gymnasium``), for
    CleanRL-style scripts. On a step where env ``i`` finishes an episode,
    ``info["episode"]`` holds ``"r"`` (return), ``"l"`` (length) and ``"t"`` (seconds
    since the wrapper started) arrays over the batch and ``info["_episode"]`` the mask
    of the rows that finished. Rows are matched to envs by ``info["env_id"]``, so async
    pools work, and so does every autoreset mode. Returns sum the env's unclipped
    ``info["reward"]`` where it reports one (Atari), and with ``episodic_life`` an
    episode spans all lives. ``return_queue`` / ``length_queue`` keep the last
    ``buffer_length`` episodes.

    Args:
        env: A gymnasium-flavour envpool pool.
        buffer_length: How many finished episodes ``return_queue`` and
            ``length_queue`` keep.

    Examples:
        >>> import envpool
        >>> import numpy as np
        >>> from envpool.integrations.cleanrl import RecordEpisodeStatistics
        >>> envs = RecordEpisodeStatistics(
        ...     envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=0, max_episode_steps=3))
        >>> _ = envs.reset()
        >>> for _ in range(3):
        ...     obs, reward, terminated, truncated, info = envs.step(np.zeros(2, dtype=int))
        >>> info["_episode"], info["episode"]["l"]
        (array([ True,  True]), array([3, 3], dtype=int32))
        >>> envs.close()
    """

    def __init__(self, env: gymnasium.vector.VectorEnv, buffer_length: int = 100) -> None:
        super().__init__(env)
        self.num_envs_total = env.num_envs  # all envs, also in async mode (EnvPool's num_envs)
        mode = env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        self._next_step = mode == AutoresetMode.NEXT_STEP
        self._same_step = mode == AutoresetMode.SAME_STEP
        self.episode_returns = np.zeros(self.num_envs_total, np.float64)
        self.episode_lengths = np.zeros(self.num_envs_total, np.int64)
        self._ended = np.zeros(self.num_envs_total, np.bool_)
        # episodic_life: the env lost a life, so its next fresh row continues the game
        self._life_lost = np.zeros(self.num_envs_total, np.bool_)
        self.episode_count = 0
        self.start_time = time.perf_counter()
        self.return_queue: deque[float] = deque(maxlen=buffer_length)
        self.length_queue: deque[int] = deque(maxlen=buffer_length)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Resets (all envs, ``env_id=`` or ``options={"reset_mask": ...}``) and their counters."""
        obs, info = self.env.reset(**kwargs)
        mask = (kwargs.get("options") or {}).get("reset_mask")
        ids = np.asarray(info["env_id"]) if mask is None else np.flatnonzero(mask)
        self.episode_returns[ids] = 0.0
        self.episode_lengths[ids] = 0
        self._ended[ids] = False
        self._life_lost[ids] = False
        return obs, info

    def step(self, actions: Any, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Steps the pool and records the episodes that ended."""
        obs, reward, terminated, truncated, info = self.env.step(actions, *args, **kwargs)
        ids = np.asarray(info["env_id"])
        step_reward = np.asarray(self._step_info(info, terminated | truncated, "reward", reward),
                                 np.float64)
        counted = np.ones(len(ids), np.bool_)
        # a reset row (next-step autoreset after an end, or a pending async reset) is no step
        restarted = self._ended[ids] if self._next_step else np.zeros(len(ids), np.bool_)
        if "elapsed_step" in info:
            fresh = (np.asarray(info["elapsed_step"]) == 0) & ~(terminated | truncated)
            continuing = fresh & self._life_lost[ids]  # a reset row after a lost life
            counted &= ~continuing
            self._life_lost[ids[fresh]] = False
            restarted = restarted | (fresh & ~continuing)
        if restarted.any():
            rid = ids[restarted]
            self.episode_returns[rid] = 0.0
            self.episode_lengths[rid] = 0
            self._ended[rid] = False
            counted &= ~restarted
        self.episode_returns[ids] += np.where(counted, step_reward, 0.0)
        self.episode_lengths[ids] += counted
        game_over = np.asarray(
            self._step_info(info, terminated | truncated, "terminated", terminated), np.bool_)
        ended = counted & ((game_over & terminated) | truncated)
        self._life_lost[ids] |= counted & terminated & ~ended
        if ended.any():
            eids = ids[ended]
            returns = np.zeros(len(ids), np.float32)
            lengths = np.zeros(len(ids), np.int32)
            returns[ended] = self.episode_returns[eids]
            lengths[ended] = self.episode_lengths[eids]
            elapsed = np.where(ended, time.perf_counter() - self.start_time, 0.0)
            info = dict(info)
            info["episode"] = {"r": returns, "l": lengths, "t": np.round(elapsed, 6)}
            info["_episode"] = ended
            self.return_queue.extend(returns[ended].tolist())
            self.length_queue.extend(lengths[ended].tolist())
            self.episode_count += int(ended.sum())
            if self._next_step:
                self._ended[eids] = True
            else:  # same-step: the next row is already the new episode's; disabled: reset() zeroes
                self.episode_returns[eids] = 0.0
                self.episode_lengths[eids] = 0
        return obs, reward, terminated, truncated, info

    def _step_info(self, info: dict[str, Any], done: np.ndarray, key: str,
                   default: np.ndarray) -> np.ndarray:
        """The step's own ``info[key]`` for each row (``default`` when the env has no such
        key): in same-step mode a finished row's info is its reset's, and its step's is in
        ``info["final_info"]``; every other row's is in ``info``."""
        if key not in info:
            return default
        if self._same_step and "final_info" in info and done.any():
            return np.where(done, info["final_info"][key], info[key])
        return info[key]


def plot_episode_returns(steps: list[int], returns: list[float], path: str, title: str) -> None:
    """Episode returns (and a 20-episode running mean) against env steps, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, returns, ".", alpha=0.3, label="episode return")
    if len(returns) >= 20:
        smooth = np.convolve(returns, np.ones(20) / 20, mode="valid")
        ax.plot(steps[19:], smooth, label="mean of 20")
    ax.set_xlabel("env steps")
    ax.set_ylabel("return")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
