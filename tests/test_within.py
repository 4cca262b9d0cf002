"""A hypothesis whose end depends on a matrix variable, declared in one line (issue 29, held-out author 6, defect 8):
``tv.Within("eta", 0, 1 / tv.lambda_max(X.matrix.T @ X.matrix / n))`` — X drawn by the engine, η inside its
interval at that X (exactly, on the safe side of a certified eigenvalue bracket), X in the counterexample."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy as sp

import theoryverify as tv
from theoryverify.dependent import bracket


def _loss(X, w, y):
    r = X @ w - y
    return (r.T @ r)[0] / (2 * X.shape[0])


def _descent(X, w, y, eta, c):  # f(w − η∇f) ≤ f(w) − c·η‖∇f‖²  (true for c = 1/2 when η ≤ 1/λ_max(XᵀX/n))
    g = X.T @ (X @ w - y) / X.shape[0]
    return _loss(X, w - eta * g, y), _loss(X, w, y) - c * eta * (g.T @ g)[0]


def _domain(n, d):
    X, w, y = tv.MatrixVar("X", (n, d)), tv.VectorVar("w", d), tv.VectorVar("y", n)
    eta = tv.Within("eta", 0, 1 / tv.lambda_max(X.matrix.T @ X.matrix / n))
    return X, w, y, eta, tv.Domain([X, w, y, eta])


def test_descent_lemma_holds_and_its_planted_twin_names_X():
    X, w, y, eta, dom = _domain(3, 2)
    assert "eta ∈ (0, 1/λ_max(XᵀX/3)]" in dom.describe()
    lhs, rhs = _descent(X.matrix, w.vector, y.vector, eta.symbol, sp.Rational(1, 2))
    assert tv.check_inequality(lhs, "<=", rhs, dom, seed=0).status.value == "holds"
    lhs, rhs = _descent(X.matrix, w.vector, y.vector, eta.symbol, 1)
    v = tv.check_inequality(lhs, "<=", rhs, dom, seed=0)
    assert v.status.value == "refuted"
    ce = v.counterexample
    assert {str(s) for s in X.symbols + w.symbols + y.symbols} | {"eta"} <= set(ce)  # X is in the counterexample
    Xv = sp.Matrix(3, 2, [sp.nsimplify(ce[str(s)]) for s in X.symbols])
    lam = max((Xv.T * Xv / 3).eigenvals())
    assert sp.nsimplify(ce["eta"]) * lam <= 1  # the shrunk point is inside the hypothesis, exactly


def test_the_end_is_taken_on_the_safe_side_at_a_tie():
    """X = [a] (1×1): λ_max(XᵀX) = a², so η·a² ≤ 1 holds with equality at η's end; an end rounded the wrong way
    (η a hair above 1/a²) would refute it."""
    a = tv.MatrixVar("a", (1, 1), lo=-3, hi=3)
    eta = tv.Within("eta", 0, 1 / tv.lambda_max(a.matrix.T @ a.matrix))
    dom = tv.Domain([a, eta])
    x = a.symbols[0]
    assert tv.check_inequality(eta.symbol * x ** 2, "<=", 1, dom, seed=1).status.value in ("holds", "proved")
    v = tv.check_inequality(eta.symbol * x ** 2, "<=", sp.Rational(1, 2), dom, seed=1)
    assert v.status.value == "refuted" and sp.nsimplify(v.counterexample["eta"]) * \
        sp.nsimplify(v.counterexample[str(x)]) ** 2 <= 1
    rnd = random.Random(3)
    for _ in range(40):  # every exact draw is inside, and the closed end is reached within the bracket's width
        p = dom.rationals(rnd)
        assert p[eta.symbol] * p[x] ** 2 <= 1


def test_the_eigenvalue_bracket_is_certified():
    rnd = random.Random(0)
    for k in (1, 2, 3):
        for _ in range(5):
            A = sp.Matrix(k, k, lambda i, j: sp.Rational(rnd.randint(-9, 9), rnd.choice([1, 2, 3, 7])))
            M = A.T * A
            ev = [sp.re(sp.N(e, 40)) for e in M.eigenvals()]
            for f, which in ((tv.lambda_max, max), (tv.lambda_min, min)):
                lo, hi = bracket(f(sp.ImmutableMatrix(M)), {})
                assert Fraction(lo) <= Fraction(str(which(ev))) + Fraction(1, 10**30) and \
                    Fraction(str(which(ev))) - Fraction(1, 10**30) <= hi and hi - lo < Fraction(1, 10**6)


def test_bad_declarations_are_one_line_errors():
    X = tv.MatrixVar("X", (2, 2))
    with pytest.raises(ValueError, match="symmetric"):
        tv.lambda_max(X.matrix)
    eta = tv.Within("eta", 0, 1 / tv.lambda_max(X.matrix.T @ X.matrix))
    with pytest.raises(ValueError, match="not among the domain's variables"):
        tv.Domain([eta])
    with pytest.raises(ValueError, match="itself"):
        tv.Within("eta", 0, sp.Symbol("eta", real=True) + 1)
