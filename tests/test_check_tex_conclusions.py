"""What a display is, on the wording of referee report 12 (note 5): a statement's "… can be bounded as follows:"
and "… such that …, we get" are its conclusion (not a hypothesis); "with probability at most p" in a statement's
hypothesis does not make its conclusion probabilistic; "we estimate … as follows" starts a derivation, and a left
side that is a sum is computed, not a name defined.  Every paper here is written for these tests."""
from texrows import tex_rows


def _rows(tmp_path, capsys, text: str) -> list[dict]:
    return tex_rows(tmp_path, capsys, text, name="k.tex", preamble="\\newtheorem{lemma}{Lemma}\n")


def test_such_that_we_get_in_a_lemma_is_its_conclusion(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 "\\begin{lemma}\nIf $q$ is even, a vector $x$ can be mapped to $y$ such that for any $z$ we get\n"
                 "\\begin{equation}\nh(x) = h(y)^2\n\\end{equation}\n\\end{lemma}\n"
                 "\\begin{lemma}\nIf $q$ is odd and\n\\begin{equation}\nh \\le 2 q\n\\end{equation}\n"
                 "\\end{lemma}\n")  # the twin: a hypothesis stays one
    assert [r["kind"] for r in rows] == ["goal", "hypothesis"], rows


def test_probability_in_the_hypothesis_does_not_make_the_conclusion_probabilistic(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 "\\begin{lemma}\nFor any rule $\\rho$ such that each item is picked with probability at most $q$, "
                 "the value of $\\rho$ can be bounded as follows:\n\\begin{equation}\nh(\\rho) \\ge (1 - q) h(0)\n"
                 "\\end{equation}\n\\end{lemma}\n"
                 "\\begin{lemma}\nWith probability at least $1 - q$,\n\\begin{equation}\nh(\\rho) \\ge (1 - q) h(0)\n"
                 "\\end{equation}\n\\end{lemma}\n")  # the twin: a high-probability conclusion
    assert [r["kind"] for r in rows] == ["goal", "probabilistic"], rows


def test_estimate_as_follows_starts_a_derivation(tmp_path, capsys):
    rows = _rows(tmp_path, capsys,
                 "\\begin{proof}\nConsider the term as $\\sum_{j=1}^{n} v_j^3 \\geq g(n) \\sum_{j=1}^{n} v_j$. "
                 "From this we estimate $g(n)$ as follows,\n\\begin{align}\n"
                 "\\sum_{j=1}^{n} v_j = \\sum_{j=1}^{n} v_j \\cdot 1\n\\end{align}\n\\end{proof}\n"
                 "Define the following quantity.\n\\begin{equation}\nw = 3 u + u\n\\end{equation}\n")
    assert (rows[0]["kind"], rows[0]["status"]) == ("step", "proved"), rows[0]
    assert rows[1]["kind"] == "definition", rows[1]  # the twin: a definition stays one


def test_a_display_after_for_all_in_a_lemma_is_its_conclusion(tmp_path, capsys):
    """Issue 29, held-out author 6, defect 9: 'Let L = … and η ≤ 1/L. For all w, ⟨display⟩' — the descent lemma's
    conclusion was classed a hypothesis (the 'for all' read as a hypothesis cue)."""
    rows = _rows(tmp_path, capsys,
                 "\\begin{lemma}\nLet $L > 0$ and $\\eta \\le 1/L$. For all $w$,\n\\begin{equation}\n"
                 "g(w - \\eta) \\le g(w) - \\eta/2\n\\end{equation}\n\\end{lemma}\n"
                 "\\begin{lemma}\nIf for all $w$,\n\\begin{equation}\ng(w) \\le 1\n\\end{equation}\n"
                 "then $h(w) \\le 2$.\n\\end{lemma}\n")  # the twin: a quantified condition after 'if' stays one
    assert [r["kind"] for r in rows] == ["goal", "hypothesis"], rows
