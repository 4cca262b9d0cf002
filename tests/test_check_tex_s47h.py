"""Referee 32's reading items (session 47, helper s47-readh): ``\\input`` resolved from the main file's folder, ``:=``
written ``\\mathrel{\\mathop:}=`` (a paper's own ``\\coloneqq``), and a family ``(a_{ij})_{i,j=1}^n`` never read as a
power.  Every snippet is written for these tests (no paper's text); each test failed on the code before the fix
unless it says it is a guard."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, doc as _doc, proof_align as _proof  # noqa: E402

from theoryverify.check import cli  # noqa: E402


def _rows(capsys, main: Path) -> dict:
    cli.main(["--tex", str(main), "--json"])
    return json.loads(capsys.readouterr().out)


# 1. \input{src/part/a.tex} inside src/part.tex: LaTeX looks in the compile directory (the main file's folder) ------
def _thesis(tmp_path: Path, inner: str) -> Path:
    (tmp_path / "src" / "part").mkdir(parents=True)
    main = tmp_path / "main.tex"
    main.write_text("\\documentclass{article}\n\\begin{document}\n\\input{src/part}\n\\end{document}\n")
    (tmp_path / "src" / "part.tex").write_text(f"\\section{{Part}}\n\\input{{{inner}}}\n")
    (tmp_path / "src" / "part" / "a.tex").write_text("We have\n\\begin{equation}\n(a+b)^2 = a^2 + 2ab + b^2 .\n"
                                                     "\\end{equation}\n")
    return main


def test_input_in_a_subfolder_file_is_resolved_from_the_main_files_folder(tmp_path, capsys):
    # old: relations 0 and "not followed: \input {src/part/a.tex} (no such file in the paper's folder)"
    out = _rows(capsys, _thesis(tmp_path, "src/part/a.tex"))
    assert [r["status"] for r in out["relations"]] == ["proved"], out
    assert out["relations"][0]["file"] == "src/part/a.tex", out
    assert not any("not followed" in str(n) for n in out["notes"]), out["notes"]


def test_input_relative_to_the_including_file_still_works(tmp_path, capsys):
    # guard: a paper that names the file from the including file's folder (part/a) is still read
    out = _rows(capsys, _thesis(tmp_path, "part/a"))
    assert [r["status"] for r in out["relations"]] == ["proved"], out
    assert out["relations"][0]["file"] == "src/part/a.tex", out


def test_input_from_the_main_folder_comes_first(tmp_path, capsys):
    # guard: where both folders hold the name, the main file's folder wins (as in LaTeX); a false step there is refuted
    main = _thesis(tmp_path, "part/a")
    (tmp_path / "part").mkdir()
    (tmp_path / "part" / "a.tex").write_text("We have\n\\begin{equation}\n(a+b)^2 = a^2 + b^2 + 1 .\n\\end{equation}\n")
    out = _rows(capsys, main)
    assert [(r["file"], r["status"]) for r in out["relations"]] == [("part/a.tex", "refuted")], out


# 2. \providecommand{\coloneqq}{\mathrel{\mathop:}=}: a definition sign -----------------------------------------------
_COLON_MACROS = r"\providecommand{\coloneqq}{\mathrel{\mathop:}=}" "\n" r"\newcommand{\defas}{\mathrel{:}=}" "\n" \
                r"\newcommand{\defby}{\mathrel{\mathop:}\mathrel{=}}" "\n" r"\newcommand{\eqdefr}{=\mathrel{\mathop:}}" "\n"


def test_mathrel_mathop_colon_equals_is_a_definition(tmp_path, capsys):
    # old: "unknown LaTeX command \mathrel" (37 rows of a thesis)
    rows = tex_rows(tmp_path, capsys, _doc("Set", r"\begin{equation}", r"x \coloneqq 2 + 3 ,", r"\end{equation}",
                                           "and", r"\begin{equation}", r"y \defas x + 1 ,", r"\end{equation}",
                                           "and", r"\begin{equation}", r"z \defby y^2 ,", r"\end{equation}",
                                           "and", r"\begin{equation}", r"2 z \eqdefr w .", r"\end{equation}"),
                    preamble=_COLON_MACROS)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")] * 4, rows
    assert [r["read_as"] for r in rows] == ["x := 2 + 3", "y := x + 1", "z := y ** 2", "2 * z =: w"], rows


def test_a_false_step_after_a_mathrel_definition_is_still_refuted(tmp_path, capsys):
    # guard: the definition is read, and the false step next to it is refuted (the fix hides nothing)
    rows = tex_rows(tmp_path, capsys, _proof(r"x &\coloneqq a + b , \\", r"x^2 &= a^2 + b^2 + 2 a b + 1 ."),
                    preamble=_COLON_MACROS)
    assert [r["status"] for r in rows] == ["not_a_step", "refuted"], rows
    assert rows[0]["read_as"] == "x := a + b", rows


# 3. (a_{ij})_{i,j=1}^n: a family indexed 1..n, never a power n ------------------------------------------------------
def test_a_family_indexed_from_one_to_n_is_not_a_power(tmp_path, capsys):
    # old: Ksf = ⟦(K(x_i, x_j))_{i, j = 1}⟧ ** n
    rows = tex_rows(tmp_path, capsys, displays(r"\mathsf{K} = \bigl( K(x_i,x_j) \bigr)_{i,j=1}^n",
                                               r"v = ( K(x, x_i) )_{i=1}^{n}"))
    assert len(rows) == 2, rows
    for r in rows:
        assert "**" not in (r["read_as"] or ""), rows
        assert "^n" in (r["read_as"] or "") or "^{n}" in (r["read_as"] or ""), rows
        assert r["status"] not in ("proved", "holds", "refuted"), rows


def test_a_bracket_raised_to_n_stays_a_power(tmp_path, capsys):
    # guard: (a+b)^n is a power; a false step with it is refuted, a true one proved
    rows = tex_rows(tmp_path, capsys, _proof(r"(a+b)^2 &= a^2 + 2ab + b^2 , \\", r"(a+b)^2 &= a^2 + b^2 ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    rows = tex_rows(tmp_path, capsys, displays(r"(a+b)^n (a+b) = (a+b)^{n+1}"))
    assert "(a + b) ** n" in rows[0]["read_as"], rows


# 4. a definition through a transpose brings matrices into a step that writes none ------------------------------------
def test_a_norm_of_a_name_defined_through_a_transpose_is_not_proved_as_numbers(tmp_path, capsys):
    # old: R := ΔΣΔᵀ, then ‖R‖ = ‖Σ‖‖Δ‖² "proved" (Δ, Σ substituted as numbers) — false for matrices. Seen once the
    # thesis's \mathrel{\mathop:}= definitions were read (its ‖R_{2,l}‖ ≤ ‖Σ‖‖Δ_l‖² was "proved: the slack is 0")
    rows = tex_rows(tmp_path, capsys, _doc(r"Let $\Delta$ and $\Sigma$ be matrices and set", r"\begin{equation}",
                                           r"R := \Delta \Sigma \Delta^\top .", r"\end{equation}", "Then",
                                           r"\begin{equation}", r"\lVert R \rVert = \lVert \Sigma \rVert \lVert \Delta \rVert^2 ,",
                                           r"\end{equation}", "and", r"\begin{equation}",
                                           r"\lVert R \rVert \le \lVert \Sigma \rVert \lVert \Delta \rVert^2 .",
                                           r"\end{equation}"))
    assert [r["status"] for r in rows] == ["not_a_step", "inconclusive", "inconclusive"], rows


def test_a_scalar_definition_is_still_used_and_a_false_step_refuted(tmp_path, capsys):
    # guard: with no transpose in the definition the step is about numbers: a true one proved, a false one refuted
    rows = tex_rows(tmp_path, capsys, _doc("Set", r"\begin{equation}", r"r := a b^2 .", r"\end{equation}",
                                           r"\begin{proof}", "We have", r"\begin{align*}",
                                           r"r + a &= a (b^2 + 1) , \\", r"r - a &= a (b^2 + 1) .", r"\end{align*}",
                                           r"\end{proof}"))
    assert [r["status"] for r in rows] == ["not_a_step", "proved", "refuted"], rows
