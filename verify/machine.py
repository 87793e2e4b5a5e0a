"""Wave state and program execution, generic over the backend.

State: W lanes; VGPRs hold W 32-bit lane values; SGPRs hold 32-bit values
(pairs are two SGPRs, low first); EXEC and VCC are the pairs
``exec_lo/exec_hi`` and ``vcc_lo/vcc_hi``; SCC is a condition.  In wave32
only ``exec_lo`` / ``vcc_lo`` carry lane bits.  [S:wave-state]

A register that is read before anything wrote it gets its value from the
``initial`` provider (fresh unknowns for proofs, chosen values for
simulation) and is recorded in :attr:`Machine.inputs_read`, so nothing is
read out of thin air.

>>> from verify.backend import Concrete
>>> m = Machine(Concrete(), 8, initial=lambda kind, name, lane: 0)
>>> m.set_exec_mask(0b1011)
>>> [m.active(i) for i in range(4)]
[True, True, False, True]
>>> m.write_v(1, [10 + i for i in range(8)], [m.active(i) for i in range(8)])
>>> m.v(1)
[10, 11, 0, 13, 0, 0, 0, 0]
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import hazards as hz
from .assume import ASSUMPTIONS
from .backend import Backend, Concrete, Cond, Value
from .diag import InputError
from .ir import Imm, Instr, SReg, VReg
from .lanes import OUT_OF_RANGE, Read
from .ops.base import expand_b64, literal64_is_negative, op_of
from .target import FeatureLog
from .waits import Outstanding, lgkm_kind

# initial(kind, name, lane) -> value; kind is "v" (lane given) or "s" (lane None)
Initial = Callable[[str, str, "int | None"], Any]


@dataclass
class LaneEvent:
    """What one instruction did to one lane of its destination (tracing)."""

    status: str  # "written", "kept", "zero"
    src: tuple[str, int] | None = None  # (register, lane) the value came from
    why: str = ""




@dataclass
class Step:
    index: int
    instr: Instr
    # (register, lane) -> event; lane is None for a scalar register
    events: dict[tuple[str, int | None], LaneEvent] = field(default_factory=dict)
    pending: dict[int, LaneEvent] = field(default_factory=dict)
    # VGPRs this instruction read before a DS result for them returned -> that DS line
    stale: dict[str, int] = field(default_factory=dict)
    # registers this instruction read inside a hazard window -> the explanation
    hazard: dict[str, str] = field(default_factory=dict)


class _LazyScc:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class Machine:
    def __init__(
        self,
        B: Backend,
        wave: int,
        initial: Initial,
        target: FeatureLog | None = None,
        assumptions: dict[str, str] | None = None,
        trace: bool = False,
        waits: bool = True,
        hazards: bool = True,
    ) -> None:
        self.B = B
        self.W = wave
        self.initial = initial
        self.target = target
        self.vregs: dict[int, list[Value]] = {}
        self.sregs: dict[str, Any] = {}
        self._scc: Any = None
        self.inputs_read: list[str] = []
        self._assume = assumptions if assumptions is not None else {}
        self.assumptions_used: dict[str, str] = {}
        self.trace: list[Step] | None = [] if trace else None
        self.step: Step | None = None
        # DS results not yet covered by a wait (None: not tracked, as in the
        # synthesiser's single-component runs)  [S:waitcnt]
        self.waits = Outstanding() if waits else None
        self.line: int | None = None
        self.cur: Instr | None = None
        # registers the current instruction reads inside a hazard window (they
        # read as unknown), and those it has read so far  [S:hazards]
        # (hazards=False: instruction semantics without timing, as published
        # lane tables show them)
        self.hazards_on = hazards
        # "kernel": the program starts at a kernel's entry (hazards.window)
        self.hazard_entry = "fragment"
        self.hazard: dict[str, hz.Finding] = {}
        self.hazard_read: set[str] = set()
        # a caller that runs its code one instruction at a time (verify tv)
        # keeps here the instructions before, one list per path that reaches
        # the next (see `ran`), so that the hazard windows see them; None:
        # the windows see the program given to `run`
        self.context: list[list[Instr]] | None = None
        # where each context path starts, for the GFX12 SGPR hazards: "kernel"
        # (a kernel's entry), "fragment", or the tracked state at that block's
        # start (hazards.sgpr_block_states); None: hazard_entry for every path
        self.context_entry: list[Any] | None = None
        # _window's findings per (the path's instructions as a node of _trie, its entry)
        self._windows: dict[tuple[Any, ...], tuple[Any, dict[str, hz.Finding]]] = {}
        # (a node, id(instruction)) -> (the node of that sequence one instruction longer, the
        # instruction, kept alive so that its id stays its own); node 0 is the empty sequence:
        # two sequences of the very same instructions are one node, made one instruction at a time
        self._trie: dict[tuple[int, int], tuple[int, Instr]] = {}
        # id(context path) -> (the path, its length then, the sequence the last window saw after
        # it, their nodes): the path grows by what ran (`ran`), so the next window's sequence is that one grown
        self._paths: dict[int, tuple[list[Instr], int, list[Instr], list[int]]] = {}
        # the ops executed (registry names), as FeatureLog records the
        # features consulted: a proof record depends on these
        self.ops_run: set[str] = set()

    # ---- SCC ----------------------------------------------------------
    @property
    def scc(self) -> Any:
        v = self._scc
        if type(v) is _LazyScc:
            v = self._scc = v.make()
        return v

    @scc.setter
    def scc(self, value: Any) -> None:
        self._scc = value

    def set_scc_from(self, make: Callable[[], Any]) -> None:
        """SCC := make(), made when first read: an SCC the next SALU
        instruction overwrites (a loop's running sum) is never built.  The
        concrete backend makes it at once (a thunk costs more than a bit)."""
        self._scc = _LazyScc(make) if self.B.symbolic else make()

    # ---- assumptions --------------------------------------------------
    def assume(self, name: str) -> str:
        a = ASSUMPTIONS[name]
        v = self._assume.get(name, a.default)
        self.assumptions_used[name] = v
        return v

    def has(self, feature: str) -> bool:
        if self.target is None:
            raise InputError(None, "this instruction needs a target (--target)")
        return self.target.has(feature)

    # ---- registers ----------------------------------------------------
    def v(self, n: int) -> list[Value]:
        h = self.hazard.get(f"v{n}")
        if h is not None:  # read inside a hazard window: unknown  [S:hazards]
            self._hazard_note(h)
            return self._unknown_v(n, f"v{n}@{self.line}(hazard after line {h.producer.line})")
        if self.waits is not None:
            line = self.waits.pending(n)
            if line is not None:  # read before the DS result has returned: unknown  [S:waitcnt]
                if self.step is not None:
                    self.step.stale[f"v{n}"] = line
                return self._unknown_v(n, f"v{n}@{self.line}(before the wait for line {line})")
        return self._v(n)

    def unknown_lanes(self, name: str) -> list[Value]:
        """W fresh unknown values, an input named `name` (a counterexample shows it)."""
        return self._unknown_v(None, name)

    def _unknown_v(self, n: int | None, name: str) -> list[Value]:
        if name not in self.inputs_read:
            self.inputs_read.append(name)
        return [self.initial("v", name, i) for i in range(self.W)]

    def _v(self, n: int) -> list[Value]:
        vals = self.vregs.get(n)
        if vals is None:
            name = f"v{n}"
            vals = [self.initial("v", name, i) for i in range(self.W)]
            self.vregs[n] = vals
            self.inputs_read.append(name)
        return vals

    def _hazard_note(self, h: hz.Finding) -> None:
        self.hazard_read.add(h.reg)
        if self.step is not None:
            self.step.hazard.setdefault(h.reg, h.explain())

    def s(self, name: str) -> Value:
        h = self.hazard.get(name)
        if h is not None:  # read inside a hazard window: unknown  [S:hazards]
            self._hazard_note(h)
            uname = f"{name}@{self.line}(hazard after line {h.producer.line})"
            if uname not in self.inputs_read:
                self.inputs_read.append(uname)
            return self.initial("s", uname, None)
        val = self.sregs.get(name)
        if val is None:
            val = self.initial("s", name, None)
            self.sregs[name] = val
            self.inputs_read.append(name)
        return val

    def set_s(self, name: str, val: Value) -> None:
        self.sregs[name] = val
        self.hazard.pop(name, None)  # written by this instruction: later reads see it
        if self.step is not None:
            self.step.events[(name, None)] = LaneEvent("written")

    def write_v(self, n: int, vals: list[Value], enable: list[Cond]) -> None:
        old = self._v(n)
        h = self.hazard.pop(f"v{n}", None)  # written by this instruction: later reads see it
        if h is not None and any(e is not True for e in enable) and self.assume("hazard.kept_lanes") == "unknown":
            # the lanes it does not write, of a destination written inside the window  [S:hazards]
            self._hazard_note(h)
            old = self._unknown_v(n, f"v{n}@{self.line}(hazard after line {h.producer.line})")
        if all(type(e) is bool for e in enable):  # known lanes (a concrete EXEC): no select to build
            self.vregs[n] = [x if e else o for e, x, o in zip(enable, vals, old)]
        else:
            ite = self.B.ite
            self.vregs[n] = [ite(e, x, o) for e, x, o in zip(enable, vals, old)]
        if self.step is not None:
            name = f"v{n}"
            for i, e in enumerate(enable):
                ev = self.step.pending.get(i)
                if ev is None or (ev.status != "kept") != bool(e):
                    ev = LaneEvent("written", why=f"computed by {self.step.instr.mnemonic}") if e else LaneEvent("kept", why="not written")
                self.step.events[(name, i)] = ev
            self.step.pending = {}
        if self.waits is not None and self.waits.pending(n) is not None:
            if self.cur is not None and lgkm_kind(self.cur) == "ds":
                self.waits.forget(n)  # LDS results land in issue order: this one wins
                return
            # overwritten while a DS result for it is in flight: either may land last  [S:waitcnt]
            line = self.waits.pending(n)
            self.waits.forget(n)
            self.vregs[n] = self._unknown_v(n, f"v{n}@{self.line}(races the DS result of line {line})")
            if self.step is not None:
                for i in range(self.W):
                    self.step.events[(f"v{n}", i)] = LaneEvent(
                        "written", why=f"unknown: overwritten while the DS result of line {line} was in flight")

    # ---- operands -----------------------------------------------------
    def read(self, op: VReg | SReg | Imm) -> list[Value]:
        """A VALU source operand as W lane values (scalars broadcast)."""
        if isinstance(op, VReg):
            return self.v(op.index)
        x = self.scalar(op)
        return [x] * self.W

    def scalar(self, op: SReg | Imm) -> Value:
        """A 32-bit scalar operand: an SGPR or an immediate."""
        if isinstance(op, Imm):
            return self.B.const(op.value)
        if isinstance(op, SReg):
            return self.s(op.names[0])
        raise TypeError(op)

    def scalar64(self, op: SReg | Imm) -> tuple[Value, Value]:
        if isinstance(op, Imm):  # inline constants are 64-bit, literals zero-extend  [S:literal64]
            neg = self.assume("literal64.negative") if literal64_is_negative(op) else "zext"
            v = expand_b64(op, neg)
            return self.B.const(v & 0xFFFFFFFF), self.B.const(v >> 32)
        if isinstance(op, SReg):
            if len(op.names) == 1:
                return self.s(op.names[0]), self.B.const(0)
            return self.s(op.names[0]), self.s(op.names[1])
        raise TypeError(op)

    def write_scalar(self, op: SReg, val: Value) -> None:
        self.set_s(op.names[0], val)

    def write_scalar64(self, op: SReg, lo: Value, hi: Value) -> None:
        self.set_s(op.names[0], lo)
        if len(op.names) > 1:
            self.set_s(op.names[1], hi)

    # ---- lane masks -----------------------------------------------------
    def mask_bit(self, lo: Value, hi: Value, lane: int) -> Cond:
        return self.B.bit(lo if lane < 32 else hi, lane & 31)

    def mask_of(self, op: SReg | Imm, lane: int) -> Cond:
        """Bit `lane` of a lane-mask operand (vcc, s[0:1], s0 in wave32)."""
        lo, hi = self.scalar64(op)
        return self.mask_bit(lo, hi, lane)

    def exec_pair(self) -> tuple[Value, Value]:
        lo = self.s("exec_lo")
        hi = self.s("exec_hi") if self.W == 64 else self.B.const(0)
        return lo, hi

    def active(self, lane: int) -> Cond:
        if lane < 32:
            return self.B.bit(self.s("exec_lo"), lane)
        return self.B.bit(self.s("exec_hi"), lane - 32)

    def actives(self) -> list[Cond]:
        if type(self.B) is Concrete:  # one mask read, not one per lane
            m = self.s("exec_lo") | (self.s("exec_hi") << 32 if self.W == 64 else 0)
            return [bool(m >> i & 1) for i in range(self.W)]
        return [self.active(i) for i in range(self.W)]

    def set_exec_mask(self, m: int) -> None:
        self.set_s("exec_lo", m & 0xFFFFFFFF)
        self.set_s("exec_hi", (m >> 32) & 0xFFFFFFFF)

    def from_lane_bits(self, bits: list[Cond]) -> tuple[Value, Value]:
        """W conditions -> (lo, hi) mask values (hi is 0 in wave32)."""
        lo = self.B.from_bits(bits[:32])
        hi = self.B.from_bits(bits[32:]) if self.W == 64 else self.B.const(0)
        return lo, hi

    # ---- gathers ------------------------------------------------------
    def gather(self, dst: VReg | None, src: VReg, reads: Iterable[Read], data: list[Any] | None = None, *,
               zero: str = "reads 0", off: str = "", excluded: str = "") -> tuple[list[Any], list[Any]]:
        """The one cross-lane primitive: lane i of `dst` gets `src` at the
        i-th Read's lane (0 where that read is not valid), written where the
        Read says.  `data` is src's lane values when the caller already read
        them.  Returns (values, enables); writes dst unless it is None (the
        values then feed an ALU op).  `reads` may be a generator: each
        lane's value is built as its Read arrives, interleaved with the
        caller's own work as it always was (the solver sees the same terms
        in the same order).

        The trace notes, in one vocabulary: "lane i inactive"; `excluded`
        (why an enabled-by-EXEC lane is not written, e.g. row/bank masks);
        "<source lane j is inactive | its source lane is out of range>" then
        ": <zero>" when it still writes 0, or " and <off>" when it does not.

        >>> from verify.backend import Concrete
        >>> m = Machine(Concrete(), 4, initial=lambda kind, name, lane: 0)
        >>> m.set_exec_mask(0b0111)
        >>> m.write_v(0, [10, 11, 12, 13], [True] * 4)
        >>> act = m.actives()
        >>> vals, en = m.gather(VReg(1), VReg(0), [Read(j, act[j], act[i]) for i, j in enumerate((3, 0, 1, 2))])
        >>> vals, en, m.v(1)
        ([0, 10, 11, 12], [True, True, True, False], [0, 10, 11, 0])
        """
        B = self.B
        vals = self.v(src.index) if data is None else data
        out: list[Any] = []
        en: list[Any] = []
        seen: list[Read] = []
        if type(B) is Concrete and self.step is None:
            # the same rule on Python values, without a backend call per
            # lane (the synthesiser runs thousands of gathers)
            for r in reads:
                v = bool(r.valid)
                out.append(vals[r.lane] if v and r.lane is not OUT_OF_RANGE else 0)
                en.append(bool(r.writes) and (v or bool(r.zero_fill)))
            if dst is not None:
                self.write_v(dst.index, out, en)
            return out, en
        for r in reads:
            seen.append(r)
            if r.lane is OUT_OF_RANGE:
                out.append(B.const(0))
            else:
                out.append(B.ite(r.valid, B.select(vals, r.lane), B.const(0)))
            en.append(B.and_b(r.writes, B.or_b(r.valid, r.zero_fill)))
        if self.step is not None:
            for i, r in enumerate(seen):
                self._note_read(i, r, en[i], src.text, zero, off, excluded)
        if dst is not None:
            self.write_v(dst.index, out, en)
        return out, en

    def _note_read(self, i: int, r: Read, written: Any, src: str, zero: str, off: str, excluded: str) -> None:
        j = r.lane
        if written and r.valid:
            self.note(i, "written", (src, j) if isinstance(j, int) else None)
            return
        if not written and not self.active(i):
            self.note(i, "kept", why=f"lane {i} inactive")
            return
        if not r.writes:
            self.note(i, "kept", why=excluded.format(i=i))
            return
        cause = "its source lane is out of range" if j is OUT_OF_RANGE else f"source lane {j} is inactive"
        if written:
            self.note(i, "zero", why=f"{cause}: {zero}")
        else:
            self.note(i, "kept", why=f"{cause} and {off}")

    def note_lanes(self, enable: list[Any], why: str = "", src: str | None = None,
                   kept: str = "lane {i} inactive") -> None:
        """Trace notes of a lane-wise write (nothing crosses lanes): each
        enabled lane is written, from lane i of `src` when given, else
        `why`; the others keep their value (`kept`)."""
        if self.step is None:
            return
        for i, e in enumerate(enable):
            if not e:
                self.note(i, "kept", why=kept.format(i=i))
            elif src is not None:
                self.note(i, "written", (src, i))
            else:
                self.note(i, "written", why=why)

    # ---- tracing ------------------------------------------------------
    def note(self, lane: int, status: str, src: tuple[str, int] | None = None, why: str = "") -> None:
        if self.step is not None:
            self.step.pending[lane] = LaneEvent(status, src, why)

    # ---- running ------------------------------------------------------
    def run(self, program: list[Instr], start: int = 0, stop: int | None = None) -> None:
        """Run `program[start:stop]`; hazard windows still see the instructions before `start`."""
        for k in range(start, len(program) if stop is None else stop):
            ins = program[k]
            opdef = op_of(ins.base)
            self.ops_run.add(opdef.base)
            if self.trace is not None:
                self.step = Step(k, ins)
                self.trace.append(self.step)
            self.line, self.cur = ins.line, ins
            # the table of hazards is semantics: what this instruction reads
            # inside a window is unknown (not in the synthesiser's runs of one
            # component, which insert their own waits)  [S:hazards]
            self.hazard = self._window(program, k) if self.hazards_on and self.waits is not None and self.target else {}
            self.hazard = {r: h for r, h in self.hazard.items()
                           if h.rule.assumption is None or self.assume(h.rule.assumption) == "unknown"}
            self.hazard_read = set()
            unread = [h for r, h in self.hazard.items() if r in hz.EXEC]
            opdef.execute(ins, self)
            if unread and not self.hazard_read & hz.EXEC:
                self._hazard_unread(ins, unread[0])
            self.hazard = {}
            if self.waits is not None:
                self.waits.step(ins)
        self.step = None
        self.cur = None

    def _window(self, program: list[Instr], k: int) -> dict[str, hz.Finding]:
        """hazards.window for program[k], after `context` (every path's
        findings: a register in a window on any path reads as unknown)."""
        assert self.target is not None
        if self.context is None:
            return hz.window(program, k, self.target, self.hazard_entry, self.assume, self.W)
        out: dict[str, hz.Finding] = {}
        entries = self.context_entry or [self.hazard_entry] * len(self.context)
        for pre, entry in zip(self.context, entries):
            seq, node = self._sequence(pre, program[:k + 1])
            # the same instructions after the same entry (a loop's next iteration, each path
            # again): the same findings on this machine's target and assumptions, asked once
            key = (node, entry if isinstance(entry, str) else id(entry))
            hit = self._windows.get(key)
            if hit is None or hit[0] is not entry:  # (the entry kept: its id stays its own)
                hit = self._windows[key] = (entry, hz.window(seq, len(seq) - 1, self.target, entry,
                                                             self.assume, self.W))
            for r, h in hit[1].items():
                out.setdefault(r, h)
        return out

    def _sequence(self, pre: list[Instr], tail: list[Instr]) -> tuple[list[Instr], int]:
        """`pre + tail` and its node in `_trie`, in time linear in what is new
        since the last window of path `pre`: `pre` only grows (`ran`), so when
        the last window's sequence, pre as it was then and that window's tail,
        is the start of this one, it is grown in place (hazards' caches key on
        a list's id and length: a list is only ever appended to); else a new list."""
        got = self._paths.get(id(pre))
        n = len(pre)
        if got is not None and got[0] is pre:
            _, m, seq, nodes = got
            if m <= n and (m == 0 or pre[m - 1] is seq[m - 1]) and len(seq) <= n + len(tail) and all(
                    map(operator.is_, seq[m:], itertools.chain(pre[m:n], tail))):  # (seq[j] is (pre + tail)[j], j >= m)
                for j in range(len(seq), n + len(tail)):
                    ins = pre[j] if j < n else tail[j - n]
                    seq.append(ins)
                    nodes.append(self._grow(nodes[-1] if nodes else 0, ins))
                self._paths[id(pre)] = (pre, n, seq, nodes)
                return seq, nodes[-1] if nodes else 0
        seq = pre + tail
        nodes = []
        for ins in seq:
            nodes.append(self._grow(nodes[-1] if nodes else 0, ins))
        self._paths[id(pre)] = (pre, n, seq, nodes)
        return seq, nodes[-1] if nodes else 0

    def _grow(self, node: int, ins: Instr) -> int:
        """The node of the sequence of `node` followed by `ins`."""
        hit = self._trie.get((node, id(ins)))
        if hit is None:
            hit = self._trie[(node, id(ins))] = (len(self._trie) + 1, ins)
        return hit[0]

    def ran(self, ins: Instr) -> None:
        """`ins` has run, whether through `run` or beside the machine (a
        memory instruction verify tv models itself): later windows count it."""
        if self.context is not None:
            for pre in self.context:
                pre.append(ins)

    def _hazard_unread(self, ins: Instr, h: hz.Finding) -> None:
        """An instruction in an EXEC hazard window whose semantics do not read
        EXEC (v_readlane after a VALU EXEC write on gfx94x): what it writes is
        unknown, every lane of it, since how a wrong EXEC disturbs it is not
        known.  [S:hazards]"""
        why = h.explain()
        if self.step is not None:
            self.step.hazard.setdefault(h.reg, why)
        for r in op_of(ins.base).defs(ins):
            name = f"{r}@{ins.line}(hazard after line {h.producer.line})"
            if r.startswith("v") and r[1:].isdigit():
                self.vregs[int(r[1:])] = self._unknown_v(int(r[1:]), name)
                if self.step is not None:
                    for i in range(self.W):
                        self.step.events[(r, i)] = LaneEvent("written", why=f"unknown: {why}")
            elif r not in hz.EXEC:
                if name not in self.inputs_read:
                    self.inputs_read.append(name)
                self.set_s(r, self.initial("s", name, None))

    def land_all(self) -> None:
        """Every outstanding result has returned (the code after the region waits)."""
        if self.waits is not None:
            self.waits.queue = []
