"""A checking session: one context, its assumptions, the session's definitions, settings.

The CLI, the REPL, ``--tex`` files and the Python API all go through :class:`Session`.
"""
from __future__ import annotations

import ast
from typing import Iterable, Sequence

import sympy as sp

from .. import profiles
from .. import stepcontext
from ..seeds import DEFAULT_SEED
from .build import Scope, bound_names, infer_integers
from .functions import CONSTANTS, DISTRIBUTIONS, FUNCTIONS
from .isolate import can_fork
from .parser import (DEFAULT_TIMEOUT, BadInput, Definition, Statement, parse_any, parse_definition,
                     parse_statement, unparse)
from .result import StepVerdict, bad_input

RESERVED = set(FUNCTIONS) | set(CONSTANTS) | {"simplex", "oo"}

# Function definitions whose body is integer arithmetic (+ − × ÷) of their own parameters alone — the tex reader's
# ``inner(a, b) := a*b`` and ``transpose(x) := x``, given to every session it opens — build to the same Lambda in
# any scope (each name is a parameter, resolved before any scope name; no power, call or float whose reading a
# setting could change): the first is built as any definition (forked, under the hard limit), then reused by
# this process's later sessions.  Each forked build cost ~20 ms of CPU (the fork and the page copies of a ~300 MB
# process, for a Lambda of one product), and a paper checked with ``--tex`` opens a session per assumption set.
_PARAMETER_ARITHMETIC: dict[str, sp.Lambda] = {}
_ARITHMETIC_NODES = (ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.UAdd, ast.Load)


def _parameter_arithmetic_key(params: Sequence[str], expr: ast.AST) -> str | None:
    """A key for a function body that is integer arithmetic of the parameters alone; None for any other body."""
    for n in ast.walk(expr):
        if isinstance(n, ast.Name):
            if n.id not in params:
                return None
        elif isinstance(n, ast.Constant):
            if type(n.value) is not int:
                return None
        elif not isinstance(n, _ARITHMETIC_NODES):
            return None
    return repr((tuple(params), ast.dump(expr)))


def load_context(name: "str | stepcontext.StepContext", assume: Sequence[str] = ()) -> stepcontext.StepContext:
    if isinstance(name, stepcontext.StepContext):  # a context object (a test, a notebook): used as it is
        if assume:
            from .assume import narrowed
            return narrowed(name, assume)
        return name
    if name == "free":
        from .assume import free_with_assumptions
        return free_with_assumptions(assume)
    try:
        ctx = stepcontext.get(name)
    except stepcontext.UnknownContext as exc:
        raise BadInput(str(exc)) from None
    if assume:  # narrow a paper context declared in the assumption language (tv.assumed_context)
        from .assume import narrowed
        return narrowed(ctx, assume)
    return ctx


class Session:
    """Checks statements in one context; remembers definitions and assumptions."""

    def __init__(self, context: "str | stepcontext.StepContext" = "free", assume: Sequence[str] = (), *,
                 seed: int = DEFAULT_SEED, timeout: float = DEFAULT_TIMEOUT, isolate: bool | None = None,
                 define: Sequence[str] = ()):
        profiles.load()
        self.context_name = context if isinstance(context, str) else context.name
        self._context_arg = context
        self.assumptions = list(assume)
        self.context = load_context(context, self.assumptions)
        self.context.defs  # build the paper's definitions once, before any forked check
        self.scope = Scope(self.context)
        self._declare()
        self.seed, self.timeout = seed, timeout
        self.isolate = can_fork() if isolate is None else isolate
        self.pending_given: list[str] = []  # REPL typed step (:given / :by)
        self.pending_by: str | None = None
        for text in define:
            d = parse_definition(text, self.function_names())
            if d is None:
                raise BadInput(f"--define takes name := expr or f(x) := expr, got {text[:60]!r}")
            self.define(d)

    def _declare(self) -> None:
        decl = getattr(self.context, "declarations", None)
        if decl is None:
            return
        self.scope.named = dict(decl.named)
        self.scope.functions = {f: self.scope.functions.get(f) for f in decl.functions}

    def assume(self, text: str) -> str:
        """Add one assumption (the REPL's ``:assume``); the context is rebuilt, definitions stay."""
        context = load_context(self._context_arg, [*self.assumptions, text])
        self.assumptions.append(text)
        self.context = context
        self.scope.context = context
        self._declare()
        return f"assumed: {text.strip()}"

    def function_names(self) -> set[str]:
        return self.scope.function_names()

    def _fresh(self, *nodes) -> None:
        """Names made for the free context and integers inferred from Sum bounds belong to one statement."""
        self.scope.made, self.scope.inferred = {}, {}
        infer_integers(self.scope, nodes)

    def check(self, text: str, given: Iterable[str] = (), by: str | None = None, *,
              latex: bool = False) -> StepVerdict:
        """Verdict on one statement (a bad input becomes an error verdict with exit code 2)."""
        try:
            if latex:
                from .latex import parse_latex_statement
                stmt = parse_latex_statement(text, self.function_names())
            else:
                stmt = parse_statement(text, self.function_names())
            premises = [parse_statement(g, self.function_names()) for g in given]
            return self.check_parsed(stmt, premises, by)
        except BadInput as exc:
            return bad_input(text if isinstance(text, str) else "", self.context.name, str(exc))

    def check_parsed(self, stmt: Statement, premises: Sequence[Statement] = (), by: str | None = None) -> StepVerdict:
        """Verdict on an already parsed statement (raises BadInput)."""
        self._fresh(*stmt.terms, *(t for p in premises for t in p.terms))
        for st in (stmt, *premises):
            self.resolve_names(*st.terms)
        from .decide import check_statement  # the engine (SciPy, Hypothesis) loads on first check
        v = check_statement(self.scope, stmt, seed=self.seed, timeout=self.timeout, isolate=self.isolate,
                            given=premises, by=by)
        if stmt.source == "latex":
            from dataclasses import replace
            v = replace(v, read_as=stmt.read_as)
        return v

    def resolve_names(self, *nodes) -> None:
        """Unknown names are bad input: report them before any engine work."""
        bound = bound_names(nodes)
        called = {n.func.id for node in nodes for n in ast.walk(node)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        for node in nodes:
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and n.id not in bound and not (n.id in called and self._callable(n.id)):
                    self.scope.resolve(n.id)
                elif isinstance(n, ast.keyword) and n.arg:
                    self.scope.resolve(n.arg)

    def _callable(self, name: str) -> bool:
        return name in FUNCTIONS or name in self.function_names()

    def define(self, d: Definition):
        from .decide import build_definition, build_function
        if d.name in RESERVED or d.name in self.context.symbols or d.name in self.context.defs \
                or d.name in self.scope.named or d.name in self.scope.functions:
            raise BadInput(f"{d.name!r} is already a function, constant, symbol or definition")
        self._fresh(d.expr)
        if d.params:
            clash = [p for p in d.params if p in RESERVED]
            if clash:
                raise BadInput(f"parameter {clash[0]!r} is a function or constant name")
            key = _parameter_arithmetic_key(d.params, d.expr)
            fn = _PARAMETER_ARITHMETIC.get(key) if key else None
            if fn is None:
                fn = build_function(self.scope, d.params, d.expr, self.timeout, self.isolate)
                if key:
                    _PARAMETER_ARITHMETIC[key] = fn
            self.scope.user.pop(d.name, None)
            self.scope.user_functions[d.name] = fn
            return fn
        value = build_definition(self.scope, d.expr, self.timeout, self.isolate)
        self.scope.user_functions.pop(d.name, None)
        self.scope.user[d.name] = value
        return value

    def line(self, text: str) -> tuple[str, StepVerdict | None]:
        """One REPL line (definition, statement or expression) -> (one output line, verdict)."""
        try:
            item = parse_any(text, self.function_names())
            from .decide import build_definition
            if isinstance(item, Definition):
                value = self.define(item)
                if item.params:
                    return f"{item.name}({', '.join(item.params)}) := {_short(unparse(item.expr))}", None
                return f"{item.name} := {_short(value)}", None
            if isinstance(item, Statement):
                v = self.check_parsed(item)
                return v.line(), v
            self._fresh(item)
            self.resolve_names(item)
            value = build_definition(self.scope, item, self.timeout, self.isolate)
            return f"= {_short(value)}", None
        except BadInput as exc:
            return f"error: {exc}", None
        except Exception as exc:  # never let one line end the session
            return f"error: {type(exc).__name__}: {exc}", None

    def symbols(self) -> list[str]:
        rows = self.context.describe_symbols()
        own = {", ".join(map(str, v.symbols)): v.describe() for v in self.context.variables if hasattr(v, "describe")}
        rows = [(n, own.get(n, d)) for n, d in rows]
        if self.context.open_names:
            rows = [r for r in rows if r[0] != "(any other name)"]
            rows.append(("(any other name)", "real, searched over ℝ: 0, small integers, magnitudes 1e-6…1e6 in "
                                             "both signs (--assume / :assume declare domains)"))
        for name, value in self.scope.named.items():
            if isinstance(value, sp.MatrixBase):
                r, c = value.shape
                rows.append((name, f"{r}-vector" if c == 1 else f"{r}×{c} matrix" + " with real entries"))
            elif hasattr(value, "describe"):
                rows.append((name, f"random variable {value.describe()} (use inside E(...))"))
        for name in self.scope.functions:
            rows.append((name, "unspecified smooth function (proved for every f, or checked on test functions)"))
        rows += [(name, f"session function: ({', '.join(str(v).lstrip('_') for v in fn.variables)}) ↦ "
                        f"{_short(fn(*[sp.Symbol(str(v).lstrip('_')) for v in fn.variables]))}")
                 for name, fn in self.scope.user_functions.items()]
        rows += [(name, f"session definition: {_short(v)}") for name, v in self.scope.user.items()]
        rows += [(name, f"constant: {what}") for name, what in CONSTANTS.items()
                 if name not in self.context.symbols and name not in self.context.defs]
        decl = getattr(self.context, "declarations", None)
        if decl is not None and decl.notes:
            rows.append(("(notes)", "; ".join(decl.notes)))
        width = max((len(n) for n, _ in rows), default=0)
        return [f"{n.ljust(width)}  {d}" for n, d in rows]


def _short(value, width: int = 160) -> str:
    if isinstance(value, sp.MatrixBase):
        text = " ".join(sp.sstr(value).split())
    else:
        text = " ".join(sp.sstr(value).split()) if sp.count_ops(value) < 400 else \
            f"<expression with {sp.count_ops(value)} operations>"
    return text if len(text) <= width else text[: width - 1] + "…"


__all__ = ["Session", "load_context", "DISTRIBUTIONS"]
