"""The macro forms of real papers that stopped whole rows (referee report 12, note 1): a ``\\left``/``\\right``
spacing fix that ends in the primitive, one refused macro among readable ones, xparse ``o m o`` signatures, a
standard package's restyling of ``\\\\``, and ``\\vcentcolon=`` as ``:=``.  Every source here is written for these
tests."""
import json

import pytest

from theoryverify.check import cli
from theoryverify.check.macros import ExpansionError, MacroTable


def table(src: str) -> tuple[MacroTable, list]:
    t = MacroTable()
    notes = t.collect(src, "paper.tex")
    return t, notes


def test_left_right_redefined_to_end_in_the_primitive_is_the_primitive():
    t, notes = table("\\let\\oldleft\\left\n\\let\\oldright\\right\n"
                     "\\renewcommand{\\left}{\\mathopen{}\\mathclose\\bgroup\\oldleft}\n"
                     "\\renewcommand{\\right}{\\aftergroup\\egroup\\oldright}\n")
    assert t.expand(r"\left(x\right)") == r"\left(x\right)"
    assert any("spacing fix" in n.message for n in notes)
    # the twin: a \right redefined to something else is not the primitive (and its \aftergroup is refused)
    t2, _ = table("\\renewcommand{\\right}{\\aftergroup\\egroup\\rangle}\n")
    with pytest.raises(ExpansionError, match="refused"):
        t2.expand(r"\left(x\right)")


def test_one_refused_macro_does_not_stop_the_others():
    t, _ = table("\\newcommand{\\bad}{\\csname x\\endcsname}\n\\newcommand{\\fa}{f_{a}}\n"
                 "\\renewcommand{\\vec}{\\csname y\\endcsname}\n")
    with pytest.raises(ExpansionError):
        t.expand(r"\fa(x) = \bad")  # the default contract: a refused macro raises
    assert t.expand(r"\fa(x) = \bad", keep_refused=True) == r"f_{a}(x) = \refusedbad"
    with pytest.raises(ExpansionError):  # a refused redefinition of a known name: never read as the built-in
        t.expand(r"\fa(x) = \vec", keep_refused=True)


@pytest.mark.parametrize("use, want", [
    (r"\Ex{X}", r"\mathbb{E} \left[X \right]"),
    (r"\Ex[\theta]{X}", r"\mathbb{E}_{\theta} \left[X \right]"),
    (r"\Ex[\theta]{X}[Y]", r"\mathbb{E}_{\theta} \left[X \mid Y \right]"),
    (r"\Ex{X}[Y] + 1", r"\mathbb{E} \left[X \mid Y \right] + 1"),
])
def test_xparse_optional_and_mandatory_arguments(use, want):
    t, _ = table("\\NewDocumentCommand \\Ex { o m o }{%\n  \\IfValueTF {#1} {\\mathbb{E}_{#1}}{\\mathbb{E}}%\n"
                 "  \\left[#2 \\IfValueT {#3} {\\mid #3}\\right]\n}\n")
    assert "".join(t.expand(use).split()) == "".join(want.split())


def test_xparse_signature_not_read_gives_a_note():
    t, notes = table("\\DeclareDocumentCommand\\Q{ s m }{q}\n\\newcommand{\\ok}{1}\n")
    assert "\\Q" not in t and "\\ok" in t
    assert any("xparse signature" in n.message for n in notes)


def _paper(tmp_path, capsys, preamble: str, display: str, sty: dict | None = None) -> list[dict]:
    for name, text in (sty or {}).items():
        (tmp_path / name).write_text(text)
    f = tmp_path / "m.tex"
    f.write_text(preamble + "\n\\begin{document}\nWe get\n\\begin{align}\n" + display +
                 "\n\\end{align}\n\\end{document}\n")
    cli.main(["--tex", str(f), "--json", "--timeout", "60"])
    return json.loads(capsys.readouterr().out)["relations"]


def test_a_paper_with_the_spacing_fix_xparse_and_a_restyled_row_break(tmp_path, capsys):
    sty = {"algorithmic.sty": "\\def\\\\{\\@ifstar\\@x\\@y}\n"}  # a standard package restyles \\ (refused)
    pre = ("\\documentclass{article}\n\\usepackage{algorithmic}\n\\let\\oldright\\right\n"
           "\\renewcommand{\\right}{\\aftergroup\\egroup\\oldright}\n\\newcommand{\\ga}{g_{\\mathrm{a}}}\n"
           "\\NewDocumentCommand\\Ex{ o m }{\\IfValueTF{#1}{\\mathbb{E}_{#1}}{\\mathbb{E}}\\left[#2\\right]}\n"
           "\\newcommand{\\defeq}{\\vcentcolon=}")
    rows = _paper(tmp_path, capsys, pre,
                  "\\ga(x) &\\defeq \\Ex[u]{x + u} \\\\\n"
                  "\\left(3 a + a\\right) &= 4 a \\\\\n"
                  "\\left(3 a + a\\right) &= 5 a")  # a planted error
    assert [r["status"] for r in rows] == ["not_a_step", "proved", "refuted"], rows
    assert rows[0]["kind"] == "definition" and "f_" not in rows[0]["reason"]


def test_arxiv_style_internals_are_one_note(tmp_path, capsys):
    (tmp_path / "arxiv.sty").write_text("\\def\\a@{\\@x}\n\\newcommand{\\b}{\\@y}\n\\newcommand{\\c}{\\@z}\n")
    f = tmp_path / "m.tex"
    f.write_text("\\documentclass{article}\n\\usepackage{arxiv}\n\\begin{document}\n\\begin{equation}\n"
                 "3 u + u = 4 u\n\\end{equation}\n\\end{document}\n")
    cli.main(["--tex", str(f), "--json"])
    notes = [n["message"] for n in json.loads(capsys.readouterr().out)["notes"] if "arxiv.sty" in n["message"]
             or "arxiv.sty" in n["where"]]
    assert len(notes) == 1 and "standard package" in notes[0], notes
