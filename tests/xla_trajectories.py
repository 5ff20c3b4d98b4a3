"""Each env's own trajectory out of an async pool's batches, and their comparison: the
async XLA tests (tests/test_xla.py against the Python loop, tests/test_xla_gpu.py the GPU
against the CPU), where which envs a batch holds is the threads' timing."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Trajectories = dict[int, list[tuple[np.ndarray, ...]]]


def per_env(ids: np.ndarray, rows: Sequence[np.ndarray]) -> Trajectories:
    """``ids[t, k]``: the env of row k of batch t; ``rows``: arrays indexed the same way
    (obs, reward, terminated, truncated). Each env's rows, in order."""
    out: Trajectories = {}
    for t in range(ids.shape[0]):
        for k, e in enumerate(ids[t]):
            out.setdefault(int(e), []).append(tuple(r[t, k] for r in rows))
    return out


def assert_same_trajectories(ours: Trajectories, theirs: Trajectories, where: str,
                             num_envs: int = 6, min_steps: int = 10, min_ends: int = 6) -> None:
    """Every env came back at least ``min_steps`` times in both, its rows equal over the
    steps both have (terminated and truncated the 3rd and 4th), and at least ``min_ends``
    episodes ended (and restarted) among them."""
    assert sorted(ours) == sorted(theirs) == list(range(num_envs))
    ends = 0
    for e in ours:
        n = min(len(ours[e]), len(theirs[e]))
        assert n >= min_steps, (e, len(ours[e]), len(theirs[e]))
        for t in range(n):
            for a, b in zip(ours[e][t], theirs[e][t], strict=True):
                np.testing.assert_array_equal(a, b, err_msg=f"{where}: env {e}, step {t}")
            ends += bool(ours[e][t][2] or ours[e][t][3])
    assert ends >= min_ends, ends
