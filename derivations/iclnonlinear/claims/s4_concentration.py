"""Sec. 4, Eq. 9: the concentration set E* and its probability bound."""
from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.stats import binomtest

import theoryverify as tv
from theoryverify import holds, proved, refuted

from ..model import counts
from ..printed import displays as printed

CLAIMS = tv.ClaimSet("iclnonlinear")
EQ9_GRID = ((100, 4), (2560, 4), (10240, 8), (500, 2), (20000, 6))
DRAWS = {"quick": 20_000, "full": 200_000}


def delta_min(N, K, c=printed.EQ9_DELTA_CONSTANT):
    return float(np.sqrt(c * K / N))


def in_E_star(n: np.ndarray, N: int, p: np.ndarray, delta: float) -> np.ndarray:
    """|V_k| ∈ [(p_k − δ)N, (p_k + δ)N] for every k (Eq. 9); n has one count vector per row."""
    return np.all((n >= (p - delta) * N) & (n <= (p + delta) * N), axis=1)


def check_eq9_mc(ctx, prefactor=printed.EQ9_PREFACTOR, denominator=printed.EQ9_DENOMINATOR,
                 delta_constant=printed.EQ9_DELTA_CONSTANT, grid=EQ9_GRID, draws=None):
    """Monte Carlo: empirical P(E*) with its 99% Clopper–Pearson interval against the bound, per cell."""
    rng = np.random.default_rng(ctx.seed)
    M = draws or ctx.params.get("draws", DRAWS["quick"])
    rows = []
    for N, K in grid:
        p = np.full(K, 1.0 / K)
        n = rng.multinomial(N, p, size=M)
        for scale in (1.0, 1.5):
            delta = scale * delta_min(N, K, delta_constant)
            hits = int(in_E_star(n, N, p, delta).sum())
            ci = binomtest(hits, M).proportion_ci(confidence_level=0.99, method="exact")
            bound = 1.0 - prefactor * np.exp(-delta**2 * N / denominator)
            rows.append(dict(N=N, K=K, delta=delta, draws=M, P_hat=hits / M, ci=[ci.low, ci.high], bound=bound))
            if ci.high < bound:
                return refuted("Monte Carlo, multinomial counts, 99% Clopper–Pearson",
                               f"N={N}, K={K}, δ={delta:.4g}: P(E*) ∈ [{ci.low:.5f}, {ci.high:.5f}] < bound {bound:.6f}",
                               rows[-1], cells=rows)
    margin = min(r["ci"][1] - r["bound"] for r in rows)
    return holds(f"Monte Carlo ({M} draws per cell, {len(rows)} cells)",
                 f"no cell's 99% CI lies below the bound; min (CI upper − bound) = {margin:.3g}", cells=rows)


def check_eq9_hoeffding():
    """Algebra: Hoeffding + union bound give P(E*ᶜ) ≤ 2K exp(−2δ²N); this is ≤ 3 exp(−δ²N/25) iff
    log(2K/3) ≤ (2 − 1/25) δ²N, which with δ²N ≥ 20K reads h(K) = (2 − 1/25)·20K − log(2K/3) ≥ 0:
    h(1) > 0 and h'(K) > 0 for K ≥ 1."""
    K = sp.Symbol("K", positive=True)
    h = (2 - sp.Rational(1, 25)) * 20 * K - sp.log(2 * K / 3)
    h1 = h.subs(K, 1)
    dh = sp.diff(h, K)
    crit = sp.solve(sp.Eq(dh, 0), K)
    ok = bool(h1 > 0) and all(c < 1 for c in crit)
    if not ok:
        return refuted("symbolic (Hoeffding + union bound)", "the implication fails", {"h(1)": h1, "critical": crit})
    return proved("symbolic: Hoeffding + union bound",
                  f"P(E*) ≥ 1 − 2K e^(−2δ²N) ≥ 1 − 3 e^(−δ²N/25) for all K ≥ 1 when δ²N ≥ 20K "
                  f"(h(1) = {sp.N(h1, 5)} > 0, h' = {dh} > 0 for K ≥ 1)", h=str(h))


@CLAIMS.add("eq9-prob", location="Eq. 9, Sec. 4", kind=tv.Kind.INEQUALITY, catalogue_id="ICLN-EQ9-prob",
            statement="δ ≥ sqrt(20K/N) ⇒ P(P_{1:N} ∈ E*) ≥ 1 − 3 exp(−δ²N/25)",
            choices={"p": "uniform p_k = 1/K", "delta": "δ_min and 1.5 δ_min",
                     "draws": "2·10⁴ per cell (quick), 2·10⁵ (full)"},
            params={"draws": DRAWS["quick"]}, variants={"full": tv.Variant(params={"draws": DRAWS["full"]})})
def eq9_prob(ctx):
    return tv.combine({"Monte Carlo": check_eq9_mc(ctx), "algebra": check_eq9_hoeffding()})


def nontrivial_threshold(K: int) -> sp.Rational:
    """Derived: with p_k = 1/K and δ = δ_min, E* excludes some count vector iff δ < 1/K (|V_k| = 0 excluded)
    or 1/K + δ < 1 (|V_k| = N excluded), i.e. iff N > 20K³/(K − 1)² (the weaker of N > 20K³ and this)."""
    return sp.Rational(20 * K**3, (K - 1) ** 2)


@CLAIMS.add("eq9-nontrivial", location="Eq. 9 with 'N ≥ Θ(K³)'; Sec. 6 setting", kind=tv.Kind.IDENTITY,
            catalogue_id="ICLN-EQ9-nontrivial",
            statement="With δ = δ_min and p_k = 1/K, E* is a proper subset of all prompts iff N > 20K³/(K−1)²; "
                      "at the Sec. 6 setting (N = 100, K = 4; threshold 142.2) E* contains every prompt; along "
                      "N = C·K³ it is nontrivial iff C > 20/(1 − 1/K)²",
            choices={"derivation": "threshold derived (claims/s4_concentration.nontrivial_threshold), checked by "
                                   "enumerating every count vector"})
def check_eq9_nontrivial(ctx=None, grid=((100, 2), (170, 2), (100, 3), (140, 3), (100, 4), (150, 4))):
    def case(nk):
        N, K = nk
        n = counts.counts_array(N, K)
        proper = not bool(np.all(in_E_star(n, N, np.full(K, 1.0 / K), delta_min(N, K))))
        return proper == bool(N > nontrivial_threshold(K)), {"E* proper subset": proper,
                                                            "threshold 20K³/(K−1)²": nontrivial_threshold(K)}
    return tv.check_cases([(f"N={N}, K={K}", (N, K)) for N, K in grid], case, exhaustive=False, exact=True,
                       what="(N, K) cells, every count vector enumerated")
