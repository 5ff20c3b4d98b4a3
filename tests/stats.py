"""Statistical tests for the alignment tests (no scipy in the test environment): chi-square
goodness of fit and homogeneity, a binomial z-test, and the two-sample Kolmogorov-Smirnov
test. Their own checks against textbook values are in tests/test_stats.py."""

from __future__ import annotations

import math

import numpy as np


def _gammaincc(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) (Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P(a, x)
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    b = x + 1 - a  # continued fraction for Q(a, x) (modified Lentz)
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def chi2_sf(stat: float, df: int) -> float:
    return _gammaincc(df / 2, stat / 2)


def goodness_of_fit(counts: np.ndarray, probs: np.ndarray) -> float:
    """p-value of a chi-square goodness-of-fit test of counts against probs."""
    counts = np.asarray(counts, dtype=float)
    expected = counts.sum() * np.asarray(probs, dtype=float)
    assert (expected >= 5).all(), f"expected counts too small for chi-square: {expected}"
    stat = float(((counts - expected) ** 2 / expected).sum())
    return chi2_sf(stat, len(counts) - 1)


def homogeneity(table: np.ndarray) -> float:
    """p-value of a chi-square test that the rows of a contingency table share
    one distribution."""
    table = np.asarray(table, dtype=float)
    table = table[:, table.sum(axis=0) > 0]
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    assert (expected >= 5).all(), f"expected counts too small for chi-square: {expected}"
    stat = float(((table - expected) ** 2 / expected).sum())
    return chi2_sf(stat, (table.shape[0] - 1) * (table.shape[1] - 1))


def binomial_p(successes: int, n: int, p: float) -> float:
    """Two-sided p-value of a binomial count (normal approximation, n p (1-p) >> 1)."""
    assert n * p * (1 - p) > 25
    z = (successes - n * p) / math.sqrt(n * p * (1 - p))
    return math.erfc(abs(z) / math.sqrt(2))


def ks_2samp(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Two-sample Kolmogorov-Smirnov test: (D, asymptotic two-sided p-value).

    D is the largest distance between the two empirical CDFs (ties handled by evaluating
    both CDFs after every distinct value); the p-value is the Kolmogorov distribution's
    tail at ``(sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * D`` with ``ne = n m / (n + m)``
    (Numerical Recipes 14.3), good for n, m of a few dozen and more.
    """
    a = np.sort(np.asarray(a, dtype=float))
    b = np.sort(np.asarray(b, dtype=float))
    grid = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, grid, side="right") / len(a)
    cdf_b = np.searchsorted(b, grid, side="right") / len(b)
    d = float(np.max(np.abs(cdf_a - cdf_b)))
    ne = len(a) * len(b) / (len(a) + len(b))
    lam = (math.sqrt(ne) + 0.12 + 0.11 / math.sqrt(ne)) * d
    return d, kolmogorov_sf(lam)


def kolmogorov_sf(lam: float) -> float:
    """P(K > lam) for the Kolmogorov distribution: 2 sum_k (-1)^(k-1) exp(-2 k^2 lam^2)."""
    if lam < 0.2:
        return 1.0
    total = sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return float(min(1.0, max(0.0, 2 * total)))
