"""theoryverify.domains.IntegerRange, MatrixVar and VectorVar: integer symbols (small integers are tried first,
exact values are integers) and matrices/vectors of entry symbols (drawn as arrays that shrink towards zeros and
small integers), used by check_identity and check_inequality.  Planted errors: a sum formula that fails only at
n = 1 is refuted at n = 1; an inequality that fails only at n = 3 is refuted at n = 3; a matrix identity with one
wrong entry is refuted with a small-valued counterexample."""
import random

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings

from theoryverify.checks import check_identity, check_inequality
from theoryverify.checks.search import search
from theoryverify.domains import Domain, DomainError, IntegerRange, Interval, MatrixVar, VectorVar
from theoryverify.verdicts import Status

n, k = sp.symbols("n k", integer=True)
N_DOMAIN = Domain([IntegerRange(n, 1, 50)])


# ------------------------------------------------------------------------------------------- integers


def test_integer_range_tries_the_smallest_values_and_the_top_first():
    var = IntegerRange(n, 1, 50)
    rnd = random.Random(0)
    first = [var.rationals(rnd)[0] for _ in range(4)]
    assert first == [1, 2, 3, 50]
    later = [var.rationals(rnd)[0] for _ in range(200)]
    assert all(isinstance(v, sp.Integer) and 1 <= v <= 50 for v in later)
    assert sum(int(v) <= 5 for v in later) > 60  # biased towards the small end
    assert var.boundary_values() == [(1.0,), (2.0,), (3.0,), (50.0,)]
    assert "integers" in var.describe() and var.center() == (25.0,)


@settings(max_examples=50, deadline=None)
@given(IntegerRange(n, -3, 7).floats())
def test_integer_float_draws_are_integers_in_range(x):
    assert float(x[0]).is_integer() and -3 <= x[0] <= 7


def test_integer_free_coordinates_round_trip():
    var = IntegerRange(n, 2, 9)
    for v in range(2, 10):
        assert var.from_free(var.to_free([float(v)])) == (float(v),)
    assert all(2 <= var.from_free(np.array([z]))[0] <= 9 for z in (-50.0, 0.0, 50.0))


def test_sum_formula_that_fails_only_at_n_1_is_refuted_at_n_1():
    # Σ_{k=1}^{n} max(k − 3, 0) = (n − 3)(n − 2)/2 holds for n ≥ 2 only: at n = 1 the sum is 0, the formula 1
    lhs = sp.Sum(sp.Max(k - 3, 0), (k, 1, n))
    v = check_identity(lhs, (n - 3) * (n - 2) / 2, N_DOMAIN, seed=1)
    assert v.status is Status.REFUTED and v.counterexample["n"] == 1
    ok = check_identity(lhs, (n - 3) * (n - 2) / 2, Domain([IntegerRange(n, 2, 50)]), seed=1)
    assert ok.holds, ok.evidence


def test_true_sum_formula_is_proved():
    assert check_identity(sp.Sum(k, (k, 1, n)), n * (n + 1) / 2, N_DOMAIN, seed=1).holds


def test_identity_true_on_integers_only_holds_on_integers_and_is_refuted_on_reals():
    lhs, rhs = sp.floor(n / 2) + sp.floor((n + 1) / 2), n
    assert check_identity(lhs, rhs, N_DOMAIN, seed=1).status is Status.HOLDS
    assert check_identity(lhs, rhs, Domain([Interval(n, 1, 50)]), seed=1).status is Status.REFUTED


def test_inequality_that_fails_only_at_n_3_is_refuted_there():
    # 2^n ≥ n² for n ≥ 1 fails exactly at n = 3 (8 < 9)
    v = check_inequality(2**n, ">=", n**2, Domain([IntegerRange(n, 1, 60)]), seed=1)
    assert v.status is Status.REFUTED and v.counterexample["n"] == 3.0
    ok = check_inequality(2**n, ">=", n**2, Domain([IntegerRange(n, 4, 60)]), seed=1)
    assert ok.status is Status.HOLDS


def test_integer_range_rejects_non_integers():
    with pytest.raises(DomainError):
        IntegerRange(n, 0.5, 3)
    with pytest.raises(DomainError):
        IntegerRange(n, 5, 3)


# ------------------------------------------------------------------------------------ matrices, vectors

A = MatrixVar("A", (2, 2))
B = MatrixVar("B", (2, 2))
X = VectorVar("x", 2)


def test_matrix_variables_expose_entry_symbols():
    assert A.shape == (2, 2) and len(A.symbols) == 4 and str(A.symbols[1]) == "A[0,1]"
    assert X.vector.shape == (2, 1) and str(X.symbols[1]) == "x[1]"
    S = MatrixVar("S", (3, 3), symmetric=True)
    assert len(S.symbols) == 6 and S.matrix == S.matrix.T
    assert "2×2 matrix" in A.describe() and "2-vector" in X.describe()
    point = Domain([A]).from_free(np.zeros(4))
    assert A.value(point).shape == (2, 2)


@settings(max_examples=40, deadline=None)
@given(MatrixVar("M", (2, 3), -2.0, 5.0).floats())
def test_matrix_draws_stay_in_range(values):
    assert len(values) == 6 and all(-2.0 <= v <= 5.0 for v in values)


def test_matrix_exact_draws_start_with_small_integers():
    rnd = random.Random(3)
    for _ in range(A.small_first):
        assert all(v.is_Integer and abs(v) <= 2 for v in A.rationals(rnd))


def test_failing_matrix_draw_shrinks_to_simple_values():
    # "every entry is below 1.5 in absolute value" fails; Hypothesis shrinks the failure to small integers
    dom = Domain([MatrixVar("M", (3, 3))])
    res = search(dom.floats(), lambda p: max(abs(v) for v in p.values()), fails=lambda s: s > 1.5, seed=0)
    assert res.failure is not None
    values = sorted(abs(v) for v in res.failure.values())
    assert all(float(v).is_integer() for v in values) and values[-1] == 2.0 and values[-2] == 0.0


def test_transpose_of_product_is_proved_and_one_wrong_entry_refuted_with_small_values():
    dom = Domain([A, B])
    lhs = (A.matrix * B.matrix).T
    rhs = B.matrix.T * A.matrix.T
    assert check_identity(lhs, rhs, dom, seed=1).status is Status.PROVED
    bad = sp.Matrix(rhs)
    bad[0, 1] = bad[0, 1].subs(B.matrix[0, 0], B.matrix[0, 1])  # a wrong index in one entry
    for kwargs in ({}, {"try_symbolic": False, "n_rational": 0}):  # the exact tier, then the float tier alone
        v = check_identity(lhs, bad, dom, seed=1, **kwargs)
        assert v.status is Status.REFUTED and v.counterexample["entry"] == "[0, 1]"
        values = [sp.Rational(v.counterexample[str(s)]) for s in dom.symbols]
        assert all(x.is_Integer and abs(x) <= 3 for x in values), v.counterexample


def test_vector_inequalities_hold_and_planted_one_is_refuted():
    dom = Domain([A, X])
    Ax = A.matrix * X.vector
    norm_ax = (Ax.T * Ax)[0]
    frob = sum(e**2 for e in A.matrix)
    norm_x = (X.vector.T * X.vector)[0]
    assert check_inequality(norm_ax, "<=", frob * norm_x, dom, seed=2).status is Status.HOLDS
    v = check_inequality((X.vector.T * A.matrix * X.vector)[0], ">=", 0, dom, seed=2)  # A is not PSD
    assert v.status is Status.REFUTED
    assert all(abs(v.counterexample[str(s)]) <= 3 for s in dom.symbols)


def test_matrix_var_rejects_bad_declarations():
    with pytest.raises(DomainError):
        MatrixVar("A")
    with pytest.raises(DomainError):
        MatrixVar(sp.Matrix([[1, 2]]))
    with pytest.raises(DomainError):
        MatrixVar("A", (2, 3), symmetric=True)
    with pytest.raises(DomainError):
        VectorVar("x")
