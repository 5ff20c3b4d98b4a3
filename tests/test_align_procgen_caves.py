"""Alignment of procgen's cave games, caveflyer and jumper (native/envs/procgen/caveflyer.h,
jumper.h over roomgen.h's cellular-automaton caves), with openai procgen 0.10.7's own game
library run in the same test (``tests/procgen_oracle.py``; see ``tests/test_align_procgen.py``,
whose random-episode sweep covers these games' ids too).

Here: episodes under action mixes that reach what uniformly random actions rarely do (the
goal, a red ufo shot down, a jump onto a ledge), over every mode of each game, and the
drawing and level keywords on each game. Every frame is compared byte for byte, every
reward, episode end and level seed for equality; on the step that ends an episode the frame
is not compared (procgen shows the next level's first frame there, ours the ended one's last
frame; the autoreset after it shows procgen's).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.tasks import procgen as procgen_tasks

sys.path.insert(0, os.path.dirname(__file__))
from procgen_oracle import (  # noqa: E402
    ProcgenOracle,
    assert_info_as_procgen,
    wheel_dir_or_skip,
)

GAMES = {"caveflyer": "Caveflyer", "jumper": "Jumper"}
_MODES = {"Easy": "easy", "Hard": "hard", "Memory": "memory", "Exploration": "exploration"}


def _ids() -> list[str]:
    registered = set(procgen_tasks.ids())
    return [f"{prefix}{mode}-v0" for prefix in GAMES.values() for mode in _MODES
            if f"{prefix}{mode}-v0" in registered]


IDS = _ids()

# Action mixes (weights over procgen's 15 actions, get_combos' order: 0-8 the 3 x 3 moves
# with x = a // 3 - 1 and y = a % 3 - 1, 9 the first special key). caveflyer: a // 3 turns,
# a % 3 thrusts, 9 fires; jumper: a // 3 runs, a % 3 == 2 jumps.
_UNIFORM = np.full(15, 1 / 15)
_MIX = {
    # fly forward, turning now and then, and fire a lot: shoots targets, reaches goals
    "caveflyer": np.array([0, 0, 2, 0, 1, 6, 0, 0, 2, 5, 0, 0, 0, 0, 0], float),
    # run right or left and jump
    "jumper": np.array([1, 0, 3, 0, 0, 1, 1, 0, 3, 0, 0, 0, 0, 0, 0], float),
}


@pytest.fixture(scope="module")
def wheel_dir() -> str:
    return wheel_dir_or_skip()


def _game_mode(task_id: str) -> tuple[str, str]:
    stem = task_id[: -len("-v0")]
    for game, prefix in GAMES.items():
        if stem.startswith(prefix):
            return game, _MODES[stem[len(prefix):]]
    raise ValueError(task_id)


def _run(wheel_dir: str, task_id: str, seed: int, episodes: int, max_steps: int,
         weights: Sequence[float] = _UNIFORM, **kw: Any) -> tuple[int, list[float]]:
    """Steps ours and the oracle side by side under actions drawn with `weights` until
    `episodes` episodes ended or `max_steps` steps; returns the episodes ended and the
    nonzero rewards seen."""
    game, mode = _game_mode(task_id)
    assets = os.path.join(wheel_dir, "procgen", "data", "assets")
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, resource_root=assets,
                                  channel_first=False, **kw)
    ref_kw = dict(kw)
    mode = ref_kw.pop("distribution_mode", mode)
    if mode == "exploration":  # procgen/env.py: hard mode on one level
        mode = "hard"
        ref_kw.update(num_levels=1, start_level=procgen_tasks.EXPLORATION_LEVEL_SEEDS[game])
    ref = ProcgenOracle(wheel_dir, game, rand_seed=seed, distribution_mode=mode, **ref_kw)
    p = np.asarray(weights, float)
    p = p / p.sum()
    rewards: list[float] = []

    def check_info(info: dict[str, Any], where: str, complete: bool = True,
                   ending: bool = False) -> None:
        assert_info_as_procgen(info, ref.info(), where, ending=ending, complete=complete)

    obs, info = ours.reset()
    np.testing.assert_array_equal(obs[0], ref.obs, err_msg="reset")
    check_info(info, "reset")
    rng = np.random.default_rng(seed)
    ended = step = 0
    while ended < episodes and step < max_steps:
        action = int(rng.choice(15, p=p))
        obs, rew, term, trunc, info = ours.step(np.array([action], np.int32))
        ref.act(action)
        step += 1
        where = f"{task_id} seed {seed} step {step} (episode {ended})"
        assert rew[0] == np.float32(ref.reward), where
        if rew[0] != 0:
            rewards.append(float(rew[0]))
        assert bool(term[0] or trunc[0]) == ref.first, where
        check_info(info, where, ending=ref.first)
        if ref.first:
            ended += 1
            assert bool(trunc[0]) == (not term[0]), where
            obs, rew, term, trunc, info = ours.step(np.array([0], np.int32))
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=where + " autoreset")
            assert rew[0] == 0 and not term[0] and not trunc[0], where
            check_info(info, where + " autoreset", complete=False)
        else:
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=where)
    ours.close()
    ref.close()
    return ended, rewards


# Each id under its game's action mix, for two episodes or 500 steps (the default suite's
# random-action sweep in test_align_procgen.py covers each mode; here one id a day, nightly
# all).
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_caves_episodes(wheel_dir: str, task_id: str) -> None:
    """Frames, rewards, ends and level seeds equal under the game's action mix."""
    game, mode = _game_mode(task_id)
    if (game, mode) == ("jumper", "memory"):
        # no spikes and a 2000-step limit: the episode ends in a truncation
        ended, _ = _run(wheel_dir, task_id, 1, episodes=1, max_steps=2100, weights=_MIX[game])
        assert ended == 1
    else:
        _run(wheel_dir, task_id, 1, episodes=2, max_steps=500, weights=_MIX[game])


# The rewards a random policy seldom gets, on seeds where an action mix reaches them early:
# caveflyer's goal (+10, step 176) and a red ufo shot down (+3, step 217) turning and firing
# with some thrust; jumper's carrot (+10, step 241).
_SPIN_FIRE = np.array([0, 3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0], float)
_REWARDS_REACHED = [
    ("CaveflyerEasy-v0", 1, _SPIN_FIRE, {10.0, 3.0}, 300),
    ("JumperHard-v0", 17, _MIX["jumper"], {10.0}, 300),
]


@pytest.mark.parametrize(("task_id", "seed", "weights", "expected", "max_steps"),
                         _REWARDS_REACHED, ids=[r[0] for r in _REWARDS_REACHED])
def test_caves_rewards_reached(wheel_dir: str, task_id: str, seed: int, weights: np.ndarray,
                               expected: set[float], max_steps: int) -> None:
    """The goal and, in caveflyer, a red ufo shot down: rewards equal to procgen's."""
    if task_id not in IDS:
        pytest.skip(f"{task_id} is not registered")
    _, rewards = _run(wheel_dir, task_id, seed, episodes=3, max_steps=max_steps,
                      weights=weights)
    assert expected <= set(rewards)


_KEYWORDS = [
    {"paint_vel_info": True},
    {"use_backgrounds": False},
    {"restrict_themes": True},
    {"use_monochrome_assets": True},
    {"center_agent": False},
    {"num_levels": 3, "start_level": 5},
    {"num_levels": 2, "start_level": 11, "use_sequential_levels": True},
]


def _kw_id(kw: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in kw.items())


# The keywords on each game's hard id: in the default suite one pair, nightly all.
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("kw", _KEYWORDS, ids=_kw_id)
def test_caves_keywords(wheel_dir: str, game: str, kw: dict[str, Any]) -> None:
    """The keywords change the frames and levels as procgen's options do."""
    task_id = f"{GAMES[game]}Hard-v0"
    if task_id not in IDS:
        pytest.skip(f"{task_id} is not registered")
    ended, _ = _run(wheel_dir, task_id, 3, episodes=1, max_steps=600, weights=_MIX[game], **kw)
    assert ended >= 0


# jumper's compass disc off whole pixels (easy mode; center_agent=False, where the world's
# whole width is shown) is Qt's path ellipse (qt_paint.h's DrawEllipsePath), on whole pixels
# (hard mode, centred) its midpoint ellipse: both in the default suite, past a reset.
@pytest.mark.parametrize(("task_id", "seed", "kw"), [
    ("JumperEasy-v0", 3, {}),
    ("JumperHard-v0", 7, {"center_agent": False}),
    ("JumperEasy-v0", 4, {"center_agent": False}),
], ids=["easy", "hard-not-centred", "easy-not-centred"])
def test_jumper_compass_path_ellipse(wheel_dir: str, task_id: str, seed: int,
                                     kw: dict[str, Any]) -> None:
    """Frames (the compass included), rewards, ends and level seeds equal to procgen's."""
    if task_id not in IDS:
        pytest.skip(f"{task_id} is not registered")
    ended, _ = _run(wheel_dir, task_id, seed, episodes=1, max_steps=400, weights=_MIX["jumper"],
                    **kw)
    assert ended == 1
