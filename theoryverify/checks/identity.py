"""Identity checks: ``lhs == rhs`` on a domain.

Tiers, strongest first (principle 4):
1. symbolic: the difference simplifies to 0 under a hard time limit  -> ``proved``;
2. exact rational points of the domain: any nonzero value            -> ``refuted`` (exact);
3. float64 points drawn by the domain's Hypothesis strategy, searched for the largest relative
   error with ``target()`` and shrunk                                  -> ``refuted`` if a point
   exceeds the tolerance *and* the excess is confirmed at 50 digits, else ``holds`` with counts
   and max error.
"""
from __future__ import annotations

import time
from typing import Mapping

import sympy as sp

from ..domains import Domain
from ..numeric import compile_float, exact_value, high_precision, relative_error
from ..seeds import pyrandom
from ..timelimit import bounded
from ..verdicts import Verdict, error, holds, inconclusive, proved, refuted
from .search import search

SIMPLIFIERS = (
    ("expand", sp.expand),
    ("cancel", lambda d: sp.cancel(sp.together(d))),
    ("simplify", sp.simplify),
)


def symbolic_zero(diff: sp.Expr, seconds: float) -> str | None:
    """The name of the first simplifier that reduces ``diff`` to 0 within ``seconds`` in all."""
    if diff == 0:
        return "structural"
    deadline = time.monotonic() + seconds
    for name, fn in SIMPLIFIERS:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        out = bounded(lambda: fn(diff), left)
        if out is not None and out == 0:
            return name
    return None


def _point(point: Mapping[sp.Symbol, object]) -> dict[str, object]:
    return {str(s): v for s, v in sorted(point.items(), key=lambda kv: str(kv[0]))}


def exact_points(diff: sp.Expr, domain: Domain, seed: int, n: int,
                 lhs: sp.Expr, rhs: sp.Expr) -> tuple[int, Verdict | None]:
    """Evaluate ``diff`` at ``n`` exact rational points; a refutation if any is provably nonzero.
    Returns (points evaluated exactly, refutation or None)."""
    rnd = pyrandom(seed)
    exact = 0  # points decided exactly (rational values) or at 50 digits (transcendental values)
    for _ in range(n):
        point = domain.rationals(rnd)
        value = exact_value(diff, point)
        if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            continue  # outside the expression's natural domain (a pole)
        if value.is_Rational:
            exact += 1
            if value != 0:
                return exact, refuted(
                    "exact rational point", f"lhs − rhs = {value} ≠ 0 exactly",
                    {**_point(point), "lhs": exact_value(lhs, point), "rhs": exact_value(rhs, point)},
                    difference=value)
        else:
            exact += 1
            approx = value.evalf(50)
            if approx.is_number and abs(approx) > sp.Float("1e-40", 50):
                return exact, refuted(
                    "rational point, 50-digit evaluation", f"lhs − rhs ≈ {sp.N(approx, 6)} ≠ 0 (50 digits)",
                    {**_point(point), "lhs": sp.N(exact_value(lhs, point), 15),
                     "rhs": sp.N(exact_value(rhs, point), 15)}, difference=sp.N(approx, 20))
    return exact, None


def check_identity(lhs: sp.Expr, rhs: sp.Expr, domain: Domain, seed: int, *, rtol: float = 1e-12,
                   n_rational: int = 12, n_float: int | None = None,
                   symbolic_seconds: float = 3.0, try_symbolic: bool = True) -> Verdict:
    """Decide ``lhs == rhs`` for every point of ``domain`` (see the module docstring)."""
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    diff = lhs - rhs
    missing = domain.covers(lhs) | domain.covers(rhs)
    if missing:
        return error("domain", f"symbols without a declared domain: {sorted(map(str, missing))}")
    how = symbolic_zero(diff, symbolic_seconds) if try_symbolic else None
    n_exact, refutation = exact_points(diff, domain, seed, n_rational, lhs, rhs)
    if refutation is not None:
        if how:  # a symbolic proof contradicted by an exact point is an engine bug
            return error("symbolic vs exact", f"simplifier {how} said 0 but an exact point disagrees")
        return refutation
    if how:
        return proved(f"symbolic: {how}", f"lhs − rhs simplifies to 0 ({how}); "
                      f"{n_exact} rational points agree (exact or 50 digits)", exact_points=n_exact)
    return float_points(lhs, rhs, domain, seed, rtol=rtol, n=n_float, n_exact=n_exact)


def float_points(lhs: sp.Expr, rhs: sp.Expr, domain: Domain, seed: int, *, rtol: float,
                 n: int | None, n_exact: int = 0) -> Verdict:
    f_l, f_r = compile_float(lhs, domain.symbols), compile_float(rhs, domain.symbols)

    def score(point):  # > 1 means the tolerance is exceeded
        return relative_error(f_l(point), f_r(point)) / rtol

    res = search(domain.floats(), score, fails=lambda s: s > 1.0, seed=seed, max_examples=n)
    if res.failure is not None:
        p = res.failure
        hi = high_precision(lhs - rhs, p)
        scale = max(1.0, abs(float(high_precision(rhs, p))))
        if abs(float(hi)) / scale > rtol:
            return refuted("float64 search + 50-digit confirmation",
                           f"relative error {abs(float(hi)) / scale:.3g} > {rtol:g} (confirmed at 50 digits)",
                           {**_point(p), "lhs": f_l(p), "rhs": f_r(p)}, tolerance=rtol)
        return inconclusive("float64 search", "float64 disagreement not confirmed at 50 digits "
                            "(cancellation); tolerance cannot decide", point=_point(p))
    finite = res.tried - res.nonfinite
    if finite < 10 and n_exact == 0:
        return inconclusive("float64 points", f"only {finite} finite evaluations", tried=res.tried)
    max_err = max(res.worst_score, 0.0) * rtol
    return holds(f"exact rationals ({n_exact}) + float64 ({finite})",
                 f"{n_exact} rational points (exact or 50 digits) and {finite} float64 points; max rel. error {max_err:.2e} "
                 f"≤ tol {rtol:g}", exact_points=n_exact, float_points=finite, max_error=max_err,
                 tolerance=rtol, nonfinite=res.nonfinite)
