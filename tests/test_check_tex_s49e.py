"""Referee 34's misreadings (session 49, two real papers' proofs): two capitals before a bracket where the paper
applies the second alone (X W(t)ᵀ), a product over an index between two bounds followed by factors free of it,
† inside a fraction beside a bracket raised to †, and "a matrix $C$ is … if, for all $x$," before a display.
Every snippet is written for these tests (no paper's text); each test failed on the code before the fix unless it
says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402

_W = "Let $W(t)$ be the weights at step $t$ and $X$ the data matrix, with $W(0)$ random and $X$ fixed."


def test_a_factor_before_a_map_the_paper_applies_alone_is_a_product(tmp_path, capsys):
    # old: transpose(XW(t + 1)) — one function XW (applied to t, t + 1: "a function")
    rows = tex_rows(tmp_path, capsys, _doc(_W, "Then", r"\begin{equation}", r"e(t+1) = XW(t+1)^{\top} b - y ,",
                                           r"\end{equation}", "and", r"\begin{equation}",
                                           r"g(t) = XW(t)^{\top} W(t) X^{\top} .", r"\end{equation}"))
    assert "X * transpose(W(t + 1))" in rows[0]["read_as"], rows
    assert "X * transpose(W(t)) * W(t) * transpose(X)" in rows[1]["read_as"], rows


def test_guard_a_declared_capital_word_stays_its_function(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _doc("% theoryverify: function XW", _W, "Then", r"\begin{equation}",
                                           r"XW(t) = XW(t) ,", r"\end{equation}"))
    assert rows[0]["read_as"] == "XW(t) = XW(t)", rows


def test_a_product_over_an_index_between_bounds_takes_the_bracket_only(tmp_path, capsys):
    # old: Product((1 - c[j]) * norm(y), …) — ‖y‖ raised to the number of terms
    rows = tex_rows(tmp_path, capsys, _doc("Unrolling, we get", r"\begin{equation}",
                                           r"S = \sum_{i=0}^{k-1} c_i \prod_{i<j<k}(1-c_j)\|y\| .", r"\end{equation}"))
    assert "Product(1 - c[j], (j, i + 1, k - 1)) * norm(y)" in rows[0]["read_as"], rows


def test_dagger_inside_a_fraction_is_the_same_operation(tmp_path, capsys):
    # old: pinv(M) at the top level, Mdag inside \frac
    rows = tex_rows(tmp_path, capsys, _doc("We have", r"\begin{equation}",
                                           r"(M + x x^{T})^{\dagger} = M^{\dagger} - \frac{M^{\dagger} x x^{T} M^{\dagger}}"
                                           r"{1 + x^{T} M^{\dagger} x} .", r"\end{equation}"))
    assert "dag" not in rows[0]["read_as"] and rows[0]["read_as"].count("pinv(M)") == 4, rows


def test_an_object_called_something_if_for_all_defines_a_property(tmp_path, capsys):
    # old: a step (inconclusive)
    rows = tex_rows(tmp_path, capsys, _doc("Given a matrix $A$, a matrix $C$ is its subspace preserving matrix if, "
                                           "for all $x$,", r"\begin{equation}", r"|\|C x\|^2 - \|A x\|^2| \le "
                                           r"\epsilon \|A x\|^2 .", r"\end{equation}"))
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")], rows
