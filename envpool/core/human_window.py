"""``render_mode="human"``: a window that shows the frames a pool draws.

The frames are the ``rgb_array`` ones (drawn by the workers); the window is pygame's, as
gymnasium's own envs open theirs for human rendering. It opens at the first frame, takes
each frame's size, and closes with the pool.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np


class HumanWindow:
    """One pygame window showing ``(H, W, 3)`` uint8 frames."""

    def __init__(self, title: str, fps: float | None) -> None:
        self._title = title
        self._fps = fps
        self._pygame: Any = None
        self._screen: Any = None
        self._clock: Any = None

    def show(self, frame: np.ndarray) -> None:
        """Shows ``frame``, at most ``fps`` frames per second (the env's own rate)."""
        if self._pygame is None:
            try:
                import pygame
            except ImportError as error:
                raise RuntimeError("render_mode='human' shows frames in a pygame window: "
                                   "pip install pygame (or use render_mode='rgb_array')"
                                   ) from error
            try:
                pygame.display.init()
                error = None
            except pygame.error as e:
                error = e
            # Without a display SDL falls back to a driver that shows nothing: say so, unless
            # that driver was asked for (SDL_VIDEODRIVER=dummy, as in tests).
            if error is not None or (pygame.display.get_driver() in ("offscreen", "dummy")
                                     and not os.environ.get("SDL_VIDEODRIVER")):
                pygame.display.quit()
                raise RuntimeError("render_mode='human' needs a display to open a window "
                                   f"({error or 'none found'}); use render_mode='rgb_array' "
                                   "to get the frames as arrays") from error
            self._pygame = pygame
            self._clock = pygame.time.Clock()
        pygame = self._pygame
        height, width = frame.shape[:2]
        if self._screen is None or self._screen.get_size() != (width, height):
            self._screen = pygame.display.set_mode((width, height))
            pygame.display.set_caption(self._title)
        # pygame's surfaces are (width, height): the frame transposed.
        pygame.surfarray.blit_array(self._screen, np.ascontiguousarray(frame.transpose(1, 0, 2)))
        pygame.event.pump()
        pygame.display.flip()
        if self._fps:
            self._clock.tick(self._fps)

    def close(self) -> None:
        """Closes the window (if it opened)."""
        if self._pygame is not None:
            self._pygame.display.quit()
            self._pygame = self._screen = None
