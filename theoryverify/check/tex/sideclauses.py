"""Side clauses that name parts: "𝖪 = 𝖵𝚲𝖵ᵀ = 𝖪_a + 𝖪_b, \\qquad 𝖪_a = 𝖵_a𝚲_a𝖵_aᵀ, \\quad 𝖪_b = …".

A display's later chain (after a comma) whose first link is ``X = …`` with ``X`` a name written for the first time
in that display (the earlier chain may already use it, as the sum 𝖪_a + 𝖪_b does) gives the value of the new name:
a definition, not a step.  A name written anywhere before the display (prose included) stays a step, so a real
step that restates a known name is still checked."""
from __future__ import annotations

import re

_SPACE = re.compile(r"[\s{}]+")


def _plain(text: str) -> str:
    """``text`` without spaces and braces (``\\mathsf{K}_{a}`` and ``\\mathsf K_a`` compare alike)."""
    return _SPACE.sub("", text)


def first_written_here(doc_text: str, body_start: int, display_start: int, lhs_latex: str) -> bool:
    """Is ``lhs_latex`` (a name's LaTeX) written nowhere in the document body before the display at
    ``display_start``?  Compared without spaces and braces; any earlier occurrence, even inside a longer name,
    answers no (the safe side: the link stays a step)."""
    name = _plain(lhs_latex)
    if name.endswith(")") and "(" in name:  # u^-(x): the function's name u^- (written earlier as u^-(1): known)
        name = name[:name.index("(")]
    if len(name) < 1:
        return False
    return name not in _plain(doc_text[body_start:display_start])


def after_comma(before: str) -> bool:
    """Does the display's text ``before`` a chain end with a comma (``…, \\qquad X = …``): a side clause?"""
    rest = re.sub(r"\\(?:q?quad|[,;:! ]|hspace\s*\{[^{}]*\})|\s|&", "", before)  # (a new row "\\\\": no clause)
    return rest.endswith(",")
