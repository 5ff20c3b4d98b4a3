"""Alignment of procgen's chaser and dodgeball (native/envs/procgen/chaser.h, dodgeball.h)
with openai procgen 0.10.7's own game library, run in the same test.

The harness is tests/test_align_procgen.py's (``_run``: ours and procgen's game library,
through tests/procgen_oracle.py, stepped side by side; every frame byte for byte, every
reward, episode end and level seed equal). That file's random-episode sweep already takes
these games' ids (``procgen_tasks.GAMES``); here: each id over more seeds and episodes, the
drawing and level keywords on both games, and the modes as keywords.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

from envpool.tasks import procgen as procgen_tasks

sys.path.insert(0, os.path.dirname(__file__))
from test_align_procgen import _kw_id, _run  # noqa: E402

GAMES = ("chaser", "dodgeball")
IDS = [task_id for task_id in procgen_tasks.ids()
       if any(task_id.startswith(procgen_tasks.GAMES[g][0]) for g in GAMES
              if g in procgen_tasks.GAMES)]
_HARD_IDS = [f"{procgen_tasks.GAMES[g][0]}Hard-v0" for g in GAMES if g in procgen_tasks.GAMES]

_KEYWORDS = [
    {"use_monochrome_assets": True},
    {"use_backgrounds": False},
    {"restrict_themes": True},
    {"paint_vel_info": True},
    {"center_agent": False},
    {"num_levels": 3, "start_level": 5},
    {"num_levels": 2, "start_level": 11, "use_sequential_levels": True},
]


@pytest.fixture(scope="module")
def wheel_dir() -> str:
    try:
        return procgen_tasks.download_wheel()
    except RuntimeError as error:
        if os.environ.get("ENVPOOL_REQUIRE_REFERENCES") == "1":
            raise
        pytest.skip(f"procgen {procgen_tasks.PROCGEN_VERSION}'s wheel (the oracle) could not "
                    f"be downloaded: {error}")


# More seeds than test_align_procgen's sweep (nightly: every id; the default suite keeps
# one id, as that sweep already runs each of these ids on two seeds).
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_random_episodes_more_seeds(wheel_dir: str, task_id: str) -> None:
    """Four more seeds, three episodes each."""
    for seed in (1, 2, 3, 100):
        assert _run(wheel_dir, task_id, seed, episodes=3, max_steps=4000) == 3


# The drawing and level keywords: in the default suite one (game, keyword) pair a day,
# nightly every pair.
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", _HARD_IDS)
@pytest.mark.parametrize("kw", _KEYWORDS, ids=_kw_id)
def test_keywords(wheel_dir: str, task_id: str, kw: dict[str, Any]) -> None:
    """The keywords change the frames and levels as procgen's options do."""
    assert _run(wheel_dir, task_id, 3, episodes=2, max_steps=2100, **kw) == 2


@pytest.mark.parametrize("task_id", _HARD_IDS)
def test_monochrome_every_mode(wheel_dir: str, task_id: str) -> None:
    """Monochrome assets (every sprite and grid object a flat colour: chaser's orbs and
    walls, dodgeball's walls and doors) in every mode, the mode given as a keyword."""
    game = task_id[: -len("Hard-v0")]
    modes = [m for prefix, ms in procgen_tasks.GAMES.values() if prefix == game for m in ms]
    for mode in modes:
        assert _run(wheel_dir, task_id, 9, episodes=1, max_steps=1100,
                    distribution_mode=mode, use_monochrome_assets=True) == 1
