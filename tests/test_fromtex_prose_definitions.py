"""``new-paper --from-tex`` notes a name the prose defines inline (author 11's D4).

"One gradient step with residual $r = a b x - y$" left r a free ``Symbol('r')`` in the drafted displays with no word
that the prose defines it: a claim true only with r = abx − y would be refuted on an r the paper never allows.  Each
drafted display that keeps such a name free now carries ``# NOTE the prose defines r: $r = a b x - y$ (FILE:LINE)``.
Planted: a value (``$x = 0$``, a setting or condition) and a name the display does not use get no note."""
from __future__ import annotations

from pathlib import Path

from theoryverify import fromtex

TEX = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section{A two-layer scalar model}
One gradient step with residual $r = a b x - y$ and step $\eta$ at $x = 0$ and $\lambda = \mu + 1$ gives
\begin{equation}\label{eq:grada}
a_{+} = a - \eta r b x .
\end{equation}
and with $s = 2 a$ unused here,
\begin{equation}\label{eq:plain}
(a + b)^2 = a^2 + 2 a b + b^2 .
\end{equation}
\end{document}
"""


def _module(tmp_path: Path) -> str:
    tex = tmp_path / "paper.tex"
    tex.write_text(TEX, encoding="utf-8")
    draft = fromtex.read(tex)
    return fromtex.printed_module(draft, 1)


def test_a_name_the_prose_defines_inline_is_noted_beside_the_display_that_keeps_it_free(tmp_path):
    code = _module(tmp_path)
    grada = code[code.index("def eq_grada"):code.index("def eq_plain")]
    assert "# NOTE the prose defines r: $r = a b x - y$ (paper.tex:5)" in grada, grada
    assert "x a free" not in grada  # $x = 0$ is a value (a setting or a condition), not a definition


def test_no_note_where_the_display_does_not_use_the_name(tmp_path):
    code = _module(tmp_path)
    plain = code[code.index("def eq_plain"):]
    assert "prose defines" not in plain, plain


def test_a_greek_name_is_matched_by_the_readers_name(tmp_path):
    tex = tmp_path / "paper.tex"
    tex.write_text(TEX.replace(r"a - \eta r b x", r"a - \lambda r b x"), encoding="utf-8")
    code = fromtex.printed_module(fromtex.read(tex), 1)
    assert "# NOTE the prose defines lam: $\\lambda = \\mu + 1$" in code, code
