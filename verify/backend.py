"""The backend protocol every semantic function is written against.

Instruction semantics (verify/ops) and spec evaluation (verify/spec.py) never
touch Python operators on lane values; they call a backend.  The same code
then runs

* concretely, on Python ints (:class:`Concrete`): the simulator behind
  ``verify show``, counterexample replay and synthesis pruning;
* with unknowns (:class:`Partial`): ``verify show`` when a register holds no
  known value, which then shows as ``null``;
* symbolically, on z3 bit-vectors (``verify.smt.Z3``, the only z3 user),
  which folds constant operands through this class so lane-index
  arithmetic stays concrete.

Values are 32-bit (ints in ``[0, 2**32)`` concretely); conditions are
booleans.  Shift amounts are full 32-bit values: an op that uses only the low
bits masks them itself, so the hardware rule is visible at the op.

>>> B = Concrete()
>>> B.sub(1, 2) == 0xFFFFFFFF, B.slt(B.const(-1), 0), B.ult(B.const(-1), 0)
(True, True, False)
>>> B.ite(B.bit(0b100, 2), 7, 9), B.from_bits([True, False, True])
(7, 5)
>>> B.select([10, 11, 12, 13], 2)
12
>>> P = Partial()
>>> P.add(None, 1) is None, P.ite(None, 4, 4), P.and_b(False, None)
(True, 4, False)
"""

from __future__ import annotations

import ctypes
import math
import struct

M32 = 0xFFFFFFFF
QNAN = 0x7FC00000


def _s32(a: int) -> int:
    return a - (1 << 32) if a & 0x80000000 else a


def f32_value(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & M32))[0]


def f32_bits(x: float) -> int:
    """Round a double to binary32 (round to nearest even, overflow to inf);
    any NaN becomes the quiet NaN 0x7fc00000."""
    if math.isnan(x):
        return QNAN
    return struct.unpack("<I", struct.pack("<f", ctypes.c_float(x).value))[0]


def f32_is_nan(bits: int) -> bool:
    return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x7FFFFF) != 0


def _f32_key(bits: int) -> tuple:
    """Total order with -0 below +0 (NaNs excluded by the caller)."""
    x = f32_value(bits)
    return (x, 0 if bits & 0x80000000 else 1)


class Concrete:
    """Python-int backend: the reference execution."""

    symbolic = False

    # ---- values -------------------------------------------------------
    def const(self, n: int):
        return n & M32

    def add(self, a, b):
        return (a + b) & M32

    def sub(self, a, b):
        return (a - b) & M32

    def mul(self, a, b):
        return (a * b) & M32

    def and_(self, a, b):
        return a & b

    def or_(self, a, b):
        return a | b

    def xor(self, a, b):
        return a ^ b

    def not_(self, a):
        return ~a & M32

    def shl(self, a, n):
        return (a << n) & M32 if n < 32 else 0

    def lshr(self, a, n):
        return a >> n if n < 32 else 0

    def ashr(self, a, n):
        return (_s32(a) >> min(n, 31)) & M32

    def umin(self, a, b):
        return a if a <= b else b

    def umax(self, a, b):
        return a if a >= b else b

    def smin(self, a, b):
        return a if _s32(a) <= _s32(b) else b

    def smax(self, a, b):
        return a if _s32(a) >= _s32(b) else b

    # ---- binary32 (IEEE-754, round to nearest even) ---------------------
    # fadd of two binary32 values computed in binary64 and rounded once is
    # exact: binary64 has more than 2 * 24 + 2 bits.  fmin/fmax order -0
    # below +0 and return the other operand when one is NaN.  [S:f32]
    def fadd(self, a, b):
        return f32_bits(f32_value(a) + f32_value(b))

    def fmin(self, a, b):
        if f32_is_nan(a):
            return b
        if f32_is_nan(b):
            return a
        return a if _f32_key(a) <= _f32_key(b) else b

    def fmax(self, a, b):
        if f32_is_nan(a):
            return b
        if f32_is_nan(b):
            return a
        return a if _f32_key(a) >= _f32_key(b) else b

    def fis_nan(self, a):
        return f32_is_nan(a)

    def feq(self, a, b):
        """Equal as results: the same bits, or both NaN."""
        return a == b or (f32_is_nan(a) and f32_is_nan(b))

    # ---- comparisons -> conditions ------------------------------------
    def eq(self, a, b):
        return a == b

    def ne(self, a, b):
        return a != b

    def ult(self, a, b):
        return a < b

    def ule(self, a, b):
        return a <= b

    def slt(self, a, b):
        return _s32(a) < _s32(b)

    def sle(self, a, b):
        return _s32(a) <= _s32(b)

    # ---- conditions ---------------------------------------------------
    def ite(self, c, a, b):
        return a if c else b

    def and_b(self, *cs):
        return all(cs)

    def or_b(self, *cs):
        return any(cs)

    def not_b(self, c):
        return not c

    def bit(self, a, k: int):
        return (a >> k) & 1 == 1

    def from_bits(self, bits):
        """Bits (LSB first, at most 32) -> a value."""
        v = 0
        for k, b in enumerate(bits):
            if b:
                v |= 1 << k
        return v

    def bool_value(self, c):
        return 1 if c else 0

    def popcount(self, conds):
        """How many of the conditions hold (a value)."""
        return sum(1 for c in conds if c)

    # ---- lane selection -----------------------------------------------
    def select(self, vals, idx):
        """vals[idx]; the caller guarantees 0 <= idx < len(vals)."""
        return vals[idx]

    def decide(self, c):
        """c, or a Python bool when c can be decided without a solver (used
        to avoid consulting an assumption that cannot matter)."""
        return c

    # ---- introspection used by the engine, never by semantics ----------
    @staticmethod
    def is_const(v) -> bool:
        return type(v) is int or type(v) is bool

    def fresh(self, name: str):
        raise TypeError("the concrete backend has no unknowns")


def _partial(method):
    def wrapped(self, *args):
        if any(a is None for a in args):
            return None
        return method(self, *args)

    wrapped.__name__ = method.__name__
    return wrapped


class Partial(Concrete):
    """Concrete with unknowns: ``None`` is a value (or condition) not known.

    Used by ``verify show`` for registers nobody initialised; anything
    computed from an unknown is unknown unless the result does not depend
    on it.
    """

    def ite(self, c, a, b):
        if c is None:
            return a if a == b else None
        return a if c else b

    def and_b(self, *cs):
        if any(c is False for c in cs):
            return False
        return None if any(c is None for c in cs) else True

    def or_b(self, *cs):
        if any(c is True for c in cs):
            return True
        return None if any(c is None for c in cs) else False

    def select(self, vals, idx):
        return None if idx is None else vals[idx]

    def from_bits(self, bits):
        return None if any(b is None for b in bits) else Concrete.from_bits(self, bits)

    def popcount(self, conds):
        return None if any(c is None for c in conds) else Concrete.popcount(self, conds)


for _name in (
    "const add sub mul and_ or_ xor not_ shl lshr ashr umin umax smin smax "
    "fadd fmin fmax fis_nan feq eq ne ult ule slt sle not_b bit bool_value"
).split():
    setattr(Partial, _name, _partial(getattr(Concrete, _name)))
del _name
