"""One chain of a display read: its relations found, its terms parsed, names and indices made plain.

:func:`read_chain` tokenises the chain (every segment keeps its place in the document, so each relation has its
line), finds the relations at the top level (``=``, ``\\le``, ``:=``, ``\\stackrel{(a)}{=}``, ``\\approx``, …), parses
each term with :class:`~.grammar.PaperParser` and returns one :class:`Link` per relation.  A term that cannot be
read makes only its two links unreadable, with the reason.

Indices become names: ``x_t`` → ``x_t``, ``x_{t+1}`` → ``x_tp1``, ``\\theta_{i,j}`` → ``theta_i_j``; an index that a sum
binds (``\\sum_{i=1}^n x_i``) makes the term a family ``x_(i)``, an unspecified function of the index.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from ..latex import DEFINITION_OPS as LATEX_DEF_OPS
from ..latex import GREEK, RELATIONS, Token, tokenize
from ..parser import BadInput, NAME_RE, unparse
from .convergence import CONVERGES, convergence_arrows
from .grammar import TEXT_FUNCTION_WORDS, PaperParser, _close_of, integration_variables, show_tokens

COUNTED = {"=": "=", "<": "<", ">": ">", "\\le": "<=", "\\leq": "<=", "\\leqslant": "<=", "\\leqq": "<=",
           "\\ge": ">=", "\\geq": ">=", "\\geqslant": ">=", "\\geqq": ">=", "\\lt": "<", "\\gt": ">",
           "\\ne": "\\ne", "\\neq": "\\ne", "\\approx": "\\approx", "\\simeq": "\\simeq", "\\sim": "\\sim",
           "\\propto": "\\propto", "\\equiv": "=", "\\ll": "\\ll", "\\gg": "\\gg", "\\lesssim": "\\lesssim",
           "\\gtrsim": "\\gtrsim", "\\asymp": "\\asymp", "\\cong": "\\cong", "\\preceq": "\\preceq",
           "\\succeq": "\\succeq", "\\prec": "\\prec", "\\succ": "\\succ", "\\leftarrow": "\\leftarrow",
           "\\gets": "\\leftarrow", "\\doteq": "\\doteq", "\\lessapprox": "\\lesssim", "\\gtrapprox": "\\gtrsim",
           "\\precsim": "\\lesssim", "\\succsim": "\\gtrsim", "\\approxeq": "\\approx"}
COUNTED.update({op: ":=" for op in LATEX_DEF_OPS})
COUNTED.update({"\\eqqcolon": "=:", "=:": "=:"})
COUNTED[CONVERGES] = CONVERGES  # X_n \xrightarrow{d} X: a convergence row (see .convergence)
SEPARATORS = {"\\in", "\\notin", "\\subset", "\\subseteq", "\\supset", "\\supseteq", "\\to", "\\rightarrow",
              "\\mapsto", "\\implies", "\\iff", "\\Rightarrow", "\\Leftrightarrow", "\\Longrightarrow",
              "\\longrightarrow", "\\Leftarrow", "\\perp", "\\vdash", "\\models", "\\mid"}
# (\setminus is no separator: A \setminus B is a set difference inside a side — "C = A \setminus B" had been read "C = A")
CHECKED_OPS = {"=": "==", "<": "<", ">": ">", "<=": "<=", ">=": ">="}
OPENERS = {"{", "(", "[", "\\{", "\\langle", "\\lfloor", "\\lceil"}
CLOSERS = {"}", ")", "]", "\\}", "\\rangle", "\\rfloor", "\\rceil"}
DEF_ANNOTATION = re.compile(r"^(?:def|\\triangle|\\Delta|\\text\{def\}|\\mathrm\{def\}|:|\\rm def|\\scriptscriptstyle"
                            r"\s*\\triangle|\\scriptscriptstyle \\Delta|\\tiny\s*\\triangle|\\scriptscriptstyle def)$")


@dataclass
class Term:
    tokens: list[Token]
    node: ast.expr | None = None
    error: str | None = None
    parser: PaperParser | None = None

    @property
    def latex(self) -> str:
        from .grammar import show_tokens
        return show_tokens(self.tokens)


@dataclass
class Link:
    """``lhs op rhs``: one relation of a chain, with what the reading found."""
    op: str  # as counted (=, <=, \\approx, :=, …)
    pos: int  # document offset of the relation symbol
    lhs: Term
    rhs: Term
    index: int  # 0 for the first relation of the chain
    annotation: str = ""  # a condition set over the relation (\\overset{p = 1/2}{=}: "p = 1/2"), assumed for this link
    #: the label set over the relation, as written (\\stackrel{(a)}{=}: "(a)", \\overset{\\text{Lem. 2}}{\\le}): the
    #: link's justification — it may cite a fact the display does not state, so it blocks a refutation
    label: str = ""

    @property
    def readable(self) -> bool:
        return self.lhs.node is not None and self.rhs.node is not None

    @property
    def error(self) -> str | None:
        return self.lhs.error or self.rhs.error


@dataclass
class ChainReading:
    links: list[Link] = field(default_factory=list)
    error: str | None = None  # the whole chain could not be tokenised


WORDS = {"Tr", "tr", "Pr", "Var", "Cov", "KL", "Reg", "Regret", "Wealth", "Risk", "Loss", "OPT", "ALG", "MSE", "Lip",
         "diag", "sign", "sgn", "rank", "supp", "dist", "poly", "erf", "Unif", "Ber", "Bin", "Poi", "Lap"}
#: a word in ``\\mbox{…}``/``\\text{…}`` directly followed by ``(`` that names an operator (``\\mbox{det}(X)``)
OPERATOR_WORDS = frozenset({"det", "Pr", "P", "var", "Var", "cov", "Cov", "tr", "Tr", "trace", "rank", "diag", "Diag",
                            "sgn", "sign", "vec", "poly", "polylog", "dist", "supp", "softmax", "erf", "E", "Ex"})
ALIASES = {"\\Vert": "\\|", "\\parallel": "\\|", "\\lbrace": "\\{", "\\rbrace": "\\}", "\\lbrack": "[", "\\rbrack": "]",
           "\\operatornamewithlimits": "\\operatorname",  # the pre-amsmath \argmin macro: \operatorname*
           # amsmath's capital accents (for nesting) are the accents: \Ddot x is \ddot x
           **{f"\\{a.capitalize()}": f"\\{a}" for a in ("hat", "tilde", "bar", "dot", "ddot", "check", "breve", "vec")}}
#: the trace typed as letters, ``Tr[AB]``, ``tr(AB)``: read as ``\\operatorname{Tr}`` when a bracket follows
TRACE_WORDS = frozenset({"Tr", "tr", "Trace", "trace"})
BRACKET_SIZES = frozenset({"\\left", "\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\Bigl", "\\biggl", "\\Biggl"})
TEXT_FUNCTIONS = {"exp", "log", "ln", "sin", "cos", "tanh", "sinh", "cosh"}

#: ``max_{i \in A: Δ_i ≤ b}`` typed without a backslash: the operator when a subscript follows, never m·a·x
TEXT_OPERATORS = {"max", "min", "sup", "inf", "argmax", "argmin"}
WORD_RE = re.compile(r"^[A-Z][a-z]{2,}$")


def _label_run(toks: list[Token], k: int) -> str | None:
    """The letters of ``{…}`` starting at ``toks[k]`` when they are an algorithm's label (``{EClusUCB}``,
    ``{AugUCB}``: three or more letters, two or more of them capitals), else None."""
    if k >= len(toks) or toks[k].text != "{":
        return None
    run = []
    for t in toks[k + 1:]:
        if t.text == "}":
            break
        if t.kind != "letter":
            return None
        run.append(t.text)
    word = "".join(run)
    return word if len(word) >= 3 and sum(c.isupper() for c in word) >= 2 else None


def _labelled_capitals(toks: list[Token], i: int, j: int) -> bool:
    """``SR_{EClusUCB}``: capitals written together with an algorithm's label as subscript name one quantity (the
    simple regret of EClusUCB), not S times R."""
    word = "".join(t.text for t in toks[i:j + 1])
    return 2 <= len(word) <= 4 and word.isupper() and j + 2 < len(toks) and toks[j + 1].text == "_" and \
        _label_run(toks, j + 2) is not None


def _words(toks: list[Token]) -> list[Token]:
    """Letters written together as a word (``Tr``, ``Regret``, ``Wealth``) are one name, not a product of letters;
    a capital followed by two or more small letters is a word, ``Ax`` / ``xy`` stay products."""
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "letter":
            j = i
            while j + 1 < len(toks) and toks[j + 1].kind == "letter" and toks[j + 1].pos == toks[j].pos + 1:
                j += 1
            word = "".join(x.text for x in toks[i:j + 1])
            if j > i and word in TEXT_FUNCTIONS:  # exp(x) typed as letters: the function
                out.append(Token("cmd", "\\" + word, t.pos))
                i = j + 1
                continue
            if j > i and word in TEXT_OPERATORS and j + 1 < len(toks) and toks[j + 1].text == "_":
                out.append(Token("cmd", "\\" + word, t.pos))
                i = j + 1
                continue
            if j > i and word in TRACE_WORDS and j + 1 < len(toks) and \
                    (toks[j + 1].text in ("(", "[") or toks[j + 1].text in BRACKET_SIZES):
                # Tr[AB], tr(AB) typed as letters: the trace (as \operatorname{Tr} is), never the product Tr·(AB)
                out += [Token("cmd", "\\operatorname", t.pos), Token("sym", "{", t.pos), Token("letter", word, t.pos),
                        Token("sym", "}", toks[j].pos)]
                i = j + 1
                continue
            if j > i and (word in WORDS or WORD_RE.match(word) or _labelled_capitals(toks, i, j)):
                out.append(Token("letter", word, t.pos))
                i = j + 1
                continue
        out.append(t)
        i += 1
    return out


CASES_RE = re.compile(r"\\begin\s*\{cases\}(.*?)\\end\s*\{cases\}", re.S)


#: ``\\left\\{ \\begin{array}{ll} … \\end{array} \\right.``: cases written with an array
ARRAY_CASES_RE = re.compile(r"\\left\s*\\\{\s*\\begin\s*\{array\}\s*\{[^{}]*\}(.*?)\\end\s*\{array\}\s*\\right\s*\.",
                            re.S)


#: an array or a matrix environment's opening or closing: its ``&`` separate columns
MATRIX_ENV = re.compile(r"\\(begin|end)\s*\{\s*(?:array|[pbvBV]?matrix|smallmatrix)\*?\s*\}")


def _case_columns(text: str) -> list[int]:
    """Offsets of the & of each (unnested) cases environment (or array cases), and of every & inside an array or a
    matrix (its columns: ``[a & b]`` is no ``[a b]``, whatever the array is read as)."""
    out = []
    for m in [*CASES_RE.finditer(text), *ARRAY_CASES_RE.finditer(text)]:
        if "\\begin" in m.group(1):
            continue
        out += [m.start(1) + k for k, c in enumerate(m.group(1)) if c == "&" and (k == 0 or m.group(1)[k - 1] != "\\")]
    depth, last = 0, 0
    for m in MATRIX_ENV.finditer(text):
        if depth > 0:
            out += [last + k for k, c in enumerate(text[last:m.start()]) if c == "&" and
                    (last + k == 0 or text[last + k - 1] != "\\")]
        depth += 1 if m.group(1) == "begin" else -1
        last = m.end()
    return sorted(set(out))


def _dot_products(toks: list[Token]) -> list[Token]:
    """``\\Delta_{i}.P_{i}``, ``\\delta_m.Q_m``: a period written between two factors, touching both, is a product
    (no decimal point stands after a brace or a name); ``a.s.``, ``w.p.``, ``i.e.`` stay as they are."""
    out = list(toks)
    for i in range(1, len(toks) - 1):
        prev, dot, nxt = toks[i - 1], toks[i], toks[i + 1]
        if dot.text != "." or prev.pos + len(prev.text) != dot.pos or nxt.pos != dot.pos + 1:
            continue
        if not (prev.text in ("}", ")") or prev.kind == "letter") or nxt.kind not in ("letter", "cmd"):
            continue
        if nxt.kind == "letter" and len(nxt.text) == 1 and i + 2 < len(toks) and toks[i + 2].text == ".":
            continue  # a.s., w.p., i.e.
        if prev.kind == "letter" and len(prev.text) == 1 and (i < 2 or toks[i - 2].text in (".", "~")):
            continue
        out[i] = Token("cmd", "\\cdot", dot.pos)
    return out


#: math styles set sizes only (``\\mathsf{\\scriptscriptstyle T}`` is a T)
STYLES = {"\\displaystyle", "\\textstyle", "\\scriptstyle", "\\scriptscriptstyle",
          "\\upshape", "\\itshape", "\\slshape", "\\rmfamily", "\\normalfont", "\\mdseries"}  # \text{\upshape var}: a label "var"
SIZES = {"\\mathlarger", "\\mathsmaller"}  # relsize: \mathlarger{\sum}_{j} is \sum_{j}
SCRIPT_FONTS = {"\\mathsf", "\\mathrm", "\\mathbf", "\\mathit", "\\mathcal", "\\mathbb", "\\text", "\\textrm",
                "\\textsf", "\\operatorname", "\\boldsymbol", "\\bm", "\\mathtt", "\\mathscr", "\\mathfrak"}


def _braced_script_commands(toks: list[Token]) -> list[Token]:
    """``X^\\mathsf{T}``, ``r_\\mathrm{row}``: TeX gives a script a font command with its group as the script; the
    reader wants one braced script, ``X^{\\mathsf{T}}``."""
    if not any(t.text in SCRIPT_FONTS for t in toks):
        return toks
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        out.append(t)
        if t.text in ("^", "_") and i + 2 < len(toks) and toks[i + 1].text in SCRIPT_FONTS and toks[i + 2].text == "{":
            j = _close_of(toks, i + 2)
            if j >= 0:
                out.append(Token("sym", "{", toks[i + 1].pos))
                out.extend(toks[i + 1:j + 1])
                out.append(Token("sym", "}", toks[j].pos))
                i = j + 1
                continue
        i += 1
    return out


#: plain TeX's font switches, which set the rest of their group: ``{\\rm AMSE}`` is ``\\mathrm{AMSE}``
OLD_FONTS = {"\\rm": "\\mathrm", "\\cal": "\\mathcal", "\\bf": "\\mathbf", "\\it": "\\mathit",
             "\\sf": "\\mathsf", "\\tt": "\\mathtt", "\\mit": "\\mathit"}


#: commands whose group is text (a font switch inside one is left to the text path)
TEXT_GROUPS = {"\\text", "\\textrm", "\\textnormal", "\\mbox", "\\hbox", "\\mathrm", "\\operatorname", "\\textup"}
#: upright-text wrappers around a lone ``d`` that typeset the differential (``\\textrm{d}x``): read as ``\\mathrm{d}``
UPRIGHT_D = frozenset({"\\text", "\\textrm", "\\textnormal", "\\textup", "\\mbox", "\\operatorname", "\\rm",
                       "\\mathup", "\\mathrm"})


def _old_fonts(toks: list[Token]) -> list[Token]:
    """``{\\rm AMSE}``, ``{\\cal F}``, ``\\rm{d}`` → ``\\mathrm{AMSE}``, ``\\mathcal{F}``, ``\\mathrm{d}``: an old
    font switch that opens its group and sets letters (and digits) only, or sets one braced group, is the font
    command applied to them.  A switch before anything else (``{\\rm a + b}``, ``\\rm`` mid-group) is left alone:
    the grammar refuses it as an unknown command, a true reason, never a guess at how far it reaches."""
    if not any(t.text in OLD_FONTS for t in toks):
        return toks
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        font = OLD_FONTS.get(t.text)
        if font and i + 1 < len(toks) and toks[i + 1].text == "{":  # \rm{AMSE}: the group it sets
            out.append(Token("cmd", font, t.pos))
            i += 1
            continue
        if font and out and out[-1].text == "{":
            j = i + 1
            while j < len(toks) and toks[j].kind in ("letter", "num"):
                j += 1
            if j > i + 1 and j < len(toks) and toks[j].text == "}":  # {\rm AMSE}: the letters up to the group's end
                owner = out[-2] if len(out) >= 2 else None
                if owner is not None and owner.text in TEXT_GROUPS:
                    out.append(t)  # \text{\rm min}: a switch inside a text group is the text path's (as before)
                    i += 1
                    continue
                if owner is not None and owner.kind == "cmd":
                    # \frac{\rm d}{…}, \hat{\rm x}: the group is the command's argument — the font goes inside it
                    out += [Token("cmd", font, t.pos), Token("sym", "{", t.pos), *toks[i + 1:j],
                            Token("sym", "}", toks[j].pos)]
                    i = j
                    continue
                # (the switch's own group becomes the command's: a script's font group is braced again later)
                out[-1] = Token("cmd", font, out[-1].pos)
                out.append(Token("sym", "{", t.pos))
                i += 1
                continue
        out.append(t)
        i += 1
    return out


def _applied_after_scripts(toks: list[Token], j: int) -> bool:
    """Does a bracket follow at ``toks[j]``, after any ``^``/``_`` scripts (``\\text{sech}^2\\left(``)?"""
    while j + 1 < len(toks) and toks[j].text in ("^", "_"):
        if toks[j + 1].text == "{":
            depth, j = 0, j + 1
            while j < len(toks):
                depth += (toks[j].text == "{") - (toks[j].text == "}")
                j += 1
                if depth == 0:
                    break
        else:
            j += 2
    return j < len(toks) and (toks[j].text == "(" or toks[j].text in BRACKET_SIZES)


def _braced_letters(toks: list[Token], k: int) -> tuple[str | None, int]:
    """(the letters of the group ``{…}`` at ``toks[k]`` when it holds letters only, the index after it)."""
    j = k + 1
    while j < len(toks) and toks[j].kind == "letter":
        j += 1
    if j < len(toks) and toks[j].text == "}" and j > k + 1:
        return "".join(t.text for t in toks[k + 1:j]), j + 1
    return None, k


def _unwrap_sizes(toks: list[Token]) -> list[Token]:
    """``\\mathlarger{\\mathlarger{\\sum}}_{j}`` → ``\\sum_{j}``: a size command and its braces are dropped."""
    if not any(t.text in SIZES for t in toks):
        return toks
    drop: set[int] = set()
    for i, t in enumerate(toks):
        if t.text in SIZES:
            drop.add(i)
            if i + 1 < len(toks) and toks[i + 1].text == "{":
                depth = 0
                for j in range(i + 1, len(toks)):
                    depth += {"{": 1, "}": -1}.get(toks[j].text, 0)
                    if depth == 0:
                        drop |= {i + 1, j}
                        break
    return [t for i, t in enumerate(toks) if i not in drop]


STACKS = ("\\overset", "\\stackrel", "\\underset")


def _boxed_relations(toks: list[Token]) -> list[Token]:
    """A paper's definition sign written through boxes: ``\\mathop{\\overset{\\mathrm{\\tiny def}}{\\resizebox{…}{…}{=}}}``
    (an ``\\eqdef`` macro), ``\\ensuremath{\\mathrel{\\overset{def}{=}}}`` — ``\\resizebox{w}{h}{X}`` / ``\\scalebox{s}{X}``
    are X, and a ``\\mathop``/``\\mathrel``/``\\ensuremath`` group holding only a stacked relation is that relation
    (read by :func:`tokens_of` as ``:=`` or the labelled relation; the wrapper had been refused, "expected letters in
    braces, got '\\overset'", or hidden the relation)."""
    if not any(t.text in ("\\resizebox", "\\scalebox", "\\mathop", "\\mathrel", "\\ensuremath") for t in toks):
        return toks
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text in ("\\resizebox", "\\scalebox"):
            j, ok = i + 1, True
            for _ in range(2 if t.text == "\\resizebox" else 1):  # the size groups, dropped
                if j < len(toks) and toks[j].text == "{":
                    j = _close_of(toks, j) + 1
                    ok = ok and j > 0
                else:
                    ok = False
            if ok and j < len(toks) and toks[j].text == "{":
                end = _close_of(toks, j)
                if end > j:
                    inner = toks[j + 1:end]
                    out += _boxed_relations(inner)
                    i = end + 1
                    continue
        if t.text in ("\\mathop", "\\mathrel", "\\ensuremath") and i + 2 < len(toks) and toks[i + 1].text == "{":
            end = _close_of(toks, i + 1)
            inner = _boxed_relations(toks[i + 2:end]) if end > 0 else []
            if inner and (inner[0].text in STACKS or inner[0].text in ("\\mathop", "\\mathrel")) and \
                    _stacked_relation_only(inner):
                out += inner
                i = end + 1
                continue
        out.append(t)
        i += 1
    return out


def _stacked_relation_only(toks: list[Token]) -> bool:
    """Are ``toks`` one ``\\overset{…}{rel}`` (``\\stackrel``, ``\\underset``) and nothing else, rel a relation?"""
    if not toks or toks[0].text not in STACKS or len(toks) < 2 or toks[1].text != "{":
        return False
    a = _close_of(toks, 1)
    if a < 0 or a + 1 >= len(toks):
        return False
    if toks[a + 1].text == "{":
        b = _close_of(toks, a + 1)
        rel = [x.text for x in toks[a + 2:b]]
        return b == len(toks) - 1 and len(rel) == 1 and rel[0] in COUNTED
    return a + 2 == len(toks) and toks[a + 1].text in COUNTED


def _def_annotation(a: str) -> bool:
    """Does the annotation over an ``=`` say "definition" (``def``, ``\\mathrm{\\tiny def}``, ``\\triangle``, ``:``)?"""
    if DEF_ANNOTATION.match(a.replace(" ", "")) or DEF_ANNOTATION.match(a):
        return True
    bare = re.sub(r"\\(?:mathrm|text|textrm|textnormal|rm|tiny|scriptsize|footnotesize|small|mathsf|textsf|mbox|"
                  r"normalfont|scriptscriptstyle|scriptstyle|textup|upshape|mathnormal|textit|mathit)(?![A-Za-z])|[{}\s.]",
                  "", a)
    return bare in ("def", "defn", "Def", "DEF", "\\triangle", "\\Delta", ":")


#: ``\\mbox{if $x < 1$}``: a condition's math written inside the text (the dollars end and resume the text)
MATH_IN_TEXT = re.compile(r"(\\(?:text|mbox|hbox|textrm|textnormal)\s*\{)([^{}$]*)\$((?:[^{}$]|\{[^{}$]*\})+)\$"
                          r"(\s*[.,;]?\s*)\}")


def _math_out_of_text(text: str) -> str:
    """``\\mbox{if $x < 1$}`` as ``\\mbox{if }x < 1`` (the same length, so every offset stays): the math leaves
    the text group, whose words stay text."""
    return MATH_IN_TEXT.sub(lambda m: f"{m.group(1)}{m.group(2)}}}{m.group(3)} {m.group(4)} ", text)


#: commands whose argument is a key (a label's name, a citation), never math: ``\\ref{eq: dim=2n+1}``
CITING = frozenset({"\\ref", "\\eqref", "\\cref", "\\Cref", "\\autoref", "\\cite", "\\citep", "\\citet", "\\pageref",
                    "\\nameref", "\\hyperref", "\\label"})


def _group_closes_at_end(text: str) -> bool:
    """Does the ``{`` that opens ``text`` close at its last character (``{a}{b}``: no)?"""
    depth = 0
    for k, c in enumerate(text):
        depth += (c == "{") - (c == "}")
        if depth == 0:
            return k == len(text) - 1
    return False


def _label_text(label: str, raw: str = "") -> str:
    """A relation's label as shown (spaces collapsed; ``raw``, its text as written, when known — the tokens drop the
    spaces between words, ``\\text{Lem. 2}``), or "" when it writes nothing (``\\stackrel{}{=}``,
    ``\\overset{\\,}{=}``)."""
    if raw:  # as written (the tokens drop spaces, ~ and font switches)
        label = raw.replace("~", " ")
    label = " ".join(label.split())
    words = re.sub(r"\\(?:text|textrm|textnormal|textsf|textit|mathrm|mathsf|mbox|hbox|mathclap|normalfont|rm|sf|"
                   r"sffamily|tiny|scriptsize|footnotesize|small|scriptstyle|scriptscriptstyle)(?![A-Za-z])|"
                   r"\\makebox\s*(?:\[[^\]]*\])*|[{}]", "", label).strip()
    if words and "\\" not in words:  # \mathclap{\normalfont\mbox{Cauchy-Schwarz}}, \text{Lem. 2}: the words
        label = " ".join(words.split())
    while label.startswith("{") and label.endswith("}") and _group_closes_at_end(label):
        label = label[1:-1].strip()  # {L\gamma_n}: what a dropped wrapper (\bcancel) braced
    bare = re.sub(r"\\[,;:! ]|\\(?:quad|qquad)(?![A-Za-z])|[{}\s~]", "", words)
    return label if bare else ""


def tokens_of(text: str, offset: int) -> list[Token]:
    """Tokens with document offsets; ``\\stackrel{a}{=}`` / ``\\overset{a}{\\le}`` become one relation token."""
    text = _math_out_of_text(text)

    written = text

    def raw(a: Token, b: Token) -> str:  # the text written between a label's braces, "" if they are not where said
        i, j = a.pos - offset, b.pos - offset
        if not (0 <= i < j < len(written)) or written[i] != "{" or written[j] != "}":
            return ""
        inner = written[i + 1:j]
        return inner if inner.count("{") == inner.count("}") else ""
    toks = _dot_products(_words(_old_fonts([Token(t.kind, ALIASES.get(t.text, t.text), offset + t.pos)
                                            for t in tokenize(text) if t.kind != "end"])))
    amps = _case_columns(text)
    if amps:  # the tokenizer drops &; inside cases it separates a value from its condition
        toks = sorted(toks + [Token("cmd", "&", offset + a) for a in amps], key=lambda t: t.pos)
    toks = convergence_arrows(toks)  # X_n \xrightarrow{d} X, \overset{p}{\to}: one relation token, its label kept
    toks = _stacked(_braced_script_commands(_unwrap_sizes(_boxed_relations([t for t in toks if t.text not in STYLES]))))
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text in UPRIGHT_D and [x.text for x in toks[i + 1:i + 4]] == ["{", "d", "}"]:
            # \textrm{d}\alpha(x), \text{d}x (a paper's \d): the upright differential d, as \mathrm{d} is read — never
            # a letter d multiplying what follows (∫ f \textrm{d}\alpha(x) had been ⟦∫ f⟧·d·α(x))
            out.append(Token("cmd", "\\mathrm", t.pos))
            i += 1
            continue
        if t.text in ("\\mbox", "\\hbox", "\\text", "\\textrm", "\\mathrm", "\\textnormal") and \
                i + 1 < len(toks) and toks[i + 1].text == "{":
            word, j = _braced_letters(toks, i + 1)
            if word in OPERATOR_WORDS and j < len(toks) and (toks[j].text == "(" or toks[j].text == "\\left"):
                # \mbox{det}(X), \text{Pr}(A): an operator's name, not prose
                out += [Token("cmd", "\\operatorname", t.pos), *toks[i + 1:j]]
                i = j
                continue
            if word in TEXT_FUNCTION_WORDS and _applied_after_scripts(toks, j):
                # \text{sech}^2\left(…\right), \mathrm{coth}(x): a function's name (session 48: 0.99·\text{sech}^2(x/2)
                # had been 0.99·sech²·(x/2), a name squared times the bracket)
                out += [Token("cmd", "\\operatorname", t.pos), *toks[i + 1:j]]
                i = j
                continue
        if t.text == "." and i + 1 < len(toks) and toks[i + 1].text in ("}", "\\right") and \
                not (out and (out[-1].text in ("\\left", "\\right", "\\middle", "^", "_") or
                              re.fullmatch(r"\\[bB]igg?[lrm]?", out[-1].text))):
            i += 1  # \norm{… Z_i.}: a sentence's period typed inside the closing bracket is punctuation
            continue
        if t.text == "\\vert":  # \vert a \vert^p is |a|^p (a conditioning bar is read as | is)
            out.append(Token("sym", "|", t.pos))
            i += 1
            continue
        if t.text == "{" and i + 2 < len(toks) and toks[i + 1].text in ("-", "+") and toks[i + 2].text == "}" and \
                not (out and (out[-1].text in ("^", "_") or out[-1].kind == "cmd")):
            out.append(toks[i + 1])  # a{-}u: a binary sign braced (to fix its spacing) is the sign
            i += 3
            continue
        if t.text == "{" and i + 1 < len(toks) and toks[i + 1].text == "}" and \
                not (out and (out[-1].text in ("^", "_") or out[-1].kind == "cmd")) and \
                not (i + 2 < len(toks) and toks[i + 2].text in ("^", "_")):  # x^{}, \frac{}{…}, {}_2F_1 kept
            i += 2  # an empty group (what \label leaves in {\label{eq}}): nothing
            continue
        if t.text in ("\\vcentcolon", "\\colon", "\\ratio") and i + 1 < len(toks) and toks[i + 1].text == "=":
            out.append(Token("cmd", ":=", t.pos))  # \vcentcolon= (mathtools, a paper's \defeq): :=
            i += 2
            continue
        if t.text == "=" and i + 1 < len(toks) and toks[i + 1].text in ("\\vcentcolon", "\\ratio"):
            out.append(Token("cmd", "=:", t.pos))
            i += 2
            continue
        if t.text in ("\\mathrm", "\\operatorname", "\\text", "\\textrm", "\\mathop") and \
                [x.text for x in toks[i + 1:i + 6]] == ["{", "a", "r", "g", "}"] and i + 6 < len(toks) and \
                toks[i + 6].text in ("\\min", "\\max"):  # \mathrm{arg}\min is \argmin, not arg·min
            out.append(Token("cmd", "\\arg" + toks[i + 6].text[1:], t.pos))
            i += 7
            continue
        if t.text in ("\\mathbb", "\\mathrm", "\\mathsf") and i + 8 < len(toks) and \
                [x.text for x in toks[i + 1:i + 9]] == ["{", "V", "}", toks[i + 4].text, "{", "a", "r", "}"] and \
                toks[i + 4].text in ("\\mathrm", "\\text", "\\operatorname", "\\textrm"):
            out.append(Token("cmd", "\\Var", t.pos))  # \mathbb{V}\mathrm{ar}(X): the variance, not V·ar(X)
            i += 9
            continue
        if t.text in ("\\xlongequal", "\\xeq") and i + 1 < len(toks):
            # \xlongequal[below]{Fact 2} (extarrows): "=" with a justification label, as \overset{(a)}{=}
            j = i + 1
            if toks[j].text == "[":
                while j < len(toks) and toks[j].text != "]":
                    j += 1
                j += 1
            ann: list[str] = []
            opened, shown = j, ""
            if j < len(toks) and toks[j].text == "{":
                depth = 0
                while j < len(toks):
                    depth += toks[j].text == "{"
                    depth -= toks[j].text == "}"
                    if depth == 0:
                        break
                    if toks[j].text != "{" or depth > 1:
                        ann.append(toks[j].text)
                    j += 1
                if j < len(toks):
                    shown = _label_text(show_tokens(toks[opened + 1:j]), raw(toks[opened], toks[j]))
                j += 1
            a = " ".join(ann)
            defines = bool(a) and _def_annotation(a)
            out.append(Token("cmd", ":=" if defines else "=", t.pos, label="" if defines else shown))
            i = j
            continue
        if t.text in ("\\stackrel", "\\overset", "\\underset") and i + 1 < len(toks) and toks[i + 1].text == "{":
            j, depth, ann = i + 1, 0, []
            while j < len(toks):
                depth += toks[j].text == "{"
                depth -= toks[j].text == "}"
                if depth == 0:
                    break
                if j > i + 1:
                    ann.append(toks[j].text)
                j += 1
            rel = toks[j + 1:j + 4] if j + 1 < len(toks) else []
            if rel and rel[0].text == "{" and len(rel) >= 3 and rel[2].text == "}":
                op, k = rel[1], j + 4
            elif rel:
                op, k = rel[0], j + 2
            else:
                op, k = None, j + 1
            if op is not None and (op.text in COUNTED or op.text in SEPARATORS):
                a = " ".join(ann)
                text = ":=" if op.text == "=" and _def_annotation(a or "x") else op.text
                # \overset{p = 1/2}{=}, \overset{\alpha \ge 3/4}{\le}: the relation holds under a condition
                # (a label that cites — \ref{eq: dim=2n+1}, \cite{…} — states no condition, whatever its key writes)
                cond = text != ":=" and any(x in COUNTED and x not in ("\\to", "\\rightarrow") for x in ann) and \
                    not any(x in CITING for x in ann)
                # \stackrel{(a)}{=}, \overset{\text{Lem. 2}}{\le}: a label citing a fact, kept as the justification
                label = "" if text == ":=" else _label_text(show_tokens(toks[i + 2:j]), raw(toks[i + 1], toks[j]))
                out.append(Token("cmd", text, op.pos, show_tokens(toks[i + 2:j]) if cond else "", label))
                i = k
                continue
        if t.text == "=" and out and out[-1].text == ":" and out[-1].pos == t.pos - 1:
            out[-1] = Token("cmd", ":=", out[-1].pos)
            i += 1
            continue
        if t.text == ":" and i + 1 < len(toks) and toks[i + 1].text == "=" and toks[i + 1].pos - t.pos <= 4:
            # H : = a + b (a space, or \, between): the definition sign, as :=
            out.append(Token("cmd", ":=", t.pos))
            i += 2
            continue
        if t.text == "=" and i + 1 < len(toks) and toks[i + 1].text == ":" and toks[i + 1].pos == t.pos + 1:
            out.append(Token("cmd", "=:", t.pos))
            i += 2
            continue
        if t.text in ("<", ">") and i + 1 < len(toks) and toks[i + 1].text == "=" and toks[i + 1].pos == t.pos + 1:
            out.append(Token("cmd", "\\le" if t.text == "<" else "\\ge", t.pos))
            i += 2
            continue
        out.append(t)
        i += 1
    return _divergence_bars(_double_bars(out))


#: big operators that amsmath's ``\\overset``/``\\underset`` may stack limits on (``\\overset{t}{\\underset{i=1}{\\sum}}``)
STACKED_OPERATORS = frozenset({"\\sum", "\\prod", "\\max", "\\min", "\\sup", "\\inf", "\\lim", "\\limsup",
                               "\\liminf", "\\bigcup", "\\bigcap", "\\argmax", "\\argmin", "\\int"})
#: ``\\overset{\\sim}{x}``: a symbol set over a name is that name's accent
STACKED_ACCENTS = {"\\sim": "\\tilde", "\\cdot": "\\dot", "-": "\\bar", "\\rightarrow": "\\vec", "\\to": "\\vec",
                   "\\wedge": "\\hat", "\\hat{}": "\\hat"}


def _group(toks: list[Token], k: int) -> int | None:
    """The index just past the braced group opening at ``toks[k]``, or None when none opens there."""
    if k >= len(toks) or toks[k].text != "{":
        return None
    depth = 0
    for j in range(k, len(toks)):
        depth += toks[j].text == "{"
        depth -= toks[j].text == "}"
        if depth == 0:
            return j + 1
    return None


def _stacked(toks: list[Token]) -> list[Token]:
    """amsmath's ``\\overset{A}{B}`` / ``\\underset{A}{B}`` where B is no relation (those are a relation with its
    label, read in :func:`tokens_of`): over or under a big operator they are its limits (``\\overset{t}{\\underset{
    i=1}{\\sum}}`` is ``\\sum_{i=1}^{t}``, ``\\underset{i,j}{\\sup}`` is ``\\sup_{i,j}``); under an ``\\underbrace`` its
    label (``\\underbrace{…}_{W}``); a ``\\sim``, ``\\cdot``, ``-`` or arrow over a name is its accent (``\\tilde``,
    ``\\dot``, ``\\bar``, ``\\vec``).  Anything else is left as written (refused: an unknown command)."""
    if not any(t.text in ("\\overset", "\\underset") for t in toks):
        return toks

    def rewrite(seg: list[Token]) -> list[Token] | None:
        """``seg`` is one \\overset/\\underset with both groups: its reading, or None."""
        cmd = seg[0]
        a_end = _group(seg, 1)
        b_end = _group(seg, a_end) if a_end is not None else None
        if b_end is None or b_end != len(seg):
            return None
        a, b = seg[2:a_end - 1], seg[a_end + 1:b_end - 1]
        script = "^" if cmd.text == "\\overset" else "_"
        inner = _stacked(b)
        if len(inner) == 1 and inner[0].text in STACKED_OPERATORS or \
                inner and inner[0].text in STACKED_OPERATORS and len(inner) >= 2 and inner[1].text in ("_", "^") and \
                inner[1].text != script and _script_end(inner, 1) == len(inner):
            return [*inner, Token("sym", script, cmd.pos), Token("sym", "{", cmd.pos), *a, Token("sym", "}", cmd.pos)]
        if cmd.text == "\\underset" and inner and inner[0].text == "\\underbrace" and _group(inner, 1) == len(inner):
            return [*inner, Token("sym", "_", cmd.pos), Token("sym", "{", cmd.pos), *a, Token("sym", "}", cmd.pos)]
        accent = STACKED_ACCENTS.get("".join(t.text for t in a)) if cmd.text == "\\overset" else None
        if accent and inner and not any(t.text in COUNTED or t.text in SEPARATORS for t in inner):
            return [Token("cmd", accent, cmd.pos), Token("sym", "{", cmd.pos), *inner, Token("sym", "}", cmd.pos)]
        return None

    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text in ("\\overset", "\\underset"):
            a_end = _group(toks, i + 1)
            b_end = _group(toks, a_end) if a_end is not None else None
            got = rewrite(toks[i:b_end]) if b_end is not None else None
            if got is not None:
                out += got
                i = b_end
                continue
        out.append(t)
        i += 1
    return out


def _script_end(toks: list[Token], k: int) -> int:
    """The index past a script ``_x`` / ``_{…}`` whose ``_`` or ``^`` is ``toks[k]``."""
    if k + 1 >= len(toks):
        return k + 1
    end = _group(toks, k + 1)
    return end if end is not None else k + 2


def _divergence_bars(toks: list[Token]) -> list[Token]:
    """``\\mathrm{KL}(q \\| p)``, ``D(P\\,\\|\\,Q)``: a lone ``\\|`` directly inside a bracket that follows a name
    separates a divergence's two arguments (a norm's bars come in pairs): read as a comma."""
    out = list(toks)
    stack: list[tuple[int, list[int]]] = []
    for i, t in enumerate(out):
        if t.text == "(":
            stack.append((i, []))
        elif t.text == ")" and stack:
            start, bars = stack.pop()
            prev = out[start - 1] if start > 0 else None
            if len(bars) == 1 and prev is not None and (prev.kind == "letter" or prev.text == "}"):
                b = out[bars[0]]
                out[bars[0]] = Token("sym", ",", b.pos)
        elif t.text == "\\|" and stack:
            stack[-1][1].append(i)
    return out


def _double_bars(toks: list[Token]) -> list[Token]:
    """``||x||`` (two ASCII bars written together) and ``\\left|\\left| x \\right|\\right|`` as the norm ``\\|x\\|``:
    a double bar opens, the next double bar closes, with no single bar between them (``||x|-|y||`` and ``|a||b|``
    keep their single bars: the absolute value of a difference of absolute values, a product of two)."""
    def double(i: int) -> str | None:
        t = toks[i]
        if t.text == "|" and i + 1 < len(toks) and toks[i + 1].text == "|" and toks[i + 1].pos == t.pos + 1:
            return "plain"
        if t.text in ("\\left", "\\right") and i + 3 < len(toks) and toks[i + 1].text == "|" and \
                toks[i + 2].text == t.text and toks[i + 3].text == "|":
            return t.text
        return None
    pairs: list[tuple[int, int, str]] = []
    opened: tuple[int, str] | None = None
    i = 0
    while i < len(toks):
        kind = double(i)
        if kind is not None and (opened is None or kind == "\\right" or kind == "plain"):
            if opened is None and kind != "\\right":
                opened = (i, kind)
            elif opened is not None and (opened[1], kind) in (("plain", "plain"), ("\\left", "\\right")):
                pairs.append((opened[0], i, kind))
                opened = None
            else:
                opened = None
            i += 2 if kind == "plain" else 4
            continue
        if toks[i].text == "|" and opened is not None:
            opened = None  # a single bar inside: not a norm
        i += 1
    if not pairs:
        return toks
    starts = {a: kind for a, _, kind in pairs} | {b: kind for _, b, kind in pairs}
    out: list[Token] = []
    i = 0
    while i < len(toks):
        kind = starts.get(i)
        if kind == "plain":
            out.append(Token("cmd", "\\|", toks[i].pos))
            i += 2
        elif kind is not None:
            out += [toks[i], Token("cmd", "\\|", toks[i + 1].pos)]
            i += 4
        else:
            out.append(toks[i])
            i += 1
    return out


def _tokens_around_bad(text: str, offset: int) -> list[Token]:
    """:func:`tokens_of`; where ``text`` holds characters the tokenizer refuses (a stray ``ß``), the text between them
    is tokenized alone and each such character becomes a ``bad`` token, which makes only the side that holds it
    unreadable (one typo in a row of an align had made every row of its chain unreadable)."""
    try:
        return tokens_of(text, offset)
    except BadInput:
        bad = [i for i, c in enumerate(text) if not c.isascii() and not _tokenizes(c)]
        if not bad:
            raise
    out: list[Token] = []
    start = 0
    for i in [*bad, len(text)]:
        if i > start:
            out += tokens_of(text[start:i], offset + start)
        if i < len(text):
            out.append(Token("bad", text[i], offset + i))
        start = i + 1
    return out


def _tokenizes(c: str) -> bool:
    try:
        tokenize(c)
        return True
    except BadInput:
        return False


def split_terms(toks: list[Token]) -> tuple[list[list[Token]], list[Token]]:
    """Terms and the relation/separator tokens between them, at the top level."""
    terms: list[list[Token]] = [[]]
    ops: list[Token] = []
    depth = sized = 0  # sized: open \left … \right pairs, which hold their relations even when a bracket inside
    # them is unbalanced (a paper's stray ')' had split "E[… | τ > K]" at its '>')
    braces = 0  # open TeX groups {…}, counted apart: TeX's own braces always balance, so a relation inside one (a
    # subscript "\mathbb{E}_{Y \sim β}", a \frac's argument) never splits the row, even after a stray ')' had left
    # the bracket count at -1 (the '{' had brought it back to 0 and the row was cut at that \sim)
    for t in toks:
        sized += (t.text == "\\left") - (t.text == "\\right")
        braces = max(0, braces + (t.text == "{") - (t.text == "}"))
        if t.text in OPENERS or t.text == "\\left" or t.text == "\\begin":
            depth += 1 if t.text != "\\left" else 0
        if t.text in CLOSERS or t.text == "\\end":
            depth -= 1
        if depth <= 0 and sized <= 0 and braces <= 0 and (t.text in COUNTED or t.text in SEPARATORS or
                                                          t.text == "=:"):
            ops.append(t)
            terms.append([])
            depth = 0
            continue
        terms[-1].append(t)
    return terms, ops


def read_chain(segments: list[tuple[str, int]], names=None, functions=frozenset()) -> ChainReading:
    """``segments``: (text, document offset) of the chain's pieces, in order."""
    toks: list[Token] = []
    try:
        for text, off in segments:
            toks += _tokens_around_bad(text, off)
    except BadInput as exc:
        return ChainReading(error=str(exc))
    except Exception as exc:  # a defect of the tokenizer: this chain is unreadable, never the whole paper
        return ChainReading(error=f"not read (the reader failed: {type(exc).__name__})")
    while toks and toks[-1].kind == "sym" and toks[-1].text in (",", ".", ";", ":") and \
            not (len(toks) > 1 and toks[-2].text == "\\right"):  # \right. closes a \left\{ (cases)
        toks.pop()
    while toks and toks[0].kind == "sym" and toks[0].text in (",", ";"):
        toks.pop(0)
    term_toks, ops = split_terms(toks)
    terms = [Term(tt) for tt in term_toks]
    integrated = integration_variables(toks)
    dagger_pinv = _dagger_on_bracket(toks)
    defined = {0} if ops and COUNTED.get(ops[0].text) == ":=" else set()  # B(X) := …: the function being defined
    defined |= {i + 1 for i, op in enumerate(ops) if COUNTED.get(op.text) == "=:" and i + 1 == len(ops)}  # … =: E(x)
    if ops and ops[0].text == "=" and introduced_power_call(term_toks[0], names):
        defined.add(0)  # σ^2(u) = u^⊤Σu, σ written here first: the square of the function σ being introduced
    for k, term in enumerate(terms):
        _parse_term(term, names, functions, integrated, k in defined, dagger_pinv)
    for k in range(1, len(terms) - 1):  # x \le y \wedge y \le z: "and" between two relations, not min(y, y)
        w = next((t.text for t in _top_level(terms[k].tokens) if t.text in ("\\wedge", "\\vee")), None)
        if w and terms[k].node is not None:
            terms[k].node, terms[k].error = None, f"{w} between two relations is 'and' (or 'or'), not min/max: not read"
    reading = ChainReading()
    k = 0
    for i, op in enumerate(ops):
        if op.text in SEPARATORS:
            continue
        counted = COUNTED.get(op.text, op.text)
        counted = {"=": "="}.get(counted, counted)
        op_text = _plain(counted)
        left, right = tuple_parts(terms[i].tokens), tuple_parts(terms[i + 1].tokens)
        if op_text in ("=", ":=", "=:") and left and right and len(left) == len(right):
            # (a, b) = (c, d), (x_{k+1}, y_{k+1}) = (…, …): one relation per component, never a tuple unread
            for lt, rt in zip(left, right):
                a, b = Term(lt), Term(rt)
                _parse_term(a, names, functions)
                _parse_term(b, names, functions)
                reading.links.append(Link(op_text, op.pos, a, b, k, label=op.label))
        else:
            reading.links.append(Link(op_text, op.pos, terms[i], terms[i + 1], k, op.note, op.label))
        k += 1
    return reading


def introduced_power_call(toks: list[Token], names) -> bool:
    """Whether ``toks`` (a chain's first side, before "=") is a name with a whole-number power applied to a bracket of
    names — ``σ^2(u)``, ``f^{2}(x, y)`` — and the paper writes the name here for the first time: the side introduces
    the function (its square), as a definition's ``σ^2(u) :=`` does (:meth:`PaperParser.define_side`), never the
    product σ²·u of a σ nobody has introduced.  A name written before keeps its reading (a product, or both readings
    where nothing decides)."""
    if names is None or len(toks) < 6 or toks[0].kind not in ("letter", "cmd"):
        return False
    head = toks[0].text.lstrip("\\")
    if toks[0].kind == "cmd" and head not in GREEK or toks[0].kind == "letter" and len(head) != 1:
        return False
    i = 2 if toks[1].text == "^" else 0
    if not i:
        return False
    if toks[i].kind == "num":
        i += 1
    elif toks[i].text == "{" and toks[i + 1].kind == "num" and toks[i + 2].text == "}":
        i += 3
    else:
        return False
    if not re.fullmatch(r"[2-9]", "".join(t.text for t in toks[2:i] if t.kind == "num")):
        return False
    inner = toks[i + 1:-1]
    if toks[i].text != "(" or toks[-1].text != ")" or not inner or len(inner) % 2 == 0 or \
            any(t.text != "," for t in inner[1::2]) or \
            any(t.kind not in ("letter", "cmd") or t.kind == "cmd" and t.text.lstrip("\\") not in GREEK
                for t in inner[0::2]):
        return False
    first = names.first_at(GREEK.get(head, head) if toks[0].kind == "cmd" else head)
    return first is not None and first >= toks[0].pos - 2 - len(toks[0].text)


def _top_level(toks: list[Token]) -> list[Token]:
    """The tokens of ``toks`` outside every bracket."""
    out, depth = [], 0
    for t in toks:
        if t.text in CLOSERS:
            depth -= 1
        elif t.text in OPENERS:
            depth += 1
        elif depth == 0:
            out.append(t)
    return out


def _dagger_on_bracket(toks: list[Token]) -> bool:
    """Whether the chain raises a bracket to ``\\dagger`` (``(AB)^\\dagger``, ``(A^\\top A)^{\\dagger}``): then † is
    an operation (the pseudo-inverse) in this chain, and ``B^\\dagger`` beside it is that operation applied to B, not
    a name of its own (referee 33: (AB)^† = B^† A^† had read pinv(A*B) = Bdag*Adag)."""
    for k in range(1, len(toks) - 1):
        if toks[k].text == "^" and toks[k - 1].text in (")", "]", "\\rangle") and (
                toks[k + 1].text == "\\dagger" or toks[k + 1].text == "{" and k + 3 < len(toks) and
                toks[k + 2].text == "\\dagger" and toks[k + 3].text == "}"):
            return True
    return False


def _parse_term(term: Term, names, functions, integrated: set[str] = frozenset(), defined: bool = False,
                dagger_pinv: bool = False) -> None:
    """Read ``term``'s tokens into its node (or its error), in place; ``defined``: the side a definition defines
    (its name applied to an argument list is a function, see :meth:`PaperParser.define_side`); ``dagger_pinv``: the
    chain writes † on a bracket, so a name's † is that operation too (:func:`_dagger_on_bracket`)."""
    if not term.tokens:
        term.error = "an empty side"
        return
    bad = next((t for t in term.tokens if t.kind == "bad"), None)
    if bad is not None:  # only the sides that hold the character are unreadable, not the whole chain
        term.error = f"character {bad.text!r} is not allowed here" if bad.text != "`" else \
            "a backquote shorthand (qsymbols' `g for \\gamma) is not read: no \\newqsymbol of the paper and no qsymbols " \
            "table defines it"
        return
    p = PaperParser([*term.tokens, Token("end", "", term.tokens[-1].pos + 1)], names, functions)
    p.integrated = set(integrated)  # the chain's integration variables (an evaluation bracket's, on another side)
    p.dagger_pinv = dagger_pinv
    if defined:
        p.define_side()
    term.parser = p
    try:
        node = p.expr()
        if p.peek().kind != "end":
            raise BadInput(f"cannot read {p.peek().text!r} here")
        term.node = node
    except BadInput as exc:
        term.error = _unbalanced(term.tokens) + " ".join(str(exc).replace("LaTeX: ", "").split())
    except RecursionError:
        term.error = "nested too deeply"
    except Exception as exc:  # a defect of the reader: this side is unreadable, never the whole paper
        term.error = f"not read (the reader failed: {type(exc).__name__})"


def _unbalanced(toks: list[Token]) -> str:
    """The true cause in front of a side's parse error, where the side opens fewer brackets than it closes (or more):
    ``f(Y_1)) - …`` says "unbalanced brackets (1 '(' or '[' against 2 ')' or ']')" before the parser's own words.
    Round and square brackets are counted together, so a half-open interval ``[0, 1)`` is balanced."""
    opened = sum(t.text in ("(", "[") for t in toks)
    closed = sum(t.text in (")", "]") for t in toks)
    if opened == closed:
        return ""
    return f"unbalanced brackets ({opened} '(' or '[' against {closed} ')' or ']'): "


def tuple_parts(toks: list[Token]) -> list[list[Token]] | None:
    """The components of a side written as one bracketed tuple — ``(a, b)``, ``\\left( a, b \\right)`` — each
    non-empty; None for anything else (a function's arguments ``f(a, b)``, an inner product ``\\langle a, b
    \\rangle``, a bracket followed by more, one component)."""
    if len(toks) < 5:
        return None
    if toks[0].text == "\\left":
        if toks[1].text != "(" or toks[-2].text != "\\right" or toks[-1].text != ")":
            return None
        inner = toks[2:-2]
    elif toks[0].text == "(" and toks[-1].text == ")":
        inner = toks[1:-1]
    else:
        return None
    parts: list[list[Token]] = [[]]
    depth = 0
    for t in inner:
        if t.text in OPENERS or t.text == "\\begin":
            depth += 1
        elif t.text in CLOSERS or t.text == "\\end":
            depth -= 1
            if depth < 0:
                return None  # (a)(b): the first bracket closes early
        if depth == 0 and t.text == ",":
            parts.append([])
            continue
        parts[-1].append(t)
    if depth != 0 or len(parts) < 2 or any(not p for p in parts):
        return None
    return parts


def _plain(op: str) -> str:
    return {"=": "=", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}.get(op, op)


# --- indices and names ---------------------------------------------------------------------------------

def index_label(node: ast.expr) -> str:
    """A short label for an index expression: ``t+1`` → ``tp1``, ``i, j`` → ``i_j``, ``2k`` → ``2k``."""
    if isinstance(node, ast.Tuple):
        return "_".join(index_label(e) for e in node.elts)
    text = unparse(node)
    text = text.replace(" ", "").replace("+", "p").replace("-", "m").replace("*", "").replace("/", "d")
    text = re.sub(r"[()\[\]]", "", text)
    text = re.sub(r"[^A-Za-z0-9_]", "", text)
    return text or "i"


def bound_indices(node: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product"):
            out.add(n.args[1].elts[0].id)
    return out


def integral_variables(node: ast.AST) -> set[str]:
    """The variables a definite integral (``Integral(f, (x, a, b))``) binds: names, and an indexed variable's base
    (``d\\zeta_1`` binds ζ_1, whose base is written ``zeta``) — bound inside the call only, never a free name of the
    step; a name subscripted by one is a family (``x_t`` under ``dt`` varies with t)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Integral" and len(n.args) == 2 \
                and isinstance(n.args[1], ast.Tuple) and n.args[1].elts:
            v = n.args[1].elts[0]
            if isinstance(v, ast.Name):
                out.add(v.id)
    return out


def integral_infinities(node: ast.AST) -> set[str]:
    """``oo``/``oovar`` where an integral's bound writes ∞ (no name of the step)."""
    from ..integrals import INFINITY_NAMES
    return {m.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
            n.func.id == "Integral" and len(n.args) == 2 and isinstance(n.args[1], ast.Tuple)
            for b in n.args[1].elts[1:] for m in ast.walk(b) if isinstance(m, ast.Name) and m.id in INFINITY_NAMES}


def atom_letters(opaque: dict[str, str]) -> dict[str, set[str]]:
    """The names each opaque atom's LaTeX writes (``⟦\\mathbb{E}[w_i]⟧`` → ``{E, w, i}``: letters and Greek letters),
    so that an atom can be seen to use a sum's index."""
    from ..latex import GREEK, tokenize
    out: dict[str, set[str]] = {}
    for name, latex in opaque.items():
        try:
            toks = tokenize(latex)
        except BadInput:
            out[name] = set()
            continue
        out[name] = {t.text if t.kind == "letter" else GREEK[t.text[1:]] for t in toks
                     if t.kind == "letter" or (t.kind == "cmd" and t.text[1:] in GREEK)}
    return out


def atoms_as_families(node: ast.AST, atoms: dict[str, set[str]], families: dict[str, int]) -> ast.AST:
    """Inside a sum or product, an opaque atom that writes the index (``\\sum_i \\mathbb{E}[X_i]``) is a family
    ``atom_(i)``: one unknown per term, never one constant summed n times (which proved ``(∑_i E X_i)² = n ∑_i
    (E X_i)²``)."""
    class Index(ast.NodeTransformer):
        def __init__(self):
            self.inside: list[str] = []

        def visit_Call(self, n):
            if isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product", "Integral") and len(n.args) == 2 and \
                    isinstance(n.args[1], ast.Tuple) and n.args[1].elts and isinstance(n.args[1].elts[0], ast.Name):
                # ∫_0^1 E[X_t] dt: the atom varies with t (a family), never a constant integrated
                self.inside.append(n.args[1].elts[0].id)
                n.args[0] = self.visit(n.args[0])
                self.inside.pop()
                n.args[1] = self.visit(n.args[1])
                return n
            self.generic_visit(n)
            return n

        def visit_Name(self, n):
            letters = atoms.get(n.id, ())
            used = [i for i in self.inside if i in letters or i.split("_")[0] in letters]
            if not used:
                return n
            fam = _safe(f"{n.id}_")
            families[fam] = len(used)
            return ast.Call(func=ast.Name(id=fam, ctx=ast.Load()), args=[ast.Name(id=i, ctx=ast.Load()) for i in used],
                            keywords=[])
    return Index().visit(node)


def index_outside(*sides: ast.AST, atoms: dict[str, set[str]] | None = None) -> set[str]:
    """The indices of a sum or product in the relation that are also written outside every sum or product binding them
    (``\\prod_{k=1}^n 1 + \\frac{p-1}{k}`` read as ``(∏ 1) + (p-1)/k``; ``\\sum_i \\mathbb{E}[w_i^2] -
    (\\mathbb{E}[w_i])^2`` where the opaque atom ``atoms`` says writes i): the operator's scope is then in doubt."""
    bound = set().union(*(bound_indices(s) for s in sides if s is not None))
    atoms = atoms or {}
    out: set[str] = set()

    def walk(n: ast.AST, inside: frozenset) -> None:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("Sum", "Product"):
            idx = n.args[1].elts[0].id
            walk(n.args[0], inside | {idx})
            for lim in n.args[1].elts[1:]:
                walk(lim, inside)
            return
        if isinstance(n, ast.Name) and n.id in bound and n.id not in inside:
            out.add(n.id)
        if isinstance(n, ast.Name) and n.id in atoms:
            out.update((atoms[n.id] & bound) - inside)
        for c in ast.iter_child_nodes(n):
            walk(c, inside)
    for side in sides:
        if side is not None:
            walk(side, frozenset())
    return out


class Plain(ast.NodeTransformer):
    """Subscripts to names (or families of a bound index); names that clash with constants or functions renamed."""

    RESERVED = {"E": "Evar", "e": "evar", "pi": "pi", "I": "Ivar", "oo": "oovar", "S": "Svar", "N": "Nvar",
                "O": "Ovar", "Q": "Qvar"}

    def __init__(self, bound: set[str], functions: set[str], families: dict[str, int]):
        self.bound = bound
        self.functions = functions
        self.families = families  # family name -> arity

    def visit_Subscript(self, node: ast.Subscript):
        if not isinstance(node.value, ast.Name):
            raise BadInput("an index on an expression is not read")
        idx = node.slice
        names = {n.id for n in ast.walk(idx) if isinstance(n, ast.Name)}
        if names & self.bound:
            fam = _safe(f"{node.value.id}_")
            elts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
            self.families[fam] = len(elts)
            return ast.Call(func=ast.Name(id=fam, ctx=ast.Load()), args=[self.visit(e) for e in elts], keywords=[])
        return ast.Name(id=_safe(f"{node.value.id}_{index_label(idx)}"), ctx=ast.Load())

    def visit_Name(self, node: ast.Name):
        if node.id == "e":  # the grammar keeps "e" only for Euler's number (a name e is "evar" already)
            return ast.Name(id="E", ctx=ast.Load())
        if node.id in self.RESERVED and node.id != "pi":
            return ast.Name(id=self.RESERVED[node.id], ctx=ast.Load())
        from ..functions import FUNCTIONS
        if node.id in FUNCTIONS and node.id not in self.functions:
            return ast.Name(id=_safe(node.id + "_v"), ctx=ast.Load())
        return node

    def visit_Call(self, node: ast.Call):
        node.args = [self.visit(a) for a in node.args]
        if isinstance(node.func, ast.Name) and node.func.id in self.functions:
            node.func = ast.Name(id=function_name(node.func.id), ctx=ast.Load())
        return node


def function_name(name: str) -> str:
    """An unspecified or paper-defined function's name in the checker (renamed where it clashes with a built-in)."""
    from ..functions import CONSTANTS, FUNCTIONS
    if name in FUNCTIONS or name in CONSTANTS or name in Plain.RESERVED or name in ("simplex", "oo"):
        return _safe(name + "fn")
    return name


def _safe(name: str) -> str:
    if NAME_RE.match(name):
        return name
    name = re.sub(r"[^A-Za-z0-9_]", "", name)
    if not name or not name[0].isalpha():
        name = "n" + name
    return name[:32]


def plain(node: ast.expr, functions: set[str], families: dict[str, int]) -> ast.expr:
    import copy
    return Plain(bound_indices(node) | integral_variables(node), functions, families).visit(copy.deepcopy(node))


def names_in(node: ast.AST, functions: set[str]) -> set[str]:
    called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    bound = bound_indices(node) | integral_variables(node) | integral_infinities(node)
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in called and n.id not in bound
            and n.id not in ("pi", "e")}


SCALAR_OF = {"norm", "Abs", "trace", "det"}


def wrapped_only(node: ast.AST) -> tuple[set[str], bool]:
    """(names that occur only as the whole argument of a norm, |·|, trace or det — ``‖A‖_F`` is a number whatever
    A is —, whether every norm in ``node`` is of a single name).  A labelled norm (``norm_F``, from ``‖A‖_F``) is
    one too; it is another function than ``norm``, so ‖A‖_1 ≤ ‖A‖ is never the reflexive norm(A) ≤ norm(A)."""
    inside, every = set(), True
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and (n.func.id in SCALAR_OF or
                                                                        n.func.id.startswith("norm_")):
            if len(n.args) == 1 and isinstance(n.args[0], ast.Name):
                inside.add(id(n.args[0]))
            elif n.func.id.startswith("norm"):
                every = False
    outside = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in inside}
    wrapped = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) in inside}
    return wrapped - outside, every


#: a left side written as a sum or product is an expression computed, not a name (a norm, an inner product, a
#: derivative on the left may well be defined: ``\\langle x, y\\rangle_L = …``, ``\\frac{d}{dt}\\alpha = …``)
COMPUTED_CALLS = frozenset({"Sum", "Product", "Integral"})


#: norm subscripts that name a norm equal to |x| in one dimension (p-norms, Frobenius, operator, nuclear)
ONE_DIMENSIONAL_NORMS = re.compile(r"norm_(\d+|inf|p|q|r|s|F|Fro|HS|op|sp|spec|max|nuc|tr)")


def one_norm(lhs: ast.expr, rhs: ast.expr) -> tuple[ast.expr, ast.expr]:
    """A step that writes a single kind of norm, and that norm equals |x| in one dimension (``‖A‖_F`` alone,
    ``‖x‖_\\infty`` alone): that norm is read as ``norm`` (checked as the other norms are).  Two kinds in one step
    (``‖x‖_1 ≤ ‖x‖_2``) or a weighted norm (``‖x‖_G``, √(xᵀGx), which is not |x| even in one dimension) keep their
    own unspecified functions: one norm is never silently another."""
    calls = [n for t in (lhs, rhs) for n in ast.walk(t) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and (n.func.id == "norm" or n.func.id.startswith("norm_"))]
    kinds = {n.func.id for n in calls}
    if len(kinds) != 1 or not ONE_DIMENSIONAL_NORMS.fullmatch(next(iter(kinds))):
        return lhs, rhs
    for n in calls:
        n.func = ast.Name(id="norm", ctx=ast.Load())
    return lhs, rhs


#: an applied family's name with its index folded in (:func:`index_label`) at a letter plus one: f_tp1, u_i_kp1
PLUS_ONE_FAMILY = re.compile(r"\w+?_(?:\w+_)?[A-Za-z]p1")


def lhs_shape(node: ast.expr | None) -> tuple[bool, bool, str | None]:
    """(is a name / indexed name / call of a name, has t+1 in its index, the base name)."""
    if node is None:
        return False, False, None
    if isinstance(node, ast.Name):
        return True, False, node.id
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        text = unparse(node.slice).replace(" ", "")
        return True, bool(re.search(r"[A-Za-z]\+1\b", text)), node.value.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in COMPUTED_CALLS:
        return False, False, None  # Σ_{j<i} |u_j^T y|^2 = …: a sum computed, never a name being defined
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        # f_{t+1}(·) (the family's name f_tp1, its index folded in): t+1 in the index, an update as f_{t+1} is
        return True, bool(PLUS_ONE_FAMILY.fullmatch(node.func.id)), node.func.id
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Subscript):
        # θ^{i}_{n+1} read as (θ_{n+1})^i: whatever the superscript is (a coordinate or a power), t+1 in the
        # index makes the display an update of θ, never a step
        _, plus_one, base = lhs_shape(node.left)
        return False, plus_one, base
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Call) and \
            isinstance(node.left.func, ast.Name) and node.left.func.id not in COMPUTED_CALLS and \
            isinstance(node.right, ast.Constant):
        return False, False, node.left.func.id  # σ(u)^2 (written σ^2(u)): the base σ, for its first use
    return False, False, None


def _bare_forms(node: ast.AST, as_arguments: bool = True) -> set[str]:
    """The names ``node`` uses as values, not applied: ``r``, ``M_a`` (``M[a]``, keyed as the grammar names a call
    of it); with ``as_arguments`` False, not those written only as a whole argument of a function the paper names
    (``ω(σ, ε)``: a map handed to an operator, no number) — an argument of √, exp, |·| … still is one."""
    from ..functions import FUNCTIONS
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    if not as_arguments:
        called |= {id(a) for n in ast.walk(node) if isinstance(n, ast.Call) and
                   not (isinstance(n.func, ast.Name) and n.func.id in FUNCTIONS) for a in n.args}
    inner = {id(n.value) for n in ast.walk(node) if isinstance(n, ast.Subscript)}
    out = set()
    for n in ast.walk(node):
        if id(n) in called:
            continue
        if isinstance(n, ast.Name) and id(n) not in inner:
            out.add(n.id)
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
            out.add(f"{n.value.id}_{index_label(n.slice)}")
    return out


def _atomic(args: list[ast.expr]) -> bool:
    """One number or one (indexed) name: ``λ(t)``, ``r(s)``, ``z(0)`` — a function applied, whatever else the
    chain writes."""
    return len(args) == 1 and isinstance(args[0], (ast.Name, ast.Constant, ast.Subscript))


def bare_and_applied(reading: ChainReading, declared: set[str] = frozenset(), maps: set[str] = frozenset()) -> set[str]:
    """Names a chain both applies to a bracket (``r M_a^2 \\left( … \\right)``, ``r \\left( … \\right)``) and writes
    as plain values (``r M_a^2 \\cdot E[…]``): the paper-wide evidence made them functions, but the chain itself
    uses them as numbers, so each such application is a function applied or a product — ambiguous, both readings
    shown (never one chosen silently, never 'r is a function: call it').  An application to one name or number
    (``λ(t)``) stays a function's; a declared or defined function (``% theoryverify: function r``) is one, and so is
    an application to two or more arguments (``δ(X, x, K)``: its product reading, δ times a tuple, is no number).
    A name the paper declares a map (``σ: ℝ → ℝ``, ``maps``) is written bare only where a product could be meant:
    handed whole to an operator (``ω(σ, ε)``, ``σ * φ``) it is not.  The names moved to the parsers' ``ambiguous``
    are returned."""
    terms, seen = [], set()
    for link in reading.links:
        for term in (link.lhs, link.rhs):
            if id(term) not in seen and term.node is not None and term.parser is not None:
                seen.add(id(term))
                terms.append(term)
    bare = set().union(*(_bare_forms(t.node) for t in terms)) if terms else set()
    valued = set().union(*(_bare_forms(t.node, False) for t in terms)) if terms else set()
    moved = set()
    for term in terms:
        p = term.parser
        for name in sorted(p.applied & bare):
            if name in declared or name in p.functions or name in maps and name not in valued:
                continue
            calls = [n for n in ast.walk(term.node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                     and n.func.id == name]
            if not calls or all(_atomic(c.args) or len(c.args) >= 2 for c in calls):
                continue
            p.applied.discard(name)
            p.ambiguous.add(name)
            powered = any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow) and n.left in calls
                          for n in ast.walk(term.node))
            maps = getattr(p, "iterated_maps", None)
            if powered and maps is not None:
                maps.add(name)  # M_a^2(X): its product reading is M_a^2·X, not (M_a·X)^2 — no other reading built
            moved.add(name)
    return moved
