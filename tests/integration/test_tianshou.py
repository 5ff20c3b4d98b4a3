"""The Tianshou adapter, and Tianshou's own EnvPoolFactory path, with this package.

Learning: DQN on CartPole against Tianshou's DummyVectorEnv, seed for seed, in the nightly
runs (the default suite runs the DQN example, tests/integration/test_examples.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("tianshou")
pytest.importorskip("torch")

import gymnasium  # noqa: E402
import torch  # noqa: E402
from tianshou.algorithm import DQN  # noqa: E402
from tianshou.algorithm.algorithm_base import RandomActionPolicy  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import BaseVectorEnv, DummyVectorEnv  # noqa: E402
from tianshou.highlevel.env import (  # noqa: E402
    EnvFactoryRegistered,
    EnvMode,
    EnvPoolFactory,
    VectorEnvType,  # noqa: E402
)
from tianshou.trainer import OffPolicyTrainerParams  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402

from envpool.integrations.tianshou import (  # noqa: E402
    EnvPoolAdapterFactory,
    TianshouVectorEnv,
    make_tianshou_env,
)


def test_vector_env_surface_matches_dummy_vector_env() -> None:
    ours = make_tianshou_env("CartPole-v1", num_envs=4, seed=0)
    ref = DummyVectorEnv([lambda: gymnasium.make("CartPole-v1") for _ in range(4)])
    assert isinstance(ours, BaseVectorEnv) and len(ours) == len(ref) == 4
    assert not ours.is_async
    for key in ("action_space", "observation_space"):
        a, b = getattr(ours, key), getattr(ref, key)
        assert len(a) == len(b) == 4
        assert a[0].shape == b[0].shape and type(a[0]) is type(b[0])
    assert [s.id for s in ours.spec] == ["CartPole-v1"] * 4
    obs, infos = ours.reset()
    ref_obs, ref_infos = ref.reset()
    assert obs.shape == ref_obs.shape == (4, 4)
    assert infos.dtype == object and infos.shape == ref_infos.shape == (4,)
    assert [i["env_id"] for i in infos] == [0, 1, 2, 3]
    obs, rew, term, trunc, infos = ours.step(np.array([1, 0]), id=[3, 1])
    robs, rrew, rterm, rtrunc, rinfos = ref.step(np.array([1, 0]), id=[3, 1])
    for a, b in ((obs, robs), (rew, rrew), (term, rterm), (trunc, rtrunc), (infos, rinfos)):
        assert a.shape == b.shape
    assert [i["env_id"] for i in infos] == [i["env_id"] for i in rinfos] == [3, 1]
    assert rew.tolist() == [1.0, 1.0]
    obs, infos = ours.reset(env_id=[2])
    assert obs.shape == (1, 4) and infos[0]["env_id"] == 2
    assert ours.get_env_attr("render_mode", id=[0, 1]) == [None, None]
    with pytest.raises(ValueError, match="one native pool"):
        ours.set_env_attr("custom", 1, id=0)
    ours.close()
    ours.close()
    with pytest.raises(AssertionError, match="after close"):
        ours.reset()


def test_seed_reproduces_episodes() -> None:
    def rollout(venv: TianshouVectorEnv) -> np.ndarray:
        venv.seed(5)
        out = [venv.reset()[0]]
        for _ in range(5):
            out.append(venv.step(np.zeros(3, dtype=np.int64))[0])
        return np.stack(out)

    a = make_tianshou_env("CartPole-v1", num_envs=3, seed=0)
    b = make_tianshou_env("CartPole-v1", num_envs=3, seed=99)
    np.testing.assert_array_equal(rollout(a), rollout(b))
    assert a.seed(1) == [[1], [2], [3]]


def test_done_envs_must_be_reset_by_the_caller() -> None:
    venv = make_tianshou_env("CartPole-v1", num_envs=1, seed=0, max_episode_steps=3)
    venv.reset()
    for _ in range(2):
        assert not venv.step(np.array([0]))[3][0]
    _, _, term, trunc, _ = venv.step(np.array([0]))
    assert trunc[0] and not term[0]
    with pytest.raises(ValueError, match="reset"):
        venv.step(np.array([0]))
    venv.reset(env_id=[0])
    _, _, _, _, infos = venv.step(np.array([0]))
    assert infos[0]["elapsed_step"] == 1


def _one_env_space(venv: Any, key: str) -> gymnasium.Space:
    """One env's space, as a Tianshou user reads it: Tianshou's vector envs list one space
    per env; an EnvPool pool (Tianshou's EnvPoolFactory) has one env's space itself."""
    space = getattr(venv, key)
    return space[0] if isinstance(space, list) else space


def _random_collect(venv: BaseVectorEnv, n_episode: int) -> CollectStats:
    obs_space = _one_env_space(venv, "observation_space")
    act_space = _one_env_space(venv, "action_space")
    policy = DiscreteQLearningPolicy(
        model=Net(state_shape=obs_space.shape, action_shape=int(act_space.n), hidden_sizes=[16]),
        action_space=act_space,
    )
    collector = Collector[CollectStats](policy, venv, VectorReplayBuffer(5000, len(venv)))
    collector.reset()
    return collector.collect(n_episode=n_episode, random=True)


def test_tianshou_envpool_factory_with_policies_from_the_venvs_space() -> None:
    """Tianshou's own EnvPoolFactory (``envpool.make_gymnasium``) with policies built from
    ``venv.action_space``, as Tianshou's high-level API builds them: one env's space."""
    venv = EnvPoolFactory().create_venv("Pendulum-v1", 4, EnvMode.TRAINING, 3, {})
    collector = Collector[CollectStats](RandomActionPolicy(venv.action_space), venv,
                                        VectorReplayBuffer(2000, 4))
    collector.reset()
    stats = collector.collect(n_step=1000)
    assert stats.n_collected_steps >= 1000 and stats.n_collected_episodes >= 4  # 200 steps
    assert -1800 <= stats.returns_stat.mean <= -600  # random Pendulum returns
    # Collector(random=True) samples one env's Box per env (it used to get a batched one)
    stats = collector.collect(n_step=400, random=True)
    assert stats.n_collected_steps >= 400 and np.abs(collector.buffer.act).max() <= 2.0
    # Discrete: RandomActionPolicy accepts the space (it refused a batched MultiDiscrete);
    # Tianshou 2.0.1's random actor then emits float actions, which gymnasium's own
    # CartPole in Tianshou's DummyVectorEnv refuses too, so collect with a Q-policy.
    venv = EnvPoolFactory().create_venv("CartPole-v1", 4, EnvMode.TRAINING, 3, {})
    RandomActionPolicy(venv.action_space)
    space = venv.action_space
    policy = DiscreteQLearningPolicy(
        model=Net(state_shape=venv.observation_space.shape, action_shape=int(space.n),
                  hidden_sizes=[16]),
        action_space=space, eps_training=1.0)
    policy.is_within_training_step = True  # epsilon-greedy with eps 1: random play
    collector = Collector[CollectStats](policy, venv, VectorReplayBuffer(2000, 4))
    collector.reset()
    stats = collector.collect(n_step=1000)
    assert stats.n_collected_steps >= 1000 and stats.n_collected_episodes >= 10
    assert 8 <= stats.returns_stat.mean <= 100  # random CartPole play: about 22


@pytest.mark.parametrize("factory", ["adapter", "tianshou_envpool_factory"])
def test_collector_collects_whole_episodes(factory: str) -> None:
    if factory == "adapter":
        venv: BaseVectorEnv = make_tianshou_env("CartPole-v1", num_envs=4, seed=0)
    else:  # Tianshou's own path: envpool.make_gymnasium through EnvPoolFactory
        venv = EnvPoolFactory().create_venv("CartPole-v1", 4, EnvMode.TRAINING, 0, {})
    stats = _random_collect(venv, n_episode=20)
    assert stats.n_collected_episodes >= 20
    lens = np.asarray(stats.lens)
    rets = np.asarray(stats.returns)
    np.testing.assert_allclose(rets, lens)  # CartPole pays 1 per step
    assert lens.min() >= 8 and lens.mean() < 60  # random-policy episodes
    assert stats.n_collected_steps == lens.sum()


def test_high_level_env_factory_makes_adapter_envs() -> None:
    factory = EnvFactoryRegistered(task="CartPole-v1", venv_type=VectorEnvType.DUMMY,
                                   envpool_factory=EnvPoolAdapterFactory())
    envs = factory.create_envs(num_training_envs=3, num_test_envs=2, create_watch_env=False)
    assert isinstance(envs.training_envs, TianshouVectorEnv) and len(envs.training_envs) == 3
    assert isinstance(envs.test_envs, TianshouVectorEnv) and len(envs.test_envs) == 2
    assert envs.get_action_shape() == 2
    stats = _random_collect(envs.training_envs, n_episode=6)
    assert stats.n_collected_episodes >= 6


def _train_dqn(train_envs: BaseVectorEnv, test_envs: BaseVectorEnv, seed: int,
               epochs: int) -> tuple[float, float]:
    """Trains DQN; returns the best test return during training and a final 10-episode one."""
    torch.manual_seed(seed)
    np.random.seed(seed)  # noqa: NPY002  (Tianshou's exploration and buffer sampling use it)
    obs_space = _one_env_space(train_envs, "observation_space")
    act_space = _one_env_space(train_envs, "action_space")
    net = Net(state_shape=obs_space.shape, action_shape=int(act_space.n), hidden_sizes=[64, 64])
    policy = DiscreteQLearningPolicy(model=net, action_space=act_space, eps_training=0.1,
                                     eps_inference=0.0)
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.9,
                    n_step_return_horizon=3, target_update_freq=320)
    buffer = VectorReplayBuffer(20_000, len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer,
                                              exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=64 * len(train_envs))

    def training_fn(epoch: int, env_step: int) -> None:
        policy.set_eps_training(max(0.1 - 0.09 * env_step / 10_000, 0.01))

    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, test_collector=test_collector, max_epochs=epochs,
        epoch_num_steps=5_000, collection_step_num_env_steps=16, test_step_num_episodes=10,
        batch_size=64, update_step_num_gradient_steps_per_sample=0.1, training_fn=training_fn,
        stop_fn=lambda mean: mean >= 195, test_in_training=False, verbose=False,
        show_progress=False))
    test_collector.reset()
    stats = test_collector.collect(n_episode=10)
    return float(result.best_reward), float(np.mean(stats.returns))


def _dummy(n: int, seed: int) -> DummyVectorEnv:
    """Tianshou's own vector env of n gymnasium CartPole-v1 envs, seeded seed + i."""
    venv = DummyVectorEnv([lambda: gymnasium.make("CartPole-v1") for _ in range(n)])
    venv.seed(seed)
    return venv


def permutation_p(a: np.ndarray, b: np.ndarray, rounds: int = 100_000) -> float:
    """Two-sided p-value of |mean(a) - mean(b)| under random relabelling of a and b."""
    rng = np.random.default_rng(0)
    pooled = np.concatenate([a, b])
    observed = abs(a.mean() - b.mean())
    perms = np.array([rng.permutation(pooled) for _ in range(rounds)])
    diffs = np.abs(perms[:, :len(a)].mean(axis=1) - perms[:, len(a):].mean(axis=1))
    return float((np.sum(diffs >= observed - 1e-12) + 1) / (rounds + 1))


def test_permutation_p() -> None:
    same = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    assert permutation_p(same, same, 2000) == 1.0
    # fully separated groups of 5: the exact two-sided p is 2 / C(10, 5) = 0.0079
    assert permutation_p(same + 10, same, 20_000) == pytest.approx(2 / 252, abs=0.003)


@pytest.mark.nightly
@pytest.mark.timeout(3600)
def test_dqn_cartpole_matches_dummy_vector_env() -> None:
    """DQN through the adapter learns like DQN through Tianshou's DummyVectorEnv.

    Two runs with one seed are two independent draws (the envs' random streams differ),
    and one run's best test return varies by about +-90 across seeds, so a per-seed
    comparison fails by chance in either direction (issue 18: over 10 seeds, ours beat
    the reference by more than 30 on 4 seeds and lost by more than 30 on 4). The
    distributions over 10 fixed seeds are compared instead: both learn (mean best test
    return >= 150; random play: about 22), their means do not differ significantly
    (permutation test, p > 0.05; measured 0.51), and the adapter reaches the stop
    return (195) in nearly as many seeds. ``scripts/tianshou_dqn_seeds.py`` prints the
    per-seed table.
    """
    torch.set_num_threads(1)
    seeds = range(10)
    ours = np.array([_train_dqn(make_tianshou_env("CartPole-v1", num_envs=8, seed=s),
                                make_tianshou_env("CartPole-v1", num_envs=4, seed=100 + s),
                                s, 10)[0] for s in seeds])
    ref = np.array([_train_dqn(_dummy(8, s), _dummy(4, s), s, 10)[0] for s in seeds])
    assert ref.mean() >= 150 and ours.mean() >= 150, (ours, ref)
    assert permutation_p(ours, ref) > 0.05, (ours, ref)
    assert (ours >= 195).sum() >= (ref >= 195).sum() - 2, (ours, ref)
