"""Session 46, helper s46-readc: definite (nested) integrals evaluated, and rows with ± / ∓ read as their two sign
choices.  Every snippet is written for these tests (no paper's text; the integral test is modelled on the shape of a
referee's finding: a Gaussian double integral over the quadrant claimed to be 1/(4π) after a factor 1/(4π), when the
integral is π/2).  Each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, proof_align as _proof  # noqa: E402


def _by_line(rows):
    return {r["line"]: r for r in rows}


# 1. definite integrals, nested, with constant or variable bounds ---------------------------------------------------
def test_nested_definite_integrals_are_evaluated_exactly(tmp_path, capsys):
    # old: every integral one opaque atom — the false 1/3 (and the false 1/(4π)) inconclusive
    rows = tex_rows(tmp_path, capsys, displays(
        r"\int_0^1 \int_0^x y \, dy \, dx = \frac{1}{6}",
        r"\int_0^1 \int_0^x y \, dy \, dx = \frac{1}{3}",
        r"\frac{1}{4\pi} \int_{0}^{\infty} \int_{0}^{\infty} e^{-u^2/2} e^{-v^2/2} \mathrm{d} u \, \mathrm{d} v"
        r" = \frac{1}{8}",
        r"\frac{1}{4\pi} \int_{0}^{\infty} \int_{0}^{\infty} e^{-u^2/2} e^{-v^2/2} \mathrm{d} u \, \mathrm{d} v"
        r" = \frac{1}{4 \pi}",
        r"\iint_{[0,1]^2} x y \, dx \, dy = \frac{1}{4}",
        r"\iint_{[0,1]\times[0,2]} x y \, dx \, dy = \frac{1}{4}"))
    assert [r["status"] for r in rows] == ["proved", "refuted", "proved", "refuted", "proved", "refuted"], rows
    assert "Integral(Integral(y, (y, 0, x)), (x, 0, 1))" in rows[0]["read_as"], rows[0]
    assert "(v, 0, oo)" in rows[3]["read_as"], rows[3]


def test_interleaved_differentials_pair_innermost_first(tmp_path, capsys):
    # ∫∫ A du B dv: B belongs to the outer integrand only (the inner differential does not end it)
    rows = tex_rows(tmp_path, capsys, displays(
        r"\int_0^1 \int_0^2 u \, du \, v^2 \, dv = \frac{2}{3}",
        r"\int_0^1 \int_0^2 u \, du \, v^2 \, dv = \frac{2}{3} v^2"))
    assert rows[0]["status"] == "proved", rows[0]
    assert rows[1]["status"] != "proved", rows[1]


def test_integral_without_closed_form_by_quadrature_with_its_error(tmp_path, capsys):
    # no closed form: scipy's nquad, the error stated; a gap far beyond it refutes, one within it decides nothing
    f = r"\int_0^1 \int_0^1 \frac{1}{1 + x^3 y^5 + \cos(x y)} \, dx \, dy"
    rows = tex_rows(tmp_path, capsys, displays(f + " = 7", f + " = 0.503338623727", f + " = 0.50333863"))
    assert rows[0]["status"] == "refuted", rows[0]
    assert "numerical quadrature" in rows[0]["reason"] and "error" in rows[0]["reason"], rows[0]
    assert [r["status"] for r in rows[1:]] == ["holds", "holds"], rows  # never "proved" on a numerical value
    assert "within the quadrature error bound" in rows[2]["reason"], rows[2]


def test_integral_of_an_undeclared_function_stays_inconclusive(tmp_path, capsys):
    # guard: f unknown, the integral is no number; a family x_t under dt varies with t (never a constant integrated)
    rows = tex_rows(tmp_path, capsys, "Let $f$ be a function.\n" + displays(
        r"\int_0^1 f(x) \, dx = \frac{1}{2}",
        r"\int_0^1 x_t \, dt = x_t",
        r"\int_0^1 \frac{1}{1 + t x^3 + \cos(x)} \, dx = t"))
    assert [r["status"] for r in rows] == ["inconclusive"] * 3, rows


def test_indefinite_and_region_integrals_stay_opaque(tmp_path, capsys):
    # guard: no bounds (or a region), no value: the integral stays one unknown, as before
    rows = tex_rows(tmp_path, capsys, displays(r"\int x \, dx = \frac{x^2}{3}", r"\int_A g(x) \, dx = 1"))
    assert all(r["status"] == "inconclusive" and "⟦" in r["read_as"] for r in rows), rows


def test_a_value_stated_for_a_name_never_replaces_an_integration_variable(tmp_path, capsys):
    # "Let x = 2": x outside the integral is 2; the x the integral binds is its own variable (it had been replaced
    # too, and the integral lost its variable)
    rows = tex_rows(tmp_path, capsys, "Let $x = 2$. Then\n" + displays(r"x + \int_0^1 x \, dx = \frac{5}{2}",
                                                                        r"x + \int_0^1 x \, dx = 3"))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


# 2. rows with ± / ∓: two relations, one for each sign choice --------------------------------------------------------
def test_plus_minus_rows_are_checked_for_both_sign_choices(tmp_path, capsys):
    # old: every row with ± or ∓ unreadable ("the relation is two relations")
    rows = tex_rows(tmp_path, capsys, _proof(
        r"(a \pm b)^2 &= a^2 \pm 2ab + b^2 , \\",
        r"\cos(x \pm y) &= \cos x \cos y \mp \sin x \sin y , \\",
        r"u \pm v &\le |u| + |v| ."))
    assert [r["status"] for r in rows] == ["proved", "proved", "holds"], rows
    assert "(a - b) ** 2 = a ** 2 - 2 * a * b + b ** 2" in rows[0]["read_as"], rows[0]
    assert "cos(x - y) = cos(x) * cos(y) + sin(x) * sin(y)" in rows[1]["read_as"], rows[1]  # ∓ is + when ± is −


def test_plus_minus_row_false_for_one_sign_is_inconclusive_saying_which(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"(a \pm b)^2 &= a^2 + 2ab + b^2 , \\",
                                             r"(c \pm d)^2 &= c^2 - 2cd + d^2 ."))
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert "with the upper (± as +, ∓ as −) sign only" in rows[0]["reason"], rows[0]
    assert "with the lower (± as −, ∓ as +) sign only" in rows[1]["reason"], rows[1]


def test_plus_minus_row_false_for_both_signs_is_refuted(tmp_path, capsys):
    # guard: the reading of ± cannot hide a real error — wrong for both choices, refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"(a \pm b)^2 &= a^2 \mp 2ab + b^2 , \\",
                                             r"\sin(x \pm y) &= \sin x \cos y \mp \cos x \sin y ."))
    assert [r["status"] for r in rows] == ["refuted", "refuted"], rows
    assert "refuted for both sign choices" in rows[0]["reason"], rows[0]


def test_listed_roots_with_plus_minus_stay_a_solution(tmp_path, capsys):
    # guard: x_{1,2} = (−b ± √…)/2a, x = …, x_± = … list a name's values (the roots), never a step to refute
    rows = tex_rows(tmp_path, capsys, "Let $a x^2 + b x + c = 0$. The roots are\n" + displays(
        r"x_{1,2} = \frac{-b \pm \sqrt{b^2-4ac}}{2a}") + _proof(
        r"x &= \frac{-b \pm \sqrt{b^2-4ac}}{2a} , \\",
        r"x_{\pm} &= \frac{-b \pm \sqrt{b^2-4ac}}{2a} ."))
    rows = [r for r in rows if "\\pm" in r["latex"]]
    assert len(rows) == 3 and all(r["status"] == "not_a_step" and r["kind"] == "definition" for r in rows), rows


def test_a_definite_integral_is_drafted_without_a_lost_name(tmp_path):
    # from-tex: the variable ∫_0^1 g(t) dt binds is no name the SymPy form lost (it had asked for a review)
    from theoryverify import fromtex
    f = tmp_path / "paper.tex"
    f.write_text("\\documentclass{article}\n\\begin{document}\nLet $g$ be a function. We have\n"
                 "\\begin{equation}\\label{eq:int}\n\\int_0^1 g(t)\\, dt + 1 = 1 + \\int_0^1 g(t)\\, dt\n"
                 "\\end{equation}\n\\end{document}\n")
    draft = fromtex.read(f)
    entry = next(e for e in draft.entries if "eq:int" in e.labels)
    assert entry.relations and not entry.review and entry.transcribed, (entry.review, entry.unread, entry.opaque)


def test_a_differential_macro_and_a_fraction_bound_are_read(tmp_path, capsys):
    # \du = \mathop{}\!\mathrm{d} (the empty group had been read as a name ''), ^\frac{a}{b} (both groups the bound)
    rows = tex_rows(tmp_path, capsys, displays(r"\int_{0}^{1} y^2 \du y = \frac{1}{3}",
                                               r"\int_{0}^\frac{1}{2} 2 y \du y = \frac{1}{4}",
                                               r"\int_{0}^\frac{1}{2} 2 y \du y = \frac{1}{2}"),
                    preamble="\\newcommand{\\du}{\\mathop{}\\!\\mathrm{d}}\n")
    assert [r["status"] for r in rows] == ["proved", "proved", "refuted"], rows


def test_quadrature_over_an_infinite_range_and_an_untrusted_estimate(tmp_path, capsys):
    # ∫_0^∞ by quadrature refutes a value far off (the ∞ shown as ∞: 'oo' in the evidence had marked a side undefined);
    # where quadpack warns (subdivisions exhausted on an oscillating integrand) its error is not trusted: no value
    rows = tex_rows(tmp_path, capsys, displays(r"\int_0^{\infty} \frac{e^{-x}}{2 + \cos(x)} \, dx = 5",
                                               r"\int_0^{\infty} \frac{e^{-x}}{2 + \cos(x^2 + x)} \, dx = 5"))
    assert [r["status"] for r in rows] == ["refuted", "inconclusive"], rows
    assert "numerical quadrature" in rows[0]["reason"] and "∞" in rows[0]["reason"], rows[0]
    assert "no value with an error estimate it can trust" in rows[1]["reason"], rows[1]
