"""Where verify and the report keep finished claims (issue 29, defect 11): a paper in a project folder keeps its
results there, whatever the working directory; ``$THEORYVERIFY_CACHE`` overrides; anything else keeps the
working directory's ``.theoryverify-cache/report``."""
from __future__ import annotations

import types
from pathlib import Path

import pytest

from theoryverify import registry, resume


@pytest.fixture()
def layout(tmp_path, monkeypatch):
    project = tmp_path / "lsq"
    (project / "lsq").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.theoryverify]\npapers = ['lsq']\n")
    (tmp_path / "flat" / "other").mkdir(parents=True)  # a package whose folder holds no pyproject.toml
    modules = {"lsq": types.SimpleNamespace(__file__=str(project / "lsq" / "__init__.py")),
               "other": types.SimpleNamespace(__file__=str(tmp_path / "flat" / "other" / "__init__.py"))}
    monkeypatch.setattr(registry, "paper_modules", lambda: modules)
    monkeypatch.delenv(resume.CACHE_ENV, raising=False)
    return project


def test_a_paper_in_a_project_folder_keeps_its_results_there_from_any_folder(layout, monkeypatch):
    for here in (layout, layout / "lsq", layout.parent):
        monkeypatch.chdir(here)
        assert resume.store_root(["lsq"]) == layout.resolve() / ".theoryverify-cache" / "report"


def test_otherwise_the_working_directory(layout):
    assert resume.store_root(["other"]) == Path(".theoryverify-cache") / "report"
    assert resume.store_root(["lsq", "other"]) == Path(".theoryverify-cache") / "report"
    assert resume.store_root([]) == Path(".theoryverify-cache") / "report"


def test_the_environment_variable_wins(layout, monkeypatch, tmp_path):
    monkeypatch.setenv(resume.CACHE_ENV, str(tmp_path / "cache"))
    assert resume.store_root(["lsq"]) == tmp_path / "cache" / "report"


def test_a_store_root_set_by_the_caller_wins(layout, monkeypatch, tmp_path):
    monkeypatch.setattr(resume, "STORE_ROOT", tmp_path / "store")
    assert resume.store_root(["lsq"]) == tmp_path / "store"


def test_the_cache_variable_moves_sweep_points_too(tmp_path, monkeypatch):
    """$THEORYVERIFY_CACHE moved only the finished claims (``report/``): a sweep's points stayed in the working
    directory's .theoryverify-cache, so a full report started from a fresh worktree recomputed every point (session
    43: icrecall's full run). Both now live under the variable's folder; without it, the working directory's."""
    from theoryverify.store import Store, point_key, sweep

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(resume.CACHE_ENV, raising=False)
    assert Store().root == Path(".theoryverify-cache")
    shared = tmp_path / "shared"
    monkeypatch.setenv(resume.CACHE_ENV, str(shared))
    assert Store().root == shared and Store(tmp_path / "x").root == tmp_path / "x"
    calls = []

    def square(c):
        calls.append(c["x"])
        return c["x"] ** 2

    key = {"claim": "demo.points", "code": "v1"}
    assert sweep(Store(), key, [{"x": 2}, {"x": 3}], square) == [4, 9]
    monkeypatch.chdir(tmp_path / "shared")  # another working directory, the same variable: every point reused
    assert sweep(Store(), key, [{"x": 2}, {"x": 3}], square) == [4, 9] and calls == [2, 3]
    assert Store().get(point_key(key, {"x": 3}))[0]
    assert resume.store_root() == shared / "report"
