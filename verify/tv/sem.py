"""Per-lane semantics of LLVM IR, over verify's backend protocol.

Every IR value is a wave of lane values with a poison condition per lane
(:class:`Lanes`); integers narrower than 32 bits are kept zero-extended.
Integer and bitwise ops, shifts, icmp, select, casts and freeze follow the
LangRef: nsw/nuw/exact/disjoint/nneg/samesign flags and a shift by the bit
width or more give poison; poison propagates through every operand.

The amdgcn cross-lane intrinsics are not written again here: each is the
instruction LLVM documents it as (``llvm.amdgcn.ds.bpermute`` is
``ds_bpermute_b32``, ``update.dpp`` is ``v_mov_b32_dpp`` with the old value
in the destination, ...) executed by verify's own op definitions
(verify/ops) on a machine holding the IR values, under the same EXEC and
target as the compiled code.  Their poison is computed by running the same
instruction once more on the poison bits (a lane of the result is poison
exactly when the lane it read was).  A lane that did not run a value's
definition (an argument: a lane outside the entry EXEC) has no value for it:
an instruction reading across lanes reads poison there, the one rule for
arithmetic, loads, atomics and arguments (`IRRun.crossed`; the assumption
ir.inactive_lane, docs/semantics.md [S:ir-inactive]).

Non-determinism (``undef``, ``freeze`` of poison, the unwritten lanes of
``mov.dpp``) is a fresh unknown the proof ranges over: a proof then holds
for every choice, which is stronger than refinement needs (sound), but a
refutation that depends on such a choice may be spurious, so the checker
reports it as unknown (:attr:`IRRun.choices`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from ..asmcheck import parse_line
from ..backend import Backend
from ..diag import InputError
from ..identities import OPERATIONS
from ..ir import Instr
from ..machine import Machine
from ..ops.addr import mul_hi_u32, order64
from ..ops.base import op_of
from ..ops.dpp import ctrl_code
from ..target import FeatureLog, Target
from . import aggregate, atomic64, barrier, floatsem, gep, halfsem, irloop, knownbits, lanemask, subword, wideir
from . import private as private
from .intminmax import minmax_call
from .llir import TYPES, Function, Inst, Operand, _vector_elems
from .memmodel import ASCENDING as ASCENDING
from .memmodel import ATOMIC_OPS as ATOMIC_OPS
from .memmodel import Choice as Choice
from .memmodel import Memory as Memory
from .types import Lanes as Lanes
from .types import TType, assemble, dword_address, pieces_of, rtype, ttype
from .types import Unsupported as Unsupported

M32 = 0xFFFFFFFF
# the pointers into the one memory of 64-bit addresses: flat, global, constant  [S:flat-aperture]
GLOBAL_POINTERS = ("ptr", "ptr addrspace(1)", "ptr addrspace(4)")

# the DPP controls by their DPP_CTRL code, from verify/ops/dpp.py's encoding
def _dpp_controls() -> dict[int, str]:
    out: dict[int, str] = {}
    cands: list[tuple[tuple[str, Any], str]] = []
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    cands.append((("quad_perm", (a, b, c, d)), f"quad_perm:[{a},{b},{c},{d}]"))
    for kind in ("row_shl", "row_shr", "row_ror"):
        cands += [((kind, n), f"{kind}:{n}") for n in range(1, 16)]
    for kind in ("row_share", "row_xmask"):
        cands += [((kind, n), f"{kind}:{n}") for n in range(16)]
    for kind in ("wave_shl", "wave_rol", "wave_shr", "wave_ror"):
        cands.append(((kind, 1), f"{kind}:1"))
    cands += [(("row_mirror", None), "row_mirror"), (("row_half_mirror", None), "row_half_mirror"),
              (("row_bcast", 15), "row_bcast:15"), (("row_bcast", 31), "row_bcast:31")]
    for ctrl, text in cands:
        out.setdefault(ctrl_code(ctrl), text)
    return out


DPP_CONTROLS = _dpp_controls()

# scratch registers of the machine that runs the intrinsics
_D, _S0, _S1, _S2 = 200, 201, 202, 203
_SD, _SA, _SB = "s90", "s91", "s92"


# llvm.amdgcn.wave.reduce.OP -> (the fold operation of verify/identities.py, its start value)
# (`sub`: 0 minus the sum; `fsub`: 0.0 minus each value in turn, as `fadd` adds them
# to -0.0; fmin/fmax start from a NaN, which v_min/max_f32 (minNum) passes over)
WAVE_REDUCE = {"umin": ("umin", M32), "umax": ("umax", 0), "min": ("smin", 0x7FFFFFFF), "max": ("smax", 0x80000000),
               "add": ("add", 0), "sub": ("add", 0), "and": ("and", M32), "or": ("or", 0), "xor": ("xor", 0),
               "fadd": ("fadd", 0x80000000), "fsub": ("fsub", 0), "fmin": ("fmin", 0x7FC00000),
               "fmax": ("fmax", 0x7FC00000)}


def intrinsic_name(callee: str) -> str | None:
    """'llvm.amdgcn.update.dpp.i32' -> 'update.dpp' (None: not one we model):
    the longest row name of INTRINSIC_TABLE the name starts with, at a dot
    (an overload suffix: '.i32', '.f64', '.v2i16', '.p1', ...)."""
    if not callee.startswith("llvm.amdgcn."):
        return None
    full = callee[len("llvm.amdgcn."):]
    rest = full
    while rest:
        row = INTRINSIC_TABLE.get(rest)
        if row is not None and re.fullmatch(row.suffix, full[len(rest):]):
            return rest
        rest = rest.rpartition(".")[0]
    return None



def block_order(fn: Function, by_block: dict[int, list[Inst]], loops: Collection[int] = ()) -> list[int]:
    """The blocks reachable from the entry in a topological order (reverse
    postorder); a back edge (a loop) is unsupported, named at its branch,
    except a block's edge to itself where the block is one of `loops`
    (irloop.run_loop runs those)."""
    term = {b: insts[-1] for b, insts in by_block.items() if insts}
    state: dict[int, int] = {}  # 1: on the DFS stack, 2: done
    post: list[int] = []
    stack: list[tuple[int, int]] = [(0, 0)]
    state[0] = 1
    while stack:
        b, k = stack.pop()
        t = term.get(b)
        succ = t.targets if t is not None and t.opcode in ("br", "switch") else []
        succ = [n for n in succ if not (n == b and b in loops)]
        if t is not None and t.opcode not in ("br", "switch", "ret", "unreachable"):
            raise Unsupported(t.span, f"terminator '{t.opcode}'")
        if k < len(succ):
            stack.append((b, k + 1))
            n = succ[k]
            if n < 0:
                raise Unsupported(t.span if t is not None else fn.span, "a branch to a block verify cannot find")
            if state.get(n) == 1:
                assert t is not None
                raise Unsupported(t.span, f"loop (a back edge to %{fn.block_names[n]}): "
                                          + ("a loop of more than one block (verify runs one-block loops over a "
                                             "mask's bits)" if n != b else "a loop verify does not run"))
            if n not in state:
                state[n] = 1
                stack.append((n, 0))
            continue
        state[b] = 2
        post.append(b)
    return post[::-1]


def wwm_region(fn: Function) -> set[str]:
    """The instructions LLVM runs in whole-wave mode, every lane enabled
    (AMDGPUUsage: llvm.amdgcn.strict.wwm), found as SIWholeQuadMode finds
    them: from the operands of each strict.wwm/wwm call back through their
    definitions, stopping at a set.inactive (which is in the region, its
    first operand not), and from the second operand of every set.inactive
    back through its definitions.  A set.inactive the walk does not reach
    is a copy of its first operand [S:wwm-region]."""
    by_key = {i.key: i for i in fn.insts}
    out: set[str] = set()
    todo = [o.key for i in fn.insts if i.opcode == "call" and intrinsic_name(i.callee) in ("strict.wwm", "wwm")
            for o in i.operands[:-1] if o.kind == "ref"]
    todo += [i.operands[1].key for i in fn.insts if i.opcode == "call" and intrinsic_name(i.callee) == "set.inactive"
             and len(i.operands) > 2 and i.operands[1].kind == "ref"]
    while todo:
        k = todo.pop()
        ins = by_key.get(k)
        if ins is None or k in out:
            continue
        out.add(k)
        if ins.opcode == "call" and intrinsic_name(ins.callee) == "set.inactive":
            continue  # (its second operand is a seed above)
        todo += [o.key for o in ins.operands if o.kind == "ref"]
    return out


@dataclass
class IRRun:
    """One function's IR run on backend B for a target and wave, from EXEC
    lane bits `act` (one per lane) and its arguments' lane values."""

    B: Backend
    wave: int
    target: Target
    exec_lo: Any
    exec_hi: Any
    act: list[Any]
    assume: dict[str, str] = field(default_factory=dict)
    fresh: Callable[[str], list[Any]] | None = None  # W fresh values named so (undef)
    env: dict[str, Lanes] = field(default_factory=dict)
    choices: list[Choice] = field(default_factory=list)
    machine: Machine | None = None
    whole_machine: Machine | None = None  # EXEC = every lane: whole-wave mode
    whole: bool = False  # the current instruction computes a wwm operand
    wwm_keys: set[str] = field(default_factory=set)
    cur: Inst | None = None
    fn: Function | None = None  # the function run
    memory: Memory | None = None  # global memory (kernels)
    lds: Memory | None = None  # LDS, addrspace(3), 32-bit addresses (verify/tv/memory.py)
    workitem_x: list[Any] | None = None  # llvm.amdgcn.workitem.id.x per lane (kernels)
    ub: list[Any] = field(default_factory=list)  # conditions under which the IR has undefined behaviour
    here: list[Any] | None = None  # control flow: the lanes that reached the current block (None: all)
    # the serialisation of the n-th atomicrmw whose result is used: a rank per
    # lane (None: lane-ascending); see atomicrmw
    atomic_order: Callable[[int], list[Any]] | None = None
    atomics_used: int = 0
    # the lanes that did not run each value's definition (an argument: those
    # outside the entry EXEC), and whether it is a memory access (load,
    # atomicrmw): what a read across lanes of such a lane gets (`crossed`)
    # [S:ir-inactive]
    unran: dict[str, list[Any]] = field(default_factory=dict)
    memory_kind: set[str] = field(default_factory=set)
    # under ir.inactive_lane=computed: the lanes where a lane-wise value has
    # none, those of a load or atomicrmw among its operands (absent: none)
    no_value: dict[str, list[Any]] = field(default_factory=dict)
    _fn_insts: list[Inst] = field(default_factory=list)
    fn_attrs: dict[str, str] = field(default_factory=dict)  # the function's string attributes (float modes)
    _defs: dict[str, Inst] | None = None  # the function's instructions by key (select's min/max)
    # the lane-wise results (getelementptr, an index's zext/sext,
    # workitem.id.x, a pointer's misalignment) of earlier runs of the same
    # straight-line function, reused where their operands are the very same
    # objects: verify tv's kernels run once per dispatch EXEC
    memo: dict[Any, tuple[tuple[Any, ...], Any]] | None = None
    si_copies: dict[str, str] = field(default_factory=dict)  # set.inactive outside whole-wave mode: copies [S:wwm-region]
    # the inline asm calls run, for the GPU code's asm blocks (verify/tv/inlineasm.py);
    # None: no GPU code to match them (a non-empty asm is unsupported)
    asm: list[Any] | None = None
    sync: Any = None  # its fences, barriers and atomics so far (verify/tv/barrier.py's Sync)

    # ---- helpers ------------------------------------------------------
    def _m(self) -> Machine:
        if self.whole:
            if self.whole_machine is None:
                wm = Machine(self.B, self.wave, lambda kind, name, lane: False if kind == "scc" else self.B.const(0),
                             FeatureLog(self.target), self.assume, waits=False)
                wm.set_exec_mask((1 << self.wave) - 1)
                self.whole_machine = wm
            return self.whole_machine
        if self.machine is None:
            def initial(kind: str, name: str, lane: int | None) -> Any:
                # the scratch destinations' lanes an instruction does not write
                # (inactive lanes: what the IR never reads)
                return False if kind == "scc" else self.B.const(0)
            m = Machine(self.B, self.wave, initial, FeatureLog(self.target), self.assume, waits=False)
            self.machine = m
            self._sync_exec()
        return self.machine

    def _unsupported(self, msg: str) -> Unsupported:
        return Unsupported(self.cur.span if self.cur is not None else None, msg)

    def _new_choice(self, what: str) -> list[Any]:
        if self.fresh is None:
            raise self._unsupported(f"{what} (a non-deterministic value) needs a symbolic run")
        n = len(self.choices)
        return self.fresh(f"{what}#{n}")

    def operand(self, op: Operand) -> Lanes:
        B, W = self.B, self.wave
        if op.type not in TYPES:
            tt = rtype(op.type)  # (a struct: poison or undef as an insertvalue's start)
            if tt is None or (tt.members is not None and op.kind not in ("poison", "undef", "ref")):
                raise self._unsupported(f"values of type {op.type}")
            if op.kind in ("const", "poison", "undef"):
                return self._wide_constant(op, tt)
            w, fl = tt.bits, False
        else:
            w, fl = TYPES[op.type]
        if op.kind == "const":
            return Lanes([B.const(op.value)] * W, [False] * W, w, fl)
        if op.kind == "poison":
            return Lanes([B.const(0)] * W, [True] * W, w, fl)
        if op.kind == "undef":
            assert self.cur is not None
            vals = self._new_choice("undef")
            self.choices.append(Choice(self.cur.span, "undef", [True] * W))
            return Lanes([self._trunc(v, w) for v in vals], [False] * W, w, fl)
        if op.kind == "ref" and op.key in self.env:
            x = self.env[op.key]
            if self.whole and op.key not in self.wwm_keys and not (
                    self.cur is not None and self.cur.opcode == "call" and op is self.cur.operands[0]
                    and intrinsic_name(self.cur.callee) == "set.inactive"):
                # whole-wave mode reads every lane of a value computed outside
                # it (set.inactive's first operand: only the active lanes)
                return self.crossed(op, x)
            return x
        raise self._unsupported(f"operand '{op.text}'")

    def _wide_constant(self, op: Operand, tt: TType) -> Lanes:
        """A constant, poison or undef of a type of several pieces (or a
        16-bit float, a pointer): its pieces, each a lane-uniform value."""
        B, W = self.B, self.wave
        widths = tt.pieces()
        if op.kind == "undef":
            assert self.cur is not None
            pieces = []
            for w in widths:
                vals = self._new_choice("undef")
                self.choices.append(Choice(self.cur.span, "undef", [True] * W))
                pieces.append(Lanes([self._trunc(v, w) for v in vals], [False] * W, w))
            return assemble(B, tt, pieces)
        if op.kind == "poison":
            return assemble(B, tt, [Lanes([B.const(0)] * W, [True] * W, w) for w in widths])
        elems: tuple[int | None, ...] = op.elems if op.elems is not None else (op.value,)
        bits: list[int | None] = []
        for e in elems:
            if tt.elem.bits == 64:
                bits += [None, None] if e is None else [e & M32, (e >> 32) & M32]
            else:
                bits.append(e)
        if len(bits) != len(widths):
            raise self._unsupported(f"constant '{op.text}'")
        return assemble(B, tt, [Lanes([B.const(0 if c is None else c & self._mask(w))] * W, [c is None] * W, w)
                                for c, w in zip(bits, widths)])

    def _map_pieces(self, ty: str, xs: list[Lanes], f: Callable[[list[Lanes]], Lanes]) -> Lanes:
        """`f` on the values `xs` of type `ty`, piece by piece when `ty` has
        several (a vector, a 64-bit value, a struct); as it is otherwise."""
        tt = rtype(ty)
        if tt is None or not tt.wide:
            return f(xs)
        ps = [pieces_of(x, tt) for x in xs]
        return assemble(self.B, tt, [f([p[k] for p in ps]) for k in range(len(tt.pieces()))])

    def _ran(self, ins: Inst) -> None:
        """Record the lanes that ran `ins` (the current instruction)."""
        B = self.B
        self.unran[ins.key] = u = [B.not_b(r) for r in self.lanes_on()]
        if ins.opcode in ("load", "atomicrmw"):
            self.memory_kind.add(ins.key)
            self.no_value[ins.key] = u
            return
        if ins.opcode == "call" and intrinsic_name(ins.callee) not in ("strict.wwm", "wwm"):
            return  # (an intrinsic's result is what its instruction gives, in every lane)
        deps = [self.no_value[o.key] for o in ins.operands if o.kind == "ref" and o.key in self.no_value]
        if deps:
            self.no_value[ins.key] = [B.or_b(*ls) for ls in zip(*deps)]

    def crossed(self, op: Operand, x: Lanes, flow: Callable[[list[Any]], list[Any]] | None = None) -> Lanes:
        """`x`, the value of operand `op`, as an instruction that reads it
        across lanes gets it.  One rule for every value (arithmetic, loads,
        atomics, intrinsics, arguments): a lane that did not run its
        definition (not in EXEC, or not on the path to its block; an
        argument: not in the entry EXEC) has no value for it, so the read
        gets poison there (ir.inactive_lane=poison, the default).  Under
        `computed` only a memory access is poison there; a lane-wise value is
        what its operands give in that lane.  The assumption is asked only
        where the answer can matter: some lane did not run a lane-wise
        definition, and `flow` (the reading instruction run on those lanes'
        marks; None: every lane is read) carries one into a lane that runs
        the reader.  [S:ir-inactive]"""
        B = self.B
        u = self.unran.get(op.key) if op.kind == "ref" else None
        if u is None or all(c is False for c in u):
            return x
        if op.key in self.si_copies and (flow is None or any(
                B.decide(B.and_b(o, r)) is not False for o, r in zip(self.lanes_on(), flow(u)))):
            # IntrinsicsAMDGPU.td gives its inactive lanes the second
            # operand; LLVM 22 lowers it to a copy, whose inactive lanes hold
            # what the register held  [S:wwm-region]
            raise self._unsupported(f"a read across lanes of the inactive lanes of {self.si_copies[op.key]}, a set.inactive "
                                    "outside a strict.wwm/wwm computation (LLVM copies its first operand there)")
        if op.key not in self.memory_kind:
            if flow is not None:
                on = self.lanes_on()
                reach = flow(u)
                if all(B.decide(B.and_b(on[i], reach[i])) is False for i in range(self.wave)):
                    return x
            if self._m().assume("ir.inactive_lane") == "computed":
                alt = self.no_value.get(op.key)
                if alt is None:
                    return x
                u = alt
        def mark(xs: list[Lanes]) -> Lanes:
            y = xs[0]
            return Lanes(y.vals, [B.or_b(p, c) for p, c in zip(y.poison, u)], y.width, y.is_float, y.hi, y.parts)
        if x.ty:  # a vector: each element
            return self._map_pieces(x.ty, [x], mark)
        return mark([x])

    def _mask(self, w: int) -> int:
        return (1 << w) - 1

    def _trunc(self, v: Any, w: int) -> Any:
        return v if w == 32 else self.B.and_(v, self.B.const(self._mask(w)))

    def _sext(self, v: Any, w: int) -> Any:
        if w == 32:
            return v
        k = self.B.const(32 - w)
        return self.B.ashr(self.B.shl(v, k), k)

    def _or(self, *cs: Any) -> Any:
        return self.B.or_b(*cs)

    # ---- the run ------------------------------------------------------
    def run(self, fn: Function, args: dict[str, Lanes]) -> Lanes | None:
        """Run `fn`; returns the returned value (None for void).

        Control flow (an acyclic CFG): every lane follows its own path, as
        the IR's threads do.  Blocks run in a topological order; a block
        runs under the lane predicate "this lane reached it" (the OR of its
        incoming edges); a value is poison in the lanes that did not reach
        its block; a phi picks its incoming value by the edge the lane came
        along; a cross-lane intrinsic runs with EXEC = the lanes that
        reached its block (LLVM's convergent semantics: the threads that
        execute the call together are those that reach it).  Branching on
        poison, and reaching `unreachable`, is undefined behaviour
        (:attr:`ub`).  A back edge (a loop) is unsupported."""
        B, W = self.B, self.wave
        self.fn = fn  # (the definitions an intrinsic may look through: llvm.amdgcn.wqm)
        self.env.update(args)
        unran = [B.not_b(a) for a in self.act]
        for key in args:  # a lane outside the entry EXEC was passed nothing
            self.unran[key] = unran
        self.wwm_keys = wwm_region(fn)
        self._fn_insts = fn.insts
        self.fn_attrs = fn.attrs
        self._defs = None
        if fn.blocks == 1:
            for ins in fn.insts:
                self.cur = ins
                self.whole = ins.key in self.wwm_keys
                if ins.opcode == "ret":
                    return self.operand(ins.operands[0]) if ins.operands else None
                self.env[ins.key] = self._step_memo(ins)
                self._ran(ins)
            raise Unsupported(fn.span, "a function without ret")
        by_block: dict[int, list[Inst]] = {}
        for ins in fn.insts:
            by_block.setdefault(ins.block, []).append(ins)
        loops = irloop.self_loops(fn, by_block)
        order = block_order(fn, by_block, loops)
        edges: dict[int, list[list[Any]]] = {}  # block -> the lanes arriving along each incoming edge
        edge_of: dict[tuple[int, int], list[Any]] = {}  # (pred, block) -> lanes taking that edge
        rets: list[tuple[list[Any], Lanes | None]] = []

        def go(frm: int, to: int, lanes: list[Any]) -> None:
            edges.setdefault(to, []).append(lanes)
            old = edge_of.get((frm, to))
            edge_of[(frm, to)] = lanes if old is None else [B.or_b(a, b) for a, b in zip(old, lanes)]

        for b in order:
            here = [True] * W if b == 0 else [B.or_b(*ls) for ls in zip(*edges.get(b, [[False] * W]))]
            self.here = None if b == 0 else here
            self._sync_exec()
            act = self.active()
            if b in loops:  # a loop over the lanes' mask bits, bounded by proof (irloop.py)
                irloop.run_loop(self, fn, b, by_block[b], here, go, edge_of)
                continue
            for ins in by_block.get(b, []):
                self.cur = ins
                self.whole = ins.key in self.wwm_keys
                op = ins.opcode
                if op == "ret":
                    rets.append((here, self.operand(ins.operands[0]) if ins.operands else None))
                elif op == "br" and len(ins.targets) == 1:
                    go(b, ins.targets[0], here)
                elif op == "br":
                    c = self.operand(ins.operands[0])
                    t = [B.ne(c.vals[i], 0) for i in range(W)]
                    self.ub += [B.and_b(act[i], c.poison[i]) for i in range(W)]  # branch on poison
                    go(b, ins.targets[0], [B.and_b(here[i], t[i]) for i in range(W)])
                    go(b, ins.targets[1], [B.and_b(here[i], B.not_b(t[i])) for i in range(W)])
                elif op == "switch":
                    x = self.operand(ins.operands[0])
                    if len(ins.cases) != len(ins.targets) - 1:
                        raise self._unsupported("a switch whose cases verify cannot read")
                    self.ub += [B.and_b(act[i], x.poison[i]) for i in range(W)]
                    hit = [[B.eq(x.vals[i], B.const(v)) for i in range(W)] for v in ins.cases]
                    for v_hit, tgt in zip(hit, ins.targets[1:]):
                        go(b, tgt, [B.and_b(here[i], v_hit[i]) for i in range(W)])
                    go(b, ins.targets[0], [B.and_b(here[i], B.not_b(B.or_b(*(h[i] for h in hit)))) for i in range(W)])
                elif op == "unreachable":
                    self.ub += act
                elif op == "phi":
                    self.env[ins.key] = self.phi(ins, b, edge_of, here)
                    self._ran(ins)
                else:
                    out = self.step(ins)
                    if b != 0:  # not defined in the lanes that did not come here
                        out = self._map_pieces(ins.type, [out], self._off_path(here))
                    self.env[ins.key] = out
                    self._ran(ins)
        self.here = None
        self.cur = None
        if not rets:
            raise Unsupported(fn.span, "a function without ret")
        if rets[0][1] is None:
            return None
        heres = [h for h, _ in rets]

        def merge(xs: list[Lanes]) -> Lanes:
            first = xs[0]
            vals, pois = list(first.vals), [B.or_b(first.poison[i], B.not_b(heres[0][i])) for i in range(W)]
            for here, lv in zip(heres[1:], xs[1:]):
                vals = [B.ite(here[i], lv.vals[i], vals[i]) for i in range(W)]
                pois = [B.ite(here[i], lv.poison[i], pois[i]) for i in range(W)]
            return Lanes(vals, pois, first.width, first.is_float, first.hi)
        outs = [lv for _, lv in rets]
        assert all(lv is not None for lv in outs)
        return self._map_pieces(fn.ret, outs, merge)  # type: ignore[arg-type]

    def _off_path(self, here: list[Any]) -> Callable[[list[Lanes]], Lanes]:
        """A value made poison in the lanes that did not reach its block."""
        B = self.B

        def f(xs: list[Lanes]) -> Lanes:
            x = xs[0]
            return Lanes(x.vals, [B.or_b(x.poison[i], B.not_b(here[i])) for i in range(self.wave)], x.width,
                         x.is_float, x.hi)
        return f

    def phi(self, ins: Inst, block: int, edge_of: dict[tuple[int, int], list[Any]], here: list[Any]) -> Lanes:
        """A phi: in each lane, the value of the edge the lane came along."""
        B, W = self.B, self.wave
        lvs = [self.operand(o) for o in ins.operands]
        if not lvs:
            raise self._unsupported("a phi without incoming values")

        def pick(xs: list[Lanes]) -> Lanes:
            vals: list[Any] = [B.const(0)] * W
            pois: list[Any] = [B.not_b(h) for h in here]
            for lv, pred in zip(xs, ins.targets):
                took = edge_of.get((pred, block), [False] * W)
                vals = [B.ite(took[i], lv.vals[i], vals[i]) for i in range(W)]
                pois = [B.ite(took[i], lv.poison[i], pois[i]) for i in range(W)]
            return Lanes(vals, pois, xs[-1].width, xs[-1].is_float, xs[-1].hi)
        return self._map_pieces(ins.type, lvs, pick)

    def _step_memo(self, ins: Inst) -> Lanes:
        """`step`, or its result from `memo` for an instruction that depends
        on its operands alone, lane by lane (no EXEC, memory or UB)."""
        op = ins.opcode
        pure = op == "getelementptr" or (op in ("zext", "sext") and ins.type == "i64") or (
            op == "call" and intrinsic_name(ins.callee) == "workitem.id.x")
        # (an undef or poison operand is not shared: each run records its own choices)
        if self.memo is None or not pure or self.whole or any(o.kind not in ("ref", "const", "func") for o in ins.operands):
            return self.step(ins)
        deps = (self.workitem_x, *(self.env.get(o.key) if o.kind == "ref" else o.text for o in ins.operands))
        out: Lanes = self._memoized(ins.key, deps, lambda: self.step(ins))
        return out

    def _memoized(self, key: Any, deps: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        assert self.memo is not None
        hit = self.memo.get(key)
        if hit is not None and len(hit[0]) == len(deps) and all(a is b or (type(a) is str and a == b)
                                                                 for a, b in zip(hit[0], deps)):
            return hit[1]
        out = make()
        self.memo[key] = (deps, out)  # (the entry keeps its operands alive: `is` stays meaningful)
        return out

    def step(self, ins: Inst) -> Lanes:
        op = ins.opcode
        if private.handles(self, ins):  # an alloca's memory, per lane (verify/tv/private.py)
            return private.step(self, ins)
        hit = halfsem.step(self, ins, Choice)  # half/bfloat arithmetic, fmul, fma, fmuladd, fpext/fptrunc
        if hit is None:
            hit = floatsem.step(self, ins, Choice)  # fcmp, float intrinsics and casts, inline asm, read_register
        if hit is not None:
            return hit
        if op == "call" and ins.callee in ("llvm.ctpop.i32", "llvm.ctpop.i64"):
            return self.ctpop(ins)
        if op == "call" and ins.callee in ("llvm.cttz.i32", "llvm.ctlz.i32"):
            return irloop.cttz(self, ins)
        if op == "call" and ins.callee == "llvm.bitreverse.i32":
            return self.bitreverse(ins)
        if op == "call" and (mm := minmax_call(self, ins)) is not None:  # llvm.[us]{min,max}.i32
            return mm
        if op == "call":
            return self.call(ins)
        if op == "extractvalue":
            return self.extractvalue(ins)
        if op == "insertvalue":  # [S:ir-aggregate]
            return aggregate.insertvalue(self, ins)
        if op in ("extractelement", "insertelement", "shufflevector"):
            return self.vector_op(ins)
        if op in ("ptrtoint", "inttoptr") or (op == "bitcast" and (
                ins.type not in TYPES or ins.operands[0].type not in TYPES)):
            return self.reinterpret(ins)
        if op in ("zext", "sext") and ins.type == "i64" and ins.operands[0].type != "i32":
            return self.ext64(ins)
        if wideir.handles(ins):  # i64 and <N x i16> arithmetic, 64-bit icmp
            return wideir.step(self, ins)
        if op in ("select", "freeze") and ins.type not in TYPES and ttype(ins.type) is not None:
            return self.wide_select_freeze(ins)
        if (ins.type == "i64" and op == "lshr") or (op == "trunc" and ins.operands[0].type == "i64"):
            return self.op64(ins)
        if op in ("load", "store", "getelementptr", "atomicrmw") or (op in ("zext", "sext") and ins.type == "i64"):
            if op == "atomicrmw":
                barrier.note_atomic(self, ins)  # (which stores of two lanes race)  [S:ir-store-race]
            return self.memory_op(ins)
        if op == "fence" and self.memory is not None:  # one wave's memory: no effect  [S:one-wave-fence]
            barrier.note_fence(self, ins)  # (which stores of two lanes race)  [S:ir-store-race]
            return Lanes([self.B.const(0)] * self.wave, [False] * self.wave)
        if ins.type not in TYPES:
            raise self._unsupported(f"{op} of type {ins.type}" if ins.type != "void" else f"instruction '{op}'")
        if op in ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr"):
            return self.binop(ins)
        if op == "icmp":
            return self.icmp(ins)
        if op == "select":
            return self.select(ins)
        if op in ("zext", "sext", "trunc", "bitcast"):
            return self.cast(ins)
        if op == "freeze":
            return self.freeze(ins)
        if op in ("fadd", "fsub"):
            return self.fbinop(ins)
        raise self._unsupported(f"instruction '{op}'")

    # ---- global memory (kernels) -------------------------------------------
    def _pointer(self, op: Operand) -> Lanes:
        """A pointer into memory verify models: global (addrspace 1), flat
        (0) and constant (4) share one memory of 64-bit addresses; an LDS
        pointer (3, 32 bits) is read with a high half of 0, in the LDS's own
        memory (memory_op picks it)  [S:flat-aperture]."""
        x = self.operand(op) if op.type in TYPES else self.env.get(op.key) if op.kind == "ref" else None
        if x is None and op.kind == "other":  # an LDS global variable: verify/tv/gep.py
            x = gep.lds_global(self, op, self.fn.insts if self.fn is not None else [], Choice)
        if x is not None and x.hi is None and op.type == "ptr addrspace(3)" and self.lds is not None:
            return Lanes(list(x.vals), list(x.poison), 64, False, [self.B.const(0)] * self.wave)
        if x is None or x.hi is None or op.type not in GLOBAL_POINTERS:
            raise self._unsupported(f"pointer operand '{op.text}'")
        return x

    def memory_op(self, ins: Inst) -> Lanes:
        B, W = self.B, self.wave
        op = ins.opcode
        if self.lds is not None and self.memory is not self.lds and op != "getelementptr" and any(
                o.type == "ptr addrspace(3)" for o in ins.operands[(1 if op == "store" else 0):][:1]
                ):  # an LDS access (its pointer operand, not a stored LDS pointer value): the LDS's memory
            saved, self.memory = self.memory, self.lds
            try:
                return self.memory_op(ins)
            finally:
                self.memory = saved
        if op in ("zext", "sext"):  # i32 -> i64, for an index
            a = self.operand(ins.operands[0])
            if a.width != 32 or self._flags(ins) not in ([], ["nneg"]):
                raise self._unsupported(f"{op} {ins.operands[0].type} to i64")
            hi = [B.const(0)] * W if op == "zext" else [B.ashr(v, B.const(31)) for v in a.vals]
            pois = list(a.poison) if not self._flags(ins) else [B.or_b(p, B.slt(v, 0)) for p, v in zip(a.poison, a.vals)]
            return Lanes(list(a.vals), pois, 64, False, hi)
        if self.memory is None:
            raise self._unsupported(f"instruction '{op}' outside a kernel")
        if op == "getelementptr":
            words = ins.text.split()
            m = re.search(r"getelementptr\s+(?:inbounds\s+|nuw\s+|nusw\s+)*(.+?),\s*ptr(?: addrspace\([0134]\))? ", ins.text)
            if m is not None and m.group(1).lstrip().startswith("["):  # over an array type: verify/tv/gep.py
                return gep.array_gep(self, ins, m.group(1))
            ett = ttype(m.group(1)) if m is not None else None
            size = 0 if ett is None else 1 if ett.bits == 8 and ett.n is None else sum(ett.pieces()) // 8
            if m is None or len(ins.operands) != 2 or size not in (1, 2, 4, 8, 16):
                raise self._unsupported(f"getelementptr '{' '.join(words[2:6])}...'")
            base = self._pointer(ins.operands[0])
            assert base.hi is not None
            ix = ins.operands[1]
            if ix.type == "i64" and ix.kind == "ref":
                idx = self.env[ix.key]
            elif ix.type == "i64" and ix.kind == "const":
                c = ix.value & ((1 << 64) - 1)
                idx = Lanes([B.const(c & M32)] * W, [False] * W, 64, False, [B.const(c >> 32)] * W)
            elif ix.type == "i32":
                a = self.operand(ix)
                idx = Lanes(a.vals, a.poison, 64, False, [B.ashr(v, B.const(31)) for v in a.vals])
            else:
                raise self._unsupported(f"getelementptr index of type {ix.type}")
            assert idx.hi is not None
            lo, hi = [], []
            sh = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[size]
            for i in range(W):
                olo = B.shl(idx.vals[i], B.const(sh))
                ohi = B.or_(B.shl(idx.hi[i], B.const(sh)), B.lshr(idx.vals[i], B.const(32 - sh))) if sh else idx.hi[i]
                rlo = B.add(base.vals[i], olo)
                carry = B.bool_value(B.ult(rlo, olo))
                lo.append(rlo)
                hi.append(B.add(B.add(base.hi[i], ohi), carry))
            pois = [B.or_b(base.poison[i], idx.poison[i]) for i in range(W)]
            if ins.type == "ptr addrspace(3)":  # a 32-bit pointer: the low half
                return Lanes(lo, pois, 32, False)
            return Lanes(lo, pois, 64, False, hi)
        if op == "atomicrmw":
            return self.atomicrmw(ins)
        sub = getattr(self.memory, "sub_dword", None)  # i8/i16/half/bfloat: verify/tv/bytemem.py's ByteMemory
        got: Lanes | None = sub(self, ins) if sub is not None else None
        if got is not None:
            return got
        m = re.search(r",\s*align\s+(\d+)", ins.text)
        if m is None or int(m.group(1)) < 4 or "volatile" in ins.text or "atomic" in ins.text:
            raise self._unsupported(f"{op} without align >= 4 (or volatile/atomic)")
        ptr = self._pointer(ins.operands[0 if op == "load" else 1])
        assert ptr.hi is not None
        act = self.lanes_on()
        # an access at a poison or misaligned address is undefined behaviour
        self._misaligned(ptr, act)
        if op == "load" and ins.type not in ("i32", "float"):
            return self._load_dwords(ins, ptr, act)
        if op == "store" and ins.operands[0].type not in ("i32", "float"):
            return self._store_dwords(ins, ptr, act)
        if op == "load":
            vals, pois = [], []
            for i in range(W):
                if act[i] is False:  # (no read: a lane that does not run the load has
                    vals.append(B.const(0))  # no value, which `crossed` gives its readers)
                    pois.append(False)
                    continue
                v, p = self.memory.read(ptr.vals[i], ptr.hi[i])
                vals.append(v)
                pois.append(p)
            return Lanes(vals, pois, 32, ins.type == "float")
        val = self.operand(ins.operands[0])
        if ins.operands[0].type not in ("i32", "float"):
            raise self._unsupported(f"store of {ins.operands[0].type}")
        self.memory.write([(ptr.vals[i], ptr.hi[i], val.vals[i], val.poison[i], act[i]) for i in range(W)])
        return Lanes([B.const(0)] * W, [False] * W)

    def _dwords_of(self, ty: str) -> TType:
        tt = ttype(ty)
        if tt is None or sum(tt.pieces()) % 32 or (tt.n == 3 and tt.bits not in (32, 64)) or (
                tt.kind == "ptr" and tt.bits not in (32, 64)):
            raise self._unsupported(f"a memory access of {ty} (modelled: whole dwords, 32- and 64-bit pointers)")
        return tt

    def _load_dwords(self, ins: Inst, ptr: Lanes, act: list[Any]) -> Lanes:
        """A load of several dwords (i64, double, a 64-bit pointer, vectors
        of whole dwords): dword k at the address plus 4k, cut into pieces as
        a register holds it; each element poison where its dword is."""
        B, W = self.B, self.wave
        assert self.memory is not None and ptr.hi is not None
        tt = self._dwords_of(ins.type)
        words: list[tuple[list[Any], list[Any]]] = []
        for k in range(tt.registers):
            vals, pois = [], []
            for i in range(W):
                if act[i] is False:  # (no read: a lane that does not run the load has no value)
                    vals.append(B.const(0))
                    pois.append(False)
                    continue
                v, p = self.memory.read(*dword_address(B, ptr.vals[i], ptr.hi[i], k))
                vals.append(v)
                pois.append(p)
            words.append((vals, pois))
        pieces = []
        for r, off, w in tt.slots():
            vals, pois = words[r]
            if not (off == 0 and w == 32):
                vals = [B.and_(B.lshr(x, B.const(off)) if off else x, B.const((1 << w) - 1)) for x in vals]
            pieces.append(Lanes(vals, pois, w))
        return assemble(B, tt, pieces)

    def _store_dwords(self, ins: Inst, ptr: Lanes, act: list[Any]) -> Lanes:
        """A store of several dwords: dword k at the address plus 4k, one
        store per dword, in order.  A dword holding two 16-bit elements is
        stored as poison only where both are (where one is, the other's
        bits must still match: stricter than the IR, never looser)."""
        B, W = self.B, self.wave
        assert self.memory is not None and ptr.hi is not None
        tt = self._dwords_of(ins.operands[0].type)
        val = self.operand(ins.operands[0])
        ps = pieces_of(val, tt)
        regs: dict[int, list[tuple[int, Lanes]]] = {}
        for (r, off, _), p in zip(tt.slots(), ps):
            regs.setdefault(r, []).append((off, p))
        for r in range(tt.registers):
            group = regs[r]
            vals = []
            for i in range(W):
                v = group[0][1].vals[i]
                for off, p in group[1:]:
                    v = B.or_(v, B.shl(p.vals[i], B.const(off)))
                vals.append(v)
            pois = [B.and_b(*(p.poison[i] for _, p in group)) for i in range(W)]
            self.memory.write([(*dword_address(B, ptr.vals[i], ptr.hi[i], r), vals[i], pois[i], act[i])
                               for i in range(W)], more=r > 0)
        return Lanes([B.const(0)] * W, [False] * W)

    def _i64(self, op: Operand) -> Lanes:
        B, W = self.B, self.wave
        if op.kind == "const":
            c = op.value & ((1 << 64) - 1)
            return Lanes([B.const(c & M32)] * W, [False] * W, 64, False, [B.const(c >> 32)] * W)
        x = self.env.get(op.key) if op.kind == "ref" else None
        if x is None or x.hi is None:
            raise self._unsupported(f"operand '{op.text}'")
        return x

    def op64(self, ins: Inst) -> Lanes:
        """i64 (ballot.i64's result): `lshr` by a constant, `trunc` to i32 or narrower."""
        B, W = self.B, self.wave
        a = self._i64(ins.operands[0])
        assert a.hi is not None
        flags = [w for w in self._flags(ins) if w in ("nuw", "nsw", "exact")]
        if flags and not (ins.opcode == "trunc" and ins.type == "i32"):
            raise self._unsupported(f"flag '{flags[0]}' on an i64 {ins.opcode}")
        if ins.opcode == "trunc":
            w, fl = TYPES.get(ins.type, (0, True))
            if fl:
                raise self._unsupported(f"trunc i64 to {ins.type}")
            # nuw: poison unless the high half is 0; nsw: unless it is the low half's sign (LangRef)
            bad = [[B.ne(h, B.const(0))] if "nuw" in flags else [] for h in a.hi]
            if "nsw" in flags:
                for i in range(W):
                    bad[i].append(B.ne(a.hi[i], B.ashr(a.vals[i], B.const(31))))
            return Lanes([self._trunc(v, w) for v in a.vals], [self._or(p, *b) for p, b in zip(a.poison, bad)], w)
        k = ins.operands[1]
        if k.kind != "const":
            raise self._unsupported("lshr i64 by a variable")
        n = k.value
        if n >= 64:
            return Lanes([B.const(0)] * W, [True] * W, 64, False, [B.const(0)] * W)
        lo, hi = [], []
        for i in range(W):
            x, y = a.vals[i], a.hi[i]
            if n >= 32:
                lo.append(B.lshr(y, B.const(n - 32)))
                hi.append(B.const(0))
            elif n == 0:
                lo.append(x)
                hi.append(y)
            else:
                lo.append(B.or_(B.lshr(x, B.const(n)), B.shl(y, B.const(32 - n))))
                hi.append(B.lshr(y, B.const(n)))
        return Lanes(lo, list(a.poison), 64, False, hi)

    def ctpop(self, ins: Inst) -> Lanes:
        """llvm.ctpop.i32/i64: the number of set bits (i64: the count fits the low half)."""
        B, W = self.B, self.wave
        o = ins.operands[0]
        a = self._i64(o) if o.type == "i64" else self.operand(o)
        if a.width not in (32, 64):
            raise self._unsupported(f"@{ins.callee}")
        vals = [self._popcount(a.vals[i], None if a.hi is None else a.hi[i]) for i in range(W)]
        if a.hi is not None:
            return Lanes(vals, list(a.poison), 64, False, [B.const(0)] * W)
        return Lanes(vals, list(a.poison), 32)

    def bitreverse(self, ins: Inst) -> Lanes:
        """llvm.bitreverse.i32 (LangRef): bit k of the result is bit 31 - k
        of the operand, poison where it is (emit's v_bfrev_b32)."""
        B = self.B
        a = self.operand(ins.operands[0])
        return Lanes([B.from_bits([B.bit(v, 31 - k) for k in range(32)]) for v in a.vals], list(a.poison), 32)

    def _misaligned(self, ptr: Lanes, act: list[Any]) -> None:
        """An access at a poison or misaligned address is undefined
        behaviour, in a lane that runs it (a lane known not to: nothing)."""
        B = self.B

        def bad() -> list[Any]:
            return [B.or_b(ptr.poison[i], B.ne(B.and_(ptr.vals[i], B.const(3)), 0)) for i in range(self.wave)]
        conds = bad() if self.memo is None else self._memoized(("misaligned", id(ptr)), (ptr,), bad)
        for i in range(self.wave):
            if act[i] is not False:
                self.ub.append(B.and_b(act[i], conds[i]))

    def atomicrmw(self, ins: Inst) -> Lanes:
        """`atomicrmw OP ptr addrspace(1) %p, i32 %v ... , align >= 4`: the
        active lanes' updates are serialised in some order, the LangRef
        allowing every order; verify picks one order for the IR, one of the
        behaviours the IR admits: lane-ascending, or, when the result is used
        and `atomic_order` is given, the order the GPU's matching returning
        atomic serialises in (the same ranks: whichever order the hardware
        takes, the IR could have taken it too).  A GPU whose behaviour equals
        the IR's under neither choice can be a false alarm, never a false
        pass (docs/tv.md).  Returns the value each lane saw before its
        update."""
        if subword.is_subword(ins):  # i8/i16: verify/tv/subword.py  [S:atomic-subword]
            return subword.ir_atomicrmw(self, ins)
        B, W = self.B, self.wave
        assert self.memory is not None
        m = re.match(r"(?:%\S+\s*=\s*)?atomicrmw\s+(volatile\s+)?(\w+)\s+ptr(?: addrspace\([0134]\))?[ ,]", ins.text)
        a = re.search(r",\s*align\s+(\d+)", ins.text)
        if m is None or m.group(1) or m.group(2) not in ATOMIC_OPS or a is None or int(a.group(1)) < 4:
            raise self._unsupported(f"atomicrmw '{' '.join(ins.text.split('=', 1)[-1].split()[:3])}' "
                                    "(modelled: add sub and or xor min max umin umax of i32 on addrspace(1), align >= 4)")
        if ins.operands[1].type == "i64":  # verify/tv/atomic64.py  [S:atomic64]
            return atomic64.ir_atomicrmw(self, ins, m.group(2), int(a.group(1)), ASCENDING)
        if ins.operands[1].type != "i32":
            raise self._unsupported(f"atomicrmw of {ins.operands[1].type}")
        ptr = self._pointer(ins.operands[0])
        assert ptr.hi is not None
        val = self.operand(ins.operands[1])
        act = self.lanes_on()
        self._misaligned(ptr, act)
        order: Callable[[int, int], Any] = ASCENDING
        used = any(o.kind == "ref" and o.key == ins.key for i2 in self._fn_insts for o in i2.operands)
        if used and self.atomic_order is not None:
            rank = self.atomic_order(self.atomics_used)
            order = lambda j, i: B.ult(rank[j], rank[i])  # noqa: E731
        self.atomics_used += used
        olds = self.memory.atomic(m.group(2), [(ptr.vals[i], ptr.hi[i], val.vals[i], val.poison[i], act[i])
                                               for i in range(W)], order)
        # (a lane that does not run it has no value: `crossed` gives its readers poison)
        return Lanes([v for v, _ in olds], [p for _, p in olds], 32, False)

    def _flags(self, ins: Inst) -> list[str]:
        out = []
        for wd in ins.words:
            if wd in TYPES or ttype(wd) is not None or wd.startswith(("%", "<", "ptr", "{")):
                break
            out.append(wd)
        return out

    def binop(self, ins: Inst) -> Lanes:
        B, W = self.B, self.wave
        if ins.opcode == "and" and ins.type == "i32" and not self._flags(ins):  # a mask that clears nothing  [S:tv-known-bits]
            if self._defs is None:
                self._defs = {i.key: i for i in self._fn_insts}
            k = knownbits.mask_is_identity(self._defs, ins)
            if k is not None:
                a = self.operand(ins.operands[k])
                return Lanes(list(a.vals), list(a.poison), 32, False)
        a, b = (self.operand(o) for o in ins.operands[:2])
        w = a.width
        flags = self._flags(ins)
        known = {"add": {"nsw", "nuw"}, "sub": {"nsw", "nuw"}, "mul": {"nsw", "nuw"}, "shl": {"nsw", "nuw"},
                 "lshr": {"exact"}, "ashr": {"exact"}, "or": {"disjoint"}}.get(ins.opcode, set())
        for f in flags:
            if f not in known:
                raise self._unsupported(f"flag '{f}' on {ins.opcode}")
        if ins.opcode == "mul" and flags and 16 < w < 32:
            raise self._unsupported(f"mul {' '.join(flags)} on i{w} (overflow needs a wider product)")
        vals, pois = [], []
        M = B.const(self._mask(w))
        for i in range(W):
            x, y = a.vals[i], b.vals[i]
            bad: list[Any] = [a.poison[i], b.poison[i]]
            op = ins.opcode
            if op == "mul" and w == 32 and flags:  # the exact 64-bit product  [S:ir-wrap-flags]
                r = B.mul(x, y)
                bad.append(wideir.mul_overflows(B, [x], [y], set(flags)))
            elif op in ("add", "sub", "mul"):
                fn = {"add": B.add, "sub": B.sub, "mul": B.mul}[op]
                full = fn(x, y)
                r = self._trunc(full, w)
                if "nuw" in flags:
                    if w < 32 or op == "mul":
                        bad.append(B.ne(full, r))  # (sub wraps below 0 to >= 2^w in 32 bits)
                    elif op == "add":
                        bad.append(B.ult(r, x))
                    else:
                        bad.append(B.ult(x, y))
                if "nsw" in flags:
                    if w < 32 or op == "mul":
                        sfull = fn(self._sext(x, w), self._sext(y, w))
                        bad.append(B.ne(self._sext(self._trunc(sfull, w), w), sfull))
                    else:
                        sx, sy, sr = B.slt(x, 0), B.slt(y, 0), B.slt(r, 0)
                        same_in = B.not_b(B.or_b(B.and_b(sx, B.not_b(sy)), B.and_b(sy, B.not_b(sx))))
                        if op == "add":
                            flip = B.or_b(B.and_b(sx, B.not_b(sr)), B.and_b(sr, B.not_b(sx)))
                            bad.append(B.and_b(same_in, flip))
                        else:
                            flip = B.or_b(B.and_b(sx, B.not_b(sr)), B.and_b(sr, B.not_b(sx)))
                            bad.append(B.and_b(B.not_b(same_in), flip))
            elif op in ("and", "or", "xor"):
                r = {"and": B.and_, "or": B.or_, "xor": B.xor}[op](x, y)
                if "disjoint" in flags:
                    bad.append(B.ne(B.and_(x, y), 0))
            else:  # shifts: an amount >= the width is poison
                bad.append(B.ule(B.const(w), y))
                if op == "shl":
                    r = B.and_(B.shl(x, y), M)
                    if "nuw" in flags:
                        bad.append(B.ne(B.lshr(r, y), x))
                    if "nsw" in flags:
                        bad.append(B.ne(B.ashr(self._sext(r, w), y), self._sext(x, w)))
                elif op == "lshr":
                    r = B.lshr(x, y)
                    if "exact" in flags:
                        bad.append(B.ne(B.and_(B.shl(r, y), M), x))
                else:
                    r = B.and_(B.ashr(self._sext(x, w), y), M)
                    if "exact" in flags:
                        bad.append(B.ne(B.and_(B.shl(r, y), M), x))
            vals.append(r)
            pois.append(self._or(*bad))
        return Lanes(vals, pois, w)

    def icmp(self, ins: Inst) -> Lanes:
        B = self.B
        a, b = (self.operand(o) for o in ins.operands[:2])
        words = self._flags(ins)
        samesign = "samesign" in words
        preds = [x for x in words if x != "samesign"]
        if len(preds) != 1:
            raise self._unsupported(f"icmp '{' '.join(words)}'")
        pred = preds[0]
        w = a.width
        if a.hi is not None or b.hi is not None or a.parts is not None or a.ty or w > 32:
            if a.hi is None or b.hi is None or a.parts is not None or a.ty or samesign:
                raise self._unsupported(f"icmp '{' '.join(words)}' of type {ins.operands[0].type}")
            if pred not in wideir.PREDS:
                raise self._unsupported(f"icmp predicate '{pred}'")
            assert a.hi is not None and b.hi is not None  # both halves (the low ones alone decide nothing)
            vals = [B.bool_value(wideir.compare64(B, pred, (a.vals[i], a.hi[i]), (b.vals[i], b.hi[i])))
                    for i in range(self.wave)]
            return Lanes(vals, [self._or(a.poison[i], b.poison[i]) for i in range(self.wave)], 1)
        vals, pois = [], []
        for i in range(self.wave):
            x, y = a.vals[i], b.vals[i]
            sx, sy = self._sext(x, w), self._sext(y, w)
            c = self._compare(pred, x, y, sx, sy)
            bad = [a.poison[i], b.poison[i]]
            if samesign:
                nx, ny = B.slt(sx, 0), B.slt(sy, 0)
                bad.append(B.or_b(B.and_b(nx, B.not_b(ny)), B.and_b(ny, B.not_b(nx))))
            vals.append(B.bool_value(c))
            pois.append(self._or(*bad))
        return Lanes(vals, pois, 1)

    def _compare(self, pred: str, x: Any, y: Any, sx: Any, sy: Any) -> Any:
        B = self.B
        if pred == "eq":
            return B.eq(x, y)
        if pred == "ne":
            return B.ne(x, y)
        if pred in ("ult", "ule", "ugt", "uge"):
            a, b = (x, y) if pred in ("ult", "ule") else (y, x)
            return B.ult(a, b) if pred in ("ult", "ugt") else B.ule(a, b)
        if pred in ("slt", "sle", "sgt", "sge"):
            a, b = (sx, sy) if pred in ("slt", "sle") else (sy, sx)
            return B.slt(a, b) if pred in ("slt", "sgt") else B.sle(a, b)
        raise self._unsupported(f"icmp predicate '{pred}'")

    def select(self, ins: Inst) -> Lanes:
        B = self.B
        if self._flags(ins):
            raise self._unsupported(f"select flags '{' '.join(self._flags(ins))}'")
        c, a, b = (self.operand(o) for o in ins.operands[:3])
        if c.width != 1:
            raise self._unsupported("select on a vector condition")
        mm = self._minmax(ins, a, b) if getattr(B, "aci", False) else None
        if mm is not None:
            # select (icmp ugt x, y), x, y is umax(x, y) (LLVM's InstCombine
            # makes it the intrinsic); poison where the compare is, which is
            # poison where x or y is, as the select is
            f = getattr(B, mm)
            return Lanes([f(a.vals[i], b.vals[i]) for i in range(self.wave)], list(c.poison), a.width, a.is_float)
        vals, pois = [], []
        for i in range(self.wave):
            t = B.ne(c.vals[i], 0)
            vals.append(B.ite(t, a.vals[i], b.vals[i]))
            pois.append(B.or_b(c.poison[i], B.and_b(t, a.poison[i]), B.and_b(B.not_b(t), b.poison[i])))
        return Lanes(vals, pois, a.width, a.is_float)

    _MINMAX = {"ugt": "umax", "uge": "umax", "ult": "umin", "ule": "umin",
               "sgt": "smax", "sge": "smax", "slt": "smin", "sle": "smin"}
    _SWAPPED = {"umax": "umin", "umin": "umax", "smax": "smin", "smin": "smax"}

    def _minmax(self, ins: Inst, a: Lanes, b: Lanes) -> str | None:
        """"umax" etc. when select `ins` picks between the operands of the
        i32 compare that is its condition (the same values, either order),
        so it is their min or max: one term the GPU's v_max/v_min (and a
        nest of them in any order) meets, where the backend keeps min/max
        nests canonical (smt.Z3(aci=True), verify tv's kernels; elsewhere the
        select as it is, which z3 settles faster than a max in another
        operand order)."""
        cond = ins.operands[0]
        if cond.kind != "ref" or a.width != 32 or a.is_float or a.hi is not None or a.parts is not None:
            return None
        if self._defs is None:
            self._defs = {i.key: i for i in self._fn_insts}
        cmp = self._defs.get(cond.key)
        if cmp is None or cmp.opcode != "icmp" or len(cmp.operands) < 2:
            return None
        flags = self._flags(cmp)
        kind = self._MINMAX.get(flags[0]) if len(flags) == 1 else None  # (samesign: not this)
        x, y = cmp.operands[0], cmp.operands[1]
        if kind is None or x.kind != "ref" or y.kind != "ref" or x.key not in self.env or y.key not in self.env:
            return None
        if self.env[x.key] is a and self.env[y.key] is b:
            return kind
        if self.env[x.key] is b and self.env[y.key] is a:
            return self._SWAPPED[kind]
        return None

    def cast(self, ins: Inst) -> Lanes:
        B = self.B
        a = self.operand(ins.operands[0])
        w, fl = TYPES[ins.type]
        flags = self._flags(ins)
        op = ins.opcode
        allowed = {"zext": {"nneg"}, "trunc": {"nuw", "nsw"}}.get(op, set())
        for f in flags:
            if f not in allowed:
                raise self._unsupported(f"flag '{f}' on {op}")
        vals, pois = [], []
        for i in range(self.wave):
            x = a.vals[i]
            bad = [a.poison[i]]
            if op == "zext":
                r = x
                if "nneg" in flags:
                    bad.append(B.slt(self._sext(x, a.width), 0))
            elif op == "sext":
                r = self._trunc(self._sext(x, a.width), w)
            elif op == "trunc":
                r = self._trunc(x, w)
                if "nuw" in flags:
                    bad.append(B.ne(r, x))
                if "nsw" in flags:
                    bad.append(B.ne(self._sext(r, w), self._sext(x, a.width)))
            else:  # bitcast between i32 and float
                if w != a.width:
                    raise self._unsupported(f"bitcast {ins.operands[0].type} to {ins.type}")
                r = x
            vals.append(r)
            pois.append(self._or(*bad))
        return Lanes(vals, pois, w, fl)

    def freeze(self, ins: Inst) -> Lanes:
        B = self.B
        a = self.operand(ins.operands[0])
        if all(p is False for p in a.poison):
            return Lanes(list(a.vals), list(a.poison), a.width, a.is_float)
        fresh = self._new_choice("freeze")
        self.choices.append(Choice(ins.span, "freeze of poison", list(a.poison), list(a.vals)))
        vals = [B.ite(a.poison[i], self._trunc(fresh[i], a.width), a.vals[i]) for i in range(self.wave)]
        return Lanes(vals, [False] * self.wave, a.width, a.is_float)

    def fbinop(self, ins: Inst) -> Lanes:
        B = self.B
        flags = self._flags(ins)
        for f in flags:
            if f not in ("nnan", "ninf"):
                raise self._unsupported(f"fast-math flag '{f}' on {ins.opcode}")
        if "ninf" in flags:
            raise self._unsupported(f"fast-math flag 'ninf' on {ins.opcode}")
        a, b = (self.operand(o) for o in ins.operands[:2])
        vals, pois = [], []
        for i in range(self.wave):
            y = b.vals[i] if ins.opcode == "fadd" else B.xor(b.vals[i], B.const(0x80000000))
            r = B.fadd(a.vals[i], y)  # a - b is a + (-b) exactly  [S:f32]
            bad = [a.poison[i], b.poison[i]]
            if "nnan" in flags:
                bad += [B.fis_nan(a.vals[i]), B.fis_nan(b.vals[i]), B.fis_nan(r)]
            vals.append(r)
            pois.append(self._or(*bad))
        return Lanes(vals, pois, 32, True)

    # ---- vectors, 64-bit values, pointers: moves of their pieces --------------
    def vector_op(self, ins: Inst) -> Lanes:
        """extractelement/insertelement at a constant index (past the end:
        poison, LangRef), shufflevector with a constant mask (a poison mask
        element: a poison element)."""
        op = ins.opcode
        if op == "shufflevector":
            a, b = self.operand(ins.operands[0]), self.operand(ins.operands[1])
            tt = ttype(ins.type)
            m = re.search(r"(<\s*\d+\s+x\s+i32>)\s+(.*)$", ins.text)
            mask = _vector_elems(f"{m.group(1)} {m.group(2)}", m.group(1)) if m else None
            if tt is None or mask is None or a.parts is None or b.parts is None:
                raise self._unsupported(f"shufflevector '{ins.text.split('=', 1)[-1].strip()}'")
            n = len(a.parts)
            src = a.parts + b.parts
            elems = [src[k] if k is not None and k < 2 * n else self._poison_of(tt.elem) for k in mask]
            return Lanes(elems[0].vals, elems[0].poison, tt.bits * len(elems), False, None, elems, tt.text)
        vec = self.operand(ins.operands[0])
        tv = ttype(ins.operands[0].type)
        ix = ins.operands[1 if op == "extractelement" else 2]
        if tv is None or vec.parts is None:
            raise self._unsupported(f"{op} of type {ins.operands[0].type}")
        if ix.kind != "const":
            raise self._unsupported(f"{op} at a variable index")
        k = ix.value
        if op == "extractelement":
            return vec.parts[k] if k < len(vec.parts) else self._poison_of(tv.elem)
        e = self.operand(ins.operands[1])
        if k >= len(vec.parts):
            parts = [self._poison_of(tv.elem) for _ in vec.parts]
        else:
            parts = list(vec.parts)
            parts[k] = e
        return Lanes(parts[0].vals, parts[0].poison, vec.width, False, None, parts, tv.text)

    def _poison_of(self, tt: TType) -> Lanes:
        W = self.wave
        return assemble(self.B, tt, [Lanes([self.B.const(0)] * W, [True] * W, w) for w in tt.pieces()])

    def reinterpret(self, ins: Inst) -> Lanes:
        """bitcast between types of the same size, ptrtoint, inttoptr: the
        same bits (LangRef), re-cut into the result's pieces.  A result
        element is poison where a source element it takes bits from is (a
        poison element of a vector makes the integer it is cast to poison).
        ptrtoint/inttoptr to a narrower type truncate, to a wider one
        zero-extend (LangRef)."""
        B, W = self.B, self.wave
        src_t, dst_t = ttype(ins.operands[0].type), ttype(ins.type)
        if src_t is None or dst_t is None or any(w not in (16, 32) for w in src_t.pieces() + dst_t.pieces()):
            raise self._unsupported(f"{ins.opcode} {ins.operands[0].type} to {ins.type}")
        if self._flags(ins):
            raise self._unsupported(f"flag '{self._flags(ins)[0]}' on {ins.opcode}")
        x = self.operand(ins.operands[0])
        ps = pieces_of(x, src_t)
        # the value as 16-bit chunks, each with its piece's poison
        chunks: list[tuple[list[Any], list[Any]]] = []
        for p, w in zip(ps, src_t.pieces()):
            if w == 16:
                chunks.append((p.vals, p.poison))
            else:
                chunks.append(([B.and_(v, B.const(0xFFFF)) for v in p.vals], p.poison))
                chunks.append(([B.lshr(v, B.const(16)) for v in p.vals], p.poison))
        need = sum(dst_t.pieces()) // 16
        if ins.opcode == "bitcast" and need != len(chunks):
            raise self._unsupported(f"bitcast {ins.operands[0].type} to {ins.type} (sizes differ)")
        if ins.opcode == "bitcast" and src_t.pieces() == dst_t.pieces():
            return assemble(B, dst_t, [Lanes(p.vals, p.poison, p.width) for p in ps])
        zero = ([B.const(0)] * W, [False] * W)
        chunks = (chunks + [zero] * need)[:need]  # (truncate, or zero-extend)
        out, k = [], 0
        for w in dst_t.pieces():
            if w == 16:
                out.append(Lanes(chunks[k][0], chunks[k][1], 16))
                k += 1
            else:
                (lo, plo), (hi, phi) = chunks[k], chunks[k + 1]
                out.append(Lanes([B.or_(a, B.shl(b, B.const(16))) for a, b in zip(lo, hi)],
                                 [B.or_b(a, b) for a, b in zip(plo, phi)], 32))
                k += 2
        return assemble(B, dst_t, out)

    def ext64(self, ins: Inst) -> Lanes:
        """zext/sext of i1..i16 to i64 (zext nneg: poison if the sign bit is set)."""
        B, W = self.B, self.wave
        a = self.operand(ins.operands[0])
        flags = self._flags(ins)
        if a.hi is not None or a.parts is not None or flags not in ([], ["nneg"]) or (flags and ins.opcode != "zext"):
            raise self._unsupported(f"{ins.opcode} {ins.operands[0].type} to i64")
        if ins.opcode == "zext":
            lo, hi = list(a.vals), [B.const(0)] * W
        else:
            lo = [self._sext(v, a.width) for v in a.vals]
            hi = [B.ashr(v, B.const(31)) for v in lo]
        pois = list(a.poison) if not flags else [B.or_b(p, B.slt(self._sext(v, a.width), 0))
                                                 for p, v in zip(a.poison, a.vals)]
        return Lanes(lo, pois, 64, False, hi)

    def wide_select_freeze(self, ins: Inst) -> Lanes:
        """select and freeze of a value of several pieces (or a half, a
        pointer), piece by piece: select takes the chosen side's poison
        (each element's), freeze makes each poison piece a choice."""
        B, W = self.B, self.wave
        tt = ttype(ins.type)
        assert tt is not None
        if self._flags(ins):
            raise self._unsupported(f"{ins.opcode} flags '{' '.join(self._flags(ins))}'")
        if ins.opcode == "freeze":
            x = self.operand(ins.operands[0])
            outs = []
            for p in pieces_of(x, tt):
                if all(q is False for q in p.poison):
                    outs.append(p)
                    continue
                fresh = self._new_choice("freeze")
                self.choices.append(Choice(ins.span, "freeze of poison", list(p.poison), list(p.vals)))
                outs.append(Lanes([B.ite(p.poison[i], self._trunc(fresh[i], p.width), p.vals[i]) for i in range(W)],
                                  [False] * W, p.width))
            return assemble(B, tt, outs)
        c, a, b = (self.operand(o) for o in ins.operands[:3])
        if c.width != 1 or c.parts is not None:
            raise self._unsupported("select on a vector condition")

        def sel(xs: list[Lanes]) -> Lanes:
            x, y = xs
            vals, pois = [], []
            for i in range(W):
                t = B.ne(c.vals[i], 0)
                vals.append(B.ite(t, x.vals[i], y.vals[i]))
                pois.append(B.or_b(c.poison[i], B.and_b(t, x.poison[i]), B.and_b(B.not_b(t), y.poison[i])))
            return Lanes(vals, pois, x.width, x.is_float, x.hi)
        if not tt.wide:
            return sel([a, b])
        return assemble(B, tt, [sel([p, q]) for p, q in zip(pieces_of(a, tt), pieces_of(b, tt))])

    # ---- intrinsics: verify's own instruction definitions -------------------
    def _exec_asm(self, text: str) -> None:
        assert self.cur is not None
        m = self._m()
        ins: Instr = parse_line(text, self.cur.span)
        op = op_of(ins.base)
        try:
            op.check(ins, self.target, self.wave)
        except InputError as e:
            raise self._unsupported(f"{self.cur.callee} on {self.target.name} wave{self.wave}: {e.message}") from None
        m.run([ins])

    def _put(self, reg: int, vals: list[Any]) -> None:
        self._m().vregs[reg] = list(vals)

    def _get(self, reg: int) -> list[Any]:
        return list(self._m().vregs[reg])

    def lanes_on(self) -> list[Any]:
        """The lanes the current instruction runs in: EXEC's, or every lane in whole-wave mode."""
        return [True] * self.wave if self.whole else self.active()

    def active(self) -> list[Any]:
        """The lanes that run the current block: EXEC's lanes that reached it."""
        if self.here is None:
            return self.act
        return [self.B.and_b(a, h) for a, h in zip(self.act, self.here)]

    def _sync_exec(self) -> None:
        """The intrinsics' machine runs with EXEC = the lanes of the current block."""
        if self.machine is None:
            return
        if self.here is None:
            lo, hi = self.exec_lo, self.exec_hi
        else:
            lo, hi = self.machine.from_lane_bits(self.active())
        self.machine.set_s("exec_lo", lo)
        self.machine.set_s("exec_hi", hi)

    def _poison_any_active(self, lanes: Lanes) -> Any:
        B = self.B
        return B.or_b(*[B.and_b(self.lanes_on()[i], lanes.poison[i]) for i in range(self.wave)])

    def _uniform(self, x: Lanes, what: str, sgpr: str | None = None) -> tuple[str, Any]:
        """A scalar operand: a constant's text, or an SGPR holding the first
        active lane's value; poison when it is not uniform over the active
        lanes (LLVM: the operand must be uniform, else the result is
        undefined) or poison in an active lane."""
        B = self.B
        if all(v is x.vals[0] for v in x.vals) and isinstance(x.vals[0], int) and all(p is False for p in x.poison):
            if sgpr is None:
                return str(x.vals[0]), False
            self._m().set_s(sgpr, x.vals[0])  # (a VOP3 takes one literal: constants go in SGPRs)
            return sgpr, False
        reg = sgpr or (_SA if what == "a" else _SB)
        self._put(_S2, x.vals)
        self._exec_asm(f"v_readfirstlane_b32 {reg}, v{_S2}")
        s = self._m().s(reg)
        bad = B.or_b(*[B.and_b(self.lanes_on()[i], B.or_b(x.poison[i], B.ne(x.vals[i], s))) for i in range(self.wave)])
        return reg, bad

    def _moved(self, mv: Move) -> list[tuple[list[Any], list[Any]]]:
        """Run data-movement instruction `mv` on the IR values, then once
        more on their poison bits: a lane of a result is poison exactly when
        the lane it read was (and where `mv.bad` says).  A data operand read
        across lanes gets poison where its lane did not run its definition
        (`crossed`), with the same instruction run on those lanes' marks
        deciding where that can reach.  The one place the "re-run on the
        poison bits" step is written.  Returns (values, poison) per result
        register."""
        B, W = self.B, self.wave
        assert self.cur is not None
        outs: list[int] = [_D] if isinstance(mv.out, str) else list(mv.out)
        for r, vals in mv.ctl.items():
            self._put(r, vals)
        data: list[tuple[int, Lanes]] = []
        for reg, k, lv in mv.data:
            if k is not None:
                lv = self.crossed(self.cur.operands[k], lv, self._flow(mv, reg))
            data.append((reg, lv))
        regs = {reg for reg, _ in data}
        got: list[list[list[Any]]] = []
        for bits in (False, True):
            for r in outs:
                if r not in regs:
                    self._put(r, [B.const(0)] * W)
            for reg, lv in data:
                self._put(reg, [B.bool_value(p) for p in lv.poison] if bits else lv.vals)
            self._exec_asm(mv.asm)
            got.append([[self._m().s(_SD)] * W] if mv.out == "s" else [self._get(r) for r in outs])
        res = []
        for vals, taint in zip(*got):
            pois = [B.ne(t, 0) for t in taint]
            if mv.bad is not None:
                pois = [B.or_b(p, b) for p, b in zip(pois, mv.bad)]
            res.append((vals, pois))
        return res

    def _flow(self, mv: Move, reg: int) -> Callable[[list[Any]], list[Any]]:
        """For `crossed`: the lanes into which `mv` (its other operands in
        place) moves a marked lane of register `reg`: every other data and
        result register unmarked."""
        B = self.B

        def run(marks: list[Any]) -> list[Any]:
            outs: list[int] = [_D] if isinstance(mv.out, str) else list(mv.out)
            for r in [*outs, *(d for d, _, _ in mv.data)]:
                if r != reg:
                    self._put(r, [B.const(0)] * self.wave)
            self._put(reg, [B.bool_value(c) for c in marks])
            self._exec_asm(mv.asm)
            if mv.out == "s":
                return [B.ne(self._m().s(_SD), 0)] * self.wave
            got = [self._get(r) for r in outs]
            return [B.or_b(*(B.ne(g[i], 0) for g in got)) for i in range(self.wave)]
        return run

    def call(self, ins: Inst) -> Lanes:
        """An amdgcn intrinsic, by its row of INTRINSIC_TABLE: the result
        types it is modelled for, its semantics and its poison rule."""
        if ins.callee in barrier.IR_NAMES:  # one wave: an ordering point only  [S:one-wave-barrier]
            return barrier.ir_call(self, ins)
        name = intrinsic_name(ins.callee)
        if name is None:
            raise self._unsupported(f"call to @{ins.callee}")
        row = INTRINSIC_TABLE[name]
        tt = ttype(ins.type)
        if row.split and tt is not None and ins.type not in ("i32", "float") and (
                row.split is True or (isinstance(row.split, tuple) and ins.type in row.split)):
            return self._call_pieces(ins, row, tt)
        if ins.type.replace(" ", "") not in row.types:
            raise self._unsupported(f"@{ins.callee} of type {ins.type}")
        args = [self.operand(o) for o in ins.operands[:-1]]
        return self._finish(row, ins, args, row.sem(self, ins, args))

    def _call_pieces(self, ins: Inst, row: Intrinsic, tt: TType) -> Lanes:
        """An intrinsic of a type of several 32-bit pieces (or fewer than 32
        bits): the i32 intrinsic on each piece of its data operands (those
        of the result's type), as LLVM legalises it (one 32-bit move per
        dword: `v_mov_b32_dpp` on each half of an i64, a readlane per
        dword); its other operands (a lane, a select) the same for each."""
        B = self.B
        args = [self.operand(o) for o in ins.operands[:-1]]
        split = [pieces_of(a, tt) if o.type == ins.type else None for a, o in zip(args, ins.operands[:-1])]

        def run(k: int) -> Lanes:
            ak = [sp[k] if sp is not None else a for a, sp in zip(args, split)]
            return self._finish(row, ins, ak, row.sem(self, ins, ak))
        widths = tt.pieces()
        outs: list[Lanes | None] = [None] * len(widths)
        packed: dict[int, list[tuple[int, int]]] = {}  # register -> (piece, bit offset): 16-bit elements
        for k, (r, off, _) in enumerate(tt.slots()):
            packed.setdefault(r, []).append((k, off))
        known: dict[int, list[Any]] = {}
        for r, group in packed.items():
            if len(group) == 1:
                k = group[0][0]
                lv = run(k)
                outs[k] = Lanes([self._trunc(v, widths[k]) for v in lv.vals], lv.poison, widths[k])
                continue
            # two 16-bit elements in one register: the values move as the
            # register LLVM moves (one 32-bit move of the packed dword); each
            # element's poison as that element's own move gives it
            k0 = group[0][0]
            def pack(sp: list[Lanes], i: int, group: list[tuple[int, int]] = group) -> Any:
                out = sp[group[0][0]].vals[i]
                for k, off in group[1:]:
                    out = B.or_(out, B.shl(sp[k].vals[i], B.const(off)))
                return out
            words = [None if sp is None else Lanes(
                a.words[r] if a.words is not None and r in a.words else [pack(sp, i) for i in range(self.wave)],
                sp[k0].poison, 32) for a, sp in zip(args, split)]
            aw = [w if w is not None else a for a, w in zip(args, words)]
            lw = self._finish(row, ins, aw, row.sem(self, ins, aw))
            known[r] = lw.vals
            for k, off in group:
                pois = lw.poison if k == k0 else run(k).poison
                outs[k] = Lanes([B.and_(B.lshr(v, B.const(off)) if off else v, B.const(0xFFFF)) for v in lw.vals],
                                pois, widths[k])
        res = assemble(B, tt, [o for o in outs if o is not None])
        if known:
            res.words = known
        return res

    def _finish(self, row: Intrinsic, ins: Inst, args: list[Lanes], out: Lanes | Move) -> Lanes:
        """An intrinsic's result from its semantics, under its row's poison rule."""
        B, W = self.B, self.wave
        fl = "float" in ins.type
        if isinstance(out, Move):
            res = self._moved(out)
            if len(res) == 1:
                return Lanes(res[0][0], res[0][1], 32, fl)
            parts = [Lanes(v, p, 32, fl) for v, p in res]
            return Lanes(parts[0].vals, parts[0].poison, 32, fl, parts=parts)
        if row.poison == "lanewise":  # poison where an operand is, lane by lane
            ps = [a.poison for a in args]
            pois = list(ps[0]) if len(ps) == 1 else [B.or_b(*c) for c in zip(*ps)]
            return Lanes(out.vals, pois, out.width, out.is_float, out.hi)
        if row.poison == "uniform":  # poison everywhere if an operand is poison in an active lane
            p = B.or_b(*(self._poison_any_active(a) for a in args if any(x is not False for x in a.poison)))
            return Lanes(out.vals, [p] * W, out.width, out.is_float, out.hi)
        return out


    def ballot(self, ins: Inst, width: int) -> Lanes:
        """llvm.amdgcn.ballot.i32/i64(i1 c): a mask of the lanes where c is
        true, inactive lanes 0 (v_cmp_ne_u32 of c with 0, which writes 0 for
        inactive lanes); i32 in wave32, i64 in either wave (wave32: the high
        half 0).  i32 in wave64 is unsupported (LLVM: invalid).  Poison when
        c is poison in an active lane.  [S:vopc]"""
        B, W = self.B, self.wave
        (c,) = [self.operand(o) for o in ins.operands[:-1]]
        if width == 32 and W != 32:
            raise self._unsupported(f"@{ins.callee} in wave{W} (LLVM: ballot.i32 needs wave32)")
        self._put(_S1, c.vals)
        if W == 64:
            self._exec_asm(f"v_cmp_ne_u32_e64 s[90:91], 0, v{_S1}")
            lo, hi = self._m().s("s90"), self._m().s("s91")
        else:
            self._exec_asm(f"v_cmp_ne_u32_e64 {_SD}, 0, v{_S1}")
            lo, hi = self._m().s(_SD), B.const(0)
        p = self._poison_any_active(c)
        return Lanes([lo] * W, [p] * W, width, False, [hi] * W if width == 64 else None)

    def wave_reduce(self, ins: Inst, x: Lanes) -> Lanes:
        """llvm.amdgcn.wave.reduce.OP(value, strategy): OP folded over the
        value in every active lane, the same result in every lane
        (AMDGPUUsage); the strategy operand is a lowering hint (0 default,
        1 iterative, 2 DPP) without effect on the value.  No instruction
        computes it, so its definition is here, over the backend's
        operations (verify/identities.py).  The integer operations are
        associative and commutative: any order gives the same value.  For
        the float ones LLVM's docs name no order (nor how -0.0, NaN or
        rounding combine); verify folds in lane-ascending order from the
        start value LLVM's iterative lowering uses (-0.0 for fadd, +0.0 minus
        each value for fsub, a NaN for fmin/fmax): one of the values the
        IR admits if any order is allowed, so a GPU summing in another order
        can be refuted falsely, never proved falsely.  Poison when the value
        is poison in an active lane."""
        B, W = self.B, self.wave
        if x.hi is not None:
            return self._wave_reduce64(ins, x)
        m = re.match(r"llvm\.amdgcn\.wave\.reduce\.(\w+)\.(i32|f32|float)$", ins.callee)
        if m is None or m.group(1) not in WAVE_REDUCE:
            raise self._unsupported(f"@{ins.callee}")
        kind = m.group(1)
        fold, start = WAVE_REDUCE[kind]
        if (kind[0] == "f") != x.is_float or ins.operands[1].kind != "const":
            raise self._unsupported(f"@{ins.callee} with these operands")
        on = self.lanes_on()
        acc = B.const(start)
        uniform = all(v is x.vals[0] for v in x.vals)
        if uniform and not x.is_float:
            # the same fold, in closed form (n active lanes holding v): n*v
            # for add and sub, v times n's parity for xor, v for the
            # idempotent ones (at least one lane is active)
            v, n = x.vals[0], self._count_active()
            if fold == "add":
                acc = B.mul(v, n)
            elif fold == "xor":
                acc = B.mul(v, B.and_(n, B.const(1)))
            else:
                acc = B.ite(B.or_b(*on), v, acc)
        for i in range(0 if uniform and not x.is_float else W):
            v = x.vals[i]
            if fold == "fsub":
                r = B.fadd(acc, B.xor(v, B.const(0x80000000)))  # a - b is a + (-b) exactly  [S:f32]
            else:
                r = getattr(B, OPERATIONS[fold].method)(acc, v)
            acc = B.ite(on[i], r, acc)
        if kind == "sub":
            acc = B.sub(B.const(0), acc)
        p = self._poison_any_active(x)
        return Lanes([acc] * W, [p] * W, 32, x.is_float)

    # i64 wave.reduce: the start value of each fold, as (lo, hi)
    _START64 = {"umin": (M32, M32), "umax": (0, 0), "min": (M32, 0x7FFFFFFF), "max": (0, 0x80000000),
                "add": (0, 0), "sub": (0, 0), "and": (M32, M32), "or": (0, 0), "xor": (0, 0)}

    def _op64(self, kind: str, a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
        """One step of an i64 fold on (lo, hi) pairs."""
        B = self.B
        if kind in ("and", "or", "xor"):
            f = {"and": B.and_, "or": B.or_, "xor": B.xor}[kind]
            return f(a[0], b[0]), f(a[1], b[1])
        if kind in ("add", "sub"):
            lo = B.add(a[0], b[0])
            return lo, B.add(B.add(a[1], b[1]), B.bool_value(B.ult(lo, a[0])))
        # b < a for min, a < b for max, as the GPU's v_cmp_lt/gt_u64 (and
        # i64) order the pairs (ops.addr.order64): the same terms on both sides
        signed = kind in ("min", "max")
        pick_b = order64(B, signed, True, b, a) if kind in ("umin", "min") else order64(B, signed, True, a, b)
        return B.ite(pick_b, b[0], a[0]), B.ite(pick_b, b[1], a[1])

    def _wave_reduce64(self, ins: Inst, x: Lanes) -> Lanes:
        """wave.reduce.OP.i64: the fold of OP over the active lanes on 64-bit
        values, as for i32 (`wave_reduce`); a uniform value in closed form
        (n*v for add and sub, its high word as s_mul_hi_u32 computes it;
        v times n's parity for xor; v for the others)."""
        B, W = self.B, self.wave
        m = re.match(r"llvm\.amdgcn\.wave\.reduce\.(\w+)\.i64$", ins.callee)
        if m is None or m.group(1) not in self._START64 or ins.operands[1].kind != "const":
            raise self._unsupported(f"@{ins.callee}")
        assert x.hi is not None
        kind = m.group(1)
        on = self.lanes_on()
        s0, s1 = self._START64[kind]
        acc: tuple[Any, Any] = (B.const(s0), B.const(s1))
        if all(v is x.vals[0] for v in x.vals) and all(h is x.hi[0] for h in x.hi):
            v = (x.vals[0], x.hi[0])
            n = self._count_active()
            if kind in ("add", "sub"):
                # the high word as the GPU's s_mul_hi_u32 spells it (ops.addr.mul_hi_u32,
                # exact for any n): LLVM's split multiply then meets it term for term
                acc = (B.mul(v[0], n), B.add(mul_hi_u32(B, v[0], n), B.mul(v[1], n)))
            elif kind == "xor":
                par = B.and_(n, B.const(1))
                acc = (B.mul(v[0], par), B.mul(v[1], par))
            else:
                some = B.or_b(*on)
                acc = (B.ite(some, v[0], acc[0]), B.ite(some, v[1], acc[1]))
        else:
            for i in range(W):
                r = self._op64(kind, acc, (x.vals[i], x.hi[i]))
                acc = (B.ite(on[i], r[0], acc[0]), B.ite(on[i], r[1], acc[1]))
        if kind == "sub":  # 0 minus the sum
            lo = B.sub(B.const(0), acc[0])
            acc = (lo, B.sub(B.sub(B.const(0), acc[1]), B.bool_value(B.ne(acc[0], 0))))
        p = self._poison_any_active(x)
        return Lanes([acc[0]] * W, [p] * W, 64, False, [acc[1]] * W)

    def _popcount(self, lo: Any, hi: Any | None) -> Any:
        """Set bits of a 32- or 64-bit value, counted per half (as s_bcnt1 counts)."""
        B = self.B
        n = B.popcount([B.bit(lo, k) for k in range(32)])
        return n if hi is None else B.add(n, B.popcount([B.bit(hi, k) for k in range(32)]))

    def _count_active(self) -> Any:
        if self.whole:
            return self.B.const(self.wave)
        return self._popcount(self.exec_lo, self.exec_hi if self.wave == 64 else None)

    def extractvalue(self, ins: Inst) -> Lanes:
        m = re.search(r",\s*(\d+)\s*$", ins.text)
        agg = self.env.get(ins.operands[0].key) if ins.operands[0].kind == "ref" else None
        if m is None or agg is None or agg.parts is None or int(m.group(1)) >= len(agg.parts):
            raise self._unsupported("extractvalue of a value verify does not model")
        return agg.parts[int(m.group(1))]

    def wave_shuffle(self, x: Lanes, idx: Lanes, fl: bool) -> Lanes:
        """llvm.amdgcn.wave.shuffle(value, index): lane i gets `value` at
        lane index mod W; reading an inactive lane is poison (the intrinsic's
        definition in IntrinsicsAMDGPU.td)."""
        B, W = self.B, self.wave
        vals, pois = [], []
        pv = [B.bool_value(p) for p in x.poison]
        for i in range(W):
            j = B.and_(idx.vals[i], B.const(W - 1))
            vals.append(B.select(x.vals, j))
            src_active = B.select(self.lanes_on(), j)
            pois.append(B.or_b(idx.poison[i], B.not_b(src_active), B.ne(B.select(pv, j), 0)))
        return Lanes(vals, pois, 32, fl)


# ---- the amdgcn intrinsics, one row each ---------------------------------------


@dataclass
class Move:
    """A data-movement instruction an intrinsic is: `asm` run with `data`
    (register, the operand index when the instruction reads it across lanes
    (`IRRun.crossed`; None: each lane reads its own or the machine's rule
    applies), its value) and `ctl` (register -> lane values, no poison of
    their own) in place; the results are `out`'s registers, or "s": the
    SGPR _SD, the same in every lane.  `bad`: further poison per lane (a
    control operand that is poison or not uniform)."""

    asm: str
    data: list[tuple[int, int | None, Lanes]]
    ctl: dict[int, list[Any]] = field(default_factory=dict)
    out: tuple[int, ...] | str = (_D,)
    bad: list[Any] | None = None


@dataclass(frozen=True)
class Intrinsic:
    """One row of INTRINSIC_TABLE (Alive2's intrinsic table is the model):
    the name after `llvm.amdgcn.`, the overload suffixes accepted (a regular
    expression over what follows the name, '' for none), the result types it
    is modelled for (spaces removed), its semantics and its poison rule:

    * "moved": the semantics gives a :class:`Move` (or, where the intrinsic
      is not the instruction, its own :class:`Lanes`); the poison is the
      same instruction run on the poison bits (`IRRun._moved`);
    * "lanewise": poison in a lane where an operand is poison in that lane;
    * "uniform": poison in every lane where an operand is poison in an
      active lane (a value made of every active lane);
    * "own": the semantics gives the poison too.

    A row with `split` also takes every other type verify tv models (i16,
    half, bfloat, i64, double, pointers, vectors), 32 bits at a time."""

    name: str
    suffix: str
    types: tuple[str, ...]
    poison: str
    sem: Callable[[IRRun, Inst, list[Lanes]], Lanes | Move]
    # every type LLVM accepts for it (llvm_any_ty; legalised into dwords):
    # its other types run piece by piece (`IRRun._call_pieces`)
    split: bool | tuple[str, ...] = False  # (a tuple: only these types)


def _imm(run: IRRun, ins: Inst, k: int) -> int:
    o = ins.operands[k]
    if o.kind != "const":
        raise run._unsupported(f"@{ins.callee} operand {k} must be a constant")
    return o.value


def _sem_workitem_x(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    if run.workitem_x is None:
        raise run._unsupported("workitem.id.x outside a kernel")
    return Lanes(list(run.workitem_x), [False] * run.wave, 32)


def _sem_set_inactive(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    """set.inactive(x, v): x in the active lanes, v in the others (in whole-wave mode)."""
    B, W = run.B, run.wave
    x, v = args
    if not run.whole:
        # no strict.wwm computation reads it: LLVM lowers it to a copy of x
        # (SIWholeQuadMode), whose inactive lanes are not v  [S:wwm-region]
        run.si_copies[ins.key] = ins.name
        return x
    act = run.active()
    return Lanes([B.ite(act[i], x.vals[i], v.vals[i]) for i in range(W)],
                 [B.or_b(B.and_b(act[i], x.poison[i]), B.and_b(B.not_b(act[i]), v.poison[i])) for i in range(W)],
                 32, "float" in ins.type)


def _sem_wwm(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    return Lanes(list(args[0].vals), [], 32, "float" in ins.type)


def _sem_wqm(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    """wqm/softwqm(x): x as computed with the helper lanes of each quad on.
    The live lanes' values are x's own where x's definition reads no other
    lane: only arguments, constants and lane-wise instructions (no call, no
    load) before it; anything else is unsupported  [S:wqm]."""
    assert run.fn is not None
    defs = {i.key: i for i in run.fn.insts}
    todo = [o.key for o in ins.operands[:-1] if o.kind == "ref"]
    seen: set[str] = set()
    while todo:
        k = todo.pop()
        d = defs.get(k)
        if k in seen or d is None:  # (an argument)
            continue
        seen.add(k)
        if d.opcode in ("call", "load", "atomicrmw", "cmpxchg", "phi"):
            raise run._unsupported(f"@{ins.callee} of a value computed by '{d.opcode}' (whole quad mode "
                                   f"reads helper lanes there: not modelled)")
        todo += [o.key for o in d.operands if o.kind == "ref"]
    return Lanes(list(args[0].vals), [], 32, "float" in ins.type)


def _sem_mbcnt(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    a, b = args
    half = intrinsic_name(ins.callee) or ""
    src0 = str(a.vals[0]) if isinstance(a.vals[0], int) and all(v is a.vals[0] for v in a.vals) else f"v{_S2}"
    run._put(_S2, a.vals)
    run._put(_S1, b.vals)
    run._exec_asm(f"v_mbcnt_{half[-2:]}_u32_b32 v{_D}, {src0}, v{_S1}")
    return Lanes(run._get(_D), [], 32)


def _sem_readfirstlane(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    return Move(f"v_readfirstlane_b32 {_SD}, v{_S1}", [(_S1, None, args[0])], out="s")


def _sem_readlane(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    x, lane = args
    sel, bad = run._uniform(lane, "a")
    return Move(f"v_readlane_b32 {_SD}, v{_S1}, {sel}", [(_S1, 0, x)], out="s", bad=[bad] * run.wave)


def _sem_writelane(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    """writelane(value, lane, old): the written lane carries the value's
    poison (any active lane's, the value being read from one), the others
    old's; poison everywhere if the lane or value is not uniform."""
    B = run.B
    val, lane, old = args
    # a lane select in an SGPR goes in M0, as LLVM puts it (v_writelane_b32
    # reads M0 besides one SGPR or literal on targets whose constant bus
    # takes one scalar value)
    const = isinstance(lane.vals[0], int) and all(v is lane.vals[0] for v in lane.vals) and not any(
        p is not False for p in lane.poison)
    sel, bad = run._uniform(lane, "a", None if const else "m0")
    sval, bad2 = run._uniform(val, "b")
    run._put(_D, old.vals)
    run._exec_asm(f"v_writelane_b32 v{_D}, {sval}, {sel}")
    vals = run._get(_D)
    run._put(_D, [B.bool_value(p) for p in old.poison])
    run._m().set_s(_SB, B.bool_value(B.or_b(bad2, run._poison_any_active(val))))
    run._exec_asm(f"v_writelane_b32 v{_D}, {_SB}, {sel}")
    return Lanes(vals, [B.or_b(B.ne(t, 0), bad) for t in run._get(_D)], 32, "float" in ins.type)


def _dpp_asm(run: IRRun, ins: Inst, k: int) -> str:
    # masks above 15: LLVM keeps the low 4 bits [S:dpp-mask-truncate] (verify/tv/immediates.py)
    ctrl, rm, bm, bc = (_imm(run, ins, k), _imm(run, ins, k + 1) & 0xF, _imm(run, ins, k + 2) & 0xF,
                        _imm(run, ins, k + 3))
    text = DPP_CONTROLS.get(ctrl)
    if text is None:
        raise run._unsupported(f"DPP control {ctrl:#x}")
    if text.startswith("row_share:") and run.target.has("dpp_row_newbcast"):  # gfx90a+: 0x150-0x15F  [S:mov-b64-dpp]
        text = text.replace("row_share:", "row_newbcast:")
    return f"v_mov_b32_dpp v{_D}, v{_S1} {text} row_mask:{rm:#x} bank_mask:{bm:#x}" + (" bound_ctrl:1" if bc else "")


def _sem_update_dpp(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    """update.dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl): v_mov_b32_dpp with old in vD."""
    return Move(_dpp_asm(run, ins, 2), [(_D, None, args[0]), (_S1, 1, args[1])])


def _sem_mov_dpp(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    """mov.dpp(src, ...): update.dpp with an unspecified old value (a
    choice the proof ranges over, in the lanes that keep it)."""
    B, W = run.B, run.wave
    fresh = run._new_choice("mov.dpp old")
    old = Lanes(fresh, [False] * W)
    asm = _dpp_asm(run, ins, 1)
    ((vals, pois),) = run._moved(Move(asm, [(_D, None, old), (_S1, 0, args[0])]))
    run._put(_D, [B.const(1)] * W)  # the lanes that kept the (undefined) old value
    run._put(_S1, [B.const(0)] * W)
    run._exec_asm(asm)
    run.choices.append(Choice(ins.span, "the unwritten lanes of mov.dpp", [B.ne(t, 0) for t in run._get(_D)]))
    return Lanes(vals, pois, 32, "float" in ins.type)


def _sem_mov_dpp8(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    sel8 = _imm(run, ins, 1)
    lanes = ",".join(str((sel8 >> (3 * j)) & 7) for j in range(8))
    return Move(f"v_mov_b32_dpp v{_D}, v{_S1} dpp8:[{lanes}]", [(_S1, 0, args[0])])


def _sem_ds_swizzle(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    return Move(f"ds_swizzle_b32 v{_D}, v{_S1} offset:{_imm(run, ins, 1)}", [(_S1, None, args[0])])


def _sem_ds_bpermute(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    addr, src = args
    return Move(f"ds_bpermute_b32 v{_D}, v{_S2}, v{_S1}", [(_S1, None, src)], {_S2: addr.vals}, bad=list(addr.poison))


def _sem_ds_permute(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    addr, src = args
    anyp = run._poison_any_active(addr)  # a poison address in any active lane can land anywhere
    return Move(f"ds_permute_b32 v{_D}, v{_S2}, v{_S1}", [(_S1, None, src)], {_S2: addr.vals}, bad=[anyp] * run.wave)


def _sem_permlane16(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    """permlane16/x16(old, src, sel1, sel2, fi, bound_ctrl); the selects must be uniform."""
    old, src, s1, s2 = args[:4]
    fi, bc = _imm(run, ins, 4), _imm(run, ins, 5)
    sa, bad1 = run._uniform(s1, "a", "s93")
    sb, bad2 = run._uniform(s2, "b", "s94")
    name = intrinsic_name(ins.callee)
    return Move(f"v_{name}_b32 v{_D}, v{_S1}, {sa}, {sb} op_sel:[{fi},{bc}]", [(_D, None, old), (_S1, 1, src)],
                bad=[run.B.or_b(bad1, bad2)] * run.wave)


def _sem_permlane16_var(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    old, src, lsel = args[:3]
    fi, bc = _imm(run, ins, 3), _imm(run, ins, 4)
    name = (intrinsic_name(ins.callee) or "").replace(".", "_")
    return Move(f"v_{name}_b32 v{_D}, v{_S1}, v{_S2} op_sel:[{fi},{bc}]", [(_D, None, old), (_S1, 1, src)],
                {_S2: lsel.vals}, bad=list(lsel.poison))


def _sem_permlane64(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes | Move:
    if run.wave == 32:
        # The intrinsic swaps the halves of a wave64; in wave32 there is one
        # half and the value is returned unchanged (LLVM's reading of "no
        # operation in wave32").  What v_permlane64_b32 does in wave32 is
        # the assumption permlane64.wave32, which the GPU side asks: the
        # two coincide only under its variant `copy`.  [S:permlane64]
        return Lanes(list(args[0].vals), list(args[0].poison), 32, "float" in ins.type)
    return Move(f"v_permlane64_b32 v{_D}, v{_S1}", [(_S1, 0, args[0])])


def _sem_permlane_swap(run: IRRun, ins: Inst, args: list[Lanes]) -> Move:
    """permlane16/32.swap(old, src, fi, bound_ctrl) -> { i32, i32 }:
    v_permlane16/32_swap_b32 with old in vD and src in vS; the pair is (vD,
    vS) afterwards (IntrinsicsAMDGPU.td); both registers are read across lanes."""
    fi, bc = (ins.operands[k].value if ins.operands[k].kind == "const" else None for k in (2, 3))
    if fi is None or bc is None:
        raise run._unsupported(f"@{ins.callee} operand 2 and 3 must be constants")
    name = (intrinsic_name(ins.callee) or "").replace(".", "_")
    asm = f"v_{name}_b32_e64 v{_D}, v{_S1}" + (" fi:1" if fi else "") + (" bound_ctrl:1" if bc else "")
    return Move(asm, [(_D, 0, args[0]), (_S1, 1, args[1])], out=(_D, _S1))


def _sem_wave_shuffle(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    return run.wave_shuffle(args[0], args[1], "float" in ins.type)


def _sem_ballot(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    return run.ballot(ins, 64 if ins.type == "i64" else 32)


def _sem_wave_reduce(run: IRRun, ins: Inst, args: list[Lanes]) -> Lanes:
    return run.wave_reduce(ins, args[0])


_I32F = ("i32", "float")
_OVL = r"(\.\w+)?"  # one overload suffix (.i32, .f32, ...)

INTRINSIC_TABLE: dict[str, Intrinsic] = {r.name: r for r in [
    Intrinsic("workitem.id.x", "", ("i32",), "own", _sem_workitem_x),
    Intrinsic("set.inactive", _OVL, _I32F, "own", _sem_set_inactive, split=True),
    Intrinsic("strict.wwm", _OVL, _I32F, "lanewise", _sem_wwm, split=True),
    Intrinsic("wwm", _OVL, _I32F, "lanewise", _sem_wwm, split=True),
    Intrinsic("mbcnt.lo", "", ("i32",), "lanewise", _sem_mbcnt),
    Intrinsic("mbcnt.hi", "", ("i32",), "lanewise", _sem_mbcnt),
    Intrinsic("readfirstlane", _OVL, _I32F, "moved", _sem_readfirstlane, split=True),
    Intrinsic("readlane", _OVL, _I32F, "moved", _sem_readlane, split=True),
    Intrinsic("writelane", _OVL, _I32F, "own", _sem_writelane, split=True),
    Intrinsic("update.dpp", _OVL, _I32F, "moved", _sem_update_dpp, split=True),
    Intrinsic("mov.dpp", _OVL, _I32F, "own", _sem_mov_dpp, split=("i64",)),
    Intrinsic("mov.dpp8", _OVL, _I32F, "moved", _sem_mov_dpp8, split=True),
    Intrinsic("ds.swizzle", "", _I32F, "moved", _sem_ds_swizzle),
    Intrinsic("ds.bpermute", "", _I32F, "moved", _sem_ds_bpermute),
    Intrinsic("ds.permute", "", _I32F, "moved", _sem_ds_permute),
    Intrinsic("permlane16", _OVL, _I32F, "moved", _sem_permlane16, split=True),
    Intrinsic("permlanex16", _OVL, _I32F, "moved", _sem_permlane16, split=True),
    Intrinsic("permlane16.var", _OVL, _I32F, "moved", _sem_permlane16_var),
    Intrinsic("permlanex16.var", _OVL, _I32F, "moved", _sem_permlane16_var),
    Intrinsic("permlane64", _OVL, _I32F, "moved", _sem_permlane64, split=True),
    Intrinsic("permlane16.swap", _OVL, ("{i32,i32}", "{float,float}"), "moved", _sem_permlane_swap),
    Intrinsic("permlane32.swap", _OVL, ("{i32,i32}", "{float,float}"), "moved", _sem_permlane_swap),
    Intrinsic("wave.shuffle", _OVL, _I32F, "own", _sem_wave_shuffle),
    Intrinsic("ballot", _OVL, ("i32", "i64"), "uniform", _sem_ballot),
    Intrinsic("inverse.ballot", _OVL, ("i1",), "own", lanemask.inverse_ballot),  # [S:ir-inverse-ballot]
    Intrinsic("wqm", _OVL, _I32F, "lanewise", _sem_wqm),
    Intrinsic("softwqm", _OVL, _I32F, "lanewise", _sem_wqm),
    Intrinsic("wave.reduce", r"\.\w+\.\w+", ("i32", "float", "i64"), "uniform", _sem_wave_reduce),
    Intrinsic("icmp", r"\.\w+\.\w+", ("i32", "i64"), "uniform", floatsem.amdgcn_cmp),
    Intrinsic("fcmp", r"\.\w+\.\w+", ("i32", "i64"), "uniform", floatsem.amdgcn_cmp),
]}
