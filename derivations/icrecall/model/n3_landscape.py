"""The n = 3 landscape of App. B, derived from the model (``symbolic.n3()``): the face θ5 = θ6 = −∞, directions
through θ̃, exact derivatives along them, the symmetric manifold v1 = v3, v2 = v4, and a fast exact gradient for
gradient-descent runs (shared by the Lemma 5, Lemma 6 and Section 4.1 claims).

Conventions:
* the face θ5 = θ6 = −∞ is represented explicitly: v = (softmax(θ1..θ4), 0, 0);
* θ̃ = (0, 0, 0, 0, −∞, −∞) (any θ̃ with equal first four coordinates gives ṽ);
* the symmetric manifold v1 = v3, v2 = v4 is parametrised by a point s of a simplex (below).
"""
from __future__ import annotations

from functools import lru_cache

import mpmath
import numpy as np
import sympy as sp

import theoryverify as tv

from ..printed import appb as printed
from .symbolic import n3, softmax

Domain, Interval, LogUniform, Simplex = tv.Domain, tv.Interval, tv.LogUniform, tv.Simplex

#: temperatures of the 50-digit finite-difference confirmations (Lemma 5, Lemma 6)
FD_TEMPERATURES = (0.2, 0.1, 0.05, 0.02, 0.01)

M = n3()
V, T = M.v, M.T
T_DOM = Domain([LogUniform(T, 1e-2, 10.0)])
SIMPLEX_V_T = Domain([Simplex(V), LogUniform(T, 1e-2, 10.0)])
INIT = {vi: sp.Rational(1, 6) for vi in V}
SADDLE = dict(zip(V, printed.SADDLE_V))
HALF = sp.Rational(1, 2)

# --- the symmetric manifold v1 = v3, v2 = v4 ------------------------------------------------
S = sp.symbols("s1:5", nonnegative=True)
#: v = (s1/2, s2/2, s1/2, s2/2, s3, s4): every point with v1 = v3, v2 = v4 on the simplex.
SYM = {V[0]: S[0] / 2, V[1]: S[1] / 2, V[2]: S[0] / 2, V[3]: S[1] / 2, V[4]: S[2], V[5]: S[3]}
SYM_DOM = Domain([Simplex(S), LogUniform(T, 1e-2, 10.0)])
#: ... and on the face v5 = v6 = 0: v = (s1/2, s2/2, s1/2, s2/2, 0, 0).
S2 = sp.symbols("u1:3", nonnegative=True)
SYM_FACE = {V[0]: S2[0] / 2, V[1]: S2[1] / 2, V[2]: S2[0] / 2, V[3]: S2[1] / 2, V[4]: 0, V[5]: 0}
SYM_FACE_DOM = Domain([Simplex(S2), LogUniform(T, 1e-2, 10.0)])


def sub(expr: sp.Expr, point) -> sp.Expr:
    return sp.sympify(expr).xreplace(point)


E = sp.symbols("E1:7", positive=True)
E_DOM = Domain([Simplex(V), *(LogUniform(e, 1e-3, 1e3) for e in E), LogUniform(T, 1e-2, 10.0)])


def rename_exps(expr: sp.Expr) -> sp.Expr:
    """Replace exp(l_j/T) (model logits) by independent positive symbols E_j: an identity of the
    renamed rational functions implies the original one (Eqs. (4)–(9) CHECK of the catalogue)."""
    return sp.sympify(expr).xreplace({sp.exp(l / T): e for l, e in zip(M.relation_logits, E)})


def probs(point=None) -> list[sp.Expr]:
    """p = softmax(l/T) over r1..r6, model logits, optionally at a substitution ``point``."""
    p = M.p1()
    return p if point is None else [sub(q, point) for q in p]


# --- the face and directions through θ̃ --------------------------------------------------------

def face_v(theta4) -> list[sp.Expr]:
    """v on the face θ5 = θ6 = −∞: (softmax(θ1..θ4), 0, 0)."""
    return list(softmax(list(theta4))) + [sp.Integer(0), sp.Integer(0)]


X = sp.Symbol("x", real=True)
PHI = sp.symbols("phi1:5", real=True)


def face_grad_theta(phi0) -> list[sp.Expr]:
    """∂/∂φ_i of L1(face_v(φ)) at φ = ``phi0`` by the chain rule: model ∇_v L1 at v(φ0) times the
    SymPy Jacobian of the face softmax at φ0 (exact)."""
    at = dict(zip(PHI, phi0))
    vv = face_v(PHI)
    gv = [sub(g, dict(zip(V, [sub(x, at) for x in vv]))) for g in M.grad_v()]
    return [sum(gv[j] * sub(sp.diff(vv[j], PHI[i]), at) for j in range(4)) for i in range(4)]


def along_v(u) -> list[sp.Expr]:
    """v(x) = softmax(θ̃ + x·u) on the face (u5, u6 are irrelevant there)."""
    return face_v([X * ui for ui in u[:4]])


@lru_cache(maxsize=16)
def loss_along(u: tuple) -> sp.Expr:
    """f_{u,θ̃}(x) = L1(θ̃ + x·u) (model-derived L1, composed with the face softmax)."""
    return sub(M.L1(), dict(zip(V, along_v(u))))


@lru_cache(maxsize=16)
def derivs_at_0(u: tuple) -> tuple[sp.Expr, sp.Expr]:
    """(f′(0), f″(0)) of f = L1(θ̃ + x·u), exactly, as functions of T (common factors cancelled).
    f′(0) and f″(0) depend on v(x) only through v(0), v′(0), v″(0), so v(x) is replaced by its exact
    second-order Taylor polynomial (cheap to differentiate); ``fd_second_derivative`` confirms the
    result on the full composition."""
    vx = along_v(u)
    taylor = [sum(sp.diff(vi, X, k).subs(X, 0) * X**k / sp.factorial(k) for k in range(3)) for vi in vx]
    ls = [sp.expand(sub(l, dict(zip(V, taylor)))) for l in M.relation_logits]
    f = -ls[0] / T + sp.log(sum(sp.exp(l / T) for l in ls))  # L1 as in model.N3.L1
    return tuple(sp.factor(sp.diff(f, X, k).subs(X, 0)) for k in (1, 2))


@lru_cache(maxsize=16)
def _mp_loss_along(u: tuple):
    return sp.lambdify([X, T], loss_along(u), modules="mpmath")


def fd_second_derivative(u: tuple, t: float, dps: int = 50) -> mpmath.mpf:
    """f″(0) by a 50-digit numerical differentiation (mpmath.diff) of the composed loss, independent of
    SymPy's differentiation."""
    f = _mp_loss_along(tuple(u))
    with mpmath.workdps(dps):
        return mpmath.diff(lambda x: f(x, mpmath.mpf(t)), 0, 2)


# --- a fast exact-model gradient for gradient-descent runs ----------------------------------

@lru_cache(maxsize=1)
def quadratic_forms() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """The relation logits as quadratic forms l_j = vᵀQ_j v (Q_j from the model's Hessians); the
    nonzero entries (a, b, Q_ab) per relation, as Python integers.  Asserts l_j == vᵀQ_j v exactly."""
    out = []
    vv = sp.Matrix(V)
    for l in M.relation_logits:
        Q = sp.hessian(l, V) / 2
        assert sp.expand((vv.T * Q * vv)[0] - l) == 0, "logit is not a homogeneous quadratic"
        assert all(q.is_Integer for q in Q), "non-integer quadratic form"
        out.append(tuple((a, b, int(Q[a, b])) for a in range(6) for b in range(6) if Q[a, b] != 0))
    return tuple(out)


def mp_grad_theta(theta, t):
    """(∇_θ L1, v, ∇_v L1) at θ in mpmath: ∇_v L1 = (1/T)Σ_j (p_j − δ_j1)∇l_j with l_j = vᵀQ_j v,
    then the softmax chain rule.  Checked against the model's ``grad_theta`` in ``gd_agrees``."""
    ex = [mpmath.exp(x - max(theta)) for x in theta]
    z = mpmath.fsum(ex)
    v = [e / z for e in ex]
    forms = quadratic_forms()
    logits = [mpmath.fsum(q * v[a] * v[b] for a, b, q in form) for form in forms]
    top = max(logits)
    el = [mpmath.exp((l - top) / t) for l in logits]
    zl = mpmath.fsum(el)
    w = [e / zl for e in el]
    w[0] -= 1
    gv = [mpmath.mpf(0)] * 6
    for wj, form in zip(w, forms):
        for a, b, q in form:
            gv[a] += 2 * wj * q * v[b] / t
    s = mpmath.fsum(vi * gi for vi, gi in zip(v, gv))
    return [vi * (gi - s) for vi, gi in zip(v, gv)], v, gv


@lru_cache(maxsize=8)
def gd_run(t: float, eta: float, steps: int) -> tuple[tuple, ...]:
    """Gradient descent on L1(θ) from θ = 0 at 40 + steps/10 digits: a tuple of (v_k, ∇_v L1(v_k)).
    The symmetric manifold is unstable near the saddle (roundoff grows by ≲ 0.04 decades per step at
    T = 1, η = T², measured in float64), so the precision grows with the number of steps."""
    with mpmath.workdps(40 + steps // 10):
        theta = [mpmath.mpf(0)] * 6
        tt, ee = mpmath.mpf(t), mpmath.mpf(eta)
        out = []
        for _ in range(steps + 1):
            g, v, gv = mp_grad_theta(theta, tt)
            out.append((tuple(v), tuple(gv)))
            theta = [a - ee * b for a, b in zip(theta, g)]
        return tuple(out)


def float64_departure(t: float, eta: float, steps: int, tol: float = 1e-13) -> int | None:
    """The first float64 GD step at which |v1 − v3| or |v2 − v4| exceeds ``tol`` (None if never):
    roundoff grows along the unstable direction of the symmetric manifold (a numerical note)."""
    forms = quadratic_forms()
    Q = np.zeros((6, 6, 6))
    for j, form in enumerate(forms):
        for a, b, q in form:
            Q[j, a, b] = float(q)
    th = np.zeros(6)
    for k in range(steps + 1):
        v = np.exp(th - th.max())
        v /= v.sum()
        if max(abs(v[0] - v[2]), abs(v[1] - v[3])) > tol:
            return k
        l = np.einsum("jab,a,b->j", Q, v, v) / t
        p = np.exp(l - l.max())
        p /= p.sum()
        p[0] -= 1
        g = 2 * np.einsum("j,jab,b->a", p, Q, v) / t
        th = th - eta * v * (g - v @ g)
    return None
