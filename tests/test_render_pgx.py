"""PGX's States and frames against pgx 2.6.0 itself, side by side in the same test.

A PGX pool draws its frames as pgx draws them, from the State it rebuilds from the native env
(envpool/tasks/pgx_frames.py). Here a pool and pgx's env are reset from the same seed (the key
chain of native/envs/pgx/pgx_env.h) and stepped with the same random legal actions past the
end of a game (the pool's autoreset: pgx's init with the chain's next key), and

* at every step the State rebuilt from the pool (``PgxFrames.state``) equals pgx's State leaf
  by leaf: the same structure, dtypes, shapes and values (floats as raw bits);
* at a few steps the pool's ``render()`` equals resvg's rasterisation of pgx's own
  ``state.to_svg()`` (called here, on pgx's State), pixel for pixel: at pgx's own size (the
  picture itself), at the id's default size and at both sides given (the picture fitted
  inside, centred on white).

ChineseGo (no pgx game: pgx's Go with a superko rule of sail-sg EnvPool's and Chinese areas)
is stepped against pgx's Go of the size: its State equals pgx's but for the legal-action mask
(less the superko moves) and the final rewards (Chinese areas), which equal the pool's own
(tests/test_align_pgx_more.py checks those against the Chinese rules). pgx 2.6.0 draws Go
only on 9 x 9 and 19 x 19: a 13 x 13 board is drawn by its Go code with the same settings
(here: pgx's State told it is ``go_9x9``, its board size its own).

pgx jit-compiles each game's init and step (seconds a game), so the default suite samples the
ids (``sweep(by="none")``); ``ENVPOOL_SWEEP=all`` runs every id.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from jax_states import assert_same_state

import envpool
from envpool.tasks import pgx as pgx_tasks
from envpool.tasks.pgx import GO_SIZES, pgx_name
from envpool.tasks.pgx_frames import resvg_fonts

jax = pytest.importorskip("jax")
pgx = pytest.importorskip("pgx")
resvg_py = pytest.importorskip("resvg_py")
Image = pytest.importorskip("PIL.Image")

SEED = 5
# The ids whose frames are pgx's (the others, for now, the native env's plain picture).
IDS = pgx_tasks.ids()
# Keywords that end random games sooner (pgx's Go(size=..., max_terminal_steps=...) the
# same); the limit of steps (the game must end before it).
KWARGS: dict[str, dict[str, Any]] = {
    "Go9x9-v1": {"max_terminal_steps": 20}, "Go13x13-v1": {"max_terminal_steps": 12},
    "Go19x19-v1": {"max_terminal_steps": 8}, "ChineseGo9x9-v1": {"max_terminal_steps": 20},
    "ChineseGo13x13-v1": {"max_terminal_steps": 12},
    "ChineseGo19x19-v1": {"max_terminal_steps": 8}}
GO = {**GO_SIZES, "ChineseGo9x9-v1": 9, "ChineseGo13x13-v1": 13, "ChineseGo19x19-v1": 19}
MAX_STEPS = 400
AFTER_END = 2  # steps played after the first game's end
BOTH = (90, 130)  # render_height, render_width
# pgx's SVG size at scale 1 (pgx/_src/visualizer.py: (BOARD + 1) * GRID_SIZE a side; Hex's
# 315.789 rounded up): (height, width).
PGX_SIZE = {"TicTacToe-v1": (240, 240), "ConnectFour-v1": (280, 280), "Hex-v1": (316, 525),
            "Othello-v1": (270, 270), "Play2048-v1": (250, 250), "KuhnPoker-v1": (270, 270),
            "LeducHoldem-v1": (270, 270), "Backgammon-v1": (375, 450),
            "Go9x9-v1": (250, 250), "Go13x13-v1": (350, 350), "Go19x19-v1": (500, 500),
            "ChineseGo9x9-v1": (250, 250), "ChineseGo13x13-v1": (350, 350),
            "ChineseGo19x19-v1": (500, 500), "Chess-v1": (450, 450),
            "GardnerChess-v1": (300, 300), "AnimalShogi-v1": (300, 300), "Shogi-v1": (500, 550),
            "SparrowMahjong-v1": (550, 800)}
# sail-sg EnvPool 1.2.5's default frame of each id, the pools' default: (height, width).
ENVPOOL_SIZE = {"TicTacToe-v1": (192, 192), "ConnectFour-v1": (240, 280),
                "Hex-v1": (352, 352), "Othello-v1": (256, 256), "Play2048-v1": (256, 256),
                "KuhnPoker-v1": (128, 192), "LeducHoldem-v1": (144, 224),
                "Backgammon-v1": (180, 360), "Go9x9-v1": (288, 288), "Go13x13-v1": (416, 416),
                "Go19x19-v1": (608, 608), "ChineseGo9x9-v1": (288, 288),
                "ChineseGo13x13-v1": (416, 416), "ChineseGo19x19-v1": (608, 608),
                "Chess-v1": (256, 256), "GardnerChess-v1": (200, 200),
                "AnimalShogi-v1": (240, 180), "Shogi-v1": (256, 256),
                "SparrowMahjong-v1": (160, 220)}


def reference_env(task_id: str) -> Any:
    """pgx's env of an id (Go: ``Go(size=..., komi=7.5, max_terminal_steps=...)``)."""
    if task_id in GO:
        from pgx.go import Go

        return Go(size=GO[task_id], komi=7.5,
                  max_terminal_steps=KWARGS[task_id]["max_terminal_steps"])
    return pgx.make(pgx_name(task_id))


def svg_of(state: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """pgx's own ``state.to_svg()`` (Go on 13 x 13, or any size but 9 and 19: told it is
    ``go_9x9``, as pgx draws only that and 19 x 19)."""
    if state.env_id.startswith("go_") and state.env_id not in ("go_9x9", "go_19x19"):
        with monkeypatch.context() as patch:
            patch.setattr(type(state), "env_id", property(lambda s: "go_9x9"))
            return str(state.to_svg())
    return str(state.to_svg())


def resvg(svg: str, **size: int) -> np.ndarray:
    """resvg's RGB picture of ``svg`` on white (``width=`` / ``height=``: its fit), text in
    the pool's fonts (matplotlib's DejaVu)."""
    png = resvg_py.svg_to_bytes(svg_string=svg, background="white", **resvg_fonts(), **size)
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"))


# The chess games' last observation plane, halfmove_count / 100.0: pgx's source divides (and
# so does the pool); jitted, XLA multiplies by float32(0.01) instead, one ulp lower at 30 of
# the 101 counts (tests/test_align_pgx_chess.py). That plane: the pool's the division
# exactly, jitted pgx's within its ulp; every other plane bitwise.
HALFMOVE_PLANE = {"Chess-v1": lambda s: s._x.halfmove_count,
                  "GardnerChess-v1": lambda s: s._halfmove_count}


def assert_same_observation_but_halfmove(ours: Any, ref: Any, where: Any,
                                         halfmove: int) -> None:
    """A chess game's observations equal, but for the last plane's jit ulp (see above)."""
    a, b = np.asarray(ours.observation), np.asarray(ref.observation)
    exact = np.float32(halfmove) / np.float32(100.0)
    assert (a[..., -1] == exact).all(), (where, halfmove)
    assert (np.abs(b[..., -1] - exact) <= np.spacing(exact)).all(), (where, halfmove)
    assert np.array_equal(a[..., :-1].view(np.uint32), b[..., :-1].view(np.uint32)), where


def assert_shogi_kanji(frame: np.ndarray, where: Any) -> None:
    """Shogi's pieces are kanji, which DejaVu lacks (set in matplotlib-fontja's IPAexGothic;
    in DejaVu alone each would be the same empty box): at pgx's size (squares of 50 pixels,
    the board's corner at (40, 25)), in the opening position, the mover's pawns (rank 七) are
    drawn alike, and unlike its lance and king (rank 九); the middle rank (五) is empty."""
    ink = (frame < 128).all(axis=2)

    def square(rank: int, file: int) -> np.ndarray:
        top, left = 25 + 50 * rank, 40 + 50 * file
        return ink[top + 3:top + 47, left + 3:left + 47]

    pawn, lance, king = square(6, 0), square(8, 0), square(8, 4)
    assert pawn.any() and all(np.array_equal(square(6, f), pawn) for f in range(9)), where
    assert not np.array_equal(pawn, lance) and not np.array_equal(pawn, king), where
    assert not any(square(4, f).any() for f in range(9)), where


def _pools(task_id: str) -> list[Any]:
    """Pools of the id drawing at pgx's size, at the default size and at both given."""
    kwargs = dict(KWARGS.get(task_id, {}), num_envs=1, seed=SEED, render_mode="rgb_array")
    own_h, own_w = PGX_SIZE[task_id]
    return [envpool.make_gymnasium(task_id, render_height=own_h, render_width=own_w, **kwargs),
            envpool.make_gymnasium(task_id, **kwargs),
            envpool.make_gymnasium(task_id, render_height=BOTH[0], render_width=BOTH[1],
                                   **kwargs)]


def assert_fitted(frame: np.ndarray, svg: str, where: Any) -> None:
    """``frame`` is resvg's fit of ``svg`` to its size, centred, on white around it."""
    height, width = frame.shape[:2]
    fitted = resvg(svg, width=width, height=height)
    h, w = fitted.shape[:2]
    assert (h == height and w <= width) or (w == width and h <= height), (where, h, w)
    top, left = (height - h) // 2, (width - w) // 2
    inner = np.zeros((height, width), bool)
    inner[top:top + h, left:left + w] = True
    assert (frame[~inner] == 255).all(), (where, "around the picture")
    assert np.array_equal(frame[inner].reshape(h, w, 3), fitted), (
        where, int(np.count_nonzero(frame[inner].reshape(h, w, 3) != fitted)))


# The ids whose pgx jit-compiles in a second or two: one of them a day in the default suite;
# the others (5-7 CPU-s of jax compiling an id) run where every id runs.
CHEAP = ("TicTacToe-v1", "ConnectFour-v1", "KuhnPoker-v1", "LeducHoldem-v1")
_SLOW = pytest.mark.sweep_only("5-7 CPU-s an id, most of it jax compiling pgx's step")


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [i if i in CHEAP else pytest.param(i, marks=_SLOW)
                                     for i in IDS])
def test_states_and_frames_equal_pgx(task_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same State leaf by leaf at every step, and the same frames pixel for pixel."""
    pools = _pools(task_id)
    env = reference_env(task_id)
    init, step = jax.jit(env.init), jax.jit(env.step)
    split = jax.jit(lambda k: tuple(jax.random.split(k)))
    chinese = task_id.startswith("Chinese")
    skip = (".legal_action_mask", ".rewards") if chinese else ()
    halfmove = HALFMOVE_PLANE.get(task_id)
    if halfmove is not None:
        skip = (".observation",)
    key = jax.random.PRNGKey(SEED)
    use, key = split(key)
    state = init(use)
    for pool in pools:
        _, info = pool.reset()
    rng = np.random.default_rng(SEED)
    ended_at = None
    drawn = 0
    for t in range(MAX_STEPS):
        ours = pools[0]._frames.state(pools[0].get_state(0))
        assert_same_state(ours, state, (task_id, t), skip)
        if halfmove is not None:
            assert_same_observation_but_halfmove(ours, state, (task_id, t),
                                                 int(halfmove(state)))
        if chinese:  # the pool's own mask and rewards (test_align_pgx_more.py's rules)
            assert np.array_equal(ours.legal_action_mask, info["legal_action_mask"][0])
        if t in (0, 3) or t == ended_at:
            # at pgx's size, then the default size, then both given, in turn
            svg = svg_of(state, monkeypatch)
            frame = pools[drawn % 3].render()[0]
            assert frame.dtype == np.uint8
            if drawn % 3 == 0:
                expected = resvg(svg)
                assert frame.shape == expected.shape == (*PGX_SIZE[task_id], 3)
                if task_id == "Shogi-v1" and t == 0:
                    assert_shogi_kanji(frame, (task_id, t))
                assert np.array_equal(frame, expected), (
                    task_id, t, int(np.count_nonzero(frame != expected)))
            else:
                size = ENVPOOL_SIZE[task_id] if drawn % 3 == 1 else BOTH
                assert frame.shape == (*size, 3), (task_id, t, frame.shape)
                assert_fitted(frame, svg, (task_id, t))
            drawn += 1
        if ended_at is not None and t >= ended_at + AFTER_END:
            break
        mask = info["legal_action_mask"][0]
        action = np.int32(rng.choice(np.flatnonzero(mask)))
        use, key = split(key)
        if bool(state.terminated):  # the pool's autoreset: init with the chain's next key
            state = init(use)
        else:
            state = step(state, action, use)
        for pool in pools:
            _, _, term, trunc, info = pool.step(np.asarray([action]))
        if (term[0] or trunc[0]) and ended_at is None:
            ended_at = t + 1
    assert ended_at is not None and drawn >= 3, (task_id, ended_at, drawn)
    for pool in pools:
        pool.close()


def test_frame_sizes() -> None:
    """The default frame is sail-sg EnvPool 1.2.5's; a side given replaces its own; Go's
    follows ``board_size`` (32 pixels a point, at least 160); sizes out of range and unknown
    cameras are refused at make."""
    assert set(IDS) <= set(ENVPOOL_SIZE) == set(PGX_SIZE)
    for task_id in IDS:
        env = envpool.make_gymnasium(task_id, render_mode="rgb_array")
        assert env.spec.render_frame[:2] == ENVPOOL_SIZE[task_id], task_id
        env.close()
    cases = [({"render_width": 100}, "Hex-v1", (352, 100)),
             ({"render_height": 77}, "Backgammon-v1", (77, 360)),
             ({"render_height": 50, "render_width": 300}, "TicTacToe-v1", (50, 300)),
             ({"board_size": 3}, "Go9x9-v1", (160, 160)),
             ({"board_size": 7}, "Go9x9-v1", (224, 224))]
    for kwargs, task_id, size in [c for c in cases if c[1] in IDS]:
        env = envpool.make_gymnasium(task_id, render_mode="rgb_array", **kwargs)
        assert env.spec.render_frame[:2] == size, (task_id, kwargs)
        env.close()
    bad = [("TicTacToe-v1", {"render_width": -1}), ("TicTacToe-v1", {"render_height": 5000}),
           ("TicTacToe-v1", {"render_camera_id": 1})]
    for task_id, kwargs in bad:
        with pytest.raises(ValueError):
            envpool.make_gymnasium(task_id, render_mode="rgb_array", **kwargs)


def test_render_checks_and_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """render()'s checks hold for pgx's frames (a camera the games lack, a closed pool, a draw
    after it); pools drawing from several threads at once draw each frame as alone; a Go
    board of ``board_size`` is drawn at its size."""
    import threading

    env = envpool.make_gymnasium("TicTacToe-v1", num_envs=3, seed=1, render_mode="rgb_array",
                                 render_width=64, render_height=64)
    _, info = env.reset()
    with pytest.raises(ValueError, match="camera_id"):
        env.render(env_ids=[0], camera_id=2)
    env.step(np.array([np.flatnonzero(m)[i] for i, m in enumerate(info["legal_action_mask"])],
                      np.int32))
    alone = [env.render(env_ids=[i])[0].copy() for i in range(3)]
    assert alone[0].shape == (64, 64, 3) and not np.array_equal(alone[0], alone[1])
    drawn: dict[int, list[np.ndarray]] = {i: [] for i in range(3)}

    def draw(i: int) -> None:
        for _ in range(4):
            drawn[i].append(env.render(env_ids=[i])[0].copy())

    threads = [threading.Thread(target=draw, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for i, frames in drawn.items():
        assert len(frames) == 4 and all(np.array_equal(f, alone[i]) for f in frames), i
    drawer, state = env._frames, env.get_state(0)
    env.close()
    with pytest.raises(RuntimeError):
        env.render(env_ids=[0])
    with pytest.raises(RuntimeError, match="closed"):  # a draw that got its state before
        drawer.draw(state)
    # pgx's text is drawn: a bet changes only the text "chip 0" of the bettor's pot
    kuhn = envpool.make_gymnasium("KuhnPoker-v1", seed=1, render_mode="rgb_array")
    kuhn.reset()
    before = kuhn.render()[0]
    kuhn.step(np.array([0], np.int32))
    assert (kuhn.render()[0] != before).any()
    kuhn.close()
    if "Go9x9-v1" not in IDS:
        return
    go = envpool.make_gymnasium("Go9x9-v1", board_size=5, history_length=2, seed=1,
                                render_mode="rgb_array", render_width=150, render_height=150)
    go.reset()
    frame = go.render()[0]
    state = go._frames.state(go.get_state(0))
    assert state._x.board.shape == (25,) and state._x.board_history.shape == (2, 25)
    # the reset's State is pgx's init (the game's leaves: the rollouts above, every id)
    from pgx.go import Go

    use, _ = jax.random.split(jax.random.PRNGKey(1))
    assert_same_state(state, jax.jit(Go(size=5, history_length=2).init)(use), "Go 5 x 5")
    assert np.array_equal(frame, resvg(svg_of(state, monkeypatch)))
    go.close()

