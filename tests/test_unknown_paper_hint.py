"""An unknown paper id says how an uninstalled paper is made seen (issue 29, defect 8): for a project folder in
the working directory, for a package folder there, and in general."""
from __future__ import annotations

import pytest

from theoryverify import registry


def test_a_project_folder_here_is_named_with_each_route(tmp_path):
    (tmp_path / "lsq" / "lsq").mkdir(parents=True)
    (tmp_path / "lsq" / "pyproject.toml").write_text("[tool.theoryverify]\npapers = ['lsq']\n")
    (tmp_path / "lsq" / "lsq" / "__init__.py").write_text("")
    hint = registry._how_to_see("lsq", tmp_path)
    assert "cd lsq && PYTHONPATH=. python -m theoryverify" in hint
    assert "THEORYVERIFY_PAPERS=lsq PYTHONPATH=lsq" in hint and "pip install -e lsq" in hint


def test_a_package_folder_here_is_named(tmp_path):
    (tmp_path / "lsq").mkdir()
    (tmp_path / "lsq" / "__init__.py").write_text("")
    assert "THEORYVERIFY_PAPERS=lsq PYTHONPATH=. python" in registry._how_to_see("lsq", tmp_path)


def test_the_error_carries_the_general_hint(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(registry.UnknownName) as info:
        registry.claims("nosuchpaper")
    text = str(info.value)
    assert text.startswith("unknown paper id 'nosuchpaper'") and "THEORYVERIFY_PAPERS=nosuchpaper" in text
    assert "\n" not in text
