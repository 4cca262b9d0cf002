"""Alibi relative positional encoding (Eq. 3, §3) under both RC-1 conventions.

The printed form of φ is lost; RC-1 (spec §2.2) reconstructs it:

* ``"causal"`` (default): φ(j; p) = −p(j−1) for distance j ≥ 1, −∞ for j ≤ 0 — a query attends
  only to strictly earlier tokens, with weight π_j(p) = e^{−p(j−1)} / Σ_{j'} e^{−p(j'−1)};
* ``"inclusive"`` (alternative): φ(j; p) = −p·j for j ≥ 0 (the query's own token included).

``R_{t,s} = φ(t−s; p)`` is Toeplitz (it depends on t−s only).  Rows are queries t, columns keys s
(row-wise softmax; the paper's column-wise layout is the transpose).  A query with no admissible key
(t = 1 under the causal convention) gets the zero row: this is the RC-6 convention x̃_1 = 0.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

CONVENTIONS = ("causal", "inclusive")


def _check(convention: str) -> None:
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown RC-1 convention {convention!r}; use one of {CONVENTIONS}")


def distances(n_before: int, convention: str = "causal") -> list[int]:
    """Admissible distances j = t − s for a query with ``n_before`` earlier tokens."""
    _check(convention)
    return list(range(1, n_before + 1)) if convention == "causal" else list(range(0, n_before + 1))


def phi(j, p, convention: str = "causal"):
    """Alibi score φ(j; p) (SymPy), RC-1; −∞ outside the admissible distances."""
    _check(convention)
    if convention == "causal":
        return -p * (j - 1) if j >= 1 else -sp.oo
    return -p * j if j >= 0 else -sp.oo


def weights_sym(n_before: int, p: sp.Expr, convention: str = "causal") -> dict[int, sp.Expr]:
    """Attention weight per distance, π_j(p) = e^{φ(j)} / Σ_{j'} e^{φ(j')} (SymPy)."""
    ds = distances(n_before, convention)
    num = {j: sp.exp(phi(j, p, convention)) for j in ds}
    z = sp.Add(*num.values())
    return {j: num[j] / z for j in ds}


def scores_matrix_sym(T: int, p: sp.Expr, convention: str = "causal") -> sp.Matrix:
    """Full T×T score matrix R_{t,s} = φ(t−s; p) (rows: queries; −∞ = masked). Toeplitz by construction."""
    return sp.Matrix(T, T, lambda t, s: phi(t - s, p, convention))


def weights_np(p, n_before: int, convention: str = "causal") -> np.ndarray:
    """π over admissible distances (last axis, increasing j), vectorised over ``p``; overflow-safe."""
    ds = np.asarray(distances(n_before, convention), dtype=float)
    p = np.asarray(p, dtype=float)[..., None]
    shift = 1.0 if convention == "causal" else 0.0
    a = -p * (ds - shift)
    a = a - a.max(axis=-1, keepdims=True)
    w = np.exp(a)
    return w / w.sum(axis=-1, keepdims=True)


def attention_matrix_np(T: int, p: float, convention: str = "causal") -> np.ndarray:
    """T×T attention matrix A[t, s] = π_{t−s}(p) from the closed-form rows (zero row where nothing is
    admissible, RC-6); vectorised, each row shifted by its largest score (overflow-safe)."""
    _check(convention)
    t = np.arange(T)[:, None]
    s = np.arange(T)[None, :]
    j = (t - s).astype(float)
    ok = j >= 1 if convention == "causal" else j >= 0
    score = np.where(ok, -float(p) * (j - (1.0 if convention == "causal" else 0.0)), -np.inf)
    top = np.max(score, axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(ok, np.exp(score - top), 0.0)
    z = e.sum(1, keepdims=True)
    return np.divide(e, z, out=np.zeros_like(e), where=z > 0)


def masked_softmax_reference(T: int, p, convention: str = "causal"):
    """Direct reference: build R_{t,s} = φ(t−s;p) with −∞ masks and apply torch.softmax row-wise.

    Independent of the closed form above (no per-distance normalisation written by hand)."""
    import torch

    _check(convention)
    p = torch.as_tensor(p, dtype=torch.float64)
    t = torch.arange(T, dtype=torch.float64)
    j = t[:, None] - t[None, :]
    if convention == "causal":
        R = torch.where(j >= 1, -p * (j - 1), torch.tensor(-float("inf"), dtype=torch.float64))
    else:
        R = torch.where(j >= 0, -p * j, torch.tensor(-float("inf"), dtype=torch.float64))
    A = torch.softmax(R, dim=-1)
    return torch.nan_to_num(A, nan=0.0)  # the all-masked row (t = 1, causal) -> zero row (RC-6)


def weights_torch(p, n_before: int, convention: str = "causal"):
    """π over admissible distances as a torch tensor (differentiable in ``p``)."""
    import torch

    ds = torch.as_tensor(distances(n_before, convention), dtype=torch.float64)
    shift = 1.0 if convention == "causal" else 0.0
    p = torch.as_tensor(p, dtype=torch.float64)
    return torch.softmax(-p[..., None] * (ds - shift), dim=-1)


def first_layer_np(X: np.ndarray, p1: float, convention: str = "causal") -> np.ndarray:
    """Eq. (9), RC-6: x̃ = A(p1) x along the last axis (x̃_1 = 0 under the causal convention)."""
    A = attention_matrix_np(X.shape[-1], p1, convention)
    return X @ A.T
