"""MuJoCo and DeepMind Control frames (``render_mode="rgb_array"``), drawn in the C++ workers
by MuJoCo's renderer in a headless GL context (EGL by default, ``MUJOCO_GL``).

1. gymnasium's MuJoCo tasks against gymnasium's ``MujocoRenderer`` (``gymnasium.make(id,
   render_mode="rgb_array", width, height, camera_id)``), the free camera of each task's
   ``DEFAULT_CAMERA_CONFIG`` and the model's cameras (tracking ones follow their body): both
   envs are put in the same state (``set_state`` on both, which runs ``mj_forward``), then
   the frames are compared; and in lockstep from a shared reset, stepping both with the same
   actions.
2. DeepMind Control tasks against dm_control's ``physics.render(height, width, camera_id)``,
   the state copied from dm_control's physics (as tests/test_align_dm_control.py does),
   textures (skybox, floor grid), regenerated height fields (quadruped escape) and the dog's
   skin included.
3. Defaults (gymnasium's 480 x 480, dm_control's 240 x 320 from the free camera),
   ``render_fps``, several envs drawn at once on the workers, bad cameras and sizes, and a
   renderer that cannot start (a subprocess with ``MUJOCO_GL`` set to what cannot work): a clear
   ``RuntimeError`` naming the packages to install.
4. gymnasium's ``RecordVideo`` on ``gymnasium.make("envpool/InvertedPendulum-v5")``.

Tolerance: none. The frames are compared for equality, pixel by pixel (``MAX_DIFF = 0``): both
sides call the same ``libmujoco`` (the ``mujoco`` wheel's) with the same scene, options and
camera, in contexts of the same GL driver (measured here on Mesa's llvmpipe through EGL: every
pixel equal in every case tested, and in a sweep of every MuJoCo and DMC task). A different
driver on each side would not be comparable.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool
from envpool.tasks.dm_control import TASKS as DMC_TASKS

mujoco = pytest.importorskip("mujoco")

MAX_DIFF = 0  # the largest allowed difference of a colour channel (see the docstring)
SIZE = 64


def _assert_frames_equal(ours: np.ndarray, theirs: np.ndarray, where: str) -> None:
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype == np.uint8, where
    diff = np.abs(ours.astype(np.int16) - theirs.astype(np.int16))
    assert diff.max() <= MAX_DIFF, (
        f"{where}: {(diff > MAX_DIFF).sum()} channel values differ, by up to {diff.max()}")


# -- 1. gymnasium's MuJoCo tasks -----------------------------------------------------------
# (task, camera_id): -1 is gymnasium's default (the free camera of DEFAULT_CAMERA_CONFIG),
# 0 the model's first camera ("track", which follows the torso, where the model has one).
GYM_CASES = [("Ant-v5", -1), ("Ant-v5", 0), ("HalfCheetah-v5", -1), ("Hopper-v5", -1),
             ("Hopper-v4", 0), ("Humanoid-v5", -1), ("InvertedPendulum-v5", -1),
             ("Reacher-v5", -1), ("Walker2d-v5", -1), ("Swimmer-v5", 0),
             # v4 has a DEFAULT_CAMERA_CONFIG, v5 passes none to its renderer
             ("InvertedDoublePendulum-v4", -1), ("InvertedDoublePendulum-v5", -1)]


def _gym_pair(task_id: str, camera_id: int, num_envs: int = 1) -> tuple[Any, Any]:
    env = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=3, render_mode="rgb_array",
                                 render_width=SIZE, render_height=SIZE,
                                 render_camera_id=camera_id)
    cam = {} if camera_id == -1 else {"camera_id": camera_id}
    ref = gymnasium.make(task_id, render_mode="rgb_array", width=SIZE, height=SIZE, **cam)
    return env, ref


def _set_both(env: Any, ref: Any, state: np.ndarray) -> None:
    u = ref.unwrapped
    env.set_state(0, state)
    u.set_state(state[:u.model.nq], state[u.model.nq:])


@pytest.mark.sweep(by="none")
@pytest.mark.parametrize(("task_id", "camera_id"), GYM_CASES)
def test_mujoco_frames_equal_gymnasium(task_id: str, camera_id: int) -> None:
    """Same state on both sides (ours after reset and random steps), same frame; the view
    moves as the body does (tracking cameras, or the body moving across a fixed view)."""
    env, ref = _gym_pair(task_id, camera_id)
    env.reset()
    ref.reset(seed=0)
    rng = np.random.default_rng(1)
    frames = []
    for step in range(6):
        _set_both(env, ref, np.array(env.get_state(0)))
        ours = env.render()
        assert ours.shape == (1, SIZE, SIZE, 3)
        _assert_frames_equal(ours[0], ref.render(), f"{task_id} camera {camera_id} step {step}")
        frames.append(ours[0].copy())
        action = rng.uniform(-1, 1, (1, *env.single_action_space.shape)).astype(np.float32)
        env.step(action * env.single_action_space.high)
    assert frames[0].std() > 5, "a blank frame"
    assert any((f != frames[0]).any() for f in frames[1:]), "the frames never changed"
    env.close()
    ref.close()


@pytest.mark.parametrize("task_id", ["Ant-v5", "Hopper-v5"])
def test_mujoco_frames_in_lockstep(task_id: str) -> None:
    """From one shared state, both envs stepped with the same actions: the frame after each
    step is gymnasium's (the scene is drawn from the data as the step leaves it)."""
    env, ref = _gym_pair(task_id, -1)
    env.reset()
    ref.reset(seed=0)
    _set_both(env, ref, np.array(env.get_state(0)))
    rng = np.random.default_rng(2)
    high = env.single_action_space.high
    for step in range(10):
        action = (rng.uniform(-1, 1, high.shape) * high).astype(np.float32)
        _, _, term, trunc, _ = env.step(action[None])
        ref.step(action)
        assert not (term[0] or trunc[0])
        _assert_frames_equal(env.render()[0], ref.render(), f"{task_id} step {step}")
    env.close()
    ref.close()


def test_mujoco_default_frame_and_fps() -> None:
    """No size given: gymnasium's 480 x 480, equal to its frame; render_fps is gymnasium's
    metadata (round(1 / dt)); several envs drawn at once on two workers are each their own."""
    env = envpool.make_gymnasium("Hopper-v5", num_envs=3, num_threads=2, seed=5,
                                 render_mode="rgb_array")
    ref = gymnasium.make("Hopper-v5", render_mode="rgb_array")
    assert env.metadata["render_fps"] == ref.metadata["render_fps"] == 125
    assert envpool.make_gymnasium("Ant-v4", render_mode="rgb_array").metadata["render_fps"] == (
        gymnasium.make("Ant-v4").metadata["render_fps"])
    env.reset()
    ref.reset(seed=0)
    _set_both(env, ref, np.array(env.get_state(0)))
    frames = env.render([2, 0, 1])
    assert frames.shape == (3, 480, 480, 3)
    _assert_frames_equal(frames[1], ref.render(), "Hopper-v5 480 x 480")
    for k, i in enumerate([2, 0, 1]):
        np.testing.assert_array_equal(frames[k], env.render(i)[0])
    assert (frames[0] != frames[1]).any()  # other initial states
    env.close()
    ref.close()


# -- 2. DeepMind Control ------------------------------------------------------------------
# Cartpole (skybox and floor grid textures), cheetah, walker, reacher (its target moved in
# the model at reset), quadruped escape (terrain regenerated at reset, a height field), the
# dog (a skin, which the envs' model copies drop).
DMC_CASES = [("CartpoleSwingup-v1", -1), ("CartpoleSwingup-v1", 0), ("CartpoleSwingup-v1", 1),
             ("CheetahRun-v1", 0), ("WalkerWalk-v1", -1), ("WalkerWalk-v1", 1),
             ("ReacherEasy-v1", 0), ("QuadrupedEscape-v1", 0), ("DogRun-v1", -1)]


def _dmc_state(domain: str, ref: Any) -> list[float]:
    from test_align_dm_control import physics_state, task_state

    return [*physics_state(ref), *task_state(domain, ref)]


@pytest.mark.sweep(by="none")
@pytest.mark.parametrize(("task_id", "camera_id"), DMC_CASES)
def test_dmc_frames_equal_dm_control(task_id: str, camera_id: int) -> None:
    suite = pytest.importorskip("dm_control.suite")
    domain, task = DMC_TASKS[task_id]
    height, width = 48, SIZE
    env = envpool.make_dm(task_id, num_envs=1, seed=1, render_mode="rgb_array",
                          render_width=width, render_height=height,
                          render_camera_id=camera_id)
    ref = suite.load(domain, task, task_kwargs={"random": 5})
    spec = ref.action_spec()
    rng = np.random.default_rng(0)
    frames = []
    for episode in range(2):  # a second reset: a new target / terrain
        ref.reset()
        env.reset()
        for step in range(3):
            env.set_state(0, _dmc_state(domain, ref))
            ours = env.render()
            assert ours.shape == (1, height, width, 3)
            theirs = ref.physics.render(height, width, camera_id=camera_id)
            _assert_frames_equal(ours[0], theirs, f"{task_id} camera {camera_id} episode "
                                 f"{episode} step {step}")
            frames.append(ours[0].copy())
            ref.step(rng.uniform(np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)))
    assert frames[0].std() > 5, "a blank frame"
    assert any((f != frames[0]).any() for f in frames[1:]), "the frames never changed"
    env.close()


def test_dmc_default_frame() -> None:
    """No size or camera given: physics.render's defaults, 240 x 320 from the free camera
    (-1); render_fps is one frame per control step (1 / (timestep * n_sub_steps))."""
    suite = pytest.importorskip("dm_control.suite")
    env = envpool.make_dm("CheetahRun-v1", num_envs=1, seed=1, render_mode="rgb_array")
    assert env.render_fps == pytest.approx(100.0)
    ref = suite.load("cheetah", "run", task_kwargs={"random": 5})
    ref.reset()
    env.reset()
    env.set_state(0, _dmc_state("cheetah", ref))
    frame = env.render()
    assert frame.shape == (1, 240, 320, 3)
    _assert_frames_equal(frame[0], ref.physics.render(), "CheetahRun-v1 240 x 320")
    env.close()


# -- 3. refusals and a renderer that cannot start -----------------------------------------
def test_bad_cameras_and_sizes() -> None:
    with pytest.raises(ValueError, match=r"camera_id must be -1 \(the default view\) or one of "
                                         r"the model's 1 cameras \(0 .. 0\), got 1"):
        envpool.make("Ant-v5", render_mode="rgb_array", render_camera_id=1)
    with pytest.raises(ValueError, match="render_width and render_height must be in 0 .. 8192"):
        envpool.make("CheetahRun-v1", render_mode="rgb_array", render_width=9000)
    env = envpool.make("CartpoleBalance-v1", num_envs=1, render_mode="rgb_array",
                       render_width=32, render_height=24)
    env.reset()
    with pytest.raises(ValueError, match="got -2"):
        env.render(camera_id=-2)
    assert env.render(camera_id=1).shape == (1, 24, 32, 3)  # still usable
    env.close()


SCRIPT = """
import numpy as np
import envpool
env = envpool.make("InvertedPendulum-v5", num_envs=1, render_mode="rgb_array",
                   render_width=32, render_height=32)
env.reset()
try:
    frame = env.render()
except RuntimeError as e:
    print("RuntimeError:", e)
else:
    print("frame", frame.shape, int(frame.sum()))
env.step(np.zeros((1, 1), np.float32))
print("still usable")
"""


def _run_with(mujoco_gl: str) -> str:
    root = pathlib.Path(__file__).resolve().parents[1]
    env = {**os.environ, "MUJOCO_GL": mujoco_gl, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                         text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_renderer_that_cannot_start() -> None:
    """MUJOCO_GL naming no offscreen backend, or OSMesa where libOSMesa is missing: render()
    raises a RuntimeError naming what to install (and the pool goes on); where libOSMesa is
    installed, OSMesa draws the frame."""
    out = _run_with("glfw")
    assert "RuntimeError: MUJOCO_GL=glfw: envpool renders offscreen, with MUJOCO_GL=egl" in out
    assert "still usable" in out
    out = _run_with("osmesa")
    try:
        import ctypes

        ctypes.CDLL("libOSMesa.so.8")
    except OSError:
        assert "RuntimeError: cannot load libOSMesa" in out, out
        assert "apt-get install libosmesa6" in out and "MUJOCO_GL=egl" in out, out
    else:
        assert "frame (1, 32, 32, 3)" in out, out
    assert "still usable" in out


# -- 4. videos ----------------------------------------------------------------------------
def test_record_video_mujoco(tmp_path: pathlib.Path) -> None:
    """gymnasium's RecordVideo on the single env writes every frame of an episode: the reset
    frame and one per step (20 steps: moviepy drops the last frame of some short clips, e.g.
    13 frames at 25 fps, whatever renders them)."""
    from test_render import _count_frames

    env = gymnasium.make("envpool/InvertedPendulum-v5", render_mode="rgb_array",
                         render_width=SIZE, render_height=SIZE, max_episode_steps=20)
    assert env.metadata["render_fps"] == 25
    env = gymnasium.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True,
                                         disable_logger=True)
    env.reset(seed=0)
    steps = 0
    done = False
    while not done:
        _, _, term, trunc, _ = env.step(np.zeros(1, dtype=np.float32))
        steps += 1
        done = term or trunc
    env.close()
    assert steps == 20  # truncated, not fallen: zero torque keeps it up that long
    (video,) = tmp_path.glob("*.mp4")
    n, shape = _count_frames(video)
    assert n == steps + 1 and shape == (SIZE, SIZE)


# -- 5. every task (nightly) -------------------------------------------------------------
_GYM_TASKS = ("Ant", "HalfCheetah", "Hopper", "Swimmer", "Walker2d", "Humanoid",
              "HumanoidStandup", "InvertedPendulum", "InvertedDoublePendulum", "Reacher",
              "Pusher")


@pytest.mark.nightly
@pytest.mark.timeout(1200)
def test_every_task_frames_equal_the_reference() -> None:
    """Every gymnasium MuJoCo task (v4 and v5) and every DMC task, default cameras, small
    frames: gymnasium's frame after a reset and two random steps (the same state on both
    sides), dm_control's after two resets and a step each."""
    suite = pytest.importorskip("dm_control.suite")
    gym_ids = sorted(i for i in envpool.list_all_envs() if i.split("-v")[0] in _GYM_TASKS)
    assert len(gym_ids) == 21
    differ = []
    for task_id in gym_ids:
        env = envpool.make_gymnasium(task_id, num_envs=1, seed=2, render_mode="rgb_array",
                                     render_width=40, render_height=32)
        ref = gymnasium.make(task_id, render_mode="rgb_array", width=40, height=32)
        env.reset()
        ref.reset(seed=0)
        high = env.single_action_space.high
        for step in range(3):
            _set_both(env, ref, np.array(env.get_state(0)))
            if (env.render()[0] != ref.render()).any():
                differ.append(f"{task_id} step {step}")
            action = np.random.default_rng(step).uniform(-1, 1, high.shape) * high
            env.step(action[None].astype(np.float32))
        env.close()
        ref.close()
    for task_id, (domain, task) in sorted(DMC_TASKS.items()):
        env = envpool.make_dm(task_id, num_envs=1, seed=1, render_mode="rgb_array",
                              render_width=40, render_height=32)
        ref = suite.load(domain, task, task_kwargs={"random": 5})
        spec = ref.action_spec()
        rng = np.random.default_rng(0)
        for episode in range(2):
            ref.reset()
            env.reset()
            for step in range(2):
                env.set_state(0, _dmc_state(domain, ref))
                if (env.render()[0] != ref.physics.render(32, 40)).any():
                    differ.append(f"{task_id} episode {episode} step {step}")
                ref.step(rng.uniform(np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)))
        env.close()
    assert differ == []
