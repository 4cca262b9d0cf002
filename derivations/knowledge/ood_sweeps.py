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

from theoryverify.scaling import fit_line
from theoryverify.threads import torch_threads
from theoryverify.verdicts import Verdict, holds, inconclusive, refuted

from . import data, model
from . import training as T
from .setup import Recon, embeddings

#: Fallback pre-training (used only if pretrained.py is absent): exploration config of the brief.
FALLBACK_RECON = Recon(mu_c=4.0, m=8)
FALLBACK_ETAS, FALLBACK_STAGES = (10.0, 5.0, 1.0), (50, 400, 1500)


@lru_cache(maxsize=64)
def _fallback(N_f: int, N_r: int, K: int, R: int, seed: int, recon: Recon):
    kn = data.make(N_f, N_r, K, R, beta=0.5, seed=seed, recon=recon)
    st = T.pretrain(kn, recon, etas=FALLBACK_ETAS, stages=FALLBACK_STAGES, seed=seed, record_every=100)
    return st, kn, recon


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
    with torch_threads(1):
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
        try:
            from .pretrained import DEFAULT
            etas, stages = DEFAULT["etas"], DEFAULT["stages"]
        except ImportError:
            etas, stages = FALLBACK_ETAS, FALLBACK_STAGES
        return _prop1(N_f, N_r, K, R, seed, recon, tuple(etas), tuple(stages))
    try:
        from .pretrained import pretrained as shared
    except ImportError:
        return _fallback(N_f, N_r, K, R, seed, recon or FALLBACK_RECON)
    return shared(N_f, N_r, K, R, seed, recon=recon)


def pt_choices(recon: Recon) -> dict:
    """The PT reconstruction record (Recon + schedule) for a claim's ``choices``."""
    try:
        from . import pretrained as P
        extra = {k: str(v) for k, v in vars(P).items() if k.isupper() and not k.startswith("_")}
    except ImportError:
        extra = {"PT etas": str(FALLBACK_ETAS), "PT stages": str(FALLBACK_STAGES), "PT source": "fallback"}
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
class FTRun:
    t: np.ndarray            # recorded steps
    acc: np.ndarray          # OOD accuracy at each recorded step
    state: T.State           # parameters at the best recorded step
    correct: np.ndarray      # per OOD pair, correct at the best step
    pred: np.ndarray         # per OOD pair, predicted output index at the best step
    final_state: T.State | None = None   # parameters after the last step

    @property
    def best(self) -> float:
        return float(self.acc.max())

    @property
    def best_t(self) -> int:
        return int(self.t[self.acc.argmax()])

    @property
    def final(self) -> float:
        return float(self.acc[-1])


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
    """∇_W L_FT with Z fixed, as (d·m) × d: (κ/n) Σ_n (p_j − 1{j=y}) 1{⟨w_{j,l},h⟩>0} h — model.py's derived
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
    """GD (or rank-1 GD, App. H) on D_FT for ``steps`` steps, OOD accuracy every ``every`` steps, best kept.

    Only W moves (Lemma 25's proof; ``recon.ft_params == "W"``), so the attention outputs h are fixed during
    FT and each step is the derived gradient on precomputed h (equal to training.finetune to rounding; tested)."""
    if recon.ft_params != "W":
        raise ValueError("ood_sweeps.finetune moves W only (recon.ft_params == 'W'); use training.finetune")
    if mode not in ("full", "rank1"):
        raise ValueError(f"FT mode must be 'full' or 'rank1', not {mode!r}")
    ood, ft = kn.ood(), kn.ft()
    d, m = st.W.shape[0], st.W.shape[1]
    ts, accs, best = [], [], (-1.0, None)
    with torch_threads(1):
        h_ood, h_ft = hidden(st, kn, recon, ood), hidden(st, kn, recon, ft)
        y_ood, y_ft = torch.as_tensor(ood.targets), torch.as_tensor(ft.targets)
        W2 = st.W.reshape(d * m, -1).clone()
        for t in range(steps + 1):
            if t % every == 0 or t == steps:
                pred = _mlp(W2, h_ood, m, recon.kappa)[0].argmax(1)
                acc = float((pred == y_ood).to(model.DT).mean())
                ts.append(t), accs.append(acc)
                if acc > best[0]:
                    best = (acc, (W2.clone(), pred.numpy()))
            if t == steps:
                break
            G = _grad_w(W2, h_ft, y_ft, m, recon.kappa)
            W2 = W2 - eta * (_rank1(G) if mode == "rank1" else G)
    Wb, pred = best[1]
    as_state = lambda M: T.State(st.Z.clone(), M.reshape(st.W.shape))
    return FTRun(np.array(ts), np.array(accs), as_state(Wb), pred == ood.targets, pred, as_state(W2))


def first_gradient(st: T.State, kn: data.Knowledge, recon: Recon) -> np.ndarray:
    """∇_W L_FT at the pre-trained parameters, as the (d·m) × d matrix of App. H (rows (j, l))."""
    d, m = st.W.shape[0], st.W.shape[1]
    with torch_threads(1):
        h = hidden(st, kn, recon, kn.ft())
        return _grad_w(st.W.reshape(d * m, -1), h, torch.as_tensor(kn.ft().targets), m, recon.kappa).numpy()


PT_GAP_MAX = 0.25


def pt_quality(st: T.State, kn: data.Knowledge, recon: Recon) -> dict:
    """Did PT acquire the facts (Thm 2(1))?  min_t L − H and the final answer accuracy on [c, s_i, r]."""
    from . import entropy
    H = float(entropy.H_formula(recon.reweight_rare).subs({entropy.K: kn.K, entropy.N_f: kn.N_f,
                                                              entropy.N_r: kn.N_r}))
    gap = min(st.trace["loss"]) - H
    acc = st.trace["answer_acc"][-1]
    return {"gap": float(gap), "answer_acc": float(acc), "ok": bool(gap <= PT_GAP_MAX and acc == 1.0)}


def rank1_stats(G: np.ndarray, f_index: int) -> dict[str, float]:
    """‖G − G_1‖_F/‖G‖_F (= √(Σ_{k≥2}σ_k²)/‖σ‖, Eckart–Young–Mirsky), σ_2/σ_1 (= ‖G − G_1‖_2/‖G‖_2) and
    |⟨v_1, e_f⟩|."""
    with torch_threads(1):
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
def trend_verdict(x, y, direction: int, seed: int, what: str, log_x: bool = False) -> Verdict:
    """Monotone trend by a least-squares slope with a bootstrap CI over replicates (y: (points, reps)).

    holds: the CI excludes 0 on the claimed side; refuted: it excludes 0 on the other side; else inconclusive."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    u = np.log(x) if log_x else x
    if np.isnan(y).any():       # unbalanced (dropped replicates): fit and bootstrap over single observations
        ok = ~np.isnan(y)
        fit = fit_line(np.repeat(u, y.shape[1]).reshape(y.shape)[ok], y[ok], seed=seed)
        reps = f"{int(ok.sum())} observations (replicates dropped: {int((~ok).sum())})"
    else:
        fit = fit_line(u, y, seed=seed)
        reps = f"{y.shape[1]} replicates"
    lo, hi = fit.ci
    mean = np.nanmean(y, axis=1)
    sign = "increases" if direction > 0 else "decreases"
    detail = {"slope": fit.exponent, "ci95": [lo, hi], "x": x.tolist(), "mean": mean.tolist(),
              "replicates": int(y.shape[1]), "axis": ("log " if log_x else "") + "x",
              "sweep": {"param": what, "x": x.tolist(), "measured": mean.tolist()}}
    text = (f"slope of OOD accuracy vs {'log ' if log_x else ''}{what}: {fit.exponent:+.4f}, 95% CI "
            f"[{lo:+.4f}, {hi:+.4f}] over {reps}; means {np.round(mean, 3).tolist()} at {x.tolist()}")
    if direction * lo > 0 and direction * hi > 0:
        return holds("sweep: bootstrap CI of the fitted slope", f"accuracy {sign} with {what}: " + text, **detail)
    if direction * hi < 0 and direction * lo < 0:
        return refuted("sweep: bootstrap CI of the fitted slope", "the opposite trend: " + text,
                       {"slope": fit.exponent, "ci95": [lo, hi], "x": x.tolist(), "mean": mean.tolist()},
                       **detail)
    return inconclusive("sweep: bootstrap CI of the fitted slope", "no significant trend: " + text, **detail)


# ---------------------------------------------------------------------------------------------- modes
def modes(which: str = "both") -> dict[str, Recon]:
    """The two PT regimes the FT claims are run in (spec §5: μ_c is lost and flips the outcome):
    the project default (pretrained.DEFAULT_RECON, μ_c = 3: PT loss near H, but the pre-FT Q&A prompt
    already answers) and μ_c = 4 (the Lemma 18 regime: pre-FT Q&A predicts a relation; PT gap ≈ 0.2)."""
    try:
        from .pretrained import DEFAULT_RECON as base
    except ImportError:
        base = dataclasses.replace(FALLBACK_RECON, mu_c=3.0)
    out = {"mu_c=3 (default)": base, "mu_c=4 (Lemma 18 regime)": dataclasses.replace(base, mu_c=4.0)}
    if which == "prop1":
        return {"Prop. 1 assumed (Z fixed)": Prop1(**dataclasses.asdict(base))}
    if which == "both":
        return out
    return {k: v for k, v in out.items() if k.startswith(which)}


def across_modes(parts: dict[str, Verdict], choice: str = "μ_c") -> Verdict:
    """Verdict on the reconstruction: the same status in every mode → that status (a robust outcome);
    otherwise inconclusive, because the outcome hinges on the lost choice (both sub-verdicts kept)."""
    from theoryverify.verdicts import Status, combine
    statuses = {v.status for v in parts.values()}
    if len(statuses) == 1 and statuses <= {Status.HOLDS, Status.REFUTED, Status.PROVED}:
        return combine(parts, method="same outcome in every PT regime:")
    text = "; ".join(f"[{k}: {v.status.value}] {v.evidence}" for k, v in parts.items())
    return inconclusive(f"outcome hinges on {choice}", f"verdict differs across PT regimes ({choice} lost): {text}",
                        parts={k: v.to_json() for k, v in parts.items()})


# ---------------------------------------------------------------------------------------------- shared sweeps
#: FT protocol defaults (η_FT and T_FT are lost; J.1: 2000 iterations, best iteration).  Quick: T_FT = 200.
ETA_FT = 10.0
QUICK = {"steps": 200, "every": 5, "sizes": (1, 2, 4, 8, 16), "reps": 4, "pt_seeds": (0,)}
FULL = {"steps": 2000, "every": 10, "sizes": (1, 2, 4, 8, 16), "reps": 3, "pt_seeds": (0, 1, 2, 3, 4)}


def protocol(profile: str) -> dict:
    return FULL if profile == "full" else QUICK


def base_config() -> dict:
    try:
        from .pretrained import DEFAULT
        return {k: DEFAULT[k] for k in ("N_f", "N_r", "K", "R")}
    except ImportError:
        return {"N_f": 20, "N_r": 5, "K": 3, "R": 6}


@lru_cache(maxsize=256)
def nf_sweep(recon: Recon, N_f: int, N_r: int, K: int, R: int, pt_seed: int, sizes: tuple, reps: int,
             eta: float, steps: int, every: int, mode: str = "full") -> tuple:
    """FT runs for nested FT subsets: result[rep][k] = FTRun for Ñ_f = sizes[k] (FT subset seed = rep)."""
    st, kn, rec = pretrained(N_f, N_r, K, R, pt_seed, recon=recon)
    return tuple(tuple(finetune(st, k, rec, eta, steps, mode=mode, every=every)
                       for k in nested_ft(kn, sizes, 1000 * pt_seed + rep)) for rep in range(reps))


def sweep_runs(recon: Recon, profile: str, cfg: dict | None = None, mode: str = "full",
               sizes: tuple | None = None, eta: float = ETA_FT, steps: int | None = None):
    """[(pt_seed, rep, n_ft, FTRun, Knowledge)] over the profile's PT seeds and FT replicates."""
    p = protocol(profile)
    cfg = cfg or base_config()
    sizes = tuple(sizes or p["sizes"])
    out = []
    for s in p["pt_seeds"]:
        runs = nf_sweep(recon, cfg["N_f"], cfg["N_r"], cfg["K"], cfg["R"], s, sizes, p["reps"], eta,
                        steps or p["steps"], p["every"], mode)
        _, kn, _ = pretrained(cfg["N_f"], cfg["N_r"], cfg["K"], cfg["R"], s, recon=recon)
        for rep, row in enumerate(runs):
            kns = nested_ft(kn, sizes, 1000 * s + rep)
            out += [(s, rep, n, r, k) for n, r, k in zip(sizes, row, kns)]
    return out


def accuracy_table(runs, sizes) -> np.ndarray:
    """(len(sizes), replicates) best-iteration OOD accuracies from sweep_runs output."""
    return np.array([[r.best for (_, _, n, r, _) in runs if n == size] for size in sizes])
