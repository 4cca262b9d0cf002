"""The synthetic knowledge data (Sec. 3; spec §2.4, RECONSTRUCTED from the prose).

Pairs (s_i, a_i), i ∈ [N], N = N_f + N_r (frequent first).  Frequent pair i gets K distinct relation
phrases R_i ⊂ 𝓡 drawn uniformly without replacement (Lemma 9: "randomly select a subset of [K]
distinct elements … without replacement"); a rare pair gets one phrase, drawn uniformly from 𝓡 (the
paper's "single unique relation phrase", read as "single"; recorded as ``Recon.rare_relation``).
Each (i, r) gives the sentence c s_i r a_i [EOS] and the two next-token samples
([c, s_i] → r) and ([c, s_i, r] → a_i) (the paper drops (c → s) and ignores EOS), so
|D| = 2 (K N_f + N_r).  Q&A: ([s_i, f] → a_i) for all i; FT: a random proportion β of the frequent
Q&A pairs (Ñ_f = round(β N_f)); OOD test set: D_QA ∖ D_FT (unseen frequent and all rare pairs).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .setup import Recon, Vocab

PAD = -1


@dataclass(frozen=True)
class Dataset:
    """Inputs as token indices (n × 3, left-aligned, PAD after the last token), targets (n,),
    loss weights (n,) and the pair index i of each sample (n,)."""

    tokens: np.ndarray
    targets: np.ndarray
    weights: np.ndarray
    pair: np.ndarray

    def __len__(self) -> int:
        return len(self.targets)

    def subset(self, mask: np.ndarray) -> "Dataset":
        return Dataset(self.tokens[mask], self.targets[mask], self.weights[mask], self.pair[mask])


@dataclass(frozen=True)
class Knowledge:
    vocab: Vocab
    N_f: int
    N_r: int
    K: int
    relations: tuple[tuple[int, ...], ...]   # R_i (relation numbers, not token indices)
    ft_pairs: np.ndarray                      # frequent pairs in D_FT

    @property
    def N(self) -> int:
        return self.N_f + self.N_r

    def ntp(self, recon: Recon) -> Dataset:
        """The next-token-prediction dataset D (Eq. 9)."""
        v, rows, targets, weights, pair = self.vocab, [], [], [], []
        for i, Ri in enumerate(self.relations):
            w = float(self.K) if (recon.reweight_rare and i >= self.N_f) else 1.0
            for r in Ri:
                rows += [[v.c, v.s(i), PAD], [v.c, v.s(i), v.r(r)]]
                targets += [v.r(r), v.a(i)]
                weights += [w, w]
                pair += [i, i]
        return Dataset(np.array(rows), np.array(targets), np.array(weights), np.array(pair))

    def qa(self, pairs: np.ndarray | None = None) -> Dataset:
        """([s_i, f] → a_i) for the given pairs (default: all of D_QA)."""
        v = self.vocab
        pairs = np.arange(self.N) if pairs is None else np.asarray(pairs)
        rows = np.array([[v.s(i), v.f, PAD] for i in pairs]).reshape(-1, 3)
        return Dataset(rows, np.array([v.a(i) for i in pairs], dtype=int), np.ones(len(pairs)), pairs)

    def ft(self) -> Dataset:
        return self.qa(self.ft_pairs)

    def ood(self) -> Dataset:
        return self.qa(np.setdiff1d(np.arange(self.N), self.ft_pairs))

    def covered_relations(self) -> set[int]:
        """Relations appearing in the FT pairs' phrase sets (the relation-covering mechanism)."""
        return {r for i in self.ft_pairs for r in self.relations[i]}


def make(N_f: int, N_r: int, K: int, R: int, beta: float, seed: int, recon: Recon = Recon()) -> Knowledge:
    """Draw the phrase sets and the FT subset (spec §2.4)."""
    if not (1 <= K <= R):
        raise ValueError(f"need 1 ≤ K ≤ |𝓡|, got K={K}, |𝓡|={R}")
    if not 0 < beta <= 1:
        raise ValueError(f"β must be in (0, 1], got {beta}")
    rng = np.random.default_rng(seed)
    rels = [tuple(sorted(rng.choice(R, size=K, replace=False).tolist())) for _ in range(N_f)]
    if recon.rare_relation != "shared-uniform":
        raise ValueError(f"unknown rare-relation reading {recon.rare_relation!r}")
    rels += [(int(rng.integers(R)),) for _ in range(N_r)]
    n_ft = max(1, round(beta * N_f))
    ft = np.sort(rng.choice(N_f, size=n_ft, replace=False))
    return Knowledge(Vocab(N_f + N_r, R), N_f, N_r, K, tuple(rels), ft)


def ntp_size(N_f: int, N_r: int, K: int) -> int:
    """|D| = 2 (K N_f + N_r) — derived from the construction above (the paper's formula is lost)."""
    return 2 * (K * N_f + N_r)
