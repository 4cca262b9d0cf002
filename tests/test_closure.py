"""Cache keys follow the source closure of the code a claim runs: editing any local module it imports
(transitively) changes the key; editing an unrelated module does not."""
import importlib
from pathlib import Path
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


def test_a_lazy_package_s_submodules_are_in_the_closure(tmp_path, monkeypatch):
    """A package that imports its submodules on first attribute access (module-level __getattr__, PEP 562, as
    ``import theoryverify as tv`` does) hides them from the import statements: the submodules its __init__ names
    are in the closure, so editing the engine invalidates cached verdicts (it did not, before)."""
    lazy = _lazy_pair(tmp_path, monkeypatch, "import lazytab as tv\n\ndef check():\n    return tv.rule()\n")
    (lazy / "unused.py").write_text("X = 0\n")  # in the package, named nowhere
    files = _names(tmp_path, "usertab.claims")
    assert "lazytab/standards.py" in files and "lazytab/unused.py" not in files
    before = closure_version("usertab.claims")
    (lazy / "standards.py").write_text("def rule():\n    return 2\n")  # planted: an engine edit
    module_closure.cache_clear()
    assert closure_version("usertab.claims") != before


def test_the_engine_is_in_a_paper_claim_s_closure():
    files = module_closure("derivations.icrecall.claims.s2_assumptions")
    assert any(f.endswith("theoryverify/standards.py") for f in files)
    assert any(f.endswith("theoryverify/verdicts.py") for f in files)


def test_an_edited_file_is_read_again(tmp_path, monkeypatch):
    """The parsed imports are cached per file version: a module that gains an import gains it in its closure."""
    import os

    pkg = tmp_path / "editpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("X = 1\n")
    (pkg / "b.py").write_text("Y = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module_closure.cache_clear()
    assert [os.path.basename(f) for f in module_closure("editpkg.a")] == ["a.py"]
    (pkg / "a.py").write_text("from . import b\nX = 1\n")
    module_closure.cache_clear()
    assert [os.path.basename(f) for f in module_closure("editpkg.a")] == ["__init__.py", "a.py", "b.py"]


def test_computing_a_closure_imports_none_of_its_modules(tmp_path, monkeypatch):
    """The closure is read from the source, nothing executed: ``from .heavy import f`` made the lookup of the
    candidate submodule ``heavy.f`` import ``heavy`` (so the engine's closure imported scipy.stats, torch's
    submodules…, 0.9 s of CPU in every ``verify`` process), and a name inside an installed package imported that
    package's parents.  The closure itself is unchanged: ``heavy.py`` and the package stay in it."""
    import os
    import subprocess

    pkg = tmp_path / "heavypkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "heavy.py").write_text("import sys\nsys.modules['heavypkg_was_run'] = sys\n\ndef f():\n    return 1\n")
    (pkg / "sub" / "deep.py").write_text("G = 1\n")
    (pkg / "claims.py").write_text("from .heavy import f\nfrom .sub.deep import G\nfrom scipy.stats import qmc\n")
    code = ("import sys; from theoryverify.closure import module_closure; "
            "files = module_closure('heavypkg.claims'); "
            "print(sorted(f.rsplit('heavypkg', 1)[1] for f in files)); "
            "print([m for m in ('heavypkg_was_run', 'heavypkg.heavy', 'scipy.stats') if m in sys.modules])")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(Path(__file__).resolve().parents[1])]))
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    files, imported = out.stdout.splitlines()
    assert files == "['/__init__.py', '/claims.py', '/heavy.py', '/sub/__init__.py', '/sub/deep.py']"
    assert imported == "[]"


def _fresh_closure(module: str) -> list[str]:
    from theoryverify import closure

    closure.module_closure.cache_clear()
    closure._imports_of_version.cache_clear()  # the in-process cache: read from the disk cache or the source again
    return [Path(f).name for f in closure.module_closure(module)]


def test_parsed_imports_are_kept_on_disk_for_the_next_process(tmp_path, monkeypatch):
    """What a source file imports is kept under the hash of its text (``$XDG_CACHE_HOME/theoryverify/…``), so the
    next process reads it instead of parsing the ~100 files of a claim's closure again (~1.3 CPU-s per verify,
    report or pytest process): with parsing switched off, a warm cache still gives the same closure."""
    from theoryverify import closure

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _pkg(tmp_path, monkeypatch)
    first = _fresh_closure("closurepkg.claims")
    assert "core.py" in first and list((tmp_path / "cache" / "theoryverify" / "closure-imports").rglob("*.json"))

    def no_parsing(*args):
        raise AssertionError("parsed again although the disk cache holds this text")

    monkeypatch.setattr(closure, "_read_statements", no_parsing)
    assert _fresh_closure("closurepkg.claims") == first


def test_a_corrupt_or_unwritable_import_cache_is_read_again_from_the_source(tmp_path, monkeypatch):
    """An entry that is truncated or holds the wrong shape is parsed again (and rewritten); a cache folder that
    cannot be created is no error: the closure is the same in every case."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    pkg = _pkg(tmp_path, monkeypatch)
    first = _fresh_closure("closurepkg.claims")
    entries = list(cache.rglob("*.json"))
    for i, entry in enumerate(entries):  # truncated JSON, a wrong type, a missing field, a wrong element type
        entry.write_text(['{"imports": ["closurepkg.mo', '{"imports": "closurepkg", "lazy_constants": null}',
                          '{"imports": []}', '{"imports": [1], "lazy_constants": null}'][i % 4])
    assert _fresh_closure("closurepkg.claims") == first
    claims_entry = [e for e in cache.rglob("*.json") if "closurepkg.model.core" in e.read_text()]
    assert claims_entry, "the corrupt entry of claims.py was not rewritten"
    unwritable = tmp_path / "a-file"
    unwritable.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(unwritable))
    (pkg / "unrelated.py").write_text("from .model import core\n")  # a text the cache has not seen
    assert _fresh_closure("closurepkg.claims") == first
    assert sorted(_fresh_closure("closurepkg.unrelated")) == sorted(["__init__.py", "__init__.py", "core.py",
                                                                     "unrelated.py"])


def test_without_a_home_nothing_is_kept_in_the_working_directory(tmp_path, monkeypatch):
    """No $XDG_CACHE_HOME and no home folder ("~" does not expand): the imports are parsed, nothing is written
    (not a folder named "~" under the working directory)."""
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr("os.path.expanduser", lambda path: path)
    monkeypatch.chdir(tmp_path)
    _pkg(tmp_path, monkeypatch)
    assert "core.py" in _fresh_closure("closurepkg.claims")
    assert not (tmp_path / "~").exists()


def _lazy_pair(tmp_path, monkeypatch, user_source: str):
    """A lazy package with a table of two submodules, and a user module written as ``user_source``."""
    lazy = tmp_path / "lazytab"
    lazy.mkdir(exist_ok=True)
    (lazy / "__init__.py").write_text(
        "import importlib\n_API = {'rule': ('standards', 'rule'), 'reader': ('tex', None)}\n\n"
        "def __getattr__(name):\n    mod, attr = _API[name]\n"
        "    value = importlib.import_module(f'{__name__}.{mod}')\n"
        "    return value if attr is None else getattr(value, attr)\n")
    (lazy / "standards.py").write_text("def rule():\n    return 1\n")
    (lazy / "tex.py").write_text("def read():\n    return 'x'\n")
    user = tmp_path / "usertab"
    user.mkdir(exist_ok=True)
    (user / "__init__.py").write_text("")
    (user / "claims.py").write_text(user_source)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith(("lazytab", "usertab"))]:
        del sys.modules[name]
    module_closure.cache_clear()
    return lazy


def _names(tmp_path, module):
    module_closure.cache_clear()
    return sorted(p.replace(str(tmp_path) + "/", "") for p in module_closure(module))


def test_a_lazy_package_s_table_gives_only_the_submodules_a_claim_uses(tmp_path, monkeypatch):
    """``tv.rule`` reads ``standards`` only: editing the package's LaTeX reader (``tex``) keeps the stored results
    of a claim that never reads LaTeX (before, every submodule the package named was in every closure, so each
    edit of the reader invalidated hours of stored full-profile results); editing ``standards`` still changes it."""
    lazy = _lazy_pair(tmp_path, monkeypatch, "import lazytab as tv\n\ndef check():\n    return tv.rule()\n")
    assert _names(tmp_path, "usertab.claims") == ["lazytab/__init__.py", "lazytab/standards.py", "usertab/claims.py"]
    before = closure_version("usertab.claims")
    (lazy / "tex.py").write_text("def read():\n    return 'y'\n")
    module_closure.cache_clear()
    assert closure_version("usertab.claims") == before
    (lazy / "standards.py").write_text("def rule():\n    return 2\n")  # planted: an edit of what the claim runs
    module_closure.cache_clear()
    assert closure_version("usertab.claims") != before


def test_from_imports_and_module_entries_of_a_lazy_table(tmp_path, monkeypatch):
    """``from lazytab import rule`` is ``standards``; ``tv.reader`` (a table entry that is a submodule) is ``tex``."""
    _lazy_pair(tmp_path, monkeypatch, "from lazytab import rule\n")
    assert "lazytab/tex.py" not in _names(tmp_path, "usertab.claims")
    assert "lazytab/standards.py" in _names(tmp_path, "usertab.claims")
    (tmp_path / "usertab" / "claims.py").write_text("import lazytab as tv\nR = tv.reader.read\n")
    assert "lazytab/tex.py" in _names(tmp_path, "usertab.claims")
    assert "lazytab/standards.py" not in _names(tmp_path, "usertab.claims")


def test_a_use_that_cannot_be_followed_takes_the_whole_table(tmp_path, monkeypatch):
    """``tv`` passed on, ``getattr(tv, name)`` or ``from lazytab import *`` may read anything the table names: every
    submodule is in the closure (never fewer files than the code can run)."""
    for source in ("import lazytab as tv\n\ndef f(name):\n    return getattr(tv, name)\n",
                   "import lazytab as tv\nrun = print\nrun(tv)\n", "from lazytab import *\n"):
        _lazy_pair(tmp_path, monkeypatch, source)
        files = _names(tmp_path, "usertab.claims")
        assert "lazytab/tex.py" in files and "lazytab/standards.py" in files, source
    # the package's own closure: everything it can load
    assert {"lazytab/tex.py", "lazytab/standards.py"} <= set(_names(tmp_path, "lazytab"))


def test_the_latex_reader_is_outside_the_shipped_claims_closures_but_in_the_tex_chain_s():
    """The four papers' claims run no LaTeX reading: an edit of ``theoryverify/check/tex`` keeps their stored
    results; the engine's claim-running, checking and standards code stays in (test above) and
    ``tv.check_tex_chain``'s closure has the reader."""
    for module in ("derivations.knowledge.claims.s6_pretraining", "derivations.icrecall.claims.s4_polylog"):
        files = module_closure(module)
        assert not any("/check/tex/" in f for f in files), module
        assert any(f.endswith("theoryverify/claims.py") for f in files)
        assert any(f.endswith("theoryverify/check/prove.py") for f in files)  # the sign analysis a check uses
    assert any(f.endswith("theoryverify/check/tex/grammar.py") for f in module_closure("theoryverify.texsteps"))
