"""The paper's full one-layer model in torch (float64), written independently of ``model.py``.

Section 2.1: token embeddings φ(u) are the columns of a d × |V| matrix with orthonormal columns
(identity = one-hot, or any given orthonormal matrix); positions are one-hot e_i ∈ R^{d_P};
Z = [e_1 … e_k ; φ(u_1) … φ(u_k)]; the last token attends with softmax(Zᵀ W^KQ z_{-1}) for the
*full* W^KQ ∈ R^{(d_P+d)×(d_P+d)}; h = W^P (z_{-1} + Z attn) with W^P = (0  I_d);
f = Vᵀ σ(W h), σ(x) = x².  Lemma 3 (App. A): (W, V) built here from the relation set with index
arithmetic (not from ``model.construction``).  Section 2.3: masked temperature softmax losses
L1 (relation logits, Eq. (1)) and L2 (answer logits with the decoded relation appended at
position 7, Eq. (2)); partial fine-tuning θ = W^KQ_{1:6,6}, ω = W^KQ_{1:7,7}.

Token order (same convention as the paper's V = S ∪ R ∪ A ∪ {EoS}): subjects 0..n−1, relations
n..n+m−1, answers n+m..2n+m−1, EoS = 2n+m.  Every function is batched over sequences
(a LongTensor of shape (B, k)) and pure, so torch.func (grad / jacrev / hessian / vmap) applies.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Sequence

import numpy as np
import torch


DTYPE = torch.float64

def pick_device(device: str | None = None) -> torch.device:
    """``None``/"auto": CUDA when available, else CPU; everything runs unchanged on CPU."""
    if device in (None, "auto"):
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(device)


def lemma3_coefficients(n: int, relations: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Lemma 3 (App. A) in token coordinates: integer matrices C_W, C_V ∈ Z^{3n² × |V|} with
    W = C_W Φᵀ, V = C_V Φᵀ.  Pair i = (s, a) (s-major) owns rows 3i, 3i+1, 3i+2 (0-based):
    W: φ(s) + Σ_{r∈R(s,a)} φ(r), φ(a) + φ(s), φ(a) + Σ φ(r);   V: φ(a), Σ φ(r), φ(s)."""
    m = len(relations)
    size = 2 * n + m + 1
    rel = np.asarray(relations, dtype=int).reshape(m, n)
    hit = np.zeros((n, n, m), dtype=np.int64)  # hit[s, a, k] = 1{r_k(s) = a}
    for k in range(m):
        hit[np.arange(n), rel[k], k] = 1
    CW = np.zeros((n, n, 3, size), dtype=np.int64)
    CV = np.zeros((n, n, 3, size), dtype=np.int64)
    s_idx, a_idx = np.arange(n), n + m + np.arange(n)
    r_block = slice(n, n + m)
    for s in range(n):
        for a in range(n):
            CW[s, a, 0, s_idx[s]] = 1
            CW[s, a, 0, r_block] = hit[s, a]
            CW[s, a, 1, a_idx[a]] = 1
            CW[s, a, 1, s_idx[s]] = 1
            CW[s, a, 2, a_idx[a]] = 1
            CW[s, a, 2, r_block] = hit[s, a]
            CV[s, a, 0, a_idx[a]] = 1
            CV[s, a, 1, r_block] = hit[s, a]
            CV[s, a, 2, s_idx[s]] = 1
    return CW.reshape(3 * n * n, size), CV.reshape(3 * n * n, size)


@dataclass
class ICModel:
    """The model of Section 2.1 with the Lemma-3 MLP for one relation set."""

    n: int
    relations: tuple[tuple[int, ...], ...]
    embedding: np.ndarray | None = None  # d × |V| with orthonormal columns; None: one-hot (d = |V|)
    d_P: int = 7
    device: str | None = None
    dev: torch.device = field(init=False)

    def __post_init__(self) -> None:
        self.relations = tuple(tuple(int(a) for a in r) for r in self.relations)
        for r in self.relations:
            if sorted(r) != list(range(self.n)):
                raise ValueError(f"relation {r} is not a bijection of range({self.n})")
        self.dev = pick_device(self.device)
        size = self.vocab_size
        E = np.eye(size) if self.embedding is None else np.asarray(self.embedding, dtype=np.float64)
        if E.shape[1] != size:
            raise ValueError(f"embedding must have {size} columns, got {E.shape}")
        self.Phi = torch.as_tensor(E, dtype=DTYPE, device=self.dev)  # d × |V|
        CW, CV = lemma3_coefficients(self.n, self.relations)
        self.W = torch.as_tensor(CW, dtype=DTYPE, device=self.dev) @ self.Phi.T  # 3n² × d
        self.V = torch.as_tensor(CV, dtype=DTYPE, device=self.dev) @ self.Phi.T
        self.P = torch.eye(self.d_P, dtype=DTYPE, device=self.dev)

    # --- vocabulary -------------------------------------------------------------------
    @property
    def m(self) -> int:
        return len(self.relations)

    @property
    def vocab_size(self) -> int:
        return 2 * self.n + self.m + 1

    @property
    def d(self) -> int:
        return self.Phi.shape[0]

    def rel_tok(self, k: int) -> int:
        return self.n + k

    def ans_tok(self, a: int) -> int:
        return self.n + self.m + a

    @property
    def eos(self) -> int:
        return 2 * self.n + self.m

    @property
    def relation_tokens(self) -> torch.Tensor:
        return torch.arange(self.n, self.n + self.m, device=self.dev)

    @property
    def answer_tokens(self) -> torch.Tensor:
        return torch.arange(self.n + self.m, 2 * self.n + self.m, device=self.dev)

    # --- data (Definition 1) ----------------------------------------------------------
    def sequence(self, subjects: Sequence[int], k: int) -> list[int]:
        """(s1, a1, s2, a2, s3, EoS) with a_i = r_k(s_i)."""
        r = self.relations[k]
        s1, s2, s3 = subjects
        return [s1, self.ans_tok(r[s1]), s2, self.ans_tok(r[s2]), s3, self.eos]

    def batch(self, cases: Sequence[tuple[Sequence[int], int]]) -> dict[str, torch.Tensor]:
        """Step-1 tokens (B, 6), step-2 tokens (B, 7) (r* appended), targets r* and a3 as
        indices into the masked relation / answer logits."""
        step1 = [self.sequence(s, k) for s, k in cases]
        step2 = [t + [self.rel_tok(k)] for t, (_, k) in zip(step1, cases)]
        r_star = [k for _, k in cases]
        a3 = [self.relations[k][s[2]] for s, k in cases]
        as_t = lambda x: torch.as_tensor(x, dtype=torch.long, device=self.dev)  # noqa: E731
        return {"step1": as_t(step1), "step2": as_t(step2), "r_star": as_t(r_star), "a3": as_t(a3)}

    def all_cases(self) -> list[tuple[tuple[int, int, int], int]]:
        """Every IC-recall sequence: each relation × each ordered triple of distinct subjects."""
        return [(s, k) for k in range(self.m) for s in permutations(range(self.n), 3)]

    # --- architecture (Section 2.1) ---------------------------------------------------
    def embed(self, tokens: torch.Tensor) -> torch.Tensor:
        """Z ∈ R^{B × (d_P + d) × k}, positions on top."""
        B, k = tokens.shape
        pos = self.P[:, :k].expand(B, self.d_P, k)
        tok = self.Phi[:, tokens].permute(1, 0, 2)  # B × d × k
        return torch.cat([pos, tok], dim=1)

    def attention(self, tokens: torch.Tensor, WKQ: torch.Tensor) -> torch.Tensor:
        """softmax(Zᵀ W^KQ z_{-1}) for the last token, shape (B, k)."""
        Z = self.embed(tokens)
        scores = torch.einsum("bik,ij,bj->bk", Z, WKQ, Z[:, :, -1])
        return torch.softmax(scores, dim=-1)

    def hidden(self, tokens: torch.Tensor, attn: torch.Tensor) -> torch.Tensor:
        """h = W^P (z_{-1} + Z attn) ∈ R^{B × d}."""
        Z = self.embed(tokens)
        mixed = Z[:, :, -1] + torch.einsum("bik,bk->bi", Z, attn)
        return mixed[:, self.d_P:]

    def mlp(self, h: torch.Tensor) -> torch.Tensor:
        """f_MLP(h) = Vᵀ σ(W h), σ(x) = x²."""
        return (h @ self.W.T) ** 2 @ self.V

    def logits_from_attention(self, tokens: torch.Tensor, attn: torch.Tensor) -> torch.Tensor:
        """All |V| logits φ(u)ᵀ f for a given attention vector (free coordinates)."""
        return self.mlp(self.hidden(tokens, attn)) @ self.Phi

    def logits(self, tokens: torch.Tensor, WKQ: torch.Tensor) -> torch.Tensor:
        return self.logits_from_attention(tokens, self.attention(tokens, WKQ))

    # --- partial fine-tuning (Section 2.3) --------------------------------------------
    def wkq(self, theta: torch.Tensor, omega: torch.Tensor, fixed: float = 0.0) -> torch.Tensor:
        """W^KQ with θ in W^KQ_{1:6,6}, ω in W^KQ_{1:7,7} (1-based) and every other entry ``fixed``."""
        size = self.d_P + self.d
        col = lambda j: torch.nn.functional.one_hot(torch.tensor(j, device=self.dev), size).to(DTYPE)  # noqa: E731
        pad = lambda x: torch.cat([x, torch.zeros(size - x.shape[0], dtype=DTYPE, device=self.dev)])  # noqa: E731
        keep = torch.ones(size, size, dtype=DTYPE, device=self.dev)
        keep[:6, 5] = 0.0
        keep[:7, 6] = 0.0
        return fixed * keep + torch.outer(pad(theta), col(5)) + torch.outer(pad(omega), col(6))

    # --- masked temperature losses (Section 2.3, Eqs. (1)-(2)) -----------------------
    @staticmethod
    def masked_ce(logits: torch.Tensor, target: torch.Tensor, T) -> torch.Tensor:
        """Per-sequence −log softmax(logits/T)[target] = −l_t/T + logsumexp(l/T)."""
        z = logits / T
        return torch.logsumexp(z, dim=-1) - z.gather(-1, target[:, None])[:, 0]

    def relation_logits(self, tokens: torch.Tensor, attn: torch.Tensor) -> torch.Tensor:
        return self.logits_from_attention(tokens, attn)[:, self.relation_tokens]

    def answer_logits(self, tokens: torch.Tensor, attn: torch.Tensor) -> torch.Tensor:
        return self.logits_from_attention(tokens, attn)[:, self.answer_tokens]

    def ell1_attn(self, attn: torch.Tensor, T, batch: dict) -> torch.Tensor:
        """Per-sequence ℓ1 for a given EoS attention ``attn`` (B × 6, or 6 broadcast)."""
        tok = batch["step1"]
        attn = attn.expand(tok.shape[0], tok.shape[1]) if attn.dim() == 1 else attn
        return self.masked_ce(self.relation_logits(tok, attn), batch["r_star"], T)

    def ell2_attn(self, attn: torch.Tensor, T, batch: dict) -> torch.Tensor:
        """Per-sequence ℓ2 for a given attention ``attn`` from position 7 (B × 7, or 7 broadcast)."""
        tok = batch["step2"]
        attn = attn.expand(tok.shape[0], tok.shape[1]) if attn.dim() == 1 else attn
        return self.masked_ce(self.answer_logits(tok, attn), batch["a3"], T)

    def L1_wkq(self, WKQ: torch.Tensor, T, batch: dict) -> torch.Tensor:
        """Eq. (1): L1 = mean over D of −log p1(r*), with the full W^KQ."""
        tok = batch["step1"]
        return self.masked_ce(self.relation_logits(tok, self.attention(tok, WKQ)), batch["r_star"], T).mean()

    def L2_wkq(self, WKQ: torch.Tensor, T, batch: dict) -> torch.Tensor:
        """Eq. (2): L2 = mean over D of −log p_{2,r*}(a3), decoded r* appended at position 7."""
        tok = batch["step2"]
        return self.masked_ce(self.answer_logits(tok, self.attention(tok, WKQ)), batch["a3"], T).mean()

    def L1(self, theta: torch.Tensor, omega: torch.Tensor, T, batch: dict) -> torch.Tensor:
        return self.L1_wkq(self.wkq(theta, omega), T, batch)

    def L2(self, theta: torch.Tensor, omega: torch.Tensor, T, batch: dict) -> torch.Tensor:
        return self.L2_wkq(self.wkq(theta, omega), T, batch)

    def tensor(self, x) -> torch.Tensor:
        return torch.as_tensor(np.asarray(x, dtype=np.float64), dtype=DTYPE, device=self.dev)


def table1_model(device: str | None = None, embedding: np.ndarray | None = None) -> ICModel:
    """n = 3, R = all 6 bijections in Table 1's order (r1 correct, r2 confusing for (0, 1, 2))."""
    rels = ((0, 1, 2), (1, 0, 2), (0, 2, 1), (1, 2, 0), (2, 0, 1), (2, 1, 0))
    return ICModel(3, rels, embedding=embedding, device=device)


def affine_relations(p: int) -> tuple[tuple[int, ...], ...]:
    """F-aff(p): x ↦ a·x + b mod p, a ≠ 0 (spec §0)."""
    return tuple(tuple((a * x + b) % p for x in range(p)) for a in range(1, p) for b in range(p))
