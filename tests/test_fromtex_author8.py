"""Held-out author 8's drafting defects (issue 29): D3 — a function the LaTeX defines with ``% theoryverify: define
sigma(z) := …`` was drafted in ``printed/`` as an unknown ``Function('sigma')``; it is drafted with its definition
(``sigma = Lambda(z, …)``), a function only declared (``% theoryverify: function psi``) stays unknown.  D5 (other
half) — ``\\lambda_{\\max}(A)`` was drafted as an unknown ``lam_smax(A)``; it is ``tv.lambda_max(A)``, which
``tv.Within`` and the checks read."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import sympy as sp

import theoryverify as tv
from theoryverify import cli

NAME = "tvauthoreight"

TEX = r"""\documentclass{article}
\usepackage{amsmath}
% theoryverify: define sigma(z) := 1/(1 + exp(-z))
% theoryverify: define ell(z) := log(1 + exp(-z))
% theoryverify: define dell(z) := sigma(z) - 1
% theoryverify: function psi
\begin{document}
\section{Logistic regression}
The sigmoid is bounded:
\begin{equation}\label{eq:bound}
\sigma(z) (1 - \sigma(z)) \le \frac{1}{4} .
\end{equation}
and the loss and its slope are
\begin{equation}\label{eq:slope}
\ell(z) + \mathrm{dell}(z) = \ell(z) + \sigma(z) - 1 .
\end{equation}
and, for the declared function,
\begin{equation}\label{eq:psi}
\psi(z) \le \psi(z) + 1 .
\end{equation}
The step size is bounded by the curvature:
\begin{equation}\label{eq:L}
\eta \le \frac{4 n}{\lambda_{\max}(X^\top X)} + \lambda_{\min}(X^\top X) .
\end{equation}
\end{document}
"""


def _drafted(tmp_path: Path):
    (tmp_path / "paper.tex").write_text(TEX, encoding="utf-8")
    assert cli.main(["new-paper", NAME, "--from-tex", str(tmp_path / "paper.tex"), "--out", str(tmp_path / "out")]) == 0
    root = tmp_path / "out" / NAME
    path = next((root / NAME / "printed").glob("s1_*.py"))
    sys.path.insert(0, str(root))
    try:
        return path.read_text(encoding="utf-8"), importlib.import_module(f"{NAME}.printed.{path.stem}")
    finally:
        sys.path.remove(str(root))
        for key in [k for k in sys.modules if k == NAME or k.startswith(NAME + ".")]:
            del sys.modules[key]


def test_a_defined_function_is_drafted_with_its_definition_and_lambda_max_as_tv_lambda_max(tmp_path):
    text, mod = _drafted(tmp_path)
    z = sp.Symbol("z")
    # D3: the defined functions are their definitions (dell after sigma, which its body calls); psi stays unknown
    assert "sigma = Lambda(z, 1/(1 + exp(-z)))" in text and "sigma = Function" not in text, text
    assert text.index("sigma = Lambda") < text.index("dell = Lambda") and "psi = Function('psi')" in text, text
    assert "(the paper's definition, paper.tex:3)" in text
    assert mod.eq_bound() == sp.Le(mod.sigma(z) * (1 - mod.sigma(z)), sp.Rational(1, 4), evaluate=False)
    assert mod.eq_bound().lhs.subs(z, 0) == sp.Rational(1, 4)  # a value, not an unknown σ(0)
    slope = mod.eq_slope()
    assert sp.simplify(slope.lhs - slope.rhs) == 0 and slope.lhs.has(sp.log)
    assert mod.eq_psi().lhs == sp.Function("psi")(z)  # declared only: an unknown function, as before
    # D5: λ_max / λ_min of a matrix are tv.lambda_max / tv.lambda_min, imported as tv
    assert "import theoryverify as tv" in text and "tv.lambda_max(transpose(X)*X)" in text, text
    assert "tv.lambda_min(" in text and "lam_smax" not in text and "lam_smin" not in text, text
    L = mod.eq_l()
    assert L.rhs.atoms(tv.lambda_max) and L.rhs.atoms(tv.lambda_min), L


def test_lambda_max_of_a_draft_s_matrix_is_opaque_but_a_within_end_needs_its_entries():
    X = sp.Symbol("X", commutative=False)
    atom = tv.lambda_max(sp.Function("transpose")(X) * X)
    assert isinstance(atom, tv.lambda_max) and not atom.is_number
    import pytest
    with pytest.raises(ValueError, match="needs the matrix's entries"):
        tv.Within("eta", 0, 1 / atom)
    with pytest.raises(ValueError, match="square SymPy matrix"):
        tv.lambda_max(3)
