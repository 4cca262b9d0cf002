"""theoryverify.gaussian: Isserlis/Wick moments and E over a Gaussian of a polynomial, exactly, cross-checked
against sympy.stats; the check proves true identities (E[x⁴] = 3σ⁴, E[x xᵀ A x xᵀ] = 2ΣAΣ + tr(AΣ)Σ) and
refutes planted errors (a wrong coefficient, a missing pairing) with the exact value."""
import itertools
import math
import random

import pytest
import sympy as sp

from theoryverify.domains import Domain, Interval, LogUniform
from theoryverify.gaussian import (check_gaussian_expectation, expectation_by_sympy_stats, gaussian_expectation,
                                   isserlis_moment, pairings)
from theoryverify.verdicts import Status

x, y, z, w = sp.symbols("x y z w", real=True)
sigma = sp.Symbol("sigma", positive=True)
mu = sp.Symbol("mu", real=True)
C = sp.Matrix(4, 4, lambda i, j: sp.Symbol(f"c{min(i, j)}{max(i, j)}"))
C_SYMBOLS = sorted(C.free_symbols, key=str)
C_DOMAIN = Domain([Interval(s, -2, 2) for s in C_SYMBOLS])


def test_pairings_count_is_double_factorial():
    for k in range(0, 9):
        expected = math.prod(range(k - 1, 0, -2)) if k % 2 == 0 else 0
        assert sum(1 for _ in pairings(range(k))) == expected


def test_isserlis_four_distinct_and_repeated_indices():
    assert isserlis_moment(C, [0, 1, 2, 3]) == sp.expand(C[0, 1] * C[2, 3] + C[0, 2] * C[1, 3] + C[0, 3] * C[1, 2])
    assert isserlis_moment(C, [0, 0, 0, 0]) == 3 * C[0, 0] ** 2
    assert isserlis_moment(C, [0, 1, 2]) == 0


def test_stein_recursion_agrees_with_pairings_on_random_monomials():
    rnd = random.Random(0)
    cov = sp.Matrix([[3, 1, 0], [1, 2, -1], [0, -1, 4]])
    xs = (x, y, z)
    for _ in range(25):
        idx = [rnd.randrange(3) for _ in range(rnd.choice([2, 4, 6]))]
        monomial = sp.Mul(*[xs[i] for i in idx])
        assert gaussian_expectation(monomial, xs, None, cov) == isserlis_moment(cov, idx)


@pytest.mark.parametrize("expr", [x**4, x**6, x**3 + 2 * x**2 - x + 5, (x + 1) ** 4])
def test_univariate_moments_agree_with_sympy_stats(expr):
    ours = gaussian_expectation(expr, [x], [mu], sigma**2)
    theirs = expectation_by_sympy_stats(expr, [x], [mu], sigma**2)
    assert theirs is not None and sp.expand(ours - theirs) == 0


def test_bivariate_moment_agrees_with_sympy_stats_multivariate_normal():
    cov = sp.Matrix([[2, 1], [1, 3]])
    expr = x**2 * y**2 + x * y**3
    theirs = expectation_by_sympy_stats(expr, [x, y], None, cov)
    assert theirs is not None and gaussian_expectation(expr, [x, y], None, cov) == theirs


def test_fourth_moment_proved_and_wrong_coefficient_refuted():
    dom = Domain([LogUniform(sigma, 0.1, 10)])
    ok = check_gaussian_expectation(x**4, [x], 0, sigma**2, 3 * sigma**4, domain=dom, seed=1)
    assert ok.status is Status.PROVED and "Wick" in ok.method
    bad = check_gaussian_expectation(x**4, [x], 0, sigma**2, 2 * sigma**4, domain=dom, seed=1)
    assert bad.status is Status.REFUTED
    ce = bad.counterexample
    s = sp.Rational(ce["sigma"])
    assert ce["exact"] == 3 * s**4 and ce["claimed"] == 2 * s**4


def test_numeric_covariance_is_decided_exactly():
    assert check_gaussian_expectation(x**4, [x], 0, 2, 12).status is Status.PROVED
    bad = check_gaussian_expectation(x**4, [x], 0, 2, 8)
    assert bad.status is Status.REFUTED and bad.counterexample == {"exact": 12, "claimed": 8, "difference": 4}


def test_missing_pairing_is_refuted_and_the_full_sum_proved():
    expr = x * y * z * w
    full = C[0, 1] * C[2, 3] + C[0, 2] * C[1, 3] + C[0, 3] * C[1, 2]
    missing = C[0, 1] * C[2, 3] + C[0, 2] * C[1, 3]
    ok = check_gaussian_expectation(expr, [x, y, z, w], None, C, full, domain=C_DOMAIN, seed=2)
    assert ok.status is Status.PROVED
    bad = check_gaussian_expectation(expr, [x, y, z, w], None, C, missing, domain=C_DOMAIN, seed=2)
    assert bad.status is Status.REFUTED
    ce = {**bad.details.get("unused_settings", {}), **bad.counterexample}  # the diagonal is unused by both sides
    assert "c00" not in bad.counterexample  # the counterexample names what the two sides depend on
    point = {s: sp.Rational(ce[str(s)]) for s in C_SYMBOLS}
    assert ce["exact"] - ce["claimed"] == (C[0, 3] * C[1, 2]).xreplace(point) != 0


def test_nonzero_mean_third_moment():
    dom = Domain([Interval(mu, -2, 2), LogUniform(sigma, 0.1, 10)])
    ok = check_gaussian_expectation(x**3, [x], [mu], sigma**2, mu**3 + 3 * mu * sigma**2, domain=dom, seed=3)
    assert ok.status is Status.PROVED
    bad = check_gaussian_expectation(x**3, [x], [mu], sigma**2, mu**3 + mu * sigma**2, domain=dom, seed=3)
    assert bad.status is Status.REFUTED


def test_matrix_identity_fourth_moment_of_a_gaussian_vector():
    """E[x xᵀ A x xᵀ] = 2ΣAΣ + tr(AΣ)Σ for symmetric A; the planted version drops the 2."""
    a, b, c = sp.symbols("a b c", real=True)
    X, A, S = sp.Matrix([x, y]), sp.Matrix([[a, b], [b, c]]), sp.Matrix([[2, 1], [1, 3]])
    dom = Domain([Interval(s, -2, 2) for s in (a, b, c)])
    lhs = X * X.T * A * X * X.T
    ok = check_gaussian_expectation(lhs, [x, y], None, S, 2 * S * A * S + (A * S).trace() * S, domain=dom, seed=4)
    assert ok.status is Status.PROVED and "4 entries" in ok.evidence
    bad = check_gaussian_expectation(lhs, [x, y], None, S, S * A * S + (A * S).trace() * S, domain=dom, seed=4)
    assert bad.status is Status.REFUTED and "entry" in bad.counterexample


def test_monte_carlo_cross_check_agrees_with_the_exact_tier():
    dom = Domain([Interval(sigma, 0.5, 2)])
    v = check_gaussian_expectation(x**2 * (1 + x**2), [x], 0, sigma**2, sigma**2 + 3 * sigma**4, domain=dom, seed=5,
                                   mc_samples=100_000)
    assert v.status is Status.PROVED and "Monte Carlo" in v.method
    assert v.details["monte_carlo"]["status"] in ("holds", "inconclusive")
    assert v.details["monte_carlo"]["status"] == "holds"


@pytest.mark.parametrize("kwargs, text", [
    (dict(expr=sp.exp(x), cov=1, claimed=sp.exp(sp.Rational(1, 2))), "not one"),
    (dict(expr=x * y, variables=[x, y], cov=[[1, 2], [2, 1]], claimed=1), "positive semidefinite"),
    (dict(expr=x * y, variables=[x, y], cov=[[1, 0], [1, 1]], claimed=0), "not symmetric"),
    (dict(expr=x**2, cov=[[1, 0], [0, 1]], claimed=1), "shape"),
    (dict(expr=x**2, cov=sigma**2, claimed=sigma**2), "need a domain"),
    (dict(expr="x**2", cov=1, claimed=1), "SymPy"),
    (dict(expr=x**2, cov=1, claimed=x), "random variables"),
])
def test_bad_input_is_a_one_line_error(kwargs, text):
    args = {"variables": [x], "mean": 0, **kwargs}
    v = check_gaussian_expectation(args["expr"], args["variables"], args["mean"], args["cov"], args["claimed"])
    assert v.status is Status.ERROR and text in v.evidence and "\n" not in v.evidence


def test_input_errors_are_theoryverify_errors():
    from theoryverify.errors import TheoryverifyError

    with pytest.raises(TheoryverifyError):
        gaussian_expectation(sp.sin(x), [x], 0, 1)


def test_odd_moments_vanish_for_every_pairing_structure():
    cov = sp.Matrix([[1, sp.Rational(1, 3)], [sp.Rational(1, 3), 2]])
    for idx in itertools.product(range(2), repeat=3):
        assert isserlis_moment(cov, idx) == 0
