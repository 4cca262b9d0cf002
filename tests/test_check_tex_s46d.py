"""Referee 29's items for helper s46-readd: macros defined through a wrapper macro (``\\newmacro{\\policy}{\\pi}``),
``\\shortintertext`` as a break between rows, the trace ``Tr[AB]`` never a product, and ``\\ln(x)^{p}`` ambiguous.
Every snippet is written for these tests (no paper's text); each test failed on the code before the fix unless it
says it is a guard."""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc, proof_align as _proof  # noqa: E402

from theoryverify.check.macros import MacroTable  # noqa: E402


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


# 2. \shortintertext / \intertext: a break between rows with text ------------------------------------------------
_CLAIMS = _doc(r"\begin{proof}", "Hence, for x close to p,", r"\begin{alignat}{2}",
               r"\langle v(x), x - p\rangle &\leq - c \, \|x - p\|^{2} &\qquad &\text{for all $x$ close to $p$}.",
               r"\shortintertext{If $p$ is strict, there exists some $c>0$ such that}",
               r"\langle v(x), x - p\rangle &\leq - c \, \|x - p\| &\qquad &\text{for all $x$ close to $p$}.",
               r"\end{alignat}", r"\end{proof}")


def test_shortintertext_separates_two_claims(tmp_path, capsys):
    # old: one chain glued across the text: a spurious step -c‖x−p‖² ≤ -c‖x−p‖ (checked in a proof), and a row whose
    # left side held ". \shortintertext{…} ⟨v(x), x − p⟩"
    rows = tex_rows(tmp_path, capsys, _CLAIMS)
    assert [r["latex"].split(r"\le")[0].strip() for r in rows] == [r"\langle v(x), x - p\rangle"] * 2, rows
    assert not any("intertext" in r["latex"] for r in rows), rows


def test_intertext_keeps_a_chain_and_gives_a_where_row_its_role(tmp_path, capsys):
    # guard: a chain that continues after the text ("&= …") is still checked — a false link refuted — and
    # \intertext{where} makes the next row a definition
    rows = tex_rows(tmp_path, capsys, _doc(r"\begin{proof}", "Hence", r"\begin{align}", r"a + a &= 2 a \\",
                                           r"\intertext{and hence, by the same argument applied twice,}",
                                           r"&= a + a + a \\", r"\intertext{where}", r"b &= 3 a", r"\end{align}",
                                           r"\end{proof}"))
    assert [(r["status"], r["kind"]) for r in rows] == [("proved", "step"), ("refuted", "step"),
                                                        ("not_a_step", "definition")], rows


# 3. the trace written as letters: Tr[AB] -------------------------------------------------------------------------
def test_trace_written_as_letters_is_the_trace_never_a_product(tmp_path, capsys):
    # old: exp(N*Tr*(A*B)) = exp(N*Tr*(B*A)) proved — the matrices commuted as numbers
    body = "For square matrices $A$ and $B$,\n" + _proof(r"e^{N Tr[A B]} &= e^{N Tr[B A]} , \\",
                                                       r"e^{N \mathrm{Tr}[A B]} &= e^{N \mathrm{Tr}[B A]} , \\",
                                                       r"tr\left(A B\right) &= tr\left(B A\right) , \\",
                                                       r"Tr[A B] &= Tr[A]\, B .")
    rows = tex_rows(tmp_path, capsys, body)
    assert all(r["status"] not in ("proved", "holds", "refuted") for r in rows), rows
    assert all("trace(A * B)" in r["read_as"] for r in rows), rows


def test_a_false_step_with_a_trace_is_still_refuted(tmp_path, capsys):
    # guard: the trace is an unknown of its own; a wrong constant beside it is caught, a sum of the same terms proved
    body = "For square matrices $A$ and $B$,\n" + _proof(r"Tr[A B] + 2 &= Tr[A B] + 3 , \\",
                                                       r"Tr[A B] + Tr[A B] &= 2\, Tr[A B] , \\",
                                                       r"T r + T r &= 3 T r .")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted", "proved", "refuted"], rows


# 4. \ln(x)^{p}: the power of the logarithm, or the logarithm of the power -------------------------------------
def test_log_of_a_bracket_to_a_power_is_ambiguous(tmp_path, capsys):
    # old: -1/n ln(1 + 2βR)^{-n/2} = ½ ln(1 + 2βR) refuted on the reading (ln x)^{-n/2}; ln(x^{-n/2}) makes it true
    body = "We have\n" + _proof(r"-\frac{1}{n}\ln \left(1 + 2\beta R\right)^{-n/2} &= \frac{1}{2}\ln(1 + 2\beta R) , \\",
                                r"\ln(1 + x)^{2} &= 2 \ln(1 + x) .")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["ambiguous", "ambiguous"], rows
    assert "log((1 + 2 * beta * R) ** (-(n / 2)))" in rows[0]["readings"][1], rows


def test_a_log_power_false_under_both_readings_is_refuted(tmp_path, capsys):
    # guard: a step false whichever way the power is read is still refuted
    body = "We have\n" + _proof(r"-\frac{1}{n}\ln(1 + 2\beta R)^{-n/2} &= \frac{1}{3}\ln(1 + 2\beta R) , \\",
                                r"\log(1 + x)^{2} + 1 &= \log(1 + x)^{2} + 2 .")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted", "refuted"], rows


# 1b. mathtools' \DeclarePairedDelimiterX / XPP, and a definition inside a macro's body -------------------------
_PAIRED = _doc(r"\DeclareMathOperator{\ex}{\mathbb{E}}",
               r"\providecommand\given{}",
               r"\DeclarePairedDelimiterXPP{\exof}[1]{\ex}{[}{]}{}{\renewcommand\given{\nonscript\,\delimsize\vert"
               r"\nonscript\,\mathopen{}} #1}",
               r"\DeclarePairedDelimiterX{\inner}[2]{\langle}{\rangle}{#1,#2}",
               r"\DeclarePairedDelimiterXPP{\onenorm}[1]{}{\lVert}{\rVert}{_{1}}{#1}")


def test_paired_delimiters_x_and_xpp_expand():
    # old: "\DeclarePairedDelimiterX not supported" (its macro unknown); XPP not read at all
    t = MacroTable()
    assert not t.collect(_PAIRED, "p.tex")
    assert t.expand(r"\inner{a}{b}") == r"\left\langle a,b\right\rangle"
    assert t.expand(r"\onenorm{v}") == r"\left\lVert v\right\rVert_{1}"
    assert t.expand(r"\exof{X \given Y}") == r"\operatorname{E}\left[  X \nonscript\,\vert\nonscript\,\mathopen{} Y\right]"
    assert t.expand(r"\exof[\big]{X}") == r"\operatorname{E}\bigl[  X\bigr]"
    assert t.expand(r"\given") == ""  # outside \exof: the paper's own empty \given


def test_paired_delimiter_x_rows_are_read(tmp_path, capsys):
    # the inner product of a mathtools macro read as ⟨a, b⟩: a true step proved, a false one refuted (guard)
    rows = tex_rows(tmp_path, capsys, _proof(r"\inner{a}{b} + \inner{a}{b} &= 2\inner{a}{b} , \\",
                                              r"\inner{a}{b} + \inner{a}{b} &= 3\inner{a}{b} ."), preamble=_PAIRED)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_a_definition_with_parameters_in_a_body_is_left_as_written():
    # guard: only a definition without parameters is made for the rest of a body; another is never guessed
    t = MacroTable()
    t.collect(r"\newcommand{\mk}[1]{\renewcommand\f[1]{##1+#1} \f{2}}", "p.tex")
    assert t.expand(r"\mk{3}").startswith(r"\renewcommand")


def test_an_operator_whose_name_is_decorated_is_not_read_as_its_letters():
    # guard: \overline{Reg} (pseudo-regret) is not Reg, TC^* (the dual cone) is not TC — left unknown, with a note
    t = MacroTable()
    notes = t.collect(_WRAPPERS + _doc(r"\newop{\preg}{\overline{Reg}}", r"\newop{\tc}{TC}", r"\newop{\dc}{\tc^{\ast}}"),
                      "p.tex")
    assert t.get(r"\preg") is None and t.get(r"\dc") is None and t.expand(r"\tc") == r"\operatorname{TC}"
    assert sum("decorated" in n.message for n in notes) == 2, notes


def test_a_bracket_around_a_log_to_a_power_is_the_power_of_the_log(tmp_path, capsys):
    # guard: (\log K)^2 is written unambiguously — the power of the bracket — and \log_2(x)^2 is still asked
    rows = tex_rows(tmp_path, capsys, _proof(r"K^{4} (\log K)^{2} &= (K^{2} \log K)^{2} , \\",
                                              r"\log_2(1 + x)^{2} &= 2 \log_2(1 + x) ."))
    assert [r["status"] for r in rows] == ["proved", "ambiguous"], rows


# 5. (found in the games paper once it was read) "since ‖u‖ = 1" is that norm's value, not a definition of the norm
def _since(row: str, prose: str) -> str:
    return _doc(r"\begin{proof}", "Then", r"\begin{align}", row, r"\end{align}", prose, r"\end{proof}")


def test_a_norm_stated_after_the_display_is_no_definition_of_the_norm(tmp_path, capsys):
    # old: ‖w‖₂‖x‖∞ ≤ ‖x‖∞ PROVED from "since ‖u‖₂ = 1" (norm(u) = 1 taken as norm(·) ≡ 1 for every argument)
    rows = tex_rows(tmp_path, capsys, _since(r"\sqrt{a}\,\|w\|_2 \, \|x\|_\infty &\le \sqrt{a}\, \|x\|_\infty",
                                             r"since $\|u\|_2 = 1$."))
    assert rows[0]["status"] not in ("proved", "holds"), rows


def test_a_norm_stated_after_the_display_still_serves_its_own_step(tmp_path, capsys):
    # guard: the stated value of that very norm is used (proved), and a paper's own function stated after the display
    # is still a definition for every argument
    rows = tex_rows(tmp_path, capsys, _since(r"\sqrt{a}\,\|u\|_2 \, \|x\|_\infty &\le \sqrt{a}\, \|x\|_\infty",
                                             r"since $\|u\|_2 = 1$.") +
                    _since(r"S(a) + S(a) &= 3 a^2", r"where $S(x) = x^2$."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
