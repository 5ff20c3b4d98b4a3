"""How the running numpy computes ``np.exp`` on float32 (its own vectorized algorithm or libm's
``expf``) and on float64 (Intel's SVML or libm's ``exp``: MyoSuite's leg tasks' rewards).

MyoSuite's muscle envs compute ``1.0 / (1.0 + np.exp(-5.0 * (a - 0.5)))`` on a float32 array
of muscle actions; under NumPy 2's promotion rules (NEP 50) the whole expression stays
float32. numpy 2.4 picks its float32 exp loop by CPU (``NPY_DISABLE_CPU_FEATURES`` can turn
targets off):

=================================  ===================================================
CPU target numpy dispatches to     float32 ``np.exp``
=================================  ===================================================
X86_V4 (AVX-512), X86_V3 (AVX2)    numpy's algorithm: Cody-Waite reduction, a ratio of
                                   two polynomials, scaling by 2**k (up to 2.52 ulps)
baseline, other architectures      libm's ``expf``, element by element
=================================  ===================================================

The two x86 targets give the same results (both fuse the same multiply-adds and scale with
one rounding); glibc's ``expf`` is correctly rounded on all but rare inputs. They differ on
about two in five inputs between -5 and 5, and on short arrays as on long ones (numpy runs the
same kernel on any length).

:func:`numpy_exp_f32_simd` asks the running numpy once per process on a few probes where the
two differ. :func:`native_keywords` turns the answer into the hidden keyword of the native
envs that reproduce the expression (``native/envs/common/numpy_exp.h``).
"""

from __future__ import annotations

import functools

import numpy as np

# (x, numpy's vectorized np.exp(np.float32(x))). On each probe that value is one ulp from the
# correctly rounded exp(x), np.float32(math.exp(x)), which glibc's expf gives.
_PROBES: tuple[tuple[float, str], ...] = (
    (-2.5, "0x1.50385ep-4"),
    (-1.25, "0x1.256182p-2"),
    (-1.0, "0x1.78b562p-2"),
    (-0.25, "0x1.8ebef8p-1"),
    (0.25, "0x1.48b5e6p+0"),
    (1.0, "0x1.5bf0aap+1"),
    (2.0, "0x1.d8e64ap+2"),
    (2.5, "0x1.85d6fcp+3"),
)


@functools.cache
def numpy_exp_f32_simd() -> bool:
    """Whether the running numpy computes float32 ``np.exp`` with its own vectorized algorithm
    (``True``) rather than libm's ``expf`` (``False``).

    Asked on the probes as one array and as single elements, the two ways the envs call it.
    """
    x = np.array([p for p, _ in _PROBES], dtype=np.float32)
    simd = np.array([float.fromhex(v) for _, v in _PROBES], dtype=np.float32)
    whole = np.exp(x)
    single = np.array([np.exp(x[i:i + 1])[0] for i in range(x.size)], dtype=np.float32)
    return bool(np.array_equal(whole, simd) and np.array_equal(single, simd))


# (x, SVML's np.exp(np.float64(x))): one ulp from the correctly rounded exp(x), which glibc's
# exp gives.
_PROBES_F64: tuple[tuple[float, str], ...] = (
    (-5.258, "0x1.55293fd82b0b0p-8"),
    (-4.225, "0x1.df3e3322a84a8p-7"),
    (-3.302, "0x1.2d8b104c1d578p-5"),
    (-2.651, "0x1.21191ec8a1deep-4"),
    (-2.52, "0x1.4990033a3652ep-4"),
    (-0.526, "0x1.2e92d8dd6f38fp-1"),
    (-0.07, "0x1.dd62b906fa24bp-1"),
    (0.45, "0x1.917ce84a993b4p+0"),
)


@functools.cache
def numpy_exp_f64_svml() -> bool:
    """Whether the running numpy computes float64 ``np.exp`` with SVML's ``__svml_exp8_ha``
    (``True``: x86-64 with AVX-512, numpy's AVX512_SKX target, and a numpy linked with SVML)
    rather than libm's ``exp`` (``False``). Asked as one array and as numpy scalars, the
    ways the envs call it."""
    x = np.array([p for p, _ in _PROBES_F64], dtype=np.float64)
    svml = np.array([float.fromhex(v) for _, v in _PROBES_F64], dtype=np.float64)
    whole = np.exp(x)
    single = np.array([np.exp(x[i]) for i in range(x.size)], dtype=np.float64)
    return bool(np.array_equal(whole, svml) and np.array_equal(single, svml))


def native_keywords() -> dict[str, bool]:
    """The native envs' hidden keywords: whether float32 ``np.exp`` follows numpy's vectorized
    algorithm (libm's ``expf`` where not), and whether float64 ``np.exp`` is SVML's (libm's
    ``exp`` where not)."""
    return {"_numpy_exp_simd": numpy_exp_f32_simd(),
            "_numpy_exp_f64_svml": numpy_exp_f64_svml()}
