"""Alignment of the PGX chess games (``GardnerChess-v1``, ``Chess-v1``) with ``pgx`` 2.6.0,
its own envs run in the same test (jax on the CPU).

* Same seed, same games: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)`` (each reset: ``use, key = split(key)``, ``init(use)``; each
  step the next ``use``); the reference keeps the same chain, nothing is copied across.
* Under the same actions (random legal ones, now and then an illegal one, which pgx ends
  with a penalty; and scripted games through checkmate, stalemate, repetition and the
  50-move rule), both players' observations (the feature planes with their history), the
  rewards (float32), terminated, truncated, current_player, legal_action_mask,
  elapsed_step and the info arrays (board, turn, halfmove_count, fullmove_count; Chess's
  castling_rights and en_passant) equal pgx's state bit for bit, across several games,
  autoresets and a reseed.

pgx jit-compiles each game's init, step and observation once per test run (seconds), so
the default suite samples the ids.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool
from envpool.tasks.pgx import PGX_GAMES, pgx_name

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pgx = pytest.importorskip("pgx")

CHESS_IDS = [i for i in ("GardnerChess-v1", "Chess-v1") if i in PGX_GAMES]
SEED = 11
N = 2
# Steps per env of the random rollout and the chance of an illegal action a step.
STEPS = {"GardnerChess-v1": 260, "Chess-v1": 200}
ILLEGAL = 0.01
SIZE = {"GardnerChess-v1": 5, "Chess-v1": 8}

_REFS: dict[str, Any] = {}


def _info(task_id: str, s: Any) -> dict[str, Any]:
    """pgx's state -> our info arrays."""
    n = SIZE[task_id]
    if task_id == "Chess-v1":
        x = s._x
        return {"board": np.rot90(np.asarray(x.board, np.int32).reshape(n, n), k=1),
                "turn": x.color, "halfmove_count": x.halfmove_count,
                "fullmove_count": x.fullmove_count, "en_passant": x.en_passant,
                "castling_rights": x.castling_rights}
    return {"board": np.rot90(np.asarray(s._board, np.int32).reshape(n, n), k=1),
            "turn": s._turn, "halfmove_count": s._halfmove_count,
            "fullmove_count": s._fullmove_count}


class Ref:
    """pgx's game of ``task_id``, jitted once per test run."""

    def __init__(self, task_id: str) -> None:
        if task_id not in _REFS:
            env = pgx.make(pgx_name(task_id))
            players = jnp.arange(2)
            _REFS[task_id] = (
                jax.jit(env.init),
                jax.jit(env.step),
                jax.jit(lambda s: jax.vmap(lambda p: env._observe(s, p))(players)),
                jax.jit(lambda k: tuple(jax.random.split(k))),
            )
        self.init, self.step, self.observe, self.split = _REFS[task_id]

    def next_key(self, chain: list[Any], i: int) -> Any:
        use, chain[i] = self.split(chain[i])
        return use


def _check(task_id: str, ref: Ref, state: Any, obs: np.ndarray, rew: np.ndarray,
           term: np.ndarray, trunc: np.ndarray, info: dict[str, Any], row: int,
           where: Any) -> None:
    """Our env ``row`` (its players' rows) against pgx's state."""
    s = jax.device_get(state)
    want_obs = np.array(jax.device_get(ref.observe(state)))
    rows = slice(2 * row, 2 * row + 2)
    assert obs.dtype == want_obs.dtype == np.float32
    # The last plane, halfmove_count / 100.0: pgx's source divides (as pgx run op by op and
    # sail-sg EnvPool do, and so do we); jitted, XLA rewrites the division by a constant to
    # a multiplication by float32(0.01), one ulp lower at 30 of the 101 counts. Ours must
    # be the division exactly, jitted pgx's within that ulp; every other plane bitwise.
    half = np.asarray(_info(task_id, s)["halfmove_count"])
    exact = np.float32(half) / np.float32(100.0)
    assert (obs[rows][..., -1] == exact).all(), (where, half)
    assert (np.abs(want_obs[..., -1] - exact) <= np.spacing(exact)).all(), (where, half)
    want_obs[..., -1] = exact
    for p in range(2):
        got = obs[rows][p]
        if not np.array_equal(got, want_obs[p]):
            bad = np.argwhere(got != want_obs[p])
            raise AssertionError((where, "player", p, "planes", sorted({int(b[-1]) for b in bad})))
    assert rew.dtype == np.float32
    assert np.array_equal(rew[rows], np.asarray(s.rewards)), (where, rew[rows], s.rewards)
    assert np.array_equal(info["players"]["id"][rows], np.arange(2)), where
    assert int(info["current_player"][row]) == int(s.current_player), where
    assert bool(term[row]) == bool(s.terminated), (where, bool(s.terminated))
    assert bool(trunc[row]) == bool(s.truncated), where
    mask = np.asarray(s.legal_action_mask)
    assert np.array_equal(info["legal_action_mask"][row], mask), (
        where, np.flatnonzero(info["legal_action_mask"][row] != mask))
    assert int(info["elapsed_step"][row]) == int(s._step_count), where
    for key, value in _info(task_id, s).items():
        got = info[key][row]
        assert np.array_equal(got, np.asarray(value)), (where, key, got, value)


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", CHESS_IDS)
def test_lockstep(task_id: str) -> None:
    """Random play (some illegal moves) past several games, autoresets and a reseed:
    bitwise with pgx."""
    ref = Ref(task_id)
    env = envpool.make_gymnasium(task_id, num_envs=N, seed=SEED)
    rng = np.random.default_rng(5)
    chain = [jax.random.PRNGKey(SEED + i) for i in range(N)]
    obs, info = env.reset()
    states = [ref.init(ref.next_key(chain, i)) for i in range(N)]
    zeros = np.zeros(N, bool)
    rew = np.zeros(2 * N, np.float32)
    for i in range(N):
        _check(task_id, ref, states[i], obs, rew, zeros, zeros, info, i, ("reset", i))
    games = 0
    steps = STEPS[task_id]
    for t in range(steps):
        if t == steps // 2:  # a reseed of every env restarts its chain
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
            if rng.random() < ILLEGAL and not mask.all():
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
                states[i] = ref.step(states[i], jnp.int32(actions[i]), ref.next_key(chain, i))
            _check(task_id, ref, states[i], obs, rew, term, trunc, info, i, (t, i, actions[i]))
    assert games >= 2, games


def test_spaces_match_sail_sg_envpool() -> None:
    """The spaces and info arrays of sail-sg EnvPool 1.2.5's chess ids."""
    shapes = {"GardnerChess-v1": ((5, 5, 115), 1225), "Chess-v1": ((8, 8, 119), 4672)}
    for task_id in CHESS_IDS:
        shape, n = shapes[task_id]
        spec = envpool.make_spec(task_id)
        assert spec.config.max_num_players == 2
        space = spec.gymnasium_observation_space
        assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.float32
        assert space.shape == shape
        assert spec.gymnasium_action_space.n == n
        env = envpool.make_gymnasium(task_id, num_envs=1, seed=0)
        obs, info = env.reset()
        assert obs.shape == (2, *shape)
        assert info["board"].shape == (1, SIZE[task_id], SIZE[task_id])
        assert info["fullmove_count"][0] == 1 and info["turn"][0] == 0


@pytest.mark.parametrize("task_id", CHESS_IDS)
def test_illegal_action_ends_with_penalty(task_id: str) -> None:
    """pgx's illegal-move rule: the mover gets -1, the other +1, the game ends, every action
    is legal in the terminal state."""
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED)
    _, info = env.reset()
    mover = int(info["current_player"][0])
    action = int(np.flatnonzero(~info["legal_action_mask"][0])[0])
    _, rew, term, trunc, info = env.step(np.asarray([action], np.int32))
    assert term[0] and not trunc[0]
    want = np.ones(2, np.float32)
    want[mover] = -1.0
    assert np.array_equal(rew, want)
    assert info["legal_action_mask"][0].all()


def _label(task_id: str, move: str) -> int:
    """A move in coordinates ("b1c3", from the mover's side: rank 1 is its own first rank)
    -> pgx's action label."""
    n = SIZE[task_id]
    planes = 49 if n == 5 else 73
    f0, r0, f1, r1 = (ord(move[0]) - 97, int(move[1]) - 1, ord(move[2]) - 97, int(move[3]) - 1)
    dr, dc = r1 - r0, f1 - f0
    if n == 5:
        drs = [-4, -3, -2, -1, 1, 2, 3, 4] + [0] * 8 + [-4, -3, -2, -1, 1, 2, 3, 4] + \
            [4, 3, 2, 1, -1, -2, -3, -4] + [-1, 1, -2, 2, -1, 1, -2, 2]
        dcs = [0] * 8 + [-4, -3, -2, -1, 1, 2, 3, 4] + [-4, -3, -2, -1, 1, 2, 3, 4] + \
            [-4, -3, -2, -1, 1, 2, 3, 4] + [-2, -2, -1, -1, 2, 2, 1, 1]
    else:
        seq, rseq, zero = list(range(1, 8)), list(range(-7, 0)), [0] * 7
        drs = rseq + seq + zero + zero + rseq + seq + seq[::-1] + rseq[::-1] + \
            [-1, 1, -2, 2, -1, 1, -2, 2]
        dcs = zero + zero + rseq + seq + rseq + seq + rseq + seq + [-2, -2, -1, -1, 2, 2, 1, 1]
    pairs = list(zip(drs, dcs, strict=True))
    plane = 9 + pairs.index((dr, dc))
    return (f0 * n + r0) * planes + plane


# Scripted games through endings random play seldom reaches (moves as "b1c3" from the
# mover's side, see _label, or as labels; random legal games of this package's envs, found
# by their ending), each with the ending its last step must show.
SCRIPTED: list[tuple[str, str, list[Any]]] = [
    # knights out and back twice: the start position seen three times
    ("GardnerChess-v1", "repetition", ["b1c3", "b1a3", "c3b1", "a3b1"] * 2),
    ("GardnerChess-v1", "checkmate", [62, 289, 1042, 144, 993, 797]),
    ("GardnerChess-v1", "stalemate", [
      293, 323, 797, 624, 552, 428, 1042, 293, 862, 208, 750, 748, 526, 993, 330, 21, 1114,
      1049, 127, 258]),
    ("GardnerChess-v1", "repetition", [
      797, 552, 323, 770, 525, 1000, 78, 330, 755, 111, 862, 764, 520, 1042, 379, 13, 291, 820,
      21, 151, 828, 71, 1000, 558, 755, 72, 510, 796, 266, 748, 510, 798, 281, 893, 86]),
    ("GardnerChess-v1", "insufficient", [
      797, 307, 78, 289, 379, 568, 13, 862, 289, 21, 148, 526, 552, 1132, 463, 1000, 145, 322,
      519, 29, 64, 322, 289, 1042, 812, 30, 323, 820, 520, 957, 146, 764, 488, 1041, 1114,
      1016, 993, 80, 635]),
    ("GardnerChess-v1", "fifty", [
      289, 1042, 307, 552, 379, 769, 21, 184, 144, 380, 154, 15, 813, 160, 526, 307, 484, 568,
      1114, 519, 146, 624, 484, 860, 755, 275, 526, 207, 267, 860, 755, 276, 993, 112, 509,
      372, 1065, 820, 22, 624, 870, 429, 510, 615, 266, 1016, 509, 32, 1041, 637, 22, 813, 504,
      1106, 608, 804, 357, 560, 463, 804, 949, 552, 207, 616, 110, 323, 64, 625, 207, 805, 120,
      1057, 599, 764, 993, 1057, 503, 748, 1041, 797, 561, 861, 1046, 576, 63, 756, 1000, 1000,
      157, 755, 14, 519, 755, 796, 111, 756, 159, 1000, 110, 764, 61, 1057, 503, 755, 576, 526,
      16, 315, 217, 552, 756, 625, 462, 797, 695, 870, 1016, 1041, 509, 993, 812, 1057, 15,
      756, 160, 993, 503, 1042, 551, 1090, 526, 1042, 306, 1114, 281, 910, 219, 616, 943, 306,
      894, 265, 86, 21, 281, 274, 852, 551, 86, 519, 364]),
]


@pytest.mark.parametrize("case", range(len(SCRIPTED)))
def test_scripted_games(case: int) -> None:
    """Scripted games through the rules random play seldom reaches: bitwise with pgx."""
    task_id, ending, moves = SCRIPTED[case]
    if task_id not in CHESS_IDS:
        pytest.skip(f"{task_id} is not registered")
    ref = Ref(task_id)
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED)
    chain = [jax.random.PRNGKey(SEED)]
    obs, info = env.reset()
    state = ref.init(ref.next_key(chain, 0))
    zeros = np.zeros(1, bool)
    _check(task_id, ref, state, obs, np.zeros(2, np.float32), zeros, zeros, info, 0, "reset")
    for t, move in enumerate(moves):
        assert not bool(np.asarray(state.terminated)), t
        action = _label(task_id, move) if isinstance(move, str) else move
        assert bool(info["legal_action_mask"][0][action]), (t, move)
        obs, rew, term, trunc, info = env.step(np.asarray([action], np.int32))
        state = ref.step(state, jnp.int32(action), ref.next_key(chain, 0))
        _check(task_id, ref, state, obs, rew, term, trunc, info, 0, (t, move))
    assert bool(term[0])
    mated = bool(rew.any())
    assert mated == (ending == "checkmate"), (ending, rew)
    assert (int(info["halfmove_count"][0]) >= 100) == (ending == "fifty")
