"""Catalogue coverage: which of a paper's catalogue ids (the stable ``**PREFIX-...**`` ids of its
spec) have a registered claim, and which have none.

The specs (and the paper texts) live outside the repository (``../shared/spec`` next to a checkout, or the folder named
by ``THEORYVERIFY_SPEC_DIR``); where no spec is found, coverage is reported as unknown, never as
complete."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

SPEC_DIR_ENV = "THEORYVERIFY_SPEC_DIR"
PAPERS_DIR_ENV = "THEORYVERIFY_PAPERS_DIR"
_REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Coverage:
    total: int
    covered: tuple[str, ...]
    missing: tuple[str, ...]

    def line(self) -> str:
        text = f"{len(self.covered)} of {self.total} catalogue ids have a verdict"
        return text + (f"; without one: {', '.join(self.missing)}" if self.missing else "")


def _shared(env_name: str, default: str) -> Path | None:
    env = os.environ.get(env_name)
    for cand in ([Path(env)] if env else []) + [_REPO.parent / "shared" / default]:
        if cand.is_dir():
            return cand
    return None


def spec_dir() -> Path | None:
    """The folder holding the catalogues (``$THEORYVERIFY_SPEC_DIR`` or ``../shared/spec``), or None."""
    return _shared(SPEC_DIR_ENV, "spec")


def papers_dir() -> Path | None:
    """The folder holding the paper texts (``$THEORYVERIFY_PAPERS_DIR`` or ``../shared/papers``), or None."""
    return _shared(PAPERS_DIR_ENV, "papers")


def catalogue_ids(text: str, prefixes: Iterable[str]) -> list[str]:
    """The bold ids ``**P-...**`` with a prefix P in ``prefixes``, unique, in order of appearance."""
    alt = "|".join(re.escape(p) for p in sorted(set(prefixes)))
    if not alt:
        return []
    found = re.findall(rf"\*\*((?:{alt})-[A-Za-z0-9/.-]*[A-Za-z0-9])\.?\*\*", text)
    return list(dict.fromkeys(found))


def coverage(spec_file: str, claimed: Iterable[str | None]) -> Coverage | None:
    """Coverage of the catalogue ``spec_file`` by the catalogue ids in ``claimed`` (prefixes are
    taken from those ids); None when the catalogue cannot be found."""
    folder = spec_dir()
    claimed = {c for c in claimed if c}
    if folder is None or not (folder / spec_file).is_file() or not claimed:
        return None
    ids = catalogue_ids((folder / spec_file).read_text(encoding="utf-8"), {c.split("-")[0] for c in claimed})
    return Coverage(len(ids), tuple(i for i in ids if i in claimed), tuple(i for i in ids if i not in claimed))
