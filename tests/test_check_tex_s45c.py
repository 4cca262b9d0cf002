"""Referee 27's false refutations (session 45): a name set to a value by the context (``lim b_n = b = 0``,
``c_1 ≥ ⋯ ≥ c_m = 0``) refuted as an identity, a characteristic equation checked as a step, the consequent of a
``⟹`` chain checked without its antecedent, a coordinate ``v^{(1)}`` beside ``v`` read as a name of its own, and one
sloppy ``∇L^2(v)(…)`` row turning every ``∇L(v)`` of a paper into a product.  Every snippet is written for these tests
(no paper's text); each "old:" test failed on the code before the fix, each guard keeps a genuinely false step in a
nearby shape refuted."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows  # noqa: E402


def _proof(lead: str, display: str, after: str = "") -> str:
    return "\\begin{proof}\n" + lead + "\n\\begin{align*}\n" + display + "\n\\end{align*}\n" + after + \
        "\n\\end{proof}\n"


def _by_read(rows, text):
    hit = [r for r in rows if r.get("read_as") == text]
    assert hit, [(r.get("read_as"), r["status"]) for r in rows]
    return hit[0]


# 1. lim a_k = a = 0: a value the context determines ------------------------------------------------------------------
def test_a_limit_set_to_zero_by_the_context_is_not_refuted(tmp_path, capsys):
    # old: a = 0 refuted with a = 1
    rows = tex_rows(tmp_path, capsys, _proof(
        r"The sequence $a_k$ is monotone and bounded, so it tends to some $a \in [0, 1/p)$ with $a(1 - pa) = a$, "
        r"which gives", r" \lim_{k\to\infty} a_k = a = 0 ."))
    row = _by_read(rows, "a = 0")
    assert row["status"] != "refuted", row
    assert "sets a to 0" in row["reason"], row


def test_a_name_equal_to_an_expression_of_itself_is_still_refuted(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(
        r"The sequence $a_k$ is monotone and bounded, so it tends to some $a$, which gives",
        r" \lim_{k\to\infty} a_k = a = a + 2 ."))
    assert _by_read(rows, "a = a + 2")["status"] == "refuted", rows


def test_a_defined_name_set_to_another_value_is_still_refuted(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, "\\begin{proof}\nDefine\n\\[ m := 4 . \\]\nHence\n\\[ m = 5 . \\]\n"
                                      "\\end{proof}\n")
    assert _by_read(rows, "m = 5")["status"] == "refuted", rows


# 2. d_1 ≥ ⋯ ≥ d_r = 0: a fact stated about the sequence --------------------------------------------------------------
def test_the_last_link_of_an_ordering_chain_is_not_refuted(tmp_path, capsys):
    # old: d[r] = 0 refuted with d_r = 1
    rows = tex_rows(tmp_path, capsys, _proof(r"As the spectrum is ordered, we have",
                                             r" d_1 \ge \dots \ge d_r = 0,", "so the first term dominates."))
    row = _by_read(rows, "d[r] = 0")
    assert row["status"] != "refuted", row


def test_a_false_sum_in_an_ordering_chain_is_still_refuted(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"As the spectrum is ordered, we have",
                                             r" d_1 \ge \dots \ge d_r = 2 + 2 = 5,", "so the first term dominates."))
    assert _by_read(rows, "2 + 2 = 5")["status"] == "refuted", rows


# 3. det(λI − A) = λ² − λτ + δ = 0: the equation λ solves --------------------------------------------------------------
def test_a_characteristic_equation_is_not_a_step(tmp_path, capsys):
    # old: λ² − λτ + δ = 0 refuted with δ = 1
    rows = tex_rows(tmp_path, capsys, "Every eigenvalue $\\lambda$ of $A$ is a root of the characteristic "
                                      "polynomial\n\\begin{equation}\n \\det(\\lambda I - A) = \\lambda^2 - \\lambda "
                                      "\\tau + \\delta = 0.\n\\end{equation}\n")
    zero = _by_read(rows, "lam ** 2 - lam * tau + delta = 0")
    assert zero["status"] == "not_a_step", zero
    assert "equation" in zero["reason"], zero


def test_a_false_expansion_before_a_root_is_still_refuted(tmp_path, capsys):
    # the first link is still an identity to check: (λ − 1)(λ − 2) is no λ² − 2λ + 2
    rows = tex_rows(tmp_path, capsys, "Every eigenvalue $\\lambda$ of $A$ is a root of the polynomial\n"
                                      "\\begin{equation}\n (\\lambda - 1)(\\lambda - 2) = \\lambda^2 - 2\\lambda + 2 "
                                      "= 0.\n\\end{equation}\n")
    assert _by_read(rows, "(lam - 1) * (lam - 2) = lam ** 2 - 2 * lam + 2")["status"] == "refuted", rows
    rows = tex_rows(tmp_path, capsys, _proof("We have", r" (\lambda + 1)^2 - \lambda^2 - 1 = 0 ."))
    assert rows[0]["status"] == "refuted", rows


# 4. A ⟹ B ⟹ C: C is derived under B --------------------------------------------------------------------------------
CONTRA = (r"Assume $p > 2$ and $u > 1$; then $u < (\sqrt{p} - 1)^2$ is impossible:",
          " \\sqrt{u} < \\sqrt{p} - 1\n &\\implies \\underbrace{(1 + \\sqrt{u})^2}_{1 + 2\\sqrt{u} + u} < p "
          "\\stackrel{(\\ref{eq:b})}{<} 3 + u \\\\\n &\\implies 2\\sqrt{u} - 2 < 0\n \\implies \\sqrt{u} < 1")


def test_the_consequents_of_an_implication_chain_keep_their_antecedents(tmp_path, capsys):
    # old: 2√u − 2 < 0 and √u < 1 refuted at u = 1.000001 (the antecedent (1 + √u)² < p < 3 + u was dropped)
    rows = tex_rows(tmp_path, capsys, _proof(*CONTRA))
    for text in ("2 * sqrt(u) - 2 < 0", "sqrt(u) < 1"):
        row = _by_read(rows, text)
        assert row["status"] != "refuted", row
        # a side of a chain of two ⟹ is one statement with the others (s45-reada), else checked under its antecedent
        assert row["kind"] == "implication" or any("3 + u" in a for a in row.get("assumptions", [])), row


def test_a_false_consequent_of_an_implication_chain_is_still_refuted(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"Assume $u > 1$; then", " \\sqrt{u} < 2 \\implies u < 4 \\\\\n "
                                                                         "&\\implies 2 u < u + 1"))
    assert _by_read(rows, "2 * u < u + 1")["status"] == "refuted", rows  # (u > 1 and u < 4: never)


# 5. v^{(1)} beside v: a coordinate, or a name of its own? -------------------------------------------------------------
def test_a_coordinate_beside_its_vector_is_ambiguous(tmp_path, capsys):
    # old: A x + (x^{(1)} + 2) f_1 = (A + f_1 f_1^T) x + 2 f_1 refuted with x ≠ x^{(1)}
    rows = tex_rows(tmp_path, capsys, "Let $f_1$ be the first unit vector. The gradient is\n\\begin{equation}\n"
                                      " A x + (x^{(1)} + 2) f_1 = (A + f_1 f_1^T) x + 2 f_1,\n\\end{equation}\n"
                                      "where $x^{(1)}$ is the first entry of $x$.\n")
    assert rows[0]["status"] == "ambiguous", rows
    assert len(rows[0]["readings"]) == 2 and "coordinate" in rows[0]["readings"][1], rows


def test_a_superscripted_name_without_its_bare_name_is_still_refuted(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof("We have", r" (x^{(1)} + 1)^2 = (x^{(1)})^2 + 1 ."))
    assert rows[0]["status"] == "refuted", rows


# 6. one sloppy ∇F^2(w)(…) row does not make every ∇F(w) a product ----------------------------------------------------
def test_a_squared_gradient_row_does_not_flip_the_gradient_paper_wide(tmp_path, capsys):
    # old: every \nabla F(w_k) read ⟦∇F⟧ * w[k]
    body = _proof("Since $F(w)$ is smooth, we get",
                  r" \|\nabla F(w_k)\|^2 + 1 \le 2 + \|\nabla F(w_k)\|^2 .",
                  "The step, with the Hessian written as a square, is\n\\begin{align*}\n"
                  " w_{k+1} = w_k - h \\nabla F^2(w_k)(w_k - z_k).\n\\end{align*}")
    rows = tex_rows(tmp_path, capsys, body)
    assert "Fprime(w[k])" in rows[0]["read_as"], rows


def test_a_gradient_times_a_direction_does_not_flip_its_applications(tmp_path, capsys):
    # old: \nabla F \cdot d elsewhere made \nabla F(w_k) the product ⟦∇F⟧ * w[k]
    rows = tex_rows(tmp_path, capsys, _proof(r"We have $F(w)$ and the slope $\nabla F \cdot d$. Then",
                                             r" \|\nabla F(w_k)\|^2 + 1 = 1 + \|\nabla F(w_k)\|^2 ."))
    assert "Fprime(w[k])" in rows[0]["read_as"], rows


def test_a_gradient_written_as_a_value_stays_a_value(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, "$\\ell(y, z)$ and $\\nabla\\ell_i \\sum_r a_r$.\n\\[ \\nabla \\ell_i (a + b) "
                                      "= \\nabla \\ell_i a + \\nabla \\ell_i b \\]\n")
    assert rows[0]["read_as"].startswith("⟦\\nabla \\ell_i⟧ * (a + b) ="), rows


def test_an_antecedent_the_checker_cannot_use_leaves_its_consequent_readable(tmp_path, capsys):
    # (1 + √u)² < a c cannot be solved for one name: as an assumption it had made the consequent unreadable; it is
    # listed as not read instead (no refutation stands without it), and the row is still checked
    rows = tex_rows(tmp_path, capsys, _proof(
        r"Assume $a c > 2$ and $u > 1$; then",
        " \\sqrt{u} < \\sqrt{a c} - 1\n &\\implies (1 + \\sqrt{u})^2 < a c \\\\\n &\\implies 2\\sqrt{u} - 2 < 0"))
    row = _by_read(rows, "2 * sqrt(u) - 2 < 0")
    assert row["status"] not in ("unreadable", "refuted"), row
    assert any("not read" in a and "a * c" in a for a in row.get("assumptions", [])), row


def test_a_sum_bound_is_no_vector_beside_a_bracketed_superscript(tmp_path, capsys):
    # Σ_{k=1}^{m} c^{(k)}: m bounds the sum; c^{(k)} (no bare c) keeps its one reading and is checked
    rows = tex_rows(tmp_path, capsys, _proof("We have", r" \sum_{k=1}^{m} m^{(k)} + 1 = 1 + \sum_{k=1}^{m} m^{(k)} ."))
    assert rows[0]["status"] == "proved", rows
