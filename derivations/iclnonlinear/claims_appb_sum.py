"""App. B's intermediate step "Σ_{n≠k}|f(v_n) − f(v_k)| = O(LΔ)" and the linear identities of the
gradient table (derivation task)."""
from __future__ import annotations

import numpy as np

from theoryverify.checks import check_agreement
from theoryverify.claims import ClaimSet, Kind, Status
from theoryverify.findings import Finding
from theoryverify.scaling import check_rate
from theoryverify.verdicts import combine

from .claims_lemma2 import autograd_g
from .draws import configurations, describe
from .geometry import GEOMETRIES, in_F

CLAIMS = ClaimSet("iclnonlinear")
KS = (8, 16, 32, 64, 128, 256)


def step_family(K: int, L: float = 1.0, Delta: float = 3.0):
    """Scaled orthogonal V (all distances Δ), f = LΔ·(0, 1, …, 1): in F (c_nd = 1), and
    Σ_{n≠1}|f_n − f_1| = (K − 1)LΔ — the largest value the Lipschitz condition allows."""
    V = (Delta / np.sqrt(2.0)) * np.eye(K)
    f = L * Delta * np.r_[0.0, np.ones(K - 1)]
    return V, f, in_F(f, V, L, c_nd=1.0)


@CLAIMS.add("appB-sum", location="App. B, after the 4th display", kind=Kind.RATE, catalogue_id="ICLN-B-sum",
            statement="Σ_{n≠k}|f(v_n) − f(v_k)| = O(LΔ) for f in F (no growth with K)",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP, supports=("iclnonlinear.lemma1-upper",),
            reason="App. B's step Σ_{n≠k}|f_n − f_k| = O(LΔ) is false: f = LΔ(0,1,…,1) ∈ F (scaled orthogonal V) gives "
                    "(K − 1)LΔ (K-exponent 1.03 over K = 8…256); Lemma 1 itself needs only max_n |f_n − f_k| ≤ LΔ_max "
                    "and holds (lemma1-upper)",
            choices={"grid": "K ∈ {8, 16, …, 256} (1.5 decades), L = 1, Δ = 3"})
def appB_sum(ctx):
    ys, members = [], []
    for K in KS:
        V, f, ok = step_family(K)
        members.append(ok)
        ys.append(np.abs(f[1:] - f[0]).sum() / (1.0 * 3.0))
    if not all(members):
        raise AssertionError("family left F")
    return check_rate(np.array(KS, float), ys, 0.0, 0.15, ctx.seed, param="K", what="max_k Σ|f_n − f_k|/(LΔ)")


def linear_identity(x):
    """Derived: H has zero row sums (Σ_m Attn_m (f_m − ŷ) = 0), so g = GHG satisfies g G⁻¹ 1 = 0 (orthonormal:
    Σ_{k'} g_{k,k'} = 0, i.e. g_k = −Σ_{k'≠k} g_{k,k'}).  Returned in units of the natural size of g,
    mean(f²)·max|G|²·max|G⁻¹1| (not max|g|: with N = 1 the attention cannot move ŷ and g is pure rounding)."""
    g = autograd_g(x)
    G = x["V"].T @ x["V"]
    w = np.linalg.solve(G, np.ones(len(G)))
    scale = max(float(np.mean(x["tasks"] ** 2)) * np.abs(G).max() ** 2 * np.abs(w).max(), 1e-300)
    return w @ g.T / scale


@CLAIMS.add("g-row-sums", location="App. C (derivation task)", kind=Kind.IDENTITY, catalogue_id="ICLN-DER-linid",
            statement="g G⁻¹ 1 = 0 for linearly independent features (orthonormal: every row of g sums to 0, "
                      "g_k = −Σ_{k'≠k} g_{k,k'})",
            choices={"normalisation": "residual / (mean f²·max|G|²·max|G⁻¹1|)", "tolerance": "1e-10"})
def g_row_sums(ctx):
    parts = {g: check_agreement(linear_identity, lambda x: np.zeros(x["K"]), configurations(g), ctx.seed, n=25,
                                names=("g G⁻¹1 / scale (autograd)", "0"), describe=describe) for g in GEOMETRIES}
    return combine(parts, method="per geometry:")
