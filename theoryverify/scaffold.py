"""``python -m theoryverify new-paper NAME --dir DIR [--title T] [--from-tex PAPER.tex]``: write a new paper package
in the uniform layout (``--out`` is another name for ``--dir``).  With ``--from-tex`` the package is drafted from the
paper's LaTeX (:mod:`theoryverify.fromtex`): its numbered displays in ``printed/``, its theorems as claim stubs, its
derivation chains as step-check claims, and a catalogue.

``DIR/NAME`` becomes an installable project (``pyproject.toml`` declaring the ``theoryverify.papers`` entry
point, a README, a ``.gitignore``) holding the package ``NAME`` — ``printed/``, ``model/``, ``experiments/``,
``claims/`` (one identity claim, printed display against the model's derivation), ``contexts.py`` (the step
context ``NAME.main``) — and ``tests/test_planted.py`` (a wrong coefficient in the display is refuted).
After ``pip install -e DIR/NAME`` every front-end sees the paper from any working directory; without installing,
``PYTHONPATH=.`` in DIR/NAME finds it through its ``[tool.theoryverify] papers`` (or ``THEORYVERIFY_PAPERS=NAME``
with ``PYTHONPATH=DIR/NAME`` from anywhere; :mod:`theoryverify.registry`).

The files are rendered from ``theoryverify/templates/paper`` (shipped as package data): ``{{name}}``,
``{{title_py}}``, ``{{title_toml}}`` and ``{{title_md}}`` are replaced by the name and the title quoted for
Python, TOML and Markdown; ``__paper__`` in a path becomes the package name, a leading ``dot-`` a dot, and
the ``.tmpl`` suffix is dropped.  Nothing is evaluated.  A bad name, a bad title or an existing non-empty
target folder is a one-line :class:`ScaffoldError` (exit 2), and nothing is written.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import keyword
import re
import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import TheoryverifyError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

TEMPLATE = "paper"
PACKAGE_PLACEHOLDER = "__paper__"
NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,63}")
#: names a paper package must not take (the engine, the usual test and source folders)
RESERVED = frozenset({"theoryverify", "tests", "test", "src", "docs", "examples", "derivations"})


class ScaffoldError(TheoryverifyError, ValueError):
    """A name, title or target the scaffold refuses (front-ends print it on one line, exit 2)."""


def _check_spelling(name: str) -> None:
    if not NAME_RE.fullmatch(name) or name.endswith("_"):
        raise ScaffoldError(f"invalid paper name {name!r}: use a lower-case Python identifier "
                            "(letters, digits, underscores; starting with a letter), e.g. saxe2014")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in RESERVED:
        raise ScaffoldError(f"invalid paper name {name!r}: a reserved word")


def check_name(name: str) -> None:
    """A paper id is its package name: a lower-case Python identifier that no importable module (a plain
    folder on the path does not count) and no installed paper already takes."""
    _check_spelling(name)
    spec = importlib.util.find_spec(name)
    if name in getattr(sys, "stdlib_module_names", ()) or (spec is not None and spec.origin is not None):
        raise ScaffoldError(f"invalid paper name {name!r}: a module of that name is already importable "
                            "(pick another name)")
    from . import registry

    if name in registry.papers():
        raise ScaffoldError(f"invalid paper name {name!r}: a paper with that id is already installed "
                            f"({registry.module_of(name).__name__})")


def check_title(title: str) -> None:
    if not title.strip() or any(ord(ch) < 32 for ch in title):
        raise ScaffoldError("invalid title: one non-empty line without control characters")


def _values(name: str, title: str) -> dict[str, str]:
    return {"name": name, "title_py": repr(title), "title_toml": json.dumps(title, ensure_ascii=False),
            "title_md": title.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")}


def _render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    left = re.search(r"\{\{\w+\}\}", text)
    if left:  # a template names a value the scaffold does not know: an engine bug, never a silent gap
        raise RuntimeError(f"unknown template placeholder {left.group(0)}")
    return text


def _target(rel: str, name: str) -> str:
    parts = [p.replace(PACKAGE_PLACEHOLDER, name) for p in rel.split("/")]
    if parts[-1].startswith("dot-"):
        parts[-1] = "." + parts[-1][len("dot-"):]
    parts[-1] = parts[-1].removesuffix(".tmpl")
    return "/".join(parts)


def _walk(node: Traversable, prefix: str = ""):
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            if child.name != "__pycache__":
                yield from _walk(child, rel + "/")
        elif child.name.endswith(".tmpl"):
            yield rel, child


def render_paper(name: str, title: str | None = None) -> dict[str, str]:
    """The files of a new paper package: relative path → text (nothing written)."""
    check_name(name)
    title = name if title is None else title
    check_title(title)
    values = _values(name, title)
    root = resources.files("theoryverify").joinpath("templates").joinpath(TEMPLATE)
    files = {_target(rel, name): _render(node.read_text(encoding="utf-8"), values) for rel, node in _walk(root)}
    if not files:
        raise ScaffoldError(f"the paper templates are missing from this installation ({root})")
    return files


def write_paper(name: str, folder: Path | str = ".", title: str | None = None) -> tuple[Path, list[Path]]:
    """Write the package ``folder/name``; return it and the files written.  Refuses an existing non-empty
    target (nothing is overwritten)."""
    _check_spelling(name)  # before the name becomes a path
    target = Path(folder) / name
    if Path(folder).exists() and not Path(folder).is_dir():
        raise ScaffoldError(f"--dir {folder} is not a folder")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(f"{target} already exists and is not an empty folder")
    files = render_paper(name, title)
    written = []
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return target, written


def main(args: argparse.Namespace) -> int:
    """The ``new-paper`` command (see the module docstring); errors are raised as :class:`ScaffoldError`."""
    if getattr(args, "from_tex", None):
        return _main_from_tex(args)
    try:
        target, written = write_paper(args.name, args.dir, args.title)
    except OSError as exc:
        raise ScaffoldError(f"cannot write {Path(args.dir) / args.name}: {exc.strerror or exc}") from None
    n_lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in written)
    print(f"wrote {target} ({len(written)} files, {n_lines} lines): the paper {args.name!r} in the uniform layout")
    print(f"  optional (delete what the paper does not use): {args.name}/experiments/, {args.name}/contexts.py, "
          f"tests/, README.md, .gitignore, the ORDER line of claims/__init__.py — see README.md, Layout")
    _next(args, target)
    return 0


def _main_from_tex(args: argparse.Namespace) -> int:
    """``new-paper NAME --from-tex PAPER.tex``: the package drafted from the LaTeX (:mod:`theoryverify.fromtex`),
    and what the reader managed: displays transcribed, statements stubbed, chains registered."""
    from . import fromtex

    try:
        target, draft, n_files = fromtex.write(args.name, args.from_tex, args.dir, args.title)
    except OSError as exc:
        raise ScaffoldError(f"cannot write {Path(args.dir) / args.name}: {exc.strerror or exc}") from None
    c = draft.counts()
    print(f"wrote {target} ({n_files} files): the paper {args.name!r} drafted from {args.from_tex}")
    print(f"  {c['numbered_or_labelled']} numbered or labelled displays: {c['transcribed']} transcribed into printed/, "
          f"{c['review']} need review (read ambiguously or lossily: a REVIEW comment names both readings or what "
          f"was lost), {c['partly']} partly, {c['todo']} as TODOs (with the reason)")
    print(f"  {c['statements']} theorem-like statements as claim stubs (inconclusive: not yet checked); "
          f"{c['chains']} derivation chains as step-check claims ({c['undecided']} the step checker leaves undecided, "
          f"expected inconclusive with the reason); the catalogue in {args.name}/spec/{args.name}.md")
    if c["skipped"]:
        print(f"  {c['skipped']} displayed relations are no derivation step (definitions, parameter choices, "
              "hypotheses …): no claim; listed in the catalogue with their kind")
    if not (c["numbered_or_labelled"] or c["statements"] or c["chains"] or c["skipped"]):
        print(f"warning: {args.from_tex} has no displayed relation and no theorem-like statement, so the draft holds "
              "nothing from it (the main file of the paper? its \\input files are followed)", file=sys.stderr)
    _next(args, target, f"python -m theoryverify.check --tex {target / args.name / 'paper' / 'tex' / draft.main}")
    return 0


def _next(args: argparse.Namespace, target: Path, check: str | None = None) -> None:
    """The commands to run next; ``check`` replaces the placeholder context's example (a drafted paper has no
    placeholder model: its step check is the LaTeX's)."""
    print("next:")
    for line in (f"pip install -e {target}      # or, with nothing installed: cd {target} && export PYTHONPATH=. "
                 f"(its pyproject.toml's [tool.theoryverify] papers names it; elsewhere THEORYVERIFY_PAPERS="
                 f"{args.name} PYTHONPATH={target})",
                 f"python -m theoryverify verify --paper {args.name}",
                 f"python -m theoryverify.report --paper {args.name} --out reports",
                 check or f'python -m theoryverify.check --context {args.name}.main "diff(L, w) == (w*x - y)*x"',
                 f"cd {target} && python -m pytest -m theorems"):
        print(f"  {line}")
