"""Issue 26 (session 42): real papers' notation read with no silent misreading — tensor products and powers
(``a \\otimes b``, ``x^{\\otimes p}``), a Greek letter under an accent, indicator functions, ``\\max_{j \\in [n]}``,
``\\operatorname{sgn}``, a macro's lost subscript, names the paper uses as vectors, and the single-reading guards
under the both-readings path.  Snippets are written for these tests (no paper's text)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows  # noqa: E402


def test_a_tensor_power_is_never_a_power(tmp_path, capsys):
    # old: every row unreadable ("unknown LaTeX command \otimes"); x^{⊗2} must never be read as x²
    body = displays(r"x^{\otimes 2} = x^2", r"\|x^{\otimes 2}\|_F = \|x\|_2^2", r"\beta^{\otimes 2} = \beta \beta")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive"] * 3, rows
    assert all("tensorpow(" in r["read_as"] for r in rows), rows
    assert "x ** 2 = x ** 2" not in rows[0]["read_as"], rows


def test_a_tensor_product_is_not_commutative(tmp_path, capsys):
    body = displays(r"a \otimes b = b \otimes a", r"a \otimes b - b \otimes a = 0")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert rows[0]["read_as"] == "tensor(a, b) = tensor(b, a)", rows


def test_the_same_tensor_expression_on_both_sides_is_proved(tmp_path, capsys):
    body = displays(r"\langle \beta^{\otimes 2}, x^{\otimes 2} \rangle + 0 = \langle \beta^{\otimes 2}, x^{\otimes 2} \rangle",
                    r"a \otimes b + 2 c - c = c + a \otimes b")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


def test_a_vector_identity_that_reassociates_products_is_not_proved(tmp_path, capsys):
    # (a × b) × c ≠ a × (b × c) for cross products: only sums of the same whole terms count as a vector proof
    body = displays(r"\mathbf a \times (\mathbf b \times \mathbf c) = (\mathbf a \times \mathbf b) \times \mathbf c")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "inconclusive", rows


def test_a_tensor_power_makes_its_base_a_vector():
    from theoryverify.check.tex.names import gather
    ev = gather([(0, r"x^{\otimes 2} + \beta^{\otimes p} = y^2")])
    assert {"x", "beta"} <= ev.vector and "x" not in ev.bare_numbers and "y" in ev.bare_numbers


def test_a_greek_pi_under_an_accent_is_a_name(tmp_path, capsys):
    # old: "expected a letter, got \pi" — the row unreadable
    body = displays(r"|\hat \pi_h - \pi_h| \le |\hat{\pi}_h| + |\pi_h|", r"\hat{\pi} + 1 = 1 + \hat\pi")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["holds", "proved"], rows
    assert "pivarhat[h] - pivar[h]" in rows[0]["read_as"], rows


def test_a_bare_pi_beside_an_accented_one_is_ambiguous(tmp_path, capsys):
    # \hat\pi estimates a quantity π: a bare π there may be that name, not 3.14… — never refuted as the constant
    body = displays(r"\hat\pi - \pi = 0")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous", rows
    assert rows[0]["readings"] == ["pivarhat - pi = 0", "pivarhat - pivar = 0"], rows


def test_an_indicator_with_a_subscripted_set_is_read(tmp_path, capsys):
    # old: "expected '\}', got '>'" for \mathds{1}_{\{x > \delta\}}
    body = displays(r"\mathds{1}_{\{x>\delta\}} = \mathds{1}_{\{x > \delta\}}^2",
                    r"\mathbb{1}_{\{x > \delta\}} \le \frac{x}{\delta}", r"\mathbb{1}_{x > 0} + 1 = 1 + \mathbb{1}_{x>0}")
    rows = tex_rows(tmp_path, capsys, body, preamble="\\usepackage{dsfont}\n")
    assert [r["status"] for r in rows] == ["proved", "inconclusive", "proved"], rows
    assert rows[0]["read_as"] == "indicator(x > delta) = indicator(x > delta) ** 2", rows
    assert "no counterexample was found with every name positive" in rows[1]["reason"], rows


def test_an_indicator_of_an_unread_condition_is_an_unknown_not_a_refusal(tmp_path, capsys):
    body = displays(r"\mathbf{1}\{x \in S\} \le 1", r"\mathbb{1}_{E} + 1 = 1 + \mathbb{1}_{E}",
                    r"\mathbb{1}_{\{x \in S\}} \le 2")
    rows = tex_rows(tmp_path, capsys, body)
    assert "unreadable" not in [r["status"] for r in rows], rows
    assert [r["status"] for r in rows] == ["inconclusive", "proved", "inconclusive"], rows


def test_max_over_a_range_and_sgn_are_read(tmp_path, capsys):
    # (already read before session 42: kept so that they stay read)
    body = displays(r"\max_{j\in[n]} |a_j| \le \sum_{j=1}^n |a_j|", r"\min_{i \in [k]} b_i \le b_1",
                    r"\mbox{sgn}(x) \cdot x = |x|", r"\operatorname{sgn}(x) x = |x|")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive"] * 4, rows


def test_a_macros_unbraced_text_subscript_stays_in_the_name(tmp_path, capsys):
    # old: \newcommand\sigmamin{\sigma_\text{\rm min}} gave "\sigma_(\Sigma_p)" — the \text{…} cut out as prose
    body = ("\\begin{proof}\nWe have\n$$\\sigmamin(\\hat\\Sigma_p) \\ge \\sigmamin(\\Sigma_p) - "
            "\\|\\hat\\Sigma_p - \\Sigma_p\\|.$$\nand\n$$a \\ge \\sigma_\\text{\\rm min}(\\Sigma_p) - b.$$\n\\end{proof}\n")
    rows = tex_rows(tmp_path, capsys, body, preamble="\\newcommand\\sigmamin{\\sigma_\\text{\\rm min}}\n")
    assert [r["status"] for r in rows] != ["unreadable"] * 2, rows
    assert all("sigma_" in r["read_as"] and "(Sigma" in r["read_as"] for r in rows), rows
    assert "sigma_stextrmmin(Sigmahat[p])" in rows[0]["read_as"], rows


def test_an_accented_font_macro_is_read(tmp_path, capsys):
    # old: \hat\E with \E = \operatorname{E} gave "expected a letter, got \operatorname"
    body = displays(r"\|\hat \E_p[\eta(x) x] \| \le \hat\E_p[\|\eta(x) x\|]", r"\hat \mathbf{a} + 1 = 1 + \hat{\mathbf a}")
    rows = tex_rows(tmp_path, capsys, body, preamble="\\newcommand\\E{\\operatorname{E}}\n")
    assert [r["status"] for r in rows] == ["inconclusive", "proved"], rows
    assert rows[1]["read_as"] == "abfhat + 1 = 1 + abfhat", rows


# --- the single-reading guards under the both-readings path ----------------------------------------------------
# ``a/3r`` makes a step ambiguous ((a/3)·r or a/(3r)): it is checked under both readings, and gets a verdict only when
# both agree.  Each guard below must hold there as it does for a step read one way; the control beside each shows
# that the same step without the guard's cause is refuted under both readings (so the path is the one exercised).

def _proof(text: str) -> str:
    return "\\begin{proof}\n" + text + "\n\\end{proof}\n"


def _both(row: dict) -> None:
    assert row["readings"] and len(row["readings"]) == 2 and "/(3 * r)" in row["readings"][1].replace(" / (", "/("), row


def test_guards_hold_under_both_readings_refuted_controls(tmp_path, capsys):
    body = _proof("Let $r > 0$. We have\n$$(u + v) - (q + p) + a/3r = q + p - q - p + a/3r$$\n"
                  "and\n$$\\delta + a/3r = \\delta \\cdot a/3r + 1$$\nand\n$$u + w + a/3r = 3 w + a/3r$$")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted"] * 3, rows
    assert all("under both readings" in r["reason"] for r in rows), rows


def test_a_new_value_on_one_side_blocks_both_readings(tmp_path, capsys):
    body = _proof("Let $r > 0$. We have\n$$(\\tilde q + \\tilde p) - (q + p) + a/3r = q + p - q - p + a/3r$$")
    rows = tex_rows(tmp_path, capsys, body)
    _both(rows[0])
    assert rows[0]["status"] == "ambiguous" and "first reading: inconclusive; second reading: inconclusive" in \
        rows[0]["reason"], rows


def test_a_prose_assumption_holds_under_both_readings(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof("Let $x > 1$. We have\n$$x - 1 + a/3r > a/3r$$"))
    assert rows[0]["status"] == "proved" and "proved under both readings" in rows[0]["reason"], rows
    assert any(a.startswith("x > 1") for a in rows[0]["assumptions"]), rows
    rows = tex_rows(tmp_path, capsys, _proof("We have\n$$x - 1 + a/3r > a/3r$$"), name="q.tex")
    assert rows[0]["status"] == "ambiguous", rows


def test_definitions_are_used_under_both_readings(tmp_path, capsys):
    body = ("Define\n$$g := 2x .$$\n" +
            _proof("Let $r > 0$. We have\n$$g + a/3r = 3x + a/3r$$\nand\n$$g + a/3r = 2x + a/3r$$"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["kind"], r["status"]) for r in rows][0] == ("definition", "not_a_step"), rows
    assert rows[1]["status"] == "refuted" and "under both readings" in rows[1]["reason"], rows  # g = 2x used
    assert rows[2]["status"] == "proved" and "under both readings" in rows[2]["reason"], rows
    # a definition that is itself ambiguous (g := 2x + a/3r) is used under neither reading: no guess of its reading
    body = "Define\n$$g := 2x + a/3r .$$\n" + _proof("Let $r > 0$. We have\n$$g = 2x + \\frac{a r}{3}$$")
    rows = tex_rows(tmp_path, capsys, body, name="q.tex")
    assert rows[1]["status"] == "inconclusive", rows


def test_an_update_rule_is_not_checked_under_both_readings(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof("The iterates are\n$$x_{t+1} = x_t - a/3r$$"))
    assert [(r["kind"], r["status"]) for r in rows] == [("update", "not_a_step")], rows


def test_an_unread_bound_blocks_both_readings(tmp_path, capsys):
    body = _proof("Let $r > 0$ and let $\\delta(\\varepsilon) > 0$ be as above. Hence\n"
                  "$$\\delta + a/3r = \\delta \\cdot a/3r + 1$$")
    rows = tex_rows(tmp_path, capsys, body)
    _both(rows[0])
    assert rows[0]["status"] == "ambiguous" and "second reading: inconclusive" in rows[0]["reason"], rows


def test_by_definition_blocks_both_readings(tmp_path, capsys):
    body = _proof("Let $r > 0$. By definition,\n$$\\delta + a/3r = \\delta \\cdot a/3r + 1$$")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous" and "second reading: inconclusive" in rows[0]["reason"], rows


def test_the_authors_favour_holds_under_both_readings(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof("Let $r > 0$. We have\n$$x + a/3r \\le x^2 + a/3r$$"))
    assert rows[0]["status"] == "ambiguous" and "second reading: inconclusive" in rows[0]["reason"], rows


def test_a_value_stated_after_the_display_is_used_under_both_readings(tmp_path, capsys):
    body = _proof("Let $r > 0$. We have\n$$\\gamma + a/3r = 2\\gamma + a/3r$$\nfor $\\gamma = 0$.")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved" and "under both readings" in rows[0]["reason"], rows


def test_a_name_let_equal_to_a_value_inline_blocks_refutation(tmp_path, capsys):
    # old: "Let $u = 2w$" was read as a case (a bare letter set inline), so u + w = 3w was refuted with u free —
    # under one reading and under both
    body = _proof("Let $u = 2 w$. We have\n$$u + w = 3 w$$\n") + \
        _proof("Let $r > 0$ and $u = 2 w$. We have\n$$u + w + a/3r = 3 w + a/3r$$")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "ambiguous"], rows
    assert "set to a value in the prose" in rows[0]["reason"], rows
    body = _proof("At $t = 0$ we have\n$$t + w = 3 w$$")  # a case named inline ("at $t = 0$") sets nothing
    rows = tex_rows(tmp_path, capsys, body, name="q.tex")
    assert rows[0]["status"] == "refuted", rows


# --- names the paper uses as vectors -----------------------------------------------------------------------------

def test_a_term_inside_a_norm_or_inner_product_is_a_vector():
    from theoryverify.check.tex.names import gather
    ev = gather([(0, r"\|a - b\| \le 1, \langle u, v\rangle \ge 0, \langle \beta_h - M_1, x\rangle")])
    assert {"a", "b", "u", "v", "beta", "M_1", "x"} <= ev.vector, ev.vector
    ev = gather([(0, r"\|W(c - d)\| + \|\eta g\| - e + |f - h|")])  # an argument, a factor, outside: not taken
    assert not {"c", "d", "e", "f", "h", "g"} & ev.vector, ev.vector


def test_a_vector_treated_as_a_number_is_neither_proved_nor_refuted(tmp_path, capsys):
    # old: b, v (only ever written as the second term of ‖a − b‖, ⟨u, v⟩) were numbers: b² − 1 = (b − 1)(b + 1)
    # proved, b² + 1 = b refuted at b = 0
    body = ("Assume $\\|a - b\\| \\le 1$ and $\\langle u, v\\rangle \\ge 0$.\n" +
            _proof("We have\n$$b^2 - 1 = (b - 1)(b + 1)$$\nand\n$$v \\cdot v - 1 = (v - 1)(v + 1)$$\nand\n"
                   "$$b^2 + 1 = b$$\nand\n$$\\frac{1}{v} \\le 1 + v$$\nand\n$$v + v = 2 v$$\nand\n$$b + b = 3 b$$"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive"] * 4 + ["proved", "refuted"], rows
    assert "treated here as a number" in rows[2]["reason"] and "treated here as a number" in rows[3]["reason"], rows
    assert "read in one dimension" in rows[5]["reason"], rows  # b + b = 3b fails for every vector b ≠ 0


def test_a_trace_of_matrices_of_unstated_size_is_read(tmp_path, capsys):
    # old: "trace() needs a matrix (declare W: matrix(3, 3))" — the row unreadable; tr(AB) = tr(BA) must not be
    # proved as a number's (A, B commute as numbers, not as matrices)
    body = displays(r"\operatorname{tr}(A B) = \operatorname{tr}(B A)",
                    r"\operatorname{tr}(A) + \operatorname{tr}(B) = \operatorname{tr}(B) + \operatorname{tr}(A)",
                    r"\operatorname{tr}(A) = 2\operatorname{tr}(A)")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "proved", "inconclusive"], rows


def test_an_accent_over_a_subscripted_name_in_braces(tmp_path, capsys):
    # old: "expected a name in braces, got '_'" for \hat{M_3}(…), \tilde{x_{t+1}}
    body = displays(r"\hat{M_3}(W) - \hat M_3(W) = 0", r"\tilde{x_{t+1}} - \tilde x_{t+1} + \hat{\beta_h} = \hat\beta_h")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert rows[1]["read_as"] == "xtilde[t + 1] - xtilde[t + 1] + betahat[h] = betahat[h]", rows


def test_the_all_ones_vector_with_a_size_is_a_vector(tmp_path, capsys):
    # old: \mathbf{1}_n was refused as an indicator ("expected '{', got 'n'"); read now as the all-ones vector, an
    # unknown that is no number: 1_n · 1_n = 1_n² (n, or a vector of ones?) is not proved as a number's
    body = displays(r"\mathbf{1}_n + \mathbf{1}_n = 2 \cdot \mathbf{1}_n", r"\mathbf{1}_n \cdot \mathbf{1}_n = \mathbf{1}_n^2",
                    r"\mathbf{1}_{n}^\top x + 1 = 1 + \mathbf{1}_{n}^\top x")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "inconclusive", "proved"], rows


def test_a_matrix_power_is_still_refuted_in_one_dimension(tmp_path, capsys):
    # a capital the paper uses as a matrix: A² = 2A has one meaning for matrices, and A = 1 (d = 1) refutes it
    body = "Assume $\\|A - B\\| \\le 1$.\n" + _proof("We have\n$$B^2 + B = 3 B$$")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted" and "one dimension" in rows[0]["reason"], rows


def test_an_accent_over_an_index_and_more_stays_refused(tmp_path, capsys):
    # \hat{x_t y}: the hat covers x_t y — never read as x̂_t · y
    rows = tex_rows(tmp_path, capsys, displays(r"\hat{x_t y} = \hat x_t y"))
    assert rows[0]["status"] == "unreadable", rows


def test_a_term_of_an_inner_product_that_the_paper_also_calls_real_stays_a_number(tmp_path, capsys):
    # a paper reuses letters: "a vector x is a subgradient … ⟨u − v, x⟩" in one section, ∀ x ∈ ℝ in another — the
    # number's step keeps its verdicts (a planted x³ in such a step must still be refuted)
    from theoryverify.check.tex.names import gather
    assert "x" not in gather([(0, r"\langle u - v, x \rangle"), (40, r"\forall x \in \mathbb{R}")]).vector
    body = ("A vector $x$ is a subgradient iff $\\ell(u) - \\ell(v) \\ge \\langle u - v, x \\rangle$ for any $u$.\n" +
            _proof("We now use the expansion, to obtain\n\\[ \\log\\left(1+\\frac{\\exp(x)-1}{\\exp(x)+1}\\right) "
                   "\\geq \\frac{x}{2} + \\frac{x^2}{8} \\qquad \\forall x \\in \\mathbb{R} \\]"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows
