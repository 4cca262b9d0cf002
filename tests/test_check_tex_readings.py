"""Defects referees left on unseen papers (issue 26): an ambiguous relation checked under both of its readings (a
verdict only where both agree), pairs read componentwise, kind cues of the prose, ASCII norms, prose assumptions,
bold statement headings, and sums' written ranges.  Every paper here is written for these tests."""
from texrows import displays, tex_rows

ITERATES = r"The update is $x^{k+1} = x^k - \eta g^k$." "\n"


def _rows(tmp_path, capsys, body: str) -> list[dict]:
    return tex_rows(tmp_path, capsys, body, name="r.tex", args=("--timeout", "60"))


# 1. both readings ---------------------------------------------------------------------------------------------

def test_a_step_true_as_a_power_and_as_an_iterate_is_proved_saying_so(tmp_path, capsys):
    # nothing says whether c^k is c to the k or c at iteration k; the step holds either way
    row = _rows(tmp_path, capsys, ITERATES + displays(r"c^{k+1} - c^{k} = c^{k+1} - c^{k} + c^k - c^k"))[0]
    assert row["status"] == "proved", row
    assert "under both readings" in row["reason"] and "csup[k + 1]" in row["reason"] and "**" in row["reason"], row


def test_a_step_true_under_one_reading_only_stays_ambiguous(tmp_path, capsys):
    # c^{k+1} = c·c^k: a power's law, false of an iterate; no verdict, both readings listed
    row = _rows(tmp_path, capsys, ITERATES + displays(r"c^{k+1} = c \cdot c^k"))[0]
    assert row["status"] == "ambiguous" and len(row["readings"]) == 2, row
    assert "csup[k + 1]" in row["readings"][1] and "no verdict" in row["reason"], row


def test_a_step_false_under_both_readings_is_refuted_saying_so(tmp_path, capsys):
    row = _rows(tmp_path, capsys, ITERATES + displays(r"c^{k+1} - c^k + 1 = c^{k+1} - c^k"))[0]
    assert row["status"] == "refuted" and "under both readings" in row["reason"], row


def test_function_or_product_true_under_both_is_proved(tmp_path, capsys):
    # S(g^*): S applied to g*, or S·g*? The step holds either way
    body = r"Here $g^\star$ is the optimum." "\n" + displays(r"S(g^\star) + S(g^\star) = S(g^\star) \cdot 2")
    row = _rows(tmp_path, capsys, body)[0]
    assert row["status"] == "proved" and "under both readings" in row["reason"], row
    assert "S * gstar" in row["reason"], row


def test_function_or_product_false_as_a_product_only_gets_no_verdict(tmp_path, capsys):
    body = r"Here $g^\star$ is the optimum." "\n" + displays(r"S(g^\star) + 1 \le 2 S(g^\star)")
    row = _rows(tmp_path, capsys, body)[0]
    assert row["status"] == "ambiguous", row  # refuted as a product, not decided as a function: no verdict
    # (S(g*) + 1 ≤ S(g*) is false under both readings — as a function its S-terms cancel (session 43) — and is refuted)


def test_a_division_true_under_both_bindings_is_proved(tmp_path, capsys):
    row = _rows(tmp_path, capsys, displays(r"a/2b + a/2b = 2 \cdot (a/2b)"))[0]
    assert row["status"] == "proved" and "under both readings" in row["reason"], row


# 2. pairs -----------------------------------------------------------------------------------------------------

def test_a_pair_equation_is_read_componentwise(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, displays(r"(a + b, a) = (b + a, a + 1)",
                                            r"\left(\frac{a}{2}, b\right) = (a/2, 2b - b)"))
    assert [r["read_as"] for r in rows] == ["a + b = b + a", "a = a + 1", "a / 2 = a / 2", "b = 2 * b - b"], rows
    assert [r["status"] for r in rows] == ["proved", "refuted", "proved", "proved"], rows


def test_a_pair_of_iterates_is_two_updates(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, displays(r"(x_{k+1}, y_{k+1}) = (x_k - \eta u_k, y_k + \eta v_k)"))
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "update")] * 2, rows


def test_inner_products_and_arguments_are_no_pairs(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, displays(r"\langle a, b \rangle = \langle b, a \rangle", r"f(a, b) = (a, b)",
                                            r"(a)(b) = (a, b)"))
    assert len(rows) == 3 and "inner(a, b)" in rows[0]["read_as"], rows
    assert all(r["status"] != "proved" and r["status"] != "refuted" for r in rows[1:]), rows


# 4. ASCII norms -----------------------------------------------------------------------------------------------

def test_two_ascii_bars_are_a_norm(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, displays(r"||x + y|| \le ||x|| + ||y||",
                                            r"\left|\left| x \right|\right| = \left\Vert x \right\Vert",
                                            r"||a|-|b|| \le |a - b|", r"|a||b| = |a b|"))
    assert [r["read_as"] for r in rows] == ["norm(x + y) <= norm(x) + norm(y)", "norm(x) = norm(x)",
                                            "Abs(Abs(a) - Abs(b)) <= Abs(a - b)", "Abs(a) * Abs(b) = Abs(a * b)"], rows


# 3. kind cues -------------------------------------------------------------------------------------------------

PROOF = "\\begin{lemma}\nLet $\\gamma, \\beta, \\alpha, \\eta, h > 0$. Then $\\gamma L \\le 1$.\n\\end{lemma}\n\\begin{proof}\n"


def _eq(prose: str, body: str) -> str:
    return f"{prose}\n\\begin{{equation}}\n{body}\n\\end{{equation}}\n"


def test_setting_and_choosing_assign_a_value_the_next_rows_use(tmp_path, capsys):
    # the names are used before (in the lemma): "Setting \[γ = 1/L\]" is an assignment, not a claim to refute
    body = PROOF + _eq("Setting", r"\gamma = \frac{1}{L}") + _eq("we get", r"\gamma L = 1") + \
        _eq("Choosing", r"\beta = 2 \alpha,") + _eq("we see that", r"\beta - \alpha = \alpha") + \
        _eq(r"Now we set $\eta = 1/(2L)$ and obtain", r"2 \eta L = 1") + "\\end{proof}\n"
    rows = _rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [
        ("not_a_step", "definition"), ("proved", "step"), ("not_a_step", "definition"), ("proved", "step"),
        ("proved", "step")], rows


def test_by_definition_is_a_definitional_identity_never_refuted(tmp_path, capsys):
    body = PROOF + _eq("By definition,", r"\alpha = \beta + 1") + \
        _eq(r"By the definition of $F$, we have", r"\nabla F(h) = 2 h + 1") + \
        _eq("By the definition of $h$,", r"h + 1 = \eta") + "\\end{proof}\n"
    rows = _rows(tmp_path, capsys, body)
    assert (rows[0]["status"], rows[0]["kind"]) == ("not_a_step", "definition"), rows
    assert all(r["status"] != "refuted" for r in rows), rows
    assert "by definition" in rows[2]["reason"], rows


# 5. prose assumptions -----------------------------------------------------------------------------------------

def test_prose_assumptions_attach_to_the_displays_of_their_paragraph(tmp_path, capsys):
    body = ("Let $k \\ge 2$. We have\n\\begin{equation}\nk^2 \\ge 2 k\n\\end{equation}\n"
            "and also\n\\begin{equation}\nk^3 \\ge 4 k\n\\end{equation}\n\n"
            "We have\n\\begin{equation}\n\\eta L \\le 1\n\\end{equation}\nwhere $0 < \\eta \\le 1/L$.\n\n"
            "We have\n\\begin{equation}\nk^2 \\ge 2 k\n\\end{equation}\n")
    rows = _rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows[:3]] == ["proved", "proved", rows[2]["status"]], rows
    assert rows[2]["status"] in ("proved", "holds") and "0 < eta <= 1 / L" in rows[2]["assumptions"], rows
    assert rows[0]["assumptions"] == ["k >= 2 (stated in the prose)"], rows
    assert rows[3]["assumptions"] == [] and rows[3]["status"] != "proved", rows  # a new paragraph: k is free


def test_a_statements_assumptions_hold_in_its_proof_and_unread_ones_are_listed(tmp_path, capsys):
    body = ("\\begin{lemma}\nFor all $t \\ge 1$ and $\\mathcal{Q} \\succ 0$, $t^2 \\ge t$.\n\\end{lemma}\n"
            "\\begin{proof}\nWe have\n\\begin{equation}\nt^2 - t \\ge 0\n\\end{equation}\n"
            "and\n\\begin{equation}\n\\mathcal{Q} t^2 \\le \\mathcal{Q} t^2 - t\n\\end{equation}\n"
            "and\n\\begin{equation}\nt^2 \\le t^2 - t\n\\end{equation}\n\\end{proof}\n")
    rows = _rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved", rows
    assert "t >= 1 (stated in the prose)" in rows[0]["assumptions"], rows
    assert any("succ" in a and "not read" in a for a in rows[0]["assumptions"]), rows
    # false for every t >= 1, but the assumption on Q that was not read may bear on it; one not naming Q cannot
    assert rows[1]["status"] != "refuted" and "could not be read" in rows[1]["reason"], rows
    assert rows[2]["status"] == "refuted", rows  # false for every t >= 1


# 6. bold statement headings -----------------------------------------------------------------------------------

def test_a_bold_headed_statement_keeps_its_scope_over_paragraphs_until_the_proof(tmp_path, capsys):
    body = ("\\textbf{Lemma 3.} Let $x > 0$ be small.\n\nThen\n\\begin{equation}\nx^2 \\le x\n\\end{equation}\n\n"
            "\\textit{Proof.} We have\n\\begin{equation}\nx + x = 3 x\n\\end{equation}\n")
    rows = _rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "goal" and rows[0]["status"] == "not_a_step", rows  # the lemma's claim, not a step
    assert rows[1]["kind"] == "step" and rows[1]["status"] == "refuted", rows  # the proof's step is checked


def test_a_single_use_as_a_factor_does_not_silently_make_an_application_a_product(tmp_path, capsys):
    # S g^* once (a typo?) beside S(g^*): conflicting evidence; no silent product S·g*, both readings checked
    body = (r"There exists $S(g^\star)$ such that the rate holds." "\n" +
            displays(r"\lambda \le 2 S", r"S(g^\star) + S(g^\star) = 2 S(g^\star)", r"E \le S(g^\star) + 1"))
    rows = _rows(tmp_path, capsys, body)
    assert rows[1]["status"] == "proved" and "under both readings" in rows[1]["reason"], rows
    assert rows[2]["status"] == "ambiguous" and rows[2]["readings"][1] == "E <= S * gstar + 1", rows


def test_a_letter_used_as_a_number_and_applied_to_a_name_is_ambiguous(tmp_path, capsys):
    # S > 0 and η_t = S/t make S a number; "there exists S(g^*)" applies it: S(g^*) is no silent S·g^*
    body = (r"Let $S > 0$ and $\eta_t = S/t$. There exists $S(g^\star)$ such that the rate holds." "\n" +
            displays(r"E \le S(g^\star) + 1", r"\eta(a + b) = \eta a + \eta b"))
    rows = _rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous" and rows[0]["read_as"] == "E <= S(gstar) + 1", rows
    assert rows[1]["status"] == "proved", rows  # a number times a bracket stays a product
