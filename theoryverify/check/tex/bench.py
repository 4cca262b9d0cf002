"""The real-paper benchmark: ``python -m theoryverify.check.benchmark --papers``.

For each paper of a corpus manifest (``benchmarks/tex_corpus/manifest.json``: repository, commit, path, licence and
sha256 of every file; the files themselves are not in this repository) it prints relations, read %, checked,
refuted, labelled false alarms (``labels.json``: every refutation the tool gave, judged *genuine* or *misreading* by
hand), planted errors caught and located (``planted.json``: an edit to one line of a true, readable step; caught =
refuted on that line, located = named as its chain's first wrong step) and the time.  A paper whose files are absent
or whose checksums differ is reported as such and skipped.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
MANIFEST = REPO / "benchmarks" / "tex_corpus" / "manifest.json"


def corpus_dir() -> Path:
    return Path(os.environ.get("THEORYVERIFY_TEX_CORPUS", REPO / ".corpus"))


@dataclass
class PaperResult:
    slug: str
    summary: dict = field(default_factory=dict)
    seconds: float = 0.0
    refuted: list = field(default_factory=list)
    positive: list = field(default_factory=list)
    false_alarms: list = field(default_factory=list)
    unlabelled: list = field(default_factory=list)
    returned_misreadings: list = field(default_factory=list)
    planted: list = field(default_factory=list)  # (plant, caught, located)
    missing: str | None = None


def load_manifest(path: Path = MANIFEST) -> dict:
    return json.loads(path.read_text())


def _labels(path: Path) -> dict:
    return json.loads((path.parent / "labels.json").read_text()) if (path.parent / "labels.json").exists() else {}


def _planted(path: Path) -> dict:
    return json.loads((path.parent / "planted.json").read_text()) if (path.parent / "planted.json").exists() else {}


def present(entry: dict, root: Path) -> str | None:
    """None when every file is there with its checksum, else why not."""
    for f in entry["files"]:
        p = root / entry["slug"] / f["path"]
        if not p.is_file():
            return f"absent ({f['path']})"
        if hashlib.sha256(p.read_bytes()).hexdigest() != f["sha256"]:
            return f"checksum differs ({f['path']})"
    return None


def run_paper(entry: dict, root: Path, labels: list, jobs: int | None = None) -> PaperResult:
    from .run import Paper
    res = PaperResult(entry["slug"])
    why = present(entry, root)
    if why:
        res.missing = why
        return res
    t0 = time.time()
    paper = Paper([str(root / entry["slug"] / entry["main"])])
    paper.read()
    paper.check(jobs)
    res.seconds = time.time() - t0
    res.summary = paper.summary()
    by_place = {(lab["file"], lab["line"], lab.get("latex", "")): lab for lab in labels}
    by_line = {(lab["file"], lab["line"]): lab for lab in labels}
    for r in paper.relations:
        lab = by_place.get((r.file, r.line, r.latex)) or by_line.get((r.file, r.line))
        if r.status == "refuted":
            res.refuted.append(r)
            if lab is None:
                res.unlabelled.append(r)
            elif lab["label"] == "misreading":
                res.false_alarms.append(r)
        if r.status in ("proved", "holds"):
            res.positive.append(r)
        if lab is not None and lab["label"] == "misreading" and r.status in lab.get("never", ["refuted"]):
            res.returned_misreadings.append((r, lab))
    return res


def run_plant(entry: dict, root: Path, plant: dict) -> tuple[bool, bool, str]:
    """Apply one planted error to a copy of the paper; (caught, located, what the line got)."""
    from .run import Paper
    with tempfile.TemporaryDirectory() as tmp:
        dst = Path(tmp) / entry["slug"]
        shutil.copytree(root / entry["slug"], dst)
        target = dst / plant["file"]
        lines = target.read_text(encoding="utf-8").split("\n")
        i = plant["line"] - 1
        if lines[i].count(plant["old"]) != 1:
            return False, False, f"the planted edit does not apply (line {plant['line']})"
        lines[i] = lines[i].replace(plant["old"], plant["new"])
        target.write_text("\n".join(lines), encoding="utf-8")
        paper = Paper([str(dst / entry["main"])])
        paper.read()
        paper.check(1, only={(plant["file"], plant["line"])})
        on_line = [r for r in paper.relations if r.file == plant["file"] and r.line == plant["line"]]
        caught = any(r.status == "refuted" for r in on_line)
        located = any(r.status == "refuted" and r.first_wrong for r in on_line)
        got = ", ".join(sorted({r.status for r in on_line})) or "no relation on the line"
        return caught, located, got


def one_file(manifest: dict, root: Path, folder: Path) -> Path | None:
    """Every present paper of the corpus, each flattened (its own ``\\input`` files inlined by the loader) into one
    file of ``folder`` and its preamble and macro files into a local package, and a main file that loads the packages
    and inputs the bodies: one large paper, to time ``--tex`` on it (later papers' macros may redefine earlier ones,
    so a few readings differ from the papers read one by one)."""
    import re
    from .source import load
    names = []
    for entry in manifest["papers"]:
        if present(entry, root):
            continue
        raw = load(str(root / entry["slug"] / entry["main"]))
        text = raw.text
        macros = "\n".join(t for _, t in raw.macro_texts)
        head, sep, body = text.partition("\\begin{document}")
        body = body.replace("\\end{document}", "") if sep else head
        preamble = re.sub(r"\\documentclass\s*(\[[^\]]*\])?\s*\{[^}]*\}", "", head) if sep else ""
        (folder / f"{entry['slug']}-preamble.sty").write_text(macros + "\n" + preamble, encoding="utf-8")
        (folder / f"{entry['slug']}.tex").write_text(body, encoding="utf-8")
        names.append(entry["slug"])
    if not names:
        return None
    main = folder / "main.tex"
    main.write_text("\\documentclass{article}\n" + "".join(f"\\usepackage{{{n}-preamble}}\n" for n in names) +
                    "\\begin{document}\n" + "".join(f"\\input{{{n}}}\n" for n in names) + "\\end{document}\n",
                    encoding="utf-8")
    return main


def time_one_file(manifest: dict, root: Path, out) -> int:
    """``--one-file``: the whole corpus as one paper, read and checked in one command (the issue's 2-minute target
    for a 1,500-relation paper on 2 cores)."""
    from .run import Paper, _default_jobs
    with tempfile.TemporaryDirectory() as tmp:
        main = one_file(manifest, root, Path(tmp))
        if main is None:
            out.write("one file: no paper of the corpus is present\n")
            return 0
        t0 = time.time()
        paper = Paper([str(main)])
        paper.read()
        paper.check()
        seconds = time.time() - t0
    s = paper.summary()
    out.write(f"one file ({len(paper.relations)} relations, the corpus flattened): {s['read']} read, "
              f"{s['checked']} checked, {s['refuted']} refuted in {seconds:.1f} s on {_default_jobs()} "
              f"worker(s)\n")
    return 0


def main(argv=None, out=None) -> int:
    import argparse
    import sys
    out = out or sys.stdout
    p = argparse.ArgumentParser(prog="python -m theoryverify.check.benchmark --papers")
    p.add_argument("--manifest", default=str(MANIFEST))
    p.add_argument("--corpus", default=None, help="folder of the papers' files (default $THEORYVERIFY_TEX_CORPUS "
                                                  "or <repo>/.corpus)")
    p.add_argument("--paper", action="append", default=[], help="only these slugs")
    p.add_argument("--no-planted", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--one-file", action="store_true", help="time the whole corpus as one paper in one command")
    args = p.parse_args(argv)
    manifest_path = Path(args.manifest)
    manifest = load_manifest(manifest_path)
    labels, planted = _labels(manifest_path), _planted(manifest_path)
    root = Path(args.corpus) if args.corpus else corpus_dir()
    if args.one_file:
        return time_one_file(manifest, root, out)
    rows, total = [], {"relations": 0, "read": 0, "checked": 0, "refuted": 0, "false": 0, "planted": 0,
                       "caught": 0, "located": 0, "seconds": 0.0, "positive": 0}
    problems = []
    for entry in manifest["papers"]:
        if args.paper and entry["slug"] not in args.paper:
            continue
        res = run_paper(entry, root, labels.get(entry["slug"], []))
        if res.missing:
            rows.append({"paper": entry["slug"], "missing": res.missing})
            out.write(f"{entry['slug']:24s} skipped: {res.missing}\n")
            continue
        plants = [] if args.no_planted else planted.get(entry["slug"], [])
        pl = [(pt, *run_plant(entry, root, pt)) for pt in plants]
        s = res.summary
        row = {"paper": entry["slug"], "relations": s["relations"], "read": s["read"],
               "read_pct": round(100 * s["read"] / max(1, s["relations"]), 1), "checked": s["checked"],
               "proved_or_holds": s["proved"] + s["holds"], "refuted": s["refuted"],
               "false_alarms": len(res.false_alarms), "unlabelled_refutations": len(res.unlabelled),
               "planted": len(pl), "caught": sum(1 for x in pl if x[1]), "located": sum(1 for x in pl if x[2]),
               "seconds": round(res.seconds, 1)}
        rows.append(row)
        for k, v in (("relations", s["relations"]), ("read", s["read"]), ("checked", s["checked"]),
                     ("refuted", s["refuted"]), ("false", len(res.false_alarms)), ("planted", len(pl)),
                     ("caught", row["caught"]), ("located", row["located"]), ("seconds", res.seconds),
                     ("positive", row["proved_or_holds"])):
            total[k] += v
        for r in res.unlabelled:
            problems.append(f"{entry['slug']}: unlabelled refutation {r.file}:{r.line}: {r.latex}")
        for r, lab in res.returned_misreadings:
            problems.append(f"{entry['slug']}: labelled misreading returned at {r.file}:{r.line} ({r.status}): "
                            f"{lab.get('why', '')}")
        for pt, caught, located, got in pl:
            if not (caught and located):
                problems.append(f"{entry['slug']}: planted {pt['kind']} at {pt['file']}:{pt['line']} "
                                f"{'not located' if caught else 'missed'} ({got})")
    if args.json:
        out.write(json.dumps({"papers": rows, "total": total, "problems": problems}, indent=1) + "\n")
    else:
        head = (f"{'paper':24s} {'relations':>9s} {'read %':>7s} {'checked':>7s} {'pass':>5s} {'refuted':>7s} "
                f"{'false':>5s} {'planted':>8s} {'caught':>6s} {'located':>7s} {'time':>7s}")
        out.write(head + "\n")
        for r in rows:
            if "missing" in r:
                continue
            out.write(f"{r['paper']:24s} {r['relations']:9d} {r['read_pct']:7.1f} {r['checked']:7d} "
                      f"{r['proved_or_holds']:5d} {r['refuted']:7d} {r['false_alarms']:5d} {r['planted']:8d} "
                      f"{r['caught']:6d} {r['located']:7d} {r['seconds']:6.1f}s\n")
        if total["relations"]:
            pct = 100 * total["read"] / total["relations"]
            per100 = 100 * total["false"] / max(1, total["read"])
            out.write(f"{'total':24s} {total['relations']:9d} {pct:7.1f} {total['checked']:7d} {total['positive']:5d} "
                      f"{total['refuted']:7d} {total['false']:5d} {total['planted']:8d} {total['caught']:6d} "
                      f"{total['located']:7d} {total['seconds']:6.1f}s\n")
            out.write(f"false alarms per 100 read relations: {per100:.2f}\n")
        for p_ in problems:
            out.write(f"problem: {p_}\n")
    return 1 if problems else 0
