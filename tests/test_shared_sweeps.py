"""Shared sweeps (issue 29, item 3): claims that read the same sweep compute it once, keyed by the sweep's name, its
code (module closure and the function's own digest) and each point's parameters — never by the claim."""
from __future__ import annotations

import importlib
import sys
import textwrap

import numpy as np
import pytest

import theoryverify as tv
from theoryverify import shared_sweeps

CALLS: list[dict] = []


def measure(config):
    CALLS.append(dict(config))
    return {"t": config["s"] * 2.0 + config["seed"] % 7}


@pytest.fixture(autouse=True)
def fresh():
    shared_sweeps.forget()
    CALLS.clear()
    yield
    shared_sweeps.forget()


def _claims():
    claims = tv.ClaimSet("sharetest")
    grid = [1.0, 2.0, 4.0]

    def times(ctx):
        seed = ctx.shared_seed("times")
        return [v["t"] for v in tv.shared_sweep(measure, [{"s": s, "seed": seed} for s in grid], name="times")]

    @claims.add("rate", location="Thm 1", statement="t = 2s", kind=tv.Kind.IDENTITY)
    def rate(ctx):
        t = times(ctx)
        return tv.holds("shared sweep", f"{t}")

    @claims.add("rate-planted", location="Thm 1 (planted)", statement="t = 3s", kind=tv.Kind.IDENTITY)
    def planted(ctx):
        t = times(ctx)
        return tv.holds("shared sweep", f"{t}")

    return claims


def test_a_claim_and_its_planted_twin_run_the_sweep_body_once():
    claims = _claims()
    first, second = (c.run(tv.RunContext(seed=3)) for c in claims)
    assert len(CALLS) == 3, CALLS  # three points, computed for the first claim only
    assert first.verdict.evidence == second.verdict.evidence
    assert first.context.seed != second.context.seed  # the claims' own seeds differ; the sweep's does not


def test_other_parameters_run_it_again():
    a = tv.shared_sweep(measure, [{"s": 1.0, "seed": 0}, {"s": 2.0, "seed": 0}], name="times")
    b = tv.shared_sweep(measure, [{"s": 1.0, "seed": 0}, {"s": 2.0, "seed": 0}], name="times")
    assert a == b and len(CALLS) == 2
    tv.shared_sweep(measure, [{"s": 1.0, "seed": 1}, {"s": 3.0, "seed": 0}], name="times")  # other seed, other s
    assert len(CALLS) == 4
    tv.shared_sweep(measure, [{"s": 1.0, "seed": 0}], name="other-sweep")  # another name is another sweep
    assert len(CALLS) == 5
    other_run = [tv.RunContext(seed=s).for_claim("sharetest.rate").shared_seed("times") for s in (1, 2)]
    assert other_run[0] != other_run[1]  # --seed still changes the sweep


def test_a_changed_function_body_is_not_reused(tmp_path, monkeypatch):
    module = tmp_path / "sweepbody_mod.py"
    module.write_text(textwrap.dedent("""
        HITS = []
        def measure(config):
            HITS.append(config["s"])
            return config["s"] + 1
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("sweepbody_mod")
    configs = [{"s": 1, "seed": 0}, {"s": 2, "seed": 0}]
    assert tv.shared_sweep(mod.measure, configs, name="body") == [2, 3]
    assert tv.shared_sweep(mod.measure, configs, name="body") == [2, 3] and mod.HITS == [1, 2]
    module.write_text(module.read_text().replace("config[\"s\"] + 1", "config[\"s\"] + 10"))
    from theoryverify import closure
    closure.module_closure.cache_clear()
    mod = importlib.reload(mod)
    assert tv.shared_sweep(mod.measure, configs, name="body") == [11, 12] and mod.HITS == [1, 2]
    sys.modules.pop("sweepbody_mod", None)


def test_a_function_closing_over_another_value_is_another_sweep():
    def make(k):
        def fn(config):
            CALLS.append(config)
            return k * config["s"]
        return fn

    assert tv.shared_sweep(make(2), [{"s": 1}], name="factory") == [2]
    assert tv.shared_sweep(make(3), [{"s": 1}], name="factory") == [3]
    assert tv.shared_sweep(make(2), [{"s": 1}], name="factory") == [2]
    assert len(CALLS) == 2
    weights = np.arange(3.0)
    assert tv.shared_sweep(make(weights), [{"s": 1}], name="factory") == [[0.0, 1.0, 2.0]]
    assert tv.shared_sweep(make(weights + 1), [{"s": 1}], name="factory") == [[1.0, 2.0, 3.0]]
    assert len(CALLS) == 4


def test_a_store_shares_points_between_processes_and_runs(tmp_path):
    store = tv.Store(tmp_path / "cache")
    configs = [{"s": 1.0, "seed": 0}]
    first = tv.shared_sweep(measure, configs, name="times", store=store)
    shared_sweeps.forget()  # as a new process would start
    assert tv.shared_sweep(measure, configs, name="times", store=store) == first and len(CALLS) == 1
    assert list((tmp_path / "cache").rglob("*.json"))
