"""Results store: atomic writes, keys, and resuming a sweep killed part-way (no recomputation)."""
import json
import subprocess
import sys
import textwrap

import pytest

from theoryverify import store as st

SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from theoryverify.store import Store, sweep
    root, calls, kill_after = sys.argv[1], sys.argv[2], int(sys.argv[3])
    done = [0]
    def fn(cfg):
        with open(calls, "a") as fh:          # count every computation
            fh.write(f"{cfg['x']},{cfg['seed']}\\n")
        if kill_after >= 0 and done[0] == kill_after:
            os.kill(os.getpid(), signal.SIGKILL)   # die hard, mid-sweep, before writing this point
        done[0] += 1
        return {"y": cfg["x"] ** 2 + 0.1 * cfg["seed"], "tag": f"p{cfg['x']}"}
    configs = [{"x": x, "seed": s} for x in range(6) for s in range(2)]
    out = sweep(Store(root), {"claim": "demo.sq", "code": "v1"}, configs, fn)
    print(repr(out))
""")


def _run(tmp_path, root, calls, kill_after):
    script = tmp_path / "sweep_script.py"
    script.write_text(SCRIPT)
    return subprocess.run([sys.executable, str(script), str(root), str(calls), str(kill_after)],
                          capture_output=True, text=True, timeout=300)


def test_killed_sweep_resumes_without_recomputing(tmp_path):
    root, calls = tmp_path / "cache", tmp_path / "calls.txt"
    first = _run(tmp_path, root, calls, kill_after=5)
    assert first.returncode != 0  # killed by SIGKILL
    computed_before = calls.read_text().splitlines()
    finished = len(list((root / "demo.sq").glob("*.json")))
    assert finished == 5 and len(computed_before) == 6  # point 6 was being computed when killed
    assert not list((root / "demo.sq").glob(".tmp-*"))  # nothing half-written
    calls.unlink()
    second = _run(tmp_path, root, calls, kill_after=-1)
    assert second.returncode == 0, second.stderr
    recomputed = calls.read_text().splitlines()
    assert len(recomputed) == 12 - 5  # only the missing points
    assert not set(recomputed) & set(computed_before[:5])  # no finished point recomputed
    fresh_calls = tmp_path / "fresh.txt"
    fresh = _run(tmp_path, tmp_path / "fresh-cache", fresh_calls, kill_after=-1)
    assert second.stdout == fresh.stdout  # same results as an uninterrupted sweep
    third = _run(tmp_path, root, calls, kill_after=-1)  # everything cached now
    assert len(calls.read_text().splitlines()) == 7 and third.stdout == fresh.stdout


def test_get_or_compute_roundtrips_and_caches(tmp_path):
    s = st.Store(tmp_path)
    n = [0]

    def fn():
        n[0] += 1
        return {"a": (1, 2.5), "b": None}

    key = {"claim": "c.x", "config": {"T": 0.1}, "seed": 3, "code": "abc"}
    v1 = s.get_or_compute(key, fn)
    v2 = s.get_or_compute(key, fn)
    assert v1 == v2 == {"a": [1, 2.5], "b": None} and n[0] == 1
    assert s.get_or_compute({**key, "seed": 4}, fn) == v1 and n[0] == 2  # new seed: new point
    assert s.get_or_compute({**key, "code": "abd"}, fn) == v1 and n[0] == 3  # new code: new point
    record = json.loads(s.path(key).read_text())
    assert record["key"]["config"] == {"T": 0.1}


def test_code_version_changes_with_source(tmp_path):
    f = tmp_path / "claims_x.py"
    f.write_text("A = 1\n")
    h1 = st.code_version(f)
    f.write_text("A = 2\n")
    assert st.code_version(f) != h1


def test_point_key_holds_libraries_and_seed():
    k = st.point_key({"claim": "c.x", "code": "h"}, {"T": 0.1, "seed": 7})
    assert k["seed"] == 7 and k["config"] == {"T": 0.1} and "torch" in k["libraries"]


def _square(cfg):
    return {"y": cfg["x"] ** 2, "pid_free": True}


def test_sweep_through_joblib_matches_in_process(tmp_path):
    configs = [{"x": x, "seed": 0} for x in range(5)]
    a = st.sweep(None, {"claim": "c.sq"}, configs, _square)
    b = st.sweep(st.Store(tmp_path), {"claim": "c.sq"}, configs, _square, n_jobs=2, backend="threading")
    assert a == b


@pytest.mark.slow
def test_sweep_through_local_dask_cluster_matches_in_process(tmp_path):
    distributed = pytest.importorskip("dask.distributed")

    configs = [{"x": x, "seed": s} for x in range(4) for s in range(2)]
    local = st.sweep(None, {"claim": "c.sq"}, configs, _square)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False) as cluster, \
            distributed.Client(cluster):
        remote = st.sweep(st.Store(tmp_path), {"claim": "c.sq"}, configs, _square, n_jobs=-1, backend="dask")
        resumed = st.sweep(st.Store(tmp_path), {"claim": "c.sq"}, configs + [{"x": 9, "seed": 0}], _square,
                           backend="dask")
    assert remote == local and resumed == local + [{"y": 81, "pid_free": True}]
    with pytest.raises(RuntimeError, match="active distributed.Client"):  # no client: clear error
        st.sweep(None, {"claim": "c.sq"}, configs, _square, backend="dask")
