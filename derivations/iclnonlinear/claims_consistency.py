"""Proof consistency (spec §2 (a)–(f)) of Lemmas 4, 5, 8, 9, 10, Theorems 1–2, Sec. 5.3 and App. F, and the
loss scale of the Sec. 6 prose against the analysed model (ICLN-E-lossscale).

Method ("exponent bookkeeping in SymPy", :mod:`.asymptotics`): every printed asymptotic form is an
:class:`~.asymptotics.Order` transcribed in :mod:`.printed_proofs` with its verbatim quote.  Each proof step is
re-derived by multiplying the premises *as the cited result states them* and compared with what the proof
writes, by explicit SymPy limits of the ratio (K → ∞, δ → 0, ε → 0 one at a time, and coupled paths such as
K = 2/ε or the sharp-regime threshold L = c/(Δδ)).  A premise is checked by asking whether the cited result,
as printed, implies the form in which the proof uses it.  Any failing step is a discrepancy; the verdict is
``refuted`` with the first decisive one as counterexample and every step in the details.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np
import sympy as sp

from theoryverify.claims import ClaimSet, Kind, Status
from theoryverify.findings import Finding
from theoryverify.scaling import check_rate
from theoryverify.verdicts import Verdict, combine, holds, proved, refuted

from . import printed_proofs as pp
from .asymptotics import (DEFAULT_DIRECTIONS, PARAMS, PATH_K_EPS, PATH_SHARP_DEEP, PATH_SHARP_EDGE, THETA, Delta, K,
                          L, O, Order, Path, a, c, delta, eps, eta, implies, t)
from .geometry import COS_READINGS, cosine_task, features, in_F, max_distance

CLAIMS = ClaimSet("iclnonlinear")
METHOD = "exponent bookkeeping in SymPy (explicit limits K→∞, δ→0, ε→0 and coupled paths)"


# ---- steps and verdicts ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One checked step of a proof: ``role`` is premise / algebra / statement / later use / hypothesis."""

    name: str
    location: str
    role: str
    ok: bool
    info: Mapping

    def summary(self) -> dict:
        return {"step": self.name, "location": self.location, "role": self.role, "consistent": self.ok, **self.info}


def compared(name: str, location: str, role: str, derived: Order, printed: Order,
             directions: Mapping | None = None, paths: Sequence[Path] = (),
             labels: tuple[str, str] = ("derived_from_premises", "printed"),
             exponent_params: Sequence = PARAMS) -> Step:
    """Does ``derived`` imply ``printed``?  (For a premise: does the cited result as stated imply the form used?)"""
    cmp = implies(derived, printed, directions, paths, exponent_params)
    mism = cmp.exponent_mismatch()
    info = {labels[0]: str(derived), labels[1]: str(printed),
            "limits of ratio": {k: v[0] for k, v in cmp.limits.items()}, "failing limits": list(cmp.failing)}
    for x, v in mism.items():
        info[f"exponent_of_{x}"] = {labels[0]: sp.sstr(v["derived"]), labels[1]: sp.sstr(v["stated"])}
    if derived.symbol != printed.symbol:
        info["symbols"] = {labels[0]: derived.symbol, labels[1]: printed.symbol}
    return Step(name, location, role, cmp.ok, info)


def premise(name: str, location: str, as_stated: Order, as_used: Order, **kw) -> Step:
    return compared(name, location, "premise", as_stated, as_used,
                    labels=("premise_as_stated", "premise_as_used"), **kw)


def text_step(name: str, location: str, role: str, ok: bool, **info) -> Step:
    """A non-asymptotic check (time window, regime, hypotheses), recorded as text."""
    return Step(name, location, role, ok, info)


def verdict_from_steps(steps: Sequence[Step], what: str, primary: str | None = None, **extra) -> Verdict:
    bad = [s for s in steps if not s.ok]
    details = {"steps": [s.summary() for s in steps], **extra}
    if not bad:
        return proved(METHOD, f"{what}: all {len(steps)} steps consistent", **details)
    first = next((s for s in bad if s.name == primary), bad[0])
    ce = {**first.summary(), "all discrepancies": [f"{s.name} ({s.location})" for s in bad]}
    return refuted(METHOD, f"{what}: {len(bad)} of {len(steps)} steps inconsistent; first: {first.name}", ce,
                   **details)


# ---- ICLN-L4-internal (claim 38) --------------------------------------------------------------------

def first_step_attention() -> dict:
    """Witness (derived): N → ∞, p_k = 1/K, orthonormal features, i.i.d. task values with variance σ² (= (LΔ)²
    for the spec's N(0, (LΔ)²) law).  Per query class the loss is ½ p_k σ²(Σ_m a_m² − 2a_k + 1) with
    a = softmax(log p + q_k·); by symmetry the row is (q_kk, q_km) = (x, y).  One GD step from q = 0 gives
    q^(1) = η·(−∂L/∂x, −∂L/∂y/(K−1)), and Attn_k^(1) = a_k(q^(1))."""
    x, y, s2 = sp.symbols("x y sigma2", real=True)
    ek, eo = sp.exp(x), sp.exp(y)
    ak, ao = ek / (ek + (K - 1) * eo), eo / (ek + (K - 1) * eo)
    loss_k = sp.Rational(1, 2) / K * s2 * (ak**2 + (K - 1) * ao**2 - 2 * ak + 1)
    gkk = sp.simplify(-sp.diff(loss_k, x).subs({x: 0, y: 0}))
    gkm = sp.simplify(-sp.diff(loss_k, y).subs({x: 0, y: 0}) / (K - 1))
    c1 = sp.Symbol("c1", positive=True)  # c1 := η σ² = η L²Δ²
    attn1 = sp.simplify(ak.subs({x: c1 / s2 * gkk, y: c1 / s2 * gkm}))
    lim = sp.limit(K * attn1, K, sp.oo)
    return {"g_kk^(0)": sp.sstr(gkk), "g_km^(0)": sp.sstr(gkm), "Attn_k^(1) (c1 = η L²Δ²)": sp.sstr(attn1),
            "lim_{K→∞} K·Attn_k^(1)": sp.sstr(lim), "value": lim}


def check_l4_internal(lemma3: pp.Printed = pp.LEMMA3_STATED, used: pp.Printed = pp.LEMMA4_PROOF_PREMISES,
                      witness: bool = True) -> Verdict:
    loc = used.location
    s3, u = lemma3.form, used.form
    L2D2 = THETA(L**2 * Delta**2)
    steps = [
        premise("p_k = Θ(1/K)", loc, pp.P_K.form["p_k"], u["p_k"]),
        premise("Attn_k^(t) = Θ(1) (cited from Lemma 3)", loc, s3["Attn_k"], u["Attn_k"]),
        premise("1 − Attn_k^(t) = Θ(1) (cited from Lemma 3)", loc, s3["1-Attn_k"], u["1-Attn_k"]),
        compared("g_k = p_k·Attn_k·(1 − Attn_k)²·Θ(L²Δ²), premises as used", pp.LEMMA4_PROOF_GK.location, "algebra",
                 u["p_k"] * u["Attn_k"] * u["1-Attn_k"] ** 2 * L2D2, pp.LEMMA4_PROOF_GK.form["g_k"]),
        compared("g_k from the premises as Lemma 3 states them vs Lemma 4's first bullet", pp.LEMMA4_STATED.location,
                 "statement", pp.P_K.form["p_k"] * s3["Attn_k"] * s3["1-Attn_k"] ** 2 * L2D2,
                 pp.LEMMA4_STATED.form["g_k"]),
        premise("Attn_n^(t) = Θ(1/K) (cross term, cited from Lemma 3)", pp.LEMMA4_PROOF_CROSS_PREMISES.location,
                s3["Attn_n"], pp.LEMMA4_PROOF_CROSS_PREMISES.form["Attn_n"]),
        premise("1 − Attn_n^(t) = Θ(1) (from Attn_n = Θ(1/K), K ≥ 2)", pp.LEMMA4_PROOF_CROSS_PREMISES.location,
                THETA(1 - 1 / (2 * K)), pp.LEMMA4_PROOF_CROSS_PREMISES.form["1-Attn_n"]),
        compared("|g_kn| ≤ p_k·Attn_n·(1 − Attn_k)(1 − Attn_n)·O(L²Δ²)", pp.LEMMA4_PROOF_CROSS_PREMISES.location,
                 "algebra", pp.P_K.form["p_k"] * s3["Attn_n"] * s3["1-Attn_k"] * THETA(1) * O(L**2 * Delta**2),
                 pp.LEMMA4_STATED.form["|g_kn|"]),
        compared("q_k(T_f^1+1) = η·T_f^1·Θ(L²Δ²/K) (Lemma 5 uses Lemma 4)", pp.LEMMA5_USES_LEMMA4.location,
                 "later use", THETA(eta) * pp.DURATIONS.form["T_f^1"] * pp.LEMMA4_STATED.form["g_k"],
                 pp.LEMMA5_USES_LEMMA4.form["q_k(T_f^1+1)"]),
        compared("q_km(T_f^1+1) ≤ η·T_f^1·O(L²Δ²/K²) (Lemma 5 uses Lemma 4)", pp.LEMMA5_USES_LEMMA4.location,
                 "later use", THETA(eta) * pp.DURATIONS.form["T_f^1"] * pp.LEMMA4_STATED.form["|g_kn|"],
                 pp.LEMMA5_USES_LEMMA4.form["q_km(T_f^1+1)"]),
    ]
    extra = {"quotes": {"Lemma 3": lemma3.quote, "Lemma 4 proof": used.quote, "Lemma 4": pp.LEMMA4_STATED.quote}}
    if witness:
        extra["witness (t = 1, inside {1..T_f^1})"] = first_step_attention()
    return verdict_from_steps(steps, "Lemma 4 proof (App. D.1)", primary="Attn_k^(t) = Θ(1) (cited from Lemma 3)",
                              **extra)


@CLAIMS.add("l4-internal", location="Lemma 4 proof, App. D.1", kind=Kind.IDENTITY, catalogue_id="ICLN-L4-internal",
            statement="Each premise the proof of Lemma 4 cites from Lemma 3 (p_k = Θ(1/K), Attn_k = Θ(1), "
                      "1 − Attn_k = Θ(1), Attn_n = Θ(1/K)) is what Lemma 3 states for t ∈ {1..T_f^1}, and each "
                      "step's algebra and the later uses in Lemma 5 are consistent",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="Lemma 4's proof uses Attn_k^(t) = Θ(1) 'by Lemma 3', but Lemma 3 gives only Ω(1/K), and at t = 1 "
                   "(N → ∞, iid tasks) Attn_k^(1) = 1/(1 + (K−1)e^{−ηL²Δ²/K²}), K·Attn_k^(1) → 1 for every η with "
                   "T_f^1 ≥ 1: g_k(1) = Θ(L²Δ²/K²), so Lemma 4's g_k = Θ(L²Δ²/K) on {1..T_f^1} is false",
            choices={"limits": "K → ∞, δ → 0, ε → 0 one at a time", "witness": "N → ∞, p uniform, orthonormal, iid "
                                                                            "tasks variance (LΔ)², one GD step"})
def l4_internal(ctx):
    return check_l4_internal()


# ---- ICLN-L5-uk (claim 42) ---------------------------------------------------------------------------

#: Kδ = c (N = C·K³ with δ = δ_min = √(20K/N) gives Kδ = √(20/C)), K → ∞
PATH_KDELTA = Path("Kδ = c (N = CK³, δ = δ_min), K → ∞", {K: 1 / t, delta: c * t}, 0)


def uk_quantities(p_k: sp.Expr) -> dict[str, sp.Expr]:
    """On E* (Eq. 9) |V_k| ∈ [(p_k − δ)N, (p_k + δ)N], u_k := K(p_k − δ) (Lemma 3 proof)."""
    u = K * (p_k - delta)
    return {"N/|V_k| lower": 1 / (p_k + delta), "N/|V_k| upper": 1 / (p_k - delta), "u_k": u,
            "1/u_k - 1/K": 1 / u - 1 / K}


def attention_bullet_steps(location: str, stated: pp.Printed, factor: Order) -> list[Step]:
    """Lemmas 8/10, 2nd–3rd bullets: Attn_k ≥ 1/(O(ε)·O(1/u_k − 1/K) + 1), 1 − Attn_k ≤ (…)/(… + 1) with
    1/u_k − 1/K = Θ(δ) as used, against 1/u_k − 1/K from Eq. 9 and u_k = K(p_k − δ) (p_k = 1/K)."""
    uk = THETA(uk_quantities(1 / K)["1/u_k - 1/K"])
    kw = dict(directions={delta: 0, eps: 0}, paths=(PATH_KDELTA,), exponent_params=(delta, eps))
    return [
        premise("1/u_k − 1/K = Θ(δ) (from Eq. 9; p_k = 1/K)", location, uk, THETA(delta), **kw),
        compared("1 − Attn_k ≤ O(ε)·O(1/u_k − 1/K) with 1/u_k − 1/K from Eq. 9 vs the bullet O(εδ)", location,
                 "statement", factor * uk.upper(), stated.form["1-Attn_k"], **kw),
    ]


def check_l5_uk(stated: pp.Printed = pp.LEMMA5_UK, u_def: pp.Printed = pp.LEMMA3_UK_DEFINITION,
                p_laws: Mapping[str, sp.Expr] | None = None) -> Verdict:
    p_laws = p_laws or {"p_k = 1/K": 1 / K, "p_k = a/K (general Θ(1/K))": a / K}
    dirs, paths = {delta: 0}, (PATH_KDELTA,)
    steps, exact = [], {}
    for law, p in p_laws.items():
        q = uk_quantities(p)
        exact[law] = {k: sp.sstr(sp.simplify(v)) for k, v in q.items()}
        exact[law]["lim δ→0 of 1/u_k − 1/K"] = sp.sstr(sp.limit(q["1/u_k - 1/K"], delta, 0, "+"))
        for side in ("lower", "upper"):
            steps.append(compared(f"N/|V_k| = Θ(1/δ) [{law}, {side} end of E*]", stated.location, "statement",
                                  THETA(q[f"N/|V_k| {side}"]), stated.form["N/|V_k|"], dirs, paths,
                                  labels=("derived", "printed"), exponent_params=(delta,)))
        steps.append(compared(f"1/u_k − 1/K = Θ(δ) [{law}]", stated.location, "statement",
                              THETA(q["1/u_k - 1/K"]), stated.form["1/u_k - 1/K"], dirs, paths,
                              labels=("derived", "printed"), exponent_params=(delta,)))
        steps.append(compared(f"u_k = Θ(1) [{law}]", u_def.location, "statement", THETA(q["u_k"]),
                              u_def.form["u_k"], dirs, paths, labels=("derived", "printed"), exponent_params=(delta,)))
    # an instance on the path N = 40K³, δ = δ_min (the spec's admissible path)
    inst = []
    for Kv in (4, 8, 16, 32, 64, 128):
        N = 40 * Kv**3
        dv = sp.sqrt(sp.Rational(20 * Kv, N))
        v = (1 / uk_quantities(sp.Rational(1, Kv))["u_k"] - sp.Rational(1, Kv)).subs({K: Kv, delta: dv})
        inst.append({"K": Kv, "N": N, "delta": float(dv), "1/u_k - 1/K": float(v), "ratio to delta": float(v / dv)})
    return verdict_from_steps(steps, "Lemma 5 proof: N/|V_k| and 1/u_k − 1/K on E*",
                              primary="1/u_k − 1/K = Θ(δ) [p_k = 1/K]", exact=exact, path_instances=inst,
                              reused_in=[f"{loc}: {q}" for loc, q in pp.UK_REUSES], quote=stated.quote)


@CLAIMS.add("l5-uk", location="Lemma 5 proof, App. D.1 (reused in Lemmas 6, 8, 10)", kind=Kind.IDENTITY,
            catalogue_id="ICLN-L5-uk",
            statement="With u_k = K(p_k − δ) and |V_k| ∈ [(p_k − δ)N, (p_k + δ)N]: N/|V_k| = Θ(1/δ) and "
                      "1/u_k − 1/K = Θ(δ) (as δ → 0 and as K grows), for p_k = 1/K and general p_k = Θ(1/K)",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="1/u_k − 1/K = 1/(Kp_k − Kδ) − 1/K → 1 − 1/K = Θ(1) as δ → 0 (δ-exponent 0, not 1) and N/|V_k| → "
                   "1/p_k = Θ(K), not Θ(1/δ); Lemmas 6, 8, 10 take 1 − Attn_k = O(δ), O(εδ) from this step, and Lemma 6's "
                   "O(δ) fails at the start of Phase II (l6: 1 − Ā(T1) = 1/2 while δ → 0)",
            choices={"limits": "δ → 0 at fixed K; path Kδ = c (N = CK³, δ = δ_min), K → ∞ (K → ∞ at fixed δ leaves "
                               "E*: u_k < 0 once Kδ > Kp_k)",
                     "p_k": "1/K and a/K with a = Θ(1) symbolic (sample a = 1, c = 1/2)"})
def l5_uk(ctx):
    return check_l5_uk()


# ---- ICLN-T1-proofstep (claim 52) --------------------------------------------------------------------

def check_t1_proofstep(lemma8: pp.Printed = pp.LEMMA8_STATED, printed: pp.Printed = pp.THM1_PROOFSTEP,
                       hypothesis: pp.Printed = pp.THM1_HYPOTHESIS) -> Verdict:
    loc, f = printed.location, printed.form
    one_minus = lemma8.form["1-Attn_k"]
    L_bound = hypothesis.form["L"]
    paths = (PATH_K_EPS, PATH_SHARP_EDGE)
    steps = [
        premise("(1 − Attn_k)² = O(ε²δ²) from Lemma 8 (third bullet)", loc, one_minus**2, f["(1-Attn_k)^2"],
                paths=paths),
        premise("L² = O(1/(Δ²δ²)) from L ≤ Θ(1/(Δδ))", loc, L_bound**2, f["L^2"], paths=paths),
        compared("L²Δ² = O(1/(Δ²δ²))·Δ² = O(1/δ²)", loc, "algebra", f["L^2"] * THETA(Delta**2), f["L^2 Delta^2"],
                 paths=paths),
        compared("O(ε²δ²)·O(1/δ²) = O(ε²) (the δ² cancels)", loc, "algebra",
                 one_minus**2 * (L_bound**2 * THETA(Delta**2)), f["loss"], paths=paths),
        text_step("½Σ_k E[1{x_q = v_k}(…)²Θ(L²Δ²)] = E[(…)²Θ(L²Δ²)]", loc, "algebra", True,
                  note="Σ_k P(x_q = v_k)·E[·|x_q = v_k] = E[·]; the ½ is absorbed in Θ"),
    ]
    corrected = (O(eps) ** 2) * (L_bound**2 * THETA(Delta**2))
    status = {
        "(1 − Attn_k) = O(εδ)": "as Lemma 8 states it (bullet 3); Lemma 8's proof obtains the δ from "
                                "1/u_k − 1/K = Θ(δ), refuted in iclnonlinear.l5-uk (it is Θ(1)); with that the same "
                                "proof gives only 1 − Attn_k = O(ε), and the step yields "
                                f"{corrected} — the δ² no longer cancels (ICLN-L8-attn, ICLN-P3-end measure it)",
        "Θ(L²Δ²) factor of the loss": "only its O side is used here (ICLN-L1-upper); its Θ lower side is "
                                      "ICLN-L1-theta-lower",
        "time index": "Lemma 8 is at t = T_f^*+1 while Theorem 1 says 'with at most T_f^* iterations' (one step "
                      "apart; immaterial asymptotically)",
    }
    return verdict_from_steps(steps, "Theorem 1 proof, last equality (App. D.3)", premise_status=status,
                              quote=printed.quote)


@CLAIMS.add("t1-proofstep", location="Theorem 1 proof, App. D.3", kind=Kind.IDENTITY,
            catalogue_id="ICLN-T1-proofstep",
            statement="(1 − Attn_k)² = O(ε²δ²) and L²Δ² = O(1/(Δ²δ²))·Δ² = O(1/δ²) under L ≤ Θ(1/(Δδ)) give "
                      "loss = O(ε²) (the algebra of the step given its cited premises)",
            choices={"limits": "K → ∞, δ → 0, ε → 0; paths K = 2/ε and L = c/(Δδ), δ → 0",
                     "scope": "the algebra only; premise status in the details (l5-uk, lemma1-upper)"})
def t1_proofstep(ctx):
    return check_t1_proofstep()


# ---- ICLN-T2-proofstep (claim 64) --------------------------------------------------------------------

def check_t2_proofstep(lemma10: pp.Printed = pp.LEMMA10_STATED, printed: pp.Printed = pp.THM2_PROOFSTEP,
                       loss_factor: pp.Printed = pp.LOSS_DISPLAY) -> Verdict:
    loc = printed.location
    one_minus = lemma10.form["1-Attn_k"]
    sharp = (PATH_SHARP_DEEP, PATH_SHARP_EDGE, PATH_K_EPS)
    product = one_minus**2 * loss_factor.form["factor"].upper()
    steps = [
        premise("(1 − Attn_k)² = O(ε²δ²) from Lemma 10 (third bullet)", loc, one_minus**2, O(eps**2 * delta**2)),
        compared("E[(1 − Attn_k)²Θ(L²Δ²)] = O(ε²δ²)", loc, "algebra", product, printed.form["loss step"], paths=sharp),
        compared("O(ε²δ²) ⇒ O(ε²) ('either δ = o(1) or ε = o(1)'; holds since δ < p_k ≤ 1)", loc, "algebra",
                 printed.form["loss step"], printed.form["loss"], paths=sharp),
        compared("loss at T_s^* from the premises vs Theorem 2's O(ε²), sharp regime", loc, "statement", product,
                 printed.form["loss"], paths=sharp),
    ]
    inst = {"delta": 0.1, "Delta": 3.0, "L": 10 / (3.0 * 0.1), "eps": 0.1}
    inst["derived/printed = L²Δ²"] = inst["L"] ** 2 * inst["Delta"] ** 2
    return verdict_from_steps(steps, "Theorem 2 proof (App. E.2)", primary="E[(1 − Attn_k)²Θ(L²Δ²)] = O(ε²δ²)",
                              instance_10x_threshold=inst, hypothesis=pp.THM2_HYPOTHESIS.quote, quote=printed.quote,
                              premise_status="1 − Attn_k = O(εδ) is Lemma 10 as stated; its proof takes the δ from "
                                             "1/u_k − 1/K = Θ(δ) (refuted: iclnonlinear.l5-uk)")


@CLAIMS.add("t2-proofstep", location="Theorem 2 proof, App. E.2", kind=Kind.IDENTITY,
            catalogue_id="ICLN-T2-proofstep",
            statement="E[(1 − Attn_k^(T_s^*))²Θ(L²Δ²)] = O(ε²δ²) given 1 − Attn_k = O(εδ) (Lemma 10), hence O(ε²), "
                      "in the sharp regime L = Ω(1/(Δδ))",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="App. E.2 drops the Θ(L²Δ²) factor: O(ε²δ²)·Θ(L²Δ²) = O(ε²·δ²L²Δ²), unbounded in the sharp regime "
                   "L = Ω(1/(Δδ)) (T_s^*'s log(KLΔ) shows L is not capped), so Thm 2's O(ε²) follows only at "
                   "L = Θ(1/(Δδ)); L = 10/(Δδ) makes it 100× larger — the L² growth t2-full measures",
            choices={"limits": "L → ∞ at fixed δ, Δ; L = c/(Δδ), δ → 0; K = 2/ε"})
def t2_proofstep(ctx):
    return check_t2_proofstep()


# ---- ICLN-S53-rate, SYM half (claim 54) -------------------------------------------------------------

def check_s53_rate(sec53: pp.Printed = pp.SEC53_RATE, lemma4: pp.Printed = pp.LEMMA4_STATED,
                   lemma7: pp.Printed = pp.LEMMA7_STATED, lemma8_gain: Order | None = None) -> Verdict:
    loc = sec53.location
    sharp = (PATH_SHARP_DEEP, PATH_SHARP_EDGE)
    dirs: dict = {}
    rate = sec53.form["rate"]
    T = sec53.form["T_s^1"]
    gain_needed = lemma8_gain or pp.LEMMA8_PROOF_QK.form["q_k intermediate"]
    steps = [
        compared("Phase I (t ≤ T_f^1): η·g_k from Lemma 4 vs Θ(η/K)", loc, "statement",
                 THETA(eta) * lemma4.form["g_k"], rate, dirs, sharp, labels=("rate_from_lemma", "rate_stated")),
        compared("Phase II (T_f^1 < t ≤ T_f^*): η·g_k from Lemma 7 vs Θ(η/K)", loc, "statement",
                 THETA(eta) * lemma7.form["g_k"], rate, dirs, sharp, labels=("rate_from_lemma", "rate_stated")),
        compared("q_k gained by t = T_s^1 = T_f^* at rate Θ(η/K) vs the gain Θ(log(Kε⁻¹)) Phase II needs "
                 "(Lemma 8 proof)", loc, "statement", rate * T, gain_needed, dirs, sharp,
                 labels=("gain_at_stated_rate", "gain_needed")),
    ]
    inst = {"delta": 0.1, "Delta": 3.0, "L (10× threshold 1/(Δδ))": 10 / 0.3}
    inst["Lemma 4 rate / stated = L²Δ²"] = (10 / 0.3) ** 2 * 9.0
    inst["Lemma 7 rate / stated = δ²L²Δ²"] = 0.01 * (10 / 0.3) ** 2 * 9.0
    return verdict_from_steps(steps, "Sec. 5.3 sharp-regime rate Θ(η/K) for t ≤ T_f^*", primary=steps[0].name,
                              instance=inst, quote=sec53.quote,
                              lemma_quotes={"Lemma 4": lemma4.quote, "Lemma 7": lemma7.quote})


@CLAIMS.add("s53-rate-sym", location="Sec. 5.3", kind=Kind.IDENTITY, catalogue_id="ICLN-S53-rate",
            statement="In the sharp regime L = Ω(1/(Δδ)), 'q_k increases at a rate of Θ(η/K) for all t ≤ T_f^*' is "
                      "consistent with Lemma 4 (ηΘ(L²Δ²/K)), Lemma 7 (ηΘ(δ²L²Δ²/K)) and T_s^1 = T_f^*",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="Sec. 5.3's rate Θ(η/K) contradicts the lemmas it invokes: Lemma 4's Phase-I rate ηL²Δ²/K is "
                   "L²Δ² ≥ c/δ² times it (also on the threshold path L = c/(Δδ)) and Lemma 7's δ²L²Δ² (unbounded) times "
                   "it; measured K·g_k ∝ L² (s53-rate)",
            choices={"limits": "L → ∞ at fixed δ, Δ; threshold path L = c/(Δδ), δ → 0"})
def s53_rate_sym(ctx):
    return check_s53_rate()


# ---- ICLN-L8-qk, SYM half (claim 49) ----------------------------------------------------------------

def check_l8_qk(stated: pp.Printed = pp.LEMMA8_STATED, proof: pp.Printed = pp.LEMMA8_PROOF_QK,
                lemma7: pp.Printed = pp.LEMMA7_STATED, lemma5_qk: Order = THETA(sp.log(K))) -> Verdict:
    loc = proof.location
    paths = (PATH_K_EPS,)
    Tf1, Tfs = pp.DURATIONS.form["T_f^1"], pp.DURATIONS.form["T_f^*"]
    gain = THETA(eta) * lemma7.form["g_k"] * Tfs        # T_f^* − T_f^1 = Θ(T_f^*): T_f^1/T_f^* ≤ δ² < 1
    steps = [
        text_step("T_f^* − T_f^1 = Θ(T_f^*)", loc, "algebra", True,
                  ratio=sp.sstr(sp.simplify(Tf1.magnitude / Tfs.magnitude)),
                  note="T_f^1/T_f^* = δ² log K / log(K/ε) ≤ δ² < 1"),
        compared("q_k(T_f^1) + η·Θ(δ²L²Δ²/K)·(T_f^* − T_f^1) = Θ(log(Kε⁻¹))", loc, "algebra", lemma5_qk + gain,
                 proof.form["q_k intermediate"], paths=paths),
        compared("Θ(log(Kε⁻¹)) = Θ(log K/ε) (last equality of the proof)", loc, "algebra",
                 proof.form["q_k intermediate"], proof.form["q_k final"], paths=paths),
        compared("proof's Θ(log(Kε⁻¹)) vs Lemma 8's first bullet Θ(log K/ε)", stated.location, "statement",
                 proof.form["q_k intermediate"], stated.form["q_k"], paths=paths),
        compared("q_km ≤ |q_km(T_f^1)| + η·O(δ²L²Δ²/K²)·(T_f^* − T_f^1) = Θ(log(Kε⁻¹)/K)", loc, "algebra",
                 O(sp.log(K) / K) + THETA(eta) * lemma7.form["|g_kn|"] * Tfs, pp.LEMMA8_PROOF_QKM.form["q_km"],
                 paths=paths),
        premise("exp(q_km − q_k) ≤ O(1/K) used as O(ε/K) in Attn_k ≥ 1/(O(ε)·O(1/u_k − 1/K) + 1)",
                pp.LEMMA8_PROOF_EXP.location, pp.LEMMA8_PROOF_EXP.form["exp(q_km - q_k)"], O(eps / K), paths=paths),
        *attention_bullet_steps(loc, stated, O(eps)),
    ]
    return verdict_from_steps(steps, "Lemma 8 first bullet and its proof (App. D.2)",
                              primary="proof's Θ(log(Kε⁻¹)) vs Lemma 8's first bullet Θ(log K/ε)",
                              quotes={"Lemma 8": stated.quote, "proof": proof.quote,
                                      "cross term": pp.LEMMA8_PROOF_QKM.quote, "exp": pp.LEMMA8_PROOF_EXP.quote},
                              note="the 'used as O(ε/K)' step: Σ_{m≠k}(|V_m|/|V_k|)e^{q_km − q_k} ≤ (K/u_k − 1)·X "
                                   "equals O(ε)·(1/u_k − 1/K) only if X = O(ε/K)")


@CLAIMS.add("l8-qk-sym", location="Lemma 8 (first bullet) and proof, App. D.2", kind=Kind.IDENTITY,
            catalogue_id="ICLN-L8-qk",
            statement="Lemma 8's q_k^(T_f^*+1) = Θ(log K/ε) is what its proof derives from Lemma 7 and T_f^*, and "
                      "every step of the proof is consistent (spec §2)",
            expect=Status.REFUTED, finding=Finding.TYPO,
            reason="Lemma 8 prints q_k = Θ(log K/ε) where its proof derives Θ(log(Kε⁻¹)) (1/ε apart as ε → 0) and every "
                   "later use (exp(q_km − q_k) = O(ε/K); Lemma 10's start) needs log(K/ε): a slip log(K/ε) → (log K)/ε, "
                   "with O/Θ slips for q_km; the step 1/u_k − 1/K = Θ(δ) behind its last bullet is counted in l5-uk",
            choices={"limits": "K → ∞, δ → 0, ε → 0; path K = 2/ε"})
def l8_qk_sym(ctx):
    return check_l8_qk()


# ---- ICLN-L9-gk, SYM half (claim 60) ----------------------------------------------------------------

def check_l9_gk(stated: pp.Printed = pp.LEMMA9_STATED, premises: pp.Printed = pp.LEMMA9_PROOF_PREMISES,
                proof: pp.Printed = pp.LEMMA9_PROOF_GK, cross: pp.Printed = pp.LEMMA9_PROOF_CROSS) -> Verdict:
    loc = proof.location
    paths = (PATH_K_EPS, PATH_SHARP_DEEP)
    u, cu = premises.form, cross.form
    L2D2 = THETA(L**2 * Delta**2)
    derived_gk = u["p_k"] * u["Attn_k"] * u["1-Attn_k"] ** 2 * L2D2
    later_gain = THETA(eta) * stated.form["g_k"] * pp.DURATIONS.form["T_s^*"]
    steps = [
        premise("1 − Attn_k = O(εδ) (cited from Lemma 8)", premises.location, pp.LEMMA8_STATED.form["1-Attn_k"],
                u["1-Attn_k"], paths=paths),
        text_step("Lemma 8's window and regime vs Lemma 9's", premises.location, "hypothesis", False,
                  premise_as_stated="Lemma 8: flat L-regime, the single time t = T_f^*+1",
                  premise_as_used="every t ∈ {T_f^*+1, …, T_s^*} in the sharp regime L = Ω(1/(Δδ))"),
        compared("g_k = p_k·Θ(1)·O(εδ)²·Θ(L²Δ²)", loc, "algebra", derived_gk, proof.form["g_k"], paths=paths),
        compared("proof's g_k vs Lemma 9's first bullet Θ(δ²L²Δ²ε/K)", stated.location, "statement",
                 proof.form["g_k"], stated.form["g_k"], paths=paths),
        compared("Σ_{n≠k}Attn_n = (K−1)·Θ(δ/K) vs 1 − Attn_k = O(εδ) (premises of the same proof)", cross.location,
                 "premise", cu["Attn_n"] * (K - 1), cu["1-Attn_k"], paths=paths,
                 labels=("premise_as_stated", "premise_as_used")),
        compared("|g_kn| ≤ p_k·Θ(δ/K)·O(εδ)·Θ(1)·Θ(L²Δ²)", cross.location, "algebra",
                 pp.P_K.form["p_k"] * cu["Attn_n"] * cu["1-Attn_k"] * cu["1-Attn_n"] * L2D2,
                 stated.form["|g_kn|"], paths=paths),
        compared("Lemma 10 uses Lemma 9's g_k: η·Θ(δ²L²Δ²ε/K)·T_s^* = Θ(log(KLΔε⁻¹))", pp.LEMMA10_PROOF_QK.location,
                 "later use", later_gain, pp.LEMMA10_PROOF_QK.form["q_k intermediate"], paths=paths),
    ]
    return verdict_from_steps(steps, "Lemma 9 and its proof (App. E.1)",
                              primary="proof's g_k vs Lemma 9's first bullet Θ(δ²L²Δ²ε/K)",
                              quotes={"Lemma 9": stated.quote, "proof": proof.quote, "cross": cross.quote,
                                      "premises": premises.quote},
                              consequence=f"with the derived O(δ²L²Δ²ε²/K), Lemma 10's gain over T_s^* is "
                                          f"{THETA(eta) * O(delta**2 * L**2 * Delta**2 * eps**2 / K) * pp.DURATIONS.form['T_s^*']}"
                                          f", i.e. ε·log(KLΔ/ε) → 0, not Θ(log(KLΔε⁻¹))")


@CLAIMS.add("l9-gk-sym", location="Lemma 9 and proof, App. E.1", kind=Kind.IDENTITY, catalogue_id="ICLN-L9-gk",
            statement="Lemma 9's g_k = Θ(δ²L²Δ²ε/K) and |g_kn| = O(δ²L²Δ²ε/K²) follow from the premises its proof "
                      "cites (Lemma 8), for the window and regime stated, and match later uses (spec §2)",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP, supports=("iclnonlinear.l9-gk", "iclnonlinear.l9-gk-full"),
            reason="Lemma 9's proof does not establish its statement: from 1 − Attn_k = O(εδ) it gets g_k = "
                   "Θ(δ²L²Δ²ε²/K) (ε², and only an O bound) while the lemma (and Lemma 10, Prop. 4) need Θ(δ²L²Δ²ε/K); "
                   "it cites flat-regime Lemma 8 (single time T_f^*+1) for the whole sharp window, and its premise "
                   "Attn_n = Θ(δ/K) contradicts 1 − Attn_k = O(εδ)",
            choices={"limits": "K → ∞, δ → 0, ε → 0; paths K = 2/ε and L → ∞"})
def l9_gk_sym(ctx):
    return check_l9_gk()


# ---- ICLN-L10-qk, SYM half (claim 61) ---------------------------------------------------------------

def check_l10_qk(stated: pp.Printed = pp.LEMMA10_STATED, proof: pp.Printed = pp.LEMMA10_PROOF_QK,
                 lemma9: pp.Printed = pp.LEMMA9_STATED) -> Verdict:
    loc = proof.location
    paths = (PATH_K_EPS, PATH_SHARP_DEEP)
    Tfs, Tss = pp.DURATIONS.form["T_f^*"], pp.DURATIONS.form["T_s^*"]
    gain = THETA(eta) * lemma9.form["g_k"] * Tss
    steps = [
        compared("T_s^* − T_f^* = Θ(T_s^*): T_s^* + T_f^* is of the order of T_s^* (T_f^*/T_s^* → 0 or ≤ ε)", loc,
                 "algebra", Tss, Tss + Tfs, paths=paths),
        compared("parenthetical T_s^* − T_f^* = Θ(K log(KLΔε⁻¹)/(L²Δ²δ²ε)) vs Θ(T_s^*)", loc, "algebra", Tss,
                 proof.form["T_s^* - T_f^*"], {**DEFAULT_DIRECTIONS, eta: 0}, paths),
        compared("q_k(T_f^*) [as Lemma 8's proof derives it, Θ(log(Kε⁻¹))] + η·Θ(δ²L²Δ²ε/K)·(T_s^* − T_f^*) "
                 "= Θ(log(KLΔε⁻¹))", loc, "algebra", pp.LEMMA8_PROOF_QK.form["q_k intermediate"] + gain,
                 proof.form["q_k intermediate"], paths=paths),
        compared("q_k(T_f^*) [as Lemma 8 states it, Θ(log K/ε)] + η·Θ(δ²L²Δ²ε/K)·(T_s^* − T_f^*) "
                 "= Θ(log(KLΔε⁻¹))", loc, "premise", pp.LEMMA8_STATED.form["q_k"] + gain,
                 proof.form["q_k intermediate"], paths=paths),
        compared("proof's Θ(log(KLΔε⁻¹)) vs Lemma 10's first bullet Θ(log(KLΔ)/ε)", stated.location, "statement",
                 proof.form["q_k intermediate"], stated.form["q_k"], paths=paths),
        compared("q_km ≤ |q_km(T_f^*)| + η·O(δ²L²Δ²ε/K²)·(T_s^* − T_f^*) = Θ(log(KLΔε⁻¹)/K)",
                 pp.LEMMA10_PROOF_QKM.location, "algebra",
                 O(sp.log(K / eps) / K) + THETA(eta) * lemma9.form["|g_kn|"] * Tss,
                 pp.LEMMA10_PROOF_QKM.form["q_km"], paths=paths),
        *attention_bullet_steps(loc, stated, O(eps)),
    ]
    return verdict_from_steps(steps, "Lemma 10 first bullet and its proof (App. E.1)",
                              primary="proof's Θ(log(KLΔε⁻¹)) vs Lemma 10's first bullet Θ(log(KLΔ)/ε)",
                              quotes={"Lemma 10": stated.quote, "proof": proof.quote,
                                      "cross term": pp.LEMMA10_PROOF_QKM.quote},
                              note="Lemma 10 is at t = T_s^* while Prop. 4 states the end point t = T_s^*+1")


@CLAIMS.add("l10-qk-sym", location="Lemma 10 (first bullet) and proof, App. E.1", kind=Kind.IDENTITY,
            catalogue_id="ICLN-L10-qk",
            statement="Lemma 10's q_k^(T_s^*) = Θ(log(KLΔ)/ε) is what its proof derives from Lemma 9 and T_s^*, and "
                      "every step of the proof is consistent (spec §2)",
            expect=Status.REFUTED, finding=Finding.TYPO,
            reason="Lemma 10 prints q_k = Θ(log(KLΔ)/ε) where its proof derives Θ(log(KLΔε⁻¹)) (the same slip "
                   "log(X/ε) → (log X)/ε as Lemma 8; nothing later uses this bullet); the parenthetical T_s^* − T_f^* "
                   "drops T_s^*'s 1/η and q_km's O becomes Θ; the step 1/u_k − 1/K = Θ(δ) behind the last bullets is "
                   "counted in l5-uk",
            choices={"limits": "K → ∞, δ → 0, ε → 0 (and η → 0 for the parenthetical); paths K = 2/ε, L → ∞"})
def l10_qk_sym(ctx):
    return check_l10_qk()


# ---- ICLN-F-Lbound (claim 70) -------------------------------------------------------------------------

F_DELTAS = np.geomspace(0.5, 16.0, 8)  # covers the default Δ range [0.5, 5] and spans 1.5 decades


def lbound_ratio(A: np.ndarray, f: np.ndarray, k: int, L_: float) -> float:
    """|Σ_{n≠k} Attn_n (f_n − f_k)| / (L·Σ_{n≠k} Attn_n) — App. F's left side over its right side with Θ(L) = L."""
    off = np.arange(len(f)) != k
    return float(abs(A[off] @ (f[off] - f[k])) / (L_ * A[off].sum()))


def lbound_symbolic(printed_exponent: int) -> Verdict:
    """Scaled orthogonal V = (Δ/√2)I, f = LΔ·(0, 1, …, 1) ∈ F (c_nd = 1), k = 1: the ratio is exactly Δ for
    every attention vector, so Δ → aΔ multiplies it by a (exponent 1); L cancels (exponent 0)."""
    A = sp.symbols("A2:5", positive=True)
    s = sp.Symbol("s", positive=True)
    ratio = sp.Abs(sum(Ai * (L * Delta * 1 - 0) for Ai in A)) / (L * sum(A))
    ratio = sp.simplify(ratio)
    scale = sp.simplify(ratio.subs(Delta, s * Delta) / ratio)
    d_exp = sp.simplify(Delta * sp.diff(sp.log(ratio), Delta))
    l_exp = sp.simplify(L * sp.diff(sp.log(ratio), L))
    info = {"ratio (K = 4, any attention)": sp.sstr(ratio), "ratio(sΔ)/ratio(Δ)": sp.sstr(scale),
            "Delta_exponent_derived": sp.sstr(d_exp), "Delta_exponent_printed": printed_exponent,
            "L_exponent_derived": sp.sstr(l_exp), "App. B (same quantity)": pp.APPB_BOUND.quote}
    if d_exp == printed_exponent:
        return proved("SymPy scaling (Δ → sΔ at fixed L, f = LΔ·u ∈ F)", "Δ-exponent matches", **info)
    return refuted("SymPy scaling (Δ → sΔ at fixed L, f = LΔ·u ∈ F)",
                   f"LHS/(L·ΣAttn_n) scales as Δ^{d_exp}, the printed Θ(L) as Δ^{printed_exponent}",
                   {"step": "App. F: ≤ Θ(L)·Σ_{n≠k}Attn_n", **info})


def lbound_sweep(seed: int, printed_exponent: int, draws: int = 120) -> Verdict:
    """Sup over admissible draws of LHS/(L·ΣAttn_n) at each Δ (scaled orthogonal features, L = 1 nominal, tasks
    iid-uniform U[−LΔ/2, LΔ/2] and cos-projection filtered by in_F(c_nd = 0.5), Dirichlet attention) plus the
    witness family f = LΔ(0, 1, …, 1); also checks the derived bound ratio ≤ Δ_max on every draw."""
    rng = np.random.default_rng(seed)
    L_ = 1.0
    sups, worst_rel, n_ok = [], 0.0, 0
    for D in F_DELTAS:
        best = 0.0
        for _ in range(draws):
            Kv = int(rng.integers(2, 9))
            V = features("scaled_orthogonal", Kv, Kv, D, rng)
            f = (rng.uniform(-L_ * D / 2, L_ * D / 2, Kv) if rng.random() < 0.5
                 else cosine_task(V, L_, 0.5, "projection", rng))
            if not in_F(f, V, L_, 0.5):
                continue
            n_ok += 1
            A = rng.dirichlet(np.ones(Kv))
            k = int(rng.integers(Kv))
            r = lbound_ratio(A, f, k, L_)
            best = max(best, r)
            worst_rel = max(worst_rel, r / max_distance(V))
        Kw = 4
        Vw = features("scaled_orthogonal", Kw, Kw, D, rng)
        fw = L_ * D * np.r_[0.0, np.ones(Kw - 1)]
        assert in_F(fw, Vw, L_, 1.0)
        best = max(best, lbound_ratio(rng.dirichlet(np.ones(Kw)), fw, 0, L_))
        sups.append(best)
    bound = (holds("float64 draws", f"ratio ≤ Δ_max on all {n_ok} admissible draws (max ratio/Δ_max = "
                                    f"{worst_rel:.6g})", draws=n_ok, max_ratio_over_Delta_max=worst_rel)
             if worst_rel <= 1 + 1e-12 else
             refuted("float64 draws", f"ratio/Δ_max = {worst_rel:.6g} > 1", {"max ratio/Delta_max": worst_rel}))
    rate = check_rate(F_DELTAS, np.array(sups), float(printed_exponent), 0.15, seed, param="Delta",
                      what="sup LHS/(L·ΣAttn_n)", max_spread=10.0)
    return combine({"derived bound LHS ≤ L·Δ_max·ΣAttn_n": bound, "Δ-exponent of the sup vs printed": rate})


def check_f_lbound(seed: int, printed_exponent: int = pp.APPF_DELTA_EXPONENT) -> Verdict:
    return combine({"symbolic scaling": lbound_symbolic(printed_exponent),
                    "numeric sweep": lbound_sweep(seed, printed_exponent)}, method="symbolic + numeric:")


@CLAIMS.add("f-lbound", location="App. F, 2nd display (last inequality)", kind=Kind.INEQUALITY,
            catalogue_id="ICLN-F-Lbound",
            statement="|Σ_{n≠k} Attn_n (f(v_n) − f(v_k))| ≤ Θ(L)·Σ_{n≠k} Attn_n for f in F (Eq. 4): the constant "
                      "does not scale with the feature separation Δ at fixed L",
            expect=Status.REFUTED, finding=Finding.TYPO,
            reason="App. F writes Θ(L) where Eq. 4 gives L‖v_n − v_k‖ ≤ LΔ_max (App. B writes the same bound as "
                   "O(LΔ)): f = LΔ(0,1,…,1) ∈ F makes the ratio exactly Δ (Δ-exponent 1); under Δ = Θ(1) and for "
                   "Prop. 1's O((1 − Attn_k)²) conclusion (prop1-pred holds) nothing changes",
            choices={"Δ grid": "geomspace(0.5, 16, 8) (default range 0.5–5, 1.5 decades)", "Θ(L)": "1·L",
                     "features": "scaled orthogonal v_k = (Δ/√2)e_k, K ∈ [2, 8]",
                     "tasks": "iid-uniform U[−LΔ/2, LΔ/2] and cos-projection (c = 0.5), in_F with c_nd = 0.5, "
                              "+ witness f = LΔ(0,1,…,1) (c_nd = 1)"})
def f_lbound(ctx):
    return check_f_lbound(ctx.seed)


# ---- ICLN-E-lossscale (claim 77) ---------------------------------------------------------------------

LOSS_GEOMETRIES = ("scaled_orthogonal", "general")
MC_DRAWS = 4000
PROSE_TOLERANCE = 0.3  # spec §4.1: ±30% on loss values read off the authors' plots


def sq_error(V: np.ndarray, Q: np.ndarray, classes: np.ndarray, kq: int, f: np.ndarray) -> float:
    """(ŷ − f(v_kq))² of the analysed model (Eq. 6): ŷ = Σ_i softmax_i(x_iᵀ Q x_q) y_i over the N prompt tokens."""
    logits = V[:, classes].T @ Q @ V[:, kq]
    w = np.exp(logits - logits.max())
    return float((w @ f[classes] / w.sum() - f[kq]) ** 2)


def tight_bound(f: np.ndarray, k: int) -> float:
    """Derived: ŷ is a convex combination of task values, so (ŷ − f_k)² ≤ max_m (f_m − f_k)² for every Q and
    prompt (attained as Q focuses the query on the farthest value's class)."""
    return float(np.max((f - f[k]) ** 2))


def focusing_Q(V: np.ndarray, kq: int, m: int, s: float = 60.0) -> np.ndarray:
    """Q with logits x_iᵀQv_kq = s·1{x_i = v_m} (dual basis W = V(VᵀV)⁻¹; needs independent features)."""
    W = V @ np.linalg.inv(V.T @ V)
    return s * np.outer(W[:, m], W[:, kq])


def loss_configs(seed: int, n: int = 80, L_values=(0.1, 1.0)):
    """Sec. 6 setting (d = 15, K = 4, N = 100, Δ = 3, c = 0.5), each cos reading and geometry: random Q (scale
    up to 30/‖v‖²) and the focusing Q that puts the query on the farthest-valued class present."""
    rng = np.random.default_rng(seed)
    d, Kv, N, D = pp.SEC6["d"], pp.SEC6["K"], pp.SEC6["N"], pp.SEC6["Delta"]
    for i in range(n):
        geom = LOSS_GEOMETRIES[i % 2]
        reading = tuple(COS_READINGS)[(i // 2) % len(COS_READINGS)]
        L_ = L_values[(i // 4) % len(L_values)]
        V = features(geom, d, Kv, D, rng)
        f = cosine_task(V, L_, pp.SEC6["c"], reading, rng)
        classes = rng.integers(0, Kv, size=int(rng.integers(1, N + 1)))
        kq = int(rng.integers(Kv))
        present = np.unique(classes)
        m = int(present[np.argmax((f[present] - f[kq]) ** 2)])
        Q = (focusing_Q(V, kq, m) if i % 3 == 0
             else rng.uniform(0, 30) / np.mean(np.sum(V**2, axis=0)) * rng.standard_normal((d, d)))
        yield dict(geometry=geom, reading=reading, L=L_, V=V, f=f, classes=classes, kq=kq, Q=Q, seed=seed, index=i)


def check_loss_bound(bound: Callable[[np.ndarray, int], float], configs) -> Verdict:
    """(ŷ − f_k)² ≤ bound(f, k) on every configuration (float64, slack 1e-12·max f²)."""
    worst, count = None, 0
    for x in configs:
        err = sq_error(x["V"], x["Q"], x["classes"], x["kq"], x["f"])
        b = bound(x["f"], x["kq"])
        slack = b + 1e-12 * max(float(np.max(x["f"] ** 2)), 1e-300) - err
        count += 1
        if worst is None or slack < worst[0]:
            worst = (slack, err, b, x)
    slack, err, b, x = worst
    ce = {"geometry": x["geometry"], "reading": x["reading"], "L": x["L"], "N": len(x["classes"]),
          "query class": x["kq"] + 1, "f(v_1..v_K)": x["f"].tolist(), "config index": x["index"], "seed": x["seed"],
          "squared error": err, "bound": b, "Q": x["Q"].tolist(), "classes": (x["classes"] + 1).tolist()}
    if slack < 0:
        return refuted("float64, Sec. 6 configurations (random + focusing Q)",
                       f"(ŷ − f_k)² = {err:.6g} > bound {b:.6g}", ce)
    return holds(f"float64, {count} configurations (random + focusing Q)",
                 f"(ŷ − f_k)² ≤ max_m (f_m − f_k)² on all {count}; tightest slack {slack:.3g}",
                 configurations=count, tightest={"squared error": err, "bound": b})


def mc_bounds(seed: int, L_: float, draws: int = MC_DRAWS) -> dict:
    """Monte Carlo over the task law (one V per geometry) of E_{f,k}[max_m (f_m − f_k)²] (the loss bound without
    Eq. 7's ½), E_f[(max f − min f)²] and the Q = 0 loss E[(ȳ − f_k)²] (N = 100 tokens), per reading × geometry."""
    rng = np.random.default_rng(seed)
    out = {}
    d, Kv, N, D, c_ = pp.SEC6["d"], pp.SEC6["K"], pp.SEC6["N"], pp.SEC6["Delta"], pp.SEC6["c"]
    for geom in LOSS_GEOMETRIES:
        V = features(geom, d, Kv, D, rng)
        for reading in COS_READINGS:
            F = np.stack([cosine_task(V, L_, c_, reading, rng) for _ in range(draws)])
            k = rng.integers(0, Kv, size=draws)
            fk = F[np.arange(draws), k]
            tight = np.max((F - fk[:, None]) ** 2, axis=1)
            counts_ = rng.multinomial(N, np.full(Kv, 1.0 / Kv), size=draws)
            y0 = (counts_ * F).sum(axis=1) / N
            out[f"{reading}/{geom}"] = {"E max_m (f_m − f_k)² (no ½)": float(tight.mean()),
                                        "MC std error": float(tight.std() / np.sqrt(draws)),
                                        "E (max f − min f)²": float((F.max(1) - F.min(1)).__pow__(2).mean()),
                                        "Q = 0 squared error (no ½)": float(((y0 - fk) ** 2).mean())}
    return out


def check_loss_scale(seed: int, prose: Mapping[float, tuple] | None = None,
                     bound: Callable[[np.ndarray, int], float] = tight_bound, draws: int = MC_DRAWS) -> Verdict:
    prose = prose or pp.SEC6_LOSS_VALUES
    c_ = pp.SEC6["c"]
    valid = check_loss_bound(bound, loss_configs(seed))
    if valid.status is not Status.HOLDS:
        return valid
    table, bad = {}, []
    for L_, (loc, quote, value) in prose.items():
        mc = mc_bounds(seed, L_, draws)
        universal = (2 * L_ / c_) ** 2
        tight = {name: v["E max_m (f_m − f_k)² (no ½)"] for name, v in mc.items()}
        table[f"L = {L_:g}"] = {"prose": {"location": loc, "quote": quote, "value": value},
                                "universal bound (2L/c)², any Q, reading, geometry (no ½)": universal,
                                "analysed-model bound with Eq. 7's ½": universal / 2, "per reading/geometry": mc,
                                "readings whose tight bound is below the prose value": sorted(
                                    n for n, b in tight.items() if b < value),
                                "prose / largest MC bound": value / max(tight.values())}
        if value * (1 - PROSE_TOLERANCE) > universal:
            bad.append((L_, value, universal, max(tight.values())))
    details = {"bound check": valid.to_json(), "table": table, "draws": draws, "seed": seed,
               "choices": {"c": c_, "features": list(LOSS_GEOMETRIES), "readings": dict(COS_READINGS)}}
    if bad:
        L_, value, universal, largest = bad[0]
        ce = {"L": L_, "prose loss": value, "prose loss − 30% tolerance": value * (1 - PROSE_TOLERANCE),
              "bound (2L/c)² (no ½)": universal,
              "largest per-reading MC bound E max_m (f_m − f_k)²": largest, "c": c_, "draws": draws, "seed": seed,
              "note": "the Sec. 6 network (LN + FFN + linear head) is not a convex combination of task values"}
        return refuted("derived bound (convex combination) + Monte Carlo over the task law",
                       f"L = {L_:g}: prose loss {value:g} (−30%: {value * (1 - PROSE_TOLERANCE):.3g}) > "
                       f"{universal:.3g} = the largest loss any Q gives the analysed model", ce, **details)
    return holds("derived bound + Monte Carlo", "every prose loss is below the analysed model's bound", **details)


@CLAIMS.add("e-lossscale", location="Sec. 6 prose (Fig. 1) vs Eqs. 6–7", kind=Kind.INEQUALITY,
            catalogue_id="ICLN-E-lossscale",
            statement="The Fig. 1 loss values in the Sec. 6 prose (≈ 1.0 at epoch 40 for L = 0.1; ≈ 0.6 at t = 30 for "
                      "L = 1) are attainable by the analysed model (Eqs. 6–7) on the Sec. 6 task family: they do not "
                      "exceed its loss bound max_m (f_m − f_k)² valid for every Q",
            expect=Status.REFUTED, finding=Finding.NOT_REPRODUCIBLE,
            reason="Fig. 1's 'loss ≈ 1.0 at epoch 40' (L = 0.1) exceeds every loss of the analysed Eq. 6 model on the "
                   "stated tasks (ŷ is a convex combination of values in [−L/c, L/c]: ≤ (2L/c)² = 0.16), so Fig. 1 is "
                   "not that model's — as Sec. 6 says, it is a network with LN, FFN and a linear head whose width, "
                   "optimiser and initialisation are unstated; not an error of the theory",
            choices={"c": "0.5 fixed (Sec. 6 parameter list)", "readings": "geometry.COS_READINGS",
                     "features": "scaled orthogonal and Gaussian rescaled to min distance Δ = 3 (d = 15, K = 4)",
                     "loss": "compared without Eq. 7's ½ (the larger value) — the prose's 'average squared loss'",
                     "MC": f"{MC_DRAWS} task draws per reading × geometry, seed = ctx.seed"})
def e_lossscale(ctx):
    return check_loss_scale(ctx.seed)
