"""The network in SymPy, from its primitives: weights and data are matrices of symbols, the loss is
½‖Y − W2 W1 X‖²_F summed over the P examples (the paper's squared error, whose gradient descent with rate λ
is its Eq. for ΔW21, ΔW32), and the gradients are obtained by differentiating it entry by entry — nothing here
is typed from the paper.

:func:`network` builds the loss and gradients for given sizes; :func:`numeric_gradients` compiles them for
float64 arrays (used by the simulations); :func:`mode_reduction` applies the reduction of Sec. 2: whitened
inputs (X = I), Σ31 = Y Xᵀ = U S Vᵀ, and weights W1 = R A Vᵀ, W2 = U B Rᵀ aligned with the SVD (R an
arbitrary rotation of the hidden layer; A, B diagonal); the rotations are written in Cayley form so that
every entry is a rational function and identities can be decided exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np
import sympy as sp


def symbol_matrix(name: str, rows: int, cols: int) -> sp.Matrix:
    return sp.Matrix(rows, cols, lambda i, j: sp.Symbol(f"{name}_{i}{j}", real=True))


@dataclass(frozen=True)
class Network:
    """Loss and gradients of y = W2 W1 x on data (X, Y) (columns are examples)."""

    W1: sp.Matrix  # hidden × in
    W2: sp.Matrix  # out × hidden
    X: sp.Matrix  # in × P
    Y: sp.Matrix  # out × P
    loss: sp.Expr
    grad_W1: sp.Matrix
    grad_W2: sp.Matrix


@lru_cache(maxsize=None)
def network(n_in: int, n_hidden: int, n_out: int, n_samples: int) -> Network:
    W1, W2 = symbol_matrix("w1", n_hidden, n_in), symbol_matrix("w2", n_out, n_hidden)
    X, Y = symbol_matrix("x", n_in, n_samples), symbol_matrix("y", n_out, n_samples)
    residual = Y - W2 * W1 * X
    loss = sp.Rational(1, 2) * sum(r ** 2 for r in residual)
    return Network(W1, W2, X, Y, loss, W1.applyfunc(lambda w: sp.diff(loss, w)),
                   W2.applyfunc(lambda w: sp.diff(loss, w)))


@lru_cache(maxsize=None)
def numeric_gradients(n_in: int, n_hidden: int, n_out: int, n_samples: int
                      ) -> Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """(W1, W2, X, Y) ↦ (∂L/∂W1, ∂L/∂W2) as float64 arrays, compiled from :func:`network`."""
    net = network(n_in, n_hidden, n_out, n_samples)
    args = [*net.W1, *net.W2, *net.X, *net.Y]
    fn = sp.lambdify(args, [*net.grad_W1, *net.grad_W2], modules="numpy", cse=True)
    k = n_hidden * n_in

    def grads(W1, W2, X, Y):
        out = np.asarray(fn(*np.ravel(W1), *np.ravel(W2), *np.ravel(X), *np.ravel(Y)), dtype=float)
        return out[:k].reshape(n_hidden, n_in), out[k:].reshape(n_out, n_hidden)
    return grads


def cayley(c: sp.Expr) -> sp.Matrix:
    """The 2×2 rotation (1 − K)(1 + K)⁻¹ with K = [[0, c], [−c, 0]]: every rotation but the half-turn."""
    d = 1 + c ** 2
    return sp.Matrix([[(1 - c ** 2) / d, -2 * c / d], [2 * c / d, (1 - c ** 2) / d]])


@dataclass(frozen=True)
class ModeReduction:
    """τ dM/dt under gradient flow, for M = Uᵀ W2 W1 V (the network map in the SVD basis of Σ31), at
    balanced aligned weights W1 = R diag(a) Vᵀ, W2 = U diag(a) Rᵀ (so that M = diag(a²))."""

    a: tuple[sp.Symbol, sp.Symbol]  # per-layer strength of each mode (u_α = a_α²)
    s: tuple[sp.Symbol, sp.Symbol]  # singular values of Σ31
    angles: tuple[sp.Symbol, sp.Symbol, sp.Symbol]  # Cayley parameters of U, V, R
    tau_dM: sp.Matrix  # τ dM/dt, derived


@lru_cache(maxsize=None)
def mode_reduction() -> ModeReduction:
    """Gradient flow τ dW/dt = −∂L/∂W of :func:`network` (2 inputs, hidden units, outputs and examples)
    reduced to the modes of Σ31 = U S Vᵀ with X = I (whitened inputs)."""
    net = network(2, 2, 2, 2)
    a = sp.symbols("a1 a2", real=True)
    s = sp.symbols("s1 s2", positive=True)
    angles = sp.symbols("c_U c_V c_R", real=True)
    U, V, R = (cayley(c) for c in angles)
    A = sp.diag(*a)
    W1, W2 = R * A * V.T, U * A * R.T  # balanced: the same strength a_α in both layers
    subs = {**dict(zip(net.W1, W1)), **dict(zip(net.W2, W2)), **dict(zip(net.X, sp.eye(2))),
            **dict(zip(net.Y, U * sp.diag(*s) * V.T))}
    # each stage is brought to lowest terms before the next (one cancel at the end takes ~6× longer)
    tau_dW1 = (-net.grad_W1.xreplace(subs)).applyfunc(sp.cancel)
    tau_dW2 = (-net.grad_W2.xreplace(subs)).applyfunc(sp.cancel)
    tau_dM = (U.T * (tau_dW2 * W1 + W2 * tau_dW1) * V).applyfunc(sp.cancel)
    return ModeReduction(a, s, angles, tau_dM)
