"""Alignment of procgen's chaser and dodgeball (native/envs/procgen/chaser.h, dodgeball.h)
with openai procgen 0.10.7's own game library, run in the same test.

The harness is tests/test_align_procgen.py's (``_run``: ours and procgen's game library,
through tests/procgen_oracle.py, stepped side by side; every frame byte for byte, every
reward, episode end and level seed equal). That file's random-episode sweep already takes
these games' ids (``procgen_tasks.GAMES``); here: each id over more seeds and episodes, the
drawing and level keywords on both games, the modes as keywords, and scripted episodes
that clear a level (which random actions never do).
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
from test_align_procgen import _kw_id, _run, _split  # noqa: E402

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
    return wheel_dir_or_skip()


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


# Scripted episodes that clear a level (every enemy hit, then the open door reached, in
# dodgeball; every small orb eaten in chaser): one action a letter ("a" is 0), found by a
# greedy search over this package's env (chunks of random actions kept where the agent
# survives them, preferring more reward, then nearing the open door or the nearest orb on
# monochrome frames) and replayed here on both, with num_levels=1 and start_level the level.
_SCRIPTS: dict[tuple[str, int], str] = {
    ("DodgeballEasy-v0", 1): (
        "aechhhjjbbbhahbfijcaeigahgejiafiadfdhhhegfhbdhccecfghgbbdjagchjeehcdbifcifgfhiae"
        "iiifajghdehifafgjeagjdiaajdfehbegabbiafdcgcbaddihecdffbaedafbjhhicgacacjgchaijbc"
        "cghhhbdijecajdbjdfjaiehbcaedhidefcbiddfdaigjigffajjighccihjhgdfacgejfijddfhbdagi"
        "hfbeigghbjjfgcjgghiedjfgheijbgdgdehhgadgciaeaiaichfdbjhefaaeagabcheibbfjediacdai"
        "dacjddjedjbafebjahfebifcbbbgegaajbagcead"),
    ("DodgeballHard-v0", 5): (
        "aceeeaabagfgbabdbacgfcjhdbgdjahhcaddffiacdjaeeaefhjaiejdjcdjcdhcbgfcdiacedacgcje"
        "djbebjfjecciaagjbfbcjgjabbdbiidiifbdghjhehbegabbiafddifciafgjbbaffbaedafbjhhijgh"
        "iddjbhideefjhfdeiaibebjdefegfddcgiacbeabecegcfgjfeigjbgibidedfdcaebbeacdejgahjdc"
        "fiidciediggdiebbfecajhcjcdbbcdgaccdgfhfjiiidfhgfaabhfdaibehgajgidjjjcaefdjbiibid"
        "eehafhiicbfdjffcijgfdiegjggbhijgihjbfcheigcibjfhefjhgjigibcegicbiihdcigfcagijihi"
        "dajaeaid"),
    ("DodgeballExtreme-v0", 1): (
        "jjgjiabiajijgjhbaieaedeedbgdjahhcaddjbbdbhejcdccecfghgbbdjaggechffgbjcefdhjbbgcd"
        "jjjhifgfhiaeiiifiecjjifgcbigiidiifbdghjhhedefgjihcgcfijfehjcfciidhegjegiddegihhc"
        "iechagjiijghiddjbhidbcbhigijfhbdgfeeahjedgeagfeieghacefjcfgjfeigjbgiedijegcibaca"
        "ihjhgdfacgejahjegdjifiadhfbeigghbjjfgcjgghiedjfgheijbgdgdehhfiidciediggdgehhifca"
        "jhhbjihhbdjfbggihahfbifaihichheghifbcgah"),
    ("ChaserEasy-v0", 1): (
        "adcgggiibbbgbaadaacfeciggiefichbdgfbhhcfheiccafagiehchbhdfbdhbfbadeeabahacficagb"
        "hcbghfgfghaehhheegbaedcccfdfdedbddhciibfeheeddfcccefgdagegdgighdaiegibiifdfhhaia"
        "fbfbchibeabfeihahgcceefigfddhahbchdeihcbibecdhbhbibcafciccbbcdfaccdfggdcaebigdce"
        "cdhdgcegbbdgffhiifgeceeeafaagadcaagdbdbdgdfaichiiaebhadfhgaeacahidegeghdccchigbg"
        "eege"),
    ("ChaserHard-v0", 6): (
        "adcgggiibbbgchchcgeifiigffifhiaaeeegbfdbeiiageedgiehchbhdfbdccgcbfecchacdiiddddf"
        "ffhfhfgfghaehhheabcgdadfabigheahebfeafggdeegbhgfaabcdhcgahgahfiffcifcccfbidccccc"
        "cdiehgigcigddhhffefcdabicefddcdcddddafhbfaffceaggddfegifacgbfaehhhdedbiabiafbebd"
        "ceicdfcccebiiiifdgdeihfdfffhffegffdedghebeeeahheabdbhghgebabacddffdbibfbbaaciggh"
        "deiefggfebifiafgidbedaaiehhcbcdfdfddgicgbfcfbgbifbbifbbedadgbdieiagfbggiacabcdbh"
        "hfchgdeecghgdbdhdagfddhfbhfcbadbfieaggbaabaacbafdgchceceffhaddbgecedicahdebhffbb"
        "bddfcddidhecbifegaghhegdhgfahdgcagdiegdfbaheieeahfgegadgbghhahefheiccchc"),
}


def _replay(wheel_dir: str, task_id: str, level: int, script: str, **kw: Any) -> float:
    """Plays `script` on ours and the oracle (seed 0, the one level `level`) until the
    episode ends (with use_sequential_levels: until the level is cleared), comparing as
    _run does; returns the return up to there."""
    game, mode = _split(task_id)
    ours = envpool.make_gymnasium(task_id, num_envs=1, channel_first=False, seed=0, num_levels=1,
                                  start_level=level,
                                  resource_root=os.path.join(wheel_dir, "procgen", "data",
                                                             "assets"), **kw)
    ref = ProcgenOracle(wheel_dir, game, rand_seed=0, distribution_mode=mode, num_levels=1,
                        start_level=level, **kw)
    obs, info = ours.reset()
    np.testing.assert_array_equal(obs[0], ref.obs, err_msg="reset")
    total = 0.0
    for step, letter in enumerate(script, 1):
        action = ord(letter) - ord("a")
        obs, rew, term, trunc, info = ours.step(np.array([action], np.int32))
        ref.act(action)
        r = ref.info()
        assert rew[0] == np.float32(ref.reward), step
        assert bool(term[0] or trunc[0]) == ref.first, step
        assert_info_as_procgen(info, r, f"step {step}", ending=ref.first)
        total += float(rew[0])
        if kw.get("use_sequential_levels") and r["prev_level_complete"]:
            # the next level (seed + 997) goes on in the same episode: its first frame
            assert not ref.first and r["level_seed"] == level + 997, step
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=f"step {step}")
            break
        if ref.first:
            assert bool(term[0]) and r["prev_level_complete"] == 1, step
            obs, *_ = ours.step(np.array([0], np.int32))
            np.testing.assert_array_equal(obs[0], ref.obs, err_msg=f"step {step} autoreset")
            break
        np.testing.assert_array_equal(obs[0], ref.obs, err_msg=f"step {step}")
    else:
        pytest.fail("the script ended before its episode did")
    ours.close()
    ref.close()
    return total


@pytest.mark.parametrize(("task_id", "level"), list(_SCRIPTS))
def test_scripted_level_cleared(wheel_dir: str, task_id: str, level: int) -> None:
    """The level is cleared (+10, prev_level_complete) on the same step as in procgen, every
    frame equal on the way."""
    total = _replay(wheel_dir, task_id, level, _SCRIPTS[(task_id, level)])
    assert total >= 10


@pytest.mark.parametrize(("task_id", "level"), [("ChaserEasy-v0", 1)])
def test_scripted_sequential_levels(wheel_dir: str, task_id: str, level: int) -> None:
    """With use_sequential_levels a cleared level goes on to the next seed (+997) in the
    same episode, as in procgen."""
    total = _replay(wheel_dir, task_id, level, _SCRIPTS[(task_id, level)],
                    use_sequential_levels=True)
    assert total >= 10
