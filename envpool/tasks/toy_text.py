"""Toy-text task ids (gymnasium's ids, limits and thresholds; bsuite-style NChain, Catch).

Ids, ``max_episode_steps``, ``reward_threshold`` and per-id keywords mirror
``gymnasium/envs/__init__.py`` (gymnasium 1.4). gymnasium 1.4 registers Taxi as
``Taxi-v4`` (v3 is deprecated there); both ids are offered, with 1.4's dynamics.
NChain-v0 is the old gym registration (1000 steps); Catch-v0 is bsuite's Catch,
which ends by itself after ``rows - 1`` steps.
"""

from envpool.core.registry import register

register("FrozenLake-v1", "FrozenLake", max_episode_steps=100, reward_threshold=0.70,
         map_name="4x4")
register("FrozenLake8x8-v1", "FrozenLake", max_episode_steps=200, reward_threshold=0.85,
         map_name="8x8")
register("Taxi-v3", "Taxi", max_episode_steps=200, reward_threshold=8.0)
register("Taxi-v4", "Taxi", max_episode_steps=200, reward_threshold=8.0)
register("CliffWalking-v1", "CliffWalking")
register("CliffWalkingSlippery-v1", "CliffWalking", is_slippery=True)
register("Blackjack-v1", "Blackjack", sab=True, natural=False)
register("NChain-v0", "NChain", max_episode_steps=1000)
register("Catch-v0", "Catch")
