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
from verify.ops.addr import add_carry
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
