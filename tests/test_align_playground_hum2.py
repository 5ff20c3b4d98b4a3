"""Alignment of MuJoCo Playground's G1 joystick and H1 gait-tracking tasks with
``playground`` 0.2.0, its own ``g1.joystick.Joystick``, ``h1.inplace_gait_tracking`` and
``h1.joystick_gait_tracking`` run in the same test.

The oracle is the package's env code (``mujoco_playground/_src/locomotion/g1/joystick.py``,
``h1/inplace_gait_tracking.py``, ``h1/joystick_gait_tracking.py``) with MJX's physics
replaced by native MuJoCo on the package's own ``mj_model``, as in
tests/test_align_playground.py: ``mjx_env.make_data`` / ``mjx.forward`` / ``mjx_env.step``
become ``mj_resetData`` + the given qpos, qvel, ctrl + ``mj_forward``, and ``ctrl =
motor_targets`` + ``n_substeps`` ``mj_step``s on one float64 ``MjData``; the task reads that
MjData's values rounded to float32 and runs its arithmetic op by op in float32 on jax's CPU.
G1's push writes ``qvel[:2]`` into the data before the step (``data.replace(qvel=...)``):
where the float32 values written differ from the native data's, they replace them.

* Same seed, same episodes: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)`` (each reset takes ``use, key = split(key)``).
* Under the same actions, the observations (G1: ``state`` and ``privileged_state``; H1:
  the one array), terminated, truncated, the command and its step counter (the joysticks)
  and the gait phase equal the package's bit for bit, over several episodes (falls, time
  limits) and a reseed.
* The reward and its terms (info ``reward_<term>``, the package's ``metrics``) agree to
  float32 rounding: the tracking and feet-phase terms (and H1 in place's reward, its costs'
  factor) take ``exp``, XLA's float32 routine in the package and glibc's ``expf`` in the
  native env (one ulp apart for about one input in ten), and G1's joint_deviation_hip sums a
  4 x 4 table (the package's (4, 1) index column times 4 weights) in XLA's order for a 2-D
  reduction, which the native env does not reproduce (a few ulps), so RTOL is a few float32
  ulps (ATOL: the same for terms near zero).
"""

from __future__ import annotations

import os
import sys
import types
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
from mujoco_playground._src import mjx_env  # noqa: E402
from mujoco_playground._src.locomotion.g1 import joystick as g1_joystick  # noqa: E402
from mujoco_playground._src.locomotion.h1 import (  # noqa: E402
    inplace_gait_tracking as h1_inplace,
)
from mujoco_playground._src.locomotion.h1 import (  # noqa: E402
    joystick_gait_tracking as h1_joystick,
)

RTOL = 4e-7
ATOL = 2e-7
G1_IDS = [i for i, (native, *_rest) in TASKS.items() if native == "PlaygroundG1Joystick"]
H1_IDS = ["H1InplaceGaitTracking-v1", "H1JoystickGaitTracking-v1"]
G1_TERMS = ("tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation",
            "base_height", "torques", "action_rate", "energy", "dof_acc", "feet_clearance",
            "feet_air_time", "feet_slip", "feet_height", "feet_phase", "alive", "stand_still",
            "termination", "collision", "contact_force", "joint_deviation_knee",
            "joint_deviation_hip", "dof_pos_limits", "pose")
# Every other joint's target at the top of its range, the others at the bottom.
ALTERNATE = np.where(np.arange(29) % 2 == 0, 1.0, -1.0)
H1_INPLACE_TERMS = ("feet_phase", "pose", "ang_vel", "lin_vel")
H1_JOYSTICK_TERMS = ("feet_phase", "tracking_lin_vel", "tracking_ang_vel", "feet_air_time",
                     "ang_vel_xy", "lin_vel_z", "pose", "foot_slip", "action_rate")


class _Snapshot:
    """MJX's data as the task reads it: the native MjData's values in float32."""

    def __init__(self, d: Any) -> None:
        f32 = jnp.float32
        self.qpos = jnp.asarray(d.qpos, f32)
        self.qvel = jnp.asarray(d.qvel, f32)
        self.qacc = jnp.asarray(d.qacc, f32)
        self.ctrl = jnp.asarray(d.ctrl, f32)
        self.sensordata = jnp.asarray(d.sensordata, f32)
        self.site_xpos = jnp.asarray(d.site_xpos, f32)
        self.site_xmat = jnp.asarray(d.site_xmat.reshape(-1, 3, 3), f32)
        self.actuator_force = jnp.asarray(d.actuator_force, f32)

    def replace(self, **fields: Any) -> _Snapshot:
        new = object.__new__(_Snapshot)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(fields)
        return new


class _NativePhysics:
    """mjx_env.make_data, mjx.forward and mjx_env.step on one native MjData."""

    def __init__(self, model: Any) -> None:
        self.m = model
        self.d = mujoco.MjData(model)

    def make_data(self, model: Any, qpos: Any = None, qvel: Any = None, ctrl: Any = None,
                  **_: Any) -> str:
        del model
        mujoco.mj_resetData(self.m, self.d)
        self.d.qpos[:] = np.asarray(qpos, np.float64)
        self.d.qvel[:] = np.asarray(qvel, np.float64)
        if ctrl is not None:  # H1's reset gives none: MJX's ctrl is zero then
            self.d.ctrl[:] = np.asarray(ctrl, np.float64)
        return "made"

    def forward(self, model: Any, data: Any) -> _Snapshot:
        del model, data
        mujoco.mj_forward(self.m, self.d)
        return _Snapshot(self.d)

    def step(self, model: Any, data: Any, action: Any, n_substeps: int = 1) -> _Snapshot:
        del model
        # The qvel the task wrote into the data (G1's push): the float32 values that differ
        # from the native data's rounded ones replace them.
        written = np.asarray(data.qvel, np.float32)
        changed = written != self.d.qvel.astype(np.float32)
        self.d.qvel[changed] = written[changed].astype(np.float64)
        self.d.ctrl[:] = np.asarray(action, np.float64)
        for _ in range(n_substeps):
            mujoco.mj_step(self.m, self.d)
        return _Snapshot(self.d)


class _Oracle(KeyChainOracle):
    """The package's env of ``task_id`` on native physics, with a key chain per env."""

    def __init__(self, task_id: str, menagerie_dir: str) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(menagerie_dir)
        # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's physics
        # is not used.
        native, task_name, _, _ = TASKS[task_id]
        overrides = {"impl": "jax"}
        self.g1 = native == "PlaygroundG1Joystick"
        self.joystick = native != "PlaygroundH1InplaceGaitTracking"
        self.module: Any
        if self.g1:
            self.module, self.terms = g1_joystick, G1_TERMS
            self.env = g1_joystick.Joystick(task=task_name, config_overrides=overrides)
        elif self.joystick:
            self.module, self.terms = h1_joystick, H1_JOYSTICK_TERMS
            self.env = h1_joystick.JoystickGaitTracking(config_overrides=overrides)
        else:
            self.module, self.terms = h1_inplace, H1_INPLACE_TERMS
            self.env = h1_inplace.InplaceGaitTracking(config_overrides=overrides)
        self.physics = _NativePhysics(self.env.mj_model)
        self.key: Any = None
        self.state: Any = None

    def _patched(self, fn: Any, *args: Any) -> Any:
        saved = (mjx_env.make_data, mjx_env.step, self.module.mjx)
        mjx_env.make_data = self.physics.make_data
        mjx_env.step = self.physics.step
        self.module.mjx = types.SimpleNamespace(forward=self.physics.forward)
        try:
            return fn(*args)
        finally:
            mjx_env.make_data, mjx_env.step, self.module.mjx = saved


_ORACLES: dict[str, _Oracle] = {}


def _oracle(task_id: str) -> _Oracle:
    """The oracle of ``task_id``, made once per test run."""
    if task_id not in _ORACLES:
        _ORACLES[task_id] = _Oracle(task_id, resolve_dirs(robot=TASKS[task_id][3])[1])
    return _ORACLES[task_id]


def _check(obs: Any, info: dict[str, Any], i: int, oracle: _Oracle, where: str) -> None:
    st = oracle.state
    if oracle.g1:
        np.testing.assert_array_equal(as_f32(obs["state"][i]), np.asarray(st.obs["state"]),
                                      err_msg=f"{where}: state")
        np.testing.assert_array_equal(as_f32(obs["privileged_state"][i]),
                                      np.asarray(st.obs["privileged_state"]),
                                      err_msg=f"{where}: privileged_state")
    else:
        np.testing.assert_array_equal(as_f32(obs[i]), np.asarray(st.obs), err_msg=f"{where}: obs")
    np.testing.assert_array_equal(as_f32(info["phase"][i]), np.asarray(st.info["phase"]),
                                  err_msg=f"{where}: phase")
    if oracle.joystick:
        np.testing.assert_array_equal(as_f32(info["command"][i]), np.asarray(st.info["command"]),
                                      err_msg=f"{where}: command")
        assert int(info["step"][i]) == int(st.info["step"]), where


def _check_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                where: str) -> None:
    st = oracle.state
    np.testing.assert_allclose(reward[i], float(st.reward), rtol=RTOL, atol=ATOL,
                               err_msg=f"{where}: reward")
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    for name in oracle.terms:
        np.testing.assert_allclose(info[f"reward_{name}"][i], float(st.metrics[f"reward/{name}"]),
                                   rtol=RTOL, atol=ATOL, err_msg=f"{where}: reward_{name}")


def _run(task_id: str, seed: int, steps: int, max_steps: int, reseed: int, n: int = 2,
         **kwargs: Any) -> dict[str, int]:
    """Steps a pool of ``n`` envs and the oracle side by side; returns the episode ends
    seen."""
    oracle = _oracle(task_id)
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    nu = env.single_action_space.shape[0]
    rng = np.random.default_rng(seed)
    # Env 0 takes small random actions (it stands to the time limit); env 1 topples: G1
    # under full-range random actions, H1 under the ends of its ranges, alternately.
    actions = rng.uniform(-0.1, 0.1, (steps, n, nu))
    if n > 1:  # G1 falls within about 20 such steps, H1 within 4 of ALTERNATE
        actions[:, 1] = rng.uniform(-1.0, 1.0, (steps, nu)) if nu == 29 else ALTERNATE[:nu]
    records = record(env, actions, steps, reseed)
    env.close()
    ends = replay(records, n, seed, reseed, max_steps, oracle, task_id, _check,
                  _check_step)
    return ends


# Every id in the nightly (ENVPOOL_SWEEP=all): 70 steps of 2 envs, with time limits, falls
# (env 1's full-range actions) and a reseed. The default suite takes one id a day and one
# short episode of one env (a time limit, the automatic reset and a reseed): the oracle runs
# jax op by op, and its first calls compile each operation (seconds).
NIGHTLY = os.environ.get("ENVPOOL_SWEEP", "") == "all"


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", G1_IDS + H1_IDS)
def test_matches_playground(task_id: str) -> None:
    if NIGHTLY:
        ends = _run(task_id, seed=7, steps=70, max_steps=32, reseed=12)
        assert ends["truncated"] > 0 and ends["terminated"] > 0, ends
    else:
        ends = _run(task_id, seed=5, steps=6, max_steps=2, reseed=12, n=1)
        assert ends["truncated"] > 0, ends


@pytest.mark.sweep_only("the G1 oracle is slow; the G1 joystick test covers the task")
def test_g1_push_matches_playground() -> None:
    """A push every few steps (push_interval 0.1 to 0.2 s): the pushed velocity is the
    package's."""
    task_id = "G1JoystickFlatTerrain-v1"
    oracle = _oracle(task_id)
    saved = oracle.env._config.push_config.interval_range
    oracle.env._config.push_config.interval_range = [0.1, 0.2]
    try:
        _run(task_id, seed=2, steps=12, max_steps=100, reseed=4, push_interval_min=0.1,
             push_interval_max=0.2)
    finally:
        oracle.env._config.push_config.interval_range = saved


def test_g1_spaces_and_alias() -> None:
    env = envpool.make_gymnasium("MuJoCoPlayground/G1JoystickFlatTerrain-v1", num_envs=1)
    assert env.single_observation_space["state"].shape == (103,)
    assert env.single_observation_space["privileged_state"].shape == (216,)
    assert env.single_action_space.shape == (29,)
    env.close()


def test_h1_spaces_and_alias() -> None:
    for task_id, size in (("H1InplaceGaitTracking-v1", 186), ("H1JoystickGaitTracking-v1", 113)):
        env = envpool.make_gymnasium(f"MuJoCoPlayground/{task_id}", num_envs=1)
        assert env.single_observation_space.shape == (size,)
        assert env.single_action_space.shape == (19,)
        env.close()


def test_g1_bad_keywords() -> None:
    with pytest.raises(ValueError):
        envpool.make_gymnasium("G1JoystickFlatTerrain-v1", num_envs=1, task_name="stairs")
    with pytest.raises(ValueError, match="push_interval_min"):
        envpool.make_gymnasium("G1JoystickFlatTerrain-v1", num_envs=1, push_interval_min=-1.0)
    with pytest.raises(ValueError, match="gait_count"):
        envpool.make_gymnasium("H1InplaceGaitTracking-v1", num_envs=1, gait_count=3)
