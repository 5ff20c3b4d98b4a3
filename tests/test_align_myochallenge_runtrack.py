"""Alignment of MyoChallenge 2024's prosthesis running track (``myoChallengeOslRunFixed-v0``,
``myoChallengeOslRunRandom-v0`` and their ``myoSarc``/``myoFati`` variants: the package's
``run_track_v0.RunTrack``, native env ``MyoChallengeOslRun``) with myosuite 2.12.2, step by
step, as tests/test_align_myosuite.py aligns the other MyoSuite ids (its ``_run``: the same
random float32 actions; reset observations, observations, float32 rewards, terminations,
truncations and the info's ``sparse`` and ``solved`` bitwise, across resets).

The Random id's rough terrain draws its noise from numpy's global generator (np.random, which
the package never seeds), not from the env's np_random; ours draws it from a legacy MT19937 of
its own seeded with the env's seed. So each reference here is made after
``np.random.seed(seed)`` (nothing else in the test draws from np.random), and then the two
agree bitwise on every terrain.

Under random actions the runner (the prosthesis's controller helping) falls within some 140
to 180 steps, near the start of the track, where the Random id's track is flat (its first and
last patches are); the terrain tests start the runner mid-track (``start_pos=0``: the patch of
difficulty 0.12) and observe the terrain's type and the heightfield around the runner besides
the default keys.

The package's observations and rewards read its env's mj_data, a second MjData that each
observation copies the stepping sim's time, qpos, qvel and act into before mj_forward, with
zero controls and a qacc_warmstart that stays zero: its contact forces (the touch sensors of
``grf``) differ from the stepping sim's in the fourth digit, and ours keeps such a sim too.
"""

from __future__ import annotations

import math
import os
from typing import Any

import mujoco
import numpy as np
import pytest
from myosuite.utils import gym as myo_gym
from numerics import arctan2_matches_libm  # tests/numerics.py
from test_align_myosuite import _run, _variant  # tests/test_align_myosuite.py

import envpool
from envpool.tasks.myosuite import ASSETS_DIR, TASKS

OSL_RUN_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                     if native == "MyoChallengeOslRun")
# The default observation keys, the terrain's type, the heightfield around the runner and the
# socket's force sensor.
_TERRAIN_KEYS = ["internal_qpos", "internal_qvel", "grf", "torso_angle", "model_root_pos",
                 "model_root_vel", "muscle_length", "muscle_velocity", "muscle_force", "terrain",
                 "hfield", "socket_force"]


def _reset_angles_match_libm() -> bool:
    """Whether numpy's float64 arctan2 and arcsin equal the C library's (which ours calls) on
    the numbers every random reset puts through them: the roll and pitch
    (quat2euler_intrinsic) of the three keyframes it starts from. numpy's AVX-512 loops differ
    from the C library in the last bits on some numbers."""
    model = mujoco.MjModel.from_xml_path(
        os.path.join(ASSETS_DIR, "envs/myo/assets/leg/myoosl_runtrack.xml"))
    for w, x, y, z in model.key_qpos[:3, 3:7].astype(np.float64):
        a, b, sinp = 2 * (w * x + y * z), 1 - 2 * (x * x + y * y), 2 * (w * y - z * x)
        if np.arctan2(a, b) != math.atan2(a, b):
            return False
        if abs(sinp) < 1 and np.arcsin(sinp) != math.asin(sinp):
            return False
    return True


# The random resets' angles (see _reset_angles_match_libm); the heightfield observation's
# yaw (quat2euler) and the gait cycle's start (quat2euler_intrinsic) call arctan2 on any number.
needs_libm_resets = pytest.mark.skipif(
    not _reset_angles_match_libm(),
    reason="numpy's arctan2 / arcsin differ from the C library's on the keyframes' angles")
needs_libm_arctan2 = pytest.mark.skipif(
    not arctan2_matches_libm(), reason="numpy's arctan2 is not the C library's on this CPU")


def _run_seeded(task_id: str, seed: int, steps: int, **kwargs: Any) -> tuple[int, int]:
    """``_run`` with numpy's global generator seeded as ours seeds its legacy one."""
    # The package's TrackField draws from the legacy global generator: seeding it is the point.
    np.random.seed(seed)  # noqa: NPY002
    return _run(task_id, seed, steps, **kwargs)


def test_osl_run_ids() -> None:
    """The 12 ids, the package's time limits, and the spaces: 260 observations (the default
    keys and act) and the 54 muscles' actions (the prosthesis's motors are not actions)."""
    assert len(OSL_RUN_IDS) == 6
    for tid in OSL_RUN_IDS:
        assert TASKS[tid][1] == myo_gym.envs.registry[tid].max_episode_steps
        assert f"MyoSuite/{tid}" in envpool.list_all_envs()
    spec = envpool.make_spec("myoChallengeOslRunFixed-v0")
    assert spec.observation_space.shape == (260,)
    assert spec.action_space.shape == (54,)
    ref = myo_gym.make("myoChallengeOslRunFixed-v0")
    assert spec.action_space == ref.action_space
    assert spec.observation_space.shape == ref.observation_space.shape
    ref.close()
    # Without normalize_act the package's Box has all 56 ctrlranges (the motors' too).
    spec = envpool.make_spec("myoChallengeOslRunFixed-v0", normalize_act=False)
    ref = myo_gym.make("myoChallengeOslRunFixed-v0", normalize_act=False)
    assert spec.action_space.shape == ref.action_space.shape == (56,)
    assert spec.action_space == ref.action_space
    ref.close()


@needs_libm_resets
def test_osl_run_fixed_aligns() -> None:
    """The flat track: episodes of random actions to their falls (each reset drawing the
    keyframe, the lateral start and the heading, then moving the runner to the ground and
    resetting again), the prosthesis's state machine stepping each step, the observed
    sim's contact forces (touch sensors) from its cold solver."""
    assert _run_seeded("myoChallengeOslRunFixed-v0", seed=3, steps=350)[0] >= 2


@needs_libm_resets
@needs_libm_arctan2
def test_osl_run_random_terrain_aligns() -> None:
    """The Random id's terrains under the runner's feet (``start_pos=0``: the patch of
    difficulty 0.12), observed (the type, the heightfield around the runner): seed 5's first
    three resets draw rough (numpy's global generator), hills and stairs."""
    kw = {"start_pos": 0.0, "obs_keys": _TERRAIN_KEYS}
    _run_seeded("myoChallengeOslRunRandom-v0", seed=5, steps=130, reset_every=40,
                ours_kwargs=kw, ref_kwargs=kw)


@needs_libm_arctan2
def test_osl_run_gait_cycle_start_aligns() -> None:
    """reset_type "osl_init": a row of the package's sample_gait_cycle.csv (read from the
    installed package), written into init_qpos, which keeps it for the next reset's yaw; the
    controller to the row's phase. Fixed's start_pos (14) makes every such start lost (the
    gait's root is at y 55), so the track starts further (60)."""
    kw = {"reset_type": "osl_init", "start_pos": 60.0}
    _run_seeded("myoChallengeOslRunRandom-v0", seed=6, steps=100, reset_every=20,
                ours_kwargs=kw, ref_kwargs=kw)


@needs_libm_resets
@needs_libm_arctan2
def test_osl_run_reseed_aligns() -> None:
    """reset(seed=s) after some steps is the package's env made anew with seed s (and numpy's
    global generator seeded with s): the draws, the terrain, the gait cycle's init_qpos."""
    kw = {"start_pos": 0.0, "obs_keys": _TERRAIN_KEYS}
    ours = envpool.make_gymnasium("myoChallengeOslRunRandom-v0", num_envs=1, seed=3, **kw)
    ours.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        ours.step(rng.uniform(-1, 1, (1, 54)).astype(np.float32))
    obs, _ = ours.reset(seed=9)
    np.random.seed(9)  # noqa: NPY002
    ref = myo_gym.make("myoChallengeOslRunRandom-v0", seed=9, **kw)
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs)
    for t in range(10):
        action = rng.uniform(-1, 1, 54).astype(np.float32)
        obs, rew, term, _, _ = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, _ = ref.step(action.copy())
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"step {t}")
        assert rew[0] == np.float32(ref_rew) and bool(term[0]) == bool(ref_term)
    ours.close()
    ref.close()


def test_osl_run_reset_type_init_aligns() -> None:
    """reset_type "init": keyframe 0, early stance, and no second reset."""
    kw = {"reset_type": "init"}
    _run_seeded("myoChallengeOslRunFixed-v0", seed=5, steps=60, reset_every=30,
                ours_kwargs=kw, ref_kwargs=kw)


@needs_libm_resets
@pytest.mark.parametrize(("task_id", "kwargs"), [
    # Without normalize_act: the package's action Box has all 56 ctrlranges (its step reads
    # the first 54), the muscles get their actions as they are, the motors their torques.
    ("myoChallengeOslRunFixed-v0", {"normalize_act": False}),
    # A kind drawn for each of the 24 patches (type 4).
    pytest.param("myoChallengeOslRunRandom-v0",
                 {"terrain": "random_mixed", "start_pos": 0.0, "obs_keys": _TERRAIN_KEYS},
                 marks=needs_libm_arctan2),
    # The fatigue state drawn at both of a reset's BaseV0.resets.
    ("myoFatiChallengeOslRunFixed-v0", {"fatigue_reset_random": True}),
])
def test_osl_run_keywords_align(task_id: str, kwargs: dict[str, Any]) -> None:
    _run_seeded(task_id, seed=3, steps=60, reset_every=30, ours_kwargs=kwargs,
                ref_kwargs=kwargs)


@needs_libm_resets
def test_osl_run_reward_terms_align() -> None:
    """The reward terms the default weights leave out, weighted: pain (the observed sim's
    joint-limit forces, non-zero at most steps of a fall), act_reg and done."""
    weights = {"pain": -2.0, "act_reg": -1.0, "sparse": 1.0, "solved": 10.0, "done": -5.0}
    _run_seeded("myoChallengeOslRunFixed-v0", seed=3, steps=100,
                ours_kwargs={"reward_keys": list(weights),
                             "reward_weights": list(weights.values())},
                ref_kwargs={"weighted_reward_keys": weights})


@pytest.mark.parametrize("kwargs", [{"terrain": "hilly"}, {"osl_param_set": 0},
                                    {"reset_type": "osl_init", "init_pose_path": ""},
                                    {"init_pose_path": "no/such/gait.csv"},
                                    {"terrain": "random_mixed", "hills_difficulties": [0.1]}])
def test_osl_run_bad_keywords(kwargs: dict[str, Any]) -> None:
    with pytest.raises(Exception, match="terrain|osl_param_set|init_pose_path|gait|difficult"):
        envpool.make_gymnasium("myoChallengeOslRunFixed-v0", num_envs=1, **kwargs)


@needs_libm_resets
@pytest.mark.sweep
@pytest.mark.parametrize("task_id", OSL_RUN_IDS)
def test_osl_run_aligns(task_id: str) -> None:
    """Each id: a base id to its falls; a variant (sarcopenia, fatigue: the fatigue state
    reset at both of the reset's BaseV0.resets) in episodes cut mid-way."""
    if _variant(task_id):
        _run_seeded(task_id, seed=5, steps=40, reset_every=20)
    else:
        assert sum(_run_seeded(task_id, seed=3, steps=200)) >= 1
