"""The probe of the running numpy's BLAS order (envpool/tasks/_numpy_blas.py).

The MuJoCo and DeepMind Control envs sum short dot products in the order the probe reports,
and their alignment tests then expect bitwise equality with the references; so the probe's
answer must describe numpy on inputs it has not seen, of every length the references use.
"""

from __future__ import annotations

import numpy as np
import pytest

from envpool.tasks._numpy_blas import (
    FUSED,
    OTHER,
    PLAIN,
    dot_fused,
    dot_plain,
    fma,
    native_keywords,
    numpy_blas_orders,
)


def test_fma_rounds_once() -> None:
    # (1 + e)(1 - e) - 1 = -e**2 exactly; the plain order rounds the product to 1 first.
    e = 2.0**-52
    assert fma(1 + e, 1 - e, -1.0) == -(e * e)
    assert (1 + e) * (1 - e) - 1.0 == 0.0
    x, y = np.array([1.0, 1 + e]), np.array([-1.0, 1 - e])
    assert dot_fused(x, y) == -(e * e)
    assert dot_plain(x, y) == 0.0


def _agreement(order: str, got: np.ndarray, plain: np.ndarray, fused: np.ndarray) -> bool:
    return bool(np.array_equal(got, {PLAIN: plain, FUSED: fused}[order]))


@pytest.mark.parametrize("n", range(2, 16))
def test_dot_order_holds_on_fresh_inputs(n: int) -> None:
    order = numpy_blas_orders()["dot"]
    rng = np.random.default_rng(1000 + n)
    for _ in range(300):
        x, y = rng.standard_normal(n), rng.standard_normal(n)
        if order == OTHER:
            # Some other order (a forced Prescott kernel's lanes): any order of n products
            # is within (n - 1) * u * sum |x_i y_i| of the exact sum (u = 2**-53).
            bound = 2 * (n - 1) * 2.0**-53 * float(np.abs(x * y).sum())
            assert abs(x.dot(y) - dot_plain(x, y)) <= bound
            continue
        assert _agreement(order, np.asarray(x.dot(y)), np.asarray(dot_plain(x, y)),
                          np.asarray(dot_fused(x, y))), (order, x, y)
        # np.linalg.norm is the square root of x.dot(x)
        assert np.linalg.norm(x) == np.sqrt(x.dot(x))


@pytest.mark.parametrize("op", ["gemv", "gemm"])
def test_matrix_order_holds_on_fresh_inputs(op: str) -> None:
    order = numpy_blas_orders()[op]
    if order == OTHER:
        pytest.fail(f"{op}: numpy follows neither order; no OpenBLAS kernel seen so far does")
    dot = {PLAIN: dot_plain, FUSED: dot_fused}[order]
    rng = np.random.default_rng(7)
    for _ in range(300):
        a = rng.standard_normal(3 if op == "gemv" else (3, 3))
        m = rng.standard_normal((3, 3))
        rows = np.atleast_2d(a)
        want = np.array([[dot(row, m[:, j]) for j in range(3)] for row in rows])
        np.testing.assert_array_equal(np.atleast_2d(a.dot(m)), want, err_msg=f"{op} {order}")


def test_native_keywords_name_each_fused_order() -> None:
    orders = numpy_blas_orders()
    assert set(orders) == {"dot", "gemv", "gemm"}
    assert set(orders.values()) <= {PLAIN, FUSED, OTHER}
    assert native_keywords() == {f"_numpy_{op}_fma": orders[op] == FUSED for op in orders}
