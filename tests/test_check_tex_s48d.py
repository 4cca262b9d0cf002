"""Referee 31's infoclust items (session 48, helper s48-readd): a paper's own macro machinery that the expander did not
follow — qsymbols' backquote shorthands (`` `g `` for γ, ``\\newqsymbol{`1}{\\left}``), a letter-loop helper built on
``\\csname`` (``\\multi*{mc}{\\mathcal{#1}}`` … ``\\multimc ABC.`` defines ``\\mcA`` …), and ``\\bgroup … \\egroup`` /
``\\begingroup … \\endgroup`` as groups that end a body definition's scope.  Every snippet is written for these tests
(the helper's shape follows the one referee 31's paper uses); each test failed on the code before the fix unless it
says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, doc as _doc, proof_align as _proof  # noqa: E402

QSYM = _doc(r"\usepackage{qsymbols}", r"\newqsymbol{`1}{\left}", r"\newqsymbol{`2}{\right}",
            r"\newqsymbol{`R}{\mathbb{R}}")


# 1. qsymbols --------------------------------------------------------------------------------------------------------
def test_package_and_paper_shorthands_are_read_in_maths(tmp_path, capsys):
    # old: "character '`' is not allowed here" on every row
    rows = tex_rows(tmp_path, capsys, _proof(r"`g^2 + 2`g`l + `l^2 &= `1(`g + `l`2)^2 , \\",
                                              r"`a x + `a y &= `a (x + y) ."), preamble=QSYM)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert "gamma" in rows[0]["read_as"] and "lam" in rows[0]["read_as"], rows


def test_a_false_step_with_shorthands_is_still_refuted(tmp_path, capsys):
    # guard: the shorthand stands for the package's symbol, and a wrong step with it is refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"`1(`g + `l`2)^2 &= `g^2 + `l^2 ."), preamble=QSYM)
    assert rows[0]["status"] == "refuted", rows
    assert "gamma" in rows[0]["read_as"], rows


def test_the_package_table_is_its_own_not_a_guess(tmp_path, capsys):
    # qsymbols' `q is θ and `j is ψ (not χ, not θ as other backquote conventions have it); `/ is \setminus
    from theoryverify.check.tex.qsymbols import qsymbol_table, replacements
    table = qsymbol_table([QSYM])
    text = r"\begin{document} $`q + `j$ and $A`/B$ \end{document}"
    got = [new.strip() for _, _, new in replacements(text, 0, table)]
    assert got == [r"\theta", r"\psi", r"\setminus"]


def test_a_backquote_in_prose_stays_a_quote(tmp_path, capsys):
    from theoryverify.check.tex.qsymbols import qsymbol_table, replacements
    table = qsymbol_table([QSYM])
    text = r"\begin{document} the ``good'' case $x \text{ as ``a'' } `a \label{eq:S_`l}$ \end{document}"
    found = replacements(text, 0, table)
    assert [(text[a:b], new.strip()) for a, b, new in found] == [("`a", r"\alpha")]


def test_no_shorthand_without_the_package(tmp_path, capsys):
    # guard: without \usepackage{qsymbols} a backquote in maths is not read as γ; the reason names it
    rows = tex_rows(tmp_path, capsys, _proof(r"`g + `g &= 2 `g ."))
    assert rows[0]["status"] == "unreadable" and "backquote shorthand" in rows[0]["reason"], rows


def test_an_undefined_shorthand_is_unreadable_with_its_reason(tmp_path, capsys):
    # `K is in neither the package's table nor the paper's \newqsymbol: never guessed
    rows = tex_rows(tmp_path, capsys, _proof(r"`K + `K &= 2 `K ."), preamble=QSYM)
    assert rows[0]["status"] == "unreadable" and "backquote shorthand" in rows[0]["reason"], rows


# 2. a letter loop built on \csname ------------------------------------------------------------------------------------
MULTI = _doc(r"\makeatletter",
             r"\def\multi@nostar#1#2{%",
             r"  \expandafter\def\csname multi#1\endcsname##1{%",
             r"    \if ##1.\let\next=\relax \else",
             r"    \def\next{\csname multi#1\endcsname}",
             r"    \expandafter\newcommand\csname #1##1\endcsname{#2}",
             r"    \fi\next}}",
             r"\def\multi@star#1#2{%",
             r"  \expandafter\def\csname #1\endcsname##1{#2}",
             r"  \multi@nostar{#1}{#2}",
             r"}",
             r"\newcommand{\multi}{%",
             r"  \@ifstar \multi@star \multi@nostar}",
             r"\makeatother",
             r"\multi*{mc}{\mathcal{#1}}",
             r"\multi*{R}{\mathsf{#1}}",
             r"\multimc ABCPQ.",
             r"\multiR  ABCD FGHXYZ.")


def test_macros_made_by_a_letter_loop_are_read(tmp_path, capsys):
    # old: "unknown LaTeX command \RZ"
    rows = tex_rows(tmp_path, capsys, _proof(r"\RZ + \RZ &= 2 \RZ , \\", r"\R{W} + \mcP &= \mcP + \mathsf{W} ."),
                    preamble=MULTI)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


def test_a_false_step_with_loop_macros_is_still_refuted(tmp_path, capsys):
    # guard: \RX and \RY are two different names (X and Y in sans-serif), and a wrong step with them is refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"(\RX + \RY)^2 &= \RX^2 + \RY^2 ."), preamble=MULTI)
    assert rows[0]["status"] == "refuted", rows


def test_a_letter_the_loop_skips_is_not_defined(tmp_path, capsys):
    # guard: the loop over "ABCD FGHXYZ." leaves E out: \RE stays unknown (never guessed from the family)
    rows = tex_rows(tmp_path, capsys, _proof(r"\RE + \RE &= 2 \RE ."), preamble=MULTI)
    assert rows[0]["status"] == "unreadable" and "\\RE" in rows[0]["reason"], rows


def test_a_helper_of_another_shape_is_not_read(tmp_path, capsys):
    # guard: the same names, but the loop's body defines \csname #1##1\endcsname as something else: not recognised
    other = MULTI.replace(r"\csname #1##1\endcsname{#2}", r"\csname #1##1\endcsname{#2#2}")
    rows = tex_rows(tmp_path, capsys, _proof(r"\RZ + \RZ &= 2 \RZ ."), preamble=other)
    assert rows[0]["status"] == "unreadable" and "\\RZ" in rows[0]["reason"], rows


def test_a_name_the_paper_defines_itself_is_kept(tmp_path, capsys):
    # guard: \newcommand of a taken name is an error in LaTeX, which keeps the paper's own \mcQ
    rows = tex_rows(tmp_path, capsys, _proof(r"\mcQ + \mcQ &= 2 \mcQ ."),
                    preamble=r"\newcommand{\mcQ}{q_0}" + "\n" + MULTI)
    assert rows[0]["status"] == "proved" and "q[0]" in rows[0]["read_as"].replace(" ", ""), rows


def test_an_operator_family_is_read_as_operator_names(tmp_path, capsys):
    # \multi*{op}{\mathop{\operator@font #1}}: LaTeX's own spelling of \operatorname (J_{\opT} is J_T, as J_{T} is;
    # before the fix of this session's first version, \operator@font leaked into the row as letters of a name)
    from theoryverify.check.tex.multi import loop_definitions
    pre = MULTI + _doc(r"\makeatletter\multi*{op}{\mathop {\operator@font #1}}\makeatother", r"\multiop T.")
    made, _ = loop_definitions([pre])
    assert r"\newcommand{\opT}{\operatorname{T}}" in made and r"\def\op#1{\operatorname{#1}}" in made, made


# 3. \bgroup … \egroup and \begingroup … \endgroup end a body definition's scope ---------------------------------------
def test_a_definition_inside_bgroup_ends_with_its_egroup(tmp_path, capsys):
    # old: the \def\left{left} inside \bgroup … \egroup held to the end of the paper: (a+b)^2 read with "left" letters
    body = _doc(r"\bgroup\def\left{left}\def\right{right}\egroup",
                r"\begingroup\def\a{7}\endgroup",
                displays(r"\left(a+b\right)^2 = a^2 + 2ab + b^2", r"\left(c+d\right)^2 = c^2 + d^2"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    assert "l*e*f*t" not in (rows[0]["read_as"] or "").replace(" ", ""), rows


def test_a_definition_inside_begingroup_holds_inside_it(tmp_path, capsys):
    # guard: inside the group the definition holds (c is 7 there: 7 + 7 = 14 proved, 7 + 7 = 15 refuted)
    body = _doc(r"\begingroup\def\c{7}", displays(r"\c + \c = 14", r"\c + \c = 15"), r"\endgroup")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_group_ends_pairs_each_group_word_with_its_partner():
    from theoryverify.check.tex.scopes import group_ends
    text = r"A \bgroup x \egroup B \begingroup y \endgroup C {\bgroup z} D"
    pos = [text.index("x"), text.index("y"), text.index("z"), text.index("D")]
    ends = group_ends(text, 0, pos)
    assert ends[pos[0]] == text.index(r"\egroup") + len(r"\egroup")
    assert ends[pos[1]] == text.index(r"\endgroup") + len(r"\endgroup")
    assert ends[pos[2]] == len(text)  # an unclosed \bgroup inside braces: closed with them, as before (to the end)
    assert ends[pos[3]] == len(text)
