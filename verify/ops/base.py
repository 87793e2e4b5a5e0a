"""The op definition base class: operand signatures, modifiers, roles, printing.

An op family subclasses :class:`OpDef` and supplies its mnemonics, operand
signature, modifier declarations (:class:`Mod`, :class:`Modifiers`), roles
(which pipeline, whether it moves data across lanes, which hazards it takes
part in, whether its result returns late through the LDS pipe), legality
rule and semantics; nothing else in the project needs to change to add it
(plus its citation in docs/semantics.md).  The region finder, the hazard
table, the wait tracker, the synthesiser and the property test read these
declarations from the registry.

A modifier is declared once, as data: its name, parser, every value it can
take (the property test draws from them), its default and how it prints:

>>> off = int_modifier("offset", 0, 0xFFFF, default=0)
>>> ms = Modifiers(off)
>>> ms.finish({}, Span("f", 1)), off.text(16), len(off.values)
({'offset': 0}, 'offset:16', 65536)
>>> ms.print(Instr("ds_bpermute_b32", "ds_bpermute_b32", (), (("offset", 0),)), None)
''

Operand kinds in a signature:

========== ===================================================
vdst       a VGPR written
vgpr       a VGPR read
vdst64     a VGPR pair written (v[0:1])
src        VALU source: VGPR, SGPR or constant
sdst       one SGPR written (s0, exec_lo, vcc_lo, m0, ...)
sdst64     an SGPR pair written (s[0:1], exec, vcc)
ssrc       one SGPR or a constant, read
ssrc64     an SGPR pair or a constant, read
src64      VALU 64-bit source: a VGPR pair, an SGPR pair or a constant
mask       a lane mask read: an SGPR pair in wave64, one SGPR in wave32
maskdst    a lane mask written (same sizes)
vdst16     a 16-bit VGPR half written (GFX11 true16: v1.l, v1.h)
src16      a 16-bit VALU source: a VGPR half, an SGPR or a constant
========== ===================================================
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, overload

from ..diag import InputError, Span, Warning_
from ..ir import Imm, Instr, SReg, VHalf, VReg
from ..syntax import (
    FLOAT_INLINE,
    INV_2PI,
    INV_2PI_F32,
    INV_2PI_F64,
    Line,
    float_text,
    fold64,
    operand_text,
    parse_int,
    parse_operand,
)
from ..target import Target, needs_text

ModParser = Callable[[str | None, Span], Any]
LaneFn = Callable[..., Any]  # fn(B, *srcs) -> value, on any backend
# The machine (verify.machine.Machine) and the emitters (verify.emit.Emitter)
# import this registry, so they cannot be named here without an import cycle;
# the op families that import the machine name it in their own signatures.
AnyMachine = Any
AnyEmitter = Any


DEST_KINDS = ("vdst", "vdst64", "sdst", "sdst64", "maskdst", "vdst16")  # the operand kinds an op writes


def _kind_ok(kind: str, op: Any) -> str | None:
    """None if `op` fits `kind`, else a description of what was expected."""
    if isinstance(op, VHalf):  # a true16 half only where a 16-bit operand is declared  [S:true16]
        return None if kind in ("vdst16", "src16") else "a 32-bit operand (not a 16-bit half)"
    if kind in ("vdst16", "src16"):
        if kind == "src16" and (isinstance(op, Imm) or (isinstance(op, SReg) and op.count == 1)):
            return None
        return "a VGPR half (v1.l, v1.h)" + (", SGPR or constant" if kind == "src16" else "")
    if kind in ("vdst", "vgpr"):
        return None if isinstance(op, VReg) and op.count == 1 else "a VGPR"
    if kind == "vdst64":
        return None if isinstance(op, VReg) and op.count == 2 else "a VGPR pair (v[2k:2k+1])"
    if kind == "src64":
        if isinstance(op, (VReg, SReg)) and op.count == 2:
            return None
        return None if isinstance(op, Imm) else "a VGPR pair, SGPR pair or constant"
    if kind == "src":
        if isinstance(op, VReg) and op.count == 1:
            return None
        if isinstance(op, SReg) and op.count == 1:
            return None
        return None if isinstance(op, Imm) else "a VGPR, SGPR or constant"
    if kind == "sdst":
        return None if isinstance(op, SReg) and op.count == 1 else "an SGPR"
    if kind == "ssrc":
        if isinstance(op, SReg) and op.count == 1:
            return None
        return None if isinstance(op, Imm) else "an SGPR or constant"
    if kind == "sdst64":
        return None if isinstance(op, SReg) and op.count == 2 else "an SGPR pair (s[2k:2k+1], exec or vcc)"
    if kind == "ssrc64":
        if isinstance(op, SReg) and op.count == 2:
            return None
        return None if isinstance(op, Imm) else "an SGPR pair or constant"
    if kind in ("mask", "maskdst"):
        if isinstance(op, SReg) and op.count in (1, 2):
            return None
        return "a lane mask (vcc, exec or SGPRs)"
    raise AssertionError(kind)


def flag_mod(value: str | None, span: Span) -> bool:
    if value is not None:
        raise InputError(span, "this modifier takes no value")
    return True


def int_mod(lo: int, hi: int, what: str) -> Callable[[str | None, Span], int]:
    def parse(value: str | None, span: Span) -> int:
        if value is None:
            raise InputError(span, f"{what} needs a value")
        v = parse_int(value, span, what)
        if not lo <= v <= hi:
            raise InputError(span, f"{what} must be in [{lo}, {hi}], got {value}")
        return v

    return parse


class Tuples(Sequence[tuple[int, ...]]):
    """Every n-tuple of integers 0..hi, in ``itertools.product`` order, without
    building them (dpp8 has 8**8).

    >>> t = Tuples(4, 3)
    >>> len(t), t[0], t[1], t[255], list(Tuples(2, 1))
    (256, (0, 0, 0, 0), (0, 0, 0, 1), (3, 3, 3, 3), [(0, 0), (0, 1), (1, 0), (1, 1)])
    """

    def __init__(self, n: int, hi: int):
        self.n, self.base = n, hi + 1

    def __len__(self) -> int:
        return int(self.base ** self.n)

    @overload
    def __getitem__(self, k: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[tuple[int, ...]]: ...

    def __getitem__(self, k: int | slice) -> tuple[int, ...] | Sequence[tuple[int, ...]]:
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        if not 0 <= k < len(self):
            raise IndexError(k)
        digits = []
        for _ in range(self.n):
            k, d = divmod(k, self.base)
            digits.append(d)
        return tuple(reversed(digits))

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return (self[k] for k in range(len(self)))


def plain_text(value: Any, target: Target | None = None) -> str:
    return str(value)


def hex_text(value: int, target: Target | None = None) -> str:
    return f"{value:#x}"


def lane_list_text(value: Sequence[int], target: Target | None = None) -> str:
    return "[" + ",".join(map(str, value)) + "]"


@dataclass(frozen=True)
class Mod:
    """One modifier, ``name`` or ``name:value``.

    `values` is every value it can take (the property test draws from it);
    `default`, when not None, is filled in where the modifier is not written
    and then not printed; `fmt` writes a value (per target: the same value
    may be spelled differently there).  A flag's only value is True and it
    is written as its bare name.
    """

    name: str
    parse: ModParser = field(compare=False)
    values: Sequence[Any] = field(compare=False)
    default: Any = None
    fmt: Callable[[Any, Target | None], str] = field(default=plain_text, compare=False)

    def text(self, value: Any, target: Target | None = None) -> str:
        """The modifier as written, with this value."""
        return self.name if value is True else f"{self.name}:{self.fmt(value, target)}"


def int_modifier(name: str, lo: int, hi: int, default: int | None = None,
                 fmt: Callable[[Any, Target | None], str] = plain_text) -> Mod:
    """An integer modifier in [lo, hi]."""
    return Mod(name, int_mod(lo, hi, name), range(lo, hi + 1), default, fmt)


class Modifiers:
    """The modifiers one encoding of an op accepts, and how they combine.

    `one_of`: exactly one of these must be written (DPP: the control);
    `excludes`: a modifier and the ones it rules out (dpp8: the masks).  The
    plain set fills in defaults and prints each modifier whose value is not
    its default, by name; a family with a normal form of its own (DPP)
    subclasses it.
    """

    def __init__(self, *mods: Mod, one_of: tuple[str, ...] = (),
                 excludes: dict[str, tuple[str, ...]] | None = None):
        self.mods: dict[str, Mod] = {m.name: m for m in mods}
        self.one_of = one_of
        self.excludes = excludes or {}

    def __iter__(self) -> Iterator[Mod]:
        return iter(self.mods.values())

    def parsers(self) -> dict[str, ModParser]:
        return {name: m.parse for name, m in self.mods.items()}

    def finish(self, mods: dict[str, Any], mspan: Span) -> dict[str, Any]:
        """The normal form of the modifiers as written (defaults filled in)."""
        for m in self.mods.values():
            if m.default is not None:
                mods.setdefault(m.name, m.default)
        return mods

    def print(self, ins: Instr, target: Target | None) -> str:
        parts = []
        for name, value in ins.mods:
            m = self.mods[name]
            if value != m.default:
                parts.append(m.text(value, target))
        return " ".join(parts)


NO_MODS = Modifiers()


class OpDef:
    base: str = ""
    sig: tuple[str, ...] = ()
    arg_names: tuple[str, ...] = ()
    encs: dict[str, str] = {"": ""}  # mnemonic suffix -> encoding name
    feature: str | None = None  # target feature the op needs
    requires: tuple[str, ...] = ()  # further features it needs (ops.NEW_IN: what SI/CI lack)
    schedule_only = False  # changes no value (s_nop, s_waitcnt, ...)
    mods: Modifiers = NO_MODS  # the modifiers it accepts
    enc_mods: ClassVar[dict[str, Modifiers]] = {}  # per encoding, where they differ from `mods`
    valu_constants = False  # the VALU literal and constant-bus rules apply (check_constants)

    # ---- roles, read from the registry by the rest of the project ----------
    unit = "valu"  # valu, salu or ds: which pipeline (hazards depend on it)
    # moves data across lanes, or computes from the lane index (v_mbcnt): the
    # default region of `verify asm` is drawn around such instructions
    moves_lanes = False
    # hazards it is the consumer of (hazards.RULES rows name these roles),
    # from the closed set HAZARD_ROLES (a misspelt role fails at registration)
    hazard_roles: frozenset[str] = frozenset()
    # counted by s_waitcnt lgkmcnt: "ds" (an LDS operation; GFX12 s_wait_dscnt)
    # or "other" (scalar memory); None: not counted
    wait_counter: str | None = None
    lds_return = False  # its result lands in its first (VGPR) operand late
    components: tuple[str, ...] = ()  # the synthesiser's component classes it provides
    # operands whose value chooses which lane is read or written (a
    # ds_bpermute address, a permlane select, a readlane/writelane lane):
    # counterexamples follow them back to where they were computed
    lane_select: tuple[int, ...] = ()
    # its row in the synthesis cost model (COST_CLASSES, verify/synth/cost.py);
    # None: its unit's row (valu, salu), or no row (a DS op synthesis never emits)
    cost_class: str | None = None

    def mnemonics(self) -> dict[str, str]:
        return {self.base + suf: enc for suf, enc in self.encs.items()}

    def sig_for(self, enc: str) -> tuple[str, ...]:
        return self.sig

    def modifiers(self, enc: str) -> Modifiers:
        return self.enc_mods.get(enc, self.mods)

    def moves_lanes_in(self, ins: Instr) -> bool:
        """Whether this instruction moves data across lanes."""
        return self.moves_lanes

    def roles(self, ins: Instr) -> frozenset[str]:
        """The hazard roles this instruction plays."""
        return self.hazard_roles

    def cost_class_in(self, enc: str) -> str | None:
        """The synthesis cost class of this op in encoding `enc`: a DPP
        encoding is a DPP issue, else the op's own class or its unit's."""
        if self.cost_class is None and enc in ("dpp", "dpp8"):
            return "dpp"
        return self.cost_class or (self.unit if self.unit in ("valu", "salu") else None)

    def wait_states(self, ins: Instr) -> int:
        """The wait states this instruction gives when it stands between a
        hazard's producer and consumer (s_nop gives more).  [S:hazards]"""
        return 1

    def depctr(self, ins: Instr) -> int | None:
        """The 16-bit dependency-counter mask it waits for (s_wait_alu,
        s_waitcnt_depctr); None for any other instruction.  [S:hazards]"""
        return None

    # ---- parsing --------------------------------------------------------
    def parse(self, line: Line, enc: str) -> Instr:
        sig = self.sig_for(enc)
        if self.schedule_only:
            return Instr(line.mnemonic, self.base, (), (), enc, line.span, (), (), line.text)
        if len(line.operands) != len(sig):
            names = ", ".join(self.arg_names_for(enc)) or "none"
            raise InputError(
                line.operands[len(sig)][1] if len(line.operands) > len(sig) else line.mspan,
                f"{line.mnemonic} takes {len(sig)} operand{'s' * (len(sig) != 1)} ({names}), "
                f"got {len(line.operands)}",
            )
        ops = []
        spans = []
        for kind, (text, span), name in zip(sig, line.operands, self.arg_names_for(enc)):
            op = parse_operand(text, span)
            want = _kind_ok(kind, op)
            if want:
                raise InputError(span, f"{line.mnemonic} operand {name} must be {want}, got '{text}'")
            ops.append(op)
            spans.append(span)
        declared = self.modifiers(enc)
        parsers = declared.parsers()
        mods: dict[str, Any] = {}
        mspans: dict[str, Span] = {}
        for key, value, span in line.mods:
            p = parsers.get(key)
            if p is None:
                known = ", ".join(sorted(parsers)) or "none"
                raise InputError(span, f"unknown modifier '{key}' for {line.mnemonic} (accepted: {known})")
            if key in mods:
                raise InputError(span, f"modifier '{key}' given twice")
            vspan = span.shifted(len(key) + 1) if value is not None else span
            mods[key] = p(value, vspan)
            mspans[key] = span
        mods = declared.finish(mods, line.mspan)
        return Instr(
            line.mnemonic, self.base, tuple(ops), tuple(sorted(mods.items())), enc,
            line.span, tuple(spans), tuple(mspans.items()), line.text,
        )

    def arg_names_for(self, enc: str) -> tuple[str, ...]:
        return self.arg_names or tuple(self.sig_for(enc))

    # ---- legality -----------------------------------------------------
    # mnemonic -> feature, for spellings that only some generations accept
    alias_features: dict[str, str] = {}

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        """Raise InputError if `ins` is illegal on target/wave; return warnings.
        The common rules, then the op's own (:meth:`check_op`), then the VALU
        constant rules where the op declares them."""
        warns = self.check_common(ins, target, wave)
        warns += self.check_op(ins, target, wave)
        if self.valu_constants:
            self.check_constants(ins, target)
        return warns

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        """The op's own legality rules."""
        return []

    def check_common(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        af = self.alias_features.get(ins.mnemonic)
        if af and not target.has(af):
            raise InputError(ins.span, f"the spelling {ins.mnemonic} is not available on {target.name}: {needs_text(af)}")
        for f in (self.feature, *self.requires) if self.feature else self.requires:
            if not target.has(f):
                raise InputError(ins.span, f"{ins.mnemonic} is not available on {target.name}: {needs_text(f)}")
        for kind, op, k in zip(self.sig_for(ins.enc), ins.operands, range(99)):
            if (isinstance(op, Imm) and (kind in ("ssrc64", "src64") or (kind == "mask" and wave == 64))
                    and float64_inline(op) == -1):
                raise InputError(ins.operand_span(k), f"a float constant in a 64-bit operand must be an inline "
                                                      f"constant (0.5, 1.0, 2.0, 4.0, a negative or 1/(2pi) as "
                                                      f"0.15915494309189532), got '{op.text}'")
            if (isinstance(op, Imm) and (kind in ("ssrc64", "src64") or (kind == "mask" and wave == 64))
                    and is_inv2pi(op, True) and not target.has("inv2pi_inline")):
                raise InputError(ins.operand_span(k), f"1/(2pi) in a 64-bit operand is not available on "
                                                      f"{target.name}: {needs_text('inv2pi_inline')}")
            if kind in ("mask", "maskdst"):
                want = 2 if wave == 64 else 1
                if op.count != want:
                    size = "an SGPR pair (e.g. vcc, s[0:1])" if wave == 64 else "one SGPR (e.g. vcc_lo, s0)"
                    raise InputError(ins.operand_span(k), f"a lane mask in wave{wave} is {size}, got '{operand_text(op)}'")
        return []

    def check_constants(self, ins: Instr, target: Target, reads_vcc: bool = False) -> None:
        """Literal and constant-bus rules of VALU encodings.  [S:valu]"""
        enc = self.effective_enc(ins)
        lits: list[tuple[int, int]] = []
        sgprs: set[tuple[str, ...]] = {("vcc_lo", "vcc_hi")} if reads_vcc else set()
        types = self.const_types(ins, target)
        for k, (kind, op) in enumerate(zip(self.sig_for(enc), ins.operands)):
            if kind in DEST_KINDS:
                continue
            if isinstance(op, Imm):  # [S:legality]
                typ = types.get(k)
                why = imm16_problem(op, ins.enc, typ) if typ in ("f16", "i16", "v2f16") else None
                if why:
                    raise InputError(ins.operand_span(k), f"a 16-bit operand of {ins.mnemonic}: {why}")
                if typ and not target.has("inline_const16"):
                    raise InputError(ins.operand_span(k), f"a constant in a 16-bit operand of {ins.mnemonic} is not "
                                                          f"modelled on {target.name} (16-bit inline constants: "
                                                          f"{needs_text('inline_const16')})")
                inline = (inline16(op, typ) if typ else is_inline_constant64(op) if kind in ("src64", "ssrc64")
                          else is_inline_constant(op.value))
                if inline and not target.has("inv2pi_inline") and is_inv2pi(op, kind in ("src64", "ssrc64")):
                    inline = False  # 1/(2pi) is a literal before GFX8  [S:sici]
                if not inline:
                    lits.append((k, op.value))
            elif isinstance(op, SReg):
                sgprs.add(op.names)
        uniq = {v for _, v in lits}
        if lits and enc in ("dpp", "e64_dpp"):
            raise InputError(ins.operand_span(lits[0][0]), f"{ins.mnemonic} cannot take a literal constant")
        if lits and enc == "e64" and not target.has("vop3_literal"):
            raise InputError(ins.operand_span(lits[0][0]),
                             f"a literal constant in a VOP3 encoding is not available on {target.name}: {needs_text('vop3_literal')}")
        if len(uniq) > 1:
            raise InputError(ins.operand_span(lits[1][0]), "only one unique literal constant is allowed")
        limit = 2 if target.has("constant_bus_2") else 1
        if len(sgprs) + len(uniq) > limit:
            raise InputError(ins.span, f"{ins.mnemonic} reads {len(sgprs) + len(uniq)} scalar values (SGPRs and "
                                       f"literals); {target.name} allows {limit} per VALU instruction")

    def const_types(self, ins: Instr, target: Target) -> dict[int, str]:
        """The operand slots whose constants are 16-bit or packed values, by
        type (f16, i16, v2f16, v2i16): their own inline constants and
        literal rule (:func:`inline16`, :func:`imm16_problem`); a 16-bit
        operand kind (src16) is i16 unless the op says otherwise.  [S:legality]"""
        return {k: "i16" for k, kind in enumerate(self.sig_for(ins.enc)) if kind == "src16"}

    def effective_enc(self, ins: Instr) -> str:
        """The encoding the assembler picks: a bare VOP2 mnemonic whose src1 is
        not a VGPR can only be VOP3."""
        if ins.enc:
            return ins.enc
        if "e32" in self.encs.values() and len(ins.operands) >= 3 and not isinstance(ins.operands[2], VReg):
            return "e64"
        return "e32" if "e32" in self.encs.values() else "e64"

    def require(self, target: Target, feature: str, what: str, span: Span | None) -> None:
        if not target.has(feature):
            raise InputError(span, f"{what} is not available on {target.name}: {needs_text(feature)}")

    # ---- semantics ------------------------------------------------------
    def execute(self, ins: Instr, m: AnyMachine) -> None:
        raise NotImplementedError

    def lane_fn(self, ins: Instr, m: AnyMachine = None) -> LaneFn:
        """The lane function of a lane-wise op, for this instruction (its
        modifiers) on machine m (its assumptions; None: the defaults, which
        emission and proof records use)."""
        raise TypeError(f"{self.base} has no lane function")

    # ---- dataflow -------------------------------------------------------
    def defs(self, ins: Instr) -> list[str]:
        out: list[str] = []
        for kind, op in zip(self.sig_for(ins.enc), ins.operands):
            if kind in DEST_KINDS:
                out += reg_names(op)
        return out

    def uses(self, ins: Instr) -> list[str]:
        out: list[str] = []
        for kind, op in zip(self.sig_for(ins.enc), ins.operands):
            if kind not in DEST_KINDS:
                out += reg_names(op)
        return out

    # ---- emission (verify/emit.py) ----------------------------------------
    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        """Spell `ins` on an emitter E (LLVM IR or HIP): read operands with
        E.get, write results with E.set, intrinsics through E.call."""
        E.unsupported("verify has no intrinsic or builtin spelling for it")

    # ---- printing -------------------------------------------------------
    def print(self, ins: Instr, target: Target | None = None) -> str:
        ops = ", ".join(operand_text(o) for o in ins.operands)
        mods = self.modifiers(ins.enc).print(ins, target)
        return " ".join(x for x in (ins.mnemonic, ops, mods) if x)


_F32_INLINE = frozenset(f32 for f32, _, _ in FLOAT_INLINE.values()) | {INV_2PI_F32}


def is_inline_constant(v: int) -> bool:
    """In a 32-bit operand, integers -16..64 and the bit patterns of the float
    inline constants (0.5, 1.0, 2.0, 4.0, their negatives and 1/(2pi)) are
    inline constants, whatever the operand's type: llvm-mc-22 encodes
    ``v_add_u32 v0, 0x3f800000, v1`` as inline 1.0.  Anything else is a
    literal.  [S:valu] [S:float-literals]

    >>> [is_inline_constant(x) for x in (64, 0xFFFFFFF0, 65, 0x3F800000, 0xC0800000, 0x3E22F983, 0x80000000)]
    [True, True, False, True, True, True, False]
    """
    s = v - (1 << 32) if v & 0x80000000 else v
    return -16 <= s <= 64 or v in _F32_INLINE


def is_inv2pi(imm: Imm, wide: bool) -> bool:
    """The inline constant 1/(2pi), which GFX8 added: its f32 pattern in a
    32-bit operand, its exact f64 text (0.15915494309189532) in a 64-bit one.
    [S:sici] [S:float-literals]"""
    return float64_inline(imm) == INV_2PI_F64 if wide else imm.value == INV_2PI_F32


# the binary16 inline constants (0.5, 1.0, 2.0, 4.0, their negations, 1/(2pi)) as 16-bit patterns
F16_INLINE = frozenset({0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118})


def _fits_f16(x: float) -> bool:
    """A float literal in a 16-bit operand converts to binary16 without
    overflow or underflow (AMDGPUAsmParser's canLosslesslyConvertToFPType:
    precision may be lost, range not).  [S:legality]

    >>> [_fits_f16(x) for x in (0.1, 65504.0, 70000.0, 2.0 ** -24, 1e-10)]
    [True, True, False, True, False]
    """
    try:
        h = struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return False
    if math.isinf(h) and not math.isinf(x):
        return False
    return not (x != 0 and abs(x) < 2.0 ** -14 and h != x)


def imm16_problem(op: Any, enc: str, typ: str = "i16") -> str | None:
    """Why a constant cannot be a 16-bit operand of type `typ` (i16 or f16;
    v2f16: a float literal's range only) in encoding `enc`, or None, as
    llvm-mc-22 decides: a VOP2 DPP encoding takes no constant; otherwise an
    integer that fits 16 bits (sign- or zero-extended) and a float spelled
    as such that binary16 can hold (not 1/(2*pi) in an i16 operand of a VOP3
    DPP encoding); a 32-bit pattern such as 0x3f800000 is refused, on every
    target.  [S:packed16] [S:legality]"""
    if not isinstance(op, Imm):
        return None
    if typ == "v2f16":  # a packed operand: only a float literal's range (it goes into the low half)
        fv = float_text(op.text)
        if fv is not None and not is_inline_constant(op.value) and not _fits_f16(fv):
            return f"{op.text} overflows or underflows binary16"
        return None
    if enc == "dpp":
        return "a VOP2 DPP encoding takes a VGPR, not a constant"
    text = (op.text or "").lower()
    if "." in text or text.endswith(("inf", "nan")):
        if enc == "e64_dpp" and typ == "i16" and text.lstrip("-").startswith("0.1591549"):
            return "1/(2*pi) is not a constant of an i16 operand in a VOP3 DPP encoding"
        fv = float_text(op.text)
        if fv is not None and not is_inline_constant(op.value) and not _fits_f16(fv):
            return f"{op.text} overflows or underflows binary16"
        return None
    if (op.value & 0xFFFF0000) in (0, 0xFFFF0000):
        return None
    return f"{op.text or hex(op.value)} does not fit a 16-bit operand"


def inline16(op: Imm, typ: str) -> bool:
    """Whether a constant is an inline constant in a 16-bit or packed operand
    of type `typ` (f16, i16, v2f16, v2i16), as llvm-mc-22 encodes it: a float
    text is inline where it is a float inline constant; an integer in an i16
    operand where it is -16..64 as written (``0xffff`` is a literal); in an
    f16 operand where its 16 bits are -16..64 or a binary16 inline pattern
    (``0x3c00`` is 1.0, ``0xffff`` is -1); in a packed operand the 32-bit
    value decides: an integer -16..64, an f16 inline pattern with a zero high
    half (v2f16) or an f32 inline pattern (v2i16).  (AMDGPUAsmParser
    ``isInlinableImm``, ``AMDGPU::isInlinableLiteralFP16``/``V2F16``/``V2I16``.)
    [S:legality]

    >>> [inline16(Imm(v, t), "f16") for v, t in ((0x3C00, "0x3c00"), (0xFFFF, "0xffff"), (0x1234, "0x1234"))]
    [True, True, False]
    >>> [inline16(Imm(v, t), "i16") for v, t in ((0xFFFFFFFF, "-1"), (0xFFFF, "0xffff"), (64, "64"))]
    [True, False, True]
    >>> inline16(Imm(0x3C00, "0x3c00"), "i16"), inline16(Imm(0x3C00, "0x3c00"), "v2f16")
    (False, True)
    >>> inline16(Imm(0x3F800000, "0x3f800000"), "v2f16"), inline16(Imm(0x3F800000, "0x3f800000"), "v2i16")
    (False, True)
    """
    if float_text(op.text) is not None:
        return is_inline_constant(op.value)
    v = op.value & 0xFFFFFFFF
    if typ in ("v2f16", "v2i16"):
        s = v - (1 << 32) if v & 0x80000000 else v
        if -16 <= s <= 64:
            return True
        return v in F16_INLINE if typ == "v2f16" else v in _F32_INLINE
    if typ == "i16":
        return is_inline_constant(v)
    lo = v & 0xFFFF
    s16 = lo - (1 << 16) if lo & 0x8000 else lo
    return -16 <= s16 <= 64 or lo in F16_INLINE


M64 = (1 << 64) - 1


def written_value(imm: Imm) -> int:
    """The integer an immediate's text denotes (``0xffffffff`` is 4294967295,
    ``-1`` is -1); an immediate without text is its 32-bit pattern read as signed."""
    try:
        return fold64(int(imm.text.strip(), 0))  # 0xffffffffffffffff is -1
    except ValueError:
        return imm.value - (1 << 32) if imm.value & 0x80000000 else imm.value


def float64_inline(imm: Imm) -> int | None:
    """A float text in a 64-bit operand: the f64 pattern of its inline
    constant (0.0 is 0; 1/(2pi) only as its exact f64 value, 0.15915494309189532,
    which GFX8 added: :meth:`OpDef.check_common`); llvm-mc-22 rejects any other
    float there, -1.  None: not a float text.  [S:float-literals]

    >>> hex(float64_inline(Imm(0, text="0.15915494309189532"))), float64_inline(Imm(0, text="0.15915494"))
    ('0x3fc45f306dc9c882', -1)
    """
    fv = float_text(imm.text)
    if fv is None:
        return None
    if fv in FLOAT_INLINE:
        return FLOAT_INLINE[fv][1]
    if fv == INV_2PI:
        return INV_2PI_F64
    return 0 if fv == 0 and math.copysign(1, fv) > 0 else -1


def is_inline_constant64(imm: Imm) -> bool:
    """In a 64-bit operand the written integer decides: -16..64 is an inline
    constant, so ``-1`` is but ``0xffffffff`` (4294967295) is a literal, as
    llvm-mc-22 encodes them; a float text is inline if it is a float inline
    constant.  [S:literal64] [S:float-literals]"""
    f = float64_inline(imm)
    if f is not None:
        return f >= 0
    return not imm.wide and -16 <= written_value(imm) <= 64


def literal64_is_negative(imm: Imm) -> bool:
    """A literal written negative (``-17``) in a 64-bit integer operand: its
    64-bit value is where LLVM-22 and the ISA disagree.  [S:literal64]"""
    return (not imm.wide and float_text(imm.text) is None and not is_inline_constant64(imm)
            and written_value(imm) < 0)


def expand_b64(imm: Imm, negative: str = "zext") -> int:
    """The 64-bit value an integer constant has in a B64/U64 operand (s_mov_b64,
    s_and_b64, *_saveexec_b64, a wave64 lane mask).  Inline constants are
    64-bit values (-1 is all ones); a 32-bit literal is zero-extended (ISA
    "literal expansion"; the hardware, LLVM's codegen); a literal written
    negative follows the ``literal64.negative`` assumption: ``zext`` (the low
    32 bits LLVM-22 encodes, zero-extended) or ``sext`` (the written value).
    [S:literal64]"""
    if imm.wide:
        return imm.value & M64
    f = float64_inline(imm)
    if f is not None and f >= 0:  # 1.0 is the double 1.0
        return f
    w = written_value(imm)
    if -16 <= w <= 64 or (w < 0 and negative == "sext"):
        return w & M64
    return w & 0xFFFFFFFF


def reg_names(op: Any) -> list[str]:
    if isinstance(op, VReg):
        return op.names()
    if isinstance(op, SReg):
        return list(op.names)
    return []


# ---------------------------------------------------------------------------
# the registry: base name -> OpDef, mnemonic -> (OpDef, encoding)

OPS: dict[str, OpDef] = {}
MNEMONICS: dict[str, tuple[OpDef, str]] = {}
# instructions verify does not model, met in compiler output (verify asm):
# kept apart from OPS, which holds only modelled instructions
UNMODELLED: dict[str, OpDef] = {}


def op_of(base: str) -> OpDef:
    """The OpDef of an instruction's base name, modelled or not."""
    op = OPS.get(base)
    return op if op is not None else UNMODELLED[base]


# The hazard roles an op may play, each the consumer of rows of hazards.RULES:
# a closed set, so a misspelt role fails when the op is registered (and a rule
# naming a role outside it, when verify.hazards loads).  [S:hazards]
HAZARD_ROLES = frozenset({
    "dpp",  # a DPP read (per instruction: OpDef.roles)
    "lane_select",  # an SGPR lane select (v_readlane/v_writelane)
    "readlane",  # reads a lane chosen by EXEC or a select
    "readlane_vgpr",  # v_readlane's and v_readfirstlane's VGPR
    "permlane_swap",  # v_permlane16/32_swap (gfx950)
    "permlane",  # v_permlane16/x16/64: a v_cmpx before needs a VALU between
})


# The rows of the synthesis cost model (verify/synth/cost.py), each op's
# `cost_class` one of them: a closed set, checked when the op is registered.
COST_CLASSES = ("valu", "dpp", "salu", "wait_state", "ds_swizzle", "ds_bpermute", "waitcnt", "permlane",
                "permlane_swap", "readlane", "writelane")


def register(op: OpDef) -> OpDef:
    assert op.base not in OPS, op.base
    if op.cost_class is not None and op.cost_class not in COST_CLASSES:
        raise ValueError(f"{op.base}: unknown cost class {op.cost_class} (known: {', '.join(COST_CLASSES)})")
    unknown = op.hazard_roles - HAZARD_ROLES
    if unknown:
        raise ValueError(f"{op.base}: unknown hazard role {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(HAZARD_ROLES))})")
    OPS[op.base] = op
    for mn, enc in op.mnemonics().items():
        assert mn not in MNEMONICS, mn
        MNEMONICS[mn] = (op, enc)
    return op
