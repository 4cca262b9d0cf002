"""Section 5 experiments (Figures 2–4), batched over seeds, float64, in torch.

The model is that of Section 2.1 with *random orthonormal embeddings* (Section 5, "Experiment
setup"): Φ ∈ R^{d × |V|} with orthonormal columns (Haar, from a QR of a Gaussian matrix), one-hot
positions e_i ∈ R^{d_P} (d_P = the longest input, = step-2 length), the *full* W^KQ ∈ R^{D × D},
D = d_P + d, trained by Adam (lr 10⁻³) on the CoT loss L = L1 + L2 (Eq. (3)), the Lemma-1 MLP
(App. A) frozen (Figures 2, 3) or a pretrained MLP frozen (Figure 4).

Computation (exact rewriting, no approximation): the query of a token u at position p is
q = W^KQ (e_p; φ(u)); the score of key (i, u_i) is q_P[i] + φ(u_i)ᵀ q_T.  The hidden state is
h = Φ c with c = onehot(u_last) + Σ_i a_i onehot(u_i) (token coordinates), so the MLP logits of
token u are (V Φ)[:, u]ᵀ σ((W Φ) c); the constructed MLP has W Φ = C_W, V Φ = C_V (integer
coefficient matrices of ``torch_model.lemma3_coefficients``) because ΦᵀΦ = I.  ``fast_vs_full``
cross-checks this against the independent full model ``torch_model.ICModel``.

Token order: subjects 0..n−1, relations n..n+m−1, answers n+m..2n+m−1, EoS 2n+m.
k in-context examples: (s1, a1, …, sk, ak, s_{k+1}, EoS) (length 2k + 2), step 2 appends r*.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Sequence

import numpy as np
import torch


from ..model.families import Family, bayes_first_step, f_aff, f_agl, f_paper
from ..model.torch_model import DTYPE, lemma3_coefficients, pick_device

ADAM_LR = 1e-3


# --- configuration ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    """One experiment: relation family, examples, T, |D|, test size, Adam steps, seeds."""

    n: int
    m: int
    T: float
    examples: int = 2
    family: str = "paper"  # "paper" (m random bijections per seed), "aff" (F-aff(n)), "agl" (F-agl(n))
    n_train: int = 64
    n_test: int = 2048
    steps: int = 2000
    seeds: int = 10
    lr: float = ADAM_LR
    train: str = "full"  # "full" W^KQ or "position" (the position-position block only)
    mlp: str = "construct"  # "construct" (Lemma 1) or "pretrain" (Figure 4)
    pre_steps: int = 3000  # pretraining (Adam) steps, mlp="pretrain"
    pre_width: int = 0  # d_MLP of the pretrained MLP (0: 3n², the construction's width)
    pre_T: float = 1.0  # temperature of the (unmasked) pretraining cross-entropy
    scramble_mlp: bool = False  # planted error: permute the rows of V (tests only)

    @property
    def length(self) -> int:
        return 2 * self.examples + 2

    @property
    def d_P(self) -> int:
        return self.length + 1

    @property
    def vocab(self) -> int:
        return 2 * self.n + self.m + 1

    def describe(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def family_for(cfg: Config, rng: np.random.Generator) -> Family:
    if cfg.family == "paper":
        return f_paper(cfg.n, cfg.m, rng)
    fam = {"aff": f_aff, "agl": f_agl}[cfg.family](cfg.n)
    if fam.m != cfg.m:
        raise ValueError(f"{fam.name} has {fam.m} relations, config says {cfg.m}")
    return fam


def orthonormal_embedding(d: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """d × size with orthonormal columns, Haar-distributed (QR of a Gaussian, signs fixed)."""
    G = rng.standard_normal((d, size))
    Q, R = np.linalg.qr(G)
    return Q * np.sign(np.diag(R))[None, :]


# --- data (Definition 1, k examples) ------------------------------------------------------------

def sample_cases(fam: Family, size: int, examples: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """``size`` i.i.d. sequences of P_IC with ``examples`` in-context pairs: step-1 tokens,
    step-2 tokens (r* appended), targets r* (relation index) and the query answer (answer index)."""
    n, m = fam.n, fam.m
    rstar = rng.integers(0, m, size=size)
    subj = np.argsort(rng.random((size, n)), axis=1)[:, : examples + 1]
    ans = fam.array[rstar[:, None], subj]
    L = 2 * examples + 2
    tok = np.empty((size, L), dtype=np.int64)
    tok[:, 0:2 * examples:2] = subj[:, :examples]
    tok[:, 1:2 * examples:2] = n + m + ans[:, :examples]
    tok[:, 2 * examples] = subj[:, examples]
    tok[:, 2 * examples + 1] = 2 * n + m
    step2 = np.concatenate([tok, (n + rstar)[:, None]], axis=1)
    return {"step1": tok, "step2": step2, "r_star": rstar, "answer": ans[:, examples], "subjects": subj}


# --- a batch of runs (one per seed) --------------------------------------------------------------

@dataclass
class Runs:
    """Per-seed relation sets, embeddings, frozen MLP (token coordinates), data; stacked over seeds."""

    cfg: Config
    fams: list[Family]
    Phi: torch.Tensor  # S × d × |V|
    CW: torch.Tensor  # S × H × |V|  (= W Φ)
    CV: torch.Tensor  # S × H × |V|  (= V Φ)
    train: dict[str, torch.Tensor]
    test: dict[str, torch.Tensor]
    dev: torch.device
    info: dict = field(default_factory=dict)

    @property
    def S(self) -> int:
        return len(self.fams)


def _stack(dicts: Sequence[dict], dev) -> dict[str, torch.Tensor]:
    return {k: torch.as_tensor(np.stack([x[k] for x in dicts]), device=dev) for k in dicts[0]}


def build_runs(cfg: Config, seed: int, device: str | None = "cpu") -> Runs:
    """Seed s of the batch draws (relation set, Φ, D, test set) from default_rng([seed, s])."""
    dev = pick_device(device)
    fams, phis, cws, cvs, trains, tests = [], [], [], [], [], []
    for s in range(cfg.seeds):
        g = np.random.default_rng([seed, s])
        fam = family_for(cfg, g)
        phi = orthonormal_embedding(cfg.vocab, cfg.vocab, g)
        cw, cv = lemma3_coefficients(fam.n, fam.relations)
        if cfg.scramble_mlp:
            cv = cv[g.permutation(cv.shape[0])]
        fams.append(fam)
        phis.append(phi)
        cws.append(cw)
        cvs.append(cv)
        trains.append(sample_cases(fam, cfg.n_train, cfg.examples, g))
        tests.append(sample_cases(fam, cfg.n_test, cfg.examples, g))
    as_t = lambda x: torch.as_tensor(np.stack(x), dtype=DTYPE, device=dev)  # noqa: E731
    return Runs(cfg, fams, as_t(phis), as_t(cws), as_t(cvs), _stack(trains, dev), _stack(tests, dev), dev)


# --- the forward pass (Section 2.1), batched over seeds ------------------------------------------

def _gather_seq(table: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """table: S × X × … , tokens: S × B × k (indices into X) → S × B × k × …"""
    S, B, k = tokens.shape
    flat = tokens.reshape(S, B * k)
    idx = flat.view(S, B * k, *([1] * (table.dim() - 2))).expand(S, B * k, *table.shape[2:])
    return table.gather(1, idx).reshape(S, B, k, *table.shape[2:])


def attention(runs: Runs, WKQ: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """softmax(Zᵀ W^KQ z_{-1}) for the last token of each sequence: S × B × k."""
    S, B, k = tokens.shape
    d_P = runs.cfg.d_P
    Phi = runs.Phi
    last = tokens[:, :, -1]  # S × B
    phi_last = _gather_seq(Phi.transpose(1, 2), last[:, :, None])[:, :, 0, :]  # S × B × d
    q = WKQ[:, :, k - 1][:, None, :] + torch.einsum("sij,sbj->sbi", WKQ[:, :, d_P:], phi_last)  # S × B × D
    phi_keys = _gather_seq(Phi.transpose(1, 2), tokens)  # S × B × k × d
    scores = q[:, :, :k] + torch.einsum("sbkj,sbj->sbk", phi_keys, q[:, :, d_P:])
    return torch.softmax(scores, dim=-1)


def logits(runs: Runs, tokens: torch.Tensor, attn: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """Logits φ(u)ᵀ f_MLP(h) for the output tokens ``out`` (a LongTensor): S × B × len(out).
    h = Φ c, c = onehot(u_last) + Σ_i attn_i onehot(u_i), so W h = (WΦ) c."""
    cols = _gather_seq(runs.CW.transpose(1, 2), tokens)  # S × B × k × H
    pre = cols[:, :, -1, :] + torch.einsum("sbk,sbkh->sbh", attn, cols)
    return torch.einsum("sbh,shu->sbu", pre ** 2, runs.CV[:, :, out])


def rel_tokens(cfg: Config, dev) -> torch.Tensor:
    return torch.arange(cfg.n, cfg.n + cfg.m, device=dev)


def ans_tokens(cfg: Config, dev) -> torch.Tensor:
    return torch.arange(cfg.n + cfg.m, 2 * cfg.n + cfg.m, device=dev)


def step_logits(runs: Runs, WKQ: torch.Tensor, data: dict, step: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(masked logits, attention) of decoding step 1 (relations) or 2 (answers, r* appended)."""
    tok = data["step1"] if step == 1 else data["step2"]
    attn = attention(runs, WKQ, tok)
    out = rel_tokens(runs.cfg, runs.dev) if step == 1 else ans_tokens(runs.cfg, runs.dev)
    return logits(runs, tok, attn, out), attn


def ce(lg: torch.Tensor, target: torch.Tensor, T: float) -> torch.Tensor:
    """Per-sequence −log softmax(l/T)[target]: S × B."""
    z = lg / T
    return torch.logsumexp(z, -1) - z.gather(-1, target[..., None])[..., 0]


def cot_loss(runs: Runs, WKQ: torch.Tensor, data: dict) -> torch.Tensor:
    """Σ over seeds of L1 + L2 (Eqs. (1)–(3)); seeds are independent, so each seed's Adam state
    and gradient are exactly those of its own run."""
    T = runs.cfg.T
    l1, _ = step_logits(runs, WKQ, data, 1)
    l2, _ = step_logits(runs, WKQ, data, 2)
    return (ce(l1, data["r_star"], T).mean(-1) + ce(l2, data["answer"], T).mean(-1)).sum()


# --- accuracy ------------------------------------------------------------------------------------

def argmax_accuracy(lg: torch.Tensor, target: torch.Tensor, rtol: float = 1e-12) -> torch.Tensor:
    """Per-sequence argmax accuracy with exact ties credited 1/#tied (tolerance rtol·max|l|)."""
    top = lg.max(-1, keepdim=True).values
    tol = rtol * lg.abs().max(-1, keepdim=True).values.clamp_min(1e-300)
    tied = lg >= top - tol
    return tied.gather(-1, target[..., None])[..., 0].to(lg.dtype) / tied.sum(-1).to(lg.dtype)


def target_prob(lg: torch.Tensor, target: torch.Tensor, T: float) -> torch.Tensor:
    return torch.exp(-ce(lg, target, T))


def evaluate(runs: Runs, WKQ: torch.Tensor, data: dict, chunk: int = 512) -> dict[str, np.ndarray]:
    """Per-seed argmax accuracy and mean p(target) of both decoding steps, and the mean attention
    rows (row 1: from EoS, step 1; row 2: from r*, step 2)."""
    T = runs.cfg.T
    out = {k: [] for k in ("acc1", "p1", "acc2", "p2", "row1", "row2")}
    N = data["step1"].shape[1]
    with torch.no_grad():
        for lo in range(0, N, chunk):
            part = {k: v[:, lo:lo + chunk] for k, v in data.items()}
            l1, a1 = step_logits(runs, WKQ, part, 1)
            l2, a2 = step_logits(runs, WKQ, part, 2)
            out["acc1"].append(argmax_accuracy(l1, part["r_star"]))
            out["p1"].append(target_prob(l1, part["r_star"], T))
            out["acc2"].append(argmax_accuracy(l2, part["answer"]))
            out["p2"].append(target_prob(l2, part["answer"], T))
            out["row1"].append(a1)
            out["row2"].append(a2)
    res = {}
    for k, v in out.items():
        res[k] = torch.cat(v, dim=1).mean(1).cpu().numpy()  # per seed (rows: per seed × positions)
    res["min_acc2"] = torch.cat(out["acc2"], dim=1).min(1).values.cpu().numpy()
    return res


# --- fine-tuning ----------------------------------------------------------------------------------

def position_mask(cfg: Config, D: int, dev) -> torch.Tensor:
    mask = torch.zeros(D, D, dtype=DTYPE, device=dev)
    mask[: cfg.d_P, : cfg.d_P] = 1.0
    return mask


def finetune(runs: Runs, WKQ0: torch.Tensor | None = None) -> tuple[torch.Tensor, list[float]]:
    """Adam (lr cfg.lr, default β's and ε, full batch) on L1 + L2 over W^KQ from W^KQ0 (default 0);
    the MLP stays frozen.  Returns W^KQ and the loss every 10% of the steps."""
    cfg = runs.cfg
    D = cfg.d_P + runs.Phi.shape[1]
    init = torch.zeros(runs.S, D, D, dtype=DTYPE, device=runs.dev) if WKQ0 is None else WKQ0.clone()
    mask = position_mask(cfg, D, runs.dev) if cfg.train == "position" else None
    param = torch.zeros_like(init, requires_grad=True)
    opt = torch.optim.Adam([param], lr=cfg.lr)
    trace = []
    every = max(1, cfg.steps // 10)
    for t in range(cfg.steps):
        W = init + (param * mask if mask is not None else param)
        loss = cot_loss(runs, W, runs.train)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if t % every == 0 or t == cfg.steps - 1:
            trace.append(float(loss.detach()) / runs.S)
    with torch.no_grad():
        W = init + (param * mask if mask is not None else param)
    return W.detach(), trace


def run_experiment(cfg: Config, seed: int, device: str | None = "cpu") -> dict:
    """Build, (pre)train, fine-tune, evaluate; JSON-ready per-seed results."""
    runs = build_runs(cfg, seed, device)
    WKQ0 = None
    if cfg.mlp == "pretrain":
        WKQ0 = pretrain(runs, seed)
    W, trace = finetune(runs, WKQ0)
    ev = evaluate(runs, W, runs.test)
    ceil = [float(bayes_first_step(f, cfg.examples)) for f in runs.fams]
    return {"acc1": ev["acc1"].tolist(), "p1": ev["p1"].tolist(), "acc2": ev["acc2"].tolist(),
            "p2": ev["p2"].tolist(), "min_acc2": ev["min_acc2"].tolist(), "row1": ev["row1"].tolist(),
            "row2": ev["row2"].tolist(), "ceiling": ceil, "loss_trace": trace, **runs.info}


@lru_cache(maxsize=64)
def cached_experiment(cfg: Config, seed: int, device: str = "cpu") -> dict:
    """In-process cache: the quick claims share runs (E-second-perfect reuses the others')."""
    return run_experiment(cfg, seed, device)


# --- Figure 4: pretraining the MLP (and W^KQ) on (u1, u2) → third element -------------------------

def pretrain_data(fam: Family) -> tuple[np.ndarray, np.ndarray]:
    """Every pretraining sequence (u1, u2) with its target: each fact (s, r, a), each ordered choice
    of two of its three elements (6 sequences per fact); tokens in the vocabulary order."""
    n, m = fam.n, fam.m
    s = np.repeat(np.arange(n), m)
    r = np.tile(np.arange(m), n)
    a = fam.array[r, s]
    triple = np.stack([s, n + r, n + m + a], axis=1)  # tokens
    seqs, targets = [], []
    for i, j, k in ((0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 0, 1), (1, 2, 0), (2, 1, 0)):
        seqs.append(triple[:, [i, j]])
        targets.append(triple[:, k])
    return np.concatenate(seqs), np.concatenate(targets)


def _pretrain_logits(runs: Runs, WKQ, Wm, Vm, tokens) -> torch.Tensor:
    """All |V| logits of the one-layer model on (u1, u2) with MLP (Wm, Vm) ∈ R^{H × d}."""
    attn = attention(runs, WKQ, tokens)
    A = torch.einsum("shd,sdu->shu", Wm, runs.Phi)  # W Φ
    B = torch.einsum("shd,sdu->shu", Vm, runs.Phi)  # V Φ
    cols = _gather_seq(A.transpose(1, 2), tokens)
    pre = cols[:, :, -1, :] + torch.einsum("sbk,sbkh->sbh", attn, cols)
    return torch.einsum("sbh,shu->sbu", pre ** 2, B)


def pretrain(runs: Runs, seed: int) -> torch.Tensor:
    """Pretrain W^KQ and the MLP (Adam, full batch, unmasked cross-entropy over V at cfg.pre_T),
    then freeze the MLP: runs.CW, runs.CV become W Φ, V Φ.  Returns the pretrained W^KQ, which
    fine-tuning continues from.  Records the storage accuracy (§2.1 argmax definition) with the
    Bayes ceiling of each of the six (u1, u2) orders in runs.info."""
    cfg = runs.cfg
    S, d = runs.S, runs.Phi.shape[1]
    H = cfg.pre_width or 3 * cfg.n * cfg.n
    D = cfg.d_P + d
    g = torch.Generator(device="cpu").manual_seed(int(np.random.default_rng([seed, 999]).integers(2**31)))
    Wm = (torch.randn(S, H, d, generator=g, dtype=DTYPE) / np.sqrt(d)).to(runs.dev).requires_grad_()
    Vm = (torch.randn(S, H, d, generator=g, dtype=DTYPE) / np.sqrt(H)).to(runs.dev).requires_grad_()
    WKQ = torch.zeros(S, D, D, dtype=DTYPE, device=runs.dev, requires_grad=True)
    data = [pretrain_data(f) for f in runs.fams]
    tok = torch.as_tensor(np.stack([x[0] for x in data]), device=runs.dev)
    tgt = torch.as_tensor(np.stack([x[1] for x in data]), device=runs.dev)
    allv = torch.arange(cfg.vocab, device=runs.dev)
    opt = torch.optim.Adam([WKQ, Wm, Vm], lr=cfg.lr)
    trace = []
    for t in range(cfg.pre_steps):
        lg = _pretrain_logits(runs, WKQ, Wm, Vm, tok)[:, :, allv]
        loss = ce(lg, tgt, cfg.pre_T).mean(-1).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if t % max(1, cfg.pre_steps // 10) == 0 or t == cfg.pre_steps - 1:
            trace.append(float(loss.detach()) / S)
    with torch.no_grad():
        lg = _pretrain_logits(runs, WKQ, Wm, Vm, tok)
        acc = argmax_accuracy(lg, tgt)  # S × N
        runs.CW = torch.einsum("shd,sdu->shu", Wm, runs.Phi)
        runs.CV = torch.einsum("shd,sdu->shu", Vm, runs.Phi)
    N = tok.shape[1] // 6
    orders = ["(s,r)->a", "(r,s)->a", "(s,a)->r", "(a,s)->r", "(r,a)->s", "(a,r)->s"]
    by = acc.reshape(S, 6, N).mean(-1).cpu().numpy()
    runs.info["pretrain"] = {"storage_accuracy": acc.mean(1).cpu().numpy().tolist(),
                             "storage_by_order": {o: by[:, i].tolist() for i, o in enumerate(orders)},
                             "storage_ceiling_by_order": {o: [storage_ceiling(f, o) for f in runs.fams]
                                                          for o in orders},
                             "loss_trace": trace, "width": H}
    return WKQ.detach()


def storage_ceiling(fam: Family, order: str) -> float:
    """Bayes-optimal argmax accuracy of the pretraining task for one (u1, u2) order: (s, r) → a and
    (a, r) → s are unique; (s, a) → r is ambiguous among the |R(s, a)| relations."""
    if "->r" not in order:
        return 1.0
    counts = np.zeros((fam.n, fam.n), dtype=np.int64)
    np.add.at(counts, (np.tile(np.arange(fam.n), fam.m), fam.array.reshape(-1)), 1)
    # each fact (s, r, a) has posterior 1/|R(s, a)|: the mean over facts of 1/|R(s,a)|
    return float(np.sum((counts > 0)) / (fam.n * fam.m))


# --- planted-error / cross-check helpers -------------------------------------------------------------

def fast_vs_full(cfg: Config, seed: int, scale: float = 0.3) -> float:
    """Max |fast logits − ICModel logits| (both steps, all |V| outputs of step 1 masked to
    relations / step 2 to answers) at a random W^KQ, for seed 0 of the batch (2 examples)."""
    from ..model.torch_model import ICModel
    runs = build_runs(replace(cfg, seeds=1), seed)
    fam = runs.fams[0]
    full = ICModel(fam.n, fam.relations, embedding=runs.Phi[0].cpu().numpy(), d_P=cfg.d_P, device="cpu")
    g = np.random.default_rng([seed, 7])
    D = cfg.d_P + runs.Phi.shape[1]
    W = torch.as_tensor(scale * g.standard_normal((1, D, D)), dtype=DTYPE)
    err = 0.0
    for step, key, out in ((1, "step1", full.relation_tokens), (2, "step2", full.answer_tokens)):
        fast, _ = step_logits(runs, W, runs.test, step)
        tok = runs.test[key][0]
        ref = full.logits(tok, W[0])[:, out]
        err = max(err, float((fast[0] - ref).abs().max() / ref.abs().max()))
    return err


def pairwise_stats(row1: Sequence[float], examples: int) -> dict:
    """Within-pair spread Σ_j |v_{2j−1} − v_{2j}| and the smallest across-pair gap
    min_{j<j'} |(v_{2j−1} + v_{2j}) − (v_{2j'−1} + v_{2j'})| of an averaged EoS attention row."""
    v = np.asarray(row1, dtype=float)
    sums = [v[2 * j] + v[2 * j + 1] for j in range(examples)]
    within = float(sum(abs(v[2 * j] - v[2 * j + 1]) for j in range(examples)))
    across = float(min(abs(sums[i] - sums[j]) for i in range(examples) for j in range(i + 1, examples)))
    return {"within": within, "across": across, "pair_sums": sums}
