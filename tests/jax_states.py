"""A JAX package's States compared leaf by leaf (the States rebuilt from the native envs'
``get_state`` against the package's own: tests/test_render_jumanji.py,
tests/test_render_pgx.py)."""

from __future__ import annotations

from typing import Any

import numpy as np


def _bits(x: Any) -> np.ndarray:
    a = np.asarray(x)
    return a.view(np.uint32) if a.dtype == np.float32 else a


def assert_same_state(ours: Any, ref: Any, where: Any, skip: tuple[str, ...] = ()) -> None:
    """States equal: the same pytree structure and, leaf by leaf, dtype, shape and values
    (float32 as raw bits), but for the values of the leaves ``skip`` names (their
    ``jax.tree_util.keystr`` paths)."""
    import jax

    ours_leaves, ours_tree = jax.tree_util.tree_flatten(ours)
    ref_leaves, ref_tree = jax.tree_util.tree_flatten(ref)
    assert ours_tree == ref_tree, where
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(ref)[0]]
    for path, a, b in zip(paths, ours_leaves, ref_leaves, strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, (where, path, a.dtype, b.dtype,
                                                           a.shape, b.shape)
        if path not in skip:
            assert np.array_equal(_bits(a), _bits(b)), (where, path, a, b)
