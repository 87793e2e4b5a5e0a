"""Docs that stay true (issue #34, item 9): docs/tv.md's "Unsupported"
section quotes the messages verify tv gives, each of them an EXPECT line of
tests/tv/llvm-shape/cause_unsupported.ll (which tests/test_tv_expect.py
runs), and no message the file no longer expects."""

from __future__ import annotations

import re
from pathlib import Path

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
