"""Referee 30's integral and derivative items (session 47, helper s47-reada): an integral whose measure is typeset
``\\textrm{d}\\alpha(x)`` is one integral with its measure, a Leibniz derivative of a bare name (dx/dt, ∂ℓ/∂w, the
Radon–Nikodym dα/dμ) is one unknown, and a labelled name shown with its argument slot, ε_β̂(·), is a function.
Every snippet is written for these tests (no paper's text); each test failed on the code before the fix unless it
says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows  # noqa: E402


# 1. the measure typeset \textrm{d}: part of the integral ------------------------------------------------------------
def test_an_integral_against_a_textrm_measure_keeps_its_measure(tmp_path, capsys):
    # old: "⟦\int_x E[…]⟧ * d * alpha(x)" and "-(log(⟦\int_y …⟧) * d * mu(y))": the measure split off as d·α(x)
    rows = tex_rows(tmp_path, capsys, displays(
        r"m = \int_{x} \mathbb{E}[e^{f(x) - c}]\textrm{d}\alpha(x)",
        r"T(h) = - \log \int_{y} \exp(h(y) - c) \textrm{d}\mu(y)",
        r"q = \int_{x} f(x) \text{d}\alpha(x)"))
    for r in rows:
        shown = r["read_as"] or ""
        assert "* d *" not in shown and "d * " not in shown, rows
        assert r["status"] not in ("proved", "refuted", "holds"), rows
    assert "\\alpha(x)⟧" in rows[0]["read_as"], rows
    assert rows[1]["read_as"].endswith("-log(⟦\\int_{y}\\exp(h(y) - c)\\mathrm{d}\\mu(y)⟧)"), rows


def test_a_definite_integral_with_a_textrm_differential_is_read(tmp_path, capsys):
    # old: ⟦\int_0^1 x^2⟧ * d * x — the integral of the integrand alone times d·x; now Integral(x², (x, 0, 1))
    rows = tex_rows(tmp_path, capsys, displays(r"\int_0^1 x^2 \textrm{d}x = \frac{1}{3}",
                                               r"\int_0^1 x^2 \text{d}x = \frac{1}{2}"))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    assert rows[0]["read_as"].startswith("Integral(x ** 2, (x, 0, 1))"), rows


# 2. a Leibniz derivative of a bare name: one unknown --------------------------------------------------------------
def test_a_radon_nikodym_derivative_is_no_quotient_of_products(tmp_path, capsys):
    # old: "-(d*alpha/(d*mu))" (which simplifies to α/μ) and, typed with plain d, diff(alpha, mu) = 0 — r = dα/dμ refuted
    rows = tex_rows(tmp_path, capsys, displays(
        r"\nabla \omega(\mu, \nu) = (- \frac{\textrm{d} \alpha}{\textrm{d} \mu}, - \frac{\textrm{d} \beta}{\textrm{d} \nu})",
        r"r = \frac{d\alpha}{d\mu}",
        r"s(x) = \frac{d\mu}{d\nu}(x)"))
    assert all("d * " not in (r["read_as"] or "") and "diff(" not in (r["read_as"] or "") for r in rows), rows
    assert all(r["status"] not in ("proved", "refuted", "holds") for r in rows), rows
    assert "⟦\\frac{\\mathrm{d}\\alpha}{\\mathrm{d}\\mu}⟧" in rows[0]["read_as"], rows
    assert rows[2]["read_as"] == "s(x) = ⟦\\frac{d\\mu}{d\\nu}⟧(x)", rows  # the density at x, never dμ/dν times x


def test_the_derivative_of_a_bare_name_is_never_that_of_a_constant(tmp_path, capsys):
    # old: v = dx/dt and g = ∂ℓ/∂w refuted (the derivative of a constant, 0), ∂ℓ/∂w = 0 proved, d/dt x = 0 proved
    rows = tex_rows(tmp_path, capsys, displays(r"v = \frac{dx}{dt}", r"g = \frac{\partial \ell}{\partial w}",
                                               r"\frac{\partial \ell}{\partial w} = 0", r"\frac{d}{dt} x = 0",
                                               r"\frac{\textrm{d} f}{\textrm{d} x} = 0"))
    assert [r["status"] for r in rows] == ["inconclusive"] * 5, rows
    assert rows[0]["read_as"] == "v = ⟦\\frac{d x}{d t}⟧", rows


def test_derivatives_of_expressions_are_still_checked(tmp_path, capsys):
    # guard: d/dx x² = 2x proved, a false derivative refuted, d/dx x = 1 (the variable itself) proved
    rows = tex_rows(tmp_path, capsys, displays(r"\frac{d}{dx} x^2 = 2x", r"\frac{d}{dx} x^3 = 2 x^2",
                                               r"\frac{d x}{dx} = 1", r"\frac{\textrm{d}}{\textrm{d}x} x^2 = 3x",
                                               r"\frac{\partial x_i}{\partial x_i} = 1"))
    assert [r["status"] for r in rows] == ["proved", "refuted", "proved", "refuted", "proved"], rows


# 3. a labelled name with its argument slot: a function ------------------------------------------------------------
def test_a_labelled_name_applied_to_a_slot_is_a_function_beside_a_scalar_letter(tmp_path, capsys):
    # old: "epsilon[betahat] * ⟦\cdot⟧ := …" because ε² is written later (ε_β̂ and ε are different names)
    body = ("We define\n\\begin{equation}\n\\varepsilon_{\\hat \\beta}(\\cdot) \\triangleq f - T_{\\hat\\beta}(g)\n"
            "\\end{equation}\n" + displays(r"C \triangleq \frac{\varepsilon^2}{4}",
                                           r"\varepsilon_{\hat \beta_t}(\cdot) \triangleq f_t - g_t"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("epsilon_betahat(⟦\\cdot⟧) :="), rows
    assert rows[2]["read_as"].startswith("epsilon_betahatt(⟦\\cdot⟧) :="), rows


def test_a_scalar_times_a_bracket_stays_a_product(tmp_path, capsys):
    # guard: η(x + 1) beside η² is η times the bracket, and a false step with it is still refuted
    rows = tex_rows(tmp_path, capsys, displays(r"C = \eta^2", r"\eta (x + 1) = \eta x + \eta",
                                               r"\eta (x + 1) = \eta x + 2 \eta"))
    assert [r["status"] for r in rows[1:]] == ["proved", "refuted"], rows


# 4. a thick space inside an integral is no cut -------------------------------------------------------------------
def test_a_thick_space_inside_an_integral_does_not_split_the_row(tmp_path, capsys):
    # old: "\int_0^1 dx \; x^2 = 1/3" cut at \; — the row's relation became "x^2 = 1/3" (refuted); "\int_0^1 x \; y
    # \, dx = y/2" became "y·d·x = y/2" (refuted); "\int d\lambda\;[f]\;\rho(\lambda) = b" became "\rho(\lambda) = b"
    rows = tex_rows(tmp_path, capsys, displays(r"\int_0^1 dx \; x^2 = \frac{1}{3}",
                                               r"\int_0^1 x \; y \, dx = \frac{y}{2}",
                                               r"\int d\lambda\;[f(\lambda)]\; \rho(\lambda) = b"))
    assert len(rows) == 3, rows
    assert rows[0]["read_as"].endswith("= 1 / 3") and "\\int" in rows[0]["read_as"], rows
    assert rows[0]["status"] != "refuted", rows
    assert rows[1]["read_as"] == "Integral(x * y, (x, 0, 1)) = y / 2" and rows[1]["status"] == "proved", rows
    assert rows[2]["read_as"].startswith("⟦\\int d\\lambda"), rows


def test_a_thick_space_between_two_relations_still_separates_them(tmp_path, capsys):
    # guard: after a closed integral the \; still cuts (b = 2 is its own row); a false integral with a \; inside is
    # refuted on its true reading (before the fix it was refuted too, but as y·d·x = y)
    rows = tex_rows(tmp_path, capsys, displays(r"a = \int_0^1 x\,dx \; b = 2", r"\int_0^1 x \; y \, dx = y"))
    assert [r["read_as"] for r in rows] == ["a = Integral(x, (x, 0, 1))", "b = 2",
                                            "Integral(x * y, (x, 0, 1)) = y"], rows
    assert rows[2]["status"] == "refuted", rows


def test_a_change_of_variables_keeps_its_derivative(tmp_path, capsys):
    # guard (rnn-extrapolation's shape): ∫ g(z) (dz/dt) dt = ∫_{z(0)}^{z(t_1)} g(z) dz — dz/dt under ∫ … dt stays
    # a derivative (the row was inconclusive before, and must not become unreadable); ∫ dx/dt dt is never that of a
    # constant (it had been refuted: a = 0)
    rows = tex_rows(tmp_path, capsys, displays(
        r"\int_0^{t_1}\frac{1}{2 w z - M}\frac{d z}{d t}d t = \int_{z(0)}^{z(t_1)}\frac{1}{2 w z - M}d z",
        r"a = \int_0^1 \frac{dx}{dt} dt"))
    assert "diff(z, t)" in rows[0]["read_as"] and rows[0]["status"] in ("ambiguous", "inconclusive"), rows
    assert rows[1]["status"] in ("ambiguous", "inconclusive"), rows
