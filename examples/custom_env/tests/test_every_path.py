"""Thermostat-v0 through every path of envpool, as a built-in id: found by ``import envpool``
alone (the entry point), the three flavours, gymnasium's ids and an adapter; and the version
check that keeps a module built against another envpool out."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from envpool_thermostat import TASK_ID

import envpool
from envpool.integrations.cleanrl import RecordEpisodeStatistics


def test_registered_by_the_entry_point() -> None:
    import envpool_thermostat._native as native

    assert TASK_ID in envpool.list_all_envs()
    assert native.__envpool_version__ == envpool.__version__
    assert native.__envpool_sdk_abi__ == envpool.core.sdk.SDK_ABI


def test_flavours_and_gymnasium_ids() -> None:
    env = envpool.make(TASK_ID, env_type="gymnasium", num_envs=4, seed=0)
    obs, info = env.reset()
    assert obs.shape == (4, 3) and env.action_space == gymnasium.spaces.Discrete(3)
    obs, reward, terminated, truncated, info = env.step(np.ones(4, np.int64))
    assert info["energy"].tolist() == [1.0] * 4, info
    dm = envpool.make_dm(TASK_ID, num_envs=2, batch_size=1)
    dm.async_reset()
    assert dm.recv().observation.obs.shape == (1, 3)
    single = gymnasium.make(f"envpool/{TASK_ID}")
    single.reset(seed=0)
    single.step(0)


def test_an_adapter_counts_its_episodes() -> None:
    envs = RecordEpisodeStatistics(gymnasium.make_vec(f"envpool/{TASK_ID}", num_envs=2,
                                                      max_episode_steps=5))
    envs.reset(seed=0)
    lengths: list[int] = []
    for _ in range(12):
        _, _, _, _, info = envs.step(np.zeros(2, np.int64))
        if "_episode" in info:
            lengths += info["episode"]["l"][info["_episode"]].tolist()
    assert lengths and set(lengths) == {5}, lengths


def test_a_module_of_another_envpool_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import envpool_thermostat._native as native

    monkeypatch.setattr(native, "__envpool_version__", "0.0.0")
    with pytest.raises(ImportError, match="built against envpool 0.0.0"):
        envpool.register("Other-v0", "Thermostat", module=native)
