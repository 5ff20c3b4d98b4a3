"""The SB3 adapter against SB3's VecEnv contract and SB3's own DummyVecEnv.

Learning: PPO on CartPole in the default suite; SAC on Pendulum and PPO on CartPole against
SB3's own DummyVecEnv, seed for seed, in the nightly runs."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("torch")

import gymnasium  # noqa: E402
import torch  # noqa: E402
from stable_baselines3 import PPO, SAC  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env  # noqa: E402
from stable_baselines3.common.evaluation import evaluate_policy  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # noqa: E402
from stable_baselines3.common.vec_env import (  # noqa: E402
    DummyVecEnv,
    VecEnv,
    VecFrameStack,
    VecMonitor,
    VecNormalize,
)

import envpool  # noqa: E402
from envpool.integrations.sb3 import EnvPoolVecEnv, make_vec_env  # noqa: E402

# CartPole's termination bounds (|x| > 2.4 or |theta| > 12 degrees) and reset range.
X_LIMIT, THETA_LIMIT, RESET_RANGE = 2.4, 12 * 2 * np.pi / 360, 0.05


def _reference(task: str, n: int, seed: int, **make_kwargs: object) -> DummyVecEnv:
    venv = DummyVecEnv([lambda: gymnasium.make(task, **make_kwargs) for _ in range(n)])
    venv.seed(seed)
    return venv


def _run(venv: VecEnv, steps: int, policy: np.ndarray) -> list[tuple]:
    """Steps ``venv`` and returns (prev_obs, obs, done, info) per env per step."""
    out = []
    obs = venv.reset()
    for _ in range(steps):
        new_obs, rew, dones, infos = venv.step(policy)
        assert rew.dtype == np.float32 and rew.shape == (venv.num_envs,)
        assert dones.dtype == np.bool_ and dones.shape == (venv.num_envs,)
        assert isinstance(infos, list) and len(infos) == venv.num_envs
        out.extend((obs[i], new_obs[i], bool(dones[i]), infos[i]) for i in range(venv.num_envs))
        obs = new_obs
    return out


def test_is_an_sb3_vecenv_with_the_reference_spaces() -> None:
    ours = make_vec_env("CartPole-v1", n_envs=3, seed=0)
    ref = _reference("CartPole-v1", 3, 0)
    assert isinstance(ours, VecEnv) and isinstance(ours, EnvPoolVecEnv)
    assert ours.num_envs == ref.num_envs == 3
    assert ours.observation_space.shape == ref.observation_space.shape
    assert ours.observation_space.dtype == ref.observation_space.dtype
    np.testing.assert_allclose(ours.observation_space.low, ref.observation_space.low)
    np.testing.assert_allclose(ours.observation_space.high, ref.observation_space.high)
    assert ours.action_space.n == ref.action_space.n
    assert ours.render_mode is None and ref.render_mode is None
    obs = ours.reset()
    assert obs.shape == (3, 4) and obs.dtype == np.float32
    assert np.all(np.abs(obs) <= RESET_RANGE)
    assert ours.reset_infos == [{}, {}, {}]
    ours.close()


@pytest.mark.parametrize("policy", [np.array([1, 1, 0, 1]), np.array([0, 1, 0, 1])])
def test_terminal_observation_contract_matches_dummy_vec_env(policy: np.ndarray) -> None:
    ours = make_vec_env("CartPole-v1", n_envs=4, seed=3)
    ref = _reference("CartPole-v1", 4, 3)
    ours_steps, ref_steps = _run(ours, 200, policy), _run(ref, 200, policy)
    for steps in (ours_steps, ref_steps):
        done_steps = [s for s in steps if s[2]]
        assert len(done_steps) > 10
        for prev, obs, done, info in steps:
            assert isinstance(info["TimeLimit.truncated"], bool)
            if not done:
                assert "terminal_observation" not in info
                assert not info["TimeLimit.truncated"]
                continue
            term = info["terminal_observation"]
            assert term.shape == (4,) and term.dtype == np.float32
            # the finished episode's last obs crossed a bound; obs is a fresh reset
            assert abs(term[0]) > X_LIMIT or abs(term[2]) > THETA_LIMIT
            assert np.all(np.abs(obs) <= RESET_RANGE)
            # the terminal obs follows the previous obs (one small physics step)
            assert np.all(np.abs(term[[0, 2]] - prev[[0, 2]]) < 0.1)
            assert not info["TimeLimit.truncated"]
    # the same info keys on every kind of step
    assert {k for s in ours_steps for k in s[3]} == {k for s in ref_steps for k in s[3]}
    ours.close()


def test_time_limit_truncation_matches_dummy_vec_env() -> None:
    ours = make_vec_env("CartPole-v1", n_envs=2, seed=0, max_episode_steps=7)
    ref = _reference("CartPole-v1", 2, 0, max_episode_steps=7)
    for venv in (ours, ref):
        obs = venv.reset()
        for t in range(1, 22):
            prev = obs
            obs, _, dones, infos = venv.step(np.array([0, 1]))
            expect = t % 7 == 0
            assert dones.tolist() == [expect, expect]
            for i in range(2):
                assert infos[i]["TimeLimit.truncated"] is expect
                if expect:
                    term = infos[i]["terminal_observation"]
                    assert np.all(np.abs(term[[0, 2]] - prev[i][[0, 2]]) < 0.1)
                    assert not np.array_equal(term, obs[i])
                    assert np.all(np.abs(obs[i]) <= RESET_RANGE)
    ours.close()


def test_seed_makes_resets_reproducible() -> None:
    venv = make_vec_env("CartPole-v1", n_envs=3, seed=0)
    assert venv.seed(123) == [123, 124, 125]
    first = venv.reset()
    venv.step(np.zeros(3, dtype=np.int64))
    venv.seed(123)
    np.testing.assert_array_equal(venv.reset(), first)
    other = venv.reset()  # seeds are used once
    assert not np.array_equal(other, first)
    same = make_vec_env("CartPole-v1", n_envs=3, seed=7)
    again = make_vec_env("CartPole-v1", n_envs=3, seed=7)
    np.testing.assert_array_equal(same.reset(), again.reset())
    venv.set_options({"foo": 1})
    with pytest.raises(ValueError, match="reset options"):
        venv.reset()


def test_attr_and_method_access() -> None:
    venv = make_vec_env("CartPole-v1", n_envs=3, seed=0)
    venv.reset()
    assert venv.get_attr("render_mode") == [None, None, None]
    assert [s.id for s in venv.get_attr("spec", indices=[0, 2])] == ["CartPole-v1"] * 2
    assert venv.has_attr("spec") and not venv.has_attr("no_such_attribute")
    venv.set_attr("custom", 5)
    assert venv.get_attr("custom", indices=1) == [5]
    with pytest.raises(ValueError, match="one native pool"):
        venv.set_attr("custom", 6, indices=[0])
    states = venv.env_method("get_state", indices=[0, 2])
    assert len(states) == 2 and states[0] != states[1]
    venv.env_method("set_state", states[0], indices=[1])
    assert venv.env_method("get_state", indices=1) == [states[0]]
    assert venv.env_is_wrapped(Monitor) == [False, False, False]
    with pytest.warns(UserWarning):
        assert venv.render() is None
    ref = _reference("CartPole-v1", 3, 0)
    assert venv.env_is_wrapped(Monitor) == ref.env_is_wrapped(Monitor)
    venv.close()


def test_make_vec_env_refuses_pool_settings() -> None:
    with pytest.raises(TypeError, match="autoreset_mode"):
        make_vec_env("CartPole-v1", n_envs=2, autoreset_mode="next_step")
    with pytest.raises(ValueError, match="same_step"):
        EnvPoolVecEnv(envpool.make_gymnasium("CartPole-v1", num_envs=2))
    with pytest.raises(ValueError, match="sync"):
        EnvPoolVecEnv(envpool.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2,
                                             autoreset_mode="same_step"))


def test_vec_monitor_episode_stats() -> None:
    venv = VecMonitor(make_vec_env("CartPole-v1", n_envs=4, seed=0, max_episode_steps=20))
    venv.reset()
    episodes = []
    for _ in range(60):
        _, _, dones, infos = venv.step(np.array([0, 1, 0, 1]))
        episodes += [(infos[i]["episode"], infos[i]) for i in np.flatnonzero(dones)]
    assert len(episodes) >= 8
    for ep, info in episodes:
        assert ep["l"] >= 1 and ep["l"] <= 20
        assert ep["r"] == pytest.approx(ep["l"])  # CartPole pays 1 per step
        assert info["TimeLimit.truncated"] == (ep["l"] == 20)


def test_vec_normalize_save_and_load(tmp_path) -> None:
    venv = VecNormalize(make_vec_env("CartPole-v1", n_envs=4, seed=0))
    rng = np.random.default_rng(0)
    obs = venv.reset()
    for _ in range(100):
        obs, rew, dones, infos = venv.step(rng.integers(0, 2, 4))
        for i in np.flatnonzero(dones):  # the terminal obs is normalized too
            assert np.all(np.abs(infos[i]["terminal_observation"]) <= venv.clip_obs)
    assert np.all(np.abs(obs) <= venv.clip_obs)
    assert venv.obs_rms.count > 100
    path = tmp_path / "vecnormalize.pkl"
    venv.save(str(path))
    loaded = VecNormalize.load(str(path), make_vec_env("CartPole-v1", n_envs=4, seed=1))
    np.testing.assert_allclose(loaded.obs_rms.mean, venv.obs_rms.mean)
    np.testing.assert_allclose(loaded.obs_rms.var, venv.obs_rms.var)
    raw = np.array([[0.1, 0.2, 0.03, -0.1]], dtype=np.float32)
    np.testing.assert_allclose(loaded.normalize_obs(raw), venv.normalize_obs(raw))
    assert loaded.reset().shape == (4, 4)
    loaded.step(np.zeros(4, dtype=np.int64))


def test_vec_frame_stack() -> None:
    venv = VecFrameStack(make_vec_env("CartPole-v1", n_envs=2, seed=0), n_stack=3)
    obs = venv.reset()
    assert obs.shape == (2, 12)
    np.testing.assert_array_equal(obs[:, :8], 0)
    prev = obs
    for _ in range(80):
        obs, _, dones, infos = venv.step(np.array([1, 0]))
        for i in range(2):
            if dones[i]:
                term = infos[i]["terminal_observation"]
                assert term.shape == (12,)
                np.testing.assert_array_equal(term[:8], prev[i][4:])
                np.testing.assert_array_equal(obs[i][:8], 0)  # the stack restarts
            else:
                np.testing.assert_array_equal(obs[i][:8], prev[i][4:])
        prev = obs


def _ppo(venv: VecEnv, seed: int) -> PPO:
    # rl-zoo's CartPole-v1 hyperparameters
    return PPO("MlpPolicy", venv, n_steps=32, batch_size=256, gae_lambda=0.8, gamma=0.98,
               n_epochs=20, ent_coef=0.0, learning_rate=lambda f: 1e-3 * f,
               clip_range=lambda f: 0.2 * f, seed=seed, device="cpu")


def _ppo_return(make: object, seed: int, steps: int) -> float:
    model = _ppo(VecMonitor(make("CartPole-v1", n_envs=8, seed=seed)), seed)
    model.learn(steps)
    mean, _ = evaluate_policy(model, VecMonitor(make("CartPole-v1", n_envs=4, seed=1000 + seed)),
                              n_eval_episodes=10, deterministic=True)
    return mean


@pytest.mark.nightly
@pytest.mark.timeout(1200)  # per seed: 2 PPO runs of 100k steps (~85 s each alone on 2 cores)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ppo_cartpole_matches_dummy_vec_env(seed: int) -> None:
    torch.set_num_threads(1)
    ours = _ppo_return(make_vec_env, seed, 100_000)
    ref = _ppo_return(sb3_make_vec_env, seed, 100_000)
    assert ours >= 450 and ours >= ref - 50


def _sac_return(make: object, seed: int, steps: int) -> float:
    venv = VecMonitor(make("Pendulum-v1", n_envs=1, seed=seed))
    model = SAC("MlpPolicy", venv, learning_rate=1e-3, learning_starts=500, batch_size=128,
                policy_kwargs={"net_arch": [64, 64]}, seed=seed, device="cpu")
    model.learn(steps)
    mean, _ = evaluate_policy(model, VecMonitor(make("Pendulum-v1", n_envs=4, seed=1000 + seed)),
                              n_eval_episodes=8, deterministic=True)
    return mean


@pytest.mark.nightly
@pytest.mark.timeout(1800)  # per seed: 2 SAC runs of 15k steps (~140 s each alone on 2 cores)
@pytest.mark.parametrize("seed", [0, 1])
def test_sac_pendulum_matches_dummy_vec_env(seed: int) -> None:
    torch.set_num_threads(1)
    ours = _sac_return(make_vec_env, seed, 15_000)
    ref = _sac_return(sb3_make_vec_env, seed, 15_000)
    assert ours >= -250 and ours >= ref - 100
