"""What the paper prints, transcribed verbatim (the objects under test).  Each entry names its
location.  Expressions are written per prompt in terms of the class aggregates ``A`` (A[m] =
Attn_m), task values ``f`` (f[m] = f(v_m)) and the query class ``k``; the expectation E[1{x_q = v_k} ·]
is applied by the caller with the model's own expectation.  Works on SymPy and numpy values.
Indices are 0-based in code, 1-based in the paper.
"""
from __future__ import annotations

import numpy as np


def _sum(xs):
    out = 0
    for x in xs:
        out = out + x
    return out


# Eq. 10 (Sec. 4): ŷ_query = Σ_{i∈[N]} attn_i y_i = Σ_{k∈[K]} Attn_k f(v_k).
def eq10_rhs(A, f):
    return _sum(A[m] * f[m] for m in range(len(f)))


# Sec. 5.2: "we have attn_n^{(0)} = 1/N for all n ∈ [N]".
def init_attn(N):
    return 1.0 / N


# Lemma 3 proof (App. D), with |V_m| = counts[m]:
#   Attn_k = 1 / ( Σ_{m≠k} (|V_m|/|V_k|) exp(q_{k,m} − q_k) + 1 )
#   Attn_n = |V_n| exp(q_{k,n}) / ( Σ_{m≠k} |V_m| exp(q_{k,m}) + |V_k| exp(q_k) )
def lemma3_attn_k(counts, q, k, exp=np.exp):
    return 1 / (_sum(counts[m] / counts[k] * exp(q[k][m] - q[k][k]) for m in range(len(counts)) if m != k) + 1)


def lemma3_attn_n(counts, q, k, n, exp=np.exp):
    den = _sum(counts[m] * exp(q[k][m]) for m in range(len(counts)) if m != k) + counts[k] * exp(q[k][k])
    return counts[n] * exp(q[k][n]) / den


# App. B, 4th display: L = ½ Σ_k E[1{x_q = v_k} (Σ_{n≠k} Attn_n (f(v_n) − f(v_k)))²].
def appB_loss_integrand(A, f, k, half=0.5):
    return half * _sum(A[n] * (f[n] - f[k]) for n in range(len(f)) if n != k) ** 2


# Eq. 11 (Lemma 1): L = ½ Σ_k E[1{x_q = v_k} (1 − Attn_k)² · O(L²Δ²)]; the bracket without O(·):
def eq11_core(A, k, L, Delta):
    return 0.5 * (1 - A[k]) ** 2 * L**2 * Delta**2


# App. C, final display before "We then derive Eq. 12":
#   v_{k'}ᵀ ∇_Q L v_k = −E[1{x_q = v_k} Attn_{k'} (f(v_k) − Σ_n Attn_n f(v_n)) (f(v_{k'}) − Σ_m Attn_m f(v_m))].
def appC_bilinear_integrand(A, f, k, kp):
    yhat = eq10_rhs(A, f)
    return -(A[kp] * (f[k] - yhat) * (f[kp] - yhat))


# App. C, Eq. 12 chain, 2nd line: g_k = E[1{x_q = v_k} Attn_k (f(v_k) − Σ_n Attn_n f(v_n))²].
def appC_gk_integrand(A, f, k):
    return A[k] * (f[k] - eq10_rhs(A, f)) ** 2


# Eq. 12 (Lemma 2): g_k = E[1{x_q = v_k} Attn_k (1 − Attn_k)² · Θ(L²Δ²)]; the bracket without Θ(·):
def eq12_core(A, k):
    return A[k] * (1 - A[k]) ** 2


# Eq. 13 (Lemma 2): |g_{k,k'}| = E[1{x_q = v_k} Attn_{k'} (1 − Attn_k)(1 − Attn_{k'}) · Θ(L²Δ²)].
def eq13_core(A, k, kp):
    return A[kp] * (1 - A[k]) * (1 - A[kp])


# Sec. 5.1: "From Eq. 12, we observe that g_k^{(t)} is always non-negative".
GK_SIGN = ">= 0"

# App. C: d attn_i / dQ = attn_i Σ_{j∈[N]} attn_j (X̄_i − X̄_j) x_queryᵀ   (i ∈ [N], X̄_i = x_i).
def appC_dattn(attn, X, xq):
    diffs = X[:, None, :] - X[None, :, :]                       # (i, j, d): X̄_i − X̄_j
    inner = (attn[None, :, None] * diffs).sum(axis=1)           # Σ_j attn_j (X̄_i − X̄_j)
    return attn[:, None, None] * inner[:, :, None] * xq[None, None, :]


# Eq. 9: P(P_{1:N} ∈ E*) ≥ 1 − 3 exp(−δ² N / 25), δ ≥ sqrt(20 K / N).
EQ9_PREFACTOR = 3.0
EQ9_DENOMINATOR = 25.0
EQ9_DELTA_CONSTANT = 20.0


# App. C, display after "Substituting into the above expression gives":
#   ∇_Q L = E[(ŷ_query − f(v_k)) Σ_{i,j∈[N]} attn_i attn_j (X̄_i − X̄_j) x_queryᵀ y_i]   (per prompt, d×d).
def appC_gradQ_integrand(attn, X, xq, y, yhat, target):
    diffs = X[:, None, :] - X[None, :, :]                                   # (i, j, d)
    s = (attn[:, None, None] * attn[None, :, None] * y[:, None, None] * diffs).sum(axis=(0, 1))
    return (yhat - target) * s[:, None] * xq[None, :]
