"""Explicit admissible families used against the Θ-lower-bound readings (Lemma 1, Lemma 2).

Cancellation family (K = 3, orthonormal features, D_f a point mass, p uniform): query class 1 sits
between the other two task values, f = L√2·(0, 0.9, −0.1).  It is in F for every c_nd ≤ 0.9
(Lipschitz on V with constant L; each k has a k' with |f_k − f_k'| ≥ 0.9·L‖v_k − v_k'‖).  The query-1
row of q weights key 3 by log 9 against key 2, so E[Attn_2·0.9 − Attn_3·0.1] → 0 while
1 − Attn_1 stays Θ(1); rows 2, 3 concentrate (q_{c,c} = 40).  Residual f_1 − ŷ is O(N^{-1/2}) per
prompt, so the Θ-lower ratios fall like 1/N.
"""
from __future__ import annotations

import numpy as np

from . import counts
from .geometry import in_F

#: the sizes N of the cancellation family (Lemmas 1–2: the Θ-lower ratios fall like a power of N)
FAMILY_N = (4, 8, 16, 32, 64, 128, 256)


def cancellation_family(N: int, L: float = 1.0, q11: float = 0.0) -> dict:
    K = 3
    V = np.eye(K)
    f = L * np.sqrt(2.0) * np.array([0.0, 0.9, -0.1])
    q = np.zeros((K, K))
    q[0] = [q11, 0.0, np.log(9.0)]
    q[1, 1] = q[2, 2] = 40.0
    Q = V @ q.T @ V.T  # q = VᵀQᵀV
    return dict(geometry="orthonormal", K=K, N=N, d=K, Delta=np.sqrt(2.0), L=L, V=V, Q=Q, q=q,
                p=np.full(K, 1.0 / K), tasks=f[None, :], in_F_c09=in_F(f, V, L, 0.9))


def attn_moment(x: dict, k: int, fn) -> float:
    return counts.expect_query(x["q"], x["p"], x["tasks"][0], x["N"], k, lambda A, y: fn(A))
