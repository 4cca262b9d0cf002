"""Counterexample search with Hypothesis: ``target()`` pushes towards the worst point, and a
failing point is shrunk before it is reported.

Reproducibility: recent Hypothesis releases seed generation with numeric and string literals collected from
every *local* module loaded in the process, so the examples drawn for one claim would depend on which other
modules happen to be imported (one paper or four; a pytest session or a report run).  :func:`search` switches
that pool off while it runs (:func:`_without_local_constants`), so the same seed draws the same examples
whatever else is loaded.

A refutation found at an exact point (a rational drawn from the domain, a confirmed float) is shrunk before it
is reported (:func:`shrunk`, issue 28): the step checker's shrinker (:mod:`theoryverify.check.shrink`) looks for
small integers and short fractions where the statement still fails (decided exactly or at 50 digits) inside the
domain, and a simpler point is kept only if it also satisfies the claim's hypotheses (:func:`hypotheses`, set by
the claim around its check), so η = 63410682753376587/1152921504606846976 is reported as a short fraction and
the refutation stays inside the statement's hypotheses; the point first found is kept in the details."""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st
from hypothesis import target


class _Found(Exception):
    pass


class _ShrinkBudgetSpent(BaseException):
    """Raised from inside the test once the shrink step budget is spent: a BaseException (not an Exception) so
    Hypothesis does not take it for a failure of the example, and it ends the run at once; the smallest failing
    example so far is kept."""


#: how many examples Hypothesis may try after the first failure while shrinking it (a step count, not seconds, so
#: the shrunk example does not depend on the machine's speed or load).  A failure over a few scalars shrinks well
#: within it; a 32×8 matrix would otherwise take thousands of steps (tens of seconds) for a counterexample the
#: exact shrinker (:func:`shrunk`) or the reader does not need smaller.
SHRINK_STEPS = 100


@dataclass
class SearchResult:
    tried: int = 0
    nonfinite: int = 0
    worst: Any = None
    worst_score: float = -math.inf
    failure: Any = None  # the shrunk failing example, if any
    failure_score: float | None = None
    shrink_steps: int = 0  # examples tried after the first failure (shrinking it)
    shrink_cut: bool = False  # the shrink step budget was spent (the failure is the smallest found by then)
    top: list[tuple[float, Any]] = field(default_factory=list)  # a few of the worst points
    seen: dict[Any, list] = field(default_factory=dict)  # per coordinate of dict-valued draws: [min, max, values]

    def _record(self, x: Any, score: float, keep: int = 5) -> None:
        self.tried += 1
        if isinstance(x, dict):
            for k, v in x.items():
                if isinstance(v, (int, float)) and math.isfinite(v):
                    c = self.seen.setdefault(k, [v, v, set()])
                    c[0], c[1] = min(c[0], v), max(c[1], v)
                    if len(c[2]) < 1000:
                        c[2].add(v)
        if not math.isfinite(score):
            self.nonfinite += 1
            return
        if score > self.worst_score:
            self.worst, self.worst_score = x, score
        self.top.append((score, x))
        self.top.sort(key=lambda t: -t[0])
        del self.top[keep:]


    def coverage(self, symbols=None) -> dict[str, dict]:
        """What the drawn points covered, per coordinate: min, max and the number of distinct values (capped
        at 1000) — read by the quantifier rule (:mod:`theoryverify.standards`)."""
        keys = list(symbols) if symbols is not None else list(self.seen)
        return {str(k): {"min": self.seen[k][0], "max": self.seen[k][1], "distinct": len(self.seen[k][2])}
                for k in keys if k in self.seen}


@contextmanager
def _without_local_constants():
    """Hypothesis's pool of literals from loaded local modules, emptied for the duration (a private API:
    if it moves, the search still runs, only without this guarantee)."""
    try:
        from hypothesis.internal.conjecture import providers as P
        original, cache = P._get_local_constants, P.CONSTANTS_CACHE
        empty = P.Constants()
    except (ImportError, AttributeError):  # pragma: no cover - another Hypothesis layout
        yield
        return
    cache.cache.clear()
    P._get_local_constants = lambda: empty
    try:
        yield
    finally:
        P._get_local_constants = original
        cache.cache.clear()


def default_examples() -> int:
    """The active Hypothesis profile's ``max_examples`` (ci / thorough / default)."""
    return settings.default.max_examples


#: a score (error / tolerance) under which the search takes no direction from it: 1 % of the tolerance is
#: round-off for every tolerance the checks use (rtol 1e-10: errors < 1e-12, the report's noise floor)
ROUNDOFF_SCORE = 1e-2


def search(strategy: st.SearchStrategy, score: Callable[[Any], float], *, fails: Callable[[float], bool],
           seed: int, max_examples: int | None = None, label: str = "badness",
           target_floor: float | None = None, shrink_steps: int | None = None) -> SearchResult:
    """Run ``score`` over examples of ``strategy`` (maximising it with ``target``) and stop at the
    first example with ``fails(score)``, shrunk by Hypothesis.  Deterministic given ``seed``.

    ``target_floor``: scores below it are targeted as the floor itself.  A relative error at float64 round-off
    (1e-16 of a tolerance 1e-10: score 1e-6) is noise that differs between machines (another BLAS kernel, another
    CPU); maximising it would steer the search to machine-dependent examples, so the same seed would draw other
    points — and print other coverage — elsewhere.  Below the floor the search gets no direction from it.

    ``shrink_steps``: how many examples the shrinker may try after the first failure (default
    :data:`SHRINK_STEPS`); then the smallest failure found so far is returned.  ``result.shrink_steps`` counts them."""
    result = SearchResult()
    budget = SHRINK_STEPS if shrink_steps is None else shrink_steps
    n = max_examples or default_examples()

    @settings(max_examples=n, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate, Phase.target, Phase.shrink])
    @given(strategy)
    def probe(x: Any) -> None:
        if result.failure is not None:
            result.shrink_steps += 1
            if result.shrink_steps > budget:
                result.shrink_steps, result.shrink_cut = budget, True
                raise _ShrinkBudgetSpent
        s = float(score(x))
        result._record(x, s)
        if math.isfinite(s):
            t = s if target_floor is None or s >= target_floor else target_floor
            target(max(min(t, 1e300), -1e300), label=label)
            if fails(s):
                result.failure, result.failure_score = x, s
                raise _Found
    try:
        with _without_local_constants():
            hseed(seed)(probe)()
    except (_Found, _ShrinkBudgetSpent):
        pass
    except BaseExceptionGroup as group:  # pragma: no cover - several distinct failures
        if not group.subgroup(_Found):
            raise
    return result


def examples(strategy: st.SearchStrategy, seed: int, n: int) -> list[Any]:
    """``n`` examples of ``strategy`` (generation only, no shrinking), deterministic given ``seed`` and
    independent of what else is imported (see the module docstring)."""
    out: list[Any] = []

    @settings(max_examples=n, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(strategy)
    def collect(x: Any) -> None:
        out.append(x)
    with _without_local_constants():
        hseed(seed)(collect)()
    return out


#: the claim's hypotheses while its check runs (None: the check runs outside a claim, e.g. in a test).  A module
#: global, not a context variable, so that a check's own worker threads (a threaded sweep) see them too; claims
#: run one at a time in a process (parallel runs use processes: :mod:`theoryverify.dispatch`)
_HYPOTHESES: list[Sequence[Any] | None] = [None]


@contextmanager
def hypotheses(conditions: Sequence[Any]):
    """The claim's hypotheses (:class:`theoryverify.conditions.Condition`) for :func:`shrunk` while a check runs."""
    _HYPOTHESES.append(tuple(conditions))
    try:
        yield
    finally:
        _HYPOTHESES.pop()


#: the names of the symbols the running check's sides contain (None: not known), read by :func:`shrunk`
_USED: list[frozenset[str] | None] = [None]


def _free_names(obj) -> frozenset[str] | None:
    """The names of the free symbols of a check's side (an expression, a matrix, a (nested) sequence or mapping
    of them); None where a part is of a kind whose symbols cannot be read."""
    if hasattr(obj, "free_symbols"):
        return frozenset(str(s) for s in obj.free_symbols)
    if isinstance(obj, (int, float, complex, str)) or obj is None:
        return frozenset()
    parts = list(obj.values()) if isinstance(obj, Mapping) else list(obj) if isinstance(obj, (list, tuple)) else None
    if parts is None:
        return None
    out: set[str] = set()
    for part in parts:
        got = _free_names(part)
        if got is None:
            return None
        out |= got
    return frozenset(out)


def settings_of_the_sides(check):
    """A check of ``lhs``/``rhs`` over ``domain`` whose counterexample names only the variables the two sides
    contain, and those the running claim's hypotheses read: a domain variable none of whose symbols either side
    uses (η in a domain shared by a claim without η) is moved to ``details["unused_settings"]``, so a
    counterexample never lists a value the statement does not depend on; a variable with a used symbol is kept
    whole (a matrix's every entry, every member of a ``Domain.assuming`` group, whose relations tie them)."""
    import functools
    import inspect

    sig = inspect.signature(check)

    @functools.wraps(check)
    def run(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        lhs, rhs, domain = (bound.arguments.get(k) for k in ("lhs", "rhs", "domain"))
        left, right = _free_names(lhs), _free_names(rhs)
        used = None if left is None or right is None else left | right
        _USED.append(used)
        try:
            verdict = check(*args, **kwargs)
        finally:
            _USED.pop()
        ce = verdict.counterexample
        if used is None or not ce or domain is None:
            return verdict
        read = {n for c in (_HYPOTHESES[-1] or ()) for n in getattr(c, "needs", ())}
        # a variable is kept whole (every entry of a matrix; every member of a group tied by relations, such as
        # L in 0 < η ≤ 1/L, which shows the point inside the hypotheses) when a side contains one of its symbols
        unused = {str(s) for v in domain.variables if not {str(t) for t in v.symbols} & (used | read)
                  for s in v.symbols}
        dropped = {k: v for k, v in ce.items() if k in unused}
        if not dropped:
            return verdict
        return replace(verdict, counterexample={k: v for k, v in ce.items() if k not in unused},
                       details={**dict(verdict.details or {}), "unused_settings": dropped})
    return run


def _inside(config: Mapping[str, Any]) -> bool:
    """No hypothesis of the running claim is violated at ``config`` (one it cannot read is not a violation:
    the evidence rules judge that on the reported point, as on the point first found)."""
    conds = _HYPOTHESES[-1]
    if not conds:
        return True
    from ..conditions import violations

    def number(v):
        try:
            return float(v) if hasattr(v, "is_Rational") else v
        except (TypeError, ValueError):
            return v
    return not any(not v.missing for v in violations(conds, [{k: number(v) for k, v in config.items()}]))


def _complexity(value: Any) -> int:
    """How simple a value is, as the shrinker orders its candidates: |numerator| + denominator of the exact
    rational (a float by its shortest decimal); a value that is no rational counts as very complex."""
    import sympy as sp
    try:
        r = sp.nsimplify(value, rational=True) if isinstance(value, float) else sp.sympify(value)
        return int(abs(r.p) + r.q) if r.is_Rational else 10**30
    except (TypeError, ValueError, AttributeError, sp.SympifyError):
        return 10**30


#: a safety cap only: the shrinker stops when no coordinate gets simpler (each 50-digit evaluation is bounded by
#: CPU time), so the shrunk point does not depend on the machine's load
SHRINK_CAP_SECONDS = 30.0


def shrunk(verdict, lhs, op: str, rhs, domain, *, tol: float = 0.0, rtol: float | None = None,
           seconds: float = SHRINK_CAP_SECONDS):
    """``verdict`` (a refutation of ``lhs OP rhs`` at a point of ``domain``, its counterexample keyed by the
    symbols' names) with the point shrunk to simpler values where the check's own criterion still fails —
    ``lhs − rhs ≠ 0`` (``==``), the relative error above ``rtol`` (a float identity check), or the slack below
    ``−tol`` (an inequality) — inside the domain and the running claim's hypotheses.  Unchanged when no simpler
    such point is found, or it is not a refutation at a point.  The evidence and both sides are re-evaluated at
    the new point; ``details["shrunk_from"]`` keeps the point first found."""
    from ..verdicts import Status
    ce = dict(verdict.counterexample or {})
    names = {str(s): s for s in domain.symbols}
    if verdict.status is not Status.REFUTED or not names or not set(names) <= set(ce):
        return verdict
    from fractions import Fraction

    import sympy as sp

    from ..check import shrink as sh
    from ..numeric import exact_value
    try:
        start = {s: sp.nsimplify(ce[n], rational=True) if isinstance(ce[n], float) else sp.sympify(ce[n])
                 for n, s in names.items()}
    except (TypeError, ValueError, sp.SympifyError):
        return verdict
    L, R = sp.sympify(lhs), sp.sympify(rhs)
    if rtol is not None:  # relative error above rtol: |L − R| ≤ rtol·max(1, |R|) fails
        test = (sp.Abs(L - R), "<=", rtol * sp.Max(1, sp.Abs(R)))
    elif op in ("<=", ">=") and tol:
        test = (L - tol if op == "<=" else L + tol, op, R)
    else:
        test = (L, op, R)
    config = lambda point: {**ce, **{str(s): v for s, v in point.items()}}  # noqa: E731
    best = sh.shrink(*test, domain, start, seconds)
    if best is not None and not _inside(config(best)):
        best = _shrink_inside(*test, domain, start, seconds, config, sh)
    if best is None or sum(map(_complexity, best.values())) >= sum(map(_complexity, (ce[n] for n in names))):
        return verdict
    sides = sh.sides_at(L, R, best)
    diff = exact_value(L - R, best)
    value = diff if diff.is_Rational else sp.N(diff, 6)
    from ..check.result import short as _short

    def short(v):  # an exact value longer than 20 characters as a 10-digit decimal (JSON: exact); others as they are
        return _short(v) if isinstance(v, (sp.Rational, int, Fraction)) else v
    if rtol is not None:
        rel = abs(float(sp.N(diff, 30))) / max(1.0, abs(float(sp.N(sides["rhs"], 30))))
        evidence = f"relative error {rel:.3g} > {rtol:g} (confirmed at 50 digits)"
    elif op == "==":
        evidence = f"lhs − rhs = {short(value)} ≠ 0" + (" exactly" if diff.is_Rational else " (50 digits)")
    else:
        evidence = (f"violated: lhs = {short(sides['lhs'])} {op} rhs = {short(sides['rhs'])} is false "
                    f"(lhs − rhs = {short(value)})")
    point = {str(s): v for s, v in sorted(best.items(), key=lambda kv: str(kv[0]))}
    details = {**dict(verdict.details or {}), "shrunk_from": {n: ce[n] for n in names},
               "shrunk": "the point first found, shrunk to simpler values where the check still fails, inside "
                         "the domain and the claim's hypotheses"}
    if "difference" in details:
        details["difference"] = value
    if "slack" in details and op not in ("==",):
        details["slack"] = float(sp.N(exact_value(R - L if op in ("<=", "<") else L - R, best), 30))
    used = _USED[-1]
    if used is not None:  # whole variables, as the counterexample keeps them (settings_of_the_sides)
        used = {str(s) for v in domain.variables if {str(t) for t in v.symbols} & used for s in v.symbols}
    from ..dependent import IntegerWithin
    from ..domains import IntegerRange
    whole = {str(v.symbol) for v in domain.variables if isinstance(v, (IntegerRange, IntegerWithin))}

    def shown(n):  # an integer variable's value as an integer (d = 3, not d = 3.0)
        v = ce[n]
        return int(v) if n in whole and isinstance(v, float) and v.is_integer() else short(v)
    first = ", ".join(f"{n} = {shown(n)}" for n in names if used is None or n in used)
    # the sides may use none of the shrunk names (a constant relation, 1/3 < 1/3 at every T): then no point to name
    return replace(verdict, evidence=f"{evidence} (shrunk; first found at {first})" if first else f"{evidence} (shrunk)",
                   counterexample={**ce, **point, "lhs": sides["lhs"], "rhs": sides["rhs"]}, details=details)


def _shrink_inside(lhs, op, rhs, domain, start, budget, config, sh):
    """The shrinker's coordinate moves (its candidates, simplest first) accepting only points inside the
    running claim's hypotheses; None when no move is accepted."""
    import time

    import sympy as sp
    from fractions import Fraction
    deadline = time.process_time() + budget  # CPU time: the same point on a loaded machine
    owner = {s: v for v in domain.variables for s in v.symbols}
    current, moved = dict(start), False
    for sym in domain.symbols:
        value = current[sym]
        if not value.is_Rational:
            continue
        here = Fraction(int(value.p), int(value.q))
        for cand in sh._candidates(here):
            if cand == here or time.process_time() > deadline:
                break
            trial = {**current, sym: sp.Rational(cand.numerator, cand.denominator)}
            if sh._admits(owner[sym], sym, cand, current) and _inside(config(trial)) \
                    and sh.violates(lhs, op, rhs, trial) and sh._inside_dependents(domain, trial):
                current, moved = trial, True
                break
    return current if moved else None
