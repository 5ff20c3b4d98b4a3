"""procgen's aliased ``QPainter::drawEllipse`` (``native/envs/procgen/qt_paint.h``'s
``DrawEllipse``: Qt's midpoint ellipse on whole pixels, else its path: Bezier flattening,
scanline fill and cosmetic stroker) against Qt 5.13.2 itself: the Qt that procgen's wheel
links statically, called through ``tests/procgen_oracle.py``'s ``QtPainterOracle``.

Random rects (fractional, on 64ths of a pixel, whole pixels, tiny, partly or wholly off the
canvas) with an opaque or translucent pen and brush, or either alone, each drawn onto a
64 x 64 ``Format_RGB32`` canvas; every pixel is compared for equality.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from envpool import _native

sys.path.insert(0, os.path.dirname(__file__))
from procgen_oracle import QtPainterOracle, wheel_dir_or_skip  # noqa: E402

_BACKGROUND = 0xFF101010
_PENS = (-1, 0xFFA8A69E, 0x80FF0000)
_BRUSHES = (-1, 0xFF2040C0, 0x7800FF00)


@pytest.fixture(scope="module")
def qt() -> QtPainterOracle:
    return QtPainterOracle(wheel_dir_or_skip())


def _ellipses(seed: int, n: int) -> list[tuple[float, float, float, float, int, int]]:
    """n random (x, y, w, h, pen, brush), cycling through the kinds of rect."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        kind = i % 5
        if kind == 0:  # inside the canvas, fractional
            w, h = rng.uniform(0.3, 30, 2)
            x, y = rng.uniform(0, 64 - w), rng.uniform(0, 64 - h)
        elif kind == 1:  # anywhere, often reaching past the canvas' sides
            w, h = rng.uniform(0.3, 90, 2)
            x, y = rng.uniform(-40, 70, 2)
        elif kind == 2:  # on 64ths of a pixel (26.6 fixed point exactly)
            w, h = rng.integers(1, 40 * 64, 2) / 64
            x, y = rng.integers(-5 * 64, 60 * 64, 2) / 64
        elif kind == 3:  # tiny
            w, h = rng.uniform(0.05, 4, 2)
            x, y = rng.uniform(-2, 62, 2)
        else:  # whole pixels: the midpoint ellipse
            w, h = rng.integers(1, 40, 2).astype(float)
            x, y = rng.integers(-5, 60, 2).astype(float)
        pen, brush = int(rng.choice(_PENS)), int(rng.choice(_BRUSHES))
        if pen < 0 and brush < 0:
            pen = _PENS[1]
        out.append((float(x), float(y), float(w), float(h), pen, brush))
    return out


def _check(qt: QtPainterOracle, ellipses: list[tuple[float, float, float, float, int, int]],
           ) -> None:
    for e in ellipses:
        ref = qt.draw_ellipses(64, 64, _BACKGROUND, [e])
        ours = np.array(_native._procgen_draw_ellipses(64, 64, _BACKGROUND, [e]),
                        np.uint32).reshape(64, 64)
        diff = np.argwhere(ref != ours)
        assert diff.size == 0, f"{e}: {len(diff)} pixels differ, first (row, col) {diff[:4]}"


def test_qt_ellipses(qt: QtPainterOracle) -> None:
    """600 random ellipses, each on its own canvas, equal to Qt's pixel for pixel."""
    _check(qt, _ellipses(0, 600))


def test_qt_ellipses_overlapping(qt: QtPainterOracle) -> None:
    """Ellipses drawn over each other (translucent pens and brushes over earlier ones)."""
    es = _ellipses(1, 40)
    ref = qt.draw_ellipses(64, 64, _BACKGROUND, es)
    ours = np.array(_native._procgen_draw_ellipses(64, 64, _BACKGROUND, es),
                    np.uint32).reshape(64, 64)
    np.testing.assert_array_equal(ours, ref)


def test_jumper_compass_rects(qt: QtPainterOracle) -> None:
    """jumper's compass disc (grey pen and brush) at the rects its modes draw: easy mode
    centred, and hard and easy mode showing the whole world (center_agent=False)."""
    grey = 0xFFA8A69E
    for view, compass, world in ((12, 3, 0), (40, 2, 40), (20, 3, 20)):
        unit = np.float32(64.0 / (world or view))
        dim = np.float32(world or view)
        x = np.float32(dim - np.float32(compass) - np.float32(0.25)) * unit
        y, w = np.float32(0.25) * unit, np.float32(compass) * unit
        _check(qt, [(float(x), float(y), float(w), float(w), grey, grey)])


@pytest.mark.sweep_only("50,000 random ellipses (the default suite draws 600 of the same kinds)")
def test_qt_ellipses_many(qt: QtPainterOracle) -> None:
    """Many more random ellipses, nightly."""
    _check(qt, _ellipses(2, 50_000))
