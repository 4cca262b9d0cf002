"""Referee 33's per-row readings (session 49, helper s49-a): an align's side condition written in a column of its
own (``|x| &= -x && \\text{if } x < 0``) belongs to its own row only, and a row's bracketed justification that states
a relation (``\\qquad \\text{($\\|x\\| = 1$)}``, ``\\qquad (b = 1)``) is an assumption of the links of that row — one
that cannot be read blocks their refutation ("the display's justification could not be read").  Every snippet is
written for these tests (no paper's text); each test failed on the code before the fix unless it says it is a
guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _steps(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["kind"] == "step"]


# 1. X1: an align's per-row side conditions ---------------------------------------------------------------------------
_TWO_CASES = _doc("For every real $x$,", r"\begin{align*}", r"|x| &= x && \text{if } x \ge 0, \\",
                  r"|x| &= -x && \text{if } x < 0.", r"\end{align*}")
_PLANTED = _doc("For every real $y$,", r"\begin{align*}", r"|y| &= y && \text{if } y \ge 0, \\",
                r"|y| &= y && \text{if } y < 0.", r"\end{align*}")


def test_a_true_two_case_align_is_proved_on_both_rows(tmp_path, capsys):
    # old: row 2 "inconclusive — refuted as read, but the display's side condition could not be read (x < 0)" (both
    # rows' conditions were assumed together: the && column had counted as a row of its own, the whole display's)
    rows = tex_rows(tmp_path, capsys, _TWO_CASES)
    steps = _steps(rows)
    assert [(r["status"], r["read_as"]) for r in steps] == [("proved", "Abs(x) = x"), ("proved", "Abs(x) = -x")], rows
    assert [(r["status"], r["kind"]) for r in rows if r not in steps] == [("not_a_step", "hypothesis")] * 2, rows


def test_the_planted_twin_with_a_false_second_case_is_refuted(tmp_path, capsys):
    # old: both rows "proved" (|y| = y checked under y ≥ 0 as well as y < 0)
    steps = _steps(tex_rows(tmp_path, capsys, _PLANTED))
    assert [r["status"] for r in steps] == ["proved", "refuted"], steps
    assert "y = -1" in steps[1]["reason"], steps


def test_the_empty_cell_spelling_of_the_condition_column_is_read_alike(tmp_path, capsys):
    body = _doc(r"\begin{align*}", r"|y| &= y & &\text{if } y \ge 0, \\", r"|y| &= y & &\text{if } y < 0.",
                r"\end{align*}")
    assert [r["status"] for r in _steps(tex_rows(tmp_path, capsys, body))] == ["proved", "refuted"]


def test_guard_a_condition_on_a_row_of_its_own_is_the_whole_displays(tmp_path, capsys):
    # a row holding nothing but the condition: every chain of the display assumes it (as before)
    body = _doc(r"\begin{align*}", r"\sqrt{a^2} &= a \\", r"|a| &= a \\", r"&& \text{for } a \ge 0.", r"\end{align*}")
    assert [r["status"] for r in _steps(tex_rows(tmp_path, capsys, body))] == ["proved", "proved"]


def test_guard_quad_spelling_keeps_its_per_row_reading(tmp_path, capsys):
    body = _doc(r"\begin{align*}", r"|y| &= y \quad \text{if } y \ge 0, \\", r"|y| &= -y \quad \text{if } y < 0.",
                r"\end{align*}")
    assert [r["status"] for r in _steps(tex_rows(tmp_path, capsys, body))] == ["proved", "proved"]


def test_guard_a_true_cases_definition_stays_proved(tmp_path, capsys):
    # the cases environment is read whole (an indicator reading), not by the side-condition path
    body = _doc(r"\begin{equation*}", r"|x| = \begin{cases} x & \text{if } x \ge 0, \\ -x & \text{if } x < 0. "
                r"\end{cases}", r"\end{equation*}")
    assert [r["status"] for r in _steps(tex_rows(tmp_path, capsys, body))] == ["proved"]


# 2. V3: a row's bracketed justification ----------------------------------------------------------------------------
_UNIT = _doc("For a unit vector $x$ and a matrix $A$,", r"\begin{equation}",
             r"\|A x\| \le \|A\| \, \|x\| = \|A\| \qquad \text{($\|x\| = 1$)}.", r"\end{equation}")


def test_a_norm_fact_in_the_justification_blocks_the_refutation(tmp_path, capsys):
    # old: ‖A‖‖x‖ = ‖A‖ "refuted" at x = 2 (the justification ‖x‖ = 1 was a note only); the checker cannot assume a
    # norm's value, so the refutation is inconclusive and says why
    rows = tex_rows(tmp_path, capsys, _UNIT)
    assert [(r["status"], r["kind"]) for r in rows] == [("inconclusive", "step")] * 2, rows
    assert rows[1]["read_as"] == "norm(A) * norm(x) = norm(A)", rows
    assert "refuted as read, but the display's justification could not be read (norm(x) == 1)" in \
        rows[1]["reason"], rows


def test_a_justification_read_as_a_value_is_assumed(tmp_path, capsys):
    # old: a·b = a refuted at b = -1 (the stated b = 1 unused)
    body = _doc(r"\begin{equation}", r"a b = a \qquad \text{($b = 1$)}.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("holds", "step")], rows
    assert rows[0]["assumptions"] == ["b == 1"], rows


def test_guard_the_planted_twin_under_its_justification_is_refuted(tmp_path, capsys):
    body = _doc(r"\begin{equation}", r"a b = 2 a \qquad \text{($b = 1$)}.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("refuted", "step")], rows
    assert "b = 1" in rows[0]["reason"], rows  # the counterexample keeps b at its stated value


def test_a_bracketed_math_remark_after_spacing_is_the_rows_justification(tmp_path, capsys):
    # old: "unreadable — expected ')', got '='" (the remark read as a factor of the row's right side)
    body = _doc(r"\begin{equation}", r"a b = a \qquad (b = 1).", r"\end{equation}",
                r"\begin{equation}", r"\|A\| \, \|x\| = \|A\| \qquad (\|x\| = 1).", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("holds", "step"), ("inconclusive", "step")], rows
    assert "justification could not be read" in rows[1]["reason"], rows


def test_a_justification_belongs_to_its_own_row(tmp_path, capsys):
    # d = 0 justifies the second row's step; the first row's step does not rest on it
    body = _doc(r"\begin{align}", r"c d &= c \\", r"&= c + d \qquad \text{($d = 0$)}.", r"\end{align}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted", "holds"], rows
    assert rows[1]["assumptions"] == ["d == 0"], rows


def test_a_justification_with_words_beside_its_relation_blocks_the_refutation(tmp_path, capsys):
    # "(by Lemma 2 with $c = 1$)": the words may state more than c = 1 — not read, so no refutation stands
    body = _doc(r"\begin{equation}", r"a c = 2 a \qquad \text{(by Lemma 2 with $c = 1$)}.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("inconclusive", "step")], rows
    assert "the display's justification could not be read (" in rows[0]["reason"], rows


def test_guard_a_justification_of_words_only_keeps_the_refutation(tmp_path, capsys):
    body = _doc(r"\begin{equation}", r"a b = 2 a b \qquad \text{(by Cauchy--Schwarz)}.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("refuted", "step")], rows


def test_a_justification_contradicting_the_other_assumptions_blocks_the_refutation(tmp_path, capsys):
    # after merging s49-a with s49-b (whose _usable also returns the clashing assumptions) this path raised
    rows = tex_rows(tmp_path, capsys, _doc("Let $b < 1$. We have", r"\begin{equation}",
                                           r"b + b = 3 \qquad (b = 5) .", r"\end{equation}"))
    assert rows[0]["status"] == "inconclusive" and "contradicts" in rows[0]["reason"], rows
