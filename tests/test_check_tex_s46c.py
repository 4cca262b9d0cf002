"""Session 46, helper s46-readc: definite (nested) integrals evaluated, and rows with ± / ∓ read as their two sign
choices.  Every snippet is written for these tests (no paper's text; the integral test is modelled on the shape of a
referee's finding: a Gaussian double integral over the quadrant claimed to be 1/(4π) after a factor 1/(4π), when the
integral is π/2).  Each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows  # noqa: E402


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
