"""Checks over an explicit, finite list of cases.

If the cases enumerate the whole finite statement (e.g. all 6 bijections of n = 3) and the
predicate is evaluated in exact arithmetic (``exact=True``), the verdict is ``proved`` by
exhaustion; otherwise (a sample, or float arithmetic) it is ``holds`` with the count and the
arithmetic named.  The first failing case is the counterexample.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..evidence_types import CouldHaveFailed, attach
from ..verdicts import Verdict, holds, inconclusive, plain, proved, refuted

Outcome = tuple[bool, dict[str, Any]]  # (ok, what was observed)


def check_cases(cases: Iterable[tuple[str, Any]], predicate: Callable[[Any], Outcome], *,
                exhaustive: bool, what: str = "cases", exact: bool = True) -> Verdict:
    """Check ``predicate`` on each ``(label, case)``; the first failure refutes (its label and what was observed).
    Every case passing is *proved* only when the cases are ``exhaustive`` and evaluated ``exact``ly, else it holds.

    >>> from fractions import Fraction
    >>> cases = [(f"n={n}", n) for n in range(1, 6)]
    >>> check_cases(cases, lambda n: (Fraction(1, n) <= 1, {}), exhaustive=True).status.value
    'proved'
    >>> check_cases(cases, lambda n: (n * n < 10, {"n2": n * n}), exhaustive=True).counterexample["case"]
    'n=4'
    """
    arith = "exact" if exact else "float"
    n = 0
    for label, case in cases:
        ok, info = predicate(case)
        n += 1
        if not ok:
            return refuted(f"{arith} case evaluation", f"fails at {label}", {"case": label, **plain(info)})
    if n == 0:
        return inconclusive(f"{arith} case evaluation", f"no {what} to check")
    if exhaustive and exact:
        return attach(proved(f"exhaustive exact enumeration ({n} {what})", f"all {n} {what} checked exactly",
                             cases=n), CouldHaveFailed("search", f"any one of the {n} {what} failing the predicate "
                                                                 f"would refute"))
    scope = "all" if exhaustive else "sampled"
    return attach(holds(f"{arith} evaluation on {scope} {n} {what}", f"all {n} {scope} {what} satisfy it ({arith})",
                        cases=n), CouldHaveFailed("search", f"any one of the {n} {what} failing the predicate "
                                                            f"would refute"))
