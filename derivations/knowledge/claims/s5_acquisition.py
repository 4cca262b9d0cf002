"""Sec. 5, Theorem 2(1) (knowledge acquisition, (13); Prop. 2 (19); Lemma 16): during pre-training some iterate
reaches the entropy H of the NTP data up to ε.  Measured on the reconstruction (``experiments.pretrained``: μ_c, κ,
η and the stage lengths are lost); H is derived for the reconstructed data (``model.entropy``).

What Thm 2(1) quantifies over: every constant ε > 0 (T large enough), "with probability at least 1 − δ" over the
initialisation (seeds), the problem sizes Condition 1 allows, and — on our model — the lost μ_c, κ, η.  The quick
claim sees one run (one ε, one seed, the default reconstruction); t2-ptloss-full decides (issue 18, Part B)."""
from __future__ import annotations

import math

import numpy as np

import theoryverify as tv
from theoryverify.evidence_types import CouldHaveFailed, attach

from ..experiments import pt_width as PW
from ..experiments.pt_pass import LOSS_CONFIGS, loss_sweep
from ..experiments.pt_runs import BASE, REC, SIZES, STAGES, H_of, default_run, learns, recon_sweep, trace

CLAIMS = tv.ClaimSet("knowledge")

EPS_LOSS = 0.02     # Thm 2(1): ∃ t ≤ T, L(θ_t) ≤ H + ε
#: t2-ptloss-eps-full (referee 15, issue 27): ε over 1.1 decades, each with the first t at which L − H ≤ ε.
EPS_GRID = (0.05, 0.015, 0.004)

#: "(13)" holds "for any constant ε": one ε is one configuration of the statement.
OVER_EPS = tv.Over("eps", 0.0, math.inf, scale="log", text="every constant ε > 0 (Thm 2: 'for any constant')")


# Referee 15 (issue 27): the full profile adds t2-ptloss-eps-full (a variant of this claim: ε ∈ {0.05, 0.015, 0.004},
# 1.1 decades; the default reconstruction at m = 96, inside Condition 1(4), η·8/m, T = 8000, and at m = 8, T = 12000):
# holds — every ε is reached (m = 96: t = 120, 440, 6190; m = 8: t = 210, 760, 6870) and L ≥ H throughout.
# Session 24 (issue 18, Part B): holds → inconclusive in the quick profile.  The run was the default reconstruction,
# chosen partly because it reaches H + 0.02 (pretrained.py), at one ε and one seed; in the stored reconstruction
# sweep (36 runs, T = 1500) the gap is 0.004–0.47: 20 of the 34 runs that learn every answer end above H + 0.02,
# 5 of them ≈ 0.44 above H.  The
# engine's quantifier rule now says "one configuration"; t2-ptloss-full decides.  The check itself is unchanged and
# still refutes a loss below H or a gap above ε (planted: tests/knowledge/test_pretrain.py).
@CLAIMS.add("t2-ptloss", location="Thm 2(1), (13); Prop. 2 (19); Lemma 16", kind=tv.Kind.INEQUALITY,
            catalogue_id="KX-T2-ptloss", expect=tv.Status.INCONCLUSIVE, over=(OVER_EPS,),
            statement="∃ t ≤ T with L(θ_t) ≤ H + ε, H the entropy of the NTP data (the optimal loss).",
            choices={**BASE, "reading": f"ε = {EPS_LOSS} at T = {STAGES[2]}; and L(θ_t) ≥ H for all t (H is the minimum)",
                     "quick profile": "one run (default reconstruction, seed 0, one ε): inconclusive by the quantifier "
                                      "rule; the full claim t2-ptloss-full covers ε (gap(T) → 0), seeds and the "
                                      "reconstruction sweep",
                     "full profile (t2-ptloss-eps-full)": f"ε ∈ {EPS_GRID} (1.1 decades): the first t with L − H ≤ ε "
                                      "on the default reconstruction at MLP width m = 96 (inside Condition 1(4): "
                                      "8 log(d|V|/δ) ≈ 83 at d = |V| = 58, δ = 0.1; η·8/m, T = 8000) and at m = 8 "
                                      "(T = 12000); the theorem selects η_3 and T per ε (lost), so an unreached ε is "
                                      "inconclusive, a loss below H refuted",
                     "could it have failed": "yes: a loss below H is refuted in both profiles; quick: a gap above ε "
                                             "at T = 1500 is refuted; full: an ε not reached by T is inconclusive "
                                             "(planted in tests/knowledge/test_pretrain.py)"},
            variants={"full": tv.Variant(params={"eps_sweep": True}, expect=None, tags={"slow"},
                                         id="t2-ptloss-eps-full")})
def check_ptloss(ctx: tv.RunContext | None = None, eps: float = EPS_LOSS, H_fn=H_of) -> tv.Verdict:
    if ctx is not None and ctx.params.get("eps_sweep"):
        return eps_sweep(ctx)
    st, kn, rec = default_run()
    tr = trace(st)
    H = H_fn(kn, rec)
    gap = tr["loss"] - H
    det = {"H": H, "min_gap": float(gap.min()), "final_gap": float(gap[-1]),
           "configurations": [{"eps": eps, "T": STAGES[2], "seed": SIZES["seed"], "N_f": kn.N_f, "mu_c": rec.mu_c,
                               "kappa": rec.kappa}],
           "trajectory": {"x": tr["t"].tolist(), "series": {"L − H": gap.tolist()}, "boundaries": list(STAGES[:2]),
                          "boundaries_label": "dotted: the ends of Stages I and II (T_1, T_2)", "ylabel": "L(θ_t) − H", "logy": bool(gap.min() > 0),
                          "thresholds": [{"value": eps, "label": f"ε = {eps}"}]}}
    method = f"three-stage PT to T = {STAGES[2]}; L(θ_t) vs H = K N_f log K / (2(K N_f + N_r)) (model/entropy.py)"
    k = int(gap.argmin())
    if gap.min() < -1e-9:
        return tv.refuted(method, f"L(θ_t) = {tr['loss'][k]:.6g} < H = {H:.6g}: H is not the optimum",
                          {"t": int(tr["t"][k]), "loss": float(tr["loss"][k]), "H": H, "eps": eps}, **det)
    if gap.min() <= eps:
        return tv.holds(method, f"min_t L − H = {gap.min():.3g} ≤ ε = {eps} (t = {int(tr['t'][k])}); L ≥ H throughout",
                        **det)
    return tv.refuted(method, f"min_t L − H = {gap.min():.3g} > ε = {eps}",
                      {"T": STAGES[2], "min_gap": float(gap.min()), "eps": eps, **rec.record()}, **det)


EPS_COULD_FAIL = CouldHaveFailed(
    "planted twin", "a loss below H is refuted, and an ε the run never reaches leaves the part inconclusive (T and η_3 "
    "are the theorem's to select, so an unreached ε is no refutation); planted in tests/knowledge/test_pretrain.py::"
    "test_ptloss_eps_sweep_holds_and_planted_failures")


def eps_part(r: dict, eps_grid=EPS_GRID) -> tv.Verdict:
    """One PT run (H, recorded t and loss): for every ε of the grid the first recorded t ≤ T with L − H ≤ ε.  Holds if
    every ε is reached and L ≥ H throughout; refuted if L < H (H is the optimum); else inconclusive."""
    t, gap = np.asarray(r["t"], float), np.asarray(r["loss"], float) - r["H"]
    hits = {e: PW.first_hit(r, e) for e in eps_grid}
    conf = {"T": int(r["T"]), "m": int(r.get("m", REC.m)), "seed": r["seed"], "N_f": r.get("N_f", SIZES["N_f"]),
            "mu_c": r["mu_c"]}
    det = {"configurations": [{"eps": e, **conf} for e in eps_grid], "first_t": {str(e): h for e, h in hits.items()},
           "min_gap": float(gap.min())}
    method = f"PT to T = {int(r['T'])}; first recorded t with L(θ_t) − H ≤ ε, ε ∈ {list(eps_grid)}"
    k = int(gap.argmin())
    if gap.min() < -1e-9:
        return tv.refuted(method, f"L(θ_t) − H = {gap[k]:.3g} < 0 at t = {int(t[k])}: H is not the optimum",
                          {"t": int(t[k]), "gap": float(gap[k]), **conf}, **det)
    text = ", ".join(f"ε = {e:g}: t = {h}" if h is not None else f"ε = {e:g}: not by T" for e, h in hits.items())
    if all(h is not None for h in hits.values()):
        return tv.holds(method, f"{text}; min L − H = {gap.min():.3g} ≥ 0", **det)
    return tv.inconclusive(method, f"{text} — an unreached ε is no refutation: T and the third-stage rate η_3 are "
                                   "selected per ε by the theorem (lost)", **det)


def eps_sweep(ctx: tv.RunContext, runs=None, eps_grid=EPS_GRID) -> tv.Verdict:
    """Thm 2(1) over ε (1.1 decades) on the default reconstruction at Condition 1(4)'s width (m = 96, η·8/m, T =
    8000: experiments.pt_width.EPS_CONFIG) and at m = 8 (T = 12000, stored for t2-ptloss-full)."""
    if runs is None:
        runs = [PW.width_sweep([PW.EPS_CONFIG])[0], {**loss_sweep([LOSS_CONFIGS[0]])[0], "m": REC.m}]
    parts = {f"m = {r.get('m', REC.m)}, μ_c = {r['mu_c']:g}, seed {r['seed']}, T = {r['T']}": eps_part(r, eps_grid)
             for r in runs}
    return attach(tv.combine(parts), EPS_COULD_FAIL)


#: t2-ptloss-full's runs: the default (pt_pass.LOSS_CONFIGS[0]: seed 0, T = 12000), the reconstruction sweep's two worst
#: rows that learn every answer (LOSS_CONFIGS[1:], continued to T = 24000: their gap is 0.436 / 0.435 there, 0.444 /
#: 0.438 at T = 6000), the default reconstruction at seeds 1, 2 and at N_f = 8, 40, 80 (seed 0; N_f 8–80 is 1 decade),
#: each to T = 6000.
FULL_RUNS = [LOSS_CONFIGS[0], *({**c, "T": 24000} for c in LOSS_CONFIGS[1:]),
             *({**LOSS_CONFIGS[0], "seed": s, "T": 6000} for s in (1, 2)),
             *({**LOSS_CONFIGS[0], "N_f": n, "T": 6000} for n in (8, 40, 80))]


def _label(c: dict) -> str:
    return (f"μ_c = {c['mu_c']:g}, κ = {c['kappa']:g}, η = {tuple(c['etas'])}, N_f = {c['N_f']}, seed {c['seed']}, "
            f"T = {c['T']}")


# Session 24 (issue 18, Part B): holds → inconclusive.  It was one run at the default reconstruction.  Now: the
# default at three seeds (all decay) and at N_f = 8, 40, 80 (N_f = 8 plateaus 0.26 above H to T = 6000 with every
# answer right), the reconstruction sweep's two worst rows that learn every answer (a plateau
# ≈ 0.44 above H up to T = 24000: the [c, s_i] inputs never learn the relation slot, Σ_r p_r ≈ 0.1) and the sweep at
# T = 1500 (gap ≤ ε in 14 of the 34 runs that learn every answer).  The outcome flips with μ_c, η and the seed, all lost or
# random; Condition 1 and the selected η_3 are lost, so a plateau cannot be placed inside the hypotheses: no finding.
@CLAIMS.add("t2-ptloss-full", location="Thm 2(1), (13); Lemma 16", kind=tv.Kind.RATE, catalogue_id="KX-T2-ptloss",
            expect=tv.Status.INCONCLUSIVE, converges=True,
            statement="For every ε > 0 some t ≤ T has L(θ_t) ≤ H + ε: the best gap min_(t ≤ T) L − H decays to 0 in T "
                      "(with probability ≥ 1 − δ: over seeds; on our model: over the lost μ_c, κ, η).",
            choices={**BASE, "reading": "gap(T) = min_(t ≤ T) L − H fitted as C·T^b over T ∈ T_max·{1/16, …, 1} "
                                        "(1.2 decades) per run; a run holds if the CI < −0.2, plateaus if the CI > "
                                        "−0.05; runs: the default at seeds 0 (T = 12000), 1, 2 and N_f = 8, 40, 80 (T = 6000), the "
                                        "reconstruction sweep's worst rows that learn every answer (T = 24000); plus "
                                        f"the sweep at T = {STAGES[2]}: gap ≤ ε = {EPS_LOSS} in every learning run",
                     "authors' reading": "Thm 2 holds with probability ≥ 1 − δ, under Condition 1 and with its own "
                                         "η_3 (all lost): a plateau run may be the δ event or lie outside Condition "
                                         "1, so plateaus on swept reconstructions leave the verdict inconclusive; "
                                         "Lemma 16's telescoping (1/T) is reported, not decided (its comparator θ* "
                                         "grows as ε → 0)",
                     "runs": "; ".join(_label(c) for c in FULL_RUNS),
                     "could it have failed": "yes: a run whose gap stops decaying is refuted (planted plateau in "
                                             "tests/knowledge/test_pretrain.py), and two swept reconstructions do",
                     "the plateaus against Condition 1(4)": "referee 15: every run here is at m = 8, outside Condition "
                         "1(4) (Lemma 10: m ≥ 8 log(d|V|/δ) ≈ 83); at m = 96 with η·8/m (experiments.pt_width) the two "
                         "plateau reconstructions (0.44 above H at m = 8) reach L − H = 0.028 and 0.018 by T = 1500, and "
                         "the default reaches every ε ∈ {0.05, 0.015, 0.004} (t2-ptloss-eps-full) — the plateaus look "
                         "like the width's; their decay at m = 96 was not run past T = 1500 (≈ 2 CPU-min a run to T = "
                         "8000), so this claim stays inconclusive"},
            tags={"slow"})
def check_ptloss_decay(ctx: tv.RunContext, eps: float = EPS_LOSS, runs=None, rows=None) -> tv.Verdict:
    """gap(T) = min_{t ≤ T} L(θ_t) − H per run; "∃ t ≤ T: L ≤ H + ε for every ε" needs gap(T) → 0.
    Each run: fit gap ≈ C·T^b (bootstrap CI) — holds if the CI lies below −0.2 (a decaying power law), refuted if it
    lies above −0.05 (a plateau above H) — with the convergence diagnostics of its loss curve (distance of the final
    loss to H against ε).  The default reconstruction refuting refutes the claim; a plateau elsewhere in the
    reconstruction sweep, with the default decaying, makes it inconclusive (the outcome flips with lost choices).
    (A claim of its own, not a profile variant of t2-ptloss: a rate in T, where t2-ptloss is one inequality.)"""
    runs = loss_sweep(FULL_RUNS) if runs is None else runs
    rows = recon_sweep() if rows is None else rows
    parts = {}
    for r in runs:
        T_max = int(r["T"])
        grid = [T_max // 16, T_max // 8, T_max // 4, T_max // 2, T_max]
        t, loss = np.asarray(r["t"], float), np.asarray(r["loss"], float)
        v = decay_verdict(grid, [float(loss[t <= T].min()) - r["H"] for T in grid], ctx.seed, T_max)
        v.details["convergence"] = tv.diagnose(loss, optimum=r["H"], tol=eps, steps=t)
        v.details["configurations"] = [{k: r[k] for k in ("mu_c", "kappa", "seed", "N_f", "T")}]
        v.details["answer_acc_end"], v.details["relation_mass_end"] = r["acc_end"], r["relmass_end"]
        parts[_label(r)] = v
    ok = [x for x in rows if learns(x, gap=math.inf)]
    far = [x for x in ok if x["gap"] > eps]
    parts[f"reconstruction sweep at T = {STAGES[2]}"] = (
        tv.holds("stored sweep (pt_runs.recon_sweep)", f"gap ≤ {eps} in all {len(ok)} runs that learn every answer")
        if not far else
        tv.inconclusive("stored sweep (pt_runs.recon_sweep)",
                        f"gap > {eps} in {len(far)} of {len(ok)} runs that learn every answer (max "
                        f"{max(x['gap'] for x in far):.3g}); T = {STAGES[2]} only, so not a refutation"))
    default = parts[_label(runs[0])]
    v = tv.combine(parts)
    v.details["sweep_rows"] = rows
    if default.status is tv.Status.REFUTED or v.status is not tv.Status.REFUTED:
        return v
    bad = [k for k, p in parts.items() if p.status is tv.Status.REFUTED]
    plateaus = "; ".join(f"[{k}] {parts[k].evidence}" for k in bad)
    return tv.inconclusive(v.method, f"the outcome flips across the reconstruction, seeds and sizes: the default "
                                     f"decays ({default.evidence}), but {len(bad)} run(s) do not: {plateaus} — μ_c, "
                                     "η, Condition 1's constants (how large N must be) and the selected η_3 are lost, "
                                     "the seed is the theorem's δ", **v.details)


def decay_verdict(grid, gaps, seed: int, T_max: int | None = None) -> tv.Verdict:
    gaps = np.asarray(gaps, float)
    fit = tv.fit_power_law(list(grid), gaps, seed)
    lo, hi = fit.ci
    det = {"sweep": tv.sweep_details("T", grid, gaps), "fit": {"exponent": fit.exponent, "ci": [lo, hi],
                                                               "lemma16_exponent": -1.0,
                                                               "ci_contains_-1": bool(lo <= -1 <= hi)}}
    method = f"three-stage PT run to T = {T_max}; gap(T) = min_(t ≤ T) L − H; power-law fit, bootstrap 95% CI"
    text = f"gaps {np.round(gaps, 5).tolist()} at T = {list(grid)}; b = {fit.exponent:.3g} (CI [{lo:.3g}, {hi:.3g}])"
    if hi < -0.2:
        return tv.holds(method, text + " — the gap decays to 0", **det)
    if lo > -0.05:
        return tv.refuted(method, text + " — the gap plateaus above H", {"grid": list(grid), "gaps": gaps.tolist(),
                                                                         "exponent": fit.exponent}, **det)
    return tv.inconclusive(method, text, **det)
