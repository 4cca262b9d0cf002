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


# 2. a '% theoryverify: scalar' declaration wins over the paper's other uses, and says so ----------------------------
def test_a_declared_scalar_wins_over_a_vector_use_elsewhere_with_a_note(tmp_path, capsys):
    # old: inconclusive, "the paper's vectors/matrices (b)": the declaration was silently overruled
    body = (r"The risk is $r(u) = \|A u - b\|^2$." "\n"
            r"In one dimension," "\n" r"% theoryverify: scalar a, u, b" "\n"
            r"\begin{equation}" "\n" r"(a u - b)^2 = a^2 u^2 - 2 a b u + b^2 ." "\n" r"\end{equation}" "\n")
    f = tmp_path / "p.tex"
    f.write_text("\\documentclass{article}\n\\begin{document}\n" + body + "\\end{document}\n")
    import json
    from theoryverify.check import cli
    cli.main(["--tex", str(f), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in out["relations"]] == ["proved"], out["relations"]
    notes = [n["message"] for n in out["notes"] if "scalar b" in n["message"]]
    assert len(notes) == 1 and "vector" in notes[0], out["notes"]


def test_a_declared_scalar_still_refutes_a_wrong_step(tmp_path, capsys):
    body = (r"The risk is $r(u) = \|A u - b\|^2$." "\n"
            r"In one dimension," "\n" r"% theoryverify: scalar a, u, b" "\n"
            r"\begin{equation}" "\n" r"(a u - b)^2 = a^2 u^2 - a b u + b^2 ." "\n" r"\end{equation}" "\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted"], rows


# 3. F = f(w) set inline, w a vector: f's value may be a vector (nothing says f is real-valued) — no verdict --------
_RISK = r"The risk is" "\n" r"\begin{equation}" "\n" r"r(v) = \|A v - c\|^2 + \|v\|^2 ." "\n" r"\end{equation}" "\n"


def test_a_value_of_a_function_of_a_vector_keeps_the_vector_caveat(tmp_path, capsys):
    # taking r(v) for a number because r is a lowercase function of the paper's would be a guess (a map x(θ) of a
    # vector θ is a vector): the step stays "a statement about vectors", inconclusive — never a verdict on a guess
    body = _RISK + (r"\begin{proof}" "\n" r"Since $r$ is quadratic, with $G = r(v)$," "\n" r"\begin{align}" "\n"
                    r"G - s t + s^2 t &= G - s (1 - s) t ." "\n" r"\end{align}" "\n" r"\end{proof}" "\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["not_a_step", "inconclusive"], rows
    assert "vectors" in rows[1]["reason"], rows


def test_a_builtin_function_of_a_vector_or_a_vector_outside_the_call_keeps_the_vector_caveat(tmp_path, capsys):
    body = _RISK + (r"With $K = \exp(v)$, we get" "\n" r"\begin{equation}" "\n"
                    r"2 K \le K^2 + 1 ." "\n" r"\end{equation}" "\n"
                    r"and" "\n" r"\begin{equation}" "\n" r"2 r(v) v \le r(v)^2 + v^2 ." "\n" r"\end{equation}" "\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["not_a_step", "inconclusive", "inconclusive"], rows


# 4. a lemma's conclusion after "If …, one step satisfies" -----------------------------------------------------------
_LEMMA = "\\begin{lemma}\n%s\n\\begin{equation}\n%s\n\\end{equation}\n\\end{lemma}\n"
_PRE = "\\newtheorem{lemma}{Lemma}\n"


def test_a_display_after_if_then_one_step_satisfies_is_the_lemmas_conclusion(tmp_path, capsys):
    # old: "not a step (hypothesis)", "a hypothesis of the lemma"
    rows = tex_rows(tmp_path, capsys, _LEMMA % (r"If $0 < s \le 1$, one iterate satisfies", r"s^3 \le s ."),
                    preamble=_PRE)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "goal")], rows


def test_a_display_after_suppose_satisfies_stays_a_hypothesis(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _LEMMA % (r"Suppose the step size satisfies", r"0 < s \le 1 .") +
                    "Then the iterates converge.\n", preamble=_PRE)
    assert {(r["status"], r["kind"]) for r in rows} == {("not_a_step", "hypothesis")}, rows


# 5. the conditions of a "With $…$ and $…$," clause --------------------------------------------------------------
def test_a_condition_joined_by_and_to_a_value_set_with_with_is_assumed(tmp_path, capsys):
    # old: "g ≥ 0" dropped (its "and" followed an equation, which had not passed the "With" cue on): no assumptions
    body = (r"The loss is $\ell(u) = \|u\|^2$." "\n" r"% theoryverify: scalar G, h, s" "\n"
            r"With $G = \ell(u)$ and $h \ge 0$," "\n" r"\begin{equation}" "\n" r"G - s h \le G + s h ." "\n"
            r"\end{equation}" "\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["assumptions"] for r in rows] == [["h >= 0 (stated in the prose)"]], rows
    assert rows[0]["status"] != "proved" and "h = -" not in rows[0]["reason"], rows


def test_an_equation_in_prose_with_no_cue_passes_nothing_on(tmp_path, capsys):
    body = (r"Recall $G = 2$ and $h \ge 0$ fails here, so" "\n" r"\begin{equation}" "\n" r"G - s h \le G + s h ." "\n"
            r"\end{equation}" "\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r.get("assumptions", []) for r in rows] == [[]], rows
