"""Convergence arrows of probability: ``X_n \\xrightarrow{d} X``, ``\\xrightarrow{\\mathcal{D}}``, ``\\overset{d}{\\to}``,
``\\stackrel{d}{\\longrightarrow}`` (in distribution), ``\\xrightarrow{p}`` (in probability), ``\\xrightarrow{a.s.}``
(almost surely), ``\\xrightarrow{L^2}`` (in mean).

Such an arrow states a relation between random variables (their laws, or their values on almost every outcome as n
grows), never one between numbers: the display is a row of kind ``probabilistic``, not a step, never checked nor
refuted.  Before, the arrow was no relation at all (``\\to`` separates a map's domain from its range), and the
display gave no row.  An arrow whose label says no mode (``x_k \\xrightarrow{k\\to\\infty} x``, ``\\xrightarrow{f}`` in a
diagram) is left as before."""

from __future__ import annotations

import re

from ..latex import Token

#: the op of a convergence link (no LaTeX command of that name is read anywhere else)
CONVERGES = "\\converges"
#: arrows a mode label may be set over
ARROWS = ("\\to", "\\rightarrow", "\\longrightarrow")
_WRAP = r"\\(?:math(?:cal|scr|rm|sf|bb|bf|it)|text(?:rm|up|it)?|rm|operatorname|mbox)\s*\{?\s*"
#: (the label, without spaces, as the tokens write it) → the mode it names
MODES = ((re.compile(rf"(?:{_WRAP})?(?:d|D|law|L|dist|distr)\}}?"), "in distribution"),
         (re.compile(rf"(?:{_WRAP})?(?:p|P|pr|prob|Pr)\}}?|\\Pr|\\PP|\\mathbb\{{?P\}}?"), "in probability"),
         (re.compile(rf"(?:{_WRAP})?(?:a\.s\.?|as|a\.e\.?|w\.p\.1|wp1)\}}?"), "almost surely"),
         (re.compile(rf"(?:{_WRAP})?(?:L|\\ell)\}}?(?:\^|_)\{{?(?:\d|p|q|r|\\infty)\}}?|(?:L|\\ell)(?:\d|p|q)"),
          "in mean (L^p)"))


def mode(label: str) -> str:
    """The mode of convergence ``label`` names ("in distribution", "in probability", "almost surely", "in mean
    (L^p)"), or "" when it names none."""
    bare = re.sub(r"\s+", "", label or "")
    while bare.startswith("{") and bare.endswith("}"):
        bare = bare[1:-1]
    for pattern, name in MODES:
        if pattern.fullmatch(bare):
            return name
    return ""


def why(label: str) -> str:
    """The reason a convergence row is no step."""
    return (f"convergence {mode(label)} (an arrow labelled {label}): a statement about random variables as the index "
            "grows, not about numbers — not a step (never checked pointwise)")


def shown(label: str) -> str:
    """The op as a row's reading shows it: ``→_d``, ``→_p``, ``→_a.s.``, ``→_L^p``."""
    return "->_" + {"in distribution": "d", "in probability": "p", "almost surely": "a.s."}.get(mode(label), "L^p")


def _group_end(toks: list[Token], k: int) -> int:
    """The index of the ``}`` that closes the group opening at ``toks[k]`` (-1 when none)."""
    depth = 0
    for j in range(k, len(toks)):
        depth += toks[j].text == "{"
        depth -= toks[j].text == "}"
        if depth == 0:
            return j
    return -1


def _label(toks: list[Token]) -> str:
    return "".join(t.text if not t.text[:1] == "\\" or not t.text[1:2].isalpha() else t.text + " " for t in toks).strip()


def convergence_arrows(toks: list[Token]) -> list[Token]:
    """``toks`` with each convergence arrow whose label names a mode (``\\xrightarrow{d}``, ``\\xrightarrow[]{p}``,
    ``\\overset{d}{\\to}``, ``\\stackrel{a.s.}{\\longrightarrow}``) one relation token :data:`CONVERGES`, its label
    kept; every other token as it was."""
    if not any(t.text in ("\\xrightarrow", "\\overset", "\\stackrel") for t in toks):
        return toks
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text == "\\xrightarrow":
            k = i + 1
            if k < len(toks) and toks[k].text == "[":  # \xrightarrow[below]{above}
                k = next((j for j in range(k, len(toks)) if toks[j].text == "]"), -1) + 1
            if 0 < k < len(toks) and toks[k].text == "{":
                end = _group_end(toks, k)
                label = _label(toks[k + 1:end]) if end > 0 else ""
                if end > 0 and mode(label):
                    out.append(Token("cmd", CONVERGES, t.pos, label=label))
                    i = end + 1
                    continue
        if t.text in ("\\overset", "\\stackrel") and i + 1 < len(toks) and toks[i + 1].text == "{":
            end = _group_end(toks, i + 1)
            label = _label(toks[i + 2:end]) if end > 0 else ""
            rest = toks[end + 1:end + 4] if end > 0 else []
            arrow = None
            if rest and rest[0].text in ARROWS:
                arrow = end + 2
            elif len(rest) == 3 and rest[0].text == "{" and rest[1].text in ARROWS and rest[2].text == "}":
                arrow = end + 4
            if arrow is not None and mode(label):
                out.append(Token("cmd", CONVERGES, t.pos, label=label))
                i = arrow
                continue
        out.append(t)
        i += 1
    return out
