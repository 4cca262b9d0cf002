"""Referee 15 (iclnonlinear): the errata declare their root causes, the authors'-favour reading of the Θ lower sides
(task laws with non-degenerate covariance) can fail, and the reclassed claims keep their classes."""
import numpy as np
import pytest

from derivations.iclnonlinear import causes
from derivations.iclnonlinear.experiments import nondegenerate as ND
from derivations.iclnonlinear.model.geometry import in_F
from theoryverify import registry
from theoryverify.findings import Finding
from theoryverify.verdicts import Status

CLAIMS = {c.id: c for c in registry.claims(paper="iclnonlinear")}


def test_every_erratum_declares_a_root_cause_and_they_are_few():
    """The ~36 errata read as ~10 independent errors: each declares the cause it descends from (on the old code
    none did, so the cards counted every consistency twin as an erratum of its own)."""
    errata = [c for c in CLAIMS.values() if c.finding is Finding.ERRATUM and not c.planted_of]
    assert errata and all(c.cause for c in errata), [c.id for c in errata if not c.cause]
    assert len({c.cause for c in errata}) <= 11


@pytest.mark.parametrize("twin, statement", [("l4-internal", "l4-gk"), ("l7-internal", "l7"),
                                              ("s53-rate-sym", "s53-rate"), ("l9-gk-sym", "l9-gk")])
def test_consistency_twins_share_their_lemmas_cause(twin, statement):
    a, b = CLAIMS[f"iclnonlinear.{twin}"], CLAIMS[f"iclnonlinear.{statement}"]
    assert a.finding is Finding.ERRATUM and a.cause == b.cause is not None


def test_one_appF_display_is_one_cause_and_l3_sym_is_a_reading():
    assert CLAIMS["iclnonlinear.prop1-pred-printed"].cause == CLAIMS["iclnonlinear.f-lbound"].cause == \
        causes.APPF_DISPLAY
    l3 = CLAIMS["iclnonlinear.l3-sym"]
    assert l3.finding is Finding.READING and l3.readings.others


def test_signed_permutation_law_is_in_F_with_isotropic_covariance():
    members, s2, L = ND.signed_permutation_law(3)
    assert len(members) == 48
    assert np.allclose(members.T @ members / len(members), s2 * np.eye(3))
    assert all(in_F(f, np.eye(3), L, 0.25) for f in members)


def _run(ratios, floor=0.2, attn_end=0.99, in_f=True, K=3):
    t = list(range(25, 25 * (len(ratios) + 1), 25))
    return {"t": t, "eq11": list(ratios), "eq12": list(ratios), "K": K, "N": 30, "eta": 1.0, "sigma2": 1.0, "L": 1.0,
            "Delta": 1.0, "floor": floor, "E[Attn_1|x_q=v_1]": [0.5] * (len(ratios) - 1) + [attn_end],
            "in_F (c_nd = 0.25)": in_f, "members": 48}


def test_nondegenerate_verdict_holds_above_the_floor():
    assert ND.nondegenerate_verdict([_run([0.3, 0.28, 0.28])], "eq11", "ratio").status is Status.HOLDS


def test_nondegenerate_verdict_refutes_a_planted_dip_below_the_floor():
    v = ND.nondegenerate_verdict([_run([0.3, 0.28, 0.28]), _run([0.3, 0.1, 0.28], K=4)], "eq12", "ratio")
    assert v.status is Status.REFUTED and "K = 4" in v.evidence


def test_nondegenerate_verdict_is_inconclusive_when_the_run_does_not_concentrate():
    assert ND.nondegenerate_verdict([_run([0.3, 0.3], attn_end=0.6)], "eq11", "ratio").status is Status.INCONCLUSIVE


# ---- Eq. 12's upper side for general features (referee 15) -------------------------------------------------------

def _upper_run(ratios, in_f=True, gap=1e-13):
    from derivations.iclnonlinear.experiments import general_upper as GU
    return {"seed": 0, "V": [], "L": 1.0, "Delta_max": 1.0, "eta": 1.0, "in_F (c_nd = 0.1)": in_f,
            "g vs dynamics.evaluate": gap,
            "rows": [{"t": t, "ratio": r, "k": 1, "g_k": 1.0, "E[Attn|x_q=v_c]": [0.9, 0.9, 0.9]}
                     for t, r in zip(GU.RECORDS, ratios)]}


def test_upper_verdict_refutes_a_growing_ratio_and_holds_a_bounded_one():
    from derivations.iclnonlinear.experiments import general_upper as GU
    assert GU.upper_verdict([_upper_run([0.5, 0.6, 0.55, 0.6, 0.58, 0.6])], 1).status is Status.HOLDS
    assert GU.upper_verdict([_upper_run([0.1, 0.3, 1, 5, 30, 400])], 1).status is Status.REFUTED
    assert GU.upper_verdict([_upper_run([0.1, 0.3, 1, 5, 30, 400], gap=1e-3)], 1).status is Status.INCONCLUSIVE


def test_general_features_path_grows_and_orthonormal_features_do_not(monkeypatch):
    """The GD path of seed 2 (general features) makes the Eq. 12 ratio grow by > 100×; the same loop on orthonormal
    features (g = H) keeps it bounded — the control that the growth is the cross terms of G, not the loop."""
    from derivations.iclnonlinear.experiments import general_upper as GU
    r = GU.upper_path(2, records=(1000, 20_000))
    assert r["g vs dynamics.evaluate"] < 1e-9 and r["rows"][-1]["ratio"] > 100 * r["rows"][0]["ratio"] > 0
    monkeypatch.setattr(GU, "features_for", lambda seed, K=3: np.eye(3))
    o = GU.upper_path(2, records=(1000, 20_000))
    assert o["rows"][-1]["ratio"] < 2 * o["rows"][0]["ratio"]
