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
first frame dropped). The states compared
are the pool's own (``get_state``: qpos then qvel), so the ids compared are those whose
model has no mocap body (a mocap body's pose, such as a drawn target, is not in that
state).

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

#: The ids whose models have no mocap body (the others: the hands' goal, ALOHA's handover
#: target and the Panda tasks' targets).
IDS = [
    "Go1JoystickFlatTerrain-v1", "Go1JoystickRoughTerrain-v1", "Go1Getup-v1",
    "Go1Handstand-v1", "Go1Footstand-v1", "SpotFlatTerrainJoystick-v1", "SpotGetup-v1",
    "SpotJoystickGaitTracking-v1", "BarkourJoystick-v1", "Op3Joystick-v1",
    "ApolloJoystickFlatTerrain-v1", "BerkeleyHumanoidJoystickFlatTerrain-v1",
    "BerkeleyHumanoidJoystickRoughTerrain-v1", "G1JoystickFlatTerrain-v1",
    "G1JoystickRoughTerrain-v1", "H1InplaceGaitTracking-v1", "H1JoystickGaitTracking-v1",
    "T1JoystickFlatTerrain-v1", "T1JoystickRoughTerrain-v1", "AlohaSinglePegInsertion-v1",
]
HEIGHT, WIDTH = 48, 64
FULL = os.environ.get("ENVPOOL_SWEEP", "") == "all"
#: The default suite samples one id a day among these, whose models and MJX models build in
#: about a second (the humanoids' and rough terrains' take several); the nightly takes all.
QUICK = ("Go1JoystickFlatTerrain-v1", "Op3Joystick-v1", "SpotFlatTerrainJoystick-v1",
         "BarkourJoystick-v1")


def _state(m: Any, qpos_qvel: np.ndarray) -> Any:
    """A State as render_array reads it: qpos, qvel, the model's mocap poses, no force."""
    fresh = mujoco.MjData(m)
    data = types.SimpleNamespace(qpos=qpos_qvel[:m.nq], qvel=qpos_qvel[m.nq:],
                                 mocap_pos=fresh.mocap_pos, mocap_quat=fresh.mocap_quat,
                                 xfrc_applied=np.zeros((m.nbody, 6)))
    return types.SimpleNamespace(data=data)


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [i for i in IDS if FULL or i in QUICK])
def test_frames_equal_playground_render(task_id: str) -> None:
    """The reset's frame and three steps' (random actions), equal to the package's."""
    mjx_env.MENAGERIE_PATH = epath.Path(resolve_dirs(robot=TASKS[task_id][3])[1])
    # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA).
    ref = registry.load(task_id[:-3], config_overrides={"impl": "jax"})
    m = ref.mj_model
    assert m.nmocap == 0, task_id
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
    env.close()
    theirs = ref.render([trajectory[0], *trajectory], height=HEIGHT, width=WIDTH)[1:]
    for t, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert a.shape == b.shape == (HEIGHT, WIDTH, 3) and a.dtype == b.dtype == np.uint8
        diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
        assert diff.max() == 0, (
            f"{task_id} frame {t}: {(diff > 0).sum()} channel values differ, by up to "
            f"{diff.max()}")
