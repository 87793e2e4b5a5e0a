"""f32 -> f64 widening: ``v_cvt_f64_f32 vD[2], S`` (VOP1 / VOP3) and, through
:func:`f32_to_f64`, the IR's ``fpext float to double`` (verify/tv/floatsem.py):
the one semantics both sides run.  [S:cvt-f64-f32]

A binary32 value is exactly a binary64 value (every f32, subnormals
included, is a normal f64 or a zero), so the conversion is exact: the sign
kept, the exponent rebiased by 1023 - 127, the 23-bit fraction the top of
the 52-bit one; an f32 subnormal f * 2^-149 (f < 2^23) is normalised by the
position p of f's top bit (exponent p + 874, the bits below p the top of
the fraction).  Infinities stay infinities; a NaN becomes binary64's quiet
NaN 0x7FF8000000000000, verify's rule for every float result that is a
NaN ([S:half-arith]).  f32 subnormal inputs are flushed to a signed zero
first where `f32.denormals` is flush.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..backend import Backend, Value
from ..ir import Imm, Instr
from .base import OpDef, register
from .valu import _ftz

if TYPE_CHECKING:
    from ..machine import Machine

QNAN64_HI = 0x7FF80000


def f32_to_f64(B: Backend, x: Value) -> tuple[Value, Value]:
    """The binary64 value of the binary32 bits `x`, as (low dword, high
    dword)."""
    c = B.const
    sign = B.and_(x, c(0x80000000))
    exp = B.and_(B.lshr(x, c(23)), c(0xFF))
    frac = B.and_(x, c(0x7FFFFF))
    # a normal number: exponent + 896, fraction bits 22..3 into the high dword, 2..0 to the top of the low one
    n_hi = B.or_(sign, B.or_(B.shl(B.add(exp, c(896)), c(20)), B.lshr(frac, c(3))))
    n_lo = B.shl(frac, c(29))
    # a subnormal: its top bit p (22 down to 0) sets the exponent; the bits below it are the fraction
    s_hi: Value = sign
    s_lo: Value = c(0)
    for p in range(23):  # (the highest set bit wins: built from the lowest up, each higher one overriding)
        rest = B.and_(frac, c((1 << p) - 1))
        hi = B.or_(sign, B.or_(c((p + 874) << 20), B.shl(rest, c(20 - p)) if p <= 20 else B.lshr(rest, c(p - 20))))
        lo = c(0) if p <= 20 else B.shl(rest, c(52 - p))
        top = B.ne(B.and_(frac, c(1 << p)), c(0))
        s_hi, s_lo = B.ite(top, hi, s_hi), B.ite(top, lo, s_lo)
    zero = B.eq(exp, c(0))
    special = B.eq(exp, c(0xFF))
    nan = B.and_b(special, B.ne(frac, c(0)))
    hi = B.ite(zero, s_hi, B.ite(special, B.ite(nan, c(QNAN64_HI), B.or_(sign, c(0x7FF00000))), n_hi))
    lo = B.ite(zero, s_lo, B.ite(special, c(0), n_lo))
    return lo, hi


class CvtF64F32(OpDef):
    """``v_cvt_f64_f32 vD[2], S``: D = (double) S per active lane, exact
    (:func:`f32_to_f64`); VOP1 (_e32) and VOP3 (_e64, without source
    modifiers), on every target verify models (llvm-mc-22).  [S:cvt-f64-f32]"""

    base = "v_cvt_f64_f32"
    unit = "valu"
    sig = ("vdst64", "src")
    arg_names = ("vdst", "src0")
    encs = {"": "", "_e32": "e32", "_e64": "e64"}
    valu_constants = True

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, src = ins.operands
        xs = [B.const(src.value)] * m.W if isinstance(src, Imm) else m.read(src)
        flush = m.assume("f32.denormals") == "flush"
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        los, his = [], []
        for x, e in zip(xs, en):
            if e is False:  # not written: not computed
                los.append(0)
                his.append(0)
                continue
            lo, hi = f32_to_f64(B, _ftz(B, x) if flush else x)
            los.append(lo)
            his.append(hi)
        m.write_v(dst.index, los, en)
        m.write_v(dst.index + 1, his, en)


register(CvtF64F32())
