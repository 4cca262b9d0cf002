"""``--tex`` in a paper's step context: the paper's assumption lines are accepted (the context's domains are
searched; a refutation stands only where its counterexample satisfies the paper's assumptions), and an unknown
symbol makes its own display unreadable with the reason, never the whole file."""
from __future__ import annotations

import io
import json
from fractions import Fraction

from theoryverify.check.tex.run import check_paper

CONTEXT = "inductionheads.stage2"  # k, w real with |k|, |w| < 1/2
TEX = r"""\documentclass{article}
\begin{document}
% theoryverify: assume k > 0
We have
\begin{equation}
(k+w)^2 = k^2 + 2kw + w^2
\end{equation}
and so we have
\begin{equation}
|k| = k
\end{equation}
and an unknown name
\begin{equation}
\zeta + 1 = 1 + \zeta
\end{equation}
and a wrong step whose counterexample satisfies the assumption
\begin{equation}
(k+w)^2 = k^2 + w^2
\end{equation}
\end{document}
"""


def test_assumption_lines_and_unknown_names_in_a_paper_context(tmp_path):
    tex = tmp_path / "p.tex"
    tex.write_text(TEX)
    out = io.StringIO()
    assert check_paper([str(tex)], context=CONTEXT, as_json=True, out=out, seed=0, jobs=1) == 1
    rows = {r["line"]: r for r in json.loads(out.getvalue())["relations"]}
    assert rows[6]["status"] == "proved" and rows[6]["assumptions"] == ["k > 0"]
    assert rows[10]["status"] == "inconclusive" and "the paper's assumption 'k > 0' does not hold" in rows[10]["reason"]
    assert rows[14]["status"] == "unreadable" and "unknown name 'zeta'" in rows[14]["reason"]
    assert rows[18]["status"] == "refuted" and Fraction(rows[18]["counterexample"]["k"]) > 0
