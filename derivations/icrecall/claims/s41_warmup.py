"""Section 4.1 text (n = 3): the Stage-1 prediction at the saddle, the r1–r2 logit gap and the AM–GM
pairing step — derived from the model's logits, compared with the printed statements."""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

import theoryverify as tv
from theoryverify import check_cases, check_identity, check_inequality
from theoryverify import ClaimSet, Kind
from theoryverify import Domain, Simplex
from theoryverify import Verdict, combine

from ..printed import appb as printed
from ..model.n3_landscape import M, SADDLE, T, T_DOM, V, sub
from ..model.symbolic import softmax

CLAIMS = ClaimSet("icrecall")

SIMPLEX_V = Domain([Simplex(V)])
Q = sp.exp(-1 / (8 * T))


def saddle_probs() -> list[sp.Expr]:
    return softmax([sub(l, SADDLE) / T for l in M.relation_logits])


def check_stage1_pred(ctx, saddle=printed.SADDLE_V) -> Verdict:
    """At ṽ: p1 = p2 = 1/(2 + 4e^{−1/(8T)}), p3..p6 = e^{−1/(8T)}/(2 + 4e^{−1/(8T)}) (DERIVED), → (½, ½, 0, 0, 0, 0)."""
    point = dict(zip(V, saddle))
    p = softmax([sub(l, point) / T for l in M.relation_logits])
    l = [sub(x, point) for x in M.relation_logits]
    parts = {"p(r1) = p(r2)": check_identity(p[0], p[1], T_DOM, ctx.seed, symbolic_seconds=0.5),
             "p(r1) = 1/(2 + 4e^{−1/(8T)})": check_identity(p[0], 1 / (2 + 4 * Q), T_DOM, ctx.seed + 1,
                                                             symbolic_seconds=1.0)}
    for j in range(2, 6):
        parts[f"p(r{j + 1}) = e^(−1/(8T))/(2 + 4e^(−1/(8T)))"] = check_identity(p[j], Q / (2 + 4 * Q), T_DOM,
                                                                                 ctx.seed + j, symbolic_seconds=1.0)
    limits = [sp.limit(sp.simplify(q), T, 0, "+") for q in p]
    parts["T → 0: p → (½, ½, 0, 0, 0, 0)"] = check_cases(
        [("limits", limits)], lambda x: (x == [sp.Rational(1, 2)] * 2 + [0] * 4, {"limits": x}),
        exhaustive=True, what="limits")
    parts["mismatched logits below l(r1) = l(r2)"] = check_cases(
        [(f"r{j + 1}", j) for j in range(2, 6)],
        lambda j: (l[j] < l[0] and l[0] == l[1], {"l(r1)": l[0], "l(r2)": l[1], f"l(r{j + 1})": l[j]}),
        exhaustive=True, what="mismatched relations")
    return combine(parts, method="prediction at the Stage-1 saddle:")


@CLAIMS.add("s41-stage1-pred", location="Section 4.1, 'First stage'", kind=Kind.IDENTITY,
            catalogue_id="ICR-S41-stage1-pred",
            statement="At ṽ = (¼, ¼, ¼, ¼, 0, 0) the prediction is uniform on r1 and r2 and the mismatched logits "
                      "are smaller: DERIVED p1 = p2 = 1/(2 + 4e^{−1/(8T)}), p3..6 = e^{−1/(8T)}/(2 + 4e^{−1/(8T)}), "
                      "→ (½, ½, 0, 0, 0, 0) as T → 0",
            choices={"reading": "'uniform on r1 and r2' read as p1 = p2 exactly and p3..6 → 0 as T → 0; at finite T the "
                                "mismatched mass 4e^{−1/(8T)}/(2 + 4e^{−1/(8T)}) is recorded (e.g. 0.36 at T = 0.1)"})
def s41_stage1_pred(ctx):
    verdict = check_stage1_pred(ctx)
    p = saddle_probs()
    mass = {str(t): float(sum(q.subs(T, t) for q in p[2:])) for t in (sp.Rational(1, 10), sp.Rational(1, 20),
                                                                      sp.Rational(1, 50))}
    return replace(verdict, details={**verdict.details, "mismatched mass at the saddle, by T": mass})


def gap() -> sp.Expr:
    return M.all_logits["r1"] - M.all_logits["r2"]


@CLAIMS.add("s41-gap", location="Section 4.1, 'Second stage'", kind=Kind.IDENTITY, catalogue_id="ICR-S41-gap",
            statement="l(r1) − l(r2) ∝ (v1 − v3)(v2 − v4): DERIVED l(r1) − l(r2) = 2(v1 − v3)(v2 − v4) (constant 2), "
                      "so the gap is positive iff v1 − v3 and v2 − v4 have the same (nonzero) sign",
            choices={"definitions of g": "Lemma 10 proof: g := l(r1) − l(r2) = 2(v1 − v3)(v2 − v4); Lemma 11 proof: "
                                         "g := (v1 − v3)(v2 − v4) = (l(r1) − l(r2))/2 — the two proofs' g differ by 2"})
def check_gap(ctx, shape=printed.S41_GAP_SHAPE, g10=printed.LEMMA10_G, g11=printed.LEMMA11_G) -> Verdict:
    return combine({
        "l(r1) − l(r2) = 2·(v1 − v3)(v2 − v4)": check_identity(gap(), 2 * shape, SIMPLEX_V, ctx.seed),
        "Lemma 10's g = l(r1) − l(r2)": check_identity(g10, gap(), SIMPLEX_V, ctx.seed + 1),
        "Lemma 11's g = (l(r1) − l(r2))/2": check_identity(g11, gap() / 2, SIMPLEX_V, ctx.seed + 2),
    }, method="r1–r2 logit gap:")


def amgm_increase(replacement=printed.AMGM_REPLACEMENT) -> sp.Expr:
    """(gap after the replacement) − (gap before), both from the model's logits."""
    return sub(gap(), replacement) - gap()


@CLAIMS.add("s41-amgm", location="Section 4.1, 'Second stage'", kind=Kind.IDENTITY, catalogue_id="ICR-S41-amgm",
            statement="Replacing v1, v2 by (v1 + v2)/2 and v3, v4 by (v3 + v4)/2 can only increase l(r1) − l(r2) or "
                      "leave it unchanged: DERIVED increase = (v1 − v2 − v3 + v4)²/2 ≥ 0")
def check_amgm(ctx, replacement=printed.AMGM_REPLACEMENT) -> Verdict:
    inc = amgm_increase(replacement)
    v1, v2, v3, v4 = V[:4]
    return combine({
        "increase = (v1 − v2 − v3 + v4)²/2": check_identity(inc, (v1 - v2 - v3 + v4)**2 / 2, SIMPLEX_V, ctx.seed),
        "increase ≥ 0 on the simplex": check_inequality(inc, ">=", sp.Integer(0), SIMPLEX_V, ctx.seed + 1),
    }, method="AM–GM pairing step:")


