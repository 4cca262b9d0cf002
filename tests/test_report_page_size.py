"""Issue 28: the full pages at most one fifth of their old size, with nothing lost.  The reference is the 929 KB
iclnonlinear page before the issue, so ``reports/full/iclnonlinear.md`` must stay within 185,800 bytes; each cut
below says where what left the Markdown still is (the card's sentence, the HTML card, the glossary, the JSON row)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from theoryverify.report import cards, html, page
from theoryverify.standards import STANDARDS

from test_report_cards import row
from test_report_page import _page

FULL = Path(__file__).resolve().parent.parent / "reports" / "full"
BUDGET = 185_800  # one fifth of the 929 KB iclnonlinear page before issue 28


def test_the_committed_full_iclnonlinear_page_is_within_a_fifth_of_its_old_size():
    path = FULL / "iclnonlinear.md"
    if not path.exists():
        pytest.skip("no committed full page")
    assert path.stat().st_size <= BUDGET, f"{path.stat().st_size} bytes > {BUDGET}"


def test_the_evidence_block_leaves_out_only_the_clause_the_sentence_already_says():
    evidence = "[part a] ratio 3.7 > 1 at K = 8; grid of 5 points; seed 3 of 4 agree"
    text = _page([row("x", evidence=evidence, reason="the ratio must stay below 1")])
    wrong = next(line for line in text.splitlines() if line.startswith("**What is wrong:**"))
    assert "ratio 3.7 > 1 at K = 8 [part a]" in wrong  # the decisive clause leads the sentence, labels after it
    assert "- **Evidence, besides the sentence above:** grid of 5 points; seed 3 of 4 agree" in text
    card = text.split("#### ", 1)[1]
    assert card.count("ratio 3.7 > 1 at K = 8") == 1  # said once on the card, not twice
    # a label too long for the sentence (left out of it) keeps the clause in the evidence, whole
    label = "a part label far longer than forty characters in all"
    text = _page([row("y", evidence=f"[{label}] ratio 3.7 > 1; grid of 5 points", reason="must stay below 1")])
    assert f"- **Evidence:** [{label}] ratio 3.7 > 1; grid of 5 points" in text


def test_a_counterexample_array_is_named_on_the_page_and_whole_in_the_html_card():
    series = [0.5 + i / 1000 for i in range(6)]
    ce = {"K": 4, "series": series, "fits": {"a": {"exponent": 1.5, "ci": [1.4, 1.6]}, "b": {"exponent": 2.5}},
          "note": "n" * 320}
    r = row("z", counterexample=ce)
    text = _page([r])
    assert "(and note: below; series, fits: whole in the HTML card and the JSON row)" in text
    assert "0.503" not in text and "n" * 320 in text
    card = html.card_html(cards.cards([r])[0])
    assert "0.503" in card and "1.5" in card and "2.5" in card


def test_a_rule_that_is_an_evidence_standard_is_defined_once():
    span = STANDARDS.rules()["span"]
    text = _page([row("g", status="holds", details={"fit": {"rule": span}}, location="Theorem 1")])
    assert text.count(" ".join(span.split())) == 1  # the standard's entry, not a "rule 1" repeating it
    assert "#rule-1" not in text


def test_the_location_index_is_one_line_per_location_linking_each_claim():
    rows = [row("a", location="Lemma 2, App. B"), row("b", status="holds", location="Lemma 2"),
            row("c", status="holds", location="Lemma 2")]
    text = _page(rows)
    assert "- **Lemma 2**: holds [b](#claim-demo-b), [c](#claim-demo-c); refuted [a](#claim-demo-a)" in text


def test_the_code_folder_is_named_once_and_each_line_names_the_file_in_it():
    rows = [row("a", status="holds", source="derivations/demo/claims/s1.py:3"),
            row("b", status="holds", source="derivations/demo/claims/s2.py:9")]
    text = _page(rows)
    assert "the claims' code is under `derivations/demo/claims/`" in text
    assert "`demo.a` (`s1.py:3`)" in text and "`demo.b` (`s2.py:9`)" in text
    assert json.loads(page.rows_json(rows))[0]["source"] == "derivations/demo/claims/s1.py:3"  # the row is whole
