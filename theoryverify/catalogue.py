"""Catalogue coverage: which of a paper's catalogue ids (the stable ``**PREFIX-...**`` ids of its
spec) have a registered claim, and which have none; and where a paper's catalogue and text are found.

A paper's catalogue (``Paper.spec``, a file name) and text (``Paper.file``, a path) are searched for in a
path of folders, first match wins:

1. ``$THEORYVERIFY_SPEC_DIR`` / ``$THEORYVERIFY_PAPERS_DIR`` (one folder each);
2. ``$THEORYVERIFY_SPEC_PATH`` / ``$THEORYVERIFY_PAPERS_PATH`` (folders separated by ``os.pathsep``);
3. the paper package's own ``spec/`` / ``paper/`` folder (a paper may ship its catalogue and text);
4. ``../shared/spec`` / ``../shared/papers`` next to this checkout — only when neither variable of that kind is
   set: a variable says where the inputs are, so pointing it at an empty folder reproduces a fresh clone.

Where no catalogue is found, coverage is reported as unknown, never as complete.  Which inputs a report uses,
and whether each was found with its recorded checksum: :mod:`theoryverify.inputs`."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

SPEC_DIR_ENV = "THEORYVERIFY_SPEC_DIR"
PAPERS_DIR_ENV = "THEORYVERIFY_PAPERS_DIR"
SPEC_PATH_ENV = "THEORYVERIFY_SPEC_PATH"
PAPERS_PATH_ENV = "THEORYVERIFY_PAPERS_PATH"
#: the folder of a paper package that holds its own catalogue / its own text
PACKAGE_SPEC = "spec"
PACKAGE_TEXT = "paper"
_REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Coverage:
    total: int
    covered: tuple[str, ...]
    missing: tuple[str, ...]

    def line(self) -> str:
        text = f"{len(self.covered)} of {self.total} catalogue ids have a verdict"
        return text + (f"; without one: {', '.join(self.missing)}" if self.missing else "")


def _env_folders(dir_env: str, path_env: str) -> list[Path]:
    single = os.environ.get(dir_env)
    listed = [p for p in os.environ.get(path_env, "").split(os.pathsep) if p.strip()]
    return [Path(p) for p in ([single] if single else []) + listed]


def _package_folders(sub: str, paper: str | None, field: str, name: str | None) -> list[Path]:
    """``<package>/<sub>`` of ``paper``, or (no paper given) of every registered paper whose ``field`` is
    ``name``."""
    from . import registry  # the registry imports the papers: only when a package folder is asked for

    mods = registry.paper_modules()
    if paper is not None:
        chosen = [mods[paper]] if paper in mods else []
    else:
        chosen = [m for m in mods.values() if name is not None and getattr(m.PAPER, field, None) == name]
    return [Path(f) / sub for m in chosen for f in getattr(m, "__path__", [])]


def _search(kind: str, paper: str | None, name: str | None) -> list[Path]:
    dir_env, path_env, sub, field, shared = (
        (SPEC_DIR_ENV, SPEC_PATH_ENV, PACKAGE_SPEC, "spec", "spec") if kind == "spec" else
        (PAPERS_DIR_ENV, PAPERS_PATH_ENV, PACKAGE_TEXT, "file", "papers"))
    folders = _env_folders(dir_env, path_env)
    from_env = bool(folders)  # a variable is set (to a folder that may not exist: then nothing is found)
    if paper is not None or name is not None:
        folders += _package_folders(sub, paper, field, name)
    if not from_env:
        folders.append(_REPO.parent / "shared" / shared)
    return [f for f in dict.fromkeys(folders) if f.is_dir()]


def spec_path(paper: str | None = None, spec_file: str | None = None) -> list[Path]:
    """The existing folders searched for catalogues, in order (the package folders of ``paper``, or of the
    papers whose catalogue is ``spec_file``, included when either is given)."""
    return _search("spec", paper, spec_file)


def papers_path(paper: str | None = None, text_file: str | None = None) -> list[Path]:
    """The existing folders searched for paper texts, in order (see :func:`spec_path`)."""
    return _search("text", paper, text_file)


def find_spec(spec_file: str, paper: str | None = None) -> Path | None:
    """The catalogue ``spec_file`` (of ``paper``, when given) on the search path, or None."""
    return next((f / spec_file for f in spec_path(paper, spec_file) if (f / spec_file).is_file()), None)


def find_text(text_file: str, paper: str | None = None) -> Path | None:
    """The paper text ``text_file`` (of ``paper``, when given) on the search path, or None."""
    return next((f / text_file for f in papers_path(paper, text_file) if (f / text_file).is_file()), None)


def spec_dir() -> Path | None:
    """The first catalogue folder shared by all papers (``$THEORYVERIFY_SPEC_DIR``, ``$THEORYVERIFY_SPEC_PATH``
    or, neither set, ``../shared/spec``), or None.  A paper's own catalogue: :func:`find_spec`."""
    return next(iter(spec_path()), None)


def papers_dir() -> Path | None:
    """The first paper-text folder shared by all papers (``$THEORYVERIFY_PAPERS_DIR``,
    ``$THEORYVERIFY_PAPERS_PATH`` or, neither set, ``../shared/papers``), or None.  A paper's own text: :func:`find_text`."""
    return next(iter(papers_path()), None)


def catalogue_ids(text: str, prefixes: Iterable[str]) -> list[str]:
    """The bold ids ``**P-...**`` with a prefix P in ``prefixes``, unique, in order of appearance."""
    alt = "|".join(re.escape(p) for p in sorted(set(prefixes)))
    if not alt:
        return []
    found = re.findall(rf"\*\*((?:{alt})-[A-Za-z0-9/.-]*[A-Za-z0-9])\.?\*\*", text)
    return list(dict.fromkeys(found))


def row_ids(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every catalogue id the verdict rows decide: each row's ``catalogue_id`` and the further ids it ``covers``
    (a claim registered with ``catalogue_id=("A", "B")`` or ``covers=``), in order."""
    return [i for r in rows for i in [r.get("catalogue_id"), *(r.get("covers") or ())] if i]


def coverage(spec_file: str, claimed: Iterable[str | None], paper: str | None = None) -> Coverage | None:
    """Coverage of the catalogue ``spec_file`` (found on the search path; of ``paper`` when given) by the
    catalogue ids in ``claimed`` (prefixes are taken from those ids); None when the catalogue cannot be found."""
    claimed = {c for c in claimed if c}
    path = find_spec(spec_file, paper)
    if path is None or not claimed:
        return None
    ids = catalogue_ids(path.read_text(encoding="utf-8"), {c.split("-")[0] for c in claimed})
    return Coverage(len(ids), tuple(i for i in ids if i in claimed), tuple(i for i in ids if i not in claimed))


def coverage_line(spec_file: str | None, claimed: Iterable[str | None], paper: str | None = None) -> str:
    """The report's "Catalogue coverage" line: :meth:`Coverage.line`, or why coverage is unknown — no claim
    declares a catalogue id (the catalogue may well be found), or the catalogue is not on the search path.

    >>> coverage_line("nowhere-xyz.md", [None, None])
    'unknown (no claim declares a catalogue id: give the claims `catalogue_id=`)'
    >>> coverage_line("nowhere-xyz.md", ["NOWHERE-1"]).startswith("unknown (catalogue `nowhere-xyz.md` not found")
    True"""
    ids = [c for c in claimed if c]
    if not ids:
        return "unknown (no claim declares a catalogue id: give the claims `catalogue_id=`)"
    if not spec_file or find_spec(spec_file, paper) is None:
        return (f"unknown (catalogue `{spec_file}` not found; put it in the paper package's `{PACKAGE_SPEC}/` "
                f"folder or set {SPEC_DIR_ENV})")
    cov = coverage(spec_file, ids, paper)
    return cov.line() if cov else "unknown"
