"""Held-out author 10's ``--tex`` defects (issue 29, /work/notes/author10.md): D5 — one ``% theoryverify: assume
eta > 0, h > 0`` line aborted the whole run (exit 2, no rows); D4 — a prose side condition with a product ("If
$0 < \\eta h < 2$, then") was not read while ``--assume "0 < eta*h < 2"`` is; D8 — a refuted step's evidence gave
the residual's value as if it were the residual ("lhs − rhs = -2 ≠ 0 exactly" for −2η²h²)."""
from __future__ import annotations

import json

from texrows import displays, doc, tex_rows

from theoryverify.check import cli

TRUE = r"(1 + \eta h)^2 = 1 + 2 \eta h + \eta^2 h^2 ."
FALSE = r"(1 + \eta h)^2 = 1 + 2 \eta h + 2 \eta^2 h^2 ."


def _run(tmp_path, capsys, body: str, preamble: str = "") -> tuple[int, dict]:
    f = tmp_path / "p.tex"
    f.write_text("\\documentclass{article}\n" + preamble + "\\begin{document}\n" + body + "\\end{document}\n")
    code = cli.main(["--tex", str(f), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_d5_an_assumption_line_listing_two_assumptions_is_read(tmp_path, capsys):
    """``assume eta > 0, h > 0`` was "not allowed: tuple" and exit 2 with no rows; it is two assumptions."""
    code, out = _run(tmp_path, capsys, displays(TRUE), "% theoryverify: assume eta > 0, h > 0\n")
    assert code == 0
    (row,) = out["relations"]
    assert row["status"] == "proved"
    assert {"eta > 0", "h > 0"} <= set(row["assumptions"]), row["assumptions"]
    assert not out["notes"]


def test_d5_an_unreadable_assumption_is_a_note_and_the_rest_is_checked(tmp_path, capsys):
    """A part that cannot be read is a note; the file's displays are still checked, and a refutation of a display
    that names the part's symbol is inconclusive (it may rest on leaving the assumption out)."""
    code, out = _run(tmp_path, capsys, displays(TRUE, FALSE), "% theoryverify: assume eta > 0, h >> 0\n")
    assert code == 0
    first, second = out["relations"]
    assert first["status"] == "proved"
    assert second["status"] == "inconclusive" and "h >> 0" in second["reason"], second["reason"]
    assert any("'h >> 0' not read" in n["message"] for n in out["notes"]), out["notes"]


def test_d5_an_unreadable_assumption_on_other_names_leaves_a_false_step_refuted(tmp_path, capsys):
    """The guard: a part not read about a name the step does not write does not hide the step's error."""
    code, out = _run(tmp_path, capsys, displays(FALSE), "% theoryverify: assume eta > 0, q >> 0\n")
    assert code == 1  # a refutation
    assert out["relations"][0]["status"] == "refuted"


def test_d8_a_refuted_steps_evidence_gives_the_residual_and_the_point(tmp_path, capsys):
    """``1 − (1 − ηh)² = ηh(2 + ηh)`` was refuted with "lhs − rhs = -2 ≠ 0 exactly" — the value at η = h = 1 shown as
    if it were the residual, which is −2η²h²."""
    (row,) = tex_rows(tmp_path, capsys, displays(r"1 - (1 - \eta h)^2 = \eta h (2 + \eta h) ."))
    assert row["status"] == "refuted"
    assert "lhs − rhs = -2*eta**2*h**2 (= -2 ≠ 0 exactly at eta = 1, h = 1)" in row["reason"], row["reason"]


def test_d8_a_constant_residual_is_still_said_as_a_constant(tmp_path, capsys):
    """The guard: a residual that is a number (a dropped constant) is given as that number."""
    (row,) = tex_rows(tmp_path, capsys, displays(r"(1 + \eta)^2 = \eta^2 + 2 \eta ."))
    assert row["status"] == "refuted"
    assert "lhs − rhs = 1 ≠ 0 exactly" in row["reason"], row["reason"]


SIDE = doc(r"\begin{lemma}", r"If $0 < \eta h < 2$, then $v = \eta / (h (2 - \eta h))$.", r"\end{lemma}",
           r"\begin{proof}", "We have", r"\begin{equation}",
           r"v = \frac{\eta^2}{1 - (1 - \eta h)^2} = \frac{\eta}{h(2 - \eta h)} .", r"\end{equation}", r"\end{proof}")
LEMMA = "\\newtheorem{lemma}{Lemma}\n"


def test_d4_a_prose_side_condition_with_a_product_says_why_it_is_not_read(tmp_path, capsys):
    """author 10's repro/side.tex: "If $0 < \\eta h < 2$" was "not read" with no reason, although ``--assume "0 <
    eta*h < 2" --assume "h > 0"`` reads it: the reason is the missing sign, and the row says the line that reads it."""
    rows = tex_rows(tmp_path, capsys, SIDE, preamble=LEMMA)
    assert [r["status"] for r in rows] == ["inconclusive", "proved"]
    assert "0 < eta * h < 2: no sign of eta or h is stated" in rows[0]["reason"], rows[0]["reason"]
    assert "assume h > 0" in rows[0]["reason"]


def test_d4_with_the_sign_stated_the_prose_side_condition_is_read_as_assume_reads_it(tmp_path, capsys):
    """With h > 0 stated (as --assume needs it too) the prose condition is read: an assumption of the rows."""
    rows = tex_rows(tmp_path, capsys, SIDE, preamble=LEMMA + "% theoryverify: assume h > 0\n")
    assert "0 < eta * h < 2 (stated in the prose)" in rows[1]["assumptions"], rows[1]["assumptions"]
    assert rows[1]["status"] == "proved"


def test_d4_a_false_step_under_the_read_side_condition_is_refuted(tmp_path, capsys):
    """The guard: reading the condition does not hide a wrong step inside it."""
    body = doc(r"\begin{lemma}", r"If $0 < \eta h < 2$, then the following holds.", r"\end{lemma}",
               r"\begin{proof}", "We have", r"\begin{equation}", r"(1 - \eta h)^2 = 1 - \eta h + \eta^2 h^2 .",
               r"\end{equation}", r"\end{proof}")
    (row,) = tex_rows(tmp_path, capsys, body, preamble=LEMMA + "% theoryverify: assume h > 0\n")
    assert row["status"] == "refuted", row
