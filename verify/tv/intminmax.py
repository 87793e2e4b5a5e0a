"""llvm.umin/umax/smin/smax.i32 (LangRef "Standard C/C++ Library
Intrinsics"): the unsigned or signed minimum or maximum of two i32 values,
poison where either operand is.  `verify emit` spells v_min/v_max_u32/i32
so (tests/test_closed_loop.py)."""

from __future__ import annotations

import re
from typing import Any

from .types import Lanes

NAME = re.compile(r"llvm\.([us])(min|max)\.i32")


def minmax_call(run: Any, ins: Any) -> Lanes | None:
    """The result of `ins` on `run` (an IRRun) if it is one of these calls, else None."""
    m = NAME.fullmatch(ins.callee or "")
    if m is None:
        return None
    B = run.B
    a, b = (run.operand(o) for o in ins.operands[:2])
    f = getattr(B, f"{m.group(1)}{m.group(2)}")
    return Lanes([f(x, y) for x, y in zip(a.vals, b.vals)], [B.or_b(p, q) for p, q in zip(a.poison, b.poison)], 32)
