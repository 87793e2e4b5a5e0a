"""Counterexamples follow a wrong lane back through the registers that
chose it (issue #34, item 1): a ds_bpermute's address back to the VALU ops
that computed it, a v_mov of an SGPR back through the v_readlane that read
it and the SGPR that chose its lane."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

ROOT = Path(__file__).resolve().parent.parent


def first_row(path: str, *args: str) -> dict:
    code, out, _ = cli("lowering", path, *args, "--json")
    assert code == 1
    res = next(r for r in json.loads(out)["results"] if r["verdict"] == "refuted")
    return res["counterexample"]["lanes"][0]


@pytest.mark.slow
def test_bpermute_address_traced_to_the_and_that_dropped_the_half(tmp_path):
    """shfl_idx by a lane number: the half-select mask 32 mutated to 16, so
    lane 32's address loses bit 5.  The trace shows every instruction that
    computed the address, with lane 32's value after each."""
    text = (ROOT / "lowerings/shuffle/shfl_idx_var.s").read_text()
    p = tmp_path / "m.s"
    p.write_text(text.replace("v_and_b32_e32 v2, 32, v2", "v_and_b32_e32 v2, 16, v2"))
    row = first_row(str(p), "--target", "gfx90a")
    assert row["lane"] == 32
    trace = row["trace"]
    assert "line 16 (v_and_b32_e32 v2, 16, v2): v2[32] = 0x0" in trace
    assert "line 15 (v_mbcnt_hi_u32_b32 v2, -1, v2): v2[32] = 0x20" in trace
    assert "line 19 (v_lshlrev_b32_e32 v4, 2, v4): v4[32] = 0x0" in trace
    assert "line 20 ds_bpermute_b32: reads lane 0, chosen by v4[32] = 0x0" in trace
    # the cause: the mutated and, where lane 32's address first became lane 0's
    assert row["responsible"] == ("line 16 v_and_b32_e32: v2[32] chooses lane 0 for line 20 ds_bpermute_b32 "
                                  "(source lane 0 is inactive: reads 0)")
    # printed earliest first: the address slice comes before the read it chose
    shown = list(reversed(trace))
    assert shown.index("line 16 (v_and_b32_e32 v2, 16, v2): v2[32] = 0x0") < \
        shown.index("line 20 ds_bpermute_b32: reads lane 0, chosen by v4[32] = 0x0")


def test_readlane_select_names_the_line_that_computed_the_lane(tmp_path):
    p = tmp_path / "m.s"
    p.write_text("; @spec cuda64.shfl_idx lane=5 width=64\n; @targets gfx9\n; @waves 64\n; @input x = v0\n"
                 "; @output out = v1\n; @clobbers s0, s1\ns_mov_b32 s1, 6\nv_readlane_b32 s0, v0, s1\n"
                 "s_nop 4\nv_mov_b32_e32 v1, s0\n")
    row = first_row(str(p), "--target", "gfx90a")
    assert row["lane"] == 5
    # the lane number 6 comes from the s_mov: that line is the cause, the readlane the path
    assert row["responsible"] == "line 7 s_mov_b32: s1 chooses lane 6 for line 8 v_readlane_b32"
    assert list(reversed(row["trace"])) == [
        "v0[6] holds its value from entry (x[6])",
        "line 7 (s_mov_b32 s1, 6): s1 = 0x6",
        "line 8 v_readlane_b32: reads lane 6, chosen by s1 = 0x6",
        "line 8 (v_readlane_b32 s0, v0, s1): s0 <- v0[6]",
        "line 10 (v_mov_b32_e32 v1, s0): v1[5] <- s0 = 0x106",
    ]


def test_writelane_traced_through_the_scalar(tmp_path):
    """A v_writelane of an SGPR that v_readlane read from the wrong lane:
    the path goes on through the scalar to the VGPR lane it came from."""
    p = tmp_path / "m.s"
    p.write_text("; @spec cuda64.shfl_idx lane=5 width=64\n; @targets gfx9\n; @waves 64\n; @exec full\n"
                 "; @input x = v0\n; @output out = v1\n; @clobbers s0\n"
                 "v_mov_b32_e32 v1, v0\nv_readlane_b32 s0, v0, 4\ns_nop 4\nv_writelane_b32 v1, s0, 5\n"
                 "s_nop 4\nv_readlane_b32 s0, v1, 5\ns_nop 4\nv_mov_b32_e32 v1, s0\n")
    row = first_row(str(p), "--target", "gfx90a")
    shown = list(reversed(row["trace"]))
    assert shown[0] == "v0[4] holds its value from entry (x[4])"
    assert "line 9 (v_readlane_b32 s0, v0, 4): s0 <- v0[4]" in shown
    assert any(c.startswith("line 11 (v_writelane_b32 v1, s0, 5): v1[5] <- s0 = 0x104") for c in shown)


def test_the_first_lane_choice_on_the_path_is_responsible(tmp_path):
    """Two readlanes on the path: the one that read the input's wrong lane
    (a constant 4 where the spec wants 5) is named, not the later one."""
    p = tmp_path / "m.s"
    p.write_text("; @spec cuda64.shfl_idx lane=5 width=64\n; @targets gfx9\n; @waves 64\n; @exec full\n"
                 "; @input x = v0\n; @output out = v1\n; @clobbers s0\n"
                 "v_mov_b32_e32 v1, v0\nv_readlane_b32 s0, v0, 4\ns_nop 4\nv_writelane_b32 v1, s0, 5\n"
                 "s_nop 4\nv_readlane_b32 s0, v1, 5\ns_nop 4\nv_mov_b32_e32 v1, s0\n")
    row = first_row(str(p), "--target", "gfx90a")
    assert row["responsible"] == "line 9 v_readlane_b32: reads lane 4, chosen by the constant 4"


@pytest.mark.slow
def test_a_whole_wave_enable_is_no_branch_mask_to_blame():
    """scan_add_gfx9_rowmask (row_mask:0xc where the scan needs 0xa): EXEC
    is set to every lane by `s_or_saveexec_b64 s[0:1], -1` before the DPP
    add, which lets every lane in and so picks none out: the cause is the
    DPP add that wrote lane 32 from lane 31, never the whole-wave enable
    (before: "line 12 s_or_saveexec_b64: EXEC lane 32 = 1, so ...")."""
    code, out, _ = cli("lowering", "tests/golden/reductions/scan_add_gfx9_rowmask.s", "--target", "gfx900", "--json")
    assert code == 1
    c = json.loads(out)["results"][0]["counterexample"]
    assert c["exec"] == "0x0000000100010000"
    assert c["cause"] == "line 25 v_add_u32_dpp: v1[32] = v_add_u32 of v1[31] and v1[32]"
    assert not any("s_or_saveexec" in t for r in c["lanes"] for t in r["trace"])


def test_a_lane_number_computed_away_and_back_names_the_last_maker(tmp_path):
    """shfl_xor mask 1 as `v_mbcnt_lo`, `v_mbcnt_hi`, `v_xor_b32 v2, 2,
    v2`, `ds_bpermute` on wave64 (the xor constant wrong): lane 34's
    v_mbcnt_lo gives 32, its v_mbcnt_hi 34, the xor 32 again, the lane it
    reads.  The xor made that number; the mbcnt_lo's 32 was computed away
    (the search used to go on past the xor and name the mbcnt_lo, the
    earliest equal result, for lane 34 alone)."""
    p = tmp_path / "x.s"
    p.write_text("; @spec cuda.shfl_xor mask=1 width=32\n; @targets gfx1100\n; @waves 64\n; @exec full\n"
                 "; @input x = v0\n; @output out = v1\n; @clobbers v2\n"
                 "v_mbcnt_lo_u32_b32 v2, -1, 0\nv_mbcnt_hi_u32_b32 v2, -1, v2\nv_xor_b32_e32 v2, 2, v2\n"
                 "v_lshlrev_b32_e32 v2, 2, v2\nds_bpermute_b32 v1, v2, v0\ns_waitcnt lgkmcnt(0)\n")
    code, out, _ = cli("lowering", str(p), "--json")
    assert code == 1
    (res,) = [r for r in json.loads(out)["results"] if r["verdict"] == "refuted"]
    rows = {r["lane"]: r for r in res["counterexample"]["lanes"]}
    assert rows[34]["responsible"] == "line 10 v_xor_b32_e32: v2[34] chooses lane 32 for line 12 ds_bpermute_b32"
    assert all(r["responsible"].startswith("line 10 v_xor_b32_e32: ") for r in rows.values() if r.get("differs"))
