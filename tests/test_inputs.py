"""Fresh-clone parity (issue 30, item 1): the papers' texts and catalogues are inputs outside the repository,
recorded by checksum; ``papers`` shows whether each was found; the report refuses to write a report that would
differ from the committed one unless ``--allow-missing``, and then its index counts the claims that were not
checkable here and names the missing inputs.  A fresh clone is reproduced by pointing both variables at an
empty folder (a set variable replaces ``../shared``)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from theoryverify import catalogue, cli, inputs, registry, resume
from theoryverify.report import markdown
from theoryverify.report.__main__ import main as report

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
IH_TEXT = "induction-heads-approx-optim.txt"


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """A setting without the inputs: both variables name an empty folder; the results store is in tmp_path."""
    empty = tmp_path / "empty"
    empty.mkdir()
    for var in (catalogue.SPEC_PATH_ENV, catalogue.PAPERS_PATH_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv(catalogue.PAPERS_DIR_ENV, str(empty))
    monkeypatch.setenv(catalogue.SPEC_DIR_ENV, str(empty))
    monkeypatch.setattr(resume, "STORE_ROOT", tmp_path / "store")
    return empty


def test_without_the_inputs_each_is_missing_and_papers_says_so(clone, capsys):
    ih = {i.kind: i for i in inputs.of_paper("inductionheads")}
    assert ih["text"].state == inputs.MISSING and ih["text"].used and ih["text"].changes_report
    assert ih["catalogue"].state == inputs.MISSING and ih["catalogue"].changes_report
    icr = {i.kind: i for i in inputs.of_paper("icrecall")}
    assert not icr["text"].used and not icr["text"].changes_report  # no icrecall claim reads its text
    assert cli.main(["papers"]) == 0
    out = capsys.readouterr().out
    assert f"  text\t{IH_TEXT}\tmissing: put it in $THEORYVERIFY_PAPERS_DIR\t-" in out
    assert "  catalogue\ticrecall.md\tmissing: put it in $THEORYVERIFY_SPEC_DIR\t-" in out
    assert out.rstrip().splitlines()[-1].startswith("5 input(s) the reports read are missing or differ")


def test_the_report_refuses_to_differ_from_the_committed_one(clone, tmp_path, capsys):
    assert report(["--paper", "inductionheads", "--out", str(tmp_path / "rep")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("theoryverify.report: error: the report would differ")
    assert f"inductionheads text `{IH_TEXT}` missing (set THEORYVERIFY_PAPERS_DIR)" in err
    assert "inductionheads catalogue `inductionheads.md` missing (set THEORYVERIFY_SPEC_DIR)" in err
    assert "--allow-missing" in err and "Traceback" not in err
    assert not (tmp_path / "rep").exists()  # nothing run, nothing written


def test_allow_missing_writes_it_and_the_index_says_what_was_missing(clone, tmp_path, capsys):
    out = tmp_path / "rep"
    ids = ["inductionheads.pc-thm44", "inductionheads.pc-thm55-c3"]
    argv = ["--paper", "inductionheads", "--claim", ids[0], "--claim", ids[1], "--out", str(out), "--allow-missing"]
    assert report(argv) == 0
    index = (out / "index.md").read_text(encoding="utf-8")
    missing = [line for line in index.splitlines() if line.startswith("- Missing inputs")]
    assert len(missing) == 1 and f"inductionheads text `{IH_TEXT}` missing" in missing[0]
    assert "inductionheads catalogue `inductionheads.md` missing" in missing[0]
    assert "--allow-missing" not in index  # the command shown is the plain one
    header, _, row = [line for line in index.splitlines() if line.startswith("|")]
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")]))
    assert cells["not checkable here"] == "2" and cells["inconclusive"] == "2" and cells["proof_gap"] == "0"
    page = (out / "inductionheads.md").read_text(encoding="utf-8")
    assert "Catalogue coverage: unknown (catalogue `inductionheads.md` not found" in page
    assert "**2 claims are not checkable here**" in page
    assert not list((tmp_path / "store").rglob("*.json"))  # "not checkable here" is never stored


def test_an_index_made_with_every_input_has_no_missing_line_or_column():
    run = {"command": "c", "profile": "quick", "seed": 1, "device_info": {"name": "CPU", "device": "cpu"},
           "commit": "x", "generated": "now", "missing_inputs": []}
    row = {"id": "p", "title": "P", "n": 2, "counts": {"holds": 2}, "findings": {}}
    page = markdown.index_page(run, [row])
    assert "Missing inputs" not in page and "not checkable here" not in page
    page = markdown.index_page(dict(run, missing_inputs=["p text `p.txt` missing (set X)"]), [dict(row, unavailable=1)])
    assert "- Missing inputs (this report differs from one made with them; see `python -m theoryverify papers`): " \
           "p text `p.txt` missing (set X)" in page
    assert "| not checkable here |" in page


def test_another_file_under_the_recorded_name_differs_by_checksum(clone):
    (clone / "inductionheads.md").write_text("- **IH-1** a catalogue, but not the recorded one\n", encoding="utf-8")
    spec = inputs.of_paper("inductionheads")[1]
    assert spec.state == inputs.DIFFERS and spec.changes_report and spec.path == clone / "inductionheads.md"
    assert "not the recorded" in spec.line()


def test_the_text_checksum_keys_the_stored_results_of_a_paper_that_reads_it(clone):
    assert inputs.store_key("inductionheads") == {"text": "missing"}
    assert inputs.store_key("icrecall") == {}  # reads no text: its stored results do not depend on one


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared next to this checkout")
def test_the_recorded_checksums_are_those_of_the_shared_inputs(tmp_path, monkeypatch):
    for pid, paper in registry.papers().items():
        for name, expected, folder in ((paper.file, paper.file_sha256, "papers"), (paper.spec, paper.spec_sha256, "spec")):
            if expected is not None:
                assert inputs.sha256(SHARED / folder / name) == expected, f"{pid}: {name}"
    # a variable naming a folder that holds the file: found there, with the recorded checksum
    shutil.copy(SHARED / "papers" / IH_TEXT, tmp_path / IH_TEXT)
    monkeypatch.setenv(catalogue.PAPERS_DIR_ENV, str(tmp_path))
    text = inputs.of_paper("inductionheads")[0]
    assert text.state == inputs.FOUND and text.path == tmp_path / IH_TEXT


def test_a_paper_that_records_no_checksum_is_reported_with_a_note_and_exit_0(clone, tmp_path, capsys, monkeypatch):
    """issue 29 (second trial): an out-of-tree paper declares a catalogue but records no checksum — there is no
    reference report to differ from, so the report is written (exit 0), coverage "unknown", with a one-line note
    naming the missing catalogue (the README says so next to the exit-2 rule)."""
    pkg = tmp_path / "src" / "tvnosum"
    (pkg / "claims").mkdir(parents=True)
    (pkg / "__init__.py").write_text('import theoryverify as tv\nPAPER = tv.Paper(id="tvnosum", title="T", '
                                     'file="tvnosum.txt", spec="tvnosum.md")\n')
    (pkg / "claims" / "__init__.py").write_text("")
    (pkg / "claims" / "s1.py").write_text(
        "import sympy as sp\nimport theoryverify as tv\nCLAIMS = tv.ClaimSet('tvnosum')\nx = sp.Symbol('x')\n\n\n"
        "@CLAIMS.add('eq1', location='Eq. (1)', statement='x + x = 2x', kind=tv.Kind.IDENTITY)\ndef eq1(ctx):\n"
        "    return tv.check_identity(x + x, 2 * x, tv.Domain([tv.Interval(x, 0, 1)]), ctx.seed)\n")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setenv(registry.PAPERS_ENV, "tvnosum")
    registry._discover.cache_clear()
    try:
        assert report(["--paper", "tvnosum", "--out", str(tmp_path / "rep")]) == 0
    finally:
        registry._discover.cache_clear()
    err = capsys.readouterr().err
    assert "note: tvnosum catalogue `tvnosum.md` missing (set THEORYVERIFY_SPEC_DIR)" in err, err
    assert "unknown" in (tmp_path / "rep" / "tvnosum.md").read_text()
    assert "exit 0" in (ROOT / "README.md").read_text()
