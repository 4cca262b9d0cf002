"""Faces and lines of the n = 3 landscape, derived from the model (Lemma 8, Theorem 4; App. B).

Everything here is obtained by *substitution* into the model's relation logits / loss
(``model.n3()``), never copied from the paper:

* the θ-gradient through v = softmax(θ): ∂L1/∂θ_i = Σ_j (∂v_j/∂θ_i) ∂L1/∂v_j with the softmax
  Jacobian ∂v_j/∂θ_i = v_j(δ_ij − v_i) (derived here, compared with ``n3().grad_theta()`` in tests);
* the pairwise line v = (x, x, ½ − x, ½ − x, 0, 0) and the logit gaps d_j(x) = l_j(x) − l_1(x);
* the constructions of the Theorem 4 proof (Φ, Ψ, Ψ̃, h, F) as *functions of a list of gaps*, so the
  same code builds them from the model-derived gaps and from the printed gaps;
* the small-T limit of the line minimiser: argmin_x max(0, max_j d_j(x)) solved exactly;
* float64 helpers (stable L1 and L1′ on the line, the line minimiser) that rate sweeps may reuse.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Sequence

import numpy as np
import sympy as sp
from scipy.optimize import minimize_scalar

from .symbolic import n3

x = sp.Symbol("x", real=True)
HALF = sp.Rational(1, 2)
#: free symbols standing for p = (p1(r1), …, p1(r6)) in "(v, p)" polynomial identities
P = sp.symbols("p1:7", real=True)


# --- the θ-gradient through the softmax ---------------------------------------------------

@lru_cache(maxsize=4)
def softmax_jacobian(v: tuple[sp.Expr, ...]) -> sp.Matrix:
    """∂v_j/∂θ_i for v = softmax(θ), written in v: v_j(δ_ij − v_i).

    Derived by differentiating e^{θ_j}/Σe^θ and confirmed exactly at a generic rational θ-point
    (the closed form is what lets the θ-gradient be written on the simplex of v)."""
    th = sp.symbols("t1:7", real=True)
    sm = [sp.exp(t) / sp.Add(*[sp.exp(s) for s in th]) for t in th]
    pt = {t: sp.Rational(k + 1, 7) for k, t in enumerate(th)}
    vv = [e.xreplace(pt) for e in sm]
    for i in range(6):
        for j in range(6):
            diff = sp.diff(sm[j], th[i]).xreplace(pt) - vv[j] * (int(i == j) - vv[i])
            if abs(sp.N(diff, 30)) > 1e-25:
                raise AssertionError("softmax Jacobian closed form")
    return sp.Matrix(6, 6, lambda i, j: v[j] * (int(i == j) - v[i]))


@lru_cache(maxsize=1)
def grad_theta_in_v() -> list[sp.Expr]:
    """∂L1/∂θ_i as a function of (v, T): chain rule of the model's ∂L1/∂v through softmax."""
    m = n3()
    g = m.grad_v()
    J = softmax_jacobian(m.v)
    return [sp.Add(*[J[i, j] * g[j] for j in range(6)]) for i in range(6)]


def dldl_in_p() -> list[sp.Expr]:
    """∂L1/∂l_r in terms of p = softmax(l/T): differentiate −l1/T + log Σ e^{l/T} in free logits,
    then write e^{l_k/T} = p_k·Z and use Σ p = 1 in the denominator (derived; on the simplex of p
    this is (p_r − δ_{r1})/T)."""
    T = n3().T
    ls = sp.symbols("l1:7", real=True)
    Z = sp.Symbol("Z", positive=True)
    L = -ls[0] / T + sp.log(sp.Add(*[sp.exp(l / T) for l in ls]))
    out = []
    for r in range(6):
        d = sp.diff(L, ls[r]).xreplace({sp.exp(ls[k] / T): P[k] * Z for k in range(6)})
        num, den = sp.fraction(sp.cancel(sp.together(d)))
        den = sp.factor(den).xreplace({sp.Add(*P): sp.Integer(1)})
        out.append(sp.expand(num / den))
    return out


@lru_cache(maxsize=1)
def grad_v_in_p() -> list[sp.Expr]:
    """∂L1/∂v_i as a polynomial in (v, p, 1/T): Σ_r (∂L1/∂l_r)(∂l_r/∂v_i)."""
    m = n3()
    dl = dldl_in_p()
    return [sp.expand(sp.Add(*[dl[r] * sp.diff(m.relation_logits[r], vi) for r in range(6)])) for vi in m.v]


@lru_cache(maxsize=1)
def grad_theta_in_p() -> list[sp.Expr]:
    m = n3()
    g = grad_v_in_p()
    J = softmax_jacobian(m.v)
    return [sp.expand(sp.Add(*[J[i, j] * g[j] for j in range(6)])) for i in range(6)]


def on_simplex_p(expr: sp.Expr) -> sp.Expr:
    """Impose Σ p = 1 (p1 = 1 − p2 − … − p6) and expand."""
    return sp.expand(expr.xreplace({P[0]: 1 - sp.Add(*P[1:])}))


def on_simplex_v(expr: sp.Expr) -> sp.Expr:
    """Impose Σ v = 1 (v6 = 1 − v1 − … − v5) and expand."""
    v = n3().v
    return sp.expand(expr.xreplace({v[5]: 1 - sp.Add(*v[:5])}))


def p_as_softmax() -> dict[sp.Symbol, sp.Expr]:
    """p_r ↦ softmax(l/T)_r with the model's logits."""
    return dict(zip(P, n3().p1()))


def weighted_logit_mean_p() -> sp.Expr:
    """Σ_r p1(r) l(r) with p free."""
    return sp.Add(*[p * l for p, l in zip(P, n3().relation_logits)])


# --- the pairwise line and its gaps -------------------------------------------------------

def line_point(t: sp.Expr = x) -> dict[sp.Symbol, sp.Expr]:
    """v = (t, t, ½ − t, ½ − t, 0, 0) as a substitution (Theorem 4's pairwise family)."""
    return dict(zip(n3().v, [t, t, HALF - t, HALF - t, 0, 0]))


def face_v5_zero() -> dict[sp.Symbol, sp.Expr]:
    return {n3().v[4]: sp.Integer(0)}


@lru_cache(maxsize=1)
def line_logits() -> list[sp.Expr]:
    return [sp.expand(l.xreplace(line_point())) for l in n3().relation_logits]


@lru_cache(maxsize=1)
def line_gaps() -> list[sp.Expr]:
    """d_j(x) = l_j − l_1 on the line, j = 1..6 (d_1 = 0), from the model."""
    l = line_logits()
    return [sp.expand(t - l[0]) for t in l]


def line_L1() -> sp.Expr:
    """The model's L1 restricted to the line (a function of x and T)."""
    return n3().L1().xreplace(line_point())


def L1_from_gaps(d: Sequence[sp.Expr], T: sp.Expr) -> sp.Expr:
    """log(1 + Σ_{j≥2} exp(d_j/T)) for gaps d = (d2, …, d6)."""
    return sp.log(1 + sp.Add(*[sp.exp(dj / T) for dj in d]))


# --- Theorem 4 constructions from a list of gaps (d2, …, d6) ------------------------------

def Phi(d: Sequence[sp.Expr], T: sp.Expr) -> sp.Expr:
    """Φ(x) := Σ_{j=2}^6 d_j′(x) e^{d_j(x)/T}."""
    return sp.Add(*[sp.diff(dj, x) * sp.exp(dj / T) for dj in d])


def Psi(d: Sequence[sp.Expr], T: sp.Expr) -> sp.Expr:
    """Ψ := e^{−d6/T} Φ, expanded term by term."""
    d6 = d[-1]
    return sp.Add(*[sp.diff(dj, x) * sp.exp(sp.expand(dj - d6) / T) for dj in d])


def h_of(d: Sequence[sp.Expr]) -> sp.Expr:
    """h := d2 − d6."""
    return sp.expand(d[0] - d[-1])


def Psi_tilde(d: Sequence[sp.Expr], T: sp.Expr) -> sp.Expr:
    """The j = 2 and j = 6 terms of Ψ: d2′ e^{h/T} + d6′."""
    return sp.diff(d[0], x) * sp.exp(h_of(d) / T) + sp.diff(d[-1], x)


def F_of(d: Sequence[sp.Expr], T: sp.Expr) -> sp.Expr:
    """F := h − T log(−d6′/d2′), so that Ψ̃ = −d6′ (e^{F/T} − 1)."""
    return h_of(d) - T * sp.log(-sp.diff(d[-1], x) / sp.diff(d[0], x))


def small_T_minimiser(d: Sequence[sp.Expr], lo: sp.Expr = 0, hi: sp.Expr = sp.Rational(1, 4)):
    """argmin over [lo, hi] of M(x) = max(d2, …, d6) where M < 0: then L1 = Σ_j e^{d_j/T}(1 + o(1))
    and T log L1 → M uniformly, so minimisers of L1 converge to argmin M (the small-T limit).  Exact: candidates are the endpoints, the vertices
    of each d_j and all pairwise crossings d_i = d_j; returns (x*, M(x*))."""
    cands = {sp.nsimplify(lo), sp.nsimplify(hi)}
    for dj in d:
        cands.update(sp.solve(sp.diff(dj, x), x))
    for a, b in combinations(list(d), 2):
        cands.update(r for r in sp.solve(sp.expand(a - b), x) if r.is_real)
    cands = [c for c in cands if c.is_real and lo <= c <= hi]

    def M(c):
        return sp.Max(*[dj.xreplace({x: c}) for dj in d])

    best = min(cands, key=lambda c: float(M(c)))
    return sp.nsimplify(sp.radsimp(best)), sp.simplify(M(best))


# --- float64 on the line (reusable by sweeps) ---------------------------------------------

@lru_cache(maxsize=1)
def _gap_polys() -> tuple[np.ndarray, np.ndarray]:
    """Coefficient arrays (numpy.polyval order) of d_2..d_6 and their derivatives."""
    d = line_gaps()[1:]
    co = [np.array([float(c) for c in sp.Poly(dj, x).all_coeffs()]) for dj in d]
    return co, [np.polyder(c) for c in co]


def line_L1_float(xs: np.ndarray, T: float) -> np.ndarray:
    """L1(x) = log(1 + Σ e^{d_j(x)/T}) on the line, float64, in log space."""
    co, _ = _gap_polys()
    xs = np.asarray(xs, dtype=float)
    e = np.stack([np.zeros_like(xs)] + [np.polyval(c, xs) / T for c in co])
    return np.logaddexp.reduce(e, axis=0)


def line_L1_minus_log2_float(xs: np.ndarray, T: float) -> np.ndarray:
    """L1(x) − log 2 = log1p((S − 1)/2), S = Σ_{j≥2} e^{d_j/T}, with S − 1 = expm1(d_max/T) + Σ_{rest} e^{d_j/T}
    (resolves L1 − log 2 down to ~1e-300 where L1 itself rounds to log 2)."""
    co, _ = _gap_polys()
    xs = np.atleast_1d(np.asarray(xs, dtype=float))
    e = np.stack([np.polyval(c, xs) / T for c in co])
    k = np.argmax(e, axis=0)
    top = np.take_along_axis(e, k[None], axis=0)[0]
    mask = np.arange(e.shape[0])[:, None] != k[None]
    rest = np.where(mask, np.exp(e), 0.0).sum(axis=0)
    return np.log1p((np.expm1(top) + rest) / 2)


def line_slope_float(xs: np.ndarray, T: float) -> np.ndarray:
    """L1′(x) = Σ d_j′ w_j / (T Σ w), w = softmax(0, d/T), float64 and stable."""
    co, der = _gap_polys()
    xs = np.asarray(xs, dtype=float)
    e = np.stack([np.zeros_like(xs)] + [np.polyval(c, xs) / T for c in co])
    w = np.exp(e - e.max(axis=0))
    dd = np.stack([np.zeros_like(xs)] + [np.polyval(c, xs) for c in der])
    return (dd * w).sum(axis=0) / (T * w.sum(axis=0))


def line_minimiser_float(T: float, lo: float = 1e-9, hi: float = 0.25) -> tuple[float, float]:
    """The minimiser of the exact L1 on the line over (lo, hi) ⊂ (0, ¼], and its value (float64)."""
    grid = np.linspace(lo, hi, 2001)
    k = int(np.argmin(line_L1_float(grid, T)))
    a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    res = minimize_scalar(lambda t: float(line_L1_float(np.array([t]), T)[0]), bounds=(a, b),
                          method="bounded", options={"xatol": 1e-13})
    return float(res.x), float(res.fun)


# --- numeric L1 on the simplex (for multistart minimisation) ------------------------------

@lru_cache(maxsize=1)
def relation_quadratic_forms() -> np.ndarray:
    """A ∈ Z^{6×6×6} with l(r_j) = vᵀ A_j v, read off the model's logits (exact, checked homogeneous)."""
    m = n3()
    out = []
    vv = sp.Matrix(m.v)
    for l in m.relation_logits:
        A = sp.hessian(l, m.v) / 2
        if sp.expand(l - (vv.T * A * vv)[0]) != 0:
            raise ValueError("relation logit is not a homogeneous quadratic form")
        out.append(np.array(A.tolist(), dtype=float))
    return np.stack(out)


def L1_and_grad_float(v: np.ndarray, T: float) -> tuple[float, np.ndarray]:
    """L1(v) = −l1/T + logsumexp(l/T) and ∂L1/∂v (float64), with l_j = vᵀA_j v."""
    A = relation_quadratic_forms()
    Av = A @ v  # (6, 6): row j = A_j v
    l = Av @ v
    z = l / T
    zmax = z.max()
    w = np.exp(z - zmax)
    p = w / w.sum()
    L = -z[0] + zmax + np.log(w.sum())
    grad = (2.0 / T) * ((p - np.eye(6)[0]) @ Av)
    return float(L), grad


def logL1_and_grad_float(v: np.ndarray, T: float) -> tuple[float, np.ndarray]:
    """log L1(v) and its gradient (float64), with L1 = log(1 + S), S = Σ_{j≥2} e^{d_j/T}, d_j = vᵀ(A_j − A_1)v.

    In log space so that small T resolves: near the optimum L1 ≈ e^{−1/(18T)} (≈ 1e-24 at T = 0.001), below the
    ~1e-16/T absolute rounding of :func:`L1_and_grad_float`'s −l1/T + logsumexp(l/T).  log S = logsumexp(d/T) is
    exact to ~1e-16/T absolutely (d_j formed directly); ∇ log L1 = (S/((1 + S)L1))·Σ_j softmax(d/T)_j ∇d_j/T."""
    A = relation_quadratic_forms()
    Av = A @ v
    l = Av @ v
    z = (l[1:] - l[0]) / T
    zmax = z.max()
    w = np.exp(z - zmax)
    lse = zmax + np.log(w.sum())  # log S
    if lse > 30.0:
        L = lse + np.log1p(np.exp(-lse))
        logL = np.log(L)
    else:
        S = np.exp(lse)
        logL = lse + (np.log(np.log1p(S) / S) if S > 1e-12 else np.log1p(-S / 2))
    factor = np.exp(lse - logL) / (1.0 + np.exp(lse)) if lse < 700 else np.exp(-logL)
    grad = factor * (2.0 / T) * ((w / w.sum()) @ (Av[1:] - Av[0]))
    return float(logL), grad


# --- a max that sympy does not re-simplify --------------------------------------------------

class NMax(sp.Function):
    """max of its arguments, evaluated only when every argument is a number (sympy's Max
    re-simplifies on every substitution, which costs minutes on these expressions).  Prints as
    nested ``numpy.maximum`` for float64 evaluation; compares numbers at 60 digits."""

    @classmethod
    def eval(cls, *args):
        if args and all(a.is_number for a in args):
            return max(args, key=lambda a: sp.N(a, 60))
        return None

    def _numpycode(self, printer):
        mx = printer._module_format("numpy.maximum")
        out = printer.doprint(self.args[0])
        for a in self.args[1:]:
            out = f"{mx}({out}, {printer.doprint(a)})"
        return out


def pmax(*args: sp.Expr) -> sp.Expr:
    return NMax(*args)
