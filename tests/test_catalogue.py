"""Catalogue coverage: the id parser, and every paper's catalogue fully registered (where the
catalogues are present next to the checkout)."""
import pytest

from theoryverify import catalogue, registry

SPEC = """## Claims
1. **AB-E1-def** (Eq. 1) ... see **AB-E1-def** again; a tag **PROSE-ONLY**; **AB-L2/L3-pair** (Lemmas 2, 3)
- **AB-T4-rate.** trailing dot; **CD-X1** other paper
"""


def test_parser_keeps_prefix_order_and_slash_ids():
    assert catalogue.catalogue_ids(SPEC, {"AB"}) == ["AB-E1-def", "AB-L2/L3-pair", "AB-T4-rate"]
    assert catalogue.catalogue_ids(SPEC, set()) == []


def test_missing_ids_are_reported(tmp_path, monkeypatch):
    (tmp_path / "ab.md").write_text(SPEC)
    monkeypatch.setenv(catalogue.SPEC_DIR_ENV, str(tmp_path))
    cov = catalogue.coverage("ab.md", ["AB-E1-def", None, "AB-T4-rate"])
    assert cov.missing == ("AB-L2/L3-pair",) and cov.total == 3
    assert "without one: AB-L2/L3-pair" in cov.line()


@pytest.mark.parametrize("paper", sorted(registry.papers()))
def test_every_catalogue_id_has_a_claim(paper):
    spec = registry.papers()[paper].spec
    cov = catalogue.coverage(spec, (c.catalogue_id for c in registry.claims(paper=paper)))
    if cov is None:
        pytest.skip(f"catalogue {spec} not present next to this checkout")
    assert not cov.missing, cov.line()


def test_unavailable_input_is_inconclusive_and_flagged():
    from theoryverify.claims import Claim, Kind, Unavailable
    from theoryverify.verdicts import Status, holds

    def needs_text(ctx):
        raise Unavailable("paper text not found")

    r = Claim("x.a", "x", "Eq. 1", "s", Kind.IDENTITY, needs_text).run()
    assert r.verdict.status is Status.INCONCLUSIVE and r.unavailable == "paper text not found"
    ok = Claim("x.b", "x", "Eq. 1", "s", Kind.IDENTITY, lambda ctx: holds("m", "e")).run()
    assert ok.unavailable is None


def test_unavailable_is_reported_apart_from_unexpected_verdicts():
    from theoryverify import render
    from theoryverify.claims import Claim, Kind, Unavailable
    from theoryverify.report import markdown
    from theoryverify.verdicts import Status

    def needs_text(ctx):
        raise Unavailable("paper text not found")

    r = Claim("x.a", "x", "Eq. 1", "s", Kind.IDENTITY, needs_text, expect=Status.REFUTED, finding="erratum", reason="e").run()
    assert not r.as_expected
    assert "0 differ" in render.summary([r]) and "1 not checkable here" in render.summary([r])
    text = "\n".join(markdown.summary([r.to_json()]))
    assert "not checkable here" in text and "differ from the registry" not in text
