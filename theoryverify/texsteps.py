"""A derivation chain of a paper's LaTeX, checked as a claim: ``tv.check_tex_chain(tex, "main.tex:41", seed)``.

``python -m theoryverify new-paper NAME --from-tex paper.tex`` registers every chain of steps the LaTeX reader
(:mod:`theoryverify.check.tex`) finds as a claim whose check is this function, so that ``verify`` checks the
paper's derivations from the first run.  The chain is named by where its first relation is (``FILE:LINE``, as
the reader prints it); the paper is read once per process (per file and modification time) and only the named
chain is checked.  The verdict is the chain's:

- refuted — a step is refuted (the reader's first wrong step, with its counterexample);
- proved / holds — every step is proved / proved or holds (definitions and other non-steps are not checked);
- inconclusive — otherwise, with each undecided step and why (unreadable, ambiguous, not decided), or when no
  chain starts at that line any more (the paper was edited: regenerate or fix the line).

Every check can fail: a wrong step planted in the LaTeX is refuted (``tests/test_fromtex.py``).

A chain is registered as a claim in one call, ``tv.tex_chain("steps_eq_drisk", "paper.tex:32", statement=...)``
(:func:`tex_chain`): the claim checks the chain in the paper's own LaTeX (its ``PAPER.file``, found where the
report finds it), so a claims module needs no path, closure or ``CLAIMS`` line of its own.
"""
from __future__ import annotations

import functools
import sys
import threading
from pathlib import Path

from .check.parser import BadInput
from .errors import TheoryverifyError
from .verdicts import Verdict, inconclusive, proved, refuted
from .verdicts import holds as holds_verdict

METHOD = "the LaTeX reader's step checker"
_CACHE: dict[tuple[str, int, int], object] = {}
_LOCK = threading.Lock()


def _paper(tex: Path, seed: int):
    from .check.tex.run import Paper

    key = (str(tex.resolve()), tex.stat().st_mtime_ns, seed)
    with _LOCK:
        if key not in _CACHE:
            paper = Paper([str(tex)], seed=seed)
            paper.read()
            _CACHE.clear()  # one paper at a time: a fresh read replaces an edited one
            _CACHE[key] = paper
        return _CACHE[key]


def chain_relations(tex: str | Path, where: str, seed: int = 0) -> list:
    """The reader's relations (:class:`theoryverify.check.tex.run.Relation`) of the chain whose first relation is
    at ``where`` (``FILE:LINE``), checked; [] when no chain starts there."""
    tex = Path(tex)
    if not tex.is_file():
        raise TheoryverifyError(f"the paper's LaTeX {tex} is missing")
    try:
        paper = _paper(tex, seed)
    except BadInput as exc:
        raise TheoryverifyError(f"{tex}: {' '.join(str(exc).split())}") from None
    first: dict[int, object] = {}
    for rel in paper.relations:
        first.setdefault(rel.chain, rel)
    chains = {c for c, rel in first.items() if f"{rel.file}:{rel.line}" == where}
    if not chains:
        return []
    file, line = where.rsplit(":", 1)
    with _LOCK:
        paper.check(jobs=1, only={(file, int(line))})
    return [r for r in paper.relations if r.chain in chains]


def check_tex_chain(tex: str | Path, where: str, seed: int = 0) -> Verdict:
    """The verdict of the derivation chain at ``where`` (``FILE:LINE``) of the LaTeX file ``tex`` (see the module
    docstring).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "p.tex").write_text("We have\\n\\\\begin{equation}\\n(a+b)^2 = a^2 + b^2\\n\\\\end{equation}\\n")
    >>> check_tex_chain(folder / "p.tex", "p.tex:3").status.value
    'refuted'
    """
    rels = chain_relations(tex, where, seed)
    if not rels:
        return inconclusive(METHOD, f"no derivation chain starts at {where} (was the paper edited? regenerate the "
                                    "claim or fix its line)")
    steps = [r for r in rels if r.kind == "step" and r.status != "not_a_step"]
    shown = [f"{r.file}:{r.line}: {r.status}" for r in steps]
    wrong = next((r for r in steps if r.status == "refuted"), None)
    if wrong is not None:
        ce = dict(wrong.counterexample or {}) or {"at": f"{wrong.file}:{wrong.line}"}
        return refuted(METHOD, f"{wrong.file}:{wrong.line}: {wrong.latex} — read as {wrong.read_as}: {wrong.reason}",
                       ce, steps=shown)
    if not steps:
        return inconclusive(METHOD, f"the chain at {where} has no derivation step (its relations are "
                                    f"{', '.join(sorted({r.kind for r in rels}))})", steps=shown)
    if all(r.status == "proved" for r in steps):
        return proved(METHOD, f"{len(steps)} step(s) proved", steps=shown)
    if all(r.status in ("proved", "holds") for r in steps):
        return holds_verdict(METHOD, f"{len(steps)} step(s) proved or hold", steps=shown)
    open_ = [r for r in steps if r.status not in ("proved", "holds")]
    why = "; ".join(f"{r.file}:{r.line} {r.status}: {' '.join((r.reason or '').split())[:160]}" for r in open_[:3])
    return inconclusive(METHOD, f"{len(open_)} of {len(steps)} step(s) not decided — {why}", steps=shown)


def chain_check(ctx, *, paper: str, where: str) -> Verdict:
    """The check of a :func:`tex_chain` claim: :func:`check_tex_chain` on ``paper``'s LaTeX (its ``PAPER.file``,
    looked up as the report looks up the text: in the package's ``paper/`` folder or ``$THEORYVERIFY_PAPERS_DIR``);
    :class:`~theoryverify.claims.Unavailable` (not checkable here) when it is not found."""
    from . import catalogue, registry
    from .claims import Unavailable

    declared = registry.papers().get(paper)
    name = getattr(declared, "file", None)
    tex = catalogue.find_text(name, paper) if name else None
    if tex is None:
        raise Unavailable(f"the LaTeX of paper {paper!r} ({name or 'no PAPER.file declared'}) is not found: in "
                          f"its package's paper/ folder or ${catalogue.PAPERS_DIR_ENV}")
    return check_tex_chain(tex, where, ctx.seed)


def tex_chain(short_id: str, where: str, *, statement: str, location: str | None = None, kind=None,
              planted: str | None = None, **registration) -> None:
    """Register the derivation chain that starts at ``where`` (``FILE:LINE`` of the paper's LaTeX, as the reader
    prints it) as claim ``<paper>.<short_id>`` of the calling module's paper (its ``CLAIMS``, set if absent, as
    ``tv.claim`` does), checked by :func:`check_tex_chain` on the paper's own LaTeX (:func:`chain_check`).
    ``location`` defaults to ``where`` (``"<where>, PLANTED"`` for a planted one), ``kind`` to ``tv.Kind.IDENTITY``; every other argument is
    :meth:`~theoryverify.claims.ClaimSet.add`'s (``catalogue_id``, ``expect``/``finding``/``reason`` for a chain
    expected refuted or inconclusive, ...).

    ``planted="why"`` marks a slip planted on purpose in the LaTeX (a demo paper showing that the step checker
    catches one) as :class:`~theoryverify.Planted` marks a twin: expected refuted (``finding`` ``typo`` unless
    given; ``reason`` ``"planted: why"``), listed with the planted errors ("planted errors: N of N caught") and
    never counted as a finding of the paper.  A wrong step of the paper itself is no planted one: register it with
    ``expect``, ``finding`` and ``reason``.

    >>> import theoryverify as tv
    >>> tv.tex_chain("steps_eq_1", "paper.tex:3", statement="the derivation chain (a+b)^2 = a^2 + b^2",
    ...              expect=tv.Status.REFUTED, finding=tv.Finding.TYPO, reason="planted: the cross term dropped")
    >>> c = CLAIMS.claims[-1]; c.id, c.location, c.kind.value, c.expect.value
    ('theoryverify.steps_eq_1', 'paper.tex:3', 'identity', 'refuted')
    >>> tv.tex_chain("steps_eq_2", "paper.tex:9", statement="the chain (a-b)^2 = a^2 - b^2", planted="no cross term")
    >>> c = CLAIMS.claims[-1]; c.planted_of == c.id, c.expect.value, c.finding.value, c.reason, c.location
    (True, 'refuted', 'typo', 'planted: no cross term', 'paper.tex:9, PLANTED')
    """
    import dataclasses

    from .claims import REGISTRARS, Kind, implicit_claims
    from .findings import Finding
    from .verdicts import Status

    REGISTRARS.add(tex_chain.__code__)
    claims = implicit_claims(sys._getframe(1).f_globals)
    check = functools.partial(chain_check, paper=claims.paper, where=where)
    if planted is not None:
        registration.setdefault("expect", Status.REFUTED)
        registration.setdefault("finding", Finding.TYPO)
        registration.setdefault("reason", f"planted: {planted}")
    if location is None:  # a planted chain's location says so, as every tv.Planted twin's does ("…, PLANTED")
        location = f"{where}, PLANTED" if planted is not None else where
    claims.add(short_id, location=location, statement=statement, kind=kind or Kind.IDENTITY,
               **registration)(check)
    if planted is not None:  # planted in the paper's LaTeX itself: its own id (no claim of the paper it is a twin of)
        claims.claims[-1] = dataclasses.replace(claims.claims[-1], planted_of=claims.claims[-1].id)
