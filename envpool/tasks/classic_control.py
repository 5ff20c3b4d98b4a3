"""Classic-control task ids (gymnasium's ids, limits and thresholds)."""

from envpool.core.registry import register

register("CartPole-v0", "CartPole", max_episode_steps=200, reward_threshold=195.0)
register("CartPole-v1", "CartPole", max_episode_steps=500, reward_threshold=475.0)
register("MountainCar-v0", "MountainCar", max_episode_steps=200, reward_threshold=-110.0)
register(
    "MountainCarContinuous-v0",
    "MountainCarContinuous",
    max_episode_steps=999,
    reward_threshold=90.0,
)
register("Pendulum-v1", "Pendulum", max_episode_steps=200)
register("Acrobot-v1", "Acrobot", max_episode_steps=500, reward_threshold=-100.0)
