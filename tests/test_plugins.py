"""Papers are plugins: discovery through the entry point group ``theoryverify.papers`` (a fake installed
distribution: a ``.dist-info`` folder on ``sys.path``), a broken plugin that gives a one-line error without
breaking the others, the catalogue / paper-text search path (a package may ship its own), and the pytest plugin
(one item per claim of the papers under the rootdir, markers, variants, failures, skips, ``-k``, explicit
paths, ``--tv-paper``, xdist) run through pytest's ``pytester``."""
from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from theoryverify import catalogue, cli, registry, stepcontext

pytest_plugins = ["pytester"]

PAPER_INIT = '''
import theoryverify as tv

PAPER = tv.Paper(id="{name}", title="A plugged-in paper", file="{name}.txt", spec="{name}.md")
'''

CLAIMS = '''
import sympy as sp
import theoryverify as tv

x = sp.Symbol("x", real=True)
CLAIMS = tv.ClaimSet("{name}")


@CLAIMS.add("double", location="Eq. 1", statement="x + x = 2 x", kind=tv.Kind.IDENTITY, catalogue_id="FP-E1")
def double(ctx):
    return tv.check_identity(x + x, 2 * x, tv.Domain([tv.Interval(x, -2, 2)]), ctx.seed)
'''

CONTEXTS = '''
import sympy as sp
import theoryverify as tv

x = sp.Symbol("x", real=True)
CONTEXTS = [tv.StepContext("{name}.main", "one real x", [tv.Interval(x, -2, 2)], {{"D": 2 * x}})]
'''


def _clear_caches() -> None:
    registry._discover.cache_clear()
    registry._paper_claims.cache_clear()
    stepcontext._paper_contexts.cache_clear()


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A site folder with an installed distribution ``fakepaper-tv`` that declares three papers: a good
    one (with its own catalogue and text), one whose import raises, one that defines no PAPER."""
    site = tmp_path / "site"
    _write(site, {
        "fakepaper_tv-0.3.dist-info/METADATA": "Metadata-Version: 2.1\nName: fakepaper-tv\nVersion: 0.3\n",
        "fakepaper_tv-0.3.dist-info/entry_points.txt":
            "[theoryverify.papers]\nfakepaper = fakepaper\nbrokenpaper = brokenpaper\nnopaper = nopaper\n",
        "fakepaper_tv-0.3.dist-info/top_level.txt": "fakepaper\nbrokenpaper\nnopaper\n",
        "fakepaper/__init__.py": PAPER_INIT.format(name="fakepaper"),
        "fakepaper/claims/__init__.py": "",
        "fakepaper/claims/s1_main.py": CLAIMS.format(name="fakepaper"),
        "fakepaper/contexts.py": CONTEXTS.format(name="fakepaper"),
        "fakepaper/spec/fakepaper.md": "# Catalogue\n- **FP-E1** (Eq. 1)\n- **FP-E2** (Eq. 2)\n",
        "fakepaper/paper/fakepaper.txt": "the paper's text\n",
        "brokenpaper/__init__.py": "raise RuntimeError('boom at import')\n",
        "nopaper/__init__.py": "TITLE = 'no PAPER here'\n",
    })
    for var in (registry.PAPERS_ENV, catalogue.SPEC_DIR_ENV, catalogue.SPEC_PATH_ENV, catalogue.PAPERS_DIR_ENV,
                catalogue.PAPERS_PATH_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.syspath_prepend(str(site))
    _clear_caches()
    yield site
    _clear_caches()
    for name in [m for m in sys.modules if m.split(".")[0] in ("fakepaper", "brokenpaper", "nopaper")]:
        del sys.modules[name]


def test_an_installed_entry_point_is_a_paper(installed, capsys):
    assert "fakepaper" in registry.papers()
    where = dict((mod, w) for w, mod in registry.paper_sources())
    assert where["fakepaper"] == "entry point 'fakepaper' of fakepaper-tv"
    (claim,) = registry.claims(paper="fakepaper")
    assert claim.id == "fakepaper.double" and claim.source == "fakepaper/claims/s1_main.py:8"
    assert cli.main(["verify", "--paper", "fakepaper"]) == 0
    assert "fakepaper.double" in capsys.readouterr().out
    assert stepcontext.get("fakepaper.main").defs["D"] is not None


def test_a_broken_plugin_is_one_line_and_does_not_break_the_others(installed, capsys):
    broken = registry.broken_papers()
    assert broken["brokenpaper"] == ("entry point 'brokenpaper' of fakepaper-tv: cannot import brokenpaper: "
                                     "RuntimeError: boom at import")
    assert "defines no PAPER" in broken["nopaper"]
    assert {"fakepaper", "icrecall"} <= set(registry.papers())  # the good plugin and the shipped papers load
    assert cli.main(["verify", "--paper", "brokenpaper"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "boom at import" in err and "Traceback" not in err
    assert cli.main(["papers"]) == 0
    out = capsys.readouterr().out
    assert "fakepaper\tfakepaper\t" in out and "(broken)\tbrokenpaper\t" in out
    assert cli.main(["verify", "--paper", "fakepaper"]) == 0
    from theoryverify.report.__main__ import main as report

    capsys.readouterr()
    assert report(["--paper", "brokenpaper"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot import brokenpaper: RuntimeError: boom at import" in err


def test_a_paper_ships_its_own_catalogue_and_text(installed, tmp_path, monkeypatch):
    own = installed / "fakepaper"
    assert catalogue.find_spec("fakepaper.md", "fakepaper") == own / "spec" / "fakepaper.md"
    assert catalogue.find_spec("fakepaper.md") == own / "spec" / "fakepaper.md"  # found by the spec's name
    assert catalogue.find_text("fakepaper.txt", "fakepaper") == own / "paper" / "fakepaper.txt"
    cov = catalogue.coverage("fakepaper.md", ["FP-E1"])
    assert (cov.covered, cov.missing) == (("FP-E1",), ("FP-E2",))
    assert catalogue.find_spec("absent.md", "fakepaper") is None
    # a search path of several folders comes first; the first folder holding the file wins
    first, second = tmp_path / "a", tmp_path / "b"
    _write(second, {"fakepaper.md": "- **FP-E1**\n"})
    first.mkdir()
    monkeypatch.setenv(catalogue.SPEC_PATH_ENV, f"{first}{os.pathsep}{second}")
    assert catalogue.find_spec("fakepaper.md") == second / "fakepaper.md"
    assert catalogue.spec_path("fakepaper")[:3] == [first, second, own / "spec"]
    monkeypatch.setenv(catalogue.SPEC_DIR_ENV, str(first))
    assert catalogue.spec_dir() == first


def test_report_of_a_plugin_paper_uses_its_own_catalogue(installed, tmp_path, monkeypatch):
    from theoryverify.report.__main__ import main as report

    monkeypatch.chdir(tmp_path)
    assert report(["--paper", "fakepaper", "--out", str(tmp_path / "rep"), "--fresh"]) == 0
    page = (tmp_path / "rep" / "fakepaper.md").read_text(encoding="utf-8")
    assert "1 of 2 catalogue ids have a verdict; without one: FP-E2" in page
    assert "fakepaper-tv 0.3" in page and "fakepaper/claims/s1_main.py:8" in page


# --- the pytest plugin -------------------------------------------------------------------------------

PLUGGED_CLAIMS = '''
import sympy as sp
import theoryverify as tv

x = sp.Symbol("x", real=True)
D = tv.Domain([tv.Interval(x, -2, 2)])
CLAIMS = tv.ClaimSet("plugpaper")


@CLAIMS.add("good", location="Eq. 1", statement="x + x = 2 x", kind=tv.Kind.IDENTITY)
def good(ctx):
    return tv.check_identity(x + x, 2 * x, D, ctx.seed)


@CLAIMS.add("bad", location="Eq. 2", statement="x + x = 3 x", kind=tv.Kind.IDENTITY)
def bad(ctx):
    return tv.check_identity(x + x, 3 * x, D, ctx.seed)


@CLAIMS.add("typo", location="Eq. 3", statement="x = 2 x", kind=tv.Kind.IDENTITY, expect=tv.Status.REFUTED,
            finding="erratum", reason="printed with a factor 2")
def typo(ctx):
    return tv.check_identity(x, 2 * x, D, ctx.seed)


@CLAIMS.add("needs-text", location="Sec. 2", statement="quoted", kind=tv.Kind.REPRODUCTION)
def needs_text(ctx):
    raise tv.Unavailable("paper text not found")


@CLAIMS.add("raises", location="Eq. 4", statement="s", kind=tv.Kind.IDENTITY)
def raises(ctx):
    raise ValueError("a bug in the check")


@CLAIMS.add("sweep", location="Fig. 1", statement="s", kind=tv.Kind.IDENTITY, tags={"slow"})
def sweep(ctx):
    return tv.holds("profile", ctx.profile) if ctx.profile == "full" else tv.refuted("profile", ctx.profile, {})


@CLAIMS.add("rate", location="Thm. 1", statement="s", kind=tv.Kind.IDENTITY, params={"n": 3},
            variants={"full": tv.Variant(params={"n": 30})})  # no tags: a full variant is slow by default
def rate(ctx):
    want = 3 if ctx.profile == "quick" else 30
    return (tv.holds("params", str(ctx.params), configurations=[dict(ctx.params)]) if ctx.params["n"] == want
            else tv.refuted("params", "", {"n": 0}))
'''


@pytest.fixture
def plugged(pytester, tmp_path_factory, monkeypatch):
    """A repository with the paper ``plugpaper`` under its rootdir and one ordinary test; the paper
    ``otherpaper`` is importable but lives outside the rootdir."""
    outside = tmp_path_factory.mktemp("outside")
    _write(outside, {"otherpaper/__init__.py": PAPER_INIT.format(name="otherpaper"),
                     "otherpaper/claims/__init__.py": "",
                     "otherpaper/claims/s1.py": CLAIMS.format(name="otherpaper")})
    _write(pytester.path, {
        "pyproject.toml": """
            [tool.theoryverify]
            papers = ["plugpaper", "otherpaper"]

            [tool.pytest.ini_options]
            addopts = "-p no:cacheprovider"
            """,
        "plugpaper/__init__.py": PAPER_INIT.format(name="plugpaper"),
        "plugpaper/claims/__init__.py": "",
        "plugpaper/claims/s1.py": PLUGGED_CLAIMS,
        "tests/test_other.py": "def test_other():\n    pass\n",
    })
    monkeypatch.delenv(registry.PAPERS_ENV, raising=False)
    monkeypatch.syspath_prepend(str(outside))
    pytester.syspathinsert()
    monkeypatch.setenv("PYTHONPATH", f"{pytester.path}{os.pathsep}{outside}")  # for the xdist workers
    monkeypatch.chdir(pytester.path)

    def run(*args, subprocess=False):
        if subprocess:  # xdist workers take the sys.path of the outer session: a fresh interpreter instead
            return pytester.runpytest_subprocess(*args)
        _clear_caches()  # the run discovers the papers of its own working directory
        try:
            return pytester.runpytest(*args)
        finally:
            _clear_caches()
    yield run
    for name in [m for m in sys.modules if m.split(".")[0] in ("plugpaper", "otherpaper")]:
        del sys.modules[name]


def _ids(result) -> list[str]:
    return [line for line in result.outlines if "::" in line]


QUICK = ["plugpaper::plugpaper.good", "plugpaper::plugpaper.bad", "plugpaper::plugpaper.typo",
         "plugpaper::plugpaper.needs-text", "plugpaper::plugpaper.raises", "plugpaper::plugpaper.rate"]
SLOW = ["plugpaper::plugpaper.sweep", "plugpaper::plugpaper.rate[full]"]


def test_plugin_collects_one_item_per_claim_with_markers(plugged):
    every = _ids(plugged("--collect-only", "-q"))
    assert sorted(every) == sorted(QUICK + SLOW + ["tests/test_other.py::test_other"])  # not otherpaper
    assert _ids(plugged("-m", "theorems", "--collect-only", "-q")) == QUICK
    assert _ids(plugged("-m", "slow", "--collect-only", "-q")) == SLOW
    assert _ids(plugged("-k", "plugpaper.good", "--collect-only", "-q")) == ["plugpaper::plugpaper.good"]


def test_plugin_runs_claims_and_prints_the_counterexample(plugged):
    result = plugged("-m", "theorems or slow", "-rs")
    result.assert_outcomes(passed=5, failed=2, skipped=1, deselected=1)
    out = result.stdout.str()
    assert "plugpaper.bad (Eq. 2): expected proved|holds, got refuted" in out
    assert "counterexample: {" in out and "rerun: python -m theoryverify verify --claim plugpaper.bad" in out
    assert "--- the check raised ---" in out and "ValueError: a bug in the check" in out
    assert "SKIPPED [1] plugpaper/claims/s1.py:25: not checkable here: paper text not found" in out


def test_explicit_paths_and_named_papers(plugged):
    assert _ids(plugged("tests/test_other.py", "--collect-only", "-q")) == ["tests/test_other.py::test_other"]
    assert len(_ids(plugged("plugpaper", "--collect-only", "-q"))) == len(QUICK + SLOW)
    named = _ids(plugged("tests/test_other.py", "--tv-paper", "otherpaper", "--collect-only", "-q"))
    assert named[0] == "tests/test_other.py::test_other" and named[1].endswith("::otherpaper.double")
    result = plugged("--tv-paper", "nosuchpaper", "--collect-only", "-q")
    assert result.ret != 0 and "unknown paper id 'nosuchpaper'" in result.stdout.str()


def test_a_broken_paper_under_the_rootdir_is_a_one_line_collection_error(plugged, pytester):
    _write(pytester.path, {"brokenplug/__init__.py": "raise RuntimeError('boom in the paper')\n"})
    pyproject = pytester.path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"otherpaper"]', '"otherpaper", "brokenplug"]'))
    result = plugged("-m", "theorems", "--continue-on-collection-errors", "-q")
    lines = result.outlines
    at = next(i for i, line in enumerate(lines) if "ERROR collecting brokenplug" in line)
    assert lines[at + 1] == "pyproject.toml [tool.theoryverify]: cannot import brokenplug: RuntimeError: boom in the paper"
    assert lines[at + 2].startswith("=====")  # one line, no traceback
    result.assert_outcomes(passed=3, failed=2, skipped=1, deselected=3, errors=1)  # the other paper still runs


def test_plugin_items_run_under_xdist(plugged):
    result = plugged("-m", "theorems", "-n", "2", subprocess=True)
    result.assert_outcomes(passed=3, failed=2, skipped=1)


def test_the_theorem_items_keep_and_reuse_results_in_a_given_store(plugged, tmp_path_factory):
    """``--tv-store DIR`` (the test session shares one, tests/conftest.py): the same outcomes, failures and skips as
    computing; each verdict is kept under verify's key (not "not checkable here", not a check that broke) and a
    later item reads it instead of computing — shown by a kept row changed by hand, which the item then reports."""
    import json

    from theoryverify.store import _value_digest

    store = tmp_path_factory.mktemp("store")  # outside the rootdir (given as --tv-store=DIR: a separate DIR would
    # count among the paths pytest finds its rootdir from)
    result = plugged("-m", "theorems or slow", "-rs", f"--tv-store={store}")
    result.assert_outcomes(passed=5, failed=2, skipped=1, deselected=1)
    out = result.stdout.str()
    assert "counterexample: {" in out and "ValueError: a bug in the check" in out
    assert "not checkable here: paper text not found" in out
    kept = sorted(p.parent.name for p in store.glob("*/*.json"))
    assert kept == ["plugpaper.bad", "plugpaper.good", "plugpaper.rate", "plugpaper.rate", "plugpaper.sweep",
                    "plugpaper.typo"]
    path, = store.glob("plugpaper.good/*.json")
    record = json.loads(path.read_text())
    record["value"]["status"] = "inconclusive"
    record["sha256"] = _value_digest(record["value"])
    path.write_text(json.dumps(record))
    again = plugged("-k", "plugpaper.good", f"--tv-store={store}")
    again.assert_outcomes(failed=1, deselected=8)
    assert "expected proved|holds, got inconclusive" in again.stdout.str()
    plugged("-k", "plugpaper.good").assert_outcomes(passed=1, deselected=8)  # without the store: computed


def test_the_theorem_items_reuse_what_verify_kept_unless_told_fresh(plugged, pytester, monkeypatch, capsys):
    """Held-out author 8, defect 9: ``pytest -m theorems`` computed every claim again after ``verify`` had kept them
    (reuse needed ``--tv-store``).  Now an item reads verify's results store (the project's
    ``.theoryverify-cache/report``) under verify's key, the header says so, and ``--tv-fresh`` computes — shown by
    a row verify kept, changed by hand, which the item then reports (and a fresh run does not)."""
    import json

    from theoryverify.store import _value_digest

    monkeypatch.delenv("THEORYVERIFY_CACHE", raising=False)
    monkeypatch.delenv("THEORYVERIFY_SEED", raising=False)
    _clear_caches()
    try:
        assert cli.main(["verify", "--paper", "plugpaper", "--claim", "plugpaper.good", "--device", "cpu"]) == 0
    finally:
        _clear_caches()
    capsys.readouterr()
    path, = (pytester.path / ".theoryverify-cache" / "report").glob("plugpaper.good/*.json")
    record = json.loads(path.read_text())
    record["value"]["status"] = "inconclusive"
    record["sha256"] = _value_digest(record["value"])
    path.write_text(json.dumps(record))
    reused = plugged("-k", "plugpaper.good")
    reused.assert_outcomes(failed=1, deselected=8)
    out = reused.stdout.str()
    assert "expected proved|holds, got inconclusive" in out
    assert f"theoryverify: claims reuse the results kept in verify's results store {pytester.path}" in out, out
    assert "--tv-fresh computes every claim" in out
    fresh = plugged("-k", "plugpaper.good", "--tv-fresh")
    fresh.assert_outcomes(passed=1, deselected=8)
    assert "theoryverify: --tv-fresh: every claim is computed" in fresh.stdout.str()
    kept = plugged("-k", "plugpaper.bad")  # a claim verify did not run: computed by the item and kept for verify
    kept.assert_outcomes(failed=1, deselected=8)
    assert list((pytester.path / ".theoryverify-cache" / "report").glob("plugpaper.bad/*.json"))


def test_the_theorem_items_take_their_seed_from_an_option(plugged, monkeypatch):
    """Issue 29, item 12: ``--tv-seed N`` (else $THEORYVERIFY_SEED, else the engine's) for ``pytest -m theorems``."""
    from types import SimpleNamespace

    from theoryverify.pytest_plugin import run_seed
    from theoryverify.seeds import DEFAULT_SEED

    def config(seed):
        return SimpleNamespace(getoption=lambda name, default=None: seed if name == "tv_seed" else default)
    monkeypatch.setenv("THEORYVERIFY_SEED", "3")
    assert run_seed(config(7)) == 7 and run_seed(config(None)) == 3
    monkeypatch.delenv("THEORYVERIFY_SEED")
    assert run_seed(config(None)) == DEFAULT_SEED
    plugged("-k", "plugpaper.good", "--tv-seed", "5").assert_outcomes(passed=1, deselected=8)
