"""Write the README's numbers from measurements, so that none drifts.

    python benchmarks/readme_numbers.py            # print what it measures
    python benchmarks/readme_numbers.py --write    # and rewrite README.md
    ... --prove     also time `verify prove --jobs 2` of the whole catalogue from nothing (minutes)
    ... --tiers     also run the fast tier (`python -m pytest -n auto`) and time it (about 2 minutes)

What it writes:

* the block between `<!-- numbers: begin -->` and `<!-- numbers: end -->`
  in README's Performance section: the catalogue's size (lowerings,
  instantiations, records: counted from lowerings/ and proofs/, as `verify
  check` counts them), `verify check --jobs 2` on it when every record is
  current, and with --prove the full re-proof;
* with --tiers, the fast tier's size and time in the README's opening
  paragraph ("N tests in about T s"), and the size of the `verify tv`
  matrix tier (tests/test_tv_corpus.py under `-m corpus`: "llc-22: N tests");
* the counts the README states in its text: the IR files at the top of
  tests/tv ("`tests/tv/` holds N files") and the entries of the checked-in
  synthesis table ("the checked-in table, N entries") and the CPU minutes
  of their searches; docs/synthesis.md's rows, columns, entries, distinct
  proved files and CPU minutes of the same table (`doc_counts`).

tests/test_readme_numbers.py checks the catalogue's counts in the block
against the live ones, and the fast tier's size against pytest's collection
(slow tier), so a stale number fails CI; times are written here only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BEGIN, END = "<!-- numbers: begin -->", "<!-- numbers: end -->"
EXE = [sys.executable, "-m", "verify"]


def catalogue_counts(root: Path = ROOT) -> tuple[int, int, int]:
    """(lowerings, instantiations, records) of the catalogue under `root`."""
    lowerings = sum(1 for _ in (root / "lowerings").rglob("*.s"))
    records = instantiations = 0
    for p in sorted((root / "proofs").rglob("*.proof")):
        doc = json.loads(p.read_text())
        records += len(doc["records"])
        instantiations += sum(len(r["targets"]) for r in doc["records"])
    return lowerings, instantiations, records


def fast_tier_size() -> int:
    """The number of tests the default tier (not marked slow) collects: the
    sum of pytest's per-file counts (`--collect-only` at the project's
    quiet level prints "path: N" lines), or its "N tests collected" line."""
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q"], cwd=ROOT, capture_output=True,
                       text=True, check=False)
    per_file = [int(m.group(1)) for m in re.finditer(r"^\S+: (\d+)$", r.stdout, re.M)]
    if per_file:
        return sum(per_file)
    m = re.search(r"(\d+)(?:/\d+)? tests? collected", r.stdout + r.stderr)
    if m is None:
        raise SystemExit(f"cannot read pytest's collection:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return int(m.group(1))


def tv_corpus_files(root: Path = ROOT) -> int:
    """The IR files at the top of tests/tv (the corpus the README describes)."""
    return sum(1 for _ in (root / "tests" / "tv").glob("*.ll"))


def synth_table_entries(root: Path = ROOT) -> int:
    """The entries of the checked-in synthesis table (docs/synthesis-table.json)."""
    return len(json.loads((root / "docs" / "synthesis-table.json").read_text()))


def corpus_tier_size() -> int:
    """The tests of the `verify tv` matrix tier: tests/test_tv_corpus.py under `-m corpus`."""
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "corpus",
                        "tests/test_tv_corpus.py"], cwd=ROOT, capture_output=True, text=True, check=False)
    per_file = [int(m.group(1)) for m in re.finditer(r"^\S+: (\d+)$", r.stdout, re.M)]
    if not per_file:
        raise SystemExit(f"cannot read pytest's collection:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return sum(per_file)


def synth_table_minutes(root: Path = ROOT) -> int:
    """The CPU minutes the checked-in synthesis table's searches took: the
    sum of its entries' `seconds` (bench_synth.py records each), rounded."""
    return round(sum(e.get("seconds") or 0 for e in json.loads((root / "docs" / "synthesis-table.json").read_text()))
                 / 60)


def synth_table_shape(root: Path = ROOT) -> tuple[int, int, int, int]:
    """(rows, columns, entries, distinct proved lowering files) of the
    checked-in synthesis table (docs/synthesis-table.json)."""
    d = json.loads((root / "docs" / "synthesis-table.json").read_text())
    return (len({(e["spec"], json.dumps(e["params"], sort_keys=True)) for e in d}),
            len({(e["family"], e["wave"]) for e in d}), len(d),
            len({e["file"] for e in d if e.get("file") and e["verdict"] == "proved"}))


# (document, pattern, the live value): counts the other docs state in their text
def doc_counts(root: Path = ROOT) -> list[tuple[str, str, int]]:
    rows, cols, entries, files = synth_table_shape(root)
    syn = "docs/synthesis.md"
    return [(syn, r"([\d,]+) rows by [\d,]+ columns", rows), (syn, r"rows by ([\d,]+) columns", cols),
            (syn, r"columns, ([\d,]+) entries", entries), (syn, r"entries, ([\d,]+)\s+distinct proved files", files),
            (syn, r"its searches took ([\d,]+) CPU minutes", synth_table_minutes(root))]


# (pattern, the live value): counts the README states in its text
def text_counts(root: Path = ROOT) -> list[tuple[str, int]]:
    return [(r"`tests/tv/` holds ([\d,]+) files", tv_corpus_files(root)),
            (r"the checked-in table, ([\d,]+) entries", synth_table_entries(root)),
            (r"whose searches took ([\d,]+) CPU minutes", synth_table_minutes(root))]


def timed(cmd: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, child CPU seconds, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, r.returncode


def fmt(n: int) -> str:
    return f"{n:,}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite README.md")
    ap.add_argument("--prove", action="store_true", help="also time the full re-proof (minutes)")
    ap.add_argument("--tiers", action="store_true", help="also run and time the fast tier")
    a = ap.parse_args()
    low, inst, recs = catalogue_counts()
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    today = datetime.date.today().isoformat()
    lines = [f"Measured on {today} on a {cpus}-core machine by `python benchmarks/readme_numbers.py"
             f"{' --prove' if a.prove else ''}`:", "",
             f"- the catalogue: {fmt(low)} lowerings, {fmt(inst)} (lowering, target, wave) instantiations "
             f"in {fmt(recs)} proof records;"]
    wall, cpu, code = timed([*EXE, "check", "--jobs", "2"], ROOT)
    lines.append(f"- `verify check --jobs 2`, every record current (hashes only, nothing proved): "
                 f"{wall:.1f} s (exit {code});")
    if a.prove:
        with tempfile.TemporaryDirectory() as d:
            work = Path(d)
            shutil.copytree(ROOT / "lowerings", work / "lowerings")
            wall, cpu, code = timed([*EXE, "prove", "--jobs", "2"], work)
        lines.append(f"- `verify prove --jobs 2` of the whole catalogue from nothing: {wall / 60:.1f} min "
                     f"({cpu / 60:.1f} CPU-minutes, exit {code}).")
    block = "\n".join(lines)
    print(block)
    tier = None
    if a.tiers:
        n = fast_tier_size()
        wall, _, code = timed([sys.executable, "-m", "pytest", "-n", "auto", "-q"], ROOT)
        tier = (n, wall)
        print(f"fast tier: {fmt(n)} tests in {wall:.0f} s (exit {code})")
    if not a.write:
        return
    text = README.read_text()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"README.md has no {BEGIN} ... {END} block")
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    if not a.prove:  # keep the last full re-proof's line
        kept = [ln for ln in old.splitlines() if ln.startswith("- `verify prove --jobs 2`")]
        block = "\n".join([block, *kept])
    text = f"{head}{BEGIN}\n{block}\n{END}{tail}"
    for pattern, live in text_counts():
        text, k = re.subn(pattern, lambda m, live=live: m.group(0).replace(m.group(1), fmt(live)), text, count=1)
        if k != 1:
            raise SystemExit(f"README.md: no match for {pattern!r}")
    if a.tiers:
        text, k = re.subn(r"llc-22: [\d,]+ tests", f"llc-22: {fmt(corpus_tier_size())} tests", text, count=1)
        if k != 1:
            raise SystemExit("README.md: no 'llc-22: N tests' in its opening paragraph")
    if tier is not None:
        text, k = re.subn(r"[\d,]+ tests in about\s+\d+ s", f"{fmt(tier[0])} tests in about {tier[1]:.0f} s", text,
                          count=1)
        if k != 1:
            raise SystemExit("README.md: no 'N tests in about T s' in its opening paragraph")
    README.write_text(text)
    print(f"wrote {README}")
    docs: dict[str, str] = {}
    for doc, pattern, live in doc_counts():
        t = docs.setdefault(doc, (ROOT / doc).read_text())
        t, k = re.subn(pattern, lambda m, live=live: m.group(0).replace(m.group(1), fmt(live), 1), t, count=1)
        if k != 1:
            raise SystemExit(f"{doc}: no match for {pattern!r}")
        docs[doc] = t
    for doc, t in docs.items():
        (ROOT / doc).write_text(t)
        print(f"wrote {doc}")


if __name__ == "__main__":
    main()
