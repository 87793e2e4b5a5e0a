"""VALU bit scans: v_ffbl_b32 (the lowest set bit) and v_ffbh_u32 (the
leading zeros), each 0xffffffff for a zero source.  GFX11+ renamed them
v_ctz_i32_b32 / v_clz_i32_u32; llvm-mc-22 takes the old names on every
target, which verify spells, and the new ones from GFX11 (LLVM prints
them; verify reads them there).  [S:ffb] [S:ffb-emit]"""

from __future__ import annotations

from typing import Any

from ..backend import Arith
from ..ir import Value
from .base import LaneFn, register
from .salu import _ff1
from .valu import Valu


def _ffbh(B: Arith, a: Value) -> Value:
    """The leading zeros of a (from bit 31 down to the highest set bit), 0xffffffff for 0."""
    res = B.const(0xFFFFFFFF)
    for k in range(32):  # the highest set bit last: it wins
        res = B.ite(B.bit(a, k), B.const(31 - k), res)
    return res


def _spell(intrinsic: str, hip: str) -> LaneFn:
    """How verify emit writes the scan: LLVM's llvm.cttz/ctlz.i32 with
    is_zero_poison false (32 for a zero source) under a select that gives
    0xffffffff for zero, the pattern LLVM's AMDGPU combine turns into the one
    instruction (HIP: __builtin_ctz/__builtin_clz, guarded the same way).
    [S:ffb] [S:ffb-emit] [S:ir-cttz]"""

    def spell(E: Any, a: Value) -> Value:
        n = (E.call(intrinsic, hip, [a, False], imm=(1,)) if E.fmt != "HIP" else E.call(intrinsic, hip, [a]))
        return E.ite(E.eq(a, 0), 0xFFFFFFFF, n)
    return spell


class BitScan(Valu):
    """v_ffbl_b32 / v_ffbh_u32, also under their GFX11+ names (which LLVM
    prints there, and verify reads back from compiled code).  [S:ffb-emit]"""

    def __init__(self, base: str, alt: str, fn: LaneFn, spell: LaneFn):
        super().__init__(base, 1, fn, spell=spell)
        self.alt = alt
        self.alias_features = {alt + suf: "valu_gfx11_names" for suf in self.encs}

    def mnemonics(self) -> dict[str, str]:
        return {**super().mnemonics(), **{self.alt + suf: enc for suf, enc in self.encs.items()}}


BITSCAN_OPS = [
    BitScan("v_ffbl_b32", "v_ctz_i32_b32", lambda B, a: _ff1(B, a), _spell("llvm.cttz.i32", "__builtin_ctz")),
    BitScan("v_ffbh_u32", "v_clz_i32_u32", _ffbh, _spell("llvm.ctlz.i32", "__builtin_clz")),
]

for _op in BITSCAN_OPS:
    register(_op)
