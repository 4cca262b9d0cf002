"""Vectorised numpy evaluation of the population quantities by count enumeration (any N).

The same formulas as ``model.py`` (Attn_m = n_m e^{q_{c,m}} / Σ_j n_j e^{q_{c,j}}, the token-level
softmax summed per class), evaluated in float64 for N too large for SymPy.  Agreement with the SymPy
model is a test (tests/iclnonlinear) and part of claim ``iclnonlinear.lemma3-attn``.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.special import gammaln, logsumexp



@lru_cache(maxsize=64)
def counts_array(N: int, K: int) -> np.ndarray:
    """Every count vector (rows), the same set as ``model.count_vectors`` (numpy grid for speed)."""
    if K == 1:
        return np.array([[N]], dtype=float)
    grids = np.meshgrid(*[np.arange(N + 1)] * (K - 1), indexing="ij")
    head = np.stack([g.ravel() for g in grids], axis=1)
    head = head[head.sum(axis=1) <= N]
    return np.column_stack([head, N - head.sum(axis=1)]).astype(float)


def log_multinomial(n: np.ndarray, p: np.ndarray) -> np.ndarray:
    N = n.sum(axis=1)
    with np.errstate(divide="ignore"):
        logp = np.log(p)
    terms = np.where(n > 0, n * logp, 0.0)
    return gammaln(N + 1) - gammaln(n + 1).sum(axis=1) + terms.sum(axis=1)


def attn(n: np.ndarray, q_row: np.ndarray) -> np.ndarray:
    """Attn_m for each count vector (rows of n) and one query row of q."""
    with np.errstate(divide="ignore"):
        logw = np.log(n) + q_row[None, :]
    return np.exp(logw - logsumexp(logw, axis=1, keepdims=True))


def per_query(q: np.ndarray, p: np.ndarray, f: np.ndarray, N: int, c: int):
    """(weights P(n), Attn (S×K), ŷ (S,)) for query class c."""
    n = counts_array(N, len(p))
    w = np.exp(log_multinomial(n, p))
    A = attn(n, q[c])
    return w, A, A @ f


def loss(q, p, f, N) -> float:
    """Eq. 7 for one task (values f on V)."""
    return float(sum(p[c] * (w * 0.5 * (y - f[c]) ** 2).sum()
                     for c in range(len(p)) for w, A, y in [per_query(q, p, f, N, c)]))


def H(q, p, f, N) -> np.ndarray:
    """H_{c,m} = −∂L/∂q_{c,m} = E[1{x_q = v_c} Attn_m (f_c − ŷ)(f_m − ŷ)] (derived, model.py)."""
    K = len(p)
    out = np.zeros((K, K))
    for c in range(K):
        w, A, y = per_query(q, p, f, N, c)
        out[c] = p[c] * ((w * (f[c] - y))[:, None] * A * (f[None, :] - y[:, None])).sum(axis=0)
    return out


def expect_query(q, p, f, N, c, integrand) -> float:
    """E[1{x_q = v_c} integrand(Attn, ŷ)] (integrand vectorised over count vectors)."""
    w, A, y = per_query(q, p, f, N, c)
    return float(p[c] * (w * integrand(A, y)).sum())
