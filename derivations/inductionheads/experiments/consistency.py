"""Proof-consistency records (spec §3, "Uniform instructions: proof consistency") as data, and their assessment.

For every lemma, proposition, definition and theorem of the paper one :class:`Record` holds

* (a) what survives of the statement: main-text and appendix-restatement quotes (verbatim from the paper text
  ``induction-heads-approx-optim.txt``, with their 1-based line numbers; ``[…]`` marks lost material) and the RC
  choices that complete it;
* (b) the surviving proof sentences in order (:class:`Step`) and every later use (:class:`Use`);
* (c) per use, the comparison with the statement by aspect (asymptotic symbol, variables, time window,
  hypotheses): ``match`` (the surviving words agree), ``differs`` (they disagree), ``lost`` (the compared piece is
  lost), ``n/a``;
* (d) per proof step, the registered claims that re-derive it in our reconstruction (ids without the paper prefix);
* (e) prose properties ("monotonically increasing", "barely increases", "tight estimation", …) → the claims that
  test them;

plus the in-text cross-references of the result (resolved mechanically against the appendix section spans), the
discrepancies the surviving text itself shows, the pieces whose loss makes the comparison not checkable, and notes.

:func:`assess` turns a record into a verdict: every quote must occur at its line (whitespace normalised, ``[…]``
removed) and every linked claim id must exist, else *refuted* (the planted-error kind of this module: a misquote or a
wrong claim id); a discrepancy (declared, or an unresolved cross-reference) gives *refuted* with both quotes and their
lines as the counterexample; otherwise lost pieces give *inconclusive* ("not checkable: …"), and only a record with
nothing lost is *holds* ("consistent").  Verdicts are about the consistency of the surviving text, not about the
truth of the results (that is what the linked claims test).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping

from ..printed.proof_text import (ASPECTS, LOST, PAPER_PREFIX, STATUSES, TEXT_ITEMS, CrossRef, Quote, Record)
from .support import PAPERS_DIR_ENV, find_paper_text

PAPER_FILE = "induction-heads-approx-optim.txt"


# ---------------------------------------------------------------------------------------------------------------
# the paper text
# ---------------------------------------------------------------------------------------------------------------

def paper_path() -> Path | None:
    """The paper text (the engine's search path for paper texts,
    :func:`.support.find_paper_text`); None if absent."""
    return find_paper_text(PAPER_FILE)


@lru_cache(maxsize=4)
def paper_lines(path: str | None = None) -> tuple[str, ...]:
    p = Path(path) if path else paper_path()
    if p is None:
        raise FileNotFoundError(f"{PAPER_FILE} not found (set {PAPERS_DIR_ENV})")
    return tuple(p.read_text(encoding="utf-8").splitlines())


def normalise(text: str) -> str:
    """Drop the lost-material marker and collapse whitespace (the only normalisation allowed)."""
    return " ".join(text.replace(LOST, "").split())


def locate(quote: Quote, lines: tuple[str, ...]) -> tuple[bool, list[int]]:
    """(found at its stated line, every line where the normalised quote occurs)."""
    needle = normalise(quote.text)
    hits = [i + 1 for i, ln in enumerate(lines) if needle and needle in normalise(ln)]
    return quote.line in hits, hits


_HEADING = re.compile(r"^(Appendix [A-D]|[A-D](?:\.\d+)+)\s")


def headings(lines: tuple[str, ...]) -> list[tuple[str, int]]:
    """(label, line) of the appendix headings ("Appendix C", "C.2", "A.3.2", …)."""
    out = []
    for i, ln in enumerate(lines):
        m = _HEADING.match(ln)
        if m:
            out.append((m.group(1), i + 1))
    return out


def _level(label: str) -> int:
    return 0 if label.startswith("Appendix") else label.count(".")


def section_span(label: str, lines: tuple[str, ...]) -> tuple[int, int] | None:
    """1-based inclusive line span of the appendix section ``label`` (up to the next heading of its level or above)."""
    hs = headings(lines)
    for k, (lab, ln) in enumerate(hs):
        if lab == label:
            end = len(lines)
            for lab2, ln2 in hs[k + 1:]:
                if _level(lab2) <= _level(label):
                    end = ln2 - 1
                    break
            return ln, end
    return None


def resolve(ref: CrossRef, lines: tuple[str, ...]) -> dict:
    """Does the referenced section contain the referenced material?  Also where the material actually is."""
    span = section_span(ref.target, lines)
    kws = [k.lower() for k in ref.keywords]
    found = []
    if span is not None:
        lo, hi = span
        hi = min(hi, lo + ref.within - 1) if ref.within else hi
        found = [i for i in range(lo, hi + 1) if any(k in lines[i - 1].lower() for k in kws)]
    elsewhere = [i + 1 for i, ln in enumerate(lines) if any(k in ln.lower() for k in kws)]
    return {"target": ref.target, "span": span, "resolved": bool(found), "lines_in_target": found[:5],
            "material_found_at": [i for i in elsewhere if i not in found and i != ref.quote.line][:8]}


# ---------------------------------------------------------------------------------------------------------------
# assessment
# ---------------------------------------------------------------------------------------------------------------

def quotes(rec: Record) -> list[tuple[str, Quote]]:
    """Every quote of a record, labelled by where it sits in the record."""
    out: list[tuple[str, Quote]] = [("statement", q) for q in rec.statement]
    out += [("restatement", q) for q in rec.restatement]
    out += [("proof", s.quote) for s in rec.proof]
    out += [(f"use: {u.where}", u.quote) for u in rec.uses]
    out += [("prose", p.quote) for p in rec.prose]
    out += [(f"cross-reference -> {c.target}", c.quote) for c in rec.crossrefs]
    for d in rec.discrepancies:
        out += [(f"discrepancy ({d.kind}): statement", q) for q in d.statement]
        out += [(f"discrepancy ({d.kind}): use", q) for q in d.use]
    return out


def linked_claims(rec: Record) -> list[str]:
    ids = list(rec.tested_by) + [c for s in rec.proof for c in s.claims] + [c for p in rec.prose for c in p.claims]
    return list(dict.fromkeys(ids))


def verify_quotes(items: Iterable[tuple[str, Quote]], lines: tuple[str, ...]) -> list[dict]:
    """The quotes that do not occur at their stated line (with the lines where they do occur, if any)."""
    bad = []
    for where, q in items:
        ok, hits = locate(q, lines)
        if not ok:
            bad.append({"in": where, "line": q.line, "quote": q.text, "occurs_at_lines": hits[:5]})
    return bad


def parameter_counts(lines: tuple[str, ...]) -> dict:
    """§5.1.2-§5.2 parameter bookkeeping read from the words: 1 (first layer) + 5 (second layer) = 6 (all), and the
    balance merges w_K, w_Q so that 5 - 1 = 4 parameters remain in Stage II."""
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}

    def num(pattern: str) -> int | None:
        m = re.search(pattern, " ".join(lines))
        if not m:
            return None
        tok = m.group(1).lower()
        return int(tok) if tok.isdigit() else words.get(tok)
    first = num(r"This layer has only (\w+) trainable parameter")
    second = num(r"This layer has (\w+) trainable parameters")
    total = num(r"The set of all (\w+) trainable parameters")
    reduced = num(r"reduced for (\w+) parameters")
    ok = None not in (first, second, total, reduced) and first + second == total and second - 1 == reduced
    return {"first layer": first, "second layer": second, "total": total, "Stage II reduced": reduced, "consistent": ok}


def assess(rec: Record, lines: tuple[str, ...], known_ids: set[str], expected: Mapping[str, str] | None = None):
    """The verdict of one record (module docstring).  ``known_ids``: registered claim ids (with the paper prefix)."""
    from theoryverify import holds, inconclusive, refuted

    bad = verify_quotes(quotes(rec), lines)
    if bad:
        return refuted("quote verification", f"{len(bad)} quote(s) of {rec.result} do not occur at their line in the "
                                             f"paper text (whitespace normalised)", {"misquotes": bad})
    unknown = [c for c in linked_claims(rec) if PAPER_PREFIX + c not in known_ids]
    if unknown:
        return refuted("linked claims", f"{rec.result}: linked claim id(s) not in the registry: {', '.join(unknown)}",
                       {"unknown claim ids": unknown})
    bad_status = [(u.where, k, v) for u in rec.uses for k, v in u.aspects.items() if k not in ASPECTS or v not in STATUSES]
    if bad_status:
        return refuted("record schema", f"{rec.result}: unknown aspect/status", {"entries": bad_status})

    refs = [{"quote": c.quote.text, "line": c.quote.line, **resolve(c, lines)} for c in rec.crossrefs]
    found = [{"kind": d.kind, "statement": [{"line": q.line, "quote": q.text} for q in d.statement],
              "use": [{"line": q.line, "quote": q.text} for q in d.use], "explanation": d.explanation}
             for d in rec.discrepancies]
    found += [{"kind": "cross-reference", "use": [{"line": r["line"], "quote": r["quote"]}],
               "statement": [{"line": ln, "quote": lines[ln - 1][:160]}
                             for ln in ([r["span"][0]] if r["span"] else []) + r["material_found_at"][:1]],
               "explanation": f"the referenced section {r['target']} (lines {r['span']}) does not contain the material; "
                              f"it occurs at lines {r['material_found_at']}"} for r in refs if not r["resolved"]]
    differs = [(u.where, u.quote.line, k) for u in rec.uses for k, v in u.aspects.items() if v == "differs"]
    if differs and not rec.discrepancies:
        return refuted("record schema", f"{rec.result}: a use marked 'differs' without a recorded discrepancy",
                       {"entries": differs})

    details = details_of(rec, refs, expected or {})
    if rec.proof_span:
        a, b = rec.proof_span
        details["proof text (verbatim, in order)"] = [f"l.{i}: {lines[i - 1][:240]}" for i in range(a, b + 1)
                                                      if lines[i - 1].strip() not in ("", "-", "•")]
    else:
        details["proof text (verbatim, in order)"] = ["(no proof in the text: cited or absent)"]
    if rec.key == "pc-lemma54":
        details["parameter counts"] = counts = parameter_counts(lines)
        if not counts["consistent"]:
            found.append({"kind": "variables", "statement": [{"line": 99, "quote": "This layer has 5 trainable parameters"}],
                          "use": [{"line": 126, "quote": "the training dynamics are reduced for four parameters"}],
                          "explanation": f"parameter bookkeeping fails: {counts}"})
    n_cmp = sum(1 for u in rec.uses for v in u.aspects.values() if v == "match")
    if found:
        return refuted("proof consistency (surviving text)",
                       f"{rec.result}: {len(found)} discrepancy(ies) in the surviving text: "
                       + "; ".join(f"{d['kind']}: statement l.{'/'.join(str(q['line']) for q in d['statement'])} vs "
                                   f"use l.{'/'.join(str(q['line']) for q in d['use'])} — {d['explanation'][:160]}"
                                   for d in found),
                       {"discrepancies": found}, **details)
    if rec.missing:
        return inconclusive("proof consistency (surviving text)",
                            f"{rec.result}: {n_cmp} surviving word-level comparison(s) agree and every cross-reference "
                            f"resolves; not checkable: " + "; ".join(rec.missing), **details)
    return holds("proof consistency (surviving text)", f"{rec.result}: consistent ({n_cmp} comparisons)", **details)


def details_of(rec: Record, refs: list[dict], expected: Mapping[str, str]) -> dict:
    def lab(c: str) -> str:
        return f"{c} ({expected.get(PAPER_PREFIX + c, '?')})"
    return {
        "result": rec.result, "location": rec.location,
        "statement": [f"l.{q.line}: {q.text}" for q in rec.statement],
        "restatement": [f"l.{q.line}: {q.text}" for q in rec.restatement],
        "completion (RC)": {"rc": list(rec.rc), "completion": rec.completion},
        "statement tested by": [lab(c) for c in rec.tested_by] or ["(no claim)"],
        "proof steps": [{"line": s.quote.line, "quote": s.quote.text, "re-derived by": [lab(c) for c in s.claims],
                         "note": s.note} for s in rec.proof],
        "uses": [{"where": u.where, "line": u.quote.line, "quote": u.quote.text, "aspects": dict(u.aspects),
                  "note": u.note} for u in rec.uses],
        "prose properties": [{"line": p.quote.line, "quote": p.quote.text, "reading": p.reading,
                              "tested by": [lab(c) for c in p.claims] or ["(untested)"]} for p in rec.prose],
        "cross-references": refs,
        "not checkable": list(rec.missing), "notes": list(rec.notes),
        "text items": [{"item": t.name, "lines": [q.line for q in t.quotes], "note": t.note,
                        "attached to": list(t.attached_to)} for t in TEXT_ITEMS if rec.key == "pc-thm55"],
    }
