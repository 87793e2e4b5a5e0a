"""The binary16 / bfloat16 / fused-f32 semantics (verify/backend.py
`fparith`, verify/ops/vhalf.py) run concretely and symbolically agree, and
the concrete meaning agrees with independent references: Python's own
binary16 (struct "e") and binary64 arithmetic, and the bfloat16 rounding
by integer arithmetic on the binary32 bits.  [S:half-arith]"""

from __future__ import annotations

import random
import struct

import pytest
import z3

from verify import smt
from verify.backend import FP_QNAN, Concrete, f32_bits, f32_value, fp_exact, fparith
from verify.ops import vhalf as H

C = Concrete()
EDGE16 = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3BFF, 0x7BFF, 0xFBFF, 0x7C00,
          0xFC00, 0x7E00, 0x7C01, 0xFE00, 0x3800, 0x5640, 0x1400, 0x0200]
EDGE_BF = [0x0000, 0x8000, 0x0001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0,
           0x7F81, 0x4049, 0x3C00]
EDGE32 = [0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF,
          0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x33800000, 0x38800000, 0x477FE000,
          0x477FF000, 0x477FF001, 0x3F800001, 0x4B800001]


def h2f(b: int) -> float:
    return float(struct.unpack("<e", struct.pack("<H", b))[0])


def f2h(x: float) -> int:
    if x != x:
        return FP_QNAN["f16"]
    try:
        return int(struct.unpack("<H", struct.pack("<e", x))[0])
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def is_nan16(b: int) -> bool:
    return (b & 0x7FFF) > 0x7C00


def values(edge: list[int], bits: int, n: int, seed: int) -> list[int]:
    rnd = random.Random(seed)
    return edge + [rnd.getrandbits(bits) for _ in range(n)]


# ---- the concrete meaning against independent references ------------------------

def test_f16_add_mul_match_python_binary16():
    """A sum or product of two binary16 values is exact in binary64; struct
    "e" rounds it to nearest even once."""
    xs = values(EDGE16, 16, 120, 1)
    for a in xs:
        for b in xs[::3]:
            for op, ref in (("add", h2f(a) + h2f(b)), ("mul", h2f(a) * h2f(b))):
                want, got = f2h(ref), fp_exact(op, "f16", [a, b])
                assert got == want or (is_nan16(want) and got == FP_QNAN["f16"]), (op, hex(a), hex(b))


def test_f32_add_mul_match_binary64_rounded_once():
    xs = values(EDGE32, 32, 150, 2)
    for a in xs:
        for b in xs[::4]:
            fa, fb = f32_value(a), f32_value(b)
            assert fp_exact("add", "f32", [a, b]) == f32_bits(fa + fb), (hex(a), hex(b))
            assert fp_exact("mul", "f32", [a, b]) == f32_bits(fa * fb), (hex(a), hex(b))


def test_conversions_match_references():
    for a in range(0, 1 << 16, 3):  # f16 -> f32 is exact, and back again
        w = fp_exact("cvt:f16", "f32", [a])
        if is_nan16(a):
            assert w == FP_QNAN["f32"]
            continue
        assert w == f32_bits(h2f(a))
        assert fp_exact("cvt:f32", "f16", [w]) == a
    for x in values(EDGE32, 32, 3000, 3):  # f32 -> f16 as struct "e" rounds the same value
        assert fp_exact("cvt:f32", "f16", [x]) in ({FP_QNAN["f16"]} if f32_value(x) != f32_value(x)
                                                   else {f2h(f32_value(x))}), hex(x)
    for x in values(EDGE32, 32, 3000, 4):  # f32 -> bf16: the top half rounded to nearest even
        if (x & 0x7FFFFFFF) > 0x7F800000:
            assert fp_exact("cvt:f32", "bf16", [x]) == FP_QNAN["bf16"]
            continue
        want = ((x + 0x7FFF + ((x >> 16) & 1)) >> 16) & 0xFFFF
        assert fp_exact("cvt:f32", "bf16", [x]) == want, hex(x)
        assert fp_exact("cvt:bf16", "f32", [want]) == want << 16


def test_fma_rounds_once_and_mad_twice():
    """1 + 2^-23 squared: the exact product 1 + 2^-22 + 2^-46 minus
    (1 + 2^-22) is 2^-46 fused, 0 when the product is rounded first."""
    a = 0x3F800001
    c = 0xBF800002  # -(1 + 2^-22)
    assert fp_exact("fma", "f32", [a, a, c]) == 0x28800000
    assert H.mad_f32(C, a, a, c) == 0
    assert fp_exact("fma", "f32", [0x7F800000, 0, 0x3F800000]) == FP_QNAN["f32"]  # inf * 0
    assert fp_exact("fma", "f32", [0x7F800000, 0x3F800000, 0xFF800000]) == FP_QNAN["f32"]  # inf - inf
    assert fp_exact("fma", "f32", [0x80000000, 0x3F800000, 0x80000000]) == 0x80000000  # -0 + -0
    assert fp_exact("fma", "f32", [0x3F800000, 0x3F800000, 0xBF800000]) == 0  # exact cancellation: +0
    assert H.mad_f32(C, 0x3F800000, 0x00000001, 0) == 0  # a subnormal product flushed


# ---- concrete and symbolic agree ---------------------------------------------------

_Z: list[smt.Z3] = []


def _sym(fn, *xs):
    """fn run on z3 constants (the symbolic path), simplified to an int
    (one z3 context for the module: a context per call costs more than the
    question)."""
    if not _Z:
        _Z.append(smt.Z3())
    Z = _Z[0]
    args = [z3.BitVecVal(x, 32, Z.s.ctx) for x in xs]
    r = fn(Z, *args)
    if isinstance(r, bool):
        return r
    if isinstance(r, int):
        return r
    r = z3.simplify(r)
    return z3.is_true(r) if z3.is_bool(r) else r.as_long()


CASES = [("f16", EDGE16, 16), ("bf16", EDGE_BF, 16), ("f32", EDGE32, 32)]


@pytest.mark.parametrize("fmt,edge,bits", CASES)
def test_fparith_concrete_and_symbolic_agree(fmt, edge, bits):
    rnd = random.Random(5)
    xs = values(edge, bits, 12, 6)
    for _ in range(60):
        a, b, c = rnd.choice(xs), rnd.choice(xs), rnd.choice(xs)
        for op, args in (("add", (a, b)), ("mul", (a, b)), ("fma", (a, b, c))):
            want = fparith(C, op, fmt, *args)
            assert _sym(lambda B, *t, op=op: fparith(B, op, fmt, *t), *args) == want, (op, fmt, [hex(x) for x in args])
    src = {"f16": "f32", "bf16": "f32", "f32": "f16"}[fmt]
    for x in values(EDGE32 if src == "f32" else EDGE16, 32 if src == "f32" else 16, 30, 7):
        assert _sym(lambda B, t: fparith(B, f"cvt:{src}", fmt, t), x) == fparith(C, f"cvt:{src}", fmt, x)


@pytest.mark.parametrize("fmt,edge,bits", CASES[:2])
def test_lane_functions_concrete_and_symbolic_agree(fmt, edge, bits):
    xs = values(edge, bits, 2, 8)[::2]
    fns = [(p, H.fcmp(p, fmt)) for p in H.FCMP_PREDS]
    fns += [("fmin", lambda B, a, b: H.fmin(B, a, b, fmt)), ("fmax", lambda B, a, b: H.fmax(B, a, b, fmt)),
            ("min_ieee", lambda B, a, b: H.minmax_ieee(B, a, b, fmt, False, True)),
            ("max_ieee", lambda B, a, b: H.minmax_ieee(B, a, b, fmt, True, True)),
            ("minimum", lambda B, a, b: H.fminimum(B, a, b, fmt, False)),
            ("ftz", lambda B, a, b: H.ftz(B, a, fmt)), ("sub", lambda B, a, b: H.fsub(B, a, b, fmt))]
    for a in xs:
        for b in xs[::3]:
            for name, fn in fns:
                assert _sym(fn, a, b) == fn(C, a, b), (name, hex(a), hex(b))


def test_mad_f32_concrete_and_symbolic_agree():
    rnd = random.Random(9)
    for _ in range(40):
        a, b, c = (rnd.choice(EDGE32) for _ in range(3))
        assert _sym(H.mad_f32, a, b, c) == H.mad_f32(C, a, b, c), (hex(a), hex(b), hex(c))


def test_compares_and_min_max_on_f16_edges():
    nan, snan, one, mone, pz, nz = 0x7E00, 0x7C01, 0x3C00, 0xBC00, 0x0000, 0x8000
    olt, uno, ueq = H.fcmp("olt", "f16"), H.fcmp("uno", "f16"), H.fcmp("ueq", "f16")
    assert olt(C, mone, one) and not olt(C, nz, pz) and not olt(C, nan, one)
    assert uno(C, snan, one) and ueq(C, nan, one) and ueq(C, pz, nz)
    assert H.fmin(C, pz, nz, "f16") == nz and H.fmax(C, nz, pz, "f16") == pz
    assert H.fmin(C, nan, one, "f16") == one
    assert H.minmax_ieee(C, snan, one, "f16", True, True) == FP_QNAN["f16"]
    assert H.minmax_ieee(C, snan, one, "f16", True, False) == one
    assert H.fminimum(C, one, nan, "f16", False) == FP_QNAN["f16"]
