"""Stepping an env that was never reset (docs/api.md, "Stepping before reset").

EnvPool's flavours (``make``, ``make_gym``, ``make_gymnasium``, ``make_dm``) and the adapters
built on them follow sail-sg EnvPool: the first step of a never-reset env is its reset (the
action is ignored, the step returns the reset observation, ``elapsed_step`` 0, reward 0, and
in the dm flavour a FIRST step), as dm_env also specifies. The strict gymnasium envs
(``gymnasium.make_vec("envpool/<id>")``, ``gymnasium.make("envpool/<id>")``) raise
gymnasium's ``ResetNeeded``, as gymnasium's own envs do. Before this was defined, such a step
stepped the env from an all-zero state and returned it as a trajectory, the same for every
seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

TASK = "CartPole-v1"
FLAVOURS: dict[str, Callable[..., Any]] = {
    "gym": envpool.make_gym,
    "gymnasium": envpool.make_gymnasium,
    "dm": envpool.make_dm,
}


def _obs_reward_elapsed(flavour: str, out: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if flavour == "dm":
        return out.observation.obs, out.reward, out.observation.elapsed_step
    obs, reward, _, _, info = out
    return obs, reward, info["elapsed_step"]


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_first_step_of_a_new_pool_is_its_reset(flavour: str) -> None:
    make = FLAVOURS[flavour]
    firsts = []
    for seed in (0, 1):
        pool = make(TASK, num_envs=2, seed=seed)
        out = pool.step(np.array([0, 1]))
        obs, reward, elapsed = _obs_reward_elapsed(flavour, out)
        reference = make(TASK, num_envs=2, seed=seed)
        ref = reference.reset()
        ref_obs = ref.observation.obs if flavour == "dm" else ref[0]
        np.testing.assert_array_equal(obs, ref_obs)
        np.testing.assert_array_equal(reward, [0, 0])
        np.testing.assert_array_equal(elapsed, [0, 0])
        if flavour == "dm":
            np.testing.assert_array_equal(out.step_type, [0, 0])  # FIRST
        else:
            assert not (out[2] | out[3]).any()  # neither terminated nor truncated
        # the envs go on from there: the next step is a step of the reset envs
        obs2, _, elapsed2 = _obs_reward_elapsed(flavour, pool.step(np.array([0, 1])))
        ref_obs2, _, _ = _obs_reward_elapsed(flavour, reference.step(np.array([0, 1])))
        np.testing.assert_array_equal(elapsed2, [1, 1])
        np.testing.assert_array_equal(obs2, ref_obs2)
        firsts.append(np.array(obs))
        pool.close()
        reference.close()
    assert not np.array_equal(firsts[0], firsts[1])  # the seed matters
    assert np.abs(firsts[0]).max() < 0.05  # CartPole's reset draws from U(-0.05, 0.05)


def test_async_send_to_new_envs_resets_them() -> None:
    pool = envpool.make_gymnasium(TASK, num_envs=4, batch_size=2, seed=3)
    reference = envpool.make_gymnasium(TASK, num_envs=4, seed=3)
    ref_obs, _ = reference.reset()
    pool.send(np.zeros(4, np.int64), np.arange(4))
    seen = []
    for _ in range(2):
        obs, reward, terminated, truncated, info = pool.recv()
        np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
        np.testing.assert_array_equal(obs, ref_obs[info["env_id"]])
        seen += info["env_id"].tolist()
    assert sorted(seen) == [0, 1, 2, 3]
    pool.close()


def test_only_the_envs_never_reset_are_reset() -> None:
    """After a reset of env 0 alone, a step of both steps env 0 and resets env 1."""
    pool = envpool.make_gymnasium(TASK, num_envs=2, seed=5)
    pool.reset(np.array([0]))
    obs, _, _, _, info = pool.step(np.array([1, 1]))
    np.testing.assert_array_equal(info["env_id"], [0, 1])
    np.testing.assert_array_equal(info["elapsed_step"], [1, 0])
    reference = envpool.make_gymnasium(TASK, num_envs=2, seed=5)
    np.testing.assert_array_equal(obs[1], reference.reset()[0][1])
    pool.close()
    reference.close()


def test_set_state_starts_an_env() -> None:
    """An env given a state steps from it: its first step is a step, not a reset."""
    pool = envpool.make_gymnasium(TASK, num_envs=1, seed=0)
    pool.set_state(0, [0.01, 0.0, 0.02, 0.0])
    obs, _, _, _, info = pool.step(np.array([1]))
    assert info["elapsed_step"][0] == 1
    reference = gymnasium.make(TASK).unwrapped
    reference.reset()
    reference.state = np.array([0.01, 0.0, 0.02, 0.0])
    ref_obs, *_ = reference.step(1)
    np.testing.assert_array_equal(obs[0], ref_obs)
    pool.close()


@pytest.mark.parametrize("autoreset_mode", ["next_step", "same_step", "disabled"])
def test_strict_vector_env_raises_reset_needed(autoreset_mode: str) -> None:
    envs = gymnasium.make_vec(f"envpool/{TASK}", num_envs=2, autoreset_mode=autoreset_mode)
    with pytest.raises(gymnasium.error.ResetNeeded, match="call reset"):
        envs.step(np.array([0, 1]))
    envs.reset(seed=0)  # the refused step left nothing in flight
    _, _, _, _, info = envs.step(np.array([0, 1]))
    np.testing.assert_array_equal(info["elapsed_step"], [1, 1])
    envs.close()


def test_strict_single_env_raises_reset_needed() -> None:
    env = gymnasium.make(f"envpool/{TASK}")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    env.step(0)
    env.close()
    # under gymnasium's own order check too: the native pool refuses by itself
    raw = env.unwrapped
    raw_env = type(raw)(envpool.make_spec(TASK))
    with pytest.raises(gymnasium.error.ResetNeeded, match="call reset"):
        raw_env.step(0)
    raw_env.close()


# -- the adapters, each stepped before any reset ------------------------------------------
def test_sb3_adapter_first_step_is_the_reset() -> None:
    sb3 = pytest.importorskip("envpool.integrations.sb3")
    venv = sb3.make_vec_env(TASK, n_envs=2, seed=7)
    venv.step_async(np.array([0, 1]))
    obs, reward, dones, _ = venv.step_wait()
    np.testing.assert_array_equal(obs, sb3.make_vec_env(TASK, n_envs=2, seed=7).reset())
    np.testing.assert_array_equal(reward, [0, 0])
    assert not dones.any()
    venv.close()


def test_tianshou_adapter_first_step_is_the_reset() -> None:
    ts = pytest.importorskip("envpool.integrations.tianshou")
    venv = ts.make_tianshou_env(TASK, num_envs=2, seed=7)
    obs, reward, terminated, truncated, info = venv.step(np.array([0, 1]))
    np.testing.assert_array_equal(obs, ts.make_tianshou_env(TASK, num_envs=2, seed=7).reset()[0])
    assert [i["elapsed_step"] for i in info] == [0, 0]
    assert not (terminated | truncated).any()
    venv.close()


def test_rl_games_adapter_first_step_is_the_reset() -> None:
    rl = pytest.importorskip("envpool.integrations.rl_games")
    env = rl.RlGamesVecEnv("", 2, env_name=TASK, seed=7)
    obs, reward, dones, _ = env.step(np.array([0, 1]))
    np.testing.assert_array_equal(obs, rl.RlGamesVecEnv("", 2, env_name=TASK, seed=7).reset())
    assert not dones.any()
    env.close()


def test_acme_adapters_first_step_is_first() -> None:
    acme = pytest.importorskip("envpool.integrations.acme")
    env = acme.make_dm_env(TASK, seed=7)
    ts = env.step(np.int64(0))
    assert ts.first() and ts.reward is None
    np.testing.assert_array_equal(ts.observation, acme.make_dm_env(TASK, seed=7).reset()
                                  .observation)
    batched = acme.make_batched_dm_env(TASK, num_envs=2, seed=7)
    bts = batched.step(np.array([0, 1]))
    np.testing.assert_array_equal(bts.step_type, [0, 0])
    env.close()
    batched.close()


def test_cleanrl_episode_statistics_count_no_step_for_the_reset() -> None:
    from envpool.integrations.cleanrl import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(envpool.make_gymnasium(TASK, num_envs=2, seed=7))
    envs.step(np.array([0, 1]))  # the reset
    np.testing.assert_array_equal(envs.episode_lengths, [0, 0])
    envs.step(np.array([0, 1]))
    np.testing.assert_array_equal(envs.episode_lengths, [1, 1])
    envs.close()
