"""How the running numpy rounds the short products that the references compute with BLAS.

dm_control's observations and rewards, and a few of gymnasium's MuJoCo infos and rewards,
call ``np.dot`` and ``np.linalg.norm`` (``sqrt(x.dot(x))``) on float64 vectors of 2 to 15
numbers. numpy hands these to OpenBLAS, which numpy's wheels build for every x86-64 CPU
(DYNAMIC_ARCH) and which picks its kernels when it loads, by CPU (or as
``OPENBLAS_CORETYPE`` says). The kernels sum such short products in different orders. With
numpy 2.4's OpenBLAS, on random inputs (``tests/test_numpy_blas.py`` checks the two orders
below against the running numpy):

==========================  ==================  ==================  ====================
kernel (CPU)                ddot: ``x.dot(y)``  dgemv: ``v.dot(M)``  dgemm: ``A.dot(B)``
==========================  ==================  ==================  ====================
Haswell, Zen (AVX2 + FMA)   plain               plain               fused
SkylakeX (AVX-512)          fused               fused               fused
SandyBridge, Nehalem, Atom  plain               plain               plain
Prescott, Core2             other               plain               plain
==========================  ==================  ==================  ====================

*plain*: ``acc = acc + a[i] * b[i]`` from ``acc = 0``, i in order, each product rounded;
*fused*: ``acc = fma(a[i], b[i], acc)``, i in order (one rounding per element); *other*:
neither (Prescott's SSE2 ddot sums in lanes, in an order that depends on the arrays'
alignment).

:func:`numpy_blas_orders` asks the running numpy once per process, on inputs where the
two orders give different results. :func:`native_keywords` turns the answer into the hidden
keywords of the native envs that reproduce these products (``native/envs/common/
numpy_blas.h``), so that their observations and rewards equal the reference's bit for bit
on every CPU where numpy follows one of the two orders; where it follows neither, the
envs use the plain order and the alignment tests allow the ulps stated beside them.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

PLAIN, FUSED, OTHER = "plain", "fused", "other"


def fma(a: float, b: float, c: float) -> float:
    """``a * b + c`` rounded once (exact rational arithmetic, then one rounding)."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def dot_plain(x: np.ndarray, y: np.ndarray) -> float:
    """``sum(x[i] * y[i])`` in order, every product and sum rounded."""
    acc = 0.0
    for a, b in zip(x.tolist(), y.tolist(), strict=True):
        acc = acc + a * b
    return acc


def dot_fused(x: np.ndarray, y: np.ndarray) -> float:
    """``sum(x[i] * y[i])`` in order as one chain of fused multiply-adds."""
    acc = 0.0
    for a, b in zip(x.tolist(), y.tolist(), strict=True):
        acc = fma(a, b, acc)
    return acc


def _classify(pairs: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> str:
    """``pairs``: (numpy's result, the plain order's, the fused order's), each array."""
    if all(np.array_equal(got, plain) for got, plain, _ in pairs):
        return PLAIN
    if all(np.array_equal(got, fused) for got, _, fused in pairs):
        return FUSED
    return OTHER


def _disagreeing(rng: np.random.Generator, shape_x: tuple[int, ...], shape_y: tuple[int, ...],
                 plain: object, fused: object) -> tuple[np.ndarray, np.ndarray]:
    """Random inputs on which the plain and the fused order differ."""
    while True:
        x, y = rng.standard_normal(shape_x), rng.standard_normal(shape_y)
        if not np.array_equal(plain(x, y), fused(x, y)):  # type: ignore[operator]
            return x, y


def _vec_mat(dot: object) -> object:
    return lambda v, m: np.array([dot(v, m[:, j]) for j in range(m.shape[1])])  # type: ignore


def _mat_mat(dot: object) -> object:
    return lambda a, b: np.array([[dot(a[i], b[:, j]) for j in range(b.shape[1])]  # type: ignore
                                  for i in range(a.shape[0])])


@functools.cache
def numpy_blas_orders() -> dict[str, str]:
    """Which order (``"plain"``, ``"fused"`` or ``"other"``) the running numpy follows in
    ``x.dot(y)`` of two short vectors (``"dot"``), ``v.dot(M)`` of a 3-vector and a 3x3
    matrix (``"gemv"``) and ``A.dot(B)`` of two 3x3 matrices (``"gemm"``)."""
    rng = np.random.default_rng(20261125)
    cases: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
    cases["dot"] = []
    for n in range(2, 16):
        for _ in range(3):
            x, y = _disagreeing(rng, (n,), (n,), dot_plain, dot_fused)
            cases["dot"].append((np.asarray(x.dot(y)), np.asarray(dot_plain(x, y)),
                                 np.asarray(dot_fused(x, y))))
    for name, shape, plain, fused in (
            ("gemv", (3,), _vec_mat(dot_plain), _vec_mat(dot_fused)),
            ("gemm", (3, 3), _mat_mat(dot_plain), _mat_mat(dot_fused))):
        cases[name] = []
        for _ in range(8):
            a, m = _disagreeing(rng, shape, (3, 3), plain, fused)
            cases[name].append((a.dot(m), plain(a, m), fused(a, m)))  # type: ignore[operator]
    return {name: _classify(pairs) for name, pairs in cases.items()}


def native_keywords() -> dict[str, bool]:
    """The native envs' hidden keywords: whether each product is summed with fused
    multiply-adds (the plain order where numpy follows neither)."""
    orders = numpy_blas_orders()
    return {f"_numpy_{name}_fma": orders[name] == FUSED for name in ("dot", "gemv", "gemm")}


@functools.cache
def matvec2_order() -> int:
    """How the running numpy rounds ``M @ v`` of a 2 x 2 float64 matrix and a 2-vector (a
    rotation, as highway-env's OccupancyGrid and bicycle model compute them), as the hidden
    keyword ``_numpy_matvec2`` of the native envs that reproduce it (native/envs/highway/
    utils.h ``MatVec2Order``): 0 each product rounded and summed; 1 ``fma(M[i][0], v[0],
    M[i][1] * v[1])``; 2 ``fma(M[i][1], v[1], M[i][0] * v[0])``. Asked once per process on
    random inputs where the three differ; 0 where numpy follows none of them."""
    orders = (lambda m, v, i: m[i][0] * v[0] + m[i][1] * v[1],
              lambda m, v, i: fma(m[i][0], v[0], m[i][1] * v[1]),
              lambda m, v, i: fma(m[i][1], v[1], m[i][0] * v[0]))
    rng = np.random.default_rng(20261129)
    agree = [True, True, True]
    for _ in range(64):
        m, v = rng.standard_normal((2, 2)), rng.standard_normal(2)
        got = (m @ v).tolist()
        ml, vl = m.tolist(), v.tolist()
        for k, order in enumerate(orders):
            agree[k] &= all(got[i] == order(ml, vl, i) for i in range(2))
    return next((k for k in (1, 2, 0) if agree[k]), 0)
