"""The model's defining identities and per-sample gradients (Eqs. 4–8, 20, 22–23; spec claims
KX-E45-attn, KX-E20-neuron-form, KX-L1-gradW, KX-L1-gradZ).  Eqs. 22–23 were lost in extraction:
the gradients are derived (model/symbolic.py: ``sp.diff`` of the loss; model/transformer.py: the closed forms) and
checked against each other and against torch autograd."""
from __future__ import annotations

import numpy as np
import sympy as sp
import torch

import theoryverify as tv

from ..model import symbolic as S
from ..model import transformer as model
from ..model.draws import configurations, describe

CLAIMS = tv.ClaimSet("knowledge")
RECON = {"model": "spec §2.2 reconstruction: α = softmax(Xᵀ Z x_L), attn = Xα, F_j = κ Σ_l ReLU(⟨w_{j,l}, attn⟩), "
                  "p = softmax(F), no value/output matrix, no positions",
         "embeddings": "orthogonal, x_v = ‖x_v‖ e_v (Sec. 3)"}


def domain_for(*exprs) -> tv.Domain:
    syms = sorted(set().union(*[sp.sympify(e).free_symbols for e in exprs]), key=str)
    return tv.Domain([tv.Interval(s, 0.25, 2.0) if s.is_positive else tv.Interval(s, -1.5, 1.5) for s in syms])


def entrywise(lhs: sp.Matrix, rhs: sp.Matrix, seed: int, **kw):
    return tv.combine({f"[{i}]": tv.check_identity(a, b, domain_for(a, b), seed + i, **kw)
                    for i, (a, b) in enumerate(zip(lhs, rhs))})


def lambdified_agreement(lhs: sp.Matrix, rhs: sp.Matrix, seed: int, n: int = 20):
    """Both matrices compiled (float64) and compared at Hypothesis-drawn points of the declared domain."""
    from hypothesis import strategies as st
    syms = sorted(lhs.free_symbols | rhs.free_symbols, key=str)
    f, g = (sp.lambdify(syms, M, modules=[{"Heaviside": lambda x, h0=0.0: np.heaviside(x, 0.0)}, "numpy"]) for M in (lhs, rhs))
    pts = st.tuples(*[st.floats(0.25, 2.0) if x.is_positive else st.floats(-1.5, 1.5) for x in syms])
    return tv.check_agreement(lambda p: f(*p), lambda p: g(*p), pts, seed=seed, rtol=1e-12, n=n,
                           names=("sp.diff", "closed form"),
                           describe=lambda p: {str(x): v for x, v in zip(syms, p)})


# --- Eqs. 4–5 ----------------------------------------------------------------------------------

def scores_by_index(x: dict, transpose: bool = False) -> torch.Tensor:
    """x_lᵀ Z x_L = ‖x_l‖ ‖x_L‖ Z[idx_l, idx_L] (orthogonal embeddings)."""
    X, mask, xL = model.inputs(x["E"], x["data"])
    tok = torch.as_tensor(x["data"].tokens).clamp_min(0)
    last = tok[torch.arange(len(tok)), mask.sum(1) - 1]
    norms = torch.as_tensor(x["E"].max(0), dtype=model.DT)
    Z = x["Z"].T if transpose else x["Z"]
    s = norms[tok] * norms[last][:, None] * Z[tok, last[:, None]]
    return torch.where(mask, s, torch.zeros_like(s))


def scores_dense(x: dict) -> torch.Tensor:
    X, mask, xL = model.inputs(x["E"], x["data"])
    return torch.einsum("nld,de,ne->nl", X, x["Z"], xL) * mask


@CLAIMS.add("e45-attn", location="Eqs. 4–5, Sec. 2", kind=tv.Kind.IDENTITY, catalogue_id="KX-E45-attn",
            statement="α = softmax(Xᵀ Z x_L), attn(X) = Xα; with orthogonal tokens x_lᵀ Z x_L = ‖x_l‖‖x_L‖ Z[idx_l, idx_L]",
            choices=RECON)
def check_e45(ctx, by_index=scores_by_index):
    Z = sp.Matrix(3, 3, lambda a, b: sp.Symbol(f"z{a}{b}", real=True))
    n = sp.symbols("n0:3", positive=True)
    x = [sp.Matrix([n[v] if i == v else 0 for i in range(3)]) for v in range(3)]
    sym = tv.combine({f"(l={l}, L={L})": tv.check_identity((x[l].T * Z * x[L])[0], n[l] * n[L] * Z[l, L],
                                                     domain_for(Z[l, L], n[l], n[L]), ctx.seed)
                   for l in range(3) for L in range(3)})
    num = tv.check_agreement(lambda c: by_index(c).numpy(), lambda c: scores_dense(c).numpy(), configurations(),
                          seed=ctx.seed, rtol=1e-12, n=25, names=("one-hot index form", "dense Xᵀ Z x_L"),
                          describe=describe)
    return tv.combine({"symbolic": sym, "dense vs index": num})


# --- Eqs. 6–8 ⇔ 20 -----------------------------------------------------------------------------

@CLAIMS.add("e20-neuron-form", location="Eqs. 6–8 ⇔ Eq. 20, Sec. 2", kind=tv.Kind.IDENTITY,
            catalogue_id="KX-E20-neuron-form",
            statement="κ I_d V σ(W h) with V = I_d ⊗ 1_mᵀ equals (κ Σ_{l∈[m]} σ(⟨w_{j,l}, h⟩))_j",
            choices={**RECON, "instance": "d = 3, m = 2, symbolic W, h, κ"})
def check_e20(ctx, d: int = 3, m: int = 2, form=S.Instance.F_matrix_form):
    inst = S.instance(d=d, m=m)
    h = sp.Matrix(sp.symbols(f"h0:{d}", real=True))
    return entrywise(sp.Matrix(form(inst, h)), sp.Matrix(inst.F(h)), ctx.seed)


# --- Eqs. 22–23 (lost): derived gradients ------------------------------------------------------

def autograd_grads(x: dict):
    X, mask, xL = model.inputs(x["E"], x["data"])
    y = torch.as_tensor(x["data"].targets)
    out_W, out_Z = [], []
    for n in range(len(y)):
        Z = x["Z"].clone().requires_grad_(True)
        W = x["W"].clone().requires_grad_(True)
        ell = model.loss(Z, W, X[n:n + 1], mask[n:n + 1], xL[n:n + 1], y[n:n + 1],
                         torch.ones(1, dtype=model.DT), x["recon"].kappa)
        gZ, gW = torch.autograd.grad(ell, [Z, W])
        out_W.append(gW)
        out_Z.append(gZ)
    return torch.stack(out_W), torch.stack(out_Z)


def closed_grads(x: dict, grads=model.per_sample_grads):
    X, mask, xL = model.inputs(x["E"], x["data"])
    return grads(x["Z"], x["W"], X, mask, xL, torch.as_tensor(x["data"].targets), x["recon"].kappa)


@CLAIMS.add("l1-gradw", location="Lemma 1, Eq. 22 (lost; derivation task)", kind=tv.Kind.AUTOGRAD,
            catalogue_id="KX-L1-gradW", choices=RECON,
            statement="per-sample ∂ℓ/∂w_{j,l} = κ (p_j − 1{j = y}) 1{⟨w_{j,l}, h⟩ > 0} h, h = attn(X) (derived)",
            params={"which": 0})
@CLAIMS.add("l1-gradz", location="Lemma 1, Eq. 23 (lost; derivation task)", kind=tv.Kind.AUTOGRAD,
            catalogue_id="KX-L1-gradZ", choices=RECON,
            statement=("per-sample ∂ℓ/∂Z = Σ_l α_l ⟨x_l − h, g⟩ x_l x_Lᵀ with g = ∂ℓ/∂h = "
                       "κ Σ_j (p_j − 1{j = y}) Σ_l 1{⟨w_{j,l}, h⟩ > 0} w_{j,l} (derived)"),
            params={"which": 1})
def check_grad(ctx, which: int | None = None, grads=model.per_sample_grads, closed_sym=None):
    """sp.diff of the loss vs the closed form on a length-3 instance (W: the target's and another
    output's neuron, symbolic simplification first; Z: all 9 entries at exact/50-digit points), then
    the closed form vs torch autograd on drawn configurations.  ``which``: 0 = ∂ℓ/∂W, 1 = ∂ℓ/∂Z (default
    ``ctx.params["which"]``)."""
    which = ctx.params["which"] if which is None else which
    inst = S.instance(d=3, m=1, seq=(0, 1, 2), target=1)
    if which == 0:
        closed_sym = closed_sym or S.grad_w_closed
        sym = tv.combine({f"w_{{{j},0}}": entrywise(S.grad_w_diff(inst, j, 0), closed_sym(inst, j, 0), ctx.seed,
                                                 symbolic_seconds=0.5, n_rational=3) for j in (1, 2)})
    else:
        closed_sym = closed_sym or S.grad_z_closed
        sym = lambdified_agreement(S.grad_z_diff(inst), closed_sym(inst), ctx.seed)
    num = tv.check_agreement(lambda c: closed_grads(c, grads)[which].numpy(), lambda c: autograd_grads(c)[which].numpy(),
                          configurations(), seed=ctx.seed, rtol=1e-10, n=8, names=("derived", "autograd"),
                          describe=describe)
    return tv.combine({"sp.diff vs closed form": sym, "closed form vs torch autograd": num})


