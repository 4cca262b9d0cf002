"""Settings generated from a claim's declared ranges: ``tv.settings(over, seed)`` and ``tv.check_over(over, check,
seed)`` — no hand-written loop over "for all d and N".

A claim declares its parameters once, as the :class:`~theoryverify.conditions.Over` objects the evidence standards
read (``over=`` of ``ClaimSet.add``).  From them :func:`settings` makes, deterministically from the seed:

- the **corners** of the box (every combination of each range's two ends; an open upper end ``hi = inf`` is taken
  three decades above ``lo``, or ``lo + 1000`` from 0);
- a **sweep of each parameter** across its range with the others at their middle — evenly spaced on a linear
  scale, geometrically (spanning the declared decades) on a log scale, whole numbers for ``integer`` ranges;
- ``draws`` **seeded random points** in the box (log-uniform on log scales).

:func:`check_over` runs a per-setting check on each, in that order, combines the verdicts
(:func:`theoryverify.verdicts.combine`: refuted if one setting is, with that setting as the counterexample's part)
and records every setting that ran as a configuration of the evidence, so the quantifier rule (one configuration,
span) and the hypotheses are applied to what actually ran.  It stops at the first refuted setting: one refutes the
claim, and the rest (each refutation shrunk) would only cost time; the settings not run are kept in
``details["settings_not_run"]``.
"""
from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Mapping, Sequence

from .conditions import Over
from .evidence import with_fixed
from .seeds import rng
from .verdicts import Status, Verdict, combine, inconclusive

OPEN_DECADES = 3  # how far above lo an open range (hi = inf) is explored


def _ends(o: Over) -> tuple[float, float]:
    lo = float(o.lo)
    if math.isfinite(o.hi):
        hi = float(o.hi)
    elif o.scale == "log" and lo > 0:
        hi = lo * 10 ** OPEN_DECADES
    else:
        hi = lo + 10 ** OPEN_DECADES
    if o.scale == "log" and lo <= 0:  # log scale from 0: start OPEN_DECADES below hi
        lo = hi / 10 ** OPEN_DECADES
    return lo, hi


def _value(o: Over, v: float):
    if o.integer:
        return int(min(max(round(v), math.ceil(o.lo)), math.floor(o.hi) if math.isfinite(o.hi) else round(v)))
    return float(v)


def _grid(o: Over, n: int) -> list:
    lo, hi = _ends(o)
    if n <= 1:
        raw = [lo]
    elif o.scale == "log":
        raw = [lo * (hi / lo) ** (k / (n - 1)) for k in range(n)]
    else:
        raw = [lo + (hi - lo) * k / (n - 1) for k in range(n)]
    return list(dict.fromkeys(_value(o, v) for v in raw))


def _middle(o: Over):
    lo, hi = _ends(o)
    return _value(o, math.sqrt(lo * hi) if o.scale == "log" else (lo + hi) / 2)


def grid(over: Over, n: int = 6) -> list:
    """``n`` values of one declared parameter across its range, ends included: geometric on a log scale (so they
    span the declared decades), evenly spaced on a linear one, whole numbers (deduplicated) for an ``integer``
    range — the grid of a rate sweep or of a family of settings, without a hand-written ``geomspace``.

    >>> from theoryverify import Over
    >>> [round(v, 3) for v in grid(Over("s", 0.25, 8.0, scale="log"), 4)]
    [0.25, 0.794, 2.52, 8.0]
    >>> grid(Over("d", 1, 100, scale="log", integer=True), 5)
    [1, 3, 10, 32, 100]
    """
    if n < 1:
        raise ValueError(f"grid: n must be at least 1, got {n}")
    return _grid(over, n)


def settings(over: Sequence[Over], seed: int, *, n: int = 6, draws: int = 8) -> list[dict[str, Any]]:
    """The settings a claim over ``over`` is checked at (see the module docstring): corners, a sweep of each
    parameter with the others at their middle (``n`` points), then ``draws`` seeded random points; each once, in
    that order.  The same seed gives the same list.

    >>> from theoryverify import Over
    >>> s = settings([Over("N", 1, 1000, scale="log", integer=True), Over("eta", 0.0, 0.5)], seed=0)
    >>> s[:4]
    [{'N': 1, 'eta': 0.0}, {'N': 1, 'eta': 0.5}, {'N': 1000, 'eta': 0.0}, {'N': 1000, 'eta': 0.5}]
    >>> [x["N"] for x in s[4:10]]  # the sweep of N (eta at its middle) spans the three decades
    [1, 4, 16, 63, 251, 1000]
    """
    if not over:
        return [{}]
    names = [o.name for o in over]
    if len(set(names)) != len(names):
        raise ValueError(f"settings: a parameter is declared twice ({names})")
    out: list[dict[str, Any]] = []
    seen: set[tuple] = set()

    def add(values: Mapping[str, Any]) -> None:
        key = tuple(values[k] for k in names)
        if key not in seen:
            seen.add(key)
            out.append(dict(values))

    for corner in itertools.product(*[[_value(o, e) for e in _ends(o)] for o in over]):
        add(dict(zip(names, corner)))
    middle = {o.name: _middle(o) for o in over}
    for o in over:
        for v in _grid(o, n):
            add({**middle, o.name: v})
    gen = rng(seed)
    for _ in range(draws):
        point = {}
        for o in over:
            lo, hi = _ends(o)
            u = float(gen.random())
            point[o.name] = _value(o, lo * (hi / lo) ** u if o.scale == "log" else lo + (hi - lo) * u)
        add(point)
    return out


def _takes_seed(fn: Callable) -> bool:
    """Does ``fn`` accept a keyword ``seed`` (a parameter of that name, or ``**kwargs``)?"""
    import inspect
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or p.kind is p.VAR_KEYWORD
               for p in params)


def check_over(over: Sequence[Over], check: Callable[[dict[str, Any]], Verdict], seed: int, *, n: int = 6,
               draws: int = 8) -> Verdict:
    """Run ``check(setting)`` at every setting of :func:`settings` and combine the verdicts: refuted if one is (the
    refuting setting named; the settings after it are not run, ``details["settings_not_run"]``), proved only if all are, else holds/inconclusive; every setting is recorded as a
    configuration of the evidence.  A ``check`` that accepts a keyword ``seed`` is called ``check(setting,
    seed=seed)`` (no ``lambda c: f(c, ctx.seed)`` wrapper needed).

    >>> import theoryverify as tv
    >>> over = [tv.Over("N", 1, 1000, scale="log", integer=True)]
    >>> ok = lambda s: tv.holds("exact", "1/N <= 1") if 1 / s["N"] <= 1 else tv.refuted("exact", "no", s)
    >>> tv.check_over(over, ok, seed=0).status.value
    'holds'
    >>> bad = lambda s: tv.holds("exact", "1/N <= 1/2") if 1 / s["N"] <= 0.5 else tv.refuted("exact", "no", s)
    >>> v = tv.check_over(over, bad, seed=0)
    >>> v.status.value, v.counterexample["part"]
    ('refuted', 'N=1')
    >>> len(v.details["configurations"]), len(v.details["settings_not_run"])  # stopped at the first refuted one
    (1, 11)
    >>> def seeded(s, seed):  # gets the check's seed
    ...     return tv.holds("exact", f"seed {seed}")
    >>> tv.check_over(over, seeded, seed=7, n=2, draws=0).evidence.count("seed 7") >= 1
    True
    """
    points = settings(over, seed, n=n, draws=draws)
    if not points:
        return inconclusive("declared ranges", "no setting to check")
    extra = {"seed": seed} if _takes_seed(check) else {}
    parts = {}
    for point in points:
        label = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in point.items()) or "-"
        parts[label] = with_fixed(check(dict(point), **extra), **point)
        if parts[label].status is Status.REFUTED:
            break  # one refuted setting refutes the claim: the remaining settings (and their shrinking) are not run
    ran = points[:len(parts)]
    if len(ran) < len(points):
        method = (f"settings of the declared ranges in order, stopped at the first refuted one ({len(ran)} of "
                  f"{len(points)} ran)")
    else:
        method = f"each of {len(points)} settings of the declared ranges"
    verdict = combine(parts, method=method)
    details = dict(verdict.details)
    details["configurations"] = ran
    if len(ran) < len(points):
        details["settings_not_run"] = points[len(ran):]
    from dataclasses import replace
    return replace(verdict, details=details)
