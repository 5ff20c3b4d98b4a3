"""What the running numpy computes differently from one CPU to another, found out at run time.

The references compute some numbers with numpy, and numpy's results for these depend on the
machine: its OpenBLAS picks kernels by CPU (the order of short dot products:
``envpool.tasks._numpy_blas``), and its own SIMD loops (``np.tanh`` on AVX2, ``np.log1p``,
``np.arcsinh`` on AVX-512, ...) differ from the C library's functions, which our C++ calls,
in the last bits. An alignment test asks here which case it is in and asserts bitwise
equality where numpy computes what our C++ computes, and otherwise the bound stated beside
the number.

To run the suite under another kernel by hand (never in tests or CI): ``OPENBLAS_CORETYPE=
Haswell pytest ...`` (or Zen, SkylakeX, SandyBridge, Prescott; docs/testing.md), and
``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR"`` for numpy's own AVX-512 loops
(numpy 2.4's names; docs/testing.md).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Callable

import numpy as np


@functools.cache
def ufunc_matches_libm(name: str, low: float, high: float, signed: bool = False) -> bool:
    """Whether ``np.<name>`` equals the C library's function (Python's ``math``, which our
    C++ also calls) on 20,000 numbers spread log-uniformly over [low, high] (and their
    negatives, with ``signed``). numpy's SIMD loops, where a CPU has them, differ from the C
    library on 1% or more of such numbers, so 20,000 of them tell the two apart."""
    import math

    ufunc: Callable[[np.ndarray], np.ndarray] = getattr(np, name)
    libm: Callable[[float], float] = getattr(
        math, {"arcsinh": "asinh", "arctan": "atan", "arcsin": "asin"}.get(name, name))
    rng = np.random.default_rng(0)
    xs = np.exp(rng.uniform(np.log(low), np.log(high), 20_000))
    if signed:
        xs[::2] *= -1
    return bool(np.array_equal(ufunc(xs), np.array([libm(x) for x in xs.tolist()])))


@functools.cache
def arctan2_matches_libm() -> bool:
    """Whether ``np.arctan2`` equals the C library's ``atan2`` (``math.atan2``, which our C++
    also calls) on 20,000 pairs of standard normal numbers (every quadrant). On AVX-512 CPUs
    numpy computes float64 arctan2 with its SVML kernel, which differs from glibc's on about
    7% of such pairs (by 1 ulp, seen on an AMD EPYC Zen 4)."""
    import math

    rng = np.random.default_rng(0)
    ys, xs = rng.standard_normal(20_000), rng.standard_normal(20_000)
    ours = np.array([math.atan2(y, x) for y, x in zip(ys.tolist(), xs.tolist(), strict=True)])
    return bool(np.array_equal(np.arctan2(ys, xs), ours))


def rerun_without_fma(test_file: str, select: str, probe: str) -> bool:
    """Runs ``pytest test_file -k select`` in a child process whose XLA stops at AVX
    (XLA_FLAGS' --xla_cpu_max_isa=AVX: no FMA instructions, and the pools made there decide
    the same through envpool.tasks.classic_control.xla_uses_fma) and asserts that it passed
    and skipped nothing; returns whether the Python code ``probe`` prints other output in
    such a process than in one with this process's environment."""
    flags = f"{os.environ.get('XLA_FLAGS', '')} --xla_cpu_max_isa=AVX"
    env = {**os.environ, "XLA_FLAGS": flags}
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         test_file, "-k", select], env=env, capture_output=True, text=True, timeout=500)
    assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-2000:]
    assert " passed" in child.stdout and "skipped" not in child.stdout, child.stdout[-500:]
    unfused = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                             text=True, check=True).stdout
    here = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True).stdout
    return unfused != here


@functools.cache
def power_matches_libm() -> bool:
    """Whether float64 ``array ** p`` for a Python float p outside numpy's fast paths (-1, 0,
    0.5, 1, 2: reciprocal, ones, square root, copy, square) equals the C library's ``pow``
    (``math.pow``, which our C++ also calls) on 20,000 numbers spread log-uniformly over
    [1e-4, 1], for p = -0.5, -0.25, -0.75. On AVX-512 CPUs (numpy's X86_V4 target) numpy
    2.4's float64 power loop is SVML's ``__svml_pow8_ha``, for arrays of any length (not for
    numpy scalars), which differs from glibc's ``pow`` by 1 ulp on about 5% of such numbers
    (seen on an AMD EPYC with AVX-512)."""
    import math

    rng = np.random.default_rng(0)
    xs = np.exp(rng.uniform(np.log(1e-4), 0.0, 20_000))
    return all(np.array_equal(xs ** p, np.array([math.pow(x, p) for x in xs.tolist()]))
               for p in (-0.5, -0.25, -0.75))
