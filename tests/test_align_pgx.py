"""Alignment of the PGX games with ``pgx`` 2.6.0, its own envs run in the same test (jax on
the CPU).

* Same seed, same games: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)``: each reset takes ``use, key = split(key)`` and starts
  ``init(use)``, each step takes the next ``use`` for ``step(state, action, use)``. The
  reference keeps the same chain here, so no state is copied between the two.
* Under the same actions (random legal ones, and now and then an illegal one, which pgx
  ends with a penalty), every observation of every player must equal pgx's
  ``_observe(state, player)`` bit for bit, and the rewards (float32), terminated,
  truncated, current_player, legal_action_mask, elapsed_step (pgx's ``_step_count``) and
  the game's own info arrays must equal pgx's state, across several games and autoresets
  (next_step: the reference starts ``init`` with the chain's next key when ours resets)
  and a reseed.

pgx jit-compiles each game's init and step once per test run (a few seconds for each
game), so the default suite samples the ids (``sweep(by="none")``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool
from envpool.tasks.pgx import GO_SIZES, PGX_GAMES, pgx_name

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pgx = pytest.importorskip("pgx")

IDS = list(PGX_GAMES)
# The chess games have their own file (tests/test_align_pgx_chess.py).
IDS = [i for i in IDS if i not in ("GardnerChess-v1", "Chess-v1")]
SEED = 7
N = 2


def _board(shape: tuple[int, ...], sign: bool = False) -> Callable[[Any], dict[str, Any]]:
    def get(state: Any) -> dict[str, Any]:
        board = np.asarray(state._x.board, dtype=np.int32)
        return {"board": (np.sign(board) if sign else board).reshape(shape)}
    return get


# pgx's state -> our info arrays of the game.
INFO: dict[str, Callable[[Any], dict[str, Any]]] = {
    "TicTacToe-v1": _board((3, 3)),
    "ConnectFour-v1": _board((6, 7)),
    "Othello-v1": _board((8, 8)),
    "Hex-v1": _board((11, 11), sign=True),
    "Play2048-v1": lambda s: {"board": np.asarray(s._board).reshape(4, 4)},
    "KuhnPoker-v1": lambda s: {"cards": s._cards, "last_action": s._last_action,
                               "pot": s._pot},
    "LeducHoldem-v1": lambda s: {"cards": s._cards, "chips": s._chips,
                                 "first_player": s._first_player,
                                 "last_action": s._last_action,
                                 "raise_count": s._raise_count, "round": s._round},
}

def _animal_shogi(s: Any) -> dict[str, Any]:
    board = np.empty((4, 3), np.int32)
    for sq, value in enumerate(np.asarray(s._board)):
        board[sq % 4, 2 - sq // 4] = value
    return {"board": board, "hand": s._hand, "turn": s._turn}


INFO["AnimalShogi-v1"] = _animal_shogi
for _go in GO_SIZES:
    INFO[_go] = lambda s: {"ko": s._x.ko, "is_psk": s._x.is_psk,
                           "consecutive_pass_count": s._x.consecutive_pass_count}
# Steps per env of the rollout (games end and restart within it).
STEPS = {"TicTacToe-v1": 40, "ConnectFour-v1": 60, "Othello-v1": 90, "Hex-v1": 90,
         "Play2048-v1": 120, "KuhnPoker-v1": 30, "LeducHoldem-v1": 40, "Go9x9-v1": 120,
         "Go13x13-v1": 70, "Go19x19-v1": 40, "AnimalShogi-v1": 120}
# The rollout's keywords (pgx's Go(size=..., max_terminal_steps=...) the same): a 5 x 5
# board, where random games end by passes, captures, ko and superko within the test; the
# larger boards end by the step limit.
KWARGS: dict[str, dict[str, Any]] = {"Go9x9-v1": {"board_size": 5},
                                     "Go13x13-v1": {"max_terminal_steps": 30},
                                     "Go19x19-v1": {"max_terminal_steps": 16}}

_REFS: dict[str, Any] = {}


class Ref:
    """pgx's game of ``task_id``, jitted once per test run, with one key chain per env."""

    def __init__(self, task_id: str, kwargs: dict[str, Any] | None = None) -> None:
        kwargs = dict(kwargs or {})
        name = (task_id, tuple(sorted(kwargs.items())))
        if name not in _REFS:
            if task_id in GO_SIZES:
                from pgx._src.games.go import _count_scores
                from pgx.go import Go

                size = kwargs.pop("board_size", GO_SIZES[task_id])
                steps = kwargs.pop("max_terminal_steps", None) or None
                env = Go(size=size, komi=7.5, max_terminal_steps=steps, **kwargs)
                extra = jax.jit(lambda s: {"board": jnp.sign(s._x.board).reshape(size, size),
                                           "areas": _count_scores(s._x, size)})
            else:
                env = pgx.make(pgx_name(task_id))
                extra = jax.jit(lambda s: {})
            players = jnp.arange(max(env.num_players, 1))
            _REFS[name] = (
                env,
                jax.jit(env.init),
                jax.jit(env.step),
                jax.jit(lambda s: jax.vmap(lambda p: env._observe(s, p))(players)),
                jax.jit(lambda k: tuple(jax.random.split(k))),
                extra,
            )
        self.env, self.init, self.step, self.observe, self.split, self.extra = _REFS[name]
        self.num_players = self.env.num_players

    def next_key(self, chain: list[Any], i: int) -> Any:
        use, chain[i] = self.split(chain[i])
        return use


def _check(task_id: str, ref: Ref, state: Any, obs: np.ndarray, rew: np.ndarray,
           term: np.ndarray, trunc: np.ndarray, info: dict[str, Any], row: int,
           where: Any) -> None:
    """Our row ``row`` (env ``row``, its players' rows) against pgx's state."""
    s = jax.device_get(state)
    n = ref.num_players
    want_obs = np.asarray(jax.device_get(ref.observe(state)))
    if n == 1:
        assert np.array_equal(obs[row], want_obs[0]), where
        assert np.array_equal(rew[row:row + 1], np.asarray(s.rewards, np.float32)), where
    else:
        rows = slice(n * row, n * row + n)
        assert obs.dtype == want_obs.dtype
        for p in range(n):
            assert np.array_equal(obs[rows][p], want_obs[p]), (where, "player", p)
        assert rew.dtype == np.float32
        assert np.array_equal(rew[rows], np.asarray(s.rewards)), (where, rew[rows], s.rewards)
        assert np.array_equal(info["players"]["id"][rows], np.arange(n)), where
        assert int(info["current_player"][row]) == int(s.current_player), where
    assert bool(term[row]) == bool(s.terminated), where
    assert bool(trunc[row]) == bool(s.truncated), where
    assert np.array_equal(info["legal_action_mask"][row], np.asarray(s.legal_action_mask)), where
    assert int(info["elapsed_step"][row]) == int(s._step_count), where
    for key, value in INFO[task_id](s).items():
        assert np.array_equal(info[key][row], np.asarray(value)), (where, key)
    extra = jax.device_get(ref.extra(state))
    if "areas" in extra:  # Go: pgx's _count_scores (black, white)
        extra["black_area"], extra["white_area"] = extra.pop("areas")
    for key, value in extra.items():
        assert np.array_equal(info[key][row], np.asarray(value)), (where, key)


@pytest.mark.sweep(by="none", extra=2)
@pytest.mark.parametrize("task_id", IDS)
def test_lockstep(task_id: str) -> None:
    """Random play (some illegal moves) past several games, autoresets and a reseed:
    bitwise with pgx."""
    kwargs = KWARGS.get(task_id, {})
    ref = Ref(task_id, kwargs)
    env = envpool.make_gymnasium(task_id, num_envs=N, seed=SEED, **kwargs)
    rng = np.random.default_rng(3)
    chain = [jax.random.PRNGKey(SEED + i) for i in range(N)]
    obs, info = env.reset()
    states = [ref.init(ref.next_key(chain, i)) for i in range(N)]
    zeros = np.zeros(N, bool)
    rew = np.zeros(N * max(ref.num_players, 1), np.float32)
    for i in range(N):
        _check(task_id, ref, states[i], obs, rew, zeros, zeros, info, i, ("reset", i))
    games = 0
    illegal = 0
    for t in range(STEPS[task_id]):
        if t == STEPS[task_id] // 2:  # a reseed of every env restarts its chain
            obs, info = env.reset(seed=SEED + 100)
            chain = [jax.random.PRNGKey(SEED + 100 + i) for i in range(N)]
            states = [ref.init(ref.next_key(chain, i)) for i in range(N)]
            for i in range(N):
                _check(task_id, ref, states[i], obs, rew * 0, zeros, zeros, info, i,
                       ("reseed", i))
            continue
        actions = np.zeros(N, np.int32)
        for i in range(N):
            mask = info["legal_action_mask"][i]
            if rng.random() < 0.04 and not mask.all():
                actions[i] = rng.choice(np.flatnonzero(~mask))
            else:
                actions[i] = rng.choice(np.flatnonzero(mask))
        done_before = [bool(np.asarray(s.terminated)) for s in states]
        obs, rew, term, trunc, info = env.step(actions)
        for i in range(N):
            if done_before[i]:  # our autoreset: the chain's next init
                states[i] = ref.init(ref.next_key(chain, i))
                games += 1
            else:
                illegal += not bool(np.asarray(states[i].legal_action_mask)[actions[i]])
                states[i] = ref.step(states[i], jnp.int32(actions[i]), ref.next_key(chain, i))
            _check(task_id, ref, states[i], obs, rew, term, trunc, info, i, (t, i))
    assert games >= (1 if task_id == "Play2048-v1" else 2), games  # (2048's games are long)
    del illegal  # (how many illegal moves ended a game: depends on the draw)


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [i for i in IDS if i != "KuhnPoker-v1"])  # (none illegal)
def test_illegal_action_ends_with_penalty(task_id: str) -> None:
    """pgx's illegal-move rule: the mover gets -1, the others +1 (one player: -1), the game
    ends, and every action is legal in the terminal state."""
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED)
    _, info = env.reset()
    mask = info["legal_action_mask"][0]
    for _ in range(40):  # the lowest legal moves, until one is illegal
        if not mask.all():
            break
        _, _, term, _, info = env.step(np.asarray([np.flatnonzero(mask)[0]], np.int32))
        assert not term[0]
        mask = info["legal_action_mask"][0]
    assert not mask.all()
    players = 1 if task_id == "Play2048-v1" else 2
    mover = 0 if players == 1 else int(info["current_player"][0])
    _, rew, term, trunc, info = env.step(np.asarray([np.flatnonzero(~mask)[0]], np.int32))
    assert term[0] and not trunc[0]
    want = np.ones(players, np.float32)
    want[mover] = -1.0
    assert np.array_equal(rew, want)
    assert info["legal_action_mask"][0].all()


def test_spaces_match_sail_sg_envpool() -> None:
    """The spaces and config of sail-sg EnvPool 1.2.5's PGX ids."""
    shapes = {"TicTacToe-v1": ((3, 3, 2), 9), "ConnectFour-v1": ((6, 7, 2), 7),
              "Hex-v1": ((11, 11, 4), 122), "Othello-v1": ((8, 8, 2), 65),
              "KuhnPoker-v1": ((7,), 2), "LeducHoldem-v1": ((34,), 3),
              "Play2048-v1": ((4, 4, 31), 4), "Go9x9-v1": ((9, 9, 17), 82),
              "Go13x13-v1": ((13, 13, 17), 170), "Go19x19-v1": ((19, 19, 17), 362),
              "AnimalShogi-v1": ((4, 3, 194), 132)}
    for task_id, (shape, n) in shapes.items():
        spec = envpool.make_spec(task_id)
        assert spec.config.max_num_players == (1 if task_id == "Play2048-v1" else 2)
        assert spec.gymnasium_observation_space.shape == shape
        space = spec.gymnasium_observation_space
        if task_id == "AnimalShogi-v1":
            assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.float32
        else:
            assert isinstance(space, gymnasium.spaces.MultiBinary)
        assert spec.gymnasium_action_space.n == n
    with pytest.raises(ValueError, match="max_num_players"):
        envpool.make_gymnasium("TicTacToe-v1", max_num_players=3)


@pytest.mark.sweep(by="none", extra=1)
@pytest.mark.parametrize("task_id", IDS)
def test_render_draws_the_state(task_id: str) -> None:
    """render_mode="rgb_array": frames of the asked size, the same for the same state,
    different after a move; each env's own (the frames themselves: test_render_pgx.py)."""
    env = envpool.make_gymnasium(task_id, num_envs=2, seed=SEED, render_mode="rgb_array",
                                 render_width=96, render_height=80)
    _, info = env.reset()
    first = env.render(env_ids=[0, 1])
    assert first.shape == (2, 80, 96, 3) and first.dtype == np.uint8
    assert np.array_equal(env.render(env_ids=[0, 1]), first)
    # (KuhnPoker: a bet, 0; pgx's picture shows the cards and pots, which a pass leaves)
    pick = 0 if task_id == "KuhnPoker-v1" else 1
    actions = np.array([np.flatnonzero(m)[pick] for m in info["legal_action_mask"]], np.int32)
    env.step(actions)
    assert (env.render(env_ids=[0, 1]) != first).any(axis=(1, 2, 3)).all()


# Scripted games that random play seldom reaches: (id, keywords, actions, the last step
# ends the game).
SCRIPTED = [
    ("ConnectFour-v1", {}, [3, 3, 4, 4, 5, 5, 6], True),  # a row at the right edge
    ("ConnectFour-v1", {}, [0] * 7, True),  # a full column's drop (illegal) wraps to row 5
    ("TicTacToe-v1", {}, [2, 0, 4, 1, 6], True),  # the anti-diagonal
    ("Hex-v1", {}, [5, 121, 7], False),  # the swap
    ("Othello-v1", {}, [19, 18, 17, 64], True),  # an illegal pass
    # Go on 5 x 5 (EnvPool's test games): captures and ko, then the ko retake (illegal)
    ("Go9x9-v1", {"board_size": 5}, [2, 17, 6, 13, 8, 11, 12, 7, 12], True),
    # Go on 3 x 3: a positional superko ends the game
    ("Go9x9-v1", {"board_size": 3, "max_terminal_steps": 200},
     [5, 0, 8, 3, 1, 4, 6, 7, 6, 3, 7, 0, 2, 4, 5, 7, 1, 8, 6, 0, 8, 3, 7], True),
]


@pytest.mark.parametrize("case", range(len(SCRIPTED)))
def test_scripted_games(case: int) -> None:
    """Scripted games through rules random play seldom reaches: bitwise with pgx."""
    task_id, kwargs, actions, ends = SCRIPTED[case]
    ref = Ref(task_id, kwargs)
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED, **kwargs)
    chain = [jax.random.PRNGKey(SEED)]
    obs, info = env.reset()
    state = ref.init(ref.next_key(chain, 0))
    zeros = np.zeros(1, bool)
    _check(task_id, ref, state, obs, np.zeros(2, np.float32), zeros, zeros, info, 0, "reset")
    for t, action in enumerate(actions):
        assert not bool(np.asarray(state.terminated)), t
        obs, rew, term, trunc, info = env.step(np.asarray([action], np.int32))
        state = ref.step(state, jnp.int32(action), ref.next_key(chain, 0))
        _check(task_id, ref, state, obs, rew, term, trunc, info, 0, (t, action))
    assert bool(term[0]) == ends
