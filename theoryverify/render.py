"""Plain-text rendering of results (the CLI table and pytest failure messages)."""
from __future__ import annotations

import json
from typing import Iterable

from .claims import Result


def _clip(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def table(results: Iterable[Result], wide: bool = False) -> str:
    """The verdict table: location, method and evidence cut to a column each ("…"), or whole with ``wide``
    (``verify --wide``; ``--json`` has every field)."""
    clip = (lambda text, width: " ".join(str(text).split())) if wide else _clip
    rows = [("id", "location", "kind", "verdict", "method", "evidence")]
    for r in results:
        mark = "" if r.as_expected else (" (not checkable here)" if r.unavailable else " (!)")
        cls = f" [{r.finding.value}]" if r.finding else (" [outside hypotheses]" if r.outside_hypotheses else "")
        rows.append((r.claim.id, clip(r.claim.location, 28), r.claim.kind.value,
                     r.verdict.status.value + cls + mark, clip(r.verdict.method, 34), clip(r.verdict.evidence, 70)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def failure(result: Result) -> str:
    """A pytest failure message: what was expected, what came out, and the counterexample."""
    c, v = result.claim, result.verdict
    lines = [f"{c.id} ({c.location}): expected {c.expected_label}"
             + (f" ({c.finding.value})" if c.finding else "") + f", got {v.status.value}",
             f"  statement: {c.statement}", f"  method: {v.method}", f"  evidence: {v.evidence}"]
    if v.counterexample:
        lines.append("  counterexample: " + json.dumps(v.to_json()["counterexample"], ensure_ascii=False))
    lines.append(f"  seed: {v.seed}; rerun: python -m theoryverify verify --claim {c.id}")
    return "\n".join(lines)


def summary(results: list[Result]) -> str:
    """One line: verdicts, refutations by finding class (a planted twin is not the paper's finding: it is counted
    apart, "planted errors: N of N caught"), and how many differ from the registry's expectation."""
    planted = [r for r in results if r.claim.planted_of]
    results = [r for r in results if not r.claim.planted_of]
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict.status.value] = counts.get(r.verdict.status.value, 0) + 1
    unexpected = sum(not r.as_expected and not r.unavailable for r in results)
    missing = sum(bool(r.unavailable) for r in results)
    parts = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    classes: dict[str, int] = {}
    for r in results:
        if r.verdict.status.value == "refuted":
            key = r.finding.value if r.finding else "unclassified"
            classes[key] = classes.get(key, 0) + 1
    outside = sum(r.outside_hypotheses for r in results)
    found = ", ".join(f"{k}: {v}" for k, v in sorted(classes.items())) or "none"
    tail = f"; {missing} not checkable here (an input outside the repository is missing)" if missing else ""
    unexpected += sum(not r.as_expected and not r.unavailable for r in planted)
    caught = sum(r.verdict.status.value == "refuted" and r.as_expected for r in planted)
    twins = f"{len(planted)} planted twin{'' if len(planted) == 1 else 's'}"
    if not results:  # only planted twins ran (verify --claim X-planted): no claim verdicts to count
        return (f"{twins} — planted errors: {caught} of {len(planted)} caught"
                f"; {unexpected} differ from the registry's expectation{tail}")
    return (f"{len(results)} claim{'' if len(results) == 1 else 's'}" + (f" and {twins}" if planted else "")
            + f" — {parts}; refuted by finding class — {found}"
            + (f"; {outside} fail only outside the stated hypotheses" if outside else "")
            + (f"; planted errors: {caught} of {len(planted)} caught" if planted else "")
            + f"; {unexpected} differ from the registry's expectation{tail}")
