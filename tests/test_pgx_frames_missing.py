"""PGX pools without pgx, resvg-py or matplotlib installed: stepping works (the games are
native); a pool made with a ``render_mode`` is refused at make, before any worker starts, with
what to install. Not skipped where pgx is missing: there it is what runs."""

from __future__ import annotations

import pytest

import envpool


def test_render_mode_needs_pgx_and_resvg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("envpool.tasks.pgx_frames.pgx_frames_installed", lambda: False)
    for mode in ("rgb_array", "human"):
        with pytest.raises(ModuleNotFoundError,
                           match="pip install pgx==2.6.0 resvg-py==0.5.0 'matplotlib>=3.7'"):
            envpool.make("TicTacToe-v1", render_mode=mode)
    env = envpool.make("TicTacToe-v1", num_envs=2, seed=0)
    obs, _ = env.reset()
    assert obs.shape == (4, 3, 3, 2)
    env.close()


def test_shogi_render_mode_needs_the_kanji_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shogi's pictures are kanji: without matplotlib-fontja's font its render_mode is
    refused at make, naming what to install; the other games do not need it."""
    monkeypatch.setattr("envpool.tasks.pgx_frames.cjk_font_files", lambda: [])
    with pytest.raises(ModuleNotFoundError, match="pip install matplotlib-fontja==1.1.0"):
        envpool.make("Shogi-v1", render_mode="rgb_array")
    envpool.make("Chess-v1", render_mode="rgb_array").close()
