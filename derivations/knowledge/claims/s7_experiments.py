"""Sec. 7, experiments: Fig. 2a/2b on the simplified model, reproduced at CPU scale with J.1's protocol on the
reconstruction (5 PT seeds, 2000 FT iterations, best iteration, rare gradients × K), and the GPT-2 / Llama / PopQA
experiments, which are out of scope here (external weights and data)."""
from __future__ import annotations

import dataclasses

import theoryverify as tv

from ..experiments import ood_sweeps as O
from ..experiments.protocol import GIVEN_P1, choices, gated_trend, p1_choices, sweep_param

CLAIMS = tv.ClaimSet("knowledge")

K_FULL, R_FULL, N_FT_KR = (2, 3, 4, 5), (6, 9, 12, 18), 4

FIG2_STATEMENT = ("Sec. 7, Fig. 2a/2b (simplified model): OOD accuracy rises with K and with Ñ_f and falls with |𝓡|; "
                  "CPU-scale reproduction with J.1's protocol (5 seeds, 2000 FT iterations, best iteration, rare "
                  "gradients × K)")
FIG2_EXTERNAL = ("Fig. 2c–2e, Fig. 3, Fig. 4 (GPT-2 from scratch, PopQA) and the Llama-3.2-1B table of Sec. 7.1 "
                 "(EM 26.36 frequent vs 20.93 rare)")
FIG2_GRID = (f"Ñ_f ∈ {{1,2,4,8,16}}; K ∈ {K_FULL} and |𝓡| ∈ {R_FULL} at Ñ_f = {N_FT_KR}; PT seeds 0–4 × 3 FT "
             "replicates; T_FT = 2000")


@CLAIMS.add("s7-fig2-external", location="Sec. 7, Fig. 2c–2e, 3, 4; Sec. 7.1 table; App. J.2–J.4",
            kind=tv.Kind.REPRODUCTION, catalogue_id="KX-S7-fig2", statement=FIG2_EXTERNAL,
            expect=tv.Status.INCONCLUSIVE,
            choices={"scope": "not checkable here: needs GPT-2 / Llama-3.2-1B hub weights, PopQA and a GPU; "
                     "the figure data are lost"})
def s7_fig2_external(ctx):
    return tv.inconclusive("out of scope", "not checkable here (needs external weights and data: GPT-2 / "
                           "Llama-3.2-1B checkpoints and PopQA cannot be fetched in this environment; the figures' data "
                           "are lost) — the simplified-model panels are knowledge.s7-fig2-full")


@CLAIMS.add("s7-fig2-full", location="Sec. 7, Fig. 2a/2b; App. J.1", kind=tv.Kind.REPRODUCTION,
            catalogue_id="KX-S7-fig2", statement=FIG2_STATEMENT, tags={"slow"}, expect=tv.Status.INCONCLUSIVE,
            choices=choices(reweight_rare="True (J.1: rare gradients × K)", grid=FIG2_GRID),
            params={"which": "both"})
@CLAIMS.add("s7-fig2-given-p1-full", location="Sec. 7, Fig. 2a/2b; App. J.1; spec §5", kind=tv.Kind.REPRODUCTION,
            catalogue_id="KX-S7-fig2", statement=FIG2_STATEMENT + GIVEN_P1, tags={"slow"},
            # Re-audit (issue 18): holds → inconclusive.  The panels' trend fits now record their fit family, so the
            # span rule reaches them: K 2–5 spans 0.40 decades, |𝓡| 6–18 0.48 (< 1).  The check alone holds (5 PT
            # seeds per grid value: Ñ_f +0.22, K +0.09, |𝓡| −0.003 with CIs excluding 0).
            expect=tv.Status.INCONCLUSIVE,
            choices=p1_choices(reweight_rare="True (J.1: rare gradients × K)", grid=FIG2_GRID),
            params={"which": "prop1"})
def fig2(ctx) -> tv.Verdict:
    """The three panels' trends (Ñ_f, K, |𝓡|) per PT regime (``ctx.params["which"]``), J.1's full protocol."""
    which = ctx.params["which"]
    p = O.protocol("full")
    parts = {}
    for name, rec in O.modes(which).items():
        rw = dataclasses.replace(rec, reweight_rare=True)
        runs = O.sweep_runs(rw, "full")
        nf = O.trend_verdict(p["sizes"], O.accuracy_table(runs, p["sizes"]), +1, ctx.seed, "Ñ_f", log_x=True,
                             groups=O.pt_groups(runs, p["sizes"]))
        sub = "prop1" if which == "prop1" else name.split(" ")[0]
        k = sweep_param("full", "K", K_FULL, sub, N_FT_KR, reweight=True)[name]
        r = sweep_param("full", "R", R_FULL, sub, N_FT_KR, reweight=True)[name]
        parts[name] = tv.combine({"Fig. 2a: Ñ_f": nf, "Fig. 2a: K": gated_trend(K_FULL, k, +1, ctx.seed, "K"),
                                  "Fig. 2b: |𝓡|": gated_trend(R_FULL, r, -1, ctx.seed, "|𝓡|")})
    return O.across_modes(parts) if len(parts) > 1 else next(iter(parts.values()))
