"""The symbolic backend's 64-bit carry rewrite (verify/smt/terms.py,
`Z3._carried`): the high half of an add or subtract written on 32-bit halves
is made the high half of one 64-bit term, so that two orders of the same
64-bit adds are one term (issue 31: the atomic optimizer's i64 add and sub,
prefix sum plus old value, against the IR's lane-by-lane atomic).  Held to
the concrete backend on random chains of both shapes, boundary values
included; and the two orders are shown to be one term."""

from __future__ import annotations

import random

import z3

from verify import smt
from verify.backend import Concrete
from verify.ops.addr import add_carry, mul_hi_u32
from verify.tv.wideir import add64, sub64

M32 = 0xFFFFFFFF
EDGES = [0, 1, 2, 0x3FF, 0x7FFFFFFF, 0x80000000, M32 - 1, M32]


def gpu_add(B, a, b):
    """s_add_u32 then s_addc_u32 (carry as SCC: r < x)."""
    lo = B.add(a[0], b[0])
    hi, _ = add_carry(B, a[1], b[1], B.ult(lo, a[0]))
    return lo, hi


def gpu_sub(B, a, b):
    """v_sub_co_u32 then v_sub_co_ci_u32 (the borrow: a.lo < b.lo)."""
    return B.sub(a[0], b[0]), B.sub(B.sub(a[1], b[1]), B.ite(B.ult(a[0], b[0]), 1, 0))


def chain(B, xs, picks):
    acc = xs[0]
    for x, shape in zip(xs[1:], picks):
        acc = shape(B, acc, x)
    return acc


def test_chains_of_64_bit_adds_and_subtracts_agree_with_the_concrete_backend():
    rnd = random.Random(64)
    C = Concrete()
    for trial in range(80):
        B = smt.Z3()
        n = rnd.randrange(2, 6)
        names = [(f"l{k}", f"h{k}") for k in range(n)]
        xs = []
        for lo, hi in names:  # free halves, some a constant or a zero high half
            r = rnd.random()
            xs.append((B.fresh(lo), B.fresh(hi)) if r < 0.5 else (B.fresh(lo), 0) if r < 0.8 else
                      (rnd.choice(EDGES), B.fresh(hi)))
        shapes = [gpu_add, add64, gpu_sub, sub64] if trial % 2 else [gpu_add, add64]
        picks = [rnd.choice(shapes) for _ in range(n - 1)]
        sym = chain(B, xs, picks)
        assert type(sym[1]) is int or not z3.is_app_of(sym[1], z3.Z3_OP_ITE)  # rewritten, not a carry select
        for _ in range(8):
            env = {nm: rnd.choice(EDGES + [rnd.randrange(1 << 32)]) for pair in names for nm in pair}
            ev = smt.Evaluator(env)
            conc = chain(C, [(ev(lo), ev(hi)) for lo, hi in xs], picks)
            assert (ev(sym[0]), ev(sym[1])) == conc, (trial, env)


def test_the_two_orders_of_one_sum_are_one_term():
    """old + (t0 + t1 + t2) as the atomic optimizer computes it (a prefix
    sum, then one add) and ((old + t0) + t1) + t2 as the IR's lanes do: the
    high halves are one term after z3's rewriting, the low halves too."""
    B = smt.Z3()
    old = (B.fresh("ol"), B.fresh("oh"))
    ts = [(B.and_(B.fresh(f"t{k}"), 0x3FF), 0) for k in range(3)]
    pre = (0, 0)
    for t in ts:
        pre = gpu_add(B, pre, t)
    gpu = gpu_add(B, old, pre)
    ir = old
    for t in ts:
        ir = add64(B, ir, t)
    for g, i in zip(gpu, ir):
        assert z3.simplify(g).eq(z3.simplify(i)), (g, i)
    # and the subtracts: old - (t0 + t1) against (old - t0) - t1
    gsub = gpu_sub(B, old, gpu_add(B, gpu_add(B, (0, 0), ts[0]), ts[1]))
    isub = sub64(B, sub64(B, old, ts[0]), ts[1])
    assert z3.simplify(gsub[1]).eq(z3.simplify(isub[1]))


# ---- products: the atomic optimizer's 64-bit value times a lane count -------


def gpu_mad(B, y, k, add=(0, 0)):
    """v_mad_u64_u32 v[2:3], y.lo, k, add; v_mad_u64_u32 v[5:6], y.hi, k, v[3:4]:
    the halves (v2, v5) of y * k + add (as ops.addr.MadU64 computes a lane)."""
    lo, c1 = add_carry(B, B.mul(y[0], k), add[0])
    mid, _ = add_carry(B, mul_hi_u32(B, y[0], k), add[1], c1)
    hi, _ = add_carry(B, B.mul(y[1], k), mid)
    return lo, hi


def salu_mul(B, y, k):
    """s_mul_i32 lo; s_mul_hi_u32 t; s_mul_i32 u; s_add_i32 hi, t, u."""
    return B.mul(y[0], k), B.add(mul_hi_u32(B, y[0], k), B.mul(y[1], k))


def test_the_symbolic_high_product_is_the_16_bit_formula():
    """Z3.mul_hi (one 64-bit product term) against ops.addr's 16-bit-halves
    formula on the concrete backend, edge and random values."""
    rnd = random.Random(32)
    B, C = smt.Z3(), Concrete()
    a, b = B.fresh("a"), B.fresh("b")
    sym, by_const = mul_hi_u32(B, a, b), mul_hi_u32(B, a, 7)
    assert sym is not None and not z3.is_app_of(sym, z3.Z3_OP_BADD)  # (the backend's term, not the formula's)
    for _ in range(200):
        x, y = rnd.choice(EDGES + [rnd.randrange(1 << 32)]), rnd.choice(EDGES + [rnd.randrange(1 << 32)])
        ev = smt.Evaluator({"a": x, "b": y})
        assert ev(sym) == mul_hi_u32(C, x, y) == (x * y) >> 32
        assert ev(by_const) == mul_hi_u32(C, x, 7)
    assert mul_hi_u32(B, 0xFFFFFFFF, 0xFFFFFFFF) == 0xFFFFFFFE


def test_products_on_halves_agree_with_the_concrete_backend():
    """old - y * k with the product as v_mad_u64_u32 or the SALU compute it
    (k a constant, a free value, or 0/1), and old + (r << 32) + a * b where
    the high addend r is no product: the rewritten halves (Z3.pair64 ->
    _product64) evaluate as the concrete backend's."""
    rnd = random.Random(65)
    C = Concrete()
    for trial in range(60):
        B = smt.Z3()
        old = (B.fresh("ol"), B.fresh("oh"))
        y = (B.fresh("yl"), B.fresh("yh"))
        k = rnd.choice([0, 1, 2, 7, 31, 0x10001, M32]) if trial % 3 else B.fresh("k")
        shape = rnd.choice([gpu_mad, salu_mul])
        r = B.fresh("r")
        def build(B, old, y, k, r, shape=shape, trial=trial):
            if trial % 5 == 4:  # (the per-lane form: v_mad_u64_u32's pair adds old itself; Z3._widened)
                return gpu_mad(B, y, k, old)
            prod = shape(B, y, k)
            if trial % 4 == 3:  # (a high addend that is no product)
                prod = (B.mul(y[0], k), B.add(mul_hi_u32(B, y[0], k), r))
            return gpu_sub(B, old, prod) if trial % 2 else gpu_add(B, old, prod)
        sym = build(B, old, y, k, r)
        for _ in range(8):
            env = {nm: rnd.choice(EDGES + [rnd.randrange(1 << 32)]) for nm in ("ol", "oh", "yl", "yh", "k", "r")}
            ev = smt.Evaluator(env)
            conc = build(C, (env["ol"], env["oh"]), (env["yl"], env["yh"]), ev(k), env["r"])
            assert (ev(sym[0]), ev(sym[1])) == conc, (trial, env)


def test_a_product_on_halves_is_the_irs_64_bit_product():
    """The atomic optimizer's old - y * 5 (v_mad_u64_u32 pair, then a 64-bit
    subtract on halves) and the IR's (((old - y) - y) ...) five times: one
    term, the high half and the low half."""
    B = smt.Z3()
    old = (B.fresh("ol"), B.fresh("oh"))
    y = (B.fresh("yl"), B.fresh("yh"))
    for shape in (gpu_mad, salu_mul):
        gpu = gpu_sub(B, old, shape(B, y, 5))
        ir = old
        for _ in range(5):
            ir = sub64(B, ir, y)
        assert z3.simplify(gpu[1]).eq(z3.simplify(ir[1])), shape
    # each lane's old + y * 3 as the atomic optimizer computes it (v_mad_u64_u32 y.lo, 3, old; then y.hi, 3
    # into the high half) against the IR's three adds
    gpu = gpu_mad(B, y, 3, old)
    ir = add64(B, add64(B, add64(B, old, y), y), y)
    assert z3.simplify(gpu[1]).eq(z3.simplify(ir[1]))
