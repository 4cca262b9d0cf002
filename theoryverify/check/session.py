"""A checking session: one context, the session's ``name := expr`` definitions, settings.

The CLI, the REPL and the Python API all go through :class:`Session`.
"""
from __future__ import annotations

import ast

from typing import Iterable, Sequence

import sympy as sp

from .. import profiles
from .. import stepcontext
from ..seeds import DEFAULT_SEED
from .build import Scope
from .isolate import can_fork
from .parser import DEFAULT_TIMEOUT, FUNCTIONS, BadInput, Definition, Statement, parse_any, parse_statement
from .result import StepVerdict, bad_input

RESERVED = set(FUNCTIONS) | {"simplex"}


def load_context(name: str, assume: Sequence[str] = ()) -> stepcontext.StepContext:
    if assume and name != "free":
        raise BadInput("--assume is only for the free context (paper contexts declare their domains)")
    if name == "free":
        from .assume import free_with_assumptions
        return free_with_assumptions(assume)
    try:
        return stepcontext.get(name)
    except stepcontext.UnknownContext as exc:
        raise BadInput(str(exc)) from None


class Session:
    """Checks statements in one context; remembers definitions."""

    def __init__(self, context: str = "free", assume: Sequence[str] = (), *, seed: int = DEFAULT_SEED,
                 timeout: float = DEFAULT_TIMEOUT, isolate: bool | None = None):
        profiles.load()
        self.context = load_context(context, assume)
        self.context.defs  # build the paper's definitions once, before any forked check
        self.scope = Scope(self.context)
        self.seed, self.timeout = seed, timeout
        self.isolate = can_fork() if isolate is None else isolate
        self.pending_given: list[str] = []  # REPL typed step (:given / :by)
        self.pending_by: str | None = None

    def check(self, text: str, given: Iterable[str] = (), by: str | None = None) -> StepVerdict:
        """Verdict on one statement (a bad input becomes an error verdict with exit code 2)."""
        try:
            stmt = parse_statement(text)
            premises = [parse_statement(g) for g in given]
            for st in (stmt, *premises):
                self.resolve_names(st.lhs, st.rhs)
            from .decide import check_statement  # the engine (SciPy, Hypothesis) loads on first check
            return check_statement(self.scope, stmt, seed=self.seed, timeout=self.timeout,
                                   isolate=self.isolate, given=premises, by=by)
        except BadInput as exc:
            return bad_input(text if isinstance(text, str) else "", self.context.name, str(exc))

    def resolve_names(self, *nodes) -> None:
        """Unknown names are bad input: report them before any engine work."""
        for node in nodes:
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and n.id not in FUNCTIONS:
                    self.scope.resolve(n.id)
                elif isinstance(n, ast.keyword) and n.arg:
                    self.scope.resolve(n.arg)

    def define(self, d: Definition) -> sp.Expr:
        from .decide import build_definition
        if d.name in RESERVED or d.name in self.context.symbols or d.name in self.context.defs:
            raise BadInput(f"{d.name!r} is already a function, symbol or definition of the context")
        value = build_definition(self.scope, d.expr, self.timeout, self.isolate)
        self.scope.user[d.name] = value
        return value

    def line(self, text: str) -> tuple[str, StepVerdict | None]:
        """One REPL line (definition, statement or expression) -> (one output line, verdict)."""
        try:
            item = parse_any(text)
            from .decide import build_definition, check_statement
            if isinstance(item, Definition):
                value = self.define(item)
                return f"{item.name} := {_short(value)}", None
            if isinstance(item, Statement):
                self.resolve_names(item.lhs, item.rhs)
                v = check_statement(self.scope, item, seed=self.seed, timeout=self.timeout, isolate=self.isolate)
                return v.line(), v
            value = build_definition(self.scope, item, self.timeout, self.isolate)
            return f"= {_short(value)}", None
        except BadInput as exc:
            return f"error: {exc}", None
        except Exception as exc:  # never let one line end the session
            return f"error: {type(exc).__name__}: {exc}", None

    def symbols(self) -> list[str]:
        rows = self.context.describe_symbols()
        rows += [(name, f"session definition: {_short(v)}") for name, v in self.scope.user.items()]
        width = max((len(n) for n, _ in rows), default=0)
        return [f"{n.ljust(width)}  {d}" for n, d in rows]


def _short(value: sp.Expr, width: int = 160) -> str:
    text = " ".join(sp.sstr(value).split()) if sp.count_ops(value) < 400 else f"<expression with {sp.count_ops(value)} operations>"
    return text if len(text) <= width else text[: width - 1] + "…"
