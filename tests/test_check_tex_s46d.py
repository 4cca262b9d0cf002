"""Referee 29's items for helper s46-readd: macros defined through a wrapper macro (``\\newmacro{\\policy}{\\pi}``),
``\\shortintertext`` as a break between rows, the trace ``Tr[AB]`` never a product, and ``\\ln(x)^{p}`` ambiguous.
Every snippet is written for these tests (no paper's text); each test failed on the code before the fix unless it
says it is a guard."""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows  # noqa: E402

from theoryverify.check.macros import MacroTable  # noqa: E402


def _doc(*parts: str) -> str:
    return "\n".join(parts) + "\n"


def _proof(*rows: str) -> str:
    return _doc(r"\begin{proof}", "We have", r"\begin{align*}", *rows, r"\end{align*}", r"\end{proof}")


# 1. macros defined through a wrapper macro ------------------------------------------------------------------------
_WRAPPERS = _doc(r"\newcommand{\debug}[1]{#1}",
                 r"\newcommand{\newmacro}[2]{\newcommand{#1}{\debug{#2}}}",
                 r"\newcommand{\newop}[2]{\DeclareMathOperator{#1}{\debug{#2}}}",
                 r"\newcommand{\newfn}[2]{\newcommand{#1}[1]{#2(##1)}}",
                 r"\newcommand{\setvar}[2]{\def#1{#2}}",
                 r"\newmacro{\policy}{\pi}",
                 r"\newmacro\state{\policy}",
                 r"\newop{\Ker}{Ker}",
                 r"\newfn{\ff}{g}",
                 r"\setvar{\rate}{r}")


def test_a_macro_defined_through_a_wrapper_is_expanded(tmp_path, capsys):
    # old: "unknown LaTeX command \policy" (the wrapper's call defined nothing)
    rows = tex_rows(tmp_path, capsys, _proof(r"\policy + \policy &= 2\policy , \\",
                                              r"\state \rate + \rate\state &= 2 \pi r , \\",
                                              r"\ff{\rate} &= g(r) ."), preamble=_WRAPPERS)
    assert [r["status"] for r in rows] == ["proved", "proved", "proved"], rows


def test_a_false_step_in_wrapper_macros_is_still_refuted(tmp_path, capsys):
    # guard: the wrapper's macros read faithfully, so a wrong coefficient is caught
    rows = tex_rows(tmp_path, capsys, _proof(r"\policy + \policy &= 3\policy , \\",
                                              r"\state \rate + \rate\state &= \pi r ."), preamble=_WRAPPERS)
    assert [r["status"] for r in rows] == ["refuted", "refuted"], rows


def test_wrapper_definitions_in_the_table():
    t = MacroTable()
    notes = t.collect(_WRAPPERS, "p.tex")
    assert not notes, notes
    assert t.expand(r"\state") == r"\pi" and t.expand(r"\ff{x}") == "g(x)" and t.expand(r"\rate") == "r"
    assert t.expand(r"\Ker") == r"\operatorname{Ker}"
    assert t.get(r"\policy").origin == "p.tex:6"  # the call's line


def test_a_hostile_wrapper_defines_nothing_and_says_why(tmp_path, monkeypatch):
    # guard: a wrapper whose body builds names (\csname) is refused with a reason; its calls define nothing
    monkeypatch.chdir(tmp_path)
    t = MacroTable()
    notes = t.collect(_doc(r"\newcommand{\evil}[1]{\expandafter\newcommand\csname #1\endcsname{x}}",
                           r"\evil{foo}", r"\newcommand{\w}[1]{\newcommand{#1}{\write18{rm -rf ~}}}", r"\w{\bar}"),
                      "p.tex")
    assert any("p.tex:2" == n.origin and "not read" in n.message for n in notes), notes
    assert t.get(r"\foo") is None and t.get(r"\bar") is None, notes
    assert list(tmp_path.iterdir()) == []


def test_a_recursive_wrapper_is_bounded():
    # guard: a wrapper that redefines itself into more calls stops at its bounds, fast, with a note
    t = MacroTable()
    start = time.process_time()
    notes = t.collect(r"\def\a{\def\a{\a\a\a\a}\a\a}" + "\n" + r"\a\a\a" + "\n" + r"\newmacro", "p.tex")
    assert time.process_time() - start < 1.0
    assert any("not read" in n.message for n in notes)
