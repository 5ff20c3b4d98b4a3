"""Alignment of MyoChallenge 2025's table tennis ids (the ``myosuite`` package 2.12.2's
TableTennisEnvV0: P0, P1, P2 and their myoSarc / myoFati variants) with the package, step by
step, on the same MuJoCo, as tests/test_align_myosuite.py checks the other MyoSuite ids:
reset observations, observations, float32 rewards, terminations, truncations and the info's
``sparse`` and ``solved`` bitwise equal, across episodes.

Random actions never reach the ball: their episodes end when the ball falls (z < 0.3) after
the serve's bounce on the player's half. The paddle's and the opponent's contacts (the
``sparse`` and ``solved`` terms, the contact trajectory's evaluation) are reached with the
ball served from just behind the paddle (the package's own ``ball_xyz_range`` keyword, a
range of one point) and the pelvis driven forward: the paddle returns the ball onto the
opponent's half.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
from collections.abc import Callable
from typing import Any

import mujoco
import numpy as np
import pytest
from myosuite.utils import gym as myo_gym
from test_align_myosuite import _reference, _run, _variant  # tests/test_align_myosuite.py

import envpool
from envpool.tasks.myosuite import TASKS

TABLE_TENNIS_IDS = sorted(tid for tid, (native, _, _) in TASKS.items()
                          if native == "MyoChallengeTableTennis")
MODEL_SIZES = ("nq", "nv", "na", "nu", "nsite", "nbody", "ngeom", "nhfielddata", "nmocap")


# model_edit.h's LoadTableTennisModel, compiled on its own: the edited model saved as MJB.
_SAVE_MODEL = r"""
#include "envs/myosuite/model_edit.h"
int main(int argc, char** argv) {
  if (argc != 5) return 2;
  const bool remove_body_collisions = argv[3][0] == '1', add_left_arm = argv[4][0] == '1';
  mjModel* m = envpool::myosuite::LoadTableTennisModel(argv[1], remove_body_collisions,
                                                       add_left_arm);
  mj_saveModel(m, argv[2], nullptr, 0);
  mj_deleteModel(m);
  return 0;
}
"""


def _save_our_model(xml: str, path: pathlib.Path, remove_body_collisions: bool = True,
                    add_left_arm: bool = True) -> bool:
    """model_edit.h's LoadTableTennisModel of ``xml`` (with those two keywords), compiled on its
    own (a C++ compiler, the mujoco wheel's headers and library), saved at ``path`` as MJB;
    False without a compiler."""
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        return False
    native = pathlib.Path(__file__).resolve().parents[1] / "native"
    mujoco_dir = pathlib.Path(mujoco.__file__).parent
    library = sorted(mujoco_dir.glob("libmujoco.so.*"))[-1]
    source, program = path.with_suffix(".cc"), path.with_suffix(".bin")
    source.write_text(_SAVE_MODEL)
    subprocess.run([cxx, "-std=c++17", f"-I{native}", f"-I{mujoco_dir / 'include'}",
                    str(source), str(library), f"-Wl,-rpath,{mujoco_dir}", "-o", str(program)],
                   check=True)
    flags = [str(int(remove_body_collisions)), str(int(add_left_arm))]
    subprocess.run([str(program), xml, str(path), *flags], check=True, capture_output=True)
    return True


def test_ids_spaces_and_model(tmp_path: pathlib.Path) -> None:
    """The nine ids (and their MyoSuite/ spellings) with the package's time limit and spaces
    (obs 417, action 275); the model: the sizes the info gives, and the model model_edit.h
    builds (EditTableTennis: _preprocess_spec restated with MuJoCo's C spec API) byte for byte
    the package's as mj_saveModel writes them: every size and array (qpos0, keyframes, body
    and geom poses, contacts, names, meshes); the first observation."""
    assert len(TABLE_TENNIS_IDS) == 9
    registered = set(envpool.list_all_envs())
    for tid in TABLE_TENNIS_IDS:
        assert tid in registered and f"MyoSuite/{tid}" in registered
        assert TASKS[tid][1] == myo_gym.envs.registry[tid].max_episode_steps == 300
    ref = _reference("myoChallengeTableTennisP0-v0", 1)
    ours = envpool.make_gymnasium("MyoSuite/myoChallengeTableTennisP0-v0", num_envs=1, seed=1)
    assert ours.single_observation_space.shape == ref.observation_space.shape == (417,)
    assert ours.single_action_space == ref.action_space
    assert ours.single_action_space.shape == (275,)
    obs, info = ours.reset()
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs)
    model = ref.unwrapped.mj_model
    for size in MODEL_SIZES:
        assert info[f"model_{size}"].tolist() == [int(getattr(model, size))], size
    xml = myo_gym.envs.registry["myoChallengeTableTennisP0-v0"].kwargs["model_path"]
    if _save_our_model(xml, tmp_path / "ours.mjb"):
        mujoco.mj_saveModel(model, str(tmp_path / "ref.mjb"), None)
        assert (tmp_path / "ours.mjb").read_bytes() == (tmp_path / "ref.mjb").read_bytes()
    ours.close()
    ref.close()


# Some 5-8 s an id on one core: the default suite samples two ids (the nightly: all nine).
@pytest.mark.sweep(by="native", extra=1)
@pytest.mark.parametrize("task_id", TABLE_TENNIS_IDS)
def test_table_tennis_aligns(task_id: str) -> None:
    """A base id: 320 random steps, several episodes (each ends when the ball falls); P1 and
    P2 draw the ball's position, P2 its velocity (cal_ball_qvel), the paddle's mass and the
    ball's friction. A variant: two short episodes, the second after a mid-episode reset."""
    if _variant(task_id):
        _run(task_id, seed=5, steps=30, reset_every=15)
    else:
        assert _run(task_id, seed=3, steps=320)[0] >= 2


def _scripted(task_id: str, seed: int, action: Callable[[int], np.ndarray], steps: int,
              ours_kwargs: dict[str, Any], ref_kwargs: dict[str, Any]) -> list[tuple[int, float]]:
    """Ours and the reference under the same scripted float32 actions, compared bitwise as
    _run compares them (an episode's end resets both); returns the (step, sparse + 10 solved)
    of the steps where sparse or solved is set."""
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **ours_kwargs)
    ref = _reference(task_id, seed, **ref_kwargs)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task_id} reset")
    marks = []
    for t in range(steps):
        a = action(t)
        obs, rew, term, trunc, info = ours.step(a[None])
        ref_obs, ref_rew, ref_term, ref_trunc, ref_info = ref.step(a.copy())
        where = f"{task_id} seed {seed} step {t}"
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        assert rew[0] == np.float32(ref_rew), (where, rew[0], ref_rew)
        assert bool(term[0]) == bool(ref_term) and bool(trunc[0]) == bool(ref_trunc), where
        assert info["sparse"][0] == ref_info["rwd_sparse"], where
        assert info["solved"][0] == float(ref_info["solved"]), where
        if info["sparse"][0] or info["solved"][0]:
            marks.append((t, float(info["sparse"][0] + 10 * info["solved"][0])))
        if term[0] or trunc[0]:
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset()
            np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{where} reset")
    ours.close()
    ref.close()
    return marks


# The ball served from these points (0.5 m behind the paddle along the serve, at or 5 cm
# under its height) meets the paddle at step 7; with the pelvis driven forward (pelvis_x's
# action -1) from the given step, the return lands on the opponent's half: solved (B after
# a bounce on the player's half).
HITS = {
    "A": ((1.41, 0.525, 1.187), 2, 134),
    "B": ((1.41, 0.525, 1.237), 0, 249),
}


@pytest.mark.parametrize("hit", [
    "A", pytest.param("B", marks=pytest.mark.sweep_only("some 20 s; A hits the same code"))])
def test_table_tennis_hit_aligns(hit: str) -> None:
    """The paddle's contact (sparse, 100 in the reward), the return onto the opponent's half
    (solved, 1000, and done, -10: the episode ends) and the evaluation of the contact
    trajectory between them, on P0 with the ball served from behind the paddle; then the next
    episode's first steps (the ball where the keyword puts it again)."""
    ball, start, solved_at = HITS[hit]
    pelvis_x = 273  # the first non-muscle actuator

    def action(t: int) -> np.ndarray:
        a = np.zeros(275, np.float32)
        if t >= start:
            a[pelvis_x] = -1.0
        return a

    marks = _scripted("myoChallengeTableTennisP0-v0", 0, action, solved_at + 10,
                      {"ball_xyz_low": list(ball), "ball_xyz_high": list(ball)},
                      {"ball_xyz_range": {"low": list(ball), "high": list(ball)}})
    assert marks[0] == (7, 1.0) and (solved_at, 10.0) in marks, marks


def test_table_tennis_reseed_aligns() -> None:
    """reset(seed=s) after some steps is the package's env made anew with seed s (P2: the
    resets' draws from the new stream, the model's mass, friction and ball position redrawn)."""
    task_id = "myoChallengeTableTennisP2-v0"
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=3)
    ours.reset()
    rng = np.random.default_rng(0)
    low, high = ours.single_action_space.low, ours.single_action_space.high
    for _ in range(5):
        ours.step(rng.uniform(low, high).astype(np.float32)[None])
    obs, _ = ours.reset(seed=7)
    ref = _reference(task_id, 7)
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs[0], ref_obs)
    for t in range(10):
        action = rng.uniform(low, high).astype(np.float32)
        obs, rew, term, _, _ = ours.step(action[None])
        ref_obs, ref_rew, ref_term, _, _ = ref.step(action.copy())
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task_id} step {t}")
        assert rew[0] == np.float32(ref_rew) and bool(term[0]) == bool(ref_term)
    ours.close()
    ref.close()


# The package's keywords no registered id sets, as ours spells them and as the package does.
KEYWORD_CASES = {
    "qpos_noise": ("myoChallengeTableTennisP1-v0",
                   {"qpos_noise_low": [-0.02], "qpos_noise_high": [0.02]},
                   {"qpos_noise_range": {"low": -0.02, "high": 0.02}}),
    "body_collisions": ("myoChallengeTableTennisP0-v0", {"remove_body_collisions": False},
                        {"remove_body_collisions": False}),
    "no_left_arm": ("myoChallengeTableTennisP0-v0", {"add_left_arm": False},
                    {"add_left_arm": False}),
    "raw_actions": ("myoChallengeTableTennisP0-v0", {"normalize_act": False},
                    {"normalize_act": False}),
}


@pytest.mark.sweep_only("some 35 s; the default suite's episodes use the default keywords")
@pytest.mark.parametrize("case", sorted(KEYWORD_CASES))
def test_table_tennis_keywords_align(case: str, tmp_path: pathlib.Path) -> None:
    """qpos_noise_range (njnt draws after the ball's; each joint but the two free ones moved
    and clipped), the model without _preprocess_spec's collision removal or left arm, and
    actions in the ctrlrange (normalize_act=False: no remap of the pelvis actuators); the two
    model keywords' models byte for byte the package's."""
    task_id, ours_kwargs, ref_kwargs = KEYWORD_CASES[case]
    _run(task_id, seed=2, steps=120, reset_every=60, ours_kwargs=ours_kwargs,
         ref_kwargs=ref_kwargs)
    if case in ("body_collisions", "no_left_arm"):
        # The model too, byte for byte (random steps may never make the body touch itself).
        ref = _reference(task_id, 2, **ref_kwargs)
        mujoco.mj_saveModel(ref.unwrapped.mj_model, str(tmp_path / "ref.mjb"), None)
        xml = myo_gym.envs.registry[task_id].kwargs["model_path"]
        flags = {"remove_body_collisions": True, "add_left_arm": True, **ours_kwargs}
        if _save_our_model(xml, tmp_path / "ours.mjb", **flags):
            assert (tmp_path / "ours.mjb").read_bytes() == (tmp_path / "ref.mjb").read_bytes()
        ref.close()


@pytest.mark.parametrize("kwargs", [
    {"ball_xyz_low": [0.0, 0.0], "ball_xyz_high": [0.0, 0.0]},
    {"ball_xyz_low": [0.0, 0.0, 1.0]},
    {"ball_qvel": True},
    {"paddle_mass_range": [0.1]},
    {"paddle_mass_range": [-0.1, 0.1]},
    {"ball_friction_low": [1.0, 0.005, 0.0001], "ball_friction_high": [1.0, 0.005]},
    {"frame_skip": 0},
])
def test_table_tennis_bad_keywords(kwargs: dict[str, Any]) -> None:
    """Bad keywords are a ValueError naming the keyword, before anything runs."""
    name = next(iter(kwargs)).removesuffix("_low").removesuffix("_high").removesuffix("_range")
    with pytest.raises(ValueError, match=name):
        envpool.make_gymnasium("myoChallengeTableTennisP0-v0", num_envs=1, **kwargs)
