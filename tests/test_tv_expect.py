"""Each file of tests/tv/llvm-shape/ on every RUN-line instance with llc-22
against the `; EXPECT:` lines it carries (tests/tvexpect.py): the verdict of
each instance, its note where one is named, the number of instances, and no
stale line.  The smallest file of each area (the first word of the names of
two files or more: cc_, mem_, wide_, ...; the other files together) runs in the slow tier, the others in the corpus tier."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import cli
from tvexpect import parse, read

pytest.importorskip("llvmlite")

TV = Path(__file__).parent / "tv"
SHAPE = TV / "llvm-shape"
FILES = sorted(SHAPE.glob("*.ll"))
LLC = shutil.which("llc-22")


# areas whose own test files already run their files' cases in the slow tier
# (tests/test_tv_shape_cf.py, _nondet.py, _half.py; the atomics in
# test_tv_shape_atomics.py, test_tv_atomics2.py and test_tv_atomics4.py): no
# whole-file sample of theirs there (cf_wave_reduce_loop alone took 216 s at
# load 12, atomics_unmodelled 82 s in CI)
SAMPLED_ELSEWHERE = {"cf", "nondet", "half", "atomics", "atomics4", "breadth5"}  # (breadth5: tests/test_tv_breadth5.py)


def _tiers(paths: list[Path]) -> list[object]:
    words = [p.stem.split("_")[0] for p in paths]
    areas: dict[str, list[Path]] = {}
    for p, w in zip(paths, words):
        areas.setdefault(w if words.count(w) > 1 else "", []).append(p)  # a file alone in its word: no area
    sample = {min(ps, key=lambda p: (p.stat().st_size, p.name)) for a, ps in areas.items() if a not in SAMPLED_ELSEWHERE}
    return [pytest.param(p, marks=[pytest.mark.slow] if p in sample else [pytest.mark.slow, pytest.mark.corpus])
            for p in paths]


def test_every_expect_line_parses() -> None:
    for p in sorted(TV.rglob("*.ll")):
        read(p)  # raises with path:line:col on a malformed line


@pytest.mark.parametrize("line, message", [
    ("; EXPECT: proven", "EXPECT wants a verdict (proved, refuted, unknown, unsupported, compiler error) or 'N instances', got 'proven'"),
    ("; EXPECT: refuted gfx1100 gfx942", "EXPECT: unexpected 'gfx942'"),
    ("; EXPECT: refuted wave16", "EXPECT: unexpected 'wave16'"),
])
def test_a_malformed_expect_line_is_an_error_at_its_line(line: str, message: str) -> None:
    with pytest.raises(ValueError) as e:
        parse("f.ll", "; RUN: llc\n" + line + "\n")
    assert str(e.value).startswith("f.ll:2:11: error: ") and message in str(e.value)


def test_rules_match_by_function_target_and_wave() -> None:
    ex = parse("f.ll", '; EXPECT: 12 instances\n; EXPECT: unsupported @g gfx803 "v_add_u16_sdwa"\n'
                       "; EXPECT: refuted wave64\n")
    assert ex.instances == 12
    assert ex.rule_for("g", "gfx803", 64).verdict == "unsupported"  # the first that matches decides
    assert ex.rule_for("g", "gfx803", 64).note == "v_add_u16_sdwa"
    assert ex.rule_for("f", "gfx1100", 64).verdict == "refuted"
    assert ex.rule_for("f", "gfx1100", 32) is None  # proved


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("path", _tiers(FILES), ids=lambda p: p.stem)
def test_llvm_shape_file_meets_its_expect_lines(path: Path) -> None:
    ex = read(path)
    code, out, err = cli("tv", str(path), "--llc", "llc-22", "--jobs", "1", "--json")
    rs = json.loads(out)["results"]
    assert rs, err
    used: set[int] = set()
    wrong = []
    for r in rs:
        rule = ex.rule_for(r["function"], r["target"], r["wave"])
        want = rule.verdict if rule else "proved"
        if rule:
            used.add(rule.line)
        if r["verdict"] != want or (rule and rule.note and not any(rule.note in n for n in r["notes"])):
            wrong.append((r["function"], r["target"], r["wave"], r["verdict"], want, r["notes"][:1]))
    assert wrong == []
    assert sorted({r.line for r in ex.rules} - used) == [], "EXPECT lines that match no instance (stale)"
    if ex.instances is not None:
        assert len(rs) == ex.instances
    assert (code == 0) == all(r["verdict"] == "proved" for r in rs)
