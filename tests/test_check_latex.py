"""LaTeX in (issue 19): each construct the reader knows with a true statement that holds and a planted-error twin
that is refuted; a hostile corpus (macros, \\input, \\write18, deep nesting, megabyte input) through --latex and
--tex: exit 2, one line, nothing executed, within 2 s, and user text never reaches eval/exec/sympify/parse_expr;
--tex on the sample file in docs/examples (one wrong step, named with its line)."""
import builtins
import json
import subprocess
import sys
from pathlib import Path

import pytest
import sympy
from cputime import cpu_time

from theoryverify.check import check, cli
from theoryverify.check.session import Session

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "docs" / "examples" / "derivation.tex"
TRUE = {"proved", "holds"}

# (id, assumptions, true statement, planted-error twin)
PAIRS = [
    ("frac", (), r"\frac{1}{2} + \frac{1}{3} = \frac{5}{6}", r"\frac{1}{2} + \frac{1}{3} = \frac{2}{5}"),
    ("sqrt and |x|", (), r"\sqrt{x^2} = |x|", r"\sqrt{x^2} = x"),
    ("sqrt[n]", ("x > 0",), r"\sqrt[3]{x^3} = x", r"\sqrt[3]{x^3} = x^2"),
    ("sum symbolic bounds", ("n: integer", "n >= 1"), r"\sum_{k=1}^{n} k = \frac{n(n+1)}{2}",
     r"\sum_{k=1}^{n} k = \frac{n(n-1)}{2}"),
    ("prod", ("n: integer", "n >= 1"), r"\prod_{k=1}^{n} \frac{k+1}{k} = n + 1", r"\prod_{k=1}^{n} \frac{k+1}{k} = n"),
    ("log exp", (), r"\log\left(e^{x}\right) = x", r"\log\left(e^{x}\right) = 2x"),
    ("exp cdot", (), r"\exp(a + b) = \exp(a) \cdot \exp(b)", r"\exp(a + b) = \exp(a) + \exp(b)"),
    ("log base", (), r"\log_2 8 = 3", r"\log_2 8 = 4"),
    ("ge", (), r"x^2 + 1 \ge 2x", r"x^2 + 1 \ge 3x"),
    ("geq", (), r"x^2 + 1 \geq 2x", r"x^2 \geq 2x"),
    ("le leq", ("0 < p < 1",), r"p(1 - p) \le \frac{1}{4}", r"p(1 - p) \leq \frac{1}{5}"),
    ("< >", ("x > 0",), r"\log(1 + x) < x", r"\log(1 + x) > x"),
    ("left right", (), r"\left(a + b\right)^2 \le 2 a^2 + 2 b^2", r"\left(a + b\right)^2 \le a^2 + b^2"),
    ("subscripts", (), r"(w_1 + w_{2})^2 = w_1^2 + 2 w_1 w_2 + w_2^2", r"(w_1 + w_{2})^2 = w_1^2 + w_2^2"),
    ("d/dx", (), r"\frac{d}{dx} e^{2x} = 2 e^{2x}", r"\frac{d}{dx} e^{2x} = e^{2x}"),
    ("partial", (), r"\frac{\partial}{\partial x} x^2 y = 2 x y", r"\frac{\partial}{\partial x} x^2 y = 2 x"),
    ("partial f / partial x", (), r"\frac{\partial (x y^2)}{\partial y} = 2 x y",
     r"\frac{\partial (x y^2)}{\partial y} = x y"),
    ("second derivative", (), r"\frac{d^2}{dx^2} x^3 = 6x", r"\frac{d^2}{dx^2} x^3 = 3x^2"),
    ("greek", ("sigma > 0",), r"\frac{\alpha \sigma^2}{\sigma} = \alpha \sigma",
     r"\frac{\alpha \sigma^2}{\sigma} = \alpha"),
    ("sigmoid", (), r"\frac{d}{dx} \sigma(x) = \sigma(x)(1 - \sigma(x))", r"\frac{d}{dx} \sigma(x) = \sigma(x)^2"),
    ("mathbb E", ("X ~ Normal(mu, s)",), r"\mathbb{E}[X^2] = \mu^2 + s^2", r"\mathbb{E}[X^2] = \mu^2"),
    ("chain", (), r"(x + 1)^2 = x^2 + 2x + 1 \le 2x^2 + 2", r"(x + 1)^2 = x^2 + 2x + 1 \le x^2 + 2"),
    ("floor", (), r"\lfloor x \rfloor \le x", r"\lfloor x \rfloor \ge x"),
    ("times", (), r"3 \times 4 = 12", r"3 \times 4 = 7"),
    ("transpose", ("W: matrix(2, 2)",), r"\det(W^\top W) = \det(W)^2", r"\det(W^\top W) = \det(W)"),
    ("cos^2", (), r"\cos^2 x + \sin^2 x = 1", r"\cos^2 x - \sin^2 x = 1"),
    ("nabla and norm", ("W: matrix(2, 2)", "w: vector(2)", "t: vector(2)"),
     r"\nabla_w \frac{1}{2}\|W w - t\|^2 = W^\top (W w - t)", r"\nabla_w \frac{1}{2}\|W w - t\|^2 = W (W w - t)"),
    ("declared function", ("f: function",), r"\frac{d}{dx} f(x)^2 = 2 f(x) \frac{d}{dx} f(x)",
     r"\frac{d}{dx} f(x)^2 = 2 \frac{d}{dx} f(x)"),
]


@pytest.fixture(scope="module")
def sessions():
    cache = {}

    def get(assume):
        if assume not in cache:
            cache[assume] = Session("free", list(assume))
        return cache[assume]
    return get


@pytest.mark.parametrize("name,assume,good,bad", PAIRS, ids=[p[0] for p in PAIRS])
def test_latex_true_holds_and_planted_twin_is_refuted(sessions, name, assume, good, bad):
    s = sessions(assume)
    v = s.check(good, latex=True)
    assert v.status.value in TRUE, (name, v.read_as, v.line())
    assert v.read_as  # what the reader understood is always shown
    w = s.check(bad, latex=True)
    assert w.status.value == "refuted", (name, w.read_as, w.line())
    assert w.counterexample is not None


def test_latex_reads_to_the_plain_syntax():
    cases = {
        r"\frac{d}{dx} \sigma(x) = \sigma(x)(1 - \sigma(x))": "diff(sigmoid(x), x) == sigmoid(x) * (1 - sigmoid(x))",
        r"\sum_{k=1}^{n} k^2 \le n^3": "Sum(k ** 2, (k, 1, n)) <= n ** 3",
        r"\mathbb{E}\left[X\right] = \mu": "E(X) == mu",
        r"w_1 \cdot \lambda = \lambda w_1": "w_1 * lam == lam * w_1",
        r"e^{-x} \geq 0": "exp(-x) >= 0",
    }
    for tex, plain in cases.items():
        assert check(tex, latex=True, assume=["X ~ Normal(mu, s)"] if "mathbb" in tex else ()).read_as == plain, tex


@pytest.mark.parametrize("tex,hint", [
    (r"\sin^{-1} x = 1", "positive whole power"),
    (r"f(x) = x^2", "declare it (assume 'f: function')"),  # never silently the product f*x
    (r"\sigma'(x) = 1", "primes"),
    (r"x \ne 1", "not equal"),
    (r"x \approx 1", "bound"),
    (r"\unknowncmd{x} = 1", "unknown LaTeX command"),
])
def test_latex_errors_teach(tex, hint):
    v = check(tex, latex=True)
    assert v.bad_input and v.exit_code == 2 and "\n" not in v.line()
    assert hint in v.verdict.evidence, v.verdict.evidence


# --- hostile input -----------------------------------------------------------------------------------------

def latex_corpus(sentinel: str) -> dict[str, str]:
    return {
        "def": r"\def\x{1} \x = 1",
        "edef": r"\edef\x{1} x = 1",
        "let": r"\let\x=\relax x = 1",
        "newcommand": r"\newcommand{\x}{1} \x = 1",
        "renewcommand": r"\renewcommand{\sigma}{1} \sigma = 1",
        "DeclareMathOperator": r"\DeclareMathOperator{\foo}{foo} x = x",
        "input": rf"\input{{{sentinel}}} x = 1",
        "include": rf"\include{{{sentinel}}} x = 1",
        "write18": rf"\write18{{touch {sentinel}}} x = 1",
        "immediate write18": rf"\immediate\write18{{touch {sentinel}}} x = 1",
        "openout": rf"\openout1={sentinel} x = 1",
        "directlua": rf"\directlua{{os.execute('touch {sentinel}')}} x = 1",
        "catcode": r"\catcode`\@=11 x = 1",
        "csname": r"\csname x\endcsname = 1",
        "expandafter": r"\expandafter x = 1",
        "macro parameter": r"#1 = 1",
        "unknown command": r"\foo{x} = 1",
        "deep braces": "{" * 1900 + "x" + "}" * 1900 + " = x",
        "deep frac": r"\frac{" * 300 + "x" + "}{2}" * 300 + " = x",
        "deep left": r"\left(" * 300 + "x" + r"\right)" * 300 + " = x",
        "deep powers": "x^{" * 300 + "2" + "}" * 300 + " = x",
        "megabyte": "x + " * 250000 + "x = x",
        "unbalanced": r"\frac{1}{2 = x",
        "no relation": r"\frac{1}{2}",
        "empty": "   ",
        "nul byte": "x\x00 = 1",
    }


@pytest.fixture
def no_eval(monkeypatch):
    """Record any user text that reaches eval/exec/sympify/parse_expr."""
    seen = []

    def guard(real, name):
        def wrapped(obj, *a, **k):
            if isinstance(obj, str):
                seen.append((name, obj[:80]))
            return real(obj, *a, **k)
        return wrapped

    monkeypatch.setattr(builtins, "eval", guard(builtins.eval, "eval"))
    monkeypatch.setattr(builtins, "exec", guard(builtins.exec, "exec"))
    monkeypatch.setattr(sympy, "sympify", guard(sympy.sympify, "sympify"))
    import sympy.parsing.sympy_parser as sp_parser
    monkeypatch.setattr(sp_parser, "parse_expr", lambda *a, **k: seen.append(("parse_expr", a)) or None)
    return seen


@pytest.fixture(scope="module")
def warm():
    Session("free")


def _one_error_line(err: str) -> None:
    assert len(err.strip().splitlines()) == 1 and err.startswith("theoryverify.check: error:"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(latex_corpus("S")))
def test_hostile_latex_exit_2_one_line_fast(name, tmp_path, capsys, no_eval, warm):
    sentinel = tmp_path / "pwned"
    text = latex_corpus(str(sentinel))[name]
    with cpu_time() as t:
        code = cli.main(["--latex", text])
    _one_error_line(capsys.readouterr().err)
    assert code == 2 and t.seconds < 0.1, (name, code, t.seconds)  # CPU seconds (load-proof), ≤ 0.01 measured
    assert not sentinel.exists()
    assert not [s for s in no_eval if s[0] in ("sympify", "parse_expr") or "pwned" in str(s)], no_eval


@pytest.mark.parametrize("name", sorted(latex_corpus("S")))
def test_hostile_tex_file_is_skipped_and_reported_never_run(name, tmp_path, capsys, no_eval, warm):
    """A paper with a hostile display is still read: the display is skipped (unreadable, with the reason) or
    read safely by the bounded macro expander; nothing is run, written or eval'd, and it stays fast."""
    sentinel = tmp_path / "pwned"
    body = latex_corpus(str(sentinel))[name]
    if name == "megabyte":
        body = "x = x \\\\\n" * 120000  # a megabyte file
    f = tmp_path / "hostile.tex"
    f.write_text("\\documentclass{article}\n\\begin{document}\n\\begin{equation}\n" + body +
                 "\n\\end{equation}\n\\end{document}\n")
    with cpu_time() as t:
        code = cli.main(["--tex", str(f), "--json"])
    captured = capsys.readouterr()
    # CPU seconds, load-proof (the wall clock, 30 s, took 55 s under load): the megabyte file, 120,000 relations
    # each accounted for, ~5.5 CPU-s; every other file ≤ 0.7
    assert t.seconds < (20.0 if name == "megabyte" else 3.0), (name, t.seconds)
    assert not sentinel.exists()
    assert not [s for s in no_eval if s[0] in ("sympify", "parse_expr") or "pwned" in str(s)], no_eval
    if code == 2:  # only a file that is not text (the NUL byte) is refused as a whole
        assert name == "nul byte"
        _one_error_line(captured.err)
        return
    assert code in (0, 1) and "Traceback" not in captured.err
    out = json.loads(captured.out)
    assert out["summary"]["relations"] == len(out["relations"]) >= (0 if name in ("no relation", "empty") else 1)


def test_hostile_tex_outside_math_is_reported_never_run(tmp_path, capsys):
    sentinel = tmp_path / "pwned"
    f = tmp_path / "preamble.tex"
    f.write_text(f"\\immediate\\write18{{touch {sentinel}}}\n\\begin{{equation}} x = x \\end{{equation}}\n")
    assert cli.main(["--tex", str(f)]) == 0
    out = capsys.readouterr().out
    assert "preamble.tex:1: \\write18 skipped (never executed)" in out
    assert not sentinel.exists()


@pytest.mark.parametrize("args", [
    ["--latex", r"\immediate\write18{touch /tmp/theoryverify-pwned} x = 1"],
    ["--latex", "{" * 1900 + "x" + "}" * 1900 + " = x"],
])
def test_hostile_latex_fresh_process(args):
    """A fresh process refuses before SymPy is imported."""
    with cpu_time() as t:
        proc = subprocess.run([sys.executable, "-m", "theoryverify.check", *args], capture_output=True, text=True,
                              timeout=60)  # a hang guard only
    assert proc.returncode == 2 and proc.stdout == ""
    _one_error_line(proc.stderr)
    assert t.seconds < 0.5, t.seconds  # the child's CPU seconds, interpreter start included (~0.1), load-proof


def test_missing_and_binary_files_are_one_line(tmp_path, capsys):
    assert cli.main(["--tex", str(tmp_path / "nosuch.tex")]) == 2
    _one_error_line(capsys.readouterr().err)
    b = tmp_path / "binary.tex"
    b.write_bytes(b"\xff\xfe\x00\x01")
    assert cli.main(["--tex", str(b)]) == 2
    _one_error_line(capsys.readouterr().err)


# --- --tex on a file: see tests/test_check_tex.py (every display of a paper) ---------------------------------
