"""Finding cards (issue 28, item 1): one card per distinct claim of a paper, built from the report's verdict rows.

Why: a page listing every row counts a finding twice when a claim has a profile twin (the quick claim and its
``-full``/``-sweep``/``-exact`` variant, registered once and listed under two ids), and cuts long evidence with
"…".  A card merges the twins (the stronger evidence is shown, the other ids and verdicts are named), keeps every
character of the evidence, and puts what a reviewer reads in this order: location; the paper's words; one
sentence on what is wrong, the decisive number first; the counterexample or the fit, with the hypotheses it
satisfies; the class and why; the other readings (the authors' favour) with their status; a command that
reproduces it.  Counts of findings are counts of cards (:func:`finding_counts`).

Pure functions of the rows (``ClaimResult.to_json`` dicts): no I/O, no HTML; :mod:`.html` renders the cards.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..evidence import sweeps
from ..findings import Finding
from ..seeds import DEFAULT_SEED
from .markdown import FINDINGS, STATUSES, finding_of, fmt, meaning

#: the class shown for a card whose verdict is not a refutation (a filter value in the HTML page)
NO_FINDING = "none"
#: the order of card classes: the finding classes, a refutation the registry did not expect, then the rest
CLASSES = (*FINDINGS, "unclassified", NO_FINDING)
#: how decisive a verdict is, for choosing which twin's evidence a card shows (lower is stronger)
_STRENGTH = {"refuted": 0, "proved": 1, "holds": 2, "inconclusive": 3, "error": 4}


@dataclass(frozen=True)
class Card:
    """One distinct claim, as a reviewer reads it (the fields in the order the card shows them)."""

    id: str  # the claim id the card is filed under (the base id of a twin pair)
    location: str
    quote: str  # the claim's statement: the paper's words as the registry records them
    status: str  # the verdict of the row shown
    finding: str  # a finding class, "unclassified", or NO_FINDING
    wrong: str  # one sentence: the decisive number first, then the registered reason
    evidence: str  # the whole evidence of the row shown, never cut
    counterexample: tuple[tuple[str, str], ...]  # (name, value rendered in full)
    fit: str | None  # the fit a rate verdict rests on, one line
    hypotheses: tuple[str, ...]  # the statement's hypotheses (a refutation inside them counts)
    why_class: str  # what the class means, and why the refutation is of this class
    readings: tuple[tuple[str, str], ...]  # (reading, status): the tested one first, then the others
    command: str  # reproduces the row shown
    shown_id: str  # the row whose evidence is shown (the stronger twin)
    twins: tuple[tuple[str, str], ...] = ()  # (id, status) of the other rows merged into this card
    outside_hypotheses: bool = False
    supports: tuple[str, ...] = ()  # proof_gap: the statement claims whose proof has the gap
    ids: tuple[str, ...] = field(default=())  # every id of the card (the card's own first)
    cause: str | None = None  # the root cause the claim declares (``ClaimSet.add(cause=...)``): cards group by it
    reading_costs: tuple[tuple[str, str], ...] = ()  # (reading, what adopting it costs the paper)
    #: the paper's own words (:func:`paper_words`): how they were found ("quote": declared or in quotation marks,
    #: "transcribed": a display the statement marks "as printed", "": none recorded) and the words
    words: tuple[str, str] = ("", "")
    rows: tuple[Mapping[str, Any], ...] = field(default=(), compare=False, repr=False)  # the merged rows

    @property
    def is_finding(self) -> bool:
        return self.status == "refuted"


def twin_key(r: Mapping[str, Any]) -> tuple:
    """What twins share: a variant with an id of its own is the same registration (``Claim.expanded``), so the
    same paper, source line, location, statement, catalogue id and kind."""
    return (r.get("paper"), r.get("source"), r["location"], r["statement"], r.get("catalogue_id"), r["kind"])


def _related(a: str, b: str) -> bool:
    """Twin ids: one is the other with a suffix ("x" and "x-full", "p1-gradlip" and "p1-gradlip-sweep")."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short + "-")


def group_twins(results: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The rows grouped by distinct claim, in the order of each group's first row; a group holds a row and its
    profile twins (same :func:`twin_key`, ids related by a suffix)."""
    groups: list[list[Mapping[str, Any]]] = []
    for r in results:
        home = next((g for g in groups if twin_key(g[0]) == twin_key(r) and any(_related(x["id"], r["id"])
                                                                                for x in g)), None)
        if home is None:
            groups.append([r])
        else:
            home.append(r)
    return groups


def stronger(rows: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The row whose evidence a card shows: the most decisive verdict; between equals, the variant (the longer
    id: the larger grid of the full profile)."""
    return min(rows, key=lambda r: (_STRENGTH.get(r["status"], 9), -len(r["id"])))


_OPEN, _CLOSE = "([{", ")]}"
#: a relation between numbers: what makes a clause the decisive one ("error 0.03 > 1e-10", "R = 1 + e ≠ 1")
_RELATION = re.compile(r"[<>=≠≤≥≈∉]|\bnot\b")


def clauses(evidence: str) -> list[str]:
    """The evidence split at "; " outside brackets ("b = 2 (CI [2, 2]; predicted 2)" is one clause)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(evidence):
        depth += (ch in _OPEN) - (ch in _CLOSE)
        if ch == ";" and depth <= 0 and evidence[i + 1:i + 2] in (" ", ""):
            out.append(evidence[start:i].strip())
            start = i + 1
    out.append(evidence[start:].strip())
    return [c for c in out if c]


def decisive(evidence: str) -> str:
    """The evidence's decisive clause: the first that relates a number to another (a comparison), else the first
    that holds a number, else ""."""
    numeric = [c for c in clauses(evidence or "") if re.search(r"\d", c)]
    return next((c for c in numeric if _RELATION.search(c)), numeric[0] if numeric else "")


#: a parenthetical longer than this is left out of a card's headline (the evidence below shows it whole)
ASIDE = 80


def brief(clause: str) -> str:
    """A clause for the headline: its long top-level parentheticals ("(the check alone: …)", > :data:`ASIDE`
    characters) replaced by "(see the evidence)"; the card's evidence block keeps every character."""
    out, depth, start = [], 0, None
    for i, ch in enumerate(clause):
        if ch == "(" and depth == 0:
            start = i
        depth += (ch in _OPEN) - (ch in _CLOSE)
        if ch == ")" and depth == 0 and start is not None:
            if i - start + 1 > ASIDE:
                out.append((start, i + 1))
            start = None
    for a, b in reversed(out):
        clause = clause[:a] + "(see the evidence)" + clause[b:]
    return clause


def full_value(x: Any, key: Any = None) -> str:
    """A value rendered whole: every entry of a list or mapping (never shortened with "…"), numbers to 4
    significant digits as the Markdown shows them; an interval or an index as :func:`.markdown.fmt` does."""
    if isinstance(x, Mapping):
        return "{" + ", ".join(f"{k}: {full_value(v, k)}" for k, v in x.items()) + "}"
    if hasattr(x, "tolist") and not isinstance(x, (list, tuple)):
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        if meaning(key) in ("interval", "index"):
            shown = fmt(x, key)
            if "…" not in shown:
                return shown
        return "[" + ", ".join(full_value(v) for v in x) + "]"
    return fmt(x, key)


def _fit_line(r: Mapping[str, Any]) -> str | None:
    """The fit the verdict rests on (its own, else its first part's that has one)."""
    for path, _sweep, fit, _fixed in sweeps(r):
        if fit and "exponent" in fit:
            ci = fit.get("ci") or ["?", "?"]
            law = f" ({fit['law']})" if fit.get("law") else ""
            where = f"{path}: " if path else ""
            return (f"{where}fitted exponent{law} {fmt(fit['exponent'])} [{fmt(ci[0])}, {fmt(ci[1])}] vs predicted "
                    f"{fmt(fit.get('predicted_exponent'))}" + (f" ± {fmt(fit['margin'])}" if "margin" in fit else ""))
    return None


#: a part label longer than this is left out of a headline (the evidence and the counterexample's "part" name it)
LABEL = 40


def _labels(clause: str) -> tuple[list[str], str]:
    """The leading "[part]" labels of a clause (brackets balanced: "[O side: T [g ≤ C] / T*]" is one) and the
    rest."""
    labels, rest = [], clause.lstrip()
    while rest.startswith("["):
        depth = 0
        for i, ch in enumerate(rest):
            depth += (ch == "[") - (ch == "]")
            if depth == 0:
                break
        else:
            break
        labels.append(rest[1:i].strip())
        rest = rest[i + 1:].lstrip()
    return labels, rest


def _segments(text: str) -> list[str]:
    """``text`` split at ": " outside brackets."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch in _OPEN) - (ch in _CLOSE)
        if ch == ":" and depth <= 0 and text[i + 1:i + 2] == " ":
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return [x for x in out if x]


def number_first(clause: str) -> str:
    """The decisive clause of a combined check with its number first: the leading part labels ("[path c=3] [O
    side: …]") moved after the comparison (a label over :data:`LABEL` characters left out: the evidence and the
    counterexample's "part" name it), and a comparison that ends a chain of ": " explanations ("ratio diverges …:
    O(1/K^0): b = -0.66 (CI …)") moved to the front.  A clause without labels is returned as it is."""
    labels, rest = _labels(clause)
    segs = _segments(rest)
    last = segs[-1] if segs else ""
    if not (re.search(r"\d", last) and _RELATION.search(last)):  # not a chain ending in the comparison
        last, segs = rest, [rest]
    if not labels:  # "inconclusive: grid spans …" and the like read well as they are
        return clause
    head = last + "".join(f" [{lab}]" for lab in labels if len(lab) <= LABEL)
    return head + (": " + ": ".join(segs[:-1]) if len(segs) > 1 else "")


def _wrong(r: Mapping[str, Any]) -> str:
    """One sentence on what is wrong (a refutation) or what the verdict rests on (any other row), the decisive
    number first (:func:`number_first`)."""
    number = brief(number_first(decisive(r.get("evidence") or "")))
    if r["status"] == "refuted" and r.get("reason"):
        reason = r["reason"].strip()
        return f"{number} — {reason}" if number and number not in reason else reason
    return number or brief((r.get("evidence") or "").strip())


def _why_class(r: Mapping[str, Any], cls: str) -> str:
    if cls == NO_FINDING:
        return f"not a finding: the verdict is {r['status']}" + (
            ", a refutation outside the stated hypotheses (it does not count)" if r.get("outside_hypotheses") else "")
    if cls == "unclassified":
        return "refuted, but the registry did not expect it: a finding not yet classed (or a bug to look at)"
    text = f"{cls}: {Finding(cls).meaning}"
    if r.get("despite_reconstruction"):
        text += f". Independent of the reconstruction: {r['despite_reconstruction']}"
    return text


#: words in quotation marks: “…”, "…", or '…' opened after a space or bracket and closed before one (an apostrophe
#: inside a word, "Lemma 10's", opens nothing)
_QUOTED = re.compile(r"“([^”]+)”|(?<![\w\\])\"([^\"]+)\"(?!\w)|(?<![\w'’])'([^']+?)'(?![\w'])")
#: the mark of a display the statement transcribes: "(as printed)", "as printed (...)", "(printed closed form)",
#: "(as typeset ...)" — the text before it is the paper's display as the check transcribes it
_PRINTED = re.compile(r"\s*\(?\b(?:as (?:printed|typeset)|printed closed form)\b")


def quoted(text: str, min_words: int = 2) -> list[str]:
    """The passages of ``text`` in quotation marks with at least ``min_words`` words (a quoted single word,
    "'weakly'", is a term, not the paper's sentence)."""
    out = []
    for m in _QUOTED.finditer(text or ""):
        q = next(g for g in m.groups() if g is not None).strip()
        if len(q.split()) >= min_words and q not in out:
            out.append(q)
    return out


def _before_mark(statement: str) -> str:
    """The display a statement transcribes: the text before its "as printed" mark, cut at the bracket the mark
    sits in ("… for i = 3..6 (all 36 entries as printed)" -> "… for i = 3..6"); "" without a mark."""
    m = _PRINTED.search(statement or "")
    if not m:
        return ""
    head, depth, cut = statement[:m.start()], 0, None
    for i in range(len(head) - 1, -1, -1):
        depth += (head[i] in _CLOSE) - (head[i] in _OPEN)
        if depth < 0:
            cut, depth = i, 0
    head = head[:cut] if cut is not None else head
    return head.strip(" ,;:") if len(head.strip(" ,;:")) >= 3 else ""


def paper_words(r: Mapping[str, Any]) -> tuple[str, str]:
    """The paper's own words for a row, never the tool's sentence (referee 16): ("quote", words) from the claim's
    declared ``quote``, else the passages in quotation marks of its statement, of its location, or of its tested
    reading ("the paper's words: '…'"); ("transcribed", display) for a statement that marks a display "as printed"
    (the text before the mark); else ("", "") — no quotation is recorded."""
    if r.get("quote"):
        return "quote", str(r["quote"]).strip()
    sources = [quoted(t or "") for t in (r.get("statement"), r.get("location"), (r.get("readings") or {}).get("tested"))]
    every = [q for found in sources for q in found]
    for found in sources:
        if found:  # each passage whole: a longer passage of another source that contains it stands for it
            whole = [max((q for q in every if p in q), key=len) for p in found]
            return "quote", " … ".join(dict.fromkeys(whole))
    display = _before_mark(r.get("statement") or "")
    return ("transcribed", display) if display else ("", "")


def _readings(r: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    rd = r.get("readings") or {}
    if not rd:
        return ()
    out = [(rd.get("tested") or "", "tested here: " + r["status"])]
    return tuple(out + [(k, v) for k, v in (rd.get("others") or {}).items()])


def command(r: Mapping[str, Any], seed: int | None = None) -> str:
    """The one-line command that reproduces the row: its id under its profile (and the run's seed and device
    where they are not the defaults)."""
    parts = ["python -m theoryverify verify --claim", r["id"]]
    if r.get("profile") and r["profile"] != "quick":
        parts += ["--profile", r["profile"]]
    if seed is not None and seed != DEFAULT_SEED:
        parts += ["--seed", str(seed)]
    if r.get("device") == "cuda":
        parts += ["--device", "cuda"]
    return " ".join(parts)


def card(rows: Sequence[Mapping[str, Any]], seed: int | None = None) -> Card:
    """The card of one group of twin rows (see :func:`group_twins`)."""
    shown = stronger(rows)
    base = min(rows, key=lambda r: len(r["id"]))
    cls = finding_of(shown) or NO_FINDING
    ce = shown.get("counterexample") or {}
    return Card(
        id=base["id"], location=shown["location"], quote=shown["statement"], status=shown["status"], finding=cls,
        wrong=_wrong(shown), evidence=shown.get("evidence") or "",
        counterexample=tuple((str(k), full_value(v, k)) for k, v in ce.items()),
        fit=_fit_line(shown),
        hypotheses=tuple(h.get("text", "") + (f" ({h['location']})" if h.get("location") else "")
                         for h in shown.get("hypotheses") or ()),
        why_class=_why_class(shown, cls), readings=_readings(shown), command=command(shown, seed),
        shown_id=shown["id"], twins=tuple((r["id"], r["status"]) for r in rows if r is not shown),
        outside_hypotheses=bool(shown.get("outside_hypotheses")), supports=tuple(shown.get("supports") or ()),
        ids=tuple([base["id"]] + [r["id"] for r in rows if r is not base]),
        cause=next((r["cause"] for r in (shown, *rows) if r.get("cause")), None),
        reading_costs=tuple((str(k), str(v)) for k, v in ((shown.get("readings") or {}).get("costs") or {}).items()),
        words=paper_words(shown), rows=tuple(rows))


def is_planted(r: Mapping[str, Any]) -> bool:
    """A planted twin's row (``tv.Planted``): the proof that a check can fail, never a finding of the paper."""
    return bool(r.get("planted_of"))


@dataclass(frozen=True)
class PlantedError:
    """One planted twin, as the report lists it apart from the findings: caught when refuted as registered."""

    id: str
    planted_of: str  # the claim it plants an error in
    location: str
    statement: str
    reason: str  # what was planted (the twin's reason)
    status: str
    caught: bool
    evidence: str  # the decisive clause of its evidence (the JSON row has it whole)


def planted_errors(results: Sequence[Mapping[str, Any]]) -> list[PlantedError]:
    """The planted twins among ``results``, one per id (a profile rerun of the same twin is one), in the rows'
    order."""
    out: dict[str, PlantedError] = {}
    for r in results:
        if is_planted(r) and r["id"] not in out:
            out[r["id"]] = PlantedError(
                id=r["id"], planted_of=str(r["planted_of"]), location=r["location"], statement=r["statement"],
                reason=r.get("reason") or "", status=r["status"],
                caught=r["status"] == "refuted" and bool(r.get("as_expected", True)),
                evidence=(brief(number_first(decisive(r.get("evidence") or ""))) or (r.get("evidence") or ""))
                .replace("(see the evidence)", "(whole in the JSON row)"))
    return list(out.values())


def planted_line(planted: Sequence[PlantedError]) -> str | None:
    """"planted errors: 4 of 4 caught" (None without planted twins)."""
    if not planted:
        return None
    missed = [p.id for p in planted if not p.caught]
    return (f"planted errors: {len(planted) - len(missed)} of {len(planted)} caught"
            + (f" (not caught: {', '.join(missed)})" if missed else ""))


def cards(results: Sequence[Mapping[str, Any]], seed: int | None = None) -> list[Card]:
    """One card per distinct claim: findings first (by class, in the report's order), then the other claims;
    within each, the paper's order of the rows.  A planted twin (:func:`is_planted`) gets no card: it is not the
    paper's (:func:`planted_errors` lists them)."""
    made = [card(g, seed) for g in group_twins([r for r in results if not is_planted(r)])]
    order = {c: i for i, c in enumerate(CLASSES)}
    causes = {k: i for i, k in enumerate(dict.fromkeys(c.cause for c in made if c.cause))}
    # stable: within a class, the cards of one declared root cause together (first cause first), then the rest,
    # each in the rows' order
    return sorted(made, key=lambda c: (order.get(c.finding, len(order)), causes.get(c.cause, len(causes))))


def finding_counts(made: Sequence[Card]) -> Counter:
    """Refutations by class, counted by distinct finding (a twin pair is one)."""
    return Counter(c.finding for c in made if c.is_finding)


def root_causes(made: Sequence[Card]) -> int:
    """The distinct root causes of the findings inside the hypotheses (referee 16): findings that declare the same
    ``cause`` count once, whatever their classes; a finding without one counts alone."""
    shown = [c for c in made if c.is_finding and not c.outside_hypotheses]
    return len({c.cause for c in shown if c.cause}) + sum(not c.cause for c in shown)


def status_counts(made: Sequence[Card]) -> Counter:
    """Verdicts by status, counted by distinct claim."""
    return Counter(c.status for c in made)


__all__ = ["Card", "CLASSES", "NO_FINDING", "PlantedError", "STATUSES", "brief", "card", "cards", "clauses", "command",
           "decisive", "finding_counts", "full_value", "group_twins", "is_planted", "paper_words", "planted_errors",
           "planted_line", "quoted", "root_causes",
           "status_counts", "stronger", "twin_key"]
