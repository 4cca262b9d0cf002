"""Referees 23/24's notation items (session 44): plain TeX font switches (``{\\rm AMSE}``, ``{\\cal F}``), a letter set
in text (``\\text{u}``) kept apart from the maths italic u, capitals written together and applied (``AR(θ, W)``)
and ``E(X^{(k)})`` never a silent product, ``γ^M`` a power where the paper raises γ to arithmetic exponents, and
little-ω only in an asymptotic use.  Every snippet is written for these tests (no paper's text); each test failed
on the code before the fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _proof(*displays: str) -> str:
    body = [r"\begin{proof}"]
    for d in displays:
        body += [r"We have", f"$$ {d} $$"]
    return _doc(*body, r"\end{proof}")


# 1. old font switches -----------------------------------------------------------------------------------------------
def test_old_font_switches_read_as_the_font_commands(tmp_path, capsys):
    # old: "unknown LaTeX command \rm" / "\cal" — every row unreadable
    rows = tex_rows(tmp_path, capsys, _proof(r"{\rm AMSE} + 1 = 1 + \mathrm{AMSE}", r"{\cal F} + x = x + \mathcal{F}",
                                             r"\rm{Cost} + 2 = 2 + \mathrm{Cost}", r"{\bf x} + {\bf x} = 2\mathbf{x}",
                                             r"x^{\rm opt} + y_{\rm max} = y_{\mathrm{max}} + x^{\mathrm{opt}}"))
    assert [r["status"] for r in rows] == ["proved"] * 5, rows
    assert rows[0]["read_as"] == "AMSE + 1 = 1 + AMSE", rows


def test_an_old_font_switch_is_one_name_never_letters_the_step_can_split(tmp_path, capsys):
    # {\rm AMSE} is one name: AMSE = A·MSE is no identity (the letters are not a product)
    rows = tex_rows(tmp_path, capsys, _proof(r"{\rm AMSE} = {\rm AM} \cdot {\rm SE}"))
    assert rows[0]["status"] != "proved", rows


def test_a_switch_before_an_expression_is_refused_with_its_reason(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"{\rm a + b} = b + a"))
    assert rows[0]["status"] == "unreadable" and "\\rm" in rows[0]["reason"], rows


# 5. a letter set in text --------------------------------------------------------------------------------------------
def test_a_text_letter_is_not_the_maths_letter(tmp_path, capsys):
    # old: \text{u} = u + 1 was u = u + 1, refuted; 2\text{u} = \text{u} + u was proved
    rows = tex_rows(tmp_path, capsys, _proof(r"\text{u} = u + 1", r"2\mbox{u} = \mbox{u} + u",
                                             r"\textrm{v} + \textrm{v} = 2\textrm{v}"))
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive", "proved"], rows
    assert "utxt" in rows[0]["read_as"], rows


def test_upright_e_and_d_in_text_stay_the_constant_and_the_differential(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"\text{e}^{x} = \exp(x)", r"\frac{\text{d}}{\text{d}x} x^2 = 2x"))
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


# 2. capitals written together and applied; E(X^{(k)}) ---------------------------------------------------------------
def test_capitals_applied_with_no_evidence_are_ambiguous_not_a_product(tmp_path, capsys):
    # old: AB(x + y) = ABx + ABy was "A * B(x + y)" (B ambiguous) and AMSE(b) = A·MSE(b) proved under both readings
    rows = tex_rows(tmp_path, capsys, _proof(r"AB(x + y) = ABx + ABy", r"AMSE(b) = A \cdot MSE(b)"))
    assert [r["status"] for r in rows] == ["ambiguous", "ambiguous"], rows
    assert rows[0]["read_as"].startswith("AB(x + y)"), rows
    assert "A * B * (x + y)" in " | ".join(rows[0]["readings"]), rows


def test_capitals_the_paper_applies_to_two_arguments_are_one_function(tmp_path, capsys):
    # old: AR(θ, W) was A·R(θ, W): the step below was "proved" on the name R
    body = _doc(r"The risk is $AR(\theta, W)$ for a weight $W$.",
                _proof(r"AR(\theta, W) = A R(\theta, W)"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("AR(theta, W) ="), rows
    assert rows[0]["status"] not in ("proved", "holds"), rows


def test_a_capital_applied_to_labelled_names_is_no_silent_product(tmp_path, capsys):
    # old: E(X^{(k)}) was E·X^{(k)} (E is also a factor, the edge set in (V, E)): "E(X^{(k)}) = E X^{(k)}" proved
    body = _doc(r"Let $G = (V, E)$ with $|E| = m$ and $2E$ edges counted twice.",
                _proof(r"E(X^{(k)}) + E(X^{(0)}) = E X^{(k)} + E X^{(0)}"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[-1]["status"] == "ambiguous", rows


# 3. γ^M where γ is raised to other powers ---------------------------------------------------------------------------
def test_a_capital_exponent_is_a_power_where_the_paper_writes_arithmetic_exponents(tmp_path, capsys):
    # old: ambiguous "gamma^M: a power, or a name with a superscript label?"
    body = _doc(r"Let $0 < \gamma < 1$ be the discount factor.",
                _proof(r"\sum_{t=1}^{M} \gamma^{t-1} = \frac{1 - \gamma^M}{1 - \gamma}",
                       r"\gamma^M \gamma = \gamma^{M+1}"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


def test_a_capital_exponent_stays_a_question_without_such_evidence_or_on_an_iterate(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"\gamma^M \gamma^M = \gamma^{M} \gamma^{M}", r"b^M b = b b^M + 1"))
    assert rows[1]["status"] != "proved", rows
    body = _doc(r"The update is", r"$$ x^{k+1} = x^k - \eta g^k $$", _proof(r"x^K x = x^{K+1}"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[-1]["status"] == "ambiguous", rows


def test_a_labelled_function_applied_is_still_never_proved_as_a_product(tmp_path, capsys):
    # the F^B_{n,p}(k) protection holds beside a paper that raises F to arithmetic powers
    body = _doc(r"Here $F^{t-1}$ is a power.", _proof(r"F^B_{n,p}(2k) = 2 F^B_{n,p}(k)"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[-1]["status"] not in ("proved", "holds"), rows


# 4. little-ω ---------------------------------------------------------------------------------------------------------
def test_omega_of_a_ratio_beside_omega_as_a_weight_is_not_landau(tmp_path, capsys):
    # old: set aside as "asymptotic" (O(·)/Θ/Ω/o) though ω is the paper's weight
    body = _doc(r"Let $\omega\in[0,1]$ be a weight and let", r"$$ B(\omega) = \omega\left(\frac{\tau}{s^2}\right) $$",
                _proof(r"\omega\left(\frac{\tau}{s^2}\right) + \omega\tau = \omega\tau\left(1 + \frac{1}{s^2}\right)"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["definition", "step"], rows
    assert rows[1]["status"] != "refuted", rows


def test_omega_of_a_growth_or_after_a_relation_is_still_landau(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"f(n) = \omega(\log n)", r"g(n) \ge h + \omega(1)",
                                             r"r(n) = \omega(n^2 + q)"))
    assert [r["kind"] for r in rows] == ["asymptotic"] * 3, rows


# 6. ellipses --------------------------------------------------------------------------------------------------------
def test_the_same_list_with_different_ellipsis_commands_is_one_unknown(tmp_path, capsys):
    # old: f(x_1, \dots, x_n) and f(x_1, \ldots, x_n) were two unknowns (inconclusive)
    rows = tex_rows(tmp_path, capsys, _proof(r"f(x_1, \dots, x_n) = f(x_1, \ldots, x_n)",
                                             r"g(y_1, \cdots, y_m) + 1 = 1 + g(y_1, \dots, y_m)"))
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


def test_counting_numbers_with_an_ellipsis_are_a_sum(tmp_path, capsys):
    # old: 1 + 2 + ⋯ + n was 1 + 2 + ⟦2 + ⋯ + n⟧ + n (an unknown, inconclusive)
    rows = tex_rows(tmp_path, capsys, _proof(r"1 + 2 + \cdots + n = \frac{n(n+1)}{2}",
                                             r"2 + 3 + \dots + m = \frac{m(m+1)}{2} - 1"))
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert rows[0]["read_as"].startswith("Sum("), rows


def test_a_wrong_count_is_never_proved_and_odd_patterns_stay_unread(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"1 + 2 + \cdots + n = \frac{n(n-1)}{2}",
                                             r"1 + 2 + 4 + \cdots + n = 2n - 1", r"x - 1 + 2 + \cdots + n = x"))
    assert [r["status"] for r in rows] == ["inconclusive"] * 3, rows
    assert "Sum(" not in rows[1]["read_as"] and "Sum(" not in rows[2]["read_as"], rows


def test_juxtaposed_factors_with_comma_subscripts_are_a_sum(tmp_path, capsys):
    # old: a_{i,1} b_{1,k} + ⋯ + a_{i,n} b_{n,k} was an unknown: the sum below was inconclusive
    rows = tex_rows(tmp_path, capsys, _proof(
        r"a_{i,1} b_{1,k} + a_{i,2} b_{2,k} + \cdots + a_{i,n} b_{n,k} = \sum_{j=1}^{n} a_{i,j} b_{j,k}",
        r"a_{i,1} + \cdots + a_{i,n} = \sum_{j=1}^{n} a_{j,i}"))
    assert [r["status"] for r in rows] == ["proved", "inconclusive"], rows


def test_an_old_font_switch_inside_a_commands_group_stays_inside_it(tmp_path, capsys):
    # \text{\rm min} (a macro's subscript) and \frac{\rm d}{\rm d x}: the group belongs to the command
    body = _proof(r"a \ge \sigma_\text{\rm min}(S) - b", r"\frac{\rm d}{{\rm d} x} x^2 = 2x",
                  r"\hat{\rm x} + 1 = 1 + \hat{\mathrm{x}}")
    rows = tex_rows(tmp_path, capsys, body)
    assert "sigma_stextrmmin(S)" in rows[0]["read_as"], rows
    assert [r["status"] for r in rows[1:]] == ["proved", "proved"], rows
