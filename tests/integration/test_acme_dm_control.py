"""The DeepMind Control Suite through the Acme / dm_env adapter, as Acme users drive it.

* dm_env's own conformance mixin (``EnvironmentTestMixin``) on one task of every domain
  registered (a class per domain is generated below), with episodes cut short so that
  FIRST -> MID -> LAST -> FIRST cycles are exercised.
* The adapter looks like dm_control's env to code written for dm_control: the same
  observation spec (an ``OrderedDict`` of float64 ``Array`` specs, same keys, order and
  shapes) and the same action spec. (``acme.wrappers`` itself needs JAX's ``chex``, which
  the ``acme`` extra does not install, so Acme's observation wrappers are not run here.)
* ``acme.EnvironmentLoop`` runs episodes of CheetahRun-v1 with a random actor.
"""

from __future__ import annotations

import collections

import numpy as np
import pytest
from absl.testing import absltest
from dm_env import specs, test_utils

from envpool.integrations.acme import DmEnv, make_batched_dm_env, make_dm_env
from envpool.tasks.dm_control import TASKS

suite = pytest.importorskip("dm_control.suite", reason="dm-control is a test dependency")

FIRST_TASK_OF_DOMAIN: dict[str, str] = {}
for _task_id in sorted(TASKS):
    FIRST_TASK_OF_DOMAIN.setdefault(TASKS[_task_id][0], _task_id)


def _conformance_class(task_id: str) -> type:
    class DomainTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
        def make_object_under_test(self) -> DmEnv:
            return make_dm_env(task_id, seed=0, max_episode_steps=20)

        def make_action_sequence(self):
            spec = self.environment.action_spec()
            rng = np.random.default_rng(0)
            for _ in range(70):
                yield rng.uniform(spec.minimum, spec.maximum).astype(spec.dtype)

    DomainTest.__name__ = DomainTest.__qualname__ = f"{task_id.split('-')[0]}DmEnvTest"
    return DomainTest


for _domain, _task_id in FIRST_TASK_OF_DOMAIN.items():
    _cls = _conformance_class(_task_id)
    globals()[_cls.__name__] = _cls
del _cls


@pytest.mark.parametrize("task_id", sorted(FIRST_TASK_OF_DOMAIN.values()))
def test_specs_and_observations_are_dm_controls(task_id: str) -> None:
    domain, task_name = TASKS[task_id]
    ref = suite.load(domain, task_name, task_kwargs={"random": 0})
    env = make_dm_env(task_id, seed=0)
    ours_spec, ref_spec = env.observation_spec(), ref.observation_spec()
    assert isinstance(ours_spec, collections.OrderedDict)
    assert list(ours_spec) == list(ref_spec)
    for key, spec in ref_spec.items():
        assert type(ours_spec[key]) is specs.Array  # unbounded, as dm_control's
        assert (ours_spec[key].shape, ours_spec[key].dtype) == (spec.shape, spec.dtype)
    assert env.action_spec().shape == ref.action_spec().shape
    np.testing.assert_array_equal(env.action_spec().minimum, ref.action_spec().minimum)
    ts = env.reset()
    assert isinstance(ts.observation, collections.OrderedDict)
    assert list(ts.observation) == list(ref_spec)
    ts = env.step(np.zeros(ref.action_spec().shape))
    for key, value in ts.observation.items():
        assert value.shape == ref_spec[key].shape and value.dtype == np.float64
    env.close()
    batched = make_batched_dm_env(task_id, num_envs=2, seed=0)
    for ts in (batched.reset(), batched.step(np.zeros((2, *ref.action_spec().shape)))):
        assert isinstance(ts.observation, collections.OrderedDict)
        assert list(ts.observation) == list(ref_spec)
    assert isinstance(batched.observation_spec(), collections.OrderedDict)
    batched.close()


def test_acme_environment_loop_on_cheetah_run() -> None:
    acme = pytest.importorskip("acme")
    from acme import core
    from acme.utils import counting, loggers

    env = make_dm_env("CheetahRun-v1", seed=0, max_episode_steps=100)
    spec = env.action_spec()

    class RandomActor(core.Actor):
        def __init__(self) -> None:
            self.rng = np.random.default_rng(0)
            self.observed = 0

        def select_action(self, observation):
            assert list(observation) == ["position", "velocity"]
            return self.rng.uniform(spec.minimum, spec.maximum).astype(spec.dtype)

        def observe_first(self, timestep) -> None:
            self.observed += 1

        def observe(self, action, next_timestep) -> None:
            self.observed += 1

        def update(self, wait: bool = False) -> None:
            pass

    logs: list[dict] = []

    class ListLogger(loggers.Logger):
        def write(self, data) -> None:
            logs.append(dict(data))

        def close(self) -> None:
            pass

    actor = RandomActor()
    loop = acme.EnvironmentLoop(env, actor, counter=counting.Counter(), logger=ListLogger())
    loop.run(num_episodes=3)
    assert [log["episode_length"] for log in logs] == [100, 100, 100]
    assert actor.observed == 3 * 101
    # CheetahRun's reward is in [0, 1] per step
    assert all(0.0 <= log["episode_return"] <= 100.0 for log in logs)
    env.close()
