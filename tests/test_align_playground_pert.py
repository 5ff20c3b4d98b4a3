"""Alignment of MuJoCo Playground's perturbations (``pert_config``) with ``playground``
0.2.0: the Go1 joystick's and Spot joystick's kicks of the trunk and the LEAP
reorientation's pushes of the cube, with the package's own env code run in the same test.

The oracle is the package's env (``go1/joystick.py``, ``spot/joystick.py``,
``leap_hand/reorient.py``) made with ``pert_config.enable`` and shorter waits, on native
MuJoCo as in the other Playground alignment tests: ``make_data`` / ``mjx.forward`` /
``mjx_env.step`` run on one float64 ``MjData`` of the package's ``mj_model``,
``data.replace(xfrc_applied=...)`` writes the package's float32 force into it (it then acts
in every substep), and the task code reads the data rounded to float32. The joysticks'
``jax.lax.cond(kick_due, apply_pert, wait, state)`` runs the chosen branch's Python op by
op, as the rest of the task runs (the Go1 ``wait`` branch splits the state's rng, which
moves every later draw).

Under the same actions and seeds, over kicks every few steps, falls, truncations,
automatic resets and a reseed: the observations (the privileged state's applied force and
kick flag included), the command, ``steps_until_next_cmd`` and terminated equal the
package's bit for bit; rewards and their terms within the unperturbed tests' bounds (the
joysticks' ``exp``, 4e-7 relative; the reorientation's ``asin``, 1e-5).
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
from mujoco_playground._src.locomotion.go1 import joystick as go1_joystick  # noqa: E402
from mujoco_playground._src.locomotion.spot import joystick as spot_joystick  # noqa: E402
from mujoco_playground._src.manipulation.leap_hand import reorient as leap_reorient  # noqa: E402
from test_align_playground import JOYSTICK_TERMS, SPLAY  # noqa: E402
from test_align_playground_hands import _JnpCompat, _NativePhysics, _Snapshot  # noqa: E402
from test_align_playground_quad import TASK_SPECS  # noqa: E402

#: Each id's package env (from a fresh default_config: the package's default argument is
#: one shared object, which config_overrides would change for every later env), its
#: overrides, the pool's keywords for the same, its reward terms and the reward's tolerance.
#: The kicks come after 1 or 2 steps of waiting (the joysticks) or every 2 or 3 steps (LEAP)
#: and last 2 to 5.
_JOYSTICK_OVERRIDES = {
    "pert_config.enable": True, "pert_config.kick_wait_times": [0.02, 0.04],
    "pert_config.kick_durations": [0.04, 0.1], "pert_config.velocity_kick": [1.0, 3.0]}
_JOYSTICK_KEYWORDS = {
    "pert_enable": True, "kick_wait_time_min": 0.02, "kick_wait_time_max": 0.04,
    "kick_duration_min": 0.04, "kick_duration_max": 0.1, "kick_velocity_min": 1.0,
    "kick_velocity_max": 3.0}


def _go1(task: str) -> Any:
    """The Go1 joystick on ``task``'s terrain, from a fresh default_config."""
    return lambda o: go1_joystick.Joystick(task=task, config=go1_joystick.default_config(),
                                           config_overrides=o)


CASES: dict[str, tuple[Any, Any, dict[str, Any], dict[str, Any], tuple[str, ...], float]] = {
    "Go1JoystickFlatTerrain-v1": (go1_joystick, _go1("flat_terrain"), _JOYSTICK_OVERRIDES,
                                  _JOYSTICK_KEYWORDS, JOYSTICK_TERMS, 4e-7),
    "Go1JoystickRoughTerrain-v1": (go1_joystick, _go1("rough_terrain"), _JOYSTICK_OVERRIDES,
                                   _JOYSTICK_KEYWORDS, JOYSTICK_TERMS, 4e-7),
    "SpotFlatTerrainJoystick-v1": (
        spot_joystick,
        lambda o: spot_joystick.Joystick(task="flat_terrain",
                                         config=spot_joystick.default_config(),
                                         config_overrides=o),
        _JOYSTICK_OVERRIDES, _JOYSTICK_KEYWORDS,
        TASK_SPECS["SpotFlatTerrainJoystick-v1"].terms, 4e-7),
    "LeapCubeReorient-v1": (
        leap_reorient,
        lambda o: leap_reorient.CubeReorient(config=leap_reorient.default_config(),
                                             config_overrides=o),
        {"pert_config.enable": True, "pert_config.pert_wait_steps": [2, 4],
         "pert_config.pert_duration_steps": [2, 6],
         "pert_config.linear_velocity_pert": [1.0, 3.0],
         "pert_config.angular_velocity_pert": [0.2, 0.5]},
        {"pert_enable": 1.0, "pert_wait_steps_min": 2, "pert_wait_steps_max": 4,
         "pert_duration_steps_min": 2, "pert_duration_steps_max": 6,
         "linear_velocity_pert_min": 1.0, "linear_velocity_pert_max": 3.0,
         "angular_velocity_pert_min": 0.2, "angular_velocity_pert_max": 0.5},
        ("orientation", "position", "termination", "hand_pose", "action_rate", "joint_vel",
         "energy", "success"), 1e-5),
}
ATOL = 1e-7
FULL = os.environ.get("ENVPOOL_SWEEP", "") == "all"


class _Physics(_NativePhysics):
    """The hands' native physics, with ``mjx.forward`` (the joysticks' reset)."""

    def forward(self, model: Any, data: Any) -> _Snapshot:
        del model, data
        mujoco.mj_forward(self.m, self.d)
        return _Snapshot(self)


def _eager_cond(pred: Any, true_fun: Any, false_fun: Any, *operands: Any) -> Any:
    """``jax.lax.cond`` on a concrete predicate: the chosen branch, op by op."""
    return true_fun(*operands) if bool(pred) else false_fun(*operands)


class _Oracle(KeyChainOracle):
    """The package's env of ``task_id`` with its perturbations on, on native physics."""

    def __init__(self, task_id: str) -> None:
        mjx_env.MENAGERIE_PATH = epath.Path(resolve_dirs(robot=TASKS[task_id][3])[1])
        self.module, make, overrides, _, self.terms, self.rtol = CASES[task_id]
        # impl "jax": MJX's model on the CPU (the default "warp" needs CUDA); MJX's physics
        # is not used.
        self.env = make({"impl": "jax", **overrides})
        self.leap = self.module is leap_reorient
        self.physics = _Physics(self.env.mj_model)

    def _patched(self, fn: Any, *args: Any) -> Any:
        saved = (mjx_env.make_data, mjx_env.step, self.module.mjx, self.module.jp,
                 jax.lax.cond)
        mjx_env.make_data = self.physics.make_data
        mjx_env.step = self.physics.step
        jax.lax.cond = _eager_cond
        if self.leap:
            self.module.jp = _JnpCompat()
        else:
            self.module.mjx = types.SimpleNamespace(forward=self.physics.forward)
        try:
            return fn(*args)
        finally:
            (mjx_env.make_data, mjx_env.step, self.module.mjx, self.module.jp,
             jax.lax.cond) = saved



def _check(obs: Any, info: dict[str, Any], i: int, oracle: _Oracle, where: str) -> None:
    st = oracle.state
    for key in ("state", "privileged_state"):
        np.testing.assert_array_equal(as_f32(obs[key][i]), np.asarray(st.obs[key]),
                                      err_msg=f"{where}: {key}")
    if "command" in st.info:
        np.testing.assert_array_equal(as_f32(info["command"][i]), np.asarray(st.info["command"]),
                                      err_msg=f"{where}: command")
    if "steps_until_next_cmd" in st.info:
        assert int(info["steps_until_next_cmd"][i]) == int(st.info["steps_until_next_cmd"]), where


def _check_step(reward: Any, term: Any, info: dict[str, Any], i: int, oracle: _Oracle,
                where: str) -> None:
    st = oracle.state
    np.testing.assert_allclose(reward[i], float(st.reward), rtol=oracle.rtol, atol=ATOL,
                               err_msg=f"{where}: reward")
    assert bool(term[i]) == bool(st.done), f"{where}: terminated"
    for name in oracle.terms:
        np.testing.assert_allclose(info[f"reward_{name}"][i], float(st.metrics[f"reward/{name}"]),
                                   rtol=oracle.rtol, atol=ATOL, err_msg=f"{where}: reward_{name}")


def _run(task_id: str, steps: int, max_steps: int) -> tuple[dict[str, int], int]:
    """Steps a pool of 2 envs (seed 3, reseeded with 11 halfway) with the perturbations on,
    then replays it on the oracle; returns the episode ends and the number of observations
    with a non-zero applied force."""
    n, seed, reseed = 2, 3, 11
    kwargs = CASES[task_id][3]
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 **kwargs)
    nu = env.single_action_space.shape[0]
    rng = np.random.default_rng(seed)
    # Env 0: small random actions; env 1: a constant action that ends episodes early (the
    # Go1's SPLAY; the others' joints to one end).
    actions = rng.uniform(-0.2, 0.2, (steps, n, nu))
    actions[:, 1] = SPLAY if task_id.startswith("Go1") else -1.0
    records = record(env, actions, steps, reseed)
    env.close()
    # The applied force: Go1's and Spot's privileged state ends with the trunk's (3) (and
    # Go1's with the kick's flag), the reorientation's with the cube's (6).
    force = (slice(-4, -1) if task_id.startswith("Go1") else
             slice(-3, None) if task_id.startswith("Spot") else slice(-6, None))
    kicked = sum(int(np.any(rec[1]["privileged_state"][:, force] != 0)) for rec in records)
    oracle = _Oracle(task_id)
    ends = replay(records, n, seed, reseed, max_steps, oracle, task_id, _check, _check_step)
    return ends, kicked


# The default suite takes one joystick id a day over two short episodes per env (the
# oracle's first steps compile jax's operations: about 3 s beside the unperturbed tests,
# which compile most of them); the nightly every id over falls, truncations, automatic
# resets and a reseed. The reorientation runs in the nightly only: its oracle compiles
# another 10 s of jax operations (one core) where the hands' test sampled another id.
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", [i for i in CASES if FULL or not i.startswith("Leap")])
def test_perturbations_match_playground(task_id: str) -> None:
    steps, max_steps = (40, 15) if FULL else (12, 5)
    ends, kicked = _run(task_id, steps, max_steps)
    assert ends["truncated"] + ends["terminated"] > 0, ends
    assert kicked > 0, kicked  # the kicks happened


def test_bad_perturbation_keywords() -> None:
    with pytest.raises(ValueError, match="kick_duration_min"):
        envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", num_envs=1, kick_duration_min=0.0)
    with pytest.raises(ValueError, match="kick"):
        envpool.make_gymnasium("SpotFlatTerrainJoystick-v1", num_envs=1,
                               kick_wait_time_min=2.0, kick_wait_time_max=1.0)
    with pytest.raises(ValueError, match="kick_velocity_max"):
        envpool.make_gymnasium("Go1JoystickRoughTerrain-v1", num_envs=1,
                               kick_velocity_max=float("nan"))
    with pytest.raises(ValueError, match="pert_wait_steps"):
        envpool.make_gymnasium("LeapCubeReorient-v1", num_envs=1, pert_wait_steps_min=0)
    with pytest.raises(ValueError, match="pert_duration_steps"):
        envpool.make_gymnasium("LeapCubeReorient-v1", num_envs=1, pert_duration_steps_min=5,
                               pert_duration_steps_max=5)
