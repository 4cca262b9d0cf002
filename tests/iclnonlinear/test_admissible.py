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
