"""Pre-training measurements shared by several claims (Props. 1–2, Thm 2(1), Lemmas 14, 17, 18): the default
run, the observables on the two pre-training input types and on the Q&A prompts, and the reconstruction sweep
(``pretrained.exploration_sweep``'s columns, re-measured), kept in the results store."""
from __future__ import annotations

import dataclasses

import numpy as np
import torch

import theoryverify as tv

from ..model import entropy
from ..model import transformer as model
from ..model.setup import Recon, embeddings
from . import pretrained as P
from . import training as T

REC = P.DEFAULT_RECON
ETAS, STAGES = P.DEFAULT["etas"], P.DEFAULT["stages"]
SIZES = {k: P.DEFAULT[k] for k in ("N_f", "N_r", "K", "R", "beta", "seed")}
BASE = {**P.config_record(REC, ETAS, STAGES, **SIZES),
        "reconstruction sweep": "pretrained.exploration_sweep (μ_c ∈ {2,3,4,5,6}, κ ∈ {1,2}, η ∈ {(10,5,1),(5,2,0.5),(20,5,1)})"}


#: How far the reconstruction findings reach over Condition 1's MLP width m and dimension d (issue 27): the
#: reconstruction sweep varies μ_c, κ and the schedule only, at m = 8 and d = |V| (d_extra = 0).  One probe run per
#: point (this session, seed 0, default μ_c = 3, κ = 1): at m = 32 the Stage-III floor min α_r = 0.256 (< 0.3 by 0.044;
#: the referee found it within 0.003), 80 % of Q&A prompts already predict a relation (not all: the strict reading
#: still fails; the referee: 84–96 %, where the authors'-favour reading holds), α_c([c,s_i]) at T_1 = 0.23 (> τ = 0.05).
#: So the Lemma 14 and Lemma 18 findings weaken as m grows and are shown at m = 8 only; the Prop. 1 filter finding
#: persists at m = 32; d was not varied (a larger d_extra was started but did not finish in the session's budget).
M_D_SCOPE = ("held at m = 8, d = |V| only (Condition 1's m and d are not swept); at m = 32 (one probe run) min α_r = "
             "0.256, 80% of Q&A prompts predict a relation, α_c([c,s_i]) at T_1 = 0.23 — the Lemma 14 and Lemma 18 "
             "findings weaken with m (the referee: within 0.003 of 0.3, 84–96% relations), the Prop. 1 filter finding "
             "persists; d not varied")


def H_of(kn, recon: Recon = REC) -> float:
    """H (model/entropy.py, derived) for the data's sizes."""
    return float(entropy.H_formula(recon.reweight_rare).subs({entropy.K: kn.K, entropy.N_f: kn.N_f,
                                                               entropy.N_r: kn.N_r}))


def state_at(t: int, recon: Recon = REC, etas=ETAS, stages=STAGES, seed: int = SIZES["seed"]):
    """The default run stopped at step t (the same GD steps: stages (T_1, T_2, t))."""
    T1, T2, _ = stages
    return P.pretrained(SIZES["N_f"], SIZES["N_r"], SIZES["K"], SIZES["R"], seed, recon, etas,
                        (T1, T2, int(t)), SIZES["beta"])


def default_run(recon: Recon = REC, etas=ETAS, stages=STAGES, seed: int = SIZES["seed"]):
    return P.pretrained(SIZES["N_f"], SIZES["N_r"], SIZES["K"], SIZES["R"], seed, recon, etas, stages,
                        SIZES["beta"])


def pt_outputs(st, kn, recon: Recon) -> dict[str, torch.Tensor]:
    """Per-sample α and p on the two pre-training input types ([c,s_i] and [c,s_i,r])."""
    E = embeddings(kn.vocab, recon)
    ds = kn.ntp(recon)
    two = ds.tokens[:, 2] < 0
    out = {}
    for name, sub in (("2", ds.subset(two)), ("3", ds.subset(~two))):
        b = T.batch(E, sub, st.Z.device)
        o = model.forward(st.Z, st.W, b.X, b.mask, b.xL, recon.kappa)
        out[f"alpha{name}"], out[f"p{name}"], out[f"ds{name}"] = o["alpha"], torch.softmax(o["F"], 1), sub
    return out


def qa_argmax(st, kn, recon: Recon) -> dict:
    """Pre-FT Q&A prompts [s_i, f]: argmax class of each (relation / own answer / other)."""
    ds = kn.qa()
    b = T.batch(embeddings(kn.vocab, recon), ds, st.Z.device)
    o = model.forward(st.Z, st.W, b.X, b.mask, b.xL, recon.kappa)
    am = o["F"].argmax(1).cpu().numpy()
    rel = set(kn.vocab.relations().tolist())
    is_rel = np.array([a in rel for a in am])
    return {"argmax": am, "is_relation": is_rel, "is_answer": am == ds.targets, "alpha_s": o["alpha"][:, 0]}


def trace(st) -> dict[str, np.ndarray]:
    return {k: np.asarray(v, float) for k, v in st.trace.items()}


def summarize(st, kn, recon: Recon, stages) -> dict:
    """The sweep summaries (pretrained.exploration_sweep's columns) of one run."""
    tr = trace(st)
    i1 = P.stage_index(st, stages[0])
    s3 = tr["t"] >= stages[1]
    qa = qa_argmax(st, kn, recon)
    return {"gap": float(np.nanmin(tr["loss"]) - H_of(kn, recon)), "ac2_T1": float(tr["alpha_c_2"][i1]),
            "ac3_T1": float(tr["alpha_c_3"][i1]), "sr_T1": float(tr["alpha_s_over_r"][i1]),
            "relmass_T1": float(tr["relation_mass_min"][i1]), "smin_III": float(tr["alpha_s_min"][s3].min()),
            "rmin_III": float(tr["alpha_r_min"][s3].min()), "acc_end": float(tr["answer_acc"][-1]),
            "qa_rel": float(qa["is_relation"].mean()), "qa_ans": float(qa["is_answer"].mean())}


# --- the reconstruction sweep (slow claims) ------------------------------------------------------------------

SWEEP_GRID = [(mu_c, kappa, etas) for mu_c in (2.0, 3.0, 4.0, 5.0)
              for kappa, etas in ((1.0, (10.0, 5.0, 1.0)), (1.0, (5.0, 2.0, 0.5)), (2.0, (5.0, 2.0, 0.5)))]
SWEEP_SEEDS = (0, 1, 2)


def sweep_point(conf: dict) -> dict:
    rec = dataclasses.replace(REC, mu_c=conf["mu_c"], kappa=conf["kappa"])
    st, kn, rec = default_run(rec, tuple(conf["etas"]), STAGES, conf["seed"])
    return {**conf, **summarize(st, kn, rec, STAGES)}


def recon_sweep(grid=SWEEP_GRID, seeds=SWEEP_SEEDS, cache: bool = True) -> list[dict]:
    """Every (μ_c, κ, η) × seed of the grid, run once and kept in the results store."""
    configs = [{"mu_c": m, "kappa": k, "etas": list(e), "seed": s} for m, k, e in grid for s in seeds]
    key = {"claim": "knowledge.pretrain-recon-sweep", "code": tv.code_key(sweep_point),
           "sizes": {k: v for k, v in SIZES.items() if k != "seed"}, "stages": list(STAGES)}
    return tv.sweep(tv.Store() if cache else None, key, configs, sweep_point, desc="knowledge PT sweep")


def learns(row: dict, gap: float = 0.05) -> bool:
    """A reconstruction that acquires the knowledge: all answers right and the loss near H."""
    return row["acc_end"] >= 1.0 and row["gap"] <= gap
