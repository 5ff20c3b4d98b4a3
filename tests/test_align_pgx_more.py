"""Alignment of more PGX games (``PGX_MORE_GAMES``: Backgammon, ...) with ``pgx`` 2.6.0, its
own envs run in the same test (jax on the CPU).

* Same seed, same games: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)``: each reset takes ``use, key = split(key)`` and starts
  ``init(use)``, each step takes the next ``use`` for ``step(state, action, use)`` (the
  dice of Backgammon come from that step key). The reference keeps the same chain here, so
  no state is copied between the two.
* Under the same actions (random legal ones, and now and then an illegal one, which pgx
  ends with its penalty), every observation of every player must equal pgx's
  ``_observe(state, player)`` bit for bit, and the rewards (float32), terminated,
  truncated, current_player, legal_action_mask, elapsed_step (pgx's ``_step_count``) and
  the game's own info arrays must equal pgx's state, across several games and autoresets
  and a reseed.

pgx jit-compiles each game's init and step once per test run (a few seconds a game), so
the default suite samples the ids (``sweep(by="none")``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.tasks.pgx import PGX_MORE_GAMES, PGX_MORE_KWARGS, pgx_name

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pgx = pytest.importorskip("pgx")

IDS = list(PGX_MORE_GAMES)
# Shogi has its own file (tests/test_align_pgx_shogi.py, on this harness).
IDS = [i for i in IDS if i != "Shogi-v1"]
CHINESE = [i for i in IDS if i.startswith("ChineseGo")]
SEED = 11
N = 2


def _chinese_areas(board: np.ndarray) -> tuple[int, int]:
    """Chinese area scoring of a sign board (rows x cols): each color's stones plus the
    empty regions touching its stones only."""
    size = board.shape[0]
    flat = board.reshape(-1)
    area = [int((flat > 0).sum()), int((flat < 0).sum())]
    seen = np.zeros(flat.size, bool)
    for start in np.flatnonzero(flat == 0):
        if seen[start]:
            continue
        seen[start] = True
        stack, region, touches = [int(start)], 0, set()
        while stack:
            xy = stack.pop()
            region += 1
            x, y = divmod(xy, size)
            for ax, ay in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= ax < size and 0 <= ay < size:
                    a = ax * size + ay
                    if flat[a] != 0:
                        touches.add(int(np.sign(flat[a])))
                    elif not seen[a]:
                        seen[a] = True
                        stack.append(a)
        if len(touches) == 1:
            area[0 if 1 in touches else 1] += region
    return area[0], area[1]

# pgx's state -> our info arrays of the game.
INFO: dict[str, Callable[[Any], dict[str, Any]]] = {
    "Backgammon-v1": lambda s: {"board": s._board, "dice": s._dice,
                                "playable_dice": s._playable_dice,
                                "played_dice_num": s._played_dice_num, "turn": s._turn},
    "SparrowMahjong-v1": lambda s: {
        "dora": s._dora, "draw_ix": s._draw_ix, "hands": s._hands,
        "is_red_in_river": s._is_red_in_river, "last_discard": s._last_discard,
        "n_red_in_hands": s._n_red_in_hands, "rivers": s._rivers, "scores": s._scores,
        "shuffled_players": s._shuffled_players, "turn": s._turn, "wall": s._wall},
}
for _go in CHINESE:
    # pgx's Go state; is_psk stays False and the areas are Chinese ones (see Ref)
    INFO[_go] = lambda s: {"ko": s._x.ko, "consecutive_pass_count": s._x.consecutive_pass_count,
                           "is_psk": np.bool_(False)}
# (steps per env of the random rollout, the share of illegal actions, games at least)
ROLLOUT: dict[str, tuple[int, float, int]] = {
    "Backgammon-v1": (160, 0.03, 2),
    "SparrowMahjong-v1": (60, 0.03, 2),
    "ChineseGo9x9-v1": (120, 0.03, 2),
    "ChineseGo13x13-v1": (70, 0.03, 2),
    "ChineseGo19x19-v1": (40, 0.03, 2),
}
# Random legal play only, to the game's own ends: (steps per env, games at least, the
# pool's seed, the kinds of endings that must occur: Backgammon's single, gammon and
# backgammon wins; SparrowMahjong's tie, ron and tsumo, with scores whose / 26 XLA rounds
# apart from numpy's division).
LEGAL_ROLLOUT: dict[str, tuple[int, int, int, set[str]]] = {
    "Backgammon-v1": (300, 2, 20, {"1", "2", "3"}),
    "SparrowMahjong-v1": (120, 4, 13, {"tie", "ron", "tsumo"}),
    "ChineseGo9x9-v1": (200, 2, SEED, set()),
}


def _ending(task_id: str, state: Any) -> str:
    """The kind of a terminal state's ending."""
    if task_id == "Backgammon-v1":
        return str(int(np.abs(np.asarray(state.rewards)).max()))
    if task_id == "SparrowMahjong-v1":
        scores = np.asarray(state._scores)
        return "tie" if not scores.any() else ("tsumo" if (scores < 0).sum() == 2 else "ron")
    if task_id == "Shogi-v1":  # (tests/test_align_pgx_shogi.py) the mover mated, or the limit
        return "mate" if np.asarray(state.rewards).any() else "limit"
    return "end"
# The rollouts' keywords (pgx's Go(size=..., max_terminal_steps=...) the same): a 5 x 5
# board, where random games end by passes, captures and ko within the test; the larger
# boards end by the step limit.
KWARGS: dict[str, dict[str, Any]] = {"ChineseGo9x9-v1": {"board_size": 5},
                                     "ChineseGo13x13-v1": {"max_terminal_steps": 30},
                                     "ChineseGo19x19-v1": {"max_terminal_steps": 16}}

_REFS: dict[str, Any] = {}


class Ref:
    """pgx's game of ``task_id``, jitted once per test run, with one key chain per env.

    ChineseGo (no pgx game of that name): pgx's Go of the size (komi 7.5), whose legal
    moves lose those that pgx's own step marks is_psk (the position after the move occurred
    before; pgx's step is asked for the moves that could repeat one of the game's earlier
    boards, which the test keeps: the move's cell holds the mover's stone there and every
    other cell is as now or, where the opponent has a stone now, empty), whose is_psk is
    False and whose areas are Chinese (``_chinese_areas``). Its
    rewards are pgx's: a superko move ends pgx's game with the mover at -1 and the other at
    +1, as the penalty of the illegal move does; pgx's areas differ from Chinese ones only
    on the empty board (both all, against none), where black loses either way (komi > 0).
    """

    def __init__(self, task_id: str, kwargs: dict[str, Any] | None = None) -> None:
        kwargs = dict(kwargs or {})
        name = (task_id, tuple(sorted(kwargs.items())))
        self.chinese = task_id in CHINESE
        if name not in _REFS:
            psk = None
            if self.chinese:
                from pgx.go import Go

                size = kwargs.pop("board_size", PGX_MORE_KWARGS[task_id]["board_size"])
                steps = kwargs.pop("max_terminal_steps", None) or None
                env = Go(size=size, komi=7.5, max_terminal_steps=steps, **kwargs)
                key0 = jax.random.PRNGKey(0)
                psk = jax.jit(lambda s, a: env.step(s, a, key0)._x.is_psk)
            else:
                env = pgx.make(pgx_name(task_id))
            players = jnp.arange(env.num_players)
            _REFS[name] = (
                env,
                jax.jit(env.init),
                jax.jit(env.step),
                jax.jit(lambda s: jax.vmap(lambda p: env._observe(s, p))(players)),
                jax.jit(lambda k: tuple(jax.random.split(k))),
                psk,
            )
        self.env, self.init, self.step, self.observe, self.split, self.psk = _REFS[name]
        self.num_players = self.env.num_players
        self.boards: dict[int, list[np.ndarray]] = {}  # ChineseGo: each env's game so far

    def new_game(self, row: int, key: Any) -> Any:
        """pgx's init(key) for env ``row``."""
        self.boards[row] = []
        return self.init(key)

    def play(self, row: int, state: Any, action: int, key: Any) -> Any:
        """pgx's step(state, action, key) for env ``row``."""
        state = self.step(state, jnp.int32(action), key)
        if self.chinese:
            self.boards[row].append(np.sign(np.asarray(state._x.board)))
        return state

    def mask(self, state: Any, row: int) -> np.ndarray:
        """The legal-action mask of ``state`` (ChineseGo: less the superko moves)."""
        mask = np.array(state.legal_action_mask)
        if self.chinese and not bool(state.terminated) and self.boards[row]:
            now = np.sign(np.asarray(state._x.board))
            mine = 1 if int(state._x.step_count) % 2 == 0 else -1
            for before in self.boards[row]:
                bad = np.flatnonzero((before != now) & ~((now == -mine) & (before == 0)))
                if bad.size == 1 and before[bad[0]] == mine and mask[bad[0]]:
                    mask[bad[0]] = not bool(self.psk(state, jnp.int32(bad[0])))
        return mask

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
    assert np.array_equal(info["legal_action_mask"][row], ref.mask(state, row)), where
    assert int(info["elapsed_step"][row]) == int(s._step_count), where
    for key, value in INFO[task_id](s).items():
        assert np.array_equal(info[key][row], np.asarray(value)), (where, key)
    if ref.chinese:
        size = ref.env._game.size
        board = np.sign(np.asarray(s._x.board)).reshape(size, size)
        assert np.array_equal(info["board"][row], board), where
        black, white = _chinese_areas(board)
        assert (int(info["black_area"][row]), int(info["white_area"][row])) == (black, white)


def _rollout(task_id: str, steps: int, illegal_share: float, reseed: bool,
             seed: int = SEED) -> tuple[int, int, set[str]]:
    """Random play in lockstep with pgx; returns (games ended, of them by an illegal move,
    the kinds of the endings)."""
    kwargs = KWARGS.get(task_id, {})
    ref = Ref(task_id, kwargs)
    env = envpool.make_gymnasium(task_id, num_envs=N, seed=seed, **kwargs)
    rng = np.random.default_rng(5)
    chain = [jax.random.PRNGKey(seed + i) for i in range(N)]
    obs, info = env.reset()
    states = [ref.new_game(i, ref.next_key(chain, i)) for i in range(N)]
    zeros = np.zeros(N, bool)
    rew = np.zeros(N * ref.num_players, np.float32)
    for i in range(N):
        _check(task_id, ref, states[i], obs, rew, zeros, zeros, info, i, ("reset", i))
    games = 0
    illegal = 0
    endings: set[str] = set()
    for t in range(steps):
        if reseed and t == steps // 2:  # a reseed of every env restarts its chain
            obs, info = env.reset(seed=seed + 100)
            chain = [jax.random.PRNGKey(seed + 100 + i) for i in range(N)]
            states = [ref.new_game(i, ref.next_key(chain, i)) for i in range(N)]
            for i in range(N):
                _check(task_id, ref, states[i], obs, rew * 0, zeros, zeros, info, i,
                       ("reseed", i))
            continue
        actions = np.zeros(N, np.int32)
        for i in range(N):
            mask = info["legal_action_mask"][i]
            if rng.random() < illegal_share and not mask.all():
                actions[i] = rng.choice(np.flatnonzero(~mask))
            else:
                actions[i] = rng.choice(np.flatnonzero(mask))
        done_before = [bool(np.asarray(s.terminated)) for s in states]
        obs, rew, term, trunc, info = env.step(actions)
        for i in range(N):
            if done_before[i]:  # our autoreset: the chain's next init
                states[i] = ref.new_game(i, ref.next_key(chain, i))
            else:
                bad = not bool(ref.mask(states[i], i)[actions[i]])
                states[i] = ref.play(i, states[i], actions[i], ref.next_key(chain, i))
                if bool(np.asarray(states[i].terminated)):
                    games += 1
                    illegal += bad
                    if not bad:
                        endings.add(_ending(task_id, states[i]))
            _check(task_id, ref, states[i], obs, rew, term, trunc, info, i, (t, i))
    return games, illegal, endings


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_lockstep(task_id: str) -> None:
    """Random play (some illegal moves) past several games, autoresets and a reseed:
    bitwise with pgx."""
    steps, share, want = ROLLOUT[task_id]
    games, _, _ = _rollout(task_id, steps, share, reseed=True)
    assert games >= want, games


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", list(LEGAL_ROLLOUT))
def test_legal_games_to_the_end(task_id: str) -> None:
    """Random legal play only, through several whole games to their own ends (wins,
    draws): bitwise with pgx."""
    steps, want, seed, kinds = LEGAL_ROLLOUT[task_id]
    games, illegal, endings = _rollout(task_id, steps, 0.0, reseed=False, seed=seed)
    assert illegal == 0 and games >= want, games
    assert kinds <= endings, endings


@pytest.mark.parametrize("task_id", IDS)
def test_illegal_action_penalty(task_id: str) -> None:
    """pgx's illegal-move rule: the mover gets the game's penalty (Backgammon -3), the
    others minus it times (players - 1), the game ends, every action legal after."""
    penalty = {"Backgammon-v1": -3.0}.get(task_id, -1.0)
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED)
    _, info = env.reset()
    mask = info["legal_action_mask"][0]
    for _ in range(10):  # (Go: the lowest legal moves, until one is illegal)
        if not mask.all():
            break
        _, _, term, _, info = env.step(np.asarray([np.flatnonzero(mask)[0]], np.int32))
        assert not term[0]
        mask = info["legal_action_mask"][0]
    players = int(env.spec.config.max_num_players)
    mover = int(info["current_player"][0])
    _, rew, term, trunc, info = env.step(np.asarray([np.flatnonzero(~mask)[0]], np.int32))
    assert term[0] and not trunc[0]
    want = np.full(players, -penalty * (players - 1), np.float32)
    want[mover] = penalty
    assert np.array_equal(rew, want)
    assert info["legal_action_mask"][0].all()


def test_spaces_match_sail_sg_envpool() -> None:
    """The spaces and config of sail-sg EnvPool 1.2.5's ids."""
    import gymnasium

    shapes = {"Backgammon-v1": ((34,), 156, np.int32, 2),
              "SparrowMahjong-v1": ((11, 15), 11, np.int8, 3),
              "ChineseGo9x9-v1": ((9, 9, 17), 82, np.int8, 2),
              "ChineseGo13x13-v1": ((13, 13, 17), 170, np.int8, 2),
              "ChineseGo19x19-v1": ((19, 19, 17), 362, np.int8, 2)}
    for task_id, (shape, n, dtype, players) in shapes.items():
        spec = envpool.make_spec(task_id)
        assert spec.config.max_num_players == players
        space = spec.gymnasium_observation_space
        assert space.shape == shape and space.dtype == dtype
        if dtype == np.int32:
            assert isinstance(space, gymnasium.spaces.Box)
            assert space.low.min() == np.iinfo(np.int32).min
        else:
            assert isinstance(space, gymnasium.spaces.MultiBinary)
        assert spec.gymnasium_action_space.n == n
        if task_id in CHINESE:
            assert spec.config.rules == "chinese"
            assert spec.config.board_size == PGX_MORE_KWARGS[task_id]["board_size"]
    with pytest.raises(ValueError, match="rules"):
        envpool.make_gymnasium("ChineseGo9x9-v1", rules="japanese")


# Go on 3 x 3 (EnvPool's superko game): the last move repeats a position, which Chinese
# rules mask (pgx's own rules end the game on it instead).
SUPERKO = [5, 0, 8, 3, 1, 4, 6, 7, 6, 3, 7, 0, 2, 4, 5, 7, 1, 8, 6, 0, 8, 3, 7]


@pytest.mark.parametrize("passes", [False, True])
def test_chinese_go_scripted(passes: bool) -> None:
    """Scripted Chinese Go on 3 x 3: the superko move is masked and, played, ends the game
    with the illegal-move penalty (is_psk stays False); two passes on the empty board give
    both colors no area. Bitwise with the composed pgx reference."""
    task_id = "ChineseGo9x9-v1"
    kwargs = {"board_size": 3, "max_terminal_steps": 200}
    actions = [9, 9] if passes else SUPERKO
    ref = Ref(task_id, kwargs)
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=SEED, **kwargs)
    chain = [jax.random.PRNGKey(SEED)]
    obs, info = env.reset()
    state = ref.new_game(0, ref.next_key(chain, 0))
    zeros = np.zeros(1, bool)
    _check(task_id, ref, state, obs, np.zeros(2, np.float32), zeros, zeros, info, 0, "reset")
    for t, action in enumerate(actions):
        legal = bool(info["legal_action_mask"][0, action])
        assert legal == (passes or t < len(actions) - 1), t
        obs, rew, term, trunc, info = env.step(np.asarray([action], np.int32))
        state = ref.play(0, state, action, ref.next_key(chain, 0))
        _check(task_id, ref, state, obs, rew, term, trunc, info, 0, (t, action))
    assert term[0]
    if passes:
        assert (info["black_area"][0], info["white_area"][0]) == (0, 0)


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_render_draws_the_state(task_id: str) -> None:
    """render_mode="rgb_array": frames of the asked size, the same for the same state,
    different after a move."""
    env = envpool.make_gymnasium(task_id, num_envs=2, seed=SEED, render_mode="rgb_array",
                                 render_width=96, render_height=80)
    _, info = env.reset()
    first = env.render(env_ids=[0, 1])
    assert first.shape == (2, 80, 96, 3) and first.dtype == np.uint8
    assert np.array_equal(env.render(env_ids=[0, 1]), first)
    actions = np.array([np.flatnonzero(m)[0] for m in info["legal_action_mask"]], np.int32)
    env.step(actions)
    assert (env.render(env_ids=[0, 1]) != first).any(axis=(1, 2, 3)).all()
