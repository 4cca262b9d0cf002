"""A function defined through its parameter's components (helper s48-reade's find, session 48).

``f(x) := x_1^2 + x_2`` was used as a definition whose body kept the free symbols x_1, x_2: applied at another point,
``f(\\bar x)`` became ``x_1^2 + x_2`` (so ``f(\\bar x) = x_1^2 + x_2`` was **proved**) and ``\\frac{d f(\\bar x)}{dx} =
0`` was **proved** — two positive verdicts on a misreading.  Such a definition is not used (f stays unknown, the
steps inconclusive) until an application carries the components over; a definition in the parameter itself still
decides (guards)."""
from texrows import doc, tex_rows


def _rows(tmp_path, capsys, definition: str, *steps: str) -> list[dict]:
    body = doc("Let", r"\begin{equation}", definition, r"\end{equation}", r"\begin{proof}",
               *[line for s in steps for line in ("Then", r"\begin{equation}", s, r"\end{equation}")], r"\end{proof}")
    return tex_rows(tmp_path, capsys, body)


def test_a_definition_through_components_gives_no_verdict_at_another_point(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"f(x) := x_1^2 + x_2 .", r"\frac{d f(\bar x)}{d x} = 0 .", r"f(\bar x) = x_1^2 + x_2 .")
    steps = [r for r in rows if r["kind"] == "step"]
    assert len(steps) == 2 and all(r["status"] not in ("proved", "holds", "refuted") for r in steps), steps


def test_a_definition_in_the_parameter_itself_still_decides(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"f(x) := x^2 + 1 .", r"f(\bar x) = \bar x^2 + 1 .", r"f(\bar x) = \bar x^2 .")
    steps = [r for r in rows if r["kind"] == "step"]
    assert [r["status"] for r in steps] == ["proved", "refuted"], steps


def test_a_definition_through_components_still_decides_at_its_own_parameter(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"f(x) := x_1^2 + x_2 .", r"f(x) = x_1^2 + x_2 .", r"f(x) = x_1^2 .")
    steps = [r for r in rows if r["kind"] == "step"]
    assert [r["status"] for r in steps] == ["proved", "refuted"], steps
