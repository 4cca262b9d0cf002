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
    assert "3 major and 1 minor" in text
    order = [text.index(s) for s in ("1. **Theorem 1.**", "2. **Sec. 3.**", "3. **Theorem 4, App. C.**",
                                     "## Minor points", "4. **Lemma 5 proof, App. B.**")]
    assert order == sorted(order)
    assert "The paper states: “T = Θ(log K)”" in text and "T grows like K, not log K" in text
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
    assert "\\setcounter{enumi}{3}" in tex  # the minor points go on from the major ones
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
