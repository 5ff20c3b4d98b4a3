"""sail-sg EnvPool's module paths, each mapped to this package's names.

EnvPool scripts and EnvPool's own tests import its modules by path::

    import envpool.atari.registration
    from envpool.registration import make_gym, make_spec
    from envpool.python.protocol import EnvPool, EnvSpec

None of those modules is a file here. :data:`MODULES` (the one table of them) says what
each holds in this package, and a finder on ``sys.meta_path`` (installed by
``import envpool``) builds such a module on its first import, with every name read
lazily from the table. Nothing here is a second implementation: each name is an object
of ``envpool.core``, ``envpool.flavours`` or ``envpool.tasks``, one of the compatibility
wing's classes (:mod:`envpool.compat.spec_classes`, :mod:`envpool.compat.raw_pool`), or
a list computed from the registrations (:mod:`envpool.compat.registration`).
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

from envpool.compat.names import family_of, spec_class_names

_CORE = {
    "make": "envpool.flavours.make:make",
    "make_dm": "envpool.flavours.make:make_dm",
    "make_gym": "envpool.flavours.make:make_gym",
    "make_gymnasium": "envpool.flavours.make:make_gymnasium",
    "make_spec": "envpool.flavours.make:make_spec",
    "list_all_envs": "envpool.core.registry:list_all_envs",
}
_POOL_CLASSES = {"DMEnvPool": "envpool.flavours.dm_env:DmEnvPool",
                 "GymEnvPool": "envpool.flavours.gym_env:GymEnvPool",
                 "GymnasiumEnvPool": "envpool.flavours.gymnasium_env:GymnasiumEnvPool"}
_PROTOCOL = {
    "ArraySpec": "envpool.core.array_spec:ArraySpec",
    "EnvSpec": "envpool.core.spec:EnvSpec",
    "EnvPool": "envpool.core.pool:EnvPoolBase",
    **_POOL_CLASSES,
}
_HERE = "envpool.compat.registration"
_CLASSES = "envpool.compat.spec_classes"
_RAW_POOL = "envpool.compat.raw_pool:RawEnvPool"

# EnvPool's module path -> {name in it: "module:attribute" of this package, or "module:
# attribute()" for a value computed at first access}. A path listed with no names is a
# package (EnvPool's family folders) or a module whose import is all a script needs.
MODULES: dict[str, dict[str, str]] = {
    "envpool.registration": {
        **_CORE,
        "registry": f"{_HERE}:registry",
        "base_path": f"{_HERE}:base_path",
        "EnvRegistry": f"{_HERE}:EnvRegistry",
    },
    "envpool.python": {},
    "envpool.python.protocol": dict(_PROTOCOL),
    "envpool.python.glfw_context": {"preload_windows_gl_dlls": f"{_HERE}:preload_windows_gl_dlls"},
    "envpool.python.api": {"py_env": f"{_HERE}:py_env"},
    # EnvPool's test env of its multi-player core, as the core's test env here
    "envpool.dummy": {},
    "envpool.dummy.dummy_envpool": {"_DummyEnvSpec": f"{_CLASSES}:DummyEnvSpec",
                                    "_DummyEnvPool": _RAW_POOL},
    "envpool.classic_control": {},
    "envpool.classic_control.registration": {},
    "envpool.toy_text": {},
    "envpool.toy_text.registration": {},
    "envpool.box2d": {},
    "envpool.box2d.registration": {},
    "envpool.minigrid": {"decode_mission": "envpool.tasks.minigrid:decode_mission"},
    "envpool.minigrid.registration": {},
    "envpool.highway": {},
    "envpool.highway.registration": {},
    "envpool.pgx": {},
    "envpool.pgx.registration": {},
    "envpool.jumanji": {},
    "envpool.jumanji.registration": {
        "jumanji_env_ids": "envpool.tasks.jumanji:ENVPOOL_JUMANJI_ENV_IDS",
        "_TASKS": "envpool.tasks.jumanji:TASKS",
    },
    "envpool.procgen": {},
    "envpool.procgen.registration": {
        "distribution": "envpool.tasks.procgen:distribution()",
        "procgen_game_config": "envpool.tasks.procgen:game_config()",
    },
    "envpool.atari": {},
    "envpool.atari.registration": {"atari_game_list": f"{_HERE}:atari_game_list()"},
    # EnvPool's raw binding of the family (envpool/compat/spec_classes.py, raw_pool.py)
    "envpool.atari.atari_envpool": {"_AtariEnvSpec": f"{_CLASSES}:AtariEnvSpec",
                                    "_AtariEnvPool": _RAW_POOL},
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
    # EnvPool's generated metadata of its MyoSuite ids, as this package's registrations
    "envpool.mujoco.myosuite.tasks": {
        "MYOSUITE_TASKS": f"{_HERE}:myosuite_tasks()",
        "MyoSuiteTask": f"{_HERE}:MyoSuiteTask",
        "MYOSUITE_ORACLE_NUMPY2_BROKEN_IDS": f"{_HERE}:myosuite_oracle_numpy2_broken_ids",
        "MYOSUITE_ORACLE_VERSION": f"{_HERE}:MYOSUITE_VERSION",
    },
    "envpool.mujoco.playground": {},
    "envpool.mujoco.playground.registration": {
        "PLAYGROUND_ENVS": "envpool.tasks.playground:task_names()",
    },
    "envpool.gfootball": {},
    "envpool.gfootball.registration": {},
    # EnvPool's raw binding of the family: its engine oracle (envpool/tasks/gfootball.py)
    "envpool.gfootball.gfootball_envpool": {
        "_GfootballOracleEngine": "envpool.tasks.gfootball:OracleEngine",
    },
}


def family_classes(path: str) -> dict[str, str]:
    """The classes EnvPool's family package ``path`` holds (``envpool.atari``:
    ``AtariEnvSpec``, ``AtariDMEnvPool``, ``AtariGymEnvPool``, ``AtariGymnasiumEnvPool``),
    as table entries: the spec classes of envpool/compat/spec_classes.py, the pool classes
    this package's flavours."""
    names: dict[str, str] = {}
    for native_env, spec_name in spec_class_names().items():
        if family_of(native_env) == path:
            names[spec_name] = f"{_CLASSES}:{spec_name}"
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
                          f"(envpool/compat/paths.py).")


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
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # envpool/
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
