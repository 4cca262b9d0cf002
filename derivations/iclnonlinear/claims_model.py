"""Set-up claims: Eq. 5 vs Eq. 6 (Sec. 3.2), Eq. 10, the attention at initialisation (Sec. 5.2) and
Lemma 3's Attn formula (App. D) — printed vs the token-level models."""
from __future__ import annotations

import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st

from theoryverify.checks import check_agreement, check_cases, check_identity
from theoryverify.claims import ClaimSet, Kind, Status
from theoryverify.findings import Finding
from theoryverify.domains import Domain, Interval
from theoryverify.verdicts import combine

from . import printed
from .draws import configurations, describe
from .geometry import GEOMETRIES
from .model import attn_aggregates, count_vectors, logit_table, symbols, token_attention
from .torch_model import DT, eq5_prediction, eq6_attention, eq6_prediction

CLAIMS = ClaimSet("iclnonlinear")
N_DRAWS = 40


@st.composite
def prompts(draw, geometry: str, query_present: bool = False):
    """One explicit prompt: a configuration plus drawn token classes and a query class."""
    x = draw(configurations(geometry, K=(2, 4), N=(1, 6), n_tasks=(1, 1)))
    rng = np.random.default_rng(x["seed"] + 1)
    x["classes"] = rng.choice(x["K"], size=x["N"], p=x["p"])
    x["query"] = int(rng.choice(x["K"], p=x["p"]))
    if query_present:  # Lemma 3's ratio |V_m|/|V_k| needs |V_k| ≥ 1
        x["classes"][0] = x["query"]
    return x


def tensors(x):
    V, f = x["V"], x["tasks"][0]
    X = torch.as_tensor(V.T[x["classes"]], dtype=DT)[None]
    y = torch.as_tensor(f[x["classes"]], dtype=DT)[None]
    xq = torch.as_tensor(V[:, x["query"]], dtype=DT)[None]
    return torch.as_tensor(x["Q"], dtype=DT), X, y, xq


def class_sums(attn: np.ndarray, classes, K: int) -> np.ndarray:
    """Attn_k := Σ_{i: x_i = v_k} attn_i (Sec. 4, definition)."""
    return np.bincount(classes, weights=attn, minlength=K)


def check_eq5_eq6(ctx, eq5=eq5_prediction, eq6=eq6_prediction):
    parts = {g: check_agreement(lambda x: float(eq5(*tensors(x))[0]), lambda x: float(eq6(*tensors(x))[0]),
                                prompts(g), ctx.seed, rtol=1e-10, n=N_DRAWS, names=("Eq. 5", "Eq. 6"),
                                describe=describe) for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


@CLAIMS.add("eq5-eq6", location="Sec. 3.2, Eqs. 5-6", kind=Kind.IDENTITY, catalogue_id="ICLN-S3-eq5-eq6",
            statement="With W^V = [[0,0],[0,1]] and W^KQ = [[Q,0],[0,0]], Eq. 5's prediction F_{d+1,N+1} "
                      "equals Eq. 6's y·softmax(XᵀQX̄)_{N+1}",
            expect=Status.REFUTED, finding=Finding.TYPO,
            reason="'Then the self-attention mapping becomes Eq. 6' omits that the query column is dropped from the keys: "
                   "Eq. 5's column-wise softmax also normalises over x_qᵀQx_q (ŷ₅ = mean·N/(N+1) at Q = 0; relative "
                   "gap O(1/|V_k|), 0.5 at N = 1); every result is stated and proved for Eq. 6, so no conclusion changes",
            choices={"(W^K)ᵀW^Q": ":= W^KQ", "prediction": "entry (d+1, N+1) of F"})
def eq5_eq6(ctx):
    return check_eq5_eq6(ctx)


def check_eq10(ctx, rhs=printed.eq10_rhs):
    def token_level(x):
        return float(eq6_prediction(*tensors(x))[0])

    def aggregated(x):
        Q, X, y, xq = tensors(x)
        A = class_sums(eq6_attention(Q, X, xq)[0].numpy(), x["classes"], x["K"])
        return float(rhs(A, x["tasks"][0]))
    parts = {g: check_agreement(aggregated, token_level, prompts(g), ctx.seed, rtol=1e-10, n=N_DRAWS,
                                names=("Σ_k Attn_k f(v_k)", "Σ_i attn_i y_i"), describe=describe)
             for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


@CLAIMS.add("eq10", location="Eq. 10, Sec. 4", kind=Kind.IDENTITY, catalogue_id="ICLN-S4-eq10",
            statement="ŷ_query = Σ_i attn_i y_i = Σ_k Attn_k f(v_k) when tokens are features",
            choices={"tokens": "exactly features (x_i = v_{c_i})"})
def eq10(ctx):
    return check_eq10(ctx)


def check_init(ctx, attn0=printed.init_attn, Ns=range(1, 6), K=3):
    """At q = 0 the model's token softmax is printed 1/N, exactly, for every count vector."""
    zero = [0] * K
    cases = [(f"N={N}, counts={n}", (N, n)) for N in Ns for n in count_vectors(N, K)]

    def pred(case):
        N, n = case
        attn = token_attention(n, zero)
        A = attn_aggregates(n, zero)
        ok = all(sp.simplify(a - sp.nsimplify(attn0(N))) == 0 for a in attn)
        ok &= all(sp.simplify(A[m] - sp.Rational(n[m], N)) == 0 for m in range(K))
        return ok, {"attn": attn, "printed": attn0(N), "Attn": A}
    return check_cases(cases, pred, exhaustive=True, what="(N, count vector) cases, K = 3, N ≤ 5")


@CLAIMS.add("init", location="Sec. 5.2", kind=Kind.IDENTITY, catalogue_id="ICLN-S52-init",
            statement="At q_k = q_{k,k'} = 0: attn_n = 1/N for all n, hence Attn_k = |V_k|/N")
def init(ctx):
    return check_init(ctx)


LEMMA3_COUNTS = ((1, 1, 1), (2, 1, 0), (1, 0, 2), (3, 0, 0), (2, 2, 1))


def lemma3_cases():
    """Symbolic cases: count vectors with |V_k| ≥ 1 for the query class k (the printed ratio
    |V_m|/|V_k| needs it); the drawn token-level part covers K ≤ 4, N ≤ 6."""
    return [(n, k) for n in LEMMA3_COUNTS for k in range(3) if n[k] >= 1][:8]


def check_lemma3(ctx, attn_k=printed.lemma3_attn_k, attn_n=printed.lemma3_attn_n):
    s = symbols(3)
    q = [[s.q[i, j] for j in range(3)] for i in range(3)]
    dom = Domain([Interval(x, -4.0, 4.0) for x in s.q_flat])
    parts = {}
    for n, k in lemma3_cases():
        A = attn_aggregates(n, s.q.row(k))
        parts[f"Attn_k counts={n} k={k + 1}"] = check_identity(A[k], attn_k(n, q, k, exp=sp.exp), dom, ctx.seed,
                                                            n_rational=2, n_float=5, symbolic_seconds=1.0)
        for m in range(3):
            if m != k:
                parts[f"Attn_n counts={n} k={k + 1} n={m + 1}"] = check_identity(
                    A[m], attn_n(n, q, k, m, exp=sp.exp), dom, ctx.seed, n_rational=2, n_float=5,
                    symbolic_seconds=1.0)
    # the token-level torch attention, any geometry, with q = VᵀQᵀV
    for g in GEOMETRIES:
        def printed_side(x):
            qn = np.asarray(logit_table(sp.Matrix(x["Q"]), sp.Matrix(x["V"])), dtype=float)
            n = np.bincount(x["classes"], minlength=x["K"])
            k = x["query"]
            return [attn_k(n, qn, k) if m == k else attn_n(n, qn, k, m) for m in range(x["K"])]

        def torch_side(x):
            Q, X, y, xq = tensors(x)
            return class_sums(eq6_attention(Q, X, xq)[0].numpy(), x["classes"], x["K"])
        parts[f"token-level, {g}"] = check_agreement(printed_side, torch_side, prompts(g, True), ctx.seed, n=N_DRAWS,
                                                    names=("Lemma 3", "token softmax"), describe=describe)
    return combine(parts, method="Lemma 3 parts:")


@CLAIMS.add("lemma3-attn", location="Lemma 3 proof, App. D", kind=Kind.IDENTITY, catalogue_id="ICLN-L3-attn",
            statement="Attn_k = 1/(Σ_{m≠k}(|V_m|/|V_k|)exp(q_{k,m} − q_k) + 1) and Attn_n = |V_n|e^{q_{k,n}}/"
                      "(Σ_{m≠k}|V_m|e^{q_{k,m}} + |V_k|e^{q_k}), q_{k,m} = v_mᵀQv_k",
            choices={"|V_k| = 0": "excluded (the printed ratio |V_m|/|V_k| is undefined there)"})
def lemma3_attn(ctx):
    return check_lemma3(ctx)
