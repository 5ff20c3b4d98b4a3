"""The reference stack of the reward curves (``envpool.integrations.curves``) and of the
benchmarks: the gymnasium id or maker of each task's reference implementation, and the
changes that let two reference packages run on the mujoco this package builds on (each
changes one call and nothing else; the alignment tests put the same changes in place for
their own runs). Private: the curves, the benchmarks, the matrix and the tests import it.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np


def reference_env_id(task_id: str, envpool_kwargs: dict[str, Any] | None = None) -> Any:
    """The gymnasium id of ``task_id``'s reference implementation: the id itself, or for a
    DeepMind Control Suite task dm_control's env through Shimmy (``dm_control/<domain>-
    <task>-v0``, its ``DmControlCompatibilityV0``); for a Meta-World task a function
    making metaworld's env (:func:`metaworld_reference_env`, with the
    ``partially_observable`` of ``envpool_kwargs``, so that both stacks see the goal or
    neither), which has no gymnasium id of one task with a new random task vector at each
    reset. highway-env's ids (``highway-fast-v0``) are the id itself, registered with
    gymnasium by importing ``highway_env``."""
    from envpool.tasks.dm_control import TASKS

    if task_id.startswith("MetaWorld/"):
        from envpool.tasks import metaworld

        name = {metaworld.task_id(t): t for t in metaworld.TASKS}[task_id]
        hidden = (envpool_kwargs or {}).get("partially_observable", True)
        return functools.partial(metaworld_reference_env, name, hidden)

    if task_id.startswith(("MiniGrid-", "BabyAI-")):
        import minigrid  # noqa: F401  (registers its ids with gymnasium)
    if task_id in _highway_package_ids():
        import highway_env  # noqa: F401  (registers its ids with gymnasium)
    if task_id.startswith("Fetch"):
        gymnasium_robotics_on_mujoco3()
        return task_id.replace("-v1", "-v4")  # sail-sg EnvPool's v1 ids run the v4 env
    if task_id not in TASKS:
        return task_id
    import gymnasium
    import shimmy

    gymnasium.register_envs(shimmy)
    domain, task_name = TASKS[task_id]
    return f"dm_control/{domain}-{task_name}-v0"


def _highway_package_ids() -> frozenset[str]:
    """highway-env's own ids among envpool's highway ids (``highway-fast-v0``; not sail-sg
    EnvPool's spellings such as ``HighwayFast-v0``, which the package does not register)."""
    from envpool.tasks import highway

    return frozenset(i for i in highway.ids() if i[0].islower())


class JointTypesAsInts:
    """mujoco, with ``mjtJoint``'s joint types as plain ints (gymnasium_robotics_on_mujoco3;
    the alignment tests put it in place for their blocks: tests/robotics_joint_types.py)."""

    def __init__(self, mujoco: Any) -> None:
        import types

        self._mujoco = mujoco
        self.mjtJoint = types.SimpleNamespace(
            **{n: int(getattr(mujoco.mjtJoint, n))
               for n in ("mjJNT_FREE", "mjJNT_BALL", "mjJNT_SLIDE", "mjJNT_HINGE")})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._mujoco, name)


def gymnasium_robotics_on_mujoco3() -> None:
    """Registers gymnasium_robotics' ids with gymnasium and lets its Fetch envs run on the
    mujoco this package builds on. gymnasium_robotics 1.4.2's ``mujoco_utils.set_joint_qpos``
    checks ``joint_type in (mjtJoint.mjJNT_HINGE, mjtJoint.mjJNT_SLIDE)``, which is False on
    mujoco 3.17 for the ``np.int32`` of ``model.jnt_type``, so its Fetch envs cannot reset as
    installed; this gives that module's ``mujoco`` the joint types as plain ints (the values
    the check means) and changes nothing else (tests/test_align_robotics.py does the same)."""
    import gymnasium
    import gymnasium_robotics
    from gymnasium_robotics.utils import mujoco_utils

    gymnasium.register_envs(gymnasium_robotics)
    if not isinstance(mujoco_utils.mujoco, JointTypesAsInts):
        mujoco_utils.mujoco = JointTypesAsInts(mujoco_utils.mujoco)


def reset_mocap_welds_317(self: Any) -> None:
    """metaworld's ``SawyerMocapBase.reset_mocap_welds``, its eleven numbers written into the
    first eleven of MuJoCo 3.17's twelve (metaworld_on_mujoco3 puts it in place for good; the
    alignment tests for their own runs, with pytest's monkeypatch)."""
    import mujoco

    for i in range(self.model.eq_data.shape[0]):
        if self.model.eq_type[i] == mujoco.mjtEq.mjEQ_WELD:
            self.model.eq_data[i][:11] = np.array(
                [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 5.0])


def metaworld_on_mujoco3() -> None:
    """Lets metaworld 3.1.1's envs reset on the mujoco this package builds on: its
    ``reset_mocap_welds`` writes an 11-number array into each weld's ``eq_data``, which has
    12 numbers on MuJoCo 3.17, and numpy's broadcast fails; this writes the same eleven into
    the first eleven (the twelfth, the weld's torque scale, keeps the model's value) and
    changes nothing else (tests/test_align_metaworld.py does the same)."""
    from metaworld.sawyer_xyz_env import SawyerMocapBase

    SawyerMocapBase.reset_mocap_welds = reset_mocap_welds_317  # type: ignore[method-assign]


def metaworld_reference_env(name: str, partially_observable: bool = True) -> Any:
    """metaworld's env of task ``name`` (``"reach-v3"``) as envpool's ``MetaWorld/<Task>-v3``
    runs it with the same ``partially_observable`` (default True, the package's and the
    ids' default: the goal's three numbers are zeros; False: observed, as in the MT
    benchmarks): the package's task class drawing a new random task vector (goal, object
    positions) from its seeded generator at each reset (its ``seeded_rand_vec`` mode),
    500-step episodes, made resettable on mujoco 3.17 (:func:`metaworld_on_mujoco3`)."""
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS

    metaworld_on_mujoco3()
    env = ALL_V3_ENVIRONMENTS[name]()
    env._set_task_called = True
    env._freeze_rand_vec = False
    env.seeded_rand_vec = True
    del env.sawyer_observation_space  # the cached space, as set_task drops it
    env._partially_observable = partially_observable
    return env
