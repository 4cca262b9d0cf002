"""Small ``--tex`` papers for reading tests: write one, run ``python -m theoryverify.check --tex … --json`` on it in
process, and return its relation rows (imported as ``from texrows import …``, like :mod:`venvs`)."""
from __future__ import annotations

import json

from theoryverify.check import cli


def tex_rows(tmp_path, capsys, body: str, *, name: str = "p.tex", preamble: str = "",
             args: tuple[str, ...] = ()) -> list[dict]:
    """The relation rows of an article whose document body is ``body`` (``preamble`` before ``\\begin{document}``)."""
    f = tmp_path / name
    f.write_text("\\documentclass{article}\n" + preamble + "\\begin{document}\n" + body + "\\end{document}\n")
    cli.main(["--tex", str(f), "--json", *args])
    return json.loads(capsys.readouterr().out)["relations"]


def displays(*bodies: str) -> str:
    """A document body with each of ``bodies`` as an equation led in by "We have"."""
    return "\n".join(f"We have\n\\begin{{equation}}\n{d}\n\\end{{equation}}\n" for d in bodies)


def doc(*parts: str) -> str:
    """The lines ``parts`` joined into one LaTeX text (each on its own line, a newline at the end)."""
    return "\n".join(parts) + "\n"


def proof_align(*rows: str) -> str:
    """A proof whose one display is an ``align*`` of ``rows`` (each row with its own ``\\\\`` where it needs one),
    led in by "We have"."""
    return doc(r"\begin{proof}", "We have", r"\begin{align*}", *rows, r"\end{align*}", r"\end{proof}")
