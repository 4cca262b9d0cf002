"""The default pre-training at the MLP width Condition 1(4) requires (referee 15, issue 27): Lemma 10 — which the
Stage I–III proofs use — needs every block's active fraction ≥ 1/4, i.e. d|V|e^{−m/8} ≤ δ, m ≥ 8 log(d|V|/δ) ≈ 83 at
d = |V| = 58, δ = 0.1; the reconstruction's default m = 8 lies about 10× below.  These runs repeat the default
(N_f = 20, N_r = 5, K = 3, |𝓡| = 6, stages (50, 400, T)) at m ∈ {96, 128}.

F = κ Σ_{l ≤ m} σ(⟨w_{j,l}, h⟩) sums m neurons, so one GD step moves F about m times as far: the default η = (10, 5, 1)
at m = 96 does not learn (kept below as a record, eta_rule "as at m = 8").  The η of Condition 1 is lost; the runs
scale a schedule as η·8/m, which keeps the per-step change of F of the m = 8 run.

:data:`WIDTH_CONFIGS` (T = 1500, for Lemmas 14 and 18): μ_c ∈ {3 (default), 4 (the Lemma 18 regime: the m = 8 run
closest to 'every Q&A prompt predicts a relation')} × seeds 0–2 at m = 96, seed 0 at m = 128; the two m = 8
reconstructions whose loss plateaus 0.44 above H (t2-ptloss-full: μ_c = 3 with η = (5, 2, 0.5), seed 0; μ_c = 2,
seed 1) at m = 96; and the unscaled record.  :data:`EPS_CONFIG` (Thm 2(1)): the default at m = 96 to T = 8000.
≈ 23 / 30 CPU-s per 1500 steps at m = 96 / 128 (one core).  A module of its own so that the stored sweeps of
pt_runs / pt_pass keep their code keys."""
from __future__ import annotations

import dataclasses

import numpy as np

import theoryverify as tv

from .pt_runs import ETAS, REC, SIZES, STAGES, H_of, default_run, summarize, trace

M_DEFAULT = REC.m          # 8


def etas_of(conf: dict) -> list[float]:
    """The configuration's schedule: its m = 8 schedule × 8/m (eta_rule "8/m"), or unscaled."""
    base = [float(e) for e in conf.get("etas_m8", ETAS)]
    return [e * M_DEFAULT / int(conf["m"]) for e in base] if conf["eta_rule"] == "8/m" else base


def _conf(m, mu_c, seed, eta_rule="8/m", etas_m8=ETAS, T=STAGES[2]) -> dict:
    return {"m": m, "mu_c": float(mu_c), "seed": seed, "eta_rule": eta_rule, "etas_m8": [float(e) for e in etas_m8],
            "T": int(T)}


WIDTH_CONFIGS = ([_conf(96, mu, s) for mu in (3, 4) for s in (0, 1, 2)]
                 + [_conf(128, mu, 0) for mu in (3, 4)]
                 + [_conf(96, 3, 0, etas_m8=(5.0, 2.0, 0.5)), _conf(96, 2, 1)]
                 + [_conf(96, 3, 0, eta_rule="as at m = 8")])
EPS_CONFIG = _conf(96, 3, 0, T=8000)


def width_point(conf: dict) -> dict:
    """One PT run at width m (μ_c, seed, schedule, T of ``conf``): pt_runs.summarize's columns, H and the loss
    curve."""
    m = int(conf["m"])
    etas = etas_of(conf)
    rec = dataclasses.replace(REC, m=m, mu_c=float(conf["mu_c"]))
    stages = (STAGES[0], STAGES[1], int(conf["T"]))
    st, kn, rec = default_run(rec, tuple(etas), stages, int(conf["seed"]))
    tr = trace(st)
    return {**conf, "etas": etas, **summarize(st, kn, rec, stages), "H": H_of(kn, rec), "t": tr["t"].tolist(),
            "loss": tr["loss"].tolist()}


def width_sweep(configs=WIDTH_CONFIGS, cache: bool = True) -> list[dict]:
    key = {"claim": "knowledge.pretrain-width", "code": tv.code_key(width_point),
           "sizes": {k: v for k, v in SIZES.items() if k != "seed"}, "stages": list(STAGES[:2])}
    return tv.sweep(tv.Store() if cache else None, key, [dict(c) for c in configs], width_point,
                    desc="knowledge PT at Condition 1's width")


def label(r: dict) -> str:
    sched = "" if list(r.get("etas_m8", ETAS)) == list(ETAS) else f" (m = 8 schedule {tuple(r['etas_m8'])})"
    return f"m = {r['m']}, μ_c = {r['mu_c']:g}, seed {r['seed']}, η {r['eta_rule']}{sched}"


def first_hit(r: dict, eps: float) -> int | None:
    """First recorded t with L(θ_t) − H ≤ ε (None: not within the run)."""
    gap = np.asarray(r["loss"]) - r["H"]
    hit = np.nonzero(gap <= eps)[0]
    return int(r["t"][hit[0]]) if len(hit) else None
