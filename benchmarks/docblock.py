"""Measured blocks in the docs (issue #34, item 9: every number is written by
a script or checked by a test): a benchmark run with `--write` puts what it
printed between its markers in its document,

    <!-- measured by benchmarks/KEY.py: begin -->
    Measured YYYY-MM-DD on a N-core machine by `python benchmarks/KEY.py ARGS`:

        (the lines it printed)
    <!-- measured by benchmarks/KEY.py: end -->

A time depends on the machine and its load, so no test compares it with a
live value; tests/test_docs_true.py checks that every block is there, dated,
names the command that rewrites it, and that the command does.
"""

from __future__ import annotations

import datetime
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the benchmark -> the document its measured block is in
DOCS = {
    "bench_tv": "docs/tv.md",
    "bench_solvers": "docs/ci.md",
    "bench_html": "docs/pictures.md",
    "bench_synth_bound": "docs/synthesis.md",
    "bench_tv_coverage": "docs/tv-coverage.md",
}
STAMP = re.compile(r"Measured (\d{4}-\d\d-\d\d) on a (\d+)-core machine by `python benchmarks/(\w+)\.py( [^`]*)?`:")


def markers(key: str) -> tuple[str, str]:
    return f"<!-- measured by benchmarks/{key}.py: begin -->", f"<!-- measured by benchmarks/{key}.py: end -->"


def read(text: str, key: str) -> str | None:
    """The block of `key` in `text` (between its markers), None without one."""
    begin, end = markers(key)
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        return None
    return text.split(begin, 1)[1].split(end, 1)[0].strip("\n")


def replace(text: str, key: str, printed: list[str], argv: list[str], day: datetime.date | None = None,
            cores: int | None = None) -> str:
    """`text` with the block of `key` holding `printed` under today's stamp."""
    if read(text, key) is None:
        raise ValueError(f"no {markers(key)[0]} ... {markers(key)[1]} block")
    begin, end = markers(key)
    day = day or datetime.date.today()
    cores = cores or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    command = " ".join(["python", f"benchmarks/{key}.py", *argv])
    body = [f"Measured {day.isoformat()} on a {cores}-core machine by `{command}`:", "",
            *(f"    {ln}".rstrip() for ln in printed)]
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    return f"{head}{begin}\n" + "\n".join(body) + f"\n{end}{tail}"


def write(key: str, printed: list[str], argv: list[str]) -> None:
    doc = ROOT / DOCS[key]
    try:
        doc.write_text(replace(doc.read_text(), key, printed, argv))
    except ValueError as e:
        raise SystemExit(f"{DOCS[key]}: {e}") from None
    print(f"wrote {DOCS[key]}")


@contextmanager
def tee() -> Iterator[list[str]]:
    """Print as usual and collect the printed lines (for :func:`write`)."""
    lines: list[str] = []
    out = sys.stdout
    buf = io.StringIO()

    class Tee(io.TextIOBase):
        def write(self, s: str) -> int:
            out.write(s)
            buf.write(s)
            return len(s)

        def flush(self) -> None:
            out.flush()

    sys.stdout = Tee()
    try:
        yield lines
    finally:
        sys.stdout = out
        lines += buf.getvalue().splitlines()


def run(main: Callable[[], int | None], key: str) -> int:
    """Run a benchmark's `main`; with `--write` (taken out of sys.argv
    before `main` parses it), what it printed becomes its block in
    ``DOCS[key]`` when it succeeds."""
    writing = "--write" in sys.argv[1:]
    argv = [a for a in sys.argv[1:] if a != "--write"]
    sys.argv[1:] = argv
    with tee() as printed:
        rc = main() or 0
    if writing and rc == 0:
        write(key, printed, argv)
    return rc
