"""constant="asymptotic": a printed constant of a limit statement (y ~ C·f(x)) is read near the limit and refuted
only when the limit excludes it (issue 29, item 5: heavy ball's k ≈ ½√κ·(log(1/ε) + log k) refuted as
"~ ½√κ·log(1/ε)" by the mean ratio over the grid)."""
from __future__ import annotations

import numpy as np

import theoryverify as tv

EPS = np.geomspace(1e-12, 1e-4, 6)
LOG = np.log(1 / EPS)


def _counts(kappa):
    """The iteration count with its lower-order transient: k = ½√κ·(log(1/ε) + log k)."""
    k = np.full(LOG.shape, 10.0)
    for _ in range(60):
        k = 0.5 * np.sqrt(kappa) * (LOG + np.log(k))
    return k, 0.5 * np.sqrt(kappa) * LOG


def _check(y, pred, constant="asymptotic"):
    return tv.check_rate(LOG, y, 1.0, 0.1, 0, pred, param="log(1/eps)", scale="log", constant=constant,
                         towards="inf")


def test_a_true_limit_with_a_transient_is_not_refuted():
    for kappa in (10.0, 100.0, 1e4):
        y, pred = _counts(kappa)
        if kappa == 100.0:
            assert _check(y, pred, "printed").status is tv.Status.REFUTED  # the mean-ratio reading refutes it
        v = _check(y, pred)
        assert v.status is tv.Status.INCONCLUSIVE, v.evidence


def test_a_wrong_asymptotic_constant_is_refuted():  # planted: the ½ dropped
    for kappa in (10.0, 100.0, 1e4):
        y, pred = _counts(kappa)
        v = _check(y, 2 * pred)
        assert v.status is tv.Status.REFUTED and v.details["fit"]["constant"]["declared"] == "asymptotic", v.evidence


def test_a_converged_constant_holds_and_towards_is_required():
    y = 0.5 * np.sqrt(100.0) * LOG * (1 + 0.01 / LOG)
    assert _check(y, 0.5 * np.sqrt(100.0) * LOG).status is tv.Status.HOLDS
    v = tv.check_rate(LOG, y, 1.0, 0.1, 0, y, constant="asymptotic")
    assert v.status is tv.Status.ERROR and "towards" in v.evidence


def test_a_trend_too_slow_to_close_the_gap_refutes_either_wrong_constant():
    """Issue 29, author 9, D1: B(λ) = (r²/s²)λ² measured as λ²/(1 + λ/2)² (the O(λ) correction moves
    measured/printed towards 1 as λ → 0). A printed constant 2x too large left the ratio at 0.5000 with a trend
    "heading towards 1" and stayed inconclusive (old code), even at λ ∈ [1e-7, 1e-4]; the trend's slopes shrink like
    λ, so it cannot close a factor 2: refuted, as the halved constant is; the true constant holds."""
    for lo, hi in [(1e-4, 1e-1), (1e-7, 1e-4)]:
        lam = np.geomspace(lo, hi, 6)
        y = lam**2 / (1 + lam / 2) ** 2
        for c in (2.0, 0.5):
            v = tv.check_rate(lam, y, 2.0, 0.05, 0, c * lam**2, param="lam", constant="asymptotic", towards="0")
            assert v.status is tv.Status.REFUTED, (lo, c, v.evidence)
        reach = v.details["fit"]["constant"]["trend"]
        v = tv.check_rate(lam, y, 2.0, 0.05, 0, 2.0 * lam**2, param="lam", constant="asymptotic", towards="0")
        assert "too slowly to reach it" in v.evidence and v.details["fit"]["constant"]["trend"]["reach"]["short"]
        assert tv.check_rate(lam, y, 2.0, 0.05, 0, lam**2, param="lam", constant="asymptotic",
                             towards="0").status is tv.Status.HOLDS
        assert reach is not None


def test_a_slow_power_correction_that_reaches_the_constant_stays_inconclusive():
    """The decay bound is no shortcut for a correction that does reach 1: r = 1 + 3·x^(-1/4) as x → ∞ (far from 1
    on the grid, slopes shrinking like x^(-1/4)) and the same with seeds stay inconclusive."""
    x = np.geomspace(1e2, 1e6, 6)
    y = x * (1 + 3 * x**-0.25)
    assert tv.check_rate(x, y, 1.0, 0.1, 0, x, constant="asymptotic", towards="inf").status is tv.Status.INCONCLUSIVE
    noisy = y[:, None] * (1 + 0.01 * np.random.default_rng(0).standard_normal((6, 4)))
    v = tv.check_rate(x, noisy, 1.0, 0.1, 0, x, constant="asymptotic", towards="inf")
    assert v.status is tv.Status.INCONCLUSIVE, v.evidence
