"""The Thm 4.1 construction (App. A.1), rebuilt from the prose, and its derived sup-error bound.

Reconstruction (spec §2.3; the A.1 displays are lost):

* Embedding: x_s ↦ h_s^0 = (x_s, 0) ∈ R^{2d}.
* Layer 1 (with residual): single head, no DP (W_K^T W_Q = 0), Alibi RPE with slope p (RC-1
  strictly causal: distance j ≥ 1 gets score -p(j-1)), value W_V = [[0, 0], [I, 0]] writes the
  attended token into the second d-block:  h_s^1 = (x_s, x̃_s),  x̃_s = Σ_{j=1}^{s-1} π_j^{(s)}(p) x_{s-j},
  π_j^{(s)} = e^{-p(j-1)} / Σ_{j'=1}^{s-1} e^{-p(j'-1)}; position 1 has no key, x̃_1 = 0 (RC-6).
  Under the RC-1 alternative (inclusive, score -p j for j ≥ 0) x̃_s averages x_s, x_{s-1}, … and
  the limit p → ∞ selects x_s itself.
* Layer 2 (no residual, no RPE): query = first block of h_L, key = second block of h_s (x̃_s),
  DP matrix W*, value = first block (x_s); keys s = 2..L-1 (RC-20, ``LAYER2_KEYS``: position 1,
  whose layer-1 row is empty, and the query position L are masked).  Output: first block of the last
  token,  TF(X) = Σ_{s=2}^{L-1} softmax_s(x_L^T W* x̃_s) x_s.

Derived bound (DERIVATION TASK of IH-T41-rate), tokens in the ℓ2 ball ‖x_s‖_2 ≤ B:

1. 1 - π_1^{(s)} = (S-1)/S with S = Σ_{k=0}^{s-2} e^{-pk} < 1/(1-e^{-p}), so 1 - π_1^{(s)} < e^{-p}
   for every s (uniform in s and L).
2. x̃_s - x_{s-1} = -(1-π_1) x_{s-1} + Σ_{j≥2} π_j x_{s-j}, so ‖x̃_s - x_{s-1}‖_2 ≤ 2(1-π_1)B < 2Be^{-p}.
3. Scores: |x_L^T W*(x̃_s - x_{s-1})| ≤ ‖W*‖_2 · B · 2Be^{-p}.
4. Lemma D.1 (Edelman et al. 2022, Cor. A.7): ‖softmax(a) - softmax(b)‖_1 ≤ 2‖a - b‖_∞.
5. ‖IH_2(X) - TF(X)‖_q ≤ ‖Δsoftmax‖_1 max_s ‖x_s‖_q ≤ ‖Δsoftmax‖_1 · B for q ∈ {2, ∞}.

   ⇒  |||IH_2 - TF|||_{L,q} ≤ 4 ‖W*‖_2 B³ e^{-p}   (ℓ2 token ball, q = 2 or ∞; independent of L, d).

With the ℓ∞ token ball ‖x_s‖_∞ ≤ B: ‖x_s‖_2 ≤ √d B in steps 2–3 gives 4‖W*‖_2 d B³ e^{-p} (q = ∞) and
4‖W*‖_2 d^{3/2} B³ e^{-p} (q = 2).  Decay rate in p: d log(bound)/dp = -1.
"""
from __future__ import annotations

import math

import torch

LAYER2_KEYS = {
    "2..L-1": "layer-2 keys s = 2..L-1 (position 1 and the query position masked)",
    "1..L-1": "layer-2 keys s = 1..L-1 (position 1 kept with x~_1 = 0: the plain strictly causal mask, RC-20's "
              "alternative)",
    "1..L": "layer-2 keys s = 1..L (the causal mask with the diagonal: the query's own position kept too)",
}
CONVENTIONS = ("causal", "inclusive")


def alibi_scores(L: int, p: float | torch.Tensor, convention: str = "causal") -> torch.Tensor:
    """(L, L) additive scores R[t, s] = φ(t-s; p) of Eq. (3) under RC-1 (rows = queries)."""
    t = torch.arange(L).unsqueeze(1)
    s = torch.arange(L).unsqueeze(0)
    j = (t - s).to(torch.float64)
    p = torch.as_tensor(p, dtype=torch.float64)
    if convention == "causal":
        return torch.where(j >= 1, -p * (j - 1), torch.tensor(-math.inf, dtype=torch.float64))
    if convention == "inclusive":
        return torch.where(j >= 0, -p * j, torch.tensor(-math.inf, dtype=torch.float64))
    raise ValueError(f"convention must be one of {CONVENTIONS}")


def alibi_attention(L: int, p: float | torch.Tensor, convention: str = "causal") -> torch.Tensor:
    """Row-stochastic (L, L) attention of layer 1 (rows with no visible key are zero: x̃_1 = 0)."""
    R = alibi_scores(L, p, convention)
    A = torch.softmax(R, dim=-1)
    return torch.nan_to_num(A, nan=0.0)


def _kernel_length(p: float, L: int) -> int:
    """Distances j ≤ K carry all the Alibi weight to float64 resolution: e^{-p(K-1)} < 1e-18 (K ≤ L)."""
    if p <= 0:
        return L
    return min(L, int(math.ceil(41.5 / p)) + 2)


def layer1(X: torch.Tensor, p: float | torch.Tensor, convention: str = "causal") -> torch.Tensor:
    """h^1 = h^0 + SA^1(h^0) with h^0 = (x, 0): returns (B, L, 2d) = (x_s, x̃_s).

    For the causal convention with a float slope and a long sequence the attention row is applied as a
    banded causal convolution over the K distances that carry weight above 1e-18 (relative), with the
    same truncated normaliser; otherwise the dense (L, L) attention matrix is used."""
    L = X.shape[1]
    K = _kernel_length(float(p), L) if (convention == "causal" and not torch.is_tensor(p)) else L
    if K >= L or L <= 64:
        tilde = torch.einsum("ts,bsd->btd", alibi_attention(L, p, convention), X)
        return torch.cat([X, tilde], dim=-1)
    Bsz, _, d = X.shape
    w = torch.exp(-float(p) * torch.arange(K, dtype=torch.float64))          # w_j, j = 1..K
    kernel = w.flip(0).view(1, 1, K)                                          # weight[k] = w_{K-k}
    seq = X.permute(0, 2, 1).reshape(Bsz * d, 1, L)
    num = torch.nn.functional.conv1d(torch.nn.functional.pad(seq, (K, 0)), kernel)[..., :L]
    counts = torch.clamp(torch.arange(L), max=K)                              # available distances
    den = torch.cumsum(torch.cat([torch.zeros(1, dtype=torch.float64), w]), 0)[counts]
    tilde = torch.where(den > 0, num / torch.where(den > 0, den, torch.ones_like(den)), torch.zeros_like(num))
    tilde = tilde.reshape(Bsz, d, L).permute(0, 2, 1)
    return torch.cat([X, tilde], dim=-1)


def layer2(H: torch.Tensor, W: torch.Tensor, keys: str = "2..L-1") -> torch.Tensor:
    """Last output token of layer 2 (no residual): Σ_s softmax_s(x_L^T W x̃_s) x_s, shape (B, d)."""
    d = H.shape[-1] // 2
    L = H.shape[1]
    first, second = H[..., :d], H[..., d:]
    lo, hi = {"2..L-1": (1, L - 1), "1..L-1": (0, L - 1), "1..L": (0, L)}[keys]
    query = first[:, L - 1, :]
    scores = torch.einsum("bi,ij,bsj->bs", query, W.to(H.dtype), second[:, lo: hi, :])
    return torch.einsum("bs,bsd->bd", torch.softmax(scores, dim=-1), first[:, lo: hi, :])


def tf41(X: torch.Tensor, W: torch.Tensor, p: float | torch.Tensor, convention: str = "causal",
         keys: str = "2..L-1") -> torch.Tensor:
    """TF(X)_{-1} of the Thm 4.1 construction, shape (B, d)."""
    return layer2(layer1(X, p, convention), W, keys)


def tf41_bias(X: torch.Tensor, W: torch.Tensor, p: float, lam: float, keys: str = "1..L-1") -> torch.Tensor:
    """The Thm 4.1 construction WITHOUT RC-20's key mask: every token is embedded with a constant coordinate,
    h_s^0 = (x_s, 1, 0, 0) ∈ R^{2(d+1)}; layer 1 (unchanged: Alibi slope p, value into the second block) carries it to
    c̃_s = Σ_j π_j^{(s)} · 1 = 1 for s ≥ 2 and 0 at position 1 (no earlier token); layer 2 is one DP head with
    W_aug = diag(W*, λ) between the query's first block (x_L, 1) and the key's second block (x̃_s, c̃_s), value x_s,
    over the plain strictly causal key range (``keys``).  Position 1 scores 0 while every other key gets + λ, so its
    weight is ≤ e^{‖W*‖B² − λ}: RC-20's mask is the λ → ∞ limit of this construction.  Derived bound (ℓ2 tokens):
    4‖W*‖_2 B³ e^{−p} + 2B e^{‖W*‖_2 B² − λ} (:func:`derived_bound_bias`)."""
    Bsz, L, d = X.shape
    Xa = torch.cat([X, torch.ones(Bsz, L, 1, dtype=X.dtype)], dim=-1)
    H = layer1(Xa, p)                                     # (B, L, 2(d+1)) = (x_s, 1, x̃_s, c̃_s)
    first, second = H[..., : d + 1], H[..., d + 1:]
    Wa = torch.zeros(d + 1, d + 1, dtype=X.dtype)
    Wa[:d, :d] = W.to(X.dtype)
    Wa[d, d] = lam
    lo, hi = {"1..L-1": (0, L - 1), "1..L": (0, L), "2..L-1": (1, L - 1)}[keys]
    scores = torch.einsum("bi,ij,bsj->bs", first[:, L - 1, :], Wa, second[:, lo: hi, :])
    return torch.einsum("bs,bsd->bd", torch.softmax(scores, dim=-1), first[:, lo: hi, :d])


def derived_bound_bias(W: torch.Tensor, p: float, lam: float, B: float = 1.0) -> float:
    """4‖W*‖_2 B³ e^{−p} (the masked construction, :func:`derived_bound`) + 2B e^{‖W*‖_2 B² − λ} (the weight the
    unmasked position 1 can keep, times ‖x_1 − output‖ ≤ 2B)."""
    spec = float(torch.linalg.matrix_norm(W.to(torch.float64), ord=2))
    return derived_bound(W, p, B) + 2.0 * B * math.exp(spec * B * B - lam)


def derived_bound(W: torch.Tensor, p: float, B: float = 1.0, token_norm: str = "2",
                  out_norm: str = "inf", *, constant: float = 4.0, rate: float = 1.0) -> float:
    """The derived bound C‖W*‖_2 B³ κ e^{-rate·p} (C = 4, rate = 1; κ = 1 for ℓ2 tokens, d or d^{3/2}
    for ℓ∞ tokens).  ``constant``/``rate`` exist only so tests can plant a wrong bound."""
    spec = float(torch.linalg.matrix_norm(W.to(torch.float64), ord=2))
    d = W.shape[0]
    if token_norm == "2":
        kappa = 1.0
    elif token_norm == "inf":
        kappa = d if out_norm == "inf" else d ** 1.5
    else:
        raise ValueError("token_norm must be '2' or 'inf'")
    return constant * spec * B**3 * kappa * math.exp(-rate * p)


def one_minus_pi1(s: int, p: float) -> float:
    """1 - π_1^{(s)}(p): the mass layer 1 puts off the previous token at position s (step 1)."""
    if s < 2:
        return 1.0
    S = sum(math.exp(-p * k) for k in range(s - 1))
    return (S - 1.0) / S


def alternating_starts(k: int, L: int, d: int, B: float, gen: torch.Generator) -> torch.Tensor:
    """Structured adversarial starts: alternating-sign sequences x_{s} = ±B u (the step-2 worst case
    ‖x̃_s - x_{s-1}‖ = 2(1-π_1)B) with random directions and random sign flips."""
    u = torch.randn(k, 1, d, generator=gen, dtype=torch.float64)
    u = u / u.norm(dim=-1, keepdim=True)
    signs = torch.tensor([(-1.0) ** i for i in range(L)], dtype=torch.float64).view(1, L, 1)
    flips = torch.where(torch.rand(k, L, 1, generator=gen) < 0.3, -1.0, 1.0).to(torch.float64)
    noise = 0.1 * torch.randn(k, L, d, generator=gen, dtype=torch.float64)
    return B * (u * signs * flips + noise)
