"""The HTML report page of one paper (issue 28, item 5): one self-contained file beside the Markdown page.

Why: the Markdown page lists every row; a reviewer wants the findings, filtered, with the figures beside them.
The page holds the summary counts (by distinct claim, :mod:`.cards`), filters by finding class and by verdict
(inline script, :mod:`.html_assets`), one card per distinct claim with an ``id`` anchor (the Markdown page's
anchor, ``claim-…``, so links carry over), and the location index linking to the cards.  Self-contained: no
server, no network, no external style sheet or script; the figures the Markdown page references are inlined
as base64 PNG when their files exist.  Deterministic: the same rows, run settings and figures give the same
bytes, apart from the one "Generated:" line.
"""
from __future__ import annotations

import base64
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..findings import Finding
from ..locations import location_refs, ref_key
from .cards import (CLASSES, NO_FINDING, Card, cards, finding_counts, is_planted, planted_errors, planted_line, root_causes,
                    status_counts)
from .html_assets import SCRIPT, STYLE
from .markdown import GENERATED_PREFIX, STATUSES, anchor

#: text longer than this (characters) goes into a collapsible block, whole (never cut)
LONG = 300

_CLASS_LABEL = {**{f.value: f.heading for f in Finding}, "unclassified": "Refuted, not registered as a finding",
                NO_FINDING: "Not a finding"}


def e(text: Any) -> str:
    """Text escaped for HTML (quotes too, so it is safe in attributes)."""
    return escape(str(text), quote=True)


def figure(path: Path) -> str:
    """An inline ``<img>`` of a PNG file (base64 data URI), or "" when the file does not exist."""
    if not path.is_file():
        return ""
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{e(path.name)}" src="data:image/png;base64,{data}">'


def _long(label: str, body: str, pre: bool = True) -> str:
    """``body`` whole: inline when short, else in a closed ``<details>`` block saying its length."""
    inner = f"<pre>{e(body)}</pre>" if pre else e(body)
    if len(body) <= LONG:
        return f"<dt>{e(label)}</dt><dd>{inner}</dd>"
    return (f"<dt>{e(label)}</dt><dd><details><summary>{len(body)} characters (open)</summary>{inner}"
            f"</details></dd>")


def card_html(c: Card, figures: Sequence[str] = ()) -> str:
    """One card: location, the paper's words, what is wrong, counterexample or fit (with the hypotheses), class
    and why, readings, the command; then the evidence and the figures."""
    twin_anchors = "".join(f'<a id="{e(anchor(i))}"></a>' for i in c.ids[1:])
    out = [f'<article class="card" id="{e(anchor(c.id))}" data-class="{e(c.finding)}" data-status="{e(c.status)}">',
           twin_anchors,
           f'<h3><span class="loc">{e(c.location)}</span> · <code>{e(c.id)}</code> '
           f'<span class="badge">{e(c.status)}</span>'
           + (f' <span class="badge">{e(c.finding)}</span>' if c.finding != NO_FINDING else "") + "</h3>",
           (f'<p class="cause">Root cause: {e(c.cause)}</p>' if c.cause else ""),
           f"<blockquote>{e(c.quote)}</blockquote>",
           f'<p class="wrong">{e(c.wrong)}</p>', "<dl>"]
    if c.counterexample:
        rows = "".join(f"<tr><th>{e(k)}</th><td><code>{e(v)}</code></td></tr>" for k, v in c.counterexample)
        size = sum(len(k) + len(v) for k, v in c.counterexample)
        table = f"<table>{rows}</table>"
        out.append("<dt>Counterexample</dt><dd>" + (table if size <= LONG else
                   f"<details><summary>{len(c.counterexample)} values (open)</summary>{table}</details>") + "</dd>")
    if c.fit:
        out.append(f"<dt>Fit</dt><dd>{e(c.fit)}</dd>")
    if c.hypotheses:
        verb = "satisfied by the evidence" if c.is_finding and not c.outside_hypotheses else "of the statement"
        out.append(f"<dt>Hypotheses ({verb})</dt><dd><ul>" + "".join(f"<li>{e(h)}</li>" for h in c.hypotheses)
                   + "</ul></dd>")
    out.append(f"<dt>Class</dt><dd>{e(c.why_class)}</dd>")
    if c.supports:
        out.append("<dt>The statement whose proof has the gap</dt><dd>" + ", ".join(
            f'<a href="#{e(anchor(s))}"><code>{e(s)}</code></a>' for s in c.supports) + "</dd>")
    if c.readings:
        out.append("<dt>Readings (the tested one, then the others with their status)</dt><dd><ul>" + "".join(
            f"<li>{e(reading)} — <em>{e(status)}</em>" + (f"; <strong>costs:</strong> {e(dict(c.reading_costs)[reading])}"
                                                        if reading in dict(c.reading_costs) else "") + "</li>"
            for reading, status in c.readings) + "</ul></dd>")
    out.append(f"<dt>Reproduce</dt><dd><code>{e(c.command)}</code></dd>")
    if c.twins:
        out.append("<dt>Also checked as</dt><dd>" + ", ".join(f"<code>{e(i)}</code> ({e(s)})" for i, s in c.twins)
                   + f"; the evidence shown is <code>{e(c.shown_id)}</code>'s</dd>")
    out.append(_long("Evidence", c.evidence))
    out.append("</dl>")
    out += [f for f in figures if f]
    out.append("</article>")
    return "\n".join(x for x in out if x)


def _filters(made: Sequence[Card]) -> str:
    by_class, by_status = Counter(c.finding for c in made), status_counts(made)
    boxes = []
    for name, values, counts in (("class", CLASSES, by_class), ("status", STATUSES, by_status)):
        boxes.append(f'<fieldset><legend>{name}</legend>' + "".join(
            f'<label title="{e(_CLASS_LABEL.get(v, v))}"><input type="checkbox" data-filter="{name}" value="{e(v)}" '
            f"checked> {e(v)} ({counts[v]})</label>" for v in values if counts[v]) + "</fieldset>")
    return ('<div class="filters">' + "".join(boxes) +
            f'<p>Showing <span id="shown-count">{len(made)}</span> of {len(made)} claims.</p></div>')


def summary_html(results: Sequence[Mapping[str, Any]], made: Sequence[Card]) -> str:
    """Counts by distinct claim and by distinct finding (twins counted once), and the rows they come from."""
    statuses, findings = status_counts(made), finding_counts(made)
    planted = planted_errors(results)
    results = [r for r in results if not is_planted(r)]  # the paper's claims: a planted twin is not one
    merged = len(results) - len(made)
    lines = [f"<p>{len(made)} distinct claims" + (f" ({len(results)} rows; {merged} profile twins merged)"
                                                   if merged else "") + ": "
             + ", ".join(f"{statuses[s]} {s}" for s in STATUSES if statuses[s]) + ".</p>",
             "<p>Findings (distinct): " + (", ".join(f"{findings[f]} {f}" for f in CLASSES if findings[f])
                                          or "none") + ". Only <em>erratum</em> says the paper is wrong.</p>"]
    causes, counted = root_causes(made), sum(c.is_finding and not c.outside_hypotheses for c in made)
    if causes < counted:  # only where findings share a declared root cause
        lines.append(f"<p>They come from {causes} root causes (findings that declare one shared cause count "
                     "once).</p>")
    if planted:  # the checks' proof that they can fail, never counted as findings
        lines.append(f"<p>Planted errors (not findings): {e(planted_line(planted).split(': ', 1)[1])}.</p>")
    return "\n".join(lines)


def planted_html(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """The planted twins, one list item each (empty without any)."""
    planted = planted_errors(results)
    if not planted:
        return []
    items = "".join(f"<li><code>{e(p.id)}</code> ({e(p.location)}; "
                    + ("planted in the paper's LaTeX" if p.planted_of == p.id else
                       f"planted in <code>{e(p.planted_of)}</code>") + "): "
                    f"{e(p.reason or p.statement)} — <b>{'caught' if p.caught else 'NOT caught'}</b> ({e(p.status)}): "
                    f"{e(p.evidence)}</li>" for p in planted)
    return [f"<h2>Planted errors ({e(planted_line(planted).split(': ', 1)[1])})</h2>",
            "<p>Twins of claims with an error planted on purpose, which the claim's own check must refute: the "
            "proof that the checks can fail, not findings of the paper.</p>", f"<ul>{items}</ul>"]


def locations_html(made: Sequence[Card]) -> str:
    """Paper location (Lemma 6, Eq. 12, …) → links to the cards that check it."""
    where: dict[str, list[Card]] = {}
    for c in made:
        for ref in location_refs(c.location):
            where.setdefault(ref, []).append(c)
    if not where:
        return "<p>No claim names a numbered location of the paper.</p>"
    rows = "".join(f"<tr><td>{e(ref)}</td><td>" + ", ".join(
        f'<a href="#{e(anchor(c.id))}"><code>{e(c.id.split(".", 1)[-1])}</code></a> {e(c.status)}' for c in cs)
        + "</td></tr>" for ref, cs in sorted(where.items(), key=lambda kv: ref_key(kv[0])))
    return f"<table><tr><th>paper location</th><th>claims (verdict)</th></tr>{rows}</table>"


def _run_html(paper: Mapping[str, str], run: Mapping[str, Any]) -> str:
    items = [f"Paper: <code>{e(paper['file'])}</code> (id <code>{e(paper['id'])}</code>)"
             + (f"; package: {e(run['paper_version'])}" if run.get("paper_version") else ""),
             f"Command: <code>{e(run['command'])}</code>",
             f"Profile: <code>{e(run['profile'])}</code>; seed: <code>{e(run['seed'])}</code>",
             f"{e(run.get('commit_label') or 'Git commit')}: <code>{e(run.get('commit', ''))}</code>"]
    if run.get("rendered"):  # re-rendered from the stored rows (:mod:`.rerender`): the run above computed them
        items.append(f"Page rendered from the stored rows at commit <code>{e(run['rendered'])}</code> "
                     "(<code>--rerender</code>)")
    return ('<ul class="run">' + "".join(f"<li>{i}</li>" for i in items) + "</ul>\n"
            f'<p class="run">\n{e(GENERATED_PREFIX + str(run.get("generated", "")))}\n</p>')  # a line of its own


def paper_html(paper: Mapping[str, str], run: Mapping[str, Any], results: Sequence[Mapping[str, Any]],
               gallery: Mapping[str, Sequence[str]] | None = None, root: Path | None = None) -> str:
    """The whole page.  ``gallery``: claim id → figure paths relative to ``root`` (the report folder), as the
    Markdown page references them; a path whose file is missing is left out."""
    made = cards(results, seed=run.get("seed"))
    gallery = gallery or {}

    def figures(c: Card) -> list[str]:
        paths = [p for i in c.ids for p in gallery.get(i, ())]
        return [figure(Path(root or ".") / p) for p in paths]

    body = [f"<h1>{e(paper['title'])}</h1>", _run_html(paper, run), "<h2>Summary</h2>", summary_html(results, made),
            "<h2>Findings and claims</h2>", _filters(made), *[card_html(c, figures(c)) for c in made],
            *planted_html(results), "<h2>Where each part of the paper is checked</h2>", locations_html(made)]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{e(paper['title'])}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n" + "\n".join(body)
            + f"\n<script>{SCRIPT}</script>\n</body>\n</html>\n")
