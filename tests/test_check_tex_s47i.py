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


# 2. f(\bx) of a function f; the left side of ":=" with an argument list is a function being defined ---------------
def test_a_function_of_a_bold_point_is_applied_when_the_prose_says_space_of_functions(tmp_path, capsys):
    # old: "Abs(f * xbf - g(xbf))": \forall f and \lVert f counted as f written as a factor (f·x)
    rows = tex_rows(tmp_path, capsys, _doc(r"Suppose that $f$ belongs to a space of functions on $\Omega$ and $g$ is "
                                           r"another such function. Then", r"\begin{equation}",
                                           r"\lvert f(\bx) - g(\bx) \rvert \le \lVert f - g \rVert \qquad \forall f.",
                                           r"\end{equation}"), preamble=r"\newcommand{\bx}{{\boldsymbol{x}}}" + "\n")
    assert rows[0]["read_as"] == "Abs(f(xbf) - g(xbf)) <= norm(f - g)", rows


def test_the_left_side_of_a_definition_with_an_argument_list_is_a_function(tmp_path, capsys):
    # old: "A[t] * Xsf := …" (A is written as a factor, A B_0) and "B * Xsf := …" where B_{t0} is also written
    rows = tex_rows(tmp_path, capsys, _doc(
        r"One measure is", r"\begin{equation}", r"B(\mX) := \frac{e(\mX)}{c} + B_{t0} .", r"\end{equation}",
        r"For the trend part,", r"\begin{equation}", r"A_t(\mX) := \frac{A B_{0}}{B_{0} - B_{t}(\mX)} .",
        r"\end{equation}", r"and the target", r"\begin{equation}",
        r"T^{RR}_{n}(u) := u^\top \mathcal{T}_n , \qquad \Xi(u) := T^{RR}_{n}(u) / 2 + T^{RR}_n .", r"\end{equation}"),
        preamble=r"\newcommand{\mX}{\mathsf{X}}" + "\n")
    read = [r["read_as"] for r in rows]
    assert read[0].startswith("B(Xsf) := "), rows
    assert read[1].startswith("A_t(Xsf) := A * B[0] / (B[0] - "), rows
    assert read[2].startswith("Tsup_n_RR(u) := "), rows
    assert all(r["kind"] == "definition" for r in rows), rows


def test_the_right_side_of_an_eqqcolon_with_an_argument_list_is_a_function(tmp_path, capsys):
    # old: "W[t] * (alpha + 1)" and "V * (alpha + 1)" on the right of =: where W_t and V are also written as factors
    rows = tex_rows(tmp_path, capsys, _proof(r"a(\alpha) + b(\alpha) &=: W_t(\alpha + 1) , \\",
                                              r"2 W_t &\le 3 W_t + W_t^2 , \\",
                                              r"a(\alpha) + 2 b(\alpha) &=: V(\alpha + 1) , \\", r"2 V &\le 3 V + V^2 ."))
    assert [r["read_as"] for r in rows if r["kind"] == "definition"] == [
        "a(alpha) + b(alpha) =: W_t(alpha + 1)", "a(alpha) + 2 * b(alpha) =: V(alpha + 1)"], rows


def test_guard_a_declared_scalar_before_a_bracket_stays_a_product(tmp_path, capsys):
    # guard: c(a + b) = ca + cb with c a declared scalar is a product (proved); the false c(a + b) = ca + 2cb refuted
    rows = tex_rows(tmp_path, capsys, "% theoryverify: scalar c\n" +
                    _proof(r"c(a + b) &= c a + c b , \\", r"c(a + b) &= c a + 2 c b ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_guard_a_definition_whose_left_side_is_no_lone_call_is_left_alone(tmp_path, capsys):
    # guard: "u(v + w) + 1 := …" is no name applied to its whole side: read as before (u·(v + w) + 1, or refused)
    rows = tex_rows(tmp_path, capsys, _proof(r"2 u &\le 3 u , \\", r"u (v + w) + 1 &:= q ."))
    assert "u(" not in (rows[-1]["read_as"] or "").replace(" ", ""), rows


def test_a_defined_labelled_function_is_applied_where_it_is_used(tmp_path, capsys):
    # T_{n}^{RR}(u) := … defines a function; its later use T_{n}^{RR}(u) = … is that function applied (it had been read
    # as the product Tsup_n_RR·u, silently, once the definition was read), though T_n^{RR} is also written bare
    rows = tex_rows(tmp_path, capsys, _doc(
        r"Let", r"\begin{equation}", r"T_{n}^{\mathrm{RR}}(u) := u^{\mathsf{T}} \mathcal{T}_{n}^{\mathrm{RR}} .",
        r"\end{equation}", r"Then", r"\begin{equation}",
        r"T_{n}^{\mathrm{RR}}(u) = \sqrt{m} u^\top x , \qquad 2 T_{n}^{\mathrm{RR}} \le 3 .", r"\end{equation}"))
    assert rows[0]["read_as"].startswith("Tsup_n_RR(u) := "), rows
    assert rows[1]["read_as"].startswith("Tsup_n_RR(u) = "), rows
    assert "Tsup_n_RR * u" not in str([r["read_as"] for r in rows]), rows
