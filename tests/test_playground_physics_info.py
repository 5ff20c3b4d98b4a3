"""The MuJoCo Playground tasks' info beyond each task's own keys: ``terminated`` and the
simulation's mjData arrays (``qpos``,
``qvel``, ``ctrl``, ``qacc``, ``qacc_warmstart``, ``actuator_force``, ``sensordata``,
``xfrc_applied``, and ``mocap_pos`` / ``mocap_quat`` where the model has mocap bodies) as
each reset or step leaves them, the keys sail-sg EnvPool's test build gives its oracle test.

Checked against the state the pool gives (``get_state``: qpos, qvel, mocap poses) at every
reset, step and automatic reset, and against MuJoCo itself: from the arrays of one step,
``mj_step`` of the package's own model (playground 0.2.0's ``mj_model``) run for the task's
substeps with the next step's ``ctrl`` gives the next step's arrays, every number equal (the
same ``libmujoco`` on both sides, so no tolerance), and the reset's arrays are
``mj_forward``'s of its qpos, qvel and ctrl. The ``ctrl`` is the package's float32 motor
targets ``home + action * action_scale`` of the float32-rounded action.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envpool
from envpool.tasks.playground import TASKS, resolve_dirs

mujoco = pytest.importorskip("mujoco")
pytest.importorskip("mujoco_playground")

from etils import epath  # noqa: E402  (after the reference's importorskip)
from mujoco_playground import registry  # noqa: E402
from mujoco_playground._src import mjx_env  # noqa: E402

#: The info's arrays: (key, the mjData field, its size from the model).
FIELDS = (("qpos", "qpos", "nq"), ("qvel", "qvel", "nv"), ("ctrl", "ctrl", "nu"),
          ("qacc", "qacc", "nv"), ("qacc_warmstart", "qacc_warmstart", "nv"),
          ("actuator_force", "actuator_force", "nu"), ("sensordata", "sensordata", "nsensordata"),
          ("xfrc_applied", "xfrc_applied", "nbody"), ("mocap_pos", "mocap_pos", "nmocap"),
          ("mocap_quat", "mocap_quat", "nmocap"))
WIDTH = {"xfrc_applied": 6, "mocap_pos": 3, "mocap_quat": 4}


def _load(task_id: str) -> Any:
    """The package's env of ``task_id`` on the Menagerie copy the pool reads."""
    mjx_env.MENAGERIE_PATH = epath.Path(resolve_dirs(robot=TASKS[task_id][3])[1])
    name = task_id[:-3]
    overrides = {"impl": "jax"} if "impl" in registry.get_default_config(name) else None
    return registry.load(name, config_overrides=overrides)


def _sizes(m: Any) -> dict[str, int]:
    """The info arrays' sizes for model ``m`` (those of size 0 are not in the info)."""
    sizes = {key: getattr(m, count) * WIDTH.get(key, 1) for key, _, count in FIELDS}
    return {key: n for key, n in sizes.items() if n > 0}


def _check_state(env: Any, info: dict[str, Any], sizes: dict[str, int]) -> None:
    """qpos, qvel and the mocap poses of every row equal the pool's ``get_state``."""
    for i in range(len(info["qpos"])):
        keys = [k for k in ("qpos", "qvel", "mocap_pos", "mocap_quat") if k in sizes]
        np.testing.assert_array_equal(np.concatenate([info[k][i] for k in keys]),
                                      np.asarray(env.get_state(i)), err_msg=f"row {i}")


def _check_forward(m: Any, info: dict[str, Any], sizes: dict[str, int], what: str) -> None:
    """A reset's arrays: ``make_data(qpos, qvel, ctrl)`` and ``mj_forward`` of each row."""
    for i in range(len(info["qpos"])):
        data = mujoco.MjData(m)
        data.qpos[:], data.qvel[:] = info["qpos"][i], info["qvel"][i]
        data.ctrl[:] = info["ctrl"][i]
        mujoco.mj_forward(m, data)
        for key, field, _ in FIELDS:
            if key in sizes and key != "qacc_warmstart":  # an input of the solver
                np.testing.assert_array_equal(info[key][i], np.ravel(getattr(data, field)),
                                              err_msg=f"{what} row {i} {key}")


def _check_step(m: Any, before: dict[str, Any], after: dict[str, Any], sizes: dict[str, int],
                substeps: int, what: str) -> None:
    """A step's arrays: MuJoCo's ``mj_step`` from the previous arrays with the new ctrl."""
    for i in range(len(after["qpos"])):
        data = mujoco.MjData(m)
        for key, field, _ in FIELDS:
            if key in sizes and key not in ("qacc", "actuator_force", "sensordata"):
                getattr(data, field).flat[:] = before[key][i]
        data.ctrl[:] = after["ctrl"][i]
        for _ in range(substeps):
            mujoco.mj_step(m, data)
        for key, field, _ in FIELDS:
            if key in sizes:
                np.testing.assert_array_equal(after[key][i], np.ravel(getattr(data, field)),
                                              err_msg=f"{what} row {i} {key}")


def test_go1_info_is_the_simulation() -> None:
    """Go1 joystick: the arrays' shapes, get_state through an automatic reset, the float32
    motor targets, and MuJoCo's own forward pass and steps from the arrays."""
    ref = _load("Go1JoystickFlatTerrain-v1")
    m = ref.mj_model
    sizes = _sizes(m)
    assert "mocap_pos" not in sizes and sizes["sensordata"] == m.nsensordata > 0
    env = envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", num_envs=2, seed=3,
                                 max_episode_steps=3)
    rng = np.random.default_rng(3)
    _, info = env.reset()
    for key, n in sizes.items():
        assert info[key].shape == (2, n) and info[key].dtype == np.float64, key
    assert not info["terminated"].any()
    _check_state(env, info, sizes)
    _check_forward(m, info, sizes, "reset")
    home = m.keyframe("home").qpos[7:].astype(np.float32)
    substeps = round(ref._config.ctrl_dt / ref._config.sim_dt)  # noqa: SLF001
    for t in range(1, 6):  # step 3 truncates; step 4's info is the automatic reset's
        action = rng.uniform(-1.0, 1.0, (2, 12))
        _, _, terminated, truncated, new = env.step(action)
        assert truncated.all() == (t == 3)
        assert new["terminated"].dtype == np.bool_
        np.testing.assert_array_equal(new["terminated"], terminated & (t != 4))
        _check_state(env, new, sizes)
        if t == 4:
            _check_forward(m, new, sizes, "automatic reset")
        else:
            expected = home + action.astype(np.float32) * np.float32(0.5)
            np.testing.assert_array_equal(new["ctrl"], expected, err_msg=f"step {t} ctrl")
            _check_step(m, info, new, sizes, substeps, f"step {t}")
        info = new
    env.close()


def test_terminated_is_the_steps() -> None:
    """``terminated``: the step's termination (Go1 turned upside down), False at the next
    step's automatic reset and for the env that goes on."""
    env = envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", num_envs=2, seed=0)
    _, info = env.reset()
    assert info["terminated"].dtype == np.bool_ and not info["terminated"].any()
    flipped = np.asarray(env.get_state(0)).copy()
    flipped[3:7] = (0.0, 1.0, 0.0, 0.0)  # the trunk turned half a turn about x
    env.set_state(0, flipped)
    action = np.zeros((2, 12))
    _, _, terminated, _, info = env.step(action)
    np.testing.assert_array_equal(terminated, [True, False])
    np.testing.assert_array_equal(info["terminated"], terminated)
    _, _, terminated, _, info = env.step(action)
    assert not terminated.any() and not info["terminated"].any()
    env.close()


def test_mocap_poses_follow_get_state() -> None:
    """A task with a mocap body (the Panda's target): mocap_pos and mocap_quat are the
    state's, and ``set_state``'s poses are the info's at the next step."""
    env = envpool.make_gymnasium("PandaPickCube-v1", num_envs=1, seed=0)
    _, info = env.reset()
    sizes = {k: v.shape[1] for k, v in info.items()
             if k in ("qpos", "qvel", "mocap_pos", "mocap_quat")}
    assert sizes["mocap_pos"] == 3 and sizes["mocap_quat"] == 4
    _check_state(env, info, sizes)
    _, _, _, _, info = env.step(np.zeros((1,) + env.single_action_space.shape))
    _check_state(env, info, sizes)
    env.close()
