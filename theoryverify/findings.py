"""Finding classes: what a refutation says about the paper.

Every claim registered as an expected refutation carries exactly one :class:`Finding`, declared where
the claim is registered (``ClaimSet.add(..., expect=Status.REFUTED, finding=Finding.ERRATUM,
reason="...")``).  Only :data:`Finding.ERRATUM` says "the paper is wrong"; the report lists each
class under its own heading, and the CLI and the index count each class.  ``docs/verdicts.md`` tells
a claim author how to choose, with one example of each class.

The engine checks the declaration for consistency (:func:`validate`): a refutation that depends on a
recorded reconstruction choice is a ``reconstruction`` finding unless the claim says why the refutation
survives every admissible reconstruction; a ``reading`` finding names the reading tested and the other
plausible readings with their status; a ``proof_gap`` may name the claims of the statement it
supports, which must exist.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping

from .errors import TheoryverifyError


class Finding(str, Enum):
    """The class of a refutation (issue 13, §1)."""

    ERRATUM = "erratum"
    PROOF_GAP = "proof_gap"
    TYPO = "typo"
    READING = "reading"
    RECONSTRUCTION = "reconstruction"
    NOT_REPRODUCIBLE = "not_reproducible"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value

    @property
    def heading(self) -> str:
        return HEADINGS[self]

    @property
    def meaning(self) -> str:
        return MEANINGS[self]


#: report section headings, in the order the report shows them.
HEADINGS: dict[Finding, str] = {
    Finding.ERRATUM: "Errata",
    Finding.PROOF_GAP: "Proof gaps (the statement is not refuted)",
    Finding.TYPO: "Typos (display-level slips that change no conclusion)",
    Finding.READING: "Refuted under one reading of an ambiguous statement",
    Finding.RECONSTRUCTION: "Refuted on the reconstruction (the paper's own object is lost)",
    Finding.NOT_REPRODUCIBLE: "Not reproducible from the stated information",
}

MEANINGS: dict[Finding, str] = {
    Finding.ERRATUM: "a statement the paper asserts is false as the authors plausibly meant it, within its stated "
                     "hypotheses, on the paper's own model",
    Finding.PROOF_GAP: "a step of a proof is wrong, but the statement it supports is not refuted",
    Finding.TYPO: "a display-level slip whose intended meaning is evident and which changes no conclusion",
    Finding.READING: "false under one reading of an ambiguous statement; other plausible readings are named with "
                     "their status",
    Finding.RECONSTRUCTION: "refuted on a model, constant or formula reconstructed because the paper's own is lost: "
                            "a finding about the reconstruction, not evidence that the paper is wrong",
    Finding.NOT_REPRODUCIBLE: "an experiment cannot be reproduced from the stated information (unstated settings, "
                              "missing model); not an erratum",
}


@dataclass(frozen=True)
class Readings:
    """The readings of an ambiguous statement: the one this claim tests, and the others with their status.

    ``others`` maps each other plausible reading to its status, e.g. ``{"attention on [c, s_i, r]": "holds:
    knowledge.p1-filter"}`` (a claim id after a colon is checked to exist) or ``"untested: needs the lost
    constant"``.  ``costs`` maps a reading (word for word) to what adopting it costs the paper ("the statement
    then holds, but Lemma 7's per-step bound, which its proof uses, does not").
    """

    tested: str
    others: Mapping[str, str] = field(default_factory=dict)
    #: per reading (the tested one or another), what adopting it costs the paper: what the statement loses, or
    #: which step of a proof it leaves unsupported — what a reviewer needs to weigh a finding of one reading
    costs: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = [k for k in self.costs if k != self.tested and k not in self.others]
        if unknown:
            raise RegistrationError(f"readings: a cost names no reading: {unknown[0]!r} (name the tested reading or "
                                    "one of the others, word for word)")

    def to_json(self) -> dict:
        out = {"tested": self.tested, "others": dict(self.others)}
        if self.costs:
            out["costs"] = dict(self.costs)
        return out

    def cited_claims(self) -> list[str]:
        """Claim ids named in the statuses (``"holds: paper.claim-id"``): dotted words after the first colon
        that start with a letter (numbers such as 0.5 are not ids; the registry checks the paper prefix)."""
        out = []
        for status in self.others.values():
            _, _, tail = status.partition(":")
            out += re.findall(r"(?<![\w.])([a-z][a-z0-9_]*\.[A-Za-z0-9][A-Za-z0-9_/-]*[A-Za-z0-9])", tail)
        return out


class RegistrationError(TheoryverifyError, ValueError):
    """A claim's declaration is inconsistent (raised when the claim is registered or the registry loads)."""


def validate(claim, reconstruction_keys: frozenset[str] | None = None) -> None:
    """Raise :class:`RegistrationError` if ``claim``'s finding declaration is inconsistent.

    ``reconstruction_keys``: the reconstruction-choice keys of the claim's paper (``Paper.reconstruction``);
    a choice with one of these keys is a reconstruction dependency.  ``None`` (the paper is not known yet,
    as when a claim is constructed) skips the rules that need them; the registry applies them.
    """
    from .verdicts import Status

    cid = claim.id
    # one id under every profile: a claim whose quick grid cannot decide (inconclusive) but whose full-profile variant
    # (same id) is expected refuted declares its finding like a refuted claim, and every rule below applies to it
    refuted = claim.expect is Status.REFUTED or any(
        getattr(v, "expect", None) is Status.REFUTED and not getattr(v, "id", None)
        for v in (getattr(claim, "variants", None) or {}).values())
    # a claim whose quick evidence lies outside its hypotheses (inconclusive) while a variant with its own id decides
    # inside them (refuted): the finding is declared once, for that variant (expanded() drops it from the base)
    variant_refuted = any(getattr(v, "expect", None) is Status.REFUTED and getattr(v, "id", None)
                          for v in (getattr(claim, "variants", None) or {}).values())
    if refuted and claim.finding is None:
        raise RegistrationError(f"claim {cid}: an expected refutation needs a finding class "
                                f"({', '.join(f.value for f in Finding)})")
    if claim.finding is not None and not refuted and not variant_refuted:
        raise RegistrationError(f"claim {cid}: a finding class ({claim.finding.value}) is declared but the claim "
                                f"is not expected to be refuted")
    if refuted and not claim.reason:
        raise RegistrationError(f"claim {cid}: an expected refutation needs a one-line reason")
    if not refuted:
        if (claim.readings is not None or claim.despite_reconstruction) and not variant_refuted:
            raise RegistrationError(f"claim {cid}: readings / despite_reconstruction belong to refuted claims")
        return
    if reconstruction_keys is None:
        depends = None
    else:
        depends = sorted(set(claim.choices) & reconstruction_keys)
    if depends is None:
        pass
    elif claim.finding is Finding.RECONSTRUCTION:
        if not depends:
            raise RegistrationError(f"claim {cid}: a reconstruction finding must record the reconstruction choices "
                                    f"it depends on (choices keyed by the paper's reconstruction entries)")
        if claim.despite_reconstruction:
            raise RegistrationError(f"claim {cid}: despite_reconstruction contradicts a reconstruction finding")
    elif depends and not claim.despite_reconstruction:
        raise RegistrationError(
            f"claim {cid}: refuted on recorded reconstruction choices ({', '.join(depends)}) but classed "
            f"{claim.finding.value}: class it 'reconstruction', or give despite_reconstruction='why the refutation "
            f"holds under every admissible reconstruction'")
    if claim.finding is Finding.READING:
        r = claim.readings
        if r is None or not r.tested or not r.others:
            raise RegistrationError(f"claim {cid}: a reading finding needs readings=Readings(tested=..., others="
                                    f"{{other reading: its status}}) with at least one other reading")
    if claim.finding is Finding.NOT_REPRODUCIBLE and not claim.choices:
        raise RegistrationError(f"claim {cid}: a not_reproducible finding must record the settings it had to choose "
                                f"(choices)")
