"""Sec. 6 and App. A: the experiments (claims 71-78; spec §3.9, §4.1, §4.2 S-repro-theory, §4.3), and the loss scale
of the Sec. 6 prose against the analysed model (ICLN-E-lossscale).

Two models, always named in the verdict: the analysed Eq. 6 model trained by GD from Q = 0 (the batched
q-space simulator ``experiments/dynamics.py`` on exactly the sampled prompts, cross-checked against full-Q autograd
GD) and the Sec. 6 network as we read it (``experiments/section6.py``).  Fast (untagged) variants run the analysed model
only (few seeds); the ``-full`` variants (tags ``slow`` and ``gpu``: spec §4.3 puts the Sec. 6 network
sweeps and the 30 polynomial runs on a GPU; the full profile takes hours on a CPU) add the Sec. 6 network,
more seeds and every reading, caching their runs in the results store.

[REPRO] wording (spec §4.1): CONSISTENT → holds, INCONSISTENT → refuted (the numbers as counterexample),
NOT REPRODUCIBLE FROM STATED INFORMATION / ambiguous → inconclusive.  Tolerances: ±30 % on loss values,
±25 % on epoch counts.  A target set is met by a *run option* (model, geometry, cos reading, step size,
loss reading) when every target holds for the seed-mean curve of that option.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable, Mapping

import numpy as np

import theoryverify as tv
from theoryverify import Finding, Status, holds, inconclusive, refuted

from ..experiments import dynamics as D, section6 as S6
from ..experiments.dynamics import delta_min
from ..experiments.verdicts import fmt_error, with_full_variant
from ..model.geometry import COS_READINGS, cosine_task, features
from ..printed import proofs as pp

CLAIMS = tv.ClaimSet("iclnonlinear")

LOSS_TOL, EPOCH_TOL = 0.30, 0.25
NEAR_ZERO = 0.05        # "near zero" / "→ 0": MSE ≤ 0.05 (5 % of the unit scale of Fig. 1's loss axis)
ATTN_ONE = 0.9          # "Attn approaches 1": ≥ 0.9
REL_EPS = 0.05          # T(eps): first epoch with l(t) ≤ 0.05·l(0) (relative: loss ∝ L², so absolute eps mixes L)
BIC_SIGMA = 0.05        # rss_floor = n·σ² in ln-loss units for the phase count (pure BIC also reported)
N_LOGT = 60             # phase count: log l resampled at 60 log-spaced epochs in [1, T]

OPTIONS = [("scaled_orthogonal", "projection"), ("general", "projection"), ("general", "sum")]
ETAS = (1.0, 10.0)      # common step sizes for the analysed model
ETA_L2 = 0.1            # per-L rule: η_L = 0.1 / L² (η·L² fixed)
READINGS = ("mean_k", "k1", "half_mean_k", "half_k1")

CHOICES = {
    **S6.DATA_CHOICES,
    "features": "scaled orthogonal v_k = (Δ/√2)e_k and general (Gaussian rescaled to min distance Δ)",
    "cos reading": "geometry.COS_READINGS 'projection' (both geometries) and 'sum' (general only: with scaled "
                   "orthogonal features Σ_j x_j is the same for every v_k, the task is constant, not in F)",
    "c": "0.5 fixed (the parameter list), not random",
    "analysed-model eta": f"common η ∈ {ETAS} and the per-L rule η_L = {ETA_L2}/L² (η·L² fixed); GD from Q = 0",
    "analysed-model simulator": "q-space simulator (dynamics.py) on the sampled token-class counts, paired tasks "
                                "and sampled queries = empirical Eq. 7; cross-checked against full 15×15 Q autograd GD",
    "loss reading": "MSE over prompts with query v_k: mean over k ('mean_k'), k = 1 ('k1'), and ½× each "
                    "(Eq. 7's ½); the Fig. 1 loss is any one of them",
    "Attn reading": "Attn_{i,j}: key class i, query class j (App. A); Fig. 1's Attn_1 = Attn_{1,1}, Attn_{k,1} = key v_k "
                    "for query v_1; analysed model: E[Attn | x_q = v_j]; network: query row of the attention matrix",
    "near zero": f"MSE ≤ {NEAR_ZERO} (absolute)", "Attn ≈ 1": f"≥ {ATTN_ONE}",
    "T(eps)": f"first epoch with l(t) ≤ {REL_EPS}·l_base (relative; l_base = MSE of the in-context mean predictor "
              "= the Eq. 6 model at Q = 0, on the same prompts), on the seed-mean curve and per seed",
    "T1": "min{t : Ā(t) ≥ 1/2}, Ā = mean_k Attn_{k,k} (spec §3.0)",
    "phase count": f"tv.phases.segment_count_bic on ln l against ln t at {N_LOGT} log-spaced epochs in "
                   f"[1, 400], continuous broken-stick fits with 1-3 segments; rss_floor = n·{BIC_SIGMA}² "
                   "(primary) and pure BIC (reported)",
    "tolerances": "±30 % loss values, ±25 % epochs (spec §4.1)",
    "models": "fast variants: the analysed Eq. 6 model only; -full: + the Sec. 6 network (quick profile: scaled "
              "orthogonal/projection and general/sum, 3 seeds; full profile: all three options, 10 seeds)",
    **{f"Sec. 6 network: {k}": v for k, v in S6.NET_CHOICES.items()},
}


# --- runs ---------------------------------------------------------------------------------------

def theory_runs(specs, steps: int, device: str = "auto") -> list[dict]:
    """Analysed model on the Sec. 6 prompts, every spec (geometry, reading, Ls, etas (one per L), seeds) in ONE
    batched simulation; per spec the per-class MSE (T+1, nL, S, K) and Attn_{key,query} (T+1, nL, S, K, K)."""
    prs, eta, sizes = [], [], []
    for geometry, reading, Ls, etas, seeds in specs:
        prs += [S6.cosine_prompts(L, s, geometry=geometry, reading=reading) for L in Ls for s in seeds]
        eta += [e for e in etas for _ in seeds]
        sizes.append(len(Ls) * len(seeds))
    cur = S6.train_theory(prs, eta, steps, device=device)
    out, start = [], 0
    for (geometry, reading, Ls, etas, seeds), n in zip(specs, sizes):
        sl = slice(start, start + n)
        start += n
        out.append({"model": "analysed Eq. 6 (GD from Q = 0, q-space)", "geometry": geometry, "reading": reading,
                    "Ls": list(Ls), "etas": list(etas), "seeds": list(seeds), "device": cur.device,
                    "mse_k": cur.mse_k[:, sl].reshape(steps + 1, len(Ls), len(seeds), -1),
                    "attn": cur.attn[:, sl].reshape(steps + 1, len(Ls), len(seeds), 4, 4)})
    return out


NET_EPOCHS = 400


def network_run(geometry: str, reading: str, Ls, seeds, epochs: int, cfg: S6.NetConfig, device: str = "auto") -> dict:
    prs = [S6.cosine_prompts(L, s, geometry=geometry, reading=reading) for L in Ls for s in seeds]
    cur = S6.train_network(prs, epochs, cfg, seed=int(seeds[0]), device=device)
    return {"model": f"Sec. 6 network ({cfg.optimizer} lr {cfg.lr}, {cfg.ln}-LN, d_e {cfg.d_e})",
            "geometry": geometry, "reading": reading, "Ls": list(Ls), "seeds": list(seeds), "device": cur.device,
            "mse_k": cur.mse_k.reshape(epochs + 1, len(Ls), len(seeds), -1),
            "attn": cur.attn.reshape(epochs + 1, len(Ls), len(seeds), 4, 4)}


def _net_point(conf: dict) -> dict:
    """One stored network run (a pure function of its configuration)."""
    cfg = S6.NetConfig(**conf["net"])
    r = network_run(conf["geometry"], conf["reading"], conf["Ls"], conf["seeds"], conf["epochs"], cfg, conf["device"])
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in r.items()}


def network_runs_cached(base_seed: int, options, n_seeds: int, device: str, cfg: S6.NetConfig = S6.NetConfig(),
                        epochs: int = NET_EPOCHS) -> list[dict]:
    """Sec. 6 network for all six L, cached in the store under one shared folder (every -full claim reads the same
    runs for these options, seed and code version; the seeds used are in the run record)."""
    key = {"claim": "iclnonlinear.sec6-network", "code": tv.code_key(_net_point)}
    out = []
    for geometry, reading in options:
        conf = {"geometry": geometry, "reading": reading, "Ls": list(S6.FLAT_L + S6.SHARP_L), "epochs": epochs,
                "net": cfg.describe(), "n_seeds": n_seeds, "device": device,
                "seeds": [int(base_seed) * 1000 + i for i in range(n_seeds)]}
        found = tv.sweep(tv.Store(), key, [{**conf, "seed": int(base_seed)}], _net_point, desc="sec6 network")[0]
        out.append({k: (np.asarray(v) if k in ("mse_k", "attn") else v) for k, v in found.items()})
    return out


# --- read-outs and targets (pure functions of curves; planted in tests) ---------------------------

def loss_curve(run: dict, L: float, reading: str = "mean_k") -> np.ndarray:
    """Seed-mean loss curve (T+1,) at L under a loss reading."""
    j = run["Ls"].index(L)
    m = np.asarray(run["mse_k"])[:, j]                      # (T+1, S, K)
    c = m[..., 0] if reading.endswith("k1") else m.mean(-1)
    c = c.mean(-1)
    return 0.5 * c if reading.startswith("half") else c


def diag_curve(run: dict, L: float, k: int | None = 0) -> np.ndarray:
    """Seed-mean Attn_{k,k} (k = None: Ā = mean_k Attn_{k,k})."""
    j = run["Ls"].index(L)
    A = np.asarray(run["attn"])[:, j].mean(1)               # (T+1, K, K)
    d = np.einsum("tkk->tk", A)
    return d.mean(-1) if k is None else d[:, k]


def epoch_window(t: float) -> tuple[int, int]:
    return int(math.floor(t * (1 - EPOCH_TOL))), int(math.ceil(t * (1 + EPOCH_TOL)))


def value_near(curve, t: float, target: float) -> dict:
    """'≈ target at epoch t': some epoch in t·[0.75, 1.25] has a value in target·[0.7, 1.3]."""
    lo, hi = epoch_window(t)
    seg = np.asarray(curve)[lo:hi + 1]
    ok = bool(np.any((seg >= target * (1 - LOSS_TOL)) & (seg <= target * (1 + LOSS_TOL)))) if len(seg) else False
    return {"target": f"≈ {target} at t = {t}", "ok": ok, "window": [lo, hi],
            "value_at_t": float(curve[int(t)]) if int(t) < len(curve) else None,
            "range_in_window": [float(seg.min()), float(seg.max())] if len(seg) else None}


def below_by(curve, t: float, level: float, what: str) -> dict:
    """'≤ level by epoch t': first epoch with curve ≤ level is ≤ 1.25·t."""
    hit = np.flatnonzero(np.asarray(curve) <= level)
    first = int(hit[0]) if len(hit) else None
    return {"target": f"{what} ≤ {level} by t = {t}", "ok": first is not None and first <= epoch_window(t)[1],
            "first_epoch": first}


def above_by(curve, t: float, level: float, what: str) -> dict:
    hit = np.flatnonzero(np.asarray(curve) >= level)
    first = int(hit[0]) if len(hit) else None
    return {"target": f"{what} ≥ {level} by t = {t}", "ok": first is not None and first <= epoch_window(t)[1],
            "first_epoch": first}


def t_eps(curve, rel: float = REL_EPS, ref: float | None = None) -> float:
    """First epoch with l(t) ≤ rel·ref (ref: the baseline loss, default l(0)); inf if never within the run."""
    c = np.asarray(curve)
    hit = np.flatnonzero(c <= rel * (c[0] if ref is None else ref))
    return float(hit[0]) if len(hit) else math.inf


def baseline(run: dict, L: float, seed_index: int | None = None) -> float | None:
    """MSE of the in-context mean predictor ŷ = mean_i y_i (the Eq. 6 model at Q = 0) on the run's prompts,
    seed-mean (or one seed): the reference of T(eps), common to both models (the network's own l(0) reflects
    its random output layer, not the task)."""
    if not run.get("seeds") or run.get("reading") not in ("projection", "sum"):
        return None
    cache = run.setdefault("_baseline", {})
    if L not in cache:
        vals = []
        for s in run["seeds"]:
            pr = S6.cosine_prompts(L, s, geometry=run["geometry"], reading=run["reading"])
            vals.append(float(np.mean((pr.y.mean(1) - pr.target) ** 2)))
        cache[L] = vals
    v = cache[L]
    return float(np.mean(v)) if seed_index is None else v[seed_index]


def t_one(abar) -> float:
    hit = np.flatnonzero(np.asarray(abar) >= 0.5)
    return float(hit[0]) if len(hit) else math.inf


def phase_count(curve, sigma: float | None = BIC_SIGMA, T: int | None = None) -> "tv.phases.SegmentFit":
    """segment_count_bic on ln l vs ln t at N_LOGT log-spaced epochs in [1, T]."""
    c = np.asarray(curve, float)
    T = len(c) - 1 if T is None else T
    t = np.unique(np.round(np.geomspace(1, T, N_LOGT)).astype(int))
    y = np.log(np.maximum(c[t], 1e-300))
    floor = 0.0 if sigma is None else len(t) * sigma**2
    return tv.phases.segment_count_bic(np.log(t), y, max_segments=3, min_size=5, rss_floor=floor)


def options_meeting(runs: list[dict], evaluate) -> tuple[list[dict], list[dict]]:
    """Evaluate a target set on every (run, loss reading, η); returns (all rows, rows meeting every target)."""
    rows = []
    for run in runs:
        for reading in READINGS:
            res = evaluate(run, reading)
            rows.append({"model": run["model"], "geometry": run["geometry"], "cos reading": run["reading"],
                         "etas": run.get("etas"), "loss reading": reading, "targets": res,
                         "all_ok": all(r["ok"] for r in res)})
    return rows, [r for r in rows if r["all_ok"]]


def repro_verdict(name: str, rows: list[dict], ok_rows: list[dict], models_run: str, note: str = ""):
    """CONSISTENT if some option meets every target, INCONSISTENT (refuted) if none does."""
    compact = [{"model": r["model"], "geometry": r["geometry"], "cos": r["cos reading"], "etas": r["etas"],
                "loss": r["loss reading"], "missed": [t["target"] for t in r["targets"] if not t["ok"]]} for r in rows]
    if ok_rows:
        r = ok_rows[0]
        return holds(f"[REPRO] {models_run}", f"CONSISTENT: {len(ok_rows)}/{len(rows)} run options meet every {name} "
                     f"target, e.g. {r['model']} / {r['geometry']} / {r['cos reading']} / η {r['etas']} / "
                     f"{r['loss reading']}. {note}", options=compact, meeting=ok_rows, choices=CHOICES)
    worst = min(rows, key=lambda r: sum(t["ok"] for t in r["targets"]))
    best = max(rows, key=lambda r: sum(t["ok"] for t in r["targets"]))
    return refuted(f"[REPRO] {models_run}", f"INCONSISTENT: none of {len(rows)} run options meets every {name} "
                   f"target (best option misses {[t['target'] for t in best['targets'] if not t['ok']]}). {note}",
                   {"best option": best, "worst option": worst}, options=compact, choices=CHOICES)


# --- per-claim computations ----------------------------------------------------------------------

def _theory_runs(seed: int, Ls, n_seeds: int, steps: int, options=OPTIONS, etas=ETAS, per_L: bool = True) -> list[dict]:
    seeds = [seed * 1000 + i for i in range(n_seeds)]
    specs = []
    for geometry, reading in options:
        specs += [(geometry, reading, list(Ls), [eta] * len(Ls), seeds) for eta in etas]
        if per_L:
            specs.append((geometry, reading, list(Ls), [ETA_L2 / L**2 for L in Ls], seeds))
    return theory_runs(specs, steps)


def flat_targets(run, reading):
    l, A = loss_curve(run, 0.1, reading), diag_curve(run, 0.1, 0)
    return [value_near(l, 40, 1.0), below_by(l, 250, NEAR_ZERO, "loss"), above_by(A, 250, ATTN_ONE, "Attn_1")]


def sharp_targets(run, reading):
    l = loss_curve(run, 1.0, reading)
    if "_attn_phases" not in run:   # reading-independent: computed once per run
        run["_attn_phases"] = phase_count(1 - np.minimum(diag_curve(run, 1.0, 0), 1 - 1e-15))
    three = run["_attn_phases"]
    return [value_near(l, 30, 0.6), value_near(l, 110, 0.1), below_by(l, 200, NEAR_ZERO, "loss"),
            {"target": "Attn_1 three-phase (BIC count of ln(1 − Attn_1) vs ln t = 3)", "ok": three.count == 3,
             "count": three.count, "breakpoints_t": np.exp(three.breakpoints).round(1).tolist()}]


def loss_bound_note(L: float) -> str:
    """Eq. 10: ŷ is a convex combination of task values, so |ŷ − f(x_q)| ≤ max f − min f ≤ 2L/c."""
    return (f"Analysed model: ŷ is a convex combination of f(v_k) (Eq. 10), so its MSE ≤ (2L/c)² = "
            f"{(2 * L / 0.5) ** 2:.3g} at L = {L} for every Q and η.")


def e1(ctx):
    which, full = ctx.params["which"], ctx.params["full"]
    L = 0.1 if which == "flat" else 1.0
    n_seeds = 5 if full else 2
    runs = _theory_runs(ctx.seed, [L], n_seeds, 400, OPTIONS if full else OPTIONS[:1], ETAS if full else (10.0,))
    models = "analysed Eq. 6 model"
    if full:
        runs += _network(ctx)
        models += " + Sec. 6 network (Adam)"
    rows, ok = options_meeting(runs, flat_targets if which == "flat" else sharp_targets)
    v = repro_verdict(f"Fig. 1 {which} (L = {L})", rows, ok, models, loss_bound_note(L) + _xcheck(ctx.seed))
    return tv.attach(replace(v, details={**v.details, "curve": fig1_curve(runs[0], L)}),
                     tv.Reported(FIG1_REPORTED[which], "the prose on Fig. 1", figure="curve"))


#: the values the prose on Fig. 1 reports, (epoch, loss): overlaid on the report's figure of the first run option
FIG1_REPORTED = {"flat": ((40, 1.0),), "sharp": ((30, 0.6), (110, 0.1))}


def fig1_curve(run: dict, L: float, every: int = 5) -> dict:
    """details["curve"] for the report: one run option's seed-mean loss (mean over k) every ``every`` epochs, on a
    log y axis (the analysed model's loss lies 10²–10³ below the prose's values), with the 'near zero' reading."""
    c = loss_curve(run, L, "mean_k")
    t = list(range(0, len(c), every))
    return {"x": t, "y": [float(c[i]) for i in t], "xlabel": "epoch t", "ylabel": "prediction loss (MSE, mean over k)",
            "label": f"{run['model']}, {run['geometry']} / {run['reading']}, η {run.get('etas')}: seed-mean loss",
            "logy": True, "thresholds": [{"value": NEAR_ZERO, "label": f"'near zero' read as {NEAR_ZERO}"}]}


def _xcheck(seed: int, steps: int = 30) -> str:
    """S-repro-theory cross-check: full 15×15 Q autograd GD vs the q-space simulator on one prompt set."""
    pr = S6.cosine_prompts(1.0, seed)
    q_ref = S6.eq6_full_q_gd(pr, 1.0, steps)
    tr = D.simulate([S6.theory_setting(pr, 1.0)], steps, device="cpu")
    return f" Cross-check full-Q GD vs q-space ({steps} steps, L = 1, η = 1): max |Δq| = {fmt_error(np.abs(tr.q[0] - q_ref).max())}."


ERR_FLAT = ("Fig. 1 used the Sec. 6 network (LN, FFN, linear head; width, optimiser, lr, init unstated), not the analysed "
            "Eq. 6 model run here, whose MSE is ≤ (2L/c)² = 0.16 for every Q (measured ≈ 1e-3; the bound's Monte-Carlo "
            "comparison over the Sec. 6 task family is e-lossscale, informational) against the prose's ≈ 1.0 at epoch "
            "40; the numbers depend on unstated settings — not an error of the theory")
ERR_SHARP = ("Fig. 1 used the Sec. 6 network (LN, FFN, linear head; width, optimiser, lr, init unstated), not the analysed "
             "Eq. 6 model run here (MSE ≈ 0.08 at t = 30, ≈ 0.02 at t = 110 against the prose's ≈ 0.6 and ≈ 0.1); the "
             "numbers depend on unstated settings — not an error of the theory")
ERR_LSCALING = ("the prose's first-phase ratio T(L=0.1)/T(L=1) ≈ 40/30 = 1.33 comes from the Sec. 6 network with an "
                "unstated optimiser and step-size rule, while Props. 2-4 give ≥ 13 only at a common GD step η (the "
                "analysed model at η = 1 measures ≈ 90, at η ∝ 1/L² ≈ 1): not comparable from the stated information")

E1_FLAT = ("Fig. 1(a,c), L = 0.1: 'the prediction loss rapidly decreases to around 1.0 by epoch t = 40 ... steadily "
           "declines to near zero by t = 250. At the same time, Attn_1 approaches 1'")
E1_SHARP = ("Fig. 1(b,d), L = 1: 'the prediction loss drops rapidly to approximately 0.6 by t = 30, then decreases "
            "steadily to around 0.1 by t = 110 ... converges slowly toward 0 by t = 200'; attention three-phase")


def _variants(short: str, expect: Status | None, finding: Finding | None = None, reason: str | None = None,
              quick: Status | None | str = "same", **params) -> dict:
    """The fast run (analysed model) and the full variant '<short>-full' (all readings + the Sec. 6 network; tags slow
    and gpu: spec §4.3 puts the Sec. 6 network sweeps on a GPU, hours on a CPU)."""
    return with_full_variant(short, quick=expect if quick == "same" else quick, full=expect,
                             params={"full": False, **params},
                             full_params={"full": True}, finding=finding, reason=reason, full_tags=("slow", "gpu"))


CLAIMS.add("E1-flat", location="Sec. 6, Fig. 1(a,c)", kind=tv.Kind.REPRODUCTION, catalogue_id="ICLN-E1-flat",
           statement=E1_FLAT + " [fast: analysed model, scaled orthogonal / projection, η = 10 and η_L = 0.1/L², 2 "
                     "seeds; full: analysed model all readings + Sec. 6 network]", choices=CHOICES,
           **_variants("E1-flat", Status.REFUTED, Finding.NOT_REPRODUCIBLE,
                       ERR_FLAT + "; our Sec. 6 network (one choice: Adam, post-LN; full variant) measures ≈ 5e-3",
                       which="flat"))(e1)
CLAIMS.add("E1-sharp", location="Sec. 6, Fig. 1(b,d)", kind=tv.Kind.REPRODUCTION, catalogue_id="ICLN-E1-sharp",
           statement=E1_SHARP + " [fast: analysed model, scaled orthogonal / projection, η = 10 and η_L = 0.1/L², 2 "
                     "seeds; full: analysed model all readings + Sec. 6 network]", choices=CHOICES,
           **_variants("E1-sharp", Status.REFUTED, Finding.NOT_REPRODUCIBLE,
                       ERR_SHARP + "; our Sec. 6 network (one choice: Adam, post-LN; full variant) ≈ 0.11 at t = 30, "
                                   "0.02 at t = 110", which="sharp"))(e1)


# --- ICLN-E1-order -----------------------------------------------------------------------------------

def monotone_gd(curve, rtol: float = 1e-2) -> bool:
    """No epoch-to-epoch loss increase above 1 %: GD inside the step-size range the theory assumes."""
    c = np.asarray(curve)
    return bool(np.all(c[1:] <= c[:-1] * (1 + rtol)))


def order_status(T: dict[float, float]) -> str:
    """'ordered' if T strictly decreases with L (inf allowed only at the smaller L, no inf ties),
    'violated' if a larger L needs > 1.25× the epochs of a smaller one (or is censored while the smaller
    is not), else 'undetermined'."""
    Ls = sorted(T)
    pairs = [(T[a], T[b]) for i, a in enumerate(Ls) for b in Ls[i + 1:]]   # (smaller L, larger L)
    if any(tb > (1 + EPOCH_TOL) * ta for ta, tb in pairs):
        return "violated"
    if all(ta > tb for ta, tb in pairs):
        return "ordered"
    return "undetermined"


def order_table(run: dict, reading: str = "mean_k") -> dict:
    """T(eps) per L (seed-mean curve and per seed) and the order status of each L set."""
    mk = np.asarray(run["mse_k"])
    per_seed = {}
    out = {}
    for name, Ls in (("flat", S6.FLAT_L), ("sharp", S6.SHARP_L)):
        if not set(Ls) <= set(run["Ls"]):
            continue
        T_mean = {L: t_eps(loss_curve(run, L, reading), ref=baseline(run, L)) for L in Ls}
        seeds = []
        for s in range(mk.shape[2]):
            Ts = {L: t_eps(mk[:, run["Ls"].index(L), s].mean(-1), ref=baseline(run, L, s)) for L in Ls}
            seeds.append(order_status(Ts))
            per_seed.setdefault(name, []).append(Ts)
        out[name] = {"T_mean_curve": T_mean, "status_mean_curve": order_status(T_mean),
                     "seed_status": seeds, "stable_gd": all(monotone_gd(loss_curve(run, L, reading)) for L in Ls)}
    return out


def in_weights(run: dict, set_name: str) -> bool:
    """The network solved every L of the set without attending: max_t Ā(t) < 1/2 and l ≤ REL_EPS·l_base reached."""
    Ls = S6.FLAT_L if set_name == "flat" else S6.SHARP_L
    return all(diag_curve(run, L, None).max() < 0.5 and
               t_eps(loss_curve(run, L), ref=baseline(run, L)) < math.inf for L in Ls)


def _order_verdict(runs, models):
    rows, ok, bad = [], [], []
    for run in runs:
        tab = order_table(run)
        gd = run["model"].startswith("analysed")
        for name, t in tab.items():
            frac = np.mean([s == "ordered" for s in t["seed_status"]])
            status = ("consistent" if t["status_mean_curve"] == "ordered" and frac >= 0.8 else
                      "inconsistent" if t["status_mean_curve"] == "violated" else "undetermined")
            if gd and not t["stable_gd"]:
                status = f"excluded ({status}): GD unstable (loss rises), outside the theory's step-size range"
            elif not gd and in_weights(run, name):
                status = (f"excluded ({status}): no in-context learning — Ā < 1/2 throughout while the loss falls below "
                          f"{REL_EPS}·l_base (the task law is a point mass, solved from x_q in the weights)")
            row = {"model": run["model"], "geometry": run["geometry"], "cos": run["reading"], "etas": run.get("etas"),
                   "set": name, "T(eps) mean curve": t["T_mean_curve"], "fraction of seeds ordered": float(frac),
                   "status": status}
            rows.append(row)
            (ok if status == "consistent" else bad if status == "inconsistent" else []).append(row)
    sets_ok = {r["set"] for r in ok}
    if {"flat", "sharp"} <= sets_ok and not bad:
        return holds(f"[REPRO] {models}", f"CONSISTENT: larger L reaches l ≤ {REL_EPS}·l_base sooner within both L sets (common η within a set) "
                     f"({len(ok)} consistent (option, set) pairs, none inconsistent)", table=rows, choices=CHOICES)
    if bad:
        return refuted(f"[REPRO] {models}", f"INCONSISTENT in {len(bad)} (option, set) pairs: a larger L converges "
                       f"slower beyond the ±25 % epoch tolerance", {"inconsistent": bad}, table=rows, choices=CHOICES)
    return inconclusive(f"[REPRO] {models}", "NOT REPRODUCIBLE FROM STATED INFORMATION: order undetermined "
                        "(censored T(eps) or ties) for some L set", table=rows, choices=CHOICES)


E1_ORDER = ("'The convergence time shortens with increasing L' (Sec. 6, flat set); 'a larger Lipschitz constant L "
            "consistently results in faster convergence' (App. A, both sets): order of T(eps) over seeds")


ANALYSED_ONLY = ("the fast run has only the analysed Eq. 6 model, which Fig. 1 / App. A did not use (Sec. 6: a network "
                 "with LN, FFN and a linear head, settings unstated); {why}; the full profile adds the Sec. 6 network "
                 "(one choice of its unstated settings)")
WHY_ORDER = ("on it, at one η per L set, the order follows from the exact ηL² invariance of the GD trajectory "
             "(iclnonlinear.der-scale) while GD is stable — a pass that could not have failed")
WHY_MAPS = ("on it the diagonal attention tends to 1 for every stable η, and 'before t = 300 / 200' is met by the "
            "hand-picked η (the times scale like 1/(ηL²)) — a pass that could not have failed")


def analysed_only(v, why: str):
    """Re-audit (issue 16): a pass of the fast run says inconclusive (:data:`ANALYSED_ONLY`), keeping what it found."""
    if v.status is not Status.HOLDS:
        return v
    return inconclusive(v.method, f"inconclusive: {ANALYSED_ONLY.format(why=why)} (the check alone: holds, "
                        f"{v.evidence})", **dict(v.details))


def e1_order(ctx):
    if ctx.params["full"]:
        runs = _theory_runs(ctx.seed, list(S6.FLAT_L + S6.SHARP_L), 10, 400, per_L=False)
        runs += _network(ctx)
        return _order_verdict(runs, "analysed Eq. 6 model + Sec. 6 network (Adam)")
    seeds = [ctx.seed * 1000 + i for i in range(2)]
    g, r = OPTIONS[0]
    runs = theory_runs([(g, r, list(S6.FLAT_L), [10.0] * 3, seeds), (g, r, list(S6.SHARP_L), [1.0] * 3, seeds)], 400)
    return analysed_only(_order_verdict(runs, "analysed Eq. 6 model"), WHY_ORDER)


CLAIMS.add("E1-order", location="Sec. 6; App. A", kind=tv.Kind.REPRODUCTION, catalogue_id="ICLN-E1-order",
           statement=E1_ORDER + " [fast: analysed model, scaled orthogonal / projection, 2 seeds, η = 10 (flat set) and "
           "η = 1 (sharp set): a common η within each set; full: analysed model all readings, 10 seeds + Sec. 6 network]",
           choices=CHOICES, **_variants("E1-order", None, quick=Status.INCONCLUSIVE))(e1_order)


def _network(ctx) -> list[dict]:
    full = ctx.profile == "full"
    return network_runs_cached(ctx.seed, OPTIONS if full else [OPTIONS[0], OPTIONS[2]], 10 if full else 3, ctx.device)


# --- ICLN-E1-phasecount ---------------------------------------------------------------------------

def phasecount_table(run: dict, sigma=BIC_SIGMA) -> dict:
    """BIC phase count of ln l vs ln t per seed and L (mean over query classes of the per-class MSE)."""
    mk = np.asarray(run["mse_k"])
    out = {}
    for L in run["Ls"]:
        j = run["Ls"].index(L)
        counts = [phase_count(mk[:, j, s].mean(-1), sigma).count for s in range(mk.shape[2])]
        vals, freq = np.unique(counts, return_counts=True)
        out[L] = {"counts": counts, "mode": int(vals[np.argmax(freq)])}
    return out


def _phasecount_verdict(runs, models, claimed=None, pure_bic: bool = True):
    claimed = claimed or {**{L: 2 for L in S6.FLAT_L}, **{L: 3 for L in S6.SHARP_L}}
    rows, ok, bad = [], [], []
    for run in runs:
        tab = phasecount_table(run)
        pure = phasecount_table(run, None) if pure_bic else {L: {"mode": None} for L in claimed}
        match = sum(tab[L]["mode"] == claimed[L] for L in claimed)
        status = "consistent" if match == len(claimed) else "inconsistent" if match <= len(claimed) // 3 else "mixed"
        row = {"model": run["model"], "geometry": run["geometry"], "cos": run["reading"], "etas": run.get("etas"),
               "counts (floor)": {L: tab[L]["counts"] for L in claimed},
               "modes (floor)": {L: tab[L]["mode"] for L in claimed},
               "modes (pure BIC)": {L: pure[L]["mode"] for L in claimed}, "L matching": match, "status": status}
        rows.append(row)
        (ok if status == "consistent" else bad if status == "inconsistent" else []).append(row)
    claim_txt = ", ".join(f"L={L}: {c}" for L, c in claimed.items())
    if ok:
        return holds(f"[REPRO] {models}", f"CONSISTENT: {len(ok)}/{len(rows)} options give the claimed modal BIC "
                     f"phase counts ({claim_txt})", table=rows, choices=CHOICES)
    if len(bad) == len(rows):
        best = max(rows, key=lambda r: r["L matching"])
        return refuted(f"[REPRO] {models}", f"INCONSISTENT: no option gives the claimed counts ({claim_txt}); best "
                       f"matches {best['L matching']}/{len(claimed)} L values: modes {best['modes (floor)']}",
                       {"best option": best}, table=rows, choices=CHOICES)
    modes = "; ".join(f"{r['model'][:24]} {r['geometry'][:7]}/{r['cos']} η={(r['etas'] or [None])[0]}: "
                      f"{list(r['modes (floor)'].values())}" for r in rows)
    return inconclusive(f"[REPRO] {models}", f"NOT REPRODUCIBLE FROM STATED INFORMATION: modal counts match the claim "
                        f"for some L only (best {max(r['L matching'] for r in rows)}/{len(claimed)}; claimed "
                        f"{list(claimed.values())}); modes per option (L = {list(claimed)}): {modes}",
                        table=rows, choices=CHOICES)


E1_PHASES = ("the flat regime shows 'two distinct training phases'; 'the sharp L-regime exhibits different three "
             "training phases' (Sec. 6): BIC segment count of ln l vs ln t, per seed and L")


def e1_phasecount(ctx):
    if ctx.params["full"]:
        runs = _theory_runs(ctx.seed, list(S6.FLAT_L + S6.SHARP_L), 5, 400)
        runs += _network(ctx)
        return _phasecount_verdict(runs, "analysed Eq. 6 model + Sec. 6 network (Adam)")
    runs = _theory_runs(ctx.seed, list(S6.FLAT_L + S6.SHARP_L), 2, 400, OPTIONS[:1], etas=(1.0,), per_L=False)
    return _phasecount_verdict(runs, "analysed Eq. 6 model", pure_bic=False)


CLAIMS.add("E1-phasecount", location="Sec. 6; App. A", kind=tv.Kind.REPRODUCTION, catalogue_id="ICLN-E1-phasecount",
           statement=E1_PHASES + " [fast: analysed model, scaled orthogonal / projection, η = 1, 2 seeds; full: analysed "
           "model all readings and η, 5 seeds + Sec. 6 network]",
           choices=CHOICES, **_variants("E1-phasecount", Status.INCONCLUSIVE))(e1_phasecount)


# --- ICLN-EA-maps --------------------------------------------------------------------------------------

def maps_targets(run, reading=None):
    res = []
    for L, t in ((0.1, 300), (1.0, 200)):
        j = run["Ls"].index(L)
        A = np.asarray(run["attn"])[:, j].mean(1)              # (T+1, K, K) key × query
        dmin = np.einsum("tkk->tk", A).min(-1)
        off = A.copy()
        off[:, range(4), range(4)] = -np.inf
        colsum = np.abs(np.asarray(run["attn"])[:, j].sum(-2) - 1).max()
        res.append(above_by(dmin, t, ATTN_ONE, f"min_i Attn_(i,i) (L = {L})"))
        res.append({"target": f"off-diagonal Attn_(i,j) → 0 (L = {L}): max ≤ {1 - ATTN_ONE} at t = {len(A) - 1}",
                    "ok": bool(off[-1].max() <= 1 - ATTN_ONE), "max_off_final": float(off[-1].max()),
                    "max_off_t0": float(off[0].max())})
        res.append({"target": f"columns sum to 1 (L = {L})", "ok": bool(colsum <= 1e-12), "max_error": float(colsum)})
    return res


def ea_maps(ctx):
    full = ctx.params["full"]
    n_seeds = 5 if full else 2
    runs = _theory_runs(ctx.seed, [0.1, 1.0], n_seeds, 400, OPTIONS if full else OPTIONS[:1],
                        ETAS + (30.0,) if full else (10.0, 30.0))
    models = "analysed Eq. 6 model"
    if full:
        runs += _network(ctx)
        models += " + Sec. 6 network (Adam)"
    rows, ok = [], []
    for run in runs:
        res = maps_targets(run)
        row = {"model": run["model"], "geometry": run["geometry"], "cos reading": run["reading"], "etas": run.get("etas"),
               "loss reading": "n/a", "targets": res, "all_ok": all(r["ok"] for r in res)}
        rows.append(row)
        if row["all_ok"]:
            ok.append(row)
    v = repro_verdict("App. A attention-map", rows, ok, models,
                      "Attn_{i,j}: key i, query j; diagonal ≈ 1 read as min_i Attn_{i,i} ≥ 0.9.")
    return v if full else analysed_only(v, WHY_MAPS)


EA_MAPS = ("App. A, Figs. 2-3: diagonal Attn_(i,i) approach 1 'before t = 300' (L = 0.1) and 'before t = 200' (L = 1); "
           "off-diagonals → 0; each column (query) sums to one")


CLAIMS.add("EA-maps", location="App. A, Figs. 2-3", kind=tv.Kind.REPRODUCTION, catalogue_id="ICLN-EA-maps",
           statement=EA_MAPS + " [fast: analysed model, scaled orthogonal / projection, η ∈ {10, 30} and η_L = 0.1/L², "
                     "2 seeds; full: all readings + Sec. 6 network]", choices=CHOICES,
           **_variants("EA-maps", None, quick=Status.INCONCLUSIVE))(ea_maps)


# --- ICLN-EA-poly -----------------------------------------------------------------------------------

POLY_REL_EPS = 0.5   # continuous inputs leave a loss floor: T := first epoch with l ≤ 0.5·l(0) (0.05 also reported)


def poly_runs(seed: int, n_runs: int, M: int, epochs: int, etas_by_L: dict, device: str = "auto",
              label: str = "") -> dict:
    """Eq. 6 full-Q GD on App. A polynomial prompts for all six L, ``n_runs`` runs each (one batch)."""
    Ls = list(S6.FLAT_L + S6.SHARP_L)
    seeds = [seed * 1000 + i for i in range(n_runs)]
    prs = [S6.polynomial_prompts(L, s, M=M) for L in Ls for s in seeds]
    mse = S6.eq6_train_continuous(prs, [etas_by_L[L] for L in Ls for _ in seeds], epochs, device)
    return {"model": "analysed Eq. 6 (full-Q GD from 0, continuous inputs)", "geometry": "x ~ N(0, I_d)",
            "reading": "polynomial", "Ls": Ls, "seeds": seeds, "etas": [etas_by_L[L] for L in Ls] if label else None,
            "eta rule": label, "mse_k": mse.reshape(epochs + 1, len(Ls), n_runs, 1)}


def _poly_verdict(runs, models, can_refute: bool = True):
    parts, rows = {}, []
    for run in runs:
        avg = dict(run, mse_k=np.asarray(run["mse_k"]).mean(2, keepdims=True))    # loss averaged over the runs
        pc = phasecount_table(avg)
        claimed = {**{L: 2 for L in S6.FLAT_L}, **{L: 3 for L in S6.SHARP_L}}
        match = sum(pc[L]["mode"] == claimed[L] for L in claimed)
        T = {L: t_eps(loss_curve(run, L), POLY_REL_EPS) for L in run["Ls"]}
        T05 = {L: t_eps(loss_curve(run, L), REL_EPS) for L in run["Ls"]}
        orders = {name: order_status({L: T[L] for L in Ls}) for name, Ls in (("flat", S6.FLAT_L), ("sharp", S6.SHARP_L))}
        stable = all(monotone_gd(loss_curve(run, L)) for L in run["Ls"])
        rows.append({"model": run["model"], "eta rule": run.get("eta rule"), "runs": len(run["seeds"]),
                     "phase count (run-mean curve)": {L: pc[L]["mode"] for L in claimed}, "L matching": match,
                     f"T(l ≤ {POLY_REL_EPS} l0)": T, f"T(l ≤ {REL_EPS} l0)": T05, "order": orders, "stable GD": stable})
    good = [r for r in rows if r["L matching"] == 6 and all(v == "ordered" for v in r["order"].values())]
    bad = [r for r in rows if r["L matching"] <= 2 or any(v == "violated" for v in r["order"].values())]
    if good:
        return holds(f"[REPRO] {models}", f"CONSISTENT: {len(good)}/{len(rows)} options give 2 phases (flat), 3 (sharp) "
                     f"and faster convergence for larger L", table=rows, choices=POLY_CHOICES)
    if len(bad) == len(rows) and not can_refute:
        r = max(rows, key=lambda r: r["L matching"])
        return inconclusive(f"[REPRO] {models}", f"reduced smoke run (cannot refute): phase counts "
                            f"{r['phase count (run-mean curve)']}, order {r['order']}; see EA-poly-full",
                            table=rows, choices=POLY_CHOICES)
    if len(bad) == len(rows):
        r = max(rows, key=lambda r: r["L matching"])
        return refuted(f"[REPRO] {models}", f"INCONSISTENT: phase counts {r['phase count (run-mean curve)']} "
                       f"(claimed 2 flat / 3 sharp) and order {r['order']} in the best option", {"best option": r},
                       table=rows, choices=POLY_CHOICES)
    return inconclusive(f"[REPRO] {models}", "NOT REPRODUCIBLE FROM STATED INFORMATION: phase counts "
                        f"{[r['phase count (run-mean curve)'] for r in rows]}, orders {[r['order'] for r in rows]}",
                        table=rows, choices=POLY_CHOICES)


POLY_CHOICES = {
    "inputs": "x ~ N(0, I_d) i.i.d. for prompt tokens and query (the scale of 'a continuous Gaussian distribution' is "
              "not stated)",
    "task law": "f(x) = xᵀAx + bᵀx, A_ij, b_i ~ N(0, (L/d)²), fresh (A, b) per prompt (A not symmetrised)",
    "model": "analysed Eq. 6 with full d×d Q, GD from Q = 0 (the q-space reduction needs finite features)",
    "eta": "common η = 1, and per-L η_L = 0.1/L² (full)",
    "T": f"first epoch with l ≤ {POLY_REL_EPS}·l(0) (continuous inputs leave a loss floor); {REL_EPS}·l(0) reported",
    "phase count": "segment_count_bic on the run-averaged loss (App. A: 'averaged over 30 independent runs')",
    "loss": "MSE over the M prompts (no ½)",
}

EA_POLY = ("App. A, Fig. 4: polynomial tasks f(x) = xᵀAx + bᵀx, continuous Gaussian inputs, d = 30, N = 150, M = 500, "
           "30 runs: 'The flat regime has two training phases, while the sharp regime has three phases ... a larger "
           "Lipschitz constant L consistently results in faster convergence'")


def ea_poly(ctx):
    if not ctx.params["full"]:
        run = poly_runs(ctx.seed, 1, 60, 200, {L: 1.0 for L in S6.FLAT_L + S6.SHARP_L}, label="common η = 1")
        return _poly_verdict([run], "analysed Eq. 6 model (reduced: M = 60, 200 epochs, 1 run)", can_refute=False)
    n = S6.POLY["runs"] if ctx.profile == "full" else 4
    key = {"claim": "iclnonlinear.EA-poly-full", "code": tv.code_key(poly_runs)}
    confs = [{"rule": r, "runs": n, "M": S6.POLY["M"], "epochs": 400, "seed": ctx.seed, "device": ctx.device}
             for r in POLY_RULES]
    vals = tv.sweep(tv.Store(), key, confs, _poly_point, desc="EA-poly")
    return _poly_verdict(vals, f"analysed Eq. 6 model (M = 500, 400 epochs, {n} runs)")


POLY_RULES = {"common η = 1": {L: 1.0 for L in S6.FLAT_L + S6.SHARP_L},
              "η_L = 0.1/L²": {L: ETA_L2 / L**2 for L in S6.FLAT_L + S6.SHARP_L}}


def _poly_point(c: dict) -> dict:
    return poly_runs(c["seed"], c["runs"], c["M"], c["epochs"], POLY_RULES[c["rule"]], c["device"], label=c["rule"])


CLAIMS.add("EA-poly", location="App. A, Fig. 4", kind=tv.Kind.REPRODUCTION, catalogue_id="ICLN-EA-poly",
           statement=EA_POLY + " [fast: analysed model, M = 60, 1 run, 200 epochs, η = 1; full: analysed model, M = 500, "
                     "400 epochs, 30 runs, common and per-L η]", choices=POLY_CHOICES,
           **_variants("EA-poly", Status.INCONCLUSIVE))(ea_poly)


# --- ICLN-E-Lscaling ---------------------------------------------------------------------------------

def formula_ratios(K: int = 4, Delta: float = 3.0, N: int = 100, eps_grid=(0.5, 0.1, 0.01, 1e-3)) -> dict:
    """T(L = 0.1) / T(L = 1) at a common η from Props. 2-4 (δ = δ_min, Θ-constants independent of L cancel).
    First phase: flat T_f^1 = K log K/(η L²Δ²) at L = 0.1 over sharp T_s^1 = K log(K/ε)/(η δ²L²Δ²) at L = 1
    (regime-appropriate), and T_f^1 over T_f^1 (the same formula at both L).  Convergence: T_f^* =
    K log(K/ε)/(η δ²L²Δ²) at L = 0.1 over T_s^* = K log(K L Δ/ε)/(η ε δ²L²Δ²) at L = 1."""
    dl = delta_min(N, K)
    out = {"delta": dl, "threshold 1/(Δδ)": 1 / (Delta * dl), "first phase, same formula T_f^1": 100.0}
    for e in eps_grid:
        out[f"first phase, T_f^1(0.1)/T_s^1(1), eps={e}"] = 100 * dl**2 * math.log(K) / math.log(K / e)
        out[f"convergence, T_f^*(0.1)/T_s^*(1), eps={e}"] = 100 * e * math.log(K / e) / math.log(K * 1.0 * Delta / e)
    return out


PROSE = {"first phase": 40 / 30, "convergence": 250 / 200}


def measured_ratios(seed: int, eta: float, max_steps: int, geometry="scaled_orthogonal", reading="projection",
                    per_L: bool = False) -> dict:
    """Analysed model, L ∈ {0.1, 1}: T1 (Ā ≥ 1/2) and T(eps) (l ≤ REL_EPS·l(0)) by exact hitting times, run until
    both are hit (≤ max_steps); a censored time is reported as > max_steps."""
    prs = [S6.cosine_prompts(L, seed, geometry=geometry, reading=reading) for L in (0.1, 1.0)]
    etas = [ETA_L2 / L**2 for L in (0.1, 1.0)] if per_L else [eta, eta]
    l0 = np.array([0.5 * np.mean((p.y.mean(1) - p.target) ** 2) for p in prs])   # Eq. 7 at Q = 0
    tr = D.simulate([S6.theory_setting(p, e) for p, e in zip(prs, etas)], max_steps, record_every=max_steps,
                    events={"T1": ("abar", ">=", 0.5), "Teps": ("loss", "<=", REL_EPS * l0)},
                    stop_when_hit=True, device="auto")
    out = {}
    for ev in ("T1", "Teps"):
        h = tr.hits[ev].astype(float)
        h[h < 0] = np.inf
        ratio = (h[0] / h[1] if np.isfinite(h[0]) else f"> {max_steps / h[1]:.3g} (L = 0.1 censored at {max_steps})") \
            if np.isfinite(h[1]) and h[1] > 0 else None
        out[ev] = {"L=0.1": h[0], "L=1": h[1], "ratio": ratio}
    out["etas"] = etas
    return out


def network_ratios(runs: list[dict]) -> list[dict]:
    rows = []
    for run in runs:
        T1 = {L: t_one(diag_curve(run, L, None)) for L in (0.1, 1.0)}
        Te = {L: t_eps(loss_curve(run, L), ref=baseline(run, L)) for L in (0.1, 1.0)}
        rows.append({"model": run["model"], "geometry": run["geometry"], "cos": run["reading"],
                     "T1": T1, "T(eps)": Te,
                     "ratio T1": T1[0.1] / T1[1.0] if 0 < T1[1.0] < math.inf else None,
                     "ratio T(eps)": Te[0.1] / Te[1.0] if 0 < Te[1.0] < math.inf else None})
    return rows


def e_lscaling(ctx):
    full = ctx.params["full"]
    f = formula_ratios()
    regime_first = [v for k, v in f.items() if k.startswith("first phase, T_f^1(0.1)/T_s^1(1)") and "0.5" not in k]
    conv = [v for k, v in f.items() if k.startswith("convergence")]
    meas = {"common η = 1": measured_ratios(ctx.seed, 1.0, 4000 if full else 1500),
            "common η = 10": measured_ratios(ctx.seed, 10.0, 1000 if full else 500),
            f"per-L η_L = {ETA_L2}/L²": measured_ratios(ctx.seed, 0.0, 2000 if full else 500, per_L=True)}
    details = {"(i) formulas (common η)": f, "(ii) prose": PROSE, "(iii) measured, analysed Eq. 6 model": meas,
               "choices": CHOICES}
    if full:
        details["(iii) measured, Sec. 6 network (Adam, 400 epochs)"] = network_ratios(_network(ctx))
    lo = 1 / (1 + EPOCH_TOL) ** 2
    first_min = min(regime_first)
    # prose vs formulas: the first-phase ratio of formulas at common η is ≥ first_min for ε ≥ 1e-3, δ ≥ δ_min
    ok_first = PROSE["first phase"] >= first_min * lo
    ok_conv = min(conv) * lo <= PROSE["convergence"] <= max(conv) / lo
    summary = (f"T(L=0.1)/T(L=1): first phase (i) formulas ≥ {first_min:.3g} (regime-appropriate, ε ≥ 1e-3, δ = δ_min) "
               f"or 100 (same formula) vs (ii) prose {PROSE['first phase']:.3g} vs (iii) analysed model at common η = 1 "
               f"T1 ratio {meas['common η = 1']['T1']['ratio']}; convergence (i) {min(conv):.3g}-{max(conv):.3g} "
               f"over ε ∈ [1e-3, 0.5] vs (ii) {PROSE['convergence']:.3g} vs (iii) {meas['common η = 1']['Teps']['ratio']}; "
               f"per-L η ∝ 1/L² gives (iii) {meas[f'per-L η_L = {ETA_L2}/L²']['T1']['ratio']} (T1).")
    if not ok_first:
        return refuted("[REPRO] formulas (Props. 2-4) vs Sec. 6 prose vs analysed Eq. 6 model",
                       "INCONSISTENT: " + summary + " The prose's first-phase ratio misses the formulas' by more than the "
                       "±25 % epoch tolerance (convergence ratio alone depends on ε and is not decisive).",
                       {"prose first-phase ratio": PROSE["first phase"], "formula first-phase ratio (min over ε)": first_min,
                        "analysed model T1 ratio at η = 1": meas["common η = 1"]["T1"]["ratio"]}, **details)
    if ok_first and ok_conv:
        return holds("[REPRO] formulas vs prose vs analysed model", "CONSISTENT: " + summary, **details)
    return inconclusive("[REPRO] formulas vs prose vs analysed model",
                        "NOT REPRODUCIBLE FROM STATED INFORMATION: " + summary, **details)


E_LSCALING = ("Fig. 1 timing against the formulas: T_f^1 ∝ 1/(η L²Δ²) (Prop. 2), T_f^* ∝ 1/(η δ²L²Δ²) (Prop. 3); prose: "
              "L = 0.1 first phase to t = 40, near zero by 250; L = 1 fast drop to t = 30, converged by 200. Three ratios "
              "T(L = 0.1)/T(L = 1): formulas, prose, measured")


CLAIMS.add("E-Lscaling", location="Props. 2-4; Sec. 6", kind=tv.Kind.REPRODUCTION, catalogue_id="ICLN-E-Lscaling",
           statement=E_LSCALING + " [fast: analysed model only, scaled orthogonal / projection; full: + Sec. 6 network "
                     "ratios]", choices=CHOICES,
           **_variants("E-Lscaling", Status.REFUTED, Finding.NOT_REPRODUCIBLE, ERR_LSCALING))(e_lscaling)


# ---- ICLN-E-lossscale (claim 77) ---------------------------------------------------------------------

LOSS_GEOMETRIES = ("scaled_orthogonal", "general")
MC_DRAWS = 4000
PROSE_TOLERANCE = 0.3  # spec §4.1: ±30% on loss values read off the authors' plots


def sq_error(V: np.ndarray, Q: np.ndarray, classes: np.ndarray, kq: int, f: np.ndarray) -> float:
    """(ŷ − f(v_kq))² of the analysed model (Eq. 6): ŷ = Σ_i softmax_i(x_iᵀ Q x_q) y_i over the N prompt tokens."""
    logits = V[:, classes].T @ Q @ V[:, kq]
    w = np.exp(logits - logits.max())
    return float((w @ f[classes] / w.sum() - f[kq]) ** 2)


def tight_bound(f: np.ndarray, k: int) -> float:
    """Derived: ŷ is a convex combination of task values, so (ŷ − f_k)² ≤ max_m (f_m − f_k)² for every Q and
    prompt (attained as Q focuses the query on the farthest value's class)."""
    return float(np.max((f - f[k]) ** 2))


def focusing_Q(V: np.ndarray, kq: int, m: int, s: float = 60.0) -> np.ndarray:
    """Q with logits x_iᵀQv_kq = s·1{x_i = v_m} (dual basis W = V(VᵀV)⁻¹; needs independent features)."""
    W = V @ np.linalg.inv(V.T @ V)
    return s * np.outer(W[:, m], W[:, kq])


def loss_configs(seed: int, n: int = 80, L_values=(0.1, 1.0)):
    """Sec. 6 setting (d = 15, K = 4, N = 100, Δ = 3, c = 0.5), each cos reading and geometry: random Q (scale
    up to 30/‖v‖²) and the focusing Q that puts the query on the farthest-valued class present."""
    rng = np.random.default_rng(seed)
    d, Kv, N, D = pp.SEC6["d"], pp.SEC6["K"], pp.SEC6["N"], pp.SEC6["Delta"]
    for i in range(n):
        geom = LOSS_GEOMETRIES[i % 2]
        reading = tuple(COS_READINGS)[(i // 2) % len(COS_READINGS)]
        L_ = L_values[(i // 4) % len(L_values)]
        V = features(geom, d, Kv, D, rng)
        f = cosine_task(V, L_, pp.SEC6["c"], reading, rng)
        classes = rng.integers(0, Kv, size=int(rng.integers(1, N + 1)))
        kq = int(rng.integers(Kv))
        present = np.unique(classes)
        m = int(present[np.argmax((f[present] - f[kq]) ** 2)])
        Q = (focusing_Q(V, kq, m) if i % 3 == 0
             else rng.uniform(0, 30) / np.mean(np.sum(V**2, axis=0)) * rng.standard_normal((d, d)))
        yield dict(geometry=geom, reading=reading, L=L_, V=V, f=f, classes=classes, kq=kq, Q=Q, seed=seed, index=i)


def check_loss_bound(bound: Callable[[np.ndarray, int], float], configs) -> tv.Verdict:
    """(ŷ − f_k)² ≤ bound(f, k) on every configuration (float64, slack 1e-12·max f²)."""
    worst, count = None, 0
    for x in configs:
        err = sq_error(x["V"], x["Q"], x["classes"], x["kq"], x["f"])
        b = bound(x["f"], x["kq"])
        slack = b + 1e-12 * max(float(np.max(x["f"] ** 2)), 1e-300) - err
        count += 1
        if worst is None or slack < worst[0]:
            worst = (slack, err, b, x)
    slack, err, b, x = worst
    ce = {"geometry": x["geometry"], "reading": x["reading"], "L": x["L"], "N": len(x["classes"]),
          "query class": x["kq"] + 1, "f(v_1..v_K)": x["f"].tolist(), "config index": x["index"], "seed": x["seed"],
          "squared error": err, "bound": b, "Q": x["Q"].tolist(), "classes": (x["classes"] + 1).tolist()}
    if slack < 0:
        return refuted("float64, Sec. 6 configurations (random + focusing Q)",
                       f"(ŷ − f_k)² = {err:.6g} > bound {b:.6g}", ce)
    return holds(f"float64, {count} configurations (random + focusing Q)",
                 f"(ŷ − f_k)² ≤ max_m (f_m − f_k)² on all {count}; tightest slack {slack:.3g}",
                 configurations=count, tightest={"squared error": err, "bound": b})


def mc_bounds(seed: int, L_: float, draws: int = MC_DRAWS) -> dict:
    """Monte Carlo over the task law (one V per geometry) of E_{f,k}[max_m (f_m − f_k)²] (the loss bound without
    Eq. 7's ½), E_f[(max f − min f)²] and the Q = 0 loss E[(ȳ − f_k)²] (N = 100 tokens), per reading × geometry."""
    rng = np.random.default_rng(seed)
    out = {}
    d, Kv, N, D, c_ = pp.SEC6["d"], pp.SEC6["K"], pp.SEC6["N"], pp.SEC6["Delta"], pp.SEC6["c"]
    for geom in LOSS_GEOMETRIES:
        V = features(geom, d, Kv, D, rng)
        for reading in COS_READINGS:
            F = np.stack([cosine_task(V, L_, c_, reading, rng) for _ in range(draws)])
            k = rng.integers(0, Kv, size=draws)
            fk = F[np.arange(draws), k]
            tight = np.max((F - fk[:, None]) ** 2, axis=1)
            counts_ = rng.multinomial(N, np.full(Kv, 1.0 / Kv), size=draws)
            y0 = (counts_ * F).sum(axis=1) / N
            out[f"{reading}/{geom}"] = {"E max_m (f_m − f_k)² (no ½)": float(tight.mean()),
                                        "MC std error": float(tight.std() / np.sqrt(draws)),
                                        "E (max f − min f)²": float((F.max(1) - F.min(1)).__pow__(2).mean()),
                                        "Q = 0 squared error (no ½)": float(((y0 - fk) ** 2).mean())}
    return out


def check_loss_scale(ctx, prose: Mapping[float, tuple] | None = None,
                     bound: Callable[[np.ndarray, int], float] = tight_bound, draws: int = MC_DRAWS) -> tv.Verdict:
    seed = ctx.seed
    prose = prose or pp.SEC6_LOSS_VALUES
    c_ = pp.SEC6["c"]
    valid = check_loss_bound(bound, loss_configs(seed))
    if valid.status is not Status.HOLDS:
        return valid
    table, bad = {}, []
    for L_, (loc, quote, value) in prose.items():
        mc = mc_bounds(seed, L_, draws)
        universal = (2 * L_ / c_) ** 2
        tight = {name: v["E max_m (f_m − f_k)² (no ½)"] for name, v in mc.items()}
        table[f"L = {L_:g}"] = {"prose": {"location": loc, "quote": quote, "value": value},
                                "universal bound (2L/c)², any Q, reading, geometry (no ½)": universal,
                                "analysed-model bound with Eq. 7's ½": universal / 2, "per reading/geometry": mc,
                                "readings whose tight bound is below the prose value": sorted(
                                    n for n, b in tight.items() if b < value),
                                "prose / largest MC bound": value / max(tight.values())}
        if value * (1 - PROSE_TOLERANCE) > universal:
            bad.append((L_, value, universal, max(tight.values())))
    details = {"bound check": valid.to_json(), "table": table, "draws": draws, "seed": seed,
               "choices": {"c": c_, "features": list(LOSS_GEOMETRIES), "readings": dict(COS_READINGS)}}
    if bad:
        L_, value, universal, largest = bad[0]
        ce = {"L": L_, "prose loss": value, "prose loss − 30% tolerance": value * (1 - PROSE_TOLERANCE),
              "bound (2L/c)² (no ½)": universal,
              "largest per-reading MC bound E max_m (f_m − f_k)²": largest, "c": c_, "draws": draws, "seed": seed,
              "note": "the Sec. 6 network (LN + FFN + linear head) is not a convex combination of task values"}
        return refuted("derived bound (convex combination) + Monte Carlo over the task law",
                       f"L = {L_:g}: prose loss {value:g} (−30%: {value * (1 - PROSE_TOLERANCE):.3g}) > "
                       f"{universal:.3g} = the largest loss any Q gives the analysed model", ce, **details)
    return holds("derived bound + Monte Carlo", "every prose loss is below the analysed model's bound", **details)


NOT_A_FINDING = ("not a finding: the compared sentence ('Fig. 1's losses are attainable by the analysed Eq. 6 model') is "
                 "the tool's, not the paper's — Sec. 6 says Fig. 1 was produced by a network with LN, FFN and a linear "
                 "head, whose output is not a convex combination of task values, so nothing the paper states is "
                 "tested here. The comparison is informational: it is part of E1-flat's not_reproducible evidence "
                 "(the analysed model cannot give the prose's loss ≈ 1.0), counted there once")


@CLAIMS.add("e-lossscale", location="Sec. 6 prose (Fig. 1) vs Eqs. 6–7", kind=tv.Kind.INEQUALITY,
            catalogue_id="ICLN-E-lossscale",
            statement="Informational (no statement of the paper): the Fig. 1 loss values in the Sec. 6 prose (≈ 1.0 at "
                      "epoch 40 for L = 0.1; ≈ 0.6 at t = 30 for L = 1) compared with the analysed model's loss bound "
                      "max_m (f_m − f_k)² valid for every Q (Eqs. 6–7) on the Sec. 6 task family — Fig. 1 used the "
                      "Sec. 6 network, so the comparison is evidence for E1-flat, not a claim of its own",
            # referee P1 (s36): was refuted / not_reproducible on the tool's sentence 'Fig. 1's losses are attainable
            # by the analysed model', which the paper never states (Sec. 6: Fig. 1 is the LN + FFN + linear-head
            # network); it re-counted E1-flat's not_reproducible finding. Now inconclusive (informational), the
            # comparison kept as E1-flat's evidence
            expect=tv.Status.INCONCLUSIVE,
            choices={"c": "0.5 fixed (Sec. 6 parameter list)", "readings": "geometry.COS_READINGS",
                     "features": "scaled orthogonal and Gaussian rescaled to min distance Δ = 3 (d = 15, K = 4)",
                     "loss": "compared without Eq. 7's ½ (the larger value) — the prose's 'average squared loss'",
                     "MC": f"{MC_DRAWS} task draws per reading × geometry, seed = ctx.seed",
                     "verdict": "inconclusive by design: " + NOT_A_FINDING})
def e_lossscale(ctx, draws: int = MC_DRAWS) -> tv.Verdict:
    """ICLN-E-lossscale (Sec. 6 prose on Fig. 1 vs Eqs. 6–7): the comparison of :func:`check_loss_scale`, returned
    as informational (inconclusive) — the paper states no sentence it could refute; its outcome is part of
    E1-flat's evidence."""
    v = check_loss_scale(ctx, draws=draws)
    outcome = {Status.REFUTED: "a prose loss exceeds the analysed model's bound for every Q",
               Status.HOLDS: "every prose loss is within the analysed model's bound"}.get(v.status, v.status.value)
    return inconclusive(v.method, f"{NOT_A_FINDING}. Comparison: {outcome} — {v.evidence}",
                        comparison={"status": v.status.value, "evidence": v.evidence,
                                    "counterexample": v.counterexample},
                        **{k: val for k, val in dict(v.details).items() if k != "typed_evidence"})
