"""App. A, Table 3's "Attention-only" row read in the authors' favour: the attention-only architectures that App. A
does not specify, on the same 3-token data as experiments/table3.py (whose ``run`` and cached sweeps this module
leaves untouched: it only imports its data, loss and accuracy helpers).

App. A states the optimisers for the other three rows only — "We pre-train the transformers ('standard' and
'Uniform attention + MLP') with AdamW optimizer with learning rate [lost], weight decay parameter 0.1, and full
batch … We pre-train the simplified transformer with the GD optimizer with a learning rate of 0.5" — and prints
"Attention-only | 5.5875 (0.8047) | -", with 5.5875 ≈ log 267: a uniform guess over the vocabulary (no learning).
experiments/table3.py's "attention-only" is the standard pre-LN layer (residual, untied linear head, AdamW) without
its MLP.  The readings here:

  * ``simplified-no-mlp`` — the paper's simplified model (Eqs. 4–8) with its MLP removed: α = softmax(Xᵀ Z x_L),
    h = Xα (Eq. 5, no value matrix), logits read through the embeddings, F_v = κ⟨x_v, h⟩ (Eq. 8 with the MLP
    replaced by the identity: the output coordinate of token v is its embedding direction), κ = √d as for the
    simplified model (Config.scale); Z ∈ R^{d×d} the only trainable parameter, GD with lr 0.5 (as App. A trains
    the simplified model), FT by GD on Z.  h lies in the span of the prompt's embeddings, so the model cannot put
    mass on a token absent from its prompt (every target here is absent): it fails by construction.
  * ``simplified-no-mlp-k1`` — the same with κ = 1 (the scale's value and direction are lost; κ = 1 makes the
    logits ≈ 0 off the prompt, i.e. the loss ≈ log |V|, the printed 5.5875's form).
  * ``no-residual`` — the standard attention-only layer without the residual connection:
    h = W_O·Attn(W_V·LN X), logits = U·LN(h), untied U; AdamW as the standard model.
  * ``tied-head`` — the standard attention-only layer (residual) read out through the fixed embeddings:
    logits = E·LN(h) (no trainable head); AdamW.
  * ``no-residual-tied`` — both changes.
"""
from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from . import table3 as T3

GD_ARCHS = ("simplified-no-mlp", "simplified-no-mlp-k1")
ADAMW_ARCHS = ("no-residual", "tied-head", "no-residual-tied")
ARCHS = GD_ARCHS + ADAMW_ARCHS
#: the printed Table 3 row (App. A) and the vocabulary size whose uniform guess it equals
PRINTED_LOSS = 5.5875


class SimplifiedNoMLP(nn.Module):
    """Eqs. 4–5 with Eq. 8's readout and no MLP: F_v = κ⟨x_v, X softmax(Xᵀ Z x_L)⟩ for every token v."""

    def __init__(self, d: int, kappa: float, sigma0: float, seed: int):
        super().__init__()
        g = np.random.default_rng(seed)
        self.Z = nn.Parameter(torch.as_tensor(sigma0 * g.standard_normal((d, d)), dtype=T3.DT))
        self.kappa = kappa

    def forward(self, E, tok):
        X, mask, last = T3.embed(E, tok)
        xL = X[torch.arange(len(tok)), last]
        sc = torch.einsum("nld,de,ne->nl", X, self.Z, xL)
        att = torch.softmax(sc.masked_fill(~mask, -torch.inf), 1)
        h = torch.einsum("nl,nld->nd", att, X)
        return self.kappa * h @ E.T


class AttnOnly(nn.Module):
    """One pre-LN attention layer (single head, W_Q, W_K, W_V, W_O), no MLP; residual and untied head optional."""

    def __init__(self, d: int, V: int, residual: bool, tied: bool):
        super().__init__()
        self.d, self.residual, self.tied = d, residual, tied
        self.ln1, self.lnf = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.head = None if tied else nn.Linear(d, V)

    def forward(self, E, tok):
        X, mask, last = T3.embed(E, tok)
        n = torch.arange(len(tok))
        Y = self.ln1(X)
        sc = torch.einsum("nld,nd->nl", self.k(Y), self.q(Y[n, last])) / math.sqrt(self.d)
        att = torch.softmax(sc.masked_fill(~mask, -torch.inf), 1)
        h = self.o(torch.einsum("nl,nld->nd", att, self.v(Y)))
        if self.residual:
            h = X[n, last] + h
        h = self.lnf(h)
        return h @ E.T if self.tied else self.head(h)


def build(arch: str, cfg: T3.Config, V: int, seed: int) -> nn.Module:
    torch.manual_seed(seed)
    if arch in GD_ARCHS:
        return SimplifiedNoMLP(cfg.d, cfg.scale if arch == "simplified-no-mlp" else 1.0, cfg.sigma0, seed)
    if arch not in ADAMW_ARCHS:
        raise ValueError(f"unknown attention-only reading {arch!r}")
    return AttnOnly(cfg.d, V, residual=not arch.startswith("no-residual"), tied=arch.endswith("tied")
                    or arch == "tied-head").to(T3.DT)


def _optimiser(arch: str, cfg: T3.Config, params, ft: bool):
    if arch in GD_ARCHS:
        return torch.optim.SGD(params, lr=cfg.lr_gd_ft if ft else cfg.lr_gd)
    return (torch.optim.Adam(params, lr=cfg.lr_adam_ft) if ft else
            torch.optim.AdamW(params, lr=cfg.lr_adamw, weight_decay=cfg.wd))


def run(arch: str, cfg: T3.Config, seed: int) -> dict:
    """One attention-only reading on Table 3's data: final PT loss, its gap to H and to log |V|, OOD accuracy after FT
    (best step ≥ 1) — the same fields as table3.run."""
    data = T3.make_data(cfg, seed)
    net = build(arch, cfg, data.V, seed)
    params = [p for p in net.parameters() if p.requires_grad]
    opt = _optimiser(arch, cfg, params, ft=False)
    losses = []
    for _ in range(cfg.gd_steps if arch in GD_ARCHS else cfg.pt_steps):
        opt.zero_grad()
        L = T3.ce(net, data.E, data.pt)
        L.backward()
        opt.step()
        losses.append(float(L.detach()))
    losses.append(float(T3.ce(net, data.E, data.pt).detach()))
    ans = (data.pt[0] >= 0).sum(1) == (data.pt[0] >= 0).sum(1).max()
    pt_acc = T3.accuracy(net, data.E, (data.pt[0][ans], data.pt[1][ans]))
    opt = _optimiser(arch, cfg, params, ft=True)
    acc = [T3.accuracy(net, data.E, data.test)]
    for _ in range(cfg.ft_steps):
        opt.zero_grad()
        T3.ce(net, data.E, data.ft).backward()
        opt.step()
        acc.append(T3.accuracy(net, data.E, data.test))
    after = acc[1:] or acc
    H = T3.H(cfg)
    return {"arch": arch, "seed": seed, "loss": losses[-1], "min_loss": min(losses), "H": H, "gap": losses[-1] - H,
            "log_V": math.log(data.V), "gap_to_log_V": losses[-1] - math.log(data.V), "answer_acc_pt": pt_acc,
            "ood_best": max(after), "ood_pre_ft": acc[0], "ood_final": acc[-1],
            "loss_curve": losses[:: max(1, len(losses) // 50)]}
