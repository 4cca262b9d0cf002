"""A drafted step claim expects what the step checker can do with its chain (held-out author 7, defect 1): a chain
the checker leaves undecided — an unknown function, a step it cannot read — is drafted expected inconclusive with
the reason, so the first ``verify`` of a freshly drafted package exits 0; a chain it decides keeps the default
expectation (a wrong step still makes ``verify`` exit 1)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from theoryverify import cli

REPO = Path(__file__).resolve().parent.parent
NAME = "tvundecided"

# paraphrased: a gradient written with an unspecified g (undecidable), a one-dimensional derivative (provable)
TEX = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section{Setting}
The gradient of the objective is
\begin{equation}\label{eq:grad}
\nabla h(v) = g'(v) + \mu v .
\end{equation}
In one dimension, differentiating,
\begin{equation}\label{eq:one}
\frac{d}{d u}\left(\frac{1}{2}(a u - b)^2\right) = a(a u - b) .
\end{equation}
\end{document}
"""


def _draft(tmp_path: Path, tex: str) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "paper.tex").write_text(tex, encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["new-paper", NAME, "--from-tex", str(tmp_path / "src" / "paper.tex"), "--out", str(out)]) == 0
    return out / NAME


def _verify(root: Path) -> tuple[int, dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("THEORYVERIFY_")}
    env.update(PYTHONPATH=os.pathsep.join([str(REPO), str(root)]), THEORYVERIFY_PAPERS=NAME,
               PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-m", "theoryverify", "verify", "--paper", NAME, "--json", "--fresh"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    return proc.returncode, {r["id"].split(".", 1)[1]: r for r in json.loads(proc.stdout or "[]")}


def test_an_undecided_chain_is_drafted_expected_inconclusive_and_the_first_verify_exits_0(tmp_path, capsys):
    root = _draft(tmp_path, TEX)
    out = capsys.readouterr().out
    assert "2 derivation chains as step-check claims (1 the step checker leaves undecided" in out
    steps = (root / NAME / "claims" / "steps.py").read_text(encoding="utf-8")
    head, _, tail = steps.partition("tv.tex_chain('steps_eq_grad'")
    assert head.rstrip().splitlines()[-1].startswith("# undecided when drafted: 1 of 1 step(s) not decided")
    assert "expect=tv.Status.INCONCLUSIVE" in tail.split("tv.tex_chain(")[0]
    assert "expect=" not in tail.split("tv.tex_chain('steps_eq_one'")[1]  # decided: expected to pass
    rc, rows = _verify(root)
    assert rc == 0, rows
    assert rows["steps_eq_grad"]["status"] == "inconclusive" and rows["steps_eq_grad"]["as_expected"]
    assert rows["steps_eq_one"]["status"] == "proved" and rows["steps_eq_one"]["as_expected"]


def test_a_wrong_step_is_still_expected_to_pass_so_verify_shows_it(tmp_path):
    root = _draft(tmp_path, TEX.replace(r"= a(a u - b) .", r"= 2a(a u - b) ."))
    steps = (root / NAME / "claims" / "steps.py").read_text(encoding="utf-8")
    assert "expect=" not in steps.split("tv.tex_chain('steps_eq_one'")[1]
    rc, rows = _verify(root)
    assert rc == 1 and rows["steps_eq_one"]["status"] == "refuted" and not rows["steps_eq_one"]["as_expected"]


def test_a_slip_planted_in_the_latex_is_marked_planted_and_is_no_finding(tmp_path):
    """Author 9's D8: a demo .tex with a deliberate slip made the slip "Top finding F1" — no documented way to mark a
    step claim planted as ``tv.Planted`` marks a twin.  ``tv.tex_chain(..., planted="why")``: expected refuted
    (typo), recorded as planted (its row's ``planted_of``), listed apart, and verify exits 0."""
    root = _draft(tmp_path, TEX.replace(r"= a(a u - b) .", r"= 2a(a u - b) ."))
    path = root / NAME / "claims" / "steps.py"
    steps = path.read_text(encoding="utf-8")
    cat = "catalogue_id='TVUNDECIDED-eq-one'"
    assert cat in steps
    path.write_text(steps.replace(cat, cat + ", planted='a factor 2 planted for the demo'"), encoding="utf-8")
    rc, rows = _verify(root)
    one = rows["steps_eq_one"]
    assert rc == 0 and one["status"] == "refuted" and one["as_expected"], rows
    assert one["planted_of"] == one["id"] and one["finding"] == "typo"
    assert one["reason"] == "planted: a factor 2 planted for the demo"
    assert one["location"].endswith(", PLANTED"), one["location"]  # author 11's D3: marked as every twin is
    from theoryverify.report.cards import cards, is_planted
    assert is_planted(one) and not any(c.is_finding for c in cards(list(rows.values())) if c.id == one["id"])
