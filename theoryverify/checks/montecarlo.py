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
- ``refuted``: some component is rejected at the stated level *and* the rejection survives
  :data:`REPLICATION_RULE` (an independent replication batch from a second seed stream rejects it too; for a
  heavy-tailed sample, excess kurtosis above :data:`HEAVY_TAIL_KURTOSIS`, the median-of-means bound must also
  exclude the claimed value); a rejection that does not replicate is ``inconclusive``, saying so. The
  counterexample names the component, the
  estimate, the interval that excludes the claimed value, the statistic (t, or the count) and the adjusted
  p-value, with the test and the sample size;
- ``holds``: no rejection *and* every interval is narrower than the stated ``resolution`` (an absence of
  rejection from too few samples is no evidence);
- ``inconclusive``: no rejection but an interval wider than the resolution ("too few samples to resolve …",
  with the sample size that would);
- ``error``: the sampler broke (wrong shape, non-finite values, an exception).

Every mean verdict states its tail diagnostic (``details["tail_diagnostic"]``: the sample excess kurtosis).
Several settings of one claim share one multiplicity correction through :func:`check_mc_means`.

Deterministic given the seed: the sampler receives a ``numpy.random.Generator`` made from it (the replication
batch one made from :func:`replication_seed`).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import sympy as sp
from scipy import stats

from ..evidence_types import CouldHaveFailed, Sampling, attach
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


def draw_samples(sample_fn: Sampler, seed: int | np.random.SeedSequence, n: int, batch: int | None, what: str) -> np.ndarray:
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
    if callable(value):
        raise ValueError(f"the {what} must be numbers, got a function ({getattr(value, '__name__', 'a callable')}): "
                         "call it, or give it to an _over check as a function of the setting")
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


def _names(names: Sequence[str] | None, k: int, default: str | None = None) -> list[str]:
    """The components' names: ``names``, else ``default`` (``default[i]``), else "sample mean" for one component
    and "column i" (the sampler's column, from 0) for several — no identifier, so never one of the paper's symbols
    (a default "X" read as the design matrix in a regression paper)."""
    if names is None:
        if default is None:
            return ["sample mean"] if k == 1 else [f"column {i}" for i in range(k)]
        return [default] if k == 1 else [f"{default}[{i}]" for i in range(k)]
    names = [str(s) for s in names]
    if len(names) != k:
        raise ValueError(f"{len(names)} names for {k} components")
    return names


def _confidence(confidence: float) -> float:
    if not 0.5 <= confidence < 1.0:
        raise ValueError(f"confidence must be in [0.5, 1), got {confidence}")
    return 1.0 - confidence


def _number_or_refuse(value: Any, what: str, hint: str) -> None:
    """A one-line error where a function (or text) is given for a number (a raw ``float()`` TypeError before)."""
    if callable(value) or isinstance(value, str):
        kind = "a function" if callable(value) else "text"
        raise ValueError(f"{what} must be a number (or one per component), got {kind}{hint}")


def _resolution(resolution: Any, expected: np.ndarray, default_rel: float, relative: float | None = None) \
        -> np.ndarray:
    """Each component's resolution: ``resolution`` (absolute), else ``relative``·|expected| (a component whose
    expected value is 0 then needs an absolute one), else ``default_rel``·max(1, |expected|)."""
    if relative is not None:
        _number_or_refuse(relative, "relative", "")
        if not float(relative) > 0:
            raise ValueError(f"relative must be positive, got {relative!r}")
        if resolution is None:
            if np.any(expected == 0):
                raise ValueError("relative resolution of an expected value 0: give resolution= (absolute) too")
            return float(relative) * np.abs(expected)
        _number_or_refuse(resolution, "resolution", "")
        r = np.asarray(resolution, dtype=float).reshape(-1)
        return np.maximum(float(relative) * np.abs(expected), np.full(expected.size, r[0]) if r.size == 1 else r)
    if resolution is None:
        return default_rel * np.maximum(1.0, np.abs(expected))
    _number_or_refuse(resolution, "resolution", " (check_mc_means_over calls a function of the setting: "
                      "resolution=lambda p: ...; check_mc_means takes a dict setting -> value; or relative=0.05)")
    r = np.asarray(resolution, dtype=float).reshape(-1)
    r = np.full(expected.size, r[0]) if r.size == 1 else r
    if r.size != expected.size or not np.all(r > 0):
        raise ValueError("resolution must be positive (one value, or one per component)")
    return r


def _fmt_level(level: float) -> str:
    """A simultaneous interval level (1 − α/k) with enough digits that it never prints as 1: 0.999 stays 0.999,
    1 − 0.001/30 prints 0.9999667, not 1."""
    gap = 1.0 - float(level)
    digits = 4 if gap <= 0 else max(4, math.ceil(-math.log10(gap)) + 2)
    return f"{level:.{digits}g}"


def _fmt_interval(lo: float, hi: float) -> str:
    return f"[{lo:.6g}, {hi:.6g}]"


#: excess kurtosis above which a sample counts as heavy-tailed: a refutation then also needs the median-of-means
#: bound (a Gaussian has 0, an exponential 6, a χ²(1) 12; the issue's per-prompt gradients ≈ 440).
HEAVY_TAIL_KURTOSIS = 10.0

REPLICATION_RULE = ("A sampling refutation stands only if an independent replication batch (the same n, drawn from "
                    "a second seed stream derived deterministically from the first) rejects the same component in "
                    "the same direction at the same corrected level; and, where the sample is heavy-tailed (excess "
                    "kurtosis > {kurt:g}), only if the median-of-means estimate of both batches, with its own "
                    "distribution-free bound |MoM − μ| ≤ σ·√(32·ln(1/δ)/N) at δ = α/k, also excludes the claimed "
                    "value. Otherwise: inconclusive, with the reason.").format(kurt=HEAVY_TAIL_KURTOSIS)


def replication_seed(seed: int, setting: int = 0) -> np.random.SeedSequence:
    """The replication stream of ``seed``: a spawned child of its seed sequence (statistically independent of
    ``default_rng(seed)``, and the same on every run)."""
    return np.random.SeedSequence(int(seed), spawn_key=(int(setting), 1))


def setting_seed(seed: int, setting: int) -> np.random.SeedSequence:
    """The primary stream of setting ``setting`` of a family drawn by :func:`check_mc_means`."""
    return np.random.SeedSequence(int(seed), spawn_key=(int(setting), 0))


def _stream_label(s: Any) -> Any:
    if isinstance(s, np.random.SeedSequence):
        return {"entropy": int(s.entropy), "spawn_key": list(s.spawn_key)}
    return s


def excess_kurtosis(x: np.ndarray) -> np.ndarray:
    """Sample excess kurtosis per column (0 for a Gaussian; 0 for a constant column)."""
    d = x - x.mean(axis=0)
    m2 = np.mean(d ** 2, axis=0)
    m4 = np.mean(d ** 4, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        k = np.where(m2 > 0, m4 / np.where(m2 > 0, m2, 1.0) ** 2 - 3.0, 0.0)
    return k


def median_of_means(x: np.ndarray, delta: float) -> tuple[float, float, int]:
    """(median-of-means estimate, its bound, blocks) for one column ``x``: K = ⌈8·ln(1/δ)⌉ consecutive blocks;
    with probability ≥ 1 − δ, |MoM − μ| ≤ σ·√(32·ln(1/δ)/N) (Lugosi–Mendelson), σ estimated by the sample
    standard deviation of all N values.  The bound needs only a finite variance, not light tails."""
    n = x.size
    blocks = max(1, min(n, int(math.ceil(8.0 * math.log(1.0 / delta)))))
    means = [float(np.mean(b)) for b in np.array_split(x, blocks)]
    sd = float(np.std(x, ddof=1)) if n > 1 else 0.0
    return float(np.median(means)), sd * math.sqrt(32.0 * math.log(1.0 / delta) / n), blocks


def _ttests(x: np.ndarray, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = x.shape[1]
    mean = x.mean(axis=0)
    se = x.std(axis=0, ddof=1) / math.sqrt(x.shape[0])
    t_stat, pvals = np.empty(k), np.empty(k)
    for i in range(k):
        if se[i] > 0:
            r = stats.ttest_1samp(x[:, i], mu[i])
            t_stat[i], pvals[i] = float(r.statistic), float(r.pvalue)
        else:  # a constant sample: its mean is exact (up to rounding)
            same = abs(mean[i] - mu[i]) <= 1e-12 * max(1.0, abs(mu[i]))
            t_stat[i], pvals[i] = (0.0, 1.0) if same else (math.copysign(math.inf, mean[i] - mu[i]), 0.0)
    return t_stat, pvals


def _mean_family(blocks: list[dict], confidence: float, correction: str, what: str) -> Verdict:
    """The t-tests of every component of every setting in ``blocks`` under one multiplicity correction, with the
    replication (and, for heavy tails, median-of-means) rule before any refutation.  A block: ``label`` (the
    setting, or None), ``x`` (primary samples), ``mu``, ``res``, ``names``, ``redraw`` (→ replication samples),
    ``stream``/``replication_stream`` (seed labels)."""
    alpha = 1.0 - confidence
    rows, xs, mus = [], [], []
    for b in blocks:
        t_stat, pvals = _ttests(b["x"], b["mu"])
        kurt = excess_kurtosis(b["x"])
        for i in range(b["x"].shape[1]):
            name = b["names"][i] if b["label"] is None else f"{b['label']}: {b['names'][i]}"
            rows.append({"name": name, "block": len(xs), "col": i, "t": float(t_stat[i]), "p": float(pvals[i]),
                         "kurtosis": float(kurt[i])})
        xs.append(b["x"])
        mus.append(b["mu"])
    k = len(rows)
    p_adj = adjust_pvalues([r["p"] for r in rows], correction)
    level = 1.0 - alpha / k  # simultaneous (Bonferroni) intervals
    out_rows = []
    for r, pa in zip(rows, p_adj):
        b, i = blocks[r["block"]], r["col"]
        x = b["x"][:, i]
        n = x.size
        mean = float(x.mean())
        half = float(stats.t.ppf(1.0 - alpha / (2 * k), n - 1) * x.std(ddof=1) / math.sqrt(n))
        out_rows.append({"name": r["name"], "mean": mean, "expected": float(b["mu"][i]),
                         "interval": [mean - half, mean + half], "half_width": half, "resolution": float(b["res"][i]),
                         "t": r["t"], "p": r["p"], "p_adjusted": float(pa), "rejected": bool(pa <= alpha),
                         "kurtosis": r["kurtosis"], "heavy_tailed": bool(r["kurtosis"] > HEAVY_TAIL_KURTOSIS)})
    n_all = sorted({b["x"].shape[0] for b in blocks})
    n = n_all[0] if len(n_all) == 1 else n_all
    settings = len(blocks)
    family = f"{k} components" + (f" of {settings} settings" if settings > 1 else "")
    test = (f"one-sample t-test (two-sided), {correction.capitalize()} correction over {family}"
            if k > 1 else "one-sample t-test (two-sided)")
    method = f"Monte Carlo: {test}, n = {n}, confidence {confidence:g}"
    tail = {"statistic": "sample excess kurtosis (0 for a Gaussian)", "threshold": HEAVY_TAIL_KURTOSIS,
            "max": max(r["kurtosis"] for r in out_rows),
            "heavy_tailed": [r["name"] for r in out_rows if r["heavy_tailed"]]}
    details = dict(test=test, n=n, confidence=confidence, interval_level=level, correction=correction,
                   components=out_rows, tail_diagnostic=tail, replication_rule=REPLICATION_RULE,
                   seed=_stream_label(blocks[0]["stream"]))
    if settings > 1:
        details["settings"] = [{"setting": b["label"], "stream": _stream_label(b["stream"]), "n": b["x"].shape[0]}
                               for b in blocks]
    tail_note = f"max excess kurtosis {tail['max']:.3g}"
    rejected = [j for j in range(k) if p_adj[j] <= alpha]
    if rejected:
        return _replicate(blocks, out_rows, rejected, p_adj, alpha, level, method, test, n, details, correction, what)
    wide = [j for j in range(k) if out_rows[j]["half_width"] > out_rows[j]["resolution"]]
    if wide:
        ratio = max((out_rows[j]["half_width"] / out_rows[j]["resolution"]) ** 2 for j in wide)
        need = int(math.ceil(max(n_all) * ratio))
        j = max(wide, key=lambda q: out_rows[q]["half_width"] / out_rows[q]["resolution"])
        r = out_rows[j]
        return inconclusive(method, f"too few samples to resolve E[{r['name']}] to ±{r['resolution']:.3g}: no "
                            f"rejection, but the {_fmt_level(level)} interval {_fmt_interval(*r['interval'])} has half-width "
                            f"{r['half_width']:.3g} (about {need} samples would resolve it)", samples_needed=need,
                            **details)
    worst = int(np.argmax([abs(r["t"]) for r in out_rows]))
    r0, rw = out_rows[0], out_rows[worst]
    summary = (f"E[{r0['name']}] = {r0['expected']:.6g}: sample mean {r0['mean']:.6g} ± {r0['half_width']:.3g}"
               if k == 1 else
               f"all {k} expectations agree; largest |t| = {abs(rw['t']):.3g} at {rw['name']} "
               f"(mean {rw['mean']:.6g}, claimed {rw['expected']:.6g}, ± {rw['half_width']:.3g})")
    v = holds(method, f"{summary} ({_fmt_level(level)} interval{'s' if k > 1 else ''}, half-width ≤ resolution; "
              f"no rejection at {alpha:g}; {test}, n = {n}; {tail_note})", **details)
    hw = max(r["half_width"] for r in out_rows)
    return attach(v, Sampling(n, test, correction, confidence, tail),
                  CouldHaveFailed("test power", f"a bias of about twice the largest interval half-width ({2 * hw:.3g}) "
                                                f"in any of the {k} expectations would be rejected (and replicated)"))


def _replicate(blocks, rows, rejected, p_adj, alpha, level, method, test, n, details, correction, what) -> Verdict:
    """The replication rule (:data:`REPLICATION_RULE`) for the components the primary batch rejected."""
    k = len(rows)
    reps, pooled = [], []
    try:
        for b in blocks:
            xr = b["redraw"]()
            if xr.shape != b["x"].shape:
                raise ValueError(f"the {what} returned shape {xr.shape} in the replication batch, not {b['x'].shape}")
            reps.append(xr)
            pooled.append(np.concatenate([b["x"], xr], axis=0))
    except ValueError as exc:
        return error("Monte Carlo mean", str(exc))
    rep_t, rep_p = [], []
    for b, xr in zip(blocks, reps):
        t, p = _ttests(xr, b["mu"])
        rep_t += list(t)
        rep_p += list(p)
    rep_adj = adjust_pvalues(rep_p, correction)
    delta = alpha / k
    survivors, reasons = [], []
    for j in sorted(rejected, key=lambda q: p_adj[q]):
        r = rows[j]
        blk = blocks[_block_of(blocks, j)]
        col = _col_of(blocks, j)
        same_side = math.copysign(1.0, rep_t[j]) == math.copysign(1.0, r["t"])
        rep = {"t": float(rep_t[j]), "p_adjusted": float(rep_adj[j]), "stream": _stream_label(blk["replication_stream"]),
               "rejected": bool(rep_adj[j] <= alpha and same_side)}
        r["replication"] = rep
        if not rep["rejected"]:
            reasons.append((j, f"the primary batch rejects E[{r['name']}] = {r['expected']:.6g} (t = {r['t']:.3g}, "
                            f"adjusted p = {p_adj[j]:.3g}) but an independent replication batch does not (t = "
                            f"{rep_t[j]:.3g}, adjusted p = {rep_adj[j]:.3g}{'' if same_side else ', other side'})"))
            continue
        if r["heavy_tailed"] or excess_kurtosis(reps[_block_of(blocks, j)][:, [col]])[0] > HEAVY_TAIL_KURTOSIS:
            mom, bound, nb = median_of_means(pooled[_block_of(blocks, j)][:, col], delta)
            r["median_of_means"] = {"estimate": mom, "bound": bound, "blocks": nb, "delta": delta,
                                    "n": int(pooled[_block_of(blocks, j)].shape[0])}
            if abs(mom - r["expected"]) <= bound:
                reasons.append((j, f"E[{r['name']}] is rejected by both batches, but the sample is heavy-tailed "
                                f"(excess kurtosis {r['kurtosis']:.3g} > {HEAVY_TAIL_KURTOSIS:g}) and the "
                                f"median-of-means estimate {mom:.6g} ± {bound:.3g} (its distribution-free bound at "
                                f"δ = {delta:.3g}) does not exclude {r['expected']:.6g}"))
                continue
        survivors.append(j)
    details["replication"] = {"rule": REPLICATION_RULE, "checked": [rows[j]["name"] for j in rejected],
                              "survived": [rows[j]["name"] for j in survivors]}
    if not survivors:
        j, why = reasons[0]
        return inconclusive(method, f"not refuted on sampling alone: {why}"
                            + (f" ({len(reasons)} rejected components, none replicated)" if len(reasons) > 1 else ""),
                            **details)
    j = survivors[0]
    r = rows[j]
    iv = _fmt_interval(*r["interval"])
    extra = (f"; median-of-means {r['median_of_means']['estimate']:.6g} ± {r['median_of_means']['bound']:.3g} "
             f"excludes it too" if "median_of_means" in r else "")
    ce = {"component": r["name"], "claimed": r["expected"], "sample_mean": r["mean"], "interval": r["interval"],
          "interval_level": level, "t": r["t"], "p_adjusted": float(p_adj[j]), "n": n, "test": test,
          "replication_t": r["replication"]["t"], "replication_p_adjusted": r["replication"]["p_adjusted"],
          "kurtosis": r["kurtosis"]}
    return refuted(method, f"E[{r['name']}] ≠ {r['expected']:.6g}: sample mean {r['mean']:.6g}, {_fmt_level(level)} interval "
                   f"{iv} excludes it (t = {r['t']:.3g}, adjusted p = {p_adj[j]:.3g} ≤ {alpha:g}; {test}, n = {n}); "
                   f"an independent replication batch agrees (t = {r['replication']['t']:.3g}, adjusted p = "
                   f"{r['replication']['p_adjusted']:.3g}){extra}; excess kurtosis {r['kurtosis']:.3g}", ce, **details)


def _block_of(blocks: list[dict], j: int) -> int:
    for q, b in enumerate(blocks):
        if j < b["x"].shape[1]:
            return q
        j -= b["x"].shape[1]
    raise IndexError(j)


def _col_of(blocks: list[dict], j: int) -> int:
    for b in blocks:
        if j < b["x"].shape[1]:
            return j
        j -= b["x"].shape[1]
    raise IndexError(j)


def check_mc_mean(sample_fn: Sampler, expected: Any, seed: int, *, n: int = 20_000, confidence: float = 0.99,
                  resolution: Any = None, correction: str = "holm", names: Sequence[str] | None = None,
                  batch: int | None = None) -> Verdict:
    """Decide "E[X] = expected" (X scalar or a vector of k quantities) from ``n`` samples.

    ``sample_fn(rng, n)`` returns ``n`` independent draws of X: shape (n,) or (n, k).  ``expected``: one value,
    or k values.  ``resolution``: the largest confidence-interval half-width that counts as resolving a
    component (absolute; one value or k; default 1% of max(1, |expected|)).  ``correction``: ``"holm"`` or
    ``"bonferroni"``.  A rejection is a refutation only under :data:`REPLICATION_RULE` (a second, independent
    batch from :func:`replication_seed`; median-of-means for heavy tails).  See the module docstring.

    Choosing ``n`` and ``resolution``: the check *holds* only when the interval's half-width, about
    z·σ/√n (z ≈ 2.6 at 99 %, more with several components), is below ``resolution`` — so the defaults (n =
    20 000, 1 % of max(1, |E|)) resolve only samples whose standard deviation σ is below about
    0.01·√20000/2.6 ≈ 0.5 times max(1, |E|); a quantity that fluctuates more than its mean does not.  Set ``resolution`` to the smallest error the claim must rule out
    (e.g. 5 % of |E| for "the printed constant is right"; a wrong coefficient off by a factor 2 needs far
    less), then ``n`` ≥ (z·σ/resolution)²; an *inconclusive* verdict says "about N samples would resolve it"
    — rerun with that ``n`` (from a pilot run's σ).  A heavy tail (excess kurtosis in ``details
    ["tail_diagnostic"]``) needs more.  For several settings of one claim use :func:`check_mc_means` (one
    multiplicity correction over all of them, and the settings recorded as configurations), not one
    ``check_mc_mean`` per setting.

    >>> import theoryverify as tv
    >>> two = lambda rng, m: rng.standard_normal(m) + 2.0                 # E = 2, σ = 1
    >>> tv.check_mc_mean(two, 2.0, seed=0).status.value                   # half-width 0.019 ≤ 1 % of 2
    'holds'
    >>> tv.check_mc_mean(two, 2.0, seed=0, n=2_000).evidence.split(":")[0]  # 0.058 > 0.02: says how many
    'too few samples to resolve E[sample mean] to ±0.02'
    >>> tv.check_mc_mean(two, 2.2, seed=0).status.value                   # a 10 % error is refuted
    'refuted'
    """
    return check_mc_means({None: (sample_fn, expected)}, seed, n=n, confidence=confidence, resolution=resolution,
                          correction=correction, names=names, batch=batch)


def check_mc_means(settings: Mapping[Any, tuple[Sampler, Any]] | Sequence[tuple[Sampler, Any]], seed: int, *,
                   n: int = 20_000, confidence: float = 0.99, resolution: Any = None, correction: str = "holm",
                   names: Sequence[str] | None = None, batch: int | None = None,
                   configurations: Sequence[Mapping[str, Any]] | None = None,
                   relative: float | None = None) -> Verdict:
    """Decide "E[X_s] = expected_s" for several settings s of one claim (``settings``: name → (sampler,
    expected)) under ONE multiplicity correction over every component of every setting, so that the chance of
    refuting a true claim is at most 1 − confidence however many settings it tries.  Setting number i draws
    from :func:`setting_seed` (seed, i); its replication batch from :func:`replication_seed` (seed, i).  (A single
    setting keyed None draws from ``default_rng(seed)``: :func:`check_mc_mean`.)  ``resolution`` and ``names``
    apply to every setting, or, given as a dict setting name → value, one per setting (settings of different
    sizes); choose ``n`` and ``resolution`` as :func:`check_mc_mean` says.  ``relative``: a resolution relative to
    each expected value (``relative=0.05``: 5 % of |E| at every setting, for means that span decades across the
    settings); with ``resolution`` too, the larger of the two.

    ``configurations``: the settings as parameter → value dicts (e.g. ``tv.settings(over, seed)`` of a claim
    with ``over=``), one per entry of ``settings`` in order — then ``settings`` may be a plain list of (sampler,
    expected) pairs, labelled by their configurations, and the configurations are recorded as typed evidence
    (:class:`~theoryverify.evidence_types.Configurations`), which the quantifier standard reads.

    >>> import theoryverify as tv
    >>> at = tv.settings([tv.Over("mu", 0.5, 4.0)], seed=0, n=3, draws=0)
    >>> pairs = [(lambda rng, m, c=c: rng.standard_normal(m) + c["mu"], c["mu"]) for c in at]
    >>> v = tv.check_mc_means(pairs, seed=0, configurations=at, resolution=0.05)
    >>> v.status.value, [c["mu"] for c in v.details["configurations"]]
    ('holds', [0.5, 4.0, 2.25])
    """
    if configurations is not None:
        configurations = [dict(c) for c in configurations]
        if not isinstance(settings, Mapping):
            settings = {", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in c.items()) or
                        f"setting {i}": pair for i, (c, pair) in enumerate(zip(configurations, settings))} \
                if len(configurations) == len(settings) else settings
        if len(configurations) != len(settings):
            return error("Monte Carlo mean", f"{len(configurations)} configurations for {len(settings)} settings")
        verdict = check_mc_means(settings, seed, n=n, confidence=confidence, resolution=resolution,
                                 correction=correction, names=names, batch=batch, relative=relative)
        if verdict.status.value == "error":
            return verdict
        from ..evidence_types import Configurations
        return attach(verdict, Configurations(tuple(configurations)))
    if not isinstance(settings, Mapping):
        settings = {f"setting {i}": pair for i, pair in enumerate(settings)}
    try:
        alpha = _confidence(confidence)
        if correction not in CORRECTIONS:
            raise ValueError(f"unknown correction {correction!r} (use one of {CORRECTIONS})")
        if int(n) < 2:
            raise ValueError("n must be at least 2")
        if not settings:
            raise ValueError("no settings to sample")
        blocks = []
        single = list(settings) == [None]
        for i, (label, spec) in enumerate(settings.items()):
            if not (isinstance(spec, tuple) and len(spec) == 2 and callable(spec[0])):
                raise ValueError(f"setting {label!r} must be a (sampler, expected value) pair")
            fn, expected = spec
            stream = seed if single else setting_seed(seed, i)
            rstream = replication_seed(seed, i)
            x = _draw(fn, stream, int(n), batch, "sampler")
            k = x.shape[1]
            mu = _vector(expected, k, "expected value")
            res_i = resolution.get(label) if isinstance(resolution, Mapping) else resolution
            names_i = names.get(label) if isinstance(names, Mapping) else names
            blocks.append({"label": None if single else str(label), "x": x, "mu": mu,
                           "res": _resolution(res_i, mu, 0.01, relative), "names": _names(names_i, k),
                           "stream": stream,
                           "replication_stream": rstream,
                           "redraw": (lambda fn=fn, rstream=rstream: _draw(fn, rstream, int(n), batch, "sampler"))})
    except ValueError as exc:
        return error("Monte Carlo mean", str(exc))
    del alpha
    return _mean_family(blocks, confidence, correction, "sampler")


def drawn_seed(seed: int, setting: int) -> np.random.SeedSequence:
    """The stream a setting of :func:`check_mc_means_over` draws its parameters from (independent of its
    sample and replication streams)."""
    return np.random.SeedSequence(int(seed), spawn_key=(int(setting), 2))


def _plain(value: Any) -> Any:
    """A drawn parameter as evidence records it (arrays as lists, numbers as floats or ints)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, sp.Basic):
        return float(value) if value.is_number else str(value)
    return value


def _draw_parameters(draw: Any, config: Mapping[str, Any], stream: np.random.SeedSequence) -> dict[str, Any]:
    """The parameters one setting draws: ``draw(config, rng)`` → a mapping; a Domain (or ``draw(config)`` → a
    Domain) → one seeded point of it, by name (:meth:`Domain.named`: vectors and matrices as arrays)."""
    import inspect
    import random

    from ..domains import Domain
    if draw is None:
        return {}
    if not isinstance(draw, Domain):
        try:
            required = [q for q in inspect.signature(draw).parameters.values()
                        if q.default is q.empty and q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            required = [None, None]
        if len(required) >= 2:
            got = draw(dict(config), np.random.default_rng(stream))
            if not isinstance(got, Mapping):
                raise ValueError("draw(config, rng) must return a mapping name -> value")
            return dict(got)
        draw = draw(dict(config))
        if not isinstance(draw, Domain):
            raise ValueError("draw must be a Domain, draw(config) -> Domain, or draw(config, rng) -> mapping")
    point = draw.rationals(random.Random(int(stream.generate_state(1)[0])))
    return draw.named({k: float(v) for k, v in point.items()})


def check_mc_means_over(over: Sequence[Any], sampler: Callable[..., Any], expected: Callable[[Mapping[str, Any]], Any],
                        seed: int, *, draw: Any = None, settings_n: int = 4, draws: int = 1, n: int = 20_000,
                        confidence: float = 0.99, resolution: Any = None, correction: str = "holm",
                        names: Sequence[str] | None = None, batch: int | None = None,
                        relative: float | None = None) -> Verdict:
    """Decide "E[X] = expected" at every setting of the declared ranges ``over`` in one call, under one
    multiplicity correction (:func:`check_mc_means`): the settings are ``tv.settings(over, seed, n=settings_n,
    draws=draws)``; each setting may draw further parameters (``draw``: ``draw(config, rng)`` → a mapping, e.g. a
    spectrum and a unit vector for dimension d; or a :class:`~theoryverify.domains.Domain`, or ``draw(config)`` →
    a Domain, of which one seeded point is drawn); then ``sampler(params, rng, m)`` returns m samples (m, k) and
    ``expected(params)`` the k claimed means, ``params`` being the setting and its drawn parameters together.
    The parameters each setting used are recorded whole in ``details["drawn"]`` (label → name → value) and the
    settings as typed configurations (the quantifier standard reads them); a refutation names its setting and
    what it drew.  ``resolution``: a number, or a function of the setting's parameters (``lambda p: 0.05 *
    risk(p)``); ``relative=0.05``: 5 % of each expected value at every setting (means spanning decades across
    the ranges).  The components are named ``names``, else "sample mean" ("column i" for several).

    >>> import numpy as np, theoryverify as tv
    >>> over = [tv.Over("d", 2, 4, integer=True)]
    >>> draw = lambda c, rng: {"lam": rng.uniform(0.5, 2.0, c["d"])}
    >>> sample = lambda p, rng, m: rng.standard_normal((m, p["d"])) ** 2 * p["lam"]
    >>> v = tv.check_mc_means_over(over, sample, lambda p: p["lam"], seed=0, draw=draw, resolution=0.1)
    >>> v.status.value, sorted(v.details["drawn"]), len(v.details["drawn"]["d=2"]["lam"])
    ('holds', ['d=2', 'd=3', 'd=4'], 2)
    >>> tv.check_mc_means_over(over, sample, lambda p: 2 * p["lam"], seed=0, draw=draw).status.value
    'refuted'
    """
    from ..ranges import settings as settings_of
    try:
        if not callable(expected):
            raise ValueError("expected must be a function of the setting's parameters (lambda p: ...), got "
                             f"{type(expected).__name__}")
        configs = settings_of(list(over), seed, n=settings_n, draws=draws)
        pairs, drawn, per_setting = [], {}, {}
        for i, config in enumerate(configs):
            params = {**config, **_draw_parameters(draw, config, drawn_seed(seed, i))}
            label = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in config.items()) \
                or f"setting {i}"
            drawn[label] = {k: _plain(v) for k, v in params.items() if k not in config}
            pairs.append((lambda rng, m, p=params: sampler(p, rng, m), expected(params)))
            if callable(resolution):
                per_setting[label] = resolution(params)
    except ValueError as exc:
        return error("Monte Carlo mean", str(exc))
    verdict = check_mc_means(pairs, seed, n=n, confidence=confidence, correction=correction, names=names,
                             resolution=per_setting if callable(resolution) else resolution, batch=batch,
                             configurations=configs, relative=relative)
    if verdict.status.value == "error":
        return verdict
    from dataclasses import replace
    details = {**verdict.details, "drawn": drawn}
    ce = verdict.counterexample
    if ce and isinstance(ce.get("component"), str):
        where = ce["component"].split(":", 1)[0]
        if where in drawn and drawn[where]:
            ce = {**ce, "drawn": drawn[where]}
    return replace(verdict, details=details, counterexample=ce)


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
    if rejected:  # the replication rule: an independent batch must reject the same event
        rstream = replication_seed(seed, 0)
        try:
            xr = _draw(event_fn, rstream, n, batch, "event function")
        except ValueError as exc:
            return error("Monte Carlo bound", str(exc))
        rcounts = xr.sum(axis=0).astype(int)
        rep_adj = adjust_pvalues([float(stats.binomtest(int(rcounts[i]), n, float(bound[i]), alternative=against)
                                        .pvalue) for i in range(k)], correction)
        for i in range(k):
            rows[i]["replication"] = {"count": int(rcounts[i]), "p_adjusted": float(rep_adj[i]),
                                      "stream": _stream_label(rstream), "rejected": bool(rep_adj[i] <= alpha)}
        details["replication"] = {"rule": REPLICATION_RULE, "checked": [labels[i] for i in rejected],
                                  "survived": [labels[i] for i in rejected if rep_adj[i] <= alpha]}
        kept = [i for i in rejected if rep_adj[i] <= alpha]
        if not kept:
            i = min(rejected, key=lambda j: p_adj[j])
            return inconclusive(method, f"not refuted on sampling alone: the primary batch rejects P({labels[i]}) "
                                f"{sym} {bound[i]:.6g} ({counts[i]} of {n} trials, adjusted p = {p_adj[i]:.3g}) but "
                                f"an independent replication batch does not ({rcounts[i]} of {n}, adjusted p = "
                                f"{rep_adj[i]:.3g})", **details)
        i = min(kept, key=lambda j: p_adj[j])
        iv = refute_ci[i]
        side = (f"lower limit {iv[0]:.6g} > {bound[i]:.6g}" if op == "<=" else
                f"upper limit {iv[1]:.6g} < {bound[i]:.6g}")
        return refuted(method, f"P({labels[i]}) {sym} {bound[i]:.6g} is false: {counts[i]} of {n} trials "
                       f"({counts[i] / n:.6g}); one-sided {_fmt_level(level)} Clopper–Pearson {side} (adjusted p = "
                       f"{p_adj[i]:.3g} ≤ {alpha:g}); an independent replication batch agrees ({rcounts[i]} of {n}, "
                       f"adjusted p = {rep_adj[i]:.3g})",
                       {"event": labels[i], "replication_count": int(rcounts[i]), "claimed": f"P {sym} {bound[i]:.6g}", "count": int(counts[i]), "n": n,
                        "estimate": counts[i] / n, "interval": iv, "interval_level": level,
                        "p_adjusted": float(p_adj[i]), "test": test}, **details)
    limit = [support_ci[i][1] if op == "<=" else support_ci[i][0] for i in range(k)]
    gap = [(limit[i] - bound[i]) if op == "<=" else (bound[i] - limit[i]) for i in range(k)]
    wide = [i for i in range(k) if gap[i] > res[i]]
    if wide:
        i = max(wide, key=lambda j: gap[j] / res[j])
        return inconclusive(method, f"too few samples to resolve P({labels[i]}) {sym} {bound[i]:.6g} to within "
                            f"{res[i]:.3g}: no rejection, but the one-sided {_fmt_level(level)} limit is {limit[i]:.6g} "
                            f"({counts[i]} of {n} trials)", **details)
    i = int(np.argmax([g / r for g, r in zip(gap, res)]))
    word = "upper" if op == "<=" else "lower"
    return attach(holds(method, f"P({labels[i]}) {sym} {bound[i]:.6g}: {counts[i]} of {n} trials, one-sided {_fmt_level(level)} "
                 f"{word} limit {limit[i]:.6g} (within resolution {res[i]:.3g} of the bound)"
                 + (f"; all {k} events, {test}" if k > 1 else f"; {test}"), **details),
                  Sampling(n, test, correction, confidence),
                  CouldHaveFailed("test power", f"a probability beyond the bound by more than the resolution "
                                                f"({float(np.max(res)):.3g}) would be rejected (and replicated)"))
