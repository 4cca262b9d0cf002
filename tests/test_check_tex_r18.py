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
