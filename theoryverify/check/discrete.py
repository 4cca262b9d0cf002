"""Statements over finite sets and integers: exact cases first, then symbolic reasoning.

Finite sets (``y in {-1, 1}``) and short integer ranges are enumerated completely: every case is decided
(exactly when nothing continuous is left, else by the continuous decision on the remaining variables), so
"proved" means every case was proved.  An integer with a long or unbounded range (``n: integer``,
``n >= 1``) is checked exactly at its smallest values and a few larger ones spread over decades, then
symbolically with ``n`` kept as an integer symbol: closed forms by ``summation`` (``Sum(...).doit()``), and
an induction-style check for ``Sum(f, (k, a, n)) == R(n)`` (the step R(n+1) − R(n) = f(n+1) simplifies
to 0 and the base case holds exactly).  The verdict says which of these decided it.
"""
from __future__ import annotations

import itertools
import time
from typing import Callable

import sympy as sp

from ..checks.identity import symbolic_zero
from ..domains import Domain
from ..verdicts import Status, Verdict, holds, inconclusive, proved, refuted
from .shrink import sides_at, violates
from .variables import FiniteSet, IntegerVar

MAX_CASES = 256  # cases tried exactly when nothing continuous is left
MAX_CONTINUOUS_CASES = 24  # cases given a quick continuous check
FULL_CASES = 4  # cases given the full continuous decision (all cases when the enumeration is exhaustive and short)
SYMBOLIC_SECONDS = 1.5
CASES_SECONDS = 2.0  # the exact cases of an unbounded integer (small values come first)


def is_discrete(v) -> bool:
    return isinstance(v, (FiniteSet, IntegerVar))


def _doit(x):
    if isinstance(x, sp.MatrixBase):
        return sp.ImmutableMatrix(x.applyfunc(_doit))
    return x.doit() if x.has(sp.Sum, sp.Product) else x


def _subs(x, mapping):
    if isinstance(x, sp.MatrixBase):
        return sp.ImmutableMatrix(x.xreplace(mapping))
    return x.xreplace(mapping)


def cases(disc: list, limit: int) -> tuple[list[dict], bool]:
    """Combinations of the discrete variables' values, small ones first; (cases, exhaustive)."""
    lists = []
    for v in disc:
        vals = v.cases()
        lists.append([(v.symbol, sp.Integer(x) if isinstance(x, int) else x) for x in vals])
    exhaustive = all(v.exhaustive for v in disc)
    total = 1
    for lst in lists:
        total *= len(lst)
    if total <= limit:
        combos = list(itertools.product(*[range(len(x)) for x in lists]))
    else:
        exhaustive = False
        combos = []
        for r in range(sum(len(x) for x in lists)):  # by the sum of positions: small values first
            for idx in itertools.product(*[range(min(len(x), r + 1)) for x in lists]):
                if sum(idx) == r:
                    combos.append(idx)
            if len(combos) >= limit:
                break
        combos = combos[:limit]
    combos.sort(key=lambda idx: (sum(idx), idx))
    return [{lists[i][j][0]: lists[i][j][1] for i, j in enumerate(idx)} for idx in combos], exhaustive


def _show(case: dict) -> str:
    return ", ".join(f"{s} = {v}" for s, v in case.items())


def decide(lhs, op: str, rhs, domain: Domain, seed: int,
           continuous: Callable[[object, str, object, Domain, int, bool], Verdict], quick_continuous) -> Verdict:
    """The verdict over a domain with discrete variables (see the module docstring).  ``continuous`` decides
    one case over the remaining variables (full check); ``quick_continuous`` is the fast refutation pass."""
    disc = [v for v in domain.variables if is_discrete(v)]
    rest = Domain([v for v in domain.variables if not is_discrete(v)])
    limit = MAX_CASES if not rest.variables else MAX_CONTINUOUS_CASES
    all_cases, exhaustive = cases(disc, limit)
    names = ", ".join(str(v.symbol) for v in disc)
    where = "; ".join(v.describe() for v in disc)
    n_exact = 0
    quick_started = time.process_time()
    done: list[dict] = []
    for case in all_cases:  # 1. every case, quickly (exact when nothing continuous is left)
        if time.process_time() - quick_started > CASES_SECONDS and not exhaustive:
            break
        done.append(case)
        l, r = _doit(_subs(lhs, case)), _doit(_subs(rhs, case))
        if not rest.variables or not _free(l, r):
            if _violates_constant(l, op, r):
                case, l, r = _first_failing(lhs, op, rhs, disc, case, done[:-1])
                return refuted("exact cases (small values first)", f"fails at {_show(case)}: lhs = {_short(l)}, "
                               f"rhs = {_short(r)}", {**{str(s): v for s, v in case.items()},
                                                       **_constant_sides(l, r)}, domain=where)
            n_exact += 1
            continue
        v = quick_continuous(l, op, r, rest, seed)
        if v is not None and v.status is Status.REFUTED:
            earlier = _first_failing_continuous(lhs, op, rhs, disc, case, done[:-1], rest, seed, quick_continuous)
            if earlier is not None:
                case, v = earlier
            return _with_case(v, case, where)
    all_cases = done if not exhaustive else all_cases
    statuses = []
    full = all_cases if (exhaustive and len(all_cases) <= 8) else all_cases[:FULL_CASES]
    if rest.variables:  # 2. the full continuous decision on the first cases
        for case in full:
            l, r = _doit(_subs(lhs, case)), _doit(_subs(rhs, case))
            v = continuous(l, op, r, rest, seed, False)
            if v.status is Status.REFUTED:
                return _with_case(v, case, where)
            statuses.append(v.status)
    if exhaustive and (not rest.variables or len(full) == len(all_cases)):
        if not rest.variables:
            return proved(f"exhaustive: all {len(all_cases)} cases exact",
                          f"holds in every case of {names} ({len(all_cases)} cases, exact)", domain=where,
                          cases=len(all_cases))
        status = "proved" if all(s is Status.PROVED for s in statuses) else "holds"
        maker = proved if status == "proved" else holds
        if any(s in (Status.INCONCLUSIVE, Status.ERROR) for s in statuses):
            return inconclusive("cases", f"some of the {len(all_cases)} cases of {names} were inconclusive")
        return maker(f"all {len(all_cases)} cases of {names}, each {status}",
                     f"every case of {names} ({len(all_cases)} cases) {status} over {rest.describe()}",
                     domain=where, cases=len(all_cases))
    # 3. not every case: symbolic reasoning over the integers
    ints = [v for v in disc if isinstance(v, IntegerVar)]
    how = symbolic_integers(lhs, op, rhs, ints, all_cases) if ints else None
    tried = _tried(all_cases, disc)
    if how:
        return proved(f"symbolic over the integers ({how.split(':')[0]})",
                      f"{how}; also exact at {tried}", domain=where, cases=len(all_cases))
    if any(s in (Status.INCONCLUSIVE, Status.ERROR) for s in statuses):
        return inconclusive("cases", f"some cases of {names} were inconclusive; exact at {tried}")
    more = f"; {len(full)} cases fully checked over {rest.describe()}" if rest.variables else ""
    return holds(f"exact cases ({len(all_cases)}), no symbolic proof",
                 f"holds at {tried}{more} — checked on these values only, not proved for every {names}",
                 domain=where, cases=len(all_cases))


FIRST_FAILING_SECONDS = 1.0
FIRST_FAILING_VALUES = 2000


def _gap(v: IntegerVar, value: int, tried: set) -> list[int]:
    """The integers of ``v``'s range not yet tried that come before ``value`` in the enumeration order (nearest
    the start of the range first: ``lo`` upwards, ``hi`` downwards, or outwards from 0)."""
    n = int(value)
    if v.lo is not None:
        between = range(v.lo, n)
    elif v.hi is not None:
        between = range(v.hi, n, -1)
    else:
        between = sorted((k for k in range(-abs(n), abs(n) + 1) if abs(k) < abs(n) or (abs(k) == abs(n) and k > n
                                                                                            and n < 0)),
                         key=lambda k: (abs(k), k < 0))
    return [k for k in between if k not in tried and v.admits(k)][:FIRST_FAILING_VALUES]


def _earlier_cases(disc: list, case: dict, done: list[dict]):
    """Cases that differ from the failing ``case`` in one integer variable, moved to an untried smaller value."""
    for v in disc:
        if not isinstance(v, IntegerVar):
            continue
        others = {s: x for s, x in case.items() if s != v.symbol}
        tried = {int(c[v.symbol]) for c in done if all(c.get(s) == x for s, x in others.items())}
        for k in _gap(v, int(case[v.symbol]), tried):
            yield {**case, v.symbol: sp.Integer(k)}


def _first_failing(lhs, op, rhs, disc: list, case: dict, done: list[dict]):
    """The first failing value of an integer variable: a failure found at a value spread over the decades
    (n = 20 after n = 1..12 passed) is moved to the smallest failing value in the gap (n = 14), checking the
    untried values in order."""
    deadline = time.process_time() + FIRST_FAILING_SECONDS
    for trial in _earlier_cases(disc, case, done):
        if time.process_time() > deadline:
            break
        l, r = _doit(_subs(lhs, trial)), _doit(_subs(rhs, trial))
        if not _free(l, r) and _violates_constant(l, op, r):
            return trial, l, r
    return case, _doit(_subs(lhs, case)), _doit(_subs(rhs, case))


def _first_failing_continuous(lhs, op, rhs, disc, case, done, rest, seed, quick_continuous):
    """As :func:`_first_failing` with continuous variables left: each earlier value gets the quick pass."""
    deadline = time.process_time() + FIRST_FAILING_SECONDS
    for trial in _earlier_cases(disc, case, done):
        if time.process_time() > deadline:
            break
        v = quick_continuous(_doit(_subs(lhs, trial)), op, _doit(_subs(rhs, trial)), rest, seed)
        if v is not None and v.status is Status.REFUTED:
            return trial, v
    return None


def _tried(all_cases: list[dict], disc: list) -> str:
    parts = []
    for v in disc:
        vals = sorted({int(c[v.symbol]) if c[v.symbol].is_Integer else c[v.symbol] for c in all_cases},
                      key=lambda t: (abs(t) if not isinstance(t, sp.Basic) else 0, t))
        shown = ", ".join(map(str, vals[:14])) + (", …" if len(vals) > 14 else "")
        parts.append(f"{v.symbol} ∈ {{{shown}}}")
    return "; ".join(parts)


def _free(l, r) -> set:
    out = set()
    for x in (l, r):
        out |= x.free_symbols if hasattr(x, "free_symbols") else set()
    return out


def _short(x) -> str:
    text = sp.sstr(x if not isinstance(x, sp.Basic) or x.is_Rational or not x.is_number else sp.N(x, 15))
    return text if len(text) < 80 else text[:77] + "…"


def _constant_sides(l, r) -> dict:
    return sides_at(l, r, {})


def _violates_constant(l, op, r) -> bool:
    if isinstance(l, sp.MatrixBase) or isinstance(r, sp.MatrixBase):
        if not (isinstance(l, sp.MatrixBase) and isinstance(r, sp.MatrixBase)) or l.shape != r.shape:
            return True
        return any(violates(a, "==", b, {}) for a, b in zip(l, r))
    return violates(l, op, r, {})


def _with_case(v: Verdict, case: dict, where: str) -> Verdict:
    ce = {**{str(s): val for s, val in case.items()}, **dict(v.counterexample or {})}
    return Verdict(v.status, f"case {_show(case)}: {v.method}", f"at {_show(case)}: {v.evidence}", ce,
                   {**dict(v.details), "cases_domain": where})


# --- symbolic reasoning with integer symbols ---------------------------------------------------------

def symbolic_integers(lhs, op: str, rhs, ints: list, tried: list[dict]) -> str | None:
    """How ``lhs == rhs`` was proved for every admissible integer (closed form or induction), or None."""
    if op != "==" or isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        return None
    deadline = time.process_time() + SYMBOLIC_SECONDS
    d = sp.sympify(lhs) - sp.sympify(rhs)
    if not d.has(sp.Sum, sp.Product):
        how = symbolic_zero(d, SYMBOLIC_SECONDS)
        return f"symbolic: lhs − rhs simplifies to 0 ({how}) with {', '.join(str(v.symbol) for v in ints)} " \
               "integer" if how else None
    from ..timelimit import bounded
    closed = bounded(lambda: d.doit(), max(0.1, deadline - time.process_time()), cpu=True)
    if closed is not None and not closed.has(sp.Sum, sp.Product):
        how = _zero_with_pieces(closed, lhs, rhs, max(0.1, deadline - time.process_time()))
        if how:
            return f"closed form by summation: lhs − rhs simplifies to 0 ({how})"
    if len(ints) == 1 and time.process_time() < deadline:
        return _induction(d, ints[0], tried, max(0.1, deadline - time.process_time()))
    return None


def _zero_with_pieces(expr: sp.Expr, lhs, rhs, seconds: float) -> str | None:
    """0 everywhere, allowing Piecewise branches on conditions where a side is undefined (r = 1 in a
    geometric sum with a 1/(1 − r) closed form)."""
    expr = sp.piecewise_fold(expr)
    if not isinstance(expr, sp.Piecewise):
        return symbolic_zero(expr, seconds)
    hows = []
    for piece, cond in expr.args:
        how = symbolic_zero(piece, seconds / max(1, len(expr.args)))
        if how:
            hows.append(how)
            continue
        if isinstance(cond, sp.Eq) and (isinstance(cond.lhs, sp.Symbol) or isinstance(cond.rhs, sp.Symbol)):
            sym, val = (cond.lhs, cond.rhs) if isinstance(cond.lhs, sp.Symbol) else (cond.rhs, cond.lhs)
            undefined = any(sp.sympify(side).xreplace({sym: val}).has(sp.zoo, sp.nan) for side in (lhs, rhs))
            if undefined:
                hows.append(f"{cond} excluded: a side is undefined there")
                continue
        return None
    return "; ".join(dict.fromkeys(hows))


def _induction(d: sp.Expr, var: IntegerVar, tried: list[dict], seconds: float) -> str | None:
    """d(n) = 0 for n ≥ n0 by induction: d(n0) = 0 exactly and d(n+1) − d(n) simplifies to 0, where each
    Sum(f, (k, a, n)) at n + 1 is Sum(f, (k, a, n)) + f(n + 1)."""
    n = var.symbol
    if var.lo is None:
        return None
    base = var.lo
    sums = [s for s in d.atoms(sp.Sum) if len(s.limits) == 1]
    if not sums or any(s.limits[0][2] != n or s.limits[0][1].has(n) for s in sums):
        return None
    if any(p.has(n) for p in d.atoms(sp.Product)):
        return None
    if d.xreplace({n: sp.Integer(base)}).doit() != 0:
        return None
    step_map = {}
    for s in sums:
        k, a, _ = s.limits[0]
        step_map[s.xreplace({n: n + 1})] = s + s.function.xreplace({k: n + 1})
    shifted = d.xreplace({n: n + 1})
    shifted = shifted.xreplace(step_map)
    how = symbolic_zero(sp.expand(shifted - d), seconds)
    if how:
        return (f"induction on {n}: base case {n} = {base} holds exactly and the step d({n}+1) − d({n}) "
                f"simplifies to 0 ({how})")
    return None
