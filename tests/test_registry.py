"""The claim registry is well-formed: unique ids, catalogue ids, errata with reasons."""
import re

from theoryverify import registry
from theoryverify.verdicts import Status


def test_registry_is_well_formed():
    claims = registry.claims()
    assert claims, "no claims registered"
    ids = [c.id for c in claims]
    assert len(ids) == len(set(ids))
    for c in claims:
        assert c.paper in registry.papers()
        assert c.location and c.statement
        if c.catalogue_id is not None:
            assert re.fullmatch(r"[A-Z][A-Za-z0-9]*(-[A-Za-z0-9]+(/[A-Za-z0-9]+)?)+", c.catalogue_id), c.catalogue_id
        if c.expect is Status.REFUTED:
            assert c.reason and c.finding is not None


def test_unknown_names_raise():
    import pytest

    with pytest.raises(registry.UnknownName):
        registry.claims(paper="nope")
    with pytest.raises(registry.UnknownName):
        registry.claims(claim="nope.nope")


def test_seeds_depend_on_claim_id_not_order():
    from theoryverify.claims import RunContext

    a = RunContext(seed=1).for_claim("icrecall.table2").seed
    b = RunContext(seed=1).for_claim("icrecall.table2").seed
    c = RunContext(seed=1).for_claim("icrecall.eq4").seed
    assert a == b != c
