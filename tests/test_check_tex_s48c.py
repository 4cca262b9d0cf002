"""Referee 32's items on statements, where clauses and cited results (session 48, helper s48-readc): a name a
display's own where clause defines is used, not defined, by the chain link that first writes it; a lemma's display
after a prose condition ("Under … and for $w \\le w_0$,") is its conclusion; a range written beside a definition in a
statement is one side condition.  Every snippet is written for these tests (no paper's text); each test failed on
the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402

_THM = r"\usepackage{amsmath,amsthm}" "\n" r"\newtheorem{lemma}{Lemma}" "\n"


# 1. a where clause of the same display defines the name a chain link writes first ----------------------------------
def test_a_name_the_displays_where_clause_defines_is_used_not_defined_by_the_link(tmp_path, capsys):
    # old: "c^T u = u^T \mathsf{G}^{-1} y" was "names Gsf (its first appearance): defines it, not a step"
    body = _doc(r"The interpolant is", r"\begin{align}",
                r"s(x) &= c^T u = u^T \mathsf{G}^{-1} y, \\",
                r"\text{where } & \qquad c = \mathsf{G}^{-1} y, \quad \mathsf{G} = \bigl(g(x_i, x_j)\bigr) .",
                r"\end{align}")
    rows = tex_rows(tmp_path, capsys, body)
    link = next(r for r in rows if r["read_as"] and r["read_as"].startswith("transpose(c)"))
    assert link["kind"] == "step" and link["status"] != "not_a_step", rows
    assert "where" in link["justification"] and link["status"] == "inconclusive", rows
    assert [r["kind"] for r in rows if r["line"] == 6] == ["definition", "definition"], rows


def test_guard_a_false_step_beside_a_where_clause_is_still_refuted(tmp_path, capsys):
    # guard: the where clause defines c only; a false link among known names is refuted as before
    body = _doc(r"We have", r"\begin{align}",
                r"x + x &= 3 x = c \mathsf{G}, \\",
                r"\text{where } & \qquad c = \mathsf{G}^{-1} y .", r"\end{align}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows


def test_a_name_the_second_definition_of_the_where_prose_gives_is_used_not_defined(tmp_path, capsys):
    # old: "where $c = …$ and $\mathsf{G} = …$" after the display: only the first definition was looked at, and the
    # link that writes G first was "names Gsf (its first appearance): defines it"
    body = _doc(r"The interpolant is", r"\begin{equation}", r"s(x) = c^T u = u^T \mathsf{G}^{-1} y ,",
                r"\end{equation}", r"where $c = \mathsf{G}^{-1} y$ and $\mathsf{G} = (g(x_i, x_j))$.")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[1]["kind"] == "step" and rows[1]["status"] == "inconclusive", rows
    assert "G" in rows[1]["justification"], rows


def test_one_letter_with_two_numbers_of_arguments_is_ambiguous_not_unreadable(tmp_path, capsys):
    # old: unreadable "k was used with 2 argument(s) before; a function has one arity" (k(x_i, x) a kernel, k(x) the
    # vector of its values): now ambiguous with that reason, never checked
    body = _doc(r"We have", r"\begin{equation}", r"\sum_{i=1}^n c_i k(x_i, x) = c^T k(x) .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous", rows
    assert "two objects" in rows[0]["reason"] and len(rows[0]["readings"]) == 2, rows


def test_guard_a_false_step_with_one_arity_is_still_refuted(tmp_path, capsys):
    # guard: the same letter with one number of arguments throughout is checked as before
    body = _doc(r"We have", r"\begin{equation}", r"k(x, y) + 1 = k(x, y) + 2 .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows


# 2. a cited lemma's display after "Under …, and for …," is its conclusion ------------------------------------------
_UNDER = _doc(r"\begin{lemma}", r"  Under stationarity of the chain and for $w \le w_0$,",
              r"  \[ \mathbb{E}_{\pi} [J] = w \, \Delta + R(w), \quad \lVert R(w) \rVert \le C w^{2} . \]",
              r"\end{lemma}")


def test_a_lemma_display_after_an_under_clause_is_its_conclusion(tmp_path, capsys):
    # old: both rows "a hypothesis of the lemma" (the "under" of the prose condition taken for the display's role)
    rows = tex_rows(tmp_path, capsys, _UNDER, preamble=_THM)
    assert [r["kind"] for r in rows] == ["goal", "goal"], rows


def test_guard_a_display_after_assume_or_if_in_a_lemma_stays_a_hypothesis(tmp_path, capsys):
    # guard: "Under …, assume that f satisfies", "Suppose that", "Under …, if": what is supposed
    body = _doc(r"\begin{lemma}", r"  Under stationarity, assume that $f$ satisfies", r"  \[ f(w) \le C w^{2} . \]",
                r"  Then $f$ is small.", r"\end{lemma}",
                r"\begin{lemma}", r"  Suppose that", r"  \[ g(w) \le C w^{2} . \]", r"  Then $g$ is small.",
                r"\end{lemma}",
                r"\begin{lemma}", r"  Under stationarity, if", r"  \[ h(w) \le C w^{2} , \]",
                r"  then $h$ is small.", r"\end{lemma}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_THM)
    assert [r["kind"] for r in rows] == ["hypothesis"] * 3, rows


def test_guard_a_false_step_in_the_proof_of_such_a_lemma_is_refuted(tmp_path, capsys):
    # guard: the conclusion is no fact the proof's steps may rest on; a false step there is refuted as before
    body = _UNDER + _doc(r"\begin{proof}", r"We have", r"\[ w + w = 3 w . \]", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_THM)
    assert rows[-1]["status"] == "refuted", rows


# 3. a range beside a definition in a statement is one side condition ------------------------------------------------
def test_the_range_of_a_defined_index_in_a_lemma_is_one_side_condition(tmp_path, capsys):
    # old: "2 ≤ l" a hypothesis ("a range of a name") and "l ≤ n − 1" "the conclusion of a lemma"
    body = _doc(r"\begin{lemma}", r"  Assume $p = 0$. Set", r"\begin{equation}",
                r"  D_l \coloneqq Q_l \, (e(Z_l) - P e(Z_{l - 1})), \quad 2 \le l \le n - 1 .", r"\end{equation}",
                r"Then $D$ is a martingale difference.", r"\end{lemma}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_THM + "\\providecommand{\\coloneqq}{\\mathrel{\\mathop:}=}\n")
    assert [r["kind"] for r in rows] == ["definition", "hypothesis", "hypothesis"], rows
    assert all("range of its index" in r["reason"] for r in rows[1:]), rows


def test_guard_a_false_inequality_on_the_index_beside_a_definition_is_refuted(tmp_path, capsys):
    # guard: "l + l ≤ l − 5" beside "x_l := 2 l" is a statement about l (the name not alone on its side): a step
    body = _doc(r"\begin{proof}", r"We have", r"\begin{equation}", r"x_l := 2 l , \quad l + l \le l - 5 .",
                r"\end{equation}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_THM)
    assert rows[-1]["kind"] == "step" and rows[-1]["status"] == "refuted", rows
