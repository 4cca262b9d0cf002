"""Stage I–II observables at the MLP width Condition 1(4) requires (referee 15, issue 27), for Prop. 1 (16) and
Prop. 2 (18): the default reconstruction (μ_c = 3, κ = 1, N_r = N_f/4, K = 3, |𝓡| = 6, η = (10, 5, 1)·8/m — see
``pt_width`` for why η scales as 1/m) stopped at T_1 (Prop. 1) or T_2 (Prop. 2).

Lemma 10's width, m ≥ 8 log(d|V|/δ) with d = |V| = 2 + 2(N_f + N_r) + |𝓡| and δ = 0.1 (:func:`m_needed`): 69 / 83 / 93
/ 104 at N_f = 8 / 20 / 40 / 80.  :func:`ratio_point` runs at m = 128 (inside for every N_f ≤ 80), :func:`early_point`
at m = 96 (inside for N_f ≤ 40; Prop. 2's grid stops at N_f = 40 because a run to T_2 at N_f = 80 costs ≈ 5 CPU-min).
Kept in the results store (a module of its own so that the stored sweeps of pt_runs / pt_pass / pt_width keep their
code keys)."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import torch

import theoryverify as tv

from . import pretrained as P
from .pt_runs import ETAS, REC, SIZES, STAGES, pt_outputs, trace

DELTA = 0.1


def m_needed(N_f: int, R: int = SIZES["R"], delta: float = DELTA) -> float:
    """Lemma 10's width 8 log(d|V|/δ) at d = |V| for the sizes (N_f, N_r = N_f/4, |𝓡|)."""
    d = 2 + 2 * (N_f + max(1, N_f // 4)) + R
    return 8 * math.log(d * d / delta)


def _run(conf: dict, stages):
    m, n = int(conf["m"]), int(conf["N_f"])
    rec = dataclasses.replace(REC, m=m)
    etas = tuple(e * REC.m / m for e in ETAS)
    return P.pretrained(n, max(1, n // 4), SIZES["K"], SIZES["R"], int(conf["seed"]), rec, etas, stages,
                        SIZES["beta"])


def ratio_point(conf: dict) -> dict:
    """PT to T_1 at width m: α_s/α_r on every [c,s_i,r] input (Prop. 1 (16)) and max α_c there."""
    st, kn, rec = _run(conf, (STAGES[0], STAGES[1], STAGES[0]))
    a = pt_outputs(st, kn, rec)["alpha3"]
    return {**conf, "ratio": (a[:, 1] / a[:, 2]).tolist(), "ac3_T1": float(a[:, 0].max())}


def early_point(conf: dict) -> dict:
    """pt_pass.early_point's observables at width m: PT to T_2; min_i p_a([c,s_i,r]) and max over frequent i,
    r ∈ R_i of |p_r([c,s_i]) − 1/K| at T_2, answer accuracy and min relation mass at T_2."""
    st, kn, rec = _run(conf, (STAGES[0], STAGES[1], STAGES[1]))
    tr = trace(st)
    o = pt_outputs(st, kn, rec)
    pa = o["p3"][torch.arange(len(o["ds3"])), torch.as_tensor(o["ds3"].targets)]
    freq = o["ds2"].pair < kn.N_f
    pr = o["p2"][torch.arange(len(o["ds2"])), torch.as_tensor(o["ds2"].targets)].numpy()[freq]
    return {**conf, "N_r": kn.N_r, "K": kn.K, "ac3_T1": float(tr["alpha_c_3"][P.stage_index(st, STAGES[0])]),
            "min_pa_T2": float(pa.min()), "max_dev_pr_T2": float(np.abs(pr - 1 / kn.K).max()),
            "acc_T2": float(tr["answer_acc"][-1]), "relmass_T2": float(tr["relation_mass_min"][-1])}


RATIO_M, RATIO_SIZES, RATIO_SEEDS = 128, (5, 10, 20, 40, 80), (0, 1, 2)
EARLY_M, EARLY_SIZES, EARLY_SEEDS = 96, (4, 8, 20, 40), (0, 1, 2)


def _sweep(name: str, fn, configs: list[dict], cache: bool) -> list[dict]:
    key = {"claim": f"knowledge.{name}", "code": tv.code_key(fn), "stages": list(STAGES),
           "sizes": {k: v for k, v in SIZES.items() if k not in ("seed", "N_f", "N_r")}}
    return tv.sweep(tv.Store() if cache else None, key, configs, fn, desc=f"knowledge {name}")


def ratio_sweep(m: int = RATIO_M, sizes=RATIO_SIZES, seeds=RATIO_SEEDS, cache: bool = True) -> list[dict]:
    return _sweep("pretrain-width-T1", ratio_point, [{"m": m, "N_f": n, "seed": s} for n in sizes for s in seeds],
                  cache)


def early_sweep(m: int = EARLY_M, sizes=EARLY_SIZES, seeds=EARLY_SEEDS, cache: bool = True) -> list[dict]:
    return _sweep("pretrain-width-T2", early_point, [{"m": m, "N_f": n, "seed": s} for n in sizes for s in seeds],
                  cache)
