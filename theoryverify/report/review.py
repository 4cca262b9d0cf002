"""``python -m theoryverify review --paper X [--latex] [--ids]``: a paper's findings as a referee report
(issue 28, item 3).

Why: the report pages are for the people who run the checks; a reviewer or the paper's authors want points they
can paste into a review.  Each distinct finding (profile twins merged, :mod:`.cards`) becomes one numbered
point: where it is, the paper's words, what is wrong, the evidence (the counterexample or fit, with the
hypotheses it satisfies, or the decisive measurement), and the class in plain words, with the other readings and
what they cost for a finding of one reading.  Major points come first, minor ones after; within each, the paper's
order.  What is major is what matters to a reviewer (:func:`is_major`, referee 16): an error, an experiment that
cannot be reproduced, a gap in the proof of a main result (or in a main result's own display), and a finding of one
reading whose other readings all fail or cost the paper something; minor: a typo, a gap in a proof no main result
rests on, a finding of one reading whose authors'-favour reading holds at no stated cost (a wording issue), and a
refutation of the tool's reconstruction of a lost object (not evidence that the paper is wrong).  The paper's words
are quoted only where they are recorded (:func:`.cards.paper_words`); else the point says so and gives the tool's
sentence as what was checked.  No internal claim id or command unless
``--ids``.  Markdown by default, a LaTeX ``enumerate`` with ``--latex``.

The rows come from the results store shared with ``verify`` and the report (the claims the report's profile
selects; missing ones are computed), or from a ``verify --json`` file (``--rows``, e.g. ``reports/quick/X.json``).
The output depends only on the rows: no time, no machine; the same rows give the same bytes.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from .. import profiles, registry, resume
from ..claims import RunContext
from ..devices import resolve_device
from ..errors import TheoryverifyError
from ..locations import location_refs
from ..store import Store
from .cards import Card, cards, clauses
from .page import compact_value, oneline

#: the class of a finding in plain words, for a referee report
PLAIN = {
    "erratum": "Error: the statement is false as the authors plausibly meant it, within its stated hypotheses.",
    "reading": "Ambiguity: the statement is false under one plausible reading; the other readings are named below.",
    "not_reproducible": "Reproducibility: the experiment cannot be reproduced from the stated information.",
    "reconstruction": "On a reconstruction: the paper's own object is not given, and the check fails on our "
                      "reconstruction of it; this is not evidence that the paper is wrong.",
    "proof_gap": "Gap in a proof: a step is wrong, but the statement it supports is not refuted.",
    "typo": "Typo: a slip in a display whose intended meaning is evident; it changes no conclusion.",
    "unclassified": "Refuted, not yet classified: to be confirmed before it is reported.",
}
#: classes that are always major / always minor; a proof_gap and a reading finding depend on the finding
#: (:func:`is_major`)
MAJOR = ("erratum", "not_reproducible", "unclassified")
MINOR = ("typo", "reconstruction")
#: a reading's status that says it holds (the authors'-favour reading survives)
_HOLDS = re.compile(r"^\s*(holds|proved)\b", re.IGNORECASE)


class BadRows(TheoryverifyError):
    """A ``--rows`` file that cannot be read as ``verify --json`` rows of the paper."""


def section_key(location: str) -> tuple | None:
    """Where a location sits in the paper: main text (its first Section) before the appendices (their letter),
    or None when it names neither."""
    for ref in location_refs(location):
        kind, _, num = ref.partition(" ")
        parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in num.split("."))
        if kind == "Section":
            return (0, parts)
        if kind == "Appendix":
            return (1, parts)
    return None


def paper_order(made: Sequence[Card]) -> list[Card]:
    """The cards in the paper's order: by the section or appendix their location names; a location that names
    neither ("Lemma 5 proof") stays beside the claim registered before it (the registry keeps each paper's claims
    in reading order), and ties keep the registry's order."""
    keyed, last = [], (0, ())
    for i, c in enumerate(made):
        last = section_key(c.location) or last
        keyed.append((last, i, c))
    return [c for _k, _i, c in sorted(keyed, key=lambda t: (t[0], t[1]))]


def main_ids(results: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """The ids of the main results among the rows and their papers' registered claims (``standards.is_main_result``:
    a declared ``main``, else every rate claim and every claim located at a theorem, proposition or corollary)."""
    from types import SimpleNamespace

    from ..standards import is_main_result
    out = {str(r["id"]) for r in results
           if is_main_result(SimpleNamespace(main=r.get("main"), kind=r.get("kind"), location=r.get("location")))}
    for paper in {str(r.get("paper") or str(r["id"]).split(".", 1)[0]) for r in results}:
        try:
            out |= {c.id for c in registry.claims(paper=paper) if is_main_result(c)}
        except TheoryverifyError:
            pass
    return frozenset(out)


def authors_reading_holds(c: Card) -> bool:
    """A finding of one reading whose other reading (the authors' favour) holds and costs the paper nothing the
    claim states: a wording issue."""
    costs = dict(c.reading_costs)
    return any(_HOLDS.match(status) and not costs.get(k) for k, status in c.readings[1:])


def is_major(c: Card, mains: frozenset[str] = frozenset()) -> bool:
    """What matters to a reviewer: an error, an irreproducible experiment or an unclassified refutation; a proof gap
    in a main result or in the proof of one (the card's claim, or a claim it ``supports``, is in ``mains``); a
    finding of one reading unless the authors'-favour reading holds at no stated cost.  A typo, a gap no main result
    rests on, and a refutation of a reconstruction are minor."""
    if c.finding in MAJOR:
        return True
    if c.finding == "proof_gap":
        return any(i in mains for i in (*c.ids, *c.supports))
    if c.finding == "reading":
        return not authors_reading_holds(c)
    return c.finding not in MINOR


def findings(results: Sequence[Mapping[str, Any]], seed: int | None = None) -> list[Card]:
    """The distinct findings inside the hypotheses: major first, then minor (:func:`is_major`), each in the
    paper's order."""
    made = [c for c in cards(results, seed) if c.is_finding and not c.outside_hypotheses]
    mains = main_ids(results)
    return (paper_order([c for c in made if is_major(c, mains)]) +
            paper_order([c for c in made if not is_major(c, mains)]))


def split(results: Sequence[Mapping[str, Any]], made: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """The findings as (major, minor), each in the order of ``made``."""
    mains = main_ids(results)
    return [c for c in made if is_major(c, mains)], [c for c in made if not is_major(c, mains)]


def _evidence(c: Card) -> str:
    shown = next((r for r in c.rows if r["id"] == c.shown_id), {})
    ce = shown.get("counterexample") or {}
    parts = []
    if ce:
        parts.append("Counterexample: " + "; ".join(f"{k} = {compact_value(v, k)}" for k, v in ce.items()
                                                     if k != "part") + ".")
    if c.fit:
        parts.append(f"Fit: {c.fit}.")
    if c.hypotheses:
        parts.append("It satisfies the hypotheses: " + "; ".join(c.hypotheses) + ".")
    if not parts or oneline(c.evidence) not in oneline(c.wrong):
        parts.append(f"Measured: {oneline(c.evidence)}")
    return " ".join(oneline(p) for p in parts)


def _readings(c: Card) -> str:
    if not c.readings:
        return ""
    (tested, _status), *others = c.readings
    costs = "".join(f" If read as {oneline(k)}: {oneline(v)}." for k, v in c.reading_costs)
    return (f"Reading tested: {oneline(tested)}. Other readings: " +
            ("; ".join(f"{oneline(k)} ({oneline(v)})" for k, v in others) or "none named") + "." + costs)


def words_line(c: Card) -> str:
    """The point's opening after its location: the paper's words in quotation marks where they are recorded
    (:func:`.cards.paper_words`), a display as the check transcribes it, else a sentence saying that no quotation
    is recorded, with the tool's statement as what was checked (never quoted as if it were the paper's)."""
    kind, words = c.words
    if kind == "quote":
        return f"The paper states: “{oneline(words)}”"
    if kind == "transcribed":
        return f"The paper prints (as transcribed for the check): “{oneline(words)}”"
    return f"No quotation of the paper is recorded for this point; what was checked: {oneline(c.quote)}"


def point(c: Card, ids: bool = False, known: frozenset[str] = frozenset()) -> dict[str, str]:
    """One point's parts, in the order a referee writes them."""
    out = {"where": oneline(c.location), "words": words_line(c), "wrong": oneline(c.wrong),
           "evidence": _evidence(c), "class": PLAIN.get(c.finding, c.finding)}
    readings = _readings(c)
    if readings:
        out["readings"] = readings
    if ids:
        out["reproduce"] = c.command
        out["claim"] = c.id
        return out
    paper = c.id.split(".", 1)[0]
    return {k: without_ids(v, paper, known) for k, v in out.items()}


def known_ids(paper: str, results: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """The short ids of the paper's claims (registered and in the rows): what an author's text may cite."""
    ids = {str(r["id"]).split(".", 1)[-1] for r in results}
    try:
        ids |= {c.id.split(".", 1)[-1] for c in registry.claims(paper=paper)}
    except TheoryverifyError:
        pass
    return frozenset(i for i in ids if len(i) > 1)


#: the endings of a paper's files, which a claim id of paper ``p`` never is (``p.tex``, ``p.tex:31`` are locations)
FILE_EXTENSIONS = "tex|bib|bbl|sty|cls|pdf|py|md|json|html|txt|csv|ipynb"


def without_ids(text: str, paper: str, known: frozenset[str] = frozenset()) -> str:
    """``text`` without the paper's internal claim ids: "holds: icrecall.x" -> "holds"; "(see icrecall.x)" and
    "(l6-limit)" (a short id the paper has) left out; a bare id -> "another check".  A file name of the paper is
    no id: "sgdvar.tex:31" stays "sgdvar.tex:31" in paper sgdvar's report.

    >>> without_ids("sgdvar.tex:31: 1 - (1 - eta h)^2 refuted (see sgdvar.lem-x); sgdvar.tex", "sgdvar")
    'sgdvar.tex:31: 1 - (1 - eta h)^2 refuted; sgdvar.tex'
    >>> without_ids("as sgdvar.thm-rate shows", "sgdvar")
    'as another check shows'"""
    if known:
        short = "|".join(re.escape(i) for i in sorted(known, key=len, reverse=True))
        text = re.sub(rf"\s*\((?:see\s+|cf\.\s+)?(?:{short})(?:\s*,\s*(?:{short}))*\)", "", text)
        text = re.sub(rf"(?<![\w.-])(?:{short})(?![\w-])", "another check", text)
    # a file of the paper (sgdvar.tex, sgdvar.tex:31 of paper sgdvar) is no claim id: it stays as written
    ident = (rf"(?<![\w/.-]){re.escape(paper)}\.(?![\w.-]*:\d)(?!(?:{FILE_EXTENSIONS})(?![\w-]))"
             rf"[\w-]+(?:\.[\w-]+)*")
    text = re.sub(rf"\s*\((?:see\s+)?{ident}(?:\s*,\s*{ident})*\)", "", text)
    text = re.sub(rf"\s*:\s*{ident}(?:\s*,\s*{ident})*", "", text)
    return re.sub(ident, "another check", text)


def _header(paper: Mapping[str, str], major: int, minor: int, total: int,
            run: Mapping[str, Any]) -> tuple[str, str]:
    return (f"Referee report: {paper['title']}",
            f"Points found by checking {total} claims of the paper symbolically and numerically "
            f"(`python -m theoryverify review --paper {paper['id']}`, profile {run['profile']}, seed {run['seed']}): "
            f"{major} major and {minor} minor. Major: errors, gaps in the proof of a main result, and readings whose "
            "favourable alternative fails or costs the paper something; minor: typos, gaps no main result rests on, "
            "wording whose favourable reading holds, and failures of a reconstruction of a lost object. Each point "
            "quotes the paper where its words are recorded, says what is wrong, gives the evidence and its class.")


def markdown(paper: Mapping[str, str], results: Sequence[Mapping[str, Any]], run: Mapping[str, Any],
             ids: bool = False) -> str:
    made = findings(results, run.get("seed"))
    major, minor = split(results, made)
    known = known_ids(paper["id"], results)
    title, intro = _header(paper, len(major), len(minor), len(cards(results)), run)
    lines = [f"# {title}", "", intro, ""]
    if not made:
        return "\n".join(lines + ["No finding: every checked claim holds, is proved, or is inconclusive.", ""])
    n = 0
    for heading, group in (("Major points", major), ("Minor points", minor)):
        if not group:
            continue
        lines += [f"## {heading}", ""]
        for c in group:
            n += 1
            p = point(c, ids, known)
            lines += [f"{n}. **{p['where']}.** {p['words']}", "",
                      f"   *What is wrong.* {p['wrong']}", "", f"   *Evidence.* {p['evidence']}", "",
                      f"   *Class.* {p['class']}" + (f" {p['readings']}" if "readings" in p else ""), ""]
            if ids:
                lines += [f"   *Reproduce.* `{p['reproduce']}` (claim `{p['claim']}`)", ""]
    return "\n".join(lines).rstrip() + "\n"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                  "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}"}
#: common symbols of the findings as LaTeX math (any other character is left for a Unicode engine: XeLaTeX)
_LATEX_SYMBOLS = {"Θ": r"\Theta", "Ω": r"\Omega", "Σ": r"\Sigma", "Δ": r"\Delta", "ε": r"\varepsilon",
                  "δ": r"\delta", "η": r"\eta", "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "λ": r"\lambda",
                  "μ": r"\mu", "σ": r"\sigma", "τ": r"\tau", "φ": r"\varphi", "ψ": r"\psi", "π": r"\pi",
                  "≤": r"\le", "≥": r"\ge", "≠": r"\neq", "≈": r"\approx", "→": r"\to", "∝": r"\propto",
                  "∈": r"\in", "∉": r"\notin", "×": r"\times", "·": r"\cdot", "−": "-", "±": r"\pm", "√": r"\sqrt{}",
                  "∞": r"\infty", "²": "^2", "³": "^3", "⁴": "^4", "¹": "^1", "⁻": "^-", "…": r"\dots",
                  "½": r"\tfrac12", "′": "'", "″": "''", "ᵀ": "^T", "ℛ": r"\mathcal{R}", "𝓡": r"\mathcal{R}"}


def latex_escape(text: str) -> str:
    """Plain text as LaTeX: the special characters escaped, the common math symbols in math mode."""
    out = []
    for ch in text:
        if ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ch in _LATEX_SYMBOLS:
            out.append(f"\\ensuremath{{{_LATEX_SYMBOLS[ch]}}}")
        else:
            out.append(ch)
    return "".join(out).replace("“", "``").replace("”", "''")


def latex(paper: Mapping[str, str], results: Sequence[Mapping[str, Any]], run: Mapping[str, Any],
          ids: bool = False) -> str:
    made = findings(results, run.get("seed"))
    major, minor = split(results, made)
    known = known_ids(paper["id"], results)
    title, intro = _header(paper, len(major), len(minor), len(cards(results)), run)
    x = latex_escape
    lines = [f"% {x(title)}", f"% Generated by python -m theoryverify review --paper {paper['id']} --latex; "
             "symbols outside the common set need a Unicode engine (XeLaTeX, LuaLaTeX).",
             f"\\section*{{{x(title)}}}", x(intro.replace("`", "")), ""]
    if not made:
        return "\n".join(lines + ["No finding: every checked claim holds, is proved, or is inconclusive.", ""])
    first = True
    for heading, group in (("Major points", major), ("Minor points", minor)):
        if not group:
            continue
        lines += [f"\\subsection*{{{heading}}}", "\\begin{enumerate}" + (
            "" if first else "\\setcounter{enumi}{" + str(len(major)) + "}")]
        first = False
        for c in group:
            p = point(c, ids, known)
            lines += [f"\\item \\textbf{{{x(p['where'])}.}} {x(p['words'])}",
                      f"\\emph{{What is wrong.}} {x(p['wrong'])}", f"\\emph{{Evidence.}} {x(p['evidence'])}",
                      f"\\emph{{Class.}} {x(p['class'])}" + (f" {x(p['readings'])}" if "readings" in p else "")]
            if ids:
                lines.append(f"\\emph{{Reproduce.}} \\texttt{{{x(p['reproduce'])}}} (claim \\texttt{{{x(p['claim'])}}})")
            lines.append("")
        lines += ["\\end{enumerate}", ""]
    return "\n".join(lines).rstrip() + "\n"


def _rows_from(path: Path, paper: str) -> list[dict[str, Any]]:
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BadRows(f"cannot read {path} as `verify --json` rows: {exc}") from None
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "id" in r and "status" in r for r in rows):
        raise BadRows(f"{path} is not a list of `verify --json` rows")
    mine = [r for r in rows if r.get("paper", str(r["id"]).split(".")[0]) == paper]
    if not mine:
        raise BadRows(f"{path} holds no row of paper {paper!r}")
    return mine


def _rows_run(paper: str, profile: str, seed: int, device: str, fresh: bool) -> list[dict[str, Any]]:
    from .build import select  # the claims the report of this profile runs
    profiles.load()
    ctx = RunContext(seed=seed, profile=profile, device=device)
    run = resume.ClaimRun(select(paper, profile, (), device), ctx, Store(resume.store_root([paper])), fresh=fresh,
                          prefix="theoryverify review")
    return run.compute(run.items, desc=paper)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--paper", required=True, help="paper id (e.g. icrecall)")
    p.add_argument("--latex", action="store_true", help="LaTeX (an enumerate per part) instead of Markdown")
    p.add_argument("--ids", action="store_true", help="name each point's claim id and the command reproducing it")
    p.add_argument("--profile", choices=["quick", "full"], default="quick")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="cpu")
    p.add_argument("--fresh", action="store_true", help="ignore the results store")
    p.add_argument("--rows", type=Path, default=None,
                   help="read the rows from a `verify --json` file (e.g. reports/quick/X.json) instead of running")
    p.add_argument("--out", type=Path, default=None, help="write to this file instead of stdout")


def main(args: argparse.Namespace) -> int:
    """The command (a :class:`TheoryverifyError` becomes the CLI's one-line error, exit 2)."""
    from ..seeds import DEFAULT_SEED
    papers = registry.papers()
    if args.paper not in papers:
        registry.claims(paper=args.paper)  # raises the registry's one-line reason (unknown id, or failed load)
        raise BadRows(f"unknown paper {args.paper!r}")
    seed = DEFAULT_SEED if args.seed is None else args.seed
    try:
        device = resolve_device(args.device)
    except ValueError as exc:
        raise BadRows(str(exc)) from None
    results = (_rows_from(args.rows, args.paper) if args.rows else
               _rows_run(args.paper, args.profile, seed, device, args.fresh))
    run = {"profile": results[0].get("profile") or args.profile if args.rows else args.profile, "seed": seed}
    text = (latex if args.latex else markdown)(vars(papers[args.paper]), results, run, args.ids)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


__all__ = ["PLAIN", "authors_reading_holds", "findings", "is_major", "latex", "latex_escape", "main", "main_ids",
           "markdown", "paper_order", "point", "section_key", "split", "words_line"]
