"""Searches draw the same examples whatever else is imported: Hypothesis's pool of literals collected from
loaded local modules is switched off during an engine search (theoryverify/checks/search.py)."""
import subprocess
import sys
import textwrap

CODE = textwrap.dedent("""
    import sys, importlib
    from hypothesis import strategies as st
    from theoryverify import profiles
    from theoryverify.checks.search import examples, search
    profiles.load()
    if sys.argv[1] == "more":
        # a local module full of numeric literals, loaded before the search
        import types, pathlib, tempfile
        d = tempfile.mkdtemp(dir=".")
        pathlib.Path(d, "lots_of_constants.py").write_text("X = [" + ", ".join(str(1.5 + i) for i in range(400)) + "]")
        sys.path.insert(0, d)
        importlib.import_module("lots_of_constants")
    strat = st.floats(-1e3, 1e3, allow_nan=False)
    print(examples(strat, 7, 60))
    res = search(strat, lambda x: abs(x), fails=lambda s: s > 1e9, seed=7, max_examples=60)
    print(res.worst)
""")


def test_examples_do_not_depend_on_loaded_modules(tmp_path):
    outs = [subprocess.run([sys.executable, "-c", CODE, mode], capture_output=True, text=True, cwd=tmp_path,
                           timeout=120) for mode in ("plain", "more")]
    assert all(o.returncode == 0 for o in outs), [o.stderr[-500:] for o in outs]
    assert outs[0].stdout == outs[1].stdout
