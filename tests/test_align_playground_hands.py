"""Alignment of MuJoCo Playground's hand and bimanual tasks (LEAP hand, Aero hand, ALOHA)
with ``playground`` 0.2.0, the package's own envs run in the same test.

The oracle is the package's env code (``mujoco_playground/_src/manipulation/<robot>/``)
with MJX's physics replaced by native MuJoCo on the package's own ``mj_model``:
``mjx_env.make_data`` becomes ``mj_resetData`` + the given qpos, qvel, ctrl and mocap pose
(no forward pass, as MJX's make_data: the first observation reads zero sensors), and
``mjx_env.step`` becomes ``ctrl = motor_targets`` + ``n_substeps`` ``mj_step``s on one
float64 ``MjData``. The task code reads that MjData's values rounded to float32 (as MJX's
data holds them) and runs op by op (outside jit) in float32 on jax's CPU backend; a
``data.replace(mocap_quat=...)`` writes the new goal back into the MjData.

* Same seed, same episodes: env ``i`` of a pool seeded with ``s`` keeps the key chain of
  ``jax.random.PRNGKey(s + i)`` (each reset takes ``use, key = split(key)``).
* Observations, terminated, truncated: bit for bit (every observation compared is counted
  and must be equal). That takes XLA's float32 routines where the package's draws pass
  through them: jax.random.normal (the hand's start pose, the cube orientation's noise) is
  restated with XLA's erf_inv, log1p and log (native/envs/common/xla_math.h; bit for bit
  with jax.random.normal), jnp.linalg.norm with XLA's summation order, MJX's normalize
  with XLA's reciprocal. The random quaternions take glibc's sin and cos, one ulp from XLA's
  for about 1.3% of inputs: a start orientation one ulp apart about once in twenty resets
  (none at these seeds), which contacts would then grow; OBS_RTOL / OBS_ATOL only make such a
  difference readable before the bitwise count fails.
* The reward and its terms (info ``reward_<term>``, the package's ``metrics``) to RTOL: the
  reorientation's orientation term takes asin, the ALOHA terms exp (XLA's float32 routines
  there, glibc's here).
* jax 0.10 no longer takes ``jp.clip(x, a_max=...)``, which the package's CubeReorient calls:
  its module gets a ``jax.numpy`` whose clip takes the old name (_JnpCompat).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.tasks.playground import TASKS, resolve_dirs

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
mujoco = pytest.importorskip("mujoco")
pytest.importorskip("mujoco_playground")

from etils import epath  # noqa: E402  (after the reference's importorskip)
from mujoco_playground._src import mjx_env  # noqa: E402
from mujoco_playground._src.manipulation.aero_hand import rotate_z as aero_rotate_z  # noqa: E402
from mujoco_playground._src.manipulation.aloha import handover as aloha_handover  # noqa: E402
from mujoco_playground._src.manipulation.aloha import (  # noqa: E402
    single_peg_insertion as aloha_peg,
)
from mujoco_playground._src.manipulation.leap_hand import reorient as leap_reorient  # noqa: E402
from mujoco_playground._src.manipulation.leap_hand import rotate_z as leap_rotate_z  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from playground_replay import KeyChainOracle  # noqa: E402

_ROTATE_TERMS = ("angvel", "linvel", "termination", "action_rate", "pose", "torques",
                 "energy")
# The package's env class for each id, its reward terms (our info's reward_<term>, the
# package's metrics["reward/<term>"] for the hands, metrics["<term>"] for ALOHA) and the
# other metrics our info carries under the same name.
_CLASSES: dict[str, tuple[Any, tuple[str, ...], str, tuple[str, ...]]] = {
    "LeapCubeReorient-v1": (leap_reorient.CubeReorient,
                            ("orientation", "position", "termination", "hand_pose",
                             "action_rate", "joint_vel", "energy", "success"), "reward/",
                            ("steps_since_last_success", "success_count")),
    "LeapCubeRotateZAxis-v1": (leap_rotate_z.CubeRotateZAxis, _ROTATE_TERMS, "reward/", ()),
    "AeroCubeRotateZAxis-v1": (aero_rotate_z.CubeRotateZAxis, _ROTATE_TERMS, "reward/", ()),
    "AlohaHandOver-v1": (aloha_handover.HandOver,
                         ("gripper_box", "box_handover", "handover_target",
                          "no_table_collision"), "", ("out_of_bounds",)),
    "AlohaSinglePegInsertion-v1": (aloha_peg.SinglePegInsertion,
                                   ("left_reward", "right_reward", "left_target_qpos",
                                    "right_target_qpos", "no_table_collision",
                                    "socket_entrance_reward", "peg_end2_reward",
                                    "socket_z_up", "peg_z_up", "peg_insertion_reward"), "",
                                   ("peg_end2_dist_to_line", "out_of_bounds")),
}
IDS = list(_CLASSES)

# Observations must be equal bit for bit (counted); the tolerance only lets a difference
# print readably first. Rewards: asin and exp are XLA's in the package, glibc's here (the
# nightly's largest differences: 2.3e-6 relative for the reorientation, 1.1e-7 for the
# handover; the rotations and the peg insertion equal).
OBS_RTOL = 1e-4
OBS_ATOL = 1e-5
RTOL = 1e-5
ATOL = 1e-6


class _Snapshot:
    """MJX's data as the task reads it: the native MjData's values in float32."""

    def __init__(self, physics: _NativePhysics) -> None:
        d = physics.d
        f32 = jnp.float32
        self._physics = physics
        for name in ("qpos", "qvel", "qacc", "ctrl", "sensordata", "actuator_force",
                     "qfrc_actuator", "xfrc_applied", "mocap_pos", "mocap_quat", "site_xpos",
                     "xpos"):
            setattr(self, name, jnp.asarray(getattr(d, name), f32))
        self.site_xmat = jnp.asarray(d.site_xmat.reshape(-1, 3, 3), f32)
        self.xmat = jnp.asarray(d.xmat.reshape(-1, 3, 3), f32)

    def replace(self, **fields: Any) -> _Snapshot:
        for name, value in fields.items():
            getattr(self._physics.d, name)[:] = np.asarray(value, np.float64)
        return _Snapshot(self._physics)


class _NativePhysics:
    """mjx_env.make_data and mjx_env.step on one native MjData."""

    def __init__(self, model: Any) -> None:
        self.m = model
        self.d = mujoco.MjData(model)

    def make_data(self, model: Any, qpos: Any = None, qvel: Any = None, ctrl: Any = None,
                  mocap_pos: Any = None, mocap_quat: Any = None, **_: Any) -> _Snapshot:
        del model
        mujoco.mj_resetData(self.m, self.d)
        for name, value in (("qpos", qpos), ("qvel", qvel), ("ctrl", ctrl),
                            ("mocap_pos", mocap_pos), ("mocap_quat", mocap_quat)):
            if value is not None:
                target = getattr(self.d, name)
                target[:] = np.asarray(value, np.float64).reshape(target.shape)
        return _Snapshot(self)

    def step(self, model: Any, data: Any, action: Any, n_substeps: int = 1) -> _Snapshot:
        del model, data
        self.d.ctrl[:] = np.asarray(action, np.float64)
        for _ in range(n_substeps):
            mujoco.mj_step(self.m, self.d)
        return _Snapshot(self)


class _JnpCompat:
    """``jax.numpy`` for the reorientation's module, whose ``jp.clip(x, a_max=...)`` jax 0.10
    no longer accepts (its ``a_min`` / ``a_max`` became ``min`` / ``max``)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(jnp, name)

    @staticmethod
    def clip(x: Any, a_min: Any = None, a_max: Any = None, **kw: Any) -> Any:
        return jnp.clip(x, min=kw.pop("min", a_min), max=kw.pop("max", a_max), **kw)


class _Oracle(KeyChainOracle):
    """The package's env of ``task_id`` on native physics, with a key chain per env."""

    def __init__(self, task_id: str, menagerie_dir: str) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(menagerie_dir)
        cls, self.terms, self.prefix, self.extra = _CLASSES[task_id]
        # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's physics
        # is not used. (The Aero hand's config has no impl: MJX's default.)
        config = sys.modules[cls.__module__].default_config()
        self.env = cls(config_overrides={"impl": "jax"} if "impl" in config else None)
        self.physics = _NativePhysics(self.env.mj_model)
        self.module = leap_reorient if cls is leap_reorient.CubeReorient else None

    def _patched(self, fn: Any, *args: Any) -> Any:
        saved = (mjx_env.make_data, mjx_env.step)
        mjx_env.make_data = self.physics.make_data
        mjx_env.step = self.physics.step
        if self.module is not None:
            self.module.jp = _JnpCompat()
        try:
            return fn(*args)
        finally:
            mjx_env.make_data, mjx_env.step = saved
            if self.module is not None:
                self.module.jp = jnp


_ORACLES: dict[str, _Oracle] = {}


def _oracle(task_id: str) -> _Oracle:
    """The oracle of ``task_id``, made once per test run."""
    if task_id not in _ORACLES:
        robot = TASKS[task_id][3]
        _ORACLES[task_id] = _Oracle(task_id, resolve_dirs(robot=robot)[1])
    return _ORACLES[task_id]


def _f32(x: Any) -> np.ndarray:
    """Our float64 arrays hold float32 values: check that, then give them as float32."""
    x = np.asarray(x)
    y = x.astype(np.float32)
    np.testing.assert_array_equal(y.astype(np.float64), x)
    return y


class _Stats:
    """Counts of observations compared and of those equal bit for bit."""

    def __init__(self) -> None:
        self.compared = 0
        self.exact = 0


def _check_obs(obs: Any, i: int, oracle: _Oracle, where: str, stats: _Stats) -> None:
    st = oracle.state
    ref = st.obs if isinstance(st.obs, dict) else {"obs": st.obs}
    ours = obs if isinstance(st.obs, dict) else {"obs": obs}
    for key, value in ref.items():
        mine, theirs = _f32(ours[key][i]), np.asarray(value)
        np.testing.assert_allclose(mine, theirs, rtol=OBS_RTOL, atol=OBS_ATOL,
                                   err_msg=f"{where}: {key}")
        stats.compared += 1
        stats.exact += int(np.array_equal(mine, theirs))


def _check_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                where: str) -> None:
    st = oracle.state
    np.testing.assert_allclose(reward[i], float(st.reward), rtol=RTOL, atol=ATOL,
                               err_msg=f"{where}: reward")
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    for name in oracle.terms:
        np.testing.assert_allclose(info[f"reward_{name}"][i],
                                   float(st.metrics[f"{oracle.prefix}{name}"]),
                                   rtol=RTOL, atol=ATOL, err_msg=f"{where}: reward_{name}")
    for name in oracle.extra:
        np.testing.assert_allclose(info[name][i], float(st.metrics[name]), rtol=RTOL, atol=ATOL,
                                   err_msg=f"{where}: {name}")


def _run(task_id: str, seed: int, steps: int, max_steps: int, reseed: int,
         scripted: np.ndarray, **kwargs: Any) -> tuple[dict[str, int], _Stats]:
    """Steps a pool of 2 envs (made with ``kwargs``) and the oracle side by side: env 0 takes
    random actions, env 1 the scripted one (which ends its episodes early); returns the
    episode ends seen."""
    oracle = _oracle(task_id)
    n = 2
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    nu = env.single_action_space.shape[0]
    rng = np.random.default_rng(seed)
    actions = rng.uniform(-1.0, 1.0, (steps, n, nu))
    actions[:, 1] = scripted
    records: list[tuple[Any, ...]] = []
    obs, _ = env.reset()
    records.append(("reset", obs))
    for t in range(steps):
        if t == steps // 2:
            obs, _ = env.reset(seed=reseed)
            records.append(("reseed", obs))
        obs, reward, term, trunc, info = env.step(actions[t])
        records.append(("step", obs, info, reward, term, trunc, actions[t]))
    env.close()
    ends = {"terminated": 0, "truncated": 0}
    stats = _Stats()
    for i in range(n):
        oracle.seed(seed + i)
        oracle.reset()
        elapsed, done = 0, False
        for k, rec in enumerate(records):
            kind, obs = rec[0], rec[1]
            where = f"{task_id} env {i} record {k} ({kind})"
            if kind == "reseed":
                oracle.seed(reseed + i)
                oracle.reset()
                elapsed, done = 0, False
            elif kind == "step":
                info, reward, term, trunc, action = rec[2:]
                if done:  # the pool resets the env at this step
                    oracle.reset()
                    elapsed, done = 0, False
                    _check_obs(obs, i, oracle, where, stats)
                    assert not term[i] and not trunc[i], where
                    continue
                oracle.step(action[i])
                elapsed += 1
                _check_step(reward, term, info, i, oracle, where)
                assert bool(trunc[i]) == (elapsed >= max_steps), where
                done = bool(term[i] or trunc[i])
                if term[i]:
                    ends["terminated"] += 1
                elif trunc[i]:
                    ends["truncated"] += 1
            _check_obs(obs, i, oracle, where, stats)
    return ends, stats


def _scripted(task_id: str, nu: int) -> np.ndarray:
    """An action that ends the hands' episodes early: the LEAP hand's rotation lifts its
    fingers' joints to one end and the thumb's to the other (the cube falls off within 14
    to 20 steps); the others open the hand (every target to its lower end). ALOHA's
    terminations (the box or the peg leaving the workspace, a dropped box) take a grasp that
    no fixed action makes: its scripted env only adds another trajectory."""
    if task_id == "LeapCubeRotateZAxis-v1":
        return np.r_[-np.ones(12), np.ones(4)]
    return -np.ones(nu)


# The nightly (ENVPOOL_SWEEP=all) runs every id over 60 steps of 2 envs with 25-step
# episodes (falls, time limits, automatic resets, a reseed); the default suite one id a day
# over 8 steps of 3-step episodes (a time limit, an automatic reset, a reseed): the oracle
# compiles jax's operations as it first meets them, seconds of the budget.
FULL = os.environ.get("ENVPOOL_SWEEP", "") == "all"


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_hands_match_playground(task_id: str) -> None:
    nu = envpool.make_spec(task_id).action_space.shape[0]
    if FULL:
        ends, stats = _run(task_id, seed=3, steps=60, max_steps=25, reseed=11,
                           scripted=_scripted(task_id, nu))
        if not task_id.startswith("Aloha"):
            assert ends["terminated"] > 0, ends
    else:
        ends, stats = _run(task_id, seed=3, steps=8, max_steps=3, reseed=11,
                           scripted=_scripted(task_id, nu))
    assert ends["truncated"] > 0, ends
    assert stats.exact == stats.compared, (stats.exact, stats.compared)


@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", IDS)
def test_spaces_and_alias(task_id: str) -> None:
    env = envpool.make_gymnasium(f"MuJoCoPlayground/{task_id}", num_envs=1)
    # sail-sg EnvPool 1.2.5's spaces for these ids.
    shapes = {"LeapCubeReorient-v1": ((57,), (128,), (16,)),
              "LeapCubeRotateZAxis-v1": ((32,), (105,), (16,)),
              "AeroCubeRotateZAxis-v1": ((14,), (81,), (7,)),
              "AlohaHandOver-v1": ((83,), (14,)),
              "AlohaSinglePegInsertion-v1": ((82,), (14,))}[task_id]
    space = env.single_observation_space
    if task_id.startswith("Aloha"):
        assert (space.shape, env.single_action_space.shape) == shapes
    else:
        assert (space["state"].shape, space["privileged_state"].shape,
                env.single_action_space.shape) == shapes
    env.close()


def test_bad_keywords() -> None:
    with pytest.raises(ValueError, match="history_len"):
        envpool.make_gymnasium("LeapCubeRotateZAxis-v1", num_envs=1, history_len=0)
    with pytest.raises(ValueError, match="ema_alpha"):
        envpool.make_gymnasium("LeapCubeReorient-v1", num_envs=1, ema_alpha=1.5)
