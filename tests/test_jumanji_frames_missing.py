"""Jumanji pools without jumanji installed: stepping works (Game2048 reads nothing from it);
a pool made with a ``render_mode`` is refused at make, before any worker starts, with what to
install. Not skipped where jumanji is missing: there it is what runs."""

from __future__ import annotations

import pytest

import envpool


def test_render_mode_needs_jumanji(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("envpool.tasks.jumanji_frames.jumanji_installed", lambda: False)
    for mode in ("rgb_array", "human"):
        with pytest.raises(ModuleNotFoundError, match="pip install jumanji==1.1.2"):
            envpool.make("Game2048-v1", render_mode=mode)
    env = envpool.make("Game2048-v1", num_envs=2, seed=0)
    obs, _ = env.reset()
    assert obs["board"].shape == (2, 4, 4)
    env.close()
