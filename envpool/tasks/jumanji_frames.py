"""Jumanji's own frames: with ``render_mode="rgb_array"`` (or ``"human"``) a Jumanji pool
rebuilds each env's jumanji ``State`` from the native env and draws it with the installed
jumanji's matplotlib viewer: the frame ``jumanji.make(id).render(state)`` draws in its
``rgb_array`` mode, at ``render_width`` x ``render_height`` pixels (256 x 256 by default).

The native env gives its State as the leaves of jumanji's pytree (``get_state``: each
leaf's rank, shape and values, in ``jax.tree_util.tree_leaves`` order;
native/envs/jumanji/jumanji_env.h's ``StateLeaves``). The State's structure and dtypes
come from jumanji's own env (``jax.eval_shape`` of its reset), so the State handed to the
viewer is of the package's own classes. Frames are drawn in the calling thread (matplotlib,
tens of milliseconds each), not by the pool's workers.

Rendering needs ``jumanji`` (1.1.2, with jax and matplotlib) installed; stepping does not.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

#: What to install for Jumanji's frames.
JUMANJI_REQUIREMENT = "jumanji==1.1.2"

# A distinct figure name for each drawer: pyplot keeps figures by name, and two pools (of
# different frame sizes) must not draw on one figure.
_FIGURE_IDS = itertools.count()


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


# The ids whose viewers update arrays of the State with jax's ``.at[]``: they draw from jax
# arrays, as jumanji's own reset and step give them (the others from numpy arrays, faster:
# GraphColoring's viewer takes 0.3 s a frame of numpy arrays, 4.8 s of jax arrays).
_JAX_ARRAY_VIEWERS = frozenset({"PacMan-v1", "Maze-v0"})

# The ids whose jumanji env is not ``jumanji.make(id)`` here.
_MAKERS: dict[str, Callable[[], Any]] = {"Sokoban-v0": _sokoban, "Connector-v2": _connector_v2}


def _use_agg() -> None:
    """matplotlib's Agg backend, unless the program chose a backend already: the viewer
    draws off screen (its ``rgb_array`` mode)."""
    import sys

    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        import matplotlib

        matplotlib.use("Agg")


def rgb_array_viewer(env: Any, height: int, width: int) -> Any:
    """The matplotlib viewer of jumanji's ``env``, set to draw ``height`` x ``width``
    frames (its figure size in inches at 100 dpi) in its ``rgb_array`` mode on a figure of
    its own.

    pyplot keeps figures by name and a viewer's figure is named after the viewer
    (``viewer._name``), which some viewers also draw as the title (Minesweeper, Sudoku,
    RubiksCube): the name stays, and the viewer's figures take a distinct suffix instead.

    Raises:
        RuntimeError: ``env`` has no matplotlib viewer.
    """
    viewer = next((v for v in vars(env).values() if hasattr(v, "_display_rgb_array")), None)
    if viewer is None:
        raise RuntimeError(f"{type(env).__name__}: jumanji's env has no matplotlib viewer")
    viewer._display = viewer._display_rgb_array
    viewer.figure_size = (width / 100.0, height / 100.0)
    suffix = f" (envpool {next(_FIGURE_IDS)})"
    get_fig_ax = viewer._get_fig_ax

    def own_fig_ax(name_suffix: str | None = None, **kwargs: Any) -> Any:
        return get_fig_ax(name_suffix=suffix + (name_suffix or ""), **kwargs)

    def close() -> None:
        import matplotlib.pyplot as plt

        plt.close(viewer._name + suffix)

    viewer._get_fig_ax = own_fig_ax
    viewer.close = close
    return viewer


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
        self._treedef: Any = None
        self._dtypes: list[np.dtype] = []

    def _setup(self) -> None:
        _use_agg()
        import jax
        import jumanji

        env = _MAKERS[self._id]() if self._id in _MAKERS else jumanji.make(self._id)
        shapes = jax.eval_shape(env.reset, jax.random.PRNGKey(0))[0]
        leaves, self._treedef = jax.tree_util.tree_flatten(shapes)
        self._dtypes = [np.dtype(leaf.dtype) for leaf in leaves]
        self._env, self._viewer = env, rgb_array_viewer(env, self._height, self._width)

    def state(self, leaves: Sequence[float]) -> Any:
        """jumanji's State from the native env's ``get_state``.

        Args:
            leaves: What ``pool.get_state(env_id)`` returned.

        Returns:
            The State, of jumanji's classes, its arrays numpy arrays of jumanji's dtypes.

        Raises:
            RuntimeError: the native env's leaves do not fit jumanji's State.
        """
        if self._treedef is None:
            self._setup()
        import jax

        flat = np.asarray(leaves, dtype=np.float64)
        arrays: list[np.ndarray] = []
        at = 0
        while at < flat.size:
            rank = int(flat[at])
            shape = tuple(int(d) for d in flat[at + 1:at + 1 + rank])
            at += 1 + rank
            size = int(np.prod(shape, dtype=np.int64))
            if len(arrays) >= len(self._dtypes) or at + size > flat.size:
                break
            arrays.append(flat[at:at + size].astype(self._dtypes[len(arrays)]).reshape(shape))
            at += size
        if len(arrays) != self._treedef.num_leaves or at != flat.size:
            raise RuntimeError(
                f"{self._id}: the native env's state ({flat.size} numbers) does not fit "
                f"jumanji's State ({self._treedef.num_leaves} leaves)")
        return jax.tree_util.tree_unflatten(self._treedef, arrays)

    def draw(self, leaves: Sequence[float]) -> np.ndarray:
        """One frame: the ``(height, width, 3)`` uint8 picture of the State ``leaves``."""
        import matplotlib

        state = self.state(leaves)
        if self._id in _JAX_ARRAY_VIEWERS:
            import jax
            import jax.numpy as jnp

            state = jax.tree_util.tree_map(jnp.asarray, state)
        with matplotlib.rc_context({"figure.dpi": 100}):
            frame = self._env.render(state)
            if frame is None:
                frame = self._viewer.render(state)
        frame = np.asarray(frame, dtype=np.uint8)[:, :, :3]
        if frame.shape != (self._height, self._width, 3):
            raise RuntimeError(f"{self._id}: jumanji's viewer drew {frame.shape[1]} x "
                               f"{frame.shape[0]}, not {self._width} x {self._height}")
        return frame

    def close(self) -> None:
        """Closes the viewer's figure."""
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None
            self._treedef = None
