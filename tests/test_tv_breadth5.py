"""breadth5: initial memory's 64-bit addresses met by proof
([S:tv-address-meet], verify/tv/addrmeet.py): the IR's getelementptr and
GFX8's v_add_u32/v_addc_u32 carry spelled two ways read one unknown; two
addresses that can differ never do; and a mutant of LLVM's address
arithmetic is refuted."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import LLC, llc_asm, mutate, tv_on_asm

from verify import smt
from verify.tv.addrmeet import AddressMeet

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"


def _carry_spellings(B):
    base_lo, base_hi, i = B.fresh("in.lo"), B.fresh("in.hi"), B.fresh("i")
    off = B.shl(i, B.const(3))
    lo = B.add(base_lo, off)
    ir_hi = B.add(base_hi, B.bool_value(B.ult(lo, off)))  # the IR's: the sum below the scaled index
    gpu_hi = B.add(base_hi, B.bool_value(B.ult(lo, base_lo)))  # GFX8's v_addc: below the base
    return lo, ir_hi, gpu_hi, base_hi


def test_two_spellings_of_one_carry_read_one_address():
    B = smt.Z3()
    lo, ir_hi, gpu_hi, _ = _carry_spellings(B)
    meet = AddressMeet(B)
    a = meet.meet(lo, ir_hi)
    b = meet.meet(lo, gpu_hi)
    assert not B.same(B.canonical(ir_hi), B.canonical(gpu_hi))  # the normal form alone keeps them apart
    assert B.same(a[0], b[0]) and B.same(a[1], b[1])
    assert (meet.asked, meet.met) == (1, 1)


def test_addresses_that_can_differ_are_kept_apart():
    B = smt.Z3()
    lo, ir_hi, _, base_hi = _carry_spellings(B)
    meet = AddressMeet(B)
    a = meet.meet(lo, ir_hi)
    b = meet.meet(lo, base_hi)  # the carry lost: another address where the low sum wraps
    c = meet.meet(lo, B.add(ir_hi, B.const(1)))
    assert not B.same(a[1], b[1]) and not B.same(a[1], c[1]) and not B.same(b[1], c[1])
    assert meet.met == 0


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_gfx8_lost_carry_into_the_high_half_is_refuted(tmp_path):
    """LLVM's gfx803 code for `load <2 x i32>` at `%in + sext(%i) * 8` with
    v_addc_u32 made a v_add_u32 (the low half's carry lost) is refuted."""
    src = SHAPE / "breadth5_addrmeet.ll"
    # (LLVM's own code proved: the corpus tier, breadth5_addrmeet.ll's EXPECT lines)
    asm = mutate(llc_asm(src, "fiji", "-O2"), "v_addc_u32_e32 v3, vcc, v3, v5, vcc", "v_add_u32_e32 v3, vcc, v3, v5",
                 function="load_pair_index")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx803", "--function", "load_pair_index")
    assert (code, r["verdict"]) == (1, "refuted"), r["notes"]


KB = SHAPE / "breadth5_knownbits.ll"


def _fn(name: str):
    pytest.importorskip("llvmlite")
    from verify.tv.llir import read_module

    mod = read_module(str(KB), KB.read_text())
    fn = next(f for f in mod.functions if f.name == name)
    return {i.key: i for i in fn.insts}, next(i for i in fn.insts if i.opcode == "and")


@pytest.mark.parametrize("name, bound, drops", [
    ("mbcnt_lo_mask127", 47, True),  # 15 + 32
    ("mbcnt_hi_mask63", 47, True),
    ("mbcnt_lo_hi_mask127", 64, True),  # (0 + 32) + 32
    ("mbcnt_lo_96_mask127", 128, False),  # 96 + 32 does not fit in 127
])
def test_mbcnt_bounds_and_the_masks_they_drop(name, bound, drops):
    from verify.tv import knownbits

    defs, and_ = _fn(name)
    other = next(o for o in and_.operands if o.kind == "ref")
    assert knownbits.upper_bound(defs, other) == bound
    assert (knownbits.mask_is_identity(defs, and_) is not None) == drops


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_the_masked_count_against_another_base_is_refuted(tmp_path):
    """LLVM's bare `v_mbcnt_lo_u32_b32 v0, v0, 15` for `and (mbcnt.lo(%x,
    15)), 127` (the mask left out) with the base 16 is refuted.  (A dropped mask that can clear a bit, base 96, is kept:
    test_mbcnt_bounds_and_the_masks_they_drop; its GPU mutant asks the
    popcount's bound of the solver and is not decided within the budget.)"""
    # (LLVM's own code proved: the corpus tier, breadth5_knownbits.ll's EXPECT lines)
    old = "v_mbcnt_lo_u32_b32 v0, v0, 15"
    asm = mutate(llc_asm(KB, "gfx900", "-O2"), old, old[:-2] + "16", function="mbcnt_lo_mask127")
    code, r = tv_on_asm(tmp_path, KB, asm, "gfx900", "--function", "mbcnt_lo_mask127")
    assert (code, r["verdict"]) == (1, "refuted"), r["notes"]
