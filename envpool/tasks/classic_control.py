"""Classic-control task ids (gymnasium's ids, limits and thresholds)."""

import os
import re
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


# XLA's CPU instruction sets up to AVX: no FMA instructions (AVX2 brings them).
_NO_FMA_ISAS = ("SSE4_2", "AVX")


def xla_uses_fma() -> bool:
    """Whether XLA's CPU backend, in a process with this environment, compiles a product
    feeding a sum into one fused multiply-add: the CPU has FMA instructions (x86-64: the
    ``fma`` flag of /proc/cpuinfo) and XLA_FLAGS' ``--xla_cpu_max_isa`` (case-insensitive;
    an unknown value is ignored, as XLA ignores it) does not stop below AVX2."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            flags = next((line for line in cpuinfo if line.startswith("flags")), "")
    except OSError:
        flags = ""
    if " fma " not in f"{flags} ":
        return False
    max_isa = re.findall(r"--xla_cpu_max_isa=(\S+)", os.environ.get("XLA_FLAGS", ""))
    return not (max_isa and max_isa[-1].upper() in _NO_FMA_ISAS)


def _phys2d_arithmetic(config: dict[str, Any]) -> dict[str, Any]:
    del config  # (gymnasium's functional envs take no keywords)
    return {"_xla_fma": xla_uses_fma()}


# gymnasium's jax-based phys2d envs (gymnasium/envs/phys2d): their own float32 dynamics and
# constants, and reset states drawn as jax.random draws them (docs/envs.md); float32
# arithmetic as XLA compiles it on this machine (xla_uses_fma).
register("phys2d/CartPole-v0", "Phys2dCartPole", max_episode_steps=200, reward_threshold=195.0,
         prepare=_phys2d_arithmetic)
register("phys2d/CartPole-v1", "Phys2dCartPole", max_episode_steps=500, reward_threshold=475.0,
         prepare=_phys2d_arithmetic)
register("phys2d/Pendulum-v0", "Phys2dPendulum", max_episode_steps=200,
         prepare=_phys2d_arithmetic)
