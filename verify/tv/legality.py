"""The compiled code's instructions, each legal on the target it was compiled
for: an instruction the target cannot encode (LLVM's DPP combiner folding an
inline-constant src1 into v_bfe_i32_e64_dpp on gfx1100, triton#10414/#10452,
which llvm-mc-22 rejects: "src1 immediate operand invalid") is a compiler
error, never a proof of code the hardware does not run.  The rules are the
ops' own (`OpDef.check`, compared with llvm-mc-22 by tests/test_llvm_mc.py),
and for memory instructions their immediate offset's range per generation
(`offset_range`, the target table's MEM_OFFSETS, compared with llvm-mc-22 by
tests/test_tv_offset_range.py).
[S:vop3-dpp-more] [S:dpp-encoding] [S:mem-offset]"""

from __future__ import annotations

import re

from ..asmcheck import Opaque
from ..diag import InputError
from ..ir import Instr
from ..ops import mem16
from ..ops.base import op_of
from ..target import Target

# Each memory instruction class's immediate offset fields: (mnemonic pattern,
# modifier, its encoding's row in the target table's MEM_OFFSETS), first
# match wins; the modifier "" is SMEM's third operand  [S:mem-offset].
OFFSET_FIELDS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"(global|scratch)_"), "offset", "global"),
    (re.compile(r"flat_"), "offset", "flat"),
    (re.compile(r"t?buffer_(load|store|atomic)"), "offset", "mubuf"),
    (re.compile(r"ds_"), "offset0", "ds_pair"),  # the two-address forms
    (re.compile(r"ds_"), "offset1", "ds_pair"),
    (re.compile(r"ds_"), "offset", "ds"),
    (re.compile(r"s_buffer_load_"), "", "s_buffer_load"),
    (re.compile(r"s_load_"), "", "s_load"),
]


def operands(ins: Instr) -> tuple[list[str], dict[str, str]]:
    """The operands of `ins` and its `name:value` modifiers: the one reading
    the memory model (kernel.py) and the offset check share."""
    body = ins.text.split(";")[0].strip()
    rest = body.split(None, 1)[1] if " " in body else ""
    parts = [p.strip() for p in rest.split(",")]
    ops, mods = [], {}
    for p in parts:
        words = p.split()
        if not words:  # (no operands: buffer_wbinvl1_vol)
            continue
        ops.append(words[0])
        for w in words[1:]:
            k, _, v = w.partition(":")
            mods[k] = v
    return ops, mods


def offset_range(ins: Instr, target: Target) -> str | None:
    """Why an immediate offset of memory instruction `ins` is outside what
    `target` encodes, or None  [S:mem-offset]."""
    mn = ins.text.split(";")[0].split()[0] if ins.text.strip() else ins.mnemonic
    ops, mods = operands(ins)
    if mn.startswith("s_") and len(ops) == 3 and ops[2][:1] and ops[2][:1] in "-0123456789":
        mods = {**mods, "": ops[2]}
    done: set[str] = set()
    for pat, field, encoding in OFFSET_FIELDS:
        if field in done or field not in mods or not pat.match(mn):
            continue
        done.add(field)
        try:
            value = int(mods[field], 0)
        except ValueError:
            continue  # (an offset verify cannot read: the model refuses it as unsupported)
        r = target.offset_range(encoding)
        if r is not None and not r[0] <= value <= r[1]:
            what = "offset" if field == "" else field
            return f"{what} {value} is outside {r[0]}..{r[1]}, the range {mn} encodes on {target.name} ({target.family})"
    return None


def illegal(program: list[Instr], target: Target, wave: int) -> list[str]:
    """One note per instruction the target does not take, with the reason."""
    out = []
    for ins in program:
        op = op_of(ins.base)
        if isinstance(op, Opaque):  # memory and scheduling: verify/tv/kernel.py, memory.py
            acc = mem16.parse(ins.mnemonic)  # (the sub-dword accesses: their rule  [S:mem16-legal])
            why = offset_range(ins, target) if acc is None else (mem16.legal(acc, target) or offset_range(ins, target))
            if why is not None:
                out.append(f"LLVM's code is not valid on {target.name} wave{wave}: line {ins.line}: "
                           f"{ins.text.split(';')[0].strip()}: {why}")
            continue
        try:
            op.check(ins, target, wave)
        except InputError as e:
            text = ins.text.split(";")[0].strip()
            out.append(f"LLVM's code is not valid on {target.name} wave{wave}: line {ins.line}: {text}: {e.message}")
    return out
