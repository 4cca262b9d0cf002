"""Inequality checks: ``lhs OP rhs`` (OP in <=, <, >=, >) on a domain.

No symbolic proof is attempted: the check first evaluates the slack on the boundary of the domain's closed
parts (interval endpoints, simplex vertices and edge midpoints, the corners of the box:
:meth:`Domain.boundary_points`), then searches for a counterexample with Hypothesis (``target()`` on the
negated slack), then polishes the worst points with a local optimiser (scipy, in the domain's unconstrained
coordinates).  A float violation is re-checked at 50 digits before it is reported.  The verdict names the
domain searched and reports the minimum slack found.  Both sides must be scalars: an inequality between
matrices or sequences has no single meaning, and is an error.
"""
from __future__ import annotations

import operator

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from ..domains import Domain
from ..numeric import compile_float, high_precision
from ..roundoff import fmt_signed
from ..evidence_types import CouldHaveFailed, attach
from ..verdicts import Verdict, error, holds, inconclusive, refuted
from .identity import _point
from .search import search, shrunk

OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


def slack_expr(lhs: sp.Expr, rhs: sp.Expr, op: str) -> sp.Expr:
    """Positive (or zero, for non-strict) exactly when the inequality holds."""
    return (rhs - lhs) if op in ("<=", "<") else (lhs - rhs)


def _scalar(x, side: str) -> sp.Expr:
    if isinstance(x, (str, bytes)):
        raise TypeError(f"check_inequality: the {side} is text ({str(x)[:40]!r}); build the expression")
    if isinstance(x, (sp.MatrixBase, list, tuple, dict, np.ndarray)) or not isinstance(sp.sympify(x), sp.Expr):
        raise TypeError(f"check_inequality compares scalars; the {side} is a {type(x).__name__} (compare entries "
                        f"one by one, or a norm)")
    return sp.sympify(x)


def check_inequality(lhs: sp.Expr, op: str, rhs: sp.Expr, domain: Domain, seed: int, *,
                     tol: float = 1e-12, n_float: int | None = None, polish: int = 5) -> Verdict:
    if op not in OPS:
        return error("inequality", f"unknown operator {op!r}")
    lhs, rhs = _scalar(lhs, "lhs"), _scalar(rhs, "rhs")
    slack = slack_expr(lhs, rhs, op)
    if domain.covers(slack):
        return error("domain", f"symbols without a declared domain: {sorted(map(str, domain.covers(slack)))}")
    strict = op in ("<", ">")
    f_slack = compile_float(slack, domain.symbols)
    violated = (lambda s: s <= 0.0) if strict else (lambda s: s < -tol)
    f_l, f_r = compile_float(lhs, domain.symbols), compile_float(rhs, domain.symbols)

    def confirmed(point) -> Verdict | None:
        exact = high_precision(slack, point)
        if (exact <= 0) if strict else (exact < -tol):
            return shrunk(refuted("boundary points + Hypothesis search + local optimiser, 50-digit confirmation",
                                  f"violated: {lhs_rhs(f_l(point), op, f_r(point))} (slack {float(exact):.3g})",
                                  {**_point(point), "lhs": f_l(point), "rhs": f_r(point)},
                                  slack=float(exact), domain=domain.describe()), lhs, op, rhs, domain,
                          tol=0.0 if strict else tol)
        return None

    corners = domain.boundary_points()
    corner_min, corner_worst, unconfirmed, rounding = np.inf, None, None, 0
    for p in corners:
        s = f_slack(p)
        if not np.isfinite(s):
            continue
        if violated(s):
            found = confirmed(p)
            if found is not None:
                return found
            # float64 rounding at an extreme corner; the 50-digit slack says it is no violation: use that
            s, rounding = float(high_precision(slack, p)), rounding + 1
        if s < corner_min:
            corner_min, corner_worst = s, p
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
        found = confirmed(candidate)
        if found is not None:
            return found
        unconfirmed = candidate
    if unconfirmed is not None:
        return inconclusive("float search", "float64 violation not confirmed at 50 digits",
                            point=_point(unconfirmed), domain=domain.describe())
    finite = res.tried - res.nonfinite
    if finite < 10:
        return inconclusive("float search", f"only {finite} finite evaluations", tried=res.tried)
    min_slack = -res.worst_score
    worst = res.worst
    nb = sum(1 for p in corners if np.isfinite(f_slack(p)))
    if corner_worst is not None and corner_min < min_slack:
        min_slack, worst = float(corner_min), corner_worst
    redo = f" ({rounding} re-evaluated at 50 digits)" if rounding else ""
    v = holds(f"{nb} boundary points + Hypothesis search ({finite}) + {polished} local optimisations",
                 f"no violation in {nb} boundary{redo} + {finite} float64 points + {polished} polished starts on "
                 f"{domain.describe()}; min slack {fmt_signed(min_slack)}", float_points=finite,
                 boundary_points=nb, boundary_rounding=rounding, min_slack=min_slack, tolerance=tol,
                 worst_point=_point(worst) if worst else None, domain=domain.describe(),
                 coverage=res.coverage(domain.symbols))
    return attach(v, CouldHaveFailed("search", f"a violation at any of the {nb} boundary, {finite} float64 or "
                                               f"{polished} locally minimised points (slack < −{tol:g}, confirmed at "
                                               f"50 digits) would refute"))


def lhs_rhs(a: float, op: str, b: float) -> str:
    return f"lhs = {a:.6g} {op} rhs = {b:.6g} is false"
