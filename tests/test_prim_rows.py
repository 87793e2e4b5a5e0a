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
])
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
