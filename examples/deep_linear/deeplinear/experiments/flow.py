"""Gradient flow τ dW/dt = −∂L/∂W of the full network (gradients from ``model.symbolic``, integrated by
``tv.flows.gradient_flow``), the mode strengths u_α = U[:, α]ᵀ W2 W1 V[:, α] along it, and learning times:
the first time a mode strength crosses a level (an event located by the solver, not read off a grid)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

import theoryverify as tv

from ..model.symbolic import numeric_gradients
from .teacher import Teacher, balanced_init, teacher


@dataclass(frozen=True)
class Run:
    t: np.ndarray
    W1: np.ndarray  # (times, hidden, in)
    W2: np.ndarray  # (times, out, hidden)
    hits: dict[str, float | None]


def mode_strengths(task: Teacher, W1: np.ndarray, W2: np.ndarray) -> np.ndarray:
    """u_α = U[:, α]ᵀ W2 W1 V[:, α] for every mode of the teacher."""
    M = task.U.T @ W2 @ W1 @ task.V
    return np.diag(M)[: len(task.s)].copy()


def run(task: Teacher, W1: np.ndarray, W2: np.ndarray, t_end: float, *, tau: float = 1.0,
        crossings: Mapping[str, tuple[int, float]] | None = None, stop_at: str | None = None,
        t_eval=None, rtol: float = 1e-10, atol: float = 1e-12) -> Run:
    """Integrate the flow from (W1, W2) on [0, t_end]; ``crossings``: name → (mode α, level), the first time
    u_α rises through the level."""
    n_hidden, n_in = W1.shape
    n_out = W2.shape[0]
    grads = numeric_gradients(n_in, n_hidden, n_out, n_in)
    X, Y = np.eye(n_in), task.sigma31
    k = W1.size

    def unpack(x):
        return x[:k].reshape(n_hidden, n_in), x[k:].reshape(n_out, n_hidden)

    def grad(x):
        g1, g2 = grads(*unpack(x), X, Y)
        return np.concatenate([g1.ravel(), g2.ravel()]) / tau

    events = {name: tv.flows.above(lambda x, a=alpha: mode_strengths(task, *unpack(x))[a], level)
              for name, (alpha, level) in (crossings or {}).items()}
    res = tv.flows.gradient_flow(grad, np.concatenate([W1.ravel(), W2.ravel()]), t_end, events=events,
                                 stop_at=stop_at, t_eval=t_eval, rtol=rtol, atol=atol)
    if not res.success:
        raise RuntimeError(f"integration failed: {res.message}")
    W1s = res.x[:, :k].reshape(-1, n_hidden, n_in)
    W2s = res.x[:, k:].reshape(-1, n_out, n_hidden)
    return Run(res.t, W1s, W2s, res.hits)


def learning_time(s: float, u0: float, *, tau: float = 1.0, seed: int = 0) -> float:
    """Time for a mode of singular value ``s`` to go from strength u0 to within u0 of s (the paper's
    learning time with ε = u0), simulated on the full network (2 inputs, hidden units and outputs; the
    other mode of the teacher is 0 and starts at 0), from balanced aligned initial weights."""
    task = teacher([s, 0.0], seed)
    W1, W2 = balanced_init(task, [u0, 0.0], 2, seed + 1)
    horizon = 4.0 * tau / s * np.log(s / u0) + 10.0 * tau / s
    res = run(task, W1, W2, horizon, tau=tau, crossings={"learnt": (0, s - u0)}, stop_at="learnt")
    hit = res.hits["learnt"]
    if hit is None:
        raise RuntimeError(f"mode s = {s:g} not learnt by t = {horizon:g} (u0 = {u0:g})")
    return hit
