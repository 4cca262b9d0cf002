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

from theoryverify.devices import resolve_device
from theoryverify.threads import torch_threads

from . import model
from .data import Dataset, Knowledge
from .setup import Recon, embeddings


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
    with torch_threads(1):
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
    with torch_threads(1):
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
