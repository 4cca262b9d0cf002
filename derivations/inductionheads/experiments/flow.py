"""The reduced Stage-II gradient flow (Eq. 12 restricted to Stage II, App. C) and its trajectories.

Five parameters θ = (p, v1, w_K, w_Q, v2) = (p^{(2,1)}, w_V^{(2,1)}, w_K^{(2,2)}, w_Q^{(2,2)}, w_V^{(2,2)}),
first layer at its limit x̃_s = x_{s-1} (RC-9), loss L = L_G4(p, v1) + L_IH(k, v2) with k = w_K·w_Q
(RC-8, RC-12), initialisation RC-11 (every Stage-II parameter = σ_init).  The two heads are decoupled
(App. C: "the dynamics of […] and […] are decoupled"), so each head can also be integrated alone.

The closed forms are the derived ones of :mod:`.head1` (``loss_g4``, ``grad_g4``) and :mod:`.head2`
(``loss_ih``, ``grad_ih``); inside the integrator their scalar forms ``grad_g4_scalar`` / ``grad_ih_scalar``
are used (the per-call overhead of the vectorised ones dominates there).

Integration: ``scipy.integrate.solve_ivp`` (LSODA by default) in log-time τ = log(1 + t), dx/dτ = (1+t)·ẋ,
so horizons of 1e6 cost a few thousand steps; the solution is recorded on a grid uniform in τ.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from scipy.integrate import solve_ivp

from ..model import head1, head2

PARAMS = ("p", "v1", "wK", "wQ", "v2")


# --- closed forms ----------------------------------------------------------------------------------

def _G(c):
    return (1.0 - c * c) ** -0.5


def _dG(c):
    return c * (1.0 - c * c) ** -1.5


def _helpers(fast: bool = False):
    """(loss_g4, grad_g4, loss_ih, grad_ih, source); ``fast``: the scalar gradients in the integrator."""
    if fast:
        return (head1.loss_g4, head1.grad_g4_scalar, head2.loss_ih, head2.grad_ih_scalar,
                "L_G4: head1 (integrator: head1.grad_g4_scalar); L_IH: head2 (integrator: head2.grad_ih_scalar)")
    return head1.loss_g4, head1.grad_g4, head2.loss_ih, head2.grad_ih, "L_G4: head1; L_IH: head2"


# --- trajectories ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Trajectory:
    """A Stage-II trajectory on a grid uniform in log(1 + t)."""

    t: np.ndarray
    params: dict[str, np.ndarray]
    L_G4: np.ndarray
    L_IH: np.ndarray
    k: np.ndarray
    config: dict = field(default_factory=dict)
    success: bool = True
    message: str = ""

    def velocity(self, name: str) -> np.ndarray:
        """The flow's own d(name)/dt on the grid (``name`` in p, v1, wK, wQ, v2, k), from the closed forms."""
        _, grad_g4, _, grad_ih, _ = _helpers()
        a, w, L = self.config["alpha"], self.config["w"], self.config["L"]
        if name in ("p", "v1"):
            gp, gv = (np.asarray(x, float) for x in grad_g4(self.params["p"], self.params["v1"], a, L))
            return -(gp if name == "p" else gv)
        gk, gv2 = (np.asarray(x, float) for x in grad_ih(self.k, self.params["v2"], a, w, L))
        wK, wQ = self.params["wK"], self.params["wQ"]
        return {"wK": -gk * wQ, "wQ": -gk * wK, "v2": -gv2, "k": -gk * (wK * wK + wQ * wQ)}[name]

    @property
    def loss(self) -> np.ndarray:
        return self.L_G4 + self.L_IH

    def __getitem__(self, name: str) -> np.ndarray:
        if name in self.params:
            return self.params[name]
        return {"L_G4": self.L_G4, "L_IH": self.L_IH, "k": self.k, "L": self.loss, "t": self.t}[name]


def _integrate(rhs, x0, t_end, n_points, method, rtol, atol):
    """Integrate ẋ = rhs(x) on [0, t_end] in log-time τ = log(1+t); record n_points uniform in τ."""
    tau_end = math.log1p(t_end)
    tau = np.linspace(0.0, tau_end, n_points)
    sol = solve_ivp(lambda s, x: math.exp(s) * rhs(x), (0.0, tau_end), np.asarray(x0, float), method=method,
                    rtol=rtol, atol=atol, t_eval=tau)
    return np.expm1(sol.t), sol.y, bool(sol.success), sol.message


def stage2(alpha: float, w: float, L: int, sigma: float, t_end: float, *, rtol: float = 1e-10,
           atol: float = 1e-12, n_points: int = 2000, method: str = "LSODA", heads: str = "both",
           variant: str = "rpe", fast: bool = True) -> Trajectory:
    """GF of the reduced Stage-II model from RC-11 init (all five parameters = σ_init) up to ``t_end``.

    ``heads``: "both", "G4" or "IH" (the flows are decoupled; the other head then stays at its init).
    ``variant``: "rpe" (paper: head 1's Alibi slope p is one parameter, linear route) or "quadratic"
    (the reviewer's variant, IH-T55-timescale: the positional route is quadratic, p = p_a·p_b with both
    factors trained from σ_init, as an absolute positional embedding entering query and key would give;
    ``params['p']`` then holds the product and ``params['pa']`` the factor)."""
    loss_g4, grad_g4, loss_ih, grad_ih, source = _helpers(fast)
    a, b = float(alpha), 1.0 - float(alpha)
    quad = variant == "quadratic"
    if variant not in ("rpe", "quadratic"):
        raise ValueError(f"unknown variant {variant!r}")
    do1, do2 = heads in ("both", "G4"), heads in ("both", "IH")

    def rhs(x):
        out = np.zeros_like(x)
        if do1:
            if quad:
                pa, pb, v1 = x[0], x[5], x[1]
                gp, gv = grad_g4(pa * pb, v1, a, L)
                out[0], out[5], out[1] = -gp * pb, -gp * pa, -gv
            else:
                gp, gv = grad_g4(x[0], x[1], a, L)
                out[0], out[1] = -gp, -gv
        if do2:
            wK, wQ, v2 = x[2], x[3], x[4]
            gk, gv2 = grad_ih(wK * wQ, v2, a, w, L)
            out[2], out[3], out[4] = -gk * wQ, -gk * wK, -gv2
        return out

    x0 = np.full(6 if quad else 5, float(sigma))
    t, y, ok, msg = _integrate(rhs, x0, t_end, n_points, method, rtol, atol)
    p = y[0] * y[5] if quad else y[0]
    params = {"p": p, "v1": y[1], "wK": y[2], "wQ": y[3], "v2": y[4]}
    if quad:
        params["pa"] = y[0]
    k = y[2] * y[3]
    lg4 = np.asarray(loss_g4(p, y[1], a, L), float)
    lih = np.asarray(loss_ih(k, y[4], a, w, L), float)
    cfg = dict(alpha=a, w=float(w), L=int(L), sigma=float(sigma), t_end=float(t_end), rtol=rtol, atol=atol,
               method=method, heads=heads, variant=variant, source=source, beta=b)
    return Trajectory(t, params, lg4, lih, k, cfg, ok, msg)


@lru_cache(maxsize=256)
def cached_stage2(alpha: float, w: float, L: int, sigma: float, t_end: float, heads: str = "both",
                  variant: str = "rpe", n_points: int = 2000, rtol: float = 1e-10) -> Trajectory:
    """:func:`stage2` with the default tolerances, cached (shared by the claims of one process)."""
    return stage2(alpha, w, L, sigma, t_end, heads=heads, variant=variant, n_points=n_points, rtol=rtol)


# --- laws derived from the reduced flow (DERIVATION TASKS of IH-T55-*, IH-C2-*) ----------------------
#
# Head 2 (RC-12, balanced w_K = w_Q = u, k = u², since w_K² − w_Q² is conserved and 0 at RC-11 init):
#   dk/dt = −2k ∂_k L_IH = (2k/N)[β v2 G'(k+w) − v2² G'(2k)],   dv2/dt = (1/N)[β G(k+w) − v2 G(2k)].
# Plateau: k ≪ 1 ⇒ v2 → v2_sat = β G(w) on the time scale N, and then k grows exponentially with
#   λ = (2/N) β v2_sat G'(w) = 2 β² w / (N (1 − w²)²)                                        [expgrowth]
# from k(0) = σ² to an O(1) level, so T_IH(q) = (2/λ) log(1/σ) + O(N):  the log(1/σ) coefficient is
#   c_σ = 2/λ = N (1 − w²)² / (β² w)                                                           [plateau]
# (driver 1 = the factor 2 log(1/σ) = log(1/k(0)) from the quadratic k = w_K w_Q; driver 2 = the factor
# N/β² from the IH component's second moment β² G(2w)/N, spec IH-E8-proportion).
# Head 1 (α = α*): with u = v1/α, du/dt = π_1 − u S_2 and dp/dt = α² (u π_1' − ½ u² S_2'); for
# 1/M ≪ p ≪ 1, π_1 ≈ p, π_1' ≈ 1, S_2 = O(p) ⇒ ü ≈ α² u: p grows like e^{α t} from max(σ, 1/M), so
#   T_G4(ε) = (1/α) log(min(1/σ, L)) + O(1/α²)                                                 [phase I]
# independent of σ once σ ≪ 1/L.

def G(c):
    """E e^{c a b} = (1 − c²)^{−1/2} for a, b iid N(0, 1) (|c| < 1)."""
    return _G(c)


def v2_sat(alpha: float, w: float) -> float:
    """The plateau value of v2 (its nullcline at k = 0): β G(w)."""
    return (1.0 - alpha) * _G(w)


def growth_rate(alpha: float, w: float, L: int) -> float:
    """λ = 2 β² w / (N (1 − w²)²): the exponential rate of k on the plateau (linearisation at k = 0)."""
    b, N = 1.0 - alpha, L - 2
    return 2.0 * b * b * w / (N * (1.0 - w * w) ** 2)


def plateau_log_coefficient(alpha: float, w: float, L: int) -> float:
    """c_σ = 2/λ = N (1 − w²)² / (β² w): dT_IH/d log(1/σ) (and dT_turn/d log(1/σ)) as σ → 0."""
    return 2.0 / growth_rate(alpha, w, L)


def phase1_log_coefficient(alpha: float) -> float:
    """dT_G4/d log(1/σ) for 1/L ≪ σ ≪ 1, and dT_G4/d log L for σ ≪ 1/L: 1/α."""
    return 1.0 / alpha


def k_turn(w: float) -> float:
    """Quasi-static turning point of v2 (Eq. 23 reading): v2 follows its nullcline β G(k+w)/G(2k), which
    peaks where G'(k+w) G(2k) = 2 G(k+w) G'(2k)."""
    from scipy.optimize import brentq  # noqa: PLC0415
    f = lambda kk: _dG(kk + w) * _G(2 * kk) - 2 * _G(kk + w) * _dG(2 * kk)  # noqa: E731
    return float(brentq(f, 1e-9, w))


def fixed_point_jacobian(alpha: float, w: float, L: int) -> np.ndarray:
    """Jacobian of the balanced head-2 flow in (u, v2) (u = w_K = w_Q) at (√w, β):
    J = −diag(½, 1)·Hess_{(u,v2)} L_IH(u², v2)  (du/dt = −u ∂_k L = −½ ∂_u L̃)."""
    b, N, u = 1.0 - alpha, L - 2, math.sqrt(w)
    G2, dG2 = _G(2 * w), _dG(2 * w)
    ddG2 = (1 + 2 * (2 * w) ** 2) * (1 - (2 * w) ** 2) ** -2.5
    Lkk = b * b * ddG2 / N
    Lkv = b * dG2 / N
    Lvv = G2 / N
    H = np.array([[4 * u * u * Lkk, 2 * u * Lkv], [2 * u * Lkv, Lvv]])
    return -np.diag([0.5, 1.0]) @ H


def conv_rate_ih(alpha: float, w: float, L: int) -> float:
    """Late-time rate of L_IH: L_IH ∝ e^{−2 μ t}, μ = the slowest eigenvalue of −J (Phase IV, Eq. 30)."""
    return 2.0 * float(np.min(-np.linalg.eigvals(fixed_point_jacobian(alpha, w, L)).real))


# Exact softmax (no RC-12), large-N limit at k → 0: given x_L = a, the target's denominator is
# N·E_b e^{w a b} = N e^{w² a²/2} (law of large numbers over s), and the model's softmax is (1 + k a (b − b̄))/N.
# With E_b[b e^{wab}] = w a e^{w²a²/2}:  ∂L_IH/∂v2|_{k=0} = (v2 − β)/N  ⇒ v2_sat = β (not β G(w)), and
# ∂L_IH/∂k|_{k=0} = −β v2 w/N  ⇒ λ_exact = 2 β² w/N = (1 − w²)² λ_RC12; plateau level
# P_exact = β² (1/√(1 − 2w²) − 1)/(2N)  (RC-12: β² (G(2w) − G(w)²)/(2N)).

def growth_rate_exact(alpha: float, w: float, L: int) -> float:
    """λ under the exact softmax, N → ∞ at fixed N·λ: 2 β² w / N."""
    return 2.0 * (1.0 - alpha) ** 2 * w / (L - 2)


def plateau_log_coefficient_exact(alpha: float, w: float, L: int) -> float:
    """dT_IH/d log(1/σ) under the exact softmax (large N): N / (β² w) = c_σ / (1 − w²)²."""
    return 2.0 / growth_rate_exact(alpha, w, L)


def plateau_level(alpha: float, w: float, L: int, softmax: str = "rc12") -> float:
    """P_IH at k = 0, v2 = v2_sat: RC-12 β²(G(2w) − G(w)²)/(2N); exact (large N) β²(1/√(1−2w²) − 1)/(2N)."""
    b, N = 1.0 - alpha, L - 2
    if softmax == "rc12":
        return b * b * (_G(2 * w) - _G(w) ** 2) / (2 * N)
    return b * b * ((1 - 2 * w * w) ** -0.5 - 1) / (2 * N)
