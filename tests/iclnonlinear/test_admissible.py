"""The admissible-path verdict builders (experiments/admissible.py) on synthetic path records: the window-start
reading with a free constant, the window rate, and the configurations every leaf must carry for the engine's
hypotheses rule."""
import numpy as np

import theoryverify as tv
from derivations.iclnonlinear.experiments import admissible as A

KS = [8, 16, 32, 64, 128]


def _path(values_by_start: dict, q_T1=None, q_Tf=None, T1=None, Tf=None):
    """A path record with one flat setting (c = 1): per K, read-outs ``goff_maxabs`` at each start."""
    out = {"config": {"C": [0.1, 1, 10]}, "K": {}}
    for j, K in enumerate(KS):
        at = {st: {"goff_maxabs": [float(v[j])], "qdiag": [0.0]} for st, v in values_by_start.items()}
        if q_T1 is not None:
            at["T1"]["qdiag"] = [float(q_T1[j])]
            at["1*Tf"] = {"qdiag": [float(q_Tf[j])], "goff_maxabs": [0.0]}
        out["K"][str(K)] = {"K": K, "labels": [{"c": 1.0, "law": "iid-normal", "L": float(K)}], "eps": 2.0 / K,
                            "N": None, "delta": 1 / (np.sqrt(2) * K), "at": at,
                            "T1": [float(T1[j]) if T1 is not None else 1.0],
                            "T_fstar": [float(Tf[j]) if Tf is not None else 2.0]}
    return out


def _leaves(vjson):
    subs = {k: v for k, v in (vjson.get("details") or {}).items() if isinstance(v, dict) and
            {"status", "method", "evidence"} <= set(v)}
    subs.update({k: v for k, v in ((vjson.get("details") or {}).get("parts") or {}).items()
                 if isinstance(v, dict) and {"status", "method", "evidence"} <= set(v)})
    if not subs:
        return [vjson]
    return [leaf for v in subs.values() for leaf in _leaves(v)]


def test_some_start_refutes_only_if_every_start_diverges():
    K = np.array(KS, float)
    growing, flat = K ** 1.5, np.ones_like(K)
    ratio = lambda d, i, st: A.at(d, i, st, "goff_maxabs")  # noqa: E731
    both_bad = A.some_start_parts(_path({"T1": growing, "1*Tf1": growing}), 0, False, ratio, "r", ["T1", "1*Tf1"])
    one_ok = A.some_start_parts(_path({"T1": growing, "1*Tf1": flat}), 0, False, ratio, "r", ["T1", "1*Tf1"])
    assert [v.status for v in both_bad.values()] == [tv.Status.REFUTED]
    assert [v.status for v in one_ok.values()] == [tv.Status.HOLDS]


def test_every_leaf_records_K_and_eps():
    K = np.array(KS, float)
    parts = A.some_start_parts(_path({"T1": K ** 1.5}), 0, False, lambda d, i, st: A.at(d, i, st, "goff_maxabs"),
                               "r", ["T1"])
    for v in parts.values():
        for leaf in _leaves(v.to_json()):
            rows = leaf["details"]["configurations"]
            assert rows and all({"K", "eps"} <= set(r) for r in rows)
            assert all(abs(r["K"] * r["eps"] - 2.0) < 1e-12 for r in rows)


def test_window_rate_is_the_mean_growth_of_q_over_the_window():
    K = np.array(KS, float)
    P = _path({"T1": K}, q_T1=np.log(K), q_Tf=3 * np.log(K), T1=K ** 2, Tf=2 * K ** 3)
    d = P["K"]["16"]
    assert np.isclose(A.window_rate(d, 0, "T1", "1*Tf", d["T1"][0], d["T_fstar"][0]),
                      2 * np.log(16) / (2 * 16 ** 3 - 16 ** 2))
    assert np.isnan(A.window_rate(d, 0, "T1", "1*Tf", 10.0, 5.0))


def _sym_path(z_T1, z_Tf, q_T1, q_Tf, T1, Tf):
    """A path record whose read-outs come from a symmetric state: Ā = e^z/(e^z + K − 1) at T1 and at T_f^*."""
    P = _path({"T1": np.ones(len(KS))}, q_T1=q_T1, q_Tf=q_Tf, T1=T1, Tf=Tf)
    for j, K in enumerate(KS):
        d = P["K"][str(K)]
        d["eta"] = [1.0]
        for when, z in (("T1", z_T1[j]), ("1*Tf", z_Tf[j])):
            d["at"][when]["abar"] = [float(np.exp(z) / (np.exp(z) + K - 1))]
    return P


def test_q_off_inverts_the_symmetric_softmax():
    K = np.array(KS, float)
    z = np.log(K - 1) + 0.7
    P = _sym_path(z, z + 2.0, q_T1=0.4 * z, q_Tf=0.4 * z + 3.0, T1=K ** 2, Tf=K ** 3)
    d = P["K"]["32"]
    j = KS.index(32)
    assert np.isclose(A.q_off(d, 0, "T1"), 0.4 * z[j] - z[j])
    # q_{k,k'} moves by Δq_k − Δz = 3 − 2 = 1 over the window
    assert np.isclose(A.window_off_rate(d, 0, "T1", "1*Tf", d["T1"][0], d["T_fstar"][0]), 1.0 / (32 ** 3 - 32 ** 2))


def test_planted_off_diagonal_window_mean_growing_with_K_is_refuted():
    """The window-mean reading of Props. 3–4's off-diagonal rate (reported beside p3-offrate, p4-offrate) can fail: a planted
    off-diagonal drift growing like K per window (the printed bound allows O(1/K²)·window) is refuted; the same
    record with a drift ∝ 1/K (what the model gives) holds."""
    K = np.array(KS, float)
    T1, Tf = K ** 2, K ** 3
    z0 = np.log(K - 1)
    ratio = lambda d, i: (A.window_off_rate(d, i, "T1", "1*Tf", d["T1"][i], d["T_fstar"][i])  # noqa: E731
                          * d["K"] ** 2 / A.gap_scale(d, i))
    for drift, expect in ((K, tv.Status.REFUTED), (1.0 / K, tv.Status.HOLDS)):
        # planted: q_k grows by Δz + drift, so q_{k,k'} = q_k − z changes by exactly `drift` times the window scale
        scale = Tf / K ** 2                      # printed O(ηδ²L²Δ²/K²)·(T_f^* − T1) up to a constant (c = 1, η = 1)
        P = _sym_path(z0, z0 + 3.0, q_T1=np.zeros_like(K), q_Tf=3.0 + drift * scale, T1=T1, Tf=Tf)
        parts = A.bound_parts(P, 0, False, ratio, "planted off-diagonal mean rate")
        assert [v.status for v in parts.values()] == [expect], parts


def test_planted_relative_eps_time_growing_faster_than_T_s_star_is_refuted():
    """t2's relative-ε reading (R_rel = T(l ≤ ε² l(0))/T_s^* bounded as K → ∞) can fail: a planted T_rel = K·T_s^*
    is refuted, T_rel = T_s^*/K (what the model gives: K^−1.5) holds."""
    K = np.array(KS, float)
    for factor, expect in ((K, tv.Status.REFUTED), (1.0 / K, tv.Status.HOLDS)):
        P = {"config": {"C": [1]}, "K": {}}
        for j, k in enumerate(KS):
            Ts = float(k ** 4)
            P["K"][str(k)] = {"K": k, "labels": [{"c": 3.0, "law": "iid-normal", "L": 3.0 * k}], "eps": 2.0 / k,
                              "N": None, "delta": 1 / (np.sqrt(2) * k), "T_sstar": [Ts], "T_rel": [factor[j] * Ts]}
        parts = A.bound_parts(P, 0, True, lambda d, i: d["T_rel"][i] / d["T_sstar"][i], "planted R_rel")
        assert [v.status for v in parts.values()] == [expect]


def test_planted_steady_rate_per_step_reading_can_hold_and_fail():
    """p3-qrate / p4-qrate decide the per-step reading of a 'steady rate Θ(F)': η g_k/F bounded at the window start
    (start constant free) and away from 0 at its end.  A planted η g_k = F at every read-out holds; one that is K^1.5
    times F at both starts (what the model gives at the Phase-II start) is refuted."""
    from derivations.iclnonlinear.claims.s52_flat_phase2 import steady_rate_parts
    K = np.array(KS, float)
    form = lambda d, i: d["eta"][i] * A.gap_scale(d, i) / d["K"]  # noqa: E731
    for start_factor, expect in ((np.ones_like(K), tv.Status.HOLDS), (K ** 1.5, tv.Status.REFUTED)):
        P = _path({"T1": np.ones_like(K), "1*Tf1": np.ones_like(K), "1*Tf": np.ones_like(K)})
        for j, k in enumerate(KS):
            d = P["K"][str(k)]
            d["eta"] = [1.0]
            F = A.gap_scale(d, 0) / k
            for st in ("T1", "1*Tf1"):
                d["at"][st]["gdiag"] = [float(F * start_factor[j])]
            d["at"]["1*Tf"]["gdiag"] = [float(F)]
        parts = steady_rate_parts(P, 0, False, ["T1", "1*Tf1"], "1*Tf", form, "F")
        assert tv.combine(parts).status is expect, parts


def test_declared_path_hypotheses_hold_on_the_path_and_fail_off_it():
    """Issue 27 item 5: the standing hypotheses are conditions the engine evaluates; the admissible path's
    configurations lie inside every one, and a configuration that breaks one (N = 10K³, c = LΔδ = 3 for the flat
    regime, δ = 2/K, Δ = 10, a law outside F) is outside exactly that one."""
    from derivations.iclnonlinear.printed import hypotheses as H
    K = 16
    ok = {"K": K, "eps": 2.0 / K, "N": 40 * K ** 3, "delta": 1 / (np.sqrt(2) * K), "c": 1.0, "L": float(K),
          "Delta": np.sqrt(2), "law_in_F": True}
    assert all(c.evaluate(ok) for c in H.FLAT_PATH_HYPOTHESES)
    assert all(c.evaluate(dict(ok, c=3.0)) for c in H.SHARP_PATH_HYPOTHESES)
    for bad, cond in ((dict(ok, N=10 * K ** 3), H.N_K3), (dict(ok, c=3.0), H.FLAT_L), (dict(ok, delta=2.0 / K), H.DELTA_K),
                      (dict(ok, Delta=10.0), H.DELTA_O1), (dict(ok, law_in_F=False), H.TASKS_IN_F)):
        assert [c.text for c in H.FLAT_PATH_HYPOTHESES if not c.evaluate(bad)] == [cond.text]
