"""Alignment of Gymnasium-Robotics' Fetch tasks with gymnasium_robotics 1.4.2, step by step.

Our env (native/envs/robotics/fetch.h) draws from numpy's default_rng(seed) reproduced in C++,
in the order the reference draws (the object's start, then the goal), so our env with seed
s and ``gymnasium.make(task_id)`` reset with seed s start in the same state, nothing copied
between them. Both run the same MuJoCo library with the same calls (the mocap and gripper
controls, 20 ``mj_step`` s, the blocked gripper's ``mj_forward``), so under the same float32
actions (some outside [-1, 1], which both clip) the simulation stays bitwise equal: the
goals, the positions, the object's Euler angles, the gripper's joints and their velocities,
rewards (the pool's float32 of the reference's), ``is_success``, and the truncation at 50
steps. Later episodes continue the seeded generator on both sides (our autoreset, the
reference's reset() without a seed).

One tolerance: the Cartesian velocities of the observation (``grip_velp``, the object's
``velp`` and ``velr``) are ``(jac @ qvel) * dt``. numpy hands ``jac @ qvel`` (3 x nv by nv,
nv 15 or 21) to OpenBLAS's dgemv, whose kernel sums the nv products in SIMD lanes, in an
order that depends on the CPU's kernel; ours sums them in order. Both are within
(nv - 1) ulps of the exact sum of terms below 1 in size, so we allow ``VEL_ATOL`` (the
observed differences are below 1.1e-17). These numbers feed nothing back: the next state,
the achieved goal and the reward do not depend on them.

The object's Euler angles (``rotations.mat2euler`` of its site's rotation) are
``np.arctan2`` of the matrix's entries. Where numpy's arctan2 is the C library's atan2, which
our C++ calls (``numerics.arctan2_matches_libm``), they are held bitwise; on AVX-512 CPUs numpy
computes it with its SVML kernel, and both it and glibc's are within 1 ulp of the exact
angle, so they are held to ``ROT_ULPS`` (2) ulps there (seen: 1). They feed nothing back either.

gymnasium_robotics 1.4.2's ``mujoco_utils.set_joint_qpos`` (and ``get_joint_qpos``) check
``joint_type in (mjtJoint.mjJNT_HINGE, mjtJoint.mjJNT_SLIDE)``, which is False on mujoco
3.17 (its enums no longer compare equal from inside a tuple to the ``np.int32`` of
``model.jnt_type``), so the reference cannot be made as installed. The ``reference``
fixture gives that module's ``mujoco`` the joint types as plain ints (the value the check
means; tests/robotics_joint_types.py); every other name is mujoco's own, and no arithmetic
changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from numerics import arctan2_matches_libm  # tests/numerics.py
from robotics_joint_types import joint_types_as_ints  # tests/robotics_joint_types.py

import envpool
from envpool.tasks import robotics

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")

IDS_V4 = [i for i in robotics.ids() if i.endswith("-v4")]
IDS_V1 = [i for i in robotics.ids() if i.endswith("-v1")]
# The observation's (jac @ qvel) * dt entries, by observation size (module docstring).
VEL = {10: [5, 6, 7], 25: list(range(14, 23))}
# (nv - 1) ulps of sums below 1 in size, nv <= 21: 20 * 2**-52 < 4.5e-15.
VEL_ATOL = 4.5e-15
# The object's Euler angles (np.arctan2), by observation size, and their bound where numpy's
# arctan2 is not the C library's (module docstring): each within 1 ulp of the exact angle.
ROT = {10: [], 25: [11, 12, 13]}
ROT_ULPS = 2


@pytest.fixture(scope="module")
def reference() -> Iterator[Any]:
    """``make(task_id)``: the reference env (the v4 class for a v1 id, as sail-sg EnvPool and
    this package run them), with its TimeLimit of 50 steps."""
    gymnasium.register_envs(gymnasium_robotics)
    with joint_types_as_ints():
        yield lambda task_id: gymnasium.make(task_id.replace("-v1", "-v4"))


def _assert_obs(obs: dict[str, np.ndarray], i: int, ref: dict[str, np.ndarray], where: Any) -> None:
    assert np.array_equal(obs["achieved_goal"][i], ref["achieved_goal"]), where
    assert np.array_equal(obs["desired_goal"][i], ref["desired_goal"]), where
    ours, theirs = obs["observation"][i], ref["observation"]
    assert ours.shape == theirs.shape, where
    vel = VEL[theirs.size]
    rot = [] if arctan2_matches_libm() else ROT[theirs.size]
    exact = np.setdiff1d(np.arange(theirs.size), vel + rot)
    assert np.array_equal(ours[exact], theirs[exact]), (where, ours - theirs)
    ulps = np.abs(ours[rot] - theirs[rot]) / np.spacing(np.abs(theirs[rot]))
    assert np.all(ulps <= ROT_ULPS), (where, ulps)
    np.testing.assert_allclose(ours[vel], theirs[vel], rtol=0, atol=VEL_ATOL, err_msg=str(where))


def _assert_episode_start(info: dict[str, np.ndarray], i: int, ref: Any, where: Any) -> None:
    """sail-sg EnvPool's episode-start info keys (what its tests set into the reference):
    the reference's state right after its reset, and its goal, bitwise."""
    data = ref.unwrapped.data
    for key, value in (("qpos0", data.qpos), ("qvel0", data.qvel), ("qacc0", data.qacc),
                       ("qacc_warmstart0", data.qacc_warmstart), ("goal0", ref.unwrapped.goal)):
        assert np.array_equal(info[key][i], value), (where, key)


def _action(rng: np.random.Generator, obs: dict[str, np.ndarray], reach: bool) -> np.ndarray:
    """Half the time a push of the gripper toward the goal (FetchReach reaches it), else
    uniform in [-1.2, 1.2] (beyond the box: both sides clip)."""
    if reach and rng.random() < 0.5:
        a = np.append(20.0 * (obs["desired_goal"] - obs["achieved_goal"]), rng.uniform(-1, 1))
    else:
        a = rng.uniform(-1.2, 1.2, 4)
    return a.astype(np.float32)


def _lockstep(reference: Any, task_id: str, num_envs: int, steps: int, seed: int) -> int:
    """Runs our pool and one reference per env side by side; returns the successes seen."""
    ours = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed)
    refs = [reference(task_id) for _ in range(num_envs)]
    obs, info = ours.reset()
    r_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
    for i in range(num_envs):
        _assert_obs(obs, i, r_obs[i], (task_id, i, "reset"))
        _assert_episode_start(info, i, refs[i], (task_id, i, "reset"))
    rng = np.random.default_rng(seed)
    successes, elapsed = 0, 0
    reach = task_id.startswith("FetchReach")
    for t in range(steps):
        if elapsed == 50:  # our next-step autoreset; the reference resets unseeded
            obs, rew, term, trunc, info = ours.step(np.zeros((num_envs, 4), np.float32))
            r_obs = [ref.reset()[0] for ref in refs]
            for i in range(num_envs):
                _assert_obs(obs, i, r_obs[i], (task_id, i, t, "autoreset"))
                _assert_episode_start(info, i, refs[i], (task_id, i, t, "autoreset"))
            elapsed = 0
        actions = np.stack([_action(rng, o, reach) for o in r_obs])
        obs, rew, term, trunc, info = ours.step(actions)
        elapsed += 1
        for i, ref in enumerate(refs):
            r_obs[i], r_rew, r_term, r_trunc, r_info = ref.step(actions[i])
            where = (task_id, i, t)
            _assert_obs(obs, i, r_obs[i], where)
            assert rew[i] == np.float32(r_rew), (where, rew[i], r_rew)
            assert info["is_success"].dtype == np.float32
            assert info["is_success"][i] == r_info["is_success"], where
            # the reward's distance: fetch_env.goal_distance (norm along the last axis)
            r_distance = np.linalg.norm(
                r_obs[i]["achieved_goal"] - r_obs[i]["desired_goal"], axis=-1
            )
            assert info["distance"][i] == r_distance, where
            assert (term[i], trunc[i]) == (r_term, r_trunc), where
            assert trunc[i] == (elapsed == 50), where
            successes += int(r_info["is_success"])
    ours.close()
    return successes


@pytest.mark.parametrize("task_id", IDS_V4)
def test_fetch_matches_reference(reference: Any, task_id: str) -> None:
    """Two envs, two episodes and the start of a third, against two references."""
    successes = _lockstep(reference, task_id, num_envs=2, steps=105, seed=7)
    if task_id.startswith("FetchReach"):
        assert successes > 0  # the goal reached: sparse reward 0, is_success 1


@pytest.mark.parametrize("task_id", IDS_V1)
def test_fetch_v1_ids_run_the_v4_env(reference: Any, task_id: str) -> None:
    """sail-sg EnvPool's v1 ids: the v4 env (envpool/tasks/robotics.py); its truncation and
    autoreset are the v4 ids' (above)."""
    _lockstep(reference, task_id, num_envs=1, steps=12, seed=3)


@pytest.mark.parametrize("task_id", ["FetchReach-v4", "FetchPush-v4", "FetchSlideDense-v4"])
def test_fetch_spaces_match_reference(reference: Any, task_id: str) -> None:
    ours = envpool.make_gymnasium(task_id, num_envs=1)
    ref = reference(task_id)
    assert ours.single_observation_space == ref.observation_space
    assert list(ours.single_observation_space.spaces) == list(ref.observation_space.spaces)
    assert ours.single_action_space == ref.action_space
    ours.close()


@pytest.mark.parametrize(
    "task_id", ["FetchReach-v4", "FetchReachDense-v4", "FetchPickAndPlace-v4", "FetchSlideDense-v1"]
)
def test_fetch_compute_reward_matches_reference(reference: Any, task_id: str) -> None:
    """The pool's compute_reward, on random batches, a single pair, and distances at the
    threshold, equals the reference's (values and dtype); SB3's HER calls it through the
    adapter's env_method."""
    from envpool.integrations.sb3 import make_vec_env

    ref = reference(task_id).unwrapped
    pool = envpool.make_gymnasium(task_id, num_envs=2)
    rng = np.random.default_rng(0)
    center = np.array([1.3, 0.75, 0.5])
    achieved = center + rng.uniform(-0.1, 0.1, (256, 3))
    desired = center + rng.uniform(-0.1, 0.1, (256, 3))
    desired[:8] = achieved[:8] + np.array([0.05, 0.0, 0.0])  # at the threshold
    infos = [{} for _ in range(256)]
    for a, d, info in [
        (achieved, desired, infos),
        (achieved[3], desired[3], {}),
        (achieved[:1], desired[:1], infos[:1]),
    ]:
        ours, theirs = pool.compute_reward(a, d, info), ref.compute_reward(a, d, info)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        assert np.array_equal(ours, theirs)
    assert len(np.unique(pool.compute_reward(achieved, desired, infos))) > 1
    venv = make_vec_env(task_id, n_envs=2, seed=0)
    her = venv.env_method("compute_reward", achieved, desired, infos, indices=[0])[0]
    assert np.array_equal(her, ref.compute_reward(achieved, desired, infos))
    single = gymnasium.make(f"envpool/{task_id}")
    assert np.array_equal(
        single.unwrapped.compute_reward(achieved, desired, infos),
        ref.compute_reward(achieved, desired, infos),
    )
    for env in (pool, venv, single):
        env.close()


def test_fetch_needs_gymnasium_robotics() -> None:
    """Without the package's models, making an id says what to install."""
    with pytest.raises(ImportError, match="gymnasium-robotics"):
        envpool.make_gymnasium("FetchReach-v4", assets_dir="/nonexistent/assets")


@pytest.mark.parametrize("task_id", ["FetchPickAndPlaceDense-v4"])
def test_fetch_frames_match_reference(reference: Any, task_id: str) -> None:
    """``render_mode="rgb_array"``: the reference's frames (its target site moved to the goal,
    fetch_env.py's DEFAULT_CAMERA_CONFIG, 480 x 480), pixel for pixel (as
    tests/test_render_mujoco.py compares: the same libmujoco and GL driver on both sides),
    rendered between the steps of a lockstep run (each frame's mj_forward is in both)."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=5, render_mode="rgb_array")
    ref = gymnasium.make(task_id, render_mode="rgb_array")
    ours.reset()
    r_obs, _ = ref.reset(seed=5)
    assert ours.render_fps == ref.metadata["render_fps"] == 25
    rng = np.random.default_rng(0)
    for t in range(3):
        frame, r_frame = ours.render()[0], ref.render()
        assert frame.shape == r_frame.shape == (480, 480, 3)
        assert np.array_equal(frame, r_frame), (task_id, t)
        action = _action(rng, r_obs, reach=True)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
        _assert_obs(obs, 0, r_obs, (task_id, t))
    ours.close()
    ref.close()


def test_fetch_pixels_match_reference(reference: Any) -> None:
    """``from_pixels=True, pixels_only=False``: the goal dict plus ``pixels`` (3, 84, 84), the
    reference's 84 x 84 frame after every reset and step (gymnasium's AddRenderObservation
    takes ``env.render()`` so), in lockstep."""
    task_id = "FetchPush-v4"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=2, from_pixels=True, pixels_only=False)
    ref = gymnasium.make(task_id, render_mode="rgb_array", width=84, height=84)
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=2)
    rng = np.random.default_rng(1)
    for t in range(4):
        assert obs["pixels"].shape == (1, 3, 84, 84)
        assert np.array_equal(obs["pixels"][0].transpose(1, 2, 0), ref.render()), (task_id, t)
        _assert_obs(obs, 0, r_obs, (task_id, t))
        action = _action(rng, r_obs, reach=False)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
    ours.close()
    ref.close()
