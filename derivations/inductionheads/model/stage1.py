"""Training Stage I (Lemma 5.3, App. B): only the first-layer slope p1 = p^{(1)} is trained.

Setup (spec §2.4; RC-1, RC-5, RC-6, RC-7, RC-8, RC-10, RC-11, RC-19): first layer Eq. (9)
x̃ = A(p1) x with A the strictly-causal Alibi matrix (:mod:`alibi`, x̃_1 = 0); every second-layer
parameter at its initial value σ (p21 = v1 = wK = wQ = v2 = σ), tokens iid N(0,1), β = 1 − α.

**G4 term (exact, finite L).**  TF_1 = σ Σ_{s=1}^{L−1} π_{L−s}(σ) x̃_s is linear in x, with coefficient
vector c(p1) = σ π(σ)ᵀ A(p1)[1..L−1, :]; hence
    L_G4^I(p1) = ½ Σ_τ (c_τ(p1) − α δ_{τ, L−2})².

**IH term under RC-12** (softmax_s(z) → e^{z_s}/N in model and target, N = L−2, s = 2..L−1).  Only
the diagonal s = s' survives the expectation (the larger value index appears once, linearly), and
E e^{x_L Y} = (1 − Var Y)^{−1/2} for Y ~ N(0, Var Y) independent of x_L:
    L_IH^I(p1) = (1/2N²) [ σ² Σ_s (1 − 4σ⁴ V_s)^{−1/2}
                           − 2σβ Σ_s (1 − w² − 2σ²w a_s − σ⁴ V_s)^{−1/2} + β² N (1 − 4w²)^{−1/2} ],
with V_s = Σ_τ A[s,τ]² and a_s = A[s, s−1] (the previous-token weight).  Its p1-dependence enters
only through σ²·a_s and σ⁴·V_s: relative to the G4 term (order σ) it is O(σ²) — the App. B "constant
depending on [σ] and [L]" is L_IH^I at leading order, β²G(2w)/(2N) − σβG(w)/N + O(σ²).

**Growth law.**  With ε = e^{−p1}, a_s = 1 − ε + O(ε²), so −∂L^I/∂p1 = A_∞ ε + O(ε²) with
A_∞ = ∂L^I/∂ε |_{ε=0} > 0 (:func:`growth_constant`), giving ṗ1 ≈ A_∞ e^{−p1}:
    p1(t) = log(e^{p1(t0)} + A_∞ (t − t0))  ⇒  p1 ≈ log t + log A_∞  (slope 1 in log t).

**Stage-I duration.**  To leading order in σ, −∂L^I/∂p1 ≈ α σ π_1(σ) ∂a_{L−1}/∂p1 (only the cross term with
the target survives; a_{L−1} = 1/Z_{L−2}(p1)); for L ≫ 1, a ≈ 1 − e^{−p1} away from p1 = 0, so the time
to reach p1 = 1 is T_I ≈ ∫_0^1 e^{p} dp / (α σ π_1(σ)) = (e − 1)/(α σ π_1(σ))  (≈ (e−1)(L−1)/(ασ) when σL ≪ 1).
"""
from __future__ import annotations

import numpy as np

from . import alibi


def _G(c):
    return (1.0 - c * c) ** -0.5


def layer1_matrix(p1: float, L: int, convention: str = "causal") -> tuple[np.ndarray, np.ndarray]:
    """(A, dA/dp1) for the first layer, rows = queries s (0-based), row 0 = 0 under both conventions (RC-6)."""
    A = alibi.attention_matrix_np(L, p1, convention)
    if convention == "inclusive":
        A[0] = 0.0
    s = np.arange(L)[:, None]
    tau = np.arange(L)[None, :]
    shift = 1.0 if convention == "causal" else 0.0
    e = np.where(A > 0, (s - tau) - shift, 0.0)  # exponent multiplier: logit = -p1·e
    m = (A * e).sum(1, keepdims=True)
    return A, A * (m - e)


def g4_coefficients(p1: float, L: int, sigma: float, convention: str = "causal"):
    """(c, dc/dp1): TF_1 = Σ_τ c_τ x_τ with head 1 at (p21, v1) = (σ, σ) (RC-7, RC-11)."""
    A, dA = layer1_matrix(p1, L, convention)
    pi = alibi.weights_np(sigma, L - 1, "causal")  # distances j = 1..L-1, i.e. rows s = L-1 .. 1
    rows = np.arange(L - 2, -1, -1)  # 0-based s for j = 1..L-1
    w = sigma * pi
    return w @ A[rows], w @ dA[rows]


def loss_stage1(p1: float, L: int, sigma: float, alpha: float, w: float, convention: str = "causal",
                ih: bool = True) -> tuple[float, float]:
    """(L^I, dL^I/dp1) = G4 term (exact) + IH term (RC-12 closed form) at p1."""
    c, dc = g4_coefficients(p1, L, sigma, convention)
    e = c.copy()
    e[L - 3] -= alpha  # 0-based index of x_{L-2}
    loss, grad = 0.5 * float(e @ e), float(e @ dc)
    if ih:
        li, gi = ih_stage1(p1, L, sigma, alpha, w, convention)
        loss, grad = loss + li, grad + gi
    return loss, grad


def ih_stage1(p1: float, L: int, sigma: float, alpha: float, w: float, convention: str = "causal"):
    """(L_IH^I, dL_IH^I/dp1) under RC-12 (module docstring), wK wQ = σ², v2 = σ."""
    A, dA = layer1_matrix(p1, L, convention)
    N, beta, k = L - 2, 1.0 - alpha, sigma * sigma
    s = np.arange(1, L - 1)  # 0-based head-2 positions s = 2..L-1
    V = (A[s] ** 2).sum(1)
    dV = 2 * (A[s] * dA[s]).sum(1)
    a = A[s, s - 1]
    da = dA[s, s - 1]
    t1 = 1 - 4 * k * k * V
    t2 = 1 - w * w - 2 * k * w * a - k * k * V
    loss = (sigma**2 * np.sum(t1 ** -0.5) - 2 * sigma * beta * np.sum(t2 ** -0.5) + beta**2 * N * _G(2 * w)) / (2 * N * N)
    grad = (sigma**2 * np.sum(0.5 * t1 ** -1.5 * 4 * k * k * dV)
            - 2 * sigma * beta * np.sum(0.5 * t2 ** -1.5 * (2 * k * w * da + k * k * dV))) / (2 * N * N)
    return float(loss), float(grad)


def ih_constant(L: int, sigma: float, alpha: float, w: float) -> float:
    """Leading p1-independent part of L_IH^I: β²G(2w)/(2N) − σβG(w)/N + σ²/(2N) (error O(σ³))."""
    N, beta = L - 2, 1.0 - alpha
    return beta**2 * _G(2 * w) / (2 * N) - sigma * beta * _G(w) / N + sigma**2 / (2 * N)


def growth_constant(L: int, sigma: float, alpha: float, w: float, p_big: float = 30.0) -> float:
    """A_∞ = lim_{p1→∞} e^{p1}·(−∂L^I/∂p1), evaluated at p1 = ``p_big`` (corrections O(e^{−p_big}))."""
    return -np.exp(p_big) * loss_stage1(p_big, L, sigma, alpha, w)[1]


def integrate_stage1(L: int, sigma: float, alpha: float, w: float, t_end: float, *, n_points: int = 300,
                     convention: str = "causal", rtol: float = 1e-10, atol: float = 1e-12, ih: bool = True):
    """Stage-I GF ṗ1 = −∂L^I/∂p1 from p1(0) = 0 (RC-11), in log time τ = log(1+t) (LSODA via
    ``theoryverify.flows.gradient_flow`` on the state (p1, t)).  Returns (t, p1)."""
    from theoryverify import flows

    def g(z):
        s = 1.0 + z[1]
        return np.array([s * loss_stage1(z[0], L, sigma, alpha, w, convention, ih)[1], -s])

    tau_end = float(np.log1p(t_end))
    res = flows.gradient_flow(g, [0.0, 0.0], tau_end, rtol=rtol, atol=atol, t_eval=np.linspace(0, tau_end, n_points))
    if not res.success:
        raise RuntimeError(f"stage-I flow failed: {res.message}")
    return np.expm1(res.t), res.x[:, 0]


def previous_token_weight(p1: float, L: int, convention: str = "causal") -> float:
    """Weight of x_{L−2} in x̃_{L−1} (the last first-layer output head 1 reads at distance 1)."""
    A, _ = layer1_matrix(p1, L, convention)
    return float(A[L - 2, L - 3])
