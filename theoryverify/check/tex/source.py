"""The files of a paper, as one text with every position mapped back to ``FILE:LINE``.

``\\input{x}``, ``\\input x``, ``\\include{x}``, ``\\subfile{x}``, ``\\import{dir}{x}`` / ``\\subimport{dir}{x}``
are followed when the file lies inside the main file's folder (never outside it, never an absolute path), up to
:data:`MAX_DEPTH` levels, each file at most once.  A ``\\subfile``'d file contributes the body between its
``\\begin{document}`` and ``\\end{document}``.  Local packages (``\\usepackage{mymacros}`` with ``mymacros.sty`` in
the folder) are read for their macro definitions only.  Comments are blanked with spaces (so positions and lines
stay where they were; ``\\%`` is kept); ``% theoryverify: …`` comment lines are kept as :class:`Directive`.

Nothing is run and no file outside the folder is opened; what cannot be followed is a :class:`Note`, never a
refusal of the whole paper.  A file that cannot be opened or is not text is :class:`~..parser.BadInput` (exit 2).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path

from ..parser import BadInput

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_TOTAL_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 8
MAX_FILES = 400

INCLUDE_RE = re.compile(
    r"\\(input|include|subfile|import|subimport|subinputfrom|inputfrom)(?![A-Za-z])[ \t]*"
    r"(?:\{([^{}\n]{0,300})\}(?:[ \t]*\{([^{}\n]{0,300})\})?|([^\s{}\\%]{1,300}))")
USEPACKAGE_RE = re.compile(r"\\usepackage\s*(?:\[[^\]]{0,500}\])?\s*\{([^{}]{1,500})\}")
DIRECTIVE_RE = re.compile(r"%+[ \t]*theoryverify[ \t]*:[ \t]*([A-Za-z]+)\b[ \t]*([^\n]*)")
COMMENT_RE = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*")
DOC_BEGIN_RE = re.compile(r"\\begin\s*\{document\}")
DOC_END_RE = re.compile(r"\\end\s*\{document\}")
DIRECTIVE_WORDS = ("assume", "define", "skip", "function", "scalar")


@dataclass(frozen=True)
class Note:
    """Something read and not used (a file not followed, a construct skipped): shown to the user."""
    where: str
    message: str


@dataclass(frozen=True)
class Directive:
    """``% theoryverify: WORD ARG`` at ``pos`` of the joined text."""
    pos: int
    word: str
    arg: str


@dataclass
class Document:
    """The paper as one text (comments blanked), with a map from each line of it to ``(file, line)``."""
    text: str
    root: Path
    main: str
    origins: list[tuple[int, str, int]] = field(default_factory=list)  # (start offset, file, first line)
    directives: list[Directive] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    macro_texts: list[tuple[str, str]] = field(default_factory=list)  # (origin, text) of local .sty files
    files: list[str] = field(default_factory=list)
    body_start: int = 0  # offset of the text after \begin{document} (0 when there is none)
    line_map: list[tuple[str, int]] | None = None  # (file, line) of each line, when the text was rewritten
    _newlines: list[int] | None = None

    def where(self, pos: int) -> tuple[str, int]:
        """``(file, line)`` of an offset of :attr:`text` (lines 1-based)."""
        if self.line_map is not None:
            if self._newlines is None:
                self._newlines = [m.start() for m in re.finditer("\n", self.text)]
            k = bisect_right(self._newlines, pos - 1) if pos > 0 else 0
            return self.line_map[min(k, len(self.line_map) - 1)]
        i = bisect_right(self._starts, pos) - 1
        start, name, first = self.origins[max(i, 0)]
        return name, first + self.text.count("\n", start, pos)

    def lines(self) -> list[tuple[str, int]]:
        """``(file, line)`` of every line of :attr:`text`, in order (linear in the text's length)."""
        if self.line_map is not None:
            return list(self.line_map)
        out: list[tuple[str, int]] = []
        origins = self.origins or [(0, self.main, 1)]
        k, pos, line = 0, 0, None
        n = len(self.text)
        while True:
            moved = False
            while k + 1 < len(origins) and origins[k + 1][0] <= pos:
                k, moved = k + 1, True
            start, name, first = origins[k]
            if line is None or moved:
                line = first + self.text.count("\n", start, pos)
            out.append((name, line))
            nxt = self.text.find("\n", pos)
            if nxt < 0 or nxt + 1 > n:
                break
            pos, line = nxt + 1, line + 1
        return out

    def label(self, pos: int) -> str:
        f, line = self.where(pos)
        return f"{f}:{line}"

    @property
    def _starts(self) -> list[int]:
        cached = getattr(self, "_starts_cache", None)
        if cached is None or len(cached) != len(self.origins):
            cached = [o[0] for o in self.origins]
            self._starts_cache = cached
        return cached


VERBATIM_RE = re.compile(r"\\begin\s*\{(verbatim\*?|Verbatim|lstlisting|minted|comment|alltt|BVerbatim|LVerbatim)\}"
                         r".*?\\end\s*\{\1\}|\\verb\*?([^A-Za-z\s*])[^\n]*?\2|\\(?:mintinline|lstinline)"
                         r"(?:\[[^\]\n]*\])?(?:\{[^{}\n]*\})?(?:\{[^{}\n]*\}|([|!+])[^\n]*?\3)", re.S)


def blank_verbatim(text: str) -> str:
    """Code listings and ``\\verb`` blanked (line structure and offsets kept): their ``$`` and ``\\[`` are code, not
    math (a ``$$`` in a minted block opened a display that ran to the end of the paper)."""
    return VERBATIM_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def blank_comments(text: str) -> tuple[str, list[tuple[int, str, str]]]:
    """Comments replaced by spaces (line structure and offsets kept) and the ``% theoryverify:`` directives
    (offset, word, argument) found in them."""
    directives: list[tuple[int, str, str]] = []
    out, last = [], 0
    for m in COMMENT_RE.finditer(text):
        start = m.start() + len(m.group(1))
        d = DIRECTIVE_RE.match(text, start)
        if d:
            directives.append((start, d.group(1).lower(), d.group(2).strip()))
        out.append(text[last:start])
        out.append(" " * (m.end() - start))
        last = m.end()
    out.append(text[last:])
    return "".join(out), directives


def _read(path: Path, shown: str) -> str:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BadInput(f"cannot read {shown}: {exc.strerror or exc}") from None
    if not path.is_file():
        raise BadInput(f"{shown} is not a file")
    if size > MAX_FILE_BYTES:
        raise BadInput(f"{shown}: file too large ({size} bytes; at most {MAX_FILE_BYTES})")
    data = path.read_bytes()
    if b"\x00" in data[:8192]:
        raise BadInput(f"{shown}: not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # old papers: Latin-1 is text too (every byte maps)


class _Loader:
    def __init__(self, root: Path):
        self.root = root.resolve()
        self.seen: set[Path] = set()
        self.total = 0
        self.notes: list[Note] = []
        self.directives: list[tuple[int, str, str]] = []
        self.pieces: list[str] = []
        self.origins: list[tuple[int, str, int]] = []
        self.offset = 0
        self.files: list[str] = []
        self.macro_texts: list[tuple[str, str]] = []

    def shown(self, path: Path) -> str:
        try:
            return str(path.resolve().relative_to(self.root))
        except ValueError:
            return str(path)

    def resolve(self, name: str, base: Path, where: str, exts=(".tex", "")) -> Path | None:
        name = name.strip().strip('"')
        if not name:
            return None
        p = Path(name)
        if p.is_absolute() or name.startswith("~"):
            self.notes.append(Note(where, f"not followed: {name} is outside the paper's folder"))
            return None
        for ext in exts:
            cand = (base / (name + ext if ext and not name.endswith(ext) else name)).resolve()
            try:
                cand.relative_to(self.root)
            except ValueError:
                self.notes.append(Note(where, f"not followed: {name} is outside the paper's folder"))
                return None
            if cand.is_file():
                return cand
        return None

    def emit(self, text: str, shown: str, first_line: int) -> None:
        if not text:
            return
        self.origins.append((self.offset, shown, first_line))
        self.pieces.append(text)
        self.offset += len(text)

    def load(self, path: Path, depth: int, body_only: bool = False) -> None:
        shown = self.shown(path)
        raw = _read(path, shown)
        self.total += len(raw)
        if self.total > MAX_TOTAL_BYTES:
            raise BadInput(f"{shown}: the paper's files exceed {MAX_TOTAL_BYTES} bytes together")
        self.files.append(shown)
        text, directives = blank_comments(raw.replace("\r\n", "\n").replace("\r", "\n"))
        text = blank_verbatim(text)
        line0 = 1
        if body_only:
            b = DOC_BEGIN_RE.search(text)
            if b:
                e = DOC_END_RE.search(text, b.end())
                line0 = text.count("\n", 0, b.end()) + 1
                text = text[b.end():e.start() if e else len(text)]
                directives = [(p - b.end(), w, a) for p, w, a in directives if b.end() <= p]
        self._packages(text, path.parent, shown)
        last, line = 0, line0
        pending = sorted(directives)
        for m in INCLUDE_RE.finditer(text):
            where = f"{shown}:{line0 + text.count(chr(10), 0, m.start())}"
            target = self._target(m, path.parent, where)
            if target is None:
                continue
            chunk = text[last:m.start()]
            self._emit_with_directives(chunk, shown, line, last, pending)
            line += chunk.count("\n")
            last = m.end()
            if target in self.seen:
                self.notes.append(Note(where, f"not followed again: {self.shown(target)} (already read)"))
                continue
            if depth >= MAX_DEPTH or len(self.seen) >= MAX_FILES:
                self.notes.append(Note(where, f"not followed: {self.shown(target)} (nesting deeper than {MAX_DEPTH} "
                                              f"or more than {MAX_FILES} files)"))
                continue
            self.seen.add(target)
            self.emit("\n", shown, line)
            try:
                self.load(target, depth + 1, body_only=m.group(1) == "subfile")
            except BadInput as exc:
                self.notes.append(Note(where, f"not followed: {exc}"))
            self.emit("\n", shown, line)
        self._emit_with_directives(text[last:], shown, line, last, pending)

    def _emit_with_directives(self, chunk: str, shown: str, line: int, chunk_start: int, pending) -> None:
        base = self.offset
        while pending and pending[0][0] < chunk_start + len(chunk):
            p, w, a = pending.pop(0)
            if p >= chunk_start:
                self.directives.append((base + p - chunk_start, w, a))
        self.emit(chunk, shown, line)

    def _target(self, m: re.Match, base: Path, where: str) -> Path | None:
        kind = m.group(1)
        if kind in ("import", "subimport", "inputfrom", "subinputfrom"):
            folder, name = m.group(2) or "", m.group(3) or ""
            if not name:
                return None
            d = self.resolve(folder, base, where, exts=("",)) if folder.strip() else base
            if d is None or not d.is_dir():
                self.notes.append(Note(where, f"not followed: \\{kind}{{{folder}}}{{{name}}} (no such folder)"))
                return None
            t = self.resolve(name, d, where)
        else:
            name = m.group(2) if m.group(2) is not None else m.group(4)
            # LaTeX resolves \input from the compile directory (the main file's folder), whichever file holds it;
            # many papers instead write names relative to the including file, so that folder is tried second.
            t = self.resolve(name or "", self.root, where)
            if t is None and base.resolve() != self.root:
                t = self.resolve(name or "", base, where)
        if t is None:
            self.notes.append(Note(where, f"not followed: \\{kind} {m.group(0)[len(kind) + 1:].strip()[:60]} "
                                          "(no such file in the paper's folder)"))
        return t

    def _packages(self, text: str, base: Path, shown: str) -> None:
        for m in USEPACKAGE_RE.finditer(text):
            for name in m.group(1).split(","):
                name = name.strip()
                if not name or "/" in name and name.startswith("/"):
                    continue
                p = self.resolve(name, base, shown, exts=(".sty",))
                if p is None or p in self.seen or not p.suffix == ".sty":
                    continue
                self.seen.add(p)
                try:
                    raw = _read(p, self.shown(p))
                except BadInput as exc:
                    self.notes.append(Note(shown, f"local package not read: {exc}"))
                    continue
                self.files.append(self.shown(p))
                self.macro_texts.append((self.shown(p), blank_comments(raw)[0]))


def load(main: str | Path, *more: str | Path) -> Document:
    """The paper whose main file is ``main`` (and any further files named on the command line, appended)."""
    main = Path(main)
    root = main.resolve().parent
    loader = _Loader(root)
    for i, path in enumerate((main, *map(Path, more))):
        p = Path(path).resolve()
        if i and not _inside(p, root):
            raise BadInput(f"{path}: not in the main file's folder ({root})")
        if p in loader.seen:
            continue
        loader.seen.add(p)
        if i:
            loader.emit("\n", loader.shown(p), 1)
        loader.load(p, 0)
    text = "".join(loader.pieces)
    doc = Document(text, root, loader.shown(main.resolve()), loader.origins, notes=loader.notes,
                   macro_texts=loader.macro_texts, files=loader.files)
    doc.directives = [Directive(p, w, a) for p, w, a in loader.directives]
    b = DOC_BEGIN_RE.search(text)
    doc.body_start = b.end() if b else 0
    for d in doc.directives:
        if d.word not in DIRECTIVE_WORDS:
            doc.notes.append(Note(doc.label(d.pos), f"unknown directive '{d.word}' ignored "
                                                    f"({', '.join(DIRECTIVE_WORDS)})"))
    return doc


def _inside(p: Path, root: Path) -> bool:
    try:
        p.relative_to(root)
        return True
    except ValueError:
        return False
