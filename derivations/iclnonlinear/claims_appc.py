"""App. C token-level displays: d attn_i/dQ, ∇_Q L, and the Eq. 12 chain (2nd line) for g_k."""
from __future__ import annotations

import numpy as np
import torch

from theoryverify.checks import check_agreement
from theoryverify.claims import ClaimSet, Kind, Status
from theoryverify.findings import Finding
from theoryverify.verdicts import combine

from . import printed
from .claims_lemma2 import autograd_g
from .claims_model import N_DRAWS, prompts
from .draws import configurations, describe
from .geometry import GEOMETRIES
from .gradients import expect
from .torch_model import attention_jacobian, eq6_attention, one_thread, population_batch, population_grad

CLAIMS = ClaimSet("iclnonlinear")


def jac_printed(x, formula=printed.appC_dattn):
    X = x["V"].T[x["classes"]]
    xq = x["V"][:, x["query"]]
    with torch.no_grad():
        attn = eq6_attention(torch.as_tensor(x["Q"]), torch.as_tensor(X)[None], torch.as_tensor(xq)[None])[0].numpy()
    return formula(attn, X, xq)


def jac_autograd(x):
    return attention_jacobian(x["Q"], x["V"].T[x["classes"]], x["V"][:, x["query"]])


def check_dattn(ctx, formula=printed.appC_dattn):
    parts = {g: check_agreement(lambda x: jac_printed(x, formula), jac_autograd, prompts(g), ctx.seed, n=N_DRAWS,
                                names=("printed d attn/dQ", "autograd jacobian"), describe=describe) for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


@CLAIMS.add("appC-dattn", location="App. C, d attn_i/dQ display (last line)", kind=Kind.AUTOGRAD,
            catalogue_id="ICLN-C-dattn",
            statement="d attn_i/dQ = attn_i Σ_j attn_j (X̄_i − X̄_j) x_queryᵀ (i ∈ [N], X̄_i = x_i)",
            choices={"layout": "(dattn_i/dQ)_{ab} = ∂attn_i/∂Q_{ab}"})
def appC_dattn(ctx):
    return check_dattn(ctx)


@one_thread
def gradQ_printed(x, integrand=printed.appC_gradQ_integrand):
    total = 0.0
    for f in x["tasks"]:
        X, y, xq, target, w = (t.numpy() for t in population_batch(x["V"], x["p"], f, x["N"]))
        attn = eq6_attention(torch.as_tensor(x["Q"]), torch.as_tensor(X), torch.as_tensor(xq)).numpy()
        yhat = (attn * y).sum(1)
        total = total + sum(w[s] * integrand(attn[s], X[s], xq[s], y[s], yhat[s], target[s]) for s in range(len(w)))
    return total / len(x["tasks"])


def check_gradQ(ctx, integrand=printed.appC_gradQ_integrand):
    parts = {g: check_agreement(lambda x: gradQ_printed(x, integrand),
                                lambda x: population_grad(x["Q"], x["V"], x["p"], x["tasks"], x["N"]),
                                configurations(g, N=(1, 2)), ctx.seed, n=15, names=("printed ∇_Q L", "autograd"),
                                describe=describe) for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


@CLAIMS.add("appC-gradQ", location="App. C, ∇_Q L display", kind=Kind.AUTOGRAD, catalogue_id="ICLN-C-gradQ",
            statement="∇_Q L = E[(ŷ_query − f(v_k)) Σ_{i,j} attn_i attn_j (X̄_i − X̄_j) x_queryᵀ y_i]",
            choices={"f(v_k)": "read as f(x_query)", "K, N": "K ∈ {2,3}, N ∈ {1,2}"})
def appC_gradQ(ctx):
    return check_gradQ(ctx)


def gk_printed(x, integrand=printed.appC_gk_integrand):
    return np.array([expect(x, k, lambda A, y, f, k=k: integrand(A.T, f, k)) for k in range(x["K"])])


def check_appC_gk(ctx, geometry, integrand=printed.appC_gk_integrand):
    return check_agreement(lambda x: gk_printed(x, integrand), lambda x: np.diag(autograd_g(x)),
                           configurations(geometry), ctx.seed, n=N_DRAWS, names=("printed App. C g_k", "autograd"),
                           describe=describe)


GK_LINE = "g_k = −v_kᵀ∇_Q L v_k = E[1{x_q = v_k} Attn_k (f(v_k) − Σ_n Attn_n f(v_n))²] (App. C, Eq. 12 chain, line 2)"


@CLAIMS.add("appC-gk-orthonormal", location="App. C, Eq. 12 chain", kind=Kind.AUTOGRAD,
            catalogue_id="ICLN-L2-gk-exact", statement=GK_LINE + " — orthonormal features")
def appC_gk_orthonormal(ctx):
    return check_appC_gk(ctx, "orthonormal")


@CLAIMS.add("appC-gk-scaled", location="App. C, Eq. 12 chain", kind=Kind.AUTOGRAD,
            catalogue_id="ICLN-L2-gk-exact", statement=GK_LINE + " — scaled orthogonal features",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            supports=("iclnonlinear.eq12-L-exponent", "iclnonlinear.gk-sign-scaled"),
            reason="App. C's line 2 silently assumes ‖v_k‖ = 1: for ‖v_k‖ = r = Δ/√2 the exact g_k is r⁴ = Δ⁴/4 times "
                   "it (relative error 0.0075 at the drawn r); with Δ = Θ(1) the factor is a constant that Eq. 12's "
                   "Θ(L²Δ²) absorbs (sign and L-exponent hold), only the Δ-exponent is affected (eq12-delta-exponent)")
def appC_gk_scaled(ctx):
    return check_appC_gk(ctx, "scaled_orthogonal")


@CLAIMS.add("appC-gk-general", location="App. C, Eq. 12 chain", kind=Kind.AUTOGRAD,
            catalogue_id="ICLN-L2-gk-exact", statement=GK_LINE + " — general features",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="App. C assumes v_{k'}ᵀv_m = 1{k'=m}; for the non-orthogonal features the paper claims to cover "
                   "(Sec. 1 (ii), Sec. 3.1) the exact g_k = (GHG)_kk also collects other query classes and cross "
                   "terms (relative error 0.03), and it can be negative on the GD path (gk-sign-gd-general)")
def appC_gk_general(ctx):
    return check_appC_gk(ctx, "general")
