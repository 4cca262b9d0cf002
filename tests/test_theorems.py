"""``pytest -m theorems``: one test item per registered claim, named by its claim id.

Claims tagged ``slow`` (full sweeps) or ``gpu`` carry those markers *instead of* ``theorems``:
``pytest -m theorems`` runs the fast checks (CI), ``pytest -m slow`` the full sweeps.

An unexpected verdict fails with the counterexample printed.  A paper claim recorded as an
erratum is asserted *refuted*: the test fails if the erratum stops reproducing.
"""
import os

import pytest

from theoryverify import registry, render
from theoryverify.claims import RunContext
from theoryverify.seeds import DEFAULT_SEED


def _param(claim):
    marks = [getattr(pytest.mark, tag) for tag in sorted(claim.tags)] or [pytest.mark.theorems]
    return pytest.param(claim, id=claim.id, marks=marks)


@pytest.mark.parametrize("claim", [_param(c) for c in registry.claims()])
def test_claim(claim):
    ctx = RunContext(seed=int(os.environ.get("THEORYVERIFY_SEED", DEFAULT_SEED)),
                     profile="full" if claim.tags else "quick", device="cpu")
    result = claim.run(ctx)
    if result.unavailable:
        pytest.skip(f"not checkable here: {result.unavailable}")
    assert result.as_expected, render.failure(result)
