"""Alignment of MuJoCo Playground's Go1 tasks with ``playground`` 0.2.0, its own
``Joystick``, ``Handstand`` and ``Footstand`` envs run in the same test.

The oracle is the package's env code (``mujoco_playground/_src/locomotion/go1/joystick.py``,
``handstand.py``)
with MJX's physics replaced by native MuJoCo on the package's own ``mj_model``:
``mjx_env.make_data`` / ``mjx.forward`` / ``mjx_env.step`` become ``mj_resetData`` + the
given qpos, qvel, ctrl + ``mj_forward``, and ``ctrl = motor_targets`` + ``n_substeps``
``mj_step``s on one float64 ``MjData``. The data the task code reads is that MjData's
values rounded to float32 (as MJX's data holds them), as jax arrays; the task's arithmetic
runs op by op (outside jit) in float32 on jax's CPU backend.

* Same seed, same episodes: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)``: each reset takes ``use, key = split(key)`` and calls
  ``reset(use)``; the state's own ``rng`` drives the rest, as in the package.
* Under the same actions, the observations (``state`` and ``privileged_state``),
  terminated, truncated, the joystick's command and ``steps_until_next_cmd`` must equal the
  package's bit for bit, over several episodes (terminations by falls, truncations by a
  short ``max_episode_steps``) and a reseed.
* The reward and its terms (info ``reward_<term>``, the package's ``metrics``) agree to
  float32 rounding: the joystick's tracking and pose terms and the handstand's height term
  take ``exp``, which XLA computes with its
  own float32 routine and the native env with glibc's ``expf`` (they differ by one ulp for
  about one input in ten), so RTOL is a few float32 ulps.
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
from mujoco_playground._src.locomotion.go1 import handstand, joystick  # noqa: E402

# Rewards: float32 sums of terms of which three take exp (XLA's vs glibc's, one ulp apart
# for some inputs): a few float32 ulps of the largest term, relative and absolute.
RTOL = 4e-7
ATOL = 1e-7
# Actions that topple the robot: each leg's hip, thigh and knee pushed to opposite ends.
SPLAY = np.array([1, 1, -1, 1, 1, -1, -1, -1, 1, -1, -1, 1], dtype=np.float64)
JOYSTICK_TERMS = ("tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy",
                  "orientation", "stand_still", "termination", "pose", "torques", "action_rate",
                  "energy", "feet_slip", "feet_clearance", "feet_height", "feet_air_time",
                  "dof_pos_limits")
HANDSTAND_TERMS = ("height", "orientation", "contact", "action_rate", "torques", "termination",
                   "dof_pos_limits", "dof_acc", "pose", "stay_still", "energy")


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
        self.xfrc_applied = jnp.asarray(d.xfrc_applied, f32)


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
        self.d.ctrl[:] = np.asarray(ctrl, np.float64)
        return "made"

    def forward(self, model: Any, data: Any) -> _Snapshot:
        del model, data
        mujoco.mj_forward(self.m, self.d)
        return _Snapshot(self.d)

    def step(self, model: Any, data: Any, action: Any, n_substeps: int = 1) -> _Snapshot:
        del model, data
        self.d.ctrl[:] = np.asarray(action, np.float64)
        for _ in range(n_substeps):
            mujoco.mj_step(self.m, self.d)
        return _Snapshot(self.d)


class _Oracle(KeyChainOracle):
    """The package's env of ``task_id`` on native physics, with a key chain per env."""

    def __init__(self, task_id: str, menagerie_dir: str) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(menagerie_dir)
        # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's
        # physics is not used.
        overrides = {"impl": "jax"}
        native, task_name, _, _ = TASKS[task_id]
        self.joystick = native == "PlaygroundGo1Joystick"
        self.module: Any = joystick if self.joystick else handstand
        self.terms = JOYSTICK_TERMS if self.joystick else HANDSTAND_TERMS
        if self.joystick:
            self.env = joystick.Joystick(task=task_name, config_overrides=overrides)
        elif native == "PlaygroundGo1Handstand":
            self.env = handstand.Handstand(config_overrides=overrides)
        else:
            self.env = handstand.Footstand(config_overrides=overrides)
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
    """The oracle of ``task_id``, made once per test run (its model compiles in a second
    or two)."""
    if task_id not in _ORACLES:
        _ORACLES[task_id] = _Oracle(task_id, resolve_dirs()[1])
    return _ORACLES[task_id]


def _check(obs: Any, info: dict[str, Any], i: int, oracle: _Oracle, where: str) -> None:
    st = oracle.state
    np.testing.assert_array_equal(as_f32(obs["state"][i]), np.asarray(st.obs["state"]),
                                  err_msg=f"{where}: state")
    np.testing.assert_array_equal(as_f32(obs["privileged_state"][i]),
                                  np.asarray(st.obs["privileged_state"]),
                                  err_msg=f"{where}: privileged_state")
    if oracle.joystick:
        np.testing.assert_array_equal(as_f32(info["command"][i]), np.asarray(st.info["command"]),
                                      err_msg=f"{where}: command")
        assert int(info["steps_until_next_cmd"][i]) == int(st.info["steps_until_next_cmd"]), where


def _check_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                where: str) -> None:
    st = oracle.state
    np.testing.assert_allclose(reward[i], float(st.reward), rtol=RTOL, atol=ATOL,
                               err_msg=f"{where}: reward")
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    for name in oracle.terms:
        np.testing.assert_allclose(info[f"reward_{name}"][i], float(st.metrics[f"reward/{name}"]),
                                   rtol=RTOL, atol=ATOL, err_msg=f"{where}: reward_{name}")


def _run(task_id: str, oracle: _Oracle, seed: int, steps: int, max_steps: int,
         reseed: int) -> dict[str, int]:
    """Steps a pool of 2 envs and the oracle side by side; returns the episode ends seen."""
    n = 2
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps)
    rng = np.random.default_rng(seed)
    # The pool runs first; then the oracle replays each env's trajectory in turn.
    # Env 0 takes small random actions (it stands up to the time limit); env 1 pushes its
    # legs apart (SPLAY), which topples it (or, standing on its hands or feet, puts a leg on
    # the floor) within 10 to 25 steps.
    actions = rng.uniform(-0.2, 0.2, (steps, n, 12))
    actions[:, 1] = SPLAY
    records = record(env, actions, steps, reseed)
    ends = replay(records, n, seed, reseed, max_steps, oracle, task_id, _check,
                  _check_step)
    env.close()
    return ends


# The default suite takes one of the ids a day (the oracle's first steps compile jax's
# operations: seconds); the nightly all four.
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [i for i in TASKS if TASKS[i][0] in (
    "PlaygroundGo1Joystick", "PlaygroundGo1Handstand", "PlaygroundGo1Footstand")])
def test_go1_matches_playground(task_id: str) -> None:
    oracle = _oracle(task_id)
    ends = _run(task_id, oracle, seed=3, steps=50, max_steps=25, reseed=11)
    assert ends["truncated"] > 0 and ends["terminated"] > 0, ends


def test_spaces_and_alias() -> None:
    env = envpool.make_gymnasium("MuJoCoPlayground/Go1JoystickFlatTerrain-v1", num_envs=1)
    assert env.single_observation_space["state"].shape == (48,)
    assert env.single_observation_space["privileged_state"].shape == (123,)
    assert env.single_action_space.shape == (12,)
    assert float(env.single_action_space.low[0]) == -1.0
    env.close()


def test_bad_keywords() -> None:
    with pytest.raises(ValueError):
        envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", num_envs=1, task_name="stairs")
    with pytest.raises(ValueError, match="command_b0"):
        envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", num_envs=1, command_b0=1.5)
    with pytest.raises(ImportError):
        envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", num_envs=1,
                               menagerie_dir=os.path.join(os.sep, "nonexistent"))
