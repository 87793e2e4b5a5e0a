"""Lane-local functions (issue #35): every lane's question is lane 0's with
the lanes renamed, so verify tv asks lane 0's alone (smt.Z3.lane_local);
a question that differs, or a query that tells lanes apart, is asked as
before."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("llvmlite")

from verify import smt
from verify.target import get
from verify.tv.check import check_file
from verify.tv.compile import by_llvmlite_isolated

CORPUS = Path(__file__).parent / "tv"
FLAGS = CORPUS / "arith_flags.ll"


def test_a_lane_local_function_asks_one_question() -> None:
    (r,) = check_file(str(FLAGS), FLAGS.read_text(), ["gfx1030"], 64, [])
    assert (r.verdict, r.queries) == ("proved", 1)  # (64 lanes; before: the joint question, then one per lane)


def test_a_lane_local_refutation_keeps_its_counterexample(tmp_path: Path) -> None:
    # the GPU code shifts by one more: wrong in every lane, found by the joint question as before
    asm = tmp_path / "wrong.s"
    code = by_llvmlite_isolated(FLAGS.read_text(), get("gfx1030"), 32)
    assert "v_lshrrev_b32_e32 v0, 1, v0" in code
    asm.write_text(code.replace("v_lshrrev_b32_e32 v0, 1, v0", "v_lshrrev_b32_e32 v0, 2, v0"))
    (r,) = check_file(str(FLAGS), FLAGS.read_text(), ["gfx1030"], 32, [], asm=(str(asm), asm.read_text()))
    assert r.verdict == "refuted"
    assert r.cex is not None and bin(r.cex.exec_mask).count("1") == 1 and r.queries > 1


def test_lanes_told_apart_by_the_query_are_not_twins() -> None:
    B = smt.Z3()
    x = B.fresh_lanes("v0", 4)
    ex = B.fresh_lanes("exec", 4, cond=True)
    conds = [B.and_b(ex[i], B.ne(B.add(x[i], 1), x[i])) for i in range(4)]
    assert B.lane_local(conds, [B.or_b(*ex)])  # EXEC's any-lane fact is the same after any swap
    assert not B.lane_local(conds, [ex[0]])  # lane 0 active: lane 2 is not lane 0 renamed
    assert not B.lane_local(conds, [B.eq(x[0], B.select(x, x[1]))])  # a read at a computed lane
    other = [*conds[:3], B.and_b(ex[3], B.ne(B.add(x[3], 2), x[3]))]
    assert not B.lane_local(other, [])  # lane 3 computes something else
