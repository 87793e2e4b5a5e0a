"""verify tv: inline asm whose body has instructions, run with verify's own
instruction semantics.  [S:ir-asm-exec]

`%m0 = call i32 asm "s_mov_b32 m0, -1", "={m0}"()` and
`%s = call i64 asm "s_mov_b64 $0, 0", "=s"()` (LLVM's
llvm.amdgcn.readlane.ll) compute a value with real instructions.  The IR's
value is what those instructions compute on the target, with a register put
for each `$N` (a fresh one of the constraint's file, or the one a `{name}`
constraint names) and the inputs placed in their registers: the very
semantics (verify/ops/) the GPU code runs when it meets the same
instructions between its `;;#ASMSTART`/`;;#ASMEND` lines.  The GPU side
needs nothing of its own: inlineasm.mark leaves such a block's
instructions in the code.

Modelled where the answer does not depend on anything the operands do not
carry: every instruction a VALU or SALU op verify defines, legal on the
target, that moves no data across lanes (a VALU op's result in a lane is a
function of that lane's operands; EXEC only enables the write); no
register read that no operand set (SCC, VCC, M0, EXEC as a value, an
unwritten register: unsupported, named); outputs `=v`, `=s`, `={reg}` and
inputs `v` of whole 32-bit registers; a register the body writes must be
its output or a declared clobber `~{...}` (the compiler may keep a value in
any other).  A lane that does not run the call has no value
(`crossed` reads poison there); a lane whose input is poison gets poison.
Anything else is unsupported, naming the asm text.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from ..asmcheck import Opaque, parse_line
from ..diag import InputError
from ..machine import Machine
from ..ops.base import op_of, reg_names
from ..syntax import parse_operand
from ..target import FeatureLog
from .types import Lanes, assemble, from_registers, pieces_of, rtype

OUT_V, OUT_S, IN_V = 200, 90, 220  # the registers put for `$N` (above what any body here names)
_EXPLICIT = re.compile(r"\{([a-z]+[0-9]*)\}")


def _reg_text(kind: str, base: int, n: int) -> str:
    return f"{kind}{base}" if n == 1 else f"{kind}[{base}:{base + n - 1}]"


def call(run: Any, ins: Any, text: str, body: str, cons: str) -> Lanes:
    """The IR's value of an inline asm call whose body has instructions.
    [S:ir-asm-exec]"""
    B, W = run.B, run.wave
    what = f"inline asm '{text}'"
    assert run.cur is not None
    if run.whole:
        raise run._unsupported(f"{what} in whole-wave mode")
    parts = [c.strip() for c in cons.split(",")] if cons.strip() else []
    args = list(ins.operands[:-1])
    subst: list[str] = []  # per operand: the register text put for $N
    outs: list[tuple[str, int, Any, str]] = []  # (kind, first register, type, a named register) of the output
    ins_v: list[tuple[int, Any, Lanes]] = []
    out_v, out_s, in_v = OUT_V, OUT_S, IN_V
    clobbered: set[str] = set()  # the registers the constraints let the body write besides its output
    for c in parts:
        if c.startswith("~"):
            m = re.fullmatch(r"~\{(.+)\}", c)
            # (memory, or a name verify does not read: it permits no register write here)
            with contextlib.suppress(InputError):
                clobbered.update(reg_names(parse_operand(m.group(1), run.cur.span)) if m else [])
            continue
        if c.startswith("="):
            if outs:
                raise run._unsupported(f"{what} constraints '{cons}' (one output at most)")
            tt = rtype(ins.type)
            if tt is None or tt.members is not None or tt.kind == "ptr" or any(
                    off or w != 32 for _, off, w in tt.slots()):
                raise run._unsupported(f"{what} output of type {ins.type} (modelled: whole 32-bit registers)")
            letter = c.lstrip("=&")
            m = _EXPLICIT.fullmatch(letter)
            if m is not None:
                name = m.group(1)
                if tt.registers != 1 or not re.fullmatch(r"m0|s\d+", name):
                    raise run._unsupported(f"{what} constraint '{c}' (modelled: one SGPR or m0)")
                subst.append(name)
                outs.append(("named", 0, tt, name))
                continue
            if letter == "v":
                subst.append(_reg_text("v", out_v, tt.registers))
                outs.append(("v", out_v, tt, ""))
                out_v += tt.registers
            elif letter == "s":
                subst.append(_reg_text("s", out_s, tt.registers))
                outs.append(("s", out_s, tt, ""))
                out_s += tt.registers
            else:
                raise run._unsupported(f"{what} constraint '{c}' (modelled: =v, =s, ={{m0}}, ={{sN}})")
            continue
        if c != "v":
            raise run._unsupported(f"{what} input constraint '{c}' (modelled: v)")
        if not args:
            raise run._unsupported(f"{what} constraints '{cons}' (more inputs than arguments)")
        o = args.pop(0)
        tt = rtype(o.type)
        if tt is None or tt.members is not None or tt.kind == "ptr" or any(off or w != 32 for _, off, w in tt.slots()):
            raise run._unsupported(f"{what} input of type {o.type} (modelled: whole 32-bit registers)")
        subst.append(_reg_text("v", in_v, tt.registers))
        ins_v.append((in_v, tt, run.operand(o)))
        in_v += tt.registers
    if args:
        raise run._unsupported(f"{what} constraints '{cons}' (more arguments than inputs)")
    if bool(outs) != (ins.type != "void"):
        raise run._unsupported(f"{what} constraints '{cons}' (no output for its result)")
    if re.search(r"\$\{\d+:", body) or re.search(r"\$(?![0-9{]|\$)", body):
        raise run._unsupported(f"{what} (an operand modifier or special '$' form)")

    def put(m: re.Match[str]) -> str:
        if m.group(0) == "$$":
            return "$"
        n = int(m.group(1) or m.group(2))
        if n >= len(subst):
            raise run._unsupported(f"{what} names ${n}, which it has no operand for")
        return subst[n]
    text_in = re.sub(r"\$\$|\$\{(\d+)\}|\$(\d+)", put, body)
    lines = [ln.split(";")[0].strip() for ln in text_in.splitlines()]
    lines = [ln for ln in lines if ln]
    # the machine the body runs on: every register it reads must be one an operand set
    unset: list[str] = []
    out_names = {f"v{base + r}" for kind, base, tt, _ in outs if kind == "v" for r in range(tt.registers)}

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "v" and name in out_names:  # an output's lanes the body does not write: no value (poison)
            return B.const(0)
        unset.append(name)  # (unsupported once the line has run)
        return B.const(0)
    mach = Machine(B, W, initial, FeatureLog(run.target), run.assume, waits=False, hazards=False)
    lo, hi = mach.from_lane_bits(run.active())
    mach.set_s("exec_lo", lo)
    mach.set_s("exec_hi", hi)

    def scc_read() -> Any:  # (made when first read: the read of an SCC no operand set)
        unset.append("scc")
        return B.fresh_bool("asm.unset.scc")
    mach.set_scc_from(scc_read)
    for base, tt, x in ins_v:
        for r, p in enumerate(pieces_of(x, tt)):
            mach.vregs[base + r] = list(p.vals)
    allowed = {n for kind, base, tt, named in outs for n in (
        [named] if kind == "named" else [f"{kind}{base + r}" for r in range(tt.registers)])}
    for ln in lines:
        try:
            one = parse_line(ln, run.cur.span)
        except InputError as e:
            raise run._unsupported(f"{what}: '{ln}' does not parse ({e.message})") from None
        op = op_of(one.base)
        if isinstance(op, Opaque) or op.unit not in ("valu", "salu"):
            raise run._unsupported(f"{what}: '{ln}' is not a VALU or SALU instruction verify models")
        if op.moves_lanes_in(one):
            raise run._unsupported(f"{what}: '{ln}' moves data across lanes (not modelled in inline asm)")
        if op.unit == "valu" and any(not re.fullmatch(r"v\d+", r) for r in op.defs(one)):
            # (a compare's mask, a carry-out: one scalar from every lane's operands and EXEC)
            raise run._unsupported(f"{what}: '{ln}' writes a scalar from the lanes (not modelled in inline asm)")
        if any(r in ("exec", "exec_lo", "exec_hi") for r in op.uses(one)):
            raise run._unsupported(f"{what}: '{ln}' reads EXEC (not modelled in inline asm)")
        wrote = [r for r in op.defs(one) if r not in clobbered and r not in allowed]
        if wrote:  # (the compiler may keep a value there: a write it was not told of)
            raise run._unsupported(f"{what}: '{ln}' writes {wrote[0]}, which is neither its output nor a clobber")
        try:
            op.check(one, run.target, W)
            mach.run([one])
        except InputError as e:
            raise run._unsupported(f"{what}: '{ln}' on {run.target.name} wave{W}: {e.message}") from None
        if unset:
            raise run._unsupported(f"{what}: '{ln}' reads {unset[0]}, which no operand sets")
    if not outs:
        return Lanes([0] * W, [False] * W, 32)
    kind, base, tt, named = outs[0]
    if kind == "v":
        regs = [list(mach.v(base + r)) for r in range(tt.registers)]
    elif kind == "s":
        regs = [[mach.s(f"s{base + r}")] * W for r in range(tt.registers)]
    else:
        regs = [[mach.s(named)] * W]
    if unset:
        raise run._unsupported(f"{what}: its output was never written")
    out = from_registers(B, tt, regs)
    # a lane that did not run the call has no value: a read across lanes gets poison there,
    # whichever ir.inactive_lane says (the GPU's register keeps what it held)  [S:ir-inactive]
    run.memory_kind.add(ins.key)
    run.no_value[ins.key] = [B.not_b(a) for a in run.active()]
    bad = [B.or_b(*(p.poison[i] for _, t2, x in ins_v for p in pieces_of(x, t2))) for i in range(W)]
    if any(b is not False for b in bad):
        return _poisoned(B, tt, out, bad)
    return out


def _poisoned(B: Any, tt: Any, x: Lanes, bad: list[Any]) -> Lanes:
    """`x` with poison added where `bad` holds, every piece."""
    ps = pieces_of(x, tt)
    return assemble(B, tt, [Lanes(p.vals, [B.or_b(q, b) for q, b in zip(p.poison, bad)], p.width, p.is_float, p.hi)
                            for p in ps])
