"""Paper locations named in a claim's ``location`` ("Thm 5.5, App. C.2 Eq. (24)"), normalised
("Theorem 5.5", "Appendix C.2", "Eq. 24"; theorem-like kinds include Claim, Conjecture, Fact, Observation and
Example), for the generated map from paper location to claim ids
(``python -m theoryverify locations``, the report's last section)."""
from __future__ import annotations

import re

_KINDS = (("Theorem", r"Theorems?|Thms?\.?"), ("Lemma", r"Lemmas?"), ("Proposition", r"Propositions?|Props?\.?"),
          ("Corollary", r"Corollar(?:y|ies)|Cor\.?"), ("Claim", r"Claims?"), ("Conjecture", r"Conjectures?"),
          ("Fact", r"Facts?"), ("Observation", r"Observations?"), ("Example", r"Examples?|Ex\."), ("Definition", r"Definitions?|Defs?\.?"),
          ("Assumption", r"Assumptions?"), ("Remark", r"Remarks?"), ("Eq.", r"Equations?|Eqs?\.?"),
          ("Figure", r"Figures?|Figs?\.?"), ("Table", r"Tables?"), ("Section", r"Sections?|Secs?\.?|§"),
          ("Appendix", r"Appendix|Appendices|App\.?"), ("Algorithm", r"Algorithms?|Alg\.?"))
_REF = re.compile(r"\b(?P<kind>" + "|".join(f"(?:{p})" for _, p in _KINDS) + r")\s*\(?(?P<num>[A-Z]?\d+(?:\.\d+)*[a-z]?"
                  r"|[A-H](?:\.\d+)*\b)\)?")


def _kind_name(word: str) -> str:
    for name, pattern in _KINDS:
        if re.fullmatch(pattern, word):
            return name
    return word


def location_refs(location: str) -> list[str]:
    """The paper locations a claim's ``location`` names, normalised ("Thm 5.5, App. C.2 Eq. (24)" →
    ["Theorem 5.5", "Appendix C.2", "Eq. 24"])."""
    out = []
    for m in _REF.finditer(location):
        ref = f"{_kind_name(m.group('kind'))} {m.group('num')}"
        if ref not in out:
            out.append(ref)
    return out


def ref_key(ref: str) -> tuple:
    """Sort key: kind in the order above (theorems first), then the number part by part."""
    order = {name: i for i, (name, _) in enumerate(_KINDS)}
    kind, _, num = ref.partition(" ")
    return (order.get(kind, len(order)), [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in num.split(".")])
