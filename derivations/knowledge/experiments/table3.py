"""App. A, Table 3: next-token prediction on the 3-token 'subject–relation–answer' data, four one-layer
architectures (spec §2.11; sizes and most learning rates lost → choices below, recorded by ``CHOICES``).

Data (App. A, RECOVERED-SEED + RECONSTRUCTED): N pairs (s_i, a_i); pair i gets K distinct phrases R_i ⊂ 𝓡
(uniform, without replacement).  PT samples: ([s_i] → r) for r ∈ R_i and ([s_i, r] → a_i) (|D| = 2NK), so the
optimum is H = log K / 2 (entropy.H_table3).  FT: for each i, ⌊K/2⌋ of its tuples become Q&A samples
([s_i, r, f] → a_i) (f a format token never seen in PT; the printed FT form is lost); the other tuples, in the
same form, are the test set (OOD accuracy).  All token embeddings are fixed Gaussian N(0, I/d).

Architectures (one layer, no positional encoding, prediction read at the last position):
  * standard: h = x + Attn(LN x) (W_Q, W_K, W_V, W_O, one head), h = h + MLP(LN h) (d → 4d → d, GELU),
    logits = U·LN(h)  — AdamW (weight decay 0.1, full batch) in PT, Adam in FT;
  * uniform: the same with attention weights fixed to 1/L;
  * attention-only: the standard model without the MLP;
  * simplified (ours, Eqs. 4–8/20): α = softmax(Xᵀ Z x_L), h = Xα, F_j = κ Σ_l σ(⟨w_{j,l}, h⟩) with one block of
    m neurons per vocabulary token (d < |V| here, so the output coordinates are tokens, not embedding
    coordinates) and κ = √d (the RMSNorm reading of Eq. 8; with κ = 1 GD at lr 0.5 is still at L − H ≈ 0.6
    after 3000 steps at N = 20, d = 32, with κ = √d it reaches ≈ 0.02 in 1000) — GD with lr 0.5 in PT
    (RECOVERED-SEED), GD on W in FT.
Every run reports the OOD accuracy before FT too: with the test prompts [s_i, r, f] the relation token r is in
the prompt, so part of the "extraction" may already be present before FT (recorded, not hidden).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

from .. import printed
from ..model import transformer as M

DT = torch.float64
PAD = -1


@dataclass(frozen=True)
class Config:
    N: int = 100          # pairs (lost; spec: N ≈ 100)
    K: int = 5            # phrases per pair (Table 3's optimum 0.8047 = log 5 / 2)
    R: int = 20           # |𝓡| (lost)
    d: int = 128          # embedding dimension (spec: d ≈ 128)
    pt_steps: int = 2000  # AdamW PT steps ("until convergence")
    gd_steps: int = 3000  # GD PT steps of the simplified model
    ft_steps: int = 300   # best FT iteration reported (App. J.1 practice)
    lr_adamw: float = 3e-3  # lost
    wd: float = 0.1       # RECOVERED-SEED
    lr_adam_ft: float = 1e-3  # lost
    lr_gd: float = 0.5    # RECOVERED-SEED (simplified model, PT)
    lr_gd_ft: float = 0.5  # lost
    m: int = 8            # simplified model: neurons per output token (lost)
    kappa: float | None = None  # simplified model: scale (lost); None = √d ("mimics RMSNorm … norm √d", Eq. 8)
    sigma0: float = 0.02  # simplified model init
    context_norm: float = 0.0  # > 0: the 5-token variant (App. A, last paragraph): a context token c of this norm
                               # is prepended to every prompt (Sec. 3 data without EOS)

    @property
    def scale(self) -> float:
        return math.sqrt(self.d) if self.kappa is None else self.kappa

    def record(self) -> dict:
        return {k: str(v) for k, v in asdict(self).items()} | {"κ used": f"{self.scale:.4g}"}


QUICK = Config(N=10, K=5, R=8, d=16, pt_steps=200, gd_steps=800, ft_steps=30, lr_adamw=1e-2, lr_adam_ft=1e-2)
ARCHS = ("standard", "uniform", "attention-only", "simplified")
#: Extra reading of 'uniform attention + MLP': the simplified model with Z frozen at 0 (α uniform), GD lr 0.5.
UNIFORM_SIMPLIFIED = "uniform-simplified"
#: Table 3 as printed (App. A): training loss (optimum 0.8047), OOD accuracy (transcribed in printed/__init__.py).
PRINTED = printed.TABLE3


@dataclass
class Data:
    E: torch.Tensor                 # (|V|, d) fixed Gaussian embeddings
    pt: tuple[torch.Tensor, torch.Tensor]
    ft: tuple[torch.Tensor, torch.Tensor]
    test: tuple[torch.Tensor, torch.Tensor]
    V: int


def make_data(cfg: Config, seed: int) -> Data:
    """Tokens: subjects 0..N−1, answers N..2N−1, relations 2N..2N+|𝓡|−1, format f = 2N+|𝓡|, context c = f + 1
    (used only when ``cfg.context_norm > 0``: then every prompt starts with c)."""
    rng = np.random.default_rng(seed)
    N, K, R = cfg.N, cfg.K, cfg.R
    s, a, r, f, c = (lambda i: i), (lambda i: N + i), (lambda j: 2 * N + j), 2 * N + R, 2 * N + R + 1
    pre = [c] if cfg.context_norm > 0 else []
    V = 2 * N + R + 1 + len(pre)
    L = len(pre) + 3
    row = lambda *t: (pre + list(t) + [PAD] * L)[:L]  # noqa: E731
    pt, ft, te = [], [], []
    for i in range(N):
        Ri = rng.choice(R, size=K, replace=False)
        for k, j in enumerate(Ri):
            pt += [(row(s(i)), r(j)), (row(s(i), r(j)), a(i))]
            (ft if k < K // 2 else te).append((row(s(i), r(j), f), a(i)))
    E = torch.as_tensor(rng.standard_normal((V, cfg.d)) / math.sqrt(cfg.d), dtype=DT)
    if cfg.context_norm > 0:
        E[c] *= cfg.context_norm / E[c].norm()
    pack = lambda rows: (torch.as_tensor([x for x, _ in rows]), torch.as_tensor([y for _, y in rows]))  # noqa: E731
    return Data(E, pack(pt), pack(ft), pack(te), V)


def H(cfg: Config) -> float:
    """The optimum of the PT loss: half the samples have K equally likely targets (entropy.H_table3)."""
    return math.log(cfg.K) / 2


def embed(E: torch.Tensor, tok: torch.Tensor):
    mask = tok != PAD
    X = E[tok.clamp_min(0)] * mask[..., None]
    last = mask.sum(1) - 1
    return X, mask, last


class Standard(nn.Module):
    """One pre-LN transformer layer (single head), optional MLP, optional uniform attention."""

    def __init__(self, d: int, V: int, uniform: bool = False, mlp: bool = True):
        super().__init__()
        self.uniform, self.d = uniform, d
        self.ln1, self.ln2, self.lnf = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) if mlp else None
        self.head = nn.Linear(d, V)

    def forward(self, E, tok):
        X, mask, last = embed(E, tok)
        n = torch.arange(len(tok))
        xL = X[n, last]
        Y = self.ln1(X)
        if self.uniform:
            att = mask.to(X.dtype) / mask.sum(1, keepdim=True)
        else:
            sc = torch.einsum("nld,nd->nl", self.k(Y), self.q(Y[n, last])) / math.sqrt(self.d)
            att = torch.softmax(sc.masked_fill(~mask, -torch.inf), 1)
        h = xL + self.o(torch.einsum("nl,nld->nd", att, self.v(Y)))
        if self.mlp is not None:
            h = h + self.mlp(self.ln2(h))
        return self.head(self.lnf(h))


class Simplified(nn.Module):
    """Eqs. 4–8/20 on Gaussian embeddings: Z (d × d), W (|V|, m, d); F_j = κ Σ_l relu(⟨w_{j,l}, Xα⟩)."""

    def __init__(self, d: int, V: int, m: int, kappa: float, sigma0: float, seed: int):
        super().__init__()
        g = np.random.default_rng(seed)
        self.Z = nn.Parameter(torch.as_tensor(sigma0 * g.standard_normal((d, d)), dtype=DT))
        self.W = nn.Parameter(torch.as_tensor(sigma0 * g.standard_normal((V, m, d)), dtype=DT))
        self.kappa = kappa

    def forward(self, E, tok):
        X, mask, last = embed(E, tok)
        xL = X[torch.arange(len(tok)), last]
        return M.forward(self.Z, self.W, X, mask, xL, self.kappa)["F"]


def build(arch: str, cfg: Config, V: int, seed: int) -> nn.Module:
    torch.manual_seed(seed)
    if arch in ("simplified", UNIFORM_SIMPLIFIED):
        net = Simplified(cfg.d, V, cfg.m, cfg.scale, cfg.sigma0, seed)
        if arch == UNIFORM_SIMPLIFIED:
            net.Z.requires_grad_(False).zero_()
        return net
    net = Standard(cfg.d, V, uniform=arch == "uniform", mlp=arch != "attention-only")
    return net.to(DT)


def ce(net, E, batch) -> torch.Tensor:
    tok, y = batch
    return nn.functional.cross_entropy(net(E, tok), y)


def accuracy(net, E, batch) -> float:
    with torch.no_grad():
        tok, y = batch
        return float((net(E, tok).argmax(1) == y).to(DT).mean())


def pretrain(net, arch: str, cfg: Config, data: Data) -> list[float]:
    gd = arch in ("simplified", UNIFORM_SIMPLIFIED)
    params = [p for p in net.parameters() if p.requires_grad]
    opt = (torch.optim.SGD(params, lr=cfg.lr_gd) if gd else
           torch.optim.AdamW(params, lr=cfg.lr_adamw, weight_decay=cfg.wd))
    losses = []
    for _ in range(cfg.gd_steps if gd else cfg.pt_steps):
        opt.zero_grad()
        L = ce(net, data.E, data.pt)
        L.backward()
        opt.step()
        losses.append(float(L.detach()))
    losses.append(float(ce(net, data.E, data.pt).detach()))
    return losses


def finetune(net, arch: str, cfg: Config, data: Data) -> list[float]:
    """OOD accuracy on the held-out tuples after each FT step (index 0 = before FT)."""
    gd = arch in ("simplified", UNIFORM_SIMPLIFIED)
    params = [net.W] if gd else list(net.parameters())
    opt = (torch.optim.SGD(params, lr=cfg.lr_gd_ft) if gd else
           torch.optim.Adam(params, lr=cfg.lr_adam_ft))
    acc = [accuracy(net, data.E, data.test)]
    for _ in range(cfg.ft_steps):
        opt.zero_grad()
        ce(net, data.E, data.ft).backward()
        opt.step()
        acc.append(accuracy(net, data.E, data.test))
    return acc


def run(arch: str, cfg: Config, seed: int) -> dict:
    """One row of Table 3: final PT loss, its gap to H, OOD accuracy (best FT step, and final)."""
    data = make_data(cfg, seed)
    net = build(arch, cfg, data.V, seed)
    losses = pretrain(net, arch, cfg, data)
    ans = (data.pt[0] >= 0).sum(1) == (data.pt[0] >= 0).sum(1).max()
    pt_acc = accuracy(net, data.E, (data.pt[0][ans], data.pt[1][ans]))
    acc = finetune(net, arch, cfg, data)
    after = acc[1:] or acc                    # the best iterate *after* FT (step ≥ 1), as in App. J.1's protocol
    return {"arch": arch, "seed": seed, "loss": losses[-1], "min_loss": min(losses), "H": H(cfg),
            "gap": losses[-1] - H(cfg), "answer_acc_pt": pt_acc, "ood_best": max(after), "ood_best_incl0": max(acc),
            "ood_pre_ft": acc[0], "ood_final": acc[-1], "best_ft_step": 1 + int(np.argmax(after)) if acc[1:] else 0,
            "log_V": math.log(data.V),
            "loss_curve": losses[:: max(1, len(losses) // 50)]}
