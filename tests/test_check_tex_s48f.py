"""Referees 31/32's common LaTeX the reader refused (session 48, helper s48-readf): ``\\MoveEqLeft``, ``\\odot`` and
``^{\\circ 2}`` (elementwise), ``(f \\circ g)(x)``, ``\\varkappa``, ``\\log^{3/4} n``, and a sum's first bound.  Every
snippet is written for these tests (no paper's text); each test failed on the code before the fix unless it says it
is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, proof_align as _proof  # noqa: E402


# 1. \MoveEqLeft[n]: layout only --------------------------------------------------------------------------------------
def test_move_eq_left_is_dropped_with_its_optional_argument(tmp_path, capsys):
    # old: "unknown LaTeX command \MoveEqLeft" on the chain's first link
    rows = tex_rows(tmp_path, capsys, _proof(r"\MoveEqLeft[3] (a + b)^2 + c \\",
                                              r"&= a^2 + 2 a b + b^2 + c \\",
                                              r"&= c + b^2 + 2 a b + a^2 ."), preamble="\\usepackage{mathtools}\n")
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert rows[0]["read_as"].startswith("(a + b) ** 2 + c ="), rows


def test_move_eq_left_with_a_braced_row_keeps_a_false_step_refuted(tmp_path, capsys):
    # guard: dropping the layout command cannot hide an error: (x + 1)^2 = x^2 + 2x + 2 is false
    rows = tex_rows(tmp_path, capsys, _proof(r"\MoveEqLeft{(x + 1)^2} \\", r"&= x^2 + 2 x + 2 ."))
    assert [r["status"] for r in rows] == ["refuted"], rows


# 2. \odot, ^{\circ 2}: elementwise, kept whole; (f \circ g)(x) = f(g(x)) ---------------------------------------------------
def test_odot_is_an_opaque_elementwise_product_of_both_operands(tmp_path, capsys):
    # old: "unknown LaTeX command \odot"; never a number's product: u ⊙ v = uv is not proved (true in one dimension
    # only), and distributivity over an opaque product is not claimed
    rows = tex_rows(tmp_path, capsys, displays(r"\|u \odot (v + w)\| = \|u \odot v + u \odot w\| .",
                                               r"u \odot v = u v ."))
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert "hadamard(u, v + w)" in rows[0]["read_as"] and rows[1]["read_as"] == "hadamard(u, v) = u * v", rows


def test_a_false_step_around_an_elementwise_product_is_still_refuted(tmp_path, capsys):
    # guard: the elementwise product cancels; 1 = 2 stays false whatever it is
    rows = tex_rows(tmp_path, capsys, displays(r"a \odot b + 1 = a \odot b + 2 ."))
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_hadamard_power_is_kept_whole(tmp_path, capsys):
    # old: "unknown LaTeX command \circ" for [u + v]^{\circ 2} (the elementwise square); never (u + v)^2
    rows = tex_rows(tmp_path, capsys, displays(r"[u + v]^{\circ 2} = (u + v)^2 .", r"d [u + v]^{\circ 2} = d [u + v]^{\circ 2} ."))
    assert [r["status"] for r in rows] == ["inconclusive", "proved"], rows
    assert rows[0]["read_as"] == "hadamardpow(u + v, 2) = (u + v) ** 2", rows


def test_a_composition_applied_at_a_point_is_the_maps_applied_in_turn(tmp_path, capsys):
    # old: composeat(f, g, x), an unknown that kept (f ∘ g)(x) = f(g(x)) from being proved; guard: g(f(x)) is not
    rows = tex_rows(tmp_path, capsys, displays(r"(f \circ g)(x) = f(g(x)) .", r"(f \circ g)(x) = g(f(x)) ."),
                    preamble="% theoryverify: function f\n% theoryverify: function g\n")
    assert [r["status"] for r in rows] == ["proved", "inconclusive"], rows
    assert rows[0]["read_as"] == "f(g(x)) = f(g(x))", rows


# 3. \varkappa: a letter of its own ----------------------------------------------------------------------------------
def test_varkappa_is_a_name_distinct_from_kappa(tmp_path, capsys):
    # old: "unknown LaTeX command \varkappa"; ϰ is not κ (ϰ + 1 = κ + 1 is never proved)
    rows = tex_rows(tmp_path, capsys, displays(r"\varkappa + \kappa = \kappa + \varkappa .", r"\varkappa + 1 = \kappa + 1 ."))
    assert rows[0]["status"] == "proved" and rows[0]["read_as"] == "varkappa + kappa = kappa + varkappa", rows
    assert rows[1]["status"] != "proved", rows


# 4. \log^{p} x = (\log x)^p for any positive p ------------------------------------------------------------------------------
def test_a_broken_or_symbolic_power_of_a_logarithm_is_read(tmp_path, capsys):
    # old: "\log^{…} is read only with a positive whole power"
    rows = tex_rows(tmp_path, capsys, displays(r"\log^{3/4} n \cdot \log^{1/4} n = \log n .",
                                               r"\ln^{a} x = (\ln x)^{a} ."))
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert rows[0]["read_as"] == "log(n) ** (3 / 4) * log(n) ** (1 / 4) = log(n)", rows


def test_a_false_step_with_a_broken_log_power_is_refuted(tmp_path, capsys):
    # guard
    rows = tex_rows(tmp_path, capsys, displays(r"\log^{1/2} n \cdot \log^{1/2} n = 2 \log n ."))
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_inverse_and_iterated_logarithms_stay_unread(tmp_path, capsys):
    # guard: \log^{-1}, \log^{(2)}, \log^* are no powers of the logarithm
    rows = tex_rows(tmp_path, capsys, displays(r"\log^{-1} n = 1 .", r"\log^{(2)} n = \log \log n .", r"\log^* n = 1 ."))
    assert [r["status"] for r in rows] == ["unreadable"] * 3, rows
    assert all("iterated logarithm" in r["reason"] for r in rows), rows


# 5. a sum's first bound is a whole number -----------------------------------------------------------------------------------
def test_a_name_in_a_sums_first_bound_is_an_integer(tmp_path, capsys):
    # old: "Sum bounds must be integers" (n_0 in the first bound was left a real name)
    rows = tex_rows(tmp_path, capsys, displays(r"\sum_{k=n_0}^{n-1} 1 = n - n_0 .",
                                               r"\sum_{l=-m+1}^{0} a_l = \sum_{l=T+1}^{k} b_l ."))
    assert [r["status"] for r in rows] == ["proved", "inconclusive"], rows


def test_a_false_sum_over_a_symbolic_first_bound_is_refuted(tmp_path, capsys):
    # guard
    rows = tex_rows(tmp_path, capsys, displays(r"\sum_{k=n_0}^{n} k = \sum_{k=n_0}^{n} (k + 1) ."))
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_a_bound_that_is_no_integer_is_named_in_the_reason():
    # old: "Sum bounds must be integers: declare the bound, e.g. …" without saying which bound
    from theoryverify.check.session import Session
    v = Session("free", ["l > 0", "n > 0"]).check("Sum(1, (k, 1, n - l)) == n - l")
    text = str(v)
    assert "the last bound -l + n is not one (l, n not declared an integer)" in text, text
    assert '--assume "l: integer"' in text, text


def test_move_eq_left_opens_a_new_chain_after_a_definition_row(tmp_path, capsys):
    # "… =: E \qquad \forall x, \\ \MoveEqLeft \|f\| \\ & \le …": the \MoveEqLeft row is the next chain's left side;
    # old (once \MoveEqLeft was dropped): it continued the row above, defining E·‖f‖
    body = _proof(r"\MoveEqLeft |f(x)| \\", r"& \le a + b =: E \qquad \forall x, \\",
                  r"\MoveEqLeft \|f\| \\", r"& \le a + 2 b .")
    rows = tex_rows(tmp_path, capsys, body)
    read = [r["read_as"] for r in rows]
    assert "a + b =: E" in read and "norm(f) <= a + 2 * b" in read, rows
