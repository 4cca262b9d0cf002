"""Section 5, head 2 (the induction head): the partial loss L_IH under the App. C.2 simplification
(Eq. (22), lost) derived from primitives, its gradient flow, and the admissible domain.

Model (spec §2.4; RC-5, RC-8, RC-9, RC-10, RC-12, RC-19), tokens x_1..x_L iid N(0,1), d = 1:

* head 2:  TF_2 = v2 Σ_{s=2}^{L-1} softmax_s(k x_L x_{s-1}) x_s,  k = w_K w_Q            (Eq. 10, RC-8/9)
* target:  y_2  = (1-α) Σ_{s=2}^{L-1} softmax_s(w x_L x_{s-1}) x_s                        (Eq. 8, RC-5)
* loss:    L_IH = ½ E (TF_2 - y_2)²                                                        (Eq. 11, RC-10)
* RC-12:   softmax_s(z) ≈ e^{z_s}/N in both softmaxes, N = L-2 summands (RC-19).

Derivation (:func:`loss_ih_sym`): with T_s = g(x_L x_{s-1}) x_s / N, g(u) = v2 e^{k u} - (1-α) e^{w u},
the squared sum splits by the pattern of (s, s'): diagonal (N terms), adjacent s' = s+1 (2(N-1)) and
far (N-1)(N-2).  Each pattern's expectation is computed by :func:`gauss.expect_all` over
representative variables (inner tokens first, x_L last), collecting the finiteness conditions.
Result (derived, not assumed):

    L_IH = 1/(2N) [ v2²/√(1-4k²) - 2(1-α) v2/√(1-(k+w)²) + (1-α)²/√(1-4w²) ],

finite iff 4k² < 1, (k+w)² < 1, 4w² < 1, i.e. |k| < 1/2 and |w| < 1/2 (then |k+w| < 1 holds).
The adjacent and far cross terms vanish (a value token enters linearly with mean zero).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import sympy as sp

from .gauss import Expectation, expect_all

# Parameters of L_IH(k, v2; alpha, w, N).
k = sp.Symbol("k", real=True)
v2 = sp.Symbol("v2", real=True)
alpha = sp.Symbol("alpha", real=True)
w = sp.Symbol("w", real=True)
N = sp.Symbol("N", positive=True, integer=True)
# Separate RC-8 scalars.
wK = sp.Symbol("w_K", real=True)
wQ = sp.Symbol("w_Q", real=True)


def _vec(name: str, d: int) -> list[sp.Symbol]:
    return [sp.Symbol(f"{name}{i}", real=True) for i in range(d)] if d > 1 else [sp.Symbol(name, real=True)]


def _dot(u, v):
    return sum(ui * vi for ui, vi in zip(u, v))


def _g(u: sp.Expr, kk=k, vv=v2) -> sp.Expr:
    """Per-summand weight difference under RC-12 (times N): v2 e^{k u} - (1-α) e^{w u}."""
    return vv * sp.exp(kk * u) - (1 - alpha) * sp.exp(w * u)


@lru_cache(maxsize=None)
def pattern_terms(d: int = 1) -> dict[str, Expectation]:
    """E[T_s · T_s'] · N² for the three index patterns (diag, adjacent, far), d-dimensional tokens
    (d > 1 is the RC-2 extension: W = w I_d, K = k I_d, scalar values; labelled as such)."""
    xL, a, bb, cc, e = (_vec(n, d) for n in ("xL", "a", "b", "c", "e"))
    flat = lambda *vs: [s for v in vs for s in v]   # noqa: E731
    diag = _g(_dot(xL, a)) ** 2 * _dot(bb, bb)                       # s = s'
    adj = _g(_dot(xL, a)) * _g(_dot(xL, bb)) * _dot(bb, cc)          # s' = s+1: key of s' is value of s
    far = _g(_dot(xL, a)) * _g(_dot(xL, cc)) * _dot(bb, e)           # s' >= s+2: disjoint tokens
    return {
        "diag": expect_all(diag, flat(bb, a, xL)),
        "adjacent": expect_all(adj, flat(cc, bb, a, xL)),
        "far": expect_all(far, flat(e, bb, cc, a, xL)),
    }


@lru_cache(maxsize=None)
def loss_ih_sym(d: int = 1) -> sp.Expr:
    """L_IH(k, v2; alpha, w, N) under RC-12, derived (see module docstring).  d > 1: RC-2 extension."""
    t = pattern_terms(d)
    total = N * t["diag"].value + 2 * (N - 1) * t["adjacent"].value + (N - 1) * (N - 2) * t["far"].value
    return sp.expand(total / (2 * N ** 2))


@lru_cache(maxsize=None)
def admissible_conditions(d: int = 1) -> tuple:
    """The finiteness conditions collected during the derivation (deduplicated)."""
    conds = []
    for t in pattern_terms(d).values():
        for cnd in t.conditions:
            if cnd not in conds and cnd != sp.true:
                conds.append(cnd)
    return tuple(conds)


def admissible_box() -> dict[str, sp.Set]:
    """The admissible domain solved from the collected conditions: k-range and w-range on their own,
    plus the joint condition on k + w."""
    out = {}
    for cnd in admissible_conditions(1):
        free = cnd.free_symbols
        if free == {k}:
            out["k"] = sp.solveset(cnd, k, sp.S.Reals)
        elif free == {w}:
            out["w"] = sp.solveset(cnd, w, sp.S.Reals)
        else:
            u = sp.Symbol("u", real=True)
            out["k+w"] = sp.solveset(sp.expand(cnd.lhs.subs(k, u - w)) > 0, u, sp.S.Reals)
    return out


def closed_form_sym(d: int = 1) -> sp.Expr:
    """The closed form stated in the module docstring (general d: d/(2N) [... (·)^{-d/2}]) — compared
    with :func:`loss_ih_sym` in the claims, never used in place of it."""
    h = sp.Rational(d, 2)
    return sp.Rational(d, 1) / (2 * N) * (v2 ** 2 * (1 - 4 * k ** 2) ** -h
                                          - 2 * (1 - alpha) * v2 * (1 - (k + w) ** 2) ** -h
                                          + (1 - alpha) ** 2 * (1 - 4 * w ** 2) ** -h)


@lru_cache(maxsize=None)
def loss_ih_concrete(L: int) -> Expectation:
    """Brute-force check of the pattern argument: expand ½(TF_2 - y_2)² for a concrete L under RC-12
    and take the iterated expectation over x_1..x_{L-1}, then x_L."""
    xs = [sp.Symbol(f"x{i}", real=True) for i in range(1, L + 1)]
    xL = xs[-1]
    n = L - 2
    diff = sum(_g(xL * xs[s - 2]) * xs[s - 1] for s in range(2, L)) / n
    return expect_all(sp.Rational(1, 2) * diff ** 2, xs[:-1] + [xL])


def sample_loss_sym(L: int, softmax: str = "exact", reparam: bool = True,
                    keys: str = "limit") -> tuple[sp.Expr, list[sp.Symbol]]:
    """Per-sample ½(TF_2 - y_2)² for a concrete L with symbolic tokens (exact softmax or RC-12);
    reparam=True uses k = w_K w_Q (RC-8), else a single k (RC-8 alternative).  keys="limit": the
    model's keys are x_{s-1} (RC-9); keys="generic": free symbols x~_s (any frozen first layer).
    Returns (expr, symbols)."""
    xs = [sp.Symbol(f"x{i}", real=True) for i in range(1, L + 1)]
    xL = xs[-1]
    kk = wK * wQ if reparam else k
    if keys == "generic":
        xt = [sp.Symbol(f"xt{s}", real=True) for s in range(2, L)]
        xs = xs + xt
    else:
        xt = [xs[s - 2] for s in range(2, L)]
    scores_m = [sp.exp(kk * xL * key) for key in xt]
    scores_t = [sp.exp(w * xL * xs[s - 2]) for s in range(2, L)]
    vals = xs[1:L - 1]
    xL = xs[L - 1]
    if softmax == "exact":
        zm, zt = sum(scores_m), sum(scores_t)
    elif softmax == "rc12":
        zm = zt = sp.Integer(L - 2)
    else:
        raise ValueError(softmax)
    tf2 = v2 * sum(e * x for e, x in zip(scores_m, vals)) / zm
    y2 = (1 - alpha) * sum(e * x for e, x in zip(scores_t, vals)) / zt
    return sp.Rational(1, 2) * (tf2 - y2) ** 2, xs


@lru_cache(maxsize=None)
def ih_second_moment_sym(softmax: str = "rc12") -> Expectation:
    """N·E[f_IH²] derived with :func:`gauss.expect_all` (cross terms vanish as in :func:`pattern_terms`):
    RC-12: E[e^{2w x_L a} b²] (exact in L);  exact softmax at leading order in 1/N: the denominator
    (1/N)Σ_s e^{w x_L x_{s-1}} → E[e^{w x_L z} | x_L] = e^{w² x_L²/2} (law of large numbers + D.3 (i)), so
    N·E f_IH² → E[e^{2w x_L a - w² x_L²} b²]."""
    xL, a_, b_ = (sp.Symbol(n, real=True) for n in ("xL", "a", "b"))
    expo = 2 * w * xL * a_ - (w ** 2 * xL ** 2 if softmax == "exact" else 0)
    return expect_all(sp.exp(expo) * b_ ** 2, [b_, a_, xL])


# --------------------------------------------------------------------------------------------------
# numpy (vectorised; nan outside the admissible domain)

def admissible(kv, wv) -> np.ndarray:
    """|2k| < 1, |k+w| < 1, |2w| < 1 (derived; equivalent to |k| < 1/2 and |w| < 1/2)."""
    kv, wv = np.asarray(kv, float), np.asarray(wv, float)
    return (np.abs(2 * kv) < 1) & (np.abs(kv + wv) < 1) & (np.abs(2 * wv) < 1)


def _r(x) -> np.ndarray:
    """(1 - x²)^{-1/2}, nan for |x| >= 1."""
    x = np.asarray(x, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.abs(x) < 1, 1.0 / np.sqrt(np.abs(1.0 - x * x)), np.nan)


def loss_ih(kv, v2v, alphav, wv, L):
    """L_IH under RC-12 (Eq. (22) reconstruction), N = L - 2."""
    n = np.asarray(L, float) - 2
    b = 1.0 - np.asarray(alphav, float)
    v = np.asarray(v2v, float)
    return (v * v * _r(2 * np.asarray(kv)) - 2 * b * v * _r(np.asarray(kv) + wv) + b * b * _r(2 * np.asarray(wv))) / (2 * n)


def grad_ih(kv, v2v, alphav, wv, L):
    """(∂L_IH/∂k, ∂L_IH/∂v2) under RC-12."""
    kv, v, wv = np.asarray(kv, float), np.asarray(v2v, float), np.asarray(wv, float)
    n = np.asarray(L, float) - 2
    b = 1.0 - np.asarray(alphav, float)
    r2k, rkw = _r(2 * kv), _r(kv + wv)
    dk = (4 * kv * v * v * r2k ** 3 - 2 * b * v * (kv + wv) * rkw ** 3) / (2 * n)
    dv = (v * r2k - b * rkw) / n
    return dk, dv


def grad_ih_scalar(k_: float, v2_: float, alpha_: float, w_: float, L: int) -> tuple[float, float]:
    """:func:`grad_ih` at one point with scalar ``math`` (an ODE integrator's hot path)."""
    b, n = 1.0 - alpha_, L - 2
    r2, rw = 1.0 / math.sqrt(1.0 - 4 * k_ * k_), 1.0 / math.sqrt(1.0 - (k_ + w_) ** 2)
    return (v2_ * v2_ * 2 * k_ * r2**3 - b * v2_ * (k_ + w_) * rw**3) / n, (v2_ * r2 - b * rw) / n


def field(wKv, wQv, v2v, alphav, wv, L):
    """Gradient flow of L_IH in the RC-8 parameterisation: (dw_K/dt, dw_Q/dt, dv2/dt) = -∇L_IH,
    with ∂/∂w_K = w_Q ∂/∂k and ∂/∂w_Q = w_K ∂/∂k (chain rule through k = w_K w_Q)."""
    wKv, wQv = np.asarray(wKv, float), np.asarray(wQv, float)
    dk, dv = grad_ih(wKv * wQv, v2v, alphav, wv, L)
    return -dk * wQv, -dk * wKv, -dv


def field_kv(kv, v2v, alphav, wv, L, q=0.0):
    """The same flow in (k, v2), given the conserved q = w_K² - w_Q² (Lemma 5.4 reading):
    dk/dt = -(w_K² + w_Q²) ∂_k L = -√(q² + 4k²) ∂_k L; balanced (q = 0): -2|k| ∂_k L."""
    dk, dv = grad_ih(kv, v2v, alphav, wv, L)
    return -np.sqrt(np.asarray(q, float) ** 2 + 4 * np.asarray(kv, float) ** 2) * dk, -dv


def fixed_point(alphav, wv):
    """The stationary point of the head-2 flow with k != 0: (k, v2) = (w, 1 - alpha) (derived in
    claims_head2.s52_fixedpoint)."""
    return float(wv), 1.0 - float(alphav)


def ih_target_second_moment(wv, L, softmax: str = "rc12"):
    """E[f_IH²] (without the (1-α)² factor): RC-12 exactly (1/N)(1-4w²)^{-1/2}; exact softmax at
    leading order in 1/N (denominator → N e^{w² x_L²/2}): (1/N)(1-2w²)^{-1/2}."""
    n = np.asarray(L, float) - 2
    wv = np.asarray(wv, float)
    if softmax == "rc12":
        return _r(2 * wv) / n
    if softmax == "exact":
        return _r(np.sqrt(2.0) * wv) / n
    raise ValueError(softmax)
