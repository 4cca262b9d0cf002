"""Proper orthogonal decomposition (Eq. 15, App. A.3.2) discretised: g(u, v) on a quadrature grid, the SVD of
the weighted matrix, and its truncations; the Thm 4.4 similarity with a known POD (RC-14).

Discretisation: nodes u_a with weights w_a (midpoint rule on [-1, 1]^p, weights summing to the domain's
measure), G_ab = √w_a g(u_a, v_b) √w_b.  The SVD G = U Σ V^T gives σ_k and discrete bases φ_k(u_a) = U_ak/√w_a,
ψ_k(v_b) = V_bk/√w_b, orthonormal in the weighted ℓ2 (the quadrature of L²).  Eckart–Young:
‖G − G_r‖_F² = Σ_{k>r} σ_k² and ‖G − G_r‖_2 = σ_{r+1}.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Callable

import numpy as np
import torch

# SVDs run in torch (float64) so that the engine's thread limit (one torch thread per check) controls their threads (numpy's
# OpenBLAS pool is 100x slower on the shared, oversubscribed CI machine).


def svd(G: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    U, s, Vt = torch.linalg.svd(torch.as_tensor(G))
    return U.numpy(), s.numpy(), Vt.numpy()


def spectral_norm(E: np.ndarray) -> float:
    return float(torch.linalg.matrix_norm(torch.as_tensor(E), ord=2))


@dataclass(frozen=True)
class DiscretePOD:
    G: np.ndarray
    U: np.ndarray
    sigma: np.ndarray
    Vt: np.ndarray
    wu: np.ndarray
    wv: np.ndarray
    nodes_u: np.ndarray
    nodes_v: np.ndarray

    def truncation(self, r: int) -> np.ndarray:
        return (self.U[:, :r] * self.sigma[:r]) @ self.Vt[:r]

    def phi(self, k: int) -> np.ndarray:
        return self.U[:, k] / np.sqrt(self.wu)

    def psi(self, k: int) -> np.ndarray:
        return self.Vt[k] / np.sqrt(self.wv)


def midpoint_grid(n: int, p: int = 1, lo: float = -1.0, hi: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Midpoint nodes (n^p, p) on [lo, hi]^p with equal weights summing to (hi − lo)^p."""
    h = (hi - lo) / n
    x1 = lo + h * (np.arange(n) + 0.5)
    nodes = np.array(list(product(x1, repeat=p)))
    return nodes, np.full(len(nodes), h ** p)


def discrete_pod(g: Callable[[np.ndarray, np.ndarray], np.ndarray], n: int, p: int = 1) -> DiscretePOD:
    """SVD of the weighted kernel matrix of g on an n^p × n^p midpoint grid (``g(U, V)`` broadcasts over rows)."""
    nu, wu = midpoint_grid(n, p)
    nv, wv = midpoint_grid(n, p)
    K = g(nu[:, None, :], nv[None, :, :])
    G = np.sqrt(wu)[:, None] * K * np.sqrt(wv)[None, :]
    U, s, Vt = svd(G)
    return DiscretePOD(G, U, s, Vt, wu, wv, nu, nv)


def exp_dot(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.exp(np.sum(u * v, axis=-1))


def cos_diff(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.cos(np.sum(u - v, axis=-1))


def eckart_young_table(pod: DiscretePOD, ranks, tail_power: float = 2.0) -> list[dict]:
    """Per rank r: ‖G − G_r‖_F², the tail Σ_{k>r} σ_k^{tail_power} (2 = Eckart–Young; other values are planted
    twins), ‖G − G_r‖_2 and σ_{r+1}."""
    rows = []
    for r in ranks:
        E = pod.G - pod.truncation(r)
        tail = float(np.sum(pod.sigma[r:] ** tail_power))
        rows.append({"r": r, "frobenius_sq": float(np.sum(E ** 2)), "tail": tail,
                     "spectral": spectral_norm(E),
                     "sigma_r+1": float(pod.sigma[r]) if r < len(pod.sigma) else 0.0})
    return rows


def orthonormality_defect(pod: DiscretePOD, r: int) -> float:
    """max |⟨φ_j, φ_k⟩_w − δ_jk| and the same for ψ, over k, j < r (weighted inner products)."""
    Phi = np.stack([pod.phi(k) for k in range(r)], 1)
    Psi = np.stack([pod.psi(k) for k in range(r)], 1)
    I = np.eye(r)
    return float(max(np.abs(Phi.T @ (pod.wu[:, None] * Phi) - I).max(),
                     np.abs(Psi.T @ (pod.wv[:, None] * Psi) - I).max()))


def basis_lipschitz(pod: DiscretePOD, r: int) -> list[float]:
    """Discrete Lipschitz constants max |φ_k(u_{a+1}) − φ_k(u_a)|/h of the first r u-bases (p = 1 grids):
    by Arzelà–Ascoli an infinite orthonormal family cannot have uniformly bounded Lipschitz norms."""
    x = pod.nodes_u[:, 0]
    h = np.diff(x)
    return [float(np.max(np.abs(np.diff(pod.phi(k))) / h)) for k in range(r)]


# --- Thm 4.4: a similarity with a known POD of prescribed decay (RC-14) --------------------------------------

def cosine_basis(k: int, u: np.ndarray) -> np.ndarray:
    """√2 cos(kπ(u+1)/2), k ≥ 1: orthonormal in L²([-1, 1], du/2)."""
    return np.sqrt(2.0) * np.cos(k * np.pi * (u + 1.0) / 2.0)


def known_pod_similarity(beta: float, K: int, rc14: str = "1+beta") -> tuple[np.ndarray, Callable]:
    """σ_k = k^{-(1+β)} (RC-14 default) or k^{-β} (alternative), k = 1..K, and g(u, v) = Σ σ_k φ_k(u) φ_k(v)."""
    k = np.arange(1, K + 1)
    sigma = k ** (-(1.0 + beta)) if rc14 == "1+beta" else k ** (-float(beta))

    def g(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        u, v = np.asarray(u, float), np.asarray(v, float)
        out = np.zeros(np.broadcast(u, v).shape)
        for kk, s in zip(k, sigma):
            out = out + s * cosine_basis(kk, u) * cosine_basis(kk, v)
        return out
    return sigma, g
