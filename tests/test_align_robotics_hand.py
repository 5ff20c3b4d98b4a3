"""Alignment of Gymnasium-Robotics' Shadow Dexterous Hand tasks with gymnasium_robotics 1.4.2,
step by step.

Our envs (native/envs/robotics/hand_reach.h, hand_manipulate.h) draw from numpy's
default_rng(seed) reproduced in C++ (uniform, integers, and normal with numpy's own ziggurat
tables), in the order the reference draws, so our env with seed s and ``gymnasium.make``
reset with seed s start in the same state, nothing copied between them. Both run the same
MuJoCo library with the same calls (the controls, 20 ``mj_step`` s per step; the manipulation
reset's 10 settling steps without ``mj_resetData``, its retries while the object is off the
palm), so under the same float32 actions (some outside [-1, 1], which both clip) the
simulation stays bitwise equal: observations (robot joints, object velocities and pose,
touch sensors), goals, rewards (the pool's float32 of the reference's), ``is_success``,
truncation, and the later episodes of the seeded generator (our autoreset, the reference's
reset() without a seed).

What goes through numpy where the C library may differ (tests/numerics.py tells at run time):

* The reset's draws normalise quaternions and directions with ``np.linalg.norm`` (BLAS
  ``ddot``) and take ``np.sin`` / ``np.cos`` of the drawn angles; our resets sum the norms
  in one fixed order (fused, ``NumpyBlas::Fixed()``: the same episode for a seed on every
  machine) and call the C library's sin and cos. These values are the object's initial
  pose, which feeds the dynamics. Where the running numpy differs (BLAS's ddot not fused, or
  numpy's sin / cos not the C library's), the test puts our state after each reset (info
  ``qpos0``, ``qvel0``, ``qacc_warmstart0``, ``goal0``) into the reference, and compares
  bitwise from there.
* The manipulation reward's angle ``2 arccos(w)`` (and, for the pen, the Euler angles of
  ``quat2euler``, ``arctan2``): numpy's AVX-512 loops differ from the C library in the last
  bit or two. They feed only the reward and ``is_success`` (never the state): the dense reward
  is asserted within ``REWARD_ULPS`` float32 ulps there (bitwise where numpy equals the C
  library), the sparse reward and ``is_success`` bitwise (a flip would need a distance within
  an ulp of its threshold).

The reference's ``mujoco_utils`` cannot make these envs on mujoco 3.17 as installed (its
joint-type check): the ``reference`` fixture runs it under tests/robotics_joint_types.py.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import gymnasium
import mujoco
import numpy as np
import pytest
from numerics import ufunc_matches_libm  # tests/numerics.py (pgx installs a package named tests)
from robotics_joint_types import joint_types_as_ints  # tests/robotics_joint_types.py

import envpool
from envpool.core.registry import get_task
from envpool.tasks import robotics_hand
from envpool.tasks._numpy_blas import numpy_blas_orders
from envpool.tasks._numpy_ziggurat import ziggurat_tables

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")

IDS = robotics_hand.ids()
# Whether our reset's arithmetic is the running numpy's (module docstring).
RESET_EXACT = (
    numpy_blas_orders()["dot"] == "fused"
    and ufunc_matches_libm("sin", 1e-3, 4.0, signed=True)
    and ufunc_matches_libm("cos", 1e-3, 4.0, signed=True)
)


def _numpy_is_libm() -> bool:
    """Whether np.arccos and np.arctan2 equal the C library's (Python's math) on 20,000
    random arguments (tests/numerics.py's check, for these two)."""
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-1.0, 1.0, 20_000), rng.uniform(-1.0, 1.0, 20_000)
    acos = np.array([math.acos(v) for v in x.tolist()])
    atan2 = np.array([math.atan2(a, b) for a, b in zip(y.tolist(), x.tolist(), strict=True)])
    return bool(np.array_equal(np.arccos(x), acos) and np.array_equal(np.arctan2(y, x), atan2))


# Whether the manipulation reward's arithmetic is (module docstring).
REWARD_EXACT = _numpy_is_libm()
# The dense manipulation reward, where it is not: d_rot = 2 arccos(w) is within a few float64
# ulps of the reference's (of w near 1, ~1e-12 relative at worst), which the float32 reward
# rounds away but for the odd value next to a float32 rounding boundary.
REWARD_ULPS = 2
STEPS = 8  # the episodes of the lockstep tests (max_episode_steps), to reach autoresets fast


def reference_id(task_id: str) -> str:
    """The reference env of an id: ``-v0`` runs as the mujoco-bindings env."""
    if task_id.endswith("-v0"):
        return task_id[:-3] + ("-v3" if task_id.startswith("HandReach") else "-v1")
    return task_id


@pytest.fixture(scope="module")
def reference() -> Iterator[Any]:
    """``make(task_id, **kwargs)``: the reference env of an id (with its TimeLimit)."""
    gymnasium.register_envs(gymnasium_robotics)
    with joint_types_as_ints():
        yield lambda task_id, **kw: gymnasium.make(reference_id(task_id), **kw)


def _sync(ref: Any, info: dict[str, np.ndarray], i: int) -> dict[str, np.ndarray]:
    """Our env i's state after its reset, put into the reference (module docstring); the
    controls are already equal (zero after reach's mj_resetData, the range's centre after
    the manipulation's settling steps)."""
    env = ref.unwrapped
    env.data.qpos[:] = info["qpos0"][i]
    env.data.qvel[:] = info["qvel0"][i]
    env.data.qacc_warmstart[:] = info["qacc_warmstart0"][i]
    mujoco.mj_forward(env.model, env.data)
    env.goal = np.array(info["goal0"][i])
    return env._get_obs()


def _assert_obs(obs: dict[str, np.ndarray], i: int, ref: dict[str, np.ndarray], where: Any) -> None:
    assert list(obs) == ["achieved_goal", "desired_goal", "observation"]
    for key in obs:
        assert obs[key][i].shape == ref[key].shape, (where, key)
        assert np.array_equal(obs[key][i], ref[key]), (where, key, obs[key][i] - ref[key])


def _assert_reward(task_id: str, ours: np.float32, theirs: Any, where: Any) -> None:
    theirs32 = np.float32(theirs)
    if ours == theirs32:
        return
    inexact = "Manipulate" in task_id and "Dense" in task_id and not REWARD_EXACT
    assert inexact, (where, ours, theirs)
    assert abs(ours - theirs32) <= REWARD_ULPS * np.spacing(abs(theirs32)), (where, ours, theirs)


def _lockstep(reference: Any, task_id: str, num_envs: int, steps: int, seed: int) -> int:
    """Our pool and one reference per env side by side over episodes of STEPS steps (random
    actions in [-1.2, 1.2]); returns the successes seen."""
    ours = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed, max_episode_steps=STEPS)
    refs = [reference(task_id, max_episode_steps=STEPS) for _ in range(num_envs)]
    obs, info = ours.reset()
    r_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
    if not RESET_EXACT:
        r_obs = [_sync(ref, info, i) for i, ref in enumerate(refs)]
    for i in range(num_envs):
        _assert_obs(obs, i, r_obs[i], (task_id, i, "reset"))
    rng = np.random.default_rng(seed)
    successes, elapsed = 0, 0
    for t in range(steps):
        if elapsed == STEPS:  # our next-step autoreset; the reference resets unseeded
            obs, rew, term, trunc, info = ours.step(np.zeros((num_envs, 20), np.float32))
            r_obs = [ref.reset()[0] for ref in refs]
            if not RESET_EXACT:
                r_obs = [_sync(ref, info, i) for i, ref in enumerate(refs)]
            for i in range(num_envs):
                _assert_obs(obs, i, r_obs[i], (task_id, i, t, "autoreset"))
            elapsed = 0
        actions = rng.uniform(-1.2, 1.2, (num_envs, 20)).astype(np.float32)
        obs, rew, term, trunc, info = ours.step(actions)
        elapsed += 1
        assert info["is_success"].dtype == np.float32
        for i, ref in enumerate(refs):
            r_obs[i], r_rew, r_term, r_trunc, r_info = ref.step(actions[i])
            where = (task_id, i, t)
            _assert_obs(obs, i, r_obs[i], where)
            _assert_reward(task_id, rew[i], r_rew, where)
            assert info["is_success"][i] == r_info["is_success"], where
            assert (term[i], trunc[i]) == (r_term, r_trunc) == (False, elapsed == STEPS), where
            successes += int(r_info["is_success"])
    ours.close()
    return successes


# One id per class of task (reach; each object and target mode; each touch kind), sparse and
# dense, new and -v0 ids among them.
LOCKSTEP_IDS = [
    "HandReach-v3",
    "HandReachDense-v0",
    "HandManipulateBlock-v1",
    "HandManipulateBlockRotateZ-v1",
    "HandManipulateBlockRotateParallelDense-v1",
    "HandManipulateBlockRotateXYZ-v0",
    "HandManipulateEggDense-v1",
    "HandManipulateEggRotate-v1",
    "HandManipulatePenDense-v1",
    "HandManipulatePenRotateDense-v0",
    "HandManipulateBlock_BooleanTouchSensorsDense-v1",
    "HandManipulatePenRotate_ContinuousTouchSensors-v1",
]


@pytest.mark.parametrize("task_id", LOCKSTEP_IDS)
def test_hand_matches_reference(reference: Any, task_id: str) -> None:
    """Two episodes and the start of a third (a shorter time limit on both sides)."""
    _lockstep(reference, task_id, num_envs=2 if "Reach" in task_id else 1, steps=18, seed=7)


@pytest.mark.sweep
@pytest.mark.nightly
@pytest.mark.timeout(300)
@pytest.mark.parametrize("task_id", IDS)
def test_hand_full_episodes_match_reference(reference: Any, task_id: str) -> None:
    """Every id, over its own time limit, twice (nightly: ~2 s each)."""
    limit = get_task(task_id).max_episode_steps
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=11)
    ref = reference(task_id)
    obs, info = ours.reset()
    r_obs, _ = ref.reset(seed=11)
    if not RESET_EXACT:
        r_obs = _sync(ref, info, 0)
    _assert_obs(obs, 0, r_obs, (task_id, "reset"))
    rng = np.random.default_rng(1)
    for t in range(limit):
        action = rng.uniform(-1.2, 1.2, 20).astype(np.float32)
        obs, rew, term, trunc, info = ours.step(action[None])
        r_obs, r_rew, r_term, r_trunc, r_info = ref.step(action)
        _assert_obs(obs, 0, r_obs, (task_id, t))
        _assert_reward(task_id, rew[0], r_rew, (task_id, t))
        assert info["is_success"][0] == r_info["is_success"]
        assert (term[0], trunc[0]) == (r_term, r_trunc), (task_id, t)
    assert trunc[0]
    ours.close()


def test_registered_ids_are_the_packages(reference: Any) -> None:
    """The 112 ids of sail-sg EnvPool: each one of the package's (the -v0 ones its mujoco-py
    registrations), with its arguments and time limit."""
    assert len(IDS) == len(set(IDS)) == 112
    assert sorted(i for i in envpool.list_all_envs() if i.startswith("Hand")) == sorted(IDS)
    for task_id in IDS:
        theirs = gymnasium.spec(task_id)
        canonical = gymnasium.spec(reference_id(task_id))
        task = get_task(task_id)
        assert task.max_episode_steps == theirs.max_episode_steps == canonical.max_episode_steps
        for key, value in canonical.kwargs.items():
            assert task.env_kwargs[key] == value, (task_id, key)
        if task_id.startswith("HandReach"):
            xml = "hand/reach.xml"
        else:
            obj = next(o for o in ("Block", "Egg", "Pen") if o in task_id).lower()
            touch = "_touch_sensors" if "TouchSensors" in task_id else ""
            xml = f"hand/manipulate_{obj}{touch}.xml"
        assert task.env_kwargs.get("xml_file", "hand/reach.xml") == xml, task_id


# One id per class: reach, manipulation without and with touch sensors (each object).
SPACE_IDS = {
    "HandReach-v3": "reach",
    "HandManipulateBlock-v1": "manipulate",
    "HandManipulateEggRotate-v1": "manipulate",
    "HandManipulatePenDense-v1": "manipulate",
    "HandManipulateBlock_ContinuousTouchSensors-v1": "touch",
    "HandManipulatePenRotate_BooleanTouchSensors-v1": "touch",
}


def _class_of(task_id: str) -> str:
    if task_id.startswith("HandReach"):
        return "reach"
    return "touch" if "TouchSensors" in task_id else "manipulate"


def test_every_id_has_the_packages_spaces(reference: Any) -> None:
    """Every id's spaces are those of the package's env of its class (reach, manipulation,
    manipulation with touch sensors); one id of each class makes a pool that resets and
    steps; the class arguments of each object (the pen's) are the package's. (Every id
    resets and steps in the nightly test_hand_full_episodes_match_reference.)"""
    spaces = {}
    for task_id, kind in SPACE_IDS.items():
        ref = reference(task_id).unwrapped
        spaces[kind] = (ref.observation_space, ref.action_space)
        env = envpool.make_gymnasium(task_id, num_envs=1)
        obs, _ = env.reset()
        obs, *_ = env.step(np.zeros((1, 20), np.float32))
        assert obs["observation"].shape[1:] == ref.observation_space["observation"].shape
        if kind != "reach":
            config = env.spec.config
            for key in ("distance_threshold", "rotation_threshold", "randomize_initial_rotation",
                        "randomize_initial_position", "ignore_z_target_rotation"):
                assert getattr(config, key) == getattr(ref, key), (task_id, key)
        env.close()
        ref.close()
    for task_id in IDS:
        spec = envpool.make_spec(task_id)
        obs_space, act_space = spaces[_class_of(task_id)]
        assert spec.observation_space == obs_space, task_id
        assert list(spec.observation_space.spaces) == list(obs_space.spaces)
        assert spec.action_space == act_space, task_id


def test_success_and_zero_reward_at_the_goal(reference: Any) -> None:
    """A goal the next step reaches exactly (the reference's achieved goal after that step,
    given to our env through set_state): is_success 1 and the sparse reward 0 on both sides."""
    for task_id in ("HandReach-v3", "HandManipulateBlock-v1", "HandManipulatePen-v1"):
        ours = envpool.make_gymnasium(task_id, num_envs=1, seed=4)
        ref = reference(task_id)
        _, info = ours.reset()
        ref.reset(seed=4)
        if not RESET_EXACT:
            _sync(ref, info, 0)
        action = np.full(20, 0.1, np.float32)
        r_obs, *_ = ref.step(action)
        goal = r_obs["achieved_goal"]
        ref.unwrapped.goal = goal.copy()
        state = ours.get_state(0)
        ours.set_state(0, state[: len(state) - goal.size] + list(goal))
        obs, rew, _, _, info = ours.step(action[None])
        assert np.array_equal(obs["achieved_goal"][0], goal), task_id
        assert np.array_equal(obs["desired_goal"][0], goal), task_id
        assert info["is_success"][0] == 1.0 and rew[0] == 0.0, task_id
        env = ref.unwrapped
        assert env._is_success(goal, goal) == 1.0 and env.compute_reward(goal, goal, {}) == 0.0
        ours.close()


@pytest.mark.parametrize(
    "task_id",
    [
        "HandReach-v3",
        "HandReachDense-v3",
        "HandManipulateBlock-v1",
        "HandManipulateBlockDense-v1",
        "HandManipulateBlockRotateZDense-v1",
        "HandManipulatePen-v1",
        "HandManipulatePenDense-v1",
    ],
)
def test_hand_compute_reward_matches_reference(reference: Any, task_id: str) -> None:
    """The pool's compute_reward on random batches (a quarter of them at the goal, and near
    it), one pair, and a batch of one, equals the reference's (values and dtype; the pen's
    batch of one raises IndexError on both sides)."""
    ref = reference(task_id).unwrapped
    pool = envpool.make_gymnasium(task_id, num_envs=1)
    rng = np.random.default_rng(0)
    size = 15 if "Reach" in task_id else 7
    achieved = rng.uniform(-1.0, 1.0, (256, size))
    desired = achieved + rng.normal(scale=0.02, size=(256, size))
    if size == 7:
        for goals in (achieved, desired):
            goals[:, 3:] /= np.linalg.norm(goals[:, 3:], axis=-1, keepdims=True)
    desired[:64] = achieved[:64]
    infos = [{} for _ in range(256)]
    for a, d, info in [(achieved, desired, infos), (achieved[3], desired[3], {}),
                       (achieved[:1], desired[:1], infos[:1])]:
        if "Pen" in task_id and a.ndim == 2 and len(a) < 3:
            # The reference's euler_a[2] indexes the batch (robotics_hand.py): an IndexError.
            for env in (pool, ref):
                with pytest.raises(IndexError):
                    env.compute_reward(a, d, info)
            continue
        ours, theirs = pool.compute_reward(a, d, info), ref.compute_reward(a, d, info)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, task_id
        assert np.array_equal(ours, theirs), task_id
    assert len(np.unique(pool.compute_reward(achieved, desired, infos))) > 1
    with pytest.raises(ValueError, match="shapes differ"):
        pool.compute_reward(achieved, desired[:, :3], infos)
    pool.close()


def test_reset_goals_of_many_seeds(reference: Any) -> None:
    """HandReach's goals after the reset of 256 seeds (3 normal draws each, numpy's ziggurat)
    equal the package's."""
    ours = envpool.make_gymnasium("HandReach-v3", num_envs=256, seed=100)
    ref = reference("HandReach-v3")
    obs, info = ours.reset()
    for i in range(256):
        r_obs, _ = ref.reset(seed=100 + i)
        if RESET_EXACT:
            assert np.array_equal(obs["desired_goal"][i], r_obs["desired_goal"]), i
        else:
            np.testing.assert_allclose(obs["desired_goal"][i], r_obs["desired_goal"], rtol=1e-15)
    ours.close()


def test_ziggurat_tables_give_numpys_normals() -> None:
    """numpy's ziggurat tables as read from the installed numpy (envpool/tasks/
    _numpy_ziggurat.py), run through numpy's algorithm (as numpy_normal.h does) on a PCG64
    stream: the same 20,000 numbers as Generator.standard_normal, tails and wedges included."""
    t = ziggurat_tables()
    ki, wi, fi = t["_ziggurat_ki"], t["_ziggurat_wi"], t["_ziggurat_fi"]
    r, inv_r = 3.6541528853610087963519472518, 0.27366123732975827203338247596
    bits = np.random.PCG64(5)

    def uniform() -> float:
        return (int(bits.random_raw()) >> 11) * (1.0 / 9007199254740992.0)

    def normal() -> float:
        while True:
            u = int(bits.random_raw())
            idx, u = u & 0xFF, u >> 8
            rabs = (u >> 1) & 0x000FFFFFFFFFFFFF
            x = rabs * wi[idx] * (-1 if u & 1 else 1)
            if rabs < ki[idx]:
                return x
            if idx == 0:
                while True:
                    xx = -inv_r * math.log1p(-uniform())
                    if -math.log1p(-uniform()) * 2 > xx * xx:
                        return -(r + xx) if (rabs >> 8) & 1 else r + xx
            elif (fi[idx - 1] - fi[idx]) * uniform() + fi[idx] < math.exp(-0.5 * x * x):
                return x

    ours = np.array([normal() for _ in range(20_000)])
    theirs = np.random.Generator(np.random.PCG64(5)).standard_normal(20_000)
    assert np.array_equal(ours, theirs)


@pytest.mark.parametrize(
    "task_id", ["HandReach-v3", "HandManipulateEggRotate_BooleanTouchSensors-v1"]
)
def test_hand_frames_match_reference(reference: Any, task_id: str) -> None:
    """``render_mode="rgb_array"``: the reference's frames (its goal drawn: target and finger
    sites for reach, the target object and the touch sites' colours for manipulation;
    DEFAULT_CAMERA_CONFIG, 480 x 480), pixel for pixel, between the steps of a lockstep run
    (each frame's mj_forward, and the target object's joint set to the goal, are in both)."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=5, render_mode="rgb_array")
    ref = reference(task_id, render_mode="rgb_array")
    _, info = ours.reset()
    ref.reset(seed=5)
    if not RESET_EXACT:
        _sync(ref, info, 0)
    assert ours.render_fps == ref.metadata["render_fps"] == 25
    rng = np.random.default_rng(0)
    for t in range(2):
        frame, r_frame = ours.render()[0], ref.render()
        assert frame.shape == r_frame.shape == (480, 480, 3)
        assert np.array_equal(frame, r_frame), (task_id, t)
        action = rng.uniform(-1, 1, 20).astype(np.float32)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
        _assert_obs(obs, 0, r_obs, (task_id, t))
    ours.close()
    ref.close()


def test_hand_keywords_are_checked() -> None:
    """Bad keywords: a clear Python exception."""
    with pytest.raises(ValueError, match="target_rotation"):
        envpool.make_gymnasium("HandManipulateBlock-v1", target_rotation="spin")
    with pytest.raises(ValueError, match="touch_get_obs"):
        envpool.make_gymnasium("HandManipulateBlock-v1", touch_get_obs="boolean")
    with pytest.raises(ValueError, match="reward_type"):
        envpool.make_gymnasium("HandReach-v3", reward_type="shaped")
    with pytest.raises(TypeError):
        envpool.make_gymnasium("HandReach-v3", target_rotation="z")


def test_hand_needs_gymnasium_robotics() -> None:
    """Without the package's models, making an id says what to install."""
    with pytest.raises(ImportError, match="gymnasium-robotics"):
        envpool.make_gymnasium("HandReach-v3", assets_dir="/nonexistent/assets")


def test_hand_pixels_match_reference(reference: Any) -> None:
    """``from_pixels=True, pixels_only=False``: the goal dict plus ``pixels`` (3, 84, 84), the
    reference's 84 x 84 frame after every reset and step (as gymnasium's AddRenderObservation
    takes ``env.render()``; the frame's target object is set in both simulations), in
    lockstep."""
    task_id = "HandManipulateBlockRotateZ-v1"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=2, from_pixels=True, pixels_only=False)
    ref = reference(task_id, render_mode="rgb_array", width=84, height=84)
    obs, info = ours.reset()
    r_obs, _ = ref.reset(seed=2)
    if not RESET_EXACT:
        r_obs = _sync(ref, info, 0)
    rng = np.random.default_rng(1)
    for t in range(3):
        assert obs["pixels"].shape == (1, 3, 84, 84)
        assert np.array_equal(obs["pixels"][0].transpose(1, 2, 0), ref.render()), (task_id, t)
        _assert_obs({k: obs[k] for k in ("achieved_goal", "desired_goal", "observation")}, 0,
                    r_obs, (task_id, t))
        action = rng.uniform(-1, 1, 20).astype(np.float32)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
    ours.close()
    ref.close()


def test_hand_log_touch_values(reference: Any) -> None:
    """``touch_get_obs="log"`` (no registered id has it): the touch values as np.log(x + 1),
    in lockstep. numpy's log may differ from the C library's in the last bit (its SIMD loops);
    the touch values (the observation's last 92 numbers, which feed nothing back) are asserted
    within 2 ulps, the rest bitwise."""
    task_id = "HandManipulateEgg_ContinuousTouchSensors-v1"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=6, touch_get_obs="log")
    ref = reference(task_id, touch_get_obs="log")
    obs, info = ours.reset()
    r_obs, _ = ref.reset(seed=6)
    if not RESET_EXACT:
        r_obs = _sync(ref, info, 0)
    rng = np.random.default_rng(2)
    touched = 0
    for t in range(6):
        mine, theirs = obs["observation"][0], r_obs["observation"]
        assert np.array_equal(mine[:-92], theirs[:-92]), (task_id, t)
        np.testing.assert_array_max_ulp(mine[-92:], theirs[-92:], maxulp=2)
        touched += int(np.count_nonzero(theirs[-92:]))
        action = rng.uniform(-1, 1, 20).astype(np.float32)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
    assert touched > 0
    ours.close()
