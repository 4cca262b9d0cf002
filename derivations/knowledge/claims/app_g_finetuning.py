"""App. G (and H.4), full fine-tuning: the attention on Q&A prompts during FT (Lemma 17), the pre-trained model on
the Q&A prompts (Lemma 18, Remark 2) and extraction after one FT step (App. G.4 (274)–(281), H.4 (331)–(338)).
Measured on the reconstructed model (``experiments``); the FT protocol is recorded in each claim's choices."""
from __future__ import annotations

import dataclasses

import numpy as np

import theoryverify as tv

from ..experiments import ood_sweeps as O
from ..experiments import training as T
from ..experiments.protocol import GIVEN_P1, choices, p1_choices, prop1
from ..experiments.pt_runs import (BASE, REC, SIZES, STAGES, SWEEP_GRID, SWEEP_SEEDS, default_run, learns, qa_argmax,
                                   recon_sweep)
from ..model import transformer as model
from ..model.setup import Recon

CLAIMS = tv.ClaimSet("knowledge")


# --- Lemma 17: attention on [s, f] during FT ---------------------------------------------------------------------

ETA_FT, T_FT = 10.0, 50


@CLAIMS.add("l17-frozen-attn", location="Lemma 17 (233)–(235), App. G.1; Lemma 28", kind=tv.Kind.DYNAMICS,
            catalogue_id="KX-L17-frozen-attn",
            statement="During full FT the attention on Q&A prompts [s, f] stays ≈ 1/2, because PT never updates Z's "
                      "f-query entries (they keep their init values, Lemma 4).",
            choices={**BASE, "reading": f"FT moves W only (Recon.ft_params = 'W', Lemma 25's proof); |α_s − 1/2| ≤ 0.05 "
                                        f"over {T_FT} full-FT steps at η_FT = {ETA_FT}"},
            params={"ft_params": "W"})
@CLAIMS.add("l17-frozen-attn-wz", location="Lemma 17 (233)–(235), App. G.1", kind=tv.Kind.DYNAMICS,
            catalogue_id="KX-L17-frozen-attn", expect=tv.Status.REFUTED, finding=tv.Finding.RECONSTRUCTION,
            reason="refuted only under the reconstruction choice ft_params = W+Z (Sec. 4: FT is 'the same GD procedure as "
                   "in PT'; Lemma 25's proof moves W only, and then Lemma 17 holds: l17-frozen-attn): at η_FT = 10 (lost) "
                   "one FT step moves mean α_s([s,f]) from 0.5 to 0.976; the authors' favour within W+Z, a small η_FT, "
                   "does not rescue it (session 23 probe: max |α_s − 1/2| over 50 steps = 0.14 at η_FT = 0.1, 0.21 at "
                   "0.3). Paper: Lemma 17 'during full FT, the following holds: (233)' with proof 'As the attention "
                   "matrix has never been updated during PT with respect to the query of [f] ... by Lemma 4' — the proof "
                   "argues only about PT: under this reading it also has a gap (FT's gradient moves Z[:, f] at step 1), "
                   "not registered separately because the gap exists only under the W+Z reading this claim refutes",
            readings=tv.Readings(tested="full FT trains Z as well as W (Sec. 4: 'the same GD procedure as in PT')",
                                 others={"FT moves W only (Lemma 25's proof: only the MLP neurons are updated)":
                                         "holds: knowledge.l17-frozen-attn"}),
            statement="Lemma 17 with Z trained in full FT (Recon.ft_params = 'W+Z').",
            choices={**BASE, "ft_params": "W+Z", "reading": f"|α_s − 1/2| ≤ 0.05 over {T_FT} full-FT steps at "
                                                             f"η_FT = {ETA_FT}"},
            params={"ft_params": "W+Z"})
def check_frozen(ctx: tv.RunContext | None = None, recon: Recon | None = None, eta_ft: float = ETA_FT,
                 steps: int = T_FT, tol: float = 0.05) -> tv.Verdict:
    """(a) PT never moves the f-query column Z[:, f] (exact); (b) hence at the end of PT
    |α_s([s_i,f]) − 1/2| ≤ (μ + 1) max|Z_0[:, f]| / 4 (sigmoid is 1/4-Lipschitz); (c) during full FT
    (parameters per ``recon.ft_params``, default ``ctx.params["ft_params"]``) max_t,i |α_s − 1/2| ≤ tol."""
    if recon is None:
        recon = dataclasses.replace(REC, ft_params=ctx.params["ft_params"]) if ctx is not None else REC
    st, kn, rec = default_run()
    rec = dataclasses.replace(rec, ft_params=recon.ft_params)
    Z0, _ = model.init(kn.vocab.size + rec.d_extra, rec.m, rec.sigma0, np.random.default_rng(SIZES["seed"]))
    f = kn.vocab.f
    drift_col = float((st.Z[:, f] - Z0[:, f]).abs().max())
    bound = (rec.mu + 1) * float(Z0[:, f].abs().max()) / 4
    a_pt = qa_argmax(st, kn, rec)["alpha_s"]
    dev_pt = float((a_pt - 0.5).abs().max())
    ft = T.finetune(st, kn, rec, eta_ft, steps, mode="full", record_every=1)
    a_ft = np.asarray(ft.trace["alpha_s_ft"])
    dev_ft = np.abs(a_ft - 0.5)
    det = {"Z_f_column_drift_in_PT": drift_col, "alpha_s_end_PT_max_dev": dev_pt, "lemma4_bound": bound,
           "trajectory": {"x": ft.trace["t"], "series": {"mean α_s([s,f]) on D_FT": a_ft.tolist()}}}
    parts = {"PT leaves Z[:, f] at init": tv.holds("exact comparison with the re-drawn init",
                                                   f"max |ΔZ[:, f]| = {drift_col}")
             if drift_col == 0.0 else tv.refuted("exact comparison", f"Z[:, f] moved by {drift_col:.3g} in PT",
                                                 {"drift": drift_col})}
    parts["end of PT: α_s ≈ 1/2 (Lemma 4 bound)"] = (
        tv.holds("all Q&A prompts", f"max |α_s − 1/2| = {dev_pt:.3g} ≤ {bound:.3g}") if dev_pt <= bound else
        tv.refuted("all Q&A prompts", f"|α_s − 1/2| = {dev_pt:.3g} > {bound:.3g}", {"dev": dev_pt, "bound": bound}))
    k = int(dev_ft.argmax())
    parts[f"full FT ({rec.ft_params})"] = (
        tv.holds(f"full FT η_FT = {eta_ft}, {steps} steps", f"max_t |mean α_s − 1/2| = {dev_ft.max():.3g} ≤ {tol}")
        if dev_ft.max() <= tol else
        tv.refuted(f"full FT η_FT = {eta_ft}, {steps} steps",
                   f"mean α_s([s,f]) = {a_ft[k]:.3g} at FT step {ft.trace['t'][k]} (|· − 1/2| > {tol}); "
                   f"after 1 step: {a_ft[1]:.4g}",
                   {"ft_params": rec.ft_params, "eta_ft": eta_ft, "step": int(ft.trace["t"][k]),
                    "alpha_s": float(a_ft[k]), "tol": tol}))
    v = tv.combine(parts)
    v.details.update(det)
    return v


# --- Lemma 18 / Remark 2: the pre-FT model on Q&A prompts -------------------------------------------------------

#: Remark 2 (Sec. 3): "Absent this token [r] during inference, the model falters in producing accurate answers due to the
#: missing relational cue. Fine-tuning is thus essential …"; Lemma 18 (App. G.2): "With probability [lost], the
#: following holds: For all [i], we have (236); For all [i] and [lost], we have (237)" — both displays lost.
_L18_REASON = ("on the reconstruction ((236)–(237) lost; read as 'argmax F([s_i,f]) is a relation token for every i'; "
               "Remark 2's surviving words: 'Absent this token during inference, the model falters in producing "
               "accurate answers'): "
               "at μ_c = 3 the pre-FT model already answers 84% of Q&A prompts; the relation fraction is 0–0.52 in the "
               "18 swept runs that learn the facts and reaches 0.76–1 only where PT stays ≥ H + 0.06 (flips with μ_c)")
_L18_READINGS = tv.Readings(
    tested="before FT the argmax of F([s_i, f]) is a relation token for every pair i",
    others={"weaker (Remark 2, the authors' favour): without r the pre-FT model falters, i.e. answers few Q&A prompts":
            "fails at the default too (84% of the prompts answered before FT at μ_c = 3) but about half are answered "
            "at μ_c = 4: the outcome flips with the lost μ_c, so the class stays reconstruction"})


@CLAIMS.add("l18-preft-halluc", location="Lemma 18 (236)–(237), App. G.2; Remark 2", kind=tv.Kind.DYNAMICS,
            catalogue_id="KX-L18-preFT-halluc", expect=tv.Status.REFUTED, reason=_L18_REASON,
            finding=tv.Finding.RECONSTRUCTION, readings=_L18_READINGS,
            statement="Before FT, a Q&A prompt [s_i, f] predicts a relation token, not the answer (for all i); full "
                      "profile: across the reconstruction sweep (3 seeds).",
            choices={**BASE, "reading": "argmax over all d outputs of F([s_i, f]) is a relation token, for every pair "
                                        "(full: in every run that learns the facts)",
                     "grid (full)": str(SWEEP_GRID), "seeds (full)": str(SWEEP_SEEDS)},
            variants={"full": tv.Variant(params={"sweep": True}, tags={"slow"}, id="l18-preft-halluc-full")})
def check_halluc(ctx: tv.RunContext | None = None, recon: Recon = REC) -> tv.Verdict:
    """Lemma 18 on the default run (or ``recon``); with params sweep=True, across the reconstruction sweep."""
    if ctx is not None and ctx.params.get("sweep"):
        return halluc_sweep()
    st, kn, rec = default_run(recon)
    q = qa_argmax(st, kn, rec)
    det = {"fraction_relation": float(q["is_relation"].mean()), "fraction_own_answer": float(q["is_answer"].mean()),
           "ood_error_preFT": T.ood_error(st, kn, rec)}
    method = f"pre-trained model (T = {STAGES[2]}), argmax_j F_j([s_i, f]) for all {kn.N} pairs"
    if q["is_relation"].all():
        return tv.holds(method, "every Q&A prompt predicts a relation token", **det)
    i = int(np.nonzero(~q["is_relation"])[0][0])
    return tv.refuted(method, f"{(~q['is_relation']).sum()} of {kn.N} prompts do not predict a relation "
                              f"({q['is_answer'].mean():.0%} already predict their own answer)",
                      {"pair": i, "argmax_token": int(q["argmax"][i]), "answer_token": int(kn.vocab.a(i)),
                       **rec.record()}, **det)


def halluc_sweep() -> tv.Verdict:
    rows = recon_sweep()
    ok = [r for r in rows if learns(r)]
    det = {"sweep_rows": rows, "qa_rel_range_learning_runs": [min(r["qa_rel"] for r in ok), max(r["qa_rel"] for r in ok)]
           if ok else None}
    if not ok:
        return tv.inconclusive("sweep", "no swept reconstruction learns the facts", **det)
    good = [r for r in ok if r["qa_rel"] >= 1.0]
    if good:
        return tv.inconclusive("sweep", f"flips: {len(good)} of {len(ok)} learning runs predict relations for every "
                                        "prompt", **det)
    best = max(ok, key=lambda r: r["qa_rel"])
    return tv.refuted("sweep", f"no learning run predicts a relation for every prompt (fractions "
                               f"{det['qa_rel_range_learning_runs'][0]:.2f}–{det['qa_rel_range_learning_runs'][1]:.2f})",
                      best, **det)


# --- App. G.4 / H.4: extraction after one FT step ---------------------------------------------------------------

# η_FT grid: the coarse decade grid plus 20–70 around the best one-step η (session 23: the authors' favour — the
# best one-step η is not missed between 30 and 100, where the accuracy falls to 0).
ETAS_ONESTEP = (0.3, 1.0, 3.0, 10.0, 20.0, 30.0, 40.0, 50.0, 70.0, 100.0, 300.0, 1000.0)
ONESTEP_NFT = 16


def onestep_decision(etas, acc1: np.ndarray, best_multi: float, acc0: float, n_ood: int) -> tv.Verdict:
    """acc1[k, r]: OOD accuracy after ONE FT step with η_k (replicate r); best_multi: mean best accuracy of
    multi-step FT; acc0: before FT.  (a) reaches: max_η mean one-step accuracy ≥ best_multi; (b) overshoot: the mean
    one-step accuracy at the largest η is below its maximum by > 1/n_ood (one pair).  A one-step maximum below
    best_multi by at most one pair is a near miss: inconclusive (session 23 — the full profile fell short by about
    half a pair in both PT regimes; a one-pair tolerance would have called that a pass), more is refuted."""
    mean = acc1.mean(1)
    k = int(mean.argmax())
    tol = 1.0 / n_ood
    short = best_multi - float(mean[k])
    text = (f"one-step OOD accuracy {np.round(mean, 3).tolist()} at η_FT = {list(etas)}; best {mean[k]:.3f} at "
            f"η = {etas[k]}; multi-step best-iteration accuracy {best_multi:.3f} (one-step "
            f"{'short by' if short > 0 else 'above by'} {abs(short) * n_ood:.2f} of {n_ood} OOD pairs); before FT "
            f"{acc0:.3f}")
    det = {"sweep": {"param": "η_FT", "x": list(etas), "measured": mean.tolist()}, "best_multi": best_multi,
           "acc0": acc0, "shortfall_pairs": short * n_ood, "n_ood": n_ood}
    a_ok, near, b_ok = short <= 0, 0 < short <= tol, mean[-1] < mean[k] - tol
    if a_ok and b_ok:
        return tv.holds("one-step FT over an η grid", text, **det)
    if near and b_ok:
        return tv.inconclusive("one-step FT over an η grid",
                               f"near miss: the best one-step accuracy is below the multi-step one by "
                               f"{short * n_ood:.2f} pair(s) (< 1 pair: neither a clear pass nor a clear failure; "
                               f"the multi-step reference is a best over many iterates); " + text, **det)
    return tv.refuted("one-step FT over an η grid", text,
                      {"eta_best": etas[k], "one_step_best": float(mean[k]), "best_multi": best_multi,
                       "one_step_at_largest_eta": float(mean[-1]), "reaches_multi_step": bool(a_ok or near),
                       "shortfall_pairs": short * n_ood, "overshoots": bool(b_ok)}, **det)


def onestep_mode(rec, profile: str) -> tv.Verdict:
    cfg = O.base_config()
    runs = [(s, rep, r, kn) for (s, rep, n, r, kn) in O.sweep_runs(rec, profile) if n == ONESTEP_NFT]
    acc1 = np.array([[O.finetune(O.pretrained(**cfg, seed=s, recon=rec)[0], kn, rec, eta, 1).acc[-1]
                      for (s, _, _, kn) in runs] for eta in ETAS_ONESTEP])
    best = float(np.mean([r.best for (_, _, r, _) in runs]))          # the best post-FT iterate, t ≥ 1
    acc0 = float(np.mean([r.acc[0] for (_, _, r, _) in runs]))
    v = onestep_decision(ETAS_ONESTEP, acc1, best, acc0, len(runs[0][3].ood()))
    v.details["earlier_protocol"] = O.protocol_note([(s, rep, ONESTEP_NFT, r, kn) for (s, rep, r, kn) in runs])
    return v


ONESTEP_STATEMENT = ("App. G.4/H.4: with a suitable η_FT one FT step already reaches the post-FT OOD accuracy "
                     "(\"after one iteration, we already have …\"); too large an η_FT overshoots")


# Session 23: holds → inconclusive (quick and full).  The earlier rule accepted a one-step accuracy up to one pair
# below the multi-step one; the full profile fell short by 0.53 (μ_c = 3) and 0.47 (μ_c = 4) of 9 OOD pairs, the
# quick by 0.25 at μ_c = 4 — a near miss, not a confirmation (the finer η grid 20–70 does not close it).
@CLAIMS.add("t2-onestep", location="Thm 2(2); App. G.4 (274)–(281), H.4 (331)–(338)", kind=tv.Kind.DYNAMICS,
            catalogue_id="KX-T2-onestep", statement=ONESTEP_STATEMENT, expect=tv.Status.INCONCLUSIVE,
            choices=choices(reading="max over η of the one-step accuracy ≥ multi-step best-iteration accuracy, and "
                            "the largest η is worse than the best η by > 1 pair; short by ≤ 1 pair = near miss, "
                            "inconclusive",
                            grid=f"η_FT ∈ {ETAS_ONESTEP}, Ñ_f = {ONESTEP_NFT}, 4 FT subsets, PT seed 0 (full: 3 FT "
                            "subsets × PT seeds 0–4, multi-step reference T_FT = 2000)"),
            params={"protocol": "quick"}, variants={"full": tv.Variant(params={"protocol": "full"})})
def t2_onestep(ctx):
    return O.across_modes({name: onestep_mode(rec, ctx.params["protocol"]) for name, rec in O.modes().items()})


@CLAIMS.add("t2-onestep-given-p1", location="App. G.4, H.4; spec §5", kind=tv.Kind.DYNAMICS,
            catalogue_id="KX-T2-onestep", statement=ONESTEP_STATEMENT + GIVEN_P1,
            choices=p1_choices(grid=f"η_FT ∈ {ETAS_ONESTEP}, Ñ_f = {ONESTEP_NFT}, 4 FT subsets"),
            params={"protocol": "quick"}, variants={"full": tv.Variant(params={"protocol": "full"})})
def t2_onestep_given_p1(ctx):
    return onestep_mode(prop1(), ctx.params["protocol"])
