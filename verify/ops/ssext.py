"""The scalar sign extensions ``s_sext_i32_i8`` and ``s_sext_i32_i16``:
D = the low 8 (16) bits of S0 sign-extended to 32; SCC is not written
(LLVM's dpp_combine.ll `dpp_src1_sgpr` extends an i16 kernel argument so).
[S:mem16-ssext]"""

from __future__ import annotations

from typing import Any

from .base import register
from .salu import Salu1


def _sext(B: Any, a: Any, bits: int) -> Any:
    sign = 1 << (bits - 1)
    return B.sub(B.xor(B.and_(a, B.const((1 << bits) - 1)), B.const(sign)), B.const(sign))


for _op in [
    Salu1("s_sext_i32_i8", lambda B, a: _sext(B, a, 8)),
    Salu1("s_sext_i32_i16", lambda B, a: _sext(B, a, 16)),
]:
    register(_op)
