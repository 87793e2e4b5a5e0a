"""s_add_f32 / s_sub_f32 (GFX11.5+, [S:salu-f32]) and v_cndmask_b16 (GFX11
true16, [S:cndmask16]): their values on concrete lanes, where they are
legal, and what is refused."""

import pytest
from helpers import simulate

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS


def check(line, tname, wave=32):
    ins = parse_instr(line, Span("t", 1))
    return OPS[ins.base].check(ins, TARGETS[tname], wave)


def test_salu_f32_values_and_scc_kept():
    m = simulate(["s_cmp_eq_u32 s5, s5", "s_add_f32 s0, s1, s2", "s_sub_f32 s3, s1, s2"], "gfx1200", 32, 0xFFFFFFFF,
                 {"s1": 0x3FC00000, "s2": 0x40100000})  # 1.5, 2.25
    assert m.s("s0") == 0x40700000 and m.s("s3") == 0xBF400000  # 3.75, -0.75
    assert m.scc is True  # not written by the float ops


@pytest.mark.parametrize("tname,legal", [("gfx1100", False), ("gfx1150", True), ("gfx1200", True), ("gfx942", False)])
def test_salu_f32_targets(tname, legal):
    if legal:
        check("s_add_f32 s0, 1.0, s2", tname)
    else:
        with pytest.raises(InputError, match=f"s_add_f32 is not available on {tname}"):
            check("s_add_f32 s0, 1.0, s2", tname)


def test_cndmask16_selects_a_half_and_keeps_the_other():
    m = simulate(["v_cndmask_b16 v0.h, v1.l, v2.h, s0"], "gfx1100", 32, 0xFFFFFFFD,
                 {"v0": 0x11112222, "v1": 0xAAAABBBB, "v2": 0xCCCCDDDD, "s0": 0x6})
    got = m.v(0)
    assert got[0] == 0xBBBB2222  # mask bit 0 clear: src0's low half into the high half
    assert got[1] == 0x11112222  # inactive: kept
    assert got[2] == 0xCCCC2222  # mask bit 2 set: src1's high half


@pytest.mark.parametrize("line,tname,msg", [
    ("v_cndmask_b16_e32 v0.l, v1.l, v2.l, vcc_lo", "gfx1100", "unknown mnemonic"),
    ("v_cndmask_b16 v0.l, v1.l, v2.l, s0", "gfx1200", "not available on gfx1200"),
    ("v_cndmask_b16 v0.l, v1.l, 1.0, s0", "gfx1100", "a float constant in v_cndmask_b16 is not modelled"),
])
def test_cndmask16_refusals(line, tname, msg):
    with pytest.raises(InputError, match=msg):
        check(line, tname)
