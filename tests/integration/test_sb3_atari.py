"""SB3 on an image env through the adapter: envpool's Atari observations are
channel-first (stack, 84, 84) uint8, EnvPool's layout, so SB3 takes them as
images as they are and does not wrap them in VecTransposeImage (which is for
channel-last images)."""

from __future__ import annotations

import numpy as np
from stable_baselines3 import PPO
from stable_baselines3.common.preprocessing import is_image_space, is_image_space_channels_first
from stable_baselines3.common.vec_env import VecTransposeImage, is_vecenv_wrapped

from envpool.integrations.sb3 import make_vec_env


def test_ppo_cnn_policy_on_atari_without_transpose() -> None:
    env = make_vec_env("Breakout-v5", n_envs=2, seed=0)
    space = env.observation_space
    assert space.shape == (4, 84, 84) and space.dtype == np.uint8
    assert is_image_space(space) and is_image_space_channels_first(space)
    model = PPO("CnnPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    assert not is_vecenv_wrapped(model.get_env(), VecTransposeImage)
    model.learn(total_timesteps=128)
    obs = model.get_env().reset()
    assert obs.shape == (2, 4, 84, 84)
    actions, _ = model.predict(obs)
    assert actions.shape == (2,) and env.action_space.contains(actions[0])
    env.close()
