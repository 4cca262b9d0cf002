"""``python -m theoryverify review``: the findings as a referee report (issue 28, item 3) — numbered points,
major before minor, each in the paper's order, with the paper's words, what is wrong, the evidence and the class
in plain words; no internal ids unless --ids; Markdown and LaTeX; a bad paper or rows file is one line, exit 2."""
import json

from theoryverify.cli import main
from theoryverify.report import review

from test_report_cards import row, twins

PAPER = {"id": "demo", "title": "Demo paper", "file": "demo.txt", "spec": "demo.md"}
RUN = {"profile": "quick", "seed": 1}


def rows():
    return [
        *twins(),  # Theorem 1 (no section named: stays first), the full twin refutes with the stronger evidence
        row("typo", finding="typo", location="Lemma 5 proof, App. B", statement="v4 = v5",
            reason="v2 = v4 is meant"),
        row("late", location="Theorem 4, App. C", statement="T = Θ(log K)", reason="T grows like K, not log K (typo)",
            counterexample={"K": 8, "T": 40.5},
            hypotheses=[{"text": "K ≥ 2", "needs": ["K"], "location": "Assumption 1", "constants": {}}]),
        row("amb", finding="reading", location="Sec. 3", statement="r is the argmax", reason="ties break it",
            readings={"tested": "the unique argmax", "others": {"an argmax": "holds: demo.amb-set"}}),
        row("ok", status="holds"),
        row("out", status="inconclusive", finding=None, outside_hypotheses=True),
    ]


def test_points_are_numbered_major_first_in_the_papers_order_without_ids():
    text = review.markdown(PAPER, rows(), RUN)
    assert text.startswith("# Referee report: Demo paper")
    # the reading finding's other reading holds at no stated cost: a wording issue, minor (referee 16)
    assert "2 major and 2 minor" in text
    order = [text.index(s) for s in ("1. **Theorem 1.**", "2. **Theorem 4, App. C.**", "## Minor points",
                                     "3. **Sec. 3.**", "4. **Lemma 5 proof, App. B.**")]
    assert order == sorted(order)
    assert "what was checked: T = Θ(log K)" in text and "T grows like K, not log K" in text
    assert "Counterexample: K = 8; T = 40.5." in text and "It satisfies the hypotheses: K ≥ 2 (Assumption 1)." in text
    assert "Error: the statement is false" in text and "Typo: a slip" in text and "Ambiguity" in text
    assert "an argmax (holds)" in text  # the other reading's status, without its id
    assert "exponent 1.62" in text and text.count("Theorem 1.") == 1  # twins: one point, the stronger evidence
    assert "demo." not in text and "python -m theoryverify verify" not in text  # no internal ids
    assert "log K (typo)" not in text  # a short id the author cited, left out


def test_ids_on_request():
    text = review.markdown(PAPER, rows(), RUN, ids=True)
    assert "`python -m theoryverify verify --claim demo.t1-full --profile full --seed 1` (claim `demo.t1`)" in text
    assert "holds: demo.amb-set" in text and "not log K (typo)" in text


def test_latex_output_escapes_and_numbers_on():
    tex = review.latex(PAPER, rows(), RUN)
    assert tex.count("\\begin{enumerate}") == 2 and tex.count("\\item") == 4
    assert "\\setcounter{enumi}{2}" in tex  # the minor points go on from the major ones
    assert "\\ensuremath{\\Theta}" in tex and "\\ensuremath{\\ge}" in tex and "Θ" not in tex
    assert review.latex_escape("a_b & 50% #1 {x} ~ $") == "a\\_b \\& 50\\% \\#1 \\{x\\} \\~{} \\$"


def test_the_command_reads_rows_and_bad_input_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([dict(r, id=r["id"].replace("demo.", "icrecall."), paper="icrecall")
                                for r in rows()]), encoding="utf-8")
    assert main(["review", "--paper", "icrecall", "--rows", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Referee report:") and "icrecall." not in out
    assert main(["review", "--paper", "icrecall", "--rows", str(path), "--latex"]) == 0
    assert "\\begin{enumerate}" in capsys.readouterr().out
    for argv in (["review", "--paper", "nope"], ["review", "--paper", "icrecall", "--rows", str(tmp_path / "x")],
                 ["review"]):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: a missing --paper
            code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)


def test_what_the_other_reading_costs_is_in_the_point():
    r = row("amb", finding="reading", location="Theorem 2", statement="r is the argmax", reason="ties break it",
            readings={"tested": "the unique argmax", "others": {"an argmax": "holds: demo.amb-set"},
                      "costs": {"an argmax": "Theorem 2 then names a set, not a token"}})
    text = review.markdown(PAPER, [r], RUN)
    assert "If read as an argmax: Theorem 2 then names a set, not a token." in text


def _major_minor(made_rows):
    text = review.markdown(PAPER, made_rows, RUN)
    major, _, minor = text.partition("## Minor points")
    return major, minor


def test_what_is_major_is_what_matters_to_a_reviewer():
    """Referee 16: a gap in the proof of a main result is major, a reading finding whose authors'-favour reading
    holds at no stated cost is minor (wording); a reading whose other readings fail, or whose holding reading costs
    the paper something, stays major; a typo, a gap no main result rests on and a reconstruction are minor."""
    made = [
        row("main", status="holds", location="Theorem 2", kind="identity"),
        row("gap-main", finding="proof_gap", location="Lemma 6 proof", statement="GAPMAIN",
            supports=["demo.main"]),
        row("gap-rate", finding="proof_gap", location="Lemma 7 proof", statement="GAPRATE",
            supports=["demo.rate"]),
        row("rate", status="holds", location="Lemma 7", kind="rate"),
        row("gap-aux", finding="proof_gap", location="Lemma 3 proof", statement="GAPAUX", supports=["demo.aux"]),
        row("aux", status="holds", location="Lemma 3"),
        row("wording", finding="reading", location="Sec. 4", statement="WORDING",
            readings={"tested": "literal", "others": {"intended": "holds: demo.main"}}),
        row("costly", finding="reading", location="Sec. 5", statement="COSTLY",
            readings={"tested": "literal", "others": {"intended": "holds: demo.main"},
                      "costs": {"intended": "the rate is then unproved"}}),
        row("nohold", finding="reading", location="Sec. 6", statement="NOHOLD",
            readings={"tested": "literal", "others": {"intended": "untested: lost constant"}}),
        row("recon", finding="reconstruction", location="Theorem 5", statement="RECON"),
        row("slip", finding="typo", location="Theorem 6", statement="SLIP"),
    ]
    major, minor = _major_minor(made)
    for word in ("GAPMAIN", "GAPRATE", "COSTLY", "NOHOLD"):
        assert word in major and word not in minor, word
    for word in ("GAPAUX", "WORDING", "RECON", "SLIP"):
        assert word in minor and word not in major, word
    assert "4 major and 4 minor" in major


def test_the_paper_states_only_the_papers_words():
    """Referee 16: "The paper states" quotes the paper (a declared quote, words in quotation marks in the statement,
    the location or the tested reading), a display the statement marks "as printed" is given as transcribed, and a
    point without recorded words says so instead of quoting the tool's sentence."""
    made = [
        row("q", location="Theorem 1", statement="read as exp(−c/T) with c = 1 within ±0.5",
            quote="The rate of error decreasing is roughly exp(−1/T)"),
        row("r", location="Theorem 2", statement="the bound, checked n ∈ {3, 4}",
            readings={"tested": 'the paper\'s words: "p is less than one third" — as a strict bound',
                      "others": {"p ≤ 1/3": "refuted: demo.x"}}, finding="reading"),
        row("s", location="Theorem 3", statement="Lemma 10's 'after O(1/T) iterations' against its proof's bound"),
        row("t", location="Theorem 4", statement="∇l = (1, ½, 0) for i = 3..6 (all 36 entries as printed)"),
        row("u", location="Theorem 5", statement="TOOL SENTENCE with c = 1 within ±0.5"),
    ]
    text = review.markdown(PAPER, made, RUN)
    assert "The paper states: “The rate of error decreasing is roughly exp(−1/T)”" in text
    assert "read as exp(−c/T)" not in text  # the tool's sentence is not quoted where the paper's words are declared
    assert "The paper states: “p is less than one third”" in text and "checked n ∈" not in text
    assert "The paper states: “after O(1/T) iterations”" in text  # "10's" opens no quotation
    assert "The paper prints (as transcribed for the check): “∇l = (1, ½, 0) for i = 3..6”" in text
    assert ("No quotation of the paper is recorded for this point; what was checked: TOOL SENTENCE" in text
            and "“TOOL SENTENCE" not in text)
