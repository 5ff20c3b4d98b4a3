"""Alignment of MyoChallenge 2023's chase-tag ids (``myoChallengeChaseTagP1-v0``, ``P2-v0``,
``P2eval-v0`` and their ``myoSarc``/``myoFati`` variants; native ``MyoChallengeChaseTag``)
with the ``myosuite`` package 2.12.2's ChaseTagEnvV0, step by step, as
tests/test_align_myosuite.py aligns the other MyoSuite ids (its ``_run``): the reference is
``gym.make(id, seed=s)``, whose construction draws from np_random (the terrain's patches, the
opponent's noise buffer, policy, pose and chase velocity, and what the construction step's
opponent move draws), and ours reproduces those draws from the same seed; the reset
observations, every observation, float32 reward, termination, truncation and the info's
sparse and solved are compared bitwise across episodes.

Under numpy 2 the package cannot score: its get_reward_dict calls ``float()`` on the
(1, 1, 1) time array whenever a CHASE is won or an EVADE ends (won or lost), which numpy 2
refuses (TypeError). Ours computes the score the package means (numpy 1's ``float`` of the
one number); those steps are checked against the package's own terms, read from the env it
leaves behind (``_run_to_score``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from myosuite.utils import gym as myo_gym
from test_align_myosuite import _run, _variant  # tests/test_align_myosuite.py
from test_render_myosuite import _reference_frames  # tests/test_render_myosuite.py

import envpool
from envpool.tasks.myosuite import TASKS

CHASE_TAG_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                       if native == "MyoChallengeChaseTag")
P1 = "myoChallengeChaseTagP1-v0"
# A seed per base id whose first episode is a CHASE (a random-action player falls within
# about 60 steps: a loss, -1000): P2's seed 1 has a standing opponent, P2eval's seed 0 the
# repeller.
BASE_SEEDS = {P1: 3, "myoChallengeChaseTagP2-v0": 1, "myoChallengeChaseTagP2eval-v0": 0}


def _policies(task_id: str, seed: int, resets: int, **kwargs: Any) -> list[str]:
    """The package's opponent policy after construction and after each of ``resets`` resets
    (no steps between them)."""
    env = myo_gym.make(task_id, seed=seed, **kwargs)
    found = [env.unwrapped.opponent.opponent_policy]
    for _ in range(resets):
        env.reset()
        found.append(env.unwrapped.opponent.opponent_policy)
    env.close()
    return found


def _run_to_score(task_id: str, seed: int, steps: int, **kwargs: Any) -> int:
    """Steps ours and the package (both made with ``kwargs``) with the same random float32
    actions, comparing everything bitwise, until the package's step raises numpy 2's
    TypeError at a score; that step of ours must end the episode with the package's terms:
    the observation it had built, solved (its win), sparse (its _get_score of the time) and
    the reward (-0.1 distance - 1000 lose). Returns that step's index."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kwargs)
    ref = myo_gym.make(task_id, seed=seed, **kwargs)
    rng = np.random.default_rng(seed + 1000)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs, err_msg="reset")
    low, high = ours.single_action_space.low, ours.single_action_space.high
    for t in range(steps):
        action = rng.uniform(low, high).astype(np.float32)
        obs, rew, term, _, info = ours.step(action[None])
        where = f"{task_id} seed {seed} step {t}"
        try:
            ref_obs, ref_rew, ref_term, _, ref_info = ref.step(action.copy())
        except TypeError as error:
            assert "0-dimensional" in str(error), error
            env = ref.unwrapped
            terms = env.obs_dict
            built = np.concatenate([np.ravel(terms[key]) for key in env.obs_keys])
            np.testing.assert_array_equal(obs[0], built.astype(np.float32), err_msg=where)
            lose = env._lose_condition()
            distance = np.linalg.norm(terms["model_root_pos"][..., :2]
                                      - terms["opponent_pose"][..., :2])
            assert rew[0] == np.float32(np.sum([-0.1 * distance, -1000 * lose])), where
            assert bool(term[0]), where
            assert info["solved"][0] == float(env._win_condition()), where
            assert info["sparse"][0] == env._get_score(terms["time"].item()), where
            ours.close()
            ref.close()
            return t
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        assert rew[0] == np.float32(ref_rew), where
        assert bool(term[0]) == bool(ref_term), where
        assert info["sparse"][0] == ref_info["rwd_sparse"], where
        assert info["solved"][0] == float(ref_info["solved"]), where
        if term[0]:
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{where} reset")
    raise AssertionError(f"{task_id} seed {seed}: the package never scored in {steps} steps")


def test_chase_tag_ids() -> None:
    """The package's 9 chase-tag ids, each also as ``MyoSuite/<id>``, with its time limit and
    spaces (an observation of 393 numbers, 80 muscle actions)."""
    theirs = {tid: spec.max_episode_steps for tid, spec in myo_gym.envs.registry.items()
              if str(spec.entry_point).endswith("chasetag_v0:ChaseTagEnvV0")}
    assert {tid: TASKS[tid][1] for tid in CHASE_TAG_IDS} == theirs
    assert len(CHASE_TAG_IDS) == 9
    registered = set(envpool.list_all_envs())
    assert all(tid in registered and f"MyoSuite/{tid}" in registered for tid in CHASE_TAG_IDS)
    for tid in (P1, "myoChallengeChaseTagP2eval-v0"):
        spec = envpool.make_spec(tid)
        ref = myo_gym.make(tid)
        assert spec.observation_space.shape == ref.observation_space.shape == (393,)
        assert spec.action_space == ref.action_space
        ref.close()


def test_chase_tag_p1_aligns() -> None:
    """P1 (flat ground, CHASE, keyframe start) over three episodes each of two seeds, under
    every opponent policy: seed 2's construction draws the random policy (its velocity, P1's
    random_vel_range (1, 1), shows in the first reset's observation, with the construction
    step's pose: the package never resets the mocap opponent), its resets the static and the
    standing ones; seed 1's second reset the random one (the opponent then moves each step)."""
    assert _policies(P1, 2, 2) == ["random", "static_stationary", "stationary"]
    assert _policies(P1, 1, 2) == ["random", "stationary", "random"]
    terminated, _ = _run(P1, seed=2, steps=170)
    assert terminated >= 2
    terminated, _ = _run(P1, seed=1, steps=170)
    assert terminated >= 2


def test_chase_tag_scores() -> None:
    """The score's branches, where the package raises (see the module's docstring): a CHASE
    won at once (win_distance 20: the tag within reach at the first step; solved, sparse
    1 - round(t, 2) / 20), and an EVADE lost when the opponent, chasing the player at
    chase_velocity in [3, 5], catches it (within win_distance 1: sparse round(t, 2) / 20,
    -1000)."""
    assert _run_to_score(P1, seed=2, steps=5, win_distance=20.0) == 0
    assert _run_to_score(P1, seed=1, steps=80, task_choice="EVADE", win_distance=1.0,
                         chase_vel_range=(3.0, 5.0)) == 58


@pytest.mark.sweep_only("about 12 s an id of software GL; the default suite's frames of "
                        "MyoSuite scenes are tests/test_render_myosuite.py's daily sample")
@pytest.mark.parametrize("task_id", [P1, "myoChallengeChaseTagP2eval-v0"])
def test_chase_tag_frames_are_the_packages(task_id: str, tmp_path: Any) -> None:
    """The frames (the package's MJRenderer.render_offscreen, camera -1, in a subprocess as
    tests/test_render_myosuite.py draws them), pixel for pixel: the opponent where the
    package's env data has it (a reset does not move it), the terrain's patches (P2eval), the
    opponent's indicator colored by the last reward. (About 35 s an id, most of it the
    package's subprocess: both in the nightly's sweep job.)"""
    size, steps = 96, 3
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=4, render_mode="rgb_array",
                                  render_width=size, render_height=size)
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (steps, *ours.single_action_space.shape)).astype(np.float32)
    ref = _reference_frames(task_id, 4, size, actions, tmp_path)
    ours.reset()
    frames = [ours.render()[0]]
    for action in actions:
        ours.step(action[None])
        frames.append(ours.render()[0])
    ours.close()
    assert ref.shape == (steps + 1, size, size, 3)
    for t, (frame, expected) in enumerate(zip(frames, ref, strict=True)):
        assert np.array_equal(frame, expected), (task_id, t, np.mean(frame != expected))


def test_chase_tag_reseed_aligns() -> None:
    """reset(seed=s) after some steps is the package's env made anew with seed s: the
    construction's draws again (terrain, opponent, the construction step's move: here the
    repeller's), the mocap opponent where a new MjData has it before that, the fatigue
    state anew."""
    task_id = "myoFatiChallengeChaseTagP2eval-v0"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=3)
    ours.reset()
    rng = np.random.default_rng(0)
    low, high = ours.single_action_space.low, ours.single_action_space.high
    for _ in range(7):
        ours.step(rng.uniform(low, high).astype(np.float32)[None])
    obs, _ = ours.reset(seed=7)
    ref = myo_gym.make(task_id, seed=7)
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs)
    for t in range(12):
        action = rng.uniform(low, high).astype(np.float32)
        obs, rew, term, _, _ = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, _ = ref.step(action.copy())
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task_id} step {t}")
        assert rew[0] == np.float32(ref_rew) and bool(term[0]) == bool(ref_term)
    ours.close()
    ref.close()


def test_chase_tag_repeller_escapes_align() -> None:
    """The repeller always (probabilities (0, 0, 0, 1)), spawned near the player (0.3) and
    never tagging it (win_distance -1): its escape from the player, whose components within
    0.1 of zero are redrawn from np_random (13 steps of these 180 draw there, counted on the
    package), over three episodes."""
    kwargs = {"opponent_probabilities": [0.0, 0.0, 0.0, 1.0], "min_spawn_distance": 0.3,
              "task_choice": "CHASE", "win_distance": -1.0}
    terminated, _ = _run("myoChallengeChaseTagP2eval-v0", seed=1, steps=180, ours_kwargs=kwargs,
                         ref_kwargs=kwargs)
    assert terminated >= 2


def test_chase_tag_keywords() -> None:
    """The package's assert_settings (and its task and start names) as clear errors."""
    with pytest.raises(ValueError, match="opponent_probabilities"):
        envpool.make_gymnasium(P1, num_envs=1, opponent_probabilities=[0.5, 0.5])
    with pytest.raises(ValueError, match="chase_vel_range"):
        envpool.make_gymnasium(P1, num_envs=1, chase_vel_range=[0.0, 0.0])
    with pytest.raises(ValueError, match="task_choice"):
        envpool.make_gymnasium(P1, num_envs=1, task_choice="TAG")
    with pytest.raises(ValueError, match="min_spawn_distance"):
        envpool.make_gymnasium(P1, num_envs=1, min_spawn_distance=0.0)


@pytest.mark.sweep
@pytest.mark.parametrize("task_id", CHASE_TAG_IDS)
def test_chase_tag_aligns(task_id: str) -> None:
    """Every id: a base id's episodes to their ends (BASE_SEEDS), a variant (sarcopenia,
    fatigue) two short episodes, the second after a mid-episode reset."""
    if _variant(task_id):
        _run(task_id, seed=5, steps=50, reset_every=25)
    else:
        assert _run(task_id, seed=BASE_SEEDS[task_id], steps=130)[0] >= 1
