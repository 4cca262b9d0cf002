"""``python -m theoryverify new-paper NAME --from-tex paper.tex``: a paper package drafted from the paper's LaTeX.

The LaTeX reader (:mod:`theoryverify.check.tex`) reads every display; from its reading this module writes, on top
of the uniform layout of :mod:`theoryverify.scaffold`:

- ``printed/`` — every numbered or labelled display as a function returning the reader's SymPy expression (one
  relation: ``Eq``/``Le``/… unevaluated; a chain: the tuple of its relations), with its label, equation number,
  ``FILE:LINE`` and LaTeX source in its docstring (:func:`display_doc`); a display the reader cannot read is a
  commented ``TODO`` with the
  reason.  A matrix display whose matrices all have shapes the paper states (or a product with a stated one
  implies) is a function of them, with the module's ``SHAPES`` (:mod:`theoryverify.fromtex_shapes`), ready for
  ``tv.printed(display, SHAPES)``.  One module per ``\\section``.  The code is printed from SymPy objects (never ``eval``-ed text): names
  are the reader's, numbers exact (``S(1)/2``).
- ``claims/statements.py`` — every theorem, lemma, proposition and corollary as a claim stub with its statement
  quoted and its location set, expected ``inconclusive`` (``not yet checked``) until its check is written; its
  ``catalogue_id`` names the statement and the displays inside it (the check covers both);
- ``claims/steps.py`` — every derivation chain with a step the reader can check, as a claim registered in one
  call, :func:`theoryverify.texsteps.tex_chain` (so ``verify`` checks the paper's derivations from the first run);
  a display the reader classes as no derivation step (a definition, a parameter choice, a hypothesis …: the kinds
  of :mod:`theoryverify.check.tex.kinds`) is no claim — a claim that cannot pass would only be noise — but is listed
  there as skipped, with its kind and why; a definition defines its name for the steps after it, as in
  ``python -m theoryverify.check --tex``;
- ``spec/NAME.md`` — the catalogue: one id per numbered display and per theorem-like statement, and the
  relations that are no derivation step, each with its kind;
- ``paper/tex/`` — a copy of the paper's LaTeX files (what the step claims read).

No test file: the pytest plugin's ``<paper>.package-checks`` item (:mod:`theoryverify.package_checks`) builds every
display and checks every claim's location; no ``ORDER`` line when the claims modules sort in the paper's order.

Equation numbers are counted in order (``equation`` one, ``align``/``gather`` one per row without ``\\nonumber``,
``\\tag`` as written); with ``\\numberwithin``/``\\counterwithin`` they are not given (the label and line are).
"""
from __future__ import annotations

import ast
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import sympy as sp
from sympy.printing.str import StrPrinter

from .errors import TheoryverifyError
from .fromtex_shapes import Inference, NotShaped, dims_code, shaped, stated_dims

THEOREMS = ("theorem", "lemma", "proposition", "corollary")
NUMBERED_ONE = {"equation", "multline", "dmath"}
NUMBERED_ROWS = {"align", "gather", "eqnarray", "flalign", "alignat", "xalignat", "xxalignat", "IEEEeqnarray"}
RELATIONS = {"=": "Eq", ":=": "Eq", "=:": "Eq", "<": "Lt", "<=": "Le", ">": "Gt", ">=": "Ge", "!=": "Ne"}
LABEL_RE = re.compile(r"\\label\s*\{([^{}]{1,80})\}")
TAG_RE = re.compile(r"\\tag\*?\s*\{([^{}]{1,40})\}")
NOTAG_RE = re.compile(r"\\(?:nonumber|notag)(?![A-Za-z])")
SECTION_RE = re.compile(r"\\section\*?\s*(?:\[[^\]]*\])?\s*\{([^{}]{0,120})\}")
PER_SECTION_RE = re.compile(r"\\(?:numberwithin|counterwithin)\s*\{equation\}")
NEWTHEOREM_RE = re.compile(r"\\(?:newtheorem|declaretheorem|spnewtheorem)\s*\*?\s*\{([^{}]{1,40})\}\s*"
                           r"(?:\[[^\]]*\]\s*)?\{([^{}]{1,40})\}")


class FromTexError(TheoryverifyError, ValueError):
    """The LaTeX cannot be drafted from (front-ends print it on one line, exit 2)."""


@dataclass
class Entry:
    """One numbered or labelled display: what ``printed/`` gets for it."""
    name: str  # the Python function name
    labels: list[str]
    numbers: list[str]
    where: str  # FILE:LINE of the display
    latex: str
    section: int
    relations: list[tuple[str, sp.Basic, sp.Basic]] = field(default_factory=list)  # (op, lhs, rhs)
    unread: list[str] = field(default_factory=list)  # why a relation (or the display) was not transcribed
    relation_status: list[str] = field(default_factory=list)  # the reader's status of each relation
    opaque: dict[str, str] = field(default_factory=dict)  # placeholder name -> the LaTeX the reader did not read
    caveats: list[str] = field(default_factory=list)  # how the reading differs from the paper (vectors as scalars)
    kinds: list[tuple[str, str]] = field(default_factory=list)  # (kind, why) of each relation that is not a step
    #: why the reading needs the author's review: read ambiguously (both readings named) or lossily (a name of the
    #: LaTeX gone from the SymPy form); such a display is not counted transcribed
    review: list[str] = field(default_factory=list)
    noncommuting: set[str] = field(default_factory=set)  # the names drafted as matrices (a matrix display)
    pos: int = -1  # where the display starts in the paper's text (which statement holds it)
    #: the relations with the matrices as MatrixSymbols of their shapes (:mod:`theoryverify.fromtex_shapes`): the
    #: display is drafted as a function of them, for ``tv.printed(display, SHAPES)``; empty when not all are sized
    shaped: list[tuple[str, sp.Basic, sp.Basic]] = field(default_factory=list)
    shapes: dict[str, tuple] = field(default_factory=dict)  # of each matrix of ``shaped``: name -> (rows, cols)

    @property
    def transcribed(self) -> bool:
        """Every relation transcribed, with nothing left opaque and nothing to review."""
        return bool(self.relations) and not self.unread and not self.opaque and not self.review


@dataclass
class Statement:
    """A theorem, lemma, proposition or corollary."""
    name: str
    kind: str  # theorem | lemma | proposition | corollary
    label: str | None
    where: str
    text: str  # its LaTeX source, as written
    #: the printed entries (display names) inside the statement: its stub's ``catalogue_id`` lists their ids too, so
    #: the check written for the statement covers the displays it states (catalogue coverage)
    displays: list[str] = field(default_factory=list)


@dataclass
class ChainClaim:
    """A derivation chain the step checker reads: ``where`` is its first relation."""
    name: str
    where: str
    ops: set[str]
    display: str | None  # the printed entry of its display, if numbered or labelled
    latex: str
    #: why the step checker leaves the chain undecided when drafted (:func:`decide_chains`), else None
    undecided: str | None = None


@dataclass
class Skipped:
    """A displayed relation the reader classes as no derivation step: not registered, listed with its kind."""
    where: str
    kind: str  # one of theoryverify.check.tex.kinds.KINDS other than "step"
    why: str
    latex: str


@dataclass
class Defined:
    """A function the paper defines by a ``% theoryverify: define f(x) := …`` line: ``printed/`` drafts it as
    ``f = Lambda(x, …)`` (its definition), never as an unknown ``Function('f')``."""
    params: tuple[sp.Symbol, ...]
    body: sp.Basic | None  # None: the body could not be built (``why``), and f stays Function('f') with a TODO
    text: str  # the definition as written
    where: str  # FILE:LINE of the directive
    why: str = ""


@dataclass
class Draft:
    """What the reader found in the paper, ready to be written."""
    main: str  # the main file, relative to the paper's folder
    root: Path
    files: list[str]
    sections: list[str]
    entries: list[Entry]
    statements: list[Statement]
    chains: list[ChainClaim]
    numbered: int  # numbered or labelled displays
    skipped: list[Skipped] = field(default_factory=list)
    #: functions the paper defines (``% theoryverify: define f(x) := …``): name -> its definition, drafted with it
    functions: dict[str, "Defined"] = field(default_factory=dict)
    #: names the prose defines in inline maths (``with residual $r = a b x - y$``): name -> (LaTeX, FILE:LINE), noted
    #: beside every drafted display that keeps the name a free symbol (author 11's D4)
    prose_definitions: dict[str, tuple[str, str]] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return {"numbered_or_labelled": self.numbered, "transcribed": sum(e.transcribed for e in self.entries),
                "review": sum(bool(e.relations and e.review) for e in self.entries),
                "partly": sum(bool(e.relations) and not e.transcribed and not e.review for e in self.entries),
                "todo": sum(not e.relations for e in self.entries), "statements": len(self.statements),
                "chains": len(self.chains), "skipped": len(self.skipped),
                "undecided": sum(bool(c.undecided) for c in self.chains)}


# --- reading ---------------------------------------------------------------------------------------------------

def _ident(text: str, prefix: str = "eq") -> str:
    out = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    if not out or not out[0].isalpha():
        out = f"{prefix}_{out}".rstrip("_")
    return out[:48].rstrip("_")


def _unique(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken or out in RESERVED_NAMES:
        out, k = f"{name}_{k}", k + 1
    taken.add(out)
    return out


RESERVED_NAMES = {"SOURCE", "SHAPES", "sp", "S", "Symbol", "Function", "Eq", "Le", "Lt", "Ge", "Gt", "Ne"}


def _numbers(env: str, body: str, counter: list[int], per_section: bool) -> list[str]:
    """The equation numbers a display gets (and advances ``counter``)."""
    from .check.tex import displays as D

    base, starred = env.rstrip("*"), env.endswith("*")
    tags = TAG_RE.findall(body)
    if starred or base not in NUMBERED_ONE | NUMBERED_ROWS:
        return [f"({t})" for t in tags]
    if base in NUMBERED_ONE:
        rows = [body]
    else:
        rows = [r for _, r in D._top_level_split(body, "\\\\") if r.strip()]
    out = []
    for row in rows:
        tag = TAG_RE.search(row)
        if tag:
            out.append(f"({tag.group(1)})")
        elif not NOTAG_RE.search(row):
            counter[0] += 1
            out.append("" if per_section else f"({counter[0]})")
    return out


def read(tex: str | Path) -> Draft:
    """Read ``tex`` with the LaTeX reader and collect the draft (nothing written, nothing checked)."""
    from .check.parser import BadInput
    from .check.tex.run import Paper

    tex = Path(tex)
    if not tex.is_file():
        raise FromTexError(f"--from-tex {tex}: no such file")
    try:
        paper = Paper([str(tex)])
        paper.read()
    except BadInput as exc:
        raise FromTexError(f"--from-tex {tex}: {' '.join(str(exc).split())}") from None
    doc = paper.doc
    text = doc.text
    per_section = bool(PER_SECTION_RE.search(text))
    sections = [(m.start(), m.group(1)) for m in SECTION_RE.finditer(text, doc.body_start)]

    def section_of(pos: int) -> int:
        return sum(1 for s, _ in sections if s <= pos)

    rels_by_display: dict[int, list] = {}
    spans = [(d.body_start, d.body_start + len(d.body)) for d in paper.displays]
    for rel in paper.relations:
        for k, (a, b) in enumerate(spans):
            if a <= rel.pos < b:
                rels_by_display.setdefault(k, []).append(rel)
                break
    counter, taken = [0], set()
    first_of_chain: dict[int, object] = {}
    for rel in paper.relations:
        first_of_chain.setdefault(rel.chain, rel)
    display_of_chain: dict[int, str] = {}
    from .check import build
    old_powers, build.REAL_POWERS = build.REAL_POWERS, True  # x^alpha with a real alpha, as the reader checks it
    try:
        entries, numbered = _entries(paper, rels_by_display, counter, taken, per_section, section_of,
                                     display_of_chain)
    finally:
        build.REAL_POWERS = old_powers
    statements = _statements(paper, taken, entries)
    chains = _chains(paper, first_of_chain, display_of_chain, taken)
    checked = {paper.relations[j.index].chain for j in paper.jobs}
    skipped = [Skipped(f"{r.file}:{r.line}", r.kind, " ".join((r.reason or "").split()), " ".join(r.latex.split()))
               for r in paper.relations if r.kind != "step" and r.chain not in checked]
    return Draft(doc.main, doc.root, list(doc.files), [t for _, t in sections], entries, statements, chains, numbered,
                 skipped, _defined_functions(paper), _prose_definitions(doc, paper.displays))


#: inline maths that is a whole definition of one name: ``$r = a b x - y$``, ``$L := \lambda_{\max}(X)$``
INLINE_DEF_RE = re.compile(r"(?<![\\$])\$\s*(\\[A-Za-z]+|[A-Za-z])\s*(?::=|\\coloneqq|\\triangleq|=)\s*([^$=<>]{1,120}?)\s*\$(?!\$)")


def _prose_definitions(doc, displays) -> dict[str, tuple[str, str]]:
    """The names the prose (outside every display) defines by a whole inline relation ``$NAME = expr$`` whose right
    side names something (``$r = a b x - y$``, not ``$x = 0$``): name as the reader names it -> (the inline LaTeX,
    FILE:LINE of its first such definition).  Only noted in the draft, never used as a value: a sentence may also
    write ``$x = y$`` as a condition."""
    from .check.latex import GREEK

    text = doc.text
    spans = [(d.start, d.end_pos or d.body_start + len(d.body)) for d in displays]
    out: dict[str, tuple[str, str]] = {}
    for m in INLINE_DEF_RE.finditer(text, doc.body_start):
        if any(a <= m.start() < b for a, b in spans):
            continue
        name, rhs = m.group(1), m.group(2)
        if name.startswith("\\") and name[1:] not in GREEK:
            continue
        key = GREEK[name[1:]] if name.startswith("\\") else name
        if not re.search(r"[A-Za-z]", re.sub(r"\\(?:frac|sqrt|left|right|cdot|log|exp)\b", "", rhs)):
            continue  # a value ($x = 0$, $n = 10$): a setting or a condition, not a definition by an expression
        f, line = doc.where(m.start())
        out.setdefault(key, (" ".join(m.group(0).split()), f"{f}:{line}"))
    return out


def _defined_functions(paper) -> dict[str, Defined]:
    """The functions the paper defines by ``% theoryverify: define f(x, …) := …`` (a later line of the same name
    replaces an earlier one, as in the reader), each with its body built as the reader builds a display."""
    from .check.parser import BadInput, parse_definition

    out: dict[str, Defined] = {}
    for pos, text in getattr(paper, "plain_defines", ()):
        try:
            d = parse_definition(text, None)
        except BadInput:
            continue
        if d is None or not d.params:
            continue
        f, line = paper.doc.where(pos)
        params = tuple(sp.Symbol(p) for p in d.params)
        try:
            if any(keyword_like(p) or p in RESERVED_NAMES for p in d.params):
                raise ValueError(f"a parameter name Python cannot take ({', '.join(d.params)})")
            body = _builder(set()).build(d.expr)
            if not isinstance(body, sp.Basic):
                raise TypeError("not a SymPy expression")
            out[d.name] = Defined(params, body, text, f"{f}:{line}")
        except Exception as exc:  # noqa: BLE001 - a body SymPy cannot build stays an unknown function, with why
            out[d.name] = Defined(params, None, text, f"{f}:{line}", f"{type(exc).__name__}: {exc}")
    return out


def _entries(paper, rels_by_display, counter, taken, per_section, section_of, display_of_chain):
    from .check.tex.reading import plain

    doc = paper.doc
    entries: list[Entry] = []
    numbered = 0
    plains: dict[int, tuple] = {}  # id(rel) -> (lhs, rhs) as plain ASTs, functions known
    for rel in paper.relations:
        link = rel.link
        if rel.status == "unreadable" or link is None or not link.readable:
            continue
        fam: dict[str, int] = {}
        try:
            fns = paper.names.defined | {f for p in (link.lhs.parser, link.rhs.parser) if p for f in p.applied}
            plains[id(rel)] = (plain(link.lhs.node, fns, fam), plain(link.rhs.node, fns, fam), fns)
        except Exception:  # noqa: BLE001 - built below again, where the failure becomes a TODO with the reason
            pass
    shapes = _Shapes.of(paper, [plains[id(r)] for r in paper.relations if id(r) in plains])
    for k, d in enumerate(paper.displays):
        labels = LABEL_RE.findall(d.body)
        nums = _numbers(d.env, d.body, counter, per_section)
        if not labels and not nums:
            continue
        numbered += 1
        f, line = doc.where(d.start)
        base = _ident(labels[0]) if labels else (f"eq{nums[0].strip('()')}" if nums and nums[0] else f"eq_l{line}")
        entry = Entry(_unique(_ident(base), taken), labels, [n for n in nums if n], f"{f}:{line}",
                      " ".join(LABEL_RE.sub("", d.body).split()), section_of(d.start))
        entry.pos = d.start
        rels = rels_by_display.get(k, [])
        if not rels:
            entry.unread.append("the reader found no relation in it (an expression or a construct it does not know)")
        # a display that transposes, takes a trace, determinant or pseudo-inverse, or names a matrix: its names
        # are non-commutative symbols (but the numbers the paper shows), never scalars whose products commute
        noncommuting, why_matrix = shapes.noncommuting([plains[id(r)] for r in rels if id(r) in plains])
        for rel in rels:
            entry.relation_status.append(rel.status)
            if rel.kind != "step":
                entry.kinds.append((rel.kind, " ".join((rel.reason or "").split())))
            link = rel.link
            if rel.status == "unreadable" or link is None or not link.readable:
                entry.unread.append(f"{rel.file}:{rel.line}: {' '.join((rel.reason or 'cannot be read').split())}")
                continue
            try:
                if id(rel) not in plains:
                    fns = paper.names.defined | {f for p in (link.lhs.parser, link.rhs.parser) if p for f in p.applied}
                    fam: dict[str, int] = {}
                    plains[id(rel)] = (plain(link.lhs.node, fns, fam), plain(link.rhs.node, fns, fam), fns)
                lhs_node, rhs_node, _ = plains[id(rel)]
                lhs = _builder(noncommuting).build(lhs_node)
                rhs = _builder(noncommuting).build(rhs_node)
                if not all(isinstance(x, sp.Basic) for x in (lhs, rhs)):
                    raise TypeError("not a SymPy expression")
            except Exception as exc:  # noqa: BLE001 - a term SymPy cannot build is a TODO with the reason
                matrix = " with its matrices as non-commutative symbols" if noncommuting else ""
                entry.unread.append(f"{rel.file}:{rel.line}: no SymPy expression{matrix} ({type(exc).__name__}: "
                                    f"{' '.join(str(exc).split())[:120]})")
                continue
            entry.relations.append((link.op, lhs, rhs))
            entry.review += _review(paper, rel, link, (lhs, rhs))
            bold = [] if noncommuting else shapes.bold_products([plains[id(rel)]])
            if bold:
                entry.review.append(f"{rel.file}:{rel.line}: {', '.join(bold)} (bold) read as a number: its products "
                                    f"commute in this draft, a vector's or matrix's do not — if it is one, "
                                    f"transcribe the display by hand (a transpose, trace or "
                                    f"'\\in \\mathbb{{R}}^{{d}}' in the paper makes it a non-commutative symbol)")
            for parser in (link.lhs.parser, link.rhs.parser):
                if parser is None:
                    continue
                entry.opaque.update(parser.opaque)
                for what in sorted(parser.vector_ops):
                    if noncommuting:
                        note = f"{what} read with non-commutative symbols (shapes not given)"
                    else:
                        note = f"{what} read in one dimension (vector and matrix products commute in this SymPy form)"
                    if note not in entry.caveats:
                        entry.caveats.append(note)
        entry.noncommuting = set(noncommuting)
        if noncommuting and entry.relations:
            entry.caveats.insert(0, f"matrices: {', '.join(sorted(noncommuting))} are non-commutative symbols "
                                    f"({why_matrix}) — TODO their shapes (a MatrixSymbol each); a number among them: "
                                    f"'% theoryverify: scalar NAME'")
        for rel in rels:
            display_of_chain.setdefault(rel.chain, entry.name)
        entries.append(entry)
    _shape(entries, shapes)
    return entries, numbered


def _shape(entries: list[Entry], shapes: "_Shapes") -> None:
    """Give each matrix display whose matrices all have a shape — stated by the paper or read from a product with
    one (:mod:`theoryverify.fromtex_shapes`, paper-wide) — its shaped relations, in place of the TODO."""
    matrix = [e for e in entries if e.noncommuting and e.relations and not e.unread and not e.review]
    stated = {n: shapes.stated_shape(n) for e in matrix for n in e.noncommuting}
    stated = {n: d for n, d in stated.items() if d}
    known = Inference(stated).infer([side for e in matrix for _, lhs, rhs in e.relations for side in (lhs, rhs)])
    for e in matrix:
        try:
            e.shaped, names = shaped(e.relations, known, e.latex)
        except NotShaped:
            continue
        e.shapes = {n: known[n] for n in names}
        how = [f"{n} {dims_code(known[n])}" + (" (stated)" if n in stated else " (read from a product or sum with a "
                                                                              "stated shape)") for n in names]
        e.caveats = [c for c in e.caveats if "(shapes not given)" not in c and not c.startswith("matrices:")]
        e.caveats.insert(0, f"matrices: {', '.join(how)} — arguments sized by SHAPES (the paper's shapes): "
                            f"tv.printed({e.name}, SHAPES) is a side of an _over check"
                            + (" (a transpose is .T)" if "transpose" in str(e.relations) else ""))


#: the reader's calls only a matrix (or vector) takes: ``X^\\top``, ``\\operatorname{tr}``, ``\\det``, ``X^\\dagger``
MATRIX_OPS = {"transpose": "transposed", "trace": "in a trace", "tr": "in a trace", "Tr": "in a trace",
              "det": "in a determinant", "pinv": "pseudo-inverted"}


@dataclass
class _Shapes:
    """Which names of the paper are matrices and which are numbers, from what the paper writes (paper-wide).

    The rule (documented in docs/tutorial.md, ``printed/``): a name is a **matrix** (or vector) when the paper
    transposes it (``X^\\top``, ``X^T``, ``X^{\\mathsf T}``, ``X^{-\\top}``), takes its trace, determinant or
    pseudo-inverse (``\\operatorname{tr} X``, ``\\det X``, ``X^\\dagger``), or writes it in a space of vectors or
    matrices (``X \\in \\mathbb{R}^{n \\times d}``, ``A, B \\in …``); a factor of a product so transposed or traced
    (``(XW)^\\top``, ``\\operatorname{tr}(AB)``) is one unless the paper shows it a number.  A bold or capital letter
    alone is no evidence, nor is ``X^{-1}`` (numbers have inverses) or ``X'`` (read as a derivative or another name).
    A name is a **number** when the paper declares it (``% theoryverify: scalar eta``), compares it with a number
    (``0 < \\eta < 1``), puts it in an interval or in ℝ (``\\eta \\in (0, 1)``), or the display divides by it
    (``/n``, or a product of it and numbers: ``\\frac{1}{2n}``) — direct matrix evidence wins over number
    evidence.  A *matrix display* writes a transpose, trace, determinant or pseudo-inverse, or a matrix name: every
    name in it is a non-commutative symbol but the numbers (``W`` in ``X^\\top X W`` may be a matrix: nothing says
    it is a number); other displays keep commutative scalars."""
    matrices: dict[str, str]  # evidence key -> why it is a matrix
    scalars: set[str]  # evidence keys shown to be numbers
    declared: set[str]
    #: evidence key -> the shape the paper states for it, ``("n", "d")`` (:mod:`theoryverify.fromtex_shapes`)
    stated: dict[str, tuple] = field(default_factory=dict)

    def stated_shape(self, name: str) -> tuple | None:
        return next((self.stated[k] for k in self._keys(name) if k in self.stated), None)

    @classmethod
    def of(cls, paper, plains) -> "_Shapes":
        from .check.tex import names as N

        matrices: dict[str, str] = {}
        factors: dict[str, str] = {}  # a factor in a transpose or trace ((XW)^T, tr(AB)): unless a number
        for lhs, rhs, _fns in plains:
            for node in (n for side in (lhs, rhs) for n in ast.walk(side)):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MATRIX_OPS \
                        and len(node.args) == 1:
                    arg, what = node.args[0], MATRIX_OPS[node.func.id]
                    if isinstance(arg, ast.Name):
                        matrices.setdefault(arg.id, f"{arg.id} {what}")
                    for name in _factors(arg):
                        factors.setdefault(name, f"{name} a factor {what}")
        scalars = set(paper.names.ev.bounded)
        text = paper.doc.text
        stated: dict[str, set] = {}  # evidence key -> the shapes the paper states (X \in \mathbb{R}^{n \times d})
        for m in N.NAME_RE.finditer(text):
            s = N.SCRIPT_RE.match(text, m.end())
            after = s.end() if s else m.end()
            key = N.key_of(m)
            while True:  # A, B \in \mathbb{R}^{d \times d}: each name of the list
                more = re.match(r"\s*,\s*", text[after:after + 8])
                nxt = N.NAME_RE.match(text, after + more.end()) if more else None
                if not nxt:
                    break
                s = N.SCRIPT_RE.match(text, nxt.end())
                after = s.end() if s else nxt.end()
            if N.MEMBER_RE.match(text, after):
                matrices.setdefault(key, f"{key} in a space of vectors or matrices")
                stated.setdefault(key, set()).add(stated_dims(text, after))
            elif N.NUMBER_MEMBER.match(text, after):
                scalars.add(key)
        out = cls(matrices, scalars, set(paper.declared_scalars),
                  {k: next(iter(v)) for k, v in stated.items() if len(v) == 1 and None not in v})
        for name, why in factors.items():
            if not out.number(name):
                out.matrices.setdefault(name, why)
        return out

    def _keys(self, name: str) -> list[str]:
        from .check.tex.names import Names
        return Names.evidence_keys(name)

    def matrix(self, name: str) -> str | None:
        return next((self.matrices[k] for k in self._keys(name) if k in self.matrices), None)

    def number(self, name: str) -> bool:
        return name in self.declared or any(k in self.scalars or k in self.declared for k in self._keys(name))

    def noncommuting(self, plains) -> tuple[set[str], str]:
        """The names of a display (its relations' plain ASTs) drafted as non-commutative symbols, and why (empty
        when the display is no matrix display)."""
        from .check.tex.reading import names_in

        names: set[str] = set()
        ops: list[str] = []
        divisors: set[str] = set()
        for lhs, rhs, fns in plains:
            for side in (lhs, rhs):
                names |= names_in(side, fns)
                for node in ast.walk(side):
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MATRIX_OPS:
                        ops.append(node.func.id)
                    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):  # /n, \frac{1}{2n}
                        divisors.update(_factors(node.right))
        whys = {n: self.matrix(n) for n in names}
        whys = {n: w for n, w in whys.items() if w}
        if not ops and not whys:
            return set(), ""
        out = {n for n in names if n in whys or not (self.number(n) or n in divisors)}
        nouns = {"transpose": "transpose", "det": "determinant", "pinv": "pseudo-inverse"}
        why = "; ".join(dict.fromkeys(whys[n] for n in sorted(whys))) or \
            f"a {' and a '.join(dict.fromkeys(nouns.get(o, 'trace') for o in ops))} here"
        return out, why

    def bold_products(self, plains) -> list[str]:
        """Bold names (no other sign of a matrix: read as numbers) multiplied by another name that is not shown a
        number: the drafted product commutes, which a vector's or matrix's would not."""
        from .check.tex.run import BOLD_NAME

        out: list[str] = []
        for lhs, rhs, _fns in plains:
            for node in (n for side in (lhs, rhs) for n in ast.walk(side)):
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                    factors = [f for f in _factors(node) if not self.number(f)]
                    if len(factors) >= 2:
                        out += [f for f in factors if BOLD_NAME.search(f.split("_")[0])]
        return list(dict.fromkeys(out))


def _factors(node: ast.expr) -> list[str]:
    """The names multiplied in ``node`` (a product's factors, through powers and signs)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return _factors(node.left)
    if isinstance(node, ast.UnaryOp):
        return _factors(node.operand)
    return [node.id] if isinstance(node, ast.Name) else []


def _builder(noncommuting: set[str]):
    """The reader's display builder, with the names ``noncommuting`` as non-commutative SymPy symbols."""
    from .check.build import DisplayBuilder, _DisplayScope
    from .stepcontext import StepContext

    builder = DisplayBuilder()
    if noncommuting:
        class Scope(_DisplayScope):
            def resolve(self, name: str):
                if name in noncommuting and not any(name in frame for frame in self.local):
                    return sp.Symbol(name, commutative=False)
                return super().resolve(name)

        builder.scope = Scope(StepContext("display", "", []))
    return builder


def _review(paper, rel, link, built: tuple[sp.Basic, sp.Basic]) -> list[str]:
    """Why a relation's reading needs review, with both readings where there are two (the step checker's ambiguity
    machinery: its product reading, its wording): a name applied to arguments with no evidence either way, or only
    the evidence of being applied to different arguments (``\\eta(\\lambda_1 - \\lambda_2)``: η of a difference,
    or η times it? :meth:`~theoryverify.check.tex.names.Names.weak_function`); e as a number or a name; a
    superscript label or a power; and a name of the LaTeX that the SymPy form lost (``w^\\top \\Sigma w / w^\\top w``
    read in one dimension cancels w to ``Sigma``)."""
    from .check.tex.reading import integral_infinities, integral_variables
    from .check.tex.run import _ambiguity, _ast_names

    where = f"{rel.file}:{rel.line}"
    parsers = [p for p in (link.lhs.parser, link.rhs.parser) if p is not None]
    out = []
    read_as = paper._read_as(link)
    ambiguous = set().union(*(p.ambiguous for p in parsers))
    weak = {n for p in parsers for n in p.applied if paper.names.weak_function(n)}
    if ambiguous:
        out.append(f"{where}: {_ambiguity(ambiguous, paper.names)}; read as: {read_as}; or: "
                   f"{paper._product_reading(link, ambiguous)}")
    if weak - ambiguous:
        names = ", ".join(sorted(weak - ambiguous))
        out.append(f"{where}: {names}(…) read as a function applied (the paper applies {names} to different "
                   f"arguments, and nothing else says it is a function) — or a product? Read as: {read_as}; or: "
                   f"{paper._product_reading(link, weak - ambiguous)} (declare it: '% theoryverify: scalar "
                   f"{sorted(weak - ambiguous)[0]}' or '% theoryverify: function {sorted(weak - ambiguous)[0]}')")
    if any(p.ambiguous_e for p in parsers):
        out.append(f"{where}: e: Euler's number or the paper's name e? Read as: {read_as}")
    labels = set().union(*(p.labels for p in parsers))
    if labels:
        out.append(f"{where}: {', '.join(sorted(labels))}: a power, or a name with a superscript label? "
                   f"Read as: {read_as}")
    for side, expr in zip((link.lhs, link.rhs), built):
        if side.parser is None:
            continue
        called = {n.func.id for n in ast.walk(side.node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        subs = [n for n in ast.walk(side.node) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)]
        in_subs = set().union(*(_ast_names(n) for n in subs))  # lam[j] is the symbol lam_j: judged by its base
        written = _ast_names(side.node) - called - set(side.parser.opaque) - in_subs - \
            integral_variables(side.node) - integral_infinities(side.node)  # ∫_0^1 g(t) dt binds t: none is lost
        kept = {str(x) for x in expr.free_symbols} | {str(getattr(x, "name", x)) for x in expr.atoms(sp.IndexedBase)}
        lost = {n for n in written if n not in kept and not hasattr(sp, n) and n not in ("e", "pi", "evar")}
        lost |= {n.value.id for n in subs if n.value.id not in called and n.value.id not in kept
                 and not any(k.startswith(n.value.id + "_") for k in kept)}
        lost = sorted(lost)
        if lost:
            out.append(f"{where}: the SymPy form {expr} has lost {', '.join(lost)} of the LaTeX "
                       f"({' '.join(side.latex.split())[:120]}): read in one dimension (products commute), it "
                       f"cancels — transcribe it by hand")
    return out


def _theorem_kinds(text: str) -> dict[str, str]:
    """Environment name → theorem | lemma | proposition | corollary (``\\newtheorem{thm}{Theorem}`` included)."""
    out = {k: k for k in THEOREMS}
    for env, title in NEWTHEOREM_RE.findall(text):
        word = title.strip().lower()
        if word in THEOREMS:
            out[env.strip()] = word
    return out


def _statements(paper, taken: set[str], entries: list[Entry] = ()) -> list[Statement]:
    doc = paper.doc
    kinds = _theorem_kinds(doc.text)
    out, counts = [], {}
    for name, start, end in paper.spans:
        kind = kinds.get(name) or kinds.get(name.lower())
        if kind is None:
            continue
        counts[kind] = counts.get(kind, 0) + 1
        f, line = doc.where(start)
        f_end, line_end = doc.where(max(start, end - 1))
        source = _source_lines(doc.root / f, line, line_end) if f_end == f else None
        body = _live(source if source is not None else doc.text[start:end])
        label = LABEL_RE.search(doc.text[start:end])
        base = _ident(label.group(1), kind) if label else f"{kind}_{counts[kind]}"
        out.append(Statement(_unique(base, taken), kind, label.group(1) if label else None, f"{f}:{line}",
                             body.strip(), [e.name for e in entries if start <= e.pos < end]))
    return out


def _live(text: str) -> str:
    """LaTeX as typeset: each comment removed, and a line that held only a comment dropped (a stub quotes, and its
    kind is read from, what the paper prints — never the authors' commented-out drafts)."""
    from .check.tex.source import COMMENT_RE

    out = []
    for line in text.split("\n"):
        live = COMMENT_RE.sub(lambda m: m.group(1), line)
        if live.strip() or not line.strip():
            out.append(live.rstrip())
    return "\n".join(out)


def _source_lines(path: Path, first: int, last: int) -> str | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return "\n".join(lines[first - 1:last]) if 0 < first <= last <= len(lines) else None


def _chains(paper, first_of_chain: dict, display_of_chain: dict, taken: set[str]) -> list[ChainClaim]:
    """The chains with at least one step the checker will run (a job), named by their display or line."""
    checked = {paper.relations[j.index].chain for j in paper.jobs}
    out = []
    for chain in sorted(checked):
        first = first_of_chain[chain]
        rels = [r for r in paper.relations if r.chain == chain]
        stem = display_of_chain.get(chain) or _ident(f"{Path(first.file).stem}_l{first.line}")
        name = _unique(f"steps_{stem}", taken)
        latex = " ".join(" ".join(r.latex.split()) for r in rels[:1])
        if len(rels) > 1:
            latex += " …"
        out.append(ChainClaim(name, f"{first.file}:{first.line}", {r.link.op for r in rels if r.link is not None},
                              display_of_chain.get(chain), latex[:300]))
    return out


# --- SymPy expressions as Python source ------------------------------------------------------------------------

class _Printer(StrPrinter):
    """SymPy's printer with exact fractions written ``S(1)/2`` (Python would make ``1/2`` a float); integers plain."""

    def __init__(self) -> None:
        super().__init__({"order": "none"})

    def _print_Rational(self, expr) -> str:
        return f"S({expr.p})/{expr.q}" if expr.q != 1 else str(expr.p)

    def _print_Float(self, expr) -> str:  # a decimal as printed, exactly (Float is SymPy's)
        return f"Float({str(expr)!r})"

    def _print_MatMul(self, expr) -> str:  # X.T*(X*w - y)/n, never 1/n*X.T*…: 1/n of a whole n is no float
        from sympy.printing.precedence import PRECEDENCE

        c, mats = expr.as_coeff_matrices()
        num, den = sp.fraction(c)
        parts = [self.parenthesize(m, PRECEDENCE["Mul"], strict=False) for m in mats]
        if num not in (1, -1):
            parts.insert(0, self.parenthesize(num, PRECEDENCE["Mul"], strict=False))
        text = ("-" if num == -1 else "") + "*".join(parts)
        return text if den == 1 else f"{text}/{self.parenthesize(den, PRECEDENCE['Mul'], strict=True)}"

    def _print_lambda_max(self, expr) -> str:
        return f"tv.lambda_max({self._print(expr.args[0])})"

    def _print_lambda_min(self, expr) -> str:
        return f"tv.lambda_min({self._print(expr.args[0])})"


def _spectral(e: sp.Basic) -> sp.Basic:
    """``e`` with the reader's λ_max / λ_min of a matrix (``lam_smax(X^T X)``, an unknown function to the reader)
    as :func:`theoryverify.lambda_max` / :func:`theoryverify.lambda_min`, which ``Within`` and the checks read."""
    from .check.tex.names import SPECTRAL
    from .dependent import lambda_max, lambda_min

    swap = {}
    for f in e.atoms(sp.core.function.AppliedUndef):
        name = type(f).__name__
        if len(f.args) == 1 and SPECTRAL.fullmatch(name) and name.startswith("lam_"):
            swap[f] = (lambda_max if name.endswith("max") else lambda_min)(f.args[0])
    return e.xreplace(swap) if swap else e


class _Code:
    """The symbols and functions a printed module declares, and the SymPy names it imports."""

    def __init__(self) -> None:
        self.symbols: set[str] = set()
        self.noncommuting: set[str] = set()  # of symbols: matrices, declared Symbol(name, commutative=False)
        self.functions: set[str] = set()
        self.imports: set[str] = {"Eq", "S"}
        self.tv = False  # does the module use theoryverify (tv.lambda_max)?
        self.defined: set[str] = set()  # functions written with their definition (f = Lambda(x, …))
        self.notes: list[str] = []  # TODO lines after the declarations

    def expr(self, e: sp.Basic) -> str:
        """Python source that builds ``e`` (SymPy's printer; checked name by name, else ``srepr``)."""
        e = _spectral(e)
        text = _Printer().doprint(e)
        symbols = {s.name for s in e.free_symbols | e.atoms(sp.Symbol) if isinstance(s, sp.Symbol)}
        functions = {type(f).__name__ for f in e.atoms(sp.core.function.AppliedUndef)}
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            return self._srepr(e)
        uses_tv = any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "tv"
                      for n in ast.walk(tree))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - ({"tv"} if uses_tv else set())
        if "tv" in symbols | functions:
            return self._srepr(e)
        called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        imports = (names - symbols - functions) | (called - functions)
        bad = (symbols & functions) or any(not hasattr(sp, n) for n in imports) or \
            ((symbols | functions) & (imports | self.imports | RESERVED_NAMES)) or \
            any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in ast.walk(tree))
        noncommuting = {s.name for s in e.atoms(sp.Symbol) if not s.is_commutative}
        clash = (symbols & self.functions) | (functions & self.symbols)
        # a name a matrix in one display and a number in another of the module: each expression says which (srepr)
        clash |= (noncommuting & (self.symbols - self.noncommuting)) | ((symbols - noncommuting) & self.noncommuting)
        clash |= {s.name for s in e.atoms(sp.Symbol) if s.is_commutative} & noncommuting
        if bad or clash or any(keyword_like(n) for n in symbols | functions):
            return self._srepr(e)
        self.symbols |= symbols
        self.noncommuting |= noncommuting
        self.functions |= functions
        self.imports |= imports
        self.tv |= uses_tv
        return text

    def _srepr(self, e: sp.Basic) -> str:
        text = sp.srepr(e)
        tree = ast.parse(text, mode="eval")
        self.imports |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and hasattr(sp, n.id)}
        spectral = re.compile(r"(?<![\w.])(lambda_(?:max|min))\(")
        if spectral.search(text):
            text, self.tv = spectral.sub(r"tv.\1(", text), True
        return text

    def shaped(self, e: sp.Basic, arguments: set[str]) -> str | None:
        """Python source of a shaped display's side (its matrices MatrixSymbols, its names the function's
        ``arguments``), or None when the printed text would need anything else."""
        text = _Printer().doprint(e)
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            return None
        functions = {type(f).__name__ for f in e.atoms(sp.core.function.AppliedUndef)}
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        imports = names - arguments - functions
        if any(not hasattr(sp, n) for n in imports) or (functions & (arguments | imports | RESERVED_NAMES)) or \
                any(keyword_like(n) for n in functions | arguments) or (functions & self.symbols) or \
                any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in ast.walk(tree)):
            return None
        self.functions |= functions
        self.imports |= imports
        return text

    def definitions(self, defined: Mapping[str, "Defined"]) -> list[str]:
        """``f = Lambda(x, …)`` for each function the module uses that the paper defines (their bodies may use
        more names, declared by :meth:`header`), in an order where each comes after the defined functions its body
        calls; a body that cannot be written stays ``Function('f')`` with a TODO."""
        made: dict[str, tuple[str, set[str]]] = {}
        todo = [f for f in sorted(self.functions) if f in defined]
        while todo:
            f = todo.pop(0)
            d = defined[f]
            if f in made or d.body is None:
                continue
            src = self.expr(sp.Lambda(d.params if len(d.params) > 1 else d.params[0], d.body))
            calls = {type(g).__name__ for g in d.body.atoms(sp.core.function.AppliedUndef)} & set(defined)
            made[f] = (src, calls)
            todo += sorted(calls - set(made))
        out, placed = [], set()
        while len(placed) < len(made):
            ready = [f for f in sorted(made) if f not in placed and made[f][1] <= placed]
            if not ready:  # calls itself, or each other: left unknown functions
                break
            for f in ready:
                d = defined[f]
                out.append(f"{f} = {made[f][0]}  # {' '.join(d.text.split())[:120]} (the paper's definition, {d.where})")
                placed.add(f)
        self.defined = placed
        for f in sorted(set(made) - placed):
            self.notes.append(f"# TODO {f}: its definition calls itself (or through another): left an unknown function")
        for f in sorted(f for f in self.functions if f in defined and defined[f].body is None):
            self.notes.append(f"# TODO {f} is defined by the paper ({defined[f].where}: "
                              f"{' '.join(defined[f].text.split())[:100]}) but its body was not built "
                              f"({defined[f].why[:100]}): transcribe it as {f} = Lambda(…)")
        return out

    def header(self, definitions: list[str] = ()) -> list[str]:
        out = [f"from sympy import {', '.join(sorted(self.imports | {'Function', 'Symbol'}))}", ""]
        if self.tv:
            out[0:0] = ["import theoryverify as tv"]
        for s in sorted(self.symbols):
            if s in self.noncommuting:
                out.append(f"{s} = Symbol({s!r}, commutative=False)  # TODO a matrix or vector (or a number?): "
                           f"its shape, MatrixSymbol({s!r}, rows, cols)")
            else:
                out.append(f"{s} = Symbol({s!r})")
        for f in sorted(self.functions - self.defined):
            out.append(f"{f} = Function({f!r})")
        return out + list(definitions) + self.notes


def keyword_like(name: str) -> bool:
    import keyword
    return keyword.iskeyword(name) or keyword.issoftkeyword(name) or not name.isidentifier()


def _relation(code: _Code, op: str, lhs: sp.Basic, rhs: sp.Basic) -> str:
    cls = RELATIONS.get(op)
    left, right = code.expr(lhs), code.expr(rhs)
    if cls is None:  # ≈, ∼, ∝ …: no SymPy relation; the two sides and the relation's name
        return f"({left}, {op!r}, {right})"
    code.imports.add(cls)
    return f"{cls}({left}, {right}, evaluate=False)"


def _string(text: str) -> str:
    """A Python literal for ``text``: a raw triple-quoted string where that is exact, else ``repr``."""
    if '"""' not in text and not text.endswith(("\\", '"')) and "\r" not in text:
        return 'r"""' + text + '"""'
    return repr(text)


def _comment(text: str, width: int = 110) -> list[str]:
    flat = " ".join(text.split())
    return [f"#   {flat[i:i + width]}" for i in range(0, min(len(flat), 4 * width), width)] or ["#"]


def printed_module(draft: Draft, section: int) -> str | None:
    """The ``printed/`` module of one section (None when it has no entry)."""
    entries = [e for e in draft.entries if e.section == section]
    if not entries:
        return None
    code = _Code()
    body: list[str] = []
    shapes: dict[str, tuple] = {}  # of the shaped displays' matrices: the module's SHAPES
    for e in entries:
        where = ", ".join(filter(None, [f"Eq. {', '.join(e.numbers)}" if e.numbers else "",
                                        f"label {', '.join(e.labels)}" if e.labels else "", e.where]))
        if not e.relations:
            body += ["", "", f"# TODO {e.name} ({where}): not transcribed — {e.unread[0]}", *_comment(e.latex)]
            continue
        args, rels = _shaped_relations(code, e)
        if rels is None:
            args, rels = "", [_relation(code, op, lhs, rhs) for op, lhs, rhs in e.relations]
        else:
            shapes.update(e.shapes)
        ret = rels[0] if len(rels) == 1 else "(\n        " + ",\n        ".join(rels) + ",\n    )"
        body += ["", "", f"def {e.name}({args}):", f"    {_string(display_doc(where, e.latex))}"]
        for why in e.unread:
            body.append(f"    # TODO not transcribed here: {' '.join(why.split())[:200]}")
        for atom, latex in e.opaque.items():
            if not re.search(rf"(?<![\w.]){re.escape(atom)}(?!\w)", ret):  # nested in another opaque symbol
                continue
            body.append(f"    # TODO {atom} stands for {' '.join(latex.split())[:160]} (not read: an opaque symbol)")
        for why in e.review:
            body.append(f"    # REVIEW needs review, not counted transcribed: {' '.join(why.split())[:400]}")
        for note in e.caveats:
            body.append(f"    # NOTE {note}")
        for kind, why in dict.fromkeys(e.kinds):
            body.append(f"    # NOTE not a derivation step: a {kind} ({why[:160]})")
        free = {str(x) for _, lhs, rhs in e.relations for x in (lhs.free_symbols | rhs.free_symbols)}
        for name in sorted(free & set(draft.prose_definitions)):
            latex, at = draft.prose_definitions[name]
            body.append(f"    # NOTE the prose defines {name}: {latex} ({at}); this display keeps {name} a free "
                        f"symbol — a claim true only with that value needs it (model/)")
        body.append(f"    return {ret}")
    title = draft.sections[section - 1] if 0 < section <= len(draft.sections) else ""
    head = [f'"""{_doc_title(title) if title else "The text before the first section"} as printed: each numbered or labelled display, as the LaTeX reader reads it',
            "(drafted by new-paper --from-tex; check each against the PDF, then build what it should equal in model/).",
            "Each display's docstring gives its equation number, label, FILE:LINE and LaTeX source.",
            '"""', *code.header(code.definitions(draft.functions))]
    if shapes:
        head += ["", "#: the paper's shapes of the matrices and vectors (stated, or read from a product with a stated one): "
                 "tv.printed(display, SHAPES)",
                 "SHAPES = {" + ", ".join(f"{n!r}: {dims_code(d)}" for n, d in shapes.items()) + "}"]
    return "\n".join(head + body) + "\n"


def _shaped_relations(code: _Code, e: Entry) -> tuple[str, list[str] | None]:
    """The argument list and relations of a shaped display (its matrices, then its numbers, as arguments), or
    ("", None) when it is not shaped or its code would need a name it does not take."""
    if not e.shaped:
        return "", None
    matrices = list(e.shapes)
    numbers = sorted({s.name for _, lhs, rhs in e.relations for side in (lhs, rhs) for s in side.atoms(sp.Symbol)
                      if s.is_commutative} - set(matrices))
    if any(keyword_like(n) or n in RESERVED_NAMES for n in matrices + numbers):
        return "", None
    out = []
    for op, lhs, rhs in e.shaped:
        left, right = code.shaped(lhs, set(matrices + numbers)), code.shaped(rhs, set(matrices + numbers))
        cls = RELATIONS.get(op)
        if left is None or right is None or cls is None:
            return "", None
        code.imports.add(cls)
        out.append(f"{cls}({left}, {right}, evaluate=False)")
    return ", ".join(matrices + numbers), out


#: the line that ends a drafted display's docstring's first paragraph; the LaTeX source follows it
DOC_SOURCE = "(read by theoryverify.check.tex), printed as:"


def display_doc(where: str, latex: str) -> str:
    """A drafted display's docstring: where the paper prints it (``Eq. (1), label eq:loss, paper.tex:12``) and its
    LaTeX source after :data:`DOC_SOURCE` (:func:`display_source` reads it back).

    >>> display_source(display_doc("Eq. (1), paper.tex:12", r"\\frac{a}{b} = c"))
    ('Eq. (1), paper.tex:12', '\\\\frac{a}{b} = c')
    """
    body = "\n".join("    " + line for line in latex.split("\n"))
    return f"{where} {DOC_SOURCE}\n\n{body}\n    "


def display_source(doc: str | None) -> tuple[str, str] | None:
    """(where, LaTeX) from a drafted display's docstring (:func:`display_doc`), or None for another docstring."""
    head, sep, body = (doc or "").partition(f" {DOC_SOURCE}\n\n")
    if not sep:
        return None
    lines = body.removesuffix("\n    ").split("\n")
    return head, "\n".join(line[4:] if line.startswith("    ") else line for line in lines)


def _doc_title(title: str) -> str:
    flat = " ".join(title.replace('"""', "").replace("\\", "").split())[:80]
    return f"Section {flat!r}" if flat else "Section"


def section_module(draft: Draft, section: int) -> str:
    """The ``printed/`` module of a section: ``s<N>_<title>``, the title cut to 24 characters at a word's end
    ("A two-layer scalar linear network" → ``s1_a_two_layer_scalar``, never ``…_linea``)."""
    title = draft.sections[section - 1] if 0 < section <= len(draft.sections) else ""
    full = _ident(title, "s") if title else "front"
    slug = full[:24]
    if len(full) > 24 and full[24] != "_" and "_" in slug.strip("_"):
        slug = slug[:slug.rindex("_")]  # a word cut in the middle is left out whole
    slug = slug.rstrip("_") or full[:24]
    return f"s{section}_{slug}" if not slug.startswith("s_") else f"s{section}{slug[1:]}"


# --- claims and catalogue ----------------------------------------------------------------------------------------

def _catalogue_id(prefix: str, name: str) -> str:
    return f"{prefix}-{name.replace('_', '-')}"


def _stub_ids(prefix: str, s: Statement) -> str:
    """A stub's ``catalogue_id``: the statement's id, and the ids of the displays it states — ``("P-lem-grad",
    "P-eq-grad")``: the check written for the statement decides its display too, and the report's catalogue coverage
    counts both (keep the tuple when writing the check)."""
    ids = [_catalogue_id(prefix, s.name)] + [_catalogue_id(prefix, d) for d in s.displays]
    return repr(ids[0]) if len(ids) == 1 else "(" + ", ".join(repr(i) for i in ids) + ")"


def statements_module(draft: Draft, paper: str, prefix: str) -> str:
    lines = ['"""The paper\'s theorems, lemmas, propositions and corollaries, each a claim stub with its statement',
             "quoted (drafted by new-paper --from-tex).  Each is expected inconclusive — not yet checked — until its",
             "check is written: then drop ``expect``/``reason``, return the check's verdict, say in ``statement`` what",
             "it decides, and keep ``quote`` (the paper's words, as the referee report quotes them) and ``catalogue_id``",
             "(the statement's id and those of the displays it states: the check covers them all in the report's",
             'catalogue coverage)."""',
             "import theoryverify as tv", "", f"CLAIMS = tv.ClaimSet({paper!r})",
             "NOT_YET = tv.inconclusive(\"not yet checked\", \"no check written for this statement yet\")"]
    for s in draft.statements:
        kind, why = statement_kind(s.text)
        location = f"{s.kind.capitalize()}{' ' + s.label if s.label else ''}, {s.where}"
        stub = location.rsplit(", ", 1)[0] + " as the paper states it (quote=): not yet checked"
        lines += ["", "", f"# kind {kind}: {why}" if kind else "# TODO kind: the statement names no rate, no "
                  "inequality and no identity the draft can tell; IDENTITY is a placeholder — set the claim's kind",
                  f"@CLAIMS.add({s.name!r}, location={location!r}, kind=tv.Kind.{kind or 'IDENTITY'},",
                  f"            catalogue_id={_stub_ids(prefix, s)}, expect=tv.Status.INCONCLUSIVE,",
                  "            reason=\"not yet checked\",",
                  f"            statement={stub!r},",
                  "            # the paper's own words, which the referee report quotes: keep quote= when you write "
                  "the check",
                  f"            quote={_string(s.text)})",
                  f"def {s.name}(ctx: tv.RunContext) -> tv.Verdict:",
                  "    return NOT_YET"]
    return "\n".join(lines) + "\n"


#: a statement about a rate: O/Θ/Ω/Õ, a limit (→ 0, → ∞), a count of steps or iterations, a convergence rate
RATE_RE = re.compile(r"\\(?:tilde|widetilde)\s*\{?\s*(?:O|\\Theta|\\Omega)|\\(?:Theta|Omega|mathcal\s*\{\s*O\s*\})\s*\(|"
                     r"(?<![A-Za-z\\])O\s*\(|\\to\s*(?:0|\\infty)|\b(?:steps|iterations?|rate|converges?|"
                     r"convergence|sample complexity|decays?)\b", re.I)
INEQUALITY_RE = re.compile(r"\\(?:le|leq|ge|geq|lesssim|gtrsim|leqslant|geqslant)(?![A-Za-z])|(?<!\\)[<>]")
DISPLAY_RE = re.compile(r"\\begin\{(equation|align|gather|multline)\*?\}(.*?)\\end\{\1\*?\}", re.S)
BRACKET_DISPLAY_RE = re.compile(r"(?<!\\)\\\[(.*?)\\\]|\$\$(.*?)\$\$", re.S)


def statement_kind(text: str) -> tuple[str | None, str]:
    """The kind a claim stub guesses for a theorem-like statement, and why; None (the author sets it) when the
    statement gives no sign.  A rate (O(·), Θ, →0, "steps", "iterations", "converges") before an inequality (a
    hypothesis such as η ≤ 1/(2λ_1) in a rate theorem is no inequality claim); an inequality only where the
    statement's displayed conclusion is one, else where its text relates by ≤/≥ and nothing displays an equality."""
    text = LABEL_RE.sub("", text)  # \label{thm:rate} says nothing
    m = RATE_RE.search(text)
    if m:
        return "RATE", f"the statement names a rate ({' '.join(m.group(0).split())!r}); check the kind"
    shown = " ".join([body for _env, body in DISPLAY_RE.findall(text)] +
                     ["".join(t) for t in BRACKET_DISPLAY_RE.findall(text)])  # \[ … \] and $$ … $$ display too
    if shown:
        if INEQUALITY_RE.search(shown):
            return "INEQUALITY", "its display relates by an inequality; check the kind"
        if "=" in shown:
            return "IDENTITY", "its display is an equality; check the kind"
    if INEQUALITY_RE.search(text):
        return "INEQUALITY", "the statement relates by an inequality; check the kind"
    if re.search(r"\$[^$]*(?<![<>!:\\])=[^$]*\$", text):
        return "IDENTITY", "the statement states an equality; check the kind"
    return None, ""


def _undecided_reason(why: str) -> str:
    return f"the step checker cannot decide it (when drafted): {why[:200]}"


def decide_chains(draft: Draft, paper: str) -> int:
    """Check each drafted chain as its claim will be checked by the first ``verify`` (the paper's LaTeX, the seed
    the default run gives the claim ``paper.steps_…``) and mark the chains the step checker leaves undecided — a
    step unreadable, read two ways, or not decided — so that their claims are drafted expected inconclusive with
    the reason, not expected to pass; returns how many.  A chain that is decided (proved, holds, or refuted: a
    refutation is the paper's to judge) keeps the default expectation."""
    from .claims import RunContext
    from .texsteps import check_tex_chain
    from .verdicts import Status

    tex = Path(draft.root) / draft.main
    n = 0
    for c in draft.chains:
        try:
            v = check_tex_chain(tex, c.where, RunContext().for_claim(f"{paper}.{c.name}").seed)
        except TheoryverifyError:
            continue
        if v.status is Status.INCONCLUSIVE:
            c.undecided, n = " ".join(str(v.evidence).split()), n + 1
    return n


def steps_module(draft: Draft, paper: str, prefix: str) -> str:
    lines = ['"""The paper\'s derivation chains, each checked by the LaTeX reader\'s step checker on the copy of the',
             "paper in paper/tex (drafted by new-paper --from-tex): a refuted step is the chain's first wrong step.",
             "A chain the checker left undecided when drafted is expected inconclusive, its reason above it.",
             "Each is one call: tv.tex_chain(id, FILE:LINE, ...) checks the chain in the paper's own LaTeX.",
             '"""', "import theoryverify as tv"]
    seen: set[str] = set()
    for c in draft.chains:
        kind = "" if c.ops <= {"=", ":=", "=:"} else ", kind=tv.Kind.INEQUALITY"
        cat = ""
        if c.display and c.display not in seen:
            seen.add(c.display)
            cat = f", catalogue_id={_catalogue_id(prefix, c.display)!r}"
        if c.undecided:  # the first verify gives what the draft saw: expected, with the reason, so it exits 0
            lines += ["", f"# undecided when drafted: {c.undecided[:240]}",
                      f"tv.tex_chain({c.name!r}, {c.where!r}{kind}{cat},",
                      f"             expect=tv.Status.INCONCLUSIVE, reason={_undecided_reason(c.undecided)!r},",
                      f"             statement={('the derivation chain ' + c.latex)!r})"]
            continue
        lines += ["", f"tv.tex_chain({c.name!r}, {c.where!r}{kind}{cat},",
                  f"             statement={('the derivation chain ' + c.latex)!r})"]
    if draft.skipped:
        lines += ["", "", "# Skipped: displayed relations the reader classes as no derivation step (no claim: a "
                          "definition, a parameter", "# choice, a hypothesis … cannot pass or fail as a step).  "
                          "Definitions define their names for the steps after", "# them.  To check one anyway, "
                          "write its claim in another module.  FILE:LINE  kind — why: LaTeX"]
        for s in draft.skipped:
            lines.append(f"#   {s.where}  {s.kind} — {s.why[:120]}: {s.latex[:120]}")
    return "\n".join(lines) + "\n"


def catalogue(draft: Draft, title: str, prefix: str) -> str:
    out = [f"# {title}: claim catalogue", "",
           "One id per numbered or labelled display and per theorem-like statement (drafted by new-paper --from-tex).",
           "", "## Displays", ""]
    for e in draft.entries:
        nums = f" Eq. {', '.join(e.numbers)}" if e.numbers else ""
        lab = f" `{', '.join(e.labels)}`" if e.labels else ""
        state = "transcribed" if e.transcribed else ("needs review" if e.relations and e.review else
                                                     "partly transcribed" if e.relations else "TODO")
        out.append(f"- **{_catalogue_id(prefix, e.name)}**{nums}{lab} ({e.where}; {state})")
    out += ["", "## Statements", ""]
    for s in draft.statements:
        lab = f" `{s.label}`" if s.label else ""
        states = f"; states {', '.join(_catalogue_id(prefix, d) for d in s.displays)}" if s.displays else ""
        out.append(f"- **{_catalogue_id(prefix, s.name)}** {s.kind}{lab} ({s.where}{states})")
    if draft.skipped:
        out += ["", "## Not derivation steps (no step claim)", "",
                "Displayed relations the LaTeX reader classes as no derivation step, with its kind and why "
                "(a definition defines its name for the steps after it):", ""]
        for s in draft.skipped:
            out.append(f"- {s.where}: {s.kind} — {_md(s.why[:160])}: `{s.latex[:160].replace('`', chr(39))}`")
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")


def prefix_of(name: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", name.upper())[:12] or "P"


# --- writing ----------------------------------------------------------------------------------------------------

def render(draft: Draft, name: str, base: dict[str, str], title: str) -> dict[str, str]:
    """The scaffold's files ``base`` with the drafted ones in place of its example claim and display."""
    prefix = prefix_of(name)
    # the scaffold's placeholder model (½(w·x − y)²), its step context NAME.main and the example claim are not
    # this paper's: model/ is left for the paper's model, with nothing in it to mistake for it
    files = {k: v for k, v in base.items() if not k.endswith(("printed/s1_main.py", "claims/s1_main.py",
                                                              "tests/test_planted.py", "model/linear.py",
                                                              f"{name}/contexts.py"))}
    files[f"{name}/model/__init__.py"] = (
        '"""The model built from primitives (drafted by new-paper --from-tex: empty).  Write the paper\'s model '
        'here (or in\na module imported here): the SymPy side the claims differentiate and simplify, and an '
        'independent torch side\nfor numeric and autograd checks.  Every other file imports it as ``model``."""\n')
    readme = files.get("README.md", "")
    files["README.md"] = readme.replace(
        f'python -m theoryverify.check --context {name}.main "diff(L, w) == (w*x - y)*x"',
        f"python -m theoryverify.check --tex {name}/paper/tex/{draft.main}   # the paper's derivation steps").replace(
        ", so replacing the placeholder `linear.py` changes one line there", "").replace(
        f"| `{name}/contexts.py` | step contexts for `python -m theoryverify.check` |\n", "").replace(
        "`contexts.py` (no step checks with `python -m theoryverify.check --context`), `model/linear.py` once the "
        "model is\nwritten in `model/__init__.py`, ", "")
    order = []
    for section in sorted({e.section for e in draft.entries}):
        text = printed_module(draft, section)
        if text:
            files[f"{name}/printed/{section_module(draft, section)}.py"] = text
    if draft.statements:
        files[f"{name}/claims/statements.py"] = statements_module(draft, name, prefix)
        order.append("statements")
    if draft.chains:
        files[f"{name}/claims/steps.py"] = steps_module(draft, name, prefix)
        order.append("steps")
    init = f"{name}/claims/__init__.py"
    if order == sorted(order):  # the registry's default order (by name) is the paper's: no ORDER line to keep
        files[init] = re.sub(r"\nORDER = \[[^\]]*\]", "", files[init]).replace(
            "  Renaming a module: rename it here too, or delete this line.", "  Add ORDER = [...] to change it.")
    else:
        files[init] = re.sub(r"ORDER = \[[^\]]*\]", f"ORDER = {order!r}", files[init])
    pinit = f"{name}/__init__.py"
    files[pinit] = files[pinit].replace(f'file="{name}.txt"', f'file={("tex/" + draft.main)!r}').replace(
        f"# the paper's text: in {name}/paper/", f"# the paper's LaTeX: in {name}/paper/").replace(
        "\n)\n", "\n    reads_text=True,  # the step claims read the LaTeX: its checksum keys their stored results\n)\n")
    files["pyproject.toml"] = files["pyproject.toml"].replace('"spec/*", "paper/*"', '"spec/*", "paper/*", "paper/tex/**/*"')
    files[f"{name}/spec/{name}.md"] = catalogue(draft, title, prefix)
    return files


def write(name: str, tex: str | Path, folder: Path | str = ".", title: str | None = None) -> tuple[Path, Draft, int]:
    """Write the drafted package ``folder/name``; return it, the draft and the number of files written."""
    from . import scaffold

    scaffold._check_spelling(name)
    target = Path(folder) / name
    if Path(folder).exists() and not Path(folder).is_dir():
        raise scaffold.ScaffoldError(f"--out {folder} is not a folder")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise scaffold.ScaffoldError(f"{target} already exists and is not an empty folder")
    draft = read(tex)
    decide_chains(draft, name)
    title = title or name
    files = render(draft, name, scaffold.render_paper(name, title), title)
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for rel in draft.files:  # the paper's own files, for the step claims (inside its folder only)
        src = (draft.root / rel).resolve()
        if src.is_file() and src.is_relative_to(draft.root.resolve()):
            dst = target / name / "paper" / "tex" / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    return target, draft, len(files) + len(draft.files)
