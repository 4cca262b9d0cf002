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
