"""The values of sail-sg EnvPool's registration modules (``envpool.registration``,
``envpool.atari.registration``, ...) and of its helper modules, computed from this
package's registrations: :mod:`envpool.compat.paths` names them in its table."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, TypedDict

from envpool import tasks
from envpool.compat.names import family_of, native_tasks, spec_class_name
from envpool.core.registry import all_tasks, list_all_envs
from envpool.flavours import make as make_module
from envpool.flavours.dm_env import DmEnvPool
from envpool.flavours.gymnasium_env import GymnasiumEnvPool


class EnvRegistry:
    """``envpool.registration.registry``: EnvPool's registry object, over this package's
    registrations. ``specs`` maps each task id to ``(import path of its family, spec
    class name, {})``; ``make*`` and ``list_all_envs`` are envpool's own functions."""

    @property
    def specs(self) -> dict[str, tuple[str, str, dict[str, Any]]]:
        """Each task id of this package's native envs: ``(family path, spec class, {})``."""
        return {task_id: (family_of(task.native_env), spec_class_name(task.native_env), {})
                for task_id, task in native_tasks().items()}

    @staticmethod
    def list_all_envs() -> list[str]:
        """Every registered task id (``envpool.list_all_envs``)."""
        return list_all_envs()

    def __getattr__(self, name: str) -> Any:
        if name in ("make", "make_dm", "make_gym", "make_gymnasium", "make_spec"):
            return getattr(make_module, name)
        raise AttributeError(name)


registry = EnvRegistry()
#: EnvPool's ``envpool.registration.base_path``: the package's folder (where EnvPool keeps
#: its assets); here, envpool's.
base_path = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def atari_game_list() -> list[str]:
    """EnvPool's ``envpool.atari.registration.atari_game_list``: the ROM names
    (``"air_raid"``) of the registered Atari ids."""
    atari = tasks.atari
    return [rom for rom in atari._rom_ids() if rom not in atari.MULTIPLAYER_ONLY_ROMS]


def vizdoom_game_list() -> list[str]:
    """EnvPool's ``envpool.vizdoom.registration._vizdoom_game_list()``: the scenario names
    (``"defend_the_center"``) of the registered ViZDoom ids."""
    return [s for s in tasks.vizdoom.SCENARIOS.values() if s != "vizdoom_custom"]


def gym_mujoco_envs() -> list[tuple[str, tuple[str, ...], int]]:
    """EnvPool's ``envpool.mujoco.gym.registration.gym_mujoco_envs``: ``(task, versions,
    max_episode_steps)`` of the registered MuJoCo ids."""
    found: dict[str, tuple[list[str], int]] = {}
    for task_id, task in all_tasks().items():
        if family_of(task.native_env) == "envpool.mujoco.gym":
            name, version = task_id.rsplit("-", 1)
            found.setdefault(name, ([], task.max_episode_steps or 0))[0].append(version)
    return [(name, tuple(sorted(versions)), steps) for name, (versions, steps) in found.items()]


def dmc_mujoco_envs() -> list[tuple[str, str, int]]:
    """EnvPool's ``envpool.mujoco.dmc.registration.dmc_mujoco_envs``: ``(domain, task,
    max_episode_steps)`` of the registered Control Suite ids."""
    return [(domain, task, tasks.dm_control.MAX_EPISODE_STEPS)
            for domain, task in tasks.dm_control.TASKS.values()]


def gymnasium_robotics_fetch_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_fetch_envs``:
    the registered Fetch ids."""
    return tasks.robotics.ids()


def gymnasium_robotics_adroit_envs() -> list[str]:
    """EnvPool's ``gymnasium_robotics_adroit_envs``: the registered Adroit hand ids."""
    return tasks.robotics_adroit.ids()


def gymnasium_robotics_kitchen_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_kitchen_envs``:
    the registered Franka Kitchen ids."""
    return tasks.robotics_kitchen.ids()


def gymnasium_robotics_hand_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_hand_envs``: the
    registered Shadow Hand ids."""
    return tasks.robotics_hand.ids()


def gymnasium_robotics_point_maze_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.robotics.registration.gymnasium_robotics_point_maze_envs``:
    the registered Point Maze ids."""
    return tasks.robotics_maze.ids()


def metaworld_v3_envs() -> list[str]:
    """EnvPool's ``envpool.mujoco.metaworld.registration.metaworld_v3_envs``: the official
    names (``"reach-v3"``) of the registered Meta-World tasks."""
    return list(tasks.metaworld.TASKS)


def metaworld_v3_task_ids() -> list[str]:
    """EnvPool's ``metaworld_v3_task_ids``: the ids of the registered Meta-World tasks."""
    return [tasks.metaworld.task_id(name) for name in tasks.metaworld.TASKS]


def myosuite_task_ids() -> list[str]:
    """EnvPool's ``envpool.mujoco.myosuite.registration.myosuite_task_ids``: the package's
    ids of the registered MyoSuite tasks (each also registered as ``MyoSuite/<id>``)."""
    return list(tasks.myosuite.TASKS)


class MyoSuiteTask(TypedDict):
    """One entry of EnvPool's ``envpool.mujoco.myosuite.tasks.MYOSUITE_TASKS``: a MyoSuite
    id and its spaces' sizes and time limit, as this package registers it."""

    id: str
    obs_dim: int
    action_dim: int
    max_episode_steps: int
    #: whether the reference package cannot make the id under numpy 2 (none can't here:
    #: every id is aligned with the package under numpy 2)
    oracle_numpy2_broken: bool


class _MyoSuiteTaskEntry(Mapping[str, Any]):
    """One :class:`MyoSuiteTask`, its sizes and time limit read from the id's spec on first
    use (making a spec reads the id's model, some 0.15 s; EnvPool's list is data it
    generated)."""

    _KEYS = ("id", "obs_dim", "action_dim", "max_episode_steps", "oracle_numpy2_broken")

    def __init__(self, task_id: str) -> None:
        self._id = task_id
        self._values: dict[str, Any] | None = None

    def _read(self) -> dict[str, Any]:
        if self._values is None:
            spec = make_module.make_spec(self._id)
            self._values = dict(MyoSuiteTask(
                id=self._id,
                obs_dim=int(spec.observation_space.shape[0]),
                action_dim=int(spec.action_space.shape[0]),
                max_episode_steps=int(spec.config.max_episode_steps),
                oracle_numpy2_broken=False,
            ))
        return self._values

    def __getitem__(self, key: str) -> Any:
        if key == "id":
            return self._id
        if key == "oracle_numpy2_broken":
            return False
        if key not in self._KEYS:
            raise KeyError(key)
        return self._read()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._KEYS)

    def __len__(self) -> int:
        return len(self._KEYS)

    def __repr__(self) -> str:
        return f"MyoSuiteTask({self._id!r})" if self._values is None else repr(self._values)


def myosuite_tasks() -> list[Mapping[str, Any]]:
    """EnvPool's ``MYOSUITE_TASKS``: each registered MyoSuite id (in
    :func:`myosuite_task_ids`' order) as a :class:`MyoSuiteTask` mapping: its observation
    and action sizes and ``max_episode_steps``, read from its spec when first asked for.
    An id's index in this list is the ``task_id`` its pools' info gives, as in EnvPool
    (whose list has its own order and 33 ids more)."""
    return [_MyoSuiteTaskEntry(task_id) for task_id in myosuite_task_ids()]


#: EnvPool's ``MYOSUITE_ORACLE_NUMPY2_BROKEN_IDS``: the ids the reference package cannot
#: make under numpy 2; none.
myosuite_oracle_numpy2_broken_ids: frozenset[str] = frozenset()
#: EnvPool's ``MYOSUITE_ORACLE_VERSION``: the myosuite version the ids follow.
MYOSUITE_VERSION = tasks.myosuite.MYOSUITE_VERSION


def metaworld_public_task_name(task_name: str) -> str:
    """EnvPool's ``metaworld_public_task_name``: ``"pick-place-v3"`` -> ``"PickPlace-v3"``."""
    return tasks.metaworld.task_id(task_name).removeprefix("MetaWorld/")


def py_env(envspec: type, envpool: type) -> tuple[type, type, type]:
    """EnvPool's ``envpool.python.api.py_env(_XEnvSpec, _XEnvPool)``: the spec class and the
    dm and gymnasium pool classes of a raw binding. Here the raw spec class is the family's
    spec class already and every flavour takes such a spec, so these are the flavours."""
    del envpool  # (one pool class serves every family)
    return envspec, DmEnvPool, GymnasiumEnvPool


def preload_windows_gl_dlls(*_: Any, **__: Any) -> None:
    """EnvPool's ``envpool.python.glfw_context.preload_windows_gl_dlls``: it loads
    OpenGL DLLs on Windows; this package builds for Linux, where there is nothing to
    load."""
