"""verify.tv's store comparison in parts: a lane's access taken where the lane
is enabled (smt.under), and the values asked once per distinct pair of value
terms (kernel._split_by_values), sound either way."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

from verify import smt
from verify.target import get
from verify.tv.compile import by_llvmlite_isolated
from verify.tv.kernel import _split_by_values

ROOT = Path(__file__).resolve().parent.parent


def test_under_takes_the_branch_its_condition_selects():
    B = smt.Z3()
    e0, e1 = B.fresh_bool("e0"), B.fresh_bool("e1")
    new, old = B.fresh("new"), B.fresh("old")
    w = B.ite(e0, new, old)  # a VALU write in lane 0
    assert smt.under(w, e0).eq(new)
    assert smt.under(w, e1).eq(w)  # another lane's condition: unchanged
    assert smt.under(B.ite(e0, w, old), e0).eq(new)  # written twice under the same EXEC
    assert smt.under(7, e0) == 7 and smt.under(w, True).eq(w)


def _pairs(B, W, ir_val, gpu_val):
    """W lanes storing at base + 4 * lane on both sides, enabled by e_i."""
    base = B.fresh("base")
    es = [B.fresh_bool(f"e{i}") for i in range(W)]
    out = []
    for i in range(W):
        a = B.add(base, B.const(4 * i))
        out.append(((a, 0, ir_val(i), False, es[i]), (a, 0, gpu_val(i), False, es[i])))
    return out


def test_a_shared_value_is_asked_once_and_a_wrong_one_is_not_proved():
    B = smt.Z3()
    xs = B.fresh_lanes("x", 8)
    idx = B.fresh("l")
    uniform = B.select(xs, B.and_(idx, B.const(7)))
    q = smt.Query(10.0, session=B.session)
    assert _split_by_values(q, B, True, _pairs(B, 8, lambda i: uniform, lambda i: uniform))
    other = B.select(xs, B.and_(B.add(idx, B.const(1)), B.const(7)))
    assert not _split_by_values(q, B, True, _pairs(B, 8, lambda i: uniform, lambda i: other))
    # nothing shared between lanes: left to the lane-by-lane questions,
    # unless each lane's two values are settled by their skeleton (here the
    # same term); with `skeletons` (EXEC concrete) nothing is asked otherwise
    assert _split_by_values(q, B, True, _pairs(B, 8, lambda i: xs[i], lambda i: xs[i]))
    plus = [B.add(x, B.const(0x10000)) for x in xs]
    assert not _split_by_values(q, B, True, _pairs(B, 8, lambda i: xs[i], lambda i: plus[i]))
    asked = smt.query_count()
    assert not _split_by_values(q, B, True, _pairs(B, 8, lambda i: xs[i], lambda i: plus[i]), skeletons=True)
    assert smt.query_count() == asked


def test_a_lane_loop_fold_wrapped_in_the_gpus_selects_is_settled_by_its_skeleton():
    """LLVM's wave.reduce loop inside a branch (reduce.umax.ll's
    `divergent_cfg`): the GPU's value is the IR's fold F wrapped in selects
    of its own, ite(!any, in, ite(u, ite(!any, v63, F), in)) where any is
    u or others, against the IR's ite(u, F, in).  F is a select too but
    both sides reach it, so it is a leaf: proved without the solver; the
    same with the wrong branch's value is not."""
    B = smt.Z3()
    xs = B.fresh_lanes("x", 4)
    inn, v63 = B.fresh("in"), B.fresh("v63")
    us = [B.ult(x, B.const(16)) for x in xs]
    acc = B.const(0)
    for u, x in zip(us, xs):
        acc = B.ite(u, B.umax(acc, x), acc)
    anyu = B.or_b(*us)
    ir = B.ite(us[0], acc, inn)
    gpu = B.ite(B.not_b(anyu), inn, B.ite(us[0], B.ite(B.not_b(anyu), v63, acc), inn))
    q = smt.Query(10.0, session=B.session)
    asked = smt.query_count()
    assert smt.skeleton_unsat(B.ne(ir, gpu), 2_000_000, shared=True)
    assert smt.query_count() == asked
    assert not smt.skeleton_unsat(B.ne(ir, gpu), 2_000_000)  # splitting F four levels deep: not settled
    wrong = B.ite(B.not_b(anyu), inn, B.ite(us[0], B.ite(B.not_b(anyu), v63, inn), acc))
    assert not smt.skeleton_unsat(B.ne(ir, wrong), 2_000_000, shared=True)
    assert _split_by_values(q, B, True, _pairs(B, 1, lambda i: ir, lambda i: gpu), skeletons=True)


@pytest.mark.slow  # two kernel proofs, about 15 s
def test_readlane_with_a_uniform_lane_proves_and_its_mutant_is_refuted(tmp_path):
    """The kernel whose 64 lane questions each went through the readlane's
    select (14 s on gfx1030 wave64): proved; LLVM's code reading lane 1
    instead of lane l is refuted with the memory word that differs."""
    src = ROOT / "tests" / "tv" / "kernel_readlane_inreg.ll"
    code, out, err = cli("tv", str(src), "--target", "gfx1030", "--wave", "64")
    assert code == 0 and "proved" in out, out + err
    asm = by_llvmlite_isolated(src.read_text(), get("gfx1030"), 64)
    lines = [ln for ln in asm.splitlines() if "v_readlane_b32" in ln]
    assert len(lines) == 1, lines
    bad = tmp_path / "bad.s"
    bad.write_text(asm.replace(lines[0], lines[0].rsplit(",", 1)[0] + ", 1"))
    code, out, err = cli("tv", str(src), "--asm", str(bad), "--target", "gfx1030", "--wave", "64")
    assert code == 1 and "refuted" in out and "memory at" in out, out + err
