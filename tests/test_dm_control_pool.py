"""Control Suite pools: what each env costs.

Each env owns a copy of the compiled model (tasks move targets and regenerate terrain in
it), so the copy must hold physics only: dm_control's skybox texture alone is 11.8 MB and
the dog's skins and textures several times that; a pool of 64 envs must not grow the
process by gigabytes.
"""

from __future__ import annotations

import os

import pytest

import envpool
from envpool.tasks.dm_control import TASKS

pytest.importorskip("dm_control", reason="the models come from dm-control")


def _rss_mb() -> float:
    """The process's resident memory now (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.parametrize("task_id", ["CartpoleBalance-v1", "HumanoidRun-v1"])
def test_per_env_model_copies_are_small(task_id: str) -> None:
    assert task_id in TASKS
    envpool.make_dm(task_id, num_envs=1).close()  # library and first model loaded
    before = _rss_mb()
    env = envpool.make_dm(task_id, num_envs=64)
    env.reset()
    grown = _rss_mb() - before
    env.close()
    # measured: ~1 MB for 64 envs; with textures in every copy it was ~750 MB
    assert grown < 64, f"64 envs of {task_id} grew the resident memory by {grown:.0f} MB"
