"""Statement-level entries of App. B / App. E: the admissible temperature range of Theorem 2 /
Lemma 6 (ICR-T4-T0) and what Proposition 2's argument covers of Proposition 1 (ICR-P2-stmt)."""
from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.optimize import brentq, minimize_scalar

import theoryverify as tv
from theoryverify import check_identity
from theoryverify import ClaimSet, Kind
from theoryverify import Domain, Interval
from theoryverify import combine, holds, inconclusive, proved
from theoryverify.evidence_types import CouldHaveFailed, attach

from ..model import pairwise
from ..model.symbolic import softmax

CLAIMS = ClaimSet("icrecall")

T_GRID = np.geomspace(0.005, 1.0, 40)


def pairwise_excess(T: float) -> tuple[float, float]:
    """min over x ∈ (0, ¼) of L1 − log 2 on the pairwise line v = (x, x, ½−x, ½−x, 0, 0), and its
    argmin (exact L1 in log space; x ∈ (¼, ½) mirrors it by x ↦ ½ − x)."""
    xs = np.linspace(1e-7, 0.25 - 1e-7, 4001)
    vals = pairwise.line_L1_minus_log2_float(xs, T)
    k = int(np.argmin(vals))
    lo, hi = xs[max(k - 1, 0)], xs[min(k + 1, len(xs) - 1)]
    res = minimize_scalar(lambda t: float(pairwise.line_L1_minus_log2_float(np.array([t]), T)[0]),
                          bounds=(lo, hi), method="bounded", options={"xatol": 1e-14})
    return (float(res.fun), float(res.x)) if res.fun < vals[k] else (float(vals[k]), float(xs[k]))


@CLAIMS.add("t4-T0", location="Theorem 2 / Theorem 4 (T < T0(δ)); Lemma 6 (T < T_max(δ))",
            kind=Kind.INEQUALITY, catalogue_id="ICR-T4-T0",
            statement="There is T0 > 0 such that for T < T0 a pairwise point (a, a, ½−a, ½−a, 0, 0), a ≠ ¼, "
                      "has L1 < log 2 (so the Theorem-2 optimum beats the saddle value); derived: the set of such "
                      "T is an interval (0, T*), giving an explicit upper bound T* on any admissible T0 / T_max",
            choices={"T grid": "40 log-spaced values in [0.005, 1]",
                     "line": "exact L1 on v = (x, x, ½−x, ½−x, 0, 0), x ∈ (0, ¼), log-space L1 − log 2",
                     "use": "Theorem-2 / Lemma-6 checks elsewhere use T ≤ 0.05, below T*"})
def t4_T0(ctx):
    excess = [pairwise_excess(T)[0] for T in T_GRID]
    below = [T for T, e in zip(T_GRID, excess) if e < 0]
    if not below:
        return inconclusive("grid search", "no T in the grid admits a pairwise point below log 2")
    k = int(np.max(np.nonzero(np.array(excess) < 0)[0]))
    interval = all(e < 0 for e in excess[: k + 1]) and all(e >= 0 for e in excess[k + 1:])
    if not interval:
        return inconclusive("grid search", "the admissible temperatures do not form one interval on the grid",
                            excess=excess)
    if k + 1 == len(T_GRID):
        return holds("grid search", f"every grid T up to {T_GRID[-1]} admits a pairwise point below log 2")
    t_star = brentq(lambda T: pairwise_excess(T)[0], T_GRID[k], T_GRID[k + 1], xtol=1e-12)
    above = pairwise_excess(float(T_GRID[k + 1]))
    v = holds("grid search + root finding",
              f"a pairwise point with L1 < log 2 exists exactly for T < T* = {t_star:.6g} on the grid "
              f"(so any admissible T0, T_max ≤ {t_star:.4g}); above T* the line's infimum of L1 − log 2 is "
              f"{above[0]:.3g} at x = {above[1]:.4g}",
              T_star=t_star, sweep={"param": "T", "x": T_GRID.tolist(), "measured": excess,
                                    "predicted": None, "ratio": None})
    # issue 27 (referee P2): could-have-failed recorded
    return attach(v, CouldHaveFailed("search", "the existential T0 cannot be refuted on a finite grid, but the pass could "
                                     "have failed: no grid T (down to 0.005) with a pairwise point below log 2, or "
                                     "admissible T's not forming one interval (0, T*), leaves it inconclusive; T* is "
                                     "the bracketed root of the exact line excess (log-space L1 − log 2)"))


def softmax_derivative_bounds() -> dict[int, sp.Rational]:
    """Bounds on the entries of ∂^k v_1/∂θ^k (k = 1, 2, 3) for v = softmax(θ) ∈ R^3.

    Each derivative is obtained by applying the (separately proved) rule ∂v_j/∂θ_i = v_j(δ_ij − v_i)
    with the chain rule, so it is a polynomial in v; on the simplex it is bounded by the sum of its
    absolute coefficients (larger dimensions add terms of the same three index patterns)."""
    v = sp.symbols("w1:4", nonnegative=True)

    def d_theta(poly: sp.Expr, i: int) -> sp.Expr:
        return sp.expand(sum(sp.diff(poly, v[j]) * v[j] * ((1 if i == j else 0) - v[i]) for j in range(3)))

    out, layer = {}, [v[0]]
    for k in (1, 2, 3):
        layer = [d_theta(e, i) for e in layer for i in range(3)]
        out[k] = max(sum(abs(c) for c in sp.Poly(p, *v).coeffs()) for p in layer)
    return out


@CLAIMS.add("p2-stmt", location="Proposition 2 (App. E) as the proof of Proposition 1", kind=Kind.IDENTITY,
            catalogue_id="ICR-P2-stmt",
            statement="App. E's argument (softmax derivatives up to order 3 uniformly bounded, then ‖∇^kℓ1(v)‖ "
                      "bounds) establishes the O(1/T²) and O(1/T³) parts of Proposition 1; the Θ (lower-bound) parts "
                      "are not covered by App. E and are decided by the sweeps icrecall.p1-gradlip / p1-hesslip",
            choices={"coverage": "Prop. 2 states O(·) only; Prop. 1 states Θ(·): the Ω parts are delegated to the "
                                 "sweeps (icrecall.p1-gradlip, icrecall.p1-hesslip)"})
def p2_stmt(ctx):
    th = sp.symbols("t1:4", real=True)
    v = sp.symbols("w1:4", nonnegative=True)
    sm = softmax(th)
    jac = {f"∂v{j + 1}/∂θ{i + 1} = v{j + 1}(δ − v{i + 1})":
           check_identity(sp.diff(sm[j], th[i]), sm[j] * ((1 if i == j else 0) - sm[i]),
                          Domain([Interval(t, -5, 5) for t in th]), ctx.seed + 3 * i + j, symbolic_seconds=2.0)
           for i in range(3) for j in range(3)}
    bounds = softmax_derivative_bounds()
    parts = dict(jac)
    parts["orders 1-3 bounded by absolute constants"] = proved(
        "exact coefficient bound", "entries of ∂^k softmax/∂θ^k are polynomials in v with coefficient sums "
        + ", ".join(f"k={k}: {b}" for k, b in bounds.items()) + " (so bounded on the simplex)",
        bounds={k: str(b) for k, b in bounds.items()})
    return combine(parts, method="reduction step of App. E:")
