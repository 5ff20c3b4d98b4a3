"""MyoSuite's frames (``render_mode="rgb_array"`` and ``from_pixels=True``) against the
package's own (myosuite 2.12.2: ``MJRenderer.render_offscreen`` with camera -1, mujoco's
default free camera, and BaseV0's scene flags: actuators drawn, tendons colored by their
muscles' activation), pixel for pixel.

Both sides run from the same seed and actions (tests/test_align_myosuite.py), so they are in
the same state; no state is copied. The package renders through mujoco's Python GL context,
which cannot share a process with ours under EGL, so its frames come from a subprocess.
Tolerance: none; the same ``libmujoco`` draws the same scene with the same GL driver.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import envpool

_REFERENCE = """
import sys
import numpy as np
from myosuite.utils import gym
task_id, seed, size, actions, out = sys.argv[1:6]
seed, size = int(seed), int(size)
env = gym.make(task_id, seed=seed)
env.reset()
renderer = env.unwrapped.mj_renderer
frames = [renderer.render_offscreen(width=size, height=size, camera_id=-1)]
for action in np.load(actions):
    env.step(action)
    frames.append(renderer.render_offscreen(width=size, height=size, camera_id=-1))
np.save(out, np.stack(frames))
"""


def _reference_frames(task_id: str, seed: int, size: int, actions: np.ndarray,
                      tmp_path: Path) -> np.ndarray:
    np.save(tmp_path / "actions.npy", actions)
    out = tmp_path / "frames.npy"
    env = {**os.environ, "MUJOCO_GL": "egl"}
    subprocess.run([sys.executable, "-c", _REFERENCE, task_id, str(seed), str(size),
                    str(tmp_path / "actions.npy"), str(out)], check=True, env=env,
                   capture_output=True, timeout=300)
    return np.load(out)


# (task, steps): the hand (39 muscles), the elbow with the exoskeleton, whose resets draw
# the carried weight's mass and the size of its sphere, the arm as the package's edit_fn
# edits it (model_edit="arm_reaching": the new phalanges' meshes, the tip and target sites),
# and a reorientation task, whose resets edit the object's shape and color and the success
# site's color; MyoChallenge's die (its resets edit the die and the target; the first frame
# shows the success site as the package's construction step colored it) and Baoding balls
# (the targets that the steps move). The episodes here do not end within the steps (the
# pool would reset at the next step).
CASES = [("myoHandPoseRandom-v0", 4), ("myoElbowPose1D6MExoRandom-v0", 4),
         ("myoArmReachFixed-v0", 4), ("myoHandReorient100-v0", 3),
         ("myoChallengeDieReorientP2-v0", 3), ("myoChallengeBaodingP2-v1", 3)]


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize(("task_id", "steps"), CASES)
def test_frames_are_the_packages(task_id: str, steps: int, tmp_path: Path) -> None:
    size = 96
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=4, render_mode="rgb_array",
                                  render_width=size, render_height=size)
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (steps, *ours.single_action_space.shape)).astype(np.float32)
    ref = _reference_frames(task_id, 4, size, actions, tmp_path)
    ours.reset()
    frames = [ours.render()[0]]
    for action in actions:
        ours.step(action[None])
        frames.append(ours.render()[0])
    ours.close()
    assert ref.shape == (steps + 1, size, size, 3)
    for t, (frame, expected) in enumerate(zip(frames, ref, strict=True)):
        assert np.array_equal(frame, expected), (task_id, t, np.mean(frame != expected))
    # The frames move: the muscles act.
    assert not np.array_equal(frames[0], frames[-1])


def test_pixel_observations_are_the_frames() -> None:
    """``from_pixels=True``: the observation is the frame (channel-first), as rendered."""
    pixels = envpool.make_gymnasium("myoFingerReachFixed-v0", num_envs=2, seed=1,
                                    from_pixels=True, render_width=64, render_height=48)
    frames = envpool.make_gymnasium("myoFingerReachFixed-v0", num_envs=2, seed=1,
                                    render_mode="rgb_array", render_width=64,
                                    render_height=48)
    obs, _ = pixels.reset()
    frames.reset()
    assert obs.shape == (2, 3, 48, 64) and obs.dtype == np.uint8
    np.testing.assert_array_equal(obs, frames.render(env_ids=[0, 1]).transpose(0, 3, 1, 2))
