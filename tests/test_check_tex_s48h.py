"""Reading items from helper s48-readh's own refereeing (session 48) of two optimisation / sequential-decision papers:
a map applied to one bold letter (``\\sigma_{t-1}(\\bm{x}_t)`` beside the noise level ``\\sigma^2``), and a labelled
name with a bracketed superscript (``L_{PH}^{(1)}``) beside an unrelated bare ``L``.  Every snippet is made from the
papers' shapes (short, renamed where it helps); each test failed on the code before the fix unless it says it is a
guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc, proof_align as _proof  # noqa: E402

_NOISE = "The observations are $y_t = f(x_t) + n_t$ with $n_t \\sim \\mathcal{N}(0, \\sigma^2)$.\n"


# 1. a map applied to one bold letter -----------------------------------------------------------------------------
def test_a_subscripted_map_applied_to_one_bold_letter_is_applied(tmp_path, capsys):
    # old: "w_t(xbf[t]) <= 2 * beta[t] ** (1 / 2) * sigma[t - 1] * xbf[t]" — the posterior deviation σ_{t-1}(x_t)
    # silently read as the noise level σ (written σ², σ^{-2}) times the point x_t
    rows = tex_rows(tmp_path, capsys, _NOISE + _proof(
        r"w_t(\bm{x}_t) &\leq 2\beta_t^{1/2}\sigma_{t-1}(\bm{x}_t) , \\",
        r"\log(1 + \sigma^{-2}\sigma_{t-1}^2(\bm{x}_t)) &\leq \sigma^{-2}\sigma_{t-1}^2(\bm{x}_t) ."))
    assert "sigma_tm1(xbf[t])" in rows[0]["read_as"] and "sigma[t - 1] * xbf" not in rows[0]["read_as"], rows
    assert "sigma_tm1(xbf[t]) ** 2" in rows[1]["read_as"], rows


def test_a_map_of_one_bold_letter_still_refutes_a_false_step(tmp_path, capsys):
    # guard: the applied reading keeps a false step refuted and a true one proved
    rows = tex_rows(tmp_path, capsys, _NOISE + _proof(
        r"2\sigma_{t-1}(\bm{x}_t) - \sigma_{t-1}(\bm{x}_t) &= \sigma_{t-1}(\bm{x}_t) , \\",
        r"\sigma_{t-1}(\bm{x}_t) + 1 &\leq \sigma_{t-1}(\bm{x}_t) ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_a_number_times_a_bold_bracket_stays_a_product(tmp_path, capsys):
    # guard: only one bold letter in the brackets is an argument; c(x + y) of a number c stays c times the sum
    rows = tex_rows(tmp_path, capsys, "Let $c > 0$ and $2c \\le 1$.\n" + _proof(
        r"c(\bm{x} + \bm{y}) &= c\bm{x} + c\bm{y} ."))
    assert "c * (xbf + ybf)" in rows[0]["read_as"], rows


# 2. a labelled name with a bracketed superscript beside an unrelated bare name -----------------------------------
_LPH = _doc(r"\newcommand{\constLPH}[1]{L_{PH}^{(#1)}}")
_LPH_PROSE = ("Let $L > 0$ be the Lipschitz constant of $g$ and $\\constLPH{0}, \\constLPH{1} > 0$ the constants of "
              "the Poisson equation.\n")


def test_a_labelled_name_with_a_bracketed_superscript_is_no_coordinate_of_the_bare_letter(tmp_path, capsys):
    # old: both rows "ambiguous: L^{(1)} beside L itself: … may be a coordinate (component) of it" — L_{PH}^{(1)} is
    # the paper's constant of its own (its lower label PH), never a coordinate of the Lipschitz constant L
    rows = tex_rows(tmp_path, capsys, _LPH_PROSE + _proof(
        r"\constLPH{1} L \alpha + \constLPH{1} L \alpha &= 2 L \alpha \constLPH{1} , \\",
        r"\constLPH{0} L \alpha + \constLPH{0} L \alpha &= 3 L \alpha \constLPH{0} ."), preamble=_LPH)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_a_bracketed_superscript_on_the_bare_letter_stays_ambiguous(tmp_path, capsys):
    # guard: v^{(1)} beside v (no label of its own) is still a coordinate or an iterate — both readings, no verdict
    rows = tex_rows(tmp_path, capsys, _proof(r"M v + (v^{(1)} - 1) e_1 &= (M + e_1 e_1^T) v - e_1 ."))
    assert rows[0]["status"] == "ambiguous" and "beside v itself" in rows[0]["reason"], rows


# 3. the optimistic / pessimistic labels of a bandit or level-set algorithm ---------------------------------------
def test_pessimistic_and_confidence_bound_superscripts_are_labels(tmp_path, capsys):
    # old: "h^{pes}: a power, or a name with a superscript label (an iterate)?" — h[t + 1] ** (p * e * s) beside the
    # labelled h^{opt} of the same row (an optimistic / pessimistic threshold); μ^{ucb}, μ^{lcb} likewise
    rows = tex_rows(tmp_path, capsys, _proof(
        r"h^{opt}_{t+1} - h^{pes}_{t+1} + w_{t+1} &\leq h^{opt}_{t+1} - h^{pes}_{t+1} + w_t , \\",
        r"\mu^{ucb}_t - \mu^{lcb}_t + 1 &\leq \mu^{ucb}_t - \mu^{lcb}_t ."))
    assert "hsup[t + 1, pes]" in rows[0]["read_as"] and rows[0]["status"] != "ambiguous", rows
    assert rows[1]["status"] == "refuted" and "musup[t, lcb]" in rows[1]["read_as"], rows


# 4. a hyperbolic function typed as text with a power ----------------------------------------------------------------
def test_text_sech_with_a_power_is_the_function_applied(tmp_path, capsys):
    # old: "m(x) = 0.99 * sech ** 2 * (x / 2)" — \text{sech}^2(…) after a number read as a name squared times the
    # bracket (the paper's kernel 0.99·sech²(x/10⁻⁴))
    rows = tex_rows(tmp_path, capsys, _proof(
        r"m(x) &= 0.99 \cdot \text{sech}^2\left(\frac{x}{2}\right) , \\",
        r"0.99 \cdot \mathrm{sech}^2(x) + 1 &\leq 0.99 \cdot \mathrm{sech}^2(x) ."))
    assert "sech(x / 2) ** 2" in rows[0]["read_as"], rows
    assert rows[1]["status"] == "refuted" and "sech(x) ** 2" in rows[1]["read_as"], rows
