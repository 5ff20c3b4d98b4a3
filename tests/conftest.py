"""Shared fixtures: the `Faulty-v0` test task (a native env that can be slow or fail)."""

from __future__ import annotations

import envpool

if "Faulty-v0" not in envpool.list_all_envs():
    envpool.register("Faulty-v0", "_Faulty", max_episode_steps=0)
