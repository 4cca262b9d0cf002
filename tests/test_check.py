"""The step checker (``python -m theoryverify.check``): true steps from the paper hold, planted
one-error versions are refuted with a counterexample (every context), exit codes, JSON, the REPL
(piped, unit, and on a pseudo-terminal), typed steps (``--given``/``--by``) and the Python API."""
import io
import json
import os
import select
import subprocess
import sys
import time

import numpy as np
import pytest
import sympy as sp

from theoryverify import stepcontext
from theoryverify.check import check, cli
from theoryverify.check.repl import handle, run
from theoryverify.check.session import Session
from theoryverify.numeric import compile_float

N3 = "icrecall.n3"
V_T = {"v1", "v2", "v3", "v4", "v5", "v6", "T"}
SUM_V_GRAD = "(v1*diff(L1,v1)+v2*diff(L1,v2)+v3*diff(L1,v3)+v4*diff(L1,v4)+v5*diff(L1,v5)+v6*diff(L1,v6))"

TRUE_N3 = [
    # Eq. (4), App. B, as derived (the claims icrecall.eq4 … icrecall.eq9 prove all six)
    "diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)",
    # Eq. (8), Eq. (9)
    "diff(L1, v5) == 2/T*((p_r3+p_r5)*v4 + (p_r4+p_r6)*v2)",
    "diff(L1, v6) == 0",
    # Table 2 rows
    "l_r2 == (v1+v4)**2 + (v2+v3)**2 + v5**2",
    "l_s1 == v2**2 + v4**2",
    # Lemma (App. B): l(a1) = l(a2) = l(a3) always
    "l_a1 == l_a3",
    # p1 is a distribution; L1 = -log p1(r1)
    "p_r1+p_r2+p_r3+p_r4+p_r5+p_r6 == 1",
    "L1 == -log(p_r1)",
    # Eq. (10): the theta-gradient through v = softmax(theta)
    f"diff(L1, theta1) == v1*(diff(L1, v1) - {SUM_V_GRAD})",
    # inequalities
    "L1 >= 0",
    "l_r1 <= 1",
]

PLANTED_N3 = [
    ("coefficient", "diff(L1, v1) == 3/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)"),
    ("index", "diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r5)*v4 - v2)"),
    ("sign", "diff(L1, v5) == 2/T*((p_r3+p_r5)*v4 - (p_r4+p_r6)*v2)"),
    ("index (Table 2)", "l_r2 == (v1+v4)**2 + (v2+v3)**2 + v4**2"),
    ("sign (Eq. 10)", f"diff(L1, theta1) == v1*(diff(L1, v1) + {SUM_V_GRAD})"),
    ("index (Eq. 10)", f"diff(L1, theta2) == v1*(diff(L1, v2) - {SUM_V_GRAD})"),
    ("bound", "L1 <= log(6)"),
    ("coefficient (bound)", "l_r1 <= 1/2"),
]

TRUE_FREE = [
    ((), "(x + 1)**2 == x**2 + 2*x + 1"),
    ((), "1/9 + 1/9 == 2/9"),
    (("T > 0",), "exp(log(T)) == T"),
    (("x > 0",), "sqrt(x**2) == x"),
    ((), "softmax(a, b)[1] + softmax(a, b)[2] == 1"),
    ((), "Abs(x) >= x"),
    ((), "Max(x, y) >= Min(x, y)"),
    (("simplex(p, q, r)",), "p*q + q*r + r*p <= 1/3"),
    ((), "diff(x**3, x, 2) == 6*x"),
    ((), "subs(x**2 + y, x, 3) == 9 + y"),
]

PLANTED_FREE = [
    ((), "(x + 1)**2 == x**2 + x + 1"),  # coefficient
    ((), "(x - 1)**2 == x**2 + 2*x + 1"),  # sign
    ((), "sqrt(x**2) == x"),  # needs x > 0
    ((), "exp(x) >= 1 + x + x**2/2"),  # false for x < 0
    (("simplex(p, q, r)",), "p*q + q*r + r*p <= 1/4"),  # bound
    ((), "softmax(a, b)[1] == exp(b)/(exp(a) + exp(b))"),  # index
]


@pytest.mark.parametrize("statement", TRUE_N3)
def test_true_paper_steps_hold(statement):
    v = check(statement, context=N3)
    assert v.status.value in ("proved", "holds"), v.line()
    assert v.exit_code == 0


@pytest.mark.parametrize("what,statement", PLANTED_N3)
def test_planted_errors_are_refuted_with_a_counterexample(what, statement):
    v = check(statement, context=N3)
    assert v.status.value == "refuted", (what, v.line())
    assert v.exit_code == 1
    ce = v.counterexample
    assert V_T - {"T"} <= set(ce), ce  # every free symbol of the statement has a value
    if "T" in statement or "L1" in statement or "p_r" in statement:
        assert "T" in ce
    assert set(v.sides) == {"lhs", "rhs"} and v.sides["lhs"] != v.sides["rhs"]


@pytest.mark.parametrize("assume,statement", TRUE_FREE)
def test_free_context_true_steps_hold(assume, statement):
    v = check(statement, context="free", assume=assume)
    assert v.status.value in ("proved", "holds"), v.line()


@pytest.mark.parametrize("assume,statement", PLANTED_FREE)
def test_free_context_planted_errors_are_refuted(assume, statement):
    v = check(statement, context="free", assume=assume)
    assert v.status.value == "refuted", v.line()
    assert set(v.sides) == {"lhs", "rhs"}
    names = {"x", "p", "q", "r", "a", "b"}
    assert {k for k in v.counterexample} & names


def test_rationals_stay_exact():
    assert check("1/9 + 1/9 == 2/9").status.value == "proved"
    v = check("1/3 == 0.3333333333333333")  # a decimal is the rational it spells
    assert v.status.value == "refuted"
    assert check("0.1 + 0.2 == 0.3").status.value == "proved"


# --- the CLI contract ---------------------------------------------------------------------

def _main(capsys, *args):
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_exit_codes(capsys):
    assert _main(capsys, "--context", N3, "l_a1 == l_a2")[0] == 0
    assert _main(capsys, "--context", N3, "l_a1 == l_r1")[0] == 1
    assert _main(capsys, "--context", N3, "--timeout", "0.05", "diff(L1, v1) == diff(L1, v1) + v6*0 + 0*T")[0] in (0, 3)
    code, out, _ = _main(capsys, "--context", N3, "--timeout", "0.05",
                         "diff(L1, v2) == 2/T*((p_r1+p_r3)*v1 + (p_r2+p_r5)*v3 + (p_r4+p_r6)*v5 - v1)")
    assert code == 3 and out.startswith("inconclusive")
    code, _, err = _main(capsys, "--context", "nosuch", "x == x")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_json_output(capsys):
    code, out, _ = _main(capsys, "--context", N3, "--json", "l_r2 == (v1+v4)**2 + (v2+v3)**2 + v4**2")
    assert code == 1
    row = json.loads(out)
    for key in ("verdict", "method", "evidence", "counterexample", "lhs_value", "rhs_value"):
        assert key in row
    assert row["verdict"] == "refuted"
    assert {"v1", "v2", "v3", "v4", "v5", "v6"} <= set(row["counterexample"])
    code, out, _ = _main(capsys, "--context", N3, "--json", "l_a1 == l_a2")
    assert code == 0 and json.loads(out)["verdict"] == "proved"


def test_list_contexts_and_symbols(capsys):
    code, out, _ = _main(capsys, "--list-contexts")
    assert code == 0 and "free" in out and N3 in out
    code, out, _ = _main(capsys, "--context", N3, "--symbols")
    for name in ("v1", "theta6", "T", "l_s1", "l_a3", "l_r6", "p_r6", "L1"):
        assert name in out
    assert "simplex" in out


def test_assume_declares_domains(capsys):
    assert _main(capsys, "--assume", "T > 0", "sqrt(T**2) == T")[0] == 0
    assert _main(capsys, "sqrt(T**2) == T")[0] == 1
    assert _main(capsys, "--assume", "0 < x < 1", "x**2 < x")[0] == 0
    assert _main(capsys, "--assume", "x == 2", "x**2 == 4")[0] == 0
    assert _main(capsys, "--context", N3, "--assume", "T > 0", "T == T")[0] == 2


# --- typed steps --------------------------------------------------------------------------

@pytest.mark.parametrize("given,by,target,code", [
    (["y == 2*x"], "substitute", "y**2 == 4*x**2", 0),
    (["y == 2*x"], "substitute", "y**2 == 4*x**3", 1),
    (["a == b", "c == d"], "linear(2, -1)", "2*a - c == 2*b - d", 0),
    (["a == b", "c == d"], "linear(2, 1)", "2*a - c == 2*b - d", 1),
    (["a <= b", "c < d"], "linear(1, 3)", "a + 3*c < b + 3*d", 0),
    (["x/(1+y) == z/(2+y)"], "clear-denominators", "x*(2+y) == z*(1+y)", 0),
    (["x/(1+y) == z/(2+y)"], "clear-denominators", "x*(2+y) == z*(2+y)", 1),
    (["x/(1+y) == z/(2+y)"], "clear((1+y)*(2+y))", "x*(2+y) == z*(1+y)", 0),
])
def test_given_steps_checked_exactly(capsys, given, by, target, code):
    args = [a for g in given for a in ("--given", g)]
    got, out, _ = _main(capsys, *args, "--by", by, target)
    assert got == code, out
    if code == 0:
        assert "certificate checked exactly" in out
    else:
        assert "counterexample" in out


def test_given_step_in_paper_context():
    v = check("T/2*diff(L1,v1) == (p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2", context=N3,
              given=["diff(L1,v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)"], by="linear(T/2)")
    assert v.status.value == "proved"
    v = check("T/2*diff(L1,v1) == 2*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)", context=N3,
              given=["diff(L1,v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)"], by="linear(T/2)")
    assert v.status.value == "refuted" and v.counterexample


# --- the REPL -----------------------------------------------------------------------------

def test_repl_loop_unit():
    s = Session(N3)
    assert handle(s, "") is None and handle(s, "# comment") is None
    assert handle(s, "g := diff(L1, v1)").startswith("g := ")
    assert handle(s, "g == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)").startswith(("proved", "holds"))
    assert handle(s, "g == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 + v2)").startswith("refuted")
    assert "g" in handle(s, ":symbols") and "L1" in handle(s, ":symbols")
    assert "definitions" in handle(s, ":help")
    assert handle(s, "nosuch == 1").startswith("error: unknown name")
    assert handle(s, "v1 := 3").startswith("error:")
    assert handle(s, ":given y == 2*x").startswith("given 1")
    assert handle(s, ":by substitute").startswith("rule")
    assert handle(s, "y**2 == 4*x**2").startswith("error")  # x, y unknown in icrecall.n3
    f = Session("free")
    handle(f, ":given y == 2*x"), handle(f, ":by substitute")
    assert handle(f, "y**2 == 4*x**2").startswith("proved")
    assert handle(f, "y**2 == 4*x**2").startswith("refuted")  # premises were used once
    out = io.StringIO()
    assert run(s, io.StringIO("l_a1 == l_a2\n\nbad(\n:quit\nl_a1 == l_a2\n"), out, interactive=False) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("proved") and lines[1].startswith("error:")


def test_repl_piped_one_line_per_input():
    text = ("g := diff(L1, v1)\n"
            "g == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)\n"
            "l_r2 == (v1+v4)**2 + (v2+v3)**2 + v4**2\n"
            "x.__class__ == 1\n"
            "L1 >= 0\n")
    proc = subprocess.run([sys.executable, "-m", "theoryverify.check", "--context", N3], input=text,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 5, proc.stdout
    assert lines[0].startswith("g := ")
    assert lines[1].startswith(("proved", "holds"))
    assert lines[2].startswith("refuted") and "counterexample" in lines[2]
    assert lines[3].startswith("error: not allowed: attribute access")
    assert lines[4].startswith("holds")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_repl_interactive_on_a_pty(tmp_path):
    master, slave = os.openpty()
    env = {**os.environ, "HOME": str(tmp_path)}  # the readline history file goes here
    proc = subprocess.Popen([sys.executable, "-m", "theoryverify.check", "--context", N3],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)

    def read_until(token, seconds=120):
        buf, end = b"", time.monotonic() + seconds
        while token not in buf and time.monotonic() < end:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    buf += os.read(master, 65536)
                except OSError:
                    break
        return buf.decode(errors="replace")

    try:
        assert "check>" in read_until(b"check>")
        os.write(master, b"l_a1 == l_a2\n")
        assert "proved" in read_until(b"proved")
        os.write(master, b":symbols\n")
        assert "p_r6" in read_until(b"L1 ")
        os.write(master, b":quit\n")
        assert proc.wait(timeout=60) == 0
        assert (tmp_path / ".theoryverify_history").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


# --- Python API, contexts ------------------------------------------------------------------

def test_python_api_renders_in_notebooks():
    v = check("l_r2 == (v1+v4)**2 + (v2+v3)**2 + v4**2", context=N3)
    md = v._repr_markdown_()
    assert "**refuted**" in md and "| `v1` |" in md and "lhs" in md
    assert v._repr_latex_().startswith("$") and r"\ne" in v._repr_latex_()
    assert check("l_a1 == l_a2", context=N3)._repr_latex_().count("$") == 2
    bad = check("import os", context=N3)
    assert bad.exit_code == 2 and bad.status.value == "error"


def test_paper_context_is_built_from_the_model_not_retyped():
    from derivations.icrecall.model.symbolic import n3
    ctx = stepcontext.get(N3)
    m = n3()
    assert ctx.defs["L1"] == m.L1()
    assert [ctx.defs[f"p_r{k}"] for k in range(1, 7)] == m.p1()
    assert ctx.defs["l_r3"] == m.relation_logits[2]
    assert set(ctx.symbols) >= {f"v{i}" for i in range(1, 7)} | {f"theta{i}" for i in range(1, 7)} | {"T"}


def test_softmax_jacobian_matches_differentiating_softmax():
    v, th = sp.symbols("v1:4"), sp.symbols("t1:4")
    r = stepcontext.softmax_reparametrisation(v, th)
    rng = np.random.default_rng(0)
    for _ in range(5):
        point = dict(zip(th, rng.normal(size=3)))
        vals = {d: compile_float(r.substitution[d], th)(point) for d in v}
        for (d, c), j in r.jacobian.items():
            direct = compile_float(sp.diff(r.substitution[d], c), th)(point)
            assert abs(compile_float(j, v)(vals) - direct) < 1e-12


def test_subs_on_the_simplex_is_honest():
    # v6 = 0: the others range over the smaller simplex exactly
    assert check("subs(v1+v2+v3+v4+v5, v6, 0) == 1", context=N3).status.value in ("proved", "holds")
    # a fixed nonzero coordinate: the rest were drawn from the whole simplex, so no refutation is claimed
    v = check("subs(v1+v2+v3+v4+v5, v6, 1/2) == 1/2", context=N3)
    assert v.status.value in ("holds", "inconclusive") and "simplex" in v.verdict.evidence
    # a genuinely wrong value at the exact sub-simplex is refuted
    assert check("subs(v1 + v2, v1, 0) == 1", context=N3).status.value == "refuted"
    # the paper's induction step (App. B): v1 = v3, v2 = v4 makes dL1/dtheta1 = dL1/dtheta3
    v = check("subs(diff(L1,theta1) - diff(L1, theta3), v1, v3, v2, v4) == 0", context=N3)
    assert v.status.value == "proved"
