"""App. E, the paper's probabilistic lemmas, reconstructed (spec §2.10): Lemmas 2–4, 6–7, 9–10.  Each is checked as an
algebraic statement (SymPy) and by Monte Carlo with a Clopper–Pearson interval on the failure frequency (seeded)."""
from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.stats import beta as beta_dist

import theoryverify as tv
from theoryverify.evidence_types import Configurations, CouldHaveFailed, attach

CLAIMS = tv.ClaimSet("knowledge")
t, s, n, dl, N, K, R = sp.symbols("t sigma n delta N K R", positive=True)
MC_TRIALS = 4000


def clopper_pearson_upper(k: int, trials: int, level: float = 0.95) -> float:
    return 1.0 if k >= trials else float(beta_dist.ppf(level, k + 1, trials - k))


def frequency_verdict(fails: int, trials: int, bound: float, what: str, params: dict):
    """A probability bound P(fail) ≤ bound is refuted when even the 95% lower confidence limit of the
    failure frequency exceeds it; otherwise it holds (stating the upper limit)."""
    lo = 0.0 if fails == 0 else float(beta_dist.ppf(0.05, fails, trials - fails + 1))
    hi = clopper_pearson_upper(fails, trials)
    ev = f"{what}: {fails}/{trials} failures (95% CI [{lo:.3g}, {hi:.3g}]) vs bound {bound:.3g}"
    if lo > bound:
        return tv.refuted("Monte Carlo, Clopper–Pearson", ev, {**params, "failures": fails, "trials": trials, "bound": bound})
    return tv.holds(f"Monte Carlo ({trials} trials)", ev, failures=fails, trials=trials, bound=bound)


# --- Lemma 3 (anti-concentration) and Lemma 2 (tail) ------------------------------------------

def anticonc_rhs(c=2):
    return c * t / (sp.sqrt(2 * sp.pi) * s)


@CLAIMS.add("l3-anticonc", location="Lemma 3 (App. E; statement reconstructed, proof step recovered)",
            kind=tv.Kind.INEQUALITY, catalogue_id="KX-L3-anticonc",
            statement="x ~ N(0, σ²): P(|x| ≤ t) = erf(t/(σ√2)) ≤ 2t/(√(2π)σ) (from pdf ≤ 1/(√(2π)σ))",
            choices={"domain": "t/σ ∈ [1e-4, 3] (σ ∈ [0.01, 10])"})
def check_anticonc(ctx, c=2):
    lhs = sp.erf(t / (s * sp.sqrt(2)))
    dom = tv.Domain([tv.LogUniform(s, 0.01, 10.0), tv.LogUniform(t, 1e-4, 30.0)])
    num = tv.check_inequality(lhs, "<=", anticonc_rhs(c), dom, ctx.seed)
    z = sp.Symbol("z", nonnegative=True)
    deriv = sp.simplify(sp.diff(2 * z / sp.sqrt(sp.pi) - sp.erf(z), z))      # = 2(1 − e^{−z²})/√π ≥ 0
    proof_ok = c == 2 and sp.simplify(deriv - 2 * (1 - sp.exp(-z**2)) / sp.sqrt(sp.pi)) == 0
    if num.status == tv.Status.REFUTED or not proof_ok:
        return num
    return tv.combine({"numeric": num, "proof": tv.holds("SymPy", f"d/dz(2z/√π − erf z) = {deriv} ≥ 0 and 0 at z = 0")})


@CLAIMS.add("l2-tail", main=True, location="Lemma 2 (App. E; reconstructed)", kind=tv.Kind.INEQUALITY,
            catalogue_id="KX-L4-L7-maxgauss",
            statement="x ~ N(0, σ²): P(|x| ≥ t) = erfc(t/(σ√2)) ≤ 2 exp(−t²/(2σ²)) (the tail Lemmas 4 and 7 use)",
            choices={"domain": "t/σ ∈ [1e-3, 10]"})
def check_tail(ctx, k=2):
    """erfc(t/(σ√2)) ≤ 2 exp(−t²/(kσ²)); k = 2 is Lemma 2 (true; even without the factor 2)."""
    dom = tv.Domain([tv.LogUniform(s, 0.01, 10.0), tv.LogUniform(t, 1e-5, 100.0)])
    return tv.check_inequality(sp.erfc(t / (s * sp.sqrt(2))), "<=", 2 * sp.exp(-t**2 / (k * s**2)), dom, ctx.seed)


# --- Lemmas 4 and 7 (maximum of Gaussians) ------------------------------------------------------

def maxgauss_threshold():
    return s * sp.sqrt(2 * sp.log(2 * n / dl))


@CLAIMS.add("l4-l7-maxgauss", main=True, location="Lemmas 4 and 7 (App. E; reconstructed)", kind=tv.Kind.INEQUALITY,
            catalogue_id="KX-L4-L7-maxgauss",
            statement=("n i.i.d. N(0, σ²) entries: max_i |x_i| ≤ σ√(2 log(2n/δ)) w.p. ≥ 1 − δ (Lemma 7: "
                       "|⟨w_{j,l}⁽⁰⁾, x_v⟩| ≤ σ_0‖x_v‖√(2 log(·/δ)) for all j, l, v is this with σ = σ_0‖x_v‖)"),
            choices={"Monte Carlo": f"{MC_TRIALS // 4} trials per (n, δ)"})
def check_maxgauss(ctx, threshold=maxgauss_threshold):
    union = n * 2 * sp.exp(-threshold() ** 2 / (2 * s**2))
    dom = tv.Domain([tv.LogUniform(n, 1.0, 1e6), tv.LogUniform(dl, 1e-6, 0.5), tv.LogUniform(s, 0.01, 10.0)])
    algebra = tv.check_identity(union, dl, dom, ctx.seed)
    rng = np.random.default_rng(ctx.seed)
    parts = {"union bound n·2e^{−τ²/2σ²} = δ": algebra}
    for n_, d_ in ((10, 0.1), (1000, 0.05), (20000, 0.2)):
        tau = float(threshold().subs({s: 1, n: n_, dl: d_}))
        fails = sum(int(np.abs(rng.standard_normal(n_)).max() > tau) for _ in range(MC_TRIALS // 4))
        parts[f"n={n_}, δ={d_}"] = frequency_verdict(fails, MC_TRIALS // 4, d_, "P(max|x_i| > σ√(2 log(2n/δ)))",
                                                     {"n": n_, "delta": d_})
    return tv.combine(parts)


# --- Lemmas 6 and 9 (relation coverage) ---------------------------------------------------------

def coverage_bound():
    return R * sp.exp(-N * K**2 / (2 * R**2))


@CLAIMS.add("l6-l9-coverage", main=True, location="Lemmas 6 and 9 (App. E; reconstructed)", kind=tv.Kind.INEQUALITY,
            catalogue_id="KX-L6-L9-coverage",
            statement=("N trials of K-without-replacement from 𝓡: every r is chosen ≥ NK/(2|𝓡|) times w.p. ≥ "
                       "1 − |𝓡| exp(−NK²/(2|𝓡|²)); hence N ≥ C|𝓡|² log(|𝓡|/δ)/K² suffices (C = 2)"),
            choices={"Monte Carlo": f"{MC_TRIALS // 8} trials per (N, K, |R|)"})
def check_coverage(ctx, bound=coverage_bound):
    # Hoeffding for Bin(N, K/R) falling below half its mean: exp(−2N (K/(2R))²); union over R relations.
    hoeffding = R * sp.exp(-2 * N * (K / (2 * R)) ** 2)
    dom = tv.Domain([tv.LogUniform(N, 1.0, 1e4), tv.LogUniform(K, 1.0, 50.0), tv.LogUniform(R, 1.0, 100.0)])
    parts = {"Hoeffding + union = bound": tv.check_identity(hoeffding, bound(), dom, ctx.seed)}
    rng = np.random.default_rng(ctx.seed)
    trials = MC_TRIALS // 8
    for N_, K_, R_ in ((40, 3, 10), (60, 5, 20), (200, 2, 10)):
        picks = rng.random((trials, N_, R_)).argsort(-1)[..., :K_]          # K without replacement, per trial
        counts = np.stack([np.bincount(p.ravel(), minlength=R_) for p in picks])
        fails = int((counts.min(1) < N_ * K_ / (2 * R_)).sum())
        b = float(bound().subs({N: N_, K: K_, R: R_}))
        parts[f"N={N_}, K={K_}, |R|={R_}"] = frequency_verdict(fails, trials, b, "P(some r chosen < NK/(2|R|) times)",
                                                                {"N": N_, "K": K_, "R": R_})
    # Lemma 9's sample size: N ≥ 2|R|² log(|R|/δ)/K² makes the bound ≤ δ
    Nreq = 2 * R**2 * sp.log(R / dl) / K**2
    parts["N ≥ 2|R|² log(|R|/δ)/K² ⇒ bound = δ"] = tv.check_identity(
        bound().subs(N, Nreq), dl, tv.Domain([tv.LogUniform(K, 1.0, 50.0), tv.LogUniform(R, 1.0, 100.0),
                                           tv.LogUniform(dl, 1e-6, 0.5)]), ctx.seed)
    return tv.combine(parts)


# --- Lemma 10 (activation at initialisation) ----------------------------------------------------

@CLAIMS.add("l10-activation", main=True, location="Lemma 10 (App. E; reconstructed)", kind=tv.Kind.INEQUALITY,
            catalogue_id="KX-L10-activation",
            statement=("at init every block has m/2 ± O(√(m log(·/δ))) active neurons for every token; the active "
                       "fraction is ≥ 1/4 w.p. ≥ 1 − d|V|e^{−m/8} (so once m ≥ C log(d|V|/δ))"),
            choices={"tokens": "20 orthogonal tokens", "grid": "m ∈ {8, 16, 64, 256}, d ∈ {50, 200}",
                     "reading": "failure frequency vs the Hoeffding union bound at each grid point"})
def check_activation(ctx, floor: float = 0.25, grid=((8, 50), (16, 50), (64, 200), (256, 200)), tokens: int = 20,
                     rate: float = 2.0):
    """Per block (output coordinate j, m neurons) and token v, the number of active neurons at init is
    Bin(m, 1/2) (w_{j,l}·x_v is symmetric); the claim reads: fraction ≥ 1/4 for all blocks and tokens
    once m ≥ C log(d|V|/δ).  Measured: the frequency with which some (block, token) falls below ``floor``,
    against the Hoeffding union bound d·|V|·exp(−2m(1/2 − floor)²)."""
    rng = np.random.default_rng(ctx.seed)
    parts = {}
    trials = 200
    for m, d in grid:
        # ⟨w_{j,l}, x_v⟩ = ‖x_v‖ W[j,l,idx v]: independent symmetric ⇒ the active count per block is Bin(m, ½)
        frac = rng.binomial(m, 0.5, size=(trials, d, tokens)) / m
        fails = int((frac.min((1, 2)) < floor).sum())
        bound = min(1.0, d * tokens * np.exp(-rate * m * (0.5 - floor) ** 2))
        parts[f"m={m}, d={d}"] = frequency_verdict(fails, trials, bound, f"P(min active fraction < {floor})",
                                                   {"m": m, "d": d, "tokens": tokens,
                                                    "min_fraction_seen": float(frac.min())})
    # main lemma (issue 27): what the pass ranges over and how it could have failed, as typed evidence
    return attach(tv.combine(parts),
                  Configurations(tuple({"m": m, "d": d, "tokens": tokens, "trials": trials} for m, d in grid)),
                  CouldHaveFailed("test power", f"a failure frequency of 'some block has active fraction < {floor}' "
                                                "significantly above the Hoeffding union bound at any (m, d) refutes "
                                                "(frequency_verdict's binomial test)"))
