"""Toy-text task ids (gymnasium's ids, limits and thresholds; bsuite-style NChain, Catch)."""

from envpool.core.registry import register  # noqa: F401
