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

from collections.abc import Callable
from typing import Any

import mujoco
import numpy as np
import pytest
from myosuite.utils import gym as myo_gym
from numerics import arctan2_matches_libm, ufunc_matches_libm  # tests/numerics.py

import envpool
from envpool.compat.registration import myosuite_task_ids
from envpool.tasks._installed import package_path
from envpool.tasks._numpy_exp import numpy_exp_f64_svml
from envpool.tasks.myosuite import TASKS, reorient_tables, track_reference

REACH_IDS = sorted(tid for tid, (native, _, _) in TASKS.items() if native == "MyoReach")
# The hand manipulation tasks: key turning, object holding, pen twirling.
HAND_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                  if native in ("MyoKeyTurn", "MyoObjHold", "MyoPenTwirl"))


REORIENT_IDS = sorted(tid for tid, (native, _, _) in TASKS.items() if native == "MyoReorient")
LEG_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                 if native in ("MyoLegReach", "MyoWalk", "MyoTerrain"))


def _reference(task_id: str, seed: int, **kwargs: Any) -> Any:
    return myo_gym.make(task_id, seed=seed, **kwargs)


def _run(task_id: str, seed: int, steps: int, reset_every: int = 0,
         max_episode_steps: int | None = None, ours_kwargs: dict[str, Any] | None = None,
         ref_kwargs: dict[str, Any] | None = None, sparse_rtol: float = 0.0,
         reference: Callable[..., Any] = _reference, reward_rtol: float = 0.0,
         ) -> tuple[int, int]:
    """Steps ours and the reference with the same random float32 actions (under the same time
    limit: the registered one or ``max_episode_steps``), resetting both when an episode ends
    (and every ``reset_every`` steps, if given: mid-episode resets); returns the numbers of
    episodes that terminated and that were truncated. ``ours_kwargs`` / ``ref_kwargs``: other
    keywords of each side. ``sparse_rtol``: the info's ``sparse`` within that relative
    tolerance instead of bitwise (numpy's float64 arctan2 in it is not the C library's).
    ``reference``: makes the package's env from (task_id, seed, **keywords) (a task whose
    package needs a shim); ``reward_rtol``: the reward within that relative tolerance (a
    caller that needs one says why)."""
    limit = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **limit, **(ours_kwargs or {}))
    ref = reference(task_id, seed, **limit, **(ref_kwargs or {}))
    rng = np.random.default_rng(seed + 1000)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset()
    assert obs.dtype == np.float32 and obs.shape == (1,) + ref_obs.shape
    np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task_id} reset")
    terminated = truncated = 0
    low, high = ours.single_action_space.low, ours.single_action_space.high
    for t in range(steps):
        action = rng.uniform(low, high).astype(np.float32)
        obs, rew, term, trunc, info = ours.step(action[None])
        ref_obs, ref_rew, ref_term, ref_trunc, ref_info = ref.step(action.copy())
        where = f"{task_id} seed {seed} step {t}"
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        if reward_rtol:
            np.testing.assert_allclose(rew[0], np.float32(ref_rew), rtol=reward_rtol, atol=0,
                                       err_msg=where)
        else:
            assert rew[0] == np.float32(ref_rew), (where, rew[0], ref_rew)
        assert bool(term[0]) == bool(ref_term), where
        assert bool(trunc[0]) == bool(ref_trunc), where
        if sparse_rtol:
            np.testing.assert_allclose(info["sparse"][0], ref_info["rwd_sparse"],
                                       rtol=sparse_rtol, atol=0, err_msg=where)
        else:
            assert info["sparse"][0] == ref_info["rwd_sparse"], where
        assert info["solved"][0] == float(ref_info["solved"]), where
        terminated += bool(term[0])
        truncated += bool(trunc[0] and not term[0])
        if term[0] or trunc[0] or (reset_every and (t + 1) % reset_every == 0):
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{where} reset")
    ours.close()
    ref.close()
    return terminated, truncated


def _variant(task_id: str) -> bool:
    """A muscle-condition variant (myoSarc..., myoFati..., myoReaf...)."""
    return task_id[3:7] in ("Sarc", "Fati", "Reaf")


def _check(task_id: str) -> None:
    """A base id: a whole episode to its truncation (or terminations) and a few steps of the
    next; a variant (the same task with another muscle condition): two short episodes, the
    second after a mid-episode reset."""
    _, max_steps, _ = TASKS[task_id]
    if _variant(task_id):
        _run(task_id, seed=5, steps=50, reset_every=25)
    else:
        assert sum(_run(task_id, seed=3, steps=max_steps + 5)) >= 1


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", REACH_IDS)
def test_reach_aligns(task_id: str) -> None:
    _check(task_id)


POSE_IDS = sorted(tid for tid, (native, _, _) in TASKS.items() if native == "MyoPose")


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", POSE_IDS)
def test_pose_aligns(task_id: str) -> None:
    _check(task_id)


# The package's task classes (entry points under myosuite.envs.myo.myobase) and the native env
# of each. The myoArmReach ids (registered in myoedits, ReachEnvV0 with an edit_fn that edits
# the arm model) are MyoReach with model_edit="arm_reaching".
NATIVE_OF_CLASS = {
    "reach_v0:ReachEnvV0": "MyoReach",
    "pose_v0:PoseEnvV0": "MyoPose",
    "torso_v0:TorsoEnvV0": "MyoPose",
    "key_turn_v0:KeyTurnEnvV0": "MyoKeyTurn",
    "obj_hold_v0:ObjHoldFixedEnvV0": "MyoObjHold",
    "obj_hold_v0:ObjHoldRandomEnvV0": "MyoObjHold",
    "pen_v0:PenTwirlFixedEnvV0": "MyoPenTwirl",
    "pen_v0:PenTwirlRandomEnvV0": "MyoPenTwirl",
    "walk_v0:ReachEnvV0": "MyoLegReach",
    "walk_v0:WalkEnvV0": "MyoWalk",
    "walk_v0:TerrainEnvV0": "MyoTerrain",
    "reorient_sar_v0:Geometries8EnvV0": "MyoReorient",
    "reorient_sar_v0:Geometries100EnvV0": "MyoReorient",
    "reorient_sar_v0:InDistribution": "MyoReorient",
    "reorient_sar_v0:OutofDistribution": "MyoReorient",
    "myodm_v0:TrackEnv": "MyoTrack",
    # myochallenge/ (MyoChallenge): every class the package registers.
    "reorient_v0:ReorientEnvV0": "MyoChallengeDieReorient",
    "relocate_v0:RelocateEnvV0": "MyoChallengeRelocate",
    "baoding_v1:BaodingEnvV1": "MyoChallengeBaoding",
    "bimanual_v0:BimanualEnvV1": "MyoChallengeBimanual",
    "tabletennis_v0:TableTennisEnvV0": "MyoChallengeTableTennis",
    "run_track_v0:RunTrack": "MyoChallengeOslRun",
    "soccer_v0:SoccerEnvV0": "MyoChallengeSoccer",
    "chasetag_v0:ChaseTagEnvV0": "MyoChallengeChaseTag",
}


def test_ids_are_the_packages() -> None:
    """Every id of the package's task classes (myobase, myodm, myochallenge) is here with the
    package's time limit and spaces, and nothing else; each also as sail-sg EnvPool's
    ``MyoSuite/<id>``."""
    theirs = {}
    for tid, spec in myo_gym.envs.registry.items():
        entry = str(spec.entry_point)
        cls = entry.rsplit(".", 1)[-1]
        if "myobase" in entry or "myodm" in entry or "myochallenge" in entry:
            assert cls in NATIVE_OF_CLASS, (tid, entry)  # every class of the package is here
            theirs[tid] = (NATIVE_OF_CLASS[cls], spec.max_episode_steps)
    ours = {tid: (native, steps) for tid, (native, steps, _) in TASKS.items()
            if native in set(NATIVE_OF_CLASS.values())}
    assert ours == theirs
    registered = set(envpool.list_all_envs())
    for tid in ours:
        assert tid in registered and f"MyoSuite/{tid}" in registered
    for tid in ("myoHandReachRandom-v0", "myoArmReachRandom-v0", "myoTorsoExoPoseFixed-v0",
                "motorFingerPoseFixed-v0", "myoHandReorient100-v0", "MyoHandMugDrink3-v0",
                "MyoHandMugRandom-v0", "myoChallengeDieReorientP2-v0",
                "myoChallengeRelocateP2eval-v0", "myoChallengeBaodingP2-v1"):
        spec = envpool.make_spec(tid)
        ref = myo_gym.make(tid)
        assert spec.observation_space.shape == ref.observation_space.shape
        assert spec.observation_space.dtype == ref.observation_space.dtype == np.float32
        assert spec.action_space == ref.action_space
        ref.close()



# sail-sg EnvPool's own info keys (its envpool/mujoco/myosuite/myosuite_env.h): the MuJoCo
# model's sizes, as int32.
MODEL_SIZES = ("nq", "nv", "na", "nu", "nsite", "nbody", "ngeom", "nhfielddata", "nmocap")


@pytest.mark.parametrize("task_id", ["myoFingerReachFixed-v0", "motorFingerPoseRandom-v0",
                                     "myoArmReachRandom-v0", "myoFatiLegWalk-v0",
                                     "MyoSuite/myoChallengeDieReorientP1-v0"])
def test_envpool_info_keys(task_id: str) -> None:
    """The info keys sail-sg EnvPool's MyoSuite envs give besides the package's ``sparse`` and
    ``solved`` (float64): ``task_id``, the id's index in the list of ids (EnvPool's
    ``MYOSUITE_TASKS``, this package's order), ``oracle_numpy2_broken`` (False), and
    ``model_nq``, ... ``model_nmocap``, the sizes of the model the package builds, after a
    reset and after a step."""
    name = task_id.removeprefix("MyoSuite/")
    ref = _reference(name, 7)
    model = ref.unwrapped.mj_model  # the MjModel the package built
    ours = envpool.make_gymnasium(task_id, num_envs=2, seed=7)
    _, reset_info = ours.reset()
    step_info = ours.step(np.zeros((2,) + ours.single_action_space.shape, np.float32))[4]
    index = list(TASKS).index(name)
    assert myosuite_task_ids()[index] == name
    for info in (reset_info, step_info):
        assert info["task_id"].dtype == np.int32 and info["task_id"].tolist() == [index] * 2
        broken = info["oracle_numpy2_broken"]
        assert broken.dtype == np.bool_ and broken.tolist() == [False, False]
        for size in MODEL_SIZES:
            value = info[f"model_{size}"]
            assert value.dtype == np.int32, size
            assert value.tolist() == [int(getattr(model, size))] * 2, (task_id, size)
        for key in ("sparse", "solved"):
            assert info[key].dtype == np.float64 and info[key].shape == (2,)
    ours.close()
    ref.close()


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", HAND_IDS)
def test_hand_aligns(task_id: str) -> None:
    native, max_steps, _ = TASKS[task_id]
    if native == "MyoKeyTurn":
        # An episode of up to 200 steps (random actions end some early: a fingertip leaves
        # the key) and the start of the next one.
        assert sum(_run(task_id, seed=3, steps=max_steps + 25)) >= 1
    else:
        # The object (pen) drops within some 20 to 40 steps under random actions: a few
        # terminated episodes, then episodes cut at 12 steps to see truncation too.
        assert _run(task_id, seed=3, steps=100)[0] >= 2
        assert _run(task_id, seed=4, steps=40, max_episode_steps=12)[1] >= 2


# States that random actions do not reach, set on both sides mid-episode: the key turned
# past pi / 2, pi and 2 pi (bonus; solved past goal_th), the pen along its target (bonus,
# solved). The pen's three hinges (qpos[26:29]) at these angles point it along the Fixed
# target.
_PEN_ALIGNED = (-3.13436408, -1.87844395, 3.0399789)
_SET_STATES = [
    ("myoHandKeyTurnFixed-v0", {-1: 3.3}),
    ("myoHandKeyTurnRandom-v0", {-1: 2.0}),
    ("myoFatiHandKeyTurnRandom-v0", {-1: 6.5}),
    ("myoHandPenTwirlFixed-v0", dict(zip(range(26, 29), _PEN_ALIGNED, strict=True))),
    ("myoSarcHandPenTwirlRandom-v0", dict(zip(range(26, 29), _PEN_ALIGNED, strict=True))),
]


@pytest.mark.parametrize(("task_id", "qpos_edit"), _SET_STATES)
def test_hand_set_state_aligns(task_id: str, qpos_edit: dict[int, float]) -> None:
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=2)
    ref = _reference(task_id, 2)
    ours.reset()
    ref.reset()
    rng = np.random.default_rng(2)
    bonus = 0
    for t in range(16):
        if t == 3:
            # Ours: qpos then qvel, set_state runs mj_forward. The package steps its Robot's
            # own MjData (robot.mj_data), which gets the same qpos and mj_forward.
            state = np.array(ours.get_state(0))
            for i, q in qpos_edit.items():
                state[i % ref.unwrapped.mj_model.nq] = q
            ours.set_state(0, state)
            sim = ref.unwrapped.robot.mj_data
            sim.qpos[:] = state[:ref.unwrapped.mj_model.nq]
            mujoco.mj_forward(ref.unwrapped.mj_model, sim)
        action = (rng.uniform(-1, 1, 39) * 0.2).astype(np.float32)
        obs, rew, term, _, info = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, ref_info = ref.step(action.copy())
        where = f"{task_id} step {t}"
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        assert rew[0] == np.float32(ref_rew), (where, rew[0], ref_rew)
        assert bool(term[0]) == bool(ref_term), where
        assert info["sparse"][0] == ref_info["rwd_sparse"], where
        assert info["solved"][0] == float(ref_info["solved"]), where
        bonus += float(np.squeeze(ref_info["rwd_dict"]["bonus"])) != 0
        if term[0]:
            break
    assert bonus >= 5, task_id
    ours.close()
    ref.close()


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", REORIENT_IDS)
def test_reorient_aligns(task_id: str) -> None:
    """Each reset draws a shape (capsule, ellipsoid, cylinder or box), an entry of the class's
    table and the target's orientation, and edits the model. Random actions drop the object
    within some 20 to 30 steps: a few terminated episodes, then episodes cut at 12 steps."""
    assert _run(task_id, seed=3, steps=100)[0] >= 2
    assert _run(task_id, seed=4, steps=40, max_episode_steps=12)[1] >= 2


DIE_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                 if native == "MyoChallengeDieReorient")


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", DIE_IDS)
def test_die_reorient_aligns(task_id: str) -> None:
    """MyoChallenge's die reorientation (Demo, P1, P2 and their variants): each reset moves and
    turns the target, and (P2) changes the die's friction, mass and size in the model. Random
    actions drop the die (termination) within some 30 to 60 steps: episodes cut at 20 steps,
    a few terminated. The fatigue variants' state is never reset by the package's reset (it
    carries over from episode to episode), here too.

    The Euler angles (quat_math.mat2euler) call numpy's float64 arctan2, which on AVX-512 CPUs
    is SVML's kernel, not the C library's atan2 that ours calls: there the float64 ``sparse``
    (computed from those angles) may differ in its last bits and is held to 1e-13 relative,
    everything else bitwise (the float32 observation and reward; with the reference's arctan2
    replaced by math.atan2 the sparse is bitwise too)."""
    rtol = 0.0 if arctan2_matches_libm() else 1e-13
    if _variant(task_id):
        assert _run(task_id, seed=5, steps=45, max_episode_steps=20, sparse_rtol=rtol)[1] >= 1
    else:
        assert sum(_run(task_id, seed=3, steps=70, max_episode_steps=20, sparse_rtol=rtol)) >= 3


RELOCATE_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                      if native == "MyoChallengeRelocate")


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", RELOCATE_IDS)
def test_relocate_aligns(task_id: str) -> None:
    """MyoChallenge's object relocation (P1, P2, P2eval and their variants): each reset draws
    the target's pose (a mocap body, which the package's observed copy keeps where the XML has
    it) and (P2, P2eval) the object's place, shapes, sizes, colors, friction and mass, and is
    redone while the reset state has contacts (some 10 to 25% of P2's resets), returning the
    first attempt's observation. Episodes cut at 10 steps (and, for a base id, one to its time
    limit or its drop). The float64 ``sparse``: as test_die_reorient_aligns says."""
    rtol = 0.0 if arctan2_matches_libm() else 1e-13
    if _variant(task_id):
        assert _run(task_id, seed=5, steps=40, max_episode_steps=10, sparse_rtol=rtol)[1] >= 3
    else:
        assert _run(task_id, seed=3, steps=60, max_episode_steps=10, sparse_rtol=rtol)[1] >= 5
        assert sum(_run(task_id, seed=4, steps=150, sparse_rtol=rtol)) >= 1


BAODING_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                     if native == "MyoChallengeBaoding")


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", BAODING_IDS)
def test_baoding_aligns(task_id: str) -> None:
    """MyoChallenge's Baoding balls (P1, P2 and their variants): the targets go round their
    ellipse step by step (site_pos edits that the next reset's observation still sees, the
    construction step's for the first); P2 draws the task, the starting angle, the period and
    the balls' mass, friction and size at each reset. Random actions drop a ball within some
    15 steps: several terminated episodes, and episodes cut at 8 steps."""
    if _variant(task_id):
        assert _run(task_id, seed=5, steps=30, max_episode_steps=8)[1] >= 2
    else:
        assert _run(task_id, seed=3, steps=80)[0] >= 3
        assert _run(task_id, seed=4, steps=30, max_episode_steps=8)[1] >= 2


@pytest.mark.parametrize("task_id", ["myoFatiChallengeDieReorientP2-v0",
                                     "myoChallengeRelocateP2-v0", "myoChallengeBaodingP2-v1"])
def test_challenge_reseed_aligns(task_id: str) -> None:
    """reset(seed=s) after some steps is the package's env made anew with seed s: the die's
    geoms back where the XML has them (its resets move them from where they are), the fatigue
    state the construction step leaves (the die's resets keep it), the Baoding construction's
    draws and targets."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=3)
    ours.reset()
    rng = np.random.default_rng(0)
    low, high = ours.single_action_space.low, ours.single_action_space.high
    for _ in range(7):
        ours.step(rng.uniform(low, high).astype(np.float32)[None])
    obs, _ = ours.reset(seed=7)
    ref = _reference(task_id, 7)
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs)
    for t in range(12):
        action = rng.uniform(low, high).astype(np.float32)
        obs, rew, term, trunc, _ = ours.step(action[None])
        ref_obs, ref_rew, ref_term, ref_trunc, _ = ref.step(action.copy())
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task_id} step {t}")
        assert rew[0] == np.float32(ref_rew) and bool(term[0]) == bool(ref_term)
        if term[0] or trunc[0]:
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs)
    ours.close()
    ref.close()


def _reorient_aligned_hinges(model: Any) -> tuple[float, float]:
    """The object's hinge angles about x and y (its qpos[26:28]) that point its axis (local z,
    along which its top and bottom markers lie) along the target's, the target body's
    body_quat being the one the reset drew."""
    def rotation(quat: np.ndarray) -> np.ndarray:
        mat = np.zeros(9)
        mujoco.mju_quat2Mat(mat, quat)
        return mat.reshape(3, 3)

    start = rotation(model.body_quat[model.body("Object").id])
    target = rotation(model.body_quat[model.body("target").id])
    v = start.T @ target[:, 2]  # Rx(a) Ry(b) e_z = (sin b, -sin a cos b, cos a cos b)
    return float(np.arctan2(-v[1], v[2])), float(np.arcsin(v[0]))


@pytest.mark.parametrize("task_id", ["myoHandReorient8-v0", "myoHandReorient100-v0",
                                     "myoSarcHandReorientID-v0", "myoHandReorientOOD-v0"])
def test_reorient_set_state_aligns(task_id: str) -> None:
    """The object turned along its drawn target mid-episode (random actions do not get there):
    bonus and solved (and the success site's color) as the package's."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=2)
    ref = _reference(task_id, 2)
    ours.reset()
    ref.reset()
    rng = np.random.default_rng(2)
    bonus = solved = 0
    for t in range(16):
        if t == 3:
            state = np.array(ours.get_state(0))
            state[26:29] = (*_reorient_aligned_hinges(ref.unwrapped.mj_model), 0.0)
            ours.set_state(0, state)
            sim = ref.unwrapped.robot.mj_data
            sim.qpos[:] = state[:ref.unwrapped.mj_model.nq]
            mujoco.mj_forward(ref.unwrapped.mj_model, sim)
        action = (rng.uniform(-1, 1, 39) * 0.2).astype(np.float32)
        obs, rew, term, _, info = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, ref_info = ref.step(action.copy())
        where = f"{task_id} step {t}"
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        assert rew[0] == np.float32(ref_rew), (where, rew[0], ref_rew)
        assert bool(term[0]) == bool(ref_term), where
        assert info["sparse"][0] == ref_info["rwd_sparse"], where
        assert info["solved"][0] == float(ref_info["solved"]), where
        bonus += float(np.squeeze(ref_info["rwd_dict"]["bonus"])) != 0
        solved += bool(ref_info["solved"])
        if term[0]:
            break
    assert bonus >= 2 and solved >= 1, (task_id, bonus, solved)
    ours.close()
    ref.close()


def test_reorient_tables_are_read_from_the_package(tmp_path: Any) -> None:
    """The object tables come from the installed package's source (parsed, not imported);
    another layout is refused with the file's name."""
    path = package_path("myosuite", "envs/myo/myobase/reorient_sar_v0.py")
    tables = reorient_tables(path, "Geometries8EnvV0")
    assert [len(tables[k]) for k in ("_capsule", "_ellipsoid", "_cylinder", "_box")] == [14] * 4
    assert [len(t) % 7 for t in reorient_tables(path, "InDistribution").values()] == [0] * 4
    bad = tmp_path / "reorient_sar_v0.py"
    bad.write_text("class Geometries8EnvV0:\n    def reset(self):\n        caps = {0: 1}\n")
    with pytest.raises(ValueError, match="reorient_sar_v0.py.*myosuite 2.12.2"):
        reorient_tables(str(bad), "Geometries8EnvV0")
    with pytest.raises(ImportError, match="missing.py"):
        reorient_tables(str(tmp_path / "missing.py"), "Geometries8EnvV0")


# A sample of the MyoDM tracking ids (all on one native env, MyoTrack): motions of several
# objects (PiggybankUse and StampStamp run to the 75-step limit with these actions;
# PhoneLift, ElephantLift and CylindermediumLift outlive their motions, whose last frame
# holds; PiggybankPass is registered with the wineglass), Fixed targets (Coffeemug has no
# motion of its own) and Random ones (a target drawn at every observation).
TRACK_IDS = ["MyoHandPiggybankUse-v0", "MyoHandStampStamp-v0", "MyoHandPhoneLift-v0",
             "MyoHandElephantLift-v0", "MyoHandCylindermediumLift-v0", "MyoHandPiggybankPass-v0",
             "MyoHandKnifeChop-v0", "MyoHandCoffeemugFixed-v0", "MyoHandAirplaneFixed-v0",
             "MyoHandLightbulbRandom-v0", "MyoHandTrainRandom-v0", "MyoHandHandRandom-v0"]


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", TRACK_IDS)
def test_track_aligns(task_id: str) -> None:
    """Random actions lose the object (termination) within some 5 to 75 steps: episodes to
    their end or the time limit, then, with another seed, episodes cut at 12 steps. In
    float64 the reward's object term is within some 1e-14 of the package's (the object's
    quaternion by mju_mat2Quat, not LAPACK's eigenvectors; the C library's atan2, not numpy's
    SVML one on AVX-512 CPUs), which the pool's float32 reward does not show."""
    _, max_steps, _ = TASKS[task_id]
    terminated, truncated = _run(task_id, seed=3, steps=2 * max_steps + 5)
    assert terminated + truncated >= 1
    if task_id in ("MyoHandPiggybankUse-v0", "MyoHandStampStamp-v0"):
        assert truncated >= 1, task_id
    assert sum(_run(task_id, seed=5, steps=40, max_episode_steps=12)) >= 2


def test_track_references_are_read_from_the_package(tmp_path: Any) -> None:
    """The motions are the installed package's files (np.load at pool creation); a missing
    one is refused with its name. The inline references: one row (Fixed), two (Random)."""
    path = package_path("myosuite", "envs/myo/myodm/data/MyoHand_phone_lift.npz")
    ref = track_reference(path)
    assert ref["_robot_dim"] == 29 and len(ref["_ref_time"]) == 47
    assert len(ref["_ref_robot"]) == 47 * 29 and len(ref["_ref_object"]) == 47 * 7
    assert ref["_ref_robot_vel"] == [] and len(ref["_init_qpos_head"]) == 35
    assert len(track_reference("fixed")["_ref_object"]) == 7
    assert len(track_reference("random")["_ref_robot_vel"]) == 2 * 29
    with pytest.raises(ImportError, match="missing.npz"):
        track_reference(str(tmp_path / "missing.npz"))
    ours = envpool.make_gymnasium("MyoHandPhoneLift-v0", num_envs=1)
    ref_env = _reference("MyoHandPhoneLift-v0", 0)
    np.testing.assert_array_equal(
        np.asarray(ref["_init_qpos_head"])[[*range(32), 32, 33, 34]],
        ref_env.unwrapped.init_qpos)
    ours.close()
    ref_env.close()


def test_numpy_exp_f64_is_svml_or_libm() -> None:
    """The leg tasks' rewards call float64 ``np.exp``; ours reproduces SVML's kernel where the
    probes find it and calls libm's ``exp`` otherwise, which is right only where numpy's
    float64 exp then is libm's (numpy's AVX-512F kernel without SVML, a third case, is not
    reproduced)."""
    assert numpy_exp_f64_svml() or ufunc_matches_libm("exp", 1e-3, 30.0, signed=True)


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", LEG_IDS)
def test_leg_aligns(task_id: str) -> None:
    """The legs model is slow: a bounded run with at least one reset. Under random actions
    the walkers fall (done) within about 40 steps; standing ends by truncation (150 steps)
    or by the pelvis leaving its target."""
    _, max_steps, _ = TASKS[task_id]
    stand = "Stand" in task_id
    ended = _run(task_id, seed=3, steps=max_steps + 5 if stand else 90)
    assert sum(ended) >= 1


@pytest.mark.parametrize(("task_id", "ours_kwargs", "ref_kwargs"), [
    # reset_type "random": keyframe 2 or 3 and normal noise (numpy's ziggurat).
    ("myoLegWalk-v0", {"reset_type": "random"}, {"reset_type": "random"}),
    # A terrain without variant "fixed" draws its scale at each reset.
    ("myoFatiLegStairTerrainWalk-v0", {"variant": "", "reset_type": "random"},
     {"variant": None, "reset_type": "random"}),
])
def test_leg_keywords_align(task_id: str, ours_kwargs: dict[str, Any],
                            ref_kwargs: dict[str, Any]) -> None:
    assert sum(_run(task_id, seed=5, steps=90, ours_kwargs=ours_kwargs,
                    ref_kwargs=ref_kwargs)) >= 1
