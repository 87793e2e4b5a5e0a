"""Issue #33 (round cuda2): the spec notation's constants on 64-bit lanes,
and verify emit's spelling of the bit scans (v_ffbl_b32 / v_ffbh_u32) as
llvm.cttz / llvm.ctlz under a select, with verify tv reading both."""

from __future__ import annotations

import pytest

from verify.backend import Concrete
from verify.diag import InputError
from verify.spec import SpecLib
from verify.wide import join

WIDE = '''
spec t.sh():
    lanes = 2
    type u64
    out = x[i] + (1 << 31)

spec t.lit():
    lanes = 2
    type i64
    k = 0xffffffff
    out = x[i] & k

spec t.neg():
    lanes = 2
    type u64
    out = x[i] + (0 - 1) + (1 << 30)

spec t.narrow():
    lanes = 2
    out = x[i] + (1 << 31)
'''


def ev(name: str, x: list[int]) -> list[int]:
    r = SpecLib.from_text(WIDE, "w.spec").evaluate(name, {}, Concrete(), 2, {"x": x}, [True, True])["out"]
    return [join(v) for v in r[0]]


def test_a_wrapped_constant_on_64_bit_lanes_is_an_error_at_its_line():
    """1 << 31 on u64 lanes: 0x80000000 or 0xffffffff80000000?  The notation's
    constants are 32-bit; the widening of one that wrapped is not defined."""
    with pytest.raises(InputError) as e:
        ev("t.sh", [0, 0])
    assert str(e.value).startswith("w.spec:5:")
    assert "the constant 0x80000000 does not fit a signed 32-bit value" in str(e.value)
    assert "by sign (0xffffffff80000000) or by zero (0x80000000)" in str(e.value)
    with pytest.raises(InputError, match=r"^w\.spec:10:.*the constant 0xffffffff does not fit"):
        ev("t.lit", [0, 0])


def test_constants_in_range_widen_by_sign_and_32_bit_specs_wrap():
    assert ev("t.neg", [(5 << 32) | 1, 0]) == [((5 << 32) | 1) - 1 + (1 << 30), (1 << 30) - 1]
    assert ev("t.narrow", [1, 0x80000000]) == [0x80000001, 0]


@pytest.mark.parametrize("name, target, wave, needles", [
    ("fns_next_gcn", "gfx900", 64, ["call i32 @llvm.cttz.i32(i32 %", ", i1 false)", "select i1 %cond, i32 -1, i32 %"]),
    ("fns_prev_rdna", "gfx1100", 32, ["call i32 @llvm.ctlz.i32(i32 %", ", i1 false)", "select i1 %cond, i32 -1, i32 %"]),
])
def test_bit_scans_are_spelled(name, target, wave, needles):
    """v_ffbl_b32 / v_ffbh_u32 as llvm.cttz / llvm.ctlz (32 for 0) under a
    select giving 0xffffffff for 0 [S:ffb] (the slow tier's closed loop
    compiles them and proves LLVM's code, on GFX11 printed v_clz_i32_u32)."""
    from verify import catalog, emit
    from verify import target as T
    from verify.lowering_file import load_lowering
    low = load_lowering(next(p for p in catalog.lowering_files() if p.stem == name))
    ir = emit.llvm_ir(low, T.TARGETS[target], wave, [])
    for n in needles:
        assert n in ir, (n, ir)


def test_gfx11_bit_scan_names_are_refused_before_gfx11():
    from verify import target as T
    from verify.diag import Span
    from verify.lowering_file import parse_instr
    from verify.ops.base import op_of
    ins = parse_instr("v_ctz_i32_b32_e32 v3, v4", Span("<t>", 1, 1))
    assert ins.base == "v_ffbl_b32"
    op_of(ins.base).check(ins, T.TARGETS["gfx1100"], 32)
    with pytest.raises(InputError, match="the spelling v_ctz_i32_b32_e32 is not available on gfx1030: GFX11"):
        op_of(ins.base).check(ins, T.TARGETS["gfx1030"], 32)
