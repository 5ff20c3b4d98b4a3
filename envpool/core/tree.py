"""Nested observations: an array, a tuple of them or a (nested) dict of them.

A native env's observation arrays reach Python as a flat list; a dict layout names
them with :data:`NEST` between the levels (``"achieved_goal:kettle"`` is
``obs["achieved_goal"]["kettle"]``). Every function here walks dicts and tuples the
same way, so the pool, the flavours and the adapters share one notion of a tree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

#: The separator of a nested observation's names in a dict layout: the array
#: ``"achieved_goal:kettle"`` is ``obs["achieved_goal"]["kettle"]`` (a Dict in a Dict, as
#: FrankaKitchen's goals).
NEST = ":"


def nest(names: list[str], values: list[Any]) -> dict[str, Any]:
    """The dict of ``values`` by ``names``, nested at each :data:`NEST` of a name, in order."""
    out: dict[str, Any] = {}
    for name, value in zip(names, values, strict=True):
        *path, leaf = name.split(NEST)
        node = out
        for key in path:
            node = node.setdefault(key, {})
        node[leaf] = value
    return out


def leaves(tree: Any) -> list[Any]:
    """The arrays of a (nested) dict or tuple of them, in order (:func:`nest`'s inverse)."""
    if isinstance(tree, dict):
        return [x for v in tree.values() for x in leaves(v)]
    if isinstance(tree, tuple):
        return [x for v in tree for x in leaves(v)]
    return [tree]


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested dict's leaves by their dotted paths (``{"players": {"id": x}}`` ->
    ``{"players.id": x}``): the keys of an action dict's arrays."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def map_leaves(fn: Callable[[Any], Any], tree: Any) -> Any:
    """``tree`` with ``fn`` applied to each leaf; a dict keeps its type (an ``OrderedDict``
    stays one), a tuple stays a tuple."""
    if isinstance(tree, dict):
        return type(tree)((k, map_leaves(fn, v)) for k, v in tree.items())
    if isinstance(tree, tuple):
        return tuple(map_leaves(fn, v) for v in tree)
    return fn(tree)


def row(tree: Any, i: int) -> Any:
    """A copy of row ``i`` of a batched tree (one env's observation)."""
    return map_leaves(lambda v: np.array(v[i], copy=True), tree)


def copy(tree: Any) -> Any:
    """A copy of every array of ``tree``."""
    return map_leaves(lambda v: np.array(v, copy=True), tree)


def assign(dst: Any, rows: np.ndarray, src: Any) -> Any:
    """``dst[rows] = src`` through dicts and tuples (``dst``'s arrays are written); the keys
    of a dict that ``src`` lacks are left out of the result."""
    if isinstance(dst, dict):
        return {k: assign(v, rows, src[k]) for k, v in dst.items() if k in src}
    if isinstance(dst, tuple):
        return tuple(assign(d, rows, s) for d, s in zip(dst, src, strict=True))
    dst[rows] = src
    return dst
