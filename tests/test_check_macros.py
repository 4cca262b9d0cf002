"""The macro expander (theoryverify.check.macros): definition forms, arguments, budgets, hostile bodies."""
import pytest
from cputime import cpu_time

from theoryverify.check.macros import ExpansionError, Macro, MacroTable, Note, preamble_and_body
from theoryverify.check.parser import BadInput


def table(src: str, **kw) -> MacroTable:
    t = MacroTable(**kw)
    t.collect(src, "paper.tex")
    return t


@pytest.mark.parametrize("src, use, want", [
    (r"\newcommand{\vect}[1]{\mathbf{#1}}", r"\vect{x}+\vect y", r"\mathbf{x}+\mathbf{y}"),
    (r"\newcommand\E{\mathbb{E}}", r"\E[X]", r"\mathbb{E}[X]"),
    (r"\newcommand*{\R}{\mathbb{R}}", r"x\in\R^n", r"x\in\mathbb{R}^n"),
    (r"\renewcommand{\vec}[1]{\mathbf{#1}}", r"\vec{v}", r"\mathbf{v}"),
    (r"\renewcommand*\vec[1]{\boldsymbol{#1}}", r"\vec{v}", r"\boldsymbol{v}"),
    (r"\providecommand{\half}{\frac12}", r"\half x", r"\frac12 x"),
    (r"\providecommand*{\half}{\frac12}", r"\half", r"\frac12"),
    (r"\def\bx{\mathbf{x}}", r"\bx^\top", r"\mathbf{x}^\top"),
    (r"\def\pair#1#2{(#1,#2)}", r"\pair ab", r"(a,b)"),
    (r"\def \pair #1#2{(#1,#2)}", r"\pair{a}{\beta}", r"(a,\beta)"),
    (r"\gdef\one{1}", r"\one+\one", r"1+1"),
    (r"\edef\one{1}", r"\one", r"1"),
    (r"\xdef\one{1}", r"\one", r"1"),
    (r"\long\def\sq#1{#1^2}", r"\sq{x}", r"x^2"),
    (r"\protected\def\sq#1{#1^2}", r"\sq x", r"x^2"),
    (r"\global\long\def\sq#1{#1^2}", r"\sq\alpha", r"\alpha^2"),
    (r"\def\bar#1.{\overline{#1}}", r"\bar xy. + 1", r"\overline{xy} + 1"),
    (r"\def\ip(#1,#2){\langle #1,#2\rangle}", r"\ip(u,v)", r"\langle u,v\rangle"),
    (r"\newcommand{\inner}[2]{\langle #1, #2\rangle}", r"\inner{x}{y}", r"\langle x, y\rangle"),
    (r"\newcommand{\T}{^\top}", r"W\T x", r"W^\top x"),
    (r"\newcommand{\eps}{\varepsilon}", r"\eps_t", r"\varepsilon_t"),
    (r"\newcommand{\R}{\ensuremath{\mathbb{R}}\xspace}", r"\R^d", r"\mathbb{R}^d"),
    (r"\newcommand{\one}{1\relax}", r"\one\@", r"1"),
    # a transpose drawn with \mathpalette and \raisebox (placement only): the content is what is read
    (r"\newcommand\raiseT[2]{\raisebox{0.2ex}{$#1#2$}}\newcommand\transpose{^{\mathpalette\raiseT{\intercal}}}",
     r"A\transpose", r"A^{\textstyle\intercal}"),
    (r"\newcommand\up{\raisebox{1pt}[0pt][0pt]{$x$}}", r"\up", r"x"),
])
def test_definition_forms(src, use, want):
    assert table(src).expand(use) == want


def test_macro_fields():
    t = MacroTable()
    assert t.collect("\\newcommand{\\x}[2][1]{#1^{#2}}\n\\def\\bar#1.{#1}", "p.tex", first_line=10) == []
    assert t.get("\\x") == Macro("\\x", 2, "1", "#1^{#2}", "newcommand", "p.tex:10")
    bar = t.get("\\bar")
    assert (bar.nparams, bar.delimited, bar.kind, bar.origin) == (1, "#1.", "def", "p.tex:11")
    assert "\\x" in t and "\\y" not in t and len(t) == 2 and t.names() == ["\\x", "\\bar"]
    assert t.get("\\y") is None


def test_optional_argument():
    t = table(r"\newcommand{\x}[2][1]{#1^{#2}}")
    assert t.expand(r"\x{3}") == "1^{3}"
    assert t.expand(r"\x[2]{3}") == "2^{3}"
    assert t.expand(r"\x [{a]}]{3}") == "{a]}^{3}"
    t = table(r"\newcommand{\norm}[2][2]{\|#2\|_{#1}}")
    assert t.expand(r"\norm{v} + \norm[\infty]{w}") == r"\|v\|_{2} + \|w\|_{\infty}"


def test_redefinition_rules():
    t = MacroTable()
    notes = t.collect(r"\newcommand{\a}{1}\providecommand{\a}{2}")
    assert notes == [] and t.expand(r"\a") == "1"
    t.collect(r"\renewcommand{\a}{3}")
    assert t.expand(r"\a") == "3"
    notes = t.collect(r"\newcommand{\a}{4}", "p.tex")
    assert t.expand(r"\a") == "4" and len(notes) == 1 and "redefined" in notes[0].message
    assert isinstance(notes[0], Note) and notes[0].origin == "p.tex:1"


def test_let():
    t = table(r"\newcommand{\R}{\mathbb{R}}\let\reals\R\let\S=\R \let\eps= \varepsilon"
              r"\renewcommand{\R}{\mathbb{Q}}")
    assert t.expand(r"\reals\S\R") == r"\mathbb{R}\mathbb{R}\mathbb{Q}"
    assert t.expand(r"\eps x") == r"\varepsilon x"
    assert t.get("\\reals").kind == "let"
    # \let to a primitive keeps its old meaning, even when the paper then redefines that name
    t = table(r"\let\oldvec\vec \renewcommand{\vec}[1]{\oldvec{\mathbf{#1}}}")
    assert t.expand(r"\vec{x}") == r"\vec{\mathbf{x}}"


def test_declare_math_operator():
    t = table(r"\DeclareMathOperator*{\argmin}{arg\,min}\DeclareMathOperator{\Tr}{Tr}"
              r"\DeclareMathOperator\diag{\mathrm{diag}}")
    assert t.get("\\argmin").kind == "operator*" and t.get("\\Tr").kind == "operator"
    assert t.expand(r"\argmin_w \Tr(A) \diag(v)") == \
        r"\operatorname*{argmin}_w \operatorname{Tr}(A) \operatorname{diag}(v)"


def test_declare_paired_delimiter():
    t = table(r"\DeclarePairedDelimiter{\norm}{\lVert}{\rVert}\DeclarePairedDelimiter\abs{\lvert}{\rvert}")
    assert t.get("\\norm").nparams == 1
    assert t.expand(r"\norm{x}") == r"\left\lVert x\right\rVert"
    assert t.expand(r"\norm*{x+y}") == r"\left\lVert x+y\right\rVert"
    assert t.expand(r"\norm[\big]{x}") == r"\bigl\lVert x\bigr\rVert"
    assert t.expand(r"\abs{\norm{v}}") == r"\left\lvert \left\lVert v\right\rVert\right\rvert"


def test_whole_word_matching():
    t = table(r"\newcommand{\R}{\mathbb{R}}\newcommand{\Rd}{\mathbb{R}^d}")
    assert t.expand(r"\Rd \R \Rx") == r"\mathbb{R}^d \mathbb{R} \Rx"
    assert table(r"\newcommand{\R}{X}").expand(r"\Re \R") == r"\Re X"


def test_nested_use_and_control_word_spacing():
    t = table(r"\newcommand{\bx}{\mathbf{x}}\newcommand{\sq}[1]{#1^2}\newcommand{\nbx}{\norm{\bx}}"
              r"\newcommand{\norm}[1]{\|#1\|}\def\cs#1{#1x}")
    assert t.expand(r"\sq{\nbx}") == r"\|\mathbf{x}\|^2"
    assert t.expand(r"\cs\alpha") == r"\alpha x"  # never \alphax


def test_hash_hash_and_nested_def_left_alone():
    t = table(r"\newcommand{\mk}[1]{\def\inner##1{##1+#1}}")
    assert t.expand(r"\mk{2}") == r"\def\inner#1{#1+2}"


def test_unknown_text_copied_and_newlines_kept():
    t = table(r"\newcommand{\R}{\mathbb{R}}")
    text = "a &= \\frac{1}{2}\\\\\n  &\\le \\R \\% 50"
    assert t.expand(text) == text.replace("\\R", "\\mathbb{R}")
    assert MacroTable().expand("x + y") == "x + y"


def test_recursion_is_caught_fast():
    for src in (r"\def\a{\a}", r"\def\a{x\a}", r"\newcommand{\a}[1]{\a{#1#1}}"):
        with cpu_time() as t, pytest.raises(ExpansionError, match=r"exceeds .*\\a"):
            table(src).expand(r"\a{1}")
        assert t.seconds < 0.25, (src, t.seconds)  # CPU seconds, load-proof


def test_exponential_blowup_is_caught_fast():
    names = "abcdefghijklmnopqrstuvwxyz"
    src = "".join(f"\\def\\{x}{{\\{y}\\{y}}}" for x, y in zip(names, names[1:])) + r"\def\z{zz}"
    with cpu_time() as t, pytest.raises(ExpansionError, match="exceeds"):
        table(src).expand(r"\a")
    assert t.seconds < 0.25, t.seconds  # CPU seconds, load-proof
    with pytest.raises(ExpansionError, match="characters"):
        table(r"\def\a{xxxxxxxxxx}", max_chars=100).expand(r"\a" * 50)
    assert issubclass(ExpansionError, BadInput)


@pytest.mark.parametrize("body", [r"\csname foo\endcsname", r"\immediate\write18{rm -rf ~}", r"\input{/etc/passwd}",
                                  r"\expandafter\x\y", r"\catcode`\@=11", r"\openout1=x", r"\read16 to \x",
                                  r"\directlua{os.execute('x')}", r"\@ifnextchar[{a}{b}", r"\ifx\a\b 1\else 2\fi"])
def test_hostile_bodies_recorded_unsafe(body, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    t = MacroTable()
    notes = t.collect(f"\\newcommand{{\\evil}}{{{body}}}\n\\def\\bad#1{{{body}#1}}", "p.tex")
    assert {n.origin for n in notes} == {"p.tex:1", "p.tex:2"}
    assert t.get("\\evil").unsafe and t.get("\\bad").unsafe
    for use in (r"x + \evil", r"\bad{1}"):
        with pytest.raises(ExpansionError, match="refused"):
            t.expand(use)
    assert list(tmp_path.iterdir()) == []
    assert t.expand(r"\iff x") == r"\iff x"  # \iff is a symbol, not a conditional


@pytest.mark.parametrize("src", [
    r"\newcommand{\a}{\frac{1}{2}", r"\newcommand{\a}[x]{1}", r"\newcommand{}{1}", r"\newcommand{\a}",
    r"\def\a#2{#2}", r"\def\a", r"\def\a#1#{x}", r"\let", r"\DeclareMathOperator{\a}", "\\newcommand{\\b}{\\}",
    r"\DeclarePairedDelimiter{\n}{(}", r"\newcommand{\a}[0][1]{x}", r"\newcommand{\a}[1]{", "}}}{{{",
])
def test_malformed_definitions_give_notes(src):
    t = MacroTable()
    notes = t.collect(src + "\n\\newcommand{\\ok}{1}", "p.tex")
    assert notes and all(n.origin.startswith("p.tex:") for n in notes) or src == "}}}{{{"
    assert t.expand(r"\ok") == "1"


def test_comments_are_stripped():
    t = MacroTable()
    t.collect("% \\newcommand{\\a}{1}\n\\newcommand{\\b}{50\\%} % \\def\\c{3}\n\\newcommand{\\d}{%\n  4%\n}")
    assert t.names() == ["\\b", "\\d"]
    assert t.expand(r"\b\d") == r"50\%4"


def test_missing_argument_is_an_error():
    with pytest.raises(ExpansionError, match="missing argument"):
        table(r"\newcommand{\sq}[1]{#1^2}").expand(r"\sq")
    with pytest.raises(ExpansionError, match="does not match"):
        table(r"\def\ip(#1,#2){x}").expand(r"\ip[a,b]")


def test_preamble_and_body():
    src = "\\documentclass{article}\n\\newcommand{\\R}{\\mathbb{R}}\n\\begin{document}\n$\\R$\n\\end{document}"
    pre, body, line = preamble_and_body(src)
    assert pre.endswith("\\mathbb{R}}\n") and body.startswith("\n$\\R$") and line == 3
    assert preamble_and_body("x = 1") == ("", "x = 1", 1)


PREAMBLE = r"""
\documentclass{article}
\usepackage{amsmath,amssymb,mathtools}
\newcommand{\R}{\mathbb{R}}
\newcommand{\N}{\mathbb{N}}
\newcommand\E{\mathbb{E}}
\renewcommand{\Pr}{\mathbb{P}}
\newcommand{\Var}{\mathrm{Var}}
\DeclarePairedDelimiter{\norm}{\lVert}{\rVert}
\DeclarePairedDelimiter{\abs}{\lvert}{\rvert}
\newcommand{\ip}[2]{\left\langle #1, #2 \right\rangle}
\DeclareMathOperator*{\argmin}{arg\,min}
\DeclareMathOperator*{\argmax}{arg\,max}
\DeclareMathOperator{\tr}{tr}
\DeclareMathOperator{\diag}{diag}
\newcommand{\bx}{\mathbf{x}}
\newcommand{\by}{\mathbf{y}}
\newcommand{\bw}{\mathbf{w}}
\newcommand{\bW}{\mathbf{W}}
\newcommand{\btheta}{\boldsymbol{\theta}}
\newcommand{\bmu}{\boldsymbol{\mu}}
\newcommand{\cL}{\mathcal{L}}
\newcommand{\cD}{\mathcal{D}}
\newcommand{\cN}{\mathcal{N}}
\newcommand{\eps}{\varepsilon}
\newcommand{\T}{^\top}
\newcommand{\softmax}{\operatorname{softmax}}
\newcommand{\sigmoid}[1]{\sigma\!\left(#1\right)}
\newcommand{\KL}[2]{D_{\mathrm{KL}}\left(#1 \,\|\, #2\right)}
\newcommand{\grad}{\nabla}
\newcommand{\ind}[1]{\mathbb{1}\{#1\}}
\newcommand{\Ex}[2][]{\E_{#1}\left[#2\right]}
\def\half{\frac{1}{2}}
\let\epsilon\varepsilon
\newcommand{\loss}{\cL(\btheta)}
\begin{document}
"""


def test_realistic_preamble():
    pre, _, _ = preamble_and_body(PREAMBLE + "\\end{document}")
    t = MacroTable()
    assert t.collect(pre, "paper.tex") == []
    assert len(t) == 32
    display = (r"\loss = \Ex[\bx\sim\cD]{\half\norm{\bW\T\bx - \by}^2} + \eps\abs{\ip{\bw}{\btheta}}"
               r" \le \tr(\bW\T\bW) \quad \btheta^* = \argmin_{\btheta\in\R^d} \Pr[\ind{\bx\T\bw > 0}]")
    want = (r"\mathcal{L}(\boldsymbol{\theta}) = \mathbb{E}_{\mathbf{x}\sim\mathcal{D}}\left[\frac{1}{2}"
            r"\left\lVert \mathbf{W}^\top\mathbf{x} - \mathbf{y}\right\rVert^2\right] + \varepsilon"
            r"\left\lvert \left\langle \mathbf{w}, \boldsymbol{\theta} \right\rangle\right\rvert"
            r" \le \operatorname{tr}(\mathbf{W}^\top\mathbf{W}) \quad \boldsymbol{\theta}^* = "
            r"\operatorname*{argmin}_{\boldsymbol{\theta}\in\mathbb{R}^d} \mathbb{P}[\mathbb{1}\{"
            r"\mathbf{x}^\top\mathbf{w} > 0\}]")
    assert t.expand(display) == want
    assert t.expand(r"\Ex{\KL{p}{q}}") == r"\mathbb{E}_{}\left[D_{\mathrm{KL}}\left(p \,\|\, q\right)\right]"


def test_speed_on_large_display():
    pre, _, _ = preamble_and_body(PREAMBLE)
    t = MacroTable()
    t.collect(pre)
    chunk = r"\norm{\bW\T\bx - \by}^2 + \half\ip{\bw}{\btheta} \le \E[\cL] + x_1 y^2 \\" + "\n"
    text = chunk * (50_000 // len(chunk))
    with cpu_time() as clock:
        out = t.expand(text)
    assert clock.seconds < 0.25, clock.seconds  # CPU seconds, load-proof
    assert out.count("\\mathbf{W}") == text.count("\\bW")
    assert out.count("\n") == text.count("\n")


def test_random_text_never_crashes():
    import random
    pieces = [r"\newcommand", r"\def", r"\let", r"\renewcommand", "{", "}", "[", "]", "#1", "#2", "##", r"\a",
              r"\b", "x", " ", "\n", "%", r"\%", "=", "*", r"\DeclarePairedDelimiter", r"\DeclareMathOperator",
              "1", "2", r"\csname", "(", ")", ".", r"\\", r"\ensuremath"]
    rng = random.Random(7)
    for _ in range(1000):
        t = MacroTable()
        t.collect("".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))), "f.tex")
        try:
            t.expand("".join(rng.choice(pieces[4:]) for _ in range(rng.randint(1, 20))))
        except ExpansionError:
            pass
