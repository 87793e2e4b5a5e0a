"""64-bit lane values as pairs of 32-bit values, over any backend.

A spec whose type is ``u64`` or ``i64`` (verify/spec.py) computes on lanes of
64 bits.  The machine keeps a 64-bit value as two VGPRs (``v[2:3]``: the low
half in v2), and the backends compute on 32-bit values; :class:`Wide` is the
backend a 64-bit spec runs on: its lane values are ``(lo, hi)`` pairs of the
underlying backend's values, and every 64-bit operation is written out in
32-bit operations of the underlying backend (an add carries from the low
half into the high one, a compare orders the high halves first).  Values
that are not pairs (lane indices, per-lane parameters) stay 32-bit and go
to the underlying backend unchanged.  Conditions are the underlying
backend's.  [S:wide64]

Constants are untyped until they meet a value: ``const(-1)`` is all ones in
either width.  The fold identities are 64-bit (:data:`IDENT64`).

>>> from verify.backend import Concrete
>>> W = Wide(Concrete())
>>> W.add((0xFFFFFFFF, 0), (1, 0))
(0, 1)
>>> W.ult((5, 1), (0xFFFFFFFF, 0)), W.slt((0, 0xFFFFFFFF), (0, 0))
(False, True)
>>> W.ite(False, W.const(-1), (3, 4)), join(W.ite(True, W.const(-1), (3, 4))), join(W.smin((0, 0x80000000), (1, 0)))
((3, 4), 18446744073709551615, 9223372036854775808)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .diag import InputError

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1

# the 64-bit value types of the spec notation (`type u64` / `type i64`)
WIDE_TYPES = ("u64", "i64")

# the fold operators that act on each 32-bit half alone (the monoid encoding
# of verify/smt/monoid.py applies to each half); add, min and max couple the halves
HALFWISE = ("and", "or", "xor")

# the fold operators' identities as 64-bit patterns (verify/identities.py has the 32-bit ones)
IDENT64: dict[str, int] = {
    "add": 0, "mul": 1, "and": M64, "or": 0, "xor": 0,
    "umin": M64, "umax": 0, "smin": (1 << 63) - 1, "smax": 1 << 63,
}


class K:
    """An untyped integer constant (Python int, signed or not)."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"K({self.n})"


Pair = tuple[Any, Any]


def join(v: Any) -> Any:
    """A concrete pair -> its 64-bit int (None if a half is unknown)."""
    if isinstance(v, K):
        return v.n & M64
    if isinstance(v, tuple):
        lo, hi = v
        return None if lo is None or hi is None else (lo & M32) | ((hi & M32) << 32)
    return v


def split(v: int) -> tuple[int, int]:
    """A 64-bit int -> (lo, hi)."""
    return v & M32, (v >> 32) & M32


class Wide:
    """The pair backend over `B` (see the module doc)."""

    def __init__(self, B: Any) -> None:
        self.B = B
        self.symbolic = B.symbolic

    def __getattr__(self, name: str) -> Any:  # conditions and the rest: the underlying backend's
        return getattr(self.B, name)

    # ---- typing of operands ---------------------------------------------
    def _pair(self, v: Any) -> Pair:
        if isinstance(v, tuple):
            return v
        if isinstance(v, K):
            lo, hi = split(v.n)
            return self.B.const(lo), self.B.const(hi)
        raise InputError(None, "a 64-bit spec mixes a 32-bit value into 64-bit arithmetic")

    def _narrow(self, v: Any) -> Any:
        return self.B.const(v.n) if isinstance(v, K) else v

    def _wide(self, *vs: Any) -> bool:
        """64-bit arithmetic: a pair among the operands, or only constants
        (spec code folds lane indices as Python ints, so constants that reach
        the backend are data)."""
        return any(isinstance(v, tuple) for v in vs) or all(isinstance(v, K) for v in vs)

    # ---- values -----------------------------------------------------------
    def const(self, n: int) -> K:
        return K(n)

    def ident(self, op: str) -> K:
        return K(IDENT64[op])

    def _lift(self, name: str, a: Any, b: Any) -> Any:
        return getattr(self.B, name)(self._narrow(a), self._narrow(b))

    def add(self, a: Any, b: Any) -> Any:
        if not self._wide(a, b):
            return self._lift("add", a, b)
        B, (al, ah), (bl, bh) = self.B, self._pair(a), self._pair(b)
        lo = B.add(al, bl)
        return lo, B.add(B.add(ah, bh), B.bool_value(B.ult(lo, al)))

    def sub(self, a: Any, b: Any) -> Any:
        if not self._wide(a, b):
            return self._lift("sub", a, b)
        B, (al, ah), (bl, bh) = self.B, self._pair(a), self._pair(b)
        return B.sub(al, bl), B.sub(B.sub(ah, bh), B.bool_value(B.ult(al, bl)))

    def _halves(self, name: str, a: Any, b: Any) -> Any:
        if not self._wide(a, b):
            return self._lift(name, a, b)
        f, (al, ah), (bl, bh) = getattr(self.B, name), self._pair(a), self._pair(b)
        return f(al, bl), f(ah, bh)

    def and_(self, a: Any, b: Any) -> Any:
        return self._halves("and_", a, b)

    def or_(self, a: Any, b: Any) -> Any:
        return self._halves("or_", a, b)

    def xor(self, a: Any, b: Any) -> Any:
        return self._halves("xor", a, b)

    def not_(self, a: Any) -> Any:
        if not self._wide(a):
            return self.B.not_(self._narrow(a))
        lo, hi = self._pair(a)
        return self.B.not_(lo), self.B.not_(hi)

    def _no64(self, name: str, a: Any, b: Any) -> Any:
        if not self._wide(a, b):
            return self._lift(name, a, b)
        raise InputError(None, f"'{name}' on 64-bit lane values is not part of the spec notation")

    def mul(self, a: Any, b: Any) -> Any:
        return self._no64("mul", a, b)

    def shl(self, a: Any, b: Any) -> Any:
        return self._no64("shl", a, b)

    def lshr(self, a: Any, b: Any) -> Any:
        return self._no64("lshr", a, b)

    def ashr(self, a: Any, b: Any) -> Any:
        return self._no64("ashr", a, b)

    # ---- comparisons ------------------------------------------------------
    def eq(self, a: Any, b: Any) -> Any:
        if not self._wide(a, b):
            return self._lift("eq", a, b)
        B, (al, ah), (bl, bh) = self.B, self._pair(a), self._pair(b)
        return B.and_b(B.eq(al, bl), B.eq(ah, bh))

    def ne(self, a: Any, b: Any) -> Any:
        if not self._wide(a, b):
            return self._lift("ne", a, b)
        return self.B.not_b(self.eq(a, b))

    def _order(self, name: str, signed: bool, strict: bool, a: Any, b: Any) -> Any:
        if not self._wide(a, b):
            return self._lift(name, a, b)
        B, (al, ah), (bl, bh) = self.B, self._pair(a), self._pair(b)
        high = B.slt(ah, bh) if signed else B.ult(ah, bh)
        low = B.ult(al, bl) if strict else B.ule(al, bl)
        return B.or_b(high, B.and_b(B.eq(ah, bh), low))

    def ult(self, a: Any, b: Any) -> Any:
        return self._order("ult", False, True, a, b)

    def ule(self, a: Any, b: Any) -> Any:
        return self._order("ule", False, False, a, b)

    def slt(self, a: Any, b: Any) -> Any:
        return self._order("slt", True, True, a, b)

    def sle(self, a: Any, b: Any) -> Any:
        return self._order("sle", True, False, a, b)

    def umin(self, a: Any, b: Any) -> Any:
        return self.ite(self.ule(a, b), a, b) if self._wide(a, b) else self._lift("umin", a, b)

    def umax(self, a: Any, b: Any) -> Any:
        return self.ite(self.ule(b, a), a, b) if self._wide(a, b) else self._lift("umax", a, b)

    def smin(self, a: Any, b: Any) -> Any:
        return self.ite(self.sle(a, b), a, b) if self._wide(a, b) else self._lift("smin", a, b)

    def smax(self, a: Any, b: Any) -> Any:
        return self.ite(self.sle(b, a), a, b) if self._wide(a, b) else self._lift("smax", a, b)

    def feq(self, a: Any, b: Any) -> Any:
        return self.eq(a, b)

    # ---- selection --------------------------------------------------------
    def ite(self, c: Any, a: Any, b: Any) -> Any:
        if type(c) is bool:
            return a if c else b
        if not self._wide(a, b):
            return self.B.ite(c, self._narrow(a), self._narrow(b))
        (al, ah), (bl, bh) = self._pair(a), self._pair(b)
        return self.B.ite(c, al, bl), self.B.ite(c, ah, bh)

    def select(self, vals: Sequence[Any], idx: Any) -> Any:
        if isinstance(idx, tuple):  # a lane index is 32-bit: a 64-bit lane value cannot be one
            raise InputError(None, "a 64-bit spec uses a 64-bit value as a lane index")
        if not any(isinstance(v, tuple) for v in vals):
            return self.B.select(vals, self._narrow(idx))
        pairs = [self._pair(v) for v in vals]
        i = self._narrow(idx)
        return self.B.select([p[0] for p in pairs], i), self.B.select([p[1] for p in pairs], i)

    def value(self, v: Any) -> Any:
        """A result as the underlying backend's pair (constants made concrete)."""
        return self._pair(v) if isinstance(v, (tuple, K)) else v

    def fadd(self, a: Any, b: Any) -> Any:
        return self._no64("fadd", a, b)

    def fmin(self, a: Any, b: Any) -> Any:
        return self._no64("fmin", a, b)

    def fmax(self, a: Any, b: Any) -> Any:
        return self._no64("fmax", a, b)
