"""More binary16 ops: the f16 NEG/ABS source modifiers of the VOP3 forms,
conversions between 16-bit integers and binary16, ``v_pk_fma_f16``,
GFX12's ``v_minimum_f16``/``v_maximum_f16`` and GFX11's 16-bit bitwise ops.

* NEG/ABS on an f16 source (``-|v0.l|``, ``|v1|``) in the VOP3 (_e64)
  form of ``v_add/sub/mul/min/max_f16``, ``v_fma_f16``, ``v_cmp_*_f16``,
  ``v_cvt_f32_f16`` and the conversions below: ABS clears bit 15, NEG then
  flips it, on the 16 bits the op reads (on an f32 source, bit 31).
  [S:half2-srcmods]
* ``v_cvt_f16_i16``/``v_cvt_f16_u16`` (exact integer, rounded once to
  nearest even) and ``v_cvt_i16_f16``/``v_cvt_u16_f16`` (toward zero, out
  of range saturated, NaN 0), VOP1/VOP3, true16 halves on GFX11.
  [S:half2-cvt-int]
* ``v_pk_fma_f16 vD, S0, S1, S2 [op_sel:[a,b,c]] [op_sel_hi:[d,e,f]]``:
  ``v_fma_f16`` on both halves.  [S:half2-pk-fma]
* ``v_minimum_f16``/``v_maximum_f16`` (GFX12, VOP3): IEEE-754-2019
  minimum/maximum, a NaN operand gives a NaN.  [S:half2-minimum]
* ``v_and_b16``/``v_or_b16``/``v_xor_b16`` (GFX11+, VOP3): 16-bit bitwise,
  true16 halves on GFX11.  [S:half2-b16]

The lane functions here are also verify tv's IR semantics of ``sitofp``/
``uitofp``/``fptosi``/``fptoui`` between integers and half
(verify/tv/halfsem.py).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ..backend import Backend, Cond, Value
from ..diag import InputError
from ..ir import Instr, VHalf, VReg
from ..syntax import Line, operand_text
from . import vfloat as V
from .base import LaneFn, OpDef, register
from .mods16 import modified, mods_of, pk_mods, pk_run, print_mods, srcmod, strip_mods, with_mods
from .packed16 import Alu16, _strip_halves
from .valu import Valu
from .vhalf import _flush16, _read16, _write16, cvt, f16_fn, fminimum, ftz

if TYPE_CHECKING:
    from ..machine import Machine
    from ..target import Target

M16 = 0xFFFF


# ---- integers <-> binary16 -----------------------------------------------------

def sext16(B: Backend, x: Value) -> Value:
    return B.ashr(B.shl(x, B.const(16)), B.const(16))


def int_to_f16(B: Backend, x: Value, signed: bool, bits: int = 16) -> Value:
    """A 16- or 32-bit integer rounded once to binary16, nearest even.  It
    goes through binary32: exact for |x| <= 2^24, and a larger magnitude
    rounds in binary32 to at least 2^24, which binary16 rounds to infinity
    as the exact value would (binary16's largest finite is 65504), so the
    result is the once-rounded one for every input.  [S:half2-cvt-int]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [hex(int_to_f16(C, x, s)) for x, s in ((0xFFFF, True), (0xFFFF, False), (2049, False), (2051, True))]
    ['0xbc00', '0x7c00', '0x6800', '0x6802']
    """
    if bits == 16:
        v = sext16(B, x) if signed else B.and_(x, B.const(M16))
        return cvt(B, V.i32_to_f32(B, v), "f32", "f16")
    return cvt(B, (V.i32_to_f32 if signed else V.u32_to_f32)(B, x), "f32", "f16")


def f16_to_int(B: Backend, x: Value, signed: bool, bits: int = 16) -> tuple[Value, Cond]:
    """(x rounded toward zero, whether that fits the `bits`-bit integer
    type): binary16 widens to binary32 exactly.  Where it does not fit the
    value saturates and NaN gives 0 (bits 15:0 for 16 bits).  [S:half2-cvt-int]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [(hex(v), f) for v, f in (f16_to_int(C, x, True) for x in (0xC0CD, 0x7800, 0x7E00))]  # -2.4004, 32768, NaN
    [('0xfffe', True), ('0x7fff', False), ('0x0', False)]
    """
    f = cvt(B, x, "f16", "f32")
    if signed:
        r, fits = V.f32_to_i32(B, f), V.f32_fits_i32(B, f)
    else:
        r, fits = V.f32_to_u32(B, f), V.f32_fits_u32(B, f)
    if bits == 32:
        return r, fits
    if signed:
        c = B.smax(B.smin(r, B.const(0x7FFF)), B.const(0xFFFF8000))
        return B.and_(c, B.const(M16)), B.and_b(fits, B.eq(c, r))
    return B.umin(r, B.const(M16)), B.and_b(fits, B.ult(r, B.const(0x10000)))


def _halves(ins: Instr, hs: list[bool | None], line: Line) -> Instr:
    if any(h is not None for h in hs):
        if any(h is None and isinstance(o, VReg) for h, o in zip(hs, ins.operands)):
            raise InputError(line.span, f"{line.mnemonic} with 16-bit halves names every VGPR operand's half")
        ops = tuple(VHalf(o.index, 1, bool(h)) if h is not None else o for h, o in zip(hs, ins.operands))
        ins = dataclasses.replace(ins, operands=ops)
    return ins


class CvtInt16(Valu):
    """v_cvt_f16_i16/u16 vD, S (16-bit integer to binary16) and
    v_cvt_i16/u16_f16 vD, S (binary16 to a 16-bit integer), VOP1 and VOP3
    (NEG/ABS on an f16 source), true16 halves on GFX11.  [S:half2-cvt-int]"""

    def __init__(self, base: str, to_float: bool, signed: bool):
        super().__init__(base, 1, None, None, dpp_ok=False)
        self.to_float, self.signed = to_float, signed

    def parse(self, line: Line, enc: str) -> Instr:
        mods: tuple[tuple[int, ...], tuple[int, ...]] = ((0,), (0,))
        if not self.to_float:
            line, n, a = strip_mods(line, enc, (1,))
            mods = (n, a)
        plain, hs = _strip_halves(line)
        ins = _halves(super().parse(plain, enc), hs, line)
        return with_mods(ins, *mods)

    def print(self, ins: Instr, target: Target | None = None) -> str:
        return print_mods(self, ins, target, (1,))

    def check_op(self, ins: Instr, target: Any, wave: int) -> list[Any]:
        if any(isinstance(o, VHalf) for o in ins.operands):
            self.require(target, "mov_b16", f"{ins.mnemonic} on 16-bit halves", ins.span)
        out: list[Any] = super().check_op(ins, target, wave)
        return out

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {1: "i16" if self.to_float else "f16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, src = ins.operands
        en = m.actives()
        v = _read16(m, src, "")
        if v is None:
            m.write_v(dst.index, m.unknown_lanes(f"{operand_text(dst)}@{m.line}(a float constant)"), en)
            return
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        neg, ab = mods_of(ins, 1)
        flush = _flush16(m)
        r = []
        for x, e in zip(v, en):
            if e is False:
                r.append(0)
            elif self.to_float:
                r.append(int_to_f16(B, x, self.signed))
            else:
                x = srcmod(B, x, neg[0], ab[0])
                r.append(f16_to_int(B, ftz(B, x, "f16") if flush else x, self.signed)[0])
        _write16(m, dst, r, en)

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if isinstance(ins.operands[0], VHalf):
            out.append(f"v{ins.operands[0].index}")
        return out

    def emit(self, ins: Instr, E: Any) -> None:
        E.unsupported(f"{self.base} is not emitted")


# ---- v_pk_fma_f16 ----------------------------------------------------------------

class PackedFma(OpDef):
    """v_pk_fma_f16 vD, S0, S1, S2 [op_sel:[a,b,c]] [op_sel_hi:[d,e,f]]
    [neg_lo:[..]] [neg_hi:[..]]: D[15:0] = fma of the halves op_sel picks,
    D[31:16] of those op_sel_hi picks (default [1,1,1]), each rounded once.
    [S:half2-pk-fma] [S:packed16]"""

    base = "v_pk_fma_f16"
    sig = ("vdst", "src", "src", "src")
    arg_names = ("vdst", "src0", "src1", "src2")
    encs = {"": "e64", "_e64": "e64"}
    feature = "packed16"
    unit = "valu"
    valu_constants = True
    mods = pk_mods(3)

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {1: "v2f16", 2: "v2f16", 3: "v2f16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        pk_run(m, ins, f16_fn("fma", m), 3)

    def emit(self, ins: Instr, E: Any) -> None:
        E.unsupported(f"{self.base} is not emitted")


# ---- GFX12 v_minimum_f16 / v_maximum_f16; GFX11 16-bit bitwise ops -----------------

class MinimumF16(Alu16):
    """v_minimum_f16 / v_maximum_f16 vD, S0, S1 (GFX12, VOP3; NEG/ABS):
    a NaN operand gives a NaN, else the smaller/larger, -0.0 below +0.0.
    [S:half2-minimum]"""

    def __init__(self, is_max: bool):
        name = "maximum" if is_max else "minimum"
        super().__init__(f"v_{name}_f16", self.lane(is_max, False), "min_num_f32", True)
        self.is_max = is_max

    @staticmethod
    def lane(is_max: bool, flush: bool) -> LaneFn:
        def f(B: Any, a: Value, b: Value) -> Value:
            if flush:
                return ftz(B, fminimum(B, ftz(B, a, "f16"), ftz(B, b, "f16"), "f16", is_max), "f16")
            return fminimum(B, a, b, "f16", is_max)
        return f

    def parse(self, line: Line, enc: str) -> Instr:
        line, n, a = strip_mods(line, enc, (1, 2))
        return with_mods(super().parse(line, enc), n, a)

    def print(self, ins: Instr, target: Target | None = None) -> str:
        return print_mods(self, ins, target, (1, 2))

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {1: "f16", 2: "f16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        self.fn = modified(self.lane(self.is_max, _flush16(m)), ins, 2)
        super().execute(ins, m)

    def emit(self, ins: Instr, E: Any) -> None:
        E.unsupported(f"{self.base} is not emitted")


B16_FNS: dict[str, LaneFn] = {
    "and": lambda B, a, b: B.and_(a, b),
    "or": lambda B, a, b: B.or_(a, b),
    "xor": lambda B, a, b: B.xor(a, b),
}

HALF2_OPS: list[Any] = [
    CvtInt16("v_cvt_f16_i16", True, True),
    CvtInt16("v_cvt_f16_u16", True, False),
    CvtInt16("v_cvt_i16_f16", False, True),
    CvtInt16("v_cvt_u16_f16", False, False),
    PackedFma(),
    MinimumF16(False),
    MinimumF16(True),
    *(Alu16(f"v_{n}_b16", fn, "alu_b16", True) for n, fn in B16_FNS.items()),
]
for _op in HALF2_OPS:
    register(_op)
