"""The one-layer transformer (Eqs. 4–8, 20–21; spec §2.2, RECONSTRUCTED) in torch, float64, batched
over samples, and its per-sample gradients derived by hand from the same definitions.

    α(X) = softmax(Xᵀ Z x_L)            (Eq. 4, Z = W_Kᵀ W_Q; query = last token, no positions)
    attn(X) = X α(X)                    (Eq. 5; no value/output matrix in the prose)
    F_j(X) = κ Σ_{l∈[m]} σ(⟨w_{j,l}, attn(X)⟩)   (Eq. 20 = κ I_d V σ(W h), V = I_d ⊗ 1_mᵀ, Eqs. 6–8)
    p(X) = softmax(F(X)),  ℓ = −log p_y(X)        (Eqs. 21, 9)

Derived gradients (chain rule; checked against autograd in claims/s2_model.py):
    ∂ℓ/∂w_{j,l} = κ (p_j − 1{j = y}) 1{⟨w_{j,l}, h⟩ > 0} h                       (cf. Eq. 22, lost)
    ∂ℓ/∂Z      = Σ_l α_l ⟨x_l − h, g⟩ x_l x_Lᵀ,   g = ∂ℓ/∂h = Σ_{j,l} ∂ℓ/∂w_{j,l}-weights: 
                 g = κ Σ_j (p_j − 1{j = y}) Σ_l 1{⟨w_{j,l}, h⟩ > 0} w_{j,l}      (cf. Eq. 23, lost)
W is stored as (d, m, d): W[j, l] = w_{j,l}.
"""
from __future__ import annotations

import numpy as np
import torch

from .data import PAD, Dataset

DT = torch.float64


def inputs(E: np.ndarray, ds: Dataset) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(X (n, 3, d) token embeddings with zeros at PAD, mask (n, 3), x_L (n, d))."""
    Et = torch.as_tensor(E.T, dtype=DT)
    tok = torch.as_tensor(ds.tokens)
    mask = tok != PAD
    X = Et[tok.clamp_min(0)] * mask[..., None]
    last = mask.sum(1) - 1
    return X, mask, X[torch.arange(len(tok)), last]


def attention(Z: torch.Tensor, X: torch.Tensor, mask: torch.Tensor, xL: torch.Tensor) -> torch.Tensor:
    """α (n, 3): softmax over the present tokens of x_lᵀ Z x_L (Eq. 4)."""
    scores = torch.einsum("nld,de,ne->nl", X, Z, xL)
    return torch.softmax(scores.masked_fill(~mask, -torch.inf), dim=1)


def forward(Z, W, X, mask, xL, kappa: float) -> dict[str, torch.Tensor]:
    """α, h = attn(X), pre-activations ⟨w_{j,l}, h⟩ (n, d, m) and F (n, d) (Eqs. 4–8, 20)."""
    a = attention(Z, X, mask, xL)
    h = torch.einsum("nl,nld->nd", a, X)
    pre = torch.einsum("jmd,nd->njm", W, h)
    F = kappa * torch.relu(pre).sum(-1)
    return {"alpha": a, "h": h, "pre": pre, "F": F}


def loss(Z, W, X, mask, xL, targets, weights, kappa: float) -> torch.Tensor:
    """Eq. 9: the weighted mean of −log p_y (weights 1 unless rare facts are reweighted)."""
    F = forward(Z, W, X, mask, xL, kappa)["F"]
    nll = -torch.log_softmax(F, dim=1)[torch.arange(len(targets)), targets]
    return (weights * nll).sum() / weights.sum()


def per_sample_grads(Z, W, X, mask, xL, targets, kappa: float) -> tuple[torch.Tensor, torch.Tensor]:
    """The derived per-sample gradients (∂ℓ/∂W (n, d, m, d), ∂ℓ/∂Z (n, d, d)) — module docstring."""
    out = forward(Z, W, X, mask, xL, kappa)
    p = torch.softmax(out["F"], dim=1)
    err = p.clone()
    err[torch.arange(len(targets)), targets] -= 1.0                  # p_j − 1{j = y}
    act = (out["pre"] > 0).to(DT)                                     # 1{⟨w_{j,l}, h⟩ > 0}
    gW = kappa * torch.einsum("nj,njm,nd->njmd", err, act, out["h"])
    g = kappa * torch.einsum("nj,njm,jmd->nd", err, act, W)           # ∂ℓ/∂h
    a = out["alpha"]
    coef = a * torch.einsum("nld,nd->nl", X - out["h"][:, None, :], g)  # α_l ⟨x_l − h, g⟩
    gZ = torch.einsum("nl,nld,ne->nde", coef, X, xL)
    return gW, gZ


def init(d: int, m: int, sigma0: float, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Every entry of Z and W i.i.d. N(0, σ_0²) (Sec. 4)."""
    Z = torch.as_tensor(sigma0 * rng.standard_normal((d, d)), dtype=DT)
    W = torch.as_tensor(sigma0 * rng.standard_normal((d, m, d)), dtype=DT)
    return Z, W
