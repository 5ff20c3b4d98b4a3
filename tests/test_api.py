"""The public API: ids, keywords, spaces, flavours and gymnasium conformance."""

from __future__ import annotations

import dm_env
import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envpool
from envpool.core.registry import get_task


def test_registry_lists_ids_and_rejects_unknown_ones() -> None:
    ids = envpool.list_all_envs()
    assert {"CartPole-v0", "CartPole-v1"} <= set(ids)
    with pytest.raises(ValueError, match="CartPole-v1"):  # names the close match
        envpool.make("CartPole-v2")
    with pytest.raises(ValueError, match="already registered"):
        envpool.register("CartPole-v1", "CartPole")
    with pytest.raises(ValueError, match="unknown native env"):
        envpool.register("Nope-v0", "Nope")


def test_unknown_and_mistyped_keywords_name_the_valid_ones() -> None:
    with pytest.raises(TypeError, match="num_envs.*sutton_barto_reward|sutton_barto_reward.*num"):
        envpool.make("CartPole-v1", num_env=2)
    with pytest.raises(TypeError, match="must be a bool"):
        envpool.make("CartPole-v1", sutton_barto_reward=1)
    with pytest.raises(TypeError, match="num_envs must be an int"):
        envpool.make("CartPole-v1", num_envs=2.0)
    with pytest.raises(ValueError, match="env_type"):
        envpool.make("CartPole-v1", env_type="gymnax")
    with pytest.raises(ValueError, match="batch_size"):
        envpool.make("CartPole-v1", num_envs=2, batch_size=3)
    with pytest.raises(ValueError, match="num_envs"):
        envpool.make("CartPole-v1", num_envs=0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        envpool.make("CartPole-v1", autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="seed"):
        envpool.make("CartPole-v1", num_envs=3, seed=[1, 2])
    with pytest.raises(ValueError, match="render_mode must be None, 'rgb_array', 'human'"):
        envpool.make("CartPole-v1", render_mode="window")
    human = envpool.make("NChain-v0", render_mode="human")  # (made: render() refuses)
    human.reset()
    with pytest.raises(ValueError, match="does not render yet"):
        human.render()
    human.close()


def test_spec_config_and_limits() -> None:
    spec = envpool.make_spec("CartPole-v0", num_envs=3)
    assert spec.config.num_envs == 3 and spec.config.batch_size == 3
    assert spec.config.max_episode_steps == 200 and spec.max_episode_steps == 200
    assert spec.reward_threshold == 195.0 and spec.id == "CartPole-v0"
    assert spec.config.seed == 42 and spec.seeds == [42, 43, 44]
    assert envpool.make_spec("CartPole-v1", max_episode_steps=7).config.max_episode_steps == 7
    ref = gymnasium.make("CartPole-v1")
    assert spec.observation_space == ref.observation_space
    assert spec.action_space == ref.action_space


def test_gymnasium_flavour_keeps_envpools_space_contract() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0)
    ref = gymnasium.make("CartPole-v1")
    assert isinstance(env, gymnasium.vector.VectorEnv) and env.is_vector_env
    assert env.num_envs == 4 and len(env) == 4
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    # EnvPool: observation_space / action_space describe ONE env, as single_* do
    assert env.observation_space == env.single_observation_space == ref.observation_space
    assert env.action_space == env.single_action_space == ref.action_space
    obs, info = env.reset()
    assert obs.shape == (4, *env.observation_space.shape)
    assert all(env.observation_space.contains(o) for o in obs)
    assert np.array_equal(info["env_id"], np.arange(4))
    for _ in range(20):
        actions = np.array([env.action_space.sample() for _ in range(4)])
        obs, rew, term, trunc, info = env.step(actions)
        assert all(env.observation_space.contains(o) for o in obs)
        assert rew.shape == (4,) and term.dtype == np.bool_ and trunc.dtype == np.bool_
    env.close()
    assert env.closed


def test_make_vec_gives_gymnasiums_batched_spaces() -> None:
    env = gymnasium.make_vec("envpool/CartPole-v1", num_envs=4, seed=0)
    ref = gymnasium.make_vec("CartPole-v1", num_envs=4, vectorization_mode="sync")
    assert isinstance(env, gymnasium.vector.VectorEnv) and env.num_envs == 4
    assert env.observation_space == ref.observation_space  # Box (4, 4)
    assert env.action_space == ref.action_space  # MultiDiscrete([2 2 2 2])
    assert env.single_observation_space == ref.single_observation_space
    assert env.single_action_space == ref.single_action_space
    assert env.spec.id == "envpool/CartPole-v1" and env.spec.max_episode_steps == 500
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    for _ in range(20):
        obs, *_ = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs)
    with pytest.raises(ValueError, match="batch_size"):
        gymnasium.make_vec("envpool/CartPole-v1", num_envs=4, batch_size=2)
    env.close()


def test_reset_seed_reseeds() -> None:
    env = envpool.make_gymnasium("CartPole-v1", num_envs=3, seed=0)
    a, _ = env.reset(seed=5)
    b, _ = env.reset()
    c, _ = env.reset(seed=5)
    d, _ = env.reset(seed=[5, 6, 7])
    assert np.array_equal(a, c) and not np.array_equal(a, b)
    assert np.array_equal(a, d)  # seed=5 means env i gets 5 + i
    fresh = envpool.make_gymnasium("CartPole-v1", num_envs=3, seed=5)
    assert np.array_equal(fresh.reset()[0], a)  # make(seed=s) == reset(seed=s)
    assert not np.array_equal(a[0], a[1])  # envs get different seeds


def test_dm_flavour_step_types_and_discounts() -> None:
    env = envpool.make_dm("Faulty-v0", num_envs=2, episode_length=3, max_episode_steps=0)
    assert isinstance(env, dm_env.Environment)
    ts = env.reset()
    assert (ts.step_type == dm_env.StepType.FIRST).all()
    types, discounts = [], []
    for _ in range(5):
        ts = env.step(np.ones(2, np.int32))
        types.append(int(ts.step_type[0]))
        discounts.append(float(ts.discount[0]))
    F, M, L = (int(t) for t in (dm_env.StepType.FIRST, dm_env.StepType.MID, dm_env.StepType.LAST))
    assert types == [M, M, L, F, M]
    assert discounts == [1.0, 1.0, 0.0, 1.0, 1.0]  # 0 on termination
    assert env.action_spec().num_values == 3
    assert ts.observation.obs.shape == (2, 2) and set(ts.observation.env_id) == {0, 1}
    # Truncation keeps discount 1.
    env = envpool.make_dm("Faulty-v0", num_envs=1, episode_length=100, max_episode_steps=2)
    env.reset()
    env.step(np.zeros(1, np.int32))
    ts = env.step(np.zeros(1, np.int32))
    assert ts.step_type[0] == dm_env.StepType.LAST and ts.discount[0] == 1.0


def test_gym_flavour() -> None:
    env = envpool.make_gym("CartPole-v1", num_envs=2)
    obs, info = env.reset()
    assert obs.shape == (2, 4) and "env_id" in info
    obs, rew, term, trunc, info = env.step(np.zeros(2, np.int32))
    assert rew.shape == (2,)
    env = envpool.make_gym("CartPole-v1", num_envs=2, gym_reset_return_info=False)
    assert env.reset().shape == (2, 4)
    with pytest.raises(TypeError, match="autoreset_mode"):
        envpool.make("CartPole-v1", env_type="gym", autoreset_mode="same_step")


def test_atari_ids_are_ale_pys_single_player_games() -> None:
    ale_py = pytest.importorskip("ale_py")
    gymnasium.register_envs(ale_py)
    ale_ids = {k.split("/")[1] for k in gymnasium.envs.registry
               if k.startswith("ALE/") and k.endswith("-v5")}
    ours = {t for t in envpool.list_all_envs() if get_task(t).native_env == "Atari"}
    # EnvPool 1.2.5 has the same 104 games; its spelling of one id is kept beside ale-py's
    assert ours - {"TicTacToe3d-v5"} == ale_ids and len(ale_ids) == 104
    assert "TicTacToe3d-v5" in ours and "TicTacToe3D-v5" in ale_ids


def test_flags_take_envpools_float_spelling() -> None:
    """A flag keyword takes True / False and sail-sg EnvPool's 0.0 / 1.0 (its configs pass
    flags as floats: push_enable=0.0); ints and other numbers are refused."""
    assert envpool.make_spec("CartPole-v1", sutton_barto_reward=1.0).config.sutton_barto_reward
    assert not envpool.make_spec("CartPole-v1", sutton_barto_reward=np.float32(0.0)) \
        .config.sutton_barto_reward
    for bad in (0.5, float("nan"), 2.0, 1):
        with pytest.raises(TypeError, match="must be a bool"):
            envpool.make_spec("CartPole-v1", sutton_barto_reward=bad)
