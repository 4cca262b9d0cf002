"""Re-render a profile's pages from the stored rows, running no claim:
``python -m theoryverify.report --profile full --rerender``.

Why: a full report takes CPU-hours to compute, so a change of the page's format could not be tried, or applied to the
committed pages, without running every claim again.  The rows are already whole in ``<paper>.json`` (as ``verify
--json`` prints them); this module reads them back and writes the page (.md), the rows (.json, byte for byte the
same), the HTML page, the figures and the index, exactly as the run that computed them would with today's code.

The header stays honest: it keeps the metadata of the run that computed the rows (command, profile, seed, device,
versions, commit, generated time, runtime, coverage) and adds one line, "Page rendered from the stored rows at commit
<X> (`--rerender`)".  That metadata is read from ``<paper>.run.json`` (``index.run.json`` for the index), which every
report run writes; a page written before those files existed has its metadata read back from its own header — a
strict parse: the header rendered from what was read must equal the one on the page, line for line, else
:class:`UnreadableHeader` (the command's one-line error, exit 2).  The run files are then written, so the next
re-render reads them.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Sequence

from .. import environment, registry
from ..errors import TheoryverifyError
from . import markdown
from .build import INDEX_RUN, INDEX_ROWS, RUN_SUFFIX, render_paper, write_run


class UnreadableHeader(TheoryverifyError):
    """A stored page whose run metadata cannot be read back exactly (no ``.run.json``, and a header this module
    does not parse into the same lines)."""


_PAPER = re.compile(r"- Paper: `(?P<file>[^`]*)` \(id `(?P<id>[^`]*)`, catalogue `(?P<spec>[^`]*)`\)"
                    r"(?:; package: (?P<version>.+))?$")
_PROFILE = re.compile(r"- Profile: `(?P<profile>[^`]*)`; seed: `(?P<seed>-?\d+)`$")
_INDEX_PROFILE = re.compile(r"- Profile: `(?P<profile>[^`]*)`; seed: `(?P<seed>-?\d+)`; device: (?P<name>.+)$")
_COMMIT = re.compile(r"- (?P<label>Git commit|Engine commit \(theoryverify(?:, not the paper)?\)): `(?P<commit>[^`]*)`$")
_NOT_RUN = re.compile(r"- Not run on this device \(GPU-sized, tagged `gpu`\): (?P<n>\d+) claims: (?P<ids>.+)$")
_MISSING = "- Missing inputs (this report differs from one made with them; see `python -m theoryverify papers`): "


def _field(line: str, prefix: str, where: str) -> str:
    if not line.startswith(prefix):
        raise UnreadableHeader(f"{where}: expected a line starting {prefix!r}, found {line[:80]!r}")
    return line[len(prefix):]


def _match(pattern: re.Pattern, line: str, where: str) -> re.Match:
    m = pattern.match(line)
    if not m:
        raise UnreadableHeader(f"{where}: cannot read the header line {line[:80]!r}")
    return m


def _pairs(text: str, sep: str) -> dict[str, str]:
    """``k=v, k=v`` (sep "=") or ``k v, k v`` (sep " "): a value may hold ", " when the next item does not follow."""
    items = re.split(r", (?=[A-Za-z_][\w.-]*" + re.escape(sep) + ")", text)
    out = {}
    for item in items:
        key, found, value = item.partition(sep)
        if not found:
            raise ValueError(item)
        out[key] = value
    return out


def _checked(lines: list[str], rendered: list[str], where: str) -> None:
    """The strict part: what was read renders to the very lines it was read from."""
    if rendered != lines:
        bad = next((a for a, b in zip(lines, rendered) if a != b), lines[-1] if lines else "")
        raise UnreadableHeader(f"{where}: the header does not read back exactly (at {bad[:80]!r}); write "
                               f"{Path(where).stem}{RUN_SUFFIX} by hand or regenerate the page")


def page_run(text: str, paper: dict[str, Any], where: str) -> dict[str, Any]:
    """The run metadata in a page's header (the fallback for a page written before ``.run.json``)."""
    lines = [line for line in text.splitlines() if not line.startswith(markdown.RENDERED_PREFIX)]
    try:
        end = next(i for i, line in enumerate(lines) if line.startswith("- Every row, whole:"))
    except StopIteration:
        raise UnreadableHeader(f"{where}: no header (its '- Every row, whole:' line is missing)") from None
    head = lines[:end]
    if len(head) < 9:
        raise UnreadableHeader(f"{where}: the header has {len(head)} lines, fewer than a report's 9")
    m = _match(_PAPER, head[2], where)
    if (m["file"], m["id"], m["spec"]) != (paper["file"], paper["id"], paper["spec"]):
        raise UnreadableHeader(f"{where}: the header names paper {m['id']!r} ({m['file']}, {m['spec']}), not the "
                               f"registered {paper['id']!r} ({paper['file']}, {paper['spec']})")
    run: dict[str, Any] = {"command": _field(head[3], "- Command: `", where).removesuffix("`")}
    if m["version"]:
        run["paper_version"] = m["version"]
    p = _match(_PROFILE, head[4], where)
    run.update(profile=p["profile"], seed=int(p["seed"]))
    try:
        run["device_info"] = _pairs(_field(head[5], "- Device: ", where), "=")
        run["versions"] = _pairs(_field(head[6], "- Versions: ", where), " ")
    except ValueError as exc:
        raise UnreadableHeader(f"{where}: cannot read the device or versions item {str(exc)[:60]!r}") from None
    c = _match(_COMMIT, head[7], where)
    run.update(commit_label=c["label"], commit=c["commit"],
               generated=_field(head[8], markdown.GENERATED_PREFIX, where))
    for line in head[9:]:
        if line.startswith("- Catalogue coverage: "):
            run["coverage"] = line[len("- Catalogue coverage: "):]
        elif line.startswith("- Not run on this device"):
            n = _match(_NOT_RUN, line, where)
            run["not_run"] = [x.strip("`") for x in n["ids"].split(", ")]
        elif line:
            raise UnreadableHeader(f"{where}: an unknown header line {line[:80]!r}")
    _checked(head, markdown.header(paper, run)[:-1], where)
    return run


def index_run(text: str, where: str) -> dict[str, Any]:
    """The run metadata in the index's header (the fallback for an index written before ``index.run.json``)."""
    lines = [line for line in text.splitlines() if not line.startswith(markdown.RENDERED_PREFIX)]
    if len(lines) < 6 or lines[0] != "# theoryverify reports":
        raise UnreadableHeader(f"{where}: not an index page")
    run: dict[str, Any] = {"command": _field(lines[2], "- Command: `", where).removesuffix("`")}
    p = _match(_INDEX_PROFILE, lines[3], where)
    c = _match(_COMMIT, lines[4], where)
    run.update(profile=p["profile"], seed=int(p["seed"]), commit_label=c["label"], commit=c["commit"],
               generated=_field(lines[5], markdown.GENERATED_PREFIX, where))
    # the table's device column is the run's device (one per index)
    table = [line for line in lines if line.startswith("| ")]
    if len(table) < 2:
        raise UnreadableHeader(f"{where}: no table to read the device from")
    columns = [x.strip() for x in table[0].strip("|").split(" | ")]
    device = [x.strip() for x in table[1].strip("|").split(" | ")][columns.index("device")]
    run["device_info"] = {"device": device, "name": p["name"]}
    rest = lines[6] if len(lines) > 6 else ""
    if rest.startswith(_MISSING):
        run["missing_inputs"] = [x.replace("\\|", "|") for x in rest[len(_MISSING):].split("; ")]
    if run["commit_label"] == "Git commit":
        del run["commit_label"]
    _checked(_head(lines), _head(markdown.index_page(run, []).splitlines()), where)
    return run


def _head(lines: list[str]) -> list[str]:
    """An index's header: its lines up to the first blank one after the title."""
    return lines[:next((i for i, line in enumerate(lines) if i > 1 and not line), len(lines))]


def _read_run(out: Path, name: str, text: str, reader) -> dict[str, Any]:
    stored = out / name
    if stored.exists():
        try:
            return json.loads(stored.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise UnreadableHeader(f"{stored}: not JSON ({exc})") from None
    return reader(text)


def stored_papers(out: Path) -> list[str]:
    """The papers whose rows are stored in ``out`` (``<paper>.json`` beside ``<paper>.md``), in the registry's order."""
    known = registry.papers()
    stored = {p.stem for p in out.glob("*.json") if p.stem != "index" and not p.name.endswith(RUN_SUFFIX)
              and (out / f"{p.stem}.md").exists()}
    unknown = sorted(stored - set(known))
    if unknown:
        raise TheoryverifyError(f"{out}: stored rows of papers not registered here: {', '.join(unknown)}")
    return [pid for pid in known if pid in stored]


def _index_run(earlier: dict[str, Any] | None, page: dict[str, Any]) -> dict[str, Any]:
    """The index row's run (commit, time) of a re-rendered page: the earlier index row's, unless the page's own run
    is another commit or a later one (the page's rows were replaced by a newer run's, whose header names it)."""
    mine = {"commit": page.get("commit", "?"), "generated": str(page.get("generated", "")).split(";")[0].strip()}
    if earlier and earlier.get("commit") == mine["commit"] and str(earlier.get("generated", "")) >= mine["generated"]:
        return earlier
    return mine


def rerender(out: Path, papers: Sequence[str] = (), commit: str | None = None) -> list[dict[str, Any]]:
    """Re-write the pages of ``papers`` (default: every paper stored in ``out``) and the index from the stored rows.
    ``commit``: the one the added header line names (default: this checkout's).  Returns the index rows."""
    if not out.is_dir():
        raise TheoryverifyError(f"{out}: no such report folder")
    commit = commit or environment.git_commit()
    stored = stored_papers(out)
    chosen = list(papers) or stored
    missing = [pid for pid in chosen if pid not in stored]
    if missing:
        raise TheoryverifyError(f"{out}: no stored rows for {', '.join(missing)} ({out}/<paper>.json and .md)")
    index_path = out / INDEX_ROWS
    earlier = json.loads(index_path.read_text(encoding="utf-8")) if index_path.exists() else {"rows": []}
    runs = {r["id"]: r.get("run") for r in earlier.get("rows", [])}
    # read every header first: an unreadable one stops the command before any page is written
    todo = []
    for pid in chosen:
        paper = registry.papers()[pid]
        where = str(out / f"{pid}.md")
        run = _read_run(out, f"{pid}{RUN_SUFFIX}", "", lambda _t, p=paper, w=where: page_run(
            Path(w).read_text(encoding="utf-8"), vars(p), w))
        rows = json.loads((out / f"{pid}.json").read_text(encoding="utf-8"))
        todo.append((paper, rows, run))
    index_md = out / "index.md"
    run_all = _read_run(out, INDEX_RUN, "", lambda _t: index_run(index_md.read_text(encoding="utf-8"),
                                                                 str(index_md))) if index_md.exists() else None
    made = {}
    for paper, rows, run in todo:
        for old in (out / paper.id).glob("*.png"):  # figures of claims that no longer plot must not linger
            old.unlink()
        row = render_paper(paper, rows, dict(run, rendered=commit), out)
        row["run"] = _index_run(runs.get(paper.id), run)
        made[paper.id] = row
    listed = [made.get(r["id"], r) for r in earlier.get("rows", []) if r["id"] in stored]
    listed += [made[pid] for pid in made if pid not in {r["id"] for r in listed}]
    if run_all is not None:
        index_path.write_text(json.dumps({"profile": earlier.get("profile", run_all["profile"]), "rows": listed},
                                         indent=1, sort_keys=True, default=dict) + "\n", encoding="utf-8")
        index_md.write_text(markdown.index_page(dict(run_all, rendered=commit), listed), encoding="utf-8")
        write_run(out / INDEX_RUN, run_all)
    return listed


__all__ = ["UnreadableHeader", "index_run", "page_run", "rerender", "stored_papers"]
