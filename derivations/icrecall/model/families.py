"""Relation families, Assumptions 1/2, IC-recall sequences and their classification (exact).

Reusable by every IC-recall claim module.  Everything is exact (numpy int64 / Python ints /
``Fraction``); nothing here is copied from a printed formula.

* Families (spec §0): F-all3, F-aff(p), F-agl(q) (the affine group over GF(q), q a prime power),
  F-cyc(n) (cyclic shifts), F-rand(n, m), F-greedy(n), F-paper(n, m).
* Assumption 1 (Section 2.2) under both readings (spec §1.4): ``"distinct"`` (s1 ≠ s2 only) and
  ``"printed"`` (the quantifier as printed, s1 = s2 allowed).  Two bijections r ≠ r' violate the
  distinct reading iff they agree on ≥ 2 subjects, the printed reading iff they agree on ≥ 1.
  The k-example analogue ("any k pairs identify at most one relation") is agreement ≤ k − 1.
* Sequences of P_IC (Definition 1): every relation r* × every ordered triple of distinct
  subjects, uniform; the k-matching / confusing / mismatched classification of Section 4.2.
* The Lemma-3 construction (App. A) as integer matrices in token coordinates (one-hot φ), with
  the token order of ``model.Vocab``: subjects, relations, answers, EoS.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import permutations
from typing import Callable, Sequence

import numpy as np
from hypothesis import strategies as st

from theoryverify import examples
from theoryverify import strategies as _strategies

from .symbolic import TABLE1_RELATIONS, Vocab

Relation = tuple[int, ...]
READINGS = ("distinct", "printed")


# --- families (spec §0) -------------------------------------------------------------------

@dataclass(frozen=True)
class Family:
    """A named relation set R (bijections of range(n), r[s] = answer index)."""

    name: str
    n: int
    relations: tuple[Relation, ...]

    @property
    def m(self) -> int:
        return len(self.relations)

    @cached_property
    def array(self) -> np.ndarray:
        """m × n int array, row k = r_k."""
        return np.asarray(self.relations, dtype=np.int64).reshape(self.m, self.n)

    @cached_property
    def inverse(self) -> np.ndarray:
        """m × n int array, inverse[k, a] = r_k^{-1}(a)."""
        inv = np.empty_like(self.array)
        rows = np.arange(self.m)[:, None]
        inv[rows, self.array] = np.arange(self.n)[None, :]
        return inv

    @cached_property
    def vocab(self) -> Vocab:
        return Vocab(self.n, self.relations)

    def describe(self) -> dict:
        return {"family": self.name, "n": self.n, "m": self.m}


def f_all3() -> Family:
    """F-all3: n = 3, all 6 bijections, in Table 1's order."""
    return Family("F-all3", 3, TABLE1_RELATIONS)


def f_aff(p: int) -> Family:
    """F-aff(p): x ↦ a·x + b mod p, a ≠ 0 (p prime)."""
    rels = tuple(tuple((a * x + b) % p for x in range(p)) for a in range(1, p) for b in range(p))
    return Family(f"F-aff({p})", p, rels)


_GF_MODULUS = {2: 0b111, 3: 0b1011}  # x²+x+1 (GF(4)), x³+x+1 (GF(8))


def _gf2k_mul(x: int, y: int, k: int) -> int:
    out = 0
    for i in range(k):
        if (y >> i) & 1:
            out ^= x << i
    for i in range(2 * k - 2, k - 1, -1):
        if (out >> i) & 1:
            out ^= _GF_MODULUS[k] << (i - k)
    return out


def f_agl(q: int) -> Family:
    """F-agl(q): the affine maps x ↦ a·x + b over GF(q), a ≠ 0, for q prime or q ∈ {4, 8}.
    A sharply 2-transitive set of q(q − 1) bijections (attains the bound of ICR-A1-size)."""
    if q in (4, 8):
        k = {4: 2, 8: 3}[q]
        rels = tuple(tuple(_gf2k_mul(a, x, k) ^ b for x in range(q)) for a in range(1, q) for b in range(q))
        return Family(f"F-agl({q})", q, rels)
    fam = f_aff(q)
    return Family(f"F-agl({q})", q, fam.relations)


def f_cyc(n: int) -> Family:
    """F-cyc(n): the n cyclic shifts x ↦ x + b mod n (a Latin square; attains |R| = n)."""
    return Family(f"F-cyc({n})", n, tuple(tuple((x + b) % n for x in range(n)) for b in range(n)))


def f_rand(n: int, m: int, rng: np.random.Generator, name: str | None = None) -> Family:
    """F-rand(n, m) / F-paper(n, m): m random bijections of [n] (distinct; no assumption)."""
    seen: list[Relation] = []
    while len(seen) < m:
        r = tuple(int(x) for x in rng.permutation(n))
        if r not in seen:
            seen.append(r)
    return Family(name or f"F-rand({n},{m})", n, tuple(seen))


def f_paper(n: int, m: int, rng: np.random.Generator) -> Family:
    """F-paper(n, m): the Section-5 relation sets, m random (distinct) bijections of [n]."""
    return f_rand(n, m, rng, name=f"F-paper({n},{m})")


def f_greedy(n: int, rng: np.random.Generator, reading: str = "distinct", tries: int = 4000) -> Family:
    """F-greedy(n): scan ``tries`` random bijections and add each one while Assumption 1 still
    holds (vectorised: a candidate stays alive while compatible with every chosen relation)."""
    limit = max_agreement(reading)
    cands = rng.permuted(np.tile(np.arange(n), (tries, 1)), axis=1)
    alive = np.ones(tries, dtype=bool)
    rels: list[Relation] = []
    start = 0
    while True:
        idx = np.flatnonzero(alive[start:])
        if idx.size == 0:
            break
        i = start + int(idx[0])
        chosen = cands[i]
        rels.append(tuple(int(x) for x in chosen))
        alive &= (cands == chosen[None, :]).sum(axis=1) <= limit
        start = i + 1
    return Family(f"F-greedy({n})", n, tuple(rels))


# --- Assumption 1 (Section 2.2), both readings ---------------------------------------------

def max_agreement(reading: str = "distinct", examples: int = 2) -> int:
    """Largest allowed number of agreeing subjects between two distinct relations.
    ``examples`` = k: "any k (s, a) pairs identify at most one relation" (k = 2 is Assumption 1)."""
    if reading not in READINGS:
        raise ValueError(f"unknown reading {reading!r}")
    return 0 if reading == "printed" else examples - 1


def agreement_matrix(fam: Family) -> np.ndarray:
    """agree[i, j] = #{s : r_i(s) = r_j(s)} (diagonal = n)."""
    A = fam.array
    return (A[:, None, :] == A[None, :, :]).sum(axis=2)


def a1_violation(fam: Family, reading: str = "distinct", examples: int = 2) -> dict | None:
    """The first instance violating Assumption 1 (its k-example analogue), or None."""
    agree = agreement_matrix(fam)
    np.fill_diagonal(agree, -1)
    limit = max_agreement(reading, examples)
    bad = np.argwhere(agree > limit)
    if bad.size == 0:
        return None
    i, j = (int(x) for x in bad[0])
    common = [s for s in range(fam.n) if fam.relations[i][s] == fam.relations[j][s]]
    k = max(1, min(examples, len(common)))
    subj = common[:k] if reading == "distinct" else [common[0]] * 2
    return {**fam.describe(), "reading": reading, "examples": examples,
            "subjects": subj, "answers": [fam.relations[i][s] for s in subj],
            "relations": [fam.relations[i], fam.relations[j]], "count": 2}


def max_pair_agreement(fam: Family) -> int:
    """max_{r ≠ r'} #{s : r(s) = r'(s)} (−1 for a single relation)."""
    agree = agreement_matrix(fam)
    np.fill_diagonal(agree, -1)
    return int(agree.max())


def satisfies_a1(fam: Family, reading: str = "distinct", examples: int = 2) -> bool:
    return max_pair_agreement(fam) <= max_agreement(reading, examples)


def keep_a1(reading: str = "distinct") -> Callable[[list[Relation], Relation], bool]:
    """``keep`` predicate for ``strategies.relation_sets``: the candidate keeps Assumption 1."""
    limit = max_agreement(reading)

    def keep(current: list[Relation], cand: Relation) -> bool:
        return all(sum(x == y for x, y in zip(r, cand)) <= limit for r in current)
    return keep


def hypothesis_draws(strategy: st.SearchStrategy, seed: int, n: int) -> list:
    """``n`` examples of a Hypothesis strategy, deterministic given ``seed`` (principle 5)."""
    return examples(strategy, seed, n)


def hypothesis_families(seed: int, count: int, ns: Sequence[int], max_m: Callable[[int], int],
                        reading: str | None = "distinct", label: str = "F-hyp") -> list[Family]:
    """Random relation sets from ``strategies.relation_sets`` (Assumption 1 kept by construction
    when ``reading`` is given), n drawn from ``ns``."""
    keep = keep_a1(reading) if reading else None
    strat = st.sampled_from(list(ns)).flatmap(
        lambda n: st.tuples(st.just(n), _strategies.relation_sets(n, max_m(n), keep=keep)))
    fams = []
    for i, (n, rels) in enumerate(hypothesis_draws(strat, seed, count)):
        fams.append(Family(f"{label}#{i}(n={n},m={len(rels)})", n, tuple(rels)))
    return fams


# --- IC-recall sequences (Definition 1) and their classification (Section 4.2) ------------

@dataclass(frozen=True)
class Sequences:
    """All (or a sample of) IC-recall sequences of a family: columns r*, s1, s2, s3 and
    a_i = r*(s_i).  Uniform weights = P_IC when all sequences are present."""

    fam: Family
    rstar: np.ndarray
    s: np.ndarray  # N × 3
    a: np.ndarray  # N × 3

    @property
    def N(self) -> int:
        return len(self.rstar)

    def row(self, i: int) -> dict:
        return {**self.fam.describe(), "r*": self.fam.relations[int(self.rstar[i])],
                "s1,s2,s3": [int(x) for x in self.s[i]], "a1,a2,a3": [int(x) for x in self.a[i]]}

    @cached_property
    def matches(self) -> np.ndarray:
        """N × m × 3 × 2 booleans 1{r(s_i) = a_j}, i = 1..3, j = 1..2 (the indicator of Eq. (18))."""
        img = self.fam.array[:, self.s]  # m × N × 3: r(s_i)
        img = np.transpose(img, (1, 0, 2))  # N × m × 3
        return img[:, :, :, None] == self.a[:, None, None, :2]

    @cached_property
    def matching(self) -> np.ndarray:
        """N × m: k with r 'k-matching' = #{j ∈ {1,2} : r^{-1}(a_j) ∈ {s1, s2, s3}}."""
        return self.matches.any(axis=2).sum(axis=2)

    @cached_property
    def confusing_rel(self) -> np.ndarray:
        """N × m: r(s1) = a2 and r(s2) = a1."""
        M = self.matches
        return M[:, :, 0, 1] & M[:, :, 1, 0]

    @cached_property
    def mismatched_rel(self) -> np.ndarray:
        """N × m: r 2-matching and r(s3) ∈ {a1, a2}."""
        M = self.matches
        return (self.matching == 2) & (M[:, :, 2, 0] | M[:, :, 2, 1])

    @cached_property
    def consistent(self) -> np.ndarray:
        """N × m: r(s1) = a1 and r(s2) = a2 (the relations the context allows)."""
        M = self.matches
        return M[:, :, 0, 0] & M[:, :, 1, 1]

    @property
    def I(self) -> np.ndarray:  # noqa: E743 - the paper's name
        """I(Z) = number of 2-matching relations."""
        return (self.matching == 2).sum(axis=1)

    @property
    def is_confusing(self) -> np.ndarray:
        return self.confusing_rel.any(axis=1)

    @property
    def is_mismatched(self) -> np.ndarray:
        return self.mismatched_rel.any(axis=1)


def all_sequences(fam: Family) -> Sequences:
    """Every IC-recall sequence: each r* × each ordered triple of distinct subjects."""
    trip = np.asarray(list(permutations(range(fam.n), 3)), dtype=np.int64)
    rstar = np.repeat(np.arange(fam.m), len(trip))
    s = np.tile(trip, (fam.m, 1))
    return Sequences(fam, rstar, s, fam.array[rstar[:, None], s])


def sample_sequences(fam: Family, size: int, rng: np.random.Generator) -> Sequences:
    """A sample D of P_IC (Definition 1): r* uniform, three distinct subjects uniform."""
    rstar = rng.integers(0, fam.m, size=size)
    s = np.stack([rng.permutation(fam.n)[:3] for _ in range(size)]).astype(np.int64)
    return Sequences(fam, rstar, s, fam.array[rstar[:, None], s])


def subset(seqs: Sequences, mask: np.ndarray) -> Sequences:
    return Sequences(seqs.fam, seqs.rstar[mask], seqs.s[mask], seqs.a[mask])


def fractions(seqs: Sequences) -> dict[str, Fraction]:
    """p_conf, p_mis (fractions of confusing / mismatched sequences, Section 4.2)."""
    N = seqs.N
    return {"p_conf": Fraction(int(seqs.is_confusing.sum()), N),
            "p_mis": Fraction(int(seqs.is_mismatched.sum()), N)}


def bayes_first_step(fam: Family, examples: int = 2) -> Fraction:
    """Bayes-optimal first-step accuracy under P_IC: E[max_r posterior(r | context)].
    The subject draw is independent of r*, so the posterior is uniform over the relations
    consistent with the k in-context pairs, and the expectation equals
    (1 / (m · #ordered k-tuples)) Σ_{ordered distinct (s_1..s_k)} #{distinct (r(s_1), …, r(s_k))}."""
    tup = np.asarray(list(permutations(range(fam.n), examples)), dtype=np.int64)  # K × k
    imgs = fam.array[:, tup]  # m × K × k
    codes = (imgs * (fam.n ** np.arange(examples))[None, None, :]).sum(axis=2)  # m × K
    codes = np.sort(codes, axis=0)
    distinct = 1 + (np.diff(codes, axis=0) != 0).sum(axis=0)  # K
    return Fraction(int(distinct.sum()), fam.m * len(tup))


def bayes_answer(seqs: "Sequences") -> Fraction:
    """Bayes-optimal accuracy for a3 given the context (s1, a1, s2, a2, s3) (no relation step):
    E[max_a #{consistent r : r(s3) = a} / #{consistent r}] over the given sequences."""
    cons = seqs.consistent  # N × m
    img3 = seqs.fam.array[:, seqs.s[:, 2]].T  # N × m: r(s3)
    total = Fraction(0)
    for i in range(seqs.N):
        vals = img3[i][cons[i]]
        total += Fraction(int(np.bincount(vals).max()), int(cons[i].sum()))
    return total / seqs.N


# --- Lemma 3 (App. A): the construction as integer matrices -------------------------------

def construction_int(fam: Family) -> tuple[np.ndarray, np.ndarray]:
    """(W, V) ∈ Z^{3n² × d} of Lemma 3 with one-hot φ (token order of ``model.Vocab``):
    pair i = (s, a) (s-major) owns rows 3i−2, 3i−1, 3i:
    W: φ(s) + Σ_{r∈R(s,a)} φ(r), φ(a) + φ(s), φ(a) + Σ φ(r);  V: φ(a), Σ φ(r), φ(s)."""
    voc = fam.vocab
    n, m = fam.n, fam.m
    W = np.zeros((3 * n * n, voc.d), dtype=np.int64)
    V = np.zeros_like(W)
    for s in range(n):
        for a in range(n):
            i = 3 * (s * n + a)
            rel = [voc.r(k) for k in range(m) if fam.relations[k][s] == a]
            W[i, voc.s(s)] = 1
            W[i, rel] = 1
            W[i + 1, [voc.a(a), voc.s(s)]] = 1
            W[i + 2, voc.a(a)] = 1
            W[i + 2, rel] = 1
            V[i, voc.a(a)] = 1
            V[i + 1, rel] = 1
            V[i + 2, voc.s(s)] = 1
    return W, V


def mlp_int(W: np.ndarray, V: np.ndarray, X: np.ndarray) -> np.ndarray:
    """f_MLP for each column of X (d × Q): Vᵀ σ(W X), σ(x) = x² (exact integers)."""
    pre = W @ X
    return V.T @ (pre * pre)


def step1_token_matrix(seqs: Sequences) -> np.ndarray:
    """N × 6 token indices (s1, a1, s2, a2, s3, EoS) in ``model.Vocab`` order."""
    voc = seqs.fam.vocab
    n, m = seqs.fam.n, seqs.fam.m
    s, a = seqs.s, seqs.a
    eos = np.full(seqs.N, voc.eos)
    return np.stack([s[:, 0], n + m + a[:, 0], s[:, 1], n + m + a[:, 1], s[:, 2], eos], axis=1)


def step1_gram(W: np.ndarray, V: np.ndarray, tokens: np.ndarray, outputs: np.ndarray) -> np.ndarray:
    """Exact quadratic forms of the step-1 logits: with w = (v1, …, v6, 1) and
    h = φ(EoS) + Σ_i v_i φ(u_i) (the hidden state of ICR-S23-h),
    φ(u)ᵀ f = wᵀ G_u w.  Returns G of shape (N, len(outputs), 7, 7), symmetric, integer."""
    d = W.shape[1]
    N = tokens.shape[0]
    H = np.zeros((N, d, 7), dtype=np.int64)
    rows = np.arange(N)
    for i in range(6):
        H[rows, tokens[:, i], i] += 1
    H[rows, tokens[:, 5], 6] += 1  # the residual z_{-1} = φ(EoS)
    WH = np.einsum("kd,ndp->nkp", W, H)  # N × 3n² × 7
    Vo = V[:, outputs]  # 3n² × U
    return np.einsum("nkp,ku,nkq->nupq", WH, Vo, WH)
