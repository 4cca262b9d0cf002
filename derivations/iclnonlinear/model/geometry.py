"""Feature geometries (spec §3.0) and task families (Sec. 6, spec §1.10) as parameters.

Every gradient claim is run on all three geometries: the paper claims its results do not need
orthonormal features (Sec. 1, contribution (ii); Sec. 3.1).
"""
from __future__ import annotations

import numpy as np

GEOMETRIES = ("orthonormal", "scaled_orthogonal", "general")


def features(kind: str, d: int, K: int, Delta: float, rng: np.random.Generator) -> np.ndarray:
    """V = [v_1 … v_K] (d×K).
    orthonormal: Haar-random orthonormal columns (pairwise distance √2; Δ ignored);
    scaled_orthogonal: v_k = (Δ/√2) e_k (pairwise distance exactly Δ);
    general: Gaussian columns rescaled so the minimum pairwise distance is Δ."""
    if kind == "orthonormal":
        q, r = np.linalg.qr(rng.standard_normal((d, K)))
        return q * np.sign(np.diag(r))
    if kind == "scaled_orthogonal":
        return (Delta / np.sqrt(2.0)) * np.eye(d, K)
    if kind == "general":
        V = rng.standard_normal((d, K))
        return V * (Delta / min_distance(V))
    raise ValueError(f"unknown geometry {kind!r}")


def distances(V: np.ndarray) -> np.ndarray:
    return np.linalg.norm(V[:, :, None] - V[:, None, :], axis=0)


def min_distance(V: np.ndarray) -> float:
    D = distances(V)
    return float(D[~np.eye(D.shape[0], dtype=bool)].min())


def max_distance(V: np.ndarray) -> float:
    return float(distances(V).max())


#: How we read "f(x) = (L/c) cos(c · x)" (Sec. 6) for x ∈ R^d — the paper does not say.
COS_READINGS = {
    "projection": "(L/c)·cos(c·wᵀx + φ), w a uniform random unit vector and φ ~ U[0, 2π) per task",
    "sum": "(L/c)·cos(c·Σ_j x_j) (no per-task randomness besides c)",
}


def cosine_task(V: np.ndarray, L: float, c: float, reading: str, rng: np.random.Generator) -> np.ndarray:
    """Task values f(v_k) of the Sec. 6 cosine family under the named reading."""
    if reading == "projection":
        w = rng.standard_normal(V.shape[0])
        w /= np.linalg.norm(w)
        phi = rng.uniform(0, 2 * np.pi)
        return (L / c) * np.cos(c * (w @ V) + phi)
    if reading == "sum":
        return (L / c) * np.cos(c * V.sum(axis=0))
    raise ValueError(f"unknown cos reading {reading!r}")


def iid_task(K: int, L: float, Delta: float, law: str, rng: np.random.Generator) -> np.ndarray:
    """i.i.d. task values: 'normal' N(0, (LΔ)²) or 'uniform' U[−LΔ/2, LΔ/2] (spec §3.0)."""
    if law == "normal":
        return rng.normal(0.0, L * Delta, size=K)
    if law == "uniform":
        return rng.uniform(-L * Delta / 2, L * Delta / 2, size=K)
    raise ValueError(f"unknown iid law {law!r}")


def lipschitz_on_V(f: np.ndarray, V: np.ndarray) -> float:
    """The smallest L with |f(v_k) − f(v_k')| ≤ L‖v_k − v_k'‖ on V (Eq. 4 restricted to V)."""
    D = distances(V)
    off = ~np.eye(len(f), dtype=bool)
    return float((np.abs(f[:, None] - f[None, :])[off] / D[off]).max())


def in_F(f: np.ndarray, V: np.ndarray, L: float, c_nd: float = 0.5) -> bool:
    """Finite-V reading of Eq. 4 (spec §3.0): Lipschitz on V with constant L, and for every k some
    k' ≠ k with |f_k − f_k'| ≥ c_nd·L‖v_k − v_k'‖."""
    D = distances(V)
    gap = np.abs(f[:, None] - f[None, :])
    off = ~np.eye(len(f), dtype=bool)
    if np.any(gap[off] > L * D[off] * (1 + 1e-12)):
        return False
    ratio = np.where(off, gap / np.where(off, D, 1.0), -np.inf)
    return bool(np.all(ratio.max(axis=1) >= c_nd * L * (1 - 1e-12)))


def polynomial_task(V: np.ndarray, L: float, rng: np.random.Generator) -> np.ndarray:
    """App. A: f(x) = xᵀAx + bᵀx with A_ij, b_i ~ N(0, (L/d)²), evaluated on V."""
    d = V.shape[0]
    A = rng.normal(0.0, L / d, size=(d, d))
    b = rng.normal(0.0, L / d, size=d)
    return np.einsum("ik,ij,jk->k", V, A, V) + b @ V
