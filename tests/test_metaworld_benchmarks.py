"""Meta-World's benchmarks (``metaworld.MT1`` ... ``ML45``, metaworld 3.1.1) against the
package: ``envpool.tasks.metaworld.benchmark`` draws the same task vectors, and a pool given
a benchmark's tasks (``rand_vecs``, ``use_one_hot``) runs the package's envs after
``set_task`` / ``make_mt_envs``, env for env, bitwise.

The package draws a benchmark's vectors with the legacy global ``np.random`` (seeded with
the benchmark's seed) inside real resets of a fresh env per task class (``_make_tasks``: 50
resets, each running ``reset_model`` twice). Those resets' physics (the hand's 50 settling
steps) takes the package about 13 s for MT10 here; no draw depends on it (the tasks redraw
a vector only on its own numbers), so the default-suite tests run the package with
``_reset_hand`` cut to one step, and the nightly test runs it as it is.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import metaworld
import numpy as np
import pytest
from metaworld.env_dict import ALL_V3_ENVIRONMENTS
from metaworld.sawyer_xyz_env import SawyerMocapBase, SawyerXYZEnv
from test_align_metaworld import _check_step, _obs_equal

import envpool
from envpool.integrations._reference_envs import reset_mocap_welds_317
from envpool.tasks.metaworld import (
    MT10,
    N_GOALS,
    RANDOM_RESET_SPACES,
    TASKS,
    Task,
    benchmark,
    env_kwargs,
)

pytestmark = [
    pytest.mark.filterwarnings("ignore:Constant\\(s\\) may be too high"),
    # the package's OneHotWrapper makes a float32 Box of float64 bounds
    pytest.mark.filterwarnings("ignore:.*precision lowered by casting to float32"),
]


@pytest.fixture(scope="module", autouse=True)
def _mujoco_317() -> Iterator[None]:
    """The package's reset_mocap_welds on MuJoCo 3.17 (tests/test_align_metaworld.py)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SawyerMocapBase, "reset_mocap_welds", reset_mocap_welds_317)
        yield


def _package(name: str, seed: int, env_name: str | None = None, fast: bool = True) -> Any:
    """metaworld.<name>(seed=seed); fast: the hand's settling in its resets cut to a step."""
    cls = getattr(metaworld, name)
    args = (env_name,) if env_name else ()
    if not fast:
        return cls(*args, seed=seed)
    original = SawyerXYZEnv._reset_hand
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SawyerXYZEnv, "_reset_hand", lambda self, steps=50: original(self, 1))
        return cls(*args, seed=seed)


def _assert_same_tasks(ours: tuple[Task, ...], theirs: list[Any]) -> None:
    assert len(ours) == len(theirs)
    for k, (o, t) in enumerate(zip(ours, theirs, strict=True)):
        data = pickle.loads(t.data)
        assert o.env_name == t.env_name, k
        assert np.array_equal(np.array(o.rand_vec), data["rand_vec"]), (k, o.env_name)
        assert o.partially_observable == data["partially_observable"], k


CASES = [("MT10", 1, None), ("MT10", 7, None), ("ML10", 3, None),
         ("MT1", 2, "pick-place-v3"), ("ML1", 4, "sweep-into-v3")]


@pytest.mark.parametrize(("name", "seed", "env_name"), CASES)
def test_task_vectors_equal_the_package(name: str, seed: int, env_name: str | None) -> None:
    """Every task of both splits: the same class, vector (bitwise) and observability, in the
    package's order (ML1's test tasks use seed + 1). The nightly test adds ML45 (all 50 task
    classes, train and test) and MT50."""
    ours = benchmark(name, seed=seed, env_name=env_name)
    theirs = _package(name, seed, env_name)
    assert ours.train_classes == tuple(theirs.train_classes)
    assert ours.test_classes == tuple(theirs.test_classes)
    _assert_same_tasks(ours.train_tasks, theirs.train_tasks)
    _assert_same_tasks(ours.test_tasks, theirs.test_tasks)
    assert len(ours.train_tasks) == N_GOALS * len(ours.train_classes)


def test_random_reset_spaces_are_the_package() -> None:
    for name, cls in ALL_V3_ENVIRONMENTS.items():
        space = cls()._random_reset_space
        low, high = RANDOM_RESET_SPACES[name]
        assert np.array_equal(space.low, low) and np.array_equal(space.high, high), name


@pytest.mark.nightly
@pytest.mark.timeout(1800)
@pytest.mark.parametrize(("name", "seed", "fast"), [
    ("MT10", 1, False), ("MT50", 0, False), ("ML10", 2, False), ("ML45", 9, False),
    ("ML45", 5, True), ("MT25", 3, True), ("ML25", 4, True)])
def test_task_vectors_equal_the_package_nightly(name: str, seed: int, fast: bool) -> None:
    """More benchmarks, and the package's as they are (fast=False: their resets' full
    physics)."""
    ours = benchmark(name, seed=seed)
    theirs = _package(name, seed, fast=fast)
    assert ours.train_classes == tuple(theirs.train_classes)
    assert ours.test_classes == tuple(theirs.test_classes)
    _assert_same_tasks(ours.train_tasks, theirs.train_tasks)
    _assert_same_tasks(ours.test_tasks, theirs.test_tasks)


@pytest.fixture(scope="module")
def mt10() -> tuple[Any, Any]:
    return benchmark("MT10", seed=11), _package("MT10", 11)


def test_mt10_tasks_pool_equals_set_task(mt10: tuple[Any, Any]) -> None:
    """A pool of MT10's ten classes, each env one of its class's training tasks (its vector
    frozen), against the package's envs after ``env.set_task(task)``: reset observations
    and 12 random steps bitwise, then a second reset (the same vector again) and 6 steps."""
    ours_bench, theirs_bench = mt10
    picks = [i * N_GOALS + (7 * i) % N_GOALS for i in range(len(MT10))]
    tasks = [ours_bench.train_tasks[k] for k in picks]
    envs = envpool.make_gymnasium("MetaWorld/Reach-v3", num_envs=len(picks), seed=3,
                                  partially_observable=False, env_kwargs=env_kwargs(tasks))
    refs = []
    for k in picks:
        task = theirs_bench.train_tasks[k]
        ref = ALL_V3_ENVIRONMENTS[task.env_name]()
        ref.set_task(task)
        refs.append(ref)
    rng = np.random.default_rng(0)
    for steps in (12, 6):
        obs, info = envs.reset()
        for i, ref in enumerate(refs):
            r_obs, _ = ref.reset()
            assert _obs_equal(obs[i], r_obs), (MT10[i], obs[i] - r_obs)
        assert list(info["task_id"]) == [TASKS.index(n) for n in MT10]
        for step in range(1, steps + 1):
            actions = rng.uniform(-1.0, 1.0, (len(refs), 4)).astype(np.float32)
            out = envs.step(actions)
            for i, ref in enumerate(refs):
                _check_step(i, out, ref.step(actions[i]), step)
    envs.close()


def test_mt10_one_hot_pool_equals_make_mt_envs(mt10: tuple[Any, Any]) -> None:
    """``use_one_hot=True`` with ``Benchmark.env_kwargs()``: each env holds its class's 50
    tasks and picks one at every reset, as ``make_mt_envs("MT10", use_one_hot=True)``'s env
    ``i`` (``_init_each_env``: RandomTaskSelectWrapper, OneHotWrapper) seeded like ours
    (seed + i): the 49-number observations bitwise over three episodes."""
    ours_bench, theirs_bench = mt10
    seed = 5
    envs = envpool.make_gymnasium("MetaWorld/Reach-v3", seed=seed, info_env_kwargs=True,
                                  **ours_bench.make_kwargs(use_one_hot=True))
    space = envs.single_observation_space
    assert space.shape == (49,)
    assert (space.low[39:] == 0).all() and (space.high[39:] == 1).all()
    refs = [metaworld._init_each_env(
        env_cls=cls, tasks=[t for t in theirs_bench.train_tasks if t.env_name == name],
        seed=seed + i, use_one_hot=True, env_id=i, num_tasks=10)
        for i, (name, cls) in enumerate(theirs_bench.train_classes.items())]
    rng = np.random.default_rng(1)
    firsts = []
    for _ in range(3):
        obs, info = envs.reset()
        firsts.append(obs.copy())
        # info_env_kwargs: each env's keywords, its 50 vectors (6 or 3 numbers each) included
        assert list(info["env_kwargs"]["one_hot_index"]) == list(range(10))
        assert [len(v) for v in info["env_kwargs"]["rand_vecs"]] == [
            N_GOALS * len(RANDOM_RESET_SPACES[n][0]) for n in MT10]
        for i, ref in enumerate(refs):
            r_obs, _ = ref.reset()
            assert np.array_equal(obs[i], r_obs), (i, obs[i] - r_obs)
            assert obs[i][39 + i] == 1 and obs[i][39:].sum() == 1
        for _ in range(4):
            actions = rng.uniform(-1.0, 1.0, (10, 4)).astype(np.float32)
            obs, rew, _, _, _ = envs.step(actions)
            for i, ref in enumerate(refs):
                r_obs, r_rew, _, _, _ = ref.step(actions[i])
                assert np.array_equal(obs[i], r_obs) and rew[i] == np.float32(r_rew), i
    assert not np.array_equal(firsts[0], firsts[1])  # other goals drawn
    envs.close()


def test_bad_benchmark_input() -> None:
    with pytest.raises(ValueError, match="unknown Meta-World benchmark 'MT20'"):
        benchmark("MT20")
    with pytest.raises(TypeError, match="MT1 takes env_name"):
        benchmark("MT1", seed=0)
    with pytest.raises(ValueError, match="missing-v3 is not a V3 environment"):
        benchmark("ML1", seed=0, env_name="missing-v3")
    with pytest.raises(ValueError, match="MT10 has no test tasks"):
        benchmark("MT10", seed=0).env_kwargs("test")
    with pytest.raises(ValueError, match="one task class"):
        env_kwargs([[Task("reach-v3", (0.0,) * 6, False), Task("push-v3", (0.0,) * 6, False)]])
    with pytest.raises(Exception, match="rand_vecs holds 4 numbers: reach-v3's random vectors "
                                        "have 6 each"):
        envpool.make_gymnasium("MetaWorld/Reach-v3", rand_vecs=[0.0, 0.6, 0.02, 0.0])
    with pytest.raises(Exception, match="one_hot_index in 0 .. num_tasks - 1"):
        envpool.make_gymnasium("MetaWorld/Reach-v3", use_one_hot=True, num_tasks=3,
                               one_hot_index=3)
    # A vector whose object and goal are 0.1 apart in x-y: reach-v3 redraws it for ever.
    env = envpool.make_gymnasium("MetaWorld/Reach-v3",
                                 rand_vecs=[0.0, 0.6, 0.02, 0.0, 0.7, 0.1])
    with pytest.raises(Exception, match="reach-v3 rejects the random vector of rand_vecs"):
        env.reset()
    env.close()


def test_ml10_test_split_pool_equals_the_package() -> None:
    """ML10's test split (goal hidden): ``make_kwargs("test")``, one env per test class with
    its 50 tasks, a task drawn at each reset, against ``_init_each_env`` on the package's
    ML10 test tasks (no one-hot), seeded as ours: two episodes, bitwise."""
    ours_bench, theirs_bench = benchmark("ML10", seed=2), _package("ML10", 2)
    kwargs = ours_bench.make_kwargs("test")
    assert kwargs["num_envs"] == 5 and kwargs["partially_observable"]
    envs = envpool.make_gymnasium("MetaWorld/Reach-v3", seed=8, **kwargs)
    assert envs.single_observation_space.shape == (39,)
    refs = [metaworld._init_each_env(
        env_cls=cls, tasks=[t for t in theirs_bench.test_tasks if t.env_name == name],
        seed=8 + i) for i, (name, cls) in enumerate(theirs_bench.test_classes.items())]
    rng = np.random.default_rng(2)
    for _ in range(2):
        obs, _ = envs.reset()
        for i, ref in enumerate(refs):
            r_obs, _ = ref.reset()
            assert np.array_equal(obs[i], r_obs), (i, obs[i] - r_obs)
            assert not obs[i][36:].any()  # the goal hidden
        for step in range(1, 4):
            actions = rng.uniform(-1.0, 1.0, (5, 4)).astype(np.float32)
            out = envs.step(actions)
            for i, ref in enumerate(refs):
                _check_step(i, out, ref.step(actions[i]), step)
    envs.close()


@pytest.mark.nightly
@pytest.mark.timeout(900)
def test_mt10_one_hot_pool_equals_gym_make_vec() -> None:
    """``gymnasium.make_vec("Meta-World/MT10", seed=s, use_one_hot=True)`` itself (the
    package's benchmark drawn as it is): its env 0 is seeded with ``s``, as our pool's env 0
    is (the package seeds every env with ``s``, ours env i with ``s + i``); three episodes of
    env 0 bitwise, after rounding ours to float32: the package's vector env keeps the
    observations in float32, the dtype of its OneHotWrapper's Box (gymnasium warns that it
    lowers the precision), where ours, as the package's env itself, gives float64."""
    import gymnasium

    seed = 12
    theirs = gymnasium.make_vec("Meta-World/MT10", seed=seed, use_one_hot=True,
                                vector_strategy="sync")
    envs = envpool.make_gymnasium("MetaWorld/Reach-v3", seed=seed,
                                  **benchmark("MT10", seed=seed).make_kwargs(use_one_hot=True))
    rng = np.random.default_rng(4)
    for _ in range(3):
        obs, _ = envs.reset()
        r_obs, _ = theirs.reset()
        assert r_obs.dtype == np.float32
        assert np.array_equal(obs[0].astype(np.float32), r_obs[0])
        for _ in range(4):
            actions = rng.uniform(-1.0, 1.0, (10, 4)).astype(np.float32)
            obs, rew, *_ = envs.step(actions)
            r_obs, r_rew, *_ = theirs.step(actions)
            assert np.array_equal(obs[0].astype(np.float32), r_obs[0])
            assert rew[0] == np.float32(r_rew[0])
    envs.close()
    theirs.close()
