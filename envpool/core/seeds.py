"""Seeds: what ``make(seed=...)`` and ``reset(seed=...)`` give each env, in one place.

An int ``s`` gives env ``i`` the seed ``s + i``, so ``reset(seed=s)`` of any subset of envs
matches ``make(seed=s)``; a sequence gives one seed per env, in order; None draws one at
random at make time and keeps each env's generator going at a reset.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np

from envpool.core.keywords import is_int


def expand_seeds(seed: Any, env_ids: Sequence[int] | np.ndarray) -> list[int]:
    """One seed per env of ``env_ids``: an int ``s`` gives env ``i`` the seed ``s + i``; a
    sequence gives one seed per listed env, in order. Seeds must be in 0 .. 2**64 - 1."""
    if is_int(seed):
        seeds = [int(seed) + int(i) for i in env_ids]
    elif isinstance(seed, (Sequence, np.ndarray)) and not isinstance(seed, str):
        seeds = [int(s) for s in seed] if all(is_int(s) for s in seed) else []
        if len(seeds) != len(env_ids):
            raise ValueError(f"seed as a list needs {len(env_ids)} integers (one per env), "
                             f"got {seed!r}")
    else:
        raise TypeError(f"seed must be an int, a list of ints or None, got {seed!r}")
    if any(s < 0 or s >= 2**64 for s in seeds):
        raise ValueError("seeds must be in 0 .. 2**64 - 1")
    return seeds


def make_seeds(seed: Any, num_envs: int) -> list[int]:
    """The seeds of a new pool's envs: ``make``'s ``seed`` keyword (None: drawn at random)."""
    return expand_seeds(secrets.randbits(31) if seed is None else seed, range(num_envs))


def stride_seed(seed: Any, stride: int) -> Any:
    """``reset(seed=s)`` with a seed stride: an int ``s`` becomes ``s * stride`` (env ``i``
    then gets ``s * stride + i``, so pools handed consecutive ints get disjoint blocks);
    any other seed is left as it is."""
    if stride != 1 and isinstance(seed, (int, np.integer)):
        return int(seed) * stride
    return seed


def masked_seeds(seed: Any, mask: np.ndarray) -> Any:
    """The seeds of the envs where ``mask`` is True: a sequence (one seed per env of the
    pool) is cut to those envs; an int or None is left as it is."""
    if seed is None or isinstance(seed, (int, np.integer)):
        return seed
    return [s for s, m in zip(seed, mask, strict=True) if m]
