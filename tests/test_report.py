"""The report: deterministic Markdown, HTML and PNGs, resume from the store, valid Markdown."""
import re
from pathlib import Path

import pytest

from theoryverify.report import markdown, plots
from theoryverify.report.build import build

CLAIMS = ["icrecall.table2"]


def _build(tmp: Path, out: str, store: str, **kw):
    return build(["icrecall"], profile="quick", device="cpu", seed=7, out=tmp / out, fresh=kw.pop("fresh", False),
                 command="test", only=kw.pop("only", CLAIMS), store_root=tmp / store, **kw)


def _without_generated(text: str) -> str:
    return "\n".join(l for l in text.splitlines() if not l.startswith(markdown.GENERATED_PREFIX))


def test_same_seed_gives_byte_identical_markdown(tmp_path):
    _build(tmp_path, "a", "s1")
    _build(tmp_path, "b", "s2")  # separate stores: both computed from scratch
    for name in ("icrecall.md", "icrecall.html", "icrecall.json", "index.md"):  # HTML and JSON beside the page
        a = (tmp_path / "a" / name).read_text()
        b = (tmp_path / "b" / name).read_text()
        assert a != "" and _without_generated(a) == _without_generated(b)
        assert sum(l.startswith(markdown.GENERATED_PREFIX) for l in a.splitlines()) == (name != "icrecall.json")
    assert (tmp_path / "a" / "icrecall.json").read_bytes() == (tmp_path / "b" / "icrecall.json").read_bytes()


SYNTHETIC = {
    "id": "demo.rate", "location": "Thm 1", "statement": "y = Θ(x^2)", "kind": "rate", "status": "holds",
    "as_expected": True, "method": "fit", "evidence": "ok", "catalogue_id": None, "choices": {},
    "details": {"sweep": {"param": "x", "x": [1, 2, 4, 8], "measured": [1.1, 4.0, 16.3, 63.0],
                          "predicted": [1, 4, 16, 64], "ratio": [1.1, 1.0, 1.02, 0.98]},
                "fit": {"exponent": 1.98, "ci": [1.9, 2.05], "predicted_exponent": 2, "margin": 0.1,
                        "rule": "holds if CI within predicted ± margin"},
                "trajectory": {"x": [0, 1, 2, 3], "series": {"loss": [3, 2, 1, 0.5]}, "boundaries": [1.5]}},
}


def test_plots_are_byte_identical(tmp_path):
    a = plots.plots_for(SYNTHETIC, tmp_path / "a")
    b = plots.plots_for(SYNTHETIC, tmp_path / "b")
    assert len(a) == 2
    for pa, pb in zip(a, b):
        assert pa.read_bytes() == pb.read_bytes()


def test_resume_recomputes_no_finished_claim(tmp_path):
    from theoryverify import registry
    ids = [c.id for c in registry.claims(paper="icrecall") if not c.tags][:3]
    computed = []

    def interrupt_after_first(cid):
        computed.append(cid)
        if len(computed) == 2:
            raise KeyboardInterrupt  # killed part-way through the second claim

    with pytest.raises(KeyboardInterrupt):
        _build(tmp_path, "r", "s", only=ids, on_compute=interrupt_after_first)
    first = list(computed)
    computed.clear()
    _build(tmp_path, "r", "s", only=ids, on_compute=computed.append)
    assert first[0] not in computed  # the finished claim is reused
    assert sorted(computed) == sorted(ids[1:])
    again = []
    _build(tmp_path, "r2", "s", only=ids, on_compute=again.append)
    assert again == []  # everything is in the store now
    fresh = []
    _build(tmp_path, "r3", "s", only=ids, on_compute=fresh.append, fresh=True)
    assert sorted(fresh) == sorted(ids)
    assert _without_generated((tmp_path / "r" / "icrecall.md").read_text()) == \
        _without_generated((tmp_path / "r3" / "icrecall.md").read_text())


def check_markdown(folder: Path) -> None:
    """Tables have consistent column counts; every image link resolves."""
    for md in folder.glob("*.md"):
        lines = md.read_text().splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("|"):
                block = []
                while i < len(lines) and lines[i].startswith("|"):
                    block.append(lines[i])
                    i += 1
                cols = [len(re.findall(r"(?<!\\)\|", row)) for row in block]
                assert len(set(cols)) == 1, f"{md.name}: ragged table {cols}"
                assert re.fullmatch(r"\|(---\|)+", block[1]), f"{md.name}: bad separator {block[1]}"
            i += 1
        for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md.read_text()):
            assert (folder / link).is_file(), f"{md.name}: missing image {link}"
        for link in re.findall(r"\]\(([^)#]+\.md)\)", md.read_text()):
            assert (folder / link).is_file(), f"{md.name}: missing page {link}"


def test_markdown_renders(tmp_path):
    _build(tmp_path, "m", "s")
    check_markdown(tmp_path / "m")
    page = markdown.paper_page({"id": "demo", "title": "Demo", "file": "demo.txt", "spec": "demo.md"},
                               {"command": "x", "profile": "quick", "seed": 1, "device_info": {"device": "cpu"},
                                "versions": {}, "commit": "c", "generated": "now"}, [SYNTHETIC],
                               {"demo.rate": "demo/demo_rate_sweep.png"})
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "demo.md").write_text(page)
    plots.plots_for(SYNTHETIC, tmp_path / "d" / "demo")
    check_markdown(tmp_path / "d")
    assert "Bounds vs empirics" in page and "1.98" in page


def test_committed_reports_render():
    roots = [p for p in (Path(__file__).resolve().parent.parent / "reports").iterdir() if (p / "index.md").exists()]
    if not roots:
        pytest.skip("no committed reports yet")
    for root in roots:
        check_markdown(root)


def test_bad_arguments_exit_2(capsys):
    from theoryverify.report.__main__ import main
    for argv in (["--paper", "nope"], ["--profile", "x"], ["--claim", "icrecall.nope"]):
        with pytest.raises(SystemExit) as exc:
            raise SystemExit(main(argv))
        assert exc.value.code == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_table_escapes_pipes_in_the_header_too():
    from theoryverify.report.markdown import table
    lines = table(["|R|", "measured"], [["a|b", 1]])
    cols = [len(re.findall(r"(?<!\\)\|", row)) for row in lines]
    assert len(set(cols)) == 1, lines


def test_a_profile_folder_built_paper_by_paper_keeps_every_paper_in_its_index(tmp_path):
    """A full-profile folder is built one paper at a time: the second run's index still lists the first paper,
    with the commit and time of its own run; a paper whose page is gone is dropped."""
    def one(paper, claims):
        return build([paper], profile="quick", device="cpu", seed=7, out=tmp_path / "out", fresh=False,
                     command="test", only=(), store_root=tmp_path / "store")
    from theoryverify import registry
    from unittest import mock
    with mock.patch("theoryverify.report.build.select", lambda pid, profile, only, device: [
            c for c in registry.claims(paper=pid) if c.id in ("icrecall.table2", "knowledge.h-eym")]):
        one("icrecall", None)
        one("knowledge", None)
    index = (tmp_path / "out" / "index.md").read_text()
    assert "[icrecall.md](icrecall.md)" in index and "[knowledge.md](knowledge.md)" in index
    (tmp_path / "out" / "icrecall.md").unlink()
    with mock.patch("theoryverify.report.build.select", lambda pid, profile, only, device: [
            c for c in registry.claims(paper=pid) if c.id == "knowledge.h-eym"]):
        one("knowledge", None)
    index = (tmp_path / "out" / "index.md").read_text()
    assert "icrecall.md" not in index and "[knowledge.md](knowledge.md)" in index
