"""Add with carry: the DPP forms (v_add_co_u32_dpp / v_addc_co_u32_dpp on
GFX9, v_add_co_ci_u32_dpp on GFX10+, the VOP3 _e64_dpp forms on GFX11+ that
llc-22 emits for a 64-bit add reduction), and their emission as LLVM IR.
[S:addr] [S:dpp-lane-rule]"""

import pytest
from helpers import cli, simulate

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS

FULL = (1 << 64) - 1


def test_dpp_add_swizzles_src0_and_carries_per_lane():
    regs = {"v1": [0xFFFFFFF0 + (i & 1) * 0x20 for i in range(64)], "v2": [0x10] * 64}
    m = simulate(["v_add_co_u32_dpp v0, vcc, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"],
                 "gfx900", 64, FULL, regs)
    # lane i adds lane i^1's v1: even lanes read 0x10 (0x20, no carry), odd lanes 0xfffffff0 (0, a carry)
    assert m.vregs[0] == [(0xFFFFFFF0 + ((i ^ 1) & 1) * 0x20 + 0x10) & 0xFFFFFFFF for i in range(64)]
    assert (m.sregs["vcc_hi"] << 32 | m.sregs["vcc_lo"]) == sum(1 << i for i in range(64) if i % 2 == 1)


def test_vop3_dpp_add_and_carry_in_on_gfx11():
    regs = {"v1": [0xFFFFFFFF] * 32, "v2": [i for i in range(32)], "s1": 0x0000FFFF}
    m = simulate(["v_add_co_ci_u32_e64_dpp v0, s0, v1, v2, s1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1"],
                 "gfx1100", 32, 0xFFFFFFFF, regs)
    # row_shr:1 with bound_ctrl: lane 0 of each row reads 0, the others lane i-1's 0xffffffff
    src = [0 if i % 16 == 0 else 0xFFFFFFFF for i in range(32)]
    cin = [1 if i < 16 else 0 for i in range(32)]
    assert m.vregs[0] == [(src[i] + i + cin[i]) & 0xFFFFFFFF for i in range(32)]
    assert m.sregs["s0"] == sum(1 << i for i in range(32) if src[i] + i + cin[i] > 0xFFFFFFFF)


# (line, targets where llvm-mc-22 accepts it: pinned from llvm-mc-22 runs on
# gfx803, gfx900, gfx90a, gfx942, gfx1030, gfx1100, gfx1151, gfx1200)
SPELLINGS = [
    ("v_add_co_u32_dpp v0, vcc, v1, v2 row_shr:1", "gfx9"),
    ("v_addc_co_u32_dpp v0, vcc, v1, v2, vcc row_shr:1", "gfx9"),
    ("v_add_co_ci_u32_dpp v0, vcc_lo, v1, v2, vcc_lo row_shr:1", "rdna"),
    ("v_add_co_u32_e64_dpp v0, s0, v1, v2 row_shr:1", "gfx11+"),
    ("v_add_co_u32_e64_dpp v0, null, v1, v2 row_shr:1", "gfx11+"),
    ("v_add_co_ci_u32_e64_dpp v0, s0, v1, v2, s1 row_shr:1", "gfx11+"),
    ("v_add_co_u32_e64_dpp v0, s0, v1, s2 row_shr:1", "gfx115+"),  # an SGPR src1 in VOP3 DPP: GFX11.5, GFX12
    ("v_add_co_u32_dpp v0, vcc, s1, v2 row_shr:1", ""),  # DPP reads src0 from other lanes: a VGPR
    ("v_add_co_u32_dpp v0, s[0:1], v1, v2 row_shr:1", ""),  # VOP2 writes vcc
]


def _accepts(group, t):
    return {"gfx9": t.gen == 9, "rdna": t.gen >= 10, "gfx11+": t.gen >= 11,
            "gfx115+": t.name in ("gfx1151", "gfx1200"), "": False}[group]


@pytest.mark.parametrize("line,group", SPELLINGS)
def test_spellings_match_llvm_mc(line, group):
    for name in ("gfx803", "gfx900", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1151", "gfx1200"):
        t = TARGETS[name]
        wave = 64 if t.gen < 10 else 32
        try:
            ins = parse_instr(line, Span("t", 1))
            OPS[ins.base].check(ins, t, wave)
            ok = True
        except InputError:
            ok = False
        assert ok == _accepts(group, t), (line, name)


@pytest.mark.slow
@pytest.mark.parametrize("name, target, wave, needles", [
    # the carry: the low sum below an addend (icmp ult), selected to 1/0 into the high sum
    ("pair_add_u64_gfx9", "gfx942", 64, ["define i64 @", "icmp ult i32", "select i1", "or i1"]),
    # a 64-bit unsigned compare: high halves decide, equal high halves leave it to the low ones
    ("pair_umax_u64_rdna_w32", "gfx1100", 32, ["define i64 @", "icmp ult i32", "icmp eq i32", "and i1", "or i1"]),
])
def test_64bit_pair_steps_emit_as_llvm_ir(name, target, wave, needles):
    """A 64-bit add (v_add_co_u32 + v_addc_co_u32) and a 64-bit compare
    (v_cmp_gt_u64) emit as i1 logic on 32-bit halves; LLVM compiles it and
    its code is proved again (verify emit refuses otherwise)."""
    code, out, err = cli("emit", name, "--target", target, "--wave", str(wave))
    assert code == 0, err
    for n in needles:
        assert n in out, (n, out)


CARRY_BALLOT = """; @spec     cuda.ballot
; @targets  gfx1030
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, v2, vcc_lo
v_add_co_u32 v2, vcc_lo, -1, v0
v_mov_b32_e32 v1, vcc_lo
"""


def test_an_inactive_lanes_carry_is_the_named_assumption(tmp_path):
    """x + 0xffffffff carries exactly where x != 0, so the carry mask is the
    ballot of the active lanes, if an inactive lane's carry bit is 0: that is
    valu.carry_inactive=zero (proved); under the default, unknown, lane 0
    alone sees bits the inactive lanes left (refuted).  One rule with the
    borrow ops of v_sub_co_u32."""
    p = tmp_path / "carry.s"
    p.write_text(CARRY_BALLOT)
    code, out, err = cli("lowering", str(p))
    assert code == 1 and "refuted for gfx1030 wave32 under exec=any; assumptions: valu.carry_inactive=unknown" in out
    assert "EXEC = 0x00000001" in out, out
    code, out, err = cli("lowering", str(p), "--assume", "valu.carry_inactive=zero")
    assert code == 0 and "proved for gfx1030 wave32 under exec=any; assumptions: valu.carry_inactive=zero" in out
    p.write_text(CARRY_BALLOT.replace("v_add_co_u32 v2, vcc_lo, -1, v0", "v_sub_co_u32 v2, vcc_lo, 0, v0"))
    code, out, err = cli("lowering", str(p), "--assume", "valu.carry_inactive=zero")  # 0 - x borrows where x != 0
    assert code == 0, out + err
