"""Vector ALU: moves and integer ops (optionally with DPP on src0),
v_cndmask_b32 and v_cmp_* writing a lane mask.

A VALU op writes only the lanes active in EXEC.  With DPP, src0 comes
through the DPP gather (dpp.py) and src1 from the lane itself.
[S:valu] [S:dpp-lane-rule] [S:vopc]
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..backend import Arith, Backend, Cond, Value
from ..diag import InputError, Warning_
from ..identities import exact_left, exact_right
from ..ir import Instr, SReg, VReg
from ..syntax import Line, operand_text
from ..target import Target, needs_text
from . import dpp
from .base import NO_MODS, AnyEmitter, LaneFn, Modifiers, OpDef, hex_text, int_modifier, register

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine

DPP_ENCS = ("dpp", "e64_dpp")


class Valu(OpDef):
    """A VOP1 / VOP2 / VOP3-only op defined by its lane function."""

    unit = "valu"
    valu_constants = True
    enc_mods: ClassVar[dict[str, Modifiers]] = {enc: dpp.MODIFIERS for enc in DPP_ENCS}

    def __init__(self, base: str, nsrc: int, fn: LaneFn | None, feature: str | None = None,
                 vop3_only: bool = False, dpp_ok: bool = True, left_identity: int | None = None,
                 components: tuple[str, ...] = (), dpp_rev: str | None = None, clamp: str | None = None,
                 vop3_dpp: bool | None = None, spell: LaneFn | None = None):
        self.base = base
        # how emission writes fn where the lane function is bit-level (E has no bit()): an intrinsic
        self.spell = spell
        # the VOP3 clamp bit: "add"/"sub"/"subrev" saturate unsigned, "f32" clamps to [0, 1]  [S:clamp]
        self.clamp = clamp
        # a reversed integer op whose DPP swizzle may land on the printed src1:
        # "always" (v_subrev_*), or a target feature that says where (the rev shifts)  [S:dpp-rev]
        self.dpp_rev = dpp_rev
        self.components = components
        self.nsrc = nsrc
        self.fn = fn
        # e with fn(e, y) == y bit for bit (two sources), from verify/identities.py:
        # DPP emission moves it into the lanes the instruction does not write
        self.left_identity = left_identity
        self.feature = feature
        self.vop3_only = vop3_only
        self.sig = ("vdst",) + ("src",) * nsrc
        self.arg_names = ("vdst",) + tuple(f"src{k}" for k in range(nsrc))
        if vop3_only:
            self.encs = {"": "e64", "_e64": "e64"}
            # GFX11+ VOP3 DPP: the three-source ops and those that say so (v_bcnt_u32_b32), not
            # v_mul_lo/hi_u32 (llvm-mc-22: "e64_dpp variant ... not supported")  [S:dpp-encoding] [S:bfe]
            if dpp_ok and (nsrc == 3 if vop3_dpp is None else vop3_dpp):
                self.encs["_e64_dpp"] = "e64_dpp"
        else:
            self.encs = {"": "", "_e32": "e32", "_e64": "e64"}
            if dpp_ok:
                self.encs["_dpp"] = "dpp"
                self.encs["_e64_dpp"] = "e64_dpp"

    def moves_lanes_in(self, ins: Instr) -> bool:
        return ins.enc in DPP_ENCS

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc in DPP_ENCS else frozenset()

    def modifiers(self, enc: str) -> Modifiers:
        if self.clamp is None:
            return super().modifiers(enc)
        return {"e32": NO_MODS, "dpp": dpp.MODIFIERS, "e64_dpp": dpp.MODIFIERS_CLAMP}.get(enc, CLAMP_MODS)

    def effective_enc(self, ins: Instr) -> str:
        if not ins.enc and (ins.mod("clamp") or ins.mod("neg") or ins.mod("abs")):  # only VOP3 has the bits
            return "e64"
        return super().effective_enc(ins)

    def clamped(self, fn: LaneFn, ins: Instr, m: Machine | None) -> LaneFn:
        """fn with the clamp bit applied, where it is written.  [S:clamp]"""
        if self.clamp is None or not ins.mod("clamp"):
            return fn
        kind = self.clamp
        if kind == "f32":
            ieee = m is not None and m.assume("f32.clamp") == "ieee"
            return lambda B, *xs: clamp_f32(B, fn(B, *xs), ieee)
        return lambda B, a, b: clamp_uint(B, kind, a, b, fn(B, a, b))

    def parse(self, line: Line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if enc in ("dpp", "e32") and self.nsrc == 2 and not isinstance(ins.operands[2], VReg):
            raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR (use _e64 for an SGPR or constant)")
        if enc in DPP_ENCS and not isinstance(ins.operands[1], VReg):
            raise InputError(ins.operand_span(1), f"src0 of {ins.mnemonic} must be a VGPR: DPP reads it from other lanes")
        return ins

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns: list[Warning_] = []
        if ins.enc == "e64_dpp":
            self.require(target, "vop3_dpp", f"{ins.mnemonic} (DPP on a VOP3 encoding)", ins.span)
            src1 = ins.operands[2] if self.nsrc >= 2 else None
            if src1 is not None and not isinstance(src1, VReg) and not target.has("vop3_dpp_sgpr_src1"):
                what = "an SGPR" if isinstance(src1, SReg) else "a constant"
                raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR on {target.name}: "
                                                      f"{what} as src1 of a VOP3 DPP instruction needs "
                                                      f"{needs_text('vop3_dpp_sgpr_src1')}")
        if ins.enc in DPP_ENCS:
            warns += dpp.check(ins, target, wave)
        return warns

    def lane_fn(self, ins: Instr, m: Machine | None = None) -> LaneFn:
        assert self.fn is not None
        return self.clamped(self.fn, ins, m)

    def dpp_operand(self, ins: Instr, m: Machine) -> int:
        """The operand index (1: printed src0, 2: printed src1) whose lanes the
        DPP swizzle moves.  A reversed integer op is computed by the hardware
        as the plain op with its sources swapped, and the swizzle follows the
        hardware's src0, the printed src1: the assumption dpp.rev_operand
        (default src1).  [S:dpp-rev]"""
        if self.dpp_rev is None or (self.dpp_rev != "always" and not m.has(self.dpp_rev)):
            return 1
        return 2 if m.assume("dpp.rev_operand") == "src1" else 1

    def execute(self, ins: Instr, m: Machine) -> None:
        fn = self.lane_fn(ins, m)
        dst = ins.operands[0]
        srcs = [m.read(op) for op in ins.operands[1:]]
        if ins.enc in DPP_ENCS:
            k = self.dpp_operand(ins, m)
            reg = ins.operands[k]
            if not isinstance(reg, VReg):  # a swizzle of a scalar src1: any value in any active lane  [S:dpp-rev]
                unknown = m.unknown_lanes(f"{operand_text(dst)}@{m.line}(DPP of the scalar src1)")
                m.note_lanes(m.actives(), "unknown: DPP of a scalar src1 under dpp.rev_operand=src1")
                m.write_v(dst.index, unknown, m.actives())
                return
            neg, ab = ins.mod("neg", (0, 0))[k - 1], ins.mod("abs", (0, 0))[k - 1]
            if (neg or ab) and (not neg or m.assume("dpp.srcmod_zero") == "zero"):  # modifier, then swizzle
                srcs[k - 1] = [srcmod(m.B, x, neg, ab) for x in srcs[k - 1]]
                srcs[k - 1], en = dpp.gather(m, ins, srcs[k - 1], reg)
            else:  # swizzle, then modifier: a zero-filled lane reads -0.0 under neg  [S:f32-srcmods]
                srcs[k - 1], en = dpp.gather(m, ins, srcs[k - 1], reg)
                if neg or ab:
                    srcs[k - 1] = [srcmod(m.B, x, neg, ab) for x in srcs[k - 1]]
        else:
            en = m.actives()
            src0 = ins.operands[1]
            m.note_lanes(en, f"computed by {ins.mnemonic}", src0.text if self.nsrc == 1 and isinstance(src0, VReg) else None)
        # (a lane known not to be written is not computed: write_v keeps its old value)
        res = [fn(m.B, *xs) if e is not False else 0 for xs, e in zip(zip(*srcs), en)]
        if m.step is not None and self.base != "v_mov_b32":
            other = operand_text(ins.operands[2]) if self.nsrc == 2 else ""
            for i, ev in list(m.step.pending.items()):
                rhs = f" and {other}[{i}]" if other and other[0] == "v" else (f" and {other}" if other else "")
                if ev.status == "written" and ev.src is not None:
                    m.note(i, "written", why=f"= {self.base} of {ev.src[0]}[{ev.src[1]}]{rhs}")
                elif ev.status == "zero":  # the op still runs, on a zero src0
                    m.note(i, "written", why=f"= {self.base} of 0 ({ev.why}){rhs}")
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if ins.enc in DPP_ENCS:  # lanes that are not written keep the old value
            out.append(ins.operands[0].text)
        return out

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        fn = self.lane_fn(ins)  # the one execute runs, under the default assumptions
        if self.spell is not None:
            fn = self.clamped(self.spell, ins, None)
        dst, *srcs = ins.operands
        if ins.enc in DPP_ENCS:
            if self.dpp_rev is not None:  # the swizzled operand is an assumption; no intrinsic picks it  [S:dpp-rev]
                E.unsupported(f"{ins.mnemonic} with DPP: which source the swizzle moves is the assumption dpp.rev_operand")
            if self.base == "v_mov_b32":
                E.set(dst, dpp.emit_mov(ins, E, E.get(srcs[0]), dst))
            else:
                ident = None if ins.mod("clamp") else self.left_identity  # clamp(e op y) need not be y
                E.set(dst, dpp.emit_alu(ins, E, fn, [E.get(s) for s in srcs], dst, ident))
            return
        E.set(dst, fn(E, *[E.get(s) for s in srcs]))  # the semantic function, spelled by E


CLAMP_MODS = Modifiers(dpp.CLAMP)


def clamp_uint(B: Arith, kind: str, a: Value, b: Value, r: Value) -> Value:
    """An unsigned add or subtract saturated by the clamp bit: all ones on a
    carry out of an add, 0 on a borrow.  [S:clamp]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> clamp_uint(C, "add", 0xFFFFFFF0, 0x20, 0x10), clamp_uint(C, "sub", 3, 5, 0xFFFFFFFE), clamp_uint(C, "subrev", 3, 5, 2)
    (4294967295, 0, 2)
    """
    if kind == "add":
        return B.ite(B.ult(r, a), B.const(0xFFFFFFFF), r)
    x, y = (a, b) if kind == "sub" else (b, a)
    return B.ite(B.ult(x, y), B.const(0), r)


def clamp_f32(B: Arith, r: Value, ieee: bool = False) -> Value:
    """The f32 clamp bit: the result limited to [0.0, 1.0].  Under DX10_CLAMP
    (assumption f32.clamp=dx10) NaN and -0.0 give +0.0; under ieee they stay.
    [S:clamp]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [hex(clamp_f32(C, x)) for x in (0x3FC00000, 0xBF800000, 0x3F000000, 0x7FC00000, 0x80000000)]
    ['0x3f800000', '0x0', '0x3f000000', '0x0', '0x0']
    >>> [hex(clamp_f32(C, x, ieee=True)) for x in (0x7FC00000, 0x80000000)]
    ['0x7fc00000', '0x80000000']
    """
    c = B.fmin(B.fmax(r, B.const(0)), B.const(0x3F800000))
    if ieee:  # NaN: exponent all ones and a nonzero fraction
        nan = B.ult(B.const(0x7F800000), B.and_(r, B.const(0x7FFFFFFF)))
        return B.ite(nan, r, B.ite(B.eq(r, B.const(0x80000000)), r, c))
    return c


def _field_mask(B: Arith, width: Value) -> Value:
    """(1 << width[4:0]) - 1: the low width bits (none for width 0)."""
    return B.sub(B.shl(B.const(1), B.and_(width, B.const(31))), B.const(1))


def _bfe_i32(B: Arith, a: Value, offset: Value, width: Value) -> Value:
    """v_bfe_i32: the field (arithmetic shift, then width bits), sign-extended
    from its top bit, as (t ^ s) - s with s = that bit: 0 for width 0.
    [S:bfe]

    >>> from verify.backend import Concrete
    >>> B = Concrete()
    >>> [hex(_bfe_i32(B, 0x000000F0, 4, w)) for w in (0, 3, 4, 5)]
    ['0x0', '0xffffffff', '0xffffffff', '0xf']
    >>> hex(_bfe_i32(B, 0x80000000, 28, 8)), hex(_bfe_i32(B, 0x12345678, 36, 8))
    ('0xfffffff8', '0x67')
    """
    t = B.and_(B.ashr(a, B.and_(offset, B.const(31))), _field_mask(B, width))
    s = B.lshr(B.shl(B.const(1), B.and_(width, B.const(31))), B.const(1))
    return B.sub(B.xor(t, s), s)


VALU_OPS = [
    Valu("v_mov_b32", 1, lambda B, a: a, components=("copy", "dpp16", "dpp8")),
    Valu("v_not_b32", 1, lambda B, a: B.not_(a)),
    Valu("v_add_u32", 2, lambda B, a, b: B.add(a, b), "add_u32_nocarry", left_identity=exact_left("add"), clamp="add"),
    Valu("v_sub_u32", 2, lambda B, a, b: B.sub(a, b), "add_u32_nocarry", clamp="sub"),
    Valu("v_subrev_u32", 2, lambda B, a, b: B.sub(b, a), "add_u32_nocarry", left_identity=exact_right("sub"),
         dpp_rev="always", clamp="subrev"),
    Valu("v_add_nc_u32", 2, lambda B, a, b: B.add(a, b), "add_nc_u32", left_identity=exact_left("add"), clamp="add"),
    Valu("v_sub_nc_u32", 2, lambda B, a, b: B.sub(a, b), "add_nc_u32", clamp="sub"),
    Valu("v_subrev_nc_u32", 2, lambda B, a, b: B.sub(b, a), "add_nc_u32", left_identity=exact_right("sub"),
         dpp_rev="always", clamp="subrev"),
    Valu("v_and_b32", 2, lambda B, a, b: B.and_(a, b), left_identity=exact_left("and")),
    Valu("v_or_b32", 2, lambda B, a, b: B.or_(a, b), left_identity=exact_left("or")),
    Valu("v_xor_b32", 2, lambda B, a, b: B.xor(a, b), left_identity=exact_left("xor")),
    Valu("v_min_u32", 2, lambda B, a, b: B.umin(a, b), left_identity=exact_left("umin")),
    Valu("v_max_u32", 2, lambda B, a, b: B.umax(a, b), left_identity=exact_left("umax")),
    Valu("v_min_i32", 2, lambda B, a, b: B.smin(a, b), left_identity=exact_left("smin")),
    Valu("v_max_i32", 2, lambda B, a, b: B.smax(a, b), left_identity=exact_left("smax")),
    # shifts take the amount from src0's low 5 bits ("rev" forms)
    Valu("v_lshlrev_b32", 2, lambda B, a, b: B.shl(b, B.and_(a, B.const(31))), left_identity=exact_right("shl"),
         dpp_rev="dpp_rev_shift_src1"),
    Valu("v_lshrrev_b32", 2, lambda B, a, b: B.lshr(b, B.and_(a, B.const(31))), left_identity=exact_right("lshr"),
         dpp_rev="dpp_rev_shift_src1"),
    Valu("v_ashrrev_i32", 2, lambda B, a, b: B.ashr(b, B.and_(a, B.const(31))), left_identity=exact_right("ashr"),
         dpp_rev="dpp_rev_shift_src1"),
    # GFX9's three-source VOP3 ops, which LLVM fuses address arithmetic into
    Valu("v_add3_u32", 3, lambda B, a, b, c: B.add(B.add(a, b), c), "valu_3src", vop3_only=True),
    Valu("v_lshl_add_u32", 3, lambda B, a, b, c: B.add(B.shl(a, B.and_(b, B.const(31))), c), "valu_3src", vop3_only=True),
    Valu("v_add_lshl_u32", 3, lambda B, a, b, c: B.shl(B.add(a, b), B.and_(c, B.const(31))), "valu_3src", vop3_only=True),
    Valu("v_and_or_b32", 3, lambda B, a, b, c: B.or_(B.and_(a, b), c), "valu_3src", vop3_only=True),
    Valu("v_lshl_or_b32", 3, lambda B, a, b, c: B.or_(B.shl(a, B.and_(b, B.const(31))), c), "valu_3src", vop3_only=True),
    Valu("v_or3_b32", 3, lambda B, a, b, c: B.or_(B.or_(a, b), c), "valu_3src", vop3_only=True),
    # D = (S0 ^ S1) + S2  [S:xad-u32]
    Valu("v_xad_u32", 3, lambda B, a, b, c: B.add(B.xor(a, b), c), "valu_3src", vop3_only=True),
    Valu("v_max3_i32", 3, lambda B, a, b, c: B.smax(B.smax(a, b), c), vop3_only=True),
    Valu("v_max3_u32", 3, lambda B, a, b, c: B.umax(B.umax(a, b), c), vop3_only=True),
    Valu("v_min3_i32", 3, lambda B, a, b, c: B.smin(B.smin(a, b), c), vop3_only=True),
    Valu("v_min3_u32", 3, lambda B, a, b, c: B.umin(B.umin(a, b), c), vop3_only=True),
    Valu("v_bfrev_b32", 1, lambda B, a: B.from_bits([B.bit(a, 31 - k) for k in range(32)]),
         spell=lambda E, a: E.call("llvm.bitreverse.i32", "__builtin_bitreverse32", [a])),
    # bit-field extract: S1[4:0] the offset, S2[4:0] the width  [S:bfe]
    Valu("v_bfe_u32", 3, lambda B, a, b, c: B.and_(B.lshr(a, B.and_(b, B.const(31))), _field_mask(B, c)), vop3_only=True),
    Valu("v_bfe_i32", 3, _bfe_i32, vop3_only=True),
    # population count of src0 plus src1 (VOP3 only; VOP3 DPP on GFX11+)  [S:bcnt]
    Valu("v_bcnt_u32_b32", 2, lambda B, a, b: B.add(B.popcount([B.bit(a, k) for k in range(32)]), b), vop3_only=True,
         vop3_dpp=True, spell=lambda E, a, b: E.add(E.call("llvm.ctpop.i32", "__builtin_popcount", [a]), b)),
]



def _ftz(B: Arith, a: Value) -> Value:
    """A binary32 subnormal flushed to zero (of its sign)."""
    return B.ite(B.eq(B.and_(a, B.const(0x7F800000)), B.const(0)), B.and_(a, B.const(0x80000000)), a)


_SRCMOD = [  # (pattern, neg, abs, columns before the register): LLVM's spellings of the f32 source modifiers
    (re.compile(r"^-\|(.+)\|$"), 1, 1, 2),
    (re.compile(r"^\|(.+)\|$"), 0, 1, 1),
    (re.compile(r"^neg\((.+)\)$", re.I), 1, 0, 4),
    (re.compile(r"^abs\((.+)\)$", re.I), 0, 1, 4),
    (re.compile(r"^-([a-z].*)$", re.I), 1, 0, 1),
]


def split_srcmods(text: str) -> tuple[str, int, int, int]:
    """(operand, neg, abs, columns stripped) of a source written with f32
    modifiers (``-v1``, ``|v1|``, ``-|s2|``, ``neg(v1)``, ``abs(v1)``); a
    constant (``-1.0``) is a constant, not a negated operand.  [S:f32-srcmods]

    >>> split_srcmods("-|v1|"), split_srcmods("neg(s2)"), split_srcmods("-1.0"), split_srcmods("v3")
    (('v1', 1, 1, 2), ('s2', 1, 0, 4), ('-1.0', 0, 0, 0), ('v3', 0, 0, 0))
    """
    for pat, neg, ab, shift in _SRCMOD:
        mm = pat.match(text.strip())
        if mm and mm.group(1)[:1].isalpha():
            return mm.group(1), neg, ab, shift
    return text, 0, 0, 0


def srcmod(B: Arith, x: Value, neg: int, ab: int) -> Value:
    """abs clears the sign bit, then neg flips it (``-|x|``).  [S:f32-srcmods]"""
    if ab:
        x = B.and_(x, B.const(0x7FFFFFFF))
    return B.xor(x, B.const(0x80000000)) if neg else x


def _f32op(B: Arith, op: str, a: Value, b: Value) -> Value:
    """fadd/fmin/fmax, and the subtractions as IEEE defines them: a - b is
    a + (-b), signed zeros and NaN included (fsubrev: b - a).  [S:f32]"""
    if op == "fsub":
        return B.fadd(a, B.xor(b, B.const(0x80000000)))
    if op == "fsubrev":
        return B.fadd(b, B.xor(a, B.const(0x80000000)))
    fn: LaneFn = getattr(B, op)
    return fn(a, b)


class ValuF32(Valu):
    """v_add_f32 / v_min_f32 / v_max_f32: binary32, round to nearest even;
    subnormals pass unless assumption f32.denormals=flush; the NEG/ABS source
    modifiers in VOP3 and DPP16 forms.  [S:f32] [S:f32-srcmods]"""

    def parse(self, line: Line, enc: str) -> Instr:
        neg, ab, ops = [0, 0], [0, 0], list(line.operands)
        for k in (1, 2):
            if k < len(ops):
                text, span = ops[k]
                t, n, a, shift = split_srcmods(text)
                ops[k] = (t, span.shifted(shift))
                neg[k - 1], ab[k - 1] = n, a
        ins = super().parse(dataclasses.replace(line, operands=ops), enc)
        if not (any(neg) or any(ab)):
            return ins
        k = 1 if neg[0] or ab[0] else 2
        if ins.enc == "e32":
            raise InputError(ins.operand_span(k), f"{ins.mnemonic} takes no source modifiers (VOP3 and DPP16 do)")
        if ins.enc == "dpp" and ins.mod("dpp8") is not None:  # the DPP8 dword has no modifier bits (VOP3 has)
            raise InputError(ins.operand_span(k), f"{ins.mnemonic} with dpp8 takes no source modifiers (_e64_dpp does)")
        extra = [(name, tuple(v)) for name, v in (("abs", ab), ("neg", neg)) if any(v)]
        return dataclasses.replace(ins, mods=tuple(sorted(ins.mods + tuple(extra))))

    def print(self, ins: Instr, target: Target | None = None) -> str:
        neg, ab = ins.mod("neg", (0, 0)), ins.mod("abs", (0, 0))
        texts = [operand_text(o) for o in ins.operands]
        for k in (1, 2):
            if ab[k - 1]:
                texts[k] = f"|{texts[k]}|"
            if neg[k - 1]:
                texts[k] = f"-{texts[k]}"
        plain = dataclasses.replace(ins, mods=tuple((n, v) for n, v in ins.mods if n not in ("neg", "abs")))
        mods = self.modifiers(ins.enc).print(plain, target)
        return " ".join(x for x in (ins.mnemonic, ", ".join(texts), mods) if x)

    def modified(self, fn: LaneFn, ins: Instr, m: Machine | None) -> LaneFn:
        """fn on the sources after their NEG/ABS modifiers.  Under DPP the
        swizzled source's modifier is applied in execute (before or after
        the swizzle: assumption dpp.srcmod_zero), the other one here."""
        neg, ab = ins.mod("neg", (0, 0)), ins.mod("abs", (0, 0))
        if not (any(neg) or any(ab)):
            return fn
        skip = self.dpp_operand(ins, m) - 1 if ins.enc in DPP_ENCS and m is not None else -1

        def g(B: Arith, a: Value, b: Value) -> Value:
            xs = [a, b]
            for k in (0, 1):
                if k != skip:
                    xs[k] = srcmod(B, xs[k], neg[k], ab[k])
            return fn(B, xs[0], xs[1])

        return g

    def __init__(self, base: str, op: str):
        super().__init__(base, 2, None, left_identity=exact_left(op) if op in ("fadd", "fmin", "fmax") else None,
                         clamp="f32")
        self.op = op

        def plain(B: Arith, a: Value, b: Value) -> Value:
            return _f32op(B, op, a, b)

        def flush(B: Arith, a: Value, b: Value) -> Value:
            return _ftz(B, _f32op(B, op, _ftz(B, a), _ftz(B, b)))

        self.plain, self.flush = plain, flush

    def lane_fn(self, ins: Instr, m: Machine | None = None) -> LaneFn:
        # m None: the default assumption (f32.denormals: subnormals pass), the one records are made under
        fn = self.flush if m is not None and m.assume("f32.denormals") == "flush" else self.plain
        return self.clamped(self.modified(fn, ins, m), ins, m)


class Bitop3(Valu):
    """v_bitop3_b32 vD, s0, s1, s2 bitop3:TT: bit i of vD is
    TT[{s0[i], s1[i], s2[i]}] (s0 the high index bit).  [S:valu]

    >>> from verify.backend import Concrete
    >>> f = Bitop3.table(0x80); g = Bitop3.table(0xFE); h = Bitop3.table(0xF0)
    >>> f(Concrete(), 0b1100, 0b1010, 0b1111), g(Concrete(), 0b1100, 0b1010, 0), h(Concrete(), 5, 6, 7)
    (8, 14, 5)
    """

    mods = Modifiers(int_modifier("bitop3", 0, 255, default=0, fmt=hex_text))

    def __init__(self) -> None:
        super().__init__("v_bitop3_b32", 3, None, "bitop3", vop3_only=True, dpp_ok=False)

    @staticmethod
    @cache
    def table(tt: int) -> LaneFn:
        """The lane function of truth table tt (one function object per tt)."""
        def fn(B: Arith, a: Value, b: Value, c: Value) -> Value:
            acc = B.const(0)
            for k in range(8):
                if (tt >> k) & 1:
                    term = B.const(0xFFFFFFFF)
                    for src, bit in ((a, (k >> 2) & 1), (b, (k >> 1) & 1), (c, k & 1)):
                        term = B.and_(term, src if bit else B.not_(src))
                    acc = B.or_(acc, term)
            return acc

        return fn

    def lane_fn(self, ins: Instr, m: Machine | None = None) -> LaneFn:
        return self.table(ins.mod("bitop3"))


VALU_OPS += [
    Bitop3(),
    ValuF32("v_add_f32", "fadd"),
    ValuF32("v_min_f32", "fmin"),
    ValuF32("v_max_f32", "fmax"),
    # v_subrev_f32 with DPP swizzles the printed src0 (unlike the integer subrev)  [S:dpp-rev]
    ValuF32("v_sub_f32", "fsub"),
    ValuF32("v_subrev_f32", "fsubrev"),
    Valu("v_mul_lo_u32", 2, lambda B, a, b: B.mul(a, b), vop3_only=True),
    # the 24-bit multiplies of the atomic optimizer: the low 32 bits of
    # S0[23:0] * S1[23:0] (+ S2)  [S:mul-u24]
    Valu("v_mul_u32_u24", 2, lambda B, a, b: B.mul(B.and_(a, B.const(0xFFFFFF)), B.and_(b, B.const(0xFFFFFF)))),
    Valu("v_mad_u32_u24", 3, lambda B, a, b, c: B.add(B.mul(B.and_(a, B.const(0xFFFFFF)),
                                                         B.and_(b, B.const(0xFFFFFF))), c), vop3_only=True),
]

for _op in VALU_OPS:
    register(_op)


class Cndmask(OpDef):
    """v_cndmask_b32 vD, src0, src1, mask: D = mask[i] ? src1 : src0."""

    base = "v_cndmask_b32"
    unit = "valu"
    sig = ("vdst", "src", "src", "mask")
    arg_names = ("vdst", "src0", "src1", "mask")
    # _e64_dpp: GFX11+, DPP on src0  [S:vop3-dpp-more]
    encs = {"": "", "_e32": "e32", "_e64": "e64", "_e64_dpp": "e64_dpp"}
    enc_mods: ClassVar[dict[str, Modifiers]] = {"e64_dpp": dpp.MODIFIERS}
    valu_constants = True

    def moves_lanes_in(self, ins: Instr) -> bool:
        return ins.enc == "e64_dpp"

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc == "e64_dpp" else frozenset()

    def uses(self, ins: Instr) -> list[str]:  # lanes DPP does not write keep the old value
        return super().uses(ins) + ([ins.operands[0].text] if ins.enc == "e64_dpp" else [])

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        return dpp.check_vop3(self, ins, target, wave, 2) if ins.enc == "e64_dpp" else []

    def parse(self, line: Line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if enc == "e64_dpp":
            dpp.require_vgpr_src0(ins, 1)
        if enc == "e32":
            if not isinstance(ins.operands[2], VReg):
                raise InputError(ins.operand_span(2), "src1 of v_cndmask_b32_e32 must be a VGPR (use _e64)")
            if ins.operands[3].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(3), "v_cndmask_b32_e32 reads its mask from vcc (use _e64 for an SGPR mask)")
        return ins

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1, mask = ins.operands
        a, b = m.read(s0), m.read(s1)
        lo, hi = m.scalar64(mask)
        sel = [m.mask_bit(lo, hi, i) for i in range(W)]
        if ins.enc == "e64_dpp":  # src0 swizzled; a lane the rule does not write keeps vD  [S:dpp-lane-rule]
            a, en = dpp.gather(m, ins, a, s0)
        else:
            en = m.actives()
        if m.step is not None:
            for i in range(W):
                pick = s1 if sel[i] else s0
                if not en[i]:
                    m.note(i, "kept", why=f"lane {i} inactive")
                else:
                    m.note(i, "written", (pick.text, i) if isinstance(pick, VReg) else None,
                           why=f"{operand_text(mask)}[{i}]={int(bool(sel[i]))} selects {operand_text(pick)}")
        m.write_v(dst.index, [B.ite(c, y, x) for c, x, y in zip(sel, a, b)], en)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, s0, s1, mask = ins.operands
        c = E.get_mask(mask)
        if ins.enc == "e64_dpp":
            if c == "entry-exec":
                E.unsupported("v_cndmask_b32_e64_dpp on the saved EXEC has no intrinsic spelling")
            E.set(dst, dpp.emit_alu(ins, E, lambda E_, x, y: E_.ite(c, y, x), [E.get(s0), E.get(s1)], dst, None))
            return
        if c == "entry-exec":  # in whole-wave mode, on the saved EXEC: set.inactive's meaning  [S:wwm]
            E.set(dst, E.entry_select(E.get(s1, raw=True), E.get(s0, raw=True)))
        else:
            E.set(dst, E.ite(c, E.get(s1), E.get(s0)))


register(Cndmask())

CMP_OPS: dict[str, LaneFn] = {
    "eq": lambda B, a, b, s: B.eq(a, b),
    "ne": lambda B, a, b, s: B.ne(a, b),
    "lt": lambda B, a, b, s: B.slt(a, b) if s else B.ult(a, b),
    "le": lambda B, a, b, s: B.sle(a, b) if s else B.ule(a, b),
    "gt": lambda B, a, b, s: B.slt(b, a) if s else B.ult(b, a),
    "ge": lambda B, a, b, s: B.sle(b, a) if s else B.ule(b, a),
}


class Cmp(OpDef):
    """v_cmp_<op>_<u32|i32> sdst, src0, src1: a lane mask; inactive lanes
    write 0.  [S:vopc]"""

    sig = ("maskdst", "src", "src")
    arg_names = ("sdst", "src0", "src1")
    unit = "valu"
    valu_constants = True
    # _e64_dpp: GFX11+, DPP on src0; the bit of an active lane DPP does not
    # write is the assumption vopc.dpp_unwritten  [S:vop3-dpp-more]
    encs = {"": "", "_e32": "e32", "_e64": "e64", "_e64_dpp": "e64_dpp"}
    enc_mods: ClassVar[dict[str, Modifiers]] = {"e64_dpp": dpp.MODIFIERS}

    def __init__(self, op: str, ty: str):
        self.base = f"v_cmp_{op}_{ty}"
        self.op = CMP_OPS[op]
        self.signed = ty == "i32"

    def moves_lanes_in(self, ins: Instr) -> bool:
        return ins.enc == "e64_dpp"

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc == "e64_dpp" else frozenset()

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        return dpp.check_vop3(self, ins, target, wave, 2) if ins.enc == "e64_dpp" else []

    def sources(self, ins: Instr, m: Machine) -> tuple[list[Value], list[Value], list[Cond]]:
        """src0 (swizzled under DPP), src1, and which lanes compute: the
        active ones, or those the DPP lane rule writes.  [S:dpp-lane-rule]"""
        _, s0, s1 = ins.operands[-3:]
        a, b = m.read(s0), m.read(s1)
        if ins.enc == "e64_dpp":
            a, en = dpp.gather(m, ins, a, s0)
            return a, b, en
        return a, b, m.actives()

    def mask_bits(self, ins: Instr, m: Machine, bits: list[Cond], en: list[Cond]) -> list[Cond]:
        """The mask: each computing lane's compare bit, 0 for an inactive
        lane [S:vopc], and for an active lane DPP leaves unwritten the
        assumption vopc.dpp_unwritten (0, or some bit).  [S:vop3-dpp-more]"""
        B = m.B
        out = [False if e is False else B.and_b(e, c) for e, c in zip(en, bits)]
        if ins.enc != "e64_dpp" or all(e is True for e in en) or m.assume("vopc.dpp_unwritten") == "zero":
            return out
        u = m.unknown_lanes(f"{operand_text(ins.operands[0])}@{m.line}(compare bit of a lane DPP does not write)")
        act = m.actives()
        return [B.or_b(o, B.and_b(B.and_b(a, B.not_b(e)), B.bit(x, 0))) if a is not False else False
                for o, e, a, x in zip(out, en, act, u)]

    def parse(self, line: Line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if enc == "e64_dpp":
            dpp.require_vgpr_src0(ins, 1)
        if enc == "e32":
            if ins.operands[0].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(0), f"{ins.mnemonic} writes vcc (use _e64 for an SGPR destination)")
            if not isinstance(ins.operands[2], VReg):
                raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR (use _e64)")
        return ins

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst = ins.operands[0]
        a, b, en = self.sources(ins, m)
        bits = [False if en[i] is False else self.op(B, a[i], b[i], self.signed) for i in range(W)]
        lo, hi = m.from_lane_bits(self.mask_bits(ins, m, bits, en))
        m.write_scalar64(dst, lo, hi)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, s0, s1 = ins.operands
        a = dpp.emit_full(ins, E, E.get(s0), ins.mnemonic) if ins.enc == "e64_dpp" else E.get(s0)
        E.set_mask(dst, self.op(E, a, E.get(s1), self.signed))


for _cmp in CMP_OPS:
    for _ty in ("u32", "i32"):
        register(Cmp(_cmp, _ty))


def _fnan(B: Backend, a: Value) -> Cond:
    return B.ult(B.const(0x7F800000), B.and_(a, B.const(0x7FFFFFFF)))


def _fsame(B: Backend, a: Value, b: Value) -> Cond:
    """Equal as IEEE numbers when neither is NaN: the same bits, or +0.0 and -0.0."""
    return B.or_b(B.eq(a, b), B.eq(B.and_(B.or_(a, b), B.const(0x7FFFFFFF)), B.const(0)))


def _ford(B: Backend, a: Value, b: Value) -> Cond:
    return B.and_b(B.not_b(_fnan(B, a)), B.not_b(_fnan(B, b)))


FCMP_OPS: dict[str, LaneFn] = {  # the IEEE predicates: "ordered" ones are false on a NaN  [S:vopc-f32]
    "eq": lambda B, a, b: B.and_b(_ford(B, a, b), _fsame(B, a, b)),
    "lg": lambda B, a, b: B.and_b(_ford(B, a, b), B.not_b(_fsame(B, a, b))),
    "neq": lambda B, a, b: B.not_b(B.and_b(_ford(B, a, b), _fsame(B, a, b))),
    "nlg": lambda B, a, b: B.not_b(B.and_b(_ford(B, a, b), B.not_b(_fsame(B, a, b)))),
    "o": lambda B, a, b: _ford(B, a, b),
    "u": lambda B, a, b: B.not_b(_ford(B, a, b)),
}


class CmpF32(Cmp):
    """v_cmp_<eq|lg|neq|nlg|o|u>_f32 sdst, src0, src1: IEEE binary32
    equality predicates to a lane mask (NaN equals nothing, +0.0 == -0.0;
    neq and nlg are true on a NaN); inactive lanes write 0.  Under
    f32.denormals=flush subnormal inputs compare as zero.  [S:vopc-f32]"""

    def __init__(self, op: str):
        self.base = f"v_cmp_{op}_f32"
        self.fop = FCMP_OPS[op]
        self.signed = False

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst = ins.operands[0]
        a, b, en = self.sources(ins, m)
        if m.assume("f32.denormals") == "flush":
            a, b = [_ftz(B, x) for x in a], [_ftz(B, x) for x in b]
        bits = [False if en[i] is False else self.fop(B, a[i], b[i]) for i in range(W)]
        lo, hi = m.from_lane_bits(self.mask_bits(ins, m, bits, en))
        m.write_scalar64(dst, lo, hi)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        """LLVM's fcmp with the predicate of the same name (the IEEE
        predicates of [S:vopc-f32]); the inputs as they are, which is the
        default f32.denormals."""
        dst, s0, s1 = ins.operands
        a = dpp.emit_full(ins, E, E.get(s0), ins.mnemonic) if ins.enc == "e64_dpp" else E.get(s0)
        E.set_mask(dst, E.fcmp(FCMP_PRED[self.base.split("_")[2]], a, E.get(s1)))


# verify's VOPC f32 names -> LLVM's fcmp predicates  [S:vopc-f32] [S:emit-exec-copy]
FCMP_PRED = {"eq": "oeq", "lg": "one", "neq": "une", "nlg": "ueq", "o": "ord", "u": "uno", "f": "false", "lt": "olt",
             "gt": "ogt", "le": "ole", "ge": "oge", "nge": "ult", "ngt": "ule", "nle": "ugt", "nlt": "uge", "tru": "true"}


for _fcmp in FCMP_OPS:
    register(CmpF32(_fcmp))


# `null` as a carry-out destination (GFX10+): the carry is discarded
NULL = SReg(("null",), "null")


class SubCarry(OpDef):
    """Integer subtract with a borrow-out lane mask, and optionally a
    borrow-in mask: ``v_sub_co_u32 vD, sD, s0, s1`` (D = S0 - S1, sD[i] =
    borrow), ``v_subb_co_u32`` / GFX10+ ``v_sub_co_ci_u32 vD, sD, s0, s1,
    sC`` (D = S0 - S1 - sC[i], sD[i] = S1 + sC[i] > S0), and the reversed
    forms (S0 and S1 swapped).  The borrow bit of a lane the instruction does
    not write is the assumption valu.carry_inactive.  [S:sub-carry]"""

    unit = "valu"
    valu_constants = True
    enc_mods: ClassVar[dict[str, Modifiers]] = {enc: dpp.MODIFIERS for enc in DPP_ENCS}

    def __init__(self, base: str, rev: bool, cin: bool, vop2_feature: str, encs: tuple[str, ...]):
        self.base, self.rev, self.cin = base, rev, cin
        self.vop2_feature = vop2_feature  # the feature the VOP2 (_e32, _dpp) forms need
        self.sig = ("vdst", "maskdst", "src", "src") + (("mask",) if cin else ())
        self.arg_names = ("vdst", "sdst", "src0", "src1") + (("carry_in",) if cin else ())
        self.encs = {suf: suf.lstrip("_") for suf in encs}
        self.dpp_rev = "always" if rev else None  # the swizzle lands on the printed src1  [S:dpp-rev]

    def moves_lanes_in(self, ins: Instr) -> bool:
        return ins.enc in DPP_ENCS

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc in DPP_ENCS else frozenset()

    def parse(self, line: Line, enc: str) -> Instr:
        ops = list(line.operands)
        null = len(ops) > 1 and ops[1][0].strip() == "null"
        if null:  # a discarded borrow (GFX10+): parsed as vcc, then replaced
            if enc not in ("", "e64"):
                raise InputError(ops[1][1], f"{line.mnemonic} writes vcc (use _e64 for null)")
            ops[1] = ("vcc_lo", ops[1][1])
        ins = super().parse(dataclasses.replace(line, operands=ops), enc)
        if null:
            ins = dataclasses.replace(ins, operands=(ins.operands[0], NULL, *ins.operands[2:]))
        if enc in ("e32", "dpp"):
            if ins.operands[1].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(1), f"{ins.mnemonic} writes vcc (use _e64 for an SGPR destination)")
            if self.cin and ins.operands[4].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(4), f"{ins.mnemonic} reads its carry from vcc (use _e64 for an SGPR)")
            if not isinstance(ins.operands[3], VReg):
                raise InputError(ins.operand_span(3), f"src1 of {ins.mnemonic} must be a VGPR (use _e64 for an SGPR or constant)")
        if enc in DPP_ENCS and not isinstance(ins.operands[2], VReg):
            raise InputError(ins.operand_span(2), f"src0 of {ins.mnemonic} must be a VGPR: DPP reads it from other lanes")
        return ins

    def modifiers(self, enc: str) -> Modifiers:
        return {"e32": NO_MODS, "dpp": dpp.MODIFIERS, "e64_dpp": dpp.MODIFIERS_CLAMP}.get(enc, CLAMP_MODS)

    def effective_enc(self, ins: Instr) -> str:
        if ins.enc:
            return ins.enc
        if ins.mod("clamp"):
            return "e64"
        vcc = ins.operands[1].names[0] == "vcc_lo" and (not self.cin or ins.operands[4].names[0] == "vcc_lo")
        return "e32" if vcc and isinstance(ins.operands[3], VReg) and "e32" in self.encs.values() else "e64"

    def check_common(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if ins.operands[1] is NULL:  # checked as a lane mask of the wave size
            self.require(target, "add_co_ci", "null as a borrow-out destination", ins.operand_span(1))
            mask = SReg(("vcc_lo", "vcc_hi")) if wave == 64 else SReg(("vcc_lo",))
            ins = dataclasses.replace(ins, operands=(ins.operands[0], mask, *ins.operands[2:]))
        return super().check_common(ins, target, wave)

    def defs(self, ins: Instr) -> list[str]:
        return [n for n in super().defs(ins) if n != "null"]

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if ins.enc in ("e32", "dpp"):
            self.require(target, self.vop2_feature, f"{ins.mnemonic} (a VOP2 form)", ins.span)
        if ins.mod("clamp"):
            self.require(target, "clamp_sub_carry", f"clamp on {ins.mnemonic}", ins.span)
        if ins.enc == "e64_dpp":
            return dpp.check_vop3(self, ins, target, wave, 3)
        return dpp.check(ins, target, wave) if ins.enc in DPP_ENCS else []

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, sdst, s0, s1 = ins.operands[:4]
        srcs = [m.read(s0), m.read(s1)]
        if self.cin:
            cop = ins.operands[4]
            lo, hi = m.scalar64(cop)
            if W == 64 and cop.names == ("exec_lo", "exec_hi"):
                hi = B.const(0)  # only EXEC_LO is forwarded as a carry-in  [S:sub-carry]
            cin = [B.ite(m.mask_bit(lo, hi, i), B.const(1), B.const(0)) for i in range(W)]
        if ins.enc in DPP_ENCS:
            k = 1 if self.dpp_rev and m.assume("dpp.rev_operand") == "src1" else 0
            reg = ins.operands[2 + k]
            if not isinstance(reg, VReg):  # a swizzle of a scalar src1: any value and borrow  [S:dpp-rev]
                u = m.unknown_lanes(f"{operand_text(dst)}@{m.line}(DPP of the scalar src1)")
                ub = m.unknown_lanes(f"{operand_text(sdst)}@{m.line}(DPP of the scalar src1)")
                act = m.actives()
                m.note_lanes(act, "unknown: DPP of a scalar src1 under dpp.rev_operand=src1")
                m.write_v(dst.index, u, act)
                blo, bhi = m.from_lane_bits([B.bit(x, 0) for x in ub])
                m.write_scalar64(sdst, blo, bhi)
                return
            srcs[k], en = dpp.gather(m, ins, srcs[k], reg)
        else:
            en = m.actives()
            m.note_lanes(en, f"computed by {ins.mnemonic}")
        a, b = (srcs[1], srcs[0]) if self.rev else (srcs[0], srcs[1])
        res, borrow = [], []
        for i in range(W):
            if self.cin:
                res.append(B.sub(B.sub(a[i], b[i]), cin[i]))
                borrow.append(B.or_b(B.ult(a[i], b[i]), B.and_b(B.eq(a[i], b[i]), B.eq(cin[i], B.const(1)))))
            else:
                res.append(B.sub(a[i], b[i]))
                borrow.append(B.ult(a[i], b[i]))
        if ins.mod("clamp"):  # an unsigned result saturates at 0 on a borrow  [S:clamp]
            res = [B.ite(c, B.const(0), r) for c, r in zip(borrow, res)]
        if any(e is not True for e in en):
            if m.assume("valu.carry_inactive") == "unknown":
                u = m.unknown_lanes(f"{operand_text(sdst)}@{m.line}(borrow of a lane not written)")
                other = [B.bit(x, 0) for x in u]
            else:
                other = [False] * W
            borrow = [B.or_b(B.and_b(e, x), B.and_b(B.not_b(e), o)) for e, x, o in zip(en, borrow, other)]
        m.write_v(dst.index, res, en)
        if sdst is NULL:
            return
        blo, bhi = m.from_lane_bits(borrow)
        m.write_scalar64(sdst, blo, bhi)

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if ins.enc in DPP_ENCS:  # lanes that are not written keep the old value
            out.append(ins.operands[0].text)
        return out

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        """The difference, and its borrow as an i1 per lane (as AddCarry's
        carry: a lane mask only a borrow-in, v_cndmask or an i1 operation
        reads)."""
        if ins.enc in DPP_ENCS:
            E.unsupported("a DPP subtract with a borrow-out has no intrinsic")
        dst, sdst, s0, s1 = ins.operands[:4]
        a, b = E.get(s0), E.get(s1)
        if self.rev:
            a, b = b, a
        if self.cin:
            cop = ins.operands[4]
            if "exec_lo" in cop.names:  # only EXEC_LO is forwarded in wave64  [S:sub-carry]
                E.unsupported("EXEC as a borrow-in")
            c = E.get_mask(cop)
            res = E.sub(E.sub(a, b), E.ite(c, 1, 0))
            borrow = E.or_b(E.ult(a, b), E.and_b(E.eq(a, b), c))
        else:
            res, borrow = E.sub(a, b), E.ult(a, b)
        if ins.mod("clamp"):
            res = E.ite(borrow, 0, res)
        E.set(dst, res)
        if sdst is not NULL:
            E.set_mask(sdst, borrow)


_ALL_ENCS = ("", "_e32", "_e64", "_dpp", "_e64_dpp")
SUB_CARRY_OPS = [
    SubCarry("v_sub_co_u32", False, False, "sub_co_vop2_gfx9", _ALL_ENCS),
    SubCarry("v_subrev_co_u32", True, False, "sub_co_vop2_gfx9", _ALL_ENCS),
    SubCarry("v_subb_co_u32", False, True, "sub_co_vop2_gfx9", ("", "_e32", "_e64", "_dpp")),
    SubCarry("v_subbrev_co_u32", True, True, "sub_co_vop2_gfx9", ("", "_e32", "_e64", "_dpp")),
    SubCarry("v_sub_co_ci_u32", False, True, "sub_co_ci", _ALL_ENCS),
    SubCarry("v_subrev_co_ci_u32", True, True, "sub_co_ci", _ALL_ENCS),
]
for _sc in SUB_CARRY_OPS:
    # v_sub_co_u32/v_subrev_co_u32 exist as VOP3 from GFX9 on; the others only where their VOP2 forms do
    _sc.feature = "sub_co_u32" if not _sc.cin else _sc.vop2_feature
    register(_sc)


class Cmpx(Cmp):
    """v_cmpx_<op>_<u32|i32>: the compare of v_cmp_* (inactive lanes give 0),
    written to EXEC, so EXEC becomes EXEC & cmp.  GFX8/9 spell it with a
    destination that is written too (``v_cmpx_eq_u32 vcc, v1, v2``, VCC for
    _e32, an SGPR pair for _e64); GFX10+ without one (``v_cmpx_eq_u32 v1,
    v2``: only EXEC is written).  The two spellings are told apart by their
    operand count; the GFX10+ one has the encodings "x", "e32x", "e64x".
    [S:vopc] [S:cmpx]"""

    encs = {"": "", "_e32": "e32", "_e64": "e64"}

    def __init__(self, op: str, ty: str):
        super().__init__(op, ty)
        self.base = f"v_cmpx_{op}_{ty}"

    def sig_for(self, enc: str) -> tuple[str, ...]:
        return ("src", "src") if enc.endswith("x") else ("maskdst", "src", "src")

    def arg_names_for(self, enc: str) -> tuple[str, ...]:
        return ("src0", "src1") if enc.endswith("x") else ("sdst", "src0", "src1")

    def parse(self, line: Line, enc: str) -> Instr:
        if len(line.operands) == 2:  # the GFX10+ spelling: EXEC is the only destination
            ins = OpDef.parse(self, line, enc + "x")
            if enc == "e32" and not isinstance(ins.operands[1], VReg):
                raise InputError(ins.operand_span(1), f"src1 of {ins.mnemonic} must be a VGPR (use _e64)")
            return ins
        return super().parse(line, enc)

    def effective_enc(self, ins: Instr) -> str:
        if ins.enc.endswith("x"):  # the constant rules of the encoding it stands for
            return ins.enc[:-1] or ("e32" if isinstance(ins.operands[1], VReg) else "e64")
        return super().effective_enc(ins)

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if ins.enc.endswith("x"):
            self.require(target, "cmpx_exec_only", f"{ins.mnemonic} without a destination", ins.span)
        else:
            self.require(target, "cmpx_sdst", f"{ins.mnemonic} with a destination", ins.span)
        return []

    def defs(self, ins: Instr) -> list[str]:
        return super().defs(ins) + ["exec_lo", "exec_hi"]

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        s0, s1 = ins.operands[-2:]
        a, b = m.read(s0), m.read(s1)
        bits = [B.and_b(m.active(i), self.op(B, a[i], b[i], self.signed)) for i in range(W)]
        lo, hi = m.from_lane_bits(bits)
        if not ins.enc.endswith("x"):
            m.write_scalar64(ins.operands[0], lo, hi)
        m.set_s("exec_lo", lo)
        if W == 64:
            m.set_s("exec_hi", hi)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported("v_cmpx writes EXEC, which no intrinsic spells")


for _cmp in CMP_OPS:
    for _ty in ("u32", "i32"):
        register(Cmpx(_cmp, _ty))
