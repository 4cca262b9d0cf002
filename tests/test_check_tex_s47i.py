"""Referee 32's reading items (session 47, helper s47-readi): an align row that opens with a binary operator after
spacing continues the right side above (never a relation of its own), and the left side of a ``:=`` definition with
an argument list is a function being defined (never a product).  Every snippet is written for these tests (no
paper's text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc, proof_align as _proof  # noqa: E402


# 1. "… \le A s \\ \nonumber &\qquad + B t =: E": one relation, its right side whole ----------------------------------
def test_an_operator_row_after_spacing_continues_the_right_side_and_the_definition(tmp_path, capsys):
    # old: two rows, "|f(x) - a(x)| <= A*evar(x)*s" (the bound cut short) and "B*r(x)*t =: E(x)" (the definition
    # losing its first term)
    rows = tex_rows(tmp_path, capsys, _doc(r"For all $f$ in the cone,", r"\begin{align}",
                                           r"\lvert f(x) - a(x) \rvert", r"& \le A \, e(x) \, s \\", r"\nonumber",
                                           r"&\qquad + B \, r(x) \, t", r"=: E(x) .", r"\end{align}"))
    read = [r["read_as"] for r in rows]
    assert read == ["Abs(f(x) - a(x)) <= A * evar(x) * s + B * r(x) * t",
                    "A * evar(x) * s + B * r(x) * t =: E(x)"], rows
    assert rows[1]["kind"] == "definition", rows


def test_a_true_bound_written_across_two_lines_is_not_refuted_on_its_first_line(tmp_path, capsys):
    # old: "x^2 + 1 \le x^2" (the first line alone) was refuted; the bound is x^2 + 1 <= x^2 + 2, true
    rows = tex_rows(tmp_path, capsys, _proof(r"x^2 + 1 &\le x^2 \\ \nonumber", r"&\qquad + 2 =: E ."))
    assert rows[0]["status"] in ("proved", "holds"), rows
    assert [r["read_as"] for r in rows] == ["x ** 2 + 1 <= x ** 2 + 2", "x ** 2 + 2 =: E"], rows


def test_guard_a_false_bound_written_across_two_lines_is_refuted_on_its_full_right_side(tmp_path, capsys):
    # guard: x^2 + 3 <= x^2 + 2 is false, and its refutation rests on the whole right side
    rows = tex_rows(tmp_path, capsys, _proof(r"x^2 + 3 &\le x^2 \\ \nonumber", r"&\qquad + 2 =: E ."))
    assert rows[0]["status"] == "refuted", rows
    assert [r["read_as"] for r in rows] == ["x ** 2 + 3 <= x ** 2 + 2", "x ** 2 + 2 =: E"], rows


def test_guard_a_spaced_row_with_its_own_left_side_still_starts_anew(tmp_path, capsys):
    # guard: "\qquad y + 1 \le 3" after spacing (no leading operator) is a relation of its own, refuted alone
    rows = tex_rows(tmp_path, capsys, _proof(r"x &\le x + 1 , \\", r"&\qquad y^2 + 4 \le 3 ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
