"""i64 wave.reduce over values that differ per lane (issue 31: LLVM's
llvm.amdgcn.reduce.umax.ll `divergent_value_i64`, unknown at the solver's
budget before): LLVM's Iterative loop picks by `s_cselect_b64` on the SCC of
`s_and_b64 s, vcc, <lanes left>`.  That SCC is the loop's one compare once
(a) a lane's 64-bit compare reads an operand a VALU wrote under EXEC as its
new value, (b) a lane loop's iteration for bit j sees EXEC's bit j set (it
runs only there), and (c) the SCC of a 64-bit lane-mask result drops a lane
condition another lane's condition absorbs (x or (x and y) is x); the IR's
i64 min/max fold orders its pairs as the GPU's compare does.  Then the
GPU's fold is the IR's, term for term, under ite(no lane left, ...), which
the value question peels off.  One-token mutants of LLVM's loop are refuted."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from helpers import llc_asm, mutate, tv_on_asm

from verify import smt
from verify.backend import Concrete, Partial

pytest.importorskip("llvmlite")

SHAPE = Path(__file__).parent / "tv" / "llvm-shape" / "reduce64_iterative.ll"
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")


def test_any_bit_absorbs_a_lane_whose_condition_has_another_as_a_conjunct():
    B = smt.Z3Sums()
    c = B.fresh_bool("c")
    e = [B.fresh_bool(f"e{k}") for k in range(40)]
    lo = B.from_bits([False, c] + [B.and_b(B.and_b(e[k], c), e[k]) for k in range(2, 32)])
    hi = B.from_bits([B.and_b(e[k], c) for k in range(32, 40)])
    assert B.same(B.any_bit(lo, hi), c)
    # no lane's condition a conjunct of another's: the OR of them all, none dropped
    lo2 = B.from_bits([e[0], B.and_b(e[1], c)])
    got = B.any_bit(lo2, 0)
    q = smt.Query(5.0, session=B.session)
    q.add(B.not_b(B.eq(got, B.or_b(e[0], B.and_b(e[1], c)))))
    assert q.check() == "unsat"
    assert B.any_bit(lo2, 1 << 7) is True  # a constant word with a bit set


def test_any_bit_agrees_concretely_and_symbolically():
    """Backend.any_bit on the concrete backends and on z3 lane masks built
    from random conditions, compared under random assignments."""
    rnd = random.Random(31)
    C, P = Concrete(), Partial()
    for _ in range(60):
        B = smt.Z3()
        xs = [B.fresh_bool(f"x{k}") for k in range(6)]
        def cond(B=B, xs=xs):
            k = rnd.randrange(4)
            a = rnd.choice(xs)
            if k == 0:
                return rnd.choice([True, False, a])
            if k == 1:
                return B.and_b(a, rnd.choice(xs))
            if k == 2:
                return B.and_b(B.and_b(a, rnd.choice(xs)), a)
            return B.or_b(a, rnd.choice(xs))
        words = [B.from_bits([cond() for _ in range(32)]) if rnd.random() < 0.8 else rnd.choice([0, 1 << 9])
                 for _ in range(rnd.choice([1, 2]))]
        got = B.any_bit(*words)
        for _ in range(4):
            env = [rnd.random() < 0.3 for _ in xs]
            ev = smt.Evaluator({f"x{k}": v for k, v in enumerate(env)})
            vals = [ev(w) for w in words]
            assert ev(got) == C.any_bit(*vals) == P.any_bit(*vals)


def test_none_of_a_chain_of_selects_sharing_subterms_is_linear():
    """Z3Sums's `x == 0` through selects walks each shared subterm once: a
    64-deep chain (a lane loop's fold), whose tree has 2**64 paths, is
    answered (it hung before, exponentially)."""
    B = smt.Z3Sums()
    acc = B.fresh("a")
    for k in range(64):
        g = B.fresh_bool(f"g{k}")
        acc = B.ite(g, B.ite(B.ult(acc, B.fresh(f"x{k}")), B.fresh(f"x{k}"), acc), acc)
    calls = 0
    walk = B._none_of_walk

    def counted(a, memo):
        nonlocal calls
        calls += 1
        return walk(a, memo)

    B._none_of_walk = counted
    B.eq(acc, 0)
    assert 0 < calls <= 3 * 64 + 2


def test_peel_takes_off_the_selects_whose_other_branch_is_the_ir_value():
    from verify.tv.kernel import _peel

    B = smt.Z3()
    x, y, z = B.fresh("x"), B.fresh("y"), B.fresh("z")
    c, d = B.fresh_bool("c"), B.fresh_bool("d")
    where, rest = _peel(B, x, B.ite(c, B.ite(d, x, z), x))
    assert B.same(rest, z)
    q = smt.Query(5.0, session=B.session)
    q.add(B.not_b(B.eq(where, B.and_b(c, B.not_b(d)))))
    assert q.check() == "unsat"
    where, rest = _peel(B, x, B.ite(c, y, z))  # no branch is x: nothing peeled
    assert where is True and B.same(rest, B.ite(c, y, z))


@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("fn, cpu, flags", [
    ("umax_i64", "gfx900", ()),
    ("min_i64_dpp", "gfx1010", ("-mattr=+wavefrontsize32",)),
])
def test_llvm_i64_iterative_reduce_is_proved_and_its_mutants_refuted(tmp_path, fn, cpu, flags):
    asm = llc_asm(SHAPE, cpu, *flags)
    wave = "32" if flags else "64"
    code, r = tv_on_asm(tmp_path, SHAPE, asm, cpu, "--function", fn, "--wave", wave)
    assert (code, r["verdict"]) == (0, "proved"), r
    body = asm[asm.index(f"\n{fn}:"):]
    cmp = next(w for w in ("v_cmp_gt_u64_e32", "v_cmp_lt_i64_e32") if w in body[:body.index("s_setpc_b64")])
    flipped = cmp.replace("_gt_", "_lt_") if "_gt_" in cmp else cmp.replace("_lt_", "_gt_")
    # the compare the wrong way round: the other end of the order
    code, r = tv_on_asm(tmp_path, SHAPE, mutate(asm, cmp, flipped, fn), cpu, "--function", fn, "--wave", wave)
    assert (code, r["verdict"]) == (1, "refuted"), r
    # the high word read from the low half's register
    line = next(x for x in body.splitlines() if x.strip().startswith("v_readlane_b32") and ", v3," in x)
    code, r = tv_on_asm(tmp_path, SHAPE, mutate(asm, line, line.replace(", v3,", ", v2,"), fn), cpu,
                        "--function", fn, "--wave", wave)
    assert (code, r["verdict"]) == (1, "refuted"), r
