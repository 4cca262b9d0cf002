"""``--tex FILE``: every relation in a LaTeX file's ``equation``, ``align``, ``gather`` (and ``multline``,
``\\[ … \\]``) environments, one verdict per link with the file's line number, the first wrong step
highlighted.

The file is read as text (at most :data:`MAX_TEX_BYTES`), never run: a file that defines macros
(``\\def``, ``\\newcommand``), pulls in others (``\\input``, ``\\include``), writes or escapes to a shell
(``\\write18``) is refused with one line naming the place, before anything is checked.  Everything outside
the math environments is ignored (the preamble, prose, ``\\section``).

Inside an environment, rows are split at ``\\\\``; ``&`` is ignored; a row that starts with a relation
(``&= …``, ``&\\le …``) continues the chain of the rows before it, a row that starts with ``+``/``-``
continues its last expression (``&\\quad + 1`` too), any other row starts a new chain; ``\\quad``/``\\text{…}``
end a row's math (what follows is prose; when it holds a relation — ``\\qquad g(0) = 2``, ``\\quad \\text{for }
x > 0`` — the report lists it as not checked, so nothing is dropped silently).  ``A := B`` (also
``\\coloneqq``, ``\\triangleq``) defines ``A`` for later equations (``f(x) := …`` a function) rather than being
checked.

Comment lines tell the checker what the prose says:

- ``% theoryverify: assume x > 0`` — an assumption for the whole file (the plain assumption language, see
  :mod:`.assume`), like ``--assume``;
- ``% theoryverify: define f(x) := x*sigmoid(x)`` — a definition in plain syntax, from that point on;
- ``% theoryverify: skip`` — leave out the next environment (a definition by prose, a construct the reader
  does not support).

Any equation the reader cannot read is bad input (exit 2, one line ``FILE:LINE: message``), so a "holds"
never silently covers fewer steps than the file shows.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .latex import (DEFINITION_OPS, FORBIDDEN, RELATIONS, STOPS, Token, parse_relation_tokens, to_statement,
                    tokenize)
from .parser import BadInput, Definition, Statement, unparse

MAX_TEX_BYTES = 256 * 1024
MAX_ROW_CHARS = 4000
ENV_RE = re.compile(r"\\begin\{(equation|align|gather|multline|eqnarray|flalign|alignat)(\*?)\}(.*?)"
                    r"\\end\{\1\2\}|\\\[(.*?)\\\]", re.S)
DIRECTIVE_RE = re.compile(r"^\s*%+\s*theoryverify\s*:\s*([a-z]+)\b\s*(.*?)\s*$", re.M)
INNER_ENVS = re.compile(r"\\(begin|end)\{(split|aligned|gathered|alignedat)\}(\{[^{}]*\})?")


@dataclass
class Chain:
    """The rows (tokens tagged with their line) of one chain, and the LaTeX source shown for each line."""
    tokens: list[Token] = field(default_factory=list)
    source: dict[int, str] = field(default_factory=dict)

    @property
    def has_relation(self) -> bool:
        return any(t.text in RELATIONS or t.text in DEFINITION_OPS for t in self.tokens)


@dataclass
class Step:
    """One link to check (or a definition) with its place in the file."""
    line: int
    latex: str
    statement: Statement | None = None
    definition: Definition | None = None
    ignored: str | None = None  # math-looking text after \quad / \text, read as prose and not checked


def read(path: str) -> str:
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}") from None
    if not p.is_file():
        raise BadInput(f"{path} is not a file")
    if size > MAX_TEX_BYTES:
        raise BadInput(f"{path}: file too large ({size} bytes; at most {MAX_TEX_BYTES})")
    try:
        return p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text") from None


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def directives(text: str) -> list[tuple[int, str, str]]:
    """(line, word, argument) of each ``% theoryverify:`` comment."""
    out = []
    for m in DIRECTIVE_RE.finditer(text):
        word = m.group(1)
        if word not in ("assume", "define", "skip"):
            raise BadInput(f"line {_line_of(text, m.start())}: unknown directive '{word}' (assume, define, skip)")
        out.append((_line_of(text, m.start()), word, m.group(2)))
    return out


def _strip_comments(body: str) -> str:
    """LaTeX comments (``%`` to the end of the line, not ``\\%``), keeping the line structure."""
    return re.sub(r"(?<!\\)%[^\n]*", "", body)


def _rows(body: str, first_line: int) -> list[tuple[int, str]]:
    body = INNER_ENVS.sub(" ", _strip_comments(body))
    body = re.sub(r"\\\\\s*\[[^\]]{0,20}\]", r"\\\\", body)  # \\[4pt]
    out, pos = [], 0
    for part in re.split(r"\\\\", body):
        lead = len(part) - len(part.lstrip())
        line = first_line + body.count("\n", 0, pos + lead)
        out.append((line, part))
        pos += len(part) + 2
    return out


def _row_checks(row: str, line: int) -> None:
    if len(row) > MAX_ROW_CHARS:
        raise BadInput(f"line {line}: row too long ({len(row)} characters; at most {MAX_ROW_CHARS})")
    if "#" in row:
        raise BadInput(f"line {line}: LaTeX '#' (a macro parameter) is refused")
    if re.search(r"\\begin\{cases\}|\\begin\{[pbvBV]?matrix\}", row):
        raise BadInput(f"line {line}: cases and matrix environments are not read (add '% theoryverify: skip' "
                       "before the environment)")


LEADING_SPACE = {"\\quad", "\\qquad"}


def _row_split(row: str, line: int) -> tuple[list[Token], str]:
    """The row's math tokens, and the text dropped after a \\quad / \\text stop when it holds a relation (so that
    the report can say what was not checked: "\\qquad g(0) = 2", "\\quad \\text{for } x > 0")."""
    toks, ignored = [], ""
    raw = tokenize(row)
    for i, t in enumerate(raw):
        if t.kind == "end":
            break
        if t.text in LEADING_SPACE and not toks:  # "&\\quad + 1": layout at the start of a continued row
            continue
        if t.text in STOPS:
            if any(u.text in RELATIONS for u in raw[i + 1:]):
                ignored = " ".join(row[t.pos:].replace("&", " ").split())
            break
        toks.append(Token(t.kind, t.text, line))
    while toks and toks[-1].kind == "sym" and toks[-1].text in (",", ".", ";"):
        toks.pop()
    return toks, ignored


def steps(text: str, functions: set[str]) -> list[tuple[int, str, object]]:
    """The file in order: ('define', line, text) directives and ('chain', line, Chain) items; skipped
    environments left out."""
    m = FORBIDDEN.search(text)
    if m:
        raise BadInput(f"line {_line_of(text, m.start())}: LaTeX \\{m.group(1)} is refused: the checker never "
                       "expands macros (\\def, \\newcommand), reads files (\\input) or runs anything (\\write18)")
    items: list[tuple[int, str, object]] = []
    for line, word, arg in directives(text):
        if word in ("define", "skip"):
            items.append((line, word, arg))
    for m in ENV_RE.finditer(text):
        body = m.group(3) if m.group(3) is not None else m.group(4)
        start = m.start(3) if m.group(3) is not None else m.start(4)
        items.append((_line_of(text, start), "env", (body, _line_of(text, start), m.group(1) or "displaymath")))
    items.sort(key=lambda it: it[0])
    out: list[tuple[int, str, object]] = []
    skip_next = False
    for line, kind, payload in items:
        if kind == "skip":
            skip_next = True
            continue
        if kind == "define":
            out.append((line, "define", payload))
            continue
        if skip_next:
            skip_next = False
            continue
        body, first, _ = payload
        chains, notes = _chains(body, first)
        for chain in chains:
            out.append((min(t.pos for t in chain.tokens), "chain", chain))
        out.extend((line, "ignored", note) for line, note in notes)
    out.sort(key=lambda it: it[0])
    return out


def _chains(body: str, first_line: int) -> tuple[list[Chain], list[tuple[int, str]]]:
    """The environment's chains, and (line, text) of what a \\quad / \\text stop left unread."""
    chains: list[Chain] = []
    notes: list[tuple[int, str]] = []
    current: Chain | None = None
    for line, row in _rows(body, first_line):
        _row_checks(row, line)
        toks, ignored = _row_split(row, line)
        if ignored:
            notes.append((line, ignored))
        if not toks:
            continue
        head = toks[0].text
        continues = head in RELATIONS or head in DEFINITION_OPS or \
            (head in ("+", "-") and current is not None) or (current is not None and not current.has_relation)
        if current is None or not continues:
            current = Chain()
            chains.append(current)
        current.tokens.extend(toks)
        current.source[line] = " ".join(row.replace("&", " ").split())
    return chains, notes


def _defines_function(tokens: list[Token]) -> str | None:
    """``f(x, y) := …`` at the start of a chain: f (so that its left side reads as a call)."""
    if len(tokens) < 4 or tokens[0].kind != "letter" or tokens[1].text != "(":
        return None
    depth = 0
    for i, t in enumerate(tokens[1:], 1):
        depth += t.text == "("
        depth -= t.text == ")"
        if depth == 0:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            return tokens[0].text if nxt is not None and nxt.text in DEFINITION_OPS else None
    return None


def _links(chain: Chain, functions: set[str] | None) -> list[Step]:
    positions: list[int] = []
    fn = _defines_function(chain.tokens)
    if fn is not None:
        functions = (functions or set()) | {fn}
    try:
        terms, ops = parse_relation_tokens(chain.tokens, functions, positions)
    except BadInput as exc:
        line = min(chain.source) if chain.source else 0
        raise BadInput(f"line {line}: {exc}") from None
    first = min(chain.source)
    if not ops:
        raise BadInput(f"line {first}: an equation without a relation (=, \\le, …); add '% theoryverify: skip' "
                       "before it to leave it out")
    out: list[Step] = []
    start = 0
    if ops[0] == ":=":
        out.append(Step(positions[0], chain.source.get(positions[0], ""), definition=_definition(terms[0], terms[1],
                                                                                                 positions[0])))
        start = 1
    for i in range(start, len(ops)):
        if ops[i] == ":=":
            raise BadInput(f"line {positions[i]}: ':=' only at the start of a chain (it defines the left side)")
        line = positions[i]
        text = f"{unparse(terms[i])} {ops[i]} {unparse(terms[i + 1])}"
        try:
            st = to_statement([terms[i], terms[i + 1]], [ops[i]], text, line=line, functions=functions)
        except BadInput as exc:
            raise BadInput(f"line {line}: {exc}") from None
        out.append(Step(line, chain.source.get(line, ""), statement=st))
    return out


def _definition(lhs: ast.expr, rhs: ast.expr, line: int) -> Definition:
    if isinstance(lhs, ast.Name):
        return Definition(f"{lhs.id} := {unparse(rhs)}", lhs.id, rhs)
    if isinstance(lhs, ast.BinOp) and isinstance(lhs.op, ast.Mult) and isinstance(lhs.left, ast.Name):
        # f(x) read as f*x (f not yet a known function): the parameters are the names in the brackets
        params = _param_names(lhs.right)
        if params:
            return Definition(f"{lhs.left.id}({', '.join(params)}) := {unparse(rhs)}", lhs.left.id, rhs, params)
    if isinstance(lhs, ast.Call) and isinstance(lhs.func, ast.Name):
        params = tuple(a.id for a in lhs.args if isinstance(a, ast.Name))
        if len(params) == len(lhs.args):
            return Definition(f"{lhs.func.id}({', '.join(params)}) := {unparse(rhs)}", lhs.func.id, rhs, params)
    raise BadInput(f"line {line}: the left side of := must be a name or f(x, y)")


def _param_names(node: ast.expr) -> tuple[str, ...]:
    if isinstance(node, ast.Name):
        return (node.id,)
    return ()


# --- checking a file ------------------------------------------------------------------------------------

def check_file(path: str, context: str = "free", assume=(), *, seed=None, timeout=None, as_json: bool = False,
               out=None, color: bool | None = None) -> int:
    """Check every step of ``path``; print one line per link and a summary; return the exit code."""
    from .parser import DEFAULT_TIMEOUT
    from ..seeds import DEFAULT_SEED
    out = out or sys.stdout
    text = read(path)
    try:
        assumptions = [*assume, *(arg for _, word, arg in directives(text) if word == "assume")]
    except BadInput as exc:
        msg = str(exc)
        raise BadInput(f"{path}:{msg[5:]}" if msg.startswith("line ") else f"{path}: {msg}") from None
    m = FORBIDDEN.search(text)
    if m:  # before loading anything
        raise BadInput(f"{path}:{_line_of(text, m.start())}: LaTeX \\{m.group(1)} is refused: the checker never "
                       "expands macros (\\def, \\newcommand), reads files (\\input) or runs anything (\\write18)")
    _plan(text, None, path)  # syntax first, before SymPy loads: a hostile file is refused fast
    from .assume import parse_assumptions
    from .session import Session
    for line, word, arg in directives(text):
        if word == "assume":
            try:
                parse_assumptions([arg])
            except BadInput as exc:
                raise BadInput(f"{path}:{line}: assumption {arg!r}: {exc}") from None
    try:
        session = Session(context, assumptions, seed=DEFAULT_SEED if seed is None else seed,
                          timeout=DEFAULT_TIMEOUT if timeout is None else timeout)
    except BadInput as exc:
        raise BadInput(f"{path}: the assumptions (--assume and the file's): {exc}") from None
    plan = _plan(text, session.function_names(), path)
    if not any(s.statement for s in plan):
        raise BadInput(f"{path}: no relation found in equation, align or gather environments")
    rows, first_bad, ignored = [], None, []
    color = out.isatty() if color is None and hasattr(out, "isatty") else bool(color)
    for step in plan:
        if step.ignored is not None:
            ignored.append({"line": step.line, "text": step.ignored})
            if not as_json:
                out.write(f"{path}:{step.line}: ignored  {step.ignored}  —  read as prose after \\quad / \\text, "
                          "not checked (state a condition with '% theoryverify: assume')\n")
            continue
        if step.definition is not None:
            try:
                session.define(step.definition)
            except BadInput as exc:
                raise BadInput(f"{path}:{step.line}: {exc}") from None
            if not as_json:
                out.write(f"{path}:{step.line}: defined  {step.definition.text}\n")
            continue
        try:
            v = session.check_parsed(step.statement)
        except BadInput as exc:
            raise BadInput(f"{path}:{step.line}: {exc}") from None
        rows.append((step, v))
        if first_bad is None and v.status.value == "refuted":
            first_bad = (step, v)
        if not as_json:
            out.write(_row_line(path, step, v) + "\n")
    counts = {s: sum(1 for _, v in rows if v.status.value == s) for s in
              ("proved", "holds", "refuted", "inconclusive", "error")}
    summary = f"{len(rows)} steps: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    if ignored:
        summary += f"; {len(ignored)} text{'s' if len(ignored) > 1 else ''} after \\quad / \\text not checked"
    if as_json:
        out.write(json.dumps({"file": path, "assumptions": assumptions, "summary": counts,
                              "first_wrong_step": first_bad[0].line if first_bad else None, "ignored": ignored,
                              "steps": [{**v.to_json(), "line": s.line, "latex": s.latex} for s, v in rows]},
                             ensure_ascii=False) + "\n")
    else:
        out.write(summary + "\n")
        if first_bad is not None:
            step, v = first_bad
            mark = ("\033[1;31m", "\033[0m") if color else ("", "")
            out.write(f"{mark[0]}>>> first wrong step: {path}:{step.line}{mark[1]}\n")
            out.write(f"    {step.latex}\n    read as: {step.statement.text}\n")
            ce = v.counterexample
            if ce:
                pts = ", ".join(f"{k} = {_fmt(x)}" for k, x in ce.items())
                sides = ", ".join(f"{k} = {_fmt(x)}" for k, x in (v.sides or {}).items())
                out.write(f"    counterexample: {pts}" + (f"; {sides}" if sides else "") + "\n")
    if counts["refuted"]:
        return 1
    if counts["inconclusive"] or counts["error"]:
        return 3
    return 0


def _plan(text: str, functions: set[str] | None, path: str = "") -> list[Step]:
    """Every step of the file, read (never checked); ``functions`` None: a syntax-only pass."""
    try:
        plan: list[Step] = []
        for line, kind, payload in steps(text, functions or set()):  # read everything before checking anything
            if kind == "define":
                from .parser import parse_definition
                name = payload.split("(")[0].split(":")[0].strip()
                d = parse_definition(payload, None if functions is None else functions | _defined(plan) | {name})
                if d is None:
                    raise BadInput(f"line {line}: '% theoryverify: define' takes name := expr or f(x) := expr")
                plan.append(Step(line, payload, definition=d))
            elif kind == "ignored":
                plan.append(Step(line, payload, ignored=payload))
            else:
                plan.extend(_links(payload, None if functions is None else functions | _defined(plan)))
        return plan
    except BadInput as exc:
        msg = str(exc)
        raise BadInput(f"{path}:{msg[5:]}" if msg.startswith("line ") else f"{path}: {msg}") from None


def _defined(plan: list[Step]) -> set[str]:
    return {s.definition.name for s in plan if s.definition is not None and s.definition.params}


def _fmt(x) -> str:
    from .result import _fmt as fmt
    return fmt(x)


def _row_line(path: str, step: Step, v) -> str:
    line = v.line()
    status, _, rest = line.partition(": ")
    return f"{path}:{step.line}: {status:<12} {step.statement.text}  —  {rest}"
