"""Lemma 2 (Eqs. 12–13, App. C): the gradient table g_{k,k'} = −v_{k'}ᵀ ∇_Q L v_k, derived from the
model (gradients.py) and compared with torch autograd on every feature geometry; the printed App. C
display, the sign claim and the Θ(L²Δ²) lower sides."""
from __future__ import annotations

import numpy as np
import sympy as sp

from theoryverify.checks import check_agreement, check_identity
from theoryverify.claims import ClaimSet, Kind, Status
from theoryverify.findings import Finding, Readings
from theoryverify.domains import Domain, Interval, Simplex
from theoryverify.verdicts import combine

from . import counts, printed
from .claims_lemma1 import FAMILY_N, family_verdict
from .draws import configurations, describe
from .families import attn_moment, cancellation_family
from .geometry import GEOMETRIES
from .gradients import H_table, expect, g_derived
from .model import population
from .searches import check_nonnegative
from .torch_model import g_table_autograd

CLAIMS = ClaimSet("iclnonlinear")
N_DRAWS = 25


def autograd_g(x):
    return g_table_autograd(x["Q"], x["V"], x["p"], x["tasks"], x["N"])


def check_H_closed_form(ctx, sizes=((3, 2),)):
    """SymPy: −∂L/∂q (differentiating the enumerated Eq. 7) = the closed form H; and the numpy count
    evaluator (counts.H, used by the other claims) = the SymPy derivative."""
    parts = {}
    for K, N in sizes:
        m = population(K, N)
        s = m.sym
        dom = Domain([Interval(x, -3.0, 3.0) for x in s.q_flat] + [Simplex(s.p, boundary=False)]
                     + [Interval(x, -3.0, 3.0) for x in s.f])
        D, Hc = m.dloss_dq(), m.H_closed_form()
        for i in range(K):
            for j in range(K):
                parts[f"K={K},N={N},(c,m)=({i + 1},{j + 1})"] = check_identity(
                    -D[i, j], Hc[i, j], dom, ctx.seed, n_rational=2, n_float=10, symbolic_seconds=0.5)
        parts[f"counts.H vs SymPy, K={K},N={N}"] = check_agreement(
            lambda x: counts.H(x[0], x[1], x[2], N), sympy_H(K, N), qpf(K), ctx.seed, n=20,
            names=("counts.H", "−∂L/∂q (SymPy)"))
    return combine(parts, method="H entries:")


def sympy_H(K, N):
    """−∂L/∂q from SymPy, compiled; argument (q, p, f)."""
    m = population(K, N)
    s = m.sym
    fn = sp.lambdify([s.q_flat, s.p, s.f], -m.dloss_dq(), modules="numpy")
    return lambda x: np.asarray(fn(tuple(np.ravel(x[0])), tuple(x[1]), tuple(x[2])), dtype=float)


def qpf(K):
    """Drawn (q table, token law p, task values f)."""
    from hypothesis import strategies as st
    from theoryverify.strategies import simplex
    arr = lambda n, lo, hi: st.lists(st.floats(lo, hi), min_size=n, max_size=n).map(np.array)
    return st.tuples(arr(K * K, -4, 4).map(lambda a: a.reshape(K, K)),
                     simplex(K, boundary=False).map(np.array), arr(K, -3, 3))


@CLAIMS.add("H-dLdq", location="App. C (derivation task)", kind=Kind.IDENTITY, catalogue_id="ICLN-C-H-dLdq",
            statement="With tokens on features, −∂L/∂q_{c,m} = E[1{x_q = v_c} Attn_m (f(v_c) − ŷ)(f(v_m) − ŷ)] "
                      "(the enumerated Eq. 7 loss differentiated by SymPy)",
            choices={"sizes": "(K, N) = (3, 2)", "D_f": "point mass (symbolic task values)"})
def H_dLdq(ctx):
    return check_H_closed_form(ctx)


def term_scale(x) -> np.ndarray:
    """|G| |H| |G| entrywise: the magnitude of the terms summed in G H G, i.e. the scale of float64
    rounding in either computation (general features: up to ~1e6 × the result)."""
    G = np.abs(x["V"].T @ x["V"])
    return np.maximum(1.0, G @ np.abs(H_table(x)) @ G)


def check_g_table(ctx, derived=g_derived, geometries=GEOMETRIES, n=N_DRAWS):
    """derived vs autograd with error ≤ 1e-8 × max(1, |G||H||G|) entrywise (forward-error scale).

    1e-8, not 1e-10: autograd differentiates through softmax of logits |q| up to ~1e2 (general
    features, Q scale 2), and its reduction order depends on torch's thread count; errors up to
    2e-10 of the term scale were seen.  Planted errors (dropped factor, sign) are O(1)."""
    scaled = lambda f: (lambda x: f(x) / term_scale(x))
    parts = {g: check_agreement(scaled(derived), scaled(autograd_g), configurations(g), ctx.seed, rtol=1e-8, n=n,
                                names=("G H G (derived)", "autograd"), describe=describe) for g in geometries}
    return combine(parts, method="per geometry:")


@CLAIMS.add("g-table", location="App. C (derivation task)", kind=Kind.AUTOGRAD, catalogue_id="ICLN-DER-gen",
            statement="g_{k,k'} := −v_{k'}ᵀ∇_Q L v_k equals (G H G)_{k,k'} with G = VᵀV, for any features",
            choices={"expectation": "exact population (all token sequences), D_f uniform over 1–2 drawn tasks",
                     "K, N": "K ∈ {2,3}, N ∈ {1,2,3}",
                     "tolerance": "1e-8 relative to the float64 term scale max(1, |G||H||G|) entrywise (thread-dependent autograd rounding up to 2e-10 seen)"})
def g_table(ctx):
    return check_g_table(ctx)


def r4_H(x):
    """Orthogonal equal-norm reduction: g = ‖v‖⁴ H."""
    r2 = float(x["V"][:, 0] @ x["V"][:, 0])
    return r2 ** 2 * H_table(x)


@CLAIMS.add("gk-exact", location="Eq. 12 / App. C (derivation task)", kind=Kind.AUTOGRAD,
            catalogue_id="ICLN-L2-gk-exact",
            statement="Orthonormal / scaled-orthogonal (‖v‖ = r): g_k = r⁴ E[1{x_q = v_k} Attn_k (f(v_k) − ŷ)²]; "
                      "general: g_k = Σ_{c,m} G_kc G_km H_cm",
            choices={"r": "1 (orthonormal), Δ/√2 (scaled orthogonal)"})
def gk_exact(ctx):
    diag = {"orthonormal": lambda x: np.diag(r4_H(x)), "scaled_orthogonal": lambda x: np.diag(r4_H(x)),
            "general": lambda x: np.diag(g_derived(x))}
    parts = {g: check_agreement(diag[g], lambda x: np.diag(autograd_g(x)), configurations(g), ctx.seed, n=N_DRAWS,
                                names=("derived g_k", "autograd"), describe=describe) for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


@CLAIMS.add("gkk-exact", location="Eq. 13 / App. C (derivation task)", kind=Kind.AUTOGRAD,
            catalogue_id="ICLN-L2-gkk-exact",
            statement="Orthogonal equal-norm: g_{k,k'} = r⁴ E[1{x_q = v_k} Attn_{k'} (f(v_k) − ŷ)(f(v_{k'}) − ŷ)] "
                      "(either sign); general: (G H G)_{k,k'}",
            choices={"r": "1 (orthonormal), Δ/√2 (scaled orthogonal)"})
def gkk_exact(ctx):
    off = lambda M: M[~np.eye(M.shape[0], dtype=bool)]
    derived = {"orthonormal": lambda x: off(r4_H(x)), "scaled_orthogonal": lambda x: off(r4_H(x)),
               "general": lambda x: off(g_derived(x))}
    parts = {g: check_agreement(derived[g], lambda x: off(autograd_g(x)), configurations(g), ctx.seed, n=N_DRAWS,
                                names=("derived g_{k,k'}", "autograd"), describe=describe) for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


def printed_bilinear(x, integrand=printed.appC_bilinear_integrand):
    """The printed App. C matrix B[k, k'] = v_{k'}ᵀ∇_Q L v_k, so g = −B."""
    K = x["K"]
    return -np.array([[expect(x, k, lambda A, y, f, k=k, kp=kp: integrand(A.T, f, k, kp)) for kp in range(K)]
                      for k in range(K)])


def check_bilinear(ctx, geometry, integrand=printed.appC_bilinear_integrand):
    return check_agreement(lambda x: printed_bilinear(x, integrand), autograd_g, configurations(geometry), ctx.seed,
                           rtol=1e-10, n=N_DRAWS, names=("printed App. C (−B)", "autograd"), describe=describe)


BILINEAR = "v_{k'}ᵀ∇_Q L v_k = −E[1{x_q = v_k} Attn_{k'}(f(v_k) − Σ_n Attn_n f(v_n))(f(v_{k'}) − Σ_m Attn_m f(v_m))]"


@CLAIMS.add("appC-bilinear-orthonormal", location="App. C, display before 'We then derive Eq. 12'",
            kind=Kind.AUTOGRAD, catalogue_id="ICLN-C-bilinear", statement=BILINEAR + " — orthonormal features")
def appC_bilinear_orthonormal(ctx):
    return check_bilinear(ctx, "orthonormal")


@CLAIMS.add("appC-bilinear-scaled", location="App. C, display before 'We then derive Eq. 12'",
            kind=Kind.AUTOGRAD, catalogue_id="ICLN-C-bilinear",
            statement=BILINEAR + " — scaled orthogonal features v_k = (Δ/√2)e_k",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            supports=("iclnonlinear.eq12-L-exponent", "iclnonlinear.gk-sign-scaled"),
            reason="App. C uses v_{k'}ᵀ(v_m − v_n) = 1{k'=m} − 1{k'=n} and drops x_qᵀv_k = ‖v_k‖²: for ‖v‖ = r the true "
                   "table is r⁴ times the printed one (relative error 0.0075); a constant under Δ = Θ(1), absorbed by "
                   "Eq. 12's Θ (sign and L-exponent hold), visible only in the Δ-exponent (eq12-delta-exponent)")
def appC_bilinear_scaled(ctx):
    return check_bilinear(ctx, "scaled_orthogonal")


@CLAIMS.add("appC-bilinear-general", location="App. C, display before 'We then derive Eq. 12'",
            kind=Kind.AUTOGRAD, catalogue_id="ICLN-C-bilinear",
            statement=BILINEAR + " — general (non-orthogonal) features",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="App. C assumes orthonormal features (v_{k'}ᵀv_m = 1{k'=m}, only x_q = v_k contributes); for the "
                   "general features the paper claims to cover (Sec. 1 (ii), Sec. 3.1) the table is G H G (G = VᵀV; "
                   "relative error 0.03), whose diagonal can be negative on the GD path (gk-sign-gd-general)")
def appC_bilinear_general(ctx):
    return check_bilinear(ctx, "general")


def gk_min_normalised(x):
    """min_k g_k in units of the natural size of g, mean(f²)·max|G|² (not max|g|: with N = 1 the attention
    cannot move ŷ and g is pure rounding)."""
    g = autograd_g(x)
    G = x["V"].T @ x["V"]
    scale = float(np.mean(x["tasks"] ** 2)) * np.abs(G).max() ** 2
    return float(np.diag(g).min() / scale) if scale > 0 else 0.0


def sign_claim(geometry):
    def run(ctx):
        return check_nonnegative(gk_min_normalised, configurations(geometry), ctx.seed,
                                 what="min_k g_k / (mean f²·max|G|²) (autograd)", tol=1e-12, n=40)
    return run


SIGN = "g_k = −v_kᵀ∇_Q L v_k ≥ 0 for every Q (Sec. 5.1: 'g_k is always non-negative')"
CLAIMS.add("gk-sign-orthonormal", location="Sec. 5.1, after Lemma 2", kind=Kind.INEQUALITY,
           catalogue_id="ICLN-L2-gk-sign", statement=SIGN + " — orthonormal features",
           choices={"Q": "arbitrary (N(0, s²) entries, s ∈ [0, 2])"})(sign_claim("orthonormal"))
CLAIMS.add("gk-sign-scaled", location="Sec. 5.1, after Lemma 2", kind=Kind.INEQUALITY,
           catalogue_id="ICLN-L2-gk-sign", statement=SIGN + " — scaled orthogonal features",
           choices={"Q": "arbitrary (N(0, s²) entries, s ∈ [0, 2])"})(sign_claim("scaled_orthogonal"))
CLAIMS.add("gk-sign-general", location="Sec. 5.1, after Lemma 2", kind=Kind.INEQUALITY,
           catalogue_id="ICLN-L2-gk-sign", statement=SIGN + " — general features",
           expect=Status.REFUTED, finding=Finding.ERRATUM,
           reason="Sec. 5.1's 'g_k is always non-negative' fails for the non-orthogonal features the paper claims to "
                  "cover: g_k = Σ_{c,m}G_kc G_km H_cm mixes other query classes (min g_k/(mean f²·max|G|²) ≈ −3e-5, far "
                  "above rounding, at a drawn Q); it is also negative on the GD path from Q = 0 (gk-sign-gd-general)",
           choices={"Q": "arbitrary (N(0, s²) entries, s ∈ [0, 2])"})(sign_claim("general"))


def eq12_family_ratios(Ns=FAMILY_N):
    """g_1 / (E[1{x_q = v_1} Attn_1 (1 − Attn_1)²] L²Δ²) along the cancellation family (orthonormal: g = H)."""
    out = []
    for N in Ns:
        x = cancellation_family(N)
        g1 = counts.H(x["q"], x["p"], x["tasks"][0], N)[0, 0]
        core = attn_moment(x, 0, lambda A: printed.eq12_core(A.T, 0)) * x["L"] ** 2 * x["Delta"] ** 2
        out.append(g1 / core)
    return np.array(out)


def eq13_family_ratios(Ns=FAMILY_N, kp=1):
    out = []
    for N in Ns:
        x = cancellation_family(N)
        g = abs(counts.H(x["q"], x["p"], x["tasks"][0], N)[0, kp])
        core = attn_moment(x, 0, lambda A: printed.eq13_core(A.T, 0, kp)) * x["L"] ** 2 * x["Delta"] ** 2
        out.append(g / core)
    return np.array(out)


@CLAIMS.add("eq12-theta-lower", location="Lemma 2, Eq. 12", kind=Kind.INEQUALITY, catalogue_id="ICLN-L2-gk-theta",
            statement="g_k ≥ c·E[1{x_q = v_k} Attn_k (1 − Attn_k)²]·L²Δ² with c > 0 independent of Q, N, K, task "
                      "(lower side of Θ in Eq. 12)",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="Eq. 12's Θ lower side (used by Lemmas 4, 7, 9 for the phase durations) fails: exact g_k = "
                   "r⁴E[1{x_q=v_k}Attn_k(f_k − ŷ)²] and f_k − ŷ = Σ_{n≠k}Attn_n(f_n − f_k) cancels for K ≥ 3; along "
                   "an admissible family (point-mass D_f on f ∈ F, c_nd = 0.9) the ratio falls ∝ N^-1.7 (0.23 → 2e-4); "
                   "the same cancellation occurs on the GD path (prop1-attn)",
            choices={"family": "families.cancellation_family (orthonormal)"})
def eq12_theta_lower(ctx):
    return family_verdict(eq12_family_ratios(), FAMILY_N, ctx, "g_1 ratio", cancellation_family(4))


@CLAIMS.add("eq13-theta-lower", location="Lemma 2, Eq. 13; App. C end", kind=Kind.INEQUALITY,
            catalogue_id="ICLN-L2-gkk-bound",
            statement="|g_{k,k'}| ≥ c·E[1{x_q = v_k} Attn_{k'}(1 − Attn_k)(1 − Attn_{k'})]·L²Δ² (lower side of Θ in Eq. 13)",
            expect=Status.REFUTED, finding=Finding.READING,
            readings=Readings(
                tested="Eq. 13's Θ read two-sided: a lower bound on |g_{k,k'}| as well",
                others={"Eq. 13 as an upper bound (the only side Lemmas 4, 7, 9 use: '|g_{k,n}| = O(·)')":
                        "holds: iclnonlinear.eq12-13-upper"}),
            reason="the lower side of Eq. 13's Θ fails (exact g_{k,k'} = r⁴E[1{x_q=v_k}Attn_{k'}(f_k − ŷ)(f_{k'} − ŷ)] "
                   "vanishes with the residual f_k − ŷ, which cancels for K ≥ 3: ratio ∝ N^-1.1 along an admissible "
                   "family), but no later step uses that side; the upper side holds",
            choices={"family": "families.cancellation_family (orthonormal)", "k, k'": "1, 2"})
def eq13_theta_lower(ctx):
    return family_verdict(eq13_family_ratios(), FAMILY_N, ctx, "|g_12| ratio", cancellation_family(4))


def upper_ratios(x):
    """max over (k, k') of g / (E[1{x_q = v_k}·core]·L_V²·Δ_max²) for Eq. 12 (diagonal) and Eq. 13 (|off-diagonal|)."""
    from .geometry import lipschitz_on_V, max_distance
    g = autograd_g(x)
    scale = max(lipschitz_on_V(f, x["V"]) for f in x["tasks"]) ** 2 * max_distance(x["V"]) ** 2
    out = 0.0
    for k in range(x["K"]):
        for kp in range(x["K"]):
            core = (expect(x, k, lambda A, y, f, k=k: printed.eq12_core(A.T, k)) if kp == k else
                    expect(x, k, lambda A, y, f, k=k, kp=kp: printed.eq13_core(A.T, k, kp)))
            if core * scale > 0:
                out = max(out, abs(g[k, kp]) / (core * scale))
    return out


@CLAIMS.add("eq12-13-upper", location="Lemma 2, Eqs. 12-13 (upper side of Θ)", kind=Kind.INEQUALITY,
            catalogue_id="ICLN-L2-gkk-bound",
            statement="Orthonormal features: g_k ≤ C·E[1{x_q=v_k}Attn_k(1−Attn_k)²]L²Δ² and |g_{k,k'}| ≤ "
                      "C·E[1{x_q=v_k}Attn_{k'}(1−Attn_k)(1−Attn_{k'})]L²Δ², here with C = 1",
            choices={"L": "Lipschitz constant on V", "Delta": "max pairwise distance (√2)",
                     "derivation": "|f_k − ŷ| ≤ (1−Attn_k)·max gap, |f_{k'} − ŷ| ≤ (1−Attn_{k'})·max gap, per prompt"})
def eq12_13_upper(ctx):
    from .searches import check_ratio_at_most
    return check_ratio_at_most(upper_ratios, 1.0, configurations("orthonormal"), ctx.seed,
                               what="max g / (core·L²Δ_max²)", n=30)
