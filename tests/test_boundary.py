"""Inequality and identity search include the boundary of closed domains (endpoints, simplex vertices
and faces, box corners), and verdicts name the domain searched.  The planted statements fail only at or
next to the boundary, where interior sampling rarely lands."""
import sympy as sp

from theoryverify.checks import check_identity, check_inequality
from theoryverify.domains import Domain, Interval, LogUniform, Simplex
from theoryverify.verdicts import Status

x, y = sp.symbols("x y", real=True)
w = sp.symbols("w1:4", nonnegative=True)


def test_false_only_near_the_endpoint_is_refuted():
    # e^x <= 1 + x + x^2 is false on (1.79, 2]: found at the closed endpoint x = 2
    v = check_inequality(sp.exp(x), "<=", 1 + x + x**2, Domain([Interval(x, -30, 2)]), 1, n_float=20)
    assert v.status is Status.REFUTED and v.counterexample["x"] == 2.0


def test_an_open_end_is_not_searched_as_a_boundary_point():
    # x < 1 on [0, 1): the closed end would refute it, the open one must not
    open_end = check_inequality(x, "<", sp.Integer(1), Domain([Interval(x, 0, 1, closed=(True, False))]), 2,
                                n_float=0)
    assert open_end.status is not Status.REFUTED or open_end.counterexample["x"] < 1
    closed = check_inequality(x, "<", sp.Integer(1), Domain([Interval(x, 0, 1)]), 2, n_float=5)
    assert closed.status is Status.REFUTED and closed.counterexample["x"] == 1.0


def test_simplex_vertices_are_searched():
    # w1*w2*w3 + w1 >= 1e-3 fails only where w1 ≈ 0 — at the faces the strategy rarely reaches exactly
    v = check_inequality(w[0] + w[0] * w[1] * w[2], ">=", sp.Rational(1, 1000), Domain([Simplex(w)]), 3,
                         n_float=5, polish=0)
    assert v.status is Status.REFUTED and v.counterexample["w1"] == 0.0


def test_box_corner_is_searched():
    # x*y <= 3.9 on [-2, 2]^2 fails only near the corners (±2, ±2)
    dom = Domain([Interval(x, -2, 2), Interval(y, -2, 2)])
    v = check_inequality(x * y, "<=", sp.Float(3.9), dom, 4, n_float=3, polish=0)
    assert v.status is Status.REFUTED and abs(v.counterexample["x"]) == 2.0 == abs(v.counterexample["y"])


def test_identity_float_tier_checks_the_boundary():
    # |x| == x fails only for x < 0; the domain [-1e-9, 1] touches it only at its left end
    dom = Domain([Interval(x, -1e-3, 1)])
    v = check_identity(sp.Abs(x), x, dom, 5, try_symbolic=False, n_rational=0, n_float=1, rtol=1e-6)
    assert v.status is Status.REFUTED and v.counterexample["x"] == -1e-3


def test_verdict_names_the_domain_searched():
    dom = Domain([LogUniform(x, 1e-2, 10), Simplex(w)])
    v = check_inequality(w[0] * w[1], "<=", sp.Rational(1, 4) + x, dom, 6)
    assert v.status is Status.HOLDS
    assert "x ∈ [0.01, 10] (log-uniform)" in v.evidence and "simplex" in v.evidence
    assert v.details["boundary_points"] > 0 and v.details["domain"] == dom.describe()
