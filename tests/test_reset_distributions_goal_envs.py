"""The reset distributions of the Gymnasium-Robotics and Meta-World tasks against their
packages' own resets, as tests/test_reset_distributions.py does for gymnasium's tasks.

The alignment tests of these families (tests/test_align_robotics*.py,
tests/test_align_metaworld.py) already start both sides from the same seed with nothing
copied and find the same reset, bit for bit, so they hold our reproduction of the packages'
generator as well as the draws. Here the two sides draw from unrelated seeds (ours: a pool of
N envs with seeds 0..N-1; the package: one env reset with seeds 10_000..10_000+N-1), so what
is compared is the distribution alone: every coordinate of the first observation (the goals,
the objects' and the robot's starts, the observation noise) with a two-sample
Kolmogorov-Smirnov test. Threshold as there: the family-wise level ALPHA = 1e-3 split over the
coordinates (Bonferroni); the seeds are fixed, so the outcome is deterministic. The negative
control shows the test rejects a start drawn from another range (Fetch's ``obj_range``).

The packages cannot reset on mujoco 3.17 as installed: gymnasium_robotics' joint-type check
(tests/robotics_joint_types.py) and metaworld's weld data
(``envpool.integrations._reference_envs.metaworld_on_mujoco3``); both are fixed as in the
alignment tests, no arithmetic changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from robotics_joint_types import joint_types_as_ints  # tests/robotics_joint_types.py
from stats import ks_2samp  # tests/stats.py

import envpool

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")

N = 120  # (an Adroit env holds its own model copy: 120 of them are ~2 GB)
ALPHA = 1e-3

ROBOTICS = ["FetchPush-v4", "FetchPickAndPlace-v4", "HandReach-v3", "HandManipulateBlock-v1",
            "HandManipulatePenRotate-v1", "AdroitHandDoor-v1", "AdroitHandRelocate-v1",
            "AdroitHandPen-v1", "PointMaze_Medium_Diverse_GR-v3", "AntMaze_UMaze-v5",
            "FrankaKitchen-v1"]
METAWORLD = ["reach-v3", "pick-place-v3", "door-open-v3"]


def _flat(obs: Any) -> np.ndarray:
    """One env's observation as a vector (a Dict's leaves in key order, nested or not)."""
    if isinstance(obs, dict):
        return np.concatenate([_flat(obs[k]) for k in sorted(obs)])
    return np.asarray(obs, dtype=np.float64).ravel()


def _batch(obs: Any, i: int) -> Any:
    return {k: _batch(v, i) for k, v in obs.items()} if isinstance(obs, dict) else obs[i]


@pytest.fixture(scope="module")
def references() -> Iterator[None]:
    """The packages' envs made resettable on mujoco 3.17 (module docstring)."""
    from envpool.integrations._reference_envs import metaworld_on_mujoco3

    gymnasium.register_envs(gymnasium_robotics)
    try:
        metaworld_on_mujoco3()
    except ImportError:
        pass
    with joint_types_as_ints():
        yield


def _ours(task_id: str, **kwargs: Any) -> np.ndarray:
    env = envpool.make_gymnasium(task_id, num_envs=N, seed=0, **kwargs)
    obs = env.reset()[0]
    env.close()
    return np.stack([_flat(_batch(obs, i)) for i in range(N)])


def _robotics_reference(task_id: str, **kwargs: Any) -> np.ndarray:
    env = gymnasium.make(task_id, **kwargs)
    ref = np.stack([_flat(env.reset(seed=10_000 + i)[0]) for i in range(N)])
    env.close()
    return ref


def _metaworld_reference(name: str) -> np.ndarray:
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS

    env = ALL_V3_ENVIRONMENTS[name]()
    env._set_task_called = True  # the package's seeded mode (docs/metaworld.md)
    env._freeze_rand_vec = False
    env.seeded_rand_vec = True
    del env.sawyer_observation_space  # the cached space, as set_task drops it
    env._partially_observable = False  # the goal observed: its draw is compared too
    ref = np.stack([_flat(env.reset(seed=10_000 + i)[0]) for i in range(N)])
    env.close()
    return ref


def _min_p(ours: np.ndarray, ref: np.ndarray) -> tuple[float, int]:
    """The smallest KS p-value over the coordinates, and its coordinate. Both sides are
    rounded to 1e-10 first: some coordinates are one number at every reset but for their
    last bits (Fetch's velocities at rest are BLAS sums, whose order differs by CPU:
    docs/robotics.md), and KS would read two mixes of neighbouring floats as two
    distributions; 1e-10 is far below any drawn spread (the smallest, a Kitchen noise
    coordinate: a standard deviation of 1.4e-7)."""
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    ours, ref = np.round(ours, 10), np.round(ref, 10)
    ps = [ks_2samp(ours[:, j], ref[:, j])[1] for j in range(ours.shape[1])]
    j = int(np.argmin(ps))
    return ps[j], j


@pytest.mark.parametrize("task_id", ROBOTICS)
def test_robotics_reset_distribution_matches_the_package(references: None,
                                                         task_id: str) -> None:
    ours, ref = _ours(task_id), _robotics_reference(task_id)
    p, j = _min_p(ours, ref)
    assert p > ALPHA / ours.shape[1], (task_id, "coordinate", j, "p", p)
    # the draw is random on both sides (not a fixed start that would trivially match)
    assert ours.std(axis=0).max() > 0 and ref.std(axis=0).max() > 0


@pytest.mark.parametrize("name", METAWORLD)
def test_metaworld_reset_distribution_matches_the_package(references: None, name: str) -> None:
    pytest.importorskip("metaworld")
    from envpool.tasks.metaworld import task_id

    ours = _ours(task_id(name), partially_observable=False)
    ref = _metaworld_reference(name)
    p, j = _min_p(ours, ref)
    assert p > ALPHA / ours.shape[1], (name, "coordinate", j, "p", p)
    assert ours.std(axis=0).max() > 0 and ref.std(axis=0).max() > 0


def test_detects_another_start_range(references: None) -> None:
    """The negative control: ours with FetchPush's object drawn within 0.1 instead of the
    package's 0.15 must be rejected."""
    ours, ref = _ours("FetchPush-v4", obj_range=0.1), _robotics_reference("FetchPush-v4")
    p, _ = _min_p(ours, ref)
    assert p < ALPHA / ours.shape[1]
