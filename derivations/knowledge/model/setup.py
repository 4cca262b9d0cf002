"""Vocabulary, embeddings and the reconstruction choices (spec §1: Sec. 2–3 of the paper).

Tokens (spec §2.1, RECONSTRUCTED): the context token c, the Q&A format token f, subjects s_1..s_N,
answers a_1..a_N and relation phrases r_1..r_|𝓡|; all embeddings mutually orthogonal ("we assume all
token embeddings … are orthogonal", Sec. 3), so x_v = ‖x_v‖ e_{idx(v)} without loss of generality.
Norms: ‖s‖ = ‖r‖ = ‖a‖ = μ, ‖c‖ = μ_c (values lost; μ_c > μ "to embed subject-relation-answer
tokens within a 'rich' contextual environment"), ‖f‖ = 1 ("has unit magnitude", Sec. 3).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np


@dataclass(frozen=True)
class Recon:
    """Every choice the lost formulas force on a reproduction (spec §5), with its default."""

    mu: float = 1.0            # ‖s‖ = ‖r‖ = ‖a‖ (lost)
    mu_c: float = 2.0          # ‖c‖ (lost; μ_c > μ read from the prose)
    kappa: float = 1.0         # F = κ·MLP(attn) (Eq. 8; value and direction lost)
    m: int = 16                # neurons per output coordinate (Eq. 7)
    d_extra: int = 0           # embedding dimensions beyond one per token (d ≥ |vocabulary|)
    sigma0: float = 0.02       # init std of Z and W ("GPT-2 [std 0.02]", Condition 1.3)
    rare_relation: str = "shared-uniform"   # a rare pair's single phrase, drawn uniformly from 𝓡
    reweight_rare: bool = False  # App. J.1: rare gradients × K (experiments only)
    ft_params: str = "W"       # which parameters move in FT ("W" per Lemma 25's proof, or "W+Z")

    def record(self) -> dict:
        return {k: str(v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class Vocab:
    """Token indices: c = 0, f = 1, subjects, answers, relations (in that order)."""

    N: int
    R: int

    @property
    def c(self) -> int:
        return 0

    @property
    def f(self) -> int:
        return 1

    def s(self, i: int) -> int:
        return 2 + i

    def a(self, i: int) -> int:
        return 2 + self.N + i

    def r(self, j: int) -> int:
        return 2 + 2 * self.N + j

    @property
    def size(self) -> int:
        return 2 + 2 * self.N + self.R

    def relations(self) -> np.ndarray:
        return np.arange(self.r(0), self.r(0) + self.R)

    def answers(self) -> np.ndarray:
        return np.arange(self.a(0), self.a(0) + self.N)


def embeddings(vocab: Vocab, recon: Recon) -> np.ndarray:
    """E (d × |V|): column v is x_v = ‖x_v‖ e_v (orthogonal embeddings, Sec. 3)."""
    d = vocab.size + recon.d_extra
    norms = np.full(vocab.size, recon.mu)
    norms[vocab.c] = recon.mu_c
    norms[vocab.f] = 1.0
    E = np.zeros((d, vocab.size))
    E[np.arange(vocab.size), np.arange(vocab.size)] = norms
    return E
