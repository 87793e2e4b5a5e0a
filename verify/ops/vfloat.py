"""binary32 VALU ops beyond add/min/max: the ordering compares
(v_cmp_lt_f32 ... v_cmp_tru_f32), GFX12's v_min_num_f32/v_max_num_f32,
rounding to an integral value (v_ceil/v_floor/v_trunc/v_rndne_f32) and the
int<->float conversions (v_cvt_f32_i32/u32, v_cvt_i32/u32_f32).

Every lane function is written once here on the backend protocol with
integer operations on the binary32 bit pattern, so it runs concretely and
symbolically; verify tv's IR semantics (verify/tv/floatsem.py) uses the
same functions for the LLVM operations with the same IEEE-754 meaning.
[S:f32-order] [S:f32-round] [S:f32-cvt] [S:min-num]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..backend import Backend, Cond, Value
from . import valu
from .base import AnyEmitter, LaneFn, register
from .valu import CmpF32, Valu, ValuF32, _ftz

if TYPE_CHECKING:
    from ..ir import Instr
    from ..machine import Machine

SIGN, MAG, EXP, QNAN = 0x80000000, 0x7FFFFFFF, 0x7F800000, 0x7FC00000
ONE = 0x3F800000


# ---- classification and order ------------------------------------------------

def is_nan(B: Backend, a: Value) -> Cond:
    """Exponent all ones and a nonzero fraction.  [S:f32]"""
    return B.ult(B.const(EXP), B.and_(a, B.const(MAG)))


def is_snan(B: Backend, a: Value) -> Cond:
    """A signaling NaN: a NaN whose quiet bit (bit 22) is clear.  [S:f32-order]"""
    return B.and_b(is_nan(B, a), B.not_b(B.bit(a, 22)))


def order_key(B: Backend, a: Value) -> Value:
    """An unsigned key in IEEE order for non-NaN values, -0.0 just below
    +0.0: a negative value's bits inverted, a positive one's sign bit set.

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [hex(order_key(C, x)) for x in (0xBF800000, 0x80000000, 0x0, 0x3F800000)]
    ['0x407fffff', '0x7fffffff', '0x80000000', '0xbf800000']
    """
    return B.ite(B.bit(a, 31), B.not_(a), B.or_(a, B.const(SIGN)))


def ordered(B: Backend, a: Value, b: Value) -> Cond:
    return B.and_b(B.not_b(is_nan(B, a)), B.not_b(is_nan(B, b)))


def same(B: Backend, a: Value, b: Value) -> Cond:
    """Equal as numbers when neither is NaN: the same bits, or +0.0 and -0.0."""
    return B.or_b(B.eq(a, b), B.eq(B.and_(B.or_(a, b), B.const(MAG)), B.const(0)))


def olt(B: Backend, a: Value, b: Value) -> Cond:
    """a < b as IEEE numbers (false on a NaN; -0.0 < +0.0 is false).  [S:f32-order]"""
    return B.and_b(ordered(B, a, b), B.not_b(same(B, a, b)), B.ult(order_key(B, a), order_key(B, b)))


def ole(B: Backend, a: Value, b: Value) -> Cond:
    return B.and_b(ordered(B, a, b), B.or_b(same(B, a, b), B.ult(order_key(B, a), order_key(B, b))))


def oeq(B: Backend, a: Value, b: Value) -> Cond:
    return B.and_b(ordered(B, a, b), same(B, a, b))


# the sixteen IEEE predicates, as LLVM's fcmp names them: o* false on a NaN, u* true  [S:f32-order]
FCMP: dict[str, LaneFn] = {
    "false": lambda B, a, b: False,
    "oeq": oeq,
    "ogt": lambda B, a, b: olt(B, b, a),
    "oge": lambda B, a, b: ole(B, b, a),
    "olt": olt,
    "ole": ole,
    "one": lambda B, a, b: B.and_b(ordered(B, a, b), B.not_b(same(B, a, b))),
    "ord": ordered,
    "ueq": lambda B, a, b: B.not_b(B.and_b(ordered(B, a, b), B.not_b(same(B, a, b)))),
    "ugt": lambda B, a, b: B.not_b(ole(B, a, b)),
    "uge": lambda B, a, b: B.not_b(olt(B, a, b)),
    "ult": lambda B, a, b: B.not_b(ole(B, b, a)),
    "ule": lambda B, a, b: B.not_b(olt(B, b, a)),
    "une": lambda B, a, b: B.not_b(oeq(B, a, b)),
    "uno": lambda B, a, b: B.not_b(ordered(B, a, b)),
    "true": lambda B, a, b: True,
}

# the VOPC f32 compares by their ISA names (v_cmp_<op>_f32), the ones verify/ops/valu.py lacks  [S:vopc-f32]
VOPC_NAMES = {"f": "false", "lt": "olt", "gt": "ogt", "le": "ole", "ge": "oge",
              "nge": "ult", "ngt": "ule", "nle": "ugt", "nlt": "uge", "tru": "true"}


# ---- min/max -----------------------------------------------------------------

def fmin_num(B: Backend, a: Value, b: Value, ieee: bool) -> Value:
    """v_min_num_f32 (IEEE-754-2019 minimumNumber, -0.0 < +0.0): a NaN
    operand gives the other; in IEEE mode a signaling NaN operand gives a
    quiet NaN.  [S:min-num]"""
    r = B.fmin(a, b)
    return B.ite(B.or_b(is_snan(B, a), is_snan(B, b)), B.const(QNAN), r) if ieee else r


def fmax_num(B: Backend, a: Value, b: Value, ieee: bool) -> Value:
    r = B.fmax(a, b)
    return B.ite(B.or_b(is_snan(B, a), is_snan(B, b)), B.const(QNAN), r) if ieee else r


def fminimum(B: Backend, a: Value, b: Value) -> Value:
    """llvm.minimum: NaN if either is NaN, else the smaller, -0.0 < +0.0."""
    return B.ite(B.or_b(is_nan(B, a), is_nan(B, b)), B.const(QNAN), B.fmin(a, b))


def fmaximum(B: Backend, a: Value, b: Value) -> Value:
    return B.ite(B.or_b(is_nan(B, a), is_nan(B, b)), B.const(QNAN), B.fmax(a, b))


# ---- rounding to an integral value --------------------------------------------

def round_integral(B: Backend, a: Value, mode: str) -> Value:
    """a rounded to an integral binary32 value: mode "trunc" (toward zero),
    "floor", "ceil", "rne" (nearest, ties to even).  Exact on the bit
    pattern: exponents >= 150 (|a| >= 2**23, infinities, NaN) are already
    integral and returned as they are; below 127 (|a| < 1) the result is a
    signed zero or +-1.0; between, the fraction bits below the binary point
    are cleared and one unit at the point is added where the mode rounds the
    magnitude up (a carry into the exponent is the next power of two).
    [S:f32-round]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> from verify.backend import f32_bits as b, f32_value as v
    >>> [v(round_integral(C, b(x), m)) for x, m in ((-1.5, "ceil"), (-1.5, "floor"), (2.5, "rne"), (3.5, "rne"), (-0.7, "trunc"))]
    [-1.0, -2.0, 2.0, 4.0, -0.0]
    >>> [hex(round_integral(C, b(x), m)) for x, m in ((-0.25, "ceil"), (0.25, "floor"), (-0.25, "floor"), (0.5, "rne"), (0.75, "rne"))]
    ['0x80000000', '0x0', '0xbf800000', '0x0', '0x3f800000']
    """
    e = B.and_(B.lshr(a, B.const(23)), B.const(0xFF))
    sign = B.and_(a, B.const(SIGN))
    mag = B.and_(a, B.const(MAG))
    nonzero = B.ne(mag, B.const(0))
    neg = B.bit(a, 31)
    if mode == "trunc":
        small = sign
    elif mode == "floor":
        small = B.ite(B.and_b(neg, nonzero), B.const(SIGN | ONE), sign)
    elif mode == "ceil":
        small = B.ite(B.and_b(B.not_b(neg), nonzero), B.const(ONE), sign)
    else:  # |a| in (0.5, 1) rounds to 1.0; 0.5 exactly to the even 0
        small = B.ite(B.ult(B.const(0x3F000000), mag), B.or_(sign, B.const(ONE)), sign)
    sh = B.sub(B.const(150), e)  # fraction bits below the point, 1..23 in the middle range
    unit = B.shl(B.const(1), B.and_(sh, B.const(31)))
    mask = B.sub(unit, B.const(1))
    frac = B.and_(a, mask)
    t = B.and_(a, B.not_(mask))
    has_frac = B.ne(frac, B.const(0))
    if mode == "trunc":
        up: Cond = False
    elif mode == "floor":
        up = B.and_b(neg, has_frac)
    elif mode == "ceil":
        up = B.and_b(B.not_b(neg), has_frac)
    else:
        half = B.lshr(unit, B.const(1))
        odd = B.ne(B.and_(t, unit), B.const(0))
        up = B.or_b(B.ult(half, frac), B.and_b(B.eq(frac, half), odd))
    mid = B.ite(up, B.add(t, unit), t)
    return B.ite(B.ult(e, B.const(127)), small, B.ite(B.ult(e, B.const(150)), mid, a))


# ---- conversions -------------------------------------------------------------

def _clz_nonzero(B: Backend, u: Value) -> tuple[Value, Value]:
    """(leading zeros of u, u shifted so its top one is bit 31); u != 0."""
    n = B.const(0)
    x = u
    for k in (16, 8, 4, 2, 1):
        top = B.ult(x, B.const(1 << (32 - k)))
        n = B.ite(top, B.add(n, B.const(k)), n)
        x = B.ite(top, B.shl(x, B.const(k)), x)
    return n, x


def u32_to_f32(B: Backend, u: Value) -> Value:
    """An unsigned 32-bit integer rounded to binary32, to nearest, ties to
    even.  [S:f32-cvt]

    >>> from verify.backend import Concrete, f32_value as v
    >>> C = Concrete()
    >>> [v(u32_to_f32(C, x)) for x in (0, 1, 7, 16777217, 16777219, 0xFFFFFFFF)]
    [0.0, 1.0, 7.0, 16777216.0, 16777220.0, 4294967296.0]
    """
    n, y = _clz_nonzero(B, u)
    mant = B.lshr(y, B.const(8))  # 24 bits, the leading one at bit 23
    rest = B.and_(y, B.const(0xFF))
    up = B.or_b(B.ult(B.const(0x80), rest), B.and_b(B.eq(rest, B.const(0x80)), B.bit(mant, 0)))
    mant = B.ite(up, B.add(mant, B.const(1)), mant)
    bits = B.add(B.shl(B.sub(B.const(157), n), B.const(23)), mant)
    return B.ite(B.eq(u, B.const(0)), B.const(0), bits)


def i32_to_f32(B: Backend, x: Value) -> Value:
    """A signed 32-bit integer rounded to binary32 (nearest even).  [S:f32-cvt]

    >>> from verify.backend import Concrete, f32_value as v
    >>> C = Concrete()
    >>> [v(i32_to_f32(C, C.const(x))) for x in (-1, -16777217, -2**31)]
    [-1.0, -16777216.0, -2147483648.0]
    """
    neg = B.bit(x, 31)
    u = B.ite(neg, B.sub(B.const(0), x), x)
    return B.or_(u32_to_f32(B, u), B.ite(neg, B.const(SIGN), B.const(0)))


def f32_trunc_mag(B: Backend, a: Value) -> Value:
    """The magnitude of a rounded toward zero, as an unsigned integer, for
    exponents below 159 (|a| < 2**32); the caller handles larger ones."""
    e = B.and_(B.lshr(a, B.const(23)), B.const(0xFF))
    m = B.or_(B.and_(a, B.const(0x7FFFFF)), B.const(0x800000))
    left = B.shl(m, B.and_(B.sub(e, B.const(150)), B.const(31)))
    right = B.lshr(m, B.and_(B.sub(B.const(150), e), B.const(31)))
    return B.ite(B.ult(e, B.const(127)), B.const(0), B.ite(B.ult(e, B.const(150)), right, left))


def f32_fits_i32(B: Backend, a: Value) -> Cond:
    """a rounded toward zero is in [-2**31, 2**31) (false for NaN and the infinities)."""
    e = B.and_(B.lshr(a, B.const(23)), B.const(0xFF))
    return B.or_b(B.ult(e, B.const(158)), B.eq(a, B.const(0xCF000000)))


def f32_fits_u32(B: Backend, a: Value) -> Cond:
    """a rounded toward zero is in [0, 2**32): below 2**32, and a negative a above -1.0."""
    e = B.and_(B.lshr(a, B.const(23)), B.const(0xFF))
    return B.ite(B.bit(a, 31), B.ult(e, B.const(127)), B.ult(e, B.const(159)))


def f32_to_i32(B: Backend, a: Value) -> Value:
    """v_cvt_i32_f32: rounded toward zero; out of range saturates to the
    nearest of INT_MIN/INT_MAX, NaN gives 0.  [S:f32-cvt]

    >>> from verify.backend import Concrete, f32_bits as b
    >>> C = Concrete()
    >>> [hex(f32_to_i32(C, b(x))) for x in (-2.7, 3.9, 3e9, -3e9, float("nan"))]
    ['0xfffffffe', '0x3', '0x7fffffff', '0x80000000', '0x0']
    """
    neg = B.bit(a, 31)
    u = f32_trunc_mag(B, a)
    v = B.ite(neg, B.sub(B.const(0), u), u)
    sat = B.ite(neg, B.const(SIGN), B.const(MAG))
    return B.ite(is_nan(B, a), B.const(0), B.ite(f32_fits_i32(B, a), v, sat))


def f32_to_u32(B: Backend, a: Value) -> Value:
    """v_cvt_u32_f32: rounded toward zero; negative values give 0, values
    of 2**32 and above 0xffffffff, NaN 0.  [S:f32-cvt]

    >>> from verify.backend import Concrete, f32_bits as b
    >>> C = Concrete()
    >>> [hex(f32_to_u32(C, b(x))) for x in (-2.7, 3.9, 5e9, float("nan"))]
    ['0x0', '0x3', '0xffffffff', '0x0']
    """
    neg = B.bit(a, 31)
    u = f32_trunc_mag(B, a)
    return B.ite(is_nan(B, a), B.const(0), B.ite(neg, B.const(0), B.ite(f32_fits_u32(B, a), u, B.const(0xFFFFFFFF))))


# ---- the ops -----------------------------------------------------------------

class ValuF32Unary(Valu):
    """A one-source f32 op (VOP1, DPP where LLVM combines it): subnormal
    inputs flushed first under f32.denormals=flush.  [S:f32-round] [S:f32-cvt]"""

    def __init__(self, base: str, fn: LaneFn, float_in: bool = True):
        super().__init__(base, 1, fn)
        self.float_in = float_in

    def lane_fn(self, ins: Instr, m: Machine | None = None) -> LaneFn:
        fn = self.fn
        assert fn is not None
        if self.float_in and m is not None and m.assume("f32.denormals") == "flush":
            return lambda B, a: fn(B, _ftz(B, a))
        return fn

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


class MinMaxNum(ValuF32):
    """v_min_num_f32 / v_max_num_f32 (GFX12): minimumNumber/maximumNumber,
    a signaling NaN operand quieted in IEEE mode (the default, as LLVM
    compiles compute code; assumption f32.ieee_mode).  [S:min-num]"""

    def __init__(self, base: str, op: str):
        super().__init__(base, op)
        self.feature = "min_num_f32"
        self.left_identity = None  # IEEE mode quiets an sNaN operand: no NaN gives every y back bit for bit
        f = fmin_num if op == "fmin" else fmax_num
        self.num = f

    def lane_fn(self, ins: Instr, m: Machine | None = None) -> LaneFn:
        ieee = m is None or m.assume("f32.ieee_mode") == "on"
        f = self.num
        flush = m is not None and m.assume("f32.denormals") == "flush"

        def fn(B: Backend, a: Value, b: Value) -> Value:
            if flush:
                return _ftz(B, f(B, _ftz(B, a), _ftz(B, b), ieee))
            return f(B, a, b, ieee)

        return self.clamped(self.modified(fn, ins, m), ins, m)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


class MinimumF32(ValuF32):
    """v_minimum_f32 / v_maximum_f32 (GFX12, VOP3 only, VOP3 DPP):
    IEEE-754-2019 minimum/maximum, a NaN operand gives a NaN, -0.0 < +0.0.
    [S:min-num]"""

    def __init__(self, base: str, op: str):
        super().__init__(base, op)
        self.feature = "min_num_f32"
        self.left_identity = None  # a NaN operand gives a NaN: no identity for a NaN y bit for bit
        self.vop3_only = True
        self.encs = {"": "e64", "_e64": "e64", "_e64_dpp": "e64_dpp"}
        self.fmm = fminimum if op == "fmin" else fmaximum

    def lane_fn(self, ins: Instr, m: Machine | None = None) -> LaneFn:
        f = self.fmm
        flush = m is not None and m.assume("f32.denormals") == "flush"

        def fn(B: Backend, a: Value, b: Value) -> Value:
            return _ftz(B, f(B, _ftz(B, a), _ftz(B, b))) if flush else f(B, a, b)

        return self.clamped(self.modified(fn, ins, m), ins, m)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        E.unsupported(f"{self.base} is not emitted")


FLOAT_OPS: list[Valu] = [
    MinimumF32("v_minimum_f32", "fmin"),
    MinimumF32("v_maximum_f32", "fmax"),
    MinMaxNum("v_min_num_f32", "fmin"),
    MinMaxNum("v_max_num_f32", "fmax"),
    ValuF32Unary("v_ceil_f32", lambda B, a: round_integral(B, a, "ceil")),
    ValuF32Unary("v_floor_f32", lambda B, a: round_integral(B, a, "floor")),
    ValuF32Unary("v_trunc_f32", lambda B, a: round_integral(B, a, "trunc")),
    ValuF32Unary("v_rndne_f32", lambda B, a: round_integral(B, a, "rne")),
    ValuF32Unary("v_cvt_f32_i32", i32_to_f32, float_in=False),
    ValuF32Unary("v_cvt_f32_u32", u32_to_f32, float_in=False),
    ValuF32Unary("v_cvt_i32_f32", f32_to_i32),
    ValuF32Unary("v_cvt_u32_f32", f32_to_u32),
]
for _op in FLOAT_OPS:
    register(_op)

for _name, _pred in VOPC_NAMES.items():
    valu.FCMP_OPS[_name] = FCMP[_pred]
    _cmp = CmpF32(_name)
    if _name in ("f", "tru"):
        _cmp.feature = "cmp_f32_f_tru"
    register(_cmp)
