"""check_identity's float64 tier on real-valued expressions with complex intermediates (the moduli of complex
eigenvalues, |1 + i·√(2 − z)|): they are evaluated in complex128 where real arithmetic gives nan, and a point that
still does not count is reported with the reason (issue 29, item 2: "0 float64 points", no reason)."""
from __future__ import annotations

import sympy as sp

import theoryverify as tv

z = sp.Symbol("z", real=True)
DOMAIN = tv.Domain([tv.Interval(z, 0, 1.5)])
MODULUS = sp.Abs(1 + sp.sqrt(z - 2))  # = √(3 − z) on [0, 1.5]


def _float_tier(rhs):
    return tv.check_identity(MODULUS, rhs, DOMAIN, 0, n_rational=0, n_float=60, try_symbolic=False)


def test_a_true_modulus_identity_has_float_points():
    v = _float_tier(sp.sqrt(3 - z))
    assert v.status is tv.Status.HOLDS and v.details["float_points"] > 0, v.evidence


def test_a_planted_wrong_modulus_is_refuted_in_the_float_tier():
    assert _float_tier(sp.sqrt(3 - z) * (1 + z / 100)).status is tv.Status.REFUTED


def test_points_that_do_not_count_say_why():
    v = tv.check_identity(sp.log(z - 1), sp.log(z - 1), tv.Domain([tv.Interval(z, 0, 3)]), 0, n_rational=3,
                          n_float=40, try_symbolic=False)  # log of a negative number below z = 1: not real
    assert "not counted" in v.evidence and "complex value" in v.evidence, v.evidence
