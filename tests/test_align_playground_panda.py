"""Alignment of MuJoCo Playground's Franka Emika Panda tasks with ``playground`` 0.2.0, its
own envs run in the same test.

The oracle is the package's env code (``mujoco_playground/_src/manipulation/
franka_emika_panda/pick.py``, ...) with MJX's physics replaced by native MuJoCo on the
package's own ``mj_model``: ``mjx_env.make_data`` makes MJX's fresh data (as the package's
does: zero kinematics, which the reset observation reads) and sets the same qpos, qvel and
ctrl on one float64 ``MjData``; ``mjx_env.step`` copies the data's mocap (and a qpos the task
replaced) to the MjData, sets ``ctrl`` and takes ``n_substeps`` ``mj_step``s, and returns MJX's
data with the MjData's values rounded to float32 (as MJX's data holds them). The task's
arithmetic runs op by op (outside jit) in float32 on jax's CPU backend.

* Same seed, same episodes: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)``: each reset takes ``use, key = split(key)`` and calls
  ``reset(use)``.
* Under the same actions the observations and terminated equal the package's bit for bit
  over several episodes (truncations by a short ``max_episode_steps``) and a reseed; the
  Cartesian task's observations after a step within IK_ATOL (its inverse kinematics: XLA's
  products and trigonometric routines against glibc's, ulps apart).
* The reward and its terms (info ``reward_<term>``: the package's ``metrics``, unscaled as
  the package keeps them) agree to float32 rounding: the shaped terms take tanh, which XLA computes
  with its own float32 approximation and the native env with glibc's ``tanhf`` (a few ulps
  apart for some inputs), so RTOL is a few float32 ulps.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.tasks.playground import TASKS, resolve_dirs

sys.path.insert(0, os.path.dirname(__file__))
from playground_replay import KeyChainOracle, as_f32, record, replay  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
mujoco = pytest.importorskip("mujoco")
pytest.importorskip("mujoco_playground")

from etils import epath  # noqa: E402  (after the reference's importorskip)
from mujoco import mjx  # noqa: E402
from mujoco_playground._src import mjx_env  # noqa: E402
from mujoco_playground._src.manipulation.franka_emika_panda import (  # noqa: E402
    open_cabinet,
    pick,
    pick_cartesian,
)
from mujoco_playground._src.manipulation.franka_emika_panda_robotiq import (  # noqa: E402
    push_cube,
)

# Rewards: float32 sums of terms 1 - tanh(x) times scales up to 8. XLA's float32 tanh is up to
# 3 ulps from glibc's tanhf (measured with jax 0.10.2: 62% of inputs in [0, 6) differ, none by
# more than 3 ulps), 2e-7 absolute near 1; times the scales (12.3 in all) about 2.2e-6.
RTOL = 1e-6
ATOL = 3e-6
IK_ATOL = 1e-5

PANDA_IDS = [i for i, (_, _, _, robot) in TASKS.items() if robot == "panda"]
_TERMS = {
    "PlaygroundPandaPickCube": ("gripper_box", "box_target", "no_floor_collision",
                                "robot_target_qpos"),
    "PlaygroundPandaPickCubeOrientation": ("gripper_box", "box_target", "no_floor_collision",
                                           "robot_target_qpos"),
    "PlaygroundPandaOpenCabinet": ("box_target", "gripper_box", "no_barrier_collision",
                                   "robot_target_qpos"),
    "PlaygroundPandaPickCubeCartesian": ("gripper_box", "box_target", "no_floor_collision",
                                         "no_box_collision", "robot_target_qpos", "lifted",
                                         "success"),
    "PlaygroundPandaRobotiqPushCube": ("gripper_box", "box_target", "box_orientation",
                                       "gripper_collision_side", "robot_target_qpos",
                                       "joint_vel", "joint_vel_limit", "total_command",
                                       "action_rate"),
}


_JNP_CLIP = jnp.clip


def _clip_with_a_max(arr: Any, min: Any = None, max: Any = None, *,  # noqa: A002
                     a_min: Any = None, a_max: Any = None) -> Any:
    """jnp.clip that also takes the old ``a_min`` / ``a_max`` keywords: push_cube.py calls
    ``jp.clip(x, a_max=1.0)``, which jax 0.10 no longer takes (the same clip otherwise)."""
    return _JNP_CLIP(arr, a_min if min is None else min, a_max if max is None else max)


class _NativePhysics:
    """mjx_env.make_data and mjx_env.step on one native MjData."""

    def __init__(self, model: Any) -> None:
        self.m = model
        self.d = mujoco.MjData(model)
        self.fresh = mjx.make_data(model, impl="jax")
        self.made: Any = None

    def make_data(self, model: Any, qpos: Any = None, qvel: Any = None, ctrl: Any = None,
                  mocap_pos: Any = None, mocap_quat: Any = None, **_: Any) -> Any:
        del model
        mujoco.mj_resetData(self.m, self.d)
        self.d.qpos[:] = np.asarray(qpos, np.float64)
        self.d.qvel[:] = np.asarray(qvel, np.float64)
        self.d.ctrl[:] = np.asarray(ctrl, np.float64)
        data = self.fresh.replace(qpos=qpos, qvel=qvel, ctrl=ctrl)
        # (PandaRobotiqPushCube passes the target's mocap pose; step copies it to the MjData)
        if mocap_pos is not None:
            data = data.replace(mocap_pos=mocap_pos.reshape(self.m.nmocap, -1))
        if mocap_quat is not None:
            data = data.replace(mocap_quat=mocap_quat.reshape(self.m.nmocap, -1))
        return data

    def step(self, model: Any, data: Any, action: Any, n_substeps: int = 1) -> Any:
        del model
        d = self.d
        d.mocap_pos[:] = np.asarray(data.mocap_pos, np.float64)
        d.mocap_quat[:] = np.asarray(data.mocap_quat, np.float64)
        qpos = np.asarray(data.qpos, np.float32)
        if not np.array_equal(qpos, d.qpos.astype(np.float32)):  # the task replaced it
            d.qpos[:] = qpos
        d.ctrl[:] = np.asarray(action, np.float64)
        for _ in range(n_substeps):
            mujoco.mj_step(self.m, d)
        f32 = jnp.float32
        return data.replace(
            qpos=jnp.asarray(d.qpos, f32), qvel=jnp.asarray(d.qvel, f32),
            ctrl=jnp.asarray(d.ctrl, f32), xpos=jnp.asarray(d.xpos, f32),
            xquat=jnp.asarray(d.xquat, f32),
            xmat=jnp.asarray(d.xmat.reshape(-1, 3, 3), f32),
            site_xpos=jnp.asarray(d.site_xpos, f32),
            site_xmat=jnp.asarray(d.site_xmat.reshape(-1, 3, 3), f32),
            sensordata=jnp.asarray(d.sensordata, f32),
            mocap_pos=jnp.asarray(d.mocap_pos, f32), mocap_quat=jnp.asarray(d.mocap_quat, f32))


def _make_env(native: str, extra: dict[str, Any] | None = None) -> Any:
    # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's physics is
    # not used.
    overrides = {"impl": "jax", **(extra or {})}
    if native == "PlaygroundPandaRobotiqPushCube":
        return push_cube.PandaRobotiqPushCube(config_overrides=overrides)
    if native == "PlaygroundPandaPickCube":
        return pick.PandaPickCube(config_overrides=overrides)
    if native == "PlaygroundPandaPickCubeOrientation":
        return pick.PandaPickCubeOrientation(config_overrides=overrides)
    if native == "PlaygroundPandaOpenCabinet":
        return open_cabinet.PandaOpenCabinet(config_overrides=overrides)
    if native == "PlaygroundPandaPickCubeCartesian":
        return pick_cartesian.PandaPickCubeCartesian(config_overrides=overrides)
    raise KeyError(native)


class _Oracle(KeyChainOracle):
    """The package's env of ``task_id`` on native physics, with a key chain per env."""

    def __init__(self, task_id: str, menagerie_dir: str,
                 overrides: dict[str, Any] | None = None) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(menagerie_dir)
        self.native = TASKS[task_id][0]
        self.terms = _TERMS[self.native]
        self.env = _make_env(self.native, overrides)
        self.physics = _NativePhysics(self.env.mj_model)
        self.key: Any = None
        self.state: Any = None

    def _patched(self, fn: Any, *args: Any) -> Any:
        saved = (mjx_env.make_data, mjx_env.step, jnp.clip)
        mjx_env.make_data = self.physics.make_data
        mjx_env.step = self.physics.step
        jnp.clip = _clip_with_a_max
        try:
            return fn(*args)
        finally:
            mjx_env.make_data, mjx_env.step, jnp.clip = saved



_ORACLES: dict[str, _Oracle] = {}


def _oracle(task_id: str) -> _Oracle:
    """The oracle of ``task_id``, made once per test run (its model compiles in a second)."""
    if task_id not in _ORACLES:
        _ORACLES[task_id] = _Oracle(task_id, resolve_dirs(robot="panda")[1])
    return _ORACLES[task_id]


def _check(obs: Any, i: int, oracle: _Oracle, where: str) -> None:
    if oracle.native == "PlaygroundPandaPickCubeCartesian":
        # The inverse kinematics: XLA's products, trigonometric and inverse trigonometric
        # functions against glibc's, ulps apart, move the joint targets by ulps.
        np.testing.assert_allclose(as_f32(obs[i]), np.asarray(oracle.state.obs), rtol=0,
                                   atol=IK_ATOL, err_msg=f"{where}: obs")
        return
    np.testing.assert_array_equal(as_f32(obs[i]), np.asarray(oracle.state.obs),
                                  err_msg=f"{where}: obs")


def _check_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                where: str) -> None:
    st = oracle.state
    np.testing.assert_allclose(reward[i], float(st.reward), rtol=RTOL, atol=ATOL,
                               err_msg=f"{where}: reward")
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    assert float(info["out_of_bounds"][i]) == float(st.metrics["out_of_bounds"]), where
    for name in oracle.terms:
        metric = st.metrics[name] if name in st.metrics else st.metrics[f"reward/{name}"]
        np.testing.assert_allclose(info[f"reward_{name}"][i], float(metric),
                                   rtol=RTOL, atol=ATOL, err_msg=f"{where}: reward_{name}")


def _run(task_id: str, oracle: _Oracle, seed: int, steps: int, max_steps: int,
         reseed: int, **kwargs: Any) -> dict[str, int]:
    """Steps a pool of 2 envs (made with ``kwargs``) and the oracle side by side; returns the
    episode ends seen."""
    n = 2
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    nu = env.single_action_space.shape[0]
    rng = np.random.default_rng(seed)
    actions = rng.uniform(-1.0, 1.0, (steps, n, nu))
    records = record(env, actions, steps, reseed)
    ends = replay(records, n, seed, reseed, max_steps, oracle, task_id,
                  lambda obs, _info, i, oracle, where: _check(obs, i, oracle, where), _check_step)
    env.close()
    return ends


# The default suite takes one of the ids (the oracle's first steps compile jax's operations:
# seconds); the nightly all of them.
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [i for i in PANDA_IDS if i != "PandaPickCubeCartesian-v1"])
def test_panda_matches_playground(task_id: str) -> None:
    oracle = _oracle(task_id)
    ends = _run(task_id, oracle, seed=3, steps=16, max_steps=6, reseed=11)
    assert ends["truncated"] > 0, ends


# The Cartesian task's reference runs its inverse kinematics op by op (hundreds of jax
# operations a step, each compiled on first use: about 11 s of CPU): the nightly only
# (ENVPOOL_SWEEP=all), a shorter run.
@pytest.mark.sweep_only("about 11 s of CPU; PandaPickCube's test covers the shared base")
def test_panda_cartesian_matches_playground() -> None:
    task_id = "PandaPickCubeCartesian-v1"
    ends = _run(task_id, _oracle(task_id), seed=3, steps=8, max_steps=3, reseed=11)
    assert ends["truncated"] > 0, ends


def test_spaces_and_alias() -> None:
    env = envpool.make_gymnasium("MuJoCoPlayground/PandaPickCube-v1", num_envs=1)
    assert env.single_observation_space.shape == (66,)
    assert env.single_action_space.shape == (8,)
    assert float(env.single_action_space.low[0]) == -1.0
    env.close()


def test_bad_keywords() -> None:
    with pytest.raises(ValueError, match="ctrl_dt"):
        envpool.make_gymnasium("PandaPickCube-v1", num_envs=1, ctrl_dt=0.0)
    with pytest.raises(ImportError):
        envpool.make_gymnasium("PandaPickCube-v1", num_envs=1,
                               menagerie_dir=os.path.join(os.sep, "nonexistent"))


# ---- PandaRobotiqPushCube (franka_emika_panda_robotiq/push_cube.py) ----
#
# Bit for bit: its terms take no tanh or exp (norms in XLA's order, the reciprocal and linear
# tolerances, asin as XLA expands it), so the reward, the terms and the metrics are compared
# for equality, as are the observations (the action and observation delays, the noise).

_ROBOTIQ = "PandaRobotiqPushCube-v1"
_ROBOTIQ_METRICS = ("out_of_bounds", "success", "success_1", "success_2")


def _check_robotiq(obs: Any, _info: Any, i: int, oracle: _Oracle, where: str) -> None:
    np.testing.assert_array_equal(as_f32(obs[i]), np.asarray(oracle.state.obs),
                                  err_msg=f"{where}: obs")


def _check_robotiq_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                        where: str) -> None:
    st = oracle.state
    assert as_f32(reward[i]) == np.float32(st.reward), (where, reward[i], st.reward)
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    for name in _ROBOTIQ_METRICS:
        assert as_f32(info[name][i]) == np.float32(st.metrics[name]), (where, name)
    for name in oracle.terms:
        assert as_f32(info[f"reward_{name}"][i]) == np.float32(st.metrics[name]), (where, name)


def _run_robotiq(oracle: _Oracle, seed: int, steps: int, max_steps: int, reseed: int,
                 pattern: Any = None, reseed_at: int | None = None,
                 **kwargs: Any) -> dict[str, int]:
    """Steps a pool of 2 envs and the oracle side by side (random actions, or the constant
    ``pattern``); returns the episode ends seen and the successes."""
    n = 2
    env = envpool.make_gymnasium(_ROBOTIQ, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    rng = np.random.default_rng(seed)
    actions = rng.uniform(-1.0, 1.0, (steps, n, 7))
    if pattern is not None:
        actions[:] = np.asarray(pattern, np.float64)
    records: list[tuple[Any, ...]] = []
    obs, info = env.reset()
    records.append(("reset", obs, info))
    for t in range(steps):
        if t == (steps // 2 if reseed_at is None else reseed_at):
            obs, info = env.reset(seed=reseed)
            records.append(("reseed", obs, info))
        obs, reward, term, trunc, info = env.step(actions[t])
        records.append(("step", obs, info, reward, term, trunc, actions[t]))
    ends = replay(records, n, seed, reseed, max_steps, oracle, _ROBOTIQ, _check_robotiq,
                  _check_robotiq_step)
    ends["success"] = int(sum(rec[2]["success"].sum() for rec in records if rec[0] == "step"))
    env.close()
    return ends


# The package's delays as keywords (ours) and config overrides (the package's).
_SHORT_DELAYS = {"obs_min_delay": 0, "obs_max_delay": 3, "action_min_delay": 0,
                 "action_max_delay": 2}


def _package_overrides(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The package's config_overrides for our keywords."""
    where = {"obs_min_delay": "noise_config.obs_min_delay",
             "obs_max_delay": "noise_config.obs_max_delay",
             "action_min_delay": "noise_config.action_min_delay",
             "action_max_delay": "noise_config.action_max_delay",
             "success_step_count": "reward_config.success_step_count"}
    return {where[k]: v for k, v in kwargs.items()}


_ROBOTIQ_ORACLES: dict[str, _Oracle] = {}


def _robotiq_oracle(**kwargs: Any) -> _Oracle:
    """The package's PandaRobotiqPushCube with ``kwargs`` (our keywords), made once per run."""
    key = repr(sorted(kwargs.items()))
    if key not in _ROBOTIQ_ORACLES:
        _ROBOTIQ_ORACLES[key] = _Oracle(_ROBOTIQ, resolve_dirs(robot="panda_robotiq")[1],
                                        _package_overrides(kwargs))
    return _ROBOTIQ_ORACLES[key]


def test_robotiq_matches_playground() -> None:
    # Short delays (0 to 2 steps for the observation, 0 or 1 for the action), so that the
    # observations of short episodes are the newest ones rather than the history's zeros.
    oracle = _robotiq_oracle(**_SHORT_DELAYS)
    ends = _run_robotiq(oracle, seed=3, steps=8, max_steps=3, reseed=11, **_SHORT_DELAYS)
    assert ends["truncated"] > 0, ends


# The nightly's (ENVPOOL_SWEEP=all; op by op, the reference takes about 0.1 s of CPU a step):
# the default delays over episodes long enough for the delayed observations to leave the
# history's zeros; successes (seeds 29 and 56 start with the box within 3 cm and 10 degrees
# of its target: with success_step_count 2 each succeeds at its third step and draws its next
# target); terminations (the constant action drives the arm out of the workspace in 51 and
# 53 steps for seeds 0 and 1).
_NIGHTLY_ROBOTIQ = {
    "delays": ({}, {"seed": 3, "steps": 30, "max_steps": 14, "reseed": 11}, "truncated"),
    "success": ({"success_step_count": 2},
                {"seed": 29, "steps": 12, "max_steps": 10, "reseed": 56}, "success"),
    "termination": ({}, {"seed": 0, "steps": 58, "max_steps": 100, "reseed": 0,
                         "reseed_at": 56, "pattern": [0, -1, 0, -1, 0, 0, 0]}, "terminated"),
}


@pytest.mark.sweep_only("10 to 60 s of CPU each; test_robotiq_matches_playground runs the "
                        "same code on a short episode")
@pytest.mark.parametrize("case", list(_NIGHTLY_ROBOTIQ))
def test_robotiq_matches_playground_long(case: str) -> None:
    kwargs, run, end = _NIGHTLY_ROBOTIQ[case]
    ends = _run_robotiq(_robotiq_oracle(**kwargs), **run, **kwargs)
    assert ends[end] >= 2, ends


def test_robotiq_spaces_and_keywords() -> None:
    env = envpool.make_gymnasium(f"MuJoCoPlayground/{_ROBOTIQ}", num_envs=1)
    assert env.single_observation_space.shape == (48,)
    assert env.single_action_space.shape == (7,)
    obs, info = env.reset()
    assert "reward_box_orientation" in info and "success" in info
    env.close()
    for bad in ({"obs_max_delay": 31}, {"obs_min_delay": 30}, {"action_max_delay": 6},
                {"action_min_delay": -1}, {"obs_history_len": 0}, {"sim_dt": 0.0},
                {"noise_obj_pos": float("nan")}, {"ctrl_dt": 0.001}):
        with pytest.raises(ValueError):
            envpool.make_gymnasium(_ROBOTIQ, num_envs=1, **bad)
    with pytest.raises(ImportError):
        envpool.make_gymnasium(_ROBOTIQ, num_envs=1,
                               menagerie_dir=os.path.join(os.sep, "nonexistent"))
