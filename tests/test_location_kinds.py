"""A paper's "Claim 1" (and Conjecture, Fact, Observation, Example) is a location kind (issue 29, second trial):
it reaches the location table under its own name instead of "Elsewhere"; lower-case prose is not a location."""
from theoryverify.locations import location_refs
from theoryverify.report.page import section_of


def test_claim_and_other_theorem_like_kinds_are_locations():
    assert location_refs("Claim 1 (uniform convergence of Fourier features)") == ["Claim 1"]
    assert section_of("Claim 1 (uniform convergence of Fourier features)") == "Claim 1"
    assert location_refs("Conjecture 2, Fact 3.1, Observation 4, Ex. 5") == [
        "Conjecture 2", "Fact 3.1", "Observation 4", "Example 5"]
    assert section_of("Sec. 3, Claim 1") == "Section 3"
    assert location_refs("the claim 1 is, in fact 2 ways") == []
