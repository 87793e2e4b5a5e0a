"""GFX12's 64-bit scalar multiply ``s_mul_u64 sD[2], S0[2], S1[2]``: the low
64 bits of the product, built from 32-bit pieces as the GPU's older
scalar code does (``s_mul_i32`` of the low halves; ``s_mul_hi_u32`` of the
low halves plus the two cross products in the high half), so the terms
meet those of the 32-bit sequence.  SCC is not written.  LLVM's atomic
optimizer emits it on GFX12 for an i64 add of a uniform value (the value
times the active-lane count).  [S:s-mul-u64]

And GFX12's 64-bit scalar add and subtract without a carry out,
``s_add_nc_u64``/``s_sub_nc_u64 sD[2], S0[2], S1[2]``: D = S0 +/- S1 mod
2^64, SCC not written; built as the ``s_add_u32``/``s_addc_u32`` pair
computes the halves (the low half's carry added to the high one), so the
terms meet those of the 32-bit sequence.  [S:s-add-nc-u64]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..backend import Arith, Backend, Value
from .addr import add_carry, mul_hi_u32
from .base import OpDef, register

if TYPE_CHECKING:
    from ..ir import Instr
    from ..machine import Machine


def mul_u64(B: Arith, al: Value, ah: Value, bl: Value, bh: Value) -> tuple[Value, Value]:
    """The low 64 bits of (ah:al) * (bh:bl) as (lo, hi)."""
    lo = B.mul(al, bl)
    hi = B.add(mul_hi_u32(B, al, bl), B.add(B.mul(al, bh), B.mul(ah, bl)))
    return lo, hi


class SMulU64(OpDef):
    """s_mul_u64 sD[2], S0[2], S1[2]  [S:s-mul-u64]"""

    base = "s_mul_u64"
    unit = "salu"
    sig = ("sdst64", "ssrc64", "ssrc64")
    arg_names = ("sdst", "ssrc0", "ssrc1")
    # a feature of its own: llvm-mc-22 accepts it on gfx1200 and gfx1250, not gfx1100/gfx950  [S:s-mul-u64]
    feature = "s_mul_u64"

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, a, b = ins.operands
        (al, ah), (bl, bh) = m.scalar64(a), m.scalar64(b)
        m.write_scalar64(dst, *mul_u64(m.B, al, ah, bl, bh))


register(SMulU64())


def add_u64(B: Backend, al: Value, ah: Value, bl: Value, bh: Value, sub: bool) -> tuple[Value, Value]:
    """(ah:al) + (bh:bl) (sub: minus) mod 2^64 as (lo, hi): the low half's
    carry (borrow) into the high half, as s_addc_u32 (s_subb_u32) takes it."""
    if sub:
        lo = B.sub(al, bl)
        return lo, B.sub(B.sub(ah, bh), B.ite(B.ult(al, bl), B.const(1), B.const(0)))
    lo, carry = add_carry(B, al, bl)
    hi, _ = add_carry(B, ah, bh, carry)
    return lo, hi


class SAddNcU64(OpDef):
    """s_add_nc_u64 / s_sub_nc_u64 sD[2], S0[2], S1[2]  [S:s-add-nc-u64]"""

    unit = "salu"
    sig = ("sdst64", "ssrc64", "ssrc64")
    arg_names = ("sdst", "ssrc0", "ssrc1")
    # the targets of s_mul_u64: llvm-mc-22 accepts both on gfx1200 and gfx1250, not gfx1100/gfx950  [S:s-add-nc-u64]
    feature = "s_mul_u64"

    def __init__(self, base: str, sub: bool) -> None:
        self.base, self.sub = base, sub

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, a, b = ins.operands
        (al, ah), (bl, bh) = m.scalar64(a), m.scalar64(b)
        m.write_scalar64(dst, *add_u64(m.B, al, ah, bl, bh, self.sub))


register(SAddNcU64("s_add_nc_u64", False))
register(SAddNcU64("s_sub_nc_u64", True))
