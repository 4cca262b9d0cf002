"""``python -m theoryverify.report --rerender`` re-writes the pages from the stored rows and loses nothing: re-rendering
a copy of the committed quick reports gives every .md and .json byte for byte, apart from the one added header line
("Page rendered from the stored rows at commit <X> (`--rerender`)"); a header it cannot read is a one-line error
(exit 2) before any page is written."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from theoryverify.report import markdown
from theoryverify.report.__main__ import main
from theoryverify.report.rerender import rerender

QUICK = Path(__file__).resolve().parent.parent / "reports" / "quick"


def _without_mark(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith(markdown.RENDERED_PREFIX))


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    if not (QUICK / "index.json").exists():
        pytest.skip("no committed quick report")
    out = tmp_path_factory.mktemp("quick") / "quick"
    shutil.copytree(QUICK, out)
    rerender(out, commit="abc123")
    return out


def test_rerender_reproduces_every_page_and_row(rendered):
    for old in sorted(QUICK.glob("*.md")) + sorted(QUICK.glob("*.json")):
        new = (rendered / old.name).read_text(encoding="utf-8")
        if old.suffix == ".json":
            assert new == old.read_text(encoding="utf-8"), old.name
            continue
        assert _without_mark(new) == _without_mark(old.read_text(encoding="utf-8")), old.name
        if not old.name.startswith("review-"):  # a review is not a page of the report
            marks = [line for line in new.splitlines() if line.startswith(markdown.RENDERED_PREFIX)]
            assert marks == [markdown.RENDERED_PREFIX + "`abc123` (`--rerender`)"], old.name


def test_rerender_keeps_the_run_metadata_machine_readable(rendered, tmp_path):
    run = json.loads((rendered / "iclnonlinear.run.json").read_text())
    assert run["profile"] == "quick" and isinstance(run["seed"], int) and run["command"].startswith("python -m")
    assert "rendered" not in run  # the re-render mark is never taken for the run's own metadata
    assert json.loads((rendered / "index.run.json").read_text())["profile"] == "quick"
    # a second re-render reads the .run.json files (the headers are not parsed again) and gives the same bytes
    again = tmp_path / "quick"
    shutil.copytree(rendered, again)
    (again / "iclnonlinear.md").write_text("# not a header any more\n")
    rerender(again, commit="abc123")
    for page in ("iclnonlinear.md", "index.md", "iclnonlinear.json", "iclnonlinear.html"):
        assert (again / page).read_bytes() == (rendered / page).read_bytes(), page


def test_an_unreadable_header_is_one_line_and_exit_2(tmp_path, capsys):
    if not (QUICK / "iclnonlinear.json").exists():
        pytest.skip("no committed quick report")
    for name in ("iclnonlinear.md", "iclnonlinear.json", "index.md", "index.json"):
        shutil.copy(QUICK / name, tmp_path / name)
    page = tmp_path / "iclnonlinear.md"
    text = page.read_text()
    page.write_text(text.replace("- Profile: `quick`; seed:", "- Profile: quick; seed:", 1))
    assert main(["--rerender", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("theoryverify.report: error: ") and err.count("\n") == 1 and "Profile" in err
    assert page.read_text() != text and not (tmp_path / "iclnonlinear.html").exists()  # nothing written


def test_a_page_replaced_by_a_newer_run_names_that_run_in_the_index():
    """Session 48: icrecall's full rows were replaced by a run at a769378 and re-rendered; the index row kept the old
    run's commit and time (9afb806, 2026-11-30) although the page's header named the new one."""
    from theoryverify.report.rerender import _index_run
    old = {"commit": "9afb8064af70", "generated": "2026-11-30 18:40:12 UTC"}
    newer = {"commit": "a769378692bf", "generated": "2026-12-01 08:24:12 UTC; every result reused from the results store"}
    assert _index_run(old, newer) == {"commit": "a769378692bf", "generated": "2026-12-01 08:24:12 UTC"}
    same = {"commit": "9afb8064af70", "generated": "2026-11-30 18:39:57 UTC; runtime 470.2 s"}
    assert _index_run(old, same) is old  # the same run, re-rendered: the index row is unchanged
    assert _index_run(None, same)["commit"] == "9afb8064af70"
