"""What the paper prints about the construction, the assumptions and the general-n structure,
transcribed verbatim (the objects under test).  Each entry cites its location.

Derivations live in ``families.py`` / ``model.py``; nothing here is computed from the model.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

# --- Lemma 3 (App. A), proof: the printed values φ(u)ᵀ f_MLP(query) ------------------------
# Keys: (query, competitor).  A value is an int (printed "= k") or ("<=", k) (printed "≤ k").
# Competitor kinds: "target" (the element to recover), "answer_other" (a' ≠ a), "answer_any"
# (every answer a'), "subject_other" (s' ≠ s), "subject_any" (every subject s'),
# "relation_any" (every relation r'), "relation_in" (r ∈ R(s,a)), "relation_out" (r' ∉ R(s,a)).
#
# Part 1, query φ(s) + φ(r): "φ(a)ᵀ f_MLP(φ(s) + φ(r)) = 4. For any a' ≠ a … = 1. For any
#   subject s', … = 1. For any relation r', … = 1."
# Part 2, query φ(a) + φ(r): "φ(s)ᵀ f_MLP(φ(a) + φ(r)) = 4. For any s' ≠ s … = 1. For any answer
#   a', … = 1 if the preimage of a' under r exists; otherwise … = 0. For any relation r', … = 1
#   if the preimage of a under r' exists; otherwise … = 0."   (conditional values: see below)
# Part 3, query φ(s) + φ(a): "For any r ∈ R(s,a), … φ(r)ᵀ f_MLP(φ(s) + φ(a)) = 4. For any
#   r' ∉ R(s,a) … ≤ 2. For any answer a', … = 1. For any subject s', … = 1."
PRINTED_SR = {"target": 4, "answer_other": 1, "subject_any": 1, "relation_any": 1}
PRINTED_AR = {"target": 4, "subject_other": 1, "answer_any": "1 if preimage of a' under r exists else 0",
              "relation_any": "1 if preimage of a under r' exists else 0"}
PRINTED_SA = {"relation_in": 4, "relation_out": ("<=", 2), "answer_any": 1, "subject_any": 1}

#: Lemma 3 proof, first line: "Let d_MLP = 3|S|·|A|."
def printed_width(n: int) -> int:
    return 3 * n * n


# --- Eq. (18) (App. C): the general-n step-1 relation logit ---------------------------------
v = sp.symbols("v1:7", nonnegative=True)


def eq18(match: "callable") -> sp.Expr:
    """Eq. (18): l(r) = 2 Σ_{1≤i≤3, 1≤j≤2} v_{2i−1} v_{2j} 1{r(s_i) = a_j} + Σ_{i=1}^{5} v_i².
    ``match(i, j)`` is the indicator 1{r(s_i) = a_j} (1-based i, j)."""
    return (2 * sum(v[2 * i - 2] * v[2 * j - 1] * int(bool(match(i, j)))
                    for i in range(1, 4) for j in range(1, 3))
            + sum(v[i - 1] ** 2 for i in range(1, 6)))


def eq18_coefficients(match: "callable") -> list[list[int]]:
    """Eq. (18) as the symmetric 7×7 integer matrix G of wᵀ G w, w = (v1, …, v6, 1)."""
    G = [[0] * 7 for _ in range(7)]
    for i in range(1, 6):
        G[i - 1][i - 1] = 1
    for i in range(1, 4):
        for j in range(1, 3):
            if match(i, j):
                G[2 * i - 2][2 * j - 1] += 1
                G[2 * j - 1][2 * i - 2] += 1
    return G


# --- Lemma 9 proof (App. C): initial logits and counts --------------------------------------
#: "all 2-matching relations have logits 2·(1/6 + 1/6)² + 1/6² = 1/4, all 1-matching relations
#: have logits (1/6 + 1/6)² + 3·(1/6²) = 7/36 and all 0-matching relations have logits
#: 5/6² = 5/36."  (expression as printed, value as printed) keyed by k.
_s = Fraction(1, 6)
L9_INIT_LOGITS = {
    2: (2 * (_s + _s) ** 2 + _s ** 2, Fraction(1, 4)),
    1: ((_s + _s) ** 2 + 3 * _s ** 2, Fraction(7, 36)),
    0: (5 * _s ** 2, Fraction(5, 36)),
}


#: "the number of 1-matching relations is at most 6(n − 3) and the number of 0-matching
#: relations is at most n(n − 1) − 6(n − 2) < n². Then 1 ≤ I(Z) ≤ 6."
def l9_bound_one_matching(n: int) -> int:
    return 6 * (n - 3)


def l9_bound_zero_matching(n: int) -> int:
    return n * (n - 1) - 6 * (n - 2)


def l9_bound_zero_matching_loose(n: int) -> int:
    return n * n  # strict: "< n²"


L9_I_RANGE = (1, 6)

# --- Section 4.1 / 4.2 -------------------------------------------------------------------
#: Table 1: images of (s1, s2, s3) and the label, r1..r6 (indices of a1, a2, a3 = 0, 1, 2).
TABLE1 = {
    "r1": ((0, 1, 2), "correct"),
    "r2": ((1, 0, 2), "confusing"),
    "r3": ((0, 2, 1), "mismatched"),
    "r4": ((1, 2, 0), "mismatched"),
    "r5": ((2, 0, 1), "mismatched"),
    "r6": ((2, 1, 0), "mismatched"),
}
#: Section 4.2: "(in fact, all sequences in the simple example are both confusing and mismatched)"
SEC42_ALL3_BOTH = True

#: Section 4.2 after Assumption 2: "if no input sequences are confusing, … the saddle point that
#: stage 1 converges to will also achieve 100% accuracy. If there are no confusing sequences and
#: no mismatched sequences, then even the initial solution would have 100% accuracy."
A2_REMARK_ACCURACY = 1

# --- Lemma 4 (App. B) --------------------------------------------------------------------
#: "the prediction accuracy cannot exceed 1/3"
L4_ACCURACY_CAP = Fraction(1, 3)

# --- Section 5 configurations --------------------------------------------------------------
#: "|S| = |A| = 8, |R| = 64, T = 0.05" (2 examples, Fig. 2(a)/4(a)) and "|S| = |A| = 8,
#: |R| = 512, T = 0.01" (3 examples, Fig. 2(b)/4(b)); relations "random bijections from S to A".
SECTION5_CONFIGS = (
    {"figure": "2(a), 4(a)", "n": 8, "m": 64, "T": 0.05, "examples": 2},
    {"figure": "2(b), 4(b)", "n": 8, "m": 512, "T": 0.01, "examples": 3},
)
