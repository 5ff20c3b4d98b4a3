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
the default suite samples the ids and the scripted games (``ENVPOOL_SWEEP=all``: all).
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
ILLEGAL = {"GardnerChess-v1": 0.01, "Chess-v1": 0.01}
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
            if rng.random() < ILLEGAL[task_id] and not mask.all():
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


@pytest.mark.parametrize("task_id", CHESS_IDS)
def test_render_draws_the_board(task_id: str) -> None:
    """render_mode="rgb_array": frames of the asked size, the same for the same state,
    different after a move."""
    env = envpool.make_gymnasium(task_id, num_envs=2, seed=SEED, render_mode="rgb_array",
                                 render_width=96, render_height=80)
    _, info = env.reset()
    first = env.render(env_ids=[0, 1])
    assert first.shape == (2, 80, 96, 3) and first.dtype == np.uint8
    assert np.array_equal(env.render(env_ids=[0, 1]), first)
    env.step(np.array([np.flatnonzero(m)[1] for m in info["legal_action_mask"]], np.int32))
    assert (env.render(env_ids=[0, 1]) != first).any(axis=(1, 2, 3)).all()


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
    # (quiet moves, a pawn move when the halfmove count reaches 85): the 256-step limit
    ("GardnerChess-v1", "limit", [
      289, 293, 146, 632, 484, 21, 797, 265, 520, 486, 22, 924, 1106, 21, 813, 265, 1106, 488,
      146, 632, 488, 21, 813, 265, 1106, 484, 510, 21, 266, 146, 813, 486, 510, 923, 1105, 386,
      519, 48, 812, 389, 265, 924, 519, 484, 813, 265, 754, 145, 1105, 289, 520, 145, 267, 289,
      1016, 145, 631, 289, 293, 21, 21, 265, 632, 21, 821, 265, 1105, 145, 1016, 289, 756, 145,
      1000, 293, 821, 631, 519, 293, 266, 632, 820, 486, 509, 923, 625, 391, 820, 729, 625,
      391, 820, 21, 21, 265, 748, 21, 796, 265, 1016, 729, 821, 389, 755, 21, 1000, 923, 520,
      265, 625, 391, 756, 21, 1000, 729, 266, 386, 821, 48, 1106, 386, 510, 48, 265, 386, 22,
      48, 813, 389, 509, 265, 755, 923, 510, 391, 1016, 729, 820, 389, 266, 21, 511, 265, 756,
      21, 22, 923, 511, 389, 754, 307, 624, 265, 429, 525, 267, 755, 754, 135, 265, 330, 22,
      1000, 1000, 756, 509, 510, 755, 924, 511, 258, 756, 22, 1105, 486, 21, 1000, 265, 509,
      21, 331, 265, 924, 1000, 21, 756, 265, 511, 486, 624, 756, 21, 510, 421, 258, 755, 306,
      714, 1000, 1000, 756, 265, 266, 429, 924, 519, 1000, 624, 488, 756, 632, 812, 486, 510,
      510, 267, 266, 21, 756, 755, 21, 429, 265, 265, 21, 510, 526, 267, 322, 624, 1000, 429,
      266, 755, 29, 1000, 1042, 21, 306, 623, 756, 233, 1000, 265, 756, 429, 265, 624, 929,
      429, 21, 624, 511, 430, 755, 818, 258]),
    # the fool's mate
    ("Chess-v1", "checkmate", ["f2f3", "e2e4", "g2g4", "d1h5"]),
    # en passant (e5xd6), a pawn capture, both kings castle on the king side
    ("Chess-v1", "ongoing", ["e2e4", "a2a3", "e4e5", "d2d4", "e5d6", "e2d3", "g1f3", "g1f3",
                             "f1e2", "f1e2", "e1g1", "e1g1"]),
    # both castle on the queen side
    ("Chess-v1", "ongoing", ["d2d4", "d2d4", "b1c3", "b1c3", "c1f4", "c1f4", "d1d2", "d1d2",
                             "e1c1", "e1c1"]),
    # random legal games of this package's Chess-v1, found by their ending
    ("Chess-v1", "stalemate", [
      1258, 2426, 3594, 3010, 2965, 2973, 4276, 2380, 1403, 1782, 2965, 3593, 3780, 3009, 3256,
      4218, 4276, 2366, 2964, 3124, 1807, 2939, 674, 4106, 819, 652, 278, 3271, 1841, 3607,
      1224, 4336, 2365, 2571, 933, 3751, 1257, 3572, 2425, 2569, 1796, 4290, 3621, 3229, 2452,
      3385, 1782, 3132, 2366, 1664, 2949, 30, 1362, 4176, 4290, 2144, 409, 395, 2393, 961,
      3271, 2425, 4290, 613, 90, 2041, 1882, 89, 1330, 675, 1416, 2510, 861, 3707, 1357, 3281,
      673, 4373, 760, 1344, 16, 3282, 1504, 3155, 106, 4145, 2436, 4520, 675, 30, 1330, 3635,
      2174, 3794, 894, 1841, 235, 4229, 1125, 4104, 3570, 4218, 656, 3693, 1709, 3009, 2278,
      1914, 2204, 3081, 2060, 3051, 2526, 3791, 2131, 3357, 2478, 3520, 1988, 3607, 2132, 2644,
      1385, 4177, 3572, 4249, 2060, 4204, 1417, 3548, 4116, 4190, 3155, 3592, 3131, 3534, 2950,
      2717, 1606, 4104, 1707, 2774, 3532, 4190, 2367, 3607, 2014]),
    ("Chess-v1", "insufficient", [
      673, 3594, 3593, 674, 3009, 4177, 1258, 3739, 1842, 2425, 2426, 3009, 1216, 2977, 1769,
      652, 90, 1257, 3110, 2463, 4509, 427, 235, 1809, 4177, 1330, 656, 1299, 3739, 3082, 4104,
      1431, 1403, 3576, 3666, 2964, 1381, 216, 1914, 3633, 2014, 4116, 652, 89, 1329, 3196,
      4190, 1455, 3593, 1020, 1297, 1455, 3675, 1842, 250, 847, 3812, 2352, 215, 1809, 2975,
      1270, 1309, 2614, 871, 17, 748, 176, 2365, 2936, 16, 3631, 103, 2424, 691, 701, 1444,
      2644, 3601, 1595, 90, 4140, 933, 4302, 3572, 1329, 423, 3021, 934, 1284, 233, 641, 1445,
      90, 4291, 1065, 1955, 265, 3131, 1857, 1443, 426, 1782, 2758, 2393, 750, 427, 1225, 104,
      1106, 2965, 2463, 1869, 3604, 1261, 427, 1636, 714, 4277, 761, 2540, 190, 3885, 2498,
      2205, 2976, 3942, 2393, 3634, 1854, 3050, 863, 4028, 2380, 3813, 1284, 3109, 614, 3739,
      1197, 3957, 628, 3898, 3050, 2511, 1256, 3812, 2571, 1914, 1942, 2015, 1987, 2467, 1212,
      2964, 1840, 3296, 1796, 2947, 2528, 1198, 2452, 2671, 4494, 1783, 2538, 2951, 1521, 3621,
      3561, 4277, 1768, 2028, 3037, 4106, 1868, 4334, 3693, 1476, 1198, 2574, 3036]),
    ("Chess-v1", "repetition", [
      3593, 2425, 656, 3572, 3666, 3593, 89, 2498, 162, 4117, 3576, 4178, 4300, 90, 1379, 2973,
      1258, 674, 714, 1258, 2425, 3520, 2964, 819, 3209, 3138, 3620, 1797, 143, 3862, 3010,
      2352, 2380, 2767, 30, 3082, 1386, 2467, 2976, 2571, 1796, 17, 2111, 160, 4117, 3169,
      4446, 1676, 1386, 3781, 2110, 892, 3354, 4248, 2452, 17, 1957, 656, 4178, 3010, 2976,
      3694, 1019, 2936, 1796, 176, 2425, 2912, 600, 1677, 2497, 746, 3532, 4104, 2467, 816,
      2255, 3037, 672, 2115, 3050, 1225, 2936, 715, 3024, 3592, 601, 601, 2367, 3693, 3533,
      1225, 747, 3533, 1940, 4190, 2949, 3594, 4204, 1384, 3533, 3740, 2937, 2549, 641, 3009,
      890, 715, 1841, 3881, 760, 3597, 3111, 3968, 1212, 1634, 2365, 745, 4408, 3124, 2498,
      2937, 3271, 2624, 4277, 678, 1868, 454, 3635, 3635, 2570, 1125, 1783, 569, 4142, 3082,
      2099, 1818, 2498, 1036, 1328, 3169, 1197, 3753, 542, 3717, 1694, 920, 1622, 4104, 614,
      1550, 1692, 2986, 1505, 4204, 2817, 4320, 2149, 3533, 3899, 2936, 4478, 4114, 2949, 1893,
      2613, 1721, 1576, 1458, 893, 1780, 1065, 410, 2368, 1713, 3109, 1897, 1403, 2627, 1914,
      604, 425, 980, 3155, 4614, 2466, 4550, 1987, 1052, 1941, 3357, 1299, 4082, 1809, 3022,
      1285, 3356, 1927, 2439, 1344, 3051, 1913, 3548, 4323, 3788, 4396, 2554, 1476, 3284, 1549,
      4009, 1869, 3279, 2540, 4176, 2088, 4117, 3009, 3548, 3095, 4177, 2540, 4249, 3228, 4177,
      1606, 4250, 1713, 4350, 4609, 3707, 4179, 3155, 2717, 3241, 4397, 2686, 3301, 3169, 2780,
      3752, 4537, 3197, 2914, 3679, 3008, 3096, 2964, 3666, 3361, 3766, 3489, 3110, 3606, 3739,
      3023, 3811, 4000, 3738, 4179, 3694, 3635, 4364, 4510, 3853, 2184, 3301, 3986, 3373, 4642,
      3301, 3985, 3373, 3329]),
    ("Chess-v1", "fifty", [
      3576, 674, 3593, 652, 656, 1842, 1841, 1214, 2426, 819, 3009, 892, 2612, 3183, 1212, 993,
      674, 3594, 2352, 217, 1382, 3838, 30, 1606, 944, 3572, 613, 656, 1869, 3136, 1914, 1781,
      2541, 3739, 3110, 2527, 2439, 4372, 2974, 3838, 3009, 3134, 936, 1709, 3561, 3009, 3123,
      2293, 2570, 2526, 3666, 4117, 4302, 1384, 508, 2627, 2526, 31, 2060, 1257, 89, 2879,
      1987, 3351, 3037, 4178, 3155, 2426, 2467, 2260, 3693, 1197, 2133, 2393, 3050, 2965, 819,
      1371, 2539, 1840, 2015, 819, 2671, 613, 31, 4291, 1197, 1809, 2026, 892, 500, 3496, 4177,
      3767, 617, 3522, 3228, 4437, 2946, 16, 4250, 1285, 3036, 103, 614, 3737, 3767, 2259,
      2391, 675, 1184, 3357, 1272, 890, 3329, 4082, 3972, 965, 4569, 1955, 3885, 4612, 2425,
      760, 2512, 1416, 3958, 3911, 3086, 4395, 3458, 2596, 4058, 1347, 1693, 4336, 1566, 860,
      3895, 3740, 3387, 1028, 2060, 336, 1548, 978, 1492, 409, 3225, 1065, 3024, 1164, 2832,
      2255, 3314, 629, 2745, 1943, 4179, 3898, 3401, 3302, 2745, 3461, 4406, 4029, 2077, 3267,
      3415, 381, 2890, 3884, 2248, 454, 4398, 3823, 2716, 526, 4608, 2058, 2685, 1737, 4112,
      2247, 2132, 1018, 2060, 2115, 2161, 1739, 618, 2549, 2803, 468, 3531, 1037, 2220, 3254,
      2817, 964, 1785, 933, 4117, 1818, 2174, 423, 1622, 933, 1737, 395, 3523, 992, 3823, 726,
      2056, 1820, 2247, 322, 1785, 920, 4108, 1576, 4464, 1385, 1737, 933, 2205, 381, 2160,
      468, 4110, 1038, 4610, 1822, 1475, 3065, 4257, 3788, 180, 2550, 3086, 2113, 3459, 1125,
      1445, 3209, 2275, 1722, 1990, 1079, 1928, 4448, 2497, 4007, 2295, 2766, 4025, 1526, 2424,
      435, 2393, 569, 3592, 1037, 3529, 978, 617, 409, 2940, 1037, 3313, 1673, 2145, 1006, 978,
      468, 395, 1037, 1840, 992, 966, 948, 1781, 308, 1130, 395, 4612, 1677, 4395, 2113, 4323,
      964, 4393, 3204, 1197, 891, 4188, 860, 2435]),
    ("Chess-v1", "limit", [
      1258, 3576, 3572, 1841, 3134, 656, 2426, 3594, 2976, 1381, 652, 1214, 2599, 654, 215,
      1781, 1956, 1198, 2366, 2425, 2455, 1796, 4177, 4300, 2700, 2439, 2977, 1895, 673, 3211,
      2425, 4117, 4423, 2352, 1309, 2424, 1224, 3940, 4250, 30, 3780, 3138, 2511, 4177, 31,
      614, 3257, 674, 4104, 3861, 1927, 2352, 204, 1198, 4176, 2625, 4566, 3520, 1783, 1258,
      4105, 4372, 89, 3037, 2950, 3706, 875, 2424, 1199, 1768, 3534, 2657, 1604, 3136, 1942,
      1854, 4262, 3861, 3086, 2366, 4116, 2949, 4364, 2627, 2596, 2380, 746, 3036, 2038, 3605,
      3812, 2441, 2364, 3353, 1199, 1914, 1306, 1987, 1343, 2352, 2354, 2453, 847, 1258, 3913,
      4374, 773, 1401, 2947, 819, 701, 1257, 1184, 1330, 1358, 1418, 3010, 892, 72, 3109, 1299,
      2587, 1783, 2452, 3594, 1782, 2013, 4334, 702, 3649, 4526, 2352, 2977, 89, 2015, 4375,
      2672, 2466, 798, 3936, 1841, 1913, 2440, 2498, 4614, 1869, 363, 3206, 3634, 2478, 798,
      3572, 4555, 3135, 3095, 2512, 3155, 4226, 364, 2992, 3957, 3109, 2496, 4250, 2380, 4323,
      3898, 4396, 1403, 162, 3009, 2424, 3081, 235, 1476, 2352, 3314, 2439, 3049, 2612, 1089,
      3023, 2585, 3607, 2731, 4190, 3152, 4469, 628, 4529, 1299, 3607, 1549, 4176, 3739, 4145,
      1609, 4639, 363, 3592, 2951, 2014, 4110, 3520, 1721, 1357, 3311, 701, 4624, 1373, 982,
      2391, 3313, 336, 131, 862, 1708, 3607, 2147, 1882, 409, 1358, 1124, 2029, 1798, 2540,
      614, 3038, 1082, 4348, 544, 4190, 2878, 3606, 3767, 3022, 4045, 965, 1212, 1022, 4623,
      1108, 4437, 893, 1868, 2438, 1110, 1841, 1225, 1942, 687, 2598, 2614, 1942, 3228, 2598,
      1036, 1913, 1299, 1869, 3926, 2511, 1781, 1913, 3401, 1869, 908, 2525, 2643, 1854, 1212,
      1299, 2573, 1781, 3301, 1197, 2790, 641, 3629, 117, 1840, 774, 1768, 1430, 2874, 774,
      1110, 1417, 1037, 2001, 960, 2599, 571, 3227, 613, 3169, 1883, 3738, 2352, 3666, 2104,
      3780, 2467, 3242, 3631, 3840, 1593, 4482, 3122, 3899, 2105, 4468, 32, 4409, 4143, 3825,
      2615, 3227, 2977, 3182, 2439, 2525, 4139, 1840, 575, 1809, 3361, 1299, 3036, 1782, 3489,
      2393, 2352, 1868, 3985, 1197, 4139, 614, 1782, 1212, 2368, 1883, 4108, 2380, 3327, 3036,
      571, 2366, 2017, 2964, 2452, 3620, 2102, 2964, 1781, 3592, 2615, 3533, 4481, 2964, 3315,
      3635, 3898, 4104, 3297, 4190, 4140, 3635, 1212, 4117, 1083, 3533, 3122, 2964, 2089, 3607,
      3399, 4190, 1882, 3635, 3014, 4145, 1358, 3621, 3457, 4263, 1106, 3707, 1431, 3154, 760,
      3096, 1333, 3707, 1616, 3155, 2028, 3255, 1201, 2613, 1489, 3109, 162, 2452, 2089, 1796,
      3531, 2453, 235, 3109, 1779, 2453, 31, 3124, 891, 3621, 1199, 4249, 818, 4190, 2354,
      3635, 2571, 4104, 2657, 4177, 773, 4249, 89, 4176, 2077, 4145, 4393, 3634, 4176, 3109,
      4109, 2452, 3401, 1782, 2741, 2365, 176, 1782, 4537, 2352, 4185, 2466, 691, 1942, 3598,
      2599, 4042, 3255, 745, 2599, 2296, 3255, 4611, 2613, 687, 3109, 4324, 2438, 1271, 1840,
      118, 1781, 4480, 1197, 1883, 614, 2714, 1212, 2380, 1840, 2514, 1781, 4252, 1197, 1431,
      628, 3050, 1299, 2086, 1781, 4468, 1184, 788, 1256, 2512, 1225, 3096, 715, 308, 1197,
      4405, 613, 1476, 16, 1914, 88, 3666, 30, 1566, 641, 3780, 131, 1299, 641, 1797, 131]),
]


@pytest.mark.sweep(by="none", extra=0)
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
    assert bool(term[0]) == (ending != "ongoing")
    mated = bool(rew.any())
    assert mated == (ending == "checkmate"), (ending, rew)
    assert (int(info["halfmove_count"][0]) >= 100) == (ending == "fifty")
    if ending == "limit":
        assert int(info["elapsed_step"][0]) == (512 if task_id == "Chess-v1" else 256)
