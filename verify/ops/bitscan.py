"""VALU bit scans: v_ffbl_b32 (the lowest set bit) and v_ffbh_u32 (the
leading zeros), each 0xffffffff for a zero source.  GFX11+ renamed them
v_ctz_i32_b32 / v_clz_i32_u32; llvm-mc-22 takes the old names on every
target, which verify spells.  [S:ffb]"""

from __future__ import annotations

from ..backend import Arith
from ..ir import Value
from .base import register
from .salu import _ff1
from .valu import Valu


def _ffbh(B: Arith, a: Value) -> Value:
    """The leading zeros of a (from bit 31 down to the highest set bit), 0xffffffff for 0."""
    res = B.const(0xFFFFFFFF)
    for k in range(32):  # the highest set bit last: it wins
        res = B.ite(B.bit(a, k), B.const(31 - k), res)
    return res


BITSCAN_OPS = [
    Valu("v_ffbl_b32", 1, lambda B, a: _ff1(B, a)),
    Valu("v_ffbh_u32", 1, _ffbh),
]

for _op in BITSCAN_OPS:
    register(_op)
