"""Issue 18: does the Tianshou adapter hand Tianshou's Collector exactly what DummyVectorEnv does?

The adapter and Tianshou's own ``DummyVectorEnv`` of ``gymnasium.make("CartPole-v1")`` are
driven through Tianshou's ``Collector`` by the same deterministic policy, from identical
env states: every time the reference resets an env, the reset state is recorded, and when
the adapter resets that env (in the same order, since both see the same episodes) its
state is set to the recorded one (CartPole's observation is its state as float32, so the
returned row, once checked to be that env's own reset, is rebuilt from it). Everything
else (dynamics, termination, the 50-step time limit, which envs are stepped and reset and
in which order) is the adapter's and the pool's own. The replay buffers must then be
equal entry by entry: obs, act, rew, terminated, truncated, done, obs_next, and the episode
statistics.

Two collection modes: ``n_step`` (every env stepped on each call) and ``n_episode``
(Tianshou stops stepping envs once their share of episodes is done, so only a subset of
envs is stepped at the end).
"""

from __future__ import annotations

from collections import defaultdict, deque
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tianshou")
pytest.importorskip("torch")

import gymnasium  # noqa: E402
from tianshou.algorithm.algorithm_base import Policy  # noqa: E402
from tianshou.data import Batch, Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402

from envpool.integrations.tianshou import TianshouVectorEnv, make_tianshou_env  # noqa: E402

N, LIMIT = 4, 50


class _FixedPolicy(Policy):
    """A deterministic function of the observation: a balancing rule that is overridden on
    some observations, so episodes both fall (terminated) and last to the limit."""

    def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Any:
        obs = np.asarray(batch.obs)
        act = (obs[:, 2] + 0.5 * obs[:, 3] > 0).astype(np.int64)
        flip = (np.abs(obs[:, 0] * 1e4).astype(np.int64) % 3) == 0
        return Batch(act=np.where(flip, 1 - act, act), state=state)


class _Recording(DummyVectorEnv):
    """Tianshou's DummyVectorEnv that records each env's state after every reset."""

    def __init__(self) -> None:
        super().__init__([lambda: gymnasium.make("CartPole-v1", max_episode_steps=LIMIT)
                          for _ in range(N)])
        self.reset_states: dict[int, deque[np.ndarray]] = defaultdict(deque)

    def reset(self, env_id: Any = None, **kwargs: Any) -> Any:
        obs, info = super().reset(env_id, **kwargs)
        for i in self._wrap_id(env_id):
            self.reset_states[int(i)].append(np.array(self.workers[i].env.unwrapped.state))
        return obs, info


class _Replaying(TianshouVectorEnv):
    """The adapter, whose envs take the recorded reference state after each reset."""

    def __init__(self, states: dict[int, deque[np.ndarray]]) -> None:
        super().__init__(make_tianshou_env("CartPole-v1", num_envs=N, seed=0,
                                           max_episode_steps=LIMIT).pool)
        self.states = states

    def reset(self, env_id: Any = None, **kwargs: Any) -> Any:
        obs, infos = super().reset(env_id, **kwargs)
        obs = np.array(obs)
        for row, i in enumerate(self._wrap_id(env_id)):
            # the row the adapter returned is env i's own fresh reset, before it is replaced
            assert infos[row]["env_id"] == i and infos[row]["elapsed_step"] == 0
            np.testing.assert_array_equal(obs[row], np.float32(self.pool.get_state(int(i))))
            state = self.states[int(i)].popleft()
            self.pool.set_state(int(i), state)
            obs[row] = state.astype(np.float32)
        return obs, infos


def _collect(venv: Any, mode: str) -> tuple[VectorReplayBuffer, CollectStats]:
    policy = _FixedPolicy(action_space=venv.action_space[0])  # one env's, from the venv
    buffer = VectorReplayBuffer(4000, N)
    collector = Collector[CollectStats](policy, venv, buffer)
    collector.reset()
    stats = (collector.collect(n_step=1200) if mode == "n_step"
             else collector.collect(n_episode=37))
    return buffer, stats


@pytest.mark.parametrize("mode", ["n_step", "n_episode"])
def test_collector_buffers_equal_dummy_vector_env(mode: str) -> None:
    ref_env = _Recording()
    ref_buf, ref_stats = _collect(ref_env, mode)
    ours_env = _Replaying(ref_env.reset_states)
    buf, stats = _collect(ours_env, mode)
    assert all(not q for q in ref_env.reset_states.values())  # every reset was replayed
    assert len(buf) == len(ref_buf) > 0
    assert [len(b) for b in buf.buffers] == [len(b) for b in ref_buf.buffers]  # per env
    for key in ("obs", "act", "terminated", "truncated", "done", "obs_next"):
        ours, ref = getattr(buf, key), getattr(ref_buf, key)
        assert ours.dtype == ref.dtype, key
        np.testing.assert_array_equal(ours, ref, err_msg=key)
    # rewards: float32 (EnvPool's) against gymnasium's float64; the values are equal
    np.testing.assert_array_equal(buf.rew, ref_buf.rew)
    assert stats.n_collected_steps == ref_stats.n_collected_steps
    assert stats.n_collected_episodes == ref_stats.n_collected_episodes
    np.testing.assert_array_equal(stats.lens, ref_stats.lens)
    np.testing.assert_array_equal(stats.returns, ref_stats.returns)
    # the run saw both kinds of episode end
    assert buf.terminated.sum() >= 3 and buf.truncated.sum() >= 3
