"""Reconstruction-sensitivity study (spec §2.7: "run the named alternatives where a claim depends on them").

Derivations for the alternatives of the reconstruction choices the Theorem 5.5 phase laws rest on:

* **RC-12 alternatives** (App. C.2 simplification): softmax_s(z) ≈ e^{z_s}/D with D ∈ {N, L−1, L}
  (N = L−2 summands, RC-19) in both softmax terms.  Derived with :mod:`.head2`'s pattern machinery
  (:func:`head2.pattern_terms`, iterated Gaussian expectations of :mod:`.gauss`), only the divisor changes:

      L_IH^{(D)} = (N²/D²) · L_IH^{(N)}     — i.e. the default law with N replaced by N_eff = D²/N,

  so the gradient flow is the default flow with time rescaled by N²/D² (fixed point, v2_sat, plateau
  level ratios unchanged) and

      λ_D = 2β²w N / (D² (1−w²)²),     c_σ^{(D)} = 2/λ_D = D² (1−w²)² / (N β² w) · log(1/σ) coefficient.

* **RC-1 inclusive alternative for head 1** (φ(j;p) = −p j, j ≥ 0): head 1's Alibi weights over
  distances j = 0..L−1 are π_j ∝ q^j (q = e^{−p}), monotone in j for every p, so no slope p ∈ [−∞, ∞]
  concentrates head 1 on the target token.  Two readings of "head 1 reads x̃":
  "inclusive-both" (first layer inclusive too, its p1 → ∞ limit x̃_s = x_s, target x_{L−2} at j = 2) and
  "inclusive-head1" (first layer at the causal limit x̃_s = x_{s−1}, target at j = 1).  With the target at
  distance m, min_{v1} L_G4 = ½α²(1 − π_m²/S), S = Σ π_j² over the token-carrying distances; as L → ∞,
  π_m²/S → q^{2m}(1 − q²), maximal at q² = m/(m+1): the learnable fraction is ≤ 1/4 (m = 1) and
  ≤ 4/27 (m = 2), so L_G4 stays ≥ ¾ (resp. 23/27) of α²/2 and the slope converges to a finite p*.

* **Exact softmax at the spec's size**: full-batch GD (:func:`torch_model.train`) via
  :func:`.runs.gd_point`, cached in :mod:`theoryverify.store`.

* **Lemma 5.4 under finite-step GD**: Q = w_K² − w_Q² obeys Q_{n+1} = (1 − η² g_n²) Q_n exactly
  (g_n = ∂L/∂k at step n; any softmax, since L depends on (w_K, w_Q) only through k = w_K w_Q);
  :func:`gd_balance_run` records Q and g along torch GD of the exact-softmax model.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.optimize import minimize_scalar

from . import flow
from ..model import head1 as H1
from ..model import head2 as H2
from . import markers as M
from ..model.gauss import expect_all

D = sp.Symbol("D", positive=True)
N = H2.N
DIVISORS = {"N": lambda L: L - 2, "L-1": lambda L: L - 1, "L": lambda L: L}


# --- RC-12 alternatives ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def loss_ih_divisor_sym() -> sp.Expr:
    """L_IH with softmax_s(z) ≈ e^{z_s}/D in both terms, derived from head2's pattern expectations: the
    per-summand difference is g(x_L x_{s-1}) x_s / D, so the N, 2(N−1), (N−1)(N−2) pattern counts of
    :func:`head2.loss_ih_sym` are divided by D² instead of N²."""
    t = H2.pattern_terms(1)
    total = N * t["diag"].value + 2 * (N - 1) * t["adjacent"].value + (N - 1) * (N - 2) * t["far"].value
    return sp.expand(total / (2 * D ** 2))


@lru_cache(maxsize=None)
def loss_ih_divisor_concrete(L: int, divisor: str) -> sp.Expr:
    """Brute-force token-level expansion for a concrete L (as :func:`head2.loss_ih_concrete`, divisor D)."""
    xs = [sp.Symbol(f"x{i}", real=True) for i in range(1, L + 1)]
    xL = xs[-1]
    d = DIVISORS[divisor](L)
    diff = sum(H2._g(xL * xs[s - 2]) * xs[s - 1] for s in range(2, L)) / d
    return expect_all(sp.Rational(1, 2) * diff ** 2, xs[:-1] + [xL]).value


def rescaling_identity() -> sp.Expr:
    """L_IH^{(D)} − (N²/D²) L_IH^{(N)} (should simplify to 0)."""
    return sp.simplify(loss_ih_divisor_sym() - N ** 2 / D ** 2 * H2.loss_ih_sym(1))


def n_eff(L: int, divisor: str) -> float:
    """N_eff = D²/N: L_IH^{(D)} is the default closed form with N → N_eff."""
    return DIVISORS[divisor](L) ** 2 / (L - 2)


def growth_rate_divisor(alpha: float, w: float, L: int, divisor: str) -> float:
    """λ_D = 2β²w N/(D²(1−w²)²) (linearisation at k = 0, v2 = βG(w), time rescaled by N²/D²)."""
    return flow.growth_rate(alpha, w, L) * (L - 2) ** 2 / DIVISORS[divisor](L) ** 2


def plateau_log_coefficient_divisor(alpha: float, w: float, L: int, divisor: str) -> float:
    """c_σ^{(D)} = 2/λ_D = D²(1−w²)²/(N β² w)."""
    return 2.0 / growth_rate_divisor(alpha, w, L, divisor)


def ih_flow_divisor(alpha: float, w: float, L: int, sigma: float, divisor: str, t_end: float,
                    n_points: int = 1500, rtol: float = 1e-10, atol: float = 1e-12) -> dict:
    """Integrate the head-2 GF of L_IH^{(D)} in (w_K, w_Q, v2) from RC-11 init, independently of
    :mod:`.flow` (its own gradient: head2.grad_ih · N²/D², from the rescaling identity), LSODA in
    log-time; returns t, k, v2, L_IH and the §4.3 markers."""
    s = (L - 2) ** 2 / DIVISORS[divisor](L) ** 2

    def rhs(tau, x):
        wK, wQ, v = x
        gk, gv = H2.grad_ih_scalar(wK * wQ, v, alpha, w, L)
        return math.exp(tau) * s * np.array([-gk * wQ, -gk * wK, -gv])

    tau = np.linspace(0.0, math.log1p(t_end), n_points)
    sol = solve_ivp(rhs, (0.0, tau[-1]), np.full(3, float(sigma)), method="LSODA", rtol=rtol, atol=atol, t_eval=tau)
    t = np.expm1(sol.t)
    wK, wQ, v = sol.y
    k = wK * wQ
    lih = s * np.asarray(H2.loss_ih(k, v, alpha, w, L), float)
    dk, dv = H2.grad_ih(k, v, alpha, w, L)
    mk = M.ih_markers(t, lih, v, k, dv2=-s * np.asarray(dv))
    return dict(t=t, k=k, v2=v, L_IH=lih, markers=mk, success=bool(sol.success))


def ih_horizon_divisor(alpha, w, L, sigma, divisor) -> float:
    """A horizon past the emergence (derived scales, generous factors; cf. runs.ih_horizon)."""
    s = DIVISORS[divisor](L) ** 2 / (L - 2) ** 2
    return s * (1.5 * (3 * (L - 2) + flow.plateau_log_coefficient(alpha, w, L) * (math.log(1 / sigma) + 3))
                + 40.0 / flow.conv_rate_ih(alpha, w, L))


@lru_cache(maxsize=128)
def cached_ih_flow_divisor(alpha, w, L, sigma, divisor) -> dict:
    return ih_flow_divisor(alpha, w, L, sigma, divisor, ih_horizon_divisor(alpha, w, L, sigma, divisor))


def measured_growth(run: dict) -> float:
    """Slope of log k on [T_sat, T_k(0.05)] (as the t55-expgrowth check)."""
    mk, t, k = run["markers"], run["t"], run["k"]
    m = (t >= mk["T_sat"]) & (t <= mk["T_k(0.05)"])
    return float(np.polyfit(t[m], np.log(k[m]), 1)[0])


# --- RC-1 inclusive alternative for head 1 -----------------------------------------------------------

q = sp.Symbol("q", positive=True)
READINGS = {"inclusive-both": 2, "inclusive-head1": 1}  # target distance m under each reading


def learnable_fraction_inf(m: int) -> sp.Expr:
    """L → ∞: max over v1 of the learned fraction π_m²/S = q^{2m}(1 − q²) (π_j = (1−q) q^j, S = (1−q)²/(1−q²))."""
    pi = lambda j: (1 - q) * q ** j  # noqa: E731
    S = (1 - q) ** 2 / (1 - q ** 2)
    return sp.simplify(pi(m) ** 2 / S)


def learnable_fraction_sup(m: int) -> tuple[sp.Expr, sp.Expr]:
    """(q*², sup_q q^{2m}(1−q²)) by solving d/dq = 0 on 0 < q < 1."""
    f = learnable_fraction_inf(m)
    crit = [c for c in sp.solve(sp.diff(f, q), q) if c.is_positive and (c < 1) == sp.true]
    (qs,) = crit
    return sp.nsimplify(qs ** 2), sp.nsimplify(sp.simplify(f.subs(q, qs)))


def loss_g4_inclusive_sym(L: int, reading: str, target_index: int | None = None) -> sp.Expr:
    """L_G4 under the inclusive RC-1 alternative for head 1 (token level, concrete L, via head1's
    Gaussian second moment): head 1 attends over s = 1..L with weight ∝ e^{−p(L−s)} to x̃_s, x̃_1 = 0 and
    x̃_s = x_s ("inclusive-both") or x_{s−1} ("inclusive-head1")."""
    xs = H1.tokens(L)
    xt = [sp.Integer(0)] + (list(xs[1:]) if reading == "inclusive-both" else list(xs[:-1]))
    wts = [sp.exp(-H1.p * (L - s)) for s in range(1, L + 1)]
    Z = sp.Add(*wts)
    tf1 = H1.v1 * sp.Add(*(wt * x for wt, x in zip(wts, xt))) / Z
    k = L - 2 if target_index is None else target_index
    return sp.Rational(1, 2) * H1.gaussian_second_moment(sp.expand((tf1 - H1.alpha * xs[k - 1]) ** 2), xs)


def _pi_incl(p: float, L: int) -> np.ndarray:
    """π_j ∝ e^{−p j}, j = 0..L−1 (query at L, keys s = L−j), stably normalised."""
    j = np.arange(L, dtype=float)
    e = np.exp(-p * (j - (0.0 if p >= 0 else j[-1])))
    return e / e.sum()


def _carrying(L: int, reading: str) -> tuple[np.ndarray, int]:
    """(mask of distances whose x̃ carries a token, target distance m)."""
    mask = np.ones(L, bool)
    mask[L - 1] = False  # s = 1: x̃_1 = 0
    return mask, READINGS[reading]


def loss_g4_inclusive(p: float, v1: float, alpha: float, L: int, reading: str) -> float:
    """½[(v1 π_m − α)² + v1² Σ_{j≠m, carrying} π_j²] (each carrying distance reads a distinct token)."""
    pi = _pi_incl(p, L)
    mask, m = _carrying(L, reading)
    S = float(np.sum(pi[mask] ** 2))
    return 0.5 * (v1 * v1 * S - 2 * alpha * v1 * pi[m] + alpha * alpha)


def learnable_fraction(p: float, L: int, reading: str) -> float:
    """π_m²/S: the fraction of α²/2 removed by the optimal v1 at slope p."""
    pi = _pi_incl(p, L)
    mask, m = _carrying(L, reading)
    return float(pi[m] ** 2 / np.sum(pi[mask] ** 2))


def best_fraction(L: int, reading: str) -> tuple[float, float]:
    """(p*, max_p π_m²/S) at finite L (bounded scalar search; the fraction → 0 as p → ±∞)."""
    r = minimize_scalar(lambda p: -learnable_fraction(p, L, reading), bounds=(-5.0, 10.0), method="bounded",
                        options={"xatol": 1e-10})
    return float(r.x), float(-r.fun)


def head1_inclusive_flow(alpha: float, L: int, sigma: float, reading: str, t_end: float = 1e4,
                         n_points: int = 400) -> dict:
    """GF of L_G4 under the inclusive alternative from RC-11 init (p = v1 = σ), gradient by central
    formulas on the closed form (π' = π(m̄ − j)), LSODA in log-time."""
    mask, m = _carrying(L, reading)
    j = np.arange(L, dtype=float)

    def rhs(tau, x):
        p, v = x
        pi = _pi_incl(p, L)
        dpi = pi * (float(pi @ j) - j)
        S, dS = float(np.sum(pi[mask] ** 2)), 2.0 * float(np.sum(pi[mask] * dpi[mask]))
        gp = 0.5 * v * v * dS - alpha * v * dpi[m]
        gv = v * S - alpha * pi[m]
        return math.exp(tau) * np.array([-gp, -gv])

    tau = np.linspace(0.0, math.log1p(t_end), n_points)
    sol = solve_ivp(rhs, (0.0, tau[-1]), [sigma, sigma], method="LSODA", rtol=1e-10, atol=1e-12, t_eval=tau)
    t = np.expm1(sol.t)
    lg = np.array([loss_g4_inclusive(a, b, alpha, L, reading) for a, b in sol.y.T])
    return dict(t=t, p=sol.y[0], v1=sol.y[1], L_G4=lg, success=bool(sol.success))


# --- Lemma 5.4 under finite-step GD (torch, exact softmax) --------------------------------------------

def gd_balance_run(L: int, n: int, seed: int, eta: float, steps: int, x0=(0.6, 0.15, 0.2), alpha=0.5, w=0.3,
                   softmax: str = "exact") -> dict:
    """Full-batch GD on L_IH (torch_model, RC-9 first layer, exact softmax) in (w_K, w_Q, v2) from an
    unbalanced init; records Q_n = w_K² − w_Q² and g_n = ∂L/∂k = (∂L/∂w_K)/w_Q (torch autograd)."""
    import torch  # noqa: PLC0415

    from ..model import torch_model as TM  # noqa: PLC0415
    X = TM.sample(n, L, seed=seed)
    Xt = TM.first_layer(X, 0.0, limit=True)
    y2 = ((1 - alpha) * TM.f_ih(X, w, softmax)).detach()
    th = torch.tensor(x0, dtype=torch.float64)
    Q, G, T = [], [], []
    for _ in range(steps + 1):
        th = th.detach().requires_grad_(True)
        tf2 = TM.head2(X, Xt, th[0], th[1], th[2], softmax)
        loss = 0.5 * ((tf2 - y2) ** 2).mean()
        (g,) = torch.autograd.grad(loss, th)
        wK, wQ = float(th[0].detach()), float(th[1].detach())
        Q.append(wK * wK - wQ * wQ)
        G.append(float(g[0]) / wQ)
        T.append(float(loss.detach()))
        th = th.detach() - eta * g
    return dict(Q=np.array(Q), g=np.array(G), loss=np.array(T), eta=eta, t=eta * np.arange(steps + 1))


# --- exact softmax GD at the spec's size (store-cached) ---------------------------------------------------

EXACT_GD = dict(Ls=(50, 100), sigmas=(1e-2, 1e-3, 1e-4), n={50: 3000, 100: 2000}, seeds={50: 3, 100: 3},
                lr=1.0, record_every=5)


def exact_gd_rows(seed: int, L: int, softmax: str = "exact", n: int | None = None, seeds: int | None = None,
                  sigmas=None, claim: str = "inductionheads.alt-exact-gd-full") -> list[list[dict]]:
    """rows[seed_index][sigma_index] of :func:`.runs.gd_point` (torch_model.train, Stage II,
    layerwise, RC-9) at α* = 0.5, w* = 0.3, cached in the results store."""
    import theoryverify as tv  # noqa: PLC0415

    from . import runs as CP  # noqa: PLC0415
    n = n or EXACT_GD["n"][L]
    seeds = seeds or EXACT_GD["seeds"][L]
    sigmas = sigmas or EXACT_GD["sigmas"]
    configs = [dict(alpha=0.5, w=0.3, L=L, sigma=s, n=n, lr=EXACT_GD["lr"], record_every=EXACT_GD["record_every"],
                    softmax=softmax, seed=seed + i) for i in range(seeds) for s in sigmas]
    key = {"claim": claim, "code": tv.code_key(CP.gd_point)}
    flat = tv.sweep(tv.Store(), key, configs, CP.gd_point, desc=f"exact GD L={L}")
    m = len(sigmas)
    return [flat[i * m:(i + 1) * m] for i in range(seeds)]


def coefficient_per_seed(rows, sigmas, key: str = "T_IH(0.5)") -> np.ndarray:
    """Least-squares slope of ``key`` against log(1/σ), per seed."""
    x = np.log(1 / np.asarray(sigmas))
    return np.array([np.polyfit(x, [r[key] for r in row], 1)[0] for row in rows])
