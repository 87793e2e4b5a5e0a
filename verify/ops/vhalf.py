"""binary16 (and bfloat16) VALU ops, packed f16 ops, and the fused and
unfused f32 multiply-adds.

The lane functions are written once, on the bit patterns, for any format
of verify/backend.py's ``FP_FORMATS`` (``fmt`` "f16", "bf16", "f32"):
classification, the IEEE order, the sixteen compare predicates, min/max;
the rounded arithmetic (add, mul, fma, conversions) is
``verify.backend.fparith`` (exact rationals concretely, z3's FP sorts
symbolically).  verify tv's IR semantics (verify/tv/halfsem.py) runs the
same functions for the LLVM operations with the same IEEE meaning.

A 16-bit value sits zero-extended in a 32-bit lane value.  The GPU ops:

* ``v_add/sub/subrev/mul/min/max_f16`` (VOP2, VOP3, DPP; GFX12
  ``v_min_num_f16``/``v_max_num_f16``), ``v_fma_f16`` (VOP3): D[15:0] from
  S0[15:0], S1[15:0] (true16 halves ``v1.l``/``v1.h`` on GFX11+, the other
  half of D kept); D[31:16] is left unknown otherwise, as for the integer
  16-bit ops.  [S:half-valu] [S:packed16] [S:true16]
* ``v_cvt_f16_f32``, ``v_cvt_f32_f16`` (VOP1).  [S:half-cvt]
* ``v_cmp_<pred>_f16`` (VOPC).  [S:half-valu]
* ``v_pk_add/mul/min/max_f16`` (VOP3P, op_sel/op_sel_hi as the integer
  packed ops).  [S:packed16] [S:half-valu]
* ``v_mul_f32``, ``v_fma_f32``, ``v_fmac_f32`` (D = S0 * S1 + D), and
  ``v_mad_f32``/``v_mac_f32`` (not fused: the product rounded, subnormals
  flushed; assumption f32.mad).  [S:f32-fma] [S:f32-mad]

Subnormal f16 inputs and results are kept (the MODE register's FP_DENORM
f64/f16 field as LLVM sets it by default) unless assumption
f16.denormals=flush.  In IEEE mode (assumption f32.ieee_mode: the MODE
register's IEEE bit, shared by every format) a signaling NaN operand of a
pre-GFX12 min/max gives a quiet NaN; a quiet NaN operand gives the other
operand.  [S:half-denorm] [S:half-minmax]
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ..backend import FP_FORMATS, FP_QNAN, Backend, Concrete, Cond, Value, fparith
from ..diag import InputError
from ..ir import Imm, Instr, VHalf, VReg
from ..syntax import FLOAT_INLINE, Line, float_text, operand_text
from . import dpp, valu
from .base import AnyEmitter, LaneFn, OpDef, register
from .mods16 import modified, mods_of, pk_mods, pk_run, print_mods, srcmod, strip_mods, with_mods
from .packed16 import Alu16, Packed, _strip_halves, const_half
from .valu import Cmp, Valu, _ftz
from .wide16 import half_of, put_half

if TYPE_CHECKING:
    from ..machine import Machine

M16 = 0xFFFF


def consts(fmt: str) -> tuple[int, int, int, int]:
    """(sign bit, magnitude mask, exponent mask, quiet bit) of `fmt`."""
    e, f = FP_FORMATS[fmt]
    sign = 1 << (e + f)
    return sign, sign - 1, ((1 << e) - 1) << f, 1 << (f - 1)


# ---- classification and order (any format) -----------------------------------

def is_nan(B: Backend, a: Value, fmt: str) -> Cond:
    """Exponent all ones and a nonzero fraction.  [S:half-arith]"""
    _, mag, exp, _ = consts(fmt)
    return B.ult(B.const(exp), B.and_(a, B.const(mag)))


def is_snan(B: Backend, a: Value, fmt: str) -> Cond:
    """A NaN whose quiet bit (the top fraction bit) is clear."""
    _, _, _, quiet = consts(fmt)
    return B.and_b(is_nan(B, a, fmt), B.eq(B.and_(a, B.const(quiet)), B.const(0)))


def is_inf(B: Backend, a: Value, fmt: str) -> Cond:
    _, mag, exp, _ = consts(fmt)
    return B.eq(B.and_(a, B.const(mag)), B.const(exp))


def ftz(B: Backend, a: Value, fmt: str) -> Value:
    """A subnormal flushed to zero of its sign."""
    sign, _, exp, _ = consts(fmt)
    return B.ite(B.eq(B.and_(a, B.const(exp)), B.const(0)), B.and_(a, B.const(sign)), a)


def order_key(B: Backend, a: Value, fmt: str) -> Value:
    """An unsigned key in IEEE order for non-NaN values, -0.0 just below
    +0.0 (verify/ops/vfloat.py's, for any width).

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [hex(order_key(C, x, "f16")) for x in (0xBC00, 0x8000, 0x0, 0x3C00)]
    ['0x43ff', '0x7fff', '0x8000', '0xbc00']
    """
    sign, mag, _, _ = consts(fmt)
    full = sign | mag
    return B.ite(B.ne(B.and_(a, B.const(sign)), B.const(0)), B.and_(B.not_(a), B.const(full)), B.or_(a, B.const(sign)))


def ordered(B: Backend, a: Value, b: Value, fmt: str) -> Cond:
    return B.and_b(B.not_b(is_nan(B, a, fmt)), B.not_b(is_nan(B, b, fmt)))


def same(B: Backend, a: Value, b: Value, fmt: str) -> Cond:
    """Equal as numbers when neither is NaN: the same bits, or +0.0 and -0.0."""
    _, mag, _, _ = consts(fmt)
    return B.or_b(B.eq(a, b), B.eq(B.and_(B.or_(a, b), B.const(mag)), B.const(0)))


def olt(B: Backend, a: Value, b: Value, fmt: str) -> Cond:
    return B.and_b(ordered(B, a, b, fmt), B.not_b(same(B, a, b, fmt)),
                   B.ult(order_key(B, a, fmt), order_key(B, b, fmt)))


def ole(B: Backend, a: Value, b: Value, fmt: str) -> Cond:
    return B.and_b(ordered(B, a, b, fmt), B.or_b(same(B, a, b, fmt), B.ult(order_key(B, a, fmt), order_key(B, b, fmt))))


def oeq(B: Backend, a: Value, b: Value, fmt: str) -> Cond:
    return B.and_b(ordered(B, a, b, fmt), same(B, a, b, fmt))


def fcmp(pred: str, fmt: str) -> LaneFn:
    """LLVM's fcmp predicate `pred` on `fmt`: o* false on a NaN, u* true,
    -0.0 == +0.0.  [S:f32-order] [S:half-valu]"""
    t: dict[str, Any] = {
        "false": lambda B, a, b: False,
        "true": lambda B, a, b: True,
        "oeq": lambda B, a, b: oeq(B, a, b, fmt),
        "ogt": lambda B, a, b: olt(B, b, a, fmt),
        "oge": lambda B, a, b: ole(B, b, a, fmt),
        "olt": lambda B, a, b: olt(B, a, b, fmt),
        "ole": lambda B, a, b: ole(B, a, b, fmt),
        "one": lambda B, a, b: B.and_b(ordered(B, a, b, fmt), B.not_b(same(B, a, b, fmt))),
        "ord": lambda B, a, b: ordered(B, a, b, fmt),
        "ueq": lambda B, a, b: B.not_b(B.and_b(ordered(B, a, b, fmt), B.not_b(same(B, a, b, fmt)))),
        "ugt": lambda B, a, b: B.not_b(ole(B, a, b, fmt)),
        "uge": lambda B, a, b: B.not_b(olt(B, a, b, fmt)),
        "ult": lambda B, a, b: B.not_b(ole(B, b, a, fmt)),
        "ule": lambda B, a, b: B.not_b(olt(B, b, a, fmt)),
        "une": lambda B, a, b: B.not_b(oeq(B, a, b, fmt)),
        "uno": lambda B, a, b: B.not_b(ordered(B, a, b, fmt)),
    }
    fn: LaneFn = t[pred]
    return fn


FCMP_PREDS = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
              "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
# the VOPC compares by their ISA names (v_cmp_<op>_f16)  [S:vopc-f32] [S:half-valu]
VOPC_NAMES = {"f": "false", "lt": "olt", "eq": "oeq", "le": "ole", "gt": "ogt", "lg": "one", "ge": "oge",
              "o": "ord", "u": "uno", "nge": "ult", "nlg": "ueq", "ngt": "ule", "nle": "ugt", "neq": "une",
              "nlt": "uge", "tru": "true"}


# ---- min/max, rounded arithmetic ---------------------------------------------

def fmin(B: Backend, a: Value, b: Value, fmt: str) -> Value:
    """minimumNumber: a NaN operand gives the other; -0.0 < +0.0."""
    r = B.ite(B.ult(order_key(B, b, fmt), order_key(B, a, fmt)), b, a)
    return B.ite(is_nan(B, a, fmt), b, B.ite(is_nan(B, b, fmt), a, r))


def fmax(B: Backend, a: Value, b: Value, fmt: str) -> Value:
    """maximumNumber: a NaN operand gives the other; -0.0 < +0.0."""
    r = B.ite(B.ult(order_key(B, a, fmt), order_key(B, b, fmt)), b, a)
    return B.ite(is_nan(B, a, fmt), b, B.ite(is_nan(B, b, fmt), a, r))


def minmax_ieee(B: Backend, a: Value, b: Value, fmt: str, is_max: bool, ieee: bool) -> Value:
    """v_min/max_f16 (and the IEEE-mode v_min_num ops): in IEEE mode a
    signaling NaN operand gives a quiet NaN, else minimumNumber/
    maximumNumber.  [S:half-minmax]"""
    r = (fmax if is_max else fmin)(B, a, b, fmt)
    if not ieee:
        return r
    return B.ite(B.or_b(is_snan(B, a, fmt), is_snan(B, b, fmt)), B.const(FP_QNAN[fmt]), r)


def fminimum(B: Backend, a: Value, b: Value, fmt: str, is_max: bool) -> Value:
    """llvm.minimum/maximum: a NaN operand gives a NaN; -0.0 < +0.0."""
    r = (fmax if is_max else fmin)(B, a, b, fmt)
    return B.ite(B.or_b(is_nan(B, a, fmt), is_nan(B, b, fmt)), B.const(FP_QNAN[fmt]), r)


def fadd(B: Backend, a: Value, b: Value, fmt: str) -> Value:
    return fparith(B, "add", fmt, a, b)


def fsub(B: Backend, a: Value, b: Value, fmt: str) -> Value:
    """a - b is a + (-b) exactly, signed zeros and NaN included.  [S:f32]"""
    sign, _, _, _ = consts(fmt)
    return fparith(B, "add", fmt, a, B.xor(b, B.const(sign)))


def fmul(B: Backend, a: Value, b: Value, fmt: str) -> Value:
    return fparith(B, "mul", fmt, a, b)


def ffma(B: Backend, a: Value, b: Value, c: Value, fmt: str) -> Value:
    """a * b + c rounded once.  [S:f32-fma]"""
    return fparith(B, "fma", fmt, a, b, c)


def cvt(B: Backend, a: Value, src: str, dst: str) -> Value:
    """`a` of format `src` rounded to `dst` (nearest even; exact widening)."""
    return fparith(B, f"cvt:{src}", dst, a)


def mad_f32(B: Backend, a: Value, b: Value, c: Value) -> Value:
    """v_mad_f32 / v_mac_f32: not fused: the product rounded to binary32,
    then the sum; subnormal inputs, product and result flushed to zero.
    [S:f32-mad]"""
    p = _ftz(B, fparith(B, "mul", "f32", _ftz(B, a), _ftz(B, b)))
    return _ftz(B, fparith(B, "add", "f32", p, _ftz(B, c)))


# ---- the GPU ops ---------------------------------------------------------------

def _flush16(m: Machine | None) -> bool:
    return m is not None and m.assume("f16.denormals") == "flush"


def _ieee(m: Machine | None) -> bool:
    return m is None or m.assume("f32.ieee_mode") == "on"


def f16_fn(op: str, m: Machine | None) -> LaneFn:
    """The lane function of the f16 VALU op `op` under `m`'s assumptions."""
    flush = _flush16(m)
    ieee = _ieee(m) if "min" in op or "max" in op else True

    def pre(B: Backend, x: Value) -> Value:
        return ftz(B, x, "f16") if flush else x

    def post(B: Backend, x: Value) -> Value:
        return ftz(B, x, "f16") if flush else x

    if op in ("add", "sub", "subrev", "mul"):
        def bin_(B: Backend, a: Value, b: Value) -> Value:
            a, b = pre(B, a), pre(B, b)
            if op == "subrev":
                a, b = b, a
            r = fadd(B, a, b, "f16") if op == "add" else fmul(B, a, b, "f16") if op == "mul" else fsub(B, a, b, "f16")
            return post(B, r)
        return bin_
    if op in ("min", "max", "min_num", "max_num"):
        is_max = op.startswith("max")

        def mm(B: Backend, a: Value, b: Value) -> Value:
            return post(B, minmax_ieee(B, pre(B, a), pre(B, b), "f16", is_max, ieee))
        return mm
    if op == "fma":
        def f3(B: Backend, a: Value, b: Value, c: Value) -> Value:
            return post(B, ffma(B, pre(B, a), pre(B, b), pre(B, c), "f16"))
        return f3
    raise KeyError(op)


class AluF16(Alu16):
    """v_<op>_f16 vD, S0, S1: binary16 in the low halves (true16 halves on
    GFX11+, VOP2 and VOP3 both).  [S:half-valu] [S:true16]"""

    def __init__(self, op: str, feature: str | None):
        super().__init__(f"v_{op}_f16", f16_fn(op, None), "", False)
        self.feature = feature
        self.op = op
        # VOP3 DPP (GFX11+; llvm-mc-22 accepts each on gfx1100/1150/1200, the
        # min_num/max_num ones where they exist)  [S:vop3-dpp-more] [S:f16-e64-dpp]
        self.encs = {**self.encs, "_e64_dpp": "e64_dpp"}

    def parse(self, line: Line, enc: str) -> Instr:
        line, neg, ab = strip_mods(line, enc, (1, 2))  # [S:half2-srcmods]
        plain, hs = _strip_halves(line)
        ins = with_mods(OpDef.parse(self, plain, enc), neg, ab)
        if any(h is not None for h in hs):
            if any(h is None and isinstance(o, VReg) for h, o in zip(hs, ins.operands)):
                raise InputError(line.span, f"{line.mnemonic} with 16-bit halves names every VGPR operand's half")
            ops = tuple(VHalf(o.index, 1, bool(h)) if h is not None else o for h, o in zip(hs, ins.operands))
            ins = dataclasses.replace(ins, operands=ops)
        if enc in ("e32", "dpp") and not isinstance(ins.operands[2], VReg):
            raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR (use _e64)")
        if enc in ("dpp", "e64_dpp") and not isinstance(ins.operands[1], VReg):
            raise InputError(ins.operand_span(1), f"src0 of {ins.mnemonic} must be a VGPR: DPP reads it from other lanes")
        return ins

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {1: "f16", 2: "f16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        self.fn = modified(f16_fn(self.op, m), ins, 2)
        super().execute(dataclasses.replace(ins, operands=tuple(f16_imm(o) for o in ins.operands)), m)

    def print(self, ins: Instr, target: Any = None) -> str:
        return print_mods(self, ins, target, (1, 2))

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")



def f16_imm(op: Any) -> Any:
    """A float inline constant (0.5, 1.0, 2.0, 4.0 and their negations) in
    an f16 operand is its binary16 encoding (1.0: 0x3c00), as LLVM's
    AMDGPUInstPrinter prints 16-bit float inline constants; any other
    operand as it is.  [S:half-valu]"""
    if isinstance(op, Imm):
        v = float_text(op.text)
        if v is not None and v in FLOAT_INLINE:
            bits = cvt(Concrete(), FLOAT_INLINE[v][0], "f32", "f16")
            return Imm(bits, f"0x{bits:x}")
    return op


def _read16(m: Machine, op: Any, what: str) -> list[Any] | None:
    """The 16 bits operand `op` gives each lane (a VHalf its half, a VGPR or
    SGPR its low half, a constant its pinned bits), or None where verify
    does not pin a constant's bits."""
    B = m.B
    op = f16_imm(op)
    if isinstance(op, Imm):
        c = const_half(op, False)
        return None if c is None else [B.const(c)] * m.W
    return [half_of(B, x, isinstance(op, VHalf) and op.hi) for x in m.read(op)]


def _write16(m: Machine, dst: Any, r: list[Any], en: list[Any]) -> None:
    B = m.B
    if isinstance(dst, VHalf):
        old = m.v(dst.index)
        res = [put_half(B, o, x, dst.hi) for o, x in zip(old, r)]
    else:  # bits 31:16 differ by generation: unknown  [S:packed16]
        u = m.unknown_lanes(f"{dst.text}[31:16]@{m.line}")
        res = [B.or_(x, B.shl(B.and_(y, B.const(M16)), B.const(16))) for x, y in zip(r, u)]
    m.write_v(dst.index, res, en)


class Half3(Valu):
    """A three-source VOP3 op on halves: v_fma_f16 vD, S0, S1, S2 (true16
    halves on GFX11+).  [S:half-valu] [S:true16]"""

    def __init__(self, base: str, op: str, feature: str | None):
        super().__init__(base, 3, None, feature, vop3_only=True, dpp_ok=False)
        self.op = op

    def parse(self, line: Line, enc: str) -> Instr:
        line, neg, ab = strip_mods(line, enc, (1, 2, 3))  # [S:half2-srcmods]
        plain, hs = _strip_halves(line)
        ins = super().parse(plain, enc)
        if any(h is not None for h in hs):
            if any(h is None and isinstance(o, VReg) for h, o in zip(hs, ins.operands)):
                raise InputError(line.span, f"{line.mnemonic} with 16-bit halves names every VGPR operand's half")
            ops = tuple(VHalf(o.index, 1, bool(h)) if h is not None else o for h, o in zip(hs, ins.operands))
            ins = dataclasses.replace(ins, operands=ops)
        return with_mods(ins, neg, ab)

    def print(self, ins: Instr, target: Any = None) -> str:
        return print_mods(self, ins, target, (1, 2, 3))

    def check_op(self, ins: Instr, target: Any, wave: int) -> list[Any]:
        if isinstance(ins.operands[0], VHalf):
            self.require(target, "mov_b16", f"{ins.mnemonic} on 16-bit halves", ins.span)
        return super().check_op(ins, target, wave)

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {1: "f16", 2: "f16", 3: "f16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        fn = modified(f16_fn(self.op, m), ins, 3)
        dst, *srcs = ins.operands
        vals = []
        for s in srcs:
            v = _read16(m, s, "")
            if v is None:
                m.write_v(dst.index, m.unknown_lanes(f"{operand_text(dst)}@{m.line}(a float constant)"), m.actives())
                return
            vals.append(v)
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        r = [fn(m.B, *xs) if e is not False else 0 for xs, e in zip(zip(*vals), en)]
        _write16(m, dst, r, en)

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if isinstance(ins.operands[0], VHalf):
            out.append(f"v{ins.operands[0].index}")
        return out

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


class Cvt16(Valu):
    """v_cvt_f16_f32 vD(.l/.h), S (f32 to binary16, nearest even) and
    v_cvt_f32_f16 vD, S(.l/.h) (exact).  [S:half-cvt] [S:true16]"""

    def __init__(self, base: str, to16: bool):
        super().__init__(base, 1, None, None, dpp_ok=False)
        self.to16 = to16

    def parse(self, line: Line, enc: str) -> Instr:
        line, neg, ab = strip_mods(line, enc, (1,))  # [S:half2-srcmods]
        plain, hs = _strip_halves(line)
        ins = with_mods(super().parse(plain, enc), neg, ab)
        if any(h is not None for h in hs):
            want = 0 if self.to16 else 1  # the 16-bit operand
            if hs[1 - want] is not None or (hs[want] is None and isinstance(ins.operands[want], VReg)):
                raise InputError(line.span, f"{line.mnemonic}: only its 16-bit operand is a half")
            ops = tuple(VHalf(o.index, 1, bool(h)) if h is not None else o for h, o in zip(hs, ins.operands))
            ins = dataclasses.replace(ins, operands=ops)
        return ins

    def check_op(self, ins: Instr, target: Any, wave: int) -> list[Any]:
        if any(isinstance(o, VHalf) for o in ins.operands):
            self.require(target, "mov_b16", f"{ins.mnemonic} on 16-bit halves", ins.span)
        return super().check_op(ins, target, wave)

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {} if self.to16 else {1: "f16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, src = ins.operands
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        flush16 = _flush16(m)
        flush32 = m.assume("f32.denormals") == "flush"
        neg, ab = mods_of(ins, 1)
        if self.to16:
            xs = m.read(src) if not isinstance(src, Imm) else [B.const(src.value)] * m.W
            xs = [srcmod(B, x, neg[0], ab[0], 0x80000000) for x in xs]
            r = []
            for x, e in zip(xs, en):
                if e is False:
                    r.append(0)
                    continue
                x = _ftz(B, x) if flush32 else x
                y = cvt(B, x, "f32", "f16")
                r.append(ftz(B, y, "f16") if flush16 else y)
            _write16(m, dst, r, en)
            return
        v = _read16(m, src, "")
        if v is None:
            m.write_v(dst.index, m.unknown_lanes(f"{operand_text(dst)}@{m.line}(a float constant)"), en)
            return
        v = [srcmod(B, x, neg[0], ab[0]) for x in v]
        res = [cvt(B, ftz(B, x, "f16") if flush16 else x, "f16", "f32") if e is not False else 0 for x, e in zip(v, en)]
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if isinstance(ins.operands[0], VHalf):
            out.append(f"v{ins.operands[0].index}")
        return out

    def print(self, ins: Instr, target: Any = None) -> str:
        return print_mods(self, ins, target, (1,))

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


class CmpF16(Cmp):
    """v_cmp_<op>_f16 sdst, S0, S1: the IEEE predicate on the low halves
    (true16 halves on GFX11+) to a lane mask; inactive lanes write 0.
    [S:half-valu] [S:vopc-f32]"""

    def __init__(self, op: str):
        self.base = f"v_cmp_{op}_f16"
        self.fop = fcmp(VOPC_NAMES[op], "f16")
        self.signed = False
        self.feature = "cmp_f32_f_tru" if op in ("f", "tru") else None

    def parse(self, line: Line, enc: str) -> Instr:
        line, neg, ab = strip_mods(line, enc, (1, 2))  # [S:half2-srcmods]
        plain, hs = _strip_halves(line)
        ins: Instr = with_mods(super().parse(plain, enc), neg, ab)
        if any(h is not None for h in hs):
            if any(h is None and isinstance(o, VReg) for h, o in zip(hs[1:], ins.operands[1:])):
                raise InputError(line.span, f"{line.mnemonic} with 16-bit halves names every VGPR operand's half")
            ops = tuple(VHalf(o.index, 1, bool(h)) if h is not None else o for h, o in zip(hs, ins.operands))
            ins = dataclasses.replace(ins, operands=ops)
        return ins

    def check_op(self, ins: Instr, target: Any, wave: int) -> list[Any]:
        if any(isinstance(o, VHalf) for o in ins.operands):
            self.require(target, "mov_b16", f"{ins.mnemonic} on 16-bit halves", ins.span)
        out: list[Any] = super().check_op(ins, target, wave)
        return out

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {1: "f16", 2: "f16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        a, b = _read16(m, s0, ""), _read16(m, s1, "")
        if a is None or b is None:
            raise InputError(ins.span, f"{ins.mnemonic}: a float constant in a 16-bit operand is not modelled")
        neg, ab = mods_of(ins, 2)
        a, b = [srcmod(B, x, neg[0], ab[0]) for x in a], [srcmod(B, x, neg[1], ab[1]) for x in b]
        if _flush16(m):
            a, b = [ftz(B, x, "f16") for x in a], [ftz(B, x, "f16") for x in b]
        bits = [B.and_b(m.active(i), self.fop(B, a[i], b[i])) for i in range(W)]
        lo, hi = m.from_lane_bits(bits)
        m.write_scalar64(dst, lo, hi)

    def print(self, ins: Instr, target: Any = None) -> str:
        return print_mods(self, ins, target, (1, 2))

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported("f16 compares are not emitted")


class PackedF16(Packed):
    """v_pk_<add|mul|min|max>_f16: binary16 on both halves.  [S:packed16] [S:half-valu]"""

    def __init__(self, op: str):
        self.base = f"v_pk_{op}_f16"
        self.op = op
        self.fn = f16_fn(op, None)

    def const_types(self, ins: Instr, target: Any) -> dict[int, str]:
        return {1: "v2f16", 2: "v2f16"}  # [S:legality]
    mods = pk_mods(2)  # neg_lo/neg_hi besides op_sel  [S:half2-srcmods]

    def execute(self, ins: Instr, m: Machine) -> None:
        pk_run(m, ins, f16_fn(self.op, m), 2)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


class MulF32(valu.ValuF32):
    """v_mul_f32: binary32 product rounded to nearest even; subnormals as
    f32.denormals says; NEG/ABS source modifiers.  [S:f32-fma]"""

    def __init__(self) -> None:
        super().__init__("v_mul_f32", "fmul")
        self.left_identity = None  # 1.0 * y is y except for an sNaN y (quieted): no exact identity

        def plain(B: Any, a: Value, b: Value) -> Value:
            return fmul(B, a, b, "f32")

        def flush(B: Any, a: Value, b: Value) -> Value:
            return _ftz(B, fmul(B, _ftz(B, a), _ftz(B, b), "f32"))

        self.plain, self.flush = plain, flush


def fma32_fn(m: Machine | None) -> LaneFn:
    flush = m is not None and m.assume("f32.denormals") == "flush"

    def f(B: Any, a: Value, b: Value, c: Value) -> Value:
        if flush:
            return _ftz(B, ffma(B, _ftz(B, a), _ftz(B, b), _ftz(B, c), "f32"))
        return ffma(B, a, b, c, "f32")
    return f


def mad32_fn(m: Machine | None) -> LaneFn:
    """v_mad_f32 under assumption f32.mad: "unfused-flush" (the default) or
    "fused" (as v_fma_f32).  [S:f32-mad]"""
    if m is not None and m.assume("f32.mad") == "fused":
        return fma32_fn(m)
    return mad_f32


class Fma3(Valu):
    """v_fma_f32 / v_mad_f32 vD, S0, S1, S2 (VOP3).  [S:f32-fma] [S:f32-mad]"""

    def __init__(self, base: str, mad: bool, feature: str | None):
        super().__init__(base, 3, None, feature, vop3_only=True, dpp_ok=False)
        self.mad = mad

    def lane_fn(self, ins: Instr, m: Machine | None = None) -> LaneFn:
        return mad32_fn(m) if self.mad else fma32_fn(m)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


class Mac2(Valu):
    """v_fmac_f32 / v_mac_f32 vD, S0, S1 (VOP2, VOP3): D = S0 * S1 + D
    (v_fmac fused; v_mac as v_mad_f32).  [S:f32-fma] [S:f32-mad]"""

    def __init__(self, base: str, mad: bool, feature: str | None):
        super().__init__(base, 2, None, feature, dpp_ok=False)
        self.mad = mad

    def execute(self, ins: Instr, m: Machine) -> None:
        fn = mad32_fn(m) if self.mad else fma32_fn(m)
        dst, s0, s1 = ins.operands
        a, b, c = m.read(s0), m.read(s1), m.v(dst.index)
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        res = [fn(m.B, x, y, z) if e is not False else 0 for x, y, z, e in zip(a, b, c, en)]
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:
        return [*super().uses(ins), f"v{ins.operands[0].index}"]

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


HALF_OPS: list[Any] = [
    AluF16("add", None),
    AluF16("sub", None),
    AluF16("subrev", None),
    AluF16("mul", None),
    AluF16("min", None),
    AluF16("max", None),
    AluF16("min_num", "min_num_f32"),
    AluF16("max_num", "min_num_f32"),
    Half3("v_fma_f16", "fma", None),
    Cvt16("v_cvt_f16_f32", True),
    Cvt16("v_cvt_f32_f16", False),
    PackedF16("add"),
    PackedF16("mul"),
    PackedF16("min"),
    PackedF16("max"),
    MulF32(),
    Fma3("v_fma_f32", False, None),
    Fma3("v_mad_f32", True, "mad_f32"),
    Mac2("v_fmac_f32", False, "fmac_f32"),
    Mac2("v_mac_f32", True, "mad_f32"),
]
for _op in HALF_OPS:
    register(_op)
for _name in VOPC_NAMES:
    register(CmpF16(_name))

_ = dpp  # (the DPP forms of the f16 VOP2 ops come through Alu16)


# s_movk_i32 (the constant LLVM's f32 -> bf16 rounding adds, 0x7fff): verify/ops/sbit.py

