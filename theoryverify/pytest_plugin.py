"""The pytest plugin: one test item per claim of the papers in the repository under test.

Installed with theoryverify (entry point group ``pytest11``, name ``theoryverify``; ``-p no:theoryverify``
switches it off; an uninstalled checkout loads it with ``-p theoryverify.pytest_plugin``).  In a repository with a paper package, ``python -m pytest -m theorems`` runs every fast
claim of that paper, ``-m slow`` its long sweeps, ``-m gpu`` its GPU-scale checks:

- Which papers: those whose package folder lies under pytest's rootdir (a repository collects its own paper,
  not every installed one); ``--tv-paper ID`` (repeatable) or the ini option ``theoryverify_papers`` name
  papers explicitly instead, wherever they are installed.  When pytest is given explicit paths
  (``pytest tests/test_x.py``), only papers whose folder lies under one of them are collected, unless
  ``--tv-paper`` names them.
- Package checks: one more item per paper package with a ``printed/`` folder, ``<paper>.package-checks``
  (marked ``theorems``): every printed display builds and every claim has a location and a statement
  (:mod:`theoryverify.package_checks`), so a paper package needs no test file of its own for them.
- Items: one per claim, named by the claim id, under the node id ``<paper folder>::<claim id>`` (the
  folder relative to the rootdir), so ``-k <claim id>``, ``--lf``, ``--deselect`` and ``-n N`` (xdist) work
  (a node id is not a path pytest can be given: select a claim with ``-k``).  A claim tagged
  ``slow``/``gpu`` carries those markers *instead of* ``theorems`` (and, without profile variants, runs the
  ``full`` profile, as it always has).  A claim with profile :class:`~theoryverify.claims.Variant`\\ s gets
  one more item per variant, ``<claim id>[<profile>]``, marked by the variant's tags (``slow`` when it
  declares none) and run with that profile.
- Outcome: an item passes when the verdict is what the registry expects (a recorded erratum must stay
  refuted), fails with :func:`theoryverify.render.failure` (and the traceback of a check that raised)
  otherwise, and is skipped when an input outside the repository is missing
  (:class:`~theoryverify.claims.Unavailable`).  Claims run on the CPU with the seed ``--tv-seed N`` (else
  ``$THEORYVERIFY_SEED``, else the engine's) under the engine's Hypothesis profile (:mod:`theoryverify.profiles`), exactly as
  ``python -m theoryverify verify`` runs them.
- Scale-out: ``-n N`` (pytest-xdist) runs the claims on N processes — each item runs its claim exactly as a
  serial session does (seeds derive from claim ids), so the outcomes are the same.  ``--tv-jobs N`` or
  ``--tv-scheduler ADDRESS`` (a running Dask scheduler) make the engine's dispatcher
  (:mod:`theoryverify.dispatch`) send the points of each claim's sweeps to N local processes or to the
  cluster, as ``verify --jobs/--scheduler`` do (with ``-n``, every xdist worker starts its own N).
- Reuse: each item reads the result ``python -m theoryverify verify`` kept for its claim in verify's results
  store (:func:`theoryverify.resume.store_root`: the paper project's ``.theoryverify-cache/report``, or
  ``$THEORYVERIFY_CACHE/report``) under verify's full key — claim, seed, profile, device (cpu), the hash of the
  code closure, library versions, inputs — so a result is reused only where the same code computed it with the
  same seed and profile; a claim not found there is computed and kept there (a verdict only), for verify too.
  The header says which store.  ``--tv-fresh`` computes every item (no stored result read or kept);
  ``--tv-store=DIR`` names another store (this repository's own test session shares one between its report test
  and its theorem items, tests/conftest.py).
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

MARKERS = {
    "theorems": "one test item per claim of the paper under test (the fast ones; run by CI)",
    "slow": "long sweeps (a claim or profile variant tagged slow)",
    "gpu": "needs (or is meant for) a CUDA device (a claim or profile variant tagged gpu)",
}
INI_PAPERS = "theoryverify_papers"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("theoryverify", "theoryverify: one test item per paper claim")
    group.addoption("--tv-paper", action="append", default=[], metavar="ID", dest="tv_paper",
                    help="collect the claims of this paper id (repeatable); default: the papers whose package "
                         "folder lies under the rootdir")
    parser.addini(INI_PAPERS, type="args", default=[],
                  help="paper ids whose claims are collected (default: the papers under the rootdir)")
    group.addoption("--tv-seed", type=int, default=None, metavar="N", dest="tv_seed",
                    help="the global seed the claims run with, as verify --seed N (default: $THEORYVERIFY_SEED, "
                         "else the engine's)")
    group.addoption("--tv-jobs", type=int, default=1, metavar="N", dest="tv_jobs",
                    help="local processes for the sweep points inside each claim (claims in parallel: -n N, "
                         "pytest-xdist)")
    group.addoption("--tv-scheduler", default=None, metavar="ADDRESS", dest="tv_scheduler",
                    help="a running Dask scheduler (tcp://host:8786) for the sweep points inside each claim")
    group.addoption("--tv-store", default=None, metavar="DIR", dest="tv_store",
                    help="keep each claim's result in the results store DIR and reuse one kept there, keyed as "
                         "verify's (claim, seed, profile, device, code closure, library versions, inputs): for a "
                         "session whose other tests compute the same claims (default: verify's results store)")
    group.addoption("--tv-fresh", action="store_true", default=False, dest="tv_fresh",
                    help="compute every claim: read no stored result (verify's results store or --tv-store) and "
                         "keep none")


def pytest_configure(config: pytest.Config) -> None:
    known = {line.split(":")[0].strip() for line in config.getini("markers")}
    for name, text in MARKERS.items():
        if name not in known:
            config.addinivalue_line("markers", f"{name}: {text}")
    jobs, scheduler = config.getoption("tv_jobs", 1), config.getoption("tv_scheduler", None)
    if jobs != 1 or scheduler:
        from theoryverify import dispatch

        try:
            dispatch.configure(jobs=jobs, scheduler=scheduler)
        except dispatch.DispatchError as exc:
            raise pytest.UsageError(f"theoryverify: {exc}") from None
        config.add_cleanup(dispatch.configure)  # back to serial; the workers stop with the session


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    """The session's report gets one collector per selected paper beside the collected paths (so the claims
    go through pytest's own selection: ``-m``, ``-k``, ``--lf``, xdist)."""
    outcome = yield
    report = outcome.get_result()
    if isinstance(collector, pytest.Session) and report.passed:
        report.result.extend(_paper_collectors(collector))


# --- which papers -------------------------------------------------------------------------------

def _under(path: Path, folders: list[Path]) -> bool:
    return any(path == f or f in path.parents for f in folders)


def _explicit_paths(config: pytest.Config) -> list[Path] | None:
    """The paths given on the command line, or None when pytest collects its defaults (no arguments:
    ``testpaths`` or the invocation folder)."""
    if config.args_source is not pytest.Config.ArgsSource.ARGS:
        return None
    base = config.invocation_params.dir
    return [(base / arg.split("::")[0]).resolve() for arg in config.args]


def _package_dir(module_name: str) -> Path | None:
    """The folder of a paper package (of the module file for a one-file paper), found without importing it."""
    try:
        spec = importlib.util.find_spec(module_name)
    except Exception:  # a parent package that fails to import
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0]).resolve()
    return Path(spec.origin).resolve().parent if spec.origin else None


def _paper_collectors(session: pytest.Session) -> Iterator["PaperClaims"]:
    for collector in _find_papers(session):
        session.config.stash[_COLLECTED] = True
        yield collector


_COLLECTED = pytest.StashKey[bool]()


def _projects(folders: list[Path]) -> list[tuple[Path, list[str]]]:
    """The paper projects among ``folders`` and the folders right below them: (folder, the paper packages its
    ``pyproject.toml`` names in ``[tool.theoryverify] papers``)."""
    from theoryverify import registry

    out = []
    for folder in folders:
        for f in [folder, *(sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else [])]:
            names = registry._config_papers(f) if f.is_dir() else []
            if names and f not in [o for o, _ in out]:
                out.append((f, names))
    return out


def no_paper_hint(config: pytest.Config) -> str | None:
    """One line for a session that collected no paper although it asks for one (``-m theorems``/``slow``/``gpu``,
    or a path holding a paper project): what to set so that the paper is found — else None."""
    if config.stash.get(_COLLECTED, False):
        return None
    explicit = _explicit_paths(config)
    base = config.invocation_params.dir
    found = _projects(explicit if explicit is not None else [base])
    marks = config.getoption("markexpr", "") or ""
    if not found and not any(m in marks for m in MARKERS):
        return None
    if found:
        folder, names = found[0]
        rel = os.path.relpath(folder, base)
        pkgs = ",".join(names)
        if rel == ".":
            return (f"theoryverify: no paper collected: ./pyproject.toml names {pkgs}, but the package is not "
                    f"importable here — run with PYTHONPATH=. (or pip install -e .)")
        return (f"theoryverify: no paper collected: {rel}/pyproject.toml names {pkgs}, which is not found from "
                f"here — set THEORYVERIFY_PAPERS={pkgs} PYTHONPATH={rel} (or run pytest in {rel}/ with "
                f"PYTHONPATH=., or pip install -e {rel})")
    return ("theoryverify: no paper collected (no paper package under the collected paths): pip install -e PROJECT, "
            "or run pytest in the paper's project folder with PYTHONPATH=., or set THEORYVERIFY_PAPERS=PACKAGE "
            "PYTHONPATH=FOLDER_ABOVE_THE_PACKAGE")


def _named(config: pytest.Config) -> list[str]:
    """The papers named by ``--tv-paper``, else by the ini option (empty: the papers are found by folder)."""
    return list(config.getoption("tv_paper", None) or []) or list(config.getini(INI_PAPERS))


def _selected_papers(config: pytest.Config, modules: dict) -> list[tuple[str, Path | None]]:
    """The papers a session collects, with their package folders: those named (``--tv-paper``, or the ini option
    within the paths given), else those whose package folder lies under the rootdir (and the paths given)."""
    named, explicit = _named(config), _explicit_paths(config)
    if named:
        out = []
        for pid in dict.fromkeys(named):
            folder = _package_dir(modules[pid].__name__) if pid in modules else None
            if config.getoption("tv_paper", None) or explicit is None or (folder and _under(folder, explicit)):
                out.append((pid, folder))
        return out
    root = config.rootpath.resolve()
    roots = explicit if explicit is not None else [root]
    return [(pid, folder) for pid, mod in modules.items()
            if (folder := _package_dir(mod.__name__)) is not None and _under(folder, [root]) and _under(folder, roots)]


def _header_papers(config: pytest.Config) -> list[str]:
    """The papers a session collects (:func:`_selected_papers`), known before collection (for the header)."""
    from theoryverify import registry

    return [pid for pid, _ in _selected_papers(config, registry.paper_modules())]


def store_for(config: pytest.Config, paper: str) -> str | None:
    """The results store a theorem item of ``paper`` reads and keeps its result in: None with ``--tv-fresh``,
    ``--tv-store``'s folder, else verify's (:func:`theoryverify.resume.store_root` of the paper)."""
    if config.getoption("tv_fresh", False):
        return None
    given = config.getoption("tv_store", None)
    if given:
        return given
    from theoryverify import resume
    return str(resume.store_root([paper]))


def pytest_report_header(config: pytest.Config, start_path) -> list[str]:
    """One line saying where the theorem items' results come from (only where a paper is collected)."""
    if hasattr(config, "workerinput"):
        return []
    try:
        papers = _header_papers(config)
    except Exception:  # noqa: BLE001 - a registry that cannot load is reported at collection, not here
        return []
    if not papers:
        return []
    if config.getoption("tv_fresh", False):
        return ["theoryverify: --tv-fresh: every claim is computed (no stored result read or kept)"]
    seed = run_seed(config)
    roots = ", ".join(dict.fromkeys(store_for(config, p) for p in papers))
    which = "the results store" if config.getoption("tv_store", None) else "verify's results store"
    return [f"theoryverify: claims reuse the results kept in {which} {roots} under the same key (claim, seed "
            f"{seed}, profile, device cpu, code closure, library versions, inputs) and keep new ones there; "
            f"--tv-fresh computes every claim"]


def pytest_report_collectionfinish(config: pytest.Config, start_path, items) -> list[str]:
    hint = no_paper_hint(config)
    return [hint] if hint else []


def _find_papers(session: pytest.Session) -> Iterator["PaperClaims"]:
    from theoryverify import registry

    config = session.config
    root = config.rootpath.resolve()
    for pid, folder in _selected_papers(config, registry.paper_modules()):
        yield PaperClaims.for_paper(session, pid, folder, root)
    if _named(config):
        return
    explicit = _explicit_paths(config)
    roots = explicit if explicit is not None else [root]
    for name, why in registry.broken_papers().items():  # a broken paper of this repository is an error here
        folder = _package_dir(name)
        if folder is not None and _under(folder, [root]) and _under(folder, roots):
            yield PaperClaims.for_paper(session, name.split(".")[-1], folder, root, broken=why)


# --- collector and items ------------------------------------------------------------------------

class PaperClaims(pytest.Collector):
    """The claims of one paper (node id: the paper's package folder relative to the rootdir)."""

    def __init__(self, *, paper: str, broken: str | None = None, **kw) -> None:
        super().__init__(**kw)
        self.paper = paper
        self.broken = broken

    @classmethod
    def for_paper(cls, session: pytest.Session, paper: str, folder: Path | None, root: Path,
                  broken: str | None = None) -> "PaperClaims":
        try:
            nodeid = os.path.relpath(folder, root).replace(os.sep, "/") if folder else f"theoryverify/{paper}"
        except ValueError:  # another drive
            nodeid = f"theoryverify/{paper}"
        return cls.from_parent(session, name=paper, nodeid=nodeid, path=folder or root, paper=paper, broken=broken)

    def collect(self) -> Iterator["ClaimItem"]:
        from theoryverify import registry
        from theoryverify.errors import TheoryverifyError

        if self.broken:
            raise self.CollectError(self.broken)
        try:
            claims = registry.claims(paper=self.paper)
        except TheoryverifyError as exc:
            raise self.CollectError(" ".join(str(exc).split())) from None
        for claim in claims:
            base_profile = "quick" if claim.variants or not claim.tags else "full"
            yield ClaimItem.from_parent(self, name=claim.id, claim=claim, profile=base_profile,
                                        tags=claim.tags_for("quick"))
            for profile, variant in claim.variants.items():
                if profile != "quick":
                    # a variant of a longer profile is a slow item unless it declares its own tags: the full
                    # profile's bigger grids are what `slow` means, and CI's `-m theorems` runs the quick one
                    yield ClaimItem.from_parent(self, name=f"{claim.id}[{profile}]", claim=claim,
                                                profile=profile, tags=frozenset(variant.tags) or frozenset({"slow"}))
        module = registry.paper_modules().get(self.paper)
        if module is not None:
            from theoryverify.package_checks import printed_modules

            if printed_modules(module.__name__):
                yield PackageItem.from_parent(self, name=f"{self.paper}.package-checks", package=module.__name__)


class PackageItem(pytest.Item):
    """The paper package's own checks (:mod:`theoryverify.package_checks`): every printed display builds, every
    claim has a location and a statement — what a drafted package's tests/test_drafted.py once asserted."""

    def __init__(self, *, package: str, **kw) -> None:
        super().__init__(**kw)
        self.package = package
        self.add_marker("theorems")

    def runtest(self) -> None:
        from theoryverify.package_checks import problems

        found = problems(self.parent.paper, self.package)
        if found:
            raise PackageFailed("\n".join(found))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, PackageFailed):
            return f"the paper package {self.package}:\n  " + str(excinfo.value).replace("\n", "\n  ")
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"{self.name} (every printed display builds, every claim has a location)"


class PackageFailed(Exception):
    """A paper package's own check failed (the lines say which display or claim)."""


class ClaimFailed(Exception):
    """The verdict of a claim is not what the registry expects."""

    def __init__(self, result) -> None:
        super().__init__(result.claim.id)
        self.result = result


def run_seed(config: pytest.Config) -> int:
    """The global seed of the theorem items: ``--tv-seed N``, else ``$THEORYVERIFY_SEED``, else the engine's."""
    from theoryverify.seeds import DEFAULT_SEED

    given = config.getoption("tv_seed", None)
    if given is not None:
        return int(given)
    text = os.environ.get("THEORYVERIFY_SEED")
    if text is None:
        return DEFAULT_SEED
    try:
        return int(text)
    except ValueError:
        raise pytest.UsageError(f"theoryverify: THEORYVERIFY_SEED must be an integer, got {text!r}") from None


class ClaimItem(pytest.Item):
    """One claim under one profile."""

    def __init__(self, *, claim, profile: str, tags: frozenset[str], **kw) -> None:
        super().__init__(**kw)
        self.claim = claim
        self.profile = profile
        for tag in sorted(tags) or ["theorems"]:
            self.add_marker(tag)

    def runtest(self) -> None:
        from theoryverify.claims import RunContext

        ctx = RunContext(seed=run_seed(self.config), profile=self.profile, device="cpu")
        with _engine_hypothesis_profile():
            store = store_for(self.config, self.claim.paper)
            result = self.claim.run(ctx) if not store else _stored_or_run(self.claim, ctx, store)
        if result.unavailable:  # reported at the claim's registration, not here
            reason = f"not checkable here: {result.unavailable}"
            try:
                raise pytest.skip.Exception(reason, _use_item_location=True)
            except TypeError:  # pragma: no cover - a pytest without item locations for skips
                pytest.skip(reason)
        if not result.as_expected:
            raise ClaimFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ClaimFailed):
            from theoryverify import render

            result = excinfo.value.result
            text = render.failure(result)
            if self.profile != "quick" or self.claim.expect_for(self.profile) != self.claim.expect_for("quick"):
                text += (f"\n  profile: {self.profile} (expected {self.claim.expected_label_for(self.profile)}); "
                         f"rerun: python -m theoryverify verify --claim {self.claim.id} --profile {self.profile}")
            tb = (result.verdict.details or {}).get("traceback")
            return text + (f"\n--- the check raised ---\n{tb}" if tb else "")
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        """Where the claim is registered; the headline names the claim and its location in the paper (not a
        suffix of the node id, which pytest would otherwise rewrite as ``paper::short-id``)."""
        line = self.claim.source.rpartition(":")[2]
        return (self._source_file() or self.path), (int(line) - 1 if line.isdigit() else None), \
            f"{self.name} ({self.claim.location})"

    def _source_file(self) -> Path | None:
        mod = sys.modules.get(self.claim.module)
        return Path(mod.__file__) if mod is not None and getattr(mod, "__file__", None) else None


def _stored_or_run(claim, ctx, root: str):
    """The claim's result as ``verify`` gets it through the results store at ``root``: the row kept under the
    same key (claim, seed, profile, device, code closure, library versions, inputs) — computed by this very
    code, in this session or another — else ``claim.run(ctx)``, kept there (a verdict only: not "not checkable
    here", not a check that broke)."""
    from theoryverify import resume
    from theoryverify.store import Store

    claim_run = resume.ClaimRun([claim], ctx, Store(root), prefix="theoryverify (pytest)")
    if claim_run.items[0].key is None:  # a claim built ad hoc (no module to hash): never stored
        return claim.run(ctx)
    row, = claim_run.compute(claim_run.items, desc=claim.id)  # its progress line goes to the captured stderr
    return resume.result_of(claim, row, ctx)


class _engine_hypothesis_profile:
    """The engine's Hypothesis profile (:func:`theoryverify.profiles.load`) while a claim runs, the user's
    own profile restored afterwards (the plugin must not change how a repository's other tests run)."""

    def __enter__(self):
        from hypothesis import settings

        from theoryverify import profiles

        getter = getattr(settings, "get_current_profile_name", None)
        self.previous = getter() if getter else getattr(settings, "_current_profile", None)
        profiles.load()
        return self

    def __exit__(self, *exc):
        from hypothesis import settings

        if self.previous:
            settings.load_profile(self.previous)
        return False
