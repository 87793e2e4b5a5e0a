"""GFX12's 64-bit scalar multiply ``s_mul_u64 sD[2], S0[2], S1[2]``: the low
64 bits of the product, built from 32-bit pieces as the GPU's older
scalar code does (``s_mul_i32`` of the low halves; ``s_mul_hi_u32`` of the
low halves plus the two cross products in the high half), so the terms
meet those of the 32-bit sequence.  SCC is not written.  LLVM's atomic
optimizer emits it on GFX12 for an i64 add of a uniform value (the value
times the active-lane count).  [S:s-mul-u64]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..backend import Arith, Value
from .addr import mul_hi_u32
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
