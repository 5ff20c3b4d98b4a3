"""The native core's multi-player envs, through its test env ``_Dummy`` (sail-sg
EnvPool's dummy env, ``envpool.dummy.dummy_envpool``).

An env has n = state % (max_num_players - 1) + 1 players at step ``state`` (one with
max_num_players 1); per-player arrays come back as the batch's players one after the
other, with ``players.env_id``; ``raw[:, 2]`` echoes the ``players.action`` each player
slot received, so these tests see which env got which action and in what order.
"""

from __future__ import annotations

import dm_env
import numpy as np
import pytest

import envpool
from envpool.compat.raw_pool import RawEnvPool
from envpool.compat.spec_classes import DummyEnvSpec


def _spec(**config):
    return DummyEnvSpec(DummyEnvSpec.gen_config(**config))


def _state(env, batch):
    return dict(zip(env._state_keys, batch, strict=True))


def _players(env, n, env_ids, player_env_ids, player_actions):
    return (np.asarray(env_ids, np.int32), np.asarray(player_env_ids, np.int32),
            np.zeros((len(env_ids), 6)), np.asarray(player_actions, np.int32),
            np.zeros(len(player_env_ids), np.int32))


def test_spec_names_players_and_container():
    spec = _spec(num_envs=2, max_num_players=4, state_num=7)
    state = dict(zip(spec._state_keys, spec._state_spec, strict=True))
    assert list(state)[:8] == ["info:env_id", "info:players.env_id", "elapsed_step", "done",
                               "reward", "discount", "step_type", "trunc"]
    assert state["obs:raw"][1] == [-1, 7]                 # per player
    assert state["obs:dyn"][1] == ([-1], [-1, 7])         # container: (outer, its values)
    assert state["info:players.id"][1] == [-1]
    assert spec._action_keys == ["env_id", "players.env_id", "list_action", "players.action",
                                 "players.id"]
    assert spec.action_array_spec["list_action"].shape == [6]
    assert spec.action_array_spec["players.action"].shape == [-1]
    # one player's value of each array; a container's values are rows of state_num
    space = spec.observation_space
    assert space["raw"].shape == (7,)
    assert space["dyn"].feature_space.shape == (7,)


def test_players_per_step_observations_and_episode_end():
    env = RawEnvPool(_spec(num_envs=3, max_num_players=4, env_seed=[5, 2, 9]))
    env._reset(np.arange(3, dtype=np.int32))
    state = _state(env, env._recv())
    for step in range(1, 5):
        env._send(_players(env, 3, state["info:env_id"], state["info:players.env_id"],
                           np.arange(len(state["info:players.env_id"])) + 100 * step))
        sent_players = np.bincount(state["info:players.env_id"], minlength=3)
        state = _state(env, env._recv())
        env_id = state["info:env_id"]
        np.testing.assert_array_equal(env_id, [0, 1, 2])
        # env 1 (seed 2) ends at step 2 and resets at step 3 (state 0: one player)
        states = np.array([step, step if step <= 2 else step - 3, step])
        counts = states % 3 + 1
        np.testing.assert_array_equal(state["info:players.env_id"], np.repeat(env_id, counts))
        raw = state["obs:raw"]
        assert raw.shape == (counts.sum(), 10)
        np.testing.assert_array_equal(raw[:, 0], np.repeat(states, counts))
        received = np.where(states == 0, 0, sent_players)  # a reset ignores the action
        np.testing.assert_array_equal(raw[:, 1], np.repeat(received, counts))
        np.testing.assert_array_equal(state["info:players.id"],
                                      np.concatenate([np.arange(c) for c in counts]))
        np.testing.assert_array_equal(state["reward"],
                                      -np.concatenate([np.arange(c) for c in counts]))
        done = np.array([step >= 5, step == 2, step >= 9])
        np.testing.assert_array_equal(state["done"], done)
        np.testing.assert_array_equal(state["info:players.done"], np.repeat(done, counts))
        dyn = state["obs:dyn"]
        assert dyn.dtype == object and dyn.shape == (counts.sum(),)
        for value, e in zip(dyn, np.repeat(env_id, counts), strict=True):
            np.testing.assert_array_equal(value, np.full((e + 1, 10), e, np.int32))


def test_player_actions_reach_their_env_in_order():
    env = RawEnvPool(_spec(num_envs=3, max_num_players=4))
    env._reset(np.arange(3, dtype=np.int32))
    env._recv()
    # interleaved players: env 2 gets 7 then 9, env 0 gets 8; env 1 none
    env._send(_players(env, 3, [0, 1, 2], [2, 0, 2], [7, 8, 9]))
    state = _state(env, env._recv())
    raw, owner = state["obs:raw"], state["info:players.env_id"]
    # at step 1 every env has 2 players: slot i shows the i-th action received, else -1
    np.testing.assert_array_equal(owner, [0, 0, 1, 1, 2, 2])
    np.testing.assert_array_equal(raw[:, 1], [1, 1, 0, 0, 2, 2])
    np.testing.assert_array_equal(raw[:, 2], [8, -1, -1, -1, 7, 9])


def test_bad_player_actions_raise_and_leave_the_pool_usable():
    env = RawEnvPool(_spec(num_envs=2, max_num_players=2))
    env._reset(np.arange(2, dtype=np.int32))
    env._recv()
    with pytest.raises(ValueError, match="players.env_id 5"):
        env._send(_players(env, 2, [0, 1], [0, 5], [1, 2]))
    with pytest.raises(ValueError, match="not one of the env ids sent"):
        env._send(_players(env, 1, [0], [1], [1]))
    with pytest.raises(ValueError, match="more than max_num_players"):
        env._send(_players(env, 2, [0, 1], [0, 0, 0], [1, 2, 3]))
    with pytest.raises(ValueError, match="players.action must have shape"):
        env._send((np.arange(2, dtype=np.int32), np.arange(2, dtype=np.int32), np.zeros((2, 6)),
                   np.zeros((2, 3), np.int32), np.zeros(2, np.int32)))
    with pytest.raises(ValueError, match="action 0.5 .* the integers"):  # int32 values
        env._send((np.arange(2, dtype=np.int32), np.arange(2, dtype=np.int32), np.zeros((2, 6)),
                   np.zeros(2, np.float32) + 0.5, np.zeros(2, np.int32)))
    with pytest.raises(TypeError, match="integers"):
        env._send((np.zeros(2), np.arange(2, dtype=np.int32), np.zeros((2, 6)),
                   np.zeros(2, np.int32), np.zeros(2, np.int32)))
    env._send(_players(env, 2, [0, 1], [1, 0], [4, 3]))  # still usable, nothing was queued
    state = _state(env, env._recv())
    np.testing.assert_array_equal(state["obs:raw"][:, 2], [3, 4])


def test_env_error_in_a_worker_surfaces():
    env = RawEnvPool(_spec(num_envs=2, max_num_players=2))
    env._reset(np.arange(2, dtype=np.int32))
    env._recv()
    actions = np.zeros((2, 6))
    actions[1, 3] = 1.0  # the dummy env refuses unequal list_action values
    env._send((np.arange(2, dtype=np.int32), np.arange(2, dtype=np.int32), actions,
               np.zeros(2, np.int32), np.zeros(2, np.int32)))
    with pytest.raises(ValueError, match="list_action must be equal"):
        env._recv()


def test_async_batches_carry_their_own_players():
    env = RawEnvPool(_spec(num_envs=6, batch_size=2, num_threads=2, max_num_players=3))
    env._reset(np.arange(6, dtype=np.int32))
    for _ in range(30):
        state = _state(env, env._recv())
        env_id, owner = state["info:env_id"], state["info:players.env_id"]
        assert env_id.shape == (2,)
        # each env's players together, in the batch's env order, as many as its state says
        counts = np.array([(owner == e).sum() for e in env_id])
        np.testing.assert_array_equal(owner, np.repeat(env_id, counts))
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        np.testing.assert_array_equal(counts, state["obs:raw"][starts, 0] % 2 + 1)
        for value, e in zip(state["obs:dyn"], owner, strict=True):
            assert value.shape == (e + 1, 10)
        env._send(_players(env, 2, env_id, owner, np.zeros(len(owner))))


def test_same_results_whatever_the_threads():
    def run(threads):
        env = RawEnvPool(_spec(num_envs=8, num_threads=threads, max_num_players=4))
        env._reset(np.arange(8, dtype=np.int32))
        out = []
        state = _state(env, env._recv())
        for step in range(20):
            owner = state["info:players.env_id"]
            env._send(_players(env, 8, state["info:env_id"], owner,
                               (np.arange(len(owner)) * 7 + step) % 11))
            state = _state(env, env._recv())
            out.append((state["obs:raw"].copy(), state["info:players.env_id"].copy(),
                        state["done"].copy()))
        return out

    for a, b in zip(run(1), run(2), strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_from_infers_players_env_id():
    from envpool.flavours.dm_env import DmEnvPool

    pool = DmEnvPool(_spec(num_envs=2, max_num_players=4))

    def action(n, **players):
        return {"env_id": np.array([0, 1], np.int32), "list_action": np.zeros((2, 6)),
                "players": {"id": np.arange(n, dtype=np.int32),
                            "action": np.arange(n, dtype=np.int32), **players}}

    np.testing.assert_array_equal(pool._from(action(2))[1], [0, 1])  # one each
    np.testing.assert_array_equal(pool._from(action(4))[1], [0, 0, 1, 1])  # equal shares
    explicit = np.array([0, 1, 1], np.int32)
    np.testing.assert_array_equal(pool._from(action(3, env_id=explicit))[1], explicit)
    with pytest.raises(RuntimeError, match="Cannot infer players.env_id"):
        pool._from(action(3))
    with pytest.raises(RuntimeError, match="more than max_num_players"):
        pool._from(action(10))
    pool._last_players_env_id = np.array([1, 0, 0, 1, 1], np.int32)  # the last batch's
    np.testing.assert_array_equal(pool._from(action(5))[1], [0, 0, 1, 1, 1])
    with pytest.raises(ValueError, match="unknown"):
        pool._from({**action(2), "bogus": np.zeros(2)})


def test_dm_flavour_timesteps_per_player():
    from envpool.flavours.dm_env import DmEnvPool

    pool = DmEnvPool(_spec(num_envs=2, max_num_players=3, env_seed=[2, 4]))
    ts = pool.reset()
    assert (ts.step_type == dm_env.StepType.FIRST).all()
    np.testing.assert_array_equal(ts.observation.players.env_id, [0, 1])
    for step in (1, 2):
        owner = ts.observation.players.env_id
        ts = pool.step({"list_action": np.zeros((2, 6)),
                        "players": {"action": np.arange(len(owner), dtype=np.int32) + 40,
                                    "id": np.zeros(len(owner), np.int32), "env_id": owner}})
        counts = np.full(2, step % 2 + 1)
        np.testing.assert_array_equal(ts.observation.players.env_id, np.repeat([0, 1], counts))
        np.testing.assert_array_equal(ts.observation.players.id,
                                      np.concatenate([np.arange(c) for c in counts]))
        # reward and discount per player; env 0 (seed 2) ends at step 2
        assert ts.reward.shape == ts.discount.shape == (counts.sum(),)
        np.testing.assert_array_equal(ts.reward, -np.concatenate([np.arange(c) for c in counts]))
        np.testing.assert_array_equal(ts.discount, np.repeat([step < 2, 1.0], counts))
        np.testing.assert_array_equal(ts.step_type, [1 + (step == 2), 1])
        assert ts.observation.raw.shape == (counts.sum(), 10)


def test_refusals():
    from envpool.core.pool import EnvPoolBase
    from envpool.core.spec import EnvSpec
    from envpool.flavours.vector_env import GymnasiumVectorEnv

    spec = _spec(num_envs=2, max_num_players=2)
    with pytest.raises(ValueError, match="multi-player"):
        GymnasiumVectorEnv(spec)
    with pytest.raises(RuntimeError, match="players or container"):
        RawEnvPool(spec)._xla()
    with pytest.raises(ValueError, match="next_step"):
        EnvPoolBase(EnvSpec("_Dummy", max_num_players=2, autoreset_mode="same_step"))
    with pytest.raises(ValueError, match="max_num_players must be 1"):
        envpool.make_gymnasium("CartPole-v1", max_num_players=2)
    assert "_Dummy" not in envpool.list_all_envs()
