"""One hazard verdict in verify asm, verify lowering and verify tv (issue #30):
a read inside a hazard window is unknown in all three (the machine runs the
hazard table as semantics, and verify tv's one-instruction-at-a-time runs
see the instructions before), so a missing wait the value depends on is
refuted everywhere, the hazard named, with the lane and EXEC."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

HERE = Path(__file__).parent
SRC = HERE / "tv" / "dpp_reduce_quad.ll"
ASM = HERE / "data" / "tv" / "dpp_reduce_quad_gfx90a.s"  # llc-22's code: two DPP adds, s_nop 1 between
CLAIM = "v0 == cg.reduce(v0, op=add, width=4)"
HAZARD = ("warning: hazard (GFX8/9 family): line 11 (v_add_u32_dpp) writes v0 and v_add_u32_dpp reads it 0 wait "
          "states later; a DPP read of a VGPR written by the previous instructions needs 2: insert s_nop 1")


@pytest.fixture
def no_nop(tmp_path: Path) -> str:
    text = ASM.read_text()
    assert text.count("\ts_nop 1\n") == 1
    p = tmp_path / "no_nop.s"
    p.write_text(text.replace("\ts_nop 1\n", ""))
    return str(p)


def test_with_the_wait_both_prove():
    code, out, _ = cli("tv", str(SRC), "--target", "gfx90a", "--asm", str(ASM))
    assert code == 0 and out.splitlines()[0].endswith(": proved (4 GPU instructions)"), out
    code, out, _ = cli("asm", str(ASM), "--exec", "0xffffffffffffffff", "--assert", CLAIM)
    assert code == 0 and "  proved   " + CLAIM in out, out


@pytest.mark.slow
def test_tv_asm_refutes_the_missing_wait(no_nop):
    code, out, _ = cli("tv", str(SRC), "--target", "gfx90a", "--asm", no_nop)
    lines = out.splitlines()
    assert code == 1 and lines[0].endswith(": refuted (3 GPU instructions)"), out
    assert lines[2].endswith(HAZARD), out
    assert lines[3] == "  counterexample: EXEC = 0x1", out
    # the cause: the DPP read inside the hazard window (verify/tv/cextv.py)
    assert lines[4].startswith("    cause: line 12 v_add_u32_dpp: reads v0 inside the hazard window of line 11"), out
    # lane 0, lane-tagged: the IR keeps %var[0], the GPU's value is unknown
    assert "       0  0x100 %var[0]  0x0 unknown (hazard)  line 12 v_add_u32_dpp: " in out, out
    assert lines[-2] == ("  GPU: line 12: v_add_u32_dpp v0, v0, v0 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf "
                         "bound_ctrl:1"), out


def test_asm_refutes_the_missing_wait_too(no_nop):
    code, out, err = cli("asm", no_nop, "--exec", "0xffffffffffffffff", "--assert", CLAIM)
    assert code == 1 and "  refuted  " + CLAIM in out, out
    assert "reads v0 inside the hazard window of line 11 (v_add_u32_dpp), 0 wait states later" in out, out
    assert HAZARD in err, err
