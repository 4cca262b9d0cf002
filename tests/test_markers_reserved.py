"""The ``theorems`` marker is reserved for the plugin's claim items: tests/conftest.py skips importing the test
modules under ``-m theorems``, which is only right while no test module uses that marker."""
import re
from pathlib import Path

HERE = Path(__file__).parent


def uses_theorems_marker(text: str) -> bool:
    return bool(re.search(r"mark\s*\.\s*theorems\b|pytestmark\s*=.*theorems|add_marker\(\s*['\"]theorems", text))


def test_no_test_module_marks_theorems():
    users = [str(p.relative_to(HERE)) for p in sorted(HERE.rglob("test_*.py"))
             if p.name != Path(__file__).name and uses_theorems_marker(p.read_text(encoding="utf-8"))]
    assert users == [], f"these test modules use the theorems marker, which tests/conftest.py skips under -m theorems: {users}"


def test_the_scan_sees_a_marker():
    assert uses_theorems_marker("@pytest.mark.theorems\ndef test_x(): pass")
    assert uses_theorems_marker("pytestmark = [pytest.mark.theorems]")
    assert not uses_theorems_marker("def test_theorems_listing(): pass")
