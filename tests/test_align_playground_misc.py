"""Alignment of MuJoCo Playground's OP3, Apollo and Barkour joystick tasks with
``playground`` 0.2.0, its own envs run in the same test.

The oracle is the package's env code (``mujoco_playground/_src/locomotion/op3/joystick.py``,
``apollo/joystick.py``, ``barkour/joystick.py``) with MJX's physics replaced by native MuJoCo
on the package's own ``mj_model`` (as tests/test_align_playground.py does for Go1):
``mjx_env.make_data`` / ``mjx.forward`` / ``mjx_env.step`` become ``mj_resetData`` + the
given qpos, qvel, ctrl + ``mj_forward``, and ``ctrl = motor_targets`` + ``n_substeps``
``mj_step``s on one float64 ``MjData``; ``data.replace(qvel=...)`` or
``xfrc_applied=...`` (Apollo's push, Barkour's kick) writes the new float32 values into that
MjData. The data the task code reads is that MjData's values rounded to float32 (as MJX's
data holds them), as jax arrays; the task's arithmetic runs op by op (outside jit) in float32
on jax's CPU backend.

* Same seed, same episodes: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)``: each reset takes ``use, key = split(key)`` and calls
  ``reset(use)``; the state's own ``rng`` drives the rest, as in the package.
* Under the same actions, the observations, terminated, truncated and the command must equal
  the package's bit for bit, over several episodes (terminations by falls, truncations by a
  short ``max_episode_steps``) and a reseed.
* The reward and its terms (info ``reward_<term>``, the package's ``metrics``) agree to
  float32 rounding: the tracking terms take ``exp``, which XLA computes with its own float32
  routine and the native env with glibc's ``expf`` (one ulp apart for about one input in
  ten), and XLA may add a reduction of 20 numbers in another order than the index order, so
  RTOL is a few float32 ulps.
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
from mujoco_playground._src.locomotion.apollo import (  # noqa: E402
    joystick as apollo_joystick,
)
from mujoco_playground._src.locomotion.barkour import (  # noqa: E402
    joystick as barkour_joystick,
)
from mujoco_playground._src.locomotion.op3 import joystick as op3_joystick  # noqa: E402

# Rewards: float32 sums of terms, some of which take exp (XLA's vs glibc's, one ulp apart
# for some inputs): a few float32 ulps of the largest term, relative and absolute.
RTOL = 4e-7
ATOL = 1e-7

OP3_TERMS = ("tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy", "orientation",
             "torques", "action_rate", "zero_cmd", "termination", "feet_slip",
             "feet_clearance", "energy")
BARKOUR_TERMS = ("tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy",
                 "orientation", "torques", "action_rate", "stand_still", "termination",
                 "feet_air_time")
APOLLO_TERMS = ("termination", "alive", "tracking", "lin_vel_z", "ang_vel_xy", "orientation",
                "feet_phase", "torques", "action_rate", "energy", "collision", "pose")

#: id -> (the package's module, its env's constructor (a fresh default_config() each time:
#: config_overrides edit the config in place), the reward terms, the action size, the
#: observation's keys (None: one array)).
ORACLES: dict[str, tuple[Any, Any, tuple[str, ...], int, tuple[str, ...] | None]] = {
    "Op3Joystick-v1": (
        op3_joystick,
        lambda o: op3_joystick.Joystick(config=op3_joystick.default_config(),
                                        config_overrides=o),
        OP3_TERMS, 20, None),
    "BarkourJoystick-v1": (
        barkour_joystick,
        lambda o: barkour_joystick.Joystick(config=barkour_joystick.default_config(),
                                            config_overrides=o),
        BARKOUR_TERMS, 12, None),
    "ApolloJoystickFlatTerrain-v1": (
        apollo_joystick,
        lambda o: apollo_joystick.Joystick(task="flat_terrain",
                                           config=apollo_joystick.default_config(),
                                           config_overrides=o),
        APOLLO_TERMS, 32, ("state", "privileged_state")),
}
#: The perturbations, brought forward so that a short episode has them: Barkour's kick
#: (every 3 or 4 steps, 2 to 4 steps long) and Apollo's push (every 3 to 5 steps): the
#: package's config overrides and the same as the pool's keywords.
PERTURBED: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "BarkourJoystick-v1": ({"kick_wait_steps": [3, 5], "kick_duration_steps": [2, 5],
                            "velocity_kick": [1.0, 3.0]},
                           {"kick_wait_steps_min": 3, "kick_wait_steps_max": 5,
                            "kick_duration_steps_min": 2, "kick_duration_steps_max": 5,
                            "velocity_kick_min": 1.0, "velocity_kick_max": 3.0}),
    "ApolloJoystickFlatTerrain-v1": ({"push_config.interval_range": [0.06, 0.1]},
                                     {"push_interval_min": 0.06, "push_interval_max": 0.1}),
}
#: The default suite runs one sampled case, one short episode per env; the nightly
#: (ENVPOOL_SWEEP=all) runs every case in full.
FULL = os.environ.get("ENVPOOL_SWEEP", "") == "all"
IDS = [i for i in TASKS if i in ORACLES]
#: id -> (env 1's constant action, which topples the robot, the steps run, the pool's
#: max_episode_steps): OP3 falls within 15 steps of all +1, Barkour within 7 of all -1, Apollo
#: within about 45 of all +1.
RUNS: dict[str, tuple[float, int, int]] = {
    "Op3Joystick-v1": (1.0, 50, 20),
    "BarkourJoystick-v1": (-1.0, 40, 15),
    "ApolloJoystickFlatTerrain-v1": (1.0, 120, 60),
}


class _Snapshot:
    """MJX's data as the task reads it: the native MjData's values in float32;
    ``replace`` writes the new values into the MjData (a push or a kick)."""

    def __init__(self, d: Any) -> None:
        f32 = jnp.float32
        self._d = d
        self.qpos = jnp.asarray(d.qpos, f32)
        self.qvel = jnp.asarray(d.qvel, f32)
        self.qacc = jnp.asarray(d.qacc, f32)
        self.ctrl = jnp.asarray(d.ctrl, f32)
        self.sensordata = jnp.asarray(d.sensordata, f32)
        self.xpos = jnp.asarray(d.xpos, f32)
        self.site_xpos = jnp.asarray(d.site_xpos, f32)
        self.site_xmat = jnp.asarray(d.site_xmat.reshape(-1, 3, 3), f32)
        self.actuator_force = jnp.asarray(d.actuator_force, f32)
        self.qfrc_actuator = jnp.asarray(d.qfrc_actuator, f32)
        self.xfrc_applied = jnp.asarray(d.xfrc_applied, f32)

    def replace(self, **kwargs: Any) -> _Snapshot:
        for name, value in kwargs.items():
            getattr(self._d, name)[:] = np.asarray(value, np.float64)
        return _Snapshot(self._d)


class _NativePhysics:
    """mjx_env.make_data, mjx.forward and mjx_env.step on one native MjData."""

    def __init__(self, model: Any) -> None:
        self.m = model
        self.d = mujoco.MjData(model)

    def make_data(self, model: Any, qpos: Any = None, qvel: Any = None, ctrl: Any = None,
                  **_: Any) -> str:
        del model
        mujoco.mj_resetData(self.m, self.d)
        for name, value in (("qpos", qpos), ("qvel", qvel), ("ctrl", ctrl)):
            if value is not None:
                getattr(self.d, name)[:] = np.asarray(value, np.float64)
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

    def __init__(self, task_id: str, menagerie_dir: str, overrides: dict[str, Any]) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(menagerie_dir)
        self.module, make, self.terms, self.nu, self.obs_keys = ORACLES[task_id]
        # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's
        # physics is not used.
        self.env = make({"impl": "jax", **overrides})
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


_ORACLES: dict[tuple[str, bool], _Oracle] = {}


def _oracle(task_id: str, perturbed: bool) -> _Oracle:
    """The oracle of ``task_id`` (with PERTURBED's overrides), made once per module (its model
    compiles in a second or two)."""
    if (task_id, perturbed) not in _ORACLES:
        overrides = PERTURBED[task_id][0] if perturbed else {}
        _ORACLES[task_id, perturbed] = _Oracle(
            task_id, resolve_dirs(robot=TASKS[task_id][3])[1], overrides)
    return _ORACLES[task_id, perturbed]


def _check(obs: Any, info: dict[str, Any], i: int, oracle: _Oracle, where: str) -> None:
    st = oracle.state
    if oracle.obs_keys is None:
        np.testing.assert_array_equal(as_f32(obs[i]), np.asarray(st.obs), err_msg=f"{where}: obs")
    else:
        for key in oracle.obs_keys:
            np.testing.assert_array_equal(as_f32(obs[key][i]), np.asarray(st.obs[key]),
                                          err_msg=f"{where}: {key}")
    np.testing.assert_array_equal(as_f32(info["command"][i]), np.asarray(st.info["command"]),
                                  err_msg=f"{where}: command")
    if "steps_until_next_cmd" in st.info:
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


def _run(task_id: str, oracle: _Oracle, seed: int, steps: int, max_steps: int, reseed: int,
         topple: float, **kwargs: Any) -> dict[str, int]:
    """Steps a pool of 2 envs and the oracle side by side; returns the episode ends seen.

    Env 0 takes small random actions (it stands up to the time limit); env 1 takes the
    constant action ``topple``, which topples it."""
    n = 2
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    rng = np.random.default_rng(seed)
    actions = rng.uniform(-0.2, 0.2, (steps, n, oracle.nu))
    actions[:, 1] = topple
    records = record(env, actions, steps, reseed)
    env.close()
    ends = replay(records, n, seed, reseed, max_steps, oracle, task_id, _check,
                  _check_step)
    return ends


# Apollo's cases run in the nightly only: its oracle's first reset and step compile about 7 s
# of jax operations (one core), past the default suite's budget.
CASES = [(i, p) for i in IDS for p in (False, True)
         if (not p or i in PERTURBED) and (FULL or not i.startswith("Apollo"))]


# The default suite takes one of the cases, one short episode (the oracle's first steps
# compile jax's operations: seconds); the nightly all, in full: falls, truncations, automatic
# resets and a reseed.
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize(("task_id", "perturbed"), CASES)
def test_misc_matches_playground(task_id: str, perturbed: bool) -> None:
    oracle = _oracle(task_id, perturbed)
    topple, steps, max_steps = RUNS[task_id] if FULL else (RUNS[task_id][0], 14, 6)
    kwargs = PERTURBED[task_id][1] if perturbed else {}
    ends = _run(task_id, oracle, seed=3, steps=steps, max_steps=max_steps, reseed=11,
                topple=topple, **kwargs)
    assert ends["truncated"] + ends["terminated"] > 0, ends
    if FULL and not perturbed:  # (pushed every few steps, Apollo falls before the limit)
        assert ends["truncated"] > 0 and ends["terminated"] > 0, ends


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_spaces_and_alias(task_id: str) -> None:
    env = envpool.make_gymnasium(f"MuJoCoPlayground/{task_id}", num_envs=1)
    nu = ORACLES[task_id][3]
    assert env.single_action_space.shape == (nu,)
    assert float(env.single_action_space.low[0]) == -1.0
    if task_id == "ApolloJoystickFlatTerrain-v1":
        assert env.single_observation_space["state"].shape == (112,)
        assert env.single_observation_space["privileged_state"].shape == (224,)
    else:
        obs_size = {"Op3Joystick-v1": 147, "BarkourJoystick-v1": 465}[task_id]
        assert env.single_observation_space.shape == (obs_size,)
    env.close()


def test_bad_keywords() -> None:
    with pytest.raises(ValueError, match="tracking_sigma"):
        envpool.make_gymnasium("Op3Joystick-v1", num_envs=1, tracking_sigma=-1.0)
    with pytest.raises(ValueError, match="sim_dt"):
        envpool.make_gymnasium("Op3Joystick-v1", num_envs=1, sim_dt=0.0)
    with pytest.raises(ValueError, match="kick"):
        envpool.make_gymnasium("BarkourJoystick-v1", num_envs=1, kick_wait_steps_min=10,
                               kick_wait_steps_max=10)
    with pytest.raises(ValueError, match="task_name"):
        envpool.make_gymnasium("ApolloJoystickFlatTerrain-v1", num_envs=1,
                               task_name="rough_terrain")
    with pytest.raises(ImportError):
        envpool.make_gymnasium("Op3Joystick-v1", num_envs=1,
                               menagerie_dir=os.path.join(os.sep, "nonexistent"))
