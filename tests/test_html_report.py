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
    assert js["summary"] == {"proved": 8, "refuted": 8}
    page = (out / "index.html").read_text()
    assert page.count("<tr data-target=") == 16
    # the refuted record's targets share one solver run: one picture and one lane table
    svgs = sorted(p.name for p in (out / "cex").glob("*.svg"))
    assert svgs == ["xor5_plain.gfx900.w64.svg"]
    assert ET.parse(out / "cex" / svgs[0]).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    table = (out / "cex" / "xor5_plain.gfx900.w64.txt").read_text()
    assert "EXEC = 0x0000000000000012  (active lanes: 1, 4)" in table
    assert page.count('href="cex/xor5_plain.gfx900.w64.svg"') == 8


def test_report_in_headless_chromium(report):
    out, js = report
    b = _browser()
    try:
        b.get((out / "index.html").as_uri())
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        errors = [e for e in b.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []

        def counts():
            spans = b.find_elements(By.CSS_SELECTOR, ".counts span")
            return {s.get_attribute("data-key"): int(s.find_element(By.TAG_NAME, "b").text) for s in spans}

        def shown():
            return [r for r in b.find_elements(By.CSS_SELECTOR, "tbody tr") if r.is_displayed()]

        assert {k: v for k, v in counts().items() if v} == js["summary"]
        assert len(shown()) == 16
        Select(b.find_element(By.ID, "f-verdict")).select_by_value("refuted")
        rows = shown()
        assert len(rows) == 8 and {r.get_attribute("data-verdict") for r in rows} == {"refuted"}
        assert counts()["refuted"] == 8 and counts()["proved"] == 0
        Select(b.find_element(By.ID, "f-verdict")).select_by_value("")
        Select(b.find_element(By.ID, "f-target")).select_by_value("gfx942")
        assert len(shown()) == 2 and counts() == {"proved": 1, "refuted": 1, "unknown": 0}
        Select(b.find_element(By.ID, "f-spec")).select_by_value("cuda.shfl_xor mask=1 width=16")
        assert [r.get_attribute("data-verdict") for r in shown()] == ["proved"]
        assert b.find_element(By.ID, "shown").text == "1"
        assert [e for e in b.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        b.quit()
