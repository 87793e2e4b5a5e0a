"""binary16 / bfloat16 / binary32 arithmetic rounded once on z3's floating-point
sorts: the symbolic side of verify.backend.fp_exact, attached to the Z3
backend as `fparith` ([S:half-arith]; tests/test_half_sem.py holds the two
together)."""

from __future__ import annotations

from typing import Any

from ..backend import FP_FORMATS, FP_QNAN
from .terms import Z3, Session, z3

# binary16 / bfloat16 / binary32 operations rounded once (add, mul, fma, the
# conversions) on z3's floating-point sorts; the concrete meaning is
# verify.backend.fp_exact, and tests/test_half_sem.py holds the two
# together.  Lane values are 32-bit bit-vectors holding the format's bits
# zero-extended.  A NaN result is the format's quiet NaN.  [S:half-arith]

def _fp_sort(s: Session, fmt: str) -> Any:
    e, f = FP_FORMATS[fmt]
    return z3.FPSort(e, f + 1, s.ctx)


def _fp_of(s: Session, x: Any, fmt: str) -> Any:
    width = sum(FP_FORMATS[fmt]) + 1
    bv = s.bv(x)
    if width < 32:
        bv = z3.Extract(width - 1, 0, bv)
    return z3.fpBVToFP(bv, _fp_sort(s, fmt), s.ctx)


def _z3_fparith(self: Z3, op: str, fmt: str, *xs: Any) -> Any:
    s = self.s
    ctx = s.ctx
    if op.startswith("cvt:"):
        r = z3.fpFPToFP(s.rne, _fp_of(s, xs[0], op[4:]), _fp_sort(s, fmt), ctx)
    else:
        a, b = _fp_of(s, xs[0], fmt), _fp_of(s, xs[1], fmt)
        if op == "add":
            r = z3.fpAdd(s.rne, a, b, ctx)
        elif op == "mul":
            r = z3.fpMul(s.rne, a, b, ctx)
        elif op == "fma":
            r = z3.fpFMA(s.rne, a, b, _fp_of(s, xs[2], fmt), ctx)
        else:
            raise ValueError(op)
    bits = z3.fpToIEEEBV(r, ctx)
    width = sum(FP_FORMATS[fmt]) + 1
    if width < 32:
        bits = z3.ZeroExt(32 - width, bits)
    return self.ite(z3.fpIsNaN(r, ctx), FP_QNAN[fmt], bits)


Z3.fparith = _z3_fparith  # type: ignore[attr-defined]
