"""Values the sentence before a display sets: "Setting $p = 1 + \\delta$ and $\\tilde p = 1 - \\delta$, we have".

A theorist often fixes a name's value in the prose that leads into a display ("Setting …", "putting the value of
$\\ell = …$ in $c$ we get", "When $n = \\ell$, …").  The steps of that display are meant with those values, so the
checker substitutes them.  Only the last sentence before the display counts, only an inline equation whose words
before it set a value (setting, putting, substituting, plugging, choosing, taking, letting, with, when; or "and"
right after such an equation), and only when the sentence runs straight into the display ("we have", "we get",
",", ":").  Prose is read less surely than a display, so a step refuted with such a value is reported as refuted
*as read*, with the value named, never as the paper's error (see ``Paper._apply``).
"""
from __future__ import annotations

import re

MATH = re.compile(r"(?<!\\)\$([^$]{1,300}?)(?<!\\)\$|\\\((.{1,300}?)\\\)")
SETS = re.compile(r"\b(?:setting|set|putting|put|substituting|plugging(?:\s+in)?|choosing|choose|taking|take|"
                  r"letting|let|with|when)\b(?:\s+(?:the|a|value|values|of|in|that|now|again|here)\b)*[^.;$]{0,12}$",
                  re.I)
AND = re.compile(r"^\s*(?:,\s*)?(?:and|,)\s*$", re.I)
LEADS_IN = re.compile(r"(?:\b(?:we|one)\s+(?:have|get|obtain|find|see|can\s+write)\b|\b(?:gives|yields|becomes)\b|"
                      r"\band\s+(?:then\s+)?(?:have|get|obtain|find|arrive\s+at)\b|[,:])"
                      r"[\s,:]*$", re.I)
SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z\\])")
#: a sentence that continues the one before it ("Then this expression becomes")
THEN = re.compile(r"\s*(?:then|now|so|thus|hence)\b", re.I)


def values_before(prose: str) -> list[str]:
    """The inline equations (their LaTeX) by which the last sentence of ``prose`` sets values for the display that
    follows it; [] when the sentence does not lead into the display or sets nothing."""
    if not prose or not LEADS_IN.search(prose):
        return []
    spans = [(m.start(), m.end(), m.group(1) if m.group(1) is not None else m.group(2)) for m in MATH.finditer(prose)]
    start = 0  # the last sentence begins after the last full stop outside math
    inside = [False] * len(prose)
    for a, b, _ in spans:
        for i in range(a, b):
            inside[i] = True
    for m in SENTENCE_END.finditer(prose):
        if not inside[m.start()]:
            start = m.end()
    out = _set_in(prose, spans, start, len(prose))
    if not out and THEN.match(prose[start:]):
        # "To shorten it, let $a := a_i$ and $x = …$. Then the term becomes": the sentence that leads
        # into the display continues the one before it, which sets the values
        before = 0
        for m in SENTENCE_END.finditer(prose, 0, max(0, start - 1)):
            if not inside[m.start()]:
                before = m.end()
        out = _set_in(prose, spans, before, start)
    return out


def _set_in(prose: str, spans, start: int, end: int) -> list[str]:
    """The inline equations of ``prose[start:end]`` that its words set (see :func:`values_before`)."""
    out: list[str] = []
    prev_end, prev_set = start, False
    for a, b, text in spans:
        if a < start or b > end:
            continue
        words = prose[prev_end:a]
        sets = bool(SETS.search(words)) or (prev_set and bool(AND.match(words)))
        if sets and "=" in text and not re.search(r"[<>]|\\[lg]eq?\b|\\neq|\\in\b|\\approx|\\sim", text):
            out.append(text)
            prev_set = True
        else:
            prev_set = False
        prev_end = b
    return out


#: the words that open a sentence setting a value for the rest of its paragraph: "Let $σ^2 = 1/M$", "If we let …",
#: "Setting …", "We fix …" — the sentence opens with the cue (not "If $n$ is even, let $k = n/2$": a case)
STANDING = re.compile(r"^\W*(?:(?:now|here|henceforth|throughout|first|finally)\s*,?\s*)?"
                      r"(?:if\s+we\s+|we\s+|let\s+us\s+|we\s+will\s+)?"
                      r"(?:let|letting|set|setting|choose|choosing|fix|fixing|take|taking|assume|assuming|suppose)\b"
                      r"(?:\s+(?:the|a|value|values|of|now|again|here|that)\b)*[^.;$]{0,30}"
                      r"(?:\$[^$]{1,120}\$\s*,?\s*(?:and\s+)?)*$", re.I)
#: a scaling, not a value: σ² ∼ 1/M, n ≍ d, η ∝ 1/L (a law, X ∼ N(0, 1), is not one)
SCALING = re.compile(r"\\(?:sim|approx|simeq|asymp|propto)(?![A-Za-z])(?!\s*(?:\\mathcal|\\mathrm|\\text|\\operatorname|"
                     r"\\mathsf|\\mathbb|N\b|U\b|Unif|Ber|Bin|Poi|Exp))")
ORDER = re.compile(r"[<>]|\\(?:[lg]eq?|[lg]eqslant|neq?|in|subset|subseteq|notin)(?![A-Za-z])")


def standing_settings(paragraph: str) -> tuple[list[str], list[str]]:
    """(values, scalings): the inline equations (their LaTeX) by which the sentences of ``paragraph`` (the prose of
    a display's paragraph before it, earlier displays marked ⟨display⟩) set a value for what follows ("If we let
    $\\sigma^2 = 1/M$"), and the scalings they set ("let $\\sigma^2 \\sim 1/M$"), in order: a sentence that
    ends in prose, or the one that leads into the display (not one that led into an earlier display).  A value set this way holds
    for every display after it in the paragraph; a scaling is no value the checker can use, but a step may hold only
    under it."""
    spans = [(m.start(), m.end(), m.group(1) if m.group(1) is not None else m.group(2)) for m in MATH.finditer(paragraph)]
    inside = [False] * len(paragraph)
    for a, b, _ in spans:
        for i in range(a, b):
            inside[i] = True
    ends = [m.end() for m in SENTENCE_END.finditer(paragraph) if not inside[m.start()]]
    shown = [m.start() for m in re.finditer("⟨display⟩", paragraph)]
    ends += [at + len("⟨display⟩") for at in shown]
    values: list[str] = []
    scalings: list[str] = []
    for a, b, text in spans:
        start = max((e for e in ends if e <= a), default=0)
        if not STANDING.match(paragraph[start:a]):
            continue
        stop = min([e for e in ends if e > b] + [len(paragraph) + 1])
        if any(b <= at < stop for at in shown):
            continue  # "Setting $p = …$, we have ⟨display⟩": the sentence set it for that display only
        if SCALING.search(text) and not ORDER.search(text):
            scalings.append(text)
        elif "=" in text and not ORDER.search(text) and not SCALING.search(text):
            values.append(text)
    return values, scalings
