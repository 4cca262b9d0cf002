"""Stage II, head 1 (the 4-gram head): the partial loss L_G4(p, v1; α, L) (App. C.1, Eq. 19).

Derived from primitives, never transcribed (the printed Eq. (19) is lost):

* Alibi weights π_j(p), RC-1 strictly causal (:mod:`alibi`), over the M = L−1 positions s = 1..L−1
  seen by the query at L (distance j = L−s);
* head-1 output (RC-7, RC-9 limit of the first layer, RC-6 x̃_1 = 0):
  TF_1 = v1 Σ_{s=1}^{L−1} π_{L−s}(p) x̃_s,  x̃_s = x_{s−1} (s ≥ 2),  x̃_1 = 0;
* target α x_{L−2} (RC-5), loss ½E(TF_1 − α x_{L−2})² (RC-10), tokens iid N(0, 1).

The error is linear in the Gaussian tokens, so E(·)² is the sum of its squared coefficients
(E x_i x_k = δ_ik): :func:`loss_g4_sym` expands the square and substitutes these moments.

Closed form (q = e^{−p}, M = L−1; derived here, checked against the token-level derivation):
  Z = Σ_{j=1}^{M} q^{j−1} = (1−q^M)/(1−q),   S = Σ_{j=1}^{M−1} q^{2(j−1)} = (1−q^{2(M−1)})/(1−q²),
  L_G4 = ½ [ v1² S/Z² − 2 α v1 / Z + α² ]
       = ½ [ (v1 π_1 − α)² + v1² Σ_{j=2}^{M−1} π_j² ]   (sum of squares; used numerically).
L → ∞ (CF-G4-decomp), r(q) = (1−q)/(1+q):
  L_∞ = ½ [ v1² r − 2 α v1 (1−q) + α² ] = ½ r (v1 − α(1+q))² + ½ α² q².
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from . import alibi

p, v1, alpha = sp.symbols("p v1 alpha", real=True)
q = sp.Symbol("q", positive=True)  # q = e^{-p}
Lsym = sp.Symbol("L", integer=True, positive=True)


def tokens(L: int) -> list[sp.Symbol]:
    """x_1..x_L as SymPy symbols (index 0 holds x_1)."""
    return list(sp.symbols(f"x1:{L + 1}", real=True))


def first_layer_limit(xs: list[sp.Symbol]) -> list[sp.Expr]:
    """RC-9 limit of Eq. (9) with RC-6: x̃_1 = 0, x̃_s = x_{s−1}."""
    return [sp.Integer(0)] + list(xs[:-1])


def gaussian_second_moment(quad: sp.Expr, xs: list[sp.Symbol]) -> sp.Expr:
    """E[quad] for a polynomial of degree ≤ 2 in iid N(0,1) tokens ``xs`` (E x_i = 0, E x_i x_k = δ_ik)."""
    poly = sp.Poly(sp.expand(quad), *xs)
    out = sp.Integer(0)
    for monom, coeff in poly.terms():
        deg = sum(monom)
        if deg == 0:
            out += coeff
        elif deg == 2 and max(monom) == 2:
            out += coeff
        elif deg > 2:
            raise ValueError("only degree <= 2 supported")
    return out


def head1_output_sym(L: int, xt: list[sp.Expr] | None = None, p_=p, v_=v1,
                     convention: str = "causal") -> sp.Expr:
    """TF_1 = v1 Σ_{s=1}^{L−1} π_{L−s}(p) x̃_s (RC-7) with the RC-1 weights of :mod:`alibi`."""
    xs = tokens(L)
    xt = first_layer_limit(xs) if xt is None else xt
    w = alibi.weights_sym(L - 1, p_, convention)  # the query at L sees s = 1..L-1 (causal)
    return v_ * sp.Add(*(w[L - s] * xt[s - 1] for s in range(1, L) if (L - s) in w))


def loss_g4_sym(L: int, target_index: int | None = None, convention: str = "causal") -> sp.Expr:
    """L_G4(p, v1; α, L) = ½E(TF_1 − α x_{L−2})² for a concrete L ≥ 3, derived at token level.

    ``target_index`` (1-based, default L−2) exists for planted-error twins only."""
    if L < 3:
        raise ValueError("L >= 3 needed (target x_{L-2})")
    xs = tokens(L)
    k = L - 2 if target_index is None else target_index
    err = head1_output_sym(L, convention=convention) - alpha * xs[k - 1]
    return sp.Rational(1, 2) * gaussian_second_moment(err**2, xs)


def loss_g4_closed(L=Lsym, in_q: bool = False) -> sp.Expr:
    """Closed form ½[v1² S/Z² − 2α v1/Z + α²] (module docstring); ``L`` may be a Symbol."""
    qq = q if in_q else sp.exp(-p)
    M = L - 1
    Z = (1 - qq**M) / (1 - qq)
    S = (1 - qq**(2 * (M - 1))) / (1 - qq**2)
    return sp.Rational(1, 2) * (v1**2 * S / Z**2 - 2 * alpha * v1 / Z + alpha**2)


def loss_g4_inf(in_q: bool = True) -> sp.Expr:
    """L → ∞ limit: ½[v1² (1−q)/(1+q) − 2α v1 (1−q) + α²] (q = e^{−p})."""
    qq = q if in_q else sp.exp(-p)
    return sp.Rational(1, 2) * (v1**2 * (1 - qq) / (1 + qq) - 2 * alpha * v1 * (1 - qq) + alpha**2)


def loss_g4_inf_decomposed(in_q: bool = True) -> sp.Expr:
    """½ r(q) u² + ½ α² q² with u = v1 − α(1+q) (the deviation from the v1-nullcline), r = (1−q)/(1+q)."""
    qq = q if in_q else sp.exp(-p)
    r = (1 - qq) / (1 + qq)
    return sp.Rational(1, 2) * r * (v1 - alpha * (1 + qq))**2 + sp.Rational(1, 2) * alpha**2 * qq**2


def grad_sym(loss: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(∂L/∂p, ∂L/∂v1) of a SymPy loss in (p, v1)."""
    return sp.diff(loss, p), sp.diff(loss, v1)


# --- numerics (float64, vectorised, stable for large p; checked against the SymPy derivation) ----------

def _pi(p_, L: int) -> np.ndarray:
    """π_j(p), j = 1..M (last axis), M = L−1, via overflow-safe normalised exponentials."""
    return alibi.weights_np(p_, L - 1, "causal")


def _parts(p_, v_, alpha_, L: int):
    p_, v_, alpha_ = np.broadcast_arrays(np.asarray(p_, float), np.asarray(v_, float), np.asarray(alpha_, float))
    pi = _pi(p_, L)
    j = np.arange(pi.shape[-1], dtype=float)  # j-1 = 0..M-1
    m1 = (pi * j).sum(-1)  # E_π[j-1];  dπ_j/dp = π_j (m1 - (j-1))
    dpi = pi * (m1[..., None] - j)
    live = pi[..., : L - 2]  # distances 1..M-1 read x_{L-1-j}; distance M reads x̃_1 = 0
    dlive = dpi[..., : L - 2]
    e0 = v_ * live[..., 0] - alpha_  # coefficient of x_{L-2} in TF_1 − α x_{L-2}
    rest = v_[..., None] * live[..., 1:]  # coefficients of x_{L-3}, ..., x_1
    return p_, v_, alpha_, live, dlive, e0, rest


def loss_g4(p_, v_, alpha_, L: int) -> np.ndarray:
    """L_G4 = ½[(v1π_1 − α)² + v1² Σ_{j=2}^{M−1} π_j²] (float64, sum of squares: no cancellation)."""
    *_, e0, rest = _parts(p_, v_, alpha_, L)
    return 0.5 * (e0**2 + (rest**2).sum(-1))


def grad_g4(p_, v_, alpha_, L: int) -> tuple[np.ndarray, np.ndarray]:
    """(∂L_G4/∂p, ∂L_G4/∂v1), float64, vectorised."""
    p_, v_, alpha_, live, dlive, e0, rest = _parts(p_, v_, alpha_, L)
    gp = e0 * v_ * dlive[..., 0] + (rest * v_[..., None] * dlive[..., 1:]).sum(-1)
    gv = e0 * live[..., 0] + (rest * live[..., 1:]).sum(-1)
    return gp, gv


@lru_cache(maxsize=64)
def _jm1(L: int) -> np.ndarray:
    return np.arange(L - 1, dtype=float)  # j - 1 for j = 1..M


def grad_g4_scalar(p_: float, v_: float, alpha_: float, L: int) -> tuple[float, float]:
    """:func:`grad_g4` at one point without the broadcasting overhead (an ODE integrator's hot path):
    ∂L/∂p = ½v1²·∂Σ_{j<M}π_j² − α v1 ∂π_1, ∂L/∂v1 = v1 Σ_{j<M}π_j² − απ_1, with dπ_j/dp = π_j(E_π[j−1] − (j−1))."""
    jm1 = _jm1(L)
    e = np.exp(-p_ * (jm1 - (0.0 if p_ >= 0 else jm1[-1])))  # overflow-safe for either sign of p
    pi = e / e.sum()
    dpi = pi * (float(pi @ jm1) - jm1)
    s2, ds2 = float(pi[:-1] @ pi[:-1]), 2.0 * float(pi[:-1] @ dpi[:-1])
    return 0.5 * v_ * v_ * ds2 - alpha_ * v_ * float(dpi[0]), v_ * s2 - alpha_ * float(pi[0])


def flow_g4(x, alpha_: float, L: int) -> np.ndarray:
    """Gradient ∇L_G4 at x = (p, v1) in the form ``theoryverify.flows.gradient_flow`` expects."""
    gp, gv = grad_g4(x[0], x[1], alpha_, L)
    return np.array([float(gp), float(gv)])


def loss_g4_inf_np(p_, v_, alpha_) -> np.ndarray:
    """L → ∞ form, numerically: ½ r u² + ½ α² q²."""
    qq = np.exp(-np.asarray(p_, float))
    r = -np.expm1(-np.asarray(p_, float)) / (1 + qq)
    u = np.asarray(v_, float) - alpha_ * (1 + qq)
    return 0.5 * r * u**2 + 0.5 * np.asarray(alpha_, float)**2 * qq**2


def v1_nullcline(p_, alpha_, L: int) -> np.ndarray:
    """argmin_v1 L_G4(p, ·) = α π_1 / Σ_{j=1}^{M−1} π_j² (where ∂L/∂v1 = 0)."""
    pi = _pi(np.asarray(p_, float), L)[..., : L - 2]
    return alpha_ * pi[..., 0] / (pi**2).sum(-1)


# --- Stage-II head-1 gradient flow (Eq. 12 restricted to (p, v1); App. C.1) -------------------------------

def integrate_head1(alpha_: float, L: int, sigma: float, t_end: float, *, n_points: int = 400,
                    rtol: float = 1e-10, atol: float = 1e-12, method: str = "LSODA", x0=None):
    """GF ẋ = −∇L_G4 from (p, v1) = (σ, σ) (RC-11), integrated in log time τ = log(1+t).

    Uses ``theoryverify.flows.gradient_flow`` on the augmented state (p, v1, t): dx/dτ = −(1+t)∇L_G4,
    dt/dτ = 1+t.  Returns (t, p, v1) sampled uniformly in τ (t[0] = 0)."""
    from theoryverify import flows

    def g(z):
        gp, gv = grad_g4(z[0], z[1], alpha_, L)
        s = 1.0 + z[2]
        return np.array([s * float(gp), s * float(gv), -s])

    tau_end = float(np.log1p(t_end))
    start = (sigma, sigma) if x0 is None else tuple(x0)
    res = flows.gradient_flow(g, [start[0], start[1], 0.0], tau_end, method=method, rtol=rtol, atol=atol,
                        t_eval=np.linspace(0.0, tau_end, n_points))
    if not res.success:
        raise RuntimeError(f"head-1 flow failed: {res.message}")
    t = np.expm1(res.t)
    return t, res.x[:, 0], res.x[:, 1]


def hitting_time_T1(alpha_: float, L: int, sigma: float, t_max: float = 1e7, rtol: float = 1e-10,
                    atol: float = 1e-12) -> float | None:
    """T1 := inf{t : ∂L_G4/∂v1 ≥ 0}, the first time v1 reaches its p-dependent optimum v1*(p) (the
    v1-nullcline; reading of the lost App. C.1 hitting-time condition).  ``None`` if not reached by t_max."""
    from theoryverify import flows

    def g(z):
        gp, gv = grad_g4(z[0], z[1], alpha_, L)
        s = 1.0 + z[2]
        return np.array([s * float(gp), s * float(gv), -s])

    ev = flows.above(lambda z: float(grad_g4(z[0], z[1], alpha_, L)[1]), 0.0)
    res = flows.gradient_flow(g, [sigma, sigma, 0.0], float(np.log1p(t_max)), events={"T1": ev}, stop_at="T1",
                        rtol=rtol, atol=atol)
    tau = res.hits["T1"]
    return None if tau is None else float(np.expm1(tau))
