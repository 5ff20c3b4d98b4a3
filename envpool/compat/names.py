"""sail-sg EnvPool's names of this package's envs: the family package each native env
belongs to (``envpool.atari``, ``envpool.mujoco.gym``, ...) and its spec class's name
(``AtariEnvSpec``), the one naming table of the compatibility wing."""

from __future__ import annotations

from typing import Any

# EnvPool's family packages, as import paths, and the names of their spec classes
# (registry.specs gives them, as EnvPool's does): the native env name decides.
_CLASSIC = {"CartPole", "MountainCar", "MountainCarContinuous", "Pendulum", "Acrobot",
            "Phys2dCartPole", "Phys2dPendulum"}
_BOX2D = {"LunarLander", "BipedalWalker", "CarRacing"}


# Gymnasium-Robotics' native envs (but Adroit*): before the "V4"/"V5" rule of gym's MuJoCo.
_ROBOTICS = frozenset({"Fetch", "HandReach", "HandManipulate", "Kitchen", "PointMaze",
                       "AntMazeV3", "AntMazeV4", "AntMazeV5"})


def family_of(native_env: str) -> str:
    """EnvPool's import path of the family a native env belongs to."""
    if native_env == "Atari":
        return "envpool.atari"
    if native_env == "ViZDoom":
        return "envpool.vizdoom"
    if native_env.startswith("Dmc"):
        return "envpool.mujoco.dmc"
    if native_env.startswith("Playground"):
        return "envpool.mujoco.playground"
    if native_env in _ROBOTICS or native_env.startswith("Adroit"):
        return "envpool.mujoco.robotics"
    if native_env[-2:] in ("V4", "V5"):
        return "envpool.mujoco.gym"
    if native_env in _CLASSIC:
        return "envpool.classic_control"
    if native_env in _BOX2D:
        return "envpool.box2d"
    if native_env == "MiniGrid":
        return "envpool.minigrid"
    if native_env == "MetaWorld":
        return "envpool.mujoco.metaworld"
    if native_env.startswith("Myo"):
        return "envpool.mujoco.myosuite"
    if native_env == "Highway":
        return "envpool.highway"
    if native_env.startswith("Pgx"):
        return "envpool.pgx"
    if native_env.startswith("Jumanji"):
        return "envpool.jumanji"
    if native_env == "Gfootball":
        return "envpool.gfootball"
    if native_env.startswith("Procgen"):
        return "envpool.procgen"
    return "envpool.toy_text"


def spec_class_name(native_env: str) -> str:
    """EnvPool's name of the spec class of ``native_env`` (``"AtariEnvSpec"``)."""
    family = family_of(native_env)
    if family == "envpool.atari":
        return "AtariEnvSpec"
    if family == "envpool.vizdoom":
        return "VizdoomEnvSpec"
    if family == "envpool.mujoco.gym":
        return f"Gym{native_env[:-2]}EnvSpec"
    if family == "envpool.mujoco.robotics":
        return f"GymnasiumRobotics{native_env}EnvSpec"
    return f"{native_env}EnvSpec"


def native_tasks() -> dict[str, Any]:
    """The registrations of this package's own native envs (not the SDK's plugins), by id:
    the envs EnvPool's names cover."""
    from envpool.core.registry import all_tasks
    from envpool.core.sdk import OWN_MODULES

    return {i: t for i, t in all_tasks().items() if t.native_module.__name__ in OWN_MODULES}


def spec_class_names() -> dict[str, str]:
    """EnvPool's spec class name of each native env of this package (``"Atari"`` ->
    ``"AtariEnvSpec"``), as ``registry.specs`` names them."""
    return {t.native_env: spec_class_name(t.native_env) for t in native_tasks().values()}
