"""Every check kind can fail: a planted error is refuted with a concrete counterexample."""
import numpy as np
import sympy as sp
from hypothesis import strategies as st

from theoryverify.checks import check_agreement, check_cases, check_identity, check_inequality
from theoryverify.domains import Domain, Interval, LogUniform, Simplex
from theoryverify.verdicts import Status

x, y, T = sp.symbols("x y T", real=True)
v = sp.symbols("w1:4", nonnegative=True)


def test_identity_proves_a_true_identity():
    verdict = check_identity((x + y) ** 2, x**2 + 2 * x * y + y**2, Domain([Interval(x, -3, 3), Interval(y, -3, 3)]), 1)
    assert verdict.status is Status.PROVED


def test_identity_refutes_a_wrong_coefficient_exactly():
    verdict = check_identity((x + y) ** 2, x**2 + 3 * x * y + y**2, Domain([Interval(x, -3, 3), Interval(y, -3, 3)]), 1)
    assert verdict.status is Status.REFUTED
    assert {"x", "y", "lhs", "rhs"} <= set(verdict.counterexample)


def test_identity_float_tier_refutes_without_symbolic_or_exact_help():
    dom = Domain([LogUniform(T, 1e-2, 10)])
    verdict = check_identity(sp.log(sp.exp(2 / T) + 1), sp.log(sp.exp(1 / T) + 1), dom, 3,
                             try_symbolic=False, n_rational=0)
    assert verdict.status is Status.REFUTED
    assert "T" in verdict.counterexample


def test_identity_on_the_simplex_uses_the_constraint():
    # w1 + w2 + w3 == 1 holds on the simplex (not symbolically): the exact/float tiers decide
    verdict = check_identity(sum(v), sp.Integer(1), Domain([Simplex(v)]), 5)
    assert verdict.status is Status.HOLDS
    planted = check_identity(sum(v), sp.Integer(1) + v[0] * v[1], Domain([Simplex(v)]), 5)
    assert planted.status is Status.REFUTED


def test_identity_with_undeclared_symbol_is_an_error_not_a_verdict():
    assert check_identity(x + y, y + x, Domain([Interval(x, 0, 1)]), 0).status is Status.ERROR


def test_inequality_holds_and_reports_min_slack():
    verdict = check_inequality(v[0] * v[1], "<=", sp.Rational(1, 4), Domain([Simplex(v)]), 2)
    assert verdict.status is Status.HOLDS
    assert verdict.details["min_slack"] >= -1e-12


def test_inequality_refutes_a_planted_wrong_bound():
    # AM-GM planted wrong: w1*w2 <= 1/5 fails near w1 = w2 = 1/2; the optimiser must find it
    verdict = check_inequality(v[0] * v[1], "<=", sp.Rational(1, 5), Domain([Simplex(v)]), 2)
    assert verdict.status is Status.REFUTED
    assert verdict.counterexample["lhs"] > verdict.counterexample["rhs"]


def test_inequality_strict_sign_planted():
    verdict = check_inequality(x**2, ">", sp.Integer(0), Domain([Interval(x, -1, 1)]), 4)
    assert verdict.status is Status.REFUTED  # x = 0 violates strictness


def test_agreement_refutes_a_planted_sign():
    good = check_agreement(lambda a: np.sin(a), lambda a: np.sin(a), st.floats(-3, 3), 7)
    bad = check_agreement(lambda a: np.sin(a), lambda a: -np.sin(a), st.floats(-3, 3), 7)
    assert good.status is Status.HOLDS
    assert bad.status is Status.REFUTED and "input" in bad.counterexample


def test_cases_refute_a_planted_index():
    cases = [(f"k={k}", k) for k in range(10)]
    assert check_cases(cases, lambda k: (k * k >= 0, {}), exhaustive=True).status is Status.PROVED
    bad = check_cases(cases, lambda k: (k != 7, {"k": k}), exhaustive=True)
    assert bad.status is Status.REFUTED and bad.counterexample["case"] == "k=7"


def test_time_limit_stops_runaway_symbolic_work():
    import time

    from theoryverify.timelimit import bounded

    start = time.monotonic()
    assert bounded(lambda: [i for i in iter(int, 1)], 0.3) is None  # would never end
    assert time.monotonic() - start < 2.0
