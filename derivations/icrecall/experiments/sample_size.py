"""Sample size of Algorithm 1 against n (Theorem 1 remark, Abstract; spec ICR-T1-polylog).

Populations as keys, built from match patterns.  For a relation r and a step-1 sequence
(s1, a1, s2, a2, s3, EoS) the relation logit l(r) is a quadratic form in ṽ = (v, 1) whose matrix is
read off the Lemma-3 construction (``families.construction_int`` + ``families.step1_gram``, exact
integers).  It is computed once per *match pattern* M(r) = {(i, j) : r(s_i) = a_j} (i ≤ 3, j ≤ 2)
from a representative (sequence, relation) of that pattern; that the form depends on nothing else is
checked exactly against ``general_n.quadratic_forms`` on whole populations in tests/icrecall/
test_polylog.py.  Each population sequence is then summarised by its per-form relation counts
(``stage2_dynamics.Keys``, the same object ``stage2_dynamics.keys_of`` builds), computed for every
sequence in chunks (numpy, no SymPy), so populations of ~10⁶ sequences are cheap.

Datasets D are i.i.d. draws from P_IC (Definition 1: uniform over the population), turned into key
weights; Algorithm 1 runs through ``stage2_dynamics.algorithm1``; success of a run = min over *all*
population sequences of p1(r*) ≥ level at the end of Stage 2 (t2 steps).

Families: F-aff(p) (spec; every sequence is one key, so |D| has no effect), F-aff-half(p) (a random
half of the affine maps: Assumption 1 holds because any subset of a sharply 2-transitive set does, the
confusing / mismatched fractions stay ≈ constant as p grows (Assumption 2), and sequences differ, so
|D| matters), F-greedy(n) (``families.f_greedy``: Assumption 1 holds but m stays ≈ 20, so the
confusing fraction decays like m/n², i.e. Assumption 2 fails as n grows).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np
import torch


from theoryverify import runner as _runner
run_rng = _runner.run_rng

from ..model import families as FM
from . import stage2_dynamics as S

TARGET_CODE = 0b001001  # M(r*) = {(1,1), (2,2)}: bits 2(i−1) + (j−1)
CONF_CODE = 0b000110  # {(1,2), (2,1)}
CHUNK = 20_000


def pattern_codes(fam: FM.Family, s: np.ndarray, a: np.ndarray) -> np.ndarray:
    """(N, m) codes Σ 2^{2(i−1)+(j−1)}·1{r(s_i) = a_j} for sequences with subjects s (N, 3), answers a (N, ≥2)."""
    img = fam.array[:, s]  # m × N × 3: r(s_i)
    hit = img.transpose(1, 0, 2)[:, :, :, None] == a[:, None, None, :2]  # N × m × 3 × 2
    weights = (1 << np.arange(6)).reshape(3, 2)
    return (hit * weights).sum(axis=(2, 3))


def is_mismatched_code(code: np.ndarray) -> np.ndarray:
    """A 2-matching relation with s3 ↦ a1 or a2 (Section 4.2): two bits, one of them in row i = 3."""
    code = np.asarray(code)
    bits = np.array([(code >> b) & 1 for b in range(6)])
    return (bits.sum(0) == 2) & ((bits[4] | bits[5]) == 1)


def pattern_forms(fam: FM.Family, seqs: FM.Sequences, codes: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Quadratic form (7×7 integers, ṽ = (v1..v6, 1)) of each wanted pattern code, from the construction
    at one representative (sequence, relation) per code."""
    W, V = FM.construction_int(fam)
    voc = fam.vocab
    out = np.zeros((len(wanted), 7, 7), dtype=np.int64)
    tokens = FM.step1_token_matrix(seqs)
    for f, c in enumerate(wanted):
        i, k = (int(x) for x in np.argwhere(codes == c)[0])
        out[f] = FM.step1_gram(W, V, tokens[i:i + 1], np.array([voc.r(k)]))[0, 0]
    return out


@lru_cache(maxsize=16)
def population_keys(fam: FM.Family) -> S.Keys:
    """Every IC-recall sequence of ``fam`` merged into keys (target form, confusing form, per-form counts)."""
    seqs = FM.all_sequences(fam)
    N = seqs.N
    code_counts = np.zeros((N, 64), dtype=np.int32)
    rep: dict[int, tuple[int, int]] = {}
    for lo in range(0, N, CHUNK):
        part = FM.subset(seqs, slice(lo, lo + CHUNK))
        codes = pattern_codes(fam, part.s, part.a)
        rows = np.repeat(np.arange(codes.shape[0]), codes.shape[1])
        np.add.at(code_counts[lo:lo + codes.shape[0]], (rows, codes.ravel()), 1)
        for c in np.unique(codes):
            if int(c) not in rep:
                i, k = np.argwhere(codes == c)[0]
                rep[int(c)] = (lo + int(i), int(k))
    present = np.array(sorted(rep))
    idx = np.array([rep[int(c)][0] for c in present])
    sub = FM.subset(seqs, idx)
    forms_by_code = pattern_forms(fam, sub, pattern_codes(fam, sub.s, sub.a), present)
    flat = forms_by_code.reshape(len(present), 49)
    uniq, form_of = np.unique(flat, axis=0, return_inverse=True)  # patterns with equal forms merged
    form_of = form_of.ravel()
    F = len(uniq)
    counts = np.zeros((N, F), dtype=np.int64)
    for c, f in zip(present, form_of):
        counts[:, f] += code_counts[:, c]
    t_form = form_of[np.searchsorted(present, TARGET_CODE)]
    has_conf = code_counts[:, CONF_CODE] > 0 if CONF_CODE in rep else np.zeros(N, bool)
    c_form = form_of[np.searchsorted(present, CONF_CODE)] if CONF_CODE in rep else -1
    mis_codes = present[is_mismatched_code(present)]
    mism = code_counts[:, mis_codes].sum(1) > 0 if len(mis_codes) else np.zeros(N, bool)
    sig = np.concatenate([has_conf[:, None].astype(np.int64), mism[:, None].astype(np.int64), counts], axis=1)
    ukeys, first, key_of = np.unique(sig, axis=0, return_index=True, return_inverse=True)
    key_of = key_of.ravel()
    K = len(ukeys)
    conf = ukeys[:, 0].astype(bool)
    return S.Keys(fam.name, fam.n, uniq.reshape(F, 7, 7).astype(np.float64), np.full(K, t_form),
                  ukeys[:, 2:], np.where(conf, c_form, -1), conf, ukeys[:, 1].astype(bool), key_of,
                  np.bincount(key_of, minlength=K))


@lru_cache(maxsize=16)
def one_sequence_keys(fam: FM.Family) -> S.Keys:
    """Keys of a family on which every sequence has the same key (F-aff(p): the affine group acts on the
    sequences transitively), from its first sequence only (checked against the full population for small p
    in the tests); the multiplicity is the population size m·n(n−1)(n−2)."""
    seqs = FM.Sequences(fam, np.array([0]), np.array([[0, 1, 2]]), fam.array[[0]][:, [0, 1, 2]])
    small = _keys_of_sequences(fam, seqs)
    N = fam.m * fam.n * (fam.n - 1) * (fam.n - 2)
    return S.Keys(small.name, small.n, small.forms, small.target, small.counts, small.conf_form, small.confusing,
                  small.mismatched, np.zeros(0, dtype=np.int64), np.array([N]))


def _keys_of_sequences(fam: FM.Family, seqs: FM.Sequences) -> S.Keys:
    codes = pattern_codes(fam, seqs.s, seqs.a)
    present = np.unique(codes)
    forms = pattern_forms(fam, seqs, codes, present)
    uniq, form_of = np.unique(forms.reshape(len(present), 49), axis=0, return_inverse=True)
    form_of = form_of.ravel()
    F = len(uniq)
    counts = np.zeros((seqs.N, F), dtype=np.int64)
    for c, f in zip(present, form_of):
        counts[:, f] += (codes == c).sum(1)
    t_form = form_of[np.searchsorted(present, TARGET_CODE)]
    conf = (codes == CONF_CODE).any(1)
    c_form = form_of[np.searchsorted(present, CONF_CODE)] if CONF_CODE in present else -1
    mism = is_mismatched_code(codes).any(1)
    return S.Keys(fam.name, fam.n, uniq.reshape(F, 7, 7).astype(np.float64), np.full(seqs.N, t_form), counts,
                  np.where(conf, c_form, -1), conf, mism, np.arange(seqs.N), np.ones(seqs.N, dtype=np.int64))


# --- families -----------------------------------------------------------------------------------

def f_aff_half(p: int, seed: int) -> FM.Family:
    """F-aff-half(p): a uniformly random half (⌊m/2⌋) of the affine maps x ↦ ax + b over GF(p) (p prime, or
    4, 8: ``families.f_agl``) (Assumption 1 holds: a subset of a sharply 2-transitive set)."""
    full = FM.f_agl(p)
    idx = np.sort(np.random.default_rng([seed, p]).choice(full.m, full.m // 2, replace=False))
    return FM.Family(f"F-aff-half({p}, seed {seed})", p, tuple(full.relations[i] for i in idx))


def family(name: str, n: int, seed: int) -> FM.Family:
    if name == "F-aff":
        return FM.f_aff(n)
    if name == "F-aff-half":
        return f_aff_half(n, seed)
    if name == "F-greedy":
        return FM.f_greedy(n, np.random.default_rng([seed, n]))
    raise ValueError(f"unknown family {name!r}")


def keys_for(name: str, n: int, seed: int) -> S.Keys:
    fam = family(name, n, seed)
    return one_sequence_keys(fam) if name == "F-aff" else population_keys(fam)


# --- Algorithm 1 over a |D| grid ------------------------------------------------------------------

@dataclass(frozen=True)
class Constants:
    """The recorded constants of Algorithm 1 (Theorem 3 / Theorem 1 settings)."""

    T_factor: float  # T = T_factor / log n
    c1: float = 100.0  # η1 = c1 T^{3/2} log(1/T)
    c2: float = 10.0  # η2 = c2 T²
    C2: float = 24.0  # t2 = ⌈(C2/T) log(1/T)⌉
    c_rho: float = 1.0  # ρ = c_ρ T³
    level: float = 0.99  # success: min over sequences of p1(r*) ≥ level
    seed_fraction: float = 0.9  # |D| counts once ≥ this fraction of the seeds succeed

    def T(self, n: int) -> float:
        return self.T_factor / math.log(n)

    def t2(self, n: int) -> int:
        T = self.T(n)
        return int(math.ceil(self.C2 / T * math.log(1.0 / T)))

    def describe(self) -> dict:
        return {"T": f"{self.T_factor:g}/log n", "η1": f"{self.c1:g}·T^1.5·log(1/T)", "η2": f"{self.c2:g}·T²",
                "t1": 1, "t2": f"⌈({self.C2:g}/T)·log(1/T)⌉", "ρ": f"{self.c_rho:g}·T³ (δ fixed)",
                "success": f"min over all sequences of p1(r*) ≥ {self.level} at the end of Stage 2",
                "|D|*": f"smallest |D| on the grid with success in ≥ {self.seed_fraction:.0%} of the seeds"}


def smallest_size(grid: dict, consts: Constants) -> int | None:
    """|D|* = the smallest grid size whose success fraction over seeds is ≥ seed_fraction (None: none)."""
    minp = np.asarray(grid["min p1 per (|D|, seed)"])
    frac = (minp >= consts.level).mean(axis=1)
    ok = np.flatnonzero(frac >= consts.seed_fraction)
    return int(grid["sizes"][ok[0]]) if len(ok) else None


# --- a lean Algorithm 1 for sampled datasets -------------------------------------------------------

def dataset_keys(keys: S.Keys, sizes: Sequence[int], rngs: Sequence[np.random.Generator]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per run: the distinct population keys of its dataset D (padded to a common width with weight 0)
    and their weights (|D| i.i.d. draws from P_IC).  Returns (idx (B, Kd), w (B, Kd))."""
    p = keys.mult / keys.mult.sum()
    draws = [np.unique(rng.choice(keys.K, size=d, p=p), return_counts=True) for d, rng in zip(sizes, rngs)]
    Kd = max(len(u) for u, _ in draws)
    idx = np.zeros((len(draws), Kd), dtype=np.int64)
    w = np.zeros((len(draws), Kd))
    for b, ((u, c), d) in enumerate(zip(draws, sizes)):
        idx[b, :len(u)], w[b, :len(u)] = u, c / d
    return idx, w


def _lse_keys(x: torch.Tensor, logc: torch.Tensor) -> torch.Tensor:
    """log Σ_f c_{k,f} exp(x_f) for x (B, F), log c (B, K, F) → (B, K)."""
    return torch.logsumexp(x[:, None, :] + logc, dim=-1)


def min_logp1(kl: S.KeyLoss, theta: torch.Tensor, T: torch.Tensor, chunk: int = 50_000,
              keys: slice = slice(None)) -> torch.Tensor:
    """min over the population keys ``keys`` (default all) of log p1(r*) at θ (B,), chunked over keys."""
    v, vt = kl.vtilde(theta)
    x = kl.logits(vt) / T[:, None]
    out = torch.full((theta.shape[0],), math.inf, dtype=x.dtype)
    lo_all, hi_all, _ = keys.indices(kl.logc.shape[0])
    for lo in range(lo_all, hi_all, chunk):
        hi = min(lo + chunk, hi_all)
        logc = kl.logc[lo:hi][None]
        out = torch.minimum(out, (x[:, kl.t[lo:hi]] - _lse_keys(x, logc)).min(-1).values)
    return out


def algorithm1_datasets(keys: S.Keys, idx: np.ndarray, w: np.ndarray, T: np.ndarray, e1: np.ndarray,
                        e2: np.ndarray, xi: np.ndarray, steps, groups: Sequence[slice] | None = None,
                        checkpoints: Sequence[int] | None = None, stop_level: float | None = None,
                        stop_after: int = 0) -> dict[str, np.ndarray]:
    """Algorithm 1 (t1 = 1) for B runs, run b trained on its own dataset (population keys idx[b] with
    weights w[b]): θ̃ = −η1 ∇L1(D)(0), θ0 = θ̃ + ξ, ``steps`` GD steps of size η2 on L1(θ; D) (the closed
    form of ``stage2_dynamics.KeyLoss.grad_theta`` with per-run key sets).  Evaluated at the end on every
    population key: min log p1(r*) and the final v.  ``steps``: one budget or one per run; ``groups``: per
    run, the slice of keys that is its population (default: every key).

    ``checkpoints`` (increasing step counts ≤ the budget): also evaluate, at each, the min over the population
    and over the run's own dataset of log p1(r*) (returned as (J, B) arrays, nan where not evaluated).  With
    ``stop_level`` and ``stop_after`` = s > 0, a run is done once its population minimum is ≥ log(stop_level)
    at s consecutive checkpoints, and the batch stops when every run is done (the final values are then those
    of the stopping step)."""
    kl = S.KeyLoss(keys)
    dt = kl.dtype
    with torch.no_grad():
        logc = kl.logc[torch.as_tensor(idx)]  # (B, Kd, F)
        c = kl.c[torch.as_tensor(idx)]
        W = torch.as_tensor(w, dtype=dt)
        Tt = torch.as_tensor(T, dtype=dt)
        onehot = kl.onehot_t[torch.as_tensor(idx)]  # (B, Kd, F): each key's target form
        lr = torch.as_tensor(e2, dtype=dt)[:, None]

        def grad(th: torch.Tensor) -> torch.Tensor:
            v, vt = kl.vtilde(th)
            x = kl.logits(vt) / Tt[:, None]
            lse = _lse_keys(x, logc)
            return kl.grad_from_keys(W, c * torch.exp(x[:, None, :] - lse[..., None]) - onehot, v, vt, Tt[:, None])

        th = torch.zeros(len(T), 6, dtype=dt)
        th = -torch.as_tensor(e1, dtype=dt)[:, None] * grad(th)
        v_tilde = torch.softmax(th, -1)
        th = th + torch.as_tensor(xi, dtype=dt)
        budget = torch.as_tensor(np.broadcast_to(np.asarray(steps), (len(T),)).copy())
        cps = [] if checkpoints is None else [int(c) for c in checkpoints]
        cp_pop = np.full((len(cps), len(T)), np.nan)
        cp_train = np.full((len(cps), len(T)), np.nan)
        streak = np.zeros(len(T), dtype=int)
        j, ran = 0, int(budget.max())

        def evaluate(j: int) -> None:
            cp_pop[j] = (min_logp1(kl, th, Tt) if groups is None else torch.as_tensor(
                [float(min_logp1(kl, th[b:b + 1], Tt[b:b + 1], keys=groups[b])[0]) for b in range(len(T))])).numpy()
            x = kl.logits(kl.vtilde(th)[1]) / Tt[:, None]
            own = x[torch.arange(len(T))[:, None], kl.t[torch.as_tensor(idx)]] - _lse_keys(x, logc)
            cp_train[j] = torch.where(W > 0, own, torch.full_like(own, math.inf)).min(-1).values.numpy()

        for k in range(int(budget.max()) + 1):
            while j < len(cps) and cps[j] == k:
                evaluate(j)
                if stop_level is not None:
                    streak = np.where(cp_pop[j] >= math.log(stop_level), streak + 1, 0)
                j += 1
            if stop_level is not None and stop_after > 0 and bool(np.all(streak >= stop_after)):
                ran = k
                break
            if k == int(budget.max()):
                break
            active = (budget > k).to(dt)[:, None]
            th = th - active * lr * grad(th)
        if groups is None:
            mins = min_logp1(kl, th, Tt).numpy()
        else:
            mins = np.empty(len(T))
            for g in {(s.start, s.stop) for s in groups}:
                rows = [b for b, s in enumerate(groups) if (s.start, s.stop) == g]
                mins[rows] = min_logp1(kl, th[rows], Tt[rows], keys=slice(*g)).numpy()
        out = {"min_logp1": mins, "v_tilde": v_tilde.numpy(), "v_final": torch.softmax(th, -1).numpy()}
        if checkpoints is not None:
            out.update({"checkpoint_steps": np.array(cps), "checkpoint_min_logp1": cp_pop,
                        "checkpoint_min_logp1_train": cp_train, "steps_run": ran})
        return out


# --- several families in one batch ------------------------------------------------------------------

def merge_keys(parts: Sequence[S.Keys]) -> tuple[S.Keys, list[slice]]:
    """One key table for several populations (forms united exactly); slices give each part's keys."""
    allf = np.concatenate([k.forms.reshape(-1, 49) for k in parts])
    forms, inv = np.unique(allf, axis=0, return_inverse=True)
    inv = inv.ravel()
    F = len(forms)
    counts, target, conf, slices, off, foff = [], [], [], [], 0, 0
    for k in parts:
        fmap = inv[foff:foff + len(k.forms)]
        foff += len(k.forms)
        c = np.zeros((k.K, F), dtype=np.int64)
        np.add.at(c, (slice(None), fmap), k.counts)
        counts.append(c)
        target.append(fmap[k.target])
        conf.append(np.where(k.conf_form >= 0, fmap[np.clip(k.conf_form, 0, None)], -1))
        slices.append(slice(off, off + k.K))
        off += k.K
    merged = S.Keys("+".join(k.name for k in parts), max(k.n for k in parts), forms.reshape(F, 7, 7),
                    np.concatenate(target), np.concatenate(counts), np.concatenate(conf),
                    np.concatenate([k.confusing for k in parts]), np.concatenate([k.mismatched for k in parts]),
                    np.zeros(0, dtype=np.int64), np.concatenate([k.mult for k in parts]))
    return merged, slices


def run_grid(parts: Sequence[tuple[str, int]], sizes: Sequence[int], seeds: int, consts: Constants, seed: int,
             fam_seed: int = 0) -> list[dict]:
    """Algorithm 1 for every (family, n) × |D| × seed in one batch (per-run budgets t2(n)); per (family, n)
    the final min over that population of p1(r*) for each (|D|, seed).  One-key families run one |D|."""
    keys = [keys_for(name, n, fam_seed) for name, n in parts]
    merged, slices = merge_keys(keys)
    runs = []  # (part, size, seed)
    for j, (k, (name, n)) in enumerate(zip(keys, parts)):
        for d in ([sizes[0]] if k.K == 1 else sizes):
            runs += [(j, d, s) for s in range(seeds)]
    idx_parts, w_parts = [], []
    for j, d, s in runs:
        i, w = dataset_keys(keys[j], [d], [run_rng(seed, "D", *parts[j], d, s)])
        idx_parts.append(i[0] + slices[j].start)
        w_parts.append(w[0])
    Kd = max(len(i) for i in idx_parts)
    idx = np.stack([np.pad(i, (0, Kd - len(i)), constant_values=i[0]) for i in idx_parts])
    w = np.stack([np.pad(x, (0, Kd - len(x))) for x in w_parts])
    T = np.array([consts.T(parts[j][1]) for j, _, _ in runs])
    steps = np.array([consts.t2(parts[j][1]) for j, _, _ in runs])
    xi = S.perturbations(seed, [("polylog",) + tuple(parts[j]) + (d, s) for j, d, s in runs],
                         S.radius(T, consts.c_rho))
    out = algorithm1_datasets(merged, idx, w, T, S.eta1(T, consts.c1), S.eta2(T, consts.c2), xi, steps,
                              groups=[slices[j] for j, _, _ in runs])
    grids = []
    for j, ((name, n), k) in enumerate(zip(parts, keys)):
        sel = [b for b, r in enumerate(runs) if r[0] == j]
        run_sizes = [sizes[0]] if k.K == 1 else list(sizes)
        minp = np.exp(out["min_logp1"][sel]).reshape(len(run_sizes), seeds)
        if k.K == 1:
            minp = np.repeat(minp, len(sizes), axis=0)
        grids.append({"family": name, "n": n, "T": consts.T(n), "t2": consts.t2(n), "population": k.describe(),
                      "sizes": list(sizes), "min p1 per (|D|, seed)": minp.tolist(),
                      "one key (|D| has no effect)": bool(k.K == 1)})
    return grids


# --- polylog against power: the decision rule -------------------------------------------------------

K_MAX = 8.0  # largest polylog degree accepted as "polylog" (the paper's Lemma 9 bound has degree ≈ 3)
FLAT = 0.25  # β CI upper end ≤ FLAT: no measurable growth on the grid
RMS_RATIO = 2.0  # one law "clearly fits better" when its rms residual is ≥ RMS_RATIO× smaller

POLYLOG_RULE = (
    "Fits: |D|* ≈ C·(log n)^k (slope of log |D|* on log log n) and |D|* ≈ C·n^β (slope on log n), bootstrap 95% "
    "CIs (theoryverify.scaling.fit_power_law), rms residuals r_log, r_pow.  INCONCLUSIVE if some n has no |D|* on "
    "the grid (censored) or fewer than {min_points} points.  HOLDS if the upper end of the β CI is ≤ {flat:g} (no "
    "measurable growth; the claim is an upper bound, and a constant or decreasing |D|* is O(polylog n); a power "
    "slower than n^{flat:g} is not excluded by such a grid), or if r_pow ≥ {ratio:g}·r_log (the log law fits clearly "
    "better) with the k CI inside [0, {kmax:g}].  REFUTED if the β CI excludes 0 (lower end > 0) and "
    "r_log ≥ {ratio:g}·r_pow (a power law fits clearly better: growth like n^β, not polylog).  INCONCLUSIVE "
    "otherwise (the grid cannot tell the two laws apart).")


def polylog_rule(n: Sequence[float], dstar: Sequence[float | None], seed: int, min_points: int = 4,
                 extra: dict | None = None):
    """Decide "|D|* = O(polylog n)" from the smallest sufficient sample sizes by :data:`POLYLOG_RULE`."""
    from theoryverify import scaling
    from theoryverify import holds, inconclusive, refuted

    rule = POLYLOG_RULE.format(min_points=min_points, flat=FLAT, ratio=RMS_RATIO, kmax=K_MAX)
    det = {"n": [float(x) for x in n], "|D|*": [None if d is None else float(d) for d in dstar], "rule": rule,
           **(extra or {})}
    if all(d is not None for d in dstar):  # the grid, for the engine's span rule (|D|* against n)
        det["sweep"] = scaling.sweep_details("n", n, dstar)
    method = "|D|* against n: polylog fit (log |D|* on log log n) vs power fit (log |D|* on log n)"
    if any(d is None for d in dstar):
        bad = [float(x) for x, d in zip(n, dstar) if d is None]
        return inconclusive(method, f"no |D| on the grid meets the criterion at n = {bad} (censored)", **det)
    if len(n) < min_points:
        return inconclusive(method, f"too few n ({len(n)} < {min_points})", **det)
    x, y = np.asarray(n, float), np.asarray(dstar, float)
    flog = scaling.fit_line(np.log(np.log(x)), np.log(y), seed)
    fpow = scaling.fit_power_law(x, y, seed + 1)
    r_log, r_pow = flog.residual_rms, fpow.residual_rms
    det["polylog fit"] = {"degree k": flog.exponent, "ci": list(flog.ci), "rms": r_log, "prefactor": flog.prefactor,
                          "local slopes": list(flog.local_slopes)}
    det["power fit"] = {"beta": fpow.exponent, "ci": list(fpow.ci), "rms": r_pow, "prefactor": fpow.prefactor,
                        "local slopes": list(fpow.local_slopes)}
    summary = (f"k = {flog.exponent:.3g} (CI [{flog.ci[0]:.3g}, {flog.ci[1]:.3g}], rms {r_log:.3g}); "
               f"β = {fpow.exponent:.3g} (CI [{fpow.ci[0]:.3g}, {fpow.ci[1]:.3g}], rms {r_pow:.3g})")
    tiny = 1e-12
    if fpow.ci[1] <= FLAT:
        return holds(method, f"no measurable growth of |D|* over the grid (β ≤ {FLAT:g} at 95%): " + summary, **det)
    log_better = r_pow >= RMS_RATIO * max(r_log, tiny) and r_pow > tiny
    pow_better = r_log >= RMS_RATIO * max(r_pow, tiny) and r_log > tiny
    if log_better and 0 <= flog.ci[0] and flog.ci[1] <= K_MAX:
        return holds(method, "the log law fits clearly better: " + summary, **det)
    if fpow.ci[0] > 0 and pow_better:
        return refuted(method, "power-law growth fits clearly better than any polylog: " + summary,
                       {"n": x.tolist(), "|D|*": y.tolist(), "beta": fpow.exponent, "beta_ci": list(fpow.ci),
                        "k": flog.exponent, "rms_log": r_log, "rms_pow": r_pow}, **det)
    return inconclusive(method, "the grid cannot tell polylog from power growth: " + summary, **det)
