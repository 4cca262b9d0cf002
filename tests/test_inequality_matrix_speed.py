"""check_inequality on matrix variables compiles with common subexpressions (issue 29, s42-author).

The held-out author's descent lemma on a 32×8 X took ~80 CPU-s: f(w − η∇f(w)) is a DAG whose printed tree repeats
each entry of ∇f hundreds of times (6 CPU-s to compile, 6 ms a point), λ_max(XᵀX/n) was lambdified with its 256
names re-dummified, and the two sides were compiled though only a refutation reads them.  Now a domain with a
matrix or vector variable compiles with ``cse=True``; a domain of scalars compiles exactly as before (the shipped
papers use no matrix variable: their floats cannot move); on a matrix domain the sides are compiled only when a
violation is reported (elsewhere up front, as before).  Each test fails on the old code."""
from __future__ import annotations

import sympy as sp

import theoryverify as tv
from theoryverify import numeric
from theoryverify.checks import inequality


def _record(monkeypatch):
    calls = []
    real = numeric.compile_float

    def compile_float(expr, symbols, **kw):
        calls.append((expr, kw.get("cse", False)))
        return real(expr, symbols, **kw)

    monkeypatch.setattr(inequality, "compile_float", compile_float)
    return calls


def test_matrix_domains_compile_with_cse_and_scalar_domains_as_before(monkeypatch):
    calls = _record(monkeypatch)
    X, w = tv.MatrixVar("X", (3, 2)), tv.VectorVar("w", 2)
    r = X.matrix @ w.vector
    v = tv.check_inequality((r.T @ r)[0], ">=", 0, tv.Domain([X, w]), seed=0, prove=False)
    assert v.status.value == "holds"
    assert calls and all(cse for _, cse in calls)
    calls.clear()
    x = sp.Symbol("x")
    assert tv.check_inequality(x ** 2 + 1, ">", 0, tv.Domain([tv.Interval(x, -2, 2)]), seed=0,
                               prove=False).status.value == "holds"
    assert calls and not any(cse for _, cse in calls)


def test_on_a_matrix_domain_the_sides_are_compiled_only_for_a_refutation(monkeypatch):
    calls = _record(monkeypatch)
    w = tv.VectorVar("w", 2, lo=-2, hi=2)
    dom = tv.Domain([w])
    sq = (w.vector.T @ w.vector)[0]
    assert tv.check_inequality(sq + 1, ">", 0, dom, seed=0, prove=False).status.value == "holds"
    assert len(calls) == 1  # the slack alone (the old code compiled lhs and rhs too)
    calls.clear()
    v = tv.check_inequality(sq, ">", 1, dom, seed=0, prove=False)
    assert v.status.value == "refuted" and "lhs =" in v.evidence
    assert len(calls) == 3 and {e for e, _ in calls[1:]} == {sq, 1}
    calls.clear()
    x = sp.Symbol("x")  # a scalar domain: all three compiled up front, in the old order (slack, lhs, rhs)
    assert tv.check_inequality(x ** 2 + 1, ">", 0, tv.Domain([tv.Interval(x, -2, 2)]), seed=0,
                               prove=False).status.value == "holds"
    assert [str(e) for e, _ in calls] == ["x**2 + 1", "x**2 + 1", "0"]


def test_lambda_max_compiles_its_matrix_under_generated_names():
    """λ_max(XᵀX/n) of X's entries X[0,0], …: compiled through numeric.lambdify_generated (no user-chosen name in
    generated code, no per-name re-dummification), with the same floats as an exact evaluation."""
    from theoryverify import dependent

    X = tv.MatrixVar("X", (3, 2))
    atom = tv.lambda_max(X.matrix.T @ X.matrix / 3)
    point = {s: float(i % 5 - 2) for i, s in enumerate(X.symbols)}
    fns: dict = {}
    lo, hi = dependent._float_value(atom, point, fns)
    syms, f = fns[("matrix", atom)]
    assert "_tv_arg0" in f.__code__.co_varnames[:1]  # generated argument names
    M = sp.Matrix(3, 2, [sp.Integer(int(point[s])) for s in X.symbols])
    lam = float(max((M.T * M / 3).eigenvals()))
    assert lo <= lam <= hi and hi - lo < 1e-9
