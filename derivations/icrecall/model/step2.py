"""The second decoding step (App. D) derived in SymPy from the model's primitives.

Input: the IC-recall sequence with the decoded relation appended at position 7,
(s1, a1, s2, a2, s3, EoS, r).  With every fixed W^KQ entry 0, the attention from position 7 is
q = softmax(ω) (Section 2.3) and h = W^P (z_{-1} + Z q) (Section 2.1); the answer logits are
φ(a)ᵀ Vᵀ σ(W h) with the Lemma-3 (W, V) (``model.construction``).  The step-2 loss is the masked
temperature cross-entropy of Eq. (2), ℓ2 = −l(a3)/T + log Σ_a exp(l(a)/T), written here as
log Σ_a exp((l(a) − l(a3))/T) (the same function; no overflow where a3 leads).

Nothing here is copied from App. D: the printed logits / gradients live in ``printed_appcd``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Sequence

import sympy as sp

from .symbolic import Vocab, _construction_cached, embed, hidden, ic_sequence, n3_vocab, softmax

Q = sp.symbols("q1:8", nonnegative=True)       # attention from position 7 over positions 1..7
OMEGA = sp.symbols("omega1:8", real=True)       # ω = W^KQ_{1:7,7}
T = sp.Symbol("T", positive=True)
N = sp.Symbol("n", positive=True)               # |S| = |A| in the grouped general-n loss
D_P = 7


def step2_tokens(vocab: Vocab, subjects: Sequence[int], relation: int) -> list[int]:
    """(s1, a1, s2, a2, s3, EoS, r*): the decoded (correct) relation appended at position 7."""
    return ic_sequence(vocab, subjects, relation) + [vocab.r(relation)]


def answer_logits(vocab: Vocab, tokens: Sequence[int], q: Sequence[sp.Expr] = Q) -> list[sp.Expr]:
    """l(a) = φ(a)ᵀ Vᵀ σ(W h), h = W^P(z_{-1} + Z q), for every answer a (vocabulary order)."""
    W, V = _construction_cached(vocab)
    Z = embed(vocab, tokens, D_P)
    h = hidden(vocab, Z, list(q)[: len(tokens)], D_P)
    answers = [vocab.a(j) for j in range(vocab.n)]
    pre_sq = (W * h).applyfunc(lambda t: t**2)
    return [sp.expand((V[:, a].T * pre_sq)[0, 0]) for a in answers]


def ce_shifted(logits: Sequence[sp.Expr], target: int, temperature: sp.Expr = T,
               weights: Sequence[sp.Expr] | None = None) -> sp.Expr:
    """−log softmax(l/T)[target] = log Σ_j w_j exp((l_j − l_target)/T) (w_j = 1 by default)."""
    w = weights or [1] * len(logits)
    return sp.log(sp.Add(*[wj * sp.exp((lj - logits[target]) / temperature) for wj, lj in zip(w, logits)]))


@dataclass(frozen=True)
class Step2:
    """ℓ2 for one sequence (s1, a1, s2, a2, s3, EoS, r*) of one relation set, derived exactly."""

    vocab: Vocab
    subjects: tuple[int, int, int]
    relation: int

    @cached_property
    def tokens(self) -> list[int]:
        return step2_tokens(self.vocab, self.subjects, self.relation)

    @cached_property
    def logits(self) -> list[sp.Expr]:
        """Answer logits in vocabulary order (answer j = a_{j+1} of the vocabulary)."""
        return answer_logits(self.vocab, self.tokens)

    @property
    def roles(self) -> tuple[int, int, int]:
        """Vocabulary answer indices of the sequence's a1, a2, a3 (a_i = r*(s_i))."""
        r = self.vocab.relations[self.relation]
        return tuple(r[s] for s in self.subjects)  # type: ignore[return-value]

    @property
    def others(self) -> list[int]:
        return [j for j in range(self.vocab.n) if j not in self.roles]

    def role_logits(self) -> dict[str, sp.Expr]:
        """{"a1","a2","a3"} and every other answer as "other:<j>"."""
        out = {f"a{i + 1}": self.logits[j] for i, j in enumerate(self.roles)}
        out.update({f"other:{j}": self.logits[j] for j in self.others})
        return out

    @cached_property
    def loss(self) -> sp.Expr:
        """ℓ2(q) = −log p_{2,r*}(a3) (Eq. (2) per sequence), q free."""
        return ce_shifted(self.logits, self.roles[2])

    def probabilities(self) -> list[sp.Expr]:
        """p_{2,r*}(a) = softmax(l/T), vocabulary order."""
        return softmax([l / T for l in self.logits])

    def role_probabilities(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        p = self.probabilities()
        return tuple(p[j] for j in self.roles)  # type: ignore[return-value]

    def grad_q(self) -> list[sp.Expr]:
        """∂ℓ2/∂q_i, i = 1..7, q treated as free coordinates (the convention of Claim 2)."""
        return [sp.diff(self.loss, qi) for qi in Q]

    def loss_omega(self) -> sp.Expr:
        return self.loss.xreplace(dict(zip(Q, softmax(OMEGA))))

    def grad_omega(self) -> list[sp.Expr]:
        """∂ℓ2/∂ω_i by differentiating ℓ2(softmax ω) directly (not through the chain display)."""
        L = self.loss_omega()
        return [sp.diff(L, w) for w in OMEGA]


@dataclass(frozen=True)
class GroupedStep2:
    """ℓ2 for general n from a derived instance with n ≥ 4: the answers outside {a1, a2, a3} all
    share one logit l_o (checked on the instance), so ℓ2 = log(Σ_{i≤3} e^{(l_i−l_3)/T} + (n−3)e^{(l_o−l_3)/T})."""

    instance: Step2

    def __post_init__(self) -> None:
        other = [self.instance.logits[j] for j in self.instance.others]
        if not other or any(sp.expand(o - other[0]) != 0 for o in other):
            raise ValueError("the answers outside {a1, a2, a3} do not share one logit")

    @cached_property
    def role_logits(self) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
        inst = self.instance
        l1, l2, l3 = (inst.logits[j] for j in inst.roles)
        return l1, l2, l3, inst.logits[inst.others[0]]

    @cached_property
    def loss(self) -> sp.Expr:
        l1, l2, l3, lo = self.role_logits
        return ce_shifted([l1, l2, l3, lo], 2, weights=[1, 1, 1, N - 3])

    def probabilities(self) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
        """(p(a1), p(a2), p(a3), p(a) for one a outside), each as 1/Σ_j w_j e^{(l_j − l_i)/T}."""
        ls = self.role_logits
        w = [1, 1, 1, N - 3]
        return tuple(1 / sp.Add(*[wj * sp.exp((lj - li) / T) for wj, lj in zip(w, ls)])
                     for li in ls)  # type: ignore[return-value]

    def grad_q(self) -> list[sp.Expr]:
        return [sp.diff(self.loss, qi) for qi in Q]

    def grad_omega(self) -> list[sp.Expr]:
        L = self.loss.xreplace(dict(zip(Q, softmax(OMEGA))))
        return [sp.diff(L, w) for w in OMEGA]


def cyclic_relations(n: int) -> tuple[tuple[int, ...], ...]:
    """x ↦ x + b mod n: n bijections (a small relation set for any n)."""
    return tuple(tuple((x + b) % n for x in range(n)) for b in range(n))


def affine_relations(p: int) -> tuple[tuple[int, ...], ...]:
    """F-aff(p): x ↦ a·x + b mod p, a ≠ 0 (spec §0)."""
    return tuple(tuple((a * x + b) % p for x in range(p)) for a in range(1, p) for b in range(p))


@lru_cache(maxsize=None)
def family(name: str) -> Vocab:
    """Named relation families: "all3" (Table 1), "aff5", "aff7", "cyc<n>"."""
    if name == "all3":
        return n3_vocab()
    if name.startswith("aff"):
        return Vocab(int(name[3:]), affine_relations(int(name[3:])))
    if name.startswith("cyc"):
        return Vocab(int(name[3:]), cyclic_relations(int(name[3:])))
    raise KeyError(name)


@lru_cache(maxsize=None)
def instance(name: str, subjects: tuple[int, int, int] = (0, 1, 2), relation: int = 0) -> Step2:
    return Step2(family(name), subjects, relation)


@lru_cache(maxsize=None)
def grouped() -> GroupedStep2:
    """The general-n step-2 loss, derived from the F-aff(5) sequence (s1, s2, s3) = (0, 1, 2), r* = r1."""
    return GroupedStep2(instance("aff5"))


def exact_instance(n: int) -> Step2:
    """A derived instance with exactly n answers: Table 1 for n = 3, F-aff(n) for prime n ≤ 7,
    cyclic shifts otherwise."""
    if n == 3:
        return instance("all3")
    if n in (5, 7):
        return instance(f"aff{n}")
    return instance(f"cyc{n}")
