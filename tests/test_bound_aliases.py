"""``check_rate(bound=...)`` accepts the bound as the statement prints it — "O", "Omega", "Theta", "Ω", "Θ" — as
well as "big_o", "omega", "theta" (issue 29, second trial): the verdict is the same and records the canonical name;
an unknown name is a one-line ValueError listing both spellings.  Both sides stay refutable under an alias."""
from __future__ import annotations

import numpy as np
import pytest

import theoryverify as tv
from theoryverify.scaling import BOUND_ALIASES, bound_name

X = np.geomspace(0.01, 1.0, 8)


@pytest.mark.parametrize("alias", sorted(BOUND_ALIASES))
def test_an_alias_gives_the_canonical_bounds_verdict(alias):
    canonical = BOUND_ALIASES[alias]
    for y in (X ** 1.3, X ** 0.7, X ** 0.88):
        a = tv.check_rate(X, y, 1.0, 0.1, seed=14, bound=alias)
        b = tv.check_rate(X, y, 1.0, 0.1, seed=14, bound=canonical)
        assert a.status is b.status and a.details["fit"]["bound"] == canonical
    assert tv.check_rate(X, X ** (0.7 if canonical == "big_o" else 1.3), 1.0, 0.1, seed=14,
                         bound=alias).status is tv.Status.REFUTED  # the wrong side refutes under the alias


def test_an_unknown_bound_is_one_line():
    with pytest.raises(ValueError) as info:
        bound_name("o")  # little o is not big O
    assert "\n" not in str(info.value) and "'O'" in str(info.value) and "big_o" in str(info.value)
