"""Held-out author 7's drafting defects 9–12 (issue 29), on a short paper written for the test: a divisor
``\\frac{1}{2n}`` is a number, a stub quotes (and takes its kind from) live text only, a TODO names only opaque
symbols the drafted expression uses, a stub records the paper's words as ``quote=``; and two wording fixes — a
refuted printed constant says so, and no API example renders as a broken link."""
from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path

import numpy as np

import theoryverify as tv
from theoryverify import cli, registry

NAME = "tvauthorseven"

TEX = r"""\documentclass{article}
\usepackage{amsmath,amsthm}
\newtheorem{theorem}{Theorem}
\begin{document}
\section{Setting}
For a design $X$ with $n$ rows the loss is
\begin{equation}\label{eq:loss}
f(w) = \frac{1}{2n} \|X w - y\|^2 .
\end{equation}
Its gradient is
\begin{equation}\label{eq:grad}
\nabla f(w) = \frac{1}{n} X^\top (X w - y) .
\end{equation}
\begin{theorem}\label{thm:bet}
% An older draft stated the bound
% \begin{equation} W_T \le 1 - \sum_t g_t \end{equation}
Let
\begin{equation}\label{eq:wealth}
W_T := 1 + \sum_{t=1}^T r_t .  % a trailing remark
\end{equation}
\end{theorem}
The excess risk satisfies
\begin{equation}\label{eq:risk}
\mathbb{E}\left[h(\bar w)\right] \le \mathcal{O}\left(\inf_{u} \min_{\lambda>0} \mathcal{E}^{\ell}(u) + \lambda u^2\right) .
\end{equation}
\end{document}
"""


def _draft(tmp_path: Path) -> Path:
    (tmp_path / "paper.tex").write_text(TEX, encoding="utf-8")
    assert cli.main(["new-paper", NAME, "--from-tex", str(tmp_path / "paper.tex"), "--out", str(tmp_path / "out")]) == 0
    return tmp_path / "out" / NAME / NAME


def test_drafting(tmp_path):
    pkg = _draft(tmp_path)
    printed = (pkg / "printed" / "s1_setting.py").read_text(encoding="utf-8")
    # defect 9: n divides (1/(2n), 1/n), so it is a number: one commutative module-level n, used by both displays
    assert re.search(r"^n = Symbol\('n'\)$", printed, re.M), printed
    assert "Symbol('n'" not in printed.split("\n\n\ndef ", 1)[1] and "X, n, w, y are non-commutative" not in printed
    # defect 11: a TODO names only an opaque symbol the expression uses (min… is nested inside inf…)
    risk = printed.split("def eq_risk")[1]
    todos = re.findall(r"# TODO (\w+) stands for", risk)
    ret = risk.split("return ")[1].split("\n")[0]
    assert todos and all(re.search(rf"\b{t}\b", ret) for t in todos) and not any(t.startswith("min") for t in todos)
    # defect 10: the stub quotes the live text (no commented-out draft) and its kind comes from it
    stubs = (pkg / "claims" / "statements.py").read_text(encoding="utf-8")
    assert "older draft" not in stubs and "g_t" not in stubs and "trailing remark" not in stubs
    assert "# kind INEQUALITY" not in stubs and "W_T := 1 + \\sum_{t=1}^T r_t ." in stubs
    # defect 12: the stub records the paper's words as quote=, apart from the tool's statement
    sys.path.insert(0, str(pkg.parent))
    try:
        mod = importlib.import_module(f"{NAME}.claims.statements")
        claim, = [c for c in mod.CLAIMS if c.id.endswith("thm_bet")]
        assert claim.quote.startswith("\\begin{theorem}\\label{thm:bet}\nLet\n") and "older draft" not in claim.quote
        assert "not yet checked" in claim.statement
    finally:
        sys.path.remove(str(pkg.parent))
        for key in [k for k in sys.modules if k == NAME or k.startswith(NAME + ".")]:
            del sys.modules[key]


def test_a_statement_kind_reads_bracket_displays_not_a_hypothesis():
    """Coin-betting's theo_cocob: a hypothesis $a \\geq 2$ in the text, and \\[ … := … \\] displays (no equation
    environment): the displays say what it states, not the hypothesis."""
    from theoryverify.fromtex import statement_kind
    text = r"Let $a\geq2$. Then the function \[ f(x) := \epsilon e^{x^2/a} \] and \[ b_t := 2x - 1 \] satisfy (A1)."
    assert statement_kind(text)[0] == "IDENTITY"
    assert statement_kind(r"For $t > 0$, \[ \frac{1}{t+2} \le \frac{1}{t} \]")[0] == "INEQUALITY"


def test_a_refuted_printed_constant_does_not_read_as_a_pass():
    kappa = np.geomspace(10, 1000, 6)
    bad = tv.check_rate(kappa, 4.9 * kappa, 1.0, 0.1, 0, kappa, constant="printed")
    assert bad.status is tv.Status.REFUTED
    assert "the CI lies outside" in bad.evidence and "1 within" not in bad.evidence
    good = tv.check_rate(kappa, kappa, 1.0, 0.1, 0, kappa, constant="printed")
    assert "the CI lies inside" in good.evidence and "[holds]" in good.evidence


def test_no_api_example_calls_a_method_pdoc_would_link_to_a_module():
    """pdoc links ``.name`` after ``]`` or ``)`` to the rendered module ``theoryverify.name`` (the public API's
    modules), replacing the text: ``claims[1].check(...)`` rendered as ``claims[1]theoryverify.check(...)``."""
    modules = {name for name in tv.__all__ if inspect.ismodule(getattr(tv, name))}
    assert "check" in modules
    bad = []
    for name in tv.__all__:
        obj = getattr(tv, name)
        if inspect.ismodule(obj):
            continue
        for line in (inspect.getdoc(obj) or "").splitlines():
            if line.lstrip().startswith((">>>", "...")):
                bad += [f"{name}: {line.strip()}" for m in re.finditer(r"[\])]\.(\w+)", line) if m.group(1) in modules]
    assert not bad, bad
