"""The one claim registry: every front-end (pytest, the report, the step checker) reads it.

Papers are plugins.  A paper is an importable package that may define ``PAPER`` (a
:class:`~theoryverify.claims.Paper`; without one, :func:`default_paper`: id = the package name, title = its
docstring's first line) and declares its claims in a ``claims`` sub-package (one module per part of the paper, each
holding a ``CLAIMS`` :class:`~theoryverify.claims.ClaimSet` or registering with ``@tv.claim``; the uniform layout),
in one ``claims.py`` module, or, in the older flat layout, in ``claims_*`` modules beside its ``__init__``.  Papers are found, in order:

1. through the entry point group ``theoryverify.papers`` of every installed distribution
   (``[project.entry-points."theoryverify.papers"] mypaper = "mypaper"`` in the paper's ``pyproject.toml``);
2. in ``[tool.theoryverify] papers = ["pkg", ...]`` of a ``pyproject.toml`` in the working directory (a
   checkout run with ``PYTHONPATH=.`` and nothing installed);
3. in ``$THEORYVERIFY_PAPERS`` (module names separated by commas), for ad-hoc use.

The engine names no paper.  A paper that fails to import does not stop the others: asking for it gives a
one-line :class:`~theoryverify.findings.RegistrationError`.
"""
from __future__ import annotations

import difflib
import importlib
import os
import sys
import pkgutil
from collections.abc import Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from types import ModuleType

from .claims import Claim, ClaimSet, Paper
from .errors import TheoryverifyError
from .findings import RegistrationError, validate
from .locations import location_refs, ref_key

ENTRY_POINT_GROUP = "theoryverify.papers"
PAPERS_ENV = "THEORYVERIFY_PAPERS"


class UnknownName(TheoryverifyError, LookupError):
    """An unknown paper or claim id (front-ends turn it into a one-line error, exit 2)."""


def _config_papers(folder: Path | None = None) -> list[str]:
    """``[tool.theoryverify] papers`` of ``pyproject.toml`` in ``folder`` (default: the working directory)."""
    path = (folder or Path.cwd()) / "pyproject.toml"
    if not path.is_file():
        return []
    try:
        import tomllib
    except ImportError:  # pragma: no cover - Python < 3.11
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    papers = data.get("tool", {}).get("theoryverify", {}).get("papers", [])
    return [str(p) for p in papers] if isinstance(papers, list) else []


def paper_sources() -> list[tuple[str, str]]:
    """(where it was declared, module name) of every declared paper package, first declaration first."""
    out: list[tuple[str, str]] = []
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        out.append((f"entry point {ep.name!r}" + (f" of {ep.dist.name}" if ep.dist else ""), ep.value.split(":")[0]))
    out += [("pyproject.toml [tool.theoryverify]", m) for m in _config_papers()]
    out += [(f"${PAPERS_ENV}", m.strip()) for m in os.environ.get(PAPERS_ENV, "").split(",") if m.strip()]
    seen, unique = set(), []
    for where, mod in out:
        if mod not in seen:
            seen.add(mod)
            unique.append((where, mod))
    return unique


def _import_unshadowed(name: str) -> ModuleType:
    """Import ``name`` again without the working directory on ``sys.path``: a project folder named like the
    paper (``DIR/mypaper``, holding ``pyproject.toml`` and the package ``mypaper/``) in the working directory is
    a namespace package that shadows the installed paper."""
    here = {"", ".", os.getcwd()}
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]
    saved = list(sys.path)
    try:
        sys.path[:] = [p for p in sys.path if p not in here and os.path.abspath(p or ".") != os.getcwd()]
        importlib.invalidate_caches()
        return importlib.import_module(name)
    finally:
        sys.path[:] = saved


@lru_cache(maxsize=None)
def _discover() -> tuple[dict[str, ModuleType], dict[str, str]]:
    modules: dict[str, ModuleType] = {}
    broken: dict[str, str] = {}
    for where, name in paper_sources():
        try:
            mod = importlib.import_module(name)
            if not hasattr(mod, "PAPER") and getattr(mod, "__file__", None) is None:
                mod = _import_unshadowed(name)
        except Exception as exc:  # a broken plugin must not break the others
            broken[name] = f"{where}: cannot import {name}: {type(exc).__name__}: {exc}"
            continue
        paper = getattr(mod, "PAPER", None)
        if paper is None and hasattr(mod, "__path__") and importlib.util.find_spec(f"{name}.claims") is not None:
            paper = default_paper(mod)  # a package with claims and no PAPER: the defaults (docstring, names)
            mod.PAPER = paper
        if not isinstance(paper, Paper):
            broken[name] = (f"{where}: module {name} defines no PAPER = theoryverify.Paper(...) and has no claims "
                            f"module")
            continue
        if paper.id in modules and modules[paper.id] is not mod:
            broken[name] = f"{where}: paper id {paper.id!r} is already declared by {modules[paper.id].__name__}"
            continue
        modules[paper.id] = mod
    return modules, broken


def default_paper(pkg: ModuleType) -> Paper:
    """The ``PAPER`` of a package that declares none: id = the package name, title = the first line of its
    docstring, text ``<id>.txt`` and catalogue ``<id>.md`` (where the layout looks for them) — a paper needs a
    ``PAPER`` line only to say something else."""
    pid = pkg.__name__.split(".")[-1]
    title = ((pkg.__doc__ or "").strip().splitlines() or [pid])[0].strip() or pid
    return Paper(id=pid, title=title, file=f"{pid}.txt", spec=f"{pid}.md")


def paper_modules() -> dict[str, ModuleType]:
    """Paper id → the paper's package."""
    return dict(sorted(_discover()[0].items()))


def broken_papers() -> dict[str, str]:
    """Declared paper modules that could not be loaded, with the one-line reason."""
    return dict(_discover()[1])


def papers() -> dict[str, Paper]:
    return {pid: mod.PAPER for pid, mod in paper_modules().items()}


def claim_modules(pkg: ModuleType) -> list[str]:
    """The claim modules of a paper package, in order: ``<pkg>.claims.*`` (the uniform layout; the order of
    ``claims.ORDER`` if it is given, else by name; a stale ``ORDER`` — a module renamed — is one line naming the
    file and the line to write) or the older flat ``<pkg>.claims_*``."""
    names: list[str] = []
    sub = f"{pkg.__name__}.claims"
    spec = importlib.util.find_spec(sub)
    if spec is not None and spec.submodule_search_locations is None:  # one module, claims.py: its claims
        return [sub]
    if spec is not None:
        claims_pkg = importlib.import_module(sub)
        order = getattr(claims_pkg, "ORDER", [])
        if not isinstance(order, (list, tuple)) or not all(isinstance(m, str) for m in order):
            raise RegistrationError(f"{sub}.ORDER must be a list of module names (e.g. ORDER = [\"s1_main\"]), "
                                    f"not {order!r}"[:200])
        found = sorted(m.name for m in pkgutil.iter_modules(getattr(claims_pkg, "__path__", [])))
        absent = [m for m in order if m not in found]
        if absent:
            where = getattr(claims_pkg, "__file__", None) or sub
            fixed = [m for m in order if m in found] + [m for m in found if m not in order]
            raise RegistrationError(f"{sub}.ORDER names {', '.join(map(repr, absent))}, but {sub} has no such module "
                                    f"(its modules: {', '.join(found) or 'none'}): in {where} write ORDER = {fixed!r} "
                                    f"or delete the ORDER line (the modules then run in name order)")
        names += [f"{sub}.{m}" for m in list(dict.fromkeys(order)) + [m for m in found if m not in order]]
    if hasattr(pkg, "__path__"):
        names += [f"{pkg.__name__}.{m.name}" for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name)
                  if m.name.startswith("claims_")]
    return names


def _import_claims(name: str) -> ModuleType:
    """Import one claim module; a module that raises while its claims are registered is one line saying where
    (the file and line of the innermost frame in the module) and what, never a traceback."""
    try:
        return importlib.import_module(name)
    except (RegistrationError, TheoryverifyError) as exc:
        raise RegistrationError(f"{name}: {' '.join(str(exc).split())}") from None
    except Exception as exc:  # noqa: BLE001 - the author's module: report where, not a traceback
        import traceback
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if "theoryverify" not in Path(f.filename).parts
                  or name.split(".")[0] in Path(f.filename).parts]
        where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
        raise RegistrationError(f"cannot register the claims of {name}{where}: {type(exc).__name__}: "
                                f"{' '.join(str(exc).split())}"[:400]) from None


@lru_cache(maxsize=None)
def _paper_claims(paper_id: str) -> tuple[Claim, ...]:
    pkg = paper_modules()[paper_id]
    out: list[Claim] = []
    for name in claim_modules(pkg):
        claim_set = getattr(_import_claims(name), "CLAIMS", None)
        if isinstance(claim_set, ClaimSet):
            out.extend(x for c in claim_set for x in c.expanded())
    ids = [c.id for c in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise RegistrationError(f"duplicate claim ids in paper {paper_id}: {dupes}")
    wrong = [c.id for c in out if c.paper != paper_id]
    if wrong:
        raise RegistrationError(f"claims of paper {paper_id} declare another paper: {wrong[:3]}")
    keys = papers()[paper_id].reconstruction
    for c in out:
        validate(c, keys)
    return tuple(out)


def _how_to_see(paper: str, folder: Path | None = None) -> str:
    """How an uninstalled paper package is made seen, for the unknown-paper error: from its project folder (the
    one with its ``pyproject.toml``), or by naming it in ``$THEORYVERIFY_PAPERS`` — said for the folder the run
    is in when it holds the package or its project.

    >>> _how_to_see("nosuchpaper", Path("/nonexistent"))[:59]
    '; a paper that is not installed is seen with pip install -e'
    """
    here = folder or Path.cwd()
    if (here / paper / "pyproject.toml").is_file() and (here / paper / paper / "__init__.py").is_file():
        return (f"; {paper}/ holds its project: cd {paper} && PYTHONPATH=. python -m theoryverify ... (its "
                f"pyproject.toml's [tool.theoryverify] papers names it), or from here {PAPERS_ENV}={paper} "
                f"PYTHONPATH={paper} python -m theoryverify ..., or pip install -e {paper}")
    if (here / paper / "__init__.py").is_file():
        return (f"; the package {paper}/ is here: {PAPERS_ENV}={paper} PYTHONPATH=. python -m theoryverify ..., "
                f"or add papers = [\"{paper}\"] under [tool.theoryverify] in ./pyproject.toml")
    return (f"; a paper that is not installed is seen with pip install -e PROJECT, or from its project folder with "
            f"PYTHONPATH=. (its pyproject.toml's [tool.theoryverify] papers), or anywhere with "
            f"{PAPERS_ENV}={paper} PYTHONPATH=FOLDER_ABOVE_THE_PACKAGE")


def claims(paper: str | None = None, claim: str | None = None) -> list[Claim]:
    """Registered claims, optionally of one paper or one claim id (``UnknownName`` if absent).  With ``paper``
    given, ``claim`` may leave out the paper's prefix (``paper="p", claim="x"`` selects ``p.x``)."""
    known = papers()
    if paper is not None and paper not in known:
        broken = [why for name, why in broken_papers().items() if name.split(".")[-1] == paper]
        if broken:
            raise RegistrationError(broken[0])
        raise UnknownName(f"unknown paper id {paper!r} (known: {', '.join(sorted(known)) or 'none installed'})"
                          f"{_how_to_see(paper)}")
    if claim is not None and paper is None and "." in claim and claim.split(".")[0] in known:
        selected = list(_paper_claims(claim.split(".")[0]))  # a claim id names its paper: load only that one
    else:
        selected = [c for p in ([paper] if paper else sorted(known)) for c in _paper_claims(p)]
    if claim is not None:
        # within a named paper its own prefix may be left out: --paper P --claim x selects P.x
        short = f"{paper}.{claim}" if paper is not None else None
        selected = [c for c in selected if c.id in (claim, short) or claim in c.catalogue_ids]
        if not selected:
            raise UnknownName(_unknown_claim(claim, paper))
    return selected


def qualified(claim: str, paper_ids: Sequence[str] = ()) -> str:
    """``claim`` with its paper's prefix when it names a claim of one of ``paper_ids`` without it (``--paper p
    --claim x`` means ``p.x``); otherwise ``claim`` unchanged (a full id, a catalogue id, or an unknown name that
    :func:`claims` then reports)."""
    known = papers()
    for p in paper_ids:
        if p in known and any(c.id == f"{p}.{claim}" for c in _paper_claims(p)):
            return f"{p}.{claim}"
    return claim


def _all_claims() -> list[Claim]:
    """Every claim of every paper that loads (for suggestions: a broken paper is skipped, not raised)."""
    out: list[Claim] = []
    for p in sorted(papers()):
        try:
            out.extend(_paper_claims(p))
        except Exception:  # noqa: BLE001 - a paper that fails to load offers no suggestion
            continue
    return out


def _unknown_claim(claim: str, paper: str | None) -> str:
    """The one-line error for a claim id that selects nothing: the paper it belongs to when ``--paper`` names
    another one, else the closest ids across every paper (by claim id, the id without its paper, or catalogue
    id; :mod:`difflib`)."""
    every = _all_claims()
    exact = [c for c in every if c.id == claim or claim in c.catalogue_ids]
    if exact and paper is not None:
        return (f"claim {claim!r} belongs to paper {exact[0].paper!r}, not {paper!r} "
                f"(use --paper {exact[0].paper}, or give --claim alone)")
    names: dict[str, str] = {}
    for c in every:
        names.setdefault(c.id.lower(), c.id)
        names.setdefault(c.id.split(".", 1)[-1].lower(), c.id)
        for cid in c.catalogue_ids:
            names.setdefault(cid.lower(), c.id)
    close = difflib.get_close_matches(claim.lower(), list(names), n=12, cutoff=0.6)
    ids = list(dict.fromkeys(names[n] for n in close))[:5]
    where = f" in paper {paper!r}" if paper is not None else ""
    hint = f"; closest: {', '.join(ids)}" if ids else "; `python -m theoryverify list` lists every id"
    return f"unknown claim id {claim!r}{where}{hint}"


def get(claim_id: str) -> Claim:
    return claims(claim=claim_id)[0]


def module_of(paper_id: str) -> ModuleType:
    return paper_modules()[paper_id]


def dangling_references() -> list[str]:
    """Claim ids cited by a finding declaration (``supports``, a reading's status) that are not registered."""
    known = {c.id for c in claims()}
    bad = []
    for c in claims():
        cited = list(c.supports) + (c.readings.cited_claims() if c.readings else [])
        bad += [f"{c.id} cites {ref}" for ref in cited if ref not in known and ref.split(".")[0] in papers()]
    return bad


def locations(paper_id: str) -> dict[str, list[str]]:
    """The map from paper location (Lemma 6, Eq. 12, Figure 2, …, read from each claim's ``location``) to
    claim ids — generated from the registry, never hand-kept; claims whose location names no numbered
    item are listed under their location text."""
    out: dict[str, list[str]] = {}
    for c in claims(paper=paper_id):
        for ref in location_refs(c.location) or [c.location]:
            out.setdefault(ref, []).append(c.id)
    return dict(sorted(out.items(), key=lambda kv: ref_key(kv[0])))
