"""pgx's own frames: with ``render_mode="rgb_array"`` (or ``"human"``) a PGX pool rebuilds
each env's pgx ``State`` from the native env and draws it as pgx draws it, its SVG
(``state.to_svg()``, the light color theme at scale 1) rasterised by resvg on white.

The native env gives its State as the leaves of pgx's pytree (``get_state``: each leaf's
rank, shape and values, in ``jax.tree_util.tree_leaves`` order; native/envs/pgx/pgx_env.h).
The State's structure, shapes and dtypes come from pgx's own env (``jax.eval_shape`` of its
init; Go's from ``pgx.go.Go`` of the board size, history length and step limit the leaves
show), so the State drawn is of pgx's own classes.

Frame size: ``render_width`` x ``render_height``, each side not given the id's default,
sail-sg EnvPool 1.2.5's (TicTacToe 192 x 192, Go 32 pixels a point, ...: native/envs/pgx/
*.h), so that code written for EnvPool gets frames of the shape it expects. pgx's picture
is scaled to fit inside the frame undistorted (resvg's fit to a width and height), centred
on white; at pgx's own SVG size (TicTacToe 240 x 240, Go (size + 1) * 25 a side, ...;
rounded up as resvg rounds it: Hex 525 x 316) the frame is pgx's picture itself, unscaled.
pgx 2.6.0 draws Go only on 9 x 9 and 19 x 19 boards (its ``go_9x9`` and ``go_19x19``):
other boards (13 x 13, a ``board_size``) are drawn by the same code of pgx's with the same
settings.

Text in the pictures (2048's numbers, the cards and chips, Backgammon's dice) is set in the
DejaVu fonts that matplotlib ships (its ``mpl-data/fonts/ttf``): serif DejaVu Serif,
sans-serif DejaVu Sans, monospace DejaVu Sans Mono, and the families pgx names that are none
of these (``Courier``, ``sans serif``) as resvg falls back among those fonts. The machine's
own fonts are not read (resvg's defaults, Times New Roman and Arial, are seldom installed
on Linux, and pgx's text would be left out), so frames are the same on every machine with
the same matplotlib. Shogi's pieces, hands and rank numerals are kanji, which DejaVu lacks:
they are set in IPAexGothic, the font ``matplotlib-fontja`` (1.1.0) ships (read from the
installed package, never imported: importing it sets matplotlib's default font), which a
Shogi pool's ``render_mode`` needs.

Frames are drawn in the calling thread, not by the pool's workers (cost per frame:
benchmarks/results/pgx/frame_times_2026-11-30.md); pgx's drawing and resvg keep no state
between frames, so threads may draw at once.

Rendering needs ``pgx`` (2.6.0, with jax), ``resvg-py`` (0.5.0) and ``matplotlib`` (its
fonts, and Pillow, which decodes resvg's PNG) installed; stepping needs none of them.
"""

from __future__ import annotations

import functools
import importlib.util
import io
import pathlib
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from envpool.tasks._state_leaves import StateLayout, leaf_shapes

#: What to install for PGX's frames.
PGX_FRAME_REQUIREMENTS = ("pgx==2.6.0", "resvg-py==0.5.0", "matplotlib>=3.7")
#: The package whose font draws Shogi's kanji (IPAexGothic, under the IPA Font License).
CJK_FONT_REQUIREMENT = "matplotlib-fontja==1.1.0"
#: The ids whose pictures are kanji.
CJK_IDS = frozenset({"Shogi-v1"})

_SVG_SIZE = re.compile(r'<svg\b[^>]*?\bheight="([0-9.]+)"[^>]*?\bwidth="([0-9.]+)"')


def pgx_frames_installed() -> bool:
    """Whether pgx, resvg-py and matplotlib can be imported (they draw the frames)."""
    return all(importlib.util.find_spec(m) is not None
               for m in ("pgx", "resvg_py", "matplotlib", "PIL"))


def cjk_font_files() -> list[str]:
    """matplotlib-fontja's IPAexGothic (its file, the package not imported), [] if it is
    not installed."""
    spec = importlib.util.find_spec("matplotlib_fontja")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    return [str(f) for folder in folders for f in pathlib.Path(folder).glob("fonts/ipaexg.ttf")]


@functools.lru_cache(maxsize=1)
def resvg_fonts() -> dict[str, Any]:
    """resvg's font settings for pgx's text: matplotlib's DejaVu fonts, and IPAexGothic for
    the kanji where installed (see above); no system font."""
    import matplotlib

    folder = pathlib.Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    files = sorted(str(f) for f in folder.glob("DejaVu*.ttf"))
    if not files:
        raise RuntimeError(f"matplotlib's DejaVu fonts are not in {folder}")
    files += cjk_font_files()
    return {"skip_system_fonts": True, "font_files": files, "serif_family": "DejaVu Serif",
            "sans_serif_family": "DejaVu Sans", "monospace_family": "DejaVu Sans Mono"}


def svg_size(svg: str) -> tuple[int, int]:
    """(height, width) in pixels of pgx's SVG ``svg`` at its own size, rounded up as resvg
    rounds it."""
    match = _SVG_SIZE.search(svg)
    if match is None:
        raise RuntimeError("pgx's SVG has no height and width")
    return int(np.ceil(float(match.group(1)))), int(np.ceil(float(match.group(2))))


def pgx_svg(state: Any) -> str:
    """pgx's SVG of ``state`` (``state.to_svg(color_theme="light", scale=1.0)``); Go boards
    pgx 2.6.0 does not draw (other than 9 x 9 and 19 x 19) drawn by its Go code with its
    settings for 9 x 9 and 19 x 19 (the board's size from the State)."""
    from pgx._src.visualizer import Visualizer

    visualizer = Visualizer(color_theme="light", scale=1.0)
    env_id = state.env_id
    if env_id.startswith("go_") and env_id not in ("go_9x9", "go_19x19"):
        from types import SimpleNamespace

        set_config = visualizer._set_config_by_state
        # pgx's settings for Go read only the env id and the board size
        visualizer._set_config_by_state = lambda s: set_config(  # type: ignore[method-assign]
            SimpleNamespace(env_id="go_9x9", _size=s._size))
    return str(visualizer.get_dwg(states=state).tostring())


def rasterise(svg: str, height: int, width: int) -> np.ndarray:
    """resvg's ``(height, width, 3)`` uint8 picture of ``svg`` on white (text in
    :func:`resvg_fonts`): at the SVG's own size when that is ``height`` x ``width``; else
    scaled to fit inside ``width`` x ``height`` undistorted (resvg's fit) and centred on
    white."""
    import resvg_py
    from PIL import Image

    fit = {} if svg_size(svg) == (height, width) else {"width": width, "height": height}
    png = resvg_py.svg_to_bytes(svg_string=svg, background="white", **resvg_fonts(), **fit)
    with Image.open(io.BytesIO(bytes(png))) as image:
        picture = np.asarray(image.convert("RGB"))
    if picture.shape[:2] == (height, width):
        return picture
    h, w = picture.shape[:2]
    if h > height or w > width:
        raise RuntimeError(f"resvg drew {w} x {h}, larger than {width} x {height}")
    frame = np.full((height, width, 3), 255, dtype=np.uint8)
    top, left = (height - h) // 2, (width - w) // 2
    frame[top:top + h, left:left + w] = picture
    return frame


class PgxFrames:
    """Draws the frames of one pool's envs as pgx draws them.

    Args:
        task_id: The pool's id (``"TicTacToe-v1"`` or ``"PGX/TicTacToe-v1"``).
        height: The frame's height in pixels.
        width: The frame's width in pixels.
        pgx_name: pgx's name of the game (``pgx.make``'s argument, ``"tic_tac_toe"``).

    Raises:
        ModuleNotFoundError: pgx, resvg-py or matplotlib is not installed (Shogi:
            matplotlib-fontja).
    """

    def __init__(self, task_id: str, height: int, width: int, *, pgx_name: str) -> None:
        if not pgx_frames_installed():
            raise ModuleNotFoundError(
                f"{task_id}: render_mode draws pgx's own SVG, rasterised by resvg with "
                f"matplotlib's fonts; install them: pip install "
                f"{' '.join(repr(r) if '>' in r else r for r in PGX_FRAME_REQUIREMENTS)}",
                name="pgx")
        self._id = task_id.split("/", 1)[-1]
        if self._id in CJK_IDS and not cjk_font_files():
            raise ModuleNotFoundError(
                f"{task_id}: render_mode draws pgx's kanji in matplotlib-fontja's font; "
                f"install it: pip install {CJK_FONT_REQUIREMENT}", name="matplotlib_fontja")
        self._name = pgx_name
        self._height = height
        self._width = width
        # pgx's State layouts: one per game, Go's per (size, history length, step limit)
        self._layouts: dict[tuple[int, ...], StateLayout] = {}
        self._closed = False

    def _layout(self, leaves: Sequence[float]) -> StateLayout:
        key: tuple[int, ...] = ()
        if self._name.startswith("go_"):
            # observation (size, size, 2 * history + 1), ..., _x.hash_history (steps, 2)
            shapes = leaf_shapes(leaves)
            if len(shapes) < 2 or len(shapes[1]) != 3 or len(shapes[-1]) != 2:
                raise RuntimeError(f"{self._id}: the native env's state does not fit pgx's Go "
                                   f"State: the envs restate {PGX_FRAME_REQUIREMENTS[0]}")
            obs, hashes = shapes[1], shapes[-1]
            key = (obs[0], (obs[2] - 1) // 2, hashes[0])
        if key not in self._layouts:
            import jax
            import pgx

            if key:
                from pgx.go import Go

                env = Go(size=key[0], komi=7.5, history_length=key[1],
                         max_terminal_steps=key[2])
            else:
                env = pgx.make(self._name)
            shapes = jax.eval_shape(env.init, jax.random.PRNGKey(0))
            self._layouts[key] = StateLayout(shapes, self._id, PGX_FRAME_REQUIREMENTS[0])
        return self._layouts[key]

    def state(self, leaves: Sequence[float]) -> Any:
        """pgx's State from the native env's ``get_state``.

        Args:
            leaves: What ``pool.get_state(env_id)`` returned.

        Returns:
            The State, of pgx's classes, its arrays numpy arrays of pgx's dtypes.

        Raises:
            RuntimeError: the native env's leaves do not fit pgx's State (another pgx than
                the one the envs restate).
        """
        return self._layout(leaves).state(leaves)

    def draw(self, leaves: Sequence[float], camera_id: int = -1) -> np.ndarray:
        """One frame: the ``(height, width, 3)`` uint8 picture of the State ``leaves``.

        Raises:
            ValueError: ``camera_id`` is not -1 or 0 (the games have one view).
            RuntimeError: the drawer is closed (its pool is).
        """
        if camera_id not in (-1, 0):
            raise ValueError(f"render: the PGX games have one view: camera_id must be -1 or 0, "
                             f"got {camera_id}")
        if self._closed:
            raise RuntimeError(f"{self._id}: the pool is closed")
        import jax

        # jax arrays, as pgx's own States hold them: some drawings update them in jax's way
        # (Backgammon's board.at[...].set(...)).
        state = jax.tree_util.tree_map(jax.numpy.asarray, self.state(leaves))
        frame = rasterise(pgx_svg(state), self._height, self._width)
        if frame.shape != (self._height, self._width, 3):
            raise RuntimeError(f"{self._id}: resvg drew {frame.shape[1]} x {frame.shape[0]}, "
                               f"not {self._width} x {self._height}")
        return frame

    def close(self) -> None:
        """Lets go of pgx's State layouts; a draw after it raises RuntimeError."""
        self._closed = True
        self._layouts = {}
