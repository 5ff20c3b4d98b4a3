"""Box2D task ids (gymnasium's ids, limits and thresholds, and sail-sg EnvPool's)."""

import os
from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path

# Every keyword but `continuous` (which changes the action space) may differ per env
# (make's env_kwargs).
_PER_ENV = {"per_env_kwargs": ("gravity", "enable_wind", "wind_power", "turbulence_power")}

# LunarLander-v2 / LunarLanderContinuous-v2: sail-sg EnvPool 1.2.5's ids, which it registers
# as the same env as v3 (gymnasium 1.x has no v2 any more): the v3 env here too.
for _version in ("v2", "v3"):
    register(f"LunarLander-{_version}", "LunarLander", max_episode_steps=1000,
             reward_threshold=200.0, **_PER_ENV)
    register(f"LunarLanderContinuous-{_version}", "LunarLander", continuous=True,
             max_episode_steps=1000, reward_threshold=200.0, **_PER_ENV)

# hardcore changes the terrain only (no space), so it may differ per env too.
register("BipedalWalker-v3", "BipedalWalker", max_episode_steps=1600, reward_threshold=300.0,
         per_env_kwargs=("hardcore",))
register("BipedalWalkerHardcore-v3", "BipedalWalker", hardcore=True, max_episode_steps=2000,
         reward_threshold=300.0, per_env_kwargs=("hardcore",))


def _car_racing_font(config: dict[str, Any]) -> dict[str, Any]:
    """CarRacing's hidden keyword _font: pygame's default font (freesansbold.ttf), in which
    gymnasium writes the reward on the picture; it is read from the installed pygame."""
    del config
    font = package_path("pygame", "freesansbold.ttf")
    if not font or not os.path.isfile(font):
        raise ImportError("CarRacing draws gymnasium's reward text in pygame's default font "
                          "(freesansbold.ttf), read from the installed pygame: pip install "
                          "'envpool-ng[box2d]' (it installs pygame-ce)")
    return {"_font": font}


# CarRacing-v2: sail-sg EnvPool 1.2.5's id, registered there as the same env as v3; here too
# (gymnasium 0.29's CarRacing-v2 ended a completed lap with truncated, not terminated).
for _version in ("v2", "v3"):
    register(f"CarRacing-{_version}", "CarRacing", max_episode_steps=1000, reward_threshold=900.0,
             prepare=_car_racing_font,
             per_env_kwargs=("domain_randomize", "lap_complete_percent"))
