"""``python -m theoryverify new-paper NAME --from-tex paper.tex``: a paper package drafted from its LaTeX.

On a small paper written here: every numbered or labelled display is in ``printed/`` as the SymPy expression the
LaTeX reader reads (imported back and compared), an unreadable one is a TODO with the reason, every theorem-like
statement is a claim stub expected inconclusive, the catalogue has one id per statement, and the derivation chains
are step-check claims that ``verify`` runs from the first run — a wrong step planted in the LaTeX is refuted."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

from theoryverify import catalogue, cli, fromtex
from theoryverify.texsteps import check_tex_chain

REPO = Path(__file__).resolve().parent.parent
NAME = "tvdrafted"

TEX = r"""\documentclass{article}
\usepackage{amsmath,amsthm}
\newtheorem{thm}{Theorem}
\newtheorem{lemma}{Lemma}
\newcommand{\half}{\frac{1}{2}}
\begin{document}
\section{The model}
The loss is
\begin{equation}\label{eq:loss}
L(w) = \half (w x - y)^2 .
\end{equation}
Differentiating, we have
\begin{equation}\label{eq:grad}
\frac{d}{dw}\left(\half (w x - y)^2\right) = (w x - y) x .
\end{equation}
\begin{align}
(a+b)^2 &= a^2 + 2ab + b^2 \label{eq:square}\\
u^{3/2} &\le u^{3/2} + 1 \nonumber
\end{align}
\section{A wrong step}
Expanding, we have
\begin{equation}\label{eq:wrong}
(a+b)^2 = a^2 + b^2
\end{equation}
\begin{equation}\label{eq:odd}
\mathcal{Q} \rightsquigarrow \mathfrak{Z}
\end{equation}
Not numbered, not transcribed: \[ c = d \]
\begin{lemma}\label{lem:amgm}
For all real $a, b$, $2ab \le a^2 + b^2$.
\end{lemma}
\begin{proof}
\begin{align*}
a^2 + b^2 - 2ab &= (a - b)^2 \\
&\ge 0 .
\end{align*}
\end{proof}
\begin{thm}[Main]
For $t > 0$, $\frac{1}{t+2} \le \frac{1}{t}$.
\end{thm}
\begin{remark} A remark is not a claim. \end{remark}
Hence we have
\begin{equation}\label{eq:int}
\int_A g(t)\, dt + 1 = 1 + \int_A g(t)\, dt
\end{equation}
\end{document}
"""


@pytest.fixture(scope="module")
def drafted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fromtex")
    (folder / "src").mkdir()
    tex = folder / "src" / "paper.tex"
    tex.write_text(TEX, encoding="utf-8")
    out = folder / "out"
    assert cli.main(["new-paper", NAME, "--from-tex", str(tex), "--out", str(out), "--title", "A drafted paper"]) == 0
    return tex, out / NAME


def _printed(root: Path):
    sys.path.insert(0, str(root))
    try:
        mods = {}
        for path in sorted((root / NAME / "printed").glob("s*.py")):
            mods[path.stem] = importlib.import_module(f"{NAME}.printed.{path.stem}")
        return mods
    finally:
        sys.path.remove(str(root))
        for key in [k for k in sys.modules if k == NAME or k.startswith(NAME + ".")]:
            del sys.modules[key]


def test_numbered_displays_become_printed_entries_equal_to_the_readers_expressions(drafted):
    tex, root = drafted
    draft = fromtex.read(tex)
    assert draft.counts() == {"numbered_or_labelled": 6, "transcribed": 4, "review": 0, "partly": 1, "todo": 1,
                              "statements": 2, "chains": 6, "skipped": 2, "undecided": 0}
    mods = _printed(root)
    assert set(mods) == {"s1_the_model", "s2_a_wrong_step"}
    found = {}  # each display's source is in its docstring (no SOURCE dict line per display, issue 29 author 9)
    for mod in mods.values():
        for name, fn in vars(mod).items():
            src = fromtex.display_source(fn.__doc__) if callable(fn) and getattr(fn, "__module__", "") == mod.__name__ else None
            if src:
                found[name] = (fn, {"where": src[0], "latex": src[1]})
    assert set(found) == {"eq_loss", "eq_grad", "eq_square", "eq_wrong", "eq_int"}  # eq_odd: a TODO comment
    for entry in draft.entries:
        if not entry.relations:
            assert entry.name not in found
            continue
        fn, src = found[entry.name]
        assert src["where"].endswith(entry.where) and src["latex"] == entry.latex
        assert all(f"label {label}" in src["where"] for label in entry.labels[:1])
        value = fn()
        built = value if isinstance(value, tuple) else (value,)
        assert len(built) == len(entry.relations)
        for rel, (op, lhs, rhs) in zip(built, entry.relations):
            assert rel.lhs == lhs and rel.rhs == rhs, (entry.name, rel)
    assert found["eq_loss"][1]["where"].startswith("Eq. (1)") and found["eq_square"][1]["where"].startswith("Eq. (3)")
    assert found["eq_wrong"][1]["where"].startswith("Eq. (4)")
    # the align row with \nonumber is part of the labelled display; its 3/2 power stays exact
    square = found["eq_square"][0]()
    assert square[1].rhs == sp.Symbol("u") ** sp.Rational(3, 2) + 1
    text = (root / NAME / "printed" / "s2_a_wrong_step.py").read_text()
    assert "# TODO eq_odd (Eq. (5), label eq:odd, paper.tex:25): not transcribed — the reader found no relation" in text
    # what the reader kept opaque is named, with its LaTeX: a partly transcribed display, never a silent symbol
    # (an integral over a region A: a definite one, \int_0^1, is read and transcribed since session 46)
    assert "    # TODO int1 stands for \\int_A g(t)d t (not read: an opaque symbol)" in text


def test_statements_are_claim_stubs_and_the_catalogue_has_one_id_each(drafted):
    _, root = drafted
    text = (root / NAME / "claims" / "statements.py").read_text()
    assert "For all real $a, b$, $2ab \\le a^2 + b^2$." in text and "A remark" not in text
    assert text.count("expect=tv.Status.INCONCLUSIVE") == 2 and "Lemma lem:amgm, paper.tex:29" in text
    assert "Theorem, paper.tex:38" in text
    spec = (root / NAME / "spec" / f"{NAME}.md").read_text()
    ids = catalogue.catalogue_ids(spec, {"TVDRAFTED"})
    assert ids == ["TVDRAFTED-eq-loss", "TVDRAFTED-eq-grad", "TVDRAFTED-eq-square", "TVDRAFTED-eq-wrong",
                   "TVDRAFTED-eq-odd", "TVDRAFTED-eq-int", "TVDRAFTED-lem-amgm", "TVDRAFTED-theorem-1"]
    assert (root / NAME / "paper" / "tex" / "paper.tex").read_text() == TEX
    for path in root.rglob("*.py"):
        compile(path.read_text(), str(path), "exec")


def test_verify_runs_the_drafted_package_and_refutes_the_planted_wrong_step(drafted):
    _, root = drafted
    env = {k: v for k, v in os.environ.items() if not k.startswith("THEORYVERIFY_")}
    env.update(PYTHONPATH=os.pathsep.join([str(REPO), str(root)]), THEORYVERIFY_PAPERS=NAME,
               PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-m", "theoryverify", "verify", "--paper", NAME, "--json", "--fresh"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stderr  # the planted wrong step differs from what the registry expects
    import json
    rows = {r["id"].split(".", 1)[1]: r for r in json.loads(proc.stdout)}
    # A step is proved when its symbolic proof finishes inside its CPU-time budget and otherwise holds (sampled);
    # on a loaded CI machine the sign-analysis proof of `(a-b)^2 >= 0` (steps_paper_l34) once fell back to sampling,
    # so that chain may be either; every other status is exact.
    status = {k: r["status"] for k, r in rows.items()}
    assert status.pop("steps_paper_l34") in ("proved", "holds")
    assert status == {
        "lem_amgm": "inconclusive", "theorem_1": "inconclusive", "steps_eq_grad": "proved", "steps_eq_square": "proved", "steps_eq_square_2": "proved",
        "steps_eq_wrong": "refuted", "steps_eq_int": "proved"}
    assert rows["lem_amgm"]["as_expected"] and rows["steps_eq_grad"]["as_expected"]
    assert rows["steps_eq_wrong"]["counterexample"]
    # the draft has no test file of its own: the engine's package-checks item builds every display
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tv-fresh", "-k",
                            "package-checks"], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert tests.returncode == 0 and "1 passed" in tests.stdout, tests.stdout[-2000:]


REMARK_TEX = r"""\documentclass{article}
\usepackage{amsmath}
\newtheorem{remark}{Remark}
\begin{document}
We write $n$ for the number of samples and take
\[ n = 2^{k} d \]
\begin{remark}
In the experiments below,
\begin{equation}\label{eq:n}
n = 4 d \log d .
\end{equation}
\end{remark}
\begin{proof}
Hence
\begin{equation}\label{eq:step}
n = 2 d \log d^2 .
\end{equation}
\begin{align*}
a^2 + b^2 - 2ab &= (a - b)^2 \\
&\ge 0 .
\end{align*}
\end{proof}
\end{document}
"""


def test_a_value_set_outside_a_proof_is_a_listed_definition_never_a_claim(tmp_path):
    """A demanding author's remark `n = 4 d log d` (n used before) only sets a value: the draft gives it no step
    claim (one that could never pass), lists it with its kind in steps.py and the catalogue, and notes it in
    printed/; a lone `n = …` inside a proof, and the proof's derivation, stay step claims."""
    tex = tmp_path / "src" / "p.tex"
    tex.parent.mkdir()
    tex.write_text(REMARK_TEX, encoding="utf-8")
    draft = fromtex.read(tex)
    assert [c.where for c in draft.chains] == ["p.tex:16", "p.tex:19"]  # the proof's two chains, not the remark
    remark = [s for s in draft.skipped if s.where == "p.tex:10"]
    assert len(remark) == 1 and remark[0].kind == "definition" and "outside any proof" in remark[0].why
    out = tmp_path / "out"
    assert cli.main(["new-paper", "tvremark", "--from-tex", str(tex), "--out", str(out)]) == 0
    steps = (out / "tvremark" / "tvremark" / "claims" / "steps.py").read_text()
    assert "'p.tex:10'" not in steps and "tv.tex_chain('steps_eq_step', 'p.tex:16'" in steps
    assert "#   p.tex:10  definition — a name set to a value outside any proof" in steps
    spec = (out / "tvremark" / "tvremark" / "spec" / "tvremark.md").read_text()
    assert "- p.tex:10: definition — a name set to a value outside any proof" in spec
    printed = (out / "tvremark" / "tvremark" / "printed" / "s0_front.py").read_text()
    assert "# NOTE not a derivation step: a definition (a name set to a value outside any proof" in printed


def test_check_tex_chain_can_fail_and_says_when_the_line_is_gone(tmp_path):
    tex = tmp_path / "p.tex"
    tex.write_text("We have\n\\begin{equation}\n(a+b)^2 = a^2 + 2ab + b^2\n\\end{equation}\n"
                   "and so\n\\begin{equation}\n(a+b)^2 = a^2 + 3ab + b^2\n\\end{equation}\n")
    assert check_tex_chain(tex, "p.tex:3").status.value == "proved"
    wrong = check_tex_chain(tex, "p.tex:7")
    assert wrong.status.value == "refuted" and wrong.counterexample and "p.tex:7" in wrong.evidence
    gone = check_tex_chain(tex, "p.tex:5")
    assert gone.status.value == "inconclusive" and "no derivation chain starts at p.tex:5" in gone.evidence


def test_printing_is_exact_and_falls_back_to_srepr_on_a_clash():
    code = fromtex._Code()
    x = sp.Symbol("x")
    assert code.expr(x ** sp.Rational(3, 2) / 7) == "x**(S(3)/2)/7"
    clash = sp.Symbol("sqrt") + sp.sqrt(x)  # a name that is also a SymPy function: never a silent rebinding
    assert code.expr(clash) == sp.srepr(clash)
    assert fromtex._Code().expr(sp.Float("0.1") * x) == "Float('0.100000000000000')*x"


@pytest.mark.parametrize("args, message", [
    (["--from-tex", "/nonexistent/paper.tex"], "no such file"),
    (["--from-tex", "."], "no such file"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, args, message):
    assert cli.main(["new-paper", NAME, "--out", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("theoryverify: error: ") and err.count("\n") == 1 and message in err
    assert not any(tmp_path.iterdir())


def test_a_file_with_nothing_to_draft_says_so(tmp_path, capsys):
    """A .tex with no display and no statement (an \\input'd chapter's wrapper, the wrong file) writes an empty draft:
    the command says so on stderr rather than reporting zeros as if all went well; a paper with content does not."""
    tex = tmp_path / "empty.tex"
    tex.write_text("\\documentclass{article}\n\\begin{document}\nHello.\n\\end{document}\n")
    assert cli.main(["new-paper", "tvempty", "--from-tex", str(tex), "--out", str(tmp_path / "o")]) == 0
    assert "has no displayed relation and no theorem-like statement" in capsys.readouterr().err
    tex.write_text("\\documentclass{article}\n\\begin{document}\nWe have\n\\[ a + a = 2 a \\]\n\\end{document}\n")
    assert cli.main(["new-paper", "tvfull", "--from-tex", str(tex), "--out", str(tmp_path / "p")]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_section_module_name_is_cut_at_a_word_end():
    """Author 11's D5: "A two-layer scalar linear network" was drafted as ``printed/s1_a_two_layer_scalar_linea.py``."""
    from theoryverify import fromtex

    class Draft:
        sections = ["A two-layer scalar linear network", "The optimal penalty", "Supercalifragilisticexpialidociousness"]

    assert [fromtex.section_module(Draft, i) for i in (1, 2, 3, 4)] == [
        "s1_a_two_layer_scalar", "s2_the_optimal_penalty", "s3_supercalifragilisticexpi", "s4_front"]
