"""An independent token-level torch model of Eqs. 5–7 (float64), the autograd side.

Nothing here uses the logit table or the class aggregates: prompts are explicit token matrices
X (N×d), responses y_i = f(x_i), and the loss is averaged over prompts with their probabilities.
For small K, N the population expectation is an exact sum over *every token sequence* (K^N of
them, each with weight ∏ p_{c_i}) and every query class — no grouping by counts.
Gradients by ``torch.autograd.grad`` (``torch.func.grad`` gives the same numbers but costs ~150 ms
of per-call overhead here; the attention Jacobian uses ``torch.autograd.functional.jacobian``).  These tensors are
tiny: the engine runs every check single-threaded (on a loaded 2-core machine the intra-op thread pool made a
0.25 ms forward pass take 18 ms).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

import numpy as np
import torch
from torch.autograd.functional import jacobian

DT = torch.float64



def eq6_prediction(Q: torch.Tensor, X: torch.Tensor, y: torch.Tensor, xq: torch.Tensor) -> torch.Tensor:
    """Eq. 6: ŷ = y · softmax(Xᵀ Q x̄)_{N+1}; softmax over the N prompt tokens.  Batched:
    X (B,N,d), y (B,N), xq (B,d) -> (B,)."""
    return (eq6_attention(Q, X, xq) * y).sum(-1)


def eq6_attention(Q, X, xq):
    """attn_i = softmax_i(x_iᵀ Q x_query) over i ∈ [N]."""
    logits = (X @ (xq @ Q.T)[:, :, None])[..., 0]  # x_iᵀ Q x_q
    return torch.softmax(logits, dim=-1)


def eq5_output(Q: torch.Tensor, X: torch.Tensor, y: torch.Tensor, xq: torch.Tensor) -> torch.Tensor:
    """Eq. 5 literally: F = W^V P softmax((W^K P)ᵀ W^Q P) with (W^K)ᵀ W^Q := W^{KQ} = [[Q, 0], [0, 0]],
    W^V = [[0, 0], [0, 1]], P = [[X, x_q], [y, 0]] ((d+1)×(N+1)); column-wise softmax over all N+1
    rows.  Returns the full (B, d+1, N+1) output."""
    B, N, d = X.shape
    top = torch.cat([X.transpose(1, 2), xq[:, :, None]], dim=2)            # (B,d,N+1)
    bottom = torch.cat([y, torch.zeros(B, 1, dtype=DT)], dim=1)[:, None, :]  # (B,1,N+1)
    P = torch.cat([top, bottom], dim=1)
    WKQ = torch.zeros(d + 1, d + 1, dtype=DT)
    WKQ[:d, :d] = Q
    WV = torch.zeros(d + 1, d + 1, dtype=DT)
    WV[d, d] = 1.0
    S = P.transpose(1, 2) @ WKQ @ P                                        # (B,N+1,N+1)
    return WV @ P @ torch.softmax(S, dim=1)


def eq5_prediction(Q, X, y, xq):
    """ŷ from Eq. 5: entry (d+1, N+1) of F (the response row, query column)."""
    return eq5_output(Q, X, y, xq)[:, -1, -1]


@lru_cache(maxsize=None)
def _sequences(K: int, N: int) -> tuple[np.ndarray, np.ndarray]:
    """All (query class, token-class sequence) pairs: (S, 1) and (S, N) integer arrays."""
    qs, seqs = [], []
    for c in range(K):
        for seq in product(range(K), repeat=N):
            qs.append(c)
            seqs.append(seq)
    return np.array(qs), np.array(seqs).reshape(len(seqs), N)


def population_batch(V: np.ndarray, p: np.ndarray, f: np.ndarray, N: int):
    """Every prompt as explicit tokens: X (S,N,d), y (S,N), xq (S,d), target (S,), weight (S,)."""
    K = V.shape[1]
    qc, seq = _sequences(K, N)
    Vt = torch.as_tensor(V.T, dtype=DT)
    ft = torch.as_tensor(f, dtype=DT)
    pt = torch.as_tensor(p, dtype=DT)
    X = Vt[torch.as_tensor(seq)]
    y = ft[torch.as_tensor(seq)]
    xq = Vt[torch.as_tensor(qc)]
    target = ft[torch.as_tensor(qc)]
    w = pt[torch.as_tensor(qc)] * torch.prod(pt[torch.as_tensor(seq)], dim=1)
    return X, y, xq, target, w


def weighted_loss(Q, X, y, xq, target, w, predict=eq6_prediction):
    """½ Σ w (ŷ − f(x_query))² (Eq. 7; w = probabilities, or 1/M for an empirical batch)."""
    return 0.5 * (w * (predict(Q, X, y, xq) - target) ** 2).sum()


def population_loss(Q: np.ndarray, V, p, tasks, N: int, predict=eq6_prediction) -> float:
    """Eq. 7 exactly, for D_f uniform over the rows of ``tasks`` (values f(v_k))."""
    Qt = torch.as_tensor(Q, dtype=DT)
    total = sum(weighted_loss(Qt, *population_batch(V, p, f, N), predict=predict) for f in tasks)
    return float(total / len(tasks))


def population_grad(Q: np.ndarray, V, p, tasks, N: int) -> np.ndarray:
    """∇_Q L (d×d) by autograd of the exact population loss."""
    Qt = torch.as_tensor(Q, dtype=DT).clone().requires_grad_(True)
    total = sum(weighted_loss(Qt, *population_batch(V, p, f, N)) for f in tasks) / len(tasks)
    (g,) = torch.autograd.grad(total, Qt)
    return g.detach().numpy()


def g_table_autograd(Q, V, p, tasks, N) -> np.ndarray:
    """g_{k,k'} = −v_{k'}ᵀ ∇_Q L v_k (App. C), row k = query, column k' = key."""
    Gq = population_grad(Q, V, p, tasks, N)
    return -(V.T @ Gq @ V).T


def attention_jacobian(Q: np.ndarray, X: np.ndarray, xq: np.ndarray) -> np.ndarray:
    """d attn_i / dQ for one prompt (N, d, d), by torch.autograd.functional.jacobian."""
    Xt = torch.as_tensor(X, dtype=DT)[None]
    xt = torch.as_tensor(xq, dtype=DT)[None]
    return jacobian(lambda Qm: eq6_attention(Qm, Xt, xt)[0], torch.as_tensor(Q, dtype=DT)).numpy()


def sample_prompts(V: np.ndarray, p, task_sampler, N: int, M: int, rng: np.random.Generator):
    """M sampled prompts (tokens exactly features), one task per prompt from ``task_sampler(rng)``
    (values on V); weights 1/M.  The empirical version of Eq. 7 (spec §1.5)."""
    K = V.shape[1]
    seq = rng.choice(K, size=(M, N), p=p)
    qc = rng.choice(K, size=M, p=p)
    F = np.stack([task_sampler(rng) for _ in range(M)])
    X = torch.as_tensor(V.T[seq], dtype=DT)
    y = torch.as_tensor(np.take_along_axis(F, seq, axis=1), dtype=DT)
    xq = torch.as_tensor(V.T[qc], dtype=DT)
    target = torch.as_tensor(F[np.arange(M), qc], dtype=DT)
    return X, y, xq, target, torch.full((M,), 1.0 / M, dtype=DT)


def autograd_g(x: dict) -> np.ndarray:
    """The gradient table g_{k,k'} = −v_{k'}ᵀ∇_Q L v_k of a drawn configuration (experiments/draws.py), by autograd."""
    return g_table_autograd(x["Q"], x["V"], x["p"], x["tasks"], x["N"])
