"""The shared numerics of the MyoChallenge opponents' noise against the packages themselves.

native/envs/common/numpy_fft.h restates numpy.fft.irfft (numpy 2's pocketfft, real backward
plan) and native/envs/common/pink_noise.h pink-noise-rl's powerlaw_psd_gaussian and
ColoredNoiseProcess on numpy's Generator; both must equal the packages bit for bit (Soccer's
goalkeeper draws (2, 10) buffers, ChaseTag's opponent (2, 2000) ones).

numpy's FFT is the same on every x86-64 CPU (its pocketfft extension is built for the
baseline only, without CPU dispatch), but pink's spectrum scale f ** (-beta / 2) is numpy's
float64 power: for beta = 2 (the envs') the reciprocal on every CPU; for other betas libm's
pow, or on AVX-512 CPUs SVML's (tests/numerics.py: power_matches_libm), which our C++ does
not restate (no env draws such noise).
"""

from __future__ import annotations

import numpy as np
import pytest
from numerics import power_matches_libm  # tests/numerics.py

from envpool import _native
from envpool.tasks._numpy_ziggurat import ziggurat_tables

pink = pytest.importorskip("pink")

# The lengths the MyoChallenge envs use (10, 2000), the radix kernels' small cases (2, 3, 4,
# 5 and their products) and a few odd and even mixes.
LENGTHS = [1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 20, 25, 30, 45, 60, 64, 100, 120, 375,
           1000, 2000]


def _native_irfft(spectrum: np.ndarray, n: int) -> np.ndarray:
    return np.asarray(_native._numpy_irfft(list(spectrum.real), list(spectrum.imag), n))


@pytest.mark.parametrize("n", LENGTHS)
def test_irfft_equals_numpy(n: int) -> None:
    rng = np.random.default_rng(n)
    for trial in range(20):
        # A spectrum of n//2 + 1 values, scaled as pink's are (1/f) or plain, and also
        # shorter and longer inputs (numpy zero-pads or ignores).
        m = n // 2 + 1 + (trial % 3 - 1 if trial >= 10 else 0)
        m = max(m, 1)
        spec = rng.standard_normal(m) + 1j * rng.standard_normal(m)
        if trial % 2:
            spec /= np.arange(1, m + 1)
        want = np.fft.irfft(spec, n=n)
        got = _native_irfft(spec, n)
        np.testing.assert_array_equal(got, want, err_msg=f"n={n} trial={trial}")


def test_irfft_batched_rows_equal_numpy() -> None:
    # numpy runs a (rows, nf) batch through pocketfft's vectorised c2r (rows in SIMD lanes);
    # pink calls irfft on (2, nf) arrays: the rows must equal the row-by-row transform.
    rng = np.random.default_rng(3)
    for n in (10, 2000):
        spec = rng.standard_normal((4, n // 2 + 1)) + 1j * rng.standard_normal((4, n // 2 + 1))
        want = np.fft.irfft(spec, n=n, axis=-1)
        for row in range(4):
            np.testing.assert_array_equal(_native_irfft(spec[row], n), want[row])


def test_irfft_rejects_unrestated_lengths() -> None:
    with pytest.raises(ValueError, match="2\\^a 3\\^b 5\\^c"):
        _native._numpy_irfft([1.0] * 4, [0.0] * 4, 7)


def _pink_samples(seed: int, beta: float, size: tuple[int, int], scale: float,
                  max_period: float | None, n_samples: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    noise = pink.ColoredNoiseProcess(beta=beta, size=size, scale=scale,
                                     max_period=max_period, rng=rng)
    out = [np.atleast_1d(noise.sample()) for _ in range(n_samples)]
    out.append(np.array([rng.uniform()]))
    return np.concatenate(out)


def _ours(seed: int, beta: float, size: tuple[int, int], scale: float,
          max_period: float | None, n_samples: int) -> np.ndarray:
    z = ziggurat_tables()
    return np.asarray(_native._pink_noise_samples(
        seed, beta, size[0], size[1], scale, -1.0 if max_period is None else max_period,
        n_samples, z["_ziggurat_ki"], z["_ziggurat_wi"], z["_ziggurat_fi"]))


@pytest.mark.parametrize(
    ("beta", "size", "scale", "max_period", "n_samples"),
    [
        (2, (2, 10), 3.7, None, 35),  # Soccer's goalkeeper: refills every 10 samples
        (2, (2, 2000), 10, None, 2001),  # ChaseTag's opponent
        (1, (3, 9), 1.0, None, 20),  # pink noise, odd length
        (2, (2, 16), 0.5, 4.0, 20),  # a low-frequency cutoff (ix > 1)
        (0.5, (1, 15), 2.0, None, 16),
    ],
)
def test_colored_noise_process_equals_pink(beta: float, size: tuple[int, int], scale: float,
                                           max_period: float | None, n_samples: int) -> None:
    # numpy's array ** p for these p is not pow's own loop (NumpyPowScalar in pink_noise.h).
    numpy_fast_power = -beta / 2 in (-1.0, 0.0, 0.5, 1.0, 2.0)
    bitwise = numpy_fast_power or power_matches_libm()
    for seed in (0, 1, 12345):
        want = _pink_samples(seed, beta, size, scale, max_period, n_samples)
        got = _ours(seed, beta, size, scale, max_period, n_samples)
        # The last value is the generator's next uniform: both consumed the same draws.
        assert got[-1] == want[-1], f"seed={seed}: the generators' next uniforms differ"
        if bitwise:
            np.testing.assert_array_equal(got, want, err_msg=f"seed={seed}")
        else:
            # numpy's SVML power and libm's pow differ by at most 1 ulp in each spectrum
            # scale; the noise is linear in them (normal draws times scale, the linear
            # irfft, a division by sigma, itself a sum of squares of the scales), so each
            # output moves by a few eps times the buffers' magnitude: measured at most
            # 1.7 eps * max|noise| (betas 0.5, 1, 1.5; lengths 9 .. 2000; six seeds each)
            # on an AMD EPYC with AVX-512. Bound: 8 eps * max|noise|.
            bound = 8 * np.finfo(np.float64).eps * np.abs(want[:-1]).max()
            np.testing.assert_allclose(got[:-1], want[:-1], rtol=0, atol=bound,
                                       err_msg=f"seed={seed}")
