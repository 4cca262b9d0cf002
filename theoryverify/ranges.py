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
``details["settings_not_run"]``.  A setting whose check raises is an ``error`` part (the other settings still
run); every setting that errored is listed in the evidence and in ``details["errors"]``, also when another
setting's refutation is the verdict.
"""
from __future__ import annotations

import ast
import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .conditions import Over
from .evidence import with_fixed
from .seeds import rng
from .verdicts import Status, Verdict, combine, inconclusive

OPEN_DECADES = 3  # how far above lo an open range (hi = inf) is explored


_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b}


def _bound_tree(text: str, what: str) -> ast.expr:
    try:
        tree = ast.parse(text.strip().replace("^", "**"), mode="eval").body
    except SyntaxError:
        raise ValueError(f"{what}: cannot read {text!r} (numbers, parameter names, + - * / ** and parentheses)") \
            from None
    for node in ast.walk(tree):
        if not isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Load, ast.USub, ast.UAdd,
                                 *_OPS)) or (isinstance(node, ast.Constant) and not isinstance(node.value, (int, float))):
            raise ValueError(f"{what}: cannot read {text!r} (numbers, parameter names, + - * / ** and parentheses)")
    return tree


def bound_names(text: str, what: str) -> list[str]:
    """The parameter names a dependent end such as ``"4*d"`` is written in (a ValueError for anything but
    numbers, names, + - * / ** and parentheses).

    >>> bound_names("2*d + n0", "hi")
    ['d', 'n0']"""
    found = [n for n in ast.walk(_bound_tree(text, what)) if isinstance(n, ast.Name)]
    return list(dict.fromkeys(n.id for n in sorted(found, key=lambda n: n.col_offset)))  # in reading order


def _bound_value(text: str, values: Mapping[str, Any]) -> float:
    """A dependent end at the given values of the parameters it names (an AST walk, no ``eval``)."""
    def ev(node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return values[node.id]
        if isinstance(node, ast.UnaryOp):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        return _OPS[type(node.op)](ev(node.left), ev(node.right))
    return float(ev(_bound_tree(text, "a dependent end")))


@dataclass(frozen=True)
class _Range:
    """One range with numeric ends (a dependent :class:`Over` at a point of the parameters it names)."""
    name: str
    lo: float
    hi: float
    scale: str
    integer: bool


def _ordered(over: Sequence[Over]) -> list[Over]:
    """The ranges in declared order, each dependent one after the ranges it names (a one-line error for a name
    that is not declared, or ends that depend on each other)."""
    names = {o.name for o in over}
    for o in over:
        unknown = [n for n in o.depends_on if n not in names]
        if unknown:
            raise ValueError(f"Over({o.name!r}): its range names {', '.join(unknown)}, which "
                             f"{'is' if len(unknown) == 1 else 'are'} not among the declared ranges "
                             f"({', '.join(sorted(names))})")
    out: list[Over] = []
    left = list(over)
    while left:
        ready = [o for o in left if all(n in {p.name for p in out} for n in o.depends_on)]
        if not ready:
            raise ValueError(f"the ranges of {', '.join(o.name for o in left)} depend on each other")
        out.append(ready[0])
        left.remove(ready[0])
    return out


def _at(o: Over, point: Mapping[str, Any]) -> "Over | _Range":
    """``o`` with numeric ends at ``point`` (``o`` itself when its range is fixed)."""
    if not o.depends_on:
        return o
    lo, hi = (_bound_value(e, point) if isinstance(e, str) else float(e) for e in (o.lo, o.hi))
    if o.integer:
        lo, hi = math.ceil(lo - 1e-9), math.floor(hi + 1e-9)
    return _Range(o.name, lo, max(lo, hi), o.scale, o.integer)


def extent(over: Sequence[Over], seed: int = 0) -> list[Over]:
    """``over`` with each dependent range replaced by the fixed range it spans over the others' settings (the
    smallest lower end and largest upper end at the corners and sweeps of :func:`settings`): what the quantifier
    rule measures a dependent parameter's coverage against.

    >>> from theoryverify import Over
    >>> [(o.name, o.lo, o.hi) for o in extent([Over("d", 2, 8, integer=True), Over("n", "d", "4*d", integer=True)])]
    [('d', 2, 8), ('n', 2, 32)]"""
    if not any(o.depends_on for o in over):
        return list(over)
    points = settings(over, seed, n=9, draws=0)
    out = []
    for o in over:
        if not o.depends_on:
            out.append(o)
            continue
        ends = [_at(o, p) for p in points]
        out.append(Over(o.name, min(e.lo for e in ends), max(e.hi for e in ends), o.scale, o.integer,
                        o.text or f"{o.name} ∈ [{o.lo}, {o.hi}]" + (" (integers)" if o.integer else "")))
    return out


def _ends(o) -> tuple[float, float]:
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
    order = _ordered(over)  # the declared order when no range depends on another
    out: list[dict[str, Any]] = []
    seen: set[tuple] = set()

    def add(values: Mapping[str, Any]) -> None:
        key = tuple(values[k] for k in names)
        if key not in seen:
            seen.add(key)
            out.append({k: values[k] for k in names})

    corners: list[dict[str, Any]] = [{}]  # every combination of ends, a dependent range's ends at each point
    for o in order:
        corners = [{**p, o.name: _value(r, e)} for p in corners for r in [_at(o, p)] for e in _ends(r)]
    for corner in corners:
        add(corner)

    def middles(point: dict[str, Any], after: int) -> dict[str, Any]:  # dependent ranges after `after`, re-centred
        for o in order[after + 1:]:
            if o.depends_on:
                point[o.name] = _middle(_at(o, point))
        return point

    middle: dict[str, Any] = {}
    for o in order:
        middle[o.name] = _middle(_at(o, middle))
    for i, o in enumerate(order):
        for v in _grid(_at(o, middle), n):
            add(middles({**middle, o.name: v}, i))
    gen = rng(seed)
    for _ in range(draws):
        point: dict[str, Any] = {}
        for o in order:
            r = _at(o, point)
            lo, hi = _ends(r)
            u = float(gen.random())
            point[o.name] = _value(r, lo * (hi / lo) ** u if r.scale == "log" else lo + (hi - lo) * u)
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
    refuting setting named; the settings after it are not run, ``details["settings_not_run"]``), proved only if all
    are, else holds/inconclusive; every setting is recorded as a configuration of the evidence.  A setting whose
    check raises or returns an ``error`` never hides behind a refutation: the evidence lists every such setting
    (``details["errors"]``, label → what failed; ``details["traceback"]``: the first exception's, as ``verify
    --debug`` and the pytest items show it), and the refutation stays the verdict.  A ``check`` that accepts a
    keyword ``seed`` is called ``check(setting, seed=seed)`` (no ``lambda c: f(c, ctx.seed)`` wrapper needed).

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
    >>> def breaks(s):  # raises at N=1 (run first), refutes at N=1000
    ...     return tv.refuted("exact", "no", s) if 1 / (s["N"] - 1) else None
    >>> v = tv.check_over(over, breaks, seed=0, n=2, draws=0)
    >>> v.status.value, v.counterexample["part"], v.details["errors"]
    ('refuted', 'N=1000', {'N=1': 'ZeroDivisionError: division by zero'})
    >>> v.evidence
    '[N=1000] no; the check itself also failed at 1 other setting (not a statement about the paper): [N=1] ZeroDivisionError: division by zero'
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
        parts[label] = with_fixed(_checked(check, point, extra), **point)
        if parts[label].status is Status.REFUTED:
            break  # one refuted setting refutes the claim: the remaining settings (and their shrinking) are not run
    ran = points[:len(parts)]
    if len(ran) < len(points):
        method = (f"settings of the declared ranges in order, stopped at the first refuted one ({len(ran)} of "
                  f"{len(points)} ran)")
    else:
        method = f"each of {len(points)} settings of the declared ranges"
    verdict = combine(parts, method=method)
    if verdict.status in (Status.HOLDS, Status.PROVED):  # "each of 17 settings …", not "… settings … 17 parts"
        verdict = dataclasses.replace(verdict, method=method)
    details = dict(verdict.details)
    details["configurations"] = ran
    if len(ran) < len(points):
        details["settings_not_run"] = points[len(ran):]
    from dataclasses import replace
    errors = {k: v.evidence for k, v in parts.items() if v.status is Status.ERROR}
    if errors:  # a refutation (or the first error) is the verdict, but no error is hidden behind it
        details["errors"] = errors
        tb = next((v.details.get("traceback") for v in parts.values() if v.details.get("traceback")), None)
        if tb:
            details.setdefault("traceback", tb)
        shown = () if verdict.status is not Status.ERROR else (next(iter(errors)),)
        others: dict[str, list[str]] = {}  # one line per distinct error, with every setting it came at
        for k, e in errors.items():
            if k not in shown:
                others.setdefault(e, []).append(k)
        if others:
            count = sum(map(len, others.values()))
            verdict = replace(verdict, evidence=f"{verdict.evidence}; the check itself also failed at {count} "
                                                f"other setting{'s' if count > 1 else ''} (not a statement "
                                                f"about the paper): "
                                                + "; ".join(f"[{' | '.join(ks)}] {e}" for e, ks in others.items()))
    return replace(verdict, details=details)


def _checked(check: Callable, point: Mapping[str, Any], extra: Mapping[str, Any]) -> Verdict:
    """``check`` at one setting; an exception it raises is an ``error`` verdict of that setting (so the other
    settings still run and a refutation elsewhere stays the verdict, with this error listed beside it).  A
    time limit and an unavailable input still end the whole check, as they do outside ``check_over``."""
    from .claims import Unavailable
    from .timelimit import TimeLimitExceeded
    from .verdicts import error
    try:
        return check(dict(point), **extra)
    except (Unavailable, TimeLimitExceeded):
        raise
    except Exception as exc:  # a broken setting is an error verdict, never a paper verdict
        import traceback
        return error("exception at the setting", f"{type(exc).__name__}: {exc}", traceback=traceback.format_exc())
