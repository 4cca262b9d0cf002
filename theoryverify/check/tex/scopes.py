"""Where a macro defined in a paper's body holds: from its position on, to the end of the group it is made in.

TeX applies a definition only after it, and one made inside a group (``{…}``, ``\\bgroup … \\egroup``, ``\\begingroup
… \\endgroup``, an environment) only until that group
closes (``\\gdef``, ``\\xdef`` and ``\\global`` ones to the end).  A paper that writes ``{\\def\\left{left} …}`` inside
a figure's code has not redefined ``\\left`` for its displays (it had been, for every display of the paper, before
the figure too, and ``\\left(a+b\\right)^2 = a^2+2ab+b^2`` was refuted).  Definitions in the preamble (and in local
packages) hold everywhere, as before.

:func:`scoped_tables` cuts the body into segments at the positions where the set of body definitions in force
changes, and gives each segment the table that holds there.  Nothing is run: the definitions are the ones the
macro table read (:attr:`~..macros.MacroTable.spans`), replayed on a copy of the preamble's table.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from ..macros import MacroTable

#: what opens or closes a group in the body: an (unescaped) brace, ``\\begin{…}``, ``\\end{…}``, ``\\bgroup`` …
#: ``\\egroup``, ``\\begingroup`` … ``\\endgroup``
GROUP_RE = re.compile(r"\\begin\s*\{[^{}]*\}|\\end\s*\{[^{}]*\}|\\[A-Za-z]+|\\.|[{}]", re.S)
#: the control words that open and close a group as braces do: each closed by its own partner (a ``}`` that meets
#: an open ``\\bgroup`` closes the brace group around it, as an unclosed group inside is closed with it)
GROUP_WORDS = {"\\bgroup": "\\bgroup", "\\begingroup": "\\begingroup"}
GROUP_ENDS = {"\\egroup": "\\bgroup", "\\endgroup": "\\begingroup"}
#: a definer that is global whatever group it is made in
GLOBAL_RE = re.compile(r"\\(?:gdef|xdef)(?![A-Za-z])|\\global(?![A-Za-z])")
#: a ``\\global`` prefix right before a definition
GLOBAL_PREFIX = re.compile(r"\\global\s*$")


@dataclass(frozen=True)
class BodyDefinition:
    """A definition made in the body at ``pos`` (an offset of the paper's text), holding until ``end``."""
    pos: int
    end: int
    text: str


def _raw_offsets(collected: str, raw: str):
    """A map from an offset of the collected text (comments stripped, ``@`` names respelt: same lines) to the
    paper's text: the same line, the same column (capped at the line's end)."""
    c_lines = [0] + [m.end() for m in re.finditer("\n", collected)]
    r_lines = [0] + [m.end() for m in re.finditer("\n", raw)]

    def to_raw(pos: int) -> int:
        k = bisect_right(c_lines, pos) - 1
        if k >= len(r_lines):
            return len(raw)
        line_end = r_lines[k + 1] - 1 if k + 1 < len(r_lines) else len(raw)
        return min(r_lines[k] + pos - c_lines[k], line_end)
    return to_raw


def group_ends(text: str, start: int, positions: list[int]) -> dict[int, int]:
    """For each of ``positions`` (offsets of ``text`` at or after ``start``), the end of the innermost group (a
    brace group or an environment) opened after ``start`` that holds it, or ``len(text)`` at the top level.  A
    group that never closes, or an ``\\end`` that closes no open environment, leaves the position at the top level
    (as before: the definition holds to the end)."""
    out: dict[int, int] = {}
    pending = sorted(set(positions))
    k = 0
    stack: list[tuple[str, list[int]]] = []  # (what opened it, the positions inside it waiting for its end)
    top: list[int] = []
    for m in GROUP_RE.finditer(text, start):
        while k < len(pending) and pending[k] < m.start():
            (stack[-1][1] if stack else top).append(pending[k])
            k += 1
        tok = m.group()
        if tok == "{" or tok in GROUP_WORDS:
            stack.append((GROUP_WORDS.get(tok, "{"), []))
        elif tok.startswith("\\begin") and "{" in tok:
            stack.append((re.sub(r"\s", "", tok[6:]), []))
        elif tok == "}" or tok in GROUP_ENDS or (tok.startswith("\\end") and "{" in tok):
            want = "{" if tok == "}" else GROUP_ENDS.get(tok) or re.sub(r"\s", "", tok[4:])
            if not stack or stack[-1][0] != want:
                if any(opened == want for opened, _ in stack):  # an unclosed group inside: closed with this one
                    while stack[-1][0] != want:
                        top.extend(stack.pop()[1])
                else:
                    continue  # (\end{document}, a stray brace): nothing to close
            _, inside = stack.pop()
            for p in inside:
                out[p] = m.end()
    while k < len(pending):
        (stack[-1][1] if stack else top).append(pending[k])
        k += 1
    for _, inside in stack:
        top.extend(inside)
    for p in top:
        out[p] = len(text)
    return out


def body_definitions(table: MacroTable, collected: str, raw: str, body_start: int) -> list[BodyDefinition]:
    """The definitions ``table`` recorded (:attr:`MacroTable.spans`, offsets of ``collected``) that lie in the body
    of ``raw`` (at or after ``body_start``), each with the end of its group."""
    to_raw = _raw_offsets(collected, raw)
    found = [(to_raw(a), t) for a, _, t in table.spans or () if to_raw(a) >= body_start]
    ends = group_ends(raw, body_start, [p for p, _ in found])
    out = []
    for pos, t in found:
        glob = bool(GLOBAL_RE.match(t)) or bool(GLOBAL_PREFIX.search(raw[max(0, pos - 20):pos]))
        out.append(BodyDefinition(pos, len(raw) if glob else ends.get(pos, len(raw)), t))
    return out


def scoped_tables(base: MacroTable, defs: list[BodyDefinition], start: int, stop: int
                  ) -> list[tuple[int, int, MacroTable]]:
    """``(a, b, table)`` for consecutive segments ``[a, b)`` of ``[start, stop)``: the preamble's table ``base``
    with the body definitions in force over the whole segment, in the paper's order."""
    cuts = sorted({start, stop, *(d.pos for d in defs if start < d.pos < stop),
                   *(d.end for d in defs if start < d.end < stop)})
    out: list[tuple[int, int, MacroTable]] = []
    cache: dict[tuple[int, ...], MacroTable] = {(): base}
    prev: tuple[int, ...] = ()
    for a, b in zip(cuts, cuts[1:]):
        active = tuple(i for i, d in enumerate(defs) if d.pos <= a < d.end)
        table = cache.get(active)
        if table is None:
            grow = active[:len(prev)] == prev and prev in cache
            table = cache[prev].copy() if grow else base.copy()
            for i in (active[len(prev):] if grow else active):
                table.collect(defs[i].text, "")
            cache[active] = table
        out.append((a, b, table))
        prev = active
    return out
