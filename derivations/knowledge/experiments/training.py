"""Pre-training and fine-tuning (Sec. 4; spec §2.5, RECONSTRUCTED): full-batch GD on the loss (9) with
the three-stage learning-rate schedule (η_1 for t < T_1, η_2 for T_1 ≤ t < T_2, η_3 after), full FT
(the same GD on D_FT) and low-rank FT (W ← W − η_FT σ_1 u_1 v_1ᵀ, the best rank-1 approximation of
∇_W L_FT, App. H).  Observables along the way: the attention on c for both pre-training input types,
α_s/α_r on [c, s_i, r], the relation mass on [c, s_i], answer accuracy, and the OOD error (Eq. 12).
Float64; CUDA when available (``device``), CPU otherwise."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from ..model import transformer as model
from ..model.data import Dataset, Knowledge
from ..model.setup import Recon, embeddings


def resolve_device(name: str = "auto") -> str:
    """``auto``: CUDA when available, CPU otherwise; ``cpu`` / ``cuda`` as given."""
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("device cuda requested but no CUDA device is available")
    if name not in ("cpu", "cuda"):
        raise ValueError(f"unknown device {name!r} (auto, cpu, cuda)")
    return name


@dataclass
class Batch:
    X: torch.Tensor
    mask: torch.Tensor
    xL: torch.Tensor
    y: torch.Tensor
    w: torch.Tensor


def batch(E: np.ndarray, ds: Dataset, device: str) -> Batch:
    X, mask, xL = model.inputs(E, ds)
    return Batch(X.to(device), mask.to(device), xL.to(device), torch.as_tensor(ds.targets, device=device),
                 torch.as_tensor(ds.weights, dtype=model.DT, device=device))


@dataclass
class State:
    Z: torch.Tensor
    W: torch.Tensor
    trace: dict[str, list] = field(default_factory=dict)

    def log(self, t: int, **values) -> None:
        self.trace.setdefault("t", []).append(t)
        for k, v in values.items():
            self.trace.setdefault(k, []).append(float(v))


def schedule(etas: tuple[float, float, float], stages: tuple[int, int, int]):
    """η_t of the three-stage schedule (Sec. 4): η_1 for t < T_1, η_2 for T_1 ≤ t < T_2, η_3 for t < T."""
    T1, T2, _ = stages
    return lambda t: etas[0] if t < T1 else (etas[1] if t < T2 else etas[2])


def observe(st: State, kn: Knowledge, recon: Recon, b2: Batch, b3: Batch) -> dict[str, float]:
    """Attention and prediction summaries on the two pre-training input types ([c,s_i] and [c,s_i,r])."""
    v = kn.vocab
    o2 = model.forward(st.Z, st.W, b2.X, b2.mask, b2.xL, recon.kappa)
    o3 = model.forward(st.Z, st.W, b3.X, b3.mask, b3.xL, recon.kappa)
    p2, p3 = torch.softmax(o2["F"], 1), torch.softmax(o3["F"], 1)
    rel = torch.as_tensor(v.relations(), device=p2.device)
    return {"alpha_c_2": o2["alpha"][:, 0].max(), "alpha_c_3": o3["alpha"][:, 0].max(),
            "alpha_s_over_r": (o3["alpha"][:, 1] / o3["alpha"][:, 2]).median(),
            "alpha_s_min": o3["alpha"][:, 1].min(), "alpha_r_min": o3["alpha"][:, 2].min(),
            "relation_mass_min": p2[:, rel].sum(1).min(),
            "answer_acc": (o3["F"].argmax(1) == b3.y).to(model.DT).mean(),
            "answer_prob_min": p3[torch.arange(len(b3.y)), b3.y].min()}


def pretrain(kn: Knowledge, recon: Recon, etas=(10.0, 5.0, 1.0), stages=(100, 600, 1500), seed: int = 0,
             record_every: int = 10, device: str = "cpu") -> State:
    dev = resolve_device(device)
    E = embeddings(kn.vocab, recon)
    ds = kn.ntp(recon)
    full = batch(E, ds, dev)
    two = ds.tokens[:, 2] < 0
    b2, b3 = batch(E, ds.subset(two), dev), batch(E, ds.subset(~two), dev)
    Z, W = model.init(E.shape[0], recon.m, recon.sigma0, np.random.default_rng(seed))
    st = State(Z.to(dev), W.to(dev))
    eta = schedule(etas, stages)
    for t in range(stages[2] + 1):
        Zr, Wr = st.Z.requires_grad_(True), st.W.requires_grad_(True)
        L = model.loss(Zr, Wr, full.X, full.mask, full.xL, full.y, full.w, recon.kappa)
        gZ, gW = torch.autograd.grad(L, [Zr, Wr])
        if t % record_every == 0 or t == stages[2]:
            with torch.no_grad():
                st.log(t, loss=L, eta=eta(t), **observe(st, kn, recon, b2, b3))
        if t == stages[2]:
            break
        with torch.no_grad():
            st.Z = (st.Z - eta(t) * gZ).detach()
            st.W = (st.W - eta(t) * gW).detach()
    st.Z, st.W = st.Z.detach(), st.W.detach()
    return st


def ood_error(st: State, kn: Knowledge, recon: Recon, ds: Dataset | None = None) -> float:
    """Eq. 12: misclassification rate on unseen Q&A pairs (argmax over all d outputs)."""
    ds = kn.ood() if ds is None else ds
    if len(ds) == 0:
        return float("nan")
    b = batch(embeddings(kn.vocab, recon), ds, st.Z.device)
    F = model.forward(st.Z, st.W, b.X, b.mask, b.xL, recon.kappa)["F"]
    return float((F.argmax(1) != b.y).to(model.DT).mean())


def ft_gradient(st: State, kn: Knowledge, recon: Recon) -> tuple[torch.Tensor, torch.Tensor, float]:
    """(∇_Z L_FT, ∇_W L_FT, L_FT) at the current parameters."""
    b = batch(embeddings(kn.vocab, recon), kn.ft(), st.Z.device)
    Zr, Wr = st.Z.clone().requires_grad_(True), st.W.clone().requires_grad_(True)
    L = model.loss(Zr, Wr, b.X, b.mask, b.xL, b.y, b.w, recon.kappa)
    gZ, gW = torch.autograd.grad(L, [Zr, Wr])
    return gZ, gW, float(L.detach())


def rank1(G: torch.Tensor) -> torch.Tensor:
    """Best rank-1 approximation (Eckart–Young–Mirsky) of W's gradient viewed as a (d·m) × d matrix."""
    M = G.reshape(-1, G.shape[-1])
    U, S, Vh = torch.linalg.svd(M, full_matrices=False)
    return (S[0] * torch.outer(U[:, 0], Vh[0])).reshape(G.shape)


def finetune(st: State, kn: Knowledge, recon: Recon, eta_ft: float, steps: int, mode: str = "full",
             record_every: int = 1) -> State:
    """Full FT (GD on D_FT; Z moves only if recon.ft_params == "W+Z") or rank-1 FT of W (App. H)."""
    if mode not in ("full", "rank1"):
        raise ValueError(f"FT mode must be 'full' or 'rank1', not {mode!r}")
    out = State(st.Z.clone(), st.W.clone())
    for t in range(steps + 1):
        if t % record_every == 0 or t == steps:
            b = batch(embeddings(kn.vocab, recon), kn.ft(), out.Z.device)
            a = model.attention(out.Z, b.X, b.mask, b.xL)
            out.log(t, ood_error=ood_error(out, kn, recon), alpha_s_ft=a[:, 0].mean())
        if t == steps:
            break
        gZ, gW, _ = ft_gradient(out, kn, recon)
        out.W = out.W - eta_ft * (rank1(gW) if mode == "rank1" else gW)
        if recon.ft_params == "W+Z" and mode == "full":
            out.Z = out.Z - eta_ft * gZ
    return out


# --- batched pre-training (S same-shaped problems as one GD) -------------------------------------------------

def _stack(batches: list[Batch]) -> Batch:
    """One Batch with a leading member dimension (all members share the sample count and d)."""
    return Batch(*(torch.stack([getattr(b, f) for b in batches]) for f in ("X", "mask", "xL", "y", "w")))


def _per_member(value, S: int, name: str) -> list:
    """``value`` for every member: one shared value, or a sequence of S per-member values."""
    if isinstance(value, Recon) or (isinstance(value, (tuple, list)) and value and
                                    not isinstance(value[0], (tuple, list, Recon))):
        return [value] * S
    out = list(value)
    if len(out) != S:
        raise ValueError(f"{name}: {len(out)} values for {S} members")
    return out


def _observe_batched(Z, W, kappa, rel, b2: Batch, b3: Batch) -> dict[str, torch.Tensor]:
    """:func:`observe` for every member at once (vmap of model.forward, reductions along the sample axis)."""
    fwd = torch.func.vmap(model.forward, in_dims=(0, 0, 0, 0, 0, 0))
    o2 = fwd(Z, W, b2.X, b2.mask, b2.xL, kappa)
    o3 = fwd(Z, W, b3.X, b3.mask, b3.xL, kappa)
    p2, p3 = torch.softmax(o2["F"], 2), torch.softmax(o3["F"], 2)
    a2, a3 = o2["alpha"], o3["alpha"]
    return {"alpha_c_2": a2[..., 0].amax(1), "alpha_c_3": a3[..., 0].amax(1),
            "alpha_s_over_r": (a3[..., 1] / a3[..., 2]).median(1).values,
            "alpha_s_min": a3[..., 1].amin(1), "alpha_r_min": a3[..., 2].amin(1),
            "relation_mass_min": p2[..., rel].sum(2).amin(1),
            "answer_acc": (o3["F"].argmax(2) == b3.y).to(model.DT).mean(1),
            "answer_prob_min": torch.gather(p3, 2, b3.y[..., None])[..., 0].amin(1)}


def pretrain_batched(kns, recon, etas=(10.0, 5.0, 1.0), stages=(100, 600, 1500), seeds=(0,),
                     device: str | None = None, record_every: int = 10) -> list[State]:
    """S pre-training runs as ONE batched full-batch GD: member k is ``pretrain(kns[k], recons[k], etas[k],
    stages, seeds[k], record_every)`` (same three-stage schedule and steps, Sec. 4).

    ``kns``, ``recon``, ``etas`` are one shared value or one per member (``seeds`` is one init seed per
    member); members must share the tensor shapes (N_f, N_r, K, |𝓡|, m, d), so the data draws, the
    initialisations, η and μ, μ_c, κ may differ.  Z, W and the data get a leading member dimension; the
    member losses are ``torch.func.vmap(model.loss)`` (the one model definition) and the gradients autograd
    of their sum (∂(Σ_s L_s)/∂(Z_s, W_s) = ∂L_s/∂(Z_s, W_s)); the trace holds :func:`observe`'s observables.  On CPU equal to the per-member :func:`pretrain` runs bit for
    bit (tests/knowledge/test_batched.py asserts ≤ 1e-12 relative; on a GPU equal up to kernel rounding).
    ``device=None``: CUDA when available, CPU otherwise.  Speed-up over sequential ``pretrain`` (shared 2-core
    CPU, one torch thread, S = 1 / 4 / 8 members): tiny config (N = 8, m = 4) 0.5× / 1.6× / 2.5×;
    pretrained.DEFAULT (N = 25, d = 58, m = 8) 0.74× / 1.16× / 1.30×; N_f = 40 (d = 108) 0.88× / 0.89× / 0.98× — the
    CPU step is compute/cache-bound (bmm), so batching pays on CPU only for small problems and mainly on a GPU."""
    S = len(seeds)
    kns = list(kns) if isinstance(kns, (list, tuple)) else [kns] * S
    if len(kns) != S:
        raise ValueError(f"{len(kns)} datasets for {S} seeds")
    recons, etass = _per_member(recon, S, "recon"), _per_member(etas, S, "etas")
    shape = {(kn.N_f, kn.N_r, kn.K, kn.vocab.R, r.m, r.d_extra) for kn, r in zip(kns, recons)}
    if len(shape) != 1:
        raise ValueError(f"members must share (N_f, N_r, K, R, m, d_extra); got {sorted(shape)}")
    dev = resolve_device("auto" if device is None else device)
    full, b2, b3, Z0, W0 = [], [], [], [], []
    for kn, rec, seed in zip(kns, recons, seeds):
        E = embeddings(kn.vocab, rec)
        ds = kn.ntp(rec)
        two = ds.tokens[:, 2] < 0
        full.append(batch(E, ds, dev))
        b2.append(batch(E, ds.subset(two), dev))
        b3.append(batch(E, ds.subset(~two), dev))
        Z, W = model.init(E.shape[0], rec.m, rec.sigma0, np.random.default_rng(seed))
        Z0.append(Z)
        W0.append(W)
    full, b2, b3 = _stack(full), _stack(b2), _stack(b3)
    Z, W = torch.stack(Z0).to(dev), torch.stack(W0).to(dev)
    kappa = torch.tensor([r.kappa for r in recons], dtype=model.DT, device=dev)
    rel = torch.as_tensor(kns[0].vocab.relations(), device=dev)
    T1, T2, T = stages
    eta_table = torch.tensor(etass, dtype=model.DT, device=dev)            # (S, 3)
    losses = torch.func.vmap(model.loss)          # (S,) member losses; Σ_s L_s has ∂/∂(Z_s, W_s) = ∂L_s
    traces: list[dict[str, list]] = [{} for _ in range(S)]
    for t in range(T + 1):
        Zr, Wr = Z.detach().requires_grad_(True), W.detach().requires_grad_(True)
        L = losses(Zr, Wr, full.X, full.mask, full.xL, full.y, full.w, kappa)
        gZ, gW = torch.autograd.grad(L.sum(), [Zr, Wr])
        L = L.detach()
        k = 0 if t < T1 else (1 if t < T2 else 2)
        if t % record_every == 0 or t == T:
            with torch.no_grad():
                obs = _observe_batched(Z, W, kappa, rel, b2, b3)
            cols = {"loss": L, "eta": eta_table[:, k], **obs}
            vals = {n: v.detach().cpu().tolist() for n, v in cols.items()}
            for s, tr in enumerate(traces):
                tr.setdefault("t", []).append(t)
                for n, v in vals.items():
                    tr.setdefault(n, []).append(float(v[s]))
        if t == T:
            break
        with torch.no_grad():
            eta = eta_table[:, k]
            Z = Z - eta[:, None, None] * gZ
            W = W - eta[:, None, None, None] * gW
    return [State(Z[s].clone(), W[s].clone(), traces[s]) for s in range(S)]
