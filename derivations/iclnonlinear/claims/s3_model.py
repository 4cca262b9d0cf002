"""Sec. 3 (the model): Eq. 5 vs Eq. 6 (Sec. 3.2), Eq. 10, the attention at initialisation (Sec. 5.2) and Lemma 3's
Attn formula (App. D) — printed vs the token-level models; and the q-space simulator that every dynamics claim
uses, against GD on Q by torch autograd (spec §4.2: the simulator may be used only after its update is verified
against autograd for the feature family in use)."""
from __future__ import annotations

import numpy as np
import sympy as sp

import theoryverify as tv

from ..experiments import dynamics
from ..experiments.draws import N_DRAWS, class_sums, configurations, describe, prompts, tensors
from ..model import geometry, torch_model
from ..model.geometry import GEOMETRIES
from ..model.symbolic import attn_aggregates, count_vectors, logit_table, symbols, token_attention
from ..model.torch_model import eq5_prediction, eq6_attention, eq6_prediction
from ..printed import displays as printed

CLAIMS = tv.ClaimSet("iclnonlinear")


@CLAIMS.add("eq5-eq6", location="Sec. 3.2, Eqs. 5-6", kind=tv.Kind.IDENTITY, catalogue_id="ICLN-S3-eq5-eq6",
            statement="With W^V = [[0,0],[0,1]] and W^KQ = [[Q,0],[0,0]], Eq. 5's prediction F_{d+1,N+1} "
                      "equals Eq. 6's y·softmax(XᵀQX̄)_{N+1}",
            expect=tv.Status.REFUTED, finding=tv.Finding.TYPO,
            reason="'Then the self-attention mapping becomes Eq. 6' omits that the query column is dropped from the keys: "
                   "Eq. 5's column-wise softmax also normalises over x_qᵀQx_q (ŷ₅ = mean·N/(N+1) at Q = 0; relative "
                   "gap O(1/|V_k|), 0.5 at N = 1); every result is stated and proved for Eq. 6, so no conclusion changes",
            choices={"(W^K)ᵀW^Q": ":= W^KQ", "prediction": "entry (d+1, N+1) of F"})
def check_eq5_eq6(ctx, eq5=eq5_prediction, eq6=eq6_prediction):
    parts = {g: tv.check_agreement(lambda x: float(eq5(*tensors(x))[0]), lambda x: float(eq6(*tensors(x))[0]),
                                prompts(g), ctx.seed, rtol=1e-10, n=N_DRAWS, names=("Eq. 5", "Eq. 6"),
                                describe=describe) for g in GEOMETRIES}
    return tv.combine(parts, method="per geometry:")


@CLAIMS.add("eq10", location="Eq. 10, Sec. 4", kind=tv.Kind.IDENTITY, catalogue_id="ICLN-S4-eq10",
            statement="ŷ_query = Σ_i attn_i y_i = Σ_k Attn_k f(v_k) when tokens are features",
            choices={"tokens": "exactly features (x_i = v_{c_i})"})
def check_eq10(ctx, rhs=printed.eq10_rhs):
    def token_level(x):
        return float(eq6_prediction(*tensors(x))[0])

    def aggregated(x):
        Q, X, y, xq = tensors(x)
        A = class_sums(eq6_attention(Q, X, xq)[0].numpy(), x["classes"], x["K"])
        return float(rhs(A, x["tasks"][0]))
    parts = {g: tv.check_agreement(aggregated, token_level, prompts(g), ctx.seed, rtol=1e-10, n=N_DRAWS,
                                names=("Σ_k Attn_k f(v_k)", "Σ_i attn_i y_i"), describe=describe)
             for g in GEOMETRIES}
    return tv.combine(parts, method="per geometry:")


@CLAIMS.add("init", location="Sec. 5.2", kind=tv.Kind.IDENTITY, catalogue_id="ICLN-S52-init",
            statement="At q_k = q_{k,k'} = 0: attn_n = 1/N for all n, hence Attn_k = |V_k|/N")
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
    return tv.check_cases(cases, pred, exhaustive=True, what="(N, count vector) cases, K = 3, N ≤ 5")


LEMMA3_COUNTS = ((1, 1, 1), (2, 1, 0), (1, 0, 2), (3, 0, 0), (2, 2, 1))


def lemma3_cases():
    """Symbolic cases: count vectors with |V_k| ≥ 1 for the query class k (the printed ratio
    |V_m|/|V_k| needs it); the drawn token-level part covers K ≤ 4, N ≤ 6."""
    return [(n, k) for n in LEMMA3_COUNTS for k in range(3) if n[k] >= 1][:8]


@CLAIMS.add("lemma3-attn", location="Lemma 3 proof, App. D", kind=tv.Kind.IDENTITY, catalogue_id="ICLN-L3-attn",
            statement="Attn_k = 1/(Σ_{m≠k}(|V_m|/|V_k|)exp(q_{k,m} − q_k) + 1) and Attn_n = |V_n|e^{q_{k,n}}/"
                      "(Σ_{m≠k}|V_m|e^{q_{k,m}} + |V_k|e^{q_k}), q_{k,m} = v_mᵀQv_k",
            choices={"|V_k| = 0": "excluded (the printed ratio |V_m|/|V_k| is undefined there)"})
def check_lemma3(ctx, attn_k=printed.lemma3_attn_k, attn_n=printed.lemma3_attn_n):
    s = symbols(3)
    q = [[s.q[i, j] for j in range(3)] for i in range(3)]
    dom = tv.Domain([tv.Interval(x, -4.0, 4.0) for x in s.q_flat])
    parts = {}
    for n, k in lemma3_cases():
        A = attn_aggregates(n, s.q.row(k))
        parts[f"Attn_k counts={n} k={k + 1}"] = tv.check_identity(A[k], attn_k(n, q, k, exp=sp.exp), dom, ctx.seed,
                                                            n_rational=2, n_float=5, symbolic_seconds=1.0)
        for m in range(3):
            if m != k:
                parts[f"Attn_n counts={n} k={k + 1} n={m + 1}"] = tv.check_identity(
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
        parts[f"token-level, {g}"] = tv.check_agreement(printed_side, torch_side, prompts(g, True), ctx.seed, n=N_DRAWS,
                                                    names=("Lemma 3", "token softmax"), describe=describe)
    return tv.combine(parts, method="Lemma 3 parts:")


# --- the q-space simulator against autograd GD on Q ---------------------------------------------------------

STEPS = 4


def paired(x: dict) -> dynamics.Setting:
    """The configuration's exact population (count enumeration × D_f uniform over its tasks) as a
    simulator setting with tasks paired to the duplicated count samples."""
    base = dynamics.Setting(gram=dynamics.gram(x["V"]), p=x["p"], eta=x["eta"], N=x["N"], exact=True, sigma2=1.0)
    lphi, w = base.prompt_sample()
    T = len(x["tasks"])
    tasks = np.concatenate([np.tile(f, (len(w), 1)) for f in x["tasks"]])

    class _Pop(dynamics.Setting):
        def prompt_sample(self):
            return np.concatenate([lphi] * T), np.concatenate([w] * T) / T
    return _Pop(gram=base.gram, p=x["p"], eta=x["eta"], N=x["N"], tasks=tasks)


def simulated_q(x: dict) -> np.ndarray:
    return dynamics.simulate([paired(x)], STEPS, device="cpu").q[0]


def autograd_q(x: dict, steps: int = STEPS) -> np.ndarray:
    """q after GD on Q from 0 (Eq. 8), ∇_Q L by autograd of the token-level model."""
    V, Q = x["V"], np.zeros((x["V"].shape[0],) * 2)
    for _ in range(steps):
        Q = Q - x["eta"] * torch_model.population_grad(Q, V, x["p"], x["tasks"], x["N"])
    return V.T @ Q.T @ V


def check_simulator(ctx, geometry_kind: str, simulated=simulated_q, n: int = 6):
    strategy = configurations(geometry_kind).map(lambda x: {**x, "eta": stable_eta(x)})
    return tv.check_agreement(simulated, autograd_q, strategy, seed=ctx.seed, rtol=1e-10, n=n, describe=describe)


def stable_eta(x: dict) -> float:
    """η = 0.5 / (1 + max f² ‖G‖²): steps of order one in q whatever the scale of the draw."""
    G = dynamics.gram(x["V"])
    return 0.5 / (1.0 + float(np.abs(x["tasks"]).max()) ** 2 * float(np.linalg.norm(G, 2)) ** 2)


@CLAIMS.add("simulator-autograd", location="Eq. 8, Sec. 5.1, App. C (q-space GD)", kind=tv.Kind.AUTOGRAD,
            catalogue_id="ICLN-DER-gen",
            statement=("GD on Q (Eq. 8) from Q = 0 moves the logit table exactly by q ← q + η G H G, "
                       "H = −∂L/∂q, G = VᵀV: the q-space simulator's trajectory equals autograd GD on Q "
                       f"({STEPS} steps) for every feature family"),
            choices={"population": "exact count enumeration (small N, K) × D_f uniform over the drawn tasks",
                     "eta": "0.5 / (1 + max f² ‖G‖²) (order-one steps in q)",
                     "tolerance": "1e-10 relative to max(1, |q|), elementwise"})
def simulator_autograd(ctx):
    return tv.combine({g: check_simulator(ctx, g) for g in geometry.GEOMETRIES})
