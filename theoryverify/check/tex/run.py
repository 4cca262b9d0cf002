"""``python -m theoryverify.check --tex MAIN.tex [MORE.tex …]``: every displayed relation of a paper accounted for.

Each relation gets one status: ``proved``, ``holds``, ``refuted``, ``inconclusive`` (checked), ``ambiguous`` (two
readings, both shown, no verdict), ``not_a_step`` (with its kind: definition, update, constraint, hypothesis, goal,
probabilistic, asymptotic, approximation) or ``unreadable`` (with the reason).  The coverage line comes first; a
chain's first wrong step is the first refuted link of that chain.  Exit 1 if a step is refuted, else 0; 2 only when
a file cannot be opened or read as text.  ``--json`` prints one object (see :func:`to_json`).
"""
from __future__ import annotations

import ast
import bisect
import copy
import dataclasses
import json
import os
import re
import sys
import time
from dataclasses import dataclass, field

from ..latex import LENGTH
from ..macros import ExpansionError, MacroTable
from ..parser import BadInput, Definition, parse_assumption, unparse
from ..latex import GREEK
from . import displays as D
from .kinds import (DEFINITION_OPS, STATEMENT_ENVS, classify, distribution_why, env_kind, in_distribution,
                    p_is_not_probability)
from .grammar import _key
from .names import Names, gather, prose_iterates, prose_numbers
from .policy import FAVOURABLE, JUSTIFICATION_UNREAD, Caveats, _loose, positive, refutation_blockers
from .convergence import CONVERGES, shown as convergence_shown, why as convergence_why
from .reading import (COUNTED, ChainReading, Link, Term, atom_letters, atoms_as_families, index_outside, lhs_shape, names_in,
                      one_norm, plain, read_chain)
from .sideclauses import after_comma, first_written_here
from .source import USEPACKAGE_RE, Document, Note, load
from .packages import package_macros
from .qsymbols import apply as apply_qsymbols, qsymbol_table, replacements as qsymbol_replacements
from .kinds import EVENT_WHY, NAMED_EVENT_WHY, NO_VALUE_WHYS
from .reading import bare_and_applied


def _plain_indices(node: ast.AST) -> list[ast.Name]:
    """The plain names that index a subscript in ``node`` (the l of ``M_l``, the i and j of ``A_{i,j}``)."""
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Subscript):
            parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
            out += [p for p in parts if isinstance(p, ast.Name)]
    return out


def _range_side(node: ast.AST) -> bool:
    """A side of a range: a name, a number, or sums and differences of them (``n - 1``)."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _range_side(node.operand)
    return isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and \
        _range_side(node.left) and _range_side(node.right)


#: the checker's refusal of one function letter applied to two numbers of arguments (build.py's arity check)
ARITY_CLASH = re.compile(r"^(\w+) was used with (\d+) argument\(s\) before; a function has one arity$")

STATUSES = ("proved", "holds", "refuted", "inconclusive", "ambiguous", "not_a_step", "unreadable")
SPECIAL_DEFINES = ("inner(a, b) := a*b", "transpose(x) := x")
SPECIAL_NAMES = ("inner", "transpose")
HOSTILE = re.compile(r"\\(write|immediate|openout|openin|read|csname|endcsname|expandafter|catcode|directlua|"
                     r"ShellEscape|input|include|special|scantokens)(?![A-Za-z])")
HOSTILE_ANYWHERE = re.compile(r"\\(write18|write|immediate|openout|openin|csname|expandafter|catcode|directlua|"
                              r"ShellEscape|special|scantokens|luaexec|latelua)(?![A-Za-z])")
DEFAULT_TIMEOUT = 3.0
SYMBOLIC_SECONDS = 1.0
MAX_DISPLAY_CHARS = 50_000
INTERVAL_MEMBER = re.compile(r"^\s*(?P<x>(?:\\[A-Za-z]+|[A-Za-z])(?:_\{?[A-Za-z0-9]+\}?)?)\s*\\in\s*(?:\\left\s*)?"
                             r"(?P<o>[\[(])(?P<a>[^,\[\]()]{1,30}),(?P<b>[^,\[\]()]{1,30})(?:\\right\s*)?(?P<c>[\])])"
                             r"(?P<rest>(?:\s|\\[,;:! ]|\\q?quad\b)*[.,;]?\s*)$")


def _interval_condition(text: str) -> str:
    """``t \\in [0, 1]`` (a side condition) as ``0 \\le t \\le 1``; ``(a, b)`` open; anything else unchanged."""
    m = INTERVAL_MEMBER.match(text)
    if not m:
        return text
    lo = "<" if m.group("o") == "(" else "\\le"
    hi = "<" if m.group("c") == ")" else "\\le"
    parts = [f"{m.group('a')} {lo} {m.group('x')}"]
    if not re.fullmatch(r"\s*\\infty\s*", m.group("b")):
        parts.append(f"{hi} {m.group('b')}")
    if re.fullmatch(r"\s*-\s*\\infty\s*", m.group("a")):
        parts[0] = m.group("x")
    return " ".join(parts) + " " * max(0, len(text) - len(" ".join(parts)))


REALS_RE = re.compile(r"\\in\s*(?:\\mathbb\s*\{?\s*R\s*\}?|\\R|\\Re|\\reals)(?![A-Za-z^_])(?!\s*\^)")
MAX_CHECKS = 4000
SHAPE_RE = re.compile(r"\(\s*(?:\d+|[A-Za-z])\s*\\times\s*(?:\d+|[A-Za-z])\s*\)")


@dataclass
class Relation:
    """One displayed relation and its status (the JSON contract's row, plus what the text output needs)."""
    file: str
    line: int
    latex: str
    read_as: str | None
    status: str
    kind: str
    reason: str
    chain: int
    assumptions: list[str] = field(default_factory=list)
    pos: int = 0
    counterexample: dict | None = None
    readings: list[str] | None = None
    first_wrong: bool = False
    #: a row with ± / ∓ checked as its two sign choices (:func:`_combine_signs`), never in the JSON row
    sign_choices: bool = field(default=False, repr=False, compare=False)
    #: the reader's link (its two terms as syntax trees, or why they cannot be read); kept for tools that build on
    #: the reading (``new-paper --from-tex``), never in the JSON row
    link: Link | None = field(default=None, repr=False, compare=False)
    #: justifications the paper writes as words beside the row (``& \text{($f$ is $2$-Lipschitz)}``), no part of it
    notes: list[str] = field(default_factory=list)

    def row(self) -> dict:
        out = {"file": self.file, "line": self.line, "latex": self.latex, "read_as": self.read_as,
               "status": self.status, "kind": self.kind, "reason": self.reason, "chain": self.chain,
               "assumptions": self.assumptions}
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample
        if self.readings:
            out["readings"] = self.readings
        if self.first_wrong:
            out["first_wrong_step"] = True
        if self.notes:
            out["justification"] = "; ".join(self.notes)
        return out


@dataclass
class Job:
    index: int  # into the relations
    lhs: ast.expr
    op: str
    rhs: ast.expr
    text: str
    assumptions: tuple[str, ...]
    n_defs: int
    caveats: Caveats
    uses_defined: bool = False
    functions: tuple[str, ...] = ()
    defs: tuple[int, ...] = ()  # the definitions in scope (indices into Paper.definitions), in order
    over_reals: bool = False  # the display says "for all x in R": no reading restricts the names
    prose_values: tuple[str, ...] = ()  # values set in the prose before the display that the step uses
    cited: tuple[str, ...] = ()  # facts the prose cites right after the display ("since $w = u$") that the step uses
    #: for one reading of an ambiguous relation: the relation's index (``index`` is then into ``Paper.shadows``)
    shadow_of: int = -1


# --- reading the paper ------------------------------------------------------------------------------------

INCREMENT = re.compile(r"\\Delta\s*(?:[A-Za-z](?![A-Za-z])|\\(?:" + "|".join(GREEK) + r")(?![A-Za-z]))")
LONE_DELTA = re.compile(r"\\Delta(?![A-Za-z])\s*+(?!_|[A-Za-z]|\\(?:" + "|".join(GREEK) + r")(?![A-Za-z]))")
INDEXED_DELTA = re.compile(r"\\Delta\s*[_^]")  # Δ_i, Δ^2: Δ written as a quantity of its own
BOLD_NAME = re.compile(r"bf(?:hat|bar|tilde|dot|ddot|check|breve|vec|ring|star|prime)*$")  # Abf, Cbfhat


#: ``\\left<``, ``\\bigr >``: a size command before < or > makes it an angle bracket (``\\left< u, w \\right>`` is an
#: inner product), never the relation < or >
ANGLE = re.compile(r"\\(left|right|[bB]igg?[lr]?)\s*(<|>)(?![=<>])")


#: "for any integer $k \\ge 1$", "for all positive real $x$": what a quantified name is, between the quantifier and it
_KIND_WORDS = r"(?:\s+(?:positive|negative|nonnegative|non-negative|real|integers?|natural|numbers?|reals?|scalars?))*"


#: (parser flag, why, the name as read, the other reading's name) of a constant that is also the paper's name
NAMED_CONSTANTS = (
    ("ambiguous_e", "e: Euler's number or the paper's name e? The paper writes e^{…} and also uses e as a name (declare "
                    "it: '% theoryverify: scalar e' for the name)", r"\bevar\b", "e"),
    ("ambiguous_pi", "π: the constant 3.14… or the paper's name π? The paper writes an accented π (an estimate of a "
                     "quantity π) and this π is bare", r"\bpi\b", "pivar"))


#: ``a, b > 0``: names, then one bound for each — possessive, so a long inline formula that is no such list fails in
#: linear time (the backtracking form took minutes on one paper's prose: 4.9 s → over 100 s for the whole paper)
_LISTED_NAME = r"(?:[^,<>=\\]|\\(?!(?:le|ge|leq|geq|lt|gt)(?![A-Za-z]))[A-Za-z]+)++"
LISTED_BOUND = re.compile(r"\s*+(" + _LISTED_NAME + r"(?:,\s*+" + _LISTED_NAME + r")++)\s*+"
                          r"((?:<|>|\\(?:le|ge|leq|geq|lt|gt)(?![A-Za-z]))[^,]*+)")


def angle_brackets(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``\\left< a, b \\right>`` as ``\\left\\langle a, b \\right\\rangle`` (lines kept): the relation splitter and the
    reader see brackets, not the relations < and > (read as relations, a true step ``D = … = 0`` was cut into
    fragments and ``w = 0`` refuted).  A bare ``<u, v>`` is an inner product too where it cannot be two
    comparisons (:func:`ascii_angles`); the (start, end) of each ``x < a, b > y`` that can be either are returned:
    their rows are ambiguous, never checked."""
    text = ANGLE.sub(lambda m: "\\%s\\%s " % (m.group(1), "langle" if m.group(2) == "<" else "rangle"), text)
    return ascii_angles(text)


#: what may stand right before a bracket ``<`` (nothing a comparison could have on its left): an opening bracket, an
#: operator, a relation, a row or cell break, an environment's start, an expectation sign, a big operator's limits
_ANGLE_OPENS = re.compile(r"(?:[=(\[{,+\-*/$]|\\\\|\\[\[(]|\\[,;:!]|\\begin\s*\{[^{}]*\}|"
                          r"\\mathbf\s*\{\s*E\s*\}|\\mathbb\s*\{\s*E\s*\}|"
                          r"\\(?:le|leq|ge|geq|ne|neq|cdot|times|quad|qquad|left|big[lr]?|Big[lr]?|E|EE|Exp|"
                          r"(?:sum|prod|max|min|sup|inf)(?:\s*[_^]\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\?[A-Za-z0-9]))*)"
                          r"(?![A-Za-z]))\s*$")
#: what may stand right after a bracket ``>`` (nothing a comparison could have on its right: never a sign, as
#: "b > -1" is a comparison)
_ANGLE_CLOSES = re.compile(r"\s*(?:$|[=)\]},.;^_<>$]|\\\\|\\[\])]|\\(?:le|leq|ge|geq|ne|neq|right|big[lr]?|"
                           r"Big[lr]?|end|nonumber|notag|label|quad|qquad|tag|cdot|times)(?![A-Za-z]))")
#: a relation or a row/cell break inside ``< … >``: no inner product
_ANGLE_INSIDE_BAD = re.compile(r"[=<>&$]|\\\\|\n\s*\n|\\(?:le|leq|ge|geq|ne|neq|in|subset|subseteq|approx|sim|to|"
                               r"rightarrow|mid|text|begin|end)(?![A-Za-z])")


def _in_script(text: str, i: int) -> bool:
    """Whether offset ``i`` lies inside a braced sub- or superscript (``\\sum_{j<i, k>0}``)."""
    depth = 0
    for k in range(i - 1, max(-1, i - 300), -1):
        c = text[k]
        if c == "}" and (k == 0 or text[k - 1] != "\\"):
            depth += 1
        elif c == "{" and (k == 0 or text[k - 1] != "\\"):
            if depth == 0:
                return text[:k].rstrip().endswith(("_", "^"))
            depth -= 1
    return False


def ascii_angles(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``<u, c v> = c <u, v>``: the ASCII ``<``, ``>`` written as inner-product brackets, read as ``\\langle``,
    ``\\rangle`` (read as relations they cut the row into ``c < u`` and "empty side" pieces).  A pair is taken when a
    ``<`` and the next ``>`` hold, between them, one top-level comma at least, balanced brackets and no relation,
    and are at most 300 characters apart (never inside a sub- or superscript).  Where nothing before the ``<`` or
    nothing after the ``>`` could be a comparison's side (``= <``, ``\\sum_i <``, ``> =``, ``> \\\\``), the pair is
    brackets; where both could (``x < a, b > y``), it may be two comparisons: left as written, its span returned
    (its rows are ambiguous, never checked)."""
    out, spans, last, i = [], [], 0, 0
    shift = 0  # how much the text written so far has grown (each pair taken: 7 + 7 characters)
    while True:
        i = text.find("<", i)
        if i < 0:
            break
        if text.startswith(("<=", "<<"), i) or (i > 0 and text[i - 1] in "\\<") or _in_script(text, i):
            i += 1
            continue
        j, depth, commas = i + 1, 0, 0
        end = min(len(text), i + 300)
        while j < end:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif c == "," and depth == 0:
                commas += 1
            elif c == ">" and depth == 0:
                break
            j += 1
        inside = text[i + 1:j]
        if j >= end or text[j:j + 1] != ">" or depth != 0 or not commas or text.startswith(">=", j) or \
                _ANGLE_INSIDE_BAD.search(inside) or not inside.strip(" ,\n"):
            i += 1
            continue
        # an alignment mark is no side: "a &< b" has a on the left, "\\\\ &<u, v>" nothing
        # an absolute value's bar opening right before it (after an operator) is no side either: "Σ_i |<a, b>|"
        before = re.sub(r"&\s*$", "", text[max(0, i - 200):i].rstrip())
        bare = re.sub(r"(?:\\left|\\[bB]igg?l?)?\s*\|\s*$", "", before) if before.endswith("|") else before
        opens = not bare.strip() or _ANGLE_OPENS.search(bare) is not None
        after = re.compile(r"\s*&?").match(text, j + 1).end()
        bar = re.compile(r"\s*(?:\\right|\\[bB]igg?r?)?\s*\|(?!\|)").match(text, after)
        closes = _ANGLE_CLOSES.match(text, bar.end() if bar and before.endswith("|") else after) is not None
        if opens or closes:
            out.append(text[last:i])
            out.append("\\langle " + inside + "\\rangle ")
            last = j + 1
            shift += 14
        else:
            spans.append((i + shift, j + 1 + shift))
        i = j + 1
    out.append(text[last:])
    return "".join(out), spans


_BRAKET_SET = re.compile(r"\\(Set|set)(?![A-Za-z@])\s*(?=\{)")
_DELIMITER_BEFORE = re.compile(r"\\(?:left|right|middle|[bB]igg?[lmr]?)\s*$")


def braket_sets(text: str) -> str:
    """braket.sty's ``\\Set{x | P(x)}`` and ``\\set{…}`` written as the braces they typeset, ``\\left\\{x \\mid P(x)\\right\\}``:
    the first ``|`` of the argument at its top level (not ``\\|``, ``||`` or a ``\\left|``) is the separator, as braket
    reads it.  The newlines inside are kept (the rows' line numbers stay)."""
    out, i = [], 0
    while True:
        m = _BRAKET_SET.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        end = _braced_end(text, m.end())
        if end < 0:
            out.append(text[i:])
            return "".join(out)
        inner = braket_sets(text[m.end() + 1:end - 1])
        depth, k = 0, 0
        while k < len(inner):
            c = inner[k]
            if c == "\\":
                k += 2
                continue
            depth += (c == "{") - (c == "}")
            if c == "|" and depth == 0:
                if inner[k + 1:k + 2] == "|":
                    k += 2
                    continue
                if not _DELIMITER_BEFORE.search(inner[:k]):
                    inner = inner[:k] + " \\mid " + inner[k + 1:]
                    break
            k += 1
        left, right = ("\\left\\{", "\\right\\}") if m.group(1) == "Set" else ("\\{", "\\}")
        out.append(text[i:m.start()] + left + inner + right)
        i = end


def _pieces(body: str, start: int, cuts: list[int]) -> list[str]:
    """``body`` (at offset ``start`` of the paper) split into blocks (text between blank lines, the blank lines
    their own pieces) and, within a block, at each of ``cuts`` (where the macros in force change)."""
    out, pos = [], start
    for block in re.split(r"(\n[ \t]*\n)", body):
        inner = [c - pos for c in cuts if pos < c < pos + len(block)]
        for a, b in zip([0, *inner], [*inner, len(block)]):
            out.append(block[a:b])
        pos += len(block)
    return out


def expand_document(doc: Document, table: MacroTable, scoped: list[tuple[int, int, MacroTable]] | None = None
                    ) -> tuple[Document, list[tuple[tuple, tuple, str]]]:
    """The body with the paper's macros expanded block by block (a block: text between blank lines), the line
    structure kept; and ((file, line), (file, line), error) of the blocks that could not be expanded.  ``scoped``
    (:func:`.scopes.scoped_tables`): the table in force in each segment of the body, where the body defines macros
    (a block is cut where the segments change); else ``table`` everywhere."""
    text = _discarded(doc.text, table, doc.body_start)
    head, body = text[:doc.body_start], text[doc.body_start:]
    out, errors, pos = [head], [], doc.body_start
    # \usepackage{braket}: its \Set{x | P(x)} and \set{…} are set-builder braces (the first | the separator)
    braket = any("braket" in [n.strip() for n in m.group(1).split(",")] for m in USEPACKAGE_RE.finditer(head))
    starts = [a for a, _, _ in scoped or ()]
    shorthands = qsymbol_table([t for _, t in doc.macro_texts] + [head])  # \usepackage{qsymbols}: `g is \gamma
    found = qsymbol_replacements(text, doc.body_start, shorthands) if shorthands else []
    for block in _pieces(body, doc.body_start, starts[1:]):
        if scoped:
            table = scoped[max(bisect.bisect_right(starts, pos) - 1, 0)][2]
        size = len(block)
        if found:
            block = apply_qsymbols(block, found, pos)
        expanded = block
        if "\\" in block and not block.isspace():
            try:
                expanded = table.expand(block)
            except BadInput:
                try:  # a refused macro (a class's \subsection) left as written; the rest of the paragraph expanded
                    expanded = table.expand(block, keep_refused=True)
                except BadInput:
                    expanded = _expand_by_lines(block, table, pos, errors)
            expanded = _same_lines(stacked_relations(colon_equals(expanded)), block.count("\n"))
            if braket:
                expanded = braket_sets(expanded)
        out.append(expanded)
        pos += size
    text2, angle_spans = angle_brackets("".join(out))
    starts = [0] + [m.end() for m in re.finditer("\n", text2)]
    directives = []
    for d in doc.directives:  # the same line of the rewritten text
        k = text.count("\n", 0, d.pos)
        directives.append(type(d)(starts[min(k, len(starts) - 1)], d.word, d.arg))
    new = Document(text2, doc.root, doc.main, doc.origins, directives, doc.notes, doc.macro_texts,
                   doc.files, len(head), line_map=doc.lines())
    new.angle_questions = angle_spans
    # errors are recorded at offsets of the old text: map them to (file, line) — a line number alone matched a
    # display at the same line of another file
    errs = [(doc.where(a), doc.where(b), e) for a, b, e in errors]
    return new, errs


def _expand_by_lines(block: str, table: MacroTable, pos: int, errors: list) -> str:
    """``block`` expanded line by line, so that one bad line does not take its paragraph with it; a line that opens a
    group it does not close goes with the lines up to the one that closes it (``\\inner{\\omega, x -`` / ``z}``: a
    macro's argument across a line break — expanded alone, each line had failed as "unbalanced braces")."""
    lines, off = [], pos
    parts = block.split("\n")
    k = 0
    while k < len(parts):
        j, depth = k, _brace_depth(parts[k])
        while depth > 0 and j + 1 < len(parts):
            j += 1
            depth += _brace_depth(parts[j])
        chunk = "\n".join(parts[k:j + 1])
        try:
            lines.append(table.expand(chunk) if "\\" in chunk else chunk)
        except BadInput as exc:
            try:  # a refused macro left as written; the others in the chunk still expanded
                lines.append(table.expand(chunk, keep_refused=True))
            except BadInput:
                errors.append((off, off + len(chunk), " ".join(str(exc).split())))
                lines.append(chunk)
        off += len(chunk) + 1
        k = j + 1
    return "\n".join(lines)


def _brace_depth(line: str) -> int:
    """The groups ``line`` opens and leaves open (``\\{`` and ``\\}`` are no groups; a comment is blanked already)."""
    plain = re.sub(r"\\[{}]", "", line.replace("\\\\", ""))
    return plain.count("{") - plain.count("}")


#: a relation set as an operator with a label above it, as a paper's own ``\\stackrel`` may expand:
#: ``\\mathrel{\\smashoperator[l]{\\mathop{=}^{(a)}}}``, ``\\mathop{<}\\limits^{(\\ref{e})}``
_STACKED_OP = re.compile(r"(\\mathrel\s*\{\s*)?(\\smashoperator\s*(?:\[[a-z]*\])?\s*\{\s*)?\\mathop\s*\{")
_STACKABLE = re.compile(r"\s*(?:=|<|>|\\(?:le|leq|ge|geq|ne|neq|approx|equiv|implies|impliedby|iff|Rightarrow|"
                        r"Leftarrow|Leftrightarrow|Longrightarrow|Longleftarrow|Longleftrightarrow|lesssim|gtrsim|"
                        r"leqslant|geqslant|sim|propto|to|rightarrow))\s*")


def _braced_end(text: str, i: int) -> int:
    """The index just past the group whose ``{`` is at ``text[i]`` (spaces skipped first), or -1."""
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != "{":
        return -1
    depth = 0
    for j in range(i, len(text)):
        depth += text[j] == "{"
        depth -= text[j] == "}"
        if depth == 0:
            return j + 1
    return -1


#: the colon of ``:=`` set as a relation by hand, as papers without mathtools define ``\\coloneqq``:
#: ``\\mathrel{\\mathop:}``, ``\\mathrel{\\mathop{:}}``, ``\\mathrel{:}``
_REL_COLON = r"\\mathrel\s*\{\s*(?:\\mathop\s*(?::|\{\s*:\s*\})|:)\s*\}"
_REL_EQUALS = r"(?:=|\\mathrel\s*\{\s*=\s*\})"
_COLON_EQUALS = re.compile(r"(?P<ce>" + _REL_COLON + r"\s*" + _REL_EQUALS + r"|\\mathrel\s*\{\s*(?:\\mathop\s*)?:\s*=\s*\})"
                           r"|(?P<ec>" + _REL_EQUALS + r"\s*" + _REL_COLON + r")")


def colon_equals(text: str) -> str:
    """``:=`` and ``=:`` built from math-class boxes (``\\providecommand{\\coloneqq}{\\mathrel{\\mathop:}=}``,
    ``\\mathrel{:}=``, ``\\mathrel{\\mathop:}\\mathrel{=}``, ``=\\mathrel{\\mathop:}``) are written ``\\coloneqq`` /
    ``\\eqqcolon``, the signs the reader knows; the line breaks inside the match are kept."""
    if "\\mathrel" not in text:
        return text
    return _COLON_EQUALS.sub(lambda m: ("\\coloneqq " if m.group("ce") else "\\eqqcolon ") + "\n" * m.group(0).count("\n"),
                             text)


def stacked_relations(text: str) -> str:
    """A relation typeset as an operator with a label set above it (``\\mathrel{\\smashoperator[l]{\\mathop{=}^{(\\ref{e})}}}``,
    ``\\mathop{<}\\limits^{(a)}``, what a thesis's own ``\\lxeq``/``\\stackrel`` expand to) is written
    ``\\stackrel{LABEL}{REL}``: the relation, with its label kept as the row's justification.  Anything else
    (``\\mathop{\\mathbb E}``, a label that is no group) is left as written."""
    if "\\mkern" in text or "\\mskip" in text:  # \;\mkern-\thickmuskip: spacing, which hid the relation after it
        text = re.sub(r"(?:\\[;,:!]\s*)?\\m(?:kern|skip)(?![A-Za-z])" + LENGTH.pattern, "", text)
    if "\\mathop" not in text:
        return text
    out, pos = [], 0
    for m in _STACKED_OP.finditer(text):
        if m.start() < pos:
            continue
        rel_end = _braced_end(text, m.end() - 1)
        if rel_end < 0 or not _STACKABLE.fullmatch(text[m.end():rel_end - 1]):
            continue
        k = rel_end
        lim = re.match(r"\s*\\limits", text[k:])
        if lim:
            k += lim.end()
        sup = re.match(r"\s*\^\s*", text[k:])
        if not sup:
            continue
        k += sup.end()
        lab_end = _braced_end(text, k)
        if lab_end < 0:
            continue
        label = text[k:lab_end].strip()[1:-1]
        k = lab_end
        ok = True
        for opened in (m.group(2), m.group(1)):  # close \smashoperator's group, then \mathrel's
            if opened:
                close = re.match(r"\s*\}", text[k:])
                if not close:
                    ok = False
                    break
                k += close.end()
        if not ok:
            continue
        out.append(text[pos:m.start()])
        out.append("\\stackrel{" + label + "}{" + text[m.end():rel_end - 1].strip() + "}")
        pos = k
    out.append(text[pos:])
    return "".join(out)


def _discarded(text: str, table: MacroTable, start: int) -> str:
    """``\\newcommand{\\ignore}[1]{}``: a macro that discards its arguments hides them from the paper (drafts,
    notes to co-authors), across blank lines too; they are blanked (lines kept) before anything is read."""
    names = [n for n in table.names() if (m := table.get(n)) is not None and m.nparams >= 1 and not m.body.strip()
             and m.delimited is None and m.default is None]
    for name in names:
        n = table.get(name).nparams
        for m in reversed(list(re.finditer(re.escape(name) + r"(?![A-Za-z])", text[start:]))):
            a = start + m.start()
            end = a + len(name)
            for _ in range(n):
                k = end
                while k < len(text) and text[k] in " \t\n":
                    k += 1
                if k >= len(text) or text[k] != "{":
                    break
                end = D._group_end(text, k)
            else:
                text = text[:a] + re.sub(r"[^\n]", " ", text[a:end]) + text[end:]
    return text


def _letter_loops(raw: Document) -> tuple[str, list[str]]:
    """The definitions a paper's letter-loop helper makes (:mod:`.multi`), as plain LaTeX, and notes."""
    from .multi import loop_definitions
    return loop_definitions([t for _, t in raw.macro_texts] + [raw.text[:raw.body_start]])


def _same_lines(text: str, n: int) -> str:
    have = text.count("\n")
    if have > n:
        parts = text.split("\n")
        text = "\n".join(parts[:n]) + " " + " ".join(parts[n:])
    elif have < n:
        text += "\n" * (n - have)
    return text


#: an inline equation that sets a name: the name (letters, a command, scripts, a prime) alone before ``=``/``:=``
INLINE_SET = re.compile(r"\s*((?:\\[A-Za-z]+\s*)?\{?\s*[A-Za-z]\}?(?:\s*[_^]\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)|\s*')*)\s*"
                        r"(?::=|=(?!=)|\\coloneqq|\\triangleq|\\eqqcolon)")
DECORATED = re.compile(r"(hat|bar|tilde|prime|star|check|breve|dot)$")
#: the words before an inline ``$u = 2w$`` that set the name u (rather than name a case, "at $t = 0$")
SETS_NAME = re.compile(r"\b(?:let|set|write|define|denote|put|take|fix|choose)\b(?:\s+(?:the|a|now|also|again|here)\b)*"
                       r"[^.;$]{0,20}(?:\$[^$]{1,80}\$\s*,?\s*(?:and\s+)?)*$", re.I)  # "Let $r > 0$ and $u = 2w$"
INLINE_RE = re.compile(r"(?<!\\)\$(?!\$)([^$]{1,400}?)(?<!\\)\$|\\\((.{1,400}?)\\\)", re.S)


class Paper:
    """A paper read: displays, chains, links, names; then every relation's status."""

    def __init__(self, paths, assume=(), seed=None, timeout=DEFAULT_TIMEOUT, context: str = "free"):
        self.context = context
        if context != "free":
            from ..session import load_context
            load_context(context)  # an unknown context is bad input, before anything is read
        raw = load(paths[0], *paths[1:])
        self.notes: list[Note] = list(raw.notes)
        table = MacroTable()
        for origin, text in raw.macro_texts:
            self.notes += _package_notes(origin, [Note(n.origin, n.message) for n in table.collect(text, origin)])
        for origin, text in package_macros(raw.text[:raw.body_start], [raw.text, *(t for _, t in raw.macro_texts)]):
            self.notes += [Note(n.origin, n.message) for n in table.collect(text, origin)]  # \usepackage{diffcoeff}
        loops, loop_notes = _letter_loops(raw)  # \multi*{mc}{\mathcal{#1}} \multimc AB.: \mcA, \mcB
        if loops:
            table.collect(loops, raw.main + " (letter loops)")
            self.notes += [Note(raw.main, n) for n in loop_notes]
        table.spans = []  # where the paper's own definitions are (the body's hold from there, in their group)
        lines = raw.lines()  # (file, line) of each line of the flattened text: notes name the inlined file's own line
        self.notes += [Note(n.origin, n.message) for n in
                       table.collect(raw.text, raw.main, locate=lambda k: "%s:%d" % lines[min(k, len(lines)) - 1])]
        self.macros = len(table)
        for m in HOSTILE_ANYWHERE.finditer(raw.text):  # outside the displays too: reported, never run
            self.notes.append(Note(raw.label(m.start()), f"\\{m.group(1)} skipped (never executed)"))
        table.layout_origins = WELL_KNOWN_PACKAGE
        self.doc, self.expansion_errors = expand_document(raw, table, self._scoped_tables(raw, table))
        self.assume = list(assume)
        self.seed, self.timeout = seed, timeout
        # \newtheorem{prop}{Proposition} in the paper or in a local .sty it loads
        self.theorem_names = D.theorem_names("\n".join([raw.text, *(text for _, text in raw.macro_texts)]))
        self.displays = D.find_displays(self.doc, self.theorem_names)
        self.spans = sorted(D.environment_spans(self.doc.text, {n.lower() for n in self.theorem_names} |
                                                self.theorem_names, self.doc.body_start) +
                            D.bold_header_spans(self.doc.text, self.doc.body_start), key=lambda e: e[1])
        self._directives()
        self._check_assumptions()
        for d in self.displays:
            if len(d.body) > MAX_DISPLAY_CHARS:
                d.skip = True
                d.too_long = True
                d.chains = [D.Chain([D.Segment(d.body, d.body_start)])]
                continue
            D.chains(d)
        self.names = self._names()
        self.names.random = self.random
        for name, pos in sorted(self.declared_scalar_at.items(), key=lambda kv: kv[1]):
            if name in self.names.ev.vector:  # the declaration wins (nonscalar); never silently
                self.notes.append(Note(self.doc.label(pos), f"'% theoryverify: scalar {name}' is kept, though the paper "
                                       f"also writes {name} as a vector or matrix: steps with {name} are checked as "
                                       f"numbers"))
        self._inline_values: dict[str, tuple[str, str]] = {}
        self._inline_sets = self._values_set_inline()
        # Δt, Δw, ΔA as increments: the paper writes Δ before a name several times and never powers Δ or writes it
        # alone (Δ^2, Δ > 0, Δ(t)); a subscripted Δ_ω is a name of its own and does not count
        body = self.doc.text[self.doc.body_start:]
        # (one ΔX is enough where the paper never writes Δ on its own, indexed either: "Set ΔM_l := …" names an
        # increment; Δ_i t beside one Δt keeps Δ·t open)
        self.names.increments = not LONE_DELTA.search(body) and (
            len(INCREMENT.findall(body)) >= 2 or len(INCREMENT.findall(body)) == 1 and not INDEXED_DELTA.search(body))
        self.relations: list[Relation] = []
        self.jobs: list[Job] = []
        self.shadows: list[Relation] = []  # each reading of an ambiguous relation, checked on its own
        self.definitions: list[Definition] = []
        self.component_defs: set[int] = set()  # definitions whose body reads its parameter's components (_define)
        self.defined_names: set[str] = set()
        #: letters written side by side on the left of a definition (``SM_n := …``): a name of several letters,
        #: or the product? kept over both reading passes, so a use before the definition is seen too
        self.joined_names: dict[tuple[str, ...], str] = {}

    @staticmethod
    def _scoped_tables(raw: Document, table: MacroTable) -> list[tuple[int, int, MacroTable]] | None:
        """The macro table in force in each segment of the body, where the body defines macros (a definition holds
        after its position, inside its group: :mod:`.scopes`); None where it defines none (``table`` holds
        everywhere)."""
        from .scopes import body_definitions, scoped_tables
        defs = body_definitions(table, getattr(table, "spans_text", ""), raw.text, raw.body_start) \
            if raw.body_start else []
        if not defs:
            return None
        base = MacroTable()
        for origin, text in raw.macro_texts:
            base.collect(text, origin)
        loops = _letter_loops(raw)[0]
        if loops:
            base.collect(loops, raw.main + " (letter loops)")
        base.collect(raw.text[:raw.body_start], raw.main)
        base.layout_origins = WELL_KNOWN_PACKAGE
        return scoped_tables(base, defs, raw.body_start, len(raw.text))

    # directives -------------------------------------------------------------------------------------
    def _scope_of(self, pos: int) -> tuple[str, int] | None:
        inner = None
        for name, s, e in self.spans:
            if s <= pos < e:
                inner = (name, s)
        return inner

    def _directives(self) -> None:
        self.global_assume: list[str] = []
        self.scoped_assume: dict[tuple[str, int], list[str]] = {}
        self.unread_assume: dict[tuple[str, int] | None, list[str]] = {}  # block refutations where they apply
        self.declared_functions: set[str] = set()
        self.declared_scalars: set[str] = set()
        self.declared_scalar_at: dict[str, int] = {}  # each declared scalar's first directive, for the conflict note
        self.plain_defines: list[tuple[int, str]] = []
        self.skips: set[int] = set()
        displays = sorted(self.displays, key=lambda d: d.start)
        for d in self.doc.directives:
            if d.word == "assume":  # a list (eta > 0, h > 0) is read part by part; a part not read is a note
                from ..assume import listed
                readable, unreadable = listed(d.arg)
                scope = self._scope_of(d.pos)
                (self.scoped_assume.setdefault(scope, []) if scope else self.global_assume).extend(readable)
                for text, why in unreadable:
                    self.unread_assume.setdefault(scope, []).append(text)
                    self.notes.append(Note(self.doc.label(d.pos), f"assumption {text!r} not read ({why}): the "
                                           f"displays are checked without it"))
            elif d.word in ("function", "scalar"):
                names = {n.strip() for n in re.split(r"[,\s]+", d.arg) if n.strip()}
                names = {n.lstrip("\\") for n in names}
                names = {{"lambda": "lam", "varphi": "phi", "varepsilon": "epsilon"}.get(n, n) for n in names}
                (self.declared_functions if d.word == "function" else self.declared_scalars).update(names)
                if d.word == "scalar":
                    for n in names:
                        self.declared_scalar_at.setdefault(n, d.pos)
            elif d.word == "define":
                self.plain_defines.append((d.pos, d.arg))
            elif d.word == "skip":
                nxt = next((x for x in displays if x.start > d.pos), None)
                if nxt is not None:
                    nxt.skip = True

    def _check_assumptions(self) -> None:
        """Every assumption is parsed once: a bad ``--assume`` is bad input; a directive's parts that do not read
        were left out with a note by :meth:`_directives`, so one bad line never stops the file."""
        from ..assume import parse_assumptions
        for a in self.assume:
            try:
                parse_assumptions([a])
            except BadInput as exc:
                raise BadInput(f"--assume {a!r}: {exc}") from None
        directives = [*self.global_assume, *(a for group in self.scoped_assume.values() for a in group)]
        self.random = any(bool(parse_assumptions([a]).random) for a in directives)  # each read by _directives
        self.random |= any("~" in a for a in self.assume)

    def _scope_keys(self, display: D.Display) -> set:
        keys = set(display.scope)
        for name, start in display.scope:
            if name.lower() == "proof":  # a lemma's hypotheses hold in the proof that follows it
                before = [(n, s) for n, s, e in self.spans if e <= start and n.lower() in
                          ("theorem", "lemma", "proposition", "corollary", "claim")]
                if before:
                    keys.add(before[-1])
        return keys

    def assumptions_for(self, display: D.Display) -> list[str]:
        out = [*self.assume, *self.global_assume]
        for k in self._scope_keys(display):
            out += self.scoped_assume.get(k, [])
        return out

    def unread_assumptions_for(self, display: D.Display) -> list[str]:
        """The directive assumptions in force at ``display`` that could not be read: a refutation there may rest
        on leaving one out, so each blocks it (the row says which)."""
        out = list(self.unread_assume.get(None, []))
        for k in self._scope_keys(display):
            out += self.unread_assume.get(k, [])
        return out

    # names ------------------------------------------------------------------------------------------
    def _names(self) -> Names:
        texts = [(d.body_start, d.body) for d in self.displays]
        body = self.doc.text[self.doc.body_start:]
        # $$ … $$ displays are blanked first: their second and last dollars had opened inline math, so that every
        # inline formula after one paired the wrong dollars (robust-control's "Let $e = x̄ - x̲$" was never seen)
        body = re.sub(r"(?<!\\)\$\$.*?(?<!\\)\$\$", lambda m: " " * len(m.group(0)), body, flags=re.S)
        inline = [(self.doc.body_start + m.start(), m.group(1) or m.group(2) or "") for m in INLINE_RE.finditer(body)]
        self._inline_texts = inline
        texts = sorted(texts + inline)
        evidence = gather(texts)
        prose_iterates(evidence, body)
        prose_numbers(evidence, body)
        names = Names(evidence, self.declared_functions, self.declared_scalars)
        names.in_context = self.context != "free"  # a step context defines the paper's names (∂L_1/∂v_1 is computed)
        return names

    def _values_set_inline(self) -> list[tuple[int, str, str, frozenset[str] | None]]:
        """(offset, key, where, the names its value writes or None: :meth:`_value_names`) of each name an inline equation of the prose sets to a value ("with $x_s = \\frac{…}{…}$",
        "$n := 10$"): a name or an indexed name alone on the left of ``=``/``:=``.  A later step that writes the name
        without that value read into it is never refuted on a value of its own choosing (the key as
        :meth:`_prose_used` matches it: the indexed name's node, or the plain name)."""
        out = []
        for pos, text in getattr(self, "_inline_texts", []):
            m = INLINE_SET.match(text)
            if not m:
                continue
            try:  # the left side alone: a value the checker cannot read (a refused macro) still sets the name
                reading = read_chain([(m.group(1) + " = 0", pos)], self.names, self.names.defined)
            except Exception:  # a reader defect in prose math never stops the paper
                continue
            if reading.error or not reading.links:
                continue
            node = reading.links[0].lhs.node
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                key = ast.dump(node)  # x_s, \hat\theta_t: an indexed quantity the paper defines
            elif isinstance(node, ast.Name) and DECORATED.search(node.id):
                key = node.id  # \hat{x}, x': a decorated name; a bare letter set inline ("at $t = 0$") is a case
            elif isinstance(node, ast.Name) and SETS_NAME.search(self.doc.text[max(0, pos - 160):pos]):
                key = node.id  # "Let $u = 2w$", "write $u = …$", "define $u = …$": the name's value, not a case
            else:
                continue
            out.append((pos, key, f"{m.group(1).strip()} ({self.doc.label(pos)})", self._value_names(text, pos)))
            value = self._inline_value(text, pos)
            if value is not None:
                self._inline_values.setdefault(key, value)
        return out

    VALUE_CUE = re.compile(r"^\s*(?:let|set|setting|choose|choosing|fix|take|we\s+(?:set|choose|take|use|fix))\b", re.I)
    CASE_WORDS = re.compile(r"\b(?:if|when|whenever|case|otherwise|unless|suppose)\b", re.I)

    def _standing_value(self, pos: int) -> bool:
        """The inline equation at ``pos`` sets a value for what follows ("Let the step sizes be $a_t = …$", "Set
        $η = 1/L$"): its sentence opens with such a word and states no case ("If …, then $λ_2 = 0$")."""
        before = self.doc.text[max(self.doc.body_start, pos - 300):pos]
        cut = max(before.rfind(". "), before.rfind(".\n"), before.rfind("\n\n"), before.rfind("}\n"))
        sentence = before[cut + 1:] if cut >= 0 else before
        return bool(self.VALUE_CUE.search(sentence)) and not self.CASE_WORDS.search(sentence)

    def _inline_value(self, text: str, pos: int) -> tuple[str, str] | None:
        """(the name as the checker writes it, its value as a plain expression) of an inline ``a_t = 2/(t+2)``, or
        None when it is not exactly one readable, clean ``name = value``."""
        try:
            reading = read_chain([(text, pos)], self.names, self.names.defined)
            if reading.error or len(reading.links) != 1 or not reading.links[0].readable or \
                    reading.links[0].op not in ("=", ":="):
                return None
            link = reading.links[0]
            if any(p is not None and (p.opaque or p.ambiguous or p.applied or p.divisions or p.labels)
                   for p in (link.lhs.parser, link.rhs.parser)):
                return None
            fam: dict[str, int] = {}
            name, value = plain(link.lhs.node, set(), fam), plain(link.rhs.node, set(), fam)
        except Exception:  # a reader defect in prose math never stops the paper; no value, no substitution
            return None
        if fam or not isinstance(name, ast.Name) or name.id in names_in(value, set()):
            return None
        return name.id, unparse(value)

    def _value_names(self, text: str, pos: int) -> frozenset[str] | None:
        """The names the value of an inline equation writes (every side after the first), or None when it cannot be
        read (a refused macro, an unknown command): then nothing is known of what the value depends on."""
        try:
            reading = read_chain([(text, pos)], self.names, self.names.defined)
        except Exception:
            return None
        if reading.error or not reading.links or not all(link.readable for link in reading.links):
            return None
        fns = self.names.defined | {f for link in reading.links for f in getattr(link.rhs.parser, "applied", ())}
        try:
            return frozenset().union(*(names_in(plain(link.rhs.node, fns, {}), fns) for link in reading.links))
        except BadInput:
            return None

    # relations ----------------------------------------------------------------------------------------
    def read(self) -> None:
        self._p_not_probability = p_is_not_probability(self.doc.text[self.doc.body_start:])
        # pass 1 finds the functions the paper defines (f(x) := …); pass 2 reads with them known
        for _ in range(2):
            self.relations, self.jobs, self.definitions, self.shadows = [], [], [], []
            self.def_scopes: list = []
            #: (name, exponent, value, scope, where) of each definition of a power of a name (ŝ² = â² − b̂²)
            self.power_defs: list[tuple[str, int, ast.expr, object, str]] = []
            self.defined_names = set()
            self.applied_functions: set[str] = set()
            self.families: dict[str, int] = {}
            self.definition_texts: dict[str, int] = {}  # a definition's text → where it was first written
            #: id(link) → the note of a name it writes that the prose after its display defines (:meth:`_defined_after`)
            self._defined_after_notes: dict[int, str] = {}
            self._read_all()
            defined_fns = {d.name for d in self.definitions if d.params}
            if defined_fns <= self.names.defined:
                break
            self.names.defined |= defined_fns
        _one_name_per_family(self.relations)

    def _read_all(self) -> None:
        chain_id = 0
        defines = sorted(self.plain_defines)
        for display in self.displays:
            while defines and defines[0][0] < display.start:
                pos, text = defines.pop(0)
                self._plain_define(text, pos)
            error = self._display_error(display)
            assumptions = self.assumptions_for(display)
            prose_assume, prose_unread = self._prose_assumptions(display)
            prose_assume, refused, prose_clash = self._usable(assumptions, prose_assume)
            prose_unread = prose_unread + refused
            self._clashing = list(prose_clash)  # read, but no point satisfies them with the others (_conflict)
            assumptions = assumptions + [a for a in prose_assume if a not in assumptions]
            self._prose_assumed, self._prose_unread = set(prose_assume), list(prose_unread)
            first_rel = len(self.relations)
            subst, after_assume = self._after(display)
            self._para_values, self._prose_scalings = self._paragraph_settings(display)
            subst = self._before(display, subst)
            self._subst = subst
            self._defined_args = {}  # the arguments of the functions this display defines (ρ(λ) = …) → the chain
            self._defined_indices = {}  # the plain-name indices of what it defines (M_l := …) → the chain
            chain_rows = {p.row for c in display.chains for p in c.parts}
            logic_sides = {id(c) for pair in display.logic for c in pair[:2]}
            read_sides: dict[int, tuple] = {}  # a side of a ⟺ / ⟹: its reading and assumptions
            for chain in display.chains:
                rows = {p.row for p in chain.parts}
                mine = [c for c in display.conditions if c.row in rows or c.row not in chain_rows
                        or len(display.chains) == 1]  # a condition on a row of its own is the display's
                cond_assume, cond_unread = self._conditions(display, mine)
                # "… \] with $\gamma(L+1) < 1$": a condition the checker cannot solve for a name is listed as not
                # read (no refutation stands on the step), never a reason to refuse the step ("cannot use assumption")
                cond_assume, refused, cond_clash = self._usable(assumptions, [a for a in cond_assume + after_assume
                                                                              if a not in assumptions])
                cond_unread = cond_unread + refused
                first_of_chain = len(self.relations)
                if chain.antecedents:  # A ⟹ B ⟹ C: C is derived under B (and what B rested on)
                    over_reals = display.over_reals
                    ante_assume, ante_unread = self._conditions(display, [
                        D.Segment(a.text, a.pos, "condition", "antecedent") for a in chain.antecedents])
                    display.over_reals = over_reals
                    # one the checker cannot solve for a name ((1 + √t)² < s) would make the consequent unreadable:
                    # it is listed as not read instead, so no refutation stands without it
                    ante_assume, ante_refused, ante_clash = self._usable(
                        assumptions + cond_assume, [a for a in ante_assume if a not in cond_assume])
                    cond_clash = cond_clash + ante_clash
                    cond_assume = cond_assume + ante_assume
                    cond_unread = cond_unread + ante_unread + ante_refused
                reading = ChainReading() if error else \
                    read_chain([(p.text, p.pos) for p in chain.parts], self.names,
                               self.names.defined | self.declared_functions)
                if chain.parts and chain.parts[0].label:
                    # "A \stackrel{(a)}{\implies} B": B is derived by (a) — a fact its links may rest on
                    for lk in reading.links:
                        lk.label = lk.label or chain.parts[0].label
                self._chain_clashing = [*prose_clash, *cond_clash]
                self._chain(display, chain, reading, chain_id, error, assumptions + cond_assume, cond_unread)
                for rel in self.relations[first_of_chain:]:
                    rel.assumptions += [f"{a} (stated; not usable by the checker)" for a in refused]
                if id(chain) in logic_sides:
                    read_sides[id(chain)] = (reading, assumptions + cond_assume, cond_unread)
                chain_id += 1
            for left, right, word in display.logic:  # x² ≤ 1 ⟺ −1 ≤ x ≤ 1: the statement itself, checked
                self._logic(display, left, right, word, read_sides, chain_id, prose_unread)
                chain_id += 1
            for rel in self.relations[first_rel:]:  # say which assumptions the prose gave, and which were not read
                rel.assumptions = [f"{a} (stated in the prose)" if a in prose_assume or a in prose_clash else a
                                   for a in rel.assumptions]
                rel.assumptions += [f"{u} (stated in the prose; not read)" for u in prose_unread]
            for at, note in display.notes:  # a justification written as words: the note of its row's relations
                where = self.doc.where(at)
                for rel in self.relations[first_rel:]:
                    if (rel.file, rel.line) == where and note not in rel.notes:
                        rel.notes.append(note)
            goal = any(r.kind == "goal" for r in self.relations[first_rel:])
            for seg in display.conditions:  # the side conditions are relations too
                reading = read_chain([(seg.text, seg.pos)], self.names, self.names.defined)
                # "we need: a = 2b ⇒ a + c = 2b + c": an antecedent in a goal is part of the goal
                kind, why = ("goal", "the antecedent of ⇒ in what the prose states is to be shown") if \
                    seg.word == "antecedent" and goal else \
                    ("hypothesis", "the antecedent of ⇒: the condition of its consequent, not a step") if \
                    seg.word == "antecedent" else ("hypothesis", "a side condition of the display (an assumption of its steps)")
                for link in reading.links or []:
                    self._add(display, link, chain_id, "not_a_step", kind, why, assumptions)
                if reading.error:
                    for _ in range(_count_relations(seg.text)):
                        self._add_raw(display, seg.pos, seg.text, chain_id, "not_a_step", kind,
                                      "a side condition of the display")
                chain_id += 1

    PROSE_ASSUME_CUE = re.compile(r"\b(?:let|assume|assuming|suppose|supposing|for\s+(?:all|any|every|each)" + _KIND_WORDS +
                                  r"|where|"
                                  r"whenever|if|provided|given|with|such|under)(?:\s+that)?\s*[:,]?\s*$", re.I)
    #: cues whose condition is the reader's for the rest of the paragraph; the others ("if", "where", "with", …) are
    #: local: a case or a side remark ("(i) if $m < k$, …; (ii) if $m = k$, we have"), read only in the clause that
    #: leads into the display
    PROSE_STANDING_CUE = re.compile(r"\b(?:let|assume|assuming|suppose|supposing|for\s+(?:all|any|every|each)" +
                                    _KIND_WORDS + ")"
                                    r"(?:\s+that)?\s*[:,]?\s*$", re.I)
    #: what ends a local condition's clause before the display: a sentence, a semicolon, another case, "otherwise"
    CLAUSE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bcf)\.\s|;|\(\s*(?:i{1,3}|iv|v|vi{0,3}|[a-f]|\d)\s*\)|"
                            r"\\item\b|\bcase\b|\botherwise\b|\belse\b", re.I)
    PROSE_AND = re.compile(r"^\s*,?\s*and\s*$", re.I)  # "$a > 0$, $b$ …": the comma may end the hypotheses
    #: "Suppose $b > 0$, $c > 0$, $bc < 1$ and …": a bare comma between two inline maths — after a standing cue a
    #: list of hypotheses (each item read); after a local one ("if $x > 0$, $x^2 > 0$") it may end the condition,
    #: so an item there is listed as stated but not read (it blocks a refutation, it is never used)
    PROSE_COMMA = re.compile(r"^\s*,\s*$")
    #: the standing cues that open such a list ("for all $t \\ge 1$, $t^2 \\ge t$": there the comma ends the quantifier)
    PROSE_LIST_CUE = re.compile(r"\b(?:let|assume|assuming|suppose|supposing)(?:\s+that)?\s*[:,]?\s*$", re.I)
    ASSUME_REL = re.compile(r"<|>|\\(?:le|ge|leq|geq|leqslant|geqslant|lt|gt|ne|neq|succ|prec|succeq|preceq|"
                            r"succcurlyeq|preccurlyeq)(?![A-Za-z])")

    def _prose_regions(self, display: D.Display) -> list[tuple[int, int]]:
        """Where the prose that states a display's assumptions lies: its paragraph up to it (earlier displays of the
        paragraph included), the statement it stands in up to it, and for a proof the statement before the proof."""
        text = self.doc.text
        start = display.start
        floor = self.doc.body_start
        for name, s in display.scope:
            floor = max(floor, s)
        for name, s, e in self.spans:  # a statement or proof that ended before the display: its prose is its own
            if floor <= e <= start:
                floor = e
        para = max((m.end() for m in re.finditer(r"\n[ \t]*\n", text[floor:start])), default=0) + floor
        sec = max((m.end() for m in re.finditer(r"\\(?:sub)*section\*?\s*\{[^{}]*\}", text[para:start])), default=0)
        regions = [(para + sec, start)]
        for name, s in display.scope:
            kind = env_kind(name)
            if kind in STATEMENT_ENVS:
                regions.append((s, start))
            if name.lower() == "proof":
                before = [(n, s0, e0) for n, s0, e0 in self.spans if e0 <= s and env_kind(n) in STATEMENT_ENVS]
                if before:
                    regions.append((before[-1][1], before[-1][2]))
        return regions

    def _paragraph_settings(self, display: D.Display) -> tuple[list[str], list[str]]:
        """(values, scalings) the sentences of the display's paragraph before it set for what follows ("If we let
        $\\sigma^2 = 1/M$, …", "let $\\sigma^2 \\sim 1/M$"; see :func:`.prose.standing_settings`).  The paragraph
        runs back over earlier displays to the last empty line (a comment line, blanked, is none: TeX reads no break
        there), within the statement or proof the display stands in."""
        from .prose import standing_settings
        text = self.doc.text
        start = display.start
        floor = max([self.doc.body_start, start - 4000] + [s for _, s in display.scope])
        for name, s, e in self.spans:  # a statement or proof that ended before the display: its prose is its own
            if floor <= e <= start:
                floor = e
        region = re.sub(r"(?<!\\)\$\$.*?(?<!\\)\$\$", " ⟨display⟩ ", text[floor:start], flags=re.S)
        region = re.sub(r"\\begin\{(equation|align|gather|multline|eqnarray|displaymath|flalign|alignat)(\*?)\}.*?"
                        r"\\end\{\1\2\}|\\\[.*?\\\]", " ⟨display⟩ ", region, flags=re.S)
        cut = max((m.end() for m in D.PARAGRAPH.finditer(region)), default=0)
        cut = max([cut] + [m.end() for m in re.finditer(r"\\(?:sub)*section\*?\s*\{[^{}]*\}|\\paragraph\*?\s*\{[^{}]*\}",
                                                         region)])
        return standing_settings(" ".join(region[cut:].split()))

    def _prose_assumptions(self, display: D.Display) -> tuple[list[str], list[str]]:
        """"Let $k \\ge 2$", "for all $t \\ge 1$", "where $0 < \\eta \\le 1/L$" in the prose before a display (its
        paragraph, its statement, the statement its proof proves): (the assumptions read, those stated but not read
        — listed on the display's rows, and no refutation of its steps stands on them)."""
        out: list[str] = []
        unread: list[str] = []
        text = self.doc.text
        regions = self._prose_regions(display)
        proved = regions[-1] if any(name.lower() == "proof" for name, _ in display.scope) and len(regions) > 1 and \
            regions[-1][1] < display.start else None  # (the paragraph and statement regions end at the display)
        for a, b in regions:
            region = re.sub(r"(?<!\\)\$\$.*?(?<!\\)\$\$", lambda m: " " * len(m.group(0)), text[a:b], flags=re.S)
            region = re.sub(r"\\begin\{(equation|align|gather|multline|eqnarray|displaymath)(\*?)\}.*?\\end\{\1\2\}|"
                            r"\\\[.*?\\\]", lambda m: " " * len(m.group(0)), region, flags=re.S)
            prev_end, prev_assumed, prev_standing = 0, False, False
            prev_listed = False  # the inline math before was under a standing cue ("Let $x \in \R$, $y > 0$")
            for m in INLINE_RE.finditer(region):
                math = m.group(1) if m.group(1) is not None else m.group(2)
                words = region[prev_end:m.start()]
                words = words[words.rfind(".") + 1:] if "." in words else words
                comma = bool(self.PROSE_COMMA.match(words))
                listed = bool(self.PROSE_LIST_CUE.search(words[-60:])) or \
                    (prev_listed and (comma or bool(self.PROSE_AND.match(words))))
                local_item = comma and prev_assumed and not prev_standing and not listed
                prev_listed = listed
                cue = bool(self.PROSE_ASSUME_CUE.search(words[-60:])) or \
                    (prev_assumed and bool(self.PROSE_AND.match(words))) or (comma and listed)
                if local_item and self.ASSUME_REL.search(math) and \
                        "=" not in re.sub(r"\\[lg]eq?|<=|>=", "", math):
                    # "if $x > 0$, $y > 0$ …": the comma may end the condition (the item its conclusion): stated,
                    # not read — no refutation stands on it, no verdict uses it
                    shown = " ".join(math.split())[:60]
                    if shown not in unread:
                        unread.append(shown)
                    prev_end, prev_assumed = m.end(), True
                    continue
                if cue and re.search(r"\bsuch(?:\s+that)?\s*[:,]?\s*$", words[-60:], re.I):
                    before = region[:m.start()]
                    before = before[max(before.rfind(". "), before.rfind(".\n")) + 1:]
                    if re.search(r"\bthere\s+(?:exists?|is|are)\b|\bexists?\b|\\exists", before, re.I):
                        cue = False  # "there exists F such that |F| ≥ …": what is claimed to exist, not assumed
                prev_end = m.end()
                prev_assumed = False
                if not cue or not self.ASSUME_REL.search(math) or "=" in re.sub(r"\\[lg]eq?|<=|>=", "", math):
                    # "With $F = f(w)$ and $g \ge 0$,": a value set under the cue passes the cue on to the condition
                    # joined to it by "and" (the condition was dropped)
                    prev_assumed = cue and not self.ASSUME_REL.search(math) and "=" in math
                    continue
                if (a, b) != proved and not self.PROSE_STANDING_CUE.search(words[-60:]) and \
                        not (prev_standing and self.PROSE_AND.match(words)) and not (comma and listed) and \
                        self.CLAUSE_END.search(region[m.end():]):
                    prev_assumed = False  # a local condition whose clause ended before the display: not its
                    continue
                prev_standing = bool(self.PROSE_STANDING_CUE.search(words[-60:])) or \
                    (prev_standing and bool(self.PROSE_AND.match(words))) or (comma and listed)
                prev_assumed = True
                read = self._assumption_text(math, a + m.start())
                for t in read or []:
                    if t not in out:
                        out.append(t)
                if read is None:
                    shown = " ".join(math.split())[:60]
                    if shown not in unread:
                        unread.append(shown)
        return out, unread

    def _usable(self, base: list[str], extra: list[str]) -> tuple[list[str], list[str], list[str]]:
        """(the assumptions of ``extra`` the checker can use together with ``base``, those it cannot, those that
        contradict the others): one it cannot solve for a name (``t^2 \\ge t``) would make every step of the
        display unreadable; one whose bounds leave a name no values with the others (``a > 2`` after ``a < 1``)
        cannot be drawn from either, but it is read — the steps under it get no verdict (:meth:`_conflict`)."""
        if not extra:
            return [], [], []
        from ..assume import free_with_assumptions, leaves_no_values
        cache = self.__dict__.setdefault("_usable_cache", {})
        key = (tuple(base), tuple(extra))
        if key not in cache:
            keep, refused, clash = [], [], []
            for a in extra:
                try:
                    free_with_assumptions([*base, *keep, a])
                    keep.append(a)
                except Exception as exc:  # BadInput, or a defect of the assumption reader: not used, listed
                    if leaves_no_values(exc):
                        clash.append(a)
                    else:
                        refused.append(_why_unusable(a, exc))
            cache[key] = (keep, refused, clash)
        return cache[key]

    def _conflict(self, assumptions, names: set[str]) -> list[str] | None:
        """The assumptions among ``assumptions`` that bear on ``names`` (those naming them, and through shared
        names those linked to them) and provably cannot hold together, or None (:func:`..assume.conflict`).  An
        assumption on other names only is no business of the step: a case split elsewhere in the paragraph
        ("suppose $t < T$ … suppose $t \\ge T$") does not silence a step about other names."""
        from ..assume import conflict
        texts = list(dict.fromkeys(assumptions))
        bearing, reach = [], set(names)
        grown = True
        while grown:
            grown = False
            for t in texts:
                if t not in bearing and _ast_names_text(t) & reach:
                    bearing.append(t)
                    reach |= _ast_names_text(t)
                    grown = True
        if not bearing:
            return None
        cache = self.__dict__.setdefault("_conflict_cache", {})
        key = tuple(sorted(bearing))
        if key not in cache:
            cache[key] = conflict(bearing)
        return cache[key]

    def _assumption_text(self, math: str, pos: int) -> list[str] | None:
        """An inline inequality of the prose as the checker's assumptions (``0 < \\eta \\le 1/L``; ``a, b > 0`` as
        one for each name), or None when it cannot be read."""
        m = LISTED_BOUND.fullmatch(math)
        if m:  # a, b > 0: each name
            parts = [self._assumption_text(f"{name} {m.group(2)}", pos) for name in m.group(1).split(",")]
            return None if any(p is None for p in parts) else [t for p in parts for t in p]
        try:
            reading = read_chain([(_interval_condition(math), pos)], self.names, self.names.defined)
        except Exception:
            return None
        if reading.error or not reading.links or \
                not all(lk.readable and lk.op in ("<", ">", "<=", ">=") for lk in reading.links):
            return None
        terms = [reading.links[0].lhs] + [lk.rhs for lk in reading.links]
        if any(t.parser and (t.parser.opaque or t.parser.ambiguous or t.parser.applied or t.parser.labels)
               for t in terms):
            return None
        try:
            fam: dict[str, int] = {}
            parts = [unparse(plain(t.node, set(), fam)) for t in terms]
        except BadInput:
            return None
        if fam:
            return None
        out = parts[0] + "".join(f" {lk.op} {p}" for lk, p in zip(reading.links, parts[1:]))
        from ..assume import parse_assumptions
        try:
            parse_assumptions([out])
        except BadInput:
            return None
        return [out]

    def _display_error(self, display: D.Display) -> str | None:
        if getattr(display, "too_long", False):
            return f"display too long ({len(display.body)} characters; at most {MAX_DISPLAY_CHARS})"
        if display.skip:
            return "skip"
        f, line = self.doc.where(display.start)
        f_end, last = self.doc.where(max(display.start, display.end_pos - 1))
        if f_end != f:
            last = line
        for (fa, a), (fb, b), e in self.expansion_errors:
            if fa == f == fb and a <= last and line <= b:  # any line of the display (a macro on its third row too:
                # left as written, it would be read with LaTeX's meaning or as an unknown command)
                return f"macro expansion failed: {e}"
        m = HOSTILE.search(display.body)
        if m:
            return f"hostile construct \\{m.group(1)} skipped (never executed)"
        return None

    def _conditions(self, display: D.Display, conditions) -> tuple[list[str], list[str]]:
        """The assumptions a chain's side conditions (those on its own rows) give, and those that could not be read."""
        out, unread = [], []
        display.over_reals = any(REALS_RE.search(seg.text) for seg in conditions)
        for seg in conditions:
            listed = seg.text.strip().rstrip(".,;").strip()
            if "," in listed and LISTED_BOUND.fullmatch(listed):  # \forall p, q, r \ge 0: the bound on each name
                each = self._assumption_text(listed, seg.pos)
                if each is None:
                    unread.append(" ".join(seg.text.split())[:60])
                else:
                    out += [a for a in each if a not in out]
                continue
            reading = read_chain([(_interval_condition(seg.text), seg.pos)], self.names, self.names.defined)
            if not reading.error and not reading.links:
                continue  # "for all x \in R", "for some t": no relation, nothing to assume
            if reading.error:
                unread.append(" ".join(seg.text.split())[:60])
                continue
            terms = [reading.links[0].lhs] + [lk.rhs for lk in reading.links] if reading.links else []
            ok = all(lk.readable and lk.op in ("<", ">", "<=", ">=", "=") for lk in reading.links)
            if not ok or not reading.links:
                unread.append(" ".join(seg.text.split())[:60])
                continue
            try:
                fam: dict[str, int] = {}
                parts = [unparse(plain(t.node, set(), fam)) for t in terms]
            except BadInput:
                unread.append(" ".join(seg.text.split())[:60])
                continue
            ops = [{"=": "=="}.get(lk.op, lk.op) for lk in reading.links]
            text = parts[0] + "".join(f" {o} {p}" for o, p in zip(ops, parts[1:]))
            from ..assume import parse_assumptions
            try:
                parse_assumptions([text])
                out.append(text)
            except BadInput:
                unread.append(text)
        return out, unread

    def _row_facts(self, display: D.Display, chain, link, base: list[str]) -> tuple[list[str], list[str]]:
        """(the assumptions, the unread) of the justification written on ``link``'s row (:func:`D.justification_facts`):
        ``‖A‖‖x‖ = ‖A‖ \\qquad \\text{($\\|x\\| = 1$)}`` rests on ‖x‖ = 1, the way a step rests on its row's side
        condition.  One not read, or not usable with ``base``, is returned marked :data:`JUSTIFICATION_UNREAD`: a
        refutation of the link is then "refuted as read, but the display's justification could not be read"."""
        if not display.justifications:
            return [], []
        row = None
        for part in chain.parts:  # the row of the part the link's relation symbol is written in
            if part.pos <= link.pos:
                row = part.row
        facts = [f for f in display.justifications if f.row == row]
        if not facts:
            return [], []
        unread = [f.text for f in facts if f.word != "justification"]
        over_reals = getattr(display, "over_reals", False)
        got, noted = self._conditions(display, [f for f in facts if f.word == "justification"])
        display.over_reals = over_reals
        got, refused, clash = self._usable(base, [a for a in got if a not in base])
        # one that leaves a name no values with the others is not assumed either: a refutation without it stands on
        # nothing the paper said (a proof without it is still one)
        refused = refused + [f"{c} (contradicts the other assumptions)" for c in clash]
        return got, [JUSTIFICATION_UNREAD + u for u in unread + noted + refused]

    AFTER_RE = re.compile(r"^\s*[,.;]?\s*(?:for|where|with|when|if|and|since|because|as|"
                          r"(?:by\s+)?using(?:\s+the\s+fact)?\s+that|using|given\s+that|noting\s+that|"
                          r"recalling\s+that)\s+"
                          r"(?:\$([^$]{1,200})\$|\\\((.{1,200}?)\\\))")
    #: "…, and $b = 2$", and (s48) "… and with any constants $j,u > 0$ such that $ju < 1$": the next value or
    #: condition of the prose after a display, a connective and an optional quantifier and kind of names before it
    AFTER_MORE = re.compile(r"\s*(?:(?:,\s*and|,|and)(?:\s+(?:with|for))?|,?\s*such\s+that|,?\s*with)"
                            r"(?:\s+(?:any|all|some|every|each))?(?:\s+(?:positive|real|fixed))*"
                            r"(?:\s+(?:constants?|numbers?|parameters?|scalars?|reals?))?"
                            r"\s+(?:\$([^$]{1,200})\$|\\\((.{1,200}?)\\\))")

    def _after(self, display: D.Display) -> tuple[dict, list[str]]:
        """"… = x, for $\\delta = 1/(6n)^{α/2}$", "…, where $A_{t-1} = \\exp(u)$ and $S(x) = 1/(1+e^{-x})$": the
        prose right after a display gives its names' values (substituted in its steps) or conditions (assumed for
        them). A name's value is substituted after the reading; an indexed name's (``A_{t-1}``) and a function's
        (``S(x)``) before it, in :attr:`_pre`."""
        self._pre = {}
        self._after_powers = []
        self._cited = {}
        m = self.AFTER_RE.match(display.after)
        if not m:
            return {}, []
        cited = bool(self.AFTER_REASON.match(display.after))  # "…, since $w = u$": the fact the step rests on
        texts = [m.group(1) or m.group(2)]
        while len(texts) < 4:
            more = self.AFTER_MORE.match(display.after, m.end())
            if not more:
                break
            texts.append(more.group(1) or more.group(2))
            m = more
        subst, assume = {}, []
        for text in texts:
            if LISTED_BOUND.fullmatch(text):  # "with any constants $j,u > 0$": a condition on each name (s48)
                listed = self._assumption_text(text, display.start)
                if listed is None:
                    break
                assume += [t for t in listed if t not in assume]
                continue
            reading = read_chain([(text, display.start)], self.names, self.names.defined)
            if not reading.error and len(reading.links) > 1 and \
                    all(lk.op in ("<", ">", "<=", ">=") for lk in reading.links):
                chained = self._assumption_text(text, display.start)  # "where $0 < \eta \le 1/L$": one condition
                if chained is None:
                    break
                assume += [t for t in chained if t not in assume]
                continue
            if reading.error or len(reading.links) != 1 or not reading.links[0].readable:
                break
            link = reading.links[0]
            rp = link.rhs.parser
            clean = not (rp and (rp.opaque or rp.ambiguous or rp.divisions))
            node = link.lhs.node
            if link.op == "=" and clean and isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                if cited:
                    try:
                        flat = plain(node, set(), {})
                    except BadInput:
                        break
                    if not isinstance(flat, ast.Name) or self._defined_power(display, flat.id):
                        continue  # "using the fact that $σ_v = …$" where the paper defines σ_v²: not guessed
                    self._cited[flat.id] = " ".join(text.split())
                self._pre[ast.dump(node)] = (node, None, link.rhs.node)  # A_{t-1} = exp(u)
                continue
            if link.op == "=" and clean and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    _builtin_call(node.func.id):
                # "since ‖u‖ = 1": the value of this norm of u — never a definition of the norm (‖w‖ had become 1 too:
                # ‖w‖‖x‖ ≤ ‖x‖ proved for any w)
                self._pre[ast.dump(node)] = (node, None, link.rhs.node)
                continue
            if link.op == "=" and clean and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.args and all(isinstance(a, ast.Name) for a in node.args) and \
                    len({a.id for a in node.args}) == len(node.args):
                self._pre["call:" + node.func.id] = (node, [a.id for a in node.args], link.rhs.node)  # S(x) = …
                continue
            fam: dict[str, int] = {}
            try:
                lhs, rhs = plain(link.lhs.node, set(), fam), plain(link.rhs.node, set(), fam)
            except BadInput:
                break
            if fam:
                break
            if link.op == "=" and isinstance(lhs, ast.Name) and \
                    not (rp and (rp.opaque or rp.ambiguous or rp.applied or rp.divisions)):
                if cited and self._defined_power(display, lhs.id):
                    continue  # "since $σ_v = …$" where the paper defines σ_v² (a typo either side): not guessed
                subst[lhs.id] = rhs
                if cited:
                    self._cited[lhs.id] = " ".join(text.split())
            elif link.op == "=" and isinstance(lhs, ast.BinOp) and isinstance(lhs.op, ast.Pow) and \
                    isinstance(lhs.left, ast.Name) and isinstance(lhs.right, ast.Constant) and \
                    type(lhs.right.value) is int and lhs.right.value >= 2 and lhs.left.id not in names_in(rhs, set()) \
                    and not (rp and (rp.opaque or rp.ambiguous or rp.applied or rp.divisions)):
                # "…, using the fact that $\hat s^2 = \hat a^2 - \hat b^2$": the power's value, for this display's
                # steps as a definition's is (the name itself, written otherwise, stays free)
                if not cited or self._defined_power(display, lhs.left.id):
                    continue  # only a fact the prose cites as the reason ("using the fact that"), never redefined
                self._after_powers.append((lhs.left.id, lhs.right.value, rhs, None,
                                           "{}:{} (after the display)".format(*self.doc.where(display.start))))
                self._cited[lhs.left.id] = " ".join(text.split())
            elif link.op in ("<", ">", "<=", ">="):
                text = f"{unparse(lhs)} {link.op} {unparse(rhs)}"
                from ..assume import parse_assumptions
                try:
                    parse_assumptions([text])
                    assume.append(text)
                except BadInput:
                    pass
        return subst, assume

    AFTER_REASON = re.compile(r"^\s*[,.;]?\s*(?:since|because|as|(?:by\s+)?using|given\s+that|noting\s+that|"
                              r"recalling\s+that)\b")

    def _defined_power(self, display: D.Display, name: str) -> bool:
        """A definition in scope gives a power of ``name`` (``ŝ² := …``)."""
        here = set(display.scope)
        return any(n == name and (scope is None or scope in here)
                   for n, _, _, scope, _ in getattr(self, "power_defs", ()))

    def _before(self, display: D.Display, subst: dict) -> dict:
        """Values the sentence before the display sets ("Setting $p = 1 + \\delta$, we have"; see :mod:`.prose`),
        merged under those stated after it: a plain name's value into the substitution returned, an indexed name's
        (``n_{i} = \\ell_{m_i}``) into :attr:`_pre`.  Each value set there is named in :attr:`_prose_set`, so that a
        refutation resting on it is reported as read only.  A value through a function, an unknown, a family or
        the name itself is not used; values that name each other (``n = \\ell``, ``\\ell = …``) are resolved."""
        from .prose import values_before
        self._prose_set = {}
        self._prose_powers = []
        near = values_before(display.prose)
        # the values the paragraph's sentences set for what follows ("If we let $σ^2 = 1/M$"), then those of the
        # sentence leading into the display (the nearer wins)
        texts = [t for t in getattr(self, "_para_values", []) if t not in near] + near
        if not texts:
            return subst
        plain_vals, pre_vals = {}, {}
        for text in texts:
            if LISTED_BOUND.fullmatch(text):  # "with any constants $j,u > 0$": a condition on each name (s48)
                listed = self._assumption_text(text, display.start)
                if listed is None:
                    break
                assume += [t for t in listed if t not in assume]
                continue
            reading = read_chain([(text, display.start)], self.names, self.names.defined)
            if reading.error or len(reading.links) != 1 or not reading.links[0].readable:
                continue
            link = reading.links[0]
            rp = link.rhs.parser
            if link.op not in ("=", ":=") or link.rhs.node is None or \
                    (rp and (rp.opaque or rp.ambiguous or rp.applied or rp.divisions)):
                continue  # "let $a := a_i$": a value set with := as with =
            node = link.lhs.node
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                key = ast.dump(node)
                if key in self._pre or any(ast.dump(n) == key for n in ast.walk(link.rhs.node)):
                    continue
                pre_vals[key] = (node, None, link.rhs.node)
                self._prose_set[key] = " ".join(text.split())
                continue
            fam: dict[str, int] = {}
            try:
                lhs, rhs = plain(node, set(), fam), plain(link.rhs.node, set(), fam)
            except BadInput:
                continue
            if not fam and isinstance(lhs, ast.BinOp) and isinstance(lhs.op, ast.Pow) and \
                    isinstance(lhs.left, ast.Name) and isinstance(lhs.right, ast.Constant) and \
                    type(lhs.right.value) is int and lhs.right.value >= 2 and lhs.left.id not in subst and \
                    lhs.left.id not in names_in(rhs, set()):
                # "let $σ^2 = 1/M$": the power's value (σ² → 1/M, σ⁴ → its square); a lone σ is left free and
                # blocks a refutation (its sign is not given), as for a power a display defines
                self._prose_powers = [p for p in self._prose_powers if p[0] != lhs.left.id] + \
                    [(lhs.left.id, lhs.right.value, rhs, None, "")]
                self._prose_set[lhs.left.id] = " ".join(text.split())
                continue
            if fam or not isinstance(lhs, ast.Name) or lhs.id in subst or lhs.id in names_in(rhs, set()):
                continue
            plain_vals[lhs.id] = rhs
            self._prose_set[lhs.id] = " ".join(text.split())
        for _ in range(3):  # n_i = ell_mi and ell_mi = …: each value in terms of the others' values
            pre_vals = {k: (n, a, _substitute_pre(v, pre_vals)) for k, (n, a, v) in pre_vals.items()}
            plain_vals = {k: _substitute(v, plain_vals) for k, v in plain_vals.items()}
        for k in list(pre_vals):
            if any(ast.dump(n) == k for n in ast.walk(pre_vals[k][2])):
                del pre_vals[k], self._prose_set[k]  # circular: not a value
        for k in list(plain_vals):
            if k in names_in(plain_vals[k], set()):
                del plain_vals[k], self._prose_set[k]
        self._pre.update(pre_vals)
        return {**plain_vals, **subst}

    def _plain_define(self, text: str, pos: int = 0) -> None:
        from ..parser import parse_definition
        try:
            d = parse_definition(text, None)
        except BadInput as exc:
            raise BadInput(f"{self.doc.label(pos)}: define {text!r}: {exc}") from None
        if d is None:
            raise BadInput(f"{self.doc.label(pos)}: '% theoryverify: define' takes name := expr or f(x) := expr")
        self.definitions.append(d)
        self.def_scopes.append(None)
        self.defined_names.add(d.name)
        if d.params:
            self.names.defined.add(d.name)

    def _introduced(self, link: Link) -> str | None:
        """A name (plain or indexed by a number: ``C_2``) that the right side of ``link`` writes for the first time
        in the paper and the left side does not contain, or None."""
        if link.rhs.node is None or not link.rhs.tokens or link.lhs.node is None:
            return None
        start = link.rhs.tokens[0].pos - 2 - len(link.rhs.tokens[0].text)
        left = {_key(n) for n in ast.walk(link.lhs.node) if isinstance(n, (ast.Name, ast.Subscript))}
        applied = {id(n.func) for n in ast.walk(link.rhs.node) if isinstance(n, ast.Call)}  # Tr(·) is no constant
        for node in ast.walk(link.rhs.node):
            if id(node) in applied:
                continue
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                    isinstance(node.slice, ast.Constant):
                key = _key(node)
            elif isinstance(node, ast.Name) and len(node.id) > 1 and node.id[0].isupper():
                key = node.id  # a multi-letter capitalised name (Cst); not a plain x, which proofs reuse freely
            else:
                continue
            first = self.names.first_at(key)
            if key not in left and first is not None and first >= start:
                return key
        return None

    #: the prose after a display that gives a name's value: "where we have set $\tilde E_n = E_n/\delta$", "with
    #: $C = …$", "here we write $C := …$" — the math's left side and its sign
    DEFINED_AFTER = re.compile(r"^\W{0,3}(?:where|with|here|and)\b[^.$]{0,60}?\$\s*([^$=]{1,60}?)\s*"
                               r"(?:=|:=|\\coloneqq|\\triangleq|\\eqqcolon|\\defeq|\\equiv)(?!:)[^$]{1,200}\$")

    #: a further definition in the same clause of the prose after a display ("… and $K = …$")
    DEFINED_MORE = re.compile(r"\$\s*([^$=]{1,60}?)\s*(?:=|:=|\\coloneqq|\\triangleq|\\eqqcolon|\\defeq|\\equiv)"
                              r"(?!:)[^$]{1,200}\$")

    def _defined_after(self, display, link: Link, new: str) -> str:
        """The LaTeX of the name ``new`` (a name the right side of ``link`` writes for the first time, keyed as
        :meth:`_introduced` keys it) when the prose right after the display defines it ("…, where we have set
        $\\tilde E_n = \\frac{E_n}{\\delta}$"), or "": the link uses that name, it does not define it (nor its own left
        side).  The prose's left side must be that name, read as the display's names are."""
        after = display.after or ""
        m = self.DEFINED_AFTER.match(after)
        if not m:
            return ""
        # "where $c = K^{-1} y$ and $K = (k(x_i, x_j))$": each definition of the clause (up to its full stop)
        rest = re.split(r"\.(?:\s|$)", after[m.end():], maxsplit=1)[0]
        lefts = [m.group(1), *(d.group(1) for d in self.DEFINED_MORE.finditer(rest))]
        for left in lefts:
            name = "".join(left.split())
            if not name or name not in "".join(link.rhs.latex.split()) or name in "".join(link.lhs.latex.split()):
                continue
            reading = read_chain([(left + " = 0", display.start)], self.names, self.names.defined)
            if reading.error or len(reading.links) != 1 or reading.links[0].lhs.node is None:
                continue
            node = reading.links[0].lhs.node
            if new in {_key(n) for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Subscript))}:
                return left.strip()
        return ""

    def _index_range(self, chain, reading: ChainReading) -> bool:
        """True when ``reading`` (of ``chain``) is only a range ``2 ≤ l ≤ n − 1`` of a plain name that is an index or
        an argument of what an earlier chain of the same display defines: every link an inequality, every side a
        name, a number or a sum of them, and a side that name."""
        defined = {**getattr(self, "_defined_args", {}), **getattr(self, "_defined_indices", {})}
        if not reading.links or not defined:
            return False
        sides = []
        for lk in reading.links:
            if lk.op not in ("<", ">", "<=", ">=") or lk.lhs.node is None or lk.rhs.node is None:
                return False
            sides += [lk.lhs.node, lk.rhs.node]
        if not all(_range_side(n) for n in sides):
            return False
        bare = {n.id for n in sides if isinstance(n, ast.Name) and defined.get(n.id, id(chain)) != id(chain)}
        # the name alone on its side, nowhere else (not l + l ≤ l − 5, a fact about l)
        return bool(bare) and not any(isinstance(x, ast.Name) and x.id in bare for n in sides
                                      if not isinstance(n, ast.Name) for x in ast.walk(n))

    #: the left side of a where clause's row and its definition sign: "c = K^{-1} y", "\\mathsf{K} := …"
    WHERE_LEFT = re.compile(r"^\s*([^=<>]{1,60}?)\s*(?:=|:=|\\coloneqq|\\triangleq|\\defeq|\\equiv)(?![=:])")

    def _defined_in_where(self, display, chain, link: Link, new: str) -> str:
        """The LaTeX of the name ``new`` (keyed as :meth:`_introduced` keys it) when a 'where' clause of the same
        display, after ``chain``, defines it (a row ``\\text{where } c = K^{-1} y, \\quad K = …``), or "": the link
        uses that name, it does not define it.  The clause's left side must be that name, read as the display's
        names are."""
        for other in display.chains:
            if other is chain or other.role != "where" or not other.parts or other.parts[0].pos <= link.pos:
                continue
            m = self.WHERE_LEFT.match(other.parts[0].text)
            if not m:
                continue
            name = "".join(m.group(1).split())
            if not name or name not in "".join(link.rhs.latex.split()) or name in "".join(link.lhs.latex.split()):
                continue
            reading = read_chain([(m.group(1) + " = 0", other.parts[0].pos)], self.names, self.names.defined)
            if reading.error or len(reading.links) != 1 or reading.links[0].lhs.node is None:
                continue
            node = reading.links[0].lhs.node
            if new in {_key(n) for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Subscript))}:
                return m.group(1).strip()
        return ""

    def _angle_question(self, link: Link) -> str:
        """The text of an ``x < a, b > y`` (see :func:`ascii_angles`) that this link's tokens reach into, else ''."""
        spans = getattr(self.doc, "angle_questions", None)
        toks = [*link.lhs.tokens, *link.rhs.tokens]
        if not spans or not toks:
            return ""
        lo, hi = min(t.pos for t in toks + [link]) - 1, max(t.pos for t in toks + [link]) + 1
        for a, b in spans:
            if a <= hi and b >= lo:
                return " ".join(self.doc.text[a:b].split())
        return ""

    def _add(self, display, link: Link, chain_id, status, kind, reason, assumptions, read_as=None) -> Relation:
        f, line = self.doc.where(link.pos)
        latex = f"{link.lhs.latex} {_op_text(link)} {link.rhs.latex}"
        rel = Relation(f, line, _whole(latex), read_as, status, kind, reason, chain_id, list(assumptions),
                       pos=link.pos, link=link)
        if link.label and not in_distribution(link.label):  # \stackrel{(a)}{=}: the label is the link's justification
            rel.notes.append(f"labelled {link.label}")
        later = getattr(self, "_defined_after_notes", {}).get(id(link))
        if later:  # "…, where we have set Ẽ_n = …": the name the link rests on
            rel.notes.append(later)
        self.relations.append(rel)
        return rel

    def _logic(self, display, left, right, word, read_sides, chain_id, prose_unread) -> None:
        """One arrow of a chain of propositions (``A \\iff B``, ``A \\implies B``) as a relation of its own: checked by
        :mod:`.logic` where both sides are relations between polynomial expressions of the same plain real names
        (proved, refuted with a counterexample, or inconclusive), otherwise left out (each side is then "not a step")."""
        from . import logic as L
        if id(left) not in read_sides or id(right) not in read_sides:
            return
        (lr, assume, _), (rr, r_assume, unread) = read_sides[id(left)], read_sides[id(right)]
        if lr.error or rr.error or not lr.links or not rr.links or \
                not all(lk.readable for lk in lr.links + rr.links):
            return
        kind = "equivalence" if word == "equivalent" else "implication"
        try:
            fam: dict[str, int] = {}
            sides = [[(plain(lk.lhs.node, set(), fam), lk.op, plain(lk.rhs.node, set(), fam)) for lk in r.links]
                     for r in (lr, rr)]
            names = {n.id for side in sides for a, _, b in side for t in (a, b) for n in ast.walk(t)
                     if isinstance(n, ast.Name)}
            if fam or any(self.names.nonscalar(n.split("_")[0]) for n in names):
                return  # a family or a vector: no truth value of numbers
            clash = self._conflict([*assume, *r_assume, *getattr(self, "_chain_clashing", ())], names)
            if clash:  # A ⟺ B under assumptions that contradict each other: every point of them is none
                pos = right.parts[0].pos
                arrow = "\\iff" if kind == "equivalence" else "\\implies"
                self._add_raw(display, pos, f"{' '.join(left.text.split())} {arrow} {' '.join(right.text.split())}",
                              chain_id, "inconclusive", kind, _conflict_reason(clash), assume)
                return
            given = []
            for a in dict.fromkeys(list(assume) + list(r_assume)):
                node = parse_assumption(a)
                if not isinstance(node, ast.Compare):
                    raise L.NotChecked("an assumption is not a relation")
                terms = [node.left] + list(node.comparators)
                ops = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "="}
                given += [(terms[i], ops.get(type(o), "?"), terms[i + 1]) for i, o in enumerate(node.ops)]
            res = L.check(sides[0], sides[1], kind, given, whole=set())
        except (L.NotChecked, BadInput, SyntaxError, ValueError, TypeError, RecursionError):
            return
        except Exception:  # sympy's own failures (a root it cannot isolate): no verdict, never a crash
            return
        status, why = res["status"], res["evidence"]
        label = right.parts[0].label if right.parts else ""  # A \stackrel{(a)}{\iff} B: the arrow cites (a)
        if status == "refuted" and label:
            status, why = "inconclusive", f"refuted as read, but {_cites(label)} (as read on its own: {why})"
        elif status == "refuted" and (unread or prose_unread):
            status, why = "inconclusive", f"{why}; but a condition stated for it is not read"
        arrow = "\\iff" if kind == "equivalence" else "\\implies"
        text = f"{' '.join(left.text.split())} {arrow} {' '.join(right.text.split())}"
        pos = right.parts[0].pos
        rel = self._add_raw(display, pos, text, chain_id, status, kind,
                            f"the {kind} itself (both sides' truth values compared): {why}", assume)
        shown = ["(" + " and ".join(f"{unparse(a)} {op} {unparse(b)}" for a, op, b in side) + ")" for side in sides]
        rel.read_as = f"{shown[0]} {'<=>' if kind == 'equivalence' else '=>'} {shown[1]}"
        if label:
            rel.notes.append(f"labelled {label}")
        if (status == "refuted" or label) and res.get("counterexample"):
            rel.counterexample = res["counterexample"]

    def _add_raw(self, display, pos, text, chain_id, status, kind, reason, assumptions=()) -> Relation:
        f, line = self.doc.where(pos)
        rel = Relation(f, line, _whole(text), None, status, kind, reason, chain_id, list(assumptions), pos=pos)
        self.relations.append(rel)
        return rel

    def _chain(self, display, chain, reading: ChainReading, chain_id, error, assumptions, cond_unread) -> None:
        if error or reading.error:
            why = error or reading.error
            status = "unreadable"
            reason = "skipped by '% theoryverify: skip'" if why == "skip" else why
            if why == "skip":
                status, kind = "not_a_step", "step"
            for pos, text in _raw_relations(chain):
                self._add_raw(display, pos, text, chain_id, status, "step", reason, assumptions)
            return
        bare = chain.text.replace("\\{", "").replace("\\}", "")
        if not reading.links and bare.count("{") != bare.count("}") and D.RELATION_HINT.search(chain.text):
            self._add_raw(display, chain.pos, chain.text, chain_id, "unreadable", "step",
                          "no relation at the top level (unbalanced braces?)", assumptions)
            return
        display_text = display.body
        bare_and_applied(reading, self.declared_functions, self.names.ev.maps)  # r M_a^2 (…) beside r M_a^2 · E[…]
        defined_before = False  # the previous link of this chain is "a := …"
        chain_defines = False  # the chain's first link is a definition inside a statement
        base_assumptions, noted = list(assumptions), []
        for link in reading.links:
            # \overset{p = 1/2}{=}: this link's own condition, assumed for it alone (unread: no refutation)
            cond_unread = [u for u in cond_unread if u not in noted]
            assumptions, noted = base_assumptions, []
            if link.annotation:
                got, noted = self._conditions(display, [D.Segment(link.annotation, link.pos, "condition", "if")])
                assumptions = base_assumptions + [a for a in got if a not in base_assumptions]
                cond_unread = [*cond_unread, *noted]
            facts, facts_unread = self._row_facts(display, chain, link, assumptions)
            if facts or facts_unread:  # "… = ‖A‖ \qquad \text{($\|x\| = 1$)}": the row's justification, assumed
                assumptions = assumptions + [a for a in facts if a not in assumptions]
                noted = [*noted, *facts_unread]
                cond_unread = [*cond_unread, *facts_unread]
            is_name, plus_one, base = lhs_shape(link.lhs.node)
            recursion = False
            if link.index == 0 and base and link.lhs.node is not None and link.rhs.node is not None and \
                    isinstance(link.lhs.node, (ast.Subscript, ast.Call)):
                recursion = _recursion(link.lhs.node, link.rhs.node)
            first_use = False
            if base:
                key = _key(link.lhs.node) if isinstance(link.lhs.node, ast.Subscript) else base  # V_{gcn}: its own key
                key = key or base
                first = self.names.first_at(key)
                deriv = re.fullmatch(r"(\w+?)(?:prime|dot)", base)
                of = self.names.first_at(deriv.group(1)) if deriv else None
                if of is not None and of < (link.lhs.tokens[0].pos if link.lhs.tokens else 0):
                    first = None  # g'(q) after g: the derivative of a known function is computed, not defined
                tok = link.lhs.tokens[0] if link.lhs.tokens else None  # a command token's pos is where it ends
                first_use = tok is not None and first is not None and first >= tok.pos - 2 - len(tok.text)
            later_first_use, first_use = first_use and link.index > 0, first_use and link.index == 0
            kind, why = classify(link.op, link.lhs.latex, link.rhs.latex, first_in_chain=link.index == 0,
                                 role=chain.role, display_text=display_text, prose=display.prose,
                                 scope=display.scope, lhs_index_plus_one=plus_one, recursion=recursion,
                                 lhs_is_name=is_name, lhs_first_use=first_use, after=display.after,
                                 lead=display.lead,
                                 lhs_opaque=bool(is_name and base in self.names.atoms),
                                 lone_name=len(reading.links) == 1 and
                                 isinstance(link.lhs.node, (ast.Name, ast.Subscript)),
                                 p_not_probability=self._p_not_probability,
                                 lhs_power=link.index == 0 and _power_of_name(link.lhs.node, link.rhs.node))
            if in_distribution(link.label):
                # X \stackrel{d}{=} -X: equal in distribution, a statement about laws (d is no citation label, no
                # definition sign)
                kind, why = "probabilistic", distribution_why(link.op, link.label)
            if link.op == CONVERGES:
                # X_n \xrightarrow{d} X, \xrightarrow{p}, \xrightarrow{a.s.}: convergence of random variables
                kind, why = "probabilistic", convergence_why(link.label)
            if kind == "step" and link.op in ("<", ">", "<=", ">=") and any(
                    isinstance(side, ast.Name) and self._defined_args.get(side.id, id(chain)) != id(chain)
                    for side in (link.lhs.node, link.rhs.node)):
                # "ρ(λ) = (α−1)λ_0^{α−1}λ^{−α}, \qquad λ ≥ λ_0": the range of the argument of the function the
                # display has just defined, a side condition of that definition
                kind, why = "hypothesis", ("a side condition of the definition before it in the display (the range "
                                           "of its argument), not a step")
            if kind in ("step", "goal", "hypothesis") and link.op in ("<", ">", "<=", ">=") and \
                    self._index_range(chain, reading):
                # "ΔM_l := Q_l(…), \quad 2 ≤ l ≤ n − 1" (in a lemma too): the range of the index (or argument) of
                # what the display has just defined — one side condition of that definition, not a hypothesis and a
                # conclusion, nor a step
                kind, why = "hypothesis", ("a side condition of the definition before it in the display (the range "
                                           "of its index or argument), not a step nor a conclusion")
            if kind == "definition" and link.index == 0 and isinstance(link.lhs.node, ast.Call):
                self._defined_args.update({a.id: id(chain) for a in link.lhs.node.args if isinstance(a, ast.Name)})
            if kind == "definition" and link.index == 0 and (link.op in DEFINITION_OPS or link.op == "=") and \
                    link.op not in ("=:", "\\eqqcolon", "\\eqdef") and \
                    link.lhs.node is not None:
                self._defined_indices.update({n.id: id(chain) for n in _plain_indices(link.lhs.node)})
            half = _half_step_of(link, self.names.ev.half_steps)
            if half and link.index == 0 and link.op == "=" and kind in ("step", "definition", "goal"):
                kind, why = "update", (f"{half}: a half-step of the update block (the display then updates the name at "
                                       "t+1 from it)")
            event = "the event 'with probability …' the prose fixes, which is not read" if why == EVENT_WHY else \
                "the event the prose names ('on the event $…$'), which is not read"
            if kind == "step" and why in (EVENT_WHY, NAMED_EVENT_WHY) and event not in cond_unread:
                # a counterexample off the event the prose fixes refutes nothing (read as an unread condition)
                cond_unread = [*cond_unread, event]
            written = " ".join(f"{link.lhs.latex} {link.op} {link.rhs.latex}".split())
            if kind == "step" and is_name and link.index == 0 and len(reading.links) == 1 and \
                    written in self.definition_texts:
                f, line = self.doc.where(self.definition_texts[written])
                kind, why = "definition", f"restates the definition at {f}:{line} word for word"
            if kind == "step" and link.op == "=" and link.index > 0:
                new = self._introduced(link)
                later = self._defined_after(display, link, new) if new else ""
                where = "" if later or not new else self._defined_in_where(display, chain, link, new)
                if where:
                    # "a(x) = c^T k(x) = k(x)^T K^{-1} y, \\ where c = K^{-1} y, K = (k(x_i, x_j))": the display's own
                    # where clause defines the new name; the link uses it (a step), it does not define it
                    item = f"{where}, which the display's 'where' clause defines after this link (not read)"
                    cond_unread, noted = [*cond_unread, item], [*noted, item]
                    self._defined_after_notes[id(link)] = (f"uses {where}, defined by the display's 'where' clause "
                                                           "(no definition of the left side)")
                elif later:
                    # "… = −log(1 − Ẽ_n), where we have set Ẽ_n = E_n/δ": the prose after the display defines the
                    # new name; the link substitutes it (a step), it does not define the left side by it
                    item = f"{later}, which the prose after the display defines (not read)"
                    cond_unread, noted = [*cond_unread, item], [*noted, item]
                    self._defined_after_notes[id(link)] = (f"uses {later}, defined in the prose after the display "
                                                           "(no definition of the left side)")
                elif new:  # "… ≤ … = ε C_2 (> 0)": the chain names a constant it writes for the first time
                    kind, why = "definition", f"names {new} (its first appearance): defines it, not a step"
                elif later_first_use and is_name and not any(
                        isinstance(n, ast.Name) and n.id == base for n in ast.walk(link.rhs.node or ast.Pass())):
                    # "r(s) ≤ r_row(s) = 1 + min(…)": the chain writes r_row for the first time and gives its value
                    kind, why = "definition", (f"{link.lhs.latex.strip()} appears here for the first time: this link "
                                               "gives its value (defines it), not a step")
            if kind == "step" and link.op == "=" and link.index == 0 and is_name and chain is not display.chains[0] \
                    and base not in self.names.atoms and link.lhs.tokens and not any(isinstance(n, ast.Name) and n.id == base
                                                    for n in ast.walk(link.rhs.node or ast.Pass())) and \
                    after_comma(self.doc.text[display.body_start:chain.pos]) and \
                    first_written_here(self.doc.text, self.doc.body_start, display.start, link.lhs.latex):
                # "𝖪 = … = 𝖪_a + 𝖪_b, \qquad 𝖪_a = 𝖵_a𝚲_a𝖵_aᵀ": a side clause giving the value of a name this
                # display writes for the first time (see .sideclauses)
                kind, why = "definition", (f"{link.lhs.latex.strip()} is first written in this display: the clause "
                                           "after the comma gives its value (defines it), not a step")
            if defined_before and link.op == "=" and is_name and kind in ("step", "goal"):
                kind, why = "definition", "a := b = …: gives the value of the name the previous link defines"
            if link.index > 0 and link.op == "=" and kind in ("hypothesis", "goal") and chain_defines:
                # a statement's "Define J as J = ∫∫ℓ = ∫_{⋃X}ℓ": the chain's later links write the same definition
                kind, why = "definition", "a further form of the definition the chain's first link makes"
            defined_before = link.op in DEFINITION_OPS
            if link.index == 0:
                chain_defines = kind == "definition" and any(
                    env_kind(name) in STATEMENT_ENVS for name, _ in display.scope)
            if kind == "definition":
                self.definition_texts.setdefault(written, link.pos)
            if not link.readable and kind == "step" and _plus_minus(link):
                if self._sign_choices(display, link, chain_id, kind, assumptions, cond_unread, is_name):
                    continue
            if not link.readable:
                if kind != "step":
                    rel = self._add(display, link, chain_id, "not_a_step", kind, why + "; " + (link.error or ""),
                                    assumptions)
                    continue
                self._add(display, link, chain_id, "unreadable", kind, link.error or "cannot be read", assumptions)
                continue
            read_as = self._read_as(link)
            angle = self._angle_question(link)
            if angle and kind in ("step", "hypothesis"):
                # x < a, b > y: two comparisons, or x·⟨a, b⟩·y? never checked, never a hypothesis
                rel = self._add(display, link, chain_id, "ambiguous", kind,
                                f"{angle}: two comparisons (< and >), or the inner product ⟨…⟩ written with ASCII "
                                "brackets?", assumptions, read_as)
                rel.readings = [read_as, f"{angle} read as an inner product ⟨…⟩"]
                continue
            if kind != "step":
                self._add(display, link, chain_id, "not_a_step", kind, why, assumptions, read_as)
                scope = display.scope[-1] if display.scope else None
                rows_here = {part.row for part in chain.parts}
                conditional = any(c.row in rows_here and re.match(r"(?:if|when|otherwise|unless)\b", c.word)
                                  for c in display.conditions)  # "u_k = u^-(x_k) if k ≤ l": one case only
                guessed = any(getattr(p, "log_powers", None) for p in (link.lhs.parser, link.rhs.parser) if p)
                if guessed:  # := … \ln(x)^{p}: its value rests on a guessed reading; the name stays undefined
                    continue
                if kind in ("definition", "update") and link.op in ("=", ":=") and not conditional and \
                        why not in NO_VALUE_WHYS:  # "define K₁ such that i(k_i) = î": no value of i
                    self._define(link, scope)
                elif kind == "definition" and link.op == "=:":
                    self._define(Link(":=", link.pos, link.rhs, link.lhs, link.index), scope)
                continue
            joined = _joined_use(link, self.joined_names)
            if joined:  # ln(SM_n) = M_n after "SM_n := exp(M_n)": S·M_n is read, the paper may mean one name
                factors, where = joined
                rel = self._add(display, link, chain_id, "ambiguous", kind,
                                f"{'·'.join(factors)}: a product, or the one name {''.join(factors)} defined at "
                                f"{where}? (the paper writes the letters side by side)", assumptions, read_as)
                rel.readings = [read_as, f"{''.join(factors)} one name (defined at {where}), not a product"]
                continue
            rebound = _rebound_index(link.lhs.node) or _rebound_index(link.rhs.node)
            if rebound:  # Σ_{k=0}^{t-1} λ(i) Σ_{k=i+1}^{T} …: a typo for another index, never read literally
                rel = self._add(display, link, chain_id, "ambiguous", kind,
                                f"{rebound} indexes a sum and is bound again by a sum inside it: a malformed binding "
                                f"(the outer index is likely another letter); not read literally", assumptions, read_as)
                rel.readings = [read_as, f"the outer sum over another index than {rebound} (which one the paper means "
                                         "is not settled)"]
                continue
            scoped = [q for p in (link.lhs.parser, link.rhs.parser) if p is not None
                      for q in getattr(p, "scope_questions", ())]
            if scoped:  # E X + Y: the expectation of X alone (read), or of X + Y? no verdict on either
                rel = self._add(display, link, chain_id, "ambiguous", kind,
                                f"{'; '.join(dict.fromkeys(scoped))}: an expectation sign without a bracket — the "
                                "expectation of the term after it (read), or another scope: E[X + Y] where a + or − "
                                "follows, (E X)² where the term is raised to a power?", assumptions, read_as)
                rel.readings = [read_as, "E with the other scope (the whole sum inside it, or the power outside it)"]
                continue
            if SHAPE_RE.search(link.lhs.latex + " " + link.rhs.latex):
                self._add(display, link, chain_id, "unreadable", kind, "(m × n) is a matrix shape here, not a product",
                          assumptions, read_as)
                continue
            if link.op not in ("=", "<", ">", "<=", ">="):
                self._add(display, link, chain_id, "inconclusive", kind, f"the relation {link.op} is not checked",
                          assumptions, read_as)
                continue
            if link.op in ("=", "<=", ">=") and _same_text(link.lhs.latex, link.rhs.latex) and \
                    unparse(link.lhs.node) == unparse(link.rhs.node):
                # "a ≤ a" (a row repeated): reflexive whatever the unknowns are; never on readings alone (the order
                # statistic X_{[i]} and X_i may read alike)
                self._add(display, link, chain_id, "proved", kind, "both sides are the same expression, written the "
                          "same way: the relation is reflexive", assumptions, read_as)
                continue
            parsers = [p for p in (link.lhs.parser, link.rhs.parser) if p is not None]
            log_powers = set().union(*(getattr(p, "log_powers", set()) for p in parsers))
            if log_powers:  # \ln(1 + x)^{-n/2}: (ln x)^p (read) or ln(x^p)? checked under both, a verdict where they agree
                self._reread_question(
                    display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                    f"{', '.join(sorted(log_powers))}: the power of the logarithm, or the logarithm of the power "
                    "(ln(x^p) = p·ln x)? The bracket before the power allows both", "each logarithm of the power "
                    "ln(x^p) (not built: the row has another question too)",
                    lambda: self._reread(link, log_power_inside=True))
                continue
            divisions = [d for p in parsers for d in p.divisions]
            ambiguous = set().union(*(p.ambiguous for p in parsers))
            labels = set().union(*(p.labels for p in parsers))
            increments = set().union(*(getattr(p, "increments", set()) for p in parsers))
            operators = set().union(*(getattr(p, "operator_apps", set()) for p in parsers))
            # (ΔX beside the paper's own Δ: Δ·X or one name? — every other question's readings keep Δ·X, so none of
            # them is checked while it is open)
            labels_or_increments = labels | increments | operators  # (each question blocks the others' rereads)
            if divisions:
                rel = self._add(display, link, chain_id, "ambiguous", kind,
                                f"{', '.join(dict.fromkeys(divisions))}: divided by the number alone, or by the "
                                "product the number is written with? (write \\frac or brackets)", assumptions, read_as)
                rel.readings = [read_as, self._bound_divisor_reading(link)]
                if not ambiguous and not labels_or_increments:
                    self._both_readings(display, link, self._reread(link, bind_divisor=True), chain_id, kind,
                                        assumptions, read_as, parsers, cond_unread)
                continue
            brackets = set().union(*(p.bracket_index for p in parsers))
            if brackets:  # A[j]: a product, or entry j of A? checked under both readings where they can be built
                self._reread_question(
                    display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                    f"{', '.join(sorted(brackets))}: a product, or an entry (row) of the name? The brackets after a "
                    "name can mean either", f"{', '.join(sorted(brackets))} read as indexed names",
                    (lambda: self._reread(link, index_brackets=True)) if not ambiguous and not labels_or_increments
                    else (lambda: None))
                continue
            if ambiguous:
                rel = self._add(display, link, chain_id, "ambiguous", kind, _ambiguity(ambiguous, self.names),
                                assumptions, read_as)
                rel.readings = [read_as, self._product_reading(link, ambiguous)]
                iterated = set().union(*(p.iterated_maps for p in parsers))
                if not labels_or_increments and not (ambiguous & iterated):  # T^k(x): its other reading is no product
                    self._both_readings(display, link, self._product_link(link, ambiguous), chain_id, kind,
                                        assumptions, read_as, parsers, cond_unread, extra_fns=ambiguous)
                continue
            if increments and not labels:
                self._reread_question(
                    display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                    f"{', '.join(sorted(increments))}: the paper's Δ (written alone elsewhere) times the name, or one "
                    "name (an increment ΔX)?", f"{', '.join(sorted(increments))} read as one name each",
                    lambda: self._reread(link, increment_reading=True))
                continue
            if operators and not labels:
                self._reread_question(
                    display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                    f"{', '.join(sorted(operators))}: an operator applied to the function (its value at the point), or "
                    "a product?", f"{', '.join(sorted(operators))} read as products",
                    lambda: self._reread(link, operator_reading=True))
                continue
            log_scope = set().union(*(getattr(p, "log_scope", set()) for p in parsers))
            if log_scope and not labels:
                self._reread_question(
                    display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                    "\\ln a \\int …: a log whose unbracketed argument is followed by an integral — the log of a times "
                    "the integral, or the log of their product?", "the log read over the whole product",
                    lambda: self._reread(link, log_reading=True))
                continue
            # before e: a label's letters (x^{ie}) are no Euler's number either
            if labels:
                self._reread_question(
                    display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                    f"{', '.join(sorted(labels))}: a power, or a name with a superscript label (an iterate)?",
                    f"{', '.join(sorted(labels))} read as labelled names", lambda: self._reread(link, label_reading=True))
                continue
            coords = _coordinate_twins(link)
            if coords:  # M v + (v^{(1)} − 1) e_1 = …: v^{(1)} a coordinate of v, or an iterate / a name of its own?
                shown = ", ".join(f"{b}^{{({i})}}" for b, i in coords)
                rel = self._add(display, link, chain_id, "ambiguous", kind,
                                f"{shown} beside {', '.join(dict.fromkeys(b for b, _ in coords))} itself: a bracketed "
                                "superscript on a name also written bare may be a coordinate (component) of it or an "
                                "iterate, a name of its own — the two readings decide the step differently",
                                assumptions, read_as)
                rel.readings = [f"{read_as}  ({shown} a name of its own)",
                                f"{shown} the coordinate of the vector {', '.join(dict.fromkeys(b for b, _ in coords))} "
                                "(not checked: a step about vectors' coordinates)"]
                continue
            twins = _bold_twins(link)
            if twins:  # \textbf{u} - u: the paper's bold u may be its u (a vector written two ways) or another name
                rel = self._add(display, link, chain_id, "ambiguous", kind,
                                f"{', '.join(f'{t}bf' for t in twins)} and {', '.join(twins)}: the bold name and the plain "
                                "one may be the same quantity (written two ways) or two", assumptions, read_as)
                other = _unbolded(link, twins)
                rel.readings = [read_as, self._read_as(other)]
                self._both_readings(display, link, other, chain_id, kind, assumptions, read_as, parsers, cond_unread)
                continue
            constant = next(((why, pattern, other) for flag, why, pattern, other in NAMED_CONSTANTS
                             if any(getattr(p, flag, False) for p in parsers)), None)
            if constant:  # e or π: the constant, or the paper's name? (the other reading shown, not checked)
                why, pattern, other = constant
                rel = self._add(display, link, chain_id, "ambiguous", kind, why, assumptions, read_as)
                rel.readings = [read_as, re.sub(pattern, other, read_as or "")]
                continue
            dt = self._total_derivative_issue(parsers)
            if dt and dt[3]:
                self._add(display, link, chain_id, "inconclusive", kind, dt[0], assumptions, read_as)
                continue
            if dt:
                rel = self._add(display, link, chain_id, "ambiguous", kind, dt[0], assumptions, read_as)
                rel.readings = [f"{read_as}  (other names constant in {dt[1]})",
                                f"{dt[2]} may depend on {dt[1]}: their derivatives are unknown"]
                continue
            self._job(display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread)

    @staticmethod
    def _show(node, parser) -> str:
        text = unparse(node)
        for name, latex in (parser.opaque.items() if parser else ()):
            text = re.sub(rf"\b{re.escape(name)}\b", lambda m, t=latex: f"⟦{t}⟧", text)
        for name, latex in (getattr(parser, "applications", {}).items() if parser else ()):
            text = re.sub(rf"\b{re.escape(name)}\(", lambda m, t=latex: f"⟦{t}⟧(", text)  # F[f](ω): ⟦F[f]⟧(ω)
        return text

    def _read_as(self, link: Link) -> str:
        op = f"{link.op}_d" if in_distribution(link.label) else link.op  # X =_d -X: equal in distribution
        op = convergence_shown(link.label) if link.op == CONVERGES else op  # X_n ->_d X
        return f"{self._show(link.lhs.node, link.lhs.parser)} {op} {self._show(link.rhs.node, link.rhs.parser)}"

    def _reread_question(self, display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                         question: str, unbuilt: str, reread) -> None:
        """An ambiguous row whose other reading is the link read again (``reread()``: A[j] as an entry, ΔX as one name,
        x^{k} as a label; None where it cannot be built, then ``unbuilt`` says what it would be): both readings shown,
        and checked under both where they can be (a verdict only where they agree)."""
        rel = self._add(display, link, chain_id, "ambiguous", kind, question, assumptions, read_as)
        other = reread()
        rel.readings = [read_as, self._read_as(other) if other is not None else unbuilt]
        self._both_readings(display, link, other, chain_id, kind, assumptions, read_as, parsers, cond_unread)

    def _reread(self, link: Link, **flags) -> Link | None:
        """``link`` read again with the parser's ``flags`` set (``bind_divisor``: a/3r as a/(3r); ``label_reading``:
        each superscript that may be a label or an iterate read as one) — the other reading of an ambiguous
        relation; None if it cannot be built, or if it still has an ambiguity of its own."""
        from .grammar import PaperParser
        from ..latex import Token
        terms = []
        for term in (link.lhs, link.rhs):
            if term.parser is None or not term.tokens:
                return None
            p = PaperParser([*term.tokens, Token("end", "", term.tokens[-1].pos + 1)], term.parser.names,
                            term.parser.functions)
            p.integrated = term.parser.integrated
            for k, v in flags.items():
                setattr(p, k, v)
            try:
                node = p.expr()
            except (BadInput, RecursionError):
                return None
            except Exception:  # a defect of the reader: no other reading, never a failed paper
                return None
            if p.peek().kind != "end" or p.ambiguous or p.labels or p.divisions or p.ambiguous_e or p.ambiguous_pi or \
                    p.operator_apps or p.log_powers:
                return None
            terms.append(Term(term.tokens, node, None, p))
        return Link(link.op, link.pos, terms[0], terms[1], link.index, link.annotation, link.label)

    def _product_link(self, link: Link, names: set[str]) -> Link | None:
        """``link`` with each application ``φ(z)`` of an ambiguous name read as the product ``φ·z`` (one argument
        only: a product with a list is no reading)."""
        import copy

        after = False
        runs = _letter_runs(link)

        class Product(ast.NodeTransformer):
            bad = False

            def visit_BinOp(self, node):
                # φ(z)^k: with the power written after the bracket (c\left(a + b\right)^{-1}) the product is φ·z^k, with
                # it on the name (M_a^2(X)) φ^k·z — never (φ·z)^k, which neither writes
                if isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Call) and \
                        isinstance(node.left.func, ast.Name) and node.left.func.id in names and len(node.left.args) == 1:
                    name = _run_name(node.left.func.id, runs)
                    arg, k = self.visit(node.left.args[0]), self.visit(node.right)
                    if after:
                        return ast.BinOp(left=name, op=ast.Mult(), right=ast.BinOp(left=arg, op=ast.Pow(), right=k))
                    return ast.BinOp(left=ast.BinOp(left=name, op=ast.Pow(), right=k), op=ast.Mult(), right=arg)
                return self.generic_visit(node)

            def visit_Call(self, node):
                node.args = [self.visit(a) for a in node.args]
                if isinstance(node.func, ast.Name) and node.func.id in names:
                    if len(node.args) != 1:
                        Product.bad = True
                        return node
                    return ast.BinOp(left=_run_name(node.func.id, runs), op=ast.Mult(),
                                     right=node.args[0])
                return node
        terms = []
        for term in (link.lhs, link.rhs):
            after = _power_after_bracket(term.tokens)
            node = Product().visit(copy.deepcopy(term.node))
            terms.append(Term(term.tokens, node, None, term.parser))
        if Product.bad:
            return None
        return Link(link.op, link.pos, terms[0], terms[1], link.index, link.annotation, link.label)

    def _both_readings(self, display, link, other, chain_id, kind, assumptions, read_as, parsers, cond_unread,
                       extra_fns=frozenset()) -> None:
        """Check an ambiguous relation (the last one added) under each of its two readings, ``link`` as read and
        ``other``: a verdict only where both agree (:meth:`_combine`), else it stays ambiguous."""
        if other is None:
            return
        main = len(self.relations) - 1
        for k, (lk, fns) in enumerate(((link, extra_fns), (other, frozenset()))):
            n_rel, n_job = len(self.relations), len(self.jobs)
            self._job(display, lk, chain_id, kind, assumptions, read_as if k == 0 else self._read_as(lk),
                      [p for p in (lk.lhs.parser, lk.rhs.parser) if p is not None], cond_unread, extra_fns=fns)
            made = self.relations[n_rel:]
            del self.relations[n_rel:]
            for rel in made:
                rel.chain = -1 - main  # no chain of the paper's: never a first wrong step on its own
            base = len(self.shadows)
            self.shadows += made
            for job in self.jobs[n_job:]:
                job.index = base + (job.index - n_rel)
                job.shadow_of = main
            if not made:
                return

    def _sign_choices(self, display, link, chain_id, kind, assumptions, cond_unread, is_name: bool) -> bool:
        """A step that writes ± or ∓ (refused by the reader: one relation per sign choice) read as its two relations —
        every ± as + and every ∓ as −, then the reverse — and checked under both (:meth:`_combine`: a verdict for
        the row only where both choices agree; one holding and one failing is inconclusive, which sign holds said).
        ``x = … ± …`` (a lone name on the left, the signs on the right only) lists the name's values, one for each
        sign (the roots of a quadratic): a solution, never a step.  False (nothing added) where a choice cannot be
        read, or has a question of its own (the row then stays unreadable as before)."""
        upper, lower = _signed_link(link, True), _signed_link(link, False)
        if upper is None or lower is None:
            return False
        if link.op in ("=", ":=") and (is_name or isinstance(upper.lhs.node, (ast.Name, ast.Subscript)) or
                                       isinstance(lower.lhs.node, (ast.Name, ast.Subscript))):
            # x_{1,2} = (−b ± √(b² − 4ac))/2a, x_± = …: the name's values (the roots), never an identity to check
            self._add(display, link, chain_id, "not_a_step", "definition",
                      f"{link.lhs.latex.strip()} = … ± …: the values of {link.lhs.latex.strip()}, one for each sign "
                      "choice (a solution or a definition), not a step", assumptions)
            return True
        if link.op not in ("=", "<", ">", "<=", ">="):
            return False
        up, down = self._read_as(upper), self._read_as(lower)
        rel = self._add(display, link, chain_id, "ambiguous", kind, "two relations, one for each sign choice",
                        assumptions, f"{up}  and  {down}")
        rel.readings = [f"{up}  (± as +, ∓ as −)", f"{down}  (± as −, ∓ as +)"]
        rel.sign_choices = True
        self._both_readings(display, upper, lower, chain_id, kind, assumptions, up,
                            [p for p in (upper.lhs.parser, upper.rhs.parser) if p is not None], cond_unread)
        return True

    def _combine(self) -> None:
        """An ambiguous relation checked under both readings (:meth:`_both_readings`) gets a verdict only when both
        agree: proved/holds under both, or refuted under both; otherwise it stays ambiguous, each reading's outcome
        said."""
        groups: dict[int, list[Relation]] = {}
        for job in self.jobs:
            if job.shadow_of >= 0:
                groups.setdefault(job.shadow_of, []).append(self.shadows[job.index])
        for main, rel in enumerate(self.relations):  # a ± row whose two sign choices were not both checked
            if rel.sign_choices and rel.status == "ambiguous" and len(groups.get(main, ())) != 2:
                rel.status = "inconclusive"
                rel.reason = "two relations, one for each sign choice; not both could be checked: no verdict"
        for main, shadows in groups.items():
            rel = self.relations[main]
            if len(shadows) != 2 or rel.status != "ambiguous":
                continue
            a, b = shadows
            shown = " | ".join(rel.readings or [a.read_as or "", b.read_as or ""])
            if getattr(rel, "sign_choices", False):
                _combine_signs(rel, a, b)
                continue
            if a.status in ("proved", "holds") and b.status in ("proved", "holds"):
                rel.status = "holds" if "holds" in (a.status, b.status) else "proved"
                rel.reason = f"{rel.status} under both readings: {shown} (the paper does not say which is meant)"
                rel.assumptions = list(dict.fromkeys(a.assumptions + b.assumptions))
            elif a.status == "refuted" and b.status == "refuted":
                rel.status = "refuted"
                rel.reason = (f"refuted under both readings: {shown}; {a.read_as}: {a.reason}; {b.read_as}: "
                              f"{b.reason}")[:700]
                rel.counterexample = a.counterexample
                rel.assumptions = list(dict.fromkeys(a.assumptions + b.assumptions))
            else:
                rel.reason += f" — first reading: {a.status}; second reading: {b.status}; no verdict"

    def _bound_divisor_reading(self, link: Link) -> str:
        """``link`` read with ``a/3r`` as ``a/(3r)`` (see :meth:`.grammar.PaperParser._divisor`)."""
        from .grammar import PaperParser
        from ..latex import Token
        sides = []
        for term in (link.lhs, link.rhs):
            p = PaperParser([*term.tokens, Token("end", "", term.tokens[-1].pos + 1)], term.parser.names,
                            term.parser.functions)
            p.integrated = term.parser.integrated
            p.bind_divisor = True
            try:
                node = p.expr()
                sides.append(self._show(node, p))
            except (BadInput, RecursionError):
                return "(the other reading could not be built)"
        return f"{sides[0]} {link.op} {sides[1]}"

    def _product_reading(self, link: Link, names: set[str]) -> str:
        after = False
        runs = _letter_runs(link)

        class Product(ast.NodeTransformer):
            def visit_BinOp(self, node):  # M_a^2(X) read as M_a(X)^2: its product reading is M_a^2·X
                if isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Call) and \
                        isinstance(node.left.func, ast.Name) and node.left.func.id in names and len(node.left.args) == 1:
                    if after:  # c\left(a + b\right)^{-1}: the power is the bracket's — c·(a + b)⁻¹, as checked
                        power = ast.BinOp(left=self.visit(node.left.args[0]), op=ast.Pow(), right=self.visit(node.right))
                        return ast.BinOp(left=_run_name(node.left.func.id, runs), op=ast.Mult(), right=power)
                    power = ast.BinOp(left=_run_name(node.left.func.id, runs), op=ast.Pow(),
                                      right=self.visit(node.right))
                    return ast.BinOp(left=power, op=ast.Mult(), right=self.visit(node.left.args[0]))
                return self.generic_visit(node)

            def visit_Call(self, node):
                node.args = [self.visit(a) for a in node.args]
                if isinstance(node.func, ast.Name) and node.func.id in names:
                    arg = node.args[0] if len(node.args) == 1 else ast.Tuple(elts=node.args, ctx=ast.Load())
                    return ast.BinOp(left=_run_name(node.func.id, runs), op=ast.Mult(), right=arg)
                return node
        import copy
        after = _power_after_bracket(link.lhs.tokens)
        l = Product().visit(copy.deepcopy(link.lhs.node))
        after = _power_after_bracket(link.rhs.tokens)
        r = Product().visit(copy.deepcopy(link.rhs.node))
        return f"{unparse(l)} {link.op} {unparse(r)}"

    def _total_derivative_issue(self, parsers) -> tuple[str, str, str, bool] | None:
        for p in parsers:
            for var, operand in p.total_derivatives:
                fam: dict[str, int] = {}
                try:
                    others = names_in(plain(operand, set(), fam), set()) - {var}
                except BadInput:
                    continue
                others -= set(p.opaque)
                leibniz = isinstance(operand, ast.Name) or isinstance(operand, ast.Subscript) and \
                    isinstance(operand.value, ast.Name)  # dz/dt: the name written over d varies with t
                others = {n for n in others if n not in self.defined_names and (leibniz or self.names.may_vary(n))}
                if others:
                    shown = ", ".join(sorted(others)[:4])
                    if all(self._dotted(n) for n in others):  # Ȧ written: A is a function of t, settled
                        return (f"d/d{var} of an expression with {shown}, which depend on {var} (the paper writes "
                                f"their derivatives, {', '.join(sorted(self._dotted(n) for n in others)[:4])}): "
                                f"derivatives of unspecified functions of {var} are not decided", var, shown, True)
                    return (f"d/d{var} of an expression with {shown}: constant in {var}, or functions of {var}? "
                            "(declare with '% theoryverify: assume' or write the dependence)", var, shown, False)
        return None

    def _dotted(self, name: str) -> str | None:
        """The name of ``name``'s time derivative (``Adot`` for ``Abf``, as in ``\\dot{\\bm A}``) when the paper
        writes it, else None."""
        base = re.sub(r"(?:bf|cal|bb|frak)$", "", name)
        for key in dict.fromkeys((f"{name}dot", f"{base}dot", f"{base}bfdot")):
            if self.names.first_at(key) is not None:
                return key
        letter = f"\\{base}" if base in GREEK.values() else base
        if re.fullmatch(r"\\?[A-Za-z]+", letter) and re.search(
                r"\\dot\s*\{?\s*\{?\s*(?:\\(?:bm|mathbf|boldsymbol)\s*\{?\s*)?" + re.escape(letter) + r"(?![A-Za-z])",
                self.doc.text):
            return f"{base}dot"  # \dot{\bm{A}}: the evidence keeps the bold name only
        return None

    def _define(self, link: Link, scope=None) -> None:
        """A definition the steps after it use; one made inside a proof (or a lemma) holds only there, and a later
        definition of the same name replaces an earlier one."""
        lhs, rhs = link.lhs.node, link.rhs.node
        factors = _juxtaposed(lhs)
        if factors:  # SM_n := exp(M_n): letters side by side defined together are (maybe) one name
            self.joined_names.setdefault(factors, "{}:{}".format(*self.doc.where(link.pos)))
        try:
            fam: dict[str, int] = {}
            r = plain(rhs, self.names.defined, fam)
            if isinstance(lhs, ast.Call) and isinstance(lhs.func, ast.Name) and \
                    all(isinstance(a, ast.Name) for a in lhs.args):
                params = tuple(a.id for a in lhs.args)
                if len(set(params)) != len(params):
                    return
                from .reading import function_name
                fn = function_name(lhs.func.id)
                d = Definition(f"{fn}({', '.join(params)}) := {unparse(r)}", fn, r, params)
                if any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in params
                       for n in ast.walk(rhs)):
                    # f(x) := x_1^2 + x_2: the body reads components of its parameter, which an application at another
                    # point does not carry over (f(x̄) became x_1^2 + x_2; d f(x̄)/dx = 0 was proved) — used only by
                    # a step that applies it at its own parameter (_component_safe)
                    self.component_defs.add(len(self.definitions))
            else:
                l = plain(lhs, self.names.defined, fam)
                if _power_of_name(l, r) and not fam and not any(p.opaque or p.divisions or p.ambiguous or p.vector_ops
                                                                for p in (link.lhs.parser, link.rhs.parser) if p):
                    # (a value through vectors — σ̂² = n⁻¹x'x — is not used: it would make every step that writes σ̂²
                    # a statement about vectors, which is not checked)
                    # ŝ² = â² − b̂² ("I set", "define"): the power is what is defined; a step's ŝ² (ŝ⁴ …) is
                    # replaced by the value, a lone ŝ is left free and blocks a refutation (its sign is not given)
                    where = "{}:{}".format(*self.doc.where(link.pos))
                    self.power_defs.append((l.left.id, l.right.value, r, scope, where))
                    return
                if not isinstance(l, ast.Name) or any(isinstance(n, ast.Name) and n.id == l.id for n in ast.walk(r)):
                    return  # x = W(x) e^{W(x)} defines W implicitly, not x
                d = Definition(f"{l.id} := {unparse(r)}", l.id, r)
        except BadInput:
            return
        if any(p.divisions for p in (link.lhs.parser, link.rhs.parser) if p):
            return  # a/3r: which division the paper means is not settled
        if fam or any(p.opaque for p in (link.rhs.parser,) if p):
            return  # a definition through families or unknowns is not used (its value is not known)
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in self.names.defined
               and n.func.id not in ("Sum", "Product", "diff", "subs", "inner", "transpose", "norm", "Abs", "sqrt",
                                     "exp", "log", "Max", "Min") for n in ast.walk(r)):
            return
        self.definitions.append(d)
        self.def_scopes.append(scope)
        self.defined_names.add(d.name)

    def _substitute_powers(self, display, lhs: ast.expr, rhs: ast.expr):
        """(lhs, rhs, the definitions used as (text, where), the names left free) with each power of a name that a
        definition in scope gives (``ŝ² := â² − b̂²``) replaced by its value: ``ŝ²`` → the value, ``ŝ⁴`` → its
        square.  A name still written otherwise (``ŝ``, ``ŝ³``) is left free and named, so that no refutation rests
        on a value the definition forbids (``ŝ² = 1`` leaves ŝ = ±1 only).  The latest definition of a name wins."""
        import copy
        here = set(display.scope)
        defs: dict[str, tuple[int, ast.expr, str]] = {}
        for name, k, value, scope, where in [*getattr(self, "power_defs", ()), *getattr(self, "_after_powers", ()),
                                             *getattr(self, "_prose_powers", ())]:
            if (scope is None or scope in here) and where != "{}:{}".format(*self.doc.where(display.start)):
                defs[name] = (k, value, where)  # (where "": set in the prose before the display, named there)
        if not defs:
            return lhs, rhs, [], []
        used: dict[str, str] = {}

        class Sub(ast.NodeTransformer):
            def visit_BinOp(self, n):
                self.generic_visit(n)
                if isinstance(n.op, ast.Pow) and isinstance(n.left, ast.Name) and n.left.id in defs and \
                        isinstance(n.right, ast.Constant) and type(n.right.value) is int:
                    k, value, where = defs[n.left.id]
                    if n.right.value % k == 0:
                        if where:
                            used[f"{n.left.id} ** {k} = {unparse(value)}"] = where
                        m = n.right.value // k
                        v = copy.deepcopy(value)
                        return v if m == 1 else ast.BinOp(left=v, op=ast.Pow(), right=ast.Constant(m))
                return n
        for _ in range(3):  # σ̂_v² := σ̂_x² − γ̂² with σ̂_x² defined too: the values in terms of each other's
            before = (ast.dump(lhs), ast.dump(rhs))
            lhs, rhs = Sub().visit(copy.deepcopy(lhs)), Sub().visit(copy.deepcopy(rhs))
            if (ast.dump(lhs), ast.dump(rhs)) == before:
                break
        left = sorted({n.id for side in (lhs, rhs) for n in ast.walk(side) if isinstance(n, ast.Name) and n.id in defs})
        return lhs, rhs, list(used.items()), [f"{n} (its power defined at {defs[n][2]})" if defs[n][2] else
                                              f"{n} (its power set in the prose before the display)" for n in left]

    def _in_scope(self, display) -> tuple[int, ...]:
        """The definitions a display may use: global ones and those of its own environments, minus those a later
        definition made stale (g' of an earlier g, once g is defined again)."""
        here = set(display.scope)
        idx = [i for i, sc in enumerate(self.def_scopes) if sc is None or sc in here]
        keep = []
        for k, i in enumerate(idx):
            name = self.definitions[i].name
            later = {self.definitions[j].name for j in idx[k + 1:]}
            if any(name != n and re.fullmatch(re.escape(n) + r"(prime|star|dot|hat|bar|tilde)+(_\w+)?", name)
                   for n in later):
                continue
            keep.append(i)
        return tuple(keep)

    def _job(self, display, link, chain_id, kind, assumptions, read_as, parsers, cond_unread,
             extra_fns=frozenset()) -> None:
        fam: dict[str, int] = {}
        fns = self.names.defined | {f for p in parsers for f in p.applied} | set(extra_fns)
        pre = getattr(self, "_pre", {})
        lhs_node, rhs_node = link.lhs.node, link.rhs.node
        if pre:
            lhs_node, rhs_node = _substitute_pre(lhs_node, pre), _substitute_pre(rhs_node, pre)
            fns = fns - {k[5:] for k in pre if k.startswith("call:")}
        try:
            lhs, rhs = one_norm(plain(lhs_node, fns, fam), plain(rhs_node, fns, fam))
            atoms = atom_letters({k: v for p in parsers for k, v in p.opaque.items()})
            loose = index_outside(lhs, rhs, atoms=atoms)
            lhs, rhs = atoms_as_families(lhs, atoms, fam), atoms_as_families(rhs, atoms, fam)
            prose_values = self._prose_used(link, names_in(lhs, fns) | names_in(rhs, fns))
            cited = ()
            if getattr(self, "_cited", None):  # the names as written, before any value stated after the display
                written = set().union(*(names_in(plain(n, fns, {}), fns) for n in (link.lhs.node, link.rhs.node)
                                        if n is not None))
                cited = tuple(t for k, t in self._cited.items() if k in written)
            subst = getattr(self, "_subst", {})
            if subst:
                lhs, rhs = _substitute(lhs, subst), _substitute(rhs, subst)
            lhs, rhs, powers_used, powers_left = self._substitute_powers(display, lhs, rhs)
        except BadInput as exc:
            self._add(display, link, chain_id, "unreadable", kind, str(exc), assumptions, read_as)
            return
        from .reading import function_name
        cav = Caveats()
        in_scope = {self.definitions[i].name for i in self._in_scope(display)
                    if i not in self.component_defs or _component_safe(self.definitions[i], (lhs, rhs))}
        in_scope |= {k[5:] for k in pre if k.startswith("call:")}  # S(x) = … stated after the display
        for p in parsers:
            cav.opaque += [t for t in p.opaque.values() if t not in cav.opaque]
            cav.atom_names += [k for k in p.opaque if k not in cav.atom_names]
            cav.functions += [f for f in sorted(p.applied) if f not in in_scope and f not in cav.functions]
            cav.vector += sorted(p.vector_ops)
        from ..functions import FUNCTIONS
        called = {n.func.id for t in (lhs, rhs) for n in ast.walk(t) if isinstance(n, ast.Call)
                  and isinstance(n.func, ast.Name)}
        cav.functions += sorted(f for f in called - set(FUNCTIONS) - set(SPECIAL_NAMES) - set(fam)
                                - {function_name(x) for x in in_scope} - {function_name(x) for x in cav.functions}
                                if f not in cav.functions)
        cav.families = sorted(fam)
        cav.unread_conditions = list(cond_unread)
        # x_1 + x_2 + ⋯ + x_n read as a sum from 1 to n: the written terms' bound on n is stated nowhere
        cav.unread_conditions += [n for p in parsers for n in getattr(p, "elided", ())]
        step_names = {re.sub(r"(?:prime|star|hat|tilde|bar|dot|bf|sup|cal|bb|frak|scr|sf|tt|vec|check|breve|ring|ul)+$", "", n.split("_")[0])
                      for n in names_in(lhs, fns) | names_in(rhs, fns)}
        cav.unread_conditions += [u for u in getattr(self, "_prose_unread", ())
                                  if _bearing_names(u.split(WHY_SEP)[0]) & step_names]
        cav.unread_conditions += [f"{u}: an assumption line not read" for u in self.unread_assumptions_for(display)
                                  if not _bearing_names(u) or _bearing_names(u) & step_names]
        # "let σ² ∼ 1/M" in the paragraph: a scaling of the names on its left, which the step may rest on
        cav.prose_scalings = [s for s in getattr(self, "_prose_scalings", ())
                              if _bearing_names(re.split(r"\\(?:sim|approx|simeq|asymp|propto)(?![A-Za-z])", s)[0])
                              & step_names]
        # a name the step's definitions in scope set is no longer free: a prose bound on it (γ > 0 in the lemma,
        # then "Setting γ = 1/L") would keep the checker from using its definition
        assumptions = [a for a in assumptions if a not in getattr(self, "_prose_assumed", ()) or
                       not (_ast_names_text(a) & in_scope)]
        from .kinds import BY_DEFINITION, last_sentence
        cav.by_definition = link.index == 0 and bool(BY_DEFINITION.search(last_sentence(display.prose or "")))
        cav.cited_label = "" if link.annotation else link.label  # a condition over it is assumed, not cited
        cav.loose_indices = sorted(loose | index_outside(lhs, rhs))
        # a name an earlier inline equation sets, written on one side only: the step substitutes its value (the
        # side that drops it rests on it), so a refutation with the name free would rest on a value of our choosing
        sides = [(names_in(x, fns), {ast.dump(n) for n in ast.walk(node)} if node is not None else set())
                 for x, node in ((lhs, lhs_node), (rhs, rhs_node))]

        def on(key: str) -> list[bool]:
            return [key in (nodes if key.startswith("Subscript(") else names) for names, nodes in sides]

        def one_side(key: str) -> bool:
            return on(key)[0] != on(key)[1]
        # …unless its value is read and names nothing the step writes (μ_0 = E(X | Y = 0): as free as the name)
        written = sides[0][0] | sides[1][0]
        cav.set_in_prose = list(dict.fromkeys(
            where for pos, key, where, value in getattr(self, "_inline_sets", []) if pos < display.start and
            key not in in_scope and one_side(key) and (value is None or (value - {key}) & written)))
        # …on both sides (a_t G_t + a_t^2 D = a_t G_t + 4D/(t+2)^2): the step may substitute the value into some
        # occurrences only — a refutation stands only if it also fails with the value in every occurrence
        # (:func:`_favourable`)
        regions = self._prose_regions(display) if any(all(on(k)) for _, k, _, _ in getattr(self, "_inline_sets", [])) \
            else []
        for pos, key, where, value in getattr(self, "_inline_sets", []):
            if pos >= display.start or key in in_scope or not all(on(key)):
                continue
            if not any(a <= pos < b for a, b in regions) or not self._standing_value(pos):
                continue  # "If we are in the lasso case, then λ_2 = 0": a case's value, not the step's
            sub = getattr(self, "_inline_values", {}).get(key)
            # (a value that cannot be read — g_i = min{g | …} — is not substituted, and a name on both sides does not
            # block on its own: a wrong constant around it is still refuted, as before)
            if sub is not None and sub not in cav.inline_values:
                cav.inline_values.append((*sub, where))
        cav.power_defined = powers_left
        cav.product_scope = sorted(set().union(*(p.product_scope for p in parsers)))
        cav.log_scope = sorted(set().union(*(getattr(p, "log_scope", set()) for p in parsers)))
        cav.lhs_names = names_in(lhs, fns) - set(p for p in fam)
        cav.rhs_names = names_in(rhs, fns) - set(p for p in fam)
        cav.written = (frozenset(cav.lhs_names), frozenset(cav.rhs_names))
        from .reading import wrapped_only
        (w_l, norms_l), (w_r, norms_r) = wrapped_only(lhs), wrapped_only(rhs)
        wrapped = (w_l | w_r) - (names_in(lhs, fns) - w_l) - (names_in(rhs, fns) - w_r)
        exposed = (cav.lhs_names | cav.rhs_names) - wrapped
        bold_atoms = {k for p in parsers for k, t in p.opaque.items() if re.match(r"\\(mathbf|bm|boldsymbol|pmb)\b", t)}
        if norms_l and norms_r and not any(BOLD_NAME.search(n.split("_")[0]) for n in exposed) and \
                not exposed & bold_atoms:  # \mathbf{1}_n outside a norm: the all-ones vector, no number
            cav.vector = [v for v in cav.vector if v not in ("norm", "bold symbol")]  # ‖A‖_F^i: a number
        local = _local_numbers(display)  # "∀ x ∈ ℝ" at the display: x is a number here, whatever it is elsewhere
        nonscalar = sorted(n for n in exposed if self.names.nonscalar(n.split("_")[0]) and n.split("_")[0] not in local)
        if nonscalar:
            cav.vector.append(f"vectors/matrices ({', '.join(nonscalar[:3])})")
            cav.scalar_use = _scalar_uses(lhs, rhs, {n for n in nonscalar if n[:1].islower()}, link.op)
        through = self._matrix_definitions(display, lhs, rhs, assumptions)
        if through:  # ‖R‖ with R := ΔΣΔᵀ: substituted, R's factors are matrices, not numbers (‖ΔΣΔᵀ‖ ≠ ‖Σ‖‖Δ‖²)
            cav.vector.append(f"vectors/matrices ({', '.join(through[:3])}, defined through a transpose, an inner "
                              "product, a trace or a determinant)")
        cav.vector_products = _vector_products(lhs, rhs, self.names)
        norm_signs: tuple[str, ...] = ()
        if cav.vector and all(set(p.vector_ops) <= {"norm", "bold symbol"} for p in parsers) and \
                _one_norm(link.lhs.latex + " " + link.rhs.latex):
            opaque_norms = self._norms_as_atoms(lhs, rhs, fns)
            if opaque_norms is not None:  # ‖Ay‖^2/‖Ay‖^2: a statement about numbers, whatever A and y are
                lhs, rhs, texts = opaque_norms
                cav.vector = []
                cav.opaque += [t for t in texts if t not in cav.opaque]
                cav.atom_names += [self.names.atom(t, 'norm') for t in texts]
                norm_signs = tuple(f"{self.names.atom(t, 'norm')} >= 0" for t in texts)  # a norm is never negative
        lhs, rhs, identity = _identity_as_one(lhs, rhs, cav, in_scope)
        uses_defined = bool((cav.lhs_names | cav.rhs_names) & in_scope)
        if cav.vector and link.op == "=":
            from .policy import ring_identity
            cav.ring_identity = ring_identity(lhs, rhs)  # the sides agree whatever vectors or tensors they hold
        self.applied_functions |= set(cav.functions) | set(fam)
        self.families.update(fam)
        clashing = [a for a in getattr(self, "_chain_clashing", ()) if a not in assumptions]
        step_names = names_in(lhs, fns) | names_in(rhs, fns)
        for i in self._used_definitions(self._in_scope(display), (lhs, rhs), assumptions):
            step_names |= _ast_names(self.definitions[i].expr)  # (a name its definition is written in bears on it)
        clash = self._conflict([*assumptions, *clashing], step_names)
        if clash:
            # no point satisfies the assumptions the step is read under: a proof would be vacuous, a counterexample
            # outside them — no verdict (referee X2: a contradictory "if … then converged" aside made a false step
            # "hold")
            self.applied_functions |= set(cav.functions) | set(fam)
            self.families.update(fam)
            self._add(display, link, chain_id, "inconclusive", kind,
                      _conflict_reason(clash), [*assumptions, *clashing], read_as)
            return
        rel = self._add(display, link, chain_id, "inconclusive", kind, "", assumptions, read_as)
        prose_set = getattr(self, "_prose_set", {})
        rel.assumptions += [f"{n} = 1 (the identity matrix, read in one dimension)" for n in identity]
        rel.assumptions += [f"{k} = {unparse(v)} (stated after the display)" for k, v in
                            getattr(self, "_subst", {}).items() if k not in prose_set]
        rel.assumptions += [f"{unparse(node)} = {unparse(body)} (stated after the display)" for key, (node, _, body) in
                            pre.items() if _uses(link, node) and key not in prose_set]
        rel.assumptions += [f"{t} (set in the prose before the display)" for t in prose_values]
        rel.assumptions += [f"{t} (defined at {w}; substituted)" for t, w in powers_used]
        from .reading import function_name
        applied = {function_name(f) for f in cav.functions} | set(fam)
        whole = _whole_numbers(lhs, rhs, assumptions) if self.context == "free" else ()
        if whole and getattr(self, "_prose_assumed", ()):
            # "for any t ≤ T" in the prose, t a sum's bound here (a whole number): an order relation between a whole
            # number and a real name is not one the checker takes — such a prose assumption is left unread (it
            # still blocks refutations), never the whole row
            from ..assume import context_of, parse_assumptions
            try:
                context_of(parse_assumptions(list(assumptions) + list(whole)))
            except BadInput:
                ints = {w.split(":")[0].strip() for w in whole if w.endswith(": integer")}
                dropped = [a for a in assumptions if a in self._prose_assumed and _ast_names_text(a) & ints]
                assumptions = [a for a in assumptions if a not in dropped]
                note = f"(stated in the prose; not used: {', '.join(sorted(ints))} is a whole number here)"
                cav.unread_conditions += [f"{a} {note}" for a in dropped]
                rel.assumptions = [f"{a} {note}" if a in dropped else a for a in rel.assumptions]
        self.jobs.append(Job(len(self.relations) - 1, lhs, link.op, rhs, read_as, tuple(assumptions) + whole + norm_signs,
                             len(self.definitions), cav, uses_defined, tuple(sorted(applied)),
                             self._used_definitions(self._in_scope(display), (lhs, rhs), assumptions),
                             getattr(display, "over_reals", False), prose_values, cited))

    def _matrix_definitions(self, display, lhs, rhs, assumptions) -> list[str]:
        """The names defined in scope that the step uses (perhaps through other definitions) whose definition holds a
        transpose, an inner product, a trace, a determinant, an inverse or an adjoint: substituted, they bring vectors
        or matrices into a step that writes none (``R := \\Delta\\Sigma\\Delta^\\top`` then ``\\|R\\| \\le …``)."""
        ops = ("transpose", "inner", "trace", "det", "inv", "pinv", "adjoint", "tensor")
        out = []
        for i in self._used_definitions(self._in_scope(display), (lhs, rhs), assumptions):
            d = self.definitions[i]
            if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ops
                   for n in ast.walk(d.expr)) and d.name not in out:
                out.append(d.name)
        return out

    def _norms_as_atoms(self, lhs, rhs, fns):
        """(lhs, rhs, the norms' texts) with every norm ``norm(X)`` an unknown number (one per distinct X), when that
        leaves no vector or matrix in the step (no bold or declared non-scalar name, no transpose or inner product):
        the step is then about numbers, and a proof for every value of each norm is a proof.  None otherwise."""
        import copy
        from .reading import bound_indices
        texts: dict[str, str] = {}
        inner = bound_indices(lhs) | bound_indices(rhs)
        fam_calls = set(self.families) | {n.func.id for side in (lhs, rhs) for n in ast.walk(side)
                                          if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
                                          n.func.id.endswith("_")}
        for side in (lhs, rhs):  # ∑_i ‖x_i‖: a norm that varies with a sum's index is no one number
            for n in ast.walk(side):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "norm" and \
                        any(isinstance(m, ast.Call) and (m.func.id in fam_calls if isinstance(m.func, ast.Name)
                                                         else True) or isinstance(m, ast.Name) and m.id in inner
                            for a in n.args for m in ast.walk(a)):
                    return None  # (‖e(t)‖ of a function e at one point is one number; a family's x_(i) is not)

        class Norms(ast.NodeTransformer):
            def visit_Call(self, node):
                if isinstance(node.func, ast.Name) and node.func.id == "norm" and len(node.args) == 1:
                    text = f"‖{unparse(node.args[0])}‖"
                    name = outer.names.atom(text, "norm")
                    texts[name] = text
                    return ast.Name(id=name, ctx=ast.Load())
                self.generic_visit(node)
                return node
        outer = self
        sides = [Norms().visit(copy.deepcopy(x)) for x in (lhs, rhs)]
        if not texts:
            return None
        for side in sides:
            for n in ast.walk(side):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and \
                        n.func.id in ("transpose", "inner", "trace", "det", "inv", "norm"):
                    return None
            for name in names_in(side, fns):
                if name not in texts and (BOLD_NAME.search(name.split("_")[0]) or
                                          self.names.nonscalar(name.split("_")[0])):
                    return None
        return sides[0], sides[1], list(dict.fromkeys(texts.values()))

    def _used_definitions(self, in_scope: tuple[int, ...], sides, assumptions) -> tuple[int, ...]:
        """The definitions in scope that a step uses: those of the names it writes, and of the names their bodies
        write, in the paper's order.  A check builds only these (building every definition in scope for every step
        made a paper's checking time grow with the square of its length)."""
        need = {n for side in sides for n in _ast_names(side)}
        for text in assumptions:
            need |= set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))
        keep: set[int] = set()
        grown = True
        while grown:
            grown = False
            for i in in_scope:
                d = self.definitions[i]
                if i in self.component_defs and not _component_safe(d, sides):
                    continue
                if i not in keep and d.name in need:
                    keep.add(i)
                    need |= _ast_names(d.expr) - set(d.params)
                    grown = True
        return tuple(i for i in in_scope if i in keep)

    def _prose_used(self, link: Link, names: set[str]) -> tuple[str, ...]:
        """The values set in the prose before the display (:meth:`_before`) that ``link`` uses — also as the index of
        a name ("With $r = 0$ and $g^0 = 0$": g^r and x_r write r, though their flat names g_r, x_r do not)."""
        out = []
        names = names | {n.id for side in (link.lhs.node, link.rhs.node) if side is not None for sub in ast.walk(side)
                         if isinstance(sub, ast.Subscript) for n in ast.walk(sub.slice) if isinstance(n, ast.Name)}
        for key, text in getattr(self, "_prose_set", {}).items():
            hit = key in names if not key.startswith("Subscript(") else \
                any(ast.dump(n) == key for side in (link.lhs.node, link.rhs.node) if side is not None
                    for n in ast.walk(side))
            if hit:
                out.append(text)
        # a value used may be written through another (n = ell, ell = …): name them all
        return tuple(getattr(self, "_prose_set", {}).values()) if out else ()

    # checking -----------------------------------------------------------------------------------------
    def check(self, jobs: int | None = None, progress=None, only: set | None = None) -> None:
        """Run the checks (``only``: the (file, line) pairs whose chains are checked; the rest stay unchecked)."""
        work = self.jobs
        if only is not None:
            chains = {r.chain for r in self.relations if (r.file, r.line) in only}
            work = [j for j in work if self._rel(j).chain in chains or
                    j.shadow_of >= 0 and self.relations[j.shadow_of].chain in chains]
            for j in self.jobs:
                if j.shadow_of < 0 and self.relations[j.index].chain not in chains:
                    self.relations[j.index].reason = "not checked (outside the requested lines)"
        n = max(1, min(jobs or _default_jobs(), len(work) // 8 or 1))
        fn_decl: list[str] = []
        settings = (self.seed, self.timeout, self.context, self.definitions)
        if n == 1:
            results = run_jobs(work, settings)
        else:
            results = _parallel(work, settings, n)
        for job, res in zip(work, results):
            self._apply(job, res)
        self._combine()
        for rel in self.relations:  # the first refuted link of each chain
            pass
        seen = set()
        for rel in self.relations:
            if rel.status == "refuted" and rel.chain not in seen:
                rel.first_wrong = True
                seen.add(rel.chain)

    def _rel(self, job: Job) -> Relation:
        return self.shadows[job.index] if job.shadow_of >= 0 else self.relations[job.index]

    def _apply(self, job: Job, res: dict) -> None:
        rel = self._rel(job)
        status, method, evidence = res["status"], res.get("method", ""), res.get("evidence", "")
        cav = job.caveats
        if status == "error":
            rel.status, rel.reason = "unreadable", res.get("evidence", "")
            arity = ARITY_CLASH.match(rel.reason)
            if arity:
                # Σ c_i k(x_i, x) = c^T k(x): the paper writes one letter with two numbers of arguments (a kernel
                # and the vector of its values) — two objects, which one each use is is not read: never checked
                name, known = arity.group(1), arity.group(2)
                rel.status = "ambiguous"
                rel.reason = (f"{name} is written with {known} argument(s) and with another number of them: one "
                              f"letter for two objects (a function of {known}, and another, e.g. the vector of its "
                              "values), which the reader cannot tell apart; not checked")
                rel.readings = [rel.read_as or "", f"{name} with another number of arguments a different object "
                                                   "(not read)"]
            return
        if status == "refuted_unknown":
            rel.status = "inconclusive"
            rel.reason = f"{evidence}; unknowns: {', '.join(cav.unknowns[:3])}"
            if cav.loose_indices:
                rel.reason += f"; {_loose(cav)}"
            return
        frozen = [] if res.get("cancelled") else _frozen_atoms(job)
        if status in ("proved", "holds") and frozen:
            # d/dt(‖B(t)‖ − ‖C(t)‖) = 0 "proved": an unknown that is written in t was held constant in t
            rel.status = "inconclusive"
            rel.reason = (f"{status} as read, but only by holding {frozen[0]} fixed while the step differentiates, "
                          f"integrates or takes a limit in a name written inside it: that unknown depends on it")
            return
        if status in ("proved", "holds"):
            rel.status, why = positive(status, method, dataclasses.replace(cav, opaque=[], functions=[], families=[])
                                       if res.get("cancelled") else cav)
            rel.reason = why or _method_and_evidence(method, evidence)[:400]
            return
        if status == "refuted" and re.search(r"\b(zoo|nan|oo)\b", evidence):
            rel.status = "inconclusive"
            rel.reason = f"a side is undefined where the search found a difference ({evidence[:160]})"
            return
        if status == "refuted":
            if res.get("sides"):
                cav.lhs_names, cav.rhs_names = set(res["sides"][0]), set(res["sides"][1])
            ce = res.get("counterexample")
            if cav.cited_label:  # \stackrel{(a)}{=}: true given the fact (a) cites, which the display does not state
                return _withhold(rel, f"refuted as read, but {_cites(cav.cited_label)} (as read on its own: "
                                      f"{evidence[:300]})", ce, limit=None)
            edge = self._edge_case(job, ce or {})
            if edge:
                return _withhold(rel, f"fails only at {_ce(ce)}, where {edge}: outside the range the step lives in "
                                      "(say the range with '% theoryverify: assume' to check it there)", ce)
            settled = _value_settled(job, ce)
            if settled:
                return _withhold(rel, f"refuted as read, but {settled}", ce, limit=None)
            block = refutation_blockers(dataclasses.replace(cav, opaque=[], functions=[], families=[])
                                        if res.get("constant") or res.get("cancelled") else cav, False, job.op)
            if block:
                return _withhold(rel, f"refuted as read, but {block}", ce, limit=None)
            fav = res.get("favourable")
            if fav:
                return _withhold(rel, f"false for some values (e.g. {_ce(ce)}) but {fav}: the paper may assume it "
                                      "(say so with '% theoryverify: assume')", None, limit=None)
            if job.prose_values:  # the prose may mean its value otherwise (a half dropped): refuted as read only
                return _withhold(rel, f"refuted as read with {'; '.join(job.prose_values)} (set in the prose before "
                                      f"the display; the authors may mean it otherwise): {evidence}", ce)
            if job.cited:  # the fact cited may carry the typo (σ_v for σ_v²), or the step: refuted as read only
                return _withhold(rel, f"refuted as read with {'; '.join(job.cited)} (the fact the prose cites right "
                                      f"after the display; the authors may mean it otherwise): {evidence}", ce)
            prose = self._prose_defined(rel.latex)
            if prose:
                return _withhold(rel, f"refuted as read, but it writes {prose}, which the prose defines ({prose} := … "
                                      f"in the text) in a form not read: the step may use that definition ({evidence})",
                                 ce)
            rel.status = "refuted"
            dims = " (read in one dimension: a counterexample with d = 1)" if cav.vector else ""
            rel.reason = f"{evidence}{dims}"[:500]
            rel.counterexample = res.get("counterexample")
            return
        rel.status, rel.reason = "inconclusive", (evidence or method)[:400]

    def _prose_defined(self, latex: str) -> str:
        """A name the step writes that the prose defines inline (``$A_n := \\frac{\\bm 1 \\bm 1^\\top}{n}$``, "we
        define $A_n$ as $…$") — a capital letter or a name with a subscript; "" if none.  Such a definition is not in
        scope for the check (prose, not a display), so a refutation of a step using the name is no verdict (A_n A_n
        = A_n holds for that matrix, and fails for a free A_n)."""
        if not hasattr(self, "_inline_defs"):
            names = set()
            text = self.doc.text
            for m in re.finditer(r"\$([^$]{1,80}?)\s*(?::=|\\coloneqq|\\triangleq|\\eqdef|\\defeq)", text):
                names.add(m.group(1))
            for m in re.finditer(r"\bdefine\b[^.]{0,200}?\$([^$]{1,40})\$\s+as\s+\$", text):
                names.add(m.group(1))
            for m in re.finditer(r"\$([^$]{1,40})\$\s+as\s+\$", text):
                if re.search(r"\bdefine\b", text[max(0, m.start() - 300):m.start()]):
                    names.add(m.group(1))
            keep = set()
            for n in names:
                key = re.sub(r"[\s{}]", "", n.split("$")[-1])
                if re.fullmatch(r"(?:\\[A-Za-z]+|[A-Za-z])(?:_(?:\\[A-Za-z]+|[A-Za-z0-9]+))?", key) and \
                        (key[0].isupper() or "_" in key):
                    keep.add(key)
            self._inline_defs = keep
        flat = re.sub(r"[\s{}]", "", latex)
        # only a step about those defined objects alone (A_n A_n = A_n): one that also writes a free name (β, m̂_j)
        # is false as read for some value of it, whatever the defined objects are
        rest = flat
        for key in sorted(self._inline_defs, key=len, reverse=True):
            rest = re.sub(re.escape(key) + (r"(?![A-Za-z0-9])" if "_" not in key or len(key.split("_")[1]) > 1
                                            else ""), "", rest)
        if re.search(r"(?<!\\)(?<![A-Za-z])[A-Za-z]", re.sub(r"\\[A-Za-z]+", lambda m: " " if m.group(0)[1:] not in
                                                             GREEK else "x", rest)):
            return ""
        for key in sorted(self._inline_defs):
            for m in re.finditer(re.escape(key), flat):
                before = flat[m.start() - 1] if m.start() else ""
                after = flat[m.end()] if m.end() < len(flat) else ""
                if before.isalpha() or before == "\\" or (("_" not in key or len(key.split("_")[1]) > 1)
                                                           and after.isalnum()) or after in ("_",):
                    continue
                return key
        return ""

    def _edge_case(self, job: Job, ce: dict) -> str:
        """Why the counterexample ``ce`` lies outside the range the step lives in, or "": a sum or product of the step
        whose range is empty or reversed there (``\\sum_{m=0}^{k-2}`` at k = 1: peeling its last term off presumes a
        term to peel), unless the paper's assumptions bound that name (then the range is stated); or a denominator
        elsewhere in the same chain that is 0 there (the chain divides by k(k-1): it lives where k(k-1) ≠ 0)."""
        point = {k: _number(v) for k, v in ce.items()}
        if not point or any(v is None for v in point.values()):
            return ""
        stated = " ".join(a for a in job.assumptions if not a.endswith("(inferred)"))
        for side in (job.lhs, job.rhs):
            for n in ast.walk(side):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product") \
                        and len(n.args) == 2 and isinstance(n.args[1], ast.Tuple) and len(n.args[1].elts) == 3:
                    idx, lo, hi = n.args[1].elts
                    a, b = _value_at(lo, point), _value_at(hi, point)
                    if a is None or b is None or b >= a:
                        continue
                    names = {m.id for bound in (lo, hi) for m in ast.walk(bound) if isinstance(m, ast.Name)}
                    if any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(x)}(?![A-Za-z0-9_])\s*(?:>=|>|<=|<|==)", stated)
                           or re.search(rf"(?:>=|>|<=|<|==)\s*{re.escape(x)}(?![A-Za-z0-9_])", stated) for x in names):
                        continue  # the paper states the range of the bound: its edge is in range
                    what = "empty" if b == a - 1 else "reversed"
                    return (f"the {n.func.id.lower()} over {unparse(idx)} from {unparse(lo)} to {unparse(hi)} is "
                            f"{what}")
        chain = self.relations[job.shadow_of].chain if job.shadow_of >= 0 else self.relations[job.index].chain
        for other in self.jobs:
            if other.shadow_of >= 0 or self.relations[other.index].chain != chain:
                continue
            for side in (other.lhs, other.rhs):
                for n in ast.walk(side):
                    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) and \
                            not any(isinstance(m, ast.Call) for m in ast.walk(n.right)):
                        if _value_at(n.right, point) == 0:
                            return f"the same chain divides by {unparse(n.right)}, which is 0 there"
        return ""

    # summary and output ----------------------------------------------------------------------------------
    def summary(self) -> dict:
        counts = {s: sum(1 for r in self.relations if r.status == s) for s in STATUSES}
        total = len(self.relations)
        return {"relations": total, "read": total - counts["unreadable"],
                "checked": counts["proved"] + counts["holds"] + counts["refuted"] + counts["inconclusive"],
                **{s: counts[s] for s in STATUSES}}


def _local_numbers(display) -> set[str]:
    """The names the display, its side conditions or the prose right around it declare real numbers (``\\forall x \\in
    \\mathbb{R}``, ``for $p \\in (0, 1)$``): a paper reuses letters (x a vector in one section, a number in another),
    and the display's own word is the one that counts for its steps."""
    from .names import NAME_RE, NUMBER_MEMBER, key_of
    text = f"{display.prose[-300:]} {display.body} {display.after}"
    out = set()
    for m in NAME_RE.finditer(text):
        end = m.end()
        while True:  # x, y \in \mathbb{R}: each listed name
            more = re.match(r"\s*,\s*(?:\\[A-Za-z]+|[A-Za-z])(?![A-Za-z])", text[end:])
            if not more or NUMBER_MEMBER.match(text, end):
                break
            end += more.end()
        if NUMBER_MEMBER.match(text, end):
            out.add(key_of(m))
            for n in re.findall(r",\s*(\\[A-Za-z]+|[A-Za-z])", text[m.end():end]):
                listed = NAME_RE.match(n)
                if listed:
                    out.add(key_of(listed))
    return out


def _scalar_uses(lhs: ast.expr, rhs: ast.expr, vectors: set[str], op: str) -> list[str]:
    """Where a step treats as a number a vector of the paper's (``vectors``: ‖b‖, ⟨u, v⟩, b ∈ ℝ^d elsewhere): an
    expression that is a vector as read — the name, a sum with it, a number times it (``b``, ``b − 1``, ``2b``; a
    product of two vectors, ``p θ``, is their inner product, a number) — raised to a power (``b²``), divided by, under
    a root, a logarithm, an exponential or |·|, or compared (``b ≤ 1``).  What such a step means for a vector is not
    read (b² may be ‖b‖² or bᵀb, b ≤ c componentwise), so a counterexample with d = 1 is no counterexample to it.
    Inside a norm, an inner product or a transpose the name is a vector as the paper means it, and is not counted.
    (A capital is a matrix: A², A⁻¹, A ≤ B have one meaning for a matrix, of which d = 1 is an instance —
    ``vectors`` holds lowercase names only.)"""
    out: list[str] = []

    def has(node: ast.AST) -> bool:  # writes one of the vectors outside any norm, inner product or transpose
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id.startswith(("norm", "inner", "transpose", "trace", "det", "tensor")):
            return False
        if isinstance(node, ast.Name):
            return node.id in vectors
        return any(has(c) for c in ast.iter_child_nodes(node))

    def vector(node: ast.AST) -> bool:  # a vector as read: b, b − 1, 2b, b/2 (never p θ, a product of two)
        if isinstance(node, ast.Name):
            return node.id in vectors
        if isinstance(node, ast.UnaryOp):
            return vector(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            return vector(node.left) or vector(node.right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return vector(node.left) and not has(node.right) or vector(node.right) and not has(node.left)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return vector(node.left) and not has(node.right)
        return False

    for side in (lhs, rhs):
        for node in ast.walk(side):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
                hit = vector(node.left)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                hit = vector(node.right)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("sqrt", "log", "exp", "Abs", "Max", "Min", "sign", "floor", "ceiling"):
                hit = any(vector(a) for a in node.args)
            else:
                continue
            if hit:
                out.append(unparse(node))
    if op not in ("=", "!=") and (vector(lhs) or vector(rhs)):
        out.append(f"{unparse(lhs)} {op} {unparse(rhs)} (compared)")
    return list(dict.fromkeys(out))


def _vector_products(lhs: ast.expr, rhs: ast.expr, names: Names) -> list[str]:
    """The products of two of the paper's vectors in a step read in one dimension: an inner product ``inner(g, d)``,
    or a product whose two factors each write a lowercase name the paper uses as a vector (``g^\\top d``,
    ``g \\cdot d`` with ‖g‖, ‖d‖ elsewhere; a capital is a matrix, whose products one dimension does represent)."""
    def vectors(node: ast.AST) -> set[str]:  # a norm or an inner product is a number, whatever it writes
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id.startswith(("norm", "inner", "Abs")):
            return set()
        if isinstance(node, ast.Name):
            return {node.id} if node.id[:1].islower() and names.nonscalar(node.id.split("_")[0]) else set()
        return set().union(*(vectors(c) for c in ast.iter_child_nodes(node)))
    out = []
    for side in (lhs, rhs):
        for node in ast.walk(side):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.startswith("inner"):
                out.append(unparse(node))
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                a, b = vectors(node.left), vectors(node.right)
                if a and b:
                    out.append(f"{min(a)}·{min(b)}")
    return list(dict.fromkeys(out))


def _whole_numbers(lhs: ast.expr, rhs: ast.expr, assumptions) -> tuple[str, ...]:
    """``n: integer`` and ``n >= 0`` for each name whose factorial the step takes (``n!``): a whole number, also when the paper
    or the authors'-favour search bounds it (``n ≥ 1``, ``n > 0``), which would otherwise make it a real name."""
    names = sorted({n.args[0].id for side in (lhs, rhs) for n in ast.walk(side) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Name) and n.func.id == "factorial" and len(n.args) == 1
                    and isinstance(n.args[0], ast.Name)})
    said = " ".join(assumptions)
    out: list[str] = []
    for n in names:
        if not re.search(rf"\b{re.escape(n)}\b[^;]*:\s*integer", said):
            out += [f"{n}: integer", f"{n} >= 0"]  # n! is defined for n = 0, 1, 2, …
    # a sum's or product's bound (\sum_{m=0}^{k-2}) is a whole number; an assumption that bounds it (k >= 2) makes it
    # a declared name, which would otherwise be a real one ("Sum bounds must be integers")
    bounds: set[str] = set()
    for side in (lhs, rhs):
        for n in ast.walk(side):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product") and \
                    len(n.args) == 2 and isinstance(n.args[1], ast.Tuple) and len(n.args[1].elts) == 3:
                bounds |= {m.id for b in n.args[1].elts[1:] for m in ast.walk(b) if isinstance(m, ast.Name)}
    lower = _lower_bound_names(lhs, rhs)
    for n in sorted(bounds - set(names)):
        mentioned = re.search(rf"(?<![A-Za-z0-9_.]){re.escape(n)}(?![A-Za-z0-9_(])", said)
        if (mentioned or n in lower) and not re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}\s*:", said) and \
                not re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}\s*(?:==|in\b)", said):
            out.append(f"{n}: integer")
    return tuple(out)


def _lower_bound_names(lhs: ast.expr, rhs: ast.expr) -> set[str]:
    """The names a sum's or product's first bound writes and no last bound does (``n_0`` in
    ``\\sum_{k=n_0}^{n-1}``, ``m`` in ``\\sum_{l=-m+1}^{0}``, ``T`` in ``\\sum_{l=T+1}^{k}``), none of them a sum's own
    index: whole numbers, as the last bound's names are (those the engine takes as integers ≥ the first bound by
    itself; a first bound's name it left real, and refused the row, "Sum bounds must be integers")."""
    first: set[str] = set()
    last: set[str] = set()
    indices: set[str] = set()
    for side in (lhs, rhs):
        for n in ast.walk(side):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product") and \
                    len(n.args) == 2 and isinstance(n.args[1], ast.Tuple) and len(n.args[1].elts) == 3:
                k, a, b = n.args[1].elts
                if isinstance(k, ast.Name):
                    indices.add(k.id)
                first |= _plain_names(a)
                last |= _plain_names(b)
    return first - last - indices - {"oo", "pi", "e", "E"}


def _plain_names(node: ast.expr) -> set[str]:
    """The names ``node`` writes, not the functions it applies (``n_0``, ``l`` in ``Max(n_0, l)``, never ``Max``)."""
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    return {m.id for m in ast.walk(node) if isinstance(m, ast.Name) and id(m) not in called}


def _power_after_bracket(tokens) -> bool:
    """A power written after a closing bracket (``c\\left(a + b\\right)^{-1}``), not on a name before its bracket
    (``M_a^2(X)``): which factor the product reading of a name-or-function powers."""
    texts = [t.text for t in tokens or ()]
    return any(a in (")", "]") and b == "^" for a, b in zip(texts, texts[1:]))


def _bold_twins(link: Link) -> list[str]:
    """The names a relation writes both bold and plain (``ubf`` beside ``u``): the same quantity or two?"""
    slices = {id(m) for t in (link.lhs.node, link.rhs.node) if t is not None for n in ast.walk(t)
              if isinstance(n, ast.Subscript) for m in ast.walk(n.slice)}  # σ̂_x beside 𝐱: an index is no name
    ids = {n.id for t in (link.lhs.node, link.rhs.node) if t is not None for n in ast.walk(t)
           if isinstance(n, ast.Name) and id(n) not in slices}
    return sorted(n[:-2] for n in ids if n.endswith("bf") and len(n) > 2 and n[:-2] in ids)


def _coordinate_twins(link: Link) -> list[tuple[str, str]]:
    """(base, index) of each ``v^{(i)}`` (read ``vsup[i]``) a relation writes beside the bare ``v``: the coordinate
    (component) of v, or a name of its own (an iterate)?  Read as a name of its own, ``Mv + (v^{(1)} − 1)e_1 =
    (M + e_1e_1^T)v − e_1`` had been refuted with v ≠ v^{(1)}.  Only a parenthesised superscript counts (``c^{opt}``
    beside c is a label, ``x^{k+1}`` of an iterate is read as the paper's iteration shows)."""
    slices = {id(m) for t in (link.lhs.node, link.rhs.node) if t is not None for n in ast.walk(t)
              if isinstance(n, ast.Subscript) for m in ast.walk(n.slice)}
    slices |= {id(m) for t in (link.lhs.node, link.rhs.node) if t is not None for n in ast.walk(t)
               if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product")
               and len(n.args) == 2 for m in ast.walk(n.args[1])}  # Σ_{k=1}^{d} d^{(k)}: the bound d is no vector
    bare = {n.id for t in (link.lhs.node, link.rhs.node) if t is not None for n in ast.walk(t)
            if isinstance(n, ast.Name) and id(n) not in slices}
    latex = f"{link.lhs.latex} {link.rhs.latex}"
    out: list[tuple[str, str]] = []
    for t in (link.lhs.node, link.rhs.node):
        for n in ast.walk(t) if t is not None else ():
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id.endswith("sup"):
                base = n.value.id[:-3]
                if not base or base not in bare:
                    continue
                for m in re.finditer(r"(?<![A-Za-z])\\?" + re.escape(base) +
                                     r"\s*(?:_\s*(\{[^{}]*\}|\w)\s*)?\^\s*\{\s*\(([^(){}]*)\)", latex):
                    if m.group(1) and _label_script(m.group(1)):
                        continue  # L_{PH}^{(1)} beside the Lipschitz L: a constant of its own, never L's coordinate
                    if (base, m.group(2).strip()) not in out:
                        out.append((base, m.group(2).strip()))
                    break
    return out


def _label_script(script: str) -> bool:
    """Is the lower script ``{PH}``, ``{\\mathrm{tr}}``, ``{\\text{max}}`` a label (a capital letter or a word in a text
    command) — the name it marks is a name of its own, not the bare letter indexed (session 48: ``L_{PH}^{(1)}``
    beside the Lipschitz constant ``L`` had been held "a coordinate of L" in 31 rows of one paper)."""
    inner = script.strip().strip("{}").strip()
    return bool(re.search(r"\\(?:text|mathrm|operatorname|mathsf|textrm)\b", inner) or
                re.fullmatch(r"[A-Za-z ]*[A-Z][A-Za-z ]*", inner) and len(inner.replace(" ", "")) >= 2)


def _unbolded(link: Link, twins: list[str]) -> Link:
    """``link`` with each bold twin read as its plain name (``ubf`` → ``u``)."""
    import copy
    bold = {t + "bf": t for t in twins}

    class Plain(ast.NodeTransformer):
        def visit_Name(self, n):
            return ast.Name(id=bold[n.id], ctx=n.ctx) if n.id in bold else n
    terms = [Term(t.tokens, Plain().visit(copy.deepcopy(t.node)), None, t.parser) for t in (link.lhs, link.rhs)]
    return Link(link.op, link.pos, terms[0], terms[1], link.index, link.annotation, link.label)


def _half_step_of(link: Link, half_steps: set[tuple[str, str]]) -> str:
    """``y^m_t`` (read ``ysup[t, m]``) when the link's left side is a half-step name (:func:`.names._half_step`)."""
    node = link.lhs.node
    if not half_steps or not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Name) or \
            not node.value.id.endswith("sup"):
        return ""
    base = node.value.id[:-3]
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    letters = {p.id for p in parts if isinstance(p, ast.Name)}
    return next((f"{base}^{sup}" for key, sup in half_steps if key == base and sup in letters), "")


def _power_of_name(lhs: ast.expr | None, rhs: ast.expr | None) -> bool:
    """``ŝ² = â² − b̂²``, ``σ̂_v^2 = σ̂_x^2 − γ̂^2``: the left side a power (2, 3, …) of a name or an indexed name, which
    the right side does not write (x² = x + 1 is an equation in x, not a definition)."""
    if not (isinstance(lhs, ast.BinOp) and isinstance(lhs.op, ast.Pow) and isinstance(lhs.right, ast.Constant) and
            type(lhs.right.value) is int and lhs.right.value >= 2 and isinstance(lhs.left, (ast.Name, ast.Subscript))
            and rhs is not None):
        return False
    if isinstance(lhs.left, ast.Subscript) and not isinstance(lhs.left.value, ast.Name):
        return False
    key = ast.dump(lhs.left)
    return not any(ast.dump(n) == key for n in ast.walk(rhs))


PLUS_MINUS = {"\\pm": ("+", "-"), "\\mp": ("-", "+")}  # the sign each writes under the upper and the lower choice
_PM_REFUSAL = "stands for two expressions"  # the reader's reason for a side with ± or ∓ (grammar.command)


def _plus_minus(link: Link) -> bool:
    """Whether ``link`` is unreadable only for a ± or ∓ it writes."""
    return any(t.text in PLUS_MINUS for term in (link.lhs, link.rhs) for t in term.tokens) and \
        all(term.node is not None or _PM_REFUSAL in (term.error or "") for term in (link.lhs, link.rhs))


def _signed_link(link: Link, upper: bool) -> Link | None:
    """``link`` with every ± written + and every ∓ written − (``upper``), or the reverse, read again; None where a side
    cannot be read so, or raises a question of its own (a product or a call? a label or a power?)."""
    from .grammar import PaperParser
    from ..latex import Token
    terms = []
    for term in (link.lhs, link.rhs):
        if not term.tokens:
            return None
        toks = [Token("sym", PLUS_MINUS[t.text][0 if upper else 1], t.pos) if t.text in PLUS_MINUS else t
                for t in term.tokens]
        names = term.parser.names if term.parser is not None else None
        functions = term.parser.functions if term.parser is not None else frozenset()
        p = PaperParser([*toks, Token("end", "", toks[-1].pos + 1)], names, functions)
        try:
            node = p.expr()
        except (BadInput, RecursionError):
            return None
        except Exception:  # a defect of the reader: no reading, never a failed paper
            return None
        if p.peek().kind != "end" or p.ambiguous or p.labels or p.divisions or p.ambiguous_e or p.ambiguous_pi or \
                p.operator_apps or p.scope_questions or p.bracket_index or p.increments:
            return None
        terms.append(Term(toks, node, None, p))
    return Link(link.op, link.pos, terms[0], terms[1], link.index, link.annotation)


def _combine_signs(rel: Relation, a: Relation, b: Relation) -> None:
    """The verdict of a row with ± / ∓ from its two sign choices ``a`` (± as +) and ``b`` (± as −): proved or holds
    only if both are, refuted only if both are; one holding and the other refuted is inconclusive, saying which."""
    good = ("proved", "holds")
    if a.status in good and b.status in good:
        rel.status = "holds" if "holds" in (a.status, b.status) else "proved"
        rel.reason = (f"{rel.status} for both sign choices (± as + and as −): {a.read_as}: {a.reason}; "
                      f"{b.read_as}: {b.reason}")[:700]
    elif a.status == "refuted" and b.status == "refuted":
        rel.status = "refuted"
        rel.reason = (f"refuted for both sign choices (± as + and as −): {a.read_as}: {a.reason}; {b.read_as}: "
                      f"{b.reason}")[:700]
        rel.counterexample = a.counterexample
    elif {a.status, b.status} & {"refuted"} and {a.status, b.status} & set(good):
        ok, bad = (a, b) if a.status in good else (b, a)
        which = "upper (± as +, ∓ as −)" if ok is a else "lower (± as −, ∓ as +)"
        rel.status = "inconclusive"
        rel.reason = (f"{ok.status} with the {which} sign only: {ok.read_as}; the other sign choice is refuted: "
                      f"{bad.read_as}: {bad.reason}")[:700]
    else:
        rel.status = "inconclusive"
        rel.reason = (f"± as +: {a.status} ({a.reason}); ± as −: {b.status} ({b.reason}); no verdict for the "
                      "row")[:700]
    rel.assumptions = list(dict.fromkeys(a.assumptions + b.assumptions))


def _substitute(node: ast.expr, subst: dict) -> ast.expr:
    import copy

    class Sub(ast.NodeTransformer):
        hidden: set[str] = set()  # integration variables bound where the walk is: never a value stated for the name

        def visit_Name(self, n):
            return copy.deepcopy(subst[n.id]) if n.id in subst and n.id not in self.hidden else n

        def visit_Call(self, n):
            if isinstance(n.func, ast.Name) and n.func.id == "Integral" and len(n.args) == 2 and \
                    isinstance(n.args[1], ast.Tuple) and n.args[1].elts and isinstance(n.args[1].elts[0], ast.Name):
                var = n.args[1].elts[0].id
                n.args[1].elts[1:] = [self.visit(e) for e in n.args[1].elts[1:]]
                before, self.hidden = self.hidden, self.hidden | {var}
                n.args[0] = self.visit(n.args[0])
                self.hidden = before
                return n
            # e(t) after "Let $e = x̄ − x̲$": the function applied keeps its name
            n.args = [self.visit(a) for a in n.args]
            n.keywords = [self.visit(k) for k in n.keywords]
            return n
    return Sub().visit(copy.deepcopy(node))


def _substitute_pre(node: ast.expr, pre: dict) -> ast.expr:
    """Replace an indexed name (``A_{t-1}``) or a call of a function (``S(u)``) stated after the display by its
    value, before the reading is made plain."""
    import copy

    class Sub(ast.NodeTransformer):
        def visit_Subscript(self, n):
            hit = pre.get(ast.dump(n))
            return copy.deepcopy(hit[2]) if hit else self.generic_visit(n)

        def visit_Call(self, n):
            hit = pre.get(ast.dump(n))  # ‖u‖ = 1: this call, as written
            if hit and hit[1] is None:
                return copy.deepcopy(hit[2])
            self.generic_visit(n)
            hit = pre.get("call:" + n.func.id) if isinstance(n.func, ast.Name) else None
            if not hit or len(hit[1]) != len(n.args):
                return n
            values = dict(zip(hit[1], n.args))

            class Param(ast.NodeTransformer):
                def visit_Name(self, m):
                    return copy.deepcopy(values[m.id]) if m.id in values else m
            return Param().visit(copy.deepcopy(hit[2]))
    return Sub().visit(copy.deepcopy(node))


def _builtin_call(name: str) -> bool:
    """Is ``name`` a function the reader itself writes (a norm, the trace, ln, E …), not one a paper defines — so
    that "‖u‖ = 1" gives that one value, never a definition of the function for every argument?"""
    from ..functions import FUNCTIONS
    return name in FUNCTIONS or name.startswith("norm") or name in ("inner", "transpose", "pinv", "adjoint", "P",
                                                                      "tensorpow", "conv", "compose", "intersect")


def _uses(link, node: ast.expr) -> bool:
    """Does the link mention the indexed name or the function ``node`` stated after its display (a function the
    reader writes: that call as written)?"""
    want = ast.dump(node) if isinstance(node, ast.Subscript) or _builtin_call(node.func.id) else node.func.id
    for side in (link.lhs.node, link.rhs.node):
        for n in ast.walk(side) if side is not None else ():
            if ast.dump(n) == want or (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == want):
                return True
    return False


def _ce(ce) -> str:
    if not ce:
        return "?"
    return ", ".join(f"{k} = {v}" for k, v in ce.items())  # every value: σ = 0 had been left out of the fifth


def _op_text(link: Link) -> str:
    op = {"<=": "\\le", ">=": "\\ge", "=": "="}.get(link.op, link.op)
    if link.op == CONVERGES:  # X_n \xrightarrow{d} X: the arrow with its label, as written
        return f"\\xrightarrow{{{link.label}}}"
    if in_distribution(link.label):  # X \stackrel{d}{=} -X: the label is what the relation means, kept in the text
        return f"\\stackrel{{{link.label}}}{{{op}}}"
    return op


def _whole(text: str) -> str:
    """A relation's LaTeX as the JSON gives it: whole, white space run together."""
    return " ".join(text.split())


def _short(text: str, n: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1] + "…"


def _count_relations(text: str) -> int:
    return max(1, len(_raw_relations_text(text)))


REL_TOKEN = re.compile(r"(?<![\\a-zA-Z])(?::=|=:|<=|>=|[=<>])|\\(?:" + "|".join(
    sorted((k[1:] for k in COUNTED if k.startswith("\\")), key=len, reverse=True)) + r")(?![A-Za-z])")


def _raw_relations_text(text: str) -> list[int]:
    out, depth = [], 0
    for m in re.finditer(r"[{}]|" + REL_TOKEN.pattern, text):
        if m.group(0) == "{":
            depth += 1
        elif m.group(0) == "}":
            depth -= 1
        elif depth <= 0:
            out.append(m.start())
    return out


def _raw_relations(chain: D.Chain) -> list[tuple[int, str]]:
    """(position, text) of each relation of an unread chain: the text from the relation before it (or the row's start)
    to the relation after it (or the row's end), whole — ``a = b \\le c`` gives ``a = b`` and ``b \\le c`` (it had been
    100 characters either side, cut without a mark)."""
    out = []
    for part in chain.parts:
        offs = _raw_relations_text(part.text)
        for k, off in enumerate(offs):
            prev = REL_TOKEN.match(part.text, offs[k - 1]) if k else None
            a = prev.end() if prev else offs[k - 1] + 1 if k else 0
            b = offs[k + 1] if k + 1 < len(offs) else len(part.text)
            out.append((part.pos + off, _whole(part.text[a:b])))
    if not out and chain.parts:
        out.append((chain.parts[0].pos, _whole(chain.text)))
    return out


#: packages a paper often ships in its folder (bibliography, algorithms, page layout, a venue's style): their
#: internals are no notation, so their notes are summed up in one line each
WELL_KNOWN_PACKAGE = re.compile(
    r"(?:natbib|algorithm|algorithmic|algorithmicx|algpseudocode|algorithm2e|fancyhdr|hyperref|url|times|subfigure|"
    r"subfig|caption|subcaption|xcolor|color|graphicx|booktabs|multirow|enumitem|geometry|microtype|wrapfig|float|"
    r"cleveref|thmtools|mathtools|amsmath|amssymb|amsthm|amsfonts|bm|nicefrac|xspace|tikz|pgfplots|listings|"
    r"fullpage|setspace|titlesec|authblk|comment|etoolbox|ifthen|mathrsfs|dsfont|bbm|jmlr2e|jmlr|arxiv|"
    r"(?:icml|neurips|nips|iclr|aistats|colt|uai|aaai|ijcai|acl|emnlp|naacl|cvpr|iccv|eccv|tmlr|alt)[\w-]*)"
    r"\.(?:sty|cls)")


def _package_notes(origin: str, notes: list) -> list:
    """The notes from reading one local style file: as they are, or one line for a well-known package's."""
    name = origin.replace("\\", "/").rsplit("/", 1)[-1]
    if len(notes) <= 1 or not WELL_KNOWN_PACKAGE.fullmatch(name):
        return notes
    return [Note(origin, f"{len(notes)} notes on the internals of {name}, a standard package shipped with the paper "
                         f"(its commands are layout or references, not notation), left out")]


def _same_text(a: str, b: str) -> bool:
    """The two sides' LaTeX is the same text, spaces aside."""
    return "".join(a.split()) == "".join(b.split()) != ""


#: an index at a letter plus or minus a whole number, as written (``t + 2``, ``k-1``) or folded into a family's
#: name (``tp2``, ``km1``, :func:`.reading.index_label`)
SHIFTED_INDEX = re.compile(r"([A-Za-z][A-Za-z0-9]*?)(?:([-+pm])(\d+))?")


def _shift(index: str) -> tuple[str, int] | None:
    """``t+2`` → (t, 2), ``km1`` → (k, -1), ``t`` → (t, 0); None for any other index."""
    m = SHIFTED_INDEX.fullmatch(index.replace(" ", ""))
    if not m:
        return None
    step = int(m.group(3)) if m.group(3) else 0
    return m.group(1), -step if m.group(2) in ("-", "m") else step


def _recursion(lhs: ast.expr, rhs: ast.expr) -> bool:
    """``x_t = … x_{t-1} …``, ``x_{t+2} = A(x_t)`` (or ``g_k(θ) = … g_{k-1}(θ) …``): the same name on the right at
    an earlier index (the same letter, a smaller shift)."""
    if isinstance(lhs, ast.Call) and isinstance(lhs.func, ast.Name):
        m = re.fullmatch(r"(\w+?)_([A-Za-z]\w*)", lhs.func.id)  # a family applied: g_k(theta)
        at = _shift(m.group(2)) if m else None
        if at is None:
            return False
        for n in ast.walk(rhs):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id.startswith(m.group(1) + "_"):
                there = _shift(n.func.id[len(m.group(1)) + 1:])
                if there is not None and there[0] == at[0] and there[1] < at[1]:
                    return True
        return False
    base = lhs.value.id if isinstance(lhs.value, ast.Name) else None
    at = _shift(unparse(lhs.slice))
    if at is None:
        return False
    for n in ast.walk(rhs):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == base:
            there = _shift(unparse(n.slice))
            if there is not None and there[0] == at[0] and there[1] < at[1]:
                return True
    return False


def _one_name_per_family(relations: list[Relation]) -> None:
    """An indexed name the paper applies somewhere (``f_{t+1}(\\cdot) = …``: ``f_tp1``) and hands bare elsewhere
    (``T_\\alpha(f_{t+1})``) is shown by that one name in every row's reading (``T_alpha(f_tp1)``, not
    ``T_alpha(f[t + 1])``): the checker names it so (an index folded into the name) — the same object, one name.  An
    index a sum or product binds is a family's argument there, left as written."""
    from .reading import bound_indices, index_label
    applied = {n.func.id for rel in relations if rel.link is not None
               for side in (rel.link.lhs.node, rel.link.rhs.node) if side is not None
               for n in ast.walk(side) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and "_" in n.func.id}
    if not applied:
        return
    for rel in relations:
        if rel.link is None or not rel.read_as:
            continue
        for side in (rel.link.lhs.node, rel.link.rhs.node):
            if side is None:
                continue
            bound = bound_indices(side)
            for n in ast.walk(side):
                if not (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)) or \
                        {m.id for m in ast.walk(n.slice) if isinstance(m, ast.Name)} & bound:
                    continue
                flat = f"{n.value.id}_{index_label(n.slice)}"
                if flat not in applied:
                    continue
                shown = re.compile(r"(?<![\w\]])" + re.escape(unparse(n)) + r"(?![\w\[])")
                rel.read_as = shown.sub(flat, rel.read_as)
                if rel.readings:
                    rel.readings = [shown.sub(flat, r) for r in rel.readings]


def _mult_chain(node: ast.expr) -> list[ast.expr]:
    """The factors of a product written left to right (``((2·S)·M_n)`` → 2, S, M_n)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _mult_chain(node.left) + _mult_chain(node.right)
    return [node]


def _juxtaposed(node: ast.expr | None) -> tuple[str, ...] | None:
    """The names of a product of two or more names (plain or indexed, ``S·M_n``), as written; else None."""
    if node is None:
        return None
    factors = _mult_chain(node)
    if len(factors) < 2 or not all(isinstance(f, ast.Name) or isinstance(f, ast.Subscript) and
                                   isinstance(f.value, ast.Name) for f in factors):
        return None
    return tuple(unparse(f) for f in factors)


def _joined_use(link, joined: dict[tuple[str, ...], str]) -> tuple[tuple[str, ...], str] | None:
    """A product in ``link`` whose factors, in order, are letters a definition wrote side by side (and so may be
    one name): those factors and where the definition is; else None."""
    if not joined:
        return None
    for side in (link.lhs.node, link.rhs.node):
        for n in ast.walk(side) if side is not None else ():
            if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)):
                continue
            shown = [unparse(f) for f in _mult_chain(n)]
            for key, where in joined.items():
                if any(tuple(shown[i:i + len(key)]) == key for i in range(len(shown) - len(key) + 1)):
                    return key, where
    return None


def _rebound_index(node: ast.expr | None) -> str | None:
    """The index of a sum or product that a sum or product inside it binds again (``Σ_k … Σ_k …``), or None."""
    if node is None:
        return None

    def walk(n: ast.AST, bound: frozenset) -> str | None:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product") and \
                len(n.args) == 2 and isinstance(n.args[1], ast.Tuple) and n.args[1].elts and \
                isinstance(n.args[1].elts[0], ast.Name):
            k = n.args[1].elts[0].id
            if k in bound:
                return k
            for lim in n.args[1].elts[1:]:
                hit = walk(lim, bound)
                if hit:
                    return hit
            return walk(n.args[0], bound | {k})
        for child in ast.iter_child_nodes(n):
            hit = walk(child, bound)
            if hit:
                return hit
        return None
    return walk(node, frozenset())


def _ambiguity(names: set[str], oracle: Names) -> str:
    shown = ", ".join(sorted(names))
    return (f"{shown}(…): a function applied, or a product? The paper gives no evidence either way, or both "
            f"(declare it: '% theoryverify: function {sorted(names)[0]}' or '% theoryverify: scalar "
            f"{sorted(names)[0]}')")


#: ``\\delta(\\varepsilon) > 0``: a bound on a function's value, whose argument it does not constrain
VALUE_BOUND = re.compile(r"^\s*(\\?[A-Za-z]+)\s*(?:\\left)?\(([^()]*)(?:\\right)?\)\s*((?:<|>|\\(?:le|ge|leq|geq|lt|gt)(?![A-Za-z])).*)$",
                         re.S)


#: what separates an unusable assumption from the reason it is not used (the names it bears on are before it)
WHY_SEP = ": no sign of "


def _conflict_reason(clash: list[str]) -> str:
    """The reason of a step whose assumptions provably contradict each other (see :meth:`Paper._conflict`)."""
    return (f"its assumptions cannot hold together: {' and '.join(clash)} (no point satisfies them, so a proof would "
            f"be vacuous and a counterexample would lie outside them): not checked")


def _why_unusable(assumption: str, exc: Exception) -> str:
    """An assumption the checker cannot draw inside, with the reason where it is a missing sign: ``0 < eta * h < 2``
    with neither sign stated cannot be solved for a name (η ∈ (0, 2/h) needs h > 0), and saying so tells the author
    the one line that makes it usable (``--assume "0 < eta*h < 2" --assume "h > 0"`` reads it too).

    >>> from theoryverify.check.parser import BadInput
    >>> _why_unusable("0 < eta * h < 2", BadInput("… linearly with a coefficient of known sign …"))
    "0 < eta * h < 2: no sign of eta or h is stated (with '% theoryverify: assume h > 0' it reads)"
    """
    if "known sign" not in str(exc) or "(" in assumption:  # a function's value (norm(d) > 0): no name to sign
        return assumption
    names = sorted(_ast_names_text(assumption))
    if not names:
        return assumption
    return (f"{assumption}{WHY_SEP}{' or '.join(names)} is stated (with '% theoryverify: assume {names[-1]} > 0' "
            f"it reads)")


def _bearing_names(text: str) -> set[str]:
    """The names an unread prose assumption may bear on: all it writes, except the argument of a function whose value
    it bounds (``\\delta(\\varepsilon) > 0`` bears on δ, not on ε: a step about ε alone is not its business)."""
    m = VALUE_BOUND.match(text)
    if m:
        return _latex_names(m.group(1)) | _latex_names(m.group(3))
    return _latex_names(text)


def _bare_name(node) -> str | None:
    """The name ``node`` is when it is a bare symbol (``b``, ``c[m]``, ``v[n + 1]``), else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
            all(isinstance(n, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.Load, ast.operator,
                               ast.unaryop)) for n in ast.walk(node.slice)):
        return node.value.id
    return None


def _constant(node) -> bool:
    """``node`` writes no name (a number: ``0``, ``-1/2``, ``sqrt(2)``)."""
    return not any(isinstance(n, ast.Name) and not (isinstance(p, ast.Call) and p.func is n)
                   for p in ast.walk(node) for n in ast.iter_child_nodes(p)) and not isinstance(node, ast.Name)


def _value_settled(job: Job, ce) -> str:
    """Why a refuted ``name = number`` link (``b = 0`` in ``lim b_n = b = 0``, ``c_m = 0`` in ``c_1 ≥ ⋯ ≥ c_m = 0``)
    may not stand, or "": such a link says which value the name has — a conclusion the context draws about it (from
    ``b(1 − qb) = b``, from the sequence's definition), or a fact stated about it — never an identity over every value
    of the name; a counterexample that merely picks another value for the name refutes nothing.  A name whose value
    the checker knows (a definition read into the step) is not in the counterexample, and is still refuted."""
    if job.op != "=" or not ce:
        return ""
    for a, b in ((job.lhs, job.rhs), (job.rhs, job.lhs)):
        name = _bare_name(a)
        if name is not None and _constant(b) and \
                any(k == name or k.startswith(name + "_") or k.startswith(name + "[") for k in ce):
            return (f"it only sets {unparse(a)} to {unparse(b)}: a value the context determines (a conclusion drawn "
                    f"about {unparse(a)}, or a fact stated about it), not an identity over every value of "
                    f"{unparse(a)} — a counterexample that picks another value for it refutes nothing")
    return ""


def _cites(label: str) -> str:
    """Why a link whose relation carries ``label`` gets no refutation: the label may supply a fact not stated."""
    if label in ("!", "?", "!!", "??"):
        return (f"the relation is marked {label} (a condition set to hold, or a question), not claimed as an identity: "
                "no verdict")
    if in_distribution(label):
        return (f"the relation is labelled {label}: an equality in distribution (of laws), not of values: no verdict "
                "on it as one of values")
    return (f"the link cites {label}, which may supply a fact the display does not state (an earlier equation, a "
            "lemma, a value set elsewhere): no verdict on a step that may rest on it")


def _withhold(rel: Relation, reason: str, counterexample, limit: int | None = 500) -> None:
    """A refutation that may not stand: ``rel`` inconclusive with ``reason`` (cut at ``limit``), the counterexample
    kept where there is one to show."""
    rel.status, rel.reason = "inconclusive", reason if limit is None else reason[:limit]
    if counterexample is not None:
        rel.counterexample = counterexample


def _latex_names(text: str) -> set[str]:
    """The names a piece of LaTeX (or of the checker's syntax) writes, roughly: its letters, its Greek letters'
    names and its words (to tell whether an assumption that was not read may bear on a step)."""
    out = set()
    for m in re.finditer(r"\\([A-Za-z]+)|([A-Za-z]+)", text):
        if m.group(1):
            if m.group(1) in GREEK:
                out.add(GREEK[m.group(1)])
        else:
            word = m.group(2)
            out.add(word)
            out |= set(word)
    return out



def _component_safe(d, sides) -> bool:
    """Whether the steps' ``sides`` use ``d`` (a function whose body reads its parameter's components, ``f(x) :=
    x_1^2 + x_2``) only at its own parameter: every call ``f(…)`` has exactly the parameters as arguments, and no
    derivative or substitution is taken in a parameter (``subs(diff(f(x), x), x, x̄)`` is f's derivative at x̄)."""
    for side in sides:
        for n in ast.walk(side):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)):
                continue
            if n.func.id == d.name and [a.id if isinstance(a, ast.Name) else None for a in n.args] != list(d.params):
                return False
            if n.func.id in ("diff", "subs") and any(isinstance(a, ast.Name) and a.id in d.params for a in n.args[1:]):
                return False
    return True

def _ast_names_text(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))


def _default_jobs() -> int:
    try:
        return max(1, min(2, len(os.sched_getaffinity(0))))
    except AttributeError:  # pragma: no cover
        return 1


def _ast_names(node) -> set[str]:
    """Every name an expression writes, as a variable or as a function it calls."""
    if node is None:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


# --- the checks, in one process or several ------------------------------------------------------------

def run_jobs(jobs: list[Job], settings) -> list[dict]:
    seed, timeout, context, definitions = settings
    fn_decl: list[str] = []
    from ...seeds import DEFAULT_SEED
    from ..session import Session
    sessions: dict[tuple, list] = {}

    current_defs: list[tuple[int, ...]] = [()]

    def session_for(assumptions: tuple[str, ...], n_defs: int, functions: tuple[str, ...] = ()):
        base = list(assumptions)
        if functions:
            base.append(f"{', '.join(functions)}: function")
        defs = tuple(i for i in current_defs[0] if i < n_defs)
        key = (tuple(base), defs)
        if key not in sessions:
            if context != "free":
                if functions:
                    raise BadInput(f"in the step context {context}, unspecified functions cannot be declared")
                # the paper's assumptions are not the context's domains: the context's domains are searched, and a
                # refutation stands only where its counterexample satisfies them (see _outside_assumptions)
                s = Session(context, [], seed=DEFAULT_SEED if seed is None else seed, timeout=timeout,
                            define=SPECIAL_DEFINES)
            else:
                s = Session("free", base, seed=DEFAULT_SEED if seed is None else seed, timeout=timeout,
                            define=SPECIAL_DEFINES)
            sessions[key] = [s, 0]
        entry = sessions[key]
        s, have = entry
        if not have:
            for i in defs:
                d = definitions[i]
                s.scope.user.pop(d.name, None)  # a later definition of the name replaces the earlier one
                s.scope.user_functions.pop(d.name, None)
                try:
                    s.define(d)
                except Exception:  # a definition that cannot be built is not used
                    pass
            entry[1] = 1
        return s

    from .. import build
    out = []
    old, build.REAL_POWERS = build.REAL_POWERS, True
    try:
        for job in jobs:
            current_defs[0] = job.defs
            out.append(_one(job, session_for, seed, timeout, fn_decl, context))
    finally:
        build.REAL_POWERS = old
    return out


NORM_BAR = re.compile(r"\\(\||(?:Vert|lVert|rVert)(?![A-Za-z]))")
NORM_SUB = re.compile(r"\s*(?:\^\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)\s*)?_\s*(\{[^{}]*\}|\\?[A-Za-z0-9]+)")


#: the names the identity matrix is written as (I, \\mathrm{I} → Ivar; \\mathbf{I}, \\bm{I} → Ibf, Ibm; I_d, I_n …)
IDENTITY_NAME = re.compile(r"(?:Ivar|Ibf|Ibm|Ivar_[a-zA-Z]|I_[a-zA-Z]|Ibf_[a-zA-Z]|Ibm_[a-zA-Z])")
#: what makes a display one about matrices (not a norm, a bold vector or a gradient alone)
MATRIX_OPS = frozenset({"transpose", "matrix", "trace", "determinant", "pseudo-inverse", "tensor product"})


def _identity_as_one(lhs: ast.expr, rhs: ast.expr, cav: Caveats, in_scope) -> tuple[ast.expr, ast.expr, list[str]]:
    """In a display about matrices (a transpose, a trace, a name the paper uses as a matrix besides I), ``I``
    (``\\mathrm{I}``, ``\\mathbf{I}``, ``I_d``) is the identity matrix: in one dimension, 1 — never a free number
    (``I − ηUΣ²Uᵀ = UUᵀ − ηUΣ²Uᵀ`` was refuted at I = −1, U = −1, referee 33).  The names replaced by 1 are
    returned (none if the paper defines the name, or the display is not about matrices)."""
    sides = (lhs, rhs)
    found = sorted({n.id for side in sides for n in ast.walk(side) if isinstance(n, ast.Name) and
                    IDENTITY_NAME.fullmatch(n.id) and n.id not in in_scope})
    if not found:
        return lhs, rhs, []
    others = set()
    for v in cav.vector:
        m = re.match(r"vectors/matrices \(([^)]*)\)", v)
        if m:
            others |= {x.strip() for x in m.group(1).split(",")} - set(found)
    if not (set(cav.vector) & MATRIX_OPS or others):
        return lhs, rhs, []

    class One(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name):
            return ast.copy_location(ast.Constant(value=1), node) if node.id in found else node
    lhs, rhs = One().visit(copy.deepcopy(lhs)), One().visit(copy.deepcopy(rhs))
    for attr in ("lhs_names", "rhs_names"):
        setattr(cav, attr, getattr(cav, attr) - set(found))
    cav.written = (frozenset(cav.lhs_names), frozenset(cav.rhs_names))
    cav.vector = [v for v in cav.vector if not (v.startswith("vectors/matrices (") and
                                                set(re.split(r"[(),\s]+", v[18:])) - {""} <= set(found))]
    return lhs, rhs, found


def _one_norm(latex: str) -> bool:
    """Whether every norm the text writes carries the same subscript (or none): ``‖x‖_p`` and ``‖x‖`` are both read
    ``norm(x)``, so a step that mixes them must not be proved through its norms."""
    subs, bars = set(), 0
    for m in NORM_BAR.finditer(latex):
        if m.group(1) == "lVert":
            continue
        if m.group(1) in ("|", "Vert"):
            bars += 1
            if bars % 2:
                continue  # an opening bar
        sub = NORM_SUB.match(latex, m.end())
        subs.add(sub.group(1).replace(" ", "").strip("{}") if sub else "")
    return len(subs) <= 1


def _same_bound_variables(expr):
    """``expr`` with every sum's and product's index renamed to one shared dummy per nesting level and place, and each
    sum's factors free of its indices moved in front of it: each built ``\\sum_j`` gets its own dummy j, so ``∑_j l_j``
    written twice (or once as ∑_k l_k) were two expressions and ``lhs − rhs`` never cancelled.  Both are identities (a
    bound variable's name is free; ``∑ c·f(j) = c·∑ f(j)``), so a zero found on the result is a proof; an inner sum's
    dummy is never an outer one's, so none is captured."""
    import sympy as sp
    shared: dict[tuple[int, int], object] = {}

    def walk(e, depth: int = 0):
        if not isinstance(e, sp.Basic) or not e.args:
            return e
        if isinstance(e, (sp.Sum, sp.Product)):
            # one dummy per nesting level and place (∑_j l_j and ∑_ι l_ι alike): an inner operator's dummies are
            # never an outer one's, so nothing is captured, whatever the names written
            body = walk(e.function, depth + len(e.limits))
            mapping, limits = {}, []
            for k, lim in enumerate(e.limits):
                v = lim[0]
                c = shared.setdefault((depth, k), sp.Dummy(f"{v}_{depth}_{k}"))
                limits.append((c, *[walk(x, depth).xreplace(mapping) for x in lim[1:]]))
                mapping[v] = c
            body = body.xreplace(mapping)
            if isinstance(e, sp.Sum):
                coeff, rest = body.as_independent(*mapping.values(), as_Add=False)
                return coeff * sp.Sum(rest, *limits)
            return sp.Product(body, *limits)
        return e.func(*[walk(a, depth) for a in e.args])
    if not expr.has(sp.Sum, sp.Product):
        return expr
    return walk(expr)


def _symbolic_only(job: Job, s) -> dict:
    """A step with unknowns (opaque atoms, unspecified functions, families) can only be *proved* (for every value of
    the unknowns) or left inconclusive: no numeric search is run, since it could decide nothing."""
    import sympy as sp
    from ...timelimit import bounded
    from ..build import Builder
    if job.op != "=":
        how = _signed_proof(job, s)
        if how:  # ηγ‖e(t)‖/4 ≥ 0: a slack whose sign holds for every value of the unknowns
            return {"status": "proved", "method": "exact", "evidence": how}
        return {"status": "inconclusive", "method": "not searched",
                "evidence": f"an inequality between unknowns ({', '.join(job.caveats.unknowns[:3])}) is not decided"}
    s._fresh(job.lhs, job.rhs)
    s.resolve_names(job.lhs, job.rhs)
    b = Builder(s.scope, latex=True)
    d = sp.sympify(b.build_scalar(job.lhs) - b.build_scalar(job.rhs))

    def is_zero():
        c = _same_bound_variables(d)
        return d == 0 or c == 0 or sp.expand(c) == 0 or sp.simplify(c) == 0
    zero = bounded(is_zero, SYMBOLIC_SECONDS, cpu=True)
    if zero:
        return {"status": "proved", "method": "symbolic", "evidence": "lhs − rhs simplifies to 0"}
    const = bounded(lambda: sp.simplify(d), SYMBOLIC_SECONDS, cpu=True)
    if const is not None and const.is_number and const.is_real and const.is_finite and const != 0:
        # Θ(i, j) + 1 = Θ(i, j) + 2: every unknown cancels and a nonzero number is left — false whatever they are
        return {"status": "refuted", "method": "symbolic", "constant": True, "counterexample": {},
                "evidence": f"lhs − rhs = {const} for every value of {', '.join(job.caveats.unknowns[:3])} "
                            "(they cancel)"}
    return {"status": "refuted_unknown", "method": "symbolic",
            "evidence": "lhs − rhs does not simplify to 0 (not searched further: it depends on unknowns)"}


#: operators of the step language that act on a function, not on its value at a point: an unknown call inside one is
#: never replaced by one value (:func:`_unknowns_as_values`)
FUNCTION_OPERATORS = frozenset({"E", "Sum", "Product", "diff", "grad", "subs", "softmax", "Integral", "integrate",
                                "Derivative", "limit", "Subs", "Var", "Cov", "P"})


def _unknowns_as_values(job: Job, s) -> tuple[ast.expr, ast.expr, dict[str, str]] | None:
    """The step's sides with each unknown function applied (``f(x_k)``, a family member) written as a fresh name —
    the same written call, the same name — when every unknown then cancels: ``lhs − rhs`` simplifies to an
    expression free of those names and of the opaque atoms (referee 20's ``… + ‖v_k‖² = …`` with the f-terms
    cancelling).  The step is then true or false whatever the unknowns are, and is decided like any step.  None
    when an unknown survives, when a call writes a name a sum, product or integral binds (one name would stand for
    every term), or when the sides cannot be built."""
    import copy
    import sympy as sp
    from sympy.core.function import AppliedUndef
    from ...timelimit import bounded
    from ..build import Builder, bound_names
    unknown = set(job.caveats.functions) | set(job.caveats.families)
    bound = bound_names([job.lhs, job.rhs])
    fresh: dict[str, str] = {}  # the call's dump -> its fresh name
    shown: dict[str, str] = {}  # fresh name -> the call as read
    blocked = []

    class Values(ast.NodeTransformer):
        inside = 0  # how many operators that bind or transform a function (E, Σ, ∏, d/dx …) enclose the node

        def visit_Call(self, n):
            if isinstance(n.func, ast.Name) and n.func.id in unknown:
                if self.inside or {x.id for x in ast.walk(n) if isinstance(x, ast.Name)} & bound:
                    blocked.append(n)  # E[f(X)], d/dx f(x): one value would stand for the whole function
                    return n
                key = ast.dump(n)
                if key not in fresh:
                    fresh[key] = f"cancelledvalue{len(fresh) + 1}"
                    shown[fresh[key]] = unparse(n)
                return ast.Name(id=fresh[key], ctx=ast.Load())
            binds = not isinstance(n.func, ast.Name) or n.func.id in FUNCTION_OPERATORS
            self.inside += binds
            self.generic_visit(n)
            self.inside -= binds
            return n
    lhs, rhs = Values().visit(copy.deepcopy(job.lhs)), Values().visit(copy.deepcopy(job.rhs))
    if blocked or not (fresh or job.caveats.atom_names):
        return None
    if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in unknown
           for side in (lhs, rhs) for n in ast.walk(side)):
        return None
    try:
        s._fresh(lhs, rhs)
        s.resolve_names(lhs, rhs)
        b = Builder(s.scope, latex=True)
        d = sp.sympify(b.build_scalar(lhs) - b.build_scalar(rhs))
    except Exception:  # noqa: BLE001 - not built: the step stays undecided, as before
        return None
    if d.atoms(AppliedUndef):
        return None
    unknowns = set(fresh.values()) | set(job.caveats.atom_names)

    def residual():
        c = sp.expand(_same_bound_variables(d))
        if {str(x) for x in c.free_symbols} & unknowns:
            c = sp.simplify(c)
        return c
    c = bounded(residual, SYMBOLIC_SECONDS, cpu=True)
    if c is None or {str(x) for x in c.free_symbols} & unknowns or c.atoms(AppliedUndef):
        return None
    return lhs, rhs, shown


def _cancelled_step(job: Job, values, session_for, seed, timeout, fn_decl, context) -> dict:
    """The verdict on a step whose unknowns all cancel (:func:`_unknowns_as_values`): the step with each unknown
    call a free real name, checked like any step; a counterexample shows only the step's other names (the
    unknowns' values do not matter)."""
    lhs, rhs, shown = values
    plain_caveats = dataclasses.replace(job.caveats, opaque=[], functions=[], families=[], atom_names=[])
    res = _one(dataclasses.replace(job, lhs=lhs, rhs=rhs, caveats=plain_caveats), session_for, seed, timeout, fn_decl,
               context)
    job.caveats.lhs_names, job.caveats.rhs_names = plain_caveats.lhs_names, plain_caveats.rhs_names
    if res.get("counterexample"):
        res["counterexample"] = {k: v for k, v in res["counterexample"].items() if k not in shown}
    if res.get("sides"):
        res["sides"] = [[n for n in side if n not in shown] for side in res["sides"]]
    res["cancelled"] = True
    for name in sorted(shown, key=len, reverse=True):  # cancelledvalue12 before cancelledvalue1
        res["evidence"] = res.get("evidence", "").replace(name, shown[name])
    res["evidence"] = (f"every unknown cancels ({', '.join(job.caveats.unknowns[:3])}): lhs − rhs is free of "
                       f"them; {res.get('evidence', '')}")
    return res


def _signed_proof(job: Job, s) -> str | None:
    """How an inequality with unknowns holds for every value of them, or None: each unknown function's value
    (``e(t)``) is one real number of its own, opaque atoms are real numbers (a norm's atom ≥ 0 by the job's
    assumptions), and the slack's sign is decided by SymPy's sign rules on the domain (``ηγ|e(t)|/4 ≥ 0`` with η, γ
    > 0) — a proof for every value, so for every function; nothing is sampled."""
    import sympy as sp
    from sympy.core.function import AppliedUndef
    from ..build import Builder
    from ..decide import domain_of
    from ..prove import prove
    from ...checks.inequality import slack_expr
    try:
        s._fresh(job.lhs, job.rhs)
        s.resolve_names(job.lhs, job.rhs)
        b = Builder(s.scope, latex=True)
        lhs, rhs = sp.sympify(b.build_scalar(job.lhs)), sp.sympify(b.build_scalar(job.rhs))
        slack = slack_expr(lhs, rhs, job.op)
        if slack.has(sp.Sum, sp.Product, sp.Integral, sp.Derivative, sp.Subs):
            return None
        values = {a: sp.Symbol(f"_value{k}", real=True) for k, a in
                  enumerate(sorted(slack.atoms(AppliedUndef), key=str))}
        slack = slack.xreplace(values)
        domain, subst = domain_of(s.scope, [slack])
        if subst:
            slack = slack.xreplace(subst)
        how = prove(slack, job.op in ("<", ">"), domain)
    except Exception:  # noqa: BLE001 - no proof (never a verdict from a failure)
        return None
    if not how:
        return None
    return f"{how}, for every value of {', '.join(job.caveats.unknowns[:3])}"


STATEMENT_OP = {"=": "==", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}  # a link's relation in the step language


def _outside_assumptions(s, assumptions: tuple[str, ...], ce: dict) -> str | None:
    """In a paper's step context: the first of the paper's assumptions that the counterexample ``ce`` does not
    satisfy, or that cannot be evaluated there (then the refutation is not reported: the context's domain is wider
    than the paper's), or None when it satisfies all of them."""
    import sympy as sp
    from ..build import Builder
    from ..parser import parse_assumption
    values = {str(k): v for k, v in ce.items()}
    for text in assumptions:
        try:
            node = parse_assumption(text)
            if not isinstance(node, ast.Compare):
                return text
            b = Builder(s.scope, latex=True)
            terms = [b.build_scalar(t) for t in (node.left, *node.comparators)]
            terms = [sp.sympify(t).subs({x: values[str(x)] for x in sp.sympify(t).free_symbols if str(x) in values})
                     for t in terms]
            for (a, c), op in zip(zip(terms, terms[1:]), node.ops):
                if (a - c).free_symbols:
                    return text
                d = sp.N(a - c, 30)
                ok = {ast.Lt: d < 0, ast.LtE: d <= 0, ast.Gt: d > 0, ast.GtE: d >= 0, ast.Eq: d == 0,
                      ast.NotEq: d != 0}.get(type(op))
                if ok is not True and ok is not sp.true:
                    return text
        except Exception:  # noqa: BLE001 - an assumption that cannot be evaluated there: not satisfied
            return text
    return None


TOOL_FAILED = ("the tool failed while checking this step (an internal error, not a property of the step): "
               "no verdict")


def _one(job: Job, session_for, seed, timeout, fn_decl, context: str = "free") -> dict:
    from ..latex import to_statement
    op = STATEMENT_OP[job.op]
    try:
        st = to_statement([job.lhs, job.rhs], [op], job.text, functions=None)
        s = session_for(job.assumptions, job.n_defs, job.functions)
        if job.caveats.unknowns:
            res = _symbolic_only(job, s)
            if res["status"] in ("refuted_unknown", "inconclusive"):
                values = _unknowns_as_values(job, s)
                if values is not None:  # every unknown cancels: the residual is decided like any step
                    return _cancelled_step(job, values, session_for, seed, timeout, fn_decl, context)
            return res
        v = s.check_parsed(st)
        if context != "free" and job.assumptions and v.status.value == "refuted":
            outside = _outside_assumptions(s, job.assumptions, dict(v.counterexample or {}))
            if outside is not None:
                ce = ", ".join(f"{k} = {_short_num(x)}" for k, x in (v.counterexample or {}).items())
                return {"status": "inconclusive", "method": v.verdict.method,
                        "evidence": f"false in the context {context} at {ce}, where the paper's assumption "
                                    f"{outside!r} does not hold: not decided under the paper's assumptions"}
    except BadInput as exc:
        return {"status": "error", "evidence": " ".join(str(exc).split())}
    except Exception:  # the check itself broke: never a verdict, and no class name for the reader
        return {"status": "inconclusive", "evidence": TOOL_FAILED}
    if v.status.value == "error" and v.verdict.method == "exception":  # the engine broke in its child process
        return {"status": "inconclusive", "evidence": TOOL_FAILED}
    res = {"status": v.status.value, "method": v.verdict.method, "evidence": " ".join(v.verdict.evidence.split())}
    if v.status.value == "refuted":
        ce = v.counterexample or {}
        res["counterexample"] = {k: _plain_value(x) for k, x in ce.items()}
        sides = _side_names(s, job)
        if sides is not None:
            job.caveats.lhs_names, job.caveats.rhs_names = sides
            res["sides"] = [sorted(sides[0]), sorted(sides[1])]
        block = refutation_blockers(job.caveats, False, job.op)
        if not block:
            res["favourable"] = _favourable(job, st, session_for)
    return res


def _side_names(s, job: Job) -> tuple[set[str], set[str]] | None:
    """The names each side depends on once the paper's definitions are substituted."""
    from ..build import Builder
    try:
        s._fresh(job.lhs, job.rhs)
        s.resolve_names(job.lhs, job.rhs)
        b = Builder(s.scope, latex=True)
        left, right = b.build(job.lhs), b.build(job.rhs)
        return ({str(x) for x in left.free_symbols}, {str(x) for x in right.free_symbols})
    except Exception:
        return None


def _no_point(v) -> bool:
    """Whether a check found no point inside its assumptions (:func:`..decide.no_point`): the values a favourable
    reading restricts to (every name at least 1 beside eta*L < 1) leave none — no evidence that the paper means them."""
    return getattr(getattr(v, "verdict", None), "method", "") == "assumptions"


def _favourable(job: Job, st, session_for) -> str | None:
    substituted = _with_inline_values(job, session_for)
    if substituted:
        return substituted
    names = sorted(job.caveats.lhs_names | job.caveats.rhs_names)
    if not names or job.over_reals:
        return None
    for key, words, make in FAVOURABLE:
        try:
            s = session_for(job.assumptions + tuple(make(names)), job.n_defs, job.functions)
            v = s.check_parsed(st)
        except Exception:
            continue
        if v.status.value in ("proved", "holds", "inconclusive") and not _no_point(v):
            return _found(v.status.value, words)
    turned = sorted({n.args[0].id for side in (job.lhs, job.rhs) for n in ast.walk(side)
                     if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "transpose"
                     and len(n.args) == 1 and isinstance(n.args[0], ast.Name) and n.args[0].id[:1].isupper()})
    if turned:  # U Λ U^T with U an orthogonal matrix (a capital): in one dimension it is ±1; y^T is a vector
        try:
            s = session_for(job.assumptions + tuple(f"{n} == 1" for n in turned), job.n_defs, job.functions)
            v = s.check_parsed(st)
            got = v.status.value
            if got in ("proved", "holds", "inconclusive") and not _no_point(v):
                return _found(got, f"every transposed name ({', '.join(turned)}) an orthogonal matrix, 1 in one "
                                   "dimension")
        except Exception:
            pass
    same = _index_dropped(job)
    if same is not None:
        try:
            from ..latex import to_statement
            op = STATEMENT_OP[job.op]
            st2 = to_statement(same[:2], [op], job.text, functions=None)
            s = session_for(job.assumptions, job.n_defs, job.functions)
            got = s.check_parsed(st2).status.value
            if got in ("proved", "holds", "inconclusive"):
                return _found(got, f"{', '.join(same[2])} read as the same name without its index")
        except Exception:
            pass
    if job.op != "=":
        return _somewhere(job, session_for)
    return _piecewise_region(job, session_for)


#: calls whose later arguments are variables the call binds (diff(f, t), Integral(f, (x, a, b)), limit(f, n, oo)) —
#: not Sum/Product: an unknown that writes a sum's index is a family x_(k) there (:func:`atoms_as_families`)
_BINDING_CALLS = frozenset({"diff", "Derivative", "Integral", "integrate", "limit", "Limit"})


def _frozen_atoms(job: Job) -> list[str]:
    """The unknowns (opaque atoms, kept as constants) written in a name that the step differentiates, integrates
    or takes a limit in — ``d/dt ‖B(t)‖`` read with ‖B(t)‖ an unknown constant is 0 by the reading, not by the
    paper — or []."""
    bound: set[str] = set()
    for side in (job.lhs, job.rhs):
        for n in ast.walk(side):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _BINDING_CALLS:
                for a in n.args[1:]:
                    first = a.elts[0] if isinstance(a, ast.Tuple) and a.elts else a
                    if isinstance(first, ast.Name):
                        bound.add(first.id)
    if not bound:
        return []
    out = []
    for latex in job.caveats.opaque:
        words = [w for v in bound for w in (["\\" + k for k, py in GREEK.items() if py == v] or [v])]
        if any(re.search(r"(?<![A-Za-z\\])" + re.escape(w) + r"(?![A-Za-z])", latex) for w in words):
            out.append(f"⟦{latex}⟧")
    return out


def _method_and_evidence(method: str, evidence: str) -> str:
    """``method: evidence`` without saying twice what both say: a method whose end is how its evidence begins
    ("exact: exact sign analysis of … on x" + "exact sign analysis of … on x: no sign change") is cut there."""
    if not method:
        return evidence
    for k in range(len(method)):
        tail = method[k:]
        if len(tail) >= 12 and evidence.startswith(tail):
            return f"{method[:k].rstrip(': ')}: {evidence}" if method[:k].strip(": ") else evidence
    return f"{method}: {evidence}"


def _found(status: str, words: str) -> str:
    """What the authors'-favour check under ``words`` found, no more than it found: a proof is "proved with …", a
    search without a counterexample is only that (referee 8, S65: "holds with every name positive" was printed for a
    relation false at ρ = ε = 1, σ = 0.01, n = 0.001, a positive point the search had not tried)."""
    if status == "proved":
        return f"is proved with {words}"
    return f"no counterexample was found with {words}"


def _with_inline_values(job: Job, session_for) -> str | None:
    """A step that writes, on both sides, a name the prose set earlier (``a_t = 2/(t+2)``) may substitute the value
    into some occurrences only: checked again with the value in every occurrence — a verdict other than refuted
    there is the authors'-favour reading (None: no such name, or still refuted)."""
    import copy
    from ..latex import to_statement
    if not job.caveats.inline_values:
        return None
    values = {}
    for name, value, where in job.caveats.inline_values:
        try:
            values[name] = (ast.parse(value, mode="eval").body, where)  # our own unparse of a plain node, not user text
        except SyntaxError:
            return None

    class Put(ast.NodeTransformer):
        def visit_Name(self, node):
            return copy.deepcopy(values[node.id][0]) if node.id in values else node
    try:
        sides = [Put().visit(copy.deepcopy(side)) for side in (job.lhs, job.rhs)]
        st = to_statement(sides, [STATEMENT_OP[job.op]], job.text, functions=None)
        got = session_for(job.assumptions, job.n_defs, job.functions).check_parsed(st).status.value
    except Exception:  # noqa: BLE001 - no other reading checked: it cannot stand for the step either
        return "the value the prose sets could not be substituted"
    if got == "refuted":
        return None
    shown = "; ".join(f"{n} = {v} ({w})" for n, (_, w) in values.items() for v in [unparse(values[n][0])])
    return _found(got, f"the value the prose sets substituted in every occurrence: {shown}")


def _index_dropped(job: Job):
    """``… log(1 + b_t z_t) = φ(0) − φ(z)``: a name written with an index on one side and without it on the other is,
    in the authors' favour, the same name (z_t is the z of φ(z)).  (lhs, rhs, the names) with the index dropped, or
    None when no name occurs both ways."""
    import copy

    def names(side):
        return {n.id for n in ast.walk(side) if isinstance(n, ast.Name)}

    def pairs(a, b):  # z_t on side a, z on side b
        return {n for n in names(a) if re.fullmatch(r"[A-Za-z]+_\w+", n) and n.split("_")[0] in names(b)}

    both = pairs(job.lhs, job.rhs) | pairs(job.rhs, job.lhs)
    if not both:
        return None

    class Drop(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.Name(id=node.id.split("_")[0], ctx=ast.Load()) if node.id in both else node
    return Drop().visit(copy.deepcopy(job.lhs)), Drop().visit(copy.deepcopy(job.rhs)), sorted(both)


PIECEWISE = ("Abs", "Max", "Min", "Heaviside", "Piecewise", "floor", "ceiling", "sign")


def _piecewise_region(job: Job, session_for) -> str | None:
    """An identity through |·|, max, min (r + |r - τ| = τ) holds on a region (r ≤ τ): a case the paper's text
    states, not an error.  Refuted only if it fails at every positive point tried."""
    import random
    import sympy as sp
    from ..build import Builder
    try:
        s = session_for(job.assumptions, job.n_defs, job.functions)
        s._fresh(job.lhs, job.rhs)
        s.resolve_names(job.lhs, job.rhs)
        b = Builder(s.scope, latex=True)
        lhs, rhs = sp.sympify(b.build_scalar(job.lhs)), sp.sympify(b.build_scalar(job.rhs))
    except Exception:
        return None
    if not any(f.func.__name__ in PIECEWISE for e in (lhs, rhs) for f in e.atoms(sp.Function)) and \
            not (lhs.has(sp.Abs) or rhs.has(sp.Abs) or lhs.has(sp.Max, sp.Min) or rhs.has(sp.Max, sp.Min)):
        return None
    syms = sorted((lhs - rhs).free_symbols | lhs.free_symbols | rhs.free_symbols, key=str)
    rnd = random.Random(11)
    for _ in range(200):
        point = {x: (sp.Integer(max(1, round(10 ** rnd.uniform(-2, 3)))) if x.is_integer else
                     sp.Float(10 ** rnd.uniform(-3, 3), 20)) for x in syms}
        try:
            l, r = lhs.xreplace(point).evalf(30), rhs.xreplace(point).evalf(30)
            if abs(l - r) <= 1e-18 * (abs(l) + abs(r) + 1e-300):
                shown = ", ".join(f"{k} = {_short_num(point[k])}" for k in syms[:5])
                return f"holds in one case of its |·|, max or min (e.g. at {shown})"
        except Exception:
            continue
    return None


def _somewhere(job: Job, session_for) -> str | None:
    """An inequality between free constants is a conditional step (``2ε < M ε`` needs M > 2): it is refuted only
    if it fails at every positive point tried, else the verdict names a point where it holds."""
    import random
    import sympy as sp
    from ..build import Builder
    try:
        s = session_for(job.assumptions, job.n_defs, job.functions)
        s._fresh(job.lhs, job.rhs)
        s.resolve_names(job.lhs, job.rhs)
        b = Builder(s.scope, latex=True)
        slack = sp.sympify(b.build_scalar(job.rhs) - b.build_scalar(job.lhs))  # > 0 where lhs < rhs
    except Exception:
        return None
    if job.op in (">", ">="):
        slack = -slack
    try:
        size = sp.Abs(b.build_scalar(job.lhs)) + sp.Abs(b.build_scalar(job.rhs))
    except Exception:
        return None
    syms = sorted(slack.free_symbols | size.free_symbols, key=str)
    if not syms or len(syms) > 12:
        return None
    bounds = _stated_bounds(job.assumptions)  # "∀ t ∈ (1, 2]": a point where it holds must be inside them
    rnd = random.Random(7)
    for _ in range(200):  # a fixed number of points, never a wall-clock budget: the same input, the same verdict
        point = {}
        for x in syms:
            lo, hi = bounds.get(str(x), (None, None))
            if lo is not None and hi is not None:
                v = lo + (hi - lo) * rnd.uniform(0.001, 0.999)
            else:
                v = 10 ** rnd.uniform(-3, 3)
                if lo is not None and v <= lo:
                    v = lo + v
                if hi is not None and v >= hi:
                    v = hi - v if hi > 0 else hi - 1 - v
            point[x] = sp.Integer(max(1, round(v))) if x.is_integer else sp.Float(v, 60)
            if x.is_integer and not ((lo is None or point[x] >= lo) and (hi is None or point[x] <= hi)):
                point = None
                break
        if point is None:
            continue
        try:  # 60 digits: a slack of -1e-25 relative is a failure, not a rounding tie
            val = slack.xreplace(point).evalf(60)
            scale = size.xreplace(point).evalf(60)
        except Exception:
            continue
        if not (val.is_real and scale.is_real) or scale == 0:
            continue
        strict = job.op in ("<", ">")
        try:
            # a point "where it holds" must hold clearly: a slack of -1e-2000 (A^{2j} at j = 1000) is no tie
            ok = bool((val > 1e-9 * scale) if strict else (val == 0 or val > 1e-30 * scale))
        except TypeError:
            continue
        if ok:
            shown = ", ".join(f"{k} = {_short_num(point[k])}" for k in syms[:5])
            return f"holds with some positive values (e.g. {shown}): a condition the paper may state elsewhere"
    return None


def _stated_bounds(assumptions) -> dict[str, tuple[float | None, float | None]]:
    """The numeric range each name's assumptions give (``1 < t <= 2`` → t: (1, 2)); names without one are absent."""
    from ..assume import parse_assumptions
    try:
        decl = parse_assumptions(list(assumptions))
    except Exception:
        return {}
    out: dict[str, tuple[float | None, float | None]] = {}
    for name in set(decl.lo) | set(decl.hi):
        lo = float(decl.lo[name][0]) if name in decl.lo else None
        hi = float(decl.hi[name][0]) if name in decl.hi else None
        out[name] = (lo, hi)
    return out


def _short_num(x) -> str:
    try:
        return f"{float(x):.3g}"
    except Exception:
        return str(x)


def _number(text):
    """A counterexample's value as an exact fraction (``"1"``, ``"-1/2"``, ``"0.25"``), or None."""
    from fractions import Fraction
    try:
        return Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        return None


def _value_at(node: ast.AST, point: dict):
    """The exact value of a small arithmetic expression (names, numbers, + − × ÷ and integer powers) at ``point``,
    or None when it writes anything else (a call, a name with no value)."""
    from fractions import Fraction
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return Fraction(node.value)
    if isinstance(node, ast.Name):
        return point.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _value_at(node.operand, point)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        a, b = _value_at(node.left, point), _value_at(node.right, point)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Div):
            return None if b == 0 else a / b
        if b.denominator == 1 and abs(b) <= 64 and (a != 0 or b >= 0):
            return a ** int(b)
    return None


def _plain_value(x):
    try:
        from ..result import _fmt
        return _fmt(x)
    except Exception:
        return str(x)


def _parallel(jobs: list[Job], settings, n: int) -> list[dict]:
    import multiprocessing as mp
    try:
        ctx = mp.get_context("fork")
    except ValueError:  # pragma: no cover - no fork: one process
        return run_jobs(jobs, settings)
    # small runs of neighbouring jobs, handed to whichever worker is free: the costly steps of a paper cluster in a
    # few proofs, and n equal halves left one worker with most of the work (weak-supervision-value: 17 s of CPU
    # against 1.4 s).  Neighbours share their sessions (same display, same assumptions); a job's result depends only
    # on the job, its seed and its definitions, never on which worker ran it or what ran before it.
    size = CHUNK_JOBS
    chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    global _SETTINGS
    _SETTINGS = settings
    with ctx.Pool(min(n, len(chunks))) as pool:
        parts = list(pool.imap(_chunk, chunks, chunksize=1))
    return [r for part in parts for r in part]


#: jobs handed to a worker at a time by :func:`_parallel`
CHUNK_JOBS = 4


_SETTINGS = None


def _chunk(jobs):
    return run_jobs(jobs, _SETTINGS)


# --- entry point -------------------------------------------------------------------------------------------

def check_paper(paths, assume=(), *, seed=None, timeout=DEFAULT_TIMEOUT, jobs=None, as_json=False, out=None,
                color=None, context: str = "free") -> int:
    out = out or sys.stdout
    t0 = time.time()
    if context != "free" and assume:
        raise BadInput("--assume is only for the free context (paper contexts declare their domains)")
    paper = Paper(list(paths), assume, seed, timeout, context)
    paper.read()
    paper.check(jobs)
    _unleak(paper)
    elapsed = time.time() - t0
    s = paper.summary()
    if as_json:
        out.write(json.dumps(to_json(paper, elapsed), ensure_ascii=False) + "\n")
    else:
        write_text(paper, out, elapsed, color)
    return 1 if s["refuted"] else 0


def _unleak(paper: Paper) -> None:
    """The checker's internal names of opaque atoms (``Var7`` for ``\\Var(|b_1|)``, ``Ex67``) in the rows' reasons
    and assumptions shown as the paper's LaTeX, ``⟦\\Var(|b_1|)⟧`` (they stay the checker's names inside the check)."""
    atoms = getattr(paper.names, "atoms", None) or {}
    if not atoms:
        return
    pattern = re.compile(r"(?<![A-Za-z0-9_\\])(" + "|".join(map(re.escape, sorted(atoms, key=len, reverse=True))) +
                         r")(?![A-Za-z0-9_])")

    def show(text: str) -> str:
        return pattern.sub(lambda m: f"⟦{atoms[m.group(1)]}⟧", text) if text else text
    for rel in paper.relations:
        rel.reason = show(rel.reason)
        rel.assumptions = [show(a) for a in rel.assumptions]


def parsed_count(paper: Paper) -> int:
    """The read relations whose text was parsed into a formula (a definition or a goal may be classified from its
    prose without being parsed: "read" counts those too)."""
    return sum(1 for r in paper.relations if r.status != "unreadable" and r.read_as)


def coverage_line(s: dict, parsed: int | None = None) -> str:
    pct = 100.0 * s["read"] / s["relations"] if s["relations"] else 0.0
    parsed_text = f", {parsed:,} parsed" if parsed is not None else ""
    return (f"{s['relations']:,} relations: {s['read']:,} read ({pct:.0f} %){parsed_text}, {s['checked']:,} checked — "
            f"{s['proved']} proved, {s['holds']} hold, {s['refuted']} refuted, {s['inconclusive']} inconclusive; "
            f"{s['ambiguous']} ambiguous, {s['not_a_step']} not a derivation step, {s['unreadable']} unreadable")


def to_json(paper: Paper, elapsed: float | None = None) -> dict:
    out = {"summary": paper.summary(), "parsed": parsed_count(paper), "relations": [r.row() for r in paper.relations],
           "first_wrong_steps": [{"file": r.file, "line": r.line, "chain": r.chain} for r in paper.relations
                                 if r.first_wrong],
           "files": paper.doc.files, "macros": paper.macros,
           "notes": [{"where": n.where if hasattr(n, "where") else n.origin,
                      "message": n.message} for n in paper.notes]}
    return out


def write_text(paper: Paper, out, elapsed: float, color=None) -> None:
    s = paper.summary()
    out.write(coverage_line(s, parsed_count(paper)) + f"  [{elapsed:.1f} s]\n")
    for r in paper.relations:
        shown = r.read_as if r.read_as else r.latex
        tag = r.status if r.status != "not_a_step" else f"not a step ({r.kind})"
        line = f"{r.file}:{r.line}: {tag:<14} {shown}"
        if r.reason:
            line += f"  —  {r.reason}"
        if r.readings:
            line += "  —  readings: " + " | ".join(r.readings)
        if r.notes:
            line += "  —  justification: " + "; ".join(r.notes)
        out.write(_short(line, 600) + "\n")
    for n in paper.notes:
        where = n.where if hasattr(n, "where") else n.origin
        out.write(f"note: {where}: {n.message}\n")
    wrong = [r for r in paper.relations if r.first_wrong]
    out.write(coverage_line(s, parsed_count(paper)) + "\n")
    if wrong:
        color = out.isatty() if color is None and hasattr(out, "isatty") else bool(color)
        mark = ("\033[1;31m", "\033[0m") if color else ("", "")
        out.write(f"{mark[0]}first wrong step of each chain ({len(wrong)}):{mark[1]}\n")
        for r in wrong:
            out.write(f"  {r.file}:{r.line}: {r.latex}\n    read as: {r.read_as}\n")
            if r.counterexample:
                out.write(f"    counterexample: {_ce(r.counterexample)}\n")


def _letter_runs(link) -> dict[str, list[str]]:
    """The capitals written together and applied (AR(θ)) in ``link``'s sides: word -> its letters."""
    runs: dict[str, list[str]] = {}
    for term in (link.lhs, link.rhs):
        runs.update(getattr(term.parser, "letter_runs", None) or {})
    return runs


def _run_name(name: str, runs: dict[str, list[str]]) -> ast.expr:
    """``name`` in a product reading: the product of its letters where it is a run of capitals (AR(θ) as A·R·θ)."""
    if name not in runs:
        return ast.Name(id=name, ctx=ast.Load())
    node: ast.expr = ast.Name(id=runs[name][0], ctx=ast.Load())
    for letter in runs[name][1:]:
        node = ast.BinOp(left=node, op=ast.Mult(), right=ast.Name(id=letter, ctx=ast.Load()))
    return node
