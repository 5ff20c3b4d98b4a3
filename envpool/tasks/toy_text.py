"""Toy-text task ids (gymnasium's ids, limits and thresholds; bsuite-style NChain, Catch).

Ids, ``max_episode_steps``, ``reward_threshold`` and per-id keywords mirror
``gymnasium/envs/__init__.py`` (gymnasium 1.4). gymnasium 1.4 registers Taxi as
``Taxi-v4`` (v3 is deprecated there); both ids are offered, with 1.4's dynamics, and so
is sail-sg EnvPool's ``CliffWalking-v0`` (gymnasium's v1 with its defaults). The
``tabular/`` ids are gymnasium's jax-based tabular envs, ported to C++.
NChain-v0 is the old gym registration (1000 steps); Catch-v0 is bsuite's Catch,
which ends by itself after ``rows - 1`` steps.
"""

from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path

# gymnasium's toy_text sprite images, read by each env on the first frame that needs one.
IMG_DIR = package_path("gymnasium", "envs", "toy_text", "img")


def _images(_: dict[str, Any]) -> dict[str, Any]:
    """Where the pictures of ``render_mode="rgb_array"`` find their sprites: the installed
    gymnasium's ``envs/toy_text/img`` folder, read by each env on the first frame that
    needs an image."""
    return {"_img_dir": IMG_DIR}


register("FrozenLake-v1", "FrozenLake", max_episode_steps=100, reward_threshold=0.70,
         map_name="4x4", prepare=_images)
register("FrozenLake8x8-v1", "FrozenLake", max_episode_steps=200, reward_threshold=0.85,
         map_name="8x8", prepare=_images)
register("Taxi-v3", "Taxi", max_episode_steps=200, reward_threshold=8.0, prepare=_images)
register("Taxi-v4", "Taxi", max_episode_steps=200, reward_threshold=8.0, prepare=_images)
# CliffWalking-v0: sail-sg EnvPool's id of gymnasium's v0, which v1 kept and extended with
# is_slippery (default False: gymnasium's version history), so v1 with its defaults.
register("CliffWalking-v0", "CliffWalking", prepare=_images)
register("CliffWalking-v1", "CliffWalking", prepare=_images)
register("CliffWalkingSlippery-v1", "CliffWalking", is_slippery=True, prepare=_images)
register("Blackjack-v1", "Blackjack", sab=True, natural=False, prepare=_images)
register("NChain-v0", "NChain", max_episode_steps=1000)
register("Catch-v0", "Catch")
# gymnasium's jax-based tabular envs (gymnasium/envs/tabular): their own rules and spaces,
# cards drawn as jax.random draws them, no time limit (docs/envs.md).
register("tabular/Blackjack-v0", "TabularBlackjack")
register("tabular/CliffWalking-v0", "TabularCliffWalking")
