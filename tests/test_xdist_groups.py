"""tests/conftest.py under the README's ``--dist loadgroup``: each paper's claim items are one unit of work (one
worker computes what they share: shared sweeps, pre-trained states), every test its own unit; the other papers'
claims are queued before the test modules (the largest units first) and the report test's paper's claims last
(they reuse the report's results).  Checked on node ids and stand-in items, without collecting the papers."""
from types import SimpleNamespace

import conftest  # tests/conftest.py, the module pytest loaded

CLAIMS = ["derivations/icrecall::icrecall.T2-main", "derivations/icrecall::icrecall.n3",
          "derivations/knowledge::knowledge.t2-trend-r", "derivations/knowledge::knowledge.t2-trend-r[full]"]
TESTS = ["tests/test_x.py::test_y", "tests/test_x.py::test_z[a::b]", "tests/icrecall/test_landscape.py::test_a",
         "theoryverify/closure.py::theoryverify.closure.code_key", "tests/test_x.py::test_w@group"]


def test_each_papers_claims_are_one_unit_and_each_test_its_own():
    assert {conftest.claims_scope(n) for n in CLAIMS[:2]} == {"claims:derivations/icrecall"}
    assert {conftest.claims_scope(n) for n in CLAIMS[2:]} == {"claims:derivations/knowledge"}
    assert [conftest.claims_scope(n) for n in TESTS] == [None] * len(TESTS)


def test_the_scheduler_under_loadgroup_only():
    def config(dist):
        return SimpleNamespace(getvalue={"dist": dist, "tx": ["popen"] * 2}.get)

    assert conftest.pytest_xdist_make_scheduler(config("load"), None) is None  # xdist's own scheduler
    sched = conftest.pytest_xdist_make_scheduler(config("loadgroup"), None)
    scopes = [sched._split_scope(n) for n in CLAIMS + TESTS]
    assert scopes == ["claims:derivations/icrecall"] * 2 + ["claims:derivations/knowledge"] * 2 + TESTS[:4] + ["group"]


class Item:
    def __init__(self, nodeid: str, paper: str | None = None):
        self.nodeid = nodeid
        self.marks = ["theorems"] if paper else []
        if paper:
            self.claim = SimpleNamespace(paper=paper)

    def get_closest_marker(self, name):
        return next((m for m in self.marks if m == name), None)


def test_claims_are_queued_before_the_tests_and_the_reports_paper_last():
    report = Item("tests/test_report_reproducible.py::test_regenerated_report_equals_the_committed_one")
    report.module = SimpleNamespace(PAPER="a")
    t1, t2 = Item("tests/test_x.py::test_1"), Item("tests/test_y.py::test_2")
    a, b, c = Item("derivations/a::a.x", "a"), Item("derivations/b::b.x", "b"), Item("derivations/c::c.x", "c")
    items = [t1, report, t2, a, b, c]
    conftest.pytest_collection_modifyitems(None, items)
    assert items == [report, b, c, t1, t2, a]
    items = [t1, t2, a, b]  # no report test (`-m theorems`): the claims first, in their order
    conftest.pytest_collection_modifyitems(None, items)
    assert items == [a, b, t1, t2]
