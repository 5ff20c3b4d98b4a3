"""Classic-control task ids (gymnasium's ids, limits and thresholds)."""

from envpool.core.registry import register

register("CartPole-v0", "CartPole", max_episode_steps=200, reward_threshold=195.0)
register("CartPole-v1", "CartPole", max_episode_steps=500, reward_threshold=475.0)
