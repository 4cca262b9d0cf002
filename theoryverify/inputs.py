"""The inputs outside the repository that a paper's report uses: its text and its claim catalogue.

Neither ships with the code (they are other people's text).  Each is looked up on the search path of
:mod:`theoryverify.catalogue` and compared, by SHA-256, with the checksum the paper records
(``Paper.file_sha256`` / ``Paper.spec_sha256``), so a user can tell whether a report made here can equal the
committed one:

* the catalogue is read by every report (the "Catalogue coverage" line; "unknown" without it);
* the text is read only by papers with ``Paper.reads_text`` (their claims that quote it are "not checkable
  here" without it), and its checksum is then part of every stored result of that paper, so a result computed
  with one text is never reused with another or with none.

An input is ``found`` (the recorded checksum, or none recorded), ``differs`` (another checksum) or ``missing``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from . import catalogue, registry

FOUND, DIFFERS, MISSING = "found", "differs", "missing"


@dataclass(frozen=True)
class Input:
    paper: str
    kind: str  # "text" or "catalogue"
    name: str  # the file name the paper declares
    expected: str | None  # the recorded SHA-256, or None
    path: Path | None  # where it was found, or None
    sha256: str | None  # the checksum of the file found
    used: bool  # does the report read it?

    @property
    def state(self) -> str:
        if self.path is None:
            return MISSING
        return DIFFERS if self.expected and self.sha256 != self.expected else FOUND

    @property
    def variable(self) -> str:
        """The environment variable that names the folder of this kind of input."""
        return catalogue.PAPERS_DIR_ENV if self.kind == "text" else catalogue.SPEC_DIR_ENV

    @property
    def changes_report(self) -> bool:
        """Would a report made here differ from one made with the recorded input?  Only for an input the report
        reads and whose checksum the paper records (a paper that records none has no reference report)."""
        return self.used and self.expected is not None and self.state != FOUND

    def line(self) -> str:
        """One line: "inductionheads text `x.txt` missing (set THEORYVERIFY_PAPERS_DIR)"."""
        what = f"{self.paper} {self.kind} `{self.name}`"
        if self.state == MISSING:
            return f"{what} missing (set {self.variable})"
        if self.state == DIFFERS:
            return f"{what} at {self.path} has sha256 {self.sha256[:12]}…, not the recorded {self.expected[:12]}…"
        return f"{what} found at {self.path}"


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def _input(paper_id: str, kind: str) -> Input:
    paper = registry.papers()[paper_id]
    name, expected = (paper.file, paper.file_sha256) if kind == "text" else (paper.spec, paper.spec_sha256)
    path = (catalogue.find_text if kind == "text" else catalogue.find_spec)(name, paper_id) if name else None
    try:
        digest = sha256(path) if path else None
    except OSError:  # unreadable: as good as missing
        path, digest = None, None
    return Input(paper_id, kind, name, expected, path, digest, used=kind == "catalogue" or paper.reads_text)


def of_paper(paper_id: str) -> list[Input]:
    """The paper's text and catalogue, in that order."""
    return [_input(paper_id, "text"), _input(paper_id, "catalogue")]


def absent(paper_ids) -> list[Input]:
    """The inputs the reports of ``paper_ids`` read that are missing or differ from the recorded ones."""
    return [i for p in paper_ids for i in of_paper(p) if i.used and i.state != FOUND]


def store_key(paper_id: str) -> dict[str, str]:
    """What a stored result of the paper depends on besides code and settings: the checksum of its text, for a
    paper whose claims read it ("missing" without it); nothing otherwise."""
    paper = registry.papers().get(paper_id)
    if paper is None or not paper.reads_text:
        return {}
    text = _input(paper_id, "text")
    return {"text": text.sha256 or MISSING}
