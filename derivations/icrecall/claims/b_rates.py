"""Asymptotic-rate claims for n = 3 (Prop. 1, Lemma 6, Theorem 4 / Claim 1; App. B), decided by sweeps
over T with fitted exponents and bootstrap CIs (``theoryverify.scaling``), never by single points.

Everything numeric is derived from the model (``model.n3`` → quadratic forms → float64 torch loss in
``smoothness``).  The few printed expressions a claim compares with are transcribed in the PRINTED
block below with their locations.
"""
from __future__ import annotations

import math
from dataclasses import replace

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import brentq

import theoryverify as tv
from theoryverify import ClaimSet, Kind
from theoryverify import Finding, Readings
from theoryverify import check_coefficient, check_rate
from theoryverify import Status, combine, holds, proved, refuted
from theoryverify.evidence_types import CouldHaveFailed, attach
from ..experiments.util import fmt_error

from ..model import smoothness as S
from ..model.symbolic import n3

CLAIMS = ClaimSet("icrecall")

# --- PRINTED (verbatim transcriptions; the objects under test) --------------------------------------------
_x, _T = sp.symbols("x T", positive=True)
#: Lemma 6, text after the statement (App. B): "The rate of error decreasing is roughly exp(−1/T)".
PRINTED_L6_RATE = -1  # exponent constant c of exp(c/T)
#: Lemma 6 proof, f''(0) (App. B): −1/(8T) + 1/(16T²(4 + 2exp(3/(16T)))²); its leading term −1/(8T).
PRINTED_L6_FPP_LEADING = sp.Rational(-1, 8) / _T
#: Theorem 4 proof (App. B): x0 = (4 − √6)/10.
PRINTED_X0 = (4 - sp.sqrt(6)) / 10
#: Theorem 4 proof (App. B): d2 = −8x² + 4x − 1/2, d6 = −3x².
PRINTED_D2 = -8 * _x**2 + 4 * _x - sp.Rational(1, 2)
PRINTED_D6 = -3 * _x**2
#: Theorem 4 proof: Ψ̃(x) := (4 − 16x) e^{(d2(x) − d6(x))/T} − 6x.
PRINTED_PSI_TILDE = (4 - 16 * _x) * sp.exp((PRINTED_D2 - PRINTED_D6) / _T) - 6 * _x
#: Claim 1 proof: Ψ̃′(x_T) = −16 e^{h(x_T)/T} + 6 x_T h′(x_T)/T − 6 (h = d2 − d6, as printed).
PRINTED_PSI_TILDE_PRIME_AT_ROOT = (-16 * sp.exp((PRINTED_D2 - PRINTED_D6) / _T)
                                   + 6 * _x * sp.diff(PRINTED_D2 - PRINTED_D6, _x) / _T - 6)

FACE = "θ5 = θ6 = −∞ represented explicitly (θ ∈ R⁴, v = (softmax(θ), 0, 0))"


def _quick(ctx) -> bool:
    return ctx.profile == "quick"


# --- Proposition 1 -----------------------------------------------------------------------------------------

GRADLIP_Q = [0.002 * 2.0**-k for k in range(5)]
GRADLIP_F = [0.004 * 2.0**-k for k in range(7)]
HESSLIP_Q = [0.0005 * 2.0**-k for k in range(5)]
HESSLIP_F = [0.001 * 2.0**-k for k in range(7)]
CATALOGUE_GRID = [0.4, 0.2, 0.1, 0.05, 0.025, 0.0125]
SMOOTH_CHOICES = {
    "family": "F-all3 (n = 3, all 6 bijections), one sequence (s1,a1,s2,a2,s3,EoS)",
    "sup estimate": "max over T-scaled configurations θ* + T·ξ: θ* where the 2 or 3 largest logits tie, ξ = 0 "
                    "and random N(0, 1.5²), the best ξ improved by local search at the smallest T, and fixed probes "
                    "(random θ: Gaussian σ=2 and log-Dirichlet(½); θ near the saddle) that win at some T rescaled to "
                    "their nearest tie; the sampled max is a lower estimate of the sup, so it can refute O(·) "
                    "(growing faster) but not Ω(·)",
    "window": "the fit grid starts where the 1/T^(k−1) terms are negligible next to the tie terms (T ≤ 2e-3 for "
              "the Hessian, ≤ 5e-4 for the third derivative); the catalogue grid 0.4…0.0125 is pre-asymptotic for "
              "the sup (reported in the slow variants)",
    "norms": "Hessian: largest |eigenvalue|; third derivative: max over unit u of |D³L1[u,u,u]| (random "
             "directions + higher-order power method)",
    "tolerance": "±0.1 on the exponent (catalogue), ratio spread ≤ 4",
    "derivatives": "torch.func (float64) of L1(θ;T) = logsumexp(l/T) − l1/T, l from the model's quadratic forms",
    "not done": "F-aff(7) on a fixed D (catalogue asks for it too)",
}


#: Proposition 1 prints Θ(1/T²), Θ(1/T³) where its proof bounds only the O side: not a finding, since the Θ statement
#: is true — the witness family θ* + T·ξ supplies the Ω side the proof omits (a proof that proves less than its
#: statement, about a true statement: nothing is refuted)
P1_THETA_NOTE = ("the proof gives only the O side; the Ω side is supplied here by the witness family θ* + T·ξ, so the printed "
                 "Θ is true and no finding is registered (a proof weaker than its true statement)")


@CLAIMS.add("p1-gradlip", location="Proposition 1, App. B", kind=Kind.RATE, catalogue_id="ICR-P1-gradlip",
            statement="sup_θ ‖∇²_θ L1(θ;T)‖ = Θ(1/T²) (gradient-Lipschitz constant), n = 3: fitted exponent of the "
                      "sampled max over θ and of a witness family θ* + T·ξ over T = 0.002…0.000125 (both lower "
                      "estimates of the sup: the Ω side; the O side is App. E's bound, p2-stmt)",
            choices={**SMOOTH_CHOICES, "printed Θ vs the proof's O (issue 27)": P1_THETA_NOTE},
            params={"order": 2, "grid": GRADLIP_Q, "catalogue_grid": None, "search": dict(n_random=60, n_ties=40, n_offsets=4, search_rounds=3, batch=32, starts=1)},
            variants={"full": tv.Variant(params={"grid": GRADLIP_F, "catalogue_grid": CATALOGUE_GRID, "search": dict(n_random=1000, n_ties=300, n_offsets=8, search_rounds=20, starts=4, batch=128)}, tags={"slow"}, id="p1-gradlip-sweep")})
@CLAIMS.add("p1-hesslip", location="Proposition 1, App. B", kind=Kind.RATE, catalogue_id="ICR-P1-hesslip",
            statement="sup_θ ‖∇³_θ L1(θ;T)‖ = Θ(1/T³) (Hessian-Lipschitz constant), n = 3: fitted exponent of the "
                      "sampled max over θ and of a witness family θ* + T·ξ over T = 0.0005…0.00003 (both lower "
                      "estimates of the sup: the Ω side; the O side is App. E's bound, p2-stmt)",
            choices={**SMOOTH_CHOICES, "printed Θ vs the proof's O (issue 27)": P1_THETA_NOTE},
            params={"order": 3, "grid": HESSLIP_Q, "catalogue_grid": None, "search": dict(n_random=20, n_ties=20, n_offsets=3, search_rounds=2, batch=16, starts=1, preselect=12)},
            variants={"full": tv.Variant(params={"grid": HESSLIP_F, "catalogue_grid": CATALOGUE_GRID, "search": dict(n_random=400, n_ties=200, n_offsets=8, search_rounds=10, starts=3, batch=64, preselect=96)}, tags={"slow"}, id="p1-hesslip-sweep")})
def smoothness_claim(ctx):
    """Θ(1/T^order) of the sup of the order-th derivative of L1 (params: order, the T grid, the catalogue grid
    reported beside it, the search sizes)."""
    order, grid, catalogue_grid, search = (ctx.params[k] for k in ("order", "grid", "catalogue_grid", "search"))
    r = S.sup_sweep(grid, order, ctx.seed, **search)
    name = {2: "‖∇²_θ L1‖₂", 3: "max_u |∇³_θ L1[u,u,u]|"}[order]
    witness = {"witness θ*": r["witness_theta_star"], "witness ξ (θ = θ* + T·ξ)": r["witness_xi"],
               "v at θ*": r["witness_v"], "logits at θ*": r["witness_logits"], "candidates": r["points"],
               "fixed probes: max norm per T (not in the fit)": r["probe_max"], "search": dict(search)}
    if catalogue_grid is not None:  # the catalogue's grid is pre-asymptotic: reported, not fitted
        c = S.sup_sweep(catalogue_grid, order, ctx.seed + 7, **search)
        witness["catalogue grid"] = {"T": c["T"], f"T^{order}·sup estimate": [
            v * t ** order for v, t in zip(c["sup"], c["T"])], f"T^{order}·fixed-probe max": [
            v * t ** order for v, t in zip(c["probe_max"], c["T"])]}
    # referee 16: a sampled max is a lower estimate of the sup, so neither part is an "upper side": the sampled max
    # can refute O(1/T^order) (by growing faster) but not establish it — App. E's bound (p2-stmt) does — and the
    # witness family gives the Ω side.  Where the max is attained on the witness family, the two are one fit.
    parts = {
        "sampled max over θ (a lower estimate of the sup: can refute O, cannot establish it)": check_rate(
            grid, r["sup"], -order, 0.1, ctx.seed, param="T", what=f"max_θ {name}", refutable="below",
            extra={"witness": witness}, constant="hidden"),
        "witness family θ* + T·ξ (Ω side)": check_rate(grid, r["witness"], -order, 0.1, ctx.seed + 1,
                                                       param="T", what=name, refutable="none",
                                                       extra={"witness": witness}, constant="hidden"),
    }
    v = combine(parts, method=f"Θ(1/T^{order}) sweep:")
    return replace(v, evidence=v.evidence + "; " + sweep_note(r["sup"], r["witness"]))


def sweep_note(sup, witness) -> str:
    """What the two parts of a Proposition 1 sweep measure: one fit when the sampled max is the witness family's
    value at every T, and where the O side comes from."""
    same = len(sup) == len(witness) and bool(np.allclose(sup, witness, rtol=1e-12, atol=0.0))
    return (("the sampled max is attained on the witness family at every T, so the two fits are one measurement"
             if same else "the sampled max exceeds the witness family at some T (two measurements)")
            + "; both are lower estimates of the sup (the Ω side): the O side is App. E's bound (p2-stmt)")


# --- Lemma 6: the saddle ṽ = (¼, ¼, ¼, ¼, 0, 0) ---------------------------------------------------------

def saddle_loss() -> sp.Expr:
    """L1(θ̃, T) in closed form: the model's L1 at ṽ."""
    m = n3()
    at = dict(zip(m.v, [sp.Rational(1, 4)] * 4 + [0, 0]))
    return m.L1().xreplace(at)


def saddle_gap(T: float, digits: int = 50) -> mpmath.mpf:
    """L1(θ̃, T) − log 2 in ``digits``-digit arithmetic (exact T as a rational)."""
    with mpmath.workdps(digits):
        expr = saddle_loss() - sp.log(2)
        return mpmath.mpf(str(sp.N(expr.xreplace({n3().T: sp.Rational(T)}), digits)))


L6_GRID = [0.02, 0.015, 0.01, 0.0075, 0.005]
L6_SPEC_GRID = [0.2, 0.1, 0.05, 0.02, 0.01]


@CLAIMS.add("l6-limit-printed-rate", location="Lemma 6, text after the statement, App. B", kind=Kind.RATE,
            catalogue_id="ICR-L6-limit", expect=Status.REFUTED, finding=Finding.READING,
            reason="read with exponent constant 1 (±0.5), 'the rate is roughly exp(−1/T)' fails: L1(θ̃,T) − log 2 = "
                   "log(1 + 2e^{−1/(8T)}) decays like exp(−0.125/T); read as exp(−Θ(1/T)), as the sketch uses it, "
                   "it holds (l6-limit)",
            readings=Readings(
                tested="the paper's words: \"as T gets close to 0, L1(θ̃, T) will converge to log 2 from above. The "
                       "rate of error decreasing is roughly exp(−1/T)\" (Lemma 6, proof idea, App. B) — read as "
                       "exp(−c/T) with c = 1 within ±0.5 (a factor-2 reading of 'roughly')",
                others={"exponentially small in 1/T, exp(−Θ(1/T)) (what the proof idea needs: the Ω(T³) improvement "
                        "exceeds the gap)": "holds: icrecall.l6-limit"}),
            statement="The printed rate: L1(θ̃,T) − log 2 is 'roughly exp(−1/T)', read as exp(−c/T) with c = 1 "
                      "within ±0.5",
            choices={"reading of 'roughly'": "the constant in the exponent within ±0.5 of 1 (a factor-2 reading); "
                                             "under the reading exp(−Θ(1/T)) see icrecall.l6-limit (holds)"},
            params={"predicted_c": float(PRINTED_L6_RATE), "margin": 0.5})
def l6_rate(ctx, predicted_c: float | None = None, margin: float | None = None):
    """The saddle gap L1(θ̃, T) − log 2 against exp(predicted_c/T) (params when not given)."""
    predicted_c = ctx.params["predicted_c"] if predicted_c is None else predicted_c
    margin = ctx.params["margin"] if margin is None else margin
    gaps = [float(saddle_gap(T)) for T in L6_GRID]
    spec = [float(saddle_gap(T)) for T in L6_SPEC_GRID]
    spec_slope = float(np.polyfit(1 / np.array(L6_SPEC_GRID), np.log(spec), 1)[0])
    return check_rate(L6_GRID, gaps, predicted_c, margin, ctx.seed, param="T", law="exp",
                      what="L1(θ̃,T) − log 2",
                      extra={"catalogue grid": {"T": L6_SPEC_GRID, "gap": spec,
                                                "least-squares slope of log gap vs 1/T": spec_slope}},
                      constant="hidden")


@CLAIMS.add("l6-limit", location="Lemma 6, text after the statement, App. B", kind=Kind.RATE,
            catalogue_id="ICR-L6-limit",
            statement="L1(θ̃, T) → log 2 from above as T → 0, and L1(θ̃,T) − log 2 = exp(−c/T + O(1)) with the "
                      "derived c = −max_{j≥3}(l_j − l_1)(ṽ) (= 1/8); fitted on T = 0.02…0.005 (tolerance 1e-3)",
            choices={"rate window": "T ∈ {0.02, 0.015, 0.01, 0.0075, 0.005} (the catalogue grid reaches T = 0.2, "
                                    "where exp(−c/T) is not yet the leading behaviour; its slope is reported)",
                     "arithmetic": "mpmath, 50 digits, exact closed form from the model"})
def l6_limit(ctx):
    m = n3()
    L = saddle_loss()
    gaps = S.saddle_gaps()
    top = [g for g in gaps[2:]]
    c = -max(top)
    limit = sp.limit(L, m.T, 0, "+")
    d2_zero = gaps[1] == 0 and all(g < 0 for g in top)
    closed = sp.log(2 + sum(sp.exp(g / m.T) for g in top))
    # both sides are logs of positive reals: equal iff their exponentials are
    same = sp.simplify(sp.expand(sp.powsimp(sp.expand(sp.exp(L)))) - sp.expand(sp.exp(closed))) == 0
    parts = {}
    if limit == sp.log(2) and d2_zero and same:
        parts["limit"] = proved("symbolic: exp-identity + limit",
                                f"L1(θ̃,T) = log(2 + Σ_{{j≥3}} e^{{d_j/T}}) with d_2 = 0, d_j = {top}; limit T→0+ = "
                                f"{limit}; from above since every e^{{d_j/T}} > 0", closed_form=str(closed),
                                limit=str(limit))
    else:
        parts["limit"] = refuted("symbolic: exp-identity + limit", f"limit = {limit}, closed form matches: {same}",
                                 {"limit": str(limit), "d": [str(g) for g in gaps], "L1 at saddle": str(L)})
    parts["rate"] = l6_rate(ctx, float(-c), 1e-3)
    return combine(parts, method="Lemma 6 limit:")


LMIN_GRID = [0.02, 0.015, 0.01, 0.0075, 0.005, 0.0025, 0.00125, 0.000625]  # 1.5 decades (issue 27)
LMIN_SPEC = [0.2, 0.1, 0.05, 0.025, 0.02, 0.01, 0.005]


@CLAIMS.add("l6-lmin", location="Lemma 6, text and proof, App. B", kind=Kind.RATE, catalogue_id="ICR-L6-lmin",
            # issue 27: the T grid now reaches 0.000625 (1.5 decades; was 0.90, inconclusive by the span rule)
            statement="λ_min(∇²L1(θ̃,T)) ≲ −1/T: −λ_min = Ω(1/T) at the saddle (fitted exponent −1 ± 0.1 on "
                      "T ≤ 0.02; ratio to the printed leading term 1/(8T) of −f″(0) bounded), λ_min ≤ f″(0) along "
                      "ε̃ = ½(1,1,−1,−1,0,0), on the face and with the 6-dim proxy θ5 = θ6 = −40",
            choices={"face": FACE, "proxy": "θ = (0,0,0,0,−40,−40)",
                     "Hessian": "torch.func.hessian of the float64 loss"})
def l6_lmin(ctx, constant_scale: float = 1.0):
    """``constant_scale`` plants a printed constant that many times 1/8 (tests: 2 is refuted)."""
    eps4 = np.array([1, 1, -1, -1]) / 2
    eps6 = np.array([1, 1, -1, -1, 0, 0]) / 2
    parts = {}
    for label, th, face, eps in (("face", S.SADDLE_FACE, True, eps4), ("6-dim proxy", S.SADDLE_PROXY, False, eps6)):
        lam, fpp, spec = [], [], {}
        for T in sorted(set(LMIN_GRID + LMIN_SPEC), reverse=True):
            H = S.hessians(th, T, face=face)[0]
            ev = np.linalg.eigvalsh(H)
            if T in LMIN_GRID:
                lam.append(ev[0])
                fpp.append(float(eps @ H @ eps))
            spec[T] = {"T·eigenvalues": (T * ev).tolist(), "T·f″(0) along ε̃": float(T * eps @ H @ eps)}
        lam, fpp = np.array(lam), np.array(fpp)
        predicted = [-constant_scale * float(PRINTED_L6_FPP_LEADING.subs(_T, t)) for t in LMIN_GRID]
        # the printed leading term 1/(8T) of −f″(0) is a constant the text prints: tested one-sided (Ω) with its
        # interval (issue 27; check_rate constant='printed'), −λ_min ≥ −f″(0) ≈ 1/(8T) at the saddle
        rate = check_rate(LMIN_GRID, -lam, -1.0, 0.1, ctx.seed, predicted=predicted, param="T", what="−λ_min",
                          bound="omega", constant="printed",
                          extra={"spectrum": spec})
        bad = [(t, l, f) for t, l, f in zip(LMIN_GRID, lam, fpp) if not (l < 0 and l <= f + 1e-12 * abs(f))]
        ineq = (holds("float64 eigvalsh", f"λ_min < 0 and λ_min ≤ f″(0) at all {len(LMIN_GRID)} T "
                                          f"(T·λ_min → {LMIN_GRID[-1] * lam[-1]:.6g})")
                if not bad else refuted("float64 eigvalsh", "λ_min ≥ 0 or λ_min > f″(0)",
                                        {"T": bad[0][0], "lambda_min": bad[0][1], "f''(0)": bad[0][2]}))
        parts[f"{label}: rate"] = rate
        parts[f"{label}: sign and λ_min ≤ f″(0)"] = ineq
    return combine(parts, method="Lemma 6 λ_min:")


# --- Theorem 4 / Claim 1: the pairwise line v = (x, x, ½ − x, ½ − x, 0, 0) ------------------------------

XT_GRID = [0.02, 0.01, 0.005, 0.0025, 0.00125]
XT_CHOICES = {"minimiser": "argmin over (0, ¼) of the exact float64 L1 on the line (logsumexp; grid then brentq on "
                           "L1′ = 0, xtol 1e-15)",
              "fit": "a(T) = a0 + a1·T + a2·T² on T = 0.02…0.00125, paired bootstrap",
              "tolerance": "1e-3 on a0 (catalogue)"}


def pairwise_values(grid=XT_GRID) -> list[float]:
    return [S.line_minimiser(T) for T in grid]


def derived_pairwise_limit() -> tuple[sp.Expr, sp.Expr, dict]:
    """(a0, a1): a0 = root in (0, ¼) of h = d2 − d6 (model-derived d_j on the line), the two dominant
    exponents there; a1 = log(−d6′/d2′)/h′ at a0 (the first-order shift of the balance d2′e^{d2/T} + d6′e^{d6/T} = 0)."""
    x, d = S.line_gaps()
    h = sp.expand(d[1] - d[5])
    roots = [r for r in sp.solve(h, x) if r.is_real and 0 < r < sp.Rational(1, 4)]
    a0 = roots[0]
    dominated = {f"d{j + 1}(a0) − d6(a0)": sp.nsimplify(d[j].subs(x, a0) - d[5].subs(x, a0)) for j in (2, 3, 4)}
    a1 = sp.log(-sp.diff(d[5], x) / sp.diff(d[1], x)).subs(x, a0) / sp.diff(h, x).subs(x, a0)
    info = {"h (model)": str(h), "a0": str(a0), "a1": str(sp.simplify(a1)), **{k: str(v) for k, v in dominated.items()}}
    if not all(v < 0 for v in dominated.values()):
        raise ValueError(f"d2, d6 are not the dominant exponents at a0: {dominated}")
    return a0, a1, info


@CLAIMS.add("t4-xT", location="Theorem 4 proof, App. B", kind=Kind.RATE, catalogue_id="ICR-T4-xT",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            cause='Theorem 4 proof (App. B): the printed line gaps d3–d6 are wrong (only d2 agrees with the model, Table 2 and Eq. (18)); x0 = (4 − √6)/10, the −6x of Ψ and the limit of x_T inherit them',
            supports=("icrecall.t4-opt-pairwise", "icrecall.T2-main"),
            reason="proof step: the pairwise minimiser a(T) → 1/6 (root of the model-derived h = −6x² + 4x − ½; "
                   "t4-xT-derived), not the printed x0 = (4 − √6)/10 ≈ 0.1551 (root of the wrong printed d2 − d6); "
                   "Theorem 4 only asserts some a ≠ ¼, which holds (t4-opt-pairwise)",
            readings=Readings(
                tested="the paper's words: \"h(x) ... has a unique root x0 = (4 − √6)/10 ... Hence there exists an "
                       "surrounding interval I = (x0 − ϵ, x0 + ϵ) ... Claim 1. There is a unique x_T ∈ I such that "
                       "Ψ̃(x_T) = 0\" (Theorem 4 proof, App. B) — for every small enough ϵ, i.e. x_T → x0 as T → 0",
                others={"Claim 1 with the x0 of the model's h (1/6): x_T → 1/6": "holds: icrecall.t4-xT-derived",
                        "Theorem 4: v* = (a, a, ½ − a, ½ − a, 0, 0) with some a ≠ ¼": "holds: icrecall.t4-opt-pairwise"}),
            statement="The minimiser a(T) of L1 on v = (x, x, ½−x, ½−x, 0, 0) tends to the printed "
                      "x0 = (4 − √6)/10 as T → 0 (intercept of the fit within 1e-3)", choices=XT_CHOICES)
def t4_xT(ctx):
    a = pairwise_values()
    printed_roots = [claim1_root(PRINTED_D2, PRINTED_D6, T) for T in XT_GRID]
    return check_coefficient(XT_GRID, a, float(PRINTED_X0), 1e-3, ctx.seed, degree=2, param="T", what="a(T)",
                             extra={"printed x0": str(PRINTED_X0),
                                    "root x_T of the printed F (printed d2, d6), same T grid": printed_roots,
                                    "a(T) − printed root": [u - w for u, w in zip(a, printed_roots)]})


@CLAIMS.add("t4-xT-derived", location="Theorem 4 proof, App. B (derivation task)", kind=Kind.RATE,
            catalogue_id="ICR-T4-xT",
            statement="DERIVATION: a(T) = a0 + a1·T + O(T²) with a0 = 1/6 (root of h = d2 − d6, model-derived) and "
                      "a1 = log(−d6′/d2′)/h′ at a0 = −(log 2)/2; fitted a0 within 1e-4, a1 within 0.02",
            choices=XT_CHOICES)
def t4_xT_derived(ctx):
    a0, a1, info = derived_pairwise_limit()
    a = pairwise_values()
    return combine({
        "a0": check_coefficient(XT_GRID, a, float(a0), 1e-4, ctx.seed, degree=2, param="T", what="a(T)",
                                extra={"derivation": info}),
        "a1": check_coefficient(XT_GRID, a, float(a1), 0.02, ctx.seed, index=1, degree=2, param="T", what="a(T)",
                                extra={"derivation": info}),
    }, method="Theorem 4 pairwise value:")


CLAIM1_GRID = [0.02, 0.01, 0.005, 0.002, 0.001]


def psi_tilde_of(d2: sp.Expr, d6: sp.Expr) -> sp.Expr:
    """Ψ̃ = d2′ e^{(d2 − d6)/T} + d6′: the two dominant terms of Ψ = e^{−d6/T} Σ_j d_j′ e^{d_j/T}."""
    return sp.diff(d2, _x) * sp.exp((d2 - d6) / _T) + sp.diff(d6, _x)


def claim1_roots(d2: sp.Expr, d6: sp.Expr, T: float, grid: int = 20001) -> list[float]:
    """All roots of Ψ̃ in (0, ¼), solved in the log form F = h/T + log d2′ − log(−d6′) = 0 (Claim 1 proof:
    Ψ̃ = 0 ⇔ h = T log(−d6′/d2′); needs d2′ > 0 > d6′ on (0, ¼)): sign changes on a grid, then brentq."""
    F = sp.lambdify((_x, _T), (d2 - d6) / _T + sp.log(sp.diff(d2, _x)) - sp.log(-sp.diff(d6, _x)), "numpy")
    xs = np.linspace(1e-9, 0.25 - 1e-13, grid)
    with np.errstate(all="ignore"):
        fs = F(xs, T)
    idx = np.nonzero(np.sign(fs[:-1]) * np.sign(fs[1:]) < 0)[0]
    return [float(brentq(lambda x: float(F(x, T)), xs[k], xs[k + 1], xtol=1e-15, rtol=1e-15)) for k in idx]


def claim1_root(d2: sp.Expr, d6: sp.Expr, T: float) -> float:
    """x_T: the smallest root of Ψ̃ in (0, ¼) (the one in I around the root of h; a second root of the
    two-term Ψ̃ sits exponentially close to ¼, where d2′ → 0)."""
    return claim1_roots(d2, d6, T)[0]


def _claim1_version(ctx, label: str, d2: sp.Expr, d6: sp.Expr, offset: int):
    psi = psi_tilde_of(d2, d6)
    dpsi = sp.lambdify((_x, _T), sp.diff(psi, _x), "mpmath")
    roots, vals, counts = [], [], []
    for T in CLAIM1_GRID:
        found = claim1_roots(d2, d6, T)
        counts.append(len(found))
        xT = found[0]
        with mpmath.workdps(30):
            vals.append(float(dpsi(mpmath.mpf(xT), mpmath.mpf(T))))
        roots.append(xT)
    vals = np.array(vals)
    if np.any(vals <= 0):
        k = int(np.argmax(vals <= 0))
        return refuted("root + derivative", f"Ψ̃′(x_T) ≤ 0 at T = {CLAIM1_GRID[k]}",
                       {"T": CLAIM1_GRID[k], "x_T": roots[k], "Psi_tilde_prime": vals[k], "version": label})
    return check_rate(CLAIM1_GRID, vals, -1.0, 0.1, ctx.seed + offset, param="T", what=f"Ψ̃′(x_T) [{label}]",
                      extra={"x_T": roots, "roots of Ψ̃ in (0, ¼) (grid count)": counts,
                             "root of h": [str(r) for r in sp.solve(d2 - d6, _x)], "T·Ψ̃′(x_T)": (np.array(CLAIM1_GRID) * vals).tolist(),
                             "Psi_tilde": str(psi)}, constant="hidden")


def model_d2_d6() -> tuple[sp.Expr, sp.Expr]:
    x, d = S.line_gaps()
    return d[1].subs(x, _x), d[5].subs(x, _x)


@CLAIMS.add("t4-claim1", location="Claim 1 and its proof, App. B", kind=Kind.RATE, catalogue_id="ICR-T4-claim1",
            statement="Ψ̃ has a root x_T in (0, ¼) with Ψ̃′(x_T) = Θ(1/T) (fitted exponent −1 ± 0.1 over "
                      "T = 0.02…0.001), for the printed Ψ̃ and for Ψ̃ from the model-derived d2, d6; and the printed "
                      "Ψ̃′(x_T) display equals the derivative of the printed Ψ̃ at the root",
            choices={"root": "brentq on F = h − T log(−d6′/d2′) on (0, ¼), xtol 1e-15",
                     "printed x_T h′(x_T) = x_T(4 − 10x_T) (issue 27)": "consistent with the printed d2, d6 (h = −5x² + "
                     "4x − ½, h′ = 4 − 10x): a consequence of the printed d6 = −3x² registered in t4-psi / t4-xT, not "
                     "a separate slip; the model-derived h gives x_T(4 − 12x_T) → 1/3; both are Θ(1), as the proof needs",
                     "derivative": "SymPy diff of Ψ̃, evaluated with mpmath (30 digits)"})
def t4_claim1(ctx):
    same = sp.simplify(PRINTED_PSI_TILDE - psi_tilde_of(PRINTED_D2, PRINTED_D6)) == 0
    parts = {"printed Ψ̃ = d2′e^{(d2−d6)/T} + d6′ (printed d2, d6)": (
                 proved("symbolic: simplify", "the printed Ψ̃ is the two-term form with the printed d2, d6") if same
                 else refuted("symbolic: simplify", "printed Ψ̃ differs from the two-term form",
                              {"difference": str(sp.simplify(PRINTED_PSI_TILDE - psi_tilde_of(PRINTED_D2, PRINTED_D6)))})),
             "printed Ψ̃": _claim1_version(ctx, "printed", PRINTED_D2, PRINTED_D6, 0),
             "model-derived Ψ̃": _claim1_version(ctx, "model", *model_d2_d6(), 1)}
    dpsi = sp.lambdify((_x, _T), sp.diff(PRINTED_PSI_TILDE, _x), "mpmath")
    disp = sp.lambdify((_x, _T), PRINTED_PSI_TILDE_PRIME_AT_ROOT, "mpmath")
    worst, at = 0.0, None
    with mpmath.workdps(30):
        for T in CLAIM1_GRID:
            xT = mpmath.mpf(claim1_root(PRINTED_D2, PRINTED_D6, T))
            a, b = dpsi(xT, mpmath.mpf(T)), disp(xT, mpmath.mpf(T))
            err = float(abs(a - b) / max(1, abs(b)))
            if err > worst:
                worst, at = err, (T, float(xT), float(a), float(b))
    parts["printed Ψ̃′(x_T) display"] = (
        holds("mpmath 30 digits at the roots", f"max relative error {fmt_error(worst)} over {len(CLAIM1_GRID)} T")
        if worst <= 1e-10 else
        refuted("mpmath 30 digits at the roots", f"relative error {worst:.2e}",
                {"T": at[0], "x_T": at[1], "derivative": at[2], "printed display": at[3]}))
    return combine(parts, method="Claim 1:")


# --- Lemma 10 (general n): λ_min at the post-Stage-1 point --------------------------------------------------

L10_T = [0.01, 0.005, 0.0025, 0.00125, 0.000625]  # 1.2 decades (issue 27: was 0.90, below the span rule)
L10_PCONF = [1.0, 0.5, 0.25, 0.125, 0.0625]  # 1.2 decades (issue 27: 1…⅛ was 0.90)
L10_CHOICES = {"family": "F-greedy(6), seed 0 (every IC-recall sequence of the code; Assumption 1 holds) — "
                         "general_n.greedy_population",
               "dataset": "F-sub: |D| sequences, a fraction p_conf confusing, the rest non-confusing, nested across "
                          "p_conf (prefixes of one seeded random order of each kind)",
               "Stage 1": "θ̃ = −η1 ∇_θ L1(D)(0), η1 = c1·T^{3/2}·log(1/T), c1 = 100 (general_n.stage1_theta)",
               "Hessian": "torch.func.hessian of the float64 log-space L1(θ, D), eigvalsh",
               "tolerance": "±0.1 on the exponents (of T at fixed p_conf, and of p_conf at fixed T)"}


def _l10_dataset(pop, p_conf: float, size: int, seed: int):
    """|D| = size with round(p_conf·size) confusing sequences; the datasets of one seed are nested (the first k
    of one fixed random order of the confusing and of the non-confusing sequences), so that p_conf varies with
    as little resampling noise as possible."""
    rnd = np.random.default_rng(seed)
    conf = rnd.permutation(np.flatnonzero(pop.flag("confusing")))
    non = rnd.permutation(np.flatnonzero(~pop.flag("confusing")))
    k = int(round(p_conf * size))
    return pop.take(np.concatenate([conf[:k], non[:size - k]]))


@CLAIMS.add("l10-lmin", location="Lemma 10 proof, App. C", kind=Kind.RATE, catalogue_id="ICR-L10-lmin",
            expect=None,  # issue 27: both grids widened to 1.2 decades (were 0.90, below the span rule)
            statement="λ_min(∇²L1(θ̃, D)) ≲ −Ω(p_conf/T) at the post-Stage-1 point: −λ_min/p_conf = Ω(1/T) "
                      "(p_conf ∈ {1, ½}, T = 0.01…0.000625) and −λ_min = Ω(p_conf) (p_conf = 1…1/16 at T = 0.0025), "
                      "F-greedy(6), |D| = 256", choices=L10_CHOICES,
            params={"Ts": L10_T, "pconfs": L10_PCONF, "size": 256, "T_fixed": 0.0025},
            # full: the same 1.2-decade grids on a 4× larger data set at a smaller fixed T
            variants={"full": tv.Variant(params={"Ts": L10_T, "pconfs": L10_PCONF,
                                                 "size": 1024, "T_fixed": 0.00125},
                                         expect=None, tags={"slow"}, id="l10-lmin-sweep")})
def l10_lmin(ctx, t_exponent: float = -1.0):
    """Lemma 10's λ_min ≲ −Ω(p_conf/T) on the 1.2-decade grids.  ``t_exponent``: the exponent of T claimed for
    −λ_min/p_conf (−1, the statement's); the planted twin −2 (a wrong exponent in T, "Ω(p_conf/T²)") is refuted on the
    same grid (tests/icrecall/test_issue27.py), so the pass could have failed."""
    Ts, pconfs, size, T_fixed = (ctx.params[k] for k in ("Ts", "pconfs", "size", "T_fixed"))
    from ..model import general_n as G

    pop = G.greedy_population(6, 0)
    data = {pc: _l10_dataset(pop, pc, size, ctx.seed) for pc in pconfs}

    cache: dict = {}

    def lmin(pc, T):
        if (pc, T) in cache:
            return cache[(pc, T)]
        D = data[pc]
        theta = G.stage1_theta(D, T, G.eta1_of(T, G.C1_DEFAULT))
        cache[(pc, T)] = float(np.linalg.eigvalsh(S.dataset_hessian(D, theta, T))[0])
        return cache[(pc, T)]

    parts, table = {}, {}
    for pc in (pconfs[0], pconfs[1]):
        lam = np.array([lmin(pc, T) for T in Ts])
        table[pc] = lam.tolist()
        if np.any(lam >= 0):
            k = int(np.argmax(lam >= 0))
            parts[f"p_conf = {pc}: T sweep"] = refuted("float64 eigvalsh", "λ_min ≥ 0 at the post-Stage-1 point",
                                                       {"T": Ts[k], "p_conf": pc, "lambda_min": lam[k]})
            continue
        parts[f"p_conf = {pc}: T sweep"] = check_rate(
            Ts, -lam / pc, t_exponent, 0.1, ctx.seed, param="T", what="−λ_min/p_conf", bound="omega",
            extra={"T·λ_min/p_conf": (np.array(Ts) * lam / pc).tolist()}, constant="hidden")
    lam_p = np.array([lmin(pc, T_fixed) for pc in pconfs])
    if np.any(lam_p >= 0):
        k = int(np.argmax(lam_p >= 0))
        parts["p_conf sweep"] = refuted("float64 eigvalsh", "λ_min ≥ 0 at the post-Stage-1 point",
                                        {"T": T_fixed, "p_conf": pconfs[k], "lambda_min": lam_p[k]})
    else:
        parts["p_conf sweep"] = check_rate(
            pconfs, -lam_p, 1.0, 0.1, ctx.seed + 1, param="p_conf", what=f"−λ_min at T = {T_fixed}", bound="omega",
            extra={"T·λ_min/p_conf": (T_fixed * lam_p / np.array(pconfs)).tolist(), "|D|": size}, constant="hidden")
    v = combine(parts, method="Lemma 10 λ_min:")
    return attach(v, CouldHaveFailed("planted twin", "the same T grid (0.01…0.000625, p_conf = 1, ½) with the claimed "
                                     "exponent −2 in T (Ω(p_conf/T²)) is refuted: the measured −λ_min/p_conf grows "
                                     "like 1/T, on the wrong side of the planted bound (tests/icrecall/"
                                     "test_issue27.py)"))


NONCONF_T = [0.01, 0.005, 0.0025, 0.00125, 0.000625]  # 1.2 decades (issue 27)
EPS_TILDE = np.array([1, 1, -1, -1, 0, 0]) / 2  # Lemma 10 proof: ε̃ = ½(1, 1, −1, −1, 0, 0)


@CLAIMS.add("l10-nonconf-curv", location="Eq. (25), Lemma 10 proof, App. C", kind=Kind.RATE,
            catalogue_id="ICR-L10-nonconf-curv",  # issue 27: T grid to 0.000625 (1.2 decades; was 0.90)
            statement="For every non-confusing sequence Z, at the post-Stage-1 point θ̃, |f″_{ε̃,θ̃}(0, Z)| = o(1/T), "
                      "tested as max_Z |f″(0, Z)| = O(T^{−1/2}·log(1/T)) (the printed order of term I in (25)) over "
                      "T = 0.01…0.000625, F-greedy(6); the measured decay is far faster than the bound (fitted "
                      "exponent ≈ 12: exponentially small), so the pass shows the bound, not its tightness",
            choices={**L10_CHOICES,
                     "dataset": "the whole F-greedy(6, seed 0) population (p_conf = 0.4); θ̃ from Stage 1 on it",
                     "f″": "exact per-sequence formula along ε̃ = ½(1,1,−1,−1,0,0) (general_n.second_directional)",
                     "bound": "one-sided O(T^{−1/2} log(1/T)) as T → 0 (exponent −0.5 ± 0.1, log power 1)"})
def l10_nonconf_curv(ctx):
    from ..model import general_n as G

    pop = G.greedy_population(6, 0)
    non = pop.subset(~pop.flag("confusing"))
    worst, conf_min = [], []
    for T in NONCONF_T:
        theta = G.stage1_theta(pop, T, G.eta1_of(T, G.C1_DEFAULT))
        _, _, fpp = G.second_directional(non, theta, EPS_TILDE, T)
        worst.append(float(np.max(np.abs(fpp))))
        _, _, fpp_c = G.second_directional(pop.subset(pop.flag("confusing")), theta, EPS_TILDE, T)
        conf_min.append(float(T * np.min(fpp_c)))
    return check_rate(NONCONF_T, worst, -0.5, 0.1, ctx.seed, param="T", log_power=1, bound="big_o",
                      what="max over non-confusing Z of |f″(0, Z)|",
                      extra={"T·max|f″| (non-confusing)": (np.array(NONCONF_T) * np.array(worst)).tolist(),
                             "T·min f″ over confusing Z (for contrast)": conf_min,
                             "non-confusing sequences": len(non)}, constant="hidden")
