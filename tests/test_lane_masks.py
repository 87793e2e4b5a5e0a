"""The Z3 backend's lane masks (smt.Z3.from_bits and the operations on them):
bit by bit on the lanes' conditions, the same values as the bit-vector
operations, and questions that become Boolean over shared atoms."""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.smt import Z3, Query, skeleton_unsat

N = 6  # lanes with a condition; the other 26 bits are constant 0


def _value(B: Z3, term: object, env: dict[str, bool]) -> int:
    """`term` (an int or a z3 term over the conditions c0..) under `env`."""
    if type(term) is int:
        return term
    subs = [(z3.Bool(k, B.s.ctx), z3.BoolVal(v, B.s.ctx)) for k, v in env.items()]
    r = z3.simplify(z3.substitute(term, *subs))
    return r.as_long() if z3.is_bv_value(r) else int(z3.is_true(r))


operands = st.one_of(
    st.tuples(st.just("mask"), st.lists(st.integers(0, 2 * N), min_size=N, max_size=N)),
    st.tuples(st.just("const"), st.integers(0, 0xFFFFFFFF)),
    st.tuples(st.just("bitsel"), st.integers(0, N - 1), st.integers(0, 31)),
)


@settings(max_examples=60, deadline=None)
@given(a=operands, b=operands, op=st.sampled_from(["or", "and", "eq", "ite"]), env=st.lists(st.booleans(), min_size=N, max_size=N))
def test_mask_operations_agree_with_the_integers(a: tuple, b: tuple, op: str, env: list[bool]) -> None:
    """A lane mask, a constant or `(1 << k) if c else 0`, combined: the term's
    value under any assignment of the conditions is the integer operation's."""
    B = Z3()
    conds = [B.fresh_bool(f"c{i}") for i in range(N)]
    assign = {f"c{i}": env[i] for i in range(N)}

    def build(o: tuple) -> tuple[object, int]:
        if o[0] == "const":
            return o[1], o[1]
        if o[0] == "bitsel":
            _, i, k = o
            return B.ite(conds[i], B.const(1 << k), B.const(0)), (1 << k) if env[i] else 0
        # a mask whose lane k holds a condition, its negation or a constant
        bits: list[object] = []
        for k, sel in enumerate(o[1]):
            bits.append(conds[sel] if sel < N else B.not_b(conds[sel - N]) if sel < 2 * N else k % 2 == 0)
        val = sum(1 << k for k, sel in enumerate(o[1]) if (env[sel] if sel < N else not env[sel - N] if sel < 2 * N else k % 2 == 0))
        return B.from_bits(bits), val

    (ta, va), (tb, vb) = build(a), build(b)
    if op == "or":
        got, want = B.or_(ta, tb), va | vb
    elif op == "and":
        got, want = B.and_(ta, tb), va & vb
    elif op == "eq":
        got, want = B.eq(ta, tb), int(va == vb)
    else:
        got, want = B.ite(conds[0], ta, tb), va if env[0] else vb
    assert _value(B, got if type(got) is not bool else int(got), assign) == want


def test_an_operation_on_lane_masks_is_a_lane_mask() -> None:
    """or/and/select of lane masks keep the lanes' conditions (bit k is the
    k-th condition combined), and equality is the lanes' agreement."""
    B = Z3()
    e = [B.fresh_bool(f"e{i}") for i in range(4)]
    p = [B.fresh_bool(f"p{i}") for i in range(4)]
    em, pm = B.from_bits(e), B.from_bits(p)
    both = B.and_(em, pm)
    assert B.bit(both, 2).eq(B.and_b(e[2], p[2]))
    sel = B.ite(p[0], em, 0)  # s_cselect_b32 s8, exec_lo, 0
    assert B.bit(sel, 1).eq(B.and_b(p[0], e[1]))
    # a fold of `(1 << j) if e[j] else 0` (a spec's ballot) is EXEC's very mask
    acc: object = 0
    for j in range(4):
        acc = B.or_(acc, B.ite(e[j], B.const(1 << j), B.const(0)))
    assert B.eq(acc, em) is True or z3.is_true(z3.simplify(B.eq(acc, em)))
    assert B.eq(B.from_bits(e), B.from_bits(e)) is True


def test_a_compare_mask_against_exec_is_settled_by_the_skeleton() -> None:
    """__all_sync / __match_all_sync: the lanes' compare mask equals EXEC
    (s_cmp_eq_u32 of a v_cmp result and exec_lo) iff every active lane's
    compare holds (the spec's all): Boolean over the shared atoms; the
    skeleton proves it, and does not claim a mask shifted by one lane."""
    B = Z3()
    xs = B.fresh_lanes("x", 32)
    f = B.fresh("f")
    e = [B.fresh_bool(f"e{i}") for i in range(32)]
    hits = [B.and_b(e[i], B.eq(f, xs[i])) for i in range(32)]
    impl = B.ite(B.eq(B.from_bits(hits), B.from_bits(e)), B.const(1), B.const(0))
    spec = B.ite(B.and_b(*[B.or_b(B.not_b(e[i]), B.eq(xs[i], f)) for i in range(32)]), B.const(1), B.const(0))
    assert skeleton_unsat(B.ne(impl, spec), 1_000_000)
    shifted = B.ite(B.eq(B.from_bits(hits[1:] + [False]), B.from_bits(e)), B.const(1), B.const(0))
    assert not skeleton_unsat(B.ne(shifted, spec), 1_000_000)
    q = Query(10.0)
    q.add(B.ne(shifted, spec))
    assert q.check() == "sat"


def test_the_skeleton_splits_concatenated_masks_bit_by_bit() -> None:
    """Two concatenations of 1-bit selects (masks made in two backends, so no
    shared bookkeeping) compare lane by lane in the skeleton."""
    B = Z3()
    e = [B.fresh_bool(f"e{i}") for i in range(32)]
    one, zero = z3.BitVecVal(1, 1, B.s.ctx), z3.BitVecVal(0, 1, B.s.ctx)
    a = z3.Concat(*[z3.If(c, one, zero) for c in reversed(e)])
    b = z3.Concat(*[z3.If(z3.Not(z3.Not(c)), one, zero) for c in reversed(e)])
    assert skeleton_unsat(a != b, 1_000_000)
    assert not skeleton_unsat(a != z3.Concat(*[z3.If(c, one, zero) for c in e]), 1_000_000)


def test_equality_is_one_term_either_way_unless_turned_off() -> None:
    """x == y and y == x are one term (the skeleton meets the v_cmp's and the
    spec's compare as one atom); verify.tv's kernel backend keeps the order
    it is given (canon_eq=False: the atomic optimizer's questions ran out of
    time with one order)."""
    B = Z3()
    x, y = B.fresh("x"), B.fresh("y")
    assert B.eq(x, y).eq(B.eq(y, x))
    K = Z3(canon_eq=False)
    a, b = K.fresh("a"), K.fresh("b")
    assert not K.eq(a, b).eq(K.eq(b, a))
