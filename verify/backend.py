"""The backend protocol every semantic function is written against.

Instruction semantics (verify/ops) and spec evaluation (verify/spec.py) never
touch Python operators on lane values; they call a backend.  The protocol is
written out below (:class:`Arith`, :class:`Backend`, :class:`Symbolic`) and
each backend implements all of it itself, none inheriting another's
arithmetic.  The same code then runs

* concretely, on Python ints (:class:`Concrete`): the simulator behind
  ``verify show``, counterexample replay and synthesis pruning;
* with unknowns (:class:`Partial`): ``verify show`` when a register holds no
  known value, which then shows as ``null``;
* symbolically, on z3 bit-vectors (``verify.smt.Z3`` and its monoid
  encoding ``verify.smt.Z3Monoid``, the only z3 users), folding constant
  operands through the pure functions of this module so lane-index
  arithmetic stays concrete;
* as text (``verify.emit.Emitter``): an instruction's lane function, which
  uses only :class:`Arith`, spelled as LLVM IR or HIP.

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
import struct
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

# lane values and conditions: one definition, in verify/ir.py (re-exported)
from .ir import Cond as Cond
from .ir import Value as Value

M32 = 0xFFFFFFFF
QNAN = 0x7FC00000


# ---------------------------------------------------------------------------
# the protocol


@runtime_checkable
class Arith(Protocol):
    """What an instruction's lane function (``fn(B, *srcs)`` in verify/ops)
    may call: 32-bit and binary32 arithmetic, comparisons, ``ite`` and bits.
    The emitters implement exactly this much."""

    def const(self, n: int) -> Value: ...
    def add(self, a: Value, b: Value) -> Value: ...
    def sub(self, a: Value, b: Value) -> Value: ...
    def mul(self, a: Value, b: Value) -> Value: ...
    def and_(self, a: Value, b: Value) -> Value: ...
    def or_(self, a: Value, b: Value) -> Value: ...
    def xor(self, a: Value, b: Value) -> Value: ...
    def not_(self, a: Value) -> Value: ...
    def shl(self, a: Value, n: Value) -> Value: ...
    def lshr(self, a: Value, n: Value) -> Value: ...
    def ashr(self, a: Value, n: Value) -> Value: ...
    def umin(self, a: Value, b: Value) -> Value: ...
    def umax(self, a: Value, b: Value) -> Value: ...
    def smin(self, a: Value, b: Value) -> Value: ...
    def smax(self, a: Value, b: Value) -> Value: ...
    def fadd(self, a: Value, b: Value) -> Value: ...
    def fmin(self, a: Value, b: Value) -> Value: ...
    def fmax(self, a: Value, b: Value) -> Value: ...
    def eq(self, a: Value, b: Value) -> Cond: ...
    def ne(self, a: Value, b: Value) -> Cond: ...
    def ult(self, a: Value, b: Value) -> Cond: ...
    def ule(self, a: Value, b: Value) -> Cond: ...
    def slt(self, a: Value, b: Value) -> Cond: ...
    def sle(self, a: Value, b: Value) -> Cond: ...
    def ite(self, c: Cond, a: Value, b: Value) -> Value: ...
    def bit(self, a: Value, k: int) -> Cond: ...
    def from_bits(self, bits: Sequence[Cond]) -> Value: ...


@runtime_checkable
class Backend(Arith, Protocol):
    """Everything the machine (verify/machine.py), the ops, the spec
    interpreter (verify/spec.py), the checker and counterexample code call on
    the backend of a run."""

    symbolic: bool

    def fis_nan(self, a: Value) -> Cond: ...
    def feq(self, a: Value, b: Value) -> Cond: ...
    def and_b(self, *cs: Cond) -> Cond: ...
    def or_b(self, *cs: Cond) -> Cond: ...
    def not_b(self, c: Cond) -> Cond: ...
    def any_bit(self, *ws: Value) -> Cond: ...
    def bool_value(self, c: Cond) -> Value: ...
    def popcount(self, conds: Sequence[Cond]) -> Value: ...
    def select(self, vals: Sequence[Any], idx: Value) -> Any: ...
    def decide(self, c: Cond) -> Cond: ...
    def under(self, t: Value, c: Cond) -> Value: ...
    def same(self, a: Any, b: Any) -> bool: ...
    def fresh(self, name: str) -> Value: ...


@runtime_checkable
class Symbolic(Backend, Protocol):
    """A backend whose unknowns a solver reasons about (verify/smt/): the
    checker's initial state and counterexample search also use these.
    Its terms live in `session` (smt.Session: one z3 context per proof), where
    the solver's questions about them must be asked too."""

    @property
    def session(self) -> Any: ...

    def fresh_bool(self, name: str) -> Cond: ...
    def fresh_lanes(self, name: str, n: int, cond: bool = False) -> list[Any]: ...
    def at_most(self, conds: Sequence[Cond], k: int) -> Cond: ...
    def lane_twins(self, conds: Sequence[Cond]) -> list[int | None]: ...


PROTOCOLS: tuple[type, ...] = (Arith, Backend, Symbolic)


def members(proto: type) -> list[str]:
    """The names a protocol class requires, its bases' included."""
    out: list[str] = []
    for cls in reversed(proto.__mro__):
        if cls in PROTOCOLS:
            for name in list(vars(cls).get("__annotations__", {})) + list(vars(cls)):
                if not name.startswith("_") and name not in out:
                    out.append(name)
    return out


# ---------------------------------------------------------------------------
# pure functions on Python ints (the concrete meaning; the backends use them)


def _s32(a: int) -> int:
    return a - (1 << 32) if a & 0x80000000 else a


_F32, _U32, _F32X2, _U32X2 = struct.Struct("<f"), struct.Struct("<I"), struct.Struct("<2f"), struct.Struct("<2I")


def f32_value(bits: int) -> float:
    return float(_F32.unpack(_U32.pack(bits & M32))[0])


def f32_bits(x: float) -> int:
    """Round a double to binary32 (round to nearest even, overflow to inf);
    any NaN becomes the quiet NaN 0x7fc00000.  struct's "f" rounds as C's
    cast to float does (ctypes.c_float too) but refuses a value that rounds
    to an infinity: c_float rounds those (the f32 search adds ~10^6 times,
    issue #35; tests/test_f32_search.py holds the two to the same bits)."""
    if x != x:
        return QNAN
    try:
        return int(_U32.unpack(_F32.pack(x))[0])
    except OverflowError:
        return int(_U32.unpack(_F32.pack(ctypes.c_float(x).value))[0])


def f32_is_nan(bits: int) -> bool:
    return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x7FFFFF) != 0


def _f32_key(bits: int) -> tuple[float, int]:
    """Total order with -0 below +0 (NaNs excluded by the caller)."""
    x = f32_value(bits)
    return (x, 0 if bits & 0x80000000 else 1)


def shl32(a: int, n: int) -> int:
    return (a << n) & M32 if n < 32 else 0


def lshr32(a: int, n: int) -> int:
    return a >> n if n < 32 else 0


def ashr32(a: int, n: int) -> int:
    return (_s32(a) >> min(n, 31)) & M32


def smin32(a: int, b: int) -> int:
    return a if _s32(a) <= _s32(b) else b


def smax32(a: int, b: int) -> int:
    return a if _s32(a) >= _s32(b) else b


def slt32(a: int, b: int) -> bool:
    return _s32(a) < _s32(b)


def sle32(a: int, b: int) -> bool:
    return _s32(a) <= _s32(b)


# binary32 (IEEE-754, round to nearest even): fadd of two binary32 values
# computed in binary64 and rounded once is exact: binary64 has more than
# 2 * 24 + 2 bits.  fmin/fmax order -0 below +0 and return the other operand
# when one is NaN.  [S:f32]
def fadd32(a: int, b: int) -> int:
    x, y = _F32X2.unpack(_U32X2.pack(a & M32, b & M32))
    return f32_bits(x + y)


def fmin32(a: int, b: int) -> int:
    if f32_is_nan(a):
        return b
    if f32_is_nan(b):
        return a
    return a if _f32_key(a) <= _f32_key(b) else b


def fmax32(a: int, b: int) -> int:
    if f32_is_nan(a):
        return b
    if f32_is_nan(b):
        return a
    return a if _f32_key(a) >= _f32_key(b) else b


def feq32(a: int, b: int) -> bool:
    """Equal as results: the same bits, or both NaN."""
    return a == b or (f32_is_nan(a) and f32_is_nan(b))


def bits_value(bits: Sequence[bool]) -> int:
    """Bits (LSB first, at most 32) -> a value."""
    v = 0
    for k, b in enumerate(bits):
        if b:
            v |= 1 << k
    return v


# ---------------------------------------------------------------------------
# the backends


class Concrete:
    """Python-int backend: the reference execution."""

    symbolic = False

    # ---- values -------------------------------------------------------
    def const(self, n: int) -> int:
        return n & M32

    def add(self, a: int, b: int) -> int:
        return (a + b) & M32

    def sub(self, a: int, b: int) -> int:
        return (a - b) & M32

    def mul(self, a: int, b: int) -> int:
        return (a * b) & M32

    def and_(self, a: int, b: int) -> int:
        return a & b

    def or_(self, a: int, b: int) -> int:
        return a | b

    def xor(self, a: int, b: int) -> int:
        return a ^ b

    def not_(self, a: int) -> int:
        return ~a & M32

    def shl(self, a: int, n: int) -> int:
        return shl32(a, n)

    def lshr(self, a: int, n: int) -> int:
        return lshr32(a, n)

    def ashr(self, a: int, n: int) -> int:
        return ashr32(a, n)

    def umin(self, a: int, b: int) -> int:
        return min(a, b)

    def umax(self, a: int, b: int) -> int:
        return max(a, b)

    def smin(self, a: int, b: int) -> int:
        return smin32(a, b)

    def smax(self, a: int, b: int) -> int:
        return smax32(a, b)

    # ---- binary32 -------------------------------------------------------
    def fadd(self, a: int, b: int) -> int:
        return fadd32(a, b)

    def fmin(self, a: int, b: int) -> int:
        return fmin32(a, b)

    def fmax(self, a: int, b: int) -> int:
        return fmax32(a, b)

    def fis_nan(self, a: int) -> bool:
        return f32_is_nan(a)

    def feq(self, a: int, b: int) -> bool:
        """Equal as results: the same bits, or both NaN."""
        return feq32(a, b)

    # ---- comparisons -> conditions ------------------------------------
    def eq(self, a: int, b: int) -> bool:
        return a == b

    def ne(self, a: int, b: int) -> bool:
        return a != b

    def ult(self, a: int, b: int) -> bool:
        return a < b

    def ule(self, a: int, b: int) -> bool:
        return a <= b

    def slt(self, a: int, b: int) -> bool:
        return slt32(a, b)

    def sle(self, a: int, b: int) -> bool:
        return sle32(a, b)

    # ---- conditions ---------------------------------------------------
    def ite(self, c: bool, a: Any, b: Any) -> Any:
        return a if c else b

    def and_b(self, *cs: bool) -> bool:
        return all(cs)

    def or_b(self, *cs: bool) -> bool:
        return any(cs)

    def any_bit(self, *ws: int) -> bool:
        """Some bit of the words is set (a 64-bit result's SCC)."""
        return any(w != 0 for w in ws)

    def not_b(self, c: bool) -> bool:
        return not c

    def bit(self, a: int, k: int) -> bool:
        return (a >> k) & 1 == 1

    def from_bits(self, bits: Sequence[bool]) -> int:
        """Bits (LSB first, at most 32) -> a value."""
        return bits_value(bits)

    def bool_value(self, c: bool) -> int:
        return 1 if c else 0

    def popcount(self, conds: Sequence[bool]) -> int:
        """How many of the conditions hold (a value)."""
        return sum(1 for c in conds if c)

    # ---- lane selection -----------------------------------------------
    def select(self, vals: Sequence[Any], idx: int) -> Any:
        """vals[idx]; the caller guarantees 0 <= idx < len(vals)."""
        return vals[idx]

    def decide(self, c: bool) -> bool:
        """c, or a Python bool when c can be decided without a solver (used
        to avoid consulting an assumption that cannot matter)."""
        return c

    def under(self, t: int, c: bool) -> int:
        """`t` where `c` holds: a term equal to `t` wherever `c` holds,
        perhaps simpler (a symbolic backend strips a select on `c`)."""
        return t

    def same(self, a: Any, b: Any) -> bool:
        """The very same value (a structural check that asks no question)."""
        return type(a) is type(b) and a == b

    def fresh(self, name: str) -> int:
        raise TypeError("the concrete backend has no unknowns")


MaybeInt = int | None
MaybeBool = bool | None


class Partial:
    """Concrete with unknowns: ``None`` is a value (or condition) not known.

    Used by ``verify show`` for registers nobody initialised; anything
    computed from an unknown is unknown unless the result does not depend
    on it.
    """

    symbolic = False

    # ---- values -------------------------------------------------------
    def const(self, n: int) -> int:
        return n & M32

    def add(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else (a + b) & M32

    def sub(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else (a - b) & M32

    def mul(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else (a * b) & M32

    def and_(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else a & b

    def or_(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else a | b

    def xor(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else a ^ b

    def not_(self, a: MaybeInt) -> MaybeInt:
        return None if a is None else ~a & M32

    def shl(self, a: MaybeInt, n: MaybeInt) -> MaybeInt:
        return None if a is None or n is None else shl32(a, n)

    def lshr(self, a: MaybeInt, n: MaybeInt) -> MaybeInt:
        return None if a is None or n is None else lshr32(a, n)

    def ashr(self, a: MaybeInt, n: MaybeInt) -> MaybeInt:
        return None if a is None or n is None else ashr32(a, n)

    def umin(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else min(a, b)

    def umax(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else max(a, b)

    def smin(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else smin32(a, b)

    def smax(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else smax32(a, b)

    # ---- binary32 -------------------------------------------------------
    def fadd(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else fadd32(a, b)

    def fmin(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else fmin32(a, b)

    def fmax(self, a: MaybeInt, b: MaybeInt) -> MaybeInt:
        return None if a is None or b is None else fmax32(a, b)

    def fis_nan(self, a: MaybeInt) -> MaybeBool:
        return None if a is None else f32_is_nan(a)

    def feq(self, a: MaybeInt, b: MaybeInt) -> MaybeBool:
        return None if a is None or b is None else feq32(a, b)

    # ---- comparisons -> conditions ------------------------------------
    def eq(self, a: MaybeInt, b: MaybeInt) -> MaybeBool:
        return None if a is None or b is None else a == b

    def ne(self, a: MaybeInt, b: MaybeInt) -> MaybeBool:
        return None if a is None or b is None else a != b

    def ult(self, a: MaybeInt, b: MaybeInt) -> MaybeBool:
        return None if a is None or b is None else a < b

    def ule(self, a: MaybeInt, b: MaybeInt) -> MaybeBool:
        return None if a is None or b is None else a <= b

    def slt(self, a: MaybeInt, b: MaybeInt) -> MaybeBool:
        return None if a is None or b is None else slt32(a, b)

    def sle(self, a: MaybeInt, b: MaybeInt) -> MaybeBool:
        return None if a is None or b is None else sle32(a, b)

    # ---- conditions ---------------------------------------------------
    def ite(self, c: MaybeBool, a: Any, b: Any) -> Any:
        if c is None:
            return a if a == b else None
        return a if c else b

    def and_b(self, *cs: MaybeBool) -> MaybeBool:
        if any(c is False for c in cs):
            return False
        return None if any(c is None for c in cs) else True

    def or_b(self, *cs: MaybeBool) -> MaybeBool:
        if any(c is True for c in cs):
            return True
        return None if any(c is None for c in cs) else False

    def any_bit(self, *ws: MaybeInt) -> MaybeBool:
        return self.or_b(*(self.ne(w, 0) for w in ws))

    def not_b(self, c: MaybeBool) -> MaybeBool:
        return None if c is None else not c

    def bit(self, a: MaybeInt, k: int) -> MaybeBool:
        return None if a is None else (a >> k) & 1 == 1

    def from_bits(self, bits: Sequence[MaybeBool]) -> MaybeInt:
        return None if any(b is None for b in bits) else bits_value([bool(b) for b in bits])

    def bool_value(self, c: MaybeBool) -> MaybeInt:
        return None if c is None else (1 if c else 0)

    def popcount(self, conds: Sequence[MaybeBool]) -> MaybeInt:
        return None if any(c is None for c in conds) else sum(1 for c in conds if c)

    # ---- lane selection -----------------------------------------------
    def select(self, vals: Sequence[Any], idx: MaybeInt) -> Any:
        return None if idx is None else vals[idx]

    def decide(self, c: MaybeBool) -> MaybeBool:
        return c

    def under(self, t: MaybeInt, c: MaybeBool) -> MaybeInt:
        return t

    def same(self, a: Any, b: Any) -> bool:
        return a is not None and type(a) is type(b) and a == b

    def fresh(self, name: str) -> MaybeInt:
        raise TypeError("the partial backend has no named unknowns (None is unknown)")


# ---------------------------------------------------------------------------
# --- half --- binary16, bfloat16 and binary32 arithmetic rounded once (fma
# included), on the bit patterns: exact rational arithmetic, then one
# rounding to nearest, ties to even, subnormals kept.  `fparith` runs it on
# Python ints and hands any other operand to the backend's own `fparith`
# (z3's floating-point sorts in verify/smt.py): one meaning, two runs, held
# together by tests/test_half_sem.py.  A NaN result is the format's quiet
# NaN (`FP_QNAN`): the payload is never compared.  [S:half-arith]

# (exponent bits, fraction bits) of each format
FP_FORMATS = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23)}
FP_QNAN = {"f16": 0x7E00, "bf16": 0x7FC0, "f32": 0x7FC00000}


def fp_decode(bits: int, fmt: str) -> tuple[str, int, Any]:
    """(kind, sign, value): kind "nan", "inf" or "num" (value a Fraction,
    0 for both zeros)."""
    e, f = FP_FORMATS[fmt]
    sign = (bits >> (e + f)) & 1
    ex = (bits >> f) & ((1 << e) - 1)
    fr = bits & ((1 << f) - 1)
    bias = (1 << (e - 1)) - 1
    if ex == (1 << e) - 1:
        return ("nan", sign, None) if fr else ("inf", sign, None)
    mag = Fraction(fr, 1 << f) * Fraction(2) ** (1 - bias) if ex == 0 else \
        Fraction((1 << f) + fr, 1 << f) * Fraction(2) ** (ex - bias)
    return "num", sign, -mag if sign else mag


def fp_encode(x: Any, fmt: str, zero_sign: int = 0) -> int:
    """The rational x rounded to `fmt` (nearest, ties to even; overflow to
    an infinity; an exact zero gets `zero_sign`)."""
    e, f = FP_FORMATS[fmt]
    bias = (1 << (e - 1)) - 1
    top = e + f
    if x == 0:
        return zero_sign << top
    sign = 1 if x < 0 else 0
    m = Fraction(abs(x))
    ex = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** ex > m:
        ex -= 1
    ex = max(ex, 1 - bias)  # subnormals: the smallest normal exponent's grid
    q = m / Fraction(2) ** (ex - f)  # units of the last place
    n = q.numerator // q.denominator
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1):
        n += 1
    if n >> (f + 1):  # rounded up to the next binade
        n >>= 1
        ex += 1
    if n >> f == 0:  # subnormal (or zero after rounding: impossible for x != 0 rounded to nearest... kept general)
        bits = n
    else:
        if ex + bias >= (1 << e) - 1:
            return (sign << top) | (((1 << e) - 1) << f)
        bits = ((ex + bias) << f) | (n & ((1 << f) - 1))
    return (sign << top) | bits


def fp_exact(op: str, fmt: str, xs: Sequence[int]) -> int:
    """op in "add", "mul", "fma" (xs[0] * xs[1] + xs[2], one rounding) or
    "cvt:<fmt>" (xs[0] of format <fmt> converted to `fmt`)."""
    src = op[4:] if op.startswith("cvt:") else fmt
    ds = [fp_decode(x, src) for x in xs]
    if any(k == "nan" for k, _, _ in ds):
        return FP_QNAN[fmt]
    e, f = FP_FORMATS[fmt]
    inf = ((1 << e) - 1) << f
    top = e + f

    def infinity(s: int) -> int:
        return (s << top) | inf

    if op.startswith("cvt:"):
        k, s, v = ds[0]
        return infinity(s) if k == "inf" else fp_encode(v, fmt, s)
    if op == "add":
        (ka, sa, a), (kb, sb, b) = ds
        if ka == "inf" or kb == "inf":
            if ka == kb == "inf" and sa != sb:
                return FP_QNAN[fmt]
            return infinity(sa if ka == "inf" else sb)
        return fp_encode(a + b, fmt, sa & sb)
    (ka, sa, a), (kb, sb, b) = ds[:2]
    ps = sa ^ sb
    if ka == "inf" or kb == "inf":
        if (ka == "num" and a == 0) or (kb == "num" and b == 0):
            return FP_QNAN[fmt]
        if op == "mul":
            return infinity(ps)
        kc, sc, _ = ds[2]
        return FP_QNAN[fmt] if kc == "inf" and sc != ps else infinity(ps)
    if op == "mul":
        return fp_encode(a * b, fmt, ps)
    kc, sc, c = ds[2]
    if kc == "inf":
        return infinity(sc)
    p = a * b
    return fp_encode(p + c, fmt, ps & sc if p == 0 and c == 0 else 0)


def fparith(B: Any, op: str, fmt: str, *xs: Any) -> Any:
    """One rounded IEEE operation (see fp_exact) on any backend: Python
    ints here, unknowns (None) stay unknown, terms through the backend's
    own fparith.  Values are zero-extended bit patterns in 32-bit lanes."""
    if all(type(x) is int for x in xs):
        src = op[4:] if op.startswith("cvt:") else fmt
        width = sum(FP_FORMATS[src]) + 1
        return fp_exact(op, fmt, [x & ((1 << width) - 1) for x in xs])
    if any(x is None for x in xs):
        return None
    fn = getattr(B, "fparith", None)
    if fn is None:
        raise TypeError(f"{type(B).__name__} has no {fmt} arithmetic")
    return fn(op, fmt, *xs)
