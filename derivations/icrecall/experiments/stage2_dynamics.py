"""Algorithm 1 for general n (App. C, Theorem 3; spec §5 P2/P3), batched over runs in torch float64.

The first-step loss is built from the derived quadratic forms of ``general_n`` (construction of Lemma 3
+ Section 2.1 architecture; never Eq. (18)).  Over a whole population the relation logits take only a few
distinct integer forms A_f (l = ṽᵀA_f ṽ, ṽ = (v, 1)); a sequence Z is then fully described by its target
form t(Z), the count c_{Z,f} of relations with form f, and the form of its confusing relation.  Sequences
with the same (t, c) give the same ℓ1(θ; Z) and are merged into one *key* (exact: the forms are integers):

    ℓ1(θ; Z) = −l_t/T + log Σ_f c_{Z,f} exp(l_f/T),       L1(θ; D) = Σ_keys w_k ℓ1(θ; k),

with w the key weights of the dataset D (its empirical distribution).  Gradients are closed form
(∂ℓ/∂ṽ = (1/T)(Σ_f q_f ∇l_f − ∇l_t), ∇l_f = 2A_f ṽ, ∂/∂θ = v ⊙ (∂/∂v − vᵀ∂/∂v)), cross-checked against
``general_n.Batch.grad_theta`` and torch autograd in tests/icrecall/test_theorem3.py.

Runs (seeds × T × datasets) are a leading batch dimension B; one Python loop over steps advances all of
them.  A purpose-built loop (not ``theoryverify.runner.train``) because each step's logits serve both the
gradient and the per-step hitting-time conditions, which halves the cost of these long (10⁴–10⁵ step) runs.

Stage 1 (t1 = 1 from θ = 0): θ̃ = −η1 ∇_θ L1(D)(0).  Perturbation: ξ uniform in the 13-dim ball B(0, ρ) of
(θ, ω) (Sec. 4, Algorithm 1); its θ-part (first 6 coordinates) is what the first-step loss sees (L1 does
not depend on ω).  Stage 2: plain GD with η2 on L1(θ, D).
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
uniform_ball = _runner.uniform_ball

from ..model import general_n as G
from ..model.rates_general_n import swap_twins


#: Theorem 3's Θ-constants as the CPU claims (claims/s42_theorem3.py) and the GPU sweep (experiments/gpu.py) fix
#: them: η1 = C1·T^{3/2}·log(1/T), η2 = C2_ETA·T², ρ = C_RHO·T³; the Stage-2 targets p(r*)/p(r2) ≥ 10 and p1(r*) ≥ 0.999
C1, C2_ETA, C_RHO = 100.0, 10.0, 1.0
LOG10, LOG999 = math.log(10.0), math.log(0.999)


# --- populations as (form, count) keys --------------------------------------------------------

@dataclass(frozen=True)
class Keys:
    """A population of IC-recall sequences merged into keys (exact)."""

    name: str
    n: int
    forms: np.ndarray  # (F, 7, 7) integer-valued, symmetric
    target: np.ndarray  # (K,) target form index
    counts: np.ndarray  # (K, F) relation counts per form
    conf_form: np.ndarray  # (K,) form of the confusing relation (−1: not confusing)
    confusing: np.ndarray  # (K,) bool
    mismatched: np.ndarray  # (K,) bool
    key_of: np.ndarray  # (S,) key of each population sequence
    mult: np.ndarray  # (K,) number of population sequences per key

    @property
    def K(self) -> int:
        return len(self.target)

    def weights(self, seq_idx: np.ndarray) -> np.ndarray:
        """Key weights of a dataset given as population-sequence indices (with repetition)."""
        return np.bincount(self.key_of[np.asarray(seq_idx)], minlength=self.K) / len(seq_idx)

    def describe(self) -> dict:
        return {"family": self.name, "n": self.n, "forms": int(len(self.forms)), "keys": self.K,
                "population": int(self.mult.sum()),
                "population p_conf": float(self.mult[self.confusing].sum() / self.mult.sum()),
                "population p_mis": float(self.mult[self.mismatched].sum() / self.mult.sum())}


def _rows(a: np.ndarray) -> np.ndarray:
    """Rows of a C-contiguous 2-d array as opaque scalars (fast exact np.unique over rows)."""
    return a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1]))).ravel()


def keys_of(pop: G.Batch, name: str) -> Keys:
    """Merge the population ``pop`` into keys (forms from ``general_n.quadratic_forms``)."""
    S, m = len(pop), pop.vocab.m
    flat = np.ascontiguousarray(np.rint(pop.Q.reshape(S * m, 49)).astype(np.int64))
    _, first_f, inv = np.unique(_rows(flat), return_index=True, return_inverse=True)
    forms = flat[first_f]
    inv = inv.reshape(S, m)
    F = len(forms)
    counts = np.zeros((S, F), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(S), m), inv.ravel()), 1)
    tgt = inv[np.arange(S), pop.target]
    ci = G.confusing_index(pop)
    cf = np.where(ci >= 0, inv[np.arange(S), np.clip(ci, 0, None)], -1)
    sig = np.concatenate([tgt[:, None], cf[:, None], counts], axis=1)
    sig = np.ascontiguousarray(sig)
    _, first, key_of = np.unique(_rows(sig), return_index=True, return_inverse=True)
    uniq = sig[first]
    return Keys(name, pop.vocab.n, forms.reshape(F, 7, 7).astype(np.float64), uniq[:, 0], uniq[:, 2:],
                uniq[:, 1], pop.flag("confusing")[first], pop.flag("mismatched")[first], key_of.ravel(),
                np.bincount(key_of.ravel(), minlength=len(uniq)))


@lru_cache(maxsize=8)
def aff_keys(p: int) -> Keys:
    """F-aff(p), every sequence (the affine group acts transitively, so all sequences fall into one key)."""
    vocab = G.affine_family(p)
    seqs = G.all_sequences(vocab)
    return keys_of(G.Batch.build(vocab, seqs), f"F-aff({p})")


@lru_cache(maxsize=8)
def greedy_keys(n: int, seed: int) -> tuple[Keys, G.Batch]:
    pop = G.greedy_population(n, seed)
    return keys_of(pop, f"F-greedy({n}, seed {seed})"), pop


def fsub_pconf(pop: G.Batch, p_conf: float, size: int, seed: int) -> np.ndarray:
    """F-sub dataset (population indices): ``size`` sequences, a fraction p_conf confusing, closed under the
    swap (s1, a1) ↔ (s2, a2) (so θ̃ has v1 = v3, v2 = v4 exactly, the conclusion Lemma 9's sample size is
    meant to supply)."""
    twin = swap_twins(pop)
    base = np.flatnonzero(np.arange(len(pop)) < twin)
    conf = pop.flag("confusing")[base]
    rnd = np.random.default_rng(seed)
    half = size // 2
    k = int(round(p_conf * half))
    pc, pn = base[conf], base[~conf]
    idx = np.concatenate([rnd.choice(pc, k, replace=k > len(pc)),
                          rnd.choice(pn, half - k, replace=half - k > len(pn))])
    return np.concatenate([idx, twin[idx]])


# --- batched loss, gradient and per-step observables -------------------------------------------

class KeyLoss:
    """L1 and its θ-gradient for B runs at once (torch float64)."""

    def __init__(self, keys: Keys, device: str = "cpu") -> None:
        dt, dev = torch.float64, torch.device(device)
        self.keys = keys
        self.A = torch.tensor(keys.forms, dtype=dt, device=dev)  # (F,7,7)
        c = torch.tensor(keys.counts, dtype=dt, device=dev)
        self.logc = torch.where(c > 0, c.log(), torch.full_like(c, -math.inf))  # (K,F)
        self.c = c
        self.t = torch.tensor(keys.target, device=dev)
        self.onehot_t = torch.nn.functional.one_hot(self.t, len(keys.forms)).to(dt)  # (K,F)
        self.conf = torch.tensor(keys.confusing, device=dev)
        cf = np.where(keys.conf_form >= 0, keys.conf_form, 0)
        self.cf = torch.tensor(cf, device=dev)
        # argmax correctness needs the target form to be unique among the alive relations
        self.t_unique = torch.tensor(keys.counts[np.arange(keys.K), keys.target] == 1, device=dev)
        # loop constants of :func:`algorithm1`, built once here rather than at every step: the alive relations
        # other than the target, per key (K,F)
        self.other_alive = (c - self.onehot_t) > 0
        # the forms laid out for batched matrix products (views and copies of A, no arithmetic): the step loop's
        # contractions run as the bmm/mm calls torch.einsum makes for them, without einsum's per-call parsing and
        # planning (~40-85 µs a call, most of a step's time); the same products, bit for bit
        # (tests/icrecall/test_theorem3.py checks them against the einsum forms); where autograd differentiates
        # the logits, einsum stays, so that derivatives (λ_min of the Hessian) keep einsum's backward arithmetic
        F = self.A.shape[0]
        self._A_cols = self.A.permute(1, 0, 2).reshape(7, F * 7)  # [i, 7f + j] = A[f, i, j]
        self._A_rows_t = self.A.reshape(1, F * 7, 7).transpose(1, 2)  # [0, j, 7f + i] = A[f, i, j]
        self.device, self.dtype = dev, dt

    @staticmethod
    def vtilde(theta: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        v = torch.softmax(theta, dim=-1)
        return v, torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)

    def logits(self, vt: torch.Tensor) -> torch.Tensor:
        """l_f(ṽ) for every form, (B, F)."""
        if torch.is_grad_enabled():  # differentiated (hessian_lmin's torch.func.hessian): einsum's own backward
            return torch.einsum("bi,fij,bj->bf", vt, self.A, vt)
        B, F = vt.shape[0], self.A.shape[0]  # the step loops (no_grad): the same product without einsum's planning
        return torch.bmm((vt @ self._A_cols).reshape(B, F, 7), vt[:, :, None])[..., 0]

    def per_key(self, theta: torch.Tensor, T: torch.Tensor):
        """(v, ṽ, l/T (B,F), lse (B,K), ℓ (B,K))."""
        return self._per_key(theta.to(self.dtype), T.to(self.dtype)[:, None])

    def _per_key(self, theta: torch.Tensor, T_col: torch.Tensor):
        """:meth:`per_key` with θ already in float64 and the temperatures as a (B,1) column (the step loop
        of :func:`algorithm1` converts them once, not at every step; the arithmetic is the same)."""
        v, vt = self.vtilde(theta)
        x = self.logits(vt) / T_col
        lse = torch.logsumexp(x[:, None, :] + self.logc[None], dim=-1)
        ell = lse - x[:, self.t]
        return v, vt, x, lse, ell

    def grad_theta(self, w: torch.Tensor, T: torch.Tensor, v, vt, x, lse) -> torch.Tensor:
        """∇_θ L1(θ; D) from the per-key softmax (closed form)."""
        return self._grad_theta(w, T.to(self.dtype)[:, None], v, vt, x, lse)

    def _grad_theta(self, w: torch.Tensor, T_col: torch.Tensor, v, vt, x, lse) -> torch.Tensor:
        """:meth:`grad_theta` with the temperatures as a (B,1) float64 column."""
        q = self.c[None] * torch.exp(x[:, None, :] - lse[..., None])  # (B,K,F)
        return self.grad_from_keys(w, q - self.onehot_t[None], v, vt, T_col)

    def grad_from_keys(self, w: torch.Tensor, qm: torch.Tensor, v, vt, T_col: torch.Tensor) -> torch.Tensor:
        """∇_θ L1 from the per-key coefficients qm = c·p − onehot(target) (B,K,F) with key weights w (B,K): the
        chain rule through the forms (∇_v l_f = 2·A_f ṽ) and the softmax.  Shared with
        ``sample_size.algorithm1_datasets`` (per-run key sets)."""
        B, F = vt.shape[0], self.A.shape[0]
        coef = torch.bmm(w[:, None, :], qm)[:, 0]  # einsum("bk,bkf->bf"), (B,F)
        gl = 2.0 * torch.bmm(vt[None], self._A_rows_t).reshape(B, F, 7)[..., :6]  # einsum("fij,bj->bfi"), (B,F,6)
        gv = torch.bmm(coef[:, None, :], gl)[:, 0] / T_col  # einsum("bf,bfi->bi")
        return v * (gv - (v * gv).sum(-1, keepdim=True))

    def loss(self, theta: torch.Tensor, w: torch.Tensor, T: torch.Tensor) -> torch.Tensor:
        return (w * self.per_key(theta, T)[-1]).sum(-1)

    def observe(self, x, ell, wconf) -> dict[str, torch.Tensor]:
        """Per-run observables: min over population keys of log p1(r*); min over confusing keys of
        log(p1(r*)/p1(r_conf)); argmax accuracy over the population (sequence-weighted); L1(D_conf)."""
        conf_gap = x[:, self.t] - x[:, self.cf]  # (B,K) log(p(r*)/p(r2))
        big = torch.finfo(x.dtype).max
        # the fill values are scalars (no filled tensor built at every step); the selected values are the same
        min_ratio = torch.where(self.conf[None], conf_gap, big).min(-1).values
        others = torch.where(self.other_alive[None], x[:, None, :], -math.inf)
        correct = (x[:, self.t] > others.max(-1).values) & self.t_unique[None]
        ell_conf = torch.where(self.conf[None], ell, -big).max(-1).values
        return {"min_logp1": (-ell).min(-1).values, "max_ell_conf": ell_conf,
                "min_log_ratio_conf": min_ratio, "correct": correct,
                "L1_conf": (wconf * ell).sum(-1)}


# --- Algorithm 1 ------------------------------------------------------------------------------

def eta1(T, c1):
    """η1 = c1·T^{3/2}·log(1/T) (Theorem 3)."""
    T = np.asarray(T, float)
    return c1 * T**1.5 * np.log(1.0 / T)


def eta2(T, c2):
    """η2 = c2·T² (Theorem 3)."""
    return c2 * np.asarray(T, float) ** 2


def radius(T, c_rho):
    """ρ = c_ρ·T³ (the Θ(T³ log⁻²(1/δ)) radius with δ fixed; c_ρ absorbs log⁻²(1/δ))."""
    return c_rho * np.asarray(T, float) ** 3


def perturbations13(seed: int, labels: Sequence, radii) -> np.ndarray:
    """ξ ~ Uniform(B(0, ρ)) ⊂ R^13 = (θ, ω) for each run (one generator per run label)."""
    return np.stack([uniform_ball(run_rng(seed, "xi", *lab), 13, r) for lab, r in zip(labels, radii)])


def perturbations(seed: int, labels: Sequence, radii) -> np.ndarray:
    """θ-part (first 6 coordinates) of :func:`perturbations13`."""
    return perturbations13(seed, labels, radii)[:, :6]


def step2_path(n: int, T: float, e1: float, e2: float, xi_omega: np.ndarray, steps: int) -> np.ndarray:
    """Second decoding step along Algorithm 1 (Lemma 2, App. D): ω̃ = −η1 ∇_ω ℓ2(0), ω0 = ω̃ + ξ_ω, then
    ``steps`` GD steps on ℓ2 (the same for every sequence, conditioned on r*; derived logits of
    ``rates_general_n``).  Returns log(1 − p_{2,r*}(a3)) at every iterate."""
    from ..model.rates_general_n import step2_grad_omega, step2_log_err

    om = -e1 * step2_grad_omega(n, T) + np.asarray(xi_omega, float)
    out = [step2_log_err(n, T, om)]
    for _ in range(steps):
        om = om - e2 * step2_grad_omega(n, T, om)
        out.append(step2_log_err(n, T, om))
    return np.array(out)


@dataclass
class Stage2Result:
    """Per-run series (record every step) and hitting times."""

    theta_tilde: np.ndarray  # (B,6)
    theta_final: np.ndarray
    g: np.ndarray  # (steps+1, B): (v1 − v3)(v2 − v4)
    L1: np.ndarray  # (steps+1, B) L1(θ; D)
    L1_conf: np.ndarray  # (steps+1, B) L1(θ; D_conf)
    min_logp1: np.ndarray  # (steps+1, B) min over population sequences of log p1(r*)
    min_log_ratio: np.ndarray  # (steps+1, B) min over confusing population sequences of log(p(r*)/p(r2))
    acc: np.ndarray  # (steps+1, B) argmax accuracy over the population
    max_ell_conf: np.ndarray  # (steps+1, B) max over confusing population sequences of ℓ1
    v_tilde: np.ndarray  # (B,6) v after Stage 1
    v_final: np.ndarray  # (B,6)
    steps: np.ndarray  # (B,) step budget of each run

    def hit(self, series: np.ndarray, level: float) -> np.ndarray:
        """First step ≤ the run's budget with series ≥ level (−1 if never)."""
        ok = series >= level
        k = np.arange(series.shape[0])[:, None]
        ok &= k <= self.steps[None, :]
        return np.where(ok.any(0), ok.argmax(0), -1)

    def at_end(self, series: np.ndarray) -> np.ndarray:
        return series[self.steps, np.arange(series.shape[1])]


def algorithm1(keys: Keys, w: np.ndarray, T: np.ndarray, e1: np.ndarray, e2: np.ndarray, xi: np.ndarray,
               steps: np.ndarray, device: str = "cpu", until: tuple[str, float] | None = None,
               extra: int = 0) -> Stage2Result:
    """Algorithm 1 (t1 = 1) for B runs: key weights w (B,K), temperatures T, step sizes e1, e2, θ-part of
    the perturbation xi (B,6), per-run Stage-2 budgets ``steps``.  Records every step.  ``until=(series,
    level)``: stop ``extra`` steps after every run's series has reached level
    (the budgets are then cut to the steps run)."""
    stop_at = -1
    kl = KeyLoss(keys, device)
    dt, dev = kl.dtype, kl.device
    with torch.no_grad():
        W = torch.tensor(w, dtype=dt, device=dev)
        Tt = torch.tensor(T, dtype=dt, device=dev)
        conf = torch.tensor(keys.confusing, device=dev)[None]
        wc = torch.where(conf, W, torch.zeros_like(W))
        wc = wc / wc.sum(-1, keepdim=True).clamp_min(1e-300)
        B = W.shape[0]
        T_col = Tt[:, None]  # loop constants: converted and shaped once, not at every step
        th = torch.zeros(B, 6, dtype=dt, device=dev)
        v, vt, x, lse, ell = kl._per_key(th, T_col)
        th = -torch.tensor(e1, dtype=dt, device=dev)[:, None] * kl._grad_theta(W, T_col, v, vt, x, lse)
        theta_tilde = th.clone()
        th = th + torch.tensor(xi, dtype=dt, device=dev)
        budget = torch.tensor(steps, device=dev)
        lr = torch.tensor(e2, dtype=dt, device=dev)[:, None]
        total = int(np.max(steps))
        rec = {k: [] for k in ("g", "L1", "L1_conf", "min_logp1", "min_log_ratio", "acc", "max_ell_conf")}
        reached = torch.zeros(B, dtype=torch.bool, device=dev)
        pop_w = torch.tensor(keys.mult / keys.mult.sum(), dtype=dt, device=dev)[None]
        for k in range(total + 1):
            v, vt, x, lse, ell = kl._per_key(th, T_col)
            obs = kl.observe(x, ell, wc)
            rec["g"].append((v[:, 0] - v[:, 2]) * (v[:, 1] - v[:, 3]))
            rec["L1"].append((W * ell).sum(-1))
            rec["L1_conf"].append(obs["L1_conf"])
            rec["min_logp1"].append(obs["min_logp1"])
            rec["min_log_ratio"].append(obs["min_log_ratio_conf"])
            rec["acc"].append((obs["correct"].to(dt) * pop_w).sum(-1))
            rec["max_ell_conf"].append(obs["max_ell_conf"])
            if k == total:
                break
            if until is not None:
                reached |= rec[until[0]][-1] >= until[1]
                if stop_at < 0 and bool(reached.all()):
                    stop_at = k + extra
                if 0 <= stop_at <= k:
                    break
            active = (budget > k).to(dt)[:, None]
            th = th - active * lr * kl._grad_theta(W, T_col, v, vt, x, lse)
        out = {k: torch.stack(s).cpu().numpy() for k, s in rec.items()}
        v_t = torch.softmax(theta_tilde, -1).cpu().numpy()
        v_f = torch.softmax(th, -1).cpu().numpy()
    ran = out["g"].shape[0] - 1
    return Stage2Result(theta_tilde.cpu().numpy(), th.cpu().numpy(), out["g"], out["L1"], out["L1_conf"],
                        out["min_logp1"], out["min_log_ratio"], out["acc"], out["max_ell_conf"], v_t, v_f,
                        np.minimum(np.asarray(steps), ran))


# --- derived predictions --------------------------------------------------------------------

def hessian_lmin(keys: Keys, w: np.ndarray, T: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """λ_min(∇²_θ L1(θ; D)) per run (torch.func.hessian of the key loss, float64)."""
    kl = KeyLoss(keys)
    out = []
    for b in range(len(T)):
        Wb = torch.tensor(w[b:b + 1], dtype=torch.float64)
        Tb = torch.tensor([T[b]], dtype=torch.float64)
        H = torch.func.hessian(lambda th: kl.loss(th[None], Wb, Tb)[0])(torch.tensor(theta[b], dtype=torch.float64))
        out.append(float(torch.linalg.eigvalsh(H)[0]))
    return np.array(out)


def growth_prediction(lmin: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """Per-step log-growth of g predicted from λ_min (DERIVATION, spec P3).

    Near θ̃ the confusing loss depends on θ through x = v1 − v3 ≈ v1 a, y = v2 − v4 ≈ v2 b (a = θ1 − θ3,
    b = θ2 − θ4) as ℓ ≈ log 2 − xy/T, so ∇²L1 has the eigenpair λ_min = −2 p_conf v1 v2/T (×4p1p2) along
    s = a + b and +|λ_min| along a − b.  GD multiplies s by (1 + η2|λ_min|) per step and damps a − b, so
    g = xy ≈ v1 v2 s²/4 grows by (1 + η2|λ_min|)² per step: log-rate 2·log(1 + η2|λ_min|)."""
    return 2.0 * np.log1p(e2 * np.abs(lmin))


def closed_form_lmin(v: np.ndarray, p_conf: np.ndarray, T: np.ndarray) -> np.ndarray:
    """λ_min ≈ −2 p_conf v1 v2 / T (two alive relations at p1 = p2 = ½; see :func:`growth_prediction`)."""
    return -2.0 * p_conf * v[:, 0] * v[:, 1] / T


def growth_window(g: np.ndarray, lo_factor: float = 1e3, hi_factor: float = 1e-2):
    """Spec P3 window 10³·|g0| < g < 10⁻²·g_final of one run's g series → (k_start, k_end) or None."""
    g0, gf = abs(g[0]), g[-1]
    ks = np.flatnonzero((g > lo_factor * g0) & (g < hi_factor * gf))
    if len(ks) < 3:
        return None
    return int(ks[0]), int(ks[-1])


def measured_growth(g: np.ndarray) -> tuple[float, tuple[int, int] | None]:
    """Least-squares slope of log g against k in :func:`growth_window` (nan when the window is empty)."""
    win = growth_window(g)
    if win is None:
        return float("nan"), None
    k = np.arange(win[0], win[1] + 1)
    return float(np.polyfit(k, np.log(g[k]), 1)[0]), win
