"""The op definition base class: operand signatures, modifiers, printing.

An op family subclasses :class:`OpDef` and supplies its mnemonics, operand
signature, modifier parsers, legality rule and semantics; nothing else in
the project needs to change to add it (plus its citation in
docs/semantics.md and its tests).

Operand kinds in a signature:

========== ===================================================
vdst       a VGPR written
vgpr       a VGPR read
src        VALU source: VGPR, SGPR or constant
sdst       one SGPR written (s0, exec_lo, vcc_lo, m0, ...)
sdst64     an SGPR pair written (s[0:1], exec, vcc)
ssrc       one SGPR or a constant, read
ssrc64     an SGPR pair or a constant, read
mask       a lane mask read: an SGPR pair in wave64, one SGPR in wave32
maskdst    a lane mask written (same sizes)
========== ===================================================
"""

from __future__ import annotations

from typing import Any, Callable

from ..diag import InputError, Span, Warning_
from ..ir import Imm, Instr, SReg, VReg
from ..syntax import Line, operand_text, parse_int, parse_operand
from ..target import Target, needs_text

ModParser = Callable[[str | None, Span], Any]


def _kind_ok(kind: str, op) -> str | None:
    """None if `op` fits `kind`, else a description of what was expected."""
    if kind in ("vdst", "vgpr"):
        return None if isinstance(op, VReg) and op.count == 1 else "a VGPR"
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


def int_mod(lo: int, hi: int, what: str) -> ModParser:
    def parse(value: str | None, span: Span) -> int:
        if value is None:
            raise InputError(span, f"{what} needs a value")
        v = parse_int(value, span, what)
        if not lo <= v <= hi:
            raise InputError(span, f"{what} must be in [{lo}, {hi}], got {value}")
        return v

    return parse


class OpDef:
    base: str = ""
    sig: tuple[str, ...] = ()
    arg_names: tuple[str, ...] = ()
    encs: dict[str, str] = {"": ""}  # mnemonic suffix -> encoding name
    feature: str | None = None  # target feature the op needs
    schedule_only = False  # changes no value (s_nop, s_waitcnt, ...)
    unit = "valu"  # valu, salu or ds: which pipeline (hazards depend on it)

    def mnemonics(self) -> dict[str, str]:
        return {self.base + suf: enc for suf, enc in self.encs.items()}

    def sig_for(self, enc: str) -> tuple[str, ...]:
        return self.sig

    def mod_parsers(self, enc: str) -> dict[str, ModParser]:
        return {}

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
        parsers = self.mod_parsers(enc)
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
        mods = self.finish_mods(mods, line, enc)
        return Instr(
            line.mnemonic, self.base, tuple(ops), tuple(sorted(mods.items())), enc,
            line.span, tuple(spans), tuple(mspans.items()), line.text,
        )

    def arg_names_for(self, enc: str) -> tuple[str, ...]:
        return self.arg_names or tuple(self.sig_for(enc))

    def finish_mods(self, mods: dict, line: Line, enc: str) -> dict:
        return mods

    # ---- legality -----------------------------------------------------
    # mnemonic -> feature, for spellings that only some generations accept
    alias_features: dict[str, str] = {}

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        """Raise InputError if `ins` is illegal on target/wave; return warnings."""
        af = self.alias_features.get(ins.mnemonic)
        if af and not target.has(af):
            raise InputError(ins.span, f"the spelling {ins.mnemonic} is not available on {target.name}: {needs_text(af)}")
        if self.feature and not target.has(self.feature):
            raise InputError(ins.span, f"{ins.mnemonic} is not available on {target.name}: {needs_text(self.feature)}")
        for kind, op, k in zip(self.sig_for(ins.enc), ins.operands, range(99)):
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
        sgprs: set = {("vcc_lo", "vcc_hi")} if reads_vcc else set()
        for k, (kind, op) in enumerate(zip(self.sig_for(enc), ins.operands)):
            if kind in ("vdst", "sdst", "sdst64", "maskdst"):
                continue
            if isinstance(op, Imm) and not is_inline_constant(op.value):
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
    def execute(self, ins: Instr, m) -> None:
        raise NotImplementedError

    # ---- dataflow -------------------------------------------------------
    def defs(self, ins: Instr) -> list[str]:
        out: list[str] = []
        for kind, op in zip(self.sig_for(ins.enc), ins.operands):
            if kind in ("vdst", "sdst", "sdst64", "maskdst"):
                out += reg_names(op)
        return out

    def uses(self, ins: Instr) -> list[str]:
        out: list[str] = []
        for kind, op in zip(self.sig_for(ins.enc), ins.operands):
            if kind not in ("vdst", "sdst", "sdst64", "maskdst"):
                out += reg_names(op)
        return out

    # ---- emission (verify/emit.py) ----------------------------------------
    def emit(self, ins: Instr, E) -> None:
        """Spell `ins` on an emitter E (LLVM IR or HIP): read operands with
        E.get, write results with E.set, intrinsics through E.call."""
        E.unsupported("verify has no intrinsic or builtin spelling for it")

    # ---- printing -------------------------------------------------------
    def print(self, ins: Instr, target: Target | None = None) -> str:
        ops = ", ".join(operand_text(o) for o in ins.operands)
        mods = self.print_mods(ins, target)
        return " ".join(x for x in (ins.mnemonic, ops, mods) if x)

    def print_mods(self, ins: Instr, target: Target | None) -> str:
        return " ".join(f"{k}:{v}" for k, v in ins.mods)


def is_inline_constant(v: int) -> bool:
    """Integers -16..64 are inline constants; anything else is a literal."""
    s = v - (1 << 32) if v & 0x80000000 else v
    return -16 <= s <= 64


def reg_names(op) -> list[str]:
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


def register(op: OpDef) -> OpDef:
    assert op.base not in OPS, op.base
    OPS[op.base] = op
    for mn, enc in op.mnemonics().items():
        assert mn not in MNEMONICS, mn
        MNEMONICS[mn] = (op, enc)
    return op
