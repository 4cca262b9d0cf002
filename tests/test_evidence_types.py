"""Typed evidence (issue 27, items 0 and 4): checks build evidence objects (a sweep, a fit, configurations, a
counterexample, coverage, a proof naming its algebra, a could-have-failed record), serialised to the same JSON
details the reports and the older key-walking read, and read as objects by the standards.  A main result's pass
that records no evidence cannot pass; every main pass records what it ranges over and how it could have failed."""
import json

import numpy as np
import pytest
import sympy as sp

from theoryverify import scaling
from theoryverify.checks import check_identity, check_mc_mean
from theoryverify.claims import Claim, Kind
from theoryverify.conditions import Condition, Over
from theoryverify.domains import Domain, Interval
from theoryverify.evidence import configurations
from theoryverify.evidence_types import (KEY, Configurations, CouldHaveFailed, Fit, Proof, Sweep, attach, read,
                                         records_evidence)
from theoryverify.report.markdown import main_results_section
from theoryverify.verdicts import Status, combine, holds, proved

x, y = sp.symbols("x y", real=True)
BOX = Domain([Interval(x, -3, 3), Interval(y, -3, 3)])


def claim(check, kind=Kind.IDENTITY, location="Theorem 1", **kw):
    return Claim("p.c", "p", location, "statement", kind, check, **kw)


def test_typed_sweep_serialises_to_the_conventional_keys_and_reads_back_as_objects():
    v = attach(holds("own fit", "slope agrees"), Sweep("K", (4, 8, 16, 32, 64), fixed={"eps": 0.1}),
               Fit("y ≈ C·K^b", 2.0, (1.95, 2.05), 2.0, 0.1),
               CouldHaveFailed("planted twin", "y = K^3 is refuted by the same fit (tests/...)"))
    j = json.loads(json.dumps(v.to_json()))
    d = j["details"]
    assert d["sweep"]["param"] == "K" and d["sweep"]["x"] == [4, 8, 16, 32, 64] and d["sweep"]["fixed"] == {"eps": 0.1}
    assert d["fit"]["exponent"] == 2.0 and d[KEY]["attached"] == ["sweep", "fit", "could_have_failed"]
    objs = read(d)
    assert isinstance(objs["sweep"], Sweep) and objs["sweep"].span_decades == pytest.approx(np.log10(16))
    assert isinstance(objs["fit"], Fit) and objs["could_have_failed"].how == "planted twin"
    assert {c["K"] for c in configurations(j)} == {4, 8, 16, 32, 64}
    with pytest.raises(ValueError):
        CouldHaveFailed("trust me", "")


def test_a_check_that_records_only_typed_evidence_is_inside_the_standards():
    # a narrow typed sweep: the span rule reads it (the check never named a "sweep" key itself)
    narrow = claim(lambda ctx: attach(holds("own", "fine"), Sweep("K", (6, 9, 13, 18, 24))), kind=Kind.RATE).run()
    assert narrow.verdict.status is Status.INCONCLUSIVE and "0.60 decades in K" in narrow.verdict.evidence
    # typed configurations are checked against the hypotheses
    cond = Condition("K ≥ 10", lambda c: c["K"] >= 10, needs=("K",))
    out = claim(lambda ctx: attach(holds("own", "fine"), Configurations(({"K": 4}, {"K": 40}))),
                conditions=(cond,)).run()
    assert out.verdict.status is Status.INCONCLUSIVE and "K ≥ 10" in out.verdict.evidence


def test_planted_main_result_pass_without_evidence_is_inconclusive():
    bare = lambda ctx: holds("float64 eigvalsh", "λ_min < 0 at all T")  # no sweep, no configurations, nothing
    r = claim(bare).run()
    assert r.verdict.status is Status.INCONCLUSIVE
    assert "records no evidence" in r.verdict.evidence and r.verdict.details["downgraded"]["rule"] == "main_result"
    # the same pass of a claim that is no main result (an equation) is left alone
    assert claim(bare, location="Eq. (3)").run().verdict.status is Status.HOLDS
    # and a main result with conventional evidence passes
    ok = claim(lambda ctx: holds("own", "fine", configurations=[{"K": 4}, {"K": 8}])).run()
    assert ok.verdict.status is Status.HOLDS and ok.verdict.details["main_result"]["evidence"] == ["configurations"]


def test_an_identity_proved_by_algebra_is_proved_naming_the_algebra():
    r = claim(lambda ctx: check_identity((x + y) ** 2, x ** 2 + 2 * x * y + y ** 2, BOX, ctx.seed),
              over=(Over("x", -3, 3), Over("y", -3, 3))).run()
    assert r.verdict.status is Status.PROVED
    proof = read(r.verdict.to_json()["details"])["proof"]
    assert isinstance(proof, Proof) and "SymPy" in proof.algebra and set(proof.over) == {"x", "y"}
    rec = r.verdict.details["main_result"]
    assert rec["over"] and rec["ranges"] == {"x": "symbolic", "y": "symbolic"}
    assert rec["could_have_failed"][0].startswith("by construction: an identity of algebra")


def test_engine_checks_attach_could_have_failed_and_the_report_shows_it():
    def rate(ctx):
        k = np.array([4.0, 8, 16, 32, 64])
        return scaling.check_rate(k, k ** 2, 2.0, 0.1, ctx.seed, param="K")
    def mc(ctx):
        return check_mc_mean(lambda rng, n: rng.standard_normal(n), 0.0, ctx.seed, n=20_000, resolution=0.05)
    def float_identity(ctx):
        return check_identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1), Domain([Interval(x, -3, 3)]), ctx.seed,
                              try_symbolic=False)
    rows = []
    for check, kind, how in ((rate, Kind.RATE, "test power"), (mc, Kind.IDENTITY, "test power"),
                             (float_identity, Kind.IDENTITY, "search")):
        r = claim(check, kind=kind).run()
        assert r.verdict.status in (Status.HOLDS, Status.PROVED), r.verdict.evidence
        assert r.verdict.details["main_result"]["could_have_failed"][0].startswith(how)
        rows.append(r.to_json())
    text = "\n".join(main_results_section(rows))
    assert "could it have failed" in text and "test power" in text and "search" in text


def test_combined_passes_collect_their_parts_records():
    def check(ctx):
        k = np.array([4.0, 8, 16, 32, 64])
        return combine({"fit": scaling.check_rate(k, k ** 2, 2.0, 0.1, ctx.seed, param="K"),
                        "algebra": check_identity(x * (x + 1), x ** 2 + x, Domain([Interval(x, 0, 1)]), ctx.seed)})
    r = claim(check, kind=Kind.RATE).run()
    rec = r.verdict.details["main_result"]
    assert r.verdict.status is Status.HOLDS
    assert any(t.startswith("[fit] test power") for t in rec["could_have_failed"])
    assert any(t.startswith("[algebra] by construction") for t in rec["could_have_failed"])
    assert not records_evidence({}) and records_evidence({"fixed": {"n": 3}})


def test_a_symbolic_proof_is_its_own_evidence():
    assert claim(lambda ctx: proved("symbolic: factor", "exact law"), kind=Kind.RATE).run().verdict.status \
        is Status.PROVED
    assert claim(lambda ctx: proved("by hand", "trust me")).run().verdict.status is Status.INCONCLUSIVE


def test_lemmas_are_main_results_only_when_registered_so():
    bare = lambda ctx: holds("exact", "all 16 families")
    assert claim(bare, location="Lemma 3").run().verdict.status is Status.HOLDS
    main_lemma = claim(bare, location="Lemma 3", main=True).run()
    assert main_lemma.verdict.status is Status.INCONCLUSIVE and "records no evidence" in main_lemma.verdict.evidence
    assert claim(bare, location="Theorem 2", main=False).run().verdict.status is Status.HOLDS


def test_thresholds_and_reported_values_are_references_not_evidence():
    """A threshold or the paper's reported values say what a figure must draw; no verdict rests on them, so a
    level that records only them still records no evidence (the standards cannot be met by naming τ)."""
    from theoryverify.evidence_types import Reported, Threshold, records_evidence, references
    v = attach(holds("m", "e"), Threshold(0.05, "τ = 0.05"), Threshold(50, "T_1", axis="x", figure="trajectory"),
               Reported(((30, 0.6), (110, 0.1)), "Fig. 1(b)"))
    assert not records_evidence(v.details) and read(v.details) == {}
    ths, reps = references(v.details, "trajectory")
    assert [t["value"] for t in ths] == [0.05, 50.0] and ths[1]["axis"] == "x"
    assert reps == [{"points": [(30, 0.6), (110, 0.1)], "source": "Fig. 1(b)"}]
    assert [t["value"] for t in references(v.details, "curve")[0]] == [0.05]
    for bad in (lambda: Threshold(float("nan"), "x"), lambda: Threshold(1, "x", axis="z"),
                lambda: Threshold(1, "x", figure="table"), lambda: Reported(((1,),), "s"), lambda: Reported((), "s")):
        with pytest.raises(ValueError):
            bad()
