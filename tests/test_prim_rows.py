"""The seed primitives whose table rows were empty: CUDA __any_sync /
__all_sync (HIP's ballot forms, a partial member mask too) and LLVM's
wave.reduce.sub / .fsub.  Each broken variant is refuted with the lane and
EXEC that show it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli_json

ROOT = Path(__file__).resolve().parent.parent


def mutant(tmp_path: Path, rel: str, old: str, new: str) -> Path:
    text = (ROOT / "lowerings" / rel).read_text()
    assert old in text, old
    p = tmp_path / Path(rel).name
    p.write_text(text.replace(old, new, 1))
    return p


DPP = "row_mask:0xf bank_mask:0xf"
_F = "\nv_add_f32_dpp v1, v1, v1 "  # the next step of an f32 row butterfly


@pytest.mark.parametrize("rel, old, new, target, exec_, lane, expected, actual", [
    # __all_sync against every lane instead of the calling ones: one calling lane with p != 0 says 0
    ("vote/cuda_all_w32.s", "s_cmp_eq_u32 vcc_lo, exec_lo", "s_cmp_eq_u32 vcc_lo, -1", "gfx1100",
     "0x00000001", 0, 1, 0),
    # the member mask cut to 8 lanes: lane 8 alone with p != 0 is missed
    ("vote/cuda_any_mask16_w32.s", "s_and_b32 s0, vcc_lo, 0xffff", "s_and_b32 s0, vcc_lo, 0xff", "gfx1030",
     "0x00000100", 8, 1, 0),
    # wave.reduce.sub without the negation: the sum itself
    ("scan/wave_reduce_sub_rdna_w32.s", "s_sub_u32 s4, 0, s4\n", "", "gfx1100", "0x00000001", 0, None, None),
    # wave.reduce.fsub adding the values instead of their negations
    ("scan/wave_reduce_fsub_rdna_w32.s", "v_xor_b32_e32 v2, 0x80000000, v0", "v_mov_b32_e32 v2, v0", "gfx1100",
     "0x00000001", 0, None, None),
    # cg's float scan with bound_ctrl on its first step: the row's first lane adds 0, and 0 + -0.0 is +0.0
    ("cg/cg_inclusive_scan_fadd_t16_rdna.s", "v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
     "v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1", "gfx1100", "0xffffffff", 0, 0x80000000, 0),
    # cg's float reduce with the butterfly's strides 8 and 1 swapped: another rounding than NVIDIA's order
    ("cg/cg_reduce_fadd_t16_rdna.s", "row_ror:8 " + DPP + _F + "row_xmask:4 " + DPP + _F + "quad_perm:[2,3,0,1] " + DPP
     + _F + "quad_perm:[1,0,3,2]", "quad_perm:[1,0,3,2] " + DPP + _F + "row_xmask:4 " + DPP + _F
     + "quad_perm:[2,3,0,1] " + DPP + _F + "row_ror:8", "gfx1100", "0xffffffff", 0, None, None),
])
@pytest.mark.slow
def test_broken_primitives_are_refuted(tmp_path, rel, old, new, target, exec_, lane, expected, actual):
    code, js, err = cli_json("lowering", str(mutant(tmp_path, rel, old, new)), "--target", target)
    assert code == 1, err
    r = js["results"][0]
    assert r["verdict"] == "refuted"
    cex = r["counterexample"]
    assert cex["exec"] == exec_, cex["exec"]
    row = cex["lanes"][0]
    assert row["lane"] == lane
    if expected is not None:
        assert (row["expected"], row["actual"]) == (expected, actual), row
    else:  # 0 - x against x (int) or -x against x (f32): the lane's own value with the sign wrong
        assert row["expected"] != row["actual"]


PROVED = [
    ("cg/cg_reduce_umax_t16_gfx9.s", "gfx90a"),
    ("cg/cg_inclusive_scan_add_t16_rdna.s", "gfx1100"),
    ("cg/cg_exclusive_scan_add_t16_gfx9.s", "gfx942"),
    ("cg/cg_reduce_fadd_t16_gfx9.s", "gfx90a"),
    ("cg/cg_inclusive_scan_fadd_t16_rdna.s", "gfx1030"),
    ("cg/cg_exclusive_scan_fadd_t16_gfx9.s", "gfx950"),
    ("quadrants/quadrants_reduce_all_min_rdna_w32.s", "gfx1030"),
    ("quadrants/quadrants_exclusive_add_gfx9_w64.s", "gfx942"),
    ("vote/cuda_match_any_w32.s", "gfx1100"),
    ("vote/cuda_match_all_w32.s", "gfx1030"),
    ("vote/cuda_ballot_w64.s", "gfx942"),
    ("vote/cuda_all_w64.s", "gfx1100"),
    ("vote/cuda_match_any_w64.s", "gfx90a"),
    ("vote/cuda_match_all_w64.s", "gfx942"),
    ("vote/cuda_match_all_w64.s", "gfx1100"),
]


@pytest.mark.slow
@pytest.mark.parametrize("rel, target", PROVED)
def test_seed_primitive_is_proved(rel, target):
    """cooperative groups' tile reduce/scans, Quadrants' reduce/scans and
    CUDA __match_any_sync: proved on a target of each family they declare."""
    code, js, err = cli_json("lowering", str(ROOT / "lowerings" / rel), "--target", target)
    assert code == 0, err
    assert [r["verdict"] for r in js["results"]] == ["proved"] * len(js["results"])


@pytest.mark.slow
@pytest.mark.parametrize("rel, old, new, target, exec_, lane", [
    # a scan step shifted by 3 instead of 4: lane 3 of each row counts lane 0 twice
    ("cg/cg_inclusive_scan_add_t16_rdna.s", "row_shr:4", "row_shr:3", "gfx1100", "0xffffffff", 3),
    # the last butterfly step over 8 lanes again instead of 16: lanes 16..31 never see lanes 0..15
    ("quadrants/quadrants_reduce_all_min_rdna_w32.s", "v_xor_b32_e32 v3, 16, v2", "v_xor_b32_e32 v3, 8, v2",
     "gfx1030", "0xffffffff", 16),
    # lane 5's match mask written into lane 6: lane 5 keeps whatever v1 held
    ("vote/cuda_match_any_w32.s", "v_writelane_b32 v1, s5, 5", "v_writelane_b32 v1, s5, 6", "gfx1100",
     None, 5),
    # __match_all_sync comparing the equal lanes with all 32 instead of the calling ones: one caller says 0
    ("vote/cuda_match_all_w32.s", "s_cmp_eq_u32 s5, exec_lo", "s_cmp_eq_u32 s5, -1", "gfx1100",
     "0x00000001", 0),
    # a wave64's two warps swapped: lane 0 alone with p != 0 gets the high half's ballot (0)
    ("vote/cuda_ballot_w64.s", "v_cndmask_b32_e32 v1, v3, v1, vcc", "v_cndmask_b32_e32 v1, v1, v3, vcc", "gfx90a",
     "0x0000000000000001", 0),
    # lane 40's match mask taken from the low warp's half: lane 40 alone gets 0 instead of its own bit
    ("vote/cuda_match_any_w64.s", "v_writelane_b32 v1, s7, 40", "v_writelane_b32 v1, s6, 40", "gfx1030",
     "0x0000010000000000", 40),
    # the high warp's equal lanes compared with the low half of EXEC: lane 32 alone says 0
    ("vote/cuda_match_all_w64.s", "s_cmp_eq_u32 s7, exec_hi", "s_cmp_eq_u32 s7, exec_lo", "gfx942",
     "0x0000000100000000", 32),
    # the high warp's first lane read with the low half still on: lanes 0 and 32 with other values
    ("vote/cuda_match_all_w64.s", "s_mov_b32 exec_lo, 0\n", "", "gfx1100", "0x0000000100000001", 32),
    # each half's ballot against all its 32 lanes instead of its calling lanes: one caller says 0
    ("vote/cuda_all_w64.s", "s_cmp_eq_u32 s0, exec_lo", "s_cmp_eq_u32 s0, -1", "gfx1100",
     "0x0000000000000001", 0),
])
def test_broken_seed_primitive_is_refuted(tmp_path, rel, old, new, target, exec_, lane):
    code, js, err = cli_json("lowering", str(mutant(tmp_path, rel, old, new)), "--target", target)
    assert code == 1, err
    r = js["results"][0]
    assert r["verdict"] == "refuted"
    cex = r["counterexample"]
    if exec_ is not None:
        assert cex["exec"] == exec_, cex["exec"]
    assert cex["lanes"][0]["lane"] == lane, cex["lanes"]


@pytest.mark.slow
def test_wave64_ballot_without_its_wait_states_is_refuted_on_gfx942(tmp_path):
    """gfx942 reads an SGPR a VALU wrote 2 wait states later: the wave64
    ballot with its first s_nop dropped is refuted there, proved on gfx90a."""
    p = mutant(tmp_path, "vote/cuda_ballot_w64.s", "s_nop 1  ; gfx94x/gfx950: an SGPR", "; an SGPR")
    code, js, err = cli_json("lowering", str(p), "--target", "gfx942")
    assert code == 1, err
    assert js["results"][0]["verdict"] == "refuted"
    code, js, err = cli_json("lowering", str(p), "--target", "gfx90a")
    assert code == 0, err


@pytest.mark.slow
def test_segmented_reduce_without_its_cut_is_refuted(tmp_path):
    """Quadrants' segmented reduce adding across a segment start (the flag
    test dropped from the first step): refuted."""
    p = mutant(tmp_path, "quadrants/quadrants_segmented_reduce_add_rdna_w32.s",
               "v_cndmask_b32_e32 v4, 0, v4, vcc_lo\n", "")
    code, js, err = cli_json("lowering", str(p), "--target", "gfx1100")
    assert code == 1, err
    assert js["results"][0]["verdict"] == "refuted"
    assert js["results"][0]["counterexample"]["obligation"] == "value(out)"


@pytest.mark.slow
def test_cg_reduce_without_its_wait_states_is_refuted_on_gfx9(tmp_path):
    """GFX9 reads a DPP source 2 wait states after the VALU wrote it; the
    tile reduce with its s_nop dropped is refuted, not proved with a note."""
    p = mutant(tmp_path, "cg/cg_reduce_umax_t16_gfx9.s", "s_nop 1\n", "")
    code, js, err = cli_json("lowering", str(p), "--target", "gfx90a")
    assert code == 1, err
    assert js["results"][0]["verdict"] == "refuted"


@pytest.mark.slow
@pytest.mark.parametrize("name, target", [("cuda_match_all_w32", "gfx1100"), ("cuda_match_all_w64", "gfx90a")])
def test_match_all_is_settled_as_a_boolean_question(name, target):
    """__match_all_sync compares a whole lane mask with EXEC.  The lane masks
    are kept lane by lane (smt.Z3.from_bits), the spec's first active lane is
    the chain v_readfirstlane builds (wave lane 0 where no lane is active, so
    also for a wave64's high warp), so both sides are Boolean over the same
    compares and EXEC bits: the propositional skeleton settles the question
    (the wave64 form took 1m45s per target one lane at a time)."""
    code, js, err = cli_json("lowering", str(ROOT / "lowerings" / "vote" / f"{name}.s"), "--target", target)
    assert code == 0, err
    r = js["results"][0]
    assert r["verdict"] == "proved" and r["method"].endswith(", propositional"), r["method"]
    assert "per-lane" not in r["method"]
    rec = (ROOT / "proofs" / "vote" / f"{name}.proof").read_text()
    assert '"verdict": "proved"' in rec and ", propositional" in rec
