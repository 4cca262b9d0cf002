"""Runs a person can rely on (issue 30, items 2-3): progress on stderr off a terminal, a first line that says what
will run and a last line that says what was reused and computed; Ctrl-C ends with one line and exit 130 keeping
every finished claim (the next run resumes and says so); a results store that cannot be written, or an entry
that is truncated, corrupt or tampered with, gives one warning and never a wrong verdict; two processes
writing one store lose nothing.

The runs use a tiny paper package written to a temporary folder (``tinyrun``: three claims, the second of which
can be told, by an environment variable, to raise KeyboardInterrupt or to wait for SIGINT), run through
``verify`` in this process (the results store in a temporary folder) and, for the real SIGINT, once in a
subprocess."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from theoryverify import cli, registry, resume, store as st
from theoryverify.progress import Batches

ROOT = Path(__file__).resolve().parent.parent

TINY_INIT = '''
import theoryverify as tv

PAPER = tv.Paper(id="tinyrun", title="A tiny paper for run tests", file="tinyrun.txt", spec="tinyrun.md")
'''

TINY_CLAIMS = '''
import os
import time

import theoryverify as tv
from theoryverify.verdicts import holds, refuted

CLAIMS = tv.ClaimSet("tinyrun")


@CLAIMS.add("a", location="Eq. 1", statement="first", kind=tv.Kind.IDENTITY)
def a(ctx):
    return holds("tiny", "a holds")


@CLAIMS.add("b", location="Eq. 2", statement="second", kind=tv.Kind.IDENTITY)
def b(ctx):
    mode = os.environ.get("TINYRUN_B", "")
    if mode == "raise":
        raise KeyboardInterrupt
    if mode == "wait":  # tell the test that claim a is done, then wait for its SIGINT
        open("b-started", "w").close()
        time.sleep(60)
    return holds("tiny", "b holds")


@CLAIMS.add("c", location="Eq. 3", statement="third (planted: false)", kind=tv.Kind.IDENTITY,
            expect=tv.Status.REFUTED, finding="typo", reason="planted")
def c(ctx):
    return refuted("tiny", "c is false", {"x": 1})
'''


def _write_tiny(site: Path) -> None:
    for rel, text in {"tinyrun/__init__.py": TINY_INIT, "tinyrun/claims/__init__.py": "",
                      "tinyrun/claims/s1_main.py": TINY_CLAIMS}.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def _clear_caches() -> None:
    registry._discover.cache_clear()
    registry._paper_claims.cache_clear()


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """The ``tinyrun`` paper importable and registered, the results store in ``tmp_path/work``; yields
    (site folder, store root)."""
    site = tmp_path / "site"
    _write_tiny(site)
    root = tmp_path / "work" / ".theoryverify-cache" / "report"
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("THEORYVERIFY_PAPERS", "tinyrun")
    monkeypatch.delenv("TINYRUN_B", raising=False)
    monkeypatch.setattr(resume, "STORE_ROOT", root)
    monkeypatch.setattr(st, "_UNWRITABLE", set())
    monkeypatch.setattr(st, "_UNREADABLE", set())
    _clear_caches()
    yield site, root
    _clear_caches()
    for name in [m for m in sys.modules if m.split(".")[0] == "tinyrun"]:
        del sys.modules[name]


def verify(capsys, *args: str) -> tuple[int, str, list[str]]:
    """(exit code, stdout, stderr lines) of ``verify --paper tinyrun ARGS`` in this process."""
    capsys.readouterr()
    code = cli.main(["verify", "--paper", "tinyrun", *args])
    out, err = capsys.readouterr()
    return code, out, _lines(err)


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


# --- progress -------------------------------------------------------------------------------------------------

def test_off_a_terminal_one_line_per_batch_with_done_total_elapsed_and_eta(capsys):
    now = [0.0]
    bar = Batches(20, "demo", clock=lambda: now[0], terminal=False)
    for _ in range(20):
        now[0] += 3.0
        bar.update()
    bar.close()
    lines = _lines(capsys.readouterr().err)
    assert len(lines) == 10  # a batch is a tenth of the claims
    assert lines[0] == "theoryverify: demo 2/20 claims, 6 s elapsed, ETA 54 s"
    assert lines[-1] == "theoryverify: demo 20/20 claims, 1 min 0 s elapsed"


def test_a_slow_batch_still_gets_a_line_after_the_interval(capsys):
    now = [0.0]
    bar = Batches(100, "slow", clock=lambda: now[0], terminal=False, interval=30.0)
    now[0] = 45.0
    bar.update()  # 1 of 100: not a batch boundary, but 45 s without a line
    assert _lines(capsys.readouterr().err) == ["theoryverify: slow 1/100 claims, 45 s elapsed, ETA 1 h 14 min"]


def test_verify_says_what_will_run_and_what_it_reused(tiny, capsys):
    site, root = tiny
    code, out, err = verify(capsys)
    assert code == 0, err
    assert err[0] == f"theoryverify: 1 paper, 3 claims, quick profile; 0 from the results store ({root}), 3 to compute"
    assert any(line.startswith("theoryverify: tinyrun 3/3 claims, ") for line in err)  # progress off a terminal
    assert err[-1].startswith("theoryverify: done: 0 claims reused from the results store, 3 computed in ")
    assert "tinyrun.a" in out and "theoryverify:" not in out  # progress never on stdout
    code, again, err = verify(capsys)
    assert err[0].endswith(f"3 from the results store ({root}), 0 to compute")
    assert err[-1].startswith("theoryverify: done: 3 claims reused from the results store, 0 computed")
    assert again == out  # a reused verdict prints exactly as a computed one
    code, fresh, err = verify(capsys, "--fresh", "--json")
    assert "the results store is ignored (--fresh)" in err[0]
    assert [r["status"] for r in json.loads(fresh)] == ["holds", "holds", "refuted"]


def test_verify_without_a_paper_says_it_runs_every_paper(monkeypatch, capsys):
    from theoryverify import registry
    from theoryverify.claims import Claim, Kind
    from theoryverify.verdicts import holds

    one = Claim(id="icrecall.adhoc", paper="icrecall", location="nowhere", statement="ad hoc", kind=Kind.IDENTITY,
                check=lambda ctx: holds("m", "e"))
    monkeypatch.setattr(registry, "claims", lambda paper=None, claim=None: [one])
    assert cli.main(["verify"]) == 0
    err = _lines(capsys.readouterr().err)
    assert err[0].startswith("theoryverify: no --paper or --claim: every paper (icrecall); 1 paper, 1 claim, ")


# --- Ctrl-C ---------------------------------------------------------------------------------------------------

def test_ctrl_c_in_a_check_is_one_line_exit_130_and_the_next_run_resumes(tiny, capsys, monkeypatch):
    site, root = tiny
    monkeypatch.setenv("TINYRUN_B", "raise")
    code, out, err = verify(capsys)
    assert code == 130 and out == ""
    assert err[-1] == ("theoryverify: interrupted (2 claims not computed); the claim finished in this run is kept "
                       "in the results store; the next run resumes from it")
    monkeypatch.delenv("TINYRUN_B")
    code, out, err = verify(capsys)
    assert code == 0, err
    assert err[0].endswith(f"1 from the results store ({root}), 2 to compute")
    assert err[-1].startswith("theoryverify: done: 1 claim reused from the results store, 2 computed")


def _as_from_a_shell() -> None:
    """The child starts as a shell starts a command: SIGINT at its default and not blocked (a test worker's own
    disposition or mask, which exec would pass on, is not what a user's Ctrl-C meets)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_sigint_to_a_running_verify_is_one_line_and_exit_130(tmp_path):
    """A real Ctrl-C (SIGINT to the process, while a check runs): no traceback, exit 130, the finished claim kept
    (the one subprocess of these tests: importing the engine and torch takes a few seconds)."""
    site, work = tmp_path / "site", tmp_path / "work"
    _write_tiny(site)
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TINYRUN_", "THEORYVERIFY_PAPERS"))}
    env.update(PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]), THEORYVERIFY_PAPERS="tinyrun", TINYRUN_B="wait")
    proc = subprocess.Popen([sys.executable, "-m", "theoryverify", "verify", "--paper", "tinyrun"], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_as_from_a_shell)
    try:
        deadline = time.monotonic() + 60
        while not (work / "b-started").exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and out == ""
    assert _lines(err)[-1].startswith("theoryverify: interrupted (2 claims not computed); the claim finished")
    assert len(list((work / ".theoryverify-cache" / "report" / "tinyrun.a").glob("*.json"))) == 1  # a is kept



def test_sigint_to_a_run_on_worker_processes_stops_them_at_once(tmp_path):
    """The same Ctrl-C with ``--jobs 2`` while claim b runs on a worker: exit 130 with the one line and no
    traceback, at once — before, loky's manager thread died on the cancelled futures (an ``InvalidStateError``
    traceback), the workers went on computing and the process hung until their claims ended (here b's 60 s)."""
    site, work = tmp_path / "site", tmp_path / "work"
    _write_tiny(site)
    slow = "\n".join(f"""
@CLAIMS.add("w{i}", location="Eq. {4 + i}", statement="slow {i}", kind=tv.Kind.IDENTITY)
def w{i}(ctx):
    if os.environ.get("TINYRUN_B") == "wait":
        open("b-started", "w").close()
        time.sleep(60)
    return holds("tiny", "w holds")
""" for i in range(6))  # six claims that wait: two running on the workers, four pending when Ctrl-C comes
    claims = site / "tinyrun" / "claims" / "s1_main.py"
    claims.write_text(claims.read_text(encoding="utf-8") + slow, encoding="utf-8")
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TINYRUN_", "THEORYVERIFY_PAPERS"))}
    env.update(PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]), THEORYVERIFY_PAPERS="tinyrun", TINYRUN_B="wait")
    proc = subprocess.Popen([sys.executable, "-m", "theoryverify", "verify", "--paper", "tinyrun", "--jobs", "2"],
                            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_from_a_shell)
    try:
        deadline = time.monotonic() + 90
        while not (work / "b-started").exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
            time.sleep(0.05)
        time.sleep(0.5)
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=40)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and out == "", err
    assert "interrupted" in _lines(err)[-1], err
    assert took < 30, f"the interrupted run took {took:.0f} s to stop (b's worker was left running)"

# --- a store that cannot be written, entries that cannot be trusted ---------------------------------------------

def test_an_unwritable_store_is_one_warning_and_the_run_goes_on(tiny, capsys):
    site, root = tiny
    root.parent.parent.mkdir(parents=True)
    root.parent.write_text("a file where the store's folder should be")
    code, out, err = verify(capsys)
    assert code == 0, err
    warnings = [line for line in err if "warning" in line]
    assert len(warnings) == 1 and "cannot write the results store" in warnings[0], err
    assert "running without storing" in warnings[0]
    assert "tinyrun.c" in out


def test_a_permission_error_on_write_is_one_warning(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(st, "_UNWRITABLE", set())

    def denied(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(st.tempfile, "mkstemp", denied)
    s = st.Store(tmp_path / "ro")
    assert [s.put({"claim": "x", "i": i}, [i, 0.5]) for i in range(3)] == [[0, 0.5], [1, 0.5], [2, 0.5]]
    assert st.Store(tmp_path / "ro").put({"claim": "x", "i": 9}, 1) == 1  # a new Store of the same root: no new warning
    assert st.Store(tmp_path / "ro" / "report").put({"claim": "x"}, 2) == 2  # nor of a store inside it
    err = _lines(capsys.readouterr().err)
    assert len(err) == 1 and "cannot write the results store" in err[0] and "PermissionError" in err[0]
    assert s.get({"claim": "x", "i": 0}) == (False, None)


@pytest.mark.parametrize("damage", ["truncated", "garbage", "binary", "not a record", "other key", "tampered"])
def test_a_damaged_entry_is_one_warning_and_recomputed(tmp_path, capsys, damage):
    s = st.Store(tmp_path / "store")
    key = {"claim": "demo", "n": 3}
    s.put(key, {"status": "refuted", "x": [1, 2, 3]})
    path = s.path(key)
    text = path.read_text()
    record = json.loads(text)
    if damage == "truncated":
        path.write_text(text[: len(text) // 2])
    elif damage == "garbage":
        path.write_text("{not json")
    elif damage == "binary":
        path.write_bytes(b"\xff\xfe\x00\x81")
    elif damage == "not a record":
        path.write_text("[1, 2]")
    elif damage == "other key":
        path.write_text(json.dumps({**record, "key": {"claim": "demo", "n": 4}}))
    else:  # valid JSON, a plausible value, but not the one whose checksum is recorded
        path.write_text(json.dumps({**record, "value": {"status": "holds", "x": [1, 2, 3]}}))
    capsys.readouterr()
    calls = []
    value = s.get_or_compute(key, lambda: calls.append(1) or {"status": "refuted", "x": [1, 2, 3]})
    assert value == {"status": "refuted", "x": [1, 2, 3]} and calls == [1]
    err = _lines(capsys.readouterr().err)
    assert len(err) == 1 and "warning: results store entry" in err[0] and "recomputed" in err[0]
    assert s.get(key) == (True, value)  # rewritten whole
    assert capsys.readouterr().err == ""


def test_a_record_written_before_checksums_is_still_read(tmp_path):
    s = st.Store(tmp_path)
    key = {"claim": "old", "seed": 1}
    s.path(key).parent.mkdir(parents=True)
    s.path(key).write_text(json.dumps({"key": key, "value": 2.5}))
    assert s.get(key) == (True, 2.5)


def test_a_tampered_verdict_in_the_store_is_recomputed_not_reported(tiny, capsys):
    site, root = tiny
    assert verify(capsys)[0] == 0
    entries = list((root / "tinyrun.c").glob("*.json"))
    assert len(entries) == 1
    record = json.loads(entries[0].read_text())
    record["value"]["status"] = "holds"  # a refuted claim made to look true, checksum left as it was
    entries[0].write_text(json.dumps(record))
    code, out, err = verify(capsys, "--json")
    assert code == 0
    assert [r["status"] for r in json.loads(out)] == ["holds", "holds", "refuted"]
    assert sum("warning: results store entry" in line for line in err) == 1
    assert any(line.endswith(f"2 from the results store ({root}), 1 to compute") for line in err)


WRITER = '''
import sys
from theoryverify.store import Store
s = Store(sys.argv[1])
first, n = int(sys.argv[2]), int(sys.argv[3])
for i in range(first, first + n):
    s.put({"claim": "c%d" % (i % 7), "i": i}, {"i": i, "pad": "x" * 2000})
'''


def test_two_processes_writing_one_store_lose_nothing(tmp_path):
    root = tmp_path / "store"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(root), str(first), "300"], env=env,
                              stderr=subprocess.PIPE, text=True) for first in (0, 150)]  # keys 150-299 written by both
    errs = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errs
    assert errs == ["", ""]
    s = st.Store(root)
    for i in range(450):
        assert s.get({"claim": "c%d" % (i % 7), "i": i}) == (True, {"i": i, "pad": "x" * 2000}), i
    assert not list(root.rglob(".tmp-*")) and len(list(root.rglob("*.json"))) == 450


def test_an_interrupted_sweep_keeps_its_points_and_the_next_run_says_so(tmp_path, capsys):
    s = st.Store(tmp_path)
    configs = [{"x": x, "seed": 0} for x in range(5)]

    def stop_at_3(c):
        if c["x"] == 3:
            raise KeyboardInterrupt
        return c["x"] ** 2

    with pytest.raises(KeyboardInterrupt):
        st.sweep(s, {"claim": "demo.sweep", "code": "v1"}, configs, stop_at_3, n_jobs=1)
    capsys.readouterr()
    done = []
    assert st.sweep(s, {"claim": "demo.sweep", "code": "v1"}, configs, lambda c: done.append(c["x"]) or c["x"] ** 2,
                    n_jobs=1) == [0, 1, 4, 9, 16]
    assert done == [3, 4]
    assert _lines(capsys.readouterr().err) == ["theoryverify: demo.sweep: 3 of 5 sweep points from the results store"]


def test_on_a_terminal_a_bar_replaces_the_lines(capsys):
    pytest.importorskip("tqdm")
    bar = Batches(4, "demo", terminal=True)
    for _ in range(4):
        bar.update()
    bar.close()
    err = capsys.readouterr().err
    assert "demo" in err and "theoryverify: demo" not in err  # tqdm's bar, not the batch lines
