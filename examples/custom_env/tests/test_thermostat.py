"""The C++ Thermostat in envpool against its pure-Python reference, step by step.

After every reset (the first, and each autoreset) the reference takes the C++ env's state
(``get_state``), since the two draw their start states from different generators; from
there each step must give the same observation, reward, flags and energy."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from envpool_thermostat import TASK_ID
from envpool_thermostat.reference import ThermostatReference

import envpool

MAX_STEPS = 50


@pytest.mark.parametrize("config", [{}, {"heater_power": 2.5, "loss_rate": 0.3}])
def test_align_with_reference(config: dict[str, float]) -> None:
    num_envs = 4
    env = envpool.make(TASK_ID, env_type="gymnasium", num_envs=num_envs, seed=3,
                       max_episode_steps=MAX_STEPS, **config)
    refs = [ThermostatReference(**config) for _ in range(num_envs)]
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        ref.set_state(env.get_state(i))
        np.testing.assert_array_equal(obs[i], ref.obs())
    rng = np.random.default_rng(0)
    needs_reset = np.zeros(num_envs, bool)
    elapsed = np.zeros(num_envs, int)
    episodes = 0
    for _ in range(400):
        actions = rng.integers(0, 3, num_envs)
        obs, reward, terminated, truncated, info = env.step(actions)
        for i, ref in enumerate(refs):
            if needs_reset[i]:  # next-step autoreset: this row is a new episode's start
                ref.set_state(env.get_state(i))
                np.testing.assert_array_equal(obs[i], ref.obs())
                assert reward[i] == 0 and not terminated[i] and not truncated[i]
                needs_reset[i] = False
                elapsed[i] = 0
                continue
            want_obs, want_reward, want_terminated = ref.step(actions[i])
            elapsed[i] += 1
            np.testing.assert_array_equal(obs[i], want_obs)
            assert reward[i] == np.float32(want_reward)
            assert terminated[i] == want_terminated
            assert truncated[i] == (elapsed[i] == MAX_STEPS)
            assert info["energy"][i] == ref.energy
            needs_reset[i] = terminated[i] or truncated[i]
            episodes += bool(needs_reset[i])
    assert episodes > num_envs  # several episodes ended (by the bounds or the time limit)
    env.close()


def test_gymnasium_id_and_keywords() -> None:
    envs = gymnasium.make_vec(f"envpool/{TASK_ID}", num_envs=3, target_temperature=18.0)
    obs, _ = envs.reset(seed=1)
    assert obs.shape == (3, 3) and obs.dtype == np.float32
    np.testing.assert_allclose(obs[:, 2], obs[:, 0] - 18.0, atol=1e-5)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([3, 3, 3])
    envs.close()
    with pytest.raises(ValueError, match="loss_rate must be in"):
        envpool.make(TASK_ID, loss_rate=1.5)
