"""`verify tv` counterexamples explained as `verify lowering` explains its
own (issue #34): lane-tagged inputs where the failure survives them, the
GPU code replayed concretely with tracing, each differing lane traced back
through the registers it passed (verify.cex.trace_lane: SGPR hops, the
registers that chose a lane, the instruction that computed a lane number)
to its cause, a pattern line when one formula explains the lanes, and the
lane table folded as the others fold (verify.cex.render).

Nothing here decides a verdict: the refutation is the solver's; this
module only re-asks it for tagged inputs (with a resource limit, so the
table is the same under any load) and replays.  A replay that disagrees
with the solver's model leaves the table without a trace rather than show
an explanation of something else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import cex as C
from ..asmcheck import Opaque
from ..backend import Concrete
from ..ir import Binding, Lowering, SReg, VReg
from ..lanes import fmt_mask, lane_formula, lanes_text, mask_lanes
from ..machine import LaneEvent, Machine, Step
from ..ops.base import op_of
from ..target import FeatureLog, Target
from .cfg import BRANCHES, branch_condition

_TAG = re.compile(r"^(\S+)\[(\d+)\]$")  # a lane tag's label: %var[5]

# z3 resource units for each question a counterexample's explanation asks
# (tagged inputs; every lane active): a count of solver steps, not a clock
EXPLAIN_RLIMIT = 50_000_000


@dataclass
class Explained:
    """What the lane table of a tv counterexample shows."""

    mask: int
    tagged: bool
    inputs: dict[str, Any]  # register -> lane values (a list) or one scalar
    labels: dict[str, str]  # register -> the IR argument it holds
    rows: list[C.Row] = field(default_factory=list)
    pattern: list[str] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=lambda: ["ret"])  # the rows' outputs (a wide result: its pieces)
    svg: str = ""  # the lane-flow picture of the replay (verify tv --svg), where there is one
    svg_full: str = ""  # the same with every instruction (--svg-full)

    @property
    def cause(self) -> str:
        rows = C.deciding_first(self.rows)
        return rows[0].responsible if rows else ""


def tags(arg_regs: dict[str, list[list[Any]]], W: int) -> dict[str, Any]:
    """Lane tags per argument register (verify.cex._tags' convention): the
    k-th register's lane i holds (k << 8) + i, an SGPR (k << 8) + 0x80."""
    out: dict[str, Any] = {}
    for k, reg in enumerate(arg_regs, 1):
        out[reg] = [(k << 8) + i for i in range(W)] if reg.startswith("v") else (k << 8) + 0x80
    return out


def _pin(B: Any, regs: dict[str, list[Any]], vals: dict[str, Any]) -> Any:
    conds = []
    for reg, lanes in regs.items():
        v = vals[reg]
        if isinstance(v, list):
            conds += [B.eq(t, B.const(x)) for t, x in zip(lanes, v)]
        else:
            conds.append(B.eq(lanes[0], B.const(v)))
    return B.and_b(*conds)


def _ask(q: Any, *conds: Any) -> bool:
    """Is the refutation still there with `conds`?  The model is left on q
    when it is; q's model is restored when not."""
    found = q.model
    q.push()
    for c in conds:
        q.add(c)
    ok = bool(q.check(rlimit=EXPLAIN_RLIMIT) == "sat")
    model = q.model
    q.pop()
    q.model = model if ok else found
    return ok


def explain(q: Any, B: Any, W: int, target: Target, assume: dict[str, str], arg_regs: dict[str, list[Any]],
            labels: dict[str, str], exec_bits: list[Any], ir_vals: list[Any], ir_poison: list[Any],
            gpu_vals: list[Any], width: int, replay: Callable[..., tuple[Machine, list[Any]] | None],
            made: dict[tuple[str, str, int | None], Any], bad: list[Any] | None = None,
            out_reg: str = "v0", retag: bool = True, name: str = "ret", off: int = 0) -> Explained:
    """The counterexample on q (a model with its EXEC narrowed) as a lane
    table.  `arg_regs`: each argument register's lane terms; `labels`: the
    IR argument each holds; `ir_vals`/`ir_poison`/`gpu_vals`: per lane, the
    IR result, its poison and the GPU's value in `out_reg`; `replay(initial,
    mask)`: the GPU code run concretely with tracing (None where it cannot
    be); `made`: the symbolic initial value of every register the GPU code
    read, to replay it with the model's values; `bad`: per lane, the
    condition that the lane refutes (a float lane may differ in its bits and
    still refine: NaNs, the IR's either-value intrinsics).  `retag`: ask
    again with lane-tagged inputs (False where the IR makes non-deterministic
    choices: a model the solver finds anew may rest on a choice the source
    would not make, so q's own model, a counterexample for every choice, is
    shown as it is).  `out_reg` a VGPR or (a shader's result) an SGPR; `off`:
    the bit offset of a 16-bit piece in it (true16 `.h`, a packed half)."""
    mask = sum(1 << i for i in range(W) if q.truth(exec_bits[i]))
    if name == "ret" and out_reg.startswith("s"):  # a shader's SGPR result: named by its register, as a piece is
        name = f"ret.{out_reg}"
    tag = tags(arg_regs, W)
    fixed = B.and_b(*(b if (mask >> i) & 1 else B.not_b(b) for i, b in enumerate(exec_bits)))
    tagged = retag and bool(arg_regs) and _ask(q, fixed, _pin(B, arg_regs, tag))
    inputs = dict(tag) if tagged else {
        reg: ([q.value(t) for t in lanes] if reg.startswith("v") else q.value(lanes[0])) for reg, lanes in arg_regs.items()}
    ex = Explained(mask, tagged, inputs, labels)
    low = Lowering("tv", "", "", {}, [], [W], "any", [Binding(n, _reg(r), None) for r, n in labels.items()],  # type: ignore[arg-type]
                   [Binding("ret", _reg(out_reg), None)], None, [])  # type: ignore[arg-type]
    names = C._value_names(low, inputs) if tagged else {}
    m32 = (1 << width) - 1

    def concrete_initial(kind: str, name: str, lane: int | None) -> Any:
        t = made.get((kind, name, lane))
        if kind == "scc":
            return q.truth(t) if t is not None else False
        return q.value(t) & 0xFFFFFFFF if t is not None else 0

    decisions: list[tuple[Any, bool, str]] = []
    run = replay(concrete_initial, mask, decisions=decisions)
    active = [bool((mask >> i) & 1) for i in range(W)]
    for i in range(W):
        if not active[i] or q.truth(ir_poison[i]):
            continue
        e, a = q.value(ir_vals[i]) & m32, q.value(gpu_vals[i]) & m32
        if e == a or (bad is not None and not q.truth(bad[i])):
            continue
        chain: list[str] = []
        src, resp = names.get(a, ""), ""
        if run is not None:
            m, snaps = run
            got = m.v(int(out_reg[1:]))[i] if out_reg.startswith("v") else m.s(out_reg)
            if isinstance(got, int) and (got >> off) & m32 == a:
                trace = m.trace or []
                reader = _reader(m, snaps, names)
                reader.inputs = dict(inputs)
                if out_reg.startswith("s"):  # (one SGPR for the wave: its writer, the operand shown wrong)
                    chain, s, resp = C._scalar_chain(trace, out_reg, reader, e if off == 0 and width == 32 else None)
                else:  # (the IR's value is the register's only where the piece is all of it)
                    chain, s, resp = C.trace_lane(low, trace, out_reg, i, active, reader, through=True,
                                                  expected=e if off == 0 and width == 32 else None)
                src = (src or s) if out_reg.startswith("s") else (s or src)
        ex.rows.append(C.Row(name, i, e, names.get(e, ""), a, src, resp or "(the GPU value differs)", chain,
                             bits=32))
    if run is not None and decisions and ex.rows:
        _branch_cause(ex.rows, decisions, replay, concrete_initial, mask, out_reg, off, m32)
    if tagged:
        ex.pattern = _pattern(q, B, W, arg_regs, tag, exec_bits, ir_vals, ir_poison, gpu_vals, width, names, bad)
    if run is not None and ex.rows:
        from .. import svg  # (the picture's module loads with a counterexample only: start-up, issue 35)
        m, snaps = run
        title = f"{target.name} wave{W}: refuted, EXEC {fmt_mask(mask, W)}"
        sgprs: dict[str, tuple[str, int | None]] = {  # a shader's inreg arguments
            r: (n, v if isinstance(v := inputs.get(r), int) else None) for r, n in labels.items() if r.startswith("s")}
        ex.svg, ex.svg_full = (svg.trace_svg(low, m, _reader(m, snaps), W, mask, ex.rows, out_reg, title, full,
                                             sgprs=sgprs)
                               for full in (False, True))
    return ex


def explain_pieces(q: Any, B: Any, W: int, target: Target, assume: dict[str, str], arg_regs: dict[str, list[Any]],
                   labels: dict[str, str], exec_bits: list[Any], pieces: list[Any], got: list[list[Any]],
                   slots: list[tuple[int, int, int]], differ: Callable[[Any, Any], Any],
                   replay: Callable[..., tuple[Machine, list[Any]] | None],
                   made: dict[tuple[str, str, int | None], Any], retag: bool = True,
                   kinds: list[str] | None = None, lane_bad: list[Any] | None = None) -> Explained | None:
    """:func:`explain` for a result of several pieces (an i64, a vector, a
    struct, 16-bit elements, a shader's result): each piece whose lanes
    differ explained as `ret.K` (K its register; `ret.K.l`/`ret.K.h` a
    16-bit half, `ret.sK` a shader's SGPR), the rows of all of them in one
    table.  `kinds`: per piece "v" or "s" (a shader's result; VGPRs
    without it); `lane_bad`: per lane, the condition that the lane refutes
    (a shader's SGPR piece is checked in its lowest active lane)."""
    out: Explained | None = None
    kinds = kinds or ["v"] * len(slots)

    def label(kind: str, r: int, off: int, w: int) -> str:
        return f"ret.{'s' if kind == 's' else ''}{r}" + ("" if w > 16 else ".h" if off else ".l")

    for (r, off, w), kind, p, g in zip(slots, kinds, pieces, got):
        bad = [B.and_b(exec_bits[i], B.not_b(p.poison[i]), differ(g[i], p.vals[i]),
                       *([lane_bad[i]] if lane_bad is not None else [])) for i in range(W)]
        if not any(q.truth(b) for b in bad):
            continue
        ex = explain(q, B, W, target, assume, arg_regs, labels, exec_bits, p.vals, p.poison, g, min(w, 32), replay,
                     made, bad, out_reg=f"{kind}{r}", retag=retag, name=label(kind, r, off, w), off=off)
        if out is None:
            out = ex
            out.outputs = [label(k2, r2, o2, w2) for (r2, o2, w2), k2 in zip(slots, kinds)]  # (each row's piece)
        else:
            out.rows += ex.rows
            out.pattern = out.pattern or ex.pattern
    return out


BRANCH_TRIES = 8  # the latest conditional branches of a path replayed the other way (a loop meets many)


def _branch_cause(rows: list[C.Row], decisions: list[tuple[Any, bool, str]], replay: Any, initial: Any, mask: int,
                  out_reg: str, off: int, m32: int) -> None:
    """A branch as the cause: where the code, replayed with one of the
    conditional branches its path met going the other way (the latest
    first, BRANCH_TRIES of them), gives every differing row's lane the IR's value, that branch
    is the operand in error; each row then names it (and the path shows
    the decision), unless the row already has an evident cause (an
    operand shown wrong, a lane left unwritten: a responsible that names
    another line than its last computation's)."""
    for d in range(len(decisions) - 1, max(-1, len(decisions) - 1 - BRANCH_TRIES), -1):
        try:
            other = replay(initial, mask, flip=d)
        except Exception:  # (an explanation is never worth a crash)
            return
        if other is None:
            continue
        m2 = other[0]

        def got(i: int, m2: Any = m2) -> Any:
            x = m2.v(int(out_reg[1:]))[i] if out_reg.startswith("v") else m2.s(out_reg)
            return (x >> off) & m32 if isinstance(x, int) else None
        if all(got(r.lane) == r.expected for r in rows):
            t, taken, cond = decisions[d]
            how = ("taken" if taken else "not taken") + (f" ({cond})" if cond else "")
            line = (f"line {t.line} ({t.text.split(';')[0].strip()}): {how}; the other way the code gives the "
                    f"value wanted")
            for r in rows:
                if " computed by " in r.responsible or r.responsible.endswith(f": writes {out_reg}") or \
                        "(the GPU value differs)" in r.responsible or not r.chain:
                    r.responsible = (f"line {t.line} {t.mnemonic}: {how}, the path to the GPU value; the other way "
                                     f"it gives the value wanted, {r.expected:#x}")
                r.chain.append(line)
            return


def _reg(key: str) -> VReg | SReg:
    return VReg(int(key[1:])) if key.startswith("v") else SReg((key,))


def _reader(m: Machine, snaps: list[Any], names: dict[int, str] | None = None) -> C.Reader:
    """verify.cex.Reader over a tv replay: `snaps[k]` the registers before
    trace step k (the last: after the run); `names`: value -> the input it
    names (lane-tagged)."""
    def state(k: int) -> tuple[dict[int, list[Any]], dict[str, Any], Callable[..., Any]]:
        snap = snaps[min(k, len(snaps) - 1)]
        return snap[0], snap[1], m.initial

    r = C.Reader(state, m.W, m.target, m._assume)
    r.names = dict(names or {})
    return r


def walk(m: Machine, program: list[Any], blocks: list[Any] | None, run_one: Callable[[Any], None],
         flip: int | None = None, decisions: list[tuple[Any, bool, str]] | None = None) -> None:
    """Run the code on a concrete machine along the path its branches take
    there (verify/tv/cfg.py's blocks: a branch's condition read from the
    machine, a loop run as often as it runs; straight-line code in order).
    `decisions`: filled with each conditional branch met and whether it was
    taken; `flip`: that decision (its index) goes the other way (what the
    code gives had it branched otherwise).  RuntimeError past WALK_LIMIT
    blocks."""
    if blocks is None:
        for ins in program:
            run_one(ins)
        return
    k: int | None = 0
    met = 0
    for _ in range(WALK_LIMIT):
        if k is None:
            return
        b = blocks[k]
        for ins in b.instrs:
            run_one(ins)
        t = b.term
        if t is not None and t.mnemonic not in BRANCHES:  # an exit
            return
        taken = bool(branch_condition(m, t)) if t is not None else False
        if t is not None and t.mnemonic != "s_branch":
            taken ^= met == flip
            met += 1
            if decisions is not None:
                decisions.append((t, taken, _condition_text(m, t)))
        k = b.taken if taken and b.taken is not None else b.fall
    raise RuntimeError("the path is longer than the walk's limit")


def _condition_text(m: Machine, t: Any) -> str:
    """What a conditional branch read, as the text shows it: "vcc_lo =
    0x1", "SCC = 0" (verify/tv/cfg.py's branch_condition reads the same)."""
    mn = t.mnemonic
    regs = (["exec_lo", "exec_hi"] if "exec" in mn else ["vcc_lo", "vcc_hi"] if "vcc" in mn else [])[:1 if m.W == 32 else 2]
    if regs:
        vals = [m.s(r) for r in regs]
        return ", ".join(f"{r} = {v:#x}" for r, v in zip(regs, vals) if isinstance(v, int))
    scc = m.scc
    return f"SCC = {int(bool(scc))}" if isinstance(scc, (bool, int)) else ""


WALK_LIMIT = 4096  # blocks a replay walks (a loop over a mask's bits runs at most 64 times)


def replay_straight(code: Any, gpu_run: Any, target: Target, W: int, assume: dict[str, str],
                    setup: Callable[[Machine], None]) -> Callable[[Callable[[str, str, int | None], Any], int],
                                                              tuple[Machine, list[Any]] | None]:
    """The `replay` of :func:`explain`: run the GPU code on the concrete
    backend with tracing, one instruction at a time as verify tv runs it,
    along the path its branches take (:func:`walk`), the registers kept
    before each traced step; trace steps numbered in order."""
    def replay(initial: Callable[[str, str, int | None], Any], mask: int, flip: int | None = None,
               decisions: list[tuple[Any, bool, str]] | None = None) -> tuple[Machine, list[Any]] | None:
        m = Machine(Concrete(), W, initial, FeatureLog(target), dict(assume), trace=True, waits=True)
        setup(m)
        m.set_s("exec_lo", mask & 0xFFFFFFFF)
        m.set_s("exec_hi", (mask >> 32) & 0xFFFFFFFF)
        m.scc = initial("scc", "scc", None)
        g = gpu_run(m)
        m.context = [[]]
        m.hazard_entry = "kernel" if code.kernel else "fragment"
        snaps: dict[int, Any] = {}
        trace = m.trace
        assert trace is not None

        def one(ins: Any) -> None:
            snaps[len(trace)] = ({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
            g.step(ins)
            m.ran(ins)

        try:
            walk(m, code.program, code.blocks, one, flip, decisions)
        except Exception:  # (an explanation is never worth a crash: no trace then)
            return None
        snaps[len(trace)] = ({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
        step: Step
        for n, step in enumerate(trace):
            step.index = n
        return m, [snaps.get(k, snaps[max(j for j in snaps if j <= k)]) for k in range(len(trace) + 1)]

    return replay


def _pattern(q: Any, B: Any, W: int, arg_regs: dict[str, list[Any]], tag: dict[str, Any], exec_bits: list[Any],
             ir_vals: list[Any], ir_poison: list[Any], gpu_vals: list[Any], width: int, names: dict[int, str],
             bad: list[Any] | None = None) -> list[str]:
    """"lane i reads lane i^2; the spec wants lane i^1": with every lane
    active and the inputs lane-tagged, the lane each differing lane's GPU
    value names and the lane the IR's names, each fitted to one formula
    (verify.lanes.lane_formula), when one explains half the lanes or more."""
    found = q.model
    if not _ask(q, B.and_b(*exec_bits), _pin(B, arg_regs, tag)):
        return []
    m32 = (1 << width) - 1
    got: list[tuple[str, int, int]] = []
    want: list[tuple[str, int, int]] = []
    n_bad = 0
    for i in range(W):
        if q.truth(ir_poison[i]):
            continue
        e, a = q.value(ir_vals[i]) & m32, q.value(gpu_vals[i]) & m32
        if e == a or (bad is not None and not q.truth(bad[i])):
            continue
        n_bad += 1
        ga, we = _TAG.match(names.get(a, "")), _TAG.match(names.get(e, ""))
        if ga is None or we is None:
            q.model = found
            return []
        got.append((ga.group(1), i, int(ga.group(2))))
        want.append((we.group(1), i, int(we.group(2))))
    q.model = found
    srcs = {g[0] for g in got} | {w[0] for w in want}
    if not n_bad or len(srcs) != 1:
        return []
    fa = lane_formula([(i, j) for _, i, j in got], W)
    fe = lane_formula([(i, j) for _, i, j in want], W)
    if fa is None or fe is None or fa[0] == fe[0]:
        return []
    both = sorted(set(fa[1]) & set(fe[1]))
    if len(both) < max(2, (n_bad + 1) // 2):
        return []
    rest = n_bad - len(both)
    more = f"; {rest} other lane{'s' if rest > 1 else ''} differ{'s' if rest == 1 else ''} otherwise" if rest else ""
    return [f"lane i reads {fa[0]}; the spec wants {fe[0]} (of {srcs.pop()}: lanes {lanes_text(both)}, "
            f"with every lane active{more})"]


def render(ex: Explained, W: int) -> list[str]:
    """The lane table (verify.cex.render, IR and GPU columns), the cause first."""
    low = Lowering("tv", "", "", {}, [], [W], "any", [], [Binding(o, VReg(k), None)  # type: ignore[arg-type]
                                                          for k, o in enumerate(ex.outputs)], None, [])
    cx = C.Counterexample("value(ret)", W, ex.mask, ex.inputs, ex.labels, ex.tagged, ex.rows,
                          tagged_regs=set(ex.inputs) if ex.tagged else set(), pattern=ex.pattern)
    lines = C.render(cx, low, heads=("IR value", "GPU value"))
    bar = lines[2].replace("(lane 0 first, # active)", f"(lane 0 first, # active: lanes {lanes_text(mask_lanes(ex.mask))})")
    return [f"  counterexample: EXEC = {ex.mask:#x}", *([f"    cause: {ex.cause}"] if ex.cause else []), bar, *lines[3:]]


@dataclass
class KernelCex:
    """A kernel's counterexample: the memory word where the IR and the GPU
    differ after the kernel, under EXEC, and every active lane's work-item
    ID (verify/tv/kernel.py)."""

    exec_mask: int
    address: int
    ir: int
    gpu: int
    tids: dict[int, int]  # lane -> workitem.id.x
    race: bool = False
    gpu_at: str = ""
    rows: list[C.Row] = field(default_factory=list)  # the differing lanes of the store (explain_kernel)
    store_at: str = ""  # "line N <store mnemonic>": the GPU store that wrote the word
    wave: int = 0  # (set with rows)
    svg: str = ""  # the lane-flow picture of the replay (verify tv --svg), where there is one
    svg_full: str = ""  # the same with every instruction (--svg-full)

    @property
    def cause(self) -> str:
        rows = C.deciding_first(self.rows)
        return rows[0].responsible if rows else self.gpu_at

    def lane_lines(self) -> list[str]:
        """The cause first, then every active lane's work-item ID (runs that
        repeat a lane, shifted, folded into one line as the lane tables
        fold: never a lane left unnamed), then the table of the lanes whose
        store differs, folded as verify lowering's, with the first lanes'
        paths step by step."""
        out: list[str] = [f"  cause: {self.cause}"] if self.rows else []
        t = self.tids
        for f in C.fold_lanes(sorted(t), lambda a, b: t[b] - t[a] == b - a) if t else []:
            out.append(f"  {f.text()}" if f.like is not None else f"  lane {f.lanes[0]}: workitem.id.x = {t[f.lanes[0]]:#x}")
        if self.rows:
            W = self.wave
            low = Lowering("tv", "", "", {}, [], [W], "any", [],
                           [Binding("mem", VReg(0), None)], None, [])  # type: ignore[arg-type]
            cx = C.Counterexample("value(mem)", W, self.exec_mask, {}, {}, False, self.rows)
            out.append(f"  the lanes' stores at {self.store_at}:")
            out += [ln[2:] for ln in C.render(cx, low, heads=("IR stores", "GPU stores"))[3:]]
        return out

    def to_json(self) -> dict[str, Any]:
        rows = {r.lane: r for r in self.rows}
        return {"exec": f"{self.exec_mask:#x}", "exec_after": None, "active_lanes": mask_lanes(self.exec_mask),
                "tagged_inputs": False, "inputs": {"workitem.id.x": {str(k): v for k, v in sorted(self.tids.items())}},
                "memory": {"address": f"{self.address:#x}", "ir": f"{self.ir:#x}", "gpu": f"{self.gpu:#x}",
                           "two_lanes_store_it": self.race},
                "lanes": [{"lane": i, "inputs": {"workitem.id.x": f"{self.tids[i]:#x}"} if i in self.tids else {},
                           **({"expected": rows[i].expected, "actual": rows[i].actual, "differs": True,
                               "expected_from": rows[i].expected_src, "actual_from": rows[i].actual_src,
                               "responsible": rows[i].responsible, "trace": rows[i].chain} if i in rows else
                              {"expected": None, "actual": None, "differs": False})}
                          for i in mask_lanes(self.exec_mask)],
                "store": self.store_at, "ir_instruction": "", "gpu_instruction": self.gpu_at, "cause": self.cause,
                "pattern": []}


M32 = 0xFFFFFFFF


class KernelReplay:
    """A kernel's GPU code, recorded while verify tv runs it symbolically
    (verify/tv/kernel.py), so that a refutation can be explained as a
    function's is: what each memory instruction (which the kernel model
    runs itself, beside the op registry) wrote to registers, and which
    instruction made each store group of the GPU's memory.

    `replay(q, mask)` runs the code again on the concrete backend with
    tracing along the path its branches take (:func:`walk`), the registry's
    instructions as they are and a memory instruction's register writes
    taken from the symbolic run, evaluated in q's model: values the
    solver's refutation holds, so the trace is of that very counterexample
    (explain_kernel checks that the replayed store value is the model's).
    A memory instruction the symbolic run ran more than once (inside a
    loop) has no one effect to take: no replay then.  Nothing here decides
    a verdict."""

    def __init__(self, m: Machine, program: list[Any], blocks: list[Any] | None, ir_mem: Any, gpu_mem: Any,
                 initial: Callable[[str, str, int | None], Any], target: Target, W: int, assume: dict[str, str]) -> None:
        self.m, self.program, self.blocks, self.ir_mem, self.gpu_mem = m, program, blocks, ir_mem, gpu_mem
        self.initial, self.target, self.W, self.assume = initial, target, W, dict(assume)
        self.effects: dict[int, tuple[dict[int, dict[int, Any]], dict[str, Any]]] = {}  # id(instr) ->
        self.group_instr: list[Any] = []  # per GPU store group: the instruction that made it
        self.repeated = False  # a memory instruction ran twice (a loop): no replay
        self._before: tuple[dict[int, list[Any]], dict[str, Any]] | None = None
        self._groups = 0

    def wrap(self, step: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
        """`step` (the kernel model's), recording around each instruction."""
        def recorded(ins: Any) -> str | None:
            self.before(ins)
            why = step(ins)
            if why is None:
                self.after(ins)
            return why

        return recorded

    def before(self, ins: Any) -> None:
        m = self.m
        self._groups = len(self.gpu_mem.groups)
        self._before = (({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
                        if isinstance(op_of(ins.base), Opaque) else None)

    def after(self, ins: Any) -> None:
        self.group_instr += [ins] * (len(self.gpu_mem.groups) - self._groups)
        if self._before is None:
            return
        vb, sb = self._before
        v: dict[int, dict[int, Any]] = {}
        for k, lanes in self.m.vregs.items():
            old = vb.get(k)
            changed = {i: t for i, t in enumerate(lanes) if old is None or t is not old[i]}
            if changed:
                v[k] = changed
        s = {k: t for k, t in self.m.sregs.items() if k not in sb or sb[k] is not t}
        self.repeated = self.repeated or id(ins) in self.effects
        self.effects[id(ins)] = (v, s)

    def replay(self, q: Any, mask: int) -> tuple[Machine, list[Any]] | None:
        """The code run concretely under q's model with EXEC = mask, traced;
        with the registers before each trace step (verify.cex.ValueAt)."""
        if self.repeated:
            return None
        W = self.W

        def initial(kind: str, name: str, lane: int | None) -> Any:
            t = self.initial(kind, name, lane)
            return q.truth(t) if kind == "scc" else q.value(t) & M32

        m = Machine(Concrete(), W, initial, FeatureLog(self.target), dict(self.assume), trace=True, waits=True)
        m.set_s("exec_lo", mask & M32)
        m.set_s("exec_hi", (mask >> 32) & M32)
        m.scc = initial("scc", "scc", None)
        m.context = [[]]
        m.hazard_entry = "kernel"
        trace = m.trace
        assert trace is not None
        snaps: dict[int, Any] = {}

        def one(ins: Any) -> None:
            snaps[len(trace)] = ({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
            eff = self.effects.get(id(ins))
            if eff is None:
                m.run([ins])
            else:  # a memory instruction: its register writes, the model's values
                step = Step(len(trace), ins)
                trace.append(step)
                why = f"loaded by {ins.mnemonic}"
                for k, lanes in eff[0].items():
                    vals = list(m.v(k))
                    for i, t in lanes.items():
                        vals[i] = q.value(t) & M32
                        step.events[(f"v{k}", i)] = LaneEvent("written", why=why)
                    m.vregs[k] = vals
                for name, t in eff[1].items():
                    m.sregs[name] = q.value(t) & M32
                    step.events[(name, None)] = LaneEvent("written", why=why)
            m.ran(ins)

        try:
            walk(m, self.program, self.blocks, one)
        except Exception:  # (an explanation is never worth a crash: no trace then)
            return None
        snaps[len(trace)] = ({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
        for n, st in enumerate(trace):
            st.index = n
        return m, [snaps.get(k, snaps[max(j for j in snaps if j <= k)]) for k in range(len(trace) + 1)]


def _store_at(q: Any, stores: list[Any], addr: tuple[int, int]) -> int | None:
    """The last store of `stores` that writes `addr` in q's model."""
    for n in range(len(stores) - 1, -1, -1):
        lo, hi, _, _, en = stores[n]
        if q.truth(en) and q.value(lo) & M32 == addr[0] and q.value(hi) & M32 == addr[1]:
            return n
    return None


def _group_of(groups: list[Any], n: int) -> tuple[int, int]:
    """(group, position in it) of store n (stores are the groups' lanes in order)."""
    start = 0
    for g, lanes in enumerate(groups):
        if n < start + len(lanes):
            return g, n - start
        start += len(lanes)
    raise IndexError(n)


def explain_kernel(kc: KernelCex, q: Any, rp: KernelReplay, at: tuple[Any, Any]) -> None:
    """A kernel's counterexample as a lane table (issue #34): the store
    instruction that wrote the differing memory word, and for each active
    lane of it the value the IR stores and the value the GPU stores (or the
    address, where the GPU's lane stores elsewhere), the differing lanes
    traced back through the registers they passed (verify.cex.trace_lane)
    to their cause.  Fills kc.rows; leaves kc as it was where the stores
    cannot be paired."""
    W = rp.W
    addr = (q.value(at[0]) & M32, q.value(at[1]) & M32)
    ir, gpu = rp.ir_mem, rp.gpu_mem
    n = _store_at(q, gpu.stores, addr)
    side = gpu
    if n is None:
        n, side = _store_at(q, ir.stores, addr), ir
    if n is None:
        return
    g, _ = _group_of(side.groups, n)
    paired = (len(ir.groups) == len(gpu.groups) and g < len(ir.groups) and len(ir.groups[g]) == len(gpu.groups[g]) == W
              and g < len(rp.group_instr))
    if not paired:
        return
    off_i = sum(len(x) for x in ir.groups[:g])
    off_g = sum(len(x) for x in gpu.groups[:g])
    ins = rp.group_instr[g]
    dword = g - next(j for j, x in enumerate(rp.group_instr) if x is ins)
    ops = [p.strip().split()[0] for p in ins.text.split(";")[0].strip().split(None, 1)[-1].split(",") if p.strip()]
    data_op = ops[0] if ins.mnemonic.startswith("buffer_") else ops[1] if len(ops) > 1 else ""
    data = _vreg(data_op, dword)
    addr_reg = _vreg(ops[0], 0) if not ins.mnemonic.startswith("buffer_") and ops else None
    run = rp.replay(q, kc.exec_mask)
    active = [bool(kc.exec_mask >> i & 1) for i in range(W)]
    low = Lowering("tv", "", "", {}, [], [W], "any", [Binding("workitem.id", VReg(0), None)],  # type: ignore[arg-type]
                   [Binding("mem", VReg(0), None)], None, [])  # type: ignore[arg-type]
    where = f"line {ins.line} {ins.mnemonic}"
    rows: list[C.Row] = []
    for i in range(W):
        if not active[i]:
            continue
        ilo, ihi, iv, ip, ien = ir.stores[off_i + i]
        glo, ghi, gv, _, gen = gpu.stores[off_g + i]
        ie, ge = q.truth(ien), q.truth(gen)
        if (not ie and not ge) or (ie and q.truth(ip)):
            continue
        ia, ga = (q.value(ilo) & M32, q.value(ihi) & M32), (q.value(glo) & M32, q.value(ghi) & M32)
        e, a = q.value(iv) & M32, q.value(gv) & M32
        if ie == ge and ia == ga and e == a:
            continue
        e_src = "" if ie else "(no store)"
        a_src = "" if ge else "(no store)"
        if ie and ge and ia != ga:
            a_src = f"at {ga[1] << 32 | ga[0]:#x}, not {ia[1] << 32 | ia[0]:#x}"
        reg = addr_reg if ie and ge and ia != ga else data
        chain: list[str] = []
        resp = ""
        if run is not None and reg is not None and data is not None and ge:
            m, snaps = run
            got = m.v(int(data[1:]))[i]  # (the replay is the model's: the store's value agrees)
            if isinstance(got, int) and got & M32 == a:
                chain, src, resp = C.trace_lane(low, m.trace or [], reg, i, active, _reader(m, snaps), through=True,
                                                expected=e if reg == data else None)
                a_src = a_src or src
                what = f"'s address is from {reg}[{i}]" if reg == addr_reg else f" stores {reg}[{i}] = {a:#x}"
                chain.insert(0, f"line {ins.line} ({ins.text.split(';')[0].strip()}): lane {i}{what}")
        rows.append(C.Row("mem", i, e, e_src, a, a_src, resp or f"{where}: the GPU's store differs", chain, bits=32))
    kc.rows, kc.store_at, kc.wave = rows, where, W
    traced = C.deciding_first([r for r in rows if r.chain])
    if run is not None and traced:  # the picture of the deciding lane's store (verify tv --svg)
        from .. import svg  # (the picture's module loads with a counterexample only: start-up, issue 35)
        m, snaps = run
        r0 = traced[0]
        reg = addr_reg if r0.actual_src.startswith("at ") and addr_reg else data
        if reg is not None:
            title = f"{where}: the stores differ, EXEC {fmt_mask(kc.exec_mask, W)}"
            kc.svg, kc.svg_full = (svg.trace_svg(low, m, _reader(m, snaps), W, kc.exec_mask, traced, reg, title, full)
                                   for full in (False, True))


def _vreg(text: str, k: int) -> str | None:
    """The k-th VGPR of an operand (v3, v[4:5]); None for another operand."""
    m = re.fullmatch(r"v(\d+)|v\[(\d+):(\d+)\]", text)
    if m is None:
        return None
    first = int(m.group(1) or m.group(2))
    return f"v{first + k}"
