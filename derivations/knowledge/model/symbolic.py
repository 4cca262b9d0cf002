"""The model in SymPy on a small instance (d tokens, m neurons per output, a sequence of length L),
from its primitives (spec §2.2): orthogonal embeddings x_v = n_v e_v, Z, W, ReLU = Max(0, ·),
softmax, cross-entropy.  Gradients here come from ``sp.diff`` of the loss; the closed forms stated in
transformer.py are then compared with them (claims/s2_model.py)."""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp


def relu(x):
    return sp.Max(0, x)


@dataclass
class Instance:
    d: int
    m: int
    seq: tuple[int, ...]          # token indices (positions 0..L−1; query = last)
    target: int
    Z: sp.Matrix
    W: list[list[sp.Matrix]]      # W[j][l]: the neuron w_{j,l} (d×1)
    norms: tuple[sp.Symbol, ...]
    kappa: sp.Symbol

    def x(self, v: int) -> sp.Matrix:
        e = sp.zeros(self.d, 1)
        e[v] = self.norms[v]
        return e

    def scores(self) -> list[sp.Expr]:
        xL = self.x(self.seq[-1])
        return [(self.x(v).T * self.Z * xL)[0] for v in self.seq]

    def alpha(self) -> list[sp.Expr]:
        e = [sp.exp(s) for s in self.scores()]
        return [ei / sum(e) for ei in e]

    def h(self) -> sp.Matrix:
        return sum((a * self.x(v) for a, v in zip(self.alpha(), self.seq)), sp.zeros(self.d, 1))

    def pre(self, h: sp.Matrix | None = None) -> list[list[sp.Expr]]:
        h = self.h() if h is None else h
        return [[(self.W[j][l].T * h)[0] for l in range(self.m)] for j in range(self.d)]

    def F(self, h: sp.Matrix | None = None) -> list[sp.Expr]:
        """Eq. 20: F_j = κ Σ_l σ(⟨w_{j,l}, h⟩)."""
        return [self.kappa * sum(relu(p) for p in row) for row in self.pre(h)]

    def F_matrix_form(self, h: sp.Matrix) -> sp.Matrix:
        """Eqs. 6–8: κ I_d V σ(W h), V = I_d ⊗ 1_mᵀ, W stacked with row (j, l) at j·m + l."""
        Wm = sp.Matrix.vstack(*[self.W[j][l].T for j in range(self.d) for l in range(self.m)])
        V = sp.kronecker_product(sp.eye(self.d), sp.ones(1, self.m))
        return self.kappa * sp.eye(self.d) * V * (Wm * h).applyfunc(relu)

    def loss(self) -> sp.Expr:
        F = self.F()
        return -F[self.target] + sp.log(sum(sp.exp(f) for f in F))


def instance(d: int = 3, m: int = 2, seq=(0, 1, 2), target: int = 1) -> Instance:
    Z = sp.Matrix(d, d, lambda a, b: sp.Symbol(f"z{a}{b}", real=True))
    W = [[sp.Matrix(d, 1, lambda a, _: sp.Symbol(f"w{j}{l}_{a}", real=True)) for l in range(m)] for j in range(d)]
    norms = tuple(sp.Symbol(f"n{v}", positive=True) for v in range(d))
    return Instance(d, m, tuple(seq), target, Z, W, norms, sp.Symbol("kappa", positive=True))


def softmax_probs(inst: Instance) -> list[sp.Expr]:
    F = inst.F()
    den = sum(sp.exp(f) for f in F)
    return [sp.exp(f) / den for f in F]


def grad_w_closed(inst: Instance, j: int, l: int) -> sp.Matrix:
    """κ (p_j − 1{j = y}) 1{⟨w_{j,l}, h⟩ > 0} h  (transformer.py)."""
    p = softmax_probs(inst)[j] - (1 if j == inst.target else 0)
    h = inst.h()
    return inst.kappa * p * sp.Heaviside(inst.pre(h)[j][l]) * h


def grad_z_closed(inst: Instance) -> sp.Matrix:
    """Σ_l α_l ⟨x_l − h, g⟩ x_l x_Lᵀ with g = κ Σ_j (p_j − 1{j=y}) Σ_l 1{pre > 0} w_{j,l} (transformer.py)."""
    p = softmax_probs(inst)
    h = inst.h()
    pre = inst.pre(h)
    g = sp.zeros(inst.d, 1)
    for j in range(inst.d):
        err = p[j] - (1 if j == inst.target else 0)
        for l in range(inst.m):
            g += inst.kappa * err * sp.Heaviside(pre[j][l]) * inst.W[j][l]
    xL = inst.x(inst.seq[-1])
    out = sp.zeros(inst.d, inst.d)
    for a, v in zip(inst.alpha(), inst.seq):
        out += a * ((inst.x(v) - h).T * g)[0] * inst.x(v) * xL.T
    return out


def grad_w_diff(inst: Instance, j: int, l: int) -> sp.Matrix:
    L = inst.loss()
    return sp.Matrix([sp.diff(L, w) for w in inst.W[j][l]])


def grad_z_diff(inst: Instance) -> sp.Matrix:
    L = inst.loss()
    return inst.Z.applyfunc(lambda z: sp.diff(L, z))
