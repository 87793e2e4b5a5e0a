"""Scalar ops used around cross-lane code: s_mov, the *_saveexec family
(whole-wave mode), and scheduling-only instructions.  [S:salu] [S:wwm]
"""

from __future__ import annotations

from ..diag import Warning_
from ..ir import Instr
from ..target import Target
from .base import OpDef, register


class Smov(OpDef):
    unit = "salu"

    def __init__(self, bits: int):
        self.bits = bits
        self.base = f"s_mov_b{bits}"
        self.sig = ("sdst", "ssrc") if bits == 32 else ("sdst64", "ssrc64")
        self.arg_names = ("sdst", "ssrc")

    def execute(self, ins: Instr, m) -> None:
        dst, src = ins.operands
        if self.bits == 32:
            m.write_scalar(dst, m.scalar(src))
        else:
            m.write_scalar64(dst, *m.scalar64(src))


_SAVEEXEC = {
    "and": lambda B, s, e: B.and_(s, e),
    "or": lambda B, s, e: B.or_(s, e),
    "xor": lambda B, s, e: B.xor(s, e),
    "andn2": lambda B, s, e: B.and_(s, B.not_(e)),
    "orn2": lambda B, s, e: B.or_(s, B.not_(e)),
}
# GFX11 renamed andn2/orn2 to and_not1/or_not1
_SPELLINGS = {"andn2": ("andn2", "and_not1"), "orn2": ("orn2", "or_not1")}


class Saveexec(OpDef):
    """sD = EXEC; EXEC = OP(s0, EXEC); SCC = (EXEC != 0)."""

    unit = "salu"

    def __init__(self, op: str, bits: int):
        self.op = _SAVEEXEC[op]
        self.bits = bits
        names = _SPELLINGS.get(op, (op,))
        self.base = f"s_{names[0]}_saveexec_b{bits}"
        self.alt = [f"s_{n}_saveexec_b{bits}" for n in names[1:]]
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

    def execute(self, ins: Instr, m) -> None:
        B = m.B
        dst, src = ins.operands
        if self.bits == 32:
            e = m.s("exec_lo")
            m.write_scalar(dst, e)
            new = self.op(B, m.scalar(src), e)
            m.set_s("exec_lo", new)
            m.scc = B.ne(new, B.const(0))
        else:
            elo, ehi = m.s("exec_lo"), m.s("exec_hi")
            m.write_scalar64(dst, elo, ehi)
            slo, shi = m.scalar64(src)
            lo, hi = self.op(B, slo, elo), self.op(B, shi, ehi)
            m.set_s("exec_lo", lo)
            m.set_s("exec_hi", hi)
            m.scc = B.or_b(B.ne(lo, B.const(0)), B.ne(hi, B.const(0)))

    def defs(self, ins: Instr) -> list[str]:
        return super().defs(ins) + (["exec_lo"] if self.bits == 32 else ["exec_lo", "exec_hi"]) + ["scc"]

    def uses(self, ins: Instr) -> list[str]:
        return super().uses(ins) + (["exec_lo"] if self.bits == 32 else ["exec_lo", "exec_hi"])


class Schedule(OpDef):
    """Changes no value: wait states, counters, ALU-delay hints."""

    schedule_only = True
    unit = "salu"

    def __init__(self, base: str, feature: str | None = None):
        self.base = base
        self.feature = feature

    def execute(self, ins: Instr, m) -> None:
        return

    def print(self, ins: Instr, target=None) -> str:
        return ins.text.split(";")[0].strip() or ins.mnemonic


for _op in [Smov(32), Smov(64)] + [Saveexec(o, b) for o in _SAVEEXEC for b in (32, 64)]:
    register(_op)
for _name, _feat in [("s_nop", None), ("s_waitcnt", None), ("s_sleep", None), ("s_setprio", None),
                     ("s_delay_alu", "delay_alu")] + \
        [(f"s_waitcnt_{c}", "waitcnt_split") for c in ("vscnt", "vmcnt", "expcnt", "lgkmcnt")] + \
        [(f"s_wait_{c}", "wait_gfx12") for c in ("alu", "dscnt", "loadcnt", "kmcnt", "storecnt", "samplecnt",
                                                 "bvhcnt", "expcnt")]:
    register(Schedule(_name, _feat))
