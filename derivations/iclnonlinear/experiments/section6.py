"""The Sec. 6 experiment: data, the "simplified transformer" as described, and the analysed Eq. 6 model
on the same prompts (spec §1.10, §3.9, §4.2 S-repro-theory, §4.3).

Data (Sec. 6): d = 15, K = 4, N = 100, Δ = 3, p uniform, M = 300 prompts, tasks f = (L/c)·cos(c·x) with
c = 0.5 under each reading of :data:`geometry.COS_READINGS`, one fresh task per prompt; tokens exactly
features (x = v_k, Sec. 3.1); query class ~ Categorical(p) independently of the prompt tokens.
App. A polynomial tasks: f(x) = xᵀAx + bᵀx, A_ij, b_i ~ N(0, (L/d)²), continuous inputs x ~ N(0, I_d).

The Sec. 6 network, as printed: "a single block with one-head self-attention and a feedforward network,
incorporating layer normalization and ReLU activation, followed by a linear output layer".  Our reading
(every item is an open choice of spec §1.10, recorded in :data:`NET_CHOICES`):

* input token z_i = (x_i, y_i) ∈ R^{d+1}, query token (x_q, 0) (the columns of P, Eq. 1); a linear
  embedding R^{d+1} → R^{d_e} (with bias), no positional encoding (the prompt is a set);
* one head: q = W_Q e_q, k_i = W_K e_i, v_i = W_V e_i (no biases, Xavier-uniform like
  ``nn.MultiheadAttention``), scores q·k_i/√d_e, softmax over the N prompt keys only (the query does
  not attend to itself — the softmax of Eq. 6), output W_O Σ_i a_i v_i;
* post-LN (Vaswani et al. [1]): h = LN(e_q + attn), o = LN(h + FFN(h)), FFN = Lin(d_e→w)·ReLU·Lin(w→d_e);
  pre-LN as an option: h = e_q + attn(LN e), o = LN_f(h + FFN(LN h));
* linear output ŷ = w_outᵀ o + b_out, read at the query token;
* defaults d_e = 32, w = 4·d_e; PyTorch default inits (Linear: U(±1/√fan_in)), LN γ = 1, β = 0.

Only the query token's path reaches ŷ in a single block (LN and FFN act token-wise), so only the query
row of the attention matrix is computed.  That row *is* the read-out of attention: Attn_{k|j} = Σ_{i:
x_i = v_k} a_i for a prompt with query v_j, averaged over the prompts with query class j (App. A's
Attn_{i,j}: i = key, j = query; each column sums to 1).

All seeds of a run are one batched computation: every weight carries a leading seed axis S, the loss is
the sum over seeds of each seed's mean loss, so gradients (and Adam's element-wise states) are those of
S independent runs.  Epoch = one full-batch step over the M prompts.  Optimizers: Adam (lr 1e-3, torch
defaults) or plain full-batch GD.  float64 throughout; device from ``tv.runner.resolve_device``.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Sequence

import numpy as np
import torch

import theoryverify as tv

from . import dynamics as D
from ..model.geometry import cosine_task, features

DT = torch.float64

PAPER = {"d": 15, "K": 4, "N": 100, "Delta": 3.0, "c": 0.5, "M": 300, "epochs": 400}
FLAT_L = (0.1, 0.2, 0.4)
SHARP_L = (1.0, 1.5, 2.0)
POLY = {"d": 30, "N": 150, "M": 500, "runs": 30}

DATA_CHOICES = {
    "tokens": "exactly features (x = v_k, Sec. 3.1), no token noise",
    "query law": "x_q class ~ Categorical(p) independently of the prompt tokens",
    "task law": "one fresh task per prompt (w, φ resampled per prompt for the 'projection' reading); c = 0.5 fixed",
    "prompt sampling": "token classes ~ Categorical(p) i.i.d.; seed s draws V (general geometry), tasks, prompts",
}

NET_CHOICES = {
    "input": "tokens (x_i, y_i) ∈ R^{d+1}, query (x_q, 0) (Eq. 1 columns); linear embedding with bias, no positions",
    "attention": "one head, no projection biases, Xavier-uniform W_Q/W_K/W_V/W_O, scores /√d_e, softmax over the N "
                 "prompt keys only (query excluded, as in Eq. 6)",
    "LN placement": "post-LN (default) or pre-LN with a final LN (option)",
    "FFN": "Linear(d_e, 4·d_e)·ReLU·Linear(4·d_e, d_e), residual",
    "widths": "d_e = 32, FFN width 128 (default)",
    "init": "PyTorch defaults (Linear U(±1/√fan_in) weights and biases), LN γ = 1, β = 0",
    "output": "linear d_e → 1 at the query token",
    "optimizer": "Adam lr 1e-3 (β = (0.9, 0.999), ε = 1e-8) full batch, or plain full-batch GD (option)",
    "epoch": "one full-batch step over the M = 300 prompts",
    "loss": "MSE (no ½) over the M prompts for training",
    "attention read-out": "query row of the attention matrix, summed over prompt tokens of each feature class "
                          "(Attn_{k|j}: key class k, query class j), averaged over prompts with query class j",
    "seeds": "batched: leading seed axis on every weight, summed per-seed losses (independent Adam states)",
}


# --- data ------------------------------------------------------------------------------------

@dataclass
class Prompts:
    """M prompts of one seed: X (M,N,d), y (M,N), xq (M,d), target (M,), token classes (M,N) and query
    classes (M,) (−1 for continuous inputs), task values on V (M,K) and V (d,K) when tokens are features."""

    X: np.ndarray
    y: np.ndarray
    xq: np.ndarray
    target: np.ndarray
    cls: np.ndarray
    qcls: np.ndarray
    tasks: np.ndarray | None = None
    V: np.ndarray | None = None


def cosine_prompts(L: float, seed: int, *, geometry: str = "scaled_orthogonal", reading: str = "projection",
                   d: int = 15, K: int = 4, N: int = 100, M: int = 300, Delta: float = 3.0, c: float = 0.5,
                   p: Sequence[float] | None = None) -> Prompts:
    """Sec. 6 prompts.  The same seed gives the same V, token classes and task parameters for every L
    (tasks scale exactly with L), so an L sweep differs only in L."""
    rng = np.random.default_rng([seed, 61])
    p = np.full(K, 1.0 / K) if p is None else np.asarray(p, float)
    V = features(geometry, d, K, Delta, rng)
    tasks = np.stack([cosine_task(V, L, c, reading, rng) for _ in range(M)])   # (M,K)
    cls = rng.choice(K, size=(M, N), p=p)
    qcls = rng.choice(K, size=M, p=p)
    X = V.T[cls]
    y = np.take_along_axis(tasks, cls, axis=1)
    return Prompts(X=X, y=y, xq=V.T[qcls], target=tasks[np.arange(M), qcls], cls=cls, qcls=qcls, tasks=tasks, V=V)


def polynomial_prompts(L: float, seed: int, *, d: int = 30, N: int = 150, M: int = 500) -> Prompts:
    """App. A: x ~ N(0, I_d) (continuous inputs, our choice of scale), f(x) = xᵀAx + bᵀx with
    A_ij, b_i ~ N(0, (L/d)²), a fresh (A, b) per prompt.  Same seed → same x, and (A, b) ∝ L."""
    rng = np.random.default_rng([seed, 76])
    X = rng.standard_normal((M, N + 1, d))
    A = rng.standard_normal((M, d, d)) * (L / d)
    b = rng.standard_normal((M, d)) * (L / d)
    f = np.einsum("mnd,mde,mne->mn", X, A, X) + np.einsum("mnd,md->mn", X, b)
    return Prompts(X=X[:, :N], y=f[:, :N], xq=X[:, N], target=f[:, N],
                   cls=np.full((M, N), -1), qcls=np.full(M, -1))


def stack_prompts(ps: Sequence[Prompts], device: str) -> dict[str, torch.Tensor]:
    def t(name):
        return torch.as_tensor(np.stack([getattr(p, name) for p in ps]), dtype=DT, device=device)
    out = {k: t(k) for k in ("X", "y", "xq", "target")}
    out["cls"] = torch.as_tensor(np.stack([p.cls for p in ps]), device=device)
    out["qcls"] = torch.as_tensor(np.stack([p.qcls for p in ps]), device=device)
    return out


# --- the Sec. 6 network -------------------------------------------------------------------------

@dataclass(frozen=True)
class NetConfig:
    d_e: int = 32
    ffn: int = 128
    ln: str = "post"           # "post" | "pre"
    optimizer: str = "adam"    # "adam" | "gd"
    lr: float = 1e-3

    def describe(self) -> dict:
        return asdict(self)


def _uniform(S, shape, bound, g, device):
    return ((torch.rand((S, *shape), generator=g, dtype=DT) * 2 - 1) * bound).to(device)


def init_params(cfg: NetConfig, d: int, S: int, seed: int, device: str) -> dict[str, torch.Tensor]:
    """Weights for S independent networks (leading axis S); PyTorch-default / Xavier inits, seeded."""
    g = torch.Generator().manual_seed(int(seed))
    e, w, din = cfg.d_e, cfg.ffn, d + 1
    xav = math.sqrt(6.0 / (e + e))
    P = {
        "W_in": _uniform(S, (din, e), 1 / math.sqrt(din), g, device), "b_in": _uniform(S, (e,), 1 / math.sqrt(din), g, device),
        "W_q": _uniform(S, (e, e), xav, g, device), "W_k": _uniform(S, (e, e), xav, g, device),
        "W_v": _uniform(S, (e, e), xav, g, device), "W_o": _uniform(S, (e, e), xav, g, device),
        "W_1": _uniform(S, (e, w), 1 / math.sqrt(e), g, device), "b_1": _uniform(S, (w,), 1 / math.sqrt(e), g, device),
        "W_2": _uniform(S, (w, e), 1 / math.sqrt(w), g, device), "b_2": _uniform(S, (e,), 1 / math.sqrt(w), g, device),
        "w_out": _uniform(S, (e,), 1 / math.sqrt(e), g, device), "b_out": _uniform(S, (), 1 / math.sqrt(e), g, device),
    }
    for name in ("ln1", "ln2"):
        P[f"{name}_g"] = torch.ones(S, e, dtype=DT, device=device)
        P[f"{name}_b"] = torch.zeros(S, e, dtype=DT, device=device)
    return {k: v.requires_grad_(True) for k, v in P.items()}


def _ln(x, g, b):
    return torch.nn.functional.layer_norm(x, x.shape[-1:]) * g[:, None, :] + b[:, None, :]


def forward(P: dict, cfg: NetConfig, data: dict) -> tuple[torch.Tensor, torch.Tensor]:
    """ŷ (S,M) and the query row of the attention (S,M,N).  Key/value projections are composed with the
    embedding first (both linear), so the token-level cost is M·N·(d+1)·d_e, not M·N·d_e²."""
    X, y, xq = data["X"], data["y"], data["xq"]                      # (S,M,N,d), (S,M,N), (S,M,d)
    d = X.shape[-1]
    Wx, wy, b = P["W_in"][:, :d, :], P["W_in"][:, d, :], P["b_in"]   # (S,d,e), (S,e), (S,e)
    e_q = torch.einsum("smd,sde->sme", xq, Wx) + b[:, None, :]       # query token (y slot 0)
    if cfg.ln == "pre":
        # LN is not linear: embed every token, then normalise (cost M·N·d_e²)
        E = torch.einsum("smnd,sde->smne", X, Wx) + y[..., None] * wy[:, None, None, :] + b[:, None, None, :]
        E = torch.nn.functional.layer_norm(E, E.shape[-1:]) * P["ln1_g"][:, None, None, :] + P["ln1_b"][:, None, None, :]
        K = torch.einsum("smne,sef->smnf", E, P["W_k"])
        Vv = torch.einsum("smne,sef->smnf", E, P["W_v"])
        qv = torch.einsum("sme,sef->smf", _ln(e_q, P["ln1_g"], P["ln1_b"]), P["W_q"])
    else:
        def proj(W):   # (x, y, 1) ↦ composed projection of the embedding
            return (torch.einsum("smnd,sdf->smnf", X, Wx @ W) + y[..., None] * (wy[:, None, :] @ W)[:, None]
                    + (b[:, None, :] @ W)[:, None])
        K, Vv = proj(P["W_k"]), proj(P["W_v"])
        qv = torch.einsum("sme,sef->smf", e_q, P["W_q"])
    scores = torch.einsum("smf,smnf->smn", qv, K) / math.sqrt(qv.shape[-1])
    a = torch.softmax(scores, dim=-1)                                # over the N prompt keys
    att = torch.einsum("smn,smnf->smf", a, Vv) @ P["W_o"]
    ffn = lambda h: torch.relu(h @ P["W_1"] + P["b_1"][:, None, :]) @ P["W_2"] + P["b_2"][:, None, :]  # noqa: E731
    if cfg.ln == "pre":
        h = e_q + att
        o = h + ffn(_ln(h, P["ln2_g"], P["ln2_b"]))
        o = torch.nn.functional.layer_norm(o, o.shape[-1:])
    else:
        h = _ln(e_q + att, P["ln1_g"], P["ln1_b"])
        o = _ln(h + ffn(h), P["ln2_g"], P["ln2_b"])
    yhat = torch.einsum("sme,se->sm", o, P["w_out"]) + P["b_out"][:, None]
    return yhat, a


# --- read-outs shared by both models -----------------------------------------------------------

def class_losses(err2: torch.Tensor, qcls: torch.Tensor, K: int) -> torch.Tensor:
    """Per query class mean squared error (no ½): (S, K) from err² (S,M) and query classes (S,M)."""
    oh = torch.nn.functional.one_hot(qcls.clamp_min(0), K).to(err2.dtype)      # (S,M,K)
    return (oh * err2[..., None]).sum(1) / oh.sum(1).clamp_min(1)


def attn_map(a: torch.Tensor, cls: torch.Tensor, qcls: torch.Tensor, K: int) -> torch.Tensor:
    """Attn_{i,j} (S,K,K): key class i (rows), query class j (columns), averaged over prompts with query j."""
    key = torch.einsum("smn,smnk->smk", a, torch.nn.functional.one_hot(cls, K).to(a.dtype))   # (S,M,K)
    oh = torch.nn.functional.one_hot(qcls, K).to(a.dtype)                                      # (S,M,K)
    return torch.einsum("smi,smj->sij", key, oh) / oh.sum(1).clamp_min(1)[:, None, :]


@dataclass
class Curves:
    """Per-epoch records (index = epoch 0..T, before that epoch's update): ``mse`` (T+1,S) mean over
    prompts, ``mse_k`` (T+1,S,K) per query class, ``attn`` (T+1,S,K,K) Attn_{key,query} (or None for
    continuous inputs), ``device``."""

    mse: np.ndarray
    mse_k: np.ndarray | None
    attn: np.ndarray | None
    device: str


def train_network(prompts: Sequence[Prompts], epochs: int, cfg: NetConfig = NetConfig(), *, seed: int = 0,
                  device: str = "auto", lr: float | None = None) -> Curves:
    """Train S = len(prompts) independent Sec. 6 networks (one per prompt set), full batch, ``epochs`` steps."""
    dev = tv.runner.resolve_device(device)
    K = int(max(p.cls.max() for p in prompts)) + 1
    discrete = K > 0
    with tv.runner.deterministic(dev, threads=None):
        data = stack_prompts(prompts, dev)
        S, d = data["X"].shape[0], data["X"].shape[-1]
        P = init_params(cfg, d, S, seed, dev)
        lr = cfg.lr if lr is None else lr
        opt = (torch.optim.Adam(P.values(), lr=lr) if cfg.optimizer == "adam"
               else torch.optim.SGD(P.values(), lr=lr))
        mse, mse_k, maps = [], [], []
        for t in range(epochs + 1):
            yhat, a = forward(P, cfg, data)
            err2 = (yhat - data["target"]) ** 2
            per_seed = err2.mean(1)
            with torch.no_grad():
                mse.append(per_seed.detach().cpu())
                if discrete:
                    mse_k.append(class_losses(err2.detach(), data["qcls"], K).cpu())
                    maps.append(attn_map(a.detach(), data["cls"], data["qcls"], K).cpu())
            if t == epochs:
                break
            opt.zero_grad(set_to_none=True)
            per_seed.sum().backward()
            opt.step()
    return Curves(mse=torch.stack(mse).numpy(), mse_k=torch.stack(mse_k).numpy() if discrete else None,
                  attn=torch.stack(maps).numpy() if discrete else None, device=dev)


# --- the analysed model (Eq. 6) on the same prompts ----------------------------------------------

@dataclass
class GivenPrompts(D.Setting):
    """A q-space setting whose prompt sample is the given token-class counts (M,K) instead of a draw."""

    counts: np.ndarray | None = None

    def prompt_sample(self):
        with np.errstate(divide="ignore"):
            return np.log(self.counts / self.counts.sum(1, keepdims=True)), np.full(len(self.counts), 1.0 / len(self.counts))


def theory_setting(pr: Prompts, eta: float, **label) -> GivenPrompts:
    """The Eq. 6 model on exactly these prompts (tasks paired, sampled queries): empirical Eq. 7."""
    K = pr.tasks.shape[1]
    counts = np.stack([np.bincount(c, minlength=K) for c in pr.cls])
    return GivenPrompts(gram=pr.V.T @ pr.V, p=np.full(K, 1.0 / K), eta=eta, N=pr.cls.shape[1], M=len(pr.cls),
                        tasks=pr.tasks, query=pr.qcls, counts=counts, label=dict(label))


def train_theory(prompts: Sequence[Prompts], etas: Sequence[float], steps: int, *, device: str = "auto",
                 record_every: int = 1) -> Curves:
    """GD from Q = 0 (Eq. 8) on the empirical Eq. 7 loss by the q-space simulator, one setting per prompt
    set.  ``mse`` = 2 × Eq. 7 loss (MSE without ½, the network's scale); ``mse_k`` per query class,
    recomputed per prompt from the recorded logit tables (Eq. 10 with the class logits q_{k,·});
    ``attn`` = E[Attn | x_q] as Attn_{key,query}."""
    tr = D.simulate([theory_setting(p, e) for p, e in zip(prompts, etas)], steps, record_every=record_every,
                    keep_tables=True, device=device, desc="Eq.6 q-GD")
    attn = np.swapaxes(tr.tables["attn"], -1, -2)        # tables: (T,B,row=query,key) → (T,B,key,query)
    mse_k = np.stack([class_mse_from_q(p, tr.tables["q"][:, b]) for b, p in enumerate(prompts)], axis=1)
    return Curves(mse=2 * tr.metrics["loss"], mse_k=mse_k, attn=attn, device=tr.settings["device"])


def class_mse_from_q(pr: Prompts, q: np.ndarray) -> np.ndarray:
    """Per query-class MSE (T, K) of the Eq. 6 model with logit tables q (T, K, K) on prompts ``pr``:
    ŷ_m = Σ_j φ_{m,j} e^{q_{k_m,j}} f_{m,j} / Σ_j φ_{m,j} e^{q_{k_m,j}} (Eq. 10), k_m the query class."""
    K = pr.tasks.shape[1]
    counts = np.stack([np.bincount(c, minlength=K) for c in pr.cls]).astype(float)       # (M,K)
    rows = q[:, pr.qcls, :]                                                               # (T,M,K)
    with np.errstate(divide="ignore"):
        z = np.log(counts)[None] + rows
    z -= z.max(-1, keepdims=True)
    w = np.exp(z)
    yhat = (w * pr.tasks[None]).sum(-1) / w.sum(-1)
    err2 = (yhat - pr.target[None]) ** 2                                                  # (T,M)
    oh = np.eye(K)[pr.qcls]                                                               # (M,K)
    return err2 @ oh / np.maximum(oh.sum(0), 1)


def eq6_full_q_gd(pr: Prompts, eta: float, steps: int, device: str = "cpu") -> np.ndarray:
    """Reference: GD on the full d×d Q of Eq. 6 with autograd (½-MSE loss, Eq. 7 empirical); returns the
    final logit table q_{k,k'} = v_{k'}ᵀ Q v_k (K,K) for the cross-check against the q-space simulator."""
    dev = tv.runner.resolve_device(device)
    with tv.runner.deterministic(dev, threads=None):
        X, y, xq, tgt = (torch.as_tensor(a, dtype=DT, device=dev) for a in (pr.X, pr.y, pr.xq, pr.target))
        Q = torch.zeros(X.shape[-1], X.shape[-1], dtype=DT, device=dev, requires_grad=True)
        for _ in range(steps):
            a = torch.softmax(torch.einsum("mnd,md->mn", X, xq @ Q.T), dim=-1)
            loss = 0.5 * (((a * y).sum(-1) - tgt) ** 2).mean()
            (g,) = torch.autograd.grad(loss, Q)
            with torch.no_grad():
                Q -= eta * g
        V = torch.as_tensor(pr.V, dtype=DT, device=dev)
        return (V.T @ Q.detach() @ V).T.cpu().numpy()


def eq6_train_continuous(prompts: Sequence[Prompts], etas: Sequence[float], steps: int,
                         device: str = "auto") -> np.ndarray:
    """Eq. 6 with continuous inputs (App. A polynomial tasks): full-Q GD from 0, batched over prompt
    sets; returns the MSE (no ½) per step (T+1, S)."""
    dev = tv.runner.resolve_device(device)
    with tv.runner.deterministic(dev, threads=None):
        data = stack_prompts(prompts, dev)
        X, y, xq, tgt = data["X"], data["y"], data["xq"], data["target"]
        S, d = X.shape[0], X.shape[-1]
        eta = torch.as_tensor(np.asarray(etas, float), dtype=DT, device=dev)[:, None, None]
        Q = torch.zeros(S, d, d, dtype=DT, device=dev, requires_grad=True)
        out = []
        for t in range(steps + 1):
            u = torch.einsum("sde,sme->smd", Q, xq)                     # Q x_q first: cost M·N·d, not M·N·d²
            a = torch.softmax(torch.einsum("smnd,smd->smn", X, u), dim=-1)
            err2 = ((a * y).sum(-1) - tgt) ** 2
            out.append(err2.mean(1).detach().cpu())
            if t == steps:
                break
            (g,) = torch.autograd.grad(0.5 * err2.mean(1).sum(), Q)
            with torch.no_grad():
                Q -= eta * g
        return torch.stack(out).numpy()
