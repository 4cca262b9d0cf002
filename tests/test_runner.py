"""Batched runner and gradient flow: batched == per-configuration loop, vmap == batched autograd,
Adam == torch.optim.Adam, hitting times exact on a linear problem, settings recorded."""
import math

import numpy as np
import pytest
import torch

from theoryverify import flows, runner


def quad_loss(p, c):  # per-run f(x) = ½ a‖x − b‖², batched
    return 0.5 * c["a"] * ((p["x"] - c["b"][:, None]) ** 2).sum(dim=1)


def quad_loss_single(p, c):
    return 0.5 * c["a"] * ((p["x"] - c["b"]) ** 2).sum()


CFG = {"a": np.array([1.0, 2.0, 0.5]), "b": np.array([0.0, 1.0, -1.0])}
X0 = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])


def test_gd_batched_equals_loop_and_closed_form():
    lr = np.array([0.1, 0.05, 0.2])
    res = runner.train(quad_loss, {"x": X0}, config=CFG, steps=20, lr=lr, device="cpu")
    for i in range(3):
        one = runner.train(quad_loss, {"x": X0[i:i + 1]}, config={k: v[i:i + 1] for k, v in CFG.items()},
                           steps=20, lr=lr[i:i + 1], device="cpu")
        assert torch.equal(one.params["x"][0], res.params["x"][i])
        exact = CFG["b"][i] + (X0[i] - CFG["b"][i]) * (1 - lr[i] * CFG["a"][i]) ** 20
        np.testing.assert_allclose(res.params["x"][i].numpy(), exact, rtol=1e-13)
    assert res.settings["dtype"] == "float64" and res.settings["device"] == "cpu"
    assert res.settings["tf32_matmul"] is False


def test_vmap_mode_matches_batched():
    a = runner.train(quad_loss, {"x": X0}, config=CFG, steps=15, lr=0.1, device="cpu")
    b = runner.train(quad_loss_single, {"x": X0}, config=CFG, steps=15, lr=0.1, mode="vmap", device="cpu")
    torch.testing.assert_close(a.params["x"], b.params["x"], rtol=1e-14, atol=1e-15)


def test_per_run_step_budgets_and_recorder():
    res = runner.train(quad_loss, {"x": X0}, config=CFG, steps=[5, 10, 0], lr=0.1, device="cpu",
                       metrics={"f": quad_loss}, record_every=5)
    assert res.record_steps == [0, 5, 10] and res.records["f"].shape == (3, 3)
    torch.testing.assert_close(res.params["x"][2], torch.as_tensor(X0[2]))  # budget 0: never moved
    five = runner.train(quad_loss, {"x": X0[:1]}, config={k: v[:1] for k, v in CFG.items()}, steps=5, lr=0.1,
                        device="cpu")
    assert torch.equal(five.params["x"][0], res.params["x"][0])


def test_hitting_times_exact_on_linear_decay():
    # x_k = (1 − η a)^k x0; first k with |x_k| < 1e-3
    res = runner.train(quad_loss, {"x": X0[:, :1]}, config={"a": CFG["a"], "b": np.zeros(3)}, steps=500, lr=0.1,
                       events={"small": lambda p, c: p["x"][:, 0].abs() < 1e-3}, stop_when_hit=True, device="cpu")
    for i in range(3):
        k = math.ceil(math.log(1e-3 / abs(X0[i, 0])) / math.log(1 - 0.1 * CFG["a"][i]))
        assert int(res.hits["small"][i]) == k
    assert res.steps_run == int(res.hits["small"].max())


def test_adam_matches_torch_optim():
    res = runner.train(quad_loss, {"x": X0}, config=CFG, steps=30, lr=0.01, optimizer="adam", device="cpu")
    x = torch.tensor(X0, requires_grad=True)
    opt = torch.optim.Adam([x], lr=0.01)
    c = {k: torch.as_tensor(v) for k, v in CFG.items()}
    for _ in range(30):
        opt.zero_grad()
        quad_loss({"x": x}, c).sum().backward()
        opt.step()
    torch.testing.assert_close(res.params["x"], x.detach(), rtol=1e-12, atol=1e-14)


def test_planted_wrong_gradient_is_caught():
    """A closed-form gradient with a planted sign error disagrees with autograd: the check can fail."""
    bad = lambda p, c: {"x": -c["a"][:, None] * (p["x"] - c["b"][:, None])}  # noqa: E731
    a = runner.train(quad_loss, {"x": X0}, config=CFG, steps=3, lr=0.1, device="cpu")
    b = runner.train(None, {"x": X0}, config=CFG, steps=3, lr=0.1, grad=bad, device="cpu")
    assert not torch.allclose(a.params["x"], b.params["x"])


def test_uniform_ball_radius_and_reproducibility():
    pts = np.stack([runner.uniform_ball(runner.run_rng(1, "xi", s), 13, 0.5) for s in range(2000)])
    r = np.linalg.norm(pts, axis=1)
    assert r.max() <= 0.5
    # uniform in the ball: P(|ξ| ≤ ρ/2) = 2^-13
    assert (r < 0.25).mean() < 0.01
    assert np.array_equal(runner.uniform_ball(runner.run_rng(1, "xi", 3), 13, 0.5), pts[3])


def test_device_auto_and_cpu_dtype():
    assert runner.resolve_dtype("cpu", None) is torch.float64
    with pytest.raises(ValueError):
        runner.resolve_dtype("cpu", "float32")


def test_gradient_flow_hitting_time_exact():
    res = flows.gradient_flow(lambda x: 2.0 * x, [1.0], 10.0,
                              events={"x<0.01": flows.below(lambda x: x[0], 0.01)}, stop_at="x<0.01")
    assert res.success
    assert res.hits["x<0.01"] == pytest.approx(math.log(100) / 2, rel=1e-7)
    assert res.t[-1] == pytest.approx(math.log(100) / 2, rel=1e-7)


def test_grid_product():
    g = runner.grid(T=[0.1, 0.2], seed=[0, 1, 2])
    assert len(g) == 6 and g[0] == {"T": 0.1, "seed": 0} and g[-1] == {"T": 0.2, "seed": 2}


def test_deterministic_sets_and_restores_the_flags_without_inductor():
    """deterministic() turns deterministic algorithms on (warn-only) and restores the previous state; it does
    so without importing torch._inductor (1.7 s per process) when nothing else has."""
    import subprocess
    import sys

    code = ("import sys, torch\n"
            "from theoryverify import runner\n"
            "assert not torch.are_deterministic_algorithms_enabled()\n"
            "with runner.deterministic('cpu'):\n"
            "    assert torch.are_deterministic_algorithms_enabled()\n"
            "    assert torch.is_deterministic_algorithms_warn_only_enabled()\n"
            "assert not torch.are_deterministic_algorithms_enabled()\n"
            "print('torch._inductor' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
    before = torch.are_deterministic_algorithms_enabled()
    with runner.deterministic("cpu"):
        assert torch.are_deterministic_algorithms_enabled()
    assert torch.are_deterministic_algorithms_enabled() == before
