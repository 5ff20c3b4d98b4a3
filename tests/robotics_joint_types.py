"""gymnasium_robotics 1.4.2's ``mujoco_utils`` on mujoco 3.17, for the alignment tests that make
its envs.

Its ``set_joint_qpos`` / ``get_joint_qpos`` (and the qvel ones) check ``joint_type in
(mjtJoint.mjJNT_HINGE, mjtJoint.mjJNT_SLIDE)``, which is False on mujoco 3.17 (its enums no
longer compare equal from inside a tuple to the ``np.int32`` of ``model.jnt_type``), so the
package cannot make its Fetch and Shadow Hand envs as installed. :func:`joint_types_as_ints`
gives that module's ``mujoco`` the joint types as plain ints (the values the check means);
every other name is mujoco's own, and no arithmetic changes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import mujoco

from envpool.integrations._reference_envs import JointTypesAsInts


@contextlib.contextmanager
def joint_types_as_ints() -> Iterator[None]:
    """Within the block, gymnasium_robotics' ``mujoco_utils`` sees the joint types as ints
    (``envpool.integrations._reference_envs.JointTypesAsInts``, what the matrix and the
    benchmark put in place for good)."""
    from gymnasium_robotics.utils import mujoco_utils

    saved = mujoco_utils.mujoco
    mujoco_utils.mujoco = JointTypesAsInts(mujoco)
    try:
        yield
    finally:
        mujoco_utils.mujoco = saved
