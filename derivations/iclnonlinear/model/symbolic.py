"""The analysed model (Eqs. 6–7, Sec. 3.2) in SymPy, built from the token level.

Tokens are exactly features (Sec. 3.1, "we assume x = v_k"): prompt token i has class c_i ~ Cat(p)
i.i.d., the query has class c ~ Cat(p) (our reading of the query law).  With query v_c, the logit of
key i is x_iᵀ Q x_query = v_{c_i}ᵀ Q v_c = q_{c,c_i}, where the logit table (Sec. 5.1) is

    q_{k,k'} = v_{k'}ᵀ Q v_k          (row k = QUERY feature, column k' = KEY feature).

The population loss (Eq. 7) is an exact finite sum for small K, N: by exchangeability only the count
vector n = (|V_1|, …, |V_K|) matters, with multinomial weight N!/∏n_m! ∏p_m^{n_m}.  The aggregates
``Attn_m`` are *derived* here by summing the token-level softmax over the tokens of class m (Eq. 10);
nothing in this module is transcribed from the paper.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

import sympy as sp


def count_vectors(N: int, K: int) -> list[tuple[int, ...]]:
    """All (n_1, …, n_K) with n_m ≥ 0 and Σ n_m = N."""
    out = []
    for combo in combinations_with_replacement(range(K), N):
        out.append(tuple(combo.count(m) for m in range(K)))
    return out


def multinomial_weight(counts: tuple[int, ...], p) -> sp.Expr:
    """P(|V_1| = n_1, …, |V_K| = n_K) for N i.i.d. Cat(p) tokens."""
    coef = factorial(sum(counts))
    for n in counts:
        coef //= factorial(n)
    return sp.Integer(coef) * sp.Mul(*[pm**n for pm, n in zip(p, counts)])


def token_classes(counts: tuple[int, ...]) -> list[int]:
    """One token sequence with these counts (classes in order); the softmax is permutation invariant."""
    return [m for m, n in enumerate(counts) for _ in range(n)]


def token_attention(counts: tuple[int, ...], q_row) -> list[sp.Expr]:
    """attn_i = softmax_i(x_iᵀ Q x_query) over the N prompt tokens (Eq. 6), query row of q given."""
    logits = [q_row[c] for c in token_classes(counts)]
    z = sp.Add(*[sp.exp(s) for s in logits])
    return [sp.exp(s) / z for s in logits]


def attn_aggregates(counts: tuple[int, ...], q_row) -> list[sp.Expr]:
    """Attn_m = Σ_{i: x_i = v_m} attn_i (Sec. 4), summed from the token-level softmax."""
    attn = token_attention(counts, q_row)
    classes = token_classes(counts)
    return [sp.Add(*[a for a, c in zip(attn, classes) if c == m]) for m in range(len(counts))]


def prediction(counts, q_row, f) -> sp.Expr:
    """ŷ_query = Σ_i attn_i y_i with y_i = f(x_i) (Eq. 6, last column)."""
    attn = token_attention(counts, q_row)
    return sp.Add(*[a * f[c] for a, c in zip(attn, token_classes(counts))])


@dataclass(frozen=True)
class Symbols:
    K: int
    q: sp.Matrix  # K×K logit table, q[k, k'] = v_{k'}ᵀ Q v_k
    p: tuple[sp.Symbol, ...]
    f: tuple[sp.Symbol, ...]

    @property
    def q_flat(self) -> tuple[sp.Symbol, ...]:
        return tuple(self.q)


@lru_cache(maxsize=None)
def symbols(K: int) -> Symbols:
    q = sp.Matrix(K, K, lambda i, j: sp.Symbol(f"q_{i + 1}_{j + 1}", real=True))
    p = sp.symbols(f"p1:{K + 1}", positive=True)
    f = sp.symbols(f"f1:{K + 1}", real=True)
    return Symbols(K, q, tuple(p), tuple(f))


@dataclass(frozen=True)
class PopulationModel:
    """The population quantities for one (K, N) with one task f (a point mass D_f; a mixture of
    tasks is the average of these, all being linear in the law of f)."""

    K: int
    N: int
    sym: Symbols

    def terms(self):
        """(query class c, counts n, weight p_c·P(n)) over every prompt with N ≥ 1 tokens."""
        s = self.sym
        for c in range(self.K):
            for n in count_vectors(self.N, self.K):
                yield c, n, s.p[c] * multinomial_weight(n, s.p)

    @property
    def loss(self) -> sp.Expr:
        """Eq. 7: L = ½ E[(ŷ_query − f(x_query))²], exact by enumeration."""
        s = self.sym
        return sp.Rational(1, 2) * sp.Add(*[w * (prediction(n, s.q.row(c), s.f) - s.f[c])**2
                                            for c, n, w in self.terms()])

    def expect(self, integrand) -> sp.Expr:
        """E[integrand(c, n)] over the query class c and the counts n (weights included)."""
        return sp.Add(*[w * integrand(c, n) for c, n, w in self.terms()])

    def dloss_dq(self) -> sp.Matrix:
        """∂L/∂q_{k,k'} by SymPy differentiation of the enumerated loss."""
        L = self.loss
        return self.sym.q.applyfunc(lambda x: sp.diff(L, x))

    def H_closed_form(self) -> sp.Matrix:
        """Derived: −∂L/∂q_{c,m} = E[1{x_q = v_c} Attn_m (f(v_c) − ŷ)(f(v_m) − ŷ)].

        (∂ŷ/∂q_{c,m} = Attn_m (f_m − ŷ) by the softmax derivative over classes.)"""
        s = self.sym

        def entry(c0, m):
            def integrand(c, n):
                if c != c0:
                    return sp.Integer(0)
                A = attn_aggregates(n, s.q.row(c))
                y = prediction(n, s.q.row(c), s.f)
                return A[m] * (s.f[c] - y) * (s.f[m] - y)
            return self.expect(integrand)
        return sp.Matrix(self.K, self.K, entry)


@lru_cache(maxsize=None)
def population(K: int, N: int) -> PopulationModel:
    return PopulationModel(K, N, symbols(K))


def logit_table(Q: sp.Matrix, V: sp.Matrix) -> sp.Matrix:
    """q_{k,k'} = v_{k'}ᵀ Q v_k for V = [v_1 … v_K] (d×K): q = Vᵀ Qᵀ V."""
    return V.T * Q.T * V


def g_from_H(G, H):
    """Derived (chain rule through q = Vᵀ Qᵀ V): with g_{k,k'} := −v_{k'}ᵀ ∇_Q L v_k and
    H = −∂L/∂q, ∇_Q L = Σ_{c,m} (∂L/∂q_{c,m}) v_m v_cᵀ, hence g = G H G with G = VᵀV the Gram matrix.
    Orthonormal features: g = H; scaled orthogonal (‖v‖ = r): g = r⁴ H."""
    return G @ H @ G
