"""Monte Carlo for ``E(...)`` that neither a closed form nor one-variable quadrature can compute.

Where :func:`~.expectation.expectation` finds no closed form and quadrature does not apply (several continuous
random variables: ``E(tanh(W*X + 1)**2)`` with W, X normal, a joint expectation over W and a uniform phase), and
every parameter of the integrand is a number, the expectation becomes a placeholder symbol (:class:`Sampled`).
The built statement ``lhs OP rhs`` is then decided here, from samples, only when ``lhs − rhs`` is an affine
function ``c0 + Σ c_i·E[h_i]`` of the placeholders with numeric coefficients: then ``lhs − rhs = E[Y]`` with
``Y = c0 + Σ c_i·h_i`` evaluated on one joint draw of the (independent) variables, a single mean to test.

Samples come from the engine's Monte-Carlo sampler protocol (:func:`~theoryverify.checks.montecarlo.draw_samples`),
:data:`SAMPLES` draws per stream, in two **independent streams** whose seeds derive from the statement's seed
(itself derived from the context, the statement text and ``--seed``) and the text of Y, so the output is
byte-for-byte reproducible.  With the family-wise level :data:`ALPHA` divided by the number of sampled tests
behind the verdict (Bonferroni; a test-function family counts each member), ``z*`` is the normal quantile
(two-sided for ``==``, one-sided for inequalities).  The verdicts:

- never *proved*;
- *refuted* only when **all** of: stream A rejects (``|z_A| > z*``, on the violating side), the independent
  replication stream B rejects on the same side, the median of :data:`BLOCKS` block means of both streams lies
  outside its own bound ``2·sd/√(block size)`` (Chebyshev per block, Hoeffding over blocks: confidence
  1 − exp(−BLOCKS/8), needing only a finite variance), and the tail diagnostic passes: each stream's sample
  kurtosis is at most ``n/KURTOSIS_RATIO`` and the two agree within a factor :data:`KURTOSIS_AGREEMENT` (heavier or
  unstable tails make the normal approximation of the mean unreliable);
- *holds (Monte Carlo, no proof)*: ``==`` — the pooled estimate is within ``z*`` standard errors of 0 and the
  pooled interval's half-width is at most :data:`RESOLUTION` × max(1, |lhs|, |rhs|); an inequality — the pooled
  one-sided confidence limit is on the right side of 0; in both cases the tail diagnostic must pass;
- otherwise *inconclusive*, with the reason (too few samples to resolve, heavy tails, the replication disagrees,
  at the edge of an inequality, other free symbols, expectations entering non-linearly).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy as sp

from ..numeric import lambdify_generated
from ..verdicts import Verdict, holds, inconclusive, refuted

SAMPLES = 2**18  # draws per stream (two streams)
ALPHA = 1e-3  # family-wise level of one sampled verdict, before the multiplicity correction
BLOCKS = 64  # median-of-means blocks over both streams
RESOLUTION = 1e-2  # an == holds only if the interval's half-width is at most this times max(1, |lhs|, |rhs|)
KURTOSIS_RATIO = 500  # a stream's sample kurtosis must be at most n / KURTOSIS_RATIO
KURTOSIS_AGREEMENT = 2.0  # ... and the two streams' kurtoses within this factor of each other
DISTRIBUTIONS = ("Normal", "Uniform", "Exponential", "Gamma", "Beta", "Poisson", "Bernoulli", "Rademacher",
                 "Binomial")

#: placeholders made while building the current statement
SAMPLED: list["Sampled"] = []


@dataclass(frozen=True)
class Sampled:
    """``symbol`` stands for ``E[integrand]`` over ``variables`` (all parameters numeric)."""
    symbol: sp.Dummy
    integrand: sp.Expr
    variables: tuple

    def describe(self) -> str:
        shown = self.integrand.xreplace({rv.symbol: sp.Symbol(rv.name) for rv in self.variables})
        return f"E[{sp.sstr(shown)[:60]}]"


def can_sample(expr: sp.Expr, present) -> bool:
    """Every free symbol of ``expr`` a random variable of ``present``, every parameter a number, nothing
    unevaluated (derivatives, sums, unspecified functions) in it."""
    from sympy.core.function import AppliedUndef

    from .expectation import Deferred
    syms = {rv.symbol for rv in present}
    if expr.free_symbols - syms or any(rv.dist not in DISTRIBUTIONS for rv in present):
        return False
    if any(sp.sympify(p).free_symbols for rv in present for p in rv.params):
        return False
    return not expr.has(sp.Derivative, sp.Subs, sp.Integral, sp.Sum, sp.Product, AppliedUndef, Deferred)


def placeholder(expr: sp.Expr, present) -> sp.Expr | None:
    """A :class:`Sampled` placeholder for ``E[expr]`` if it can be sampled (:func:`can_sample`); None otherwise."""
    if not can_sample(expr, present):
        return None
    for known in SAMPLED:
        if known.integrand == expr:
            return known.symbol
    s = sp.Dummy(f"E{len(SAMPLED) + 1}", real=True)
    SAMPLED.append(Sampled(s, expr, tuple(sorted(present, key=lambda rv: rv.name))))
    return s


def _draw(rv, rng: np.random.Generator, n: int) -> np.ndarray:
    ps = [float(p) for p in rv.params]
    d = rv.dist
    if d == "Normal":
        return rng.normal(ps[0], ps[1], n)
    if d == "Uniform":
        return rng.uniform(ps[0], ps[1], n)
    if d == "Exponential":
        return rng.exponential(1 / ps[0], n)
    if d == "Gamma":
        return rng.gamma(ps[0], ps[1], n)
    if d == "Beta":
        return rng.beta(ps[0], ps[1], n)
    if d == "Poisson":
        return rng.poisson(ps[0], n).astype(float)
    if d == "Bernoulli":
        return (rng.random(n) < ps[0]).astype(float)
    if d == "Rademacher":
        return np.where(rng.random(n) < 0.5, 1.0, -1.0)
    return rng.binomial(int(ps[0]), ps[1], n).astype(float)


def _kurtosis(y: np.ndarray) -> float:
    c = y - y.mean()
    m2 = float(np.mean(c**2))
    return float(np.mean(c**4)) / m2**2 if m2 > 0 else 1.0


def _quantile(alpha: float) -> float:
    from scipy import stats
    return float(stats.norm.isf(alpha))


def decide(lhs, op: str, rhs, sampled: list[Sampled], seed: int, *, multiplicity: int = 1,
           extra_error: float = 0.0, note: str = "") -> Verdict:
    """The verdict on ``lhs OP rhs`` whose expectations ``sampled`` are placeholders (see the module docstring).
    ``extra_error``: an absolute error already in the constants (quadrature), added to every margin."""
    from ..checks.montecarlo import draw_samples
    from ..seeds import derive_seed
    method = "Monte Carlo (two independent seed streams)"
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        return inconclusive(method, "a sampled expectation inside a matrix statement is not decided")
    gap = sp.expand(sp.sympify(lhs) - sp.sympify(rhs))
    used = [p for p in sampled if gap.has(p.symbol)]
    marks = [p.symbol for p in used]
    others = gap.free_symbols - set(marks)
    what = "; ".join(p.describe() for p in used)
    if not used:
        return inconclusive(method, "the sampled expectations cancel: nothing to sample")
    if others:
        return inconclusive(method, f"{what} has no closed form and the statement has other free symbols "
                            f"({', '.join(sorted(map(str, others)))}): Monte Carlo needs every other name to be a "
                            "number")
    try:
        poly = sp.Poly(gap, *marks)
    except sp.PolynomialError:
        poly = None
    if poly is None or poly.total_degree() > 1 or any(c.free_symbols for c in poly.coeffs()):
        return inconclusive(method, f"{what} enter the statement non-linearly; Monte Carlo decides only statements "
                            "affine in the sampled expectations")
    y = gap.xreplace({p.symbol: p.integrand for p in used})
    variables = sorted({rv for p in used for rv in p.variables}, key=lambda rv: rv.name)
    syms = [rv.symbol for rv in variables]
    pieces = [y, *(p.integrand for p in used)]
    fns = [lambdify_generated(syms, e) for e in pieces]

    def sampler(rng: np.random.Generator, n: int) -> np.ndarray:
        draws = [_draw(rv, rng, n) for rv in variables]
        with np.errstate(all="ignore"):
            cols = [np.broadcast_to(np.asarray(f(*draws), dtype=float), (n,)) for f in fns]
        return np.stack(cols, axis=1)

    text = sp.sstr(y)
    seeds = (derive_seed(seed, "montecarlo", text), derive_seed(seed, "montecarlo replication", text))
    n = SAMPLES
    try:
        streams = [draw_samples(sampler, s, n, None, "integrand") for s in seeds]
    except ValueError as exc:
        return inconclusive(method, f"{what}: sampling failed ({exc})")
    two_sided = op == "=="
    m = max(1, int(multiplicity))
    z_star = _quantile(ALPHA / m / (2 if two_sided else 1))
    ya, yb = streams[0][:, 0], streams[1][:, 0]
    pooled = np.concatenate([ya, yb])
    stats_ = []
    for arr in (ya, yb):
        mean, sd = float(arr.mean()), float(arr.std(ddof=1))
        se = sd / math.sqrt(n)
        stats_.append((mean, se, _z(mean, se, extra_error), _kurtosis(arr)))
    mean, sd = float(pooled.mean()), float(pooled.std(ddof=1))
    se = sd / math.sqrt(2 * n)
    z = _z(mean, se, extra_error)
    b = (2 * n) // BLOCKS
    mom = float(np.median(pooled[: b * BLOCKS].reshape(BLOCKS, b).mean(axis=1)))
    mom_bound = 2 * sd / math.sqrt(b) + extra_error
    kurt = [k for *_, k in stats_]
    tails_ok = max(kurt) <= n / KURTOSIS_RATIO and max(kurt) <= KURTOSIS_AGREEMENT * min(kurt)
    est = [float(c) for c in pooled_means(streams)]
    sides = {p.symbol: v for p, v in zip(used, est)}
    lhs_v, rhs_v = float(sp.N(sp.sympify(lhs).xreplace(sides))), float(sp.N(sp.sympify(rhs).xreplace(sides)))
    resolution = RESOLUTION * max(1.0, abs(lhs_v), abs(rhs_v))
    half = z_star * se + extra_error
    facts = (f"{what} by Monte Carlo: lhs ≈ {lhs_v:.6g}, rhs ≈ {rhs_v:.6g}; lhs − rhs ≈ {mean:.4g} ± {se:.2g} "
             f"(standard error), n = {n} per stream × 2 independent streams (seeds {seeds[0]}, {seeds[1]}); "
             f"z_A = {stats_[0][2]:.3g}, z_B = {stats_[1][2]:.3g}, pooled z = {z:.3g}, threshold z* = {z_star:.3g} "
             f"(level {ALPHA:g}" + (f" / {m} sampled tests" if m > 1 else "") +
             f", {'two' if two_sided else 'one'}-sided); median of {BLOCKS} block means {mom:.4g} (bound "
             f"{mom_bound:.2g}); sample kurtosis {kurt[0]:.3g} / {kurt[1]:.3g}" + (f"; {note}" if note else ""))
    details = dict(monte_carlo=facts, samples=n, streams=2, seeds=list(seeds), standard_error=se, z=z,
                   z_threshold=z_star, kurtosis=kurt, median_of_means=mom, mom_bound=mom_bound)
    bad = _violating_side(op)  # +1: lhs − rhs > 0 violates, -1: < 0 violates, 0: either (==)
    rejects = [(_rejects(zz, z_star, bad)) for _, _, zz, _ in stats_]
    same_side = bad != 0 or np.sign(stats_[0][2]) == np.sign(stats_[1][2])
    mom_rejects = (mom > mom_bound if bad > 0 else mom < -mom_bound if bad < 0 else abs(mom) > mom_bound)
    tails = (f"tails too heavy for the normal approximation of a mean (sample kurtosis {max(kurt):.3g} > "
             f"n/{KURTOSIS_RATIO} = {n / KURTOSIS_RATIO:.0f}, or the streams' kurtoses {kurt[0]:.3g} and {kurt[1]:.3g} "
             f"differ by more than a factor {KURTOSIS_AGREEMENT:g})")
    if all(rejects) and same_side and mom_rejects:
        if not tails_ok:
            return inconclusive(method, f"both streams reject, but the {tails}: no refutation from sampling; "
                                f"{facts}", **details)
        rel = {"==": "≠", "<=": "≰", ">=": "≱", "<": "≮", ">": "≯"}[op]
        return refuted(method + ", replicated", f"lhs ≈ {lhs_v:.6g} {rel} rhs ≈ {rhs_v:.6g}: both independent "
                       f"streams and the median of means reject; {facts}",
                       {"lhs": lhs_v, "rhs": rhs_v, "difference": mean, "standard_error": se, "z_A": stats_[0][2],
                        "z_B": stats_[1][2], "z_threshold": z_star, "n": n}, **details)
    if any(rejects) or _rejects(z, z_star, bad):
        why = ("the median of means stays within its bound" if all(rejects) and same_side else
               "the independent replication does not reject")
        return inconclusive(method, f"a sampled difference, but {why}: no refutation from sampling alone; {facts}",
                            **details)
    if not tails_ok:
        return inconclusive(method, f"no rejection, but the {tails}: no evidence either way; {facts}", **details)
    if two_sided:
        if half > resolution:
            need = int(math.ceil(2 * n * (half / resolution) ** 2))
            return inconclusive(method, f"too few samples to resolve lhs − rhs to ±{resolution:.3g} (half-width "
                                f"{half:.3g}; about {need} samples would); {facts}", samples_needed=need, **details)
        return holds(method, f"lhs − rhs = {mean:.3g} ± {half:.2g} (no rejection; Monte Carlo, no proof); {facts}",
                     **details)
    limit = mean + half if bad > 0 else mean - half
    if (limit < 0 if bad > 0 else limit > 0):
        return holds(method, f"lhs − rhs ≈ {mean:.4g}, its one-sided confidence limit {limit:.4g} is on the right "
                     f"side of 0 (Monte Carlo, no proof); {facts}", **details)
    return inconclusive(method, f"at the edge: lhs − rhs ≈ {mean:.4g} is within {half:.2g} of 0, which sampling "
                        f"cannot decide; {facts}", **details)


def pooled_means(streams) -> np.ndarray:
    """The mean of each sampled expectation over both streams (columns 1.. of the samples)."""
    return np.concatenate(streams)[:, 1:].mean(axis=0)


def _z(mean: float, se: float, extra: float) -> float:
    """The z statistic of a mean, after the known numeric error is granted in the claim's favour."""
    shrunk = math.copysign(max(0.0, abs(mean) - extra), mean)
    if se > 0:
        return shrunk / se
    return 0.0 if shrunk == 0 else math.copysign(math.inf, shrunk)


def _violating_side(op: str) -> int:
    return {"==": 0, "<=": 1, "<": 1, ">=": -1, ">": -1}[op]


def _rejects(z: float, z_star: float, side: int) -> bool:
    return z > z_star if side > 0 else z < -z_star if side < 0 else abs(z) > z_star
