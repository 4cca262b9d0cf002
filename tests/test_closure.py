"""Cache keys follow the source closure of the code a claim runs: editing any local module it imports
(transitively) changes the key; editing an unrelated module does not."""
import importlib
import sys

from theoryverify.closure import closure_version, code_key, module_closure


def _pkg(tmp_path, monkeypatch):
    pkg = tmp_path / "closurepkg"
    (pkg / "model").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "model" / "__init__.py").write_text("")
    (pkg / "model" / "core.py").write_text("A = 1\n")
    (pkg / "claims.py").write_text("from .model.core import A\n\ndef check():\n    return A\n")
    (pkg / "unrelated.py").write_text("B = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("closurepkg")]:
        del sys.modules[name]
    module_closure.cache_clear()
    return pkg


def test_key_changes_with_an_imported_module_only(tmp_path, monkeypatch):
    pkg = _pkg(tmp_path, monkeypatch)
    files = [p.replace(str(tmp_path) + "/", "") for p in module_closure("closurepkg.claims")]
    assert "closurepkg/model/core.py" in files and "closurepkg/unrelated.py" not in files
    before = closure_version("closurepkg.claims")
    (pkg / "unrelated.py").write_text("B = 3\n")
    assert closure_version("closurepkg.claims") == before
    (pkg / "model" / "core.py").write_text("A = 2\n")
    assert closure_version("closurepkg.claims") != before


def test_code_key_of_a_function_is_its_module_closure(tmp_path, monkeypatch):
    _pkg(tmp_path, monkeypatch)
    mod = importlib.import_module("closurepkg.claims")
    assert code_key(mod.check) == code_key(mod) == closure_version("closurepkg.claims")


def test_installed_libraries_are_not_in_the_closure():
    files = module_closure("theoryverify.scaling")
    assert files and not any("site-packages" in f for f in files)
    assert any(f.endswith("theoryverify/scaling.py") for f in files)
