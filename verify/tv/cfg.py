"""Control flow in GPU code, for `verify tv` (docs/tv.md, "Control flow").

The function's instructions are cut into basic blocks at labels and after
branches and exits.  Accepted: `s_branch L`, `s_cbranch_execz/execnz L`,
`s_cbranch_scc0/scc1 L`, `s_cbranch_vccz/vccnz L` to a label of the function,
and the exit (`s_endpgm` for a kernel, `s_setpc_b64` for a function) in any
block; the block graph must be acyclic (a back edge is a loop: refused,
named by its line).  [S:branch]

Execution is exact for every EXEC and every input: the blocks run once each,
in a topological order, each on the machine state merged from its incoming
edges with an if-then-else on the edge conditions (a wave-uniform path
condition: the wave takes one path).  Merging at joins rather than forking
one run per path keeps the terms linear in the number of blocks, and one
solver question covers every path.  Effects that are not machine state (a
store to memory) are guarded by the path condition of their block (`pc`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .. import smt, waits
from ..hazards import sgpr_block_states
from ..ir import Instr
from ..lowering_file import parse_instr
from ..machine import Machine
from ..ops import OPS
from ..ops.base import op_of
from . import casloop

BRANCHES = ("s_branch", "s_cbranch_execz", "s_cbranch_execnz", "s_cbranch_scc0", "s_cbranch_scc1",
            "s_cbranch_vccz", "s_cbranch_vccnz")


@dataclass
class Block:
    label: str  # "" for a block that starts after a branch without a label
    instrs: list[Instr] = field(default_factory=list)
    term: Instr | None = None  # the branch or exit that ends it (None: falls through)
    taken: int | None = None  # the block a branch goes to
    fall: int | None = None  # the next block, when control can fall through


def hazard_instrs(b: Block) -> list[Instr]:
    """A block's instructions as the hazard rules see them from a successor:
    its branch is one wait state (LLVM counts it), which an `s_nop 0` in its
    place gives without reading or writing anything.  [S:trust-hazards]
    (One `s_nop` per branch: the hazard caches key on instructions' ids, so
    every proof of the block, one per EXEC, meets the scans made before.)"""
    if b.term is None or b.term.mnemonic not in BRANCHES or b.term.span is None:
        return b.instrs
    hit = _NOPS.get(id(b.term))
    if hit is None or hit[0] is not b.term:
        if len(_NOPS) >= 4096:
            _NOPS.clear()
        hit = _NOPS[id(b.term)] = (b.term, parse_instr("s_nop 0", b.term.span))
    return b.instrs + [hit[1]]


# id of a branch -> (the branch, kept so the id stays its own; its s_nop)  (hazard_instrs)
_NOPS: dict[int, tuple[Instr, Instr]] = {}


def branch_label(ins: Instr) -> str | None:
    m = re.search(r"\s(\.?[A-Za-z_.$][\w.$]*)\s*$", ins.text.split(";")[0].strip())
    return m.group(1) if m else None


def split_blocks(items: list[tuple[str, Any]], exit_mnemonic: str) -> tuple[list[Block], list[str]]:
    """Basic blocks of ("label", (name, line)) / ("instr", Instr) items in
    layout order, and the problems that make the code unsupported."""
    blocks: list[Block] = [Block("")]
    problems: list[str] = []
    for kind, x in items:
        if kind == "label":
            if blocks[-1].instrs or blocks[-1].term is not None or blocks[-1].label:
                blocks.append(Block(x[0]))
            else:
                blocks[-1].label = x[0]
            continue
        ins: Instr = x
        b = blocks[-1]
        if b.term is not None:
            b = Block("")
            blocks.append(b)
        if ins.mnemonic in BRANCHES or ins.mnemonic == exit_mnemonic:
            b.term = ins
        else:
            b.instrs.append(ins)
    by_label = {b.label: k for k, b in enumerate(blocks) if b.label}
    for k, b in enumerate(blocks):
        t = b.term
        if t is None or t.mnemonic.startswith("s_cbranch"):
            b.fall = k + 1 if k + 1 < len(blocks) else None
            if b.fall is None and k > 0 and (t is not None or b.instrs):
                problems.append(f"the GPU code runs past its last line ({(t or b.instrs[-1]).line}) without "
                                f"{exit_mnemonic}")
        if t is not None and t.mnemonic in BRANCHES:
            lab = branch_label(t)
            if lab is None or lab not in by_label:
                problems.append(f"line {t.line}: {t.text.split(';')[0].strip()}: a branch to a label outside "
                                "the function")
            else:
                b.taken = by_label[lab]
    return blocks, problems


def successors(b: Block) -> list[int]:
    return [s for s in (b.taken, b.fall) if s is not None]


def self_loop(blocks: list[Block], k: int) -> bool:
    """Block k is a loop of the one shape accepted: a conditional branch at
    its end back to its own first line (LLVM's Iterative atomic optimizer and
    wave.reduce loops)."""
    b = blocks[k]
    return b.taken == k and b.term is not None and b.term.mnemonic.startswith("s_cbranch")


def topological(blocks: list[Block]) -> tuple[list[int], str | None]:
    """The blocks reachable from the first, in a topological order, or a
    back edge (a loop of another shape than `self_loop`) named by its
    branch line."""
    state: dict[int, int] = {0: 1}
    post: list[int] = []
    stack: list[tuple[int, int]] = [(0, 0)]
    while stack:
        k, j = stack.pop()
        succ = [s for s in successors(blocks[k]) if not (s == k and self_loop(blocks, k))]
        if j < len(succ):
            stack.append((k, j + 1))
            n = succ[j]
            if state.get(n) == 1:
                t = blocks[k].term
                where = f"line {t.line}: {t.text.split(';')[0].strip()}" if t is not None else f"the end of block {k}"
                return [], f"a loop in the GPU code: {where} goes back to {blocks[n].label or 'an earlier line'}"
            if n not in state:
                state[n] = 1
                stack.append((n, 0))
            continue
        state[k] = 2
        post.append(k)
    return post[::-1], None


def branch_condition(m: Machine, ins: Instr) -> Any:
    """Whether a conditional branch is taken, from the machine state before
    it: EXECZ/VCCZ are EXEC/VCC == 0 (wave32: the low halves only), SCC is
    SCC.  [S:branch]"""
    B = m.B
    mn = ins.mnemonic
    if mn == "s_branch":
        return True
    if "exec" in mn:
        lo, hi = m.exec_pair()
    elif "vcc" in mn:
        lo = m.s("vcc_lo")
        hi = m.s("vcc_hi") if m.W == 64 else B.const(0)
    else:
        return m.scc if mn.endswith("scc1") else B.not_b(m.scc)
    zero = B.and_b(B.eq(lo, B.const(0)), B.eq(hi, B.const(0)))
    return zero if mn.endswith("z") and not mn.endswith("nz") else B.not_b(zero)


class Extra(Protocol):
    """State beside the machine's that a run carries along paths."""

    def save(self) -> Any: ...

    def load(self, s: Any) -> None: ...

    def merge(self, c: Any, a: Any, b: Any) -> Any: ...

    def set_pc(self, pc: Any) -> None: ...


@dataclass
class _State:
    vregs: dict[int, list[Any]]
    sregs: dict[str, Any]
    scc: Any
    queue: list[Any] | None
    extra: Any


def _save(m: Machine, extra: Extra) -> _State:
    return _State({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs), m.scc,
                  None if m.waits is None else list(m.waits.queue), extra.save())


def _load(m: Machine, s: _State, extra: Extra) -> None:
    m.vregs = {k: list(v) for k, v in s.vregs.items()}
    m.sregs = dict(s.sregs)
    m.scc = s.scc
    if m.waits is not None and s.queue is not None:
        m.waits.queue = list(s.queue)
    extra.load(s.extra)


def _merge(m: Machine, c: Any, a: _State, b: _State, extra: Extra) -> _State:
    """The state that is `a` where `c` holds, else `b`."""
    B = m.B
    # a register one side never touched: its entry value, read on that side
    for s, other in ((a, b), (b, a)):
        missing_v = [k for k in other.vregs if k not in s.vregs]
        missing_s = [k for k in other.sregs if k not in s.sregs]
        if missing_v or missing_s:
            _load(m, s, extra)
            for k in missing_v:
                s.vregs[k] = list(m._v(k))
            for n in missing_s:
                s.sregs[n] = m.s(n)
    if type(c) is bool:  # a known path (EXEC concrete): its registers, no selects to build
        w = a if c else b
        vregs = {k: list(w.vregs[k]) for k in a.vregs}
        sregs = {k: w.sregs[k] for k in a.sregs}
    else:
        vregs = {k: [B.ite(c, x, y) for x, y in zip(a.vregs[k], b.vregs[k])] for k in a.vregs}
        sregs = {k: B.ite(c, a.sregs[k], b.sregs[k]) for k in a.sregs}
    scc = a.scc if b.scc is None else b.scc if a.scc is None else B.ite(c, a.scc, b.scc)
    queue = None
    if a.queue is not None and b.queue is not None:  # a result in flight on either path: in flight
        queue = list(a.queue) + [e for e in b.queue if e not in a.queue]
    return _State(vregs, sregs, scc, queue, extra.merge(c, a.extra, b.extra))


# z3 resource units for each of lane_loop's one-iteration questions: a count
# of solver steps, so whether a loop is accepted never depends on how busy the
# machine is (a wall-clock timeout would turn an accepted loop into an
# unsupported one under load).  LLVM 22's Iterative wave.reduce and atomic
# optimizer loops in tests/tv are answered within 0.4 million.
LOOP_RLIMIT = 50_000_000

# lane_loop's answer per loop block (the same blocks are run once per EXEC
# when a kernel is proved per dispatch EXEC); the block is kept, so its id is
# not reused while the entry lives
_SHAPES: dict[tuple[Any, ...], tuple[Block, tuple[str, ...] | None]] = {}


def _stale_vccz(blocks: list[Block], target: Any) -> str | None:
    """Why a `s_cbranch_vccz/vccnz` may read a VCCZ that is not VCC == 0, or
    None.  Before GFX10 a write of vcc_lo or vcc_hi alone does not update
    VCCZ, and at a block's start LLVM takes VCCZ as possibly stale (a
    predecessor may have written half of VCC): SIInsertWaitcnts rewrites VCC
    (`s_mov_b64 vcc, vcc`) before such a branch unless a whole-VCC write
    comes first in the block.  verify reads VCC at the branch, which is right
    only after such a write; elsewhere the branch is not modelled.
    [S:vccz-partial]"""
    if target is None or target.has("vccz_partial_writes"):
        return None
    for b in blocks:
        if b.term is None or b.term.mnemonic not in ("s_cbranch_vccz", "s_cbranch_vccnz"):
            continue
        whole = False
        for ins in b.instrs:
            op = OPS.get(ins.base)
            defs = set(op.defs(ins)) if op is not None else set()
            if {"vcc_lo", "vcc_hi"} <= defs:
                whole = True
            elif defs & {"vcc_lo", "vcc_hi"}:
                whole = False
        if not whole:
            return (f"line {b.term.line}: {b.term.mnemonic} with no write of the whole VCC before it in its block: "
                    "before GFX10 VCCZ may be stale (a write of vcc_lo or vcc_hi alone leaves it) and is not modelled")
    return None


def _smem_pending_in(blocks: list[Block], kernel: bool) -> list[bool]:
    """Per block: whether a scalar memory load may be outstanding at its
    start (a forward may-analysis to a fixed point over every edge, back
    edges too).  A kernel starts with none; a function may start with its
    caller's (until a wait for lgkmcnt 0).  [S:vccz-bug]"""
    def out_of(k: int, pending: bool) -> bool:
        for ins in blocks[k].instrs:
            pending = _smem_step(ins, pending)
        return pending
    pin = [False] * len(blocks)
    if blocks:
        pin[0] = not kernel
    changed = True
    while changed:
        changed = False
        for k, b in enumerate(blocks):
            out = out_of(k, pin[k])
            for succ in (b.taken, b.fall):
                if succ is not None and out and not pin[succ]:
                    pin[succ] = changed = True
    return pin


def _smem_step(ins: Instr, pending: bool) -> bool:
    """Whether a scalar load may be outstanding after `ins`."""
    if waits.lgkm_kind(ins) == "other":
        return True
    if ("lgkm", 0) in waits.waits_of(ins):
        return False
    return pending


def _vccz_bug(blocks: list[Block], kernel: bool) -> str | None:
    """SI/CI (the VCCZ bug): why a `s_cbranch_vccz/vccnz` may read a stale
    VCCZ under LLVM's model (SIInsertWaitcnts): VCCZ is VCC == 0 after a
    write of the whole VCC made while no scalar load is outstanding, with no
    scalar load issued after it; a scalar load outstanding at such a write
    may clobber VCCZ when it completes, and at a block's start VCCZ is taken
    as stale.  None: every such branch reads a VCCZ that is right.
    [S:vccz-bug]"""
    pin = _smem_pending_in(blocks, kernel)
    for k, b in enumerate(blocks):
        if b.term is None or b.term.mnemonic not in ("s_cbranch_vccz", "s_cbranch_vccnz"):
            continue
        pending, right = pin[k], False
        for ins in b.instrs:
            op = OPS.get(ins.base)
            defs = set(op.defs(ins)) if op is not None else set()
            if {"vcc_lo", "vcc_hi"} <= defs:
                right = not pending
            elif defs & {"vcc_lo", "vcc_hi"}:
                right = False
            if waits.lgkm_kind(ins) == "other":
                right = False
            pending = _smem_step(ins, pending)
        if not right:
            return (f"line {b.term.line}: {b.term.mnemonic} on a target with the VCCZ bug, with no write of the whole "
                    "VCC before it in its block made while no scalar load is outstanding (VCCZ may be stale; "
                    "vccz.sici=llvm)")
    return None


def run_blocks(m: Machine, blocks: list[Block], step: Callable[[Instr], str | None], extra: Extra,
               timeout: float = 30.0, kernel: bool = False) -> str | None:
    """Run the blocks on `m` (see the module's doc): afterwards `m` holds the
    state at the exit, merged over the exits; returns why it cannot be run.

    A `self_loop` block runs as `lane_loop` says (one guarded iteration per
    set bit of its register; the state merged with the one before each),
    which is the loop's exact semantics (see `lane_loop`).  [S:branch]"""
    B = m.B
    order, loop = topological(blocks)
    if loop is not None:
        return loop
    vccz = next((b.term for b in blocks if b.term is not None and b.term.mnemonic in ("s_cbranch_vccz", "s_cbranch_vccnz")),
                None)
    if vccz is not None and m.target is not None and m.target.has("vccz_bug"):
        # SI/CI: VCCZ can be stale after a VCC write while a scalar load is in
        # flight (LLVM's hasReadVCCZBug; SIInsertWaitcnts rewrites VCC)  [S:vccz-bug]
        if m.assume("vccz.sici") != "llvm":
            return (f"line {vccz.line}: {vccz.mnemonic} on a target with the VCCZ bug (a VCC write while a scalar "
                    "load is in flight can leave VCCZ stale) is not modelled (vccz.sici=never)")
        why = _vccz_bug(blocks, kernel)
        if why is not None:
            return why
    stale = _stale_vccz(blocks, m.target)
    if stale is not None:
        return stale
    preds: dict[int, list[int]] = {k: [] for k in range(len(blocks))}
    for p, pb in enumerate(blocks):
        for succ in (pb.taken, pb.fall):
            if succ is not None:
                preds[succ].append(p)
    step = _counted(m, step)
    # the GFX12 SGPR hazard state at each block's start (LLVM's fixed point)  [S:hazards]
    states = sgpr_block_states([b.instrs for b in blocks], [[x for x in (b.taken, b.fall) if x is not None]
                                                            for b in blocks], m.hazard_entry)

    def enter(k: int) -> None:
        # the hazard windows of block k see each predecessor's instructions
        # (a window over more than two blocks is not seen here; the warnings,
        # GpuCode.hazard_warnings, see three, and make such a proof unknown)  [S:hazards]
        if m.context is not None:
            m.context = [list(hazard_instrs(blocks[p])) for p in preds[k]] or [[]]
            # each path starts at its block's start: the GFX12 SGPR state there
            m.context_entry = [states[p] for p in preds[k]] or [m.hazard_entry]
    incoming: dict[int, list[tuple[Any, _State]]] = {0: [(True, _save(m, extra))]}
    exits: list[tuple[Any, _State]] = []
    for k in order:
        ins_ = incoming.get(k)
        if not ins_:
            continue
        pc: Any = B.or_b(*(c for c, _ in ins_))
        state = ins_[-1][1]
        for c, s in reversed(ins_[:-1]):
            state = _merge(m, c, s, state, extra)
        _load(m, state, extra)
        extra.set_pc(pc)
        b = blocks[k]
        t = b.term
        if self_loop(blocks, k):
            assert t is not None
            key = (id(b), m.W, getattr(getattr(m.target, "target", m.target), "name", None), tuple(sorted(m._assume.items())))
            if key not in _SHAPES or _SHAPES[key][0] is not b:
                _SHAPES[key] = (b, lane_loop(m, b, k, timeout))
            cand = _SHAPES[key][1]
            if cand is not None and cand[0] == EXEC_LOOP_PREMISE:
                cand = cand[1:]
                ex = ["exec_lo"] if m.W == 32 else ["exec_lo", "exec_hi"]
                empty = B.and_b(pc, *(B.eq(m.s(n), B.const(0)) for n in ex))
                if empty is not False:
                    q = smt.Query(timeout, session=getattr(B, "session", None))
                    q.add(empty)
                    if q.check(rlimit=LOOP_RLIMIT) != "unsat":
                        return (f"line {t.line}: {t.text.split(';')[0].strip()}: a loop whose test of its register is "
                                "ANDed with EXEC, where verify could not show EXEC is not 0 at its entry")
            if cand is None and casloop.once(blocks, k, extra):
                pass  # a compare-and-swap retry loop: run once below, its leaving an obligation  [S:cas-loop]
            elif cand is None:
                return (f"a loop in the GPU code of a shape verify does not accept: line {t.line}: "
                        f"{t.text.split(';')[0].strip()} (accepted: each iteration clears the lowest set bit "
                        "of one register and branches back while it is not 0)")
        if self_loop(blocks, k) and cand is not None:
            # R = 0 at entry: one iteration (it then leaves); else one guarded
            # iteration per set bit of R, lowest first, R given its value
            # there (so that s_ff1 of it is a constant)
            entry = _save(m, extra)
            r0 = [m.s(n) for n in cand]
            bits = [m.B.bit(r0[i // 32], i % 32) for i in range(32 * len(cand))]
            r_zero = B.not_b(B.or_b(*bits))
            for n in cand:
                m.set_s(n, B.const(0))
            extra.set_pc(B.and_b(pc, r_zero))
            enter(k)
            for ins in b.instrs:
                why = step(ins)
                if why is not None:
                    return why
            zero_run = _save(m, extra)
            ends = [zero_run]  # the states the loop can leave in: after its last iteration
            _load(m, entry, extra)
            for j, g in enumerate(bits):
                if g is False:
                    continue
                before = _save(m, extra)
                now = [False] * j + [True] + bits[j + 1:]  # R at the iteration for bit j, given bit j is set
                # a register holding R's word at entry (EXEC, when R is a
                # copy of it) has bit j set in this iteration too: it runs
                # only where bit j is set, so the word given that bit is the
                # same value there (a lane test of it folds to true)
                word = r0[j // 32]
                held = {n: B.from_bits(bits[32 * (j // 32):j] + [True] + bits[j + 1:32 * (j // 32) + 32])
                        for n, v in m.sregs.items() if n not in cand and B.same(v, word)}
                for n, v in held.items():
                    m.set_s(n, v)
                for h, n in enumerate(cand):
                    m.set_s(n, B.from_bits(now[32 * h:32 * h + 32]))
                extra.set_pc(B.and_b(pc, B.not_b(r_zero), g))
                enter(k)
                for ins in b.instrs:
                    why = step(ins)
                    if why is not None:
                        return why
                for n, v in held.items():  # (back to R's word where the body left it)
                    if B.same(m.sregs.get(n), v):
                        m.sregs[n] = word
                ends.append(_save(m, extra))
                _load(m, _merge(m, g, ends[-1], before, extra), extra)
            _load(m, _merge(m, r_zero, zero_run, _save(m, extra), extra), extra)
            _leave_loop(m, ends, extra)
            extra.set_pc(pc)
            if b.fall is not None:
                incoming.setdefault(b.fall, []).append((pc, _save(m, extra)))
            continue
        enter(k)
        for ins in b.instrs:
            why = step(ins)
            if why is not None:
                return why
        if t is not None and t.mnemonic not in BRANCHES:
            exits.append((pc, _save(m, extra)))
            continue
        taken = branch_condition(m, t) if t is not None else False
        if self_loop(blocks, k):  # (run once: going round again is an obligation  [S:cas-loop])
            assert t is not None
            casloop.obligation(extra, B.and_b(pc, taken), t.line)
            taken = False
        after = _save(m, extra)
        if b.taken is not None and taken is not False:
            incoming.setdefault(b.taken, []).append((B.and_b(pc, taken), after))
        if b.fall is not None and taken is not True:
            incoming.setdefault(b.fall, []).append((B.and_b(pc, B.not_b(taken)), after))
    if not exits:
        return "the GPU code never reaches its exit"
    state = exits[-1][1]
    for c, s in reversed(exits[:-1]):
        state = _merge(m, c, s, state, extra)
    _load(m, state, extra)
    extra.set_pc(True)
    return None


def _counted(m: Machine, step: Callable[[Instr], str | None]) -> Callable[[Instr], str | None]:
    """`step`, then the machine told that the instruction ran (Machine.ran)."""
    def run(ins: Instr) -> str | None:
        why = step(ins)
        if why is None:
            m.ran(ins)
        return why
    return run


def _leave_loop(m: Machine, ends: list[_State], extra: Extra) -> None:
    """The loop runs at least once, so the state beside the machine's (the
    loads in flight, the spill slots) after it is that after one of its
    iterations, whichever (not the entry's, which the merges of the guarded
    iterations also carry: a wait in the body would never count)."""
    e = ends[0].extra
    queue = ends[0].queue
    for s in ends[1:]:
        e = extra.merge(True, e, s.extra)
        if queue is not None and s.queue is not None:
            queue = list(queue) + [x for x in s.queue if x not in queue]
    extra.load(e)
    if m.waits is not None and queue is not None:
        m.waits.queue = queue


def _mask_candidates(b: Block, W: int) -> list[tuple[str, ...]]:
    """The registers a loop may count down: EXEC, and each SGPR (or aligned
    SGPR pair) the body writes."""
    written: set[str] = set()
    for ins in b.instrs:
        written.update(op_of(ins.base).defs(ins))
    out: list[tuple[str, ...]] = []
    if written & {"exec_lo", "exec_hi"}:
        out.append(("exec_lo", "exec_hi") if W == 64 else ("exec_lo",))
    nums = sorted(int(r[1:]) for r in written if re.fullmatch(r"s\d+", r))
    for n in nums:
        if n % 2 == 0 and n + 1 in nums:
            out.append((f"s{n}", f"s{n + 1}"))
        out.append((f"s{n}",))
    return out


# the first name of lane_loop's answer where its shape holds only while EXEC
# is not 0 (and the caller asks that of the loop's entry)
EXEC_LOOP_PREMISE = "(exec != 0)"


def lane_loop(m: Machine, b: Block, k: int, timeout: float) -> tuple[str, ...] | None:
    """The register R (EXEC, an SGPR or an aligned SGPR pair) that loop
    block `b` counts down, or None when the loop has not the accepted shape.

    The shape is shown by a one-iteration argument, not by unrolling: from
    ANY state (every register a fresh unknown), one run of the body leaves
    R' = R & (R - 1) (its lowest set bit cleared) and branches back exactly
    when R' != 0.  Then a loop entered with R = 0 runs once, and one entered
    with R != 0 runs once per set bit of R, lowest first, the iteration for
    bit j starting with R = R0 minus its bits below j.  LLVM's Iterative
    atomic optimizer and wave.reduce loops (s_ff1/s_ctz of a copy of EXEC,
    v_readlane, s_bitset0/s_andn2, s_cmp_lg, s_cbranch_scc1) have it.
    [S:branch]"""
    B: Any = m.B
    if b.term is None:
        return None
    names: dict[str, Any] = {}

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return B.fresh_bool(f"loop{k}.scc")
        if kind == "v":
            key = f"loop{k}.{name}"
            if key not in names:
                names[key] = B.fresh_lanes(key, m.W)
            return names[key][lane or 0]
        return B.fresh(f"loop{k}.{name}")

    probe = Machine(B, m.W, initial, m.target, dict(m._assume), waits=False)
    probe.scc = initial("scc", "scc", None)
    cands = _mask_candidates(b, m.W)
    before = {n: probe.s(n) for c in cands for n in c}
    before_exec = {n: probe.s(n) for n in ("exec_lo", "exec_hi")}
    probe.run(b.instrs)
    back = branch_condition(probe, b.term)
    for cand in cands:
        old = [before[n] for n in cand]
        new = [probe.s(n) for n in cand]
        if len(cand) == 1:
            want = [B.and_(old[0], B.sub(old[0], B.const(1)))]
        else:
            lo1 = B.sub(old[0], B.const(1))
            hi1 = B.sub(old[1], B.bool_value(B.eq(old[0], B.const(0))))
            want = [B.and_(old[0], lo1), B.and_(old[1], hi1)]
        cleared = B.and_b(*(B.eq(x, y) for x, y in zip(new, want)))
        nonzero = B.or_b(*(B.ne(x, B.const(0)) for x in new))
        good = B.and_b(cleared, B.or_b(B.and_b(back, nonzero), B.and_b(B.not_b(back), B.not_b(nonzero))))
        q = smt.Query(timeout, session=B.session)
        q.add(B.not_b(good))
        if q.check(rlimit=LOOP_RLIMIT) == "unsat":
            return cand
        # SI/CI's shape: the test of R' is a VALU compare ANDed with EXEC into
        # VCC (s_cbranch_vccnz), right where EXEC is not 0 and the body keeps
        # it: shown under that premise, which the caller then asks of the
        # loop's entry (EXEC_LOOP_PREMISE)
        ex = ["exec_lo"] if m.W == 32 else ["exec_lo", "exec_hi"]
        if cand != tuple(ex) and b.term.mnemonic in ("s_cbranch_vccz", "s_cbranch_vccnz"):
            kept = B.and_b(*(B.eq(before_exec[n], probe.s(n)) for n in ex))
            q = smt.Query(timeout, session=B.session)
            q.add(B.or_b(*(B.ne(before_exec[n], B.const(0)) for n in ex)))
            q.add(B.not_b(B.and_b(kept, good)))
            if q.check(rlimit=LOOP_RLIMIT) == "unsat":
                return (EXEC_LOOP_PREMISE, *cand)
    return None
