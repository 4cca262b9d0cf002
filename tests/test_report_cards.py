"""Finding cards (issue 28, item 1) from hand-built verdict rows: profile twins are one card showing the stronger
evidence, findings are counted by distinct claim, nothing is cut with "…", and a card's parts come in the order a
reviewer reads them.  Planted: a twin pair, a long evidence string, a long counterexample vector."""
from theoryverify.report import cards, html
from theoryverify.report.cards import NO_FINDING


def row(cid, status="refuted", *, finding="erratum", evidence="relative error 0.03 > 1e-10", **kw):
    """A verdict row as ``ClaimResult.to_json`` writes it (only the keys the report reads)."""
    r = {"id": f"demo.{cid}", "paper": "demo", "location": kw.pop("location", "Lemma 2, App. B"),
         "statement": kw.pop("statement", f"statement of {cid}"), "kind": "identity", "catalogue_id": None,
         "status": status, "source": kw.pop("source", f"derivations/demo/claims.py:{len(cid)}"),
         "as_expected": True, "finding": finding if status == "refuted" else None, "reason": None,
         "readings": None, "despite_reconstruction": None, "supports": [], "hypotheses": [],
         "outside_hypotheses": False, "method": "m", "evidence": evidence, "counterexample": None, "details": {},
         "choices": {}, "profile": "quick", "device": "cpu"}
    r.update(kw)
    return r


def twins():
    """A claim and its full-profile variant (same registration, id + "-full"): the variant refutes on the larger
    grid with its own evidence."""
    same = dict(location="Theorem 1", statement="T1 = Θ(K log K)", source="derivations/demo/claims.py:7",
                reason="the measured exponent is 1.6, not 1")
    return [row("t1", evidence="exponent 1.5 [1.4, 1.6] vs 1", **same),
            row("t1-full", evidence="exponent 1.62 [1.6, 1.64] vs 1", profile="full", **same)]


def test_profile_twins_are_one_card_showing_the_stronger_evidence():
    rows = twins() + [row("other", evidence="ratio 3.7 ≠ 1", location="Eq. (4)")]
    made = cards.cards(rows)
    assert [c.id for c in made] == ["demo.t1", "demo.other"]
    t1 = made[0]
    assert t1.shown_id == "demo.t1-full" and "1.62" in t1.evidence  # between equal verdicts: the variant
    assert t1.twins == (("demo.t1", "refuted"),) and t1.ids == ("demo.t1", "demo.t1-full")
    assert t1.command == "python -m theoryverify verify --claim demo.t1-full --profile full"


def test_a_refuting_twin_is_stronger_than_a_holding_one():
    quick, full = twins()
    quick["status"], quick["finding"] = "holds", None
    (only,) = cards.cards([quick, full])
    assert only.status == "refuted" and only.shown_id == "demo.t1-full" and only.twins == (("demo.t1", "holds"),)
    quick["status"], quick["finding"], full["status"], full["finding"] = "refuted", "erratum", "inconclusive", None
    (only,) = cards.cards([quick, full])
    assert only.status == "refuted" and only.shown_id == "demo.t1"


def test_rows_that_only_look_alike_are_not_merged():
    """Same statement and location but another registration, or ids not related by a suffix: two claims."""
    a = row("a", location="Lemma 1", statement="s", source="x.py:1")
    b = row("a-full", location="Lemma 1", statement="s", source="x.py:2")  # another registration line
    c = row("b", location="Lemma 1", statement="s", source="x.py:1")  # the same line (a loop), unrelated id
    assert len(cards.cards([a, b, c])) == 3


def test_findings_are_counted_by_distinct_claim():
    rows = twins() + [row("typo1", finding="typo"), row("ok", status="holds")]
    made = cards.cards(rows)
    assert cards.finding_counts(made) == {"erratum": 1, "typo": 1}
    assert cards.status_counts(made) == {"refuted": 2, "holds": 1}
    assert made[-1].finding == NO_FINDING and not made[-1].is_finding
    summary = html.summary_html(rows, made)
    assert "3 distinct claims (4 rows; 1 profile twins merged)" in summary and "1 erratum, 1 typo" in summary


def test_long_evidence_and_long_counterexamples_are_never_cut():
    long_evidence = "; ".join(f"clause {i}: value {i}.5 exceeds the bound" for i in range(80)) + "; THE-END"
    vector = list(range(40))
    r = row("long", evidence=long_evidence, counterexample={"N": vector, "ci": [0.1, 0.2], "shape": [3, 1]})
    (c,) = cards.cards([r])
    assert c.evidence == long_evidence and "…" not in c.evidence
    shown = dict(c.counterexample)
    assert shown["N"] == "[" + ", ".join(map(str, vector)) + "]" and shown["ci"] == "[0.1, 0.2]" \
        and shown["shape"] == "(3, 1)"
    page = html.card_html(c)
    assert "THE-END" in page and "39]" in page and "…" not in page and "<details>" in page  # long: collapsible


def test_what_is_wrong_puts_the_decisive_number_first():
    r = row("w", evidence="[part A] mean α = 0.977 at step 50; after 1 step: 0.976", reason="α leaves 1/2 at once")
    (c,) = cards.cards([r])
    assert c.wrong == "mean α = 0.977 at step 50 [part A] — α leaves 1/2 at once"
    # a chain of explanations ending in the comparison: the comparison first, a long part label left to the evidence
    long_label = "O side: T_s^1 [g_k ≤ C·δ²L²Δ²ε/K] / T_f^* (= T_s^1, Sec. 5.3) bounded"
    chain = (f"[C = 1, path c=3] [{long_label}] ratio diverges along the family: O(1/K^0): b = -0.66 (CI [-0.73, "
             "-0.57]; predicted 0 ± 0.15)")
    assert cards.number_first(chain) == ("b = -0.66 (CI [-0.73, -0.57]; predicted 0 ± 0.15) [C = 1, path c=3]: ratio "
                                         "diverges along the family: O(1/K^0)")
    assert cards.number_first("per-row means all < 0: False") == "per-row means all < 0: False"  # not a chain
    assert cards.decisive("no number here; still none") == ""
    # a "; " inside brackets does not end a clause; a clause that compares numbers beats one that only holds one
    fit = "b = 2 (CI [2, 2]; predicted 2 ± 0.15)"
    assert cards.decisive(fit + "; ratio spread 1") == fit
    assert cards.decisive("[orthonormal] 25 drawn points; max rel. error 0.3 > tol 1e-10") == \
        "max rel. error 0.3 > tol 1e-10"
    assert cards.decisive("25 drawn points; all fine") == "25 drawn points"


def test_a_long_aside_leaves_the_headline_but_not_the_evidence():
    aside = "(the check alone: holds, " + "x" * 100 + ")"
    evidence = f"inconclusive: grid spans 0.60 decades (< 1) {aside}"
    (c,) = cards.cards([row("n", status="inconclusive", evidence=evidence)])
    assert c.wrong == "inconclusive: grid spans 0.60 decades (< 1) (see the evidence)" and c.evidence == evidence
    assert aside in html.card_html(c)
    r = row("v", evidence="ratio 3.7", reason="the ratio 3.7 is not 1")  # the number is in the reason already
    assert cards.cards([r])[0].wrong == "the ratio 3.7 is not 1"


def test_card_parts_in_reading_order():
    r = row("r", finding="reading", reason="fails under reading A", counterexample={"K": 2},
            readings={"tested": "reading A", "others": {"reading B": "holds: demo.b"}},
            hypotheses=[{"text": "K ≥ 2", "needs": ["K"], "location": "Assumption 1", "constants": {}}])
    (c,) = cards.cards([r], seed=7)
    assert c.readings == (("reading A", "tested here: refuted"), ("reading B", "holds: demo.b"))
    assert c.hypotheses == ("K ≥ 2 (Assumption 1)",) and c.command.endswith("--seed 7")
    page = html.card_html(c)
    order = [page.index(x) for x in ("Lemma 2, App. B", "statement of r", "fails under reading A", "Counterexample",
                                     "Hypotheses", "Class", "reading B", "Reproduce")]
    assert order == sorted(order)


def test_findings_come_first_by_class():
    rows = [row("ok", status="holds"), row("t", finding="typo"), row("e"), row("odd", finding=None)]
    assert [c.id.split(".")[1] for c in cards.cards(rows)] == ["e", "t", "odd", "ok"]
    assert cards.cards(rows)[2].finding == "unclassified"


def test_the_registrys_profile_twins_are_merged_and_nothing_else():
    """On the shipped papers: every group of rows is one claim and the variants extracted from it (a Variant with
    an id of its own: ``Claim.profile`` set), never two claims; a claim merely named "-full" stays apart."""
    from theoryverify import registry

    every = registry.claims()
    rows = [{"id": c.id, "paper": c.paper, "source": c.source, "location": c.location, "statement": c.statement,
             "catalogue_id": c.catalogue_id, "kind": c.kind.value, "status": "holds", "pinned": c.profile}
            for c in every]
    groups = cards.group_twins(rows)
    for g in groups:
        if len(g) > 1:
            assert [r["pinned"] for r in g[:1]] == [None] and all(r["pinned"] for r in g[1:]), [r["id"] for r in g]
    merged = sum(len(g) - 1 for g in groups)
    assert merged > 0 and len(groups) == len(rows) - merged
    by_id = {r["id"]: g for g in groups for r in g}
    if "knowledge.p1-balance-full" in by_id:  # another statement (Lemma 14), registered apart: not a twin
        assert len(by_id["knowledge.p1-balance-full"]) == 1


def test_cards_of_one_declared_root_cause_come_together_within_their_class():
    rows = [row("a", cause="orthonormal features assumed"), row("b"), row("c", cause="orthonormal features assumed"),
            row("t", finding="typo")]
    made = cards.cards(rows)
    assert [c.id.split(".")[1] for c in made] == ["a", "c", "b", "t"]
    assert made[0].cause == "orthonormal features assumed" and made[2].cause is None
    assert "Root cause: orthonormal features assumed" in html.card_html(made[0])


def test_a_readings_cost_is_on_the_html_card():
    readings = {"tested": "per step", "others": {"window mean": "holds: demo.ok"},
                "costs": {"window mean": "only on average"}}
    (c,) = cards.cards([row("r", finding="reading", reason="fails per step", readings=readings)])
    assert c.reading_costs == (("window mean", "only on average"),)
    assert "window mean — <em>holds: demo.ok</em>; <strong>costs:</strong> only on average</li>" in html.card_html(c)
