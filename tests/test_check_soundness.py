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
