"""The Markdown page read in five minutes (issue 28, items 1-2), from hand-built rows: counts by distinct finding
(profile twins merged), cards grouped by a declared root cause, nothing cut with "…" (long text collapsible,
every row whole in the JSON beside the page), rules and repeated settings defined once in the glossary, a short
summary with main results first, passes grouped by section, and the index counting distinct findings."""
import json
import re
from types import SimpleNamespace

from theoryverify.report import markdown, page
from theoryverify.report.build import write_paper

from test_report_cards import row, twins

PAPER = {"id": "demo", "title": "Demo", "file": "demo.txt", "spec": "demo.md"}
RUN = {"command": "x", "profile": "quick", "seed": 1, "device_info": {"device": "cpu", "name": "cpu"},
       "versions": {}, "commit": "c", "generated": "now"}
RULE = "HOLDS if the CI lies within predicted ± margin over a grid of >= 4 points; REFUTED if it lies outside."


def _page(rows, gallery=None):
    return page.paper_page(PAPER, RUN, rows, gallery or {})


def test_twins_are_one_finding_everywhere_and_the_stronger_evidence_is_shown():
    rows = twins() + [row("ok", status="holds", location="Sec. 3")]
    text = _page(rows)
    assert "**2 distinct claims** (3 rows; 1 profile twins merged)" in text
    assert "1 [erratum](#class-erratum)" in text and text.count("#### ") == 1
    assert "exponent 1.62 [1.6, 1.64] vs 1" in text and "--profile full" in text  # the full twin's evidence
    assert 'id="claim-demo-t1"' in text and 'id="claim-demo-t1-full"' in text  # both ids still link here


def test_nothing_is_cut_long_text_is_collapsible_and_the_json_has_every_row_whole():
    long_evidence = "; ".join(f"clause {i}: value {i}.5 exceeds the bound" for i in range(80)) + "; THE-END"
    vector = list(range(40))
    r = row("long", evidence=long_evidence, counterexample={"N": vector, "note": "x" * 400}, runtime_s=1.25)
    text = _page([r])
    assert "…" not in text and "THE-END" in text and "<details>" in text
    assert "x" * 400 in text  # a long string is whole (in the collapsible block)
    assert "N = 40 values from 0 to 39 (all in the JSON row)" in text  # a long list is named, and whole in the JSON
    back = json.loads(page.rows_json([r]))
    assert back[0]["counterexample"]["N"] == vector and back[0]["evidence"] == long_evidence
    assert "runtime_s" not in back[0]  # the one field two runs with one seed do not share


def test_rules_and_repeated_settings_are_defined_once_in_the_glossary():
    aside = "(ε = 2/K, i.e. K ≥ 2/ε; N = 40K³ with δ = δ_min, the smallest δ Eq. 9 allows there; L = cK, c ∈ {1, 3})"
    rows = [row(f"r{i}", location=f"Lemma {i}", reason=f"the bound fails along the admissible path {aside}: ratio {i}",
                details={"fit": {"exponent": 1.0, "rule": RULE}, "grid_span": {"rule": RULE}}) for i in range(3)]
    text = _page(rows)
    assert text.count(RULE) == 1 and text.count("[rule 1](#rule-1)") == 3 and '<a id="rule-1"></a>' in text
    assert text.count(aside[1:-1]) == 1 and text.count("([setting 1](#setting-1))") >= 3
    assert re.search(r'<a id="setting-1"></a>\*\*setting 1\*\*: ε = 2/K', text)
    assert text.count("Rate claims (Θ/O/Ω/'scales as')") == 1  # the span standard, once


def test_cards_group_by_a_declared_root_cause():
    rows = [row("a", location="Lemma 1", cause="App. C assumes orthonormal features"), row("b", location="Lemma 2"),
            row("c", location="Lemma 3", cause="App. C assumes orthonormal features")]
    text = _page(rows)
    assert "**Root cause: App. C assumes orthonormal features** (2 findings)" in text
    order = [text.index(f"#### F{i}.") for i in (1, 2, 3)]
    assert order == sorted(order)
    assert text.index("Lemma 1 <a") < text.index("Lemma 3 <a") < text.index("Other findings") < text.index("Lemma 2 <a")


def test_findings_of_one_root_cause_count_once_and_name_each_other_across_classes():
    """Referee 16: "distinct findings" counted claims; findings that declare one shared cause (two slips of one
    display, a lemma's defect and a use of it classed apart) are one root cause, and a cause whose findings sit
    under two classes names the other card."""
    cause = "Lemma 7's log factor is dropped by its uses"
    rows = [row("a", finding="proof_gap", location="Lemma 7", cause=cause),
            row("b", finding="typo", location="Lemma 10", cause=cause),
            row("c", finding="typo", location="Lemma 5"), row("d", finding="typo", location="Lemma 8")]
    text = _page(rows)
    assert "They come from **3 root causes**" in text
    assert f"**Root cause: {cause}** (1 finding; the same cause under another class: [F2](#claim-demo-b) (typo))" in text
    assert f"**Root cause: {cause}** (1 finding; the same cause under another class: [F1](#claim-demo-a) (proof_gap))" in text
    plain = _page([row("x", location="Lemma 1"), row("y", location="Lemma 2")])
    assert "root causes" not in plain  # no shared cause: the summary is as before


def test_the_class_line_separates_the_independence_note():
    r = row("dr", finding="proof_gap", despite_reconstruction="the algebra alone decides")
    text = _page([r])
    assert "[proof_gap](#class-proof_gap). Independent of the reconstruction: the algebra alone decides" in text


def test_the_summary_fits_one_screen_and_puts_main_results_first():
    rows = [row(f"l{i}", location=f"Lemma {i}") for i in range(12)] + [row("thm", location="Theorem 2"),
                                                                        row("t", finding="typo", location="Eq. 3")]
    text = _page(rows)
    summary = text[text.index("## Summary"):text.index("## Findings")].splitlines()
    assert len(summary) <= 25
    top = [line for line in summary if line.startswith("- **F")]
    assert len(top) == page.TOP and "Theorem 2" in top[0] and all("(erratum)" in t for t in top)


def test_passes_are_grouped_by_section_one_line_each_saying_what_they_cover():
    sweep = {"param": "K", "x": [4, 8, 16, 32, 64], "measured": [1, 2, 3, 4, 5]}
    rows = [row("s1", status="holds", location="Prop. 2 (Sec. 5.2)", method="power-law fit",
                details={"sweep": sweep, "grid_span": {"spans": [{"param": "K", "decades": 1.2, "points": 5}]}}),
            row("s2", status="proved", location="Lemma 4 (App. D.1)", method="sympy simplify"),
            row("s3", status="holds", location="Sec. 5.1", method="drawn points")]
    text = _page(rows)
    passes = text[text.index("## Passes by section"):text.index("## Glossary")]
    assert passes.index("### Section 5 (2)") < passes.index("### Appendix D (1)")
    assert "**holds**: power-law fit; swept K = 4 to 64 (5 points); span 1.20 decades" in passes
    assert sum(line.startswith("- ") for line in passes.splitlines()) == 3


def test_section_of_a_location():
    assert page.section_of("Prop. 2 (Sec. 5.2); App. D.1") == "Section 5"
    assert page.section_of("Lemma 4 (App. D.1)") == "Appendix D"
    assert page.section_of("Theorem 1") == "Theorem 1" and page.section_of("abstract") == "Elsewhere"


def test_the_index_and_the_json_beside_the_page_count_distinct_findings(tmp_path):
    rows = twins() + [row("typo1", finding="typo", location="Eq. 2")]
    paper = SimpleNamespace(id="icrecall", title="Demo", file="demo.txt", spec="nope.md")
    got = write_paper(paper, rows, dict(RUN), tmp_path)
    assert got["n"] == 2 and got["rows"] == 3 and got["findings"] == {"erratum": 1, "typo": 1}
    assert got["errata"] == 1
    assert [r["id"] for r in json.loads((tmp_path / "icrecall.json").read_text())] == [r["id"] for r in rows]
    index = markdown.index_page(RUN, [got])
    assert "| Demo | 2 |" in index and "counted by distinct claim" in index
    assert "…" not in (tmp_path / "icrecall.md").read_text()


def test_a_long_counterexample_shows_its_point_on_the_line_and_names_a_zero_matrix():
    """The reader sees where the counterexample is (Q = 0, the initialisation; its scalars) without opening a
    block; long texts follow, whole; arrays are named, whole in the HTML card and the JSON row (issue 28: the
    full page at most a fifth of its old size)."""
    ce = {"K": 2, "N": 2, "task_law": "cos-projection", "Q": [[-0.0, 0.0], [0.0, -0.0]],
          "V": [[-1.0744561701, -0.28154327487] * 8, [0.0130934453, 0.6224284438] * 8], "note": "y" * 200,
          "min g_k / scale": -0.00012036}
    lines = page.counterexample_lines(ce)
    assert lines[0].startswith("- **Counterexample:** K = 2; N = 2; task_law = cos-projection; "
                               "Q = 0 (a 2×2 zero matrix); min g_k / scale = -0.0001204 (and note: below; V: whole in the HTML "
                               "card and the JSON row)")
    rest = "\n".join(lines[1:])
    assert "y" * 200 in rest and "V = " not in rest and "Q = " not in rest
    assert page.counterexample_lines({"K": 2, "Q": [[0.0]]}) == ["- **Counterexample:** K = 2; Q = 0 (a 1×1 zero matrix)"]


def test_what_each_reading_costs_is_on_the_card_and_its_absence_is_said_for_a_main_result():
    readings = {"tested": "per step", "others": {"window mean": "holds: demo.ok"},
                "costs": {"window mean": "the statement holds only on average; Lemma 7's per-step bound still fails"}}
    text = _page([row("r", finding="reading", location="Prop. 3", reason="fails per step", readings=readings)])
    assert ("- **What each reading costs:** window mean — the statement holds only on average; Lemma 7's per-step "
            "bound still fails") in text
    assert "what each costs the paper" in text  # the class's heading says what its cards show
    bare = {"tested": "per step", "others": {"window mean": "holds: demo.ok"}}
    text = _page([row("r", finding="reading", location="Theorem 2", reason="fails per step", readings=bare)])
    assert "- **What each reading costs:** not stated by the claim" in text
    text = _page([row("r", finding="reading", location="Lemma 5", reason="fails per step", readings=bare)])
    assert "What each reading costs" not in text  # not a main result: nothing to flag


def test_a_readings_cost_must_name_a_reading():
    import pytest

    from theoryverify.findings import Readings, RegistrationError
    r = Readings("per step", {"window mean": "holds"}, costs={"window mean": "weaker"})
    assert r.to_json()["costs"] == {"window mean": "weaker"}
    assert "costs" not in Readings("per step", {"window mean": "holds"}).to_json()  # older rows stay byte-identical
    with pytest.raises(RegistrationError, match="names no reading"):
        Readings("per step", {"window mean": "holds"}, costs={"window average": "weaker"})


def test_a_pass_located_by_file_and_line_is_filed_under_the_tex_section_not_elsewhere(tmp_path, monkeypatch):
    """Author 9's D7: a drafted package's locations are ``Lemma lem:grad, paper.tex:15`` and ``paper.tex:32`` — no
    numbered Section — and every pass went under "Elsewhere".  The section of the paper's LaTeX holding the line
    names the group now; a line before any section, or a file the paper does not have, stays "Elsewhere"."""
    (tmp_path / "paper.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\section{Setting}\nA\n"
                                        "B\n\\section{The optimal penalty}\nC\n\\appendix\n\\section{Proofs}\nD\n",
                                        encoding="utf-8")
    monkeypatch.setenv("THEORYVERIFY_PAPERS_DIR", str(tmp_path))
    rows = [row("g", status="holds", location="Lemma lem:grad, paper.tex:4"),
            row("d", status="proved", location="paper.tex:7"),
            row("p", status="proved", location="paper.tex:10"),
            row("x", status="proved", location="paper.tex:1"),
            row("y", status="proved", location="other.tex:7")]
    text = page.paper_page(dict(PAPER, file="paper.tex"), RUN, rows, {})
    passes = text[text.index("## Passes by section"):text.index("## Glossary")]
    heads = [line for line in passes.splitlines() if line.startswith("### ")]
    assert heads == ["### Section 1 (Setting) (1)", "### Section 2 (The optimal penalty) (1)",
                     "### Elsewhere (2)", "### Appendix A (Proofs) (1)"], heads  # Elsewhere before appendices
    # the old page (no LaTeX read) filed all five under "Elsewhere"
    assert page.section_of("paper.tex:7") == "Elsewhere"
