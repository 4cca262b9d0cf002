"""Finding classes: declared where a claim is registered, checked for consistency, carried to the JSON
rows, the CLI summary and the report's sections (only `erratum` under "Errata")."""
import pytest

from theoryverify import registry
from theoryverify.claims import Claim, Kind, Paper
from theoryverify.findings import Finding, Readings, RegistrationError, validate
from theoryverify.verdicts import Status, refuted


def refuting(ctx):
    return refuted("m", "planted", {"x": 1})


def make(**kw):
    return Claim("p.c", "p", "Lemma 1", "s", Kind.IDENTITY, refuting, **kw)


def test_an_expected_refutation_needs_a_class_and_a_reason():
    with pytest.raises(RegistrationError, match="finding class"):
        make(expect=Status.REFUTED, reason="r")
    with pytest.raises(RegistrationError, match="reason"):
        make(expect=Status.REFUTED, finding=Finding.ERRATUM)
    with pytest.raises(RegistrationError, match="not expected to be refuted"):
        make(finding=Finding.ERRATUM, reason="r")
    assert make(expect=Status.REFUTED, finding="typo", reason="r").finding is Finding.TYPO


def test_a_finding_may_belong_to_a_refuted_variant_only():
    """Quick evidence outside the hypotheses (inconclusive), the full variant deciding inside them (refuted):
    the finding is declared once and lands on the variant, not on the quick claim."""
    from theoryverify.claims import Variant
    c = make(expect=Status.INCONCLUSIVE, finding=Finding.RECONSTRUCTION, reason="r",
             variants={"full": Variant(expect=Status.REFUTED, id="c-full")})
    base, full = c.expanded()
    assert (base.expect, base.finding) == (Status.INCONCLUSIVE, None)
    assert (full.id, full.expect, full.finding) == ("p.c-full", Status.REFUTED, Finding.RECONSTRUCTION)
    with pytest.raises(RegistrationError, match="not expected to be refuted"):  # no profile expects a refutation
        make(expect=Status.INCONCLUSIVE, finding=Finding.RECONSTRUCTION, reason="r",
             variants={"full": Variant(expect=Status.INCONCLUSIVE)})


def test_a_variant_of_the_same_id_expected_refuted_declares_its_class():
    """Session 43: one id under both profiles, inconclusive on the quick grid and refuted on the full one (knowledge
    t2-onestep-given-p1). The refutation needs its class and reason like any other — it had needed none, since only
    the quick expectation was validated; the class shows on the refuted (full) row only."""
    from theoryverify.claims import RunContext, Variant
    with pytest.raises(RegistrationError, match="finding class"):
        make(expect=Status.INCONCLUSIVE, variants={"full": Variant(expect=Status.REFUTED)})
    with pytest.raises(RegistrationError, match="reason"):
        make(expect=Status.INCONCLUSIVE, finding=Finding.TYPO, variants={"full": Variant(expect=Status.REFUTED)})
    c = make(expect=Status.INCONCLUSIVE, finding=Finding.TYPO, reason="r",
             variants={"full": Variant(expect=Status.REFUTED)})
    full = c.run(RunContext(profile="full"))
    assert full.as_expected and full.finding is Finding.TYPO


def test_reconstruction_dependence_forces_the_reconstruction_class():
    keys = frozenset({"RC-1", "mu_c"})
    c = make(expect=Status.REFUTED, finding=Finding.ERRATUM, reason="r", choices={"RC-1": "causal"})
    with pytest.raises(RegistrationError, match="reconstruction"):
        validate(c, keys)
    validate(make(expect=Status.REFUTED, finding=Finding.RECONSTRUCTION, reason="r", choices={"RC-1": "c"}), keys)
    validate(make(expect=Status.REFUTED, finding=Finding.ERRATUM, reason="r", choices={"RC-1": "causal"},
                  despite_reconstruction="the printed display contradicts itself"), keys)
    with pytest.raises(RegistrationError, match="must record"):
        validate(make(expect=Status.REFUTED, finding=Finding.RECONSTRUCTION, reason="r"), keys)


def test_a_reading_finding_names_the_other_readings():
    with pytest.raises(RegistrationError, match="other reading"):
        make(expect=Status.REFUTED, finding=Finding.READING, reason="r")
    with pytest.raises(RegistrationError, match="other reading"):
        make(expect=Status.REFUTED, finding=Finding.READING, reason="r", readings=Readings("on [c, s]"))
    c = make(expect=Status.REFUTED, finding=Finding.READING, reason="r",
             readings=Readings("on [c, s]", {"on [c, s, r]": "holds: knowledge.p1-filter"}))
    assert c.readings.cited_claims() == ["knowledge.p1-filter"]


def test_not_reproducible_records_the_settings_it_chose():
    with pytest.raises(RegistrationError, match="settings"):
        make(expect=Status.REFUTED, finding=Finding.NOT_REPRODUCIBLE, reason="r")


def test_the_shipped_registry_is_consistent():
    claims = registry.claims()
    refuted_claims = [c for c in claims if c.expect is Status.REFUTED]
    assert refuted_claims and all(c.finding is not None and c.reason for c in refuted_claims)
    assert registry.dangling_references() == []
    for c in claims:
        validate(c, registry.papers()[c.paper].reconstruction)


def test_json_summary_and_report_carry_the_class(monkeypatch):
    from theoryverify import render
    from theoryverify.report import markdown

    rows = []
    for i, f in enumerate(Finding):
        extra = {"readings": Readings("a", {"b": "untested: lost"})} if f is Finding.READING else {}
        extra.update({"choices": {"setting": "chosen"}} if f in (Finding.NOT_REPRODUCIBLE,) else {})
        c = Claim(f"p.c{i}", "p", "Lemma 1", "s", Kind.IDENTITY, refuting, expect=Status.REFUTED, finding=f,
                  reason=f"reason {f.value}", **extra)
        rows.append(c.run())
    summary = render.summary(rows)
    for f in Finding:
        assert f"{f.value}: 1" in summary
    js = [r.to_json() for r in rows]
    assert [j["finding"] for j in js] == [f.value for f in Finding]
    text = "\n".join(markdown.summary(js))
    errata = text.split("### Errata (1)")[1].split("###")[0]
    assert "reason erratum" in errata and "reason typo" not in errata
    for f in Finding:
        assert f"### {f.heading} (1)" in text
    assert "Refutations by finding class: 1 erratum, 1 proof_gap" in text
