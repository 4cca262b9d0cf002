"""What the paper prints in App. B Eq. (10), App. C (gradient list), App. D (step 2, Claim 2) and
App. E (Proposition 2 proof), transcribed verbatim (the objects under test).

Every function takes the paper's named quantities as arguments (v, q, p, T, …) and works for
SymPy expressions and numpy arrays alike; indices are the paper's 1-based ones shifted to 0-based.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import sympy as sp


def _max(a, b):
    return sp.Max(a, b) if isinstance(a, sp.Basic) or isinstance(b, sp.Basic) else np.maximum(a, b)


# --- App. B, Eq. (10) ------------------------------------------------------------------

def eq10(v: Sequence, dL_dv: Sequence) -> list:
    """Eq. (10): ∂L1/∂θ_i = v_i (∂L1/∂v_i − Σ_{j=1}^{6} v_j ∂L1/∂v_j)."""
    s = sum(v[j] * dL_dv[j] for j in range(6))
    return [v[i] * (dL_dv[i] - s) for i in range(6)]


# --- App. C, the general-n gradient list ----------------------------------------------

def matching_sums(p: Sequence, relations: Sequence[Sequence[int]], subjects: Sequence[int],
                  answers: Sequence[int]) -> list[list]:
    """P[i][j] := Σ_{r: r(s_{i+1}) = a_{j+1}} p(r) for i = 0, 1, 2 and j = 0, 1 (App. C notation)."""
    return [[sum((p[k] for k, r in enumerate(relations) if r[subjects[i]] == answers[j]), 0 * p[0])
             for j in range(2)] for i in range(3)]


def appc_grads(v: Sequence, T, P: Sequence[Sequence]) -> list:
    """App. C, first display list: ∂ℓ1/∂v_i (each printed as T ∂ℓ1/∂v_i = 2(…))."""
    v1, v2, v3, v4, v5, _ = v
    return [
        2 * (P[0][0] * v2 + P[0][1] * v4 - v2) / T,                  # T ∂ℓ1/∂v1
        2 * (P[0][0] * v1 + P[1][0] * v3 + P[2][0] * v5 - v1) / T,   # T ∂ℓ1/∂v2
        2 * (P[1][1] * v4 + P[1][0] * v2 - v4) / T,                  # T ∂ℓ1/∂v3
        2 * (P[1][1] * v3 + P[0][1] * v1 + P[2][1] * v5 - v3) / T,   # T ∂ℓ1/∂v4
        2 * (P[2][0] * v2 + P[2][1] * v4) / T,                       # T ∂ℓ1/∂v5
        0 * v1,                                                      # ∂ℓ1/∂v6 = 0
    ]


# --- App. D: step-2 logits -------------------------------------------------------------

def d_logits(q: Sequence) -> dict[str, object]:
    """App. D, first display ("conditioned on … r1"): l(a1), l(a2), l(a3) and l(a) for a ∉ {a1,a2,a3}."""
    q1, _, q3, _, q5, _, q7 = q
    return {
        "a1": (q1 + (q7 + 1))**2 + q3**2 + q5**2,
        "a2": (q3 + (q7 + 1))**2 + q1**2 + q5**2,
        "a3": (q5 + (q7 + 1))**2 + q3**2 + q1**2,
        "other": q1**2 + q3**2 + q5**2 + (q7 + 1)**2,
    }


def d_gap_bound(q: Sequence):
    """App. D: "the gap between l(a3) and the logits of other answers is lower bounded by 2(q5 − max{q1, q3})"."""
    return 2 * (q[4] - _max(q[0], q[2]))


def d_gap_other_bound(q: Sequence):
    """App. D: "l(a3) − l(a) ≥ 2q5 … for any a ∉ {a1, a2, a3}"."""
    return 2 * q[4]


# --- Claim 2 and its proof --------------------------------------------------------------

def claim2(q: Sequence, T, pa1, pa2, pa3) -> list:
    """Claim 2: ∂ℓ2/∂q_i, i = 1..7 (p_{2,r1}(a_k) = pa_k)."""
    q1, _, q3, _, q5, _, q7 = q
    z = 0 * q1
    return [
        2 * (1 + q7) / T * pa1,
        z,
        2 * (1 + q7) / T * pa2,
        z,
        2 * (1 + q7) / T * (pa3 - 1),
        z,
        2 / T * (pa1 * q1 + pa2 * q3 + pa3 * q5 - q5),
    ]


def claim2_dl(p: Sequence, T, target: int) -> list:
    """Proof of Claim 2: ∂ℓ2/∂l = (1/T)(p_{2,r1} − e3) (target = index of a3)."""
    return [(pk - (1 if k == target else 0)) / T for k, pk in enumerate(p)]


def claim2_dl_dq(q: Sequence, i: int, j: int):
    """Proof of Claim 2: ∂l_i/∂q_j (1-based i ∈ [n], j ∈ [7]; l_i = l(a_i) with a_i = r1(s_i), i ≤ 3):
    0 if j ∉ {1,3,5,7};  2q_{2k−1} + 2(q7+1)δ_{ik} for j = 2k−1, k = 1,2,3;
    2(q7+1) + 2q_{2i−1}·1{i ≤ 3} for j = 7."""
    q7 = q[6]
    if j in (1, 3, 5):
        k = (j + 1) // 2
        return 2 * q[j - 1] + 2 * (q7 + 1) * (1 if i == k else 0)
    if j == 7:
        return 2 * (q7 + 1) + (2 * q[2 * i - 2] if i <= 3 else 0)
    return 0 * q7


def claim2_odd(q: Sequence, T, p_role: Sequence, j: int):
    """Proof of Claim 2: ∂ℓ2/∂q_{2j−1} = (2(q7+1)/T)(p_{2,r1}(r1(s_j)) − δ_{j3}), j = 1, 2, 3."""
    return 2 * (q[6] + 1) / T * (p_role[j - 1] - (1 if j == 3 else 0))


def claim2_q7(q: Sequence, T, p_role: Sequence):
    """Proof of Claim 2: ∂ℓ2/∂q7 = (2/T)(p(r1(s1)) q1 + p(r1(s2)) q3 + p(r1(s3)) q5 − q5)."""
    return 2 / T * (p_role[0] * q[0] + p_role[1] * q[2] + p_role[2] * q[4] - q[4])


# --- App. D: chain rule, initialisation, first step -----------------------------------

def d_chain(q: Sequence, dl_dq: Sequence) -> list:
    """App. D: ∂ℓ2/∂ω_i = q_i (∂ℓ2/∂q_i − Σ_{j=1}^{7} q_j ∂ℓ2/∂q_j)."""
    s = sum(q[j] * dl_dq[j] for j in range(7))
    return [q[i] * (dl_dq[i] - s) for i in range(7)]


def d_init_grad_q(p, T) -> list:
    """App. D at initialisation: ∇_q ℓ2 = (1/(7T))(16p, 0, 16p, 0, 16(p − 1), 0, 2(3p − 1))ᵀ."""
    return [x / (7 * T) for x in (16 * p, 0 * p, 16 * p, 0 * p, 16 * (p - 1), 0 * p, 2 * (3 * p - 1))]


def d_init_grad_omega(p, T) -> list:
    """App. D at initialisation: ∇_ω ℓ2 = (1/(343T))(58p+18, −54p+18, 58p+18, −54p+18, 58p−94, −54p+18, −12p+4)ᵀ."""
    return [x / (343 * T) for x in (58 * p + 18, -54 * p + 18, 58 * p + 18, -54 * p + 18, 58 * p - 94,
                                    -54 * p + 18, -12 * p + 4)]


D_INIT_P_BOUND = sp.Rational(1, 3)  # "where p := p_{2,r1}(a1) < 1/3"


def d_gap1_bound(eta1, T):
    """App. D: "after the first GD step, ω̃5 − max_{i≠5} ω̃_i ≥ 32η1/(147T)"."""
    return 32 * eta1 / (147 * T)


# --- App. D: the monotonicity chain ----------------------------------------------------

def d_monotone_q7_lower(q: Sequence, T, pa3):
    """App. D: "∂ℓ2/∂q7 ≥ (2q5/T)(p_{2,r1}(a3) − 1)"."""
    return 2 * q[4] / T * (pa3 - 1)


def d_monotone_q5_form(q: Sequence, T, pa3):
    """App. D: "… ≥ (2(1 + q7)/T)(p_{2,r1}(a3) − 1) = ∂ℓ2/∂q5"."""
    return 2 * (1 + q[6]) / T * (pa3 - 1)


def d_monotone_line1(q: Sequence, g: Sequence, i: int):
    """App. D: ∂ℓ2/∂ω_i − ∂ℓ2/∂ω5 = q_i ∂ℓ2/∂q_i − q5 ∂ℓ2/∂q5 + (q5 − q_i) Σ_j q_j ∂ℓ2/∂q_j (i 0-based)."""
    s = sum(q[j] * g[j] for j in range(7))
    return q[i] * g[i] - q[4] * g[4] + (q[4] - q[i]) * s


def d_monotone_line2(q: Sequence, g: Sequence, i: int):
    """App. D: ≥ q_i ∂ℓ2/∂q_i − q5 ∂ℓ2/∂q5 + (q5 − q_i) ∂ℓ2/∂q5."""
    return q[i] * g[i] - q[4] * g[4] + (q[4] - q[i]) * g[4]


def d_monotone_line3(q: Sequence, g: Sequence, i: int):
    """App. D: = q_i (∂ℓ2/∂q_i − ∂ℓ2/∂q5) ≥ 0."""
    return q[i] * (g[i] - g[4])


def d_q5_form(omega: Sequence, i: int):
    """App. D: q5 − q_i = q5 (1 − exp(ω_i − ω5)) (right-hand side; q = softmax(ω), i 0-based)."""
    e = [sp.exp(w) for w in omega]
    q5 = e[4] / sp.Add(*e)
    return q5 * (1 - sp.exp(omega[i] - omega[4]))


D_Q5_LOWER = sp.Rational(1, 7)  # "since q5 ≥ 1/7"


# --- App. E, Proposition 2 proof -------------------------------------------------------

def _cov(p: np.ndarray, X: np.ndarray, Y: np.ndarray) -> float:
    """Cov_p(X, Y) := Σ_j p_j X_j Y_j − (Σ_j p_j X_j)(Σ_j p_j Y_j)."""
    return float(np.sum(p * X * Y) - np.sum(p * X) * np.sum(p * Y))


def p2_grad(p: np.ndarray, T: float, Xa: np.ndarray) -> float:
    """∇Ψ(v)[a] = (1/T) Σ_j p_j X_j^a."""
    return float(np.sum(p * Xa) / T)


def p2_hess(p: np.ndarray, T: float, Xa: np.ndarray, Xb: np.ndarray, Yab: np.ndarray) -> float:
    """∇²Ψ(v)[a, b] = (1/T) Σ_j p_j Y_j^{a,b} + (1/T²) Cov_p(X^a, X^b)."""
    return float(np.sum(p * Yab) / T + _cov(p, Xa, Xb) / T**2)


def p2_third(p: np.ndarray, T: float, D3: np.ndarray, Xa, Xb, Xc, Yab, Yac, Ybc) -> float:
    """∇³Ψ(v)[a, b, c] = (1/T) Σ_j p_j ∇³l_j[a,b,c] + (1/T²)(Cov_p(Y^{ab}, X^c) + Cov_p(Y^{ac}, X^b)
    + Cov_p(Y^{bc}, X^a)) + (1/T³) Σ_j p_j (X_j^a − μ_a)(X_j^b − μ_b)(X_j^c − μ_c)."""
    mu = lambda X: np.sum(p * X)  # noqa: E731
    return float(np.sum(p * D3) / T
                 + (_cov(p, Yab, Xc) + _cov(p, Yac, Xb) + _cov(p, Ybc, Xa)) / T**2
                 + np.sum(p * (Xa - mu(Xa)) * (Xb - mu(Xb)) * (Xc - mu(Xc))) / T**3)


PRINTED: dict[str, Callable] = {
    "eq10": eq10, "appc_grads": appc_grads, "d_logits": d_logits, "claim2": claim2,
    "d_chain": d_chain, "d_init_grad_q": d_init_grad_q, "d_init_grad_omega": d_init_grad_omega,
}
