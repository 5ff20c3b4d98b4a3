"""Alignment of ``Shogi-v1`` with ``pgx`` 2.6.0's shogi, its own env run in the same test (jax
on the CPU), on the harness of tests/test_align_pgx_more.py: its ``Ref`` (pgx's env jitted
once, the same key chains), ``_check`` (every player's observation, the rewards, terminated,
truncated, current_player, legal_action_mask, elapsed_step and the info arrays ``board``,
``hand`` and ``turn`` equal to pgx's state bit for bit) and ``_rollout`` (random play).

* Random play with some illegal moves (which pgx's array code runs before its penalty) past
  several games, autoresets and a reseed; random legal play through whole games to both of
  pgx's endings (the mover without a legal move loses; the 512-step limit, a tie).
* Scripted games: random legal games of this package's env, found by what they reach, and
  illegal moves from the start: the pawn drop that would mate, masked (and then played:
  pgx's penalty), a mate, the step limit, a move label with no piece on its line (pgx moves
  square 80's piece), a promotion of that square's empty value (a king), a rook taking its
  own pawn (a gold into the hand), a drop of a piece not in hand.

pgx's shogi costs about 15 s of one core before its first step (importing pgx.shogi builds
its tables in Python; jax compiles init, step and the observation), more than this file's
share of the default suite. So the tests that run pgx run with every id
(``ENVPOOL_SWEEP=all``, the nightly's sweep); the default suite replays the scripted games
against their digests (sha256 of every output of every step), which the same games check
against pgx's states there.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import numpy as np
import pytest

import envpool

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

from test_align_pgx_more import INFO, Ref, _check, _rollout  # noqa: E402  (its harness)

TASK = "Shogi-v1"
SEED = 11
# pgx's state -> our info arrays (the board as numpy's rot90(k=3) shows it, as sail-sg
# EnvPool's info: the mover's side at the bottom)
INFO[TASK] = lambda s: {"board": np.rot90(np.asarray(s._x.board, np.int32).reshape(9, 9), k=3),
                        "hand": s._x.hand, "turn": s._x.color}

WITH_PGX = pytest.mark.skipif(
    os.environ.get("ENVPOOL_SWEEP") != "all",
    reason="pgx's shogi takes ~15 s of jit: ENVPOOL_SWEEP=all (the nightly's sweep)")

PAWN_DROP = 20 * 81  # the labels of the pawn drops (20 * 81 + square)


def _pawn_mate_label(info: dict[str, Any]) -> int | None:
    """The pawn drop in front of the opponent's king that only the pawn-drop-mate rule can
    mask: the mover holds a pawn, is not in check (plane 118), has no unpromoted pawn on
    the file, and the square is empty and not on the far rank; else None."""
    board = np.rot90(info["board"][0], k=-3).reshape(-1)  # back to pgx's squares
    king = int(np.flatnonzero(board == 21)[0])
    to = king + 1
    if to % 9 == 0 or board[to] != -1 or info["hand"][0][0][0] <= 0:
        return None
    if (board.reshape(9, 9)[to // 9] == 0).any():
        return None
    return PAWN_DROP + to


# (policy seed, random legal steps, then these labels, what the last step shows): the
# random steps choose uniformly among our legal labels with numpy's default_rng(seed).
SCRIPTED: dict[str, tuple[int, int, list[int], str]] = {
    # the pawn drop in front of the opponent's king (label 1669: square 49) would mate and
    # is masked (_pawn_mate_label); played, pgx's penalty
    "pawn_mate": (3, 127, [1669], "illegal"),
    "mate": (5, 74, [], "mate"),
    "limit": (0, 512, [], "limit"),
    # "up" onto square 8 (the mover's lance; no square below it): pgx's from_ is -1, square
    # 80's lance takes its own lance, whose hand index (7) jax drops
    "no_piece_on_the_line": (0, 0, [8], "illegal"),
    # the rook "up" onto its own pawn: a gold into the hand ((0 + 14) % 28 % 8 = 6)
    "own_capture": (0, 0, [15], "illegal"),
    # the lance from square 80 up, a pawn of the opponent's, then a promoting "up" onto
    # square 8 from -1: square 80's empty value promoted is a king (-1 + 8)
    "empty_promoted": (0, 0, [79, 5, 818], "illegal"),
    # a rook dropped with none in hand: the hand's count goes to -1
    "drop_not_in_hand": (0, 0, [25 * 81 + 40], "illegal"),
}
# The sha256 of each scripted game's outputs (see _play), checked against pgx with every id.
DIGESTS: dict[str, str] = {
    "pawn_mate": "a2f32d599d573ba872238c196cd6dee80fbf764d16db71fe3a185b715a48a913",
    "mate": "6781253f7c978bfdb7a5e508bd1af08d095b4ce83e3964d8baa378cdb77f9312",
    "limit": "2c4d7966587bd98ef3a92eba3bbbe3d2d4cfd8fa95b02b53b9247acf17c04599",
    "no_piece_on_the_line": "34f6e4d9fdbb3dc660bcb093a6d3f3fa0d5b341993f4a2dce2205fac4f1eaee2",
    "own_capture": "b28408c61d6bfb93139a040d66ced34796f9ae8f04a9c242132a24052a2ecfed",
    "empty_promoted": "fc302b2498bcedfc33d48f24ed396908dc1d06ee2c8b6a0282be12771cd68fa2",
    "drop_not_in_hand": "7c72b89792dd8264de92abf684962d63a368c4d277c7b9ba9dbf02d01687b7c8",
}


def _digest(h: Any, *arrays: Any) -> None:
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())


def _play(name: str, with_pgx: bool) -> tuple[str, Any, Any, Any, dict[str, Any]]:
    """Plays SCRIPTED[name] (with_pgx: each step checked against pgx); returns the digest of
    every output and the last step's rewards, terminated, truncated and info."""
    policy, steps, labels, _ = SCRIPTED[name]
    env = envpool.make_gymnasium(TASK, num_envs=1, seed=SEED)
    obs, info = env.reset()
    rew = np.zeros(2, np.float32)
    term = trunc = np.zeros(1, bool)
    h = hashlib.sha256()
    keys = ("legal_action_mask", "board", "hand", "turn", "current_player", "elapsed_step")
    _digest(h, obs, rew, term, trunc, *(info[k] for k in keys))
    if with_pgx:
        ref = Ref(TASK)
        chain = [jax.random.PRNGKey(SEED)]
        state = ref.new_game(0, ref.next_key(chain, 0))
        _check(TASK, ref, state, obs, rew, term, trunc, info, 0, (name, "reset"))
    rng = np.random.default_rng(policy)
    for t in range(steps + len(labels)):
        assert not term[0], (name, t)
        mask = info["legal_action_mask"][0]
        action = int(rng.choice(np.flatnonzero(mask))) if t < steps else labels[t - steps]
        obs, rew, term, trunc, info = env.step(np.asarray([action], np.int32))
        _digest(h, obs, rew, term, trunc, *(info[k] for k in keys))
        if with_pgx:
            state = ref.play(0, state, action, ref.next_key(chain, 0))
            _check(TASK, ref, state, obs, rew, term, trunc, info, 0, (name, t, action))
    return h.hexdigest(), rew, term, trunc, info


def _check_ending(name: str, rew: Any, term: Any, info: dict[str, Any]) -> None:
    """What SCRIPTED[name]'s last step must show."""
    kind = SCRIPTED[name][3]
    if kind == "ongoing":
        assert not term[0]
    elif kind == "mate":
        assert term[0] and sorted(rew.tolist()) == [-1.0, 1.0]
        assert rew[int(info["current_player"][0])] == -1.0
    elif kind == "limit":
        assert term[0] and not rew.any() and int(info["elapsed_step"][0]) == 512
    else:  # "illegal": the mover (the player not to move now) at -1
        assert term[0] and info["legal_action_mask"][0].all()
        assert rew[int(info["current_player"][0])] == 1.0 and sorted(rew.tolist()) == [-1.0, 1.0]


@WITH_PGX
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [TASK])
def test_lockstep(task_id: str) -> None:
    """Random play (some illegal moves) past several games, autoresets and a reseed:
    bitwise with pgx."""
    games, illegal, _ = _rollout(task_id, 240, 0.03, reseed=True)
    assert games >= 4 and illegal >= 2, (games, illegal)


@WITH_PGX
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [TASK])
def test_legal_games_to_the_end(task_id: str) -> None:
    """Random legal play only, through whole games to both endings (a mate, the 512-step
    limit): bitwise with pgx."""
    games, illegal, endings = _rollout(task_id, 700, 0.0, reseed=False, seed=3)
    assert illegal == 0 and games >= 2, games
    assert {"mate", "limit"} <= endings, endings


@WITH_PGX
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("name", list(SCRIPTED))
def test_scripted_games(name: str) -> None:
    """The scripted games: bitwise with pgx, ending as named, with the digest that the
    default suite replays."""
    digest, rew, term, _, info = _play(name, with_pgx=True)
    _check_ending(name, rew, term, info)
    assert digest == DIGESTS[name], (name, digest)


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_scripted_games_replay(name: str) -> None:
    """The scripted games without pgx: every output as the pgx-checked run's (its digest)."""
    digest, rew, term, _, info = _play(name, with_pgx=False)
    _check_ending(name, rew, term, info)
    assert digest == DIGESTS[name], digest


def test_spaces_match_sail_sg_envpool() -> None:
    """The spaces, config and info arrays of sail-sg EnvPool 1.2.5's Shogi-v1."""
    import gymnasium

    spec = envpool.make_spec(TASK)
    assert spec.config.max_num_players == 2
    space = spec.gymnasium_observation_space
    assert isinstance(space, gymnasium.spaces.MultiBinary) and space.shape == (9, 9, 119)
    assert spec.gymnasium_action_space.n == 2187
    env = envpool.make_gymnasium(TASK, num_envs=2, seed=0)
    obs, info = env.reset()
    assert obs.shape == (4, 9, 9, 119) and obs.dtype == np.bool_
    assert info["board"].shape == (2, 9, 9) and info["hand"].shape == (2, 2, 7)
    assert info["legal_action_mask"].shape == (2, 2187)
    assert (info["legal_action_mask"].sum(axis=1) == 30).all() and (info["turn"] == 0).all()


def test_illegal_action_penalty() -> None:
    """pgx's illegal-move rule: the mover -1, the other +1, the game ends, every action
    legal after."""
    env = envpool.make_gymnasium(TASK, num_envs=1, seed=SEED)
    _, info = env.reset()
    mover = int(info["current_player"][0])
    action = int(np.flatnonzero(~info["legal_action_mask"][0])[0])
    _, rew, term, trunc, info = env.step(np.asarray([action], np.int32))
    assert term[0] and not trunc[0]
    want = np.ones(2, np.float32)
    want[mover] = -1.0
    assert np.array_equal(rew, want)
    assert info["legal_action_mask"][0].all()


def test_render_draws_the_board() -> None:
    """render_mode="rgb_array": frames of the asked size, the same for the same state,
    different after a move."""
    env = envpool.make_gymnasium(TASK, num_envs=2, seed=SEED, render_mode="rgb_array",
                                 render_width=96, render_height=80)
    _, info = env.reset()
    first = env.render(env_ids=[0, 1])
    assert first.shape == (2, 80, 96, 3) and first.dtype == np.uint8
    assert np.array_equal(env.render(env_ids=[0, 1]), first)
    env.step(np.array([np.flatnonzero(m)[0] for m in info["legal_action_mask"]], np.int32))
    assert (env.render(env_ids=[0, 1]) != first).any(axis=(1, 2, 3)).all()
