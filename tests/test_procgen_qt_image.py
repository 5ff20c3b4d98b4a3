"""procgen's ``QPainter::drawImage`` of a sprite (``native/envs/procgen/qt_paint.h``'s
``DrawImage``: nearest-neighbour scaling in 16.16 fixed point, Qt's SSE2 loop for
premultiplied sprites at full opacity, the generic loop below it, and
``qt_transform_image``'s trapezoids for rotated sprites) against Qt 5.13.2 itself: the Qt
that procgen's wheel links statically, called through ``tests/procgen_oracle.py``'s
``QtPainterOracle``.

Each draw is what procgen's ``draw_image`` does for an entity: save, setOpacity,
translate to the rect's centre, rotate, ``drawImage`` of the rect centred on the origin,
restore; StarPilot's ships and bullets are rotated by +-90 degrees and drawn a few pixels
wide at fractional positions. A random premultiplied image (distinct pixels, some
translucent) is drawn onto a 64 x 64 ``Format_RGB32`` canvas; every pixel is compared for
equality.
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
# rotations procgen's games use (starpilot: +-90; -180 is a flip) and arbitrary ones
_DEGREES = (0.0, 90.0, -90.0, 180.0, -180.0, 270.0, 90.00000250447816, 37.5)


@pytest.fixture(scope="module")
def qt() -> QtPainterOracle:
    return QtPainterOracle(wheel_dir_or_skip())


def _image(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """A premultiplied ARGB32 image: mostly opaque, some translucent or clear pixels."""
    alpha = np.where(rng.random((rows, cols)) < 0.8, 255,
                     rng.integers(0, 255, (rows, cols))).astype(np.uint32)
    rgb = rng.integers(0, 256, (rows, cols, 3)).astype(np.uint32)
    rgb = rgb * alpha[..., None] // 255  # premultiplied: no channel above alpha
    return (alpha << 24) | (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]


def _draws(rng: np.random.Generator, n: int) -> list[tuple[float, ...]]:
    """n random entity draws (x, y, w, h, dx, dy, degrees, opacity), the rect centred on
    the origin as procgen's draw_image makes it, at float (single) precision."""
    out = []
    for i in range(n):
        w, h = (np.float32(rng.uniform(0.5, 12, 2)) if i % 2 else
                np.repeat(np.float32(rng.choice([3.2, 4.0, 2.0, 6.4])), 2))
        dx, dy = np.float32(rng.uniform(-4, 68, 2))
        degrees = float(rng.choice(_DEGREES))
        opacity = 1.0 if i % 4 else float(rng.choice([0.5, 0.75, 0.3]))
        out.append((float(-w / 2), float(-h / 2), float(w), float(h), float(dx), float(dy),
                    degrees, opacity))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_draw_image_as_qt(qt: QtPainterOracle, seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, cols = (108, 126) if seed == 0 else tuple(int(v) for v in rng.integers(5, 150, 2))
    image = _image(rng, rows, cols)
    for k in range(40):
        draws = _draws(rng, 8)
        want = qt.draw_images(64, 64, _BACKGROUND, image, draws)
        got = np.asarray(_native._procgen_draw_images(64, 64, _BACKGROUND,
                                                      image.ravel().tolist(), cols, draws),
                         np.uint32).reshape(64, 64)
        bad = np.argwhere(got != want)
        assert bad.size == 0, (f"seed {seed} batch {k}: {len(bad)} pixels differ, first "
                               f"(row, col) {bad[:5].tolist()}; draws {draws}")
