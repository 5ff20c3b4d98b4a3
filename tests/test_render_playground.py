"""MuJoCo Playground frames (``render_mode="rgb_array"``) against the package's own
``env.render(trajectory, height, width)`` (``mjx_env.render_array``, playground 0.2.0).

The package draws each State of a trajectory with one ``mujoco.Renderer`` on its
``mj_model``: a fresh ``MjData`` takes the state's qpos, qvel, mocap poses and
``xfrc_applied``, ``mj_forward`` places the bodies, and camera -1 is MuJoCo's default free
camera. The pool draws the same copy of its env's data with the same camera, one renderer
per env kept across frames. A fresh renderer's first scene update places an infinite plane
(the floors of the locomotion tasks) from a camera at the origin, every later one from the
real camera; the pool's renderer updates a fresh scene twice, so that its first frame is
drawn as every later one, and the package's renderer is given the first state twice (its
first frame dropped).

The states compared are the pool's own: ``get_state`` is qpos, qvel, then the mocap bodies'
``mocap_pos`` and ``mocap_quat`` (the hands' goal, ALOHA's handover target, the Panda tasks'
targets; nothing where a model has none), so every id is compared. ``xfrc_applied`` is not
in the state: the package's frame of a state with a random ``xfrc_applied`` must equal its
frame with none (forces are not drawn under MuJoCo's default visual options), which the test
checks too.

Tolerance: none (every channel of every pixel equal): both sides call the same
``libmujoco`` in contexts of the same GL driver (``MUJOCO_GL``, EGL here), as
tests/test_render_mujoco.py explains.
"""

from __future__ import annotations

import os
import types
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

#: Every task's id (9 of them have mocap bodies: the LEAP and Aero hands, ALOHA's handover,
#: the Panda tasks).
IDS = list(TASKS)
HEIGHT, WIDTH = 48, 64
FULL = os.environ.get("ENVPOOL_SWEEP", "") == "all"
#: The default suite samples one id a day among these, whose models and MJX models build in
#: about a second (the humanoids' and rough terrains' take several); the nightly takes all.
QUICK = ("Go1JoystickFlatTerrain-v1", "Op3Joystick-v1", "SpotFlatTerrainJoystick-v1",
         "BarkourJoystick-v1", "PandaPickCube-v1")


def _state(m: Any, state: np.ndarray, xfrc_applied: np.ndarray | None = None) -> Any:
    """A State as render_array reads it from the pool's ``get_state`` (qpos, qvel,
    mocap_pos, mocap_quat) and ``xfrc_applied`` (zero unless given)."""
    ends = np.cumsum([m.nq, m.nv, 3 * m.nmocap, 4 * m.nmocap])
    assert state.shape == (ends[-1],), (state.shape, ends)
    qpos, qvel, mocap_pos, mocap_quat = np.split(state, ends[:-1])
    data = types.SimpleNamespace(
        qpos=qpos, qvel=qvel, mocap_pos=mocap_pos.reshape(m.nmocap, 3),
        mocap_quat=mocap_quat.reshape(m.nmocap, 4),
        xfrc_applied=np.zeros((m.nbody, 6)) if xfrc_applied is None else xfrc_applied)
    return types.SimpleNamespace(data=data)


def _load(task_id: str) -> Any:
    """The package's env of ``task_id``, on the Menagerie copy the pool reads."""
    mjx_env.MENAGERIE_PATH = epath.Path(resolve_dirs(robot=TASKS[task_id][3])[1])
    name = task_id[:-3]
    # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA). The Aero hand's
    # config has no impl (MJX's default).
    overrides = {"impl": "jax"} if "impl" in registry.get_default_config(name) else None
    return registry.load(name, config_overrides=overrides)


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [i for i in IDS if FULL or i in QUICK])
def test_frames_equal_playground_render(task_id: str) -> None:
    """The reset's frame and three steps' (random actions), equal to the package's."""
    ref = _load(task_id)
    m = ref.mj_model
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=2, render_mode="rgb_array",
                                 render_width=WIDTH, render_height=HEIGHT)
    rng = np.random.default_rng(2)
    env.reset()
    ours, trajectory = [], []
    for t in range(4):
        if t:
            env.step(rng.uniform(-0.5, 0.5, (1,) + env.single_action_space.shape))
        ours.append(env.render()[0])
        trajectory.append(_state(m, np.asarray(env.get_state(0))))
    state = np.asarray(env.get_state(0))
    env.close()
    pushed = _state(m, state, rng.normal(0.0, 100.0, (m.nbody, 6)))
    theirs = ref.render([trajectory[0], *trajectory, pushed], height=HEIGHT, width=WIDTH)[1:]
    for t, (a, b) in enumerate(zip(ours + ours[-1:], theirs, strict=True)):
        assert a.shape == b.shape == (HEIGHT, WIDTH, 3) and a.dtype == b.dtype == np.uint8
        diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
        what = f"frame {t}" if t < len(ours) else "the last frame with random xfrc_applied"
        assert diff.max() == 0, (
            f"{task_id} {what}: {(diff > 0).sum()} channel values differ, by up to "
            f"{diff.max()}")


def test_state_carries_mocap_poses() -> None:
    """``set_state`` takes qpos, qvel and the mocap poses (or qpos and qvel alone, keeping
    the poses); ``get_state`` gives them back; a wrong length or a NaN is a ValueError."""
    env = envpool.make_gymnasium("PandaPickCube-v1", num_envs=1, seed=0)
    env.reset()
    state = np.asarray(env.get_state(0))
    n = len(state) - 7  # the target's mocap body: 3 + 4 numbers after qpos and qvel
    moved = state.copy()
    moved[n:n + 3] += (0.01, -0.02, 0.03)
    moved[n + 3:] = (0.5, 0.5, 0.5, 0.5)
    env.set_state(0, moved)
    np.testing.assert_array_equal(env.get_state(0), moved)
    env.set_state(0, state[:n])
    np.testing.assert_array_equal(env.get_state(0), np.concatenate([state[:n], moved[n:]]))
    for bad in (state[:-1], np.concatenate([state, [0.0]])):
        with pytest.raises(ValueError, match="mocap_pos and mocap_quat"):
            env.set_state(0, bad)
    nan = state.copy()
    nan[-1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        env.set_state(0, nan)
    env.close()
