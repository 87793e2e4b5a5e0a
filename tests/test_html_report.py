"""`verify check --html DIR` in a real headless browser (Chromium through Selenium).

A small catalogue (a proved and a refuted lowering, 16 records) keeps it to
seconds; the browser part skips cleanly where Chromium, its driver or
Selenium is missing (.ci/run installs them from Debian when it can)."""

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import cli, cli_json

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra)")
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        pytest.skip("chromium or chromedriver is not installed (apt-get install chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    except Exception as e:  # a browser that does not start: not this project's failure
        pytest.skip(f"headless chromium did not start: {e}")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    cat = tmp_path_factory.mktemp("cat")
    (cat / "lowerings").mkdir()
    shutil.copy(ROOT / "lowerings" / "xor" / "xor1.s", cat / "lowerings")
    shutil.copy(ROOT / "tests" / "golden" / "xor5_plain.s", cat / "lowerings")
    code, _, err = cli("prove", str(cat / "lowerings"))
    assert code == 1, err  # xor5_plain is refuted
    out = cat / "report"
    code, js, _ = cli_json("check", str(cat / "lowerings"), "--html", str(out))
    assert code == 1
    return out, js


def test_report_files(report):
    out, js = report
    assert js["kinds"] == {"proved": 8, "refuted": 8}
    page = (out / "index.html").read_text()
    # one row per lowering, the refuted one first, its counterexample inline after it
    assert page.count('<tr class="low"') == 2
    assert page.index("xor5_plain.s") < page.index("xor1.s")
    assert page.count('<tr class="cex">') == 1
    assert "wave64 refuted: gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942, gfx950" in page
    # the refuted record's targets share one solver run: one picture and one lane table
    svgs = sorted(p.name for p in (out / "cex").glob("*.svg"))
    assert svgs == ["xor5_plain.gfx900.w64.svg"]
    assert ET.parse(out / "cex" / svgs[0]).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    table = (out / "cex" / "xor5_plain.gfx900.w64.txt").read_text()
    assert "EXEC = 0x0000000000000012  (active lanes: 1, 4)" in table
    assert page.count('href="cex/xor5_plain.gfx900.w64.svg"') == 1
    assert "data:image/svg+xml;base64," in page  # the picture is in the page itself


def _counts(b):
    from selenium.webdriver.common.by import By

    spans = b.find_elements(By.CSS_SELECTOR, ".counts span")
    return {s.get_attribute("data-key"): int(s.find_element(By.TAG_NAME, "b").text) for s in spans}


def _shown(b):
    from selenium.webdriver.common.by import By

    return [r for r in b.find_elements(By.CSS_SELECTOR, "tbody tr.low") if r.is_displayed()]


def test_report_in_headless_chromium(report):
    out, js = report
    b = _browser()
    try:
        b.get((out / "index.html").as_uri())
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        errors = [e for e in b.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
        assert {k: v for k, v in _counts(b).items() if v} == js["kinds"]
        rows = _shown(b)
        assert [r.get_attribute("data-worst") for r in rows] == ["refuted", "proved"]
        # the failure expands to its counterexample
        details = b.find_element(By.CSS_SELECTOR, "tr.cex details")
        pre = details.find_element(By.TAG_NAME, "pre")
        assert not pre.is_displayed()
        details.find_element(By.TAG_NAME, "summary").click()
        assert pre.is_displayed() and "active lanes: 1, 4" in pre.text
        assert details.find_element(By.TAG_NAME, "img").get_attribute("naturalWidth") not in (None, "0")
        Select(b.find_element(By.ID, "f-verdict")).select_by_value("refuted")
        rows = _shown(b)
        assert [r.get_attribute("data-worst") for r in rows] == ["refuted"]
        assert _counts(b)["refuted"] == 8 and _counts(b)["proved"] == 0
        Select(b.find_element(By.ID, "f-verdict")).select_by_value("")
        Select(b.find_element(By.ID, "f-target")).select_by_value("gfx942")
        assert len(_shown(b)) == 2 and _counts(b) == {"refuted": 1, "unknown": 0, "proved": 1}
        Select(b.find_element(By.ID, "f-spec")).select_by_value("cuda.shfl_xor mask=1 width=16")
        assert [r.get_attribute("data-worst") for r in _shown(b)] == ["proved"]
        assert b.find_element(By.ID, "shown").text == "1"
        Select(b.find_element(By.ID, "f-spec")).select_by_value("")
        Select(b.find_element(By.ID, "f-target")).select_by_value("")
        box = b.find_element(By.ID, "f-text")
        box.send_keys("xor5")
        assert [r.get_attribute("data-worst") for r in _shown(b)] == ["refuted"]
        assert b.find_element(By.CSS_SELECTOR, "tr.cex").is_displayed()
        box.clear()
        box.send_keys("xor1")
        assert [r.get_attribute("data-worst") for r in _shown(b)] == ["proved"]
        assert not b.find_element(By.CSS_SELECTOR, "tr.cex").is_displayed()  # hidden with its lowering
        assert [e for e in b.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        b.quit()


def test_a_thousand_lowerings(tmp_path):
    """A 1,000-lowering catalogue (records written, not proved) with one
    real refuted lowering in the middle: one row per lowering, the failure
    first, the filter and the expansion work in Chromium."""
    from helpers import synthetic_report

    from verify.report import write_html

    rep = synthetic_report(tmp_path, 1000, ROOT / "tests" / "golden" / "xor5_plain.s")
    out = tmp_path / "report"
    write_html(rep, str(out))
    page = (out / "index.html").read_text()
    assert page.count('<tr class="low"') == 1001
    assert page.index("xor5_plain.s") < page.index("l0000.s")
    b = _browser()
    try:
        b.get((out / "index.html").as_uri())
        from selenium.webdriver.common.by import By

        assert [e for e in b.get_log("browser") if e["level"] == "SEVERE"] == []
        assert b.find_element(By.ID, "shown").text == "1001"
        assert _counts(b) == {"refuted": 8, "unknown": 0, "proved": 2000}
        first = b.find_element(By.CSS_SELECTOR, "tbody tr.low")
        assert first.get_attribute("data-worst") == "refuted" and "xor5_plain.s" in first.text
        b.find_element(By.CSS_SELECTOR, "tr.cex summary").click()
        assert "active lanes: 1, 4" in b.find_element(By.CSS_SELECTOR, "tr.cex pre").text
        b.find_element(By.ID, "f-text").send_keys("l0999")
        assert [r.find_element(By.TAG_NAME, "code").text for r in _shown(b)] == [str(tmp_path / "lowerings" / "l0999.s")]
        assert _counts(b)["proved"] == 2
    finally:
        b.quit()
