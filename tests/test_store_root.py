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
