"""The guide (docs/verdicts.md) cites real claims: each example claim exists with the class it illustrates."""
import re
from pathlib import Path

from theoryverify import registry

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "verdicts.md"


def test_every_class_example_is_a_registered_claim_of_that_class():
    text = GUIDE.read_text()
    examples = re.findall(r"\*Example:\* (\w+) `([\w-]+)`.*?:\s+`(\w+)`\.", text, flags=re.S)
    assert {cls for _, _, cls in examples} == {"erratum", "proof_gap", "typo", "reading", "reconstruction",
                                               "not_reproducible"}
    for paper, short, cls in examples:
        claim = registry.get(f"{paper}.{short}")
        assert claim.finding is not None and claim.finding.value == cls, (claim.id, claim.finding, cls)
