"""The README's numbers are the live ones (issue #34, item 9): the
catalogue's size in the block benchmarks/readme_numbers.py writes, and the
fast tier's size in the opening paragraph.  Times are written by that
script only (never asserted)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _script():
    spec = importlib.util.spec_from_file_location("readme_numbers", ROOT / "benchmarks" / "readme_numbers.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _n(text: str) -> int:
    return int(text.replace(",", ""))


def test_the_catalogue_size_is_current():
    block = README.split("<!-- numbers: begin -->", 1)[1].split("<!-- numbers: end -->", 1)[0]
    m = re.search(r"the catalogue: ([\d,]+) lowerings, ([\d,]+) \(lowering, target, wave\) instantiations "
                  r"in ([\d,]+) proof records", block)
    assert m, block
    live = _script().catalogue_counts(ROOT)
    assert tuple(_n(g) for g in m.groups()) == live, (
        f"README.md says {m.group(0)!r}; the catalogue has {live}: run python benchmarks/readme_numbers.py --write")


@pytest.mark.slow
def test_the_fast_tier_size_is_current():
    m = re.search(r"([\d,]+) tests in about\s+\d+ s", README)
    assert m
    assert _n(m.group(1)) == _script().fast_tier_size(), (
        "the README's fast-tier size is stale: run python benchmarks/readme_numbers.py --tiers --write")


def test_the_counts_in_the_text_are_current():
    """The counts the README states in its prose (written by
    benchmarks/readme_numbers.py --write): tests/tv's files, the synthesis
    table's entries."""
    for pattern, live in _script().text_counts(ROOT):
        m = re.search(pattern, README)
        assert m, pattern
        assert _n(m.group(1)) == live, (
            f"README.md says {m.group(0)!r}; the live count is {live}: run python benchmarks/readme_numbers.py --write")


@pytest.mark.slow  # collects the corpus tier (~40 s)
def test_the_corpus_tier_size_is_current():
    m = re.search(r"llc-22: ([\d,]+) tests", README)
    assert m
    assert _n(m.group(1)) == _script().corpus_tier_size(), (
        "the README's corpus-tier size is stale: run python benchmarks/readme_numbers.py --tiers --write")


def test_the_counts_in_the_docs_are_current():
    """docs/synthesis.md's counts of the checked-in table (rows, columns,
    entries, distinct proved files, CPU minutes), written by
    benchmarks/readme_numbers.py --write."""
    for doc, pattern, live in _script().doc_counts(ROOT):
        m = re.search(pattern, (ROOT / doc).read_text())
        assert m, (doc, pattern)
        assert _n(m.group(1)) == live, (
            f"{doc} says {m.group(0)!r}; the live count is {live}: run python benchmarks/readme_numbers.py --write")
