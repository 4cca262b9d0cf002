"""Lemma 2 (Section 4.3) and the final display of App. D: the second-step accuracy after one Stage-1 step,
decided by sweeps over T with fitted exponents and bootstrap CIs (``theoryverify.scaling``), spec P5.

The step-2 logits are the SymPy derivation of ``step2`` (model primitives; the n − 3 answers outside
{a1, a2, a3} share one logit, checked there); ``rates_general_n`` evaluates them after the exact Stage-1
step ω̃ = −η1 ∇_ω ℓ2(0) (ℓ2 is the same function of ω for every sequence, so ∇_ω L2(D) = ∇_ω ℓ2).
log(1 − p_{2,r1}(a3)) is computed in log space from the logit gaps (no underflow at any T used).

Derived leading order (``rates_general_n.KAPPA2``): (l3 − l1)/T = (l3 − l2)/T → κ2·η1/T², κ2 = 256/2401, so with
η1 = c1 T^{3/2} log(1/T): −log(1 − p) = κ2 c1 log(1/T)/√T − log 2 + o(1), and (l3 − l_o)/T → 2·(1/7)(8/7)/T.
Hence (1 − p)e^{1/√T} → 0 for every c1 > 0, but only once κ2 c1 log(1/T) > 1, i.e. T < exp(−2401/(256 c1))
(≈ 8.4e-5 for c1 = 1): on the spec grid T ≥ 0.005 the scaled quantity still grows for c1 = 1.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

import theoryverify as tv
from theoryverify import check_cases
from theoryverify import ClaimSet, Kind
from theoryverify import check_coefficient, check_rate, compare_laws
from theoryverify import combine

from ..model import general_n as G
from ..model import rates_general_n as R

CLAIMS = ClaimSet("icrecall")

# --- PRINTED (App. D, final display; Lemma 2) ------------------------------------------------------------
#: p_{2,r1}(a3) = 1/(1 + 2exp(−Ω((1/√T) log(1/T))) + (n − 3)exp(−Ω(1/T))) ≥ 1 − o(exp(−1/√T)).
PRINTED_GAP12_EXP, PRINTED_GAP12_LOG = -0.5, 1  # Ω(T^{−1/2} log(1/T)) for the a1/a2 gaps (over T)
PRINTED_GAPO_EXP = -1  # Ω(1/T) for the other answers
#: η1 = Θ(T√T log(1/T)) (Theorem 1).

SPEC_T = (0.05, 0.03, 0.02, 0.01, 0.005)


def regime_grid(n: int, points: int = 5) -> tuple[float, ...]:
    """One decade of T inside App. D's regime 1/T > 40 log n (the final display assumes it; referee 16: 3 of the
    5 spec-grid points lie outside it for n = 7): from 0.97/(40 log n) down by a factor 10, log-spaced
    (n = 7: 0.01246…0.001246; n = 31: 0.00706…0.000706)."""
    top = 0.97 / (40 * np.log(n))
    return tuple(float(top * 10 ** (-k / (points - 1))) for k in range(points))
DEEP_T = (1e-4, 1e-5, 1e-6, 1e-7, 1e-8)
C1S = (1.0, 3.0, 10.0)
NS = (7, 31)


def _lift(v, primary):
    return replace(v, details={**v.details, "sweep": primary.details["sweep"], "fit": primary.details["fit"]})


def _sweep(n, c1, Ts):
    rows = [R.step2_after_stage1(n, T, G.eta1_of(T, c1)) for T in Ts]
    return {k: np.array([r[k] for r in rows]) for k in ("log_err", "gap13", "gap23", "gap_o", "omega_gap")}


def _parts(ctx, n, c1, off=0):
    # referee 16: the exponent fits run inside App. D's regime 1/T > 40 log n, over one decade (regime_grid); the
    # spec grid T = 0.05…0.005, most of which lies outside the regime, is reported beside them, not fitted
    grid = regime_grid(n)
    s = _sweep(n, c1, grid)
    spec = _sweep(n, c1, SPEC_T)
    d = _sweep(n, c1, DEEP_T)
    x = np.log(1 / np.array(DEEP_T)) / np.sqrt(DEEP_T)
    scaled_spec = (spec["log_err"] + 1 / np.sqrt(SPEC_T)).tolist()
    scaled_deep = (d["log_err"] + 1 / np.sqrt(DEEP_T)).tolist()
    laws = compare_laws(grid, -s["log_err"], {"log(1/T)/√T": lambda t: np.log(1 / t) / np.sqrt(t),
                                              "1/√T": lambda t: 1 / np.sqrt(t), "1/T": lambda t: 1 / t})
    extra = {"n": n, "c1": c1, "η1": "c1·T^1.5·log(1/T)", "fit grid (inside 1/T > 40 log n)": list(grid),
             "log(1 − p) (fit grid)": s["log_err"].tolist(),
             "spec grid (reported, not fitted)": list(SPEC_T), "log(1 − p) (spec grid)": spec["log_err"].tolist(),
             "log((1 − p)e^{1/√T}) spec grid": scaled_spec, "log((1 − p)e^{1/√T}) deep grid": scaled_deep,
             "deep grid": list(DEEP_T), "RMS residual by law (fit grid)": laws,
             "region 1/T > 40 log n on the spec grid": [T for T in SPEC_T if 1 / T > 40 * np.log(n)],
             "derived threshold T* = exp(−1/(κ2 c1)) for the o(e^{−1/√T}) decrease": float(np.exp(-1 / (R.KAPPA2 * c1)))}
    tag = f"n={n}, c1={c1:g}"
    return {
        f"{tag}: −log(1 − p) = Θ(log(1/T)/√T) (inside 1/T > 40 log n)": check_rate(
            grid, -s["log_err"], PRINTED_GAP12_EXP, 0.1, ctx.seed + off, param="T", log_power=PRINTED_GAP12_LOG,
            what="−log(1 − p_{2,r1}(a3))", extra=extra, constant="hidden"),
        f"{tag}: (l3 − max(l1,l2))/T = Ω(log(1/T)/√T) (inside 1/T > 40 log n)": check_rate(
            grid, np.minimum(s["gap13"], s["gap23"]), PRINTED_GAP12_EXP, 0.1, ctx.seed + off + 1, param="T",
            log_power=PRINTED_GAP12_LOG, what="(l3 − max(l1, l2))/T", constant="hidden"),
        f"{tag}: (l3 − l_o)/T = Ω(1/T) (deep grid)": check_rate(
            DEEP_T, d["gap_o"], PRINTED_GAPO_EXP, 0.1, ctx.seed + off + 2, param="T", what="(l3 − l_o)/T",
            extra={"T·(l3 − l_o)/T on the spec grid (saturates for large c1·√T log(1/T); limit 16/49)":
                   (spec["gap_o"] * np.array(SPEC_T)).tolist()}, constant="hidden"),
        f"{tag}: slope of log(1 − p) vs log(1/T)/√T = −κ2·c1 (±1%, deep grid)": check_coefficient(
            x, d["log_err"], -R.KAPPA2 * c1, 0.01 * R.KAPPA2 * c1, ctx.seed + off + 3, index=1, degree=1,
            param="log(1/T)/√T", what="log(1 − p)"),
        f"{tag}: (1 − p)e^{{1/√T}} → 0 (decreasing, deep grid)": check_cases(
            [("deep grid", scaled_deep)], lambda v: (bool(np.all(np.diff(v) < 0) and v[-1] < -10), {"log scaled": v}),
            exhaustive=True),
    }


CHOICES = {"η1": "c1·T^{3/2}·log(1/T) (Theorem 1's Θ(T√T log(1/T)))", "Stage 1": "one exact GD step on ω from 0",
           "fit grid": "one decade inside App. D's regime 1/T > 40 log n, from 0.97/(40 log n) down (n = 7: "
                       "0.01246…0.001246; n = 31: 0.00706…0.000706) — referee 16: 3 of the 5 spec-grid points lie "
                       "outside the regime for n = 7",
           "spec grid": str(SPEC_T) + " (reported, not fitted); 1/T > 40 log n holds only for T ≤ 0.01 (n = 7), "
                        "0.005 (n = 31)",
           "deep grid": str(DEEP_T) + " (the 1% slope, the o(e^{−1/√T}) decrease and the Ω(1/T) other-answer gap, whose "
                        "T·gap saturates on the spec grid for c1 = 10: asymptotic regime)",
           "step-2 logits": "derivations/icrecall/step2.py (grouped general-n loss, weight n − 3 on the shared logit)",
           "log space": "log(1 − p) = LSE(x1, x2, x_o + log(n−3)) − logaddexp(0, ·), x = (l − l3)/T"}


@CLAIMS.add("L2", location="Lemma 2 and the final display of App. D", kind=Kind.RATE, catalogue_id="ICR-L2",
            statement="After one Stage-1 step: −log(1 − p_{2,r1}(a3)) and the a1/a2 logit gaps over T are "
                      "Θ(T^{−1/2} log(1/T)), the other-answer gaps Θ(1/T) (exponent ± 0.1; fitted on one decade "
                      "inside App. D's regime 1/T > 40 log n, T = 0.0125…0.00125 for n = 7, the spec grid "
                      "T = 0.05…0.005, 3 of whose 5 points lie outside it, reported only; other-answer gap on "
                      "T = 1e-4…1e-8), the slope of log(1 − p) against log(1/T)/√T is −(256/2401)·c1 (±1%), and "
                      "(1 − p)·e^{1/√T} decreases to 0; n = 7, c1 = 3",
            choices=CHOICES)
def lemma2(ctx):
    parts = _parts(ctx, 7, 3.0)
    kappa = [R.step2_kappa(7, T) for T in (0.05, 0.005, 1e-4)]
    parts["κ2 = 256/2401 (derived leading constant vs the derived functions, η1 → 0)"] = check_cases(
        [("κ2", kappa)], lambda k: (max(abs(v / R.KAPPA2 - 1) for v in k) < 1e-6, {"numeric": k, "256/2401": R.KAPPA2}),
        exhaustive=True)
    return _lift(combine(parts, "Lemma 2 (P5):"), next(iter(parts.values())))


@CLAIMS.add("L2-sweep", location="Lemma 2 and the final display of App. D", kind=Kind.RATE, catalogue_id="ICR-L2",
            tags={"slow"},
            statement="As icrecall.L2 for n ∈ {7, 31} × c1 ∈ {1, 3, 10}, plus a short Stage 2 (perturbation radius "
                      "T³, η2 = T², ⌈(1/T) log(1/T)⌉ steps) along which log(1 − p) never rises above its "
                      "post-perturbation value (+1e-9)",
            choices={**CHOICES, "Stage 2": "ω block of a uniform draw from the 13-dim ball of radius T³; η2 = T²"})
def lemma2_sweep(ctx):
    parts = {}
    for i, n in enumerate(NS):
        for j, c1 in enumerate(C1S):
            parts.update(_parts(ctx, n, c1, off=10 * (3 * i + j)))
            if c1 == 10.0:  # κ2 c1 log(1/T) saturation: the 1% slope needs a deeper window
                d = [T * 1e-4 for T in DEEP_T]
                key = f"n={n}, c1=10: slope of log(1 − p) vs log(1/T)/√T = −κ2·c1 (±1%, deep grid)"
                sw = _sweep(n, c1, d)
                parts[key] = check_coefficient(np.log(1 / np.array(d)) / np.sqrt(d), sw["log_err"], -R.KAPPA2 * c1,
                                               0.01 * R.KAPPA2 * c1, ctx.seed + 99, index=1, degree=1,
                                               param="log(1/T)/√T", what="log(1 − p)", extra={"grid": d})

    def stage2(case):
        n, c1, T = case
        steps = int(np.ceil(np.log(1 / T) / T))
        path = R.step2_stage2(n, T, G.eta1_of(T, c1), T**2, steps, T**3, ctx.seed)
        e = np.array(path["log_err"])
        return bool(np.all(e[1:] <= e[0] + 1e-9)), {"steps": steps, "log(1−p) start": e[0], "max": float(e.max()),
                                                     "end": e[-1], "min ω-gap": min(path["omega_gap"])}
    parts["Stage 2: log(1 − p) non-increasing"] = check_cases(
        ((f"n={n}, c1={c1:g}, T={T}", (n, c1, T)) for n in NS for c1 in C1S for T in (0.05, 0.02, 0.01)),
        stage2, exhaustive=False, what="(n, c1, T) runs")
    return _lift(combine(parts, "Lemma 2 sweep (P5):"), next(iter(parts.values())))
