"""The qsymbols package's backquote shorthands in maths: `` `g `` is ``\\gamma``, `` `/ `` is ``\\setminus``, and a
paper's own ``\\newqsymbol{`1}{\\left}`` makes `` `1 `` mean ``\\left``.

qsymbols makes the backquote active in maths only (``\\mathcode`\\`="8000``): there it reads the next token (spaces
skipped, as for any undelimited argument) and puts the symbol defined for the pair.  Prose keeps its quotes (the
``\\`\\`…''`` of "quoted" words, a backquote inside ``\\text{…}``).  :func:`qsymbol_table` reads which shorthands a
paper has (the package's own single-symbol table when it loads the package, then its ``\\newqsymbol`` definitions,
later ones winning); :func:`replacements` finds the shorthands written in maths in the paper's text.  Nothing is
run: a definition is text put in place of the pair.

Not read (left as written: the row is unreadable and says why, :mod:`..latex`): a pair that neither the package
nor the paper defines, the package's composite ones (`` `(+) ``, `` `[] ``, `` `<> ``), a ``\\newqsymbol`` whose
key is a braced group or whose body is not a ``{…}`` group, a shorthand written inside a macro's body (only the
paper's own maths is rewritten, before its macros are expanded).
"""
from __future__ import annotations

import re

from ..macros import read_group, strip_comments

#: the package's single-token shorthands (qsymbols.sty, "SINGLE SYMBOLS": its letters and symbols); the Greek
#: letters are mnemonic but not all obvious (`q is θ, `j is ψ, `u is ϱ, `v is φ, `y is υ, `c is χ)
PACKAGE: dict[str, str] = {
    "a": "\\alpha", "b": "\\beta", "c": "\\chi", "d": "\\delta", "D": "\\Delta", "e": "\\epsilon", "f": "\\phi",
    "F": "\\Phi", "g": "\\gamma", "G": "\\Gamma", "h": "\\eta", "i": "\\iota", "j": "\\psi", "J": "\\Psi",
    "k": "\\kappa", "l": "\\lambda", "L": "\\Lambda", "m": "\\mu", "n": "\\nu", "p": "\\pi", "P": "\\Pi",
    "q": "\\theta", "Q": "\\Theta", "r": "\\rho", "s": "\\sigma", "S": "\\Sigma", "t": "\\tau", "u": "\\varrho",
    "v": "\\varphi", "w": "\\omega", "W": "\\Omega", "x": "\\xi", "X": "\\Xi", "y": "\\upsilon", "Y": "\\Upsilon",
    "z": "\\zeta",
    "+": "\\pm", "*": "\\times", ":": "\\in", ";": "\\notin", "/": "\\setminus", "U": "\\cup", "C": "\\complement",
    "_": "\\bot", "T": "\\top", "o": "\\circ", ".": "\\cdot", "=": "\\equiv", "~": "\\simeq", "E": "\\exists",
    "A": "\\forall", "!": "\\lnot", "^": "\\land", "V": "\\lor",
}
#: ``\\newqsymbol{`X}{body}``: X one character or one control sequence
NEWQ_RE = re.compile(r"\\newqsymbol\s*\{\s*`\s*(\\[A-Za-z]+|\\.|[^\s{}\\])\s*\}\s*")
#: what switches maths on or off in a paper's body: ``$``, ``$$``, ``\\(``, ``\\)``, ``\\[``, ``\\]``, environments;
#: braces (a ``\\text{…}`` group is prose); control words; the backquote itself
TOKEN_RE = re.compile(r"\\begin\s*\{([^{}]{1,40})\}|\\end\s*\{([^{}]{1,40})\}|\\[A-Za-z]+|\\.|\$\$|[${}`]", re.S)
MATH_ENV = re.compile(r"(?:equation|align|gather|multline|eqnarray|flalign|alignat|xalignat|xxalignat|displaymath|"
                      r"dmath|dseries|darray|IEEEeqnarray|math)\*?")
#: commands whose ``{…}`` argument is prose inside maths, or a key that is never typeset (``\\label{eq:S_`l}``: the
#: backquote there is a character of the key, as in the ``\\eqref`` that cites it)
TEXT_CMDS = frozenset({"\\text", "\\textrm", "\\textnormal", "\\textit", "\\textbf", "\\textsf", "\\texttt", "\\mbox",
                       "\\hbox", "\\emph", "\\intertext", "\\shortintertext", "\\textup", "\\textsc", "\\tag",
                       "\\label", "\\ref", "\\eqref", "\\cref", "\\Cref", "\\autoref", "\\pageref", "\\cite",
                       "\\hyperref"})
KEY_RE = re.compile(r"\s*(\\[A-Za-z]+|\\.|[^\s])", re.S)


def loads_package(texts: list[str]) -> bool:
    """Does one of ``texts`` (the preamble, a local package) load qsymbols?"""
    for text in texts:
        for m in re.finditer(r"\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]{0,500}\])?\s*\{([^{}]{1,500})\}",
                             strip_comments(text)):
            if "qsymbols" in [n.strip() for n in m.group(1).split(",")]:
                return True
    return False


def qsymbol_table(texts: list[str]) -> dict[str, str] | None:
    """The shorthands of a paper whose preamble and local packages are ``texts`` (in the order TeX reads them):
    the key (what follows the backquote) → the text it stands for; None when the paper does not load qsymbols."""
    if not loads_package(texts):
        return None
    table = dict(PACKAGE)
    for text in texts:
        s = strip_comments(text)
        for m in NEWQ_RE.finditer(s):
            g = read_group(s, m.end())
            if g is not None:
                table[m.group(1)] = " ".join(g[0].split())
    return table


def replacements(text: str, start: int, table: dict[str, str]) -> list[tuple[int, int, str]]:
    """``(a, b, new)``: each shorthand of ``table`` written in maths in ``text`` from ``start`` on (a backquote and
    its key at ``text[a:b]``), with the text it stands for (a space after a control word, so ``\\`lx`` is
    ``\\lambda x``).  A backquote in prose, or with a key ``table`` lacks, is left."""
    out: list[tuple[int, int, str]] = []
    # each open group: (what closes it, is it maths)
    stack: list[tuple[str, bool]] = [("", False)]
    text_arg = False  # a \text-like command was just seen: its { opens prose
    for m in TOKEN_RE.finditer(text, start):
        tok = m.group()
        math = stack[-1][1]
        if tok == "{":
            stack.append(("}", False if text_arg else math))
        elif tok == "}":
            if any(c == "}" for c, _ in stack[1:]):
                while stack[-1][0] != "}":
                    stack.pop()
                stack.pop()
        elif m.group(1) is not None:
            env = m.group(1).strip()
            stack.append(("end:" + env, math or bool(MATH_ENV.fullmatch(env))))
        elif m.group(2) is not None:
            want = "end:" + m.group(2).strip()
            if any(c == want for c, _ in stack[1:]):
                while stack[-1][0] != want:
                    stack.pop()
                stack.pop()
        elif tok in ("$", "$$"):
            if stack[-1][0] == tok:
                stack.pop()
            elif not math:
                stack.append((tok, True))
        elif tok in ("\\(", "\\["):
            if not math:
                stack.append(("\\)" if tok == "\\(" else "\\]", True))
        elif tok in ("\\)", "\\]"):
            if stack[-1][0] == tok:
                stack.pop()
        elif tok == "`" and math:
            k = KEY_RE.match(text, m.end())
            if k is not None and k.group(1) in table:
                new = table[k.group(1)]
                if re.search(r"\\[A-Za-z]+$", new):
                    new += " "
                out.append((m.start(), k.end(), new))
        text_arg = tok in TEXT_CMDS
    return out


def apply(text: str, found: list[tuple[int, int, str]], offset: int = 0) -> str:
    """``text`` (at ``offset`` of the paper) with the replacements of :func:`replacements` that lie in it made."""
    parts, last = [], 0
    for a, b, new in found:
        a, b = a - offset, b - offset
        if a < last or b > len(text) or a < 0:
            continue
        parts.append(text[last:a])
        parts.append(new)
        last = b
    parts.append(text[last:])
    return "".join(parts)
