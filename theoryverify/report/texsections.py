"""The paper section of a claim located only by ``FILE:LINE`` (a drafted package's locations, ``Lemma lem:grad,
paper.tex:15`` or a step chain's ``paper.tex:32``): the ``\\section`` of the paper's LaTeX that holds that line,
as "Section 2 (The optimal penalty)" — so the report's "Passes by section" files such a pass under its section,
not under "Elsewhere".

The LaTeX is the paper's own text (``Paper.file``, found on the search path: :func:`theoryverify.catalogue.find_text`),
and only a ``.tex`` file of its folder that the location names is read; sections are counted in that file
(``\\section*`` unnumbered, titled only; ``\\appendix`` turns the count into letters).  A location naming no such
file or line gives None (the caller's "Elsewhere"), never a guessed section.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Mapping

SECTION_RE = re.compile(r"^[^%\n]*?\\(section\*?|appendix)(?![A-Za-z])\s*(?:\[[^\]]*\]\s*)?(?:\{([^{}]{0,120})\})?",
                        re.M)
WHERE_RE = re.compile(r"([\w./-]+\.tex):(\d+)")


def sections_of(text: str) -> list[tuple[int, str]]:
    """(first line, name) of each section of a LaTeX file: "Section 2 (The optimal penalty)", "Appendix A (…)",
    an unnumbered one by its title alone.

    >>> sections_of("x\\n\\\\section{Setting}\\ny\\n\\\\section*{Notes}\\n\\\\appendix\\n\\\\section{Proofs}\\n")
    [(2, 'Section 1 (Setting)'), (4, 'Notes'), (6, 'Appendix A (Proofs)')]
    """
    out, count, appendix = [], 0, False
    for m in SECTION_RE.finditer(text):
        line = text.count("\n", 0, m.start(1)) + 1
        if m.group(1) == "appendix":
            appendix, count = True, 0
            continue
        title = " ".join((m.group(2) or "").replace("\\", "").split())
        if m.group(1) == "section*":
            if title:
                out.append((line, title))
            continue
        count += 1
        num = f"Appendix {chr(ord('A') + count - 1)}" if appendix and count <= 26 else f"Section {count}"
        out.append((line, f"{num} ({title})" if title else num))
    return out


def resolver(paper: Mapping[str, object]) -> Callable[[str], str | None]:
    """A function from a claim's location to its section in ``paper``'s LaTeX (None where none is known)."""
    from ..catalogue import find_text

    file = str(paper.get("file") or "")
    path = find_text(file, str(paper.get("id"))) if file.endswith(".tex") else None
    if path is None:
        return lambda location: None
    folder, cache = path.parent, {}

    def section(location: str) -> str | None:
        m = WHERE_RE.search(location or "")
        if not m:
            return None
        rel = m.group(1)
        for candidate in (folder / rel, folder / Path(rel).name):
            try:
                candidate.resolve().relative_to(folder.resolve())
            except ValueError:
                continue
            if candidate.is_file():
                if candidate not in cache:
                    cache[candidate] = sections_of(candidate.read_text(encoding="utf-8", errors="replace"))
                found = [name for first, name in cache[candidate] if first <= int(m.group(2))]
                return found[-1] if found else None
        return None

    return section
