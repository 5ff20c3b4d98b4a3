"""SB3's HER with SAC on the Fetch tasks, through the SB3 adapter.

``HerReplayBuffer`` relabels stored transitions with new goals and asks the env for their
rewards with ``env.env_method("compute_reward", achieved_goal, desired_goal, infos,
indices=[0])``; the adapter hands that to the pool's ``compute_reward``
(envpool/tasks/robotics.py). The short test checks the relabelled rewards against
gymnasium_robotics' own ``compute_reward``; the other learns FetchReach (10k steps, about
9 minutes on 2 shared cores; success rate of the last 50 episodes at least 0.8). Both run
nightly; the default suite checks ``env_method("compute_reward", ...)`` itself
(tests/test_align_robotics.py).
"""

from __future__ import annotations

import types

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("torch")
pytest.importorskip("gymnasium_robotics")

import torch  # noqa: E402
from gymnasium_robotics.envs.fetch.reach import MujocoFetchReachEnv  # noqa: E402
from stable_baselines3 import SAC, HerReplayBuffer  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor, VecNormalize  # noqa: E402

from envpool.integrations.sb3 import make_vec_env  # noqa: E402


def _her_sac(venv: object, seed: int, **kwargs: object) -> SAC:
    return SAC(
        "MultiInputPolicy",
        venv,
        replay_buffer_class=HerReplayBuffer,
        replay_buffer_kwargs={"n_sampled_goal": 4, "goal_selection_strategy": "future"},
        seed=seed,
        device="cpu",
        **kwargs,
    )


@pytest.mark.nightly  # about 8 s (torch's start and SAC's updates): over the default suite's budget
@pytest.mark.timeout(600)
def test_her_relabels_with_the_pools_compute_reward() -> None:
    """A few SAC updates on HER samples; the sampled (relabelled) rewards are the
    reference's compute_reward of the sampled goals."""
    torch.set_num_threads(1)
    venv = make_vec_env("FetchReach-v4", n_envs=2, seed=0)
    model = _her_sac(venv, 0, learning_starts=110, batch_size=32, policy_kwargs={"net_arch": [16]})
    model.learn(120)
    buffer = model.replay_buffer
    batch = buffer.sample(256)
    achieved = batch.next_observations["achieved_goal"].numpy()
    desired = batch.observations["desired_goal"].numpy()
    # gymnasium_robotics' own compute_reward, on FetchReach's reward settings
    settings = types.SimpleNamespace(reward_type="sparse", distance_threshold=0.05)
    expected = MujocoFetchReachEnv.compute_reward(settings, achieved, desired, {})
    assert np.allclose(batch.rewards.numpy().ravel(), expected, rtol=0, atol=1e-6)
    assert np.array_equal(
        venv.env_method("compute_reward", achieved, desired, [{}] * 256, indices=[0])[0],
        expected,
    )
    venv.close()


@pytest.mark.nightly
@pytest.mark.timeout(2400)
def test_her_sac_learns_fetch_reach() -> None:
    """HER + SAC reaches FetchReach's goals (rl-baselines3-zoo's settings for FetchReach,
    10k steps): the success rate of the last 50 episodes."""
    torch.set_num_threads(1)
    venv = VecMonitor(
        make_vec_env("FetchReach-v4", n_envs=1, seed=0), info_keywords=("is_success",)
    )
    venv = VecNormalize(venv, norm_reward=False)
    model = _her_sac(
        venv,
        0,
        learning_starts=1000,
        batch_size=256,
        learning_rate=1e-3,
        gamma=0.95,
        policy_kwargs={"net_arch": [64, 64], "n_critics": 1},
    )
    model.learn(10_000)
    successes = [info["is_success"] for info in model.ep_info_buffer]
    assert np.mean(successes[-50:]) >= 0.8, np.mean(successes[-50:])
    venv.close()
