"""Classic-control task ids (gymnasium's ids, limits and thresholds)."""

from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path

# Pendulum's arrow image: gymnasium's own asset, read by the env when it first draws one.
ARROW_PNG = package_path("gymnasium", "envs", "classic_control", "assets", "clockwise.png")


def _pendulum_arrow(_: dict[str, Any]) -> dict[str, Any]:
    """Where Pendulum's render() finds its arrow image (ARROW_PNG)."""
    return {"_arrow_png": ARROW_PNG}


# Every keyword may differ per env (make's env_kwargs); the numeric ones may also be
# drawn at each reset (envpool.Uniform): the envs hold nothing else.
_CARTPOLE = {"per_env_kwargs": ("sutton_barto_reward",)}
_GOAL = {"per_env_kwargs": ("goal_velocity",), "random_kwargs": ("goal_velocity",)}

register("CartPole-v0", "CartPole", max_episode_steps=200, reward_threshold=195.0, **_CARTPOLE)
register("CartPole-v1", "CartPole", max_episode_steps=500, reward_threshold=475.0, **_CARTPOLE)
register("MountainCar-v0", "MountainCar", max_episode_steps=200, reward_threshold=-110.0,
         **_GOAL)
register(
    "MountainCarContinuous-v0",
    "MountainCarContinuous",
    max_episode_steps=999,
    reward_threshold=90.0,
    **_GOAL,
)
# Pendulum-v0: sail-sg EnvPool's id of gym's first Pendulum, whose v1 "simplified the math
# equations, no difference in behavior" (gymnasium's version history): v1 here.
for _id in ("Pendulum-v0", "Pendulum-v1"):
    register(_id, "Pendulum", max_episode_steps=200, per_env_kwargs=("g",),
             random_kwargs=("g",), prepare=_pendulum_arrow)
register("Acrobot-v1", "Acrobot", max_episode_steps=500, reward_threshold=-100.0)
# gymnasium's jax-based phys2d envs (gymnasium/envs/phys2d): their own float32 dynamics and
# constants, and reset states drawn as jax.random draws them (docs/envs.md).
register("phys2d/CartPole-v0", "Phys2dCartPole", max_episode_steps=200, reward_threshold=195.0)
register("phys2d/CartPole-v1", "Phys2dCartPole", max_episode_steps=500, reward_threshold=475.0)
register("phys2d/Pendulum-v0", "Phys2dPendulum", max_episode_steps=200)
