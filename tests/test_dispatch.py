"""The engine's dispatcher: claims run on local worker processes or a Dask cluster give exactly the rows of a
serial run (runtimes aside), in input order; reports built in parallel equal serial ones byte for byte; sweeps
follow the active dispatcher, and run serially inside a worker."""
import json
from pathlib import Path

import pytest

from theoryverify import dispatch, registry
from theoryverify.claims import Claim, Kind, RunContext
from theoryverify.report import markdown
from theoryverify.report.build import build
from theoryverify.store import Store, sweep
from theoryverify.verdicts import holds

# fast claims of two papers (well under a second each, serially): Hypothesis searches that hold, and
# refutations with counterexamples
IDS = ["knowledge.l2-tail", "iclnonlinear.gk-sign-scaled", "knowledge.h-eym-wording",
       "iclnonlinear.lemma1-theta-lower"]
CTX = RunContext(profile="quick", device="cpu")


def _rows(results):
    return [{k: v for k, v in r.to_json().items() if k != "runtime_s"} for r in results]


@pytest.fixture(scope="module")
def claims():
    return [registry.get(i) for i in IDS]


@pytest.fixture(scope="module")
def serial(claims):
    return _rows(dispatch.run_claims(claims, CTX))


@pytest.fixture(scope="module")
def pool():
    """Two local workers, started once for the tests of this module (run_claims and build reuse the active
    dispatcher's pool when they are asked for the same settings)."""
    with dispatch.using(jobs=2) as d:
        yield d


def test_local_processes_give_the_serial_rows_in_order(claims, serial, pool):
    assert {r["status"] for r in serial} >= {"holds", "refuted"}  # both kinds of verdict are compared
    assert any(r["counterexample"] for r in serial)
    results = dispatch.run_claims(claims, CTX, jobs=2)
    assert [r.claim for r in results] == claims
    assert _rows(results) == serial
    assert pool._executor is not None  # the pool was used, not a serial fallback


def test_dask_local_cluster_gives_the_serial_rows(claims, serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        results = dispatch.run_claims(claims, CTX, scheduler=cluster.scheduler_address)
    assert _rows(results) == serial


def _adhoc(ctx):
    return holds("ad hoc", f"seed {ctx.seed}")


def test_a_claim_outside_the_registry_runs_here(claims, serial, pool):
    local = Claim(id="adhoc.one", paper="adhoc", location="-", statement="-", kind=Kind.IDENTITY, check=_adhoc)
    results = dispatch.run_claims([claims[0], local, claims[1]], CTX, jobs=2)
    assert [r.claim.id for r in results] == [IDS[0], "adhoc.one", IDS[1]]
    assert _rows([results[0], results[2]]) == serial[:2]
    assert _rows([results[1]]) == _rows([local.run(CTX)])


def _square(cfg):
    return {"y": cfg["x"] ** 2 + cfg["seed"] / 10}


def test_sweeps_follow_the_active_dispatcher_and_stay_serial_in_a_worker(tmp_path, monkeypatch):
    configs = [{"x": x, "seed": s} for x in range(4) for s in range(2)]
    key = {"claim": "demo.sq", "code": "v1"}
    with dispatch.using():  # serial
        assert dispatch.sweep_options(_square)[:2] == (1, None)
        expected = sweep(None, key, configs, _square)
    with dispatch.using(jobs=2):
        n_jobs, backend, fn = dispatch.sweep_options(_square)
        assert (n_jobs, backend) == (2, "loky") and fn({"x": 3, "seed": 0})["y"] == 9
        assert sweep(Store(tmp_path), key, configs, _square) == expected
        monkeypatch.setattr(dispatch, "_IN_WORKER", True)  # as in a dispatched worker: no nested pool
        assert dispatch.sweep_options(_square)[:2] == (1, None)


def test_bad_options_are_one_line_errors():
    with pytest.raises(dispatch.DispatchError, match="at least 1"):
        dispatch.run_claims([], CTX, jobs=0)
    with pytest.raises(dispatch.DispatchError, match="not both"):
        dispatch.run_claims([], CTX, jobs=2, scheduler="tcp://127.0.0.1:9")


def test_unreachable_scheduler_is_a_one_line_error(claims):
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(dispatch.DispatchError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
            dispatch.run_claims(claims[:2], CTX, scheduler="tcp://127.0.0.1:9")


def _report(tmp: Path, name: str, **kw) -> dict[str, str]:
    build(["iclnonlinear", "knowledge"], profile="quick", device="cpu", seed=7, out=tmp / name, fresh=False,
          command="python -m theoryverify.report", only=IDS[:4], store_root=tmp / f"{name}-store", **kw)
    files = {}
    for f in sorted((tmp / name).rglob("*")):
        if f.is_file():
            data = f.read_bytes()
            if f.suffix in (".md", ".html"):  # the line naming when the page was generated and how long it took
                data = b"\n".join(l for l in data.split(b"\n") if not l.startswith(markdown.GENERATED_PREFIX.encode()))
            elif f.name.endswith(".run.json"):  # the run's metadata: its time is the one field that must differ
                run = json.loads(data)
                assert "UTC" in run.pop("generated")
                data = json.dumps(run, sort_keys=True).encode()
            files[str(f.relative_to(tmp / name))] = data
    return files


def test_parallel_report_equals_the_serial_one_byte_for_byte(tmp_path, pool):
    serial = _report(tmp_path, "serial")
    parallel = _report(tmp_path, "parallel", jobs=2)
    assert {"iclnonlinear.md", "knowledge.md", "index.md"} <= set(serial)
    assert sorted(parallel) == sorted(serial)
    for name in serial:
        assert parallel[name] == serial[name], f"{name} differs"


def test_report_cli_options(tmp_path, capsys):
    from theoryverify.report.__main__ import _without_dispatch, main

    assert _without_dispatch(["--paper", "x", "--jobs", "2", "--scheduler=tcp://h:1", "--fresh"]) == \
        ["--paper", "x", "--fresh"]
    for argv in (["--jobs", "0"], ["--jobs", "2", "--scheduler", "tcp://h:1"]):
        with pytest.raises(SystemExit) as exc:
            main([*argv, "--out", str(tmp_path)])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("theoryverify.report: error:") and err.count("\n") == 1
