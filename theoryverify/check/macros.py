"""A paper's own macros, collected from its source and expanded in its displays: bounded and safe.

:class:`MacroTable` reads definitions as text (``\\newcommand``, ``\\renewcommand``, ``\\providecommand``,
``\\def`` and friends, ``\\let``, ``\\DeclareMathOperator``, ``\\DeclarePairedDelimiter`` (and mathtools' ``X`` and
``XPP`` forms, whose body may define a name for its own use: ``\\renewcommand\\given{\\vert}``), xparse's
``\\NewDocumentCommand`` and kin with ``m``/``o`` signatures) and expands them
the way TeX would for the simple macros papers define: arguments are ``{…}`` groups or single tokens,
an optional first argument ``[…]`` when the macro has a default, simple delimited parameter text for
``\\def``.  Nothing is ever run, evaluated or read from disk: a body that uses a hostile or unsupported
construct (``\\csname``, ``\\write``, ``\\input``, ``\\catcode``, conditionals …) is recorded with
``unsafe`` set and using it raises.  Expansion has a budget (steps, output size, nesting depth) so a
recursive or exponential definition fails fast with :class:`ExpansionError`.

``\\@ifstar{A}{B}`` (and ``\\@ifnextchar X{A}{B}``) choose by the next token, ``@`` being a letter in names
between ``\\makeatletter`` and ``\\makeatother`` and in a ``.sty``; ``\\ifthenelse`` is read where its test is
``\\equal{…}{…}`` or ``\\isempty{…}`` (possibly under ``\\NOT``) on arguments without macros.

Not supported: other TeX conditionals and ``\\csname`` tricks (such macros are refused on use), ``\\edef``'s
expansion at definition time (treated as ``\\def``), ``#{`` parameter text,
``\\newenvironment``, catcode changes, scoping (every definition here is global; the tex reader gives a definition
in a paper's body its place and group, :mod:`.tex.scopes`), and LaTeX's own built-ins
(``\\providecommand`` of a name LaTeX already defines still defines it here).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace

from .parser import BadInput

TOKEN_RE = re.compile(r"\\[A-Za-z]+|\\.|#[1-9#]?|\s+|.", re.S)
CS_RE = re.compile(r"\\[A-Za-z]+|\\.", re.S)
BRACE_RE = re.compile(r"\\.|[{}\]]", re.S)
WS_RE = re.compile(r"\s*")
COMMENT_RE = re.compile(r"((?:^|[^\\])(?:\\\\)*)%[^\n]*", re.M)
LINE_END_RE = re.compile("(?<!\x01)\n")  # a line end not eaten by a comment
DOCUMENT_RE = re.compile(r"\\begin\s*\{document\}")
DEFINER_RE = re.compile(r"\\(newcommand|renewcommand|providecommand|DeclareRobustCommand|def|gdef|edef|xdef|let|"
                        r"DeclareMathOperator|DeclarePairedDelimiterXPP|DeclarePairedDelimiterX|DeclarePairedDelimiter|input|include|"
                        r"catcode|DeclareDocumentCommand|NewDocumentCommand|RenewDocumentCommand|"
                        r"ProvideDocumentCommand)(?![A-Za-z])")
UNSAFE_RE = re.compile(
    r"\\(csname|endcsname|expandafter|noexpand|write|immediate|openout|openin|closeout|closein|read|readline|"
    r"input|include|includeonly|InputIfFileExists|catcode|makeatletter|makeatother|directlua|luaexec|latelua|"
    r"scantokens|special|ShellEscape|pdfshellescape|afterassignment|aftergroup|futurelet|uppercase|lowercase|"
    r"string|detokenize|unexpanded|loop|newread|newwrite|jobname|everypar|everymath|output|shipout|typeout|"
    r"message|errmessage|usepackage|RequirePackage|documentclass|"
    r"if|ifx|ifnum|ifdim|ifodd|ifcase|ifmmode|ifvmode|ifhmode|ifinner|ifdefined|ifcsname|ifcat|ifvoid|iftrue|"
    r"iffalse|ifeof|else|fi|or)(?![A-Za-z])|\\@[A-Za-z]|\\QatQ(?!(?:ifstar|ifnextchar)(?![A-Za-z]))[A-Za-z]+")
#: ``@`` in a control sequence's name where it is a letter (between ``\\makeatletter`` and ``\\makeatother``, in a
#: ``.sty``): written as these letters, so that ``\\norm@star`` is one name (LaTeX's own ``\\@…`` internals other than
#: ``\\@ifstar`` and ``\\@ifnextchar`` stay refused)
AT = "QatQ"
AT_NAME = re.compile(r"\\([A-Za-z@]*@[A-Za-z@]*)")
AT_REGION = re.compile(r"\\makeatletter(?![A-Za-z])(.*?)(?:\\makeatother(?![A-Za-z])|\Z)", re.S)
DROPPED = frozenset({"\\xspace", "\\@", "\\relax"})
#: LaTeX's own wrappers that only place or size their content, unwrapped here: ``\ensuremath{x}`` is x,
#: ``\raisebox{0.2ex}{$x$}`` is x, ``\mathpalette\f{x}`` calls \f with the style and x (a paper's
#: ``\transpose``: ``^{\mathpalette\raiseT{\intercal}}`` with ``\raiseT[2]{\raisebox{…}{$#1#2$}}``)
BOXES = frozenset({"\\ensuremath", "\\raisebox", "\\mathpalette"})
IGNORED = {"input": "not read: macros defined in other files are unknown", "include": "not read: macros "
           "defined in other files are unknown", "catcode": "ignored"}
#: xparse's definers (``\\NewDocumentCommand\\E{o m o}{…}``): signatures of ``m`` (an argument) and ``o`` (an optional
#: ``[…]``) are read; ``\\IfValueTF``/``\\IfValueT``/``\\IfNoValueTF``/``\\IfNoValueT`` in the body choose by whether an
#: optional argument was given
XPARSE = {"DeclareDocumentCommand": "newcommand", "NewDocumentCommand": "newcommand",
          "RenewDocumentCommand": "renewcommand", "ProvideDocumentCommand": "providecommand"}
NO_VALUE = "\\theoryverify@novalue"  # an absent optional argument (a token no text can write: it holds an @)
VALUE_TESTS = {"\\IfValueTF": (True, 2), "\\IfValueT": (True, 1), "\\IfNoValueTF": (False, 2),
               "\\IfNoValueT": (False, 1)}
#: a redefinition of \\left or \\right that ends in the primitive (``\\let\\originalright\\right``,
#: ``\\renewcommand{\\right}{\\aftergroup\\egroup\\originalright}``: a spacing fix) is read as the primitive
DELIMITER_PRIMITIVES = ("\\left", "\\right")
#: an operator's name with an accent or a script (``\\overline{Reg}``, ``TC^{\\ast}``): its letters are not its name
DECORATED = re.compile(r"[_^]|\\(?:overline|underline|bar|hat|tilde|widehat|widetilde|check|breve|vec|dot|ddot|"
                       r"overrightarrow|overleftarrow|prime)(?![A-Za-z])")
#: definers a macro's body may use for the rest of its own body (``\\renewcommand\\given{\\vert}``)
LOCAL_DEFINERS = frozenset({"\\renewcommand", "\\newcommand", "\\providecommand", "\\def", "\\gdef"})
#: bounds on definitions made through a wrapper macro (``\\newcommand{\\newmacro}[2]{\\newcommand{#1}{#2}}``)
MAX_WRAPPER_LEVEL, MAX_WRAPPER_CALLS, MAX_WRAPPER_CHARS = 4, 5000, 20000
KINDS = {"newcommand": "newcommand", "DeclareRobustCommand": "newcommand", "renewcommand": "renewcommand",
         "providecommand": "providecommand", "def": "def", "gdef": "def", "edef": "def", "xdef": "def"}


class ExpansionError(BadInput):
    """Over budget, runaway recursion, or an unsupported/unsafe macro used."""


@dataclass(frozen=True)
class Macro:
    """One definition: ``body`` uses ``#1``..``#9``; ``delimited`` is a ``\\def``'s parameter text when it
    is more than ``#1#2…``; ``unsafe`` is why using it is refused (``None`` when it may be used).  ``kind``
    is newcommand, renewcommand, providecommand, def, let, operator, operator* or paireddelimiter."""
    name: str
    nparams: int
    default: str | None
    body: str
    kind: str
    origin: str
    delimited: str | None = None
    unsafe: str | None = None
    xparse: str | None = None  # an xparse signature of m and o ("omo"), or None


@dataclass(frozen=True)
class Note:
    """Something the collector saw and did not take, for the report."""
    origin: str
    message: str


def strip_comments(text: str, mark: str = "") -> str:
    """Drop ``%`` comments (not ``\\%``), keeping every newline so line numbers stay right; ``mark``
    is left where a comment was (it also ate the line end, which :func:`flatten` honours)."""
    return COMMENT_RE.sub(lambda m: m.group(1) + mark, text) if "%" in text else text


def read_group(s: str, i: int, bracket: bool = False) -> tuple[str, int] | None:
    """The content of the balanced ``{…}`` (``[…]`` with ``bracket``: a ``]`` inside braces does not close
    it) at ``s[i]``, and the index after it; ``None`` when there is none or it is unbalanced."""
    if i >= len(s) or s[i] != "{[["[bracket]:
        return None
    depth = 0
    for m in BRACE_RE.finditer(s, i + 1):
        c = m.group()
        if (c == "}" or (c == "]" and bracket)) and depth == 0:
            return (s[i + 1:m.start()], m.end()) if (c == "]") == bracket else None
        depth += (c == "{") - (c == "}")
    return None


def skip_ws(s: str, i: int) -> int:
    return WS_RE.match(s, i).end()


def read_name(s: str, i: int) -> tuple[str, int] | None:
    """A control sequence at ``s[i]``, bare (``\\name``) or braced (``{\\name}``)."""
    i = skip_ws(s, i)
    g = read_group(s, i)
    if g is not None:
        inner = g[0].strip()
        m = CS_RE.fullmatch(inner)
        return (inner, g[1]) if m else None
    m = CS_RE.match(s, i)
    return (m.group(), m.end()) if m else None


def at_letters(text: str, whole: bool = False) -> str:
    """``text`` with the ``@`` of control-sequence names written :data:`AT` inside ``\\makeatletter`` …
    ``\\makeatother`` (everywhere with ``whole``, a package file); line structure kept.  ``\\@`` alone (a space
    factor) stays."""
    def names(chunk: str) -> str:
        return AT_NAME.sub(lambda m: "\\" + m.group(1).replace("@", AT) if re.search(r"[A-Za-z]", m.group(1))
                           else m.group(0), chunk)
    if whole:
        return names(text)
    return AT_REGION.sub(lambda m: names(m.group(0)), text)


def shown(text: str) -> str:
    """A name or message as the paper writes it (``\\norm@star``, not its internal spelling)."""
    return text.replace(AT, "@")


def tokens(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


def flatten(body: str) -> str:
    """A body on one line (comments gone), so expansion never shifts the display's line numbers."""
    body = re.sub(EATEN + r"\n?[ \t]*", "", strip_comments(body))
    return re.sub(r"\s*\n\s*", " ", body)


def preamble_and_body(text: str) -> tuple[str, str, int]:
    """Split at ``\\begin{document}``: (preamble, body, line where body starts); none: ``("", text, 1)``."""
    m = DOCUMENT_RE.search(strip_comments(text))
    if not m:
        return "", text, 1
    return text[:m.start()], text[m.end():], text.count("\n", 0, m.end()) + 1


EATEN = "\x01"  # where collect() removed a comment
END = object()  # marks the end of a body on the pending stack (depth bookkeeping)


class MacroTable:
    """The macros of one paper, in definition order; see the module docstring."""

    def __init__(self, max_steps: int = 20000, max_chars: int = 200_000, max_depth: int = 64):
        self.max_steps, self.max_chars, self.max_depth = max_steps, max_chars, max_depth
        self._macros: dict[str, Macro] = {}
        #: \DeclarePairedDelimiter: name -> (left, right); its X and XPP forms: (before, left, right, after, body)
        self._paired: dict[str, tuple[str, ...]] = {}
        self._primitive: set[str] = set()  # \let to a non-macro: emitted, never re-expanded
        self._compiled: dict[str, tuple[list[str], list[str] | None, list | None]] = {}
        self._wrappers: set[str] = set()  # macros whose body defines (``\\newmacro``): their calls are collected
        self._wrapper_re: re.Pattern | None = None
        self._wrapper_calls = 0
        #: the style files (a pattern on the file name) whose refused macros are layout: left as written by
        #: ``expand(…, keep_refused=True)`` (algorithmic.sty's ``\\`` is still a row break in an align)
        self.layout_origins: re.Pattern | None = None
        #: where :meth:`collect` records each top-level definition it reads, when a list: (start, end, text) in the
        #: collected text (comments stripped; line structure kept), for definitions that hold from a position on
        self.spans: list[tuple[int, int, str]] | None = None

    def copy(self) -> "MacroTable":
        """A table with the same definitions, which later collections do not share (a definition's scope)."""
        t = MacroTable(self.max_steps, self.max_chars, self.max_depth)
        t._macros, t._paired, t._primitive = dict(self._macros), dict(self._paired), set(self._primitive)
        t._compiled, t._wrappers, t._wrapper_re = dict(self._compiled), set(self._wrappers), self._wrapper_re
        t.layout_origins = self.layout_origins
        return t

    def __contains__(self, name: str) -> bool:
        return name in self._macros

    def __len__(self) -> int:
        return len(self._macros)

    def get(self, name: str) -> Macro | None:
        return self._macros.get(name)

    def names(self) -> list[str]:
        return list(self._macros)

    # ---------------------------------------------------------------- collecting

    def _add(self, macro: Macro, notes: list[Note], paired: tuple[str, ...] | None = None,
             primitive: bool = False) -> None:
        old = self._macros.get(macro.name)
        if macro.kind == "providecommand" and old is not None:
            return
        if macro.name in DELIMITER_PRIMITIVES and macro.kind != "let":
            last = [t for t in tokens(macro.body) if not t.isspace()][-1:]
            target = self._macros.get(last[0]) if last else None
            if last and (last[0] == macro.name or (target is not None and last[0] in self._primitive
                                                   and target.body == macro.name)):
                self._macros.pop(macro.name, None)
                notes.append(Note(macro.origin, f"{macro.name} is redefined to end in the primitive {macro.name} "
                                                "(a spacing fix): read as the primitive"))
                return
        used = [int(t[1]) for t in tokens(macro.body) if len(t) == 2 and t[0] == "#" and t[1] != "#"]
        if max(used, default=0) > macro.nparams:
            notes.append(Note(macro.origin, f"{macro.name} skipped: its body uses #{max(used)} but it takes "
                                            f"{macro.nparams} argument(s)"))
            return
        if macro.kind == "newcommand" and old is not None:
            notes.append(Note(macro.origin, f"{macro.name} redefined by \\newcommand (was {old.origin}); "
                                            "the later definition is used"))
        reason = UNSAFE_RE.search(macro.body + (macro.default or "") + (macro.delimited or ""))
        if reason and macro.unsafe is None:
            macro = replace(macro, unsafe=f"its body uses {shown(reason.group())}")
            notes.append(Note(macro.origin, f"{macro.name} is not expanded: {macro.unsafe}"))
        self._macros.pop(macro.name, None)
        self._macros[macro.name] = macro
        self._compiled.pop(macro.name, None)
        self._paired.pop(macro.name, None)
        self._primitive.discard(macro.name)
        if paired:
            self._paired[macro.name] = paired
        if primitive:
            self._primitive.add(macro.name)
        self._note_wrapper(macro)

    def _note_wrapper(self, macro: Macro) -> None:
        """Record whether ``macro`` is a wrapper: a macro (not a ``\\let`` to a primitive) whose body defines — a
        definer or another wrapper's call in it (``\\newcommand{#1}{…}``, ``\\DeclareMathOperator{#1}{…}``,
        ``\\def\\x{…}``)."""
        body = macro.body if macro.kind != "let" or macro.name not in self._primitive else ""
        defines = bool(DEFINER_RE.search(body) or (self._wrapper_re is not None and self._wrapper_re.search(body)))
        if defines == (macro.name in self._wrappers):
            return
        (self._wrappers.add if defines else self._wrappers.discard)(macro.name)
        self._wrapper_re = re.compile("(?:%s)(?![A-Za-z])" % "|".join(
            re.escape(n) for n in sorted(self._wrappers, key=len, reverse=True))) if self._wrappers else None

    def collect(self, text: str, origin: str = "", first_line: int = 1, locate=None) -> list[Note]:
        """Add the definitions in ``text`` in order; return Notes for what was refused or skipped.  ``locate`` maps
        a line of ``text`` to ``"file:line"`` where ``text`` inlines several files (a paper's ``\\input{macros}``).

        Never raises on bad text: a malformed definition gives a Note and is skipped."""
        s = strip_comments(text, EATEN)
        if "@" in s:
            s = at_letters(s, whole=origin.endswith((".sty", ".cls")))
        if self.spans is not None:
            self.spans_text = s  # what the recorded spans are offsets of
        newlines = [m.start() for m in re.finditer("\n", s)]
        notes: list[Note] = []

        def where(pos: int) -> str:
            line = first_line + bisect_right(newlines, pos)
            return locate(line) if locate is not None else f"{origin}:{line}"
        self._scan(s, where, notes, 0)
        return notes

    def _scan(self, s: str, where, notes: list[Note], level: int) -> None:
        """The definitions in ``s``, in order: a definer's (``\\newcommand``…) and a wrapper's call (a macro of the
        paper whose body defines: ``\\newmacro{\\policy}{\\pi}``, see :meth:`_wrapper_call`); ``where(pos)`` names
        a position's origin."""
        i = 0
        cached: tuple = (None, None)  # (pattern, its next match): one search per wrapper set, not per definition
        while True:
            m = DEFINER_RE.search(s, i)
            pattern, w = cached
            if pattern is not self._wrapper_re or (w is not None and w.start() < i):
                w = self._wrapper_re.search(s, i) if self._wrapper_re is not None else None
                cached = (self._wrapper_re, w)
            if w is not None and (m is None or w.start() < m.start()):
                try:
                    end = self._wrapper_call(w.group(), s, w.end(), where(w.start()), notes, level)
                except (ValueError, IndexError, RecursionError) as e:  # defensive: collection never raises
                    notes.append(Note(where(w.start()), f"{shown(w.group())} skipped ({e})"))
                    end = None
                i = end if end is not None else w.end()
                if self.spans is not None and level == 0:
                    self.spans.append((w.start(), i, s[w.start():i]))
                continue
            if not m:
                return
            try:
                end = self._definition(m.group(1), s, m.end(), where(m.start()), notes)
            except (ValueError, IndexError, RecursionError) as e:  # defensive: collection never raises
                notes.append(Note(where(m.start()), f"\\{m.group(1)} skipped ({e})"))
                end = None
            i = end if end is not None else m.end()
            if self.spans is not None and level == 0 and end is not None:
                self.spans.append((m.start(), i, s[m.start():i]))

    def _wrapper_call(self, name: str, s: str, i: int, where: str, notes: list[Note], level: int) -> int | None:
        """A call of the wrapper ``name`` at ``s[i]`` (after its name), outside any definition's body: its arguments
        read as TeX would (``{…}`` groups or single tokens, an optional ``[…]`` where it has a default), put into its
        body (``##`` becoming ``#``), and the definitions in the result collected at ``where`` — text substitution
        only, nothing run.  Bounded: :data:`MAX_WRAPPER_LEVEL` nested wrappers, :data:`MAX_WRAPPER_CALLS` calls in
        all, :data:`MAX_WRAPPER_CHARS` characters each; past a bound, or with arguments it cannot read, a Note and
        nothing defined.  Returns the index after the call's arguments."""
        macro = self._macros[name]
        if macro.unsafe:
            notes.append(Note(where, f"{shown(name)}: definitions made through it are not read ({macro.unsafe})"))
            return None
        if macro.delimited is not None or macro.xparse is not None:
            notes.append(Note(where, f"{shown(name)}: definitions made through it are not read (its parameters are "
                                     "delimited or xparse's)"))
            return None
        if level >= MAX_WRAPPER_LEVEL or self._wrapper_calls >= MAX_WRAPPER_CALLS:
            notes.append(Note(where, f"{shown(name)}: definitions made through it are not read (more than "
                                     f"{MAX_WRAPPER_LEVEL} nested wrappers or {MAX_WRAPPER_CALLS} calls)"))
            return None
        self._wrapper_calls += 1
        args: list[str] = []
        j = i
        if macro.default is not None:
            k = skip_ws(s, j)
            g = read_group(s, k, bracket=True)
            args.append(g[0] if g is not None else macro.default)
            j = g[1] if g is not None else j
        while len(args) < macro.nparams:
            k = skip_ws(s, j)
            g = read_group(s, k)
            if g is not None:
                args.append(g[0])
                j = g[1]
                continue
            t = TOKEN_RE.match(s, k)
            if t is None or t.group() in "{}#" or t.group().startswith("#"):
                notes.append(Note(where, f"{shown(name)}: a call without its {macro.nparams} argument(s) skipped"))
                return None
            args.append(t.group())
            j = t.end()
        out: list[str] = []
        for t in tokens(macro.body):
            if t == "##":
                out.append("#")
            elif len(t) == 2 and t[0] == "#":
                out.append(args[int(t[1]) - 1])
            else:
                out.append(t)
        text = flatten("".join(out))
        if len(text) > MAX_WRAPPER_CHARS:
            notes.append(Note(where, f"{shown(name)}: a call longer than {MAX_WRAPPER_CHARS} characters once its "
                                     "arguments are in: not read"))
            return j
        self._scan(text, lambda pos: where, notes, level + 1)
        return j

    def _definition(self, cmd: str, s: str, i: int, where: str, notes: list[Note]) -> int | None:
        """Parse one definition starting after ``\\cmd``; the index after it, or None (Note added)."""
        def skip(why: str) -> None:
            notes.append(Note(where, f"malformed \\{cmd} skipped: {why}"))

        if cmd in IGNORED:
            notes.append(Note(where, f"\\{cmd} {IGNORED[cmd]}"))
            return None
        if cmd in XPARSE:
            name = read_name(s, i)
            if name is None:
                return skip("no control sequence name")
            spec = read_group(s, skip_ws(s, name[1]))
            if spec is None:
                return skip("missing {signature}")
            body = read_group(s, skip_ws(s, spec[1]))
            if body is None:
                return skip("missing or unbalanced {body}")
            sig = "".join(spec[0].split())
            if not re.fullmatch(r"[mo]{0,9}", sig):
                notes.append(Note(where, f"{name[0]} not expanded: the xparse signature {{{spec[0].strip()}}} is not "
                                         "read (only m and o)"))
                return body[1]
            self._add(Macro(name[0], len(sig), None, flatten(body[0]), XPARSE[cmd], where, xparse=sig), notes)
            return body[1]
        star = i < len(s) and s[i] == "*"
        i += star
        name = read_name(s, i)
        if cmd == "let" and LINE_END_RE.search(s, i, skip_ws(s, i)):
            name = None
        if name is None:
            return skip("no control sequence name")
        name_, i = name
        if cmd in KINDS and cmd not in ("def", "gdef", "edef", "xdef"):
            nparams, default = 0, None
            j = skip_ws(s, i)
            b = read_group(s, j, bracket=True)
            if b is not None:
                if not b[0].strip().isdigit() or not 0 <= int(b[0]) <= 9:
                    return skip(f"bad number of arguments [{b[0]}]")
                nparams, j = int(b[0]), skip_ws(s, b[1])
                b = read_group(s, j, bracket=True)
                if b is not None:
                    if nparams == 0:
                        return skip("a default with no arguments")
                    default, j = flatten(b[0]), skip_ws(s, b[1])
            g = read_group(s, j)
            if g is None:
                return skip("missing or unbalanced {body}")
            self._add(Macro(name_, nparams, default, flatten(g[0]), KINDS[cmd], where), notes)
            return g[1]
        if cmd in KINDS:  # \def family
            brace = s.find("{", i)
            g = read_group(s, brace) if brace >= 0 else None
            if g is None:
                return skip("missing or unbalanced {body}")
            ptext = flatten(s[i:brace]).strip()
            if len(ptext) > 40 or LINE_END_RE.search(s, i, brace):
                return skip("parameter text too long")
            numbers = [int(n) for n in re.findall(r"#([1-9])", ptext)]
            if numbers != list(range(1, len(numbers) + 1)) or ptext.count("#") != len(numbers) \
                    or ptext.endswith("#"):
                return skip(f"unsupported parameter text {ptext!r}")
            plain = re.fullmatch(r"(?:#[1-9])*", ptext) is not None
            self._add(Macro(name_, len(numbers), None, flatten(g[0]), "def", where,
                            delimited=None if plain else ptext), notes)
            return g[1]
        if cmd == "let":
            j = skip_ws(s, i)
            if j < len(s) and s[j] == "=":
                j = skip_ws(s, j + 1)
            m = CS_RE.match(s, j)
            if LINE_END_RE.search(s, i, j) or (m is None and (j >= len(s) or s[j] in "{}#")):
                return skip("nothing to alias on the same line")
            if m is None:
                target, end = s[j], j + 1
            else:
                target, end = m.group(), m.end()
            old = self._macros.get(target)
            if old is not None:
                self._add(replace(old, name=name_, kind="let", origin=where), notes, self._paired.get(target),
                          target in self._primitive)
            else:
                self._add(Macro(name_, 0, None, target, "let", where), notes, primitive=True)
            return end
        if cmd in ("DeclarePairedDelimiterX", "DeclarePairedDelimiterXPP"):
            # \DeclarePairedDelimiterX{\inner}[2]{\langle}{\rangle}{#1, #2}; XPP adds what comes before and after:
            # \DeclarePairedDelimiterXPP{\exof}[1]{\ex}{[}{]}{}{#1}
            nparams, k = 0, skip_ws(s, i)
            b = read_group(s, k, bracket=True)
            if b is not None:
                if not b[0].strip().isdigit() or not 0 <= int(b[0]) <= 9:
                    return skip(f"bad number of arguments [{b[0]}]")
                nparams, k = int(b[0]), b[1]
            parts = []
            for _ in range(5 if cmd.endswith("XPP") else 3):
                part = read_group(s, skip_ws(s, k))
                if part is None:
                    return skip("missing or unbalanced argument")
                parts.append(flatten(part[0]).strip())
                k = part[1]
            pre, left, right, post, inner = parts if len(parts) == 5 else ("", *parts[:2], "", parts[2])
            body = f"{pre}\\left{left} {inner}\\right{right}{post}"
            self._add(Macro(name_, nparams, None, body, "paireddelimiter", where), notes,
                      paired=(pre, left, right, post, inner))
            return k
        # \DeclareMathOperator(*) and \DeclarePairedDelimiter
        j = skip_ws(s, i)
        g = read_group(s, j)
        if g is None:
            return skip("missing or unbalanced argument")
        if cmd == "DeclareMathOperator":
            text = g[0]
            if set(CS_RE.findall(text)) & self._macros.keys():  # \newop{\ex}{\debug{\mathbb{E}}}: the paper's own
                try:  # macros in the name (an identity \debug, another operator) as they would be typeset
                    text = self.expand(text)
                except ExpansionError:
                    pass
            if DECORATED.search(text):  # \overline{Reg}, \mathrm{TC}^{\ast}: its letters alone would be another operator
                notes.append(Note(where, f"{shown(name_)} not expanded: its operator's name {text.strip()} is "
                                         "decorated (an accent, a script), not read"))
                return g[1]
            letters = re.sub(r"[^A-Za-z0-9]", "", CS_RE.sub("", text))
            if not letters:  # \DeclareMathOperator{\pdf}{\phi}: the operator is the symbol itself
                symbols = re.findall(r"\\[A-Za-z]+", text)
                symbols = [c for c in symbols if c not in ("\\mathrm", "\\text", "\\textrm", "\\mathsf", "\\operatorname",
                                                          "\\mathop")]
                if len(symbols) != 1:
                    return skip("no letters in the operator's name")
                letters = symbols[0]
            op = "\\operatorname*" if star else "\\operatorname"
            self._add(Macro(name_, 0, None, f"{op}{{{letters}}}", "operator*" if star else "operator", where),
                      notes)
            return g[1]
        g2 = read_group(s, skip_ws(s, g[1]))
        if g2 is None:
            return skip("missing or unbalanced right delimiter")
        left, right = flatten(g[0]).strip(), flatten(g2[0]).strip()
        body = f"\\left{left} #1\\right{right}"
        self._add(Macro(name_, 1, None, body, "paireddelimiter", where), notes, paired=(left, right))
        return g2[1]

    # ---------------------------------------------------------------- expanding

    def _compile(self, macro: Macro) -> tuple[list[str], list[str] | None, list | None]:
        """Body tokens, default tokens, and the parsed parameter text of a delimited ``\\def``."""
        c = self._compiled.get(macro.name)
        if c is None:
            spec = None
            if macro.delimited is not None:  # [(n or None, delimiter tokens)]: leading text has n None
                spec, parts = [], re.split(r"#([1-9])", macro.delimited)
                spec.append((None, [t for t in tokens(parts[0]) if not t.isspace()]))
                for k in range(1, len(parts), 2):
                    spec.append((int(parts[k]), [t if not t.isspace() else " " for t in tokens(parts[k + 1])]))
            default = tokens(macro.default) if macro.default is not None else None
            c = self._compiled[macro.name] = (tokens(macro.body), default, spec)
        return c

    def _expandable(self, token: str) -> bool:
        """Could ``token`` expand to other text (a macro of the paper, a dropped or boxing command, ``\\empty``)?
        LaTeX's own symbols and accents (``\\theta``, ``\\hat``) stay what they are."""
        return token in self._macros or token in DROPPED or token in BOXES or token in ("\\empty", "\\relax") or \
            token.startswith("\\" + AT) or token in VALUE_TESTS or token == "\\ifthenelse"

    def expand(self, text: str, keep_refused: bool = False) -> str:
        """Expand every defined macro in ``text`` (bodies included), within the budget; see the module.

        A refused macro (an unsafe body) raises, unless ``keep_refused``: then a macro the paper newly defines
        (``\\newcommand``, ``\\providecommand``, xparse's ``New``/``Declare``) is left unexpanded, and
        the others are expanded — one refused macro does not stop the rest of its row (it is written
        ``\\refusedNAME``, which no reader knows, so a relation that uses it is unreadable and names it).  A refused redefinition of
        a name LaTeX or the reader knows (``\\renewcommand``, ``\\def``) still raises: left as written, it would be
        read with its built-in meaning — except one from a standard package (:attr:`layout_origins`), whose
        redefinitions of LaTeX's own commands are layout."""
        names = set(CS_RE.findall(text))
        if not names & (self._macros.keys() | DROPPED | BOXES):
            if len(text) > self.max_chars:
                raise ExpansionError(f"macro expansion exceeds {self.max_chars} characters")
            return text
        stack: list = tokens(text)
        stack.reverse()
        out: list[str] = []
        steps = depth = work = 0
        counts: dict[str, int] = {}

        def over(what: str, name: str) -> ExpansionError:
            worst = max(counts, key=counts.get) if counts else name
            return ExpansionError(f"macro expansion exceeds {what} (recursive {worst}?)")

        def pop() -> str | None:  # next real token, END markers passed (depth kept right)
            nonlocal depth
            while stack:
                t = stack.pop()
                if t is END:
                    depth -= 1
                else:
                    return t
            return None

        def argument(name: str) -> list[str]:
            t = pop()
            while t is not None and t.isspace():
                t = pop()
            if t is None or t == "}":
                raise ExpansionError(f"{name}: missing argument")
            return until(name, "}") if t == "{" else [t]

        def until(name: str, close: str) -> list[str]:  # after '{' or '[': tokens up to its closer
            got, level = [], 0
            while True:
                t = pop()
                if t is None:
                    raise ExpansionError(f"{name}: unbalanced braces or brackets in its argument")
                if t == close and level == 0:
                    return got
                level += (t == "{") - (t == "}")
                got.append(t)

        def peek_nonspace(char: str) -> bool:  # is the next non-space token `char`? (spaces dropped)
            nonlocal depth
            while stack and (stack[-1] is END or stack[-1].isspace()):
                if stack.pop() is END:  # (pop() would return the token after an END: it was lost)
                    depth -= 1
            return bool(stack) and stack[-1] == char

        def delimited(name: str, delim: list[str]) -> list[str]:
            got, level, n = [], 0, len(delim)
            while True:
                if level == 0 and len(got) >= n and [" " if t.isspace() else t for t in got[-n:]] == delim:
                    got = got[:-n]
                    if len(got) >= 2 and got[0] == "{" and got[-1] == "}" and balanced_single(got):
                        got = got[1:-1]
                    return got
                t = pop()
                if t is None:
                    raise ExpansionError(f"use of {name} does not match its definition")
                level += (t == "{") - (t == "}")
                if got or not t.isspace():
                    got.append(t)

        while stack:
            t = stack.pop()
            if t is END:
                depth -= 1
                continue
            if t[0] != "\\" or len(t) == 1:
                out.append(t)
                continue
            macro = self._macros.get(t)
            if macro is None:
                if t in DROPPED:
                    continue
                if t == "\\ensuremath":
                    stack.extend(reversed(argument(t)))
                    continue
                if t == "\\raisebox":  # \raisebox{lift}[height][depth]{content}: the content, its $ dropped
                    argument(t)
                    while peek_nonspace("[") and pop() is not None:
                        until(t, "]")
                    stack.extend(reversed([x for x in argument(t) if x != "$"]))
                    continue
                if t in VALUE_TESTS:  # \IfValueTF{#1}{yes}{no}, from an xparse body
                    given, n = VALUE_TESTS[t]
                    value = argument(t)
                    branches = [argument(t) for _ in range(n)]
                    present = value != [NO_VALUE]
                    if present == given:
                        stack.extend(reversed(branches[0]))
                    elif n == 2:
                        stack.extend(reversed(branches[1]))
                    continue
                if t == "\\" + AT + "ifstar":  # \@ifstar{A}{B}: A when a * follows (spaces skipped), else B
                    yes, no = argument(t), argument(t)
                    star = peek_nonspace("*") and pop() is not None
                    stack.extend(reversed(yes if star else no))
                    continue
                if t == "\\" + AT + "ifnextchar":  # \@ifnextchar[{A}{B}: A when that token follows
                    char, yes, no = argument(t), argument(t), argument(t)
                    if len(char) != 1:
                        raise ExpansionError("\\@ifnextchar: its token is not read")
                    stack.extend(reversed(yes if peek_nonspace(char[0]) else no))
                    continue
                if t == "\\ifthenelse":  # \ifthenelse{\equal{#1}{}}{A}{B}
                    test, yes, no = argument(t), argument(t), argument(t)
                    stack.extend(reversed(yes if if_test(test, self._expandable) else no))
                    continue
                if t == "\\mathpalette":  # \mathpalette\f{x}: \f{\textstyle}{x}
                    f = argument(t)
                    x = argument(t)
                    stack.extend(reversed([*f, "{", "\\textstyle", "}", "{", *x, "}"]))
                    continue
                out.append(t)
                continue
            if macro.unsafe:
                if keep_refused and self.layout_origins is not None and \
                        self.layout_origins.fullmatch(macro.origin.replace("\\", "/").rsplit("/", 1)[-1].split(":")[0]):
                    out.append(t)  # a standard package's restyling of LaTeX's own \\, \small: LaTeX's meaning
                    continue
                if keep_refused and macro.kind in ("newcommand", "providecommand"):
                    out.append("\\refused" + re.sub(r"[^A-Za-z]", "", t))  # never read with a built-in meaning
                    continue
                raise ExpansionError(f"macro {shown(t)} ({macro.origin}) is refused: {macro.unsafe}")
            steps += 1
            counts[t] = counts.get(t, 0) + 1
            if steps > self.max_steps:
                raise over(f"{self.max_steps} steps", t)
            if t in self._primitive:
                out.append(macro.body)
                continue
            body, default, spec = self._compile(macro)
            args: list[list[str]] = []
            if t in self._paired and len(self._paired[t]) == 5:  # \inner{x}{y}, \exof*{X \given Y}, \exof[\big]{X}
                pre, left, right, post, inner = self._paired[t]
                star = peek_nonspace("*") and pop() is not None
                size = until(t, "]") if not star and peek_nonspace("[") and pop() else None
                sz = "".join(size or ()).strip()
                opening, closing = (f"{sz}l{left} ", f"{sz}r{right}") if sz else (f"\\left{left} ", f"\\right{right}")
                # \delimsize: the pair's size (\big) or, between \left and \right, nothing (\delimsize\vert is |)
                middle = [x for b in tokens(inner) for x in ((tokens(sz) if sz else []) if b == "\\delimsize" else [b])]
                body = tokens(pre) + tokens(opening) + middle + tokens(closing) + tokens(post)
                args.extend(argument(t) for _ in range(macro.nparams))
            elif t in self._paired:
                left, right = self._paired[t]  # \norm*{x} and \norm{x}: \left … \right
                star = peek_nonspace("*") and pop() is not None
                size = until(t, "]") if not star and peek_nonspace("[") and pop() else None
                sz = "".join(size or ()).strip()
                if sz:  # \norm[\big]{x}: \bigl\lVert x\bigr\rVert
                    body = tokens(f"{sz}l{left} ") + ["#1"] + tokens(f"{sz}r{right}")
                args.append(argument(t))
            elif macro.xparse is not None:
                for kind in macro.xparse:
                    if kind == "m":
                        args.append(argument(t))
                    else:
                        args.append(until(t, "]") if peek_nonspace("[") and pop() else [NO_VALUE])
            elif spec is not None:
                for n, delim in spec:
                    if n is None:
                        for d in delim:
                            got = pop()
                            while got is not None and got.isspace():
                                got = pop()
                            if got != d:
                                raise ExpansionError(f"use of {t} does not match its definition")
                    elif delim:
                        args.append(delimited(t, delim))
                    else:
                        args.append(argument(t))
            else:
                if default is not None:
                    args.append(until(t, "]") if peek_nonspace("[") and pop() else default)
                args.extend(argument(t) for _ in range(len(args), macro.nparams))
            new: list = []
            for b in body:
                if b[0] == "#" and len(b) == 2:
                    new.extend(args[int(b[1]) - 1] if b[1] != "#" else ["#"])
                else:
                    new.append(b)
            if any(b in LOCAL_DEFINERS for b in new):
                new = self._local_definitions(new, t)
            stack.append(END)
            stack.extend(reversed(new))
            depth, work = depth + 1, work + len(new)
            if work > 5 * self.max_chars:
                raise over(f"{5 * self.max_chars} tokens of work", t)
            if depth > self.max_depth:
                raise over(f"nesting depth {self.max_depth}", t)
            if len(stack) + len(out) > self.max_chars:
                raise over(f"{self.max_chars} characters", t)
        return join(out, self.max_chars)


    def _local_definitions(self, toks: list[str], name: str) -> list[str]:
        """``toks`` (a macro's body, arguments in) with each definition in it made for the rest of it:
        ``\\renewcommand\\given{\\vert} X \\given Y`` is ``X \\vert Y`` (mathtools' ``\\exof`` idiom; the body is
        a group, so the definition ends with it).  Only a definition without parameters is read (``\\providecommand``
        of a name already defined does nothing); any other is left as written (no reader knows ``\\def``: the row is
        unreadable, never read with a guessed meaning)."""
        out, k = [], 0
        while k < len(toks):
            t = toks[k]
            if t not in LOCAL_DEFINERS:
                out.append(t)
                k += 1
                continue

            def next_real(j: int) -> int:
                while j < len(toks) and toks[j].isspace():
                    j += 1
                return j
            j = next_real(k + 1)
            if t != "\\def" and j < len(toks) and toks[j] == "*":
                j = next_real(j + 1)
            if j < len(toks) and toks[j] == "{" and j + 2 < len(toks) and toks[j + 2] == "}":
                target, j = toks[j + 1], j + 3
            else:
                target, j = (toks[j] if j < len(toks) else ""), j + 1
            j = next_real(j)
            level, e = 0, j
            for e in range(j, len(toks) if CS_RE.fullmatch(target) and j < len(toks) and toks[j] == "{" else j):
                level += (toks[e] == "{") - (toks[e] == "}")
                if level == 0:
                    break
            if e == j or level:  # with parameters (\def\x#1{…}), without a body: left as written (never read)
                out.append(t)
                k += 1
                continue
            value = toks[j + 1:e]
            rest = toks[e + 1:]
            if t == "\\providecommand" and target in self._macros:
                toks = out + rest
            else:
                toks = out + [x for r in rest for x in (value if r == target else [r])]
            if len(toks) > self.max_chars:
                raise ExpansionError(f"macro expansion exceeds {self.max_chars} characters")
            k = len(out)
        return out


def if_test(test: list[str], expandable=lambda token: True) -> bool:
    """The value of an ``\\ifthenelse`` test (its tokens, arguments substituted): ``\\equal{a}{b}`` compares the
    written texts, ``\\isempty{a}`` asks for an empty one, ``\\NOT`` negates; a text with a token that
    ``expandable`` says could expand to something else (which TeX would expand first: a paper's macro) or any other
    test raises :class:`ExpansionError` — never a guessed branch."""
    toks = [t for t in test if not t.isspace()]

    def group(k: int) -> tuple[list[str], int]:
        if k >= len(toks):
            raise ExpansionError("\\ifthenelse: a test's argument is missing")
        if toks[k] != "{":
            return [toks[k]], k + 1
        level = 0
        for j in range(k, len(toks)):
            level += (toks[j] == "{") - (toks[j] == "}")
            if level == 0:
                return toks[k + 1:j], j + 1
        raise ExpansionError("\\ifthenelse: an unbalanced test")

    negate, k = False, 0
    while k < len(toks) and toks[k] == "\\NOT":
        negate, k = not negate, k + 1
    if k < len(toks) and toks[k] == "\\equal":
        a, k = group(k + 1)
        b, k = group(k)
    elif k < len(toks) and toks[k] == "\\isempty":
        (a, k), b = group(k + 1), []
    else:
        raise ExpansionError("\\ifthenelse: only \\equal and \\isempty tests are read")
    if k != len(toks) or any(t.startswith("\\") and expandable(t) for t in (*a, *b)):
        raise ExpansionError("\\ifthenelse: a test on a macro's expansion, or a compound test, is not read")
    return (a == b) != negate


def balanced_single(toks: list[str]) -> bool:
    """Is ``toks`` one ``{…}`` group (the opening brace closed only by the last token)?"""
    level = 0
    for k, t in enumerate(toks):
        level += (t == "{") - (t == "}")
        if level == 0 and k < len(toks) - 1:
            return False
    return level == 0


def join(out: list[str], max_chars: int) -> str:
    """Concatenate tokens, with a space where a control word would otherwise run into a letter."""
    parts: list[str] = []
    prev_word = False
    for t in out:
        if prev_word and t[0].isalpha():
            parts.append(" ")
        parts.append(t)
        prev_word = len(t) > 1 and t[0] == "\\" and t[1].isalpha()
    result = "".join(parts)
    if len(result) > max_chars:
        raise ExpansionError(f"macro expansion exceeds {max_chars} characters")
    return result
