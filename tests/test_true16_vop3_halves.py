"""True16 halves in the VOP3 form of a 16-bit op that GFX8/GFX9 also had as
VOP2 (v_max/min_u16/i16, the 16-bit shifts: sdwa.Alu16Vop3), as LLVM 22
emits them on GFX11 (`v_max_u16 v0.l, v0.l, s12` in the atomic optimizer's
umax of an i8): the named halves read and written, the other half of D kept,
an SGPR source's bits 15:0 read  [S:true16-vop3-halves]."""

from __future__ import annotations

import pytest
from helpers import simulate

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import get


def lanes(*vals: int) -> list[int]:
    return list(vals) + [0] * (32 - len(vals))


def test_max_u16_on_halves_with_an_sgpr_source() -> None:
    m = simulate(["v_max_u16 v0.l, v0.l, s12", "v_max_u16 v1.h, v2.l, v2.h", "v_max_i16 v3.l, v3.h, v3.l"],
                 "gfx1100", 32, 0b11, {"v0": lanes(0xABCD0005, 0x1234FFFF), "s12": 0x77770009,
                                       "v2": lanes(0x00090003, 0x80000001), "v1": 0x11112222,
                                       "v3": lanes(0xFFFF0001, 0x0002FFFE)})
    assert [m.v(0)[i] for i in range(2)] == [0xABCD0009, 0x1234FFFF]  # max(5, 9), max(0xffff, 9); high half kept
    assert [m.v(1)[i] for i in range(2)] == [0x00092222, 0x80002222]  # into v1.h: max(3, 9), max(1, 0x8000)
    assert [m.v(3)[i] for i in range(2)] == [0xFFFF0001, 0x00020002]  # signed: max(-1, 1), max(2, -2)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_concrete_and_symbolic_agree(wave: int, seed: int) -> None:
    from test_semantics_agree import assert_agree

    assert_agree(["v_max_u16 v0.h, v1.l, s2", "v_min_i16 v1.l, v0.h, v1.h", "v_lshlrev_b16 v2.h, v1.l, v0.l",
                  "v_max_i16 v3.l, 5, v2.h"], get("gfx1100"), wave, seed)


@pytest.mark.parametrize("target, refused", [("gfx1030", True), ("gfx900", True), ("gfx1100", False), ("gfx1200", True)])
def test_halves_need_true16(target: str, refused: bool) -> None:
    """gfx1200's row has true16 halves only under -mattr=+real-true16 ([S:true16-mattr])."""
    ins = parse_instr("v_max_u16 v0.l, v0.l, s12", Span("t", 1))
    try:
        OPS[ins.base].check(ins, get(target), 32)
    except InputError:
        assert refused
    else:
        assert not refused
