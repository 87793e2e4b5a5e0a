"""64-bit values as one z3 bit-vector, for the 64-bit atomics of `verify tv`
(verify/tv/atomic64.py, [S:atomic64]).

A chain of 64-bit adds written on 32-bit halves (a carry from the low half
into the high one per step) leaves the solver to prove that the carries of
n steps add up to those of one addition of n times the value, a question
of adder circuits that grows with n.  As one 64-bit term, z3's rewriting
meets the two (m + v + v + v is m + 3*v), and only the halves the code
computes are compared bit by bit.  Every function here is the plain
bit-vector operation: a term equals, as a function, the pair it stands for.
"""

from __future__ import annotations

from typing import Any

from .terms import z3


def join(B: Any, lo: Any, hi: Any) -> Any:
    """The 64-bit term of halves (lo, hi) (32-bit terms or ints) on the
    symbolic backend `B`: the 64-bit sum or product made of these halves,
    where there is one, else their concatenation (terms.Z3.pair64)."""
    return B.pair64(hi, lo)


def const(B: Any, n: int) -> Any:
    return z3.BitVecVal(n & ((1 << 64) - 1), 64, B.s.ctx)


def halves(t: Any) -> tuple[Any, Any]:
    """(lo, hi) of a 64-bit term: ints where it is a constant."""
    if z3.is_bv_value(t):
        n = t.as_long()
        return n & 0xFFFFFFFF, n >> 32 & 0xFFFFFFFF
    return z3.Extract(31, 0, t), z3.Extract(63, 32, t)


def op(name: str, a: Any, b: Any) -> Any:
    """a NAME b in 64 bits: add sub and or xor umin umax smin smax."""
    if name == "add":
        r = a + b
    elif name == "sub":
        r = a - b
    elif name == "and":
        r = a & b
    elif name == "or":
        r = a | b
    elif name == "xor":
        r = a ^ b
    elif name == "umin":
        r = z3.If(z3.ULE(a, b), a, b)
    elif name == "umax":
        r = z3.If(z3.ULE(b, a), a, b)
    elif name == "smin":
        r = z3.If(a <= b, a, b)
    elif name == "smax":
        r = z3.If(b <= a, a, b)
    else:
        raise ValueError(name)
    return z3.simplify(r)


def ite(B: Any, c: Any, a: Any, b: Any) -> Any:
    if c is True:
        return a
    if c is False:
        return b
    return z3.If(B.s.boolean(c), a, b)


def is_value(t: Any) -> bool:
    """t is a constant (a Python int or a z3 bit-vector value)."""
    return type(t) is int or z3.is_bv_value(t)


def mul_parts(t: Any) -> tuple[Any, int] | None:
    """(a, k) where t is the 32-bit product a * k of a term and a constant
    (either operand order), else None."""
    if type(t) is int or not z3.is_app_of(t, z3.Z3_OP_BMUL) or t.num_args() != 2:
        return None
    x, y = t.children()
    if z3.is_bv_value(y) and not z3.is_bv_value(x):
        return x, y.as_long()
    if z3.is_bv_value(x) and not z3.is_bv_value(y):
        return y, x.as_long()
    return None


def add_parts(t: Any) -> list[tuple[Any, Any]]:
    """(x, y) and (y, x) where t is the 32-bit sum x + y, else []."""
    if type(t) is int or not z3.is_app_of(t, z3.Z3_OP_BADD) or t.num_args() != 2:
        return []
    x, y = t.children()
    return [(x, y), (y, x)]


def same(a: Any, b: Any) -> bool:
    """a and b are one term (or equal ints)."""
    if type(a) is int or type(b) is int:
        return type(a) is type(b) and a == b
    return bool(a.get_id() == b.get_id())
