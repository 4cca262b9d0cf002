"""The probe of the referee's configuration (issue 27; experiments/phase1.general_setting): a point-mass task law
(one cosine task, checked in F) on non-orthonormal features, every query row simulated."""
import numpy as np

from derivations.iclnonlinear.experiments import dynamics as D, phase1 as S


def test_general_setting_is_in_F_and_not_symmetric():
    s = S.general_setting(6, 0)
    f = s.tasks[0]
    assert s.tasks.shape == (1, 6) and not s.symmetric and s.N is None
    assert not np.allclose(s.gram, s.gram[0, 0] * np.eye(6))          # non-orthonormal features
    V = np.linalg.cholesky(s.gram + 1e-12 * np.eye(6)).T                # any V with VᵀV = G has the same distances
    assert S.in_F_batch(f[None, :], V, S.OFF["L"], s.label["c_nd"])[0]


def test_general_setting_runs_on_every_row():
    tr = D.simulate([S.general_setting(4, 0)], 20, device="cpu")
    assert tr.q.shape == (1, 4, 4) and np.all(np.abs(tr.q[0]) > 0)  # every row moved (no symmetric shortcut)
