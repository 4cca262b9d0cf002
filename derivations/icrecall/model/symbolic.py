"""The IC-recall model built from its primitives, in SymPy (exact).

Section 2.1: orthonormal token embeddings φ(u) for V = S ∪ R ∪ A ∪ {EoS} (one-hot here, d = 2n +
|R| + 1), one-hot positions e_i ∈ R^{d_P}, Z = [e_1 … e_k ; φ(u_1) … φ(u_k)],
h = W^P (z_{-1} + Z softmax(Zᵀ W^KQ z_{-1})) with W^P = (0  I_d), and f = Vᵀ σ(W h), σ(x) = x².
Lemma 3 (App. A): the MLP associative memory (W, V) built from a relation set.
Section 2.3: temperature-T masked softmax losses, partial fine-tuning θ = W^KQ_{1:6,6},
ω = W^KQ_{1:7,7}.

Nothing here is copied from Table 2, Eq. (18) or App. C/D: those are the claims under test.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import permutations
from typing import Sequence

import sympy as sp

Relation = tuple[int, ...]  # a bijection S -> A as the tuple of answer indices, r[s] = a


@dataclass(frozen=True)
class Vocab:
    """Token indices: subjects 0..n-1, relations, answers, then EoS."""

    n: int
    relations: tuple[Relation, ...]

    def __post_init__(self) -> None:
        for r in self.relations:
            if sorted(r) != list(range(self.n)):
                raise ValueError(f"relation {r} is not a bijection of range({self.n})")

    @property
    def m(self) -> int:
        return len(self.relations)

    @property
    def d(self) -> int:
        return 2 * self.n + self.m + 1

    def s(self, i: int) -> int:
        return i

    def r(self, k: int) -> int:
        return self.n + k

    def a(self, j: int) -> int:
        return self.n + self.m + j

    @property
    def eos(self) -> int:
        return 2 * self.n + self.m

    def R(self, s: int, a: int) -> list[int]:
        """R(s, a): indices of the relations that map subject s to answer a."""
        return [k for k, r in enumerate(self.relations) if r[s] == a]

    def phi(self, token: int) -> sp.Matrix:
        """One-hot (orthonormal) embedding φ(u) ∈ R^d."""
        return sp.Matrix.eye(self.d)[:, token]

    def token_name(self, token: int) -> str:
        if token < self.n:
            return f"s{token + 1}"
        if token < self.n + self.m:
            return f"r{token - self.n + 1}"
        if token < self.eos:
            return f"a{token - self.n - self.m + 1}"
        return "EoS"


#: Table 1's numbering for n = 3: images of (s1, s2, s3) under r1..r6.
TABLE1_RELATIONS: tuple[Relation, ...] = ((0, 1, 2), (1, 0, 2), (0, 2, 1), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def n3_vocab() -> Vocab:
    """n = 3 with R = all 6 bijections, numbered as in Table 1 (r1 correct, r2 confusing)."""
    assert sorted(TABLE1_RELATIONS) == sorted(permutations(range(3)))
    return Vocab(3, TABLE1_RELATIONS)


# --- Lemma 3 (App. A): the MLP associative memory -----------------------------------------

def construction(vocab: Vocab) -> tuple[sp.Matrix, sp.Matrix]:
    """(W, V) ∈ R^{3n²×d} of Lemma 3: for pair i = (s, a), rows 3i−2, 3i−1, 3i are
    W: φ(s)+Σ_{r∈R(s,a)}φ(r), φ(a)+φ(s), φ(a)+Σφ(r);  V: φ(a), Σφ(r), φ(s)."""
    d = vocab.d
    W_rows, V_rows = [], []
    zero = sp.zeros(d, 1)
    for s in range(vocab.n):
        for a in range(vocab.n):
            rel = sum((vocab.phi(vocab.r(k)) for k in vocab.R(s, a)), zero)
            fs, fa = vocab.phi(vocab.s(s)), vocab.phi(vocab.a(a))
            W_rows += [(fs + rel).T, (fa + fs).T, (fa + rel).T]
            V_rows += [fa.T, rel.T, fs.T]
    return sp.Matrix.vstack(*W_rows), sp.Matrix.vstack(*V_rows)


def mlp(W: sp.Matrix, V: sp.Matrix, x: sp.Matrix) -> sp.Matrix:
    """f_MLP(x) = Vᵀ σ(W x), σ(x) = x² elementwise (Section 2.1)."""
    pre = W * x
    return V.T * pre.applyfunc(lambda t: t**2)


# --- Section 2.1 architecture ------------------------------------------------------------

def embed(vocab: Vocab, tokens: Sequence[int], d_P: int) -> sp.Matrix:
    """Z = [e_1 … e_k ; φ(u_1) … φ(u_k)] ∈ R^{(d_P + d) × k} (positions on top)."""
    cols = [sp.Matrix.vstack(sp.Matrix.eye(d_P)[:, i], vocab.phi(t)) for i, t in enumerate(tokens)]
    return sp.Matrix.hstack(*cols)


def projection(vocab: Vocab, d_P: int) -> sp.Matrix:
    """W^P = (0_{d×d_P}  I_d): keeps the token-embedding part."""
    return sp.Matrix.hstack(sp.zeros(vocab.d, d_P), sp.eye(vocab.d))


def attention_scores(Z: sp.Matrix, WKQ: sp.Matrix) -> sp.Matrix:
    """Zᵀ W^KQ z_{-1}: the pre-softmax scores of the last token over all positions."""
    return Z.T * WKQ * Z[:, -1]


def softmax(x: Sequence[sp.Expr]) -> list[sp.Expr]:
    e = [sp.exp(t) for t in x]
    total = sp.Add(*e)
    return [t / total for t in e]


def hidden(vocab: Vocab, Z: sp.Matrix, attn: Sequence[sp.Expr], d_P: int) -> sp.Matrix:
    """h = W^P (z_{-1} + Z attn) for a given attention vector ``attn``."""
    return projection(vocab, d_P) * (Z[:, -1] + Z * sp.Matrix(list(attn)))


def partial_wkq(vocab: Vocab, theta: Sequence[sp.Expr], omega: Sequence[sp.Expr], d_P: int = 7,
                fixed: sp.Expr = 0) -> sp.Matrix:
    """W^KQ with θ = W^KQ_{1:6,6}, ω = W^KQ_{1:7,7} (Section 2.3) and every other entry ``fixed``."""
    size = d_P + vocab.d
    M = sp.Matrix(size, size, lambda i, j: fixed)
    for i, t in enumerate(theta):
        M[i, 5] = t
    for i, w in enumerate(omega):
        M[i, 6] = w
    return M


# --- the IC-recall input and its logits -------------------------------------------------

def ic_sequence(vocab: Vocab, subjects: Sequence[int], relation: int) -> list[int]:
    """Z̃ = (s1, a1, s2, a2, s3, EoS) with a_i = r*(s_i) (Definition 1)."""
    r = vocab.relations[relation]
    toks: list[int] = []
    for s in subjects[:-1]:
        toks += [vocab.s(s), vocab.a(r[s])]
    return toks + [vocab.s(subjects[-1]), vocab.eos]


def step1_logits(vocab: Vocab, tokens: Sequence[int], v: Sequence[sp.Expr], d_P: int = 7) -> sp.Matrix:
    """All d logits φ(u)ᵀ f(Z) of the first decoding step when the attention from EoS is ``v``."""
    W, V = _construction_cached(vocab)
    Z = embed(vocab, tokens, d_P)
    return mlp(W, V, hidden(vocab, Z, v, d_P)).applyfunc(sp.expand)


@lru_cache(maxsize=32)
def _construction_cached(vocab: Vocab) -> tuple[sp.Matrix, sp.Matrix]:
    return construction(vocab)


# --- the n = 3 instance (Section 4.1, App. B) -------------------------------------------

class N3:
    """Symbols and derived quantities of the n = 3 warm-up, input (s1, a1, s2, a2, s3, EoS)."""

    v = sp.symbols("v1:7", nonnegative=True)  # attention from EoS over positions 1..6
    theta = sp.symbols("theta1:7", real=True)
    T = sp.Symbol("T", positive=True)

    def __init__(self) -> None:
        self.vocab = n3_vocab()
        self.tokens = ic_sequence(self.vocab, (0, 1, 2), 0)  # r* = r1, the correct relation

    @cached_property
    def all_logits(self) -> dict[str, sp.Expr]:
        """Every vocabulary logit as a polynomial in v (derived from the construction)."""
        lg = step1_logits(self.vocab, self.tokens, self.v)
        return {self.vocab.token_name(t): lg[t] for t in range(self.vocab.d)}

    @cached_property
    def relation_logits(self) -> list[sp.Expr]:
        """l(r1..r6) before division by T (the step-1 mask keeps these only)."""
        return [self.all_logits[f"r{k + 1}"] for k in range(6)]

    def p1(self) -> list[sp.Expr]:
        """p1 = softmax(l / T) over the six relations (Eq. (1) per sequence)."""
        return softmax([l / self.T for l in self.relation_logits])

    def L1(self) -> sp.Expr:
        """ℓ1(v) = −l(r1)/T + log Σ_j exp(l(r_j)/T) (App. E form of −log p1(r1))."""
        l = self.relation_logits
        return -l[0] / self.T + sp.log(sp.Add(*[sp.exp(t / self.T) for t in l]))

    def grad_v(self) -> list[sp.Expr]:
        """∂L1/∂v_i, i = 1..6, v treated as free coordinates (App. B convention)."""
        L = self.L1()
        return [sp.diff(L, vi) for vi in self.v]

    def softmax_theta(self) -> dict[sp.Symbol, sp.Expr]:
        """v = softmax(θ) as a substitution."""
        return dict(zip(self.v, softmax(self.theta)))

    def L1_theta(self) -> sp.Expr:
        return self.L1().xreplace(self.softmax_theta())

    def grad_theta(self) -> list[sp.Expr]:
        """∂L1/∂θ_i by the chain rule through v = softmax(θ) (not from Eq. (10))."""
        L = self.L1_theta()
        return [sp.diff(L, t) for t in self.theta]


@lru_cache(maxsize=1)
def n3() -> N3:
    return N3()
