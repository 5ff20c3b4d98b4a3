"""``envpool.integrations.brax.BraxPool``: a pool as the batched brax env that brax's trainers
step inside their jitted rollouts (wrap_env=False).

The pool's own results are the reference: a BraxPool and a plain same-step pool from the same
seed, given the same actions, must give the same observations and rewards, and the episode
fields brax reads (``done``, ``truncation``, ``steps``) must follow the pool's ends.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("brax")

import envpool  # noqa: E402
from envpool.integrations.brax import BraxPool  # noqa: E402

TASK = "Pendulum-v1"  # Box actions, a time limit only (no termination)
N = 3


def _actions(steps: int) -> np.ndarray:
    return np.random.default_rng(0).uniform(-1, 1, (steps, N, 1)).astype(np.float32)


def test_steps_equal_the_pool_and_brax_fields_follow_its_ends() -> None:
    env = BraxPool(TASK, num_envs=N, seed=7, max_episode_steps=4)
    ref = envpool.make_gymnasium(TASK, num_envs=N, seed=7, max_episode_steps=4,
                                 autoreset_mode="same_step")
    step = jax.jit(env.step)
    state = jax.jit(env.reset)(jax.random.split(jax.random.PRNGKey(0), N))
    obs, _ = ref.reset()
    np.testing.assert_array_equal(np.asarray(state.obs), obs.astype(np.float32))
    assert state.obs.dtype == np.float32 and env.observation_size == 3 and env.action_size == 1
    for t, action in enumerate(_actions(9)):
        state = step(state, action)
        obs, reward, terminated, truncated, _ = ref.step(action.astype(np.float64))
        np.testing.assert_array_equal(np.asarray(state.obs), obs.astype(np.float32))
        np.testing.assert_array_equal(np.asarray(state.reward), reward.astype(np.float32))
        ends = (t + 1) % 4 == 0  # the time limit every 4th step, all envs at once
        assert not terminated.any() and bool(truncated.all()) == ends
        np.testing.assert_array_equal(np.asarray(state.done), np.full(N, float(ends)))
        np.testing.assert_array_equal(np.asarray(state.info["truncation"]),
                                      np.full(N, float(ends)))
        # the episode's steps so far, the ending step counted; 0 again after an end
        np.testing.assert_array_equal(np.asarray(state.info["steps"]),
                                      np.full(N, float(t % 4 + 1)))
    env.close()
    ref.close()


def test_eval_wrapper_sums_each_first_episode() -> None:
    from brax.envs.wrappers.training import EvalWrapper
    from brax.training import acting

    env = BraxPool(TASK, num_envs=N, seed=3, max_episode_steps=5)
    ref = envpool.make_gymnasium(TASK, num_envs=N, seed=3, max_episode_steps=5,
                                 autoreset_mode="same_step")
    acts = _actions(8)
    eval_env = EvalWrapper(env)

    def policy(obs: object, key: object) -> tuple[object, dict[str, object]]:
        del key
        return acts[0] + 0.0 * obs[:, :1], {}  # type: ignore[index]

    state = eval_env.reset(jax.random.split(jax.random.PRNGKey(0), N))
    state, _ = acting.generate_unroll(eval_env, state, policy, jax.random.PRNGKey(1), 8)
    ref.reset()
    total = np.zeros(N, np.float32)
    for _ in range(5):
        total += ref.step(acts[0].astype(np.float64))[1].astype(np.float32)
    metrics = state.info["eval_metrics"]
    np.testing.assert_allclose(np.asarray(metrics.episode_metrics["reward"]), total, rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(metrics.episode_steps), np.full(N, 5.0))
    env.close()
    ref.close()


def test_refusals() -> None:
    with pytest.raises(ValueError, match="autoreset_mode"):
        BraxPool(TASK, num_envs=2, autoreset_mode="next_step")
    with pytest.raises(ValueError, match="not a Box"):
        BraxPool("CartPole-v1", num_envs=2)
    with pytest.raises(ValueError):
        BraxPool("NoSuchTask-v0", num_envs=2)
    env = BraxPool(TASK, num_envs=2)
    state = jax.jit(env.reset)(jax.random.split(jax.random.PRNGKey(0), 2))
    env.close()
    with pytest.raises(Exception, match="closed"):
        jax.block_until_ready(env.step(state, np.zeros((2, 1), np.float32)))
