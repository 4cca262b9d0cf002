"""Theorem 5.5's four phases on the reduced Stage-II gradient flow (§5.2, App. C.3; spec §5.3 items 24-30).

Every formula of Thm 5.5 is lost: each verdict is a verdict on the reconstruction (RC list in ``choices``)
against the laws derived in :mod:`.flow` (module section "laws derived from the reduced flow").
Trajectories come from :func:`..experiments.flow.stage2` (LSODA in log-time, rtol 1e-10, atol 1e-12) through the
cached runs of :mod:`..experiments.runs`; markers from :mod:`..experiments.markers` (spec §4.3).  Quick claims use
small cached grids; their full variants (ids ``<id>-full``) the spec grids.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

import theoryverify as tv
from theoryverify.evidence_types import CouldHaveFailed, attach
from theoryverify import (ClaimSet, Kind, Variant, Verdict, check_coefficient, check_rate, combine,
                          fit_power_law, holds, inconclusive, refuted, sweep_details)

from ..experiments import flow
from ..experiments import markers as M
from ..experiments.runs import BASE, GD, SIGMAS, base_run, choices, g4_run, gd_sweep_L, ih_run
from ..model import head1, head2
from ..model import torch_model as TM

from .. import hypotheses as HYP  # noqa: E402

CLAIMS = ClaimSet("inductionheads")

def _trajectory_details(tr, mk) -> dict:
    """details["trajectory"] for the report plot: x = log10(1+t) (the phases span five decades of t), series
    normalised to O(1) (losses by their initial values, parameters by their optimum), phase boundaries at
    T_G4(0.1), T_sat, T_IH(0.5), T_IH(0.1)."""
    idx = np.unique(np.linspace(0, len(tr.t) - 1, 400).astype(int))
    a, w = tr.config["alpha"], tr.config["w"]
    keys = ("T_G4(0.1)", "T_sat", "T_IH(0.5)", "T_IH(0.1)")
    return {"x": np.log10(1 + tr.t[idx]).tolist(), "xlabel": "log10(1 + t)",
            "series": {"L_G4/L_G4(0)": (tr.L_G4[idx] / tr.L_G4[0]).tolist(),
                       "L_IH/L_IH(0)": (tr.L_IH[idx] / tr.L_IH[0]).tolist(),
                       "k/w*": (tr.k[idx] / w).tolist(), "v2/(1-a*)": (tr["v2"][idx] / (1 - a)).tolist(),
                       "v1/a*": (tr["v1"][idx] / a).tolist(), "p/p(end)": (tr["p"][idx] / tr["p"][-1]).tolist()},
            "boundaries": [math.log10(1 + mk[k]) for k in keys if mk.get(k) is not None],
            "boundary_names": list(keys)}


def log_vs_power(sigmas, T, seed: int) -> dict:
    """Fit T = a + c·log(1/σ) and T = C·σ^b; BIC of each on T (Gaussian residuals, 2 parameters each)."""
    s, T = np.asarray(sigmas, float), np.asarray(T, float)
    n = len(s)
    x = np.log(1 / s)
    c, a = np.polyfit(x, T, 1)
    rss_log = float(np.sum((T - (a + c * x)) ** 2))
    pw = fit_power_law(s, T, seed)
    rss_pow = float(np.sum((T - pw.prefactor * s ** pw.exponent) ** 2))
    bic = {k: n * math.log(max(r, 1e-300) / n) + 2 * math.log(n) for k, r in (("log", rss_log), ("power", rss_pow))}
    return {"log": {"a": a, "c": c, "rss": rss_log}, "power": {"C": pw.prefactor, "b": pw.exponent, "ci": pw.ci,
                                                             "rss": rss_pow}, "bic": bic,
            "selected": min(bic, key=bic.get)}


# --- IH-T55-phaseI ------------------------------------------------------------------------------------

def phase_boundaries_verdict(tr, mk) -> Verdict:
    """Four phases: BIC segment count of log L vs log t; the breakpoints must separate Phase I (at or after
    T_G4(0.1)), the plateau (T_sat..T_IH(0.5)) and the emergence (T_IH(0.5)..Phase IV)."""
    fit, times = M.phase_count(tr.t, tr.loss, max_segments=5, t_min=1.0, rss_floor=120 * 0.02**2)
    b = sorted(times)
    lo_I, hi_I = mk["T_G4(0.1)"] / 3, 3 * mk["T_G4(0.01)"]
    has = {"I|II": any(lo_I <= x <= hi_I for x in b),
           "II|III": any(mk["T_sat"] <= x <= mk["T_IH(0.5)"] for x in b),
           "III|IV": any(mk["T_IH(0.5)"] <= x <= 3 * mk["T_IH(0.1)"] for x in b)}
    det = {"segments": fit.count, "breakpoints": b, "bic": fit.bic, "boundaries_found": has}
    ev = (f"BIC picks {fit.count} segments of log L vs log t, breakpoints {[round(x, 1) for x in b]}; "
          f"phase boundaries found: {has}")
    if all(has.values()):
        return holds("BIC segment count (theoryverify.phases.segment_count_bic)", ev, **det)
    return refuted("BIC segment count", ev, {"missing": [k for k, v in has.items() if not v], "breakpoints": b},
                   **det)


def phase1_L_sweep(alpha: float, Ls, sigma: float):
    return [g4_run(alpha, L, sigma)[1]["T_G4(0.1)"] for L in Ls]


# re-audit (issue 17): the quick log-L grid reaches L = 800 (1.2 decades; it spanned 0.90 at L <= 400) and the quick
# profile fits the log-coefficient against alpha* too (alpha* in [0.05, 0.9], 1.25 decades); the full variant adds
# L = 3000 (4 points over 2 decades), alpha* down to 0.03 on L in {400, 3200}, and the base-point parts
PHASE1_QUICK = dict(base=True, Ls=(50, 100, 200, 400, 800), sigmas_at_L=None, L_for_sigmas=10_000, ratio_Ls=None,
                    alphas=(0.05, 0.1, 0.2, 0.45, 0.9), alpha_Ls=(200, 800))
PHASE1_FULL = dict(base=True, Ls=(100, 1000, 3000, 10_000), sigmas_at_L=(3e-2, 1e-2, 3e-3, 1e-3, 3e-4),
                   L_for_sigmas=10_000, ratio_Ls=(100, 1000, 10_000), alphas=(0.03, 0.05, 0.1, 0.2, 0.45, 0.9),
                   alpha_Ls=(400, 3200))


@CLAIMS.add("t55-phaseI", location="Thm 5.5 Phase I; App. C.3 (proof of Phase I); App. C.1 Eq. (20)",
            kind=Kind.DYNAMICS, catalogue_id="IH-T55-phaseI",
            statement="Phase I (partial learning): most of the 4-gram component is learned (T_I = T_G4(0.1)) "
                      "while a considerable part of L_IH is not; the Phase-I estimates are lost. Derived: "
                      "T_G4 = (1/α*) log(min(1/σ, L)) + O(1/α*²); the four phases appear in the loss curve."
                      + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-8, RC-9, RC-10, RC-11, RC-12, RC-13, RC-17, RC-19).",
            choices=choices(reading="'most' = L_G4 <= 0.1 L_G4(0); 'considerable' = L_IH(T_I) >= 0.5 L_IH(0); "
                                    "four phases = BIC breakpoints at the I|II, II|III, III|IV boundaries",
                            grid="base point (alpha*=0.5, w*=0.3, L=100, sigma=1e-3); T_G4(0.1) vs log L for "
                                 "L in {50,...,800} at sigma=1e-8 (sigma << 1/L); log-coefficient (from L in {200, 800}) "
                                 "vs alpha* in {0.05,...,0.9} (exponent -1); full profile: sigma-coefficient at L=10^4 "
                                 "for sigma in {3e-2,...,3e-4} (1/L < sigma << 1); L-coefficient at sigma=1e-8 for L in "
                                 "{1e2,1e3,3e3,1e4}; alpha* in {0.03,...,0.9} on L in {400, 3200}"),
            over=(tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),), conditions=HYP.for_over((tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),)),
            params=PHASE1_QUICK,
            variants={"full": Variant(params=PHASE1_FULL, tags={"slow"}, id="t55-phaseI-full")})
def t55_phase1(ctx):
    p = ctx.params
    part = {}
    c = flow.phase1_log_coefficient(0.5)
    if p["base"]:
        tr, mk = base_run()
        TI = mk["T_G4(0.1)"]
        lih_ratio = float(np.interp(TI, tr.t, tr.L_IH) / tr.L_IH[0])
        lih_ratio_01 = float(np.interp(mk["T_G4(0.01)"], tr.t, tr.L_IH) / tr.L_IH[0])
        w = BASE["w"]
        p_rel = 1 - flow.G(w) ** 2 / flow.G(2 * w)  # derived P_IH / L_IH(0) (k = 0, v2: sigma -> (1-a) G(w))
        ev = (f"L_IH(T_G4(0.1) = {TI:.4g})/L_IH(0) = {lih_ratio:.3f}; at T_G4(0.01) = {mk['T_G4(0.01)']:.4g}: "
              f"{lih_ratio_01:.3f} (R1 f: L_IH does decrease in Phase I, by v2's growth on the time scale N, with k "
              f"still ~ sigma^2; the plateau keeps only P_IH/L_IH(0) = 1 - G(w*)^2/G(2w*) = {p_rel:.3f} (derived; "
              f"measured {mk['P_IH'] / tr.L_IH[0]:.3f}) — the part of the IH target that needs the DP route)")
        part["considerable IH left"] = tv.with_fixed(
            holds("marker ratio", ev, ratio=lih_ratio, ratio_at_0p01=lih_ratio_01, plateau_over_initial=p_rel)
            if lih_ratio >= 0.5 else refuted("marker ratio", ev, {"T_I": TI, "ratio": lih_ratio}),
            alpha=BASE["alpha"], w=BASE["w"], L=BASE["L"], sigma=BASE["sigma"])
    if p["sigmas_at_L"]:
        sig = tuple(p["sigmas_at_L"])
        T = [g4_run(0.5, p["L_for_sigmas"], s)[1]["T_G4(0.1)"] for s in sig]
        part["T_I vs log(1/sigma)"] = check_coefficient(np.log(1 / np.array(sig)), T, c, 0.1 * c, ctx.seed, index=1,
                                                        param="log(1/sigma)", what="T_G4(0.1)", scale="log",
                                                        fixed={"alpha": 0.5, "L": p["L_for_sigmas"]},
                                                        declared={"sigma": list(sig)})
    Ls = tuple(p["Ls"])
    T = phase1_L_sweep(0.5, Ls, 1e-8)
    part["T_I vs log L"] = check_coefficient(np.log(Ls), T, c, 0.1 * c, ctx.seed, index=1, param="log L",
                                             what="T_G4(0.1)", scale="log", fixed={"alpha": 0.5, "sigma": 1e-8},
                                             declared={"L": list(Ls)})
    if p["ratio_Ls"]:
        rLs = tuple(p["ratio_Ls"])
        lih = {}
        for L in rLs:
            TI = g4_run(0.5, L, 1e-3)[1]["T_G4(0.1)"]
            trL, _ = ih_run(0.5, 0.3, L, 1e-3)
            lih[L] = float(np.interp(TI, trL.t, trL.L_IH) / trL.L_IH[0])
        ok = all(x >= 0.5 for x in lih.values()) and lih[rLs[-1]] > lih[rLs[0]]
        ev = f"L_IH(T_I)/L_IH(0) at sigma=1e-3: {lih} (-> 1 as L grows: T_I ~ log L / alpha* << N)"
        part["considerable IH left (L sweep)"] = tv.with_fixed(
            holds("marker ratio", ev, ratio=lih, configurations=[{"L": L} for L in rLs]) if ok else
            refuted("marker ratio", ev, {"ratio": lih}, configurations=[{"L": L} for L in rLs]),
            alpha=0.5, w=0.3, sigma=1e-3)
    if p["alphas"]:
        alphas, (L1, L2) = tuple(p["alphas"]), tuple(p["alpha_Ls"])
        coef = []
        for a in alphas:
            T2 = [g4_run(a, L, 1e-8)[1]["T_G4(0.1)"] for L in (L1, L2)]
            coef.append((T2[1] - T2[0]) / math.log(L2 / L1))
        part["log-coefficient vs alpha*"] = check_rate(alphas, coef, -1.0, 0.15, ctx.seed, param="alpha",
                                                       what="dT_G4/dlog L", min_points=4,
                                                       extra={"configurations": [{"alpha": a, "L": L, "sigma": 1e-8}
                                                                                 for a in alphas for L in (L1, L2)],
                                                              "L pair": [L1, L2], "coefficient x alpha*":
                                                              [c_ * a_ for c_, a_ in zip(coef, alphas)]},
                                                       constant="hidden")
    if not p["base"]:
        return combine(part)
    part["four phases"] = tv.with_fixed(phase_boundaries_verdict(tr, mk), alpha=BASE["alpha"], w=BASE["w"],
                                        L=BASE["L"], sigma=BASE["sigma"])
    v = combine(part)
    return v.__class__(v.status, v.method, v.evidence, v.counterexample,
                       {**v.details, "markers": mk, "trajectory": _trajectory_details(tr, mk)})


# --- IH-T55-plateau ---------------------------------------------------------------------------------

def plateau_sigma_verdict(alpha, w, L, sigmas, seed, predicted=None, margin_rel=0.05):
    T = [ih_run(alpha, w, L, s)[1]["T_IH(0.5)"] for s in sigmas]
    c = flow.plateau_log_coefficient(alpha, w, L) if predicted is None else predicted
    laws = log_vs_power(sigmas, T, seed)
    v_coef = check_coefficient(np.log(1 / np.asarray(sigmas)), T, c, margin_rel * c, seed, index=1,
                               param="log(1/sigma)", what="T_IH(0.5)", extra={"law_comparison": laws},
                               scale="log")
    ev = f"BIC: log model {laws['bic']['log']:.4g}, power model {laws['bic']['power']:.4g} (b = {laws['power']['b']:.3g})"
    v_law = (holds("law selection by BIC", ev, **laws) if laws["selected"] == "log" else
             refuted("law selection by BIC", ev, {"selected": laws["selected"], **laws["bic"]}, **laws))
    return combine({"coefficient of log(1/sigma)": v_coef, "log law preferred to power law": v_law})


#: (alpha*, w*, L) of the sigma sweeps: the base point, then alpha*, w* and L moved one at a time across their ranges
#: (alpha* in (0, 1), w* in (0, 1/2): RC-13's admissible range; L >= 25)
SWEEP_CONFIGS = ((0.5, 0.3, 100), (0.2, 0.3, 100), (0.8, 0.3, 100), (0.5, 0.1, 100), (0.5, 0.45, 100), (0.5, 0.3, 25),
                 (0.5, 0.3, 400))
OVER_SECTION5 = (tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),
                 tv.Over("w", 0.0, 0.5, text="w* in (0, 1/2) (RC-13: the derived admissible range)"),
                 tv.Over("L", 3.0, math.inf, scale="log", integer=True, text="long sequences L (>= 3)"))


@CLAIMS.add("t55-plateau", location="Thm 5.5 Phases II+III; §5.2 drivers 1-2; App. C.2 Eqs. (24)-(29); C.3",
            kind=Kind.RATE, catalogue_id="IH-T55-plateau",
            statement="The IH plateau+emergence time has a tight estimate (lost) depending on σ_init (driver 1) "
                      "and on the component proportions (driver 2), for every admissible α*, w* and long L. Derived on "
                      "the reduced flow under RC-12 (the approximated loss (22) the proof uses): T_IH(0.5) = "
                      "c_σ log(1/σ) + O(N), c_σ = N (1-w*²)² / ((1-α*)² w*); the exact objective (11) is checked by "
                      "t55-plateau-exact-full and alt-exact-gd-full (coefficient c_σ/(1-w*²)²). Full profile: "
                      "exponents of the log(1/σ) coefficient in L, 1-α*, w* and the plateau/Phase-I ratio along each "
                      "driver." + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-8, RC-9, RC-10, RC-11, RC-12, RC-13, RC-17, RC-19).",
            over=OVER_SECTION5, conditions=HYP.for_over(OVER_SECTION5),
            choices=choices(reading="observation time = T_IH(0.5); asymptotics in sigma -> 0 at fixed (alpha*, w*, L), "
                                    "L enters only through N = L-2 under RC-12 (time rescaling t/N is exact)",
                            grid="sigma in {1e-1,...,1e-6} (8 values) at (alpha*, w*, L) = base (0.5, 0.3, 100), "
                                 "alpha* in {0.2, 0.8}, w* in {0.1, 0.45}, L in {25, 400}; coefficient within 5%; full "
                                 "profile adds: L in {25,...,800}; alpha* in {0.05,...,0.95}; w* in {0.02,...,0.45}; "
                                 "coefficient from sigma in {1e-4, 1e-6}; raw T_IH(0.5) at sigma = 1e-3 reported"),
            params={"configs": SWEEP_CONFIGS, "Ls": None, "alphas": None, "ws": None},
            variants={"full": Variant(params={"Ls": (25, 50, 100, 200, 400, 800),
                                              "alphas": (0.05, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95),
                                              "ws": (0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.45)},
                                      tags={"slow"}, id="t55-plateau-full")})
def t55_plateau(ctx):
    # re-audit (issue 17): the sigma law is tested at seven (alpha*, w*, L), not only at the base point (the
    # statement quantifies over them); the full variant keeps its exponent sweeps, on grids widened past a decade
    part = {f"alpha={a},w={w},L={L}": tv.with_fixed(plateau_sigma_verdict(a, w, L, SIGMAS, ctx.seed), alpha=a, w=w, L=L)
            for a, w, L in (tuple(c) for c in ctx.params["configs"])}
    if ctx.params["Ls"]:
        part.update(_plateau_grids(ctx, ctx.params))
    v = combine(part)
    tr, mk = base_run()
    flat, t_flat = M.plateau_level_flat(tr.t, tr.L_IH, after=mk["T_G4(0.1)"], before=mk["T_IH(0.9)"])
    a, w, N = BASE["alpha"], BASE["w"], BASE["L"] - 2
    derived = (1 - a) ** 2 * (flow.G(2 * w) - flow.G(w) ** 2) / (2 * N)
    xc = {"P_IH = L_IH(T_sat)": mk["P_IH"], "P_IH (flattest window)": flat, "t_flattest": t_flat,
          "P_IH derived (1-a)^2 (G(2w) - G(w)^2)/(2N)": derived, "markers (base point)": mk}
    return v.__class__(v.status, v.method, v.evidence + f"; base point: P_IH = {mk['P_IH']:.5g} (T_sat), {flat:.5g} "
                       f"(flattest window), derived plateau level {derived:.5g}", v.counterexample, {**v.details, **xc})


def plateau_coefficient(alpha, w, L, s1=1e-4, s2=1e-6):
    """Measured dT_IH(0.5)/d log(1/σ) from two small σ."""
    return (ih_run(alpha, w, L, s2)[1]["T_IH(0.5)"] - ih_run(alpha, w, L, s1)[1]["T_IH(0.5)"]) / math.log(s1 / s2)


def _plateau_grids(ctx, p) -> dict[str, Verdict]:
    """The full profile's sweeps: exponents of the log(1/sigma) coefficient in N, 1-alpha*, w* and the plateau /
    Phase-I ratio along each driver (parts of the t55-plateau verdict)."""
    a, w, L = BASE["alpha"], BASE["w"], BASE["L"]
    part = {}
    Ls = tuple(p["Ls"])
    cN = [plateau_coefficient(a, w, x) for x in Ls]
    part["L"] = check_rate(np.array(Ls) - 2, cN, 1.0, 0.15, ctx.seed, param="N=L-2", what="c_sigma",
                           fixed={"alpha": a, "w": w}, constant="hidden", declared={"L": list(Ls)})
    alphas = tuple(p["alphas"])
    ca = [plateau_coefficient(x, w, L) for x in alphas]
    part["1-alpha*"] = check_rate(1 - np.array(alphas), ca, -2.0, 0.15, ctx.seed, param="1-alpha*", what="c_sigma",
                                  fixed={"w": w, "L": L}, constant="hidden", declared={"alpha": list(alphas)})
    ws = tuple(p["ws"])
    cw = [plateau_coefficient(a, x, L) for x in ws]
    part["w* (after dividing (1-w*^2)^2)"] = check_rate(ws, np.array(cw) / (1 - np.array(ws) ** 2) ** 2, -1.0,
                                                        0.15, ctx.seed, param="w*", what="c_sigma/(1-w^2)^2",
                                                        fixed={"alpha": a, "L": L}, constant="hidden", declared={"w": list(ws)})
    raw = {"L": [ih_run(a, w, x, 1e-3)[1]["T_IH(0.5)"] for x in Ls],
           "alpha": [ih_run(x, w, L, 1e-3)[1]["T_IH(0.5)"] for x in alphas],
           "w": [ih_run(a, x, L, 1e-3)[1]["T_IH(0.5)"] for x in ws]}
    rawfit = {"L": fit_power_law(Ls, raw["L"], ctx.seed).exponent,
              "1-alpha*": fit_power_law(1 - np.array(alphas), raw["alpha"], ctx.seed).exponent,
              "w*": fit_power_law(ws, raw["w"], ctx.seed).exponent}
    # "When any one of [...] is sufficiently large, Phase II lasts for [...]": the plateau / Phase-I ratio
    # swept along each candidate alone (L up, 1/sigma up, alpha* up, 1/w* up)
    ratio = {"L": [ih_run(a, w, x, 1e-3)[1]["T_IH(0.5)"] / g4_run(a, x, 1e-3)[1]["T_G4(0.1)"] for x in Ls],
             "1/sigma": [ih_run(a, w, L, x)[1]["T_IH(0.5)"] / g4_run(a, L, x)[1]["T_G4(0.1)"] for x in SIGMAS],
             "alpha*": [ih_run(x, w, L, 1e-3)[1]["T_IH(0.5)"] / g4_run(x, L, 1e-3)[1]["T_G4(0.1)"] for x in alphas],
             "1/w*": [ih_run(a, x, L, 1e-3)[1]["T_IH(0.5)"] / g4_run(a, L, 1e-3)[1]["T_G4(0.1)"] for x in ws[::-1]]}
    grows = {k2: bool(np.all(np.diff(r) > 0)) for k2, r in ratio.items()}
    ev = "; ".join(f"{k2}: {r[0]:.3g} -> {r[-1]:.3g}" for k2, r in ratio.items())
    part["ratio grows along each candidate"] = tv.with_fixed(
        holds("sweep each alone", ev + f"; raw T_IH(0.5) exponents at sigma=1e-3: {rawfit}", ratio=ratio, grows=grows,
              raw=raw, raw_exponents=rawfit) if all(grows.values())
        else refuted("sweep each alone", ev, {"grows": grows}, ratio=ratio), alpha=a, w=w, L=L)
    return part


# --- IH-T55-expgrowth -----------------------------------------------------------------------------------

def expgrowth_verdict(alpha, w, L, sigma, rel=0.02, factor=1.0):
    tr, mk = ih_run(alpha, w, L, sigma)
    a, b = mk["T_sat"], mk["T_k(0.05)"]
    m = (tr.t >= a) & (tr.t <= b)
    slope = float(np.polyfit(tr.t[m], np.log(tr.k[m]), 1)[0])
    lam = factor * flow.growth_rate(alpha, w, L)
    cfg = dict(alpha=alpha, w=w, L=L, sigma=sigma)
    ev = (f"slope of log k on [T_sat, T_k(0.05)] = [{a:.4g}, {b:.4g}] ({m.sum()} samples): {slope:.6g}; derived "
          f"lambda = 2(1-a)^2 w/(N(1-w^2)^2) = {lam:.6g}; ratio {slope / lam:.4f}")
    det = dict(slope=slope, rate=lam, ratio=slope / lam, window=[a, b], **cfg)
    v_rate = (holds("log-linear fit", ev, **det) if abs(slope / lam - 1) <= rel else
              refuted("log-linear fit", ev, {**cfg, "slope": slope, "predicted": lam, "tol": rel}, **det))
    k0, kf = tr.k[0], tr.k[-1]
    ks, kb = float(np.interp(a, tr.t, tr.k)), float(np.interp(b, tr.t, tr.k))
    v0, vs, vb = tr["v2"][0], float(np.interp(a, tr.t, tr["v2"])), float(np.interp(b, tr.t, tr["v2"]))
    order = dict(k_growth_stage1=(ks - k0) / kf, v2_growth_stage1=(vs - v0) / vs, k_factor_stage2=kb / ks,
                 v2_change_stage2=abs(vb - vs) / vs)
    ok = order["k_growth_stage1"] < 1e-3 and order["v2_growth_stage1"] > 0.9 and order["k_factor_stage2"] > 10 \
        and order["v2_change_stage2"] < 0.05
    ev2 = ("stage 1 (0..T_sat): v2 grows by {v2_growth_stage1:.3f} of its value, k by {k_growth_stage1:.2e} of its "
           "final value; stage 2 (T_sat..T_k(0.05)): k grows x{k_factor_stage2:.3g}, v2 changes by "
           "{v2_change_stage2:.3%}").format(**order)
    v_order = (holds("order of events", ev2, **order) if ok else
               refuted("order of events", ev2, {**cfg, **order}, **order))
    return combine({"rate": v_rate, "order": v_order})


@CLAIMS.add("t55-expgrowth", location="Thm 5.5 ('[w_KQ] increases exponentially'); App. C.2 Part II", kind=Kind.DYNAMICS,
            catalogue_id="IH-T55-expgrowth",
            statement="During Phases II-III the DP parameter grows exponentially (every admissible α*, w*, long L). "
                      "Derived rate (RC-12, "
                      "linearisation at k=0 with v2 = (1-α*)G(w*)): λ = 2(1-α*)² w*/(N(1-w*²)²); order: v2 grows "
                      "first while k barely changes, then v2 barely changes while k grows."
                      # referee 16: say in plain words which loss the runs use (as t55-plateau does)
                      + " The runs integrate the flow of the approximated loss (22) of App. C.2 (RC-12: the softmax "
                        "simplification the proof uses), not the exact objective (11); the exact-softmax growth rate is "
                        "checked only by t55-plateau-exact-full (part d)." + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-8, RC-9, RC-10, RC-11, RC-12, RC-13, RC-17, RC-19).",
            choices=choices(reading="'barely' = k moves < 1e-3 of its final value before T_sat, v2 moves < 5% "
                                    "between T_sat and T_k(0.05); rate within 2%",
                            grid="base point at sigma in {1e-2, 1e-3, 1e-4}; the other six (alpha*, w*, L) of "
                                 "t55-plateau at sigma = 1e-3"),
            over=OVER_SECTION5, conditions=HYP.for_over(OVER_SECTION5))
def t55_expgrowth(ctx):
    # re-audit (issue 17): the six other (alpha*, w*, L) of t55-plateau's sweeps too (it was the base point only)
    a, w, L = BASE["alpha"], BASE["w"], BASE["L"]
    parts = {f"sigma={s:g}": tv.with_fixed(expgrowth_verdict(a, w, L, s), alpha=a, w=w, L=L, sigma=s)
             for s in (1e-2, 1e-3, 1e-4)}
    parts.update({f"alpha={a2},w={w2},L={L2}": tv.with_fixed(expgrowth_verdict(a2, w2, L2, 1e-3), alpha=a2, w=w2, L=L2,
                                                             sigma=1e-3)
                  for a2, w2, L2 in SWEEP_CONFIGS[1:]})
    # referee P1 (s36): the 'could have failed' record of this main pass
    return attach(combine(parts), CouldHaveFailed(
        "planted twin", "a claimed growth rate half the derived λ (factor 0.5) is refuted by the same log-linear fit "
        "(tests/inductionheads/test_phases.py::test_expgrowth_half_rate_is_refuted); the rate is tested within 2 % "
        "and the order of events against fixed thresholds on every run"))


# --- IH-T55-width ---------------------------------------------------------------------------------------

@CLAIMS.add("t55-width", location="Thm 5.5 ('then is learned suddenly'; 'a sudden emergence ..., taking time [...]')",
            kind=Kind.RATE, catalogue_id="IH-T55-width",
            statement="The emergence width W = T_IH(0.1) - T_IH(0.9) (lost; every admissible α*, w*, long L). "
                      "Derived: once v2 is slaved to its "
                      "nullcline, k's dynamics after k = O(1) do not depend on σ, so W = Θ(1) in σ "
                      "(W ∝ N exactly under RC-12) and W/T_IH(0.5) = Θ(1/log(1/σ)) -> 0 ('sudden'). Full profile: "
                      "W across L, α*, w*: derived W ∝ N, W ∝ (1-α*)^-2 to leading order in small (1-α*)."
                      # referee 16: say in plain words which loss the runs use (as t55-plateau does)
                      + " The runs (quick and full) integrate the flow of the approximated loss (22) of App. C.2 "
                        "(RC-12: the softmax simplification the proof uses), not the exact objective (11) (t55-plateau-exact-full "
                        "only reports the other markers' exact-vs-RC-12 differences; no width is tested on (11))." + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-8, RC-9, RC-10, RC-11, RC-12, RC-13, RC-17, RC-19).",
            choices=choices(grid="sigma in {1e-2,...,1e-6} at the seven (alpha*, w*, L) of t55-plateau: exponent of W "
                                 "in sigma (derived 0) and W/T_IH(0.5) strictly decreasing in log(1/sigma); full profile "
                                 "adds: sigma=1e-3; L in {25,...,800}; alpha* in {0.05,0.1,0.3,0.5,0.7,0.8,0.9,0.95} (1-alpha*: 1.3 decades, 90 % of (0, 1); full-profile "
                                 "re-audit, issue 17: 0.9 alone spanned 0.70 decades); w* reported"),
            over=OVER_SECTION5, conditions=HYP.for_over(OVER_SECTION5),
            params={"configs": SWEEP_CONFIGS, "Ls": None, "alphas": None, "ws": None},
            variants={"full": Variant(params={"Ls": (25, 50, 100, 200, 400, 800),
                                              "alphas": (0.05, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95), "ws": (0.05, 0.1, 0.2, 0.3, 0.4)},
                                      tags={"slow"}, id="t55-width-full")})
def t55_width(ctx):
    # re-audit (issue 17): the sigma sweep at the seven (alpha*, w*, L) of t55-plateau (it was the base point only), and
    # in the full variant too (it ran only the L and alpha* sweeps)
    p = ctx.params
    a, w, L = BASE["alpha"], BASE["w"], BASE["L"]
    parts = {}
    sig = SIGMAS[2:]
    for a2, w2, L2 in (tuple(c) for c in p["configs"]):
        Wd = [ih_run(a2, w2, L2, s)[1]["W"] for s in sig]
        ratio = [ih_run(a2, w2, L2, s)[1]["W"] / ih_run(a2, w2, L2, s)[1]["T_IH(0.5)"] for s in sig]
        dec = bool(np.all(np.diff(ratio) < 0))
        ev = "W/T_IH(0.5) = " + ", ".join(f"{r:.3g}" for r in ratio) + f" for sigma = {list(sig)}"
        v_ratio = (holds("monotone ratio", ev + " (strictly decreasing; with T_IH(0.5) linear in log(1/sigma), "
                         "see t55-plateau, and W sigma-independent it tends to 0 like 1/log(1/sigma))", ratio=ratio)
                   if dec else refuted("monotone ratio", ev, {"sigma": list(sig), "ratio": ratio}))
        parts[f"alpha={a2},w={w2},L={L2}"] = tv.with_fixed(combine({
            "W vs sigma": check_rate(sig, Wd, 0.0, 0.15, ctx.seed, param="sigma", what="W", constant="hidden"),
            "W/T_IH(0.5) decreasing": v_ratio}), alpha=a2, w=w2, L=L2)
    if not p["Ls"]:
        return combine(parts)
    Ls, alphas, ws = tuple(p["Ls"]), tuple(p["alphas"]), tuple(p["ws"])
    Wl = [ih_run(a, w, x, 1e-3)[1]["W"] for x in Ls]
    Wa = [ih_run(x, w, L, 1e-3)[1]["W"] for x in alphas]
    Ww = [ih_run(a, x, L, 1e-3)[1]["W"] for x in ws]
    parts["N"] = check_rate(np.array(Ls) - 2, Wl, 1.0, 0.15, ctx.seed, param="N", what="W", fixed={"alpha": a, "w": w},
                            constant="hidden", declared={"L": list(Ls)})
    parts["1-alpha*"] = check_rate(1 - np.array(alphas), Wa, -2.0, 0.15, ctx.seed, param="1-alpha*", what="W",
                                   fixed={"w": w, "L": L}, constant="hidden", declared={"alpha": list(alphas)})
    v = combine(parts)
    wfit = fit_power_law(ws, Ww, ctx.seed)
    return v.__class__(v.status, v.method, v.evidence + f"; W vs w*: exponent {wfit.exponent:.3g} (no derived "
                       "power law; reported)", v.counterexample, {**v.details, "W_w": Ww, "w_exponent": wfit.exponent})


# --- IH-T55-timescale -----------------------------------------------------------------------------------

def taylor_coefficients(expr, s, order: int, simplify=sp.expand):
    """[f(0), f'(0), f''(0)/2, …] up to ``order`` by differentiation (cheaper than sp.series here)."""
    out, d = [], expr
    for j in range(order + 1):
        out.append(simplify(d.subs(s, 0) / sp.factorial(j)))
        d = sp.diff(d, s)
    return out


def init_speed_series(L: int = 6):
    """Symbolic Taylor coefficients in σ of dp/dt and dw_K/dt at RC-11 init (p = v1 = w_K = w_Q = v2 = σ),
    from the SymPy losses of head1 (concrete L) and head2 (general N := L-2)."""
    s = sp.Symbol("sigma", positive=True)
    dp = -sp.diff(head1.loss_g4_sym(L), head1.p).subs({head1.p: s, head1.v1: s})
    dk = sp.diff(head2.loss_ih_sym(), head2.k)
    dwK = -(dk * head2.wQ).subs({head2.k: s**2, head2.v2: s, head2.wQ: s, head2.N: L - 2})
    return s, taylor_coefficients(dp, s, 1), taylor_coefficients(dwK, s, 2, sp.simplify)


def leading_order(coeffs) -> int:
    return next((j for j, c in enumerate(coeffs) if c != 0), len(coeffs))


@CLAIMS.add("t55-timescale", location="§5.2 driver 1 (time-scale separation); R2 reviewer item", kind=Kind.RATE,
            catalogue_id="IH-T55-timescale",
            statement="DP is quadratic in w_KQ (slow), RPE linear in p (fast); with small init this separation "
                      "yields the σ-dependent plateau term. Derived at init: dp/dt = α* π_1'(0) σ + O(σ²), "
                      "dw_KQ/dt = (1-α*) G'(w*) σ²/N + O(σ³), so |dw_KQ/dt|/|dp/dt| ∝ σ (|dk/dt|/|dp/dt| ∝ σ²). "
                      "Full profile (reviewer check R2): with a quadratic positional route (p = p_a p_b, both from σ) "
                      "Phase I picks up a log(1/σ) term and the plateau/Phase-I ratio stops growing with log(1/σ); "
                      "with the linear RPE route T_G4 is σ-independent for σ << 1/L and the ratio grows like log(1/σ). "
                      "The quick part could hardly fail: under RC-8/RC-11 (DP = w_K w_Q, every parameter = σ at init) "
                      "the σ-orders at init follow from the parametrisation; the full profile's reviewer route is the "
                      "test with content (every admissible α*, w*, long L for the init ratio)."
                      + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-8, RC-9, RC-10, RC-11, RC-12, RC-13, RC-17, RC-19).",
            choices=choices(reading="w_KQ := w_K = w_Q (balanced, Lemma 5.4 reading); series at concrete L = 6 "
                                    "(symbolic), numeric ratio at t = 0+ for sigma in {1e-1,...,1e-6} at L = 100",
                            grid="sigma in {1e-1,...,1e-6} at the seven (alpha*, w*, L) of t55-plateau",
                            variant_full="reviewer check (full profile): a quadratic positional route p = p_a p_b "
                                         "(absolute PE entering query and key), both factors initialised at sigma; base "
                                         "point (L = 100), sigma in {1e-2,...,1e-8}"),
            over=OVER_SECTION5, conditions=HYP.for_over(OVER_SECTION5),
            params={"reviewer_route": False},
            variants={"full": Variant(params={"reviewer_route": True}, tags={"slow"}, id="t55-timescale-full")})
def t55_timescale(ctx):
    if ctx.params["reviewer_route"]:
        # the full variant: the init check (every admissible alpha*, w*, L) and the reviewer route (base point)
        return combine({"init (series + ratio)": timescale_init(ctx),
                        "reviewer route": tv.with_fixed(reviewer_route(ctx), alpha=BASE["alpha"], w=BASE["w"],
                                                        L=BASE["L"])})
    return timescale_init(ctx)


def timescale_init(ctx):
    s, dp_c, dw_c = init_speed_series()
    lead_p, lead_w = leading_order(dp_c), leading_order(dw_c)
    ev = (f"leading orders: dp/dt = ({dp_c[lead_p]}) sigma^{lead_p} + ..., dw_KQ/dt = ({dw_c[lead_w]}) "
          f"sigma^{lead_w} + ... (SymPy Taylor coefficients, L = 6, N = 4)")
    v_sym = (holds("SymPy series at init", ev, dp=[str(c) for c in dp_c], dwKQ=[str(c) for c in dw_c])
             if (lead_p, lead_w) == (1, 2)
             else refuted("SymPy series at init", ev, {"lead_p": lead_p, "lead_wKQ": lead_w}))
    # re-audit (issue 17): the numeric ratio at the seven (alpha*, w*, L) of t55-plateau (it was the base point only)
    sig = np.array([1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6])
    parts = {"series": v_sym}
    for a, w, L in SWEEP_CONFIGS:
        ratio = []
        for x in sig:
            gp, _ = head1.grad_g4(x, x, a, L)
            dK, _, _ = head2.field(x, x, x, a, w, L)
            ratio.append(abs(float(dK)) / abs(float(gp)))
        parts[f"ratio at init alpha={a},w={w},L={L}"] = tv.with_fixed(
            check_rate(sig, ratio, 1.0, 0.15, ctx.seed, param="sigma", what="|dw_KQ/dt|/|dp/dt| at t=0+",
                       constant="hidden"),
            alpha=a, w=w, L=L)
    return combine(parts)


def reviewer_route(ctx):
    """R2: with a quadratic positional route Phase I picks up a log(1/σ) term and the plateau/Phase-I ratio stops
    growing with log(1/σ); with the linear RPE route T_G4 is σ-independent for σ << 1/L."""
    a, w, L = BASE["alpha"], BASE["w"], BASE["L"]
    sig = np.array([1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8])
    Tp = np.array([ih_run(a, w, L, s)[1]["T_IH(0.5)"] for s in sig])
    T1 = np.array([g4_run(a, L, s)[1]["T_G4(0.1)"] for s in sig])
    Tq = np.array([g4_run(a, L, s, "quadratic")[1]["T_G4(0.1)"] for s in sig])
    x = np.log(1 / sig)
    slope = lambda y: float(np.polyfit(x, y, 1)[0])  # noqa: E731
    local_q = np.diff(Tq) / np.diff(x)
    cq = 2.0 / a**2  # derived: p = p_a p_b grows like e^{a^2 t} from sigma^2 once v1 ~ a
    det = {"sigma": sig.tolist(), "T_IH(0.5)": Tp.tolist(), "T_G4(0.1) rpe": T1.tolist(),
           "T_G4(0.1) quadratic": Tq.tolist(), "dT_G4/dlog(1/s) rpe": slope(T1),
           "local dT_G4/dlog(1/s) quadratic": local_q.tolist(), "derived quadratic coefficient 2/alpha^2": cq,
           "ratio rpe": (Tp / T1).tolist(), "ratio quadratic": (Tp / Tq).tolist(),
           "derived quadratic ratio limit c_sigma alpha^2/2": flow.plateau_log_coefficient(a, w, L) * a**2 / 2}
    ev = (f"dT_G4(0.1)/dlog(1/sigma): linear RPE {slope(T1):.3g} (derived 0 for sigma << 1/L), quadratic route "
          f"local {local_q[0]:.3g} -> {local_q[-1]:.3g} (derived 2/alpha*^2 = {cq:.3g}); plateau/Phase-I ratio "
          f"{Tp[0] / T1[0]:.3g} -> {Tp[-1] / T1[-1]:.3g} (RPE, grows like log(1/sigma)) vs {Tp[0] / Tq[0]:.3g} -> "
          f"{Tp[-1] / Tq[-1]:.3g} (quadratic, bounded by c_sigma alpha*^2/2 = {det['derived quadratic ratio limit c_sigma alpha^2/2']:.3g}): "
          "the separation persists through the proportion driver (N/(1-alpha*)^2) but loses its log(1/sigma) growth")
    # across Phase I: max over [0, T_G4(0.1)] of |dw_KQ/dt| / |dp/dt| on full Stage-II runs (derived ∝ sigma)
    sig6 = sig[:5]
    across = []
    for s_ in sig6:
        tr = flow.cached_stage2(a, w, L, float(s_), 60.0, heads="both", n_points=600)
        m = tr.t <= g4_run(a, L, float(s_))[1]["T_G4(0.1)"]
        across.append(float(np.max(np.abs(tr.velocity("wK")[m]) / np.abs(tr.velocity("p")[m]))))
    v_across = check_rate(sig6, across, 1.0, 0.15, ctx.seed, param="sigma", what="max_PhaseI |dw_KQ/dt|/|dp/dt|",
                          constant="hidden")
    det["across Phase I"] = v_across.to_json()
    ev += f"; across Phase I max |dw_KQ/dt|/|dp/dt| ~ sigma^{v_across.details['fit']['exponent']:.3g} (derived 1)"
    ok = v_across.holds and abs(slope(T1)) < 0.05 * cq and abs(local_q[-1] / cq - 1) < 0.25 and np.all(np.diff(local_q) < 0) \
        and Tp[-1] / Tq[-1] < det["derived quadratic ratio limit c_sigma alpha^2/2"] and (Tp / T1)[-1] > 2 * (Tp / T1)[0]
    return holds("reduced-ODE variant sweep", ev, **det) if ok else inconclusive("reduced-ODE variant sweep", ev, **det)


# --- IH-T55-conv-IH -------------------------------------------------------------------------------------

def conv_ih_symbolic():
    """Jacobian of the balanced (u, v2) flow at (√w, β), symbolic: J = −diag(½,1) Hess L̃; its trace/det."""
    u, V = sp.symbols("u v", positive=True)
    Li = head2.loss_ih_sym().subs({head2.k: u**2, head2.v2: V})
    H = sp.hessian(Li, (u, V)).subs({u: sp.sqrt(head2.w), V: 1 - head2.alpha})
    J = -sp.diag(sp.Rational(1, 2), 1) * H
    return J, (head2.alpha, head2.w, head2.N)


def conv_ih_verdict(alpha, w, L, sigma, seed, factor=1.0, rel=0.02):
    tr, mk = ih_run(alpha, w, L, sigma)
    P = mk["P_IH"]
    y = tr.L_IH
    m = (tr.t > mk["T_IH(0.1)"]) & (y < 1e-4 * P) & (y > 1e-11 * P)
    slope = -float(np.polyfit(tr.t[m], np.log(y[m]), 1)[0])
    pred = factor * flow.conv_rate_ih(alpha, w, L)
    cfg = dict(alpha=alpha, w=w, L=L, sigma=sigma)
    ev = (f"L={L}: tail log-slope of L_IH {slope:.6g} over {m.sum()} samples (L_IH/P_IH in [1e-11, 1e-4]); "
          f"derived 2 mu_min = {pred:.6g}; ratio {slope / pred:.4f}")
    keep = np.flatnonzero(m)[:: max(1, int(m.sum()) // 40)]  # the tail window the fit used (thinned for the record)
    grad = float(np.hypot(tr.velocity("k")[-1], tr.velocity("v2")[-1]))
    conv = tv.diagnose(y, optimum=0.0, tol=1e-9 * float(y[0]), steps=tr.t, grad_norm=grad, grad_tol=1e-8)
    conv["distance_to_fixed_point"] = float(np.hypot(tr.k[-1] - w, tr["v2"][-1] - (1 - alpha)))
    record = {"sweep": sweep_details("t", tr.t[keep], y[keep] / P, fixed=cfg),
              "fit": {"family": "exp-linear", "law": "L_IH/P_IH ≈ C·exp(b·t)", "exponent": -slope,
                      "predicted_exponent": -pred},
              "convergence": conv}
    if abs(slope / pred - 1) <= rel:
        return holds("tail fit", ev, slope=slope, predicted=pred, **cfg, **record)
    return refuted("tail fit", ev, {**cfg, "slope": slope, "predicted": pred, "tol": rel}, slope=slope, predicted=pred,
                   **record)


@CLAIMS.add("t55-conv-IH", location="Thm 5.5 Phase IV; App. C.2 Step II.2 Eq. (30)", kind=Kind.RATE,
            catalogue_id="IH-T55-conv-IH",
            statement="Phase IV: L_IH converges exponentially (rate lost; every admissible α*, w*, long L). Derived: "
                      "L_IH ∝ e^{-2 μ t}, μ = the slowest eigenvalue of -J, J the Jacobian of the balanced (w_KQ, v2) "
                      "flow at (√w*, 1-α*); the runs converge to that fixed point (diagnostics: final L_IH, gradient "
                      "norm, distance to (w*, 1-α*))."
                      # referee 16: say in plain words which loss the runs use (as t55-plateau does)
                      + " The runs integrate the flow of the approximated loss (22) of App. C.2 (RC-12: the softmax "
                        "simplification the proof uses), not the exact objective (11), on which no Phase-IV run is made."
                      + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-8, RC-9, RC-10, RC-11, RC-12, RC-13, RC-17, RC-19).",
            over=OVER_SECTION5, conditions=HYP.for_over(OVER_SECTION5), converges=True,
            choices=choices(reading="rate of the loss = 2 x parameter-distance rate",
                            grid="the seven (alpha*, w*, L) of t55-plateau (L in {25, 100, 400}), sigma = 1e-3; rate "
                                 "within 2%; converged: final L_IH <= 1e-9 L_IH(0), |(dk/dt, dv2/dt)| <= 1e-8"))
def t55_conv_ih(ctx):
    # re-audit (issue 17): the seven (alpha*, w*, L) of t55-plateau (it was the base alpha*, w* at L in {50, 100, 200}),
    # the symbolic Jacobian at each, and convergence diagnostics on every run
    J, (al, ww, NN) = conv_ih_symbolic()
    parts = {}
    for a, w, L in SWEEP_CONFIGS:
        Jn = np.array(J.subs({al: a, ww: w, NN: L - 2}).evalf(), dtype=float)
        agree = np.allclose(Jn, flow.fixed_point_jacobian(a, w, L), rtol=1e-12, atol=0)
        ev_ = np.linalg.eigvals(Jn).real
        tr_det = {"J": Jn.tolist(), "eigenvalues": ev_.tolist()}
        v_sym = (holds("SymPy Jacobian == numeric Jacobian", f"symbolic J matches flow.fixed_point_jacobian; "
                       f"eigenvalues {ev_[0]:.4g}, {ev_[1]:.4g} (both < 0: stable node)", **tr_det)
                 if agree and np.all(ev_ < 0) else
                 refuted("SymPy Jacobian == numeric Jacobian", "mismatch or not a stable node",
                         {"alpha": a, "w": w, "L": L, "symbolic": Jn.tolist()}))
        parts[f"alpha={a},w={w},L={L}"] = tv.with_fixed(combine({"symbolic": v_sym,
                                                                  "run": conv_ih_verdict(a, w, L, 1e-3, ctx.seed)}),
                                                         alpha=a, w=w, L=L)
    # referee P1 (s36): the 'could have failed' record of this main pass
    return attach(combine(parts, method="Phase IV of head 2:"), CouldHaveFailed(
        "planted twin", "the parameter-distance rate μ in place of the loss rate 2μ (factor 0.5) is refuted by the "
        "same tail fit (tests/inductionheads/test_phases.py::test_conv_ih_factor_two_is_refuted); the rate is tested "
        "within 2 % and convergence by diagnostics on every run"))


# --- exact softmax: full-batch GD on a fixed Gaussian sample (torch_model.train), spec IH-T55-plateau / IH-C2-lin -

#: the sigma grid of t55-plateau-exact-full: GD["sigmas"] plus 1e-5 (re-audit, issue 17: with three sigmas the rate
#: verdict had too few grid points for the evidence standard; four span 3 decades)
EXACT_SIGMAS = (*GD["sigmas"], 1e-5)


def _coef(rows, key="T_IH(0.5)", sigmas=EXACT_SIGMAS) -> np.ndarray:
    """Per seed: least-squares slope of rows' ``key`` against log(1/sigma)."""
    x = np.log(1 / np.asarray(sigmas))
    return np.array([np.polyfit(x, [q[key] for q in r], 1)[0] for r in rows])


def exact_dk_mc(L: int, seed: int, n: int = 20000, reps: int = 4, eps: float = 1e-4) -> tuple[float, float]:
    """Monte Carlo of N·∂L_IH/∂k under the exact softmax at k = ε² → 0, v2 = 1 − α* (torch autograd of
    torch_model.losses, ∂L/∂k = (∂L/∂w_K)/w_Q): mean and standard error over ``reps`` samples."""
    import torch  # noqa: PLC0415

    a, w = BASE["alpha"], BASE["w"]
    vals = []
    for r in range(reps):
        X = TM.sample(n, L, seed=seed + r)
        p0 = TM.init(eps)
        wK = torch.tensor(eps, dtype=torch.float64, requires_grad=True)
        p = TM.Params(p0.p1, p0.p21, p0.v1, wK, p0.wQ, torch.tensor(1 - a, dtype=torch.float64))
        _, li = TM.losses(X, p, a, w, softmax="exact")
        (g,) = torch.autograd.grad(li, [wK])
        vals.append(float(g) / eps * (L - 2))
    return float(np.mean(vals)), float(np.std(vals, ddof=1) / math.sqrt(reps))


def exact_rate_verdict(seed: int, Ls=(27, 52, 202), factor: float = 1.0) -> Verdict:
    """The large-N exact-softmax growth law λ_exact = 2β²w/N ⇔ N·∂L_IH/∂k → −β² w at k → 0, v2 = β
    (flow.growth_rate_exact): the MC deviation must shrink with N and be within max(5%, 3 SE) at the
    largest N; refuted if it is off by more than 10% there (``factor``: planted-error tests)."""
    a, w = BASE["alpha"], BASE["w"]
    pred = -((1 - a) ** 2) * w * factor
    rows = {L: exact_dk_mc(L, seed) for L in Ls}
    dev = {L: m / pred - 1 for L, (m, _) in rows.items()}
    mL, seL = rows[Ls[-1]]
    ok_trend = all(abs(dev[x]) >= abs(dev[y]) - 3 * rows[y][1] / abs(pred) for x, y in zip(Ls[:-1], Ls[1:]))
    ev = ("N dL_IH/dk at k->0, v2 = 1-a* (exact softmax, MC 4 x 20000 sequences): " +
          ", ".join(f"L={L}: {m:.5g} +- {se:.2g}" for L, (m, se) in rows.items()) +
          f" vs derived large-N -(1-a*)^2 w* = {pred:.5g}; relative deviation " +
          ", ".join(f"{d:+.3f}" for d in dev.values()))
    det = {"mc": {str(L): list(v) for L, v in rows.items()}, "predicted": pred, "deviation": dev}
    if ok_trend and abs(mL - pred) <= max(0.05 * abs(pred), 3 * seL):
        return holds("MC of the exact-softmax gradient (torch autograd)", ev, **det)
    if abs(mL - pred) > max(0.1 * abs(pred), 3 * seL):
        return refuted("MC of the exact-softmax gradient", ev, {"L": Ls[-1], "mc": mL, "se": seL, "predicted": pred},
                       **det)
    return inconclusive("MC of the exact-softmax gradient", ev, **det)


@CLAIMS.add("t55-plateau-exact-full", location="Thm 5.5 Phases I-III; App. C.2 technical simplification; C.3",
            kind=Kind.RATE, catalogue_id="IH-T55-plateau", tags={"slow"},
            statement="Exact-softmax confirmation (spec IH-T55-plateau / IH-C2-lin): full-batch GD on fixed "
                      "Gaussian samples, with RC-12 and with the exact softmax (paired samples). (a) RC-12 GD "
                      "reproduces the derived log(1/sigma) coefficient c_sigma (MC rule: within max(5%, 3 SE over "
                      "samples)); (b) under the exact softmax T_IH(0.5) stays linear in log(1/sigma) (increments per "
                      "e-fold agree within 5%); (c) the exact/RC-12 coefficient ratio matches the derived large-N exact-softmax law "
                      "1/(1-w*^2)^2 (MC rule); (d) the derived large-N exact-softmax growth rate 2(1-a*)^2 w*/N, via "
                      "an MC of the exact gradient at k -> 0 for L in {27, 52, 202}; other markers' differences "
                      "are reported.",
            choices=choices(grid="L = 25, alpha* = 0.5, w* = 0.3, sigma in {1e-2, 1e-3, 1e-4, 1e-5}; 3 samples of 4000 "
                                 "sequences (seeds = claim seed + i), GD step 1.0 (t = step), record every 5 steps",
                            reading="RC-12 GD on a finite sample differs from the expectation by sampling error in "
                                    "heavy-tailed moments (E x^2 z e^{wz}); exact-vs-RC-12 is compared per sample"))
def t55_plateau_exact_full(ctx):
    c = flow.plateau_log_coefficient(BASE["alpha"], BASE["w"], GD["L"])
    seed = ctx.seed % 2**31
    rc, ex = (gd_sweep_L(sm, seed, GD["L"], EXACT_SIGMAS, GD["n"]) for sm in ("rc12", "exact"))
    c_rc, c_ex = _coef(rc), _coef(ex)
    se = float(np.std(c_rc, ddof=1) / math.sqrt(len(c_rc)))
    tol = max(0.05 * c, 3 * se)
    ev = (f"RC-12 GD coefficient {c_rc.mean():.4g} +- {se:.2g} (SE, {len(c_rc)} samples) vs derived c_sigma = {c:.4g} "
          f"(tolerance {tol:.3g})")
    det = {"c_sigma": c, "coef_rc12": c_rc.tolist(), "coef_exact": c_ex.tolist(), "se_rc12": se}
    parts = {"rc12 GD vs derivation": holds("MC comparison", ev, **det) if abs(c_rc.mean() - c) <= tol else
             refuted("MC comparison", ev, {"coef_rc12": c_rc.tolist(), "c_sigma": c, "tolerance": tol}, **det)}
    x = np.log(1 / np.asarray(EXACT_SIGMAS))
    inc = [np.diff([q["T_IH(0.5)"] for q in r]) / np.diff(x) for r in ex]
    spread = max(abs(i[-1] / i[0] - 1) for i in inc)
    ratio = c_ex / c_rc
    ev2 = (f"exact softmax: T_IH(0.5) increments per e-fold of 1/sigma agree within {spread:.2%}; coefficient "
           f"{c_ex.mean():.4g} = {ratio.mean():.4f} x the paired RC-12 GD coefficient (+-{np.std(ratio, ddof=1):.2g})")
    parts["exact softmax: linear in log(1/sigma)"] = (
        holds("paired GD runs", ev2, increments=[i.tolist() for i in inc], ratio=ratio.tolist()) if spread <= 0.05
        else refuted("paired GD runs", ev2, {"increments": [i.tolist() for i in inc]}))
    # the exact softmax's own large-N law (flow.plateau_log_coefficient_exact): ratio to RC-12 = 1/(1-w*^2)^2
    pred = flow.plateau_log_coefficient_exact(BASE["alpha"], BASE["w"], GD["L"]) / c
    se_r = float(np.std(ratio, ddof=1) / math.sqrt(len(ratio)))
    tol_r = max(0.05 * pred, 3 * se_r)
    ev3 = (f"paired ratio exact/RC-12 coefficient {ratio.mean():.4f} +- {se_r:.2g} (SE) vs derived large-N "
           f"1/(1-w*^2)^2 = {pred:.4f} (tolerance {tol_r:.3g})")
    parts["exact softmax vs its large-N derivation"] = (
        holds("MC comparison", ev3, ratio=ratio.tolist(), predicted=pred) if abs(ratio.mean() - pred) <= tol_r else
        refuted("MC comparison", ev3, {"ratio": ratio.tolist(), "predicted": pred, "tolerance": tol_r}))
    g_ex = np.array([q["growth_slope"] for r in ex for q in r])
    lam_ex = flow.growth_rate_exact(BASE["alpha"], BASE["w"], GD["L"])
    det["GD exact growth slope / lambda_exact (L=25)"] = float(g_ex.mean() / lam_ex)
    parts["exact softmax: growth rate (MC gradient, N trend)"] = exact_rate_verdict(seed)
    keys = ("T_G4(0.1)", "P_IH", "T_IH(0.5)", "W", "T_turn", "growth_slope", "L_IH(T_I)/L_IH(0)")
    diff = {key: float(np.mean([[e[key] / r[key] - 1 for e, r in zip(es, rs)] for es, rs in zip(ex, rc)]))
            for key in keys}
    p1 = {sm: [{k2: q[k2] for k2 in q if k2.startswith("P1")} for r in rows for q in r]
          for sm, rows in (("rc12", rc), ("exact", ex))}
    det["P1 facts (GD)"] = p1
    v = combine(parts)
    sweep = tv.sweep_details("sigma", EXACT_SIGMAS, np.mean([[q["T_IH(0.5)"] for q in r] for r in ex], axis=0),
                             fixed={"alpha": BASE["alpha"], "w": BASE["w"], "L": GD["L"], "softmax": "exact"})
    return v.__class__(v.status, v.method, v.evidence + "; exact/RC-12 - 1 (paired, mean over runs): " +
                       ", ".join(f"{k2} {d:+.3f}" for k2, d in diff.items()), v.counterexample,
                       {**v.details, "exact_vs_rc12_relative": diff, "rows_rc12": rc, "rows_exact": ex, **det,
                        "sweep": sweep})
