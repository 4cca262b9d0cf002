"""tests/conftest.py under the README's ``--dist loadgroup``: each paper's claim items, with the tests in
tests/<paper>/, are one unit of work (one worker computes what they share: shared sweeps, pre-trained states),
every other test its own unit; the other papers' claims are queued before the test modules (the largest units
first) and the report test's paper's claims last (they reuse the report's results; their tests are not held back
with them).  Checked on node ids and stand-in items, without collecting the papers."""
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


def test_a_papers_tests_join_its_claims_unless_its_claims_wait_at_the_end():
    ids = ["tests/test_report_reproducible.py::test_regenerated_report_equals_the_committed_one",
           "derivations/icrecall::icrecall.T2-main", "derivations/knowledge::knowledge.t2-trend-r",
           "tests/iclnonlinear/test_phase1.py::test_a", "tests/icrecall/test_landscape.py::test_b",
           "tests/knowledge/test_model.py::test_c", "tests/test_x.py::test_y",
           "derivations/iclnonlinear::iclnonlinear.p2"]
    assert conftest.paper_units(ids) == {
        "derivations/icrecall::icrecall.T2-main": "claims:derivations/icrecall",
        "tests/icrecall/test_landscape.py::test_b": "claims:derivations/icrecall",
        "derivations/knowledge::knowledge.t2-trend-r": "claims:derivations/knowledge",
        "tests/knowledge/test_model.py::test_c": "claims:derivations/knowledge",
        "derivations/iclnonlinear::iclnonlinear.p2": "claims:derivations/iclnonlinear"}  # its tests: single units
    assert conftest.paper_units(CLAIMS) == {n: conftest.claims_scope(n) for n in CLAIMS}  # `-m theorems`


class Node:
    """A stand-in for a pytest-xdist worker: what the scheduler sends it."""

    def __init__(self, name):
        self.sent, self.shutting_down, self.gateway = [], False, SimpleNamespace(id=name)

    def send_runtest_some(self, indices):
        self.sent += indices

    def shutdown(self):
        self.shutting_down = True


def test_the_scheduler_under_loadgroup_only():
    def config(dist):
        return SimpleNamespace(getvalue={"dist": dist, "tx": ["popen"] * 2}.get,
                               option=SimpleNamespace(loadscopereorder=True))  # xdist's default

    assert conftest.pytest_xdist_make_scheduler(config("load"), None) is None  # xdist's own scheduler
    sched = conftest.pytest_xdist_make_scheduler(config("loadgroup"), None)
    ids = ["tests/test_report_reproducible.py::test_r", CLAIMS[0], CLAIMS[2],
           "tests/icrecall/test_landscape.py::test_a", CLAIMS[1], "tests/test_x.py::test_w@group",
           "tests/test_x.py::test_v@group", "tests/test_x.py::test_z",
           "derivations/iclnonlinear::iclnonlinear.p2", "derivations/iclnonlinear::iclnonlinear.p3"]
    nodes = [Node("gw0"), Node("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, ids)
    sched.schedule()
    sent = [[ids[i] for i in node.sent] for node in nodes]
    # in the collection's order, not the largest unit first: the report test, then icrecall's unit (its claims and
    # its test together) and knowledge's; the report's paper's claims wait at the end
    assert sent[0] == [ids[0], CLAIMS[2]]
    assert sent[1] == [CLAIMS[0], "tests/icrecall/test_landscape.py::test_a", CLAIMS[1]]
    late = "claims:derivations/iclnonlinear"
    assert [sched._split_scope(n) for n in ids[5:]] == ["group", "group", ids[7], late, late]
    assert list(sched.workqueue) == ["group", ids[7], late]


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
