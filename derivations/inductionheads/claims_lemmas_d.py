"""App. D claims: Lemma D.1 (softmax Lipschitz, recovered from the cited source) and Def. D.5 /
Lemma D.6 (weighted Karamata; conditions lost, readings searched).  Check functions take the
constant / reading under test so the tests can plant an error and see the same search refute it."""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
from hypothesis import strategies as st

from theoryverify.checks.search import search
from theoryverify.claims import ClaimSet, Kind
from theoryverify.verdicts import Verdict, combine, holds, inconclusive, proved, refuted
from theoryverify.roundoff import fmt_signed

from . import lemmas_d as D
from .recon import record

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


@CLAIMS.add("ld1-lip", location="Lemma D.1 (App. D), cited Edelman et al. 2022 Cor. A.7; used in App. A.1",
            kind=Kind.INEQUALITY, catalogue_id="IH-LD1-lip",
            statement="Lemma D.1 (recovered): ||softmax(x) - softmax(y)||_1 <= 2 ||x - y||_inf for all x, y in R^d. "
                      "Also reported: the sup of the ratio and the smallest constant the search does not refute "
                      "(derived sharp constant: 1).",
            choices=_rc("RC-18", source="statement as quoted verbatim (Lemma G.1, 'Corollary A.7 in Edelman et al. "
                        "(2022)') in Zhang et al., LightTransfer, TMLR (OpenReview kne4vWICr0); the original "
                        "arXiv 2110.10090 text is not in the store",
                        search="quick: 1e4 structured draws + 60 Hypothesis examples; full: 5e4 + 1000; (dim 2-50, near ties, norms to 1e3, t in [1e-6, 30]) + "
                               "Hypothesis target(); candidates confirmed at 50 digits"))
def ld1_lip(ctx) -> Verdict:
    v = lip_check(ctx.seed, n_draws=10_000 if ctx.profile == "quick" else 50_000,
                  hyp_examples=60 if ctx.profile == "quick" else 1000)
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


def karamata_readings(seed: int, n_draws: int, hyp_examples: int) -> Verdict:
    """The holding readings must hold; the controls (a hypothesis dropped) must be refuted, else the
    search is underpowered (inconclusive)."""
    hold = {name: karamata_check(seed + i, *r, n_draws=n_draws, hyp_examples=hyp_examples)
            for i, (name, r) in enumerate(D.HOLDING.items())}
    ctrl = {name: karamata_check(seed + 100 + i, *r, n_draws=n_draws, hyp_examples=hyp_examples)
            for i, (name, r) in enumerate(D.CONTROLS.items())}
    v = combine(hold)
    details = {**v.details, "controls (must be refuted)": {k: c.to_json() for k, c in ctrl.items()},
               "def_D5_condition_2": "equal totals (majorisation) suffices for convex f with uniform weights; "
                                     "with only the weak inequality (or non-uniform weights) f must be "
                                     "non-decreasing: the surviving text ('convex f', 'weakly majorizes') is "
                                     "refuted as a reading unless the lost conditions add monotonicity",
               "later_use": "not checkable: no use of Lemma D.6 survives in the extracted text"}
    from dataclasses import replace
    underpowered = [k for k, c in ctrl.items() if c.status.value != "refuted"]
    if underpowered and v.holds:
        return inconclusive("random draws + Hypothesis", f"controls not refuted (underpowered): {underpowered}",
                            **details)
    return replace(v, details=details)


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
                        budget="quick: 1e4 draws + 30 Hypothesis examples per reading (5 readings); full: 5e4 + 1000"))
def ld6_karamata(ctx) -> Verdict:
    quick = ctx.profile == "quick"
    return karamata_readings(ctx.seed, n_draws=10_000 if quick else 50_000, hyp_examples=30 if quick else 1000)
