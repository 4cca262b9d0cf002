"""Lemma 1 (Eq. 11, App. B): the exact decomposition and the O / Θ(L²Δ²) readings."""
from __future__ import annotations

import numpy as np

from theoryverify.checks import check_agreement
from theoryverify.claims import ClaimSet, Kind, Status
from theoryverify.findings import Finding
from theoryverify.scaling import fit_power_law
from theoryverify.verdicts import Verdict, combine, holds, refuted

from . import counts, printed
from .draws import configurations, describe
from .families import attn_moment, cancellation_family
from .geometry import GEOMETRIES, lipschitz_on_V, max_distance
from .gradients import expect, population_loss
from .searches import check_ratio_at_most
from .torch_model import population_loss as torch_population_loss

CLAIMS = ClaimSet("iclnonlinear")
N_DRAWS = 30
FAMILY_N = (4, 8, 16, 32, 64, 128, 256)


def appB_rhs(x, integrand=printed.appB_loss_integrand):
    """½ Σ_k E[1{x_q = v_k} (Σ_{n≠k} Attn_n (f_n − f_k))²] (the printed integrand carries the ½)."""
    return sum(expect(x, k, lambda A, y, f, k=k: integrand(A.T, f, k)) for k in range(x["K"]))


def check_l1_exact(ctx, integrand=printed.appB_loss_integrand):
    parts = {g: check_agreement(lambda x: appB_rhs(x, integrand),
                                lambda x: torch_population_loss(x["Q"], x["V"], x["p"], x["tasks"], x["N"]),
                                configurations(g), ctx.seed, rtol=1e-10, n=N_DRAWS,
                                names=("App. B display", "Eq. 7 (token-level torch)"), describe=describe)
             for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


@CLAIMS.add("lemma1-exact", location="App. B, 4th display", kind=Kind.IDENTITY, catalogue_id="ICLN-L1-exact",
            statement="L(P;Q) = ½ Σ_k E[1{x_q = v_k}(Σ_{n≠k} Attn_n (f(v_n) − f(v_k)))²]",
            choices={"expectation": "exact: all K^N token sequences × query class (torch), count enumeration "
                                    "(printed side); D_f uniform over 1–2 drawn tasks"})
def lemma1_exact(ctx):
    return check_l1_exact(ctx)


def upper_ratio(x, C=1.0):
    """loss / (C·½ Σ_k E[1{x_q = v_k}(1 − Attn_k)²]·L_V²·Δ_max²), L_V the Lipschitz constant on V."""
    L = max(lipschitz_on_V(f, x["V"]) for f in x["tasks"])
    D = max_distance(x["V"])
    core = sum(expect(x, k, lambda A, y, f, k=k: printed.eq11_core(A.T, k, L, D)) for k in range(x["K"]))
    return population_loss(x) / (C * core) if core > 0 else 0.0


def check_l1_upper(ctx, C=1.0):
    """Derived bound: |Σ_{n≠k} Attn_n (f_n − f_k)| ≤ (1 − Attn_k) max_n |f_n − f_k| ≤ (1 − Attn_k) L_V Δ_max,
    so Eq. 11's O(L²Δ²) holds with constant 1 (Δ = max pairwise distance)."""
    parts = {g: check_ratio_at_most(lambda x: upper_ratio(x, C), 1.0, configurations(g), ctx.seed,
                                    what="loss / (½ΣE[(1−Attn_k)²] L²Δ_max²)", n=N_DRAWS) for g in GEOMETRIES}
    return combine(parts, method="per geometry:")


@CLAIMS.add("lemma1-upper", location="Lemma 1, Eq. 11", kind=Kind.INEQUALITY, catalogue_id="ICLN-L1-upper",
            statement="L(P;Q) ≤ C·½ Σ_k E[1{x_q = v_k}(1 − Attn_k)²]·L²Δ² (the O(L²Δ²) reading), here with C = 1",
            choices={"L": "Lipschitz constant of f on V (max over the tasks)",
                     "Delta": "max pairwise feature distance (with the min distance C = (Δ_max/Δ_min)² works)"})
def lemma1_upper(ctx):
    return check_l1_upper(ctx)


def lower_family_ratios(Ns=FAMILY_N):
    """Ratio loss / (½ Σ_k E[1{x_q = v_k}(1 − Attn_k)²] L²Δ²) along the cancellation family."""
    out = []
    for N in Ns:
        x = cancellation_family(N)
        loss = counts.loss(x["q"], x["p"], x["tasks"][0], N)
        core = sum(attn_moment(x, k, lambda A, k=k: printed.eq11_core(A.T, k, x["L"], x["Delta"]))
                   for k in range(3))
        out.append(loss / core)
    return np.array(out)


def family_verdict(ratios, Ns, ctx, what: str, x0: dict) -> Verdict:
    fit = fit_power_law(np.array(Ns, float), ratios, ctx.seed)
    ce = {"family": "families.cancellation_family (K=3, orthonormal, f = L√2(0, 0.9, −0.1), "
                    "q_1· = (0, 0, log 9), q_22 = q_33 = 40, p uniform)",
          "in_F (c_nd = 0.9)": x0["in_F_c09"], "N": list(Ns), what: ratios.tolist(),
          "fitted exponent in N": fit.exponent, "CI": list(fit.ci)}
    if x0["in_F_c09"] and fit.ci[1] < 0 and ratios[-1] < ratios[0] / 20:
        return refuted("admissible family, exact count enumeration + power-law fit",
                       f"{what} falls from {ratios[0]:.3g} (N={Ns[0]}) to {ratios[-1]:.3g} (N={Ns[-1]}), "
                       f"∝ N^{fit.exponent:.2f} (CI {fit.ci[0]:.2f}..{fit.ci[1]:.2f}) → 0", ce)
    return holds("admissible family", f"{what} stays bounded away from 0 along the family", **ce)


@CLAIMS.add("lemma1-theta-lower", location="App. D.3 / E.2 restatement of Eq. 11; text after Prop. 1",
            kind=Kind.INEQUALITY, catalogue_id="ICLN-L1-theta-lower",
            statement="L(P;Q) ≥ c·½ Σ_k E[1{x_q = v_k}(1 − Attn_k)²]·L²Δ² for a c > 0 independent of Q, N, K, "
                      "counts and task (the Θ reading)",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="the Θ lower side that the text after Prop. 1 relies on ('L = Θ((1 − Attn_k)²)') fails: for K ≥ 3 the "
                   "residual Σ_{n≠k}Attn_n(f_n − f_k) cancels when f_k lies between other task values; along an "
                   "admissible family (point-mass D_f on f ∈ F, c_nd = 0.9) the ratio falls ∝ N^-1.8 (0.27 → 2e-4); "
                   "Lemma 1 as printed (O upper bound) holds (lemma1-upper)",
            choices={"family": "families.cancellation_family", "Delta": "√2 (orthonormal)"})
def lemma1_theta_lower(ctx):
    ratios = lower_family_ratios()
    return family_verdict(ratios, FAMILY_N, ctx, "loss ratio", cancellation_family(4))
