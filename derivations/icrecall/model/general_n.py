"""General-n first decoding step (App. C): per-sequence logits, losses and gradients derived
from the model of ``model.py`` (Lemma 3 construction + Section 2.1 architecture).

Nothing here is taken from Eq. (18) or the App. C gradient list.  For each IC-recall sequence
(s1, a1, s2, a2, s3, EoS) the relation logits are exact quadratic forms in the augmented
attention vector ṽ = (v1, …, v6, 1) (the trailing 1 is the residual EoS token):

    l(r) = ṽᵀ Q_r ṽ,   Q_r = W_Zᵀ diag(V[:, r]) W_Z,   W_Z = W[:, tokens] (+ W[:, EoS] in the last column)

which is f = Vᵀ σ(W h) with h = φ(EoS) + Σ_i v_i φ(u_i) written out (σ(x) = x²).  The entries of
Q_r are integers (the construction has 0/1 entries), so float64 holds them exactly.

Sequence types (Section 4.2) are classified by local predicates on the relations themselves
(2-matching, confusing, mismatched); they do not use the model.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Sequence

import numpy as np
import sympy as sp
from scipy.special import logsumexp, softmax as np_softmax

from .symbolic import Relation, Vocab, construction, ic_sequence, softmax

# --- relation families (catalogue §0) ------------------------------------------------------


def affine_family(p: int) -> Vocab:
    """F-aff(p): x ↦ a·x + b mod p, a ≠ 0, on S = A = Z_p."""
    rels = tuple(tuple((a * s + b) % p for s in range(p)) for a in range(1, p) for b in range(p))
    return Vocab(p, rels)


def satisfies_assumption1(rels: Sequence[Relation], cand: Relation) -> bool:
    """Assumption 1 (reading s1 ≠ s2): ``cand`` shares at most one (s, a) pair with each relation."""
    return all(sum(x == y for x, y in zip(r, cand)) <= 1 for r in rels)


def greedy_family(n: int, seed: int, tries: int = 400) -> Vocab:
    """F-greedy(n): random bijections added one at a time while Assumption 1 still holds."""
    rnd = np.random.default_rng(seed)
    rels: list[Relation] = []
    for _ in range(tries):
        c = tuple(int(x) for x in rnd.permutation(n))
        if c not in rels and satisfies_assumption1(rels, c):
            rels.append(c)
    return Vocab(n, tuple(rels))


# --- sequences and their types (Section 4.2, Lemma 9) ---------------------------------------

@dataclass(frozen=True)
class Seq:
    subjects: tuple[int, int, int]
    relation: int  # index of r* in vocab.relations


def matches(vocab: Vocab, seq: Seq, k: int) -> frozenset[tuple[int, int]]:
    """{(i, j) : r_k(s_i) = a_j}, i ∈ {1,2,3}, j ∈ {1,2} (a_j = r*(s_j))."""
    r, rs = vocab.relations[k], vocab.relations[seq.relation]
    a = [rs[seq.subjects[0]], rs[seq.subjects[1]]]
    return frozenset((i + 1, j + 1) for i in range(3) for j in range(2) if r[seq.subjects[i]] == a[j])


def matching_number(vocab: Vocab, seq: Seq, k: int) -> int:
    """k-matching: the number of subjects among s1, s2, s3 that r maps into {a1, a2}."""
    return len(matches(vocab, seq, k))


def is_confusing_relation(vocab, seq, k) -> bool:
    return {(1, 2), (2, 1)} <= matches(vocab, seq, k)


def is_mismatched_relation(vocab, seq, k) -> bool:
    m = matches(vocab, seq, k)
    return len(m) == 2 and any(i == 3 for i, _ in m)


def sequence_type(vocab: Vocab, seq: Seq) -> dict[str, object]:
    ks = range(vocab.m)
    return {
        "I": sum(matching_number(vocab, seq, k) == 2 for k in ks),
        "N1": sum(matching_number(vocab, seq, k) == 1 for k in ks),
        "N0": sum(matching_number(vocab, seq, k) == 0 for k in ks),
        "confusing": any(is_confusing_relation(vocab, seq, k) for k in ks),
        "mismatched": any(is_mismatched_relation(vocab, seq, k) for k in ks),
    }


def all_sequences(vocab: Vocab) -> list[Seq]:
    return [Seq(tuple(s), k) for s in permutations(range(vocab.n), 3) for k in range(vocab.m)]


def sample_sequences(vocab: Vocab, size: int, seed: int) -> list[Seq]:
    """i.i.d. draws from P_IC (Definition 1): r* uniform, three distinct ordered subjects."""
    rnd = np.random.default_rng(seed)
    out = []
    for _ in range(size):
        s = tuple(int(x) for x in rnd.choice(vocab.n, 3, replace=False))
        out.append(Seq(s, int(rnd.integers(vocab.m))))
    return out


# --- relation logits as quadratic forms, derived from the construction ---------------------

@lru_cache(maxsize=16)
def _construction_np(vocab: Vocab) -> tuple[np.ndarray, np.ndarray]:
    W, V = construction(vocab)
    return np.array(W.tolist(), dtype=np.float64), np.array(V.tolist(), dtype=np.float64)


def quadratic_forms(vocab: Vocab, seqs: Sequence[Seq]) -> np.ndarray:
    """Q ∈ Z^{S×m×7×7} with l(r_k) = ṽᵀ Q[s, k] ṽ, ṽ = (v1..v6, 1), for every sequence s.

    Q[s, k] = Σ_rows V[row, r_k] · w_row w_rowᵀ over the rows where V[:, r_k] ≠ 0, with
    w_row = W[row, (u_1, …, u_6, EoS)] (the last entry is the residual EoS token)."""
    W, V = _construction_np(vocab)
    toks = np.array([ic_sequence(vocab, s.subjects, s.relation) + [vocab.eos] for s in seqs])  # (S, 7)
    WZ = np.transpose(W[:, toks], (1, 0, 2))  # (S, 3n², 7)
    cols = V[:, [vocab.r(k) for k in range(vocab.m)]]  # (3n², m)
    width = max(int((cols[:, k] != 0).sum()) for k in range(vocab.m))
    rows = np.zeros((vocab.m, width), dtype=int)
    vals = np.zeros((vocab.m, width))
    for k in range(vocab.m):
        nz = np.flatnonzero(cols[:, k])
        rows[k, :len(nz)], vals[k, :len(nz)] = nz, cols[nz, k]
    G = WZ[:, rows]  # (S, m, width, 7)
    return np.einsum("smna,mn,smnb->smab", G, vals, G)


def sequence_types(vocab: Vocab, seqs: Sequence[Seq]) -> dict[str, np.ndarray]:
    """Vectorised :func:`sequence_type` for many sequences (same predicates)."""
    R = np.array(vocab.relations)  # (m, n)
    S = np.array([s.subjects for s in seqs])  # (S, 3)
    rs = np.array([s.relation for s in seqs])
    a = R[rs[:, None], S[:, :2]]  # (S, 2): a1, a2
    img = R[:, S].transpose(1, 0, 2)  # (S, m, 3): r(s_i)
    M = img[..., :, None] == a[:, None, None, :]  # (S, m, 3, 2)
    k = M.any(axis=3).sum(axis=2)  # matching number
    conf = M[:, :, 0, 1] & M[:, :, 1, 0]
    mis = (k == 2) & M[:, :, 2, :].any(axis=2)
    return {"I": (k == 2).sum(1), "N1": (k == 1).sum(1), "N0": (k == 0).sum(1),
            "confusing": conf.any(1), "mismatched": mis.any(1), "k": k}


def aug(v) -> np.ndarray:
    return np.concatenate([np.asarray(v, dtype=np.float64), [1.0]])


@dataclass
class Batch:
    """A list of sequences with their derived quadratic forms and type flags."""
    vocab: Vocab
    seqs: list[Seq]
    Q: np.ndarray  # (S, m, 7, 7)
    target: np.ndarray  # (S,) index of r*
    types: dict[str, np.ndarray]

    @classmethod
    def build(cls, vocab: Vocab, seqs: Sequence[Seq]) -> "Batch":
        seqs = list(seqs)
        return cls(vocab, seqs, quadratic_forms(vocab, seqs), np.array([s.relation for s in seqs]),
                   sequence_types(vocab, seqs))

    def flag(self, name: str) -> np.ndarray:
        return np.asarray(self.types[name], dtype=bool)

    def counts(self, name: str) -> np.ndarray:
        return np.asarray(self.types[name])

    def take(self, idx) -> "Batch":
        idx = np.asarray(idx, dtype=int)
        return Batch(self.vocab, [self.seqs[i] for i in idx], self.Q[idx], self.target[idx],
                     {k: v[idx] for k, v in self.types.items()})

    def subset(self, mask) -> "Batch":
        return self.take(np.flatnonzero(mask))

    def __len__(self) -> int:
        return len(self.seqs)

    # float64 quantities at a shared attention vector v --------------------------------------
    def logits(self, v) -> np.ndarray:
        t = aug(v)
        return (self.Q @ t) @ t

    def logit_grads(self, v) -> np.ndarray:
        """∂l(r)/∂v_i, shape (S, m, 6)."""
        t = aug(v)
        return (self.Q @ t + t @ self.Q)[..., :6]

    def probs(self, v, T: float) -> np.ndarray:
        return np_softmax(self.logits(v) / T, axis=1)

    def p_target(self, v, T) -> np.ndarray:
        return self.probs(v, T)[np.arange(len(self.seqs)), self.target]

    def p_rest(self, v, T) -> np.ndarray:
        """1 − p1(r*) computed without cancellation: Σ_{r ≠ r*} p(r)."""
        p = self.probs(v, T)
        p[np.arange(len(self.seqs)), self.target] = 0.0
        return p.sum(1)

    def losses(self, v, T) -> np.ndarray:
        """ℓ1(v; Z, T) = −l(r*)/T + log Σ_r exp(l(r)/T) (App. E form)."""
        l = self.logits(v) / T
        return -l[np.arange(len(self.seqs)), self.target] + logsumexp(l, axis=1)

    def grads_v(self, v, T) -> np.ndarray:
        """∂ℓ1/∂v per sequence, (S, 6): (1/T)(Σ_r p(r) ∇l(r) − ∇l(r*))."""
        p = self.probs(v, T)
        G = self.logit_grads(v)
        own = G[np.arange(len(self.seqs)), self.target]
        return np.einsum("sm,smi->si", p, G - own[:, None, :]) / T  # Σ_r p(r)(∇l(r) − ∇l(r*)), no cancellation

    def grad_v(self, v, T) -> np.ndarray:
        return self.grads_v(v, T).mean(axis=0)

    def grad_theta(self, theta, T) -> np.ndarray:
        v = np_softmax(np.asarray(theta, dtype=np.float64))
        return softmax_jacobian(v) @ self.grad_v(v, T)


def softmax_jacobian(v) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return np.diag(v) - np.outer(v, v)


V0 = np.full(6, 1.0 / 6.0)


def stage1_theta(batch: Batch, T: float, eta1: float) -> np.ndarray:
    """Algorithm 1, Stage 1 with t1 = 1: θ̃ = 0 − η1 ∇_θ L1(D)(0)."""
    return -eta1 * batch.grad_theta(np.zeros(6), T)


def eta1_of(T: float, c1: float) -> float:
    """η1 = c1 · T^{3/2} log(1/T) (Theorem 3's Θ(T√T log(1/T)), constant c1 recorded)."""
    return c1 * T**1.5 * np.log(1.0 / T)


def stage2_path(batch: Batch, theta0, T: float, eta2: float, steps: int) -> list[np.ndarray]:
    """Plain GD on L1(θ, D) from θ0 (Stage 2), returning every iterate θ_0 … θ_steps."""
    path = [np.asarray(theta0, dtype=np.float64)]
    for _ in range(steps):
        path.append(path[-1] - eta2 * batch.grad_theta(path[-1], T))
    return path


# --- symbolic side --------------------------------------------------------------------------

VS = sp.symbols("v1:7", nonnegative=True)
TS = sp.Symbol("T", positive=True)


def symbolic_logit(Q: np.ndarray, v: Sequence[sp.Expr] = VS) -> sp.Expr:
    """ṽᵀ Q ṽ with integer Q (exact)."""
    t = list(v) + [sp.Integer(1)]
    return sp.expand(sum(int(round(Q[a, b])) * t[a] * t[b] for a in range(7) for b in range(7) if Q[a, b]))


def relation_logits_sym(batch: Batch, i: int) -> list[sp.Expr]:
    return [symbolic_logit(batch.Q[i, k]) for k in range(batch.vocab.m)]


def loss_sym(logits: Sequence[sp.Expr], target: int, T: sp.Expr = TS) -> sp.Expr:
    return -logits[target] / T + sp.log(sp.Add(*[sp.exp(l / T) for l in logits]))


def probs_sym(logits: Sequence[sp.Expr], T: sp.Expr = TS) -> list[sp.Expr]:
    return softmax([l / T for l in logits])


def find_sequence(batch: Batch, *, confusing: bool, mismatched: bool) -> int:
    """Index of the first sequence of the requested type."""
    ok = (batch.flag("confusing") == confusing) & (batch.flag("mismatched") == mismatched)
    if not ok.any():
        raise LookupError("no sequence of that type")
    return int(np.flatnonzero(ok)[0])


def relation_index(batch: Batch, i: int, pattern: set[tuple[int, int]]) -> int:
    """The relation of sequence i whose match set is exactly ``pattern`` (unique under A1)."""
    vocab, seq = batch.vocab, batch.seqs[i]
    hits = [k for k in range(vocab.m) if matches(vocab, seq, k) == frozenset(pattern)]
    if len(hits) != 1:
        raise LookupError(f"{len(hits)} relations with pattern {pattern}")
    return hits[0]


def confusing_index(batch: Batch) -> np.ndarray:
    """Per sequence, the index of its confusing relation (r(s1) = a2, r(s2) = a1), −1 if none."""
    R = np.array(batch.vocab.relations)
    S = np.array([s.subjects for s in batch.seqs])
    a = R[batch.target[:, None], S[:, :2]]
    hit = (R[:, S[:, 0]].T == a[:, [1]]) & (R[:, S[:, 1]].T == a[:, [0]])  # (S, m)
    return np.where(hit.any(1), hit.argmax(1), -1)


CORRECT = {(1, 1), (2, 2)}
CONFUSING = {(1, 2), (2, 1)}


# --- cached populations used by the App. C claims ------------------------------------------

#: Families used for the per-sequence checks (recorded in each claim's choices).
GREEDY_SPECS = ((6, 0), (7, 0), (7, 1))


@lru_cache(maxsize=8)
def greedy_population(n: int, seed: int) -> Batch:
    """Every IC-recall sequence of the F-greedy(n) code drawn with ``seed`` (Assumption 1 holds)."""
    vocab = greedy_family(n, seed)
    return Batch.build(vocab, all_sequences(vocab))


def region_temperatures(n: int, fractions=(1.0, 0.5, 0.25)) -> list[float]:
    """T = (1/(40 log n))·f: the Lemma 9 region T < 1/(40 log n) (f = 1 is its boundary)."""
    return [f / (40.0 * np.log(n)) for f in fractions]


def dataset_with_pmis(pop: Batch, p_mis: float, size: int, seed: int) -> Batch:
    """F-sub mixture: a dataset of ``size`` sequences, a fraction p_mis of them mismatched."""
    rnd = np.random.default_rng(seed)
    mis, non = np.flatnonzero(pop.flag("mismatched")), np.flatnonzero(~pop.flag("mismatched"))
    k = int(round(p_mis * size))
    idx = np.concatenate([rnd.choice(mis, k), rnd.choice(non, size - k)])
    return pop.take(idx)


def lemma9_point(alpha) -> list:
    """(1/6 + α, 1/6, 1/6 + α, 1/6, 1/6 − 2α, 1/6): the Lemma 9 attention profile."""
    s = sp.Rational(1, 6)
    return [s + alpha, s, s + alpha, s, s - 2 * alpha, s]


def second_directional(batch: Batch, theta, direction, T: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-sequence f(0), f′(0), f″(0) for f(x) = ℓ1(θ + x·direction) (exact formulas, float64):
    v′ = v⊙(δ − vᵀδ), v″ = v′⊙(δ − vᵀδ) − v (v′ᵀδ), l′ = ∇lᵀv′, l″ = v′ᵀ∇²l v′ + ∇lᵀv″,
    f′ = (E_p l′ − l*′)/T, f″ = (E_p l″ − l*″)/T + Var_p(l′)/T²."""
    v = np_softmax(np.asarray(theta, dtype=np.float64))
    d = np.asarray(direction, dtype=np.float64)
    s = v @ d
    vp = v * (d - s)
    vpp = vp * (d - s) - v * (vp @ d)
    G = batch.logit_grads(v)  # (S, m, 6)
    H = (batch.Q + np.swapaxes(batch.Q, -1, -2))[..., :6, :6]
    lp = G @ vp
    lpp = np.einsum("smab,a,b->sm", H, vp, vp) + G @ vpp
    p = batch.probs(v, T)
    idx = np.arange(len(batch)), batch.target
    f = batch.losses(v, T)
    mean_lp = (p * lp).sum(1)
    fp = (mean_lp - lp[idx]) / T
    fpp = ((p * lpp).sum(1) - lpp[idx]) / T + ((p * lp**2).sum(1) - mean_lp**2) / T**2
    return f, fp, fpp


def little_o_sweep(Ts, scaled) -> dict:
    """Fit log(scaled) against 1/√T (least squares, 95% interval): a scaled quantity that is o(1)
    as T → 0 has a negative slope; the verdict logic lives in the claims."""
    x = 1.0 / np.sqrt(np.asarray(Ts, dtype=float))
    y = np.log(np.maximum(np.asarray(scaled, dtype=float), 1e-300))
    A = np.vstack([x, np.ones_like(x)]).T
    coef, res, *_ = np.linalg.lstsq(A, y, rcond=None)
    dof = max(len(x) - 2, 1)
    s2 = float(res[0]) / dof if len(res) else 0.0
    cov = s2 * np.linalg.inv(A.T @ A)
    from scipy.stats import t as student
    half = float(student.ppf(0.975, dof) * np.sqrt(cov[0, 0]))
    tail_decreasing = bool(np.all(np.diff(np.asarray(scaled)[-3:]) < 0))
    return {"T": list(map(float, Ts)), "scaled": list(map(float, scaled)), "slope vs 1/sqrt(T)": float(coef[0]),
            "slope 95% CI": [float(coef[0]) - half, float(coef[0]) + half], "last 3 decreasing": tail_decreasing,
            "last/first": float(scaled[-1] / scaled[0]) if scaled[0] else float("nan")}


#: Stage-1 choices shared by the App. C claims that need the post-Stage-1 point θ̃.
C1_DEFAULT = 100.0
T_SWEEP = (0.005, 0.0025, 0.00125, 0.000625, 0.0003125)


@lru_cache(maxsize=32)
def post_stage1(n: int, seed: int, T: float, c1: float = C1_DEFAULT) -> tuple[Batch, np.ndarray]:
    """(D, θ̃): D = every sequence of F-greedy(n, seed) (the population), θ̃ after Stage 1."""
    pop = greedy_population(n, seed)
    return pop, stage1_theta(pop, T, eta1_of(T, c1))
