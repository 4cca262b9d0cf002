"""``new-paper --from-tex`` drafts a matrix display with non-commutative symbols (issue 29, s42-author).

It drafted ``X^\\top X W = W X^\\top X`` with X and W SymPy scalars: the printed ``Eq`` simplified to True, a drafted
identity check that passes for a step that is false for matrices.  Now a name the paper shows to be a matrix
(transposed, in a trace or determinant, written in ``\\mathbb{R}^{n \\times d}``) makes its display a matrix display,
whose names are ``Symbol(name, commutative=False)`` — all but those the paper shows to be numbers (declared scalar,
compared with a number, a divisor) — with a TODO for their shapes.  Planted: the two false matrix identities are
no longer drafted as passing identities; the true ones around them (a scalar η commutes, a scalar display) are."""
from __future__ import annotations

import sympy as sp

from theoryverify import fromtex

TEX = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section{Least squares}
Let $A, B \in \mathbb{R}^{d \times d}$ and take a step size $0 < \eta < 1$.
The gradient is
\begin{equation}\label{eq:grad}
\nabla L(W) = X^\top (X W - Y)/n .
\end{equation}
Gradient descent reads
\begin{equation}\label{eq:gd}
W_{t+1} = W_t - \eta X^\top X W_t .
\end{equation}
Hence
\begin{equation}\label{eq:comm}
X^\top X W = W X^\top X .
\end{equation}
and
\begin{equation}\label{eq:inv}
(A B)^{-1} = A^{-1} B^{-1} .
\end{equation}
while
\begin{equation}\label{eq:scalar}
\eta X^\top X W = X^\top X W \eta .
\end{equation}
\begin{equation}\label{eq:square}
(a + b)^2 = a^2 + 2 a b + b^2 .
\end{equation}
and, in bold,
\begin{equation}\label{eq:bold}
\mathbf{P} \mathbf{Q} = \mathbf{Q} \mathbf{P} .
\end{equation}
\end{document}
"""


def _drafted(tmp_path):
    tex = tmp_path / "paper.tex"
    tex.write_text(TEX, encoding="utf-8")
    draft = fromtex.read(tex)
    text = fromtex.printed_module(draft, 1)
    namespace: dict = {}
    exec(compile(text, "printed.py", "exec"), namespace)  # noqa: S102 - the module the draft writes, as imported
    return draft, text, namespace


def _difference(namespace, name):
    rel = _call(namespace, name)
    return sp.simplify(sp.expand(rel.lhs - rel.rhs))


def _call(namespace, name):
    """The display; a shaped one (a function of its matrices, sized by SHAPES) with MatrixSymbols of its shapes."""
    import inspect

    shapes = namespace.get("SHAPES", {})
    args = {p: sp.MatrixSymbol(p, *(sp.Symbol(d) for d in (shapes[p] + (("1",) if len(shapes[p]) == 1 else ()))))
            for p in inspect.signature(namespace[name]).parameters if p in shapes}
    return namespace[name](**args)


def test_planted_false_matrix_identities_are_not_drafted_as_passing_scalar_identities(tmp_path):
    draft, text, ns = _drafted(tmp_path)
    # the old draft read X, W, A, B as commuting scalars: both differences simplified to 0
    assert _difference(ns, "eq_comm") != 0
    assert _difference(ns, "eq_inv") != 0
    assert "X = Symbol('X', commutative=False)  # TODO a matrix or vector" in text
    assert "def eq_inv(A, B):" in text and "W = Symbol('W', commutative=False)" in text  # A, B: stated shapes
    by = {e.name: e for e in draft.entries}
    assert "X transposed" in by["eq_comm"].caveats[0] and "TODO their shapes" in by["eq_comm"].caveats[0]
    assert "A ('d', 'd') (stated)" in by["eq_inv"].caveats[0] and "SHAPES" in by["eq_inv"].caveats[0]
    # the order of the paper's products is kept: X^T X W_t, not a sorted product
    gd = ns["eq_gd"]()
    X, W_t = sp.Symbol("X", commutative=False), sp.Symbol("W_t", commutative=False)
    assert gd.rhs == W_t - sp.Symbol("eta") * sp.Function("transpose")(X) * X * W_t


def test_the_numbers_of_a_matrix_display_still_commute_and_scalar_displays_are_unchanged(tmp_path):
    draft, text, ns = _drafted(tmp_path)
    # η is compared with numbers (0 < η < 1): a number, so η X^T X W = X^T X W η holds in the draft, as it does
    assert _difference(ns, "eq_scalar") == 0 and "eta = Symbol('eta')\n" in text
    assert "n = Symbol('n')\n" in text  # a divisor (/n) is a number
    assert _difference(ns, "eq_square") == 0 and "a = Symbol('a')\n" in text
    by = {e.name: e for e in draft.entries}
    assert not by["eq_square"].caveats and by["eq_square"].transcribed
    # what the printed module builds is what the reader drafted (non-commutative symbols included)
    for e in draft.entries:
        if e.relations and e.name != "eq_bold" and not e.shaped:
            rel = ns[e.name]()
            assert (rel.lhs, rel.rhs) == e.relations[0][1:], e.name
    # A, B \in \mathbb{R}^{d \times d}: (AB)^{-1} = A^{-1}B^{-1} is drafted with A, B as d×d arguments (SHAPES)
    assert ns["SHAPES"] == {"A": ("d", "d"), "B": ("d", "d")} and "def eq_inv(A, B):" in text, text
    A, B = sp.Matrix([[2, 1], [0, 1]]), sp.Matrix([[1, 0], [3, 1]])
    inv = ns["eq_inv"](A=A, B=B)
    assert inv.rhs == A.inv() * B.inv() and inv.lhs == (A * B).inv() and inv.lhs != inv.rhs  # the planted slip


def test_bold_names_alone_are_no_matrix_but_their_products_need_review(tmp_path):
    """Bold alone is no evidence of a matrix (the rule): P, Q stay scalars — and so the draft, in which PQ = QP
    holds, is marked for review, not counted transcribed (it was counted transcribed)."""
    draft, _text, _ns = _drafted(tmp_path)
    bold = {e.name: e for e in draft.entries}["eq_bold"]
    assert not bold.transcribed and any("(bold) read as a number" in why for why in bold.review), bold.review
