"""Jumanji's own frames: with ``render_mode="rgb_array"`` (or ``"human"``) a Jumanji pool
rebuilds each env's jumanji ``State`` from the native env and draws it with the installed
jumanji's matplotlib viewer: the frame ``jumanji.make(id).render(state)`` draws in its
``rgb_array`` mode, at ``render_width`` x ``render_height`` pixels (256 x 256 by default).

The native env gives its State as the leaves of jumanji's pytree (``get_state``: each
leaf's rank, shape and values, in ``jax.tree_util.tree_leaves`` order;
native/envs/jumanji/jumanji_env.h's ``StateLeaves``). The State's structure, shapes and
dtypes come from jumanji's own env (``jax.eval_shape`` of its reset), so the State handed to
the viewer is of the package's own classes. Frames are drawn in the calling thread (0.02 to
0.8 s each at 256 x 256: benchmarks/results/jumanji/frame_times_2026-11-30.md), not by the
pool's workers, one at a time in the process (pyplot's figures are the process's), each on
a new figure that is never shown (whatever matplotlib backend the program uses), so that a
frame depends on its State alone.

Rendering needs ``jumanji`` (1.1.2, with jax and matplotlib) installed; stepping needs only
the files Sudoku and PacMan read from it.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from envpool.tasks._state_leaves import StateLayout

#: What to install for Jumanji's frames.
JUMANJI_REQUIREMENT = "jumanji==1.1.2"

# The suffix of the figures' names: pyplot keeps figures by name, and a frame must not be
# drawn on (and then close) a figure of the viewer's own name that the program holds. One
# frame is drawn at a time, each on a new figure closed after it, so one suffix serves all.
_FIGURE_SUFFIX = " (envpool)"
# pyplot's figures and its interactive flag are the process's: one drawing at a time.
_PYPLOT = threading.RLock()


def jumanji_installed() -> bool:
    """Whether jumanji can be imported (it draws the frames)."""
    return importlib.util.find_spec("jumanji") is not None


def _sokoban() -> Any:
    # The State's structure only: jumanji's default generator downloads its levels.
    from jumanji.environments.routing.sokoban.env import Sokoban
    from jumanji.environments.routing.sokoban.generator import SimpleSolveGenerator

    return Sokoban(generator=SimpleSolveGenerator())


def _connector_v2() -> Any:
    # jumanji 1.1.1's Connector-v2: 1.1.2's Connector with its legacy generator (1.1.2
    # registers only Connector-v3; the State and the viewer are the same class).
    from jumanji.environments import Connector
    from jumanji.environments.routing.connector.generator.legacy_random_walk_generator import (
        LegacyRandomWalkGenerator,
    )

    return Connector(generator=LegacyRandomWalkGenerator(grid_size=10, num_agents=10))


#: The ids whose viewer draws from numpy arrays (the others from jax arrays, as jumanji's
#: States hold them): viewers that only read the State and index it element by element in
#: Python loops (the spring layout of MMST's and GraphColoring's reads the adjacency
#: matrix 100 times a cell: MMST's frame takes about 18 s from jax arrays, 4 s from numpy
#: arrays, the same picture).
NUMPY_VIEWERS = frozenset({"MMST-v0", "GraphColoring-v1"})

# The ids whose jumanji env is not ``jumanji.make(id)`` here.
_MAKERS: dict[str, Callable[[], Any]] = {"Sokoban-v0": _sokoban, "Connector-v2": _connector_v2}


def rgb_array_viewer(env: Any, height: int, width: int) -> Any:
    """The matplotlib viewer of jumanji's ``env``, set to draw ``height`` x ``width``
    frames (its figure size in inches at 100 dpi) in its ``rgb_array`` mode on a figure of
    its own, never shown.

    pyplot keeps figures by name and a viewer's figure is named after the viewer
    (``viewer._name``), which some viewers also draw as the title (Minesweeper, Sudoku,
    RubiksCube): the name stays, and the viewer's figures take the suffix " (envpool)".
    The viewer asks for its figure with ``show=False`` (jumanji shows a new figure in a
    window otherwise, where a GUI backend is in use), and pyplot's interactive flag, which
    that turns off, is put back after each frame by :class:`JumanjiFrames`.

    Raises:
        RuntimeError: ``env`` has no matplotlib viewer.
    """
    viewer = next((v for v in vars(env).values() if hasattr(v, "_display_rgb_array")), None)
    if viewer is None:
        raise RuntimeError(f"{type(env).__name__}: jumanji's env has no matplotlib viewer")
    viewer._display = viewer._display_rgb_array
    viewer.figure_size = (width / 100.0, height / 100.0)
    get_fig_ax = viewer._get_fig_ax

    def own_fig_ax(name_suffix: str | None = None, **kwargs: Any) -> Any:
        kwargs["show"] = False
        return get_fig_ax(name_suffix=_FIGURE_SUFFIX + (name_suffix or ""), **kwargs)

    viewer._get_fig_ax = own_fig_ax
    viewer.close = _closer(viewer._name + _FIGURE_SUFFIX)
    return viewer


def _closer(figure: str) -> Callable[[], None]:
    """Closes pyplot's figure named ``figure`` (if pyplot is loaded)."""

    def close() -> None:
        import sys

        plt = sys.modules.get("matplotlib.pyplot")
        if plt is not None:
            with _PYPLOT:
                plt.close(figure)

    return close


class JumanjiFrames:
    """Draws the frames of one pool's envs with jumanji's viewer.

    Args:
        task_id: The pool's id (``"Game2048-v1"`` or ``"Jumanji/Game2048-v1"``).
        height: The frame's height in pixels.
        width: The frame's width in pixels.

    Raises:
        ModuleNotFoundError: jumanji is not installed.
    """

    def __init__(self, task_id: str, height: int, width: int) -> None:
        if not jumanji_installed():
            raise ModuleNotFoundError(
                f"{task_id}: render_mode draws jumanji's own frames with its viewer; install "
                f"it: pip install {JUMANJI_REQUIREMENT}", name="jumanji")
        self._id = task_id.split("/", 1)[-1]
        self._height = height
        self._width = width
        self._env: Any = None
        self._viewer: Any = None
        self._layout: StateLayout | None = None
        self._closed = False

    def _setup(self) -> None:
        import jax
        import jumanji

        env = _MAKERS[self._id]() if self._id in _MAKERS else jumanji.make(self._id)
        shapes = jax.eval_shape(env.reset, jax.random.PRNGKey(0))[0]
        self._layout = StateLayout(shapes, self._id, JUMANJI_REQUIREMENT)
        self._env, self._viewer = env, rgb_array_viewer(env, self._height, self._width)

    def state(self, leaves: Sequence[float]) -> Any:
        """jumanji's State from the native env's ``get_state``.

        Args:
            leaves: What ``pool.get_state(env_id)`` returned.

        Returns:
            The State, of jumanji's classes, its arrays numpy arrays of jumanji's dtypes.

        Raises:
            RuntimeError: the native env's leaves do not fit jumanji's State (another
                jumanji than the one the envs restate).
        """
        with _PYPLOT:
            if self._layout is None:
                self._setup()
        assert self._layout is not None
        return self._layout.state(leaves)

    def draw(self, leaves: Sequence[float], camera_id: int = -1) -> np.ndarray:
        """One frame: the ``(height, width, 3)`` uint8 picture of the State ``leaves``.

        Raises:
            ValueError: ``camera_id`` is not -1 or 0 (the envs have one view).
            RuntimeError: the drawer is closed (its pool is).
        """
        if camera_id not in (-1, 0):
            raise ValueError(f"render: jumanji envs have one view: camera_id must be -1 or 0, "
                             f"got {camera_id}")
        import jax
        import matplotlib
        import matplotlib.pyplot as plt

        with _PYPLOT:
            if self._closed:
                raise RuntimeError(f"{self._id}: the pool is closed")
            state = self.state(leaves)
            if self._id not in NUMPY_VIEWERS:
                # jax arrays, as jumanji's own States hold them: some viewers update them in
                # jax's way (Maze's `walls.at[...].set(...)`).
                state = jax.tree_util.tree_map(jax.numpy.asarray, state)
            interactive = plt.isinteractive()
            try:
                with matplotlib.rc_context({"figure.dpi": 100}):
                    frame = self._env.render(state)
                    if frame is None:
                        frame = self._viewer.render(state)
                frame = np.array(frame, dtype=np.uint8)[:, :, :3]
            finally:
                # A new figure for every frame: on a figure it drew before, the viewer's
                # constrained layout starts from the last frame's, and small frames come
                # out different for the same State.
                self._viewer.close()
                if interactive and not plt.isinteractive():
                    plt.ion()
        if frame.shape != (self._height, self._width, 3):
            raise RuntimeError(f"{self._id}: jumanji's viewer drew {frame.shape[1]} x "
                               f"{frame.shape[0]}, not {self._width} x {self._height}")
        return frame

    def close(self) -> None:
        """Lets go of jumanji's env and viewer (no figure stays open between frames), after
        a frame being drawn."""
        with _PYPLOT:
            self._closed = True
            self._env = self._viewer = None
