"""check_inequality where float64 rounding, not the statement, makes the slack negative (held-out author 8's D1,
session 45): a true descent-type inequality with an exact slack of 0 at large |w| was "inconclusive: float64
violation not confirmed at 50 digits" for the whole domain, because the first rounding point stopped the search."""
import sympy as sp

import theoryverify as tv
from theoryverify.checks.inequality import check_inequality

w, eta, c = sp.symbols("w eta c")
LHS = c * (w - eta * c * w) ** 2 / 2  # the loss c w²/2 after one gradient step ...
RHS = c * w**2 / 2 - eta * c**2 * w**2 + eta**2 * c**3 * w**2 / 2  # ... expanded by hand: equal, so ≤ holds
DOM = tv.Domain([tv.Interval(c, 1, 10), tv.Interval(w, -1e6, 1e6), tv.Interval(eta, 1e-3, 1e-1)])


def test_rounding_violations_are_re_evaluated_and_the_search_goes_on():
    v = check_inequality(LHS, "<=", RHS, DOM, seed=0, prove=False)
    assert v.status.value == "holds", v.evidence  # old code: inconclusive
    assert v.details["search_rounding"] > 0
    assert "re-evaluated at 50 digits: rounding, not violations" in v.evidence


def test_a_genuine_violation_beside_the_rounding_is_still_refuted():
    v = check_inequality(LHS, "<=", RHS - eta**3 * w**2, DOM, seed=0, prove=False)
    assert v.status.value == "refuted", v.evidence
    p = {k: sp.nsimplify(x) for k, x in v.counterexample.items() if k in ("c", "w", "eta")}
    assert (LHS - RHS + eta**3 * w**2).subs({sp.Symbol(k): x for k, x in p.items()}) > 0
