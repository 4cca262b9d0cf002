"""Fine-tuning and OOD measurements on the reconstructed model (Thm 2(2)–(3), Remarks 3–4, Sec. 7,
App. D, G.4–G.5, H.4–H.5, J.1), and the decision rules the FT/OOD claims share.

Protocol (J.1, RECOVERED-SEED where stated): pre-train once per (N_f, N_r, K, |𝓡|, seed) (shared cache,
``pretrained.py``), then fine-tune on a random FT subset of the frequent pairs with a fixed η_FT, recording
the OOD error (Eq. 12) at every recorded step; "best iteration" = the step with the highest OOD accuracy
("2000 iterations to determine the optimal number of iterations for OOD generalization", J.1).  FT subsets of
different sizes are nested (prefixes of one random permutation), so an Ñ_f sweep changes only Ñ_f.
The OOD set is D_QA ∖ D_FT (unseen frequent pairs and all rare pairs), as in Eq. 12.

Relation covering (the Lemma 9 / G.5 mechanism): an OOD pair is *covered* when every phrase of its R_i
appears among the FT pairs' phrases (``Knowledge.covered_relations``).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from math import comb

import numpy as np
import torch

import theoryverify as tv

from ..model import data, entropy
from ..model import transformer as model
from ..model.setup import Recon, embeddings
from . import pretrained as P
from . import training as T


@dataclasses.dataclass(frozen=True)
class Prop1(Recon):
    """Regime "Prop. 1 assumed" (spec §5: the honest conditional check "Prop. 1 ⇒ Thm 2"): Z is not trained but
    fixed at its N(0, σ_0²) init plus a penalty on the key c, x_cᵀ Z x_L = −c_penalty for every query, so that
    α_c ≈ 0 on [c, s_i] and [c, s_i, r] (Prop. 1 (15)), α_s ≈ α_r on [c, s_i, r] (16) and α ≈ uniform on
    [s_i, f] (Lemma 17); only W is pre-trained (three-stage GD, the default schedule) and fine-tuned."""

    c_penalty: float = 10.0


@lru_cache(maxsize=64)
def _prop1(N_f: int, N_r: int, K: int, R: int, seed: int, recon: Prop1, etas: tuple, stages: tuple):
    kn = data.make(N_f, N_r, K, R, beta=0.5, seed=seed)
    E = embeddings(kn.vocab, recon)
    Z, W = model.init(E.shape[0], recon.m, recon.sigma0, np.random.default_rng(seed))
    Z[kn.vocab.c, :] -= torch.as_tensor(recon.c_penalty / (recon.mu_c * np.linalg.norm(E, axis=0).clip(min=1e-12)))
    ds = kn.ntp(recon)
    st = T.State(Z, W)
    eta = T.schedule(etas, stages)
    d, m = W.shape[0], W.shape[1]
    h = hidden(st, kn, recon, ds)
    y, w = torch.as_tensor(ds.targets), torch.as_tensor(ds.weights, dtype=model.DT)
    W2 = W.reshape(d * m, -1).clone()
    for t in range(stages[2] + 1):
        if t % 10 == 0 or t == stages[2]:
            F = _mlp(W2, h, m, recon.kappa)[0]
            nll = -torch.log_softmax(F, 1)[torch.arange(len(y)), y]
            st.log(t, loss=(w * nll).sum() / w.sum(), eta=eta(t))
        if t == stages[2]:
            break
        W2 = W2 - eta(t) * _grad_w(W2, h, y, m, recon.kappa, w)
    three = ds.tokens[:, 2] >= 0
    acc = (_mlp(W2, h, m, recon.kappa)[0].argmax(1) == y)[torch.as_tensor(three)].to(model.DT).mean()
    st.log(stages[2], answer_acc=acc)
    st.W = W2.reshape(W.shape)
    return st, kn, recon


def pretrained(N_f: int, N_r: int, K: int, R: int, seed: int, recon: Recon | None = None):
    """(State, Knowledge, Recon) after PT with the project's default reconstruction (pretrained.py), or with
    attention fixed at Prop. 1's state when ``recon`` is a :class:`Prop1`."""
    if isinstance(recon, Prop1):
        return _prop1(N_f, N_r, K, R, seed, recon, tuple(P.DEFAULT["etas"]), tuple(P.DEFAULT["stages"]))
    return P.pretrained(N_f, N_r, K, R, seed, recon=recon)


def pt_choices(recon: Recon) -> dict:
    """The PT reconstruction record (Recon + schedule) for a claim's ``choices``."""
    extra = {k: str(v) for k, v in vars(P).items() if k.isupper() and not k.startswith("_")}
    return recon.record() | extra


# ---------------------------------------------------------------------------------------------- FT subsets
def with_ft(kn: data.Knowledge, pairs) -> data.Knowledge:
    """The same PT data with D_FT = the given frequent pairs."""
    return dataclasses.replace(kn, ft_pairs=np.sort(np.asarray(pairs, dtype=int)))


def nested_ft(kn: data.Knowledge, sizes, seed: int) -> list[data.Knowledge]:
    """Nested FT subsets of the given sizes (prefixes of one random permutation of the frequent pairs)."""
    perm = np.random.default_rng(seed).permutation(kn.N_f)
    return [with_ft(kn, perm[:n]) for n in sizes]


def covered_pairs(kn: data.Knowledge, pairs) -> np.ndarray:
    """1 where every relation of pair i is covered by D_FT's phrase sets."""
    cov = kn.covered_relations()
    return np.array([all(r in cov for r in kn.relations[i]) for i in pairs])


def ood_pairs(kn: data.Knowledge) -> np.ndarray:
    return np.setdiff1d(np.arange(kn.N), kn.ft_pairs)


# ---------------------------------------------------------------------------------------------- FT runs
@dataclasses.dataclass
class FTSummary:
    """What the claims read of one FT run (JSON-serialisable, kept in the results store).

    Protocol: the OOD accuracy is read at the best recorded iteration *after* FT, t ≥ 1 (Thm 2(2): "after T_FT
    iterations"; J.1: "2000 iterations to determine the optimal number of iterations"): the model before FT
    (t = 0) is not a fine-tuned model.  The earlier protocol, best over t ≥ 0, is kept as ``best_incl0`` and the
    untuned model's accuracy as ``acc[0]`` / ``correct0`` so that claims can report both."""

    t: np.ndarray            # recorded steps (t = 0 first)
    acc: np.ndarray          # OOD accuracy at each recorded step
    correct: np.ndarray      # per OOD pair, correct at the best step with t ≥ 1
    correct0: np.ndarray     # per OOD pair, correct before FT (t = 0)

    @property
    def _after(self) -> np.ndarray:
        return self.t >= 1 if (self.t >= 1).any() else np.ones(len(self.t), bool)

    @property
    def best(self) -> float:
        """Best OOD accuracy over the recorded iterations t ≥ 1 (the post-FT model)."""
        return float(self.acc[self._after].max())

    @property
    def best_t(self) -> int:
        after = self._after
        return int(self.t[after][self.acc[after].argmax()])

    @property
    def best_incl0(self) -> float:
        """Best OOD accuracy including t = 0 (the earlier protocol: may score the untuned model)."""
        return float(self.acc.max())

    @property
    def best_at_t0(self) -> bool:
        """Did the earlier protocol (best over t ≥ 0, ties to the earliest) score this run at t = 0, the untuned
        model?"""
        return bool(self.acc[0] >= self.best)

    @property
    def final(self) -> float:
        return float(self.acc[-1])

    def to_json(self) -> dict:
        return {"t": self.t.tolist(), "acc": self.acc.tolist(), "correct": self.correct.astype(int).tolist(),
                "correct0": self.correct0.astype(int).tolist()}

    @classmethod
    def from_json(cls, d: dict) -> "FTSummary":
        return cls(np.asarray(d["t"], int), np.asarray(d["acc"], float), np.asarray(d["correct"], bool),
                   np.asarray(d["correct0"], bool))


@dataclasses.dataclass
class FTRun(FTSummary):
    state: T.State | None = None         # parameters at the best recorded step with t ≥ 1
    pred: np.ndarray | None = None       # per OOD pair, predicted output index at that step
    final_state: T.State | None = None   # parameters after the last step


def logits(st: T.State, kn: data.Knowledge, recon: Recon, ds: data.Dataset) -> torch.Tensor:
    b = T.batch(embeddings(kn.vocab, recon), ds, st.Z.device)
    return model.forward(st.Z, st.W, b.X, b.mask, b.xL, recon.kappa)["F"]


def hidden(st: T.State, kn: data.Knowledge, recon: Recon, ds: data.Dataset) -> torch.Tensor:
    """h = attn(X) (n, d) at the current Z (Eqs. 4–5)."""
    b = T.batch(embeddings(kn.vocab, recon), ds, st.Z.device)
    return model.forward(st.Z, st.W, b.X, b.mask, b.xL, recon.kappa)["h"]


def _mlp(W2: torch.Tensor, h: torch.Tensor, m: int, kappa: float):
    """F (n, d) and the activation pattern (n, d·m) of Eq. 20, W2 = W viewed as (d·m) × d."""
    pre = h @ W2.T
    return kappa * torch.relu(pre).reshape(len(h), -1, m).sum(-1), pre > 0


def _grad_w(W2: torch.Tensor, h: torch.Tensor, y: torch.Tensor, m: int, kappa: float,
            w: torch.Tensor | None = None) -> torch.Tensor:
    """∇_W L_FT with Z fixed, as (d·m) × d: (κ/n) Σ_n (p_j − 1{j=y}) 1{⟨w_{j,l},h⟩>0} h — transformer.py's derived
    per-sample gradient (checked against autograd in KX-L1-gradW); h is fixed because Z does not move in FT."""
    F, act = _mlp(W2, h, m, kappa)
    err = torch.softmax(F, 1)
    err[torch.arange(len(y)), y] -= 1.0
    if w is not None:                                  # weighted mean (Eq. 9 with J.1's rare × K)
        err = err * (w / w.sum() * len(y))[:, None]
    coef = err.repeat_interleave(m, dim=1) * act
    return kappa * coef.T @ h / len(y)


def _rank1(G: torch.Tensor) -> torch.Tensor:
    """σ_1 u_1 v_1ᵀ = G v_1 v_1ᵀ with v_1 the top eigenvector of GᵀG (d × d; cheaper than a full SVD of the
    (d·m) × d matrix; equal to training.rank1 to rounding, tested)."""
    v = torch.linalg.eigh(G.T @ G).eigenvectors[:, -1]
    return torch.outer(G @ v, v)


def finetune(st: T.State, kn: data.Knowledge, recon: Recon, eta: float, steps: int, mode: str = "full",
             every: int = 1) -> FTRun:
    """GD (or rank-1 GD, App. H) on D_FT for ``steps`` steps, OOD accuracy every ``every`` steps; the best iterate
    after FT (t ≥ 1) is kept (:class:`FTSummary`).

    Only W moves (Lemma 25's proof; ``recon.ft_params == "W"``), so the attention outputs h are fixed during
    FT and each step is the derived gradient on precomputed h (equal to training.finetune to rounding; tested)."""
    if recon.ft_params != "W":
        raise ValueError("ood_sweeps.finetune moves W only (recon.ft_params == 'W'); use training.finetune")
    if mode not in ("full", "rank1"):
        raise ValueError(f"FT mode must be 'full' or 'rank1', not {mode!r}")
    ood, ft = kn.ood(), kn.ft()
    d, m = st.W.shape[0], st.W.shape[1]
    ts, accs, best, first = [], [], (-1.0, None), None
    h_ood, h_ft = hidden(st, kn, recon, ood), hidden(st, kn, recon, ft)
    y_ood, y_ft = torch.as_tensor(ood.targets), torch.as_tensor(ft.targets)
    W2 = st.W.reshape(d * m, -1).clone()
    for t in range(steps + 1):
        if t % every == 0 or t == steps:
            pred = _mlp(W2, h_ood, m, recon.kappa)[0].argmax(1)
            acc = float((pred == y_ood).to(model.DT).mean())
            ts.append(t), accs.append(acc)
            if t == 0:
                first = (W2.clone(), pred.numpy())
            elif acc > best[0]:                      # the best iterate after FT (t ≥ 1)
                best = (acc, (W2.clone(), pred.numpy()))
        if t == steps:
            break
        G = _grad_w(W2, h_ft, y_ft, m, recon.kappa)
        W2 = W2 - eta * (_rank1(G) if mode == "rank1" else G)
    Wb, pred = best[1] if best[1] is not None else first
    as_state = lambda M: T.State(st.Z.clone(), M.reshape(st.W.shape))  # noqa: E731
    return FTRun(np.array(ts), np.array(accs), pred == ood.targets, first[1] == ood.targets, state=as_state(Wb),
                 pred=pred, final_state=as_state(W2))


def first_gradient(st: T.State, kn: data.Knowledge, recon: Recon) -> np.ndarray:
    """∇_W L_FT at the pre-trained parameters, as the (d·m) × d matrix of App. H (rows (j, l))."""
    d, m = st.W.shape[0], st.W.shape[1]
    h = hidden(st, kn, recon, kn.ft())
    return _grad_w(st.W.reshape(d * m, -1), h, torch.as_tensor(kn.ft().targets), m, recon.kappa).numpy()


PT_GAP_MAX = 0.25


def pt_quality(st: T.State, kn: data.Knowledge, recon: Recon) -> dict:
    """Did PT acquire the facts (Thm 2(1))?  min_t L − H and the final answer accuracy on [c, s_i, r]."""
    H = float(entropy.H_formula(recon.reweight_rare).subs({entropy.K: kn.K, entropy.N_f: kn.N_f,
                                                              entropy.N_r: kn.N_r}))
    gap = min(st.trace["loss"]) - H
    acc = st.trace["answer_acc"][-1]
    return {"gap": float(gap), "answer_acc": float(acc), "ok": bool(gap <= PT_GAP_MAX and acc == 1.0)}


def rank1_stats(G: np.ndarray, f_index: int) -> dict[str, float]:
    """‖G − G_1‖_F/‖G‖_F (= √(Σ_{k≥2}σ_k²)/‖σ‖, Eckart–Young–Mirsky), σ_2/σ_1 (= ‖G − G_1‖_2/‖G‖_2) and
    |⟨v_1, e_f⟩|."""
    _, s, Vh = torch.linalg.svd(torch.as_tensor(G), full_matrices=False)
    s, Vh = s.numpy(), Vh.numpy()
    return {"resid": float(np.sqrt((s[1:] ** 2).sum()) / np.sqrt((s ** 2).sum())),
            "s2_over_s1": float(s[1] / s[0]), "v1_f": float(abs(Vh[0, f_index]))}


# ---------------------------------------------------------------------------------------------- coverage
def p_all_covered(K: int, R: int, n_ft: int, k: int | None = None) -> float:
    """P(all k phrases of a fixed set are covered by n_ft independent K-subsets of [R]) (inclusion–exclusion).
    k = K for an unseen frequent pair, k = 1 for a rare pair."""
    k = K if k is None else k
    return sum((-1) ** j * comb(k, j) * (comb(R - j, K) / comb(R, K)) ** n_ft for j in range(k + 1))


def expected_uncovered_fraction(N_f: int, N_r: int, K: int, R: int, n_ft: int) -> float:
    """E[fraction of D_QA ∖ D_FT with an uncovered phrase] — the coverage law's predicted L_OOD."""
    unseen = (N_f - n_ft) * (1 - p_all_covered(K, R, n_ft)) + N_r * (1 - p_all_covered(K, R, n_ft, 1))
    return unseen / (N_f + N_r - n_ft)




# ---------------------------------------------------------------------------------------------- decisions
MIN_PT_SEEDS = 3


def _stratified_slope_ci(u: np.ndarray, rows: list[np.ndarray], seed: int, n: int = 2000) -> tuple[float, float]:
    """Percentile 95% CI of the least-squares slope of the row means against u, resampling each row's values (one
    per PT seed) with replacement independently (a stratified bootstrap; rows may differ in length)."""
    rng = np.random.default_rng(seed)
    means = np.stack([rng.choice(r, size=(n, len(r)), replace=True).mean(1) for r in rows], axis=1)   # (n, points)
    uc = u - u.mean()
    slopes = (means - means.mean(1, keepdims=True)) @ uc / (uc @ uc)
    return float(np.quantile(slopes, 0.025)), float(np.quantile(slopes, 0.975))


def trend_verdict(x, y, direction: int, seed: int, what: str, log_x: bool = False,
                  groups=None, min_groups: int = MIN_PT_SEEDS) -> tv.Verdict:
    """Monotone trend by a least-squares slope with a bootstrap CI (y: (points, runs)).

    ``groups`` (one label per column: the PT seed of each run) makes the PT run the unit of replication: runs are
    averaged within each PT seed, and the CI resamples PT seeds within each grid point; fewer than ``min_groups`` PT
    seeds at a grid point is inconclusive (the PT-run variance is not sampled; with pre-training seed 1 instead of
    0 a trend can reverse).  Without ``groups`` every column is a replicate.  holds: the CI excludes 0 on the
    claimed side; refuted: it excludes 0 on the other side; else inconclusive.  The verdict records the fit family
    (a linear trend in x or log x), so the engine's span rule applies to the grid."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    u = np.log(x) if log_x else x
    family = "trend (linear in log x)" if log_x else "trend (linear in x)"
    if groups is not None:
        groups = np.asarray(groups)
        labels = list(dict.fromkeys(groups.tolist()))
        per = np.array([[np.nanmean(row[groups == g]) if np.any(~np.isnan(row[groups == g])) else np.nan
                         for g in labels] for row in y])                                   # (points, PT seeds)
        rows = [r[~np.isnan(r)] for r in per]
        mean = np.array([r.mean() if len(r) else np.nan for r in rows])
        b = float(np.polyfit(u, mean, 1)[0])
        n_seeds = min(len(r) for r in rows)
        within = fit_within = None
        if y.shape[1] > 1 and not np.isnan(y).any():
            fit_within = tv.scaling.fit_line(u, y, seed=seed)
            within = [float(fit_within.ci[0]), float(fit_within.ci[1])]
        detail = {"slope": b, "x": x.tolist(), "mean": mean.tolist(), "pt_seeds": len(labels),
                  "pt_seed_means": per.tolist(), "runs_per_point": int(y.shape[1]),
                  "axis": ("log " if log_x else "") + "x", "ci95_over_FT_replicates_only": within,
                  "fit": {"family": family, "slope": b},
                  "sweep": {"param": what, "x": x.tolist(), "measured": mean.tolist()}}
        head = (f"slope of OOD accuracy vs {'log ' if log_x else ''}{what}: {b:+.4f}; means "
                f"{np.round(mean, 3).tolist()} at {x.tolist()}")
        if n_seeds < min_groups:
            ci_txt = f" (FT-replicate CI within the PT run{'s' if len(labels) > 1 else ''}: [{within[0]:+.4f}, " \
                     f"{within[1]:+.4f}])" if within else ""
            return tv.inconclusive("sweep: slope, PT seed the unit of replication",
                                   f"{n_seeds} PT seed{'s' if n_seeds != 1 else ''} per grid value (< {min_groups}): "
                                   f"the pre-training variance is not sampled — {head}{ci_txt}", **detail)
        lo, hi = _stratified_slope_ci(u, rows, seed)
        detail |= {"ci95": [lo, hi]}
        text = f"{head}; 95% CI [{lo:+.4f}, {hi:+.4f}] resampling {n_seeds}–{max(len(r) for r in rows)} PT seeds per point"
        method = "sweep: slope, bootstrap CI over PT seeds (stratified by grid point)"
        counter = {"slope": b, "ci95": [lo, hi], "x": x.tolist(), "mean": mean.tolist()}
    else:
        if np.isnan(y).any():       # unbalanced (dropped replicates): fit and bootstrap over single observations
            ok = ~np.isnan(y)
            fit = tv.scaling.fit_line(np.repeat(u, y.shape[1]).reshape(y.shape)[ok], y[ok], seed=seed)
            reps = f"{int(ok.sum())} observations (replicates dropped: {int((~ok).sum())})"
        else:
            fit = tv.scaling.fit_line(u, y, seed=seed)
            reps = f"{y.shape[1]} replicates"
        lo, hi = fit.ci
        b = fit.exponent
        mean = np.nanmean(y, axis=1)
        detail = {"slope": b, "ci95": [lo, hi], "x": x.tolist(), "mean": mean.tolist(),
                  "replicates": int(y.shape[1]), "axis": ("log " if log_x else "") + "x",
                  "fit": {"family": family, "slope": b},
                  "sweep": {"param": what, "x": x.tolist(), "measured": mean.tolist()}}
        text = (f"slope of OOD accuracy vs {'log ' if log_x else ''}{what}: {b:+.4f}, 95% CI "
                f"[{lo:+.4f}, {hi:+.4f}] over {reps}; means {np.round(mean, 3).tolist()} at {x.tolist()}")
        method = "sweep: bootstrap CI of the fitted slope"
        counter = {"slope": b, "ci95": [lo, hi], "x": x.tolist(), "mean": mean.tolist()}
    sign = "increases" if direction > 0 else "decreases"
    if direction * lo > 0 and direction * hi > 0:
        return tv.holds(method, f"accuracy {sign} with {what}: " + text, **detail)
    if direction * hi < 0 and direction * lo < 0:
        return tv.refuted(method, "the opposite trend: " + text, counter, **detail)
    return tv.inconclusive(method, "no significant trend: " + text, **detail)


# ---------------------------------------------------------------------------------------------- modes
def modes(which: str = "both") -> dict[str, Recon]:
    """The two PT regimes the FT claims are run in (spec §5: μ_c is lost and flips the outcome):
    the project default (pretrained.DEFAULT_RECON, μ_c = 3: PT loss near H, but the pre-FT Q&A prompt
    already answers) and μ_c = 4 (the Lemma 18 regime: pre-FT Q&A predicts a relation; PT gap ≈ 0.2)."""
    base = P.DEFAULT_RECON
    out = {"mu_c=3 (default)": base, "mu_c=4 (Lemma 18 regime)": dataclasses.replace(base, mu_c=4.0)}
    if which == "prop1":
        return {"Prop. 1 assumed (Z fixed)": Prop1(**dataclasses.asdict(base))}
    if which == "both":
        return out
    return {k: v for k, v in out.items() if k.startswith(which)}


def across_modes(parts: dict[str, tv.Verdict], choice: str = "μ_c") -> tv.Verdict:
    """Verdict on the reconstruction: the same status in every mode → that status (a robust outcome);
    otherwise inconclusive, because the outcome hinges on the lost choice (both sub-verdicts kept)."""
    statuses = {v.status for v in parts.values()}
    if len(statuses) == 1 and statuses <= {tv.Status.HOLDS, tv.Status.REFUTED, tv.Status.PROVED}:
        return tv.combine(parts, method="same outcome in every PT regime:")
    text = "; ".join(f"[{k}: {v.status.value}] {v.evidence}" for k, v in parts.items())
    return tv.inconclusive(f"outcome hinges on {choice}", f"verdict differs across PT regimes ({choice} lost): {text}",
                        parts={k: v.to_json() for k, v in parts.items()})


# ---------------------------------------------------------------------------------------------- shared sweeps
#: FT protocol defaults (η_FT and T_FT are lost; J.1: 2000 iterations, best iteration after FT).  Quick: T_FT = 200,
#: one PT seed (trend verdicts then say inconclusive: PT-run variance not sampled); full: 5 PT seeds, results store.
ETA_FT = 10.0
QUICK = {"steps": 200, "every": 5, "sizes": (1, 2, 4, 8, 16), "reps": 4, "pt_seeds": (0,), "store": False}
FULL = {"steps": 2000, "every": 10, "sizes": (1, 2, 4, 8, 16), "reps": 3, "pt_seeds": (0, 1, 2, 3, 4), "store": True}


def protocol(profile: str) -> dict:
    return FULL if profile == "full" else QUICK


def base_config() -> dict:
    return {k: P.DEFAULT[k] for k in ("N_f", "N_r", "K", "R")}


def regime_record(recon: Recon) -> dict:
    """A regime (Recon or Prop1) as a JSON-able record that :func:`regime_from` rebuilds."""
    return {"class": type(recon).__name__, **dataclasses.asdict(recon)}


def regime_from(record: dict) -> Recon:
    fields = {k: v for k, v in record.items() if k != "class"}
    return (Prop1 if record["class"] == "Prop1" else Recon)(**fields)


def pretrain_seeds(recon: Recon, cfg: dict, seeds) -> None:
    """Pre-train every seed of a (regime, sizes) point into the shared cache — one batched GD over the seeds
    (``pretrained.pretrained_batch``; the Prop. 1 regime trains W alone and is cheap, run per seed)."""
    if not isinstance(recon, Prop1) and len(seeds) > 1:
        P.pretrained_batch(cfg["N_f"], cfg["N_r"], cfg["K"], cfg["R"], seeds=tuple(seeds), recon=recon)


def ft_point(conf: dict) -> list[dict]:
    """One results-store point: PT for each seed of ``conf["pt_seeds"]`` (batched), then FT on nested FT subsets of
    every size and replicate; a JSON summary (:class:`FTSummary`) per run."""
    recon, cfg, sizes = regime_from(conf["regime"]), dict(conf["cfg"]), tuple(conf["sizes"])
    pretrain_seeds(recon, cfg, conf["pt_seeds"])
    out = []
    for s in conf["pt_seeds"]:
        st, kn, rec = pretrained(cfg["N_f"], cfg["N_r"], cfg["K"], cfg["R"], s, recon=recon)
        for rep in range(conf["reps"]):
            for n, knk in zip(sizes, nested_ft(kn, sizes, 1000 * s + rep)):
                r = finetune(st, knk, rec, conf["eta"], conf["steps"], mode=conf["mode"], every=conf["every"])
                out.append({"pt_seed": s, "rep": rep, "N_ft": n, **r.to_json()})
    return out


@lru_cache(maxsize=512)
def _sweep(regime: Recon, N_f: int, N_r: int, K: int, R: int, pt_seeds: tuple, sizes: tuple, reps: int, eta: float,
           steps: int, every: int, mode: str, store: bool) -> tuple:
    conf = {"regime": regime_record(regime), "cfg": {"N_f": N_f, "N_r": N_r, "K": K, "R": R}, "pt_seeds": list(pt_seeds),
            "sizes": list(sizes), "reps": reps, "eta": eta, "steps": steps, "every": every, "mode": mode}
    # the code key (the source closure of ft_point, ~3.8 s of CPU the first time in a process) only keys the store:
    # the quick protocol, which stores nothing, does not compute it
    key = {"claim": "knowledge.ft-sweep", **({"code": tv.code_key(ft_point)} if store else {})}
    [rows] = tv.sweep(tv.Store() if store else None, key, [conf], ft_point, desc="knowledge FT sweep")
    return tuple(rows)


def sweep_runs(recon: Recon, profile: str, cfg: dict | None = None, mode: str = "full",
               sizes: tuple | None = None, eta: float = ETA_FT, steps: int | None = None):
    """[(pt_seed, rep, n_ft, FTSummary, Knowledge)] over the protocol's PT seeds and FT replicates (``profile``:
    the FT protocol, "quick" or "full"); the full protocol's runs are kept in the results store."""
    p = protocol(profile)
    cfg = cfg or base_config()
    sizes = tuple(sizes or p["sizes"])
    rows = _sweep(recon, cfg["N_f"], cfg["N_r"], cfg["K"], cfg["R"], tuple(p["pt_seeds"]), sizes, p["reps"],
                  float(eta), int(steps or p["steps"]), p["every"], mode, p["store"])
    out = []
    for s in p["pt_seeds"]:
        kn = data.make(cfg["N_f"], cfg["N_r"], cfg["K"], cfg["R"], beta=0.5, seed=s)
        kns = {(rep, n): k for rep in range(p["reps"]) for n, k in zip(sizes, nested_ft(kn, sizes, 1000 * s + rep))}
        out += [(s, r["rep"], r["N_ft"], FTSummary.from_json(r), kns[(r["rep"], r["N_ft"])])
                for r in rows if r["pt_seed"] == s]
    return out


def accuracy_table(runs, sizes, value: str = "best") -> np.ndarray:
    """(len(sizes), PT seeds · replicates) OOD accuracies from sweep_runs output (``value``: "best" — the best
    iterate after FT, t ≥ 1; "best_incl0" — the earlier protocol, t ≥ 0)."""
    return np.array([[getattr(r, value) for (_, _, n, r, _) in runs if n == size] for size in sizes])


def pt_groups(runs, sizes) -> np.ndarray:
    """The PT seed of each column of :func:`accuracy_table` (the unit a trend must be replicated over)."""
    return np.array([s for (s, _, n, _, _) in runs if n == sizes[0]])


def protocol_note(runs) -> dict:
    """How many runs the earlier protocol (best over t ≥ 0) scored at t = 0, the untuned model."""
    at0 = [r.best_at_t0 for (*_, r, _) in runs]
    return {"runs": len(at0), "earlier_protocol_scored_t0": int(sum(at0)),
            "mean_best_after_FT": float(np.mean([r.best for (*_, r, _) in runs])),
            "mean_best_incl_t0": float(np.mean([r.best_incl0 for (*_, r, _) in runs])),
            "mean_acc_before_FT": float(np.mean([r.acc[0] for (*_, r, _) in runs]))}
