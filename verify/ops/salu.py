"""Scalar ops used around cross-lane code: s_mov, the *_saveexec family
(whole-wave mode), and scheduling-only instructions.  [S:salu] [S:wwm]
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..backend import Arith, Backend, Value
from ..diag import InputError, Span, Warning_
from ..ir import Imm, Instr, SReg
from ..syntax import Line, parse_int
from ..target import Target
from .base import (
    M64,
    AnyEmitter,
    LaneFn,
    OpDef,
    expand_b64,
    is_inline_constant,
    is_inline_constant64,
    literal64_is_negative,
    register,
)

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine


class Smov(OpDef):
    unit = "salu"

    def __init__(self, bits: int):
        self.bits = bits
        self.base = f"s_mov_b{bits}"
        self.sig = ("sdst", "ssrc") if bits == 32 else ("sdst64", "ssrc64")
        self.arg_names = ("sdst", "ssrc")

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, src = ins.operands
        if self.bits == 32:
            m.write_scalar(dst, m.scalar(src))
        else:
            m.write_scalar64(dst, *m.scalar64(src))

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, src = ins.operands
        exec_names = ("exec_lo", "exec_hi")[:E.wave // 32]
        if dst.names[0] == "exec_lo":
            if self.bits != E.wave:  # the whole mask, or it is not a restore
                E.unsupported(f"in wave{E.wave} EXEC is restored with s_mov_b{E.wave}")
            if isinstance(src, Imm) and _all_ones(src, self.bits):
                E.all_lanes_on()  # after s_mov sX, exec: whole-wave mode  [S:wwm]
            else:
                E.end_wwm(src)  # leaves whole-wave mode  [S:wwm]
        elif isinstance(src, SReg) and src.names == exec_names and self.bits == E.wave:
            E.copy_exec(dst)  # EXEC as a value, and perhaps the mask whole-wave mode restores  [S:emit-masks]
        elif self.bits == 64:  # a pair: each half as a 32-bit value (a lane mask's halves stay one mask)
            if isinstance(src, Imm):
                if literal64_is_negative(src):  # the assumption literal64.negative decides its high word
                    E.unsupported("a negative 64-bit literal's high word is the assumption literal64.negative")
                v = expand_b64(src)  # [S:literal64]
                E.set(SReg((dst.names[0],), dst.names[0]), v & 0xFFFFFFFF)
                E.set(SReg((dst.names[1],), dst.names[1]), v >> 32)
            else:
                E.copy_pair(dst, src)
        else:
            E.set(dst, E.get(src))


_SAVEEXEC: dict[str, LaneFn] = {
    "and": lambda B, s, e: B.and_(s, e),
    "or": lambda B, s, e: B.or_(s, e),
    "xor": lambda B, s, e: B.xor(s, e),
    "andn2": lambda B, s, e: B.and_(s, B.not_(e)),
    "orn2": lambda B, s, e: B.or_(s, B.not_(e)),
}
# GFX11 renamed andn2/orn2 to and_not1/or_not1
_SPELLINGS = {"andn2": ("andn2", "and_not1"), "orn2": ("orn2", "or_not1")}


def _all_ones(src: Imm, bits: int) -> bool:
    """Whether a constant sets every lane of a `bits`-wide mask: in a 64-bit
    operand -1 does, 0xffffffff (a zero-extended literal) does not.  [S:literal64]"""
    if bits == 32:
        return src.value == 0xFFFFFFFF
    return not literal64_is_negative(src) and expand_b64(src) == M64


def _write_order(ins: Instr, m: Machine) -> str:
    """Which write lands last when a saveexec's SDST names EXEC: the target's
    ISA pseudocode where it states it (SDST last), else the named assumption
    (the older guides' prose writes EXEC last).  [S:saveexec-order]"""
    if m.has("saveexec_sdst_last"):
        return "sdst_last"
    return m.assume("saveexec.order")


def _unknown_scalar(m: Machine, name: str) -> Value:
    """A fresh unknown scalar input named `name` (a counterexample shows it)."""
    if name not in m.inputs_read:
        m.inputs_read.append(name)
    return m.initial("s", name, None)


class Saveexec(OpDef):
    """sD = EXEC; EXEC = OP(s0, EXEC); SCC = (EXEC != 0)."""

    unit = "salu"

    def __init__(self, op: str, bits: int):
        self.op = _SAVEEXEC[op]
        self.opname = op
        self.bits = bits
        names = _SPELLINGS.get(op, (op,))
        self.base = f"s_{names[0]}_saveexec_b{bits}"
        self.alt = [f"s_{n}_saveexec_b{bits}" for n in names[1:]]
        self.alias_features = {a: "salu_gfx11_names" for a in self.alt}
        self.sig = ("sdst", "ssrc") if bits == 32 else ("sdst64", "ssrc64")
        self.arg_names = ("sdst", "ssrc")
        self.feature = "wave32" if bits == 32 else None

    def mnemonics(self) -> dict[str, str]:
        out = {self.base: ""}
        out.update({a: "" for a in self.alt})
        return out

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        if self.bits == 64 and wave == 32:
            warns.append(Warning_(ins.span, f"{ins.mnemonic} in wave32: EXEC is exec_lo only; use the _b32 form"))
        if self.bits == 32 and wave == 64:
            warns.append(Warning_(ins.span, f"{ins.mnemonic} in wave64 changes only exec_lo (lanes 0-31)"))
        return warns

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, src = ins.operands
        # every source (S0 and EXEC) is read before anything is written: with
        # sD == S0 the ISA's S0 is the value before sD = EXEC  [S:salu]
        if self.bits == 32:
            regs, olds, s0 = ["exec_lo"], [m.s("exec_lo")], [m.scalar(src)]
        else:
            regs, olds, s0 = ["exec_lo", "exec_hi"], [m.s("exec_lo"), m.s("exec_hi")], list(m.scalar64(src))
        news = [self.op(B, a, e) for a, e in zip(s0, olds)]
        saved = dict(zip(dst.names, olds))  # SDST = the old EXEC
        for r in dst.names:
            if r not in regs:
                m.set_s(r, saved[r])
        order = _write_order(ins, m) if any(r in saved for r in regs) else "exec_last"
        final = []
        for r, new in zip(regs, news):
            if r in saved:  # SDST names EXEC: which write lands last  [S:saveexec-order]
                if order == "sdst_last":
                    new = saved[r]
                elif order == "either":
                    choice = _unknown_scalar(m, f"{r}@{m.line}(saveexec write order)")
                    new = B.ite(B.bit(choice, 0), saved[r], new)
            m.set_s(r, new)
            final.append(new)
        ne = [B.ne(v, B.const(0)) for v in final]
        m.scc = ne[0] if len(ne) == 1 else B.or_b(ne[0], ne[1])

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, src = ins.operands
        if (self.opname == "or" and self.bits == E.wave and isinstance(src, Imm) and _all_ones(src, self.bits)
                and not {"exec_lo", "exec_hi"} & set(dst.names)):
            E.begin_wwm(dst)  # every lane on, the old EXEC saved  [S:wwm]
        else:
            E.unsupported(f"only whole-wave mode (s_or_saveexec_b{E.wave} SDST, -1 ... s_mov_b{E.wave} exec, SDST) "
                          "changes EXEC in emitted code")

    def defs(self, ins: Instr) -> list[str]:
        return super().defs(ins) + (["exec_lo"] if self.bits == 32 else ["exec_lo", "exec_hi"]) + ["scc"]

    def uses(self, ins: Instr) -> list[str]:
        return super().uses(ins) + (["exec_lo"] if self.bits == 32 else ["exec_lo", "exec_hi"])


_LEADING_ZERO = re.compile(r"(?<![\w.])0\d+")


class Schedule(OpDef):
    """Changes no value: wait states, counters, ALU-delay hints.  The waits
    for LDS results (s_waitcnt lgkmcnt, s_wait_dscnt) are followed by the
    machine (verify/waits.py)."""

    schedule_only = True
    unit = "salu"

    def __init__(self, base: str, feature: str | None = None, operands: str = "0"):
        self.base = base
        self.feature = feature
        self.operands = operands  # its operand text in the simplest form (verify keeps it as written)
        if base == "s_waitcnt" or (base.startswith(("s_waitcnt_", "s_wait_")) and base.endswith("cnt")):
            self.cost_class = "waitcnt"  # a wait for a counter (verify/synth/cost.py)

    def parse(self, line: Line, enc: str) -> Instr:
        # a count with a leading zero: llvm-mc-22 reads `vmcnt(010)` as octal 8
        # and refuses `vmcnt(08)`; verify refuses both rather than guess
        for text, span in line.operands + [(f"{k}{v or ''}", sp) for k, v, sp in line.mods]:
            m = _LEADING_ZERO.search(text)
            if m:
                raise InputError(span, f"write '{m.group(0)}' without a leading zero (llvm-mc reads it as octal)")
        return super().parse(line, enc)

    def execute(self, ins: Instr, m: Machine) -> None:
        return

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        return  # the compiler inserts its own waits and wait states

    def print(self, ins: Instr, target: Target | None = None) -> str:
        return ins.text.split(";")[0].strip() or ins.mnemonic


# the fields of the dependency-counter mask (s_wait_alu, s_waitcnt_depctr):
# name -> (lowest bit, width), as llvm-mc-22 encodes them (AMDGPUBaseInfo's
# DepCtr; `s_wait_alu depctr_va_sdst(0)` is 0xf19f); a field left out keeps
# its largest value (no wait)  [S:hazards]
DEPCTR_FIELDS = {"va_vdst": (12, 4), "va_sdst": (9, 3), "va_ssrc": (8, 1), "hold_cnt": (7, 1),
                 "vm_vsrc": (2, 3), "va_vcc": (1, 1), "sa_sdst": (0, 1)}
DEPCTR_DEFAULT = 0xFF9F
_DEPCTR_RE = re.compile(r"depctr_(\w+)\((\d+)\)")


def depctr_field(mask: int, name: str) -> int:
    """Field `name` of a dependency-counter mask.

    >>> depctr_field(0xF19F, "va_sdst"), depctr_field(0xF19F, "sa_sdst"), depctr_field(0xFFFE, "sa_sdst")
    (0, 1, 0)
    """
    lo, width = DEPCTR_FIELDS[name]
    return (mask >> lo) & ((1 << width) - 1)


def depctr_mask(text: str, span: Span) -> int:
    """The mask of an s_wait_alu / s_waitcnt_depctr operand: an integer
    (-32768..65535, its low 16 bits) or `depctr_<field>(N)` values separated
    by spaces, `&` or `,`, as llvm-mc-22 reads them."""
    t = text.strip()
    if not t.startswith("depctr_"):
        v = parse_int(t, span, "an integer or depctr_<field>(N)")
        if not -32768 <= v <= 0xFFFF:
            raise InputError(span, f"the dependency-counter mask must be in -32768..65535, got '{t}'")
        return v & 0xFFFF
    mask, seen, pos = DEPCTR_DEFAULT, set(), 0
    for m in _DEPCTR_RE.finditer(t):
        if t[pos:m.start()].strip(" &,"):
            break
        name, n = m.group(1), int(m.group(2))
        if name not in DEPCTR_FIELDS:
            raise InputError(span, f"unknown dependency counter 'depctr_{name}' (known: "
                                   f"{', '.join('depctr_' + f for f in DEPCTR_FIELDS)})")
        lo, width = DEPCTR_FIELDS[name]
        if n >= 1 << width or name in seen:
            raise InputError(span, f"depctr_{name}({n}): " + ("given twice" if name in seen
                                                              else f"the field holds 0..{(1 << width) - 1}"))
        seen.add(name)
        mask = (mask & ~(((1 << width) - 1) << lo)) | (n << lo)
        pos = m.end()
    if t[pos:].strip(" &,") or not seen:
        raise InputError(span, f"expected depctr_<field>(N) values or an integer, got '{t}'")
    return mask


class DepCtr(Schedule):
    """``s_wait_alu`` (GFX12) and ``s_waitcnt_depctr`` (GFX10.3, GFX11): wait
    until the named dependency counters are at most N.  The hazard rules read
    its fields (verify/hazards.py).  [S:hazards]"""

    def parse(self, line: Line, enc: str) -> Instr:
        text = line.text[len(line.mnemonic):].split(";")[0].strip()
        depctr_mask(text, line.operands[0][1] if line.operands else line.span)
        return super().parse(line, enc)

    def depctr(self, ins: Instr) -> int | None:
        text = ins.text.split(";")[0].strip()[len(ins.mnemonic):]
        try:  # checked when parsed
            return depctr_mask(text, ins.span or Span("", 1, 1))
        except InputError:
            return DEPCTR_DEFAULT


class Nop(Schedule):
    """``s_nop N``: one integer, which llvm-mc-22 takes if it fits 64 bits and
    encodes as its low 16 bits (SIMM16: ``s_nop 0x10000`` is ``s_nop 0``).
    The wait states it gives are N[2:0] + 1 (verify/hazards.py).  [S:hazards]"""

    cost_class = "wait_state"  # costed per wait state it gives (verify/synth/cost.py)

    def __init__(self) -> None:
        super().__init__("s_nop")

    def parse(self, line: Line, enc: str) -> Instr:
        if len(line.operands) != 1 or line.mods:
            span = line.mods[0][2] if line.mods else line.operands[1][1] if line.operands else line.span
            raise InputError(span, "s_nop takes one integer (0-7: N+1 wait states)")
        text, span = line.operands[0]
        nop_value(text, span)
        return super().parse(line, enc)

    def wait_states(self, ins: Instr) -> int:
        words = ins.text.split(";")[0].split()
        try:  # its operand was checked when it was parsed
            return nop_wait_states(int(words[1], 0)) if len(words) > 1 else 1
        except ValueError:
            return 1

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        words = ins.text.split(";")[0].split()
        try:  # checked when parsed
            n = (int(words[1], 0) if len(words) > 1 else 0) & 0xFFFFFFFFFFFFFFFF
        except ValueError:
            return []
        if n & 0xFFFF == n and n <= 7:
            return []
        k = nop_wait_states(n)
        enc = f" is encoded as s_nop {n & 0xFFFF} (SIMM16 keeps the low 16 bits) and" if n & 0xFFFF != n else ":"
        return [Warning_(ins.span, f"s_nop {words[1]}{enc} verify counts {k} wait state{'s' * (k != 1)} for it "
                                   f"(SIMM16[2:0] + 1: the GCN3 ISA reads 3 bits, later ISAs 4)")]


def nop_wait_states(n: int) -> int:
    """Wait states of ``s_nop n``: SIMM16 keeps the low 16 bits of n (as
    llvm-mc-22 encodes it) and the count is SIMM16[2:0] + 1, the smaller of
    the ISA guides' readings (GCN3: SIMM16[2:0], 1..8; Vega, RDNA: SIMM16[3:0],
    1..16), so that verify never counts more than the hardware of any
    generation gives (LLVM itself never emits more than s_nop 7).  [S:hazards]"""
    return ((n & 0xFFFF) & 0x7) + 1


def nop_value(text: str, span: Span) -> int:
    """The integer of ``s_nop N``, in [-2**63, 2**64) as llvm-mc-22 accepts it."""
    t = text.strip()
    digits = t.lstrip("-")
    if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
        raise InputError(span, f"write '{t}' without a leading zero (llvm-mc reads it as octal)")
    if len(t) > 70:
        raise InputError(span, f"s_nop's operand must fit in 64 bits, got '{t[:20]}...'")
    v = parse_int(t, span, "an integer")
    if not -(1 << 63) <= v < (1 << 64):
        raise InputError(span, f"s_nop's operand must fit in 64 bits, got '{t}'")
    return v & 0xFFFFFFFFFFFFFFFF


_op: OpDef
for _op in [Smov(32), Smov(64)] + [Saveexec(o, b) for o in _SAVEEXEC for b in (32, 64)]:
    register(_op)
register(Nop())
for _name, _feat in [("s_waitcnt", None), ("s_sleep", None), ("s_setprio", None),
                     ("s_delay_alu", "delay_alu"), ("s_clause", "clause")] + \
        [(f"s_waitcnt_{c}", "waitcnt_split") for c in ("vscnt", "vmcnt", "expcnt", "lgkmcnt")] + \
        [(f"s_wait_{c}", "wait_gfx12") for c in ("dscnt", "loadcnt", "kmcnt", "storecnt", "samplecnt",
                                                 "bvhcnt", "expcnt", "loadcnt_dscnt", "storecnt_dscnt")]:
    # the GFX10/GFX11 split counters take an SGPR (null) and a count
    register(Schedule(_name, _feat, "null, 0" if _feat == "waitcnt_split" else "0"))
register(DepCtr("s_wait_alu", "wait_gfx12"))
register(DepCtr("s_waitcnt_depctr", "waitcnt_depctr"))


# ---------------------------------------------------------------------------
# scalar ALU on lane values read out of VGPRs (reductions' final steps) and on
# lane masks.  SCC is set as the ISA says for each op.  [S:salu]


def _brev(B: Backend, a: Value) -> Value:
    """The 32 bits of `a` in reverse order (bit k of the result is bit 31 - k).

    >>> from verify.backend import Concrete
    >>> hex(_brev(Concrete(), 0x00000001)), hex(_brev(Concrete(), 0x12345678))
    ('0x80000000', '0x1e6a2c48')
    """
    return B.from_bits([B.bit(a, 31 - k) for k in range(32)])


def _wqm(B: Backend, a: Value) -> Value:
    """Whole quad mode of a mask: each 4-bit quad all set where any of its
    bits is  [S:wqm].

    >>> from verify.backend import Concrete
    >>> hex(_wqm(Concrete(), 0x00000021)), hex(_wqm(Concrete(), 0x80000000))
    ('0xff', '0xf0000000')
    """
    return B.from_bits([B.or_b(*(B.bit(a, (k & ~3) + j) for j in range(4))) for k in range(32)])


def _popcount(B: Backend, a: Value) -> Value:
    return B.popcount([B.bit(a, k) for k in range(32)])


def _ctpop(E: AnyEmitter, a: Value) -> Value:
    """s_bcnt1's count as emitted: llvm.ctpop.i32 (HIP: __builtin_popcount)."""
    return E.call("llvm.ctpop.i32", "__builtin_popcount", [a], uniform=True)


def _ff1(B: Arith, lo: Value, hi: Value | None = None) -> Value:
    """Index of the lowest set bit, 0xffffffff when there is none."""
    if type(lo) is int and (hi is None or type(hi) is int):  # known bits (a lane loop's mask): the index itself
        x = lo | (hi or 0) << 32
        return B.const((x & -x).bit_length() - 1 if x else 0xFFFFFFFF)
    res = B.const(0xFFFFFFFF)
    bits = [(lo, k, k) for k in range(32)] + ([(hi, k, 32 + k) for k in range(32)] if hi is not None else [])
    for word, k, pos in reversed(bits):
        res = B.ite(B.bit(word, k), B.const(pos), res)
    return res


def _one_literal(ins: Instr, wide: bool = False) -> None:
    """An SALU instruction has one 32-bit literal slot; in 64-bit operands the
    written value decides what is inline (0xffffffff is a literal).  [S:salu] [S:literal64]"""
    lits = [(k, op.value) for k, op in enumerate(ins.operands) if isinstance(op, Imm)
            and not (is_inline_constant64(op) if wide else is_inline_constant(op.value))]
    if len({v for _, v in lits}) > 1:
        raise InputError(ins.operand_span(lits[1][0]), "only one unique literal constant is allowed")


class Salu2(OpDef):
    """s_<op>_b32/_u32/_i32 sD, s0, s1 (32-bit)."""

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        _one_literal(ins)
        return warns

    unit = "salu"
    sig = ("sdst", "ssrc", "ssrc")
    arg_names = ("sdst", "ssrc0", "ssrc1")

    def __init__(self, base: str, fn: LaneFn, scc: LaneFn | None, alias: tuple[str, str] | None = None):
        self.base, self.fn, self.scc = base, fn, scc
        self.alias = alias  # (spelling, feature) another generation uses
        self.alias_features = {alias[0]: alias[1]} if alias else {}

    def mnemonics(self) -> dict[str, str]:
        out = {self.base: ""}
        if self.alias:
            out[self.alias[0]] = ""
        return out

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a, b = ins.operands
        x, y = m.scalar(a), m.scalar(b)
        r = self.fn(B, x, y)
        m.write_scalar(dst, r)
        scc = self.scc
        if scc is _nonzero:
            m.set_scc_from(lambda: B.any_bit(r))
        elif scc is not None:
            m.set_scc_from(lambda: scc(B, x, y, r))

    def defs(self, ins: Instr) -> list[str]:
        return super().defs(ins) + ["scc"]

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, a, b = ins.operands
        x, y = E.get(a), E.get(b)
        r = self.fn(E, x, y)
        E.set(dst, r)
        if self.scc is not None:
            E.set_scc(self.scc(E, x, y, r))


class Salu2x64(OpDef):
    """s_<bitwise>_b64 sD, s0, s1: each half; SCC = result != 0."""

    unit = "salu"
    sig = ("sdst64", "ssrc64", "ssrc64")
    arg_names = ("sdst", "ssrc0", "ssrc1")

    def __init__(self, base: str, fn: LaneFn, alias: tuple[str, str] | None = None):
        self.base, self.fn = base, fn
        self.alias = alias
        self.alias_features = {alias[0]: alias[1]} if alias else {}

    mnemonics = Salu2.mnemonics

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        _one_literal(ins, wide=True)
        return warns

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a, b = ins.operands
        (al, ah), (bl, bh) = m.scalar64(a), m.scalar64(b)
        lo, hi = self.fn(B, al, bl), self.fn(B, ah, bh)
        m.write_scalar64(dst, lo, hi)
        m.scc = B.any_bit(lo, hi)

    def defs(self, ins: Instr) -> list[str]:
        return super().defs(ins) + ["scc"]

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        """Each half (a lane mask is read as its ballot's halves, [S:emit-masks])."""
        dst, a, b = ins.operands
        (al, ah), (bl, bh) = E.get_pair(a), E.get_pair(b)
        lo, hi = self.fn(E, al, bl), self.fn(E, ah, bh)
        E.set(SReg((dst.names[0],)), lo)
        E.set(SReg((dst.names[1],)), hi)
        E.set_scc(E.or_b(E.ne(lo, 0), E.ne(hi, 0)))


class Salu1(OpDef):
    """One-source scalar ops: s_not, s_ff1/s_ctz, s_bcnt1, s_brev (32/64-bit source)."""

    unit = "salu"

    def __init__(self, base: str, fn: LaneFn, src64: bool = False, dst64: bool = False, scc: bool | None = None,
                 feature: str | None = None, spell: LaneFn | None = None):
        self.base, self.fn, self.src64, self.dst64, self.scc = base, fn, src64, dst64, scc
        self.feature = feature
        self.spell = spell  # emission: fn through an intrinsic (E has no bit()), on the source's 32-bit words
        self.sig = ("sdst64" if dst64 else "sdst", "ssrc64" if src64 else "ssrc")
        self.arg_names = ("sdst", "ssrc0")

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a = ins.operands
        src = m.scalar64(a) if self.src64 else (m.scalar(a),)
        r = self.fn(B, *src)
        if self.dst64:
            m.write_scalar64(dst, *r)
            if self.scc:
                m.scc = B.any_bit(r[0], r[1])
        else:
            m.write_scalar(dst, r)
            if self.scc:
                m.scc = B.ne(r, B.const(0))

    def defs(self, ins: Instr) -> list[str]:
        return super().defs(ins) + (["scc"] if self.scc else [])

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, a = ins.operands
        if self.spell is None or self.dst64 or (self.src64 and not isinstance(a, SReg)):
            super().emit(ins, E)
            return
        srcs = [E.get(SReg((n,), n)) for n in a.names] if self.src64 else [E.get(a)]
        r = self.spell(E, *srcs)
        E.set(dst, r)
        if self.scc:
            E.set_scc(E.ne(r, 0))


class Bitset(OpDef):
    """s_bitset0/1_b32/_b64 sD, s0: clear/set bit s0[4:0] (b64: [5:0]) of sD."""

    unit = "salu"

    def __init__(self, value: int, bits: int):
        self.value, self.bits = value, bits
        self.base = f"s_bitset{value}_b{bits}"
        self.sig = ("sdst" if bits == 32 else "sdst64", "ssrc")
        self.arg_names = ("sdst", "ssrc0")

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a = ins.operands
        pos = B.and_(m.scalar(a), B.const(self.bits - 1))
        words = [m.s(n) for n in dst.names]
        out: list[Value] = []
        for h, w in enumerate(words):
            shift = B.sub(pos, B.const(32 * h))
            inside = B.and_b(B.ule(B.const(32 * h), pos), B.ult(pos, B.const(32 * h + 32)))
            mask = B.ite(inside, B.shl(B.const(1), shift), B.const(0))
            out.append(B.or_(w, mask) if self.value else B.and_(w, B.not_(mask)))
        for n, v in zip(dst.names, out):
            m.set_s(n, v)

    def uses(self, ins: Instr) -> list[str]:
        return super().uses(ins) + list(ins.operands[0].names)


SCMP_OPS: dict[str, LaneFn] = {
    "eq": lambda B, a, b, s: B.eq(a, b),
    "lg": lambda B, a, b, s: B.ne(a, b),
    "lt": lambda B, a, b, s: B.slt(a, b) if s else B.ult(a, b),
    "le": lambda B, a, b, s: B.sle(a, b) if s else B.ule(a, b),
    "gt": lambda B, a, b, s: B.slt(b, a) if s else B.ult(b, a),
    "ge": lambda B, a, b, s: B.sle(b, a) if s else B.ule(b, a),
}


class Scmp(OpDef):
    """s_cmp_<op>_<i32|u32> s0, s1 and s_cmp_<eq|lg>_u64 s0[2], s1[2]: SCC =
    the compare (lg: not equal).  [S:salu-cmp]"""

    unit = "salu"
    arg_names = ("ssrc0", "ssrc1")

    def __init__(self, op: str, ty: str):
        self.base = f"s_cmp_{op}_{ty}"
        self.fn, self.signed, self.wide = SCMP_OPS[op], ty == "i32", ty == "u64"
        self.sig = ("ssrc64", "ssrc64") if self.wide else ("ssrc", "ssrc")

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        _one_literal(ins, wide=self.wide)
        return warns

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        a, b = ins.operands
        if self.wide:
            (al, ah), (bl, bh) = m.scalar64(a), m.scalar64(b)
            eq = B.and_b(B.eq(al, bl), B.eq(ah, bh))
            m.scc = eq if self.base.startswith("s_cmp_eq") else B.not_b(eq)
        else:
            m.scc = self.fn(B, m.scalar(a), m.scalar(b), self.signed)

    def defs(self, ins: Instr) -> list[str]:
        return ["scc"]

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        a, b = ins.operands
        if self.wide:
            (al, ah), (bl, bh) = E.get_pair(a), E.get_pair(b)
            eq = E.and_b(E.eq(al, bl), E.eq(ah, bh))
            E.set_scc(eq if self.base.startswith("s_cmp_eq") else E.not_b(eq))
        else:
            E.set_scc(self.fn(E, E.get(a), E.get(b), self.signed))


class Scselect(OpDef):
    """s_cselect_b32/_b64 sD, s0, s1: D = SCC ? S0 : S1.  [S:salu-cmp]"""

    unit = "salu"
    arg_names = ("sdst", "ssrc0", "ssrc1")

    def __init__(self, bits: int):
        self.bits = bits
        self.base = f"s_cselect_b{bits}"
        self.sig = ("sdst", "ssrc", "ssrc") if bits == 32 else ("sdst64", "ssrc64", "ssrc64")

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        _one_literal(ins, wide=self.bits == 64)
        return warns

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a, b = ins.operands
        c = m.scc
        if self.bits == 32:
            m.write_scalar(dst, B.ite(c, m.scalar(a), m.scalar(b)))
        else:
            (al, ah), (bl, bh) = m.scalar64(a), m.scalar64(b)
            m.write_scalar64(dst, B.ite(c, al, bl), B.ite(c, ah, bh))

    def uses(self, ins: Instr) -> list[str]:
        return super().uses(ins) + ["scc"]

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, a, b = ins.operands
        c = E.get_scc()
        if self.bits == 32:
            E.set(dst, E.ite(c, E.get(a), E.get(b)))
            return
        (al, ah), (bl, bh) = E.get_pair(a), E.get_pair(b)
        E.set(SReg((dst.names[0],)), E.ite(c, al, bl))
        E.set(SReg((dst.names[1],)), E.ite(c, ah, bh))


for _sop in SCMP_OPS:
    for _sty in ("i32", "u32"):
        register(Scmp(_sop, _sty))
register(Scmp("eq", "u64"))
register(Scmp("lg", "u64"))
register(Scselect(32))
register(Scselect(64))


def _cmp_scc(op: LaneFn) -> LaneFn:
    return lambda B, x, y, r: op(B, x, y)


def _nonzero(B: Any, x: Any, y: Any, r: Any) -> Any:
    """SCC = D != 0, the logic and shift ops' (`Salu2.execute` asks the
    backend's `any_bit`, so a lane mask's SCC is the OR of its lanes)."""
    return B.ne(r, B.const(0))


_S2: list[tuple[Any, ...]] = [
    ("s_add_u32", lambda B, x, y: B.add(x, y), lambda B, x, y, r: B.ult(r, x)),
    ("s_sub_u32", lambda B, x, y: B.sub(x, y), lambda B, x, y, r: B.ult(x, y)),
    ("s_add_i32", lambda B, x, y: B.add(x, y),
     lambda B, x, y, r: B.and_b(B.eq(B.bit(x, 31), B.bit(y, 31)), B.ne(B.bit(r, 31), B.bit(x, 31))),
     ("s_add_co_i32", "salu_gfx12_names")),
    ("s_sub_i32", lambda B, x, y: B.sub(x, y),
     lambda B, x, y, r: B.and_b(B.ne(B.bit(x, 31), B.bit(y, 31)), B.ne(B.bit(r, 31), B.bit(x, 31))),
     ("s_sub_co_i32", "salu_gfx12_names")),
    ("s_mul_i32", lambda B, x, y: B.mul(x, y), None),
    ("s_min_u32", lambda B, x, y: B.umin(x, y), _cmp_scc(lambda B, x, y: B.ult(x, y))),
    ("s_max_u32", lambda B, x, y: B.umax(x, y), _cmp_scc(lambda B, x, y: B.ult(y, x))),
    ("s_min_i32", lambda B, x, y: B.smin(x, y), _cmp_scc(lambda B, x, y: B.slt(x, y))),
    ("s_max_i32", lambda B, x, y: B.smax(x, y), _cmp_scc(lambda B, x, y: B.slt(y, x))),
    ("s_and_b32", lambda B, x, y: B.and_(x, y), _nonzero),
    ("s_or_b32", lambda B, x, y: B.or_(x, y), _nonzero),
    ("s_xor_b32", lambda B, x, y: B.xor(x, y), _nonzero),
    ("s_andn2_b32", lambda B, x, y: B.and_(x, B.not_(y)), _nonzero,
     ("s_and_not1_b32", "salu_gfx11_names")),
    ("s_lshl_b32", lambda B, x, y: B.shl(x, B.and_(y, B.const(31))), _nonzero),
    ("s_lshr_b32", lambda B, x, y: B.lshr(x, B.and_(y, B.const(31))), _nonzero),
    # the negated logic ops: D = ~(S0 op S1), S0 | ~S1; SCC = D != 0  [S:salu-nor]
    ("s_nor_b32", lambda B, x, y: B.not_(B.or_(x, y)), _nonzero),
    ("s_nand_b32", lambda B, x, y: B.not_(B.and_(x, y)), _nonzero),
    ("s_xnor_b32", lambda B, x, y: B.not_(B.xor(x, y)), _nonzero),
    ("s_orn2_b32", lambda B, x, y: B.or_(x, B.not_(y)), _nonzero,
     ("s_or_not1_b32", "salu_gfx11_names")),
]
_S64: list[tuple[Any, ...]] = [
    ("s_and_b64", lambda B, x, y: B.and_(x, y)),
    ("s_or_b64", lambda B, x, y: B.or_(x, y)),
    ("s_xor_b64", lambda B, x, y: B.xor(x, y)),
    ("s_andn2_b64", lambda B, x, y: B.and_(x, B.not_(y)), ("s_and_not1_b64", "salu_gfx11_names")),
    ("s_nor_b64", lambda B, x, y: B.not_(B.or_(x, y))),  # [S:salu-nor]
    ("s_nand_b64", lambda B, x, y: B.not_(B.and_(x, y))),
    ("s_xnor_b64", lambda B, x, y: B.not_(B.xor(x, y))),
    ("s_orn2_b64", lambda B, x, y: B.or_(x, B.not_(y)), ("s_or_not1_b64", "salu_gfx11_names")),
]
for _row in _S2:
    register(Salu2(*_row))
for _row in _S64:
    register(Salu2x64(*_row))
for _op in [
    Salu1("s_not_b32", lambda B, a: B.not_(a), scc=True),
    Salu1("s_not_b64", lambda B, lo, hi: (B.not_(lo), B.not_(hi)), src64=True, dst64=True, scc=True),
    Salu1("s_ff1_i32_b32", lambda B, a: _ff1(B, a), feature="salu_gfx9_names"),
    Salu1("s_ff1_i32_b64", lambda B, lo, hi: _ff1(B, lo, hi), src64=True, feature="salu_gfx9_names"),
    Salu1("s_ctz_i32_b32", lambda B, a: _ff1(B, a), feature="salu_gfx11_names"),
    Salu1("s_ctz_i32_b64", lambda B, lo, hi: _ff1(B, lo, hi), src64=True, feature="salu_gfx11_names"),
    Salu1("s_bcnt1_i32_b32", lambda B, a: _popcount(B, a), scc=True, spell=lambda E, a: _ctpop(E, a)),
    Salu1("s_bcnt1_i32_b64", lambda B, lo, hi: B.add(_popcount(B, lo), _popcount(B, hi)), src64=True, scc=True,
          spell=lambda E, lo, hi: E.add(_ctpop(E, lo), _ctpop(E, hi))),
    Salu1("s_brev_b32", lambda B, a: _brev(B, a)),  # no SCC  [S:salu]
    Salu1("s_brev_b64", lambda B, lo, hi: (_brev(B, hi), _brev(B, lo)), src64=True, dst64=True),
    Bitset(0, 32), Bitset(0, 64), Bitset(1, 32), Bitset(1, 64),
    Salu1("s_wqm_b32", lambda B, a: _wqm(B, a), scc=True),  # [S:wqm]
    Salu1("s_wqm_b64", lambda B, lo, hi: (_wqm(B, lo), _wqm(B, hi)), src64=True, dst64=True, scc=True),
]:
    register(_op)
