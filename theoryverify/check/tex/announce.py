"""Prose that announces what a display is, read against the display itself (referee 32's kinds).

Two cues of the sentence before a display, each narrow because each is checked against the display's own text or
the place the display stands:

* "let $X$ denote …", "denote by $X$ …", "we write $X$ for …": the sentence names the display's left side X word for
  word, so the first link ``X = …`` is that announced definition, however long the description that follows it
  (the general definition cues of :mod:`kinds` look only 200 characters back, so a long description — "the volume
  of the ellipsoidal solid … consisting of all possible function data whose …" — defeated them);
* "our algorithm returns $G(f, ε)$ for which", "the method outputs an x̂ satisfying": the display is the
  specification the algorithm is designed to meet (a goal), not a step derived from what precedes it — outside a
  proof only (in a proof "we obtain a point for which" derives a consequence, a step checked as any other).
"""
from __future__ import annotations

import re

#: "let $X$ denote", "let $X$ be", "denote by $X$", "we write $X$ for", "we use $X$ to denote"
LET_NAMES = re.compile(r"\blet\s+\$(?P<let>[^$]{1,200})\$\s+(?:denote|be|stand\s+for|represent)\b|"
                       r"\bdenote\s+by\s+\$(?P<by>[^$]{1,200})\$|"
                       r"\bwe\s+(?:write|use)\s+\$(?P<we>[^$]{1,200})\$\s+(?:for|to\s+denote)\b", re.I)
#: the typesetting that the prose and the display may write differently (\text{vEll} in one, vEll in the other)
_WRAPPER = re.compile(r"\\(?:text|textrm|mathrm|operatorname|mbox)\s*\{([^{}]*)\}")


def _plain(latex: str) -> str:
    """``latex`` without spaces and without the text wrappers around a word (for a word-for-word comparison)."""
    return re.sub(r"\s+|\\[,;:! ]", "", _WRAPPER.sub(r"\1", latex))


def announced_definition(sentence: str, lhs_text: str, derived_at: int) -> bool:
    """Whether the ``sentence`` before a display names the display's left side ``lhs_text`` word for word in its
    last "let $X$ denote …" ("denote by $X$", "we write $X$ for") and says nothing derived after it (``derived_at``:
    where the sentence's last "we have", "hence" … ends, -1 for none): then the display's first link is the
    definition the sentence announces."""
    hits = list(LET_NAMES.finditer(sentence))
    if not hits or not lhs_text.strip():
        return False
    last = hits[-1]
    named = next(g for g in last.groups() if g is not None)
    return derived_at < last.start() and _plain(named) == _plain(lhs_text)


#: "our algorithm returns … for which", "the method outputs an approximation satisfying", "the procedure produces
#: an x such that": what the algorithm is designed to deliver
SPECIFICATION = re.compile(r"\b(?:algorithms?|methods?|procedures?|schemes?|routines?|solvers?)\b[^.;]{0,60}?"
                           r"\b(?:returns?|outputs?|produces?|delivers?|constructs?|computes?)\b[^.;]{0,120}?"
                           r"\b(?:for\s+which|satisfying|that\s+satisf(?:y|ies)|such\s+that)\s*:?\s*$", re.I)
SPECIFICATION_WHY = ("a specification the algorithm is designed to meet ('our algorithm returns … for which'): the goal "
                     "it is built for, not a step derived from what precedes it")


def specification(sentence: str, envs: list[str]) -> bool:
    """Whether the display after ``sentence`` is what an algorithm is designed to deliver ("our algorithm returns
    G(f, ε) for which"), outside any proof (``envs``: the standard names of the environments around it)."""
    return not any(e.startswith("proof") for e in envs) and bool(SPECIFICATION.search(sentence))
