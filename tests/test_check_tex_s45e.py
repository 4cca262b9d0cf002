"""Session 45 (helper s45-reade): RL names misread by the reader — a policy superscript read as a power (V_r^π as
V_r to the 3.14…), a capital map applied to an accented state read as a product (Π_a(s̄) as Π_a·s̄, because
``\\pi \\in \\Pi`` had counted as a factor "n·Π"), a primed letter under an accent refused (``\\bar{s'}``), a
convolution bracket written with ``\\left(`` … ``\\right)`` applied at a point, and an "If …, X decreases by" lead-in
taken for a hypothesis.  Every snippet is written for these tests (no paper's text); each test failed on the code
before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, doc as _doc  # noqa: E402


POLICY = r"Let $\pi$ be a policy, $\pi(a|s)$ the probability it plays $a$ in state $s$."


# 1. a policy superscript is a label, never a power -------------------------------------------------------------------
def test_value_with_a_policy_superscript_is_a_labelled_name_true_step_proved(tmp_path, capsys):
    # old: V_r^\pi read as V[r] ** pi (the constant π as an exponent)
    body = _doc(POLICY, displays(r"V_r^\pi + 2 V_c^\pi = 2 V_c^\pi + V_r^\pi"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved", rows
    assert "**" not in rows[0]["read_as"] and "Vsup[r, pi]" in rows[0]["read_as"], rows


def test_value_with_a_policy_superscript_planted_false_step_refuted_and_located(tmp_path, capsys):
    body = _doc(POLICY, displays(r"V_r^\pi + V_c^\pi \le V_r^\pi"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] in ("refuted", "inconclusive"), rows
    assert "**" not in rows[0]["read_as"], rows


def test_a_policy_superscript_before_the_subscript_is_the_same_label(tmp_path, capsys):
    # V^\pi_r is V_r^\pi in TeX (old: V[r] ** pi)
    body = _doc(POLICY, displays(r"V^\pi_r + 1 = 1 + V_r^\pi"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["read_as"]) for r in rows] == [("proved", "Vsup[r, pi] + 1 = 1 + Vsup[r, pi]")], rows


def test_decorated_policy_superscripts_are_labels(tmp_path, capsys):
    # old: Q^{\pi'} refused or read as a power; V^{\pi_k}, J^{\pi^*} as powers of a name pi_k / pistar
    body = _doc(displays(r"Q^{\pi'} + V^{\pi_k} + J^{\pi^*} = J^{\pi^*} + V^{\pi_k} + Q^{\pi'}"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved", rows
    assert "**" not in rows[0]["read_as"], rows
    assert "piprime" in rows[0]["read_as"] and "pi_k" in rows[0]["read_as"] and "pistar" in rows[0]["read_as"], rows


def test_operator_with_a_policy_superscript_is_no_power(tmp_path, capsys):
    # old: \mathcal{T}^\pi Q read as Tcal ** pi * Q
    body = _doc(POLICY, r"The operator satisfies", r"\begin{equation}",
                r"\mathcal{T}^\pi Q(s, a) := r(s, a) + \gamma \sum_{b} \pi(b|s) Q(s, b)", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert "Tcal ** pi" not in (rows[0]["read_as"] or ""), rows
    assert rows[0]["read_as"].startswith("Tcalsup_pi_Q(s, a) :="), rows  # the operator's value, defined


def test_bare_pi_superscript_where_the_paper_never_names_pi_is_a_question_not_a_verdict(tmp_path, capsys):
    # no π(·) anywhere — V^π may be the power of the constant or V labelled π: both readings, no silent one (old:
    # proved as powers; read as labels the step is false, so no verdict)
    rows = tex_rows(tmp_path, capsys, displays(r"V^\pi V^\pi = V^{2 \pi}"))
    assert rows[0]["status"] not in ("proved", "holds"), rows


def test_a_greek_parameter_exponent_stays_a_power(tmp_path, capsys):
    # guard: x^\alpha with α a number of the paper (α ∈ (0, 1)) is a power
    body = _doc(r"Let $\alpha \in (0, 1)$ and $x > 0$.", displays(r"x^\alpha x^\alpha = x^{2 \alpha}"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved" and "x ** alpha" in rows[0]["read_as"], rows


# 2. a capital map applied to an accented state ------------------------------------------------------------------------
def test_a_capital_map_of_an_accented_state_in_a_definition_is_applied(tmp_path, capsys):
    # old: Pi[a] * sbar := {…} — "\pi \in \Pi" counted as the factor "n·Π", and \overline{s} was no name argument
    body = _doc(POLICY, r"The admissible policies are", r"\begin{equation}",
                r"\Pi_a(\overline{s}) := \{\pi \in \Pi : V(\overline{s}) \leq \beta\}", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("Pi_a(sbar)"), rows


# 3. a primed letter under an accent ------------------------------------------------------------------------------------
def test_a_prime_inside_an_accent_is_a_primed_name(tmp_path, capsys):
    # old: "expected a name in braces, got "'""
    body = _doc(displays(r"\bar{s'} + \hat{\theta'} + \overline{x'} = \overline{x'} + \hat{\theta'} + \bar{s'}",
                         r"\bar{s'} - \bar{s}' = 1"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved", rows
    assert "sbarprime" in rows[0]["read_as"] and "thetahatprime" in rows[0]["read_as"], rows
    assert rows[1]["status"] == "refuted", rows  # s̄' written two ways is one name: 0 = 1 is false


def test_a_prime_inside_the_papers_accent_macro(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, displays(r"2 \ov{s'} = \ov{s'} + \ov{s'}"),
                    preamble="\\newcommand{\\ov}{\\overline}\n")
    assert rows[0]["status"] == "proved" and "sbarprime" in rows[0]["read_as"], rows


# 4. a \left( … \right) convolution bracket applied at a point ----------------------------------------------------------
def test_a_sized_convolution_bracket_at_a_point_is_no_product(tmp_path, capsys):
    # old: g * ⟦(g_0*g)⟧(x_l - ·) * x[k] — the value at x_k read as a factor x_k
    body = _doc(r"Let $g$ and $g_0$ be kernels.",
                displays(r"\left(g * \left[(g_0 * g)(x_l - \cdot)\right]\right)(x_k) = (g * g_0 * g)(x_l - x_k)",
                         r"\left(g * \left[(g_0 * g)(x_l - \cdot)\right]\right)(x_k) = 2 x_k"))
    rows = tex_rows(tmp_path, capsys, body)
    assert all("* x[k]" not in (r["read_as"] or "").split(" = ")[0] for r in rows), rows
    assert all(r["status"] not in ("proved", "holds", "refuted") for r in rows), rows


def test_a_sized_bracket_times_a_bracket_stays_a_product(tmp_path, capsys):
    # guard: no '*' at the bracket's top — \left(a + b\right)(c + d) is the product, as the plain form
    rows = tex_rows(tmp_path, capsys, displays(r"\left(a + b\right)(c + d) = a c + a d + b c + b d"))
    assert rows[0]["status"] == "proved", rows


# 5. "If …, one step decreases the loss by" + display: the lemma's conclusion ------------------------------------------
_LEMMA = "\\begin{lemma}\n%s\n\\begin{equation}\n%s\n\\end{equation}\n%s\\end{lemma}\n"
_PRE = "\\newtheorem{lemma}{Lemma}\n"


def test_a_display_after_if_then_one_step_decreases_by_is_the_lemmas_conclusion(tmp_path, capsys):
    # old: "not a step (hypothesis)", "a hypothesis of the lemma"
    rows = tex_rows(tmp_path, capsys,
                    _LEMMA % (r"If $0 < s \le 1$, one step of the scheme decreases the loss by", r"s^3 \le s .", ""),
                    preamble=_PRE)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "goal")], rows


def test_a_display_after_if_then_a_sequence_is_bounded_by_is_the_conclusion(tmp_path, capsys):
    # guard (passes on the old code too: "as follows" was a conclusion cue already)
    rows = tex_rows(tmp_path, capsys,
                    _LEMMA % (r"If $0 < s \le 1$, any iterate of it is bounded as follows", r"s^2 \le s .", ""),
                    preamble=_PRE)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "goal")], rows


def test_a_condition_display_after_if_stays_a_hypothesis(tmp_path, capsys):
    # guard: "If $x \ge 0$," + the display that is the condition, the conclusion after it
    rows = tex_rows(tmp_path, capsys, _LEMMA % (r"If $x \ge 0$,", r"x + y \le 1 ,", "then $y \\le 1$.\n"),
                    preamble=_PRE)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "hypothesis")], rows


def test_if_the_loss_decreases_by_with_no_main_clause_stays_a_hypothesis(tmp_path, capsys):
    # guard: the verb is the condition's own ("If the loss decreases by …"), no comma clause after a condition
    rows = tex_rows(tmp_path, capsys, _LEMMA % (r"If the loss decreases by", r"\delta \ge 1 ,",
                                                "then the method stops.\n"), preamble=_PRE)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "hypothesis")], rows


# 1b. an operator written before a function: applied, or a product? -----------------------------------------------------
def test_an_operator_before_a_function_is_a_question_never_a_linear_proof(tmp_path, capsys):
    # old: 𝒯Q₁ − 𝒯Q₂ = 𝒯(Q₁ − Q₂) proved as a product (linearity no Bellman operator has)
    body = _doc(POLICY, displays(r"\mathcal{T} Q_1 - \mathcal{T} Q_2 = \mathcal{T} (Q_1 - Q_2)",
                                 r"|\mathcal{T}^\pi Q_1(s, a) - \mathcal{T}^\pi Q_2(s, a)| \le 2 |Q_1(s, a) - Q_2(s, a)|"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous" and "operator" in rows[0]["reason"], rows
    assert rows[1]["status"] == "ambiguous" and "Tcalsup_pi_Q_1(s, a)" in rows[1]["readings"][0], rows
    assert "Tcalsup[pi] * Q_1(s, a)" in rows[1]["readings"][1], rows


def test_an_operator_before_a_function_true_under_both_readings_is_proved(tmp_path, capsys):
    # guard: 𝒯Q + 1 = 1 + 𝒯Q holds whichever is meant
    rows = tex_rows(tmp_path, capsys, displays(r"\mathcal{T} Q + 1 = 1 + \mathcal{T} Q"))
    assert rows[0]["status"] == "proved", rows


# 6. held-out author 8's D5: λ_max applied to different matrices is no "function or product?" review -------------------
def test_from_tex_drafts_lambda_max_of_a_matrix_without_a_review(tmp_path):
    # old: REVIEW "lam_smax(…) read as a function applied (the paper applies lam_smax to different arguments …) — or a
    # product?" — the reader knows λ_max is a spectral function of its matrix (never λ_max times the matrix)
    from theoryverify import fromtex
    tex = tmp_path / "p.tex"
    tex.write_text("\\documentclass{article}\n\\begin{document}\nThe constant is\n\\begin{equation}\\label{eq:ls}\n"
                   "L_s = \\frac{\\lambda_{\\max}(X^\\top X)}{4 n} + \\lambda .\n\\end{equation}\n"
                   "and $\\lambda_{\\max}(A + B) \\le 2$.\n\\end{document}\n")
    by = {e.name: e for e in fromtex.read(tex).entries}
    assert by["eq_ls"].relations and not by["eq_ls"].review and by["eq_ls"].transcribed, by["eq_ls"]


def test_a_starred_stopping_time_exponent_stays_a_power(tmp_path, capsys):
    # guard for the policy label: γ^{τ^*} (a discount to a stopping time's power) is no label — only π is
    body = _doc(r"Let $\gamma \in (0, 1)$ and $\tau^*$ a stopping time.",
                displays(r"\gamma^{\tau^*} \gamma = \gamma^{\tau^* + 1}"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved" and "gamma ** taustar" in rows[0]["read_as"], rows


def test_a_matrix_times_an_accented_vector_stays_a_product(tmp_path, capsys):
    # guard: H(\bar e_t) beside αH is H·ē_t — an accented argument is no evidence of a map outside a definition
    body = _doc(r"Let $\alpha > 0$.", displays(r"H(\bar{e}_t) + \alpha H = H (\bar{e}_t + \alpha)"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved", rows
