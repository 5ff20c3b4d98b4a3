"""Meta-World's frames (``render_mode="rgb_array"`` and ``from_pixels=True``) against the
package's own rendering (metaworld 3.1.1: gymnasium's ``MujocoRenderer`` on the task's model,
``render_mode="rgb_array"``, its ``width`` / ``height`` (480 x 480) and ``camera_id`` (none:
the free camera)), pixel for pixel.

Both sides run in the package's seeded mode from the same seed (tests/test_align_metaworld.py),
so they are in the same state after a reset and after each step with the same actions; no
state is copied. Tolerance: none (``MAX_DIFF`` of tests/test_render_mujoco.py): the same
``libmujoco`` draws the same scene from the same camera in contexts of the same GL driver.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from metaworld.env_dict import ALL_V3_ENVIRONMENTS
from metaworld.sawyer_xyz_env import SawyerMocapBase
from test_align_metaworld import _obs_equal
from test_render_mujoco import _assert_frames_equal

import envpool
from envpool.integrations._reference_envs import reset_mocap_welds_317
from envpool.tasks.metaworld import task_id

pytestmark = pytest.mark.filterwarnings("ignore:Constant\\(s\\) may be too high")

SIZE = 32


@pytest.fixture(autouse=True)
def _mujoco_317(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(SawyerMocapBase, "reset_mocap_welds", reset_mocap_welds_317)
    yield


def _reference(name: str, seed: int, **render: Any) -> Any:
    """The package's env drawing its random vector from default_rng(seed) at each reset,
    rendering with ``render`` (width, height, camera_id)."""
    env = ALL_V3_ENVIRONMENTS[name](render_mode="rgb_array", **render)
    env._set_task_called = True
    env._freeze_rand_vec = False
    env.seeded_rand_vec = True
    env.seed(seed)
    return env


# (task, camera): -1 is the package's default (the free camera), 1 the model's "corner", 6
# "gripperPOV" (it moves with the gripper; the from_pixels test's camera). Drawer-open's and
# door-open's resets move a body of the model (the drawer, the door), pick-place's the object
# and goal site. The nightly tests add those and every task's reset frame.
CASES = [("reach-v3", -1)]
NIGHTLY_CASES = [("door-open-v3", 6), ("pick-place-v3", 1), ("drawer-open-v3", -1),
                 ("basketball-v3", 2), ("stick-push-v3", 1), ("bin-picking-v3", -1),
                 ("plate-slide-back-v3", 3)]


@pytest.mark.parametrize(("name", "camera_id"), CASES)
def test_metaworld_frames_equal_the_package(name: str, camera_id: int) -> None:
    """After a reset and after each of 4 random steps, then after a second reset: the same
    frame."""
    _frames_equal(name, camera_id)


@pytest.mark.nightly
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "camera_id"), NIGHTLY_CASES)
def test_metaworld_frames_equal_the_package_nightly(name: str, camera_id: int) -> None:
    _frames_equal(name, camera_id)


def _frames_equal(name: str, camera_id: int) -> None:
    env = envpool.make_gymnasium(task_id(name), num_envs=1, seed=4, render_mode="rgb_array",
                                 render_width=SIZE, render_height=SIZE,
                                 render_camera_id=camera_id)
    cam = {} if camera_id == -1 else {"camera_id": camera_id}
    ref = _reference(name, 4, width=SIZE, height=SIZE, **cam)
    rng = np.random.default_rng(0)
    frames = []
    for episode in range(2):
        obs, _ = env.reset()
        r_obs, _ = ref.reset()
        assert _obs_equal(obs[0], r_obs)
        for step in range(5 if episode == 0 else 1):
            ours = env.render()
            assert ours.shape == (1, SIZE, SIZE, 3)
            _assert_frames_equal(ours[0], ref.render(), f"{name} camera {camera_id} "
                                 f"episode {episode} step {step}")
            frames.append(ours[0].copy())
            action = rng.uniform(-1, 1, 4).astype(np.float32)
            env.step(action[None])
            ref.step(action)
    assert frames[0].std() > 5, "a blank frame"
    assert any((f != frames[0]).any() for f in frames[1:]), "the frames never changed"
    env.close()
    ref.close()


def test_metaworld_default_frame_and_fps() -> None:
    """No size or camera given: the package's 480 x 480 from the free camera, and its
    render_fps (80: 1 / (0.0025 s * frame_skip 5))."""
    env = envpool.make_gymnasium("MetaWorld/Push-v3", num_envs=1, seed=2,
                                 render_mode="rgb_array")
    ref = _reference("push-v3", 2)
    assert env.metadata["render_fps"] == ref.metadata["render_fps"] == 80
    env.reset()
    ref.reset()
    frame = env.render()
    assert frame.shape == (1, 480, 480, 3)
    _assert_frames_equal(frame[0], ref.render(), "push-v3 480 x 480")
    env.close()
    ref.close()


def test_metaworld_from_pixels_equals_the_package() -> None:
    """``from_pixels=True``: the observation is the frame after each reset and step,
    channel-first (gymnasium's AddRenderObservation of the package's env, transposed);
    ``frame_stack=2`` stacks the last two, oldest first; ``pixels_only=False`` adds the
    39-number states, stacked too (the newest last)."""
    h, w = 24, 32
    env = envpool.make_gymnasium("MetaWorld/PickPlace-v3", num_envs=1, seed=6,
                                 from_pixels=True, render_width=w, render_height=h,
                                 frame_stack=2, pixels_only=False, render_camera_id=6)
    ref = _reference("pick-place-v3", 6, width=w, height=h, camera_id=6)
    assert env.single_observation_space["pixels"].shape == (6, h, w)
    assert env.single_observation_space["state"].shape == (2, 39)
    obs, _ = env.reset()
    r_obs, _ = ref.reset()
    assert _obs_equal(obs["state"][0][0], r_obs) and _obs_equal(obs["state"][0][1], r_obs)
    previous = ref.render().transpose(2, 0, 1)
    assert np.array_equal(obs["pixels"][0], np.concatenate([previous, previous]))
    rng = np.random.default_rng(3)
    for _ in range(3):
        action = rng.uniform(-1, 1, 4).astype(np.float32)
        obs, *_ = env.step(action[None])
        r_obs, *_ = ref.step(action)
        assert _obs_equal(obs["state"][0][1], r_obs)
        newest = ref.render().transpose(2, 0, 1)
        assert np.array_equal(obs["pixels"][0], np.concatenate([previous, newest]))
        previous = newest
    env.close()
    ref.close()


@pytest.mark.nightly
@pytest.mark.timeout(1200)
def test_every_task_frames_equal_the_package() -> None:
    """Every task, small frames from the free camera: the reset frame (the goal site where the
    reset's first reset_model call put it), and the frame after a random step; the
    observations of a drawing env (its reset's first call run whole) are the package's too."""
    differ = []
    for name in ALL_V3_ENVIRONMENTS:
        env = envpool.make_gymnasium(task_id(name), num_envs=1, seed=9, render_mode="rgb_array",
                                     render_width=24, render_height=24)
        ref = _reference(name, 9, width=24, height=24)
        obs, _ = env.reset()
        r_obs, _ = ref.reset()
        for step in range(2):
            if not _obs_equal(obs[0], r_obs, trig=name == "dial-turn-v3"):
                differ.append(f"{name} obs {step}")
            if (env.render()[0] != ref.render()).any():
                differ.append(f"{name} step {step}")
            action = np.random.default_rng(step).uniform(-1, 1, 4).astype(np.float32)
            obs, *_ = env.step(action[None])
            r_obs, *_ = ref.step(action)
        env.close()
        ref.close()
    assert differ == []
