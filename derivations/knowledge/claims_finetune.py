"""Fine-tuning dynamics on the reconstructed model: Prop. 3's low-rank first gradient, one-step extraction
(App. G.4/H.4), rank-1 FT (Thm 2(2), App. H) and overfitting to the format token (Remark 4, App. D, Fig. 6)
(spec KX-P3-lowrank, KX-T2-onestep, KX-T2-lowrank-FT, KX-R4-overfit).

Measured in both PT regimes of ``ood_sweeps.modes`` (μ_c = 3 default / μ_c = 4, Lemma 18 regime); an outcome
that differs between them is inconclusive ("hinges on μ_c"); ``-given-p1`` claims use the Prop. 1 regime
(attention fixed at Prop. 1's state, ``ood_sweeps.Prop1``).  The decision rules are pure functions of the
measured numbers, so tests/knowledge/test_finetune.py can plant wrong claims into the same rules.
"""
from __future__ import annotations

import numpy as np
import torch

from theoryverify.claims import ClaimSet, Kind
from theoryverify.findings import Finding, Readings
from theoryverify.verdicts import Status, Verdict, combine, holds, inconclusive, refuted

from . import ood_sweeps as O
from .claims_ood import FT_CHOICES

CLAIMS = ClaimSet("knowledge")


def choices(**extra) -> dict:
    return O.pt_choices(O.modes()["mu_c=3 (default)"]) | FT_CHOICES | {k: str(v) for k, v in extra.items()}


# --------------------------------------------------------------------------------------- Prop. 3: low rank
P3_SIZES_QUICK, P3_SIZES_FULL, P3_DRAWS = (6, 10, 14, 20), (6, 12, 24, 48, 60), 4
P3_FULL_CFG = {"N_f": 60, "N_r": 5, "K": 3, "R": 6}


def p3_measure(rec, cfg: dict, sizes, draws: int, pt_seeds=(0,)) -> dict[str, np.ndarray]:
    """σ_2/σ_1, ‖G − G_1‖_F/‖G‖_F and |⟨v_1, e_f⟩| of the first FT gradient (sizes × draws·seeds each), and the
    Frobenius asymptote α_sμ/√(α_s²μ² + α_f²) on [s, f] (mean over the FT prompts)."""
    out = {"s2_over_s1": [], "resid": [], "v1_f": []}
    asym = []
    for n in sizes:
        rows = {k: [] for k in out}
        for s in pt_seeds:
            st, kn, rec2 = O.pretrained(cfg["N_f"], cfg["N_r"], cfg["K"], cfg["R"], s, recon=rec)
            for k in range(draws):
                knk = O.with_ft(kn, np.random.default_rng(1000 * s + k).choice(kn.N_f, n, replace=False))
                r = O.rank1_stats(O.first_gradient(st, knk, rec2), kn.vocab.f)
                for key in out:
                    rows[key].append(r[key])
                h = O.hidden(st, knk, rec2, knk.ft()).numpy()
                beta, gamma = h[:, [kn.vocab.s(i) for i in knk.ft_pairs]].max(1), h[:, kn.vocab.f]
                asym.append(float(np.mean(beta / np.sqrt(beta ** 2 + gamma ** 2))))
        for key in out:
            out[key].append(rows[key])
    return {k: np.array(v) for k, v in out.items()} | {"frobenius_asymptote": float(np.mean(asym))}


def p3_decision(sizes, ratio: np.ndarray, align: np.ndarray, seed: int, align_min: float = 0.9,
                frob: np.ndarray | None = None, frob_asym: float | None = None) -> Verdict:
    """(a) G → rank 1 in operator norm: σ_2/σ_1 decreases with Ñ_f (slope of log σ_2/σ_1 vs log Ñ_f, bootstrap
    CI < 0 holds, > 0 refuted); (b) v_1 ≈ f: mean |⟨v_1, e_f⟩| at the largest Ñ_f ≥ 0.9 (holds) / < 0.9 beyond
    2 SE (refuted).  The Frobenius residual and its derived Θ(1) asymptote are reported, not tested."""
    from theoryverify.scaling import fit_line
    fit = fit_line(np.log(sizes), np.log(ratio), seed=seed)
    lo, hi = fit.ci
    ta = (f"σ_2/σ_1 of ∇_W L_FT: means {np.round(ratio.mean(1), 3).tolist()} at Ñ_f = {list(sizes)}; fitted exponent "
          f"{fit.exponent:+.3f}, 95% CI [{lo:+.3f}, {hi:+.3f}] (heuristic −1/2: pair-specific s_i blocks vs the "
          f"shared f column)")
    det = {"sweep": {"param": "Ñ_f", "x": list(sizes), "measured": ratio.mean(1).tolist()},
           "exponent": fit.exponent, "ci95": [lo, hi], "v1_f_mean": align.mean(1).tolist()}
    if frob is not None:
        ta += (f"; Frobenius ‖G − G_1‖_F/‖G‖_F: {np.round(frob.mean(1), 3).tolist()} (derived Θ(1) asymptote "
               f"α_sμ/√(α_s²μ²+α_f²) = {frob_asym:.3f}: no decay in Frobenius norm)")
        det |= {"frobenius_resid": frob.mean(1).tolist(), "frobenius_asymptote": frob_asym}
    if hi < 0:
        a = holds("fitted exponent of σ_2/σ_1", ta, **det)
    elif lo > 0:
        a = refuted("fitted exponent of σ_2/σ_1", ta, {"exponent": fit.exponent, "ci95": [lo, hi],
                    "sizes": list(sizes), "ratio_mean": ratio.mean(1).tolist()}, **det)
    else:
        a = inconclusive("fitted exponent of σ_2/σ_1", ta, **det)
    last = align[-1]
    m, se = float(last.mean()), float(last.std(ddof=1) / np.sqrt(len(last))) if len(last) > 1 else 0.0
    tb = (f"|⟨v_1, e_f⟩| at Ñ_f = {sizes[-1]}: {m:.3f} ± {se:.3f} (threshold {align_min}); means "
          f"{np.round(align.mean(1), 3).tolist()}")
    if m >= align_min:
        b = holds("alignment of the top right singular vector with f", tb)
    elif m + 2 * se < align_min:
        b = refuted("alignment of the top right singular vector with f", tb,
                    {"N_ft": sizes[-1], "v1_f_mean": m, "se": se, "threshold": align_min})
    else:
        b = inconclusive("alignment of the top right singular vector with f", tb)
    return combine({"σ_2/σ_1 decreases with Ñ_f": a, "v_1 ≈ f": b})


def p3_lowrank(ctx, full: bool) -> Verdict:
    cfg = P3_FULL_CFG if full else O.base_config()
    sizes = P3_SIZES_FULL if full else P3_SIZES_QUICK
    seeds = (0,)
    parts = {}
    for name, rec in O.modes().items():
        m = p3_measure(rec, cfg, sizes, P3_DRAWS, seeds)
        parts[name] = p3_decision(sizes, m["s2_over_s1"], m["v1_f"], ctx.seed, frob=m["resid"],
                                  frob_asym=m["frobenius_asymptote"])
    return O.across_modes(parts)


P3_STATEMENT = ("Prop. 3 / Lemmas 23–24 / intro: for Ñ_f ≫ |𝓡| the first FT gradient of W is close to rank 1 "
                "(‖G − G_1‖_2 = σ_2 small next to σ_1, shrinking as Ñ_f grows) and its top right singular vector "
                "aligns with the format token f")


@CLAIMS.add("p3-lowrank", location="Prop. 3; Lemmas 23–24 (App. H.1); Sec. 1 'Why is low-rank FT effective'",
            expect=Status.INCONCLUSIVE, kind=Kind.RATE, catalogue_id="KX-P3-lowrank", statement=P3_STATEMENT,
            choices=choices(reading="operator norm (Lemma 24: σ_2 ≤ ‖E‖): (a) slope of log(σ_2/σ_1) vs log Ñ_f has "
                            "bootstrap CI < 0; (b) mean |⟨v_1, e_f⟩| ≥ 0.9 at the largest Ñ_f (threshold a choice; "
                            "printed bound lost). The Frobenius residual is reported (derived Θ(1), ≈ 0.71)",
                            grid=f"Ñ_f ∈ {P3_SIZES_QUICK} (N_f = 20; Ñ_f ≥ |𝓡| = 6 only, the claim is for Ñ_f ≫ |𝓡|), "
                            f"{P3_DRAWS} random FT subsets each, PT seed 0",
                            gradient="G = ∇_W L_FT at the PT parameters, viewed as (d·m) × d (App. H)"))
def p3_lowrank_quick(ctx):
    return p3_lowrank(ctx, full=False)


@CLAIMS.add("p3-lowrank-full", location="Prop. 3; Lemmas 23–24 (App. H.1)", kind=Kind.RATE,
            catalogue_id="KX-P3-lowrank", statement=P3_STATEMENT, tags={"slow"},
            choices=choices(grid=f"Ñ_f ∈ {P3_SIZES_FULL} (N_f = 60, N_r = 5, K = 3, |𝓡| = 6), {P3_DRAWS} FT subsets "
                            "× PT seed 0 (N_f = 60 PT is ~3 min per regime on this CPU)"))
def p3_lowrank_full(ctx):
    return p3_lowrank(ctx, full=True)


# --------------------------------------------------------------------------------------- one-step extraction
ETAS_ONESTEP = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
ONESTEP_NFT = 16


def onestep_decision(etas, acc1: np.ndarray, best_multi: float, acc0: float, n_ood: int) -> Verdict:
    """acc1[k, r]: OOD accuracy after ONE FT step with η_k (replicate r); best_multi: mean best accuracy of
    multi-step FT; acc0: before FT.  (a) max_η mean one-step accuracy ≥ best_multi − 1/n_ood (one pair);
    (b) overshoot: the mean one-step accuracy at the largest η is below its maximum by > 1/n_ood."""
    mean = acc1.mean(1)
    k = int(mean.argmax())
    tol = 1.0 / n_ood
    text = (f"one-step OOD accuracy {np.round(mean, 3).tolist()} at η_FT = {list(etas)}; best {mean[k]:.3f} at "
            f"η = {etas[k]}; multi-step best-iteration accuracy {best_multi:.3f}; before FT {acc0:.3f}")
    det = {"sweep": {"param": "η_FT", "x": list(etas), "measured": mean.tolist()}, "best_multi": best_multi,
           "acc0": acc0}
    a_ok, b_ok = mean[k] >= best_multi - tol, mean[-1] < mean[k] - tol
    if a_ok and b_ok:
        return holds("one-step FT over an η grid", text, **det)
    return refuted("one-step FT over an η grid", text,
                   {"eta_best": etas[k], "one_step_best": float(mean[k]), "best_multi": best_multi,
                    "one_step_at_largest_eta": float(mean[-1]), "reaches_multi_step": bool(a_ok),
                    "overshoots": bool(b_ok)}, **det)


def onestep_mode(rec, profile: str) -> Verdict:
    cfg = O.base_config()
    runs = [(s, rep, r, kn) for (s, rep, n, r, kn) in O.sweep_runs(rec, profile) if n == ONESTEP_NFT]
    acc1 = np.array([[O.finetune(O.pretrained(**cfg, seed=s, recon=rec)[0], kn, rec, eta, 1).acc[-1]
                      for (s, _, _, kn) in runs] for eta in ETAS_ONESTEP])
    best = float(np.mean([r.best for (_, _, r, _) in runs]))
    acc0 = float(np.mean([r.acc[0] for (_, _, r, _) in runs]))
    return onestep_decision(ETAS_ONESTEP, acc1, best, acc0, len(runs[0][3].ood()))


ONESTEP_STATEMENT = ("App. G.4/H.4: with a suitable η_FT one FT step already reaches the post-FT OOD accuracy "
                     "(\"after one iteration, we already have …\"); too large an η_FT overshoots")


@CLAIMS.add("t2-onestep", location="Thm 2(2); App. G.4 (274)–(281), H.4 (331)–(338)", kind=Kind.DYNAMICS,
            catalogue_id="KX-T2-onestep", statement=ONESTEP_STATEMENT,
            choices=choices(reading="max over η of the one-step accuracy ≥ multi-step best-iteration accuracy − "
                            "1 pair, and the largest η is worse than the best η by > 1 pair",
                            grid=f"η_FT ∈ {ETAS_ONESTEP}, Ñ_f = {ONESTEP_NFT}, 4 FT subsets, PT seed 0"))
def t2_onestep(ctx):
    return O.across_modes({name: onestep_mode(rec, ctx.profile) for name, rec in O.modes().items()})


# --------------------------------------------------------------------------------------- rank-1 FT
LR_SIZES, LR_SIZES_FULL = (4, 8, 16), (2, 4, 8, 16)
LR_STEPS_QUICK = 100
LR_TOL = 0.05


def lowrank_decision(sizes, acc_full: np.ndarray, acc_r1: np.ndarray, seed: int, tol: float = LR_TOL) -> Verdict:
    """acc_*[k, r]: best-iteration OOD accuracy at Ñ_f = sizes[k].  (a) rank-1 FT's accuracy rises with Ñ_f
    (slope CI > 0 on log Ñ_f); (b) its condition is at least as strict as full FT's: at no Ñ_f is rank-1 FT
    better than full FT by more than tol beyond 2 SE of the paired difference."""
    a = O.trend_verdict(sizes, acc_r1, +1, seed, "Ñ_f (rank-1 FT)", log_x=True)
    diff = acc_r1 - acc_full
    m = diff.mean(1)
    se = diff.std(1, ddof=1) / np.sqrt(diff.shape[1]) if diff.shape[1] > 1 else np.zeros(len(m))
    k = int(np.argmax(m - 2 * se))
    text = (f"rank-1 − full best accuracy: {np.round(m, 3).tolist()} (±2SE {np.round(2 * se, 3).tolist()}) at "
            f"Ñ_f = {list(sizes)}; full {np.round(acc_full.mean(1), 3).tolist()}, rank-1 {np.round(acc_r1.mean(1), 3).tolist()}")
    if m[k] - 2 * se[k] > tol:
        b = refuted("paired rank-1 vs full accuracies", "rank-1 FT beats full FT (its condition is not stricter): "
                    + text, {"N_ft": sizes[k], "rank1_minus_full": float(m[k]), "se": float(se[k]), "tol": tol})
    elif np.all(m <= tol):
        b = holds("paired rank-1 vs full accuracies", text)
    else:
        b = inconclusive("paired rank-1 vs full accuracies", text)
    return combine({"rank-1 FT accuracy rises with Ñ_f": a, "rank-1 condition at least as strict as full": b})


def lowrank_mode(rec, profile: str, seed: int) -> Verdict:
    steps = None if profile == "full" else LR_STEPS_QUICK
    sizes = LR_SIZES_FULL if profile == "full" else LR_SIZES
    full = O.sweep_runs(rec, profile, sizes=sizes, steps=steps)
    r1 = O.sweep_runs(rec, profile, sizes=sizes, steps=steps, mode="rank1")
    return lowrank_decision(sizes, O.accuracy_table(full, sizes), O.accuracy_table(r1, sizes), seed)


LR_STATEMENT = ("Thm 2(2) (low-rank): rank-1 FT (W ← W − η σ_1 u_1 v_1ᵀ) attains low OOD error for large Ñ_f, "
                "under a condition at least as strict as full FT's")


@CLAIMS.add("t2-lowrank-ft", location="Thm 2(2) (low-rank case); App. H.4–H.5", expect=Status.INCONCLUSIVE, kind=Kind.REPRODUCTION,
            catalogue_id="KX-T2-lowrank-FT", statement=LR_STATEMENT,
            choices=choices(reading=f"(a) rank-1 best accuracy rises with log Ñ_f (slope CI > 0); (b) rank-1 never "
                            f"beats full FT by > {LR_TOL} beyond 2 SE (paired FT subsets)",
                            grid=f"Ñ_f ∈ {LR_SIZES}, 4 nested FT subsets, T_FT = {LR_STEPS_QUICK} (quick), PT seed 0"))
def t2_lowrank_ft(ctx):
    return O.across_modes({name: lowrank_mode(rec, ctx.profile, ctx.seed) for name, rec in O.modes().items()})


@CLAIMS.add("t2-lowrank-ft-full", location="Thm 2(2) (low-rank case); App. H.4–H.5", kind=Kind.REPRODUCTION,
            catalogue_id="KX-T2-lowrank-FT", statement=LR_STATEMENT, tags={"slow"},
            choices=choices(grid=f"Ñ_f ∈ {LR_SIZES_FULL} × 3 FT subsets × PT seeds 0–4, T_FT = 2000"))
def t2_lowrank_ft_full(ctx):
    return O.across_modes({name: lowrank_mode(rec, "full", ctx.seed) for name, rec in O.modes().items()})


# --------------------------------------------------------------------------------------- Remark 4: overfitting
R4_ETAS, R4_SIZES_QUICK, R4_SIZES_FULL, R4_STEPS = (3.0, 10.0, 30.0), (8, 16), (8, 16, 48), 400


def overfit_diagnostic(run: O.FTRun, kn, rec) -> dict:
    """At the last FT step: the fraction of OOD errors that predict an FT answer, and
    max_k [max_{i∈D_FT} F_{a_i}([s_k,f]) − F_{a_k}([s_k,f])] over unseen k, before vs after FT."""
    v = kn.vocab
    ood = kn.ood()
    ft_ans = torch.as_tensor([v.a(i) for i in kn.ft_pairs])
    F_end = O.logits(run.final_state, kn, rec, ood)
    pred = F_end.argmax(1).numpy()
    wrong = pred != ood.targets
    to_ft = np.isin(pred[wrong], ft_ans.numpy())
    rows = torch.arange(len(ood))
    margin = lambda F: float((F[:, ft_ans].max(1).values - F[rows, torch.as_tensor(ood.targets)]).max())
    return {"errors_end": int(wrong.sum()), "errors_to_ft_answer": int(to_ft.sum()),
            "margin_end": margin(F_end)}


def overfit_decision(rows: list[dict]) -> Verdict:
    """rows: {eta, N_ft, best, final, best_t, errors_end, errors_to_ft_answer}.  'FT may overfit' (Remark 4):
    holds if some configuration drops (final < best by ≥ 1 pair) with most of its final errors on FT answers;
    refuted if no configuration drops at all; else inconclusive (drops not explained by FT answers)."""
    drops = [r for r in rows if r["best"] - r["final"] >= r["one_pair"] - 1e-12]
    explained = [r for r in drops if r["errors_to_ft_answer"] * 2 > r["errors_end"]]
    text = "; ".join(f"η={r['eta']}, Ñ_f={r['N_ft']}: best {r['best']:.3f} @ {r['best_t']}, final {r['final']:.3f}, "
                     f"final errors on FT answers {r['errors_to_ft_answer']}/{r['errors_end']}" for r in rows)
    if explained:
        return holds("FT trajectories: drop after the best iteration + diagnostic", text, configs=rows)
    if not drops:
        return refuted("FT trajectories: drop after the best iteration", "no configuration loses accuracy: " + text,
                       {"configs": len(rows), "max_drop": max(r["best"] - r["final"] for r in rows)}, configs=rows)
    return inconclusive("FT trajectories: drop after the best iteration", "drops not due to FT answers: " + text,
                        configs=rows)


def overfit_mode(rec, profile: str) -> Verdict:
    sizes = R4_SIZES_FULL if profile == "full" else R4_SIZES_QUICK
    cfg = O.base_config() | ({"N_f": 60} if profile == "full" else {})
    rows = []
    st, kn, rec2 = O.pretrained(**cfg, seed=0, recon=rec)
    for eta in R4_ETAS:
        for n, knk in zip(sizes, O.nested_ft(kn, sizes, 0)):
            run = O.finetune(st, knk, rec2, eta, R4_STEPS, every=5)
            rows.append({"eta": eta, "N_ft": n, "best": run.best, "final": run.final, "best_t": run.best_t,
                         "one_pair": 1.0 / len(knk.ood())} | overfit_diagnostic(run, knk, rec2))
    return overfit_decision(rows)


R4_STATEMENT = ("Remark 4 / App. D, Fig. 6: FT may overfit to the format token — after enough FT steps the OOD "
                "accuracy falls, because F_{a_i}([s_k, f]) of FT answers a_i overtakes F_{a_k}([s_k, f])")


@CLAIMS.add("r4-overfit", location="Remark 4 (Sec. 6); App. D, Fig. 6", expect=Status.INCONCLUSIVE, kind=Kind.DYNAMICS,
            catalogue_id="KX-R4-overfit", statement=R4_STATEMENT,
            choices=choices(reading="some (η_FT, Ñ_f) drops ≥ 1 pair after its best iteration and most final errors "
                            "predict an FT answer", grid=f"T_FT = {R4_STEPS}, η_FT ∈ {R4_ETAS}, Ñ_f ∈ {R4_SIZES_QUICK} "
                            "(N_f = 20; 48 needs N_f = 60: -full), PT seed 0"))
def r4_overfit(ctx):
    return O.across_modes({name: overfit_mode(rec, ctx.profile) for name, rec in O.modes().items()})


@CLAIMS.add("r4-overfit-full", location="Remark 4 (Sec. 6); App. D, Fig. 6", expect=Status.INCONCLUSIVE, kind=Kind.DYNAMICS,
            catalogue_id="KX-R4-overfit", statement=R4_STATEMENT, tags={"slow"},
            choices=choices(grid=f"T_FT = {R4_STEPS}, η_FT ∈ {R4_ETAS}, Ñ_f ∈ {R4_SIZES_FULL} (N_f = 60), PT seed 0"))
def r4_overfit_full(ctx):
    return O.across_modes({name: overfit_mode(rec, "full") for name, rec in O.modes().items()})


# --------------------------------------------------------------------------------------- given Prop. 1 (spec §5)
from .claims_ood import GIVEN_P1, p1_choices, prop1  # noqa: E402


@CLAIMS.add("p3-lowrank-given-p1", location="Prop. 3; Lemmas 23–24; spec §5", kind=Kind.RATE,
            expect=Status.INCONCLUSIVE,  # grid Ñ_f 6–20 spans 0.52 decades (< 1): the span rule
            catalogue_id="KX-P3-lowrank", statement=P3_STATEMENT + GIVEN_P1,
            choices=p1_choices(grid=f"Ñ_f ∈ {P3_SIZES_QUICK}, {P3_DRAWS} FT subsets, PT seed 0"))
def p3_lowrank_given_p1(ctx):
    m = p3_measure(prop1(), O.base_config(), P3_SIZES_QUICK, P3_DRAWS)
    return p3_decision(P3_SIZES_QUICK, m["s2_over_s1"], m["v1_f"], ctx.seed, frob=m["resid"],
                       frob_asym=m["frobenius_asymptote"])


@CLAIMS.add("t2-onestep-given-p1", location="App. G.4, H.4; spec §5", kind=Kind.DYNAMICS,
            catalogue_id="KX-T2-onestep", statement=ONESTEP_STATEMENT + GIVEN_P1,
            choices=p1_choices(grid=f"η_FT ∈ {ETAS_ONESTEP}, Ñ_f = {ONESTEP_NFT}, 4 FT subsets"))
def t2_onestep_given_p1(ctx):
    return onestep_mode(prop1(), ctx.profile)


@CLAIMS.add("t2-lowrank-ft-given-p1", location="Thm 2(2) (low-rank); App. H.4–H.5; spec §5", kind=Kind.REPRODUCTION,
            catalogue_id="KX-T2-lowrank-FT", statement=LR_STATEMENT + GIVEN_P1, expect=Status.REFUTED,
            finding=Finding.RECONSTRUCTION,
            reason=("on the Prop. 1-assumed model and FT protocol (η_FT = 10, T_FT = 100; lost): rank-1 FT beats full FT "
                    "(best OOD accuracy 0.86 vs 0.64 at Ñ_f = 16, 0.46 vs 0.27 at Ñ_f = 8, paired subsets); the tested "
                    "reading (stricter condition ⇒ never better) is not implied by Thm 2(2)'s sufficient conditions"),
            readings=Readings(tested="low-rank FT's stronger condition means rank-1 FT never reaches a higher OOD "
                                     "accuracy than full FT on the same FT set",
                              others={"only the proven sufficient condition is stronger for low-rank FT (a statement "
                                      "about the bounds, not about measured accuracy)":
                                      "untested: the conditions of Thm 2(2) are lost"}),
            choices=p1_choices(grid=f"Ñ_f ∈ {LR_SIZES}, 4 FT subsets, T_FT = {LR_STEPS_QUICK}"))
def t2_lowrank_ft_given_p1(ctx):
    return lowrank_mode(prop1(), ctx.profile, ctx.seed)


@CLAIMS.add("r4-overfit-given-p1", location="Remark 4; App. D, Fig. 6; spec §5", kind=Kind.DYNAMICS,
            catalogue_id="KX-R4-overfit", statement=R4_STATEMENT + GIVEN_P1, expect=Status.REFUTED,
            finding=Finding.RECONSTRUCTION,
            reason=("on the Prop. 1-assumed model and a T_FT = 400, η_FT ∈ {3, 10, 30} grid (Remark 4's threshold on T and "
                    "Fig. 6's settings lost): no (η_FT, Ñ_f) loses OOD accuracy after its best iterate (max drop 0); "
                    "Remark 4 only says FT 'may' overfit beyond a lost T, which the grid may not reach"),
            readings=Readings(tested="some (η_FT, Ñ_f) of the T_FT = 400 grid drops after its best iterate",
                              others={"overfitting appears only beyond Remark 4's (lost) threshold on the number of "
                                      "FT iterations": "untested: the threshold is lost"}),
            choices=p1_choices(grid=f"T_FT = {R4_STEPS}, η_FT ∈ {R4_ETAS}, Ñ_f ∈ {R4_SIZES_QUICK}"))
def r4_overfit_given_p1(ctx):
    return overfit_mode(prop1(), ctx.profile)
