"""Counterexamples explained: the lane table, the cause and the pattern.

What :mod:`verify.cex` found (the EXEC mask and register values of a state
that fails, replayed concretely) is explained here: each differing output
lane traced back through the registers it passed (VGPRs, SGPR hops,
lane-select and address registers, EXEC) to the first instruction whose
result differs from what a correct program would hold (:func:`trace_lane`,
:func:`blame`; a branch that went the wrong way, back to the compare that
set its SCC, VCC or EXEC: verify/tv/cextv.py), a lane pattern where one formula explains
the differing lanes (:func:`lane_pattern`), and the folded lane table
(:func:`render`).  Nothing here decides a verdict: verify.cex has already
shown the state fails before any of this runs, so this module is outside the
proof records' core hash (verify.revisions.NOT_CORE) and an edit to an
explanation re-proves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import catalog
from .backend import Concrete
from .encode import HI, Encoding, binding_labels, mismatches, replay
from .ir import Imm, Instr, Lowering, SReg, VReg, reg_key
from .lanes import fmt_mask, lane_formula, lanes_text, mask_lanes
from .lowering_file import print_instr
from .machine import Machine, Step
from .ops.base import expand_b64, op_of
from .spec import spec_monoid
from .target import FeatureLog, Target

M32 = 0xFFFFFFFF
NO_STORE = "no store"  # a kernel's lane table: the side whose lane stores nothing at the address (its value unused)


@dataclass
class Row:
    output: str
    lane: int
    expected: int
    expected_src: str
    actual: int
    actual_src: str
    responsible: str  # "line N: <instruction>: <why>"
    chain: list[str] = field(default_factory=list)
    bits: int = 32  # 64: a whole 64-bit value (its two halves joined)  [S:wide64]


@dataclass
class Counterexample:
    obligation: str
    wave: int
    exec_mask: int
    inputs: dict[str, Any]  # register -> list of lane values or a scalar
    labels: dict[str, str]  # register -> label prefix ("x" for an input binding)
    tagged: bool
    rows: list[Row]
    exec_final: int | None = None
    tagged_regs: set[str] = field(default_factory=set)
    state: dict[str, Any] = field(default_factory=dict)  # every register's entry value, to replay it (pictures)
    pattern: list[str] = field(default_factory=list)  # "lane i reads x from lane i^2; the spec wants lane i^1 ..."

    def to_json(self) -> dict[str, Any]:
        return {
            "obligation": self.obligation,
            "exec": fmt_mask(self.exec_mask, self.wave),
            "active_lanes": mask_lanes(self.exec_mask),
            "tagged_inputs": self.tagged,
            "inputs": {k: v for k, v in self.inputs.items() if k != "scc"},
            "lanes": [
                {"output": r.output, "lane": r.lane, "expected": r.expected, "expected_from": r.expected_src,
                 "actual": r.actual, "actual_from": r.actual_src, "responsible": r.responsible, "trace": r.chain,
                 "differs": True,
                 **({"bits": r.bits, "expected_hex": _hex(r.expected, r.bits), "actual_hex": _hex(r.actual, r.bits)}
                    if r.bits != 32 else {})}
                for r in self.rows
            ],
            "exec_final": None if self.exec_final is None else fmt_mask(self.exec_final, self.wave),
            "cause": deciding_first(self.rows)[0].responsible if self.rows else "",
            "pattern": self.pattern,
        }


_TAG_LABEL = re.compile(r"^(\w+)\[(\d+)\]$")


def lane_pattern(low: Lowering, target: Target, wave: int, assume: dict[str, str], vals: dict[str, Any]) -> list[str]:
    """One formula per output for the lanes that go wrong, when one holds:
    the lowering is run with every lane its contract allows active and every
    register lane-tagged (`vals`: :func:`_tags`), and where an output lane differs from the spec,
    the lane its value names (the lane it read) and the lane the spec's
    value names are each fitted to one formula (lanes.lane_formula).  Data
    movement only: a sum can equal a tag.  Empty when no formula explains
    most differing lanes (half or more), or when the failure needs inactive lanes."""
    if spec_monoid(catalog.speclib(), low.spec, low.params) is not None:
        return []
    c = low.exec_contract
    mask = int(c, 16) if c.startswith("0x") else (1 << wave) - 1
    enc = replay(low, target, wave, assume, mask, vals)
    names = _value_names(low, vals)
    bad: dict[str, list[int]] = {}
    for name, i in mismatches(enc):
        if not name.endswith(HI):
            bad.setdefault(name, []).append(i)
    out: list[str] = []
    for name, lanes in bad.items():
        got, want = [], []
        for i in lanes:
            a = _TAG_LABEL.match(names.get(enc.outputs[name][i] & M32, ""))
            e = _TAG_LABEL.match(names.get(enc.spec[name][0][i] & M32, ""))
            if a is None or e is None:
                break
            got.append((a.group(1), i, int(a.group(2))))
            want.append((e.group(1), i, int(e.group(2))))
        else:
            srcs = {g[0] for g in got} | {w[0] for w in want}
            if len(srcs) != 1:
                continue
            src = srcs.pop()
            fa = lane_formula([(i, j) for _, i, j in got], wave)
            fe = lane_formula([(i, j) for _, i, j in want], wave)
            if fa is None or fe is None or fa[0] == fe[0]:
                continue
            both = sorted(set(fa[1]) & set(fe[1]))
            if len(both) < max(2, (len(lanes) + 1) // 2):  # a pattern explains most of the lanes, or is not one
                continue
            who = f"{name}: " if len(low.outputs) > 1 else ""
            every = "every lane active" if not c.startswith("0x") else f"EXEC = {c}"
            rest = len(lanes) - len(both)
            more = f"; {rest} other lane{'s' if rest > 1 else ''} differ{'s' if rest == 1 else ''} otherwise" if rest else ""
            out.append(f"{who}lane i reads {src} from {fa[0]}; the spec wants {fe[0]} "
                       f"(lanes {lanes_text(both)}, with {every}{more})")
    return out


def shown_registers(vals: dict[str, Any], labels: dict[str, str], rows: list[Any]) -> dict[str, Any]:
    """The entry values a counterexample shows: the bound inputs, any register
    whose entry value reaches a bad lane, and every SGPR read before written
    (one value each: an unset SGPR feeding a fold shows no lane of its own)."""
    keep = set(labels) | {r.actual_src.split("[")[0] for r in rows if r.actual_src.endswith("@entry")}
    return {k: v for k, v in vals.items() if k in keep or (k != "scc" and not isinstance(v, list))}


# ---------------------------------------------------------------------------
# explaining


def _label(low: Lowering, reg: str, lane: int | None) -> str:
    name = binding_labels(low.inputs).get(reg)
    if name is not None:
        return f"{name}[{lane}]" if lane is not None else name
    return f"{reg}[{lane}]@entry" if lane is not None else f"{reg}@entry"


def _value_names(low: Lowering, vals: dict[str, Any]) -> dict[int, str]:
    names: dict[int, str] = {}
    for reg, v in vals.items():
        if reg == "scc":
            continue
        if isinstance(v, list):
            for i, x in enumerate(v):
                names.setdefault(x & M32, _label(low, reg, i))
        else:
            names.setdefault(v & M32, _label(low, reg, None))
    return names


def _line(step: Step) -> str:
    return f"line {step.instr.line}"


def _at(step: Step) -> str:
    return f"line {step.instr.line} {step.instr.mnemonic}"


def _inactive_note(why: str, active: list[bool] | None) -> str:
    """' (lanes 0, 3 inactive at entry)' when a computation read such lanes."""
    if not active:
        return ""
    lanes = sorted({int(j) for _, j in re.findall(r"\b(v\d+)\[(\d+)\]", why) if not active[int(j)]})
    if not lanes:
        return ""
    return f" (lane{'s' if len(lanes) > 1 else ''} {', '.join(map(str, lanes))} inactive at entry)"


def _hazard_of(step: Step, ev: Any, reg: str) -> str:
    """The hazard explanation that accounts for this lane event, if any: a
    read of EXEC in a window affects every lane, a VGPR read the lanes whose
    value comes from it (or are computed from it), the destination's own
    entry the lanes it keeps."""
    if not step.hazard:
        return ""
    for r in ("exec_lo", "exec_hi"):
        if r in step.hazard:
            return step.hazard[r]
    if ev.src is not None:
        return step.hazard.get(ev.src[0], "")
    if ev.status == "written":
        return next(iter(step.hazard.values()))
    return step.hazard.get(reg, "") if ev.status == "kept" else ""


# what an operand held when an instruction ran: (instruction index, operand, lane) -> value
ValueAt = Callable[[int, Any, "int | None"], "int | None"]


def value_reader(low: Lowering, target: Target, wave: int, assume: dict[str, str], mask: int,
                 vals: dict[str, Any]) -> Reader:
    """The values a counterexample's registers held as each instruction ran,
    by replaying the program up to it (concrete, cached per instruction)."""
    runs: dict[int, Any] = {}

    def state(k: int) -> tuple[dict[int, list[Any]], dict[str, Any], Callable[..., Any]]:
        if k not in runs:
            runs[k] = replay(replace(low, program=low.program[:k]), target, wave, assume, mask, vals).machine
        m = runs[k]
        return m.vregs, m.sregs, m.initial

    return Reader(state, wave, FeatureLog(target), assume)


class Reader:
    """What a counterexample's registers held as each instruction ran
    (a ValueAt: called with (trace step, operand, lane)), and
    :meth:`rerun`: one instruction run again, on the concrete backend, from
    the state before it with one operand replaced (what a correct program
    would have needed there; :func:`blame`).  `state(k)`: the VGPRs, SGPRs
    and entry values before trace step k; `names`: value -> the input it
    names (lane-tagged counterexamples)."""

    def __init__(self, state: Callable[[int], tuple[dict[int, list[Any]], dict[str, Any], Callable[..., Any]]],
                 wave: int, target: FeatureLog | None, assume: dict[str, str]) -> None:
        self.state, self.W, self.target, self.assume = state, wave, target, dict(assume)
        self.names: dict[int, str] = {}
        # the input registers' entry values (v0: lane values, s2: one), for those the code never reads
        self.inputs: dict[str, Any] = {}

    def __call__(self, k: int, op: Any, lane: int | None) -> int | None:
        if isinstance(op, Imm):
            return op.value & M32
        vregs, sregs, initial = self.state(k)
        x: Any = None
        if isinstance(op, VReg) and lane is not None:
            lanes = vregs.get(op.index)
            x = lanes[lane] if lanes is not None else initial("v", f"v{op.index}", lane)
        elif isinstance(op, SReg):
            n = op.names[0]
            x = sregs[n] if n in sregs else initial("s", n, None)
        return x & M32 if isinstance(x, int) else None

    def registers(self, k: int, lane: int) -> dict[str, int]:
        """Every register's value before step k that is known there: those
        read or written before it (VGPRs at `lane`), and the inputs (not
        EXEC; a register first touched later holds nothing known)."""
        vregs, sregs, initial = self.state(k)
        ins = {r: v for r, v in self.inputs.items() if re.fullmatch(r"[vs]\d+", r)}
        out: dict[str, int] = {}
        for n in sorted(set(vregs) | {int(r[1:]) for r in ins if r[0] == "v"}):
            x = (vregs[n][lane] if n in vregs else
                 ins[f"v{n}"][lane] if isinstance(ins.get(f"v{n}"), list) else initial("v", f"v{n}", lane))
            if isinstance(x, int):
                out[f"v{n}"] = x & M32
        for name in sorted(set(sregs) | {r for r in ins if r[0] == "s"}):
            x = (sregs[name] if name in sregs else ins[name] if isinstance(ins.get(name), int)
                 else initial("s", name, None))
            if isinstance(x, int) and not isinstance(x, bool) and name not in ("exec_lo", "exec_hi") and "@" not in name:
                out[name] = x & M32
        return out

    def rerun(self, step: Step, lane: int, pos: int, cands: Sequence[int], flip: bool = False) -> list[int | None]:
        """Step's instruction run again for `lane` from the state before it
        (every lane holding `lane`'s values, every lane active), operand
        `pos` replaced by each of `cands` (or, `flip`, that lane-mask
        operand's bit of `lane` flipped): its destination's value for
        each (None where it cannot be run)."""
        ins = step.instr
        vregs, sregs, initial = self.state(step.index)
        W = self.W
        dst = ins.operands[0]
        vector = isinstance(dst, VReg)
        o = ins.operands[pos]
        over: dict[str, Any] = {}
        sig = op_of(ins.base).sig_for(ins.enc)
        for kind, x in zip(sig, ins.operands):
            if kind != "mask" or not isinstance(x, SReg):
                continue
            # a lane-mask operand: this lane's bit in every lane (flipped: the operand at pos)
            half = x.names[0] if lane < 32 or len(x.names) == 1 else x.names[1]
            v = sregs[half] if half in sregs else initial("s", half, None)
            bit = ((v >> (lane & 31)) & 1 if isinstance(v, int) and (lane < 32 or len(x.names) > 1) else 0)
            bit ^= int(flip and x is o)
            for part in x.names:
                over[part] = M32 if bit else 0
        if vector:
            over["exec_lo"], over["exec_hi"] = M32, M32
        TMP = "s_whatif"
        runs: list[tuple[Instr, Callable[[str, str, int | None], Any], int]] = []

        def init_for(vals: Sequence[int] | None, scalar: int | None) -> Callable[[str, str, int | None], Any]:
            def init(kind: str, name: str, ln: int | None) -> Any:
                if kind == "v":
                    if name == "v1023" and vals is not None and ln is not None:
                        return vals[ln]
                    n = int(name[1:]) if re.fullmatch(r"v\d+", name) else None
                    if n is not None and n in vregs:
                        return vregs[n][lane]
                    return initial("v", name, lane)
                if kind == "s":
                    if name == TMP and scalar is not None:
                        return scalar
                    if name in over:
                        return over[name]
                    return sregs[name] if name in sregs else initial("s", name, ln)
                return initial(kind, name, ln)
            return init

        if flip:
            runs.append((ins, init_for(None, None), 1))
        elif vector and op_of(ins.base).unit == "valu" and sig[pos] == "src":
            ops = list(ins.operands)
            ops[pos] = VReg(1023)
            new = replace(ins, operands=tuple(ops))
            for c0 in range(0, len(cands), W):
                chunk = list(cands[c0:c0 + W])
                runs.append((new, init_for(chunk + [chunk[0]] * (W - len(chunk)), None), len(chunk)))
        else:
            ops = list(ins.operands)
            ops[pos] = SReg((TMP,))
            new = replace(ins, operands=tuple(ops))
            runs += [(new, init_for(None, c), 1) for c in cands]
        out: list[int | None] = []
        for instr, init, count in runs:
            try:
                m = Machine(Concrete(), W, init, self.target, dict(self.assume), trace=False, waits=False)
                m.run([instr])
                if vector:
                    got = m.vregs.get(dst.index)
                    vals = [got[j] & M32 if got is not None and isinstance(got[j], int) else None for j in range(W)]
                    out += vals[:count] if not flip else [vals[0]]
                else:
                    x = m.sregs.get(dst.names[0])
                    out.append(x & M32 if isinstance(x, int) else None)
            except Exception:  # (an explanation is never worth a crash)
                out += [None] * count
        return out


def _reg_of(key: str) -> VReg | SReg:
    return VReg(int(key[1:])) if re.fullmatch(r"v\d+", key) else SReg((key,))


def _shown(v: int | None) -> str:
    return "unknown" if v is None else f"{v:#x}"


def _origin(trace: list[Step], k: int, reg: str, lane: int | None, value: ValueAt, limit: int = 6) -> list[str]:
    """How (reg, lane) got the value instruction k read: the instructions
    that computed it, following their register sources, latest first."""
    found: dict[int, str] = {}
    frontier: list[tuple[int, str, int | None]] = [(k, reg, lane)]
    entry: list[str] = []
    while frontier and len(found) < limit:
        at, r, ln = frontier.pop(0)
        tag = f"[{ln}]" if ln is not None else ""
        w = next((s for s in reversed(trace[:at]) if (r, ln) in s.events), None)
        if w is None:
            entry.append(f"{r}{tag} = {_shown(value(0, _reg_of(r), ln))} from entry")
            continue
        if w.index in found:
            continue
        found[w.index] = f"{_line(w)} ({print_instr(w.instr)}): {r}{tag} = {_shown(value(w.index + 1, _reg_of(r), ln))}"
        ev = w.events[(r, ln)]
        if ev.src is not None:
            frontier.append((w.index, ev.src[0], ev.src[1]))
            continue
        for o in w.instr.operands[1:]:
            if isinstance(o, VReg) and o.count == 1:
                frontier.append((w.index, f"v{o.index}", ln))
            elif isinstance(o, SReg) and o.count == 1 and o.names[0] not in ("exec_lo", "exec_hi"):
                frontier.append((w.index, o.names[0], None))
    return [found[i] for i in sorted(found, reverse=True)] + entry


_CHOSEN = re.compile(r"line \d+ \S+: (reads lane \d+|the lane), chosen by ")


def _read_lane(why: str) -> int | None:
    m = re.search(r"source lane (\d+)", why)
    return int(m.group(1)) if m else None


def _lane_cause(trace: list[Step], k: int, reg: str, lane: int | None, read: int, value: ValueAt,
                limit: int = 12) -> tuple[Step, str, int | None, int] | None:
    """Where the lane number `read` (or its byte address, 4 * read) that
    chose a lane at instruction k was first computed: among the
    instructions that computed (reg, lane)'s value, following their register
    sources (not past one that made it), the earliest whose result is that number while none of the
    registers it read holds it (a constant operand may: `v_xor_b32 v2, 2, v1`
    is where lane i ^ 2 comes from).  (step, register, lane, value), or None."""
    want = {read & M32, (read * 4) & M32}
    found: list[tuple[Step, str, int | None, int]] = []
    seen: set[tuple[int, str, int | None]] = set()
    frontier: list[tuple[int, str, int | None]] = [(k, reg, lane)]
    while frontier and len(seen) < limit:
        at, r, ln = frontier.pop(0)
        w = next((s for s in reversed(trace[:at]) if (r, ln) in s.events), None)
        if w is None or (w.index, r, ln) in seen:
            continue
        seen.add((w.index, r, ln))
        out = value(w.index + 1, _reg_of(r), ln)
        ev = w.events[(r, ln)]
        srcs: list[tuple[str, int | None]] = []
        if ev.src is not None:
            srcs.append((ev.src[0], ev.src[1]))
        else:
            for o in w.instr.operands[1:]:
                if isinstance(o, VReg) and o.count == 1:
                    srcs.append((f"v{o.index}", ln))
                elif isinstance(o, SReg) and o.count == 1 and o.names[0] not in ("exec_lo", "exec_hi"):
                    srcs.append((o.names[0], None))
        ins = [value(w.index, _reg_of(a), b) for a, b in srcs]
        if out in want and not any(v in want for v in ins):
            found.append((w, r, ln, out))
            continue  # (the number was made here: an equal one behind it was computed away; lane 34 of
            # `v_mbcnt_lo` = 32, `v_mbcnt_hi` 34, `v_xor_b32 v2, 2, v2` 32 again: the xor made it, not the mbcnt)
        frontier += [(w.index, a, b) for a, b in srcs]
    return min(found, key=lambda f: f[0].index) if found else None


def _select_lines(trace: list[Step], step: Step, lane: int, read: int | None, value: ValueAt,
                  causes: dict[str, str] | None = None) -> list[str]:
    """Which operand chose the lane that `step` read (or wrote) for `lane`,
    its value, and where that value was computed (latest first).  `causes`:
    each "chosen by" line -> the instruction that computed the lane number
    (:func:`_lane_cause`), where one did."""
    out: list[str] = []
    for idx in op_of(step.instr.base).lane_select:
        o = step.instr.operands[idx]
        if isinstance(o, Imm):
            if read is not None:
                out.append(f"{_at(step)}: reads lane {read}, chosen by the constant {o.text or o.value}")
            continue
        if not isinstance(o, (VReg, SReg)) or o.count != 1:
            continue
        key, ln = (f"v{o.index}", lane) if isinstance(o, VReg) else (o.names[0], None)
        which = f"reads lane {read}" if read is not None else "the lane"
        sel = value(step.index, o, ln)
        out.append(f"{_at(step)}: {which}, chosen by {key}{f'[{ln}]' if ln is not None else ''} = {_shown(sel)}")
        lane_no = read if read is not None else lane
        # (only where the select names the lane taken: ds_bpermute in a wave64
        # that reaches its own half only takes another lane than it names)
        if causes is not None and sel is not None and sel in (lane_no, (lane_no * 4) & M32):
            hit = _lane_cause(trace, step.index, key, ln, lane_no, value)
            if hit is not None:
                w, r, wl, _ = hit
                what = f"{r}[{wl}]" if wl is not None else r
                causes[out[-1]] = f"{_at(w)}: {what} chooses lane {lane_no} for {_at(step)}"
        out += _origin(trace, step.index, key, ln, value)
    return out


def _through_scalar(trace: list[Step], step: Step, where: str, reg: str, lane: int, value: ValueAt,
                    wave: int, causes: dict[str, str] | None = None
                    ) -> tuple[list[str], tuple[str, int] | None, str, str, int] | None:
    """A v_writelane's lane, traced through the scalar it wrote: (chain
    lines, the (VGPR, lane) a v_readlane/v_readfirstlane read it from, or
    None where an instruction computed the scalar, the source label, the
    responsible text, the index of the step to go on from)."""
    val = step.instr.operands[1]
    if not isinstance(val, SReg) or val.count != 1 or not wave:
        return None
    s = val.names[0]
    lines = [f"{where}: {reg}[{lane}] <- {s} = {_shown(value(step.index, val, None))}"]
    lines += _select_lines(trace, step, lane, None, value, causes)
    w = next((x for x in reversed(trace[:step.index]) if (s, None) in x.events), None)
    if w is None:
        return lines, None, f"{s}@entry", f"{_at(step)}: {reg}[{lane}] <- {s}, which holds its value from entry", step.index
    wwhere = f"{_line(w)} ({print_instr(w.instr)})"
    if w.instr.base in ("v_readlane_b32", "v_readfirstlane_b32") and isinstance(w.instr.operands[1], VReg):
        if w.instr.base == "v_readlane_b32":
            sel = value(w.index, w.instr.operands[2], None)
        else:  # the first lane active when it ran  [S:lane-scalar]
            lo = value(w.index, SReg(("exec_lo",)), None) or 0
            hi = (value(w.index, SReg(("exec_hi",)), None) or 0) if wave == 64 else 0
            m = lo | (hi << 32)
            sel = (m & -m).bit_length() - 1 if m else 0
        if sel is None:
            return None
        j = sel & (wave - 1)
        src = f"v{w.instr.operands[1].index}"
        lines.append(f"{wwhere}: {s} <- {src}[{j}]")
        if w.instr.base == "v_readlane_b32":
            lines += _select_lines(trace, w, j, j, value, causes)
        return lines, (src, j), "", "", w.index
    lines.append(f"{wwhere}: writes {s} = {_shown(value(w.index + 1, val, None))}")
    lines += _origin(trace, w.index, s, None, value)[1:]
    return lines, None, f"computed at {_line(w)}", f"{_at(w)}: writes {s}", w.index


def _lane_local_source(ins: Any) -> str | None:
    """The one VGPR a lane-local instruction computes its lane from (its
    other operands constants or SGPRs); None for any other instruction."""
    op = op_of(ins.base)
    if op.moves_lanes_in(ins) or op.lane_select:
        return None
    vs = {r for r in op.uses(ins) if r.startswith("v") and r[1:].isdigit()}
    return vs.pop() if len(vs) == 1 else None


# the identity of a lane-local computation of two registers, by mnemonic stem
_IDENTITY = {"v_add_nc_u32": 0, "v_add_u32": 0, "v_add_co_u32": 0, "v_or_b32": 0, "v_xor_b32": 0,
             "v_and_b32": 0xFFFFFFFF}


def _wrong_input(step: Step, lane: int, value: ValueAt, expected: int
                 ) -> tuple[VReg | SReg, int, int] | None:
    """Of a computation of two registers whose result should be `expected`
    (the IR's value: the path from here to the output only moves it), the
    one input that is neither `expected` nor the operation's identity while
    the other is one of them: that input differs from what a correct
    program holds there (an input equal to the result, or to the identity,
    already accounts for the result).  (register, its value, the identity),
    or None where that does not single one out."""
    ins = step.instr
    e = _IDENTITY.get(re.sub(r"_e(32|64)$", "", ins.base))
    if e is None:
        return None
    regs = [o for o in ins.operands[1:] if isinstance(o, (VReg, SReg)) and o.count == 1
            and (isinstance(o, VReg) or o.names[0][1:].isdigit())]
    if len(regs) != 2 or len(ins.operands) != 3:
        return None
    vals = [value(step.index, o, lane if isinstance(o, VReg) else None) for o in regs]
    if None in vals:
        return None
    ok = [v in (expected & 0xFFFFFFFF, e) for v in vals]
    if ok.count(False) != 1:
        return None
    k = ok.index(False)
    return regs[k], vals[k] or 0, e


def _wrong_input_other(step: Step, lane: int, value: ValueAt, o: VReg | SReg) -> int | None:
    """The value of the other register input of `step` than `o` (:func:`_wrong_input`'s pair)."""
    for x in step.instr.operands[1:]:
        if isinstance(x, (VReg, SReg)) and x != o:
            got = value(step.index, x, lane if isinstance(x, VReg) else None)
            return got if isinstance(got, int) else None
    return None


@dataclass
class Blame:
    """The one operand of an instruction that, replaced, makes its result
    what a correct program holds there (:func:`blame`)."""

    pos: int  # its position among the operands
    role: str  # its name in the signature: src1, mask, carry_in
    text: str  # as written: v3, s2, vcc_lo, 9
    value: int  # what it held (a lane mask: this lane's bit)
    wanted: int  # a value with which the instruction gives the value wanted
    why: str  # what that value is: "%c.0, in s2", "the identity", ""
    held: str | None = None  # another register that holds it there (not a small constant)
    mask: bool = False  # a lane-mask operand (v_cndmask's mask, a carry-in): its lane bit flipped
    register: bool = True  # a register (else a constant)


_READS_SCC = re.compile(r"^s_(cselect|addc|subb|cmov|cbranch|cmovk)")
_SMALL = (0, 1, M32)


def blame(step: Step, lane: int, value: Reader, expected: int) -> Blame | None:
    """Of a lane-local instruction whose result in `lane` differs from
    `expected` (what a correct program holds there), the one operand that,
    alone replaced, makes the instruction give `expected`, the instruction
    run again with it (Reader.rerun; its semantics are the op's own): a
    lane-mask operand's bit of this lane flipped first (v_cndmask's mask,
    a carry-in), then a source's value among the values the counterexample
    makes plausible (the value wanted, 0, 1, all ones, the values the
    registers hold there, the lane-tagged inputs; a constant: the inline
    integers).  None where no operand or more than one does it
    (:func:`alternatives` lists them), or where the instruction computes
    from one register (some value of it, or often of a constant, fixes any
    wrong result: no evidence)."""
    found = _operand_fixes(step, lane, value, expected)
    return found[0] if found is not None and len(found) == 1 else None


def alternatives(step: Step, lane: int, value: Reader, expected: int) -> list[Blame]:
    """The operands of which each alone, replaced, gives `expected`, where
    there are several (:func:`blame` names none of them then)."""
    found = _operand_fixes(step, lane, value, expected)
    return found if found is not None and len(found) > 1 else []


def _operand_fixes(step: Step, lane: int, value: Reader, expected: int) -> list[Blame] | None:
    """:func:`blame`'s search: one Blame per operand (a register read as
    several operands: one) that alone gives `expected`, lane-mask bits
    first (where one does, the sources are not tried); None where the
    instruction is not one to search."""
    ins = step.instr
    op = op_of(ins.base)
    if step.hazard or step.stale or op.moves_lanes_in(ins) or op.lane_select or _READS_SCC.match(ins.base):
        return None
    dst = ins.operands[0] if ins.operands else None
    if not isinstance(dst, (VReg, SReg)) or dst.count != 1:
        return None
    sig = op.sig_for(ins.enc)
    roles = op.arg_names_for(ins.enc)

    def role_of(p: int) -> str:
        return roles[p] if p < len(roles) else sig[p]

    def text_of(o: Any) -> str:
        return str(o.text or (f"v{o.index}" if isinstance(o, VReg) else o.names[0] if isinstance(o, SReg) else o.value))
    exp = expected & M32
    k = step.index
    masks: list[Blame] = []
    for pos, (kind, o) in enumerate(zip(sig, ins.operands)):
        if kind == "mask" and isinstance(o, SReg) and pos > 0:
            half = o.names[0] if lane < 32 or o.count == 1 else o.names[1]
            v = value(k, SReg((half,)), None)
            if v is None:
                continue
            bit = (v >> (lane & 31)) & 1 if lane < 32 or o.count > 1 else 0
            if value.rerun(step, lane, pos, [], flip=True) == [exp]:
                masks.append(Blame(pos, role_of(pos), o.text or ",".join(o.names), bit, bit ^ 1, "", mask=True))
    if masks:
        return masks
    n_regs = len({text_of(x) for kind, x in zip(sig[1:], ins.operands[1:])
                  if kind in ("src", "ssrc", "vgpr") and isinstance(x, (VReg, SReg))})
    regs = value.registers(k, lane)
    cands = sorted({exp, *_SMALL, *value.names, *regs.values()})
    groups: dict[str, list[tuple[int, Any, int, list[int]]]] = {}
    for pos, (kind, o) in enumerate(zip(sig, ins.operands)):
        if pos == 0 or kind not in ("src", "ssrc", "vgpr"):
            continue
        if isinstance(o, (VReg, SReg)) and (o.count != 1 or (isinstance(o, SReg) and o.names[0] in ("exec_lo", "exec_hi"))):
            continue
        cur = value(k, o, lane if isinstance(o, VReg) else None)
        if cur is None:
            continue
        cs = [c for c in (sorted({exp, *_SMALL, *(x & M32 for x in range(-16, 65))}) if isinstance(o, Imm) else cands)
              if c != cur]
        ok = [c for c, r in zip(cs, value.rerun(step, lane, pos, cs)) if r == exp]
        if ok:  # (a register read as several operands: one group, each fixed by the same values)
            groups.setdefault(text_of(o) if isinstance(o, (VReg, SReg)) else f"#{pos}", []).append((pos, o, cur, ok))
    dst_text = text_of(dst)
    out: list[Blame] = []
    for text, members in groups.items():
        poss = [m[0] for m in members]
        _, o, cur, _ = members[0]
        ok = [c for c in members[0][3] if all(c in m[3] for m in members)]
        if not ok:
            continue
        own = text if isinstance(o, (VReg, SReg)) else None

        def holder(c: int, own: str | None = own) -> str | None:
            """Another register holding c there (0, 1 or all ones: only where one register does; the
            destination, about to be overwritten, only as an input)."""
            if own is None:
                return None
            hs = [r for r, v in regs.items() if v == c and r != own and (r != dst_text or r in value.inputs)]
            return hs[0] if hs and (c not in _SMALL or len(hs) == 1) else None

        def rank(c: int) -> tuple[int, int]:
            return (0 if holder(c) else 1 if c in value.names else 2 if c == exp else 3, c)
        c = min(ok, key=rank)
        held = holder(c)
        what = [value.names[c]] if c in value.names else []
        if held:
            what.append(f"in {held}")
        elif c == exp and not what:
            what.append("the value wanted itself")
        out.append(Blame(poss[0], " or ".join(role_of(p) for p in poss), text_of(o), cur, c, ", ".join(what), held,
                         register=own is not None))
    if n_regs < 2:  # computed from one register: no evidence, unless its wanted value is an input's or held
        return [b for b in out if b.register and (b.held or b.wanted in value.names)] if len(out) == 1 else []
    return out


def _value_text(v: int, names: dict[int, str]) -> str:
    return f"{v:#x} ({names[v]})" if v in names else f"{v:#x}"


def _blame_line(b: Blame, expected: int, lane: int, names: dict[int, str]) -> str:
    """', its src2 v1 = 0x203 (%b[3]) in error: with 0x303 (%c[3], in v2) it gives the value wanted, 0x..'"""
    if b.mask:
        return (f", its {b.role} {b.text}[{lane}] = {b.value} in error: with {b.wanted} it gives the value wanted, "
                f"{expected & M32:#x}")
    return (f", its {b.role} {b.text} = {_value_text(b.value, names)} in error: with {b.wanted:#x}"
            f"{f' ({b.why})' if b.why else ''} it gives the value wanted, {expected & M32:#x}")


def _blamed_cause(trace: list[Step], step: Step, lane: int | None, b: Blame, expected: int, value: Reader,
                  out: str) -> tuple[list[str], str, str] | None:
    """Where a blamed operand's value went wrong, when it is not a VGPR to
    follow: (chain lines, source label, responsible); None for a VGPR."""
    names = value.names
    at = _at(step)
    exp = f"{expected & M32:#x}"
    if b.mask:
        reg = b.text
        half = reg
        m = re.fullmatch(r"s\[(\d+):(\d+)\]", reg)
        if m:
            half = f"s{int(m.group(1)) + (1 if (lane or 0) >= 32 else 0)}"
        elif reg == "vcc":
            half = "vcc_lo" if (lane or 0) < 32 else "vcc_hi"
        w = next((x for x in reversed(trace[:step.index]) if (half, None) in x.events), None)
        if w is None:
            return [], f"{half}@entry", (f"{at}: {out} reads its {b.role} {reg}[{lane}] = {b.value} from entry; "
                                        f"with {b.wanted} it gives the value wanted, {exp}")
        msel = _cselect_mask_cause(trace, w, half, lane or 0, b, value)
        if msel is not None:  # a lane mask made by an s_cselect (-1 or 0) from an SCC: back to the compare
            return msel[0], f"written at {_line(w)}", f"{msel[1]} -> {at} for {out}, the value wanted, {exp}"
        mand = _logic_mask_cause(trace, w, half, lane or 0, b, value)
        if mand is not None:  # an s_and/s_or of two masks: the one input in the way, to what computed it
            return mand[0], f"written at {_line(w)}", f"{mand[1]} -> {at} for {out}, the value wanted, {exp}"
        # (a select gives the same with its two sources swapped: an inverted compare reads as this too)
        swap = " (or with its sources swapped)" if step.instr.base == "v_cndmask_b32" else ""
        return ([f"{_line(w)} ({print_instr(w.instr)}): writes {half}, bit {(lane or 0) & 31} = {b.value}"],
                f"written at {_line(w)}",
                f"{_at(w)}: {reg}[{lane}] = {b.value}, the {b.role} of {at} for {out}; "
                f"with {b.wanted}{swap} it gives the value wanted, {exp}")
    if re.fullmatch(r"s\d+", b.text) and isinstance(value, Reader):
        sel = _cselect_cause(trace, step, b, value)
        if sel is not None:
            lines, w, resp = sel
            return lines, f"written at {_line(w)}", f"{resp} -> {at} for {out}, the value wanted, {exp}"
    if b.held or not re.fullmatch(r"v\d+|s\d+|vcc_lo|vcc_hi|m0|ttmp\d+", b.text):
        # another register holds the value, or a constant: this instruction read the wrong one
        if not b.held:  # a constant
            want = b.wanted - (1 << 32) if b.wanted >= 1 << 31 else b.wanted
            return [], f"computed at {_line(step)}", (f"{at}: {out} takes the constant {b.text} as its {b.role}; "
                                                       f"with {want} it gives the value wanted, {exp}")
        return [], f"computed at {_line(step)}", (f"{at}: {out} reads its {b.role} {b.text} = "
                                                   f"{_value_text(b.value, names)}; {b.held} holds "
                                                   f"{_value_text(b.wanted, names)}, with which it gives the value "
                                                   f"wanted, {exp}")
    if b.text.startswith("v"):
        return None
    w = next((x for x in reversed(trace[:step.index]) if (b.text, None) in x.events), None)
    need = f"{at} needs {b.wanted:#x}{f' ({b.why})' if b.why else ''} there for the value wanted, {exp}"
    if w is None:
        return [], f"{b.text}@entry", f"{at}: {out} reads its {b.role} {b.text} = {b.value:#x} from entry, where {need}"
    return ([f"{_line(w)} ({print_instr(w.instr)}): writes {b.text} = {_value_text(b.value, names)}"],
            f"written at {_line(w)}", f"{_at(w)}: writes {b.text} = {_value_text(b.value, names)}, where {need}")


def _copied_cselect(trace: list[Step], step: Step, value: ValueAt | None, expected: int | None
                    ) -> tuple[list[str], Step, str] | None:
    """A `v_mov_b32 vN, sM` whose lane should hold `expected` (so sM
    should), sM written by an `s_cselect` (``s_cselect_b64 s[0:1], s[0:1],
    s[2:3]``, GlobalISel's i64 select): :func:`_cselect_cause` on sM."""
    if step.instr.base != "v_mov_b32" or expected is None or not isinstance(value, Reader):
        return None
    src = step.instr.operands[1]
    if not isinstance(src, SReg) or src.count != 1:
        return None
    got = value(step.index, src, None)
    if not isinstance(got, int) or got == expected & M32:
        return None
    b = Blame(1, "src0", src.names[0], got, expected & M32, "")
    return _cselect_cause(trace, step, b, value)


def _cselect_cause(trace: list[Step], step: Step, b: Blame, value: Reader) -> tuple[list[str], Step, str] | None:
    """A blamed SGPR written by an `s_cselect` whose other source is the
    value wanted: the SCC it read is in error, traced back to the compare
    (or through an SALU logic op's SCC to the compares) that set it
    (:func:`scc_path`).  (chain lines, the s_cselect's step, responsible)."""
    w = next((x for x in reversed(trace[:step.index]) if (b.text, None) in x.events), None)
    if w is None or not _CSELECT.match(w.instr.base):
        return None

    def sregs_at(k: int) -> dict[str, Any] | None:
        return value.state(k)[1]
    sel = cselect_scc(w.instr, sregs_at(w.index), sregs_at(w.index + 1))
    dst = w.instr.operands[0]
    part = dst.names.index(b.text) if isinstance(dst, SReg) and b.text in dst.names else 0  # (b64: the half read)
    if sel is None or (sel[1] >> (32 * part)) & M32 != b.wanted:
        return _cselect_picked(w, b, value)
    scc, whole = sel
    other = (whole >> (32 * part)) & M32
    k = scc_writer(trace, w.index)
    if k is None:
        return None
    path = scc_path(trace, k, bool(scc), sregs_at)
    path[-1] = (path[-1][0], f"SCC = {scc}")
    held = f" (in {b.held})" if b.held else ""
    lines = [f"{_line(s)} ({print_instr(s.instr)}){': ' + v if v else ''}" for s, v in reversed(path)]
    lines.insert(0, f"{_line(w)} ({print_instr(w.instr)}): {b.text} = {b.value:#x} (SCC = {scc}); with SCC = {1 - scc} "
                 f"it holds {other:#x}{held}")
    via = "".join(f"{_at(s)}{': ' + v if v else ''} -> " for s, v in path)
    return lines, w, (f"{via}{_at(w)}: {b.text} = {b.value:#x}, a correct program would hold {other:#x}{held}")


def _cselect_picked(w: Step, b: Blame, value: Reader) -> tuple[list[str], Step, str] | None:
    """An `s_cselect` whose sources both differ from the value wanted
    (`b.wanted`) while another SGPR holds it as the s_cselect runs: with
    either SCC it gives a wrong value, so the SCC is not in error but the
    source it picked is (it reads the wrong register).  (chain lines, the
    s_cselect's step, responsible); None where no other SGPR holds the
    value wanted (the sources may have been computed wrong before it)."""
    ins = w.instr
    dst = ins.operands[0]
    if not isinstance(dst, SReg) or len(ins.operands) != 3 or b.wanted in _SMALL:
        return None
    part = dst.names.index(b.text) if b.text in dst.names else 0
    read = value.state(w.index)[1]
    srcs: list[str] = []
    for o in ins.operands[1:3]:
        if isinstance(o, SReg):
            srcs.append(o.names[part] if part < len(o.names) else o.names[0])
        elif isinstance(o, Imm):
            v = (o.value >> (32 * part)) & M32 if ins.base.endswith("64") and part else o.value & M32
            if v == b.wanted:
                return None
    vals = [sgpr_value(read, (r,)) for r in srcs]
    if b.wanted in vals:
        return None
    regs = value.registers(w.index, 0)
    holders = [r for r, v in regs.items() if v == b.wanted and r.startswith("s") and r not in srcs
               and r not in dst.names]
    if not holders:
        return None
    picked = next((r for r, v in zip(srcs, vals) if v == b.value), None)
    what = f"picks {picked} = {_value_text(b.value, value.names)}" if picked else f"writes {b.text} = {b.value:#x}"
    text = (f"{_at(w)}: {what}, where {holders[0]} holds {_value_text(b.wanted, value.names)}, the value a correct "
            f"program holds in {b.text}")
    return [f"{_line(w)} ({print_instr(ins)}): {what}; neither source holds {b.wanted:#x} ({holders[0]} does)"], w, text


def _cselect_mask_cause(trace: list[Step], w: Step, half: str, lane: int, b: Blame, value: Reader
                        ) -> tuple[list[str], str] | None:
    """A lane-mask operand's bit (`b`: v_cndmask's mask) written by an
    `s_cselect` (b32 or b64: ``s_cselect_b64 vcc, -1, 0``) whose other
    source has the bit wanted: the SCC it read is in error, traced back to
    the compare (or through an SALU logic op's SCC to the compares) that
    set it (:func:`scc_path`).  (chain lines, responsible up to the
    s_cselect); None otherwise."""
    if not _CSELECT.match(w.instr.base):
        return None

    def sregs_at(k: int) -> dict[str, Any] | None:
        return value.state(k)[1]
    sel = cselect_scc(w.instr, sregs_at(w.index), sregs_at(w.index + 1))
    if sel is None:
        return None
    scc, other = sel
    dst = w.instr.operands[0]
    part = dst.names.index(half) if isinstance(dst, SReg) and half in dst.names else 0
    if (other >> (32 * part + (lane & 31))) & 1 != b.wanted:
        return None
    k = scc_writer(trace, w.index)
    if k is None:
        return None
    path = scc_path(trace, k, bool(scc), sregs_at)
    path[-1] = (path[-1][0], f"SCC = {scc}")
    lines = [f"{_line(s)} ({print_instr(s.instr)}){': ' + v if v else ''}" for s, v in reversed(path)]
    lines.insert(0, f"{_line(w)} ({print_instr(w.instr)}): {b.text}[{lane}] = {b.value} (SCC = {scc}); with SCC = "
                 f"{1 - scc} it holds {b.wanted}")
    via = "".join(f"{_at(s)}{': ' + v if v else ''} -> " for s, v in path)
    return lines, f"{via}{_at(w)}: {b.text}[{lane}] = {b.value}, a correct program would hold {b.wanted}"


def _logic_mask_cause(trace: list[Step], w: Step, half: str, lane: int, b: Blame, value: Reader
                      ) -> tuple[list[str], str] | None:
    """A lane-mask operand's bit (`b`: v_cndmask's mask) written by an
    `s_and`/`s_or` of two SGPR masks (``s_and_b64 vcc, s[0:1], vcc``): the
    one input that alone stands between the bit and the one wanted
    (:func:`mask_input`), followed back by :func:`condition_path` (through
    an `s_cselect_b64 s[0:1], -1, 0` to the compare whose SCC it read).
    (chain lines, responsible up to the s_and); None where either input
    could be the one or the path is w alone."""
    if mask_input(w.instr, value.state(w.index)[1], 1 << lane, bool(b.wanted)) is None:
        return None
    dst = w.instr.operands[0]
    if not isinstance(dst, SReg) or half not in dst.names:
        return None
    # (the bit of the lane in the value w wrote: a pair's high half holds lanes 32-63)
    care = 1 << (lane & 31) << (32 * dst.names.index(half))

    def sregs_at(k: int) -> dict[str, Any] | None:
        return value.state(k)[1]
    path = condition_path(list(trace), w.index, care, bool(b.wanted), sregs_at)
    if len(path) < 2:
        return None
    path[-1] = (path[-1][0], "")
    lines = [f"{_line(s)} ({print_instr(s.instr)}){': ' + v if v else ''}" for s, v in reversed(path[:-1])]
    lines.insert(0, f"{_line(w)} ({print_instr(w.instr)}): {b.text}[{lane}] = {b.value}; a correct program would "
                 f"hold {b.wanted}, and of its inputs only the one traced stands in the way")
    via = "".join(f"{_at(s)}{': ' + v if v else ''} -> " for s, v in path[:-1])
    return lines, f"{via}{_at(w)}: {b.text}[{lane}] = {b.value}, a correct program would hold {b.wanted}"


def _whole_wave(w: Step, value: Reader) -> bool:
    """EXEC after trace step `w` has every lane of the wave on (wave64: both
    halves): a whole-wave enable (``s_or_saveexec_b32 s0, -1``), which lets
    every lane in and so picks out none, never a branch's mask."""
    halves = ("exec_lo",) if value.W == 32 else ("exec_lo", "exec_hi")
    return all(value(w.index + 1, SReg((h,)), None) == M32 for h in halves)


def _exec_blame(trace: list[Step], step: Step, ev: Any, reg: str, lane: int, value: Reader, expected: int
                ) -> tuple[list[str], str, str] | None:
    """EXEC as the operand in error, where an instruction of the code set
    it: a lane written that, left inactive, would keep the value wanted (a
    branch's mask let it in).  The value wanted must name an input or be
    other than 0, 1 and all ones (no coincidence).  (chain lines, source
    label, responsible) naming the instruction that last wrote EXEC; None
    otherwise."""
    exp = expected & M32
    if exp in _SMALL and exp not in value.names:
        return None
    half = "exec_lo" if lane < 32 else "exec_hi"
    w = next((x for x in reversed(trace[:step.index]) if (half, None) in x.events), None)
    if w is None:
        return None
    old = value(step.index, VReg(int(reg[1:])), lane) if re.fullmatch(r"v\d+", reg) else None
    mask = value(w.index + 1, SReg((half,)), None)
    if mask is None or _whole_wave(w, value):  # every lane on: a whole-wave enable, no branch's mask
        return None
    where = f"{_line(step)} ({print_instr(step.instr)})"
    wline = f"{_line(w)} ({print_instr(w.instr)}): writes {half} = {mask:#x}"
    names = value.names
    if ev.status == "written" and old == exp and (mask >> (lane & 31)) & 1:
        return ([f"{where}: {reg}[{lane}] written, where it held {_value_text(exp, names)}, the value wanted",
                 f"{wline}, lane {lane} active"], "",
                f"{_at(w)}: EXEC lane {lane} = 1, so {_at(step)} writes {reg}[{lane}]; inactive, the lane keeps "
                f"{_value_text(exp, names)}, the value wanted")
    return None


def _exec_off(trace: list[Step], lane: int, reg: str, value: ValueAt | None) -> str:
    """Where no instruction writes a lane: the last instruction that wrote
    EXEC with that lane off (a branch skipped for it, EXEC restored
    after), or ""."""
    half = "exec_lo" if lane < 32 else "exec_hi"
    if value is None:
        return ""
    for w in reversed(trace):
        if (half, None) in w.events:
            mask = value(w.index + 1, SReg((half,)), None)
            if mask is not None and not (mask >> (lane & 31)) & 1:
                return f"{_at(w)}: EXEC lane {lane} = 0 ({half} = {mask:#x}), and no instruction writes {reg}[{lane}]"
    return ""


def trace_lane(low: Lowering, trace: list[Step], reg: str, lane: int,
               active: list[bool] | None = None, value: ValueAt | None = None,
               through: bool = False, expected: int | None = None) -> tuple[list[str], str, str]:
    """Follow where (reg, lane)'s final value came from.  `active`: the lanes
    active at entry, to point out computations that read an inactive lane.
    `value` (:func:`value_reader`): with it the path goes on through the
    scalar a v_writelane wrote, back through the v_readlane or
    v_readfirstlane that read it, and a lane read chosen by a register (a
    ds_bpermute address, a permlane select) shows that register's value and
    the instructions that computed it.

    `through` (verify tv, whose IR gives no value for a GPU register in the
    middle): a value computed lane-locally from one VGPR (an add of a
    constant, a shift) is followed on into that VGPR; when the path then
    meets a lane that was not written, a zero fill, a hazard or a lane
    chosen by a register, that is the cause, else the computation is, as
    without it.

    `expected` (the value a correct program leaves there, the IR's): at the
    first computation of two registers on the path (`v_add_u32 v1, s0, v1`)
    the input that differs from what a correct program holds
    (:func:`_wrong_input`) is followed, to the instruction that wrote it: an
    SGPR's writer, or the v_writelane that put a scalar into the VGPR's lane.

    Returns (chain of explanations, source label, responsible step text)."""
    evident = False  # the path follows an input shown wrong (_wrong_input)
    blamed: tuple[Step, Blame, int] | None = None  # the last operand shown wrong (blame), its step, the value wanted
    fallback: tuple[str, str] | None = None  # (source, responsible) of the computation passed through
    suspicious = False  # the path met a lane not written, a zero fill, a hazard, a result read early
    chain: list[str] = []
    causes: dict[str, str] = {}  # a lane choice -> where its lane number was computed (_lane_cause)
    responsible = ""
    reg0, lane0 = reg, lane
    k = len(trace)
    source = ""
    while True:
        step = None
        ev = None
        for s in reversed(trace[:k]):
            ev = s.events.get((reg, lane))
            if ev is not None:
                step = s
                break
        if step is None:
            source = _label(low, reg, lane)
            chain.append(f"{reg}[{lane}] holds its value from entry ({source})")
            break
        assert ev is not None  # found with its step
        k = step.index
        where = f"{_line(step)} ({print_instr(step.instr)})"
        hz = _hazard_of(step, ev, reg)
        if hz:  # read inside a hazard window: the value is unknown  [S:hazards]
            chain.append(f"{where}: {reg}[{lane}] {ev.status}: it {hz}")
            source = "unknown (hazard)"
            responsible = responsible or f"{_at(step)}: {hz}"
            suspicious = True
            break
        if ev.status == "written" and ev.src is not None and ev.src[0] in step.stale:
            why = (f"reads {ev.src[0]} before the DS result from line {step.stale[ev.src[0]]} has returned "
                   f"(no wait covers it): an unknown value")
            chain.append(f"{where}: {reg}[{lane}] <- {ev.src[0]}[{ev.src[1]}], which it {why}")
            source = f"unknown ({ev.src[0]} read early)"
            responsible = responsible or f"{_at(step)}: {why}"
            suspicious = True
            break
        if (through and expected is not None and isinstance(value, Reader) and not responsible
                and (fallback is None or blamed is not None)):
            ex = _exec_blame(trace, step, ev, reg, lane, value, expected)
            if ex is not None:
                return chain + ex[0], ex[1], ex[2]
        if (ev.status == "written" and ev.src is not None and ev.src[1] == lane and through and expected is not None
                and isinstance(value, Reader) and not responsible and (fallback is None or blamed is not None)):
            # a lane-local select (v_cndmask_b32): its lane-mask bit shown wrong, where flipped gives the value wanted
            bl = blame(step, lane, value, expected)
            if bl is not None and bl.mask:
                out = f"{reg}[{lane}]"
                chain.append(f"{where}: {out} <- {ev.src[0]}[{ev.src[1]}] ({ev.why})"
                             f"{_blame_line(bl, expected, lane, value.names)}")
                bhop = _blamed_cause(trace, step, lane, bl, expected, value, out)
                if bhop is not None:  # (the value shown: the register lane it selected)
                    return chain + bhop[0], f"{ev.src[0]}[{ev.src[1]}]", bhop[2]
        if ev.status == "written" and ev.src is not None:
            chain.append(f"{where}: {reg}[{lane}] <- {ev.src[0]}[{ev.src[1]}]")
            if value is not None:
                chain += _select_lines(trace, step, lane, ev.src[1], value, causes)
            reg, lane = ev.src
            continue
        if ev.status == "written" and value is not None and step.instr.base in ("v_writelane_b32", "v_mov_b32"):
            hop = _through_scalar(trace, step, where, reg, lane, value, len(active or []), causes)
            if hop is not None and evident and step.instr.base == "v_writelane_b32":
                # the wrong value entered the lane here, from a scalar
                chain += hop[0]
                return chain, f"written at {_line(step)}", f"{_at(step)}: {hop[0][0].split(': ', 1)[1]}"
            if hop is not None:
                sel = (_copied_cselect(trace, step, value, expected)
                       if hop[1] is None and through and not responsible else None)
                if sel is not None:  # an s_cselect's scalar (b32, b64): the SCC it read, back to the compare
                    lines, cw, resp = sel
                    return (chain + hop[0][:1] + lines, f"written at {_line(cw)}",
                            f"{resp} -> {_at(step)} for {reg}[{lane}], the value wanted, {(expected or 0) & M32:#x}")
                chain += hop[0]
                if hop[1] is None:  # the scalar was computed: that instruction is the cause
                    source, responsible = hop[2], responsible or hop[3]
                    break
                (reg, lane), k = hop[1], hop[4]
                continue
        if ev.status == "written":
            chain.append(f"{where}: {reg}[{lane}] {ev.why or 'computed'}{_inactive_note(ev.why, active)}")
            here = (f"computed at {_line(step)}", f"{_at(step)}: {reg}[{lane}] {ev.why or 'computed'}")
            bad = (_wrong_input(step, lane, value, expected)
                   if through and value is not None and expected is not None and fallback is None
                   and not responsible and not step.hazard else None)
            if bad is not None:
                o, v, e = bad
                name = o.names[0] if isinstance(o, SReg) else f"v{o.index}"
                chain[-1] = (f"{where}: {reg}[{lane}] {ev.why or 'computed'}, its input {name} = {v:#x} in error "
                             f"(the other is the result wanted, {(expected or 0) & 0xFFFFFFFF:#x}, or the identity {e:#x})")
                fallback, evident = here, True
                if isinstance(o, VReg):
                    reg = name
                    continue
                w = next((x for x in reversed(trace[:step.index]) if (name, None) in x.events), None)
                if isinstance(value, Reader) and not responsible:
                    # an s_cselect's scalar: the SCC it read, back to the compare (as a blamed operand's)
                    want = (expected or 0) & M32  # (the other input is the identity, or the result: then e)
                    if _wrong_input_other(step, lane, value, o) == want:
                        want = e
                    held = None if w is None else next((x.names[0] for x in w.instr.operands[1:3] if isinstance(
                        x, SReg) and x.count == 1 and value(w.index, x, None) == want), None)
                    sel = _cselect_cause(trace, step, Blame(0, "src", name, v, want, "", held), value)
                    if sel is not None:
                        lines, cw, resp = sel
                        return (chain + lines, f"written at {_line(cw)}",
                                f"{resp} -> {_at(step)} for {reg}[{lane}], the value wanted, {want:#x}")
                if w is None:
                    return chain, f"{name}@entry", f"{_at(step)}: reads {name} = {v:#x}, which holds its value from entry"
                chain.append(f"{_line(w)} ({print_instr(w.instr)}): writes {name} = {v:#x}")
                return chain, f"written at {_line(w)}", f"{_at(w)}: writes {name} = {v:#x}"
            searched = (bad is None and through and isinstance(value, Reader) and expected is not None
                        and (fallback is None or blamed is not None) and not responsible and not step.hazard)
            bl = blame(step, lane, value, expected) if searched and isinstance(value, Reader) and expected is not None \
                else None
            if searched and bl is None and isinstance(value, Reader) and expected is not None:
                alts = alternatives(step, lane, value, expected)
                if alts:  # (several operands would each do: none is shown wrong, the reader sees which)
                    chain[-1] += "; alone, " + " or ".join(
                        f"its {b.role} {b.text}" + (f"[{lane}] = {b.wanted}" if b.mask else f" = {b.wanted:#x}"
                                                    + (f" ({b.why})" if b.why else ""))
                        for b in alts) + f" would give the value wanted, {expected & M32:#x}"
            if bl is not None and isinstance(value, Reader) and expected is not None:
                out = f"{reg}[{lane}]"
                chain[-1] = f"{where}: {out} {ev.why or 'computed'}{_blame_line(bl, expected, lane, value.names)}"
                bhop = _blamed_cause(trace, step, lane, bl, expected, value, out)
                if bhop is not None:
                    return chain + bhop[0], bhop[1], bhop[2]
                # a VGPR: followed, with the value a correct program would hold in it
                why = f" ({bl.why})" if bl.why else ""
                fallback = fallback or (here[0], f"{_at(step)}: {out} reads its {bl.role} {bl.text} = "
                                                 f"{_value_text(bl.value, value.names)}; with {bl.wanted:#x}{why} "
                                                 f"it gives the value wanted, {expected & M32:#x}")
                blamed = (step, bl, expected)
                expected, reg = bl.wanted, bl.text
                continue
            if blamed is not None and not responsible:
                # the VGPR a blamed operand read was computed here, and no one input of this explains it
                b_step, b, b_exp = blamed
                got = _shown(value(step.index + 1, _reg_of(reg), lane)) if value is not None else "?"
                return chain, here[0], (f"{_at(step)}: {reg}[{lane}] = {got} {ev.why or 'computed'}, where "
                                        f"{_at(b_step)} needs {b.wanted:#x} for the value wanted, {b_exp & M32:#x}")
            nxt = _lane_local_source(step.instr) if through and not responsible and not step.hazard else None
            if nxt is not None:  # on into the one VGPR it computed from
                fallback = fallback or here
                reg = nxt
                continue
            source = here[0]
            responsible = responsible or here[1]
            break
        if ev.status == "zero":
            chain.append(f"{where}: {reg}[{lane}] = 0 ({ev.why})")
            before = set(causes)
            if value is not None:
                chain += _select_lines(trace, step, lane, _read_lane(ev.why), value, causes)
            source = f"0 from {_line(step)}"
            cause = next((c for k, c in causes.items() if k not in before), "") if "source lane" in ev.why else ""
            responsible = responsible or (f"{cause} ({ev.why})" if cause else f"{_at(step)}: {reg}[{lane}] = 0 ({ev.why})")
            suspicious = True
            break
        chain.append(f"{where}: {reg}[{lane}] not written ({ev.why})")
        if value is not None and "source lane" in ev.why:
            chain += _select_lines(trace, step, lane, _read_lane(ev.why), value, causes)
        suspicious = suspicious or not responsible
        responsible = responsible or f"{_at(step)}: {reg}[{lane}] not written ({ev.why})"
    if fallback is not None:  # (the value shown is the computation's)
        # nothing beyond the computation says a lane went wrong (no tags say
        # which lane a value should come from: a lane choice is no evidence)
        return chain, fallback[0], responsible if suspicious else fallback[1]
    if not responsible:  # the value moved from the wrong lane: blame the first lane choice on its path
        chosen = next((c for c in reversed(chain) if _CHOSEN.match(c)), "")
        responsible = causes.get(chosen) or re.sub(r" = (0x[0-9a-f]+|unknown)$", "", chosen)  # (the value is in the chain)
    if not responsible:
        last_writer = next((s for s in reversed(trace) if any(k[0] == reg0 and k[1] == lane0 for k in s.events)), None)
        responsible = (f"{_at(last_writer)}: {reg0}[{lane0}] reads the wrong lane" if last_writer
                       else _exec_off(trace, lane0, reg0, value) or "no instruction writes this lane")
    return chain, source, responsible


def _rows(low: Lowering, enc: Encoding, vals: dict[str, Any], tagged: bool, feq: bool = False,
          value: ValueAt | None = None) -> list[Row]:
    # a value names its lane only for data movement: a sum can equal a tag
    combines = spec_monoid(catalog.speclib(), low.spec, low.params) is not None
    names = _value_names(low, vals) if tagged else {}
    exp_names = {} if combines else names
    if isinstance(value, Reader):
        value.names = dict(names)
        value.inputs = {reg_key(b.reg): vals[reg_key(b.reg)] for b in low.inputs if reg_key(b.reg) in vals}
    rows: list[Row] = []
    out_regs: dict[str, Any] = {}
    for b in low.outputs:
        if b.name + HI in enc.halves:  # a 64-bit output: its halves are two 32-bit registers
            r = b.reg
            lo, hi = ((VReg(r.index), VReg(r.index + 1)) if isinstance(r, VReg)
                      else (SReg((r.names[0],)), SReg((r.names[1],))))
            out_regs[b.name], out_regs[b.name + HI] = lo, hi
        else:
            out_regs[b.name] = b.reg
    for name, i in mismatches(enc, feq):
        exp = enc.spec[name][0][i] & M32
        act = enc.outputs[name][i] & M32
        reg = out_regs[name]
        regname = reg_key(reg)
        trace = enc.machine.trace
        assert trace is not None  # a replay traces
        if not isinstance(reg, VReg):
            chain, src, resp = _scalar_chain(trace, regname, value, exp)
        else:
            chain, src, resp = trace_lane(low, trace, regname, i, [bool(a) for a in enc.act0], value, through=True,
                                            expected=exp)
        rows.append(Row(name, i, exp, exp_names.get(exp, ""), act, src if src else exp_names.get(act, ""), resp, chain))
    return _join_halves(enc, rows, exp_names, names) if enc.halves else rows


def _whole(name: str, lo: str, hi: str) -> str:
    """The label of a 64-bit value from its halves' labels ("x[5]" and
    "x.hi[5]" -> "x[5]"); both when they name different things."""
    if not lo and not hi:
        return ""
    if lo and hi == lo.replace("[", HI + "[", 1):
        return lo
    if lo == hi:
        return lo
    return ", ".join(p for p in (f"lo {lo}" if lo else "", f"hi {hi}" if hi else "") if p)


def _join_halves(enc: Encoding, rows: list[Row], exp_names: dict[int, str], names: dict[int, str]) -> list[Row]:
    """Rows of a 64-bit output's halves (``out`` and ``out.hi``) as one row
    per lane holding the whole 64-bit values.  [S:wide64]"""
    by: dict[tuple[str, int], dict[str, Row]] = {}
    order: list[tuple[str, int]] = []
    for r in rows:
        base = enc.halves.get(r.output, r.output)
        key = (base, r.lane)
        if key not in by:
            by[key] = {}
            order.append(key)
        by[key]["hi" if r.output != base else "lo"] = r
    out: list[Row] = []
    for base, i in order:
        halves = by[(base, i)]
        if base + HI not in enc.spec:  # a 32-bit output
            out.append(halves["lo"])
            continue
        lo, hi = halves.get("lo"), halves.get("hi")
        first = lo or hi
        assert first is not None
        e_lo, e_hi = enc.spec[base][0][i] & M32, enc.spec[base + HI][0][i] & M32
        a_lo, a_hi = enc.outputs[base][i] & M32, enc.outputs[base + HI][i] & M32
        exp, act = e_lo | (e_hi << 32), a_lo | (a_hi << 32)
        chain = ([f"low half: {c}" for c in lo.chain] if lo else []) + ([f"high half: {c}" for c in hi.chain] if hi else [])
        es = _whole(base, lo.expected_src if lo else exp_names.get(e_lo, ""),
                    hi.expected_src if hi else exp_names.get(e_hi, ""))
        acts = _whole(base, lo.actual_src if lo else names.get(a_lo, ""), hi.actual_src if hi else names.get(a_hi, ""))
        out.append(Row(base, i, exp, es, act, acts, first.responsible, chain, bits=64))
    return out


def _scalar_chain(trace: list[Step], reg: str, value: ValueAt | None = None,
                  expected: int | None = None) -> tuple[list[str], str, str]:
    """An SGPR result's writer; with `value` (a Reader) and `expected`, the
    operand of it shown wrong (:func:`blame`) and where that went wrong."""
    for s in reversed(trace):
        if (reg, None) in s.events:
            where = f"{_line(s)} ({print_instr(s.instr)})"
            bl = blame(s, 0, value, expected) if isinstance(value, Reader) and expected is not None else None
            if bl is not None and isinstance(value, Reader) and expected is not None and not bl.mask:
                hop = _blamed_cause(trace, s, None, bl, expected, value, reg)
                if hop is not None:
                    return [f"{where}: writes {reg}{_blame_line(bl, expected, 0, value.names)}", *hop[0]], hop[1], hop[2]
            return [f"{where}: writes {reg}"], f"written at {_line(s)}", f"{where}: writes {reg}"
    return [f"{reg} holds its value from entry"], f"{reg}@entry", "no instruction writes it"


def _hex(v: int, bits: int = 32) -> str:
    """A value in hex; a 64-bit one with all 16 digits, so its halves show."""
    return f"{v:#x}" if bits == 32 else f"0x{v:016x}"


# ---------------------------------------------------------------------------
# folding: lanes that do the same thing, shifted, are shown once


def fold_runs(lanes: Sequence[int], same: Callable[[int, int], bool], pinned: Collection[int] = (),
              group: int = 16, min_run: int = 3) -> list[list[int]]:
    """`lanes` (ascending) cut into runs: consecutive lanes of one `group`
    (a row of 16 lanes) for which ``same(head, lane)`` holds with the run's
    first lane as `head`.  A run shorter than `min_run`, and a `pinned` lane,
    stand alone.  The lane table and the lane-flow picture (verify.svg) both
    fold with this, so they show the same lanes.

    >>> fold_runs([0, 1, 2, 3, 5, 6, 16, 17, 18], lambda a, b: True, pinned=[6])
    [[0, 1, 2, 3], [5], [6], [16, 17, 18]]
    >>> fold_runs(list(range(6)), lambda a, b: b % 3 != 0)
    [[0, 1, 2], [3, 4, 5]]"""
    runs: list[list[int]] = []
    pin = set(pinned)
    for i in lanes:
        cur = runs[-1] if runs else None
        if (cur is not None and cur[-1] + 1 == i and i // group == cur[0] // group and i not in pin
                and cur[0] not in pin and same(cur[0], i)):
            cur.append(i)
        else:
            runs.append([i])
    out: list[list[int]] = []
    for r in runs:
        out += [r] if len(r) >= min_run else [[i] for i in r]
    return out


_LANE_NUM = re.compile(r"(\[|\blanes? )(\d+)")


def shifted(a: str, b: str, d: int) -> bool:
    """Text b says what text a says, for a lane `d` further on: equal
    except lane numbers (``v1[3]``, ``lane 3``), each either the same or
    shifted by `d`.

    >>> shifted("v1[4] not written (source lane 6 is inactive)", "v1[5] not written (source lane 7 is inactive)", 1)
    True
    >>> shifted("line 15 v1[4]", "line 16 v1[5]", 1)
    False"""
    pa, pb = _LANE_NUM.split(a), _LANE_NUM.split(b)
    if len(pa) != len(pb):
        return False
    for k, (x, y) in enumerate(zip(pa, pb)):
        if k % 3 == 2:  # a lane number
            if int(y) not in (int(x), int(x) + d):
                return False
        elif x != y:
            return False
    return True


def exec_bar(mask: int, wave: int) -> str:
    """EXEC as a bar, lane 0 first: '#' active, '.' not; a space between
    rows of 16 lanes, ' | ' between the halves of wave64.

    >>> exec_bar(0x12, 32)
    '.#..#........... ................'"""
    rows = ["".join("#" if (mask >> i) & 1 else "." for i in range(r, min(r + 16, wave))) for r in range(0, wave, 16)]
    halves = [" ".join(rows[h:h + 2]) for h in range(0, len(rows), 2)]
    return " | ".join(halves)


def _line_of(responsible: str) -> int:
    m = re.match(r"line (\d+)", responsible)
    return int(m.group(1)) if m else 1 << 30


def deciding_first(rows: list[Row]) -> list[Row]:
    """The rows with the deciding lane first: the one whose responsible
    instruction comes first in the program (the lowest such lane); the
    others after it in lane order."""
    if not rows:
        return rows
    first = min(rows, key=lambda r: (_line_of(r.responsible), r.lane))
    return [first] + [r for r in rows if r is not first]


def _same_row(a: Row, b: Row, tagged: bool) -> bool:
    """Row b is row a, shifted by the lanes between them: the same output
    and responsible instruction, sources shifted, and the same values where
    they are not lane tags."""
    d = b.lane - a.lane
    if a.output != b.output or not shifted(a.responsible, b.responsible, d):
        return False
    if not (shifted(a.expected_src, b.expected_src, d) and shifted(a.actual_src, b.actual_src, d)):
        return False
    for va, vb, src in ((a.expected, b.expected, a.expected_src), (a.actual, b.actual, a.actual_src)):
        if va != vb and not (tagged and src and vb - va in (0, d)):
            return False
    return True


def render(cex: Counterexample, low: Lowering, heads: tuple[str, str] = ("expected", "actual")) -> list[str]:
    """The lane table, for people: the deciding lane first, then the other
    lanes with runs that repeat a lane, shifted, folded into one line.
    `heads`: the value columns' titles (verify tv: the IR's and the GPU's)."""
    W = cex.wave
    act = mask_lanes(cex.exec_mask)
    lines = [f"  counterexample ({cex.obligation}):",
             f"    EXEC = {fmt_mask(cex.exec_mask, W)}  (active lanes: {lanes_text(act)})",
             f"    EXEC   {exec_bar(cex.exec_mask, W)}  (lane 0 first, # active)"]
    tagged = [(r, v) for r, v in cex.inputs.items() if r in cex.tagged_regs]
    plain = [(r, v) for r, v in cex.inputs.items() if r not in cex.tagged_regs]

    def head(reg: str) -> str:
        lab = cex.labels.get(reg)
        return f"{lab} = {reg}" if lab else reg

    if tagged:
        parts = [f"{head(r)}: {v[0]:#x}+i" if isinstance(v, list) else f"{head(r)} = {v:#x}" for r, v in tagged]
        lines.append("    lane-tagged inputs (lane i holds a value that names it): " + "; ".join(parts))
    for reg, v in plain:
        if isinstance(v, list):
            shown = ", ".join(f"[{i}]={v[i]:#x}" for i in act[:8])
            lines.append(f"    {head(reg)}: {shown}{' ...' if len(act) > 8 else ''} (active lanes)")
        else:
            lines.append(f"    {head(reg)} = {v:#x}")
    for p in cex.pattern:
        lines.append(f"    pattern: {p}")
    if cex.obligation == "exec":
        lines.append(f"    EXEC at the end = {fmt_mask(cex.exec_final or 0, W)}, at entry = {fmt_mask(cex.exec_mask, W)}")
        return lines
    many = len(low.outputs) != 1
    table = [("lane", heads[0], heads[1], "responsible")]
    folds: dict[int, list[str]] = {}  # table index -> the fold lines after it (a run's, then a row's repeats)
    shown_rows: list[Row] = []
    for r, fold in folded_rows(cex.rows, cex.tagged):
        if r is None:
            folds.setdefault(len(table) - 1, []).append(fold if not many else f"{shown_rows[-1].output}: {fold}")
            continue
        e = (NO_STORE if r.expected_src == NO_STORE else f"{_hex(r.expected, r.bits)} {r.expected_src}"
             if r.expected_src else _hex(r.expected, r.bits))
        a = (NO_STORE if r.actual_src == NO_STORE else f"{_hex(r.actual, r.bits)} {r.actual_src}"
             if r.actual_src else _hex(r.actual, r.bits))
        # (a shader's SGPR result, ret.s0: one value, checked in the lane shown)
        lane = str(r.lane) if not many and not r.output.startswith("ret.s") else f"{r.output}[{r.lane}]"
        table.append((lane, e, a, r.responsible))
        shown_rows.append(r)
    w = [max(len(t[k]) for t in table) for k in range(3)]
    for k, t in enumerate(table):
        lines.append(f"    {t[0]:>{w[0]}}  {t[1]:<{w[1]}}  {t[2]:<{w[2]}}  {t[3]}")
        for fold in folds.get(k, []):
            lines.append(f"    {'':>{w[0]}}  {fold}")
    for r in shown_rows[:4]:
        lines.append(f"    lane {r.lane}, step by step:")
        for c in reversed(r.chain):
            lines.append(f"      {c}")
    return lines


@dataclass(frozen=True)
class Fold:
    """One line of a folded lane listing: a lane shown (`like` None), or
    lanes folded into the lane `like` (a run: its first lane, shown just
    before) or into the lanes `like`-`like_last` (rows repeating rows)."""

    lanes: tuple[int, ...]
    like: int | None = None
    like_last: int | None = None

    def text(self) -> str:
        span = f"{self.lanes[0]}-{self.lanes[-1]}"
        if self.like_last is not None:
            return f"lanes {span}: same as lanes {self.like}-{self.like_last}, shifted"
        return f"lanes {span}: same as lane {self.like}, shifted"


def fold_lanes(lanes: Sequence[int], same: Callable[[int, int], bool], pinned: Collection[int] = ()) -> list[Fold]:
    """`lanes` (ascending) as shown folded: each run of :func:`fold_runs`
    as its first lane and a fold of the rest; then rows of 16 lanes that
    repeat the row before them (the same runs, each the same shifted) as one
    fold.  A row holding a `pinned` lane is always shown.

    >>> [f.text() if f.like is not None else f.lanes[0] for f in fold_lanes(range(48), lambda a, b: True)]
    [0, 'lanes 1-15: same as lane 0, shifted', 'lanes 16-47: same as lanes 0-15, shifted']"""
    pin = set(pinned)
    blocks: list[list[list[int]]] = []
    for run in fold_runs(list(lanes), same, pin):
        if blocks and blocks[-1][0][0] // 16 == run[0] // 16:
            blocks[-1].append(run)
        else:
            blocks.append([run])

    def same_block(x: list[list[int]], y: list[list[int]]) -> bool:
        d = y[0][0] - x[0][0]
        return len(x) == len(y) and all(len(p) == len(q) and q[0] - p[0] == d and same(p[0], q[0])
                                        for p, q in zip(x, y))

    out: list[Fold] = []
    k = 0
    while k < len(blocks):
        blk = blocks[k]
        n = k + 1
        while (n < len(blocks) and blocks[n][0][0] // 16 == blocks[n - 1][0][0] // 16 + 1
               and same_block(blk, blocks[n]) and not pin & {i for r in blocks[n] for i in r}):
            n += 1
        for run in blk:
            out.append(Fold((run[0],)))
            if len(run) > 1:
                out.append(Fold(tuple(run[1:]), run[0]))
        if n > k + 1:
            out.append(Fold(tuple(i for b in blocks[k + 1:n] for r in b for i in r), blk[0][0], blk[-1][-1]))
        k = n
    return out


def folded_rows(rows: list[Row], tagged: bool) -> list[tuple[Row | None, str]]:
    """The rows as the lane table shows them: the deciding lane first, then
    per output in lane order folded by :func:`fold_lanes`: a row shown is
    ``(row, "")``, a fold ``(None, "lanes 2-14: same as lane 1, shifted")``."""
    if not rows:
        return []
    first = deciding_first(rows)[0]
    out: list[tuple[Row | None, str]] = [(first, "")]
    for name in dict.fromkeys(r.output for r in rows):
        by_lane = {r.lane: r for r in rows if r.output == name}
        pin = [first.lane] if first.output == name else []

        def same(a: int, b: int, by_lane: dict[int, Row] = by_lane) -> bool:
            return _same_row(by_lane[a], by_lane[b], tagged)

        for f in fold_lanes(sorted(by_lane), same, pin):
            if f.like is not None:
                out.append((None, f.text()))
            elif by_lane[f.lanes[0]] is not first:
                out.append((by_lane[f.lanes[0]], ""))
    return out


# ---------------------------------------------------------------------------
# conditions: SCC, VCC and EXEC traced back to the compare that set them


_LOADS = re.compile(r"^(s_load|s_buffer_load|global_load|buffer_load|flat_load|scratch_load|ds_read|ds_load)")
_LOGIC = re.compile(r"^s_(and|or|xor|andn2|and_not1)_b(32|64)$")  # SCC = D != 0  [S:cause-scc-logic]
_CSELECT = re.compile(r"^s_cselect_b(32|64)$")  # D = SCC ? S0 : S1  [S:salu-cmp]


def sgpr_value(sregs: dict[str, Any] | None, regs: Sequence[str]) -> int | None:
    """The value of an SGPR or pair in `sregs` (None: not a known number)."""
    if sregs is None:
        return None
    out = 0
    for n, r in enumerate(regs):
        v = sregs.get(r)
        if not isinstance(v, int) or isinstance(v, bool):
            return None
        out |= (v & M32) << (32 * n)
    return out


def masked_source(ins: Any) -> tuple[str, ...] | None:
    """The SGPR whose active lanes' bits `ins` passes on unchanged: `s_and`
    of EXEC and it, `s_and_saveexec` of it; None for any other."""
    srcs = [o.names for o in ins.operands[1:] if isinstance(o, SReg)]
    if ins.base.startswith("s_and_saveexec") and len(srcs) == 1 and not srcs[0][0].startswith("exec"):
        return tuple(srcs[0])
    if ins.base in ("s_and_b32", "s_and_b64") and len(srcs) == 2:
        rest = [n for n in srcs if not n[0].startswith("exec")]
        if len(rest) == 1 and len(srcs) - len(rest) == 1:
            return tuple(rest[0])
    return None


def mask_input(ins: Any, read: dict[str, Any] | None, care: int, nonzero: bool
               ) -> tuple[tuple[str, ...], int, bool] | None:
    """For `s_and`/`s_or`/`s_andn2` (`s_and_not1`) (b32, b64) of two SGPRs
    whose result, on the bits `care`, is zero where a correct program's is
    not (`nonzero`) or the other way: the one input that must differ for
    the result to be right, with the other as it was (its registers, the
    bits of it that decide, and whether a correct program's are nonzero
    there); None where both must, or either could (no one input is the one
    in error).  Explanation only: bitwise AND, OR and AND-NOT, no hardware
    fact."""
    srcs = [o.names for o in ins.operands[1:3] if isinstance(o, SReg)]
    op = re.sub(r"_b(32|64)$", "", ins.base)
    if op not in ("s_and", "s_or", "s_andn2", "s_and_not1") or len(ins.operands) != 3 or len(srcs) != 2 \
            or any(n[0].startswith("exec") for n in srcs):
        return None
    a, b = sgpr_value(read, tuple(srcs[0])), sgpr_value(read, tuple(srcs[1]))
    if a is None or b is None:
        return None
    full = (1 << 64) - 1 if ins.base.endswith("64") else M32
    fixers: list[tuple[tuple[str, ...], int, bool]] = []
    if op == "s_or":  # a | b zero wanted: this one alone where the other is zero; nonzero: either
        for x, other in ((0, b & care), (1, a & care)):
            if nonzero or other == 0:
                fixers.append((tuple(srcs[x]), care, nonzero))
    elif op == "s_and":  # a & b nonzero wanted: this one, on the other's bits; zero: either
        for x, other in ((0, b & care), (1, a & care)):
            if not nonzero or other != 0:
                fixers.append((tuple(srcs[x]), care & other if nonzero else care, nonzero))
    elif nonzero:  # a & ~b nonzero wanted: a on ~b's bits (nonzero), or b on a's (zero there)
        if ~b & full & care:
            fixers.append((tuple(srcs[0]), care & ~b & full, True))
        if a & care:
            fixers.append((tuple(srcs[1]), care & a, False))
    else:  # zero wanted: either (a zero, or b all ones)
        return None
    return fixers[0] if len(fixers) == 1 else None


def scc_writer(trace: Sequence[Step], j: int) -> int | None:
    """The position of the last trace step before `j` that wrote SCC (its
    op's definitions name it); None where SCC holds its entry value."""
    for k in range(j - 1, -1, -1):
        ins = trace[k].instr
        try:
            if "scc" in op_of(ins.base).defs(ins):
                return k
        except Exception:  # (an op verify runs opaquely: a memory instruction writes no SCC)
            continue
    return None


def _operand_value(o: Any, sregs: dict[str, Any] | None) -> int | None:
    if isinstance(o, Imm):
        return o.value & ((1 << 64) - 1)
    if isinstance(o, SReg):
        return sgpr_value(sregs, o.names)
    return None


def cselect_scc(ins: Any, before: dict[str, Any] | None, after: dict[str, Any] | None) -> tuple[int, int] | None:
    """What SCC an `s_cselect` read, from what it wrote (D = SCC ? S0 :
    S1  [S:salu-cmp]), and the value the other SCC would have given: (SCC,
    the other value); None where S0 and S1 are equal or unknown."""
    if not _CSELECT.match(ins.base) or len(ins.operands) != 3 or not isinstance(ins.operands[0], SReg):
        return None
    bits = 64 if ins.base.endswith("64") else 32
    x, y = (expand_b64(o) if bits == 64 and isinstance(o, Imm) else _operand_value(o, before)
            for o in ins.operands[1:3])  # (b64: -1 is all ones  [S:literal64])
    d = sgpr_value(after, ins.operands[0].names)
    if x is None or y is None or d is None:
        return None
    x, y = x & ((1 << bits) - 1), y & ((1 << bits) - 1)
    if x == y or d not in (x, y):
        return None
    return (1, y) if d == x else (0, x)


# what a register held just after a trace step in another run of the code, the one that gives the
# value wanted (the same instruction's same occurrence there): (trace step, registers) -> value, None unknown
Reference = Callable[[int, tuple[str, ...]], "int | None"]


def _two_inputs(ins: Any) -> list[tuple[str, ...]] | None:
    """The two lane-mask inputs of an `s_xor` (b32, b64) of two SGPRs, EXEC
    among them allowed (`s_xor_b32 s0, exec_lo, s0`: a divergent else's
    mask), or of an `s_andn2_saveexec` (`s_and_not1_saveexec`: EXEC = S0 &
    ~EXEC): the inputs whose one in error no bitwise rule singles out."""
    srcs = [tuple(o.names) for o in ins.operands[1:] if isinstance(o, SReg)]
    if re.fullmatch(r"s_xor_b(32|64)", ins.base) and len(ins.operands) == 3 and len(srcs) == 2 and srcs[0] != srcs[1]:
        return srcs
    if re.fullmatch(r"s_andn2_saveexec_b(32|64)", ins.base) and len(srcs) == 1:
        return [srcs[0], ("exec_lo",) if ins.base.endswith("32") else ("exec_lo", "exec_hi")]
    return None


def _writer(trace: Sequence[Step], at: int, regs: Sequence[str]) -> int | None:
    """The last trace step before `at` that wrote any of `regs`."""
    return next((k for k in range(at - 1, -1, -1) if any(e[0] in regs for e in trace[k].events)), None)


def _decide_input(trace: Sequence[Step], cur: int, pair: list[tuple[str, ...]], care: int,
                  read: dict[str, Any] | None, ref: Reference | None
                  ) -> tuple[tuple[tuple[str, ...], int, bool] | None, str]:
    """Of two inputs (:func:`_two_inputs`) of trace step `cur`, the one that
    carries the wrong bits: each input's value on the bits `care` set
    against what the same instruction that wrote it left there in the
    reference run (`ref`: the run that gives the value wanted), and the one
    that differs followed; where both differ and one's writer read the
    other's (`s0` = `s_xor exec_lo, s0`, EXEC from the `v_cmpx`), the one
    both come from.  (its registers, the bits that differ, whether the
    reference's are nonzero there), or the one line that says why neither
    is followed.  (the pick or None, the line that says which and why)"""
    ins = trace[cur].instr
    at = f"line {ins.line} {ins.mnemonic}"
    name = [r[0] if len(r) == 1 else f"{r[0]}:{r[-1]}" for r in pair]
    vals = [sgpr_value(read, r) for r in pair]
    shown = ", ".join(f"{n} = {v:#x}" if v is not None else n for n, v in zip(name, vals))
    if ref is None:
        return None, f"{at}: either input ({shown}) may carry the wrong bits; no run gives the value wanted to tell which"
    writers = [_writer(trace, cur, r) for r in pair]
    diff: list[int | None] = []
    for r, v, w in zip(pair, vals, writers):
        other = v if w is None else ref(w, r)  # (a value from entry: the same in both runs)
        diff.append(None if v is None or other is None else (v ^ other) & care)
    if None in diff:
        return None, f"{at}: of its inputs ({shown}) the run that gives the value wanted holds no known value to compare"
    bad = [k for k, d in enumerate(diff) if d]
    why = ""
    if len(bad) == 2:  # both differ: the one the other's writer computed from
        for a, b in ((0, 1), (1, 0)):
            wa, wb = writers[a], writers[b]
            if wa is not None and wb is not None and wa < wb:
                used = op_of(trace[wb].instr.base).uses(trace[wb].instr)
                if _writer(trace, wb, [u for u in used if u in pair[a]]) == wa:
                    why = (f"both differ from the run that gives the value wanted, and {name[b]} is computed from "
                           f"{name[a]} (line {trace[wb].instr.line} {trace[wb].instr.mnemonic}): {name[a]} followed")
                    bad = [a]
                    break
        else:
            return None, (f"{at}: both inputs ({shown}) differ from the run that gives the value wanted, from "
                          "separate computations; neither is followed")
    if not bad:
        return None, (f"{at}: neither input ({shown}) differs from the run that gives the value wanted on the bits "
                      "in error; neither is followed")
    k = bad[0]
    d = diff[k] or 0
    w = writers[k]
    other = ref(w, pair[k]) if w is not None else vals[k]
    why = why or f"{name[k]} differs from the run that gives the value wanted, {name[1 - k]} does not: {name[k]} followed"
    return (pair[k], d, bool((other or 0) & d)), f"{at}: of its inputs ({shown}), {why}"


def condition_path(trace: Sequence[Step], j: int, care: int, nonzero: bool,
                   sregs_at: Callable[[int], dict[str, Any] | None], limit: int = 6,
                   ref: Reference | None = None, notes: list[str] | None = None) -> list[tuple[Step, str]]:
    """The trace steps that computed what trace step `j` wrote (a lane mask
    or SCC), the first computation first, where its result on the bits
    `care` is zero where a correct program's is not (`nonzero`) or the
    other way.  Back from j: an `s_and` with EXEC (or `s_and_saveexec`)
    passes its SGPR's active bits on; an `s_and`/`s_or` of two SGPRs, the
    one input that alone stands in the way (:func:`mask_input`); an
    `s_cselect` of two values of which the other is what a correct program
    holds, the SCC it read; a step that wrote SCC as an SALU logic op's
    result != 0 (`s_and_b32 s0, s0, s1` before `s_cbranch_scc0`), its
    result  [S:cause-scc-logic]; an `s_xor` or `s_andn2_saveexec`, the
    input that differs from the run `ref` (the one that gives the value
    wanted: :func:`_decide_input`), or, where none or both do, the path
    ends there; either way one line in `notes` says which and why.  Each step with what it wrote where the
    next reads it ("s0 = 0x1", "SCC = 1"; "" for step j).  A load's result
    ends the path (an input, not a computation).  `sregs_at(k)`: the SGPRs
    before trace step k."""
    path: list[tuple[Step, str]] = []
    shown = ""
    cur: int | None = j
    while cur is not None and len(path) < limit:
        st = trace[cur]
        ins = st.instr
        if _LOADS.match(ins.base):
            break
        path.insert(0, (st, shown))
        read = sregs_at(cur)
        src = masked_source(ins)
        if src is not None:
            ex = sgpr_value(read, ("exec_lo", "exec_hi")[:len(src)])
            care &= ex if ex is not None else care
        else:
            sel = cselect_scc(ins, read, sregs_at(cur + 1))
            if sel is not None:
                scc, other = sel
                if ((other & care) != 0) != nonzero:
                    break
                nxt = scc_writer(trace, cur)
                if nxt is None:
                    break
                wins = trace[nxt].instr
                shown = f"SCC = {scc}"
                # the SCC a correct program holds is the other; an SALU logic op's SCC is its result != 0
                care = ((1 << 64) - 1) if wins.base.endswith("64") else M32
                nonzero = scc == 0
                cur = nxt
                continue
            pick = mask_input(ins, read, care, nonzero)
            pair = _two_inputs(ins) if pick is None else None
            if pair is not None:
                pick, note = _decide_input(trace, cur, pair, care, read, ref)
                if notes is not None:
                    notes.append(note)
            if pick is None:
                break
            src, care, nonzero = pick
        v = sgpr_value(read, src)
        shown = f"{src[0] if len(src) == 1 else src[0] + ':' + src[-1]} = {v:#x}" if v is not None else ""
        cur = next((k for k in range(cur - 1, -1, -1) if any(e[0] in src for e in trace[k].events)), None)
    return path


def scc_path(trace: Sequence[Step], j: int, scc: bool,
             sregs_at: Callable[[int], dict[str, Any] | None]) -> list[tuple[Step, str]]:
    """:func:`condition_path` from trace step `j`, which set SCC to `scc`
    where a correct program holds the other: a compare ends it there; an
    SALU logic op (SCC = its result != 0) goes on to its inputs
    [S:cause-scc-logic]."""
    ins = trace[j].instr
    if not _LOGIC.match(ins.base):
        return [(trace[j], "")]
    care = ((1 << 64) - 1) if ins.base.endswith("64") else M32
    return condition_path(trace, j, care, not scc, sregs_at)
