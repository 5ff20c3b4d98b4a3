"""Stable-Baselines3 cells: SB3's algorithms on ``make_sb3_venv``'s two stacks (SB3's own
``make_vec_env`` of gymnasium / Shimmy-wrapped dm_control envs, or envpool's adapter)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from matrix.common import Run

Trainer = Callable[[str, int, int], Run]


def sb3_cell_trainer(algo: str, task_id: str, n_envs: int, **algo_kwargs: Any) -> Trainer:
    """SB3's ``algo`` with ``MlpPolicy`` (``MultiInputPolicy`` for Dict observations), one
    torch thread, episodes recorded from ``VecMonitor``'s ``info["episode"]``."""

    def train(stack: str, seed: int, steps: int) -> Run:
        from envpool.integrations.curves import sb3_trainer

        start = time.perf_counter()
        curve = sb3_trainer(algo, task_id, steps, n_envs=n_envs, **algo_kwargs)(stack, seed)
        seconds = time.perf_counter() - start
        return Run(stack, seed, np.asarray(curve.steps), np.asarray(curve.returns), steps,
                   seconds)

    return train
