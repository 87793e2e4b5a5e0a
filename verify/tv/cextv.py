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

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import cex as C
from .. import explain as E
from ..asmcheck import Opaque
from ..backend import Concrete
from ..ir import Binding, Lowering, SReg, VReg
from ..lanes import fmt_mask, lane_formula, lanes_text, mask_lanes
from ..lowering_file import print_instr
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

    decisions: list[Decision] = []
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
    branch = None
    if run is not None and decisions and ex.rows:
        branch = _branch_cause(ex.rows, decisions, replay, concrete_initial, mask, out_reg, off, m32)
    if run is not None and ex.rows:
        _result_compare(ex.rows, run, replay, concrete_initial, mask, out_reg, off, m32)
        _mask_cause(ex.rows, run, decisions, replay, concrete_initial, mask, out_reg, off, m32)
    if branch is not None:  # a lane left unwritten that no mask explains: the branch, where the other way fixes it
        t, taken, cond = branch[:3]
        for r in ex.rows:
            if _exec_off_row(r):
                r.responsible = (f"line {t.line} {t.mnemonic}: {'taken' if taken else 'not taken'}"
                                 f"{f' ({cond})' if cond else ''}, the path to the GPU value; the other way it gives "
                                 f"the value wanted, {r.expected:#x}; its condition's computations, each flipped for "
                                 f"lane {r.lane}, do not")
    if tagged:
        ex.pattern = _pattern(q, B, W, arg_regs, tag, exec_bits, ir_vals, ir_poison, gpu_vals, width, names, bad)
    if run is not None and ex.rows:
        from .. import svg  # (the picture's module loads with a counterexample only: start-up, issue 35)
        m, snaps = run
        title = f"{target.name} wave{W}: refuted, EXEC {fmt_mask(mask, W)}"
        sgprs: dict[str, tuple[str, int | None]] = {  # a shader's inreg arguments
            r: (n, v if isinstance(v := inputs.get(r), int) else None) for r, n in labels.items() if r.startswith("s")}
        branches = _branch_columns(decisions)
        ex.svg, ex.svg_full = (svg.trace_svg(low, m, _reader(m, snaps), W, mask, ex.rows, out_reg, title, full,
                                             sgprs=sgprs, branches=branches)
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


def _branch_cause(rows: list[C.Row], decisions: list[Decision], replay: Any, initial: Any, mask: int,
                  out_reg: str, off: int, m32: int) -> Decision | None:
    """A branch as the cause: where the code, replayed with one of the
    conditional branches its path met going the other way (the latest
    first, BRANCH_TRIES of them), gives every differing row's lane the IR's value, that branch
    is the operand in error; each row then names it (:func:`_name_branch`).
    Returns that branch's decision."""
    hit: list[int] = []

    def agrees(d: int) -> bool:
        other = replay(initial, mask, flip=d)
        if other is None:
            return False
        hit[:] = [d]
        m2 = other[0]

        def got(i: int) -> Any:
            x = m2.v(int(out_reg[1:]))[i] if out_reg.startswith("v") else m2.s(out_reg)
            return (x >> off) & m32 if isinstance(x, int) else None
        return all(got(r.lane) == r.expected for r in rows)

    found = _flipped_branch(decisions, agrees)
    if found is not None:
        _name_branch(rows, *found)
        return decisions[hit[0]]
    return None


def _plain(r: C.Row) -> bool:
    """A row whose responsible is no evident cause: its last computation
    (no operand shown wrong), a differing value the replay could not trace,
    a lane with no path."""
    return (" computed by " in r.responsible or bool(_PLAIN_WRITE.search(r.responsible))
            or "(the GPU value differs)" in r.responsible or "the GPU's store differs" in r.responsible or not r.chain)


def _result_compare(rows: list[C.Row], run: tuple[Machine, list[Any]], replay: Any, initial: Any, mask: int,
                    out_reg: str, off: int, m32: int) -> None:
    """A compare as a returned value's cause in divergent code (no branch
    :func:`_branch_cause` can flip for one lane: a `v_cmp` + `s_and_saveexec`
    or a `v_cmpx` sends a lane down the other path): where the code,
    replayed with one compare's result for the deciding row's lane the
    other way (the latest first, COMPARE_TRIES of them), returns the IR's
    value in that lane, the compare is named for each row with no evident
    cause (:func:`_plain`) whose lane, replayed with that compare flipped
    in all of them (one replay), returns the IR's value too (SCC, one bit
    for the wave: the deciding lane only).  The memory form:
    :func:`_kernel_compare`."""
    todo = [r for r in C.deciding_first(rows) if _plain(r)]
    if not todo:
        return
    trace = run[0].trace or []
    cands = [n for n in range(len(trace) - 1, -1, -1) if _COMPARE.match(trace[n].instr.base)][:COMPARE_TRIES]

    def agrees(n: int, rs: list[C.Row]) -> list[C.Row]:
        """The rows of `rs` whose lane returns the IR's value replayed with
        compare n's result the other way in each of their lanes."""
        try:
            other = replay(initial, mask, flip_lane=(n, [r.lane for r in rs]))
        except Exception:  # (an explanation is never worth a crash)
            return []
        if other is None:
            return []
        m2 = other[0]

        def got(r: C.Row) -> Any:
            x = m2.v(int(out_reg[1:]))[r.lane] if out_reg.startswith("v") else m2.s(out_reg)
            return (x >> off) & m32 if isinstance(x, int) else None
        return [r for r in rs if got(r) == r.expected]
    n = next((n for n in cands if agrees(n, todo[:1])), None)
    if n is None:
        return
    ins = trace[n].instr
    what = "SCC" if ins.base.startswith(("s_cmp_", "s_bitcmp")) else "EXEC" if ins.base.startswith("v_cmpx") else \
        "its mask"
    # (the other lanes: one replay with the compare the other way in all of them, as a correct compare would be)
    for r in todo[:1] + (agrees(n, todo[1:]) if len(todo) > 1 and what != "SCC" else []):
        text = (f"line {ins.line} {ins.mnemonic}: lane {r.lane}'s result in error ({what}): the other way the GPU "
                f"returns the value wanted, {r.expected:#x}")
        r.responsible = text
        r.chain.append(f"line {ins.line} ({print_instr(ins)}): lane {r.lane}'s result in error ({what}); the other "
                       "way the code gives the value wanted")


_EXEC_OFF = re.compile(r": EXEC lane \d+ = 0 \([^)]*\), and no instruction writes ")


def _exec_off_row(r: C.Row) -> bool:
    """A row whose responsible is the last write of EXEC that left its lane
    off (no instruction wrote the lane): EXEC's evidence, not its cause."""
    return bool(_EXEC_OFF.search(r.responsible))


# an SALU op computing a lane mask (EXEC, VCC, an SGPR pair): its result's lane bit is a branch's or a
# select's condition; a copy of a mask (`s_mov_b32 s0, exec_lo`) too
_MASK_OP = re.compile(r"^s_(and|or|xor|andn2|orn2|and_not1|or_not1|nand|nor|xnor|not|mov)(_saveexec)?_b(32|64)$")
MASK_TRIES = 16  # the earliest mask computations and compares of a replay's path replayed with a lane's bit flipped


def _bit_after(trace: Any, snaps: Any, n: int, lane: int) -> tuple[str, int] | None:
    """_mask_bit of trace step `n`, read in the registers just after it."""
    return _mask_bit(snaps[min(n + 1, len(snaps) - 1)][1], trace[n].instr, lane)


def _mask_candidates(trace: Any, snaps: Any, lane: int) -> list[int]:
    """The trace steps whose result bit for `lane` a flip may try: each
    compare and each SALU mask op that holds the lane's bit, earliest
    first, at most MASK_TRIES."""
    return [n for n, st in enumerate(trace) if _COMPARE.match(st.instr.base)
            or (_MASK_OP.match(st.instr.base) and _bit_after(trace, snaps, n, lane) is not None)][:MASK_TRIES]


def _mask_bit(sregs: dict[str, Any], ins: Any, lane: int) -> tuple[str, int] | None:
    """The register holding `lane`'s bit of the mask SALU op `ins` wrote
    (EXEC for an `s_*_saveexec`, whose SGPR result is EXEC's old value;
    its destination else) and the bit as it is now; None where it wrote no
    mask (an SGPR copy of a non-mask, a constant's destination that is not
    a register)."""
    if ins.base.startswith("s_mov") and not (len(ins.operands) > 1 and isinstance(ins.operands[1], SReg)):
        return None
    names = ("exec_lo", "exec_hi") if "saveexec" in ins.base else \
        ins.operands[0].names if ins.operands and isinstance(ins.operands[0], SReg) else None
    if names is None or names[0] == "scc" or (lane >= 32 and len(names) < 2):
        return None
    r = names[0] if lane < 32 else names[1]
    v = sregs.get(r)
    return (r, (v >> (lane & 31)) & 1) if isinstance(v, int) else None


def _mask_cause(rows: list[C.Row], run: tuple[Machine, list[Any]], decisions: list[Decision], replay: Any,
                initial: Any, mask: int, out_reg: str, off: int, m32: int) -> None:
    """A lane-mask computation as a returned value's cause (issue #34: a
    mutated `s_xor`/`s_and_saveexec` before a branch): for each row with
    no evident cause (:func:`_plain`) or with its lane left unwritten
    (EXEC's last write named), the code is replayed with one lane-mask
    result's bit of the row's lane flipped, the earliest first (compares:
    their lane's result; SALU mask ops: EXEC for an `s_*_saveexec`, else
    the SGPR written; MASK_TRIES of them).  The first whose replay returns
    the IR's value is the first instruction whose result differs from what
    a correct program holds there (those before it, flipped, give no value
    wanted): it is named, then the first branch that replay took the other
    way, with the condition it read in each run (the reference run: what a
    correct mask makes the condition), or the value wanted where no branch
    differs."""
    todo = [r for r in C.deciding_first(rows) if _plain(r) or _exec_off_row(r)]
    if not todo:
        return
    m, snaps = run
    trace = m.trace or []
    r0 = todo[0]

    def bit_after(n: int, lane: int) -> tuple[str, int] | None:
        ins = trace[n].instr
        if _COMPARE.match(ins.base):
            return None
        return _mask_bit(snaps[min(n + 1, len(snaps) - 1)][1], ins, lane)  # (the registers just after step n)

    cands = [n for n, st in enumerate(trace) if _COMPARE.match(st.instr.base)
             or (_MASK_OP.match(st.instr.base) and bit_after(n, r0.lane) is not None)][:MASK_TRIES]

    def other_run(n: int, r: C.Row) -> list[Decision] | None:
        """The decisions of the replay with step n's bit of r's lane
        flipped, where it returns the IR's value in that lane."""
        decs: list[Decision] = []
        try:
            other = replay(initial, mask, flip_lane=(n, [r.lane]), decisions=decs)
        except Exception:  # (an explanation is never worth a crash)
            return None
        if other is None:
            return None
        x = other[0].v(int(out_reg[1:]))[r.lane] if out_reg.startswith("v") else other[0].s(out_reg)
        return decs if isinstance(x, int) and (x >> off) & m32 == r.expected else None

    def name(n: int, r: C.Row, decs: list[Decision], first: bool) -> None:
        ins = trace[n].instr
        b = bit_after(n, r.lane)
        if b is None:
            what = "SCC" if ins.base.startswith(("s_cmp_", "s_bitcmp")) else "EXEC" if \
                ins.base.startswith("v_cmpx") else "its mask"
            what = f"lane {r.lane}'s result in error ({what})"
        else:
            what = f"{b[0]} bit {r.lane & 31} = {b[1]}, a correct program would hold {1 - b[1]}"
        tail = ""
        # the first branch the two runs took apart: the condition each read
        d = next((k for k, (x, y) in enumerate(zip(decisions, decs)) if x[0] is y[0] and x[1] != y[1]), None)
        if d is not None:
            t, taken, cond, _, _ = decisions[d]
            way = "taken" if taken else "not taken"
            tail = (f" -> line {t.line} {t.mnemonic} {way} ({cond}; in the run with the bit flipped, {decs[d][2]}, "
                    f"{'not taken' if taken else 'taken'}), the path to the GPU value")
            r.chain.append(f"line {t.line} ({t.text.split(';')[0].strip()}): {way} ({cond}); in the run with line "
                           f"{ins.line}'s bit flipped it reads {decs[d][2]} and goes the other way")
        r.responsible = f"line {ins.line} {ins.mnemonic}: {what}{tail}; flipped, the GPU returns the value wanted, " \
                        f"{r.expected:#x}"
        r.chain.append(f"line {ins.line} ({print_instr(ins)}): {what}; flipped, the code gives the value wanted"
                       + (" (the mask computations and compares before it, flipped, do not)" if first else ""))

    for n in cands:
        decs = other_run(n, r0)
        if decs is None:
            continue
        name(n, r0, decs, True)
        for r in todo[1:]:  # (the other rows: each confirmed by its own replay)
            if (bit_after(n, r.lane) is not None or _COMPARE.match(trace[n].instr.base)) and \
                    (more := other_run(n, r)) is not None:
                name(n, r, more, False)
        return


def _branch_columns(decisions: list[Decision]) -> list[tuple[int, int, str]]:
    """The picture's branch columns (verify.svg.trace_svg): each decision's
    place in the trace, its line and "s_cbranch_scc0 L: taken (SCC = 0)"."""
    return [(n, t.line, f"{t.text.split(';')[0].strip()}: {'taken' if taken else 'not taken'}"
             + (f" ({cond})" if cond else "")) for t, taken, cond, _, n in decisions]


def _flipped_branch(decisions: list[Decision], agrees: Callable[[int], bool]) -> tuple[str, str] | None:
    """The latest of the conditional branches a replay met (BRANCH_TRIES of
    them) that, replayed going the other way, gives what the IR gives
    (`agrees(d)`, d the decision's index): (the cause's text, the path's
    line), from the compare that computed its condition to the branch."""
    for d in range(len(decisions) - 1, max(-1, len(decisions) - 1 - BRANCH_TRIES), -1):
        try:
            ok = agrees(d)
        except Exception:  # (an explanation is never worth a crash)
            return None
        if not ok:
            continue
        t, taken, cond, w, _ = decisions[d]
        how = ("taken" if taken else "not taken") + (f" ({cond})" if cond else "")
        line = (f"line {t.line} ({t.text.split(';')[0].strip()}): {how}; the other way the code gives the "
                f"value wanted")
        head = f"line {t.line} {t.mnemonic}: {how}"
        if w and cond:  # the instructions that computed the condition, then the branch
            want = _condition_wanted(t, cond)
            way = "taken" if taken else "not taken"
            via = "".join(f"line {s.instr.line} ({print_instr(s.instr)}){': ' + v if v else ''} -> "
                          for s, v in w[:-1])
            last = w[-1][0]
            line = (f"{via}line {last.instr.line} ({print_instr(last.instr)}): {cond} (a correct program "
                    f"would hold {want}) -> line {t.line} ({t.text.split(';')[0].strip()}): {way}; the other way "
                    "the code gives the value wanted")
            via = "".join(f"line {s.instr.line} {s.instr.mnemonic}{': ' + v if v else ''} -> " for s, v in w[:-1])
            head = (f"{via}line {last.instr.line} {last.instr.mnemonic}: {cond}, a correct program would hold "
                    f"{want} -> line {t.line} {t.mnemonic} {way}")
        return head, line
    return None


_PLAIN_WRITE = re.compile(r": writes [^ =,]+$")  # a responsible that is its last computation (no operand shown wrong)
# an operand read where another register holds the value wanted: a register that happens to hold it, where
# the branch replayed the other way gives the value wanted (the code on the other path reads that register)
_HELD = re.compile(r"^line \d+ \S+: \S+ reads its \S+ \S+ = [^;]*; \S+ holds [^,]*, with which it gives the value wanted")


def _name_branch(rows: list[C.Row], head: str, line: str, wanted: int | None = None) -> None:
    """Each row names the branch (`head`) as its cause, and its path shows
    the decision (`line`), unless the row already has an evident cause (an
    operand shown wrong, a lane left unwritten: a responsible that names
    another line than its last computation's).  `wanted`: the value the
    other way gives (a kernel's memory word; else each row's IR value)."""
    for r in rows:
        if " computed by " in r.responsible or _PLAIN_WRITE.search(r.responsible) or _HELD.search(r.responsible) or \
                "(the GPU value differs)" in r.responsible or "the GPU's store differs" in r.responsible or not r.chain:
            r.responsible = (f"{head}, the path to the GPU value; the other way it gives the value wanted, "
                             f"{r.expected if wanted is None else wanted:#x}")
        r.chain.append(line)


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
         flip: int | None = None, decisions: list[Decision] | None = None) -> None:
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
                decisions.append((t, taken, _condition_text(m, t), _condition_writer(m, t), len(m.trace or [])))
        k = b.taken if taken and b.taken is not None else b.fall
    raise RuntimeError("the path is longer than the walk's limit")


# a conditional branch met on a replay's path: the branch, whether it was taken,
# the condition it read (_condition_text), the trace steps that computed it and
# the number of trace steps run before it (where a picture draws it)
Decision = tuple[Any, bool, str, "list[tuple[Step, str]]", int]


class SccTraced(Machine):
    """A Machine that notes the trace step that last wrote SCC (`scc_by`;
    None: SCC as at entry), so that a branch on SCC names the instruction
    that computed it (:func:`_condition_writer`).  Explanation only: the
    replays of :func:`replay_straight` run on it, no proof does."""

    scc_by: Step | None = None
    before: dict[int, Any] | None = None  # trace step -> (VGPRs, SGPRs) before it (set by the replay)
    recorded: Any = None  # a kernel replay: the kernel model whose memories hold the replay's stores

    @property
    def scc(self) -> Any:
        return super().scc

    @scc.setter
    def scc(self, value: Any) -> None:
        self._scc = value
        self.scc_by = self.step

    def set_scc_from(self, make: Callable[[], Any]) -> None:
        super().set_scc_from(make)
        self.scc_by = self.step


def _condition_writer(m: Machine, t: Any) -> list[tuple[Step, str]]:
    """The trace steps that computed what conditional branch `t` reads, the
    first computation first (verify.explain.condition_path): SCC's last
    writer (an SccTraced machine), and where that is an SALU logic op (SCC
    = its result != 0), on to its inputs; or the last step that wrote a
    lane or all of VCC or EXEC, and back through an AND with EXEC, an
    `s_and`/`s_or` of two SGPRs (the one input that alone stands between
    it and the value a correct program holds) and an `s_cselect` (the SCC
    it read) to the compare.  Each step with what it wrote where the next
    reads it ("s0 = 0x1"; "" for the last, whose value the branch's
    condition shows).  Empty where the value is the one at entry or
    unknown."""
    mn = t.mnemonic
    trace = m.trace or []
    before: dict[int, Any] = getattr(m, "before", None) or {}

    def sregs_at(k: int) -> dict[str, Any] | None:
        snap = before.get(k)
        return snap[1] if snap is not None else (dict(m.sregs) if k >= len(trace) else None)

    if "scc" in mn:
        w = getattr(m, "scc_by", None)
        if w is None:
            return []
        j = next((k for k in range(len(trace) - 1, -1, -1) if trace[k] is w), None)
        scc = m.scc
        if j is None or not isinstance(scc, (bool, int)):
            return [(w, "")]
        return E.scc_path(trace, j, bool(scc), sregs_at)
    regs: tuple[str, ...] = ("exec_lo", "exec_hi") if "exec" in mn else ("vcc_lo", "vcc_hi")
    regs = regs[:1 if m.W == 32 else 2]
    now = E.sgpr_value(m.sregs, regs)
    j = next((j for j in range(len(trace) - 1, -1, -1) if any(e[0] in regs for e in trace[j].events)), None)
    if j is None or now is None:
        return []
    return E.condition_path(trace, j, (1 << (32 * len(regs))) - 1, now == 0, sregs_at)


_sval = E.sgpr_value


def _condition_wanted(t: Any, cond: str) -> str:
    """What the condition a branch read (`cond`: :func:`_condition_text`)
    holds in a correct program, where going the other way gives the value
    wanted: SCC the other bit, VCC or EXEC zero or not zero."""
    if cond.startswith("SCC = "):
        return "0" if cond.endswith("1") else "1"
    reg = "EXEC" if "exec" in t.mnemonic else "VCC"
    zero = all(int(v.split("=")[1], 16) == 0 for v in cond.split(", "))
    return f"{reg} != 0" if zero else f"{reg} = 0"


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
               decisions: list[Decision] | None = None, flip_lane: tuple[int, int | list[int]] | None = None
               ) -> tuple[Machine, list[Any]] | None:
        m = SccTraced(Concrete(), W, initial, FeatureLog(target), dict(assume), trace=True, waits=True)
        setup(m)
        m.set_s("exec_lo", mask & 0xFFFFFFFF)
        m.set_s("exec_hi", (mask >> 32) & 0xFFFFFFFF)
        m.scc = initial("scc", "scc", None)
        g = gpu_run(m)
        m.context = [[]]
        m.hazard_entry = "kernel" if code.kernel else "fragment"
        snaps: dict[int, Any] = {}
        m.before = snaps
        trace = m.trace
        assert trace is not None

        def one(ins: Any) -> None:
            n = len(trace)
            snaps[n] = ({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
            g.step(ins)
            m.ran(ins)
            if flip_lane is not None and n == flip_lane[0] and len(trace) == n + 1:
                for lane in flip_lane[1] if isinstance(flip_lane[1], list) else [flip_lane[1]]:
                    _flip_result(m, ins, lane)

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
    branch: str = ""  # without rows: a branch as the cause (_branch_only), and its path line
    branch_path: str = ""

    @property
    def cause(self) -> str:
        rows = C.deciding_first(self.rows)
        return rows[0].responsible if rows else self.branch or self.gpu_at

    def lane_lines(self) -> list[str]:
        """The cause first, then every active lane's work-item ID (runs that
        repeat a lane, shifted, folded into one line as the lane tables
        fold: never a lane left unnamed), then the table of the lanes whose
        store differs, folded as verify lowering's, with the first lanes'
        paths step by step."""
        out: list[str] = [f"  cause: {self.cause}"] if self.rows or self.branch else []
        t = self.tids
        for f in C.fold_lanes(sorted(t), lambda a, b: t[b] - t[a] == b - a) if t else []:
            out.append(f"  {f.text()}" if f.like is not None else f"  lane {f.lanes[0]}: workitem.id.x = {t[f.lanes[0]]:#x}")
        if self.branch_path and not self.rows:
            out.append(f"  the branch: {self.branch_path}")
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
                           **({"expected": None if rows[i].expected_src == E.NO_STORE else rows[i].expected,
                               "actual": None if rows[i].actual_src == E.NO_STORE else rows[i].actual, "differs": True,
                               "expected_from": rows[i].expected_src, "actual_from": rows[i].actual_src,
                               "responsible": rows[i].responsible, "trace": rows[i].chain} if i in rows else
                              {"expected": None, "actual": None, "differs": False})}
                          for i in mask_lanes(self.exec_mask)],
                "store": self.store_at, "ir_instruction": "", "gpu_instruction": self.gpu_at, "cause": self.cause,
                "pattern": []}


M32 = 0xFFFFFFFF


_STORE = re.compile(r"^(global|flat|buffer|scratch|ds)_(store|write)")  # (an atomic writes a register or memory)


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
        # the kernel model (verify/tv/kernel.py sets it): its store instructions run again in a replay, on the
        # concrete backend, to record where the replay's path stores what (every kind of store it models)
        self.kernel: Any = None
        self.lds_instr: list[Any] = []  # per GPU LDS store group: the instruction that made it
        self._lds = 0
        self.space = "global"  # the memory this replay explains (view: "lds")

    def view(self, ir_mem: Any, gpu_mem: Any) -> KernelReplay:
        """This replay explaining the LDS (memory_verdict's second memory):
        its stores, and the instructions that made its store groups."""
        out = copy.copy(self)
        out.ir_mem, out.gpu_mem, out.group_instr, out.space = ir_mem, gpu_mem, self.lds_instr, "lds"
        return out

    def _recorder(self, m: Machine) -> Any:
        """A copy of the kernel model over the concrete machine `m`, its
        memories empty: a store instruction run on it records the replay's
        stores (addresses and values the replay's registers give)."""
        k = self.kernel
        if k is None:
            return None
        B = m.B
        r = copy.copy(k)
        r.m, r.pc, r.contract = m, True, []
        r.mem = type(k.mem)(B, lambda lo, hi: B.const(0))
        r.lds = type(k.lds)(B, lambda lo, hi: B.const(0)) if k.lds is not None else None
        r.pending_v, r.pending_s, r.pending_ds, r.vm_order = set(), set(), set(), []
        return r

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
        lds = getattr(self.kernel, "lds", None)
        self._lds = len(lds.groups) if lds is not None else 0
        self._before = (({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
                        if isinstance(op_of(ins.base), Opaque) else None)

    def after(self, ins: Any) -> None:
        self.group_instr += [ins] * (len(self.gpu_mem.groups) - self._groups)
        lds = getattr(self.kernel, "lds", None)
        if lds is not None:
            self.lds_instr += [ins] * (len(lds.groups) - self._lds)
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

    def replay(self, q: Any, mask: int, flip: int | None = None, decisions: list[Decision] | None = None,
               flip_lane: tuple[int, int] | None = None) -> tuple[Machine, list[Any]] | None:
        """The code run concretely under q's model with EXEC = mask, traced;
        with the registers before each trace step (verify.cex.ValueAt).
        `decisions`, `flip`: the conditional branches met, one of them the
        other way (:func:`walk`), on an SccTraced machine."""
        if self.repeated:
            return None
        W = self.W

        def initial(kind: str, name: str, lane: int | None) -> Any:
            t = self.initial(kind, name, lane)
            return q.truth(t) if kind == "scc" else q.value(t) & M32

        m = SccTraced(Concrete(), W, initial, FeatureLog(self.target), dict(self.assume), trace=True, waits=True)
        m.set_s("exec_lo", mask & M32)
        m.set_s("exec_hi", (mask >> 32) & M32)
        m.scc = initial("scc", "scc", None)
        m.context = [[]]
        m.hazard_entry = "kernel"
        trace = m.trace
        assert trace is not None
        snaps: dict[int, Any] = {}
        m.before = snaps
        rec = self._recorder(m)
        m.recorded = rec
        makers = {id(i) for i in self.group_instr + self.lds_instr}

        def one(ins: Any) -> None:
            snaps[len(trace)] = ({k: list(v) for k, v in m.vregs.items()}, dict(m.sregs))
            eff = self.effects.get(id(ins))
            if eff is None:
                m.run([ins])
            else:  # a memory instruction: its register writes, the model's values
                if m.recorded is not None and id(ins) in makers and _STORE.match(ins.mnemonic):
                    # a store (it writes no register): where and what it stores on this path
                    try:
                        ok = rec.step(ins) is None
                    except Exception:  # (an explanation is never worth a crash)
                        ok = False
                    if not ok:
                        m.recorded = None
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
            if flip_lane is not None and len(trace) - 1 == flip_lane[0]:
                _flip_result(m, ins, flip_lane[1])

        try:
            walk(m, self.program, self.blocks, one, flip, decisions)
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


def _lane_store(q: Any, mem: Any, lane: int, W: int, addr: tuple[int, int] | None = None,
                group: int | None = None) -> tuple[int, tuple[int, int], int, bool] | None:
    """Lane `lane`'s store in q's model: its last enabled one at `addr` (a
    store instruction's group of W lanes, any of them), or the one of store
    group `group`: (store index, address, value, poison); None where it
    stores nothing so."""
    start = 0
    found = None
    for g, lanes in enumerate(mem.groups):
        n = start + lane
        start += len(lanes)
        if len(lanes) != W or (group is not None and g != group):
            continue
        lo, hi, v, p, en = mem.stores[n]
        if not q.truth(en):
            continue
        at = (q.value(lo) & M32, q.value(hi) & M32)
        if addr is None or at == addr:
            found = (n, at, q.value(v) & M32, bool(q.truth(p)))
    return found


def _exec_cause(run: tuple[Machine, list[Any]] | None, ins: Any, lane: int, text: str, want: int = 0,
                ref: E.Reference | None = None) -> tuple[list[str], str]:
    """A store instruction `ins` that ran in `lane` where the IR's lane
    stores nothing (`want` 0), or ran with the lane off where the IR's lane
    stores (`want` 1): the EXEC bit of the lane traced back to the compare
    that set it (verify.explain.condition_path: through `s_and_saveexec`
    and an AND with EXEC to the `v_cmp`; through an `s_xor` or
    `s_andn2_saveexec` to the input that differs from `ref`, the run that
    gives the value wanted).  (chain, responsible); `text` alone where no
    computation of EXEC is found or the lane's bit is not the other."""
    if run is None:
        return [], text
    m, snaps = run
    trace = m.trace or []
    k = next((n for n in range(len(trace) - 1, -1, -1) if trace[n].instr is ins), None)
    half = ("exec_lo", "exec_hi")[:1 if m.W == 32 else 2]
    j = next((n for n in range(k - 1, -1, -1) if any(e[0] in half for e in trace[n].events)), None) \
        if k is not None else None
    if j is None or k is None:
        return [], text

    def sregs_at(n: int) -> dict[str, Any] | None:
        got: dict[str, Any] = snaps[min(n, len(snaps) - 1)][1]
        return got
    ex = E.sgpr_value(sregs_at(k), half)
    if ex is None or (ex >> lane) & 1 == want:
        return [], text
    notes: list[str] = []
    path = E.condition_path(trace, j, 1 << lane, bool(want), sregs_at, ref=ref, notes=notes)
    if not path:
        return [], text
    last = path[-1][0]
    via = "".join(f"line {s.instr.line} {s.instr.mnemonic}{': ' + v if v else ''} -> " for s, v in path[:-1])
    resp = (f"{via}line {last.instr.line} {last.instr.mnemonic}: EXEC bit {lane} = {1 - want}, a correct program "
            f"would hold {want} -> {text}")
    chain = [f"line {s.instr.line} ({print_instr(s.instr)}){': ' + v if v else ''}" for s, v in reversed(path[:-1])]
    chain.insert(0, f"line {last.instr.line} ({print_instr(last.instr)}): EXEC bit {lane} = {1 - want} (a correct "
                    f"program would hold {want})")
    chain[0:0] = [text, *notes]  # (latest first: the notes on the path's two-input steps print after it)
    return chain, resp


def _reference(run: tuple[Machine, list[Any]], other: tuple[Machine, list[Any]]) -> E.Reference:
    """verify.explain.Reference over two replays: what a register held just
    after a step of `run` in `other` (the run that gives the value wanted),
    after the same instruction's same occurrence there; None where that
    did not run there."""
    trace, t2, snaps2 = run[0].trace or [], other[0].trace or [], other[1]

    def ref(j: int, regs: tuple[str, ...]) -> int | None:
        ins = trace[j].instr
        occ = sum(1 for st in trace[:j] if st.instr is ins)
        hits = [n for n, st in enumerate(t2) if st.instr is ins]
        if occ >= len(hits) or hits[occ] + 1 >= len(snaps2):
            return None
        return E.sgpr_value(snaps2[hits[occ] + 1][1], regs)
    return ref


def _hex_at(a: tuple[int, int]) -> str:
    return f"{a[1] << 32 | a[0]:#x}"


def explain_kernel(kc: KernelCex, q: Any, rp: KernelReplay, at: tuple[Any, Any]) -> None:
    """A kernel's counterexample as a lane table (issue #34): the store
    instruction that wrote the differing memory word, and for each active
    lane of it the value the IR stores and the value the GPU stores, each
    lane's stores paired by address (the IR's last store of the lane to
    the address the GPU's lane stores at, whichever IR store instruction
    made it): where the GPU's lane stores elsewhere than the IR's, its
    address ("at A, not B"); where one side's lane stores and the other's
    stores nothing there, "no store" in that column.  The differing lanes
    traced back through the registers they passed (verify.cex.trace_lane)
    to their cause.  Fills kc.rows; leaves kc as it was where the GPU has
    no store instruction of whole lanes at the word."""
    W = rp.W
    # (the LDS: 32-bit addresses, its stores' high halves 0)
    addr = (q.value(at[0]) & M32, 0 if rp.space == "lds" else q.value(at[1]) & M32)
    ir, gpu = rp.ir_mem, rp.gpu_mem
    n = _store_at(q, gpu.stores, addr)
    word = addr[1] << 32 | addr[0]
    n_ir = _store_at(q, ir.stores, addr)
    ig = _group_of(ir.groups, n_ir)[0] if n_ir is not None else None
    if n is not None:
        g = _group_of(gpu.groups, n)[0]
    elif ig is not None and len(ir.groups) == len(gpu.groups):
        g = ig  # (no GPU store at the word: the GPU's store instruction in the IR's one's place, its lanes' addresses)
    else:
        return _branch_only(kc, q, rp, word)
    if len(gpu.groups[g]) != W or g >= len(rp.group_instr) or (ig is not None and len(ir.groups[ig]) != W):
        return _branch_only(kc, q, rp, word)
    ins = rp.group_instr[g]
    dword = g - next(j for j, x in enumerate(rp.group_instr) if x is ins)
    shift, part = 0, M32  # the stored value's bits in its register (a byte memory's store group: one byte)
    if hasattr(gpu, "write_bytes"):  # (verify/tv/bytemem.py: one group per byte, lowest address first)
        shift = 8 * (dword % 4) + (16 if "d16_hi" in ins.mnemonic else 0)  # [S:mem16-d16]
        dword, part = dword // 4, 0xFF
    ops = [p.strip().split()[0] for p in ins.text.split(";")[0].strip().split(None, 1)[-1].split(",") if p.strip()]
    data_op = ops[0] if ins.mnemonic.startswith("buffer_") else ops[1] if len(ops) > 1 else ""
    data = _vreg(data_op, dword)
    addr_reg = _vreg(ops[0], 0) if not ins.mnemonic.startswith("buffer_") and ops else None
    decisions: list[Decision] = []
    run = rp.replay(q, kc.exec_mask, decisions=decisions)
    active = [bool(kc.exec_mask >> i & 1) for i in range(W)]
    refs: dict[str, Any] = {}

    def ref_for(lane: int) -> E.Reference | None:
        """The run that gives the IR's word, for the lane that stores it:
        the replay with that lane's compare result the other way
        (:func:`_kernel_compare`), where one does."""
        if "found" not in refs:
            refs["found"] = _kernel_compare(kc, q, rp, word, run) if run is not None else None
        found = refs["found"]
        if found is None or found[1] != lane or run is None:
            return None
        if "ref" not in refs:
            other = rp.replay(q, kc.exec_mask, flip_lane=(found[2], lane))
            refs["ref"] = _reference(run, other) if other is not None else None
        got: E.Reference | None = refs["ref"]
        return got
    low = Lowering("tv", "", "", {}, [], [W], "any", [Binding("workitem.id", VReg(0), None)],  # type: ignore[arg-type]
                   [Binding("mem", VReg(0), None)], None, [])  # type: ignore[arg-type]
    where = f"line {ins.line} {ins.mnemonic}"
    rows: list[C.Row] = []
    for i in range(W):
        if not active[i]:
            continue
        gs = _lane_store(q, gpu, i, W, group=g)
        if gs is not None:
            ist = _lane_store(q, ir, i, W, addr=gs[1])
            other = _lane_store(q, ir, i, W, group=ig) if ist is None and ig is not None else None
            if other is not None and (other[3] or _lane_store(q, gpu, i, W, addr=other[1]) is not None):
                other = None  # (the GPU's lane stores the IR's address too: not the address in error)
        else:
            ist = _lane_store(q, ir, i, W, group=ig) if ig is not None else None
            if ist is None or ist[3]:
                continue
            again = _lane_store(q, gpu, i, W, addr=ist[1])
            if again is None:  # the IR's lane stores, the GPU's stores nothing there
                text = f"{where}: the GPU's lane {i} stores nothing at {_hex_at(ist[1])}"
                steps, why = _exec_cause(run, ins, i, text, want=1, ref=ref_for(i))
                rows.append(C.Row("mem", i, ist[2], "", 0, E.NO_STORE, why, steps, bits=32))
            elif again[2] != ist[2]:
                rows.append(C.Row("mem", i, ist[2], "", again[2], f"at {_hex_at(ist[1])}",
                                  f"the GPU's store of lane {i} at {_hex_at(ist[1])} differs", [], bits=32))
            continue
        if ist is not None and (ist[3] or ist[2] == gs[2]):
            continue  # (the IR stores poison there, or the same value)
        a = gs[2]
        if ist is None and other is None:  # the GPU's lane stores where the IR's stores nothing
            text = f"{where}: lane {i} stores at {_hex_at(gs[1])}, where the IR's stores nothing"
            steps, why = _exec_cause(run, ins, i, text, ref=ref_for(i))
            rows.append(C.Row("mem", i, 0, E.NO_STORE, a, f"at {_hex_at(gs[1])}", why, steps, bits=32))
            continue
        e = (ist or other or gs)[2]
        moved = ist is None  # the GPU's lane stores at another address than the IR's
        a_src = f"at {_hex_at(gs[1])}, not {_hex_at(other[1])}" if moved and other is not None else ""
        reg = addr_reg if moved else data
        chain: list[str] = []
        resp = ""
        if run is not None and reg is not None and data is not None:
            m, snaps = run
            got = m.v(int(data[1:]))[i]  # (the replay is the model's: the store's value agrees)
            if isinstance(got, int) and (got >> shift) & part == a:
                chain, src, resp = C.trace_lane(low, m.trace or [], reg, i, active, _reader(m, snaps), through=True,
                                                expected=e if reg == data and part == M32 else None)
                a_src = a_src or src
                byte = f" (bits {shift}-{shift + 7}: {a:#x})" if part != M32 else ""
                what = (f"'s address is from {reg}[{i}]" if reg == addr_reg else
                        f" stores {reg}[{i}] = {got & M32:#x}{byte}")
                chain.insert(0, f"line {ins.line} ({ins.text.split(';')[0].strip()}): lane {i}{what}")
        rows.append(C.Row("mem", i, e, "", a, a_src, resp or f"{where}: the GPU's store differs", chain, bits=32))
    kc.rows, kc.store_at, kc.wave = rows, where, W
    found = _kernel_branch(kc, q, rp, word, run, decisions) if run is not None and rows else None
    if found is not None:
        _name_branch([r for r in rows if r.lane == found[2]], found[0], found[1], wanted=kc.ir)
    elif run is not None and rows:
        cmp = refs["found"] if "found" in refs else _kernel_compare(kc, q, rp, word, run)
        if cmp is not None:
            for r in rows:
                if r.lane == cmp[1] and (" computed by " in r.responsible or _PLAIN_WRITE.search(r.responsible)
                                         or "the GPU's store differs" in r.responsible or not r.chain):
                    r.responsible = cmp[0]
                    r.chain.append(cmp[0])
        else:  # a lane-mask computation (an s_xor, an s_and_saveexec) that sent the lane the wrong way
            mk = _kernel_mask(kc, q, rp, word, run, decisions)
            for r in rows:
                if mk is not None and r.lane == mk[1] and (
                        " computed by " in r.responsible or _PLAIN_WRITE.search(r.responsible)
                        or "the GPU's store differs" in r.responsible or not r.chain):
                    r.responsible = mk[0]
                    r.chain += mk[2]
    traced = C.deciding_first([r for r in rows if r.chain])
    if run is not None and traced:  # the picture of the deciding lane's store (verify tv --svg)
        from .. import svg  # (the picture's module loads with a counterexample only: start-up, issue 35)
        m, snaps = run
        r0 = traced[0]
        reg = addr_reg if r0.actual_src.startswith("at ") and addr_reg else data
        if reg is not None:
            title = f"{where}: the stores differ, EXEC {fmt_mask(kc.exec_mask, W)}"
            kc.svg, kc.svg_full = (svg.trace_svg(low, m, _reader(m, snaps), W, kc.exec_mask, traced, reg, title, full,
                                                 branches=_branch_columns(decisions))
                                   for full in (False, True))


def _word_result(rp: KernelReplay, run: tuple[Machine, list[Any]], word: int
                 ) -> tuple[int | None, int | None] | None:
    """The value a replay's last store to the memory word (a byte, where
    memory is byte-granular; the LDS: a 32-bit address) at `word` writes,
    and the lane that writes it: the stores the replay recorded by running
    the kernel model's own store instructions on its registers (global,
    flat, buffer, LDS, sub-dword: every kind verify models).  None where
    the replay recorded none (an instruction it could not run so), two
    lanes of one store write the word different values; (None, None) where
    no store writes it."""
    m = run[0]
    rec = getattr(m, "recorded", None)
    if rec is None:
        return None
    mem = rec.lds if rp.space == "lds" else rec.mem
    if mem is None:
        return None
    got: tuple[int | None, int | None] = (None, None)
    n = 0
    for lanes in mem.groups:
        seen: dict[int, int] = {}
        for i in range(len(lanes)):
            lo, hi, v, _, en = mem.stores[n + i]
            if en is not True or not all(isinstance(x, int) for x in (lo, hi, v)):
                if en is not False and en is not True:
                    return None
                continue
            at = lo & M32 if rp.space == "lds" else (hi & M32) << 32 | (lo & M32)
            if at == (word & M32 if rp.space == "lds" else word):
                seen[v & M32] = i
        n += len(lanes)
        if len(seen) > 1:
            return None
        if seen:
            got = next(iter(seen.items()))
    return got


def _word_stored(rp: KernelReplay, run: tuple[Machine, list[Any]], word: int) -> tuple[int, int] | None:
    """:func:`_word_result` where a store writes the word: (value, lane)."""
    got = _word_result(rp, run, word)
    return None if got is None or got[0] is None or got[1] is None else (got[0], got[1])


def _kernel_branch(kc: KernelCex, q: Any, rp: KernelReplay, word: int, run: tuple[Machine, list[Any]],
                   decisions: list[Decision]) -> tuple[str, str, int] | None:
    """A branch as a kernel's cause (:func:`_flipped_branch`): the replay's
    last store to the memory word at `word` gives the GPU's value (the
    replay's stores are the model's), and replayed with the branch going the
    other way, it gives the IR's.  (the cause's text, the path's line, the
    lane that stores the word)"""
    stored = _word_stored(rp, run, word) if decisions else None
    if stored is None or stored[0] != kc.gpu:
        return None

    def agrees(d: int) -> bool:
        other = rp.replay(q, kc.exec_mask, flip=d)
        again = _word_stored(rp, other, word) if other is not None else None
        return again is not None and again[0] == kc.ir
    found = _flipped_branch(decisions, agrees)
    return (*found, stored[1]) if found is not None else None


_COMPARE = re.compile(r"^(v_cmpx?_|s_cmp_|s_bitcmp)")  # a compare: a lane's bit of a mask, or SCC


def _flip_result(m: Machine, ins: Any, lane: int) -> None:
    """What compare `ins` wrote, the other way for `lane`: SCC (s_cmp),
    EXEC's bit of the lane (v_cmpx: it writes EXEC; its destination too
    where it names one), or the bit of the lane mask it wrote (v_cmp:
    its SGPR destination, VCC where it names none)."""
    if ins.base.startswith(("s_cmp_", "s_bitcmp")):
        m.scc = not bool(m.scc)
        return
    if _MASK_OP.match(ins.base):  # (an SALU mask computation: the lane's bit of the mask it wrote)
        b = _mask_bit(m.sregs, ins, lane)
        if b is None:
            raise ValueError(ins.text)
        m.set_s(b[0], (m.sregs[b[0]] ^ (1 << (lane & 31))) & M32)
        return
    dst = ins.operands[0] if ins.operands and isinstance(ins.operands[0], SReg) else None
    masks = [dst.names] if dst is not None else []
    if ins.base.startswith("v_cmpx"):
        masks.append(("exec_lo", "exec_hi"))
    elif dst is None:
        masks.append(("vcc_lo", "vcc_hi"))
    for names in masks:
        r = names[0] if lane < 32 else names[1] if len(names) > 1 else None
        if r is None:
            raise ValueError(ins.text)
        m.set_s(r, (m.s(r) ^ (1 << (lane & 31))) & M32)


COMPARE_TRIES = 8  # the latest compares of a replay's path replayed with a lane's result the other way


def _kernel_compare(kc: KernelCex, q: Any, rp: KernelReplay, word: int, run: tuple[Machine, list[Any]]
                    ) -> tuple[str, int, int] | None:
    """A compare as a kernel's cause where no branch is (divergent code:
    a `v_cmpx` or `v_cmp` + `s_and_saveexec` lets a lane run the other
    path's stores): the replay's last store to the word gives the GPU's
    value, and replayed with one compare's result for the lane that
    stores it the other way (the latest first, COMPARE_TRIES of them), the
    IR's.  (the cause's text, the lane, the compare's trace step)"""
    stored = _word_result(rp, run, word)
    addr = (word & M32, 0 if rp.space == "lds" else word >> 32 & M32)
    gpu_n = _store_at(q, rp.gpu_mem.stores, addr)
    ir_n = _store_at(q, rp.ir_mem.stores, addr)
    if stored is None or (stored[0] != kc.gpu if gpu_n is not None else stored[0] is not None):
        return None
    m, _ = run
    trace = m.trace or []
    # the lane that stores the word: the GPU's, or where the GPU stores nothing there, the IR's
    lane = stored[1] if stored[1] is not None else _group_of(rp.ir_mem.groups, ir_n)[1] if ir_n is not None else None
    if lane is None:
        return None

    def agrees(got: tuple[int | None, int | None] | None) -> bool:
        return got is not None and (got[0] == kc.ir if ir_n is not None else got[0] is None)
    cands = [n for n in range(len(trace) - 1, -1, -1) if _COMPARE.match(trace[n].instr.base)][:COMPARE_TRIES]
    for n in cands:
        try:
            other = rp.replay(q, kc.exec_mask, flip_lane=(n, lane))
            again = _word_result(rp, other, word) if other is not None else None
        except Exception:  # (an explanation is never worth a crash)
            return None
        if agrees(again):
            ins = trace[n].instr
            what = "SCC" if ins.base.startswith(("s_cmp_", "s_bitcmp")) else \
                "EXEC" if ins.base.startswith("v_cmpx") else "its mask"
            wanted = f"stores the value wanted, {kc.ir:#x}" if ir_n is not None else "stores nothing there, as the IR"
            return (f"line {ins.line} {ins.mnemonic}: lane {lane}'s result in error ({what}): the other way the GPU "
                    f"{wanted}", lane, n)
    return None


def _kernel_mask(kc: KernelCex, q: Any, rp: KernelReplay, word: int, run: tuple[Machine, list[Any]],
                 decisions: list[Decision]) -> tuple[str, int, list[str]] | None:
    """:func:`_mask_cause` for a kernel's (or pointer function's) memory
    word: the lane that stores it (the GPU's, or the IR's where the GPU's
    stores nothing there), and the earliest lane-mask result of the path
    (a compare's, an SALU mask op's: MASK_TRIES of them) whose bit of that
    lane, flipped, makes the GPU store the IR's word (or nothing where the
    IR stores nothing).  (the cause's text, the lane, the path's lines,
    latest first)."""
    stored = _word_result(rp, run, word)
    addr = (word & M32, 0 if rp.space == "lds" else word >> 32 & M32)
    ir_n = _store_at(q, rp.ir_mem.stores, addr)
    if stored is None:
        return None
    lane = stored[1] if stored[1] is not None else _group_of(rp.ir_mem.groups, ir_n)[1] if ir_n is not None else None
    if lane is None:
        return None
    m, snaps = run
    trace = m.trace or []

    cands = _mask_candidates(trace, snaps, lane)
    for n in cands:
        decs: list[Decision] = []
        try:
            other = rp.replay(q, kc.exec_mask, flip_lane=(n, lane), decisions=decs)
            again = _word_result(rp, other, word) if other is not None else None
        except Exception:  # (an explanation is never worth a crash)
            return None
        if again is None or (again[0] != kc.ir if ir_n is not None else again[0] is not None):
            continue
        ins = trace[n].instr
        b = None if _COMPARE.match(ins.base) else _bit_after(trace, snaps, n, lane)
        if b is None:
            what = "SCC" if ins.base.startswith(("s_cmp_", "s_bitcmp")) else "EXEC" if \
                ins.base.startswith("v_cmpx") else "its mask"
            head = f"line {ins.line} {ins.mnemonic}: lane {lane}'s result in error ({what})"
        else:
            head = (f"line {ins.line} {ins.mnemonic}: {b[0]} bit {lane & 31} = {b[1]}, a correct program would "
                    f"hold {1 - b[1]}")
        wanted = f"stores the value wanted, {kc.ir:#x}" if ir_n is not None else "stores nothing there, as the IR"
        lines = [f"line {ins.line} ({print_instr(ins)}): {head.split(': ', 1)[1]}; flipped, the GPU {wanted} "
                 "(the mask computations and compares before it, flipped, do not)"]
        d = next((k for k, (x, y) in enumerate(zip(decisions, decs)) if x[0] is y[0] and x[1] != y[1]), None)
        tail = ""
        if d is not None:
            t, taken, cond, _, _ = decisions[d]
            way = "taken" if taken else "not taken"
            tail = (f" -> line {t.line} {t.mnemonic} {way} ({cond}; in the run with the bit flipped, {decs[d][2]}, "
                    f"{'not taken' if taken else 'taken'})")
            lines.insert(0, f"line {t.line} ({t.text.split(';')[0].strip()}): {way} ({cond}); in the run with line "
                            f"{ins.line}'s bit flipped it reads {decs[d][2]} and goes the other way")
        return f"{head}{tail}; flipped, the GPU {wanted}", lane, lines
    return None


def exec_return_cause(q: Any, rp: KernelReplay, mask: int, after: int) -> str | None:
    """A function that returns with EXEC (`after`) other than at entry
    (`mask`): :func:`_kernel_mask`'s search for the lowest lane whose bit
    differs, the replay agreeing where EXEC at its end is EXEC at entry
    and the last store at each word the IR stores is the IR's.
    The cause's text (the mask computation, the first branch its replay
    took the other way), or None where no flip of the path's first
    MASK_TRIES mask results restores EXEC."""
    diff = (mask ^ after) & -(mask ^ after)
    if not diff:
        return None
    lane = diff.bit_length() - 1
    decisions: list[Decision] = []
    try:
        run = rp.replay(q, mask, decisions=decisions)
    except Exception:  # (an explanation is never worth a crash)
        return None
    if run is None:
        return None
    m, snaps = run
    trace = m.trace or []

    def exec_of(mo: Machine) -> int | None:
        return E.sgpr_value(mo.sregs, ("exec_lo", "exec_hi")[:1 if rp.W == 32 else 2])

    if exec_of(m) != after:  # (the replay is not the model's)
        return None
    words: dict[int, int | None] = {}  # the IR's last store at each word (None: poison)
    for lo, hi, v, p, en in rp.ir_mem.stores:
        if q.truth(en):
            w = q.value(lo) & M32 | (0 if rp.space == "lds" else (q.value(hi) & M32) << 32)
            words[w] = None if q.truth(p) else q.value(v) & M32

    if not words:  # (EXEC alone: a compare sending the lane down the other path restores it too)
        return None

    def stores_agree(run2: tuple[Machine, list[Any]]) -> bool:
        for w, v in words.items():
            got = _word_result(rp, run2, w)
            if got is None or (v is not None and got[0] != v):
                return False
        return True

    cands = _mask_candidates(trace, snaps, lane)
    for n in cands:
        decs: list[Decision] = []
        try:
            other = rp.replay(q, mask, flip_lane=(n, lane), decisions=decs)
        except Exception:  # (an explanation is never worth a crash)
            return None
        if other is None or exec_of(other[0]) != mask or not stores_agree(other):
            continue
        ins = trace[n].instr
        b = None if _COMPARE.match(ins.base) else _bit_after(trace, snaps, n, lane)
        what = (f"lane {lane}'s result in error" if b is None else
                f"{b[0]} bit {lane & 31} = {b[1]}, a correct program would hold {1 - b[1]}")
        d = next((k for k, (x, y) in enumerate(zip(decisions, decs)) if x[0] is y[0] and x[1] != y[1]), None)
        tail = ""
        if d is not None:
            t, taken, cond, _, _ = decisions[d]
            tail = (f" -> line {t.line} {t.mnemonic} {'taken' if taken else 'not taken'} ({cond}; in the run with "
                    f"the bit flipped, {decs[d][2]}, {'not taken' if taken else 'taken'})")
        return (f"line {ins.line} {ins.mnemonic}: {what}{tail}; flipped, EXEC at the return is EXEC at entry and "
                "the IR's stores are the GPU's")
    return None


def _branch_only(kc: KernelCex, q: Any, rp: KernelReplay, word: int) -> None:
    """Where the stores cannot be paired into a lane table (a store both
    paths share, the IR's on each path): a branch as the cause all the
    same (kc.branch), with its path line."""
    decisions: list[Decision] = []
    run = rp.replay(q, kc.exec_mask, decisions=decisions)
    found = _kernel_branch(kc, q, rp, word, run, decisions) if run is not None else None
    if found is not None:
        kc.branch = f"{found[0]}, the path to the GPU value; the other way it gives the value wanted, {kc.ir:#x}"
        kc.branch_path = found[1]
    elif run is not None:  # divergent code: a compare that let the storing lane in (or kept it out)
        cmp = _kernel_compare(kc, q, rp, word, run)
        if cmp is not None:
            kc.branch = cmp[0]


def _vreg(text: str, k: int) -> str | None:
    """The k-th VGPR of an operand (v3, v[4:5]); None for another operand."""
    m = re.fullmatch(r"v(\d+)|v\[(\d+):(\d+)\]", text)
    if m is None:
        return None
    first = int(m.group(1) or m.group(2))
    return f"v{first + k}"
