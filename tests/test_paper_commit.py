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
