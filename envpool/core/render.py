"""Drawing a pool's envs: ``render`` (frames drawn by the worker threads, shown in a
window with ``render_mode="human"``) and the toy-text grids' ansi text.

A mixin of :class:`~envpool.core.pool.EnvPoolBase`; the window is
:class:`~envpool.core.human_window.HumanWindow`, the text
:class:`~envpool.core.text_render.TextRenderer`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool.core.human_window import HumanWindow
from envpool.core.keywords import RenderNotImplementedError
from envpool.core.text_render import TextRenderer


class PoolRendering:
    """``render`` and ``render_text`` (a mixin of ``EnvPoolBase``)."""

    # (set by EnvPoolBase.__init__)
    _pool: Any
    _window: HumanWindow | None
    _text: TextRenderer | None
    spec: Any
    config: dict[str, Any]
    render_mode: str | None
    #: why render() refuses where the env draws no frames (keywords.render_refusal)
    _render_refusal: str | None
    #: the task's frames drawn in Python (TaskSpec.frames), else None
    _frames: Any

    def render(self, env_ids: Any = None,
               camera_id: int | None = None) -> np.ndarray | list[str] | None:
        """Draws the current frames of some envs.

        The pool must be made with a ``render_mode``. The worker threads draw the
        frames, or, for a task whose reference package draws them in Python, that
        package in the calling thread (``register(..., frames=...)``). Envs in flight
        (sent and not yet received) cannot be drawn. The same in the gymnasium, gym and dm flavours;
        ``gymnasium.make_vec`` pools return a tuple instead (``GymnasiumVectorEnv.render``).

        Args:
            env_ids: The envs to draw: an int or a sequence of ints. None draws env
                ``render_env_id`` (a make keyword, default 0) alone.
            camera_id: The camera of the envs that have several (MuJoCo); None is the
                make keyword ``render_camera_id`` (default -1, the env's own view).

        Returns:
            With ``render_mode="rgb_array"``, a ``(len(env_ids), H, W, 3)`` uint8 array
            of ``render_height`` x ``render_width`` frames (0: the env's own size): a
            view of the pool's frame buffer, valid as long as it is held. With
            ``render_mode="ansi"`` (toy-text grids), a list of gymnasium's text, one per
            env. With ``render_mode="human"``, None: one env's frame is shown in a
            window.

        Raises:
            RuntimeError: the pool was made without ``render_mode``, or is closed.
            RenderNotImplementedError: the env draws no frames (a ValueError and a
                RuntimeError, "render not implemented", as sail-sg EnvPool raises).
            ValueError: an env id out of range, listed twice or in flight, or more than
                one env with ``render_mode="human"``.
            TypeError: env ids or ``camera_id`` that are not integers.

        Examples:
            >>> import envpool
            >>> env = envpool.make("CartPole-v1", num_envs=2, render_mode="rgb_array")
            >>> _ = env.reset()
            >>> env.render().shape
            (1, 400, 600, 3)
            >>> env.render(env_ids=[0, 1]).dtype
            dtype('uint8')
            >>> env.close()
        """
        if self.render_mode is None:
            raise RuntimeError(f"{self.spec.id} was made without render_mode: pass "
                               "render_mode='rgb_array' to make() to render")
        if self._text is not None:
            return self.render_text(env_ids)
        if self._render_refusal is not None:  # an env that draws no frames
            raise RenderNotImplementedError(self._render_refusal)
        if env_ids is None:
            ids = np.array([self.config["render_env_id"]], dtype=np.int64)
        else:
            ids = np.asarray(env_ids)
            if ids.ndim == 0:
                ids = ids.reshape(1)
            if ids.dtype.kind not in "iu":
                raise TypeError(f"env_ids must be integers, got {ids.dtype}")
        camera = self.config["render_camera_id"] if camera_id is None else camera_id
        if not isinstance(camera, (int, np.integer)) or isinstance(camera, (bool, np.bool_)):
            raise TypeError(f"camera_id must be an int, got {camera!r}")
        if self._window is not None and len(ids) != 1:
            raise ValueError(f"render_mode='human' shows one env: env_ids must name one, got "
                             f"{len(ids)}")
        if self._frames is not None:
            frames = self._draw_in_python(ids, int(camera))
        else:
            try:
                frames = self._pool.render(ids, self.config["render_width"],
                                           self.config["render_height"], int(camera))
            except ValueError as error:
                raise ValueError(f"{self.spec.id}: {error}") from None
        if self._window is None:
            return frames
        self._show_human_frame(frames[0])
        return None

    def _draw_in_python(self, ids: np.ndarray, camera: int) -> np.ndarray:
        """The frames of the envs ``ids`` drawn by the task's Python drawer from their
        states (TaskSpec.frames), with the checks of the native render."""
        listed = ids.reshape(-1).tolist()
        where = f"{self.spec.id}: render:"
        if not listed:
            raise ValueError(f"{where} no env ids given")
        for i in listed:
            if not 0 <= i < self.num_envs:
                raise ValueError(f"{where} env_id {i} is out of range")
        if len(set(listed)) != len(listed):
            raise ValueError(f"{where} an env_id is listed twice")
        try:
            states = [self._pool.get_state(i) for i in listed]
        except ValueError as error:  # in flight
            raise ValueError(f"{where} {error}") from None
        return np.stack([self._frames.draw(state, camera) for state in states])

    def _show_human_frame(self, frame: np.ndarray) -> None:
        """Shows one ``(H, W, 3)`` frame in the pool's window (``render_mode="human"``;
        EnvPool's name for this hook, which its tests replace)."""
        assert self._window is not None
        self._window.show(frame)

    def render_text(self, env_ids: Any = None) -> list[str]:
        """``render_mode="ansi"``: gymnasium's ansi text of each env of ``env_ids`` (None:
        env ``render_env_id``), in the order given. Envs in flight cannot be drawn."""
        if self._text is None:
            raise RuntimeError(f"{self.spec.id} was not made with render_mode='ansi'")
        ids = [self.config["render_env_id"]] if env_ids is None else (
            np.asarray(env_ids).reshape(-1).tolist())
        if not all(isinstance(i, int) for i in ids):
            raise TypeError(f"env_ids must be integers, got {env_ids!r}")
        return [self._text.text(i, self._pool.get_state(i)) for i in ids]

    @property
    def render_fps(self) -> float | None:
        """Frames per second of a video of successive steps (None without render_mode)."""
        frame = self.spec.render_frame
        return None if frame is None else frame[2]
