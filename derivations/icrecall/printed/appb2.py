"""What the paper prints in App. B from Lemma 7 on (Lemma 7, Lemma 8, Theorem 4, Claim 1) and in
App. E (Proposition 2, Lemma 12) — verbatim transcriptions, each with its location.

These are the objects under test; nothing here is used as an input to a derivation.  Where a
display is ambiguous as typeset, every reading is transcribed (see ``H_READINGS``).
"""
from __future__ import annotations

from typing import Sequence

import sympy as sp

v1, v2, v3, v4, v5, v6 = sp.symbols("v1:7", nonnegative=True)
T = sp.Symbol("T", positive=True)
x = sp.Symbol("x", real=True)
R = sp.Rational


# --- Lemma 8 proof (App. B) ---------------------------------------------------------------

def lemma8_vsum(p: Sequence[sp.Expr], l: Sequence[sp.Expr]) -> sp.Expr:
    """Lemma 8 proof: "By calculations we have Σ_j v_j ∂L1/∂v_j = Σ_r p1(r) l(r)" (right side)."""
    return sp.Add(*[pi * li for pi, li in zip(p, l)])


def lemma8_diff12(p: Sequence[sp.Expr], l: Sequence[sp.Expr]) -> sp.Expr:
    """Lemma 8 proof, first display: T(∂L1/∂θ1 − ∂L1/∂θ2) =
    (p1(r2)+p1(r4))v1v4 − (p1(r2)+p1(r5))v2v3 − (p1(r4)+p1(r6))v2v5 + (v1−v2)(l(r1) − Σ_r p1(r)l(r))."""
    p1, p2, p3, p4, p5, p6 = p
    mean = sp.Add(*[pi * li for pi, li in zip(p, l)])
    return ((p2 + p4) * v1 * v4 - (p2 + p5) * v2 * v3 - (p4 + p6) * v2 * v5
            + (v1 - v2) * (l[0] - mean))


def lemma8_diff34(p: Sequence[sp.Expr], l: Sequence[sp.Expr]) -> sp.Expr:
    """Lemma 8 proof, second display: T(∂L1/∂θ3 − ∂L1/∂θ4) =
    (p1(r2)+p1(r5))v2v3 − (p1(r2)+p1(r4))v1v4 − (p1(r3)+p1(r5))v4v5 + (v3−v4)(l(r1) − Σ_r p1(r)l(r))."""
    p1, p2, p3, p4, p5, p6 = p
    mean = sp.Add(*[pi * li for pi, li in zip(p, l)])
    return ((p2 + p5) * v2 * v3 - (p2 + p4) * v1 * v4 - (p3 + p5) * v4 * v5
            + (v3 - v4) * (l[0] - mean))


# --- Theorem 4 proof (App. B) -------------------------------------------------------------

#: "Direct caculations give that d2 = −8x² + 4x − ½, d3 = −3x² + 3x − ¾, d4 = −7x² + 4x − ¾,
#: d5 = −7x² + 3x − ½ and d6 = −3x²."  (on v = (x, x, ½ − x, ½ − x, 0, 0))
D_PRINTED: dict[int, sp.Expr] = {
    2: -8 * x**2 + 4 * x - R(1, 2),
    3: -3 * x**2 + 3 * x - R(3, 4),
    4: -7 * x**2 + 4 * x - R(3, 4),
    5: -7 * x**2 + 3 * x - R(1, 2),
    6: -3 * x**2,
}


def L1_line(d: Sequence[sp.Expr]) -> sp.Expr:
    """"L1(x) = log(1 + Σ_{j=2}^6 exp(d_j(x)/T)) where d_j(x) := l_j(x) − l_1(x)"."""
    return sp.log(1 + sp.Add(*[sp.exp(dj / T) for dj in d]))


#: "It is easy to see L1 is symmetric L1(x) = L1(¼ − x)": the printed reflection x ↦ c − x.
SYMMETRY_C = R(1, 4)

#: "Set h(x) := d2(x) − d6(x) = −5x² + 4x² − ½": as typeset (reading "literal") and with the
#: apparent typo 4x² → 4x (reading "4x").
H_READINGS: dict[str, sp.Expr] = {
    "literal": -5 * x**2 + 4 * x**2 - R(1, 2),
    "4x": -5 * x**2 + 4 * x - R(1, 2),
}
#: "… has a unique root x0 = (4 − √6)/10."
X0_PRINTED = (4 - sp.sqrt(6)) / 10


def Psi_printed(d: Sequence[sp.Expr]) -> sp.Expr:
    """"Ψ(x) = (4 − 16x) e^{(d2(x) − d6(x))/T} − 6x + Σ_{j=3}^5 d_j′(x) e^{(d_j(x) − d6(x))/T}"
    (the sum is evaluated with the gaps ``d`` = (d2, …, d6) supplied)."""
    d2, d3, d4, d5, d6 = d
    return ((4 - 16 * x) * sp.exp((d2 - d6) / T) - 6 * x
            + sp.Add(*[sp.diff(dj, x) * sp.exp((dj - d6) / T) for dj in (d3, d4, d5)]))


def Psi_tilde_printed(h: sp.Expr) -> sp.Expr:
    """"Ψ̃(x) := (4 − 16x) e^{(d2(x) − d6(x))/T} − 6x" with h = d2 − d6 supplied."""
    return (4 - 16 * x) * sp.exp(h / T) - 6 * x


def F_printed(h: sp.Expr) -> sp.Expr:
    """Claim 1 proof: "F(x) := h(x) − T log(6x/(4 − 16x))"."""
    return h - T * sp.log(6 * x / (4 - 16 * x))


def F_prime_printed(h: sp.Expr) -> sp.Expr:
    """Claim 1 proof: "F′(x) = h′(x) − T(1/x + 16/(4 − 16x))"."""
    return sp.diff(h, x) - T * (1 / x + 16 / (4 - 16 * x))


# --- Lemma 7 (App. B, restated from Jin et al. 2017, Lemma 14) and its uses ----------------

def lemma7(alpha, rho, gamma, eta, d, delta, c):
    """Lemma 7's quantities: gradient precondition, perturbation radius, step count, improvement.
    ‖∇f(x̃)‖ ≤ √(ηα)(γ²/ρ)·log⁻²(dα/(δγ));  radius √(ηα)(γ²/(ρα)) log⁻²(dα/(δγ));
    t ≥ log(dα/(δγ))/(cηγ);  f(x_t) − f(x̃) ≤ −ηα(γ³/ρ²) log⁻³(dα/(δγ))."""
    lg = sp.log(d * alpha / (delta * gamma))
    return {
        "precondition": sp.sqrt(eta * alpha) * gamma**2 / rho * lg**-2,
        "radius": sp.sqrt(eta * alpha) * gamma**2 / (rho * alpha) * lg**-2,
        "steps": lg / (c * eta * gamma),
        "improvement": eta * alpha * gamma**3 / rho**2 * lg**-3,
    }


#: The orders the paper states where Lemma 7 is applied (T, p_conf, δ symbols supplied by caller).
def lemma7_uses(T_, pconf, delta):
    return {
        "Algorithm 1 radius": T_**3 * sp.log(1 / delta) ** -2,   # "Uniform(𝔹(0, Θ(T³ log⁻²(1/δ))))"
        "Lemma 6 improvement": T_**3,                           # "L1(θ_t) − L1(θ̃) ≤ −Ω(T³)"
        "Lemma 10 improvement": pconf**3 * T_**3,               # "−Ω(p_conf³·T³)"
        "Lemma 10 steps": 1 / (pconf * T_),                     # "after Õ(1/(p_conf·T)) iterations"
        "Lemma 10 statement steps": 1 / T_,                     # Lemma 10: "after O(1/T) iterations"
    }


# --- Proposition 2 (App. E) ---------------------------------------------------------------

#: "the number of possible quadratic forms is at most 13"
NUM_FORMS = 13


def prop2_bounds(G, H, T_):
    """"|∇Ψ(v)[a]| ≤ G/T", "|∇²Ψ(v)[a,b]| ≤ H/T + 2G²/T²", "|∇³Ψ(v)[a,b,c]| ≤ 6HG/T² + 8G³/T³"."""
    return {1: G / T_, 2: H / T_ + 2 * G**2 / T_**2, 3: 6 * H * G / T_**2 + 8 * G**3 / T_**3}


# --- Lemma 12 (App. E) --------------------------------------------------------------------

def lemma12_bound(t, f0_minus_fstar, ell):
    """"‖x_t − x_0‖ ≤ √(2t(f(x0) − f*)/ℓ)"."""
    return sp.sqrt(2 * t * f0_minus_fstar / ell)


def lemma12_descent_sum(f0_minus_fstar, ell):
    """Proof: "Σ_{k<t} ‖x_{k+1} − x_k‖² = η² Σ ‖∇f(x_k)‖² ≤ 2(f(x0) − f*)/ℓ"."""
    return 2 * f0_minus_fstar / ell


# --- Eq. (18) (App. C), transcribed here only to compare its line restriction (ICR-T4-dj) -----

def eq18_logit(relation: Sequence[int], v: Sequence[sp.Expr]) -> sp.Expr:
    """Eq. (18): l(r) = 2 Σ_{1≤i≤3, 1≤j≤2} v_{2i−1} v_{2j} 1{r(s_i) = a_j} + Σ_{i=1}^5 v_i², for the input
    (s1, a1, s2, a2, s3, EoS) with a_j = r*(s_j), r* = identity (Table 1's r1); ``relation`` = images of s1..s3."""
    total = sp.Add(*[v[i] ** 2 for i in range(5)])
    for i in range(3):
        for j in range(2):
            if relation[i] == j:
                total += 2 * v[2 * i] * v[2 * j + 1]
    return total
