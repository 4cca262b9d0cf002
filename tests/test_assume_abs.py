"""|·| in an assumption (author 11's D1): the paper's hypothesis 0 < η|r|x ≤ 1 could not be written — ``--assume
"eta*Abs(r)*x <= 1"`` said "must be solvable … linearly", ``Domain.assuming([...], ["eta <= 1/(Abs(r)*x)"])`` said
"the assumptions name Abs, which is not among the symbols".  An upper bound on one |u| is now the two linear bounds
u ≤ B and −u ≤ B (every drawn point satisfies both); a lower bound on |u| (two disjoint ranges) and two |·| in one
relation are one-line refusals saying what to write."""
import re
import subprocess
import sys

import pytest
import sympy as sp

import theoryverify as tv


def _check(*args):
    return subprocess.run([sys.executable, "-m", "theoryverify.check", *args], capture_output=True, text=True)


def test_an_abs_bound_is_read_and_a_false_step_under_it_is_refuted():
    hyp = ["--assume", "eta > 0", "--assume", "x > 0", "--assume", "eta*Abs(r)*x <= 1"]
    right = _check(*hyp, "eta**2*r**2*x**2 <= 1")
    assert right.returncode == 0 and right.stdout.startswith(("holds", "proved")), right.stdout + right.stderr
    wrong = _check(*hyp, "eta**2*r**2*x**2 <= 1/2")  # the guard: a false step under the same hypothesis
    assert wrong.returncode == 1 and wrong.stdout.startswith("refuted"), wrong.stdout + wrong.stderr


def test_a_constant_bound_on_abs_bounds_both_sides():
    out = _check("--assume", "Abs(r) <= 1", "r**2 <= 1")
    assert out.returncode == 0, out.stdout + out.stderr
    assert _check("--assume", "Abs(r) <= 1", "r <= 1/2").returncode == 1


def test_domain_assuming_takes_abs_and_draws_inside_it():
    r, x, eta = sp.symbols("r x eta")
    d = tv.Domain.assuming([r, x, eta], ["-3 <= r <= 3", "0.1 <= x <= 3", "eta > 0", "eta <= 1/(Abs(r)*x)"])
    assert tv.check_inequality(eta * sp.Abs(r) * x, "<=", 1, d, seed=0).status in (tv.Status.HOLDS, tv.Status.PROVED)
    assert tv.check_inequality(eta * sp.Abs(r) * x, "<=", sp.Rational(1, 2), d, seed=0).status is tv.Status.REFUTED


@pytest.mark.parametrize("text, says", [("Abs(r) >= 1", "two disjoint ranges"),
                                        ("Abs(r) + Abs(s) <= 1", "more than one |·|")])
def test_what_the_engine_cannot_draw_is_one_line_saying_what_to_write(text, says):
    out = _check("--assume", text, "r**2 >= 0")
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr, out.stderr
    from theoryverify.domains import DomainError
    with pytest.raises(DomainError, match=re.escape(says)):
        tv.Domain.assuming(sp.symbols("r s"), [text])


def test_a_fixed_value_outside_the_declared_bounds_leaves_no_values():
    # old: 'b < 1' and 'b == 5' gave b = 5 (the value won silently; a refutation at b = 5 lay outside b < 1)
    from theoryverify.check.assume import free_with_assumptions
    from theoryverify.check.parser import BadInput
    with pytest.raises(BadInput, match="leave no values for b"):
        free_with_assumptions(["b < 1", "b == 5"])
    assert free_with_assumptions(["b > 0", "b == 1/3"]).variables[0].value == sp.Rational(1, 3)
