"""GPU code from a proved lowering: LLVM IR, HIP or assembly.

The program is translated instruction by instruction through each op's
``emit`` hook (verify/ops): cross-lane instructions become their amdgcn
intrinsics (``llvm.amdgcn.update.dpp``, ``mov.dpp8``, ``ds.swizzle``,
``ds.bpermute``, ``permlane16/x16/64``, ``permlane32.swap``, ``readlane``,
``writelane``, ``mbcnt``, ...) or HIP's ``__builtin_amdgcn_*``; plain ALU
ops reuse their semantic functions, run on this module's emitters as a
backend (the same ``fn(B, a, b)`` that the proofs run on z3).  Registers
become SSA values; a register read before anything wrote it is an input if
the header binds it and an arbitrary fixed value (``freeze poison``)
otherwise.  Whole-wave mode (``s_or_saveexec ..., -1`` ...
``s_mov exec, ...``) becomes ``llvm.amdgcn.set.inactive`` on the values
entering the region and ``llvm.amdgcn.strict.wwm`` on the values leaving
it.  Nothing here decides what is correct: the LLVM IR is compiled with
llvmlite and the assembly LLVM makes is proved again against the same spec
(:func:`reverify`).

An instruction or pattern that has no faithful spelling is an error naming
its line, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

from . import asmcheck, catalog, proofs, revisions
from . import target as T
from .backend import Cond, Value
from .diag import InputError, Span
from .ir import Binding, Imm, Instr, Lowering, SReg, VReg
from .lowering_file import load_lowering, parse_instr, print_instr
from .ops import OPS
from .ops.base import is_inline_constant64, written_value
from .proofs import canonical_lowering, instantiations, spec_call
from .refine import check_lowering, prove_one
from .syntax import float_text, operand_text, strip_comment
from .target import Target
from .wide import WIDE_TYPES

M32 = 0xFFFFFFFF


def _s32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v & 0x80000000 else v


@dataclass
class Val:
    """An emitted value: its text, type, whether it is the same in every
    lane, whether it is known to be below 32, and the whole-wave region it
    was made in (0: none)."""

    text: str
    ty: str = "i32"  # i32 | i1 | pair (a two-result intrinsic)
    uniform: bool = False
    small: bool = False
    region: int = 0
    leaving: bool = False  # made in whole-wave mode, read after it: strict.wwm on first read


class Unsupported(InputError):
    pass


ENTRY_EXEC = "entry-exec"  # get_mask's answer for the EXEC saved by s_or_saveexec, read in whole-wave mode


class Emitter:
    """Shared machinery; LLVMEmitter and HIPEmitter spell it.

    The value methods (add, xor, shl, ult, ite, ...) implement
    verify.backend.Arith, the part of the backend protocol an op's lane
    function uses, so the lane function can be run on an emitter; constants
    fold as on the concrete backend."""

    fmt = ""
    multi_output = False  # several outputs returned as one aggregate

    def __init__(self, low: Lowering, target: Target, wave: int) -> None:
        self.low = low
        self.target = target
        self.wave = wave
        self.lines: list[str] = []
        self.regs: dict[str, Any] = {}  # a Val, a constant, a v_cmp's bool, "saved-exec" or "dead-mask"
        self.inputs: list[tuple[str, str]] = []  # (parameter name, register)
        self.region = 0  # current whole-wave region, 0 outside
        self.nregions = 0
        self.saved: tuple[str, ...] = ()  # the SGPRs holding the EXEC saved on entering whole-wave mode
        self.wrapped: dict[str, tuple[Val, Val]] = {}  # register -> (its value in the region, before)
        # SGPRs holding a copy of EXEC made outside whole-wave mode (s_mov_b32 sX, exec_lo), with the
        # values they were given: `s_mov exec, -1` while they are intact enters whole-wave mode  [S:wwm]
        self.exec_copy: dict[str, Any] = {}
        self.saved_values: dict[str, Any] = {}  # the saved EXEC's ballot, where it was copied as a value
        self.left: dict[str, tuple[Val, Val]] = {}  # register -> (strict.wwm of it, its value made in the region)
        self.lane: Val | None = None
        self.cleared: str | None = None  # exec_lo or exec_hi while that half of a wave64's EXEC is 0 (half_exec)
        self.half_reads: dict[str, set[str]] = {}  # exec_lo / exec_hi -> the values read from it
        self.names: dict[str, int] = {}
        self.ins: Instr | None = None
        self.uses: set[str] = set()
        self.scc_written = False
        self.results: list[Value] = []  # several outputs, in the spec's order (ordered_outputs)
        # a 64-bit spec (u64/i64): its pair bindings are 64-bit parameters and result  [S:wide64]
        self.wide = is_wide(low)
        self.wide_params: set[str] = set()
        for b in low.inputs:
            if not isinstance(b.reg, VReg):
                raise Unsupported(b.span, f"cannot emit {low.name} as {self.fmt}: only VGPR inputs can be emitted, "
                                          f"not '{b.name} = {b.reg.text}'")
            self.inputs.append((b.name, b.reg.text))
            if self.wide and b.reg.count == 2:
                self.wide_params.add(b.name)
                lo, hi = self.split64(self._param(b.name), b.name)
                self.regs[f"v{b.reg.index}"], self.regs[f"v{b.reg.index + 1}"] = lo, hi
            else:
                self.regs[b.reg.text] = Val(self._param(b.name))

    # ---- names ------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        hint = re.sub(r"\W", "_", hint)
        n = self.names.get(hint, 0)
        self.names[hint] = n + 1
        return f"{hint}_{n}" if n else hint

    # ---- errors -----------------------------------------------------------
    def unsupported(self, why: str, ins: Instr | None = None) -> NoReturn:
        ins = ins or self.ins
        what = ins.mnemonic if ins is not None else self.low.name
        raise Unsupported(ins.span if ins is not None else None, f"cannot emit {what} as {self.fmt}: {why}")

    # ---- registers ----------------------------------------------------------
    def get(self, op: VReg | SReg | Imm, raw: bool = False) -> Value:
        """An operand's value: an int for a constant, else a Val.  In
        whole-wave mode a per-lane value from before the region is given
        a value in the inactive lanes (set.inactive), unless `raw`."""
        if isinstance(op, Imm):
            return op.value & M32
        if isinstance(op, SReg) and op.count != 1:
            self.unsupported(f"64-bit scalar operand '{op.text}'")
        key = op.text if isinstance(op, VReg) else op.names[0]
        if key in ("exec_lo", "exec_hi"):
            if self.region:
                self.unsupported("EXEC is read as a value in whole-wave mode")
            if self.cleared is not None:
                self.unsupported(f"EXEC is read as a value while {self.cleared} is 0")
            # the active lanes: ballot of true  [S:emit-masks]
            ballot = self.mask_value(True, key == "exec_hi", "exec")
            self.half_reads.setdefault(key, set()).add(ballot.text)  # a copy that may restore it (half_exec)
            return ballot
        v = self.regs.get(key)
        if isinstance(v, tuple) and v[0] == "mask-hi":  # the high half of a wave64 lane mask
            return self.mask_value(v[1], True, key)
        if v == "saved-exec" and key in self.saved_values:  # the ballot taken when it was copied
            return self.saved_values[key]
        if v == "saved-exec":
            self.unsupported(f"{key} holds the saved EXEC mask, which has no value in the emitted code")
        if v == "dead-mask":
            self.unsupported(f"the lane mask in {key} was made in whole-wave mode and is read after it")
        if v is None:
            v = self.regs[key] = self.arbitrary(key, uniform=isinstance(op, SReg))
            v.region = self.region
        if isinstance(v, (Val, bool)) and (isinstance(v, bool) or v.ty == "i1"):
            return self.mask_value(v, False, key)
        if isinstance(v, Val) and v.leaving:
            w = self.strict_wwm(v, key)
            w.uniform, w.small = v.uniform, v.small
            self.left[key] = (w, v)
            v = self.regs[key] = w
        if raw and key in self.wrapped and self.regs.get(key) is self.wrapped[key][0]:
            return self.wrapped[key][1]
        if self.region and not raw and isinstance(v, Val) and not v.uniform and v.region != self.region:
            # a per-lane value entering whole-wave mode: its inactive lanes are
            # arbitrary in the assembly; set.inactive gives them a value
            w = self.set_inactive(v, key)
            w.region = self.region
            self.wrapped[key] = (w, v)
            self.regs[key] = v = w
        return v

    def set(self, op: VReg | SReg, val: Value) -> None:
        key = op.text if isinstance(op, VReg) else op.names[0]
        if key in ("exec_lo", "exec_hi"):
            self.unsupported("EXEC is written other than by the whole-wave-mode pattern")
        if isinstance(val, Val):
            val = replace(val, region=self.region, uniform=val.uniform or isinstance(op, SReg))
        self.regs[key] = val

    def get_mask(self, op: SReg) -> Cond:
        """A lane mask: an i1 from v_cmp, or ENTRY_EXEC for the EXEC mask
        whole-wave mode saved (read inside the region)."""
        key = op.names[0]
        v = self.regs.get(key)
        if v == "saved-exec":
            if not self.region or tuple(op.names) != tuple(self.saved[:self.wave // 32]):
                self.unsupported(f"{op.text} holds the saved EXEC mask, readable only whole, in whole-wave mode")
            return ENTRY_EXEC
        if isinstance(v, bool) or (isinstance(v, Val) and v.ty == "i1"):
            if len(op.names) == 2 and self.regs.get(op.names[1]) != ("mask-hi", v):
                self.unsupported(f"the high half of the lane mask {op.text} was written after the v_cmp")
            return v
        halves = [self.regs.get(n) for n in op.names]
        if len(halves) == self.wave // 32 and all(
                (isinstance(h, int) and not isinstance(h, bool)) or (isinstance(h, Val) and h.ty == "i32" and h.uniform)
                for h in halves):
            # a mask held as a value (s_cselect ..., -1, 0; a ballot): this lane's bit  [S:emit-masks]
            consts = [h for h in halves if isinstance(h, int)]
            if len(consts) == len(halves):
                return self.lane_bit(sum((h & M32) << (32 * k) for k, h in enumerate(consts)))
            lane = self.lane_id()
            k = self.and_(lane, 31)
            bit = self.and_(self.lshr(halves[0], k), 1)
            if self.wave == 64:
                bit = self.ite(self.ne(self.and_(lane, 32), 0), self.and_(self.lshr(halves[1], k), 1), bit)
            return self.ne(bit, 0)
        self.unsupported(f"the lane mask {op.text} must come from a v_cmp or hold a value in the same program")

    def set_mask(self, op: SReg, val: Cond) -> None:
        if isinstance(val, Val):
            val = replace(val, region=self.region)
        self.regs[op.names[0]] = val
        if len(op.names) == 2:
            self.regs[op.names[1]] = ("mask-hi", val)

    def mask_value(self, c: Cond, high: bool, key: str) -> Val:
        """A lane mask read as a 32-bit value: llvm.amdgcn.ballot of its
        condition (the active lanes where it holds, as v_cmp writes it), the
        high half of the 64-bit ballot on a wave64.  Only where the mask was
        made under the same EXEC: outside whole-wave mode, or in the region
        that made it.  [S:emit-masks]"""
        if isinstance(c, Val) and c.region != self.region:
            self.unsupported(f"the lane mask in {key} was made under another EXEC (whole-wave mode)")
        if self.region and c is True:
            self.unsupported(f"{key} is read as a value in whole-wave mode")
        ty = f"i{self.wave}"
        b = self.call(f"llvm.amdgcn.ballot.{ty}", f"__builtin_amdgcn_ballot_w{self.wave}", [c], ret=ty,
                      uniform=True, hint=f"{key}.mask")
        if self.wave == 32:
            return b
        return self.half64(b, high, key)

    def half64(self, v: Val, high: bool, key: str) -> Val:
        raise NotImplementedError

    # ---- SCC -----------------------------------------------------------------
    def set_scc(self, c: Cond) -> None:
        self.regs["scc"] = c
        self.scc_written = True

    def get_scc(self) -> Cond:
        c = self.regs.get("scc")
        if c is None:
            self.unsupported("SCC is read here but was last written by an instruction that does not emit it")
        return c

    # ---- whole-wave mode ------------------------------------------------------
    def begin_wwm(self, save: SReg) -> None:
        if self.region or self.nregions:
            self.unsupported("more than one whole-wave-mode region (a value written in one would have to survive "
                             "in the inactive lanes until the next)")
        self.nregions += 1
        self.region = self.nregions
        self.saved = save.names
        for n in save.names:
            self.regs[n] = "saved-exec"

    def made_in_wwm(self, op: VReg | SReg | Imm) -> Val | None:
        """The value of a VGPR made in an earlier whole-wave region, read
        here outside it: its inactive lanes hold what the region wrote, which
        only whole-wave mode can read (LLVM's strict.wwm result is defined in
        the active lanes alone), so a read of one lane (v_readlane) is spelled
        inside it: strict.wwm(readlane(v, L)).  [S:wwm]"""
        if self.region or not isinstance(op, VReg):
            return None
        v = self.regs.get(op.text)
        if isinstance(v, Val) and v.leaving:
            return v
        w = self.left.get(op.text)
        return w[1] if w is not None and self.regs.get(op.text) is w[0] else None

    def copy_pair(self, dst: SReg, src: VReg | SReg) -> None:
        """s_mov_b64 of an SGPR pair: each half as it is held (a 32-bit
        value, or a lane mask's two halves, which stay one mask).  [S:emit-exec-copy]"""
        if not isinstance(src, SReg) or src.count != 2 or "exec_lo" in src.names:
            self.unsupported(f"64-bit scalar operand '{src.text}'")
        held = [self.regs.get(n) for n in src.names]
        for n, v in zip(src.names, held):
            if v is None:
                self.get(SReg((n,), n))  # some value, fixed but unknown
        for d, n in zip(dst.names, src.names):
            self.regs[d] = self.regs[n]

    def copy_exec(self, dst: SReg) -> None:
        """`s_mov sX, exec`: sX holds EXEC's bits as a value (its ballot,
        halves on a wave64), and is remembered as EXEC's copy.  [S:emit-exec-copy]"""
        if self.region:
            self.unsupported("EXEC is read as a value in whole-wave mode")
        self.exec_copy = {}
        for k, n in enumerate(dst.names):
            self.regs[n] = self.exec_copy[n] = self.mask_value(True, k == 1, "exec")

    def all_lanes_on(self) -> None:
        """`s_mov exec, -1` after EXEC was copied to SGPRs still holding the
        copy: the same as s_or_saveexec SDST, -1 (whole-wave mode, the copy
        its saved EXEC).  [S:wwm] [S:emit-exec-copy]"""
        names = tuple(self.exec_copy)
        if self.region or len(names) != self.wave // 32 or any(self.regs.get(n) is not v
                                                                for n, v in self.exec_copy.items()):
            self.unsupported("EXEC is written outside the whole-wave-mode pattern")
        self.saved_values, self.exec_copy = dict(self.exec_copy), {}
        self.begin_wwm(SReg(names, names[0]))

    def end_wwm(self, src: VReg | SReg | Imm) -> None:
        if not self.region:
            self.unsupported("EXEC is written outside the whole-wave-mode pattern")
        if not isinstance(src, SReg) or src.names != self.saved[:len(src.names)] or any(
                self.regs.get(n) != "saved-exec" for n in src.names):
            self.unsupported("EXEC is restored from something other than the mask s_or_saveexec saved")
        for key, (w, orig) in self.wrapped.items():
            if self.regs.get(key) is w:  # only read in the region: the value from before it
                self.regs[key] = orig
        self.wrapped = {}
        for key, v in list(self.regs.items()):
            if isinstance(v, Val) and v.region == self.region:
                if v.ty == "i1":
                    self.regs[key] = "dead-mask"
                elif v.ty == "i32":
                    self.regs[key] = replace(v, region=0, leaving=True)
        self.region = 0
        self.saved = ()

    def half_exec(self, ins: Instr) -> bool:
        """A wave64's EXEC with one half cleared around v_readfirstlane (the
        32-lane warps of a wave64, cuda_match_all_w64): `s_mov_b32 sX,
        exec_hi; s_mov_b32 exec_hi, 0; v_readfirstlane_b32 sY, vZ; s_mov_b32
        exec_hi, sX` reads the first active lane of the low half, which is
        readlane(vZ, cttz(the low word of EXEC's ballot)) (lane 32 where that
        half has none: any lane is fine there, no lane of that half reads it);
        exec_lo cleared, the high half's, cttz of the high word plus 32, its low
        6 bits.  Nothing else may run while a half is cleared.  Handled here, so
        the ops' own emit is unchanged.  True where `ins` was handled.  [S:emit-half-exec]"""
        if self.wave != 64 or self.region:
            return False
        ops = ins.operands
        if ins.base == "s_mov_b32" and isinstance(ops[0], SReg) and ops[0].names[0] in ("exec_lo", "exec_hi"):
            half = ops[0].names[0]
            if self.cleared is None and isinstance(ops[1], Imm) and ops[1].value & M32 == 0:
                self.cleared = half
                return True
            src = self.regs.get(ops[1].names[0]) if isinstance(ops[1], SReg) else None
            if self.cleared == half and isinstance(src, Val) and src.text in self.half_reads.get(half, ()):
                self.cleared = None
                return True
            self.unsupported("EXEC is written other than by the whole-wave-mode pattern")
        if self.cleared is None:
            return False
        if ins.base == "v_readfirstlane_b32":
            dst, src = ops
            high = self.cleared == "exec_lo"  # the half left active
            first = self.call("llvm.cttz.i32", None, [self.mask_value(True, high, "exec"), False], imm=(1,),
                              uniform=True, hint="first")
            lane = self.and_(self.add(first, 32), 63) if high else first
            self.set(dst, self.call("llvm.amdgcn.readlane.i32", "__builtin_amdgcn_readlane", [self.get(src), lane],
                                    uniform=True))
            return True
        if OPS[ins.base].schedule_only:  # a wait state changes no value
            return False
        self.unsupported(f"only v_readfirstlane_b32 is emitted while {self.cleared} is 0")

    def lane_bit(self, mask: int) -> Cond:
        """An i1: bit `lane` of the constant `mask`, from the lane index
        (LLVMEmitter uses llvm.amdgcn.inverse.ballot instead)."""
        lane = self.lane_id()
        k = self.and_(lane, 31)
        bit = self.and_(self.lshr(mask & M32, k), 1)
        if self.wave == 64:
            hi = self.and_(self.lshr(mask >> 32, k), 1)
            bit = self.ite(self.ne(self.and_(lane, 32), 0), hi, bit)
        return self.ne(bit, 0)

    def lane_id(self) -> Val:
        """This lane's index: mbcnt_hi(-1, mbcnt_lo(-1, 0)) ([S:mbcnt])."""
        if self.lane is None:
            lo = self.call("llvm.amdgcn.mbcnt.lo", "__builtin_amdgcn_mbcnt_lo", [M32, 0], hint="lane")
            self.lane = lo if self.wave == 32 else self.call("llvm.amdgcn.mbcnt.hi", "__builtin_amdgcn_mbcnt_hi",
                                                             [M32, lo], hint="lane")
            self.lane.small = False
        return self.lane

    # ---- the program ------------------------------------------------------
    def run(self) -> None:
        for ins in self.low.program:
            self.ins = ins
            self.scc_written = False
            if not self.half_exec(ins):
                OPS[ins.base].emit(ins, self)
            if "scc" in OPS[ins.base].defs(ins) and not self.scc_written:
                self.regs.pop("scc", None)  # written by an instruction that does not spell it: unreadable
        self.ins = None
        if self.region:
            self.unsupported("whole-wave mode is never left (EXEC is not restored)")
        if self.cleared is not None:
            self.unsupported(f"{self.cleared} is never restored")
        if len(self.low.outputs) != 1:
            self.results = [self.get(b.reg) for b in self.ordered_outputs()]
            self.result = self.results[0]
            return
        out = self.low.outputs[0]
        if isinstance(out.reg, SReg) and out.reg.count != 1:
            raise Unsupported(out.span, f"cannot emit {self.low.name} as {self.fmt}: the output is one 32-bit register")
        if self.wide and isinstance(out.reg, VReg) and out.reg.count == 2:
            self.result = self.join64(self.get(VReg(out.reg.index)), self.get(VReg(out.reg.index + 1)))
            return
        self.result = self.get(out.reg)  # an SGPR output is returned like a VGPR one, in every lane

    def ordered_outputs(self) -> list[Binding]:
        """Several outputs, in the spec's order (the emitted function returns
        them in that order: LLVM IR as a struct of i32, v0, v1, ... once
        compiled); each one 32-bit register, the spec not 64-bit."""
        if not self.multi_output:
            raise Unsupported(self.low.spans.get("spec"), f"cannot emit {self.low.name} as {self.fmt}: "
                                                          f"only lowerings with one output can be emitted as {self.fmt}")
        if self.wide:
            raise Unsupported(self.low.spans.get("spec"), f"cannot emit {self.low.name} as {self.fmt}: "
                                                          "a 64-bit spec with several outputs")
        by_name = {b.name: b for b in self.low.outputs}
        spec = catalog.speclib().get(self.low.spec, self.low.spans.get("spec"))
        outs = [by_name[n] for n in spec.outputs]
        for b in outs:
            if b.reg.count != 1:
                raise Unsupported(b.span, f"cannot emit {self.low.name} as {self.fmt}: output {b.name} is not one "
                                          "32-bit register")
        return outs

    # ---- spelled by LLVMEmitter and HIPEmitter --------------------------------
    def _param(self, name: str) -> str:
        raise NotImplementedError

    def split64(self, param: str, name: str) -> tuple[Val, Val]:
        """A 64-bit parameter's (low, high) 32-bit halves."""
        raise NotImplementedError

    def join64(self, lo: Value, hi: Value) -> Val:
        """The 64-bit result of two 32-bit halves."""
        raise NotImplementedError

    def arbitrary(self, key: str, uniform: bool) -> Val:
        raise NotImplementedError

    def set_inactive(self, v: Val, key: str) -> Val:
        raise NotImplementedError

    def strict_wwm(self, v: Val, key: str) -> Val:
        raise NotImplementedError

    def call(self, name: str, hip: str | None, args: list[Any], imm: tuple[int, ...] = (), ret: str = "i32",
             uniform: bool = False, hint: str | None = None) -> Val:
        raise NotImplementedError

    def _float(self, op: str, a: Value, b: Value) -> Value:
        raise NotImplementedError

    def _minmax(self, op: str, a: Value, b: Value) -> Value:
        raise NotImplementedError

    def _cmp(self, op: str, a: Value, b: Value) -> Cond:
        raise NotImplementedError

    def fcmp(self, pred: str, a: Value, b: Value) -> Cond:
        """An IEEE binary32 compare of the i32 bits, `pred` one of LLVM's
        fcmp predicates (oeq, une, olt, ..., ord, uno)."""
        raise NotImplementedError

    # ---- the backend protocol (values) -------------------------------------------
    def const(self, n: int) -> int:
        return n & M32

    def _bin(self, op: str, a: Value, b: Value, small: bool = False) -> Val:
        raise NotImplementedError

    def add(self, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return (a + b) & M32
        if b == 0 or a == 0:
            return a if b == 0 else b
        return self._bin("add", a, b)

    def sub(self, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return (a - b) & M32
        return self._bin("sub", a, b)

    def mul(self, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return (a * b) & M32
        return self._bin("mul", a, b)

    def and_(self, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return a & b
        k = b if isinstance(b, int) else a if isinstance(a, int) else None
        return self._bin("and", a, b, small=k is not None and k < 32)

    def or_(self, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return a | b
        if b == 0 or a == 0:
            return a if b == 0 else b
        return self._bin("or", a, b)

    def xor(self, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return a ^ b
        if b == 0 or a == 0:
            return a if b == 0 else b
        return self._bin("xor", a, b)

    def not_(self, a: Value) -> Value:
        return ~a & M32 if isinstance(a, int) else self._bin("xor", a, M32)

    def _small(self, n: Value) -> bool:
        return (isinstance(n, int) and n < 32) or (isinstance(n, Val) and n.small)

    def shl(self, a: Value, n: Value) -> Value:
        if isinstance(a, int) and isinstance(n, int):
            return (a << n) & M32 if n < 32 else 0
        if self._small(n):
            return self._bin("shl", a, n)
        return self.ite(self.ult(n, 32), self._bin("shl", a, self.and_(n, 31)), 0)

    def lshr(self, a: Value, n: Value) -> Value:
        if isinstance(a, int) and isinstance(n, int):
            return a >> n if n < 32 else 0
        if self._small(n):
            return self._bin("lshr", a, n)
        return self.ite(self.ult(n, 32), self._bin("lshr", a, self.and_(n, 31)), 0)

    def ashr(self, a: Value, n: Value) -> Value:
        if isinstance(a, int) and isinstance(n, int):
            return _s32(a) >> min(n, 31) & M32
        return self._bin("ashr", a, n if self._small(n) else self.umin(n, 31))

    def bit(self, a: Value, k: int) -> NoReturn:
        self.unsupported("bit-level lane functions have no spelling here")

    def from_bits(self, bits: Sequence[Any]) -> NoReturn:
        self.unsupported("bit-level lane functions have no spelling here")

    def fadd(self, a: Value, b: Value) -> Value:
        return self._float("fadd", a, b)

    def fmin(self, a: Value, b: Value) -> Value:
        return self._float("minimumnum", a, b)

    def fmax(self, a: Value, b: Value) -> Value:
        return self._float("maximumnum", a, b)

    def umin(self, a: Value, b: Value) -> Value:
        return self._minmax("umin", a, b)

    def umax(self, a: Value, b: Value) -> Value:
        return self._minmax("umax", a, b)

    def smin(self, a: Value, b: Value) -> Value:
        return self._minmax("smin", a, b)

    def smax(self, a: Value, b: Value) -> Value:
        return self._minmax("smax", a, b)

    def eq(self, a: Value, b: Value) -> Cond:
        return self._cmp("eq", a, b)

    def ne(self, a: Value, b: Value) -> Cond:
        return self._cmp("ne", a, b)

    def ult(self, a: Value, b: Value) -> Cond:
        return self._cmp("ult", a, b)

    def ule(self, a: Value, b: Value) -> Cond:
        return self._cmp("ule", a, b)

    def slt(self, a: Value, b: Value) -> Cond:
        return self._cmp("slt", a, b)

    def sle(self, a: Value, b: Value) -> Cond:
        return self._cmp("sle", a, b)

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        raise NotImplementedError  # spelled by LLVMEmitter and HIPEmitter

    # ---- conditions (i1 per lane: a carry, a 64-bit compare) ----------------------
    def _logic(self, op: str, a: Cond, b: Cond) -> Cond:
        raise NotImplementedError  # spelled by LLVMEmitter and HIPEmitter

    def and_b(self, *cs: Cond) -> Cond:
        out: Cond = True
        for c in cs:
            if c is False or out is False:
                return False
            out = c if out is True else out if c is True else self._logic("and", out, c)
        return out

    def or_b(self, *cs: Cond) -> Cond:
        out: Cond = False
        for c in cs:
            if c is True or out is True:
                return True
            out = c if out is False else out if c is False else self._logic("or", out, c)
        return out

    def not_b(self, c: Cond) -> Cond:
        return (not c) if isinstance(c, bool) else self._logic("xor", c, True)

    def get_pair(self, op: VReg | SReg | Imm) -> tuple[Value, Value]:
        """A 64-bit source as (low, high) halves: a VGPR or SGPR pair, or an
        integer inline constant (-16..64: a 64-bit value either way); a
        literal is not emitted (its expansion depends on the operand type,
        [S:literal64])."""
        if isinstance(op, VReg) and op.count == 2:
            return self.get(VReg(op.index)), self.get(VReg(op.index + 1))
        if isinstance(op, SReg) and op.count == 2:
            return self.get(SReg((op.names[0],))), self.get(SReg((op.names[1],)))
        if isinstance(op, Imm) and float_text(op.text) is None and is_inline_constant64(op):
            v = written_value(op)  # -16..64: the same 64-bit value in every operand type  [S:literal64]
            return v & M32, M32 if v < 0 else 0
        self.unsupported(f"64-bit operand '{op.text}' (only a register pair or an integer inline constant is emitted)")


# ---------------------------------------------------------------------------
# LLVM IR

_PRED = {"eq": "eq", "ne": "ne", "ult": "ult", "ule": "ule", "slt": "slt", "sle": "sle"}
_PYCMP: dict[str, Callable[[int, int], bool]] = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "ult": lambda a, b: a < b,
          "ule": lambda a, b: a <= b, "slt": lambda a, b: _s32(a) < _s32(b), "sle": lambda a, b: _s32(a) <= _s32(b)}
_MINMAX: dict[str, Callable[[int, int], int]] = {"umin": lambda a, b: min(a, b), "umax": lambda a, b: max(a, b),
           "smin": lambda a, b: a if _s32(a) <= _s32(b) else b, "smax": lambda a, b: a if _s32(a) >= _s32(b) else b}


class LLVMEmitter(Emitter):
    fmt = "LLVM IR"
    multi_output = True

    def __init__(self, low: Lowering, target: Target, wave: int) -> None:
        self.decls: dict[str, str] = {}
        super().__init__(low, target, wave)

    def _param(self, name: str) -> str:
        return "%" + name

    def t(self, v: Val | int) -> str:
        """A value as an operand: 'i32 %x', 'i32 5', 'i1 true'."""
        if isinstance(v, bool):
            return f"i1 {'true' if v else 'false'}"
        if isinstance(v, int):
            return f"i32 {_s32(v)}"
        return f"{v.ty} {v.text}"

    def new(self, rhs: str, ty: str = "i32", hint: str | None = None, **kw: Any) -> Val:
        name = "%" + self.fresh(hint or (self.ins.operands[0].text if self.ins and self.ins.operands else "t"))
        self.lines.append(f"  {name} = {rhs}")
        return Val(name, ty, **kw)

    def declare(self, name: str, sig: str) -> None:
        self.decls[name] = sig

    def arbitrary(self, key: str, uniform: bool) -> Val:
        # a register nothing wrote: some value, fixed but unknown
        return self.new("freeze i32 poison", hint=f"{key}.entry", uniform=uniform)

    def set_inactive(self, v: Val, key: str) -> Val:
        self.declare("llvm.amdgcn.set.inactive.i32", "declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)")
        return self.new(f"call i32 @llvm.amdgcn.set.inactive.i32({self.t(v)}, i32 0)", hint=f"{key}.wwm")

    def strict_wwm(self, v: Val, key: str) -> Val:
        self.declare("llvm.amdgcn.strict.wwm.i32", "declare i32 @llvm.amdgcn.strict.wwm.i32(i32)")
        return self.new(f"call i32 @llvm.amdgcn.strict.wwm.i32({self.t(v)})", hint=key)

    def _bin(self, op: str, a: Value, b: Value, small: bool = False) -> Val:
        return self.new(f"{op} i32 {self._o(a)}, {self._o(b)}", small=small, uniform=self._uni(a, b))

    def _o(self, v: Val | int) -> str:
        return str(_s32(v)) if isinstance(v, int) and not isinstance(v, bool) else (
            ("true" if v else "false") if isinstance(v, bool) else v.text)

    def _uni(self, *vs: Value) -> bool:
        return all(not isinstance(v, Val) or v.uniform for v in vs)

    def _minmax(self, op: str, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return _MINMAX[op](a, b)
        self.declare(f"llvm.{op}.i32", f"declare i32 @llvm.{op}.i32(i32, i32)")
        return self.new(f"call i32 @llvm.{op}.i32({self.t(a)}, {self.t(b)})", uniform=self._uni(a, b))

    def _cmp(self, op: str, a: Value, b: Value) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            return _PYCMP[op](a, b)
        return self.new(f"icmp {_PRED[op]} i32 {self._o(a)}, {self._o(b)}", "i1", hint="cond", uniform=self._uni(a, b))

    def ite(self, c: Cond, a: Value, b: Value) -> Value:
        if isinstance(c, bool):
            return a if c else b
        return self.new(f"select i1 {c.text}, {self.t(a)}, {self.t(b)}", uniform=self._uni(c, a, b))

    def _logic(self, op: str, a: Cond, b: Cond) -> Val:
        return self.new(f"{op} i1 {self._o(a)}, {self._o(b)}", "i1", hint="cond", uniform=self._uni(a, b))

    def lane_bit(self, mask: int) -> Val:
        ty = f"i{self.wave}"
        name = f"llvm.amdgcn.inverse.ballot.{ty}"
        self.declare(name, f"declare i1 @{name}({ty})")
        v = mask if mask < 1 << (self.wave - 1) else mask - (1 << self.wave)
        return self.new(f"call i1 @{name}({ty} {v})", "i1", hint="written")

    def _float(self, op: str, a: Value, b: Value) -> Val:
        """binary32 on the i32 bits: fadd, or llvm.minimumnum/maximumnum
        (-0 below +0, a NaN loses), as the f32 semantics say ([S:f32])."""
        fa, fb = (self.new(f"bitcast {self.t(x)} to float", hint="f") for x in (a, b))
        if op == "fadd":
            r = self.new(f"fadd float {fa.text}, {fb.text}", hint="f")
        else:
            self.declare(f"llvm.{op}.f32", f"declare float @llvm.{op}.f32(float, float)")
            r = self.new(f"call float @llvm.{op}.f32(float {fa.text}, float {fb.text})", hint="f")
        return self.new(f"bitcast float {r.text} to i32")

    def fcmp(self, pred: str, a: Value, b: Value) -> Cond:
        if pred in ("false", "true"):
            return pred == "true"
        fa, fb = (self.new(f"bitcast {self.t(x)} to float", hint="f") for x in (a, b))
        return self.new(f"fcmp {pred} float {fa.text}, {fb.text}", "i1", hint="cond", uniform=self._uni(a, b))

    def entry_select(self, active: Value, inactive: Value) -> Val:
        """The value of `active` in the lanes EXEC had on entry to
        whole-wave mode, `inactive` in the others."""
        self.declare("llvm.amdgcn.set.inactive.i32", "declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)")
        return self.new(f"call i32 @llvm.amdgcn.set.inactive.i32({self.t(active)}, {self.t(inactive)})")

    def call(self, name: str, hip: str | None, args: list[Any], imm: tuple[int, ...] = (), ret: str = "i32",
             uniform: bool = False, hint: str | None = None) -> Val:
        """`name` is the LLVM intrinsic; arguments are ints, bools or Vals;
        positions in `imm` are immediate (immarg) operands."""
        sig = ", ".join(("i1" if isinstance(a, bool) else "i32" if isinstance(a, int) else a.ty)
                        + (" immarg" if k in imm else "") for k, a in enumerate(args))
        rty = "{i32, i32}" if ret == "pair" else ret
        self.declare(name, f"declare {rty} @{name}({sig})")
        return self.new(f"call {rty} @{name}({', '.join(self.t(a) for a in args)})", ret, uniform=uniform, hint=hint)

    def part(self, pair: Val, k: int, hint: str) -> Val:
        return self.new(f"extractvalue {{i32, i32}} {pair.text}, {k}", hint=hint)

    def half64(self, v: Val, high: bool, key: str) -> Val:
        if high:
            v = self.new(f"lshr i64 {v.text}, 32", "i64", hint=f"{key}.sh", uniform=True)
        return self.new(f"trunc i64 {v.text} to i32", hint=key, uniform=True)

    def split64(self, param: str, name: str) -> tuple[Val, Val]:
        lo = self.new(f"trunc i64 {param} to i32", hint=f"{name}.lo")
        sh = self.new(f"lshr i64 {param}, 32", "i64", hint=f"{name}.sh")
        return lo, self.new(f"trunc i64 {sh.text} to i32", hint=f"{name}.hi")

    def join64(self, lo: Value, hi: Value) -> Val:
        zl = self.new(f"zext {self.t(lo)} to i64", "i64", hint="out.lo")
        zh = self.new(f"zext {self.t(hi)} to i64", "i64", hint="out.hi")
        sh = self.new(f"shl i64 {zh.text}, 32", "i64", hint="out.sh")
        return self.new(f"or i64 {sh.text}, {zl.text}", "i64", hint="out")

    # ---- the module ---------------------------------------------------------
    def function(self, name: str) -> list[str]:
        params = ", ".join(f"{'i64' if p in self.wide_params else 'i32'} %{p}" for p, _ in self.inputs)
        if self.results:  # several outputs: a struct of i32, in the spec's order
            rty = "{" + ", ".join(["i32"] * len(self.results)) + "}"
            agg = "poison"
            for k, v in enumerate(self.results):
                agg = self.new(f"insertvalue {rty} {agg}, {self.t(v)}, {k}", rty, hint="out").text
            return [f"define {rty} @{name}({params}) #0 {{", "entry:", *self.lines, f"  ret {rty} {agg}", "}"]
        rty = self.result.ty if isinstance(self.result, Val) and self.result.ty == "i64" else "i32"
        return [f"define {rty} @{name}({params}) #0 {{", "entry:", *self.lines,
                f"  ret {self.t(self.result)}", "}"]

    def attributes(self, extra: str = "") -> str:
        feats = f"+wavefrontsize{self.wave}"
        return (f'attributes #0 = {{ {extra}convergent nounwind "target-cpu"="{self.target.llvm_cpu}" '
                f'"target-features"="{feats}" }}')


# ---------------------------------------------------------------------------
# HIP

_C_OP = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^", "shl": "<<", "lshr": ">>"}
_C_CMP = {"eq": "==", "ne": "!=", "ult": "<", "ule": "<=", "slt": "<", "sle": "<="}


class HIPEmitter(Emitter):
    fmt = "HIP"

    def _param(self, name: str) -> str:
        return name

    def c(self, v: Val | int) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return f"{v:#x}u" if v > 9 else f"{v}u"
        return v.text

    def new(self, expr: str, ty: str = "i32", hint: str | None = None, **kw: Any) -> Val:
        name = self.fresh(hint or (self.ins.operands[0].text if self.ins and self.ins.operands else "t"))
        cty = {"i32": "unsigned", "i1": "bool", "pair": "auto", "i64": "unsigned long long"}[ty]
        self.lines.append(f"    {cty} {name} = {expr};")
        return Val(name, ty, **kw)

    def arbitrary(self, key: str, uniform: bool) -> Val:
        return self.new("__builtin_nondeterministic_value(0u)", hint=f"{key}_entry", uniform=uniform)

    def set_inactive(self, v: Val | None, key: str) -> Val:
        self.unsupported("whole-wave mode has no HIP builtin (use --format llvm: llvm.amdgcn.set.inactive and "
                         "llvm.amdgcn.strict.wwm)")

    strict_wwm = set_inactive

    def begin_wwm(self, save: SReg) -> None:
        self.set_inactive(None, "")

    def _bin(self, op: str, a: Value, b: Value, small: bool = False) -> Val:
        return self.new(f"{self.c(a)} {_C_OP[op]} {self.c(b)}" if op != "ashr"
                        else f"(unsigned)((int){self.c(a)} >> {self.c(b)})", small=small)

    def _minmax(self, op: str, a: Value, b: Value) -> Value:
        if isinstance(a, int) and isinstance(b, int):
            return _MINMAX[op](a, b)
        cast = "(int)" if op[0] == "s" else ""
        cmp = "<" if op[1:] == "min" else ">"
        return self.new(f"{cast}{self.c(a)} {cmp} {cast}{self.c(b)} ? {self.c(a)} : {self.c(b)}")

    def _cmp(self, op: str, a: Value, b: Value) -> Cond:
        if isinstance(a, int) and isinstance(b, int):
            return _PYCMP[op](a, b)
        cast = "(int)" if op[0] == "s" else ""
        return self.new(f"{cast}{self.c(a)} {_C_CMP[op]} {cast}{self.c(b)}", "i1", hint="cond")

    def ite(self, c: Cond, a: Value, b: Value) -> Value:
        if isinstance(c, bool):
            return a if c else b
        return self.new(f"{c.text} ? {self.c(a)} : {self.c(b)}")

    def _logic(self, op: str, a: Cond, b: Cond) -> Val:
        if op == "xor":
            return self.new(f"!{self.c(a)}", "i1", hint="cond")
        return self.new(f"{self.c(a)} {'&&' if op == 'and' else '||'} {self.c(b)}", "i1", hint="cond")

    def _float(self, op: str, a: Value, b: Value) -> Val:
        if op != "fadd":
            self.unsupported("f32 min/max have no HIP spelling here (use --format llvm)")
        return self.new(f"__builtin_bit_cast(unsigned, __builtin_bit_cast(float, {self.c(a)}) + "
                        f"__builtin_bit_cast(float, {self.c(b)}))")

    def fcmp(self, pred: str, a: Value, b: Value) -> Cond:
        if pred in ("false", "true"):
            return pred == "true"
        x, y = (f"__builtin_bit_cast(float, {self.c(v)})" for v in (a, b))
        # C's <, <=, >, >=, == are false on a NaN (ordered), != true (unordered)
        ordered = {"oeq": f"{x} == {y}", "one": f"({x} < {y} || {x} > {y})", "olt": f"{x} < {y}",
                   "ole": f"{x} <= {y}", "ogt": f"{x} > {y}", "oge": f"{x} >= {y}", "ord": f"({x} == {x} && {y} == {y})"}
        unordered = {"une": "oeq", "ueq": "one", "uge": "olt", "ugt": "ole", "ule": "ogt", "ult": "oge", "uno": "ord"}
        text = ordered[pred] if pred in ordered else f"!({ordered[unordered[pred]]})"
        return self.new(text, "i1", hint="cond")

    def call(self, name: str, hip: str | None, args: list[Any], imm: tuple[int, ...] = (), ret: str = "i32",
             uniform: bool = False, hint: str | None = None) -> Val:
        if hip is None:
            self.unsupported(f"{name} has no clang builtin")
        return self.new(f"{hip}({', '.join(self.c(a) for a in args)})", ret, uniform=uniform, hint=hint)

    def part(self, pair: Val, k: int, hint: str) -> Val:
        return self.new(f"{pair.text}[{k}]", hint=hint)

    def half64(self, v: Val, high: bool, key: str) -> Val:
        return self.new(f"(unsigned)({v.text} >> 32)" if high else f"(unsigned){v.text}", hint=key, uniform=True)

    def split64(self, param: str, name: str) -> tuple[Val, Val]:
        return self.new(f"(unsigned){param}", hint=f"{name}_lo"), self.new(f"(unsigned)({param} >> 32)", hint=f"{name}_hi")

    def join64(self, lo: Value, hi: Value) -> Val:
        return Val(f"((unsigned long long){self.c(hi)} << 32 | {self.c(lo)})", "i64")

    def function(self, name: str) -> list[str]:
        params = ", ".join(f"{'unsigned long long' if p in self.wide_params else 'unsigned'} {p}" for p, _ in self.inputs)
        rty = "unsigned long long" if isinstance(self.result, Val) and self.result.ty == "i64" else "unsigned"
        return [f"__device__ inline {rty} {name}({params}) {{", *self.lines, f"    return {self.c(self.result)};",
                "}"]


# ---------------------------------------------------------------------------
# the formats


def _ident(name: str) -> str:
    return re.sub(r"\W", "_", name)


def llvm_ir(low: Lowering, target: Target, wave: int, header: list[str]) -> str:
    e = LLVMEmitter(low, target, wave)
    e.run()
    out = [f"; {h}" for h in header] + ['target triple = "amdgcn-amd-amdhsa"', ""]
    out += e.function(_ident(low.name)) + [""]
    out += [e.decls[k] for k in sorted(e.decls)] + [""]
    out.append(e.attributes("alwaysinline "))
    return "\n".join(out) + "\n"


def hip(low: Lowering, target: Target, wave: int, header: list[str]) -> str:
    e = HIPEmitter(low, target, wave)
    e.run()
    out = [f"// {h}" for h in header]
    out += [f"// Compile for --offload-arch={target.llvm_cpu}"
            + (" with -mwavefrontsize64" if wave == 64 and target.has("wave32") else "")
            + (" (wave32 is the default there)" if wave == 32 else ""), "#include <hip/hip_runtime.h>", ""]
    out += e.function(_ident(low.name))
    return "\n".join(out) + "\n"


def asm(low: Lowering, target: Target, wave: int, header: list[str]) -> str:
    """The lowering itself, printed canonically for the target: a lowering
    file that verify and llvm-mc both read."""
    def binds(bs: list[Binding]) -> str:
        return ", ".join(f"{b.name} = {operand_text(b.reg)}" for b in bs)

    out = [f"; {h}" for h in header] + [
        ";",
        f"; @spec     {spec_call(low)}",
        f"; @targets  {target.name}",
        f"; @waves    {wave}",
        f"; @exec     {low.exec_contract}",
    ]
    if low.inputs:
        out.append(f"; @input    {binds(low.inputs)}")
    out.append(f"; @output   {binds(low.outputs)}")
    if low.clobbers:
        out.append(f"; @clobbers {', '.join(operand_text(c) for c in low.clobbers)}")
    out += [print_instr(ins, target) for ins in low.program]
    return "\n".join(out) + "\n"


FORMATS: dict[str, Callable[[Lowering, Target, int, list[str]], str]] = {"llvm": llvm_ir, "hip": hip, "asm": asm}


def same_program(text: str, low: Lowering, target: Target) -> str | None:
    """None if the emitted assembly reads back as the proved lowering (for
    `target`), else what differs."""
    back = load_lowering("<emitted>", text)
    a = [print_instr(i, target) for i in low.program]
    b = [print_instr(i, target) for i in back.program]
    if a != b:
        k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        return f"instruction {k + 1}"
    head = [ln for ln in canonical_lowering(low).splitlines() if not ln.startswith(("v_", "s_", "ds_"))]
    head2 = [ln for ln in canonical_lowering(back).splitlines() if not ln.startswith(("v_", "s_", "ds_"))]
    return None if head == head2 else "the header"


# ---------------------------------------------------------------------------
# LLVM: compile, and prove the compiled code again

ENTRY = "__verify_entry"


def check_module(ir: str, low: Lowering) -> str:
    """The emitted IR as a compute-shader entry point that calls (and, at
    -O2, inlines) the emitted function: inputs arrive in v0, v1, ... and the
    result leaves in v0, with no callee-saved register spills around it, and
    LLVM must still assume any EXEC at entry (a partial wave).  The amdpal
    triple is the one that accepts shader entry points."""
    name = _ident(low.name)
    wide = is_wide(low)

    def ty(b: Binding) -> str:
        return "i64" if wide and isinstance(b.reg, VReg) and b.reg.count == 2 else "i32"

    params = ", ".join(f"{ty(b)} %{b.name}" for b in low.inputs)
    text = ir.replace('target triple = "amdgcn-amd-amdhsa"', 'target triple = "amdgcn-amd-amdpal"')
    if len(low.outputs) > 1:  # a struct of i32: the outputs in v0, v1, ... in the spec's order
        n = len(low.outputs)
        sty = "{" + ", ".join(["i32"] * n) + "}"
        body = [f"  %r = call {sty} @{_ident(low.name)}({params})"]
        vec = "poison"
        for k in range(n):
            body += [f"  %r{k} = extractvalue {sty} %r, {k}", f"  %f{k} = bitcast i32 %r{k} to float",
                     f"  %v{k} = insertelement <{n} x float> {vec}, float %f{k}, i32 {k}"]
            vec = f"%v{k}"
        return text + "\n".join(["", f"define amdgpu_cs <{n} x float> @{ENTRY}({params}) #0 {{", *body,
                                  f"  ret <{n} x float> {vec}", "}"]) + "\n"
    rty = ty(low.outputs[0]) if low.outputs else "i32"
    ret = ["  %f = bitcast i32 %r to float", "  ret float %f"] if rty == "i32" else [
        "  %f = bitcast i64 %r to <2 x float>", "  ret <2 x float> %f"]  # the result in v0, v1
    return text + "\n".join([
        "",
        f"define amdgpu_cs {'float' if rty == 'i32' else '<2 x float>'} @{ENTRY}({params}) #0 {{",
        f"  %r = call {rty} @{name}({params})",
        *ret,
        "}",
    ]) + "\n"


def is_wide(low: Lowering) -> bool:
    """Whether the lowering's spec has 64-bit lanes (u64/i64).  [S:wide64]"""
    return catalog.speclib().get(low.spec, low.spans.get("spec")).value_type in WIDE_TYPES


def compile_ir(ir: str, target: Target, wave: int) -> str:
    """AMDGPU assembly for the module, at -O2, through llvmlite's LLVM."""
    try:
        import llvmlite.binding as llvm  # a test dependency, loaded by emission alone (test_imports)
    except ImportError:  # pragma: no cover - llvmlite is a test dependency
        raise InputError(None, "compiling LLVM IR needs llvmlite (pip install llvmlite)") from None
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    triple = "amdgcn-amd-amdpal" if "amdgcn-amd-amdpal" in ir else "amdgcn-amd-amdhsa"
    try:
        mod = llvm.parse_assembly(ir)
        mod.verify()
    except RuntimeError as e:
        raise InputError(None, f"LLVM rejects the emitted IR: {str(e).strip().splitlines()[0]}") from None
    tm = llvm.Target.from_triple(triple).create_target_machine(
        cpu=target.llvm_cpu, features=f"+wavefrontsize{wave}", opt=2)
    pto = llvm.create_pipeline_tuning_options(speed_level=2)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    asm_text: str = tm.emit_assembly(mod)  # (llvmlite is untyped)
    return asm_text


def split_vopd(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """GFX11+ dual issue (``v_dual_X ... :: v_dual_Y ...``) as two plain
    VOP2/VOP1 lines.  Both halves read their sources before either writes;
    LLVM pairs only independent instructions, and the order is chosen so that
    neither reads what the other writes (else an error).

    >>> split_vopd([(3, "v_dual_mov_b32 v2, 0 :: v_dual_cndmask_b32 v3, v1, v4")])
    [(3, 'v_mov_b32_e32 v2, 0'), (3, 'v_cndmask_b32_e32 v3, v1, v4, vcc_lo')]
    """
    out: list[tuple[int, str]] = []
    for n, text in lines:
        body = strip_comment(text)
        if "::" not in body:
            out.append((n, text))
            continue
        halves = []
        for h in body.split("::"):
            mn, _, ops = h.strip().partition(" ")
            if not mn.startswith("v_dual_"):
                raise InputError(Span("<llvm>", n, 1), f"cannot read the dual-issue line '{body.strip()}'")
            base = "v_" + mn[len("v_dual_"):]
            halves.append(f"{base}_e32 {ops.strip()}" + (", vcc_lo" if base == "v_cndmask_b32" else ""))
        x, y = (parse_instr(h, Span("<llvm>", n, 1)) for h in halves)
        dx, dy = set(OPS[x.base].defs(x)), set(OPS[y.base].defs(y))
        ux, uy = set(OPS[x.base].uses(x)), set(OPS[y.base].uses(y))
        if not dx & uy:
            out += [(n, halves[0]), (n, halves[1])]
        elif not dy & ux:
            out += [(n, halves[1]), (n, halves[0])]
        else:
            raise InputError(Span("<llvm>", n, 1), f"the halves of '{body.strip()}' depend on each other")
    return out


def compiled_lowering(asm_text: str, low: Lowering, target: Target, wave: int, path: str = "<llvm>") -> Lowering:
    """The compiled entry point as a lowering, through `verify asm`'s reader
    (verify/asmcheck.py): the whole function body is the region, and the
    assertion is the lowering's spec with its inputs in v0, v1, ... (the
    calling convention) and the result in v0.  Dual-issue lines are split
    first (asmcheck would take them as unmodelled); an instruction verify does
    not model is an error rather than an unknown value.  Unlike a `verify asm`
    region, the compiled code must also restore EXEC."""
    text = "\n".join(t for _, t in split_vopd(list(enumerate(asm_text.splitlines(), 1))))
    lines = asmcheck.function_lines(asmcheck.read(path, text), ENTRY, path)
    instrs = [ln for ln in lines if ln.kind == "instr"]
    if not instrs:
        raise InputError(None, f"no instructions in the compiled {ENTRY}")
    region = asmcheck.select_region(path, lines, (instrs[0].lineno, instrs[-1].lineno), ENTRY)
    if region.opaque:
        names = sorted({i.mnemonic for i in region.opaque})
        raise InputError(None, f"LLVM's code uses instructions verify does not model: {', '.join(names)}")
    spec = catalog.speclib().get(low.spec, low.spans.get("spec"))
    wide = is_wide(low)
    reg: dict[str, VReg] = {}
    k = 0
    for b in low.inputs:  # the calling convention: v0, v1, ...; a 64-bit input takes two
        n = 2 if wide and isinstance(b.reg, VReg) and b.reg.count == 2 else 1
        reg[b.name] = VReg(k, n)
        k += n
    # the outputs: v0 (a 64-bit one: v[0:1]); several: v0, v1, ... in the spec's order
    more: list[VReg | SReg] = [VReg(k) for k in range(1, len(low.outputs))]
    # a per-lane parameter is the input it names, also where the spec's default names it (cuda.fns's @base)
    params = {**{k: v for k, v in spec.defaults.items() if isinstance(v, str) and v.startswith("@")}, **low.params}
    a = asmcheck.Assertion(f"v0 == {low.spec}(...)", "spec", VReg(0, 2 if wide else 1), low.spec, more=more,
                           params={k: v for k, v in low.params.items() if not (isinstance(v, str) and v.startswith("@"))},
                           args=[reg[n] for n in spec.inputs],
                           reg_params={k: reg[v[1:]] for k, v in params.items()
                                       if isinstance(v, str) and v.startswith("@")})
    clow = asmcheck.lowering_for(region, a, low.exec_contract)
    clow.check_exec = True
    clow.name = low.name + " (compiled)"
    # an entry point (amdgpu_cs): no SGPR pair tracked at its start  [S:hazards]
    # (the region is the whole body: nothing runs before it)
    clow.hazard_entry = "kernel"
    return clow


@dataclass
class Reverified:
    verdict: str
    asm: str  # the compiled assembly (whole module)
    body: list[str] = field(default_factory=list)  # the instructions proved
    detail: str = ""


def reverify(ir: str, low: Lowering, target: Target, wave: int, timeout: float = 30.0) -> Reverified:
    """Compile `ir` for the target and prove the compiled code against the
    lowering's spec for (target, wave)."""
    asm_text = compile_ir(check_module(ir, low), target, wave)
    try:
        clow = compiled_lowering(asm_text, low, target, wave)
        (res,) = check_lowering(clow, [target], [wave], timeout)
    except InputError as e:
        return Reverified("error", asm_text, [], f"the compiled code cannot be checked: {e.message}")
    body = [i.text for i in clow.program]
    bad = [f"{o.name}: {o.verdict}" for o in res.obligations if o.verdict != "proved"]
    return Reverified(res.verdict, asm_text, body, "; ".join(bad))


def emit(low: Lowering, target: Target, wave: int, fmt: str, header: list[str]) -> str:
    return FORMATS[fmt](low, target, wave, header)


def default_output(low: Lowering, target: Target, wave: int, fmt: str) -> str:
    ext = {"llvm": ".ll", "hip": ".hip", "asm": ".s"}[fmt]
    return str(Path(f"{low.name}.{target.name}.w{wave}{ext}"))


def selfcheck(path: str, timeout: float = 30.0, prove: set[tuple[str, int]] | None = None) -> tuple[int, list[str]]:
    """Emit one lowering as LLVM IR for every (target, wave) it declares,
    compile each, and prove the compiled code; targets whose compiled
    programs are the same share a proof (with `prove`, only the programs of
    those (target, wave) instantiations are proved: every instantiation is
    still emitted and compiled).  Returns (instantiations, problems).
    No proof record is consulted: this checks emission itself (the tests and
    benchmarks/bench_check.py run it over the catalogue)."""
    low = load_lowering(path)
    groups: dict[tuple[int, tuple[str, ...]], list[tuple[Target, Lowering]]] = {}
    problems: list[str] = []
    insts = instantiations(low)
    for t, w in insts:
        tgt = T.get(t)
        try:
            ir = llvm_ir(low, tgt, w, [])
            clow = compiled_lowering(compile_ir(check_module(ir, low), tgt, w), low, tgt, w)
        except InputError as e:
            problems.append(f"{low.name} {t} wave{w}: {e}")
            continue
        groups.setdefault((w, tuple(i.text.strip() for i in clow.program)), []).append((tgt, clow))
    for (w, _), items in groups.items():
        if prove is not None and not any((t.name, w) in prove for t, _ in items):
            continue
        for r in check_lowering(items[0][1], [t for t, _ in items], [w], timeout):
            if r.verdict != "proved":
                problems.append(f"{low.name} {r.target} wave{w}: the compiled code is {r.verdict}")
    return len(insts), problems


# ---------------------------------------------------------------------------
# `verify emit`: only what a current proof record proves, proved again


@dataclass
class Emitted:
    text: str
    note: str = ""  # what was re-verified (LLVM IR, HIP), for the user


@dataclass
class Refusal:
    what: str  # "<lowering> for <target> wave<W>"
    reason: str

    def __str__(self) -> str:
        return f"refusing to emit {self.what}: {self.reason}"


def refusal(low: Lowering, t: T.Target, wave: int) -> str | None:
    """Why `low` may not be emitted for (t, wave), or None if a current
    record proves it."""
    if (t.name, wave) not in instantiations(low):
        return (f"{low.name} does not declare {t.name} wave{wave} (targets: {', '.join(low.targets)}; "
                f"waves: {', '.join(map(str, low.waves))}), so nothing proves it there")
    try:
        state, rf, rec = proofs.current_proof(low, t.name, wave)
    except InputError as e:
        if e.span is not None:
            raise
        return f"it has no proof record: {e.message}"
    rf, lp = catalog.display_path(rf), catalog.display_path(low.path)
    if state == "proved":
        return None
    if state == "missing":
        return f"there is no proof record for {t.name} wave{wave} in {rf}; run: verify prove {lp}"
    if state.startswith("stale"):
        return f"its proof record in {rf} is {state}; run: verify prove {lp}"
    assert rec is not None  # only a missing record comes without one
    failing = ", ".join(o["name"] for o in rec["obligations"] if o["verdict"] != "proved")
    return f"it is {state} for {t.name} wave{wave} ({rf}: {failing})"


def emit_checked(low: Lowering, target: T.Target, wave: int, fmt: str, timeout: float = 30.0) -> Emitted | Refusal:
    """`low` as `fmt` for (target, wave), if a current proof record says it
    is proved there, proving it again (the record is a file anyone can edit),
    and checking the output: LLVM IR and HIP are compiled and the compiled
    code proved again; assembly must read back as the proved program."""
    what = f"{low.name} for {target.name} wave{wave}"
    why = refusal(low, target, wave)
    if why:
        return Refusal(what, why)
    again, _ = prove_one(low, target, wave, timeout)
    if again.verdict != "proved":
        return Refusal(what, f"it is {again.verdict} there now, although its proof record says proved (the record "
                             f"is wrong; run: verify prove --force {catalog.display_path(low.path)})")
    h = proofs.hashes(low)
    header = [f"{low.name}: {spec_call(low)} for {target.name} wave{wave} under exec={low.exec_contract}",
              f"proved: {catalog.display_path(proofs.record_file(Path(low.path)))} (lowering {h['lowering']}, "
              f"spec {h['spec']}, checker {revisions.current()['core']}, {h['solver']}); emitted by verify emit"]
    text = emit(low, target, wave, fmt, header)
    if fmt not in ("llvm", "hip"):
        back = same_program(text, low, target)
        if back:
            return Refusal(what, f"the printed assembly differs from the proved program ({back})")
        return Emitted(text)
    ir = text if fmt == "llvm" else emit(low, target, wave, "llvm", header)
    rv = reverify(ir, low, target, wave, timeout)
    if rv.verdict != "proved":
        detail = rv.detail if rv.verdict == "error" else f"the code LLVM makes is {rv.verdict} ({rv.detail})"
        return Refusal(what, f"the lowering is proved, but LLVM changed the meaning: {detail}")
    return Emitted(text, f"the code LLVM makes from this {'IR' if fmt == 'llvm' else 'HIP (as LLVM IR)'} for "
                         f"{target.name} wave{wave} ({len(rv.body)} instructions) is proved to refine {spec_call(low)}")
