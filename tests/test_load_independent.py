"""Budgets that decide what a report prints count CPU time, not the wall clock: on a loaded machine (the wall clock
runs ahead of this process's work) the step shrinker and the engine's identity check give what they give idle.
Planted: the wall clock jumps an hour at every reading; the old wall-clock budgets stopped at once."""
from __future__ import annotations

import itertools
import time
from fractions import Fraction

import sympy as sp

from theoryverify.check.shrink import shrink
from theoryverify.domains import Domain, Interval


def _loaded(monkeypatch):
    hours = itertools.count()
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real() + 3600.0 * next(hours))


def test_the_step_shrinker_shrinks_as_far_on_a_loaded_machine(monkeypatch):
    x = sp.Symbol("x")
    d = Domain([Interval(x, 0, 10)])
    start = {x: sp.Rational(Fraction(63410682753376587, 11529215046068469))}  # x ≈ 5.5: x**2 <= 4 fails
    idle = shrink(x**2, "<=", sp.Integer(4), d, start, seconds=5.0)
    _loaded(monkeypatch)
    loaded = shrink(x**2, "<=", sp.Integer(4), d, start, seconds=5.0)
    assert idle is not None and loaded == idle and sp.Rational(idle[x]).q < 100


def test_the_identity_check_proves_on_a_loaded_machine(monkeypatch):
    import theoryverify as tv

    a, b = sp.symbols("a b", positive=True)
    d = Domain([Interval(a, 1, 2), Interval(b, 1, 2)])
    lhs, rhs = sp.Matrix([(a + b) ** 2, sp.sin(a) ** 2 + sp.cos(a) ** 2]), sp.Matrix([a**2 + 2 * a * b + b**2, 1])
    _loaded(monkeypatch)
    assert tv.check_identity(lhs, rhs, d, seed=0).status.value == "proved"


def test_the_tests_cpu_clock_counts_reaped_children_and_not_waiting():
    """tests/cputime.py, which the tests' speed limits use: time spent waiting (asleep here, as a process starved by
    a loaded machine waits) is not counted, and a child's work is, once it has been waited for."""
    import subprocess
    import sys

    from cputime import cpu_time

    with cpu_time() as t:
        time.sleep(0.3)
    assert t.seconds < 0.1, t.seconds
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
    with cpu_time() as t:
        subprocess.run([sys.executable, "-S", "-c", busy], check=True)
    assert t.seconds >= 0.25, t.seconds
