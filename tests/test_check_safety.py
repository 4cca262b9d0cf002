"""Hostile input to the step checker: each gives a one-line error and exit 2, executes nothing,
and finishes within 2 seconds; user text never reaches eval/exec/sympify/parse_expr."""
import builtins
import subprocess
import sys
import os
import time

import pytest
import sympy
from cputime import cpu_time

from theoryverify.check import Session, check, cli
from theoryverify.check.parser import MAX_CHARS, MAX_DEPTH

N3 = "icrecall.n3"


def corpus(sentinel: str) -> dict[str, str]:
    touch = f"__import__('os').system('touch {sentinel}')"
    return {
        "import call": f"{touch} == 0",
        "import statement": "import os",
        "attribute dunder": "().__class__.__bases__[0].__subclasses__() == 1",
        "attribute on symbol": "v1.__class__ == 1",
        "attribute on call": "exp(v1).func == 1",
        "dunder name": "__builtins__ == 1",
        "eval": f"eval(\"{touch}\") == 1",
        "exec": f"exec('open(\"{sentinel}\", \"w\")') == 1",
        "open": f"open('{sentinel}', 'w') == 1",
        "lambda": "(lambda: 1)() == 1",
        "list comprehension": "[x for x in (1, 2)] == 1",
        "generator": "sum(x for x in (1, 2)) == 3",
        "dict": "{1: 2} == 1",
        "string literal": "'abc' == 1",
        "bytes literal": "b'abc' == 1",
        "f-string": "f'{v1}' == 1",
        "walrus inside": "(x := 1) == 1",
        "starred": "Max(*v1) == 1",
        "keyword unpack": "subs(v1, **{'v1': 1}) == 1",
        "power tower": "9**9**9**9 == 1",
        "big exponent": "v1**1000000 == 1",
        "symbolic exponent": "2**v1 == 1",
        "exp of big log multiple": "exp(10**12*log(2)) == 1",
        "huge literal": "1" * 400 + " == 1",
        "float overflow": "1e999 == 1",
        "deep parens": "(" * 500 + "1" + ")" * 500 + " == 1",
        "deep unary": "-" * 1500 + "1 == 1",
        "deep calls": "exp(" * 100 + "1" + ")" * 100 + " == 1",
        "megabyte": "v1 + " * 200000 + "1 == 1",
        "unknown name": "nosuchname == 1",
        "unknown function": "gamma(v1) == 1",
        "malformed": "v1 == == 2",
        "unclosed": "exp(v1 == 1",
        "no comparison": "v1 + 1",
        # chains (0 <= v1 <= 1) are statements since issue 19; a comparison inside an expression is not
        "nested comparison": "exp(v1 < 1) == 1",
        "not-equal chain": "v1 == v2 != 1",
        "identity comparison": "v1 is 1",
        "boolean op": "v1 == 1 and v2 == 1",
        "conditional": "(1 if v1 else 2) == 1",
        "subscript on symbol": "v1[0] == 1",
        "softmax index 0": "softmax(v1, v2)[0] == 1",
        "nul byte": "v1\x00 == 1",
        "non-ascii": "v\u0661 == 1",
        "empty": "   ",
        "definition outside repl": "g := v1",
        "division by zero": "1/0 == 1",
        "diff order": "diff(L1, v1, 9) == 0",
        "diff by definition": "diff(L1, p_r1) == 0",
    }


CORPUS = corpus("SENTINEL")


@pytest.fixture
def no_eval(monkeypatch):
    """Fail if any user text reaches eval/exec/sympify/parse_expr."""
    seen = []
    real_eval, real_exec, real_sympify = builtins.eval, builtins.exec, sympy.sympify

    def guard(real, name):
        def wrapped(obj, *a, **k):
            if isinstance(obj, str):
                seen.append((name, obj[:80]))
            return real(obj, *a, **k)
        return wrapped

    monkeypatch.setattr(builtins, "eval", guard(real_eval, "eval"))
    monkeypatch.setattr(builtins, "exec", guard(real_exec, "exec"))
    monkeypatch.setattr(sympy, "sympify", guard(real_sympify, "sympify"))
    import sympy.parsing.sympy_parser as sp_parser
    monkeypatch.setattr(sp_parser, "parse_expr", lambda *a, **k: seen.append(("parse_expr", a)) or None)
    return seen


@pytest.fixture(scope="module")
def warm():
    """Load the context and the checker's lazy imports once, so timings measure the check, not the import, and the
    spy sees only what the hostile line does (the first check warms sympy's simplify, whose first call imports
    ``sympy.physics.units``, which parses its own unit names with ``parse_expr``: library text, not the user's)."""
    Session(N3)
    import sympy.physics.units  # noqa: F401  (what the first simplify imports, in this process)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_hostile_input_exit_2_one_line_fast(name, tmp_path, capsys, no_eval, warm):
    sentinel = tmp_path / "pwned"
    text = corpus(str(sentinel))[name]
    with cpu_time() as t:
        code = cli.main(["--context", N3, text])
    err = capsys.readouterr().err.strip()
    assert code == 2, (name, err)
    assert len(err.splitlines()) == 1 and err.startswith("theoryverify.check: error:"), err
    assert "Traceback" not in err
    assert t.seconds < 0.3, (name, t.seconds)  # CPU seconds (load-proof), ≤ 0.04 measured
    assert not sentinel.exists()
    assert not [s for s in no_eval if "pwned" in str(s) or "SENTINEL" in str(s)]
    assert not [s for s in no_eval if s[0] in ("sympify", "parse_expr")], no_eval


def test_hostile_input_through_the_api(warm):
    for name, text in CORPUS.items():
        v = check(text, context=N3)
        assert v.exit_code == 2 and v.status.value == "error", name
        assert "\n" not in v.line()


def test_hostile_definitions_and_lines_in_the_repl(warm):
    s = Session(N3)
    for line in ("g := __import__('os')", "g := 9**9**9**9", "v1 := 1", "g := " + "(" * 300,
                 ":__class__", "L1.__class__", "x := 'a'"):
        with cpu_time() as t:
            out, _ = s.line(line) if not line.startswith(":") else (_cmd(s, line), None)
        assert out.startswith("error:") and "\n" not in out, (line, out)
        assert t.seconds < 0.1, (line, t.seconds)  # CPU seconds (load-proof), ≤ 0.01 measured


def _cmd(s, line):
    from theoryverify.check.repl import handle
    return handle(s, line)


@pytest.mark.parametrize("text,limit", [  # the child's CPU seconds (load-proof), interpreter start included
    ("__import__('os').system('true') == 0", 0.5), ("9**9**9**9 == 1", 0.5),  # ~0.07 measured (0.15 loaded)
    ("(" * 100 + "1" + ")" * 100 + " == 1", 0.5), ("x." + "y" * 50 + " == 1", 0.5),
    # an unknown name needs the context (SymPy import + the paper's model): start-up dominates (0.8-1.4 measured)
    ("nosuch == 1", 4.0)])
def test_hostile_input_cli_subprocess(text, limit):
    """A fresh process: syntax-level rejections happen before SymPy is even imported."""
    with cpu_time() as t:
        proc = subprocess.run([sys.executable, "-m", "theoryverify.check", "--context", N3, text],
                              capture_output=True, text=True, timeout=60)  # a hang guard only
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert t.seconds < limit, t.seconds


def test_megabyte_on_stdin_is_one_error_line():
    text = "v1 + " * 250000 + "1 == 1\nl_a1 == l_a2\n"
    proc = subprocess.run([sys.executable, "-m", "theoryverify.check", "--context", N3], input=text,
                          capture_output=True, text=True, timeout=120)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 2
    assert lines[0].startswith("error: input too long") and lines[1].startswith("proved")


def test_caps_are_sane():
    assert MAX_CHARS <= 10_000 and MAX_DEPTH <= 100


def test_runaway_symbolic_work_is_cut_by_the_hard_limit(warm):
    # a legal but expensive statement: the hard limit answers inconclusive (or a verdict) in time
    s = Session(N3, timeout=1.0)
    start = time.perf_counter()
    with cpu_time() as t:
        v = s.check("diff(L1, theta1, 4) + theta1 == diff(L1, theta1, 4) + theta1 + v1*0 + (theta2 - theta2)")
    assert time.perf_counter() - start < 1.0 * 20 + 3  # a CPU-time budget (wall backstop: 20 budgets), load-proof
    assert t.seconds < 1.0 * 2, t.seconds  # the budget's CPU seconds (the forked check's, reaped) and little more
    assert v.status.value in ("proved", "holds", "inconclusive")


def test_uninterruptible_work_is_killed_by_the_hard_limit():
    """A huge integer power runs in C (no signal can interrupt it); the forked check is killed."""
    from theoryverify.check.isolate import HardTimeout, can_fork, run_limited
    if not can_fork():
        pytest.skip("needs os.fork")
    start = time.perf_counter()
    with cpu_time() as t, pytest.raises(HardTimeout):
        run_limited(lambda: pow(3, 10**9) > 0, 0.5)
    assert time.perf_counter() - start < 0.5 * 20 + 1  # CPU budget, with the wall-clock backstop at 20 budgets
    assert t.seconds < 0.5 * 2, t.seconds  # the killed child's CPU seconds (reaped) and the parent's polling


def test_the_hard_limit_counts_cpu_time_not_the_wall_clock():
    """A check gets the same budget on a loaded machine: time the child spends waiting (here asleep, as a starved
    child would) does not count, so its verdict cannot depend on what else the machine runs."""
    from theoryverify.check.isolate import _cpu_seconds, can_fork, run_limited
    if not can_fork() or _cpu_seconds(os.getpid()) is None:
        pytest.skip("needs os.fork and /proc")
    assert run_limited(lambda: time.sleep(1.0) or "done", 0.5) == "done"
