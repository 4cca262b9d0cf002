"""Referee 33, V2 (session 48, helper s48-readk): in a display about matrices (transposes, a name the paper uses as a
matrix) ``I`` (``\\mathrm{I}``, ``\\mathbf{I}``, ``I_d``) is the identity matrix — in one dimension 1, never a free
number.  ``I − ηUΣ²Uᵀ = UUᵀ − ηUΣ²Uᵀ`` (U from an SVD, orthogonal) was refuted at I = −1, U = −1; it uses UUᵀ = I, a
fact stated elsewhere, so it is at most inconclusive.  Every snippet is written for these tests (no paper's text)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc  # noqa: E402

_SVD = doc(r"Given the singular value decomposition $\Phi = U\Sigma V^\top$ (with $U$ orthogonal), we obtain",
           r"\begin{align}",
           r"I - \eta \Phi \Phi^\top &= I - \eta U \Sigma^2 U^\top \\",
           r"&= U U^\top - \eta U \Sigma^2 U^\top \\",
           r"&= U(I - \eta \Sigma^2)U^\top .",
           r"\end{align}")


def test_identity_in_a_matrix_step_is_no_free_number(tmp_path, capsys):
    # old: the second link refuted "at Ivar = -1, U = -1"; the third "introduces Ivar"
    rows = tex_rows(tmp_path, capsys, _SVD)
    assert len(rows) == 3, rows
    assert not [r for r in rows if r["status"] == "refuted"], rows
    assert not [r for r in rows if "Ivar" in str(r.get("reason"))], rows
    assert [r["status"] for r in rows] == ["inconclusive"] * 3, rows
    assert any("identity matrix" in a for a in rows[1]["assumptions"]), rows[1]


def test_bold_and_sized_identity_are_the_identity(tmp_path, capsys):
    body = doc(r"With $U$ orthogonal,",
               r"\begin{align}",
               r"\mathbf{I} - \eta U \Sigma^2 U^\top &= U U^\top - \eta U \Sigma^2 U^\top , \\",
               r"I_d - \eta U \Sigma^2 U^\top &= U U^\top - \eta U \Sigma^2 U^\top .",
               r"\end{align}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert not [r for r in rows if "Ibf" in str(r.get("reason")) or "I_d" in str(r.get("reason"))], rows


def test_guard_a_false_matrix_step_with_the_identity_is_still_refuted(tmp_path, capsys):
    # guard: I − A = A − I with A a free matrix is false (A = 0): refuted, never proved
    body = doc(r"Let $A$ be a matrix. Then", r"\begin{equation}", r"I - A = A - I .", r"\end{equation}",
               r"Also", r"\begin{equation}", r"I - \eta A^\top B = I - \eta B^\top A .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows
    assert rows[1]["status"] not in ("proved", "holds"), rows


def test_guard_a_false_scalar_step_with_I_is_still_refuted(tmp_path, capsys):
    # guard: no matrix in sight, I is a number the paper names: a false scalar step is refuted as before
    body = doc(r"For numbers $I$ and $a$,", r"\begin{equation}", r"I - a = a - I .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted"], rows
