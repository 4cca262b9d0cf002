"""Counterexamples name what the statement depends on, and open ends are searched near, not at, subnormal floats
(issue 29, defect 10)."""
from __future__ import annotations

import sympy as sp

import theoryverify as tv
from theoryverify.checks.search import hypotheses

b, eta, x = sp.symbols("b eta x", positive=True)
DOMAIN = tv.Domain([tv.Interval(b, 0, 1, closed=(False, True)), tv.Interval(eta, 0, 1), tv.Interval(x, -2, 2)])


def test_a_variable_neither_side_contains_is_moved_out_of_the_counterexample():
    v = tv.check_identity((x + 1)**2, x**2 + 1, DOMAIN, seed=0)
    assert v.status is tv.Status.REFUTED and "x" in v.counterexample
    assert "eta" not in v.counterexample and "b" not in v.counterexample
    assert set(v.details["unused_settings"]) == {"b", "eta"}
    assert "eta =" not in v.evidence


def test_every_variable_a_side_contains_is_kept():  # planted: the filter must not drop what the display uses
    v = tv.check_inequality(b + eta * x, ">=", 3, DOMAIN, seed=0)
    assert v.status is tv.Status.REFUTED and {"b", "eta", "x"} <= set(v.counterexample)
    assert "unused_settings" not in (v.details or {})


def test_a_variable_the_hypotheses_read_is_kept():
    cond = tv.Condition("eta <= 1", lambda c: c["eta"] <= 1, ("eta",))
    with hypotheses([cond]):
        v = tv.check_identity((x + 1)**2, x**2 + 1, DOMAIN, seed=0)
    assert "eta" in v.counterexample and "b" not in v.counterexample


def test_an_open_end_is_searched_near_it_never_at_a_subnormal_float():
    v = tv.check_inequality(1 + 0 * b, ">=", 0, DOMAIN, seed=0)  # not proved: searched
    low = v.details["coverage"]["b"]["min"]
    assert 1e-10 < low <= 1e-6, low
    bad = tv.check_inequality(b, ">=", sp.Rational(1, 10**6), DOMAIN, seed=0)
    assert bad.status is tv.Status.REFUTED and 0 < float(bad.counterexample["b"]) < 1e-6


def test_a_variable_tied_by_the_domains_relations_is_kept():
    L, lam = sp.symbols("L lambda", positive=True)
    d = tv.Domain.assuming({"L": L, "eta": eta, "lam": lam}, ["1 <= L <= 10", "0 < lam <= L", "0 < eta <= 2/L"])
    v = tv.check_inequality(sp.Abs(1 - eta * lam), "<=", 1 - eta * lam / 100, d, seed=0)
    assert v.status is tv.Status.REFUTED and {"L", "eta", "lambda"} <= set(v.counterexample), v.counterexample
    assert "first found" not in v.evidence or "L = " in v.evidence, v.evidence


def test_a_relation_that_uses_no_drawn_name_never_prints_an_empty_point():
    """1/3 < 1/3 + 0·x fails everywhere: the shrunk evidence names no point rather than "first found at " (the
    icrecall quick report had printed that once the unused names left the counterexample)."""
    v = tv.check_inequality(sp.Rational(1, 3) + 0 * x, "<", sp.Rational(1, 3), DOMAIN, seed=0)
    assert v.status is tv.Status.REFUTED
    assert "first found at )" not in v.evidence and not v.evidence.rstrip().endswith("at")
