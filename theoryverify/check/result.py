"""The step checker's answer: an engine :class:`~theoryverify.verdicts.Verdict` plus what was
checked, with one-line, JSON, Markdown and LaTeX renderings (the latter two for notebooks)."""
from __future__ import annotations

from dataclasses import dataclass, field
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
        out.update({"symbols": list(self.symbols), "details": v["details"], "seed": v["seed"],
                    "runtime_s": v["runtime_s"], **plain(dict(self.extra))})
        return out

    def line(self) -> str:
        """One line: verdict, method, evidence and (for a refutation) the counterexample."""
        v = self.verdict
        if self.bad_input:
            return f"error: {v.evidence}"
        text = f"{v.status.value}: {_one_line(v.evidence)}  [{_one_line(v.method)}; {v.runtime_s:.2f} s]"
        if self.counterexample is not None:
            pts = ", ".join(f"{k}={_fmt(x)}" for k, x in self.counterexample.items())
            text += f"  counterexample: {pts or '(no free symbols)'}"
            if self.sides:
                text += "; " + ", ".join(f"{k}={_fmt(x)}" for k, x in self.sides.items())
        return text

    __str__ = line

    def _repr_markdown_(self) -> str:
        v = self.verdict
        rows = [f"**{v.status.value}** — `{self.statement}` (context `{self.context}`)", "",
                f"- method: {v.method}", f"- evidence: {v.evidence}"]
        if self.counterexample:
            rows += ["", "| symbol | value |", "|---|---|"]
            rows += [f"| `{k}` | {_fmt(x)} |" for k, x in self.counterexample.items()]
            rows += [f"| **{k}** | {_fmt(x)} |" for k, x in (self.sides or {}).items()]
        return "\n".join(rows)

    def _repr_latex_(self) -> str:
        if self.lhs_latex is None:
            return rf"$\text{{{self.status.value}: {_latex_text(self.verdict.evidence)}}}$"
        rel = {"==": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">"}[self.op or "=="]
        if self.status is Status.REFUTED:
            rel = {"=": r"\ne", r"\le": r"\not\le", r"\ge": r"\not\ge", "<": r"\not<", ">": r"\not>"}[rel]
        return (rf"$\displaystyle {self.lhs_latex} {rel} {self.rhs_latex}"
                rf"\quad \text{{({self.status.value})}}$")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _latex_text(text: str) -> str:
    return "".join("\\" + c if c in "{}$&#%_^\\" else c for c in _one_line(text))


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.10g}"
    return str(plain(x))


def bad_input(statement: str, context: str, message: str) -> StepVerdict:
    from ..verdicts import error
    return StepVerdict(statement, context, error("bad input", message), bad_input=True)
