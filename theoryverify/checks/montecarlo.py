"""Monte-Carlo checks with a stated confidence: "E[X] = value" and "P(event) ≤ p".

A claim about an expectation or a probability that has no closed form to compare with is decided from
samples, by a statistical test at a stated confidence, never by eyeballing a sample mean:

- :func:`check_mc_mean` — one or several expectations at once.  Each component gets a two-sided
  one-sample t-test of H0: E[X_i] = expected_i (``scipy.stats.ttest_1samp``); the family of k tests is
  corrected for multiple comparisons (Holm by default, or Bonferroni) so that the chance of refuting a true
  statement is at most 1 − confidence overall.  The reported intervals are simultaneous (Bonferroni, level
  1 − α/k each).
- :func:`check_mc_bound` — "P(event) ≤ p" (or ≥ p) for one or several events: an exact one-sided binomial
  test per event (``scipy.stats.binomtest``) with its Clopper–Pearson interval, and the same correction.

Verdicts:
- ``refuted``: some component is rejected at the stated level; the counterexample names the component, the
  estimate, the interval that excludes the claimed value, the statistic (t, or the count) and the adjusted
  p-value, with the test and the sample size;
- ``holds``: no rejection *and* every interval is narrower than the stated ``resolution`` (an absence of
  rejection from too few samples is no evidence);
- ``inconclusive``: no rejection but an interval wider than the resolution ("too few samples to resolve …",
  with the sample size that would);
- ``error``: the sampler broke (wrong shape, non-finite values, an exception).

Deterministic given the seed: the sampler receives a ``numpy.random.Generator`` made from it.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np
import sympy as sp
from scipy import stats

from ..verdicts import Verdict, error, holds, inconclusive, refuted

Sampler = Callable[[np.random.Generator, int], Any]

CORRECTIONS = ("holm", "bonferroni")


def adjust_pvalues(pvalues: Sequence[float], method: str = "holm") -> np.ndarray:
    """Family-wise adjusted p-values (reject component i at level α iff adjusted_i ≤ α).

    ``holm``: step-down Holm–Bonferroni, adjusted p_(i) = max_{j ≤ i} min(1, (k − j + 1)·p_(j)) over the sorted
    p-values; ``bonferroni``: min(1, k·p_i).  Both control the family-wise error rate under any dependence
    between the components (a sample of a vector quantity has dependent coordinates)."""
    p = np.asarray(pvalues, dtype=float)
    k = p.size
    if method == "bonferroni":
        return np.minimum(1.0, k * p)
    if method != "holm":
        raise ValueError(f"unknown correction {method!r} (use one of {CORRECTIONS})")
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (k - np.arange(k)) * p[order])
    out = np.empty(k)
    out[order] = np.maximum.accumulate(scaled)
    return out


def draw_samples(sample_fn: Sampler, seed: int, n: int, batch: int | None, what: str) -> np.ndarray:
    """``n`` samples as an [n, k] float array (raises ValueError with a one-line reason); the sampler receives
    ``numpy.random.default_rng(seed)``.  Shared with the step checker's Monte-Carlo fallback
    (:mod:`theoryverify.check.sampling`)."""
    rng = np.random.default_rng(seed)
    sizes = [n] if not batch else [min(batch, n - i) for i in range(0, n, batch)]
    parts = []
    for m in sizes:
        try:
            out = sample_fn(rng, m)
        except Exception as exc:  # the sampler's own failure, reported in one line
            raise ValueError(f"the {what} raised {type(exc).__name__}: {exc}") from None
        try:
            a = np.asarray(out, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"the {what} must return numbers; got {type(out).__name__} {str(out)[:40]!r}") from None
        if a.ndim == 1:
            a = a[:, None]
        if a.ndim != 2 or a.shape[0] != m:
            raise ValueError(f"the {what} must return an array of shape (n,) or (n, k) for n = {m}; got shape "
                             f"{np.shape(out)}")
        if parts and a.shape[1] != parts[0].shape[1]:
            raise ValueError(f"the {what} returned a different number of components in different batches")
        parts.append(a)
    x = np.concatenate(parts, axis=0)
    bad = int(np.sum(~np.isfinite(x)))
    if bad:
        raise ValueError(f"the {what} returned {bad} non-finite values")
    return x


_draw = draw_samples


def _vector(value: Any, k: int, what: str) -> np.ndarray:
    """A claimed value (scalar, sequence, SymPy number) as k floats."""
    if isinstance(value, str):
        raise ValueError(f"the {what} is text ({value[:40]!r}); give a number")
    arr = np.asarray(value, dtype=object).reshape(-1)
    try:
        out = np.array([float(sp.N(v)) if isinstance(v, sp.Basic) else float(v) for v in arr], dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"the {what} must be numbers (got {value!r:.60})") from None
    if out.size == 1 and k > 1:
        out = np.full(k, out[0])
    if out.size != k:
        raise ValueError(f"the sampler gives {k} components but the {what} has {out.size}")
    if not np.all(np.isfinite(out)):
        raise ValueError(f"the {what} must be finite")
    return out


def _names(names: Sequence[str] | None, k: int, default: str = "X") -> list[str]:
    if names is None:
        return [default] if k == 1 else [f"{default}[{i}]" for i in range(k)]
    names = [str(s) for s in names]
    if len(names) != k:
        raise ValueError(f"{len(names)} names for {k} components")
    return names


def _confidence(confidence: float) -> float:
    if not 0.5 <= confidence < 1.0:
        raise ValueError(f"confidence must be in [0.5, 1), got {confidence}")
    return 1.0 - confidence


def _resolution(resolution: Any, expected: np.ndarray, default_rel: float) -> np.ndarray:
    if resolution is None:
        return default_rel * np.maximum(1.0, np.abs(expected))
    r = np.asarray(resolution, dtype=float).reshape(-1)
    r = np.full(expected.size, r[0]) if r.size == 1 else r
    if r.size != expected.size or not np.all(r > 0):
        raise ValueError("resolution must be positive (one value, or one per component)")
    return r


def _fmt_interval(lo: float, hi: float) -> str:
    return f"[{lo:.6g}, {hi:.6g}]"


def check_mc_mean(sample_fn: Sampler, expected: Any, seed: int, *, n: int = 20_000, confidence: float = 0.99,
                  resolution: Any = None, correction: str = "holm", names: Sequence[str] | None = None,
                  batch: int | None = None) -> Verdict:
    """Decide "E[X] = expected" (X scalar or a vector of k quantities) from ``n`` samples.

    ``sample_fn(rng, n)`` returns ``n`` independent draws of X: shape (n,) or (n, k).  ``expected``: one value,
    or k values.  ``resolution``: the largest confidence-interval half-width that counts as resolving a
    component (absolute; one value or k; default 1% of max(1, |expected|)).  ``correction``: ``"holm"`` or
    ``"bonferroni"``.  See the module docstring for the verdicts."""
    try:
        alpha = _confidence(confidence)
        if correction not in CORRECTIONS:
            raise ValueError(f"unknown correction {correction!r} (use one of {CORRECTIONS})")
        if int(n) < 2:
            raise ValueError("n must be at least 2")
        x = _draw(sample_fn, seed, int(n), batch, "sampler")
        k = x.shape[1]
        mu = _vector(expected, k, "expected value")
        res = _resolution(resolution, mu, 0.01)
        labels = _names(names, k)
    except ValueError as exc:
        return error("Monte Carlo mean", str(exc))
    n = x.shape[0]
    mean = x.mean(axis=0)
    sd = x.std(axis=0, ddof=1)
    se = sd / math.sqrt(n)
    t_stat = np.empty(k)
    pvals = np.empty(k)
    for i in range(k):
        if se[i] > 0:
            r = stats.ttest_1samp(x[:, i], mu[i])
            t_stat[i], pvals[i] = float(r.statistic), float(r.pvalue)
        else:  # a constant sample: its mean is exact (up to rounding)
            same = abs(mean[i] - mu[i]) <= 1e-12 * max(1.0, abs(mu[i]))
            t_stat[i], pvals[i] = (0.0, 1.0) if same else (math.copysign(math.inf, mean[i] - mu[i]), 0.0)
    p_adj = adjust_pvalues(pvals, correction)
    level = 1.0 - alpha / k  # simultaneous (Bonferroni) intervals
    half = stats.t.ppf(1.0 - alpha / (2 * k), n - 1) * se
    test = (f"one-sample t-test (two-sided), {correction.capitalize()} correction over {k} components"
            if k > 1 else "one-sample t-test (two-sided)")
    method = f"Monte Carlo: {test}, n = {n}, confidence {confidence:g}"
    rows = [{"name": labels[i], "mean": float(mean[i]), "expected": float(mu[i]),
             "interval": [float(mean[i] - half[i]), float(mean[i] + half[i])], "half_width": float(half[i]),
             "resolution": float(res[i]), "t": float(t_stat[i]), "p": float(pvals[i]),
             "p_adjusted": float(p_adj[i]), "rejected": bool(p_adj[i] <= alpha)} for i in range(k)]
    details = dict(test=test, n=n, confidence=confidence, interval_level=level, correction=correction,
                   components=rows, seed=seed)
    rejected = [i for i in range(k) if p_adj[i] <= alpha]
    if rejected:
        i = min(rejected, key=lambda j: p_adj[j])
        row = rows[i]
        iv = _fmt_interval(*row["interval"])
        return refuted(method, f"E[{labels[i]}] ≠ {mu[i]:.6g}: sample mean {mean[i]:.6g}, {level:.4g} interval {iv} "
                       f"excludes it (t = {t_stat[i]:.3g}, adjusted p = {p_adj[i]:.3g} ≤ {alpha:g}; {test}, n = {n})",
                       {"component": labels[i], "claimed": float(mu[i]), "sample_mean": float(mean[i]),
                        "interval": row["interval"], "interval_level": level, "t": float(t_stat[i]),
                        "p_adjusted": float(p_adj[i]), "n": n, "test": test}, **details)
    wide = [i for i in range(k) if half[i] > res[i]]
    if wide:
        need = int(math.ceil(n * max((half[i] / res[i]) ** 2 for i in wide)))
        i = max(wide, key=lambda j: half[j] / res[j])
        return inconclusive(method, f"too few samples to resolve E[{labels[i]}] to ±{res[i]:.3g}: no rejection, but "
                            f"the {level:.4g} interval {_fmt_interval(*rows[i]['interval'])} has half-width "
                            f"{half[i]:.3g} (about {need} samples would resolve it)", samples_needed=need, **details)
    worst = int(np.argmax(np.abs(t_stat)))
    summary = (f"E[{labels[0]}] = {mu[0]:.6g}: sample mean {mean[0]:.6g} ± {half[0]:.3g}" if k == 1 else
               f"all {k} expectations agree; largest |t| = {abs(t_stat[worst]):.3g} at {labels[worst]} "
               f"(mean {mean[worst]:.6g}, claimed {mu[worst]:.6g}, ± {half[worst]:.3g})")
    return holds(method, f"{summary} ({level:.4g} interval{'s' if k > 1 else ''}, half-width ≤ resolution; "
                 f"no rejection at {alpha:g}; {test}, n = {n})", **details)


def check_mc_bound(event_fn: Sampler, p: Any, seed: int, *, op: str = "<=", n: int = 20_000,
                   confidence: float = 0.99, resolution: Any = None, correction: str = "holm",
                   names: Sequence[str] | None = None, batch: int | None = None) -> Verdict:
    """Decide "P(event) ≤ p" (``op="<="``) or "P(event) ≥ p" (``op=">="``) from ``n`` independent trials.

    ``event_fn(rng, n)`` returns ``n`` booleans (shape (n,)) or n rows of k events (shape (n, k)); ``p``: one
    bound or k.  Each event gets an exact one-sided binomial test of H0: "the bound holds" with its
    Clopper–Pearson interval; the family is corrected (Holm or Bonferroni).  ``resolution``: how far beyond the
    bound the one-sided confidence limit may reach for the check to hold (default 10% of p for ``<=`` and of
    1 − p for ``>=``, or 1e-3 where that is 0; a bound on a rare event therefore needs many trials)."""
    try:
        alpha = _confidence(confidence)
        if op not in ("<=", ">="):
            raise ValueError(f"op must be '<=' or '>=', got {op!r}")
        if correction not in CORRECTIONS:
            raise ValueError(f"unknown correction {correction!r} (use one of {CORRECTIONS})")
        if int(n) < 1:
            raise ValueError("n must be at least 1")
        x = _draw(event_fn, seed, int(n), batch, "event function")
        if not np.all((x == 0) | (x == 1)):
            raise ValueError("the event function must return booleans (or 0/1)")
        k = x.shape[1]
        bound = _vector(p, k, "probability bound")
        if not np.all((bound >= 0) & (bound <= 1)):
            raise ValueError("a probability bound must lie in [0, 1]")
        if resolution is None:  # relative to the probability the bound leaves room for
            scale = bound if op == "<=" else 1.0 - bound
            res = np.where(scale > 0, 0.1 * scale, 1e-3)
        else:
            res = _resolution(resolution, bound, 0.0)
        labels = _names(names, k, "event")
    except ValueError as exc:
        return error("Monte Carlo bound", str(exc))
    sym = {"<=": "≤", ">=": "≥"}[op]
    n = x.shape[0]
    counts = x.sum(axis=0).astype(int)
    against = "greater" if op == "<=" else "less"  # the alternative that refutes the bound
    supports = "less" if op == "<=" else "greater"
    level = 1.0 - alpha / k
    pvals, refute_ci, support_ci = np.empty(k), [], []
    for i in range(k):
        c, b = int(counts[i]), float(bound[i])
        pvals[i] = float(stats.binomtest(c, n, b, alternative=against).pvalue)
        ci = stats.binomtest(c, n, b, alternative=against).proportion_ci(level, method="exact")
        refute_ci.append([float(ci.low), float(ci.high)])
        ci = stats.binomtest(c, n, b, alternative=supports).proportion_ci(level, method="exact")
        support_ci.append([float(ci.low), float(ci.high)])
    p_adj = adjust_pvalues(pvals, correction)
    test = (f"exact one-sided binomial test (Clopper–Pearson interval), {correction.capitalize()} correction over "
            f"{k} events" if k > 1 else "exact one-sided binomial test (Clopper–Pearson interval)")
    method = f"Monte Carlo: {test}, n = {n}, confidence {confidence:g}"
    rows = [{"name": labels[i], "count": int(counts[i]), "estimate": counts[i] / n, "bound": float(bound[i]),
             "op": op, "refuting_interval": refute_ci[i], "supporting_interval": support_ci[i],
             "p": float(pvals[i]), "p_adjusted": float(p_adj[i]), "rejected": bool(p_adj[i] <= alpha),
             "resolution": float(res[i])} for i in range(k)]
    details = dict(test=test, n=n, confidence=confidence, interval_level=level, correction=correction,
                   events=rows, seed=seed)
    rejected = [i for i in range(k) if p_adj[i] <= alpha]
    if rejected:
        i = min(rejected, key=lambda j: p_adj[j])
        iv = refute_ci[i]
        side = (f"lower limit {iv[0]:.6g} > {bound[i]:.6g}" if op == "<=" else
                f"upper limit {iv[1]:.6g} < {bound[i]:.6g}")
        return refuted(method, f"P({labels[i]}) {sym} {bound[i]:.6g} is false: {counts[i]} of {n} trials "
                       f"({counts[i] / n:.6g}); one-sided {level:.4g} Clopper–Pearson {side} (adjusted p = "
                       f"{p_adj[i]:.3g} ≤ {alpha:g})",
                       {"event": labels[i], "claimed": f"P {sym} {bound[i]:.6g}", "count": int(counts[i]), "n": n,
                        "estimate": counts[i] / n, "interval": iv, "interval_level": level,
                        "p_adjusted": float(p_adj[i]), "test": test}, **details)
    limit = [support_ci[i][1] if op == "<=" else support_ci[i][0] for i in range(k)]
    gap = [(limit[i] - bound[i]) if op == "<=" else (bound[i] - limit[i]) for i in range(k)]
    wide = [i for i in range(k) if gap[i] > res[i]]
    if wide:
        i = max(wide, key=lambda j: gap[j] / res[j])
        return inconclusive(method, f"too few samples to resolve P({labels[i]}) {sym} {bound[i]:.6g} to within "
                            f"{res[i]:.3g}: no rejection, but the one-sided {level:.4g} limit is {limit[i]:.6g} "
                            f"({counts[i]} of {n} trials)", **details)
    i = int(np.argmax([g / r for g, r in zip(gap, res)]))
    word = "upper" if op == "<=" else "lower"
    return holds(method, f"P({labels[i]}) {sym} {bound[i]:.6g}: {counts[i]} of {n} trials, one-sided {level:.4g} "
                 f"{word} limit {limit[i]:.6g} (within resolution {res[i]:.3g} of the bound)"
                 + (f"; all {k} events, {test}" if k > 1 else f"; {test}"), **details)
