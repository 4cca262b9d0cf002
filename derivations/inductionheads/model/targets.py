"""Section-4 targets IH_2 (Eq. 4), IH_n (Eq. 6) and GIH_n (Eq. 7), batched torch float64.

Every formula of §4.1–4.2 was lost in extraction; these are the spec's reconstructions (§2.3):

* Eq. (4) (shape recovered, R3; normalisation RC-3):
  ``IH_2(X) = Σ_{s=2}^{L-1} softmax_s( x_L^T W* x_{s-1} ) x_s``.
* Eq. (6) (RECONSTRUCTION): the (n-1)-token current patch ``X_{L-n+2:L}`` is compared with the
  patch ``X_{s-n+1:s-1}`` that precedes x_s, for s = n..L-1:
  ``IH_n(X) = Σ_{s=n}^{L-1} softmax_s( vec(X_{L-n+2:L})^T W* vec(X_{s-n+1:s-1}) ) x_s``,
  ``W* ∈ R^{(n-1)d × (n-1)d}``.  ``vec`` stacks the patch tokens oldest first (position order), so
  at n = 2 the patches are x_L and x_{s-1} and Eq. (6) is Eq. (4).  This is the dimensionally
  consistent reading of the printed Eq. (6) (reviewer item R1 d).
* Eq. (7) (RECONSTRUCTION): as Eq. (6) with the bilinear score replaced by a generic similarity
  ``g(u, v)`` of the two flattened patches.

Conventions: ``X`` has shape (B, L, d); positions are 1-based in docstrings (x_1 … x_L) and
0-based in code (``X[:, s-1]`` is x_s).  Outputs have shape (B, d).  ``normalise="L-1"`` divides the
scores by (L-1) (R3's rendering, the RC-3 alternative); ``"plain"`` is the RC-3 default.
"""
from __future__ import annotations

from typing import Callable

import torch

NORMALISATIONS = ("plain", "L-1")


def _scale(scores: torch.Tensor, L: int, normalise: str) -> torch.Tensor:
    if normalise == "plain":
        return scores
    if normalise == "L-1":
        return scores / (L - 1)
    raise ValueError(f"normalise must be one of {NORMALISATIONS}, got {normalise!r}")


def patches(X: torch.Tensor, n: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(query, keys, values) of Eq. (6) for s = n..L-1 (1-based).

    query: vec(X_{L-n+2:L}), shape (B, (n-1)d); keys: vec(X_{s-n+1:s-1}) for each s, shape
    (B, L-n, (n-1)d); values: x_s, shape (B, L-n, d).  Patches are flattened oldest token first."""
    if X.dim() != 3:
        raise ValueError(f"X must have shape (B, L, d), got {tuple(X.shape)}")
    Bsz, L, d = X.shape
    if n < 2 or L < n + 1:
        raise ValueError(f"need n >= 2 and L >= n + 1 (at least one summand), got n={n}, L={L}")
    query = X[:, L - n + 1:, :].reshape(Bsz, (n - 1) * d)          # x_{L-n+2} .. x_L
    # key for s (1-based, s = n..L-1) covers positions s-n+1..s-1 -> 0-based start s-n .. s-2
    windows = X.unfold(1, n - 1, 1)                                  # (B, L-n+2, d, n-1): start 0..L-n+1
    windows = windows.permute(0, 1, 3, 2).reshape(Bsz, L - n + 2, (n - 1) * d)
    keys = windows[:, : L - n, :]                                    # starts 0..L-n-1 <-> s = n..L-1
    values = X[:, n - 1: L - 1, :]                                   # x_n .. x_{L-1}
    return query, keys, values


def attention_weights(X: torch.Tensor, W: torch.Tensor, n: int = 2, normalise: str = "plain") -> torch.Tensor:
    """Softmax weights over s = n..L-1 (shape (B, L-n)) of Eq. (6) (Eq. (4) at n = 2)."""
    query, keys, _ = patches(X, n)
    scores = torch.einsum("bi,ij,bsj->bs", query, W.to(X.dtype), keys)
    return torch.softmax(_scale(scores, X.shape[1], normalise), dim=-1)


def ihn(X: torch.Tensor, W: torch.Tensor, n: int, normalise: str = "plain") -> torch.Tensor:
    """IH_n(X), Eq. (6) (reconstruction): Σ_{s=n}^{L-1} softmax_s(vec(X_{L-n+2:L})^T W vec(X_{s-n+1:s-1})) x_s."""
    d = X.shape[-1]
    if W.shape != ((n - 1) * d, (n - 1) * d):
        raise ValueError(f"W must be ((n-1)d, (n-1)d) = {((n - 1) * d,) * 2}, got {tuple(W.shape)}")
    _, _, values = patches(X, n)
    return torch.einsum("bs,bsd->bd", attention_weights(X, W, n, normalise), values)


def ih2(X: torch.Tensor, W: torch.Tensor, normalise: str = "plain") -> torch.Tensor:
    """IH_2(X), Eq. (4): Σ_{s=2}^{L-1} softmax_s(x_L^T W* x_{s-1}) x_s (RC-3: ``normalise``)."""
    return ihn(X, W, 2, normalise)


Similarity = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def gihn(X: torch.Tensor, g: Similarity, n: int, normalise: str = "plain") -> torch.Tensor:
    """GIH_n(X), Eq. (7) (reconstruction): Σ_{s=n}^{L-1} softmax_s(g(X_{L-n+2:L}, X_{s-n+1:s-1})) x_s.

    ``g(u, v)`` receives the flattened query patch u of shape (B, 1, (n-1)d) and the key patches
    v of shape (B, L-n, (n-1)d) (broadcastable) and returns scores of shape (B, L-n)."""
    query, keys, values = patches(X, n)
    scores = g(query.unsqueeze(1), keys)
    weights = torch.softmax(_scale(scores, X.shape[1], normalise), dim=-1)
    return torch.einsum("bs,bsd->bd", weights, values)


def bilinear(W: torch.Tensor) -> Similarity:
    """The dot-product similarity g(u, v) = u^T W v of Eq. (6), as a ``gihn`` similarity."""
    return lambda u, v: torch.einsum("bqi,ij,bsj->bs", u, W.to(v.dtype), v)
