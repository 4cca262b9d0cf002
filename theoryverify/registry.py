"""The one claim registry: every front-end (pytest, the report, the step checker) reads it.

Papers live in the top-level ``derivations`` package, one sub-package per paper.  A paper
package defines ``PAPER`` (a :class:`~theoryverify.claims.Paper`) in its ``__init__`` and
declares claims in ``claims_*`` modules, each holding a ``CLAIMS`` ClaimSet.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from .claims import Claim, ClaimSet, Paper
from .findings import validate


class UnknownName(LookupError):
    """An unknown paper or claim id (front-ends turn it into a one-line error, exit 2)."""


PAPERS_PACKAGE = "derivations"


@lru_cache(maxsize=None)
def papers() -> dict[str, Paper]:
    root = importlib.import_module(PAPERS_PACKAGE)
    found: dict[str, Paper] = {}
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        mod = importlib.import_module(f"{PAPERS_PACKAGE}.{info.name}")
        paper = getattr(mod, "PAPER", None)
        if isinstance(paper, Paper):
            found[paper.id] = paper
    return found


@lru_cache(maxsize=None)
def _paper_claims(paper_id: str) -> tuple[Claim, ...]:
    pkg = importlib.import_module(f"{PAPERS_PACKAGE}.{paper_id}")
    out: list[Claim] = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.name.startswith("claims_"):
            continue
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        claim_set = getattr(mod, "CLAIMS", None)
        if isinstance(claim_set, ClaimSet):
            out.extend(claim_set)
    ids = [c.id for c in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise RuntimeError(f"duplicate claim ids in paper {paper_id}: {dupes}")
    keys = papers()[paper_id].reconstruction
    for c in out:
        validate(c, keys)
    return tuple(out)


def dangling_references() -> list[str]:
    """Claim ids cited by a finding declaration (``supports``, a reading's status) that are not registered."""
    known = {c.id for c in claims()}
    bad = []
    for c in claims():
        cited = list(c.supports) + (c.readings.cited_claims() if c.readings else [])
        bad += [f"{c.id} cites {ref}" for ref in cited if ref not in known and ref.split(".")[0] in papers()]
    return bad


def claims(paper: str | None = None, claim: str | None = None) -> list[Claim]:
    """Registered claims, optionally of one paper or one claim id (``UnknownName`` if absent)."""
    known = papers()
    if paper is not None and paper not in known:
        raise UnknownName(f"unknown paper id {paper!r} (known: {', '.join(sorted(known))})")
    selected = [c for p in ([paper] if paper else sorted(known)) for c in _paper_claims(p)]
    if claim is not None:
        selected = [c for c in selected if c.id == claim or c.catalogue_id == claim]
        if not selected:
            raise UnknownName(f"unknown claim id {claim!r}")
    return selected


def get(claim_id: str) -> Claim:
    return claims(claim=claim_id)[0]
