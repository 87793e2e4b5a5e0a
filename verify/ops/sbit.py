"""Scalar bit tests and the 16-bit scalar move: ``s_bitcmp0_b32``,
``s_bitcmp1_b32``, ``s_bitcmp0_b64``, ``s_bitcmp1_b64`` (SCC = whether bit
S1[4:0] (S1[5:0] for _b64) of S0 is 0, or 1) and ``s_movk_i32 sD, simm16``
(D = the sign-extended 16-bit constant).  [S:salu-bitcmp]"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..diag import InputError, Warning_
from ..ir import Imm, Instr, VReg
from ..target import Target
from .base import OpDef, register

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine


class Sbitcmp(OpDef):
    """s_bitcmp<0|1>_b<32|64> s0, s1: SCC = (S0 >> S1[4:0 or 5:0]) & 1 == value.  [S:salu-bitcmp]"""

    unit = "salu"
    arg_names = ("ssrc0", "ssrc1")

    def __init__(self, value: int, bits: int) -> None:
        self.value, self.bits = value, bits
        self.base = f"s_bitcmp{value}_b{bits}"
        self.sig = ("ssrc", "ssrc") if bits == 32 else ("ssrc64", "ssrc")

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        a, b = ins.operands
        assert not isinstance(a, VReg) and not isinstance(b, VReg)
        idx = m.scalar(b)
        if self.bits == 32:
            bit = B.and_(B.lshr(m.scalar(a), B.and_(idx, B.const(31))), B.const(1))
        else:
            lo, hi = m.scalar64(a)
            k = B.and_(idx, B.const(63))
            low = B.ult(k, B.const(32))
            word = B.ite(low, lo, hi)
            bit = B.and_(B.lshr(word, B.and_(k, B.const(31))), B.const(1))
        m.scc = B.eq(bit, B.const(self.value))

    def defs(self, ins: Instr) -> list[str]:
        return ["scc"]


class Smovk(OpDef):
    """s_movk_i32 sD, simm16: D = sign_extend(simm16).  [S:salu-bitcmp]"""

    unit = "salu"
    base = "s_movk_i32"
    sig = ("sdst", "ssrc")
    arg_names = ("sdst", "simm16")

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        src = ins.operands[1]
        if not isinstance(src, Imm) or not -0x8000 <= _signed(src.value) <= 0xFFFF:
            raise InputError(ins.operand_span(1), "s_movk_i32 takes a 16-bit constant")
        return []

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, src = ins.operands
        assert isinstance(src, Imm)
        v = src.value & 0xFFFF
        assert not isinstance(dst, (Imm, VReg))
        m.write_scalar(dst, m.B.const((v - 0x10000) & 0xFFFFFFFF if v & 0x8000 else v))


def _signed(v: int) -> int:
    """A 32-bit pattern as the signed number the text gave (literals keep their sign)."""
    return v - (1 << 32) if v >= 1 << 31 else v


for _op in (Sbitcmp(0, 32), Sbitcmp(1, 32), Sbitcmp(0, 64), Sbitcmp(1, 64), Smovk()):
    register(_op)
