"""LaTeX in: a small grammar from the math a theorist writes to the checker's own ``ast`` nodes.

No TeX engine runs and nothing is expanded: the text is tokenised (commands, letters, numbers,
symbols), parsed by recursive descent into the same Python ``ast`` nodes the plain syntax produces, and
those nodes go through the same allow-list (:func:`~.parser.validate`) and builder.  Macro definitions
(``\\def``, ``\\newcommand``, …), file input (``\\input``, ``\\include``), writes and shell escape
(``\\write18``, ``\\immediate``, ``\\openout``) and catcode tricks are refused outright with a one-line
error (:data:`FORBIDDEN`), as is any command the grammar does not know.

Read: ``=``, ``<``, ``>``, ``\\le``/``\\leq``/``\\ge``/``\\geq`` (chains ``a = b \\le c``); ``+ - \\cdot
\\times /`` and juxtaposition (``2x``, ``W v``: between matrices, the matrix product); ``\\frac``,
``\\sqrt``, ``\\sqrt[n]``, ``x^{…}``, ``e^{…}`` (exp), ``W^\\top``/``W^T`` (transpose), ``W^{-1}``;
``\\sum_{k=a}^{b}``, ``\\prod``; ``\\exp \\log \\ln \\log_b \\sin \\cos \\tanh \\sinh \\cosh \\det \\max \\min``,
``\\operatorname{tr|sigmoid|softplus|ReLU|erf|erfc|softmax}``, ``\\sigma(…)`` (the sigmoid; a bare
``\\sigma`` is the name ``sigma``); ``\\left( … \\right)``, ``|x|``, ``\\|v\\|``, ``\\lfloor``/``\\lceil``;
``\\frac{d}{dx}``, ``\\frac{\\partial f}{\\partial x}``, ``\\frac{d^2 y}{dx^2}``, ``\\nabla_w``; Greek letters
as names, subscripts as part of a name (``w_1``, ``w_{ij}``), ``\\hat{x}``/``\\bar{x}`` as ``xhat``/``xbar``,
``\\mathbf{x}`` as ``x``; ``\\mathbb{E}[…]`` (the expectation), ``\\mathbb{1}\\{x > 0\\}`` (an indicator);
spacing, ``&``, ``\\label``, ``\\nonumber``, ``\\displaystyle`` are ignored; ``\\quad``/``\\text{…}`` end the
math of a line (what follows is prose: "for x > 0").
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Iterable

from .parser import MAX_DEPTH, BadInput, Statement, statement_from_tree, unparse, validate

MAX_LATEX_CHARS = 4000

FORBIDDEN = re.compile(
    r"\\(def|edef|gdef|xdef|let|futurelet|newcommand|renewcommand|providecommand|DeclareMathOperator|"
    r"DeclareRobustCommand|newenvironment|renewenvironment|input|include|includeonly|InputIfFileExists|"
    r"write|immediate|openout|openin|closeout|closein|read|readline|newwrite|newread|catcode|csname|endcsname|"
    r"expandafter|noexpand|directlua|luaexec|latelua|ShellEscape|pdfshellescape|special|scantokens|"
    r"loop|makeatletter|makeatother|typeout|message|errmessage|"
    r"afterassignment|uppercase|lowercase|string|detokenize|unexpanded|lstinputlisting|verbatiminput|"
    r"import|subimport|subfile|jobname|everypar|everymath|output|shipout)(?![A-Za-z])")

GREEK = {n: n for n in (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa mu nu xi rho sigma tau upsilon phi chi psi "
    "omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega").split()}
GREEK.update({"lambda": "lam", "varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "varrho": "rho",
              "varsigma": "sigma", "ell": "ell", "omicron": "omicron",
              "varkappa": "varkappa"})  # ϰ: a letter of its own (a paper may write κ and ϰ for two things)
FUNCS = {"exp": "exp", "log": "log", "ln": "log", "sin": "sin", "cos": "cos", "tanh": "tanh", "sinh": "sinh",
         "cosh": "cosh", "det": "det", "max": "Max", "min": "Min"}
OPERATORS = {"tr": "trace", "Tr": "trace", "trace": "trace", "sigmoid": "sigmoid", "softplus": "softplus",
             "ReLU": "relu", "relu": "relu", "erf": "erf", "erfc": "erfc", "softmax": "softmax", "det": "det",
             "exp": "exp", "log": "log", "E": "E", "sigma": "sigmoid", "inv": "inv"}
RELATIONS = {"=": "==", "<": "<", ">": ">", "\\le": "<=", "\\leq": "<=", "\\leqslant": "<=", "\\ge": ">=",
             "\\geq": ">=", "\\geqslant": ">=", "\\lt": "<", "\\gt": ">"}
REFUSED_RELATIONS = {
    "\\ne": "≠: a step cannot assert 'not equal'; check = and expect 'refuted'", "\\neq": "≠: a step cannot assert "
    "'not equal'; check = and expect 'refuted'", "\\approx": "\\approx cannot be checked: write = or a bound \\le",
    "\\simeq": "\\simeq cannot be checked: write =", "\\sim": "\\sim: declare a random variable as an assumption "
    "(X ~ Normal(mu, s))", "\\propto": "\\propto cannot be checked: write the constant", "\\equiv": "\\equiv: write = "
    "(or := for a definition)", "\\ll": "\\ll cannot be checked", "\\gg": "\\gg cannot be checked",
    "\\to": "limits are not supported", "\\rightarrow": "limits are not supported", "\\in": "\\in belongs in an "
    "assumption (y in {-1, 1})", "\\implies": "one statement per line", "\\iff": "one statement per line"}
DEFINITION_OPS = ("\\coloneqq", "\\coloneq", "\\triangleq", "\\eqqcolon", ":=", "\\defeq")
IGNORED = {"\\,", "\\;", "\\:", "\\!", "\\ ", "\\displaystyle", "\\textstyle", "\\scriptstyle", "\\nonumber",
           "\\notag", "\\limits", "\\nolimits", "\\displaylimits", "\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\bigr",
           "\\Bigl", "\\Bigr", "\\biggl", "\\biggr", "\\Biggl", "\\Biggr", "\\middle", "\\allowbreak", "\\mathstrut",
           "\\strut", "\\hfill", "\\theequation", "\\qedhere", "\\qed",
           # pure spacing (half an em, a thin/medium/thick space): dropped as \, and \; are
           "\\enskip", "\\enspace", "\\thinspace", "\\medspace", "\\thickspace"}
#: commands whose group is prose (a backquote there is a quotation mark)
TEXT_GROUPS = {"\\text", "\\textrm", "\\textnormal", "\\textit", "\\textbf", "\\textsf", "\\texttt", "\\mbox",
               "\\hbox", "\\emph", "\\intertext"}
#: typesetting wrappers whose group is the math as written (an optional [b]/[l] argument dropped with them):
#: ``\smash[b]{x}``, ``\mathclap{i \in S}``, ``\cancel{a}`` (a term struck out as cancelling is still the term)
WRAPPERS_IGNORED = {"\\smash", "\\mathclap", "\\mathllap", "\\mathrlap", "\\cancel", "\\bcancel", "\\xcancel",
                    "\\smashoperator"}
#: spacing by an explicit length: ``\mkern-\thickmuskip``, ``\mkern 2mu``, ``\kern-0.5em``, ``\hskip 1pt``
SPACING_WITH_LENGTH = {"\\mkern", "\\mskip", "\\kern", "\\hskip"}
LENGTH = re.compile(r"\s*[-+]?\s*(?:\d*\.?\d+\s*(?:mu|em|ex|pt|mm|cm|in|bp|sp)|\\[A-Za-z]+)"
                    r"(?:\s*plus\s*[-+]?\d*\.?\d+\s*(?:mu|em|ex|pt|fil+))?(?:\s*minus\s*[-+]?\d*\.?\d+\s*(?:mu|em|ex|pt|fil+))?")
STOPS = {"\\quad", "\\qquad", "\\text", "\\textrm", "\\textnormal", "\\mbox", "\\hbox", "\\intertext",
         "\\textit", "\\textbf", "\\emph", "\\forall"}
WITH_GROUP_IGNORED = {"\\label", "\\tag", "\\hspace", "\\vspace", "\\phantom", "\\hphantom", "\\vphantom",
                      "\\stepcounter", "\\refstepcounter"}
#: counter commands with two groups (\addtocounter{equation}{1}, as a paper's \numberthis expands): no math
WITH_TWO_GROUPS_IGNORED = {"\\addtocounter", "\\setcounter"}
ACCENTS = {"hat": "hat", "widehat": "hat", "bar": "bar", "overline": "bar", "tilde": "tilde", "widetilde": "tilde",
           "dot": "dot", "ddot": "ddot", "check": "check", "breve": "breve"}
FUNCTION_LETTERS = {"f", "g", "h"}  # the names a theorist uses for functions: f(x) with f undeclared is refused
FONTS = {"mathbf", "boldsymbol", "bm", "vec", "mathit", "mathsf", "bf", "mathnormal"}


@dataclass(frozen=True)
class Token:
    kind: str  # cmd, letter, num, sym, end
    text: str
    pos: int
    note: str = ""  # a relation's annotation that states a condition (\\overset{p = 1/2}{=}: "p = 1/2")
    #: the label set over (or under) a relation, as written (\\stackrel{(\\ref{e})}{=}: "(\\ref{e})"): the link's
    #: justification, which may cite a fact the display does not state
    label: str = ""


def refuse_dangerous(text: str, where: str = "", hash_sign: bool = True) -> None:
    """Macros, file input, writes and shell escape: refused before anything is read."""
    m = FORBIDDEN.search(text)
    if m:
        raise BadInput(f"{where}LaTeX \\{m.group(1)} is refused: the checker never expands macros (\\def, "
                       "\\newcommand), reads files (\\input) or runs anything (\\write18); write the expressions out")
    if hash_sign and "#" in text:
        raise BadInput(f"{where}LaTeX '#' (a macro parameter) is refused")


def tokenize(text: str) -> list[Token]:
    from .unicode import SIMPLE, GREEK as UGREEK
    out: list[Token] = []
    i, n = 0, len(text)
    depth = 0
    text_groups: list[int] = []  # the depth inside each open \text{…} group
    while i < n:
        c = text[i]
        if c in " \t\r\n~&":
            i += 1
            continue
        if c == "%":  # a comment runs to the end of the line
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+)\*?", text[i:])
            if m:
                name = "\\" + m.group(1)
                i += m.end()
            elif i + 1 < n:
                name = text[i:i + 2]
                i += 2
            else:
                raise BadInput("a lone backslash at the end")
            if name in IGNORED:
                continue
            if name in SPACING_WITH_LENGTH:
                m = LENGTH.match(text, i)
                if m is None:
                    raise BadInput(f"LaTeX: {name} without a length it can read")
                i = m.end()
                continue
            if name == "\\MoveEqLeft":  # mathtools: a chain's first row set out to the left ([n]: by n quads)
                m = re.match(r"\s*\[\s*\d*\.?\d*\s*\]", text[i:])  # layout only: dropped with its [n]
                if m:
                    i += m.end()
                continue
            if name in WRAPPERS_IGNORED:
                m = re.match(r"\s*\[[a-z]*\]", text[i:])
                if m:
                    i += m.end()
                continue
            if name == "\\cancelto":
                raise BadInput("\\cancelto{v}{x} strikes x out as becoming v: whether the row means x or v is not "
                               "settled, not read")
            if name in WITH_GROUP_IGNORED:
                i = _skip_group(text, i)
                continue
            if name in WITH_TWO_GROUPS_IGNORED:
                i = _skip_group(text, _skip_group(text, i))
                continue
            out.append(Token("cmd", name, i))
            if name in TEXT_GROUPS and text[i:].lstrip(" \t").startswith("{"):
                text_groups.append(depth + 1)
            continue
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = re.match(r"\d*\.?\d+|\d+\.?", text[i:])
            out.append(Token("num", m.group(0), i))
            i += m.end()
            continue
        if c.isascii() and c.isalpha():
            out.append(Token("letter", c, i))
            i += 1
            continue
        if c in "{[(":
            depth += 1
            if depth > MAX_DEPTH:
                raise BadInput(f"nesting too deep (more than {MAX_DEPTH} brackets)")
        elif c in "}])":
            depth -= 1
            while text_groups and depth < text_groups[-1]:
                text_groups.pop()
        if c == ":" and text[i:i + 2] == ":=":
            out.append(Token("cmd", ":=", i))
            i += 2
            continue
        if c == "`" and text_groups and depth >= text_groups[-1]:
            i += 1  # ``a quote'' typed in a \text label: prose punctuation, no mathematics
            continue
        if c in "+-*/=<>()[]{}^_,|!'.;:@":  # @: read only as a paper's binary operator (see .tex.grammar)
            out.append(Token("sym", c, i))
            i += 1
            continue
        if not c.isascii():
            if c in UGREEK:
                out.append(Token("cmd", "\\" + UGREEK[c].replace("lam", "lambda"), i))
                i += 1
                continue
            mapped = {"≤": "\\le", "≥": "\\ge", "·": "\\cdot", "×": "\\times", "−": "-", "π": "\\pi", "∑": "\\sum",
                      "∏": "\\prod", "∞": "\\infty", "√": "\\sqrt", "∂": "\\partial", "∇": "\\nabla", "≠": "\\ne"}
            if c in mapped:
                t = mapped[c]
                out.append(Token("cmd" if t.startswith("\\") else "sym", t, i))
                i += 1
                continue
            if c in SIMPLE and SIMPLE[c].strip() in ("-", "*"):
                out.append(Token("sym", SIMPLE[c].strip(), i))
                i += 1
                continue
        if c == "`":  # qsymbols' shorthand (`g for \\gamma) that neither the package nor the paper defines
            key = text[i + 1:i + 2].strip() or "?"
            raise BadInput(f"LaTeX: the backquote shorthand `{key} is not read (no \\newqsymbol of the paper and no "
                           "qsymbols table defines it)")
        raise BadInput(f"LaTeX: character {c!r} is not allowed here")
    out.append(Token("end", "", n))
    return out


def _skip_group(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != "{":
        return i
    depth = 0
    for j in range(i, min(len(text), i + 2000)):
        depth += text[j] == "{"
        depth -= text[j] == "}"
        if depth == 0:
            return j + 1
    raise BadInput("LaTeX: an unclosed { after \\label or \\tag")


def _name(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Load())


def _call(f: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=_name(f), args=list(args), keywords=[])


def _num(v) -> ast.expr:
    return ast.Constant(value=v)


def _bin(a, op, b) -> ast.BinOp:
    return ast.BinOp(left=a, op=op, right=b)


class LatexParser:
    """Recursive descent over the tokens of one statement (or one row of an align environment)."""

    def __init__(self, tokens: list[Token], functions: Iterable[str] = ()):
        self.toks = tokens
        self.i = 0
        self.functions = set(functions or ())
        self.functions_known = functions is not None  # None: a syntax-only pass, before the session's names are known
        self.depth = 0
        self.stopped = False
        self.semicolon = False  # an argument list just read had a ';' (h(x; w)): an application, never a product
        self.in_abs = 0  # inside |…|: a bar closes rather than opens
        self.in_norm = 0  # inside \\|…\\|: likewise for the double bar

    # --- token helpers --------------------------------------------------------------------------
    def peek(self, k: int = 0) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Token:
        t = self.peek()
        self.i += 1
        return t

    def at(self, *texts: str) -> bool:
        return self.peek().text in texts and self.peek().kind != "end"

    def expect(self, text: str) -> None:
        t = self.next()
        if t.text != text:
            got = t.text or "the end"
            if text in (")", "\\right", "]") and got in (",", ";"):
                # (a, b) = (c, d), (-a/μ, -b/ν): a tuple or an interval — pairs are not read (no componentwise check)
                raise BadInput(f"LaTeX: a tuple or interval ({got!r} inside brackets) is not read")
            raise BadInput(f"LaTeX: expected {text!r}, got {got!r}")

    def _enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise BadInput(f"LaTeX nested too deeply (more than {MAX_DEPTH} levels)")

    def _leave(self):
        self.depth -= 1

    # --- the grammar ----------------------------------------------------------------------------
    def relation(self) -> tuple[list[ast.expr], list[str]]:
        """expr (relop expr)*"""
        terms = [self.expr()]
        ops: list[str] = []
        self.op_tokens: list[Token] = []
        while True:
            t = self.peek()
            if t.text in RELATIONS or t.text in DEFINITION_OPS:
                self.op_tokens.append(t)
            if t.text in REFUSED_RELATIONS and t.kind == "cmd":
                raise BadInput(REFUSED_RELATIONS[t.text])
            if t.text in DEFINITION_OPS:
                self.next()
                ops.append(":=")
            elif t.text in RELATIONS and t.kind in ("sym", "cmd"):
                self.next()
                op = RELATIONS[t.text]
                if op in ("<", ">") and self.at("="):  # <= typed as two characters
                    self.next()
                    op += "="
                ops.append(op)
            else:
                break
            terms.append(self.expr())
        return terms, ops

    def expr(self) -> ast.expr:
        self._enter()
        try:
            if self.at("-"):
                self.next()
                node = ast.UnaryOp(op=ast.USub(), operand=self.term())
            else:
                if self.at("+"):
                    self.next()
                node = self.term()
            while self.at("+", "-"):
                op = ast.Add() if self.next().text == "+" else ast.Sub()
                node = _bin(node, op, self.term())
            return node
        finally:
            self._leave()

    def term(self) -> ast.expr:
        node = self.factor()
        while True:
            longer = self._times(node)
            if longer is None:
                return node
            node = longer

    def _times(self, node: ast.expr) -> ast.expr | None:
        """``node`` times (``\\cdot``, ``*``, juxtaposed) or divided by (``/``, :meth:`_divisor`) the next factor, or
        None at the end of the product (the paper grammar's product reads its own operators first)."""
        t = self.peek()
        if t.text in ("\\cdot", "\\times", "*", "\\ast"):
            self.next()
            return _bin(node, ast.Mult(), self.factor())
        if t.text == "/" or t.text == "\\div":
            self.next()
            return _bin(node, ast.Div(), self._divisor())
        if self.starts_factor():
            return _bin(node, ast.Mult(), self.factor())
        return None

    def _divisor(self) -> ast.expr:
        """What a ``/`` divides by: the next factor (``a/2x`` is ``(a/2)·x``; a paper's reader asks, see
        :mod:`.tex.grammar`)."""
        return self.factor()

    def starts_factor(self) -> bool:
        t = self.peek()
        if self.stopped or t.kind == "end":
            return False
        if t.kind in ("letter", "num"):
            return True
        if t.kind == "sym":
            return t.text in "([{" or (t.text == "|" and not self.in_abs)
        if t.text in ("\\|", "\\Vert"):  # \\frac{1}{2}\\|v\\|^2: an opening double bar starts a factor
            return not self.in_norm
        return t.text not in RELATIONS and t.text not in REFUSED_RELATIONS and t.text not in DEFINITION_OPS \
            and t.text not in ("\\right", "\\cdot", "\\times", "\\ast", "\\div", "\\rfloor", "\\rceil", "\\|",
                               "\\rVert", "\\rvert", "\\}", "\\\\", "\\end", "\\choose", "\\over") and \
            t.text not in STOPS

    def factor(self) -> ast.expr:
        if self.at("-"):
            self.next()
            return ast.UnaryOp(op=ast.USub(), operand=self.factor())
        if self.at("+"):
            self.next()
            return self.factor()
        return self.postfix()

    def postfix(self) -> ast.expr:
        self._enter()
        try:
            start = self.i
            node = self.atom()
            while True:
                if self.at("^"):
                    self.next()
                    node = self._power(node)
                elif self.at("!"):
                    self.next()
                    node = _call("factorial", node)
                elif self.at("'"):
                    self._prime_after(node)
                elif self.at("_"):
                    node = self._subscript_after(node, start)
                else:
                    return node
        finally:
            self._leave()

    def _prime_after(self, node: ast.expr) -> None:
        """A prime after an expression (a subclass may read more; see :mod:`.tex.grammar`)."""
        raise BadInput("primes (f') are not read: write \\frac{d}{dx} f(x)")

    def _subscript_after(self, node: ast.expr, start: int) -> ast.expr:
        """A subscript after an expression that began at token ``start``."""
        raise BadInput("LaTeX: a subscript must follow a name directly (x_1, w_{ij})")

    def _power(self, base: ast.expr) -> ast.expr:
        if self.at("\\top", "T", "\\intercal", "\\mathsf", "\\mathrm") and self._is_transpose():
            return ast.Attribute(value=base, attr="T", ctx=ast.Load())
        if self.at("{") and self.peek(1).text in ("\\top", "T", "\\intercal") and self.peek(2).text == "}":
            self.i += 3
            return ast.Attribute(value=base, attr="T", ctx=ast.Load())
        if self.at("*", "\\star", "\\dagger", "\\prime"):
            raise BadInput("LaTeX: x^* / x^\\prime are names, not powers: write x_star")
        exponent = self.group_or_token()
        if isinstance(base, ast.Name) and base.id == "e":
            return _call("exp", exponent)
        return _bin(base, ast.Pow(), exponent)

    def _is_transpose(self) -> bool:
        t = self.peek()
        if t.text in ("\\top", "\\intercal"):
            self.next()
            return True
        if t.text == "T":
            self.next()
            return True
        if t.text in ("\\mathsf", "\\mathrm") and self.peek(1).text == "{" and self.peek(2).text == "T" \
                and self.peek(3).text == "}":
            self.i += 4
            return True
        return False

    def group_or_token(self) -> ast.expr:
        """``{…}`` or one token (``x^2``, ``x^n``, ``2^\\alpha``)."""
        t = self.peek()
        if t.text == "{":
            self.next()
            inner = self.expr()
            if self.at("\\over"):  # x^{1 \over 2}
                self.next()
                inner = _bin(inner, ast.Div(), self.expr())
            self.expect("}")
            return inner
        if t.kind == "num":
            self.next()
            if len(t.text) > 1:
                raise BadInput(f"LaTeX: write ^{{{t.text}}} with braces (in TeX, x^{t.text} is x^{t.text[0]} "
                               f"followed by {t.text[1:]})")
            return self._number(t.text)
        if t.kind == "letter":
            self.next()
            return self._letter_name(t.text)
        if t.kind == "cmd" and t.text[1:] in GREEK:
            self.next()
            return _name(GREEK[t.text[1:]])
        if t.kind == "cmd" and t.text == "\\pi":
            self.next()
            return _name("pi")
        if t.text == "-":
            raise BadInput("LaTeX: write x^{-1} with braces")
        if t.kind == "cmd" and t.text in ("\\frac", "\\dfrac", "\\tfrac", "\\sqrt") and \
                not (self.peek(1).text == "{" and self.peek(2).text in ("d", "\\partial", "\\mathrm", "\\operatorname")):
            # x^\frac{1}{2}, x^\sqrt{n}: legal TeX, the exponent is the whole command with its groups
            # (a derivative d/dx is no exponent: it is left to the error below)
            return self.command()
        raise BadInput(f"LaTeX: cannot read {t.text or 'the end'!r} as an exponent or argument")

    def _number(self, text: str) -> ast.expr:
        if "." in text:
            return _num(float(text))
        return _num(int(text))

    def _subscript_text(self) -> str:
        """The text of a subscript that is part of a name: letters, digits (``w_1``, ``w_{ij}``)."""
        self.expect("_")
        t = self.peek()
        if t.text == "{":
            self.next()
            parts = []
            while not self.at("}"):
                t = self.next()
                if t.kind in ("letter", "num"):
                    parts.append(t.text)
                elif t.kind == "cmd" and t.text[1:] in GREEK:
                    parts.append(GREEK[t.text[1:]])
                elif t.text == ",":
                    parts.append("_")
                elif t.kind == "cmd" and t.text[1:] in ACCENTS and self._accented_index_letter():
                    parts.append(self._accented_index_letter() + ACCENTS[t.text[1:]])  # x_{\hat i}: x_ihat
                    self.i += 1 if self.peek().kind == "letter" else 3
                elif t.text == "^" and parts and self._star_after_caret():
                    parts.append("star")  # x_{i^*}, x_{i^\star}: x_istar
                    self.i += 1 if self.peek().text != "{" else 3
                elif t.kind == "end":
                    raise BadInput("LaTeX: an unclosed subscript")
                else:
                    raise BadInput(f"LaTeX: a subscript that is part of a name takes letters and digits, got "
                                   f"{t.text!r} (write x_{{t1}} rather than x_{{t+1}})")
            self.next()
            text = "".join(parts)
        elif t.kind in ("letter", "num"):
            self.next()
            text = t.text[0] if t.kind == "num" else t.text
            if t.kind == "num" and len(t.text) > 1:  # x_12 in TeX is x_1 followed by 2
                raise BadInput("LaTeX: write x_{12} (braces) for a subscript of several digits")
        elif t.kind == "cmd" and t.text[1:] in GREEK:
            self.next()
            text = GREEK[t.text[1:]]
        else:
            raise BadInput(f"LaTeX: cannot read the subscript {t.text!r}")
        if not text:
            raise BadInput("LaTeX: an empty subscript")
        return text

    def _accented_index_letter(self) -> str:
        """The letter an accent inside a name's subscript puts its mark on (``\\hat i``, ``\\hat{i}``), the cursor
        after the accent; '' where no single letter follows."""
        if self.peek().kind == "letter" and len(self.peek().text) == 1:
            return self.peek().text
        if self.at("{") and self.peek(1).kind == "letter" and len(self.peek(1).text) == 1 and self.peek(2).text == "}":
            return self.peek(1).text
        return ""

    def _star_after_caret(self) -> bool:
        """Is the token at the cursor (after a ``^`` inside a name's subscript) a star — ``*``, ``\\star``,
        ``\\ast``, or one of them braced?"""
        stars = ("*", "\\star", "\\ast")
        return self.at(*stars) or self.at("{") and self.peek(1).text in stars and self.peek(2).text == "}"

    def _letter_name(self, base: str) -> ast.expr:
        name = base
        if self.at("_"):
            name = f"{base}_{self._subscript_text()}"
        if name == "e":
            return _name("e")
        return _name(name)

    def _maybe_call(self, name: str) -> ast.expr:
        """A name followed by ``(`` is a call only for a known function (``f(x)`` with f declared)."""
        called = self.at("(") or (self.at("\\left") and self.peek(1).text == "(")
        if name in self.functions and called:
            return _call(name, *self._paren_args())
        if name in FUNCTION_LETTERS and called and self.functions_known:  # f(x) is never silently the product f*x
            raise BadInput(f"LaTeX: {name}(…) reads as a function: declare it (assume '{name}: function') or "
                           f"define it ({name}(x) := …); for a product write {name} \\cdot (…)")
        return _name(name)

    def _paren_args(self) -> list[ast.expr]:
        left = self.at("\\left")
        if left:
            self.next()
        close = {"(": ")", "[": "]", "\\{": "\\}", "{": "}"}.get(self.peek().text)
        if close is None:
            raise BadInput("LaTeX: expected ( after a function name")
        self.next()
        args = [self._one_argument()]
        while self.at(",", ";"):  # h(x; w): data, then parameters — one more argument
            self.semicolon = self.semicolon or self.at(";")
            self.next()
            args.append(self._one_argument())
        if left:
            self.expect("\\right")
        self.expect(close)
        return args

    def _one_argument(self) -> ast.expr:
        """One argument of a function applied (the LaTeX reader of a paper also reads a tuple there)."""
        return self.expr()

    def _argument(self) -> list[ast.expr]:
        """The argument of \\log, \\exp, …: parenthesised (several, comma-separated), a group, or the next
        factor (``\\log x^2`` is log(x²))."""
        if self.at("(", "[") or (self.at("\\left") and self.peek(1).text in ("(", "[", "\\{")):
            return self._paren_args()
        if self.at("\\{"):
            return self._paren_args()
        if self.at("{"):
            self.next()
            inner = self.expr()
            self.expect("}")
            return [inner]
        return [self.postfix()]

    def atom(self) -> ast.expr:
        t = self.peek()
        if t.kind == "end":
            raise BadInput("LaTeX: the expression ends too early")
        if t.kind == "num":
            self.next()
            return self._number(t.text)
        if t.kind == "letter":
            self.next()
            if t.text == "E" and (self.at("[") or (self.at("\\left") and self.peek(1).text == "[")) \
                    and "E" not in self.functions:
                return _call("E", self._bracketed())
            node = self._letter_name(t.text)
            return self._maybe_call(node.id)
        if t.kind == "sym":
            if t.text in "([":
                self.next()
                inner = self.expr()
                self.expect(")" if t.text == "(" else "]")
                return inner
            if t.text == "{":
                self.next()
                inner = self.expr()
                if self.at("\\choose"):  # {n \choose k}: plain TeX's binomial coefficient
                    self.next()
                    k = self.expr()
                    self.expect("}")
                    return _call("binomial", inner, k)
                if self.at("\\over"):  # {a + b \over c}: plain TeX's fraction, the whole group above the bar
                    self.next()
                    den = self.expr()
                    self.expect("}")
                    return _bin(inner, ast.Div(), den)
                self.expect("}")
                return inner
            if t.text == "|":
                self.next()
                self.in_abs += 1
                try:
                    inner = self.expr()
                finally:
                    self.in_abs -= 1
                self.expect("|")
                return _call("Abs", inner)
            raise BadInput(f"LaTeX: unexpected {t.text!r}")
        return self.command()

    def _bracketed(self) -> ast.expr:
        left = self.at("\\left")
        if left:
            self.next()
        self.expect("[")
        inner = self.expr()
        if left:
            self.expect("\\right")
        self.expect("]")
        return inner

    def _braced_letters(self) -> str:
        self.expect("{")
        parts = []
        while not self.at("}"):
            t = self.next()
            if t.kind in ("letter", "num"):
                parts.append(t.text)
            elif t.kind == "cmd" and t.text[1:] in GREEK:
                parts.append(GREEK[t.text[1:]])
            elif t.kind == "end":
                raise BadInput("LaTeX: an unclosed {")
            else:
                raise BadInput(f"LaTeX: expected letters in braces, got {t.text!r}")
        self.next()
        return "".join(parts)

    def command(self) -> ast.expr:
        t = self.next()
        c = t.text
        name = c[1:]
        if c in STOPS:
            raise BadInput("LaTeX: prose (\\text, \\quad) in the middle of an expression")
        if name in GREEK:
            if name == "sigma" and (self.at("(") or (self.at("\\left") and self.peek(1).text == "(")):
                return _call("sigmoid", *self._paren_args())
            base = GREEK[name]
            node = _name(f"{base}_{self._subscript_text()}") if self.at("_") else _name(base)
            return self._maybe_call(node.id)
        if c == "\\pi":
            return _name("pi")
        if c == "\\infty":
            raise BadInput("∞ is not supported (infinite sums and limits): check a partial sum with a symbolic n")
        if c in ("\\frac", "\\dfrac", "\\tfrac", "\\cfrac"):
            return self._frac()
        if c == "\\sqrt":
            if self.at("["):
                self.next()
                n = self.expr()
                self.expect("]")
                return _bin(self._group(), ast.Pow(), _bin(_num(1), ast.Div(), n))
            return _call("sqrt", self._group())
        if c in ("\\sum", "\\prod"):
            return self._big(c)
        if name in FUNCS:
            return self._function(FUNCS[name])
        if c in ("\\operatorname", "\\mathrm", "\\text", "\\textrm", "\\mathop"):
            word = self._braced_letters()
            if word in OPERATORS and (word != "E" or self.at("[", "(", "\\left", "_")):
                if OPERATORS[word] == "E":
                    return self._expectation()
                return self._function(OPERATORS[word])
            if word in ("e",):
                return _name("e")
            if word == "d":
                raise BadInput("LaTeX: a differential d outside \\frac{d}{dx} (integrals are not supported)")
            return self._maybe_call(word)
        if c in ("\\mathbb", "\\mathbf", "\\mathds", "\\mathbbm") and self.at("{") and self.peek(1).text in ("E", "1", "I") \
                and self.peek(2).text == "}":
            self.i += 1
            which = self.next().text
            self.next()
            if which == "E":
                return self._expectation()
            return self._indicator()
        if name in FONTS or name == "mathcal" or name == "mathbb" or name == "mathscr" or name == "mathfrak":
            word = self._braced_letters() if self.at("{") else self._single_letter()
            if self.at("_"):
                word = f"{word}_{self._subscript_text()}"
            return self._maybe_call(word)
        if name in ACCENTS:
            word = self._braced_letters() if self.at("{") else self._single_letter()
            word += ACCENTS[name]
            if self.at("_"):
                word = f"{word}_{self._subscript_text()}"
            return self._maybe_call(word)
        if c == "\\left":
            return self._left()
        if c in ("\\|", "\\lVert", "\\Vert"):
            self.in_norm += 1
            try:
                inner = self.expr()
            finally:
                self.in_norm -= 1
            if not self.at("\\|", "\\rVert", "\\Vert"):
                raise BadInput("LaTeX: an unclosed \\|")
            self.next()
            return _call("norm", inner)
        if c in ("\\lvert", "\\vert"):
            inner = self.expr()
            self.expect("\\rvert" if c == "\\lvert" else "\\vert")
            return _call("Abs", inner)
        if c == "\\lfloor":
            inner = self.expr()
            self.expect("\\rfloor")
            return _call("floor", inner)
        if c == "\\lceil":
            inner = self.expr()
            self.expect("\\rceil")
            return _call("ceiling", inner)
        if c == "\\binom":
            n = self._group()
            k = self._group()
            return _call("binomial", n, k)
        if c == "\\nabla":
            if not self.at("_"):
                raise BadInput("LaTeX: write \\nabla_w f (the variable as a subscript)")
            w = self._subscript_text()
            return _call("grad", self.term(), _name(w))
        if c == "\\partial":
            raise BadInput("LaTeX: write \\frac{\\partial f}{\\partial x} (or \\frac{\\partial}{\\partial x} f)")
        if c in ("\\cdots", "\\ldots", "\\dots", "\\vdots", "\\ddots"):
            raise BadInput("ellipses cannot be checked: write the sum with \\sum_{k=1}^{n}")
        if c in ("\\int", "\\iint", "\\oint"):
            raise BadInput("integrals are not supported: write the closed form (or \\mathbb{E}[…] over a declared "
                           "random variable)")
        if c in ("\\lim", "\\limsup", "\\liminf", "\\sup", "\\inf", "\\arg", "\\argmin", "\\argmax"):
            raise BadInput(f"LaTeX {c} is not supported (limits and optimisation)")
        if c == "\\begin":
            raise BadInput("LaTeX: environments inside a statement (matrices, cases) are not supported")
        if c in ("\\{",):
            inner = self.expr()
            self.expect("\\}")
            return inner
        from .teach import closest
        known = [*GREEK, *FUNCS, "frac", "sqrt", "sum", "prod", "left", "right", "cdot", "times", "le", "ge",
                 "leq", "geq", "operatorname", "mathbb", "mathbf", "nabla", "partial", "binom", "lfloor", "lceil"]
        near = closest(name, known)
        raise BadInput(f"unknown LaTeX command {c}" + (f" (closest: {', '.join(chr(92) + k for k in near)})"
                                                         if near else ""))

    def _single_letter(self) -> str:
        t = self.next()
        if t.kind == "letter":
            return t.text
        if t.kind == "cmd" and t.text[1:] in GREEK:
            return GREEK[t.text[1:]]
        raise BadInput(f"LaTeX: expected a letter, got {t.text!r}")

    def _group(self) -> ast.expr:
        if not self.at("{"):
            return self.group_or_token()
        self.next()
        inner = self.expr()
        self.expect("}")
        return inner

    def _function(self, fname: str) -> ast.expr:
        if fname == "log" and self.at("_"):
            self.next()
            base = self.group_or_token()
            (arg,) = self._argument()
            return _call("log", arg, base)
        if self.at("^"):  # \\cos^2 x is (\\cos x)^2; \\sin^{-1} x (the inverse) is not read
            self.next()
            first = self.peek(1).text if self.at("{") else self.peek().text
            if fname == "log" and first in _ITERATED_LOG:
                raise BadInput(f"LaTeX: \\log^{first}… is an iterated logarithm (or an inverse), not read")
            power = self.group_or_token()
            if fname == "log" and _log_power(power):  # \log^{3/4} n, \log^{a} n: (\log n)^{3/4}, (\log n)^a
                return _bin(_call(fname, *self._argument()), ast.Pow(), power)
            if not (isinstance(power, ast.Constant) and isinstance(power.value, int) and power.value >= 1):
                raise BadInput(f"LaTeX: \\{fname}^{{…}} is read only with a positive whole power (\\{fname}^2 x = "
                               f"(\\{fname} x)^2); write (\\{fname} x)^{{…}} or the inverse function by name")
            return _bin(_call(fname, *self._argument()), ast.Pow(), power)
        args = self._argument()
        return _call(fname, *args)

    def _expectation(self) -> ast.expr:
        if self.at("_"):  # \mathbb{E}_{x \sim p}: the distribution comes from the assumptions
            self.next()
            if self.at("{"):
                _skip_tokens(self)
            else:
                self.next()
        if self.at("[") or (self.at("\\left") and self.peek(1).text == "["):
            return _call("E", self._bracketed())
        if self.at("(") or (self.at("\\left") and self.peek(1).text == "("):
            args = self._paren_args()
            return _call("E", *args)
        if self.at("{"):
            return _call("E", self._group())
        raise BadInput("LaTeX: write \\mathbb{E}[…] with brackets")

    def _indicator(self) -> ast.expr:
        if self.at("_"):
            self.next()
            self.expect("{")
            cond = self._condition("}")
            return _call("indicator", cond)
        left = self.at("\\left")
        if left:
            self.next()
        opener = self.next().text
        close = {"\\{": "\\}", "[": "]", "(": ")", "{": "}"}.get(opener)
        if close is None:
            raise BadInput("LaTeX: write \\mathbb{1}\\{x > 0\\} for an indicator")
        cond = self._condition(close, left)
        return _call("indicator", cond)

    def _condition(self, close: str, left: bool = False) -> ast.expr:
        terms, ops = self.relation()
        if not ops or ":=" in ops:
            raise BadInput("LaTeX: an indicator needs a condition such as x > 0")
        if left:
            self.expect("\\right")
        self.expect(close)
        return _compare(terms, ops)

    def _left(self) -> ast.expr:
        opener = self.next().text
        pairs = {"(": ")", "[": "]", "\\{": "\\}", "|": "|", "\\|": "\\|", "\\lVert": "\\rVert", "\\lvert": "\\rvert",
                 "\\langle": "\\rangle", ".": None, "\\lfloor": "\\rfloor", "\\lceil": "\\rceil"}
        if opener not in pairs or opener in (".", "\\langle"):
            raise BadInput(f"LaTeX: \\left{opener} is not read")
        inner = self.expr()
        self.expect("\\right")
        closer = self.next().text
        if closer != pairs[opener]:
            raise BadInput(f"LaTeX: \\left{opener} closed by \\right{closer}")
        if opener in ("|", "\\lvert"):
            return _call("Abs", inner)
        if opener in ("\\|", "\\lVert"):
            return _call("norm", inner)
        if opener == "\\lfloor":
            return _call("floor", inner)
        if opener == "\\lceil":
            return _call("ceiling", inner)
        return inner

    def _big(self, c: str) -> ast.expr:
        fname = "Sum" if c == "\\sum" else "Product"
        if not self.at("_"):
            raise BadInput(f"LaTeX: give the bounds, e.g. {c}_{{k=1}}^{{n}}")
        self.next()
        self.expect("{")
        index = self.next()
        if index.kind != "letter" and not (index.kind == "cmd" and index.text[1:] in GREEK):
            raise BadInput(f"LaTeX: {c}_{{k=a}}: the index is a letter")
        k = index.text if index.kind == "letter" else GREEK[index.text[1:]]
        if self.at("_"):
            k = f"{k}_{self._subscript_text()}"
        if not self.at("="):
            raise BadInput(f"LaTeX: give the bounds, e.g. {c}_{{k=1}}^{{n}}")
        self.next()
        lo = self.expr()
        self.expect("}")
        if not self.at("^"):
            raise BadInput(f"LaTeX: give the upper bound, e.g. {c}_{{k=1}}^{{n}}")
        self.next()
        hi = self.group_or_token()
        body = self.term()
        return ast.Call(func=_name(fname), args=[body, ast.Tuple(elts=[_name(k), lo, hi], ctx=ast.Load())],
                        keywords=[])

    def _frac(self) -> ast.expr:
        num = self._raw_group()
        den = self._raw_group()
        d = _derivative(num, den, self.functions)
        if d is not None:
            expr_tokens, variables = d
            if expr_tokens:
                operand = _sub_parse(expr_tokens, self.functions)
            else:
                operand = self.term()
            return _call("diff", operand, *variables)
        return _bin(_sub_parse(num, self.functions), ast.Div(), _sub_parse(den, self.functions))

    def _raw_group(self) -> list[Token]:
        """The tokens of the next ``{…}`` (or one token)."""
        if not self.at("{"):
            t = self.next()
            if t.kind == "end":
                raise BadInput("LaTeX: \\frac needs two arguments")
            if t.kind == "num" and len(t.text) > 1 and t.text.isdigit():
                # \tfrac12, \frac1n: an unbraced argument is one TeX token, and a digit is one token (not 12/…)
                self.toks.insert(self.i, Token("num", t.text[1:], t.pos + 1))
                return [Token("num", t.text[0], t.pos)]
            return [t]
        self.next()
        depth, out = 1, []
        while True:
            t = self.next()
            if t.kind == "end":
                raise BadInput("LaTeX: an unclosed {")
            if t.text == "{":
                depth += 1
            elif t.text == "}":
                depth -= 1
                if depth == 0:
                    return out
            out.append(t)


#: the first token of a logarithm's superscript that makes it no power of the logarithm: ``\\log^{(k)} n``, ``\\log^* n``,
#: ``\\log^{\\circ k}`` (iterated), ``\\log^{-1}`` (the inverse, exp, or 1/log?)
_ITERATED_LOG = frozenset({"(", "-", "*", "\\ast", "\\star", "\\circ", "\\left", "\\prime", "'"})


def _log_power(power: ast.expr) -> bool:
    """Is ``power`` in ``\\log^{power} x`` read as a power of the logarithm, (log x)^power: a positive whole or
    broken number or an expression of names without a minus sign in front (``\\log^{3/4} n``, ``\\log^{a} n``,
    ``\\log^{1+\\epsilon} n``)?  :data:`_ITERATED_LOG` is refused before."""
    if isinstance(power, ast.Constant):
        return isinstance(power.value, (int, float)) and power.value > 0
    return isinstance(power, (ast.Name, ast.Subscript, ast.BinOp)) and \
        not any(isinstance(n, ast.UnaryOp) for n in ast.walk(power))


def _skip_tokens(p: LatexParser) -> None:
    p.expect("{")
    depth = 1
    while depth:
        t = p.next()
        if t.kind == "end":
            raise BadInput("LaTeX: an unclosed {")
        depth += t.text == "{"
        depth -= t.text == "}"


def _is_d(t: Token) -> bool:
    return t.text in ("d", "\\partial") or t.text == "\\mathrm_d"


def _strip_mathrm_d(tokens: list[Token]) -> list[Token]:
    """\\mathrm{d} -> one 'd' token."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t.text in ("\\mathrm", "\\text", "\\operatorname") and i + 3 < len(tokens) + 1 and \
                [x.text for x in tokens[i + 1:i + 4]] == ["{", "d", "}"]:
            out.append(Token("letter", "d", t.pos))
            i += 4
            continue
        out.append(t)
        i += 1
    return out


def _braced_orders(tokens: list[Token]) -> list[Token]:
    """``^{2}`` as ``^2`` and an empty ``^{}`` dropped, in a derivative's numerator or denominator
    (``\\frac{\\partial^{2} f}{\\partial x^{2}}``; a macro with an optional order, diffcoeff's ``\\diffp``, writes
    ``\\partial^{} f`` for the first)."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        texts = [x.text for x in tokens[i + 1:i + 4]]
        if t.text == "^" and texts[:2] == ["{", "}"]:
            i += 3
            continue
        if t.text == "^" and len(texts) == 3 and texts[0] == "{" and texts[2] == "}" and tokens[i + 2].kind == "num":
            out += [t, tokens[i + 2]]
            i += 4
            continue
        out.append(t)
        i += 1
    return out


def _derivative(num: list[Token], den: list[Token], functions) -> tuple[list[Token], list[ast.expr]] | None:
    """``\\frac{d}{dx}`` / ``\\frac{d f}{dx}`` / ``\\frac{\\partial^2 f}{\\partial x \\partial y}`` ->
    (the function's tokens, possibly empty, and the variables), or None for an ordinary fraction."""
    num, den = _braced_orders(_strip_mathrm_d(num)), _braced_orders(_strip_mathrm_d(den))
    if not num or not _is_d(num[0]) or not den or not _is_d(den[0]):
        return None
    order, rest = 1, num[1:]
    if rest and rest[0].text == "^":
        if len(rest) < 2 or rest[1].kind != "num":
            return None
        order, rest = int(rest[1].text), rest[2:]
    variables: list[ast.expr] = []
    i = 0
    while i < len(den):
        if not _is_d(den[i]) or i + 1 >= len(den):
            return None
        v = den[i + 1]
        if v.kind == "letter":
            name = v.text
        elif v.kind == "cmd" and v.text[1:] in GREEK:
            name = GREEK[v.text[1:]]
        else:
            return None
        i += 2
        if i < len(den) and den[i].text == "_":
            sub = LatexParser([*den[i:], Token("end", "", 0)], functions)
            name = f"{name}_{sub._subscript_text()}"
            i += sub.i
        power = 1
        if i < len(den) and den[i].text == "^":
            if i + 1 >= len(den) or den[i + 1].kind != "num":
                return None
            power = int(den[i + 1].text)
            i += 2
        variables += [_name(name)] * power
    if len(variables) != order:
        raise BadInput(f"LaTeX: derivative of order {order} over {len(variables)} variable(s)")
    return rest, variables


def _sub_parse(tokens: list[Token], functions) -> ast.expr:
    p = LatexParser([*tokens, Token("end", "", tokens[-1].pos if tokens else 0)], functions)
    node = p.expr()
    if p.peek().kind != "end":
        raise BadInput(f"LaTeX: cannot read {p.peek().text!r} here")
    return node


def strip_math(text: str) -> str:
    """A pasted display: ``$…$``, ``$$…$$``, ``\\[…\\]``, ``\\(…\\)`` or one equation environment around it."""
    t = text.strip()
    for a, b in (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")):
        if t.startswith(a) and t.endswith(b) and len(t) >= len(a) + len(b):
            t = t[len(a):len(t) - len(b)].strip()
            break
    m = re.match(r"^\\begin\{(equation|align|gather|multline)\*?\}(.*)\\end\{\1\*?\}$", t, re.S)
    if m:
        t = m.group(2).strip()
    return t


def _truncate_prose(tokens: list[Token]) -> list[Token]:
    """Drop what follows \\quad / \\text (prose such as "for x > 0") and a trailing , or ."""
    out = []
    for t in tokens:
        if t.text in STOPS:
            break
        out.append(t)
    while out and out[-1].text in (",", ".", ";") and out[-1].kind == "sym":
        out.pop()
    return [*out, Token("end", "", tokens[-1].pos if tokens else 0)]


def parse_relation_tokens(tokens: list[Token], functions: Iterable[str] = (), positions: list | None = None
                          ) -> tuple[list[ast.expr], list[str]]:
    """Terms and relations of one statement; ``positions`` (if given) receives each relation token's ``pos``."""
    p = LatexParser(_truncate_prose([t for t in tokens if t.kind != "end"]), functions)
    terms, ops = p.relation()
    if positions is not None:
        positions.extend(t.pos for t in p.op_tokens)
    if p.peek().kind != "end":
        t = p.peek()
        if t.text == "\\\\":
            raise BadInput("LaTeX: one line only here (\\\\ splits lines; use --tex for a file)")
        if t.text == ",":
            raise BadInput("LaTeX: a comma inside a statement (one statement at a time)")
        raise BadInput(f"LaTeX: cannot read {t.text!r} here")
    return terms, ops


COMPARE = {"==": ast.Eq, "<=": ast.LtE, ">=": ast.GtE, "<": ast.Lt, ">": ast.Gt}


def _compare(terms: list[ast.expr], ops: list[str]) -> ast.Compare:
    """``a <= b < c`` from its terms and relation words."""
    return ast.Compare(left=terms[0], ops=[COMPARE[o]() for o in ops], comparators=terms[1:])


def to_statement(terms: list[ast.expr], ops: list[str], text: str, line: int | None = None,
                 functions: Iterable[str] | None = None) -> Statement:
    if not ops:
        raise BadInput("a statement needs a relation: =, \\le, \\ge, <, >")
    if ":=" in ops:
        raise BadInput("a definition (:=) is not a statement: in a --tex file it defines the name for later "
                       "equations; on the command line use --define")
    node = _compare(terms, ops)
    tree = ast.Expression(body=node)
    validate(tree, functions)
    return statement_from_tree(text, node, source="latex", line=line)


def parse_latex_statement(text: str, functions: Iterable[str] = ()) -> Statement:
    """One LaTeX statement (``--latex``): a relation or a chain, read without eval."""
    if not isinstance(text, str):
        raise BadInput("input must be text")
    if len(text) > MAX_LATEX_CHARS:
        raise BadInput(f"input too long ({len(text)} characters; at most {MAX_LATEX_CHARS})")
    refuse_dangerous(text)
    body = strip_math(text)
    if not body:
        raise BadInput("empty input")
    tokens = tokenize(body)
    terms, ops = parse_relation_tokens(tokens, functions)
    return to_statement(terms, ops, " ".join(text.split()), functions=None if functions is None else set(functions))


def parse_latex_expression(text: str, functions: Iterable[str] = ()) -> ast.expr:
    refuse_dangerous(text)
    terms, ops = parse_relation_tokens(tokenize(strip_math(text)), functions)
    if ops:
        raise BadInput("expected an expression, got a relation")
    validate(ast.Expression(body=terms[0]), set(functions))
    return terms[0]


__all__ = ["parse_latex_statement", "parse_latex_expression", "tokenize", "refuse_dangerous", "unparse"]
