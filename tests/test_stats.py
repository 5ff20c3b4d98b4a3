"""The statistics helpers of tests/stats.py against textbook values."""

from __future__ import annotations

import numpy as np
import pytest
from stats import chi2_sf, kolmogorov_sf, ks_2samp


def test_chi2_sf_matches_known_quantiles() -> None:
    # Textbook upper quantiles: P(chi2_df > q) = alpha.
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-6)
    assert chi2_sf(13.815510557964274, 2) == pytest.approx(0.001, rel=1e-6)
    assert chi2_sf(124.34211340400407, 100) == pytest.approx(0.05, rel=1e-6)
    assert chi2_sf(2.0, 10) == pytest.approx(0.9963401531726563, rel=1e-6)


def test_kolmogorov_sf_matches_known_quantiles() -> None:
    # Upper quantiles of the Kolmogorov distribution: P(K > 1.3581) = 0.05, P(K > 1.9495)
    # = 0.001, P(K > 1.2238) = 0.10.
    assert kolmogorov_sf(1.3581) == pytest.approx(0.05, abs=2e-4)
    assert kolmogorov_sf(1.9495) == pytest.approx(0.001, abs=2e-5)
    assert kolmogorov_sf(1.2238) == pytest.approx(0.10, abs=3e-4)


def test_ks_2samp() -> None:
    assert ks_2samp(np.arange(10.0), np.arange(10.0)) == (0.0, 1.0)
    d, p = ks_2samp(np.arange(100.0), np.arange(100.0) + 1000)  # disjoint: D = 1
    assert d == 1.0 and p < 1e-20
    rng = np.random.default_rng(0)
    _, p_same = ks_2samp(rng.uniform(size=2000), rng.uniform(size=2000))
    _, p_shift = ks_2samp(rng.uniform(size=2000), rng.uniform(size=2000) * 1.1)
    assert p_same > 0.01 and p_shift < 1e-6
