"""Build the API reference of ``theoryverify`` with pdoc: ``python docs/api.py --out DIR`` (or ``python docs/api.py
DIR``; ``--help`` says so; ``pip install -e .[dev]``).

Every warning pdoc gives (a name in ``__all__`` that does not resolve, a docstring it cannot render, a module that
fails to import) is an error: the build exits 1 with the warning, so the reference cannot silently lose a page.
``tests/test_api_docs.py`` runs it (CI runs that test).  The public names that ``import theoryverify`` loads on
first use (``tv.check_identity`` …) are resolved before pdoc reads the package, so the reference documents them
where a paper author finds them: as attributes of ``theoryverify``.  Command-line entry points (``__main__``
modules) and the GPU sweep runner's worker are left out: importing them runs them.
"""
from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

EXCLUDE = ["!theoryverify.__main__", "!theoryverify.check.__main__", "!theoryverify.report.__main__",
           "!theoryverify.gpu.__main__", "!theoryverify.templates"]


def build(out: Path) -> list[Path]:
    """Write the reference into ``out``; return the pages written (warnings raise)."""
    import pdoc
    import pdoc.render

    import theoryverify
    import theoryverify.check

    for name in theoryverify.__all__:  # the lazy public API, resolved so pdoc sees it
        getattr(theoryverify, name)
    for name in theoryverify.check.__all__:
        theoryverify.check.__dict__.setdefault(name, getattr(theoryverify.check, name))
    pdoc.render.configure(docformat="restructuredtext", show_source=False,
                          footer_text=f"theoryverify {theoryverify.__version__}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pdoc.pdoc("theoryverify", *EXCLUDE, output_directory=out)
    return sorted(out.rglob("*.html"))


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python docs/api.py", description="Build the API reference of theoryverify "
                                 "(HTML, with pdoc) into a folder; every pdoc warning is an error.")
    ap.add_argument("dir", nargs="?", metavar="DIR", help="the folder to write the reference into (same as --out)")
    ap.add_argument("--out", metavar="DIR", help="the folder to write the reference into")
    return ap


class _Usage(Exception):
    pass


def _out_dir(argv: list[str]) -> str:
    """The output folder named by ``argv`` (``DIR`` or ``--out DIR``, exactly one); raises _Usage with one line."""
    ap = _parser()
    ap.error = lambda message: (_ for _ in ()).throw(_Usage(message))  # one-line errors, not argparse's exit 2
    args = ap.parse_args(argv)
    if args.dir and args.out and args.dir != args.out:
        raise _Usage(f"two output folders given ({args.dir!r} and --out {args.out!r}): give one")
    out = args.out or args.dir
    if not out:
        raise _Usage("no output folder given: python docs/api.py --out DIR")
    if out.startswith("-"):
        raise _Usage(f"{out!r} is not an output folder (it starts with '-'): python docs/api.py --out DIR")
    return out


def main(argv: list[str]) -> int:
    try:
        out = _out_dir(argv)
    except _Usage as exc:
        sys.stderr.write(f"api reference: {exc} (python docs/api.py --help)\n")
        return 2
    try:
        pages = build(Path(out))
    except Exception as exc:  # noqa: BLE001 - a warning turned error, or a module that does not import
        if isinstance(exc, ModuleNotFoundError) and exc.name == "pdoc":
            sys.stderr.write("api reference: pdoc is not installed: pip install -e '.[dev]' (the docstrings are "
                             "also readable with: python -m pydoc theoryverify)\n")
            return 2
        sys.stderr.write(f"api reference: {type(exc).__name__}: {' '.join(str(exc).split())}\n")
        return 1
    print(f"api reference: {len(pages)} pages in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
