"""Referee 28's critical and high defects (session 45): a double integral's outer integrand read as factors outside
it (a false identity proved), and an expectation sign braced by a paper's macro (``{\\mathbf{{E}}}_\\mu[X]``) read as
a product (a true step refuted).  Snippets written for these tests (no paper's text)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows  # noqa: E402


def _display(*lines: str) -> str:
    return "\n".join([r"\begin{equation}", *lines, r"\end{equation}", ""])


def test_a_nested_integral_keeps_its_outer_integrand_inside(tmp_path, capsys):
    """∫∫ x dx y dy = y ∫∫ x dx dy is false (1/4 against y/2); it had been proved, the outer y dy read as factors
    y·d·y outside an integral that ended at the inner dx."""
    rows = tex_rows(tmp_path, capsys, _display(
        r"\int_0^1 \int_0^1 u \,\mathrm{d}u \, v \,\mathrm{d}v = v \int_0^1 \int_0^1 u \,\mathrm{d}u \,\mathrm{d}v"))
    assert [r["status"] for r in rows] == ["inconclusive"], rows
    # (since session 46 a definite integral is read, not one opaque atom: the outer integrand v is inside the outer one)
    assert "* d * v" not in rows[0]["read_as"], rows
    assert rows[0]["read_as"].startswith("Integral(Integral(u, (u, 0, 1)) * v, (v, 0, 1)) = "), rows
    rows = tex_rows(tmp_path, capsys, _display(r"\iint u \, du \, dv \, w = w \iint u \, du \, dv"))
    assert rows[0]["status"] == "proved", rows  # \iint takes two differentials; w is outside: a true step


def test_two_integrals_side_by_side_stay_two(tmp_path, capsys):
    """Guard: ∫ f dx · ∫ g dy (a product of integrals) ends the first at dx, and a true rearrangement is proved."""
    rows = tex_rows(tmp_path, capsys, _display(
        r"\int_0^1 u \,du \int_0^1 v \,dv = \int_0^1 v \,dv \int_0^1 u \,du"))
    assert [r["status"] for r in rows] == ["proved"], rows


def test_an_expectation_braced_by_a_macro_is_an_expectation(tmp_path, capsys):
    """``\\newcommand{\\Ex}{{\\mathbf{{E}}}}``: ``\\Ex_\\mu[c] = c`` had been read Ebf[μ]·c = c and refuted."""
    body = "\n".join([r"\newcommand{\Ex}{{\mathbf{{E}}}}", "Let $c$ be a constant.",
                      _display(r"\Ex_{\mu}\left[c\right] = c"),
                      _display(r"\Ex_{\mu}\left[Y^2\right] \ge \Ex_{\mu}\left[Y\right]^2")])
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert all("Ebf" not in r["read_as"] for r in rows), rows
    assert rows[0]["read_as"].startswith("⟦{\\mathbf{{E}}}_{\\mu}"), rows


def test_a_braced_group_that_is_not_a_sign_is_still_a_group(tmp_path, capsys):
    """Guard: ``{E}(x + 1)`` style groups other than an expectation sign are read as before (a wrong square refuted)."""
    rows = tex_rows(tmp_path, capsys, _display(r"{(x + 1)}^2 = x^2 + 2x + 2"))
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_an_unknown_written_in_the_differentiation_variable_is_not_held_constant(tmp_path, capsys):
    """Found on the benchmark after today's ``\\forall t,`` fix made a recalled conservation law a step:
    ``d/dt(‖B(t)‖ − ‖C(t)‖) = 0`` was "proved for every value of ‖B(t)‖, ‖C(t)‖" — the norms, unknowns of the
    reading, held constant in t.  Guard: an unknown free of the variable (‖w‖² in d/dλ) still gives a proof, and a
    false derivative is not proved."""
    rows = tex_rows(tmp_path, capsys, _display(
        r"\forall t,\; \frac{d}{dt}\left(\left\|B(t)\right\|-\left\|C(t)\right\|\right) = 0")
        + _display(r"\frac{d}{d\lambda} \left\| w \right\|^2 \lambda = \left\| w \right\|^2")
        + _display(r"\frac{d}{dt}\left\|B(t)\right\| t = \left\|B(t)\right\|"))
    assert [r["status"] for r in rows] == ["inconclusive", "proved", "inconclusive"], rows
    assert "holding ⟦‖B(t)‖⟧ fixed" in rows[0]["reason"], rows
