"""Alignment of MuJoCo Playground's Go1 fall recovery and Spot tasks with ``playground``
0.2.0, the package's own envs run in the same test.

The oracle is the package's env code (``mujoco_playground/_src/locomotion/go1/getup.py``,
``spot/getup.py``, ...) with MJX's physics replaced by native MuJoCo on the package's own
``mj_model``, as in test_align_playground.py: ``mjx_env.make_data`` / ``mjx.forward`` /
``mjx_env.step`` become ``mj_resetData`` + the given qpos, qvel, ctrl + ``mj_forward``, and
``ctrl = targets`` + ``n_substeps`` ``mj_step``s on one float64 ``MjData``; the task code
reads that MjData's values rounded to float32 and runs op by op (outside jit) on jax's CPU
backend.

* Same seed, same episodes: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)`` (each reset takes ``use, key = split(key)``).
* Under the same actions the observations, terminated and truncated equal the package's bit
  for bit, over several episodes and a reseed; this includes the getup tasks' random start,
  whose orientation is drawn with ``jax.random.normal`` (XLA's erf_inv and log1p, restated in
  native/envs/common/jax_random.h).
* The reward and its terms (info ``reward_<term>``, the package's ``metrics``) agree to
  float32 rounding: the terms that take ``exp`` get XLA's float32 routine in the package and
  glibc's ``expf`` here (one ulp apart for some inputs), so RTOL is a few float32 ulps.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable
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
from mujoco_playground._src.locomotion.go1 import getup as go1_getup  # noqa: E402
from mujoco_playground._src.locomotion.spot import getup as spot_getup  # noqa: E402
from mujoco_playground._src.locomotion.spot import joystick as spot_joystick  # noqa: E402
from mujoco_playground._src.locomotion.spot import (  # noqa: E402
    joystick_gait_tracking as spot_gait,
)

# Rewards: float32 sums of terms of which some take exp (XLA's vs glibc's, one ulp apart for
# some inputs): a few float32 ulps of the largest term, relative and absolute.
RTOL = 4e-7
ATOL = 1e-7


class _Snapshot:
    """MJX's data as the task reads it: the native MjData's values in float32."""

    def __init__(self, physics: _NativePhysics) -> None:
        d = physics.d
        f32 = jnp.float32
        self._physics = physics
        self.qpos = jnp.asarray(d.qpos, f32)
        self.qvel = jnp.asarray(d.qvel, f32)
        self.qacc = jnp.asarray(d.qacc, f32)
        self.ctrl = jnp.asarray(d.ctrl, f32)
        self.sensordata = jnp.asarray(d.sensordata, f32)
        self.site_xpos = jnp.asarray(d.site_xpos, f32)
        self.site_xmat = jnp.asarray(d.site_xmat.reshape(-1, 3, 3), f32)
        self.xpos = jnp.asarray(d.xpos, f32)
        self.xmat = jnp.asarray(d.xmat.reshape(-1, 3, 3), f32)
        self.actuator_force = jnp.asarray(d.actuator_force, f32)
        self.xfrc_applied = jnp.asarray(d.xfrc_applied, f32)
        self.time = jnp.asarray(d.time, f32)

    def replace(self, **changes: Any) -> _Snapshot:
        """``data.replace(time=...)`` (the getup tasks' reset), on the native data too."""
        for name, value in changes.items():
            if name != "time":
                raise NotImplementedError(name)
            self._physics.d.time = float(value)
        return _Snapshot(self._physics)


class _NativePhysics:
    """mjx_env.make_data, mjx.forward and mjx_env.step on one native MjData."""

    def __init__(self, model: Any) -> None:
        self.m = model
        self.d = mujoco.MjData(model)

    def make_data(self, model: Any, qpos: Any = None, qvel: Any = None, ctrl: Any = None,
                  **_: Any) -> str:
        del model
        mujoco.mj_resetData(self.m, self.d)
        if qpos is not None:
            self.d.qpos[:] = np.asarray(qpos, np.float64)
        if qvel is not None:
            self.d.qvel[:] = np.asarray(qvel, np.float64)
        if ctrl is not None:
            self.d.ctrl[:] = np.asarray(ctrl, np.float64)
        return "made"

    def forward(self, model: Any, data: Any) -> _Snapshot:
        del model, data
        mujoco.mj_forward(self.m, self.d)
        return _Snapshot(self)

    def step(self, model: Any, data: Any, action: Any, n_substeps: Any = 1) -> _Snapshot:
        del model, data
        self.d.ctrl[:] = np.asarray(action, np.float64)
        for _ in range(int(n_substeps)):
            mujoco.mj_step(self.m, self.d)
        return _Snapshot(self)


class _Task:
    """How one id's package env is made and read: its module, its constructor (config
    overrides -> env), its reward terms, its observation's keys (None: one array) and the
    state's info arrays that the pool's info carries under the same name."""

    def __init__(self, module: Any, make: Callable[[dict[str, Any]], Any],
                 terms: tuple[str, ...], obs_keys: tuple[str, ...] | None,
                 info_keys: tuple[str, ...] = ()) -> None:
        self.module = module
        self.make = make
        self.terms = terms
        self.obs_keys = obs_keys
        self.info_keys = info_keys


# Each env from a fresh default_config(): the package's default argument is one shared object,
# which config_overrides would change for every later env.
TASK_SPECS: dict[str, _Task] = {
    "Go1Getup-v1": _Task(
        go1_getup, lambda o: go1_getup.Getup(config=go1_getup.default_config(),
                                             config_overrides=o),
        ("orientation", "torso_height", "posture", "stand_still", "action_rate", "torques",
         "dof_pos_limits", "dof_acc", "dof_vel"),
        ("state", "privileged_state")),
    "SpotGetup-v1": _Task(
        spot_getup, lambda o: spot_getup.Getup(config=spot_getup.default_config(),
                                               config_overrides=o),
        ("orientation", "torso_height", "posture", "stand_still", "action_rate", "torques"),
        None),
    "SpotFlatTerrainJoystick-v1": _Task(
        spot_joystick,
        lambda o: spot_joystick.Joystick(task="flat_terrain",
                                         config=spot_joystick.default_config(),
                                         config_overrides=o),
        ("tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation",
         "posture", "termination", "torques", "action_rate", "energy", "feet_slip",
         "feet_clearance", "feet_height", "feet_air_time"),
        ("state", "privileged_state"), ("command",)),
    "SpotJoystickGaitTracking-v1": _Task(
        spot_gait, lambda o: spot_gait.JoystickGaitTracking(config=spot_gait.default_config(),
                                                            config_overrides=o),
        ("tracking_lin_vel", "tracking_ang_vel", "feet_phase", "ang_vel_xy", "lin_vel_z",
         "hip_splay"),
        None, ("command",)),
}
QUAD_IDS = list(TASK_SPECS)


class _Oracle(KeyChainOracle):
    """The package's env of ``task_id`` on native physics, with a key chain per env."""

    def __init__(self, task_id: str, menagerie_dir: str,
                 overrides: dict[str, Any] | None = None) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(menagerie_dir)
        self.task = TASK_SPECS[task_id]
        # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's physics
        # is not used.
        self.env = self.task.make({"impl": "jax", **(overrides or {})})
        self.physics = _NativePhysics(self.env.mj_model)
        self.key: Any = None
        self.state: Any = None

    def _patched(self, fn: Any, *args: Any) -> Any:
        module = self.task.module
        saved = (mjx_env.make_data, mjx_env.step, module.mjx)
        mjx_env.make_data = self.physics.make_data
        mjx_env.step = self.physics.step
        module.mjx = types.SimpleNamespace(forward=self.physics.forward)
        try:
            return fn(*args)
        finally:
            mjx_env.make_data, mjx_env.step, module.mjx = saved


_ORACLES: dict[tuple[str, tuple[tuple[str, Any], ...]], _Oracle] = {}


def _oracle(task_id: str, overrides: dict[str, Any] | None = None) -> _Oracle:
    """The oracle of ``task_id``, made once per test run (its model compiles in a second
    or two)."""
    key = (task_id, tuple(sorted((overrides or {}).items())))
    if key not in _ORACLES:
        _ORACLES[key] = _Oracle(task_id, resolve_dirs(robot=TASKS[task_id][3])[1], overrides)
    return _ORACLES[key]


def _check(obs: Any, info: dict[str, Any], i: int, oracle: _Oracle, where: str) -> None:
    st = oracle.state
    for key in oracle.task.info_keys:
        np.testing.assert_array_equal(as_f32(info[key][i]), np.asarray(st.info[key]),
                                      err_msg=f"{where}: {key}")
    if oracle.task.obs_keys is None:
        np.testing.assert_array_equal(as_f32(obs[i]), np.asarray(st.obs), err_msg=where)
        return
    for key in oracle.task.obs_keys:
        np.testing.assert_array_equal(as_f32(obs[key][i]), np.asarray(st.obs[key]),
                                      err_msg=f"{where}: {key}")


def _check_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                where: str) -> None:
    st = oracle.state
    np.testing.assert_allclose(reward[i], float(st.reward), rtol=RTOL, atol=ATOL,
                               err_msg=f"{where}: reward")
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    for name in oracle.task.terms:
        np.testing.assert_allclose(info[f"reward_{name}"][i], float(st.metrics[f"reward/{name}"]),
                                   rtol=RTOL, atol=ATOL, err_msg=f"{where}: reward_{name}")


def _run(task_id: str, oracle: _Oracle, seed: int, steps: int, max_steps: int, reseed: int,
         scale: float, **kwargs: Any) -> dict[str, int]:
    """Steps a pool of 2 envs and the oracle side by side (uniform actions in [-scale,
    scale]); returns the episode ends seen."""
    n = 2
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    size = env.single_action_space.shape[0]
    rng = np.random.default_rng(seed)
    actions = rng.uniform(-scale, scale, (steps, n, size))
    records = record(env, actions, steps, reseed)
    env.close()
    ends = replay(records, n, seed, reseed, max_steps, oracle, task_id, _check,
                  _check_step)
    return ends


# The runs: each id with its defaults (random actions, truncations), and Go1Getup with a
# finite energy_termination_threshold (its default, inf, never ends an episode), which
# terminates. The default suite takes one run a day (the oracle's first steps compile jax's
# operations: seconds); the nightly every run.
RUNS = [(task_id, None) for task_id in QUAD_IDS] + [("Go1Getup-v1", 20.0)]


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize(("task_id", "threshold"), RUNS,
                         ids=[f"{t}-energy" if e else t for t, e in RUNS])
def test_quad_matches_playground(task_id: str, threshold: float | None) -> None:
    if threshold is None:
        ends = _run(task_id, _oracle(task_id), seed=3, steps=12, max_steps=5, reseed=11,
                    scale=1.0)
        assert ends["truncated"] > 0, ends
    else:
        oracle = _oracle(task_id, {"energy_termination_threshold": threshold})
        ends = _run(task_id, oracle, seed=5, steps=30, max_steps=25, reseed=7, scale=1.0,
                    energy_termination_threshold=threshold)
        assert ends["terminated"] > 0, ends


def test_spaces_and_alias() -> None:
    env = envpool.make_gymnasium("MuJoCoPlayground/Go1Getup-v1", num_envs=1)
    assert env.single_observation_space["state"].shape == (42,)
    assert env.single_observation_space["privileged_state"].shape == (91,)
    assert env.single_action_space.shape == (12,)
    env.close()


def test_bad_keywords() -> None:
    with pytest.raises(ValueError, match="drop_from_height_prob"):
        envpool.make_gymnasium("Go1Getup-v1", num_envs=1, drop_from_height_prob=1.5)
