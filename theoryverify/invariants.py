"""Conserved quantities and Lyapunov functions along trajectories (check kind [CL]).

Three checks, each able to fail:

- :func:`check_conserved` — a quantity Q stays at Q(0) along an integrated trajectory, within a
  relative drift tolerance that should sit just above the integrator's (e.g. rtol = 1e-10 for a
  flow integrated at rtol, atol ≤ 1e-12);
- :func:`check_nonincreasing` — a candidate Lyapunov function V never increases after an onset
  time beyond a stated tolerance; the first increase is the counterexample;
- :func:`prove_nonpositive` — a symbolic proof that an expression (typically dV/dt) is ≤ 0 on a box
  of its variables: each bounded variable is rewritten through a positive parameter
  (x = lo + y, x = hi − y, or x = lo + (hi − lo)·y/(1 + y)); the expression is brought to one
  fraction and proved if numerator and denominator are, after expansion, polynomials whose
  coefficients all have one sign (a certificate, not a heuristic) or if SymPy's assumption system
  decides the sign.  Returns ``None`` when undecided — never a pass.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import sympy as sp

from .roundoff import fmt_error, fmt_signed
from .timelimit import TimeLimitExceeded, time_limit
from .verdicts import Verdict, holds, proved, refuted


def check_conserved(t: Sequence[float], values: Sequence[float], *, rtol: float = 1e-10,
                    name: str = "Q") -> Verdict:
    """Holds iff max_t |Q(t) − Q(0)| ≤ rtol·max(1, |Q(0)|) on the given trajectory samples."""
    t, q = np.asarray(t, dtype=float), np.asarray(values, dtype=float)
    if t.shape != q.shape or q.size < 2:
        raise ValueError("check_conserved needs matching 1-D time and value arrays with >= 2 points")
    scale = max(1.0, abs(q[0]))
    drift = np.abs(q - q[0])
    i = int(np.argmax(drift))
    details = dict(points=int(q.size), max_drift=float(drift[i]), scale=scale, rtol=rtol,
                   t_span=[float(t[0]), float(t[-1])])
    if not np.isfinite(q).all():
        j = int(np.argmax(~np.isfinite(q)))
        return refuted("conserved quantity along trajectory", f"{name} is not finite at t = {t[j]:.6g}",
                       {"t": float(t[j]), f"{name}(0)": float(q[0]), f"{name}(t)": float(q[j])}, **details)
    if drift[i] <= rtol * scale:
        return holds("conserved quantity along trajectory",
                     f"{name} conserved: max drift {fmt_error(drift[i] / scale)}·{scale:.3g} <= {rtol:g}·{scale:.3g} "
                     f"over {q.size} points "
                     f"on t in [{t[0]:.3g}, {t[-1]:.3g}]", **details)
    return refuted("conserved quantity along trajectory",
                   f"{name} drifts by {drift[i]:.3e} (> {rtol:g}·{scale:.3g}) at t = {t[i]:.6g}",
                   {"t": float(t[i]), f"{name}(0)": float(q[0]), f"{name}(t)": float(q[i]),
                    "drift": float(drift[i])}, **details)


def check_nonincreasing(t: Sequence[float], values: Sequence[float], *, onset: float = 0.0,
                        tol: float = 1e-12, name: str = "V") -> Verdict:
    """Holds iff V(t_{i+1}) − V(t_i) ≤ tol·max(1, |V(t_i)|) for all samples with t_i ≥ onset."""
    t, v = np.asarray(t, dtype=float), np.asarray(values, dtype=float)
    if t.shape != v.shape or v.size < 2:
        raise ValueError("check_nonincreasing needs matching 1-D time and value arrays with >= 2 points")
    keep = t >= onset
    t, v = t[keep], v[keep]
    if v.size < 2:
        raise ValueError(f"fewer than 2 samples after the onset t = {onset:g}")
    rise = np.diff(v)
    allowed = tol * np.maximum(1.0, np.abs(v[:-1]))
    bad = np.flatnonzero(~(rise <= allowed))  # NaN counts as a violation
    details = dict(points=int(v.size), onset=onset, tol=tol, max_rise=float(np.nanmax(rise)),
                   V_first=float(v[0]), V_last=float(v[-1]))
    if bad.size == 0:
        return holds("Lyapunov non-increase along trajectory",
                     f"{name} non-increasing on {v.size} samples after t = {onset:.3g} (max step change "
                     f"{fmt_signed(np.max(rise))}, tolerance {tol:g}·max(1,|{name}|))", **details)
    i = int(bad[0])
    return refuted("Lyapunov non-increase along trajectory",
                   f"{name} increases by {rise[i]:.3e} between t = {t[i]:.6g} and {t[i + 1]:.6g} "
                   f"({bad.size} violating steps)",
                   {"t0": float(t[i]), "t1": float(t[i + 1]), f"{name}(t0)": float(v[i]),
                    f"{name}(t1)": float(v[i + 1]), "increase": float(rise[i])}, **details)


def _positive_reparam(x: sp.Symbol, lo: float | None, hi: float | None) -> tuple[sp.Expr, sp.Symbol | None]:
    """x in terms of a fresh positive symbol y covering (lo, hi) (closed ends by continuity)."""
    y = sp.Symbol(f"_{x.name}_pos", positive=True)
    lo_ = None if lo is None or lo == -np.inf else sp.nsimplify(lo)
    hi_ = None if hi is None or hi == np.inf else sp.nsimplify(hi)
    if lo_ is not None and hi_ is not None:
        return lo_ + (hi_ - lo_) * y / (1 + y), y
    if lo_ is not None:
        return lo_ + y, y
    if hi_ is not None:
        return hi_ - y, y
    return sp.Symbol(x.name, real=True), None


def _one_signed(poly_expr: sp.Expr, gens: Sequence[sp.Symbol]) -> int:
    """+1 / −1 if every coefficient of the expanded polynomial is ≥ 0 / ≤ 0 (and one is nonzero), else 0."""
    if poly_expr == 0:
        return 0
    try:
        coeffs = sp.Poly(sp.expand(poly_expr), *gens).coeffs() if gens else [poly_expr]
    except sp.PolynomialError:
        return 0
    if not all(c.is_number for c in coeffs):
        return 0
    if all(c >= 0 for c in coeffs):
        return 1
    if all(c <= 0 for c in coeffs):
        return -1
    return 0


def prove_nonpositive(expr: sp.Expr, assumptions: Mapping[sp.Symbol, tuple[float | None, float | None]],
                      timeout: float = 10.0) -> Verdict | None:
    """A proof that ``expr ≤ 0`` for every point of the box ``assumptions`` ({symbol: (lo, hi)}, None or
    ±inf for an open side), or ``None`` when neither certificate applies within ``timeout`` seconds."""
    subs, gens = {}, []
    for x, (lo, hi) in assumptions.items():
        new, y = _positive_reparam(x, lo, hi)
        subs[x] = new
        if y is not None:
            gens.append(y)
    box = {str(k): [v[0], v[1]] for k, v in assumptions.items()}
    try:
        with time_limit(timeout):
            e = sp.together(sp.sympify(expr).subs(subs))
            num, den = sp.fraction(e)
            free = sorted(e.free_symbols - set(gens), key=str)
            if not free:
                s_num, s_den = _one_signed(num, gens), _one_signed(den, gens)
                if s_num and s_den and s_num * s_den < 0:
                    return proved("symbolic: one-signed polynomial certificate",
                                  f"expression <= 0 on the box {box}: after x = lo + (hi-lo)y/(1+y) "
                                  f"(y > 0) numerator and denominator have one-signed coefficients",
                                  box=box, numerator_sign=s_num, denominator_sign=s_den)
            if sp.simplify(-e).is_nonnegative:
                return proved("symbolic: sign by assumptions", f"expression <= 0 on the box {box} "
                              "(SymPy's assumption system, after positive reparametrisation)", box=box)
    except (TimeLimitExceeded, RecursionError):
        return None
    return None
