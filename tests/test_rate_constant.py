"""check_rate tests a printed constant (issue 27, item 2): with ``constant="printed"`` the fitted coefficient
(measured/predicted) is tested with its CI against the printed constant — a 2×-off constant is refuted although
the exponent agrees; a constant hidden in Θ/O (or not declared) is not tested and the verdict says so."""
import numpy as np
import pytest

from theoryverify.scaling import check_rate
from theoryverify.verdicts import Status

T = np.geomspace(1e-3, 1e-1, 8)


def measured(c, noise=0.02, seed=0):
    rng = np.random.default_rng(seed)
    return c * T ** -2.0 * np.exp(noise * rng.standard_normal(T.size))


def test_right_printed_constant_holds():
    v = check_rate(T, measured(3.0), -2.0, 0.1, seed=1, predicted=3.0 * T ** -2.0, param="T", constant="printed")
    assert v.status is Status.HOLDS, v.evidence
    rec = v.details["fit"]["constant"]
    assert rec["tested"] and rec["ci"][0] <= 3.0 / 3.0 <= rec["ci"][1] and "printed constant" in v.evidence


@pytest.mark.parametrize("off", [2.0, 0.5])
def test_planted_two_times_off_constant_is_refuted(off):
    # the statement prints 3·T^-2 but the quantity is 3·off·T^-2: the exponent agrees, the constant does not
    v = check_rate(T, measured(3.0 * off), -2.0, 0.1, seed=2, predicted=3.0 * T ** -2.0, param="T",
                   constant="printed")
    assert v.status is Status.REFUTED, v.evidence
    ce = v.counterexample
    assert ce["fitted_coefficient"] == pytest.approx(off, rel=0.05) and not ce["ci"][0] <= 1.0 <= ce["ci"][1]
    assert "printed constant does not" in v.evidence


def test_default_and_hidden_constants_are_not_tested_and_say_so():
    y, pred = measured(6.0), 3.0 * T ** -2.0
    plain = check_rate(T, y, -2.0, 0.1, seed=3, predicted=pred, param="T")  # default: the behaviour before
    assert plain.status is Status.HOLDS and "constant not tested" in plain.evidence
    assert plain.details["fit"]["constant"] == {"tested": False, "declared": None,
                                                "why": "not declared printed (check_rate(..., constant='printed') "
                                                       "tests it)"}
    hidden = check_rate(T, y, -2.0, 0.1, seed=3, param="T", constant="hidden")
    assert hidden.status is Status.HOLDS and "constant hidden by Θ/O: only the exponent is tested" in hidden.evidence
    assert hidden.details["fit"]["constant"]["declared"] == "hidden" and not hidden.details["fit"]["constant"]["tested"]
    # the same 2×-off data: hidden does not test it (holds), printed does (refuted) — the declaration decides
    printed = check_rate(T, y, -2.0, 0.1, seed=3, predicted=pred, param="T", constant="printed")
    assert printed.status is Status.REFUTED, printed.evidence
    elsewhere = check_rate(T, y, -2.0, 0.1, seed=3, predicted=pred, param="T", constant="elsewhere")
    assert elsewhere.status is Status.HOLDS and "constant tested by another part of this claim" in elsewhere.evidence


RATE_CALLS = {"check_rate", "verdict_from_fit"}


def _undeclared_rate_calls():
    """(file:line) of every check_rate / verdict_from_fit call in derivations/ without a ``constant=`` keyword
    (or a ``**`` expansion that may carry it)."""
    import ast
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "derivations"
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name in RATE_CALLS and not any(k.arg in ("constant", None) for k in node.keywords):
                out.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return out


def test_every_papers_rate_check_declares_its_constant():
    """Issue 27, item 2: every rate/duration check of the shipped papers says whether its statement prints the
    constant (tested), hides it in Θ/O/Ω (only the exponent is tested, and the verdict says so) or tests it in
    another part of the claim — none is left to the silent default."""
    assert _undeclared_rate_calls() == []


def test_one_sided_printed_constant():
    # "y ≤ 3·T^-2" (big_o with a printed constant): 2× above is refuted, 2× below holds
    pred = 3.0 * T ** -2.0
    over = check_rate(T, measured(6.0), -2.0, 0.1, seed=4, predicted=pred, param="T", bound="big_o",
                      constant="printed")
    under = check_rate(T, measured(1.5), -2.0, 0.1, seed=4, predicted=pred, param="T", bound="big_o",
                       constant="printed")
    assert over.status is Status.REFUTED and under.status is Status.HOLDS, (over.evidence, under.evidence)


def test_printed_without_predicted_is_an_error_not_a_traceback():
    v = check_rate(T, measured(3.0), -2.0, 0.1, seed=5, constant="printed")
    assert v.status is Status.ERROR and "predicted" in v.evidence
    with pytest.raises(ValueError):
        check_rate(T, measured(3.0), -2.0, 0.1, seed=5, constant="shown")


def test_the_exponent_can_be_read_from_the_printed_law():
    """Held-out author 6, defect 5: a planted twin that changed the printed law was tested against the exponent
    passed separately (the true law's); with ``"printed"`` the exponent is the printed values' own."""
    import numpy as np

    import theoryverify as tv
    kappa = np.geomspace(10, 1000, 6)
    steps = 0.5 * kappa  # what the model measures: O(κ)
    true = tv.check_rate(1 / kappa, steps, "printed", 0.1, 0, kappa, param="1/kappa", bound="O", constant="hidden")
    assert true.status is tv.Status.HOLDS and "printed values (slope -1" in true.details["exponent_from"], true
    wrong = tv.check_rate(1 / kappa, steps, "printed", 0.1, 0, np.sqrt(kappa), param="1/kappa", bound="O",
                          constant="hidden")  # a √κ printed law, tested as printed
    assert wrong.status is tv.Status.REFUTED, wrong
    curved = tv.check_rate(1 / kappa, steps, "printed", 0.1, 0, kappa + kappa ** 2 / 100, param="1/kappa",
                           constant="hidden")  # no single exponent on this grid
    assert curved.status is tv.Status.INCONCLUSIVE and "pass it as a number" in curved.evidence
    with pytest.raises(ValueError, match="predicted="):
        tv.check_rate(1 / kappa, steps, "printed", 0.1, 0)


def test_a_printed_constant_up_to_an_unknown_additive_constant():
    """Held-out author 8, defect 7: loss(t) = C/t + c0 where the paper prints C but not c0 could not be said —
    constant="printed" tested C·f against the whole loss (c0 included).  offset="unknown" tests the law on the
    differences of neighbouring grid points, where c0 cancels: the right C holds whatever c0, a wrong C and a
    wrong exponent are refuted."""
    import sympy as sp

    import theoryverify as tv
    T_ = tv.Over("t", 10, 1e4, scale="log")
    t = sp.Symbol("t", positive=True)
    loss = lambda c: 2.0 / c["t"] + 0.37 + 0.5 / c["t"] ** 2  # C = 2 printed; c0 = 0.37 and a lower-order term not
    right = tv.check_rate_over(T_, loss, -1.0, 0.1, 0, 2 / t, n=8, constant="printed", offset="unknown")
    assert right.status is tv.Status.HOLDS, right.evidence
    assert right.details["offset"]["offset"] == "unknown" and "additive constant" in right.method
    assert right.details["fit"]["constant"]["tested"]
    wrong_c = tv.check_rate_over(T_, loss, -1.0, 0.1, 0, 3 / t, n=8, constant="printed", offset="unknown")
    assert wrong_c.status is tv.Status.REFUTED and "printed constant does not" in wrong_c.evidence, wrong_c.evidence
    assert wrong_c.counterexample["fitted_coefficient"] == pytest.approx(2 / 3, rel=0.05)
    wrong_p = tv.check_rate_over(T_, loss, "printed", 0.1, 0, 2 / sp.sqrt(t), n=8, constant="printed",
                                 offset="unknown")
    assert wrong_p.status is tv.Status.REFUTED, wrong_p.evidence
    without = tv.check_rate_over(T_, loss, -1.0, 0.1, 0, 2 / t, n=8, constant="printed")  # c0 read as part of C/t
    assert without.status is not tv.Status.HOLDS
    with pytest.raises(ValueError, match="offset"):
        check_rate(T, measured(3.0), -2.0, 0.1, seed=5, offset="known")
    with pytest.raises(ValueError, match="power law"):
        check_rate(T, measured(3.0), -2.0, 0.1, seed=5, offset="unknown", bound="O")
    noisy = np.stack([2.0 / T + 0.37 + 1e-3 * np.random.default_rng(s).standard_normal(T.size) for s in range(3)], 1)
    assert check_rate(T, noisy, -1.0, 0.1, 0, 2.0 / T, constant="printed", offset="unknown").status \
        is Status.HOLDS  # (points, seeds): the differences keep the seeds
    drowned = 2.0 / T + 0.37 + 1000 * np.random.default_rng(0).standard_normal(T.size)
    v = check_rate(T, drowned, -1.0, 0.1, 0, 2.0 / T, constant="printed", offset="unknown")
    assert v.status is Status.INCONCLUSIVE and "other sign" in v.evidence  # noise over the differences: no verdict
