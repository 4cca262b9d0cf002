"""Autograd of a sampled model against a closed form as one call (issue 29, item 2): ``tv.check_mc_gradient``
takes per-sample gradients with ``torch.func.vmap(grad(loss))`` and decides their mean with the heavy-tail-robust
Monte-Carlo test (replication batch, median-of-means for heavy tails).  A true closed form with heavy-tailed
per-sample gradients is not refuted at the default seed; a 2 % bias, a wrong coefficient or a wrong sign is."""
from __future__ import annotations

import math

import numpy as np
import torch

import theoryverify as tv
from theoryverify.checks.montecarlo import HEAVY_TAIL_KURTOSIS
from theoryverify.seeds import DEFAULT_SEED


def normal(rng, n):
    return rng.standard_normal(n)


def exp_loss(theta, z):  # L(θ) = E exp(θz) = exp(θ²/2): per-sample gradients z·exp(θz), lognormal-like tails
    return torch.exp(theta * z)


def exp_grad(theta):
    return theta * np.exp(theta ** 2 / 2)


def test_true_closed_form_with_heavy_tails_is_not_refuted_at_the_default_seed():
    for seed in (DEFAULT_SEED, 0, 1, 2):
        v = tv.check_mc_gradient(exp_loss, exp_grad, normal, [0.5, 1.0, 1.5], seed)
        assert v.status is not tv.Status.REFUTED, (seed, v.evidence)
        assert v.details["tail_diagnostic"]["max"] > HEAVY_TAIL_KURTOSIS  # the case the robust rule is for
        assert v.details["gradients"].startswith("per-sample gradients torch.func.vmap")
    wide = tv.check_mc_gradient(exp_loss, exp_grad, normal, [0.5, 1.0, 1.5], DEFAULT_SEED, resolution=0.5)
    assert wide.status is tv.Status.HOLDS, wide.evidence


def test_wrong_coefficient_with_heavy_tails_is_refuted_and_says_so():
    v = tv.check_mc_gradient(exp_loss, lambda th: 2 * exp_grad(th), normal, [0.5, 1.0, 1.5], DEFAULT_SEED)
    assert v.status is tv.Status.REFUTED, v.evidence
    assert "replication batch agrees" in v.evidence and v.counterexample["component"].endswith("dL/dθ")


# Gaussian smoothing: L(θ) = E cos(θ + σz) = e^{-σ²/2} cos θ (per coordinate), so ∇L = -e^{-σ²/2} sin θ
SIGMA = 0.5
THETA = np.array([0.6, 1.2, -0.9])


def smoothed(theta, z):
    return torch.cos(theta + SIGMA * z).sum()


def smoothed_grad(theta, bias=1.0):
    return -bias * math.exp(-SIGMA ** 2 / 2) * np.sin(theta)


def gaussian3(rng, n):
    return rng.standard_normal((n, 3))


def test_true_gradient_of_a_smoothed_model_holds():
    v = tv.check_mc_gradient(smoothed, smoothed_grad, gaussian3, THETA, DEFAULT_SEED, n=100_000)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert [r["name"] for r in v.details["components"]] == ["dL/dθ[0]", "dL/dθ[1]", "dL/dθ[2]"]


def test_a_two_percent_bias_is_refuted():
    v = tv.check_mc_gradient(smoothed, lambda th: smoothed_grad(th, 1.02), gaussian3, THETA, DEFAULT_SEED,
                             n=100_000)
    assert v.status is tv.Status.REFUTED, v.evidence


# a two-layer linear network on random data: E ∇_{W1} ½‖y − W2 W1 x‖² = −W2ᵀ(Σyx − W2 W1 Σxx), θ a dict of layers
A = np.array([[1.0, -0.5], [0.3, 2.0]])
SXX = np.array([[1.0, 0.0], [0.0, 2.0]])  # x ~ N(0, diag(1, 2)), y = A x + noise


def data(rng, n):
    x = rng.standard_normal((n, 2)) * np.sqrt(np.diag(SXX))
    return x, x @ A.T + 0.1 * rng.standard_normal((n, 2))


def net_loss(theta, z):
    x, y = z
    return 0.5 * ((y - theta["W2"] @ theta["W1"] @ x) ** 2).sum()


def net_grad(theta, sign=1.0):
    W1, W2 = theta["W1"], theta["W2"]
    residual = A @ SXX - W2 @ W1 @ SXX
    return {"W1": -sign * W2.T @ residual, "W2": -sign * residual @ W1.T}


WEIGHTS = [{"W1": np.array([[0.5, 0.1], [-0.2, 0.4]]), "W2": np.array([[0.3, 0.0], [0.2, -0.6]])},
           {"W1": np.eye(2), "W2": np.array([[1.0, 0.5], [0.0, 1.0]])}]


def test_layers_as_a_dict_of_weights():
    v = tv.check_mc_gradient(net_loss, net_grad, data, WEIGHTS, DEFAULT_SEED, resolution=0.1)
    assert v.status is tv.Status.HOLDS, v.evidence
    names = {r["name"] for r in v.details["components"]}
    assert "θ #0: dL/dW1[0,1]" in names and "θ #1: dL/dW2[1,0]" in names
    planted = tv.check_mc_gradient(net_loss, lambda th: net_grad(th, -1.0), data, WEIGHTS, DEFAULT_SEED,
                                   resolution=0.1)
    assert planted.status is tv.Status.REFUTED, planted.evidence


def test_declared_ranges_as_the_points():
    over = [tv.Over("theta", 0.2, 1.2)]
    v = tv.check_mc_gradient(lambda th, z: torch.exp(th["theta"] * z), lambda th: {"theta": exp_grad(th["theta"])},
                             normal, tv.settings(over, DEFAULT_SEED, n=3, draws=1), DEFAULT_SEED, resolution=0.5)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert [s["setting"] for s in v.details["settings"]][:2] == ["theta=0.2", "theta=1.2"]


def test_same_seed_same_verdict():
    a = tv.check_mc_gradient(smoothed, smoothed_grad, gaussian3, THETA, 5, n=2000, resolution=0.2)
    b = tv.check_mc_gradient(smoothed, smoothed_grad, gaussian3, THETA, 5, n=2000, resolution=0.2)
    assert tv.plain(a.details) == tv.plain(b.details) and a.evidence == b.evidence


def test_bad_input_is_a_one_line_error():
    cases = [
        (lambda th, z: th * z, smoothed_grad, gaussian3, THETA),  # loss not a scalar
        (smoothed, lambda th: np.zeros(2), gaussian3, THETA),  # closed form of the wrong shape
        (smoothed, lambda th: 1 / 0, gaussian3, THETA),  # closed form raises
        (smoothed, smoothed_grad, gaussian3, []),  # nothing to check
    ]
    for loss, closed, sampler, at in cases:
        v = tv.check_mc_gradient(loss, closed, sampler, at, 0, n=100)
        assert v.status is tv.Status.ERROR and "\n" not in v.evidence, v.evidence


def test_a_loss_with_a_jump_is_not_refuted_on_a_biased_pathwise_gradient():
    # L(θ) = P(z < θ) = Φ(θ): the true gradient is the normal density, but each per-sample gradient of 1{z < θ} is 0
    step = lambda th, z: (z < th).to(torch.float64) + 0.0 * th
    density = lambda th: math.exp(-th ** 2 / 2) / math.sqrt(2 * math.pi)
    v = tv.check_mc_gradient(step, density, normal, 0.3, DEFAULT_SEED)
    assert v.status is tv.Status.INCONCLUSIVE and "not differentiable along the samples" in v.evidence, v.evidence
    assert not v.details["interchange"]["checked"][0]["agrees"]
    zero = tv.check_mc_gradient(step, lambda th: 0.0, normal, 0.3, DEFAULT_SEED)  # what the samples alone suggest
    assert zero.status is tv.Status.INCONCLUSIVE and "per-sample test says holds" in zero.evidence, zero.evidence


def test_the_interchange_diagnostic_lets_a_smooth_refutation_stand():
    v = tv.check_mc_gradient(smoothed, lambda th: smoothed_grad(th, 1.02), gaussian3, THETA, DEFAULT_SEED, n=100_000)
    assert v.status is tv.Status.REFUTED and v.details["interchange"]["checked"][0]["agrees"], v.details
    ok = tv.check_mc_gradient(smoothed, smoothed_grad, gaussian3, THETA, DEFAULT_SEED, n=100_000)
    assert ok.status is tv.Status.HOLDS and len(ok.details["interchange"]["checked"]) == 3


def test_settings_are_recorded_as_configurations_the_quantifier_standard_reads():
    """at=tv.settings(over, seed) of a claim with over=: the settings are typed configurations, so a passing
    check stays a pass under the quantifier standard (it was an error: 'records no value of it')."""
    from theoryverify.standards import STANDARDS, apply_quantifiers

    over = [tv.Over("theta", 0.2, 1.2), tv.Over("a", 0.5, 2.0, scale="log")]
    loss = lambda th, z: th["a"] * torch.cos(th["theta"] + z)  # noqa: E731  L = a e^{-1/2} cos θ
    grad = lambda th: {"theta": -th["a"] * math.exp(-0.5) * np.sin(th["theta"]),  # noqa: E731
                       "a": math.exp(-0.5) * np.cos(th["theta"])}
    at = tv.settings(over, DEFAULT_SEED, n=3, draws=2)
    v = tv.check_mc_gradient(loss, grad, normal, at, DEFAULT_SEED, n=4000, resolution=0.1)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert v.details["configurations"] == at and "theta" not in v.details
    assert "configurations" in v.details["typed_evidence"]["attached"]
    judged = apply_quantifiers(over, v, STANDARDS)
    assert judged.status is tv.Status.HOLDS, judged.evidence
    # planted: a θ without the settings' names records nothing, and the same standard says so
    bare = tv.check_mc_gradient(exp_loss, exp_grad, normal, [0.5, 1.0], DEFAULT_SEED, n=4000, resolution=0.5)
    assert apply_quantifiers(over[:1], bare, STANDARDS).status is tv.Status.ERROR


def test_expected_as_sympy_with_its_symbols():
    import sympy as sp

    t, a = sp.symbols("theta a", positive=True)
    L = a * sp.exp(t**2 / 2)  # the closed form of E[a exp(θz)]
    loss = lambda th, z: th["a"] * torch.exp(th["theta"] * z)  # noqa: E731
    at = [{"theta": 0.5, "a": 1.0}, {"theta": 1.0, "a": 2.0}]
    good = {str(v): sp.diff(L, v) for v in (t, a)}
    v = tv.check_mc_gradient(loss, good, normal, at, DEFAULT_SEED, resolution=0.5)
    assert v.status is tv.Status.HOLDS, v.evidence
    wrong = {str(v): sp.diff(2 * L, v) for v in (t, a)}  # planted: a factor 2
    assert tv.check_mc_gradient(loss, wrong, normal, at, DEFAULT_SEED).status is tv.Status.REFUTED
    # one expression for a scalar θ; a symbol θ does not give is one line
    x = sp.Symbol("x")
    assert tv.check_mc_gradient(exp_loss, x * sp.exp(x**2 / 2), normal, [0.5, 1.0], DEFAULT_SEED,
                                resolution=0.5).status is tv.Status.HOLDS
    bad = tv.check_mc_gradient(loss, {"theta": t * a * sp.Symbol("b"), "a": t}, normal, at, DEFAULT_SEED)
    assert bad.status is tv.Status.ERROR and "no value of b" in bad.evidence


# issue 29 (second trial): θ's of different shapes (x ∈ R^d for several d), a subset of keys (wrt=), a per-key
# resolution, and array θ's recorded with their settings.  L(x) = E cos(wᵀ(x − y)) = exp(−‖x − y‖²/2), w ~ N(0, I_d).
DIMS = [{"d": 1, "r": 0.3}, {"d": 3, "r": 0.8}, {"d": 5, "r": 0.5}]


def _points(c):
    x = np.full(c["d"], c["r"] / math.sqrt(c["d"]))
    return {"x": x, "y": np.zeros(c["d"])}


def _cosine(th, w):  # one sample w ∈ R^d (vmapped): no batch axis
    return torch.cos(w @ (th["x"] - th["y"]))


def _kgrad(th, sign=1.0):
    u = th["x"] - th["y"]
    return {"x": -sign * u * np.exp(-u @ u / 2)}


def _draws():
    return [lambda rng, m, d=c["d"]: rng.standard_normal((m, d)) for c in DIMS]


def test_thetas_of_different_shapes_wrt_a_subset_and_a_per_key_resolution():
    v = tv.check_mc_gradient(_cosine, _kgrad, _draws(), [_points(c) for c in DIMS], DEFAULT_SEED, wrt=["x"],
                             resolution={"x": 0.05}, configurations=DIMS)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert [c["d"] for c in v.details["configurations"]] == [1, 3, 5]
    assert len(v.details["components"]) == 1 + 3 + 5  # one correction over every setting's components
    assert v.details["components"][0]["name"].startswith("d=1, r=0.3: dL/dx[0]")
    wrong = tv.check_mc_gradient(_cosine, lambda th: _kgrad(th, -1.0), _draws(), [_points(c) for c in DIMS],
                                 DEFAULT_SEED, wrt=["x"], resolution={"x": 0.05}, configurations=DIMS)
    assert wrong.status is tv.Status.REFUTED, wrong.evidence  # a planted sign error


def test_bad_wrt_resolution_and_missing_keys_are_one_line_errors():
    pts = [_points(c) for c in DIMS]
    cases = [dict(wrt=["z"]), dict(wrt=["x"], resolution={"y": 0.1}), dict(wrt=["x"], resolution={"x": "wide"}),
             dict(configurations=DIMS[:2], wrt=["x"]), dict()]  # the last: the closed form lacks y, no wrt=
    for kw in cases:
        v = tv.check_mc_gradient(_cosine, _kgrad, _draws(), pts, 0, n=100, **kw)
        assert v.status is tv.Status.ERROR and "\n" not in v.evidence, (kw, v.evidence)
    assert "wrt=" in tv.check_mc_gradient(_cosine, _kgrad, _draws(), pts, 0, n=100).evidence
    assert tv.Configurations is tv.evidence_types.Configurations


def test_a_claim_over_d_is_satisfied_by_configurations_of_array_thetas():
    paper = tv.ClaimSet("t29")

    @paper.add("grad-over-d", location="Eq. (1)", kind=tv.Kind.AUTOGRAD, statement="∇ₓ E cos(wᵀ(x − y)) = ∇ₓ k",
               over=(tv.Over("d", 1, 5, integer=True), tv.Over("r", 0.3, 0.8)))
    def grad_d(ctx):
        return tv.check_mc_gradient(_cosine, _kgrad, _draws(), [_points(c) for c in DIMS], ctx.seed, wrt="x",
                                    resolution=0.05, configurations=DIMS)

    result = paper.claims[0].run(tv.RunContext(seed=DEFAULT_SEED))
    assert result.verdict.status is tv.Status.HOLDS, result.verdict.evidence
