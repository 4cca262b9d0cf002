"""The reduced (one-dimensional) description of GD in the symmetric setting (spec claims 23–27;
derivation tasks, not statements of the paper).

Setting (spec claim 25): orthogonal features of equal norm r (G = VᵀV = r² I), N → ∞ with
|V_m|/N = p_m = 1/K, task values i.i.d. with variance σ² (E f fᵀ = σ² I + μ² 11ᵀ), GD from Q = 0
(Eq. 8).  Derivation (SymPy, :func:`derive`):

* Conservation (claim 23).  Softmax is invariant to a common shift of a query row's logits, so
  H = −∂L/∂q has zero row sums; with g = G H G = r⁴ H every row of q keeps sum 0 (q(0) = 0).
* Symmetry.  The dynamics commutes with the permutations of the classes (exchangeable tasks,
  uniform p), so q stays in span{I, 11ᵀ}: q_k = a, q_{k,k'} = b (k' ≠ k); with the row sum,
  a = (K−1)z/K and b = −z/K for the single state variable z := q_k − q_{k,k'}.
* Attention and loss:  A(z) = Attn_k = 1/(1 + (K−1)e^{−z}),  Attn_m = (1−A)/(K−1) (m ≠ k),
      l(z) = ½σ² K/(K−1) · (1 − A)²                          (the mean μ drops out: 1ᵀ(e_k − Attn) = 0)
* Recursion (one GD step, exact):
      z_{t+1} = z_t + c · A(z_t)(1 − A(z_t))²,   c = η r⁴ σ² K/(K−1)²,   z_0 = 0
  (H_kk = σ² A(1−A)²/(K−1), H_{k,k'} = −H_kk/(K−1)).
* Gradient at Q = 0 (claim 27):  g_k⁽⁰⁾ = r⁴σ²(K−1)/K³,  g_{k,k'}⁽⁰⁾ = −r⁴σ²/K³  (N → ∞); for prompt length N
  exactly g_k⁽⁰⁾ = r⁴σ²(K−1)(N−1)/(K³N) (:func:`g0_finite_N_expr`, multinomial factorial moments; at Q = 0
  Attn = φ = n/N, so g = 0 at N = 1).
* Late-time law (claim 26): with ε = e^{−z}, Δz ≃ c(K−1)²ε² ⇒ e^{2z} ≃ 2c(K−1)² t ⇒
      l(t) ≃ (K − 1) / (4 η r⁴ t)
  — exponent −1, constant independent of σ (hence of L), of N and of the task law; the diagonal rate is
  η g_k(t) = Δq_k ≃ (K − 1)/(2Kt) (q_k = (K−1)z/K, Δz ≃ 1/(2t)).  The same
  constant follows for any orthogonal equal-norm setting whose late-time quadratic form S_k
  (l_k ≈ ½xᵀS_k x, x_m = e^{q_{k,m} − q_k}) is positive definite: the self-similar solution
  x = ξ t^{−1/2} needs ξ_m(S_kξ)_m + ξᵀS_kξ = 1/(2ηr⁴) for every m ≠ k, summing gives ξᵀS_kξ =
  (K−1)/(2ηr⁴K), so l = Σ_k ½xᵀS_k x = (K−1)/(4ηr⁴t) (a positive ξ exists for positive definite S_k,
  Marshall & Olkin 1968, diagonal scaling of a PD matrix to prescribed row sums).

API (numpy float64, vectorised over a batch of parameter values where noted):

* ``attention(z, K)``, ``loss(z, K, sigma2)``, ``increment(z, K, eta, r, sigma2)`` — the closed forms;
* ``rate_constant(K, eta, r, sigma2)`` — c above;
* ``run(K, eta, steps, r=1, sigma2=1, record_every=1)`` → :class:`Run` (t, z, abar, loss) — the recursion
  (eta, r, sigma2 may be arrays of shape (B,): one run per entry);
* ``z_level_abar(a, K)``, ``z_level_loss(level, K, sigma2)`` — the z at which Ā = a / l = level;
* ``hitting_times(K, eta, abar_levels, loss_levels, ...)`` — exact first steps (and interpolated
  fractional times) at which the recursion reaches each level;
* ``tail_law(t, K, eta, r)`` — (K − 1)/(4ηr⁴t); ``tail_onset(K)`` — the dimensionless time s = ηr⁴σ²t after
  which the recursion stays within ±10% of it;
* ``g0(K, r, sigma2)`` and ``g0_finite_N(K, N, r, sigma2)`` — the gradient table's diagonal at Q = 0;
* ``derive()`` — the SymPy derivation (dict of expressions in symbolic K), and
  ``row_model(K)`` — the full K-logit query row (concrete K) from which the reduction is checked.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

# --- SymPy: derivation in symbolic K ---------------------------------------------------------

class S:
    """The symbols of the derivation (X = e^a, Y = e^b: the loss is rational in them)."""
    K, z, X, Y, sigma2, mu2, r, eta, t, N, eps, lam = sp.symbols(
        "K z X Y sigma2 mu2 r eta t N epsilon lambda", positive=True)


def _row_loss(K=S.K):
    """ℓ(X, Y) = ½ E[(f_k − ŷ)²] for the query row (a, b, …, b), X = e^a, Y = e^b,
    E f fᵀ = σ²I + μ²11ᵀ, φ = 1/K (uniform φ cancels from the softmax)."""
    den = S.X + (K - 1) * S.Y
    A = S.X / den                             # Attn_k
    B = S.Y / den                             # Attn_m, m ≠ k (K − 1 of them)
    u_k, u_m = 1 - A, -B                      # u = e_k − Attn
    sum_u = u_k + (K - 1) * u_m               # 1ᵀu
    uSu = S.sigma2 * (u_k**2 + (K - 1) * u_m**2) + S.mu2 * sum_u**2
    return sp.Rational(1, 2) * uSu


def is_zero(expr) -> bool:
    """Rational-function zero test (cancel)."""
    return sp.cancel(sp.together(expr)) == 0


@lru_cache(maxsize=1)
def derive() -> dict[str, sp.Expr]:
    """The reduced model, derived in symbolic K (see the module docstring).

    ∂/∂a = X ∂/∂X, ∂/∂b = Y ∂/∂Y.  H_kk = −p ∂ℓ/∂a, H_km = −p ∂ℓ/∂b/(K−1) (the K − 1 equal off-diagonal
    logits share ∂ℓ/∂b).  ℓ and H are homogeneous of degree 0 in (X, Y) (softmax shift invariance), so they
    depend on z = a − b only: set X = e^z, Y = 1.  Returns the expressions and ``checks`` (name → bool, each
    a symbolic zero test: row sum, homogeneity, μ drops out, closed forms of l(z) and Δz, the late-time
    constant)."""
    K, X, Y, s2, r, eta, eps, lam = S.K, S.X, S.Y, S.sigma2, S.r, S.eta, S.eps, S.lam
    p = 1 / K
    ell = _row_loss()
    H_kk = -p * X * sp.diff(ell, X)
    H_km = -p * Y * sp.diff(ell, Y) / (K - 1)
    Ez = sp.Symbol("E_z", positive=True)                   # e^z
    on_z = {X: Ez, Y: 1}
    A = Ez / (Ez + K - 1)                                  # = 1/(1 + (K−1)e^{−z})
    c = eta * r**4 * s2 * K / (K - 1) ** 2
    loss_z = ell.subs(on_z)
    loss_closed = s2 * K / (2 * (K - 1)) * (1 - A) ** 2
    inc = eta * r**4 * (H_kk - H_km).subs(on_z)
    inc_closed = c * A * (1 - A) ** 2
    checks = {
        "row sum H_kk + (K−1)H_km = 0": is_zero(H_kk + (K - 1) * H_km),
        "ℓ homogeneous of degree 0 (depends on a − b only)": is_zero(ell.subs({X: lam * X, Y: lam * Y}) - ell),
        "μ² drops out of ℓ": is_zero(sp.diff(ell, S.mu2)),
        "l(z) = ½σ²K/(K−1)(1−A)²": is_zero(loss_z - loss_closed),
        "Δz = c·A(1−A)², c = ηr⁴σ²K/(K−1)²": is_zero(inc - inc_closed),
    }
    # late times: ε = e^{−z} → 0:  Δz ≃ lead_inc·ε²,  l ≃ lead_loss·ε²;  ODE dz/dt = lead_inc·e^{−2z}
    # ⇒ e^{2z} ≃ 2·lead_inc·t ⇒ t·l(t) → lead_loss / (2·lead_inc)
    lead_inc = sp.limit(sp.cancel(inc_closed.subs(Ez, 1 / eps) / eps**2), eps, 0)
    lead_loss = sp.limit(sp.cancel(loss_closed.subs(Ez, 1 / eps) / eps**2), eps, 0)
    tail_constant = sp.factor(lead_loss / (2 * lead_inc))
    checks["t·l(t) → (K−1)/(4ηr⁴)"] = is_zero(tail_constant - (K - 1) / (4 * eta * r**4))
    g0_ = sp.factor(r**4 * H_kk.subs({X: 1, Y: 1}))
    g0_off = sp.factor(r**4 * H_km.subs({X: 1, Y: 1}))
    checks["g_k(0) = r⁴σ²(K−1)/K³"] = is_zero(g0_ - r**4 * s2 * (K - 1) / K**3)
    return {"loss_XY": ell, "H_kk": H_kk, "H_km": H_km, "A": A, "loss_z": loss_z, "loss_z_closed": loss_closed,
            "increment": inc, "increment_closed": inc_closed, "c": c, "lead_increment": lead_inc,
            "lead_loss": lead_loss, "tail_constant": tail_constant, "g0": g0_, "g0_off": g0_off,
            "E_z": Ez, "checks": checks}


def row_model(K: int):
    """The full query row for concrete K, no symmetry assumed: X_j = e^{x_j} (row k = 1), uniform φ,
    ℓ = ½ uᵀ(σ²I + μ²11ᵀ)u, u = e_1 − softmax(x), H_j = −(1/K) ∂ℓ/∂x_j = −(1/K) X_j ∂ℓ/∂X_j.
    Returns (X symbols, ℓ, H list)."""
    Xs = sp.symbols(f"X1:{K + 1}", positive=True)
    den = sp.Add(*Xs)
    u = [(1 if j == 0 else 0) - Xs[j] / den for j in range(K)]
    ell = sp.Rational(1, 2) * (S.sigma2 * sp.Add(*[ui**2 for ui in u]) + S.mu2 * sp.Add(*u) ** 2)
    H = [-Xs[j] * sp.diff(ell, Xs[j]) / K for j in range(K)]
    return Xs, ell, H


def reduction_checks(K: int) -> dict[str, bool]:
    """Concrete K: the full row's ℓ and H at a symmetric state (X, Y, …, Y) equal the reduced ℓ, H_kk,
    H_km (so the symmetric subspace is invariant and the reduction is exact), and H sums to 0."""
    d = derive()
    Xs, ell, H = row_model(K)
    at = {Xs[0]: S.X, **{x: S.Y for x in Xs[1:]}}
    red = {S.K: K}
    out = {f"K={K}: ℓ_full = ℓ_reduced": is_zero(ell.subs(at) - d["loss_XY"].subs(red)),
           f"K={K}: H_full,1 = H_kk": is_zero(H[0].subs(at) - d["H_kk"].subs(red)),
           f"K={K}: Σ_j H_full,j = 0 (any state)": is_zero(sp.Add(*H))}
    out[f"K={K}: H_full,j = H_km (j ≥ 2)"] = all(is_zero(Hj.subs(at) - d["H_km"].subs(red)) for Hj in H[1:])
    return out


def g0_finite_N_expr(K=S.K, N=S.N) -> sp.Expr:
    """g_k at Q = 0 for finite N (exact): r⁴σ² p E[φ_k((1−φ_k)² + Σ_{m≠k} φ_m²)], φ = n/N,
    n ~ Multinomial(N, 1/K), from the factorial moments E[n_1^(i) n_2^(j)] = N^(i+j) p^(i+j).
    (At Q = 0, Attn = φ; the query-class probability p multiplies.)"""
    p = 1 / sp.S(K)
    ff = lambda k: sp.ff(N, k) * p**k                                # noqa: E731
    En1 = ff(1)
    En2 = ff(2) + ff(1)                                              # n² = n^(2) + n
    En3 = ff(3) + 3 * ff(2) + ff(1)                                  # n³ = n^(3) + 3n^(2) + n
    En1n2sq = ff(3) + ff(2)                                          # E[n_1 n_2²] = E[n_1 n_2^(2)] + E[n_1 n_2]
    m = (En1 / N - 2 * En2 / N**2 + En3 / N**3) + (sp.S(K) - 1) * En1n2sq / N**3
    return sp.factor(sp.expand_func(S.r**4 * S.sigma2 * p * m))


# --- numpy: the recursion and its closed forms ----------------------------------------------

def attention(zv, K):
    """A(z) = 1/(1 + (K−1)e^{−z})."""
    return 1.0 / (1.0 + (K - 1) * np.exp(-np.asarray(zv, float)))


def loss(zv, K, sigma2=1.0):
    """l(z) = ½σ²K/(K−1)(1 − A)²; 1 − A computed without cancellation."""
    e = (K - 1) * np.exp(-np.asarray(zv, float))
    return 0.5 * sigma2 * K / (K - 1) * (e / (1.0 + e)) ** 2


def rate_constant(K, eta, r=1.0, sigma2=1.0):
    return np.asarray(eta, float) * np.asarray(r, float) ** 4 * np.asarray(sigma2, float) * K / (K - 1) ** 2


def increment(zv, K, eta, r=1.0, sigma2=1.0):
    """c·A(1 − A)², 1 − A without cancellation."""
    e = (K - 1) * np.exp(-np.asarray(zv, float))
    return rate_constant(K, eta, r, sigma2) * (1.0 / (1.0 + e)) * (e / (1.0 + e)) ** 2


@dataclass
class Run:
    t: np.ndarray        # (n_rec,)
    z: np.ndarray        # (n_rec, B)
    abar: np.ndarray     # (n_rec, B)
    loss: np.ndarray     # (n_rec, B)


def run(K: int, eta, steps: int, r=1.0, sigma2=1.0, record_every: int = 1) -> Run:
    """The recursion from z_0 = 0 for ``steps`` steps; eta, r, sigma2 broadcast to a batch (B,)
    (a scalar float loop per entry: ~1 µs per step)."""
    c = np.atleast_1d(rate_constant(K, eta, r, sigma2)).astype(float)
    s2 = np.broadcast_to(np.asarray(sigma2, float), c.shape)
    ts = np.unique(np.r_[np.arange(0, steps + 1, record_every), steps])
    Z = np.zeros((len(ts), len(c)))
    Km1, exp = K - 1, math.exp
    for b, cb in enumerate(c):
        zc, j, col = 0.0, 1, Z[:, b]
        nxt = ts[1] if len(ts) > 1 else -1
        for k in range(1, steps + 1):
            e = Km1 * exp(-zc)
            inv = 1.0 / (1.0 + e)
            zc += cb * inv * (e * inv) ** 2
            if k == nxt:
                col[j] = zc
                j += 1
                nxt = ts[j] if j < len(ts) else -1
    return Run(ts, Z, attention(Z, K), loss(Z, K, s2[None, :]))


@lru_cache(maxsize=None)
def tail_onset(K: int, tol: float = 0.1, s_max: float | None = None) -> float:
    """Dimensionless time s = ηr⁴σ²t after which the reduced model's l(t) stays within ±tol of the
    late-time law (the spec's 'tail onset', §3.0) — the scale used to call a window 'late'."""
    steps = int(s_max or 2e4 * K)              # ≥ 10× the onset for K ≤ 64 (K = 16: onset ≈ 2.1·10⁴)
    rr = run(K, 1.0, steps, record_every=max(1, steps // 20000))
    ratio = rr.loss[1:, 0] / tail_law(rr.t[1:], K, 1.0)
    bad = np.nonzero(np.abs(ratio - 1) > tol)[0]
    return float(rr.t[1:][bad[-1] + 1]) if len(bad) and bad[-1] + 1 < len(ratio) else (0.0 if not len(bad) else math.inf)


def z_level_abar(level: float, K: int) -> float:
    """z with A(z) = level."""
    return math.log((K - 1) * level / (1.0 - level))


def z_level_loss(level: float, K: int, sigma2: float = 1.0) -> float:
    """z with l(z) = level (l decreasing in z)."""
    s = math.sqrt(2.0 * level * (K - 1) / (K * sigma2))    # 1 − A
    return math.log((K - 1) * (1.0 - s) / s)


def hitting_times(K: int, eta: float, abar_levels=(), loss_levels=(), r: float = 1.0, sigma2: float = 1.0,
                  max_steps: int = 10**7) -> dict[str, tuple[int, float]]:
    """{name: (first step t with the level reached, fractional time by linear interpolation of the
    metric between t−1 and t)} for Ā ≥ a (name 'abar>=a') and l ≤ λ (name 'loss<=λ'); scalar loop."""
    targets = {f"abar>={x:g}": ("abar", x) for x in abar_levels}
    targets.update({f"loss<={x:g}": ("loss", x) for x in loss_levels})
    zlev = {n: (z_level_abar(x, K) if m == "abar" else z_level_loss(x, K, sigma2)) for n, (m, x) in targets.items()}
    c = float(rate_constant(K, eta, r, sigma2))
    out: dict[str, tuple[int, float]] = {}
    zc, zprev, k = 0.0, 0.0, 0
    pending = sorted(zlev.items(), key=lambda kv: kv[1])
    metric = lambda zz, m: float(attention(zz, K)) if m == "abar" else float(loss(zz, K, sigma2))  # noqa: E731
    while pending and k < max_steps:
        while pending and zc >= pending[0][1]:
            name, _ = pending.pop(0)
            out[name] = (k, _fractional(k, zprev, zc, targets[name], metric) if k > 0 else 0.0)
        if not pending:
            break
        e = (K - 1) * math.exp(-zc)
        inv = 1.0 / (1.0 + e)
        zprev = zc
        zc = zc + c * inv * (e * inv) ** 2
        k += 1
    return out


def _fractional(k, z0, z1, target, metric) -> float:
    m, level = target
    y0, y1 = metric(z0, m), metric(z1, m)
    return fractional_time(k, y0, y1, level)


def fractional_time(k: int, y_prev: float, y_hit: float, level: float) -> float:
    """Linear interpolation of the crossing of ``level`` between steps k − 1 and k."""
    if y_hit == y_prev:
        return float(k)
    return float(k - 1 + (level - y_prev) / (y_hit - y_prev))


def tail_law(tv, K, eta, r=1.0):
    """l(t) ≃ (K − 1)/(4 η r⁴ t) (late-time law, claim 26)."""
    return (K - 1) / (4.0 * eta * r**4 * np.asarray(tv, float))


def g0(K, r=1.0, sigma2=1.0):
    """(g_k, g_{k,k'}) at Q = 0, N → ∞: r⁴σ²(K−1)/K³ and −r⁴σ²/K³."""
    return r**4 * sigma2 * (K - 1) / K**3, -(r**4) * sigma2 / K**3


def g0_finite_N(K: int, Nv: int, r: float = 1.0, sigma2: float = 1.0) -> float:
    """g_k at Q = 0 for prompt length N (exact multinomial moments; :func:`g0_finite_N_expr`)."""
    e = g0_finite_N_expr(K, S.N)
    return float(e.subs({S.N: Nv, S.r: sp.Float(r, 30), S.sigma2: sp.Float(sigma2, 30)}))
