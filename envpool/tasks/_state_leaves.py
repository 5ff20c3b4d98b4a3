"""A JAX package's env State rebuilt from a native env's ``get_state``.

The envs that restate a JAX package (Jumanji's, PGX's) give their state as the package's
pytree leaves (native/envs/common/state_leaves.h): for each leaf in
``jax.tree_util.tree_leaves`` order its rank, its shape and its values, row-major, as
float64 (every value of an int8 .. int32, uint32 or float32 leaf exactly). The State's
structure, shapes and dtypes come from the package itself (``jax.eval_shape`` of its
reset or init), so the rebuilt State is of the package's own classes and each leaf's
shape is checked against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class StateLayout:
    """The pytree structure, shapes and dtypes of a package's State.

    Args:
        shapes: The State's shapes (``jax.eval_shape(env.reset, key)``: a pytree of
            ``jax.ShapeDtypeStruct``).
        name: The env's id, for errors.
        requirement: The package the native envs restate (``"jumanji==1.1.2"``), for errors.
    """

    def __init__(self, shapes: Any, name: str, requirement: str) -> None:
        import jax

        leaves, self._treedef = jax.tree_util.tree_flatten(shapes)
        self._shapes = [tuple(int(d) for d in leaf.shape) for leaf in leaves]
        self._dtypes = [np.dtype(leaf.dtype) for leaf in leaves]
        self._name = name
        self._requirement = requirement

    @property
    def num_leaves(self) -> int:
        """How many leaves the State has."""
        return len(self._shapes)

    def arrays(self, leaves: Sequence[float]) -> list[np.ndarray]:
        """The State's leaves as numpy arrays of the package's dtypes.

        Args:
            leaves: What ``pool.get_state(env_id)`` returned.

        Raises:
            RuntimeError: the native env's leaves do not fit the package's State (another
                version of the package than the one the envs restate).
        """
        flat = np.asarray(leaves, dtype=np.float64)
        arrays: list[np.ndarray] = []
        at = 0
        while at < flat.size and len(arrays) < len(self._shapes):
            rank = int(flat[at])
            shape = tuple(int(d) for d in flat[at + 1:at + 1 + rank])
            at += 1 + rank
            size = int(np.prod(shape, dtype=np.int64))
            if shape != self._shapes[len(arrays)] or at + size > flat.size:
                break
            arrays.append(flat[at:at + size].astype(self._dtypes[len(arrays)]).reshape(shape))
            at += size
        if len(arrays) != len(self._shapes) or at != flat.size:
            raise RuntimeError(
                f"{self._name}: the native env's state ({flat.size} numbers) does not fit the "
                f"installed package's State (leaf {len(arrays)} of {len(self._shapes)}): the "
                f"envs restate {self._requirement}")
        return arrays

    def state(self, leaves: Sequence[float]) -> Any:
        """The package's State (numpy leaves) from ``get_state``'s ``leaves``.

        Raises:
            RuntimeError: as :meth:`arrays`.
        """
        import jax

        return jax.tree_util.tree_unflatten(self._treedef, self.arrays(leaves))


def leaf_shapes(leaves: Sequence[float]) -> list[tuple[int, ...]]:
    """The shape of each leaf of ``get_state``'s ``leaves``, as the native env wrote them
    (for a State whose shapes depend on the env's keywords)."""
    flat = np.asarray(leaves, dtype=np.float64)
    shapes: list[tuple[int, ...]] = []
    at = 0
    while at < flat.size:
        rank = int(flat[at])
        shape = tuple(int(d) for d in flat[at + 1:at + 1 + rank])
        at += 1 + rank + int(np.prod(shape, dtype=np.int64))
        shapes.append(shape)
    return shapes
