"""``python -m theoryverify diff OLD.json NEW.json [--json]``: which verdicts changed between two runs.

For an author revising a paper (did the revision fix the erratum, break a lemma?) and for a reviewer of a change
to this repository (which verdicts does the change move?).  Both files are ``verify --json`` outputs: a JSON list
of result rows, each with at least ``id`` and ``status``; ``finding`` (the class of a refutation) and ``expected``
(the registry's expectation) are read when present.

A claim counts as changed when it is only in one run (``added`` / ``removed``), when its status differs
(``status``), when it is refuted in both runs with a different finding class (``finding``; a refutation with no
class is ``unclassified``, as in the report), or when its expectation differs (``expected``).  One claim can change
in several ways; the summary counts each kind.

Exit codes: 0 nothing changed, 1 something changed, 2 bad input (a missing or unreadable file, not JSON, not a
list of rows, a repeated claim id), reported as one line by the CLI.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

from .errors import TheoryverifyError

#: the kinds of change, in the order the summary lists them.
KINDS = ("status", "finding", "expected", "added", "removed")
_KIND_WORDS = {"status": "status", "finding": "finding class", "expected": "expectation",
               "added": "added", "removed": "removed"}


_JSON_TYPES = {dict: "object", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}


class DiffInputError(TheoryverifyError):
    """A file given to ``diff`` is not a ``verify --json`` output."""


def load_rows(path: str | Path) -> dict[str, Mapping[str, Any]]:
    """The rows of one ``verify --json`` output, by claim id; DiffInputError (one line) when it is not one."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DiffInputError(f"{p}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DiffInputError(f"{p}: cannot read ({type(exc).__name__}: {exc})") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise DiffInputError(f"{p}: not JSON ({exc})") from None
    if not isinstance(data, list):
        raise DiffInputError(f"{p}: not a list of result rows (a `verify --json` output); got a JSON "
                             f"{_JSON_TYPES.get(type(data), type(data).__name__)}")
    rows: dict[str, Mapping[str, Any]] = {}
    for i, row in enumerate(data):
        if not (isinstance(row, dict) and isinstance(row.get("id"), str) and isinstance(row.get("status"), str)):
            raise DiffInputError(f"{p}: row {i} is not a result row (an object with string 'id' and 'status')")
        if row["id"] in rows:
            raise DiffInputError(f"{p}: claim id {row['id']!r} appears twice")
        rows[row["id"]] = row
    return rows


def finding_of(row: Mapping[str, Any] | None) -> str | None:
    """The finding class of a refuted row ("unclassified" when the row names none); None otherwise."""
    if row is None or row["status"] != "refuted":
        return None
    return row.get("finding") or "unclassified"


def _side(row: Mapping[str, Any] | None, field: str) -> Any:
    if row is None:
        return None
    return finding_of(row) if field == "finding" else row.get(field)


def change(claim_id: str, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The change object of one claim, or None when its verdict, class and expectation are the same in both."""
    if old is None:
        kinds = ["added"]
    elif new is None:
        kinds = ["removed"]
    else:
        kinds = [k for k in ("status", "expected") if old.get(k) != new.get(k)]
        if old["status"] == new["status"] == "refuted" and finding_of(old) != finding_of(new):
            kinds.insert(1 if "status" in kinds else 0, "finding")
    if not kinds:
        return None
    out: dict[str, Any] = {"id": claim_id, "kinds": kinds}
    for field in ("status", "finding", "expected"):
        out[field] = {"old": _side(old, field), "new": _side(new, field)}
    out["note"] = _note(kinds, old, new)
    return out


def _note(kinds: Sequence[str], old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> str:
    if "added" in kinds:
        return "added (only in the new run)"
    if "removed" in kinds:
        return "removed (only in the old run)"
    parts = []
    if "finding" in kinds:
        parts.append("finding class changed")
    if "expected" in kinds:
        parts.append(f"expectation {old.get('expected')} → {new.get('expected')}")
    was, now = old.get("as_expected"), new.get("as_expected")
    if isinstance(was, bool) and isinstance(now, bool) and was != now:
        parts.append("now as expected" if now else "now differs from the expectation")
    return "; ".join(parts)


def diff(old: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The change objects of every claim id in either run that changed, sorted by id."""
    changes = (change(cid, old.get(cid), new.get(cid)) for cid in sorted(set(old) | set(new)))
    return [c for c in changes if c is not None]


def _arrow(pair: Mapping[str, Any]) -> str:
    a, b = (v if v is not None else "—" for v in (pair["old"], pair["new"]))
    return str(a) if a == b else f"{a} → {b}"


def summary_line(changes: Sequence[Mapping[str, Any]], old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """One line: how many claims changed, with a count per kind of change."""
    compared = len(set(old) | set(new))
    if not changes:
        return f"No verdict changed ({compared} claims compared)."
    counts = Counter(k for c in changes for k in c["kinds"])
    kinds = ", ".join(f"{counts[k]} {_KIND_WORDS[k]}" for k in KINDS if counts[k])
    return f"{len(changes)} of {compared} claims changed: {kinds}."


def render(changes: Sequence[Mapping[str, Any]], old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """A Markdown table (id | old → new | finding old → new | note), then the summary line."""
    from .report.markdown import table
    lines: list[str] = []
    if changes:
        lines = table(["id", "old → new", "finding old → new", "note"],
                      [[f"`{c['id']}`", _arrow(c["status"]), _arrow(c["finding"]), c["note"]] for c in changes])
        lines.append("")
    return "\n".join(lines + [summary_line(changes, old, new)])


def main(args) -> int:
    """The ``diff`` command (``args.old``, ``args.new``, ``args.json``): 0 nothing changed, 1 something did;
    bad input raises :class:`DiffInputError`, which the CLI reports as one line with exit code 2."""
    old, new = load_rows(args.old), load_rows(args.new)
    changes = diff(old, new)
    if args.json:
        print(json.dumps(changes, indent=1, ensure_ascii=False))
    else:
        print(render(changes, old, new))
    return 1 if changes else 0
