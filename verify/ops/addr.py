"""Integer and address arithmetic as LLVM emits it in whole kernels: the
carry chain of 64-bit adds (v_add_co_u32, GFX9 v_addc_co_u32, GFX10+
v_add_co_ci_u32), 64-bit shifts (v_lshlrev_b64, s_lshl_b64, s_lshr_b64),
high products (v_mul_hi_u32, s_mul_hi_u32, v_mad_u64_u32), v_lshl_add_u64,
s_addc_u32 and s_ashr_i32.
All 64-bit arithmetic is built from the backend's 32-bit operations.
[S:addr]
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..backend import Arith, Backend, Cond, Value
from ..diag import InputError, Warning_
from ..ir import Imm, Instr, SReg, VReg
from ..syntax import Line, float_text, operand_text
from ..target import Target, needs_text
from . import dpp
from .base import Modifiers, OpDef, is_inline_constant, is_inline_constant64, register, written_value
from .salu import Salu2
from .valu import DPP_ENCS, NULL, Cmp, Valu

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine



# ---------------------------------------------------------------------------
# 32-bit building blocks


def mul_hi_u32(B: Arith, a: Value, b: Value) -> Value:
    """The high 32 bits of the unsigned 64-bit product a * b, from 16-bit
    halves (every partial product fits 32 bits).

    >>> from verify.backend import Concrete
    >>> B = Concrete()
    >>> [hex(mul_hi_u32(B, a, b)) for a, b in ((0xFFFFFFFF, 0xFFFFFFFF), (0x10000, 0x10000), (3, 5))]
    ['0xfffffffe', '0x1', '0x0']
    """
    wide = getattr(B, "mul_hi", None)  # (a backend's own term for it: verify/smt, one 64-bit product)
    if wide is not None:
        return wide(a, b)
    m16 = B.const(0xFFFF)
    s16 = B.const(16)
    al, ah = B.and_(a, m16), B.lshr(a, s16)
    bl, bh = B.and_(b, m16), B.lshr(b, s16)
    p0, p1, p2, p3 = B.mul(al, bl), B.mul(al, bh), B.mul(ah, bl), B.mul(ah, bh)
    mid = B.add(B.add(B.lshr(p0, s16), B.and_(p1, m16)), B.and_(p2, m16))
    return B.add(B.add(B.add(p3, B.lshr(p1, s16)), B.lshr(p2, s16)), B.lshr(mid, s16))


def shl64(B: Arith, lo: Value, hi: Value, n: Value) -> tuple[Value, Value]:
    """(lo, hi) << n[5:0].

    >>> from verify.backend import Concrete
    >>> B = Concrete()
    >>> [tuple(map(hex, shl64(B, 0x80000001, 0x1, n))) for n in (0, 1, 32, 33, 64 + 4)]
    [('0x80000001', '0x1'), ('0x2', '0x3'), ('0x0', '0x80000001'), ('0x0', '0x2'), ('0x10', '0x18')]
    """
    k = B.and_(n, B.const(63))
    small = B.ult(k, B.const(32))
    # a shift by 32 or more gives 0 on both backends, so k = 0 carries nothing over
    lo_s = B.shl(lo, k)
    hi_s = B.or_(B.shl(hi, k), B.lshr(lo, B.sub(B.const(32), k)))
    big = B.shl(lo, B.sub(k, B.const(32)))
    return B.ite(small, lo_s, B.const(0)), B.ite(small, hi_s, big)


def lshr64(B: Arith, lo: Value, hi: Value, n: Value) -> tuple[Value, Value]:
    """(lo, hi) >> n[5:0], logical.

    >>> from verify.backend import Concrete
    >>> B = Concrete()
    >>> [tuple(map(hex, lshr64(B, 0x2, 0x80000001, n))) for n in (0, 1, 32, 63)]
    [('0x2', '0x80000001'), ('0x80000001', '0x40000000'), ('0x80000001', '0x0'), ('0x1', '0x0')]
    """
    k = B.and_(n, B.const(63))
    small = B.ult(k, B.const(32))
    lo_s = B.or_(B.lshr(lo, k), B.shl(hi, B.sub(B.const(32), k)))
    hi_s = B.lshr(hi, k)
    big = B.lshr(hi, B.sub(k, B.const(32)))
    return B.ite(small, lo_s, big), B.ite(small, hi_s, B.const(0))


def add_carry(B: Backend, a: Value, b: Value, c: Cond | None = None) -> tuple[Value, Cond]:
    """(a + b + c) mod 2**32 and its carry-out (c a carry-in bit, or none).

    >>> from verify.backend import Concrete
    >>> B = Concrete()
    >>> add_carry(B, 0xFFFFFFFF, 1), add_carry(B, 0xFFFFFFFF, 0, True), add_carry(B, 5, 6, True)
    ((0, True), (0, True), (12, False))
    """
    t = B.add(a, b)
    c1 = B.ult(t, a)
    if c is None:
        return t, c1
    r = B.add(t, B.ite(c, B.const(1), B.const(0)))
    return r, B.or_b(c1, B.ult(r, t))


# ---------------------------------------------------------------------------
# VALU


class AddCarry(OpDef):
    """``v_add_co_u32 vD, sD, s0, s1``: D = S0 + S1, sD[i] = its carry-out;
    ``v_addc_co_u32`` (GFX9) / ``v_add_co_ci_u32`` (GFX10+) ``vD, sD, s0,
    s1, sC``: D = S0 + S1 + sC[i].  The carry bit of a lane the instruction
    does not write is the assumption valu.carry_inactive (default: unknown;
    the ISA pseudocode writes it only for active lanes).  GFX10+ may discard the carry: ``sD`` = ``null``.  The DPP forms
    (``_dpp``: VOP2, vcc only; ``_e64_dpp``: VOP3, GFX11+) swizzle src0 by
    the DPP lane rule; a lane they do not write keeps its destination and gets
    an unknown carry bit.  [S:addr] [S:dpp-lane-rule]"""

    unit = "valu"
    valu_constants = True

    def __init__(self, base: str, cin: bool, feature: str, vop2_feature: str, encs: tuple[str, ...]):
        self.base, self.cin, self.feature, self.vop2_feature = base, cin, feature, vop2_feature
        self.sig = ("vdst", "maskdst", "src", "src") + (("mask",) if cin else ())
        self.arg_names = ("vdst", "sdst", "src0", "src1") + (("carry_in",) if cin else ())
        self.encs = {suf: suf.lstrip("_") for suf in encs}

    def parse(self, line: Line, enc: str) -> Instr:
        ops = list(line.operands)
        null = len(ops) > 1 and ops[1][0].strip() == "null"
        if null:
            ops[1] = ("vcc_lo", ops[1][1])  # parsed as a placeholder, then replaced
        ins = super().parse(replace(line, operands=ops), enc)
        if null:
            if enc in ("e32", "dpp"):
                raise InputError(ins.operand_span(1), f"{ins.mnemonic} writes vcc (use _e64 for null)")
            ins = replace(ins, operands=(ins.operands[0], NULL, *ins.operands[2:]))
        if self.cin and ins.operands[4].names[0] == "exec_lo":
            raise InputError(ins.operand_span(4), f"EXEC as the carry-in of {ins.mnemonic} is not modelled")
        if enc in DPP_ENCS and not isinstance(ins.operands[2], VReg):
            raise InputError(ins.operand_span(2), f"src0 of {ins.mnemonic} must be a VGPR: DPP reads it from other lanes")
        if enc in ("e32", "dpp"):
            if ins.operands[1].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(1), f"{ins.mnemonic} writes vcc (use _e64 for an SGPR destination)")
            if self.cin and ins.operands[4].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(4), f"{ins.mnemonic} reads its carry from vcc (use _e64 for an SGPR)")
            if not isinstance(ins.operands[3], VReg):
                raise InputError(ins.operand_span(3), f"src1 of {ins.mnemonic} must be a VGPR (use _e64 for an SGPR or constant)")
        return ins

    def _probe(self, ins: Instr, wave: int) -> Instr:
        """`ins` with a `null` destination replaced by a lane mask of the wave size (for the common checks)."""
        if ins.operands[1] is not NULL:
            return ins
        mask = SReg(("vcc_lo", "vcc_hi")) if wave == 64 else SReg(("vcc_lo",))
        return replace(ins, operands=(ins.operands[0], mask, *ins.operands[2:]))

    def check_common(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if ins.operands[1] is NULL:
            self.require(target, "add_co_ci", "null as a carry-out destination", ins.operand_span(1))
        return super().check_common(self._probe(ins, wave), target, wave)

    def effective_enc(self, ins: Instr) -> str:
        if ins.enc:
            return ins.enc
        vcc = ins.operands[1].names[0] == "vcc_lo" and (not self.cin or ins.operands[4].names[0] == "vcc_lo")
        return "e32" if vcc and isinstance(ins.operands[3], VReg) and "e32" in self.encs.values() else "e64"

    def modifiers(self, enc: str) -> Modifiers:
        return dpp.MODIFIERS if enc in DPP_ENCS else super().modifiers(enc)

    def moves_lanes_in(self, ins: Instr) -> bool:
        return ins.enc in DPP_ENCS

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc in DPP_ENCS else frozenset()

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if ins.enc in DPP_ENCS:  # lanes that are not written keep the old value
            out.append(ins.operands[0].text)
        return out

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if ins.enc in ("e32", "dpp"):
            self.require(target, self.vop2_feature, f"{ins.mnemonic} (a VOP2 form)", ins.span)
        if ins.enc == "e64_dpp":
            return dpp.check_vop3(self, ins, target, wave, 3)
        return dpp.check(ins, target, wave) if ins.enc in DPP_ENCS else []

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, sdst, s0, s1 = ins.operands[:4]
        a, b = m.read(s0), m.read(s1)
        cin: list[Any] = [None] * W
        if self.cin:
            lo, hi = m.scalar64(ins.operands[4])
            cin = [m.mask_bit(lo, hi, i) for i in range(W)]
        if ins.enc in DPP_ENCS:
            a, en = dpp.gather(m, ins, a, s0)
        else:
            en = m.actives()
            m.note_lanes(en, f"computed by {ins.mnemonic}")
        res, carry = [], []
        for i in range(W):
            r, c = add_carry(B, a[i], b[i], cin[i])
            res.append(r)
            carry.append(c)
        self.write_carry(m, sdst, carry, en)
        m.write_v(dst.index, res, en)

    def write_carry(self, m: Machine, sdst: SReg, carry: list[Cond], en: list[Cond]) -> None:
        """The carry-out mask: each written lane's carry; for the others the
        assumption valu.carry_inactive (an unknown bit, or 0), as for the
        borrow ops.  [S:sub-carry]"""
        B = m.B
        if sdst is NULL:
            return
        if any(e is not True for e in en):
            if m.assume("valu.carry_inactive") == "unknown":
                u = m.unknown_lanes(f"{operand_text(sdst)}@{m.line}(carry of a lane not written)")
                carry = [B.or_b(B.and_b(e, c), B.and_b(B.not_b(e), B.bit(x, 0))) for e, c, x in zip(en, carry, u)]
            else:
                carry = [B.and_b(e, c) for e, c in zip(en, carry)]
        lo, hi = m.from_lane_bits(carry)
        m.write_scalar64(sdst, lo, hi)

    def defs(self, ins: Instr) -> list[str]:
        return [n for n in super().defs(ins) if n != "null"]

    def emit(self, ins: Instr, E: Any) -> None:
        """The sum, and its carry as an i1 per lane (a lane mask only a
        carry-in, v_cndmask or an i1 operation reads)."""
        if ins.enc in DPP_ENCS:
            E.unsupported("a DPP add with a carry-out has no intrinsic")
        dst, sdst, s0, s1 = ins.operands[:4]
        cin = E.get_mask(ins.operands[4]) if self.cin else None
        r, c = add_carry(E, E.get(s0), E.get(s1), cin)
        E.set(dst, r)
        if sdst is not NULL:
            E.set_mask(sdst, c)


class MadU64(AddCarry):
    """``v_mad_u64_u32 vD[2], sD, s0, s1, s2[2]``: D = S0 * S1 + S2
    (unsigned, 64-bit), sD[i] = the carry-out of the 64-bit add; VOP3b on
    every generation, `null` for sD on GFX10+.  [S:addr]"""

    def __init__(self) -> None:
        super().__init__("v_mad_u64_u32", False, "", "", ("", "_e64"))
        self.feature = None
        self.encs = {"": "e64", "_e64": "e64"}
        self.sig = ("vdst64", "maskdst", "src", "src", "src64")
        self.arg_names = ("vdst", "sdst", "src0", "src1", "src2")

    def emit(self, ins: Instr, E: Any) -> None:
        E.unsupported("verify has no intrinsic or builtin spelling for it")

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, sdst, s0, s1, s2 = ins.operands
        a, b, (clo, chi) = m.read(s0), m.read(s1), _pair(m, s2)
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        lo, hi, carry = [], [], []
        for i in range(W):
            rlo, c1 = add_carry(B, B.mul(a[i], b[i]), clo[i])
            rhi, c2 = add_carry(B, mul_hi_u32(B, a[i], b[i]), chi[i], c1)
            lo.append(rlo)
            hi.append(rhi)
            carry.append(c2)
        self.write_carry(m, sdst, carry, en)
        m.write_v(dst.index, lo, en)
        m.write_v(dst.index + 1, hi, en)


class ShiftLeft64(OpDef):
    """``v_lshlrev_b64 vD[2], s0, s1[2]``: D = S1 << S0[5:0] (64-bit), per
    active lane.  VOP3 on GFX8-GFX11, also VOP2 (_e32) on GFX12; one scalar
    value (SGPR or literal) at most, on every generation.  [S:addr]"""

    base = "v_lshlrev_b64"
    unit = "valu"
    sig = ("vdst64", "src", "src64")
    arg_names = ("vdst", "src0", "src1")
    encs = {"": "", "_e32": "e32", "_e64": "e64"}
    alias_features = {"v_lshlrev_b64_e32": "lshlrev_b64_vop2"}
    valu_constants = True

    vop2 = True  # has the GFX12 VOP2 form

    def check_constants(self, ins: Instr, target: Target, reads_vcc: bool = False) -> None:
        _, s0, s1 = ins.operands
        enc = ins.enc or ("e32" if self.vop2 and target.has("lshlrev_b64_vop2") and isinstance(s1, VReg) else "e64")
        if enc == "e32" and not isinstance(s1, VReg):
            raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR pair (use _e64)")
        lits = [(k, op.value) for k, op, wide in ((1, s0, False), (2, s1, True)) if isinstance(op, Imm)
                and not (is_inline_constant64(op) if wide else is_inline_constant(op.value))]
        if lits and enc == "e64" and not target.has("vop3_literal"):
            raise InputError(ins.operand_span(lits[0][0]), f"a literal constant in a VOP3 encoding is not available "
                                                           f"on {target.name}: {needs_text('vop3_literal')}")
        scalars = len({op.names for op in (s0, s1) if isinstance(op, SReg)}) + len({v for _, v in lits})
        if scalars > 1:
            raise InputError(ins.span, f"{ins.mnemonic} reads {scalars} scalar values (SGPRs and literals); "
                                       f"a 64-bit shift allows 1")

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        n = m.read(s0)
        lo, hi = _pair(m, s1)
        out = [self.shift(B, lo[i], hi[i], n[i]) for i in range(W)]
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        m.write_v(dst.index, [r[0] for r in out], en)
        m.write_v(dst.index + 1, [r[1] for r in out], en)

    def emit(self, ins: Instr, E: Any) -> None:
        """The same 64-bit shift on the halves (the emitter's 32-bit shifts
        give 0 for an amount of 32 or more, as the lane function assumes)."""
        dst, s0, s1 = ins.operands
        lo, hi = E.get_pair(s1)
        rlo, rhi = self.shift(E, lo, hi, E.get(s0))
        E.set(VReg(dst.index), rlo)
        E.set(VReg(dst.index + 1), rhi)

    @staticmethod
    def shift(B: Arith, lo: Value, hi: Value, n: Value) -> tuple[Value, Value]:
        return shl64(B, lo, hi, n)


class ShiftRight64(ShiftLeft64):
    """``v_lshrrev_b64 vD[2], s0, s1[2]``: D = S1 >> S0[5:0] (64-bit,
    logical), per active lane; VOP3 only on every generation, one scalar
    value at most.  [S:addr]"""

    base = "v_lshrrev_b64"
    encs = {"": "", "_e64": "e64"}
    alias_features: dict[str, str] = {}
    vop2 = False

    @staticmethod
    def shift(B: Arith, lo: Value, hi: Value, n: Value) -> tuple[Value, Value]:
        return lshr64(B, lo, hi, n)


class ShiftAdd64(OpDef):
    """``v_lshl_add_u64 vD[2], s0[2], s1, s2[2]`` (gfx942, gfx950): D =
    (S0 << S1) + S2, 64-bit, per active lane.  A shift amount above 4 is the
    assumption lshl_add_u64.shift (asked only when the amount is not a
    constant 0-4).  [S:addr]"""

    base = "v_lshl_add_u64"
    unit = "valu"
    sig = ("vdst64", "src64", "src", "src64")
    arg_names = ("vdst", "src0", "src1", "src2")
    encs = {"": "e64", "_e64": "e64"}
    feature = "lshl_add_u64"
    valu_constants = True

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1, s2 = ins.operands
        a, c = _pair(m, s0), _pair(m, s2)
        n = m.read(s1)
        low3 = (isinstance(s1, Imm) and 0 <= s1.value <= 4) or m.assume("lshl_add_u64.shift") == "low3"
        lo, hi = [], []
        unknown: tuple[list[Any], list[Any]] | None = None
        for i in range(W):
            slo, shi = shl64(B, a[0][i], a[1][i], B.and_(n[i], B.const(7)))
            rlo, carry = add_carry(B, slo, c[0][i])
            rhi, _ = add_carry(B, shi, c[1][i], carry)
            if not low3:
                if unknown is None:
                    tag = f"{operand_text(dst)}@{m.line}(shift above 4)"
                    unknown = m.unknown_lanes(tag + ".lo"), m.unknown_lanes(tag + ".hi")
                ok = B.ule(n[i], B.const(4))
                rlo, rhi = B.ite(ok, rlo, unknown[0][i]), B.ite(ok, rhi, unknown[1][i])
            lo.append(rlo)
            hi.append(rhi)
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        m.write_v(dst.index, lo, en)
        m.write_v(dst.index + 1, hi, en)

    def emit(self, ins: Instr, E: Any) -> None:
        """With a constant shift of 0-4 only (a larger one is an assumption,
        lshl_add_u64.shift): the 64-bit shift and add on the halves."""
        dst, s0, s1, s2 = ins.operands
        if not (isinstance(s1, Imm) and 0 <= s1.value <= 4):
            E.unsupported("a shift amount that is not a constant 0-4 (assumption lshl_add_u64.shift)")
        (alo, ahi), (clo, chi) = E.get_pair(s0), E.get_pair(s2)
        slo, shi = shl64(E, alo, ahi, s1.value)
        rlo, carry = add_carry(E, slo, clo)
        rhi, _ = add_carry(E, shi, chi, carry)
        E.set(VReg(dst.index), rlo)
        E.set(VReg(dst.index + 1), rhi)


def _pair(m: Machine, op: VReg | SReg | Imm, signed: bool = False) -> tuple[list[Any], list[Any]]:
    """A 64-bit VALU source as (low lanes, high lanes).  In a signed (I64)
    operand a 32-bit literal is sign-extended (ISA "literal expansion"; an
    inline constant is a 64-bit value either way).  [S:literal64]"""
    if isinstance(op, VReg):
        return m.v(op.index), m.v(op.index + 1)
    if signed and isinstance(op, Imm) and not op.wide and not is_inline_constant64(op) and float_text(op.text) is None:
        v = written_value(op) & 0xFFFFFFFF
        hi = 0xFFFFFFFF if v >> 31 else 0
        return [m.B.const(v)] * m.W, [m.B.const(hi)] * m.W
    x, y = m.scalar64(op)
    return [x] * m.W, [y] * m.W


def order64(B: Backend, signed: bool, strict: bool, a: tuple[Value, Value], b: tuple[Value, Value]) -> Cond:
    """a < b (`strict`) or a <= b on (lo, hi) pairs, lexicographically: the
    high halves decide (signed or not), equal high halves leave it to the
    low halves (unsigned).  The same formula as the 64-bit spec lanes
    (verify.wide), so a solver meets the same terms on both sides.

    >>> from verify.backend import Concrete
    >>> B = Concrete()
    >>> order64(B, False, True, (5, 1), (0xFFFFFFFF, 0)), order64(B, True, True, (0, 0xFFFFFFFF), (0, 0))
    (False, True)
    >>> order64(B, False, False, (3, 3), (3, 3)), order64(B, False, True, (3, 3), (3, 3))
    (True, False)
    """
    high = B.slt(a[1], b[1]) if signed else B.ult(a[1], b[1])
    low = B.ult(a[0], b[0]) if strict else B.ule(a[0], b[0])
    return B.or_b(high, B.and_b(B.eq(a[1], b[1]), low))


CMP64: dict[str, Any] = {
    "eq": lambda B, s, a, b: B.and_b(B.eq(a[0], b[0]), B.eq(a[1], b[1])),
    "ne": lambda B, s, a, b: B.or_b(B.ne(a[0], b[0]), B.ne(a[1], b[1])),
    "lt": lambda B, s, a, b: order64(B, s, True, a, b),
    "le": lambda B, s, a, b: order64(B, s, False, a, b),
    "gt": lambda B, s, a, b: order64(B, s, True, b, a),
    "ge": lambda B, s, a, b: order64(B, s, False, b, a),
}


class Cmp64(Cmp):
    """``v_cmp_<op>_<u64|i64> sdst, s0[2], s1[2]``: a 64-bit compare per lane
    into a lane mask (inactive lanes write 0), as v_cmp_*_u32 does; the
    order is lexicographic on (high, low), signed or not in the high half.
    [S:vopc] [S:wide64]"""

    sig = ("maskdst", "src64", "src64")
    encs = {"": "", "_e32": "e32", "_e64": "e64"}  # no _e64_dpp (llvm-mc-22, GFX11/12)  [S:vop3-dpp-more]

    def __init__(self, op: str, ty: str):
        self.base = f"v_cmp_{op}_{ty}"
        self.cmp64 = CMP64[op]
        self.signed = ty == "i64"

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        (al, ah), (bl, bh) = _pair(m, s0, self.signed), _pair(m, s1, self.signed)
        bits = []
        for i in range(W):
            # (an operand as the lane reads it where it is active: a register
            # a VALU wrote under EXEC, ite(exec_i, new, old), is its new value)
            act = m.active(i)
            a = (B.under(al[i], act), B.under(ah[i], act))
            b = (B.under(bl[i], act), B.under(bh[i], act))
            bits.append(B.and_b(act, self.cmp64(B, self.signed, a, b)))
        lo, hi = m.from_lane_bits(bits)
        m.write_scalar64(dst, lo, hi)

    def emit(self, ins: Instr, E: Any) -> None:
        dst, s0, s1 = ins.operands
        E.set_mask(dst, self.cmp64(E, self.signed, E.get_pair(s0), E.get_pair(s1)))


# ---------------------------------------------------------------------------
# SALU


class AddcScalar(Salu2):
    """``s_addc_u32 sD, s0, s1``: D = S0 + S1 + SCC; SCC = the carry-out.
    GFX12 spells it s_add_co_ci_u32.  [S:addr]"""

    def __init__(self) -> None:
        super().__init__("s_addc_u32", lambda B, x, y: B.add(x, y), None, ("s_add_co_ci_u32", "salu_gfx12_names"))

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, a, b = ins.operands
        r, c = add_carry(m.B, m.scalar(a), m.scalar(b), m.scc)
        m.write_scalar(dst, r)
        m.scc = c

    def uses(self, ins: Instr) -> list[str]:
        return super().uses(ins) + ["scc"]


class Shift64Scalar(OpDef):
    """``s_lshl_b64 / s_lshr_b64 sD[2], s0[2], s1``: a 64-bit shift by
    S1[5:0]; SCC = result != 0.  [S:addr]"""

    unit = "salu"
    sig = ("sdst64", "ssrc64", "ssrc")
    arg_names = ("sdst", "ssrc0", "ssrc1")

    def __init__(self, base: str, left: bool):
        self.base, self.left = base, left

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        _, a, b = ins.operands
        lits = [(k, op.value) for k, op, wide in ((1, a, True), (2, b, False)) if isinstance(op, Imm)
                and not (is_inline_constant64(op) if wide else is_inline_constant(op.value))]
        if len({v for _, v in lits}) > 1:
            raise InputError(ins.operand_span(lits[1][0]), "only one unique literal constant is allowed")
        return warns

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a, b = ins.operands
        lo, hi = m.scalar64(a)
        rlo, rhi = (shl64 if self.left else lshr64)(B, lo, hi, m.scalar(b))
        m.write_scalar64(dst, rlo, rhi)
        m.scc = B.or_b(B.ne(rlo, B.const(0)), B.ne(rhi, B.const(0)))

    def emit(self, ins: Instr, E: Any) -> None:
        dst, a, b = ins.operands
        lo, hi = E.get_pair(a)
        rlo, rhi = (shl64 if self.left else lshr64)(E, lo, hi, E.get(b))
        E.set(SReg((dst.names[0],)), rlo)
        E.set(SReg((dst.names[1],)), rhi)
        E.set_scc(E.or_b(E.ne(rlo, 0), E.ne(rhi, 0)))

    def defs(self, ins: Instr) -> list[str]:
        return super().defs(ins) + ["scc"]


class MovB64(OpDef):
    """``v_mov_b64 vD[2], s0[2]``: D = S0 (64 bits), per active lane; VOP1
    (_e32) and VOP3 (_e64) on gfx940+ only; the source a VGPR pair, an SGPR
    pair or a constant (a literal zero-extended, [S:literal64]).  [S:mov-b64]"""

    base = "v_mov_b64"
    unit = "valu"
    feature = "mov_b64"
    sig = ("vdst64", "src64")
    arg_names = ("vdst", "src0")
    encs = {"": "", "_e32": "e32", "_e64": "e64"}
    valu_constants = True

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, s0 = ins.operands
        lo, hi = _pair(m, s0)
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        m.write_v(dst.index, lo, en)
        m.write_v(dst.index + 1, hi, en)

    def emit(self, ins: Instr, E: Any) -> None:
        dst, s0 = ins.operands
        lo, hi = E.get_pair(s0)
        E.set(VReg(dst.index), lo)
        E.set(VReg(dst.index + 1), hi)


_mul_hi_s = Salu2("s_mul_hi_u32", mul_hi_u32, None)
_mul_hi_s.feature = "s_mul_hi"

ADDR_OPS: list[OpDef] = [
    AddCarry("v_add_co_u32", False, "add_co_u32", "add_co_vop2_gfx9", ("", "_e32", "_e64", "_dpp", "_e64_dpp")),
    AddCarry("v_addc_co_u32", True, "add_co_vop2_gfx9", "add_co_vop2_gfx9", ("", "_e32", "_e64", "_dpp")),
    AddCarry("v_add_co_ci_u32", True, "add_co_ci", "add_co_ci", ("", "_e32", "_e64", "_dpp", "_e64_dpp")),
    MadU64(),
    ShiftLeft64(),
    ShiftRight64(),
    MovB64(),
    ShiftAdd64(),
    Valu("v_mul_hi_u32", 2, mul_hi_u32, vop3_only=True),
    # bits 47:32 of S0[23:0] * S1[23:0] (the atomic optimizer's 64-bit count * constant)  [S:mul-u24]
    Valu("v_mul_hi_u32_u24", 2, lambda B, a, b: mul_hi_u32(B, B.and_(a, B.const(0xFFFFFF)), B.and_(b, B.const(0xFFFFFF)))),
    AddcScalar(),
    Shift64Scalar("s_lshl_b64", True),
    Shift64Scalar("s_lshr_b64", False),
    Salu2("s_ashr_i32", lambda B, x, y: B.ashr(x, B.and_(y, B.const(31))), lambda B, x, y, r: B.ne(r, B.const(0))),
    _mul_hi_s,
]
for _op in ADDR_OPS:
    register(_op)
for _c in CMP64:
    for _ty in ("u64", "i64"):
        register(Cmp64(_c, _ty))
