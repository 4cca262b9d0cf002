"""Checks over an explicit, finite list of cases (exact arithmetic).

If the cases enumerate the whole finite statement (e.g. all 6 bijections of n = 3) the verdict
is ``proved`` by exhaustion; if they are a sample (random relation sets) it is ``holds`` with
the count.  The first failing case is the counterexample.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..verdicts import Verdict, holds, inconclusive, plain, proved, refuted

Outcome = tuple[bool, dict[str, Any]]  # (ok, what was observed)


def check_cases(cases: Iterable[tuple[str, Any]], predicate: Callable[[Any], Outcome], *,
                exhaustive: bool, what: str = "cases") -> Verdict:
    n = 0
    for label, case in cases:
        ok, info = predicate(case)
        n += 1
        if not ok:
            return refuted("exact enumeration", f"fails at {label}", {"case": label, **plain(info)})
    if n == 0:
        return inconclusive("exact enumeration", f"no {what} to check")
    if exhaustive:
        return proved(f"exhaustive exact enumeration ({n} {what})", f"all {n} {what} checked exactly",
                      cases=n)
    return holds(f"exact evaluation on {n} sampled {what}", f"all {n} sampled {what} satisfy it exactly",
                 cases=n)
