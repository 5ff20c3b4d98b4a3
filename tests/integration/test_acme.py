"""dm_env views of a pool: the dm_env conformance mixin, episode semantics, Acme's loop."""

from __future__ import annotations

import dm_env
import numpy as np
import pytest
from absl.testing import absltest
from dm_env import specs, test_utils

from envpool.integrations.acme import (
    BatchedDmEnv,
    DmEnv,
    make_batched_dm_env,
    make_dm_env,
)


class CartPoleDmEnvTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
    """The unmodified dm_env conformance tests on one CartPole env."""

    def make_object_under_test(self) -> DmEnv:
        return make_dm_env("CartPole-v1", seed=0)

    def make_action_sequence(self):  # always push right: episodes end in ~10 steps
        for _ in range(60):
            yield np.int32(1)


class PendulumDmEnvTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
    """Continuous actions, episodes ended by truncation."""

    def make_object_under_test(self) -> DmEnv:
        return make_dm_env("Pendulum-v1", seed=0, max_episode_steps=15)

    def make_action_sequence(self):
        for t in range(50):
            yield np.array([np.sin(t)], np.float32)


class BatchedDmEnvTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
    """The conformance tests on the batched view, checked env by env.

    The mixin's tests are written for one env (``step_type`` a StepType, FIRST with
    reward None); here every env's slice of a batched TimeStep must pass the mixin's
    own single-env checks, and the step-type sequence rules hold per env.
    """

    num_envs = 4

    def make_object_under_test(self) -> BatchedDmEnv:
        return make_batched_dm_env("CartPole-v1", num_envs=self.num_envs, seed=0)

    def make_action_sequence(self):
        for t in range(60):
            yield np.full(self.num_envs, t % 3 == 0, np.int32)

    def _slices(self, step: dm_env.TimeStep) -> list[dm_env.TimeStep]:
        out = []
        for i in range(self.num_envs):
            step_type = dm_env.StepType(int(step.step_type[i]))
            first = step_type is dm_env.StepType.FIRST
            if first:
                self.assertEqual(step.reward[i], 0.0)
                self.assertEqual(step.discount[i], 1.0)
            out.append(dm_env.TimeStep(step_type, None if first else step.reward[i].reshape(()),
                                       None if first else step.discount[i].reshape(()),
                                       step.observation[i]))
        return out

    def assertValidStep(self, step: dm_env.TimeStep) -> None:  # noqa: N802
        self.assertConformsToSpec(step.reward, self.environment.reward_spec())
        self.assertConformsToSpec(step.discount, self.environment.discount_spec())
        self.assertConformsToSpec(step.observation, self.environment.observation_spec())
        single_obs = self.environment.single_observation_spec()
        for ts in self._slices(step):
            self.assertIsInstance(ts.step_type, dm_env.StepType)
            if ts.step_type is not dm_env.StepType.FIRST:
                self.assertConformsToSpec(ts.reward, specs.Array((), np.float32))
                self.assertConformsToSpec(ts.discount,
                                          specs.BoundedArray((), np.float32, 0.0, 1.0))
            self.assertConformsToSpec(ts.observation, single_obs)

    def assertIs(self, expected, actual, msg=None):  # noqa: N802
        if isinstance(actual, np.ndarray):  # per env: every env has this step type
            return np.testing.assert_array_equal(actual, int(expected), err_msg=msg or "")
        return super().assertIs(expected, actual, msg)

    def assertIsNot(self, expected, actual, msg=None):  # noqa: N802
        if isinstance(actual, np.ndarray):  # per env: no env has this step type
            return self.assertFalse(np.any(actual == int(expected)), msg)
        return super().assertIsNot(expected, actual, msg)

    def test_longer_action_sequence(self) -> None:
        # the mixin's test with its `prev is LAST` rule applied to each env
        ends = 0
        for _ in range(2):
            prev = self.reset_environment().step_type
            for action in self.make_action_sequence():
                step = self.step_environment(action)
                after_last = prev == int(dm_env.StepType.LAST)
                first = step.step_type == int(dm_env.StepType.FIRST)
                np.testing.assert_array_equal(first, after_last)
                ends += int(np.sum(step.step_type == int(dm_env.StepType.LAST)))
                prev = step.step_type
        self.assertGreater(ends, 8)


def test_discount_is_zero_on_termination_and_one_on_truncation() -> None:
    env = make_batched_dm_env("CartPole-v1", num_envs=2, seed=0, max_episode_steps=12)
    env.reset()
    seen = {"terminated": 0, "truncated": 0}
    # env 0 falls over (terminates), env 1 alternates and reaches the limit (truncates)
    for t in range(40):
        ts = env.step(np.array([1, t % 2], np.int32))
        last = ts.step_type == int(dm_env.StepType.LAST)
        if last[0]:
            assert ts.discount[0] == 0.0
            seen["terminated"] += 1
        if last[1]:
            assert ts.discount[1] == 1.0
            seen["truncated"] += 1
        mid = ts.step_type == int(dm_env.StepType.MID)
        assert np.all(ts.discount[mid] == 1.0)
        assert np.all(ts.reward[mid | last] == 1.0)
    assert seen["terminated"] >= 2 and seen["truncated"] >= 2


def test_specs_are_dm_env_specs() -> None:
    env = make_dm_env("CartPole-v1", seed=0)
    assert isinstance(env.action_spec(), specs.DiscreteArray)
    assert env.action_spec().num_values == 2
    assert isinstance(env.observation_spec(), specs.Array)
    assert env.observation_spec().shape == (4,)
    pend = make_batched_dm_env("Pendulum-v1", num_envs=3, seed=0)
    action = pend.action_spec()
    assert isinstance(action, specs.BoundedArray) and action.shape == (3, 1)
    np.testing.assert_allclose(action.minimum, -2.0)
    np.testing.assert_allclose(action.maximum, 2.0)
    assert pend.observation_spec().shape == (3, 3)
    with pytest.raises(ValueError, match="one env"):
        DmEnv(make_batched_dm_env("CartPole-v1", num_envs=2).pool)


def test_acme_environment_loop_with_a_random_actor() -> None:
    pytest.importorskip("acme")
    import acme
    from acme import core
    from acme.utils import counting, loggers

    class RandomActor(core.Actor):
        def __init__(self, spec: specs.DiscreteArray, seed: int) -> None:
            self._spec, self._rng = spec, np.random.default_rng(seed)
            self.first = self.observed = 0

        def select_action(self, observation: np.ndarray) -> np.ndarray:
            assert observation.shape == (4,)
            return self._rng.integers(self._spec.num_values, dtype=self._spec.dtype)

        def observe_first(self, timestep: dm_env.TimeStep) -> None:
            assert timestep.first()
            self.first += 1

        def observe(self, action: np.ndarray, next_timestep: dm_env.TimeStep) -> None:
            assert not next_timestep.first()
            self.observed += 1

        def update(self, wait: bool = False) -> None:
            pass

    env = make_dm_env("CartPole-v1", seed=0)
    actor = RandomActor(env.action_spec(), seed=0)
    logger = loggers.InMemoryLogger()
    loop = acme.EnvironmentLoop(env, actor, counter=counting.Counter(), logger=logger)
    results = [loop.run_episode() for _ in range(10)]
    lengths = [r["episode_length"] for r in results]
    assert actor.first == 10 and actor.observed == sum(lengths)
    for r in results:  # CartPole pays 1 per step, including the last
        assert float(r["episode_return"]) == r["episode_length"]
    assert 8 <= min(lengths) and np.mean(lengths) < 60
    loop.run(num_episodes=3)
    assert len(logger.data) == 3 and logger.data[-1]["episodes"] == 13
