"""The ``_over`` forms of check_agreement, check_inequality and check_rate (issue 29, held-out author 7): a domain
per declared setting, or a sweep built from a declared range, in one call — settings, combination, evidence and
span as check_over / check_mc_*_over make them, with no per-setting wrapper written by the author."""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

import theoryverify as tv

SHAPES = (tv.Over("n", 1, 4, integer=True), tv.Over("d", 1, 3, integer=True))
LAM = sp.Symbol("lam", nonnegative=True)


def variables(c):
    return tv.MatrixVar("X", (c["n"], c["d"])), tv.VectorVar("y", c["n"]), tv.VectorVar("w", c["d"])


def domain(c):
    return tv.Domain([*variables(c), tv.Interval(LAM, 0, 2)])


def gradient(X, y, w, n):  # ∇ (‖Xw − y‖²/(2n) + λ‖w‖²/2)
    return X.T * (X * w - y) / n + LAM * w


def numpy_gradient(v):
    return v["X"].T @ (v["X"] @ v["w"] - v["y"]) / v["n"] + v["lam"] * v["w"]


def printed(display):
    return lambda v: display(*(u.matrix for u in variables(v)), v["n"])


def test_agreement_over_builds_a_domain_per_setting_and_records_each():
    v = tv.check_agreement_over(SHAPES, printed(gradient), numpy_gradient, domain, seed=0, n=8)
    assert v.status is tv.Status.HOLDS, v.evidence
    ran = v.details["configurations"]
    assert {(c["n"], c["d"]) for c in ran} >= {(1, 1), (1, 3), (4, 1), (4, 3)}  # the corners
    assert v.details["configurations"] == tv.settings(SHAPES, 0, n=3, draws=2)  # the settings check_over makes


def test_agreement_over_refutes_at_the_setting_that_shows_the_error():
    no_n = lambda X, y, w, n: X.T * (X * w - y) + LAM * w  # the 1/n dropped: right only at n = 1
    v = tv.check_agreement_over(SHAPES, printed(no_n), numpy_gradient, domain, seed=0, n=8)
    assert v.status is tv.Status.REFUTED
    assert v.counterexample["part"].startswith("n=4")
    assert "settings_not_run" in v.details  # stopped at the first refuted setting, as check_over does


def test_agreement_over_names_a_clash_between_the_setting_and_its_domain():
    clash = lambda c: tv.Domain([tv.Interval(sp.Symbol("n"), 0, 1)])
    v = tv.check_agreement_over(SHAPES, lambda v: 0, lambda v: 0, clash, seed=0)
    assert v.status is tv.Status.ERROR and "both name n" in v.evidence
    v = tv.check_agreement_over(SHAPES, lambda v: 0, lambda v: 0, lambda c: 3, seed=0)
    assert v.status is tv.Status.ERROR and "tv.Domain" in v.evidence


def test_agreement_over_without_a_domain_compares_once_per_setting():
    over = [tv.Over("N", 1, 10 ** 6, scale="log", integer=True)]
    bits = lambda c: int(c["N"]).bit_length()
    v = tv.check_agreement_over(over, lambda c: math.floor(math.log2(c["N"])) + 1, bits, None, 0, rtol=0)
    assert v.status is tv.Status.HOLDS and len(v.details["configurations"]) == len(tv.settings(over, 0, n=3, draws=2))
    v = tv.check_agreement_over(over, lambda c: math.floor(math.log2(c["N"])), bits, None, 0, rtol=0,
                                names=("printed", "simulated"))
    assert v.status is tv.Status.REFUTED
    assert v.counterexample["printed"] == 0 and v.counterexample["simulated"] == 1 and v.counterexample["N"] == 1


def test_inequality_over_takes_sides_and_domain_per_setting():
    eta = sp.Symbol("eta", real=True)

    def sides(c, i):  # f(w − η∇f) ≤ f(w) − (η/2)‖∇f‖² for η ≤ 1/L, L = λ_max(XᵀX/n)
        X, y, w = (u.matrix for u in variables(c))
        f = lambda w: ((X * w - y).T * (X * w - y))[0] / (2 * c["n"])
        g = X.T * (X * w - y) / c["n"]
        return (f(w - eta * g), f(w) - eta / 2 * (g.T * g)[0])[i]

    def dom(ceiling):
        return lambda c: tv.Domain([*variables(c), tv.Within(eta, 0, ceiling / tv.lambda_max(
            variables(c)[0].matrix.T * variables(c)[0].matrix / c["n"]))])

    small = (tv.Over("n", 1, 3, integer=True), tv.Over("d", 1, 2, integer=True))
    v = tv.check_inequality_over(small, lambda c: sides(c, 0), "<=", lambda c: sides(c, 1), dom(1), 0, draws=0)
    assert v.status in (tv.Status.HOLDS, tv.Status.PROVED), v.evidence
    assert len(v.details["configurations"]) == len(tv.settings(small, 0, n=3, draws=0))
    v = tv.check_inequality_over(small, lambda c: sides(c, 0), "<=", lambda c: sides(c, 1), dom(3), 0, draws=0)
    assert v.status is tv.Status.REFUTED and v.counterexample["part"]


def test_inequality_over_keeps_a_sympy_value_as_a_value():
    x = sp.Symbol("x", real=True)  # a SymPy Symbol is callable in SymPy's sense: it must not be called
    v = tv.check_inequality_over([tv.Over("a", 1, 3)], x ** 2, ">=", 0, tv.Domain([tv.Interval(x, -2, 2)]), 0)
    assert v.status is tv.Status.PROVED, v.evidence
    v = tv.check_inequality_over([tv.Over("a", 1, 3)], lambda c: x ** 2, ">=", lambda c: c["a"] - 1,
                                 tv.Domain([tv.Interval(x, -2, 2)]), 0)
    assert v.status is tv.Status.REFUTED and v.counterexample["part"].startswith("a=3")


CALLS: list = []


def _steps(c):  # a count the sweep measures (module-level: the shared sweep's key reads its code)
    CALLS.append(c)
    return math.ceil(c["kappa"] / 2 * math.log(1 / c["epsilon"]))


def test_rate_over_builds_the_grid_and_the_printed_values_from_the_range():
    steps = _steps
    kappa, epsilon = sp.symbols("kappa epsilon", positive=True)
    K = tv.Over("kappa", 10, 1000, scale="log")
    from theoryverify.shared_sweeps import forget
    forget()
    CALLS.clear()
    v = tv.check_rate_over(K, steps, "printed", 0.1, 0, kappa / 2 * sp.log(1 / epsilon), n=6,
                           fixed={"epsilon": 1e-6}, held=["epsilon"], constant="printed", what="steps",
                           shared="test-over-steps")
    assert v.status is tv.Status.HOLDS, v.evidence
    sweep = v.details["sweep"]
    assert sweep["x"] == tv.grid(K, 6) and sweep["fixed"] == {"epsilon": 1e-6} and sweep["param"] == "kappa"
    assert all(c == {"kappa": x, "epsilon": 1e-6} for c, x in zip(CALLS, tv.grid(K, 6)))
    wrong = tv.check_rate_over(K, steps, "printed", 0.1, 0, kappa ** 2 / 2 * sp.log(1 / epsilon), n=6,
                               fixed={"epsilon": 1e-6}, constant="printed", shared="test-over-steps")
    assert wrong.status is tv.Status.REFUTED
    assert len(CALLS) == 6  # the shared sweep: the second claim reused every point
    by_function = tv.check_rate_over(K, steps, 1.0, 0.1, 0, lambda c: c["kappa"] / 2 * math.log(1e6),
                                     fixed={"epsilon": 1e-6}, constant="printed")
    assert by_function.status is tv.Status.HOLDS


def test_rate_over_refuses_a_parameter_both_swept_and_fixed():
    import pytest
    with pytest.raises(ValueError, match="both swept and fixed"):
        tv.check_rate_over(tv.Over("k", 1, 10), lambda c: 1.0, 0.0, 0.1, 0, fixed={"k": 2})
    with pytest.raises(TypeError, match="tv.Over"):
        tv.check_rate_over([tv.Over("k", 1, 10)], lambda c: 1.0, 0.0, 0.1, 0)


def test_a_passing_over_check_says_how_many_settings_once():
    """Author 9's D8: lem_grad's method read "each of 17 settings of the declared ranges 17 parts"."""
    v = tv.check_agreement_over(SHAPES, printed(gradient), numpy_gradient, domain, seed=0, n=8)
    count = len(v.details["configurations"])
    assert v.status is tv.Status.HOLDS and v.method == f"each of {count} settings of the declared ranges", v.method


def test_inequality_over_with_every_name_a_setting_needs_no_domain():
    """Author 9 (D2's aside): ``check_inequality_over`` with settings covering every name and ``domain=None`` was
    refused at every setting ("the domain must be a tv.Domain …, got NoneType").  Now the sides are compared at each
    setting (as check_agreement_over does with domain=None); a name no setting gives is that setting's error."""
    d, n, r, s, sigma = sp.symbols("d n r s sigma", positive=True)
    over = [tv.Over("d", 1, 50, integer=True), tv.Over("n", lo="d", hi="100*d", integer=True),
            tv.Over("s", 0.1, 10, scale="log"), tv.Over("r", 0.01, 10, scale="log"), tv.Over("sigma", 0.01, 10)]
    P = tv.printed(lambda d, n, r, s, sigma: (sigma**2 * d * r**2 / (n * s * r**2 + sigma**2 * d), sigma**2 * d / (n * s)))
    v = tv.check_inequality_over(over, P.lhs, "<=", P.rhs, None, 0)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert len(v.details["configurations"]) >= 2 ** 5  # every corner of the box at least
    planted = tv.printed(lambda d, n, r, s, sigma: (sigma**2 * d * r**2 / (n * s * r**2 + sigma**2 * d),
                                                  sigma**2 * d / (n * s**2)))  # s² on the right
    v = tv.check_inequality_over(over, planted.lhs, "<=", planted.rhs, None, 0)
    assert v.status is tv.Status.REFUTED and v.counterexample["lhs"] > v.counterexample["rhs"]
    v = tv.check_inequality_over(over[:1], lambda c: c["d"] * sp.Symbol("eta"), "<=", 1, None, 0)
    assert v.status is tv.Status.ERROR and "needs a domain" in v.evidence and "eta" in v.evidence, v.evidence


def test_inequality_over_without_a_domain_never_refutes_on_an_undefined_side():
    """A side that is nan at a setting (undefined there) leaves that setting undecided — before this mend
    ``domain=None`` read nan as a failed comparison and refuted."""
    import math

    over = [tv.Over("a", 0.1, 10)]
    assert tv.check_inequality_over(over, lambda c: math.nan, "<=", 1, None, 0).status is not tv.Status.REFUTED
    assert tv.check_inequality_over(over, lambda c: c["a"], "<=", 1, None, 0).status is tv.Status.REFUTED  # guard
