"""`<N x i64>` integer arithmetic in verify tv (verify/tv/wideir.py, issue
31): each element an i64 operation with its own poison and flags; LLVM's
code for a readfirstlane of a `<2 x i64>` then add, shl and `sub nuw` is
proved, and mutants of its carry and of one element's shift are refuted."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import LLC, llc_asm, mutate, tv_on_asm

from verify import smt
from verify.backend import Concrete
from verify.tv import wideir
from verify.tv.llir import read_module
from verify.tv.types import Lanes

IR = """define amdgpu_kernel void @vadd(ptr addrspace(1) %out, ptr addrspace(1) %src, <2 x i64> %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gs = getelementptr <2 x i64>, ptr addrspace(1) %src, i32 %id
  %v = load <2 x i64>, ptr addrspace(1) %gs
  %r = call <2 x i64> @llvm.amdgcn.readfirstlane.v2i64(<2 x i64> %v)
  %a = add <2 x i64> %r, %k
  %b = shl <2 x i64> %a, <i64 3, i64 33>
  %c = sub nuw <2 x i64> %v, %b
  %g = getelementptr <2 x i64>, ptr addrspace(1) %out, i32 %id
  store <2 x i64> %c, ptr addrspace(1) %g
  ret void
}
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize(("old", "new"), [(None, None),
                                          ("s_addc_u32 s3, s3, s5", "s_add_u32 s3, s3, s5"),  # element 0's carry lost
                                          ("s_lshl_b32 s4, s7, 1", "s_lshl_b32 s4, s7, 2")])  # element 1 shifted by 34
def test_vector_of_i64_arithmetic(tmp_path: Path, old: str | None, new: str | None) -> None:
    src = tmp_path / "v64.ll"
    src.write_text(IR)
    asm = llc_asm(src, "gfx1100")
    if old is not None and new is not None:
        asm = mutate(asm, old, new)
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32")
    assert (code, r["verdict"]) == ((0, "proved") if old is None else (1, "refuted")), r


def _run(B, text: str, a: Lanes, b: Lanes):
    class Run:
        wave = 1

        def __init__(self):
            self.B = B

        def _flags(self, ins):
            return [w for w in ins.words if w in ("nuw", "nsw", "exact", "disjoint")]

        def operand(self, op):
            return {"a:a": a, "a:b": b}[op.key]

    mod = read_module("t.ll", f"define void @f(<2 x i64> %a, <2 x i64> %b) {{\n  {text}\n  ret void\n}}\n")
    (ins,) = [i for i in mod.functions[0].insts if i.opcode != "ret"]
    return wideir.step(Run(), ins)


def _vec(B, xs: list[int]) -> Lanes:
    elems = [Lanes([B.const(x & 0xFFFFFFFF)], [False], 64, False, [B.const(x >> 32)]) for x in xs]
    return Lanes(elems[0].vals, elems[0].poison, 128, False, None, elems, "<2 x i64>")


@pytest.mark.parametrize(("text", "xs", "ys", "want"), [
    ("%r = add <2 x i64> %a, %b", [0xFFFFFFFF, 1 << 63], [1, 1 << 63], [(1 << 32, False), (0, False)]),
    ("%r = add nuw <2 x i64> %a, %b", [0xFFFFFFFF, 1 << 63], [1, 1 << 63], [(1 << 32, False), (None, True)]),
    ("%r = shl <2 x i64> %a, %b", [1, 1], [33, 64], [(1 << 33, False), (None, True)]),
    ("%r = sub <2 x i64> %a, %b", [0, 5], [1, 3], [((1 << 64) - 1, False), (2, False)]),
])
def test_vector_of_i64_elements_on_both_backends(text: str, xs: list[int], ys: list[int], want) -> None:
    """Each element's value and poison, concretely and symbolically alike."""
    for B in (Concrete(), smt.Z3()):
        r = _run(B, text, _vec(B, xs), _vec(B, ys))
        assert r.parts is not None and len(r.parts) == 2
        for e, (v, p) in zip(r.parts, want):
            assert e.hi is not None
            if not B.symbolic:
                assert bool(e.poison[0]) == p
                assert v is None or (e.hi[0] << 32 | e.vals[0]) == v
                continue
            wrong = [B.not_b(e.poison[0]) if p else e.poison[0]]
            if v is not None:
                wrong.append(B.or_b(B.ne(e.vals[0], B.const(v & 0xFFFFFFFF)), B.ne(e.hi[0], B.const(v >> 32))))
            for w in wrong:
                if w is False:
                    continue
                q = smt.Query(10, session=B.session)
                q.add(w)
                assert q.check() == "unsat", (text, v, p)
