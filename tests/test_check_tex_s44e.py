"""Held-out author 7's reading defects (session 44): an unbraced ``\\frac`` exponent (``x^\\frac{1}{2}``), a
``% theoryverify: scalar`` declaration overruled by the paper's other uses, an inline ``$F = f(w)$`` that made F a
vector, a lemma's conclusion after "If …, one step satisfies" classed a hypothesis, and the conditions of a
"With $…$ and $…$," clause dropped.  Every snippet is written for these tests (no paper's text); each test failed on
the code before its fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows  # noqa: E402


# 1. an unbraced \frac, \tfrac, \dfrac or \sqrt as an exponent or subscript ----------------------------------------
def test_an_unbraced_frac_exponent_is_the_whole_fraction(tmp_path, capsys):
    # old: unreadable, "cannot read '\\frac' as an exponent or argument"
    rows = tex_rows(tmp_path, capsys, displays(r"u^\frac{1}{3} u^\frac{2}{3} = u .",
                                               r"v^\tfrac{1}{2} v^\dfrac{1}{2} = v^\sqrt{1} ."))
    assert [(r["status"], r["read_as"]) for r in rows] == [
        ("proved", "u ** (1 / 3) * u ** (2 / 3) = u"),
        ("proved", "v ** (1 / 2) * v ** (1 / 2) = v ** sqrt(1)")], rows


def test_an_unbraced_frac_exponent_still_refutes_a_wrong_step(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, displays(r"z^\frac{1}{2} z^\frac{1}{2} = z^2 ."))
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_an_unbraced_frac_subscript_is_the_whole_fraction(tmp_path, capsys):
    # old: unreadable, "cannot read the subscript '\\frac'"
    rows = tex_rows(tmp_path, capsys, displays(r"c_\frac{1}{2} = c_{\frac{1}{2}} ."))
    assert [r["status"] for r in rows] == ["proved"], rows
