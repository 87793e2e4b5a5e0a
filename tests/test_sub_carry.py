"""Subtract with borrow: v_sub_co_u32, v_subrev_co_u32, v_subb(rev)_co_u32
(GFX9), v_sub(rev)_co_ci_u32 (GFX10+).  [S:sub-carry]"""

import pytest
from helpers import simulate

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS

FULL = (1 << 64) - 1
A = [5] * 64
Bv = list(range(64))


def test_sub_co_and_subb_gfx9():
    m = simulate(["v_sub_co_u32 v0, vcc, v1, v2", "v_subb_co_u32_e64 v3, s[4:5], v1, v2, vcc",
                  "v_subrev_co_u32_e64 v6, s[6:7], v1, v2", "v_subbrev_co_u32 v7, vcc, v1, v2, vcc"],
                 "gfx900", 64, FULL, {"v1": A, "v2": Bv})
    assert m.vregs[0] == [(5 - i) & 0xFFFFFFFF for i in range(64)]
    vcc1 = sum(1 << i for i in range(64) if i > 5)
    assert m.vregs[3] == [(5 - i - (i > 5)) & 0xFFFFFFFF for i in range(64)]
    assert (m.sregs["s5"] << 32 | m.sregs["s4"]) == vcc1  # i + cin > 5 exactly when i > 5
    assert m.vregs[6] == [(i - 5) & 0xFFFFFFFF for i in range(64)]
    assert (m.sregs["s7"] << 32 | m.sregs["s6"]) == sum(1 << i for i in range(5))
    # subbrev: v2 - v1 - cin, cin = (i > 5) from the first instruction
    assert m.vregs[7] == [(i - 5 - (i > 5)) & 0xFFFFFFFF for i in range(64)]
    assert m.assumptions_used == {}  # every lane active: the borrow of every lane is computed


def test_borrow_in_of_all_ones():
    m = simulate(["v_sub_co_ci_u32_e64 v0, s0, v1, v2, s1"], "gfx1100", 32, 0xFFFFFFFF,
                 {"v1": [0xFFFFFFFF] * 32, "v2": [0xFFFFFFFF] * 32, "s1": 0xAAAAAAAA})
    assert m.vregs[0] == [0xFFFFFFFF if i & 1 else 0 for i in range(32)]
    assert m.sregs["s0"] == 0xAAAAAAAA


@pytest.mark.parametrize("variant,bits", [("zero", 0x0F), ("unknown", None)])
def test_inactive_lanes_borrow_is_the_assumption(variant, bits):
    m = simulate(["v_sub_co_u32_e64 v0, s0, v1, v2"], "gfx1100", 32, 0xFF,
                 {"v1": [0] * 32, "v2": [0] * 4 + [1] * 28}, {"valu.carry_inactive": variant})
    assert m.assumptions_used["valu.carry_inactive"] == variant
    if bits is not None:
        assert m.sregs["s0"] == 0xF0
    else:
        assert m.sregs["s0"] & 0xFF == 0xF0  # lanes 8-31: whatever the unknown holds


def test_exec_carry_in_reads_only_exec_lo():
    m = simulate(["v_subb_co_u32_e64 v0, s[0:1], v1, v2, exec"], "gfx900", 64, FULL, {"v1": A, "v2": [0] * 64})
    assert m.vregs[0] == [4] * 32 + [5] * 32


def test_rev_dpp_swizzles_src1():
    regs = {"v1": [100 + i for i in range(64)], "v2": [1000 * i for i in range(64)]}
    m = simulate(["v_subrev_co_u32_dpp v0, vcc, v1, v2 quad_perm:[1,0,3,2]"], "gfx900", 64, FULL, regs)
    assert m.vregs[0] == [(1000 * (i ^ 1) - 100 - i) & 0xFFFFFFFF for i in range(64)]


# (line, targets where llvm-mc-22 accepts it: pinned from llvm-mc-22 runs)
SPELLINGS = [
    ("v_sub_co_u32 v0, vcc, v1, v2", "gfx9"),
    ("v_sub_co_u32_e32 v0, vcc, v1, v2", "gfx9"),
    ("v_sub_co_u32_e64 v0, s[0:1], v1, v2", "gfx9"),
    ("v_sub_co_u32 v0, s0, v1, v2", "rdna"),
    ("v_subrev_co_u32_e64 v0, s0, v1, v2", "rdna"),
    ("v_subb_co_u32 v0, vcc, v1, v2, vcc", "gfx9"),
    ("v_subb_co_u32_dpp v0, vcc, v1, v2, vcc row_shr:1", "gfx9"),
    ("v_sub_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo", "rdna"),
    ("v_sub_co_ci_u32_dpp v0, vcc_lo, v1, v2, vcc_lo row_shr:1", "rdna"),
    ("v_sub_co_u32_e64_dpp v0, s0, v1, v2 row_shr:1", "gfx11+"),
    ("v_sub_co_ci_u32_e64_dpp v0, s0, v1, v2, s1 row_shr:1", "gfx11+"),
    ("v_subb_co_u32_e64 v0, s[0:1], s1, v2, s[2:3]", ""),  # two scalars on GFX9
    ("v_sub_co_ci_u32_e64 v0, s0, s3, v2, s1", "rdna"),
    ("v_sub_co_ci_u32_e64 v0, s0, s3, s4, s1", ""),  # three scalars
    ("v_sub_co_u32_e32 v0, vcc_lo, v1, v2", ""),
]


def _accepts(group, t):
    return {"gfx9": t.gen == 9, "rdna": t.gen >= 10, "gfx11+": t.gen >= 11, "": False}[group]


@pytest.mark.parametrize("line,group", SPELLINGS)
def test_spellings_match_llvm_mc(line, group):
    for name in ("gfx803", "gfx900", "gfx90a", "gfx1030", "gfx1100", "gfx1151", "gfx1200"):
        t = TARGETS[name]
        wave = 64 if t.gen < 10 else 32
        try:
            ins = parse_instr(line, Span("t", 1))
            OPS[ins.base].check(ins, t, wave)
            ok = True
        except InputError:
            ok = False
        assert ok == _accepts(group, t), (line, name)
