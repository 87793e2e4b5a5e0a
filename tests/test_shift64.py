"""64-bit shifts (v_lshlrev_b64, v_lshrrev_b64) and the lane-mask
lowerings that use them, emitted as LLVM IR: what the machine computes,
which spellings the assembler takes, and LLVM's code for the emitted IR
proved again.  [S:addr] [S:emit-masks]"""

import pytest
from helpers import simulate

from verify import catalog, emit
from verify import target as T
from verify.diag import InputError, Span
from verify.lowering_file import load_lowering, parse_instr
from verify.ops import OPS

FULL = (1 << 64) - 1
X = 0x8000_0001_4000_0003  # distinct bits in both halves


def _run(line: str, amounts: list[int]) -> list[int]:
    regs = {"v0": amounts + [0] * (64 - len(amounts)), "v4": X & 0xFFFFFFFF, "v5": X >> 32}
    m = simulate([line], "gfx900", 64, FULL, regs)
    return [m.vregs[2][i] | m.vregs[3][i] << 32 for i in range(len(amounts))]


AMOUNTS = [0, 1, 31, 32, 33, 63, 64, 65, 0xFFFFFFFF]  # only S0[5:0] counts


def test_shift_left_and_right_by_the_low_six_bits():
    assert _run("v_lshlrev_b64 v[2:3], v0, v[4:5]", AMOUNTS) == [(X << (n & 63)) & FULL for n in AMOUNTS]
    assert _run("v_lshrrev_b64 v[2:3], v0, v[4:5]", AMOUNTS) == [X >> (n & 63) for n in AMOUNTS]


# pinned from llvm-mc-22 on gfx900, gfx1100 and gfx1200: VOP3 only, one scalar value
@pytest.mark.parametrize("line, ok", [
    ("v_lshrrev_b64 v[0:1], v2, v[4:5]", True),
    ("v_lshrrev_b64 v[0:1], 33, v[4:5]", True),
    ("v_lshrrev_b64_e32 v[0:1], v2, v[4:5]", False),
    ("v_lshrrev_b64 v[0:1], s2, s[4:5]", False),
])
def test_lshrrev_spellings_match_llvm_mc(line, ok):
    for name in ("gfx900", "gfx1100", "gfx1200"):
        t = T.TARGETS[name]
        try:
            ins = parse_instr(line, Span("t", 1))
            OPS[ins.base].check(ins, t, 64 if t.gen < 10 else 32)
            got = True
        except InputError:
            got = False
        assert got == ok, (line, name)


@pytest.mark.slow  # over 5 s: the fast tier stays near 2 minutes
@pytest.mark.parametrize("name, target, wave, needles", [
    # 1 << id as a 64-bit shift on the halves; two outputs: a struct
    ("lanemask_eq_gfx9", "gfx942", 64, ["define {i32, i32} @", "shl i32 1,", "insertvalue {i32, i32}"]),
    # -(1 << id): a subtract with a borrow-out (v_sub_co_u32), the borrow an i1
    ("lanemask_ge_gfx9", "gfx900", 64, ["sub i32 0,", "icmp ult i32 0,"]),
])
def test_lane_mask_lowerings_emit_and_llvm_code_proves(name, target, wave, needles):
    low = load_lowering(next(p for p in catalog.lowering_files() if p.stem == name))
    t = T.TARGETS[target]
    ir = emit.llvm_ir(low, t, wave, [])
    for n in needles:
        assert n in ir, (n, ir)
    assert emit.reverify(ir, low, t, wave).verdict == "proved"
