"""Prop. 3's object, derived: the gradient of each MLP neuron in the first FT iteration (spec claim
KX-P3-identity; the printed display was lost).

On a Q&A prompt [s_i, f] the attention output is h_i = α_s^i x_{s_i} + α_f^i x_f (two tokens), so by
the per-sample gradient (model.py)

    ∇_{w_{j,l}} L_FT = (κ/Ñ_f) Σ_{i ∈ D_FT} c_{ijl} (α_s^i μ e_{s_i} + α_f^i e_f),
    c_{ijl} = (p_j([s_i,f]) − 1{j = a_i}) · 1{⟨w_{j,l}, h_i⟩ > 0}:

it lies in span{e_f, e_{s_i} : i ∈ D_FT}; its e_f-component (κ/Ñ_f) Σ_i c_{ijl} α_f^i sums over all FT
pairs, while each e_{s_i}-component (κ/Ñ_f) c_{ijl} α_s^i μ comes from pair i alone — the mechanism by
which the f-direction dominates once Ñ_f is large (Prop. 3, Lemma 23).
"""
from __future__ import annotations

import numpy as np
import torch
from hypothesis import strategies as st

from theoryverify.checks import check_agreement
from theoryverify.claims import ClaimSet, Kind
from theoryverify.verdicts import combine

from . import data, model
from .setup import Recon, embeddings

CLAIMS = ClaimSet("knowledge")


def derived(x: dict, drop_alpha_f: bool = False) -> np.ndarray:
    """The decomposition above, assembled from its components (shape (d, m, d))."""
    kn, rec, Z, W = x["kn"], x["recon"], x["Z"], x["W"]
    ds = kn.ft()
    X, mask, xL = model.inputs(embeddings(kn.vocab, rec), ds)
    out = model.forward(Z, W, X, mask, xL, rec.kappa)
    p = torch.softmax(out["F"], 1).numpy()
    act = (out["pre"] > 0).numpy()
    alpha = out["alpha"].numpy()
    G = np.zeros(W.shape)
    v = kn.vocab
    for n, i in enumerate(ds.pair):
        c = (p[n] - np.eye(p.shape[1])[ds.targets[n]])[:, None] * act[n]          # (d, m)
        G[:, :, v.s(i)] += c * alpha[n, 0] * rec.mu
        if not drop_alpha_f:
            G[:, :, v.f] += c * alpha[n, 1]
    return rec.kappa * G / len(ds)


def autograd(x: dict) -> np.ndarray:
    kn, rec = x["kn"], x["recon"]
    ds = kn.ft()
    X, mask, xL = model.inputs(embeddings(kn.vocab, rec), ds)
    W = x["W"].clone().requires_grad_(True)
    L = model.loss(x["Z"], W, X, mask, xL, torch.as_tensor(ds.targets), torch.as_tensor(ds.weights), rec.kappa)
    return torch.autograd.grad(L, W)[0].numpy()


@st.composite
def states(draw):
    N_f, R = draw(st.integers(2, 8)), draw(st.integers(2, 5))
    K = draw(st.integers(1, R))
    seed = draw(st.integers(0, 2**31 - 1))
    kn = data.make(N_f, draw(st.integers(0, 3)), K, R, beta=draw(st.sampled_from([0.25, 0.5, 1.0])), seed=seed)
    rec = Recon(mu=draw(st.floats(0.5, 2.0)), mu_c=draw(st.floats(1.0, 5.0)), kappa=draw(st.floats(0.5, 2.0)),
                m=draw(st.integers(1, 4)))
    Z, W = model.init(kn.vocab.size, rec.m, draw(st.floats(0.02, 2.0)), np.random.default_rng(seed))
    return {"kn": kn, "recon": rec, "Z": Z, "W": W, "seed": seed, "N_f": N_f, "K": K, "R": R}


def describe(x: dict) -> dict:
    return {k: x[k] for k in ("seed", "N_f", "K", "R")} | x["recon"].record()


def check_identity_ft(ctx, fn=derived):
    return check_agreement(lambda x: fn(x), autograd, states(), seed=ctx.seed, rtol=1e-10, n=15,
                           names=("span{f, s_i} decomposition", "autograd ∇_W L_FT"), describe=describe)


def check_span(ctx):
    """Every component of ∇_W L_FT outside span{e_f, e_{s_i} : i ∈ D_FT} is exactly 0 (autograd)."""
    def outside(x):
        g = autograd(x)
        keep = [x["kn"].vocab.f] + [x["kn"].vocab.s(i) for i in x["kn"].ft_pairs]
        g[..., keep] = 0.0
        return g
    return check_agreement(outside, lambda x: np.zeros(x["W"].shape), states(), seed=ctx.seed, rtol=1e-12, n=15,
                           names=("components off span{f, s_i}", "0"), describe=describe)


@CLAIMS.add("p3-identity", location="Prop. 3 (display lost; derivation task), Lemma 23", kind=Kind.AUTOGRAD,
            catalogue_id="KX-P3-identity",
            statement=("first-FT-iteration gradient of neuron w_{j,l}: (κ/Ñ_f) Σ_i c_{ijl}(α_s^i μ e_{s_i} + α_f^i e_f) "
                       "with c_{ijl} = (p_j − 1{j=a_i}) 1{⟨w_{j,l},h_i⟩>0}: in span{f, s_i}; the f-component sums over "
                       "all FT pairs, each s_i-component comes from pair i alone"),
            choices={"parameters": "any (Z, W): drawn N(0, s²), s ∈ [0.02, 2] (the identity does not need PT)",
                     "FT set": "β ∈ {0.25, 0.5, 1} of N_f ∈ [2, 8] frequent pairs"})
def p3_identity(ctx):
    return combine({"decomposition = autograd": check_identity_ft(ctx), "support": check_span(ctx)})
