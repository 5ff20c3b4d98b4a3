"""MyoSuite's musculoskeletal tasks (the ``myosuite`` package 2.12.2: its ``myobase``
tasks, MyoChallenge's die reorientation, object relocation, Baoding balls, table tennis and
prosthesis running track, and MyoDM's 190 tracking tasks; 380 tasks in all): the package's ids
(``myoFingerReachFixed-v0``, its muscle-condition variants ``myoSarc...``, ``myoFati...``,
``myoReaf...``) and sail-sg EnvPool's ``MyoSuite/<id>`` spelling of each (760 ids).

Each task class of the package is one native env (``MyoReach``, ...; the Random
subclasses of the object holding and pen twirling tasks, which only add a reset that draws,
are ``MyoObjHold`` and ``MyoPenTwirl`` with ``randomize=True``; the four reorientation
classes are ``MyoReorient`` with ``objects`` naming the class) whose keywords are
the package's own (``model_path``, ``frame_skip``, ``normalize_act``, ``muscle_condition``,
``fatigue_reset_vec``, ``fatigue_reset_random``, ``obs_keys``) or a flat spelling of them:
``target_reach_range={site: (low, high)}`` is ``sites``, ``target_low`` and ``target_high``
(three numbers a site), ``weighted_reward_keys`` is ``reward_keys`` and ``reward_weights``;
the arm reaching ids' ``edit_fn`` (edit_fn_arm_reaching) is ``model_edit="arm_reaching"``.

The models are the installed myosuite package's (``assets_dir`` defaults to its folder,
found without importing it), and so are the reorientation tasks' object tables, which the
package keeps in its Python code: they are read from its ``reorient_sar_v0.py`` with the
``ast`` module (nothing of the package is imported) when a pool is made. myosuite 2.12.2
pins mujoco 3.6 and gymnasium < 1.3; install it with ``pip install --no-deps
myosuite==2.12.2`` next to this package's mujoco.
"""

from __future__ import annotations

import ast
import functools
import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from envpool.core.registry import register
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_blas import native_keywords as blas_keywords
from envpool.tasks._numpy_exp import native_keywords as exp_keywords
from envpool.tasks._numpy_ziggurat import ziggurat_tables

#: The myosuite release whose tasks these are (its ids, models and rules).
MYOSUITE_VERSION = "2.12.2"
ASSETS_DIR = package_path("myosuite")

_FINGER = "simhive/myo_sim/finger/myofinger_v0.xml"
_MOTOR_FINGER = "simhive/myo_sim/finger/motorfinger_v0.xml"
_HAND_POSE = "envs/myo/assets/hand/myohand_pose.xml"
_ELBOW = "envs/myo/assets/elbow/myoelbow_1dof6muscles.xml"
_ELBOW_EXO = "envs/myo/assets/elbow/myoelbow_1dof6muscles_1dofexo.xml"
_KEY_TURN = "envs/myo/assets/hand/myohand_keyturn.xml"
_HOLD = "envs/myo/assets/hand/myohand_hold.xml"
_PEN = "envs/myo/assets/hand/myohand_pen.xml"
_ARM = "simhive/myo_sim/arm/myoarm.xml"

# ReachEnvV0's target_reach_range of each reaching task: site -> (low, high).
_FINGER_FIXED = {"IFtip": ((0.2, 0.05, 0.2), (0.2, 0.05, 0.2))}
_FINGER_RANDOM = {"IFtip": ((0.1, -0.1, 0.1), (0.27, 0.1, 0.3))}
_HAND_FIXED = {
    "THtip": ((-0.165, -0.537, 1.495), (-0.165, -0.537, 1.495)),
    "IFtip": ((-0.151, -0.547, 1.455), (-0.151, -0.547, 1.455)),
    "MFtip": ((-0.146, -0.547, 1.447), (-0.146, -0.547, 1.447)),
    "RFtip": ((-0.148, -0.543, 1.445), (-0.148, -0.543, 1.445)),
    "LFtip": ((-0.148, -0.528, 1.434), (-0.148, -0.528, 1.434)),
}
# The package writes these as the fixed targets -+ offsets; these are its sums.
_HAND_RANDOM = {
    "THtip": ((-0.185, -0.5770000000000001, 1.455), (-0.125, -0.517, 1.5350000000000001)),
    "IFtip": ((-0.191, -0.5670000000000001, 1.445), (-0.11099999999999999, -0.527, 1.465)),
    "MFtip": ((-0.186, -0.5670000000000001, 1.437), (-0.10599999999999998, -0.527, 1.457)),
    "RFtip": ((-0.188, -0.5630000000000001, 1.435), (-0.10799999999999998, -0.523, 1.455)),
    "LFtip": ((-0.188, -0.548, 1.424), (-0.10799999999999998, -0.508, 1.444)),
}
_ARM_FIXED = {"IFtip": ((-0.175, -0.245, 1.405), (-0.175, -0.245, 1.405))}
# Written by the package as the fixed target -+ (0.175, 0.175, 0.425); these are its sums.
_ARM_RANDOM = {"IFtip": ((-0.35, -0.42, 0.98), (0.0, -0.07, 1.83))}


def reach_kwargs(target_reach_range: dict[str, tuple[tuple[float, ...], tuple[float, ...]]],
                 ) -> dict[str, Any]:
    """The native keywords of a ``target_reach_range`` ({site: (low, high)})."""
    return {
        "sites": list(target_reach_range),
        "target_low": [float(x) for low, _ in target_reach_range.values() for x in low],
        "target_high": [float(x) for _, high in target_reach_range.values() for x in high],
    }


def _prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The running numpy's float32 exp (the muscle activation), float64 exp (the leg tasks'
    rewards) and order of ``x.dot(y)`` (envpool/tasks/_numpy_exp.py, _numpy_blas.py)."""
    return {**exp_keywords(), "_numpy_dot_fma": blas_keywords()["_numpy_dot_fma"]}


# id -> (native env, max_episode_steps, keywords).
TASKS: dict[str, tuple[str, int, dict[str, Any]]] = {}


def _add(task_id: str, native: str, max_episode_steps: int, **kwargs: Any) -> None:
    """Adds a task and, as the package's register_env_with_variants does, its
    muscle-condition variants: sarcopenia and fatigue of every ``myo`` id, reafferentation
    (the tendon transfer EIP -> EPL) of the ``myoHand`` ones."""
    TASKS[task_id] = (native, max_episode_steps, kwargs)
    if task_id.startswith("myo"):
        for tag, condition in (("Sarc", "sarcopenia"), ("Fati", "fatigue")):
            TASKS[f"myo{tag}{task_id[3:]}"] = (
                native, max_episode_steps, {**kwargs, "muscle_condition": condition})
    if task_id.startswith("myoHand"):
        TASKS[f"myoReaf{task_id[3:]}"] = (
            native, max_episode_steps, {**kwargs, "muscle_condition": "reafferentation"})


# Fingertip and hand reaching (myobase/reach_v0.py).
_add("motorFingerReachFixed-v0", "MyoReach", 200, model_path=_MOTOR_FINGER, frame_skip=5,
     **reach_kwargs(_FINGER_FIXED))
_add("motorFingerReachRandom-v0", "MyoReach", 200, model_path=_MOTOR_FINGER, frame_skip=5,
     **reach_kwargs(_FINGER_RANDOM))
_add("myoFingerReachFixed-v0", "MyoReach", 100, model_path=_FINGER,
     **reach_kwargs(_FINGER_FIXED))
_add("myoFingerReachRandom-v0", "MyoReach", 100, model_path=_FINGER,
     **reach_kwargs(_FINGER_RANDOM))
_add("myoHandReachFixed-v0", "MyoReach", 100, model_path=_HAND_POSE, far_th=0.044,
     **reach_kwargs(_HAND_FIXED))
_add("myoHandReachRandom-v0", "MyoReach", 100, model_path=_HAND_POSE, far_th=0.034,
     **reach_kwargs(_HAND_RANDOM))
# Arm reaching (myoedits/__init__.py): ReachEnvV0 on the arm model as edit_fn_arm_reaching
# edits it (the digits simplified, the target site added), which model_edit names.
_add("myoArmReachFixed-v0", "MyoReach", 150, model_path=_ARM, far_th=1.0,
     model_edit="arm_reaching", **reach_kwargs(_ARM_FIXED))
_add("myoArmReachRandom-v0", "MyoReach", 150, model_path=_ARM, far_th=1.0,
     model_edit="arm_reaching", **reach_kwargs(_ARM_RANDOM))



# -- Posing (myobase/pose_v0.py) ---------------------------------------------------------


def pose_kwargs(target_jnt_range: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """The native keywords of a ``target_jnt_range`` ({joint: (low, high)}, in qpos order, as
    every registered pose task lists them)."""
    return {
        "target_low": [float(low) for low, _ in target_jnt_range.values()],
        "target_high": [float(high) for _, high in target_jnt_range.values()],
    }


_EXO_WEIGHTS = {"reward_keys": ["pose", "bonus", "act_reg", "penalty"],
                "reward_weights": [1.0, 4.0, 5.0, 50.0]}
_ELBOW_KW = {"viz_site_targets": ["wrist"], "pose_thd": 0.175, "reset_type": "random"}
_add("myoElbowPose1D6MFixed-v0", "MyoPose", 100, model_path=_ELBOW, **_ELBOW_KW,
     **pose_kwargs({"r_elbow_flex": (2, 2)}))
_add("myoElbowPose1D6MRandom-v0", "MyoPose", 100, model_path=_ELBOW, **_ELBOW_KW,
     **pose_kwargs({"r_elbow_flex": (0, 2.27)}))
_add("myoElbowPose1D6MExoFixed-v0", "MyoPose", 100, model_path=_ELBOW_EXO, **_ELBOW_KW,
     **_EXO_WEIGHTS, **pose_kwargs({"r_elbow_flex": (2, 2)}))
_add("myoElbowPose1D6MExoRandom-v0", "MyoPose", 100, model_path=_ELBOW_EXO, **_ELBOW_KW,
     **_EXO_WEIGHTS, weight_bodyname="carry_weight", weight_range=[0.1, 2.0],
     **pose_kwargs({"r_elbow_flex": (0, 2.27)}))

_FINGER_POSE_FIXED = {"IFadb": (0, 0), "IFmcp": (0, 0), "IFpip": (0.75, 0.75),
                      "IFdip": (0.75, 0.75)}
_FINGER_POSE_RANDOM = {"IFadb": (-0.2, 0.2), "IFmcp": (-0.4, 1), "IFpip": (0.1, 1),
                       "IFdip": (0.1, 1)}
_add("motorFingerPoseFixed-v0", "MyoPose", 200, model_path=_MOTOR_FINGER, frame_skip=5,
     **pose_kwargs(_FINGER_POSE_FIXED))
_add("motorFingerPoseRandom-v0", "MyoPose", 200, model_path=_MOTOR_FINGER, frame_skip=5,
     **pose_kwargs(_FINGER_POSE_RANDOM))
_add("myoFingerPoseFixed-v0", "MyoPose", 100, model_path=_FINGER,
     **pose_kwargs(_FINGER_POSE_FIXED))
_add("myoFingerPoseRandom-v0", "MyoPose", 100, model_path=_FINGER,
     **pose_kwargs(_FINGER_POSE_RANDOM))

# The hand's poses: an open hand (myoHandPoseFixed) and the ten poses of the package's ASL
# digits (myoHandPose0Fixed ... myoHandPose9Fixed), 23 joint angles each.
_HAND_OPEN = (0.0, 0.0, 0.0, -0.0904, 0.0824475, -0.681555, -0.514888, 0.0, -0.013964,
              -0.0458132, 0.0, 0.67553, -0.020944, 0.76979, 0.65982, 0.0, 0.0, 0.0, 0.0,
              0.479155, -0.099484, 0.95831, 0.0)
_ASL = (
    (0.0, 0.0, 0.0, 0.5624, 0.28272, -0.75573, -1.309, 1.30045, -0.006982, 1.45492, 0.998897,
     1.26466, 0.0, 1.40604, 0.227795, 1.07614, -0.020944, 1.46103, 0.06284, 0.83263,
     -0.14399, 1.571, 1.38248),
    (0.0, 0.0, 0.0, 0.0248, 0.04536, -0.7854, -1.309, 0.366605, 0.010473, 0.269258, 0.111722,
     1.48459, 0.0, 1.45318, 1.44532, 1.44532, -0.204204, 1.46103, 1.44532, 1.48459, -0.2618,
     1.47674, 1.48459),
    (0.0, 0.0, 0.0, 0.0248, 0.04536, -0.7854, -1.13447, 0.514973, 0.010473, 0.128305,
     0.111722, 0.510575, 0.0, 0.37704, 0.117825, 1.44532, -0.204204, 1.46103, 1.44532,
     1.48459, -0.2618, 1.47674, 1.48459),
    (0.0, 0.0, 0.0, 0.3384, 0.25305, 0.01569, -0.0262045, 0.645885, 0.010473, 0.128305,
     0.111722, 0.510575, 0.0, 0.37704, 0.117825, 1.571, -0.036652, 1.52387, 1.45318, 1.40604,
     -0.068068, 1.39033, 1.571),
    (0.0, 0.0, 0.0, 0.6392, -0.147495, -0.7854, -1.309, 0.637158, 0.010473, 0.128305,
     0.111722, 0.510575, 0.0, 0.37704, 0.117825, 0.306345, -0.010472, 0.400605, 0.133535,
     0.21994, -0.068068, 0.274925, 0.01571),
    (0.0, 0.0, 0.0, 0.3384, 0.25305, 0.01569, -0.0262045, 0.645885, 0.010473, 0.128305,
     0.111722, 0.510575, 0.0, 0.37704, 0.117825, 0.306345, -0.010472, 0.400605, 0.133535,
     0.21994, -0.068068, 0.274925, 0.01571),
    (0.0, 0.0, 0.0, 0.6392, -0.147495, -0.7854, -1.309, 0.637158, 0.010473, 0.128305,
     0.111722, 0.510575, 0.0, 0.37704, 0.117825, 0.306345, -0.010472, 0.400605, 0.133535,
     1.1861, -0.2618, 1.35891, 1.48459),
    (0.0, 0.0, 0.0, 0.524, 0.01569, -0.7854, -1.309, 0.645885, -0.006982, 0.128305, 0.111722,
     0.510575, 0.0, 0.37704, 0.117825, 1.28036, -0.115192, 1.52387, 1.45318, 0.432025,
     -0.068068, 0.18852, 0.149245),
    (0.0, 0.0, 0.0, 0.428, 0.22338, -0.7854, -1.309, 0.645885, -0.006982, 0.128305, 0.194636,
     1.39033, 0.0, 1.08399, 0.573415, 0.667675, -0.020944, 0.0, 0.06284, 0.432025, -0.068068,
     0.18852, 0.149245),
    (0.0, 0.0, 0.0, 0.5624, 0.28272, -0.75573, -1.309, 1.30045, -0.006982, 1.45492, 0.998897,
     0.39275, 0.0, 0.18852, 0.227795, 0.667675, -0.020944, 0.0, 0.06284, 0.432025, -0.068068,
     0.18852, 0.149245),
)
_HAND_KW = {"viz_site_targets": ["THtip", "IFtip", "MFtip", "RFtip", "LFtip"], "pose_thd": 0.7,
            "model_path": _HAND_POSE}
_add("myoHandPoseFixed-v0", "MyoPose", 100, target_type="fixed", target_value=list(_HAND_OPEN),
     **_HAND_KW)
for _digit, _pose in enumerate(_ASL):
    _add(f"myoHandPose{_digit}Fixed-v0", "MyoPose", 100, target_type="fixed",
         target_value=list(_pose), **_HAND_KW)
# myoHandPoseRandom: each joint in the span of the ten poses.
_add("myoHandPoseRandom-v0", "MyoPose", 100, reset_type="random",
     target_low=[min(p[i] for p in _ASL) for i in range(23)],
     target_high=[max(p[i] for p in _ASL) for i in range(23)], **_HAND_KW)

# The torso (myobase/torso_v0.py): the spine's 18 joints held straight (the middle of the
# package's ranges, all 0), without and with the exosuit.
_TORSO_KW = {"target_type": "fixed", "target_value": [0.0] * 18, "viz_site_targets": [],
             "pose_thd": 0.25, "far_th": math.pi, "frame_skip": 5,
             "reward_keys": ["pose", "bonus", "act_reg", "penalty", "done"],
             "reward_weights": [1.0, 4.0, 1.0, 50.0, 0.0]}
_add("myoTorsoPoseFixed-v0", "MyoPose", 200, model_path="simhive/myo_sim/torso/myotorso.xml",
     **_TORSO_KW)
_add("myoTorsoExoPoseFixed-v0", "MyoPose", 200,
     model_path="simhive/myo_sim/torso/myotorso_exosuit.xml", **_TORSO_KW)

# -- Hand manipulation (myobase/key_turn_v0.py, obj_hold_v0.py, pen_v0.py) ---------------

_add("myoHandKeyTurnFixed-v0", "MyoKeyTurn", 200, model_path=_KEY_TURN)
_add("myoHandKeyTurnRandom-v0", "MyoKeyTurn", 200, model_path=_KEY_TURN,
     key_init_range=[-math.pi / 2, math.pi / 2], goal_th=2 * math.pi)
# ObjHoldRandomEnvV0 and PenTwirlRandomEnvV0: the Fixed classes with a reset that draws.
_add("myoHandObjHoldFixed-v0", "MyoObjHold", 75, model_path=_HOLD)
_add("myoHandObjHoldRandom-v0", "MyoObjHold", 75, model_path=_HOLD, randomize=True)
_add("myoHandPenTwirlFixed-v0", "MyoPenTwirl", 50, model_path=_PEN, frame_skip=5)
_add("myoHandPenTwirlRandom-v0", "MyoPenTwirl", 50, model_path=_PEN, frame_skip=5,
     randomize=True)

# -- Legs (myobase/walk_v0.py) --------------------------------------------------------------

_LEGS = "simhive/myo_sim/leg/myolegs.xml"
_add("myoLegStandRandom-v0", "MyoLegReach", 150, model_path=_LEGS, joint_random_range=[-0.2, 0.2],
     far_th=0.44, **reach_kwargs({"pelvis": ((-0.05, -0.05, 0), (0.05, 0.05, 0))}))
_WALK_KW = {"model_path": _LEGS, "min_height": 0.8, "max_rot": 0.8, "hip_period": 100,
            "reset_type": "init", "target_x_vel": 0.0, "target_y_vel": 1.2}
_add("myoLegWalk-v0", "MyoWalk", 1000, **_WALK_KW)
_add("myoLegRoughTerrainWalk-v0", "MyoTerrain", 1000, terrain="rough", **_WALK_KW)
_add("myoLegHillyTerrainWalk-v0", "MyoTerrain", 1000, terrain="hilly", variant="fixed",
     **_WALK_KW)
_add("myoLegStairTerrainWalk-v0", "MyoTerrain", 1000, terrain="stairs", variant="fixed",
     **_WALK_KW)


def _prepare_walk(config: dict[str, Any]) -> dict[str, Any]:
    """_prepare's keywords and numpy's ziggurat tables (reset_type "random" draws normals:
    envpool/tasks/_numpy_ziggurat.py)."""
    return {**_prepare(config), **ziggurat_tables()}


# -- Hand reorientation (myobase/reorient_sar_v0.py) -------------------------------------

_SAR = "envs/myo/assets/hand/myohand_sar.xml"
_REORIENT_SOURCE = "envs/myo/myobase/reorient_sar_v0.py"
# The tables of a reorientation class's reset (its dicts index -> [size, rgba]) by the native
# env's hidden keyword: the shapes in the order of MuJoCo's geom types 3 to 6.
_REORIENT_TABLES = {"_capsule": "caps", "_ellipsoid": "ellips", "_cylinder": "cyl",
                    "_box": "box"}
for _task_id, _cls in (("myoHandReorient8-v0", "Geometries8EnvV0"),
                       ("myoHandReorient100-v0", "Geometries100EnvV0"),
                       ("myoHandReorientID-v0", "InDistribution"),
                       ("myoHandReorientOOD-v0", "OutofDistribution")):
    _add(_task_id, "MyoReorient", 50, model_path=_SAR, frame_skip=5, objects=_cls)


@functools.cache
def reorient_tables(path: str, cls: str) -> dict[str, list[float]]:
    """The object tables of the reorientation class ``cls`` in the package's
    ``reorient_sar_v0.py`` at ``path`` (the dict literals its ``reset`` assigns to ``caps``,
    ``ellips``, ``cyl`` and ``box``): each table flat, seven numbers an entry (the size's
    three, the rgba's four) in index order."""
    expected = ("(myosuite 2.12.2's layout expected: pip install --no-deps "
                "myosuite==2.12.2)")
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except OSError as e:
        raise ImportError(f"the MyoSuite reorientation tasks read their object tables from "
                          f"{path}, which cannot be read ({e}) {expected}") from e
    literals: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "reset":
                    for stmt in item.body:
                        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                                and isinstance(stmt.targets[0], ast.Name)
                                and isinstance(stmt.value, ast.Dict)):
                            try:
                                literals[stmt.targets[0].id] = ast.literal_eval(stmt.value)
                            except ValueError:
                                pass  # not a literal: not a table
    tables = {}
    for keyword, name in _REORIENT_TABLES.items():
        table = literals.get(name)
        if (not isinstance(table, dict) or not table
                or sorted(table) != list(range(len(table)))):
            raise ValueError(f"{path}: {cls}.reset has no table {name!r} indexed 0, 1, ... "
                             f"{expected}")
        flat: list[float] = []
        for index in range(len(table)):
            entry = table[index]
            if (not isinstance(entry, list) or len(entry) != 2
                    or [len(part) for part in entry] != [3, 4]
                    or not all(isinstance(x, (int, float)) for part in entry for x in part)):
                raise ValueError(f"{path}: {cls}.reset's {name}[{index}] is not [size (3 "
                                 f"numbers), rgba (4 numbers)] {expected}")
            flat.extend(float(x) for part in entry for x in part)
        tables[keyword] = flat
    return tables


def _prepare_reorient(config: dict[str, Any]) -> dict[str, Any]:
    """_prepare's keywords and the object tables of the class ``objects`` names, read from the
    package's source (``assets_dir`` is the package's folder)."""
    if not config["assets_dir"]:
        raise ImportError("the MyoSuite reorientation tasks read their model and object tables "
                          "from the myosuite package, which is not installed (pip install "
                          "--no-deps myosuite==2.12.2)")
    path = os.path.join(config["assets_dir"], _REORIENT_SOURCE)
    return {**_prepare(config), **reorient_tables(path, config["objects"])}


# -- Object tracking (myodm/myodm_v0.py, MyoDM) ------------------------------------------

_OBJECT = "envs/myo/assets/hand/myohand_object.xml"
_MOTIONS = "envs/myo/myodm/data"
# The package's MyoHand_task_spec: id, object, motion file (of the package's myodm/data).
_TRACK_MOTIONS = (
    ("MyoHandAirplaneFly-v0", "airplane", "MyoHand_airplane_fly1.npz"),
    ("MyoHandAirplaneLift-v0", "airplane", "MyoHand_airplane_lift.npz"),
    ("MyoHandAirplanePass-v0", "airplane", "MyoHand_airplane_pass1.npz"),
    ("MyoHandAlarmclockLift-v0", "alarmclock", "MyoHand_alarmclock_lift.npz"),
    ("MyoHandAlarmclockSee-v0", "alarmclock", "MyoHand_alarmclock_see1.npz"),
    ("MyoHandAppleLift-v0", "apple", "MyoHand_apple_lift.npz"),
    ("MyoHandApplePass-v0", "apple", "MyoHand_apple_pass1.npz"),
    ("MyoHandBananaPass-v0", "banana", "MyoHand_banana_pass1.npz"),
    ("MyoHandCupDrink-v0", "cup", "MyoHand_cup_drink1.npz"),
    ("MyoHandCupPass-v0", "cup", "MyoHand_cup_pass1.npz"),
    ("MyoHandCupPour-v0", "cup", "MyoHand_cup_pour1.npz"),
    ("MyoHandDuckInspect-v0", "duck", "MyoHand_duck_inspect1.npz"),
    ("MyoHandDuckLift-v0", "duck", "MyoHand_duck_lift.npz"),
    ("MyoHandElephantLift-v0", "elephant", "MyoHand_elephant_lift.npz"),
    ("MyoHandElephantPass-v0", "elephant", "MyoHand_elephant_pass1.npz"),
    ("MyoHandFlashlightLift-v0", "flashlight", "MyoHand_flashlight_lift.npz"),
    ("MyoHandFlashlight1On-v0", "flashlight", "MyoHand_flashlight_on1.npz"),
    ("MyoHandFlashlight2On-v0", "flashlight", "MyoHand_flashlight_on2.npz"),
    ("MyoHandHammerUse-v0", "hammer", "MyoHand_hammer_use1.npz"),
    ("MyoHandMouseLift-v0", "mouse", "MyoHand_mouse_lift.npz"),
    ("MyoHandMugDrink3-v0", "mug", "MyoHand_mug_drink3.npz"),
    ("MyoHandScissorsUse-v0", "scissors", "MyoHand_scissors_use1.npz"),
    ("MyoHandSpheremediumLift-v0", "spheremedium", "MyoHand_spheremedium_lift.npz"),
    ("MyoHandStampStamp-v0", "stamp", "MyoHand_stamp_stamp1.npz"),
    ("MyoHandStanfordbunnyInspect-v0", "stanfordbunny", "MyoHand_stanfordbunny_inspect1.npz"),
    ("MyoHandStaplerLift-v0", "stapler", "MyoHand_stapler_lift.npz"),
    ("MyoHandToothpasteLift-v0", "toothpaste", "MyoHand_toothpaste_lift.npz"),
    ("MyoHandToruslargeInspect-v0", "toruslarge", "MyoHand_toruslarge_inspect1.npz"),
    ("MyoHandTrainPlay-v0", "train", "MyoHand_train_play1.npz"),
    ("MyoHandWatchLift-v0", "watch", "MyoHand_watch_lift.npz"),
    ("MyoHandWaterbottleShake-v0", "waterbottle", "MyoHand_waterbottle_shake1.npz"),
    ("MyoHandWineglassDrink2-v0", "wineglass", "MyoHand_wineglass_drink2.npz"),
    ("MyoHandWineglassLift-v0", "wineglass", "MyoHand_wineglass_lift.npz"),
    ("MyoHandStampLift-v0", "stamp", "MyoHand_stamp_lift.npz"),
    ("MyoHandStaplerStaple1-v0", "stapler", "MyoHand_stapler_staple1.npz"),
    ("MyoHandStaplerStaple2-v0", "stapler", "MyoHand_stapler_staple2.npz"),
    ("MyoHandTeapotPour2-v0", "teapot", "MyoHand_teapot_pour2.npz"),
    ("MyoHandToothbrushBrush1-v0", "toothbrush", "MyoHand_toothbrush_brush1.npz"),
    ("MyoHandBowlDrink2-v0", "bowl", "MyoHand_bowl_drink2.npz"),
    ("MyoHandBowlPass-v0", "bowl", "MyoHand_bowl_pass1.npz"),
    ("MyoHandToothpasteSqueeze1-v0", "toothpaste", "MyoHand_toothpaste_squeeze1.npz"),
    ("MyoHandToruslargeLift-v0", "toruslarge", "MyoHand_toruslarge_lift.npz"),
    ("MyoHandTorusmediumLift-v0", "torusmedium", "MyoHand_torusmedium_lift.npz"),
    ("MyoHandCubesmallPass-v0", "cubesmall", "MyoHand_cubesmall_pass1.npz"),
    ("MyoHandTorussmallLift-v0", "torussmall", "MyoHand_torussmall_lift.npz"),
    ("MyoHandMugLift-v0", "mug", "MyoHand_mug_lift.npz"),
    ("MyoHandTorussmallPass-v0", "torussmall", "MyoHand_torussmall_pass1.npz"),
    ("MyoHandPhoneLift-v0", "phone", "MyoHand_phone_lift.npz"),
    ("MyoHandCylindermediumLift-v0", "cylindermedium", "MyoHand_cylindermedium_lift.npz"),
    ("MyoHandWatchPass-v0", "watch", "MyoHand_watch_pass1.npz"),
    ("MyoHandCylindersmallInspect-v0", "cylindersmall", "MyoHand_cylindersmall_inspect1.npz"),
    ("MyoHandCylindersmallPass-v0", "cylindersmall", "MyoHand_cylindersmall_pass1.npz"),
    ("MyoHandPyramidsmallInspect-v0", "pyramidsmall", "MyoHand_pyramidsmall_inspect1.npz"),
    ("MyoHandWineglassToast1-v0", "wineglass", "MyoHand_wineglass_toast1.npz"),
    ("MyoHandSpheresmallInspect-v0", "spheresmall", "MyoHand_spheresmall_inspect1.npz"),
    ("MyoHandSpheresmallLift-v0", "spheresmall", "MyoHand_spheresmall_lift.npz"),
    ("MyoHandSpheresmallPass-v0", "spheresmall", "MyoHand_spheresmall_pass1.npz"),
    ("MyoHandAlarmclockPass-v0", "alarmclock", "MyoHand_alarmclock_pass1.npz"),
    ("MyoHandBinocularsPass-v0", "binoculars", "MyoHand_binoculars_pass1.npz"),
    ("MyoHandDuckPass-v0", "duck", "MyoHand_duck_pass1.npz"),
    ("MyoHandEyeglassesPass-v0", "eyeglasses", "MyoHand_eyeglasses_pass1.npz"),
    ("MyoHandFlashlightPass-v0", "flashlight", "MyoHand_flashlight_pass1.npz"),
    ("MyoHandFlutePass-v0", "flute", "MyoHand_flute_pass1.npz"),
    ("MyoHandHammerPass-v0", "hammer", "MyoHand_hammer_pass1.npz"),
    ("MyoHandHandInspect-v0", "hand", "MyoHand_hand_inspect1.npz"),
    ("MyoHandHeadphonesPass-v0", "headphones", "MyoHand_headphones_pass1.npz"),
    ("MyoHandKnifeChop-v0", "knife", "MyoHand_knife_chop1.npz"),
    ("MyoHandLightbulbPass-v0", "lightbulb", "MyoHand_lightbulb_pass1.npz"),
    ("MyoHandMouseUse-v0", "mouse", "MyoHand_mouse_use1.npz"),
    ("MyoHandPiggybankUse-v0", "piggybank", "MyoHand_piggybank_use1.npz"),
    ("MyoHandToothbrushLift-v0", "toothbrush", "MyoHand_toothbrush_lift.npz"),
    ("MyoHandWaterbottleLift-v0", "waterbottle", "MyoHand_waterbottle_lift.npz"),
    ("MyoHandWineglassPass-v0", "wineglass", "MyoHand_wineglass_pass1.npz"),
    ("MyoHandStanfordbunnyPass-v0", "stanfordbunny", "MyoHand_stanfordbunny_pass1.npz"),
    ("MyoHandCameraPass-v0", "camera", "MyoHand_camera_pass1.npz"),
    ("MyoHandCubelargePass-v0", "cubelarge", "MyoHand_cubelarge_pass1.npz"),
    ("MyoHandCubemediumLInspect-v0", "cubemedium", "MyoHand_cubemedium_inspect1.npz"),
    ("MyoHandMousePass-v0", "mouse", "MyoHand_mouse_pass1.npz"),
    ("MyoHandCubesmallLift-v0", "cubesmall", "MyoHand_cubesmall_lift.npz"),
    ("MyoHandTorusmediumPass-v0", "torusmedium", "MyoHand_torusmedium_pass1.npz"),
    ("MyoHandMugPass-v0", "mug", "MyoHand_mug_pass1.npz"),
    ("MyoHandPiggybankPass-v0", "wineglass", "MyoHand_piggybank_pass1.npz"),
    ("MyoHandCylindermediumPass-v0", "cylindermedium", "MyoHand_cylindermedium_pass1.npz"),
    ("MyoHandPyramidlargePass-v0", "pyramidlarge", "MyoHand_pyramidlarge_pass1.npz"),
    ("MyoHandWaterbottlePass-v0", "waterbottle", "MyoHand_waterbottle_pass1.npz"),
    ("MyoHandPyramidmediumPass-v0", "pyramidmedium", "MyoHand_pyramidmedium_pass1.npz"),
    ("MyoHandSpherelargePass-v0", "spherelarge", "MyoHand_spherelarge_pass1.npz"),
    ("MyoHandSpheremediumInspect-v0", "spheremedium", "MyoHand_spheremedium_inspect1.npz"),
    ("MyoHandCylinderlargeInspect-v0", "cylinderlarge", "MyoHand_cylinderlarge_inspect1.npz"),
    ("MyoHandGamecontrollerPass-v0", "gamecontroller", "MyoHand_gamecontroller_pass1.npz"),
)
for _task_id, _object, _motion in _TRACK_MOTIONS:
    _add(_task_id, "MyoTrack", 75, model_path=_OBJECT, object_name=_object, motion=_motion)
_TRACK_OBJECTS = (
    "airplane", "alarmclock", "apple", "banana", "binoculars", "bowl", "camera", "coffeemug",
    "cubelarge", "cubemedium", "cubesmall", "cup", "cylinderlarge", "cylindermedium",
    "cylindersmall", "duck", "elephant", "eyeglasses", "flashlight", "flute", "gamecontroller",
    "hammer", "hand", "headphones", "knife", "lightbulb", "mouse", "mug", "phone", "piggybank",
    "pyramidlarge", "pyramidmedium", "pyramidsmall", "scissors", "spherelarge", "spheremedium",
    "spheresmall", "stamp", "stanfordbunny", "stapler", "teapot", "toothbrush", "toothpaste",
    "toruslarge", "torusmedium", "torussmall", "train", "watch", "waterbottle", "wineglass",
)
for _object in _TRACK_OBJECTS:
    for _kind in ("Fixed", "Random"):
        _add(f"MyoHand{_object.title()}{_kind}-v0", "MyoTrack", 50, model_path=_OBJECT,
             object_name=_object, reference=_kind.lower())

# The inline references of the Fixed and Random ids, as the package's registration writes
# them (29 hand joints): time, robot, robot_vel, object_init, object (rows).
_TRACK_INLINE = {
    "fixed": {"time": (0.0, 4.0), "robot": np.zeros((1, 29)), "robot_vel": np.zeros((1, 29)),
              "object_init": np.array((-.2, -.2, 0.1, 1.0, 0.0, 0.0, 0.0)),
              "object": np.reshape(np.array((.2, .2, 0.1, 1.0, 0.0, 0.0, 0.1)), (1, 7))},
    "random": {"time": (0.0, 4.0), "robot": np.zeros((2, 29)), "robot_vel": np.zeros((2, 29)),
               "object_init": np.array((0.0, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0)),
               "object": np.array([[-.2, -.2, 0.1, 1.0, 0.0, 0.0, -1.0],
                                   [0.2, 0.2, 0.1, 1.0, 0.0, 0.0, 1.0]])},
}


def _euler2quat(euler: np.ndarray) -> np.ndarray:
    """quat_math.euler2quat of one triple, with numpy's functions (as the package)."""
    ai, aj, ak = euler[2] / 2, -euler[1] / 2, euler[0] / 2
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs = ci * ck, ci * sk
    sc, ss = si * ck, si * sk
    quat = np.empty(4)
    quat[0] = cj * cc + sj * ss
    quat[3] = cj * sc - sj * cs
    quat[2] = -(cj * ss + sj * cc)
    quat[1] = cj * cs - sj * sc
    return quat


def _quat2euler(quat: np.ndarray) -> np.ndarray:
    """quat_math.quat2euler (quat2mat, then mat2euler) of one quaternion, with numpy's
    functions and in the package's order of operations (numpy's arctan2 is not the C
    library's everywhere, so this runs here rather than in C++)."""
    eps = np.finfo(np.float64).eps
    quat = np.asarray(quat, dtype=np.float64)
    w, x, y, z = quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]
    nq = np.sum(quat * quat, axis=-1)
    s = 2.0 / nq
    xs, ys, zs = x * s, y * s, z * s
    wx, wy, wz = w * xs, w * ys, w * zs
    xx, xy, xz = x * xs, x * ys, x * zs
    yy, yz, zz = y * ys, y * zs, z * zs
    mat = np.empty((3, 3))
    mat[0, 0] = 1.0 - (yy + zz)
    mat[0, 1] = xy - wz
    mat[0, 2] = xz + wy
    mat[1, 0] = xy + wz
    mat[1, 1] = 1.0 - (xx + zz)
    mat[1, 2] = yz - wx
    mat[2, 0] = xz - wy
    mat[2, 1] = yz + wx
    mat[2, 2] = 1.0 - (xx + yy)
    mat = np.where((nq > eps)[..., np.newaxis, np.newaxis], mat, np.eye(3))
    cy = np.sqrt(mat[..., 2, 2] * mat[..., 2, 2] + mat[..., 1, 2] * mat[..., 1, 2])
    condition = cy > eps * 4.0
    euler = np.empty(3)
    euler[..., 2] = np.where(condition, -np.arctan2(mat[..., 0, 1], mat[..., 0, 0]),
                             -np.arctan2(-mat[..., 1, 0], mat[..., 1, 1]))
    euler[..., 1] = np.where(condition, -np.arctan2(-mat[..., 0, 2], cy),
                             -np.arctan2(-mat[..., 0, 2], cy))
    euler[..., 0] = np.where(condition, -np.arctan2(mat[..., 1, 2], mat[..., 2, 2]), 0.0)
    return euler


@functools.cache
def track_reference(source: str) -> dict[str, Any]:
    """The hidden keywords of a MyoTrack reference: ``source`` is a motion file's path (an
    npz of the package) or "fixed" / "random" (the inline references). What ReferenceMotion
    makes of it: the times rounded to 4 decimals; robot_init the first robot row and
    object_init the first object row unless given, a 6-number object_init (position, Euler
    angles) turned into position and quaternion; the start qpos's head (robot_init, the
    object's position, the Euler angles of its quaternion)."""
    if source in _TRACK_INLINE:
        ref = dict(_TRACK_INLINE[source])
    else:
        try:
            with np.load(source) as data:
                ref = {k: np.asarray(v) for k, v in data.items()}
        except OSError as e:
            raise ImportError(f"the MyoDM tracking tasks read their motion from {source}, "
                              f"which cannot be read ({e}) (myosuite 2.12.2's motion files "
                              "expected: pip install --no-deps myosuite==2.12.2)") from e
    robot, obj = np.asarray(ref["robot"]), np.asarray(ref["object"])
    robot_init = np.asarray(ref["robot_init"]) if "robot_init" in ref else robot[0]
    object_init = np.asarray(ref["object_init"]) if "object_init" in ref else obj[0]
    if object_init.shape[0] == 6 and obj.shape[1] == 7:
        object_init = np.concatenate([object_init[:3], _euler2quat(object_init[3:])])
    robot_vel = ref.get("robot_vel")
    head = [*robot_init.tolist(), *object_init[:3].tolist(),
            *_quat2euler(object_init[3:]).tolist()]
    return {
        "_ref_time": np.around(np.asarray(ref["time"]), 4).tolist(),
        "_ref_robot": robot.ravel().tolist(),
        "_ref_robot_vel": [] if robot_vel is None else np.asarray(robot_vel).ravel().tolist(),
        "_ref_object": obj.ravel().tolist(),
        "_robot_dim": int(robot.shape[1]),
        "_init_qpos_head": head,
    }


def _prepare_track(config: dict[str, Any]) -> dict[str, Any]:
    """_prepare's keywords and the reference (``motion``: a motion file of the package's
    myodm/data, read here; else ``reference``: "fixed" or "random")."""
    if not config["assets_dir"]:
        raise ImportError("the MyoDM tracking tasks read their model and motions from the "
                          "myosuite package, which is not installed (pip install --no-deps "
                          "myosuite==2.12.2)")
    motion = config.get("motion") or ""
    source = (os.path.join(config["assets_dir"], _MOTIONS, motion) if motion
              else config.get("reference") or "fixed")
    return {**_prepare(config), **track_reference(source)}


# -- MyoChallenge 2022: die reorientation (myochallenge/reorient_v0.py) -------------------

_DIE = "envs/myo/assets/hand/myohand_die.xml"
_add("myoChallengeDieReorientDemo-v0", "MyoChallengeDieReorient", 150, model_path=_DIE,
     frame_skip=5, pos_th=math.inf, goal_pos=[0.0, 0.0], goal_rot=[-0.785, 0.785])
_add("myoChallengeDieReorientP1-v0", "MyoChallengeDieReorient", 150, model_path=_DIE,
     frame_skip=5, goal_pos=[-0.010, 0.010], goal_rot=[-1.57, 1.57])
_add("myoChallengeDieReorientP2-v0", "MyoChallengeDieReorient", 150, model_path=_DIE,
     frame_skip=5, goal_pos=[-0.020, 0.020], goal_rot=[-3.14, 3.14], obj_size_change=0.007,
     obj_mass_range=[0.050, 0.250], obj_friction_change=[0.2, 0.001, 0.00002])


# -- MyoChallenge 2023: object relocation (myochallenge/relocate_v0.py) -------------------


def relocate_kwargs(**ranges: dict[str, Any]) -> dict[str, Any]:
    """The native keywords of RelocateEnvV0's range dicts ({"low": ..., "high": ...}):
    ``<name>_low`` and ``<name>_high`` (lists)."""
    flat: dict[str, Any] = {}
    for name, bounds in ranges.items():
        for side in ("low", "high"):
            value = bounds[side]
            flat[f"{name}_{side}"] = ([float(x) for x in value] if isinstance(value, (list, tuple))
                                      else [float(value)])
    return flat


_RELOCATE = "envs/myo/assets/arm/myoarm_relocate.xml"
_RELOCATE_KW = {"model_path": _RELOCATE, "frame_skip": 5, "pos_th": 0.1, "rot_th": math.inf}
_add("myoChallengeRelocateP1-v0", "MyoChallengeRelocate", 150, **_RELOCATE_KW,
     **relocate_kwargs(target_xyz={"high": [0.2, -.1, 0.9], "low": [0.0, -.35, 0.9]},
                       target_rxryrz={"high": [0.0, 0.0, 0.0], "low": [0.0, 0.0, 0.0]}))
_RELOCATE_FRICTION = {"high": [1.2, 0.006, 0.00012], "low": [0.8, 0.004, 0.00008]}
_add("myoChallengeRelocateP2-v0", "MyoChallengeRelocate", 150, **_RELOCATE_KW,
     qpos_noise_range=[0.01],
     **relocate_kwargs(target_xyz={"high": [0.3, -.1, 1.05], "low": [0.0, -.45, 0.9]},
                       target_rxryrz={"high": [0.2, 0.2, 0.2], "low": [-.2, -.2, -.2]},
                       obj_xyz={"high": [0.1, -.15, 1.0], "low": [-0.1, -.35, 1.0]},
                       obj_geom={"high": [.025, .025, .025], "low": [.015, 0.015, 0.015]},
                       obj_mass={"high": 0.200, "low": 0.050},
                       obj_friction=_RELOCATE_FRICTION))
_add("myoChallengeRelocateP2eval-v0", "MyoChallengeRelocate", 150, **_RELOCATE_KW,
     qpos_noise_range=[0.015],
     **relocate_kwargs(target_xyz={"high": [0.4, -.1, 1.1], "low": [-.5, -.5, .9]},
                       target_rxryrz={"high": [.3, .3, .3], "low": [-.3, -.3, -.3]},
                       obj_xyz={"high": [0.15, -.10, 1.0], "low": [-0.20, -.40, 1.0]},
                       obj_geom={"high": [.025, .025, .035], "low": [.015, 0.015, 0.015]},
                       obj_mass={"high": 0.300, "low": 0.050},
                       obj_friction=_RELOCATE_FRICTION))


# -- MyoChallenge 2022: Baoding balls (myochallenge/baoding_v1.py) --------------------------

_BAODING = "envs/myo/assets/hand/myohand_baoding.xml"
_add("myoChallengeBaodingP1-v1", "MyoChallengeBaoding", 200, model_path=_BAODING,
     goal_time_period=[5.0, 5.0], goal_xrange=[0.025, 0.025], goal_yrange=[0.028, 0.028])
_add("myoChallengeBaodingP2-v1", "MyoChallengeBaoding", 200, model_path=_BAODING,
     goal_time_period=[4.0, 6.0], goal_xrange=[0.020, 0.030], goal_yrange=[0.022, 0.032],
     obj_size_range=[0.018, 0.024], obj_mass_range=[0.030, 0.300],
     obj_friction_change=[0.2, 0.001, 0.00002], task_choice="random")

# -- MyoChallenge 2025: table tennis (myochallenge/tabletennis_v0.py) ----------------------
# The model is the XML's spec as TableTennisEnvV0._preprocess_spec edits it (model_edit.h);
# the range dicts are flat (relocate_kwargs), paddle_mass_range a list.

_TABLE_TENNIS = "envs/myo/assets/arm/myoarm_tabletennis.xml"
_add("myoChallengeTableTennisP0-v0", "MyoChallengeTableTennis", 300, model_path=_TABLE_TENNIS,
     frame_skip=5)
_add("myoChallengeTableTennisP1-v0", "MyoChallengeTableTennis", 300, model_path=_TABLE_TENNIS,
     frame_skip=5,
     **relocate_kwargs(ball_xyz={"high": [-1.20, -0.45, 1.5], "low": [-1.25, -0.5, 1.4]}))
_add("myoChallengeTableTennisP2-v0", "MyoChallengeTableTennis", 300, model_path=_TABLE_TENNIS,
     frame_skip=5, ball_qvel=True, paddle_mass_range=[0.10, 0.15],
     **relocate_kwargs(ball_xyz={"high": [-0.8, 0.5, 1.5], "low": [-1.25, -0.5, 1.4]},
                       ball_friction={"high": [1.1, 0.006, 0.00003],
                                      "low": [0.9, 0.004, 0.00001]}))

# -- MyoChallenge 2024: the prosthesis running track (myochallenge/run_track_v0.py) ---------

_OSL_RUN = "envs/myo/assets/leg/myoosl_runtrack.xml"
# The gait cycle reset_type "osl_init" starts from (read when a pool is made).
_GAIT_CYCLE = "envs/myo/assets/leg/sample_gait_cycle.csv"
# The Random id's difficulties: 24 patches, the first five and the last three flat.
_OSL_RUN_RAMP = [0.0, 0.0, 0.0, 0.0, 0.0, 0.03, 0.0, 0.06, 0.0, 0.09, 0.0, 0.12, 0.0, 0.15,
                 0.0, 0.18, 0.0, 0.21, 0.0, 0.24, 0.0, 0.0, 0.0, 0.0]
_add("myoChallengeOslRunFixed-v0", "MyoChallengeOslRun", 1000, model_path=_OSL_RUN,
     frame_skip=5, reset_type="random", terrain="flat",
     hills_difficulties=[0.0, 0.1, 0.0, 0.5, 0.0, 0.8, 0.0, 1.0],
     rough_difficulties=[0.0, 0.1, 0.0, 0.15, 0.0, 0.2, 0.0, 0.3],
     stairs_difficulties=[0.0, 0.05, 0.0, 0.1, 0.0, 0.2, 0.0, 0.3],
     end_pos=-15.0, start_pos=14.0, init_pose_path=_GAIT_CYCLE)
_add("myoChallengeOslRunRandom-v0", "MyoChallengeOslRun", 60000, model_path=_OSL_RUN,
     frame_skip=5, reset_type="random", terrain="random", hills_difficulties=_OSL_RUN_RAMP,
     rough_difficulties=_OSL_RUN_RAMP, stairs_difficulties=_OSL_RUN_RAMP,
     end_pos=-45.0, start_pos=58.0, init_pose_path=_GAIT_CYCLE)


# -- MyoChallenge 2024: bimanual handover (myochallenge/bimanual_v0.py) -------------------

_add("myoChallengeBimanual-v0", "MyoChallengeBimanual", 1000,
     model_path="envs/myo/assets/arm/myoarm_bionic_bimanual.xml", frame_skip=5,
     obj_scale_change=[0.1, 0.05, 0.1], obj_mass_change=[-0.050, 0.050],
     obj_friction_change=[0.1, 0.001, 0.00002])


# -- MyoChallenge 2023: locomotion, chase tag (myochallenge/chasetag_v0.py) ---------------

_CHASE_TAG_KW = {"model_path": "envs/myo/assets/leg/myolegs_chasetag.xml", "normalize_act": True,
                 "win_distance": 0.5, "min_spawn_distance": 2.0}
_add("myoChallengeChaseTagP1-v0", "MyoChallengeChaseTag", 2000, **_CHASE_TAG_KW,
     reset_type="init", terrain="FLAT", task_choice="CHASE", hills_range=[0.0, 0.0],
     rough_range=[0.0, 0.0], relief_range=[0.0, 0.0], opponent_probabilities=[0.1, 0.45, 0.45])
_add("myoChallengeChaseTagP2-v0", "MyoChallengeChaseTag", 2000, **_CHASE_TAG_KW,
     reset_type="random", terrain="random", task_choice="random", hills_range=[0.03, 0.23],
     rough_range=[0.05, 0.1], relief_range=[0.1, 0.3], repeller_opponent=False,
     chase_vel_range=[1.0, 1.0], random_vel_range=[-2.0, 2.0],
     opponent_probabilities=[0.1, 0.45, 0.45])
_add("myoChallengeChaseTagP2eval-v0", "MyoChallengeChaseTag", 2000, **_CHASE_TAG_KW,
     reset_type="random", terrain="random", task_choice="random", hills_range=[0.03, 0.23],
     rough_range=[0.05, 0.1], relief_range=[0.1, 0.3], repeller_opponent=True,
     chase_vel_range=[1.0, 5.0], random_vel_range=[-2.0, 2.0], repeller_vel_range=[0.3, 1.0],
     opponent_probabilities=[0.1, 0.35, 0.35, 0.2])

_RELIEF = "envs/myo/assets/myo_relief.npy"


@functools.cache
def _relief(assets_dir: str) -> tuple[float, ...]:
    """The relief patch of ChaseTagField (the package's ``myo_relief.npy``, 33 x 33 uint8),
    flattened in C order."""
    return tuple(float(x) for x in np.load(os.path.join(assets_dir, _RELIEF)).ravel())


def _prepare_chase_tag(config: dict[str, Any]) -> dict[str, Any]:
    """_prepare_walk's keywords (the opponent's noise and the random start draw normals) and,
    with a terrain, the relief patch read from the package (``_relief``)."""
    prepared = _prepare_walk(config)
    if config.get("terrain", "FLAT") != "FLAT":
        if not config["assets_dir"]:
            raise ImportError("the MyoChallenge chase-tag terrain reads myo_relief.npy from the "
                              "myosuite package, which is not installed (pip install "
                              "--no-deps myosuite==2.12.2)")
        prepared["_relief"] = list(_relief(config["assets_dir"]))
    return prepared


# -- MyoChallenge 2025: soccer (myochallenge/soccer_v0.py) ---------------------------------

_SOCCER = "envs/myo/assets/leg_soccer/myolegs_soccer.xml"
_add("myoChallengeSoccerP1-v0", "MyoChallengeSoccer", 2000, model_path=_SOCCER,
     min_agent_spawn_distance=1.0, reset_type="none", goalkeeper_probabilities=[0.0, 0.0, 1.0])
_add("myoChallengeSoccerP2-v0", "MyoChallengeSoccer", 2000, model_path=_SOCCER,
     min_agent_spawn_distance=1.0, reset_type="random",
     goalkeeper_probabilities=[0.1, 0.3, 0.6], max_time_sec=10.0)


_PREPARE = {"MyoWalk": _prepare_walk, "MyoTerrain": _prepare_walk,
            "MyoReorient": _prepare_reorient,
            "MyoTrack": _prepare_track,
            "MyoChallengeChaseTag": _prepare_chase_tag,
            # The goalkeeper's colored noise draws normals (numpy's ziggurat).
            "MyoChallengeSoccer": _prepare_walk}


def _with_task_index(prepare: Callable[[dict[str, Any]], dict[str, Any]],
                     index: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """``prepare``'s hidden keywords and ``_task_index``: the id's index in TASKS (the order
    of EnvPool's ``MYOSUITE_TASKS`` here, envpool/compat/registration.py), which the info
    gives as ``task_id``, as EnvPool's does."""
    return lambda config: {**prepare(config), "_task_index": index}


for _index, (_id, (_native, _steps, _kwargs)) in enumerate(TASKS.items()):
    for _name in (_id, f"MyoSuite/{_id}"):
        register(
            _name,
            _native,
            max_episode_steps=_steps,
            prepare=_with_task_index(_PREPARE.get(_native, _prepare), _index),
            assets_dir=ASSETS_DIR,
            **_kwargs,
        )

# The ids whose observations leave the observation space they declare, which is the package's
# Box(-10, 10) (its obs_range; neither side clips): the reorientation tasks observe the
# muscles' forces (mforce, hundreds of newtons), the MyoDM tracking tasks, table tennis and the
# bimanual handover the joints' velocities unscaled (qv, body_qvel: over 10 rad/s within a few
# random steps: a finger's 14 rad/s at step 21 of P0; the arm's and the prosthesis's at the
# first step of the handover), the OSL running track the root's position on its 120 m track
# (model_root_pos: y starts at 15 or 59), soccer the root's position (x = 40) and the
# muscles' forces, the chase-tag tasks the feet's contact forces (grf, touch sensors: hundreds
# of newtons while standing). Checks of observations against their space
# (tests/test_gymnasium_registry.py, scripts/sanitize_sweep.py) check these for shape and dtype
# only.
OBS_BEYOND_SPACE = frozenset(name for _id, (_native, _, _) in TASKS.items()
                             if _native in ("MyoReorient", "MyoTrack", "MyoChallengeTableTennis",
                                            "MyoChallengeOslRun", "MyoChallengeBimanual",
                                            "MyoChallengeChaseTag", "MyoChallengeSoccer")
                             for name in (_id, f"MyoSuite/{_id}"))
