"""breadth3: lane normal forms of masks, of operations on a select of an
EXEC bit, and `given` over chains of facts ([S:lane-normal-mask]); the
normal form agrees with the term on random terms and inputs wherever the
lane runs (and the condition given does not hold)."""

from __future__ import annotations

import random

import pytest

from verify import smt
from verify.ops import vhalf as H


def _masky(B, rnd: random.Random, xs, es, depth: int):
    """Random 32-bit terms rich in `& constant`, `|`, selects of EXEC bits
    and operations whose other operands are constants."""
    if depth <= 0 or rnd.random() < 0.15:
        return rnd.choice(xs + [B.const(rnd.choice([0x7C00, 0xFFFF, 0x7FFF, 0x8000, rnd.randrange(1 << 32)]))])
    a = _masky(B, rnd, xs, es, depth - 1)
    k = rnd.randrange(8)
    if k == 0:
        return B.and_(a, B.const(rnd.choice([0xFFFF, 0x7FFF, 0xFF, 0x200, rnd.randrange(1 << 32)])))
    if k == 1:
        return B.and_(B.const(rnd.choice([0xFFFF, 0x7FFF, 0xF0F0])), a)
    if k == 2:
        e = rnd.choice(es)
        return B.ite(rnd.choice([e, B.not_b(e)]), a, _masky(B, rnd, xs, es, depth - 1))
    if k == 3:
        return B.or_(a, _masky(B, rnd, xs, es, depth - 1))
    if k == 4:
        return B.ite(B.ult(B.const(0x7C00), a), B.const(0x7E00), _masky(B, rnd, xs, es, depth - 1))
    if k == 5:
        return B.xor(a, B.const(0x8000))
    if k == 6:
        return B.add(a, _masky(B, rnd, xs, es, depth - 1))
    if rnd.random() < 0.5:  # a 16-bit op's result with the register's high half kept
        return B.or_(B.and_(a, B.const(0xFFFF)), B.shl(_masky(B, rnd, xs, es, depth - 1), B.const(16)))
    return B.lshr(a, B.const(rnd.choice([1, 3, 16])))


@pytest.mark.parametrize("seed", range(50))
def test_mask_and_lift_normal_forms_agree_with_the_terms(seed):
    rnd = random.Random(seed)
    B = smt.Z3()
    xs = [B.fresh(f"x{k}") for k in range(3)]
    es = [B.fresh_bool(f"e{k}") for k in range(4)]
    t = _masky(B, rnd, xs, es, 7)
    norm = smt.LaneNormal(B.session, es)
    lane = rnd.randrange(4)
    node = norm.normal(t, lane)
    assert node is not None
    nt = norm.term(node)
    for _ in range(24):
        env: dict[str, int | bool] = {f"x{k}": rnd.choice([rnd.randrange(1 << 32), rnd.randrange(1 << 16), 0x7C01])
                                      for k in range(3)}
        env.update({f"e{k}": rnd.random() < 0.5 for k in range(4)})
        env[f"e{lane}"] = True
        ev = smt.Evaluator(env, B.session)
        assert ev(nt) == ev(t), (seed, env)


def test_a_mask_of_a_mask_and_a_value_that_fits():
    B = smt.Z3()
    x = B.fresh("x")
    es = [B.fresh_bool("e0")]
    norm = smt.LaneNormal(B.session, es)
    # (x & 0xffff) & 0x7fff is x & 0x7fff; a select of 16-bit values & 0xffff is the select
    assert norm.normal(B.and_(B.and_(x, B.const(0xFFFF)), B.const(0x7FFF)), 0) == \
        norm.normal(B.and_(x, B.const(0x7FFF)), 0)
    y = B.ite(B.ult(x, B.const(5)), B.and_(x, B.const(0x7FFF)), B.const(0x7C00))
    assert norm.normal(B.and_(y, B.const(0xFFFF)), 0) == norm.normal(y, 0)
    # (y | z << 16) & 0xffff is y where y fits in 16 bits
    z = B.fresh("z")
    assert norm.normal(B.and_(B.or_(y, B.shl(z, B.const(16))), B.const(0xFFFF)), 0) == norm.normal(y, 0)
    # not where a bit may be set outside the mask
    assert norm.normal(B.and_(x, B.const(0xFFFF)), 0) != norm.normal(x, 0)


def _f16_chain(B, x, es, n: int, ieee: bool):
    """n steps of v = min(v, ite(e_j, lane j's v, +inf)) over lanes 0..n,
    the GPU's (IEEE mode: a signaling NaN operand gives a quiet NaN) or the
    IR's (plain minimumNumber); the IR's poison: any operand or result NaN."""
    inf = B.const(0x7C00)
    vals = [B.and_(xi, B.const(0xFFFF)) for xi in x]
    pois = []
    for step in range(n):
        nxt = []
        for i, v in enumerate(vals):
            j = i - (1 << step)
            d = B.ite(es[j], vals[j], inf) if j >= 0 else inf
            r = H.minmax_ieee(B, v, d, "f16", False, True) if ieee else H.fmin(B, v, d, "f16")
            nxt.append(B.and_(r, B.const(0xFFFF)) if ieee else r)
            if not ieee:
                pois.append(B.or_b(H.is_nan(B, v, "f16"), H.is_nan(B, d, "f16"), H.is_nan(B, r, "f16")))
        vals = nxt
    return vals, pois


def test_given_finds_the_facts_of_a_chain_of_nnan_minimums():
    """Lane 7's value after three row shifts (1, 2, 4): the IR's poison
    (every operand and result NaN) makes the GPU's quieting of a signaling
    NaN dead at every level, each level's fact found from the one below's
    (rounds walking the first form again, each node's form without its own
    fact)."""
    B = smt.Z3()
    W = 8
    x = B.fresh_lanes("x", W)
    es = B.fresh_lanes("exec", W, cond=True)
    gpu, _ = _f16_chain(B, x, es, 3, True)
    ir, pois = _f16_chain(B, x, es, 3, False)
    lane = 7
    norm = smt.LaneNormal(B.session, es)
    assert norm.normal(gpu[lane], lane) != norm.normal(ir[lane], lane)
    given = smt.LaneNormal(B.session, es)
    assert given.given(B.or_b(*pois), lane)
    assert given.normal(gpu[lane], lane) == given.normal(ir[lane], lane)
    # a single round does not reach the first level's facts
    one = smt.LaneNormal(B.session, es)
    assert one.given(B.or_b(*pois), lane, rounds=1)
    assert one.normal(gpu[lane], lane) != one.normal(ir[lane], lane)
