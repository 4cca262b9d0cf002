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
    cov = catalogue.coverage(spec, (i for c in registry.claims(paper=paper) for i in c.catalogue_ids))
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


def test_a_claim_may_cover_several_catalogue_ids(tmp_path, monkeypatch):
    """Issue 29, author 5, defect 11: coverage read "5 of 11" where each lemma's claim also decides its display;
    ``catalogue_id=("A", "B")`` (or ``covers=``) counts every id, selects the claim by any of them, and leaves
    the row of a claim with one id unchanged."""
    import theoryverify as tv
    claims = tv.ClaimSet("ab")

    @claims.add("e1", location="Lemma 1", statement="s", kind=tv.Kind.IDENTITY,
                catalogue_id=("AB-E1-def", "AB-L2/L3-pair"))
    def e1(ctx):
        return tv.proved("exact", "ok")

    @claims.add("t4", location="Theorem 4", statement="s", kind=tv.Kind.IDENTITY, catalogue_id="AB-T4-rate")
    def t4(ctx):
        return tv.proved("exact", "ok")

    one, two = claims.claims
    assert one.catalogue_id == "AB-E1-def" and one.covers == ("AB-L2/L3-pair",)
    assert one.catalogue_ids == ("AB-E1-def", "AB-L2/L3-pair") and two.catalogue_ids == ("AB-T4-rate",)
    rows = [c.run(tv.RunContext(seed=0)).to_json() for c in claims]
    assert rows[0]["covers"] == ["AB-L2/L3-pair"] and "covers" not in rows[1]
    (tmp_path / "ab.md").write_text(SPEC)
    monkeypatch.setenv(catalogue.SPEC_DIR_ENV, str(tmp_path))
    cov = catalogue.coverage("ab.md", catalogue.row_ids(rows))
    assert cov.missing == () and cov.total == 3
    other = tv.ClaimSet("ab")
    other.add("x", location="L", statement="s", kind=tv.Kind.IDENTITY, covers=["AB-T4-rate"],
              catalogue_id="AB-E1-def")(lambda ctx: None)
    assert other.claims[0].catalogue_ids == ("AB-E1-def", "AB-T4-rate")


def test_coverage_line_says_no_claim_declares_an_id_when_the_catalogue_is_found(tmp_path, monkeypatch):
    """A found catalogue with no claim naming a catalogue id is not "not found" (held-out author 6, defect 1)."""
    (tmp_path / "ab.md").write_text(SPEC)
    monkeypatch.setenv(catalogue.SPEC_DIR_ENV, str(tmp_path))
    line = catalogue.coverage_line("ab.md", [None, None])
    assert "no claim declares a catalogue id" in line and "not found" not in line
    assert catalogue.coverage_line("ab.md", ["AB-E1-def"]).startswith("1 of 3 catalogue ids")
    missing = catalogue.coverage_line("zz.md", ["AB-E1-def"])
    assert "catalogue `zz.md` not found" in missing and catalogue.SPEC_DIR_ENV in missing
