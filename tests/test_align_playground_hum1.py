"""Alignment of MuJoCo Playground's Berkeley Humanoid and Booster T1 joystick tasks with
``playground`` 0.2.0, its own ``Joystick`` envs run in the same test.

The oracle is the package's env code (``mujoco_playground/_src/locomotion/berkeley_humanoid/
joystick.py``, ``locomotion/t1/joystick.py``) with MJX's physics replaced by native MuJoCo on
the package's own ``mj_model`` (as tests/test_align_playground.py does for Go1):
``mjx_env.make_data`` / ``mjx.forward`` / ``mjx_env.step`` become ``mj_resetData`` + the
given qpos, qvel, ctrl + ``mj_forward``, and ``ctrl = motor_targets`` + ``n_substeps``
``mj_step``s on one float64 ``MjData``. The task code reads that MjData's values rounded to
float32 (as MJX's data holds them) and runs op by op (outside jit) in float32 on jax's CPU
backend. The push (push_config) replaces the data's float32 qvel[0:2] by
``push * magnitude + qvel[0:2]``; on the steps where the push lands, the oracle's MjData
takes those float32 numbers (the native env does the same; on the other steps the package
adds 0 and the float64 state is left alone).

* Same seed, same episodes: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)``: each reset takes ``use, key = split(key)`` and calls
  ``reset(use)``.
* Under the same actions the observations (``state``, ``privileged_state``), terminated,
  truncated and the command must equal the package's bit for bit over several episodes
  (falls, time limits), a reseed and pushes (a short push interval, through the keywords).
* The reward and its terms (info ``reward_<term>``, the package's ``metrics``) agree to
  float32 rounding: the tracking and feet-phase terms take ``exp``, XLA's float32 routine in
  the package and glibc's ``expf`` natively (one ulp apart for about one input in ten).
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
from playground_replay import KeyChainOracle, record, replay  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
mujoco = pytest.importorskip("mujoco")
pytest.importorskip("mujoco_playground")

from etils import epath  # noqa: E402  (after the reference's importorskip)
from mujoco_playground._src import mjx_env  # noqa: E402
from mujoco_playground._src.locomotion.berkeley_humanoid import (  # noqa: E402
    joystick as berkeley_joystick,
)
from mujoco_playground._src.locomotion.t1 import joystick as t1_joystick  # noqa: E402

# Rewards: float32 sums of terms of which three take exp (XLA's vs glibc's, one ulp apart
# for some inputs): a few float32 ulps of the largest term, relative and absolute.
RTOL = 4e-7
ATOL = 1e-7
HUMANOID_IDS = [i for i, v in TASKS.items()
                if v[0] in ("PlaygroundBerkeleyHumanoidJoystick", "PlaygroundT1Joystick")]
# A push every 5 to 10 steps (the default: every 5 to 10 seconds).
PUSH_KW = {"push_interval_min": 0.1, "push_interval_max": 0.2}


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

    def replace(self, qvel: Any) -> _Snapshot:
        """``data.replace(qvel=...)``: the pushed velocity, for the next step."""
        out = object.__new__(_Snapshot)
        out.__dict__.update(self.__dict__)
        out.qvel = qvel
        return out


class _NativePhysics:
    """mjx_env.make_data, mjx.forward and mjx_env.step on one native MjData."""

    def __init__(self, model: Any) -> None:
        self.m = model
        self.d = mujoco.MjData(model)
        self.push_lands = False

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
        del model
        if self.push_lands:  # the pushed float32 base velocity
            self.d.qvel[:2] = np.asarray(data.qvel[:2], np.float64)
        self.d.ctrl[:] = np.asarray(action, np.float64)
        for _ in range(n_substeps):
            mujoco.mj_step(self.m, self.d)
        return _Snapshot(self.d)


class _Oracle(KeyChainOracle):
    """The package's env of ``task_id`` on native physics, with a key chain per env."""

    def __init__(self, task_id: str, menagerie_dir: str, overrides: dict[str, Any]) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(menagerie_dir)
        native, task_name, _, _ = TASKS[task_id]
        self.module: Any = (berkeley_joystick if native == "PlaygroundBerkeleyHumanoidJoystick"
                            else t1_joystick)
        # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's physics
        # is not used. A fresh default_config(): the package's default argument is one shared
        # object that overrides would change.
        self.env = self.module.Joystick(task=task_name, config=self.module.default_config(),
                                        config_overrides={"impl": "jax", **overrides})
        self.terms = list(self.env._config.reward_config.scales.keys())
        self.physics = _NativePhysics(self.env.mj_model)

    def _patched(self, fn: Any, *args: Any) -> Any:
        saved = (mjx_env.make_data, mjx_env.step, self.module.mjx)
        mjx_env.make_data = self.physics.make_data
        mjx_env.step = self.physics.step
        self.module.mjx = types.SimpleNamespace(forward=self.physics.forward)
        try:
            return fn(*args)
        finally:
            mjx_env.make_data, mjx_env.step, self.module.mjx = saved

    def step(self, action: np.ndarray) -> Any:
        info = self.state.info
        cfg = self.env._config.push_config
        self.physics.push_lands = bool(cfg.enable) and (
            int(info["push_step"]) + 1) % int(info["push_interval_steps"]) == 0
        return super().step(action)


_ORACLES: dict[str, _Oracle] = {}


def _oracle(task_id: str) -> _Oracle:
    """The oracle of ``task_id`` with PUSH_KW's push interval, made once per test run (its
    model compiles in a second or two)."""
    if task_id not in _ORACLES:
        overrides = {"push_config.interval_range": [PUSH_KW["push_interval_min"],
                                                    PUSH_KW["push_interval_max"]]}
        robot = TASKS[task_id][3]
        _ORACLES[task_id] = _Oracle(task_id, resolve_dirs(robot=robot)[1], overrides)
    return _ORACLES[task_id]


def _f32(x: Any) -> np.ndarray:
    """Our float64 arrays hold float32 values: check that, then give them as float32."""
    x = np.asarray(x)
    y = x.astype(np.float32)
    np.testing.assert_array_equal(y.astype(np.float64), x)
    return y


def _check(obs: Any, info: dict[str, Any], i: int, oracle: _Oracle, where: str) -> None:
    st = oracle.state
    np.testing.assert_array_equal(_f32(obs["state"][i]), np.asarray(st.obs["state"]),
                                  err_msg=f"{where}: state")
    np.testing.assert_array_equal(_f32(obs["privileged_state"][i]),
                                  np.asarray(st.obs["privileged_state"]),
                                  err_msg=f"{where}: privileged_state")
    np.testing.assert_array_equal(_f32(info["command"][i]), np.asarray(st.info["command"]),
                                  err_msg=f"{where}: command")


def _check_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                where: str) -> None:
    st = oracle.state
    np.testing.assert_allclose(reward[i], float(st.reward), rtol=RTOL, atol=ATOL,
                               err_msg=f"{where}: reward")
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    for name in oracle.terms:
        np.testing.assert_allclose(info[f"reward_{name}"][i], float(st.metrics[f"reward/{name}"]),
                                   rtol=RTOL, atol=ATOL, err_msg=f"{where}: reward_{name}")


def _run(task_id: str, oracle: _Oracle, seed: int, steps: int, max_steps: int, reseed: int,
         **kwargs: Any) -> dict[str, int]:
    """Steps a pool of 2 envs and the oracle side by side; returns the episode ends seen."""
    n = 2
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    nu = env.single_action_space.shape[0]
    rng = np.random.default_rng(seed)
    # Env 0 takes small random actions (it stands up to the time limit); env 1 drives every
    # joint to the top of its action range, which folds the robot over (15 steps, seed 1).
    actions = rng.uniform(-0.2, 0.2, (steps, n, nu))
    actions[:, 1] = 1.0
    records = record(env, actions, steps, reseed)
    env.close()
    ends = replay(records, n, seed, reseed, max_steps, oracle, task_id, _check,
                  _check_step)
    return ends


# The default suite takes one of the ids a day (the oracle's first steps compile jax's
# operations: seconds); the nightly all four.
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", HUMANOID_IDS)
def test_humanoid_joystick_matches_playground(task_id: str) -> None:
    # The reseed gives env 0 (seed 22) a zero command (the draw's 1 in 10): T1's phase is
    # held at pi.
    oracle = _oracle(task_id)
    ends = _run(task_id, oracle, seed=0, steps=36, max_steps=18, reseed=22, **PUSH_KW)
    assert ends["truncated"] > 0 and ends["terminated"] > 0, ends


def test_spaces_and_alias() -> None:
    for task_id, nu, state, priv in (("BerkeleyHumanoidJoystickFlatTerrain-v1", 12, 52, 114),
                                     ("T1JoystickRoughTerrain-v1", 23, 85, 180)):
        env = envpool.make_gymnasium(f"MuJoCoPlayground/{task_id}", num_envs=1)
        assert env.single_observation_space["state"].shape == (state,)
        assert env.single_observation_space["privileged_state"].shape == (priv,)
        assert env.single_action_space.shape == (nu,)
        assert float(env.single_action_space.low[0]) == -1.0
        env.close()


def test_bad_keywords() -> None:
    with pytest.raises(ValueError):
        envpool.make_gymnasium("T1JoystickFlatTerrain-v1", num_envs=1, task_name="stairs")
    with pytest.raises(ValueError, match="push_interval_min"):
        envpool.make_gymnasium("BerkeleyHumanoidJoystickFlatTerrain-v1", num_envs=1,
                               push_interval_min=0.0)
    with pytest.raises(ImportError):
        envpool.make_gymnasium("BerkeleyHumanoidJoystickFlatTerrain-v1", num_envs=1,
                               menagerie_dir=os.path.join(os.sep, "nonexistent"))
