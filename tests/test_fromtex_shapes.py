"""``new-paper --from-tex`` drafts a matrix display with the shapes the paper states (issue 29, author 9's D3).

Author 9's ridge paper says ``X \\in \\mathbb{R}^{n \\times d}`` and prints ∇L(w) = Xᵀ(Xw − y)/n + λw; the draft was
``Eq(Lprime(w), lam*w + transpose(X)*(-y + X*w)/n)`` with X, w, y non-commutative symbols ("TODO their shapes") and
``transpose`` an unknown function — no ``_over`` check could use it, and the author wrote the display by hand.  Now
the display is a function of its matrices, sized by a ``SHAPES`` dict (X stated; w and y read from ``X w - y``),
``X.T`` for ``X^\\top``, so ``tv.printed(eq_grad, SHAPES)`` is a side of ``check_agreement_over`` as drafted.  A
name given two shapes, or a display whose products do not conform, keeps the old draft (never a guessed shape)."""
from __future__ import annotations

import inspect

import theoryverify as tv
from theoryverify import fromtex

RIDGE = r"""\documentclass{article}
\usepackage{amsmath,amsthm}
\newtheorem{lemma}{Lemma}
\begin{document}
\section{Setting}
Let $X \in \mathbb{R}^{n \times d}$ with $X^\top X / n = s I_d$, $s > 0$, and $y = X w^\star + \xi$ with
$\xi \sim N(0, \sigma^2 I_n)$; write $r^2 = \|w^\star\|^2$. The ridge loss with penalty $\lambda > 0$ is
\begin{equation}\label{eq:loss}
L(w) = \frac{1}{2n}\|X w - y\|^2 + \frac{\lambda}{2}\|w\|^2 .
\end{equation}
\begin{lemma}\label{lem:grad}
The gradient of the ridge loss is
\begin{equation}\label{eq:grad}
\nabla L(w) = \frac{1}{n} X^\top (X w - y) + \lambda w .
\end{equation}
\end{lemma}
\end{document}
"""


def _module(tmp_path, tex):
    (tmp_path / "paper.tex").write_text(tex, encoding="utf-8")
    draft = fromtex.read(tmp_path / "paper.tex")
    text = fromtex.printed_module(draft, 1)
    ns: dict = {}
    exec(compile(text, "printed.py", "exec"), ns)  # noqa: S102 - the module the draft writes, as imported
    return draft, text, ns


def test_the_ridge_gradient_is_drafted_with_its_shapes_and_checks_in_an_over_check(tmp_path):
    draft, text, ns = _module(tmp_path, RIDGE)
    assert ns["SHAPES"] == {"X": ("n", "d"), "w": ("d",), "y": ("n",)}, text
    assert list(inspect.signature(ns["eq_grad"]).parameters) == ["X", "w", "y", "lam", "n"]
    assert "return Eq(grad_L(w), lam*w + X.T*(-y + X*w)/n, evaluate=False)" in text, text
    assert "transpose(X)" not in text and "Lprime" not in text
    over = [tv.Over("n", 1, 6, integer=True), tv.Over("d", 1, 3, integer=True), tv.Over("lam", 0.1, 2)]
    grad = lambda x: x["X"].T @ (x["X"] @ x["w"] - x["y"]) / x["n"] + x["lam"] * x["w"]  # noqa: E731
    G = tv.printed(ns["eq_grad"], ns["SHAPES"])
    assert tv.check_agreement_over(over, G.rhs, grad, None, 0, n=10).status.value == "holds"
    planted = lambda x: x["X"].T @ (x["X"] @ x["w"] - x["y"]) / x["n"] - x["lam"] * x["w"]  # noqa: E731
    assert tv.check_agreement_over(over, G.rhs, planted, None, 0, n=10).status.value == "refuted"
    # the loss takes norms of vectors (no matrix expression): it keeps its symbols and the TODO, as before
    loss = {e.name: e for e in draft.entries}["eq_loss"]
    assert not loss.shaped and "TODO their shapes" in loss.caveats[0] and "def eq_loss():" in text


def test_a_stated_vector_shape_and_the_gradient_of_a_quadratic(tmp_path):
    tex = RIDGE.replace(r"\lambda > 0$ is", r"\lambda > 0$ and $w \in \mathbb{R}^d$ is")
    _draft, _text, ns = _module(tmp_path, tex)
    assert ns["SHAPES"]["w"] == ("d",)


def test_two_shapes_for_one_name_or_products_that_do_not_conform_keep_the_todo(tmp_path):
    # w stated a vector of n entries: X w does not conform (X is n×d) — no shapes, the TODO stays
    tex = RIDGE.replace(r"\lambda > 0$ is", r"\lambda > 0$, $w \in \mathbb{R}^{n}$ is")
    draft, text, _ns = _module(tmp_path, tex)
    grad = {e.name: e for e in draft.entries}["eq_grad"]
    assert not grad.shaped and "TODO their shapes" in grad.caveats[0] and "SHAPES" not in text, text
    # X stated twice with different shapes: none (never a guess)
    tex = RIDGE.replace(r"\end{lemma}", r"\end{lemma} Later $X \in \mathbb{R}^{m \times d}$.")
    draft, text, _ns = _module(tmp_path, tex)
    assert not {e.name: e for e in draft.entries}["eq_grad"].shaped and "SHAPES" not in text, text


def test_a_statement_stub_covers_the_displays_it_states(tmp_path, monkeypatch):
    """Author 9's D6: the stub for Lemma lem:grad carried RIDGE-lem-grad only, so the report listed RIDGE-eq-grad —
    the display the lemma's check decides — "without a verdict".  The stub lists both ids now (kept when the check
    is written), the catalogue says which displays each statement states, and coverage counts both."""
    from theoryverify import catalogue

    (tmp_path / "paper.tex").write_text(RIDGE, encoding="utf-8")
    draft = fromtex.read(tmp_path / "paper.tex")
    text = fromtex.statements_module(draft, "ridge", "RIDGE")
    assert "catalogue_id=('RIDGE-lem-grad', 'RIDGE-eq-grad')" in text, text
    ns: dict = {}
    exec(compile(text, "statements.py", "exec"), ns)  # noqa: S102 - the module the draft writes, as imported
    claim = ns["CLAIMS"].claims[0]
    assert claim.catalogue_ids == ("RIDGE-lem-grad", "RIDGE-eq-grad")
    spec = fromtex.catalogue(draft, "ridge", "RIDGE")
    assert "- **RIDGE-lem-grad** lemma `lem:grad` (paper.tex:11; states RIDGE-eq-grad)" in spec, spec
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "ridge.md").write_text(spec, encoding="utf-8")
    monkeypatch.setenv(catalogue.SPEC_DIR_ENV, str(tmp_path / "spec"))
    rows = [{"catalogue_id": claim.catalogue_id, "covers": list(claim.covers)}]  # the row verify records
    cov = catalogue.coverage("ridge.md", catalogue.row_ids(rows))
    assert cov.covered == ("RIDGE-eq-grad", "RIDGE-lem-grad") and cov.missing == ("RIDGE-eq-loss",), cov


def test_package_checks_build_a_shaped_display_with_its_shapes(tmp_path, monkeypatch):
    """The plugin's package-checks skipped a display that takes arguments; a drafted shaped display (its module has
    SHAPES) is built now with MatrixSymbols of its shapes, so a hand edit that breaks it is named there."""
    import sys

    from theoryverify import package_checks

    pkg = tmp_path / "shapedpkg" / "printed"
    pkg.mkdir(parents=True)
    (tmp_path / "shapedpkg" / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    _draft, text, _ns = _module(tmp_path, RIDGE)
    broken = text.replace("X.T*(-y + X*w)/n", "X*(-y + X*w)/n")  # X for Xᵀ: n×d times n×1 does not conform
    (pkg / "s1_setting.py").write_text(broken, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        found = package_checks.problems("shapedpkg", "shapedpkg")
        assert len(found) == 1 and "eq_grad" in found[0] and "ShapeError" in found[0], found
        (pkg / "s1_setting.py").write_text(text, encoding="utf-8")
        sys.modules.pop("shapedpkg.printed.s1_setting", None)
        assert package_checks.problems("shapedpkg", "shapedpkg") == []
    finally:
        for name in [m for m in sys.modules if m.startswith("shapedpkg")]:
            sys.modules.pop(name)
