"""Lemma 9 (App. C) asymptotic-rate claims, decided by sweeps with fitted exponents and bootstrap CIs
(``theoryverify.scaling``): α after Stage 1 (spec P6), the Taylor remainder, |v5 − v_i| and
|v1 + v3 + v5 − ½|, |v2 − v4|, and the post-Stage-1 accuracy.  Quantities: ``rates_general_n``
(derived from the model via ``general_n``).  Printed exponents/forms are transcribed below."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.special import softmax

import sympy as sp

import theoryverify as tv
from theoryverify import check_cases, check_identity
from theoryverify import ClaimSet, Kind
from theoryverify import Finding, Readings
from theoryverify import Domain, Interval
from theoryverify import check_coefficient, check_rate
from theoryverify import Status, combine, inconclusive, refuted
from theoryverify.evidence_types import CouldHaveFailed, attach

from ..model import general_n as G
from ..model import rates_general_n as R

CLAIMS = ClaimSet("icrecall")

# --- PRINTED (Lemma 9 statement and proof, App. C) ----------------------------------------------------------
#: "‖v − (1/6+α, 1/6, 1/6+α, 1/6, 1/6−2α, 1/6)‖∞ ≲ η1²/T²" and "‖ε‖ = O(η1²/T²)": exponent of η1.
PRINTED_REMAINDER_EXP = 2
#: "α = c·p_mis·η1/T for some constant c": linear in η1 (and in p_mis).
PRINTED_ALPHA_EXP = 1
#: "|v2 − v4| = o(exp(−1/(40T)))".
PRINTED_V24_RATE = -1 / 40
#: "p1(r1) = 1 − o(exp(−1/√T))" (non-confusing), "½ − o(exp(−1/√T))" (confusing).
PRINTED_ACC_RATE = "exp(−1/√T)"

# --- derived (rates_general_n docstring) ----------------------------------------------------------------------
#: |v2 − v4| ∝ η1·e^{−1/(18T)}/T: only 1-matching relations (logit 7/36 vs 1/4) separate ∂/∂v2 from ∂/∂v4.
DERIVED_V24_RATE = -1 / 18

ETAS = 0.2 * 2.0 ** -np.arange(11)  # spec P6: η1 ∈ 2^{−k}·0.2, k = 0..10
T_P6 = 0.005
SIZE = 400
POP = (7, 0)  # F-greedy(7, seed 0), every sequence (Assumption 1 holds)


def _lift(v, primary):
    """A combined verdict carrying the primary part's sweep/fit at top level (report schema)."""
    return replace(v, details={**v.details, "sweep": primary.details["sweep"], "fit": primary.details["fit"]})


def _pop():
    return G.greedy_population(*POP)


def _dataset(p_mis, ratios, seed, pop=None):
    return R.fsub_dataset(pop or _pop(), p_mis, SIZE, seed, ratios)


FSUB = {"A: p_mis=0.5, all compositions": (0.5, None), "B: p_mis=0.25, all compositions": (0.25, None),
        "C: p_mis=0.5, M/I=1/3 only": (0.5, [1 / 3]), "D: p_mis=0.5, M/I∈{2/3,3/4}": (0.5, [2 / 3, 0.75])}
CHOICES = {"family": "F-sub mixtures of every sequence of F-greedy(7, seed 0), |D| = 400, closed under the swap "
                     "(s1,a1)↔(s2,a2) (so E_D ∂/∂v1 = E_D ∂/∂v3 exactly: the population property that the Chernoff "
                     "step supplies approximately)",
           "Stage 1": "one GD step from θ = 0 (t1 = 1), exact softmax",
           "α measured": "(v1 + v3)/2 − 1/6", "grid": "T = 0.005, η1 = 0.2·2^{−k}, k = 0..10 (spec P6)"}


def _alpha_parts(ctx, name, p_mis, ratios, T, seed_off=0, remainder=True):
    D = _dataset(p_mis, ratios, ctx.seed + seed_off)
    coef = R.alpha_coefficient(D, T)
    prof = R.stage1_profile(D, T, ETAS)
    extra = {"dataset": name, "T": T, "derived": coef}
    coef["closed_form / first_order − 1"] = coef["closed_form"] / coef["first_order"] - 1
    slope = check_coefficient(ETAS, prof["alpha"], coef["first_order"], 0.01 * coef["first_order"], ctx.seed,
                              index=1, degree=3, param="η1", what="α", extra=extra)
    rem = check_rate(ETAS, prof["residual"], PRINTED_REMAINDER_EXP, 0.1, ctx.seed + 1, param="η1",
                     what="‖v − profile(α)‖∞", extra=extra, constant="hidden")
    parts = {f"{name}: dα/dη1 vs derived first-order coefficient (±1%)": slope}
    if remainder:
        parts[f"{name}: remainder exponent"] = rem
    else:  # reported, not decided (see the claim's choices)
        parts[f"{name}: dα/dη1 vs derived first-order coefficient (±1%)"] = replace(
            slope, details={**slope.details, "remainder fit (not decided)": rem.to_json()})
    if T <= 0.005:  # the closed form drops O(N1·e^{−1/(18T)}) terms: 1% needs e^{−1/(18T)} ≲ 1e-3
        parts[f"{name}: closed form E_D[M/I]/(216T) within 1% of the first-order coefficient"] = check_cases(
            [(name, coef)], lambda c: (abs(c["closed_form / first_order − 1"]) < 0.01, dict(c)), exhaustive=True)
    return parts


@CLAIMS.add("L9-alpha", location="Lemma 9 statement (first part), App. C", kind=Kind.RATE,
            catalogue_id="ICR-L9-alpha",
            statement="After one Stage-1 step, α = (v1+v3)/2 − 1/6 is linear in η1 as η1 → 0 with slope equal to the "
                      "derived first-order coefficient −((J²∇_v L1)_1 + (J²∇_v L1)_3)/2 (within 1%; its T → 0 closed form "
                      "E_D[M(Z)/I(Z)]/(216T) is reported), and ‖v − (1/6+α, 1/6, 1/6+α, 1/6, 1/6−2α, 1/6)‖∞ "
                      "= Θ(η1²) (exponent 2 ± 0.1); T = 0.005, dataset A (p_mis = 0.5)",
            choices={**CHOICES, "fits": "α: cubic least squares in η1, coefficient a1 (bootstrap CI); remainder: "
                                        "power law in η1",
                     "note (c)": "Lemma 9's 'α = c·p_mis·η1/T for some constant c' — c = E_D[M/I | mismatched]/216 is "
                                 "a constant of the data distribution, independent of η1 and T (icrecall.L9-alpha-const), "
                                 "and differs between distributions (1/324 on F-aff(5), ≈ 1/420 on F-greedy(7)) inside "
                                 "Assumption 1's band [1/648, 1/270]; read as one c for every distribution it would fail, "
                                 "but no author would sign that reading, so it is not registered as a finding"})
def l9_alpha(ctx):
    parts = _alpha_parts(ctx, "A", *FSUB["A: p_mis=0.5, all compositions"], T_P6)
    return _lift(combine(parts, "Lemma 9 α (P6):"), list(parts.values())[1])


@CLAIMS.add("L9-alpha-sweep", location="Lemma 9 statement (first part), App. C", kind=Kind.RATE,
            catalogue_id="ICR-L9-alpha", tags={"slow"},
            statement="As icrecall.L9-alpha for four F-sub datasets (p_mis ∈ {0.5, 0.25}; mismatched compositions "
                      "M/I = 1/3 only, M/I ∈ {2/3, 3/4}, all) at T ∈ {0.005, 0.0025}",
            choices={**CHOICES, "T": "slope at 0.005 (spec P6) and 0.0025; remainder exponent decided at 0.0025 only "
                                     "(at 0.005 it is reported: for p_mis = 0.25 the smallest η1 already show the "
                                     "first-order term below, sub-window fits 1.81 / 1.99). At 0.01 v2, v4, v6 move at first "
                                     "order, |v_i − v_j| ∝ η1·N1·e^{−1/(18T)}/T (i, j ∈ {2,4,6}), so at fixed T the "
                                     "residual to the profile is linear in η1 for small η1 (fitted exponent ≈ 1.04 "
                                     "for dataset B); with η1 = Θ(T^1.5 log(1/T)) that term is o(η1²/T²), so this is "
                                     "the order of limits, not a counterexample"})
def l9_alpha_sweep(ctx):
    parts = {}
    for j, (name, (pm, ratios)) in enumerate(FSUB.items()):
        for T in (0.005, 0.0025):
            parts.update({f"{k} T={T}": v for k, v in _alpha_parts(ctx, name, pm, ratios, T, 7 * j,
                                                                    remainder=T < 0.005).items()})
    return _lift(combine(parts, "Lemma 9 α sweep (P6):"), parts["A: p_mis=0.5, all compositions: remainder exponent T=0.0025"])


#: Lemma 9's hypotheses on the evidence of L9-alpha-const (the audit of issue 15 moved its evidence from crafted
#: |D| = 400 subsets, which are not i.i.d. draws of the size Lemma 9 requires, to whole populations).
L9_REGION = tv.Condition("T < 1/(40 log n)", lambda c: c["T"] < 1.0 / (40.0 * np.log(c["n"])), needs=("T", "n"),
                         location="Lemma 9 statement")
L9_SAMPLE = tv.Condition("|D| = w(T⁻³ log²(1/T) log(1/δ)) (met by the population, the |D| → ∞ limit of the "
                         "i.i.d. sample)", lambda c: c["D"] == "population", needs=("D",), location="Lemma 9 statement")


def _family_population(name: str) -> "G.Batch":
    """Every IC-recall sequence (uniform P_IC) of an Assumption-1 family: 'aff<p>' or 'greedy<n>-<seed>'."""
    if name.startswith("aff"):
        voc = G.affine_family(int(name[3:]))
        return G.Batch.build(voc, G.all_sequences(voc))
    n, seed = name[6:].split("-")
    return G.greedy_population(int(n), int(seed))


#: fit c on the first population, predict the slope on the second (c = E[M/I | mis]/216: 1/324 vs ≈ 1/420).
ALPHA_CONST_POPS = ("aff5", "greedy7-0")


@CLAIMS.add("L9-alpha-const", location="Lemma 9 statement (first part), App. C", kind=Kind.RATE,
            catalogue_id="ICR-L9-alpha",
            # issue 27 (second referee): was refuted (reading) on 'one c for every data distribution', a reading no
            # author would sign; now the reading the lemma's own proof gives: c is a constant of the data
            # distribution (independent of η1 and T) inside Assumption 1's band. The universal-c observation is a
            # note on icrecall.L9-alpha.
            conditions=(L9_REGION, L9_SAMPLE),
            statement="α = c·p_mis·η1/T for some constant c: on the populations of F-aff(5) and F-greedy(7, seed 0) "
                      "(Assumption-1 families, T < 1/(40 log n)) the c read off the slope of α in η1 is the same at "
                      "every T = 0.005·2^{−k}, k = 0..5 (1.5 decades of T, within 1%: constant in η1 and T; a power law "
                      "of c in T has exponent 0 ± 0.005), equals the derived E_D[M/I | mismatched]/216 (within 1%), "
                      "and lies in Assumption 1's band [1/648, 1/270]; it depends on the data distribution (1/324 vs "
                      "≈ 1/420), which the lemma allows",
            choices={"Stage 1": CHOICES["Stage 1"], "α measured": CHOICES["α measured"],
                     "grid": "T = 0.005·2^{−j}, j = 0..5 (0.005 … 1.5625e-4: 1.5 decades; issue 27: the first grid, "
                             "T ∈ {0.005, 0.0025}, spanned 0.3 decades, below the span rule), η1 = 0.2·2^{−k}·(T/0.005), "
                             "k = 0..10 (spec P6's η1/T range at each T). T > 0.005 is left out: c there carries the "
                             "O(e^{−1/(18T)}) terms the closed form drops (2 % at T = 0.01 on F-greedy(7)), i.e. c is "
                             "the T → 0 coefficient, which is what 'for some constant c' with T → 0 asks",
                     "c in T": "decided twice: the relative spread of c over the T grid (≤ 1 %) and a power-law fit "
                               "of c against T (exponent 0 ± 0.005, i.e. c changes by < 2 % per decade, with the "
                               "coefficient tested against the derived E[M/I | mis]/216 within ×(1 ± 0.01): "
                               "check_rate constant='printed', the closed form being the proof's)",
                     "data": "whole populations (every sequence of the family, uniform P_IC): the |D| → ∞ limit of "
                             "Lemma 9's i.i.d. sample, so the 'with probability 1 − δ/3' event is certain",
                     "reading": "c a constant of the data distribution (Lemma 9's proof: c = E_D[M/I | mismatched]/216); "
                                "'one c for every distribution' is not a reading of the lemma (a note on icrecall.L9-alpha)",
                     "band": "Assumption 1 gives M/I ∈ [1/3, 4/5], so c ∈ [1/648, 1/270]",
                     "could it have failed": "yes: c varying with T (a second-order term), c off the derived value, or "
                                             "outside the band each fail (a planted slope 2× off and a planted "
                                             "c ∝ T^0.02 drift are refuted, tests/icrecall/test_issue27.py)"},
            params={"pops": ALPHA_CONST_POPS, "Ts": tuple(T_P6 * 2.0**-j for j in range(6))})
def l9_alpha_const(ctx, scale: float = 1.0, drift: float = 0.0):
    """Per population and T: c = (fitted slope of α in η1)·T/p_mis; decided: c(T) constant across T (1% spread,
    and a power law in T with exponent 0 ± 0.005 whose coefficient is the derived E[M/I | mis]/216 within 1%), equal
    to the derived value at each T (1%), inside [1/648, 1/270].  ``scale`` plants a wrong slope, ``drift`` a slope
    multiplied by (T/0.005)^drift (tests)."""
    parts = {}
    table = {}
    for name in ctx.params["pops"]:
        D = _family_population(name)
        cs = []
        for T in ctx.params["Ts"]:
            coef = R.alpha_coefficient(D, T)
            etas = ETAS * (T / T_P6)  # the same η1/T range at every T (α is a function of η1/T to first order)
            alpha = scale * (T / T_P6) ** drift * R.stage1_profile(D, T, etas)["alpha"]
            derived_c = coef["E[M/I | mis]"] / 216
            pred = derived_c * coef["p_mis"] / T  # the slope dα/dη1 with c = E[M/I | mis]/216
            v = check_coefficient(etas, alpha, pred, 0.01 * pred, ctx.seed, index=1, degree=3, param="η1",
                                  what=f"α ({name}, T = {T:g})",
                                  extra={"derived c = E[M/I | mis]/216": derived_c, "p_mis": coef["p_mis"]})
            c_hat = v.details["fit"]["exponent"] * T / coef["p_mis"]
            cs.append(c_hat)
            parts[f"{name}, T = {T:g}: slope = c·p_mis/T with the derived c (±1%)"] = tv.with_fixed(
                v, T=T, n=D.vocab.n, D="population")
        table[name] = {"c per T": dict(zip([f"{T:g}" for T in ctx.params["Ts"]], cs)),
                       "derived c": derived_c, "1/c": 1 / cs[0]}
        parts[f"{name}: c against T, power law exponent 0 ± 0.005, coefficient the derived c (±1%)"] = tv.with_fixed(
            check_rate(ctx.params["Ts"], cs, 0.0, 0.005, ctx.seed, predicted=[derived_c] * len(cs), param="T",
                       what=f"c ({name})", constant="printed", constant_margin=0.01, max_spread=1.01,
                       extra={"derived c = E[M/I | mis]/216": derived_c}), n=D.vocab.n, D="population")
        spread = max(cs) / min(cs) - 1
        in_band = all(1 / 648 - 1e-12 <= c <= 1 / 270 + 1e-12 for c in cs)
        parts[f"{name}: c constant in T (±1%) and in [1/648, 1/270]"] = tv.with_fixed(check_cases(
            [(name, (spread, in_band, cs))],
            lambda t: (t[0] <= 0.01 and t[1], {"relative spread of c over T": t[0], "in band": t[1], "c": t[2]}),
            exhaustive=True), T=ctx.params["Ts"][-1], n=D.vocab.n, D="population")
    v = combine(parts, "Lemma 9 c (constant of the data distribution):")
    first = next(k for k in parts if "slope" in k)
    top = _lift(v, parts[first])  # the report's sweep/fit: the first population's slope at T = 0.005
    top = tv.with_fixed(top, **parts[first].details["fixed"])
    return replace(top, details={**top.details, "c by population": table})


# --- Taylor remainder ---------------------------------------------------------------------------------

#: issue 27 (referee P2): the T-dependence of ‖ε‖ rested on T ∈ {0.01, 0.005} and a "within a factor 4 across T"
#: test that a 1/T⁴ remainder passes.  Now a fit over 1.7 decades of T at fixed η1 in the Taylor regime
#: (η1/T ≤ 0.05), where ‖ε‖T²/η1² → 1.5057e-5 (7 % above at T = 0.01, constant to 1e-4 below T = 0.002).
TAYLOR_TS = (0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002)
TAYLOR_ETA = 1e-5


def taylor_T_part(D, Ts, eta: float, seed: int, planted=None) -> tv.Verdict:
    """‖ε‖ against T at fixed η1 (Lemma 9 proof, App. C: ‖ε‖ = O(η1²/T²)): fitted exponent of T is −2 ± 0.1.
    ``planted(T)`` multiplies ‖ε‖ (a planted twin: (T0/T)² makes a 1/T⁴ remainder, which is refuted)."""
    eps = np.array([R.stage1_profile(D, T, [eta])["eps"][0] for T in Ts])
    if planted is not None:
        eps = eps * np.array([planted(T) for T in Ts])
    return check_rate(Ts, eps, -PRINTED_REMAINDER_EXP, 0.1, seed, param="T", what="‖ε‖", constant="hidden",
                      extra={"η1": eta, "‖ε‖T²/η1²": (eps * np.array(Ts) ** 2 / eta ** 2).tolist()})


@CLAIMS.add("L9-taylor", location="Lemma 9 proof, App. C (Taylor expansion after Stage 1)", kind=Kind.RATE,
            catalogue_id="ICR-L9-taylor",
            statement="ε = v − v0 + η1 J ∇_θ L1(D) satisfies ‖ε‖ = O(η1²/T²): fitted exponent of ‖ε‖ in η1 is 2 ± 0.1 "
                      "at T ∈ {0.01, 0.005}, and fitted exponent of ‖ε‖ in T is −2 ± 0.1 at η1 = 1e-5 over "
                      "T ∈ [2e-4, 1e-2] (1.7 decades; issue 27: was 'within a factor 4 across two T')",
            choices={**CHOICES, "dataset": "A (p_mis = 0.5)",
                     "T sweep": f"T ∈ {TAYLOR_TS} at η1 = {TAYLOR_ETA:g} (η1/T ≤ 0.05: the Taylor regime; the Θ "
                                "exponent −2 is tested, stronger than O)"},
            params={"Ts": (0.01, 0.005), "taylor_Ts": TAYLOR_TS})
def l9_taylor(ctx):
    Ts = ctx.params["Ts"]
    D = _dataset(0.5, None, ctx.seed)
    parts = {}
    for T in Ts:
        eps = R.stage1_profile(D, T, ETAS)["eps"]
        parts[f"T={T}: ‖ε‖ exponent"] = check_rate(ETAS, eps, PRINTED_REMAINDER_EXP, 0.1, ctx.seed, param="η1",
                                                    what="‖ε‖", extra={"T": T}, constant="hidden")
    parts[f"η1={TAYLOR_ETA:g}: ‖ε‖ exponent in T"] = taylor_T_part(D, ctx.params.get("taylor_Ts", TAYLOR_TS),
                                                                   TAYLOR_ETA, ctx.seed + 1)
    v = _lift(combine(parts, "Lemma 9 Taylor remainder:"), parts[f"T={Ts[-1]}: ‖ε‖ exponent"])
    return attach(v, CouldHaveFailed("planted twin", "a 1/T⁴ remainder (‖ε‖·(T0/T)²) is refuted by the T fit (b ≈ −4); "
                                     "tests/icrecall/test_rates_general_n.py::test_planted_taylor_T4_is_refuted"))


# --- |v5 − v_i| and |v1 + v3 + v5 − ½| ------------------------------------------------------------------

P_MIS_GRID = (0.0625, 0.125, 0.25, 0.5, 0.75, 1.0)  # 1.2 decades (issue 27)


@CLAIMS.add("L9-v5gap", location="Lemma 9 proof, App. C", kind=Kind.RATE, catalogue_id="ICR-L9-v5gap",
            # issue 27: p_mis grid from 0.0625 (1.2 decades; was 0.90, inconclusive by the span rule)
            statement="After Stage 1: min_{i≠5}|v5 − v_i| = Θ(p_mis·η1/T) (exponent 1 in p_mis at fixed η1, "
                      "exponent 1 in η1 at fixed p_mis), and |v1 + v3 + v5 − ½| ≲ η1²/T² (exponent 2 in η1)",
            choices={**CHOICES, "p_mis grid": str(P_MIS_GRID) + " (same mismatched pool, all compositions)",
                     "η1 for the p_mis sweep": "1e-3 (η1/T = 0.2)"})
def l9_v5gap(ctx):
    eta = 1e-3
    gaps = [R.stage1_profile(_dataset(pm, None, ctx.seed), T_P6, [eta])["gap5_min"][0] for pm in P_MIS_GRID]
    D = _dataset(0.5, None, ctx.seed)
    prof = R.stage1_profile(D, T_P6, ETAS)
    parts = {
        "min|v5 − v_i| vs p_mis": check_rate(P_MIS_GRID, gaps, PRINTED_ALPHA_EXP, 0.1, ctx.seed, param="p_mis",
                                             what="min_i |v5 − v_i|", extra={"η1": eta, "T": T_P6},
                                             constant="hidden"),
        "min|v5 − v_i| vs η1": check_rate(ETAS, prof["gap5_min"], PRINTED_ALPHA_EXP, 0.1, ctx.seed + 1, param="η1",
                                          what="min_i |v5 − v_i|", extra={"T": T_P6}, constant="hidden"),
        "|v1+v3+v5 − ½| vs η1": check_rate(ETAS, prof["sum135"], PRINTED_REMAINDER_EXP, 0.1, ctx.seed + 2, param="η1",
                                           what="|v1 + v3 + v5 − ½|", extra={"T": T_P6}, constant="hidden"),
    }
    parts["∂L1/∂θ_i − ∂L1/∂θ_j = (1/6)(∂L1/∂v_i − ∂L1/∂v_j) at θ = 0"] = _sixth_identity(ctx)
    return _lift(combine(parts, "Lemma 9 |v5 − v_i|, |v1+v3+v5 − ½|:"), parts["min|v5 − v_i| vs p_mis"])


def _sixth_identity(ctx):
    """∇_θ = J ∇_v with J = Diag(v0) − v0 v0ᵀ at v0 = 1/6 (chain rule through softmax), symbolic g."""
    g = sp.symbols("g1:7", real=True)
    v0 = sp.Rational(1, 6)
    J = sp.diag(*([v0] * 6)) - sp.ones(6, 6) * v0**2
    th = J * sp.Matrix(g)
    lhs = sp.Matrix([th[i] - th[j] for i in range(6) for j in range(6)])
    rhs = sp.Matrix([(g[i] - g[j]) / 6 for i in range(6) for j in range(6)])
    return check_identity(sum((lhs - rhs).applyfunc(sp.Abs)), sp.Integer(0),
                          Domain([Interval(x, -10, 10) for x in g]), ctx.seed)


# --- |v2 − v4| --------------------------------------------------------------------------------------------

C1 = 100.0


V24_CHOICES = {"data": "i.i.d. sample of |D| sequences from F-greedy(7, seed 0) (not swap-closed; for F-aff(p) "
                       "every sequence has equally many 1-matching relations hitting a1 and a2, so v2 = v4 exactly)",
               "η1": f"c1·T^1.5·log(1/T), c1 = {C1:g}", "log space": "integer logits/gradients at v0, "
               "v2 − v4 = e^{θ4}·expm1(θ2 − θ4)/Σe^θ", "margin": "±0.005 on the exp(b/T) rate (polylog prefactor)"}


@CLAIMS.add("L9-v24", location="Lemma 9 statement, App. C", kind=Kind.RATE, catalogue_id="ICR-L9-v24",
            statement="After Stage 1, |v2 − v4| = o(exp(−1/(40T))): log|v2 − v4| fitted against 1/T has rate b = "
                      "−1/18 (derived) with CI below −1/40; T ∈ {0.01 … 0.000625} (5 points), |D| = 400",
            choices={**V24_CHOICES, "grid": "T = 0.01 … 0.000625; the spec grid's T = 0.02 is pre-asymptotic (the "
                                            "N1·e^{−1/(18T)} terms of p1's denominator are not yet small: sub-window "
                                            "fits on 0.02…0.0025 differ by 0.013)"},
            params={"Ts": [0.01, 0.005, 0.0025, 0.00125, 0.000625], "size": 400},
            variants={"full": tv.Variant(params={"Ts": [0.01 * 2.0**-k for k in range(7)], "size": 2000},
                                         tags={"slow"}, id="L9-v24-sweep")})
def l9_v24(ctx):
    Ts, size = ctx.params["Ts"], ctx.params["size"]
    pop = _pop()
    D = pop.take(np.random.default_rng(ctx.seed).integers(len(pop), size=size))  # i.i.d. sample: not swap-closed
    logs, signs = zip(*(R.log_abs_v2_minus_v4(D, T, G.eta1_of(T, C1)) for T in Ts))
    y = np.exp(np.array(logs))
    scaled = [float(l + 1 / (40 * T)) for l, T in zip(logs, Ts)]
    aff = G.Batch.build(G.affine_family(7), G.sample_sequences(G.affine_family(7), 100, ctx.seed))
    aff_counts = R.mismatch_stats(aff)["N1_a1_minus_a2"]
    extra = {"log|v2 − v4|": list(logs), "signs": list(signs), "log(|v2−v4|·e^{1/(40T)})": scaled,
             "F-aff(7): max |#1-matching→a1 − #→a2| per sequence (0 ⇒ v2 = v4 exactly)": int(np.abs(aff_counts).max())}
    if not np.all(np.isfinite(logs)) or 0 in signs:
        return inconclusive("log-space sweep", "|v2 − v4| unresolved (exact cancellation or underflow)", **extra)
    v = check_rate(Ts, y, DERIVED_V24_RATE, 0.005, ctx.seed, param="T", law="exp", what="|v2 − v4|", extra=extra,
                   constant="hidden")
    hi = v.details["fit"]["ci"][1]
    lo = v.details["fit"]["ci"][0]
    if v.status is Status.HOLDS and hi < PRINTED_V24_RATE:
        return replace(v, evidence=v.evidence + f"; CI upper {hi:.4g} < −1/40 ⇒ |v2 − v4|·e^{{1/(40T)}} → 0 "
                                               f"(printed o(e^{{−1/(40T)}}) holds)")
    if lo > PRINTED_V24_RATE and v.status is not Status.INCONCLUSIVE:
        return refuted(v.method, v.evidence + "; CI above −1/40: |v2 − v4| decays slower than e^{−1/(40T)}",
                       {"fitted": v.details["fit"]["exponent"], "ci": [lo, hi], "printed": PRINTED_V24_RATE},
                       **v.details)
    return v




# --- accuracy after Stage 1 ------------------------------------------------------------------------

SPEC_GRID = (0.02, 0.01, 0.005, 0.0025)
ACC_GRID = (1e-3, 5e-4, 2.5e-4, 1.25e-4, 6.25e-5)


ACC_CHOICES = {"data": "D = every sequence of F-greedy(7, seed 0) (both sequence types; swap-closed)",
               "η1": f"c1·T^1.5·log(1/T), c1 = {C1:g}",
               "worst case": "max over sequences of the log error (non-confusing) / log(½ − p1) (confusing)",
               "fit grid": "T = 1e-3 … 6.25e-5 (the spec grid 0.02 … 0.0025 is reported, pre-asymptotic)",
               "log space": "log(1 − p1) = LSE_{r≠r*} − logaddexp(0, LSE_{r≠r*}) from integer logit differences"}


@CLAIMS.add("L9-acc", location="Lemma 9 statement (second part), App. C", kind=Kind.RATE, catalogue_id="ICR-L9-acc",
            statement="After Stage 1, non-confusing: p1(r1) = 1 − o(e^{−1/√T}); confusing: p1(r1) = ½ − o(e^{−1/√T}); "
                      "decided by −log(1 − p1), −log(½ − p1) = Θ(T^{−1/2} log(1/T)) (exponent −0.5 ± 0.1 with one "
                      "log factor) and the scaled quantities decreasing to 0",
            choices=ACC_CHOICES,
            params={"population": POP, "grid": ACC_GRID},
            variants={"full": tv.Variant(params={"population": (7, 1), "grid": tuple(1e-3 * 2.0 ** -k for k in range(7))},
                                         tags={"slow"}, id="L9-acc-sweep")})
def l9_acc(ctx):
    pop, grid = G.greedy_population(*ctx.params["population"]), ctx.params["grid"]
    worst_nc, worst_c, argmax, conf_gap, scaled_nc, scaled_c = [], [], [], [], [], []
    for T in list(SPEC_GRID) + list(grid):
        v = softmax(G.stage1_theta(pop, T, G.eta1_of(T, C1)))
        e = R.first_step_errors(pop, v, T)
        nc = ~e["confusing"]
        worst_nc.append(float(e["log_err"][nc].max()))
        worst_c.append(float(e["log_half"][e["confusing"]].max()))
        argmax.append(float(e["argmax_correct"][nc].mean()))
        conf_gap.append(float(np.nanmax(np.abs(e["conf_logit_gap"]))))
        scaled_nc.append(worst_nc[-1] + 1 / np.sqrt(T))
        scaled_c.append(worst_c[-1] + 1 / np.sqrt(T))
    k = len(SPEC_GRID)
    extra = {"T (spec grid + fit grid)": list(SPEC_GRID) + list(grid), "worst log(1 − p1) non-confusing": worst_nc,
             "worst log(½ − p1) confusing (½ − p1 > 0)": worst_c,
             "log((1 − p1)·e^{1/√T})": scaled_nc, "log((½ − p1)·e^{1/√T})": scaled_c,
             "argmax accuracy (non-confusing)": argmax, "max |l_conf − l*| (rounding level)": max(conf_gap),
             "c1": C1, "note": "spec grid T ≥ 0.0025 is pre-asymptotic: −log(1−p1) ≈ κ·c1·log(1/T)/√T with "
                               "κ = E[M/I]/216 ≈ 1.5e-3, so the scaled quantity turns down only for "
                               "log(1/T) > 1/(κ c1) (T ≲ 1.5e-3)"}
    parts = {
        "non-confusing: −log(1 − p1) = Θ(log(1/T)/√T)": check_rate(grid, -np.array(worst_nc[k:]), -0.5, 0.1, ctx.seed,
                                                                   param="T", log_power=1, what="−log(1 − p1)",
                                                                   extra=extra, constant="hidden"),
        "confusing: −log(½ − p1) = Θ(log(1/T)/√T)": check_rate(grid, -np.array(worst_c[k:]), -0.5, 0.1, ctx.seed + 1,
                                                               param="T", log_power=1, what="−log(½ − p1)",
                                                               constant="hidden"),
        "scaled quantities decrease to 0 on the fit grid": check_cases(
            [("non-confusing", scaled_nc[k:]), ("confusing", scaled_c[k:])],
            lambda s: (bool(np.all(np.diff(s) < 0) and s[-1] < -10), {"log scaled": s}), exhaustive=True),
        "rounding": check_cases([("max |l_conf − l*|", max(conf_gap))], lambda g: (g < 1e-12, {"value": g}),
                                exhaustive=True),
    }
    return _lift(combine(parts, "Lemma 9 accuracy after Stage 1:"), parts["non-confusing: −log(1 − p1) = Θ(log(1/T)/√T)"])




