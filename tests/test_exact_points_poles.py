"""A rational point where one argument of Max/Min is undefined (log at 0 gives zoo, which Max cannot compare)
is outside the expression's natural domain and skipped — before, SymPy's ValueError ended the whole check as
"the tool failed" (referee 30's reproducer 04 through helper s47-readb: max(log(1+E), −log(1−E)) = −log(1−Ẽ))."""
from __future__ import annotations

import sympy as sp

from theoryverify.check.session import Session
from theoryverify.numeric import exact_value

x = sp.Symbol("x")


def test_a_max_with_an_undefined_argument_is_nan_at_that_point():
    assert exact_value(sp.Max(sp.log(1 + x), -sp.log(1 - x)), {x: sp.Integer(1)}) is sp.nan
    assert exact_value(sp.Max(sp.log(1 + x), -sp.log(1 - x)), {x: sp.Integer(0)}) == 0


def test_the_true_max_of_logs_step_is_proved_and_a_false_one_refuted():
    s = Session()
    assert s.check("Max(log(1+x), -log(1-x)) == -log(1-x)").status.value == "proved"
    bad = s.check("Max(log(1+x), -log(1-x)) == log(1+x)")  # false on (0, 1)
    assert bad.status.value == "refuted", bad
