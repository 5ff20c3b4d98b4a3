"""sail-sg EnvPool's documented idioms, run unchanged against this package.

Each test is written the way EnvPool's documentation and the scripts that use it
write it (its "Python interface" page, CleanRL's ``*_envpool.py`` scripts): spaces are
read from the env, never hard-coded, so a mismatch in the space contract shows.
"""

from __future__ import annotations

from typing import Any

import dm_env
import gymnasium
import numpy as np
import pytest

import envpool

RNG = np.random.default_rng(0)


def test_first_lines_of_an_envpool_script() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=4)
    assert env.action_space.n == 2  # one env's Discrete(2)
    assert env.observation_space.shape == (4,)
    pong = envpool.make("Pong-v5", env_type="gymnasium", num_envs=2)
    assert pong.observation_space.shape == (4, 84, 84)
    assert pong.action_space.n == 6
    obs, info = pong.reset()
    assert obs.shape == (2, *pong.observation_space.shape)
    assert {"env_id", "elapsed_step", "lives", "reward", "players"} <= set(info)
    for flavour in ("gym", "gymnasium"):
        e = envpool.make("CartPole-v1", env_type=flavour, num_envs=3)
        assert e.num_envs == 3 and e.is_vector_env
        assert e.single_action_space == e.action_space
        assert e.single_observation_space == e.observation_space


def test_spec_and_config() -> None:
    spec = envpool.make_spec("Pong-v5", num_envs=4, episodic_life=True)
    assert spec.config.num_envs == 4 and spec.config.episodic_life is True
    assert spec.config.stack_num == 4 and spec.config.img_height == 84
    assert spec.observation_space.shape == (4, 84, 84) and spec.action_space.n == 6
    env = envpool.make_gymnasium("Pong-v5", num_envs=4, episodic_life=True)
    assert env.spec.config == spec.config
    assert env.config["num_envs"] == 4 and env.config["batch_size"] == 4
    assert np.array_equal(env.all_env_ids, np.arange(4))


def test_sync_step_loop_with_random_actions() -> None:
    env = envpool.make("Pong-v5", env_type="gym", num_envs=3, seed=1)
    obs, info = env.reset()
    assert obs.shape == (3, 4, 84, 84) and obs.dtype == np.uint8
    for _ in range(5):
        action = RNG.integers(env.action_space.n, size=env.num_envs)
        obs, rew, term, trunc, info = env.step(action)
    assert rew.shape == term.shape == trunc.shape == (3,)
    assert np.array_equal(info["env_id"], np.arange(3))


def test_async_send_recv_loop() -> None:
    num_envs, batch_size = 8, 3
    env = envpool.make("CartPole-v1", env_type="gym", num_envs=num_envs, batch_size=batch_size)
    action_num = env.action_space.n
    env.async_reset()  # send the initial reset signal to all envs
    seen: set[int] = set()
    for _ in range(30):
        obs, rew, term, trunc, info = env.recv()
        env_id = info["env_id"]
        assert obs.shape == (batch_size, *env.observation_space.shape)
        seen.update(int(i) for i in env_id)
        action = RNG.integers(action_num, size=batch_size)
        env.send(action, env_id)
    assert seen == set(range(num_envs))


def test_cleanrl_gym_idiom() -> None:
    """CleanRL's ``ppo_atari_envpool.py``: attributes set on the pool, its own wrapper."""
    envs = envpool.make("Breakout-v5", env_type="gym", num_envs=4, episodic_life=True,
                        reward_clip=True, seed=1)
    envs.num_envs = 4
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    assert isinstance(envs.action_space, gymnasium.spaces.Discrete)
    next_obs, _ = envs.reset()
    assert next_obs.shape == (envs.num_envs, *envs.single_observation_space.shape)
    action = np.array([envs.single_action_space.sample() for _ in range(envs.num_envs)])
    next_obs, reward, term, trunc, info = envs.step(action)
    assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}  # reward_clip
    assert "lives" in info and "reward" in info  # CleanRL's episode statistics read these


def test_dm_idiom() -> None:
    env = envpool.make("CartPole-v1", env_type="dm", num_envs=3)
    ts = env.reset()
    assert isinstance(ts, dm_env.TimeStep)
    assert (ts.step_type == dm_env.StepType.FIRST).all() and ts.step_type.dtype == np.int32
    assert ts.observation.obs.shape == (3, 4)
    assert np.array_equal(ts.observation.env_id, np.arange(3))
    action_spec = env.action_spec()
    ts = env.step(RNG.integers(action_spec.num_values, size=3))
    assert (ts.step_type == dm_env.StepType.MID).all() and (ts.discount == 1).all()


@pytest.mark.parametrize("flavour", ["gym", "dm", "gymnasium"])
def test_async_reset_with_seed_reseeds(flavour: str) -> None:
    """``reset(seed=s)`` in async mode reseeds every env (it used to drop the seed in the
    gym and dm flavours), so it matches a pool made with ``seed=s``."""

    def first_rows(env: Any, seed: int | None) -> dict[int, bytes]:
        out = env.reset(seed=seed) if seed is not None else env.reset()
        if flavour == "dm":
            obs, ids = out.observation.obs, out.observation.env_id
        else:
            obs, ids = out[0], out[1]["env_id"]
        rows = {int(i): obs[k].tobytes() for k, i in enumerate(ids)}
        while len(rows) < 6:  # collect every env's reset observation
            out = env.recv()
            if flavour == "dm":
                obs, ids = out.observation.obs, out.observation.env_id
            else:
                obs, ids = out[0], out[4]["env_id"]
            rows.update({int(i): obs[k].tobytes() for k, i in enumerate(ids)})
        return rows

    kw: dict[str, Any] = {"env_type": flavour, "num_envs": 6, "batch_size": 3}
    reseeded = envpool.make("CartPole-v1", seed=0, **kw)
    first_rows(reseeded, None)
    got = first_rows(reseeded, 123)
    want = first_rows(envpool.make("CartPole-v1", seed=123, **kw), None)
    assert got == want


def test_a_spec_gives_the_dm_pools_specs() -> None:
    # EnvPool scripts read the dm specs off make_spec(...) before making a pool
    spec = envpool.make_spec("D1Basic-v1", use_combined_action=True)
    action_spec = spec.action_spec()
    assert isinstance(action_spec, dm_env.specs.DiscreteArray) and action_spec.num_values == 6
    for task_id in ("Pong-v5", "CheetahRun-v1", "CartPole-v1"):
        spec = envpool.make_spec(task_id, num_envs=2)
        env = envpool.make_dm(task_id, num_envs=2)
        try:
            assert spec.action_spec() == env.action_spec()
            assert spec.observation_spec()._fields == env.observation_spec()._fields
            for a, b in zip(spec.observation_spec(), env.observation_spec(), strict=True):
                assert (a.shape, a.dtype, a.name) == (b.shape, b.dtype, b.name)
        finally:
            env.close()


@pytest.mark.parametrize("flavour", ["gym", "gymnasium"])
def test_pools_are_gymnasium_envs_and_vector_envs(flavour: str) -> None:
    # as EnvPool's own tests check: isinstance(env, gymnasium.Env), gymnasium's vector
    # wrappers over the pool, len() telling frameworks it is many envs
    env = envpool.make("CartPole-v1", env_type=flavour, num_envs=4, seed=0)
    try:
        assert isinstance(env, gymnasium.Env) and isinstance(env, gymnasium.vector.VectorEnv)
        assert len(env) == 4 and env.single_observation_space is env.observation_space
        wrapped = gymnasium.wrappers.vector.NormalizeObservation(env)
        obs, _ = wrapped.reset(seed=1)
        assert obs.shape == (4, 4)
        obs, reward, *_ = wrapped.step(np.zeros(4, dtype=np.int64))
        assert obs.shape == (4, 4) and reward.shape == (4,)
    finally:
        env.close()
