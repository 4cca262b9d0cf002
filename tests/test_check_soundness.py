"""Soundness defects of the step checker found by users: each planted false statement is refuted and each
true one is not (see README "Checking one derivation step")."""
from __future__ import annotations

import pytest

from theoryverify.check import check
from theoryverify.verdicts import Status

NOT_REFUTED = (Status.PROVED, Status.HOLDS)


# --- 1. matrix and vector entries are searched like scalars ----------------------------------------------

@pytest.mark.parametrize("statement,assume", [
    ("trace(W @ W.T) <= 100", ["W: matrix(2, 2)"]),
    ("norm(x) <= 6", ["x: vector(3)"]),
    ("det(W) <= 1000", ["W: matrix(2, 2)"]),
    ("x.T @ A @ x >= 0", ["x: vector(2)", "A: symmetric(2)"]),
])
def test_entries_searched_over_many_decades_refute(statement, assume):
    v = check(statement, assume=assume)
    assert v.status is Status.REFUTED, v.line()
    assert "1e-6…1e6" in v.domain


@pytest.mark.parametrize("statement,assume", [
    ("trace(W @ W.T) >= 0", ["W: matrix(2, 2)"]),
    ("norm(x)**2 == x.T @ x", ["x: vector(3)"]),
    ("det(W.T @ W) == det(W)**2", ["W: matrix(2, 2)"]),
    ("det(W.T @ W) == det(W)**2", ["W: matrix(3, 3)"]),
    ("Abs(x.T @ y) <= norm(x)*norm(y)", ["x: vector(3)", "y: vector(3)"]),
    ("trace(W @ W.T) >= 2*Abs(det(W))", ["W: matrix(2, 2)"]),
])
def test_true_matrix_statements_still_pass(statement, assume):
    v = check(statement, assume=assume)
    assert v.status in NOT_REFUTED, v.line()


# --- 2. integer counterexamples are the first failing value; long values print short; indices from 1 -------

def test_integer_counterexample_is_the_first_failing_value():
    v = check("2**n >= n**2", assume=["n: integer", "n >= 0"])
    assert v.status is Status.REFUTED and v.counterexample == {"n": 3}, v.line()


def test_failure_beyond_the_small_values_moves_to_the_first_failing_one():
    v = check("Sum(k, (k, 1, n)) <= 100")  # n = 20 fails first in the enumeration; 14 is the first failing n
    assert v.status is Status.REFUTED and v.counterexample == {"n": 14}, v.line()
    v = check("n**2 <= 400 + x", assume=["n: integer", "0 < x < 1"])
    assert v.status is Status.REFUTED and v.counterexample["n"] == 21, v.line()


def test_long_exact_values_print_as_short_decimals_and_stay_exact_in_json():
    v = check("2**70/3 <= 1")
    assert v.status is Status.REFUTED
    assert "1180591620717411303424/3" not in v.line() and "3.935305402e+20" in v.line()
    assert v.to_json()["lhs_value"] == "1180591620717411303424/3"


def test_matrix_entries_are_named_from_one():
    v = check("W @ W == W.T @ W", assume=["W: matrix(2, 2)"])
    assert v.status is Status.REFUTED
    assert v.counterexample["entry"] == "[1, 1]" and "[0, 0]" not in v.line(), v.line()
    v = check("W @ x == x", assume=["W: matrix(2, 2)", "x: vector(2)"])
    assert v.status is Status.REFUTED and v.counterexample["entry"] in ("[1]", "[2]"), v.line()


# --- 3. assumptions relating a name to an expression ----------------------------------------------------

STEP = ["eta <= 1/L", "L > 0", "eta > 0"]


def test_step_true_only_under_the_relation_holds():
    v = check("eta*L <= 1", assume=STEP)
    assert v.status in NOT_REFUTED, v.line()
    assert "eta ≤ 1/L" in v.domain
    v = check("eta*L <= 1", assume=[*STEP, "eta*mu <= 1"])
    assert v.status in NOT_REFUTED, v.line()
    v = check("eta*mu <= 1", assume=[*STEP, "eta*mu <= 1"])
    assert v.status in NOT_REFUTED, v.line()


def _satisfies(ce, texts):
    from fractions import Fraction
    L, eta = Fraction(str(ce["L"])), Fraction(str(ce["eta"]))
    return L > 0 and eta > 0 and eta <= 1 / L


@pytest.mark.parametrize("statement", ["eta*L <= 1/2", "eta*L < 1"])
def test_false_step_refuted_with_a_counterexample_inside_the_assumptions(statement):
    v = check(statement, assume=STEP)
    assert v.status is Status.REFUTED, v.line()
    assert _satisfies(v.counterexample, STEP), v.line()


def test_relation_that_cannot_be_solved_is_refused_with_a_hint():
    v = check("x <= 1", assume=["x**2 + y**2 <= 1"])
    assert v.bad_input and v.exit_code == 2 and "name <= expression" in v.verdict.evidence


CHAIN = ["0.01 <= L <= 100", "L/10000 <= mu", "mu <= lam", "lam <= L", "eta > 0"]


def test_a_satisfiable_chain_of_bounds_is_no_cycle():
    """issue 29: mu <= lam <= L with L/10000 <= mu was called a cycle (mu's bound on L closed a loop with the order
    relations); it is solved for L instead.  Planted: the step bound 2/L is refuted inside the assumptions."""
    ok = check("Abs(1 - eta*lam) <= 1 - eta*mu", assume=CHAIN + ["eta <= 1/L"])
    assert ok.status in NOT_REFUTED and not ok.bad_input, ok.line()
    bad = check("Abs(1 - eta*lam) <= 1 - eta*mu", assume=CHAIN + ["eta <= 2/L"])
    assert bad.status is Status.REFUTED, bad.line()
    from fractions import Fraction
    L, mu, lam, eta = (Fraction(str(bad.counterexample[n])) for n in ("L", "mu", "lam", "eta"))
    assert Fraction(1, 100) <= L <= 100 and L / 10000 <= mu <= lam <= L and 0 < eta <= 2 / L, bad.line()


def test_a_real_cycle_names_its_relations_in_a_bad_input_verdict():
    v = check("a <= 1", assume=["a <= b", "b <= c", "c <= a"])
    assert v.bad_input and v.exit_code == 2, v.line()
    assert "form a cycle" in v.verdict.evidence and "a <= b, b <= c, c <= a" in v.verdict.evidence, v.line()


# --- 5. declarations: Gaussian vectors, the identity, subs of a vector, Rademacher without parentheses ---

@pytest.mark.parametrize("statement,assume,refutes", [
    ("E(x.T @ x) == 3", ["x ~ Normal(0, I_3)"], False),
    ("E(x.T @ x) == 2", ["x ~ Normal(0, I_3)"], True),
    ("E(x @ x.T) == I", ["x ~ Normal(0, I)", "I: identity(2)"], False),
    ("E((w.T @ x)**2) == norm(w)**2", ["x ~ Normal(0, I_3)", "w: vector(3)"], False),
    ("E((w.T @ x)**2) == 2*norm(w)**2", ["x ~ Normal(0, I_3)", "w: vector(3)"], True),
    ("W @ I == W", ["W: matrix(3, 3)", "I: identity(3)"], False),
    ("W @ I_2 == W", ["W: matrix(2, 2)"], False),
    ("W @ I_2 == W.T", ["W: matrix(2, 2)"], True),
    ("subs(norm(w)**2 + a, w, 0) == a", ["w: vector(3)"], False),
    ("subs(norm(w)**2 + a, w, 1) == a", ["w: vector(3)"], True),
    ("E(y**2) == 1", ["y ~ Rademacher"], False),
    ("E(y) == 1", ["y ~ Rademacher"], True),
])
def test_declarations(statement, assume, refutes):
    v = check(statement, assume=assume)
    assert (v.status is Status.REFUTED) if refutes else (v.status in NOT_REFUTED), v.line()


def test_symbolic_dimension_is_refused_with_how_to_give_a_size():
    v = check("E(x.T @ x) == d", assume=["x ~ Normal(0, I_d)", "d: integer"])
    assert v.bad_input and "concrete number: write I_3" in v.verdict.evidence


# --- 6. H(p) in the plain parser -----------------------------------------------------------------------

def test_undeclared_call_is_a_clear_error_not_a_product():
    v = check("H(p) == H*p")
    assert v.exit_code == 2 and "H(…) is not a known function: declare it (H: function) or write H*(…)" in v.line()
    assert check("H(p) == H(p)", assume=["H: function"]).status is Status.PROVED


# --- 4. expectations without a closed form: quadrature with a stated error; sign splits ------------------

def test_expectation_without_closed_form_by_quadrature():
    v = check("E(tanh(X)**2) <= 1", assume=["X ~ Normal(0, 1)"])
    assert v.status is Status.HOLDS and "numerical quadrature" in v.verdict.evidence, v.line()
    v = check("E(tanh(X)**2) == 1/2", assume=["X ~ Normal(0, 1)"])
    assert v.status is Status.REFUTED and "error ≤" in v.verdict.evidence, v.line()


def test_relu_of_a_parameter_of_unknown_sign_is_split():
    assert check("E(relu(w*X)) == Abs(w)/sqrt(2*pi)", assume=["X ~ Normal(0, 1)"]).status in NOT_REFUTED
    v = check("E(relu(w*X)) == w/sqrt(2*pi)", assume=["X ~ Normal(0, 1)"])
    assert v.status is Status.REFUTED and v.counterexample["w"] < 0, v.line()
