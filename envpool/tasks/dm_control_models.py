"""The Control Suite's models as dm_control's loaders build them.

Most domains use their XML file as it is. Some loaders edit it first (cartpole
adds poles, ...); the functions here make the same edits with the standard
library's ElementTree, one per domain, named after the dm_control function
they follow. Each returns the XML text and the asset files the model needs
(paths relative to dm_control's ``suite`` folder; the ``./common/*.xml``
includes are always provided).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable


def _read(suite_dir: str, filename: str) -> str:
    with open(os.path.join(suite_dir, filename), encoding="utf-8") as f:
        return f.read()


def _cartpole(suite_dir: str, task_name: str) -> tuple[str, list[str]]:
    """cartpole._make_model(n_poles): a chain of poles, the floor and cameras moved."""
    xml = _read(suite_dir, "cartpole.xml")
    n_poles = {"two_poles": 2, "three_poles": 3}.get(task_name, 1)
    if n_poles == 1:
        return xml, []
    mjcf = ET.fromstring(xml)
    parent = mjcf.find("./worldbody/body/body")
    for pole_index in range(2, n_poles + 1):
        child = ET.Element("body", name=f"pole_{pole_index}", pos="0 0 1", childclass="pole")
        ET.SubElement(child, "joint", name=f"hinge_{pole_index}")
        ET.SubElement(child, "geom", name=f"pole_{pole_index}")
        parent.append(child)
        parent = child
    mjcf.find("./worldbody/geom").set("pos", f"0 0 {1 - n_poles - .05}")
    cameras = mjcf.findall("./worldbody/camera")
    cameras[0].set("pos", f"0 {-1 - 2 * n_poles} 1")
    cameras[1].set("pos", f"0 {-2 * n_poles} 2")
    return ET.tostring(mjcf, encoding="unicode"), []


def _swimmer(suite_dir: str, task_name: str) -> tuple[str, list[str]]:
    """swimmer._make_model(n_bodies): a chain of n - 1 jointed segments after the head,
    a motor, velocimeter and gyro per joint, the tracking cameras moved away."""
    n_bodies = {"swimmer6": 6, "swimmer15": 15}[task_name]
    mjcf = ET.fromstring(_read(suite_dir, "swimmer.xml"))
    head_body = mjcf.find("./worldbody/body")
    actuator = ET.SubElement(mjcf, "actuator")
    sensor = ET.SubElement(mjcf, "sensor")
    parent = head_body
    for body_index in range(n_bodies - 1):
        site_name = f"site_{body_index}"
        # swimmer._make_body
        child = ET.Element("body", name=f"segment_{body_index}")
        child.set("pos", "0 .1 0")
        ET.SubElement(child, "geom", {"class": "visual", "name": f"visual_{body_index}"})
        ET.SubElement(child, "geom", {"class": "inertial", "name": f"inertial_{body_index}"})
        child.append(ET.Element("site", name=site_name))
        joint_name = f"joint_{body_index}"
        joint_limit = 360.0 / n_bodies
        joint_range = f"{-joint_limit} {joint_limit}"
        child.append(ET.Element("joint", {"name": joint_name, "range": joint_range}))
        actuator.append(ET.Element("motor", name=f"motor_{body_index}", joint=joint_name))
        sensor.append(ET.Element("velocimeter", name=f"velocimeter_{body_index}",
                                 site=site_name))
        sensor.append(ET.Element("gyro", name=f"gyro_{body_index}", site=site_name))
        parent.append(child)
        parent = child
    scale = n_bodies / 6.0
    for cam in mjcf.findall("./worldbody/body/camera"):
        if cam.get("mode") == "trackcom":
            cam.set("pos", " ".join(str(float(dim) * scale) for dim in cam.get("pos").split(" ")))
    return ET.tostring(mjcf, encoding="unicode"), []


def _remove(mjcf: ET.Element, tag: str, name: str) -> None:
    """xml_tools.find_element(mjcf, tag, name) removed from its parent."""
    for parent in mjcf.iter():
        for child in list(parent):
            if child.tag == tag and child.get("name") == name:
                parent.remove(child)
                return
    raise ValueError(f"no <{tag}> named {name!r}")


# quadruped.py's task settings: (floor_size, terrain, rangefinders, walls_and_ball);
# _DEFAULT_TIME_LIMIT = 20, _WALK_SPEED = 0.5, _RUN_SPEED = 5.
_QUADRUPED_TASKS = {
    "walk": (20 * 0.5, False, False, False),
    "run": (20 * 5, False, False, False),
    "escape": (40, True, True, False),
    "fetch": (None, False, False, True),
}


def _quadruped(suite_dir: str, task_name: str) -> tuple[str, list[str]]:
    """quadruped.make_model(floor_size, terrain, rangefinders, walls_and_ball)."""
    floor_size, terrain, rangefinders, walls_and_ball = _QUADRUPED_TASKS[task_name]
    mjcf = ET.fromstring(_read(suite_dir, "quadruped.xml"))
    if floor_size is not None:
        floor = mjcf.find(".//geom[@name='floor']")
        floor.set("size", f"{floor_size} {floor_size} .5")
    if not walls_and_ball:
        for wall in ("wall_px", "wall_py", "wall_nx", "wall_ny"):
            _remove(mjcf, "geom", wall)
        _remove(mjcf, "body", "ball")
        _remove(mjcf, "site", "target")
    if not terrain:
        _remove(mjcf, "geom", "terrain")
    if not rangefinders:
        for parent in mjcf.iter():
            for child in list(parent):
                if child.tag == "rangefinder":
                    parent.remove(child)
    return ET.tostring(mjcf, encoding="unicode"), []


def _manipulator(suite_dir: str, task_name: str) -> tuple[str, list[str]]:
    """manipulator.make_model(use_peg, insert): only the task's props are kept."""
    use_peg = task_name in ("bring_peg", "insert_peg")
    insert = task_name in ("insert_ball", "insert_peg")
    required = ["peg", "target_peg"] if use_peg else ["ball", "target_ball"]
    if insert:
        required.append("slot" if use_peg else "cup")
    mjcf = ET.fromstring(_read(suite_dir, "manipulator.xml"))
    for prop in ("ball", "target_ball", "cup", "peg", "target_peg", "slot"):
        if prop not in required:
            _remove(mjcf, "body", prop)
    return ET.tostring(mjcf, encoding="unicode"), []


def _stacker(suite_dir: str, task_name: str) -> tuple[str, list[str]]:
    """stacker.make_model(n_boxes): the boxes from box<n_boxes> on removed."""
    n_boxes = {"stack_2": 2, "stack_4": 4}[task_name]
    mjcf = ET.fromstring(_read(suite_dir, "stacker.xml"))
    for b in range(n_boxes, 4):
        _remove(mjcf, "body", f"box{b}")
    return ET.tostring(mjcf, encoding="unicode"), []


def _lqr(suite_dir: str, task_name: str) -> tuple[str, list[str]]:
    """lqr._make_model(n_bodies, n_actuators): a chain of sliding bodies on springs, the
    first n_actuators driven by motors, consecutive sites joined by (visual) tendons.

    dm_control writes each joint's random stiffness and damping into the XML when it
    builds the env; here the XML holds placeholders (stiffness 20, damping 0) and each env
    draws its own values into its model copy (native/envs/dm_control/lqr.h).
    """
    n_bodies, n_actuators = {"lqr_2_1": (2, 1), "lqr_6_2": (6, 2)}[task_name]
    mjcf = ET.fromstring(_read(suite_dir, "lqr.xml"))
    parent = mjcf.find("./worldbody")
    actuator = ET.SubElement(mjcf, "actuator")
    tendon = ET.SubElement(mjcf, "tendon")
    for body in range(n_bodies):
        # lqr._make_body
        child = ET.Element("body", name=f"body_{body}", pos=".25 0 0")
        ET.SubElement(child, "joint", name=f"joint_{body}", stiffness="20", damping="0")
        ET.SubElement(child, "geom", name=f"geom_{body}")
        ET.SubElement(child, "site", name=f"site_{body}")
        if body == 0:
            child.set("pos", ".25 0 .1")
        if body < n_actuators:
            ET.SubElement(actuator, "motor", name=f"motor_{body}", joint=f"joint_{body}")
        if body < n_bodies - 1:
            spatial = ET.SubElement(tendon, "spatial", name=f"tendon_{body}")
            ET.SubElement(spatial, "site", site=f"site_{body}")
            ET.SubElement(spatial, "site", site=f"site_{body + 1}")
        parent.append(child)
        parent = child
    return ET.tostring(mjcf, encoding="unicode"), []


def _dog(suite_dir: str, task_name: str) -> tuple[str, list[str]]:
    """dog.make_model(floor_size, remove_ball) and every file of dog_assets (meshes, skin,
    textures), as dog.get_model_and_assets gives them.

    Stand, walk, trot and run: a floor of move_speed * 15 (stand uses the walk speed), the
    ball, target, walls and the two cameras aimed at them removed. Fetch keeps them, on a
    floor of 10.
    """
    speed = {"stand": 1, "walk": 1, "trot": 3, "run": 9}.get(task_name)
    remove_ball = speed is not None
    floor_size = 10 if speed is None else speed * 15
    mjcf = ET.fromstring(_read(suite_dir, "dog.xml"))
    mjcf.find(".//geom[@name='floor']").set("size", f"{floor_size} {floor_size} .1")
    if remove_ball:
        _remove(mjcf, "body", "ball")
        _remove(mjcf, "geom", "target")
        _remove(mjcf, "camera", "ball")
        _remove(mjcf, "camera", "head")
        for wall_name in ("px", "nx", "py", "ny"):
            _remove(mjcf, "geom", "wall_" + wall_name)
    assets = sorted(os.listdir(os.path.join(suite_dir, "dog_assets")))
    return ET.tostring(mjcf, encoding="unicode"), [f"dog_assets/{name}" for name in assets]


# domain -> builder(suite_dir, task_name); domains not listed use <domain>.xml as is.
_BUILDERS: dict[str, Callable[[str, str], tuple[str, list[str]]]] = {
    "cartpole": _cartpole,
    "swimmer": _swimmer,
    "manipulator": _manipulator,
    "quadruped": _quadruped,
    "stacker": _stacker,
    "lqr": _lqr,
    "dog": _dog,
}


def build(suite_dir: str, domain: str, task_name: str) -> tuple[str, list[str]]:
    """The model XML of ``domain`` for ``task_name`` and the asset files it needs."""
    builder = _BUILDERS.get(domain)
    if builder is None:
        return _read(suite_dir, f"{domain}.xml"), []
    return builder(suite_dir, task_name)
