"""The HTML report page (issue 28, item 5) opened in a real headless browser: a class filter hides a card and
keeps another, a status filter too, a card is found by its anchor (and by its twin's), the location index links
to a card (showing it even when a filter hid it), and an inline figure is rendered.

The page is built from a few hand-built rows (fast; no claim is run).  The browser is the system's Chromium
driven by Selenium (``pip install -e '.[dev]'``; ``apt-get install chromium chromium-driver``, which ``.ci/run``
does where it can); the browser test is skipped, saying which is missing, only where none is installed.  The
checks that need no browser (self-contained, deterministic) always run."""
from __future__ import annotations

import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from theoryverify.report import html
from theoryverify.report.markdown import anchor

from test_report_cards import row, twins


def png(width: int = 4, height: int = 3) -> bytes:
    """A small valid RGB PNG (red), written by hand so the test needs no image library."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PAPER = {"title": "A demo paper", "file": "papers/demo.tex", "id": "demo", "spec": "demo"}
RUN = {"command": "python -m theoryverify.report --paper demo", "profile": "quick", "seed": 0,
       "commit": "abc123", "generated": "2026-01-01 00:00:00 UTC; runtime 1.0 s"}


def page(tmp_path: Path) -> Path:
    """demo.html beside its figure folder, as the report writer lays them out (one figure is missing)."""
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "t1_sweep.png").write_bytes(png())
    rows = twins() + [row("typo1", finding="typo", location="Eq. (12)"),
                      row("ok", status="holds", location="Lemma 3")]
    gallery = {"demo.t1-full": ["demo/t1_sweep.png"], "demo.ok": ["demo/gone.png"]}
    out = tmp_path / "demo.html"
    out.write_text(html.paper_html(PAPER, RUN, rows, gallery, tmp_path), encoding="utf-8")
    return out


def test_the_page_is_self_contained_and_deterministic(tmp_path):
    path = page(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert not re.search(r'(?:src|href)="(?!data:image/png;base64,|#)', text)  # nothing loaded from elsewhere
    assert "<link" not in text and "http" not in text and text.count("<img") == 1  # the missing figure left out
    assert f'id="{anchor("demo.t1")}"' in text and f'id="{anchor("demo.t1-full")}"' in text
    again = tmp_path / "again"
    again.mkdir()
    assert page(again).read_text(encoding="utf-8") == text


def _driver():
    """A headless Chromium driven by Selenium, or pytest.skip saying what is missing."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')")
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        pytest.skip("no headless browser here: " + ", ".join(
            n for n, p in (("chromium", browser), ("chromedriver", driver)) if not p) + " not found (Debian: "
            "apt-get install chromium chromium-driver; .ci/run installs them where it can)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


@pytest.mark.browser
def test_filters_anchors_and_figures_in_a_headless_browser(tmp_path):
    from selenium.webdriver.common.by import By

    path = page(tmp_path)
    browser = _driver()
    try:
        browser.get(path.as_uri())
        card = {cid: browser.find_element(By.ID, anchor(f"demo.{cid}")) for cid in ("t1", "typo1", "ok")}
        assert all(c.is_displayed() for c in card.values())
        assert browser.find_element(By.ID, "shown-count").text == "3"

        browser.find_element(By.CSS_SELECTOR, 'input[data-filter="class"][value="typo"]').click()
        assert not card["typo1"].is_displayed() and card["t1"].is_displayed() and card["ok"].is_displayed()
        browser.find_element(By.CSS_SELECTOR, 'input[data-filter="status"][value="holds"]').click()
        assert not card["ok"].is_displayed() and card["t1"].is_displayed()
        assert browser.find_element(By.ID, "shown-count").text == "1"

        # the twin's anchor lands in the same card; the location index reveals a card a filter hid
        twin = browser.find_element(By.ID, anchor("demo.t1-full"))
        assert browser.execute_script("return arguments[0].closest('article.card').id", twin) == anchor("demo.t1")
        browser.find_element(By.CSS_SELECTOR, f'a[href="#{anchor("demo.typo1")}"]').click()
        assert card["typo1"].is_displayed() and browser.current_url.endswith("#" + anchor("demo.typo1"))

        img = card["t1"].find_element(By.TAG_NAME, "img")
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img) == 4
        assert not card["ok"].find_elements(By.TAG_NAME, "img")  # its figure file is missing: no broken image
    finally:
        browser.quit()
