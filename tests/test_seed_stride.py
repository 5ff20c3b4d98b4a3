"""``GymnasiumEnvPool.seed_stride``: ``reset(seed=s)`` seeds env i with ``s * stride + i``
(the per-runner seed blocks of ``envpool.integrations.rllib``)."""

from __future__ import annotations

import gymnasium
import numpy as np

import envpool  # noqa: F401  (registers the envpool/ ids)


def _reset(n: int, stride: int, seed: int, **kwargs: object) -> np.ndarray:
    pool = gymnasium.make_vec("envpool/CartPole-v1", num_envs=n,
                              vectorization_mode="vector_entry_point")
    pool.seed_stride = stride
    obs, _ = pool.reset(seed=seed, **kwargs)
    pool.close()
    return obs


def _seeded(seeds: list[int]) -> np.ndarray:
    """One pool of one env per seed: the observations those seeds reset to."""
    return np.stack([_reset(1, 1, s)[0] for s in seeds])


def test_default_stride_is_gymnasiums_s_plus_i() -> None:
    np.testing.assert_array_equal(_reset(3, 1, 10), _seeded([10, 11, 12]))


def test_stride_gives_each_seed_a_block_of_num_envs() -> None:
    # runner seeds 5 and 6 with 3 envs each: blocks 15..17 and 18..20, disjoint
    np.testing.assert_array_equal(_reset(3, 3, 5), _seeded([15, 16, 17]))
    np.testing.assert_array_equal(_reset(3, 3, 6), _seeded([18, 19, 20]))


def test_stride_with_a_subset_and_a_mask() -> None:
    pool = gymnasium.make_vec("envpool/CartPole-v1", num_envs=3,
                              vectorization_mode="vector_entry_point")
    pool.seed_stride = 3
    pool.reset(seed=0)
    obs, _ = pool.reset(env_id=[2], seed=5)
    np.testing.assert_array_equal(obs[0], _seeded([17])[0])
    pool.close()
    pool = gymnasium.make_vec("envpool/CartPole-v1", num_envs=3, autoreset_mode="disabled",
                              vectorization_mode="vector_entry_point")
    pool.seed_stride = 3
    pool.reset(seed=0)
    obs, _ = pool.reset(seed=5, options={"reset_mask": np.array([False, True, False])})
    np.testing.assert_array_equal(obs[1], _seeded([16])[0])
    pool.close()
