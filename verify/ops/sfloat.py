"""SALU binary32 arithmetic of GFX11.5 and GFX12: s_add_f32, s_sub_f32
(`sD = s0 + s1`, `s0 - s1`), rounding and subnormals as the VALU's
(the MODE register they share: assumption f32.denormals); SCC untouched.
LLVM 22 moves a uniform float sum to the SALU with them (its wave-reduce
of fsub on gfx1150 and gfx1200).  [S:salu-f32]"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..backend import Arith, Value
from .base import AnyEmitter, register
from .salu import Salu2
from .valu import _f32op, _ftz

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..ir import Instr
    from ..machine import Machine


class SaluF32(Salu2):
    """s_<add|sub>_f32 sD, s0, s1: binary32, round to nearest even; SCC is
    not written.  [S:salu-f32] [S:f32]"""

    feature = "salu_float"
    valu_constants = True  # float inline constants (1.0, 0.5, ...) as the VALU's  [S:salu-f32]

    def __init__(self, base: str, op: str):
        super().__init__(base, lambda B, a, b: _f32op(B, op, a, b), None)
        self.op = op

    def defs(self, ins: Instr) -> list[str]:
        return [n for n in super().defs(ins) if n != "scc"]

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, a, b = ins.operands
        x, y = m.scalar(a), m.scalar(b)
        if m.assume("f32.denormals") == "flush":
            r = _ftz(B, _f32op(B, self.op, _ftz(B, x), _ftz(B, y)))
        else:
            r = _f32op(B, self.op, x, y)
        m.write_scalar(dst, r)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, a, b = ins.operands
        E.set(dst, self.spelled(E, E.get(a), E.get(b)))

    def spelled(self, E: Arith, a: Value, b: Value) -> Value:
        return _f32op(E, self.op, a, b)


for _op in (SaluF32("s_add_f32", "fadd"), SaluF32("s_sub_f32", "fsub")):
    register(_op)
