"""Asymptotic rates by sweeps: fitted exponents with bootstrap confidence intervals.

A claim "y = Θ(x^p)" (as x → 0 or x → ∞) is never decided at one point (principle 4).  It is
decided from a sweep over a grid of x: a least-squares fit of log y = log C + b·log x, a bootstrap
confidence interval for b (``scipy.stats.bootstrap``), fits on the lower and upper halves of the
grid (sub-windows), the pairwise (local) slopes, and the ratio measured/predicted across the grid.

Laws other than a plain power law reduce to the same straight-line fit:

* ``law="power"``:  y ≈ C·x^b·log(1/x)^k — fit log(y / log(1/x)^k) against log x (``log_power=k``);
* ``law="exp"``:    y ≈ C·exp(b/x)        — fit log y against 1/x (e.g. a gap ≈ exp(−c/T): b = −c).

Bootstrap: with one value per grid point the (u, w) pairs are resampled together (paired
resampling over grid points).  With several seeds per grid point (``y`` of shape (points, seeds))
the grid is kept and the seeds are resampled within each point (stratified resampling) — unless the seeds agree
at every point, when that would give a zero-width CI however badly the points fit the line: the points are then
resampled as for one value per point (issue 29, item 7).  One seed per point never refutes (:data:`SEEDS_RULE`).
The fit uses the mean of log y over the seeds at each point.  The percentile interval of the bootstrap
distribution is used (degenerate resamples, with all x equal, are dropped).

:data:`RULE` is the single verdict rule, applied by :func:`verdict_from_fit`.  The evidence standards that
every rate verdict must also meet (a grid spanning at least a decade, ...) sit beside it in
:mod:`theoryverify.standards` and are applied by the engine to every claim's verdict; ``min_points`` below may
be raised, never lowered.

Sweeps record what the standards read: ``scale`` says how the grid values measure the swept quantity
("linear": the values themselves; "log": natural logs of it, e.g. a grid of log(1/σ); "log10"), and
``fixed`` the parameters held fixed along the sweep (checked against the statement's hypotheses).
"""
from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .evidence_types import CouldHaveFailed, Fit as FitRecord, Sweep as SweepRecord, attach
from .standards import require_min_points
from .verdicts import Status, Verdict, error, holds, inconclusive, plain, refuted

#: the one verdict rule for asymptotic-rate claims (rendered in every verdict's details).
RULE = ("HOLDS if the grid has >= {min_points} points, the fits on the lower and upper halves of the grid agree "
        "within the margin m, the {confidence:.0%} bootstrap CI of the fitted exponent lies inside [p - m, p + m] "
        "and the ratio measured/predicted has spread max/min <= {max_spread:g} (bounded above and away from 0); "
        "REFUTED if the grid has >= {min_points} points, the sub-window fits agree within m and the CI lies "
        "entirely outside [p - m, p + m] on a side the data can refute ({refutable}) (the counterexample is the "
        "fitted exponent, its CI, p and the grid); INCONCLUSIVE otherwise (too few points, sub-windows disagree = "
        "grid not asymptotic, CI straddles p +- m, the ratio spread exceeds the bound, or the CI is outside on a "
        "side the data cannot refute; a log law left inconclusive gets a second look at its log power, LOG_LAW_RULE).")

#: the second look a log law gets where the exponent fit leaves it undecided (:func:`_log_law_verdict`).
LOG_LAW_RULE = ("For a log law y ≈ C·x^p·log(1/x)^k (as x -> 0) whose exponent CI lies below p - m but whose "
                "sub-window exponents disagree (grid not asymptotic): fit the log power, log(y/x^p) = a + "
                "k·log log(1/x), with its {confidence:.0%} bootstrap CI and its fits on the two halves of the grid; "
                "REFUTED (the data grow faster than the printed law: another power or a higher log power) if the "
                "grid spans >= {min_decades:g} decade(s) of x with log(1/x) >= 1 and has >= 4 points, the CI and both "
                "half-grid log powers lie above k + m, the half nearer x = 0 is not nearer k than the other, and a "
                "quadratic fit shows no trend of the log power towards k at that confidence (the trend a "
                "pre-asymptotic correction would show); a log power below "
                "k is never refuted (a lower-order term, log N + c, reads as one on a finite grid); INCONCLUSIVE "
                "otherwise, as the exponent rule said.")

#: one-sided claims as x → 0 (all sweeps here send T, p_conf, … to 0): "omega" y = Ω(x^p) (y ≥ c·x^p, i.e. b ≤ p)
#: and "big_o" y = O(x^p) (b ≥ p); "theta" is both.
ONE_SIDED_RULE = ("For a one-sided claim as x -> 0 (Omega(x^p): b <= p; O(x^p): b >= p): HOLDS if the grid has >= "
                  "{min_points} points, the CI and both sub-window exponents lie on the claimed side of the margin "
                  "(b <= p + m for Omega, b >= p - m for O) and the ratio at the smallest x is within a factor "
                  "{max_spread:g} of the largest (Omega) / smallest (O) ratio on the grid; REFUTED if the sub-window "
                  "fits agree within m and the CI lies entirely on the wrong side (lo > p + m for Omega, hi < p - m "
                  "for O); INCONCLUSIVE otherwise.")
BOUNDS = ("theta", "omega", "big_o")
#: the names a statement writes for each bound, accepted for ``bound=`` (case-sensitive: O and o differ in print).
BOUND_ALIASES = {"Θ": "theta", "Theta": "theta", "Ω": "omega", "Omega": "omega", "O": "big_o", "big_O": "big_o"}


def bound_name(bound: str) -> str:
    """``bound`` as one of :data:`BOUNDS`: "O", "Omega", "Theta", "Ω", "Θ" (:data:`BOUND_ALIASES`) or the name
    itself; anything else a one-line ValueError listing what is accepted."""
    name = BOUND_ALIASES.get(bound, bound) if isinstance(bound, str) else bound
    if name not in BOUNDS:
        raise ValueError(f"bound must be one of {BOUNDS} or {tuple(BOUND_ALIASES)}, not {bound!r}")
    return name

#: which side of [p − m, p + m] a fitted CI may refute: measured values that are only lower estimates of a
#: supremum (a sampled max) can refute "sup = O(x^p)" as x → 0 (p < 0) by growing faster, i.e. a CI *below*
#: p − m, never by growing slower; a witness family (a lower bound) can establish Ω but refutes nothing.
REFUTABLE = {"both": "either side", "below": "below p - m only: the values are lower estimates of a supremum",
             "above": "above p + m only", "none": "no side: the values are a witness lower bound"}

LAWS = ("power", "exp")


@dataclass(frozen=True)
class Fit:
    """A straight-line fit w = a + b·u with its bootstrap CI (u, w: the law's coordinates)."""

    exponent: float  # b
    intercept: float  # a (log C)
    ci: tuple[float, float]
    confidence: float
    local_slopes: tuple[float, ...]
    subwindow: tuple[float, float]  # (b on the lower half of the grid, b on the upper half)
    residual_rms: float
    n_points: int
    n_seeds: int = 1
    law: str = "power"
    log_power: float = 0.0

    @property
    def prefactor(self) -> float:
        return math.exp(self.intercept)

    @property
    def subwindow_gap(self) -> float:
        return abs(self.subwindow[0] - self.subwindow[1])


def _slope(u: np.ndarray, w: np.ndarray, axis: int = -1) -> np.ndarray:
    """Least-squares slope of w on u along ``axis`` (nan where u is constant)."""
    um = np.mean(u, axis=axis, keepdims=True)
    wm = np.mean(w, axis=axis, keepdims=True)
    var = np.sum((u - um) ** 2, axis=axis)
    cov = np.sum((u - um) * (w - wm), axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(var > 0, cov / np.where(var > 0, var, 1.0), np.nan)


def _bootstrap(data, statistic, **kw):
    """scipy.stats.bootstrap, silent on degenerate (e.g. noise-free) bootstrap distributions."""
    with warnings.catch_warnings():
        from scipy import stats  # here, not at the top: scipy.stats costs 0.7 CPU-s in every process importing tv.scaling

        warnings.simplefilter("ignore", category=stats.DegenerateDataWarning)
        return stats.bootstrap(data, statistic, **kw)


def _two_stage(u: np.ndarray, w: np.ndarray, rng: np.random.Generator, n_resamples: int,
               statistic: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """The bootstrap distribution of ``statistic(u, per-point means)`` for (points, seeds) data ``w``, resampling
    both levels: grid points with replacement (paired with their u: the law's misfit between points), then the
    seeds within each drawn point (the seed-to-seed spread).  Resampling the seeds alone gave a zero-width CI for
    identical seeds however badly the points fit the line (issue 29, item 7), and resampling the points alone
    ignores the spread of the seeds."""
    k, s = w.shape
    points = rng.integers(0, k, size=(n_resamples, k))
    seeds = rng.integers(0, s, size=(n_resamples, k, s))
    means = w[points[..., None], seeds].mean(axis=-1)
    return np.asarray(statistic(u[points], means), dtype=float)


def _line(u: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    b = float(_slope(u, w))
    return b, float(np.mean(w) - b * np.mean(u))


def law_coordinates(x: Sequence[float], y, law: str = "power", log_power: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(u, w) with w = a + b·u for the law: power: (log x, log(y/log(1/x)^k)); exp: (1/x, log y).

    ``y`` may be (points,) or (points, seeds); w keeps its shape."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if law not in LAWS:
        raise ValueError(f"unknown law {law!r}; expected one of {LAWS}")
    if np.any(x <= 0) or np.any(~np.isfinite(y)) or np.any(y <= 0):
        raise ValueError("fits need x > 0 and finite y > 0 (fit |y| for negative quantities)")
    if law == "exp":
        return 1.0 / x, np.log(y)
    w = np.log(y)
    if log_power:
        if np.any(x >= 1):
            raise ValueError("log(1/x) factors need x < 1")
        w = w - log_power * np.log(np.log(1.0 / x)).reshape((-1,) + (1,) * (w.ndim - 1))
    return np.log(x), w


def fit_line(u: Sequence[float], w, seed: int, confidence: float = 0.95, n_resamples: int = 2000,
             law: str = "power", log_power: float = 0.0) -> Fit:
    """Fit w = a + b·u with a bootstrap CI for b (``w``: (points,) or (points, seeds))."""
    u = np.asarray(u, dtype=float)
    w = np.asarray(w, dtype=float)
    order = np.argsort(u)
    u, w = u[order], w[order]
    wbar = w.mean(axis=1) if w.ndim == 2 else w
    b, a = _line(u, wbar)
    k = len(u)
    rng = np.random.default_rng(seed)
    if w.ndim == 2 and w.shape[1] > 1 and np.ptp(w, axis=1).max() > 0:
        def stat(*rows, axis=-1):
            means = np.stack([np.mean(r, axis=axis) for r in rows], axis=-1)
            return _slope(np.broadcast_to(u, means.shape), means, axis=-1)
        res = _bootstrap(tuple(w), stat, vectorized=True, n_resamples=n_resamples,
                         confidence_level=confidence, method="percentile", random_state=rng)
        dist = np.asarray(res.bootstrap_distribution, dtype=float)
    else:  # one value per point, or seeds that agree at every point: the points are resampled (never a zero width)
        res = _bootstrap((u, wbar), _slope, paired=True, vectorized=True, n_resamples=n_resamples,
                              confidence_level=confidence, method="percentile", random_state=rng)
        dist = np.asarray(res.bootstrap_distribution, dtype=float)
    dist = dist[np.isfinite(dist)]
    alpha = (1.0 - confidence) / 2.0
    lo, hi = (np.quantile(dist, [alpha, 1.0 - alpha]) if dist.size else (np.nan, np.nan))
    half = (k + 1) // 2
    sub = (_line(u[:half], wbar[:half])[0], _line(u[k - half:], wbar[k - half:])[0]) if k >= 4 else (b, b)
    local = tuple(float(s) for s in np.diff(wbar) / np.diff(u))
    resid = wbar - (a + b * u)
    return Fit(exponent=b, intercept=a, ci=(float(min(lo, b)), float(max(hi, b))), confidence=confidence,
               local_slopes=local, subwindow=(float(sub[0]), float(sub[1])),
               residual_rms=float(np.sqrt(np.mean(resid ** 2))), n_points=k,
               n_seeds=int(w.shape[1]) if w.ndim == 2 else 1, law=law, log_power=log_power)


def fit_power_law(x: Sequence[float], y, seed: int, confidence: float = 0.95, n_resamples: int = 2000,
                  log_power: float = 0.0, law: str = "power") -> Fit:
    """y ≈ C·x^b (times log(1/x)^k with ``log_power=k``; or C·exp(b/x) with ``law="exp"``).

    ``y``: (points,) or (points, seeds).  The exponent b is the slope of the law's straight line."""
    u, w = law_coordinates(x, y, law, log_power)
    return fit_line(u, w, seed, confidence, n_resamples, law=law, log_power=log_power)


def reference(x: Sequence[float], exponent: float, law: str = "power", log_power: float = 0.0) -> np.ndarray:
    """The law with unit constant at x: x^p·log(1/x)^k or exp(p/x)."""
    x = np.asarray(x, dtype=float)
    if law == "exp":
        return np.exp(exponent / x)
    return x ** exponent * (np.log(1.0 / x) ** log_power if log_power else 1.0)


def compare_laws(x: Sequence[float], y: Sequence[float], laws: Mapping[str, Callable[[np.ndarray], np.ndarray]]
                 ) -> dict[str, float]:
    """RMS residual of log(y / g(x)) about its mean (best constant C) for each candidate law g.

    The smallest residual names the law that fits best, e.g. {"1/T": 1/x, "(1/T)log(1/T)": …}."""
    x = np.asarray(x, dtype=float)
    ly = np.log(np.asarray(y, dtype=float))
    out = {}
    for name, g in laws.items():
        r = ly - np.log(np.asarray(g(x), dtype=float))
        out[name] = float(np.sqrt(np.mean((r - r.mean()) ** 2)))
    return dict(sorted(out.items(), key=lambda kv: kv[1]))


def rule_text(min_points: int = 4, confidence: float = 0.95, max_spread: float = 4.0, refutable: str = "both") -> str:
    return RULE.format(min_points=min_points, confidence=confidence, max_spread=max_spread,
                       refutable=REFUTABLE[refutable])


#: a swept variable that is a simple function of one declared parameter: (pattern, its name's group, inverse map)
_UNDERLYING = (
    (r"1/(?P<n>[^\W\d]\w*)", lambda x: 1.0 / x),
    (r"(?P<n>[^\W\d]\w*)\^\(?-1\)?", lambda x: 1.0 / x),
    (r"1/(?:√(?P<n>[^\W\d]\w*)|sqrt\((?P<m>[^\W\d]\w*)\))", lambda x: 1.0 / x ** 2),
    (r"(?:√(?P<n>[^\W\d]\w*)|sqrt\((?P<m>[^\W\d]\w*)\))", lambda x: x ** 2),
    (r"(?:e\^(?P<n>[^\W\d]\w*)|exp\((?P<m>[^\W\d]\w*)\))", np.log),
    (r"(?:log|ln)\(1/(?P<n>[^\W\d]\w*)\)", lambda x: np.exp(-x)),
    (r"(?:log|ln)\((?P<n>[^\W\d]\w*)\)", np.exp),
)


def underlying(param: str, x) -> dict[str, list[float]]:
    """The declared parameter behind a swept variable that is a simple function of it ("1/N" → N = 1/x,
    "e^p" → p = log x, "log(1/T)" → T = e^(−x), "√m" → m = x², ...), with its value at each grid point; {} when
    ``param`` is a plain name or no simple function of one."""
    import re

    text = str(param).replace(" ", "")
    for pattern, inverse in _UNDERLYING:
        m = re.fullmatch(pattern, text)
        if m:
            with np.errstate(all="ignore"):
                vals = inverse(np.asarray(x, dtype=float))
            if np.all(np.isfinite(vals)):
                name = next(v for v in m.groupdict().values() if v)
                return {name: [float(f"{v:.12g}") for v in vals]}  # 1/0.001 → 1000, not 999.9999999999999
    return {}


def sweep_details(param: str, x, measured, predicted=None, ratio=None, ratio_of: str | None = None, *,
                  scale: str = "linear", fixed: Mapping | None = None,
                  declared: Mapping | None = None) -> dict:
    """The ``details["sweep"]`` record of a sweep (see the module docstring for ``scale`` and ``fixed``).

    ``declared``: the statement's parameters that vary along the sweep, name → their value at each grid point
    (e.g. ``{"N": Ns}`` for a fit in 1/N), so that hypotheses reading them can be checked whatever the fit
    variable.  A swept variable that is a simple function of one parameter (``param="1/N"``, ``"e^p"``,
    ``"log(1/T)"``, ...) records that parameter automatically (:func:`underlying`) — a log-named one
    (``"log(1/eps)"``) also with ``scale="log"``.

    >>> sweep_details("log(1/eps)", [2.302585092994046, 4.605170185988092], [1, 2], scale="log")["declared"]
    {'eps': [0.1, 0.01]}
    """
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}")
    out = {"param": param, "x": [float(t) for t in np.asarray(x, float)],
           "measured": np.asarray(measured, float).tolist(),
           "predicted": None if predicted is None else [float(t) for t in np.asarray(predicted, float)],
           "ratio": None if ratio is None else [float(t) for t in np.asarray(ratio, float)],
           "ratio_of": ratio_of}
    if scale != "linear":
        out["scale"] = scale
    if fixed:
        out["fixed"] = {str(k): v for k, v in dict(fixed).items()}
    along: dict[str, list] = {}
    text = str(param).replace(" ", "")
    # a grid named log(1/ε) or log(N) holds the logs themselves, whatever scale says (scale="log" is how the span
    # rule measures it): ε = e^(−x) is recorded as a declared swept parameter, as N is for a fit in 1/N
    if scale == "linear" or text.startswith(("log(", "ln(")):
        along.update({k: v for k, v in underlying(param, out["x"]).items() if k not in (fixed or {})})
    for name, vals in dict(declared or {}).items():
        vals = np.asarray(vals, dtype=object).reshape(-1).tolist()
        if len(vals) != len(out["x"]):
            raise ValueError(f"declared parameter {name!r} has {len(vals)} values for {len(out['x'])} grid points")
        along[str(name)] = vals
    if along:
        out["declared"] = along
    return out


SCALES = ("linear", "log", "log10")


#: a rate refutation from seeded data must survive the seed spread (issue 29, item 8; the Monte-Carlo checks'
#: replication rule in :mod:`theoryverify.checks.montecarlo` is the same principle).
SEEDS_RULE = ("Seeded data ((points, seeds) arrays): the bootstrap resamples the seeds within each grid point, so the "
              "CI of the exponent carries the seed-to-seed spread (seeds that agree at every point: the points are "
              "resampled, never a zero-width CI); with one seed per "
              "point that spread is unknown, so such a sweep never refutes (inconclusive, saying so) — give >= 2 seeds "
              "per point. A 1-D y is read as deterministic (no seed).")
SEEDS_RULE_SHORT = ("one seed per grid point: the seed-to-seed spread is unknown, so a refutation could rest on "
                    "sampling alone (give >= 2 seeds per point)")

#: how ``constant=`` declares the statement's constant (:func:`check_rate`): ``"printed"`` (tested here),
#: ``"hidden"`` (Θ/O/Ω hide it: only the exponent is tested), ``"elsewhere"`` (printed, but another part of the
#: same claim tests it, e.g. a bound check or a prefactor part: this fit tests the exponent only).
CONSTANTS = ("printed", "asymptotic", "hidden", "elsewhere")
#: the asymptotic end of the grid for ``constant="asymptotic"``: the limit is taken as x → ∞ or as x → 0
LIMITS = ("inf", "0")

#: the verdict's note for each undeclared/untested constant (issue 27, item 2: "when it hides one in Θ/O, the
#: verdict says so").
CONSTANT_NOTES = {
    "hidden": "constant hidden by Θ/O: only the exponent is tested",
    "elsewhere": "constant tested by another part of this claim: this fit tests only the exponent",
    None: "constant not tested (not declared printed (check_rate(..., constant='printed') tests it))",
}

ASYMPTOTIC_RULE = ("Asymptotic constant (constant='asymptotic', as x -> towards): a statement y ~ C·f(x) "
                   "(Θ with a printed constant, 'grows like') is a limit, so lower-order terms may keep the ratio "
                   "r = measured/predicted away from 1 on any finite grid. C is read on the half of the grid nearer "
                   "the limit (its geometric mean ratio, {confidence:.0%} bootstrap CI), and the trend of log r along "
                   "the grid is fitted (slope against log x, bootstrap CI). HOLDS if the near-half CI lies within a "
                   "factor (1 + {margin:g}) of 1 (as for 'printed'); REFUTED only if the near-half CI lies entirely "
                   "outside it and either the trend does not head towards 1 at that confidence (no significant move "
                   "of r towards 1 as x -> towards) or the trend cannot close the gap: on the near half the local "
                   "slopes g of log r (per unit log x towards the limit) all head towards 1, each significant, and "
                   "shrink geometrically, at least as fast as exp(-k·log x) with k > 0 their slowest observed decay, "
                   "so what is left to move beyond the point nearest the limit is at most max|g|/k; REFUTED when "
                   "that bound, {spare:g} times over, still leaves log r outside the band (a 2x constant with an "
                   "O(x) correction: r = 0.5·(1 + x/2)^-2 as x -> 0). The limit then excludes the printed constant; "
                   "INCONCLUSIVE otherwise (e.g. r still converging towards 1 as fast as its slopes say it can: a "
                   "transient, not a wrong constant).")

#: how many times over the trend's reach (max|g|/k) must fall short of the band for the decay bound to refute
TREND_SPARE = 3.0

CONSTANT_RULE = ("Printed constant (constant='printed': the constant holds at every grid point, as a closed form or "
                 "a non-asymptotic bound does; for y ~ C·f(x), a limit, use constant='asymptotic', ASYMPTOTIC_RULE): "
                 "the fitted coefficient C = geometric mean over the grid of "
                 "measured/predicted (the predicted values carry the printed constant or closed form), with its "
                 "{confidence:.0%} bootstrap CI over grid points, must lie within a factor (1 + {margin:g}) of 1 "
                 "(theta: CI inside [1/(1+m), 1+m]; big_o: CI upper limit <= 1+m; omega: CI lower limit >= 1/(1+m)); "
                 "a CI entirely on the wrong side refutes (a correct exponent with a wrong constant is a false "
                 "statement); otherwise inconclusive. constant='hidden' (Θ/O hide it), 'elsewhere' (another part of "
                 "the claim tests it) or not declared: this fit does not test the constant, and the verdict says "
                 "so.")


def constant_fit(ratio, seed: int, confidence: float = 0.95, n_resamples: int = 2000) -> tuple[float, float, float]:
    """(C, CI low, CI high) for the coefficient C of measured ≈ C·predicted from ``ratio`` = measured/predicted,
    (points,) or (points, seeds): C = exp(mean over points of the mean log ratio), CI by a paired bootstrap over
    grid points (percentile)."""
    r = np.abs(np.asarray(ratio, dtype=float))
    lr = np.mean(np.log(r), axis=1) if r.ndim == 2 else np.log(r)
    c = float(np.mean(lr))
    if lr.size < 2 or np.ptp(lr) == 0:
        return math.exp(c), math.exp(c), math.exp(c)
    else:
        res = _bootstrap((lr,), np.mean, vectorized=True, n_resamples=n_resamples, confidence_level=confidence,
                         method="percentile", random_state=np.random.default_rng(seed))
        dist = np.asarray(res.bootstrap_distribution, dtype=float)
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(dist, [alpha, 1.0 - alpha])
    return math.exp(c), math.exp(min(float(lo), c)), math.exp(max(float(hi), c))


def _constant_status(c: tuple[float, float, float], bound: str, m: float) -> str:
    """'holds' | 'refuted' | 'inconclusive' for the coefficient's CI against 1 within a factor (1 + m)."""
    _, lo, hi = c
    top, bottom = 1.0 + m, 1.0 / (1.0 + m)
    if bound == "big_o":
        return "holds" if hi <= top else "refuted" if lo > top else "inconclusive"
    if bound == "omega":
        return "holds" if lo >= bottom else "refuted" if hi < bottom else "inconclusive"
    return "holds" if bottom <= lo and hi <= top else "refuted" if hi < bottom or lo > top else "inconclusive"


def _constant_band(status: str, bound: str, m: float) -> str:
    """What the constant test asks of C's CI, and how it came out (said so a refuted constant never reads as a
    pass: "needs C in [0.9091, 1.1], 1 ± 0.1 as a factor: the CI lies outside")."""
    top, bottom = 1.0 + m, 1.0 / (1.0 + m)
    need = {"big_o": f"C ≤ {top:.4g}", "omega": f"C ≥ {bottom:.4g}"}.get(bound, f"C in [{bottom:.4g}, {top:.4g}]")
    outcome = {"holds": "the CI lies inside", "refuted": "the CI lies outside",
               "inconclusive": "the CI reaches across an end"}[status]
    return f"needs {need}, 1 ± {m:g} as a factor: {outcome}"


def _asymptotic_constant(v: Verdict, *, ratio, seed: int, confidence: float, margin: float, param: str, x,
                         towards: str | None) -> Verdict:
    """The exponent verdict ``v`` with :data:`ASYMPTOTIC_RULE` applied and recorded."""
    if towards not in LIMITS:
        return error(v.method, f"constant='asymptotic' needs towards='inf' or towards='0' (the end of the {param} "
                     f"grid where the limit is taken), got {towards!r}", **dict(v.details))
    x = np.asarray(x, dtype=float)
    r = np.abs(np.asarray(ratio, dtype=float))
    order = np.argsort(x) if towards == "inf" else np.argsort(-x)  # the limit's end last
    xs, rs = x[order], r[order]
    k = len(xs)
    near = slice(k - (k + 1) // 2, k)
    C, lo, hi = constant_fit(rs[near], seed + 7919, confidence)
    status = _constant_status((C, lo, hi), "theta", margin)
    lr = np.log(rs)
    trend = fit_line(np.log(xs), lr, seed + 15485863, confidence, 2000) if k >= 3 else None
    sign = 1.0 if towards == "inf" else -1.0  # d log r per step towards the limit = sign · slope in log x
    t_lo, t_hi = (sorted((sign * trend.ci[0], sign * trend.ci[1])) if trend else (-math.inf, math.inf))
    side = float(np.mean(lr[near] if lr.ndim == 1 else lr[near].mean(axis=1)))
    # towards 1: log r falls when above 0, rises when below; "significant" when the whole CI of the step says so
    heading = (t_hi < 0) if side > 0 else (t_lo > 0)
    reach = None
    if status == "refuted" and heading:
        reach = _trend_reach(xs, rs, towards, margin)
        status = "refuted" if reach is not None and reach["short"] else "inconclusive"
    rule = ASYMPTOTIC_RULE.format(confidence=confidence, margin=margin, spare=TREND_SPARE)
    arrow = "∞" if towards == "inf" else "0"
    record = {"tested": True, "declared": "asymptotic", "towards": towards, "coefficient": C, "ci": [lo, hi],
              "near_half": xs[near].tolist(), "trend": None if trend is None else
              {"slope": sign * trend.exponent, "ci": [t_lo, t_hi], "heading_to_1": bool(heading),
               "reach": reach},
              "margin": margin, "status": status, "rule": rule}
    details = {**dict(v.details), "fit": {**dict(v.details["fit"]), "constant": record}}
    trend_text = ("" if trend is None else f"; trend of log(measured/predicted) per unit log {param} towards "
                  f"{param} → {arrow}: {sign * trend.exponent:.3g} (CI [{t_lo:.3g}, {t_hi:.3g}])"
                  + (", heading towards 1" if heading else ", not heading towards 1")
                  + ("" if not (reach and reach["short"]) else
                     f", but too slowly to reach it: its local slopes shrink at least as exp(−{reach['decay']:.3g}"
                     f"·log {param}) from at most {reach['slope']:.3g}, so log(measured/predicted) can still move "
                     f"by at most {reach['bound']:.3g} beyond {param} = {reach['end']:.4g} (×{TREND_SPARE:g}: "
                     f"{TREND_SPARE * reach['bound']:.3g}), short of the {reach['gap']:.3g} it needs"))
    text = (f"asymptotic constant ({param} → {arrow}): C = measured/predicted on the near half "
            f"[{xs[near][0]:.4g}, {xs[near][-1]:.4g}] = {C:.4g} (CI [{lo:.4g}, {hi:.4g}]; "
            f"{_constant_band(_constant_status((C, lo, hi), 'theta', margin), 'theta', margin)})"
            f"{trend_text}")
    return _constant_verdict(v, status, (C, lo, hi), text, details, "asymptotic constant", "C (measured / printed), "
                             "near the limit", "the limit of measured/printed excludes the printed constant",
                             margin=margin, param=param, x=x, refute_inconclusive=True)  # y/predicted → 1 fails


def _trend_reach(xs, rs, towards: str, margin: float) -> dict | None:
    """How far the ratio's trend can still move log r beyond the grid's point nearest the limit, bounded by how
    fast its local slopes decay (:data:`ASYMPTOTIC_RULE`), or None when the slopes give no such bound (fewer than
    4 points, a slope not heading towards 1 or not significant against the seed spread, slopes not shrinking).

    ``xs``, ``rs``: the grid and |measured/predicted| ((points,) or (points, seeds)), ordered with the limit's
    end last.  ``short`` says whether the bound, :data:`TREND_SPARE` times over, leaves log r outside the band
    1 ± ``margin`` (as a factor).

    >>> lam = np.geomspace(1e-1, 1e-4, 6); r = 0.5 / (1 + lam / 2) ** 2   # 2x too large, O(lam) correction
    >>> reach = _trend_reach(lam, r, "0", 0.05); reach["short"], reach["bound"] < 0.01
    (True, True)
    >>> _trend_reach(lam, 1 / (1 + lam / 2) ** 2, "0", 0.05)["short"]     # already in the band
    False
    """
    xs = np.asarray(xs, dtype=float)
    lr = np.log(np.asarray(rs, dtype=float))
    if lr.ndim == 2:
        se = (np.std(lr, axis=1, ddof=1) / math.sqrt(lr.shape[1]) if lr.shape[1] > 1
              else np.full(lr.shape[0], np.inf))
        lr = lr.mean(axis=1)
    else:
        se = np.zeros(lr.shape)  # a 1-D y is read as deterministic (SEEDS_RULE)
    if len(xs) < 4 or np.any(xs <= 0) or not np.all(np.isfinite(lr)):
        return None
    t = np.log(xs) * (1.0 if towards == "inf" else -1.0)  # grows towards the limit
    dlr, dt = np.diff(lr), np.diff(t)
    g = dlr / dt
    n = max(2, (len(g) + 1) // 2)  # the slopes of the near half (at least two)
    g, tm, dl, noise = g[-n:], ((t[1:] + t[:-1]) / 2)[-n:], dlr[-n:], np.hypot(se[1:], se[:-1])[-n:]
    toward = -np.sign(lr[-1])  # the sign a step towards 1 has
    if toward == 0 or np.any(np.sign(g) != toward) or np.any(np.abs(dl) <= 3 * noise):
        return None
    decay = -np.diff(np.log(np.abs(g))) / np.diff(tm)
    if np.any(decay <= 0):
        return None
    k, top = float(decay.min()), float(np.abs(g).max())
    bound = top / k
    gap = abs(float(lr[-1])) - math.log1p(margin)
    return {"decay": k, "slope": top, "bound": bound, "end": float(xs[-1]), "gap": gap,
            "short": bool(gap > TREND_SPARE * bound)}


def _constant_verdict(v: Verdict, status: str, const, text: str, details: dict, name: str, coefficient: str,
                      refuted_lead: str, *, margin: float, param: str, x, refute_inconclusive: bool = False) -> Verdict:
    """The exponent verdict ``v`` once its constant came out ``status``: a refuted constant refutes a holding
    exponent (also an inconclusive one with ``refute_inconclusive``: a limit's constant is read on its own), an
    unresolved one leaves it inconclusive; otherwise the constant's text is added to the evidence."""
    C, lo, hi = const
    if status == "refuted" and (v.status is Status.HOLDS or refute_inconclusive and v.status is Status.INCONCLUSIVE):
        ce = {"fitted_coefficient": C, "coefficient": coefficient, "ci": [lo, hi], "predicted": 1.0,
              "margin": margin, "param": param, "grid": np.asarray(x, float).tolist()}
        return refuted(f"{v.method} + {name}", f"{refuted_lead}: {text}; {v.evidence}", ce, **details)
    if v.status is Status.HOLDS and status == "inconclusive":
        return inconclusive(f"{v.method} + {name}", f"exponent agrees, {name} not resolved: {text}; {v.evidence}",
                            **details)
    return replace(v, evidence=f"{v.evidence}; {text} [{status}]", details=details)


def _with_constant(v: Verdict, *, constant: str | None, predicted, ratio, seed: int, confidence: float,
                   margin: float, bound: str, param: str, x, towards: str | None = None) -> Verdict:
    """The exponent verdict ``v`` with the constant rule (:data:`CONSTANT_RULE`, :data:`ASYMPTOTIC_RULE`) applied
    and recorded."""
    if constant == "asymptotic":
        if predicted is None:
            return error(v.method, "constant='asymptotic' needs the predicted values with the printed constant "
                         "(predicted=...)", **dict(v.details))
        return _asymptotic_constant(v, ratio=ratio, seed=seed, confidence=confidence, margin=margin, param=param,
                                    x=x, towards=towards)
    if constant != "printed":
        why = {"hidden": "hidden in Θ/O by the statement",
               "elsewhere": "printed; tested by another part of this claim, not by this fit"}.get(
            constant, "not declared printed (check_rate(..., constant='printed') tests it)")
        note = CONSTANT_NOTES[constant]
        fit = {**dict(v.details["fit"]), "constant": {"tested": False, "declared": constant, "why": why}}
        return replace(v, evidence=f"{v.evidence}; {note}", details={**dict(v.details), "fit": fit})
    if predicted is None:
        return error(v.method, "constant='printed' needs the predicted values with the printed constant "
                     "(predicted=...)", **dict(v.details))
    c = _constant_status(const := constant_fit(ratio, seed + 7919, confidence), bound, margin)
    C, lo, hi = const
    rule = CONSTANT_RULE.format(confidence=confidence, margin=margin)
    record = {"tested": True, "declared": "printed", "coefficient": C, "ci": [lo, hi], "margin": margin,
              "bound": bound, "status": c, "rule": rule}
    details = {**dict(v.details), "fit": {**dict(v.details["fit"]), "constant": record}}
    text = (f"printed constant: C = measured/predicted = {C:.4g} (CI [{lo:.4g}, {hi:.4g}]; "
            f"{_constant_band(c, bound, margin)})")
    return _constant_verdict(v, c, const, text, details, "printed constant", "C (measured / printed)",
                             "the exponent agrees but the printed constant does not", margin=margin, param=param, x=x)


def verdict_from_fit(fit: Fit, x, y, predicted_exponent: float, margin: float, param: str = "x",
                     predicted=None, max_spread: float = 4.0, min_points: int = 4,
                     what: str = "y", extra: Mapping | None = None, refutable: str = "both",
                     bound: str = "theta", scale: str = "linear", fixed: Mapping | None = None,
                     constant: str | None = None, constant_margin: float = 0.1, seed: int = 0,
                     declared: Mapping | None = None, towards: str | None = None) -> Verdict:
    """Apply :data:`RULE` (``bound="theta"``) or :data:`ONE_SIDED_RULE` (``"omega"``, ``"big_o"``, as x → 0; or
    as printed, "Θ", "Ω", "O", "Theta", "Omega": :data:`BOUND_ALIASES`) to a
    fit of the sweep (x, y) (``refutable``: see :data:`REFUTABLE`), then :data:`CONSTANT_RULE` (``constant``:
    see :func:`check_rate`)."""
    if constant is not None and constant not in CONSTANTS:
        raise ValueError(f"constant must be one of {CONSTANTS} or None")
    bound = bound_name(bound)
    v = _exponent_verdict(fit, x, y, predicted_exponent, margin, param=param, predicted=predicted,
                          max_spread=max_spread, min_points=min_points, what=what, extra=extra, refutable=refutable,
                          bound=bound, scale=scale, fixed=fixed, declared=declared, seed=seed)
    if constant == "asymptotic" and v.status is Status.REFUTED and towards in LIMITS and bound == "theta":
        v = _exponent_in_transit(v, fit, predicted_exponent, towards)
    sweep = v.details["sweep"]
    ys = np.asarray(y, dtype=float)
    ratio = sweep["ratio"]
    v = _with_constant(v, constant=constant, predicted=predicted, ratio=ratio, seed=seed,
                       confidence=fit.confidence, margin=constant_margin, bound=bound, param=param, x=x,
                       towards=towards)
    if v.status is Status.REFUTED and ys.ndim == 2 and ys.shape[1] < 2:
        v = inconclusive(v.method, f"{SEEDS_RULE_SHORT}: {v.evidence}", **dict(v.details),
                         seeds_rule=SEEDS_RULE, would_refute=plain(v.counterexample))
    const = (v.details.get("fit") or {}).get("constant") or {}
    side = {"theta": f"outside [{predicted_exponent:g} − {margin:g}, {predicted_exponent:g} + {margin:g}]",
            "omega": f"above {predicted_exponent:g} + {margin:g}", "big_o": f"below {predicted_exponent:g} − {margin:g}"}
    return _typed(v, CouldHaveFailed("test power", f"a fitted exponent with its {fit.confidence:.0%} CI {side[bound]} "
                                     f"(refutable side: {refutable}) would refute"
                                     + ("; so would a printed constant off by more than a factor "
                                        f"{1 + constant_margin:g}" if const.get("tested") else
                                        "; the constant is not tested")))


def _exponent_in_transit(v: Verdict, fit: Fit, p: float, towards: str) -> Verdict:
    """A limit statement's exponent refutation made inconclusive when the half of the grid nearer the limit has an
    exponent nearer p than the other half: the local exponent is still moving towards p (a lower-order term, as
    in k ≈ ½√κ·(log(1/ε) + log k)), so the grid does not show the limit excludes p (:data:`ASYMPTOTIC_RULE`)."""
    upper_is_near = (towards == "inf") == (fit.law == "power")  # u = log x rises with x; u = 1/x falls
    near, far = (fit.subwindow[1], fit.subwindow[0]) if upper_is_near else (fit.subwindow[0], fit.subwindow[1])
    if abs(near - p) >= abs(far - p):
        return v
    return inconclusive(v.method, f"exponent still moving towards the printed {p:g} (half-grid exponents {far:.4g} far "
                        f"from the limit, {near:.4g} near it): a limit statement is not refuted by a transient: "
                        f"{v.evidence}", **dict(v.details), would_refute=plain(v.counterexample))


def _typed(v: Verdict, *more) -> Verdict:
    """``v`` with its sweep and fit attached as typed evidence (:mod:`theoryverify.evidence_types`)."""
    items = [SweepRecord.from_details(v.details["sweep"])] if "sweep" in v.details else []
    if v.details.get("fit"):
        items.append(FitRecord.from_details(v.details["fit"]))
    return attach(v, *items, *more)


def _exponent_verdict(fit: Fit, x, y, predicted_exponent: float, margin: float, param: str = "x",
                      predicted=None, max_spread: float = 4.0, min_points: int = 4,
                      what: str = "y", extra: Mapping | None = None, refutable: str = "both",
                      bound: str = "theta", scale: str = "linear", fixed: Mapping | None = None,
                      declared: Mapping | None = None, seed: int = 0) -> Verdict:
    require_min_points(min_points)
    bound = bound_name(bound)
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ybar = np.exp(np.mean(np.log(y), axis=1)) if y.ndim == 2 else y
    if predicted is not None:
        pred = np.asarray(predicted, dtype=float)
        ratio, ratio_of = ybar / pred, "measured / predicted"
    else:
        pred = None
        ratio = ybar / reference(x, predicted_exponent, fit.law, fit.log_power)
        ratio_of = "measured / law with unit constant"
    spread = float(np.max(np.abs(ratio)) / np.min(np.abs(ratio)))
    p, m = float(predicted_exponent), float(margin)
    lo, hi = fit.ci
    rule = (rule_text(min_points, fit.confidence, max_spread, refutable) if bound == "theta" else
            ONE_SIDED_RULE.format(min_points=min_points, max_spread=max_spread))
    law = {"power": f"{what} ≈ C·{power_text(param, 'b')}" + log_factor(param, fit.log_power),
           "exp": f"{what} ≈ C·exp(b/{grouped(param)})"}[fit.law]
    details = {
        "sweep": sweep_details(param, x, y, pred, ratio, ratio_of, scale=scale, fixed=fixed, declared=declared),
        "fit": {"exponent": fit.exponent, "ci": [lo, hi], "confidence": fit.confidence, "predicted_exponent": p,
                "margin": m, "local_slopes": list(fit.local_slopes), "subwindow": list(fit.subwindow),
                "rule": rule, "law": law, "family": fit.law, "prefactor": fit.prefactor,
                "residual_rms": fit.residual_rms, "n_points": fit.n_points, "n_seeds": fit.n_seeds,
                "ratio_spread": spread, "max_spread": max_spread, "bound": bound,
                **({"log_power": fit.log_power} if fit.log_power else {})},  # the figure draws the law's log factor
        **(dict(extra) if extra else {}),
    }
    method = f"sweep fit {law} over {fit.n_points} {param} values, bootstrap {fit.confidence:.0%} CI"
    summary = (f"b = {fit.exponent:.4g} (CI [{lo:.4g}, {hi:.4g}]; predicted {p:g} ± {m:g}); sub-windows "
               f"{fit.subwindow[0]:.4g} / {fit.subwindow[1]:.4g}; ratio spread {spread:.3g}")
    if fit.n_points < min_points or not np.isfinite([lo, hi]).all():
        return inconclusive(method, f"too few usable grid points ({fit.n_points} < {min_points}): " + summary, **details)
    if bound != "theta":
        return _one_sided(fit, bound, p, m, x, ratio, max_spread, method, summary, param, details)
    if fit.subwindow_gap > m:
        return _log_law_verdict(fit, x, y, method, summary, param, refutable, details, seed) or inconclusive(
            method, f"grid not asymptotic: sub-window exponents differ by {fit.subwindow_gap:.3g} > {m:g}; " + summary,
            **details)
    below, above = hi < p - m, lo > p + m
    if (below and refutable in ("both", "below")) or (above and refutable in ("both", "above")):
        ce = {"fitted_exponent": fit.exponent, "ci": [lo, hi], "predicted_exponent": p, "margin": m,
              "param": param, "grid": x.tolist()}
        return refuted(method, "CI excludes the predicted exponent: " + summary, ce, **details)
    if p - m <= lo and hi <= p + m and spread <= max_spread:
        return holds(method, summary, **details)
    why = ("CI outside the margin on a side these values cannot refute" if below or above
           else "ratio spread exceeds the bound" if spread > max_spread else "CI not inside the margin")
    return inconclusive(method, f"{why}: " + summary, **details)


def _log_law_verdict(fit: Fit, x: np.ndarray, y: np.ndarray, method: str, summary: str, param: str,
                     refutable: str, details: dict, seed: int) -> Verdict | None:
    """:data:`LOG_LAW_RULE`: a refutation of the log law ``fit`` that the exponent rule left as "grid not
    asymptotic", or None.

    Why a second look: in the exponent's coordinates a wrong log power is a slow drift of the local exponent
    towards p (log² N against log N: local exponent −1/log N), which the exponent rule cannot tell from a
    pre-asymptotic grid on any grid.  In the log power's coordinates a higher log power is a straight line of
    another slope and another power a slope running away from k, while a correct law with a lower-order term
    (log N − c, log N·(1 − c/√N)) runs towards k as x → 0 — so only a gap with no trend towards k refutes.  Only
    the faster side: a correct law with a positive lower-order term (log N + 5) reads as a *lower* log power on a
    finite grid (log^0.5 N on N = 10…10^4), with no visible trend.  Checked on 40,032 noise-free and 2,592 noisy
    true laws with such corrections (log N·(1 + a/log N), (1 + a/√N), (1 + a/N), (1 + a·log log N/log N), a from
    −0.9 to 20): none refuted by this rule but one at 30 % noise on a one-decade grid N = 3…30."""
    from .standards import STANDARDS

    if fit.law != "power" or not fit.log_power or fit.n_points < 4:
        return None
    if math.log10(float(np.max(x)) / float(np.min(x))) < STANDARDS.min_decades - 1e-9:
        return None
    if float(np.min(np.log(1.0 / x))) < 1.0:  # log(1/x) < 1: higher log powers are smaller there, not larger
        return None
    k, m = float(fit.log_power), float(details["fit"]["margin"])
    p = float(details["fit"]["predicted_exponent"])
    w = np.log(y) - p * np.log(x).reshape((-1,) + (1,) * (y.ndim - 1))
    lf = fit_line(np.log(np.log(1.0 / x)), w, seed + 104729, fit.confidence, 2000)
    lo, hi = lf.ci
    # fit_line sorts by u = log log(1/x): the upper half is the half nearer x = 0 (the asymptotic end)
    far, near = lf.subwindow[0], lf.subwindow[1]
    record = {"law": f"log(y/{power_text(param, f'{p:g}')}) ≈ a + k·log log({reciprocal(param)})", "log_power": lf.exponent, "ci": [lo, hi],
              "predicted_log_power": k, "margin": m, "subwindow": [far, near],
              "rule": LOG_LAW_RULE.format(confidence=fit.confidence, min_decades=STANDARDS.min_decades)}
    details = {**details, "fit": {**details["fit"], "log_power_fit": record}}
    # a log power above k grows faster as x -> 0: in the exponent's terms, an exponent below p (and vice versa)
    tol = 1e-9 * (1.0 + abs(k))  # rounding only
    exponent_below = fit.ci[1] < p - m  # the exponent's own CI excludes p on the matching side
    uu = np.log(np.log(1.0 / x))
    order = np.argsort(uu)
    wbar = (w.mean(axis=1) if w.ndim == 2 else w)[order]
    from scipy import stats

    z = float(stats.norm.ppf(0.5 + fit.confidence / 2.0))
    curv, se = _curvature(uu[order], wbar)
    # curv < 0: the local log power falls towards x = 0, towards k (for a log power above k), as a pre-asymptotic
    # correction would make it; refute only where the data do not show that trend at the confidence level
    above = exponent_below and lo > k + m and min(far, near) > k + m and curv + z * se >= -tol and near >= far - tol
    if not (above and refutable in ("both", "below")):
        return None
    text = (f"log power k = {lf.exponent:.4g} (CI [{lo:.4g}, {hi:.4g}]; printed {k:g} ± {m:g}); half-grid log powers "
            f"{far:.4g} (far from 0) / {near:.4g} (near 0), curvature {curv:.3g} ± {se:.2g}: no trend towards the "
            "printed law")
    ce = {"fitted_log_power": lf.exponent, "ci": [lo, hi], "predicted_log_power": k, "margin": m,
          "subwindow": [far, near], "param": param, "grid": x.tolist()}
    return refuted(method + "; log power fitted", f"the data follow another law than the printed log law: {text}; "
                   f"exponent fit: {summary}", ce, **details)


def _curvature(u: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """(c, its standard error) of the least-squares fit w = a + b·u + c·u² (ordinary least squares; se from the
    residuals, inf when no residual degree of freedom is left): the trend of the local slope along u."""
    V = np.vander(u - u.mean(), 3)  # columns u², u, 1 (centred: better conditioned)
    coef, *_ = np.linalg.lstsq(V, w, rcond=None)
    dof = len(u) - 3
    if dof <= 0:
        return float(coef[0]), math.inf
    s2 = float(np.sum((w - V @ coef) ** 2)) / dof
    return float(coef[0]), math.sqrt(s2 * float(np.linalg.inv(V.T @ V)[0, 0]))


def grouped(param: str) -> str:
    """``param`` as a base or a divisor: bracketed unless it is one name or number ("T" stays, "1/T" → "(1/T)"),
    so that ``(1/T)^b`` is not read as 1/(T^b)."""
    return param if re.fullmatch(r"[\w.′']+", param) else f"({param})"


def reciprocal(param: str) -> str:
    """1/x written for a sweep variable x: "T" → "1/T", "1/T" → "T" (not "1/1/T"), "1/(N+1)" → "N+1"."""
    m = re.fullmatch(r"\s*1\s*/\s*(.+?)\s*", param)
    if m:
        inner = m.group(1)
        return inner[1:-1] if inner.startswith("(") and inner.endswith(")") and "(" not in inner[1:-1] else inner
    return f"1/{grouped(param)}"


def power_text(param: str, exponent: str) -> str:
    """x^p written for a sweep variable x ("(1/T)^b" for x = 1/T)."""
    return f"{grouped(param)}^{exponent}"


def log_factor(param: str, log_power: float) -> str:
    """The law's log factor "·log(1/x)^k" ("·log(T)^1" for x = 1/T), or "" without one."""
    return f"·log({reciprocal(param)})^{log_power:g}" if log_power else ""


def _log_label(fit: Fit, param: str) -> str:
    return log_factor(param, fit.log_power)


def _one_sided(fit: Fit, bound: str, p: float, m: float, x: np.ndarray, ratio: np.ndarray, max_spread: float,
               method: str, summary: str, param: str, details: dict) -> Verdict:
    """:data:`ONE_SIDED_RULE` for Ω (b ≤ p) / O (b ≥ p) as x → 0."""
    lo, hi = fit.ci
    r = np.abs(ratio)
    r0 = float(r[int(np.argmin(x))])  # the ratio at the asymptotic end
    if bound == "omega":
        ok_side = hi <= p + m and max(fit.subwindow) <= p + m
        wrong = lo > p + m
        ratio_ok = r0 * max_spread >= float(np.max(r))
        label = f"Ω({power_text(param, f'{p:g}')}{_log_label(fit, param)})"
    else:
        ok_side = lo >= p - m and min(fit.subwindow) >= p - m
        wrong = hi < p - m
        ratio_ok = r0 <= float(np.min(r)) * max_spread
        label = f"O({power_text(param, f'{p:g}')}{_log_label(fit, param)})"
    summary = f"{label}: " + summary
    if wrong and fit.subwindow_gap <= m:
        ce = {"fitted_exponent": fit.exponent, "ci": [lo, hi], "predicted_exponent": p, "margin": m,
              "bound": bound, "param": param, "grid": x.tolist()}
        return refuted(method, "CI on the wrong side of the bound: " + summary, ce, **details)
    if ok_side and ratio_ok:
        return holds(method, summary, **details)
    why = ("ratio at the smallest x drifts beyond the factor" if ok_side else
           "CI or a sub-window exponent not on the claimed side")
    return inconclusive(method, f"{why}: " + summary, **details)


def printed_exponent(x: Sequence[float], predicted: Sequence[float], law: str = "power",
                     log_power: float = 0.0) -> tuple[float, float, float]:
    """The exponent of the printed law itself, read from its values at the grid: the least-squares slope of the
    law's straight line (:func:`law_coordinates`) through ``predicted``, and the smallest and largest local slope
    between neighbouring grid points (they differ when the printed law is not exactly of that form on the grid).

    >>> k = np.geomspace(10, 1000, 5)
    >>> [round(v, 3) for v in printed_exponent(1 / k, 3 * np.sqrt(k))]
    [-0.5, -0.5, -0.5]"""
    u, w = law_coordinates(x, predicted, law, log_power)
    order = np.argsort(u)
    u, w = u[order], np.asarray(w, dtype=float)[order]
    local = np.diff(w) / np.diff(u)
    return float(np.polyfit(u, w, 1)[0]), float(local.min()), float(local.max())


def check_rate(x: Sequence[float], y, predicted_exponent: "float | str", margin: float, seed: int,
               predicted: Sequence[float] | None = None, *, param: str = "x", law: str = "power",
               log_power: float = 0.0, max_spread: float = 4.0, confidence: float = 0.95,
               n_resamples: int = 2000, min_points: int = 4, what: str = "y",
               extra: Mapping | None = None, refutable: str = "both", bound: str = "theta",
               scale: str = "linear", fixed: Mapping | None = None, constant: str | None = None,
               constant_margin: float = 0.1, declared: Mapping | None = None,
               towards: str | None = None, offset: str | None = None) -> Verdict:
    """Decide "y = Θ(law with exponent p)" (or Ω / O with ``bound``, as x → 0) from a sweep by :data:`RULE`
    (:data:`ONE_SIDED_RULE`), and the statement's constant by :data:`CONSTANT_RULE`; with ``offset="unknown"``,
    "y = c0 + law" for an additive constant c0 the paper does not print (:data:`OFFSET_RULE`).

    The arguments, in order (the first six may be positional):

    - ``x``: the grid of the swept parameter (``tv.grid(over, n)``); ``y``: positive measured values, (points,)
      or (points, seeds);
    - ``predicted_exponent`` p: the printed exponent (``law="power"``: y ≈ C·x^p·log(1/x)^``log_power``;
      ``law="exp"``: y ≈ C·exp(p/x)), or ``"printed"``: read from ``predicted`` (:func:`printed_exponent`, the
      slope of the printed values on the law's straight line), so a printed law is tested as printed — a planted
      or mistyped display changes the exponent tested, not only the constant (inconclusive when the printed
      values' local exponent varies across the grid by more than ``margin``: pass the number then); ``margin`` m: how far the fitted exponent b may be from p — the verdict
      holds when b's CI lies inside [p − m, p + m] and is refuted when it lies entirely outside;
    - ``seed``: the bootstrap's seed (``ctx.seed``);
    - ``predicted``: the claimed values at x, with their constant (e.g. ``[tv.evaluate(display, c) for c in
      points]``); None takes the ratio against the law with constant 1.

    Keywords: ``param`` (x's name in the verdict), ``what`` (y's name); ``bound``: ``"theta"`` (default: both
    sides), ``"O"`` / ``"big_o"`` (an upper bound: b ≥ p − m, y grows no faster *as x → 0*), ``"Ω"`` / ``"omega"``
    (a lower bound: b ≤ p + m) — every one-sided rule is read as x → 0, so an upper bound as κ → ∞
    (y = O(κ^p)) is checked on x = 1/κ with exponent −p: ``check_rate(1 / kappa, y, -p, m, seed, bound="O")``;
    ``scale``: what the grid values measure (``"linear"``: the parameter itself; ``"log"`` / ``"log10"``: its
    logarithm, e.g. a grid of log(1/σ)) — the span rule reads it; ``fixed``: the parameters held fixed along the
    sweep, name → value (``{"epsilon": 1e-6, "eta*L": 1}``), recorded and checked against the statement's
    hypotheses; ``declared``: parameters that vary with x, name → their values; ``refutable``: which side of the
    margin the data can refute (:data:`REFUTABLE`); ``max_spread``, ``confidence``, ``n_resamples``,
    ``min_points``: the rule's thresholds; ``extra``: more details to record.
    ``constant``: ``"printed"`` when the constant holds at every grid point (a closed form, a non-asymptotic
    bound) — the coefficient C = geometric mean of measured/predicted over the whole grid is then tested with its CI
    against 1 within a factor 1 + ``constant_margin`` (a wrong constant refutes even when the exponent agrees);
    ``"asymptotic"`` when it is a limit (y ~ C·f(x), "grows like", Θ with a printed constant), with ``towards``
    = ``"inf"`` or ``"0"`` the end of the grid where the limit is taken: C is read on the half of the grid
    nearer the limit, and a refutation needs that C to exclude 1 *and* no significant trend of the ratio towards 1,
    or a trend whose local slopes shrink too fast to close the gap (:data:`ASYMPTOTIC_RULE`: a transient such as
    k ≈ ½√κ·(log(1/ε) + log k) is not a wrong constant; a 2x constant with an O(x) correction, ratio
    0.5·(1 + x/2)^-2 as x → 0, is); ``"hidden"`` when Θ/O hides it (the verdict says "constant
    hidden by Θ/O: only the exponent is tested"); ``"elsewhere"`` when the statement prints it but another part of
    the same claim tests it; ``None`` (the default, the behaviour before the rule) leaves it untested and says
    "constant not tested".  Every rate check of a paper's claim declares one (tests/test_rate_constant.py scans
    derivations/); the ratio-spread test of :data:`RULE` still applies.
    ``offset``: ``None`` (the default: y is the law itself) or ``"unknown"``: the statement holds up to an additive
    constant it does not print (loss(t) = C/t + c0 with C printed, c0 not) — the exponent and constant rules are
    then applied to the differences of y between neighbouring grid points, in which c0 cancels
    (:data:`OFFSET_RULE`); a power law (``law="power"``, no ``log_power``) and ``bound="theta"`` only.

    >>> import numpy as np
    >>> kappa = np.geomspace(10, 1e4, 6)
    >>> check_rate(kappa, 3 * kappa, 1.0, 0.05, 0, param="kappa", constant="hidden").status.value
    'holds'
    >>> check_rate(1 / kappa, 3 * np.sqrt(kappa), -1.0, 0.05, 0, param="1/kappa", bound="O",
    ...            constant="hidden").status.value  # sqrt(κ) = O(κ) as κ → ∞
    'holds'
    >>> t = np.geomspace(10, 1e4, 6)
    >>> loss = 2.0 / t + 0.37                      # C/t + c0: the paper prints C = 2, not c0
    >>> check_rate(t, loss, -1.0, 0.05, 0, 2.0 / t, param="t", constant="printed", offset="unknown").status.value
    'holds'
    >>> check_rate(t, loss, -1.0, 0.05, 0, 3.0 / t, param="t", constant="printed", offset="unknown").status.value
    'refuted'
    """
    if offset is not None:
        return _up_to_offset(x, y, predicted_exponent, margin, seed, predicted, offset=offset, param=param, law=law,
                             log_power=log_power, max_spread=max_spread, confidence=confidence,
                             n_resamples=n_resamples, min_points=min_points, what=what, extra=extra,
                             refutable=refutable, bound=bound, scale=scale, fixed=fixed, constant=constant,
                             constant_margin=constant_margin, declared=declared, towards=towards)
    if isinstance(predicted_exponent, str):
        if predicted_exponent != "printed":
            raise ValueError(f"check_rate: predicted_exponent is a number or 'printed', not {predicted_exponent!r}")
        if predicted is None:
            raise ValueError("check_rate: predicted_exponent='printed' reads the exponent from the printed values: "
                             "pass them as predicted=")
        slope, low, high = printed_exponent(x, predicted, law, log_power)
        if high - low > margin:
            return inconclusive("sweep fit", f"the printed {what}'s local exponent in {param} ranges from {low:.3g} "
                                f"to {high:.3g} on the grid, more than the margin {margin:g}: no single printed "
                                f"exponent to test (pass it as a number)", printed_exponent=[low, high])
        predicted_exponent = slope
        extra = {**dict(extra or {}), "exponent_from": f"the printed values (slope {slope:.4g})"}
    fit = fit_power_law(x, y, seed, confidence, n_resamples, log_power=log_power, law=law)
    return verdict_from_fit(fit, x, y, predicted_exponent, margin, param=param, predicted=predicted,
                            max_spread=max_spread, min_points=min_points, what=what, extra=extra,
                            refutable=refutable, bound=bound, scale=scale, fixed=fixed, constant=constant,
                            constant_margin=constant_margin, seed=seed, declared=declared, towards=towards)



#: ``offset="unknown"`` of :func:`check_rate`: a law that holds up to an additive constant the paper does not print.
OFFSET_RULE = ("Up to an additive constant (offset='unknown'): a statement y = c0 + C·x^p with C printed and c0 not "
               "is tested on the differences of y between neighbouring grid points (c0 cancels): Δy_i = y(x_(i+1)) − "
               "y(x_i) against the printed law's differences ΔP_i, each placed at the geometric mean of its two grid "
               "points (on a geometric grid Δy is again C'·x^p, with the same exponent p, and Δy/ΔP = measured C / "
               "printed C exactly). The exponent rule and the constant rule are then those of check_rate on "
               "(x_mid, ±Δy) with the printed ±ΔP, so a wrong printed C refutes and c0 is never tested. The grid "
               "needs one point more than min_points; differences of the other sign than the printed law's (a "
               "non-monotone measurement) leave the verdict inconclusive, saying so.")


def _up_to_offset(x, y, predicted_exponent, margin, seed, predicted, *, offset, param, law, log_power, bound,
                  min_points, what, extra, **rest) -> Verdict:
    """:data:`OFFSET_RULE`: :func:`check_rate` on the differences of neighbouring grid points."""
    if offset != "unknown":
        raise ValueError(f"check_rate: offset is None or 'unknown' (an additive constant the statement does not "
                         f"print), not {offset!r}")
    if law != "power" or log_power or bound_name(bound) != "theta":
        raise ValueError("check_rate: offset='unknown' is for a power law y = c0 + C·x^p (law='power', no log_power, "
                         "bound='theta'): differences of other laws are not the same law")
    if not isinstance(predicted_exponent, str) and float(predicted_exponent) == 0:
        raise ValueError("check_rate: offset='unknown' with exponent 0: a constant law plus a constant says nothing")
    if predicted is None and isinstance(predicted_exponent, str):
        raise ValueError("check_rate: predicted_exponent='printed' reads the exponent from the printed values: "
                         "pass them as predicted=")
    x = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    if x.ndim != 1 or ys.shape[0] != x.shape[0] or len(x) < 2:
        raise ValueError(f"check_rate: offset='unknown' needs a 1-D grid and y of shape (points,) or (points, seeds), "
                         f"got x {x.shape}, y {ys.shape}")
    order = np.argsort(x)
    x, ys = x[order], ys[order]
    mid = np.sqrt(x[:-1] * x[1:]) if np.all(x > 0) else (x[:-1] + x[1:]) / 2
    dy = np.diff(ys, axis=0)
    law_at = (np.asarray(predicted, dtype=float)[order] if predicted is not None
              else reference(x, float(predicted_exponent)))
    dp = np.diff(law_at)
    method = f"sweep fit of {what}'s differences (up to an additive constant) over {len(mid)} {param} midpoints"
    record = {"offset": "unknown", "rule": OFFSET_RULE, "x": x.tolist(), "measured": ys.tolist(),
              "predicted": law_at.tolist() if predicted is not None else None}
    if not (np.all(dp > 0) or np.all(dp < 0)):
        return inconclusive(method, f"the printed law is not monotone in {param} on the grid: its differences "
                            "change sign, so c0 cannot be cancelled by them", offset=record)
    sign = 1.0 if dp[0] > 0 else -1.0
    wrong = int(np.sum(sign * dy <= 0))
    if wrong:
        return inconclusive(method, f"{wrong} of the {dy.size} differences of the measured {what} have the other sign "
                            f"than the printed law's (or are 0): no rate of the differences to fit", offset=record)
    extra = {**dict(extra or {}), "offset": record}
    v = check_rate(mid, sign * dy, predicted_exponent, margin, seed,
                   sign * dp if predicted is not None else None, param=param, what=f"Δ{what}", extra=extra,
                   min_points=min_points, bound=bound, **rest)
    return replace(v, method=f"{v.method} (differences of neighbouring points: up to an additive constant)")


def check_rate_over(over: Any, measure: Callable[[Mapping[str, Any]], Any], predicted_exponent: "float | str",
                    margin: float, seed: int, predicted: Any = None, *, n: int = 6, fixed: Mapping | None = None,
                    held: Sequence[str] = (), shared: str | None = None, **options) -> Verdict:
    """:func:`check_rate` on a sweep built from the declared range ``over`` (one :class:`~theoryverify.Over`, the
    swept parameter): the grid is ``tv.grid(over, n)`` (ends included, spanning the declared decades on a log
    scale), each point is ``{over.name: x, **fixed}``, ``measure(point)`` is its measured value (or its values
    over seeds) and ``predicted`` the claimed values — a SymPy expression (a printed display's side, evaluated at
    each point by ``tv.evaluate``, so its symbols are named by the point), ``tv.printed(display).rhs`` (the same,
    the display built at each point), a function of the point, or None.
    ``shared``: the name of a :func:`theoryverify.shared_sweep` the points are computed in, so that every claim
    sweeping the same points with the same ``measure`` reuses them.  ``param`` defaults to the range's name and
    ``fixed`` is recorded as check_rate's ``fixed`` (the statement's hypotheses read it); every other keyword
    (``what``, ``constant``, ``law``, ``log_power``, ``bound``, …) goes to :func:`check_rate`, whose rules
    (exponent, constant, span) decide.
    ``held``: the names in ``fixed`` that the statement itself holds at that value (its setting prints it, or the
    claim is about the swept parameter alone at that value).  A printed law that reads a fixed name *not* in
    ``held`` is tested at one value of it only — a law 1/(2y) and a planted 1/(2y²) agree at y = 1 — so a pass
    is *inconclusive* and says which names to sweep or to name in ``held`` (a refutation stands: it is a
    counterexample at that value); the untested names are recorded as ``details["untested"]``.

    >>> import sympy as sp, theoryverify as tv
    >>> kappa, epsilon = sp.symbols("kappa epsilon", positive=True)
    >>> steps = lambda c: 0.5 * c["kappa"] * sp.log(1 / c["epsilon"])           # a simulated count (here exact)
    >>> K = tv.Over("kappa", 10, 1000, scale="log")
    >>> v = tv.check_rate_over(K, steps, "printed", 0.1, 0, kappa / 2 * sp.log(1 / epsilon), fixed={"epsilon": 1e-6},
    ...                        held=["epsilon"], constant="printed", what="steps")
    >>> v.status.value, v.details["sweep"]["fixed"], [round(x) for x in v.details["sweep"]["x"]]
    ('holds', {'epsilon': 1e-06}, [10, 25, 63, 158, 398, 1000])
    >>> v = tv.check_rate_over(K, steps, "printed", 0.1, 0, kappa / 2 * sp.log(1 / epsilon), fixed={"epsilon": 1e-6},
    ...                        constant="printed")                                       # ε's law never varied
    >>> v.status.value, v.details["untested"]
    ('inconclusive', {'epsilon': 1e-06})
    >>> tv.check_rate_over(K, steps, "printed", 0.1, 0, sp.sqrt(kappa) * sp.log(1 / epsilon),   # √κ: refuted
    ...                    fixed={"epsilon": 1e-6}, constant="printed").status.value
    'refuted'
    """
    import sympy as sp

    from .conditions import Over
    from .numeric import evaluate

    if not isinstance(over, Over):
        raise TypeError(f"check_rate_over: over is the swept parameter's tv.Over, not a {type(over).__name__}")
    fixed = dict(fixed or {})
    if over.name in fixed:
        raise ValueError(f"check_rate_over: {over.name} is both swept and fixed")
    from .ranges import grid
    points = [{over.name: x, **fixed} for x in grid(over, n)]
    if shared is not None:
        from .shared_sweeps import shared_sweep
        values = shared_sweep(measure, points, name=shared)
    else:
        values = [measure(dict(p)) for p in points]
    from .displays import Printed
    if predicted is None:
        claimed = None
    elif isinstance(predicted, Printed):  # tv.printed(display).rhs: the display at each point, evaluated there
        claimed = [evaluate(predicted(p), p) for p in points]
    elif isinstance(predicted, (sp.Basic, int, float)) or not callable(predicted):
        claimed = [evaluate(predicted, p) for p in points]
    else:
        claimed = [float(predicted(dict(p))) for p in points]
    options.setdefault("param", over.name)
    stray = sorted(set(held) - set(fixed))
    if stray:
        raise ValueError(f"check_rate_over: held names {', '.join(stray)}, which are not in fixed")
    verdict = check_rate([p[over.name] for p in points], np.asarray(values, dtype=float), predicted_exponent, margin,
                         seed, claimed, fixed=fixed or None, **options)
    untested = {k: fixed[k] for k in sorted(_law_names(predicted, points[0]) & set(fixed)) if k not in held}
    return _one_value_law(verdict, untested) if untested else verdict


def _law_names(predicted: Any, point: Mapping[str, Any]) -> set[str]:
    """The names a printed law reads: a SymPy expression's free symbols; for a ``tv.printed`` side, the display's
    arguments and the symbols it builds itself; nothing for a plain function of the point (what it reads is not
    visible)."""
    import sympy as sp

    from .displays import Printed
    if isinstance(predicted, Printed):
        names = set(predicted.arguments)
        try:
            built = predicted(dict(point))
        except Exception:  # the check itself reports a display that cannot be built
            return names
        return names | {str(s) for s in getattr(built, "free_symbols", ())}
    if isinstance(predicted, sp.Basic):
        return {str(s) for s in predicted.free_symbols}
    return set()


def _one_value_law(verdict: Verdict, untested: Mapping[str, Any]) -> Verdict:
    """A rate verdict whose printed law reads parameters held at one value (author 11's D2): a pass says so and
    is inconclusive; a refutation stands (a counterexample at that value) with the same note."""
    shown = ", ".join(f"{k} = {v:g}" if isinstance(v, (int, float)) else f"{k} = {v}" for k, v in untested.items())
    names = ", ".join(untested)
    note = (f"the printed law depends on {names}, tested at {shown} only (sweep {'it' if len(untested) == 1 else 'them'}"
            f", or name {'it' if len(untested) == 1 else 'them'} in held= where the statement fixes "
            f"{'it' if len(untested) == 1 else 'them'})")
    details = {**dict(verdict.details), "untested": dict(untested)}
    if verdict.status not in (Status.HOLDS, Status.PROVED):
        return replace(verdict, evidence=f"{verdict.evidence}; {note}", details=details)
    was = {"status": verdict.status.value, "evidence": verdict.evidence}
    return Verdict(Status.INCONCLUSIVE, verdict.method, f"inconclusive: {note} (the check alone: "
                   f"{verdict.status.value}, {verdict.evidence})", details={**details, "one_value": was},
                   seed=verdict.seed, runtime_s=verdict.runtime_s)


@dataclass(frozen=True)
class LinearFit:
    """y ≈ a0 + a1·x (+ a2·x²) with bootstrap CIs (paired over grid points)."""

    coef: tuple[float, ...]
    ci: tuple[tuple[float, float], ...]
    confidence: float
    residual_max: float
    extra: dict = field(default_factory=dict)


def fit_polynomial(x: Sequence[float], y: Sequence[float], degree: int, seed: int, confidence: float = 0.95,
                   n_resamples: int = 2000) -> LinearFit:
    """Least-squares polynomial fit (coefficients in increasing order) with paired-bootstrap CIs."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    coef = np.polynomial.polynomial.polyfit(x, y, degree)
    cis = []
    for j in range(degree + 1):
        def stat(xs, ys, axis=-1, j=j):
            xs, ys = np.atleast_2d(xs), np.atleast_2d(ys)
            V = xs[..., None] ** np.arange(degree + 1)  # (B, n, d+1)
            sol = (np.linalg.pinv(V) @ ys[..., None])[..., j, 0]
            distinct = 1 + np.sum(np.diff(np.sort(xs, axis=-1), axis=-1) > 0, axis=-1)
            return np.where(distinct > degree, sol, np.nan)
        res = _bootstrap((x, y), stat, paired=True, vectorized=True, n_resamples=n_resamples,
                         confidence_level=confidence, method="percentile",
                         random_state=np.random.default_rng(seed + j))
        dist = np.asarray(res.bootstrap_distribution, float)
        dist = dist[np.isfinite(dist)]
        alpha = (1 - confidence) / 2
        lo, hi = np.quantile(dist, [alpha, 1 - alpha])
        cis.append((float(min(lo, coef[j])), float(max(hi, coef[j]))))
    resid = y - np.polynomial.polynomial.polyval(x, coef)
    return LinearFit(tuple(float(c) for c in coef), tuple(cis), confidence, float(np.max(np.abs(resid))))


def _local_slopes(x: np.ndarray, y: np.ndarray) -> list[float]:
    """Slopes between neighbouring distinct grid points (repeated x values averaged first; no 0/0 warnings)."""
    xs, inv = np.unique(x, return_inverse=True)
    ys = np.bincount(inv, weights=y) / np.bincount(inv)
    return [float(v) for v in np.diff(ys) / np.diff(xs)] if len(xs) > 1 else []


def _seeded_polynomial(pf: LinearFit, x: np.ndarray, ys: np.ndarray, degree: int, seed: int, confidence: float,
                       n_resamples: int) -> LinearFit:
    """``pf`` (fitted on the per-point means) with CIs from the two-stage bootstrap over points and seeds."""
    def stat(uu, means):
        V = uu[..., None] ** np.arange(degree + 1)
        sol = (np.linalg.pinv(V) @ means[..., None])[..., 0]
        distinct = 1 + np.sum(np.diff(np.sort(uu, axis=-1), axis=-1) > 0, axis=-1)
        return np.where((distinct > degree)[..., None], sol, np.nan)
    dist = _two_stage(x, ys, np.random.default_rng(seed), n_resamples, stat)
    alpha = (1 - confidence) / 2
    cis = []
    for j, c in enumerate(pf.coef):
        d = dist[:, j][np.isfinite(dist[:, j])]
        lo, hi = np.quantile(d, [alpha, 1 - alpha]) if d.size else (np.nan, np.nan)
        cis.append((float(min(lo, c)), float(max(hi, c))))
    return replace(pf, ci=tuple(cis))


LIMIT_RULE = ("HOLDS if the grid has >= {min_points} points and the {confidence:.0%} bootstrap CI of the fitted "
              "coefficient (y ≈ a0 + a1·x + … fitted by least squares, paired resampling over grid points) lies "
              "inside [p - m, p + m]; REFUTED if it has >= {min_points} points and the CI lies entirely outside "
              "[p - m, p + m] (the counterexample is the fitted coefficient, its CI, p and the grid); "
              "INCONCLUSIVE otherwise.")


def check_coefficient(x: Sequence[float], y: Sequence[float], predicted: float, margin: float, seed: int, *,
                      index: int = 0, degree: int = 1, param: str = "x", what: str = "y",
                      confidence: float = 0.95, n_resamples: int = 2000, min_points: int = 4,
                      extra: Mapping | None = None, scale: str = "linear", fixed: Mapping | None = None,
                      declared: Mapping | None = None) -> Verdict:
    """Decide "coefficient ``index`` of y(x) ≈ a0 + a1·x + … equals ``predicted``" (index 0: the limit as
    x → 0, e.g. a converged value as T → 0) by :data:`LIMIT_RULE`.  Details follow the sweep/fit schema
    with ``fit["exponent"]`` holding the fitted coefficient.

    ``margin`` is **absolute**: the CI must lie inside [predicted − margin, predicted + margin] (check_rate's
    ``margin`` is absolute on the exponent too; its ``constant_margin`` is a relative factor 1 ± m) — for a
    relative test of a coefficient, divide y by the predicted value and test 1 ± m.  ``y``: (points,) or
    (points, seeds), as for :func:`check_rate`: with seeds the fit is on the per-point means and the bootstrap
    resamples points and the seeds within them (:data:`SEEDS_RULE`; one seed per point never refutes).

    >>> import numpy as np
    >>> x = np.linspace(1, 10, 6)
    >>> y = np.stack([3 + 2 * x, 3 + 2 * x + 0.01, 3 + 2 * x - 0.01], axis=1)  # (points, seeds)
    >>> check_coefficient(x, y, 2.0, 0.05, 0, index=1).status.value
    'holds'
    """
    require_min_points(min_points)
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if y.ndim == 2 and y.shape[0] != x.shape[0]:
        raise ValueError(f"check_coefficient: y has {y.shape[0]} rows for {x.shape[0]} grid points "
                         f"(give y as (points,) or (points, seeds))")
    seeded = y.ndim == 2
    ys = y
    y = y.mean(axis=1) if seeded else y
    pf = fit_polynomial(x, y, degree, seed, confidence, n_resamples)
    if seeded and ys.shape[1] > 1:
        pf = _seeded_polynomial(pf, x, ys, degree, seed, confidence, n_resamples)
    a, (lo, hi) = pf.coef[index], pf.ci[index]
    p, m = float(predicted), float(margin)
    rule = LIMIT_RULE.format(min_points=min_points, confidence=confidence)
    poly = " + ".join(["a0", f"a1·{param}"] + [f"a{k}·{param}^{k}" for k in range(2, degree + 1)])
    details = {
        "sweep": sweep_details(param, x, ys, scale=scale, fixed=fixed, declared=declared),
        "fit": {"exponent": a, "ci": [lo, hi], "confidence": confidence, "predicted_exponent": p, "margin": m,
                "family": "polynomial", "margin_kind": "absolute", "n_seeds": int(ys.shape[1]) if seeded else 1,
                "local_slopes": _local_slopes(x, y), "subwindow": None, "rule": rule,
                "law": f"{what} ≈ {poly}", "coefficient": f"a{index}", "coefficients": list(pf.coef),
                "coefficient_cis": [list(c) for c in pf.ci], "residual_max": pf.residual_max},
        **(dict(extra) if extra else {}),
    }
    method = f"polynomial fit (degree {degree}) over {len(x)} {param} values, bootstrap {confidence:.0%} CI"
    summary = f"a{index} = {a:.6g} (CI [{lo:.6g}, {hi:.6g}]; predicted {p:.6g} ± {m:g})"
    power = CouldHaveFailed("test power", f"a fitted a{index} with its {confidence:.0%} CI outside [{p:.6g} − {m:g}, "
                                          f"{p:.6g} + {m:g}] would refute")
    if len(x) < min_points:
        return _typed(inconclusive(method, f"too few grid points ({len(x)} < {min_points}): " + summary, **details))
    if hi < p - m or lo > p + m:
        ce = {"fitted_coefficient": a, "coefficient": f"a{index}", "ci": [lo, hi], "predicted": p, "margin": m,
              "param": param, "grid": x.tolist(), "values": y.tolist()}
        if seeded and ys.shape[1] < 2:
            return _typed(inconclusive(method, f"{SEEDS_RULE_SHORT}: CI excludes the predicted value: {summary}",
                                       **details, seeds_rule=SEEDS_RULE, would_refute=plain(ce)))
        return _typed(refuted(method, "CI excludes the predicted value: " + summary, ce, **details))
    if p - m <= lo and hi <= p + m:
        return _typed(holds(method, summary, **details), power)
    return _typed(inconclusive(method, "CI not inside the margin: " + summary, **details))
