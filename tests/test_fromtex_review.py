"""``new-paper --from-tex`` on a display the reader misreads (issue 29, author 5, defects 2-4).

``\\eta(\\lambda_1 - \\lambda_2)`` (η applied to different arguments and nothing else saying it is a function) was
drafted as the call ``eta(lam_1 - lam_2)`` and ``R(w) = \\frac{w^\\top \\Sigma w}{w^\\top w}`` as
``Eq(R(w), Sigma)`` (w cancelled when read in one dimension), both counted "transcribed".  (Since s42-author a
transposed w is a non-commutative symbol, so that fraction keeps w — tests/test_fromtex_matrices.py; the lossy
display here is the same quotient written with bold names and ``\\cdot``, which nothing marks a matrix.)  Each is now marked for
review with both readings (or what was lost) and not counted; a statement about steps or O(·) is a RATE stub; the
scaffold's placeholder model and context are gone; the drafted test tolerates a display rewritten by hand; deleting
tests/ leaves no testpaths warning.  Planted: the same displays with η declared a scalar and without the fraction's
cancellation are transcribed (so the marks are not blanket)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from theoryverify import cli, fromtex

REPO = Path(__file__).resolve().parent.parent

TEX = r"""\documentclass{article}
\usepackage{amsmath,amsthm}
\newtheorem{theorem}{Theorem}
\begin{document}
%DECLARE
\section{Setting}
The quotient is
\begin{equation}\label{eq:rayleigh}
R(w) = \frac{w^\top \Sigma w}{w^\top v} .
\end{equation}
The update is
\begin{equation}\label{eq:update}
w_{+} = w + \eta(a - b) .
\end{equation}
\begin{theorem}\label{thm:rate}
With $\eta \le 1$, the number of steps is
\begin{equation}\label{eq:steps}
n = \frac{\log(1/\epsilon)}{2 \eta (\lambda_1 - \lambda_2)} .
\end{equation}
\end{theorem}
\begin{theorem}\label{thm:sampled}
After $T$ steps, $\mathbb{E} s_T = \tilde O(1/T)$.
\end{theorem}
\begin{theorem}\label{thm:plain}
For all $a$, $(a+1)^2 = a^2 + 2a + 1$.
\end{theorem}
\end{document}
"""


def _draft(tmp_path: Path, lossy: bool = True, declare: str = "") -> fromtex.Draft:
    tex = tmp_path / "paper.tex"
    text = TEX.replace("%DECLARE", declare)
    lossy_quotient = "\\mathbf{w} \\cdot \\Sigma \\mathbf{w}}{\\mathbf{w} \\cdot \\mathbf{w}}"
    tex.write_text(text.replace("w^\\top \\Sigma w}{w^\\top v}", lossy_quotient) if lossy else text, encoding="utf-8")
    return fromtex.read(tex)


def test_a_misread_or_ambiguous_display_needs_review_with_both_readings(tmp_path):
    draft = _draft(tmp_path)
    by = {e.name: e for e in draft.entries}
    assert not by["eq_rayleigh"].transcribed and "has lost w" in by["eq_rayleigh"].review[0]
    for name in ("eq_update", "eq_steps"):
        assert not by[name].transcribed, name
        why = by[name].review[0]
        # both readings named (since s41-read2 the message asks "a function applied, or a product?")
        assert "eta(…): a function applied, or a product?" in why and "read as:" in why and "eta * (" in why, why
    assert draft.counts()["transcribed"] == 0 and draft.counts()["review"] == 3
    text = fromtex.printed_module(draft, 1)
    # the bold quotient twice: w lost, and its bold names' products commute in the draft
    assert text.count("# REVIEW needs review, not counted transcribed") == 4
    assert "wbf (bold) read as a number" in by["eq_rayleigh"].review[1]
    assert "needs review" in fromtex.catalogue(draft, "t", "P")


def test_planted_the_same_displays_read_right_are_transcribed(tmp_path):
    draft = _draft(tmp_path, lossy=False, declare="% theoryverify: scalar eta")
    by = {e.name: e for e in draft.entries}
    assert all(e.transcribed and not e.review for e in by.values()), {n: e.review for n, e in by.items()}


def test_statement_kinds_are_guessed_from_rates_or_left_with_a_todo():
    assert fromtex.statement_kind(r"\label{thm:rate} the number of steps is $n$")[0] == "RATE"
    assert fromtex.statement_kind(r"$\mathbb{E} s_T = \tilde O(1/T)$")[0] == "RATE"
    assert fromtex.statement_kind(r"With $\eta \le 1$: \begin{equation} a = b \end{equation}")[0] == "IDENTITY"
    assert fromtex.statement_kind(r"$2ab \le a^2 + b^2$")[0] == "INEQUALITY"
    assert fromtex.statement_kind(r"The fixed points are stable.")[0] is None


def test_the_drafted_package_has_no_placeholder_model_and_its_tests_survive_edits(tmp_path, capsys):
    tex = tmp_path / "paper.tex"
    tex.write_text(TEX, encoding="utf-8")
    assert cli.main(["new-paper", "tvreview", "--from-tex", str(tex), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "need review" in out and ".main" not in out and "check --tex" in out
    root = tmp_path / "out" / "tvreview"
    pkg = root / "tvreview"
    assert not (pkg / "model" / "linear.py").exists() and not (pkg / "contexts.py").exists()
    assert "w·x" not in (pkg / "model" / "__init__.py").read_text() and "linear.py" not in (root / "README.md").read_text()
    stubs = (pkg / "claims" / "statements.py").read_text()
    assert stubs.count("kind=tv.Kind.RATE") == 2 and "# TODO kind" not in stubs
    # issue 29, author 9: the engine owns "every printed display builds, every claim has a location" (the plugin's
    # <paper>.package-checks item), so the draft writes no test file (it wrote tests/test_drafted.py, 17 lines)
    assert not (root / "tests").exists()
    # the author rewrites a display by hand (a function of Σ and w), as the Oja author did: not built by the check
    (pkg / "printed" / "note.py").write_text("def grad(S, w):\n    return S * w\n", encoding="utf-8")
    env = {"PYTHONPATH": f"{root}:{REPO}", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    pytest_ = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tv-fresh"]
    run = subprocess.run([*pytest_, "-k", "package-checks"], cwd=root, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:]
    assert "testpaths" not in run.stdout + run.stderr, run.stdout[-2000:]
    # a display that no longer builds is named by the engine's item (planted: a typo in a transcribed display)
    (pkg / "printed" / "note.py").write_text("def grad(S, w):\n    return S * w\n\n\ndef eq_typo():\n"
                                             "    return undefined_name + 1\n", encoding="utf-8")
    run = subprocess.run([*pytest_, "-k", "package-checks"], cwd=root, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 1 and "tvreview.printed.note.eq_typo(): raised NameError" in run.stdout, run.stdout[-2000:]
