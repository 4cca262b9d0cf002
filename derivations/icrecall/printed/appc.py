"""App. C (Lemmas 9–11, Theorem 3) displays as printed, transcribed verbatim as SymPy.

These are the objects under test; derivations live in ``general_n.py``.  Each entry names its
location.  O(·)/o(·) remainders are not transcribed into the expressions: the leading terms are,
and the remainder's order is recorded next to the entry (``*_ORDER``) for the claim to test.
"""
from __future__ import annotations

import sympy as sp

v1, v2, v3, v4, v5, v6 = V = sp.symbols("v1:7", nonnegative=True)
T = sp.Symbol("T", positive=True)
n = sp.Symbol("n", positive=True)
I = sp.Symbol("I", positive=True)  # I(Z), the number of 2-matching relations
p1, p2, pc = sp.symbols("p1 p2 p_conf", positive=True)
g = sp.Symbol("g", real=True)  # Lemma 11: g := (v1 − v3)(v2 − v4)

# --- Lemma 9 proof ------------------------------------------------------------------------------
#: "p1(r1) = 1/I(Z) − O(n exp(−1/(18T)) + n² exp(−1/(9T)))"
L9_P1_INIT_MAIN = 1 / I
L9_P1_INIT_ORDER = n * sp.exp(-1 / (18 * T)) + n**2 * sp.exp(-1 / (9 * T))
#: "if 1/T > 40 log n … p1(r1) = 1/I(Z) − O(exp(−1/(36T)))"
L9_P1_INIT_ORDER2 = sp.exp(-1 / (36 * T))
#: "0 ≤ ∂ℓ1/∂v5 − ∂ℓ1/∂v_i < O(exp(−1/(36T))/T)" (non-mismatched Z)
L9_NONMIS_ORDER = sp.exp(-1 / (36 * T)) / T
#: "p1(r1)/(3T) ≤ ∂ℓ1/∂v5 − ∂ℓ1/∂v_i < 2/(3T)" (mismatched Z), and "∂ℓ1/∂v5 ≥ p1(r1)/(3T)"
L9_MIS_LOWER = p1 / (3 * T)
L9_MIS_UPPER = sp.Rational(2, 3) / T
#: Eq. (19): "p(r1)·p_mis/(3T) ≤ ∂L1/∂v5 − ∂L1/∂v_i < 2·p_mis/(3T) + O(exp(−1/(36T))/T)"
pmis = sp.Symbol("p_mis", positive=True)
EQ19_LOWER = p1 * pmis / (3 * T)
EQ19_UPPER = 2 * pmis / (3 * T)
EQ19_ORDER = sp.exp(-1 / (36 * T)) / T
#: Eqs. (20), (21) and the per-Z versions: O(exp(−1/(36T))/T)
EQ20_ORDER = sp.exp(-1 / (36 * T)) / T
#: "|v0ᵀ∇_v L1| = O(exp(−1/36)/T)" — printed without T in the exponent
V0_GRAD_ORDER_PRINTED = sp.exp(-sp.Rational(1, 36)) / T


def chain_rule_display(dv: list[sp.Expr], v: list[sp.Expr]) -> list[tuple[sp.Expr, sp.Expr]]:
    """"Since ∂L1/∂v_i = v_i(∂L1/∂v_i − vᵀ∇_v L1)" (Lemma 9 proof): (lhs, rhs) per i, as printed."""
    vg = sum(a * b for a, b in zip(v, dv))
    return [(dv[i], v[i] * (dv[i] - vg)) for i in range(6)]


#: "|∂L1(D)/∂v1 − ∂L1(D)/∂v3| = o(√T log⁻¹(1/T))" and "|v1 − v3| = Θ(η1|…|) = o(T²) = o(η1²/T²)"
L9_CHERNOFF_GRAD_ORDER = sp.sqrt(T) / sp.log(1 / T)
L9_PER_SAMPLE_BOUND = 2 / T

# --- Lemma 10 proof -----------------------------------------------------------------------------
DELTA = [sp.Rational(1, 2), sp.Rational(1, 2), -sp.Rational(1, 2), -sp.Rational(1, 2), 0, 0]  # ε̃
#: "∇_v l1 = 2(v1 + v2, v1 + v2, v3 + v4, v3 + v4, v5, 0)ᵀ", "∇_v l2 = 2(v1 + v4, v2 + v3, v2 + v3, v1 + v4, v5, 0)ᵀ"
GRAD_L1 = [2 * (v1 + v2), 2 * (v1 + v2), 2 * (v3 + v4), 2 * (v3 + v4), 2 * v5, 0]
GRAD_L2 = [2 * (v1 + v4), 2 * (v2 + v3), 2 * (v2 + v3), 2 * (v1 + v4), 2 * v5, 0]
#: "l1′(0) = (∇_v l1)ᵀ(δ ⊙ v) + o(T²) = (v1 + v2 + v3 + v4)(v1 − v3 + v2 − v4) + o(T²)"
L1P_MIDDLE = (v1 + v2 + v3 + v4) * (v1 - v3 + v2 - v4)


def vpp_first(i: int, v, vp, delta) -> sp.Expr:
    """"v_i″(0) = δ_i v_i′(0) − v_i′ vᵀδ − v_i (v′)ᵀδ"."""
    vd = sum(a * b for a, b in zip(v, delta))
    vpd = sum(a * b for a, b in zip(vp, delta))
    return delta[i] * vp[i] - vp[i] * vd - v[i] * vpd


def vpp_second(i: int, v, delta) -> sp.Expr:
    """"v_i″(0) = v_i(δ_i² − Σ_j v_j δ_j²) + o(T²)" (leading term)."""
    return v[i] * (delta[i] ** 2 - sum(a * b**2 for a, b in zip(v, delta)))


#: "Σ_j v_j δ_j² = 1/6 + O(√T log(1/T))"
SUM_VD2 = sp.Rational(1, 6)
#: "v_i″(0) = (1/12) v_i − O(√T log(1/T))"
VPP_THIRD_COEFF = sp.Rational(1, 12)
#: "(∇_v l_i)ᵀ v″(0) = 1/24 − O(…)", "v′ᵀ∇²l1 v′ = 1/12 + O(…)", "v′ᵀ∇²l2 v′ = O(…)",
#: "l1″(0) = 1/8 + O(…)", "l2″(0) = 1/24 − O(…)"
CONSTS = {"gradl_vpp": sp.Rational(1, 24), "vp_H1_vp": sp.Rational(1, 12), "vp_H2_vp": sp.Integer(0),
          "l1pp": sp.Rational(1, 8), "l2pp": sp.Rational(1, 24)}
#: Eq. (24): "term I = (p1/T)((1/8)(1 − p1) − (1/24)p2 + O(…)) = (p1/(12T))(p2 + O(…)) = Θ(1/T)"
TERM_I_FIRST = p1 / T * (sp.Rational(1, 8) * (1 - p1) - sp.Rational(1, 24) * p2)
TERM_I_SECOND = p1 / (12 * T) * p2
#: "∂p1/∂l1 = (1/T) p1(1 − p1)", "∂p1/∂l_i = −(1/T) p1 p_i (i ≠ 1)"
DP1_DL1 = p1 * (1 - p1) / T
pi, pj = sp.symbols("p_i p_j", positive=True)
DP1_DLI = -p1 * pi / T
#: term II second derivatives as printed (qualifiers "for i ≠ j, i ≠ 1, j ≠ 1")
D2P = {
    "d2_li_lj": 2 / T**2 * p1 * pi * pj,
    "d2_li2_first": p1 * (1 - p1) * (1 - 2 * p1) / T**2,   # printed "∂²p1/∂l_i²" (first list)
    "d2_l1_li": p1 * pi / T**2 * (2 * p1 - 1),
    "d2_li2_second": p1 * pi / T**2 * (2 * pi - 1),        # printed "∂²p1/∂l_i²", i ≠ 1
}
#: Eq. (22) "f″(0) = −p1″(0)/p1(0) + o(T²)"; "p1″(0) = −Θ(1/T) and hence f″(0) ≤ −Ω(1/T)"
P1PP_SIGN_PRINTED = -1
FPP_SIGN_PRINTED = -1
#: "f″(0) = p1′(0)²/p1²(0) − p1″(0)/p1(0)" ("Direct calculation gives")


def sandwich(gv, Tv, nv):
    """"1/(1 + exp(−g/T) + 4exp(−√(1/T)) + n² exp(−1/(18T))) ≤ p1(r1, Z) ≤ 1/(1 + exp(−g/T))"
    with "g := l(r1) − l(r2) = 2(v1 − v3)(v2 − v4)"."""
    lower = 1 / (1 + sp.exp(-gv / Tv) + 4 * sp.exp(-sp.sqrt(1 / Tv)) + nv**2 * sp.exp(-1 / (18 * Tv)))
    upper = 1 / (1 + sp.exp(-gv / Tv))
    return lower, upper


SANDWICH_G = 2 * (v1 - v3) * (v2 - v4)
CONF_CLOSE_ORDER = sp.exp(-1 / sp.sqrt(T))

# --- Lemma 11 proof -----------------------------------------------------------------------------
#: "(v1 − v3)(v2 − v4) ≳ T⁴" from "p(r2) ≤ ½ − Ω(T³)"; "l1 − l2 = 2(v1 − v3)(v2 − v4)"
G0_EXPONENT = 4
P2_GAP_EXPONENT = 3
D = sp.symbols("Delta1:7", real=True)
#: Eq. (26): "g_{k+1} − g_k = (v1 − v3)(Δ2 − Δ4) + (v2 − v4)(Δ1 − Δ3) + (Δ1 − Δ3)(Δ2 − Δ4)"
EQ26 = (v1 - v3) * (D[1] - D[3]) + (v2 - v4) * (D[0] - D[2]) + (D[0] - D[2]) * (D[1] - D[3])
#: "‖θ(k) − θ̃‖₂ ≲ √(k·T²) ≲ T^{1/2}(log(1/T))^{3/4}" for "k ≤ (1/T)(log(1/T))^{1.5}"
k = sp.Symbol("k", positive=True)
L11_DISPLACEMENT = sp.sqrt(k * T**2)
L11_DISPLACEMENT2 = sp.sqrt(T) * sp.log(1 / T) ** sp.Rational(3, 4)
L11_K_MAX = sp.log(1 / T) ** sp.Rational(3, 2) / T
#: "∂ℓ1/∂v1 = (1/T)(p2(v4 − v2) + o(·)) …, ∂ℓ1/∂v5 = o(·), ∂ℓ1/∂v6 = 0" (leading terms)
L11_GRADS = [p2 * (v4 - v2) / T, p2 * (v3 - v1) / T, p2 * (v2 - v4) / T, p2 * (v1 - v3) / T,
             sp.Integer(0), sp.Integer(0)]
#: "Σ_j v_j ∂L1/∂v_j = (4 p2 p_conf/T)(−g + o(e^{−1/√T}))"
L11_VGRAD = 4 * p2 * pc / T * (-g)
#: "∂L1/∂θ_i = v_i(∂L1/∂v_i − Σ_j v_j ∂L1/∂v_j)"


def eq27(gt: list[sp.Expr], eta: sp.Expr, v=V) -> sp.Expr:
    """Eq. (27) without its O(‖ε‖): g_{k+1} − g_k in terms of ∂L1/∂θ_i = gt[i] and vᵀ∇_θ L1."""
    a = sum(x * y for x, y in zip(v, gt))
    b13 = v[2] * gt[2] - v[0] * gt[0]
    b24 = v[3] * gt[3] - v[1] * gt[1]
    d13, d24 = v[0] - v[2], v[1] - v[3]
    return eta * (2 * d13 * d24 * a + eta * d13 * d24 * a**2 + d24 * b13 + d13 * b24
                  + eta * b13 * b24 + eta * d13 * a * b24 + eta * d24 * a * b13)


def delta_diffs(gt: list[sp.Expr], eta: sp.Expr, v=V) -> tuple[sp.Expr, sp.Expr]:
    """"Δ1 − Δ3 = η2((v1 − v3)vᵀ∇_θL1 + v3∂L1/∂θ3 − v1∂L1/∂θ1) + ε1 − ε3", and Δ2 − Δ4 (no ε)."""
    a = sum(x * y for x, y in zip(v, gt))
    return (eta * ((v[0] - v[2]) * a + v[2] * gt[2] - v[0] * gt[0]),
            eta * ((v[1] - v[3]) * a + v[3] * gt[3] - v[1] * gt[1]))


def eq28(dv: list[sp.Expr], v=V) -> tuple[sp.Expr, sp.Expr]:
    """Eq. (28): first "=" right side, and the leading term of the second (p2 := p2(D))."""
    vg = sum(x * y for x, y in zip(v, dv))
    first = v[2] ** 2 * dv[2] - v[0] ** 2 * dv[0] + (v[0] ** 2 - v[2] ** 2) * vg
    gg = (v[0] - v[2]) * (v[1] - v[3])
    second = 2 * p2 * pc / T * ((v[0] ** 2 + v[2] ** 2) * (v[1] - v[3]) + 2 * (v[2] ** 2 - v[0] ** 2) * gg)
    return first, second


def eq29(v=V) -> sp.Expr:
    gg = (v[0] - v[2]) * (v[1] - v[3])
    return 2 * p2 * pc / T * ((v[1] ** 2 + v[3] ** 2) * (v[0] - v[2]) + 2 * (v[3] ** 2 - v[1] ** 2) * gg)


def eq30(dv: list[sp.Expr], v=V) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Eq. (30): the three right sides (leading terms)."""
    vg = sum(x * y for x, y in zip(v, dv))
    nv2 = sum(x**2 for x in v)
    gg = (v[0] - v[2]) * (v[1] - v[3])
    first = sum(v[i] ** 2 * dv[i] for i in range(6)) - nv2 * vg
    second = 2 * p2 * pc / T * ((v[2] ** 2 - v[0] ** 2) * (v[1] - v[3]) + (v[3] ** 2 - v[1] ** 2) * (v[0] - v[2])
                                + 2 * nv2 * gg)
    third = 2 * p2 * pc / T * ((2 * nv2 - (v[0] + v[1] + v[2] + v[3])) * gg)
    return first, second, third


def eq31_lines(eta: sp.Expr, v=V):
    """Eq. (31): leading terms of the three lines (o(g), O(‖ε‖) dropped)."""
    gg = (v[0] - v[2]) * (v[1] - v[3])
    a13, a24 = v[0] ** 2 + v[2] ** 2, v[1] ** 2 + v[3] ** 2
    line1 = 2 * p2 * pc * eta / T * (a13 * (v[1] - v[3]) ** 2 + a24 * (v[0] - v[2]) ** 2)
    line2 = 2 * p2 * pc * eta / T * (sp.sqrt(a13 * a24) * gg)
    line3 = eta * pc / (10000 * T) * gg
    return line1, line2, line3


#: "(v1² + v3²)(v2 − v4)² + (v2² + v4²)(v1 − v3)² ≥ 2√((v1² + v3²)(v2² + v4²)) g"
AMGM_LHS = (v1**2 + v3**2) * (v2 - v4) ** 2 + (v2**2 + v4**2) * (v1 - v3) ** 2
AMGM_RHS = 2 * sp.sqrt((v1**2 + v3**2) * (v2**2 + v4**2)) * (v1 - v3) * (v2 - v4)
EQ31_P2_THRESHOLD = sp.Rational(9, 10000)
EQ31_P1_CONSEQUENCE = sp.Rational(9991, 10000)
EQ31_CONST = sp.Rational(1, 10000)
#: "for T < 1/(40 log n) and large enough n … |p1(Z′) − p1(Z)| < 0.0001"
L11_FINAL_WIDTH = sp.Rational(1, 10000)


def l11_final_sandwich(gk, T_, n):
    """Lemma 11, end of proof: "1/(1 + exp(−g_k/T) + 4exp(−√(1/T)) + n² exp(−1/(18T))) ≤ p1(Z′) ≤ 1/(1 + exp(−g_k/T))"
    with Lemma 11's own "g := (v1 − v3)(v2 − v4)" (floats; returns (lower, upper))."""
    import math
    e = math.exp(-gk / T_)
    return 1 / (1 + e + 4 * math.exp(-math.sqrt(1 / T_)) + n**2 * math.exp(-1 / (18 * T_))), 1 / (1 + e)

# --- Theorem 3 proof ----------------------------------------------------------------------------
#: "‖v(θ) − v(θ̃)‖ ≲ √T(log(1/T))^{3/4} = o(α) = o(p_mis·η1/T)"
T3_DISPLACEMENT = sp.sqrt(T) * sp.log(1 / T) ** sp.Rational(3, 4)
#: "if |D| ≥ (13/ζ) log(1/δ), then with probability at least 1 − δ/3, p_conf, p_mis ≥ ζ/2"
T3_SAMPLE_CONST = 13
