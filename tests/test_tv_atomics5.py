"""The atomic optimizer's 64-bit product in verify tv (issue 31;
verify/tv/atomic64.py `_Terms`, [S:atomic64-mul]): a 64-bit sum X + k*Y
split into halves as v_mad_u64_u32 computes them, and the GPU's scalar
product k*(a, b) recognised, each equal to the plain 64-bit term for every
value; llc-22's add_i64_uniform with the old value's high half read from its low
one refuted (EXEC = lane 0, the product's multiplier terms in the query)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import ITERATIVE_W32, LLC, llc_asm, mutate, tv_on_asm

from verify import smt
from verify.ops.addr import mul_hi_u32
from verify.tv import atomic64
from verify.tv.sem import Memory


def _valid(B: Any, cond: Any) -> bool:
    q = smt.Query(10, session=B.session)
    q.add(B.not_b(cond))
    return q.check() == "unsat"


@pytest.mark.parametrize("k", [1, 3, 7])
def test_a_sum_x_plus_k_y_splits_into_the_halves_of_the_64_bit_term(k: int) -> None:
    """k copies of y added to x one by one (the IR's lanes), or k times y
    as the GPU's scalar product: halves as v_mad_u64_u32 computes them; for
    k = 1, a plain sum, the 64-bit term's own halves (the GPU adds it on
    halves, which the backend writes as that term's: verify/smt/terms.py);
    for every k the high half is the 64-bit term's (the backend's rewriting
    of v_mad_u64_u32's carries and products)."""
    B: Any = smt.Z3()
    A = atomic64._Terms(B, Memory(B, lambda lo, hi: 0))
    x = A.join(B.fresh("xl"), B.fresh("xh"))
    yl, yh = B.fresh("yl"), B.fresh("yh")
    y = A.join(yl, yh)
    if k < 7:
        v = x
        for _ in range(k):
            v = A.op("add", v, y)
    else:
        v = A.op("add", x, A.join(B.mul(yl, k), B.add(mul_hi_u32(B, yl, k), B.mul(yh, k))))
    assert [c for _, c in A.sums[v.get_id()][1]] == [1, k]
    lo, hi = A.split(v)
    plain = smt.wide64.halves(v)
    # (the low half in the v_mad_u64_u32 form, not an Extract; k = 1: the Extract. The high half is the
    # 64-bit term's own Extract for every k: the backend makes v_mad_u64_u32's high half one 64-bit sum,
    # terms.Z3._carried, _product64 and _widened)
    assert smt.wide64.same(lo, plain[0]) == (k == 1) and smt.wide64.same(hi, plain[1])
    assert _valid(B, B.and_b(B.eq(lo, plain[0]), B.eq(hi, plain[1])))


def test_the_gpu_s_scalar_product_is_recorded_as_k_times_the_value_and_is_it() -> None:
    B: Any = smt.Z3()
    A = atomic64._Terms(B, Memory(B, lambda lo, hi: 0))
    a, b = B.fresh("a"), B.fresh("b")
    v = A.join(B.mul(a, 6), B.add(mul_hi_u32(B, a, 6), B.mul(b, 6)))  # s_mul_i32, s_mul_hi_u32, s_mul_i32, s_add_i32
    (y, k), = A.sums[v.get_id()][1]
    assert k == 6 and smt.wide64.same(y, A.join(a, b))
    assert _valid(B, B.eq(v, smt.wide64.op("add", smt.wide64.const(B, 0), y * 6)))
    # the high half from the other operand's high product is no product of (a, b)
    w = A.join(B.mul(a, 6), B.add(mul_hi_u32(B, b, 6), B.mul(b, 6)))
    assert w.get_id() not in A.sums


KERNEL = """define amdgpu_kernel void @add_i64_uniform(ptr addrspace(1) %out, ptr addrspace(1) %inout, i64 %additive) {
entry:
  %old = atomicrmw add ptr addrspace(1) %inout, i64 %additive syncscope("agent") acq_rel
  store i64 %old, ptr addrspace(1) %out
  ret void
}
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_add_i64_uniform_with_the_old_value_s_high_half_from_its_low_one_is_refuted(tmp_path: Path) -> None:
    src = tmp_path / "k.ll"
    src.write_text(KERNEL)
    asm = mutate(llc_asm(src, "gfx1100", *ITERATIVE_W32), "v_readfirstlane_b32 s3, v1", "v_readfirstlane_b32 s3, v0")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32", "--timeout", "10")
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith("counterexample: EXEC = 0x1;") for n in r["notes"]), r["notes"]
