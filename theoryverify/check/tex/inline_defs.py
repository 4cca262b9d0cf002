"""Functions the prose defines in inline math: "For $f(x) = x_1^2 + x_2$ and any point $\\bar x$ we have",
"Let $g(t) := e^{-t}$", "Consider the function $h(u, v) = u v$".

A displayed definition ``f(x) := …`` is used by the steps after it in its scope (a proof, a lemma; see
``Paper._define``).  The same definition written inline in the sentence before was not: the step after it read f as an
unknown (and ∂f(x̄)/∂x could not be computed).  Here only an inline equation whose words right before it define
("for", "let", "define", "consider", "take", "set", "given", "suppose", "where", "assume", with "the function" and
the like between) and whose left side is a name applied to a bracket of arguments (``f(x)``, ``h(u, v)``) is a
candidate; ``Paper`` reads it as a definition (``=`` read as ``:=``) and uses it under the rules of a displayed one
(its scope, its readability).  "if $f(x) = 0$", "we show $f(x) = x$" are no candidates: those words state a case or
a claim."""

from __future__ import annotations

import re

#: the words right before the inline math that make its equation a definition
DEFINING_WORDS = re.compile(r"\b(?:for|let|define|defining|consider|considering|take|taking|set|setting|given|"
                            r"suppose|where|assume|assuming|fix|fixing)\b"
                            r"(?:\s+(?:the|a|an|some|our|now|again|instance|example|simple|smooth|convex|quadratic|"
                            r"objective|function|functions|map|loss|cost|potential))*\s*$", re.I)
#: ``f(x) = …``, ``h(u, v) := …``, ``\phi(t) = …``: a name applied to plain arguments, then one definition sign
APPLIED_LHS = re.compile(r"^\s*(?:\\[A-Za-z]+|[A-Za-z])(?:_\{?[A-Za-z0-9]\}?)?\s*"
                         r"(?:\\left)?\(\s*(?:\\[A-Za-z]+|[A-Za-z])(?:\s*,\s*(?:\\[A-Za-z]+|[A-Za-z]))*\s*(?:\\right)?\)"
                         r"\s*(?::=|=|\\coloneqq|\\triangleq|\\eqqcolon)(?!=)")


def candidates(inline: list[tuple[int, str]], text: str) -> list[tuple[int, str]]:
    """(offset, the equation as a definition, ``:=`` for its sign) of each inline equation of ``inline`` ((offset of
    its opening ``$`` in ``text``, its LaTeX)) that the words before it say defines a function, in document order."""
    out = []
    for pos, math in inline:
        m = APPLIED_LHS.match(math)
        if not m or math.count("=") > 1 or re.search(r"[<>]|\\[lg]eq?\b|\\ne", math):
            continue  # one equation, no inequality: "f(x) = x^2 \le 1" states more than a definition
        before = text[max(0, pos - 80):pos]
        sentence = re.split(r"[.;:!?]\s|\$", before)[-1] if before else ""
        if not DEFINING_WORDS.search(sentence):
            continue
        sign = m.group(0).rstrip()
        body = math[m.end():]
        head = sign[:-len(re.search(r"(?::=|=|\\coloneqq|\\triangleq|\\eqqcolon)$", sign).group(0))]
        out.append((pos + 1, f"{head} := {body}"))
    return out
