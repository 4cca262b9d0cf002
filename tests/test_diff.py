"""``python -m theoryverify diff OLD.json NEW.json``: planted changes are reported, identical runs exit 0, bad
input is one line with exit 2."""
import json
import subprocess
import sys

import pytest

from theoryverify import cli


def row(cid, status, *, finding=None, expected="proved|holds", as_expected=True, **extra):
    return {"id": cid, "paper": "demo", "status": status, "finding": finding, "expected": expected,
            "as_expected": as_expected, "evidence": "…", **extra}


OLD = [row("demo.a", "holds"),
       row("demo.b", "refuted", finding="typo", expected="refuted"),
       row("demo.c", "proved"),
       row("demo.gone", "holds")]


def write(tmp_path, name, rows):
    p = tmp_path / name
    p.write_text(rows if isinstance(rows, str) else json.dumps(rows))
    return str(p)


def diff(tmp_path, old, new, *flags):
    return cli.main(["diff", write(tmp_path, "old.json", old), write(tmp_path, "new.json", new), *flags])


def test_identical_runs_exit_0(tmp_path, capsys):
    assert diff(tmp_path, OLD, OLD) == 0
    out = capsys.readouterr().out
    assert out.strip() == "No verdict changed (4 claims compared)."
    assert diff(tmp_path, OLD, list(reversed(OLD)), "--json") == 0  # order of rows does not matter
    assert json.loads(capsys.readouterr().out) == []


def test_planted_status_change_is_reported(tmp_path, capsys):
    new = [row("demo.a", "refuted", as_expected=False), *OLD[1:]]
    assert diff(tmp_path, OLD, new) == 1
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if "`demo.a`" in l)
    assert "| holds → refuted |" in line and "— → unclassified" in line
    assert "now differs from the expectation" in line
    assert out.splitlines()[-1] == "1 of 4 claims changed: 1 status."
    assert not any("demo.c" in l for l in out.splitlines())  # unchanged claims are not listed


def test_planted_finding_class_change_is_reported(tmp_path, capsys):
    new = [OLD[0], row("demo.b", "refuted", finding="erratum", expected="refuted"), *OLD[2:]]
    assert diff(tmp_path, OLD, new, "--json") == 1
    [c] = json.loads(capsys.readouterr().out)
    assert c["id"] == "demo.b" and c["kinds"] == ["finding"]
    assert c["status"] == {"old": "refuted", "new": "refuted"}
    assert c["finding"] == {"old": "typo", "new": "erratum"}
    assert diff(tmp_path, OLD, new) == 1
    out = capsys.readouterr().out
    assert "| `demo.b` | refuted | typo → erratum | finding class changed |" in out
    assert out.splitlines()[-1] == "1 of 4 claims changed: 1 finding class."


def test_added_removed_and_expectation_changes(tmp_path, capsys):
    new = [row("demo.a", "holds", expected="refuted", as_expected=False), OLD[1], OLD[2], row("demo.new", "holds")]
    assert diff(tmp_path, OLD, new, "--json") == 1
    changes = {c["id"]: c for c in json.loads(capsys.readouterr().out)}
    assert list(changes) == ["demo.a", "demo.gone", "demo.new"]  # sorted by id
    assert changes["demo.a"]["kinds"] == ["expected"]
    assert changes["demo.a"]["expected"] == {"old": "proved|holds", "new": "refuted"}
    assert changes["demo.gone"]["kinds"] == ["removed"] and changes["demo.gone"]["status"]["new"] is None
    assert changes["demo.new"]["kinds"] == ["added"] and changes["demo.new"]["status"]["old"] is None
    assert diff(tmp_path, OLD, new) == 1
    out = capsys.readouterr().out
    assert "expectation proved\\|holds → refuted" in out  # the pipe of "proved|holds" is escaped in the table
    assert "| `demo.new` | — → holds |" in out and "| `demo.gone` | holds → — |" in out
    assert out.splitlines()[-1] == "3 of 5 claims changed: 1 expectation, 1 added, 1 removed."


@pytest.mark.parametrize("content", [
    "this is not JSON",
    json.dumps({"id": "demo.a", "status": "holds"}),
    json.dumps([{"id": "demo.a"}]),
    json.dumps(["demo.a"]),
    json.dumps([{"id": 3, "status": "holds"}]),
    json.dumps([row("demo.a", "holds"), row("demo.a", "refuted")]),
    None,  # a missing file
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, content):
    bad = str(tmp_path / "missing.json") if content is None else write(tmp_path, "bad.json", content)
    good = write(tmp_path, "good.json", OLD)
    for args in (["diff", bad, good], ["diff", good, bad, "--json"]):
        assert cli.main(args) == 2
        captured = capsys.readouterr()
        err = captured.err.strip()
        assert captured.out == ""
        assert len(err.splitlines()) == 1 and err.startswith("theoryverify: error:") and "Traceback" not in err
        assert bad in err


def test_command_line(tmp_path):
    """Through ``python -m theoryverify``: the exit code is the process's, the error one line on stderr."""
    old, new = write(tmp_path, "o.json", OLD), write(tmp_path, "n.json", OLD[:3])
    proc = subprocess.run([sys.executable, "-m", "theoryverify", "diff", old, new], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1 and "| `demo.gone` | holds → — |" in proc.stdout, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "theoryverify", "diff", old, str(tmp_path / "nope.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1
