"""gfootball ids against the gfootball package (2.10.2), step by step, bitwise.

The reference is the package's own env, ``gfootball.env.football_env.FootballEnv`` with one
agent on the left team, as ``create_environment(env_name=..., representation="extracted",
stacked=False, rewards="scoring")`` wraps it: its Super Mini Map is
``observation_preprocessing.generate_smm`` of its observation (what that wrapper returns), its
reward the scoring reward. The package draws each episode's engine seed with Python's
``random``; the test gives it the seed the pool drew (``info["engine_seed"]``, with the
package's ``game_engine_random_seed`` and ``reverse_team_processing`` config keys) and the
episode number (``info["episode_number"]``), and then compares every observation, reward,
``terminated`` / ``truncated`` (the package's one ``done``: truncated where the engine's step
count reached the scenario's duration), and the info keys, exactly, across episode ends and
the pool's resets.

The package builds its engine from its sdist against the system's SDL 2, EGL and Boost (as
envpool's build does); where it is not installed, or envpool was built without the engine,
the module fails, it does not skip.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

# The package's modules (its env imports old gym, which imports cleanly here).
from gfootball.env import config as gconfig  # noqa: E402
from gfootball.env import (
    football_action_set,  # noqa: E402
    football_env,  # noqa: E402
    observation_preprocessing,  # noqa: E402
)

import envpool
from envpool import _gfootball
from envpool.tasks import gfootball as tasks

INFO_KEYS = ("game_mode", "ball_owned_team", "ball_owned_player", "steps_left")
# Scenarios whose episodes last the whole 3000-step game: the default suite compares their
# first STEPS_LONG steps (a few set pieces and possession changes); the nightly run whole
# games.
STEPS_LONG = int(os.environ.get("ENVPOOL_GFOOTBALL_ALIGN_STEPS", "150"))
STEPS_IDLE = 400


class Reference:
    """The package's env for one scenario, driven to the pool's engine seeds."""

    def __init__(self, name: str, seed: int, episode_number: int) -> None:
        self.config = gconfig.Config({
            "level": name,
            "game_engine_random_seed": int(seed),
            "reverse_team_processing": bool(seed % 2),
            # Config() starts a scenario (episode_number + 1), and FootballEnv's core
            # resets into it without counting (inc=0).
            "episode_number": int(episode_number) - 1,
        })
        self.env = football_env.FootballEnv(self.config)

    def reset(self, seed: int) -> dict[str, Any]:
        self.config.update({"game_engine_random_seed": int(seed),
                            "reverse_team_processing": bool(seed % 2)})
        self.env.reset()
        return self.observation()

    def observation(self) -> dict[str, Any]:
        return self.env.observation()[0]

    def step(self, action: int) -> tuple[dict[str, Any], float, bool]:
        obs, reward, done, _ = self.env.step([action])
        assert reward.shape == (1,)
        return obs[0], float(reward[0]), bool(done)

    def waiting(self) -> int:
        """The package's count of steps the game has waited in a set piece."""
        return int(self.env._env._env.waiting_for_game_count)

    def close(self) -> None:
        self.env.close()


def smm(observation: dict[str, Any]) -> np.ndarray:
    return observation_preprocessing.generate_smm([observation])[0]


def assert_same(obs: np.ndarray, info: dict[str, Any], i: int, ref: dict[str, Any],
                where: str) -> None:
    np.testing.assert_array_equal(obs[i], smm(ref), err_msg=f"{where}: observation")
    assert info["score"][i].tolist() == list(ref["score"]), where
    for key in INFO_KEYS:
        assert int(info[key][i]) == int(ref[key]), f"{where}: {key}"


def run_aligned(task_id: str, seed: int, steps: int, num_envs: int = 1,
                episodes: int | None = None, idle: float = 0.0,
                waited: list[int] | None = None) -> int:
    """Steps a pool and one reference per env with the same random actions (idle, action
    0, with probability ``idle``); the number of episode ends seen. ``waited`` collects the
    reference's set-piece wait counts after each step."""
    name = task_id.split("/")[1][:-3]
    env = envpool.make_gymnasium(task_id, num_envs=num_envs, seed=seed)
    rng = np.random.default_rng(seed)
    ends = 0
    try:
        obs, info = env.reset()
        refs = [Reference(name, int(info["engine_seed"][i]), int(info["episode_number"][i]))
                for i in range(num_envs)]
        for i, ref in enumerate(refs):
            assert_same(obs, info, i, ref.observation(), f"{task_id} reset env {i}")
        done = np.zeros(num_envs, bool)
        for t in range(steps):
            actions = rng.integers(0, 19, num_envs).astype(np.int32)
            actions[rng.random(num_envs) < idle] = 0
            obs, reward, term, trunc, info = env.step(actions)
            for i, ref in enumerate(refs):
                where = f"{task_id} seed {seed} env {i} step {t}"
                if done[i]:  # the pool's reset (sail-sg EnvPool's: the step after the end)
                    assert int(info["elapsed_step"][i]) == 0, where
                    ref_obs = ref.reset(int(info["engine_seed"][i]))
                    assert int(info["episode_number"][i]) == ref.config["episode_number"], where
                    assert reward[i] == 0 and not term[i] and not trunc[i], where
                else:
                    ref_obs, ref_reward, ref_done = ref.step(int(actions[i]))
                    assert reward[i] == np.float32(ref_reward), where
                    ref_trunc = ref_done and ref_obs["steps_left"] <= 0
                    assert (bool(term[i]), bool(trunc[i])) == (ref_done and not ref_trunc,
                                                               ref_trunc), where
                assert_same(obs, info, i, ref_obs, where)
                if waited is not None:
                    waited.append(ref.waiting())
            done = term | trunc
            ends += int(done.sum())
            if episodes is not None and ends >= episodes:
                break
        for ref in refs:
            ref.close()
    finally:
        env.close()
    return ends


ACADEMY = sorted(t for t in envpool.list_all_envs()
                 if t.startswith("gfootball/") and tasks.SCENARIOS[t[10:-3]] == 400)
LONG = sorted(t for t in envpool.list_all_envs()
              if t.startswith("gfootball/") and tasks.SCENARIOS[t[10:-3]] > 400)


def test_the_engine_was_built() -> None:
    assert _gfootball.missing == ""
    assert tasks.engine_dir()


@pytest.mark.sweep(extra=1)
@pytest.mark.parametrize("task_id", ACADEMY)
def test_academy_scenarios_align_over_episodes(task_id: str) -> None:
    # The academy scenarios end on a goal, on the ball leaving play or on a change of
    # possession: three episodes each, within their 400-step duration.
    assert run_aligned(task_id, seed=3, steps=1300, episodes=3) == 3


@pytest.mark.sweep(extra=1)
@pytest.mark.parametrize("task_id", LONG)
def test_game_scenarios_align(task_id: str) -> None:
    run_aligned(task_id, seed=5, steps=STEPS_LONG)


def test_1_vs_1_easy_runs_to_its_duration_and_swaps_sides() -> None:
    # 500 steps: the time limit (truncated, as the package's done at its duration), the
    # reset into episode 3 (odd: the scenario swaps its two line-ups) and on into it.
    assert run_aligned("gfootball/1_vs_1_easy-v1", seed=11, steps=560) >= 1


def test_a_game_held_in_a_set_piece_is_restarted_as_the_package_does() -> None:
    # An agent that mostly idles holds a set piece: at 20 steps of waiting the package
    # plays a short pass for it, then idles (football_env_core.py). Random actions rarely
    # wait that long; this run does (the reference's count is checked to get there).
    waited: list[int] = []
    run_aligned("gfootball/11_vs_11_stochastic-v1", seed=1, steps=STEPS_IDLE, idle=0.9,
                waited=waited)
    assert max(waited) > 20


def test_several_envs_in_threads_align() -> None:
    # Three envs on two threads: each env's engine is its own (the engine's per-thread
    # context is switched at each call).
    run_aligned("gfootball/academy_counterattack_easy-v1", seed=7, steps=120, num_envs=3)


def test_registry_matches_the_package() -> None:
    from gfootball.env import scenario_builder

    package = sorted(s for s in scenario_builder.all_scenarios() if not s.startswith("test"))
    assert sorted(tasks.SCENARIOS) == package
    with open(os.path.join(tasks.engine_dir(), "scenarios.json")) as f:
        recorded = json.load(f)
    for name, duration in tasks.SCENARIOS.items():
        assert recorded[name]["even"]["values"]["game_duration"] == duration
        spec = envpool.make_spec(f"gfootball/{name}-v1")
        # The scenario's clock is the time limit (the env truncates), not the pool's.
        assert spec.max_episode_steps is None
        assert spec.observation_space.shape == (72, 96, 4)
        assert spec.action_space.n == 19


def rollout(task_id: str, seed: int, steps: int, **kwargs: Any) -> list[np.ndarray]:
    env = envpool.make_gymnasium(task_id, num_envs=4, seed=seed, **kwargs)
    rng = np.random.default_rng(0)
    out = []
    try:
        obs, info = env.reset()
        out += [obs, info["engine_seed"]]
        for _ in range(steps):
            obs, reward, term, trunc, info = env.step(rng.integers(0, 19, 4).astype(np.int32))
            out += [obs, reward, term, trunc, info["score"], info["steps_left"]]
    finally:
        env.close()
    return out


def test_a_run_is_the_same_whatever_the_threads_and_the_engines_reused() -> None:
    # The engines of closed envs are reused by the next ones (as the package does): a pool
    # made after another was closed, on one thread or four, steps exactly as the first.
    task = "gfootball/academy_run_to_score-v1"
    first = rollout(task, seed=21, steps=60, num_threads=1)
    again = rollout(task, seed=21, steps=60, num_threads=4)
    assert len(first) == len(again)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    other = rollout(task, seed=22, steps=0)
    assert not np.array_equal(other[1], first[1])  # another seed, other engine seeds


@pytest.mark.nightly
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("task_id", LONG)
def test_whole_games_nightly(task_id: str) -> None:
    # The long scenarios to the end of their first episode: the whole game (3000 steps, 500
    # for 1_vs_1_easy; the kaggle one changes ends at 1500), or its first goal where the
    # scenario ends on one. Here: 133 s with -n 2.
    assert run_aligned(task_id, seed=13, steps=3100, episodes=1) == 1


def test_oracle_engine_replays_the_envs_episode() -> None:
    """``OracleEngine`` (EnvPool's ``_GfootballOracleEngine``: one engine driven from
    Python) reset with the episode's number and engine seed, stepped until the ball is in
    play after each action as football_env_core.py does, is in the env's state at every
    step: the Super Mini Map drawn from its ``get_info()`` (the package's generate_smm of
    the same positions) equals the observation, and so do the score and the clock."""
    from envpool.gfootball.gfootball_envpool import _GfootballOracleEngine
    from envpool.registration import base_path

    task_id, name = "gfootball/academy_3_vs_1_with_keeper-v1", "academy_3_vs_1_with_keeper"
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=5)
    obs, info = env.reset()
    engine = _GfootballOracleEngine(base_path, 10)
    engine.reset(name, int(info["episode_number"][0]), int(info["engine_seed"][0]), 400)

    def observe() -> dict[str, Any]:
        while True:
            state = engine.get_info()
            if state["is_in_play"]:
                return state
            engine.step()

    def drawn(state: dict[str, Any]) -> np.ndarray:
        active = state["left_controllers"][0]
        return smm({
            "left_team": np.array([p["position"] for p in state["left_team"]]),
            "right_team": np.array([p["position"] for p in state["right_team"]]),
            "ball": np.array(state["ball_position"]),
            "active": active,
        })

    action_set = [int(a._backend_action) for a in football_action_set.get_action_set(
        {"action_set": "default"})]
    rng = np.random.default_rng(1)
    state = observe()
    engine.waiting_for_game_count = 3  # (the package's counter, kept by the caller)
    assert engine.waiting_for_game_count == 3
    engine.waiting_for_game_count = 0
    for _ in range(40):
        np.testing.assert_array_equal(obs[0], drawn(state))
        assert (state["left_goals"], state["right_goals"]) == tuple(info["score"][0])
        assert 400 - state["step"] == info["steps_left"][0]
        action = int(rng.integers(0, 19))
        obs, _, terminated, truncated, info = env.step(np.array([action], np.int32))
        if terminated[0] or truncated[0]:
            break
        engine.action(action_set[action], True, 0)
        engine.step()
        state = observe()
    env.close()
