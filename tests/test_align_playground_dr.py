"""Alignment of the MuJoCo Playground tasks' domain randomisation (``domain_randomization=True``,
native/envs/playground/domain_randomization.h) with ``playground`` 0.2.0's randomisers: the
robots' ``domain_randomize(model, rng)`` (``locomotion/<robot>/randomize.py``, the hands'
``rotate_z.py`` and ``reorient.py``), run in the same test on the package's own MJX model.

* The model: env ``i`` of a pool seeded ``s`` has the model the package's randomiser gives for
  the key ``jax.random.PRNGKey(s + i)``, and after ``reset(seed=r)`` the one for
  ``PRNGKey(r + i)``; automatic and plain resets keep it. The package computes on MJX's
  float32 model: every entry it changes equals, bit for bit, its float32 result (stored
  exactly in our float64 model); every entry it leaves alone keeps our float64 value
  (float32 of it is the package's). The info's ``dr_<field>`` arrays show the env's fields.
* The physics: the package's env code (the oracles of tests/test_align_playground*.py: MJX's
  physics replaced by native MuJoCo) runs on a copy of the package's ``mj_model`` holding the
  randomiser's results under the same rule, and replays the pool's run (tests/
  playground_replay.py) over automatic resets and a reseed, which draws new models: the
  observations equal bit for bit, rewards within each oracle module's bounds.
"""

from __future__ import annotations

import copy
import os
import sys
from typing import Any
from unittest import mock

import numpy as np
import pytest

import envpool
from envpool.core.registry import get_task
from envpool.tasks.playground import TASKS

sys.path.insert(0, os.path.dirname(__file__))
from playground_replay import replay  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
mujoco = pytest.importorskip("mujoco")
pytest.importorskip("mujoco_playground")

from mujoco_playground._src import locomotion, manipulation  # noqa: E402

#: The ids whose package task has a randomiser (the package's own tables).
DR_IDS = [i for i in TASKS if i.removesuffix("-v1") in locomotion._randomizer
          or i.removesuffix("-v1") in manipulation._randomizer]
#: The model fields a randomiser may return (its in_axes name them).
FIELDS = ("geom_friction", "pair_friction", "dof_frictionloss", "dof_armature", "dof_damping",
          "body_ipos", "body_mass", "body_inertia", "qpos0", "actuator_gainprm",
          "actuator_biasprm")
FULL = os.environ.get("ENVPOOL_SWEEP", "") == "all"


def _module(task_id: str) -> Any:
    """The alignment test module whose oracle runs ``task_id`` (and its checks)."""
    native = TASKS[task_id][0]
    if native in ("PlaygroundGo1Joystick", "PlaygroundGo1Handstand", "PlaygroundGo1Footstand"):
        import test_align_playground as module
    elif native == "PlaygroundGo1Getup":
        import test_align_playground_quad as module
    elif native in ("PlaygroundBerkeleyHumanoidJoystick", "PlaygroundT1Joystick"):
        import test_align_playground_hum1 as module
    elif native == "PlaygroundG1Joystick":
        import test_align_playground_hum2 as module
    else:
        import test_align_playground_hands as module
    return module


def _randomize(task_id: str, oracle: Any, seeds: list[int]) -> dict[str, np.ndarray]:
    """The package's randomiser on the oracle env's MJX model for keys PRNGKey(seed), one row
    per seed: {field: float32 array}."""
    name = task_id.removesuffix("-v1")
    table = locomotion if name in locomotion._randomizer else manipulation
    randomizer = table.get_domain_randomizer(name)
    keys = jnp.stack([jax.random.PRNGKey(s) for s in seeds])
    # The hands' randomisers build a fresh default env only to read its mj_model (ids of the
    # cube, fingertips, joints): the oracle env's is that model (the config's impl changes
    # MJX's copy only), and building another costs half a minute of MJX's warp on the CPU.
    built = {n: (lambda *a, **k: oracle.env) for n in ("CubeRotateZAxis", "CubeReorient")
             if n in randomizer.__globals__}
    with mock.patch.dict(randomizer.__globals__, built):
        model, axes = randomizer(oracle.env.mjx_model, keys)
    return {f: np.asarray(getattr(model, f)) for f in FIELDS if getattr(axes, f) == 0}


def _expected(drawn: np.ndarray, base: np.ndarray) -> np.ndarray:
    """The float64 field of a randomised env: the package's float32 result where it changed
    the entry, the unrandomised float64 value elsewhere."""
    changed = drawn != base.astype(np.float32)
    return np.where(changed, drawn.astype(np.float64), base)


def _check_fields(info: dict[str, Any], drawn: dict[str, np.ndarray], rows: list[int],
                  base: Any, where: str) -> None:
    assert sorted(k for k in info if k.startswith("dr_")) == sorted(f"dr_{f}" for f in drawn)
    for field, values in drawn.items():
        for env, row in enumerate(rows):
            ours = info[f"dr_{field}"][env]
            original = getattr(base, field)
            np.testing.assert_array_equal(ours.astype(np.float32), values[row],
                                          err_msg=f"{where}: env {env} {field} (float32)")
            np.testing.assert_array_equal(ours, _expected(values[row], original),
                                          err_msg=f"{where}: env {env} {field}")
        # the draws move the fields at all
        assert (values != getattr(base, field).astype(np.float32)).any(), (where, field)


class _RandomizedOracle:
    """An oracle module's oracle whose physics runs, after each seed, on the package's
    mj_model with the randomiser's results for PRNGKey(seed)."""

    def __init__(self, oracle: Any, models: dict[int, Any]) -> None:
        self.base = oracle
        self.models = models
        self.original = oracle.physics.m

    def seed(self, seed: int) -> None:
        self.base.seed(seed)
        self.base.physics.m = self.models[seed]
        self.base.physics.d = mujoco.MjData(self.models[seed])

    def restore(self) -> None:
        self.base.physics.m = self.original
        self.base.physics.d = mujoco.MjData(self.original)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)


def _model_for(base: Any, drawn: dict[str, np.ndarray], row: int) -> Any:
    model = copy.deepcopy(base)
    for field, values in drawn.items():
        getattr(model, field)[:] = _expected(values[row], getattr(base, field))
    return model


def _run_and_replay(task_id: str, steps: int, max_steps: int,
                    with_replay: bool = True) -> dict[str, int]:
    """A randomised pool of 2 envs stepped with random actions, its fields checked against
    the randomiser at the start, after automatic resets and after a reseed, then (with
    ``with_replay``) replayed on the oracle with the same models; returns the episode ends."""
    module = _module(task_id)
    oracle = module._oracle(task_id)
    n, seed, reseed = 2, 5, 17
    seeds = [seed + i for i in range(n)] + [reseed + i for i in range(n)]
    drawn = _randomize(task_id, oracle, seeds)
    # the pool takes the keywords its oracle was made with (hum1's: pushes every 5-10 steps)
    env = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=max_steps,
                                 domain_randomization=True, **getattr(module, "PUSH_KW", {}))
    nu = env.single_action_space.shape[0]
    actions = np.random.default_rng(seed).uniform(-0.5, 0.5, (steps, n, nu))
    base = oracle.env.mj_model
    records: list[tuple[Any, ...]] = []
    obs, info = env.reset()
    _check_fields(info, drawn, [0, 1], base, f"{task_id} reset")
    records.append(("reset", obs, info))
    for t in range(steps):
        if t == steps // 2:
            obs, info = env.reset(seed=reseed)
            _check_fields(info, drawn, [2, 3], base, f"{task_id} reseed")
            records.append(("reseed", obs, info))
        obs, reward, term, trunc, info = env.step(actions[t])
        _check_fields(info, drawn, [0, 1] if t < steps // 2 else [2, 3], base,
                      f"{task_id} step {t}")
        records.append(("step", obs, info, reward, term, trunc, actions[t]))
    env.close()
    if not with_replay:
        return {"truncated": int(sum(r[5].sum() for r in records if r[0] == "step"))}
    models = {s: _model_for(base, drawn, row) for row, s in enumerate(seeds)}
    randomized = _RandomizedOracle(oracle, models)
    if hasattr(module, "_check"):
        check, check_step = module._check, module._check_step
        stats = None
    else:  # the hands' module: observations within its bounds, counted
        stats = module._Stats()

        def check(obs: Any, info: Any, i: int, o: Any, where: str) -> None:
            del info
            module._check_obs(obs, i, o, where, stats)
        check_step = module._check_step
    try:
        ends = replay(records, n, seed, reseed, max_steps, randomized, task_id, check,
                      check_step)
    finally:
        randomized.restore()
    if stats is not None:
        assert stats.exact == stats.compared, (stats.exact, stats.compared)
    return ends


# The nightly (ENVPOOL_SWEEP=all) runs every id over 40 steps of 10-step episodes, fields
# and replay (20 to 90 s an id on the 2-core VM); the default suite one id a day, its fields
# over 6 steps of 2-step episodes (automatic resets and a reseed) without the replay, whose
# jax operations compile op by op (about 8 CPU-s more: the suite's budget).
@pytest.mark.sweep(by="none", extra=0)
@pytest.mark.parametrize("task_id", DR_IDS)
def test_domain_randomization_matches_playground(task_id: str) -> None:
    ends = _run_and_replay(task_id, steps=40, max_steps=10) if FULL else _run_and_replay(
        task_id, steps=6, max_steps=2, with_replay=False)
    assert ends["truncated"] > 0, ends


def test_every_randomised_task_has_the_keywords() -> None:
    """The ids with a randomiser take domain_randomization (off by default: no dr_ infos);
    the others do not."""
    assert len(DR_IDS) == 14, DR_IDS
    for task_id in TASKS:
        task = get_task(task_id)
        config = task.native_module.default_config(task.native_env)
        assert ("domain_randomization" in config) == (task_id in DR_IDS), task_id
        if task_id in DR_IDS:
            assert config["domain_randomization"] is False, task_id


def test_off_by_default_and_bad_values() -> None:
    env = envpool.make_gymnasium("Go1JoystickFlatTerrain-v1", num_envs=1, seed=0)
    _, info = env.reset()
    assert not [k for k in info if k.startswith("dr_")]
    env.close()
    task = "Go1JoystickFlatTerrain-v1"
    for bad in ({"dr_floor_friction": (1.0, 0.4)}, {"dr_body_mass_scale": (-0.1, 1.0)},
                {"dr_frictionloss_scale": (float("nan"), 1.0)},
                {"dr_qpos0_offset": (0.0, float("inf"))},
                {"dr_com_offset": (0.0,)}):
        with pytest.raises((ValueError, TypeError)):
            envpool.make_gymnasium(task, num_envs=1, domain_randomization=True, **bad)
    # a torso mass offset that could leave the trunk without mass
    with pytest.raises(ValueError, match="dr_torso_mass_offset"):
        envpool.make_gymnasium(task, num_envs=1, domain_randomization=True,
                               dr_torso_mass_offset=(-10.0, 1.0))
    # a keyword of another robot's randomiser
    with pytest.raises(TypeError):
        envpool.make_gymnasium(task, num_envs=1, dr_fingertip_friction=(0.5, 1.0))


def test_seeds_and_ranges() -> None:
    """A pool's models depend on each env's seed alone: env 1 of a pool seeded 3 has env 0's
    model of a pool seeded 4; a degenerate range sets the value; ranges per env."""
    task = "Go1JoystickFlatTerrain-v1"
    a = envpool.make_gymnasium(task, num_envs=2, seed=3, domain_randomization=True)
    b = envpool.make_gymnasium(task, num_envs=1, seed=4, domain_randomization=True,
                               dr_floor_friction=(0.7, 0.7))
    _, ia = a.reset()
    _, ib = b.reset()
    np.testing.assert_array_equal(ia["dr_body_mass"][1], ib["dr_body_mass"][0])
    assert ib["dr_geom_friction"][0, 0, 0] == np.float32(0.7)
    assert ia["dr_geom_friction"][0, 0, 0] != ia["dr_geom_friction"][1, 0, 0]
    a.close()
    b.close()
    # the ranges may differ per env (the flag changes the info's keys: one per pool)
    c = envpool.make_gymnasium(task, num_envs=2, seed=3, domain_randomization=True,
                               env_kwargs={"dr_floor_friction": [(0.5, 0.5), (0.8, 0.8)]})
    _, ic = c.reset()
    np.testing.assert_array_equal(ic["dr_geom_friction"][:, 0, 0], np.float32([0.5, 0.8]))
    np.testing.assert_array_equal(ic["dr_body_mass"], ia["dr_body_mass"])
    c.close()
    with pytest.raises(ValueError):
        envpool.make_gymnasium(task, num_envs=2, env_kwargs={"domain_randomization": [1, 0]})

