"""Referee 29's statistical-mechanics readings (session 46, helper s46-reade): integrals written measure first
(``\\ln \\int d\\mu(x)\\, f(x)``), the evaluation bracket ``[F]_a^b``, superscript indices (``\\xi^\\mu`` inside
``\\sum_\\mu``), a two-letter superscript label applied (``h^{an}(R)``), a bracketed model label after a function's value
(``R(z)[IMP]``) and a name written as shorthand for its value (``\\Gamma_1 := \\Gamma_1(A)``).  Every snippet is written
for these tests (no paper's text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows  # noqa: E402

_INTEGRAL_CUE = "Let $Z = \\int d\\mu(S)\\, f(S)$ be the partition function.\n"


def _align(*rows: str, prose: str = "") -> str:
    return prose + "We have\n\\begin{align}\n" + "\n".join(rows) + "\n\\end{align}\n"


def _by_line(rows: list[dict]) -> list[tuple[str, str]]:
    return [(r["status"], r.get("read_as") or "") for r in rows]


# 1. integrals written measure first ------------------------------------------------------------------------------
def test_measure_first_integral_keeps_its_integrand_inside_the_integral_and_the_log(tmp_path, capsys):
    # old: -log(⟦\int dμ(S)⟧)·exp(..)·exp(..): the integrand pulled out of both ∫ and ln
    rows = tex_rows(tmp_path, capsys, _align(r"- \ln \int d\mu(S) \exp[-a]\exp\left[b\right] = c"))
    read = rows[0]["read_as"]
    assert read.startswith("-log(⟦\\int d\\mu(S)\\exp[- a]\\exp \\left[b\\right]⟧)"), rows
    assert "* exp" not in read, rows


def test_measure_first_forms_dx_and_path_measure(tmp_path, capsys):
    # \int_0^1 dx\, x^2 (+ 1 outside), \int \mathcal{D}\xi\, g(\xi) e^{x}: the integrand up to the term's end
    rows = tex_rows(tmp_path, capsys, _align(r"\int_0^1 dx\, x^2 + 1 = w , \\",
                                             r"\int \mathcal{D}\xi\, g(\xi) e^{x} = v"))
    reads = [r["read_as"] or "" for r in rows]
    assert any(r.startswith("⟦\\int_0^1 d x x^2⟧ + 1") for r in reads), rows
    assert any(r.startswith("⟦\\int \\mathcal{D}\\xi g(\\xi)e^{x}⟧") for r in reads), rows
    assert not any("⟦\\int_0^1 d x⟧" in r or "⟦\\int \\mathcal{D}\\xi⟧" in r for r in reads), rows


def test_integrand_first_integral_is_read_as_before(tmp_path, capsys):
    # guard: \int_0^1 x^2 dx + 1 — the differential ends the integrand, the 1 stays outside (a definite integral
    # with both bounds is read exactly since s46-readc: Integral(x**2, (x, 0, 1)) + 1)
    rows = tex_rows(tmp_path, capsys, _align(r"\int_0^1 x^2 \, dx + 1 = w"))
    assert rows[0]["read_as"].startswith("Integral(x ** 2, (x, 0, 1)) + 1"), rows


def test_a_definite_integral_written_measure_first_is_never_the_integral_of_one(tmp_path, capsys):
    # merge of s46-readc and s46-reade: \int_0^1 dx\, x^2 was read Integral(1, (x, 0, 1))·x² — so a false step
    # 1·x² + 1 = x² + 1 was "proved"; the integrand is the rest of the term, nested integrals too
    rows = tex_rows(tmp_path, capsys, _align(r"\int_0^1 dx\, x^2 + 1 = x^2 + 1 , \\",
                                             r"\int_0^1 \int_0^1 dx\, dy\, x y = x y"))
    assert not any("Integral(1," in (r["read_as"] or "") for r in rows), rows
    assert not any(r["status"] in ("proved", "holds") for r in rows), rows


def test_a_log_of_a_factor_then_an_integral_is_ambiguous_with_both_readings(tmp_path, capsys):
    # old: -(log(exp(-a))·⟦∫⟧) silently; the paper's ln e^{-a}∫… is the log of the product
    rows = tex_rows(tmp_path, capsys, _align(r"- \ln e^{-a} \int d\mu(S) e^{b} = a - \ln \int d\mu(S) e^{b}",
                                             prose=_INTEGRAL_CUE))
    assert rows[0]["status"] == "ambiguous", rows
    assert "log(exp(-a) * ⟦" in " ".join(rows[0]["readings"]), rows


def test_a_false_step_after_a_measure_first_integral_gets_no_positive_verdict(tmp_path, capsys):
    # guard: the integral (integrand inside) is one unknown on both sides — a true rearrangement is proved, a wrong
    # constant around it is never proved (an unknown blocks the refutation, as for every opaque atom)
    rows = tex_rows(tmp_path, capsys, _align(
        r"2 \int d\mu(S)\, e^{b} + 3 = \int d\mu(S)\, e^{b} + \int d\mu(S)\, e^{b} + 3 , \\",
        r"2 \int d\mu(S)\, e^{b} + 3 = 3 \int d\mu(S)\, e^{b} + 3", prose=_INTEGRAL_CUE))
    assert [r["status"] for r in rows] == ["proved", "inconclusive"], rows
    assert "⟦\\int d\\mu(S)e^{b}⟧" in rows[1]["read_as"], rows


def test_a_measure_outside_an_integral_is_a_measure_never_d_times_mu(tmp_path, capsys):
    # old: d*mu(Sbf) = Product(d*mu*sbf[mu]): the measure read as d·μ, μ also the product's index
    rows = tex_rows(tmp_path, capsys, _align(r"d\mu(\mathbf{S}) = \prod_{\mu=1}^{N} d\mu(\mathbf{s}_{\mu})",
                                             prose="Let $Z = \\int d\\mu(\\mathbf{S})\\, f(\\mathbf{S})$.\n"))
    assert rows[0]["read_as"] == "dmu(Sbf) = Product(dmu(sbf[mu]), (mu, 1, N))", rows
    assert rows[0]["status"] == "inconclusive", rows
    # no integral against μ anywhere: which reading is not settled — unreadable, and saying so
    rows = tex_rows(tmp_path, capsys, _align(r"d\mu(\mathbf{S}) = \prod_{\mu=1}^{N} d\mu(\mathbf{s}_{\mu})"),
                    name="q.tex")
    assert rows[0]["status"] == "unreadable" and "measure" in rows[0]["reason"], rows


# 2. the evaluation bracket ---------------------------------------------------------------------------------------
def test_evaluation_bracket_is_the_difference_of_values_never_a_power(tmp_path, capsys):
    # old: kappa*⟦[\ln z]_a⟧**b — the upper limit read as a power
    rows = tex_rows(tmp_path, capsys, _align(r"\kappa \left[ \ln z \right]_{a}^{b} = \kappa \ln b - \kappa \ln a , \\",
                                             r"\Big[ z^2 \Big]^{b}_{a} = b^2 - a^2 , \\",
                                             r"\left[ c z^2 + z \right]_{z=0}^{1} = c + 1"))
    assert [r["status"] for r in rows] == ["proved"] * 3, rows
    assert "subs(log(z), z, b) - subs(log(z), z, a)" in rows[0]["read_as"], rows


def test_evaluation_bracket_takes_its_variable_from_the_integral(tmp_path, capsys):
    # [c z^2/2]_0^1 beside \int … dz: z runs, c does not
    rows = tex_rows(tmp_path, capsys, _align(r"\int_0^1 c z\, dz = \left[ c z^2/2 \right]_{0}^{1} = c/2"))
    assert rows[-1]["status"] == "proved", rows


def test_evaluation_bracket_with_an_unsettled_variable_is_unreadable(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _align(r"\left[ c z^2 + z \right]_{0}^{1} = c + 1"))
    assert rows[0]["status"] == "unreadable" and "not settled" in rows[0]["reason"], rows


def test_a_wrong_evaluation_is_refuted(tmp_path, capsys):
    # guard: [z^2]_0^1 = 2 is false as read
    rows = tex_rows(tmp_path, capsys, _align(r"\left[ z^2 \right]_{0}^{1} = 2"))
    assert rows[0]["status"] == "refuted", rows


# 3. superscript indices ------------------------------------------------------------------------------------------
def test_a_summed_superscript_on_a_vector_is_an_index(tmp_path, capsys):
    # old: transpose(xibf**mu)*xibf**mu — the pattern index read as a power
    rows = tex_rows(tmp_path, capsys, _align(
        r"E := \sum_{\mu=1}^{n} (\boldsymbol{\xi}^{\mu})^{\top} \boldsymbol{\xi}^{\mu} , \\",
        r"F := \ln \int d\mu(\boldsymbol{\xi}^n)\, e^{-E}"))
    reads = " ".join(r["read_as"] or "" for r in rows)
    assert "xibfsup[mu]" in reads and "xibf ** mu" not in reads, rows
    assert "xibf ** n" not in reads, rows


def test_a_greek_summed_superscript_is_an_index_but_a_power_series_keeps_its_power(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _align(r"\sum_{\mu=1}^{n} y^\mu = n w , \\",
                                             r"\sum_{k=0}^{n} x^k = \frac{1 - x^{n+1}}{1-x}"))
    assert "ysup" in rows[0]["read_as"], rows
    assert rows[1]["status"] == "proved", rows  # guard: x^k stays a power
    rows = tex_rows(tmp_path, capsys, _align(r"\sum_{k=0}^{n} x^k = \frac{1 - x^{n+2}}{1-x}"), name="q.tex")
    assert rows[0]["status"] == "refuted", rows  # guard: and a wrong closed form is refuted


def test_a_bold_vector_to_a_letter_is_ambiguous_without_evidence(tmp_path, capsys):
    # v^m with nothing saying m indexes v: a power of the vector or its m-th member — both readings, no verdict
    rows = tex_rows(tmp_path, capsys, _align(r"\mathbf{v}^m = 2"))
    assert rows[0]["status"] == "ambiguous", rows
    assert any("vbfsup[m]" in r for r in rows[0]["readings"]), rows


# 4. labels: h^{an}(R), R(z)[IMP], Γ_1 := Γ_1(A) -------------------------------------------------------------------
def test_a_two_letter_superscript_applied_is_a_labelled_function(tmp_path, capsys):
    # old: beta*h**(a*n)*R
    rows = tex_rows(tmp_path, capsys, _align(r"\beta h^{an}(R) := \frac{1}{2} \ln(1 + 2\beta R)"))
    assert "h ** (a * n)" not in rows[0]["read_as"] and "hsup_an(R)" in rows[0]["read_as"], rows


def test_a_two_letter_superscript_times_a_bracket_of_itself_stays_a_power(tmp_path, capsys):
    # guard: γ^{nk}(1 - γ) is a power times a bracket
    rows = tex_rows(tmp_path, capsys, _align(r"\gamma^{nk}(1 - \gamma) = \gamma^{nk} - \gamma^{nk+1}"))
    assert rows[0]["status"] == "proved", rows


def test_a_bracketed_capital_label_after_a_value_labels_the_function(tmp_path, capsys):
    # old: R(z)*(I*M*P)
    rows = tex_rows(tmp_path, capsys, _align(r"R(z)[IMP] + R(z)[IMP] = 2 R(z)[IMP]"))
    assert "I * M * P" not in rows[0]["read_as"] and "R_IMP(z)" in rows[0]["read_as"], rows


def test_a_bracketed_expression_after_a_value_stays_a_product(tmp_path, capsys):
    # guard: p(x)[1 - p(x)] is a product
    rows = tex_rows(tmp_path, capsys, _align(r"q(x)[a + b] = q(x) a + q(x) b + 1"))
    assert "R_" not in rows[0]["read_as"] and rows[0]["status"] in ("refuted", "ambiguous", "inconclusive"), rows


def test_a_name_written_as_shorthand_for_its_value_is_applied(tmp_path, capsys):
    # old: Gamma[1] := Gamma[1]*Abf, because Γ_1 is first a bare factor
    body = _align(r"G = 2 \times \Gamma_1 ,", prose="") + "where we define\n" + \
        _align(r"\Gamma_1 := \Gamma_1(\mathbf{A}) = \int d\mu(\mathbf{S})\, e^{\mathbf{S}\mathbf{A}} .")
    rows = tex_rows(tmp_path, capsys, body)
    reads = " ".join(r["read_as"] or "" for r in rows)
    assert "Gamma_1(Abf)" in reads and "Gamma[1] * Abf" not in reads, rows


def test_a_name_equal_to_itself_applied_is_notation_not_a_step(tmp_path, capsys):
    # old: Gamma[1] = Gamma[1]*Abfhat (ambiguous); with Γ_1 a shorthand it had become "'Gamma_1' is a function"
    body = _align(r"\Gamma_1 := \Gamma_1(\mathbf{A}) ,") + "and, changing variables,\n" + \
        _align(r"\Gamma_1 = \Gamma_1(\hat{\mathbf{A}}) = 2 \hat{\mathbf{A}}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[1]["status"] == "not_a_step" and rows[1]["kind"] == "definition", rows
    assert rows[2]["read_as"] == "Gamma_1(Abfhat) = 2 * Abfhat", rows


def test_a_labelled_superscript_then_a_subscript_then_a_bracket(tmp_path, capsys):
    # old: beta*H[h, T]**(a*n)*R
    rows = tex_rows(tmp_path, capsys, _align(r"\beta H^{an}(R) \le \beta H^{an}_{hT}(R)"))
    assert "** (a * n)" not in rows[0]["read_as"] and "Hsup_h_T_an(R)" in rows[0]["read_as"], rows


def test_a_comma_before_a_differential_does_not_cut_the_integral(tmp_path, capsys):
    # old: "\int_a^λ κ/z , dz = …" cut at the comma: the next relation read as d·z = κ[…]
    rows = tex_rows(tmp_path, capsys, _align(
        r"\int_{a}^{\lambda} \frac{\kappa}{z} , dz = \kappa \left[ \ln z \right]_{a}^{\lambda}"))
    assert len(rows) == 1 and rows[0]["read_as"].startswith("⟦\\int_{a}^{\\lambda}\\frac{\\kappa}{z}, d z⟧"), rows


def test_a_comma_between_two_relations_still_cuts(tmp_path, capsys):
    # guard: x = 1, dz = 2 are two relations (no integral is open before the comma)
    rows = tex_rows(tmp_path, capsys, _align(r"x + x = 2x , \quad d + z = z + d + 1"))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_a_vector_with_an_index_superscript_and_its_entries_are_read_together(tmp_path, capsys):
    # Σ_μ (ξ^μ)ᵀ ξ^μ = Σ_μ Σ_i ξ_i^μ ξ_i^μ: the vectors and their entries (a family of two indices), never powers
    rows = tex_rows(tmp_path, capsys, _align(
        r"\sum_{\mu=1}^{n} (\boldsymbol{\xi}^{\mu})^{\top} \boldsymbol{\xi}^{\mu}"
        r" = \sum_{\mu=1}^{n} \sum_{i=1}^{M} \boldsymbol{\xi}_i^{\mu} \boldsymbol{\xi}_i^{\mu}"))
    assert rows[0]["status"] == "inconclusive", rows
    assert "xibfsup_entry[i, mu]" in rows[0]["read_as"] and "**" not in rows[0]["read_as"], rows
