"""The paper's probabilistic lemmas and the Eckart–Young–Mirsky step, reconstructed (spec §2.10):
Lemmas 2–4, 6–7, 9–10 and App. H Eqs. (287)–(289).  Each is checked as an algebraic statement (SymPy)
and by Monte Carlo with a Clopper–Pearson interval on the failure frequency (seeded)."""
from __future__ import annotations

import numpy as np
import sympy as sp
from hypothesis import strategies as st
from scipy.stats import beta as beta_dist

from theoryverify.checks import check_agreement, check_identity, check_inequality
from theoryverify.checks.search import search
from theoryverify.claims import ClaimSet, Kind
from theoryverify.findings import Finding, Readings
from theoryverify.domains import Domain, Interval, LogUniform
from theoryverify.verdicts import Status, combine, holds, refuted

CLAIMS = ClaimSet("knowledge")
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
        return refuted("Monte Carlo, Clopper–Pearson", ev, {**params, "failures": fails, "trials": trials, "bound": bound})
    return holds(f"Monte Carlo ({trials} trials)", ev, failures=fails, trials=trials, bound=bound)


# --- Lemma 3 (anti-concentration) and Lemma 2 (tail) ------------------------------------------

def anticonc_rhs(c=2):
    return c * t / (sp.sqrt(2 * sp.pi) * s)


@CLAIMS.add("l3-anticonc", location="Lemma 3 (App. E; statement reconstructed, proof step recovered)",
            kind=Kind.INEQUALITY, catalogue_id="KX-L3-anticonc",
            statement="x ~ N(0, σ²): P(|x| ≤ t) = erf(t/(σ√2)) ≤ 2t/(√(2π)σ) (from pdf ≤ 1/(√(2π)σ))",
            choices={"domain": "t/σ ∈ [1e-4, 3] (σ ∈ [0.01, 10])"})
def l3_anticonc(ctx, c=2):
    return check_anticonc(ctx, c)


def check_anticonc(ctx, c=2):
    lhs = sp.erf(t / (s * sp.sqrt(2)))
    dom = Domain([LogUniform(s, 0.01, 10.0), LogUniform(t, 1e-4, 30.0)])
    num = check_inequality(lhs, "<=", anticonc_rhs(c), dom, ctx.seed)
    z = sp.Symbol("z", nonnegative=True)
    deriv = sp.simplify(sp.diff(2 * z / sp.sqrt(sp.pi) - sp.erf(z), z))      # = 2(1 − e^{−z²})/√π ≥ 0
    proof_ok = c == 2 and sp.simplify(deriv - 2 * (1 - sp.exp(-z**2)) / sp.sqrt(sp.pi)) == 0
    if num.status == Status.REFUTED or not proof_ok:
        return num
    return combine({"numeric": num, "proof": holds("SymPy", f"d/dz(2z/√π − erf z) = {deriv} ≥ 0 and 0 at z = 0")})


@CLAIMS.add("l2-tail", location="Lemma 2 (App. E; reconstructed)", kind=Kind.INEQUALITY,
            catalogue_id="KX-L4-L7-maxgauss",
            statement="x ~ N(0, σ²): P(|x| ≥ t) = erfc(t/(σ√2)) ≤ 2 exp(−t²/(2σ²)) (the tail Lemmas 4 and 7 use)",
            choices={"domain": "t/σ ∈ [1e-3, 10]"})
def l2_tail(ctx):
    return check_tail(ctx)


def check_tail(ctx, k=2):
    """erfc(t/(σ√2)) ≤ 2 exp(−t²/(kσ²)); k = 2 is Lemma 2 (true; even without the factor 2)."""
    dom = Domain([LogUniform(s, 0.01, 10.0), LogUniform(t, 1e-5, 100.0)])
    return check_inequality(sp.erfc(t / (s * sp.sqrt(2))), "<=", 2 * sp.exp(-t**2 / (k * s**2)), dom, ctx.seed)


# --- Lemmas 4 and 7 (maximum of Gaussians) ------------------------------------------------------

def maxgauss_threshold():
    return s * sp.sqrt(2 * sp.log(2 * n / dl))


def check_maxgauss(ctx, threshold=maxgauss_threshold):
    union = n * 2 * sp.exp(-threshold() ** 2 / (2 * s**2))
    dom = Domain([LogUniform(n, 1.0, 1e6), LogUniform(dl, 1e-6, 0.5), LogUniform(s, 0.01, 10.0)])
    algebra = check_identity(union, dl, dom, ctx.seed)
    rng = np.random.default_rng(ctx.seed)
    parts = {"union bound n·2e^{−τ²/2σ²} = δ": algebra}
    for n_, d_ in ((10, 0.1), (1000, 0.05), (20000, 0.2)):
        tau = float(threshold().subs({s: 1, n: n_, dl: d_}))
        fails = sum(int(np.abs(rng.standard_normal(n_)).max() > tau) for _ in range(MC_TRIALS // 4))
        parts[f"n={n_}, δ={d_}"] = frequency_verdict(fails, MC_TRIALS // 4, d_, "P(max|x_i| > σ√(2 log(2n/δ)))",
                                                     {"n": n_, "delta": d_})
    return combine(parts)


@CLAIMS.add("l4-l7-maxgauss", location="Lemmas 4 and 7 (App. E; reconstructed)", kind=Kind.INEQUALITY,
            catalogue_id="KX-L4-L7-maxgauss",
            statement=("n i.i.d. N(0, σ²) entries: max_i |x_i| ≤ σ√(2 log(2n/δ)) w.p. ≥ 1 − δ (Lemma 7: "
                       "|⟨w_{j,l}⁽⁰⁾, x_v⟩| ≤ σ_0‖x_v‖√(2 log(·/δ)) for all j, l, v is this with σ = σ_0‖x_v‖)"),
            choices={"Monte Carlo": f"{MC_TRIALS // 4} trials per (n, δ)"})
def l4_l7_maxgauss(ctx):
    return check_maxgauss(ctx)


# --- Lemmas 6 and 9 (relation coverage) ---------------------------------------------------------

def coverage_bound():
    return R * sp.exp(-N * K**2 / (2 * R**2))


def check_coverage(ctx, bound=coverage_bound):
    # Hoeffding for Bin(N, K/R) falling below half its mean: exp(−2N (K/(2R))²); union over R relations.
    hoeffding = R * sp.exp(-2 * N * (K / (2 * R)) ** 2)
    dom = Domain([LogUniform(N, 1.0, 1e4), LogUniform(K, 1.0, 50.0), LogUniform(R, 1.0, 100.0)])
    parts = {"Hoeffding + union = bound": check_identity(hoeffding, bound(), dom, ctx.seed)}
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
    parts["N ≥ 2|R|² log(|R|/δ)/K² ⇒ bound = δ"] = check_identity(
        bound().subs(N, Nreq), dl, Domain([LogUniform(K, 1.0, 50.0), LogUniform(R, 1.0, 100.0),
                                           LogUniform(dl, 1e-6, 0.5)]), ctx.seed)
    return combine(parts)


@CLAIMS.add("l6-l9-coverage", location="Lemmas 6 and 9 (App. E; reconstructed)", kind=Kind.INEQUALITY,
            catalogue_id="KX-L6-L9-coverage",
            statement=("N trials of K-without-replacement from 𝓡: every r is chosen ≥ NK/(2|𝓡|) times w.p. ≥ "
                       "1 − |𝓡| exp(−NK²/(2|𝓡|²)); hence N ≥ C|𝓡|² log(|𝓡|/δ)/K² suffices (C = 2)"),
            choices={"Monte Carlo": f"{MC_TRIALS // 8} trials per (N, K, |R|)"})
def l6_l9_coverage(ctx):
    return check_coverage(ctx)


# --- Lemma 10 (activation at initialisation) ----------------------------------------------------

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
    return combine(parts)


@CLAIMS.add("l10-activation", location="Lemma 10 (App. E; reconstructed)", kind=Kind.INEQUALITY,
            catalogue_id="KX-L10-activation",
            statement=("at init every block has m/2 ± O(√(m log(·/δ))) active neurons for every token; the active "
                       "fraction is ≥ 1/4 w.p. ≥ 1 − d|V|e^{−m/8} (so once m ≥ C log(d|V|/δ))"),
            choices={"tokens": "20 orthogonal tokens", "grid": "m ∈ {8, 16, 64, 256}, d ∈ {50, 200}",
                     "reading": "failure frequency vs the Hoeffding union bound at each grid point"})
def l10_activation(ctx):
    return check_activation(ctx)


# --- App. H, Eqs. (287)–(289): Eckart–Young–Mirsky ---------------------------------------------

matrices = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**31 - 1)).map(
    lambda a: np.random.default_rng(a[2]).standard_normal((a[0], a[1])))


def rank1(G: np.ndarray, use_eigenvalue: bool = False) -> np.ndarray:
    U, S, Vt = np.linalg.svd(G)
    sigma = S[0]
    if use_eigenvalue:            # (289)'s wording: "σ_1 is the largest eigenvalue of G"
        if G.shape[0] != G.shape[1]:
            return np.full_like(G, np.nan)
        sigma = float(np.max(np.linalg.eigvals(G).real))
    return sigma * np.outer(U[:, 0], Vt[0])


def check_eym(ctx, use_eigenvalue: bool = False):
    """‖G − σ_1 u_1 v_1ᵀ‖_F² = Σ_{i≥2} σ_i² and no rank-1 matrix does better (random competitors, and
    from the best competitor a local polish)."""
    def resid(G):
        return float(np.linalg.norm(G - rank1(G, use_eigenvalue)) ** 2)

    def tail(G):
        return float(np.sum(np.linalg.svd(G, compute_uv=False)[1:] ** 2))
    ident = check_agreement(resid, tail, matrices, seed=ctx.seed, rtol=1e-10, n=60,
                            names=("‖G − G₁‖²_F", "Σ_{i≥2} σ_i²"), describe=lambda G: {"G": G.tolist()})

    def beaten(G):
        rng = np.random.default_rng(G.size)
        best = min(np.linalg.norm(G - np.outer(rng.standard_normal(G.shape[0]), rng.standard_normal(G.shape[1]))) ** 2
                   for _ in range(50))
        return resid(G) - best
    res = search(matrices, beaten, fails=lambda v: v > 1e-9, seed=ctx.seed, max_examples=60)
    if res.failure is not None:
        opt = refuted("random rank-1 competitors", "a rank-1 matrix beats σ_1 u_1 v_1ᵀ",
                      {"G": res.failure.tolist(), "excess": res.failure_score})
    else:
        opt = holds(f"{res.tried} matrices × 50 random rank-1 competitors", "none beats σ_1 u_1 v_1ᵀ")
    return combine({"EYM residual identity": ident, "optimality": opt})


@CLAIMS.add("h-eym", location="App. H, Eqs. (287)–(289)", kind=Kind.IDENTITY, catalogue_id="KX-H-EYM",
            statement=("the best rank-1 approximation of G in Frobenius norm is σ_1 u_1 v_1ᵀ with σ_1 the largest "
                       "singular value (Eckart–Young–Mirsky): ‖G − G₁‖²_F = Σ_{i≥2} σ_i²"),
            choices={"matrices": "Gaussian, shapes 1..6 × 1..6 (incl. non-square)"})
def h_eym(ctx):
    return check_eym(ctx)


@CLAIMS.add("h-eym-wording", location="App. H, text after Eq. (289)", kind=Kind.IDENTITY, catalogue_id="KX-H-EYM",
            statement="(289) as worded: σ_1 \"is the largest eigenvalue of G\" (u_1, v_1 its singular vectors)",
            expect=Status.REFUTED, finding=Finding.TYPO,
            reason=("(289) calls σ_1 'the largest eigenvalue' where the largest singular value is meant (the same "
                    "sentence calls u_1, v_1 its left and right singular vectors; Lemma 24 uses singular values): "
                    "taken literally it is undefined for the (dm)×d gradient and wrong wherever the top eigenvalue is "
                    "not σ_1 (e.g. G = [[−0.65]]); changes no conclusion (h-eym holds)"),
            readings=Readings(tested="σ_1 is the largest eigenvalue of G itself (the argument of 'eigenvalue of' is lost)",
                              others={"σ_1 is the largest singular value of G, i.e. the square root of the largest "
                                      "eigenvalue of GᵀG": "holds: knowledge.h-eym"}),
            choices={"reading": "the wording taken literally: σ_1 = max real eigenvalue (non-square G: undefined)"})
def h_eym_wording(ctx):
    return check_eym(ctx, use_eigenvalue=True)
