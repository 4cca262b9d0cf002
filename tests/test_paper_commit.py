"""A report of an author's paper records the paper's own git commit (its repository is not the engine's)."""
from __future__ import annotations

import subprocess
import types

from theoryverify import environment, registry
from theoryverify.report import build


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_the_papers_own_commit_is_in_its_version_line(tmp_path, monkeypatch):
    pkg = tmp_path / "mypaper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "paper")
    sha = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=tmp_path, capture_output=True,
                         text=True).stdout.strip()
    assert environment.paper_commit(pkg) == sha
    (pkg / "__init__.py").write_text("X = 1\n")
    assert environment.paper_commit(pkg) == sha + "+dirty"
    module = types.SimpleNamespace(__name__="mypaper", __path__=[str(pkg)])
    monkeypatch.setattr(registry, "module_of", lambda pid: module)
    assert build.paper_version("mypaper") == f"unversioned, git commit {sha}+dirty"


def test_no_commit_outside_git_or_in_the_engines_repository(tmp_path):
    assert environment.paper_commit(tmp_path) is None
    assert environment.paper_commit(build.__file__.rsplit("/", 1)[0]) is None


def test_a_paper_outside_git_says_so_with_its_files_digest(tmp_path, monkeypatch):
    """Not under version control: the package line says so with a digest of its files (not the engine's commit,
    which the header names as the engine's); the digest follows the files."""
    pkg = tmp_path / "loosepaper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("X = 1\n")
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "junk.pyc").write_bytes(b"\0")
    module = types.SimpleNamespace(__name__="loosepaper", __path__=[str(pkg)])
    monkeypatch.setattr(registry, "module_of", lambda pid: module)
    digest = environment.paper_digest(pkg)
    assert build.paper_version("loosepaper") == f"unversioned, not under version control (files sha256 {digest})"
    assert not build.is_shipped("loosepaper")
    assert build.engine_commit_label("loosepaper").startswith("Engine commit")
    (pkg / "__pycache__" / "junk.pyc").write_bytes(b"\1")  # caches do not change it; the code does
    assert environment.paper_digest(pkg) == digest
    (pkg / "__init__.py").write_text("X = 2\n")
    assert environment.paper_digest(pkg) != digest


def test_a_shipped_paper_keeps_the_git_commit_line(monkeypatch):
    from pathlib import Path

    shipped = Path(build.__file__).resolve().parent.parent  # a package inside the engine's repository
    module = types.SimpleNamespace(__name__="theoryverify", __path__=[str(shipped)])
    monkeypatch.setattr(registry, "module_of", lambda pid: module)
    if environment.git_commit() == "unknown":
        import pytest
        pytest.skip("the engine is not in a git checkout here")
    assert build.is_shipped("x") and build.engine_commit_label("x") == "Git commit"
    assert "not under version control" not in build.paper_version("x")


def test_the_runtime_of_a_fully_reused_run_says_reused():
    assert build.runtime_text(0.01, 0) == "every result reused from the results store"
    assert build.runtime_text(2.0, 3) == "runtime 2.0 s"


def test_the_headers_name_the_commit_as_the_engines():
    from theoryverify.report import html, markdown

    run = {"device_info": {"name": "cpu"}, "versions": {}, "command": "c", "profile": "quick", "seed": 1,
           "commit": "abc", "generated": "now", "commit_label": "Engine commit (theoryverify, not the paper)",
           "paper_version": "p 0.1, not under version control (files sha256 0123)"}
    paper = {"title": "T", "file": "p.txt", "id": "p", "spec": "p.md"}
    md = "\n".join(markdown.header(paper, run))
    assert "- Engine commit (theoryverify, not the paper): `abc`" in md and "Git commit" not in md
    assert "not under version control" in md
    page = html._run_html(paper, run)
    assert "Engine commit" in page and "not under version control" in page
