"""The HTML report at scale: `verify check --html` for a 1,000-lowering
catalogue (synthetic records, as tests/test_html_report.py builds it, with
one real refuted lowering whose counterexample is proved again), then the
page in headless Chromium.

Prints: the time to write the report (of which the counterexample's
re-proof), the page's size, and in Chromium the time from navigation to
the load event, to the first filter applied (typing into the text box) and
to a failure expanded.  Skips the browser part where Chromium, chromedriver
or Selenium is missing.

Usage: python benchmarks/bench_html.py [--lowerings N]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from helpers import synthetic_report

from verify.report import write_html


def browser_times(page: Path) -> dict[str, float] | None:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
    except ImportError:
        return None
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        return None
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(a)
    b = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    try:
        b.get(page.as_uri())
        load = b.execute_script("var t = performance.timing; return t.loadEventEnd - t.navigationStart;")
        t0 = time.perf_counter()
        b.find_element(By.CSS_SELECTOR, "tr.cex summary").click()
        assert "active lanes" in b.find_element(By.CSS_SELECTOR, "tr.cex pre").text
        expand = time.perf_counter() - t0
        t0 = time.perf_counter()
        b.find_element(By.ID, "f-text").send_keys("l0999")
        shown = b.find_element(By.ID, "shown").text
        filt = time.perf_counter() - t0
        assert shown == "1", shown
        return {"load event (ms)": float(load), "filter typed (ms)": filt * 1000, "failure expanded (ms)": expand * 1000}
    finally:
        b.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lowerings", type=int, default=1000)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        rep = synthetic_report(Path(d), a.lowerings, ROOT / "tests" / "golden" / "xor5_plain.s")
        t0 = time.perf_counter()
        write_html(rep, str(Path(d) / "report"))
        wrote = time.perf_counter() - t0
        page = Path(d) / "report" / "index.html"
        print(f"lowerings: {a.lowerings + 1}, records: {len(rep.entries)}")
        print(f"write the report (one counterexample proved again): {wrote:.2f} s")
        print(f"index.html: {page.stat().st_size / 1024:.0f} KiB")
        times = browser_times(page)
        if times is None:
            print("headless chromium: not available (skipped)")
        else:
            for k, v in times.items():
                print(f"chromium {k}: {v:.0f}")


if __name__ == "__main__":  # --write: what it prints becomes its measured block (docblock.py)
    import docblock

    sys.exit(docblock.run(main, "bench_html"))
