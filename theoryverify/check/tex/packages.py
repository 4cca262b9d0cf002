"""What a CTAN package the paper loads (``\\usepackage{diffcoeff}``) means by its notation commands, written as the
macro definitions the paper could have written itself — never by running TeX.  A package here is one whose
commands are notation a derivation uses (a derivative), not layout; where the paper defines the same command
itself, its own definition is used.

- ``diffcoeff``: ``\\diffp[n]{f}{x}`` is ∂ⁿ(f)/∂xⁿ, ``\\diff[n]{f}{x}`` is dⁿ(f)/dxⁿ (the order optional; a list of
  variables ``{x,y}`` or mixed orders ``[1,2]`` are left unread, honestly, as the expansion's reader refuses them).
"""
from __future__ import annotations

import re

from .source import USEPACKAGE_RE

#: package -> {command: its definition as a paper would write it}; each defined only where the paper does not
PACKAGE_MACROS: dict[str, dict[str, str]] = {
    "diffcoeff": {
        "\\diffp": r"\providecommand{\diffp}[3][]{\frac{\partial^{#1} (#2)}{\partial #3^{#1}}}",
        "\\diff": r"\providecommand{\diff}[3][]{\frac{d^{#1} (#2)}{d #3^{#1}}}",
    },
}
_DEFINES = r"\\(?:newcommand|renewcommand|providecommand|DeclareRobustCommand|def|let|DeclareMathOperator)\*?\s*\{?\s*"


def package_macros(preamble: str, paper_texts: list[str]) -> list[tuple[str, str]]:
    """(origin, definitions) for the commands of the packages ``preamble`` loads, less those any of
    ``paper_texts`` (the paper and its macro files) defines itself."""
    loaded = {n.strip() for m in USEPACKAGE_RE.finditer(preamble) for n in m.group(1).split(",")}
    out = []
    for package in sorted(loaded & set(PACKAGE_MACROS)):
        kept = [text for name, text in PACKAGE_MACROS[package].items()
                if not any(re.search(_DEFINES + re.escape(name) + r"(?![A-Za-z@])", t) for t in paper_texts)]
        if kept:
            out.append((f"\\usepackage{{{package}}} (its notation, as theoryverify reads it)", "\n".join(kept)))
    return out
