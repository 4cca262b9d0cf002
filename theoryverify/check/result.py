"""The step checker's answer: an engine :class:`~theoryverify.verdicts.Verdict` plus what was
checked, with one-line, JSON, Markdown and LaTeX renderings (the latter two for notebooks)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from ..verdicts import Status, Verdict, plain

EXIT_CODES = {Status.PROVED: 0, Status.HOLDS: 0, Status.REFUTED: 1, Status.INCONCLUSIVE: 3, Status.ERROR: 3}
SIDE_KEYS = ("lhs", "rhs")


@dataclass(frozen=True)
class StepVerdict:
    statement: str
    context: str
    verdict: Verdict
    op: str | None = None
    lhs_latex: str | None = None
    rhs_latex: str | None = None
    symbols: tuple[str, ...] = ()
    bad_input: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)
    domain: str = ""  # the domain searched, in words
    line_no: int | None = None  # the line of a --tex file
    links: tuple["StepVerdict", ...] = ()  # a chain's links, in order
    read_as: str | None = None  # a LaTeX statement in plain syntax

    @property
    def status(self) -> Status:
        return self.verdict.status

    @property
    def holds(self) -> bool:
        return self.verdict.holds

    @property
    def exit_code(self) -> int:
        return 2 if self.bad_input else EXIT_CODES[self.status]

    @property
    def counterexample(self) -> dict[str, Any] | None:
        ce = self.verdict.counterexample
        return {k: v for k, v in ce.items() if k not in SIDE_KEYS} if ce else None

    @property
    def sides(self) -> dict[str, Any] | None:
        ce = self.verdict.counterexample
        return {k: ce[k] for k in SIDE_KEYS if k in ce} if ce else None

    def to_json(self) -> dict[str, Any]:
        v = self.verdict.to_json()
        out = {"statement": self.statement, "context": self.context, "verdict": v["status"],
               "method": v["method"], "evidence": v["evidence"],
               "counterexample": plain(self.counterexample) if self.counterexample is not None else None}
        if self.sides:
            out.update({f"{k}_value": plain(x) for k, x in self.sides.items()})
        out.update({"symbols": list(self.symbols), "domain": self.domain, "details": v["details"],
                    "seed": v["seed"], "runtime_s": v["runtime_s"], **plain(dict(self.extra))})
        if self.read_as is not None:
            out["read_as"] = self.read_as
        if self.line_no is not None:
            out["line"] = self.line_no
        if self.links:
            out["links"] = [link.to_json() for link in self.links]
            out["first_failing_link"] = self.first_failing
        return out

    @property
    def first_failing(self) -> int | None:
        """1-based index of a chain's first link that does not hold (refuted, else inconclusive/error)."""
        for order in (Status.REFUTED, Status.ERROR, Status.INCONCLUSIVE):
            for i, link in enumerate(self.links):
                if link.status is order:
                    return i + 1
        return None

    def line(self) -> str:
        """One line: verdict, method, evidence and (for a refutation) the counterexample."""
        v = self.verdict
        if self.bad_input:
            return f"error: {v.evidence}"
        if self.links:
            return self._chain_line()
        text = f"{v.status.value}: {shorten(_one_line(v.evidence))}"
        if self.domain and v.status is not Status.ERROR:
            text += f"  [domain: {_one_line(self.domain)}]"
        text += f"  [{_one_line(v.method)}; {v.runtime_s:.2f} s]"
        if self.counterexample is not None:
            pts = ", ".join(f"{k}={_fmt(x)}" for k, x in self.counterexample.items())
            text += f"  counterexample: {pts or '(no free symbols)'}"
            if self.sides:
                text += "; " + ", ".join(f"{k}={_fmt(x)}" for k, x in self.sides.items())
        return text

    __str__ = line

    def _chain_line(self) -> str:
        n = len(self.links)
        k = self.first_failing
        if k is None:
            kinds = [link.status.value for link in self.links]
            summary = ", ".join(f"{kinds.count(s)} {s}" for s in ("proved", "holds") if kinds.count(s))
            return (f"{self.status.value}: all {n} links hold ({summary}): " +
                    " | ".join(f"{i + 1}. {link.statement}: {link.status.value}" for i, link in enumerate(self.links))
                    + f"  [{self.verdict.runtime_s:.2f} s]")
        bad = self.links[k - 1]
        rest = bad.line().split(": ", 1)[1] if ": " in bad.line() else bad.line()
        return f"{self.status.value}: link {k} of {n} ({bad.statement}) is {bad.status.value}: {rest}"

    def _repr_markdown_(self) -> str:
        v = self.verdict
        rows = [f"**{v.status.value}** — `{self.statement}` (context `{self.context}`)", "",
                f"- method: {v.method}", f"- evidence: {shorten(v.evidence)}"]
        if self.counterexample:
            rows += ["", "| symbol | value |", "|---|---|"]
            rows += [f"| `{k}` | {_fmt(x)} |" for k, x in self.counterexample.items()]
            rows += [f"| **{k}** | {_fmt(x)} |" for k, x in (self.sides or {}).items()]
        return "\n".join(rows)

    def _repr_latex_(self) -> str:
        if self.lhs_latex is None:
            return rf"$\text{{{self.status.value}: {_latex_text(self.verdict.evidence)}}}$"
        if self.links:
            return "$" + r" \quad ".join(link._repr_latex_().strip("$") for link in self.links) + "$"
        rel = {"==": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">"}[self.op or "=="]
        if self.status is Status.REFUTED:
            rel = {"=": r"\ne", r"\le": r"\not\le", r"\ge": r"\not\ge", "<": r"\not<", ">": r"\not>"}[rel]
        return (rf"$\displaystyle {self.lhs_latex} {rel} {self.rhs_latex}"
                rf"\quad \text{{({self.status.value})}}$")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _latex_text(text: str) -> str:
    return "".join("\\" + c if c in "{}$&#%_^\\" else c for c in _one_line(text))


LONG_EXACT = 20  # an exact value longer than this is shown as a short decimal in messages (JSON keeps it exact)
_NUMBER = re.compile(r"(?<![\w.\[])-?\d+(?:/\d+)?(?![\w.(\]])")


def short(x: Any) -> str:
    """A value for a message: exact when its exact form is short, else a 10-digit decimal (JSON keeps it exact)."""
    if isinstance(x, float):
        return f"{x:.10g}"
    text = str(plain(x))
    if len(text) > LONG_EXACT and _NUMBER.fullmatch(text):
        try:
            return f"{float(Fraction(text)):.10g}"
        except (ValueError, OverflowError, ZeroDivisionError):
            return text
    return text


def shorten(message: str) -> str:
    """Every exact number longer than :data:`LONG_EXACT` characters in a message as a short decimal."""
    return _NUMBER.sub(lambda m: short(m.group(0)) if len(m.group(0)) > LONG_EXACT else m.group(0), message)


def _fmt(x: Any) -> str:
    return short(x)


def chain_verdict(stmt, context: str, links: tuple[StepVerdict, ...], runtime_s: float) -> StepVerdict:
    """A chain's verdict: its first failing link's (refuted before error before inconclusive), else proved
    when every link is proved, else holds."""
    from ..verdicts import Verdict
    probe = StepVerdict(stmt.text, context, links[0].verdict, links=links)
    k = probe.first_failing
    if k is not None:
        bad = links[k - 1]
        v = Verdict(bad.status, f"chain link {k} of {len(links)}: {bad.verdict.method}",
                    f"link {k} ({bad.statement}): {bad.verdict.evidence}", bad.verdict.counterexample,
                    dict(bad.verdict.details), bad.verdict.seed, runtime_s)
    else:
        status = Status.PROVED if all(link.status is Status.PROVED for link in links) else Status.HOLDS
        v = Verdict(status, f"chain of {len(links)} links", "; ".join(
            f"link {i + 1} ({link.statement}): {link.verdict.evidence}" for i, link in enumerate(links)),
            None, {}, links[0].verdict.seed, runtime_s)
    return StepVerdict(stmt.text, context, v, None, None, None,
                       tuple(dict.fromkeys(s for link in links for s in link.symbols)),
                       domain=links[k - 1].domain if k else links[0].domain, line_no=stmt.line, links=links)


def bad_input(statement: str, context: str, message: str) -> StepVerdict:
    from ..verdicts import error
    return StepVerdict(statement, context, error("bad input", message), bad_input=True)
