"""Alignment of MyoChallenge 2024's bimanual handover (``myoChallengeBimanual-v0`` and its
``myoSarc...`` and ``myoFati...`` variants: myosuite 2.12.2's BimanualEnvV1) with the
package, as tests/test_align_myosuite.py aligns the other MyoSuite ids: the same seed, the
same float32 actions; reset observations, observations, float32 rewards, terminations,
truncations and the info's ``sparse`` and ``solved`` bitwise, across resets.

The package cannot make these ids under numpy >= 2.4 as it is: BimanualEnvV1 passes
one-element arrays where numbers are wanted (``np.arange``'s bounds in IdInfo and
``__center_box_mesh``, ``MjModel.geom``'s index), a conversion numpy 2.4 removed (earlier
numpy made it with a DeprecationWarning). The reference here is the package with that
conversion given back (``_numpy_scalar_conversion``): one-element arrays become their number
there, nothing else changes.

numpy's float64 ``log`` (in three of the reward terms) is the C library's ``log`` where numpy
has no SIMD loop for it (x86-64 without AVX-512); where it has one it may differ in the last
bit, and the float64 reward may then round to another float32: the reward is compared within
``_REWARD_RTOL`` there (tests/numerics.py tells which case the machine is in).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mujoco
import numpy as np
import pytest
from myosuite.envs.myo.myochallenge import bimanual_v0
from myosuite.utils import gym as myo_gym
from numerics import ufunc_matches_libm  # tests/numerics.py
from test_align_myosuite import _run as lockstep_run

import envpool
from envpool.tasks._installed import package_path
from envpool.tasks.myosuite import TASKS

BIMANUAL_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                      if native == "MyoChallengeBimanual")

# Where numpy's float64 log is not libm's: its last bit may differ, the float32 reward by
# one rounding step of a number of about 1.
_REWARD_RTOL = 0.0 if ufunc_matches_libm("log", 1e-4, 10.0) else 2e-7


def _scalar(value: Any) -> Any:
    """A one-element array as its number (numpy < 2.4's conversion), anything else as is."""
    return value.item() if isinstance(value, np.ndarray) and value.size == 1 else value


class _Numpy1Arange:
    """The numpy module, but ``arange`` converting one-element bounds as numpy < 2.4 did."""

    def __getattr__(self, name: str) -> Any:
        return getattr(np, name)

    @staticmethod
    def arange(*args: Any, **kwargs: Any) -> np.ndarray:
        """np.arange with one-element array bounds taken as their numbers."""
        return np.arange(*(_scalar(a) for a in args), **kwargs)


@pytest.fixture(autouse=True)
def _numpy_scalar_conversion(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Gives the package's bimanual_v0 numpy < 2.4's conversion of one-element arrays to
    numbers, where it relies on it (see the module's docstring)."""
    geom = mujoco.MjModel.geom
    monkeypatch.setattr(bimanual_v0, "np", _Numpy1Arange())
    monkeypatch.setattr(mujoco.MjModel, "geom",
                        lambda self, *args: geom(self, *(_scalar(a) for a in args)))
    yield


def _run(task_id: str, seed: int, steps: int, reset_every: int = 0,
         max_episode_steps: int | None = None, **kwargs: Any) -> tuple[int, int]:
    """test_align_myosuite's lockstep run: ours and the package's env both made with
    ``kwargs`` (lists go to the package as the arrays it wants), the reward within
    ``_REWARD_RTOL`` (numpy's float64 log, above)."""
    ref_kwargs = {k: np.array(v) if isinstance(v, list) else v for k, v in kwargs.items()}
    return lockstep_run(task_id, seed, steps, reset_every=reset_every,
                        max_episode_steps=max_episode_steps, ours_kwargs=kwargs,
                        ref_kwargs=ref_kwargs, reward_rtol=_REWARD_RTOL)


def test_bimanual_sizes() -> None:
    """The observation (time, the MyoArm's 38 qpos and qvel, the prosthesis's 26, the box's
    free joint 7 + 6, the five contact labels, the 63 muscles' act) and the action (63
    muscles, 17 prosthesis actuators)."""
    env = envpool.make_gymnasium("myoChallengeBimanual-v0", num_envs=1)
    assert env.single_observation_space.shape == (210,)
    assert env.single_action_space.shape == (80,)
    env.close()


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", BIMANUAL_IDS)
def test_bimanual_aligns(task_id: str) -> None:
    """Episodes cut by mid-episode resets: each reset draws the pillars' places, the box's
    mass and friction and (but at the env's first reset) its size; the reset observation is
    before the package's move of the box (in its observed copy only)."""
    assert _run(task_id, seed=5, steps=45, reset_every=15) == (0, 0)


@pytest.mark.parametrize("task_id", ["myoChallengeBimanual-v0", "myoFatiChallengeBimanual-v0"])
def test_bimanual_drop_terminates(task_id: str) -> None:
    """The start pillar moved from under the box (``start_center``): the box falls below
    z = 0.3 and the episode terminates; the next episodes too, one after another (a reset
    keeps the previous reward dict, whose ``solved`` the next step's done reads)."""
    terminated, _ = _run(task_id, seed=2, steps=120, start_center=[-0.4, 0.6, 1.05])
    assert terminated >= 2


def test_bimanual_other_keys_align() -> None:
    """The observation dict's other entries (max_force, MPL_ori, the errors, the sites' and
    the pillars' positions, qp, qv) as obs_keys, and the reward terms the default weights
    leave out (lift_height, lift_bonus, fin_open), weighted (weighted_reward_keys is
    reward_keys and reward_weights here)."""
    keys = ["time", "max_force", "MPL_ori", "MPL_ori_err", "pass_err", "reach_err",
            "goal_pos", "start_pos", "elbow_fle", "palm_pos", "fin0", "fin4", "Rpalm_pos",
            "obj_pos", "touching_body", "qp", "qv"]
    weights = {"lift_height": 1.0, "lift_bonus": 0.5, "fin_open": 2.0, "act": -1.0,
               "reach_dist": -0.1}
    task_id = "myoChallengeBimanual-v0"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=9, obs_keys=keys,
                                  reward_keys=list(weights),
                                  reward_weights=list(weights.values()))
    ref = myo_gym.make(task_id, seed=9, obs_keys=keys, weighted_reward_keys=weights)
    rng = np.random.default_rng(9)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset()
    assert obs.shape == (1, 245)
    np.testing.assert_array_equal(obs[0], ref_obs)
    for t in range(30):
        action = rng.uniform(-1, 1, 80).astype(np.float32)
        obs, rew, term, _, _ = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, _ = ref.step(action.copy())
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"step {t}")
        np.testing.assert_allclose(rew[0], np.float32(ref_rew), rtol=_REWARD_RTOL, atol=0)
        assert bool(term[0]) == bool(ref_term)
        if term[0] or (t + 1) % 15 == 0:
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs)
    ours.close()
    ref.close()


def test_bimanual_solved_aligns(tmp_path: Path) -> None:
    """The goal pillar put on the start one (in a copy of the XML: the package observes the
    pillars where its XML has them) and the goal drawn around the start (``goal_center``):
    the box lies on both, its contacts count goal touches, the task is solved after ten
    steps and done at the next (the previous reward dict's ``solved``), and the next episode's
    first step is done too (a reset keeps that reward dict)."""
    package = Path(package_path("myosuite"))
    root = tmp_path / "assets"
    arm = root / "envs" / "myo" / "assets" / "arm"
    arm.mkdir(parents=True)
    (root / "simhive").symlink_to(package / "simhive")
    xml = (package / "envs/myo/assets/arm/myoarm_bionic_bimanual.xml").read_text()
    goal = '<body name="goal" mocap="true" pos="0.4 -0.25 1.05">'
    assert goal in xml
    (arm / "goal_on_start.xml").write_text(
        xml.replace(goal, '<body name="goal" mocap="true" pos="-0.4 -0.25 1.05">'))
    task_id = "myoChallengeBimanual-v0"
    kwargs: dict[str, Any] = {"goal_center": [-0.4, -0.25, 1.05], "proximity_th": 1.0}
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=6, assets_dir=str(root),
                                  model_path="envs/myo/assets/arm/goal_on_start.xml", **kwargs)
    ref = myo_gym.make(task_id, seed=6, model_path=str(arm / "goal_on_start.xml"),
                       goal_center=np.array(kwargs["goal_center"]), proximity_th=1.0)
    rng = np.random.default_rng(6)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs)
    low, high = ours.single_action_space.low, ours.single_action_space.high
    solved = terminated = 0
    for t in range(40):
        action = rng.uniform(low, high).astype(np.float32)
        obs, rew, term, _, info = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, ref_info = ref.step(action.copy())
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"step {t}")
        np.testing.assert_allclose(rew[0], np.float32(ref_rew), rtol=_REWARD_RTOL, atol=0)
        assert bool(term[0]) == bool(ref_term), t
        assert info["solved"][0] == float(ref_info["solved"]), t
        solved += bool(info["solved"][0])
        terminated += bool(term[0])
        if term[0]:
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs)
    ours.close()
    ref.close()
    assert solved >= 2 and terminated >= 3, (solved, terminated)


def test_bimanual_reseed_aligns() -> None:
    """reset(seed=s) after some resets is the package's env made anew with seed s: the box's
    size back to the XML's and its first reset drawing no scale."""
    task_id = "myoChallengeBimanual-v0"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=3)
    rng = np.random.default_rng(0)
    low, high = ours.single_action_space.low, ours.single_action_space.high
    for _ in range(3):
        ours.reset()
        ours.step(rng.uniform(low, high).astype(np.float32)[None])
    obs, _ = ours.reset(seed=7)
    ref = myo_gym.make(task_id, seed=7)
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs)
    for t in range(2 * 8):
        action = rng.uniform(low, high).astype(np.float32)
        obs, rew, term, _, _ = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, _ = ref.step(action.copy())
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"step {t}")
        np.testing.assert_allclose(rew[0], np.float32(ref_rew), rtol=_REWARD_RTOL, atol=0)
        assert bool(term[0]) == bool(ref_term)
        if t == 7:
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs)
    ours.close()
    ref.close()


@pytest.mark.parametrize("kwargs", [{"obj_mass_change": [0.1]}, {"start_center": [0.0, 1.0]},
                                    {"obj_scale_change": [0.1, 0.1]}, {"frame_skip": 0},
                                    {"obj_mass_change": [-1.0, 0.0]},
                                    {"obj_friction_change": [2.0, 0.0, 0.0]},
                                    {"obj_scale_change": [1.5, 0.0, 0.0]}])
def test_bimanual_bad_keywords(kwargs: dict[str, Any]) -> None:
    """Keywords of the wrong length or range (a negative mass, friction or size of the box
    reachable by a draw): a clear exception when the pool is made."""
    with pytest.raises((ValueError, RuntimeError)):
        envpool.make_gymnasium("myoChallengeBimanual-v0", num_envs=1, **kwargs)


# The package's frames (as tests/test_render_myosuite.py makes them), from a subprocess (its
# GL context cannot share ours), with the same numpy < 2.4 conversion.
_REFERENCE_FRAMES = """
import sys
import mujoco
import numpy as np
from myosuite.envs.myo.myochallenge import bimanual_v0
from myosuite.utils import gym
def scalar(v):
    return v.item() if isinstance(v, np.ndarray) and v.size == 1 else v
class Numpy1Arange:
    def __getattr__(self, name):
        return getattr(np, name)
    @staticmethod
    def arange(*args, **kwargs):
        return np.arange(*(scalar(a) for a in args), **kwargs)
bimanual_v0.np = Numpy1Arange()
geom = mujoco.MjModel.geom
mujoco.MjModel.geom = lambda self, *args: geom(self, *(scalar(a) for a in args))
task_id, seed, size, actions, out = sys.argv[1:6]
seed, size = int(seed), int(size)
env = gym.make(task_id, seed=seed)
renderer = env.unwrapped.mj_renderer
frames = []
for episode in np.load(actions):
    env.reset()
    frames.append(renderer.render_offscreen(width=size, height=size, camera_id=-1))
    for action in episode:
        env.step(action)
        frames.append(renderer.render_offscreen(width=size, height=size, camera_id=-1))
np.save(out, np.stack(frames))
"""


# (episodes, steps): a frame is some 3 s a side (software GL; the scene has over 1000 geoms):
# the nightly's sweep job draws the first reset's frame and an episode's; the default suite's
# frames of MyoSuite scenes are tests/test_render_myosuite.py's daily sample.
@pytest.mark.sweep_only("some 7 s of software GL a case")
@pytest.mark.parametrize(("episodes", "steps"), [(1, 0), (2, 3)])
def test_bimanual_frames_are_the_packages(episodes: int, steps: int, tmp_path: Path) -> None:
    """The frames of short episodes (each reset's and each step's), pixel for pixel: the
    package draws its observed copy (the pillars where the XML has them, the box moved after
    a reset though not yet forwarded there), the box's mesh as its construction centered
    it, in a scene of up to 10000 geoms (mujoco.Renderer's)."""
    task_id, seed, size = "myoChallengeBimanual-v0", 4, 96
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, render_mode="rgb_array",
                                  render_width=size, render_height=size)
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (episodes, steps, *ours.single_action_space.shape))
    actions = actions.astype(np.float32)
    np.save(tmp_path / "actions.npy", actions)
    subprocess.run([sys.executable, "-c", _REFERENCE_FRAMES, task_id, str(seed), str(size),
                    str(tmp_path / "actions.npy"), str(tmp_path / "frames.npy")], check=True,
                   env={**os.environ, "MUJOCO_GL": "egl"}, capture_output=True, timeout=300)
    expected = np.load(tmp_path / "frames.npy")
    frames = []
    for episode in actions:
        ours.reset()
        frames.append(ours.render()[0])
        for action in episode:
            ours.step(action[None])
            frames.append(ours.render()[0])
    ours.close()
    assert expected.shape == (len(frames), size, size, 3)
    for t, (frame, ref) in enumerate(zip(frames, expected, strict=True)):
        assert np.array_equal(frame, ref), (t, np.mean(frame != ref))
    if steps:
        assert not np.array_equal(frames[0], frames[-1])


def test_bimanual_whole_episode_aligns() -> None:
    """1005 steps of random actions without mid-episode resets (about 6 s), bitwise: the box
    falls off (z < 0.3; with zero actions within 1.5 to 3 s of each reset) before the time
    limit (1000 steps) or the package's time > 10 s would end an episode."""
    terminated, _ = _run("myoChallengeBimanual-v0", seed=3, steps=1005)
    assert terminated >= 1
