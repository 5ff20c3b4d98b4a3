"""sail-sg EnvPool's module paths, each mapped to this package's names.

EnvPool scripts and EnvPool's own tests import its modules by path::

    import envpool.atari.registration
    from envpool.registration import make_gym, make_spec
    from envpool.python.protocol import EnvPool, EnvSpec

None of those modules is a file here. :data:`MODULES` (the one table of them) says what
each holds in this package, and a finder on ``sys.meta_path`` (installed by
``import envpool``) builds such a module on its first import, with every name read
lazily from the table. Nothing here is a second implementation: each name is an object
of ``envpool.core`` or ``envpool.tasks``, or a list computed from their registrations.
Every task id is registered when ``envpool`` is imported, so importing a family's
``registration`` module registers nothing more (as it would in EnvPool, where it
registers that family's ids).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
from types import ModuleType
from typing import Any

# EnvPool's family packages, as import paths, and the names of their spec classes
# (registry.specs gives them, as EnvPool's does): the native env name decides.
_CLASSIC = {"CartPole", "MountainCar", "MountainCarContinuous", "Pendulum", "Acrobot",
            "Phys2dCartPole", "Phys2dPendulum"}
_BOX2D = {"LunarLander", "BipedalWalker"}


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


class EnvRegistry:
    """``envpool.registration.registry``: EnvPool's registry object, over this package's
    registrations. ``specs`` maps each task id to ``(import path of its family, spec
    class name, {})``; ``make*`` and ``list_all_envs`` are envpool's own functions."""

    @property
    def specs(self) -> dict[str, tuple[str, str, dict[str, Any]]]:
        from envpool.core.registry import all_tasks
        from envpool.core.sdk import OWN_MODULES

        return {task_id: (family_of(task.native_env), spec_class_name(task.native_env), {})
                for task_id, task in all_tasks().items()
                if task.native_module.__name__ in OWN_MODULES}

    @staticmethod
    def list_all_envs() -> list[str]:
        from envpool.core.registry import list_all_envs

        return list_all_envs()

    def __getattr__(self, name: str) -> Any:
        if name in ("make", "make_dm", "make_gym", "make_gymnasium", "make_spec"):
            return getattr(importlib.import_module("envpool.core.make"), name)
        raise AttributeError(name)


registry = EnvRegistry()


def atari_game_list() -> list[str]:
    """EnvPool's ``envpool.atari.registration.atari_game_list``: the ROM names
    (``"air_raid"``) of the registered Atari ids."""
    from envpool.tasks import atari

    return [rom for rom in atari._rom_ids() if rom not in atari.MULTIPLAYER_ONLY_ROMS]


def vizdoom_game_list() -> list[str]:
    """EnvPool's ``envpool.vizdoom.registration._vizdoom_game_list()``: the scenario names
    (``"defend_the_center"``) of the registered ViZDoom ids."""
    from envpool.tasks import vizdoom

    return [s for s in vizdoom.SCENARIOS.values() if s != "vizdoom_custom"]


def gym_mujoco_envs() -> list[tuple[str, tuple[str, ...], int]]:
    """EnvPool's ``envpool.mujoco.gym.registration.gym_mujoco_envs``: ``(task, versions,
    max_episode_steps)`` of the registered MuJoCo ids."""
    from envpool.core.registry import all_tasks

    found: dict[str, tuple[list[str], int]] = {}
    for task_id, task in all_tasks().items():
        if family_of(task.native_env) == "envpool.mujoco.gym":
            name, version = task_id.rsplit("-", 1)
            found.setdefault(name, ([], task.max_episode_steps or 0))[0].append(version)
    return [(name, tuple(sorted(versions)), steps) for name, (versions, steps) in found.items()]


def dmc_mujoco_envs() -> list[tuple[str, str, int]]:
    """EnvPool's ``envpool.mujoco.dmc.registration.dmc_mujoco_envs``: ``(domain, task,
    max_episode_steps)`` of the registered Control Suite ids."""
    from envpool.tasks import dm_control

    return [(domain, task, dm_control.MAX_EPISODE_STEPS)
            for domain, task in dm_control.TASKS.values()]


def gymnasium_robotics_fetch_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_fetch_envs``:
    the registered Fetch ids."""
    from envpool.tasks import robotics

    return robotics.ids()


def gymnasium_robotics_adroit_envs() -> list[str]:
    """EnvPool's ``gymnasium_robotics_adroit_envs``: the registered Adroit hand ids."""
    from envpool.tasks import robotics_adroit

    return robotics_adroit.ids()


def gymnasium_robotics_kitchen_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_kitchen_envs``:
    the registered Franka Kitchen ids."""
    from envpool.tasks import robotics_kitchen

    return robotics_kitchen.ids()


def gymnasium_robotics_hand_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_hand_envs``: the
    registered Shadow Hand ids."""
    from envpool.tasks import robotics_hand

    return robotics_hand.ids()


def gymnasium_robotics_point_maze_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_point_maze_envs``:
    the registered Point Maze ids."""
    from envpool.tasks import robotics_maze

    return robotics_maze.ids()


def metaworld_v3_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.metaworld.registration.metaworld_v3_envs``: the official
    names (``"reach-v3"``) of the registered Meta-World tasks."""
    from envpool.tasks import metaworld

    return list(metaworld.TASKS)


def metaworld_v3_task_ids() -> list[str]:
    """EnvPool's ``metaworld_v3_task_ids``: the ids of the registered Meta-World tasks."""
    from envpool.tasks import metaworld

    return [metaworld.task_id(name) for name in metaworld.TASKS]


def myosuite_task_ids() -> list[str]:
    """EnvPool's ``envpool.mujoco.myosuite.registration.myosuite_task_ids``: the package's
    ids of the registered MyoSuite tasks (each also registered as ``MyoSuite/<id>``)."""
    from envpool.tasks import myosuite

    return list(myosuite.TASKS)


def metaworld_public_task_name(task_name: str) -> str:
    """EnvPool's ``metaworld_public_task_name``: ``"pick-place-v3"`` -> ``"PickPlace-v3"``."""
    from envpool.tasks import metaworld

    return metaworld.task_id(task_name).removeprefix("MetaWorld/")


def py_env(envspec: type, envpool: type) -> tuple[type, type, type]:
    """EnvPool's ``envpool.python.api.py_env(_XEnvSpec, _XEnvPool)``: the spec class and the
    dm and gymnasium pool classes of a raw binding. Here the raw spec class is the family's
    spec class already and every flavour takes such a spec, so these are the flavours."""
    from envpool.core.dm_env import DmEnvPool
    from envpool.core.gymnasium_env import GymnasiumEnvPool

    del envpool  # (one pool class serves every family)
    return envspec, DmEnvPool, GymnasiumEnvPool


def preload_windows_gl_dlls(*_: Any, **__: Any) -> None:
    """EnvPool's ``envpool.python.glfw_context.preload_windows_gl_dlls``: it loads
    OpenGL DLLs on Windows; this package builds for Linux, where there is nothing to
    load."""


_CORE = {
    "make": "envpool.core.make:make",
    "make_dm": "envpool.core.make:make_dm",
    "make_gym": "envpool.core.make:make_gym",
    "make_gymnasium": "envpool.core.make:make_gymnasium",
    "make_spec": "envpool.core.make:make_spec",
    "list_all_envs": "envpool.core.registry:list_all_envs",
}
_PROTOCOL = {
    "ArraySpec": "envpool.core.spec:ArraySpec",
    "EnvSpec": "envpool.core.spec:EnvSpec",
    "EnvPool": "envpool.core.pool:EnvPoolBase",
    "DMEnvPool": "envpool.core.dm_env:DmEnvPool",
    "GymEnvPool": "envpool.core.gym_env:GymEnvPool",
    "GymnasiumEnvPool": "envpool.core.gymnasium_env:GymnasiumEnvPool",
}
_HERE = "envpool.envpool_paths"

# EnvPool's module path -> {name in it: "module:attribute" of this package, or "module:
# attribute()" for a value computed at first access}. A path listed with no names is a
# package (EnvPool's family folders) or a module whose import is all a script needs.
MODULES: dict[str, dict[str, str]] = {
    "envpool.registration": {
        **_CORE,
        "registry": f"{_HERE}:registry",
        "EnvRegistry": f"{_HERE}:EnvRegistry",
    },
    "envpool.python": {},
    "envpool.python.protocol": dict(_PROTOCOL),
    "envpool.python.glfw_context": {"preload_windows_gl_dlls": f"{_HERE}:preload_windows_gl_dlls"},
    "envpool.python.api": {"py_env": f"{_HERE}:py_env"},
    # EnvPool's test env of its multi-player core, as the core's test env here
    "envpool.dummy": {},
    "envpool.dummy.dummy_envpool": {"_DummyEnvSpec": "envpool.envpool_classes:DummyEnvSpec",
                                    "_DummyEnvPool": "envpool.envpool_classes:RawEnvPool"},
    "envpool.classic_control": {},
    "envpool.classic_control.registration": {},
    "envpool.toy_text": {},
    "envpool.toy_text.registration": {},
    "envpool.box2d": {},
    "envpool.box2d.registration": {},
    "envpool.minigrid": {"decode_mission": "envpool.tasks.minigrid:decode_mission"},
    "envpool.minigrid.registration": {},
    "envpool.atari": {},
    "envpool.atari.registration": {"atari_game_list": f"{_HERE}:atari_game_list()"},
    # EnvPool's raw binding of the family (envpool/envpool_classes.py, RawEnvPool)
    "envpool.atari.atari_envpool": {"_AtariEnvSpec": "envpool.envpool_classes:AtariEnvSpec",
                                    "_AtariEnvPool": "envpool.envpool_classes:RawEnvPool"},
    "envpool.vizdoom": {},
    "envpool.vizdoom.registration": {"_vizdoom_game_list": f"{_HERE}:vizdoom_game_list"},
    "envpool.mujoco": {},
    "envpool.mujoco.gym": {},
    "envpool.mujoco.gym.registration": {"gym_mujoco_envs": f"{_HERE}:gym_mujoco_envs()"},
    "envpool.mujoco.dmc": {},
    "envpool.mujoco.dmc.registration": {"dmc_mujoco_envs": f"{_HERE}:dmc_mujoco_envs()"},
    "envpool.mujoco.robotics": {},
    "envpool.mujoco.robotics.registration": {
        "gymnasium_robotics_fetch_envs": f"{_HERE}:gymnasium_robotics_fetch_envs()",
        "gymnasium_robotics_adroit_envs": f"{_HERE}:gymnasium_robotics_adroit_envs()",
        "gymnasium_robotics_kitchen_envs": f"{_HERE}:gymnasium_robotics_kitchen_envs()",
        "gymnasium_robotics_hand_envs": f"{_HERE}:gymnasium_robotics_hand_envs()",
        "gymnasium_robotics_point_maze_envs":
            f"{_HERE}:gymnasium_robotics_point_maze_envs()",
    },
    "envpool.mujoco.metaworld": {},
    "envpool.mujoco.metaworld.registration": {
        "metaworld_v3_envs": f"{_HERE}:metaworld_v3_envs()",
        "metaworld_v3_task_ids": f"{_HERE}:metaworld_v3_task_ids()",
        "metaworld_task_id": "envpool.tasks.metaworld:task_id",
        "metaworld_public_task_name": f"{_HERE}:metaworld_public_task_name",
    },
    "envpool.mujoco.myosuite": {},
    "envpool.mujoco.myosuite.registration": {
        "myosuite_task_ids": f"{_HERE}:myosuite_task_ids()",
    },
}


_POOL_CLASSES = {"DMEnvPool": "envpool.core.dm_env:DmEnvPool",
                 "GymEnvPool": "envpool.core.gym_env:GymEnvPool",
                 "GymnasiumEnvPool": "envpool.core.gymnasium_env:GymnasiumEnvPool"}


def family_classes(path: str) -> dict[str, str]:
    """The classes EnvPool's family package ``path`` holds (``envpool.atari``:
    ``AtariEnvSpec``, ``AtariDMEnvPool``, ``AtariGymEnvPool``, ``AtariGymnasiumEnvPool``),
    as table entries: the spec classes of envpool/envpool_classes.py, the pool classes
    this package's flavours."""
    from envpool.envpool_classes import spec_class_names

    names: dict[str, str] = {}
    for native_env, spec_name in spec_class_names().items():
        if family_of(native_env) == path:
            names[spec_name] = f"envpool.envpool_classes:{spec_name}"
            stem = spec_name.removesuffix("EnvSpec")
            names.update({stem + kind: target for kind, target in _POOL_CLASSES.items()})
    return names


def resolve(target: str) -> Any:
    """The object a table entry names: ``"module:attribute"`` or ``"module:function()"``."""
    module, _, attribute = target.partition(":")
    call = attribute.endswith("()")
    value = getattr(importlib.import_module(module), attribute.removesuffix("()"))
    return value() if call else value


def _is_package(path: str) -> bool:
    return any(other.startswith(path + ".") for other in MODULES)


class _Loader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        names = {**MODULES[module.__name__], **family_classes(module.__name__)}
        cache: dict[str, Any] = {}

        def __getattr__(name: str) -> Any:  # noqa: N807 (PEP 562)
            if name not in names:
                raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")
            if name not in cache:
                cache[name] = resolve(names[name])
            return cache[name]

        module.__getattr__ = __getattr__  # type: ignore[method-assign]
        module.__dir__ = lambda: sorted(names)  # type: ignore[method-assign]
        module.__all__ = [n for n in names if not n.startswith("_")]
        module.__doc__ = (f"sail-sg EnvPool's {module.__name__}, as names of this package "
                          f"(envpool/envpool_paths.py).")


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the modules of :data:`MODULES` (and nothing else)."""

    def find_spec(self, fullname: str, path: Any = None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        package = _is_package(fullname)
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=package)
        # Where EnvPool's file would lie (scripts compute the package's folder from a
        # module's __file__); nothing is read from it.
        root = os.path.dirname(os.path.abspath(__file__))
        parts = fullname.split(".")[1:]
        spec.origin = (os.path.join(root, *parts, "__init__.py") if package
                       else os.path.join(root, *parts) + ".py")
        spec.has_location = True
        if package:
            spec.submodule_search_locations = []
        return spec


def install() -> None:
    """Puts the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
