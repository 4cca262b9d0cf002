"""``--tex`` on what a paper writes with an unsettled scope, and proofs the symbolic check used to lose (referee
report 12, notes 3 and 4).

- ``a/3r``: (a/3)·r or a/(3r)?  The paper does not say, so the step is ambiguous with both readings and gets no
  verdict (the old reading refuted a true step);
- a sum's index used in an opaque atom outside the sum (``\\sum_k E[v_k^2] - (E[v_k])^2``) puts the scope in doubt,
  and an opaque atom inside a sum that writes the index is one unknown per term, never a constant summed m times;
- ``\\sum_k`` written twice is one sum (each built sum had its own dummy index, so lhs − rhs never cancelled), and a
  step about numbers that only takes norms of vectors is proved through the norms as unknown numbers.

Every paper here is written for these tests (own symbols and macros)."""
from texrows import displays, tex_rows


def _rows(tmp_path, capsys, *bodies: str) -> list[dict]:
    return tex_rows(tmp_path, capsys, displays(*bodies), name="s.tex", args=("--timeout", "60"))


def test_number_juxtaposed_after_a_slash_is_ambiguous(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 r"\frac{u}{v}/5q = \frac{u}{5 v q}",  # true as a/(5q): the old reading refuted it
                 r"z/2 w = \frac{z w}{2}",  # true as (z/2)·w: the old reading proved it
                 r"\frac{z}{2} w = \frac{z w}{2}",  # the twin with \frac: settled, proved
                 r"(u + v)^2 = u^2 + v^2 + 3 u v")  # a planted error still refuted
    assert [r["status"] for r in rows] == ["ambiguous", "ambiguous", "proved", "refuted"], rows
    assert "/5 q" in rows[0]["reason"]
    assert rows[0]["readings"][1] == "u / v / (5 * q) = u / (5 * v * q)"
    assert rows[1]["readings"][0] == "z / 2 * w = z * w / 2"


def test_juxtaposed_divisor_in_a_definition_is_not_used(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"h := u/4q", r"h = \frac{u}{4 q}")
    assert rows[0]["kind"] == "definition"
    assert rows[1]["status"] != "proved" and rows[1]["status"] != "refuted", rows


def test_index_in_an_atom_outside_its_sum_blocks_every_verdict(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 r"\sum_{k=1}^{m}\mathbb{E}[v_k^2] - (\mathbb{E}[v_k])^2 = "
                 r"\sum_{k=1}^{m}\mathbb{E}[v_k^2] - (\mathbb{E}[v_k])^2 + 0",
                 r"s^2 = \sum_{k=1}^{m}\mathbb{E}[v_k^2] - (\mathbb{E}[v_k])^2")
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert all("indexes a sum" in r["reason"] for r in rows), rows


def test_atom_writing_the_index_inside_a_sum_is_a_family(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 # false unless every E[X_k] is the same: the old reading summed one constant and proved it
                 r"(\sum_{k=1}^{m} \mathbb{E}[X_k])^2 = m \sum_{k=1}^{m} (\mathbb{E}[X_k])^2",
                 # the twin that is true for every family stays proved
                 r"\sum_{k=1}^{m} 3\,\mathbb{E}[X_k] = 3 \sum_{k=1}^{m} \mathbb{E}[X_k]")
    assert [r["status"] for r in rows] == ["inconclusive", "proved"], rows


def test_a_sum_written_twice_cancels_and_norms_are_numbers(tmp_path, capsys):
    num = r"(\|\mathbf{B}\mathbf{z}\|_{q}^{q})^{2}"
    rows = _rows(tmp_path, capsys,
                 rf"\exp(\frac{{- c t^{{2}}{num}}}{{{num}\sum_{{k = 1}}^{{m}}\tilde{{h}}_{{k}}(2 + t/3)}}) = "
                 r"\exp(\frac{- c t^{2}}{(2 + t/3)\sum_{k = 1}^{m}\tilde{h}_{k}})",
                 # planted: the constant changed; never proved (and not refuted: it has a family)
                 rf"\exp(\frac{{- c t^{{2}}{num}}}{{{num}\sum_{{k = 1}}^{{m}}\tilde{{h}}_{{k}}(2 + t/3)}}) = "
                 r"\exp(\frac{- c t^{2}}{(2 + t/4)\sum_{k = 1}^{m}\tilde{h}_{k}})",
                 # two different norms read alike (both norm(z)): never proved through the norms as numbers
                 rf"\exp(\frac{{- c t^{{2}}\|\mathbf{{B}}\mathbf{{z}}\|_{{1}}}}{{\|\mathbf{{B}}\mathbf{{z}}\|\sum_{{k = 1}}^{{m}}\tilde{{h}}_{{k}}}}) = "
                 r"\exp(\frac{- c t^{2}}{\sum_{k = 1}^{m}\tilde{h}_{k}})")
    assert rows[0]["status"] == "proved", rows[0]
    assert rows[1]["status"] == "inconclusive", rows[1]
    assert rows[2]["status"] != "proved", rows[2]


def test_a_norm_that_varies_with_a_sum_index_is_not_one_number(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 # false unless every ‖B x_k‖ is the same: one number summed m times would prove it
                 r"(\sum_{k=1}^{m} \|\mathbf{B}\mathbf{x}_k\|)^2 = m \sum_{k=1}^{m} \|\mathbf{B}\mathbf{x}_k\|^2",
                 # the twin with a norm outside the sum is still proved through it
                 r"\frac{\|\mathbf{B}\mathbf{y}\|^2}{\|\mathbf{B}\mathbf{y}\|^2 \sum_{k=1}^{m} h_k} = "
                 r"\frac{1}{\sum_{k=1}^{m} h_k}")
    assert [r["status"] for r in rows] == ["inconclusive", "proved"], rows
