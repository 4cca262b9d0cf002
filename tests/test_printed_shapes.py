"""Issue 29, session 45 (author 7's remaining machinery): a printed display's matrix/vector shapes declared once and
instantiated per setting by the engine (``tv.printed(display, shapes=...)``), a count checked against its printed
formula in one call (``tv.check_count_over``), a corollary checked by its theorem's check declared by a second
registration (``inputs=``), and the names an author needs all reachable from ``import theoryverify as tv`` with the
results-store closure following them.  Each test fails on the code before (no ``tv.printed``, no
``tv.check_count_over``, no ``inputs=``)."""
from __future__ import annotations

import sys

import numpy as np
import pytest
import sympy as sp

import theoryverify as tv
from theoryverify.closure import module_closure

OVER = (tv.Over("n", 1, 4, integer=True), tv.Over("d", 1, 3, integer=True))
SHAPES = {"X": ("n", "d"), "y": ("n",), "w": ("d",)}
LAM = sp.Symbol("lam", nonnegative=True)


def grad(X, y, w, n):  # ∇ (‖Xw − y‖²/(2n) + λ‖w‖²/2), as printed
    return X.T * (X * w - y) / n + LAM * w


def loss(X, y, w, n):
    return ((X * w - y).T * (X * w - y))[0] / (2 * n) + LAM / 2 * (w.T * w)[0]


def descent(X, y, w, n, eta):  # f(w − η∇f) ≤ f(w) − (η/2)‖∇f‖²
    g = grad(X, y, w, n)
    return loss(X, y, w - eta * g, n), loss(X, y, w, n) - eta / 2 * (g.T * g)[0]


def lipschitz(X, n):  # L = λ_max(XᵀX/n) + λ: takes only some of the paper's shapes
    return tv.lambda_max(X.T * X / n) + LAM


def numpy_grad(v):
    return v["X"].T @ (v["X"] @ v["w"] - v["y"]) / v["n"] + v["lam"] * v["w"]


def test_printed_shapes_are_instantiated_per_setting_and_drawn():
    """No per-shape wrapper: the engine builds X (n × d), y, w at each setting and adds them to the domain."""
    P = tv.printed(grad, shapes=SHAPES)
    assert P({"n": 3, "d": 2}).shape == (2, 1)
    assert [v.shape for v in P.variables({"n": 3, "d": 2})] == [(3, 2), (3, 1), (2, 1)]
    v = tv.check_agreement_over(OVER, P, numpy_grad, [tv.Interval(LAM, 0, 2)], seed=0, n=6)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert {(c["n"], c["d"]) for c in v.details["configurations"]} >= {(1, 1), (1, 3), (4, 1), (4, 3)}
    no_n = tv.printed(lambda X, y, w, n: X.T * (X * w - y) + LAM * w, SHAPES)  # planted: the 1/n dropped
    v = tv.check_agreement_over(OVER, no_n, numpy_grad, [tv.Interval(LAM, 0, 2)], seed=0, n=6)
    assert v.status is tv.Status.REFUTED and v.counterexample["part"].startswith("n=4")
    row = tv.printed(lambda X, y, w, n: grad(X, y, w, n).T, SHAPES)  # planted: a row, not a column
    v = tv.check_agreement_over(OVER, row, numpy_grad, [tv.Interval(LAM, 0, 2)], seed=0, n=6)
    assert v.status is tv.Status.REFUTED


def test_printed_sides_of_an_inequality_take_their_scalars_from_the_domain_by_name():
    """η of the display is the domain's ``tv.Within("eta", …)`` (a real symbol there, a plain parameter name in the
    display); L takes X only of the declared shapes; the η range doubled is refuted."""
    D, L = tv.printed(descent, SHAPES), tv.printed(lipschitz, SHAPES)

    def check(ceiling):
        return tv.check_inequality_over(OVER, D.lhs, "<=", D.rhs, lambda c: [
            tv.Interval(LAM, 0, 2), tv.Within("eta", 0, ceiling / L(c))], seed=0, draws=0, settings_n=2)
    assert check(1).status is tv.Status.HOLDS
    assert check(2).status is tv.Status.REFUTED


def test_a_display_argument_that_is_nothing_declared_is_an_error_not_a_guessed_scalar():
    """A misspelt shape (``W`` for ``w``) would make w a scalar and the comparison a false refutation: an error."""
    P = tv.printed(grad, shapes={"X": ("n", "d"), "y": ("n",), "W": ("d",)})
    v = tv.check_agreement_over(OVER, P, numpy_grad, [tv.Interval(LAM, 0, 2)], seed=0, n=3)
    assert v.status is tv.Status.ERROR and "argument w" in v.evidence
    with pytest.raises(ValueError, match="none of the shapes"):
        tv.printed(grad, shapes={"Z": ("n",)})
    with pytest.raises(ValueError, match="not a parameter of the setting"):
        tv.printed(grad, shapes={"X": ("m", "d"), "y": ("n",), "w": ("d",)})({"n": 2, "d": 2})


def test_rate_over_takes_a_printed_side():
    kappa, epsilon, k = sp.symbols("kappa epsilon k", positive=True)
    K = tv.Over("kappa", 10, 1000, scale="log")
    steps = lambda c: 0.5 * c["kappa"] * np.log(1 / c["epsilon"])
    good = tv.printed(lambda: sp.Eq(k, kappa / 2 * sp.log(1 / epsilon))).rhs
    bad = tv.printed(lambda: sp.Eq(k, sp.sqrt(kappa) * sp.log(1 / epsilon))).rhs
    assert tv.check_rate_over(K, steps, "printed", 0.1, 0, good, fixed={"epsilon": 1e-6}, held=["epsilon"],
                              constant="printed").status is tv.Status.HOLDS
    assert tv.check_rate_over(K, steps, "printed", 0.1, 0, bad, fixed={"epsilon": 1e-6},
                              constant="printed").status is tv.Status.REFUTED


def gd_steps(c):  # GD on the 1-d quadratic (1/2)x², step 1 − 1/κ contraction: steps until |x| ≤ ε
    x, k = 1.0, 0
    while x > c["epsilon"]:
        x, k = x * (1 - 1 / c["kappa"]), k + 1
    return k


def test_count_over_compares_a_simulated_count_with_the_rounded_formula():
    kappa, epsilon = sp.symbols("kappa epsilon", positive=True)
    over = (tv.Over("kappa", 2, 50, scale="log"), tv.Over("epsilon", 1e-6, 1e-1, scale="log"))
    exact = sp.log(epsilon) / sp.log(1 - 1 / kappa)
    v = tv.check_count_over(over, exact, gd_steps, 0)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert len(v.details["configurations"]) > 10
    v = tv.check_count_over(over, exact, gd_steps, 0, rounding="floor")  # the off-by-one: floor for ceil
    assert v.status is tv.Status.REFUTED
    assert v.counterexample["simulated"] == v.counterexample["rounded"] + 1
    v = tv.check_count_over(over, 2 * exact, gd_steps, 0)  # a factor 2 in the formula
    assert v.status is tv.Status.REFUTED
    assert tv.check_count_over(over, exact, lambda c: 2.5, 0).status is tv.Status.ERROR  # not a count


def test_count_over_accepts_both_counts_only_within_round_off_of_a_jump():
    """log2 8 evaluates to 3 ± round-off: ⌈·⌉ is 3 or 4 depending on the last bit, so both are accepted — and said."""
    N = tv.Over("N", 8, 16, integer=True)  # both ends are powers of 2, where ⌈log2 N⌉ jumps
    log2, bits = sp.log(sp.Symbol("N"), 2), lambda c: (c["N"] - 1).bit_length()  # ⌈log2 N⌉ in integers
    v = tv.check_count_over(N, log2, bits, 0)
    assert v.status is tv.Status.HOLDS and "within round-off" in v.evidence
    assert tv.check_count_over(N, log2, lambda c: bits(c) + 2, 0).status is tv.Status.REFUTED
    v = tv.check_count_over(N, log2 + sp.Rational(1, 3), bits, 0)  # no jump at 8: 3.33 rounds up to 4 only
    assert v.status is tv.Status.REFUTED and v.counterexample["part"] == "N=8"


def test_a_corollary_declares_the_theorem_s_check_with_its_own_inputs():
    """Two registrations of one check (no wrapper function); a bad input name is a one-line registration error."""
    claims = tv.ClaimSet("s45demo")

    @claims.add("cor", location="Corollary 1", statement="1/N ≤ 1/3 for N ≥ 2", kind=tv.Kind.INEQUALITY,
                inputs={"bound": 1 / 3}, expect=tv.Status.REFUTED, finding="erratum", reason="1/2 > 1/3")
    @claims.add("thm", location="Theorem 1", statement="1/N ≤ 1 for N ≥ 2", kind=tv.Kind.INEQUALITY)
    def thm(ctx, bound=1.0):
        return tv.holds("exact", "1/2 ≤ bound") if 0.5 <= bound else tv.refuted("exact", "1/2 > bound", {"N": 2})

    assert [c.id for c in claims] == ["s45demo.thm", "s45demo.cor"]
    assert [c.check(tv.RunContext()).status for c in claims] == [tv.Status.HOLDS, tv.Status.REFUTED]
    assert thm(tv.RunContext()).status is tv.Status.HOLDS  # the decorator returns the check unchanged
    with pytest.raises(tv.TheoryverifyError, match="takes no keyword argument display"):
        claims.add("bad", location="Corollary 2", statement="s", kind=tv.Kind.INEQUALITY,
                   inputs={"display": None})(thm)


def test_one_import_gives_an_author_the_new_names_and_the_store_key_follows_them(tmp_path, monkeypatch):
    """``tv.printed``, ``tv.Printed`` and ``tv.check_count_over`` come from ``import theoryverify as tv``; a claims
    module that uses them has the engine files they run in its results-store closure (the lazy table is read), and
    a module that uses neither does not have ``displays.py``."""
    assert {"printed", "Printed", "check_count_over"} <= set(tv.__all__)
    assert tv.printed(grad, SHAPES) and isinstance(tv.printed(grad, SHAPES), tv.Printed)
    pkg = tmp_path / "s45paper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "uses.py").write_text("import theoryverify as tv\n\nP = tv.printed\nC = tv.check_count_over\n")
    (pkg / "plain.py").write_text("import theoryverify as tv\n\nR = tv.rng\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("s45paper")]:
        del sys.modules[name]
    module_closure.cache_clear()
    uses = {f.replace("\\", "/") for f in module_closure("s45paper.uses")}
    assert any(f.endswith("theoryverify/displays.py") for f in uses)
    assert any(f.endswith("theoryverify/checks/agreement.py") for f in uses)
    plain = {f.replace("\\", "/") for f in module_closure("s45paper.plain")}
    assert not any(f.endswith("theoryverify/displays.py") for f in plain)
    module_closure.cache_clear()


def test_count_over_holds_the_fixed_values_at_every_setting():
    e0 = sp.Symbol("e_0", positive=True)
    kappa, epsilon = sp.symbols("kappa epsilon", positive=True)
    over = (tv.Over("kappa", 2, 50, scale="log"), tv.Over("epsilon", 1e-6, 1e-1, scale="log"))
    from_e0 = lambda c: gd_steps({**c, "epsilon": c["epsilon"] / c["e_0"]})  # from error e0 instead of 1
    formula = sp.log(epsilon / e0) / sp.log(1 - 1 / kappa)
    assert tv.check_count_over(over, formula, from_e0, 0, fixed={"e_0": 4.0}).status is tv.Status.HOLDS
    assert tv.check_count_over(over, formula, gd_steps, 0, fixed={"e_0": 4.0}).status is tv.Status.REFUTED
    with pytest.raises(ValueError, match="both declared and fixed"):
        tv.check_count_over(over, formula, gd_steps, 0, fixed={"kappa": 3})


def test_a_within_bound_may_name_a_declared_parameter():
    """Held-out author 8, defect 2: a step size range η ∈ (0, 2/L] with L itself a declared parameter of the claim
    (``over=``) was an error at every setting ("eta's range names L, which is not among the domain's variables").
    The bound is now the interval at each setting's L: the true statement holds, a planted 3/L is refuted with L
    and η in the counterexample, and a Domain built by hand says in one line what to write."""
    L = sp.Symbol("L", positive=True)
    over = [tv.Over("L", 0.5, 8.0, scale="log"), tv.Over("d", 1, 3, integer=True)]

    def eq_step(w, eta, L):  # f(w − η∇f(w)) ≤ f(w) for f = L‖w‖²/2, as printed
        after = w - eta * L * w
        return L / 2 * (after.T * after)[0], L / 2 * (w.T * w)[0]

    P = tv.printed(eq_step, shapes={"w": ("d",)})
    v = tv.check_inequality_over(over, P.lhs, "<=", P.rhs, [tv.Within("eta", 0, 2 / L)], 0)
    assert v.status in (tv.Status.HOLDS, tv.Status.PROVED), v.evidence
    assert "eta ∈ (0, 2/L] with L = 0.5 (the setting)" in v.evidence
    s = tv.check_inequality_over(over, P.lhs, "<=", P.rhs, lambda c: [tv.Within("eta", 0, "2/L")], 0)  # a text end
    assert s.status is v.status, s.evidence
    planted = tv.check_inequality_over(over, P.lhs, "<=", P.rhs, [tv.Within("eta", 0, 3 / L)], 0)
    assert planted.status is tv.Status.REFUTED, planted.evidence
    ce = planted.counterexample
    assert "L=" in ce["part"] and ce["eta"] * float(ce["part"].split("L=")[1].split(",")[0]) > 2, ce
    with pytest.raises(ValueError, match=r"domain=\[\.\.\., tv\.Within"):
        tv.Domain([tv.VectorVar("w", 2), tv.Within("eta", 0, 2 / L)])
