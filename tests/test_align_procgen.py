"""Alignment of the procgen games (native/envs/procgen/) with openai procgen 0.10.7, its own
game library run in the same test.

procgen installs on CPython 3.10 and below only, so the oracle is the game library of its
cp310 wheel (``procgen/data/prebuilt/libenv.so``, Qt 5.13.2 linked in), which
``envpool.tasks.procgen.download_wheel`` fetches with pip into the cache folder and
``tests/procgen_oracle.py`` drives through gym3's libenv C API with ctypes. Without network
access to the wheel the tests skip, saying so; ENVPOOL_REQUIRE_REFERENCES=1 makes that a
failure.

Env i of a pool made with seed s is procgen's ProcgenGym3Env(num=1, rand_seed=s + i). Under
the same random actions, over several episodes: every frame equal byte for byte, every reward
equal, the episode's end on procgen's step with first=1 (terminated, or truncated at
procgen's timeout), level_seed / prev_level_seed / prev_level_complete equal on every step
but one: procgen resets inside the step that ends an episode and shows the new level's first
frame there; ours shows that frame on the autoreset that follows (with procgen's info), and
on the ending step the last frame of the ended episode, which procgen never draws (not
compared), with that level's seed as level_seed (procgen's prev_level_seed).
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

IDS = procgen_tasks.ids()
_GAME_OF_PREFIX = {prefix: game for game, (prefix, _) in procgen_tasks.GAMES.items()}


def _split(task_id: str) -> tuple[str, str]:
    """BigfishHard-v0 -> ("bigfish", "hard")."""
    stem = task_id[: -len("-v0")]
    for mode in ("Easy", "Hard", "Extreme", "Memory", "Exploration"):
        if stem.endswith(mode):
            return _GAME_OF_PREFIX[stem[: -len(mode)]], mode.lower()
    raise ValueError(task_id)


@pytest.fixture(scope="module")
def wheel_dir() -> str:
    return wheel_dir_or_skip()


def _run(wheel_dir: str, task_id: str, seed: int, episodes: int, max_steps: int,
         **kw: Any) -> int:
    """Steps ours and the oracle side by side until `episodes` episodes ended or `max_steps`
    steps; returns the episodes ended."""
    game, mode = _split(task_id)
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
    step = 0

    def check_info(where: str, complete: bool = True, ending: bool = False) -> None:
        assert_info_as_procgen(info, ref.info(), where, ending=ending, complete=complete)

    np.testing.assert_array_equal(obs[0], ref.obs, err_msg="reset")
    check_info("reset")
    rng = np.random.default_rng(seed)
    ended = 0
    while ended < episodes and step < max_steps:
        action = int(rng.integers(15))
        obs, rew, term, trunc, info = ours.step(np.array([action], np.int32))
        ref.act(action)
        step += 1
        where = f"step {step} (episode {ended})"
        assert rew[0] == np.float32(ref.reward), where
        assert bool(term[0] or trunc[0]) == ref.first, where
        check_info(where, ending=ref.first)
        if ref.first:
            ended += 1
            # procgen's timeout is a truncation, the game's own end a termination
            assert bool(trunc[0]) == (not term[0]), where
            # the autoreset shows procgen's first frame of the next episode
            obs, rew, term, trunc, info = ours.step(np.array([0], np.int32))
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=where + " autoreset")
            assert rew[0] == 0 and not term[0] and not trunc[0]
            check_info(where + " autoreset", complete=False)
            assert info["prev_level_complete"][0] == 0
        else:
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=where)
    ours.close()
    ref.close()
    return ended


# Random actions past several episodes with procgen's defaults (center_agent, backgrounds).
# The default suite runs one id of each game and two more (a game's modes run its one code
# with other level options; the nightly runs every id). JumperMemory-v0's episodes last 2000
# steps: tests/test_align_procgen_caves.py runs it to its truncation.
@pytest.mark.sweep(by="native", extra=2)
@pytest.mark.parametrize("task_id", [i for i in IDS if i != "JumperMemory-v0"])
def test_procgen_random_episodes(wheel_dir: str, task_id: str) -> None:
    """Two seeds, three episodes each: frames, rewards, ends and level seeds equal."""
    for seed in (0, 7):
        assert _run(wheel_dir, task_id, seed, episodes=3, max_steps=4000) == 3


# The drawing and level keywords, each on its own: in the default suite each on one game
# (round robin), nightly on one id of every game.
_ONE_ID_PER_GAME = [f"{prefix}Hard-v0" for prefix, _ in procgen_tasks.GAMES.values()]
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


@pytest.mark.parametrize(("task_id", "kw"), [
    (_ONE_ID_PER_GAME[i % len(_ONE_ID_PER_GAME)], kw) for i, kw in enumerate(_KEYWORDS)],
    ids=[_kw_id(kw) for kw in _KEYWORDS])
def test_procgen_keywords(wheel_dir: str, task_id: str, kw: dict[str, Any]) -> None:
    """The keywords change the frames and levels as procgen's options do."""
    assert _run(wheel_dir, task_id, 3, episodes=1, max_steps=1100, **kw) == 1


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", _ONE_ID_PER_GAME)
@pytest.mark.parametrize("kw", _KEYWORDS, ids=_kw_id)
def test_procgen_keywords_every_game(wheel_dir: str, task_id: str, kw: dict[str, Any]) -> None:
    """The same on every game (nightly; one pair a day in the default suite)."""
    assert _run(wheel_dir, task_id, 3, episodes=1, max_steps=1100, **kw) == 1


@pytest.mark.parametrize("task_id", ["StarpilotHard-v0", "LeaperHard-v0"])
def test_procgen_extreme_mode(wheel_dir: str, task_id: str) -> None:
    """procgen's extreme mode (a keyword: EnvPool has no ids for it)."""
    assert _run(wheel_dir, task_id, 5, episodes=2, max_steps=1100,
                distribution_mode="extreme") == 2


def test_procgen_bad_keywords(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """A mode a game does not have, a negative level count and a missing asset folder are
    refused when the pool is made; without any asset folder the spec is still made."""
    with pytest.raises(ValueError, match="distribution_mode"):
        envpool.make_gymnasium(IDS[0], num_envs=1, distribution_mode="memory")
    with pytest.raises(ValueError, match="num_levels"):
        envpool.make_gymnasium(IDS[0], num_envs=1, num_levels=-1)
    with pytest.raises(ValueError, match="resource_root"):
        envpool.make_gymnasium(IDS[0], num_envs=1, resource_root="/nonexistent/procgen")
    monkeypatch.setenv("ENVPOOL_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ENVPOOL_PROCGEN_ASSETS", raising=False)
    if procgen_tasks.find_assets():  # an installed procgen package
        return
    assert envpool.make_spec(IDS[0]).observation_space.shape == (3, 64, 64)
    with pytest.raises(RuntimeError, match="--procgen-assets"):
        envpool.make_gymnasium(IDS[0], num_envs=1)


@pytest.mark.sweep(by="none", extra=1)
@pytest.mark.parametrize("task_id", _ONE_ID_PER_GAME)
def test_procgen_channel_first_and_render(wheel_dir: str, task_id: str) -> None:
    """sail-sg EnvPool's layout: (3, 64, 64) by default, procgen's frame transposed; with
    channel_first=False procgen's (64, 64, 3); render() is the frame the agent sees, for
    each env asked, whatever the layout."""
    assets = os.path.join(wheel_dir, "procgen", "data", "assets")
    first = envpool.make_gymnasium(task_id, num_envs=2, seed=7, resource_root=assets,
                                   render_mode="rgb_array")
    last = envpool.make_gymnasium(task_id, num_envs=2, seed=7, resource_root=assets,
                                  channel_first=False, render_mode="rgb_array")
    assert first.single_observation_space.shape == (3, 64, 64)
    assert last.single_observation_space.shape == (64, 64, 3)
    obs_first, _ = first.reset()
    obs_last, _ = last.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        assert obs_first.shape == (2, 3, 64, 64)
        np.testing.assert_array_equal(obs_first, obs_last.transpose(0, 3, 1, 2))
        for env in (first, last):
            np.testing.assert_array_equal(env.render(env_ids=[0, 1]), obs_last)
        action = rng.integers(15, size=2)
        obs_first = first.step(action)[0]
        obs_last = last.step(action)[0]
    first.close()
    last.close()
    with pytest.raises(ValueError, match="64"):
        envpool.make_gymnasium(task_id, num_envs=1, render_mode="rgb_array", render_width=128)
