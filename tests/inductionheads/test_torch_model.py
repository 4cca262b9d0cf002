"""Tests of the six-parameter Section-5 torch model (derivations/inductionheads/model/torch_model.py)."""
from __future__ import annotations

import math

import pytest
import torch

from derivations.inductionheads.model import torch_model as M


def test_sample_shape_dtype_and_seed():
    X = M.sample(7, 11, seed=3, device="cpu")
    assert X.shape == (7, 11) and X.dtype == torch.float64
    assert torch.equal(X, M.sample(7, 11, seed=3, device="cpu"))
    assert not torch.equal(X, M.sample(7, 11, seed=4, device="cpu"))


def test_first_layer_uniform_average_at_p1_zero():
    X = M.sample(5, 9, 0, "cpu")
    Xt = M.first_layer(X, 0.0)
    assert torch.all(Xt[:, 0] == 0)  # RC-6
    for s in range(1, 9):  # 0-based s sees x_0..x_{s-1}
        assert torch.allclose(Xt[:, s], X[:, :s].mean(1), rtol=0, atol=1e-14)


def test_first_layer_weights_causal_formula():
    X = M.sample(3, 6, 1, "cpu")
    p = 0.7
    Xt = M.first_layer(X, p)
    s = 4  # 0-based; distances j = s - tau = 1..4 with weight e^{-p (j-1)}
    w = torch.tensor([math.exp(-p * (s - tau - 1)) for tau in range(s)], dtype=torch.float64)
    assert torch.allclose(Xt[:, s], X[:, :s] @ (w / w.sum()), atol=1e-14)


def test_first_layer_large_p1_equals_limit():
    X = M.sample(20, 15, 2, "cpu")
    assert torch.allclose(M.first_layer(X, 60.0), M.first_layer(X, 0.0, limit=True), atol=1e-20)
    assert torch.equal(M.first_layer(X, 0.0, limit=True)[:, 1:], X[:, :-1])


def test_inclusive_limit_selects_current_token_not_previous():
    X = M.sample(20, 15, 2, "cpu")
    inc = M.first_layer(X, 60.0, convention="inclusive")
    assert torch.allclose(inc[:, 1:], X[:, 1:], atol=1e-20)
    assert not torch.allclose(inc, M.first_layer(X, 0.0, limit=True))  # planted alternative differs


def test_init_and_params_vector_roundtrip():
    p = M.init(1e-3, device="cpu")
    assert p.as_dict() == {"p1": 0.0, "p21": 1e-3, "v1": 1e-3, "wK": 1e-3, "wQ": 1e-3, "v2": 1e-3}
    q = M.init(0.1, p1=2.0, wK=0.5, device="cpu")
    assert q.as_dict()["wK"] == 0.5 and q.as_dict()["p1"] == 2.0
    assert M.Params.from_vector(q.vector()).as_dict() == q.as_dict()
    with pytest.raises(KeyError):
        M.init(0.1, bogus=1.0)


def test_forward_and_target_shapes():
    X = M.sample(13, 10, 0, "cpu")
    p = M.init(0.2, p1=1.0, device="cpu")
    for layer1 in ("limit", "finite"):
        for sm in ("exact", "rc12"):
            tf1, tf2 = M.forward(X, p, layer1=layer1, softmax=sm)
            assert tf1.shape == tf2.shape == (13,)
    y1, y2 = M.target(X, 0.3, 0.5)
    assert y1.shape == y2.shape == (13,)
    assert torch.equal(y1, 0.3 * X[:, -3])  # alpha x_{L-2}
    assert torch.equal(M.target(X, 0.3, 0.5, lag=0)[0], 0.3 * X[:, -1])


def test_head1_large_slope_reads_previous_position_of_layer1():
    """Head 1 at large p21 (limit layer 1) outputs v1 x̃_{L-1} = v1 x_{L-2}: the 4-gram target."""
    X = M.sample(9, 12, 0, "cpu")
    p = M.init(0.0, device="cpu")
    p.p21, p.v1 = torch.tensor(80.0, dtype=torch.float64), torch.tensor(0.4, dtype=torch.float64)
    tf1, _ = M.forward(X, p, layer1="limit")
    assert torch.allclose(tf1, 0.4 * X[:, -3], atol=1e-15)


def test_head2_matches_target_at_optimum_in_the_limit():
    """With x̃_s = x_{s-1}, wK wQ = w and v2 = 1-α, TF_2 equals the IH target exactly."""
    X = M.sample(50, 16, 4, "cpu")
    alpha, w = 0.4, 0.3
    p = M.init(0.0, device="cpu", wK=0.5, wQ=0.6, v2=0.6)
    _, tf2 = M.forward(X, p, layer1="limit")
    assert torch.allclose(tf2, M.target(X, alpha, w)[1], atol=1e-14)
    lg, li = M.losses(X, p, alpha, w)
    assert float(li) < 1e-28


def test_rc12_close_to_exact_at_small_dp():
    X = M.sample(400, 30, 5, "cpu")
    p = M.init(1e-2, device="cpu")
    e = M.forward(X, p, softmax="exact")[1]
    r = M.forward(X, p, softmax="rc12")[1]
    assert float((e - r).abs().max() / e.abs().max()) < 1e-3
    big = M.init(1.5, device="cpu")
    e, r = M.forward(X, big, softmax="exact")[1], M.forward(X, big, softmax="rc12")[1]
    assert float((e - r).abs().max() / e.abs().max()) > 1e-2  # the simplification is not exact


def test_gradients_finite_and_match_finite_differences():
    X = M.sample(30, 10, 6, "cpu")
    f = M.loss_of_vector(X, 0.5, 0.3, layer1="finite")
    theta = M.init(0.3, p1=0.8, device="cpu").vector().requires_grad_(True)
    (g,) = torch.autograd.grad(f(theta), theta)
    assert torch.all(torch.isfinite(g)) and torch.all(g != 0)
    assert torch.autograd.gradcheck(f, (theta,), eps=1e-6, atol=1e-8)


def test_train_stages_move_only_their_parameters():
    X = M.sample(200, 10, 7, "cpu")
    p0 = M.init(0.05, p1=0.5, device="cpu")
    r2 = M.train(X, p0, 0.5, 0.3, lr=0.5, steps=40, stage="II", record_every=10)
    assert set(r2) >= {"t", "p1", "p21", "v1", "wK", "wQ", "v2", "L_G4", "L_IH"}
    assert list(r2["t"]) == [0, 5, 10, 15, 20]
    assert (r2["p1"] == 0.5).all() and r2["v1"][-1] != r2["v1"][0]
    assert r2["L_G4"][-1] < r2["L_G4"][0] and r2["L_IH"][-1] < r2["L_IH"][0]
    r1 = M.train(X, p0, 0.5, 0.3, lr=0.5, steps=5, stage="I")
    assert (r1["v1"] == r1["v1"][0]).all() and r1["p1"][-1] != r1["p1"][0]
    rj = M.train(X, p0, 0.5, 0.3, lr=0.5, steps=5, stage="joint")
    assert all(rj[n][-1] != rj[n][0] for n in M.NAMES)
    with pytest.raises(ValueError):
        M.train(X, p0, 0.5, 0.3, lr=0.5, steps=5, stage="I", layer1="limit")


def test_train_first_step_is_gradient_descent():
    X = M.sample(50, 8, 8, "cpu")
    p0 = M.init(0.1, p1=0.3, device="cpu")
    r = M.train(X, p0, 0.5, 0.3, lr=0.01, steps=1, stage="joint")
    theta = p0.vector().requires_grad_(True)
    (g,) = torch.autograd.grad(M.loss_of_vector(X, 0.5, 0.3, layer1="finite")(theta), theta)
    for i, n in enumerate(M.NAMES):
        assert abs(r[n][1] - (float(theta[i].detach()) - 0.01 * float(g[i]))) < 1e-15


# --- IH-E11-split (claims_model) and its planted-error twins -------------------------------------------

from derivations.inductionheads.claims import s51_setup as CM  # noqa: E402
from theoryverify.verdicts import Status  # noqa: E402


def _small_sample():
    return M.sample(300, 12, 11, "cpu")


def test_e11_cross_block_is_exactly_zero_in_stage_two():
    X = _small_sample()
    pts = CM.random_points(0, 3)
    v = CM.cross_block_check(M.loss_of_vector(X, 0.5, 0.3, layer1="limit"), pts)
    assert v.status is Status.HOLDS and v.details["max_cross"] == 0.0
    assert CM.partial_dependence_check(X, 0.5, 0.3, pts).status is Status.HOLDS


def test_e11_planted_cross_term_is_refuted():
    """Planted: a tiny coupling 1e-9·v1·wK between the heads must be caught (tol 1e-14)."""
    X = _small_sample()
    base = M.loss_of_vector(X, 0.5, 0.3, layer1="limit")
    planted = lambda th: base(th) + 1e-9 * th[2] * th[3]  # noqa: E731  (v1, wK)
    v = CM.cross_block_check(planted, CM.random_points(1, 2))
    assert v.status is Status.REFUTED
    assert v.counterexample["entry"] == "v1,wK" and abs(v.counterexample["value"] - 1e-9) < 1e-12


def test_e11_planted_shared_value_model_is_refuted():
    """Planted model: head 2's output scaled by head 1's value v1 (a cross-head weight sharing)."""
    X = _small_sample()

    def leaky_losses(X, params, alpha, w, **kw):
        tf1, tf2 = M.forward(X, params, layer1="limit")
        y1, y2 = M.target(X, alpha, w)
        return 0.5 * ((tf1 - y1) ** 2).mean(), 0.5 * ((params.v1 * tf2 - y2) ** 2).mean()

    pts = CM.random_points(2, 2)
    v = CM.partial_dependence_check(X, 0.5, 0.3, pts, losses_fn=leaky_losses)
    assert v.status is Status.REFUTED and v.counterexample["value"] > 1e-6

    def leaky_total(th):
        a, b = leaky_losses(X, M.Params.from_vector(th), 0.5, 0.3)
        return a + b
    assert CM.cross_block_check(leaky_total, pts).status is Status.REFUTED


def test_e11_symbolic_split_and_planted_symbolic_cross_term():
    assert CM.symbolic_cross_block(4, "rc12").status is Status.PROVED
    ell, x, th = CM.sympy_sample_loss(4, "exact")
    planted = (ell + th["p21"] * th["v2"] * x[0] ** 2, x, th)
    v = CM.symbolic_cross_block(4, "exact", loss=planted)
    assert v.status is Status.REFUTED and v.counterexample["pair"] == "p21,v2"


def test_stage_one_dependence_records_both_terms():
    out = CM.stage1_dependence(_small_sample(), 0.5, 0.3, sigma=0.1, p1_values=(0.5,))
    with_dp, without = out["wK(0) = 0.1"][0], out["wK(0) = 0"][0]
    assert with_dp["dL_IH/dp1"] != 0.0 and without["dL_IH/dp1"] == 0.0 and without["dL_G4/dp1"] != 0.0


def test_joint_coupling_only_through_p1():
    b = CM.joint_coupling(_small_sample(), 0.5, 0.3, CM.random_points(3, 1))
    assert b["head1 x head2"] == 0.0 and b["p1 x head1"] > 0 and b["p1 x head2"] > 0


def test_population_g4_matches_monte_carlo():
    X = M.sample(40000, 10, 12, "cpu")
    p = M.init(0.3, p1=0.7, device="cpu")
    for layer1 in ("limit", "finite"):
        tf1 = M.forward(X, p, layer1=layer1)[0]
        per = 0.5 * (tf1 - 0.5 * X[:, -3]) ** 2
        se = float(per.std()) / math.sqrt(len(per))
        pop = float(M.population_loss_g4(10, p, 0.5, layer1=layer1))
        assert abs(float(per.mean()) - pop) <= 4 * se
    # planted: the wrong target index (x_{L-1}) gives a different population loss
    assert abs(float(M.population_loss_g4(10, p, 0.5, lag=1)) - float(M.population_loss_g4(10, p, 0.5))) > 1e-3
