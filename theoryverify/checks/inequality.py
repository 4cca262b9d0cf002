"""Inequality checks: ``lhs OP rhs`` (OP in <=, <, >=, >) on a domain.

No symbolic proof is attempted: the check searches for a counterexample with Hypothesis
(``target()`` on the negated slack), then polishes the worst points with a local optimiser
(scipy, in the domain's unconstrained coordinates).  A float violation is re-checked at 50
digits before it is reported.  The verdict reports the minimum slack found.
"""
from __future__ import annotations

import operator

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from ..domains import Domain
from ..numeric import compile_float, high_precision
from ..verdicts import Verdict, error, holds, inconclusive, refuted
from .identity import _point
from .search import search

OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


def slack_expr(lhs: sp.Expr, rhs: sp.Expr, op: str) -> sp.Expr:
    """Positive (or zero, for non-strict) exactly when the inequality holds."""
    return (rhs - lhs) if op in ("<=", "<") else (lhs - rhs)


def check_inequality(lhs: sp.Expr, op: str, rhs: sp.Expr, domain: Domain, seed: int, *,
                     tol: float = 1e-12, n_float: int | None = None, polish: int = 5) -> Verdict:
    if op not in OPS:
        return error("inequality", f"unknown operator {op!r}")
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    slack = slack_expr(lhs, rhs, op)
    if domain.covers(slack):
        return error("domain", f"symbols without a declared domain: {sorted(map(str, domain.covers(slack)))}")
    strict = op in ("<", ">")
    f_slack = compile_float(slack, domain.symbols)
    violated = (lambda s: s <= 0.0) if strict else (lambda s: s < -tol)

    res = search(domain.floats(), lambda p: -f_slack(p), fails=lambda bad: violated(-bad),
                 seed=seed, max_examples=n_float, label="-slack")
    candidate = res.failure
    polished = 0
    if candidate is None and domain.free_dim and res.top:
        for _, start in res.top[:polish]:
            opt = minimize(lambda z: f_slack(domain.from_free(z)), domain.to_free(start),
                           method="Nelder-Mead", options={"maxiter": 400, "xatol": 1e-10, "fatol": 1e-14})
            polished += 1
            point = domain.from_free(opt.x)
            s = f_slack(point)
            if np.isfinite(s) and s < -res.worst_score:
                res.worst, res.worst_score = point, -s
            if np.isfinite(s) and violated(s):
                candidate = point
                break
    if candidate is not None:
        exact = high_precision(slack, candidate)
        if (exact <= 0) if strict else (exact < -tol):
            f_l, f_r = compile_float(lhs, domain.symbols), compile_float(rhs, domain.symbols)
            return refuted("Hypothesis search + local optimiser, 50-digit confirmation",
                           f"violated: {lhs_rhs(f_l(candidate), op, f_r(candidate))} "
                           f"(slack {float(exact):.3g})",
                           {**_point(candidate), "lhs": f_l(candidate), "rhs": f_r(candidate)},
                           slack=float(exact))
        return inconclusive("float search", "float64 violation not confirmed at 50 digits",
                            point=_point(candidate))
    finite = res.tried - res.nonfinite
    if finite < 10:
        return inconclusive("float search", f"only {finite} finite evaluations", tried=res.tried)
    min_slack = -res.worst_score
    return holds(f"Hypothesis search ({finite}) + {polished} local optimisations",
                 f"no violation in {finite} float64 points + {polished} polished starts; "
                 f"min slack {min_slack:.3g}", float_points=finite, min_slack=min_slack,
                 tolerance=tol, worst_point=_point(res.worst) if res.worst else None)


def lhs_rhs(a: float, op: str, b: float) -> str:
    return f"lhs = {a:.6g} {op} rhs = {b:.6g} is false"
