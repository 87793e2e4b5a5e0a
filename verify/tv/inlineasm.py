"""verify tv: inline asm whose text is only comments, matched to the GPU
code's asm blocks.  [S:asm-block] [S:ir-asm-call] [S:asm-operands]

LLVM's own tests keep values alive and observe them with inline asm that
emits nothing: `%v = call i32 asm sideeffect "; def $0", "=v"()` and
`call void asm sideeffect "; use $0", "s"(i32 %x)`.  The compiled code has
each as a block between `;;#ASMSTART` and `;;#ASMEND` (AMDGPUAsmPrinter)
with the operands' registers substituted: `; def v0`, `; use s[0:1]`.

The model, as a black box the same on both sides:

* the k-th inline asm call of the IR (with side effects: LLVM keeps their
  order and number) is the k-th non-empty asm block of the GPU code; its
  text, after the registers are put for `$N`, must be the block's text,
  else the function is unsupported;
* an output (`=v`, `=s`) is a fresh value, the same term on both sides:
  the IR takes it, the GPU code finds it in the registers the block names
  (a VGPR output in every lane: nothing may be assumed of any lane of it);
  an SGPR output is one value for the wave, so every lane of the IR gets
  the same value;
* an input (`v`, `s`) is an observation, as a store is: in every lane that
  runs the call where the IR's value is not poison, the block's registers
  must hold it (an `s` input: the one SGPR value, so the IR's lanes must
  all agree with it), and EXEC at the block must be the lanes that run the
  call.  A difference is a refutation naming the block and the lane.

Only asm bodies whose every line is a comment are modelled (they run no
instruction); any other text, a constraint other than v/s (tied, specific
registers, immediates, memory), a clobber, several outputs, an asm without
`sideeffect`, asm in a function with branches (IR or GPU) is unsupported,
named.  The GPU side's block is a pseudo-instruction (`BASE`) of no wait
states; an unmatched one stops the run, so no block is ever ignored.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field, replace
from typing import Any

from .. import smt
from ..diag import InputError, Span
from ..ir import Instr, SReg, VReg
from ..ops.base import UNMODELLED, OpDef
from ..syntax import parse_operand
from . import asmexec
from .halfsem import piece_differ
from .types import Lanes, TType, from_registers, pieces_of, ret_pieces, rtype

BASE = "tv_asm_block"
START, END = ";;#ASMSTART", ";;#ASMEND"
NARROW_RLIMIT = 2_000_000  # each question for a one-lane counterexample (it steers the report, not the verdict)
_SCALAR_NAME = re.compile(r"s\d+|vcc_lo|vcc_hi")


# ---- the IR side -----------------------------------------------------------

@dataclass
class AsmOperand:
    role: str  # "def" or "use"
    letter: str  # "v" or "s"
    ty: str
    tt: TType


@dataclass
class AsmCall:
    """One inline asm call the IR ran: what the GPU's k-th block must be."""

    k: int
    where: str  # "path:line:col"
    text: str  # the template, unescaped
    lines: list[str]  # its non-blank lines, whitespace collapsed
    ops: list[AsmOperand]  # $0, $1, ...: the output first, then the inputs
    values: list[Lanes | None]  # per operand: the IR's value (an input), None (an output)
    act: list[Any]  # the lanes that run the call


def def_name(k: int, r: int) -> str:
    """The name of register r of the k-th block's output: the GPU machine's
    initial value of that name is the fresh value both sides share."""
    return f"asm{k}.out.{r}"


def unescape(s: str) -> str:
    """An LLVM IR string's text: `\\XX` a byte in hex, `\\\\` a backslash."""
    return re.sub(r"\\([0-9A-Fa-f]{2}|\\)", lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 16)), s)


def _lines(text: str) -> list[str]:
    return [" ".join(ln.split()) for ln in text.splitlines() if ln.strip()]


def ir_call(run: Any, ins: Any, text: str, cons: str, sideeffect: bool) -> Lanes:
    """The value of a non-empty inline asm call (`text` and `cons` as
    written in the IR), recorded in `run.asm` for the GPU's block.
    [S:ir-asm-call]"""
    B, W = run.B, run.wave
    body = unescape(text)
    what = f"inline asm '{text}'"
    lines = _lines(body)
    if any(not ln.startswith(";") for ln in lines):  # instructions: run with verify's semantics [S:ir-asm-exec]
        return asmexec.call(run, ins, text, body, cons)
    if run.asm is None:
        raise run._unsupported(f"{what} (asm is matched to the GPU code's blocks only against compiled code)")
    if not sideeffect:
        raise run._unsupported(f"{what} without sideeffect (LLVM may move, merge or drop it: not matched to the "
                               "GPU code's blocks)")
    if re.search(r"\$(?![0-9{]|\$)", body) or re.search(r"\$\{\d+:", body):
        raise run._unsupported(f"{what} (an operand modifier or special '$' form)")
    parts = [c.strip() for c in cons.split(",")] if cons.strip() else []
    ops: list[AsmOperand] = []
    args = [o for o in ins.operands[:-1]]
    uses = iter(args)
    for c in parts:
        if c.startswith("~"):
            raise run._unsupported(f"{what} clobbers {c} (not modelled)")
        role = "def" if c.startswith("=") else "use"
        letter = c[2:] if c.startswith("=&") else c[1:] if role == "def" else c
        if letter not in ("v", "s"):
            raise run._unsupported(f"{what} constraint '{c}' (modelled: v, s, =v, =s)")
        if role == "def":
            ty = ins.type
        else:
            o = next(uses, None)
            if o is None:
                raise run._unsupported(f"{what} constraints '{cons}' (more inputs than arguments)")
            ty = o.type
        tt = rtype(ty)
        if tt is None or tt.members is not None or tt.elem.bits < 8 or tt.kind == "ptr":
            raise run._unsupported(f"{what} operand of type {ty}")
        ops.append(AsmOperand(role, letter, ty, tt))
    if sum(o.role == "def" for o in ops) > 1 or any(o.role == "def" for o in ops[1:]) or \
            (ins.type != "void" and not (ops and ops[0].role == "def")):
        raise run._unsupported(f"{what} constraints '{cons}' (one output at most, first)")
    if next(uses, None) is not None:
        raise run._unsupported(f"{what} constraints '{cons}' (more arguments than inputs)")
    for n in range(len(ops)):
        if not re.search(r"\$(\{)?" + str(n) + r"(?![0-9])", body):
            raise run._unsupported(f"{what} does not name operand ${n} in its text")
    if run.whole:
        raise run._unsupported(f"{what} in whole-wave mode")
    if run.fn is not None and run.fn.blocks != 1:
        raise run._unsupported(f"{what} in a function with branches (asm blocks are matched in straight-line code)")
    k = len(run.asm)
    values: list[Lanes | None] = []
    out: Lanes | None = None
    arg = iter(args)
    for o in ops:
        if o.role == "use":
            values.append(run.operand(next(arg)))
            continue
        values.append(None)
        regs = [B.fresh_lanes("gpu." + def_name(k, r), W) if o.letter == "v" else [B.fresh("gpu." + def_name(k, r))] * W
                for r in range(o.tt.registers)]
        out = from_registers(B, o.tt, regs)
    span = ins.span
    run.asm.append(AsmCall(k, f"{span.path}:{span.line}:{span.col}" if span is not None else "?", body, lines, ops,
                           values, list(run.active())))
    return out if out is not None else Lanes([0] * W, [False] * W, 32)


# ---- the GPU side ------------------------------------------------------------

def mark(asm: str) -> tuple[str, dict[int, list[str]], list[str]]:
    """The assembly with each non-empty asm block's ASMSTART line made a
    `BASE N` instruction line and its body and ASMEND lines blank (the line
    numbers kept); the bodies by N; and the problems (a block not
    closed).  An empty block (the empty asm string: nothing emitted) is left
    as the comments it is.  [S:asm-block]"""
    lines = asm.splitlines()
    bodies: dict[int, list[str]] = {}
    problems: list[str] = []
    k = 0
    while k < len(lines):
        if lines[k].strip() != START:
            k += 1
            continue
        end = next((j for j in range(k + 1, len(lines)) if lines[j].strip() in (END, START)), None)
        if end is None or lines[end].strip() != END:
            problems.append(f"line {k + 1}: an inline asm block without {END}")
            break
        body = [ln for ln in lines[k + 1:end] if ln.strip()]
        if any(not ln.strip().startswith(";") for ln in body):
            pass  # instructions: the GPU code runs them as they are  [S:ir-asm-exec]
        elif body:
            lines[k] = f"{BASE} {len(bodies)}"
            bodies[len(bodies)] = body
            for j in range(k + 1, end + 1):
                lines[j] = ""
        k = end + 1
    return "\n".join(lines) + ("\n" if asm.endswith("\n") else ""), bodies, problems


def placeholder(text: str, bodies: dict[int, list[str]], span: Span) -> Instr | None:
    """The block a `BASE N` line stands for, before it is matched to an IR
    call; None for any other line."""
    words = text.split()
    if len(words) != 2 or words[0] != BASE or not words[1].isdigit() or int(words[1]) not in bodies:
        return None
    body = bodies[int(words[1])]
    text = f"{BASE} " + " \\n ".join(ln.strip() for ln in body)
    return Instr(BASE, BASE, (), (("body", "\n".join(body)),), "", span, (), (), text)


def bind(code: Any, run: Any) -> str | None:
    """Match the GPU code's blocks (`code.program`) to the IR's calls
    (`run.asm`), in order, each block's text to its call's after the
    registers are put for the operands; the blocks rewritten with their
    registers.  Why not, or None.  [S:asm-block] [S:asm-operands]"""
    blocks = [j for j, ins in enumerate(code.program) if ins.base == BASE]
    calls: list[AsmCall] = run.asm or []
    if not blocks and not calls:
        return None
    if code.blocks is not None:
        return "inline asm in GPU code with branches (asm blocks are matched in straight-line code)"
    if len(blocks) != len(calls):
        return (f"{len(blocks)} inline asm block(s) in the GPU code for {len(calls)} inline asm call(s) with side "
                "effects in the IR")
    for j, call in zip(blocks, calls):
        ins = code.program[j]
        body = _lines(str(ins.mod("body")))
        regs = _match(call, body)
        if isinstance(regs, str):
            return f"line {ins.line}: inline asm block '{' | '.join(body)}' for the IR's '{call.text}' " \
                   f"({call.where}): {regs}"
        shape = "".join("d" if o.role == "def" else "u" for o in call.ops)
        mods = (("body", ins.mod("body")), ("k", call.k), ("shape", shape))
        code.program[j] = replace(ins, operands=tuple(regs), mods=mods)
    return None


def _match(call: AsmCall, body: list[str]) -> list[VReg | SReg] | str:
    """The registers the block names for each operand, or why it does not
    match the call's text."""
    if len(body) != len(call.lines):
        return "the text differs"
    found: dict[int, str] = {}
    for want, got in zip(call.lines, body):
        pat, names = "", []
        for piece in re.split(r"(\$\{\d+\}|\$\d+|\$\$)", want):
            m = re.fullmatch(r"\$\{?(\d+)\}?", piece)
            if m is None:
                pat += re.escape("$" if piece == "$$" else piece)
                continue
            n = int(m.group(1))
            if n in names:
                pat += f"(?P=o{n})"
            else:
                names.append(n)
                pat += rf"(?P<o{n}>[a-z_]+\d*|[sv]\[\d+:\d+\])"
        hit = re.fullmatch(pat, got)
        if hit is None:
            return "the text differs"
        for n in names:
            if found.setdefault(n, hit.group(f"o{n}")) != hit.group(f"o{n}"):
                return f"operand ${n} is two registers"
    out: list[VReg | SReg] = []
    for n, o in enumerate(call.ops):
        if n >= len(call.ops) or n not in found:
            return f"operand ${n} not found"
        try:
            reg = parse_operand(found[n], Span("<asm>", 0, 0))
        except InputError:
            return f"operand ${n} is '{found[n]}', not a register"
        if o.letter == "v" and not (isinstance(reg, VReg) and reg.count == o.tt.registers):
            return f"operand ${n} ({o.ty}, '{o.letter}') is '{found[n]}', not {o.tt.registers} VGPR(s)"
        if o.letter == "s" and not (isinstance(reg, SReg) and reg.count == o.tt.registers
                                    and all(_SCALAR_NAME.fullmatch(x) for x in reg.names)):
            return f"operand ${n} ({o.ty}, '{o.letter}') is '{found[n]}', not {o.tt.registers} SGPR(s)"
        assert isinstance(reg, (VReg, SReg))
        out.append(reg)
    return out


@dataclass
class Seen:
    """What the GPU's k-th block saw: its input registers' lane values (per
    register) and EXEC."""

    regs: list[list[list[Any]]] = field(default_factory=list)  # per operand, per register, per lane
    exec_bits: list[Any] = field(default_factory=list)
    line: int = 0


_SEEN: weakref.WeakKeyDictionary[Any, dict[int, Seen]] = weakref.WeakKeyDictionary()


class AsmBlock(OpDef):
    """The pseudo-instruction of an asm block: reads its inputs (recorded
    for the comparison), writes its outputs' fresh values.  It emits no
    instruction: no wait states, no hazard role.  [S:asm-block]"""

    base = BASE
    unit = "asm"
    schedule_only = False

    def _split(self, ins: Instr) -> tuple[list[Any], list[Any]]:
        shape = str(ins.mod("shape", ""))
        defs = [op for op, c in zip(ins.operands, shape) if c == "d"]
        uses = [op for op, c in zip(ins.operands, shape) if c == "u"]
        return defs, uses

    def wait_states(self, ins: Instr) -> int:
        return 0

    def check(self, ins: Instr, target: Any, wave: int) -> list[Any]:
        return []

    def defs(self, ins: Instr) -> list[str]:
        return [n for op in self._split(ins)[0] for n in (op.names() if isinstance(op, VReg) else op.names)]

    def uses(self, ins: Instr) -> list[str]:
        return [n for op in self._split(ins)[1] for n in (op.names() if isinstance(op, VReg) else op.names)]

    def execute(self, ins: Instr, m: Any) -> None:
        k = ins.mod("k")
        if k is None:
            raise InputError(ins.span, "an inline asm block not matched to an IR call")
        defs, uses = self._split(ins)
        seen = Seen(line=ins.line)
        for op in uses:
            if isinstance(op, VReg):
                seen.regs.append([list(m.v(op.index + r)) for r in range(op.count)])
            else:
                seen.regs.append([[m.s(n)] * m.W for n in op.names])
        seen.exec_bits = list(m.actives())
        _SEEN.setdefault(m, {})[k] = seen
        r = 0
        for op in defs:
            if isinstance(op, VReg):
                for j in range(op.count):
                    name = def_name(k, r)
                    r += 1
                    m.inputs_read.append(name)
                    m.write_v(op.index + j, [m.initial("v", name, i) for i in range(m.W)], [True] * m.W)
            else:
                for n in op.names:
                    name = def_name(k, r)
                    r += 1
                    m.inputs_read.append(name)
                    m.set_s(n, m.initial("s", name, None))

    def print(self, ins: Instr, target: Any = None) -> str:
        return ins.text


UNMODELLED.setdefault(BASE, AsmBlock())


# ---- the comparison ------------------------------------------------------------

@dataclass
class Obligation:
    cond: Any  # true: the block's inputs differ from the IR's here
    call: AsmCall
    line: int
    what: str  # "EXEC" or the operand
    lane: int | None = None
    ir: Any = None
    gpu: Any = None
    lanes: list[tuple[int, Any]] = field(default_factory=list)  # the lanes it stands for, each where it counts


def obligations(B: Any, run: Any, m: Any) -> list[Obligation] | str:
    """Per call, lane and input piece: the GPU's register differs from the
    IR's value where it is not poison, in a lane that runs the call; and
    EXEC at the block differs from those lanes.  Why not (a block that did
    not run), or the list.  [S:ir-asm-call]"""
    calls: list[AsmCall] = run.asm or []
    seen = _SEEN.get(m, {})
    out: list[Obligation] = []
    for c in calls:
        s = seen.get(c.k)
        if s is None:
            return f"the GPU code did not run the inline asm block of {c.where}"
        W = len(c.act)
        for i in range(W):
            a, g = c.act[i], s.exec_bits[i]
            out.append(Obligation(B.or_b(B.and_b(a, B.not_b(g)), B.and_b(g, B.not_b(a))), c, s.line, "EXEC", i))
        uses = [(n, o, v) for n, (o, v) in enumerate(zip(c.ops, c.values)) if o.role == "use"]
        for (n, o, v), regs in zip(uses, s.regs):
            assert v is not None
            want = pieces_of(v, o.tt)
            got = ret_pieces(B, o.tt, regs)
            for p, (w, g2) in enumerate(zip(want, got)):
                label = f"${n}" + (f" piece {p}" if len(want) > 1 else "")
                groups: list[list[int]] = []  # lanes whose GPU and IR values are the very same terms: one question
                for i in range(W):
                    g0 = next((gr for gr in groups if smt.same(g2[gr[0]], g2[i]) and
                               smt.same(w.vals[gr[0]], w.vals[i])), None)
                    if g0 is None:
                        groups.append([i])
                    else:
                        g0.append(i)
                for gr in groups:
                    i = gr[0]
                    if o.tt.is_f32:
                        differ = B.not_b(B.feq(g2[i], w.vals[i]))
                    else:  # (16-bit floats: NaN as any NaN)
                        differ = piece_differ(B, o.tt, g2[i], w.vals[i])
                    some = B.or_b(*(B.and_b(c.act[j], B.not_b(w.poison[j])) for j in gr))
                    out.append(Obligation(B.and_b(some, differ), c, s.line, label, i, w.vals[i], g2[i],
                                          [(j, B.and_b(c.act[j], B.not_b(w.poison[j]))) for j in gr]))
    return out


def decide(res: Any, q: Any, B: Any, no_ub: Any, run: Any, m: Any, label: str) -> bool:
    """Ask whether any block's inputs differ from the IR's (`q` holds the
    entry contract).  True when that decides the instance (`res` refuted,
    unknown or unsupported), False when they agree (the caller goes on)."""
    obls = obligations(B, run, m)
    if isinstance(obls, str):
        res.verdict, res.notes = "unsupported", [f"{label}: unsupported: {obls}"]
        return True
    conds = [o.cond for o in obls if o.cond is not False]
    if not conds:
        return False
    q.push()
    q.add(B.and_b(no_ub, B.or_b(*conds)))
    r = q.check()
    if r == "unsat":
        q.pop()
        return False
    if r == "unknown":
        q.pop()
        res.verdict, res.notes = "unknown", [f"the solver gave up on the inline asm inputs ({q.reason})"]
        return True
    if run.choices:  # the IR's non-deterministic values may be what differs: the source may choose them
        q.pop()
        res.verdict, res.notes = "unknown", [*res.notes, "an inline asm block's inputs may differ from the IR's "
                                             "where the IR has non-deterministic values (not settled)"]
        return True
    for lane in range(min(4, len(obls[0].call.act))):  # a counterexample with one active lane, where there is one
        act = obls[0].call.act
        q.push()
        q.add(B.and_b(act[lane], *(B.not_b(a) for j, a in enumerate(act) if j != lane)))
        if q.check(rlimit=NARROW_RLIMIT) == "sat":
            break
        q.pop()
    else:
        q.push()
        q.check()  # (the first model again)
    bad = next(o for o in obls if o.cond is not False and q.truth(o.cond))
    exec_mask = sum(1 << i for i, a in enumerate(bad.call.act) if q.truth(a))
    c = bad.call
    head = f"counterexample: inline asm block {c.k} at GPU line {bad.line} ('{' | '.join(c.lines)}' of {c.where})"
    if bad.what == "EXEC":
        seen = _SEEN[m][c.k]
        got = sum(1 << i for i, g in enumerate(seen.exec_bits) if q.truth(g))
        note = f"{head}: EXEC at the block is {got:#x}, the lanes that run the call are {exec_mask:#x}"
    else:
        which = next((j for j, on in bad.lanes if q.truth(on)), bad.lane)
        note = (f"{head}: lane {which}, operand {bad.what}: the IR passes {q.value(bad.ir):#x}, the GPU's "
                f"register holds {q.value(bad.gpu):#x} (EXEC = {exec_mask:#x})")
    q.pop()
    q.pop()
    res.verdict = "refuted"
    res.notes = [*res.notes, note]
    return True
