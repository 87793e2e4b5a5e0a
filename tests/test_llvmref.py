"""The reductions table's LLVM column (verify/synth/llvmref.py): which of
LLVM's instructions are counted, and that the json holds what llvmlite's LLVM
emits today."""

import json
from pathlib import Path

import pytest

from verify.diag import InputError
from verify.synth import llvmref
from verify.target import get

DATA = Path(__file__).parent / "data" / "llvmref"
ROOT = Path(__file__).parent.parent


def counted(name: str, spec: str, wave: int) -> tuple[list[str], int, str]:
    body = llvmref._body((DATA / name).read_text())
    idx = llvmref.counted(spec, body, wave)
    return [body[k].text for k in idx], llvmref.cost_of(body, idx, get(name.split("_")[-2]), wave), name


def test_wave64_reduction_counts_both_regions_and_the_scalar_combine() -> None:
    seq, cost, _ = counted("reduce_all_umax_gfx1030_w64.s", "red.reduce_all", 64)
    # the two whole-wave regions, then s_max of the two readlanes; not the
    # election (v_mbcnt, v_cmpx), the address, the input load's wait, nor the
    # copy into the atomic's VGPR after the branch
    assert seq == [
        "s_or_saveexec_b64 s[2:3], -1",
        "v_cndmask_b32_e64 v1, 0, v0, s[2:3]",
        *[f"v_max_u32_dpp v1, v1, v1 row_xmask:{m} row_mask:0xf bank_mask:0xf bound_ctrl:1" for m in (1, 2, 4, 8)],
        "v_permlanex16_b32 v2, v1, 0, 0",
        "v_max_u32_e32 v1, v1, v2",
        "s_mov_b64 exec, s[2:3]",
        "s_or_saveexec_b64 s[2:3], -1",
        "v_readlane_b32 s4, v1, 0",
        "v_readlane_b32 s5, v1, 32",
        "s_mov_b64 exec, s[2:3]",
        "s_max_u32 s2, s4, s5",
    ]
    # rdna wave64: 7 VALU at 10, 2 readlanes, 5 SALU at 2 (cost.py)
    assert cost == 110


def test_dual_issue_pair_is_one_issue() -> None:
    seq, cost, _ = counted("reduce_all_add_gfx1100_w32.s", "red.reduce_all", 32)
    # `v_dual_mov_b32 v0, 0 :: v_dual_mov_b32 v3, v1`: only the half that
    # copies the result is counted, and the pair costs one issue
    assert seq[-1] == "v_mov_b32_e32 v3, v1" and "v_mov_b32_e32 v0, 0" not in seq
    assert not any(s.startswith("s_delay_alu") or s.startswith("s_waitcnt") for s in seq)
    assert cost == 49
    # both halves counted: still one VALU issue (5 under rdna wave32), not two
    body = llvmref._body("k:\n\ts_or_saveexec_b32 s2, -1\n\tv_dual_mov_b32 v1, v0 :: v_dual_mov_b32 v2, v0\n"
                         "\ts_mov_b32 exec_lo, s2\n\ts_endpgm\n")
    idx = llvmref.counted("red.reduce_all", body, 32)
    assert [body[k].text for k in idx][1:3] == ["v_mov_b32_e32 v1, v0", "v_mov_b32_e32 v2, v0"]
    assert llvmref.cost_of(body, idx, get("gfx1100"), 32) == 2 + 5 + 2


def test_inclusive_scan_is_the_slice_the_last_lane_is_read_from() -> None:
    seq, cost, _ = counted("scan_incl_add_gfx1100_w64.s", "red.scan_incl", 64)
    # the exclusive shift (v_mov_b32_dpp, writelanes), its identity and the
    # total's readlane are not part of the inclusive scan
    assert seq == [
        "s_or_saveexec_b64 s[2:3], -1",
        "v_cndmask_b32_e64 v1, 0, v4, s[2:3]",
        *[f"v_add_nc_u32_dpp v1, v1, v1 row_shr:{m} row_mask:0xf bank_mask:0xf bound_ctrl:1" for m in (1, 2, 4, 8)],
        "v_permlanex16_b32 v2, v1, -1, -1",
        "v_add_nc_u32_dpp v1, v2, v1 quad_perm:[0,1,2,3] row_mask:0xa bank_mask:0xf",
        "v_readlane_b32 s6, v1, 31",
        "v_mov_b32_e32 v2, s6",
        "v_add_nc_u32_dpp v1, v2, v1 quad_perm:[0,1,2,3] row_mask:0xc bank_mask:0xf",
        "s_mov_b64 exec, s[2:3]",
    ]
    # the same instructions as the synthesised optimum, so the same cost
    assert cost == 114


def test_the_exclusive_scan_counts_every_region() -> None:
    seq, cost, _ = counted("scan_incl_add_gfx1100_w64.s", "red.scan_excl", 64)
    assert seq.count("s_or_saveexec_b64 s[2:3], -1") == 3 and "v_writelane_b32 v3, s8, 48" in seq
    assert "s_waitcnt_depctr depctr_sa_sdst(0)" in seq  # a hazard wait LLVM placed: counted
    assert cost == 214


def test_no_region_and_no_exit_are_errors() -> None:
    body = llvmref._body("k:\n\tv_mov_b32_e32 v1, v0\n\ts_endpgm\n")
    with pytest.raises(InputError, match="no whole-wave region"):
        llvmref.counted("red.reduce_all", body, 64)
    body = llvmref._body("k:\n\ts_or_saveexec_b64 s[2:3], -1\n\tv_mov_b32_e32 v1, v0\n\ts_endpgm\n")
    with pytest.raises(InputError, match="has no exit"):
        llvmref.counted("red.reduce_all", body, 64)


@pytest.mark.slow
def test_the_table_json_is_what_llvmlite_emits() -> None:
    pytest.importorskip("llvmlite")
    index = json.loads((ROOT / "docs" / "synthesis-reductions.json").read_text())
    assert all("llvm" in e for e in index)
    live = json.loads(json.dumps(index))
    llvmref.add_to(live)
    if live[0]["llvm"]["llvm"] != index[0]["llvm"]["llvm"]:
        pytest.skip(f"llvmlite's LLVM is {live[0]['llvm']['llvm']}, the table's {index[0]['llvm']['llvm']}")
    assert [e["llvm"] for e in live] == [e["llvm"] for e in index]
    # every row has a sequence: the atomic optimizer ran on every target and wave
    assert all("sequence" in e["llvm"] for e in index)


def _table_llvm() -> str:
    return json.loads((ROOT / "docs" / "synthesis-reductions.json").read_text())[0]["llvm"]["llvm"]


@pytest.mark.slow
def test_synth_prints_llvms_sequence_beside_its_answer() -> None:
    pytest.importorskip("llvmlite")
    from helpers import cli, cli_json

    code, out, err = cli("synth", "red.reduce_all", "op=add", "--target", "gfx1100", "--wave", "32")
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("  LLVM "))
    if not line.startswith(f"  LLVM {_table_llvm()} "):
        pytest.skip(f"llvmlite's LLVM is not the table's {_table_llvm()}: {line}")
    assert line.endswith("(llvmlite; atomic optimizer, DPP; `atomicrmw add, result unused`) for gfx1100: "
                         "cost 49; this one is cheaper by 5")
    code, js, _ = cli_json("synth", "red.scan_incl", "op=add", "--target", "gfx1100", "--wave", "64")
    assert code == 0 and js["cost"] == 114
    assert [(e["target"], e["cost"], e["construct"]) for e in js["llvm"]] == [
        ("gfx1100", 114, "atomicrmw add, result used")]
    assert js["llvm"][0]["sequence"][-1] == "s_mov_b64 exec, s[2:3]"


def test_no_llvm_line_where_llvm_has_no_such_sequence() -> None:
    # a 16-lane tile, or over=all: the atomic optimizer combines the whole wave's active lanes
    assert llvmref.compare_lines("red.reduce_all", {"op": "add", "width": 16}, [get("gfx1100")], 32, 40) == ([], [])
    assert llvmref.compare_lines("red.scan_incl", {"op": "add", "over": "all"}, [get("gfx1100")], 32, 40) == ([], [])
    assert llvmref.compare_lines("red.scan_incl", {"op": "fadd"}, [get("gfx1100")], 32, 40) == ([], [])
