"""The symbolic backend's term rewrites that let a branch's lane mask and
the IR's condition share terms (issue 31: reduce.umax.ll `divergent_cfg`):
an unsigned compare with a constant is always `x < k` or its negation; not
not c is c; (c == True) is c; x or not x is True, x and not x False; XOR
and NOT of a lane mask are lane masks.  Each is held to the concrete
backend under random assignments, boundary constants included."""

from __future__ import annotations

import random

from verify import smt
from verify.backend import Concrete

M32 = 0xFFFFFFFF
EDGES = [0, 1, 2, 15, 16, 0x7FFFFFFF, 0x80000000, M32 - 1, M32]


def test_compares_with_a_constant_agree_with_the_concrete_backend():
    rnd = random.Random(7)
    C = Concrete()
    for c in EDGES + [rnd.randrange(1 << 32) for _ in range(6)]:
        B = smt.Z3()
        x = B.fresh("x")
        terms = {"ult(c, x)": (B.ult(c, x), lambda v, c=c: C.ult(c, v)),
                 "ult(x, c)": (B.ult(x, c), lambda v, c=c: C.ult(v, c)),
                 "ule(c, x)": (B.ule(c, x), lambda v, c=c: C.ule(c, v)),
                 "ule(x, c)": (B.ule(x, c), lambda v, c=c: C.ule(v, c))}
        for v in EDGES + [c, (c + 1) & M32, (c - 1) & M32, rnd.randrange(1 << 32)]:
            ev = smt.Evaluator({"x": v})
            for name, (t, want) in terms.items():
                assert ev(t) == want(v), (name, hex(c), hex(v))


def test_an_unsigned_compare_with_a_constant_is_one_atom_either_way_round():
    B = smt.Z3()
    x = B.fresh("x")
    assert B.same(B.not_b(B.ult(15, x)), B.ult(x, 16))  # LLVM's v_cmp_lt_u32 15, v and icmp ult %v, 16
    assert B.same(B.ule(x, 15), B.ult(x, 16))
    assert B.same(B.not_b(B.ule(16, x)), B.ult(x, 16))
    assert B.ult(M32, x) is False and B.ule(x, M32) is True and B.ule(0, x) is True


def test_boolean_rewrites():
    B = smt.Z3()
    c = B.fresh_bool("c")
    assert B.same(B.not_b(B.not_b(c)), c)
    assert B.same(B.eq(c, True), c) and B.same(B.eq(False, c), B.not_b(c))
    assert B.or_b(c, B.not_b(c)) is True and B.or_b(B.not_b(c), c) is True
    assert B.and_b(c, B.not_b(c)) is False


def test_xor_and_not_of_lane_masks_agree_with_the_concrete_backend():
    rnd = random.Random(31)
    C = Concrete()
    for _ in range(40):
        B = smt.Z3()
        xs = [B.fresh_bool(f"x{k}") for k in range(5)]

        def mask(B=B, xs=xs):
            return B.from_bits([rnd.choice([True, False] + xs + [B.not_b(x) for x in xs]) for _ in range(32)])

        a = mask()
        b = mask() if rnd.random() < 0.7 else rnd.randrange(1 << 32)
        x, n = B.xor(a, b), B.not_(a)
        assert B._lane_bits(x) is not None and B._lane_bits(n) is not None  # still lane masks
        for _ in range(4):
            ev = smt.Evaluator({f"x{k}": rnd.random() < 0.5 for k in range(5)})
            va, vb = ev(a), ev(b) if type(b) is not int else b
            assert ev(x) == C.xor(va, vb) and ev(n) == C.not_(va)


def test_umax_with_its_identity_is_the_other_operand():
    """umax(0, x) is x (kept as x, so a scan's inactive lanes add no
    compare): held to the concrete backend, and the term is x itself."""
    C = Concrete()
    B = smt.Z3()
    x = B.fresh("x")
    assert B.same(B.umax(0, x), x) and B.same(B.umax(x, 0), x)
    for v in EDGES:
        ev = smt.Evaluator({"x": v})
        assert ev(B.umax(0, x)) == C.umax(0, v) == ev(B.umax(x, 0)) == v
        assert ev(B.umax(x, 7)) == C.umax(v, 7)
