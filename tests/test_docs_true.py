"""Docs that stay true (issue #34, item 9): docs/tv.md's "Unsupported"
section quotes the messages verify tv gives, each of them an EXPECT line of
tests/tv/llvm-shape/cause_unsupported.ll (which tests/test_tv_expect.py
runs), and no message the file no longer expects; every dated measurement
block (benchmarks/docblock.py) is there and written by its benchmark."""

from __future__ import annotations

import datetime
import re
import sys
from pathlib import Path

import pytest
from tvexpect import parse

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests/tv/llvm-shape/cause_unsupported.ll"


def section() -> str:
    text = (ROOT / "docs/tv.md").read_text()
    return text.split("## Unsupported (reported with its line, never proved)\n", 1)[1].split("\n## ", 1)[0]


def test_the_unsupported_section_quotes_every_expected_message() -> None:
    sec = " ".join(section().split())
    notes = [r.note for r in parse(str(CORPUS), CORPUS.read_text()).rules if r.note]
    assert len(notes) == 6
    for note in notes:
        assert f"`{note}" in sec, f"docs/tv.md's Unsupported section does not quote {note!r}"


def test_every_message_the_section_quotes_is_expected() -> None:
    expected = CORPUS.read_text()
    quoted = re.findall(r"`(unsupported: [^`]*)`", " ".join(section().split()))
    assert len(quoted) == 6
    for q in quoted:
        assert q in expected.replace("\\n", " "), f"docs/tv.md quotes {q!r}, which cause_unsupported.ll does not expect"


# -- measured blocks (benchmarks/docblock.py) -------------------------------------------

sys.path.insert(0, str(ROOT / "benchmarks"))
import docblock  # noqa: E402


@pytest.mark.parametrize("key", sorted(docblock.DOCS))
def test_every_measured_block_is_dated_and_written_by_its_benchmark(key: str) -> None:
    """docs/tv.md's Measured block, docs/ci.md's solver table,
    docs/pictures.md's report costs and docs/synthesis.md's synth time: each
    between its markers, dated, naming the command that writes it, whose
    script hands its output to docblock (a time is never compared with a
    live value: machines and load differ)."""
    body = docblock.read((ROOT / docblock.DOCS[key]).read_text(), key)
    assert body is not None, f"{docblock.DOCS[key]} has no block of benchmarks/{key}.py"
    m = docblock.STAMP.fullmatch(body.splitlines()[0])
    assert m is not None and m.group(3) == key, body.splitlines()[0]
    datetime.date.fromisoformat(m.group(1))
    script = (ROOT / "benchmarks" / f"{key}.py").read_text()
    assert f'docblock.run(main, "{key}")' in script
    assert len(body.splitlines()) > 2  # (the numbers themselves)


def test_a_block_is_rewritten_between_its_markers_only() -> None:
    begin, end = docblock.markers("bench_tv")
    text = f"before\n{begin}\nMeasured 2020-01-01 on a 1-core machine by `python benchmarks/bench_tv.py`:\n\n    old\n{end}\nafter\n"
    new = docblock.replace(text, "bench_tv", ["median 0.1 s", "max 2 s "], ["--jobs", "2"],
                           day=datetime.date(2026, 11, 29), cores=2)
    assert new == (f"before\n{begin}\nMeasured 2026-11-29 on a 2-core machine by "
                   f"`python benchmarks/bench_tv.py --jobs 2`:\n\n    median 0.1 s\n    max 2 s\n{end}\nafter\n")
    assert docblock.STAMP.fullmatch(docblock.read(new, "bench_tv").splitlines()[0])  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        docblock.replace("no markers\n", "bench_tv", [], [])
