"""CartPole-v0/v1 against gymnasium's CartPoleEnv, step by step.

Our env's state is copied into the reference at every reset (the two draw
initial states from different generators); then both are stepped with the
same actions. The arithmetic is the same, in the same order, in double
precision, so observations must match bitwise."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envpool


@pytest.mark.parametrize("task_id", ["CartPole-v0", "CartPole-v1"])
@pytest.mark.parametrize("sutton_barto_reward", [False, True])
def test_cartpole_matches_gymnasium(task_id: str, sutton_barto_reward: bool) -> None:
    limit = envpool.make_spec(task_id).max_episode_steps
    ours = envpool.make_gymnasium(task_id, num_envs=1, seed=3,
                                  sutton_barto_reward=sutton_barto_reward)
    ref = gymnasium.make(task_id, sutton_barto_reward=sutton_barto_reward).unwrapped
    ref.reset(seed=0)
    rng = np.random.default_rng(0)
    obs, _ = ours.reset()
    episodes, steps, truncations = 0, 0, 0
    # A policy that balances for a while, so that some episodes reach the time limit.
    while episodes < 12:
        ref.state = np.array(ours.get_state(0))
        ref.steps_beyond_terminated = None
        assert np.array_equal(obs[0], np.array(ref.state, dtype=np.float32))
        for t in range(1, limit + 1):
            theta, theta_dot = ref.state[2], ref.state[3]
            greedy = int(theta + 0.5 * theta_dot > 0)
            action = greedy if rng.random() < 0.97 - 0.1 * (episodes % 3) else 1 - greedy
            obs, rew, term, trunc, _ = ours.step(np.array([action]))
            r_obs, r_rew, r_term, _, _ = ref.step(action)
            steps += 1
            assert np.array_equal(obs[0], r_obs), (episodes, t)
            assert rew[0] == np.float32(r_rew)
            assert term[0] == r_term
            assert trunc[0] == (t == limit)
            if r_term or t == limit:
                truncations += int(t == limit)
                break
        obs, *_ = ours.step(np.array([0]))  # next-step autoreset: the reset obs
        episodes += 1
    assert truncations >= 1 and steps > 12 * 10
