"""A letter loop that defines a family of macros (``\\multi*{mc}{\\mathcal{#1}}`` then ``\\multimc ABC…z.`` makes
``\\mcA`` … ``\\mcz``), read without running it.

Some papers define alphabets with a helper built on ``\\expandafter``/``\\csname`` (never expanded here: hostile
input could do anything with them)::

    \\def\\multi@nostar#1#2{\\expandafter\\def\\csname multi#1\\endcsname##1{%
        \\if ##1.\\let\\next=\\relax \\else \\def\\next{\\csname multi#1\\endcsname}%
        \\expandafter\\newcommand\\csname #1##1\\endcsname{#2}\\fi\\next}}
    \\def\\multi@star#1#2{\\expandafter\\def\\csname #1\\endcsname##1{#2}\\multi@nostar{#1}{#2}}
    \\newcommand{\\multi}{\\@ifstar \\multi@star \\multi@nostar}

:func:`loop_definitions` recognises exactly this shape (spaces and comments aside; any names, any prefix in place of
``multi``, ``\\def`` or ``\\newcommand`` for the letters' macros) and writes what it defines as plain definitions:
``\\multi*{P}{B}`` defines ``\\P`` (one argument, ``B``) and the loop ``\\multiP``; ``\\multiP ABC.`` defines
``\\PA``, ``\\PB``, ``\\PC`` (``B`` with the letter for ``#1``), each only where the name is still free (a
``\\newcommand`` of a taken name is an error in LaTeX, which keeps the old one).  Bounded: a loop reads at most
:data:`MAX_LETTERS` tokens up to its period, and only letters make names.  Any other helper stays unread (its
macros are unknown: a row that uses one is unreadable, naming the macro).
"""
from __future__ import annotations

import re

from ..latex import FUNCS, GREEK
from ..macros import read_group, skip_ws, strip_comments

MAX_LETTERS = 200
MAX_CALLS = 200
#: ``\\newcommand{\\multi}{\\@ifstar \\multi@star \\multi@nostar}`` (or ``\\def\\multi{…}``)
DISPATCH = re.compile(r"\\(?:newcommand\s*\*?\s*\{\s*\\([A-Za-z]+)\s*\}|newcommand\s*\*?\s*\\([A-Za-z]+)|"
                      r"def\s*\\([A-Za-z]+))\s*\{\s*\\@ifstar\s*(\\[A-Za-z@]+)\s*(\\[A-Za-z@]+)\s*\}")
_CS = r"\\expandafter\\(?:def|newcommand)\\csname"
#: LaTeX's own names a loop may spell (``\\multiR`` over ``e`` is ``\\Re``): LaTeX keeps its own
BUILT_IN = frozenset({"\\" + n for n in (*GREEK, *FUNCS, "Re", "Im", "wp", "ell", "hbar", "top", "bot", "rm", "it", "bf",
                                          "sf", "tt", "sc", "mit", "cal", "max", "min", "sup", "inf", "det", "dim")})
#: ``\\mathop{\\operator@font #1}``: LaTeX's own spelling of ``\\operatorname{#1}`` (an upright operator's name)
OPERATOR_FONT = re.compile(r"\\mathop\s*\{\s*\\operator@font\s*#1\s*\}")
#: the loop's body, its white space removed (the prefix of the loop's own name captured)
NOSTAR_BODY = re.compile(re.escape(r"\expandafter\def\csname") + r"([A-Za-z]*)" + re.escape(r"#1\endcsname##1{\if##1.")
                         + re.escape(r"\let\next=\relax\else\def\next{\csname") + r"\1" + re.escape(r"#1\endcsname}")
                         + _CS + re.escape(r"#1##1\endcsname{#2}\fi\next}"))
STAR_BODY = re.compile(re.escape(r"\expandafter\def\csname#1\endcsname##1{#2}") + r"(\\[A-Za-z@]+)"
                       + re.escape(r"{#1}{#2}"))


def _def_body(text: str, name: str) -> str | None:
    """The body of ``\\def<name>#1#2{…}`` in ``text``, its white space removed; None if there is none."""
    m = re.search(r"\\def\s*" + re.escape(name) + r"\s*#1\s*#2\s*(?=\{)", text)
    if m is None:
        return None
    g = read_group(text, m.end())
    return None if g is None else "".join(g[0].split())


def loop_definitions(texts: list[str]) -> tuple[str, list[str]]:
    """The definitions (LaTeX text) that the letter loops of ``texts`` (a paper's local packages and preamble, in
    order) make, and notes on what was read."""
    text = strip_comments("\n".join(texts))
    out: list[str] = []
    notes: list[str] = []
    taken: set[str] = set(re.findall(r"\\(?:newcommand|renewcommand|providecommand|def|DeclareMathOperator)\s*\*?"
                                     r"\s*\{?\s*(\\[A-Za-z]+)", text))
    for d in DISPATCH.finditer(text):
        name = "\\" + next(g for g in d.groups()[:3] if g)
        star, nostar = d.group(4), d.group(5)
        loop = NOSTAR_BODY.fullmatch(_def_body(text, nostar) or "")
        starred = STAR_BODY.fullmatch(_def_body(text, star) or "")
        if loop is None or starred is None or starred.group(1) != nostar:
            continue
        prefix = loop.group(1)
        families: dict[str, str] = {}  # the loop's name -> the family's body
        calls = 0
        for c in re.compile(re.escape(name) + r"(?![A-Za-z@])\s*(\*?)\s*(?=\{)").finditer(text, d.end()):
            calls += 1
            if calls > MAX_CALLS:
                break
            p = read_group(text, c.end())
            b = read_group(text, skip_ws(text, p[1])) if p else None
            if p is None or b is None or not re.fullmatch(r"[A-Za-z]+", p[0].strip()):
                continue
            family, body = p[0].strip(), OPERATOR_FONT.sub(r"\\operatorname{#1}", " ".join(b[0].split()))
            if c.group(1):
                out.append(f"\\def\\{family}#1{{{body}}}")
                taken.add("\\" + family)
            families["\\" + prefix + family] = body
        made = 0
        for fam_loop, body in sorted(families.items(), key=lambda kv: -len(kv[0])):
            family = fam_loop[1 + len(prefix):]
            for u in re.compile(re.escape(fam_loop) + r"(?![A-Za-z@])").finditer(text, d.end()):
                rest = text[u.end():u.end() + 4 * MAX_LETTERS]
                stop = rest.find(".")
                if stop < 0 or len(rest[:stop].split()) > MAX_LETTERS or not re.fullmatch(r"[A-Za-z\s]*", rest[:stop]):
                    notes.append(f"{fam_loop}: a loop that is not letters up to a period, not read")
                    continue
                for letter in re.findall(r"[A-Za-z]", rest[:stop]):
                    new = "\\" + family + letter
                    if new in taken or new in BUILT_IN:
                        continue
                    taken.add(new)
                    out.append(f"\\newcommand{{{new}}}{{{body.replace('#1', letter)}}}")
                    made += 1
        if made:
            notes.append(f"{name}: its letter-loop shape is recognised: the {made} macros its loops make are read as "
                         "plain definitions (its \\expandafter/\\csname code itself is never run)")
    # (a family's body may use LaTeX's @-names, \\operator@font: read as such, refused on use)
    return ("\\makeatletter\n" + "\n".join(out) + "\n\\makeatother" if out else ""), notes

