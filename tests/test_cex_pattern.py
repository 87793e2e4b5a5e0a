"""The pattern line of a counterexample (issue #34, item 2): when one
formula explains the differing lanes, the counterexample says which lane
each lane reads and which the spec wants, in words."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli

from verify.lanes import lane_formula

ROOT = Path(__file__).resolve().parent.parent


def mutant(tmp_path: Path, src: str, old: str, new: str) -> str:
    text = (ROOT / src).read_text()
    assert old in text
    p = tmp_path / Path(src).name
    p.write_text(text.replace(old, new))
    return str(p)


def patterns(path: str, *args: str) -> list[str]:
    code, out, _ = cli("lowering", path, *args, "--json")
    assert code == 1
    data = json.loads(out)
    (res,) = [r for r in data["results"] if r["verdict"] == "refuted"][:1]
    return res["counterexample"]["pattern"]


def test_xor_mask_wrong(tmp_path):
    """quad_perm [2,3,0,1] is lane i^2; shfl_xor mask=1 wants i^1."""
    p = tmp_path / "x.s"
    p.write_text("; @spec cuda.shfl_xor mask=1 width=32\n; @targets gfx9\n; @waves 64\n; @input x = v0\n"
                 "; @output out = v1\nv_mov_b32_dpp v1, v0 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf\n")
    assert patterns(str(p), "--target", "gfx90a") == [
        "lane i reads x from lane i^2; the spec wants lane i^1 (lanes 0-63, with every lane active)"]


def test_shift_in_the_wrong_direction(tmp_path):
    p = mutant(tmp_path, "lowerings/shift/shfl_down1_row.s", "row_shl:1", "row_shr:1")
    (line,) = patterns(p, "--target", "gfx90a")
    assert line.startswith("lane i reads x from lane i-1; the spec wants lane i+1 (lanes 1-14, 17-30, 33-46, 49-62")
    assert line.endswith("8 other lanes differ otherwise)")


def test_broadcast_of_the_wrong_lane(tmp_path):
    p = mutant(tmp_path, "lowerings/bcast/bcast16_row_newbcast.s", "row_newbcast:5", "row_newbcast:6")
    assert patterns(p, "--target", "gfx90a") == [
        "lane i reads x from lane 6 of its 16-lane row; the spec wants lane 5 of its 16-lane row "
        "(lanes 0-63, with every lane active)"]


def test_wave64_readlane_of_the_wrong_half(tmp_path):
    p = mutant(tmp_path, "lowerings/bcast/bcast64_readlane.s", "v_readlane_b32 s0, v0, 63", "v_readlane_b32 s0, v0, 31")
    assert patterns(p, "--target", "gfx90a") == [
        "lane i reads x from lane 31; the spec wants lane 63 (lanes 0-63, with every lane active)"]


def test_no_pattern_where_lanes_keep_an_old_value(tmp_path):
    """The move that gives the segment's last lane its own value dropped:
    those lanes keep v1's entry value, which names no lane of x, so no
    formula is claimed."""
    p = mutant(tmp_path, "lowerings/shift/shfl_down1_row.s", "v_mov_b32_e32 v1, v0\ns_nop 1\n", "s_nop 1\n")
    assert patterns(p, "--target", "gfx90a") == []


def test_the_pattern_is_printed(tmp_path):
    p = mutant(tmp_path, "lowerings/bcast/bcast16_row_newbcast.s", "row_newbcast:5", "row_newbcast:6")
    code, out, _ = cli("lowering", p, "--target", "gfx90a")
    assert code == 1
    assert ("    pattern: lane i reads x from lane 6 of its 16-lane row; the spec wants lane 5 of its 16-lane row "
            "(lanes 0-63, with every lane active)\n") in out


def test_formula_family():
    assert lane_formula([(i, i ^ 32) for i in range(64)], 64) == ("lane i^32", list(range(64)))
    assert lane_formula([(i, i + 16) for i in range(48)], 64) == ("lane i+16", list(range(48)))
    assert lane_formula([(i, i) for i in range(4)], 64) == ("its own lane", [0, 1, 2, 3])
    assert lane_formula([(i, (i & ~7) | ((i + 3) & 7)) for i in range(64)], 64)[0] == \
        "lane i+3, wrapping within its 8-lane group"
    assert lane_formula([(3, 9)], 64) is None  # one lane is no pattern
