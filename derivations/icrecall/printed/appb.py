"""What the paper prints, transcribed verbatim as SymPy (the objects under test).

Keep every entry a literal transcription with its location; derivations live in ``model.py``.
"""
from __future__ import annotations

import sympy as sp

v1, v2, v3, v4, v5, v6 = sp.symbols("v1:7", nonnegative=True)
T = sp.Symbol("T", positive=True)

#: Table 2 (App. B): prediction logits (EoS excluded) of (s1, a1, s2, a2, s3, EoS).
TABLE2: dict[str, sp.Expr] = {
    "s1": v2**2 + v4**2,
    "s2": v2**2 + v4**2,
    "s3": v2**2 + v4**2,
    "a1": v1**2 + v3**2 + v5**2,
    "a2": v1**2 + v3**2 + v5**2,
    "a3": v1**2 + v3**2 + v5**2,
    "r1": (v1 + v2)**2 + (v3 + v4)**2 + v5**2,
    "r2": (v1 + v4)**2 + (v2 + v3)**2 + v5**2,
    "r3": (v5 + v4)**2 + (v1 + v2)**2 + v3**2,
    "r4": (v5 + v2)**2 + (v1 + v4)**2 + v3**2,
    "r5": (v5 + v4)**2 + (v3 + v2)**2 + v1**2,
    "r6": (v5 + v2)**2 + (v3 + v4)**2 + v1**2,
}


def eqs_4_to_9(p: list[sp.Expr]) -> list[sp.Expr]:
    """Eqs. (4)–(9), App. B: ∂L1/∂v_i as printed, in terms of p = (p1(r1), …, p1(r6))."""
    p1, p2, p3, p4, p5, p6 = p
    return [
        2 / T * ((p1 + p3) * v2 + (p2 + p4) * v4 - v2),                          # (4)
        2 / T * ((p1 + p3) * v1 + (p2 + p5) * v3 + (p4 + p6) * v5 - v1),         # (5)
        2 / T * ((p1 + p6) * v4 + (p2 + p5) * v2 - v4),                          # (6)
        2 / T * ((p1 + p6) * v3 + (p2 + p4) * v1 + (p3 + p5) * v5 - v3),         # (7)
        2 / T * ((p3 + p5) * v4 + (p4 + p6) * v2),                               # (8)
        sp.Integer(0),                                                           # (9)
    ]


# --- App. B, gradient w.r.t. the logits (before Eq. (4)) ----------------------------------

def dldl(p: list[sp.Expr]) -> list[sp.Expr]:
    """App. B: "∂ℓ1/∂l = (1/T)(p1 − e1)" (p = softmax(l/T) over r1..r6)."""
    return [(pj - (1 if j == 0 else 0)) / T for j, pj in enumerate(p)]


# --- Lemma 5 proof (App. B) ---------------------------------------------------------------

#: "At initialization, v_i = 1/6, ∂L1/∂v1 = ∂L1/∂v3 = −1/(9T), ∂L1/∂v2 = ∂L1/∂v4 = ∂L1/∂v6 = 0,
#: ∂L1/∂v5 = 2/(9T)." (proof of observations 1, 2, 5)
INIT_V = sp.Rational(1, 6)
INIT_GRAD_V: list[sp.Expr] = [-1 / (9 * T), sp.Integer(0), -1 / (9 * T), sp.Integer(0), 2 / (9 * T), sp.Integer(0)]
#: "Therefore vᵀ∇_v L1 = 0 and ∇_θ L1 = (1/6)∇_v L1 ≠ 0"
INIT_V_DOT_GRAD = sp.Integer(0)
INIT_GRAD_THETA_FACTOR = sp.Rational(1, 6)
#: Observation 2: "L1(0, T) = log 6"
L1_AT_0 = sp.log(6)
#: Lemma 9 proof, the 2-matching logit at θ = 0: "2·(1/6 + 1/6)² + 1/6² = 1/4" (both sides printed)
INIT_2MATCH_LOGIT_EXPR = 2 * (sp.Rational(1, 6) + sp.Rational(1, 6))**2 + sp.Rational(1, 6)**2
INIT_2MATCH_LOGIT_VALUE = sp.Rational(1, 4)

#: Lemma 5 statement: ṽ := 𝒮(θ̃) = (1/4, 1/4, 1/4, 1/4, 0, 0)
SADDLE_V: tuple[sp.Expr, ...] = (sp.Rational(1, 4),) * 4 + (sp.Integer(0), sp.Integer(0))

#: Lemma 5 proof: "this critical point must satisfy v1 = v3 and v4 = v5" (pairs of printed equalities)
L5_CRIT_EQUALITIES: tuple[tuple[sp.Symbol, sp.Symbol], ...] = ((v1, v3), (v4, v5))


def l5_crit_grads(p: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    """Lemma 5 proof: "∂L1/∂v1 = −2(p5 + p6)v2 and ∂L1/∂v2 = −2(p4 + p6)v1" (at v5 = v6 = 0,
    v1 = v3, v2 = v4)."""
    p1, p2, p3, p4, p5, p6 = p
    return (-2 * (p5 + p6) * v2, -2 * (p4 + p6) * v1)


#: Lemma 5, end of proof: "(1, 1, −1, −1, 0, 0)/2 is a descending direction and (1, −1, −1, 1, 0, 0)/2
#: is an ascending direction" — as in the LaTeX source of the paper text.
L5_DESCENDING = tuple(sp.Rational(c, 2) for c in (1, 1, -1, -1, 0, 0))
L5_ASCENDING = tuple(sp.Rational(c, 2) for c in (1, -1, -1, 1, 0, 0))
#: The same two vectors as the plain-text rendering shows them (minus signs lost in extraction):
#: both read "(1, 1, 1, 1, 0, 0)/2".  Kept only to record that reading.
L5_DIRECTION_TEXT_READING = tuple(sp.Rational(c, 2) for c in (1, 1, 1, 1, 0, 0))

# --- Lemma 6 proof (App. B) ---------------------------------------------------------------

#: "Let ε̃ = ½·(1, 1, −1, −1, 0, 0)"
EPS_TILDE = tuple(sp.Rational(c, 2) for c in (1, 1, -1, -1, 0, 0))


def eq11(p0: sp.Expr, p1d: sp.Expr, p2d: sp.Expr) -> sp.Expr:
    """Eq. (11): f″(0) = (p1′(0))²/p1²(0) − p1″(0)/p1(0), given p1(0), p1′(0), p1″(0)."""
    return p1d**2 / p0**2 - p2d / p0


def eq13(v: list[sp.Expr], eps: list[sp.Expr]) -> list[sp.Expr]:
    """Eq. (13): v_i′(0) = ε̃_i v_i(0) − v_i(0)·v(0)ᵀε̃."""
    dot = sum(a * b for a, b in zip(v, eps))
    return [e * vi - vi * dot for vi, e in zip(v, eps)]


#: "Noting that v(0)ᵀε̃ = 0, we have v′(0) = ε̃ ⊙ v = (1/8, 1/8, −1/8, −1/8, 0, 0)ᵀ"
V_PRIME_0 = tuple(sp.Rational(c, 8) for c in (1, 1, -1, -1, 0, 0))
#: "v′(0) = (1/8, 1/8, −1/8, −1/8,)ᵀ" as printed before (17) (four entries; padded with zeros to use it)
V_PRIME_0_EQ17 = tuple(sp.Rational(c, 8) for c in (1, 1, -1, -1))

_h = sp.Rational(1, 2)
#: "∇_v l_i(v(0)) = (1, 1, 1, 1, 0, 0)ᵀ for i = 1, 2, ∇_v l3(v(0)) = (1, 1, ½, ½, 0, 0)ᵀ, …"
GRAD_L_AT_SADDLE: tuple[tuple[sp.Expr, ...], ...] = (
    (1, 1, 1, 1, 0, 0),
    (1, 1, 1, 1, 0, 0),
    (1, 1, _h, _h, 0, 0),
    (1, _h, _h, 1, 0, 0),
    (_h, 1, 1, _h, 0, 0),
    (_h, _h, 1, 1, 0, 0),
)
#: Eq. (14): "l′(0) = Σ_i ∇_v l_iᵀ v′ = (0, 0, 1/8, 0, 0, −1/8)ᵀ"
L_PRIME_0 = (0, 0, sp.Rational(1, 8), 0, 0, -sp.Rational(1, 8))


def eq15(p: list[sp.Expr]) -> list[sp.Expr]:
    """Eq. (15): ∂p1/∂l_i = (1/T) p1 (δ_{i1} − p_i)."""
    return [p[0] * ((1 if i == 0 else 0) - pi) / T for i, pi in enumerate(p)]


def vpp_line1(v: list[sp.Expr], vp: list[sp.Expr], eps: list[sp.Expr], i: int) -> sp.Expr:
    """v_i″(0) = ε̃_i v_i′(0) − v_i′(0) v(0)ᵀε̃ − v_i(0) v′(0)ᵀε̃ (first line of the display)."""
    return eps[i] * vp[i] - vp[i] * sum(a * b for a, b in zip(v, eps)) - v[i] * sum(a * b for a, b in zip(vp, eps))


def vpp_line2(v: list[sp.Expr], eps: list[sp.Expr], i: int) -> sp.Expr:
    """= v_i(0)(ε̃_i² − Σ_j v_j(0) ε̃_j²) (second line); the third line prints 0."""
    return v[i] * (eps[i]**2 - sum(a * b**2 for a, b in zip(v, eps)))


def _m(rows: str) -> sp.Matrix:
    return sp.Matrix([[int(c) for c in r.split()] for r in rows.split(";")])


#: Eq. (16)'s Hessians ∇²_v l_i(v(0)), rows top to bottom as printed.
HESSIANS: tuple[sp.Matrix, ...] = (
    _m("2 2 0 0 0 0; 2 2 0 0 0 0; 0 0 2 2 0 0; 0 0 2 2 0 0; 0 0 0 0 2 0; 0 0 0 0 0 0"),
    _m("2 0 0 2 0 0; 0 2 2 0 0 0; 0 2 2 0 0 0; 2 0 0 2 0 0; 0 0 0 0 2 0; 0 0 0 0 0 0"),
    _m("2 2 0 0 0 0; 2 2 0 0 0 0; 0 0 2 0 0 0; 0 0 0 2 2 0; 0 0 0 2 2 0; 0 0 0 0 0 0"),
    _m("2 0 0 2 0 0; 0 2 0 0 2 0; 0 0 2 0 0 0; 2 0 0 2 0 0; 0 2 0 0 2 0; 0 0 0 0 0 0"),
    _m("2 0 0 0 0 0; 0 2 2 0 0 0; 0 2 2 0 0 0; 0 0 0 2 2 0; 0 0 0 2 2 0; 0 0 0 0 0 0"),
    _m("2 0 0 0 0 0; 0 2 0 0 2 0; 0 0 2 2 0 0; 0 0 2 2 0 0; 0 2 0 0 2 0; 0 0 0 0 0 0"),
)
#: Eq. (17): "l″(0) = (1/4, 0, 3/16, 1/16, 1/16, 3/16)"
L_PP_0 = (sp.Rational(1, 4), 0, sp.Rational(3, 16), sp.Rational(1, 16), sp.Rational(1, 16), sp.Rational(3, 16))


def saddle_probs(p0: sp.Expr) -> list[sp.Expr]:
    """"p1(r1) = p1(r2) = p1(0) and p1(r3) = … = p1(r6) = (1 − 2p1(0))/4" at the saddle."""
    q = (1 - 2 * p0) / 4
    return [p0, p0, q, q, q, q]


def term_I(p0: sp.Expr) -> sp.Expr:
    """"term I = p1(0)/(8T)"."""
    return p0 / (8 * T)


def d2p(p: list[sp.Expr]) -> dict[tuple[int, int], sp.Expr]:
    """"∂²p1/∂l3² = (p1(0)/T²)(2p1(r3)² − p1(r3)), ∂²p1/∂l6² = (p1(0)/T²)(2p1(r6)² − p1(r6))" and
    "∂²p1/∂l3∂l6 = 2p1(0)p1(r3)p1(r6)/T²" (0-based keys)."""
    p0, p3, p6 = p[0], p[2], p[5]
    return {(2, 2): p0 / T**2 * (2 * p3**2 - p3), (5, 5): p0 / T**2 * (2 * p6**2 - p6),
            (2, 5): 2 * p0 * p3 * p6 / T**2}


def term_II(p0: sp.Expr, p3: sp.Expr) -> sp.Expr:
    """"term II = −p1(0) p1(r3)²/(16T²)"."""
    return -p0 * p3**2 / (16 * T**2)


#: "f″_{ε̃,θ̃}(0) = −1/(8T) + 1/(16T²(4 + 2exp(3/(16T)))²) ≲ −1/T"
FPP = -1 / (8 * T) + 1 / (16 * T**2 * (4 + 2 * sp.exp(3 / (16 * T)))**2)

# --- Section 4.1 text ---------------------------------------------------------------------

#: "l(r1) − l(r2) ∝ (v1 − v3)(v2 − v4)"
S41_GAP_SHAPE = (v1 - v3) * (v2 - v4)
#: Lemma 10 proof: "g := l(r1) − l(r2) = 2(v1 − v3)(v2 − v4)"
LEMMA10_G = 2 * (v1 - v3) * (v2 - v4)
#: Lemma 11 proof: "g := (v1 − v3)(v2 − v4)"
LEMMA11_G = (v1 - v3) * (v2 - v4)
#: Sec. 4.1: "replacing both v1, v2 by their mean (v1+v2)/2 and v3, v4 by their mean (v3+v4)/2"
AMGM_REPLACEMENT = {v1: (v1 + v2) / 2, v2: (v1 + v2) / 2, v3: (v3 + v4) / 2, v4: (v3 + v4) / 2}


def eq10(v: list[sp.Expr], grad_v: list[sp.Expr]) -> list[sp.Expr]:
    """Eq. (10), App. B: ∂L1/∂θ_i = v_i(∂L1/∂v_i − Σ_j v_j ∂L1/∂v_j)."""
    s = sum(a * b for a, b in zip(v, grad_v))
    return [a * (g - s) for a, g in zip(v, grad_v)]
