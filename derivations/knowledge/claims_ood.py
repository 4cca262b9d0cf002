"""Thm 2(2)–(3), Remark 3, the relation-covering law and Sec. 7 / Fig. 2: OOD accuracy after FT on the
reconstructed model (spec KX-T2-oodbound, -trend-Nf, -trend-K, -trend-R, -coverage-law, -halluc, KX-S7-fig2).

Every statement here is about the reconstructed model (the printed (14), the conditions of Thm 2(2)–(3) and the
J.1 hyper-parameters are lost).  Each claim is measured in the two PT regimes of ``ood_sweeps.modes`` (μ_c = 3,
the project default, and μ_c = 4, where the pre-FT Q&A prompt predicts a relation as Lemma 18 says); an outcome
that differs between them is reported inconclusive ("hinges on μ_c"), one that agrees is the verdict.
Claims suffixed ``-given-p1`` are the conditional check of spec §5 ("Prop. 1 ⇒ Thm 2"): attention fixed at
Prop. 1's state (``ood_sweeps.Prop1``), only W trained; ``-full`` claims are the slow sweeps (5 PT seeds, J.1's
2000 FT iterations).
"""
from __future__ import annotations

import dataclasses
from itertools import product

import numpy as np

from theoryverify.checks import check_cases
from theoryverify.claims import ClaimSet, Kind
from theoryverify.conditions import Condition
from theoryverify.findings import Finding, Readings
from theoryverify.verdicts import Status, Verdict, combine, holds, inconclusive, refuted

from . import ood_sweeps as O
from . import printed

CLAIMS = ClaimSet("knowledge")

FT_CHOICES = {"η_FT": str(O.ETA_FT), "T_FT": "quick 200 / full 2000 (J.1), OOD accuracy every 5 / 10 steps",
              "OOD accuracy": "best recorded iteration (J.1: 'determine the optimal number of iterations')",
              "OOD set": "D_QA ∖ D_FT (Eq. 12): unseen frequent + all rare pairs",
              "FT subsets": "nested prefixes of a random permutation of the frequent pairs (seed = replicate)",
              "PT regimes": "μ_c = 3 (default) and μ_c = 4 (Lemma 18 regime); outcome differing → inconclusive",
              "FT parameters": "W only (Lemma 25's proof)",
              "PT gate": "grid points whose PT did not acquire the facts (min L − H > 0.25 or answer accuracy on [c, s_i, r] < 1) "
                         "are dropped from K/|𝓡| sweeps and reported"}


def choices(**extra) -> dict:
    return O.pt_choices(O.modes()["mu_c=3 (default)"]) | FT_CHOICES | {k: str(v) for k, v in extra.items()}


# --------------------------------------------------------------------------------------- trends (Fig. 2a/2b)
def trend_nf(ctx, which: str = "both") -> Verdict:
    p = O.protocol(ctx.profile)
    parts = {}
    for name, rec in O.modes(which).items():
        runs = O.sweep_runs(rec, ctx.profile)
        parts[name] = O.trend_verdict(p["sizes"], O.accuracy_table(runs, p["sizes"]), +1, ctx.seed, "Ñ_f",
                                      log_x=True)
    return O.across_modes(parts)


def sweep_param(ctx, param: str, values, which: str, n_ft: int, reweight: bool = False) -> dict[str, dict]:
    """Per regime: best OOD accuracy (values × (PT seeds · replicates)) for a K or |𝓡| sweep at fixed Ñ_f, with
    NaN where PT did not acquire the facts (``ood_sweeps.pt_quality``; such points are dropped, and reported)."""
    base = O.base_config()
    p = O.protocol(ctx.profile)
    out = {}
    for name, rec in O.modes(which).items():
        rec = dataclasses.replace(rec, reweight_rare=reweight)
        rows, failed = [], []
        for v in values:
            cfg = base | {param: v}
            good = {s: O.pt_quality(*O.pretrained(**cfg, seed=s, recon=rec)) for s in p["pt_seeds"]}
            failed += [{param: v, "pt_seed": s, **q} for s, q in good.items() if not q["ok"]]
            runs = O.sweep_runs(rec, ctx.profile, cfg=cfg, sizes=(n_ft,))
            rows.append([r.best if good[s]["ok"] else np.nan for (s, _, _, r, _) in runs])
        out[name] = {"acc": np.array(rows), "pt_failed": failed}
    return out


def gated_trend(values, table: dict, direction: int, seed: int, what: str) -> Verdict:
    """The trend test without the replicates whose PT did not converge (NaN); a grid point needs ≥ 2 replicates
    left, and the test ≥ 3 such points (else inconclusive).  Dropped PT runs are reported."""
    acc = np.asarray(table["acc"], float)
    keep = (~np.isnan(acc)).sum(axis=1) >= 2
    note = f"; PT not converged (dropped): {table['pt_failed']}" if table["pt_failed"] else ""
    if keep.sum() < 3:
        return inconclusive("sweep: bootstrap CI of the fitted slope",
                            f"fewer than 3 grid points with a converged PT{note}", acc=acc.tolist())
    v = O.trend_verdict(np.asarray(values)[keep], acc[keep], direction, seed, what)
    return dataclasses.replace(v, evidence=v.evidence + note, details={**v.details, "pt_failed": table["pt_failed"]})


def trend_param(ctx, param: str, values, direction: int, which: str, n_ft: int) -> Verdict:
    tables = sweep_param(ctx, param, values, which, n_ft)
    parts = {name: gated_trend(values, t, direction, ctx.seed, "K" if param == "K" else "|𝓡|")
             for name, t in tables.items()}
    return O.across_modes(parts) if len(parts) > 1 else next(iter(parts.values()))


NF_STATEMENT = "post-FT OOD accuracy increases with the FT set size Ñ_f (Thm 2(2), Fig. 2a/3a)"
K_STATEMENT = "post-FT OOD accuracy increases with the PT multiplicity K at fixed Ñ_f, |𝓡| (Thm 2(2), Fig. 2a/3a)"
R_STATEMENT = "post-FT OOD accuracy decreases as |𝓡| grows at fixed Ñ_f, K (Remark 3, Fig. 2b/3b)"
K_QUICK, K_FULL, R_QUICK, R_FULL = (2, 3, 4), (2, 3, 4, 5), (6, 9, 12), (6, 9, 12, 18)
N_FT_KR = 4


@CLAIMS.add("t2-trend-nf", location="Thm 2(2), Eq. (14); Sec. 7, Fig. 2a", expect=Status.INCONCLUSIVE, kind=Kind.RATE,
            catalogue_id="KX-T2-trend-Nf", statement=NF_STATEMENT,
            choices=choices(reading="slope of best-iteration OOD accuracy vs log Ñ_f, bootstrap 95% CI over "
                            "FT-subset replicates excludes 0 (upwards)", grid="Ñ_f ∈ {1,2,4,8,16}, 4 replicates, "
                            "PT seed 0 (quick)"))
def t2_trend_nf(ctx):
    return trend_nf(ctx)


@CLAIMS.add("t2-trend-nf-full", location="Thm 2(2), Eq. (14); Sec. 7, Fig. 2a", kind=Kind.RATE,
            catalogue_id="KX-T2-trend-Nf", statement=NF_STATEMENT, tags={"slow"},
            choices=choices(grid="Ñ_f ∈ {1,2,4,8,16} × 3 replicates × PT seeds 0–4, T_FT = 2000"))
def t2_trend_nf_full(ctx):
    return trend_nf(dataclasses.replace(ctx, profile="full"))


@CLAIMS.add("t2-trend-k", location="Thm 2(2), Eq. (14); Sec. 7, Fig. 2a", kind=Kind.RATE,
            expect=Status.INCONCLUSIVE,  # K 2–4: 3 points spanning 0.30 decades (span rule)
            catalogue_id="KX-T2-trend-K", statement=K_STATEMENT,
            choices=choices(grid=f"K ∈ {K_QUICK}, |𝓡| = 6, Ñ_f = {N_FT_KR}, PT seed 0 (quick: μ_c = 4 regime only, "
                            "the one where FT moves the OOD accuracy; both regimes in -full)"))
def t2_trend_k(ctx):
    return trend_param(ctx, "K", K_QUICK, +1, "mu_c=4", N_FT_KR)


@CLAIMS.add("t2-trend-k-full", location="Thm 2(2), Eq. (14); Sec. 7, Fig. 2a", kind=Kind.RATE,
            expect=Status.INCONCLUSIVE,  # K 2–5 spans 0.40 decades (span rule)
            catalogue_id="KX-T2-trend-K", statement=K_STATEMENT, tags={"slow"},
            choices=choices(grid=f"K ∈ {K_FULL}, |𝓡| = 6, Ñ_f = {N_FT_KR}, PT seeds 0–4, both regimes"))
def t2_trend_k_full(ctx):
    return trend_param(dataclasses.replace(ctx, profile="full"), "K", K_FULL, +1, "both", N_FT_KR)


@CLAIMS.add("t2-trend-r", location="Remark 3; Sec. 7, Fig. 2b", kind=Kind.RATE, catalogue_id="KX-T2-trend-R",
            expect=Status.INCONCLUSIVE,  # |𝓡| 6–12: 3 points spanning 0.30 decades (span rule)
            statement=R_STATEMENT,
            choices=choices(grid=f"|𝓡| ∈ {R_QUICK}, K = 3, Ñ_f = {N_FT_KR}, PT seed 0 (quick: μ_c = 4 regime only)"))
def t2_trend_r(ctx):
    return trend_param(ctx, "R", R_QUICK, -1, "mu_c=4", N_FT_KR)


@CLAIMS.add("t2-trend-r-full", location="Remark 3; Sec. 7, Fig. 2b", kind=Kind.RATE, catalogue_id="KX-T2-trend-R",
            statement=R_STATEMENT, tags={"slow"}, expect=Status.INCONCLUSIVE,
            choices=choices(grid=f"|𝓡| ∈ {R_FULL}, K = 3, Ñ_f = {N_FT_KR}, PT seeds 0–4, both regimes"))
def t2_trend_r_full(ctx):
    return trend_param(dataclasses.replace(ctx, profile="full"), "R", R_FULL, -1, "both", N_FT_KR)


# --------------------------------------------------------------------------------------- coverage law
COVERAGE_TOL, COVERAGE_REFUTE, DISCRIM = 0.1, 0.25, 0.5


def coverage_decision(acc: np.ndarray, cov: np.ndarray, correct_cov: np.ndarray, correct_unc: np.ndarray,
                      where: list) -> Verdict:
    """Two parts.  (a) acc[k] ≈ cov[k] (accuracy and covered fraction of FT draw k): holds if mean |gap| ≤ 0.1,
    refuted if mean |gap| − 2 SE > 0.25.  (b) the law's mechanism, Δ = P(correct | covered) − P(correct |
    uncovered) (≈ 1 under the law): holds if Δ − 2 SE > 0.5, refuted if Δ + 2 SE < 0.5.  Else inconclusive."""
    gap = np.abs(acc - cov)
    mean = float(gap.mean())
    se = float(gap.std(ddof=1) / np.sqrt(len(gap))) if len(gap) > 1 else 0.0
    k = int(np.argmax(gap))
    text_a = f"mean |accuracy − covered fraction| = {mean:.3f} (SE {se:.3f}, max {gap[k]:.3f}) over {len(gap)} FT draws"
    det_a = {"abs_gap_mean": mean, "abs_gap_se": se, "acc": acc.tolist(), "covered_fraction": cov.tolist()}
    if mean <= COVERAGE_TOL:
        a = holds("per-draw accuracy vs covered fraction", text_a, **det_a)
    elif mean - 2 * se > COVERAGE_REFUTE:
        a = refuted("per-draw accuracy vs covered fraction", text_a,
                    {"draw": where[k], "accuracy": float(acc[k]), "covered_fraction": float(cov[k]),
                     "abs_gap_mean": mean, "abs_gap_se": se}, **det_a)
    else:
        a = inconclusive("per-draw accuracy vs covered fraction", text_a, **det_a)
    if len(correct_cov) == 0 or len(correct_unc) == 0:
        return combine({"accuracy ≈ covered fraction": a,
                        "covered vs uncovered": inconclusive("conditional accuracies", "no covered/uncovered pairs")})
    pc, pu = float(np.mean(correct_cov)), float(np.mean(correct_unc))
    delta = pc - pu
    dse = float(np.sqrt(pc * (1 - pc) / len(correct_cov) + pu * (1 - pu) / len(correct_unc)))
    text_b = (f"P(correct | covered) = {pc:.3f} ({len(correct_cov)} pairs), P(correct | uncovered) = {pu:.3f} "
              f"({len(correct_unc)} pairs): Δ = {delta:+.3f} ± {2 * dse:.3f} (law: Δ ≈ 1; threshold {DISCRIM})")
    det_b = {"p_correct_covered": pc, "p_correct_uncovered": pu, "delta": delta, "delta_se": dse}
    if delta - 2 * dse > DISCRIM:
        b = holds("conditional accuracies (Wald SE)", text_b, **det_b)
    elif delta + 2 * dse < DISCRIM:
        b = refuted("conditional accuracies (Wald SE)", text_b, det_b | {"pairs_covered": len(correct_cov),
                                                                          "pairs_uncovered": len(correct_unc)}, **det_b)
    else:
        b = inconclusive("conditional accuracies (Wald SE)", text_b, **det_b)
    return combine({"accuracy ≈ covered fraction": a, "uncovered pairs fail, covered pairs answered": b})


def coverage_mode(rec, profile: str) -> Verdict:
    runs = O.sweep_runs(rec, profile)
    acc, cov, cc, cu, where = [], [], [], [], []
    for s, rep, n, r, kn in runs:
        c = O.covered_pairs(kn, O.ood_pairs(kn))
        acc.append(r.correct.mean()), cov.append(c.mean())
        cc += r.correct[c].tolist()
        cu += r.correct[~c].tolist()
        where.append({"pt_seed": s, "replicate": rep, "N_ft": n})
    return coverage_decision(np.array(acc), np.array(cov), np.array(cc), np.array(cu), where)


COVERAGE_STATEMENT = ("after FT, the OOD accuracy on unseen pairs ≈ the fraction of them whose relation phrases are "
                      "all covered by D_FT (relation covering, abstract v4; Lemma 9 / G.5 mechanism)")


COVERAGE_READINGS = Readings(
    tested="accuracy on unseen pairs ≈ the covered fraction: covered pairs are answered and uncovered ones fail",
    others={"covering is necessary only (uncovered pairs fail, App. G.5's mechanism)":
            "untested: no claim of its own; given Prop. 1, P(correct | uncovered) = 0 (t2-coverage-law-given-p1)"})


@CLAIMS.add("t2-coverage-law", location="abstract (v4), relation covering; App. G.4–G.5", expect=Status.REFUTED, kind=Kind.IDENTITY, finding=Finding.RECONSTRUCTION, readings=COVERAGE_READINGS,
            reason=("on the reconstruction and FT protocol (law from the v4 abstract, not in the stored text; η_FT, T_FT "
                    "lost): P(correct | uncovered) = 0.830 vs P(correct | covered) = 0.826 at μ_c = 3 (376 pairs), but "
                    "17 of those 20 runs score their best iterate at t = 0, the untuned model (μ_c = 4: 0.47 vs 0.58, "
                    "11 of 20 at t = 0)"),
            catalogue_id="KX-T2-coverage-law", statement=COVERAGE_STATEMENT,
            choices=choices(reading="(a) mean over FT draws of |accuracy − covered fraction| ≤ 0.1 holds, "
                            "> 0.25 beyond 2 SE refuted; (b) P(correct|covered) − P(correct|uncovered) > 0.5 beyond "
                            "2 SE holds, < 0.5 beyond 2 SE refuted (thresholds are choices)", grid="Ñ_f ∈ {1,2,4,8,16}, 4 replicates, PT seed 0"))
def t2_coverage_law(ctx):
    return O.across_modes({name: coverage_mode(rec, ctx.profile) for name, rec in O.modes().items()})


@CLAIMS.add("t2-coverage-law-full", location="abstract (v4), relation covering; App. G.4–G.5", expect=Status.REFUTED, kind=Kind.IDENTITY, finding=Finding.RECONSTRUCTION, readings=COVERAGE_READINGS,
            reason=("on the reconstruction and FT protocol (both μ_c regimes, 5 PT seeds): mean |OOD accuracy − covered "
                    "fraction| = 0.31 ± 0.03 over 75 FT draws, e.g. accuracy 0.83 with 4% of pairs covered at μ_c = 3, "
                    "Ñ_f = 1, but that is the untuned model: the best iterate includes t = 0, and 60 of the 75 μ_c = 3 "
                    "runs (37 of 75 at μ_c = 4) score t = 0"),
            catalogue_id="KX-T2-coverage-law", statement=COVERAGE_STATEMENT, tags={"slow"},
            choices=choices(grid="Ñ_f ∈ {1,2,4,8,16} × 3 replicates × PT seeds 0–4, T_FT = 2000"))
def t2_coverage_law_full(ctx):
    return O.across_modes({name: coverage_mode(rec, "full") for name, rec in O.modes().items()})


# --------------------------------------------------------------------------------------- Thm 2(2): the bound
def bound_condition(n_ft: int, K: int, R: int, C: float = 1.0) -> bool:
    """The lost condition of Thm 2(2), read from Lemma 9's coverage requirement: Ñ_f ≥ C |𝓡|² log|𝓡| / K²."""
    return n_ft >= C * R ** 2 * np.log(R) / K ** 2


#: Thm 2(2)'s lost sufficient condition, as read from Lemma 9 with C = 1 (a reconstruction; C lost).
OOD_CONDITION = Condition("Ñ_f ≥ C·|𝓡|² log|𝓡| / K² (Thm 2(2)'s condition, read from Lemma 9)",
                          lambda c: bool(bound_condition(c["N_ft"], c["K"], c["R"], 1.0)), needs=("N_ft", "K", "R"),
                          location="Thm 2(2); Lemma 9", constants={"C": 1.0})


def bound_decision(points: list[dict], bound=printed.oodbound) -> Verdict:
    """points: {N_ft, K, R, errors (per draw)} inside the condition region.  holds: mean L_OOD ≤ bound at every
    point; refuted: mean − 2 SE > bound at some point (the instance); else inconclusive."""
    worst, rows = None, []
    for p in points:
        e = np.asarray(p["errors"], float)
        b = bound(p["N_ft"], p["K"], p["R"])
        se = float(e.std(ddof=1) / np.sqrt(len(e))) if len(e) > 1 else 0.0
        row = {"N_ft": p["N_ft"], "K": p["K"], "R": p["R"], "L_OOD_mean": float(e.mean()), "SE": se, "bound": b}
        rows.append(row)
        if worst is None or row["L_OOD_mean"] - 2 * se - b > worst["L_OOD_mean"] - 2 * worst["SE"] - worst["bound"]:
            worst = row
    text = "; ".join(f"Ñ_f={r['N_ft']}: L_OOD {r['L_OOD_mean']:.3f}±{r['SE']:.3f} vs bound {r['bound']:.4f}"
                     for r in rows)
    if all(r["L_OOD_mean"] <= r["bound"] for r in rows):
        return holds("measured L_OOD vs printed bound", text, points=rows)
    if worst["L_OOD_mean"] - 2 * worst["SE"] > worst["bound"]:
        return refuted("measured L_OOD vs printed bound", text, worst, points=rows)
    return inconclusive("measured L_OOD vs printed bound", text, points=rows)


def coverage_vs_bound(Rs=range(2, 21), bound=printed.oodbound) -> Verdict:
    """Mechanism part: the coverage law's exact expected error (inclusion–exclusion) ≤ the printed bound on every
    (K, |𝓡|, Ñ_f) of the condition region (C = 1; Ñ_f = 1, 2, 4 × the threshold), N_f = 2 Ñ_f, N_r = Ñ_f."""
    cases = []
    for R in Rs:
        for K in range(1, R):
            n0 = int(np.ceil(R ** 2 * np.log(R) / K ** 2))
            for n in sorted({n0, 2 * n0, 4 * n0}):
                cases.append((f"|R|={R}, K={K}, N_ft={n}", {"R": R, "K": K, "N_ft": n}))

    def pred(c):
        e = O.expected_uncovered_fraction(2 * c["N_ft"], c["N_ft"], c["K"], c["R"], c["N_ft"])
        b = bound(c["N_ft"], c["K"], c["R"])
        return e <= b, {**c, "coverage_error": e, "bound": b}
    return check_cases(cases, pred, exhaustive=False, what="(K, |R|, Ñ_f) points", exact=False)


def oodbound_mode(rec, profile: str) -> Verdict:
    cfg = O.base_config()
    runs = O.sweep_runs(rec, profile)
    pts = [{"N_ft": n, "K": cfg["K"], "R": cfg["R"],
            "errors": [1 - r.best for (*_, nn, r, _) in runs if nn == n]}
           for n in O.protocol(profile)["sizes"] if bound_condition(n, cfg["K"], cfg["R"])]
    return bound_decision(pts)


OODBOUND_STATEMENT = ("Thm 2(2), Eq. (14)/(2): under Ñ_f ≥ C(·), L_OOD ≤ exp(−Ñ_f K² log|𝓡| / (2|𝓡|²)) "
                      "(printed bound from the secondary summary sciencestack.ai 2508.00901; condition lost)")


@CLAIMS.add("t2-oodbound", location="Thm 2(2), Eq. (14); Thm 1, Eq. (2) (formula from a secondary source)",
            expect=Status.INCONCLUSIVE, kind=Kind.INEQUALITY, catalogue_id="KX-T2-oodbound", statement=OODBOUND_STATEMENT,
            conditions=(OOD_CONDITION,),
            choices=choices(condition="Ñ_f ≥ C|𝓡|² log|𝓡|/K² with C = 1 (Lemma 9's requirement; C lost)",
                            reading="mean best-iteration L_OOD over FT draws ≤ bound at every grid point in the "
                            "condition region; refuted if mean − 2 SE > bound",
                            mechanism="coverage law's exact expected error ≤ bound, |𝓡| ≤ 20, all K < |𝓡|"))
def t2_oodbound(ctx):
    return oodbound(ctx.profile)


def oodbound(profile: str) -> Verdict:
    model = O.across_modes({name: oodbound_mode(rec, profile) for name, rec in O.modes().items()})
    return combine({"mechanism (coverage law ≤ printed bound)": coverage_vs_bound(),
                    "trained model (both PT regimes)": model})


@CLAIMS.add("t2-oodbound-full", location="Thm 2(2), Eq. (14); Thm 1, Eq. (2) (formula from a secondary source)",
            expect=Status.REFUTED, finding=Finding.RECONSTRUCTION, conditions=(OOD_CONDITION,),
            reason=("on the reconstruction (bound from a secondary summary; condition Ñ_f ≥ C|R|²log|R|/K² read with "
                    "C = 1, C lost, any C ≤ 2.2 keeps Ñ_f = 16 inside): L_OOD = 0.126 ± 0.024 > bound 0.028 at Ñ_f = 16, "
                    "K = 3, |R| = 6 (μ_c = 3; μ_c = 4 also exceeds it; the best iterate incl. t = 0 can only lower L_OOD)"),
            kind=Kind.INEQUALITY, catalogue_id="KX-T2-oodbound", statement=OODBOUND_STATEMENT, tags={"slow"},
            choices=choices(condition="Ñ_f ≥ |𝓡|² log|𝓡|/K² (C = 1)", grid="Ñ_f ∈ {8, 16} × 3 replicates × PT "
                            "seeds 0–4, T_FT = 2000"))
def t2_oodbound_full(ctx):
    return oodbound("full")


# --------------------------------------------------------------------------------------- Thm 2(3): hallucination
def uncovered_count_check(max_R: int = 7, strict: bool = False) -> Verdict:
    """Combinatorial step of G.5, exhaustively over FT phrase sets: #uncovered ≥ |𝓡| − Ñ_f K (≥ c|𝓡| when
    Ñ_f K ≤ (1 − c)|𝓡|), for every tuple of Ñ_f ≤ 2 K-subsets of [|𝓡|], |𝓡| ≤ max_R."""
    from itertools import combinations

    def cases():
        for R in range(2, max_R + 1):
            for K in range(1, R + 1):
                subsets = list(combinations(range(R), K))
                for n in (1, 2):
                    if n * K <= R:
                        for sets in product(subsets, repeat=n):
                            yield f"|R|={R}, K={K}, sets={sets}", {"R": R, "K": K, "N_ft": n, "sets": sets}

    def pred(c):
        unc = c["R"] - len(set().union(*c["sets"]))
        need = c["R"] - c["N_ft"] * c["K"] + (1 if strict else 0)     # strict: the text's "more than"
        return unc >= need, {"R": c["R"], "K": c["K"], "N_ft": c["N_ft"], "sets": c["sets"], "uncovered": unc}
    return check_cases(cases(), pred, exhaustive=True, what="FT phrase-set tuples")


def halluc_decision(rows: list[dict], bound_const: float = 1.0) -> Verdict:
    """rows: {N_ft, K, R, N, N_r, errors}.  Reading of Ω(c N_r/(N − Ñ_f)) with constant 1 (recorded):
    holds if mean L_OOD ≥ c N_r/(N − Ñ_f) at every point (c = 1 − Ñ_f K/|𝓡|); refuted if mean + 2 SE < it."""
    out, bad = [], None
    for r in rows:
        c = 1 - r["N_ft"] * r["K"] / r["R"]
        lower = bound_const * c * r["N_r"] / (r["N"] - r["N_ft"])
        e = np.asarray(r["errors"], float)
        se = float(e.std(ddof=1) / np.sqrt(len(e))) if len(e) > 1 else 0.0
        row = {"N_ft": r["N_ft"], "K": r["K"], "R": r["R"], "c": c, "lower": lower, "L_OOD_mean": float(e.mean()),
               "SE": se}
        out.append(row)
        if e.mean() + 2 * se < lower and bad is None:
            bad = row
    text = "; ".join(f"Ñ_f={r['N_ft']} (c={r['c']:.2f}): L_OOD {r['L_OOD_mean']:.3f}±{r['SE']:.3f} vs "
                     f"c·N_r/(N−Ñ_f) = {r['lower']:.3f}" for r in out)
    if all(r["L_OOD_mean"] >= r["lower"] for r in out):
        return holds("measured L_OOD vs hallucination lower bound", text, points=out)
    if bad is not None:
        return refuted("measured L_OOD vs hallucination lower bound", text, bad, points=out)
    return inconclusive("measured L_OOD vs hallucination lower bound", text, points=out)


def halluc_mode(rec, profile: str) -> Verdict:
    cfg = O.base_config()
    runs = O.sweep_runs(rec, profile)
    N = cfg["N_f"] + cfg["N_r"]
    rows = [{"N_ft": n, "K": cfg["K"], "R": cfg["R"], "N": N, "N_r": cfg["N_r"],
             "errors": [1 - r.best for (*_, nn, r, _) in runs if nn == n]}
            for n in O.protocol(profile)["sizes"] if 0 < n * cfg["K"] < cfg["R"]]
    return halluc_decision(rows)


HALLUC_STATEMENT = ("Thm 2(3) (App. G.5/H.5, reconstructed): if Ñ_f K ≤ (1 − c)|𝓡| then ≥ c|𝓡| relations are "
                    "uncovered and L_OOD ≥ Ω(c N_r / (N − Ñ_f)) (the fine-tuned model hallucinates)")


@CLAIMS.add("t2-halluc", location="Thm 2(3), Eq. (3); App. G.5 (282)–(286), H.5", kind=Kind.INEQUALITY,
            catalogue_id="KX-T2-halluc", statement=HALLUC_STATEMENT,
            choices=choices(reading="Ω constant = 1 and the best FT iteration (the strongest test of a lower bound); "
                            "c = 1 − Ñ_f K/|𝓡|", grid="Ñ_f = 1 (K = 3, |𝓡| = 6: c = 1/2), 4 replicates",
                            strictness="tested '≥ c|𝓡| uncovered'; the text's 'more than' fails at equality "
                            "(disjoint FT phrase sets with Ñ_f K = (1 − c)|𝓡|)"))
def t2_halluc(ctx):
    return halluc(ctx.profile)


def halluc(profile: str) -> Verdict:
    model = O.across_modes({name: halluc_mode(rec, profile) for name, rec in O.modes().items()})
    return combine({"uncovered count (exhaustive)": uncovered_count_check(), "trained model": model})


@CLAIMS.add("t2-halluc-full", location="Thm 2(3), Eq. (3); App. G.5 (282)–(286), H.5", kind=Kind.INEQUALITY,
            catalogue_id="KX-T2-halluc", statement=HALLUC_STATEMENT, tags={"slow"},
            choices=choices(grid="Ñ_f = 1 × 3 replicates × PT seeds 0–4, T_FT = 2000"))
def t2_halluc_full(ctx):
    return halluc("full")


# --------------------------------------------------------------------------------------- Sec. 7, Fig. 2
FIG2_STATEMENT = ("Sec. 7, Fig. 2a/2b (simplified model): OOD accuracy rises with K and with Ñ_f and falls with |𝓡|; "
                  "CPU-scale reproduction with J.1's protocol (5 seeds, 2000 FT iterations, best iteration, rare "
                  "gradients × K)")
FIG2_EXTERNAL = ("Fig. 2c–2e, Fig. 3, Fig. 4 (GPT-2 from scratch, PopQA) and the Llama-3.2-1B table of Sec. 7.1 "
                 "(EM 26.36 frequent vs 20.93 rare)")


@CLAIMS.add("s7-fig2-external", location="Sec. 7, Fig. 2c–2e, 3, 4; Sec. 7.1 table; App. J.2–J.4",
            kind=Kind.REPRODUCTION, catalogue_id="KX-S7-fig2", statement=FIG2_EXTERNAL, expect=Status.INCONCLUSIVE,
            choices={"scope": "not checkable here: needs GPT-2 / Llama-3.2-1B hub weights, PopQA and a GPU; "
                     "the figure data are lost"})
def s7_fig2_external(ctx):
    return inconclusive("out of scope", "not checkable here (needs external weights and data: GPT-2 / "
                        "Llama-3.2-1B checkpoints and PopQA cannot be fetched in this environment; the figures' data "
                        "are lost) — the simplified-model panels are knowledge.s7-fig2-full")


def fig2(ctx, which: str = "both") -> Verdict:
    ctx = dataclasses.replace(ctx, profile="full")
    p = O.protocol("full")
    parts = {}
    for name, rec in O.modes(which).items():
        rw = dataclasses.replace(rec, reweight_rare=True)
        runs = O.sweep_runs(rw, "full")
        nf = O.trend_verdict(p["sizes"], O.accuracy_table(runs, p["sizes"]), +1, ctx.seed, "Ñ_f", log_x=True)
        sub = "prop1" if which == "prop1" else name.split(" ")[0]
        k = sweep_param(ctx, "K", K_FULL, sub, N_FT_KR, reweight=True)[name]
        r = sweep_param(ctx, "R", R_FULL, sub, N_FT_KR, reweight=True)[name]
        parts[name] = combine({"Fig. 2a: Ñ_f": nf, "Fig. 2a: K": gated_trend(K_FULL, k, +1, ctx.seed, "K"),
                               "Fig. 2b: |𝓡|": gated_trend(R_FULL, r, -1, ctx.seed, "|𝓡|")})
    return O.across_modes(parts) if len(parts) > 1 else next(iter(parts.values()))


@CLAIMS.add("s7-fig2-full", location="Sec. 7, Fig. 2a/2b; App. J.1", kind=Kind.REPRODUCTION,
            catalogue_id="KX-S7-fig2", statement=FIG2_STATEMENT, tags={"slow"}, expect=Status.INCONCLUSIVE,
            choices=choices(reweight_rare="True (J.1: rare gradients × K)",
                            grid=f"Ñ_f ∈ {{1,2,4,8,16}}; K ∈ {K_FULL} and |𝓡| ∈ {R_FULL} at Ñ_f = {N_FT_KR}; "
                            "PT seeds 0–4 × 3 FT replicates; T_FT = 2000"))
def s7_fig2_full(ctx):
    return fig2(ctx)


# --------------------------------------------------------------------------------------- given Prop. 1 (spec §5)
GIVEN_P1 = (" — conditional check 'Prop. 1 ⇒ Thm 2' (spec §5): attention fixed at Prop. 1's state (α_c ≈ 0, "
            "α_s ≈ α_r, uniform on [s, f]), only W pre-trained and fine-tuned")


def prop1() -> "O.Prop1":
    return O.modes("prop1")["Prop. 1 assumed (Z fixed)"]


def p1_choices(**extra) -> dict:
    return (O.pt_choices(prop1()) | FT_CHOICES | {"PT regimes": "Prop. 1 assumed: Z = init − c_penalty on key c, fixed"}
            | {k: str(v) for k, v in extra.items()})


@CLAIMS.add("t2-trend-nf-given-p1", location="Thm 2(2); Sec. 7, Fig. 2a; spec §5", kind=Kind.RATE,
            catalogue_id="KX-T2-trend-Nf", statement=NF_STATEMENT + GIVEN_P1,
            choices=p1_choices(grid="Ñ_f ∈ {1,2,4,8,16}, 4 replicates, PT seed 0"))
def t2_trend_nf_given_p1(ctx):
    p = O.protocol(ctx.profile)
    return O.trend_verdict(p["sizes"], O.accuracy_table(O.sweep_runs(prop1(), ctx.profile), p["sizes"]), +1,
                           ctx.seed, "Ñ_f", log_x=True)


@CLAIMS.add("t2-trend-k-given-p1", location="Thm 2(2); Sec. 7, Fig. 2a; spec §5", kind=Kind.RATE,
            catalogue_id="KX-T2-trend-K", statement=K_STATEMENT + GIVEN_P1, expect=Status.INCONCLUSIVE,
            choices=p1_choices(grid=f"K ∈ {K_QUICK}, |𝓡| = 6, Ñ_f = {N_FT_KR}, PT seed 0"))
def t2_trend_k_given_p1(ctx):
    return trend_param(ctx, "K", K_QUICK, +1, "prop1", N_FT_KR)


@CLAIMS.add("t2-trend-r-given-p1", location="Remark 3; Sec. 7, Fig. 2b; spec §5", kind=Kind.RATE,
            expect=Status.INCONCLUSIVE,  # |𝓡| 6–12: 3 points spanning 0.30 decades (span rule)
            catalogue_id="KX-T2-trend-R", statement=R_STATEMENT + GIVEN_P1,
            choices=p1_choices(grid=f"|𝓡| ∈ {R_QUICK}, K = 3, Ñ_f = {N_FT_KR}, PT seed 0"))
def t2_trend_r_given_p1(ctx):
    return trend_param(ctx, "R", R_QUICK, -1, "prop1", N_FT_KR)


@CLAIMS.add("t2-coverage-law-given-p1", location="abstract (v4), relation covering; App. G.4–G.5; spec §5",
            kind=Kind.IDENTITY, catalogue_id="KX-T2-coverage-law", statement=COVERAGE_STATEMENT + GIVEN_P1,
            expect=Status.REFUTED, finding=Finding.RECONSTRUCTION, readings=COVERAGE_READINGS,
            reason=("on the Prop. 1-assumed model (attention fixed by hand, a conditional check) and FT protocol "
                    "(η_FT = 10, T_FT = 200; lost): covering is necessary but not sufficient, P(correct | uncovered) = 0 "
                    "(112 pairs) but P(correct | covered) = 0.21 (264 pairs); mean |acc − covered| = 0.55 (same with "
                    "η_FT = 30, T_FT = 2000)"),
            choices=p1_choices(grid="Ñ_f ∈ {1,2,4,8,16}, 4 replicates, PT seed 0"))
def t2_coverage_law_given_p1(ctx):
    return coverage_mode(prop1(), ctx.profile)


@CLAIMS.add("t2-oodbound-given-p1", location="Thm 2(2), Eq. (14); spec §5", kind=Kind.INEQUALITY,
            catalogue_id="KX-T2-oodbound", statement=OODBOUND_STATEMENT + GIVEN_P1, expect=Status.REFUTED,
            finding=Finding.RECONSTRUCTION, conditions=(OOD_CONDITION,),
            reason=("on the Prop. 1-assumed model and FT protocol (η_FT = 10, T_FT = 200; lost), bound from a secondary "
                    "summary, condition read with C = 1 (Ñ_f = 8 is inside only for C ≤ 1.1): L_OOD = 0.72 ± 0.06 > "
                    "bound 0.167 at Ñ_f = 8, K = 3, |R| = 6"),
            choices=p1_choices(condition="Ñ_f ≥ |𝓡|² log|𝓡|/K² (C = 1)"))
def t2_oodbound_given_p1(ctx):
    return oodbound_mode(prop1(), ctx.profile)


@CLAIMS.add("t2-halluc-given-p1", location="Thm 2(3), Eq. (3); App. G.5; spec §5", kind=Kind.INEQUALITY,
            catalogue_id="KX-T2-halluc", statement=HALLUC_STATEMENT + GIVEN_P1,
            choices=p1_choices(reading="Ω constant = 1, best FT iteration", grid="Ñ_f = 1, 4 replicates"))
def t2_halluc_given_p1(ctx):
    return halluc_mode(prop1(), ctx.profile)


@CLAIMS.add("t2-trend-nf-given-p1-full", location="Thm 2(2); Sec. 7, Fig. 2a; spec §5", kind=Kind.RATE,
            catalogue_id="KX-T2-trend-Nf", statement=NF_STATEMENT + GIVEN_P1, tags={"slow"},
            choices=p1_choices(grid="Ñ_f ∈ {1,2,4,8,16} × 3 replicates × PT seeds 0–4, T_FT = 2000"))
def t2_trend_nf_given_p1_full(ctx):
    return t2_trend_nf_given_p1(dataclasses.replace(ctx, profile="full"))


@CLAIMS.add("t2-trend-k-given-p1-full", location="Thm 2(2); Sec. 7, Fig. 2a; spec §5", kind=Kind.RATE,
            expect=Status.INCONCLUSIVE,  # K 2–5 spans 0.40 decades (span rule)
            catalogue_id="KX-T2-trend-K", statement=K_STATEMENT + GIVEN_P1, tags={"slow"},
            choices=p1_choices(grid=f"K ∈ {K_FULL}, |𝓡| = 6, Ñ_f ∈ {{4, 16}}, PT seeds 0–4, T_FT = 2000"))
def t2_trend_k_given_p1_full(ctx):
    ctx = dataclasses.replace(ctx, profile="full")
    return combine({f"Ñ_f = {n}": trend_param(ctx, "K", K_FULL, +1, "prop1", n) for n in (N_FT_KR, 16)})


@CLAIMS.add("t2-trend-r-given-p1-full", location="Remark 3; Sec. 7, Fig. 2b; spec §5", kind=Kind.RATE,
            expect=Status.INCONCLUSIVE,  # |𝓡| 6–18 spans 0.48 decades (span rule)
            catalogue_id="KX-T2-trend-R", statement=R_STATEMENT + GIVEN_P1, tags={"slow"},
            choices=p1_choices(grid=f"|𝓡| ∈ {R_FULL}, K = 3, Ñ_f ∈ {{4, 16}}, PT seeds 0–4, T_FT = 2000"))
def t2_trend_r_given_p1_full(ctx):
    ctx = dataclasses.replace(ctx, profile="full")
    return combine({f"Ñ_f = {n}": trend_param(ctx, "R", R_FULL, -1, "prop1", n) for n in (N_FT_KR, 16)})


@CLAIMS.add("t2-coverage-law-given-p1-full", location="abstract (v4), relation covering; spec §5", kind=Kind.IDENTITY,
            catalogue_id="KX-T2-coverage-law", statement=COVERAGE_STATEMENT + GIVEN_P1, tags={"slow"},
            expect=Status.REFUTED, finding=Finding.RECONSTRUCTION, readings=COVERAGE_READINGS,
            reason=("on the Prop. 1-assumed model (attention fixed by hand) and FT protocol (η_FT = 10, T_FT = 2000; "
                    "5 PT seeds × 15 FT draws): P(correct | uncovered) = 0 (496 pairs) but P(correct | covered) = 0.20 "
                    "(914 pairs); mean |acc − covered fraction| = 0.51 ± 0.04"),
            choices=p1_choices(grid="Ñ_f ∈ {1,2,4,8,16} × 3 replicates × PT seeds 0–4, T_FT = 2000"))
def t2_coverage_law_given_p1_full(ctx):
    return coverage_mode(prop1(), "full")


@CLAIMS.add("s7-fig2-given-p1-full", location="Sec. 7, Fig. 2a/2b; App. J.1; spec §5", kind=Kind.REPRODUCTION,
            catalogue_id="KX-S7-fig2", statement=FIG2_STATEMENT + GIVEN_P1, tags={"slow"},
            choices=p1_choices(reweight_rare="True (J.1: rare gradients × K)",
                               grid=f"Ñ_f ∈ {{1,2,4,8,16}}; K ∈ {K_FULL} and |𝓡| ∈ {R_FULL} at Ñ_f = {N_FT_KR}; "
                               "PT seeds 0–4 × 3 FT replicates; T_FT = 2000"))
def s7_fig2_given_p1_full(ctx):
    return fig2(ctx, "prop1")
