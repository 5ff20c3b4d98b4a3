"""scripts/render_gallery.py writes the rendering gallery (docs/render.md, docs/render/*.png)."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import subprocess
import sys

import cv2
import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("render_gallery",
                                                  ROOT / "scripts" / "render_gallery.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks its module up there)
    spec.loader.exec_module(module)
    return module


def test_gallery_of_one_task(tmp_path: pathlib.Path) -> None:
    """``--only CartPole-v1 --out DIR`` writes DIR/render.md with CartPole alone, the two
    pictures it links (400 x 600, ours with the cart drawn), and the difference the page
    states is the one between the two files: none, the pictures are equal bit for bit
    (anti-aliased outlines included), and the page states no known difference."""
    pytest.importorskip("pygame")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "render_gallery.py"),
                             "--out", str(tmp_path), "--only", "CartPole-v1"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    page = (tmp_path / "render.md").read_text()
    assert page.count("### ") == 1 and "## Classic control" in page and "### CartPole-v1" in page
    assert "Not rendering yet" not in page
    links = re.findall(r"!\[[^\]]*\]\((render/[^)]+\.png)\)", page)
    assert links == ["render/cartpole_v1_envpool.png", "render/cartpole_v1_reference.png"]
    ours, theirs = (cv2.imread(str(tmp_path / link))[..., ::-1] for link in links)
    assert ours.shape == theirs.shape == (400, 600, 3)
    assert (ours == 0).all(axis=-1).sum() > 1000  # the black cart
    stated = re.search(r"Pixels differing: \*\*(\d+)\*\* of (\d+) .*difference of a channel: "
                       r"\*\*(\d+)\*\*", page)
    assert stated is not None, page
    differ = np.any(ours != theirs, axis=-1)
    top = int(np.abs(ours.astype(int) - theirs).max())
    assert [int(x) for x in stated.groups()] == [int(differ.sum()), differ.size, top]
    assert differ.sum() == 0 and top == 0
    assert "Known difference" not in page


def test_families_are_detected_not_listed() -> None:
    """A task is drawn when envpool accepts its render mode: CartPole renders rgb_array,
    FrozenLake both ansi and rgb_array, NChain neither (the reason is envpool's own
    error)."""
    gallery = _script()
    assert gallery.renders("CartPole-v1", "rgb_array") is None
    assert gallery.renders("FrozenLake-v1", "ansi") is None
    assert gallery.renders("FrozenLake-v1", "rgb_array") is None
    assert "does not render yet" in gallery.renders("NChain-v0", "rgb_array")
