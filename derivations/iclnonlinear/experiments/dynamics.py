"""Batched gradient descent on the logit table q — the q-space simulator (Eq. 8, Sec. 5.1; spec §4.2).

Tokens are exactly features (Sec. 3.1), so the logit of key i for query v_k is x_iᵀ Q v_k = q_{k,c_i}
and the loss depends on Q only through q_{k,k'} = v_{k'}ᵀ Q v_k (row k = query, column k' = key).
Because q is linear in Q, one GD step on Q (Eq. 8) moves q by exactly

    q ← q + η g,    g = G H G,    H = −∂L/∂q,    G = VᵀV                     (App. C; gradients.py)

(for orthogonal features of norm r, g = r⁴ H).  ``tests/iclnonlinear/test_dynamics.py`` checks this
update against GD on Q with autograd of the token-level torch model (torch_model.py).

The expectation over prompts.  Given the query class k, the N prompt tokens enter only through their
class fractions φ = n/N:  Attn_j = φ_j e^{q_{k,j}} / Σ_i φ_i e^{q_{k,i}}.  A *setting* gives a weighted
sample of fraction vectors: exact enumeration of the multinomial counts (small N), M Monte-Carlo
draws, or N → ∞ (φ = p).  Tasks enter only through E[f fᵀ] (f independent of the tokens):

    L = ½ Σ_k Σ_m W_{k,m} uᵀ S_m u,   u = e_k − Attn,                          (Eq. 7)
    H_{k,j} = −∂L/∂q_{k,j} = Σ_m W_{k,m} Attn_j (w_j − Attn·w),   w = S_m u,

with S_m = σ² I + μ² 11ᵀ for i.i.d. task values (the mean drops out: 1ᵀu = 0) or S_m = f_m f_mᵀ for
tasks paired with the prompt sample m (the empirical loss of spec §1.5).  W_{k,m} = P(x_q = v_k) ×
(weight of sample m), or 1{query of sample m is k}/M when queries are sampled too.

Symmetric mode (p uniform, S = σ² I, G = r² I): the query rows are exchangeable and decouple, so one row
(query v_1) is simulated and stands for all; the loss is then ℓ_1 = Σ_k p_k ℓ_k in expectation.

Everything is float64 on CPU (float64 on CUDA too unless asked); many settings run as one batch.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
import torch

import sys

import theoryverify as tv
from tqdm import tqdm

from ..model.counts import counts_array, log_multinomial

#: Per-step metrics, all of shape (B,).  "rows" = the simulated query rows k; E[·|k] = E[· | x_q = v_k].
METRICS = {
    "loss": "L(P;Q) (Eq. 7)",
    "abar": "Ā = mean_k E[Attn_k | x_q = v_k] (spec §3.0)",
    "attn_diag_min": "min_k E[Attn_k | x_q = v_k]",
    "attn_off_mean": "mean over k, n ≠ k of E[Attn_n | x_q = v_k]",
    "attn_off_max": "max over k, n ≠ k of E[Attn_n | x_q = v_k]",
    "qdiag": "q̄_k = mean_k q_k",
    "qdiag_min": "min_k q_k",
    "qoff_mean": "mean of the off-diagonal q_{k,k'}",
    "qoff_maxabs": "max |q_{k,k'}|, k' ≠ k",
    "gdiag": "mean_k g_k",
    "gdiag_min": "min_k g_k",
    "gdiag_max": "max_k g_k",
    "goff_maxabs": "max_{k, k' ≠ k} |g_{k,k'}|",
}


# --- one setting ---------------------------------------------------------------------------

@dataclass
class Setting:
    """One configuration.  ``gram`` = VᵀV (K×K); ``p`` token law (also the query law);
    ``N``: prompt length (None: N → ∞); ``M``: Monte-Carlo prompt samples (``exact=True``: enumerate
    all count vectors instead); tasks: ``sigma2`` (i.i.d. values, E f fᵀ = σ² I + μ² 11ᵀ) or ``tasks``
    (M×K values paired with the prompt samples); ``query`` (M,) sampled query classes (empirical loss)
    or None (exact average over x_q ~ p); ``symmetric``: simulate query row 1 only (see module doc)."""

    gram: np.ndarray
    p: np.ndarray
    eta: float
    N: int | None = None
    M: int = 1
    exact: bool = False
    sigma2: float | None = None
    tasks: np.ndarray | None = None
    query: np.ndarray | None = None
    symmetric: bool = False
    seed: int = 0
    label: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.gram = np.asarray(self.gram, dtype=float)
        self.p = np.asarray(self.p, dtype=float)
        K = len(self.p)
        if self.gram.shape != (K, K):
            raise ValueError(f"gram must be {K}×{K}, got {self.gram.shape}")
        if (self.sigma2 is None) == (self.tasks is None):
            raise ValueError("give exactly one of sigma2 (i.i.d. tasks) or tasks (paired values)")
        if not self.eta > 0:
            raise ValueError("eta must be > 0")
        if self.symmetric:
            r2 = self.gram[0, 0]
            if not (np.allclose(self.p, 1 / K) and self.sigma2 is not None and self.query is None
                    and np.allclose(self.gram, r2 * np.eye(K))):
                raise ValueError("symmetric mode needs uniform p, sigma2 tasks, exact queries and G = r² I")

    @property
    def K(self) -> int:
        return len(self.p)

    @property
    def rows(self) -> tuple[int, ...]:
        return (0,) if self.symmetric else tuple(range(self.K))

    def prompt_sample(self) -> tuple[np.ndarray, np.ndarray]:
        """(log φ (M'×K), sample weights (M',)) — enumeration, Monte Carlo or N → ∞."""
        with np.errstate(divide="ignore"):
            if self.N is None:
                return np.log(self.p)[None, :], np.ones(1)
            if self.exact:
                n = counts_array(self.N, self.K)
                return np.log(n / self.N), np.exp(log_multinomial(n, self.p))
            rng = np.random.default_rng(self.seed)
            n = rng.multinomial(self.N, self.p, size=self.M)
            return np.log(n / self.N), np.full(self.M, 1.0 / self.M)

    def row_weights(self, sample_w: np.ndarray) -> np.ndarray:
        """W_{k,m} for the simulated rows (R×M')."""
        if self.query is None:
            return self.p[list(self.rows), None] * sample_w[None, :]
        q = np.asarray(self.query)
        return np.stack([(q == k) * sample_w for k in self.rows])


def gram(V: np.ndarray) -> np.ndarray:
    return V.T @ V


def delta_min(N: int, K: int) -> float:
    """δ_min = √(20K/N), the smallest admissible imbalance of Eq. 9."""
    return math.sqrt(20 * K / N)


# --- a batch of settings ---------------------------------------------------------------------

@dataclass
class Batch:
    """Settings stacked along B (same K, number of samples and row mode)."""

    gram: torch.Tensor          # (B, K, K)
    log_phi: torch.Tensor       # (B, M, K)
    weight: torch.Tensor        # (B, R, M)
    sigma2: torch.Tensor | None  # (B,)
    tasks: torch.Tensor | None   # (B, M, K)
    eta: torch.Tensor           # (B,)
    rows: tuple[int, ...]
    K: int

    @property
    def B(self) -> int:
        return self.gram.shape[0]


def stack(settings: Sequence[Setting], device: str = "cpu", dtype=torch.float64) -> Batch:
    if not settings:
        raise ValueError("no settings")
    K, rows = settings[0].K, settings[0].rows
    samples = [s.prompt_sample() for s in settings]
    if any(s.K != K or s.rows != rows for s in settings) or len({lp.shape[0] for lp, _ in samples}) != 1:
        raise ValueError("a batch needs the same K, row mode and number of prompt samples")
    iid = settings[0].sigma2 is not None
    if any((s.sigma2 is not None) != iid for s in settings):
        raise ValueError("a batch cannot mix i.i.d. and paired tasks")

    def t(x):
        return torch.as_tensor(np.asarray(x), dtype=dtype, device=device)
    return Batch(
        gram=t([s.gram for s in settings]),
        log_phi=t([lp for lp, _ in samples]),
        weight=t([s.row_weights(w) for s, (_, w) in zip(settings, samples)]),
        sigma2=t([s.sigma2 for s in settings]) if iid else None,
        tasks=None if iid else t([s.tasks for s in settings]),
        eta=t([s.eta for s in settings]), rows=rows, K=K)


# --- one evaluation: loss, attention, H, g ---------------------------------------------------

def evaluate(q: torch.Tensor, b: Batch) -> dict[str, torch.Tensor]:
    """Loss (B,), E[Attn | row] (B,R,K), H and g on the simulated rows (B,R,K) at logit table q (B,K,K)."""
    rows = list(b.rows)
    qr = q[:, rows, :]                                              # (B,R,K)
    A = torch.softmax(b.log_phi[:, None, :, :] + qr[:, :, None, :], dim=-1)   # (B,R,M,K)
    W = b.weight[..., None]                                         # (B,R,M,1)
    scale = b.K / len(rows)
    idx = torch.as_tensor(rows, device=q.device)[None, :, None, None].expand(A.shape[0], -1, A.shape[2], 1)
    Ak = A.gather(-1, idx)                                          # Attn of the query's own class
    if b.sigma2 is not None:                                        # w = σ² u, u = e_k − A
        s2 = b.sigma2[:, None, None, None]
        AA = (A * A).sum(-1, keepdim=True)
        Au = Ak - AA                                                # A·u
        H = s2[..., 0] * (W * A * (-A - Au)).sum(2)                 # A_j (u_j − A·u), j ≠ k part
        H.scatter_add_(-1, idx[:, :, 0, :], s2[..., 0] * (W * A.gather(-1, idx)).sum(2))
        loss = 0.5 * scale * (b.sigma2[:, None, None] * W[..., 0] * (1 - 2 * Ak[..., 0] + AA[..., 0])).sum((1, 2))
    else:
        e = torch.zeros(len(rows), b.K, dtype=q.dtype, device=q.device)
        e[range(len(rows)), rows] = 1.0
        u = e[None, :, None, :] - A
        F = b.tasks[:, None, :, :]                                  # (B,1,M,K)
        w = F * (F * u).sum(-1, keepdim=True)
        Aw = (A * w).sum(-1, keepdim=True)
        H = (W * A * (w - Aw)).sum(2)                               # (B,R,K)
        loss = 0.5 * scale * (W[..., 0] * (u * w).sum(-1)).sum((1, 2))
    attn = (W * A).sum(2) / W.sum(2).clamp_min(1e-300)             # E[Attn | x_q = v_k]
    if len(rows) == b.K:
        g = b.gram @ H @ b.gram
    else:                                                           # G = r² I (symmetric mode)
        r2 = b.gram[:, 0, 0]
        g = (r2 * r2)[:, None, None] * H
    return {"loss": loss, "attn": attn, "H": H, "g": g}


def _metrics(q: torch.Tensor, ev: Mapping[str, torch.Tensor], b: Batch) -> dict[str, torch.Tensor]:
    rows = list(b.rows)
    R = len(rows)
    diag = torch.zeros(R, b.K, dtype=torch.bool, device=q.device)
    diag[range(R), rows] = True
    off = ~diag
    qr, A, g = q[:, rows, :], ev["attn"], ev["g"]
    qd, Ad, gd = qr[:, diag], A[:, diag], g[:, diag]                # (B,R)
    qo, Ao, go = qr[:, off], A[:, off], g[:, off]                   # (B,R·(K−1))
    return {
        "loss": ev["loss"], "abar": Ad.mean(1), "attn_diag_min": Ad.min(1).values,
        "attn_off_mean": Ao.mean(1), "attn_off_max": Ao.max(1).values,
        "qdiag": qd.mean(1), "qdiag_min": qd.min(1).values,
        "qoff_mean": qo.mean(1), "qoff_maxabs": qo.abs().max(1).values,
        "gdiag": gd.mean(1), "gdiag_min": gd.min(1).values, "gdiag_max": gd.max(1).values,
        "goff_maxabs": go.abs().max(1).values,
    }


# --- the GD loop -----------------------------------------------------------------------------

@dataclass
class Trajectory:
    """``t`` (n_records,), ``metrics[name]`` (n_records, B), ``hits[event]`` (B,) first step at which
    the event held (−1 = never within the run), optional ``tables`` (q, attn, g per record), the final
    q (B,K,K) and the run settings (device, dtype, determinism, torch version)."""

    t: np.ndarray
    metrics: dict[str, np.ndarray]
    hits: dict[str, np.ndarray]
    tables: dict[str, np.ndarray]
    q: np.ndarray
    steps_run: int
    settings: dict[str, Any]

    def at(self, name: str, steps: np.ndarray) -> np.ndarray:
        """metrics[name] at per-run steps (B,) — the record at or just before each step."""
        idx = np.clip(np.searchsorted(self.t, steps, side="right") - 1, 0, len(self.t) - 1)
        return self.metrics[name][idx, np.arange(len(idx))]


Event = tuple[str, str, Any]   # (metric, ">=" | "<=", level: scalar or (B,))


def simulate(settings: Sequence[Setting], steps: int, *, record_every: int = 1,
             events: Mapping[str, Event] | None = None, stop_when_hit: bool = False,
             keep_tables: bool = False, device: str = "auto", dtype: str | None = None,
             q0: np.ndarray | None = None, desc: str = "q-GD") -> Trajectory:
    """Run GD from q = 0 (Eq. 8: Q⁽⁰⁾ = 0) for every setting at once, ``steps`` updates.

    Metrics (:data:`METRICS`) are recorded at t = 0, record_every, … and at the last step; events are
    tested at every step (exact hitting times).  With ``stop_when_hit`` the run ends once every
    setting has hit every event."""
    dev = tv.runner.resolve_device(device)
    dt = tv.runner.resolve_dtype(dev, dtype)
    events = dict(events or {})
    for name, (metric, op, _) in events.items():
        if metric not in METRICS or op not in (">=", "<="):
            raise ValueError(f"event {name!r}: unknown metric {metric!r} or op {op!r}")
    with tv.runner.deterministic(dev, threads=None), torch.no_grad():   # threads: set by the engine per claim
        b = stack(settings, dev, dt)
        B = b.B
        q = (torch.zeros(B, b.K, b.K, dtype=dt, device=dev) if q0 is None
             else torch.as_tensor(q0, dtype=dt, device=dev).clone())
        levels = {n: torch.as_tensor(lv, dtype=dt, device=dev).expand(B) for n, (_, _, lv) in events.items()}
        hits = {n: torch.full((B,), -1, dtype=torch.int64, device=dev) for n in events}
        rec_t: list[int] = []
        rec: dict[str, list[torch.Tensor]] = {m: [] for m in METRICS}
        tabs: dict[str, list[torch.Tensor]] = {"q": [], "attn": [], "g": []}
        bar = tqdm(None, total=steps, desc=desc, unit="step", mininterval=1.0, disable=not sys.stderr.isatty(),
                   file=sys.stderr, leave=False)
        k = 0
        while True:
            ev = evaluate(q, b)
            m = _metrics(q, ev, b)
            for name, (metric, op, _) in events.items():
                ok = m[metric] >= levels[name] if op == ">=" else m[metric] <= levels[name]
                hits[name] = torch.where((hits[name] < 0) & ok, torch.full_like(hits[name], k), hits[name])
            done = stop_when_hit and events and all(bool((h >= 0).all()) for h in hits.values())
            if k % record_every == 0 or k == steps or done:
                rec_t.append(k)
                for name in METRICS:
                    rec[name].append(m[name].clone())
                if keep_tables:
                    tabs["q"].append(q.clone())
                    tabs["attn"].append(ev["attn"].clone())
                    tabs["g"].append(ev["g"].clone())
            if k == steps or done:
                break
            q = q + b.eta[:, None, None] * _full(ev["g"], b, q)
            k += 1
            if k % 1000 == 0:
                bar.update(1000)
        bar.close()
        return Trajectory(
            t=np.asarray(rec_t), metrics={n: torch.stack(v).cpu().numpy() for n, v in rec.items()},
            hits={n: h.cpu().numpy() for n, h in hits.items()},
            tables={n: torch.stack(v).cpu().numpy() for n, v in tabs.items() if v},
            q=q.cpu().numpy(), steps_run=k, settings=tv.runner.settings(dev, dt))


def _full(g_rows: torch.Tensor, b: Batch, q: torch.Tensor) -> torch.Tensor:
    """The update on the stored table: g itself, or (symmetric mode) g on query row 1 only — the
    other rows are permutations of row 1 and are not stored (they stay 0 in ``Trajectory.q``)."""
    if len(b.rows) == b.K:
        return g_rows
    full = torch.zeros_like(q)
    full[:, list(b.rows), :] = g_rows
    return full


# --- convenience ------------------------------------------------------------------------------

def symmetric_setting(K: int, eta: float, *, N: int | None = None, M: int = 1, r: float = 1.0,
                      sigma2: float = 1.0, seed: int = 0, **label) -> Setting:
    """Orthogonal features of norm r, p uniform, i.i.d. tasks of variance σ² (spec claim 25's
    setting), simulated on one query row."""
    return Setting(gram=r * r * np.eye(K), p=np.full(K, 1.0 / K), eta=eta, N=N, M=M, sigma2=sigma2,
                   symmetric=True, seed=seed, label=dict(label))


