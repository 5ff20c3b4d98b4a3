"""Stable-Baselines3 cells: SB3's algorithms on ``make_sb3_venv``'s two stacks (SB3's own
``make_vec_env`` of gymnasium / Shimmy-wrapped dm_control envs, or envpool's adapter)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from matrix.common import Run

Trainer = Callable[[str, int, int], Run]


def sb3_cell_trainer(algo: str, task_id: str, n_envs: int, her: bool = False,
                     **algo_kwargs: Any) -> Trainer:
    """SB3's ``algo`` with ``MlpPolicy`` (``MultiInputPolicy`` for Dict observations), one
    torch thread, episodes recorded from ``VecMonitor``'s ``info["episode"]``. ``her``:
    SB3's ``HerReplayBuffer`` (4 sampled goals, the "future" strategy), which relabels
    goals with the env's ``compute_reward``."""
    if her:
        from stable_baselines3 import HerReplayBuffer

        algo_kwargs = dict(algo_kwargs, replay_buffer_class=HerReplayBuffer,
                           replay_buffer_kwargs={"n_sampled_goal": 4,
                                                 "goal_selection_strategy": "future"})

    def train(stack: str, seed: int, steps: int) -> Run:
        from envpool.integrations.curves import sb3_trainer

        start = time.perf_counter()
        curve = sb3_trainer(algo, task_id, steps, n_envs=n_envs, **algo_kwargs)(stack, seed)
        seconds = time.perf_counter() - start
        return Run(stack, seed, np.asarray(curve.steps), np.asarray(curve.returns), steps,
                   seconds)

    return train
