"""Referee 26's false refutation (session 44): numbered points written as superscripts (``q^1``, ``q^2``, ``q^{12}``)
read silently as powers of one q.  Snippets written for these tests (no paper's text)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows  # noqa: E402


def test_superscript_numbered_points_are_never_refuted_as_powers(tmp_path, capsys):
    """A paper that writes ``p^{1}`` numbers p (nobody writes a first power): ``|p^3 − p^1| = |p^{13} − p^1| + …``
    had been refuted with p = −1 as powers of one p; it is now "power or label?", both readings shown, no verdict."""
    body = "\n".join([
        r"Let $p^{1}, p^{3}$ be the ends of a segment and $p^{13}$ a point between them.",
        r"\begin{equation}",
        r"|p^{3} - p^{1}| = |p^{13} - p^{1}| + |p^{3} - p^{13}|",
        r"\end{equation}", ""])
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["ambiguous"], rows
    assert "p ** 13" in rows[0]["read_as"] and "superscript label" in rows[0]["reason"], rows


def test_a_power_stays_a_power_where_the_paper_writes_no_first_one(tmp_path, capsys):
    """Guard: without a ``^1`` on the name, ``x^2`` is x squared, and a wrong square is still refuted."""
    body = "\n".join([r"\begin{equation}", r"(x + 1)^{2} = x^{2} + 2x + 2", r"\end{equation}", ""])
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted"], rows
