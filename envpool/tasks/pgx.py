"""PGX task ids: sail-sg EnvPool's ids of the games of ``pgx`` 2.6.0, in C++.

Each id is one game of pgx (``PGX_GAMES``: the id, its native env and pgx's name of the
game): TicTacToe, ConnectFour, Play2048, Othello, Hex, KuhnPoker, LeducHoldem,
AnimalShogi and Go on 9 x 9, 13 x 13 and 19 x 19 boards (``Go(size=..., komi=7.5)``; the
``board_size``, ``komi``, ``history_length``, ``max_terminal_steps`` keywords); more in
``PGX_MORE_GAMES``: Backgammon, SparrowMahjong (three players) and sail-sg EnvPool's
ChineseGo on the three boards (pgx's Go with ``rules="chinese"``: superko masks the move,
Chinese area counting; native/envs/pgx/go.h) and Shogi (``shogi``, native/envs/pgx/shogi.h).
Also GardnerChess (5 x 5 chess) and Chess (``gardner_chess``, ``chess``).

The two-player games are multi-player pools (``max_num_players=2``): every env gives both
players' observations and rewards, one row per player (``info["players"]``), and takes one
action, the current player's (``info["current_player"]``); ``envpool.make_gymnasium``
makes them, gymnasium's own registry does not hold them. pgx's own names
(``tic_tac_toe``, ...) are not registered: they name ``pgx.make``'s games, not ids.

Seeds: env ``i`` of a pool made with ``seed=s`` holds the jax key chain of
``jax.random.PRNGKey(s + i)``; each reset takes ``use, key = jax.random.split(key)`` and
starts ``env.init(use)``, each step takes the next ``use`` for ``env.step(state, action,
use)`` (native/envs/pgx/pgx_env.h).
"""

from __future__ import annotations

import functools

from envpool.tasks.pgx_frames import PgxFrames

#: EnvPool id -> (native env, pgx's name of the game).
PGX_GAMES: dict[str, tuple[str, str]] = {
    "TicTacToe-v1": ("PgxTicTacToe", "tic_tac_toe"),
    "ConnectFour-v1": ("PgxConnectFour", "connect_four"),
    "Play2048-v1": ("PgxPlay2048", "2048"),
    "Othello-v1": ("PgxOthello", "othello"),
    "Hex-v1": ("PgxHex", "hex"),
    "KuhnPoker-v1": ("PgxKuhnPoker", "kuhn_poker"),
    "LeducHoldem-v1": ("PgxLeducHoldem", "leduc_holdem"),
    "Go9x9-v1": ("PgxGo", "go_9x9"),
    "Go13x13-v1": ("PgxGo", "go_13x13"),
    "Go19x19-v1": ("PgxGo", "go_19x19"),
    "AnimalShogi-v1": ("PgxAnimalShogi", "animal_shogi"),
    "GardnerChess-v1": ("PgxGardnerChess", "gardner_chess"),
    "Chess-v1": ("PgxChess", "chess"),
}

#: More games (tests/test_align_pgx_more.py): EnvPool id -> (native env, pgx's name).
PGX_MORE_GAMES: dict[str, tuple[str, str]] = {
    "Backgammon-v1": ("PgxBackgammon", "backgammon"),
    "SparrowMahjong-v1": ("PgxSparrowMahjong", "sparrow_mahjong"),
    # sail-sg EnvPool's Chinese-rules Go (pgx has no such game; the name is pgx's Go of the
    # size, which the rules change: native/envs/pgx/go.h)
    "ChineseGo9x9-v1": ("PgxGo", "go_9x9"),
    "ChineseGo13x13-v1": ("PgxGo", "go_13x13"),
    "ChineseGo19x19-v1": ("PgxGo", "go_19x19"),
    "Shogi-v1": ("PgxShogi", "shogi"),
}

#: The keywords of the ``PGX_MORE_GAMES`` ids that set their game.
PGX_MORE_KWARGS: dict[str, dict[str, object]] = {
    "ChineseGo9x9-v1": {"board_size": 9, "rules": "chinese"},
    "ChineseGo13x13-v1": {"board_size": 13, "rules": "chinese"},
    "ChineseGo19x19-v1": {"board_size": 19, "rules": "chinese"},
}

#: The Go ids' board sizes (keyword ``board_size``; pgx: ``Go(size=..., komi=7.5)``).
GO_SIZES = {"Go9x9-v1": 9, "Go13x13-v1": 13, "Go19x19-v1": 19}


def ids() -> list[str]:
    """Every PGX id of this package."""
    return list(PGX_GAMES) + list(PGX_MORE_GAMES)


def pgx_name(task_id: str) -> str:
    """pgx's name of the game of ``task_id`` (``pgx.make``'s argument)."""
    return {**PGX_GAMES, **PGX_MORE_GAMES}[task_id][1]


def _register() -> None:
    """Registers the ids: their frames are pgx's own SVG (envpool/tasks/pgx_frames.py)."""
    from envpool.core.registry import register

    for task_id, (native_env, _) in {**PGX_GAMES, **PGX_MORE_GAMES}.items():
        kwargs: dict[str, object] = dict(PGX_MORE_KWARGS.get(task_id, {}))
        if task_id in GO_SIZES:
            kwargs["board_size"] = GO_SIZES[task_id]
        frames = functools.partial(PgxFrames, pgx_name=pgx_name(task_id))
        register(task_id, native_env, frames=frames, **kwargs)


_register()
