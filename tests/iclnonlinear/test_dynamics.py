"""The q-space simulator: exact against autograd GD on Q, its fast paths against the general one,
its event times, and planted errors that the agreement check must refute."""
import numpy as np
import pytest

from derivations.iclnonlinear.claims import s3_model as cs
from derivations.iclnonlinear.experiments import dynamics as D
from derivations.iclnonlinear.model import counts
from theoryverify.claims import RunContext
from theoryverify.verdicts import Status

CTX = RunContext(seed=3)


def test_simulator_matches_autograd_on_every_geometry():
    for g in ("orthonormal", "scaled_orthogonal", "general"):
        assert cs.check_simulator(CTX, g, n=6).status == Status.HOLDS


def test_planted_update_without_gram_is_refuted():
    """g = H (dropping the Gram sandwich G H G) is wrong for general features."""
    def planted(x):
        s = cs.paired(x)
        s.gram = np.eye(len(x["p"]))
        sim = D.simulate([s], cs.STEPS, device="cpu").q[0]
        return sim
    v = cs.check_simulator(CTX, "general", simulated=planted, n=10)
    assert v.status == Status.REFUTED and v.counterexample


def test_isotropic_path_equals_counts_H():
    rng = np.random.default_rng(0)
    K, N = 3, 4
    V = rng.standard_normal((5, K))
    p = np.array([0.5, 0.3, 0.2])
    tr = D.simulate([D.Setting(gram=V.T @ V, p=p, eta=0.1, N=N, exact=True, sigma2=2.0)], 5,
                    device="cpu", keep_tables=True)
    q = tr.tables["q"][-1][0]
    basis = [np.sqrt(2.0) * e for e in np.eye(K)]          # E f fᵀ = 2 I
    H = sum(counts.H(q, p, f, N) for f in basis)
    assert np.allclose(V.T @ V @ H @ V.T @ V, tr.tables["g"][-1][0], rtol=0, atol=1e-14)
    assert np.isclose(sum(counts.loss(q, p, f, N) for f in basis), tr.metrics["loss"][-1, 0], rtol=1e-13)


@pytest.mark.parametrize("N", [None, 50])
def test_symmetric_mode_equals_full_rows(N):
    K = 4
    sym = D.symmetric_setting(K, 0.7, N=N, M=1 if N is None else 200, seed=1)
    full = D.Setting(gram=np.eye(K), p=np.full(K, 0.25), eta=0.7, N=N, M=sym.M, sigma2=1.0, seed=1)
    a, b = D.simulate([sym], 50, device="cpu"), D.simulate([full], 50, device="cpu")
    if N is None:            # exact symmetry: identical
        for m in D.METRICS:
            assert np.allclose(a.metrics[m], b.metrics[m], atol=1e-14), m
    else:                    # row 1 of the full run is the symmetric run
        assert np.allclose(a.q[0, 0], b.q[0, 0], atol=1e-14)


def test_events_are_exact_first_hits_and_batch_independent():
    s1 = D.symmetric_setting(4, 1.0)
    s2 = D.symmetric_setting(4, 0.5)
    ev = {"T1": ("abar", ">=", 0.5)}
    both = D.simulate([s1, s2], 200, events=ev, device="cpu")
    one = D.simulate([s2], 200, events=ev, device="cpu")
    assert both.hits["T1"][1] == one.hits["T1"][0] > both.hits["T1"][0] > 0
    t = both.hits["T1"][0]
    assert both.metrics["abar"][t, 0] >= 0.5 > both.metrics["abar"][t - 1, 0]


def test_bad_settings_are_rejected():
    with pytest.raises(ValueError):
        D.Setting(gram=np.eye(3), p=np.full(3, 1 / 3), eta=1.0)            # no task law
    with pytest.raises(ValueError):
        D.Setting(gram=2 * np.eye(3) + 0.1, p=np.full(3, 1 / 3), eta=1.0, sigma2=1.0, symmetric=True)
