"""64-bit arithmetic shifts and the GFX12 spelling of the 64-bit multiply-add:
``v_ashrrev_i64`` (VOP3, every generation verify targets), ``s_ashr_i64``,
``v_mad_co_u64_u32`` (GFX12's name of ``v_mad_u64_u32``, the same
encoding), the forms llc-22 gives IR `ashr i64` and `mul i64`.  [S:arith64]"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..backend import Arith, Value
from ..ir import Instr, SReg
from .addr import MadU64, Shift64Scalar, ShiftRight64
from .base import register

if TYPE_CHECKING:
    from ..machine import Machine


def ashr64(B: Arith, lo: Value, hi: Value, n: Value) -> tuple[Value, Value]:
    """(lo, hi) >> n[5:0], arithmetic (the sign bit fills).  [S:arith64]

    >>> from verify.backend import Concrete
    >>> B = Concrete()
    >>> [tuple(map(hex, ashr64(B, 0x2, 0x80000001, n))) for n in (0, 1, 32, 63, 64 + 4)]
    [('0x2', '0x80000001'), ('0x80000001', '0xc0000000'), ('0x80000001', '0xffffffff'), \
('0xffffffff', '0xffffffff'), ('0x10000000', '0xf8000000')]
    >>> tuple(map(hex, ashr64(B, 0x0, 0x40000000, 62)))
    ('0x1', '0x0')
    """
    k = B.and_(n, B.const(63))
    small = B.ult(k, B.const(32))
    sign = B.ashr(hi, B.const(31))
    # (k = 0: the backends' shift by 32 gives 0, so nothing of hi reaches lo)
    lo_s = B.or_(B.lshr(lo, k), B.shl(hi, B.sub(B.const(32), k)))
    big = B.ashr(hi, B.and_(B.sub(k, B.const(32)), B.const(31)))
    return B.ite(small, lo_s, big), B.ite(small, B.ashr(hi, k), sign)


class ShiftArith64(ShiftRight64):
    """``v_ashrrev_i64 vD[2], s0, s1[2]``: D = S1 >> S0[5:0] (64-bit,
    arithmetic), per active lane; VOP3 only, one scalar value at most.  [S:arith64]"""

    base = "v_ashrrev_i64"

    @staticmethod
    def shift(B: Arith, lo: Value, hi: Value, n: Value) -> tuple[Value, Value]:
        return ashr64(B, lo, hi, n)


class Shift64ScalarArith(Shift64Scalar):
    """``s_ashr_i64 sD[2], s0[2], s1``: a 64-bit arithmetic shift by
    S1[5:0]; SCC = result != 0.  [S:arith64]"""

    def __init__(self) -> None:
        super().__init__("s_ashr_i64", False)

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a, b = ins.operands
        lo, hi = m.scalar64(a)
        rlo, rhi = ashr64(B, lo, hi, m.scalar(b))
        m.write_scalar64(dst, rlo, rhi)
        m.scc = B.or_b(B.ne(rlo, B.const(0)), B.ne(rhi, B.const(0)))

    def emit(self, ins: Instr, E: Any) -> None:
        dst, a, b = ins.operands
        lo, hi = E.get_pair(a)
        rlo, rhi = ashr64(E, lo, hi, E.get(b))
        E.set(SReg((dst.names[0],)), rlo)
        E.set(SReg((dst.names[1],)), rhi)
        E.set_scc(E.or_b(E.ne(rlo, 0), E.ne(rhi, 0)))


class MadCoU64(MadU64):
    """``v_mad_co_u64_u32 vD[2], sD, s0, s1, s2[2]``: GFX12's name of
    v_mad_u64_u32 (llvm-mc-22 gives both one encoding on gfx1200 and
    refuses this one before GFX12).  [S:arith64] [S:addr]"""

    def __init__(self) -> None:
        super().__init__()
        self.base = "v_mad_co_u64_u32"
        self.feature = "mad_co_u64"


for _op in (ShiftArith64(), Shift64ScalarArith(), MadCoU64()):
    register(_op)
