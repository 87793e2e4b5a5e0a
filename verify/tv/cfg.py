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

from ..ir import Instr
from ..machine import Machine

BRANCHES = ("s_branch", "s_cbranch_execz", "s_cbranch_execnz", "s_cbranch_scc0", "s_cbranch_scc1",
            "s_cbranch_vccz", "s_cbranch_vccnz")


@dataclass
class Block:
    label: str  # "" for a block that starts after a branch without a label
    instrs: list[Instr] = field(default_factory=list)
    term: Instr | None = None  # the branch or exit that ends it (None: falls through)
    taken: int | None = None  # the block a branch goes to
    fall: int | None = None  # the next block, when control can fall through


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


def topological(blocks: list[Block]) -> tuple[list[int], str | None]:
    """The blocks reachable from the first, in a topological order, or a
    back edge (a loop) named by its branch line."""
    state: dict[int, int] = {0: 1}
    post: list[int] = []
    stack: list[tuple[int, int]] = [(0, 0)]
    while stack:
        k, j = stack.pop()
        succ = successors(blocks[k])
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
    vregs = {k: [B.ite(c, x, y) for x, y in zip(a.vregs[k], b.vregs[k])] for k in a.vregs}
    sregs = {k: B.ite(c, a.sregs[k], b.sregs[k]) for k in a.sregs}
    scc = a.scc if b.scc is None else b.scc if a.scc is None else B.ite(c, a.scc, b.scc)
    queue = None
    if a.queue is not None and b.queue is not None:  # a result in flight on either path: in flight
        queue = list(a.queue) + [e for e in b.queue if e not in a.queue]
    return _State(vregs, sregs, scc, queue, extra.merge(c, a.extra, b.extra))


def run_blocks(m: Machine, blocks: list[Block], step: Callable[[Instr], str | None], extra: Extra) -> str | None:
    """Run the blocks on `m` (see the module's doc): afterwards `m` holds the
    state at the exit, merged over the exits; returns why it cannot be run."""
    B = m.B
    order, loop = topological(blocks)
    if loop is not None:
        return loop
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
        for ins in b.instrs:
            why = step(ins)
            if why is not None:
                return why
        t = b.term
        if t is not None and t.mnemonic not in BRANCHES:
            exits.append((pc, _save(m, extra)))
            continue
        taken = branch_condition(m, t) if t is not None else False
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
