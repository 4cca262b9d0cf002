"""Every display of a paper, split into rows, segments and chains.

A display is an ``equation``, ``align``, ``gather``, ``multline``, ``eqnarray``, ``flalign``, ``alignat``,
``displaymath``, breqn's ``dmath``, ``dseries``, ``darray`` environment (starred or not), ``\\[ … \\]`` or
``$$ … $$``.  Nested ``split``, ``aligned``, ``gathered``, ``alignedat`` are opened up; ``cases``, ``array`` and
matrices stay whole inside a row.  breqn's ``dgroup`` is no display of its own: the ``dmath`` environments inside it
are; their options (``[label=…]``, ``[number=…]``, ``[breakdepth=…]``) are no math, ``\\hiderel{=}`` is the
relation it wraps, and ``\\condition{for $x > 0$}`` is the display's side condition (``\\condition{where …}`` a
definition), never part of the expression.

Rows split at ``\\\\`` (at the top level only).  In the ``align`` family the ``&`` cells go in pairs (``a &= b &
c &= d`` is two equations side by side).  A row is cut into **segments** at prose: ``\\text{…}``, ``\\quad``,
``\\forall``, a top-level comma before another relation.  The word that opens a segment gives its **role**:
``for``/``if``/``when``/``\\forall``/``provided`` — a side condition of the display; ``where``/``with``/``denote``
— definitions; ``s.t.``/``subject to`` — constraints; ``and``/nothing — more of the display.

Segments become **chains** (``a = b \\le c`` over several rows): a row that starts with a relation continues the
chain; a row that starts with ``+``, ``-``, ``\\cdot`` or ``\\times`` continues the last expression only when it
has no relation of its own; a row without a relation continues the chain's last expression; any other row starts
a new chain.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .source import Document

MATH_ENVS = ("equation", "align", "gather", "multline", "eqnarray", "flalign", "alignat", "displaymath", "dmath",
             "xalignat", "xxalignat", "IEEEeqnarray", "dseries", "darray", "math")
#: breqn's environments and the options they take (``\begin{dmath}[label={eq:a}, breakdepth={1}]``): never math
BREQN_ENVS = ("dmath", "dseries", "darray")
BREQN_OPTIONS = re.compile(r"\s*\[\s*(?:(?:label|labelprefix|number|breakdepth|indentstep|compact|spread|frame|framesep|"
                           r"background|color|style|layout|shortskiplimit|noindent)\s*(?:=\s*(?:\{[^{}]*\}|[^,\[\]{}]*))?"
                           r"\s*,?\s*)+\]")
#: ``\hiderel{=}`` (breqn): the relation it wraps, written so that breqn does not break the line at it
HIDEREL = re.compile(r"\\hiderel\s*\{")
PAIRED = {"align", "flalign", "alignat", "xalignat", "xxalignat"}
INNER_OPEN = re.compile(r"\\begin\s*\{(split|aligned|gathered|alignedat|multlined|aligned\*)\}(\s*\[[a-z]\])?"
                        r"(\s*\{\d+\})?|\\end\s*\{(split|aligned|gathered|alignedat|multlined)\}")
THEOREM_LIKE = {"theorem", "lemma", "proposition", "corollary", "claim", "fact", "conjecture", "observation",
                "definition", "assumption", "condition", "hypothesis", "remark", "example", "proof", "problem",
                "property", "setting", "restatable"}
TOKEN_RE = re.compile(r"\\begin\s*\{([^{}]{1,40})\}|\\end\s*\{([^{}]{1,40})\}|\\\\|\\\[|\\\]|\$\$|\\\$|"
                      r"\\newtheorem\s*\*?\s*\{([^{}]{1,40})\}")
RELATION_HINT = re.compile(r"(?<!\\)(?<!\\left)(?<!\\right)(?<!\\bigl)(?<!\\bigr)(?<!\\Bigl)(?<!\\Bigr)(?<!\\big)(?<!\\Big)"
                           r"(?<!\\left )(?<!\\right )[=<>]|\\(?:le|leq|ge|geq|leqslant|geqslant|lt|gt|ne|neq|approx|simeq|"
                           r"sim|propto|equiv|ll|gg|lesssim|gtrsim|asymp|coloneqq|coloneq|triangleq|eqqcolon|defeq|"
                           r"doteq|preceq|succeq|prec|succ|leftarrow|gets|stackrel|overset|underset|xlongequal|xrightarrow)(?![A-Za-z])")
CONDITION_WORDS = ("for all", "for any", "for every", "for each", "for some", "for", "if", "when", "whenever",
                   "provided", "given", "assuming", "as long as", "unless", "since", "because", "on", "over",
                   "such that", "s.t")
WHERE_WORDS = ("where", "with", "denote", "denoting", "define", "defining", "let", "set", "setting", "here")
#: prose after a row that says why it holds; the math it ends with (``by linearity of F``) is the reason's own
JUSTIFICATION = re.compile(r"(?:by|using|from|via|thanks to|due to|because of|see|cf|applying|owing to)\b")
CONSTRAINT_WORDS = ("s.t.", "s.t", "subject to", "st.", "such that")


@dataclass
class Segment:
    """A stretch of math in one row, with the role the prose before it gives it."""
    text: str
    pos: int  # offset of its first character in the document's text
    role: str = "main"  # main | condition | where | constraint | also
    word: str = ""  # the prose word that opened it
    row: int = 0  # the row of the display it is on
    comma: bool = False  # it ended with a comma or semicolon, dropped from its text ("a = b, \\\\")
    lead: bool = False  # a quantifier that opens its row ("\\forall x \\in S, …"): it scopes what follows it
    #: the label over the arrow that opens it (``\\stackrel{(a)}{\\implies} …``: "(a)"), a fact it may rest on
    label: str = ""


@dataclass
class Chain:
    """Consecutive segments read as one expression with relations (``a = b \\le c`` over rows)."""
    parts: list[Segment] = field(default_factory=list)
    role: str = "main"
    #: for the consequent of ``⟹``: the chains of its antecedents that are steps of their own (``A ⟹ B ⟹ C``: B, and
    #: what B was derived from, for C) — its conditions, as the antecedent made a condition of the display is
    antecedents: list = field(default_factory=list)

    @property
    def pos(self) -> int:
        return self.parts[0].pos

    @property
    def text(self) -> str:
        return " ".join(p.text for p in self.parts)


@dataclass
class Display:
    env: str
    start: int  # offset of the environment's first character
    body_start: int
    body: str
    scope: tuple[tuple[str, int], ...]  # enclosing theorem-like environments (name, start), outermost first
    prose: str = ""  # up to 300 characters of text before the display
    after: str = ""  # up to 120 characters of text after it
    #: up to 1200 characters of text before the display (its paragraph's), for the cues that check the prose against
    #: the display's own text ("let $vEll(θ, X, y)$ denote …" a long description before it: announce.py)
    lead: str = ""
    end_pos: int = 0  # offset just after its closing delimiter
    chains: list[Chain] = field(default_factory=list)
    conditions: list[Segment] = field(default_factory=list)
    skip: bool = False
    notes: list[tuple[int, str]] = field(default_factory=list)  # justifications written as words: (offset, text)
    #: (left side, right side, "equivalent" or "implies") of each arrow of a chain of propositions (⟺ / ⟹)
    logic: list[tuple[Chain, Chain, str]] = field(default_factory=list)
    #: the relations a row's bracketed justification states (``\\qquad \\text{($\\|x\\| = 1$)}``, ``\\qquad (b = 1)``),
    #: each a segment on its row: assumptions of the links of that row (:func:`justification_facts`)
    justifications: list[Segment] = field(default_factory=list)


def find_displays(doc: Document, theorem_names: set[str] | None = None) -> list[Display]:
    """The displays of ``doc``'s body in order, with their enclosing theorem-like environments."""
    text = doc.text
    names = set(THEOREM_LIKE) | set(theorem_names or ())
    for m in re.finditer(r"\\newtheorem\s*\*?\s*\{([^{}]{1,40})\}", text):
        names.add(m.group(1).strip())
    out: list[Display] = []
    stack: list[tuple[str, int]] = []
    bold = bold_header_spans(text, doc.body_start)
    i = doc.body_start
    open_env: tuple[str, int, int] | None = None  # (name, start, body start); name "$$" or "\\["
    last_end = 0
    depth = 0
    for m in TOKEN_RE.finditer(text, doc.body_start):
        tok = m.group(0)
        if open_env is None:
            if m.group(1):
                env = m.group(1).strip()
                base = env.rstrip("*")
                if base in MATH_ENVS:
                    body_start = m.end()
                    if base in ("alignat", "xalignat", "xxalignat", "IEEEeqnarray"):
                        a = re.match(r"\s*\{[^{}]*\}", text[body_start:])
                        body_start += a.end() if a else 0
                    if base in BREQN_ENVS:  # \begin{dmath}[label=…]: options, no math; darray's {rcl} columns
                        a = BREQN_OPTIONS.match(text, body_start)
                        body_start = a.end() if a else body_start
                        if base == "darray":
                            a = re.compile(r"\s*\{[lcr|@ ]*\}").match(text, body_start)
                            body_start = a.end() if a else body_start
                    open_env, depth = (env, m.start(), body_start), 0
                elif base.lower() in names or base in names:
                    stack.append((base, m.start()))
            elif m.group(2):
                env = m.group(2).strip().rstrip("*")
                for k in range(len(stack) - 1, -1, -1):
                    if stack[k][0] == env:
                        del stack[k:]
                        break
            elif tok == "\\[":
                open_env = ("\\[", m.start(), m.end())
            elif tok == "$$":
                open_env = ("$$", m.start(), m.end())
            continue
        name, start, body_start = open_env
        close = (name == "\\[" and tok == "\\]") or (name == "$$" and tok == "$$")
        if m.group(1) and m.group(1).strip() == name:
            depth += 1
        if m.group(2) and m.group(2).strip() == name:
            if depth:
                depth -= 1
            else:
                close = True
        if close:
            body = text[body_start:m.start()]
            env = {"\\[": "displaymath", "$$": "$$"}.get(name, name)
            prose = _prose(text[max(doc.body_start, start - 2000, last_end):start])  # comments are blanked, not removed
            if out and re.fullmatch(r"\W*(?:and|or|as well as)\W*", prose) and out[-1].end_pos == last_end:
                prose = _prose(out[-1].prose + " ⟨display⟩ " + prose)  # "… such that $$…$$ and $$…$$": one sentence
            headed = tuple((n, a) for n, a, b in bold if a <= start < b)  # {\bf Lemma 5.} …: as \begin{lemma}
            out.append(Display(env, start, body_start, body, headed + tuple(stack), prose,
                               _after(text[m.end():m.end() + 160])))
            out[-1].end_pos = m.end()
            out[-1].lead = _prose(text[max(doc.body_start, start - 4000, last_end):start], 1200)
            open_env = None
            last_end = m.end()
    return out


FOOTNOTE = re.compile(r"\\footnote\s*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}")


#: a paragraph break: an empty line (or one of tabs); a line of spaces may be a comment blanked, which TeX reads as
#: no break at all
PARAGRAPH = re.compile(r"\n[\t\r]*\n")


def _prose(text: str, limit: int = 300) -> str:
    """The prose's last 300 characters (``limit``) since its last paragraph break (a sentence never runs across one, even when
    the paragraph before it ends without a full stop), footnotes left out (a footnote is not the sentence the display
    ends)."""
    text = FOOTNOTE.sub(" ", text)
    for m in reversed(list(PARAGRAPH.finditer(text))):
        if text[m.end():].strip():
            text = text[m.end():]
            break
    return " ".join(text.split())[-limit:]


def _after(text: str) -> str:
    """The prose right after a display, up to the paragraph's end (``… \\] is g-convex where …``)."""
    m = PARAGRAPH.search(text)
    return " ".join(FOOTNOTE.sub(" ", text[:m.start()] if m else text).split())


# --- rows, cells, segments ---------------------------------------------------------------------------

def _top_level_split(body: str, sep: str) -> list[tuple[int, str]]:
    """Split at ``sep`` (``\\\\`` or ``&``) outside braces and nested environments; (offset, piece)."""
    out, depth, env, start, i, n = [], 0, 0, 0, 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            if body.startswith("\\begin", i):
                env += 1
            elif body.startswith("\\end", i):
                env -= 1
            if sep == "\\\\" and body.startswith("\\\\", i) and depth == 0 and env <= 0:
                out.append((start, body[start:i]))
                i += 2
                r = re.match(r"\s*\[[^\]\n]{0,20}\]", body[i:])  # \\[2pt]
                if r:
                    i += r.end()
                if body.startswith("*", i):
                    i += 1
                start = i
                continue
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == sep and depth == 0 and env <= 0:
            out.append((start, body[start:i]))
            start = i + 1
        i += 1
    out.append((start, body[start:]))
    return out


INTERTEXT = re.compile(r"\\(?:short)?intertext\s*\{")


def _intertext_breaks(body: str) -> str:
    """``\\intertext{…}`` / ``\\shortintertext{…}`` (at the top level): a break between rows with text, never part
    of a formula (``a \\le b \\shortintertext{If $p$ is strict,} c \\le d`` had glued b ≤ c across the text, and
    amsmath does not need a ``\\\\`` before it) — a row break, the text blanked; a short connective or role word
    (``where``, ``and hence``, ``subject to``) kept as ``\\text{…}`` at the next row's start, so that it gives that
    row its role as it does in a row.  Offsets kept."""
    out, last, depth, i = [], 0, 0, 0
    while True:
        m = INTERTEXT.search(body, i)
        if m is None:
            break
        depth += body.count("{", i, m.start()) - body.count("\\{", i, m.start()) - \
            (body.count("}", i, m.start()) - body.count("\\}", i, m.start()))
        end = _group_end(body, m.end() - 1)
        if depth != 0:
            i = end
            continue
        inner = body[m.end():end - 1]
        words = " ".join(re.sub(r"[^A-Za-z. ]", " ", re.sub(r"\\[A-Za-z]+", " ", inner)).lower().split())
        keep = "$" not in inner and (words in CONNECTIVES or words in WHERE_WORDS or words in CONSTRAINT_WORDS)
        head = m.end() - m.start()  # \\ at the start, \text{ right before the kept text (its offset unchanged)
        piece = ("\\\\" + " " * (head - 8) + "\\text{" + inner + "}") if keep else \
            ("\\\\" + re.sub(r"[^\n]", " ", body[m.start() + 2:end]))
        out += [body[last:m.start()], piece]
        last = i = end
    out.append(body[last:])
    return "".join(out)


SET_OPEN = re.compile(r"\\\{|\\lbrace(?![A-Za-z])")
SET_CLOSE = re.compile(r"\\\}|\\rbrace(?![A-Za-z])")


def _join_broken_sets(body: str) -> str:
    """``C^* := \\{C \\subseteq V \\mid |C| > 1, \\\\ & g(C) = g^* \\}``: a set-builder broken across rows — the
    ``\\\\`` (with its ``[2pt]``) and the ``&`` inside a closed ``\\{…\\}`` (or ``\\lbrace…\\rbrace``) pair become
    spaces, so that the set stays one expression (its condition had become a relation, and a row, of its own).  Only
    those at the pair's own level: a nested array or cases keeps its rows; an unclosed ``\\left\\{ … \\right.`` joins
    nothing.  Offsets kept."""
    if "\\\\" not in body or not SET_OPEN.search(body):
        return body
    stack: list[tuple[int, int]] = []
    pairs: list[tuple[int, int, int]] = []
    env, i = 0, 0
    while i < len(body):
        if body.startswith("\\begin", i):
            env += 1
        elif body.startswith("\\end", i):
            env -= 1
        m = SET_OPEN.match(body, i) or SET_CLOSE.match(body, i)
        if m:
            if m.re is SET_OPEN:
                stack.append((m.end(), env))
            elif stack:
                start, level = stack.pop()
                pairs.append((start, m.start(), level))
            i = m.end()
            continue
        i += 2 if body[i] == "\\" else 1
    if not pairs:
        return body
    chars = list(body)
    for start, end, level in pairs:
        inner = body[start:end]
        if "\\\\" not in inner:
            continue
        depth, k = level, start
        while k < end:
            if body.startswith("\\begin", k):
                depth += 1
            elif body.startswith("\\end", k):
                depth -= 1
            if depth == level and body.startswith("\\\\", k):
                r = re.compile(r"\\\\\s*(?:\[[^\]\n]{0,20}\])?\*?").match(body, k)
                chars[k:r.end()] = " " * (r.end() - k)
                k = r.end()
                continue
            if depth == level and body[k] == "&" and body[k - 1] != "\\":
                chars[k] = " "
            k += 2 if body[k] == "\\" else 1
    return "".join(chars)


def rows(display: Display) -> list[tuple[int, str]]:
    """(offset, text) of each row (and each equation of a row, for ``a &= b & c &= d``)."""
    return [(off, text) for _, off, text in numbered_rows(display)]


def numbered_rows(display: Display) -> list[tuple[int, int, str]]:
    """(row, offset, text) of each row and each equation of a row (:func:`rows`), with the number of the display row
    (between ``\\\\``) it is on: the pieces of one row share it, so ``|x| &= -x && \\text{if } x < 0`` (an align's
    cells split in pairs: the equation, then its condition) keeps its condition on the equation's own row (counted
    as two rows, the condition had been a row of its own — the whole display's, assumed by every row's steps)."""
    body = INNER_OPEN.sub(lambda m: " " * len(m.group(0)), unwrap_hiderel(display.body))
    if "intertext" in body:
        body = _intertext_breaks(body)
    body = re.sub(r"\\(?:nonumber|notag)\b|\\label\s*\{[^{}]*\}", lambda m: " " * len(m.group(0)), body)  # (a \label line
    # between rows — "\label{eq:b} &\le …" — is no part of the row's mathematics: the relation continues the chain)
    # "\left( … \right.\right. \\ & \left.\left. … \right)": one expression broken over two rows (LaTeX's
    # placeholder delimiters): the rows are joined, the placeholders and the break become spaces (offsets kept)
    body = MULTILINE_DELIMS.sub(lambda m: " " * len(m.group(0)), body)
    body = _join_sized_close(body)
    body = _join_broken_sets(body)
    paired = display.env.rstrip("*") in PAIRED or re.search(r"\\begin\s*\{(aligned|split|alignedat)", display.body)
    out = []
    number = -1
    for off, row in _top_level_split(body, "\\\\"):
        if not row.strip():
            continue
        number += 1
        cells = _top_level_split(row, "&")
        # keep offsets honest: the column & become spaces; an & inside a nested cases/matrix stays
        blank = "".join(" " if k in {o - 1 for o, _ in cells[1:]} else c for k, c in enumerate(row))
        if paired and len(cells) > 2:
            for k in range(0, len(cells), 2):
                piece = cells[k:k + 2]
                o = piece[0][0]
                text = blank[o:piece[-1][0] + len(piece[-1][1])] if len(piece) == 2 else piece[0][1]
                words = _words_only(text) if k else None
                if words is not None:
                    # "&\le 2a + c & \text{Jensen}": a column of words beside the row is its justification, no math
                    display.notes.append((display.body_start + off + o, words))
                    continue
                out.append((number, display.body_start + off + o, text))
        else:
            out.append((number, display.body_start + off, blank))
    return out


WORDS_CMD = re.compile(r"\s*\\(?:text|textrm|textnormal|mbox|hbox|textit|textbf|textsf|emph)\s*\{")
TAG_CMD = re.compile(r"\s*\\tag\s*\*?\s*\{")


def _words_only(cell: str) -> str | None:
    """The words of an align cell that holds nothing but ``\\text{…}`` groups (and numbering or spacing), with no
    relation in them; None for any other cell."""
    i, words = 0, []
    rest = re.sub(ROW_NOISE, " ", cell)
    while True:
        m = WORDS_CMD.match(rest, i) or TAG_CMD.match(rest, i)
        if not m:
            break
        g = _group_end(rest, m.end() - 1)
        words.append(rest[m.end():g - 1])
        i = g
    text = " ".join(" ".join(words).split())
    if not words or rest[i:].strip(" \t\n.,;") or RELATION_HINT.search(text) or not re.search(r"[A-Za-z]{2,}", text):
        return None
    return text


ROW_BREAK_AFTER_RIGHT = re.compile(r"\\right\s*\.\s*\\\\(?:\s*\[[^\]\n]{0,20}\])?\s*&?")
SIZED_CLOSE = re.compile(r"\\(?:big|Big|bigg|Bigg)r?\s*([)\]])")


def _join_sized_close(body: str) -> str:
    """``\\left( … \\right. \\\\ & + … \\bigg)``: one bracket broken over two rows, closed by a sized bracket on the
    next row (LaTeX needs no \\left there) — the rows are joined, the \\left and \\right. become spaces and the
    bracket is an ordinary one (offsets kept); a relation inside it is the bracket's own, never a step's (the rows had
    been split at it into fragments)."""
    for m in reversed(list(ROW_BREAK_AFTER_RIGHT.finditer(body))):
        # the \left this \right. closes
        depth, k, opened = 0, m.start(), None
        for lr in reversed(list(re.finditer(r"\\(left|right)(?![A-Za-z])", body[:m.start()]))):
            if lr.group(1) == "right":
                depth += 1
            elif depth:
                depth -= 1
            else:
                opened = lr
                break
        if opened is None:
            continue
        delim = body[opened.end():].lstrip()[:1]
        if delim not in "([":
            continue
        rest = body[m.end():]
        nxt = re.search(r"\\\\", rest)
        row = rest[:nxt.start()] if nxt else rest
        close = next((c for c in SIZED_CLOSE.finditer(row) if c.group(1) == {"(": ")", "[": "]"}[delim]), None)
        if close is None or _open_before(row[:close.start()], delim):
            continue
        body = body[:opened.start()] + " " * 5 + body[opened.end():m.start()] + " " * (m.end() - m.start()) + \
            body[m.end():]
    return body


def _open_before(text: str, delim: str) -> bool:
    """An unclosed ``delim`` in ``text`` (then the sized closer after it is that one's)."""
    closer = {"(": ")", "[": "]"}[delim]
    return text.count(delim) > text.count(closer)


def unwrap_hiderel(body: str) -> str:
    """``\\hiderel{\\le}`` as the ``\\le`` it wraps: the command and its braces become spaces (offsets kept)."""
    for m in reversed(list(HIDEREL.finditer(body))):
        end = _group_end(body, m.end() - 1)
        if end > len(body) or body[end - 1] != "}":
            continue  # unbalanced: left as written (then unreadable, with the reason)
        body = body[:m.start()] + " " * (m.end() - m.start()) + body[m.end():end - 1] + " " + body[end:]
    return body


MULTILINE_DELIMS = re.compile(r"(?:\\right\s*\.\s*)+\\\\(?:\s*\[[^\]]*\])?\s*&?\s*(?:\\left\s*\.\s*)+")
BRACKET_CMD = re.compile(r"\\(?:(\{|langle(?![A-Za-z])|lbrace(?![A-Za-z]))|(\}|rangle(?![A-Za-z])|rbrace(?![A-Za-z])))")


def _bracket_cmd(text: str, i: int) -> tuple[int, int] | None:
    """(+1 or −1, length) when a bracket command (``\\{``, ``\\langle``, ``\\lbrace`` and their closers) starts
    at ``i``."""
    m = BRACKET_CMD.match(text, i)
    if not m:
        return None
    return (1 if m.group(1) else -1), m.end() - i


#: a braced label, up to three levels deep (``{(\\ref{e})}``, ``{\\text{(\\ref{e})}}``)
_LABEL_GROUP = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
#: an arrow with a label set over it: ``\\stackrel{(a)}{\\implies}``, ``\\overset{\\text{Lem. 2}}{\\iff}``
LABELLED_ARROW = re.compile(r"\\(?:stackrel|overset|underset)\s*(" + _LABEL_GROUP + r")\s*\{\s*(\\(?:iff|implies|"
                            r"Longrightarrow|Rightarrow|Leftrightarrow|Longleftrightarrow))\s*\}")
STOP_RE = re.compile(LABELLED_ARROW.pattern + "|"
                     r"\\(?:text|textrm|textnormal|mbox|hbox|textit|textbf|mathrm|emph|intertext|textsf|"
                     r"condition\s*\*?\s*(?:\[[^\]{}]*\])?)\s*\{|"
                     r"\\(?:quad|qquad|forall|because|hspace\s*\{[^{}]*\}|;|,\s*\\quad)|\\(?:iff|implies|Longrightarrow|"
                     r"Rightarrow|Leftrightarrow|Longleftrightarrow)(?![A-Za-z])")
PROSE_CMDS = {"\\text", "\\textrm", "\\textnormal", "\\mbox", "\\hbox", "\\textit", "\\textbf", "\\emph",
              "\\intertext", "\\textsf", "\\mathrm"}


#: upright operator names written with \text before an operand without brackets (\text{diam} S, \text{rank} A)
#: (those with no function of their own, read as one unknown per operand: ``grammar``'s upright operators)
#: the words of a universal quantifier ("\\forall", "\\text{for all}"): one that opens a row scopes the row
QUANTIFIER_WORDS = ("for all", "for any", "for every", "for each")

UPRIGHT_OPERATORS = frozenset({"diam", "dist", "vol", "rank", "dim", "supp", "span", "conv", "card", "lip", "proj", "prox",
                               "poly"})
OPERATOR_WORDS = UPRIGHT_OPERATORS | {"tr", "trace", "sgn", "sign", "diag", "vec", "det", "deg", "var", "cov", "kl",
                                      "sinc", "erf", "erfc"}


#: the wrappers that set words in maths (``\mbox{AMSE}``, ``\textbf{u}``): a name when what they wrap is one
WORD_WRAPPERS = {"\\text", "\\textrm", "\\textnormal", "\\mbox", "\\hbox", "\\textit", "\\textbf", "\\textsf", "\\emph",
                 "\\textup"}
#: one word, perhaps with digits, hyphens or primes and one bracketed argument list (``Cost(A)``, ``R-squared``,
#: ``AMSE(OLS)``): no space, no dot, no maths
WRAPPED_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*(?:\([A-Za-z0-9,]+\))?")
PROSE_WORDS = {"if", "for", "and", "or", "when", "where", "s", "st", "with", "then", "else", "as", "so", "since", "thus",
               "hence", "by", "since", "all", "any", "each", "every", "some", "otherwise", "is", "are", "we", "let"}


def _group_end(text: str, i: int) -> int:
    """Offset after the ``{…}`` group that starts at ``i`` (``text[i] == '{'``)."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{" and (j == 0 or text[j - 1] != "\\"):
            depth += 1
        elif text[j] == "}" and (j == 0 or text[j - 1] != "\\"):
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


_RELATIONS = (r"(?:=|<|>|\\(?:le|leq|ge|geq|neq|ne|approx|sim|simeq|equiv|lesssim|gtrsim|preceq|succeq|propto|ll|gg|"
              r"leqslant|geqslant|triangleq|coloneqq|eqqcolon|doteq|cong|asymp)(?![A-Za-z]))")
#: a thick space (``\;``) right after / right before a relation symbol (an alignment ``&`` between them allowed)
RELATION_AFTER = re.compile(r"\s*(?:&\s*)?" + _RELATIONS)
RELATION_BEFORE = re.compile(_RELATIONS + r"\s*(?:&\s*)?$")
#: an integral's differential after spacing: ``d\tau``, ``d~\tau``, ``\mathrm{d}x``, ``dx`` (then no letter)
#: the upright d of a differential: ``\\mathrm{d}``, ``\\textrm{d}``, ``\\text{d}`` (a paper's ``\\d``)
UPRIGHT_D = r"\\(?:mathrm|textrm|text|textnormal|textup|operatorname|mbox)\s*\{\s*d\s*\}"
DIFFERENTIAL = re.compile(r"\s*(?:d|" + UPRIGHT_D + r")\s*~?\s*(?:\\[A-Za-z]+|[A-Za-z](?![A-Za-z]))")


def _inside_parens(row: str) -> list[bool]:
    """For each offset of ``row``: does it lie inside a matched pair of round or square brackets, or of
    ``\\left … \\right``?  An unmatched one (the ``(`` of ``(0, 1]``, the ``)`` of ``[0, 1)``) opens or closes
    nothing; a ``\\right`` closes its ``\\left`` (and whatever is left open inside it)."""
    inside = [False] * (len(row) + 1)
    stack: list[tuple[str, int]] = []
    i, n = 0, len(row)
    while i < n:
        c = row[i]
        m = LEFT_RIGHT.match(row, i) if c == "\\" else None
        if m:
            if m.group(1) == "left":
                stack.append(("L", i))
            else:
                while stack and stack[-1][0] != "L":
                    stack.pop()
                if stack:
                    _, a = stack.pop()
                    for k in range(a + 1, i):
                        inside[k] = True
            i = m.end()
            continue
        if c == "\\":
            i += 2
            continue
        if c in "([":
            stack.append((c, i))
        elif c in ")]" and stack and stack[-1][0] == {")": "(", "]": "["}[c]:
            _, a = stack.pop()
            for k in range(a + 1, i):
                inside[k] = True
        i += 1
    return inside


#: ``\left(`` … ``\right)`` with its delimiter (``\left.``, ``\left\{``, ``\right\rangle``)
LEFT_RIGHT = re.compile(r"\\(left|right)(?![A-Za-z])\s*(?:\\[A-Za-z]+|\\.|.)?")


def segments(row: str, pos: int, notes: list | None = None, facts: list | None = None) -> list[Segment]:
    """The row cut at prose (``\\text{…}``, ``\\quad``, ``\\forall``, ``\\implies``) into segments with roles; a
    justification written as words (``\\text{($f$ is $2$-Lipschitz)}`` at the row's end) is no math: it goes to
    ``notes`` as (offset, text), and the relations a bracketed one states (``\\text{($\\|x\\| = 1$)}``) go to
    ``facts`` (:func:`justification_facts`)."""
    out: list[Segment] = []
    start, role, word, i = 0, "main", "", 0
    depth = 0
    n = len(row)
    env = 0
    in_parens = _inside_parens(row)
    lead = False  # the segment being read is a quantifier that opens the row ("\\forall x \\in S, \\qquad …")
    label = ""  # the label over the arrow that opened the segment being read
    while i < n:
        c = row[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "\\" and row.startswith("\\begin", i):
            env += 1
        elif c == "\\" and row.startswith("\\end", i):
            env -= 1
        bracket = _bracket_cmd(row, i) if c == "\\" else None
        if bracket:  # a set-builder \{ … \} or \langle … \rangle: prose inside it is the set's own, not a cut
            depth += bracket[0]
            i += bracket[1]
            continue
        if c != "\\" or depth > 0 or env > 0:
            i += 1
            continue
        m = STOP_RE.match(row, i)
        if not m:
            i += 2 if i + 1 < n and not row[i + 1].isalpha() else 1
            while i < n and row[i].isalpha() and row[i - 1] != "\\":
                i += 1
            continue
        tok = m.group(0)
        end = m.end()
        arrow_label = ""
        if m.group(2):  # \stackrel{(a)}{\implies}: the arrow, its label kept for what it opens
            arrow_label = " ".join(m.group(1)[1:-1].split())
            tok = m.group(2)
        if re.search(r"[_^]\s*$", row[max(0, i - 4):i]):
            # \sigma_\text{\rm min}, x^\mathrm{opt} (a macro's unbraced script): the name's label, never prose
            i = _group_end(row, end - 1) if tok.endswith("{") else end
            continue
        condition, maths = tok.startswith("\\condition"), None
        if in_parens[i] and not tok.endswith("{"):
            i = end  # \Pr((i, j) \in E \; | \; i \notin E): spacing inside brackets is the event's own, no cut
            continue
        if tok in ("\\;", "\\quad") and DIFFERENTIAL.match(row, end):
            i = end  # "\int_0^t f \; d~\tau": the space before an integral's differential is no cut
            continue
        if tok == "\\;" and (_open_integral(row[start:i]) and _differential_ahead(row, end) or
                              _inside_measure_first(row[start:i])):
            # "\int_0^1 dx \; x^2 = 1/3", "\int d\lambda\;[f]\;\rho(\lambda)", "\int_0^1 x \; y \, dx": a thick space
            # inside an integral (before its integrand, or between the integrand's factors) is no cut — cutting had
            # left "x^2 = 1/3" a relation of its own (refuted)
            i = end
            continue
        if tok == "\\;" and row[start:i].strip() and (RELATION_AFTER.match(row, end) or
                                                    RELATION_BEFORE.search(row[max(0, i - 40):i])):
            i = end  # "a \; = \; b": a thick space around a relation is the relation's, no cut
            continue
        prose = ""
        if tok.endswith("{"):
            name = tok[:-1].strip()
            g = _group_end(row, end - 1)
            inner = row[end:g - 1]
            if in_parens[i] and not condition and re.fullmatch(r"\s*(?:and|or|,\s*and|but)\s*", inner, re.I):
                # \Pr\left[J < \infty \text{ and } S_J \ge c\right] \le p: the words join the event's two conditions
                # inside the brackets — no cut (cutting there had split the row at the event's own \ge)
                i = g
                continue
            if name == "\\mathrm" and not re.fullmatch(r"\s*(s\.t\.|st|subject to|and|for|if|where|when|or|otherwise)"
                                                        r"\s*[.,]?\s*", inner):
                i = g  # \mathrm{…} is a name, not prose
                continue
            if not condition and re.fullmatch(r"[A-Za-z]{1,8}", inner) and inner.lower() not in PROSE_WORDS and \
                    re.match(r"\s*(?:\(|\\left|\\big|\\Big|_|\^|\[)", row[g:]):
                i = g  # \text{tr}(XY), \text{KL}_{…}: an operator's name applied, not prose
                continue
            if not condition and name in WORD_WRAPPERS and WRAPPED_NAME.fullmatch(inner) and \
                    not set(re.split(r"[^a-z]+", inner.split("(")[0].lower())) & NOT_A_NAME:
                i = g  # \mbox{AMSE}, \textbf{u}, \mbox{Cost(A)}: a name written upright or bold, never prose (deleting
                # it had fabricated relations: "\mbox{C(A)} = u + v, \quad \mbox{C(B)} = u + 2v" became u + v = u + 2v)
                continue
            if not condition and inner.strip().lower() in OPERATOR_WORDS and \
                    re.match(r"\s*(?:\\[,;:! ]\s*)*(?:[A-Za-z]|\\[A-Za-z]+)", row[g:]):
                i = g  # (\text{diam} S) u: an operator's name before its operand, not prose (it had been deleted: S·u)
                continue
            if not condition and re.search(r"(?:[-+]|\\pm|\\mp)\s*$", row[start:i]) and \
                    (OMITTED_TERMS.search(inner) or len(re.findall(r"[A-Za-z]+", re.sub(r"\$[^$]*\$", " ", inner))) >= 2):
                # "… + \text{higher order terms in }v", "+ \text{a term quadratic in $v$}": words for a term, inside the
                # formula — an unknown, never its maths alone (read as "+ v" the expansion had been refuted)
                i = g
                continue
            prose, end = inner, g
            if not condition and maths is None and "$" in inner and RELATION_HINT.search(inner) and \
                    _bracketed_note(inner, row[g:]):
                # "&\ge -\|A\|_2 &\text{($\|x\|_2 = 1$)}": a bracketed note on the row (its reason or assumption),
                # never a relation of its own (‖x‖ = 1 had been refuted) nor the start of the next row's chain
                if notes is not None:
                    notes.append((pos + g - 1 - len(inner), " ".join(inner.split())))
                if facts is not None:
                    facts.extend(justification_facts(inner, pos + g - 1 - len(inner)))
                if row[start:i].strip():
                    out.append(Segment(row[start:i], pos + start, role, word, lead=lead, label=label))
                label, start, i = "", g, g
                continue
            if condition or RELATION_HINT.search(inner) and "$" in inner:
                # \text{for $x > 0$}, breqn's \condition{for $x > 0$}: the words before the math give the role,
                # each piece of math with a relation is a segment of its own (the words between are no factors)
                prose = inner[:inner.index("$")] if "$" in inner else inner
                maths = [(g - 1 - len(inner) + mm.start(1), mm.group(1))
                         for mm in re.finditer(r"\$([^$]*)\$", inner) if RELATION_HINT.search(mm.group(1))]
        elif tok.startswith("\\forall"):
            prose = "for all"
        elif tok.startswith("\\because"):
            prose = "because"  # "… \quad \because c \ge 0": why the row holds (a condition), never a new chain
        elif tok.startswith(("\\iff", "\\Leftrightarrow", "\\Longleftrightarrow")):
            prose = "equivalent"  # ⟺: the role is "implied" as for ⟹; the word tells the two apart
        elif tok.startswith(("\\implies", "\\Longrightarrow", "\\Rightarrow")):
            prose = "implies"
        if row[start:i].strip():
            out.append(Segment(row[start:i], pos + start, role, word, lead=lead, label=label))
        label = arrow_label
        w = " ".join(re.sub(r"[^A-Za-z. ]", " ", re.sub(r"\\[A-Za-z]+", " ", prose)).lower().split())  # {\it s.t.}\xspace: s.t.
        math_in_prose = re.sub(r"^[^$]*", "", prose) if "$" in prose else ""
        new_role = _role(w, role)
        opens = not re.sub(ROW_NOISE + r"|&", "", row[start:i]).strip() and all(sg.lead for sg in out)
        if lead and not w and not prose and tok.startswith(("\\quad", "\\qquad", "\\hspace", "\\;", "\\,")) and \
                not (LEADING_RELATION.match(row, end) or LEADING_OPERATOR.match(row, end)):
            # "\forall x \in S, \qquad (x+1)^2 = …": the spacing after a quantifier that opens the row ends it; what
            # follows is the statement it quantifies (it had stayed a side condition: the chain was never checked)
            new_role = "main"
        lead = (opens or lead) and new_role == "condition" and w.startswith(QUANTIFIER_WORDS)
        if condition and new_role not in ("where", "constraint"):
            new_role = "condition"  # \condition{…}: the display's side condition, whatever its words
        if maths is not None:
            out.extend(Segment(text, pos + at, new_role, w) for at, text in maths)
        elif prose and new_role == "also" and _justification(prose, w, row[end:]):
            # "&\le 2a + c & \text{($f$ is $2$-Lipschitz)}": why the row holds, never part of its formula (its
            # words and inline math had been glued on as factors: c·(f·i·s·2 − Lipschitz)); kept as the row's note
            if notes is not None:
                notes.append((pos + end - len(prose) - 1, " ".join(prose.split())))
        elif prose and math_in_prose:
            out.append(Segment(re.sub(r"\$", " ", prose), pos + end - len(prose) - 1, new_role, w))
        role, word, start, i = new_role, w, end, end
    if row[start:].strip():
        out.append(Segment(row[start:], pos + start, role, word, lead=lead, label=label))
    elif word and role in ("where", "constraint"):  # "…, \text{where} \\": the role carries to the next row
        out.append(Segment("", pos + start, role, word))
    return _split_commas(out)


#: words for terms a formula leaves out ("higher order terms", "h.o.t.", "terms of order", "remainder")
OMITTED_TERMS = re.compile(r"\b(?:higher[- ]order|lower[- ]order|h\.\s*o\.\s*t\b|hot\b|terms? of (?:higher |lower )?order|"
                           r"remainder|smaller[- ]order|other terms|error terms?|negligible)", re.I)


def _bracketed_note(inner: str, after: str) -> bool:
    """Is a ``\\text{(…)}`` wholly in brackets, with no words before its maths that give it a role (a condition
    "for", a definition "where"), and at its row's end (only spacing, numbering, punctuation after it)?"""
    if not re.fullmatch(r"\s*\((?:.*)\)\s*[.,;]?\s*", inner, re.S):
        return False
    words = " ".join(re.sub(r"[^A-Za-z. ]", " ", inner[:inner.index("$")]).lower().split())
    if words and _role(words, "main") in ("condition", "where", "constraint"):
        return False
    return not re.sub(ROW_NOISE + r"|\\tag\s*\*?\s*\{[^{}]*\}|[.,;&\s]", "", after)


#: what a bracketed justification may hold besides its relations and still be read whole ("($a = 1$ and $b = 2$)")
_FACT_GLUE = re.compile(r"[\s(),;.]|\band\b|\\[,;:! ]|\\q?quad\b")


def justification_facts(inner: str, at: int) -> list[Segment]:
    """The relations a bracketed justification states (``($\\|x\\| = 1$)``, or ``(b = 1)`` written as maths after
    spacing), as segments (role "condition", word "justification") assumed by the links of their row.  A note with
    words beside its relations ("(by Lemma 2 with $c = 1$)") is not read: one segment of the whole note, word
    "unread justification", so that no refutation of its row stands on a fact the words may state.  ``at``: the
    offset of ``inner`` in the document."""
    if "$" in inner:
        pieces = [(at + m.start(1), m.group(1)) for m in re.finditer(r"\$([^$]*)\$", inner)]
        rest = re.sub(r"\$[^$]*\$", " ", inner)
    else:
        m = bracketed_remark(inner)
        pieces, rest = ([(at + m.start(1), m.group(1))] if m else []), ""
    pieces = [(p, t) for p, t in pieces if RELATION_HINT.search(t)]
    if not pieces:
        return []
    if _FACT_GLUE.sub("", rest):
        return [Segment(" ".join(inner.split()), at, "condition", "unread justification")]
    return [Segment(t, p, "condition", "justification") for p, t in pieces]


BRACKETED_REMARK = re.compile(r"\s*\((.*)\)\s*[.,;]?\s*", re.S)


def bracketed_remark(text: str) -> re.Match | None:
    """``text`` wholly one pair of brackets (``(\\|x\\| = 1).``; not ``(a) + (b = c)``), its inside as group 1."""
    m = BRACKETED_REMARK.fullmatch(text)
    if not m:
        return None
    depth = 0
    for c in m.group(1):
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return None
    return m if depth == 0 else None


#: words that join two pieces of a display, never a justification of their own
CONNECTIVES = {"and", "or", "i.e.", "i.e", "ie", "that is", "hence", "thus", "so", "therefore", "then", "so that",
               "which gives", "which implies", "we have", "and thus", "and hence", "as well as", "while", "otherwise",
               "else", "resp", "resp."}


def _justification(prose: str, words: str, after: str) -> bool:
    """Is the prose of a ``\\text{…}`` (its words ``words``) a reason the row holds, written as words, which ends
    the row (only spacing, numbering or punctuation after it) or stands in brackets — "($f$ is $2$-Lipschitz)",
    "[Cauchy--Schwarz]", "by convexity of $f$"?"""
    if not words or words in CONNECTIVES or not re.search(r"[A-Za-z]{2,}", re.sub(r"\$[^$]*\$", " ", prose)):
        return False
    if RELATION_HINT.search(prose):
        return False
    bracketed = bool(re.fullmatch(r"\s*[(\[].*[)\]]\s*[.,;]?\s*", prose, re.S))
    ends = not re.sub(ROW_NOISE + r"|\\tag\s*\*?\s*\{[^{}]*\}|[.,;&\s]", "", after)
    return ends or bracketed or bool(JUSTIFICATION.match(words))


#: words that make a wrapped word prose ("\text{if}", "\mbox{iid}", "\text{otherwise}"), never a name
NOT_A_NAME = PROSE_WORDS | {"iff", "otherwise", "else", "such", "that", "which", "ie", "eg", "resp", "iid", "whp", "wp",
                            "as", "a", "an", "the", "of", "to", "in", "on", "at", "be", "if", "def", "subject", "given",
                            "provided", "assuming", "unless", "whenever", "over", "because", "via", "using", "from",
                            "see", "cf", "where", "denote", "define", "setting", "set", "here", "holds", "hold", "even",
                            "odd", "almost", "surely", "everywhere", "whereas", "but", "not", "no", "yes", "true",
                            "false", "else", "elsewhere", "const", "constant", "mod", "similarly", "likewise", "note"}


def _role(word: str, current: str) -> str:
    if not word:
        return "also" if current == "main" else current
    if word in ("implies", "equivalent"):
        return "implied"
    for w in CONSTRAINT_WORDS:
        if word.startswith(w) and w != "such that":
            return "constraint"
    for w in WHERE_WORDS:
        if word == w or word.startswith(w + " "):
            return "where"
    if re.fullmatch(r"as(?! well)(?: [a-z]+)?", word):  # "\\text{, as } \\rho \\in (0,1]": why it holds, an assumption
        return "condition"
    for w in CONDITION_WORDS:
        if word == w or word.startswith(w + " ") or word.endswith(" " + w):
            return "condition"
    if word in ("and", "or", "as well as") and current in ("condition", "where", "constraint"):
        return current  # "for all u \in H and g_t \in H": the condition goes on
    if word in ("and", "or", "i.e.", "i.e", "ie", "that is", "hence", "thus", "so", "therefore", "then", "so that",
                "which gives", "which implies", "we have", "and thus", "and hence", "as well as", "while"):
        return "also"
    return "also" if current == "main" else current


#: a differential anywhere (``dz``, ``d\\mu``, ``\\mathrm{d}x``), not the d inside a word or command
_ANY_DIFFERENTIAL = re.compile(r"(?<![A-Za-z\\])(?:d|" + UPRIGHT_D + r")\s*~?\s*(?:\\[A-Za-z]+|[A-Za-z](?![A-Za-z]))")


def _open_integral(text: str) -> bool:
    """Does ``text`` end inside an integral whose differential is still to come (``\\int_a^b \\frac{κ}{z}``)?"""
    last = text.rfind("\\int")
    return last >= 0 and not _ANY_DIFFERENTIAL.search(text, last + 4)


#: an integral sign with its limits (``\\int_0^1``, ``\\iint_{D}``, ``\\int\\limits_{a}^{b}``), then spacing
_INTEGRAL_SIGNS = re.compile(r"(?:\\[io]?int(?![A-Za-z])\s*(?:\\limits\s*|\\nolimits\s*)?"
                             r"(?:[_^]\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|[^\s{}\\])\s*)*"
                             r"(?:\\[,;:!]\s*|~\s*)*)+")
#: a differential written first (``d\\mu(A)``, ``dx``, ``\\mathrm{d}x``, ``\\mathcal{D}\\xi``) with the spacing after it
_LEADING_DIFFERENTIAL = re.compile(r"(?:(?:d|" + UPRIGHT_D + r"|\\mathcal\s*\{?\s*D\s*\}?)\s*~?\s*"
                                   r"(?:\\[A-Za-z]+\s*(?:\{[^{}]*\})?|[A-Za-z](?![A-Za-z]))\s*"
                                   r"(?:\^\s*(?:\{[^{}]*\}|\S)\s*)?(?:_\s*(?:\{[^{}]*\}|\S)\s*)?"
                                   r"(?:\((?:[^()]|\([^()]*\))*\))?\s*(?:\\[,;:!]\s*|~\s*)*)+")


def _inside_measure_first(text: str) -> bool:
    """Does ``text`` end inside the integrand of an integral written measure first (``\\int d\\lambda\\;[f]``,
    ``\\int_0^1 dx``): the last integral sign's limits are followed by differentials, and nothing after them ends
    the integrand (a top-level relation, ``+`` or ``-``)?"""
    last = text.rfind("\\int")
    if last < 0:
        last = max(text.rfind("\\iint"), text.rfind("\\oint"))
    if last < 0:
        return False
    signs = _INTEGRAL_SIGNS.match(text, last)
    if not signs:
        return False
    measure = _LEADING_DIFFERENTIAL.match(text, signs.end())
    if not measure:
        return False
    rest, depth = text[measure.end():], 0
    for k, c in enumerate(rest):
        depth += c in "{([" and (k == 0 or rest[k - 1] != "\\")
        depth -= c in "})]" and (k == 0 or rest[k - 1] != "\\")
        if depth == 0 and (c in "+-=<>" or RELATION_AFTER.match(rest, k) and rest[k] == "\\"):
            return False
    return True


def _differential_ahead(row: str, k: int) -> bool:
    """Is a differential written in ``row`` after offset ``k`` before the next top-level relation (the one that
    closes an integral left open before ``k``)?"""
    depth = 0
    for j in range(k, len(row)):
        c = row[j]
        depth += c in "{([" and row[j - 1] != "\\"
        depth -= c in "})]" and row[j - 1] != "\\"
        if depth < 0 or depth == 0 and (c in "=<>" or c == "\\" and RELATION_AFTER.match(row, j)):
            return bool(_ANY_DIFFERENTIAL.search(row, k, j))
    return bool(_ANY_DIFFERENTIAL.search(row, k))


def _split_commas(segs: list[Segment]) -> list[Segment]:
    """``a = b, \\; c = d`` / ``x_1 = 1, x_2 = 2``: a top-level comma between two relations separates them."""
    out = []
    for s in segs:
        pieces, depth, start = [], 0, 0
        t = s.text
        env = 0
        inside = _inside_parens(t)  # a \left[ … \right] pair holds its commas even when a bracket in it is unbalanced
        for i, c in enumerate(t):
            if c == "\\" and t.startswith("\\begin", i):
                env += 1
            elif c == "\\" and t.startswith("\\end", i):
                env -= 1
            if c == "\\" and t.startswith(("\\langle", "\\rangle"), i):  # ⟨g_t, w_t⟩: its comma is no cut
                depth += 1 if t[i + 1] == "l" else -1
            if c in "{([":
                depth += 1
            elif c in "})]":
                depth -= 1
            elif c in ",;" and depth == 0 and env <= 0 and (i == 0 or t[i - 1] != "\\") and not inside[i]:
                if c == "," and _open_integral(t[start:i]) and DIFFERENTIAL.match(t, i + 1):
                    continue  # "\int_a^b \frac{κ}{z} , dz": a comma slipped in for \, before the differential — no cut
                pieces.append((start, t[start:i]))
                start = i + 1
        pieces.append((start, t[start:]))
        if len(pieces) == 1:
            out.append(s)
            continue
        if s.role == "condition" and _name_list_bound([p for _, p in pieces]):
            # "\forall p, q, r \ge 0": one condition on a list of names, not a quantifier over p and a relation
            out.append(s)
            continue
        rest = t[pieces[1][0]:]
        if s.role == "condition" and s.lead and top_relation(rest) and not BARE_BOUND.match(rest) and \
                not MEMBERSHIP.match(rest) and not _name_list_bound([p for _, p in pieces]):
            # "\forall x \in S, (x + 1)^2 = …", "\forall 0 \le z \le 1, f(z) \le 1": a quantifier that opens the row
            # scopes the statement after its comma (its domain or bound is the statement's assumption)
            out.append(Segment(pieces[0][1], s.pos + pieces[0][0], "condition", s.word, lead=True))
            out.append(Segment(rest, s.pos + pieces[1][0], "main", ""))
            continue
        if s.role == "condition" and s.word.startswith("for all") and not RELATION_HINT.search(pieces[0][1]) and \
                "\\in" not in pieces[0][1] and RELATION_HINT.search(t[pieces[1][0]:]):
            # "\forall t, \|C(t)\| < \|B(t)\| + 4\epsilon": the quantifier ranges over t; the relation is the display's
            out.append(Segment(pieces[0][1], s.pos + pieces[0][0], "condition", s.word))
            out.append(Segment(t[pieces[1][0]:], s.pos + pieces[1][0], "main", ""))
            continue
        # merge pieces so that each one that is kept has a relation; a piece without one joins the previous one
        merged: list[list] = []
        for off, p in pieces:
            if merged and (not RELATION_HINT.search(p) or not RELATION_HINT.search(merged[-1][1])):
                merged[-1][1] += t[merged[-1][0] + len(merged[-1][1]):off] + p
            else:
                merged.append([off, p])
        for k, (off, p) in enumerate(merged):
            out.append(Segment(p, s.pos + off, s.role if k == 0 else ("also" if s.role == "main" else s.role), s.word,
                               label=s.label if k == 0 else ""))
    return out


#: a bound on one bare name ("y \\ge 0", "x_i < 1"): after a quantifier's comma, another condition, not a statement
BARE_BOUND = re.compile(r"\s*(?:[A-Za-z]|\\[A-Za-z]+)\s*(?:_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?\s*"
                        r"(?:\\geq?|\\leq?|\\geqslant|\\leqslant|[<>]|\\neq?|\\in(?![A-Za-z]))\s*"
                        r"-?\s*(?:[A-Za-z0-9.]+|\\[A-Za-z]+)\s*[.,;]?\s*$")
LIST_NAME = r"\s*(?:[A-Za-z]|\\[A-Za-z]+)\s*"
LIST_LAST = re.compile(LIST_NAME + r"(?:\\geq?|\\leq?|\\geqslant|\\leqslant|[<>]|\\in(?![A-Za-z]))")


def _name_list_bound(pieces: list[str]) -> bool:
    """``p, q, r \\ge 0`` cut at its commas: bare names, then a bare name with a bound or a set — a list of names
    the bound (or set) applies to.  Two pieces (``t, x \\ge 0``) only where both names are plain letters."""
    if len(pieces) < 2 or not LIST_LAST.match(pieces[-1]) or \
            not all(re.fullmatch(LIST_NAME, p) and not RELATION_HINT.search(p) for p in pieces[:-1]):
        return False
    return len(pieces) >= 3 or bool(re.fullmatch(r"\s*[A-Za-z]\s*", pieces[0]))


LEADING_OPERATOR = re.compile(r"^\s*(?:[+\-]|\\cdot|\\times|\\pm|\\mp)")
#: a row whose left cell is empty and whose right cell opens with an operator: ``\\ &- b^2 \le …``
COLUMN_OPERATOR = re.compile(r"\s*(?:\\(?:nonumber|notag|quad|qquad|[,;:!])\s*)*&\s*(?:\\(?:quad|qquad|[,;:!])\s*)*"
                             r"(?:[+\-]|\\cdot|\\times|\\pm|\\mp)")
LEADING_RELATION = re.compile(r"^\s*(?:[=<>]|\\(?:le|leq|ge|geq|leqslant|geqslant|lt|gt|ne|neq|approx|simeq|sim|"
                              r"propto|equiv|ll|gg|lesssim|gtrsim|asymp|coloneqq|coloneq|triangleq|eqqcolon|defeq|"
                              r"doteq|stackrel|overset|underset|xlongequal|preceq|succeq|prec|succ|leftarrow|gets)(?![A-Za-z])|:=)")


#: a relation stacked under a label inside a math-class box: ``\\mathop{\\overset{def}{=}}``, ``\\mathrel{\\stackrel{…}{…}}``
BOXED_RELATION = re.compile(r"\\(?:mathop|mathrel|ensuremath)\s*\{(?=\s*\\(?:overset|stackrel|underset)(?![A-Za-z]))")


def _top_relation_ends(text: str):
    """The end offset of each relation outside every bracket, left to right (``\\left``/``\\right`` and ``\\{``
    ``\\}`` counted as brackets; TeX groups ``{…}`` counted apart, so a stray ``)`` before ``\\mathbb{E}_{Y \\sim β}``
    never makes that ``\\sim`` a relation of the row)."""
    depth = braces = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("\\left", i) or text.startswith("\\right", i):
            i += 5 if text.startswith("\\left", i) else 6
            continue
        if c == "\\" and i + 1 < n and text[i + 1] in "{}":
            depth += 1 if text[i + 1] == "{" else -1
            i += 2
            continue
        boxed = BOXED_RELATION.match(text, i) if c == "\\" and depth <= 0 and braces <= 0 else None
        if boxed:  # \mathop{\overset{def}{…=…}} (a paper's \eqdef): a relation, though written in braces
            end = _group_end(text, boxed.end() - 1)
            yield end
            i = end
            continue
        if c == "{":
            braces += 1
        elif c == "}":
            braces = max(0, braces - 1)
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth <= 0 and braces <= 0:
            m = RELATION_HINT.match(text, i)
            if m and (c != "\\" or m.start() == i):
                yield m.end()
                i = m.end()
                continue
        i += 1


def top_relation(text: str) -> bool:
    """A relation outside every bracket (``P(Y = 1)`` has none; ``a = P(Y = 1)`` has one)."""
    return next(_top_relation_ends(text), None) is not None


# what a row carries besides its mathematics: numbering commands, labels and spacing
ROW_NOISE = r"\\(?:nonumber|notag|label\s*\{[^{}]*\})|\\[,;:!]|\\quad|\\qquad"


#: ``X \in S`` / ``A, B \in S`` opening a segment: names said to lie in a set
MEMBERSHIP = re.compile(r"^\s*(?:(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*,\s*)*"
                        r"(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*\\in(?![A-Za-z])")


#: a row opened by mathtools' ``\MoveEqLeft`` (its ``[n]`` optional): the left side of a new chain
MOVE_EQ_LEFT = re.compile(r"\s*\\MoveEqLeft(?![A-Za-z])")


def chains(display: Display) -> None:
    """Fill ``display.chains`` and ``display.conditions`` from its rows (each condition remembers its row)."""
    current: Chain | None = None
    pending = None  # "…, \text{where} \\ & u_k = …": a role word that ends its row applies to the next row
    logic_last: Chain | None = None  # the last side of a chain of propositions (the left side of the next arrow)
    logic_prev = False  # the row before was a chain of propositions joined by ⟺/⟹ (see _logical_row)
    for k, pos, row in numbered_rows(display):  # k: the display row (an align's equation and its condition share it)
        facts: list[Segment] = []
        segs = _inline_cases(segments(row, pos, display.notes, facts))
        if segs and segs[-1].role == "also" and not segs[-1].word and len(segs) > 1 and \
                bracketed_remark(segs[-1].text) and RELATION_HINT.search(segs[-1].text):
            # "… = \|A\| \qquad (\|x\| = 1).": a bracketed remark after spacing at the row's end is the row's
            # justification, never a factor of its formula (read as one, the row had been unreadable)
            remark = segs.pop()
            display.notes.append((remark.pos, " ".join(remark.text.split()).rstrip(".,;")))
            facts.extend(justification_facts(remark.text, remark.pos))
        for fact in facts:
            fact.row = k
        display.justifications.extend(facts)
        first_seg = segs[0] if segs else None
        logic = _logical_row(segs, logic_prev)
        logic_prev = bool(logic)
        if not logic:
            logic_last = None
        if logic:
            # "x \text{ tame} \iff x^2 \le 1 \iff -1 \le x \le 1": one logical statement; no side of it is a step
            # (each side had been checked on its own: x² ≤ 1 "false for x = 2")
            if not logic_last or not (segs and segs[0].role == "implied"):
                logic_last = None  # a new statement (its row does not open with an arrow)
            if logic_last is None and segs and segs[0].role == "implied" and display.chains and \
                    display.chains[-1].role == "main" and len(display.chains[-1].parts) == 1 and \
                    display.chains[-1].parts[0].row == k - 1 and top_relation(display.chains[-1].parts[0].text):
                # "&\ f(a) \ge g \\ \Leftrightarrow &\ …": the row above is the chain's first proposition
                logic_last = display.chains[-1]
                logic_last.role = logic
            for seg in segs:
                seg.row = k
                if seg.role in ("main", "also", "implied") and re.search(r"[A-Za-z0-9]", re.sub(ROW_NOISE, "", seg.text)):
                    current = Chain([seg], logic)
                    display.chains.append(current)
                    if seg.role == "implied" and logic_last is not None:
                        display.logic.append((logic_last, current, seg.word))  # the two sides of one ⟺ / ⟹
                    logic_last = current
                elif seg.role == "condition" and (top_relation(seg.text) or "\\in" in seg.text):
                    display.conditions.append(seg)
            current = None
            continue
        for seg in segs:
            seg.row = k
            # "q = r + s, \\ & \le …": the punctuation ends the relation; it is no part of its math
            m = re.search(r"(?<!\\)[,;]((?:\s|\\(?:nonumber|notag|label\s*\{[^{}]*\}|tag\s*\{[^{}]*\}|[,;:!]|quad|qquad))*)$",
                          seg.text)
            if m and not seg.text.rstrip().endswith("\\}") and _balanced(seg.text[:m.start()]):
                seg.text, seg.comma = seg.text[:m.start()] + m.group(1), True
            bare = re.sub(ROW_NOISE, "", seg.text)
            if not bare.strip() or not re.search(r"[A-Za-z0-9\\]", bare):
                if seg.role in ("where", "constraint") and seg.word:
                    pending = seg.role
                continue
            if pending and seg.role in ("main", "also") and not seg.word:
                seg.role = pending
            pending = None
            has_rel = top_relation(seg.text)
            if seg.role in ("condition",):
                if has_rel or RELATION_HINT.search(seg.text) or "\\in" in seg.text:  # x > 0, or "for all x \in R" (what the display ranges over)
                    display.conditions.append(seg)
                continue
            if seg.role == "also" and JUSTIFICATION.match(seg.word):
                # "… \quad \text{by linearity of } F_{\mathbb{R}}": the reason's own math, never a factor; a reason
                # with a relation ("using a \le b") is a relation of its own that the next row does not continue
                if has_rel:
                    display.chains.append(Chain([seg], "main"))
                continue
            if seg.role == "also" and not seg.word and MEMBERSHIP.match(seg.text):
                # "… \quad X \in \mathbb{P}_d, \; A, B \in …": after spacing, names said to lie in a set are the
                # display's side condition, never a factor of the row before
                display.conditions.append(seg)
                continue
            starts_rel = bool(LEADING_RELATION.match(seg.text))
            if seg.role == "implied" and not starts_rel:
                # "a = 1 \implies a^2 = 1": the antecedent is the consequent's condition, never a step of its own
                # (a = 1 had been refuted), and the consequent never continues it (m > k ⟹ D → ∞ had been read
                # m > k·D)
                before: list = []
                if current is not None and len(current.parts) == 1 and current.parts[0].row == k and \
                        current.role == "main" and display.chains and display.chains[-1] is current and \
                        top_relation(current.parts[0].text):
                    display.chains.pop()
                    ante = current.parts[0]
                    display.conditions.append(Segment(ante.text, ante.pos, "condition", "antecedent", ante.row,
                                                      ante.comma))
                elif current is not None and display.chains and display.chains[-1] is current:
                    # "A ⟹ B ⟹ C" (B a step from A), or "a = b \\ = c ⟹ d": the consequent rests on the chain
                    # before it and on what that chain rested on — never checked without them (its refutation had
                    # picked values the antecedent excludes)
                    before = [*current.antecedents, current]
                current = Chain([seg], "implied", before)
                display.chains.append(current)
                continue
            starts_op = bool(LEADING_OPERATOR.match(seg.text))
            # "a &= b + c \\ &- d \le e": an operator in the relation column (the row's left cell empty) continues the
            # right side above, even when the row goes on to a relation of its own ("- x^2 &\le 1" starts anew)
            column_op = starts_op and has_rel and seg is first_seg and \
                bool(COLUMN_OPERATOR.match(display.body, pos - display.body_start))
            # "lhs \\ &\qquad= rhs": a relation after spacing continues the row before (its left side); so does
            # "… \le A s \\ \nonumber &\qquad + B t =: E": the operator after the spacing continues the right side
            # above (read alone, the bound had lost its second term and the definition its first)
            if seg.role in ("where", "constraint") or (seg.role == "implied" and has_rel) or \
                    (seg.role == "also" and has_rel and not ((starts_rel or column_op) and current is not None)):
                current = Chain([seg], seg.role if seg.role not in ("also",) else "main")
                display.chains.append(current)
                continue
            # "… < \infty, \\ & \lim …": a row after one that ended with a comma starts a new expression
            ended = current is not None and (current.parts[-1].comma or
                                             re.search(r"[,;]\s*$", _bare(current.parts[-1].text)))
            if starts_rel and ended and seg.word and current is not None and current.parts[-1].row == k:
                # "A = u + v, \quad \mbox{…} = u + 2v" with the words cut: a relation after a comma and prose on the
                # same row has lost its left side — never the right side above continued (u + v = u + 2v)
                current = Chain([seg], "main")
                display.chains.append(current)
                continue
            if MOVE_EQ_LEFT.match(seg.text):
                # "\MoveEqLeft a \\ &= b": mathtools opens a new chain's left side; never the right side above
                # continued (read so, "… =: E(x) \\ \MoveEqLeft \|f\|" had defined E(x)·‖f‖)
                current = Chain([seg], "main")
                display.chains.append(current)
                continue
            if current is not None and (starts_rel or (starts_op and not has_rel) or (not has_rel and not ended) or
                                        (column_op and not ended)):
                current.parts.append(seg)
                continue
            current = Chain([seg], "main")
            display.chains.append(current)


def _logical_row(segs: list[Segment], after_logic: bool) -> str:
    """"equivalence" or "implication" when a row is a chain of propositions joined by ⟺ / ⟹ that no side of is a
    step: any ⟺, two or more ⟹, a ⟹ whose antecedent is no relation ("x \\text{ tame} \\implies …"), or a row
    that opens with an arrow after such a row; "" otherwise (a lone ``a = 1 \\implies a^2 = 1`` keeps its consequent
    checked under its antecedent)."""
    arrows = [s for s in segs if s.role == "implied"]
    if not arrows:
        return ""
    if any(s.word == "equivalent" for s in arrows):
        return "equivalence"
    before = [s for s in segs[:segs.index(arrows[0])] if s.role in ("main", "also")]
    if len(arrows) > 1 or (after_logic and not before) or \
            (before and not any(top_relation(s.text) for s in before)):
        return "implication"
    return ""


def _balanced(text: str) -> bool:
    """Every ( [ { of ``text`` closed in it: a comma after an open bracket (``f(a, \\\\ b)``) separates arguments
    broken across rows, and is kept."""
    return sum(text.count(c) for c in "([{") == sum(text.count(c) for c in ")]}")


def _bare(text: str) -> str:
    """A segment's text without labels, tags and spacing (what ends it)."""
    return re.sub(ROW_NOISE + r"|\\tag\s*\{[^{}]*\}|\\[hv]?phantom\s*\{[^{}]*\}|~", "", text)


def _inline_cases(segs: list[Segment]) -> list[Segment]:
    """``F_k = A \\text{ if } k \\le l \\text{ and } B \\text{ if } k > l`` (or ``… B \\text{ otherwise}``): a
    definition by cases written inline becomes one ``cases`` block, so that both cases are read and neither case's
    condition becomes an assumption of the display.  The relation keeps its position."""
    out: list[Segment] = []
    i = 0
    while i < len(segs):
        s = segs[i]
        pieces: list[tuple[str, str]] = []
        j = i + 1
        if s.role in ("main", "also") and top_relation(s.text) and j < len(segs) and \
                segs[j].role == "condition" and segs[j].word == "if" and top_relation(segs[j].text):
            value = _after_relation(s.text)
            cond = segs[j].text
            j += 1
            while j < len(segs) and segs[j].role == "condition" and segs[j].word in ("and", "or", "") and \
                    not top_relation(segs[j].text):
                pieces.append((value, cond))
                value = segs[j].text
                nxt = segs[j + 1] if j + 1 < len(segs) else None
                if nxt is not None and nxt.role == "condition" and nxt.word == "if" and top_relation(nxt.text):
                    cond, j = nxt.text, j + 2
                elif nxt is None or nxt.word == "otherwise":
                    cond, j = "\\text{otherwise}", j + (1 if nxt is None else 2)
                    pieces.append((value, cond))
                    value = None
                    break
                else:
                    pieces = []
                    break
            if value is not None and pieces:
                pieces.append((value, cond))
        if len(pieces) >= 2:
            head = s.text[:len(s.text) - len(_after_relation(s.text))]
            body = " \\\\ ".join(f"{v.strip().rstrip('.,')} & {c.strip().rstrip('.,')}" for v, c in pieces)
            out.append(Segment(f"{head} \\begin{{cases}} {body} \\end{{cases}}", s.pos, s.role, s.word, s.row))
            i = j
            continue
        out.append(s)
        i += 1
    return out


def _after_relation(text: str) -> str:
    """The text after the last top-level relation of ``text``."""
    last = None
    for last in _top_relation_ends(text):
        pass
    return text[last:] if last is not None else text


def environment_spans(text: str, names: set[str], start: int = 0) -> list[tuple[str, int, int]]:
    """(name, start, end) of every theorem-like environment (``theorem``, ``lemma``, ``proof`` …) in ``text``."""
    out, stack = [], []
    for m in re.finditer(r"\\(begin|end)\s*\{([^{}]{1,40})\}", text[start:]):
        name = m.group(2).strip().rstrip("*")
        if name.lower() not in names and name not in names:
            continue
        if m.group(1) == "begin":
            stack.append((name, start + m.start()))
        else:
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == name:
                    out.append((name, stack[k][1], start + m.end()))
                    del stack[k:]
                    break
    out.extend((n, s, len(text)) for n, s in stack)
    return sorted(out, key=lambda e: e[1])


#: a paragraph that opens with a bold (or, for a proof, italic) theorem-like word: ``{\bf Lemma 5.}``,
#: ``\textbf{Theorem 2.}``, ``\noindent{\bf Proof.}``, ``{\bf Proof of Lemma 3.}`` (never ``\begin{proof}[\textbf{…}]``)
BOLD_HEADER = re.compile(r"(?m)^[ \t]*(?:\\noindent\s*)?(?:\{\s*\\(?:bf|bfseries|it|itshape|em)\b\s*|"
                         r"\\(?:textbf|textit|emph)\s*\{\s*)(?:\{\s*)?(?:\\(?:bf|it)\b\s*)?"
                         r"(Lemma|Theorem|Proposition|Corollary|Claim|Fact|Conjecture|Observation|Definition|"
                         r"Assumption|Condition|Hypothesis|Remark|Example|Proof)(?![A-Za-z])")
#: where such a paragraph's statement may end: another paragraph-opening bold heading, a sectioning command, an
#: environment of its own kind, the end of a proof
HEADER_END = re.compile(r"(?m)^[ \t]*(?:\\noindent\s*)?(?:\{\s*\\(?:bf|bfseries)\b|\\textbf\s*\{|\\paragraph\s*\*?\{)|"
                        r"\\(?:sub)*section\s*\*?\s*[\[{]|\\(?:qed|qedhere|QED|Box|blacksquare|qedsymbol)(?![A-Za-z])|"
                        r"\\begin\s*\{\s*(?:proof|theorem|lemma|proposition|corollary)\*?\s*\}|"
                        r"(?m:^)[ \t]*(?:\\noindent\s*)?(?:\{\s*\\(?:it|itshape|em)\b\s*|\\(?:textit|emph)\s*\{\s*)Proof\b|"
                        r"\\end\s*\{\s*document\s*\}")
#: the kinds of a bold heading whose statement runs over several paragraphs, to the next heading, proof or section
STATEMENT_HEADINGS = {"lemma", "theorem", "proposition", "corollary", "claim", "fact", "conjecture", "observation"}


def bold_header_spans(text: str, start: int = 0) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each theorem-like paragraph written with a bold heading instead of an environment
    (``{\bf Lemma 5.} Let … Then \begin{equation}…``): a statement (lemma, theorem …) runs over its paragraphs to
    the next heading, proof (``\begin{proof}``, ``\textit{Proof}``) or section; a remark, example, definition or
    assumption to the end of its paragraph (or the next heading); a proof to the next heading, section or
    end-of-proof mark.  A proof heading in italics
    (``\textit{Proof.}``) counts; other italic words do not."""
    out = []
    for m in BOLD_HEADER.finditer(text, start):
        kind = m.group(1).lower()
        italic = re.search(r"\\(?:it|itshape|em|textit|emph)\b", m.group(0)) and not re.search(r"\\(?:bf|textbf)", m.group(0))
        if italic and kind != "proof":
            continue
        end_at = HEADER_END.search(text, m.end())
        end = end_at.start() if end_at else len(text)
        if kind != "proof" and kind not in STATEMENT_HEADINGS:  # a statement keeps its scope past a paragraph break
            para = PARAGRAPH.search(text, m.end())
            if para and para.start() < end:
                end = para.start()
        out.append((kind, m.start(), end))
    return out


def theorem_names(text: str) -> set[str]:
    names = set(THEOREM_LIKE)
    for m in re.finditer(r"\\(?:newtheorem|declaretheorem|spnewtheorem)\s*\*?\s*(?:\[[^\]]*\])?\s*\{([^{}]{1,40})\}",
                         text):
        names.add(m.group(1).strip())
    return names
