"""Container soundness: identity and agreement checks compare scalars, SymPy matrices, sequences and
mappings element by element, shapes first — a planted error in any entry, or a shape mismatch, is refuted;
anything else is a clear error.  Each test fails without the element-wise comparison (the old
``check_identity`` said "holds" for Matrix([[N]]) vs Matrix([[N + 1]]))."""
import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import strategies as st

from theoryverify.checks import check_agreement, check_identity, check_inequality
from theoryverify.domains import Domain, Interval
from theoryverify.verdicts import Status

N, x = sp.symbols("N x", real=True)
DOM = Domain([Interval(N, 1, 5), Interval(x, -2, 2)])


def test_matrix_identity_with_a_planted_coefficient_is_refuted():
    v = check_identity(sp.Matrix([[N]]), sp.Matrix([[N + 1]]), DOM, 1)
    assert v.status is Status.REFUTED
    assert v.counterexample["entry"] == "[0, 0]" and v.counterexample["lhs"] != v.counterexample["rhs"]


def test_true_matrix_identity_is_proved_entry_by_entry():
    a = sp.Matrix([[N, x], [x**2, 1]])
    v = check_identity(a * sp.eye(2), sp.Matrix([[N, x], [x * x, 1]]), DOM, 1)
    assert v.status is Status.PROVED and "4 entries" in v.evidence


def test_a_wrong_entry_deep_inside_a_matrix_is_found():
    good = sp.Matrix(3, 3, lambda i, j: (i + 1) * N + j * x)
    bad = good.copy()
    bad[2, 1] = bad[2, 1] + x**3 / 100  # a planted index-(2, 1) error, no symbolic help
    v = check_identity(good, bad, DOM, 2, try_symbolic=False)
    assert v.status is Status.REFUTED and v.counterexample["entry"] == "[2, 1]"


@pytest.mark.parametrize("lhs,rhs", [
    (sp.Matrix([[N, 0]]), sp.Matrix([[N], [0]])),   # transposed shape
    (sp.Matrix([[N]]), N),                           # a 1x1 matrix is not a scalar
    ([N, x], [N, x, 0]),                             # lengths differ
    ([[N, x]], [N, x]),                              # nesting differs
])
def test_shape_mismatch_is_refuted_with_both_shapes(lhs, rhs):
    v = check_identity(lhs, rhs, DOM, 3)
    assert v.status is Status.REFUTED and v.method == "shape comparison"
    assert {"lhs_shape", "rhs_shape"} <= set(v.counterexample) or "shapes" in v.counterexample


def test_mappings_compare_keys_then_values():
    assert check_identity({"a": N, "b": x}, {"b": x, "a": N}, DOM, 4).status is Status.PROVED
    keys = check_identity({"a": N}, {"a": N, "b": 1}, DOM, 4)
    assert keys.status is Status.REFUTED and keys.counterexample["rhs_keys"] == ["a", "b"]
    value = check_identity({"a": N, "b": [x, 2 * x]}, {"a": N, "b": [x, 3 * x]}, DOM, 4)
    assert value.status is Status.REFUTED and value.counterexample["entry"] == "[b][1]"


@pytest.mark.parametrize("bad", ["N + 1", object(), True, None])
def test_anything_else_is_a_clear_error(bad):
    with pytest.raises(TypeError, match="cannot compare"):
        check_identity(bad, N, DOM, 0)


def test_agreement_refutes_shape_mismatch_and_planted_entry():
    strat = st.floats(0, 1)
    shape = check_agreement(lambda a: np.zeros(3), lambda a: np.zeros((3, 1)), strat, 1)
    assert shape.status is Status.REFUTED and shape.counterexample["derived_shape"] == [3]
    assert shape.counterexample["autograd_shape"] == [3, 1]
    entry = check_agreement(lambda a: {"g": [a, 2 * a]}, lambda a: {"g": [a, 2 * a + 1e-6]}, strat, 1)
    assert entry.status is Status.REFUTED
    ok = check_agreement(lambda a: torch.tensor([a, a * a], dtype=torch.float64),
                         lambda a: np.array([a, a * a]), strat, 1)
    assert ok.status is Status.HOLDS
    keys = check_agreement(lambda a: {"g": a}, lambda a: {"h": a}, strat, 1)
    assert keys.status is Status.REFUTED


def test_agreement_refuses_text():
    with pytest.raises(TypeError):
        check_agreement(lambda a: "1.0", lambda a: "1.0", st.floats(0, 1), 1)


def test_inequality_refuses_matrices():
    with pytest.raises(TypeError, match="scalars"):
        check_inequality(sp.Matrix([[N]]), "<=", sp.Matrix([[N + 1]]), DOM, 0)
