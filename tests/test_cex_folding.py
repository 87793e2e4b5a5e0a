"""Folding a counterexample's lane table never hides a failing lane: every
lane the JSON lists as differing is a printed row or inside the exact range
a fold line names.  [cex.render, cex.fold_lanes]"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import cli
from hypothesis import example, given, settings
from hypothesis import strategies as st

from verify.cex import Counterexample, Row, render
from verify.ir import Lowering
from verify.lowering_file import load_lowering

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\s+(\d+)\s+0x")
FOLD = re.compile(r"^\s+lanes (\d+)-(\d+): same as lanes? (\d+)(?:-(\d+))?, shifted$")


def covered(lines: list[str]) -> tuple[set[int], list[tuple[int, int, int, int]]]:
    """(lanes printed as rows, folds as (first, last, like, like_last))."""
    rows, folds = set(), []
    for ln in lines:
        if m := ROW.match(ln):
            rows.add(int(m.group(1)))
        elif m := FOLD.match(ln):
            a, b, c = int(m.group(1)), int(m.group(2)), int(m.group(3))
            folds.append((a, b, c, int(m.group(4)) if m.group(4) else c))
    return rows, folds


def assert_no_lane_hidden(lines: list[str], failing: set[int]) -> None:
    rows, folds = covered(lines)
    in_folds = {i for a, b, _, _ in folds for i in range(a, b + 1)}
    assert failing <= rows | in_folds, sorted(failing - rows - in_folds)
    for a, b, c, d in folds:  # a fold refers only to lanes the table shows
        assert all(i in rows or i in in_folds for i in range(c, d + 1) if i in failing), (a, b, c, d)


def test_a_row_that_repeats_after_a_run_keeps_both_fold_lines(tmp_path: Path) -> None:
    # the half-wave ds_bpermute of gfx1100 wave64: every lane reads its own
    # half; lanes 33-47 (a run after lane 32) used to vanish when the next fold
    # line ("lanes 48-63: same as lanes 32-47") took the same place
    src = (ROOT / "lowerings/shuffle/xor32_bpermute.s").read_text()
    p = tmp_path / "x32.s"
    p.write_text(src.replace("@targets  gfx9", "@targets  gfx1100").replace("@exec     any", "@exec     full"))
    code, out, _ = cli("lowering", str(p))
    assert code == 1
    assert "          lanes 33-47: same as lane 32, shifted\n          lanes 48-63: same as lanes 32-47, shifted" in out
    code, js, _ = cli("lowering", str(p), "--json")
    cex = json.loads(js)["results"][0]["counterexample"]
    failing = {int(k) for k in cex["lanes"]} if isinstance(cex["lanes"], dict) else {r["lane"] for r in cex["lanes"]}
    assert len(failing) == 64
    assert_no_lane_hidden(out.splitlines(), failing)


LOW = load_lowering(ROOT / "lowerings/xor5.s")


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 3), min_size=1), st.lists(st.integers(0, 2), min_size=16, max_size=16),
       st.lists(st.integers(0, 2), min_size=64, max_size=64), st.lists(st.booleans(), min_size=4, max_size=4),
       st.sets(st.integers(0, 63), max_size=3), st.booleans())
@example({0, 1, 2, 3}, [0] * 16, [0] * 64, [True] * 4, set(), True)
@pytest.mark.slow
def test_render_never_hides_a_failing_lane(blocks: set[int], pattern: list[int], own: list[int], repeat: list[bool],
                                           dropped: set[int], tagged: bool) -> None:
    # rows of 16 lanes that repeat one pattern (folded as "same as lanes
    # A-B") or have their own, with runs inside them and some lanes passing
    kind = [pattern[i % 16] if repeat[i // 16] else own[i] for i in range(64)]
    lanes = [i for i in range(64) if i // 16 in blocks and i not in dropped] or [min(blocks) * 16]
    rows = [Row("out", i, 0x100 + (i ^ kind[i]), f"x[{i ^ kind[i]}]", 0x100 + i, f"x[{i}]",
                f"line {3 + kind[i]} v_mov_b32_dpp: v1[{i}] reads the wrong lane") for i in sorted(lanes)]
    cex = Counterexample("value(out)", 64, (1 << 64) - 1, {"v0": [0x100 + i for i in range(64)]}, {"v0": "x"},
                         tagged, rows)
    assert isinstance(LOW, Lowering)
    assert_no_lane_hidden(render(cex, LOW), set(lanes))
