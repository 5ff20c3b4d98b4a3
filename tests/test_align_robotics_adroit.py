"""Alignment of Gymnasium-Robotics' Adroit hand tasks with gymnasium_robotics 1.4.2, step by step.

Our envs (native/envs/robotics/adroit_*.h) draw each reset's layout (the door frame's position,
the nail board's height, the pen target's orientation, the ball's and the target's positions)
from numpy's default_rng(seed) reproduced in C++, in the reference's order, and write it into
their own copy of the model as the reference does; so our env with seed s and
``gymnasium.make(task_id)`` reset with seed s start in the same state, nothing copied between
them. Both run the same MuJoCo library with the same calls (the clipped float32 action mapped
onto the ctrlrange, 5 ``mj_step`` s, ``mj_rnePostConstraint``), so under the same actions (some
outside [-1, 1], which both clip) the simulation stays bitwise equal: observations, rewards
(the pool's float32 of the reference's), ``success``, no termination, the truncation at 200
steps. Later episodes continue the seeded generator on both sides (our autoreset, the
reference's reset() without a seed).

Tolerances, each where numpy computes differently from our C++ on some CPUs:

* Hammer's observation holds the hammer's Euler angles (``rotations.quat2euler``:
  ``np.arctan2``). Where numpy's arctan2 is the C library's atan2 (``numerics.
  arctan2_matches_libm``) they are held bitwise; on AVX-512 CPUs numpy uses its SVML kernel,
  and both are within 1 ulp of the exact angle: ``ROT_ULPS`` (2) there (seen: 1). They feed
  nothing back.
* Hammer's dense reward has ``1e-2 * np.linalg.norm(qvel)`` of 33 numbers, which OpenBLAS's
  ddot sums in SIMD lanes (in an order that depends on the CPU's kernel), ours in order: the
  two differ by a few ulps of the norm, so the float32 reward is held to 1 float32 ulp (in
  practice equal). It feeds nothing back.
* Pen's reset turns the drawn Euler angles into the target's quaternion with ``np.sin`` and
  ``np.cos``; the target's geom collides, so this is simulation state. Where numpy's sin and
  cos are the C library's (``numerics.ufunc_matches_libm``; so on this project's machines,
  AVX-512 included) Pen is bitwise; elsewhere the quaternions may differ in the last bit and
  the test allows ``PEN_RTOL`` (that branch has not run on a machine of this project).

The success tests set one state into both sides (``set_state``), a state where the task is
achieved (the door open, the nail in, the pen turned to the target, the ball at the target),
since random actions never get there.
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import mujoco
import numpy as np
import pytest
from numerics import arctan2_matches_libm, ufunc_matches_libm  # tests/numerics.py

import envpool
from envpool.tasks import robotics_adroit

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")

IDS = robotics_adroit.ids()
DENSE = [i for i in IDS if "Sparse" not in i]
SPARSE = [i for i in IDS if "Sparse" in i]
# Hammer's observation: the hammer's Euler angles (np.arctan2), module docstring.
HAMMER_ROT = [39, 40, 41]
ROT_ULPS = 2
PEN_RTOL = 1e-6
T_MAX = robotics_adroit.MAX_EPISODE_STEPS


def _reference(task_id: str) -> gymnasium.Env:
    """``gymnasium.make(task_id)`` (its TimeLimit of 200 steps), without the package's warning
    that the v1 dense rewards changed in its 1.2.1."""
    gymnasium.register_envs(gymnasium_robotics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(task_id)


def _pen_bitwise() -> bool:
    return ufunc_matches_libm("sin", 1e-6, 0.5, signed=True) and ufunc_matches_libm(
        "cos", 1e-6, 0.5, signed=True
    )


def _assert_obs(task_id: str, ours: np.ndarray, theirs: np.ndarray, where: Any) -> None:
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype == np.float64, where
    if task_id.startswith("AdroitHandPen") and not _pen_bitwise():
        np.testing.assert_allclose(ours, theirs, rtol=PEN_RTOL, atol=PEN_RTOL, err_msg=str(where))
        return
    hammer = task_id.startswith("AdroitHandHammer")
    rot = HAMMER_ROT if hammer and not arctan2_matches_libm() else []
    exact = np.setdiff1d(np.arange(theirs.size), rot)
    assert np.array_equal(ours[exact], theirs[exact]), (where, ours - theirs)
    ulps = np.abs(ours[rot] - theirs[rot]) / np.spacing(np.abs(theirs[rot]))
    assert np.all(ulps <= ROT_ULPS), (where, ulps)


def _assert_reward(task_id: str, ours: np.float32, theirs: float, where: Any) -> None:
    expected = np.float32(theirs)
    if task_id == "AdroitHandHammer-v1":  # the 33-number norm (module docstring)
        assert abs(ours - expected) <= np.spacing(np.abs(expected)), (where, ours, theirs)
    elif task_id.startswith("AdroitHandPen") and not _pen_bitwise():
        np.testing.assert_allclose(ours, expected, rtol=PEN_RTOL, atol=PEN_RTOL)
    else:
        assert ours == expected, (where, ours, theirs)


def _reset_layout(task_id: str, ref: gymnasium.Env) -> np.ndarray:
    """What the reference's last reset drew, as our info's extra0 holds it."""
    u = ref.unwrapped
    model = u.model
    if task_id.startswith("AdroitHandDoor"):
        return model.body_pos[u.door_body_id]
    if task_id.startswith("AdroitHandHammer"):
        return model.body_pos[u.target_body_id]
    if task_id.startswith("AdroitHandPen"):
        return model.body_quat[u.target_obj_body_id]
    return np.concatenate([model.body_pos[u.obj_body_id], model.site_pos[u.target_obj_site_id]])


def _assert_reset_info(task_id: str, info: dict[str, np.ndarray], i: int, ref: gymnasium.Env,
                       where: Any) -> None:
    """sail-sg EnvPool's reset-state keys equal the reference's state after its reset."""
    data = ref.unwrapped.data
    assert np.array_equal(info["qpos0"][i], data.qpos), where
    assert np.array_equal(info["qvel0"][i], data.qvel), where
    if not (task_id.startswith("AdroitHandPen") and not _pen_bitwise()):
        assert np.array_equal(info["qacc0"][i], data.qacc), where
        assert np.array_equal(info["extra0"][i], _reset_layout(task_id, ref)), where
    assert np.array_equal(info["qacc_warmstart0"][i], data.qacc_warmstart), where


def _lockstep(task_id: str, num_envs: int, steps: int, seed: int) -> None:
    """Our pool and one reference per env, side by side, under uniform actions in
    [-1.2, 1.2]; through the truncation and the autoreset when ``steps`` > 200."""
    ours = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed)
    refs = [_reference(task_id) for _ in range(num_envs)]
    obs, info = ours.reset()
    for i, ref in enumerate(refs):
        r_obs, _ = ref.reset(seed=seed + i)
        _assert_obs(task_id, obs[i], r_obs, (task_id, i, "reset"))
        _assert_reset_info(task_id, info, i, ref, (task_id, i, "reset"))
    rng = np.random.default_rng(seed)
    shape = (num_envs, *ours.single_action_space.shape)
    elapsed = 0
    for t in range(steps):
        if elapsed == T_MAX:  # our next-step autoreset; the reference resets unseeded
            obs, _, _, _, info = ours.step(np.zeros(shape, np.float32))
            for i, ref in enumerate(refs):
                r_obs, _ = ref.reset()
                _assert_obs(task_id, obs[i], r_obs, (task_id, i, t, "autoreset"))
                _assert_reset_info(task_id, info, i, ref, (task_id, i, t, "autoreset"))
            elapsed = 0
        actions = rng.uniform(-1.2, 1.2, shape).astype(np.float32)
        obs, rew, term, trunc, info = ours.step(actions)
        elapsed += 1
        assert info["success"].dtype == np.bool_
        for i, ref in enumerate(refs):
            r_obs, r_rew, r_term, r_trunc, r_info = ref.step(actions[i])
            where = (task_id, i, t)
            _assert_obs(task_id, obs[i], r_obs, where)
            _assert_reward(task_id, rew[i], r_rew, where)
            assert info["success"][i] == r_info["success"], where
            assert (term[i], trunc[i]) == (r_term, r_trunc) == (False, elapsed == T_MAX), where
    ours.close()
    for ref in refs:
        ref.close()


@pytest.mark.parametrize("task_id", DENSE)
def test_adroit_matches_reference(task_id: str) -> None:
    """Door: two envs through a full episode, its truncation and the autoreset; the other
    dense tasks a shorter run of two envs."""
    steps = T_MAX + 5 if task_id.startswith("AdroitHandDoor") else 60
    _lockstep(task_id, num_envs=2, steps=steps, seed=11)


@pytest.mark.parametrize("task_id", SPARSE)
def test_adroit_sparse_matches_reference(task_id: str) -> None:
    _lockstep(task_id, num_envs=1, steps=25, seed=4)


@pytest.mark.nightly
@pytest.mark.timeout(600)
@pytest.mark.parametrize("task_id", IDS)
def test_adroit_matches_reference_long(task_id: str) -> None:
    """Every id: two envs through two full episodes and the start of a third."""
    _lockstep(task_id, num_envs=2, steps=2 * T_MAX + 10, seed=23)


def _joint_qpos(ref: gymnasium.Env, name: str) -> int:
    model = ref.unwrapped.model
    return int(model.jnt_qposadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, name)])


def _achieved_state(task_id: str, ref: gymnasium.Env) -> np.ndarray:
    """qpos then qvel of a state, from the reference's reset, where the task is achieved."""
    u = ref.unwrapped
    qpos, qvel = u.data.qpos.copy(), u.data.qvel.copy()
    if task_id.startswith("AdroitHandDoor"):
        qpos[_joint_qpos(ref, "door_hinge")] = 1.5  # open
    elif task_id.startswith("AdroitHandHammer"):
        qpos[_joint_qpos(ref, "nail_dir")] = 0.088  # the nail 3 mm from its goal
    elif task_id.startswith("AdroitHandRelocate"):
        gap = u.data.site_xpos[u.target_obj_site_id] - u.data.xpos[u.obj_body_id]
        for k, name in enumerate(("OBJTx", "OBJTy", "OBJTz")):
            qpos[_joint_qpos(ref, name)] += gap[k]  # the ball at the target
    else:  # the pen turned to the target's orientation (the closest on a grid)
        rx, ry = _joint_qpos(ref, "OBJRx"), _joint_qpos(ref, "OBJRy")
        best = (-2.0, qpos)
        for a in np.linspace(-1.5, 1.5, 31):
            for b in np.linspace(-1.5, 1.5, 31):
                q = qpos.copy()
                q[rx], q[ry] = a, b
                u.set_state(q, qvel)
                similarity = u._get_obs()[33:36].dot(u._get_obs()[36:39])
                best = max(best, (similarity, q), key=lambda x: x[0])
        qpos = best[1]
    return np.concatenate([qpos, qvel])


@pytest.mark.parametrize("task_id", IDS)
def test_adroit_success_matches_reference(task_id: str) -> None:
    """From a state where the task is achieved (set into both sides), the same steps:
    success True, and the dense rewards' bonuses (or the sparse 10)."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=1)
    ref = _reference(task_id)
    ours.reset()
    ref.reset(seed=1)  # a pen target that the pen's Rx and Ry joints reach
    state = _achieved_state(task_id, ref)
    nq = ref.unwrapped.model.nq
    ours.set_state(0, state)
    ref.unwrapped.set_state(state[:nq], state[nq:])
    action = np.zeros((1, *ours.single_action_space.shape), np.float32)
    for t in range(3):
        obs, rew, _, _, info = ours.step(action)
        r_obs, r_rew, _, _, r_info = ref.step(action[0])
        _assert_obs(task_id, obs[0], r_obs, (task_id, t))
        _assert_reward(task_id, rew[0], r_rew, (task_id, t))
        assert bool(info["success"][0]) == bool(r_info["success"]) is True, (task_id, t)
        assert r_rew >= 10.0
    ours.close()
    ref.close()


@pytest.mark.parametrize("task_id", IDS)
def test_adroit_spaces_match_reference(task_id: str) -> None:
    """Every id makes, resets and steps; its spaces, time limit and reward type are the
    reference's."""
    ours = envpool.make_gymnasium(task_id, num_envs=2)
    ref = _reference(task_id)
    assert ours.single_observation_space == ref.observation_space
    assert ours.single_action_space == ref.action_space
    assert ours.spec.config.max_episode_steps == ref.spec.max_episode_steps == T_MAX
    assert ours.spec.config.reward_type == ref.spec.kwargs["reward_type"]
    obs, _ = ours.reset()
    assert obs.shape == (2, *ref.observation_space.shape)
    obs, *_ = ours.step(np.stack([ref.action_space.sample() for _ in range(2)]))
    assert obs.shape == (2, *ref.observation_space.shape)
    ours.close()
    ref.close()


def test_adroit_reset_info_restores_the_reference() -> None:
    """sail-sg EnvPool's way of aligning (its robotics_test.py): the reset-state keys written
    into a reference reset with another seed (the layout into its model, then qpos, qvel,
    mj_forward, qacc, qacc_warmstart) give our observation, then the same steps."""
    task_id = "AdroitHandRelocate-v1"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=9)
    ref = _reference(task_id)
    obs, info = ours.reset()
    ref.reset(seed=1234)
    u = ref.unwrapped
    extra = info["extra0"][0]
    u.model.body_pos[u.obj_body_id] = extra[:3]
    u.model.site_pos[u.target_obj_site_id] = extra[3:]
    mujoco.mj_resetData(u.model, u.data)
    u.data.qpos[:] = info["qpos0"][0]
    u.data.qvel[:] = info["qvel0"][0]
    mujoco.mj_forward(u.model, u.data)
    u.data.qacc[:] = info["qacc0"][0]
    u.data.qacc_warmstart[:] = info["qacc_warmstart0"][0]
    _assert_obs(task_id, obs[0], u._get_obs(), "reset")
    rng = np.random.default_rng(0)
    for t in range(10):
        action = rng.uniform(-1, 1, (1, 30)).astype(np.float32)
        obs, rew, *_ = ours.step(action)
        r_obs, r_rew, *_ = ref.step(action[0])
        _assert_obs(task_id, obs[0], r_obs, t)
        _assert_reward(task_id, rew[0], r_rew, t)
    ours.close()
    ref.close()


def test_adroit_bad_keywords() -> None:
    """A reward type other than dense or sparse is the reference's ValueError; an unknown
    keyword a TypeError; a wrong action shape a ValueError."""
    with pytest.raises(ValueError, match="Unknown reward type"):
        envpool.make_gymnasium("AdroitHandPen-v1", reward_type="shaped")
    with pytest.raises(TypeError, match="unknown keyword"):
        envpool.make_gymnasium("AdroitHandPen-v1", rewardtype="dense")
    ours = envpool.make_gymnasium("AdroitHandDoor-v1", num_envs=2)
    ours.reset()
    with pytest.raises(ValueError, match="shape"):
        ours.step(np.zeros((2, 27), np.float32))
    ours.close()


def test_adroit_reward_type_in_any_case() -> None:
    """``reward_type`` is read as the reference reads it (``reward_type.lower()``)."""
    gymnasium.register_envs(gymnasium_robotics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make("AdroitHandDoor-v1", reward_type="SPARSE")
    ours = envpool.make_gymnasium("AdroitHandDoor-v1", num_envs=1, seed=0, reward_type="SPARSE")
    ours.reset()
    ref.reset(seed=0)
    action = np.zeros((1, 28), np.float32)
    _, rew, *_ = ours.step(action)
    _, r_rew, *_ = ref.step(action[0])
    assert rew[0] == np.float32(r_rew) == np.float32(-0.1)
    ours.close()
    ref.close()


def test_adroit_needs_gymnasium_robotics() -> None:
    """Without the package's models, making an id says what to install."""
    with pytest.raises(ImportError, match="gymnasium-robotics"):
        envpool.make_gymnasium("AdroitHandDoor-v1", assets_dir="/nonexistent/assets")


@pytest.mark.parametrize("task_id", ["AdroitHandDoor-v1", "AdroitHandPenSparse-v1"])
def test_adroit_frames_match_reference(task_id: str) -> None:
    """``render_mode="rgb_array"``: the reference's frames (gymnasium's MujocoRenderer, the
    free camera of the task's DEFAULT_CAMERA_CONFIG, 480 x 480), pixel for pixel (as
    tests/test_render_mujoco.py compares: the same libmujoco and GL driver on both sides),
    rendered between the steps of a lockstep run."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=5, render_mode="rgb_array")
    gymnasium.register_envs(gymnasium_robotics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make(task_id, render_mode="rgb_array")
    ours.reset()
    ref.reset(seed=5)
    assert ours.render_fps == ref.metadata["render_fps"] == 100
    rng = np.random.default_rng(0)
    for t in range(3):
        frame, r_frame = ours.render()[0], ref.render()
        assert frame.shape == r_frame.shape == (480, 480, 3)
        assert np.array_equal(frame, r_frame), (task_id, t)
        action = rng.uniform(-1, 1, (1, *ours.single_action_space.shape)).astype(np.float32)
        obs, *_ = ours.step(action)
        r_obs, *_ = ref.step(action[0])
        _assert_obs(task_id, obs[0], r_obs, (task_id, t))
    ours.close()
    ref.close()


def test_adroit_pixels_match_reference() -> None:
    """``from_pixels=True, pixels_only=False``: the state plus ``pixels`` (3, 84, 84), the
    reference's 84 x 84 frame after every reset and step, in lockstep."""
    task_id = "AdroitHandRelocate-v1"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=2, from_pixels=True,
                                  pixels_only=False)
    gymnasium.register_envs(gymnasium_robotics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make(task_id, render_mode="rgb_array", width=84, height=84)
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=2)
    rng = np.random.default_rng(1)
    for t in range(4):
        assert obs["pixels"].shape == (1, 3, 84, 84)
        assert np.array_equal(obs["pixels"][0].transpose(1, 2, 0), ref.render()), (task_id, t)
        _assert_obs(task_id, obs["state"][0], r_obs, (task_id, t))
        action = rng.uniform(-1, 1, (1, 30)).astype(np.float32)
        obs, *_ = ours.step(action)
        r_obs, *_ = ref.step(action[0])
    ours.close()
    ref.close()
