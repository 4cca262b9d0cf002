"""The Markdown page of one paper, read in five minutes (issue 28, items 1-2).

Why: the older page listed every row in a table, every sweep in full and the evidence standard once per claim
(929 KB for one paper, long cells cut with "…").  This page shows, in order:

1. a summary of at most one screen: the verdicts and findings counted by distinct claim (profile twins merged,
   :mod:`.cards`) and the top findings, main results first;
2. one card per distinct finding, grouped by class and, where claims declare one, by root cause
   (``ClaimSet.add(cause=...)``): the paper's words, what is wrong, the counterexample or fit with the hypotheses,
   the class, the readings, a command that reproduces it; long evidence in a collapsible block, never cut;
3. the refutations that do not count (outside the hypotheses) and the inconclusive verdicts, one line each;
4. the passes grouped by the paper's sections, one line each saying what they cover;
5. a glossary: the verdicts, the finding classes and every evidence rule the rows cite, each defined once, with
   an anchor that the lines above link to;
6. details: the figures and fits of the claims that are not findings, and the location index.

Nothing is lost: every row, whole (sweeps, parts, per-seed values), is in ``<paper>.json`` beside the page
(:func:`rows_json`, the rows ``verify --json`` prints).  Pure functions of the rows: no I/O.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..evidence import supporting, sweeps
from ..findings import Finding
from ..locations import location_refs, ref_key
from ..standards import STANDARDS
from .cards import (ASIDE, CLASSES, LABEL, _labels, NO_FINDING, Card, PlantedError, brief, cards, clauses, decisive, finding_counts,
                    full_value, is_planted, number_first, planted_errors, planted_line, root_causes, status_counts)
from . import texsections
from .markdown import FINDINGS, RULE_HEADINGS, STATUSES, anchor, header, table

#: inline text longer than this (characters) goes into a collapsible block, whole
LONG = 300
#: at most this many findings are listed in the summary (the cards list them all)
TOP = 8
#: what each verdict means (the glossary's first part)
VERDICTS = {
    "proved": "shown symbolically (or by exhaustive enumeration) for every admissible value",
    "holds": "every check passed on the configurations named; numeric evidence, not a proof",
    "refuted": "a counterexample or a fit inside the stated hypotheses contradicts the statement; its class says "
               "what that means for the paper",
    "inconclusive": "the evidence decides neither way (the line says why: an evidence rule, or a check that could "
                    "not conclude)",
    "error": "the check itself broke: a bug in the claim or the engine, not a verdict on the paper",
}
_CLASS_HEADING = {**{f.value: f.heading for f in Finding}, "unclassified": "Refuted, not registered as a finding"}
_MAIN = ("Theorem", "Proposition", "Corollary")  # a location naming one of these is a main result


def oneline(text: Any) -> str:
    """Text on one line (Markdown list items and headings), nothing cut."""
    return " ".join(str(text if text is not None else "").split())


def rows_json(results: Sequence[Mapping[str, Any]]) -> str:
    """The rows as ``verify --json`` prints them, less ``runtime_s`` (the one field that differs between two runs
    with the same seed; the page's Generated line has the run time), so that the file is reproducible."""
    rows = [{k: v for k, v in r.items() if k != "runtime_s"} for r in results]
    return json.dumps(rows, indent=1, ensure_ascii=False) + "\n"


def is_main(c: Card) -> bool:
    return any(ref.split(" ")[0] in _MAIN for ref in location_refs(c.location)) or "abstract" in c.location.lower()


def importance(c: Card) -> tuple:
    """Sort key of the summary's top findings: errata first (the class order), main results before lemmas and
    equations, a finding with a counterexample or fit before one without; then the paper's order."""
    return (CLASSES.index(c.finding) if c.finding in CLASSES else len(CLASSES), not is_main(c),
            not (c.counterexample or c.fit))


def asides(text: str) -> list[str]:
    """The top-level parentheticals of ``text`` longer than :data:`.cards.ASIDE` characters (brackets included)."""
    out, depth, start = [], 0, None
    for i, ch in enumerate(text):
        if ch == "(" and depth == 0:
            start = i
        depth += (ch in "([{") - (ch in ")]}")
        if ch == ")" and depth == 0 and start is not None:
            if i - start + 1 > ASIDE:
                out.append(text[start:i + 1])
            start = None
    return out


class Glossary:
    """The rules, standards and repeated settings the page cites, each defined once; :meth:`ref` returns a link
    to a rule, :meth:`shorten` puts links in place of the settings that several findings repeat."""

    def __init__(self) -> None:
        self.rules: dict[str, str] = {}  # rule text -> anchor
        self.settings: dict[str, str] = {}  # a long parenthetical that several findings' reasons repeat -> anchor

    def collect_settings(self, texts: Iterable[str]) -> None:
        """Number each long parenthetical that occurs in at least two of ``texts`` (in their order)."""
        seen = Counter(a for t in texts for a in dict.fromkeys(asides(oneline(t))))
        for a, n in seen.items():
            if n > 1 and a not in self.settings:
                self.settings[a] = f"setting-{len(self.settings) + 1}"

    def shorten(self, text: str) -> str:
        text = oneline(text)
        for a, name in self.settings.items():
            text = text.replace(a, f"([{name.replace('-', ' ')}](#{name}))")
        return text

    def ref(self, text: str, label: str | None = None) -> str:
        text = oneline(text)
        standard = _standard_texts().get(text)
        if standard:  # the rule is an evidence standard, which the glossary defines already: defined once
            return f"[{label or standard}](#standard-{standard})"
        if text not in self.rules:
            self.rules[text] = f"rule-{len(self.rules) + 1}"
        name = self.rules[text]
        return f"[{label or name.replace('rule-', 'rule ')}](#{name})"

    def collect(self, results: Sequence[Mapping[str, Any]]) -> None:
        """Number every rule text the rows carry (``"rule"`` keys of their details), in the rows' order."""
        for r in results:
            for text in _rule_texts(r.get("details") or {}):
                self.ref(text)

    def section(self) -> list[str]:
        lines = ["## Glossary", "", '<a id="verdicts"></a>**Verdicts.**', ""]
        lines += [f"- <a id=\"verdict-{s}\"></a>**{s}**: {VERDICTS[s]}." for s in STATUSES]
        lines += ["", "**Finding classes** (a refutation's class; only *erratum* says the paper is wrong).", ""]
        lines += [f"- <a id=\"class-{f.value}\"></a>**{f.value}** ({f.heading}): {f.meaning}." for f in Finding]
        lines += ["- <a id=\"class-unclassified\"></a>**unclassified**: refuted, but the registry did not expect "
                  "it: a finding not yet classed, or a bug to look at.", ""]
        lines += ["**Evidence standards** (`theoryverify/standards.py`): a verdict that breaks one is made "
                  "inconclusive, and what the check alone concluded is kept in the JSON row.", ""]
        defaults = STANDARDS.rules()
        for key, heading in RULE_HEADINGS.items():
            lines.append(f"- <a id=\"standard-{key}\"></a>**{key}** ({heading}): {oneline(defaults[key])}")
        if self.settings:
            lines += ["", "**Settings** that several findings name (each finding links here instead of repeating "
                      "it).", ""]
            lines += [f"- <a id=\"{a}\"></a>**{a.replace('-', ' ')}**: {t[1:-1]}" for t, a in self.settings.items()]
        if self.rules:
            lines += ["", "**Decision rules** the verdicts cite (each fit's or grid's rule, as the check recorded "
                      "it).", ""]
            lines += [f"- <a id=\"{a}\"></a>**{a.replace('rule-', 'rule ')}**: {t}" for t, a in self.rules.items()]
        return lines + [""]


def _standard_texts() -> dict[str, str]:
    """Each evidence standard's text (on one line) -> its key: a rule a check records with a standard's very text is
    defined once, as that standard."""
    return {oneline(text): key for key, text in STANDARDS.rules().items() if key in RULE_HEADINGS}


def _rule_texts(node: Any) -> Iterable[str]:
    if isinstance(node, Mapping):
        for k, v in node.items():
            if k == "rule" and isinstance(v, str) and len(v) > 40:
                yield v
            else:
                yield from _rule_texts(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _rule_texts(v)


#: a list longer than this is named by its length and range on the page (every entry is in the JSON row)
LISTED = 8


def compact_value(x: Any, key: Any = None) -> str:
    """A counterexample's value for the page: whole, except that a list of more than :data:`LISTED` entries is
    named by its length (and range, for numbers) with a pointer to the JSON row, where it is whole — never cut
    with "…"."""
    if hasattr(x, "tolist") and not isinstance(x, (list, tuple)):
        x = x.tolist()
    if isinstance(x, Mapping):
        return "{" + ", ".join(f"{k}: {compact_value(v, k)}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)) and len(x) > LISTED:
        nums = [v for v in x if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(nums) == len(x):
            return f"{len(x)} values from {full_value(min(nums))} to {full_value(max(nums))} (all in the JSON row)"
        return f"{len(x)} entries (all in the JSON row)"
    return full_value(x, key)


#: a counterexample coordinate shown on the card's line itself is at most this long (longer ones go below)
SHORT_VALUE = 80


def _zero_array(x: Any) -> str | None:
    """"a 2×2 zero matrix" for a nested list of zeros (the point a reader must see: Q = 0, the initialisation),
    else None."""
    if hasattr(x, "tolist") and not isinstance(x, (list, tuple)):
        x = x.tolist()
    shape, level = [], x
    while isinstance(level, (list, tuple)) and level:
        shape.append(len(level))
        level = level[0]
    if not shape:
        return None

    def zeros(v: Any) -> bool:
        if isinstance(v, (list, tuple)):
            return all(zeros(u) for u in v)
        return isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0

    if not zeros(x):
        return None
    return f"0 (a {'×'.join(map(str, shape))} zero {'matrix' if len(shape) == 2 else 'array'})"


def counterexample_lines(ce: Mapping[str, Any]) -> list[str]:
    """A counterexample whole: inline when short; when long, its scalar coordinates (and any all-zero array, named
    so: "Q = 0 (a 2×2 zero matrix)") on the line itself — the point a reader checks against the hypotheses — and
    its long texts below it, in a collapsible block when long; its arrays and mappings (series, per-part fits, the
    hypotheses map that the card's Hypotheses line states) are named, each whole in the HTML card (a table, one
    row per coordinate) and the JSON row."""
    pairs = [(str(k), _zero_array(v) or compact_value(v, k)) for k, v in ce.items()]
    whole = "; ".join(f"{k} = {v}" for k, v in pairs)
    if len(oneline(whole)) <= LONG:
        return [f"- **Counterexample:** {oneline(whole)}"]
    plain = [(k, v) for (k, v), raw in zip(pairs, ce.values()) if len(v) <= SHORT_VALUE and (
        _zero_array(raw) or not isinstance(raw, (list, tuple, Mapping)) and not hasattr(raw, "tolist"))]
    arrays = [k for (k, v), raw in zip(pairs, ce.values()) if k not in dict(plain) and (
        isinstance(raw, (list, tuple, Mapping)) or hasattr(raw, "tolist"))]
    rest = [k for k, _v in pairs if k not in dict(plain) and k not in arrays]
    if not plain:
        return _collapsible("Counterexample", whole)
    head = oneline("; ".join(f"{k} = {v}" for k, v in plain))
    named = ((f"; {', '.join(rest)}: below" if rest else "") + (f"; {', '.join(arrays)}: whole in the HTML card "
             "and the JSON row" if arrays else "")).removeprefix("; ")
    if not named:
        return [f"- **Counterexample:** {head}"]
    return [f"- **Counterexample:** {head} (and {named})"] + (_collapsible(
        "Counterexample, the rest", "; ".join(f"{k} = {v}" for k, v in pairs if k in rest)) if rest else [])


def class_link(cls: str) -> str:
    return f"[{cls}](#class-{cls})" if cls != NO_FINDING else cls


def _collapsible(label: str, text: str) -> list[str]:
    """``text`` whole: inline when short, else in a closed ``<details>`` block saying its length."""
    text = oneline(text)
    if len(text) <= LONG:
        return [f"- **{label}:** {text}"]
    return [f"- <details><summary>{label} ({len(text)} characters)</summary>", "", f"  {text}", "",
            "  </details>"]


def card_lines(c: Card, number: str, glossary: Glossary, figures: Sequence[str] = ()) -> list[str]:
    """One finding card: location and id, the paper's words, what is wrong, counterexample or fit with the
    hypotheses, class and why, readings, reproduce; then the evidence (collapsible when long) and figures."""
    anchors = "".join(f'<a id="{anchor(i)}"></a>' for i in c.ids)
    lines = [f"#### {number}. {oneline(c.location)} {anchors}", "", f"> {oneline(c.quote)}", "",
             f"**What is wrong:** {glossary.shorten(c.wrong)}", ""]
    if c.counterexample:
        shown = next((r for r in c.rows if r["id"] == c.shown_id), {}).get("counterexample") or {}
        lines += counterexample_lines(shown) if shown else _collapsible(
            "Counterexample", "; ".join(f"{k} = {v}" for k, v in c.counterexample))
    if c.fit:
        lines.append(f"- **Fit:** {oneline(c.fit)}")
    if c.hypotheses:
        verb = "the evidence satisfies" if not c.outside_hypotheses else "of the statement (the evidence is outside)"
        lines += _collapsible(f"Hypotheses {verb}", "; ".join(c.hypotheses))
    why = c.why_class.split(": ", 1)
    extra = ""
    if ". Independent of the reconstruction: " in c.why_class:
        extra = " Independent of the reconstruction: " + c.why_class.split(". Independent of the reconstruction: ", 1)[1]
    lines.append(f"- **Class:** {class_link(c.finding) if len(why) == 2 else oneline(c.why_class)}"
                 + (f". {oneline(extra)}" if extra else ""))
    if c.supports:
        lines.append("- **The statement whose proof has the gap:** " + ", ".join(f"[`{s}`](#{anchor(s)})"
                                                                                   for s in c.supports))
    if c.readings:
        (tested, status), *others = c.readings
        lines.append(f"- **Reading tested:** {oneline(tested)} ({status}). **Other readings:** " + (
            "; ".join(f"{oneline(k)} — *{oneline(v)}*" for k, v in others) or "none named"))
        lines += cost_lines(c)
    also = (" (also checked as " + ", ".join(f"`{i}`: {s}" for i, s in c.twins)  # the command names the one shown
            + (f"; shown: `{c.shown_id}`" if f" {c.shown_id} " not in f"{c.command} " else "") + ")" if c.twins else "")
    lines.append(f"- **Reproduce:** `{c.command}`{also}")
    said, rest = evidence_beyond(c)
    if rest:  # else the sentence above holds the whole evidence
        lines += _collapsible("Evidence, besides the sentence above" if said else "Evidence",
                              glossary.shorten("; ".join(rest)))
    rules = sorted({glossary.ref(t) for r in c.rows[:1] for t in _rule_texts(r.get("details") or {})})
    if rules:
        lines.append("- **Decided by:** " + ", ".join(rules))
    lines.append("")
    for f in figures:
        lines += [f"![{c.id}]({f})", ""]
    return lines


def evidence_beyond(c: Card) -> tuple[int, list[str]]:
    """The evidence's clauses (:func:`.cards.clauses`) that the card's sentence ("What is wrong") does not already
    say, word for word (the decisive clause it leads with counts when only its part labels moved to its end), and how
    many were left out: no text twice on a card, and every clause of the evidence on it once."""
    wrong = oneline(c.wrong)
    parts = clauses(oneline(c.evidence))
    if oneline(c.evidence) in wrong:
        return len(parts), []
    first = decisive(c.evidence or "")
    lead = number_first(first)
    whole = brief(lead) == lead and all(len(label) <= LABEL for label in _labels(first)[0])  # nothing left out
    said = {oneline(first)} if whole and oneline(lead) in wrong else set()
    rest = [p for p in parts if p not in said and p not in wrong]
    return len(parts) - len(rest), rest


def cost_lines(c: Card) -> list[str]:
    """What each reading costs the paper, as the claim states it; for a main result refuted under one reading
    whose claim states no cost, that it is not stated (a reviewer cannot weigh the finding without it)."""
    if c.reading_costs:
        return ["- **What each reading costs:** " + "; ".join(f"{oneline(k)} — {oneline(v)}" for k, v in c.reading_costs)]
    if c.finding == "reading" and c.is_finding and is_main(c):
        return ["- **What each reading costs:** not stated by the claim (only the readings' status is)"]
    return []


def _summary(results: Sequence[Mapping[str, Any]], made: Sequence[Card], numbers: Mapping[str, str],
             glossary: Glossary) -> list[str]:
    statuses, findings = status_counts(made), finding_counts(made)
    planted = planted_errors(results)
    results = [r for r in results if not is_planted(r)]  # the paper's claims: a planted twin is not one
    merged = len(results) - len(made)
    lines = ["## Summary", "",
             f"**{len(made)} distinct claims**" + (f" ({len(results)} rows; {merged} profile twins merged)"
                                                   if merged else "") + ": "
             + ", ".join(f"{statuses[s]} [{s}](#verdict-{s})" for s in STATUSES if statuses[s]) + ".", "",
             "**Findings** (distinct; only erratum says the paper is wrong): "
             + (", ".join(f"{findings[f]} {class_link(f)}" for f in CLASSES if findings[f]) or "none") + "."]
    causes, counted = root_causes(made), sum(c.is_finding and not c.outside_hypotheses for c in made)
    if causes < counted:  # only where findings share a declared root cause (other pages are unchanged)
        lines[-1] += (f" They come from **{causes} root causes**: the findings that declare one shared cause "
                      "count once (their cards are grouped under it).")
    outside = [c for c in made if c.outside_hypotheses]
    if outside:
        lines[-1] += (f" {len(outside)} refutation{'s' if len(outside) > 1 else ''} outside the stated hypotheses "
                      "(not counted).")
    if planted:
        lines += ["", f"**Planted errors** (the checks' proof that they can fail; not findings): "
                  f"{planted_line(planted).split(': ', 1)[1]} ([listed below](#planted-errors))."]
    unexpected = [r for r in results if not r.get("as_expected", True) and not r.get("unavailable")]
    missing = [r for r in results if r.get("unavailable")]
    if missing:
        lines += ["", f"**{len(missing)} claims are not checkable here** (an input outside the repository is "
                  f"missing: {oneline(missing[0]['unavailable'])})."]
    if unexpected:
        lines += ["", f"**{len(unexpected)} verdicts differ from the registry's expectation:** " +
                  ", ".join(f"[`{r['id']}`](#{anchor(r['id'])})" for r in unexpected)]
    top = sorted((c for c in made if c.is_finding and not c.outside_hypotheses), key=importance)[:TOP]
    if top:
        lines += ["", "**Top findings** (errata first, main results first):", ""]
        for c in top:
            head = clauses(c.wrong)[0] if c.wrong else ""
            lines.append(f"- **{numbers[c.id]}** [{oneline(c.location)}](#{anchor(c.id)}) ({c.finding}): "
                         f"{glossary.shorten(head)}")
    return lines + [""]


def _numbered(made: Sequence[Card]) -> dict[str, str]:
    """F1, F2, … for the findings (in the order the cards are shown)."""
    shown = [c for c in _findings_in_order(made)]
    return {c.id: f"F{i}" for i, c in enumerate(shown, 1)}


def _findings_in_order(made: Sequence[Card]) -> list[Card]:
    out = []
    for cls in CLASSES:
        group = [c for c in made if c.finding == cls and c.is_finding and not c.outside_hypotheses]
        causes = list(dict.fromkeys(c.cause for c in group if c.cause))
        out += [c for cause in causes for c in group if c.cause == cause] + [c for c in group if not c.cause]
    return out


def findings_section(made: Sequence[Card], numbers: Mapping[str, str], glossary: Glossary,
                     gallery: Mapping[str, Sequence[str]]) -> list[str]:
    lines = ["## Findings", ""]
    shown = _findings_in_order(made)
    if not shown:
        return lines + ["No refutation inside the stated hypotheses.", ""]
    for cls in CLASSES:
        group = [c for c in shown if c.finding == cls]
        if not group:
            continue
        lines += [f'### {_CLASS_HEADING.get(cls, cls)} ({len(group)}) <a id="findings-{cls}"></a>', ""]
        if cls == "reading":
            lines += ["Each card names the reading tested, the other readings with their status, and what each "
                      "costs the paper where the claim states it: a finding of this class is only as strong as the "
                      "other readings are costly.", ""]
        cause = None
        for c in group:
            if c.cause != cause and c.cause:
                n = sum(x.cause == c.cause for x in group)
                elsewhere = [x for x in shown if x.cause == c.cause and x.finding != cls]
                also = ("; the same cause under another class: " + ", ".join(
                    f"[{numbers[x.id]}](#{anchor(x.id)}) ({x.finding})" for x in elsewhere) if elsewhere else "")
                lines += [f"**Root cause: {oneline(c.cause)}** ({n} finding{'s' if n > 1 else ''}{also})", ""]
            elif c.cause is None and cause is not None:
                lines += ["**Other findings of this class**", ""]
            cause = c.cause
            lines += card_lines(c, numbers[c.id], glossary, [p for i in c.ids for p in gallery.get(i, ())])
    return lines


def planted_section(planted: Sequence[PlantedError], gallery: Mapping[str, Sequence[str]]) -> list[str]:
    """The planted twins, one line each: not the paper's findings but the proof that each check can fail — a
    wrong display planted in the claim's check, which the check must refute."""
    if not planted:
        return []
    lines = [f"## Planted errors ({planted_line(planted).split(': ', 1)[1]}) <a id=\"planted-errors\"></a>", "",
             "Each line: a twin of a claim with an error planted on purpose (`tv.Planted`), which the claim's own "
             "check must refute, or a slip planted in the paper's LaTeX (`tv.tex_chain(..., planted=...)`); not a "
             "finding of the paper, and counted nowhere above.", ""]
    for p in planted:
        verdict = f"**caught** ({p.status})" if p.caught else f"**NOT caught** ({p.status})"
        where = "planted in the paper's LaTeX" if p.planted_of == p.id else \
            f"planted in [`{p.planted_of}`](#{anchor(p.planted_of)})"
        lines.append(f"- {oneline(p.location)} <a id=\"{anchor(p.id)}\"></a> `{p.id}` ({where}): "
                     f"{oneline(p.reason) or oneline(p.statement)} — {verdict}: {oneline(p.evidence)}")
    figures = [(p.id, f) for p in planted for f in gallery.get(p.id, ())]
    if figures:
        lines.append("")
    for i, f in figures:
        lines += [f"![{i}]({f})", ""]
    return lines + [""]


def _line(c: Card, text: str, base: str = "") -> str:
    """One line: the location, the claim's full id (what ``verify --claim`` takes) and where its code is (one hop from
    the id to the code: ``FILE:LINE`` under ``base``, the folder the page's header names once), then ``text``."""
    shown = next((r for r in c.rows if r.get("id") == c.shown_id), None) or (c.rows[0] if c.rows else {})
    source = f" (`{shown['source'].removeprefix(base)}`)" if shown.get("source") else ""
    return f"- {oneline(c.location)} " + "".join(f'<a id="{anchor(i)}"></a>' for i in c.ids) \
        + f" `{c.id}`{source} — {text}"


def _rule_of(c: Card) -> tuple[str, Mapping[str, Any]] | None:
    shown = next((r for r in c.rows if r["id"] == c.shown_id), None) or {}
    was = (shown.get("details") or {}).get("downgraded")
    return (was.get("rule", "?"), was) if isinstance(was, Mapping) else None


def others_section(made: Sequence[Card], base: str = "") -> list[str]:
    """Refutations outside the hypotheses, then inconclusive verdicts, one line each (the evidence whole)."""
    lines: list[str] = []
    outside = [c for c in made if c.outside_hypotheses]
    if outside:
        lines += [f"## Fails outside the stated hypotheses ({len(outside)}; not findings)", "",
                  "Each line: where the evidence breaks the statement's hypotheses ([standard](#standard-hypotheses))."
                  , ""]
        lines += [_line(c, oneline(c.evidence), base) for c in outside] + [""]
    open_ = [c for c in made if c.status in ("inconclusive", "error") and not c.outside_hypotheses]
    if open_:
        lines += [f"## Inconclusive ({len(open_)})", ""]
        for c in open_:
            rule = _rule_of(c)
            why = (f"[{rule[0]} standard](#standard-{rule[0]}) (the check alone: {rule[1].get('status', '?')})"
                   if rule and rule[0] in RULE_HEADINGS else f"**{c.status}**")
            lines.append(_line(c, f"{why}: {oneline(c.evidence)}", base))
        lines.append("")
    return lines


def _span(lo: Any, hi: Any) -> str:
    return full_value(lo) if lo == hi else f"{full_value(lo)} to {full_value(hi)}"


def coverage(c: Card) -> str:
    """What a pass covers, in one line: its method, the grids it swept (parameter, range, points, decades) and
    the parameters it quantifies over."""
    shown = next((r for r in c.rows if r["id"] == c.shown_id), None) or {}
    parts = [oneline(shown.get("method") or "")]
    names = list(supporting(shown))
    if names:
        parts.append("parts: " + ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else ""))
    drawn = (shown.get("details") or {}).get("coverage")
    if isinstance(drawn, Mapping):
        ranges = [f"{k} = {_span(v['min'], v['max'])} ({v['distinct']} values)" for k, v in drawn.items()
                  if isinstance(v, Mapping) and {"min", "max", "distinct"} <= set(v)]
        if ranges:
            parts.append("drawn " + "; ".join(ranges))
    grids = []
    for path, sweep, fit, _fixed in sweeps(shown):
        xs = [x for x in sweep.get("x") or [] if isinstance(x, (int, float))]
        if xs:
            grids.append(f"{sweep.get('param') or 'x'} = {_span(min(xs), max(xs))} ({len(xs)} points)")
    if grids:
        uniq = list(dict.fromkeys(grids))
        parts.append("swept " + "; ".join(uniq[:3]) + (f"; {len(uniq) - 3} more grids in the JSON" if len(uniq) > 3
                                                       else ""))
    spans = ((shown.get("details") or {}).get("grid_span") or {}).get("spans") or []
    dec = [s["decades"] for s in spans if isinstance(s.get("decades"), (int, float))]
    if dec:
        parts.append(f"span {min(dec):.2f}" + (f" to {max(dec):.2f}" if max(dec) != min(dec) else "") + " decades")
    over = [o.get("text") for o in shown.get("over") or () if o.get("text")]
    if over:
        parts.append("over " + ", ".join(over))
    if c.twins:
        parts.append("also " + ", ".join(f"`{i.split('.', 1)[-1]}` {s}" for i, s in c.twins))
    key = brief(decisive(shown.get("evidence") or ""))
    if key:
        parts.append(f"decided by: {oneline(key)}")
    return "; ".join(p for p in parts if p)


def section_of(location: str, tex: Callable[[str], str | None] | None = None) -> str:
    """The paper section a location belongs to: its first Section or Appendix named (top level: "Section 5",
    "Appendix D"), else the ``\\section`` of the paper's LaTeX that holds its ``FILE:LINE`` (``tex``, from
    :func:`theoryverify.report.texsections.resolver`: "Section 2 (The optimal penalty)"), else its first numbered
    location ("Theorem 1"), else "Elsewhere"."""
    refs = location_refs(location)
    for ref in refs:
        kind, _, num = ref.partition(" ")
        if kind in ("Section", "Appendix"):
            return f"{kind} {num.split('.')[0]}"
    found = tex(location) if tex is not None else None
    return found or (refs[0] if refs else "Elsewhere")


def _section_key(name: str) -> tuple:
    kind = name.split(" ")[0]
    return ({"Section": 0, "Appendix": 2}.get(kind, 1),
            ref_key(name.split(" (")[0]) if name != "Elsewhere" else (99,), name)


def passes_section(made: Sequence[Card], tex: Callable[[str], str | None] | None = None, base: str = "") -> list[str]:
    passed = [c for c in made if c.status in ("proved", "holds")]
    lines = [f"## Passes by section ({len(passed)})", ""]
    if not passed:
        return lines + ["None.", ""]
    lines += ["Each line: the location, the verdict, and what the check covered (method; grid; quantified "
              "parameters). The evidence is in the JSON row.", ""]
    groups: dict[str, list[Card]] = {}
    for c in passed:
        groups.setdefault(section_of(c.location, tex), []).append(c)
    for name in sorted(groups, key=_section_key):
        lines += [f"### {name} ({len(groups[name])})", ""]
        lines += [_line(c, f"**{c.status}**: {coverage(c)}", base) for c in groups[name]] + [""]
    return lines


def details_section(made: Sequence[Card], gallery: Mapping[str, Sequence[str]]) -> list[str]:
    """The figures of claims that are not findings (a finding's figures are on its card), and each sweep's fit in
    one line; every number of every sweep is in the JSON row."""
    lines = ["## Details", "", "Every row, whole (each sweep's values per seed, each part's evidence), is in the "
             "JSON file beside this page.", ""]
    for c in made:
        if c.is_finding and not c.outside_hypotheses:
            continue
        figs = [p for i in c.ids for p in gallery.get(i, ())]
        if not figs:
            continue
        lines += [f"### {oneline(c.location)} — [{c.status}](#{anchor(c.id)})", ""]
        for f in figs:
            lines += [f"![{c.id}]({f})", ""]
    return lines


def locations_section(made: Sequence[Card]) -> list[str]:
    where: dict[str, list[Card]] = {}
    for c in made:
        for ref in location_refs(c.location):
            where.setdefault(ref, []).append(c)
    if not where:
        return []
    lines = ["## Where each part of the paper is checked", "",
             "Each line: a location, then the claims that check it (linked), by verdict.", ""]
    for ref, cs in sorted(where.items(), key=lambda kv: ref_key(kv[0])):
        by = {s: [c for c in cs if c.status == s] for s in STATUSES}
        lines.append(f"- **{ref}**: " + "; ".join(
            f"{s} " + ", ".join(f"[{c.id.split('.', 1)[-1]}](#{anchor(c.id)})" for c in group)
            for s, group in by.items() if group))
    return lines + [""]


def code_folder(results: Sequence[Mapping[str, Any]]) -> str:
    """The folder (ending "/") that holds the code of every row (``source`` = ``FILE:LINE``), or "" when they share
    none or only one file: the page names it once and each line the rest of the path."""
    files = {str(r["source"]).rsplit(":", 1)[0] for r in results if r.get("source")}
    if len(files) < 2:
        return ""
    folders = [f.split("/")[:-1] for f in files]
    common = []
    for parts in zip(*folders):
        if len(set(parts)) > 1:
            break
        common.append(parts[0])
    return "/".join(common) + "/" if common else ""


def paper_page(paper: Mapping[str, str], run: Mapping[str, Any], results: Sequence[Mapping[str, Any]],
               gallery: Mapping[str, Sequence[str]] | None = None) -> str:
    """The whole page (see the module docstring for its parts)."""
    gallery = gallery or {}
    made = cards(results, seed=run.get("seed"))
    numbers = _numbered(made)
    glossary = Glossary()
    glossary.collect([r for r in results if not is_planted(r)])
    glossary.collect_settings(c.wrong for c in made if c.is_finding)
    files = (f"- Every row, whole: [`{paper['id']}.json`]({paper['id']}.json) (as `verify --json` prints it); "
             f"the same cards with filters: `{paper['id']}.html`")
    base = code_folder(results)
    if base:
        files += f"; the claims' code is under `{base}` (each line below names its file and line there)"
    body = findings_section(made, numbers, glossary, gallery) + others_section(made, base) \
        + passes_section(made, texsections.resolver(paper), base) + planted_section(planted_errors(results), gallery)
    lines = header(paper, run)[:-1] + [files, ""] + _summary(results, made, numbers, glossary) + body + glossary.section() \
        + details_section(made, gallery) + locations_section(made)
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["Glossary", "coverage", "importance", "is_main", "paper_page", "rows_json", "section_of"]
