"""The compiled code's instructions, each legal on the target it was compiled
for: an instruction the target cannot encode (LLVM's DPP combiner folding an
inline-constant src1 into v_bfe_i32_e64_dpp on gfx1100, triton#10414/#10452,
which llvm-mc-22 rejects: "src1 immediate operand invalid") is a compiler
error, never a proof of code the hardware does not run.  The rules are the
ops' own (`OpDef.check`, compared with llvm-mc-22 by tests/test_llvm_mc.py).
[S:vop3-dpp-more] [S:dpp-encoding]"""

from __future__ import annotations

from ..asmcheck import Opaque
from ..diag import InputError
from ..ir import Instr
from ..ops import mem16
from ..ops.base import op_of
from ..target import Target


def illegal(program: list[Instr], target: Target, wave: int) -> list[str]:
    """One note per instruction the target does not take, with the reason."""
    out = []
    for ins in program:
        op = op_of(ins.base)
        if isinstance(op, Opaque):  # memory and scheduling: verify/tv/kernel.py, memory.py
            acc = mem16.parse(ins.mnemonic)  # (the sub-dword accesses: their rule  [S:mem16-legal])
            why = None if acc is None else mem16.legal(acc, target)
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
