"""Alignment of Gymnasium-Robotics' Franka Kitchen (``FrankaKitchen-v1``) with gymnasium_robotics
1.4.2, step by step.

Our env (native/envs/robotics/kitchen.h) starts where the package's does (``init_qpos``, zero
velocities, one ``mj_forward``) and draws its observation noise from numpy's
``default_rng(seed)`` reproduced in C++, in the package's order (the robot's qpos and qvel in
FrankaRobot._get_obs, then the objects' qpos and qvel in KitchenEnv._get_obs), so our env
with seed s and ``gymnasium.make("FrankaKitchen-v1")`` reset with seed s are in the same
state, nothing copied between them. Each step turns the velocity action into position
targets from the last noisy robot observation (so the noise feeds back into the dynamics,
through plain float64 products and sums), runs the same 40 ``mj_step`` s of the same MuJoCo
library and ``mj_rnePostConstraint``; everything is held bitwise: the goal dicts, the 59
observations, rewards (the number of tasks completed at the step: ``np.linalg.norm`` of the
goal distance, ``x.dot(x)`` in the running numpy's BLAS order, ``_numpy_dot_fma``), the
terminations, the truncation at 280 steps and the info masks. No value goes through a numpy
ufunc with an SVML kernel, so nothing depends on the CPU's numpy.

The reference cannot be made as installed on mujoco 3.17 (``mujoco_utils.get_joint_qpos``'s
joint-type check, see tests/test_align_robotics.py); the ``reference`` fixture gives that
module's ``mujoco`` the joint types as plain ints, as test_align_robotics does, with its
helper.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium
import mujoco
import numpy as np
import pytest
from robotics_joint_types import joint_types_as_ints  # tests/robotics_joint_types.py

import envpool
from envpool.tasks import robotics_kitchen

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")

TASK_ID = "FrankaKitchen-v1"
TASKS = robotics_kitchen.TASKS
GOALS = {  # kitchen_env.py's OBS_ELEMENT_INDICES and OBS_ELEMENT_GOALS, for the tests' states
    "microwave": ([22], [-0.75]),
    "kettle": (list(range(23, 30)), [-0.23, 0.75, 1.62, 0.99, 0.0, 0.0, -0.06]),
    "slide cabinet": ([19], [0.37]),
}
STAGES = {2: "microwave", 6: "kettle", 9: "slide cabinet"}  # step: the task set near its goal


@pytest.fixture(scope="module")
def reference() -> Iterator[Any]:
    """``make(**kwargs)``: the package's FrankaKitchen-v1 with its TimeLimit of 280 steps."""
    gymnasium.register_envs(gymnasium_robotics)
    with joint_types_as_ints():
        yield lambda **kwargs: gymnasium.make(TASK_ID, disable_env_checker=True, **kwargs)


def _mask(tasks: list[str]) -> np.ndarray:
    return np.array([t in tasks for t in TASKS], dtype=np.int32)


def _assert_obs(obs: dict[str, Any], i: int, ref: dict[str, Any], where: Any) -> None:
    assert obs.keys() == ref.keys(), where
    for part in ("achieved_goal", "desired_goal"):
        assert list(obs[part]) == sorted(ref[part]), where
        for task, value in ref[part].items():
            assert np.array_equal(obs[part][task][i], value), (where, part, task)
    d = obs["observation"][i] - ref["observation"]
    assert np.array_equal(obs["observation"][i], ref["observation"]), (where, np.nonzero(d))


def _assert_step(out: tuple[Any, ...], i: int, ref_out: tuple[Any, ...], where: Any) -> None:
    obs, rew, term, trunc, info = out
    r_obs, r_rew, r_term, r_trunc, r_info = ref_out
    _assert_obs(obs, i, r_obs, where)
    assert rew[i] == r_rew, (where, rew[i], r_rew)
    assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
    for key in ("tasks_to_complete", "step_task_completions", "episode_task_completions"):
        assert info[key].dtype == np.int32
        assert np.array_equal(info[key][i], _mask(r_info[key])), (where, key)


def test_franka_kitchen_spaces_match_reference(reference: Any) -> None:
    for kwargs in ({}, {"tasks_to_complete": ["microwave", "kettle", "light switch"]}):
        ours = envpool.make_gymnasium(TASK_ID, num_envs=1, **kwargs)
        ref = reference(**kwargs)
        assert ours.single_observation_space == ref.observation_space, kwargs
        for part in ("achieved_goal", "desired_goal"):
            assert list(ours.single_observation_space[part].spaces) == list(
                ref.observation_space[part].spaces)
        assert ours.single_action_space == ref.action_space
        assert ours.spec.config.max_episode_steps == ref.spec.max_episode_steps == 280
        ours.close()


def test_franka_kitchen_episode_matches_reference(reference: Any) -> None:
    """Two envs, a whole episode to its truncation at 280 steps with random velocities (some
    beyond [-1, 1], which both clip), then the autoreset: the reference's reset() without a
    seed continues its generator, as ours does."""
    seed = 11
    ours = envpool.make_gymnasium(TASK_ID, num_envs=2, seed=seed)
    refs = [reference() for _ in range(2)]
    obs, info = ours.reset()
    for i, ref in enumerate(refs):
        r_obs, r_info = ref.reset(seed=seed + i)
        _assert_obs(obs, i, r_obs, (i, "reset"))
        assert np.array_equal(info["tasks_to_complete"][i], np.ones(7, np.int32))
        assert not info["episode_task_completions"][i].any()
        base = ref.unwrapped
        assert np.array_equal(info["qpos0"][i], base.data.qpos)
        assert np.array_equal(info["qvel0"][i], base.data.qvel)
        assert np.array_equal(info["qacc0"][i], base.data.qacc)
        assert np.array_equal(info["qacc_warmstart0"][i], base.data.qacc_warmstart)
    rng = np.random.default_rng(0)
    for t in range(280):
        actions = rng.uniform(-1.2, 1.2, (2, 9))
        out = ours.step(actions)
        for i, ref in enumerate(refs):
            _assert_step(out, i, ref.step(actions[i]), (i, t))
        assert out[3].all() == (t == 279)
    obs, *_ = ours.step(np.zeros((2, 9)))
    for i, ref in enumerate(refs):
        _assert_obs(obs, i, ref.reset()[0], (i, "autoreset"))
    ours.close()


def _near_goals(qpos: np.ndarray, tasks: list[str]) -> np.ndarray:
    """``qpos`` with each task's joints moved 0.05 from its goal (within BONUS_THRESH)."""
    qpos = qpos.copy()
    for task in tasks:
        index, goal = GOALS[task]
        qpos[index] = np.array(goal) + 0.05 / np.sqrt(len(index))
    return qpos


def _set_both(ours: Any, ref: Any, qpos: np.ndarray, qvel: np.ndarray) -> None:
    ours.set_state(0, np.concatenate([qpos, qvel]))
    base = ref.unwrapped
    base.data.qpos[:] = qpos
    base.data.qvel[:] = qvel
    mujoco.mj_forward(base.model, base.data)


@pytest.mark.parametrize("remove", [True, False])
@pytest.mark.parametrize("terminate", [True, False])
def test_franka_kitchen_task_completion_matches_reference(
    reference: Any, remove: bool, terminate: bool
) -> None:
    """The completion branch: the microwave's door set near its goal (one task done at the
    step: reward 1), then the kettle, then the slide cabinet (every task done: terminated
    there when ``terminate_on_tasks_completed``); a removed task no longer counts, a kept one
    counts at every step it stays complete."""
    kwargs = {
        "tasks_to_complete": ["microwave", "kettle", "slide cabinet"],
        "terminate_on_tasks_completed": terminate,
        "remove_task_when_completed": remove,
        "object_noise_ratio": 0.002,
        "robot_noise_ratio": 0.02,
    }
    ours = envpool.make_gymnasium(TASK_ID, num_envs=1, seed=4, **kwargs)
    ref = reference(**kwargs)
    obs, _ = ours.reset()
    _assert_obs(obs, 0, ref.reset(seed=4)[0], "reset")
    rng = np.random.default_rng(1)
    rewards, terminated = [], False
    for t in range(12):
        if t in STAGES:  # the microwave, then the kettle, then the slide cabinet
            data = ref.unwrapped.data
            _set_both(ours, ref, _near_goals(data.qpos, [STAGES[t]]), data.qvel.copy())
        action = rng.uniform(-0.05, 0.05, 9)
        out = ours.step(action[None])
        _assert_step(out, 0, ref.step(action), t)
        rewards.append(float(out[1][0]))
        if out[2][0]:
            terminated = True
            break
    assert terminated == terminate
    assert len(rewards) == (10 if terminate else 12)  # the last task at step 9
    assert (rewards[2], rewards[6], rewards[9]) == ((1.0,) * 3 if remove else (1.0, 2.0, 3.0))
    if not remove:
        assert rewards[3] == 1.0  # still complete, still counted
    ours.close()


def test_franka_kitchen_bad_keywords() -> None:
    with pytest.raises(ValueError, match="cannot be found"):
        envpool.make_gymnasium(TASK_ID, tasks_to_complete=["oven"])
    with pytest.raises(TypeError, match="list of strings"):
        envpool.make_gymnasium(TASK_ID, tasks_to_complete="kettle")
    with pytest.raises(ImportError, match="gymnasium-robotics"):
        envpool.make_gymnasium(TASK_ID, assets_dir="/nonexistent/assets")
    env = envpool.make_gymnasium(TASK_ID, num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((1, 8)))
    env.close()


def test_franka_kitchen_flavours_nest_the_goal_dicts() -> None:
    """The goal Dicts in every flavour: the gymnasium and gym pools (nested dicts of batches),
    the dm State (fields achieved_goal and desired_goal: dicts by task),
    ``gymnasium.make("envpool/FrankaKitchen-v1")`` (one env's nested dicts), and EnvPool's
    flat array names (``obs:achieved_goal:<task>``)."""
    kwargs = {"tasks_to_complete": ["microwave", "kettle"], "num_envs": 2, "seed": 1}
    goals = {"kettle": (7,), "microwave": (1,)}
    for make in (envpool.make_gymnasium, envpool.make_gym):
        env = make(TASK_ID, **kwargs)
        env.reset()
        obs = env.step(np.zeros((2, 9)))[0]
        assert sorted(obs) == ["achieved_goal", "desired_goal", "observation"]
        for part in ("achieved_goal", "desired_goal"):
            assert {k: v.shape[1:] for k, v in obs[part].items()} == goals
            assert env.observation_space[part]["kettle"].shape == (7,)
        assert np.array_equal(obs["desired_goal"]["microwave"], [[-0.75], [-0.75]])
        env.close()
    env = envpool.make_dm(TASK_ID, **kwargs)
    step = env.reset()
    assert step.observation.observation.shape == (2, 59)
    assert {k: v.shape for k, v in step.observation.achieved_goal.items()} == {
        "kettle": (2, 7), "microwave": (2, 1)}
    assert env.observation_spec().desired_goal["kettle"].shape == (7,)
    env.close()
    single = gymnasium.make(f"envpool/{TASK_ID}", tasks_to_complete=["kettle"])
    obs, _ = single.reset(seed=0)
    assert obs["achieved_goal"]["kettle"].shape == (7,)
    assert single.observation_space.contains(obs)
    single.close()
    names = list(envpool.make_spec(TASK_ID, tasks_to_complete=["kettle"]).state_array_spec)
    assert "obs:achieved_goal:kettle" in names and "obs:observation" in names


def test_franka_kitchen_frames_match_reference(reference: Any) -> None:
    """``render_mode="rgb_array"``: the package's frames (gymnasium's MujocoRenderer with
    franka_env.py's DEFAULT_CAMERA_CONFIG), pixel for pixel (the same libmujoco and GL driver
    on both sides, as tests/test_render_mujoco.py compares), before and after a step, and its
    render_fps of 12. Small frames: the kitchen's first frame costs about 2 s of CPU on each
    side (its textures and meshes); the default 480 x 480 is in the nightly test below."""
    ours = envpool.make_gymnasium(TASK_ID, num_envs=1, seed=3, render_mode="rgb_array",
                                  render_width=128, render_height=96)
    ref = reference(render_mode="rgb_array", width=128, height=96)
    ours.reset()
    ref.reset(seed=3)
    assert ours.render_fps == ref.metadata["render_fps"] == 12
    rng = np.random.default_rng(2)
    for t in range(2):
        frame, r_frame = ours.render()[0], ref.render()
        assert frame.shape == r_frame.shape == (96, 128, 3)
        assert np.array_equal(frame, r_frame), t
        action = rng.uniform(-1, 1, 9)
        _assert_step(ours.step(action[None]), 0, ref.step(action), t)
    ours.close()
    ref.close()


@pytest.mark.nightly
@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"robot_noise_ratio": 0.0, "object_noise_ratio": 0.0},
        # (the package asserts render_fps 12 == round(1 / dt): frame_skip 40 to 43 only)
        {"frame_skip": 42, "robot_noise_ratio": 0.1, "object_noise_ratio": 0.01},
        {"tasks_to_complete": ["kettle", "bottom burner"], "terminate_on_tasks_completed": False,
         "remove_task_when_completed": False},
    ],
)
def test_franka_kitchen_episodes_match_reference_nightly(
    reference: Any, kwargs: dict[str, Any]
) -> None:
    """Three envs, three whole episodes each (with the autoresets), under other keywords."""
    seed = 100
    ours = envpool.make_gymnasium(TASK_ID, num_envs=3, seed=seed, **kwargs)
    refs = [reference(**kwargs) for _ in range(3)]
    obs, _ = ours.reset()
    for i, ref in enumerate(refs):
        _assert_obs(obs, i, ref.reset(seed=seed + i)[0], (i, "reset"))
    rng = np.random.default_rng(3)
    for episode in range(3):
        for t in range(280):
            actions = rng.uniform(-1.5, 1.5, (3, 9))
            out = ours.step(actions)
            for i, ref in enumerate(refs):
                _assert_step(out, i, ref.step(actions[i]), (episode, i, t))
        obs, *_ = ours.step(np.zeros((3, 9)))
        for i, ref in enumerate(refs):
            _assert_obs(obs, i, ref.reset()[0], (episode, i, "autoreset"))
    ours.close()


@pytest.mark.nightly
@pytest.mark.timeout(600)
def test_franka_kitchen_default_frames_and_pixels_match_reference_nightly(reference: Any) -> None:
    """The default 480 x 480 frame, and ``from_pixels=True, pixels_only=False``: the goal dicts
    and the observation plus ``pixels`` (3, 84, 84), the package's 84 x 84 frame after every
    reset and step (gymnasium's AddRenderObservation takes ``env.render()`` so)."""
    ours = envpool.make_gymnasium(TASK_ID, num_envs=1, seed=6, render_mode="rgb_array")
    ref = reference(render_mode="rgb_array")
    ours.reset()
    ref.reset(seed=6)
    frame, r_frame = ours.render()[0], ref.render()
    assert frame.shape == r_frame.shape == (480, 480, 3)
    assert np.array_equal(frame, r_frame)
    ours.close()
    ref.close()
    ours = envpool.make_gymnasium(TASK_ID, num_envs=1, seed=7, from_pixels=True,
                                  pixels_only=False)
    ref = reference(render_mode="rgb_array", width=84, height=84)
    obs, _ = ours.reset()
    r_obs, _ = ref.reset(seed=7)
    rng = np.random.default_rng(4)
    for t in range(3):
        assert obs["pixels"].shape == (1, 3, 84, 84)
        assert np.array_equal(obs["pixels"][0].transpose(1, 2, 0), ref.render()), t
        _assert_obs({k: v for k, v in obs.items() if k != "pixels"}, 0, r_obs, t)
        action = rng.uniform(-1, 1, 9)
        obs, *_ = ours.step(action[None])
        r_obs, *_ = ref.step(action)
    ours.close()
    ref.close()
