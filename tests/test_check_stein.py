"""Stein-type identities with an unspecified function (``f: function``) inside ``E(...)``: checked on the stated
test-function family (issue 26, item 6).  The true identities hold on the family and are never "proved" for
every f; planted errors (a coefficient, a sign, a derivative order) are refuted with the test function named."""
from __future__ import annotations

import pytest

from theoryverify.check import check
from theoryverify.verdicts import Status

NORMAL = ["X ~ Normal(0, s)", "s > 0", "f: function"]
STEIN = "E(X*f(X)) == s**2*E(diff(f(X), X))"


def test_gaussian_stein_identity_holds_on_the_family_not_proved():
    v = check(STEIN, assume=NORMAL)
    assert v.status is Status.HOLDS, v.line()
    assert "test-function family" in v.verdict.method and "not a proof for every smooth f" in v.verdict.evidence
    assert "f(t) = exp(t)" in v.verdict.evidence and "f(t) = sin(t)" in v.verdict.evidence
    assert v.exit_code == 0


@pytest.mark.parametrize("statement,why", [
    ("E(X*f(X)) == s*E(diff(f(X), X))", "coefficient s instead of s**2"),
    ("E(X*f(X)) == -s**2*E(diff(f(X), X))", "sign"),
    ("E(X*f(X)) == s**2*E(diff(f(X), X, 2))", "second derivative instead of the first"),
    ("E(X*f(X)) == s**2*E(diff(f(X), X)) + E(diff(f(X), X, 2))", "an extra term zero for linear f"),
])
def test_planted_errors_are_refuted_naming_the_test_function(statement, why):
    v = check(statement, assume=NORMAL)
    assert v.status is Status.REFUTED, (why, v.line())
    assert "f(t)" in v.counterexample, v.counterexample
    assert f"f(t) = {v.counterexample['f(t)']}" in v.verdict.evidence


def test_an_extra_term_is_refuted_by_a_later_member():
    v = check("E(X*f(X)) == s**2*E(diff(f(X), X)) + E(diff(f(X), X, 2))", assume=NORMAL)
    assert v.counterexample["f(t)"] != "t"  # f(t) = t passes (its second derivative is 0): a later member fails


def test_nonzero_mean_and_numeric_variance():
    assert check("E((X - mu)*f(X)) == s**2*E(diff(f(X), X))",
                 assume=["X ~ Normal(mu, s)", "s > 0", "f: function"]).status is Status.HOLDS
    assert check("E(X*f(X)) == 4*E(diff(f(X), X))", assume=["X ~ Normal(0, 2)", "f: function"]).status \
        is Status.HOLDS
    bad = check("E(X*f(X)) == 41/10*E(diff(f(X), X))", assume=["X ~ Normal(0, 2)", "f: function"])
    assert bad.status is Status.REFUTED and bad.counterexample["f(t)"] == "t"


def test_multivariate_stein_identity():
    a = ["X ~ Normal(0, s)", "Y ~ Normal(0, s)", "s > 0", "f: function"]
    assert check("E(X*f(X, Y)) == s**2*E(diff(f(X, Y), X))", assume=a).status is Status.HOLDS
    wrong = check("E(X*f(X, Y)) == s**2*E(diff(f(X, Y), Y))", assume=a)  # the derivative in the wrong variable
    assert wrong.status is Status.REFUTED and "f(t)" in wrong.counterexample


def test_poisson_stein_chen_identity():
    a = ["N ~ Poisson(lam)", "lam > 0", "f: function"]
    assert check("E(N*f(N)) == lam*E(f(N + 1))", assume=a).status is Status.HOLDS
    assert check("E(N*f(N)) == lam*E(f(N))", assume=a).status is Status.REFUTED


def test_rademacher_variant():
    a = ["r ~ Rademacher", "f: function"]
    # a finite law is summed exactly: a proof for every f
    assert check("E(r*f(r)) == (f(1) - f(-1))/2", assume=a).status is Status.PROVED
    assert check("E(r*f(r)) == f(1) - f(-1)", assume=a).status is Status.REFUTED
    # the Gaussian Stein identity is false for a Rademacher variable: a cubic test function shows it
    v = check("E(r*f(r)) == E(diff(f(r), r))", assume=a)
    assert v.status is Status.REFUTED and v.counterexample["f(t)"] == "t**3 - 2*t"


def test_uniform_law_is_not_gaussian():
    v = check("E(X*f(X)) == E(diff(f(X), X))/3", assume=["X ~ Uniform(-1, 1)", "f: function"])
    assert v.status is Status.REFUTED  # true for f(t) = t only


def test_tex_policy_keeps_a_family_pass_inconclusive():
    from theoryverify.check.tex.policy import Caveats, positive
    status, reason = positive("holds", "test-function family (9 functions)", Caveats(functions=["f"]))
    assert status == "inconclusive" and "no proof for every function" in reason


def test_jensen_on_the_family_and_its_planted_reversal():
    a = ["X ~ Normal(0, 1)", "f: function"]
    assert check("E(f(X))**2 <= E(f(X)**2)", assume=a).status is Status.HOLDS
    v = check("E(f(X)**2) <= E(f(X))**2", assume=a)
    assert v.status is Status.REFUTED and v.counterexample["f(t)"] == "t"


@pytest.mark.parametrize("statement,status", [
    ("E(X*exp(X)) == s**2*exp(s**2/2)", Status.PROVED),  # a derivative of the MGF
    ("E(X*exp(X)) == s*exp(s**2/2)", Status.REFUTED),
    ("E(sin(X)**2) == (1 - exp(-2*s**2))/2", Status.PROVED),  # Euler: the MGF at an imaginary argument
    ("E(sin(X)**2) == (1 - exp(-s**2))/2", Status.REFUTED),
])
def test_closed_forms_behind_the_family(statement, status):
    v = check(statement, assume=["X ~ Normal(0, s)", "s > 0"])
    assert v.status is status, v.line()
