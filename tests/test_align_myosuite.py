"""Alignment of the MyoSuite ids with the ``myosuite`` package 2.12.2, step by step, on the
same MuJoCo.

The reference is the package's env made as its users make it, ``gym.make(id, seed=s)``:
the seed goes to the constructor, which seeds the env's np_random (and the fatigue
model's generator) once; each reset draws the next targets from that stream. Ours draws
from the same generator reproduced in C++ (native/envs/common/numpy_random.h) seeded with
the env's seed, so nothing is copied between the two: under the same float32 actions the
reset observations, every observation (float32, as the package returns them), reward
(rounded to float32, the pool's reward dtype), termination, truncation and the info's
``sparse`` and ``solved`` must be bitwise equal, across episodes.

The muscles' activation is numpy's float32 ``np.exp`` (the action is float32): numpy's own
vectorized loop on CPUs with AVX2 and FMA or AVX-512, libm's ``expf`` elsewhere; ours
computes the one the running numpy uses (envpool/tasks/_numpy_exp.py), so this holds on
every CPU. The leg tasks' rewards also call float64 ``np.exp``: SVML's kernel on AVX-512 CPUs,
libm's ``exp`` elsewhere, and ours follows the running numpy there too (the same module).

myosuite 2.12.2 pins mujoco 3.6; it runs unchanged on this package's mujoco (3.17), which
both sides use here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from myosuite.utils import gym as myo_gym
from numerics import ufunc_matches_libm  # tests/numerics.py

import envpool
from envpool.tasks._numpy_exp import numpy_exp_f64_svml
from envpool.tasks.myosuite import TASKS

REACH_IDS = sorted(tid for tid, (native, _, _) in TASKS.items() if native == "MyoReach")
LEG_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                 if native in ("MyoLegReach", "MyoWalk", "MyoTerrain"))


def _reference(task_id: str, seed: int, **kwargs: Any) -> Any:
    return myo_gym.make(task_id, seed=seed, **kwargs)


def _run(task_id: str, seed: int, steps: int, action_scale: float = 1.0,
         ours_kwargs: dict[str, Any] | None = None,
         ref_kwargs: dict[str, Any] | None = None) -> int:
    """Steps ours and the reference with the same random actions; returns the number of
    episodes that ended."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **(ours_kwargs or {}))
    ref = _reference(task_id, seed, **(ref_kwargs or {}))
    rng = np.random.default_rng(seed + 1000)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset()
    assert obs.dtype == np.float32 and obs.shape == (1,) + ref_obs.shape
    np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task_id} reset")
    ended = 0
    low, high = ours.single_action_space.low, ours.single_action_space.high
    for t in range(steps):
        action = (rng.uniform(low, high) * action_scale).astype(np.float32)
        obs, rew, term, trunc, info = ours.step(action[None])
        ref_obs, ref_rew, ref_term, ref_trunc, ref_info = ref.step(action.copy())
        where = f"{task_id} seed {seed} step {t}"
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        assert rew[0] == np.float32(ref_rew), (where, rew[0], ref_rew)
        assert bool(term[0]) == bool(ref_term), where
        assert bool(trunc[0]) == bool(ref_trunc), where
        assert info["sparse"][0] == ref_info["rwd_sparse"], where
        assert info["solved"][0] == float(ref_info["solved"]), where
        if term[0] or trunc[0]:
            ended += 1
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{where} reset")
    ours.close()
    ref.close()
    return ended


@pytest.mark.parametrize("task_id", REACH_IDS)
def test_reach_aligns(task_id: str) -> None:
    _, max_steps, _ = TASKS[task_id]
    # Two episodes and a bit: truncation, and resets that continue the seed's stream.
    ended = _run(task_id, seed=3, steps=2 * max_steps + 5)
    assert ended >= 2


def test_numpy_exp_f64_is_svml_or_libm() -> None:
    """The leg tasks' rewards call float64 ``np.exp``; ours reproduces SVML's kernel where the
    probes find it and calls libm's ``exp`` otherwise, which is right only where numpy's
    float64 exp then is libm's (numpy's AVX-512F kernel without SVML, a third case, is not
    reproduced)."""
    assert numpy_exp_f64_svml() or ufunc_matches_libm("exp", 1e-3, 30.0, signed=True)


@pytest.mark.parametrize("task_id", LEG_IDS)
def test_leg_aligns(task_id: str) -> None:
    """The legs model is slow: a bounded run with at least one reset. Under random actions
    the walkers fall (done) within about 40 steps; standing ends by truncation (150 steps)
    or by the pelvis leaving its target."""
    _, max_steps, _ = TASKS[task_id]
    stand = "Stand" in task_id
    ended = _run(task_id, seed=3, steps=max_steps + 5 if stand else 90)
    assert ended >= 1


@pytest.mark.parametrize(("task_id", "ours_kwargs", "ref_kwargs"), [
    # reset_type "random": keyframe 2 or 3 and normal noise (numpy's ziggurat).
    ("myoLegWalk-v0", {"reset_type": "random"}, {"reset_type": "random"}),
    # A terrain without variant "fixed" draws its scale at each reset.
    ("myoFatiLegStairTerrainWalk-v0", {"variant": "", "reset_type": "random"},
     {"variant": None, "reset_type": "random"}),
])
def test_leg_keywords_align(task_id: str, ours_kwargs: dict[str, Any],
                            ref_kwargs: dict[str, Any]) -> None:
    assert _run(task_id, seed=5, steps=90, ours_kwargs=ours_kwargs, ref_kwargs=ref_kwargs) >= 1
