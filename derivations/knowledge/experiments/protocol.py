"""The fine-tuning / OOD protocol as the claims record it, and the parameter sweeps several claims share (the K and
|𝓡| sweeps of Thm 2(2), Remark 3 and Sec. 7's Fig. 2).  The runs themselves are in :mod:`.ood_sweeps`."""
from __future__ import annotations

import dataclasses

import numpy as np

import theoryverify as tv

from . import ood_sweeps as O

FT_CHOICES = {"η_FT": str(O.ETA_FT), "T_FT": "quick 200 / full 2000 (J.1), OOD accuracy every 5 / 10 steps",
              "OOD accuracy": "best recorded iteration after FT, t ≥ 1 (J.1: 'determine the optimal number of "
                              "iterations'; Thm 2(2): 'after T_FT iterations'); the untuned model (t = 0) is not "
                              "scored — the earlier protocol (best over t ≥ 0) is reported beside it",
              "PT seeds": "quick 1 (trend verdicts inconclusive: PT variance not sampled), full 5 (the unit of "
                          "replication of every trend)",
              "OOD set": "D_QA ∖ D_FT (Eq. 12): unseen frequent + all rare pairs",
              "FT subsets": "nested prefixes of a random permutation of the frequent pairs (seed = replicate)",
              "PT regimes": "μ_c = 3 (default) and μ_c = 4 (Lemma 18 regime); outcome differing → inconclusive",
              "FT parameters": "W only (Lemma 25's proof)",
              "PT gate": "grid points whose PT did not acquire the facts (min L − H > 0.25 or answer accuracy on [c, s_i, r] < 1) "
                         "are dropped from K/|𝓡| sweeps and reported"}

GIVEN_P1 = (" — conditional check 'Prop. 1 ⇒ Thm 2' (spec §5): attention fixed at Prop. 1's state (α_c ≈ 0, "
            "α_s ≈ α_r, uniform on [s, f]), only W pre-trained and fine-tuned")


def choices(**extra) -> dict:
    """The PT reconstruction (default regime) + the FT protocol + the claim's own entries, for ``choices``."""
    return O.pt_choices(O.modes()["mu_c=3 (default)"]) | FT_CHOICES | {k: str(v) for k, v in extra.items()}


def prop1() -> "O.Prop1":
    return O.modes("prop1")["Prop. 1 assumed (Z fixed)"]


def p1_choices(**extra) -> dict:
    return (O.pt_choices(prop1()) | FT_CHOICES | {"PT regimes": "Prop. 1 assumed: Z = init − c_penalty on key c, fixed"}
            | {k: str(v) for k, v in extra.items()})


def sweep_param(protocol: str, param: str, values, which: str, n_ft: int, reweight: bool = False) -> dict[str, dict]:
    """Per regime: best OOD accuracy (values × (PT seeds · replicates)) for a K or |𝓡| sweep at fixed Ñ_f under the
    FT ``protocol`` ("quick" / "full"), with NaN where PT did not acquire the facts (``ood_sweeps.pt_quality``; such
    points are dropped, and reported)."""
    base = O.base_config()
    p = O.protocol(protocol)
    out = {}
    for name, rec in O.modes(which).items():
        rec = dataclasses.replace(rec, reweight_rare=reweight)
        rows, failed, notes = [], [], []
        for v in values:
            cfg = base | {param: v}
            good = {s: O.pt_quality(*O.pretrained(**cfg, seed=s, recon=rec)) for s in p["pt_seeds"]}
            failed += [{param: v, "pt_seed": s, **q} for s, q in good.items() if not q["ok"]]
            runs = O.sweep_runs(rec, protocol, cfg=cfg, sizes=(n_ft,))
            rows.append([r.best if good[s]["ok"] else np.nan for (s, _, _, r, _) in runs])
            groups = [s for (s, *_) in runs]
            notes.append({param: v, **O.protocol_note(runs)})
        out[name] = {"acc": np.array(rows), "pt_failed": failed, "groups": groups, "protocol": notes}
    return out


def gated_trend(values, table: dict, direction: int, seed: int, what: str) -> tv.Verdict:
    """The trend test without the replicates whose PT did not converge (NaN); a grid point needs ≥ 2 replicates
    left, and the test ≥ 3 such points (else inconclusive).  Dropped PT runs are reported.  With ``table["groups"]``
    (the PT seed of each column) the PT seed is the unit of replication (:func:`ood_sweeps.trend_verdict`)."""
    acc = np.asarray(table["acc"], float)
    keep = (~np.isnan(acc)).sum(axis=1) >= 2
    note = f"; PT not converged (dropped): {table['pt_failed']}" if table["pt_failed"] else ""
    if keep.sum() < 3:
        return tv.inconclusive("sweep: bootstrap CI of the fitted slope",
                               f"fewer than 3 grid points with a converged PT{note}", acc=acc.tolist())
    v = O.trend_verdict(np.asarray(values)[keep], acc[keep], direction, seed, what, groups=table.get("groups"))
    extra = {"pt_failed": table["pt_failed"]} | ({"protocol": table["protocol"]} if "protocol" in table else {})
    return dataclasses.replace(v, evidence=v.evidence + note, details={**v.details, **extra})


def trend_param(ctx, param: str, values, direction: int, which: str, n_ft: int) -> tv.Verdict:
    """The K or |𝓡| trend under the claim's FT protocol (``ctx.params["protocol"]``), per PT regime."""
    tables = sweep_param(ctx.params["protocol"], param, values, which, n_ft)
    parts = {name: gated_trend(values, t, direction, ctx.seed, "K" if param == "K" else "|𝓡|")
             for name, t in tables.items()}
    return O.across_modes(parts) if len(parts) > 1 else next(iter(parts.values()))
