"""Referee 33's W list, notation read two ways or as a product (session 49): † on a bracket and on a name in one
chain, and a tensor power of a measure applied to a set.  Every snippet is written for these tests (no paper's
text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def test_dagger_is_one_operation_in_a_chain_that_raises_a_bracket_to_it(tmp_path, capsys):
    # old: (AB)^† = B^† A^† read pinv(A*B) = Bdag*Adag — † read two ways in one line
    rows = tex_rows(tmp_path, capsys, _doc("For the pseudo-inverse,", r"\begin{equation}",
                                           r"(A B)^\dagger = B^\dagger A^{\dagger} .", r"\end{equation}"))
    assert rows[0]["read_as"] == "pinv(A * B) = pinv(B) * pinv(A)", rows
    assert rows[0]["status"] == "inconclusive", rows


def test_guard_a_daggered_name_alone_stays_a_name_of_its_own(tmp_path, capsys):
    # x^† beside no bracket raised to †: a point of its own (as x^* is), checked as such
    rows = tex_rows(tmp_path, capsys, _doc("We have", r"\begin{equation}", r"x^\dagger + x^\dagger = 3 x^\dagger .",
                                           r"\end{equation}"))
    assert "xdag" in rows[0]["read_as"] and rows[0]["status"] == "refuted", rows


def test_a_tensor_power_of_a_measure_applied_to_a_set_is_applied(tmp_path, capsys):
    # old: tensorpow(mu, n) * E — the product measure times the set
    rows = tex_rows(tmp_path, capsys, _doc("The product measure satisfies", r"\begin{equation}",
                                           r"\mu^{\otimes n}(E) \le \mu(E)^{n} .", r"\end{equation}"))
    assert "tensorpow(mu, n) * E" not in rows[0]["read_as"] and "(E)" in rows[0]["read_as"], rows


def test_guard_a_tensor_power_of_a_vector_stays_a_tensor_power(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _doc("We have", r"\begin{equation}", r"x^{\otimes 2} (a + b) = 0 .",
                                           r"\end{equation}"))
    assert "tensorpow(x, 2)" in rows[0]["read_as"], rows
