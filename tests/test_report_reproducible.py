"""A report regenerated from scratch equals the committed one, apart from the lines that name the run
(command, time, commit, versions, device, and the catalogue coverage, which depends on ../shared): the same
seed and profile give the same Markdown and the same PNG bytes, whatever patch releases of the dependencies
were resolved (round-off is printed as "< 1e-12" and plotted values are rounded: theoryverify/roundoff.py).

One paper (iclnonlinear: no input outside the repository, under 30 s) stands for the rest.  The claims are computed
in this session, by this code: through the session's results store (tests/conftest.py), where a theorem item that
ran first may have put a row under the same key (the same claim computed by the same code closure), never from an
earlier session."""
from pathlib import Path

import pytest

from theoryverify.report import markdown
from theoryverify.report.build import build
from theoryverify.seeds import DEFAULT_SEED

ROOT = Path(__file__).resolve().parent.parent / "reports" / "quick"
PAPER = "iclnonlinear"
RUN_LINES = ("- Command:", "- Versions:", "- Git commit:", "- Device:", "- Catalogue coverage:",
             markdown.GENERATED_PREFIX, markdown.RENDERED_PREFIX)


def _content(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith(RUN_LINES)]


def test_regenerated_report_equals_the_committed_one(tmp_path, request):
    committed = ROOT / f"{PAPER}.md"
    if not committed.exists():
        pytest.skip("no committed report")
    if "Profile: `quick`" not in committed.read_text():
        pytest.skip("the committed report is not the quick profile")
    # the session's results store (tests/conftest.py): a claim's row is reused only when this session computed it
    # under the same key (code closure included: the same code), i.e. when its theorem item ran first; else computed
    session_store = request.config.getoption("tv_store", None)
    build([PAPER], profile="quick", device="cpu", seed=DEFAULT_SEED, out=tmp_path, fresh=not session_store,
          command="python -m theoryverify.report", store_root=Path(session_store) if session_store else tmp_path / "store")
    new, old = _content((tmp_path / f"{PAPER}.md").read_text()), _content(committed.read_text())
    diff = [f"- {a}\n+ {b}" for a, b in zip(old, new) if a != b][:5]
    assert len(new) == len(old) and not diff, "regenerate the reports (python -m theoryverify.report):\n" + \
        "\n".join(diff)
    for png in sorted((ROOT / PAPER).glob("*.png")):
        assert (tmp_path / PAPER / png.name).read_bytes() == png.read_bytes(), f"{png.name} differs"
    assert sorted(p.name for p in (tmp_path / PAPER).glob("*.png")) == sorted(p.name for p in (ROOT / PAPER).glob("*.png"))
