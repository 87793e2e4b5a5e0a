"""Reversed integer ops with DPP swizzle the printed src1 (the hardware's
src0): llvm/llvm-project#216835, Mesa ACO.  Assumption ``dpp.rev_operand``:
``src1`` (default) or ``src0``.  [S:dpp-rev]"""

import pytest
from helpers import simulate

W = 64
A = list(range(100, 164))  # v1: lane i holds 100 + i
Bv = [1000 * (i + 1) for i in range(64)]  # v2
FULL = (1 << 64) - 1


def run(line, target, variant=None, wave=W):
    regs = {"v1": A[:wave], "v2": Bv[:wave], "v0": 0}
    assume = {"dpp.rev_operand": variant} if variant else None
    return simulate([line], target, wave, (1 << wave) - 1, regs, assume)


@pytest.mark.parametrize("target", ["gfx900", "gfx1030", "gfx1100", "gfx1200"])
def test_subrev_swizzles_printed_src1(target):
    sub = "v_subrev_u32_dpp" if target in ("gfx900", "gfx1100") else "v_subrev_nc_u32_dpp"
    line = f"{sub} v0, v1, v2 row_shr:1 bound_ctrl:1"
    m = run(line, target)
    # lane i: v2[i-1] - v1[i]; lane 0 of each row reads 0 (bound_ctrl)
    want = [((Bv[i - 1] if i % 16 else 0) - A[i]) & 0xFFFFFFFF for i in range(W)]
    assert m.vregs[0] == want
    assert m.assumptions_used["dpp.rev_operand"] == "src1"
    m = run(line, target, "src0")
    assert m.vregs[0] == [(Bv[i] - (A[i - 1] if i % 16 else 0)) & 0xFFFFFFFF for i in range(W)]


@pytest.mark.parametrize("target,rev", [("gfx900", True), ("gfx1030", True), ("gfx1100", False), ("gfx1200", False)])
def test_rev_shift_swizzles_src1_before_gfx11(target, rev):
    regs = {"v1": [i % 4 for i in range(W)], "v2": [i + 1 for i in range(W)], "v0": 0}
    m = simulate(["v_lshlrev_b32_dpp v0, v1, v2 quad_perm:[1,0,3,2]"], target, W, FULL, regs)
    x = [i ^ 1 for i in range(W)]
    if rev:  # v2 swizzled, shifted by the lane's own v1
        assert m.vregs[0] == [(x[i] + 1) << (i % 4) for i in range(W)]
        assert m.assumptions_used == {"dpp.rev_operand": "src1"}
    else:  # GFX11+: the printed src0 (the shift amount) is swizzled; no assumption asked
        assert m.vregs[0] == [(i + 1) << (x[i] % 4) for i in range(W)]
        assert "dpp.rev_operand" not in m.assumptions_used


def test_plain_ops_and_float_ops_swizzle_src0():
    regs = {"v1": A, "v2": Bv, "v0": 0}
    m = simulate(["v_sub_u32_dpp v0, v1, v2 quad_perm:[1,0,3,2]"], "gfx900", W, FULL, regs)
    assert m.vregs[0] == [(A[i ^ 1] - Bv[i]) & 0xFFFFFFFF for i in range(W)]
    assert "dpp.rev_operand" not in m.assumptions_used


def test_scalar_src1_under_src1_is_unknown():
    regs = {"v1": A, "s2": 5, "v0": 0, "v0@1(DPP of the scalar src1)": 77}
    m = simulate(["v_subrev_nc_u32_e64_dpp v0, v1, s2 row_shr:1"], "gfx1200", W, FULL, regs)
    assert m.vregs[0] == [77] * W and "v0@1(DPP of the scalar src1)" in m.inputs_read
    m = simulate(["v_subrev_nc_u32_e64_dpp v0, v1, s2 row_shr:1 bound_ctrl:1"], "gfx1200", W, FULL, regs,
                 {"dpp.rev_operand": "src0"})
    assert m.vregs[0][1] == (5 - A[0]) & 0xFFFFFFFF


def test_float_subrev_swizzles_printed_src0():
    """v_subrev_f32 is an add with a negated source: the swizzle stays on the
    printed src0 (Mesa's hardware tests, #216835 review).  [S:dpp-rev]"""
    one, two = 0x3F800000, 0x40000000
    regs = {"v1": [one if i % 2 else two for i in range(W)], "v2": [0] * W, "v0": 0}
    m = simulate(["v_subrev_f32_dpp v0, v1, v2 quad_perm:[1,0,3,2]"], "gfx900", W, FULL, regs)
    # lane i: v2[i] - v1[i ^ 1] = 0 - v1[i ^ 1]
    assert m.vregs[0] == [(two if i % 2 else one) | 0x80000000 for i in range(W)]
    assert "dpp.rev_operand" not in m.assumptions_used
    m = simulate(["v_sub_f32_e64 v0, v1, v1", "v_sub_f32_e64 v3, -v2, v2"], "gfx1100", 32, 1, {"v1": one, "v2": 0})
    assert m.vregs[0][0] == 0 and m.vregs[3][0] == 0x80000000  # x - x is +0.0; -0.0 - +0.0 is -0.0


LOWERING = """; rev
;
; @spec     lane.map src="{src}" width=64
; @targets  gfx9
; @waves    64
; @exec     full
; @input    x = v0
; @output   out = v1
; @clobbers v2
v_mov_b32_e32 v2, 0
s_nop 1
v_subrev_u32_dpp v1, v2, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
"""


@pytest.mark.parametrize("src,variant,code", [("i", "src0", 0), ("i", "src1", 1), ("i ^ 1", "src1", 0),
                                              ("i ^ 1", "src0", 1)])
def test_a_lowering_under_either_reading(tmp_path, src, variant, code):
    """`x - swizzle(0)` is the identity under the old reading and a swap of
    neighbours under the hardware's: the old reading proved a lowering the
    hardware contradicts."""
    from helpers import cli_json

    p = tmp_path / "rev.s"
    p.write_text(LOWERING.format(src=src))
    got, js, err = cli_json("lowering", str(p), "--target", "gfx900", "--assume", f"dpp.rev_operand={variant}")
    assert got == code, err
    assert js["results"][0]["assumptions"]["dpp.rev_operand"] == variant
    if variant == "src1":  # the default
        got2, js2, _ = cli_json("lowering", str(p), "--target", "gfx900")
        assert got2 == code and js2["results"][0]["assumptions"]["dpp.rev_operand"] == "src1"
