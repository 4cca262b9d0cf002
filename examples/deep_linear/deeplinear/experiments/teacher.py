"""The task and the starting points: a teacher correlation Σ31 = U S Vᵀ with chosen singular values and
random singular vectors (inputs whitened, X = I, so Y = Σ31), sampled examples with a given input correlation
(for the averaged learning rule), and initial weights — balanced and aligned with
the teacher's modes (the special initial conditions of Sec. 2.1) or small and random."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

import theoryverify as tv


def orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """A Haar-random n×n orthogonal matrix."""
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))


@dataclass(frozen=True)
class Teacher:
    U: np.ndarray  # out × out
    s: np.ndarray  # singular values, one per mode (descending order not required)
    V: np.ndarray  # in × in

    @property
    def sigma31(self) -> np.ndarray:
        S = np.zeros((self.U.shape[0], self.V.shape[0]))
        S[np.arange(len(self.s)), np.arange(len(self.s))] = self.s
        return self.U @ S @ self.V.T


def teacher(s: Sequence[float], seed: int, n_in: int | None = None, n_out: int | None = None) -> Teacher:
    """Σ31 with singular values ``s`` and random singular vectors (sizes default to len(s))."""
    rng = tv.rng(seed)
    n_in, n_out = n_in or len(s), n_out or len(s)
    return Teacher(orthogonal(n_out, rng), np.asarray(s, dtype=float), orthogonal(n_in, rng))


def balanced_init(task: Teacher, u0: Sequence[float], n_hidden: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """W1 = R diag(√u0) Vᵀ, W2 = U diag(√u0) Rᵀ: mode α starts at strength u0[α] with equal weight in both
    layers (a = b), along the teacher's singular vectors; R is a random rotation of the hidden layer."""
    rng = tv.rng(seed)
    R = orthogonal(n_hidden, rng)
    k = len(u0)
    A = np.zeros((n_hidden, task.V.shape[0]))
    A[np.arange(k), np.arange(k)] = np.sqrt(np.asarray(u0, dtype=float))
    return R @ A @ task.V.T, task.U @ A.T @ R.T


def random_init(n_in: int, n_hidden: int, n_out: int, scale: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Independent Gaussian weights of standard deviation ``scale``."""
    rng = tv.rng(seed)
    return scale * rng.standard_normal((n_hidden, n_in)), scale * rng.standard_normal((n_out, n_hidden))


#: input correlation Σ11 of the sampled examples (3 inputs)
SIGMA11 = np.diag([1.0, 0.5, 2.0])


def examples(task: Teacher, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n examples (x, y), one per row: x ~ N(0, Σ11), y = Σ31 Σ11⁻¹ x + noise, so that E[y xᵀ] = Σ31."""
    x = rng.standard_normal((n, 3)) * np.sqrt(np.diag(SIGMA11))
    return x, x @ np.linalg.solve(SIGMA11, task.sigma31.T) + 0.1 * rng.standard_normal((n, 3))
