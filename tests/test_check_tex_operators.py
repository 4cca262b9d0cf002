"""Operator names and symbols of real papers that made whole rows unreadable (referee report 12, notes 1e, 1f, 2):
``\\mbox{det}(…)``/``\\mbox{Pr}(…)`` as operators, ``(…)^\\dagger`` as an unknown pseudo-inverse, ``\\vert a \\vert^p`` as
``|a|^p``, an empty group before a relation, a binary ``@`` between names, and a conditioning bar inside a function's
brackets.  Each is read without a guess: what the checker cannot know stays an unknown, so it proves only what
holds for every value and never refutes through it; a planted error in readable algebra is still refuted.  Every
paper here is written for these tests."""
import json

from theoryverify.check import cli

from texrows import displays, tex_rows


def _rows(tmp_path, capsys, *bodies: str) -> list[dict]:
    return tex_rows(tmp_path, capsys, displays(*bodies), name="o.tex", args=("--timeout", "60"))


def test_operator_names_in_a_box(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 r"\mbox{det}(\mathbf{Q})(1 + b) - \mbox{det}(\mathbf{Q}) = b\,\mbox{det}(\mathbf{Q})",
                 r"\mbox{Pr}(z > 1) \le \frac{1}{2}",
                 r"\mbox{var}(z) = 2 u",
                 r"\text{if}(z) = 2")  # prose stays prose: "if" names no operator
    assert rows[0]["status"] == "inconclusive" and "determinant" in rows[0]["reason"], rows[0]
    assert rows[1]["kind"] == "probabilistic"
    assert rows[2]["status"] == "inconclusive" and "var" in rows[2]["read_as"], rows[2]
    assert all(r["status"] != "unreadable" for r in rows[:3])


def test_det_is_never_refuted_nor_proved_as_a_number(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"\det(\mathbf{Q} \mathbf{R}) = \det(\mathbf{Q})",  # false for numbers
                 r"\det(Q)(1 + b) = \det(Q) + \det(Q) b")  # true for every function det, but det is a matrix's
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows


def test_dagger_on_an_expression_is_an_unknown_pseudo_inverse(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"\mathbf{q}^{T}(\mathbf{B}^{T}\mathbf{B})^{\dagger}\mathbf{q} = \mathbf{v}^{T}\mathbf{v}",
                 r"(u + w)^{\dagger} = (w + u)^{\dagger}")
    assert rows[0]["status"] == "inconclusive" and "pinv" in rows[0]["read_as"], rows[0]
    assert rows[1]["status"] == "inconclusive" and "pseudo-inverse" in rows[1]["reason"], rows[1]


def test_vert_pair_with_a_power_and_an_empty_group(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"\vert u \vert^{q} \cdot \vert u \vert^{q} = \vert u \vert^{2 q}",
                 r"{} 3 u + u = 4 u",
                 r"{\label{eq:x}} 3 u + u = 5 u")  # a planted error after the group: refuted
    assert [r["status"] for r in rows] == ["proved", "proved", "refuted"], rows


def test_binary_at_between_names_is_an_unknown_operation(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"g(\rho_1 @ \rho_2) - g(\rho_2) \ge 0",
                 r"g(\rho_1 @ \rho_2) + 2 g(\rho_1 @ \rho_2) = 3 g(\rho_1 @ \rho_2)",
                 r"g(\rho_1 @ \rho_2) + 2 g(\rho_1 @ \rho_2) = 4 g(\rho_1 @ \rho_2)")
    assert rows[0]["status"] == "inconclusive" and "at_op" in rows[0]["read_as"], rows[0]
    assert rows[1]["status"] == "proved", rows[1]
    assert rows[2]["status"] == "inconclusive", rows[2]  # false, but through unknowns: not refuted


def test_conditioning_bar_inside_a_function_is_one_unknown(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"D(e \vert \psi) \le \frac{1}{2}",
                 r"D(e \mid \psi) + D(e \mid \psi) = 2 D(e \mid \psi)",
                 r"D(|e| + |s|) = 2")  # bars that pair up stay absolute values
    assert rows[0]["status"] == "inconclusive" and "⟦D(e|" in rows[0]["read_as"], rows[0]
    assert rows[1]["status"] == "proved", rows[1]
    assert "Abs(e)" in (rows[2]["read_as"] or ""), rows[2]


def test_parsed_count_beside_read(tmp_path, capsys):
    """"read" counts relations classified from their prose without being parsed; "parsed" says how many were."""
    f = tmp_path / "p.tex"
    f.write_text("\\documentclass{article}\n\\begin{document}\nWe have\n\\begin{equation}\n3 u + u = 4 u\n"
                 "\\end{equation}\nand, by the theorem of the paper,\n\\begin{equation}\n\\unknownthing = 2\n"
                 "\\end{equation}\n\\end{document}\n")
    cli.main(["--tex", str(f), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["parsed"] == sum(1 for r in out["relations"] if r["status"] != "unreadable" and r["read_as"])
    assert set(out["summary"]) >= {"read", "relations"} and "parsed" not in out["summary"]  # the contract stays
    cli.main(["--tex", str(f)])
    assert f", {out['parsed']} parsed, " in capsys.readouterr().out.splitlines()[0]
