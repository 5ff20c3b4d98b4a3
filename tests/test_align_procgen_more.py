"""Alignment of procgen's climber, ninja and bossfight (native/envs/procgen/climber.h,
ninja.h, bossfight.h) with openai procgen 0.10.7's own game library, run in the same test.

Their random-action episodes and keywords run in ``tests/test_align_procgen.py`` with the
other games (its ids are every registered procgen id). A random policy rarely reaches the
games' rewards, so here each game also plays episodes under a biased random policy (jumps
in climber, charged jumps and throws in ninja, lasers in bossfight), from seeds chosen so
that the reference's episodes collect rewards and complete levels: frames byte for byte,
rewards, episode ends and level seeds equal on every step, and the rewards and completions
asserted to have happened. The harness (``_run``'s rules) is test_align_procgen.py's.
"""

from __future__ import annotations

import os
import sys
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
from test_align_procgen import _split  # noqa: E402

GAMES = ("climber", "ninja", "bossfight")
IDS = [i for i in procgen_tasks.ids() if _split(i)[0] in GAMES]

@pytest.fixture(scope="module")
def wheel_dir() -> str:
    """The oracle's wheel folder, as in test_align_procgen (skipped without it, or failed
    when ENVPOOL_REQUIRE_REFERENCES=1)."""
    return wheel_dir_or_skip()


# Each game's biased policy (actions drawn uniformly from the list; procgen's Discrete(15):
# 0-8 the moves, x = a // 3 - 1, y = a % 3 - 1, so 2, 5 and 8 hold "up"; 9-14 the special
# keys, 9 the one that fires).
POLICIES = {
    "climber": [2, 5, 8, 2, 5, 8, 0, 1, 3, 4, 6, 7],
    "ninja": [2, 2, 2, 5, 8, 8, 8, 8, 5, 9, 10, 11, 12],
    "bossfight": [9, 9, 9, 0, 1, 2, 6, 7, 8, 9],
}


def _play(wheel_dir: str, task_id: str, seed: int, episodes: int, max_steps: int,
          policy: list[int] | None = None, **kw: Any) -> tuple[int, float, int]:
    """test_align_procgen's ``_run`` under ``policy``: steps ours and the oracle side by
    side until ``episodes`` episodes ended or ``max_steps`` steps, asserting every frame,
    reward, end and level seed equal; returns (episodes ended, total reward, levels
    completed)."""
    game, mode = _split(task_id)
    actions = policy if policy is not None else list(range(15))
    ours = envpool.make_gymnasium(task_id, num_envs=1, channel_first=False, seed=seed,
                                  resource_root=os.path.join(wheel_dir, "procgen", "data",
                                                             "assets"), **kw)
    ref_kw = dict(kw)
    mode = ref_kw.pop("distribution_mode", mode)
    if mode == "exploration":  # procgen/env.py: hard mode on one level
        mode = "hard"
        ref_kw.update(num_levels=1, start_level=procgen_tasks.EXPLORATION_LEVEL_SEEDS[game])
    ref = ProcgenOracle(wheel_dir, game, rand_seed=seed, distribution_mode=mode, **ref_kw)
    obs, info = ours.reset()

    def check_info(where: str, complete: bool = True, ending: bool = False) -> None:
        assert_info_as_procgen(info, ref.info(), where, ending=ending, complete=complete)

    np.testing.assert_array_equal(obs[0], ref.obs, err_msg="reset")
    check_info("reset")
    rng = np.random.default_rng(seed)
    ended, step, total, completed = 0, 0, 0.0, 0
    while ended < episodes and step < max_steps:
        action = int(actions[rng.integers(len(actions))])
        obs, rew, term, trunc, info = ours.step(np.array([action], np.int32))
        ref.act(action)
        step += 1
        where = f"step {step} (episode {ended})"
        assert rew[0] == np.float32(ref.reward), where
        assert bool(term[0] or trunc[0]) == ref.first, where
        check_info(where, ending=ref.first)
        total += float(rew[0])
        if ref.first:
            ended += 1
            completed += int(info["prev_level_complete"][0])
            assert bool(trunc[0]) == (not term[0]), where
            obs, rew, term, trunc, info = ours.step(np.array([0], np.int32))
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=where + " autoreset")
            assert rew[0] == 0 and not term[0] and not trunc[0]
            check_info(where + " autoreset", complete=False)
        else:
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=where)
    ours.close()
    ref.close()
    return ended, total, completed


# (id, seed, episodes, the least reward and completions the episodes reach)
_OUTCOMES = [
    ("ClimberEasy-v0", 14, 1, 12.0, 1),  # two crystals and the level, in 253 steps
    ("NinjaEasy-v0", 0, 2, 20.0, 2),  # two mushrooms in 388 steps
    ("BossfightEasy-v0", 17, 1, 1.0, 0),  # a round won (the shield down) in 69 steps
    ("BossfightEasy-v0", 114, 1, 11.0, 1),  # the boss destroyed in 91 steps
]


@pytest.mark.sweep(extra=0)
@pytest.mark.parametrize(("task_id", "seed", "episodes", "min_reward", "min_completed"),
                         _OUTCOMES, ids=[f"{o[0]}-seed{o[1]}" for o in _OUTCOMES])
def test_procgen_more_outcomes(wheel_dir: str, task_id: str, seed: int, episodes: int,
                               min_reward: float, min_completed: int) -> None:
    """Biased-policy episodes that collect the games' rewards and complete levels."""
    ended, total, completed = _play(wheel_dir, task_id, seed, episodes, 4000,
                                    POLICIES[_split(task_id)[0]])
    assert ended == episodes
    assert total >= min_reward and completed >= min_completed


# (one id a day in the default suite: the shared test runs one of each mode already)
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_procgen_more_random_episodes_other_seeds(wheel_dir: str, task_id: str) -> None:
    """Uniformly random actions from seeds the shared test does not use."""
    assert _play(wheel_dir, task_id, 21, episodes=2, max_steps=2500)[0] == 2
