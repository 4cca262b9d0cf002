"""Referee 18's held-out reading findings (session 41, s41-read2): update rules written with a time argument,
definitions that introduce a model's output or a new name in a chain, scalars followed by a bracket, notation that was
refused, kind cues and messages.  Snippets are written for these tests, never the papers' text."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows  # noqa: E402


def _kinds(rows):
    return [(r["kind"], r["status"]) for r in rows]


# --- 1. update rules with a time argument ------------------------------------------------------------------------

def test_the_algorithms_rule_with_a_time_argument_is_an_update(tmp_path, capsys):
    body = ("The regularised descent algorithm gives\n\\begin{align*}\n"
            "  W(t+1) &= W(t) - \\eta u e(t)^\\top X \\\\\n"
            "  \\beta(t+1) &= (1-\\eta\\lambda(t))\\beta(t) - \\eta W(t) X^\\top e(t)\n\\end{align*}\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("update", "not_a_step")] * 2, rows


def test_an_update_for_a_changes_to_is_an_update(tmp_path, capsys):
    body = ("Thus the update for $u$ changes to\n\\[ u_r(k+1) = (1-\\lambda(k)) u_r(k) - \\eta g_r(k) \\]\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("update", "not_a_step")], rows


def test_a_time_argument_recursion_without_prose_is_an_update(tmp_path, capsys):
    body = "Consider the sequence\n\\[ x(k+1) = x(k) - \\gamma h(x(k)) \\]\n"
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "update", rows


def test_a_rewritten_iteration_stays_a_step(tmp_path, capsys):
    # derived from the rule ("we can rewrite … as", "we have"): checked, never waved through as an update
    body = ("We can rewrite the iteration in vector form as\n\\[ e(t+1) = e(t) - \\eta A e(t) + v(t) \\]\n" +
            displays(r"z(t+1) = z(t) + z(t)"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["step", "step"], rows
    assert rows[1]["status"] not in ("not_a_step",), rows


# --- 2. definitions that were checked as steps ---------------------------------------------------------------------

def test_the_networks_output_is_a_definition(tmp_path, capsys):
    body = ("Let $g:\\mathbb{R}^d\\to\\mathbb{R}$ be a network with $m$ units. For an input $z$, the network outputs\n"
            "\\begin{equation}\n g(z) = \\frac{1}{\\sqrt m}\\sum_{j=1}^m a_j \\phi(v_j^\\top z)\n\\end{equation}\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("definition", "not_a_step")], rows


def test_a_name_a_chain_writes_for_the_first_time_is_defined_there(tmp_path, capsys):
    body = ("Let $q(s) = 1 + s$ for $s > 0$. The function $q$ can be bounded by\n"
            "\\[ q(s) \\le q_{\\mathrm{up}}(s) = 2 + \\min\\left(\\frac{m}{s^2}, \\frac{1}{s}\\right) \\]\n" +
            displays(r"q_{\mathrm{up}}(1) = 2 + \min\left(m, 1\right)"))
    rows = tex_rows(tmp_path, capsys, body)
    second = [r for r in rows if r["latex"].startswith("q_{\\mathrm{up}}(s)")]
    assert second and second[0]["kind"] == "definition" and second[0]["status"] == "not_a_step", rows
    # a later use of the name is still a step (and reads it through the definition)
    assert rows[-1]["kind"] == "step" and rows[-1]["status"] != "not_a_step", rows
