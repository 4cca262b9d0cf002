"""Appendix D, the useful inequalities: Lemma D.1 (softmax Lipschitz, recovered from the cited source), Lemma D.2
(exponential sums approximating the delta kernel; Wang & E 2024 Lemma E.1), Lemmas D.3/D.4 (the Gaussian identities
the explicit losses (19) and (22) need; contents lost) and Def. D.5 / Lemma D.6 (weighted Karamata; conditions
lost, readings searched).  Check functions take the constant / reading under test so the tests can plant an error
and see the same search refute it.

Lemma D.2, recovered statement (R7): the stored ar5iv copy of arXiv 2402.00522 is in the page index but only its
opening is retrievable (search tool, ≤ 10 min, 2026-11-22); the text of its Lemma E.1 was NOT found.  What survives
of D.2 in our paper: "For any […], […], there exists an absolute constant only depending on […] and a […] such that
[…] where […] holds for any […]".  Tested reading (RC-15): for all T, q there are C(T, q) and
φ_m(t) = Σ_{k≤m} α_k e^{-β_k(t-1)} with 0 < β_k ≤ b_max such that ‖δ_T − φ_m‖_{ℓ1(N)} ≤ C(T, q) m^{-q}.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import sympy as sp
from hypothesis import strategies as st

from theoryverify import (ClaimSet, Domain, Finding, Interval, Kind, Readings, Status, Variant, Verdict, check_identity,
                          combine, holds,
                          inconclusive, proved, refuted, search)

from ..experiments.support import fmt_signed
from ..experiments.sweeps import cached, superpoly_verdict
from ..model import gauss as G
from ..model import lemmas_d as D
from ..model.kernels import KernelFit, fit_delta
from ..model.recon import DEFAULTS as RC_DEFAULTS, record

CLAIMS = ClaimSet("inductionheads")
CONSTANT_GRID = (2.0, 1.5, 1.2, 1.0, 0.999, 0.99, 0.9, 0.5)


def _rc(*ids: str, **extra: str) -> dict[str, str]:
    return {**record(*ids), **extra}


# ======================================================================================================
# IH-LD1-lip
# ======================================================================================================

def _lip_strategy():
    def build(d, base, direction, logt, split, scale):
        x = np.asarray(base[:d], float) * scale
        v = np.asarray(direction[:d], float)
        if split:
            x = np.full(d, x[0])
            v = np.where(v >= 0, 1.0, -1.0)
        if np.abs(v).max() == 0:
            v[0] = 1.0
        return x, x + 10 ** logt * v / np.abs(v).max()
    floats = st.floats(-1, 1, allow_nan=False)
    return st.builds(build, st.integers(2, 50), st.lists(floats, min_size=50, max_size=50),
                     st.lists(floats, min_size=50, max_size=50), st.floats(-6, 1.5), st.booleans(),
                     st.sampled_from([1.0, 10.0, 100.0, 1000.0]))


def sharp_constant_sympy() -> sp.Expr:
    """max_{q ∈ [0,1]} 4q(1-q): the ∞→1 norm of the softmax Jacobian at a ±1 direction (module docstring)."""
    q = sp.Symbol("q", real=True)
    g = 4 * q * (1 - q)
    crit = [c for c in sp.solve(sp.diff(g, q), q) if 0 <= c <= 1]
    return sp.Max(*[g.subs(q, c) for c in crit + [0, 1]])


def lip_check(seed: int, constant: float = D.CITED_CONSTANT, n_draws: int = 10_000, hyp_examples: int = 150) -> Verdict:
    """Lemma D.1 with ``constant``: ratio ‖σ(x)−σ(y)‖_1/‖x−y‖_∞ ≤ constant over n_draws structured random pairs
    (dim 2–50, near ties, norms up to 1e3, balanced splits) + a Hypothesis search with target(); float64
    candidate violations are confirmed in 50-digit arithmetic.  Reports the sup ratio and the smallest
    constant of CONSTANT_GRID the search does not refute."""
    rng = np.random.default_rng(seed)
    best = {"ratio": -1.0}
    total = 0
    cands = []
    for X, Y in D.lip_draws(rng, n_draws):
        total += len(X)
        r = D.lip_ratio(X, Y)
        r = np.where(np.isfinite(r), r, -1.0)
        i = int(np.argmax(r))
        cands.append((float(r[i]), X[i], Y[i]))
    for _, x, y in sorted(cands, key=lambda c: -c[0])[:5]:   # confirm the largest float64 ratios in 50 digits
        rm = D.lip_ratio_mp(x, y)
        if rm > best["ratio"]:
            best = {"ratio": rm, "x": x.tolist(), "y": y.tolist(), "dim": len(x)}
    n_draws = total

    def score(pair):
        return float(D.lip_ratio(*pair)) - constant

    if best["ratio"] > constant * (1 + 1e-12) or hyp_examples <= 0:   # the draws already refute
        res = None
    else:
        res = search(_lip_strategy(), score, fails=lambda s: s > 1e-12 * constant, seed=seed,
                     max_examples=hyp_examples)
    found = [] if res is None else res.top + ([(res.failure_score, res.failure)] if res.failure is not None else [])
    for s, pair in found:
        r = D.lip_ratio_mp(*pair)
        if r > best["ratio"]:
            best = {"ratio": r, "x": pair[0].tolist(), "y": pair[1].tolist(), "dim": len(pair[0])}
    sup = best["ratio"]
    unrefuted = [c for c in CONSTANT_GRID if sup <= c * (1 + 1e-12)]
    details = {"sup_ratio": sup, "n_draws": n_draws, "hypothesis_examples": res.tried if res else 0,
               "smallest_unrefuted_constant_on_grid": min(unrefuted) if unrefuted else None,
               "constant_grid": list(CONSTANT_GRID), "derived_sharp_constant": str(sharp_constant_sympy()),
               "statement": D.LEMMA_D1}
    if sup > constant * (1 + 1e-12):
        return refuted("structured draws + Hypothesis, 50-digit confirmation",
                       f"ratio {sup:.12g} > constant {constant:g}", {**best, "constant": constant}, **details)
    return holds("structured draws + Hypothesis, 50-digit confirmation",
                 f"no violation of constant {constant:g} over {n_draws} draws + {details['hypothesis_examples']} "
                 f"Hypothesis examples; "
                 f"sup ratio {sup:.15g}; smallest unrefuted grid constant {details['smallest_unrefuted_constant_on_grid']}"
                 f" (derived sharp constant {details['derived_sharp_constant']})", **details)


def sharpness_witness(t: float = 1e-4, d: int = 2) -> float:
    """50-digit ratio at x = 0, y = t·(1, −1, 1, −1, …): tends to the sharp constant 1 as t → 0."""
    x = np.zeros(d)
    y = t * np.array([(-1.0) ** i for i in range(d)])
    return D.lip_ratio_mp(x, y)


@CLAIMS.add("ld1-lip", location="Lemma D.1 (App. D), cited from Edelman et al. 2022; used in App. A.1",
            kind=Kind.INEQUALITY, catalogue_id="IH-LD1-lip",
            statement="Lemma D.1 (recovered): ||softmax(x) - softmax(y)||_1 <= 2 ||x - y||_inf for all x, y in R^d. "
                      "Also reported: the sup of the ratio and the smallest constant the search does not refute "
                      "(derived sharp constant: 1)."
                      + ' (A recovered, cited statement: no reconstruction choice enters.)',
            choices=_rc("RC-18", source="statement as quoted verbatim (Lemma G.1, 'Corollary A.7 in Edelman et al. "
                        "(2022)') in Zhang et al., LightTransfer, TMLR (OpenReview kne4vWICr0); the original "
                        "arXiv 2110.10090 text is not in the store",
                        search="quick: 1e4 structured draws + 60 Hypothesis examples; full: 5e4 + 1000; (dim 2-50, near ties, norms to 1e3, t in [1e-6, 30]) + "
                               "Hypothesis target(); candidates confirmed at 50 digits"),
            params={"n_draws": 10_000, "hyp_examples": 60},
            variants={"full": Variant(params={"n_draws": 50_000, "hyp_examples": 1000})})
def ld1_lip(ctx) -> Verdict:
    v = lip_check(ctx.seed, n_draws=ctx.params["n_draws"], hyp_examples=ctx.params["hyp_examples"])
    sharp = sharp_constant_sympy()
    w = sharpness_witness()
    part_sharp = (proved("SymPy: max 4q(1-q) on [0,1]", f"sharp constant = {sharp}; witness ratio at t = 1e-4: {w:.9f}",
                         witness=w)
                  if sharp == 1 and 0.999 < w < 1 else
                  refuted("SymPy", f"sharp-constant derivation inconsistent: {sharp}, witness {w}",
                          {"sharp": str(sharp), "witness": w}))
    out = combine({"Lemma D.1 (constant 2)": v, "derived sharp constant 1": part_sharp})
    from dataclasses import replace
    return replace(out, details={**out.details, **{k: v.details[k] for k in
                                                   ("sup_ratio", "smallest_unrefuted_constant_on_grid",
                                                    "derived_sharp_constant", "statement")}})


# ======================================================================================================
# IH-LD2-kernel
# ======================================================================================================

LEMMA_SOURCE = ("Lemma E.1 of Wang & E 2024 (arXiv 2402.00522): NOT recovered — the stored ar5iv page returns "
                "only its opening through the search tool; the statement tested is the RC-15 reading")
LD2_CHOICES = {
    **record("RC-15"),
    "reading": "for every q: ||delta_T - phi_m||_{l1(N)} <= C(T,q) m^{-q}, phi_m = sum_k alpha_k e^{-beta_k(t-1)}, "
               "0 < beta_k <= b_max",
    "recovered statement": LEMMA_SOURCE,
    "nodes": "beta_k = b_max k/m, k = 1..m",
    "coefficients": "exact l2(N) least squares (Gram 1/(1 - z_j z_k)), mpmath 60 digits",
    "l1 truncation": "sum over t <= t_max, t_max raised until the tail bound sum_k |alpha_k| z_k^t_max/(1-z_k) "
                     "<= 1e-6 of the sum; the bound is added to the reported error",
    "rate test": "q = 4: one-sided O((1/m)^4) fit on the 4 largest m (engine big_o rule, margin 0.15) + "
                 "local slopes keep steepening + power-vs-exponential law comparison (BIC)",
}

QUICK = {"T": (2, 3), "b_max": (2.0, 5.0), "m": tuple(range(2, 22))}
FULL = {"T": (1, 2, 3, 4), "b_max": (1.0, 2.0, 5.0), "m": tuple(range(2, 25))}
UNCONSTRAINED_BMAX = (10.0, 20.0, 40.0)


def curve_verdict(T: int, b_max: float, ms, errors, seed: int, q: float = 4.0, window: int = 4) -> Verdict:
    return superpoly_verdict({"T": T, "b_max": b_max}, ms, errors, seed, q, window)


def curve_rows(T: int, b: float, ms, shift: int = 0) -> list[dict]:
    """The fits of one (T, b_max) curve as JSON rows (l1 error, norms)."""
    rows = []
    for m in ms:
        f = fit_delta(T, m, b)
        e = f.l1 if not shift else shifted_l1(f, T + shift)
        rows.append({"m": f.m, "l1": e, "max|alpha|": f.max_abs_alpha, "max beta": max(f.beta), "t_max": f.t_max})
    return rows


def kernel_sweep(T_values, bmax_values, ms, seed: int, shift: int = 0, store_claim: str | None = None) -> Verdict:
    """The Lemma D.2 check over a (T, b_max) grid.  ``shift`` plants an index error: the error is measured
    against δ_{T+shift} while the fit targets δ_T (planted twin).  ``store_claim``: cache each curve in the
    results store under that claim id (full sweeps)."""
    parts, table = {}, {}
    for T in T_values:
        for b in bmax_values:
            compute = lambda T=T, b=b: curve_rows(T, b, ms, shift)
            rows = (cached(store_claim, {"T": T, "b_max": b, "ms": list(ms), "shift": shift}, compute)
                    if store_claim else compute())
            errs = [r["l1"] for r in rows]
            key = f"T={T}, b_max={b:g}"
            parts[key] = curve_verdict(T, b, ms, errs, seed)
            table[key] = rows
    v = combine(parts, method="Lemma D.2 sweep:")
    first = parts[next(iter(parts))]
    details = dict(v.details)
    details.update({"sweep": first.details.get("sweep"), "fit": first.details.get("fit"), "table": table})
    return type(v)(v.status, v.method, v.evidence, v.counterexample, details)


def shifted_l1(fit: KernelFit, T_other: int) -> float:
    """ℓ1 distance of the fitted φ_m to δ_{T_other} (planted index error)."""
    t = np.arange(1, fit.t_max + 1)
    phi = fit.values(t)
    return float(np.abs(phi - (t == T_other)).sum() + fit.tail_bound)


def unconstrained_table(T_values, ms, b_values=UNCONSTRAINED_BMAX) -> dict:
    """Rerun with the slope bound lifted (b_max → large): error and parameter norms (RC-15 alternative)."""
    out = {}
    for T in T_values:
        for b in b_values:
            out[f"T={T}, b_max={b:g}"] = [{"m": m, "l1": (f := fit_delta(T, m, b)).l1,
                                           "max|alpha|": f.max_abs_alpha, "sum|alpha|": f.alpha_l1,
                                           "max beta": max(f.beta)} for m in ms]
    return out


@CLAIMS.add("ld2-kernel", location="Lemma D.2, App. D (from Wang & E 2024)", kind=Kind.RATE,
            catalogue_id="IH-LD2-kernel",
            statement="δ_{t=T} on N is approximated in ℓ1(N) by m exponentials e^{-β_k(t-1)} (β_k ≤ b_max) at rate "
                      "m^{-q} for every q (PROSE-ONLY statement; verdict on the RC-15 reading). Quick grid T∈{2,3}, "
                      "b_max∈{2,5}, m=2..21; unconstrained-β rerun reported with norms. Full profile: T∈{1,2,3,4}, "
                      "b_max∈{1,2,5}, m=2..24, with the unconstrained rerun for T∈{1,2,3}.",
            choices=LD2_CHOICES,
            # re-audit (issue 17): the quick grid was m = 2..12 (0.78 decades of m: inconclusive by the span rule); m = 2..21
            # spans 1.02 decades in about 3 s
            params={"grid": QUICK, "unconstrained": ((2,), (2, 3, 4), (20.0, 40.0)), "store": None},
            variants={"full": Variant(params={"grid": FULL, "unconstrained": ((1, 2, 3), (1, 2, 3, 4, 6, 8),
                                                                              UNCONSTRAINED_BMAX),
                                              "store": "inductionheads.ld2-kernel-full"},
                                      expect=None, tags={"slow"}, id="ld2-kernel-full")})
def ld2_kernel(ctx):
    grid, sc = dict(ctx.params["grid"]), ctx.params["store"]
    uT, um, ub = (tuple(x) for x in ctx.params["unconstrained"])
    v = kernel_sweep(grid["T"], grid["b_max"], grid["m"], ctx.seed, store_claim=sc)
    details = dict(v.details)
    if sc:
        details["unconstrained (beta unbounded proxy)"] = cached(sc, {"part": "unconstrained"},
                                                                 lambda: unconstrained_table(uT, um))
    else:
        details["unconstrained (beta unbounded proxy)"] = unconstrained_table(uT, um, ub)
        details["unconstrained summary"] = (
            "with the slope bound lifted the error at m = T is already ~e^{-b_max}-small while max|alpha| grows like "
            "e^{b_max (T-1)}: the m^{-q} statement is only meaningful with beta (and hence alpha) bounded")
    return type(v)(v.status, v.method, v.evidence, v.counterexample, details)


# ======================================================================================================
# IH-LD3/LD4-gauss
# ======================================================================================================

#: The identities as the tool states them (reading of D.3 (i), D.3 (ii), D.4); planted twins replace these.
STATED = {
    "D.3(i)": sp.exp(G.b ** 2 / 2),
    "D.3(ii)": (1 - G.a) ** sp.Rational(-1, 2),
    "D.4": (1 - G.c ** 2) ** sp.Rational(-1, 2),
}
#: The stated hypothesis of D.4 as an interval of c.
STATED_D4_DOMAIN = sp.Interval.open(-1, 1)

DOMAINS = {
    "D.3(i)": Domain([Interval(G.b, -3.0, 3.0)]),
    "D.3(ii)": Domain([Interval(G.a, -3.0, 0.95)]),
    "D.4": Domain([Interval(G.c, -0.95, 0.95)]),
}
# MC points: inside the finite-variance region (|c| < 1/2, a < 1/2) so the SE is meaningful.
MC_POINTS = {"D.3(i)": (0.7, -1.2), "D.3(ii)": (0.3, -1.5), "D.4": (0.3, -0.4)}
MC_FUNCS = {"D.3(i)": (G.mc_exp_linear, G.b), "D.3(ii)": (G.mc_exp_quadratic, G.a), "D.4": (G.mc_bilinear, G.c)}

LD34_CHOICES = {**record("RC-2"), **{
    "reading": "D.3 (i) E e^{bx} = e^{b^2/2}; D.3 (ii) E e^{a x^2/2} = (1-a)^{-1/2}, a < 1; "
               "D.4: let |c| < 1, then E e^{cxz} = (1-c^2)^{-1/2} (x, z iid N(0,1))",
    "derivation": "SymPy integrate against the N(0,1) density with s = 1-2A > 0 declared positive; D.4 by "
                  "iterated expectation (z, then x); hypothesis = collected convergence condition",
    "MC": "n = 2e5 (quick) / 2e6 (full) per point, |c| < 1/2 and a < 1/2 (finite variance), rule max(1%, 3 SE)",
}}


def check_gauss(ctx, stated=None, stated_d4_domain=STATED_D4_DOMAIN, n_mc: int = 200_000) -> Verdict:
    """Derived (integrate) == stated for each identity; D.4's derived domain == stated hypothesis;
    divergence outside; Monte Carlo at fixed points."""
    stated = dict(STATED if stated is None else stated)
    derived = {"D.3(i)": G.d3_exp_linear()[0], "D.3(ii)": G.d3_exp_quadratic()[0], "D.4": G.d4_bilinear()[0]}
    parts: dict[str, Verdict] = {}
    for name, expr in derived.items():
        parts[f"{name} symbolic"] = check_identity(expr, stated[name], DOMAINS[name], ctx.seed, rtol=1e-10)
    dom = G.d4_domain()
    if dom == stated_d4_domain and G.divergent_when_not_positive():
        parts["D.4 hypothesis"] = proved("solveset of the collected convergence condition",
                                         f"E e^(cxz) finite iff c in {dom} (derived); divergent outside")
    else:
        parts["D.4 hypothesis"] = refuted("solveset of the collected convergence condition",
                                          f"derived domain {dom} != stated {stated_d4_domain}",
                                          {"derived": str(dom), "stated": str(stated_d4_domain)})
    rng = np.random.default_rng(ctx.seed)
    for name, pts in MC_POINTS.items():
        fn, sym = MC_FUNCS[name]
        f = sp.lambdify(sym, stated[name], "numpy")
        for x in pts:
            est, se = fn(x, n_mc, rng)
            parts[f"{name} MC at {sym}={x}"] = G.mc_verdict(f"{name} at {sym}={x}", est, se, float(f(x)), 0.01,
                                                           n_mc, **{str(sym): x})
    return combine(parts, method="D.3/D.4 identities:")


@CLAIMS.add("ld3-ld4-gauss", main=True,
            location="Lemmas D.3, D.4, App. D (used for Eqs. (19), (22))", kind=Kind.IDENTITY,
            catalogue_id="IH-LD3/LD4-gauss", choices=LD34_CHOICES,
            statement="Lemmas D.3/D.4 (contents lost; reading): D.3 E e^{bx} = e^{b²/2} and E e^{a x²/2} = "
                      "(1-a)^{-1/2} (a < 1); D.4 if |c| < 1 then E e^{cxz} = (1-c²)^{-1/2}; verdict on the "
                      "reconstruction.",
            params={"n_mc": 200_000}, variants={"full": Variant(params={"n_mc": 2_000_000})})
def ld3_ld4_gauss(ctx) -> Verdict:
    return check_gauss(ctx, n_mc=ctx.params["n_mc"])


# ======================================================================================================
# IH-LD6-karamata
# ======================================================================================================

def _karamata_strategy(totals: str, fclass: str, worder: str):
    fams = sorted(D.FUNCTION_CLASSES[fclass])

    def build(n, y, inc, w, fam, a, c):
        y = np.asarray(y[:n], float)
        Y = np.cumsum(np.sort(y)[::-1])
        cc = np.asarray(inc[:n], float)
        if totals == "equal":
            cc[-1] = 0.0
        x = np.diff(np.concatenate([[0.0], Y + cc]))
        w = np.asarray(w[:n], float)
        w = {"decreasing": np.sort(w)[::-1], "increasing": np.sort(w), "uniform": np.ones(n), "any": w}[worder]
        return x, y, w, fam, a, c
    fl = lambda lo, hi: st.floats(lo, hi, allow_nan=False)
    return st.builds(build, st.integers(2, 8), st.lists(fl(-10, 10), min_size=8, max_size=8),
                     st.lists(fl(0, 5), min_size=8, max_size=8), st.lists(fl(0, 5), min_size=8, max_size=8),
                     st.sampled_from(fams), fl(0.1, 3), fl(-2, 2))


def karamata_check(seed: int, totals: str, fclass: str, worder: str, n_draws: int = 10_000,
                   hyp_examples: int = 150, tol: float = 1e-12) -> Verdict:
    """Σ w_i f(x_[i]) ≥ Σ w_i f(y_[i]) under one reading (Def. D.5 totals × f class × weight order):
    n_draws random instances + a Hypothesis search minimising the slack (target)."""
    rng = np.random.default_rng(seed)
    fams = D.FUNCTION_CLASSES[fclass]
    names = sorted(fams)
    worst = {"rel_slack": math.inf}
    per = max(1, n_draws // (7 * len(names)))
    total = 0
    for n in range(2, 9):
        for fam in names:
            x, y = D.majorising_pairs(rng, per, n, totals)
            w = D.weights(rng, per, n, worder)
            a, c = rng.uniform(0.1, 3, size=(per, 1)), rng.uniform(-2, 2, size=(per, 1))
            slack, scale = D.karamata_slack(fams[fam], a, c, x, y, w)
            total += per
            j = int(np.argmin(slack / scale))
            if slack[j] / scale[j] < worst["rel_slack"]:
                worst = {"rel_slack": float(slack[j] / scale[j]), "slack": float(slack[j]), "f": fam,
                         "a": float(a[j, 0]), "c": float(c[j, 0]), "x": x[j].tolist(), "y": y[j].tolist(),
                         "w": w[j].tolist()}
    n_draws = total

    def score(inst):
        x, y, w, fam, a, c = inst
        slack, scale = D.karamata_slack(fams[fam], a, c, x, y, w)
        return -slack / scale

    if worst["rel_slack"] < -tol or hyp_examples <= 0:     # the draws already refute: no search/shrink needed
        res = None
    else:
        res = search(_karamata_strategy(totals, fclass, worder), score, fails=lambda s: s > tol, seed=seed,
                     max_examples=hyp_examples)
    if res is not None and res.failure is not None and res.failure_score > -worst["rel_slack"]:
        x, y, w, fam, a, c = res.failure
        slack, _ = D.karamata_slack(fams[fam], a, c, x, y, w)
        worst = {"rel_slack": -res.failure_score, "slack": slack, "f": fam, "a": a, "c": c, "x": x.tolist(),
                 "y": y.tolist(), "w": w.tolist(), "found_by": "hypothesis (shrunk)"}
    reading = f"totals {totals}, f {fclass}, weights {worder}"
    if worst["rel_slack"] < -tol:
        assert D.weakly_majorises(np.array(worst["x"]), np.array(worst["y"]), totals)
        return refuted("random draws + Hypothesis", f"[{reading}] Σw f(x) < Σw f(y): slack {worst['slack']:.4g} "
                       f"(f = {worst['f']})", {**worst, "reading": reading})
    return holds("random draws + Hypothesis", f"[{reading}] no violation over {n_draws} draws + "
                 f"{res.tried if res else 0} "
                 f"Hypothesis examples; min relative slack {fmt_signed(worst['rel_slack'])}",
                 min_rel_slack=worst["rel_slack"], reading=reading)


@CLAIMS.add("ld6-karamata", location="Def. D.5, Lemma D.6 (App. D)", kind=Kind.INEQUALITY,
            catalogue_id="IH-LD6-karamata",
            statement="Weighted Karamata (Lemma D.6; conditions lost): if x weakly majorises y (Def. D.5) and the "
                      "weights are non-negative and suitably ordered, then sum_i w_i f(x_[i]) >= sum_i w_i f(y_[i]) "
                      "for convex f. Verdict on the readings: (majorisation, convex f, uniform weights) and (weak "
                      "majorisation, convex non-decreasing f, non-increasing weights paired with decreasingly "
                      "ordered components); controls dropping a hypothesis must be refuted.",
            choices=_rc("RC-18", reading="components paired with weights in decreasing order of x and y; Def. D.5 "
                        "cond. 1 for k = 1..n-1, cond. 2 either 'equal totals' or 'sum x >= sum y'",
                        functions="convex non-decreasing: exp, hinge, softplus, linear, squared hinge; convex adds "
                                  "square, abs, -t, exp(-t); concave: negatives (planted)",
                        budget="quick: 1e4 draws + 30 Hypothesis examples per reading (5 readings); full: 5e4 + 1000"),
            params={"n_draws": 10_000, "hyp_examples": 30},
            variants={"full": Variant(params={"n_draws": 50_000, "hyp_examples": 1000})})
def ld6_karamata(ctx) -> Verdict:
    """The holding readings must hold; the controls (a hypothesis dropped) must be refuted, else the
    search is underpowered (inconclusive)."""
    seed, n_draws, hyp_examples = ctx.seed, ctx.params["n_draws"], ctx.params["hyp_examples"]
    hold = {name: karamata_check(seed + i, *r, n_draws=n_draws, hyp_examples=hyp_examples)
            for i, (name, r) in enumerate(D.HOLDING.items())}
    ctrl = {name: karamata_check(seed + 100 + i, *r, n_draws=n_draws, hyp_examples=hyp_examples)
            for i, (name, r) in enumerate(D.CONTROLS.items())}
    v = combine(hold)
    details = {**v.details, "controls (must be refuted)": {k: c.to_json() for k, c in ctrl.items()},
               "def_D5_condition_2": "equal totals (majorisation) suffices for convex f with uniform weights; "
                                     "with only the weak inequality (or non-uniform weights) f must be "
                                     "non-decreasing: the surviving text ('convex f', 'weakly majorizes') is "
                                     "refuted as a reading unless the lost conditions add monotonicity "
                                     "(registered as a reconstruction finding, the conclusion being lost: inductionheads.ld6-karamata-literal)",
               "later_use": "not checkable: no use of Lemma D.6 survives in the extracted text"}
    underpowered = [k for k, c in ctrl.items() if c.status.value != "refuted"]
    if underpowered and v.holds:
        return inconclusive("random draws + Hypothesis", f"controls not refuted (underpowered): {underpowered}",
                            **details)
    return replace(v, details=details)


# --- Lemma D.6 as its words survive (issue 27): a reading finding ---------------------------------------------

#: the witness: x = (1, 1) weakly majorises y = (0, 0) (partial sums 1 ≥ 0, totals 2 ≥ 0), uniform weights (they
#: satisfy any ordering condition on the weights), f(t) = e^{−t} convex (decreasing)
LD6_WITNESS = {"x": (1, 1), "y": (0, 0), "w": (1, 1), "f": "exp(-t)"}


def ld6_literal_check(witness: dict = LD6_WITNESS) -> Verdict:
    """Σ w_i f(x_[i]) ≥ Σ w_i f(y_[i]) at one exact instance of the surviving words of Lemma D.6 (convex f, x weakly
    majorises y with Def. D.5's cond. 2 read as Σx ≥ Σy, non-negative weights): SymPy evaluates both sides exactly;
    the instance's hypotheses (weak majorisation, convexity, weights) are checked, not assumed."""
    t = sp.symbols("t", real=True)
    f = sp.sympify(witness["f"], locals={"t": t})
    x, y, w = (np.array(witness[k], float) for k in ("x", "y", "w"))
    convex = sp.simplify(sp.diff(f, t, 2))
    hyps = {"x weakly majorises y (Def. D.5, cond. 2 as Σx ≥ Σy)": D.weakly_majorises(x, y, "weak"),
            "f convex (f'' ≥ 0 everywhere)": bool(sp.ask(sp.Q.nonnegative(convex), sp.Q.real(t))) or
            bool(convex.is_nonnegative), "weights non-negative": bool(np.all(w >= 0))}
    xs, ys = sorted(witness["x"], reverse=True), sorted(witness["y"], reverse=True)
    lhs = sum(sp.Integer(wi) * f.subs(t, xi) for wi, xi in zip(witness["w"], xs))
    rhs = sum(sp.Integer(wi) * f.subs(t, yi) for wi, yi in zip(witness["w"], ys))
    gap = sp.nsimplify(lhs - rhs)
    det = {"witness": dict(witness), "hypotheses of the instance": hyps, "lhs Σ w f(x)": str(lhs),
           "rhs Σ w f(y)": str(rhs), "lhs − rhs": str(sp.simplify(gap)), "lhs ≈": float(lhs), "rhs ≈": float(rhs)}
    method = "exact evaluation (SymPy) at one instance of the surviving hypotheses"
    if not all(hyps.values()):
        return inconclusive(method, f"the instance does not satisfy the hypotheses: {hyps}", **det)
    if bool(gap < 0):
        return refuted(method, f"Σ w f(x) = {lhs} ≈ {float(lhs):.4g} < Σ w f(y) = {rhs} ≈ {float(rhs):.4g} with "
                               f"x = {witness['x']}, y = {witness['y']}, w = {witness['w']}, f = {witness['f']}",
                       {**{k: (list(v) if isinstance(v, tuple) else v) for k, v in witness.items()},
                        "lhs": float(lhs), "rhs": float(rhs)}, **det)
    return proved(method, f"Σ w f(x) − Σ w f(y) = {sp.simplify(gap)} ≥ 0 at this instance (not a proof of the lemma)",
                  **det)


@CLAIMS.add("ld6-karamata-literal", location="Def. D.5, Lemma D.6 (App. D)", kind=Kind.INEQUALITY,
            catalogue_id="IH-LD6-karamata",
            statement="Lemma D.6 as its words survive, completed by the tool (its conclusion and Def. D.5 cond. 2 "
                      "are lost, RC-23): for convex f, x weakly majorising y (Def. D.5; 'weakly' read as "
                      "Σx ≥ Σy in cond. 2) and non-negative weights (their ordering condition lost; uniform weights "
                      "satisfy any), Σ w_i f(x_[i]) ≥ Σ w_i f(y_[i]). Checked exactly at x = (1,1), y = (0,0), w = (1,1), "
                      "f = e^{-t}.",
            expect=Status.REFUTED, finding=Finding.RECONSTRUCTION,
            reason="as its words survive (convex f, weak majorisation with Σx ≥ Σy, non-negative weights) Lemma D.6 is "
                   "false: x = (1,1), y = (0,0), w = (1,1), f = e^{-t} gives 2/e ≈ 0.736 < 2; it holds with equal "
                   "totals (Karamata) or with f also non-decreasing (Tomić–Weyl), the readings ld6-karamata passes. Class reconstruction (referee 16; was "
                   "reading): Def. D.5's cond. 2 and "
                   "D.6's weight condition and conclusion are lost (the text ends at 'such that', l.530), so the "
                   "refuted inequality is the tool's (RC-23), not the paper's words; the plausible reconstruction "
                   "(Karamata) holds",
            readings=Readings(
                tested="the surviving words of Lemma D.6: 'Let f be a convex function … If x weakly majorizes y … and "
                       "w are non-negative weights such that […]' with Def. D.5 cond. 2 an inequality of totals "
                       "(weak majorisation) and any weight-ordering condition that equal weights satisfy",
                others={"Def. D.5 cond. 2 an equality of totals (majorisation), convex f, uniform weights (Karamata)":
                        "holds: inductionheads.ld6-karamata",
                        "weak majorisation, f convex and non-decreasing, non-increasing weights (Tomić–Weyl)":
                        "holds: inductionheads.ld6-karamata",
                        "weak majorisation, convex f, non-increasing weights (the same words with a random search)":
                        "refuted: ld6-karamata's control reading (must be refuted there)"}),
            choices=_rc("RC-18", witness="x = (1,1), y = (0,0), w = (1,1), f(t) = e^{-t}: exact (SymPy)",
                        **{"RC-23": RC_DEFAULTS["RC-23"]}))
def ld6_karamata_literal(ctx) -> Verdict:
    return ld6_literal_check()
